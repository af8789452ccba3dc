//! The published vectors: the age test kit's `mlkem768x25519` files through `age::Decryptor`
//! with this crate's identity, and the spec's example strings and stanzas.

use std::io::Read;
use std::path::{Path, PathBuf};

use age::DecryptError;
use age_core::format::Stanza;
use typed_hpke::kdf::HkdfSha256;
use typed_hpke::symmetric::hash;
use typed_hpke_age::pq;
use typed_hpke_age::tag::{MlKem768P256TagRecipient, P256TagRecipient};

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn files_match_readme_sha256() {
    let readme = std::fs::read_to_string(testdata().join("README.md")).unwrap();
    let listed: Vec<(String, String)> = readme
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells.len() == 4 && cells[1].starts_with('`') && cells[2].len() == 66).then(|| {
                (
                    cells[1].trim_matches('`').into(),
                    cells[2].trim_matches('`').into(),
                )
            })
        })
        .collect();
    let mut on_disk = vec![];
    for dir in ["cctv", "spec"] {
        for entry in std::fs::read_dir(testdata().join(dir)).unwrap() {
            on_disk.push(format!(
                "{dir}/{}",
                entry.unwrap().file_name().to_str().unwrap()
            ));
        }
    }
    on_disk.sort();
    let mut names: Vec<String> = listed.iter().map(|(n, _)| n.clone()).collect();
    names.sort();
    assert_eq!(names, on_disk, "README.md's table and the files differ");
    for (name, sha) in &listed {
        let bytes = std::fs::read(testdata().join(name)).unwrap();
        assert_eq!(&hex(&hash::<HkdfSha256>(&[&bytes])), sha, "{name}");
    }
}

/// One kit vector: its header lines and the file after the blank line.
struct Vector {
    name: String,
    expect: String,
    payload: Option<String>,
    identities: Vec<String>,
    armored: bool,
    file: Vec<u8>,
}

fn read_vector(path: &Path) -> Vector {
    let raw = std::fs::read(path).unwrap();
    let split = raw
        .windows(2)
        .position(|w| w == b"\n\n")
        .expect("a blank line");
    let header = std::str::from_utf8(&raw[..split]).unwrap();
    let mut body = raw[split + 2..].to_vec();
    let mut v = Vector {
        name: path.file_name().unwrap().to_str().unwrap().into(),
        expect: String::new(),
        payload: None,
        identities: vec![],
        armored: false,
        file: vec![],
    };
    let mut compressed = false;
    for line in header.lines() {
        let (key, value) = line.split_once(": ").expect("key: value");
        match key {
            "expect" => v.expect = value.into(),
            "payload" => v.payload = Some(value.into()),
            "identity" => v.identities.push(value.into()),
            "armored" => v.armored = value == "yes",
            "compressed" => compressed = value == "zlib",
            "file key" | "comment" => {}
            other => panic!("{}: unknown key {other}", v.name),
        }
    }
    if compressed {
        let mut out = vec![];
        flate2::read::ZlibDecoder::new(&body[..])
            .read_to_end(&mut out)
            .unwrap();
        body = out;
    }
    v.file = body;
    v
}

/// What decrypting the vector gives, in the kit's words, and the plaintext released.
fn outcome(v: &Vector) -> (String, Vec<u8>) {
    let identities: Vec<Box<dyn age::Identity>> = v
        .identities
        .iter()
        .map(|s| -> Box<dyn age::Identity> {
            if s.starts_with("AGE-SECRET-KEY-PQ-") {
                Box::new(s.parse::<pq::Identity>().unwrap())
            } else {
                Box::new(s.parse::<age::x25519::Identity>().unwrap())
            }
        })
        .collect();
    let input: Box<dyn Read> = if v.armored {
        Box::new(age::armor::ArmoredReader::new(&v.file[..]))
    } else {
        Box::new(&v.file[..])
    };
    // The kit's classes as the `age` crate's own kit test maps its errors (its
    // tests/testkit.rs): a header its parser cannot read is `UnknownFormat`.
    let class = |e: DecryptError| match e {
        DecryptError::InvalidHeader | DecryptError::UnknownFormat => "header failure",
        DecryptError::NoMatchingKeys => "no match",
        DecryptError::InvalidMac => "HMAC failure",
        DecryptError::Io(_) if v.armored => "armor failure",
        other => panic!("{}: unexpected error {other:?}", v.name),
    };
    let decryptor = match age::Decryptor::new(input) {
        Ok(d) => d,
        Err(e) => return (class(e).into(), vec![]),
    };
    let mut reader = match decryptor.decrypt(identities.iter().map(|i| i.as_ref() as _)) {
        Ok(r) => r,
        Err(e) => return (class(e).into(), vec![]),
    };
    let mut out = vec![];
    match reader.read_to_end(&mut out) {
        Ok(_) => ("success".into(), out),
        Err(_) => ("payload failure".into(), out),
    }
}

