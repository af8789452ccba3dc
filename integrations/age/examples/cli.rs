//! A small age command line on typed-hpke-age: post-quantum keys, and tagged keys in a PKCS#11
//! token.
//!
//! ```text
//! cli keygen [-o FILE]                      a new AGE-SECRET-KEY-PQ-1... identity file
//! cli keygen PKCS11-URI                     a new P-256 key in the token; prints its age1tag1...
//! cli keygen --tag|--tagpq [-o FILE]        a tagged key in software (tests; see below)
//! cli recipient FILE | PKCS11-URI           the recipient of an identity file or a token key
//! cli encrypt -r RECIPIENT... [-a] [-o OUT] [IN]
//! cli decrypt -i FILE | PKCS11-URI ... [-o OUT] [IN]
//! ```
//!
//! Recipients: `age1pq1...`, `age1tag1...`, `age1tagpq1...` (this crate) and `age1...` (the
//! `age` crate's X25519). Identity files hold `AGE-SECRET-KEY-PQ-1...` and `AGE-SECRET-KEY-1...`
//! lines (`#` starts a comment). A token key is named by a PKCS#11 URI (RFC 7512):
//! `pkcs11:token=LABEL;object=KEY?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-value=1234`.
//! `IN` and `OUT` default to standard input and output; `-a` armors.
//!
//! The spec defines no encoding for tagged identities (they are meant to live in hardware).
//! For tests this example writes software ones as `software-p256tag:HEX` or
//! `software-mlkem768p256tag:HEX` lines, the private key in hex: a format of this example
//! only, not of age.

use std::fs::File;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use age_core::secrecy::ExposeSecret as _;
use typed_hpke::kem::{DhKemP256HkdfSha256, MlKem768P256};
use typed_hpke_age::pq;
use typed_hpke_age::tag::{
    MlKem768P256TagIdentity, MlKem768P256TagRecipient, P256TagIdentity, P256TagRecipient,
    TagIdentity,
};
use typed_hpke_pkcs11::{Token, TokenKey};

type Error = Box<dyn std::error::Error>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cli: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), Error> {
    let (command, rest) = args.split_first().ok_or(USAGE)?;
    let opts = Options::parse(rest)?;
    match command.as_str() {
        "keygen" => keygen(&opts),
        "recipient" => {
            let [source] = &opts.positional[..] else {
                return Err(USAGE.into());
            };
            for recipient in recipients_of(source)? {
                println!("{recipient}");
            }
            Ok(())
        }
        "encrypt" => encrypt(&opts),
        "decrypt" => decrypt(&opts),
        _ => Err(USAGE.into()),
    }
}

const USAGE: &str = "usage: cli keygen [--tag|--tagpq] [-o FILE] | keygen PKCS11-URI | recipient FILE|PKCS11-URI \
    | encrypt -r RECIPIENT... [-a] [-o OUT] [IN] | decrypt -i FILE|PKCS11-URI... [-o OUT] [IN]";

#[derive(Default)]
struct Options {
    recipients: Vec<String>,
    identities: Vec<String>,
    output: Option<String>,
    armor: bool,
    software_tag: Option<&'static str>,
    positional: Vec<String>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Self, Error> {
        let mut opts = Self::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = || {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{arg} needs a value"))
            };
            match arg.as_str() {
                "-r" => opts.recipients.push(value()?),
                "-i" => opts.identities.push(value()?),
                "-o" => opts.output = Some(value()?),
                "-a" => opts.armor = true,
                "--tag" => opts.software_tag = Some(SOFTWARE_P256TAG),
                "--tagpq" => opts.software_tag = Some(SOFTWARE_TAGPQ),
                _ if arg.starts_with('-') && arg.len() > 1 => {
                    return Err(format!("unknown option {arg}").into());
                }
                _ => opts.positional.push(arg.clone()),
            }
        }
        Ok(opts)
    }

    fn input(&self) -> Result<Box<dyn Read>, Error> {
        match &self.positional[..] {
            [] => Ok(Box::new(io::stdin())),
            [path] => Ok(Box::new(
                File::open(path).map_err(|e| format!("{path}: {e}"))?,
            )),
            _ => Err(USAGE.into()),
        }
    }

    fn output(&self) -> Result<Box<dyn Write>, Error> {
        match &self.output {
            None => Ok(Box::new(io::stdout())),
            Some(path) => Ok(Box::new(
                File::create(path).map_err(|e| format!("{path}: {e}"))?,
            )),
        }
    }
}

