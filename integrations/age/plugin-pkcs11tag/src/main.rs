//! `age-plugin-pkcs11tag`: age's tagged identities (c2sp.org/age, `p256tag` and
//! `mlkem768p256tag`) with their keys in a PKCS#11 token, as an age plugin (c2sp.org/age-plugin),
//! so that the `age` and `rage` command lines decrypt with a key that never leaves the token. The
//! recipients are age's own `age1tag1…` / `age1tagpq1…`, which age v1.3 and rage 0.12 encrypt to
//! natively; only decryption needs the plugin (and encryption to an identity's own recipient,
//! `age -e -i`, which needs no token).
//!
//! ```text
//! age-plugin-pkcs11tag --generate [--pq | --pq-split] --module PATH --token LABEL --label KEY [-o OUTPUT]
//! ```
//! makes a key in the token and prints the identity file: the recipient as a comment and the
//! `AGE-PLUGIN-PKCS11TAG-1…` line. The PIN is read from `AGE_PLUGIN_PKCS11TAG_PIN`, else from
//! standard input when it is not a terminal (keygen), or asked of the age client (decryption,
//! which asks the user). `--pq` makes a `mlkem768p256tag` key with both halves in the token,
//! which must serve ML-KEM (PKCS#11 3.2's `C_DecapsulateKey`); `--pq-split` keeps the P-256 half
//! in the token and the ML-KEM-768 half's seed in the identity, which is then a secret (the
//! command says so).
//!
//! The identity names the token's module, the token's label and the key's `CKA_ID`, and holds
//! the recipient's public key ([`IdentityData`]): a file is looked at with no token, and a token
//! is opened (and a PIN tried) only for a file with a stanza carrying the key's tag; the key the
//! token gives for the id must have that public key. The module is a library this program
//! loads and runs: only an absolute path to a file that neither it nor any directory above it
//! lets another user write is loaded ([`trusted_module`]).

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use age_core::format::{FileKey, Stanza};
use age_core::secrecy::{ExposeSecret, SecretString};
use age_plugin::identity::{self, IdentityPluginV1};
use age_plugin::recipient::{self, RecipientPluginV1};
use age_plugin::{Callbacks, PluginHandler, run_state_machine};
use bech32::{Bech32, Hrp};
use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use typed_hpke_age::tag::{
    MlKem768P256TagIdentity, MlKem768P256TagRecipient, P256TagIdentity, P256TagRecipient,
    TagRecipient,
};
use typed_hpke_age::typed_hpke::kem::{DhKemP256HkdfSha256, Kem, MlKem768, MlKem768P256};
use typed_hpke_age::typed_hpke::{OsRng, PrivateKey, PublicKey};
use typed_hpke_pkcs11::{Token, TokenKey};
use zeroize::Zeroizing;

const PLUGIN_NAME: &str = "pkcs11tag";
const IDENTITY_HRP: &str = "AGE-PLUGIN-PKCS11TAG-";
const PIN_VARIABLE: &str = "AGE_PLUGIN_PKCS11TAG_PIN";

const USAGE: &str = "Usage:
    age-plugin-pkcs11tag --generate [--pq | --pq-split] --module PATH --token LABEL --label KEY
        [-o OUTPUT]

