//! `age-plugin-pkcs11tag`: age's tagged identities (c2sp.org/age, `p256tag` and
//! `mlkem768p256tag`) with their keys in a PKCS#11 token, as an age plugin (c2sp.org/age-plugin),
//! so that the `age` and `rage` command lines decrypt with a key that never leaves the token. The
//! recipients are age's own `age1tag1…` / `age1tagpq1…`, which age v1.3 and rage 0.12 encrypt to
//! natively; only decryption needs the plugin.
//!
//! ```text
//! age-plugin-pkcs11tag --generate [--pq | --pq-split] --module PATH --token LABEL --label KEY [-o OUTPUT]
//! ```
//! makes a key in the token and prints the identity file: the recipient as a comment and the
//! `AGE-PLUGIN-PKCS11TAG-1…` line. The PIN is read from `AGE_PLUGIN_PKCS11TAG_PIN`, else from
//! the first line of standard input (keygen) or asked of the age client (decryption, which asks
//! the user). `--pq` makes a `mlkem768p256tag` key with both halves in the token, which must
//! serve ML-KEM (PKCS#11 3.2's `C_DecapsulateKey`); `--pq-split` keeps the P-256 half in the
//! token and the ML-KEM-768 half's seed in the identity, which is then a secret (the command
//! says so).
//!
//! The identity names the token's module, the token's label and the key's `CKA_ID` (a key is
//! found by its id, which typed-hpke-pkcs11 sets at random when it makes the key, never by a
//! label anyone with access to the token can reuse); see [`IdentityData`].

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::convert::Infallible;
use std::fs::OpenOptions;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use age_core::format::{FileKey, Stanza};
use age_core::secrecy::{ExposeSecret, SecretString};
use age_plugin::identity::{self, IdentityPluginV1};
use age_plugin::{Callbacks, PluginHandler, run_state_machine};
use bech32::{Bech32, Hrp};
use typed_hpke_age::tag::{MlKem768P256TagIdentity, P256TagIdentity, TagRecipient};
use typed_hpke_age::typed_hpke::kem::{DhKemP256HkdfSha256, Kem, MlKem768, MlKem768P256};
use typed_hpke_age::typed_hpke::{OsRng, PrivateKey};
use typed_hpke_pkcs11::{Token, TokenKey};
use zeroize::Zeroizing;

const PLUGIN_NAME: &str = "pkcs11tag";
const IDENTITY_HRP: &str = "AGE-PLUGIN-PKCS11TAG-";
const PIN_VARIABLE: &str = "AGE_PLUGIN_PKCS11TAG_PIN";
/// The stanza types a tagged identity answers.
const STANZA_TYPES: [&str; 2] = ["p256tag", "mlkem768p256tag"];

const USAGE: &str = "Usage:
    age-plugin-pkcs11tag --generate [--pq | --pq-split] --module PATH --token LABEL --label KEY
        [-o OUTPUT]

Makes a p256tag key in the PKCS#11 token LABEL of the module at PATH and prints its identity
file: the age1tag1... recipient as a comment, and the AGE-PLUGIN-PKCS11TAG-1... identity to give
age -d -i / rage -d -i. --pq makes a mlkem768p256tag key (age1tagpq1...) with both halves in
the token, which must serve ML-KEM (PKCS#11 3.2); --pq-split keeps its P-256 half in the token
and its ML-KEM-768 half in the identity, which is then a secret. The PIN is read from
AGE_PLUGIN_PKCS11TAG_PIN, else from the first line of standard input.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("age-plugin-pkcs11tag: error: {message}");
            ExitCode::FAILURE
        }
    }
}

#[derive(Default)]
struct Generate {
    pq: bool,
    pq_split: bool,
    module: Option<String>,
    token: Option<String>,
    label: Option<String>,
    output: Option<String>,
}

