//! The constant-time harness: every path of typed-hpke that touches a secret, run with the
//! secret bytes marked undefined for valgrind memcheck. Memcheck then reports every branch and
//! every memory address that depends on a secret ("Conditional jump or move depends on
//! uninitialised value(s)", "Use of uninitialised value of size N"). Public outputs (public
//! keys, `enc`, ciphertexts) are copied and the copies marked defined, as a peer would receive
//! them, before anything looks at them; nothing that holds a secret is ever marked defined.
//!
//! Run it with `ct/run` (see `ct/README.md`); it refuses to run outside valgrind, where it would
//! check nothing. `canary` as the only argument runs a deliberate secret-dependent branch
//! instead, which must be reported: the proof that the marking works.

use std::sync::atomic::{AtomicUsize, Ordering};

use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, ExportOnly, SealingAead};
use typed_hpke::kdf::TwoStageKdf;
use typed_hpke::kdf::{
    HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake128, Shake256, TurboShake128, TurboShake256,
};
use typed_hpke::kem::{AuthKem, DhKemX25519HkdfSha256, Kem, MlKem768, PreparedPublicKey, XWing};
use typed_hpke::rand_core::{TryCryptoRng, TryRng};
use typed_hpke::suite::{
    AEAD_IDS, AnyKem, AuthSealingVisitor, AuthVisitor, KDF_IDS, KEM_IDS, ReceiverMode,
    SealingVisitor, SenderMode, Suite, Visitor,
};
use typed_hpke::{EncappedKey, Hpke, PrivateKey, Psk, PublicKey, hazmat};

mod capture;
mod instructions;

use typed_hpke_support::memcheck::{self, public, secret};

const INFO: &[u8] = b"ct harness info";
const AAD: &[u8] = b"ct harness aad";