/// A token key named by a PKCS#11 URI: `pkcs11:token=T;object=K?module-path=M&pin-value=P`.
fn token_key(uri: &str, create: bool) -> Result<TokenKey, Error> {
    let rest = uri.strip_prefix("pkcs11:").ok_or("not a PKCS#11 URI")?;
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let attr = |part: &str, sep: char, name: &str| {
        part.split(sep)
            .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
            .map(str::to_owned)
    };
    let token = attr(path, ';', "token").ok_or("the URI names no token")?;
    let object = attr(path, ';', "object").ok_or("the URI names no object")?;
    let module = attr(query, '&', "module-path")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(typed_hpke_pkcs11::softhsm::module);
    let pin = attr(query, '&', "pin-value").ok_or("the URI has no pin-value")?;
    let token = Token::open(module, &token, &pin)?;
    Ok(if create {
        token.generate_key(0x0010, &object)?
    } else {
        token.key(&object)?
    })
}

const SOFTWARE_P256TAG: &str = "software-p256tag:";
const SOFTWARE_TAGPQ: &str = "software-mlkem768p256tag:";

fn hex(bytes: &[u8]) -> zeroize::Zeroizing<String> {
    zeroize::Zeroizing::new(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn unhex(s: &str) -> Result<zeroize::Zeroizing<Vec<u8>>, Error> {
    if !s.len().is_multiple_of(2) {
        return Err("odd hex".into());
    }
    let bytes = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2).ok_or("not hex")?, 16).map_err(Into::into))
        .collect::<Result<Vec<u8>, Error>>()?;
    Ok(zeroize::Zeroizing::new(bytes))
}

/// An identity and its recipient, printed.
type WithRecipient = (Box<dyn age::Identity>, String);

/// A software tagged identity line, its identity and recipient.
fn software_tag(line: &str) -> Result<Option<WithRecipient>, Error> {
    if let Some(h) = line.strip_prefix(SOFTWARE_P256TAG) {
        let sk = typed_hpke::PrivateKey::<DhKemP256HkdfSha256>::from_bytes(&unhex(h)?)?;
        let id = TagIdentity::from_private_key(sk);
        let r = id.to_public().to_string();
        return Ok(Some((Box::new(id), r)));
    }
    if let Some(h) = line.strip_prefix(SOFTWARE_TAGPQ) {
        let sk = typed_hpke::PrivateKey::<MlKem768P256>::from_bytes(&unhex(h)?)?;
        let id = TagIdentity::from_private_key(sk);
        let r = id.to_public().to_string();
        return Ok(Some((Box::new(id), r)));
    }
    Ok(None)
}

fn keygen(opts: &Options) -> Result<(), Error> {
    if let Some(prefix) = opts.software_tag {
        let (secret, recipient) = if prefix == SOFTWARE_P256TAG {
            let id = P256TagIdentity::generate();
            (hex(&id.key().to_bytes()), id.to_public().to_string())
        } else {
            let id = MlKem768P256TagIdentity::generate();
            (hex(&id.key().to_bytes()), id.to_public().to_string())
        };
        let mut out = opts.output()?;
        writeln!(out, "# public key: {recipient}")?;
        writeln!(out, "{prefix}{}", secret.as_str())?;
        return Ok(());
    }
    if let [uri] = &opts.positional[..] {
        let key = token_key(uri, true)?;
        let identity = TagIdentity::held_dh(key.typed::<DhKemP256HkdfSha256>()?);
        println!("{}", identity.to_public());
        return Ok(());
    }
    let identity = pq::Identity::generate();
    let mut out = opts.output()?;
    writeln!(out, "# public key: {}", identity.to_public())?;
    writeln!(out, "{}", identity.to_string().expose_secret())?;
    Ok(())
}