fn run(args: &[String]) -> Result<(), String> {
    let mut generate = None;
    let mut options = Generate::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let flag = arg
            .strip_prefix("--")
            .or_else(|| arg.strip_prefix('-'))
            .ok_or_else(|| format!("unexpected argument {arg}\n{USAGE}"))?;
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (flag, None),
        };
        let mut value = || -> Result<String, String> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => rest.next().cloned().ok_or(format!("{arg} needs a value")),
            }
        };
        match name {
            "age-plugin" => {
                return run_state_machine(&value()?, Handler).map_err(|e| e.to_string());
            }
            "generate" => generate = Some(()),
            "pq" => options.pq = true,
            "pq-split" => options.pq_split = true,
            "module" => options.module = Some(value()?),
            "token" => options.token = Some(value()?),
            "label" => options.label = Some(value()?),
            "o" | "output" => options.output = Some(value()?),
            "version" => {
                println!("v{}", env!("CARGO_PKG_VERSION"));
                return Ok(());
            }
            "h" | "help" => {
                eprintln!("{USAGE}");
                return Ok(());
            }
            _ => return Err(format!("unknown flag {arg}\n{USAGE}")),
        }
    }
    if generate.is_none() {
        eprintln!("{USAGE}");
        return Err("nothing to do: give --generate, or let an age client run the plugin".into());
    }
    keygen(options)
}

/// What an `AGE-PLUGIN-PKCS11TAG-1…` identity holds, in this order:
/// - one byte, the format: 1;
/// - one byte, the key: 1 a `p256tag` key in the token; 2 a `mlkem768p256tag` key with both
///   halves in the token; 3 a `mlkem768p256tag` key with the P-256 half in the token and the
///   ML-KEM-768 half here;
/// - the module's path, the token's label and the key's `CKA_ID`, each a two-byte big-endian
///   length (at most 4,096, 32 and 64 bytes) and the bytes;
/// - for kind 3, the ML-KEM-768 seed (`d || z`, 64 bytes).
///
/// Nothing may follow. Without an ML-KEM seed the identity is no secret: it says where the key
/// is, and the token's PIN guards it.
struct IdentityData {
    kind: Kind,
    module: PathBuf,
    token: String,
    id: Vec<u8>,
    ml_kem_seed: Option<Zeroizing<Vec<u8>>>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    P256Tag = 1,
    TagPqInToken = 2,
    TagPqSplit = 3,
}

const FORMAT: u8 = 1;
const MAX_MODULE: usize = 4096;
const MAX_TOKEN: usize = 32;
const MAX_ID: usize = 64;
const ML_KEM_SEED: usize = 64;