fn main() {
    if !memcheck::running_on_valgrind() {
        eprintln!("typed-hpke-ct checks nothing outside valgrind: run it with ct/run");
        std::process::exit(2);
    }
    if std::env::args().nth(1).as_deref() == Some("canary") {
        canary();
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("backend") {
        // Which backend runs under valgrind (ct/run checks it is the one it built for: a
        // graviola build that fell back to the pure-Rust code would check the wrong code).
        println!("{:?}", typed_hpke::backend());
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("instructions") {
        // Run under callgrind by ct/run, not under memcheck: the hot paths' instruction counts.
        instructions::run();
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("canary-named") {
        named_canaries::run();
        return;
    }
    // `ct/run` runs everything, in two halves side by side (`half 0`, `half 1`: the items
    // below alternate between them); a KEM id (e.g. `0x0011`) as the argument runs that KEM
    // alone.
    let arg = std::env::args().nth(1);
    let half = match (arg.as_deref(), std::env::args().nth(2).as_deref()) {
        (Some("half"), Some("0")) => Some(0),
        (Some("half"), Some("1")) => Some(1),
        (Some("half"), _) => {
            eprintln!("typed-hpke-ct: `half` takes 0 or 1");
            std::process::exit(2);
        }
        _ => None,
    };
    let only = arg
        .filter(|_| half.is_none())
        .and_then(|a| u16::from_str_radix(a.trim_start_matches("0x"), 16).ok());
    // Every KEM of the build (`AnyKem::all`), with the KDF and AEAD its runtime and all-mode
    // paths run with (`rotation`). Then the key schedule and the contexts over every KDF and
    // AEAD, all modes, on X25519.
    let mut items: Vec<Box<dyn Fn(Option<u16>)>> = AnyKem::all()
        .map(|kem| Box::new(move |o| drop(every_path::<0>(kem, o))) as Box<dyn Fn(Option<u16>)>)
        .collect();
    let rest: [fn(Option<u16>); 13] = [
        |o| kdf::<HkdfSha256>(o),
        |o| kdf::<HkdfSha384>(o),
        |o| kdf::<HkdfSha512>(o),
        |o| kdf::<Shake128>(o),
        |o| kdf::<Shake256>(o),
        |o| kdf::<TurboShake128>(o),
        |o| kdf::<TurboShake256>(o),
        |o| symmetric::<HkdfSha256>(o),
        |o| symmetric::<HkdfSha384>(o),
        |o| symmetric::<HkdfSha512>(o),
        |o| external(o),
        |o| portable_ml_kem(o),
        |o| protocols(o),
    ];
    items.extend(rest.map(|f| Box::new(f) as Box<dyn Fn(Option<u16>)>));
    for (i, item) in items.iter().enumerate() {
        if half.is_none_or(|h| i % 2 == h) {
            item(only);
        }
    }
    println!(
        "typed-hpke-ct: {} steps run, {} reports",
        STEPS.load(Ordering::Relaxed),
        memcheck::errors()
    );
}

/// The KDF and AEAD the harness runs the KEM `kem_id` with, on turn `turn`: the KEM's place in
/// the library's list (`suite::KEM_IDS`), plus `turn`, picks from its KDFs and AEADs
/// (`KDF_IDS`, `AEAD_IDS`), so that each KDF and each AEAD appears beside several KEMs and a
/// KEM added to the library is run here with no line of this harness changed.
const fn rotation(kem_id: u16, turn: usize) -> (u16, u16) {
    let mut place = 0;
    while place < KEM_IDS.len() && KEM_IDS[place] != kem_id {
        place += 1;
    }
    let n = place + turn;
    (KDF_IDS[n % KDF_IDS.len()], AEAD_IDS[n % AEAD_IDS.len()])
}

/// Whether (`kem`, `kdf`, `aead`) is the suite `rotation` gives the KEM on turn `turn`.
const fn in_rotation(turn: usize, kem: u16, kdf: u16, aead: u16) -> bool {
    let (f, a) = rotation(kem, turn);
    f == kdf && a == aead
}

/// [`kem`] (and, for a DH-KEM, [`auth_kem`]) on the suite of `which` that `rotation` gives on
/// turn `TURN`, unless `only` names another KEM; the suite's name, if it ran.
///
/// Reached through `Suite::visit` and `Suite::visit_auth`, which instantiate a visitor for
/// every suite of the build (336); the test is made when each is compiled (`if const`), so
/// only the rotation's suites compile the harness's paths. Each visitor over the whole
/// product was most of this harness's release build (138 s of 210 here, twice per CI run).
fn every_path<const TURN: usize>(which: AnyKem, only: Option<u16>) -> Option<String> {
    struct Plain<const TURN: usize>(Option<u16>);
    impl<const TURN: usize> Visitor for Plain<TURN> {
        type Output = Option<String>;
        fn visit<K: Kem, F: Kdf, A: Aead>(self) -> Option<String> {
            if const { in_rotation(TURN, K::ID, F::ID, A::ID) } {
                kem::<K, F, A>(self.0)
            } else {
                unreachable!("every_path visits the rotation's suite only")
            }
        }
    }
    struct Auth<const TURN: usize>(Option<u16>);
    impl<const TURN: usize> AuthVisitor for Auth<TURN> {
        type Output = Option<String>;
        fn visit<K: AuthKem, F: Kdf, A: Aead>(self) -> Option<String> {
            if const { in_rotation(TURN, K::ID, F::ID, A::ID) } {
                auth_kem::<K, F, A>(self.0)
            } else {
                unreachable!("every_path visits the rotation's suite only")
            }
        }
    }
    let (kdf, aead) = rotation(which.id(), TURN);
    let suite = Suite::new(which.id(), kdf, aead).expect("the library's own ids");
    // The authenticated paths on turn 0 only: the portable turn runs the KEMs without them.
    if const { TURN == 0 }
        && let Ok(name) = suite.visit_auth(Auth::<TURN>(only))
    {
        return name;
    }
    suite.visit(Plain::<TURN>(only)).expect("a suite")
}

/// The rotation's turn that `portable_ml_kem` runs: another KDF and AEAD than turn 0's for
/// each KEM.
const PORTABLE: usize = 3;

fn suite_name<K: Kem, F: Kdf, A: Aead>() -> String {
    format!("kem {:#06x} kdf {:#06x} aead {:#06x}", K::ID, F::ID, A::ID)
}

/// One KEM's own paths, the runtime API on its suite, and its key schedule in the modes
/// without a sender key; unless `only` names another KEM.
fn kem<K: Kem, F: Kdf, A: Aead>(only: Option<u16>) -> Option<String> {
    if only.is_some_and(|id| id != K::ID) {
        return None;
    }
    let name = suite_name::<K, F, A>();
    KemPaths(&name).visit::<K, F, A>();
    runtime_paths(Suite::of::<K, F, A>(), &name);
    Schedule(&name).visit::<K, F, A>();
    Some(name)
}

/// [`kem`], and the authenticated modes of a DH-KEM.
fn auth_kem<K: AuthKem, F: Kdf, A: Aead>(only: Option<u16>) -> Option<String> {
    let name = kem::<K, F, A>(only)?;
    AuthKemPaths(&name).visit::<K, F, A>();
    AuthSchedule(&name).visit::<K, F, A>();
    Some(name)
}

/// The key schedule in every mode and, for the sealing AEADs, the contexts and the
/// single-shot functions, for one KDF with every AEAD, on X25519; not when `only` names a KEM.
fn kdf<F: Kdf>(only: Option<u16>) {
    if only.is_some() {
        return;
    }
    type X = DhKemX25519HkdfSha256;
    fn schedule<F: Kdf, A: Aead>() -> String {
        let name = suite_name::<X, F, A>();
        Schedule(&name).visit::<X, F, A>();
        AuthSchedule(&name).visit::<X, F, A>();
        name
    }
    fn messages<F: Kdf, A: SealingAead>() {
        let name = schedule::<F, A>();
        Messages(&name).visit::<X, F, A>();
        AuthMessages(&name).visit::<X, F, A>();
    }
    messages::<F, Aes128Gcm>();
    messages::<F, Aes256Gcm>();
    messages::<F, ChaCha20Poly1305>();
    schedule::<F, ExportOnly>();
}

/// `typed_hpke::symmetric` and its runtime twins (`suite::Prk`, `Sealer`, `Opener`) for one
/// two-stage KDF with every sealing AEAD: `Extract` of a secret, `Expand` into a secret, the
/// AEAD keyed from the PRK and from secret key bytes, every seal and open path, and a forged
/// ciphertext; not when `only` names a KEM.
fn symmetric<F: TwoStageKdf>(only: Option<u16>) {
    if only.is_some() {
        return;
    }
    fn aead<F: TwoStageKdf, A: SealingAead>() {
        use typed_hpke::hybrid_array::{Array, typenum::Unsigned};
        use typed_hpke::symmetric::{Opener, Prk, Sealer};
        let s = &format!("symmetric kdf {:#06x} aead {:#06x}", F::ID, A::ID);
        let ikm = secret_array::<32>(40);
        let salt = b"public salt";
        let prk = Prk::<F>::extract(salt, &[&ikm, b"more"]);
        step(s, "typed Extract");
        let mut okm = [0u8; 100];
        prk.expand(&[b"info"], &mut okm).expect("expand");
        step(s, "typed Expand");
        let mut rx = Opener::<A>::from_prk(&prk, b"key", b"nonce").expect("opener");
        let mut tx = Sealer::<A>::from_prk(prk, b"key", b"nonce").expect("sealer");
        step(s, "typed Sealer / Opener from_prk");
        let pt = secret_array::<100>(41);
        let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
        step(s, "typed seal");
        assert!(same(&rx.open(AAD, &ct).expect("open"), &pt));
        step(s, "typed open");
        let mut out = [0u8; 116];
        let n = tx.seal_into(AAD, &pt, &mut out).expect("seal_into");
        let ct = declassified(&out[..n]);
        step(s, "typed seal_into");
        let mut back = [0u8; 100];
        rx.open_into(AAD, &ct, &mut back).expect("open_into");
        step(s, "typed open_into");
        assert!(same(&back, &pt));
        let mut buf = pt;
        let tag = tx
            .seal_in_place_detached(AAD, &mut buf)
            .expect("seal in place");
        let mut buf: [u8; 100] = declassified(&buf).try_into().expect("length");
        let tag = typed_hpke::aead::Tag::<A>::try_from(&declassified(&tag)[..]).expect("tag");
        step(s, "typed seal_in_place_detached");
        rx.open_in_place_detached(AAD, &mut buf, &tag)
            .expect("open in place");
        step(s, "typed open_in_place_detached");
        assert!(same(&buf, &pt));
        // A context that reaches 16 KiB: on the graviola backend an AES-GCM one keys graviola's
        // cipher with that message (RustCrypto's runs before), so the seal, the open and the
        // forged open below run graviola's AES-GCM.
        let big = secret_array::<16384>(44);
        let ct = declassified(&tx.seal(AAD, &big).expect("seal"));
        assert!(same(&rx.open(AAD, &ct).expect("open"), &big));
        step(s, "typed seal and open of 16 KiB");
        let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
        assert!(same(&rx.open(AAD, &ct).expect("open"), &pt));
        step(s, "typed seal and open after 16 KiB");
        let mut forged = declassified(&tx.seal(AAD, &pt).expect("seal"));
        forged[3] ^= 1;
        assert!(rx.open(AAD, &forged).is_err());
        step(s, "typed open of a forged ciphertext");

        // The runtime twins, keyed from the PRK and from secret bytes.
        let prk = typed_hpke::suite::Prk::extract(F::ID, salt, &[&ikm]).expect("extract");
        step(s, "runtime Extract");
        prk.expand(&[b"info"], &mut okm).expect("expand");
        step(s, "runtime Expand");
        let mut rx =
            typed_hpke::suite::Opener::from_prk(A::ID, &prk, b"key", b"nonce").expect("opener");
        let mut tx =
            typed_hpke::suite::Sealer::from_prk(A::ID, prk, b"key", b"nonce").expect("sealer");
        step(s, "runtime Sealer / Opener from_prk");
        let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
        step(s, "runtime seal");
        let mut back = [0u8; 100];
        rx.open_into(AAD, &ct, &mut back).expect("open_into");
        step(s, "runtime open_into");
        assert!(same(&back, &pt));
        let mut forged = declassified(&tx.seal(AAD, &pt).expect("seal"));
        forged[3] ^= 1;
        assert!(rx.open(AAD, &forged).is_err());
        step(s, "runtime open of a forged ciphertext");
        let key = secret_array::<32>(42);
        let nonce = secret_array::<12>(43);
        let (nk, nn) = (A::Nk::USIZE, A::Nn::USIZE);
        let mut tx = typed_hpke::suite::Sealer::new(A::ID, &key[..nk], &nonce[..nn]).expect("new");
        let typed_key = Array::<u8, A::Nk>::try_from(&key[..nk]).expect("key");
        let typed_nonce = Array::<u8, A::Nn>::try_from(&nonce[..nn]).expect("nonce");
        let mut rx = Opener::<A>::new(&typed_key, &typed_nonce);
        step(s, "Sealer::new / Opener::new from secret bytes");
        let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
        assert!(same(&rx.open(AAD, &ct).expect("open"), &pt));
        step(s, "seal and open under caller keys");
    }
    aead::<F, Aes128Gcm>();
    aead::<F, Aes256Gcm>();
    aead::<F, ChaCha20Poly1305>();
}

/// typed-hpke-jose and typed-hpke-cose on X25519: a recipient key from secret bytes, a secret
/// plaintext and PSK, through integrated and key encryption of each (the CEK is secret inside
/// the crates), and the keys' private export (and COSE_Key's import); not when `only` names
/// another KEM. The messages are made with a public generator (their `enc` and IV are public),
/// written compact or as CBOR and declassified as a peer receives them, as is the public key
/// each private key gives. Left out, and why: a private JWK's import, whose JSON text passes through serde_json's scanner (documented on
/// `PrivateJwk::from_json`), and the JSON serializations, whose string writer looks the
/// ciphertext's base64url characters up in an escape table (public bytes on the wire, but
/// derived from the marked plaintext here).
fn protocols(only: Option<u16>) {
    if only.is_some_and(|id| id != DhKemX25519HkdfSha256::ID) {
        return;
    }
    let s = "protocols";
    let sk_bytes = secret_array::<32>(60);
    let sk = typed_hpke::suite::AnyKem::new(0x0020)
        .and_then(|k| k.private_key_from_bytes(&sk_bytes))
        .expect("key");
    // The public key as a peer receives it: the bytes the private key gives, declassified,
    // parsed anew (its own representation, not one derived from the secret inside a key).
    let pk = typed_hpke::suite::AnyKem::new(0x0020)
        .and_then(|k| k.public_key_from_bytes(&declassified(sk.public_key().as_bytes())))
        .expect("public key");
    let pt = secret_array::<100>(61);
    let psk = secret_array::<32>(62);
    let mut rng = typed_hpke::OsRng::default();
    step(s, "recipient key from secret bytes");
    {
        use typed_hpke_jose::{
            Algorithm, ContentEncryption, Decryptor, Encryptor, Jwe, PrivateJwk, Recipient,
        };
        for alg in [Algorithm::HPKE_4, Algorithm::HPKE_3_KE] {
            let key = PrivateJwk::new(sk.clone()).with_alg(alg).expect("jwk");
            // The public part a private JWK writes, public as a peer receives it.
            public(key.public_jwk().key().as_bytes());
            let recipient = typed_hpke_jose::PublicJwk::new(pk.clone())
                .with_alg(alg)
                .expect("jwk");
            let e = if alg.is_key_encryption() {
                let r = Recipient::new(alg, &recipient)
                    .and_then(|r| r.psk(&psk, b"id"))
                    .expect("recipient");
                Encryptor::key_encryption(ContentEncryption::A256Gcm)
                    .recipient(r)
                    .expect("recipient")
            } else {
                Encryptor::integrated(alg, &recipient)
                    .and_then(|e| e.psk(&psk, b"id"))
                    .expect("encryptor")
            };
            let compact = e
                .encrypt(&mut rng, &pt)
                .and_then(|j| j.to_compact())
                .expect("encrypt");
            step(s, &format!("JOSE {} encrypt (PSK), compact", alg.name()));
            let text = String::from_utf8(declassified(compact.as_bytes())).expect("text");
            let jwe = Jwe::parse(&text).expect("parse");
            let out = Decryptor::new(&key)
                .psk(&psk, b"id")
                .and_then(|d| d.decrypt(&jwe))
                .expect("decrypt");
            assert!(same(&out, &pt));
            step(s, &format!("JOSE {} decrypt (PSK)", alg.name()));
            // The ciphertext's first character changed (a full six bits: still canonical).
            let mut parts: Vec<String> = text.split('.').map(String::from).collect();
            let first = if parts[3].starts_with('A') { "B" } else { "A" };
            parts[3].replace_range(..1, first);
            let forged = Jwe::parse(&parts.join(".")).expect("parse");
            assert!(
                Decryptor::new(&key)
                    .psk(&psk, b"id")
                    .and_then(|d| d.decrypt(&forged))
                    .is_err()
            );
            step(
                s,
                &format!("JOSE {} decrypt of a forged message", alg.name()),
            );
            drop(key.to_json().expect("export"));
            step(s, "private JWK export");
        }
    }
    {
        use typed_hpke_cose::{
            Algorithm, ContentAlgorithm, Decryptor, Encryptor, PrivateCoseKey, Recipient,
        };
        for alg in [Algorithm::HPKE_4, Algorithm::HPKE_3_KE] {
            let key = PrivateCoseKey::new(sk.clone()).with_alg(alg).expect("key");
            public(key.public_key().key().as_bytes());
            let recipient = typed_hpke_cose::PublicCoseKey::new(pk.clone())
                .with_alg(alg)
                .expect("key");
            let e = if alg.is_key_encryption() {
                let r = Recipient::new(alg, &recipient)
                    .and_then(|r| r.psk(&psk, b"id"))
                    .expect("recipient");
                Encryptor::key_encryption(ContentAlgorithm::ChaCha20Poly1305)
                    .recipient(r)
                    .expect("recipient")
            } else {
                Encryptor::encrypt0(alg, &recipient)
                    .and_then(|e| e.psk(&psk, b"id"))
                    .expect("encryptor")
            };
            let message = e.external_aad(AAD).encrypt(&mut rng, &pt).expect("encrypt");
            step(s, &format!("COSE {} encrypt (PSK)", alg.name()));
            let mut message = declassified(&message);
            let d = Decryptor::new(&key)
                .external_aad(AAD)
                .psk(&psk, b"id")
                .expect("psk");
            assert!(same(&d.decrypt(&message).expect("decrypt"), &pt));
            step(s, &format!("COSE {} decrypt (PSK)", alg.name()));
            let last = message.len() - 1;
            message[last] ^= 1;
            assert!(d.decrypt(&message).is_err());
            step(
                s,
                &format!("COSE {} decrypt of a forged message", alg.name()),
            );
            let exported = key.to_cbor().expect("export");
            step(s, "private COSE_Key export");
            let again = PrivateCoseKey::from_cbor(&exported).expect("import");
            assert!(same(&again.key().to_bytes(), &key.key().to_bytes()));
            step(s, "private COSE_Key import");
        }
    }
}

/// The post-quantum KEMs again on libcrux's portable code (`hazmat::force_portable_ml_kem`):
/// under valgrind the CPU's AVX2 code is what the items above run, so without this the portable
/// path, the only one on CPUs without AVX2 or NEON, would never be checked. Each KEM without
/// the Auth modes (every one has an ML-KEM inside: ML-KEM, X-Wing, the hybrids), its own paths
/// on the rotation's turn `PORTABLE`; not when `only` names another KEM.
fn portable_ml_kem(only: Option<u16>) {
    hazmat::force_portable_ml_kem(true);
    for kem in AnyKem::all().filter(|kem| !kem.supports_auth()) {
        if let Some(name) = every_path::<PORTABLE>(kem, only) {
            step(&name, "(portable ML-KEM)");
        }
    }
    hazmat::force_portable_ml_kem(false);
}

/// Keys held outside the process on X25519 (`kem::DhHolder` / `suite::DhHolder` through
/// `ExternalDh`, and the two-step `DhRequest`): the holder's scalar and every DH output it
/// returns are secret; the receiver in every mode, typed and runtime, and the Auth sender with
/// the held static key. Then an ML-KEM-768 key whose holder decapsulates whole
/// (`ExternalDecap`, `Decapsulated`): the shared secret it returns is secret. Not when `only`
/// names another KEM.
fn external(only: Option<u16>) {
    use typed_hpke::kem::{DhHolder, DhRequest, ExternalDh};
    type X = DhKemX25519HkdfSha256;
    type S = Hpke<X, HkdfSha256, ChaCha20Poly1305>;
    if only.is_none_or(|id| id == MlKem768::ID) {
        decapsulating_holder();
    }
    if only.is_none_or(|id| id == XWing::ID) {
        split_hybrid();
    }
    if only.is_some_and(|id| id != X::ID) {
        return;
    }
    /// The holder: an x25519-dalek scalar from secret bytes.
    struct Holder {
        sk: x25519_dalek::StaticSecret,
        public: PublicKey<X>,
        runtime: typed_hpke::suite::PublicKey,
    }
    impl Holder {
        fn compute(&self, peer: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
            let peer = <[u8; 32]>::try_from(peer).map_err(|_| "peer")?;
            out.copy_from_slice(self.sk.diffie_hellman(&peer.into()).as_bytes());
            Ok(())
        }
    }
    impl DhHolder<X> for Holder {
        type Error = &'static str;
        fn public_key(&self) -> &PublicKey<X> {
            &self.public
        }
        fn dh(&self, peer: &PublicKey<X>, out: &mut [u8]) -> Result<(), &'static str> {
            self.compute(peer.as_bytes(), out)
        }
    }
    impl typed_hpke::suite::DhHolder for Holder {
        type Error = &'static str;
        fn public_key(&self) -> &typed_hpke::suite::PublicKey {
            &self.runtime
        }
        fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
            self.compute(peer, out)
        }
    }
    let s = "external X25519";
    let holder = |tag: u8| {
        let sk = x25519_dalek::StaticSecret::from(secret_array::<32>(tag));
        let public = declassified(x25519_dalek::PublicKey::from(&sk).as_bytes());
        let public = PublicKey::<X>::from_bytes(&public).expect("public key");
        let runtime = typed_hpke::suite::PublicKey::from(public.clone());
        Holder {
            sk,
            public,
            runtime,
        }
    };
    let (r, sender) = (holder(50), holder(51));
    let (held_r, held_s) = (ExternalDh(&r), ExternalDh(&sender));
    let (sk_s, pk_s) = recipient::<X>(52);
    let psk_bytes = secret_array::<32>(53);
    let psk = Psk::new(&psk_bytes, b"ct psk id").expect("psk");
    let mut rng = MarkedRng(54);
    let pt = secret_array::<40>(55);
    let suite = Suite::of::<X, HkdfSha256, ChaCha20Poly1305>();
    let rt_pk_s = typed_hpke::suite::PublicKey::from(pk_s.clone());
    for (mode, psk, auth) in [
        ("base", None, false),
        ("psk", Some(&psk), false),
        ("auth", None, true),
        ("auth_psk", Some(&psk), true),
    ] {
        let (enc, mut tx) = match (psk, auth) {
            (None, false) => S::setup_sender_base(&mut rng, &r.public, INFO),
            (Some(p), false) => S::setup_sender_psk(&mut rng, &r.public, INFO, p),
            (None, true) => S::setup_sender_auth(&mut rng, &r.public, INFO, &sk_s),
            (Some(p), true) => S::setup_sender_auth_psk(&mut rng, &r.public, INFO, p, &sk_s),
        }
        .expect("setup");
        let enc = peer_enc(&enc);
        let mut rx = match (psk, auth) {
            (None, false) => S::setup_receiver_base(&enc, &held_r, INFO),
            (Some(p), false) => S::setup_receiver_psk(&enc, &held_r, INFO, p),
            (None, true) => S::setup_receiver_auth(&enc, &held_r, INFO, &pk_s),
            (Some(p), true) => S::setup_receiver_auth_psk(&enc, &held_r, INFO, p, &pk_s),
        }
        .expect("setup");
        step(s, &format!("{mode}: typed setup with ExternalDh"));
        let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
        assert!(same(&rx.open(AAD, &ct).expect("open"), &pt));
        step(s, &format!("{mode}: open"));
        // The two steps, the holder answering in between.
        let request = if auth {
            DhRequest::auth_decap(&enc, &r.public, &pk_s)
        } else {
            DhRequest::decap(&enc, &r.public)
        }
        .expect("request");
        let answers: Vec<[u8; 32]> = request
            .peers()
            .map(|peer| {
                let mut out = [0u8; 32];
                r.compute(peer.as_bytes(), &mut out).expect("dh");
                out
            })
            .collect();
        let answers: Vec<&[u8]> = answers.iter().map(|a| &a[..]).collect();
        let answered = request.answer(&answers).expect("answer");
        let mut rx2 = match (psk, auth) {
            (None, false) => S::setup_receiver_base(&enc, &answered, INFO),
            (Some(p), false) => S::setup_receiver_psk(&enc, &answered, INFO, p),
            (None, true) => S::setup_receiver_auth(&enc, &answered, INFO, &pk_s),
            (Some(p), true) => S::setup_receiver_auth_psk(&enc, &answered, INFO, p, &pk_s),
        }
        .expect("setup");
        step(s, &format!("{mode}: typed setup with a DhRequest's answer"));
        assert!(same(&rx2.open(AAD, &ct).expect("open"), &pt));
        let rt_mode = match (psk, auth) {
            (None, false) => ReceiverMode::Base,
            (Some(p), false) => ReceiverMode::Psk(p),
            (None, true) => ReceiverMode::Auth(&rt_pk_s),
            (Some(p), true) => ReceiverMode::AuthPsk(p, &rt_pk_s),
        };
        let mut rt = suite
            .setup_receiver(enc.as_bytes(), &held_r, INFO, rt_mode)
            .expect("setup");
        step(s, &format!("{mode}: runtime setup with ExternalDh"));
        assert!(same(&rt.open(AAD, &ct).expect("open"), &pt));
        if auth {
            let (enc, mut tx) = match psk {
                None => S::setup_sender_auth(&mut rng, &pk_s, INFO, &held_s),
                Some(p) => S::setup_sender_auth_psk(&mut rng, &pk_s, INFO, p, &held_s),
            }
            .expect("setup");
            step(s, &format!("{mode}: typed Auth sender with ExternalDh"));
            let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
            let rt_sender = match psk {
                None => SenderMode::Auth(&held_s),
                Some(p) => SenderMode::AuthPsk(p, &held_s),
            };
            let (_, mut tx2) = suite
                .setup_sender(&mut rng, &rt_pk_s, INFO, rt_sender)
                .expect("setup");
            step(s, &format!("{mode}: runtime Auth sender with ExternalDh"));
            drop((enc, ct, tx2.seal(AAD, &pt).expect("seal")));
        }
    }
}

/// An ML-KEM-768 key whose holder decapsulates whole (here in process, from a secret seed):
/// the shared secret it returns is secret, through `ExternalDecap` (typed and runtime) and
/// `Decapsulated`.
fn decapsulating_holder() {
    use typed_hpke::kem::{DecapHolder, Decapsulated, ExternalDecap};
    type M = MlKem768;
    type S = Hpke<M, HkdfSha256, Aes128Gcm>;
    struct Holder(PrivateKey<M>, typed_hpke::suite::PublicKey);
    impl DecapHolder<M> for Holder {
        type Error = &'static str;
        fn decapsulate(&self, enc: &EncappedKey<M>, out: &mut [u8]) -> Result<(), &'static str> {
            out.copy_from_slice(M::decap(enc, &self.0).map_err(|_| "decap")?.as_bytes());
            Ok(())
        }
    }
    impl typed_hpke::suite::DecapHolder for Holder {
        type Error = &'static str;
        fn public_key(&self) -> &typed_hpke::suite::PublicKey {
            &self.1
        }
        fn decapsulate(&self, enc: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
            let enc = EncappedKey::<M>::from_bytes(enc).map_err(|_| "enc")?;
            DecapHolder::decapsulate(self, &enc, out)
        }
    }
    let s = "external ML-KEM-768";
    let (sk, pk) = recipient::<M>(56);
    let holder = Holder(sk, typed_hpke::suite::PublicKey::from(pk.clone()));
    let mut rng = MarkedRng(57);
    let pt = secret_array::<40>(58);
    let (enc, mut tx) = S::setup_sender_base(&mut rng, &pk, INFO).expect("setup");
    let enc = peer_enc(&enc);
    let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
    let held = ExternalDecap(&holder);
    let mut rx = S::setup_receiver_base(&enc, &held, INFO).expect("setup");
    step(s, "base: typed setup with ExternalDecap");
    assert!(same(&rx.open(AAD, &ct).expect("open"), &pt));
    let mut secret_out = [0u8; 32];
    DecapHolder::decapsulate(&holder, &enc, &mut secret_out).expect("decap");
    let key = Decapsulated::new(&enc, &secret_out).expect("answer");
    let mut rx = S::setup_receiver_base(&enc, &key, INFO).expect("setup");
    step(s, "base: typed setup with Decapsulated");
    assert!(same(&rx.open(AAD, &ct).expect("open"), &pt));
    let suite = Suite::of::<M, HkdfSha256, Aes128Gcm>();
    let mut rt = suite
        .setup_receiver(enc.as_bytes(), &held, INFO, ReceiverMode::Base)
        .expect("setup");
    step(s, "base: runtime setup with ExternalDecap");
    assert!(same(&rt.open(AAD, &ct).expect("open"), &pt));
}

