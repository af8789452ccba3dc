//! The `-identity` conversion leaves no secret in freed memory: not the native identity it
//! reads, not the seed, not the plugin identity it writes. (Before, the output string grew by
//! `push`, and its first buffer, holding a whole `AGE-PLUGIN-PQ-1…` line, was freed unwiped;
//! `read_to_end` did the same with the input.)

#[path = "../../../pkcs11/tests/common/scan.rs"]
mod scan;

use age::secrecy::ExposeSecret;
use typed_hpke_age::pq::Identity;
use typed_hpke_age_plugin_pq::{MAX_IDENTITY_FILE, convert, read_secret};
use zeroize::Zeroizing;

#[test]
fn the_conversion_frees_no_secret() {
    let identities: Vec<Identity> = (0..3).map(|_| Identity::generate()).collect();
    let mut text = Zeroizing::new(String::with_capacity(4096));
    text.push_str("# created: now\n");
    for identity in &identities {
        text.push_str("# public key: ...\n");
        text.push_str(identity.to_string().expose_secret());
        text.push('\n');
    }
    let native = identities[0].to_string();
    let plugin = identities[0].to_plugin_string();
    let seed = identities[0].private_key().to_bytes();
    // 60 characters of each string hold 300 bits of the 256-bit seed.
    let needles: [&[u8]; 3] = [
        &native.expose_secret().as_bytes()[..60],
        &plugin.expose_secret().as_bytes()[..60],
        &seed[..],
    ];
    let mut out = None;
    let freed = scan::freed_blocks_holding(&needles, || {
        // Read as the binary reads standard input: no size known, the buffer grown by copies.
        let read = read_secret(text.as_bytes(), 0, MAX_IDENTITY_FILE)
            .expect("reads")
            .expect("under the limit");
        out = Some(convert(&read).expect("converts"));
    });
    assert_eq!(freed, 0, "freed blocks holding a secret");
    let out = out.unwrap();
    assert_eq!(out.lines().count(), 3);
    assert!(out.starts_with(plugin.expose_secret()));
}

#[test]
fn reading_stops_one_byte_over_the_limit() {
    let at = vec![b'#'; 1000];
    assert_eq!(read_secret(&at[..], 0, 1000).unwrap().unwrap().len(), 1000);
    assert!(read_secret(&at[..], 0, 999).unwrap().is_none());
    assert!(read_secret(&at[..], 2000, 999).unwrap().is_none());
}