Makes a p256tag key in the PKCS#11 token LABEL of the module at PATH and prints its identity
file: the age1tag1... recipient as a comment, and the AGE-PLUGIN-PKCS11TAG-1... identity to give
age -d -i / rage -d -i. --pq makes a mlkem768p256tag key (age1tagpq1...) with both halves in
the token, which must serve ML-KEM (PKCS#11 3.2); --pq-split keeps its P-256 half in the token
and its ML-KEM-768 half in the identity, which is then a secret. The PIN is read from
AGE_PLUGIN_PKCS11TAG_PIN, else from standard input if it is not a terminal.

The identity names the module, a library this program loads: keep the identity file as you
would a program on your PATH, and never use an identity someone else gives you.";

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
    let mut generate = false;
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
            "generate" => generate = true,
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
    if !generate {
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
/// - the module's absolute path, the token's label, the key's `CKA_ID` and the recipient's
///   public key (HPKE's `SerializePublicKey`: 65 bytes for P-256, 1,249 for MLKEM768-P256), each
///   a two-byte big-endian length (at most 4,096, 32, 64 and exactly the key's) and the bytes;
/// - for kind 3, the ML-KEM-768 seed (`d || z`, 64 bytes).
///
/// Nothing may follow. Without an ML-KEM seed the identity is no secret: it says where the key
/// is, and the token's PIN guards it. It must not be tampered with all the same: it names the
/// library to load.
struct IdentityData {
    kind: Kind,
    module: PathBuf,
    token: String,
    id: Vec<u8>,
    recipient: AnyRecipient,
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
/// MLKEM768-P256's `Npk`, the longer of the two public keys.
const MAX_PUBLIC_KEY: usize = 1249;

/// The recipient of an identity, of either tagged type.
#[derive(Clone, PartialEq, Eq)]
enum AnyRecipient {
    P256(P256TagRecipient),
    // Boxed: an MLKEM768-P256 key is 7 KiB expanded.
    Pq(Box<MlKem768P256TagRecipient>),
}

impl AnyRecipient {
    fn public_key_bytes(&self) -> &[u8] {
        match self {
            Self::P256(r) => r.public_key().as_bytes(),
            Self::Pq(r) => r.public_key().as_bytes(),
        }
    }

    fn addresses(&self, stanza: &Stanza) -> Option<Result<bool, age::DecryptError>> {
        match self {
            Self::P256(r) => r.addresses(stanza),
            Self::Pq(r) => r.addresses(stanza),
        }
    }

    fn as_recipient(&self) -> &dyn age::Recipient {
        match self {
            Self::P256(r) => r,
            Self::Pq(r) => &**r,
        }
    }
}

impl std::fmt::Display for AnyRecipient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::P256(r) => r.fmt(f),
            Self::Pq(r) => r.fmt(f),
        }
    }
}

fn tag_recipient<K: typed_hpke_age::tag::TagKem>(
    bytes: &[u8],
) -> Result<TagRecipient<K>, &'static str> {
    PublicKey::<K>::from_bytes(bytes)
        .map(TagRecipient::from_public_key)
        .map_err(|_| "the identity's public key is not one")
}