/// An X-Wing key with its halves apart (`SplitHybrid`): the ML-KEM-768 key in process, the
/// X25519 scalar with a holder; the seed, the scalar and the DH output it returns are secret.
fn split_hybrid() {
    use typed_hpke::kem::{DhHolder, SplitHybrid};
    type X = DhKemX25519HkdfSha256;
    type S = Hpke<XWing, HkdfSha256, ChaCha20Poly1305>;
    struct Holder(x25519_dalek::StaticSecret, PublicKey<X>);
    impl DhHolder<X> for Holder {
        type Error = &'static str;
        fn public_key(&self) -> &PublicKey<X> {
            &self.1
        }
        fn dh(&self, peer: &PublicKey<X>, out: &mut [u8]) -> Result<(), &'static str> {
            let peer = <[u8; 32]>::try_from(peer.as_bytes()).map_err(|_| "peer")?;
            out.copy_from_slice(self.0.diffie_hellman(&peer.into()).as_bytes());
            Ok(())
        }
    }
    let s = "split X-Wing";
    let sk_t = x25519_dalek::StaticSecret::from(secret_array::<32>(60));
    let pk_t = declassified(x25519_dalek::PublicKey::from(&sk_t).as_bytes());
    let holder = Holder(sk_t, PublicKey::<X>::from_bytes(&pk_t).expect("public key"));
    let (ml_kem, _) = recipient::<MlKem768>(61);
    let key = SplitHybrid::<XWing, _>::new(ml_kem, holder);
    let pk = peer_pk(key.public_key());
    let mut rng = MarkedRng(62);
    let pt = secret_array::<40>(63);
    let (enc, mut tx) = S::setup_sender_base(&mut rng, &pk, INFO).expect("setup");
    let enc = peer_enc(&enc);
    let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
    let mut rx = S::setup_receiver_base(&enc, &key, INFO).expect("setup");
    step(s, "base: typed setup with SplitHybrid");
    assert!(same(&rx.open(AAD, &ct).expect("open"), &pt));
}