impl IdentityData {
    fn encode(&self) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(vec![FORMAT, self.kind as u8]);
        let module = self.module.to_string_lossy();
        for field in [module.as_bytes(), self.token.as_bytes(), &self.id] {
            out.extend_from_slice(&(field.len() as u16).to_be_bytes());
            out.extend_from_slice(field);
        }
        if let Some(seed) = &self.ml_kem_seed {
            out.extend_from_slice(seed);
        }
        out
    }

    fn decode(bytes: &[u8]) -> Result<Self, &'static str> {
        let [FORMAT, kind, rest @ ..] = bytes else {
            return Err("not an identity of this plugin's format 1");
        };
        let kind = match kind {
            1 => Kind::P256Tag,
            2 => Kind::TagPqInToken,
            3 => Kind::TagPqSplit,
            _ => return Err("unknown kind of key"),
        };
        let mut rest = rest;
        let mut field = |max: usize| -> Result<Vec<u8>, &'static str> {
            let [a, b, tail @ ..] = rest else {
                return Err("truncated identity");
            };
            let len = usize::from(u16::from_be_bytes([*a, *b]));
            if len > max || len > tail.len() {
                return Err("a field of the identity is too long");
            }
            let (value, tail) = tail.split_at(len);
            rest = tail;
            Ok(value.to_vec())
        };
        let module = String::from_utf8(field(MAX_MODULE)?).map_err(|_| "module path not UTF-8")?;
        let token = String::from_utf8(field(MAX_TOKEN)?).map_err(|_| "token label not UTF-8")?;
        let id = field(MAX_ID)?;
        if module.is_empty() || id.is_empty() {
            return Err("the identity names no module or no key id");
        }
        let ml_kem_seed = match (kind, rest.len()) {
            (Kind::TagPqSplit, ML_KEM_SEED) => Some(Zeroizing::new(rest.to_vec())),
            (Kind::P256Tag | Kind::TagPqInToken, 0) => None,
            _ => return Err("trailing bytes, or a missing ML-KEM seed"),
        };
        Ok(Self {
            kind,
            module: PathBuf::from(module),
            token,
            id,
            ml_kem_seed,
        })
    }

    /// The identity line, written into a string that never grows (so leaves no copy of a
    /// seed behind) and is wiped.
    fn to_string(&self) -> SecretString {
        let hrp = Hrp::parse(IDENTITY_HRP).expect("a valid human-readable part");
        let data = self.encode();
        let mut encoded = Zeroizing::new(String::with_capacity(
            IDENTITY_HRP.len() + 1 + (data.len() * 8).div_ceil(5) + 6,
        ));
        let capacity = encoded.capacity();
        bech32::encode_upper_to_fmt::<Bech32Long, _>(&mut *encoded, hrp, &data)
            .expect("writing to a string");
        debug_assert_eq!(encoded.capacity(), capacity);
        SecretString::from(encoded.as_str())
    }
}

/// age's Bech32 for long strings (the age crates' `Bech32Long`): BIP 173's checksum without its
/// 90-character limit, which a module path can pass.
enum Bech32Long {}

impl bech32::Checksum for Bech32Long {
    type MidstateRepr = <Bech32 as bech32::Checksum>::MidstateRepr;
    const CODE_LENGTH: usize = usize::MAX;
    const CHECKSUM_LENGTH: usize = Bech32::CHECKSUM_LENGTH;
    const GENERATOR_SH: [Self::MidstateRepr; 5] = Bech32::GENERATOR_SH;
    const TARGET_RESIDUE: Self::MidstateRepr = Bech32::TARGET_RESIDUE;
}

/// The token's PIN: the variable, else `ask`.
fn pin(ask: impl FnOnce() -> Result<SecretString, String>) -> Result<SecretString, String> {
    match std::env::var(PIN_VARIABLE) {
        Ok(pin) => Ok(SecretString::from(Zeroizing::new(pin).as_str())),
        Err(_) => ask(),
    }
}