impl IdentityData {
    fn encode(&self) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(Vec::with_capacity(
            2 + 8 + MAX_MODULE + MAX_TOKEN + MAX_ID + MAX_PUBLIC_KEY + ML_KEM_SEED,
        ));
        out.extend_from_slice(&[FORMAT, self.kind as u8]);
        let module = self.module.to_string_lossy();
        for field in [
            module.as_bytes(),
            self.token.as_bytes(),
            &self.id,
            self.recipient.public_key_bytes(),
        ] {
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
        let mut field = |max: usize| -> Result<&[u8], &'static str> {
            let [a, b, tail @ ..] = rest else {
                return Err("truncated identity");
            };
            let len = usize::from(u16::from_be_bytes([*a, *b]));
            if len > max || len > tail.len() {
                return Err("a field of the identity is too long");
            }
            let (value, tail) = tail.split_at(len);
            rest = tail;
            Ok(value)
        };
        let module =
            std::str::from_utf8(field(MAX_MODULE)?).map_err(|_| "module path not UTF-8")?;
        let token = std::str::from_utf8(field(MAX_TOKEN)?).map_err(|_| "token label not UTF-8")?;
        let id = field(MAX_ID)?.to_vec();
        let public_key = field(MAX_PUBLIC_KEY)?;
        let module = PathBuf::from(module);
        if !module.is_absolute() || id.is_empty() {
            return Err("the identity names no absolute module path or no key id");
        }
        let recipient = match kind {
            Kind::P256Tag => AnyRecipient::P256(tag_recipient(public_key)?),
            Kind::TagPqInToken | Kind::TagPqSplit => {
                AnyRecipient::Pq(Box::new(tag_recipient(public_key)?))
            }
        };
        let ml_kem_seed = match (kind, rest.len()) {
            (Kind::TagPqSplit, ML_KEM_SEED) => Some(Zeroizing::new(rest.to_vec())),
            (Kind::P256Tag | Kind::TagPqInToken, 0) => None,
            _ => return Err("trailing bytes, or a missing ML-KEM seed"),
        };
        Ok(Self {
            kind,
            module,
            token: token.to_owned(),
            id,
            recipient,
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
/// 90-character limit, which the public key passes.
enum Bech32Long {}

impl bech32::Checksum for Bech32Long {
    type MidstateRepr = <Bech32 as bech32::Checksum>::MidstateRepr;
    const CODE_LENGTH: usize = usize::MAX;
    const CHECKSUM_LENGTH: usize = Bech32::CHECKSUM_LENGTH;
    const GENERATOR_SH: [Self::MidstateRepr; 5] = Bech32::GENERATOR_SH;
    const TARGET_RESIDUE: Self::MidstateRepr = Bech32::TARGET_RESIDUE;
}

/// The module's path if this program may load it: absolute, and (on Unix) a file that neither
/// it nor any directory above it lets a user other than root and this process's own write, as
/// OpenSSH asks of the files it trusts. A module is code this process runs, before any PIN is
/// checked and with the PIN at hand; a module in `/tmp`, or an identity edited to name one
/// someone else can write, would be that someone's code. The path returned has no symbolic
/// link left in it.
fn trusted_module(path: &Path) -> Result<PathBuf, String> {
    if !path.is_absolute() {
        return Err(format!("the module path {path:?} is not absolute"));
    }
    let real = path
        .canonicalize()
        .map_err(|e| format!("the module {path:?}: {e}"))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // This process's user: the owner of its own /proc entry, where there is one.
        let me = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
        for place in real.ancestors() {
            let meta =
                std::fs::metadata(place).map_err(|e| format!("the module's {place:?}: {e}"))?;
            let owner_trusted = meta.uid() == 0 || Some(meta.uid()) == me;
            if !owner_trusted || meta.mode() & 0o022 != 0 {
                return Err(format!(
                    "not loading the module {real:?}: {place:?} is owned or writable by another \
                     user, who could put their code there"
                ));
            }
        }
    }
    Ok(real)
}

/// The PIN from the variable, if it is set.
fn pin_from_environment() -> Option<SecretString> {
    std::env::var(PIN_VARIABLE)
        .ok()
        .map(|pin| SecretString::from(Zeroizing::new(pin).as_str()))
}

/// Opens the token. A PIN nobody typed just now (the variable's) is not tried on a token that
/// says its user PIN has failed before (`CKF_USER_PIN_COUNT_LOW`, `CKF_USER_PIN_FINAL_TRY`,
/// `CKF_USER_PIN_LOCKED`): a stale variable would lock it (a YubiKey's PIV applet locks after
/// three tries).
fn open_token(
    module: &Path,
    label: &str,
    pin: &SecretString,
    typed_now: bool,
) -> Result<Token, String> {
    let module = trusted_module(module)?;
    let token_error = |e: &dyn std::fmt::Display| format!("token {label:?} ({module:?}): {e}");
    let pkcs11 = Pkcs11::new(&module).map_err(|e| token_error(&e))?;
    match pkcs11.initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK)) {
        Ok(())
        | Err(cryptoki::error::Error::Pkcs11(
            cryptoki::error::RvError::CryptokiAlreadyInitialized,
            _,
        )) => {}
        Err(e) => return Err(token_error(&e)),
    }
    if !typed_now {
        let slots = pkcs11.get_slots_with_token().map_err(|e| token_error(&e))?;
        for slot in slots {
            let info = pkcs11.get_token_info(slot).map_err(|e| token_error(&e))?;
            if info.label() == label
                && (info.user_pin_count_low()
                    || info.user_pin_final_try()
                    || info.user_pin_locked())
            {
                return Err(token_error(&format!(
                    "its user PIN has failed before; not trying the one in {PIN_VARIABLE}, \
                     which could lock it (unset the variable to be asked for the PIN)"
                )));
            }
        }
    }
    Token::with_module(pkcs11, label, pin.expose_secret()).map_err(|e| token_error(&e))
}

/// The keygen's PIN: the variable's, else standard input's first line when standard input is
/// not a terminal (a terminal would echo it). Read byte by byte from the file, so that no
/// buffer but this wiped one holds it.
fn keygen_pin() -> Result<(SecretString, bool), String> {
    if let Some(pin) = pin_from_environment() {
        return Ok((pin, false));
    }
    if io::stdin().is_terminal() {
        return Err(format!(
            "no PIN: set {PIN_VARIABLE}, or give the PIN on standard input (a terminal would \
             show it)"
        ));
    }
    let mut stdin = File::open("/dev/stdin").map_err(|e| format!("reading the PIN: {e}"))?;
    let mut pin = Zeroizing::new(Vec::with_capacity(256));
    let mut byte = [0u8; 1];
    while pin.len() < 256 {
        match stdin.read(&mut byte) {
            Ok(0) => break,
            Ok(_) if byte[0] == b'\n' => break,
            Ok(_) => pin.push(byte[0]),
            Err(e) => return Err(format!("reading the PIN: {e}")),
        }
    }
    if pin.last() == Some(&b'\r') {
        pin.pop();
    }
    let pin = std::str::from_utf8(&pin).map_err(|_| "the PIN is not UTF-8")?;
    Ok((SecretString::from(pin), true))
}