/// A deliberate branch on a secret byte, which memcheck must report (`ct/run` checks that it
/// does): without it a harness whose marking silently failed would pass.
fn canary() {
    let mut byte = [0x5a_u8];
    secret(&mut byte);
    if std::hint::black_box(byte[0]) & 1 == 1 {
        println!("canary: odd");
    } else {
        println!("canary: even");
    }
}

/// Branches on a secret in functions of this crate named like the dependency functions whose
/// reports `valgrind.supp` sets aside (aes-gcm's and chacha20poly1305's
/// `decrypt_inout_detached`, base16ct's `decode_inner`, libcrux's `sample_matrix_A`). Each must
/// still be reported: a suppression that matched the function's name alone, in any crate,
/// would hide them. `ct/run` checks the line each prints after memcheck's count went up.
mod named_canaries {
    use super::{memcheck, secret};

    /// The secret branch, written into each function's own body (a macro, not a call): the
    /// report's innermost frame must be the function with the suppressed name.
    macro_rules! secret_branch {
        ($what:literal) => {{
            let mut byte = [0xa5_u8];
            secret(&mut byte);
            let before = memcheck::errors();
            if std::hint::black_box(byte[0]) & 1 == 1 {
                std::hint::black_box(1);
            }
            if memcheck::errors() > before {
                println!("named canary {}: reported", $what);
            }
        }};
    }

