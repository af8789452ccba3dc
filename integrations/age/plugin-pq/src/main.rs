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
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::process::ExitCode;

use age_core::format::{FileKey, Stanza};
use age_plugin::identity::{self, IdentityPluginV1};
use age_plugin::recipient::{self, RecipientPluginV1};
use age_plugin::{Callbacks, PluginHandler, run_state_machine};
use typed_hpke_age::pq::{self, Identity, Recipient};
use typed_hpke_age::typed_hpke::PrivateKey;
use typed_hpke_age_plugin_pq::{MAX_IDENTITY_FILE, convert, read_secret};

/// The plugin's name: `age1pq1…` recipients, `AGE-PLUGIN-PQ-1…` identities.
const PLUGIN_NAME: &str = "pq";
/// The stanzas this plugin opens.
const STANZA_TYPE: &str = "mlkem768x25519";

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
    // As the OS gives them: a file name need not be UTF-8.
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("age-plugin-pq: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The command line, as Go's `flag` package reads Go's plugin's: flags with one dash or two,
/// `-o FILE` or `-o=FILE`, `-identity` or `-identity=true|false`; flags end at the first
/// argument that is not one, or at `--`; then at most one input path.
fn run(args: Vec<OsString>) -> Result<(), String> {
    let mut identity = false;
    let mut output: Option<OsString> = None;
    let mut positional: Vec<OsString> = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let flag = arg
            .to_str()
            .filter(|s| *s != "-")
            .and_then(|s| s.strip_prefix("--").or_else(|| s.strip_prefix('-')));
        let Some(flag) = flag else {
            positional.push(arg);
            positional.extend(args);
            break;
        };
        if flag.is_empty() {
            // `--`: the end of the flags.
            positional.extend(args);
            break;
        }
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (flag, None),
        };
        let mut value_or_next = |what: &str| -> Result<OsString, String> {
            match &value {
                Some(v) => Ok(OsString::from(v)),
                None => args
                    .next()
                    .ok_or_else(|| format!("flag needs an argument: -{what}")),
            }
        };
        match name {
            "age-plugin" => {
                let machine = value_or_next("age-plugin")?;
                let machine = machine.to_str().ok_or("not a state machine")?;
                return run_state_machine(machine, Handler).map_err(|e| e.to_string());
            }
            "identity" => identity = go_bool(value.as_deref())?,
            "o" | "output" => output = Some(value_or_next(name)?),
            "version" if go_bool(value.as_deref())? => {
                println!("v{}", env!("CARGO_PKG_VERSION"));
                return Ok(());
            }
            "version" => {}
            "h" | "help" => {
                eprintln!("{USAGE}");
                return Ok(());
            }
            _ => return Err(format!("flag provided but not defined: -{name}\n{USAGE}")),
        }
    }
    if positional.len() > 1 {
        return Err("too many arguments".into());
    }
    if !identity {
        eprintln!("{USAGE}");
        return Err("nothing to do: give -identity, or let an age client run the plugin".into());
    }
    let input = positional.pop().filter(|p| p != "-");
    let text = match &input {
        // Standard input read through its file, not through std's `Stdin`, whose buffer
        // would keep the last 8 KiB of the identities for the life of the process.
        None => match File::open("/dev/stdin") {
            Ok(stdin) => read_secret(stdin, 0, MAX_IDENTITY_FILE),
            Err(_) => read_secret(io::stdin().lock(), 0, MAX_IDENTITY_FILE),
        },
        Some(path) => {
            let file =
                File::open(path).map_err(|e| format!("failed to open input file {path:?}: {e}"))?;
            let size = file.metadata().map(|m| m.len() as usize).unwrap_or(0);
            read_secret(file, size.saturating_add(1), MAX_IDENTITY_FILE)
        }
    }
    .map_err(|e| format!("failed to read identities: {e}"))?
    .ok_or("failed to parse identities: the file is larger than 16 MiB")?;
    let converted = convert(&text)?;
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