fn keygen(options: Generate) -> Result<(), String> {
    let module = options.module.ok_or("--module is required")?;
    let token_label = options.token.ok_or("--token is required")?;
    let label = options.label.ok_or("--label is required")?;
    if options.pq && options.pq_split {
        return Err("--pq and --pq-split: one or the other".into());
    }
    let pin = pin(|| {
        let mut line = Zeroizing::new(String::new());
        io::stdin()
            .lock()
            .take_line(&mut line)
            .map_err(|e| format!("reading the PIN: {e}"))?;
        Ok(SecretString::from(line.trim_end_matches(['\r', '\n'])))
    })?;
    let token = Token::open(&module, &token_label, pin.expose_secret())
        .map_err(|e| format!("token {token_label:?}: {e}"))?;
    let (data, recipient) = if !options.pq && !options.pq_split {
        let key = token
            .generate_key(DhKemP256HkdfSha256::ID, &label)
            .map_err(|e| format!("generating a P-256 key: {e}"))?;
        let recipient = p256_identity(&key)?.to_public().to_string();
        (
            data(Kind::P256Tag, &module, &token_label, &key, None),
            recipient,
        )
    } else if !options.pq_split {
        let key = token.generate_key(MlKem768P256::ID, &label).map_err(|e| {
            format!(
                "generating an MLKEM768-P256 key in the token: {e} (a token without ML-KEM, \
                 PKCS#11 3.2's, can keep the P-256 half alone: --pq-split)"
            )
        })?;
        let recipient = TagRecipient::<MlKem768P256>::from_public_key(
            key.public_key()
                .as_typed::<MlKem768P256>()
                .ok_or("the token made another kind of key")?
                .clone(),
        )
        .to_string();
        (
            data(Kind::TagPqInToken, &module, &token_label, &key, None),
            recipient,
        )
    } else {
        eprintln!(
            "age-plugin-pkcs11tag: the P-256 half goes in the token, the ML-KEM-768 half in the \
             identity, which is then a SECRET: keep it as you would a private key"
        );
        let key = token
            .generate_key(DhKemP256HkdfSha256::ID, &label)
            .map_err(|e| format!("generating a P-256 key: {e}"))?;
        let (ml_kem, _) = MlKem768::generate(&mut OsRng::default())
            .map_err(|_| "the operating system's generator failed")?;
        let seed = Zeroizing::new(ml_kem.to_bytes().to_vec());
        let identity = split_identity(ml_kem, &key)?;
        (
            data(Kind::TagPqSplit, &module, &token_label, &key, Some(seed)),
            identity.to_public().to_string(),
        )
    };
    let identity = data.to_string();
    let text = Zeroizing::new(format!(
        "# token: {token_label}, key: {label}\n# public key: {recipient}\n{}\n",
        identity.expose_secret()
    ));
    match options.output {
        None => io::stdout().write_all(text.as_bytes()),
        Some(path) => {
            let mut options = OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            options
                .open(&path)
                .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()))
        }
    }
    .map_err(|e| format!("writing the identity: {e}"))?;
    eprintln!("Public key: {recipient}");
    Ok(())
}

/// A line of standard input, read without keeping copies: `BufRead::read_line` into a wiped
/// string.
trait TakeLine {
    fn take_line(&mut self, line: &mut Zeroizing<String>) -> io::Result<usize>;
}

impl<R: BufRead> TakeLine for R {
    fn take_line(&mut self, line: &mut Zeroizing<String>) -> io::Result<usize> {
        // Enough capacity up front that the string does not move (and leave a copy) as it grows.
        line.reserve(256);
        self.read_line(line)
    }
}

fn data(
    kind: Kind,
    module: &str,
    token: &str,
    key: &TokenKey,
    ml_kem_seed: Option<Zeroizing<Vec<u8>>>,
) -> IdentityData {
    IdentityData {
        kind,
        module: PathBuf::from(module),
        token: token.to_owned(),
        id: key.id().to_vec(),
        ml_kem_seed,
    }
}

type Held = typed_hpke_pkcs11::TypedTokenKey<DhKemP256HkdfSha256>;

fn p256_identity(
    key: &TokenKey,
) -> Result<P256TagIdentity<typed_hpke_age::typed_hpke::kem::ExternalDh<Held>>, String> {
    Ok(P256TagIdentity::held_dh(
        key.typed::<DhKemP256HkdfSha256>()
            .map_err(|e| format!("the key: {e}"))?,
    ))
}

fn split_identity(
    ml_kem: PrivateKey<MlKem768>,
    key: &TokenKey,
) -> Result<
    MlKem768P256TagIdentity<typed_hpke_age::typed_hpke::kem::SplitHybrid<MlKem768P256, Held>>,
    String,
> {
    Ok(MlKem768P256TagIdentity::held_split(
        ml_kem,
        key.typed::<DhKemP256HkdfSha256>()
            .map_err(|e| format!("the key's P-256 half: {e}"))?,
    ))
}