    #[inline(never)]
    fn decrypt_inout_detached() {
        secret_branch!("decrypt_inout_detached");
    }

    #[inline(never)]
    fn decode_inner<T>(_: T) {
        secret_branch!("decode_inner");
    }

    #[allow(non_snake_case)]
    #[inline(never)]
    fn sample_matrix_A<const K: usize>() {
        secret_branch!("sample_matrix_A");
    }

    pub(super) fn run() {
        decrypt_inout_detached();
        decode_inner(0u16);
        sample_matrix_A::<3>();
    }
}

static STEPS: AtomicUsize = AtomicUsize::new(0);
static REPORTED: AtomicUsize = AtomicUsize::new(0);

/// Ends one step: names it when it added reports, so that each report can be traced to the
/// operation that made it.
fn step(suite: &str, what: &str) {
    STEPS.fetch_add(1, Ordering::Relaxed);
    let now = memcheck::errors();
    let before = REPORTED.swap(now, Ordering::Relaxed);
    if now > before {
        println!("{suite}: {what}: {} new report(s)", now - before);
    }
}

/// A secret of `N` bytes (distinct per `tag`), marked undefined.
fn secret_array<const N: usize>(tag: u8) -> [u8; N] {
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(31) ^ tag.wrapping_mul(167);
    }
    secret(&mut out);
    out
}

/// A copy of public bytes a peer would receive, marked defined.
fn declassified(bytes: &[u8]) -> Vec<u8> {
    let v = bytes.to_vec();
    public(&v);
    v
}

/// Whether two secrets are equal, decided on declassified copies: the harness's own check that
/// both sides agree, outside the measured code.
fn same(a: &[u8], b: &[u8]) -> bool {
    declassified(a) == declassified(b)
}

/// A deterministic generator whose every output is marked secret: the ephemeral randomness of
/// `generate` and `encap`.
struct MarkedRng(u64);

impl TryRng for MarkedRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        // splitmix64: enough for test values; what matters is that the output is marked.
        for chunk in dst.chunks_mut(8) {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            chunk.copy_from_slice(&z.to_le_bytes()[..chunk.len()]);
        }
        secret(dst);
        Ok(())
    }
}

impl TryCryptoRng for MarkedRng {}

/// The public key as a peer has it: parsed from declassified bytes, not the key object the
/// secret computation returned (whose cached point still carries the taint).
fn peer_pk<K: Kem>(pk: &PublicKey<K>) -> PublicKey<K> {
    PublicKey::from_bytes(&declassified(pk.as_bytes())).expect("a derived public key parses")
}

fn peer_enc<K: Kem>(enc: &EncappedKey<K>) -> EncappedKey<K> {
    EncappedKey::from_bytes(&declassified(enc.as_bytes())).expect("an encapsulated key parses")
}

/// A private key's hex form, for the serde path, marked secret.
fn secret_hex(bytes: &[u8]) -> String {
    let hex: String = declassified(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut hex = hex.into_bytes();
    secret(&mut hex);
    // SAFETY: the bytes are the ASCII digits just written; marking changed no bit of them.
    // (`String::from_utf8` would branch on them, which the harness must not do.)
    unsafe { String::from_utf8_unchecked(hex) }
}

type DeError = serde::de::value::Error;

/// Key generation, derivation, parsing, serde, encap (plain and prepared) and decap of one KEM.
struct KemPaths<'a>(&'a str);