/// A boolean flag's value as Go's `strconv.ParseBool` reads it; no value is `true`.
fn go_bool(value: Option<&str>) -> Result<bool, String> {
    match value {
        None | Some("1" | "t" | "T" | "true" | "TRUE" | "True") => Ok(true),
        Some("0" | "f" | "F" | "false" | "FALSE" | "False") => Ok(false),
        Some(v) => Err(format!("invalid boolean value {v:?}")),
    }
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
struct RecipientPlugin(Vec<(Recipient, Added)>);

/// How a recipient was given, for its error: the client's index among recipients or among
/// identities.
#[derive(Clone, Copy)]
enum Added {
    Recipient(usize),
    Identity(usize),
}

impl RecipientPluginV1 for RecipientPlugin {
    fn add_recipient(
        &mut self,
        index: usize,
        plugin_name: &str,
        bytes: &[u8],
    ) -> Result<(), recipient::Error> {
        let recipient = recipient_from(plugin_name, bytes)
            .map_err(|message| recipient::Error::Recipient { index, message })?;
        self.0.push((recipient, Added::Recipient(index)));
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
        self.0.push((identity.to_public(), Added::Identity(index)));
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
            for (recipient, added) in &self.0 {
                match age::Recipient::wrap_file_key(recipient, file_key) {
                    Ok((mut s, _)) => stanzas.append(&mut s),
                    Err(e) => {
                        let message = e.to_string();
                        return Ok(Err(vec![match *added {
                            Added::Recipient(index) => {
                                recipient::Error::Recipient { index, message }
                            }
                            Added::Identity(index) => recipient::Error::Identity { index, message },
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
/// (Each key boxed: a vector of keys that grows would move them and free the old copies
/// unwiped.)
struct IdentityPlugin(Vec<Box<Identity>>);

impl IdentityPluginV1 for IdentityPlugin {
    fn add_identity(
        &mut self,
        index: usize,
        plugin_name: &str,
        bytes: &[u8],
    ) -> Result<(), identity::Error> {
        let identity = identity_from(plugin_name, bytes)
            .map_err(|message| identity::Error::Identity { index, message })?;
        self.0.push(Box::new(identity));
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
    identities: &[Box<Identity>],
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
    // Every stanza of the type checked for form, before any is tried: one that is malformed fails the file
    // wherever it is, and no stanza of the file is unwrapped (c2sp.org/age-plugin).
    if let Some((stanza_index, _)) = ours().find(|(_, s)| pq::is_well_formed(s) != Some(true)) {
        return Some(Err(identity::Error::Stanza {
            file_index,
            stanza_index,
            message: "invalid mlkem768x25519 stanza".into(),
        }));
    }
    for (stanza_index, stanza) in ours() {
        for identity in identities {
            match age::Identity::unwrap_stanza(&**identity, stanza) {
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
        let identities = [Box::new(Identity::generate())];
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
    fn a_malformed_stanza_fails_the_file_even_after_one_that_opens() {
        let identity = Box::new(Identity::generate());
        let good = || {
            let file_key = FileKey::new(Box::new([5; 16]));
            age::Recipient::wrap_file_key(&identity.to_public(), &file_key)
                .expect("wraps")
                .0
                .pop()
                .expect("one stanza")
        };
        let stanzas = [good(), stanza("X25519"), stanza(STANZA_TYPE)];
        match unwrap_file(std::slice::from_ref(&identity), 0, &stanzas) {
            Some(Err(identity::Error::Stanza {
                stanza_index: 2, ..
            })) => {}
            other => panic!("not the malformed stanza's error: {}", describe(other)),
        }
        // Without it, the file opens.
        assert!(matches!(
            unwrap_file(
                std::slice::from_ref(&identity),
                0,
                &[good(), stanza("X25519")]
            ),
            Some(Ok(_))
        ));
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