fn keygen(options: Generate) -> Result<(), String> {
    let module = options.module.clone().ok_or("--module is required")?;
    let token_label = options.token.clone().ok_or("--token is required")?;
    let label = options.label.clone().ok_or("--label is required")?;
    if options.pq && options.pq_split {
        return Err("--pq and --pq-split: one or the other".into());
    }
    // What the identity can hold, and the module it may name, checked before a key is made.
    let module = trusted_module(&std::path::absolute(&module).map_err(|e| e.to_string())?)?;
    if module.as_os_str().len() > MAX_MODULE || token_label.len() > MAX_TOKEN {
        return Err(format!(
            "the module path may have {MAX_MODULE} bytes and the token label {MAX_TOKEN}"
        ));
    }
    // The output before the key: a key the identity cannot be written for is never made.
    let mut output: Box<dyn Write> = match &options.output {
        None => Box::new(io::stdout()),
        Some(path) => {
            let mut open = OpenOptions::new();
            open.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
            Box::new(
                open.open(path)
                    .map_err(|e| format!("the output file {path:?}: {e}"))?,
            )
        }
    };
    let (pin, typed_now) = keygen_pin()?;
    let made = open_token(&module, &token_label, &pin, typed_now).and_then(|token| {
        make_key(&token, &label, &options).map(|(kind, key, recipient, seed)| {
            let data = IdentityData {
                kind,
                module: module.clone(),
                token: token_label.clone(),
                id: key.id().to_vec(),
                recipient,
                ml_kem_seed: seed,
            };
            (token, key, data)
        })
    });
    let written = made.and_then(|(token, key, data)| {
        let identity = data.to_string();
        let text = Zeroizing::new(format!(
            "# token: {token_label}, key: {label}\n# public key: {}\n{}\n",
            data.recipient,
            identity.expose_secret()
        ));
        match output
            .write_all(text.as_bytes())
            .and_then(|()| output.flush())
        {
            Ok(()) => Ok(data.recipient),
            Err(e) => {
                // The identity is lost: so is the key.
                let _ = token.destroy_key_by_id(key.id());
                Err(format!("writing the identity: {e} (the key is destroyed)"))
            }
        }
    });
    match written {
        Ok(recipient) => {
            eprintln!("Public key: {recipient}");
            Ok(())
        }
        Err(e) => {
            if let Some(path) = &options.output {
                let _ = std::fs::remove_file(path);
            }
            Err(e)
        }
    }
}

type Made = (Kind, TokenKey, AnyRecipient, Option<Zeroizing<Vec<u8>>>);

fn make_key(token: &Token, label: &str, options: &Generate) -> Result<Made, String> {
    if options.pq {
        let key = token.generate_key(MlKem768P256::ID, label).map_err(|e| {
            format!(
                "generating an MLKEM768-P256 key in the token: {e} (a token without ML-KEM, \
                 PKCS#11 3.2's, can keep the P-256 half alone: --pq-split)"
            )
        })?;
        let recipient = match key.public_key().as_typed::<MlKem768P256>() {
            Some(pk) => TagRecipient::from_public_key(pk.clone()),
            None => {
                let _ = token.destroy_key_by_id(key.id());
                return Err("the token made another kind of key".into());
            }
        };
        return Ok((
            Kind::TagPqInToken,
            key,
            AnyRecipient::Pq(Box::new(recipient)),
            None,
        ));
    }
    let key = token
        .generate_key(DhKemP256HkdfSha256::ID, label)
        .map_err(|e| format!("generating a P-256 key: {e}"))?;
    let holder = match key.typed::<DhKemP256HkdfSha256>() {
        Ok(holder) => holder,
        Err(e) => {
            let _ = token.destroy_key_by_id(key.id());
            return Err(format!("the new key: {e}"));
        }
    };
    if !options.pq_split {
        let recipient = P256TagIdentity::held_dh(holder).to_public();
        return Ok((Kind::P256Tag, key, AnyRecipient::P256(recipient), None));
    }
    eprintln!(
        "age-plugin-pkcs11tag: the P-256 half goes in the token, the ML-KEM-768 half in the \
         identity, which is then a SECRET: keep it as you would a private key"
    );
    let Ok((ml_kem, _)) = MlKem768::generate(&mut OsRng::default()) else {
        let _ = token.destroy_key_by_id(key.id());
        return Err("the operating system's generator failed".into());
    };
    let seed = Zeroizing::new(ml_kem.to_bytes().to_vec());
    let recipient = MlKem768P256TagIdentity::held_split(ml_kem, holder).to_public();
    Ok((
        Kind::TagPqSplit,
        key,
        AnyRecipient::Pq(Box::new(recipient)),
        Some(seed),
    ))
}