impl Visitor for KemPaths<'_> {
    type Output = ();
    fn visit<K: Kem, F: Kdf, A: Aead>(self) {
        let s = self.0;
        let ikm = secret_array::<64>(1);
        let (sk, pk) = K::derive_key_pair(&ikm).expect("derive_key_pair");
        let pk = peer_pk(&pk);
        step(s, "derive_key_pair");

        let (sk_g, pk_g) = K::generate(&mut MarkedRng(2)).unwrap();
        let pk_g = peer_pk(&pk_g);
        step(s, "generate");

        let mut bytes = sk.to_bytes();
        secret(&mut bytes);
        let parsed = PrivateKey::<K>::from_bytes(&bytes).expect("to_bytes parses");
        step(s, "private key to_bytes / from_bytes");
        assert!(same(&parsed.to_bytes(), &bytes));

        let hex = secret_hex(&bytes);
        let from_str: PrivateKey<K> = serde::Deserialize::deserialize(
            serde::de::value::StrDeserializer::<DeError>::new(&hex),
        )
        .expect("hex deserializes");
        let from_bytes: PrivateKey<K> = serde::Deserialize::deserialize(
            serde::de::value::BytesDeserializer::<DeError>::new(&bytes),
        )
        .expect("bytes deserialize");
        step(s, "serde: private key from hex and from bytes");
        assert!(same(&from_str.to_bytes(), &bytes) && same(&from_bytes.to_bytes(), &bytes));
        let (text, raw) = (
            capture::serialize(&sk, true),
            capture::serialize(&sk, false),
        );
        step(s, "serde: private key to hex and to bytes");
        assert!(same(&text, hex.as_bytes()) && same(&raw, &bytes));

        let mut rng = MarkedRng(3);
        let (ss, enc) = K::encap(&mut rng, &pk).expect("encap");
        step(s, "encap");
        let enc = peer_enc(&enc);
        let ss_r = K::decap(&enc, &sk).expect("decap");
        step(s, "decap");
        assert!(same(ss.as_bytes(), ss_r.as_bytes()));

        let prepared = PreparedPublicKey::new(&pk_g);
        let (ss, enc) = prepared.encap(&mut rng).expect("prepared encap");
        step(s, "prepared encap");
        let ss_r = K::decap(&peer_enc(&enc), &sk_g).expect("decap");
        assert!(same(ss.as_bytes(), ss_r.as_bytes()));
        step(s, "decap");

        // ML-KEM's ikm_e is the 32-byte m; a hybrid's is m and Group.Nseed bytes (128 for
        // P-256, 48 for P-384, 32 for X25519); a DH-KEM's any IKM.
        let ikm_e = secret_array::<160>(34);
        let ikm_e = &ikm_e[..match K::ID {
            0x0040..=0x0042 => 32,
            0x0050 => 160,
            0x0051 => 80,
            _ => 64,
        }];
        let (ss, enc) = hazmat::encap_deterministic(ikm_e, &prepared).expect("encap");
        step(s, "hazmat::encap_deterministic (prepared key)");
        let (ss_p, _) = hazmat::encap_deterministic(ikm_e, &pk_g).expect("encap");
        step(s, "hazmat::encap_deterministic");
        let ss_r = K::decap(&peer_enc(&enc), &sk_g.clone()).expect("decap");
        step(s, "private key clone / decap");
        assert!(same(ss.as_bytes(), ss_r.as_bytes()) && same(ss.as_bytes(), ss_p.as_bytes()));
        assert!(same(sk_g.public_key().as_bytes(), pk_g.as_bytes()));
        step(s, "public_key");
    }
}

/// `AuthEncap` / `AuthDecap`, plain and prepared, of one DH-KEM.
struct AuthKemPaths<'a>(&'a str);

impl AuthVisitor for AuthKemPaths<'_> {
    type Output = ();
    fn visit<K: AuthKem, F: Kdf, A: Aead>(self) {
        let s = self.0;
        let (sk_r, pk_r) = K::derive_key_pair(&secret_array::<48>(4)).expect("derive");
        let (sk_s, pk_s) = K::derive_key_pair(&secret_array::<48>(5)).expect("derive");
        let (pk_r, pk_s) = (peer_pk(&pk_r), peer_pk(&pk_s));
        step(s, "derive_key_pair");
        let mut rng = MarkedRng(6);
        let (ss, enc) = K::auth_encap(&mut rng, &pk_r, &sk_s).expect("auth_encap");
        step(s, "auth_encap");
        let ss_r = K::auth_decap(&peer_enc(&enc), &sk_r, &pk_s).expect("auth_decap");
        step(s, "auth_decap");
        assert!(same(ss.as_bytes(), ss_r.as_bytes()));
        let prepared = PreparedPublicKey::new(&pk_r);
        let (ss, enc) = prepared.auth_encap(&mut rng, &sk_s).expect("auth_encap");
        step(s, "prepared auth_encap");
        let ss_r = K::auth_decap(&peer_enc(&enc), &sk_r, &pk_s).expect("auth_decap");
        assert!(same(ss.as_bytes(), ss_r.as_bytes()));
        step(s, "auth_decap");
        let ikm_e = secret_array::<64>(35);
        let (ss, enc) =
            hazmat::auth_encap_deterministic(&ikm_e, &prepared, &sk_s).expect("auth_encap");
        step(s, "hazmat::auth_encap_deterministic (prepared key)");
        let ss_r = K::auth_decap(&peer_enc(&enc), &sk_r, &pk_s).expect("auth_decap");
        assert!(same(ss.as_bytes(), ss_r.as_bytes()));
        step(s, "auth_decap");
    }
}

/// A recipient key pair from secret IKM, the public half as a peer has it.
fn recipient<K: Kem>(tag: u8) -> (PrivateKey<K>, PublicKey<K>) {
    let (sk, pk) = K::derive_key_pair(&secret_array::<48>(tag)).expect("derive");
    (sk, peer_pk(&pk))
}

/// Exports on both sides and checks they agree (on declassified copies).
fn exports_agree(s: &str, mode: &str, send: impl Fn(&mut [u8]), receive: impl Fn(&mut [u8])) {
    let (mut a, mut b) = ([0u8; 48], [0u8; 48]);
    send(&mut a);
    receive(&mut b);
    step(s, &format!("{mode}: export"));
    assert!(same(&a, &b), "{s} {mode}: exports differ");
}

/// The key schedule in base and PSK mode (PSK and psk_id secret), and export.
struct Schedule<'a>(&'a str);

impl Visitor for Schedule<'_> {
    type Output = ();
    fn visit<K: Kem, F: Kdf, A: Aead>(self) {
        let s = self.0;
        let (sk, pk) = recipient::<K>(7);
        let mut rng = MarkedRng(8);
        let (enc, tx) = Hpke::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).expect("setup");
        let rx = Hpke::<K, F, A>::setup_receiver_base(&peer_enc(&enc), &sk, INFO).expect("setup");
        step(s, "base: setup_sender / setup_receiver");
        exports_agree(
            s,
            "base",
            |o| tx.export(b"ctx", o).unwrap(),
            |o| rx.export(b"ctx", o).unwrap(),
        );

        let (psk, psk_id) = (secret_array::<32>(9), secret_array::<16>(10));
        let psk = Psk::new(&psk, &psk_id).expect("psk");
        let (enc, tx) =
            Hpke::<K, F, A>::setup_sender_psk(&mut rng, &pk, INFO, &psk).expect("setup");
        let rx =
            Hpke::<K, F, A>::setup_receiver_psk(&peer_enc(&enc), &sk, INFO, &psk).expect("setup");
        step(s, "psk: setup_sender / setup_receiver");
        exports_agree(
            s,
            "psk",
            |o| tx.export(b"ctx", o).unwrap(),
            |o| rx.export(b"ctx", o).unwrap(),
        );
    }
}

/// The key schedule in the auth and auth-PSK modes.
struct AuthSchedule<'a>(&'a str);

