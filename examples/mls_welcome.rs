//! MLS Welcome (RFC 9420 §12.4.3.1): one committer encrypts the group secrets to every new
//! member's KeyPackage init key in one go. `cargo run --release --example mls_welcome`.
//!
//! MLS wraps HPKE as `EncryptWithLabel(PublicKey, "Welcome", encrypted_group_info,
//! GroupSecrets)`: a Base-mode single-shot seal with
//! `info = EncryptContext { label = "MLS 1.0 Welcome", context = encrypted_group_info }` and
//! empty aad (§5.1.3). The MLS cipher suite on the wire picks the HPKE suite at run time.
//!
//! With OpenMLS, none of this is written by hand: `typed_hpke_openmls::OpenMlsTypedHpke`
//! (`integrations/openmls`) is an OpenMLS provider whose HPKE is this crate, and its tests run
//! whole group lifecycles, Welcomes included, beside OpenMLS' stock provider.

use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};
use typed_hpke::{Error, OsRng};

/// The HPKE suite of an MLS cipher suite (RFC 9420 §17.1), for the ones this crate has.
fn hpke_suite(mls_cipher_suite: u16) -> Result<Suite, Error> {
    let (kem, kdf, aead) = match mls_cipher_suite {
        0x0001 => (0x0020, 0x0001, 0x0001), // MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519
        0x0002 => (0x0010, 0x0001, 0x0001), // MLS_128_DHKEMP256_AES128GCM_SHA256_P256
        0x0003 => (0x0020, 0x0001, 0x0003), // MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519
        0x0004 => (0x0021, 0x0003, 0x0002), // MLS_256_DHKEMX448_AES256GCM_SHA512_Ed448
        0x0005 => (0x0012, 0x0003, 0x0002), // MLS_256_DHKEMP521_AES256GCM_SHA512_P521
        0x0006 => (0x0021, 0x0003, 0x0003), // MLS_256_DHKEMX448_CHACHA20POLY1305_SHA512_Ed448
        0x0007 => (0x0011, 0x0002, 0x0002), // MLS_256_DHKEMP384_AES256GCM_SHA384_P384
        _ => return Err(Error::UnsupportedSuite),
    };
    Suite::new(kem, kdf, aead)
}

/// `EncryptContext` (RFC 9420 §5.1.3): `opaque label<V>; opaque context<V>;` with the label
/// prefixed by "MLS 1.0 " and one-byte varint lengths (both are short here).
fn encrypt_context(label: &[u8], context: &[u8]) -> Vec<u8> {
    let full_label = [b"MLS 1.0 ".as_slice(), label].concat();
    assert!(full_label.len() < 64 && context.len() < 64);
    [
        &[full_label.len() as u8],
        full_label.as_slice(),
        &[context.len() as u8],
        context,
    ]
    .concat()
}

fn main() -> Result<(), Error> {
    let mut rng = OsRng::default();
    let encrypted_group_info = b"<the encrypted GroupInfo of epoch 42>".to_vec();
    let info = encrypt_context(b"Welcome", &encrypted_group_info);
    let group_secrets = b"GroupSecrets { joiner_secret, path_secret, psks }".to_vec();

    for (mls_suite, members) in [
        (0x0001u16, 100usize),
        (0x0003, 20),
        (0x0002, 20),
        (0x0007, 5),
    ] {
        let suite = hpke_suite(mls_suite)?;
        // Each new member published a KeyPackage whose init key is an HPKE public key.
        let keys: Vec<_> = (0..members)
            .map(|_| suite.generate_key_pair(&mut rng))
            .collect::<Result<_, _>>()?;

        // The committer: one EncryptedGroupSecrets per new member, sealed in one call (spread
        // over cores with the `rayon` feature). The init keys are used once each, so they are
        // not prepared. Every member gets the same GroupSecrets here; with a path secret per
        // member, pass one plaintext each.
        let init_keys: Vec<_> = keys.iter().map(|(_, pk)| pk).collect();
        let start = std::time::Instant::now();
        let welcome = suite.seal_base_many(&mut rng, &init_keys, &info, b"", &[&group_secrets])?;
        let elapsed = start.elapsed();

        // The same as one single-shot seal per member, which gives entries as valid.
        let single = suite.seal(
            &mut rng,
            init_keys[0],
            &info,
            b"",
            &group_secrets,
            SenderMode::Base,
        )?;
        assert_eq!(
            suite.open(
                &single.0,
                &keys[0].0,
                &info,
                b"",
                &single.1,
                ReceiverMode::Base
            )?,
            group_secrets
        );

        // Every member finds its entry and decrypts the same group secrets; nobody else's
        // entry opens with its key.
        for (i, (sk, _)) in keys.iter().enumerate() {
            let (enc, ct) = &welcome[i];
            let opened = suite.open(enc, sk, &info, b"", ct, ReceiverMode::Base)?;
            assert_eq!(opened, group_secrets);
            let (other_enc, other_ct) = &welcome[(i + 1) % members];
            if members > 1 {
                assert!(
                    suite
                        .open(other_enc, sk, &info, b"", other_ct, ReceiverMode::Base)
                        .is_err()
                );
            }
        }
        println!(
            "MLS cipher suite {mls_suite:#06x} (HPKE kem {:#06x} kdf {:#06x} aead {:#06x}): Welcome to {members} members, \
             {} bytes of EncryptedGroupSecrets, sealed in {:.1?}; every member opened its entry",
            suite.kem_id(),
            suite.kdf_id(),
            suite.aead_id(),
            welcome
                .iter()
                .map(|(e, c)| e.len() + c.len())
                .sum::<usize>(),
            elapsed
        );
    }
    println!("ok");
    Ok(())
}