/// The identities named by `-i`: identity files, or token keys.
fn identities(sources: &[String]) -> Result<Vec<Box<dyn age::Identity>>, Error> {
    let mut out: Vec<Box<dyn age::Identity>> = vec![];
    for source in sources {
        if source.starts_with("pkcs11:") {
            let key = token_key(source, false)?;
            out.push(Box::new(TagIdentity::held_dh(
                key.typed::<DhKemP256HkdfSha256>()?,
            )));
            continue;
        }
        let text = zeroize::Zeroizing::new(
            std::fs::read_to_string(source).map_err(|e| format!("{source}: {e}"))?,
        );
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some((identity, _)) = software_tag(line)? {
                out.push(identity);
            } else if line.starts_with("AGE-SECRET-KEY-PQ-") {
                out.push(Box::new(line.parse::<pq::Identity>()?));
            } else if line.starts_with("AGE-SECRET-KEY-1") {
                out.push(Box::new(line.parse::<age::x25519::Identity>()?));
            } else {
                return Err(format!("{source}: not an identity line").into());
            }
        }
    }
    if out.is_empty() {
        return Err("no identities (-i)".into());
    }
    Ok(out)
}

fn recipients_of(source: &str) -> Result<Vec<String>, Error> {
    if source.starts_with("pkcs11:") {
        let key = token_key(source, false)?;
        let identity = TagIdentity::held_dh(key.typed::<DhKemP256HkdfSha256>()?);
        return Ok(vec![identity.to_public().to_string()]);
    }
    let text = zeroize::Zeroizing::new(std::fs::read_to_string(source)?);
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| -> Result<String, Error> {
            if let Some((_, recipient)) = software_tag(line)? {
                Ok(recipient)
            } else if line.starts_with("AGE-SECRET-KEY-PQ-") {
                Ok(line.parse::<pq::Identity>()?.to_public().to_string())
            } else {
                Ok(line
                    .parse::<age::x25519::Identity>()?
                    .to_public()
                    .to_string())
            }
        })
        .collect()
}

fn recipient(s: &str) -> Result<Box<dyn age::Recipient>, Error> {
    let parsed: Result<Box<dyn age::Recipient>, &str> = if s.starts_with("age1pq1") {
        s.parse::<pq::Recipient>().map(|r| Box::new(r) as _)
    } else if s.starts_with("age1tagpq1") {
        s.parse::<MlKem768P256TagRecipient>()
            .map(|r| Box::new(r) as _)
    } else if s.starts_with("age1tag1") {
        s.parse::<P256TagRecipient>().map(|r| Box::new(r) as _)
    } else {
        s.parse::<age::x25519::Recipient>()
            .map(|r| Box::new(r) as _)
    };
    parsed.map_err(|e| format!("{s}: {e}").into())
}

fn encrypt(opts: &Options) -> Result<(), Error> {
    let recipients = opts
        .recipients
        .iter()
        .map(|r| recipient(r))
        .collect::<Result<Vec<_>, _>>()?;
    if recipients.is_empty() {
        return Err("no recipients (-r)".into());
    }
    let encryptor = age::Encryptor::with_recipients(recipients.iter().map(|r| r.as_ref() as _))?;
    let format = if opts.armor {
        age::armor::Format::AsciiArmor
    } else {
        age::armor::Format::Binary
    };
    let out = age::armor::ArmoredWriter::wrap_output(opts.output()?, format)?;
    let mut writer = encryptor.wrap_output(out)?;
    io::copy(&mut opts.input()?, &mut writer)?;
    writer.finish()?.finish()?.flush()?;
    Ok(())
}

fn decrypt(opts: &Options) -> Result<(), Error> {
    let identities = identities(&opts.identities)?;
    // The header read in linear time under Go's age's limits, then parsed once by the `age`
    // crate (`typed_hpke_age::decryptor`; `age::Decryptor::new` and `new_buffered` re-parse it
    // after every byte or line).
    let input = io::BufReader::new(opts.input()?);
    let decryptor = typed_hpke_age::decryptor(age::armor::ArmoredReader::new(input))?;
    let mut reader = decryptor.decrypt(identities.iter().map(|i| i.as_ref() as _))?;
    let mut out = opts.output()?;
    io::copy(&mut reader, &mut out)?;
    out.flush()?;
    Ok(())
}