impl AuthVisitor for AuthSchedule<'_> {
    type Output = ();
    fn visit<K: AuthKem, F: Kdf, A: Aead>(self) {
        let s = self.0;
        let (sk_r, pk_r) = recipient::<K>(11);
        let (sk_s, pk_s) = recipient::<K>(12);
        let mut rng = MarkedRng(13);
        let (enc, tx) =
            Hpke::<K, F, A>::setup_sender_auth(&mut rng, &pk_r, INFO, &sk_s).expect("setup");
        let rx = Hpke::<K, F, A>::setup_receiver_auth(&peer_enc(&enc), &sk_r, INFO, &pk_s)
            .expect("setup");
        step(s, "auth: setup_sender / setup_receiver");
        exports_agree(
            s,
            "auth",
            |o| tx.export(b"ctx", o).unwrap(),
            |o| rx.export(b"ctx", o).unwrap(),
        );

        let (psk, psk_id) = (secret_array::<32>(14), secret_array::<16>(15));
        let psk = Psk::new(&psk, &psk_id).expect("psk");
        let (enc, tx) = Hpke::<K, F, A>::setup_sender_auth_psk(&mut rng, &pk_r, INFO, &psk, &sk_s)
            .expect("setup");
        let rx =
            Hpke::<K, F, A>::setup_receiver_auth_psk(&peer_enc(&enc), &sk_r, INFO, &psk, &pk_s)
                .expect("setup");
        step(s, "auth_psk: setup_sender / setup_receiver");
        exports_agree(
            s,
            "auth_psk",
            |o| tx.export(b"ctx", o).unwrap(),
            |o| rx.export(b"ctx", o).unwrap(),
        );
    }
}

/// Context seal and open on every path (`Vec`, `_into`, in place), a failed open, and the
/// single-shot functions, with secret plaintexts.
struct Messages<'a>(&'a str);

impl SealingVisitor for Messages<'_> {
    type Output = ();
    fn visit<K: Kem, F: Kdf, A: SealingAead>(self) {
        let s = self.0;
        let (sk, pk) = recipient::<K>(16);
        let mut rng = MarkedRng(17);
        let (enc, mut tx) = Hpke::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).expect("setup");
        let mut rx =
            Hpke::<K, F, A>::setup_receiver_base(&peer_enc(&enc), &sk, INFO).expect("setup");
        step(s, "base: setup");

        let pt = secret_array::<100>(18);
        let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
        step(s, "context seal");
        let opened = rx.open(AAD, &ct).expect("open");
        step(s, "context open");
        assert!(same(&opened, &pt));

        let mut out = [0u8; 116];
        let n = tx.seal_into(AAD, &pt, &mut out).expect("seal_into");
        let ct = declassified(&out[..n]);
        step(s, "context seal_into");
        let mut back = [0u8; 100];
        let n = rx.open_into(AAD, &ct, &mut back).expect("open_into");
        step(s, "context open_into");
        assert!(same(&back[..n], &pt));

        let mut buf = pt;
        let tag = tx
            .seal_in_place_detached(AAD, &mut buf)
            .expect("seal in place");
        let mut buf: [u8; 100] = declassified(&buf).try_into().expect("length");
        let tag = declassified(&tag);
        step(s, "context seal_in_place_detached");
        let tag = typed_hpke::aead::Tag::<A>::try_from(&tag[..]).expect("tag length");
        rx.open_in_place_detached(AAD, &mut buf, &tag)
            .expect("open in place");
        step(s, "context open_in_place_detached");
        assert!(same(&buf, &pt));

        // A forged ciphertext: the open fails, and whether it failed is public.
        let mut forged = declassified(&tx.seal(AAD, &pt).expect("seal"));
        forged[3] ^= 1;
        step(s, "context seal");
        assert!(rx.open(AAD, &forged).is_err());
        step(s, "context open of a forged ciphertext");
        let mut forged_out = [0u8; 100];
        assert!(rx.open_into(AAD, &forged, &mut forged_out).is_err());
        step(s, "context open_into of a forged ciphertext");

        let (enc, ct) = Hpke::<K, F, A>::seal_base(&mut rng, &pk, INFO, AAD, &pt).expect("seal");
        let (enc, ct) = (peer_enc(&enc), declassified(&ct));
        step(s, "single-shot seal_base");
        let opened = Hpke::<K, F, A>::open_base(&enc, &sk, INFO, AAD, &ct).expect("open");
        step(s, "single-shot open_base");
        assert!(same(&opened, &pt));

        let prepared = PreparedPublicKey::new(&pk);
        let mut buf = pt;
        let (enc, tag) =
            Hpke::<K, F, A>::seal_base_in_place_detached(&mut rng, &prepared, INFO, AAD, &mut buf)
                .expect("seal");
        let (enc, tag) = (peer_enc(&enc), declassified(&tag));
        let mut buf: [u8; 100] = declassified(&buf).try_into().expect("length");
        step(s, "single-shot seal_base_in_place_detached (prepared key)");
        let tag = typed_hpke::aead::Tag::<A>::try_from(&tag[..]).expect("tag length");
        Hpke::<K, F, A>::open_base_in_place_detached(&enc, &sk, INFO, AAD, &mut buf, &tag)
            .expect("open");
        step(s, "single-shot open_base_in_place_detached");
        assert!(same(&buf, &pt));
        let mut out = [0u8; 116];
        let (enc, n) =
            Hpke::<K, F, A>::seal_base_into(&mut rng, &pk, INFO, AAD, &pt, &mut out).expect("seal");
        let (enc, ct) = (peer_enc(&enc), declassified(&out[..n]));
        step(s, "single-shot seal_base_into");
        let mut back = [0u8; 100];
        let n =
            Hpke::<K, F, A>::open_base_into(&enc, &sk, INFO, AAD, &ct, &mut back).expect("open");
        step(s, "single-shot open_base_into");
        assert!(same(&back[..n], &pt));
        let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        let enc =
            Hpke::<K, F, A>::send_export_base(&mut rng, &pk, INFO, b"x", &mut a).expect("export");
        Hpke::<K, F, A>::receive_export_base(&peer_enc(&enc), &sk, INFO, b"x", &mut b)
            .expect("export");
        step(s, "single-shot send_export_base / receive_export_base");
        assert!(same(&a, &b));
        let sealed = Hpke::<K, F, A>::seal_base_many(&mut rng, &[&pk, &pk], INFO, AAD, &[&pt])
            .expect("seal many");
        step(s, "seal_base_many");
        for (enc, ct) in sealed {
            let (enc, ct) = (peer_enc(&enc), declassified(&ct));
            let opened = Hpke::<K, F, A>::open_base(&enc, &sk, INFO, AAD, &ct).expect("open");
            assert!(same(&opened, &pt));
        }
        step(s, "single-shot open_base");

        let (psk, psk_id) = (secret_array::<32>(19), secret_array::<8>(20));
        let psk = Psk::new(&psk, &psk_id).expect("psk");
        let (enc, ct) =
            Hpke::<K, F, A>::seal_psk(&mut rng, &pk, INFO, AAD, &pt, &psk).expect("seal");
        let (enc, ct) = (peer_enc(&enc), declassified(&ct));
        step(s, "single-shot seal_psk");
        let opened = Hpke::<K, F, A>::open_psk(&enc, &sk, INFO, AAD, &ct, &psk).expect("open");
        step(s, "single-shot open_psk");
        assert!(same(&opened, &pt));
    }
}

/// The single-shot auth modes.
struct AuthMessages<'a>(&'a str);