/// The identity's key, found in its token by its id, and checked to be the identity's: the
/// tagged identity it makes must have the recipient the identity holds.
fn open_identity(data: &IdentityData, token: &Token) -> Result<Box<dyn age::Identity>, String> {
    let key = token
        .key_by_id(&data.id)
        .map_err(|e| format!("the key in token {:?}: {e}", data.token))?;
    let p256 = || {
        key.typed::<DhKemP256HkdfSha256>()
            .map_err(|e| format!("the key: {e}"))
    };
    let (identity, recipient): (Box<dyn age::Identity>, AnyRecipient) = match data.kind {
        Kind::P256Tag => {
            let identity = P256TagIdentity::held_dh(p256()?);
            let recipient = AnyRecipient::P256(identity.to_public());
            (Box::new(identity), recipient)
        }
        Kind::TagPqInToken => {
            let public = key
                .public_key()
                .as_typed::<MlKem768P256>()
                .ok_or("the key in the token is not an MLKEM768-P256 key")?
                .clone();
            let holder = key
                .typed::<MlKem768P256>()
                .map_err(|e| format!("the key: {e}"))?;
            let identity =
                MlKem768P256TagIdentity::held_decap(holder, TagRecipient::from_public_key(public));
            let recipient = AnyRecipient::Pq(Box::new(identity.to_public()));
            (Box::new(identity), recipient)
        }
        Kind::TagPqSplit => {
            let seed = data.ml_kem_seed.as_ref().ok_or("no ML-KEM seed")?;
            let ml_kem = PrivateKey::<MlKem768>::from_bytes(seed)
                .map_err(|_| "the identity's ML-KEM-768 seed is not one")?;
            let identity = MlKem768P256TagIdentity::held_split(ml_kem, p256()?);
            let recipient = AnyRecipient::Pq(Box::new(identity.to_public()));
            (Box::new(identity), recipient)
        }
    };
    if recipient != data.recipient {
        return Err(format!(
            "the key with this id in token {:?} is not the identity's (its recipient is {recipient})",
            data.token
        ));
    }
    Ok(identity)
}

struct Handler;

impl PluginHandler for Handler {
    type RecipientV1 = RecipientPlugin;
    type IdentityV1 = IdentityPlugin;

    fn recipient_v1(self) -> io::Result<Self::RecipientV1> {
        Ok(RecipientPlugin(Vec::new()))
    }

    fn identity_v1(self) -> io::Result<Self::IdentityV1> {
        Ok(IdentityPlugin(Vec::new()))
    }
}

fn decode_identity(plugin_name: &str, bytes: &[u8]) -> Result<IdentityData, String> {
    if plugin_name != PLUGIN_NAME {
        return Err("not a pkcs11tag identity".into());
    }
    IdentityData::decode(bytes).map_err(str::to_owned)
}

/// Encryption to an identity's own recipient (`age -e -i IDENTITY`), from the public key the
/// identity holds: no token is opened. `age1tag1…` and `age1tagpq1…` recipients are age's own
/// and go to the client, not to this plugin.
struct RecipientPlugin(Vec<AnyRecipient>);

impl RecipientPluginV1 for RecipientPlugin {
    fn add_recipient(&mut self, index: usize, _: &str, _: &[u8]) -> Result<(), recipient::Error> {
        Err(recipient::Error::Recipient {
            index,
            message: "this plugin has no recipients of its own: give the age1tag1… or \
                      age1tagpq1… recipient (age and rage encrypt to it natively)"
                .into(),
        })
    }

    fn add_identity(
        &mut self,
        index: usize,
        plugin_name: &str,
        bytes: &[u8],
    ) -> Result<(), recipient::Error> {
        let data = decode_identity(plugin_name, bytes)
            .map_err(|message| recipient::Error::Identity { index, message })?;
        // age encrypts a file to post-quantum recipients only, or to none.
        let pq = |r: &AnyRecipient| matches!(r, AnyRecipient::Pq(_));
        if self.0.first().is_some_and(|r| pq(r) != pq(&data.recipient)) {
            return Err(recipient::Error::Identity {
                index,
                message: "a post-quantum and a classical identity cannot share a file".into(),
            });
        }
        self.0.push(data.recipient);
        Ok(())
    }

