//! `age-plugin-pq`: age's `mlkem768x25519` recipient type (c2sp.org/age, MLKEM768-X25519 as
//! X-Wing, on typed-hpke-age) as an age plugin (c2sp.org/age-plugin), so that an age client
//! without it natively (`rage` 0.12, age before v1.3) encrypts to `age1pq1…` recipients and
//! decrypts with `AGE-PLUGIN-PQ-1…` identities. It is the plugin an `age1pq1…` recipient names:
//! a client that meets one runs `age-plugin-pq` from `PATH`.
//!
//! ```text
//! age-plugin-pq -identity [-o OUTPUT] [INPUT]
//! ```
//! converts native `AGE-SECRET-KEY-PQ-1…` identities (from INPUT or standard input; `#` lines
//! and empty lines skipped) to plugin identities, one a line, as Go's `extra/age-plugin-pq
//! -identity` does, byte for byte. OUTPUT is created (never overwritten) with mode 0600.
//!
//! Limits (an identity file or the client's messages are this program's only input): the
//! identity file is at most 16 MiB, as Go's age reads it; a file's header is tried with at most
//! [`typed_hpke_age::MAX_STANZAS`] `mlkem768x25519` stanzas per identity given, more being the
//! header's error; each recipient and identity is checked when the client adds it.

#![forbid(unsafe_code)]

use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use age::secrecy::ExposeSecret;
use age_core::format::{FileKey, Stanza};
use age_plugin::identity::{self, IdentityPluginV1};
use age_plugin::recipient::{self, RecipientPluginV1};
use age_plugin::{Callbacks, PluginHandler, run_state_machine};
use typed_hpke_age::pq::{Identity, Recipient};
use typed_hpke_age::typed_hpke::PrivateKey;
use zeroize::Zeroizing;

/// The plugin's name: `age1pq1…` recipients, `AGE-PLUGIN-PQ-1…` identities.
const PLUGIN_NAME: &str = "pq";
/// The stanzas this plugin opens.
const STANZA_TYPE: &str = "mlkem768x25519";
/// The longest identity file read, as Go's age (`ParseIdentities`).
const MAX_IDENTITY_FILE: u64 = 16 << 20;

const USAGE: &str = "Usage:
    age-plugin-pq -identity [-o OUTPUT] [INPUT]

Options:
    -identity                 Convert one or more native post-quantum identities from
                              INPUT or from standard input to plugin identities.
    -o, --output OUTPUT       Write the result to the file at path OUTPUT instead of
                              standard output.

age-plugin-pq is an age plugin for post-quantum hybrid ML-KEM-768 + X25519
recipients and identities (typed-hpke-age). Place it in $PATH to add them to any
age client that runs plugins, rage included.