impl AuthSealingVisitor for AuthMessages<'_> {
    type Output = ();
    fn visit<K: AuthKem, F: Kdf, A: SealingAead>(self) {
        let s = self.0;
        let (sk_r, pk_r) = recipient::<K>(21);
        let (sk_s, pk_s) = recipient::<K>(22);
        let mut rng = MarkedRng(23);
        let pt = secret_array::<40>(24);
        let (enc, ct) =
            Hpke::<K, F, A>::seal_auth(&mut rng, &pk_r, INFO, AAD, &pt, &sk_s).expect("seal");
        let (enc, ct) = (peer_enc(&enc), declassified(&ct));
        step(s, "single-shot seal_auth");
        let opened = Hpke::<K, F, A>::open_auth(&enc, &sk_r, INFO, AAD, &ct, &pk_s).expect("open");
        step(s, "single-shot open_auth");
        assert!(same(&opened, &pt));
        let (psk, psk_id) = (secret_array::<32>(25), secret_array::<8>(26));
        let psk = Psk::new(&psk, &psk_id).expect("psk");
        let (enc, ct) =
            Hpke::<K, F, A>::seal_auth_psk(&mut rng, &pk_r, INFO, AAD, &pt, &psk, &sk_s)
                .expect("seal");
        let (enc, ct) = (peer_enc(&enc), declassified(&ct));
        step(s, "single-shot seal_auth_psk");
        let opened =
            Hpke::<K, F, A>::open_auth_psk(&enc, &sk_r, INFO, AAD, &ct, &psk, &pk_s).expect("open");
        step(s, "single-shot open_auth_psk");
        assert!(same(&opened, &pt));
    }
}

/// The runtime API (`typed_hpke::suite`) on one suite: key derivation, generation, parsing and
/// serde; setup in every mode the KEM has; the runtime contexts; single-shot seal, open and
/// export.
fn runtime_paths(suite: Suite, s: &str) {
    let s = &format!("runtime {s}");
    let (sk, pk) = suite
        .derive_key_pair(&secret_array::<48>(27))
        .expect("derive");
    let pk = suite
        .public_key_from_bytes(&declassified(pk.as_bytes()))
        .expect("pk");
    step(s, "derive_key_pair");
    let (_, pk_g) = suite
        .generate_key_pair(&mut MarkedRng(28))
        .expect("generate");
    let _ = declassified(pk_g.as_bytes());
    step(s, "generate_key_pair");
    let mut bytes = sk.to_bytes();
    secret(&mut bytes);
    let sk = suite.private_key_from_bytes(&bytes).expect("parse");
    step(s, "private key to_bytes / private_key_from_bytes");
    let stored = suite
        .kem()
        .private_key_from_bytes_and_public(&bytes, pk.as_bytes())
        .expect("parse with the public key");
    step(s, "private_key_from_bytes_and_public");
    assert!(same(&stored.to_bytes(), &bytes));
    let (sk_bytes, pk_bytes) = suite
        .kem()
        .derive_key_pair_bytes(&secret_array::<48>(27))
        .expect("derive as bytes");
    step(s, "derive_key_pair_bytes");
    assert!(same(&sk_bytes, &bytes) && same(&pk_bytes, pk.as_bytes()));
    let hex = secret_hex(&bytes);
    let from_hex = suite
        .deserialize_private_key(serde::de::value::StrDeserializer::<DeError>::new(&hex))
        .expect("hex");
    step(s, "serde: deserialize_private_key");
    assert!(same(&from_hex.to_bytes(), &bytes));
    let text = capture::serialize(&sk, true);
    step(s, "serde: private key to hex");
    assert!(same(&text, hex.as_bytes()));

    let (psk, psk_id) = (secret_array::<32>(29), secret_array::<8>(30));
    let psk = Psk::new(&psk, &psk_id).expect("psk");
    let (sk_s, pk_s) = suite
        .derive_key_pair(&secret_array::<48>(31))
        .expect("derive");
    let pk_s = suite
        .public_key_from_bytes(&declassified(pk_s.as_bytes()))
        .expect("pk");
    let mut modes = vec![
        ("base", SenderMode::Base, ReceiverMode::Base),
        ("psk", SenderMode::Psk(&psk), ReceiverMode::Psk(&psk)),
    ];
    if suite.supports_auth() {
        modes.push(("auth", SenderMode::Auth(&sk_s), ReceiverMode::Auth(&pk_s)));
        modes.push((
            "auth_psk",
            SenderMode::AuthPsk(&psk, &sk_s),
            ReceiverMode::AuthPsk(&psk, &pk_s),
        ));
    }
    let mut prepared = pk.clone();
    prepared.prepare();
    let mut rng = MarkedRng(32);
    let pt = secret_array::<64>(33);
    for (mode, send, receive) in modes {
        for (key, pk) in [("", &pk), (", prepared key", &prepared)] {
            let (enc, mut tx) = suite.setup_sender(&mut rng, pk, INFO, send).expect("setup");
            let enc = declassified(enc.as_bytes());
            let mut rx = suite
                .setup_receiver(&enc, &sk, INFO, receive)
                .expect("setup");
            step(s, &format!("{mode}{key}: setup_sender / setup_receiver"));
            exports_agree(
                s,
                mode,
                |o| tx.export(b"ctx", o).unwrap(),
                |o| rx.export(b"ctx", o).unwrap(),
            );
            if !suite.supports_seal() {
                continue;
            }
            let ct = declassified(&tx.seal(AAD, &pt).expect("seal"));
            let opened = rx.open(AAD, &ct).expect("open");
            step(s, &format!("{mode}{key}: context seal / open"));
            assert!(same(&opened, &pt));
            let mut buf = pt;
            let tag = tx.seal_in_place_detached(AAD, &mut buf).expect("seal");
            let mut buf: [u8; 64] = declassified(&buf).try_into().expect("length");
            let tag: [u8; 16] = declassified(&tag).try_into().expect("tag length");
            rx.open_in_place_detached(AAD, &mut buf, &tag)
                .expect("open");
            step(s, &format!("{mode}{key}: context in place"));
            assert!(same(&buf, &pt));
            let mut out = [0u8; 80];
            let n = tx.seal_into(AAD, &pt, &mut out).expect("seal_into");
            let mut forged = declassified(&out[..n]);
            forged[0] ^= 1;
            assert!(rx.open_into(AAD, &forged, &mut [0u8; 64]).is_err());
            step(
                s,
                &format!("{mode}{key}: context seal_into / forged open_into"),
            );

            let (enc, ct) = suite
                .seal(&mut rng, pk, INFO, AAD, &pt, send)
                .expect("seal");
            let (enc, ct) = (declassified(&enc), declassified(&ct));
            let opened = suite
                .open(&enc, &sk, INFO, AAD, &ct, receive)
                .expect("open");
            step(s, &format!("{mode}{key}: single-shot seal / open"));
            assert!(same(&opened, &pt));
        }
        if suite.supports_seal() {
            let pk_bytes = declassified(pk.as_bytes());
            let (enc, ct) = suite
                .seal(&mut rng, &pk_bytes[..], INFO, AAD, &pt, send)
                .expect("seal");
            let (enc, ct) = (declassified(&enc), declassified(&ct));
            let opened = suite
                .open(&enc, &bytes[..], INFO, AAD, &ct, receive)
                .expect("open");
            step(s, &format!("{mode}: single-shot seal / open (key bytes)"));
            assert!(same(&opened, &pt));
            let sealed = suite
                .seal_base_many(&mut rng, &[&pk, &prepared], INFO, AAD, &[&pt])
                .expect("seal many");
            step(s, "seal_base_many");
            for (enc, ct) in sealed {
                let (enc, ct) = (declassified(&enc), declassified(&ct));
                let opened = suite
                    .open(&enc, &sk, INFO, AAD, &ct, ReceiverMode::Base)
                    .expect("open");
                assert!(same(&opened, &pt));
            }
        }
        let mut a = [0u8; 32];
        let enc = suite
            .send_export(&mut rng, &pk, INFO, b"x", &mut a, send)
            .expect("export");
        let mut b = [0u8; 32];
        suite
            .receive_export(&declassified(&enc), &bytes[..], INFO, b"x", &mut b, receive)
            .expect("export");
        step(
            s,
            &format!("{mode}: send_export / receive_export (key bytes)"),
        );
        assert!(same(&a, &b));
    }
}