/// The identity's key, found in its token by its id.
fn open_identity(
    data: &IdentityData,
    pin: &SecretString,
) -> Result<Box<dyn age::Identity>, String> {
    let token = Token::open(&data.module, &data.token, pin.expose_secret())
        .map_err(|e| format!("token {:?}: {e}", data.token))?;
    let key = token
        .key_by_id(&data.id)
        .map_err(|e| format!("the key in token {:?}: {e}", data.token))?;
    Ok(match data.kind {
        Kind::P256Tag => Box::new(p256_identity(&key)?),
        Kind::TagPqInToken => {
            let public = key
                .public_key()
                .as_typed::<MlKem768P256>()
                .ok_or("the key in the token is not an MLKEM768-P256 key")?
                .clone();
            let holder = key
                .typed::<MlKem768P256>()
                .map_err(|e| format!("the key: {e}"))?;
            Box::new(MlKem768P256TagIdentity::held_decap(
                holder,
                TagRecipient::from_public_key(public),
            ))
        }
        Kind::TagPqSplit => {
            let seed = data.ml_kem_seed.as_ref().ok_or("no ML-KEM seed")?;
            let ml_kem = PrivateKey::<MlKem768>::from_bytes(seed)
                .map_err(|_| "the identity's ML-KEM-768 seed is not one")?;
            Box::new(split_identity(ml_kem, &key)?)
        }
    })
}

struct Handler;

impl PluginHandler for Handler {
    type RecipientV1 = Infallible;
    type IdentityV1 = IdentityPlugin;

    fn identity_v1(self) -> io::Result<Self::IdentityV1> {
        Ok(IdentityPlugin(Vec::new()))
    }
}

/// Decryption with `AGE-PLUGIN-PKCS11TAG-1…` identities: each opened in its token when the
/// client has sent the files, with the PIN from the variable or asked of the client once per
/// token.
struct IdentityPlugin(Vec<IdentityData>);

impl IdentityPluginV1 for IdentityPlugin {
    fn add_identity(
        &mut self,
        index: usize,
        plugin_name: &str,
        bytes: &[u8],
    ) -> Result<(), identity::Error> {
        let data = if plugin_name == PLUGIN_NAME {
            IdentityData::decode(bytes)
        } else {
            Err("not a pkcs11tag identity")
        };
        let data = data.map_err(|message| identity::Error::Identity {
            index,
            message: message.to_owned(),
        })?;
        self.0.push(data);
        Ok(())
    }