#[test]
fn cctv_mlkem768x25519() {
    let mut dir: Vec<PathBuf> = std::fs::read_dir(testdata().join("cctv"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dir.sort();
    let mut by_class = std::collections::BTreeMap::<String, usize>::new();
    for path in &dir {
        let v = read_vector(path);
        let (got, plaintext) = outcome(&v);
        assert_eq!(got, v.expect, "{}", v.name);
        if let Some(payload) = &v.payload {
            assert_eq!(
                &hex(&hash::<HkdfSha256>(&[&plaintext])),
                payload,
                "{}",
                v.name
            );
        }
        *by_class.entry(got).or_default() += 1;
    }
    // Every vector of the kit with a post-quantum identity, each counted once.
    assert_eq!(dir.len(), 19);
    assert_eq!(
        by_class.into_iter().collect::<Vec<_>>(),
        [
            ("header failure".into(), 9),
            ("no match".into(), 5),
            ("success".into(), 5)
        ]
    );
}

fn spec(name: &str) -> String {
    std::fs::read_to_string(testdata().join("spec").join(name))
        .unwrap()
        .trim()
        .to_owned()
}

/// A stanza as printed: `-> type args...`, then the body lines.
fn parse_stanza(text: &str) -> Stanza {
    use base64::Engine as _;
    let mut lines = text.lines();
    let mut args = lines.next().unwrap().split(' ').skip(1).map(String::from);
    let tag = args.next().unwrap();
    let body: String = lines.collect();
    Stanza {
        tag,
        args: args.collect(),
        body: base64::prelude::BASE64_STANDARD_NO_PAD
            .decode(body)
            .unwrap(),
    }
}

#[test]
fn spec_strings_round_trip() {
    use age_core::secrecy::ExposeSecret as _;
    let identity: pq::Identity = spec("pq.identity").parse().unwrap();
    assert_eq!(identity.to_string().expose_secret(), spec("pq.identity"));
    assert_eq!(identity.to_public().to_string(), spec("pq.recipient"));
    let recipient: pq::Recipient = spec("pq.recipient").parse().unwrap();
    assert_eq!(recipient, identity.to_public());
    let tag: P256TagRecipient = spec("tag.recipient").parse().unwrap();
    assert_eq!(tag.to_string(), spec("tag.recipient"));
    let tagpq: MlKem768P256TagRecipient = spec("tagpq.recipient").parse().unwrap();
    // The longest key string there is (README.md, "Limits": 2,015 of the 2,100 allowed).
    assert_eq!(spec("tagpq.recipient").len(), 2015);
    assert_eq!(tagpq.to_string(), spec("tagpq.recipient"));
    // Identities print in upper case and parse in either; mixed case is not Bech32.
    assert!(
        spec("pq.identity")
            .to_lowercase()
            .parse::<pq::Identity>()
            .is_ok()
    );
    let mixed = format!(
        "{}{}",
        &spec("pq.identity")[..20],
        &spec("pq.identity")[20..].to_lowercase()
    );
    assert!(mixed.parse::<pq::Identity>().is_err());
    // Each prefix is its own type's.
    assert!(
        spec("tag.recipient")
            .parse::<MlKem768P256TagRecipient>()
            .is_err()
    );
    assert!(spec("tagpq.recipient").parse::<P256TagRecipient>().is_err());
    assert!(spec("x25519.recipient").parse::<pq::Recipient>().is_err());
    assert!(spec("x25519.identity").parse::<pq::Identity>().is_err());
}

#[test]
fn spec_pq_stanza_is_well_formed() {
    use age::Identity as _;
    let stanza = parse_stanza(&spec("stanza-pq.txt"));
    assert_eq!(stanza.body.len(), 32);
    // The example stanza is sealed to the example identity: it opens, to a 16-byte file key.
    let identity: pq::Identity = spec("pq.identity").parse().unwrap();
    assert!(matches!(identity.unwrap_stanza(&stanza), Some(Ok(_))));
    // Another identity passes it over; a body one byte longer is refused before any HPKE work.
    assert!(pq::Identity::generate().unwrap_stanza(&stanza).is_none());
    let mut long = parse_stanza(&spec("stanza-pq.txt"));
    long.body.push(0);
    assert!(matches!(
        identity.unwrap_stanza(&long),
        Some(Err(DecryptError::InvalidHeader))
    ));
}

/// The defect test-vectors' README names: the printed tags are not what the stated formula
/// gives for the printed `enc` and recipient.
#[test]
fn spec_tags_have_the_known_defect() {
    use base64::Engine as _;
    let b64 = base64::prelude::BASE64_STANDARD_NO_PAD;
    for (stanza, recipient) in [
        ("stanza-tag.txt", "tag.recipient"),
        ("stanza-tagpq.txt", "tagpq.recipient"),
    ] {
        let stanza = parse_stanza(&spec(stanza));
        let printed = b64.decode(&stanza.args[0]).unwrap();
        let enc = b64.decode(&stanza.args[1]).unwrap();
        let computed = if stanza.tag == "p256tag" {
            spec(recipient)
                .parse::<P256TagRecipient>()
                .unwrap()
                .tag(&enc)
        } else {
            spec(recipient)
                .parse::<MlKem768P256TagRecipient>()
                .unwrap()
                .tag(&enc)
        };
        assert_eq!(printed.len(), 4);
        assert_ne!(
            printed, computed,
            "{}: the printed tag now matches the formula",
            stanza.tag
        );
    }
}