    fn labels(&mut self) -> std::collections::HashSet<String> {
        match self.0.first() {
            Some(AnyRecipient::Pq(_)) => std::collections::HashSet::from(["postquantum".into()]),
            _ => std::collections::HashSet::new(),
        }
    }

    fn wrap_file_keys(
        &mut self,
        file_keys: Vec<FileKey>,
        _callbacks: impl Callbacks<recipient::Error>,
    ) -> io::Result<Result<Vec<Vec<Stanza>>, Vec<recipient::Error>>> {
        let mut files = Vec::with_capacity(file_keys.len());
        for file_key in &file_keys {
            let mut stanzas = Vec::new();
            for (index, recipient) in self.0.iter().enumerate() {
                match recipient.as_recipient().wrap_file_key(file_key) {
                    Ok((mut s, _)) => stanzas.append(&mut s),
                    Err(e) => {
                        return Ok(Err(vec![recipient::Error::Identity {
                            index,
                            message: e.to_string(),
                        }]));
                    }
                }
            }
            files.push(stanzas);
        }
        Ok(Ok(files))
    }
}

/// Decryption with `AGE-PLUGIN-PKCS11TAG-1…` identities. age and rage run one plugin process
/// per identity, so a PIN is asked (or taken from the variable) once per identity that a file
/// being decrypted is addressed to, and never for one it is not.
struct IdentityPlugin(Vec<IdentityData>);

impl IdentityPluginV1 for IdentityPlugin {
    fn add_identity(
        &mut self,
        index: usize,
        plugin_name: &str,
        bytes: &[u8],
    ) -> Result<(), identity::Error> {
        let data = decode_identity(plugin_name, bytes)
            .map_err(|message| identity::Error::Identity { index, message })?;
        self.0.push(data);
        Ok(())
    }

    fn unwrap_file_keys(
        &mut self,
        files: Vec<Vec<Stanza>>,
        mut callbacks: impl Callbacks<identity::Error>,
    ) -> io::Result<HashMap<usize, Result<FileKey, Vec<identity::Error>>>> {
        let mut results: HashMap<usize, Result<FileKey, Vec<identity::Error>>> = HashMap::new();
        for (index, data) in self.0.iter().enumerate() {
            // The files addressed to this identity, and where: read with no token.
            let mut addressed = Vec::new();
            for (file_index, stanzas) in files.iter().enumerate() {
                if matches!(results.get(&file_index), Some(Ok(_))) {
                    continue;
                }
                match addressed_stanzas(&data.recipient, stanzas) {
                    Ok(ours) if ours.is_empty() => {}
                    Ok(ours) => addressed.push((file_index, ours)),
                    Err((stanza_index, message)) => {
                        results.insert(
                            file_index,
                            Err(vec![identity::Error::Stanza {
                                file_index,
                                stanza_index,
                                message,
                            }]),
                        );
                    }
                }
            }
            if addressed.is_empty() {
                continue;
            }
            let identity = match pin_for(data, &mut callbacks)?
                .and_then(|(pin, typed_now)| open_token(&data.module, &data.token, &pin, typed_now))
                .and_then(|token| open_identity(data, &token))
            {
                Ok(identity) => identity,
                Err(message) => {
                    for (file_index, _) in addressed {
                        let error = identity::Error::Identity {
                            index,
                            message: message.clone(),
                        };
                        if let Err(errors) =
                            results.entry(file_index).or_insert_with(|| Err(Vec::new()))
                        {
                            errors.push(error);
                        }
                    }
                    continue;
                }
            };
            for (file_index, ours) in addressed {
                if let Some(result) = unwrap_addressed(&*identity, index, file_index, &files, &ours)
                {
                    results.insert(file_index, result);
                }
            }
        }
        Ok(results)
    }
}

/// The PIN for `data`'s token: the variable's, else asked of the client (which asks the user,
/// naming the token and the module). `Err` inside: no PIN to be had.
fn pin_for(
    data: &IdentityData,
    callbacks: &mut impl Callbacks<identity::Error>,
) -> io::Result<Result<(SecretString, bool), String>> {
    if let Some(pin) = pin_from_environment() {
        return Ok(Ok((pin, false)));
    }
    let message = format!(
        "Enter the PIN of PKCS#11 token {:?} (module {:?})",
        data.token, data.module
    );
    Ok(match callbacks.request_secret(&message)? {
        Ok(pin) => Ok((pin, true)),
        Err(_) => Err("no PIN given".to_owned()),
    })
}