    fn unwrap_file_keys(
        &mut self,
        files: Vec<Vec<Stanza>>,
        mut callbacks: impl Callbacks<identity::Error>,
    ) -> io::Result<HashMap<usize, Result<FileKey, Vec<identity::Error>>>> {
        let mut found = HashMap::new();
        // No token is opened for files with no tagged stanza (the plugin is asked about every
        // file the client decrypts).
        if !files
            .iter()
            .flatten()
            .any(|s| STANZA_TYPES.contains(&s.tag.as_str()))
        {
            return Ok(found);
        }
        let mut identities = Vec::new();
        let mut errors = Vec::new();
        let mut pins: HashMap<(PathBuf, String), SecretString> = HashMap::new();
        for (index, data) in self.0.iter().enumerate() {
            let slot = (data.module.clone(), data.token.clone());
            if !pins.contains_key(&slot) {
                let message = format!("Enter the PIN of PKCS#11 token {:?}", data.token);
                let asked = pin(|| match callbacks.request_secret(&message) {
                    Ok(Ok(pin)) => Ok(pin),
                    Ok(Err(_)) => Err("no PIN given".to_owned()),
                    Err(e) => Err(format!("asking for the PIN: {e}")),
                });
                match asked {
                    Ok(p) => {
                        pins.insert(slot.clone(), p);
                    }
                    Err(message) => {
                        errors.push((index, message));
                        continue;
                    }
                }
            }
            match open_identity(data, &pins[&slot]) {
                Ok(identity) => identities.push(identity),
                Err(message) => errors.push((index, message)),
            }
        }
        for (file_index, stanzas) in files.iter().enumerate() {
            let mut result = None;
            for identity in &identities {
                match identity.unwrap_stanzas(stanzas) {
                    None => continue,
                    Some(Ok(file_key)) => {
                        result = Some(Ok(file_key));
                        break;
                    }
                    Some(Err(e)) => {
                        let stanza_index = stanzas
                            .iter()
                            .position(|s| STANZA_TYPES.contains(&s.tag.as_str()))
                            .unwrap_or(0);
                        result = Some(Err(vec![identity::Error::Stanza {
                            file_index,
                            stanza_index,
                            message: e.to_string(),
                        }]));
                        break;
                    }
                }
            }
            // A file no identity opened, when an identity could not be used: that is the
            // error (a wrong PIN, a key gone), not "no identity matched".
            if result.is_none() && !errors.is_empty() {
                result = Some(Err(errors
                    .iter()
                    .map(|(index, message)| identity::Error::Identity {
                        index: *index,
                        message: message.clone(),
                    })
                    .collect()));
            }
            if let Some(result) = result {
                found.insert(file_index, result);
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(kind: Kind) -> IdentityData {
        IdentityData {
            kind,
            module: PathBuf::from("/usr/lib/softhsm/libsofthsm2.so"),
            token: "age".into(),
            id: vec![7; 22],
            ml_kem_seed: (kind == Kind::TagPqSplit).then(|| Zeroizing::new(vec![9; 64])),
        }
    }

    #[test]
    fn identities_round_trip_and_nothing_else_decodes() {
        for kind in [Kind::P256Tag, Kind::TagPqInToken, Kind::TagPqSplit] {
            let data = sample(kind);
            let bytes = data.encode();
            let back = IdentityData::decode(&bytes).expect("decodes");
            assert_eq!(back.encode(), bytes);
            // Every truncation and one extra byte are refused.
            for len in 0..bytes.len() {
                assert!(
                    IdentityData::decode(&bytes[..len]).is_err(),
                    "{kind:?} {len}"
                );
            }
            let mut longer = bytes.to_vec();
            longer.push(0);
            assert!(IdentityData::decode(&longer).is_err());
            let s = data.to_string();
            assert!(s.expose_secret().starts_with("AGE-PLUGIN-PKCS11TAG-1"));
        }
        // A kind without a seed carrying 64 bytes, a kind with one carrying none.
        let mut p256 = sample(Kind::P256Tag);
        p256.ml_kem_seed = Some(Zeroizing::new(vec![1; 64]));
        assert!(IdentityData::decode(&p256.encode()).is_err());
        let mut split = sample(Kind::TagPqSplit);
        split.ml_kem_seed = None;
        assert!(IdentityData::decode(&split.encode()).is_err());
        // Other formats and kinds, over-long fields.
        let bytes = sample(Kind::P256Tag).encode();
        for (i, v) in [(0, 2u8), (1, 0), (1, 4)] {
            let mut b = bytes.to_vec();
            b[i] = v;
            assert!(IdentityData::decode(&b).is_err());
        }
        let mut long = sample(Kind::P256Tag);
        long.id = vec![1; MAX_ID + 1];
        assert!(IdentityData::decode(&long.encode()).is_err());
        long.id = vec![];
        assert!(IdentityData::decode(&long.encode()).is_err());
    }

    #[test]
    fn a_long_module_path_still_encodes() {
        let mut data = sample(Kind::TagPqSplit);
        data.module = PathBuf::from(format!("/opt/{}/libpkcs11.so", "d".repeat(400)));
        let s = data.to_string();
        let parsed =
            bech32::primitives::decode::CheckedHrpstring::new::<Bech32Long>(s.expose_secret())
                .expect("decodes");
        assert_eq!(parsed.hrp().as_str().to_uppercase(), IDENTITY_HRP);
        let bytes: Vec<u8> = parsed.byte_iter().collect();
        assert_eq!(
            IdentityData::decode(&bytes).unwrap().encode(),
            data.encode()
        );
    }
}