Recipients work out of the box, while identities need to be converted to plugin
identities with -identity. If OUTPUT already exists, it is not overwritten.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("age-plugin-pq: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The command line, as Go's plugin reads it: flags with one dash or two, `-o FILE` or
/// `-o=FILE`, then at most one input path.
fn run(args: &[String]) -> Result<(), String> {
    let mut identity = false;
    let mut output: Option<String> = None;
    let mut input: Option<String> = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let flag = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'));
        let (name, value) = match flag {
            Some(f) if !f.is_empty() && input.is_none() => match f.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (f, None),
            },
            _ => {
                if input.is_some() {
                    return Err("too many arguments".into());
                }
                input = Some(arg.clone());
                continue;
            }
        };
        match name {
            "age-plugin" => {
                let machine = value.ok_or("--age-plugin needs a state machine")?;
                return run_state_machine(&machine, Handler).map_err(|e| e.to_string());
            }
            "identity" if value.is_none() => identity = true,
            "o" | "output" => {
                output = Some(match value {
                    Some(v) => v,
                    None => rest.next().ok_or("-o needs a file")?.clone(),
                })
            }
            "version" if value.is_none() => {
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
    if !identity {
        eprintln!("{USAGE}");
        return Err("nothing to do: give -identity, or let an age client run the plugin".into());
    }
    let converted = convert(input.as_deref())?;
    match output {
        None => {
            // As Go's plugin: a warning when standard output is a file anyone can read.
            #[cfg(unix)]
            if let Ok(meta) = std::fs::metadata("/dev/stdout") {
                use std::os::unix::fs::PermissionsExt;
                if meta.is_file() && meta.permissions().mode() & 0o004 != 0 {
                    eprintln!(
                        "age-plugin-pq: warning: writing secret key to a world-readable file"
                    );
                }
            }
            io::stdout()
                .write_all(converted.as_bytes())
                .map_err(|e| format!("failed to write output: {e}"))
        }
        Some(path) => {
            let mut options = OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut file = options
                .open(&path)
                .map_err(|e| format!("failed to open output file {path:?}: {e}"))?;
            file.write_all(converted.as_bytes())
                .and_then(|()| file.sync_all())
                .map_err(|e| format!("failed to write output file {path:?}: {e}"))
        }
    }
}

/// Native identities to plugin identities, each line `AGE-PLUGIN-PQ-1…` and a newline.
fn convert(input: Option<&str>) -> Result<Zeroizing<String>, String> {
    let mut text = Zeroizing::new(Vec::new());
    let read = match input {
        None | Some("-") => io::stdin()
            .lock()
            .take(MAX_IDENTITY_FILE + 1)
            .read_to_end(&mut text),
        Some(path) => std::fs::File::open(path)
            .map_err(|e| format!("failed to open input file {path:?}: {e}"))?
            .take(MAX_IDENTITY_FILE + 1)
            .read_to_end(&mut text),
    };
    read.map_err(|e| format!("failed to read identities: {e}"))?;
    if text.len() as u64 > MAX_IDENTITY_FILE {
        return Err("failed to parse identities: the file is larger than 16 MiB".into());
    }
    let text = std::str::from_utf8(&text).map_err(|_| "failed to parse identities: not UTF-8")?;
    let mut out = Zeroizing::new(String::new());
    let mut n = 0;
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        n += 1;
        let identity: Identity = line
            .parse()
            .map_err(|e| format!("identity #{n} is not a post-quantum hybrid identity ({e})"))?;
        out.push_str(identity.to_plugin_string().expose_secret());
        out.push('\n');
    }
    if n == 0 {
        return Err("failed to parse identities: no secret keys found".into());
    }
    Ok(out)
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

/// An identity as the client hands it: this plugin's name and the 32-byte seed.
fn identity_from(plugin_name: &str, bytes: &[u8]) -> Result<Identity, String> {
    if plugin_name != PLUGIN_NAME {
        return Err("not a pq identity".into());
    }
    PrivateKey::from_bytes(bytes)
        .map(Identity::from_private_key)
        .map_err(|_| "invalid identity: not a 32-byte X-Wing seed".into())
}

/// A recipient as the client hands it: this plugin's name and the 1,216-byte key, checked.
fn recipient_from(plugin_name: &str, bytes: &[u8]) -> Result<Recipient, String> {
    if plugin_name != PLUGIN_NAME {
        return Err("not a pq recipient".into());
    }
    Recipient::from_bytes(bytes).map_err(str::to_owned)
}

/// Encryption: to each `age1pq1…` recipient, and to each plugin identity's own recipient
/// (`age -e -i IDENTITY`).
struct RecipientPlugin(Vec<Recipient>);

impl RecipientPluginV1 for RecipientPlugin {
    fn add_recipient(
        &mut self,
        index: usize,
        plugin_name: &str,
        bytes: &[u8],
    ) -> Result<(), recipient::Error> {
        let recipient = recipient_from(plugin_name, bytes)
            .map_err(|message| recipient::Error::Recipient { index, message })?;
        self.0.push(recipient);
        Ok(())
    }

    fn add_identity(
        &mut self,
        index: usize,
        plugin_name: &str,
        bytes: &[u8],
    ) -> Result<(), recipient::Error> {
        let identity = identity_from(plugin_name, bytes)
            .map_err(|message| recipient::Error::Identity { index, message })?;
        self.0.push(identity.to_public());
        Ok(())
    }

    /// `postquantum`, as the native recipient: a client puts these in no file with a classical
    /// recipient.
    fn labels(&mut self) -> HashSet<String> {
        HashSet::from(["postquantum".to_owned()])
    }

    fn wrap_file_keys(
        &mut self,
        file_keys: Vec<FileKey>,
        _callbacks: impl Callbacks<recipient::Error>,
    ) -> io::Result<Result<Vec<Vec<Stanza>>, Vec<recipient::Error>>> {
        let mut files = Vec::with_capacity(file_keys.len());
        for file_key in &file_keys {
            let mut stanzas = Vec::with_capacity(self.0.len());
            for (index, recipient) in self.0.iter().enumerate() {
                match age::Recipient::wrap_file_key(recipient, file_key) {
                    Ok((mut s, _)) => stanzas.append(&mut s),
                    Err(e) => {
                        return Ok(Err(vec![recipient::Error::Recipient {
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

/// Decryption with `AGE-PLUGIN-PQ-1…` identities.
struct IdentityPlugin(Vec<Identity>);

impl IdentityPluginV1 for IdentityPlugin {
    fn add_identity(
        &mut self,
        index: usize,
        plugin_name: &str,
        bytes: &[u8],
    ) -> Result<(), identity::Error> {
        let identity = identity_from(plugin_name, bytes)
            .map_err(|message| identity::Error::Identity { index, message })?;
        self.0.push(identity);
        Ok(())
    }

    fn unwrap_file_keys(
        &mut self,
        files: Vec<Vec<Stanza>>,
        _callbacks: impl Callbacks<identity::Error>,
    ) -> io::Result<HashMap<usize, Result<FileKey, Vec<identity::Error>>>> {
        let mut found = HashMap::new();
        for (file_index, stanzas) in files.iter().enumerate() {
            if let Some(result) = unwrap_file(&self.0, file_index, stanzas) {
                found.insert(file_index, result.map_err(|e| vec![e]));
            }
        }
        Ok(found)
    }
}

/// A file's key from its stanzas: the first `mlkem768x25519` stanza an identity opens, or the
/// first malformed one's error; nothing if none is to these identities. More than
/// [`typed_hpke_age::MAX_STANZAS`] such stanzas are the header's error, before any is tried.
fn unwrap_file(
    identities: &[Identity],
    file_index: usize,
    stanzas: &[Stanza],
) -> Option<Result<FileKey, identity::Error>> {
    let ours = || {
        stanzas
            .iter()
            .enumerate()
            .filter(|(_, s)| s.tag == STANZA_TYPE)
    };
    if let Some((stanza_index, _)) = ours().nth(typed_hpke_age::MAX_STANZAS) {
        return Some(Err(identity::Error::Stanza {
            file_index,
            stanza_index,
            message: format!(
                "more than {} {STANZA_TYPE} stanzas",
                typed_hpke_age::MAX_STANZAS
            ),
        }));
    }
    for (stanza_index, stanza) in ours() {
        for identity in identities {
            match age::Identity::unwrap_stanza(identity, stanza) {
                None => continue,
                Some(Ok(file_key)) => return Some(Ok(file_key)),
                Some(Err(e)) => {
                    return Some(Err(identity::Error::Stanza {
                        file_index,
                        stanza_index,
                        message: e.to_string(),
                    }));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stanza(tag: &str) -> Stanza {
        Stanza {
            tag: tag.to_owned(),
            args: vec!["not base64 of an encapsulation".to_owned()],
            body: vec![0; 32],
        }
    }

    fn describe(r: Option<Result<FileKey, identity::Error>>) -> &'static str {
        match r {
            None => "no result",
            Some(Ok(_)) => "a file key",
            Some(Err(identity::Error::Identity { .. })) => "an identity error",
            Some(Err(identity::Error::Internal { .. })) => "an internal error",
            Some(Err(identity::Error::Stanza { .. })) => "a stanza error at another index",
        }
    }

    #[test]
    fn the_stanza_limit_comes_before_any_stanza_is_tried() {
        let identities = [Identity::generate()];
        // 257 malformed stanzas of this type: had any been tried, the first would be the
        // error, at index 1 (after a stanza of another type, which is not counted).
        let mut stanzas = vec![stanza("X25519")];
        stanzas.extend((0..=typed_hpke_age::MAX_STANZAS).map(|_| stanza(STANZA_TYPE)));
        match unwrap_file(&identities, 3, &stanzas) {
            Some(Err(identity::Error::Stanza {
                file_index: 3,
                stanza_index,
                message,
            })) => {
                assert_eq!(stanza_index, typed_hpke_age::MAX_STANZAS + 1);
                assert!(message.starts_with("more than 256"), "{message}");
            }
            other => panic!("not the limit's error: {}", describe(other)),
        }
        // At the limit, the first malformed stanza is the error.
        stanzas.pop();
        match unwrap_file(&identities, 0, &stanzas) {
            Some(Err(identity::Error::Stanza {
                stanza_index: 1, ..
            })) => {}
            other => panic!("not the first stanza's error: {}", describe(other)),
        }
        // Stanzas of other types only: not this plugin's file.
        assert!(unwrap_file(&identities, 0, &[stanza("X25519"), stanza("p256tag")]).is_none());
    }

    #[test]
    fn recipients_are_checked_when_added() {
        let mut plugin = RecipientPlugin(Vec::new());
        let good = Identity::generate().to_public();
        let bytes = good.public_key().as_bytes().to_vec();
        assert!(plugin.add_recipient(0, PLUGIN_NAME, &bytes).is_ok());
        // The X25519 half of low order (u = 0), a short key, another plugin's name.
        let mut low = bytes.clone();
        low[1184..].fill(0);
        for (name, key) in [
            (PLUGIN_NAME, &low[..]),
            (PLUGIN_NAME, &bytes[1..]),
            ("tag", &bytes[..]),
        ] {
            match plugin.add_recipient(1, name, key) {
                Err(recipient::Error::Recipient { index: 1, .. }) => {}
                Ok(()) => panic!("{name}: a bad key was added"),
                Err(_) => panic!("{name}: not a recipient error"),
            }
        }
        assert_eq!(plugin.0.len(), 1);
        let mut identities = IdentityPlugin(Vec::new());
        assert!(identities.add_identity(0, PLUGIN_NAME, &[7; 32]).is_ok());
        for key in [&[7u8; 31][..], &[7; 33][..]] {
            assert!(matches!(
                identities.add_identity(2, PLUGIN_NAME, key),
                Err(identity::Error::Identity { index: 2, .. })
            ));
        }
    }
}