/// The indices of the stanzas in `stanzas` carrying `recipient`'s tag, found with no key.
/// More than [`typed_hpke_age::MAX_TAGGED_STANZAS`] of the recipient's type, more than
/// [`typed_hpke_age::MAX_STANZAS`] with its tag, or a malformed one of its type is the file's
/// error (its header is invalid), with the stanza's index.
fn addressed_stanzas(
    recipient: &AnyRecipient,
    stanzas: &[Stanza],
) -> Result<Vec<usize>, (usize, String)> {
    let mut of_type = 0;
    let mut ours = Vec::new();
    for (stanza_index, stanza) in stanzas.iter().enumerate() {
        match recipient.addresses(stanza) {
            None => continue,
            Some(Err(e)) => return Err((stanza_index, e.to_string())),
            Some(Ok(carries_tag)) => {
                of_type += 1;
                if of_type > typed_hpke_age::MAX_TAGGED_STANZAS {
                    return Err((stanza_index, "too many tagged stanzas".into()));
                }
                if carries_tag {
                    ours.push(stanza_index);
                    if ours.len() > typed_hpke_age::MAX_STANZAS {
                        return Err((stanza_index, "too many stanzas to one key".into()));
                    }
                }
            }
        }
    }
    Ok(ours)
}

/// The file key from the stanzas `ours` of file `file_index`, in order: the first that opens.
/// A token that fails is the identity's error; a stanza that does not open (a 4-byte tag shared
/// by chance) is passed over.
fn unwrap_addressed(
    identity: &dyn age::Identity,
    index: usize,
    file_index: usize,
    files: &[Vec<Stanza>],
    ours: &[usize],
) -> Option<Result<FileKey, Vec<identity::Error>>> {
    for &stanza_index in ours {
        match identity.unwrap_stanza(&files[file_index][stanza_index]) {
            None => continue,
            Some(Ok(file_key)) => return Some(Ok(file_key)),
            Some(Err(age::DecryptError::InvalidHeader)) => {
                return Some(Err(vec![identity::Error::Stanza {
                    file_index,
                    stanza_index,
                    message: "invalid stanza".into(),
                }]));
            }
            Some(Err(e)) => {
                return Some(Err(vec![identity::Error::Identity {
                    index,
                    message: e.to_string(),
                }]));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(kind: Kind) -> IdentityData {
        let recipient = match kind {
            Kind::P256Tag => AnyRecipient::P256(P256TagIdentity::generate().to_public()),
            _ => AnyRecipient::Pq(Box::new(MlKem768P256TagIdentity::generate().to_public())),
        };
        IdentityData {
            kind,
            module: PathBuf::from("/usr/lib/softhsm/libsofthsm2.so"),
            token: "age".into(),
            id: vec![7; 22],
            recipient,
            ml_kem_seed: (kind == Kind::TagPqSplit).then(|| Zeroizing::new(vec![9; 64])),
        }
    }

    fn decodes(data: &IdentityData) -> bool {
        IdentityData::decode(&data.encode()).is_ok()
    }

    #[test]
    fn identities_round_trip_and_nothing_else_decodes() {
        for kind in [Kind::P256Tag, Kind::TagPqInToken, Kind::TagPqSplit] {
            let data = sample(kind);
            let bytes = data.encode();
            let back = IdentityData::decode(&bytes).expect("decodes");
            assert_eq!(back.encode(), bytes);
            assert!(back.recipient == data.recipient);
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
            assert!(
                data.to_string()
                    .expose_secret()
                    .starts_with("AGE-PLUGIN-PKCS11TAG-1")
            );
        }
        // A kind without a seed carrying 64 bytes, a kind with one carrying none.
        let mut p256 = sample(Kind::P256Tag);
        p256.ml_kem_seed = Some(Zeroizing::new(vec![1; 64]));
        assert!(!decodes(&p256));
        let mut split = sample(Kind::TagPqSplit);
        split.ml_kem_seed = None;
        assert!(!decodes(&split));
        // A public key of the other kind.
        let mut wrong = sample(Kind::P256Tag);
        wrong.recipient = sample(Kind::TagPqInToken).recipient;
        assert!(!decodes(&wrong));
        // Other formats and kinds.
        let bytes = sample(Kind::P256Tag).encode();
        for (i, v) in [(0, 2u8), (1, 0), (1, 4)] {
            let mut b = bytes.to_vec();
            b[i] = v;
            assert!(IdentityData::decode(&b).is_err());
        }
        // A module path that is not absolute: it would be looked up wherever the client runs
        // the plugin (Go's age runs it in the temporary directory).
        let mut relative = sample(Kind::P256Tag);
        relative.module = PathBuf::from("./libsofthsm2.so");
        assert!(!decodes(&relative));
        relative.module = PathBuf::from("libsofthsm2.so");
        assert!(!decodes(&relative));
    }

    #[test]
    fn each_field_is_refused_one_byte_over_its_limit() {
        let mut data = sample(Kind::P256Tag);
        data.id = vec![1; MAX_ID];
        assert!(decodes(&data));
        data.id = vec![1; MAX_ID + 1];
        assert!(!decodes(&data));
        data.id = vec![];
        assert!(!decodes(&data));
        let mut data = sample(Kind::P256Tag);
        data.token = "t".repeat(MAX_TOKEN);
        assert!(decodes(&data));
        data.token = "t".repeat(MAX_TOKEN + 1);
        assert!(!decodes(&data));
        let mut data = sample(Kind::TagPqSplit);
        data.module = PathBuf::from("/".repeat(MAX_MODULE));
        assert!(decodes(&data));
        // The longest identity still encodes and decodes through age's long Bech32.
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
        data.module = PathBuf::from("/".repeat(MAX_MODULE + 1));
        assert!(!decodes(&data));
    }

    #[test]
    fn only_a_module_no_other_user_can_write_is_loaded() {
        assert!(trusted_module(Path::new("libsofthsm2.so")).is_err());
        // This crate's own manifest stands for a module in a directory only its owner writes.
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        assert!(trusted_module(&manifest).is_ok());
        // Anything under a directory everyone can write (the temporary directory) is not.
        let dir = std::env::temp_dir().join(format!("pkcs11tag-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let module = dir.join("libpkcs11.so");
        std::fs::write(&module, b"not a library").unwrap();
        let refused = trusted_module(&module);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(refused.unwrap_err().contains("writable by another user"));
    }

    fn copy(s: &Stanza) -> Stanza {
        Stanza {
            tag: s.tag.clone(),
            args: s.args.clone(),
            body: s.body.clone(),
        }
    }

    #[test]
    fn a_stanza_is_found_addressed_with_no_key() {
        let ours = P256TagIdentity::generate();
        let theirs = P256TagIdentity::generate();
        let recipient = AnyRecipient::P256(ours.to_public());
        let file_key = || FileKey::new(Box::new([7; 16]));
        let wrap = |r: &dyn age::Recipient| r.wrap_file_key(&file_key()).unwrap().0;
        let mut stanzas = wrap(&theirs.to_public());
        stanzas.extend(wrap(&ours.to_public()));
        stanzas.push(Stanza {
            tag: "X25519".into(),
            args: vec![],
            body: vec![],
        });
        assert_eq!(addressed_stanzas(&recipient, &stanzas), Ok(vec![1]));
        // To nobody here: no stanza, so no token would be opened.
        assert_eq!(addressed_stanzas(&recipient, &stanzas[..1]), Ok(vec![]));
        // A malformed stanza of the type is the header's error, at its index.
        let mut bad: Vec<Stanza> = stanzas.iter().map(copy).collect();
        bad[0].args.pop();
        assert_eq!(addressed_stanzas(&recipient, &bad).map_err(|e| e.0), Err(0));
        // The limits: 256 stanzas to this key are read, 257 are refused before any is tried.
        let many: Vec<Stanza> = (0..typed_hpke_age::MAX_STANZAS)
            .map(|_| copy(&stanzas[1]))
            .collect();
        assert_eq!(addressed_stanzas(&recipient, &many).unwrap().len(), 256);
        let mut over: Vec<Stanza> = many.iter().map(copy).collect();
        over.push(copy(&stanzas[1]));
        assert_eq!(
            addressed_stanzas(&recipient, &over).map_err(|e| e.0),
            Err(256)
        );
        let others: Vec<Stanza> = (0..=typed_hpke_age::MAX_TAGGED_STANZAS)
            .map(|_| copy(&stanzas[0]))
            .collect();
        assert_eq!(
            addressed_stanzas(&recipient, &others).map_err(|e| e.0),
            Err(typed_hpke_age::MAX_TAGGED_STANZAS)
        );
    }
}
