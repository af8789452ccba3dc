//! Shared helpers for the fuzz targets: each target is a few lines over these. Panics,
//! aborts and sanitizer reports are bugs; `Err` results (bad encodings, failed
//! authentication, over-long requests) are the expected outcomes.

#[cfg(feature = "differential")]
pub mod differential;
pub mod integrations;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use typed_hpke::aead::{Aead, Aes128Gcm, ChaCha20Poly1305, ExportOnly, SealingAead};
use typed_hpke::hybrid_array::typenum::Unsigned;
use typed_hpke::kdf::{HkdfSha256, Kdf, Shake128, Shake256, TurboShake256};
use typed_hpke::kem::{AuthKem, Kem};
use typed_hpke::{EncappedKey, Error, Hpke, PrivateKey, Psk, PublicKey};

/// Calls `$f::<K>(rest)` for the KEM the first input byte selects (all 12 are reachable), so
/// each execution does one KEM's work and the slow curves do not dominate every input.
#[macro_export]
macro_rules! for_each_kem {
    ($f:ident, $data:expr) => {
        $crate::for_each_kem_family!($f, $f, $data)
    };
}

/// As `for_each_kem!`, calling `$dh::<K>` for the DH-KEMs (all modes) and `$pq::<K>` for the
/// post-quantum and hybrid KEMs.
#[macro_export]
macro_rules! for_each_kem_family {
    ($dh:ident, $pq:ident, $data:expr) => {{
        let data: &[u8] = $data;
        let (selector, rest) = data.split_first().unwrap_or((&0, &[]));
        match selector % 12 {
            0 => $dh::<typed_hpke::kem::DhKemX25519HkdfSha256>(rest),
            1 => $dh::<typed_hpke::kem::DhKemX448HkdfSha512>(rest),
            2 => $dh::<typed_hpke::kem::DhKemP256HkdfSha256>(rest),
            3 => $dh::<typed_hpke::kem::DhKemP384HkdfSha384>(rest),
            4 => $dh::<typed_hpke::kem::DhKemP521HkdfSha512>(rest),
            5 => $dh::<typed_hpke::kem::DhKemSecp256k1HkdfSha256>(rest),
            6 => $pq::<typed_hpke::kem::MlKem512>(rest),
            7 => $pq::<typed_hpke::kem::MlKem768>(rest),
            8 => $pq::<typed_hpke::kem::MlKem1024>(rest),
            9 => $pq::<typed_hpke::kem::XWing>(rest),
            10 => $pq::<typed_hpke::kem::MlKem768P256>(rest),
            _ => $pq::<typed_hpke::kem::MlKem1024P384>(rest),
        }
    }};
}

/// Fixed key pairs per KEM: the recipient's and the sender's, derived once per process (key
/// derivation per input would make the slow curves dominate every run).
pub struct Keys<K: Kem> {
    pub sk_r: PrivateKey<K>,
    pub pk_r: PublicKey<K>,
    pub sk_s: PrivateKey<K>,
    pub pk_s: PublicKey<K>,
}

pub fn keys<K: Kem>() -> &'static Keys<K>
where
    Keys<K>: Send + Sync,
{
    static CACHE: OnceLock<Mutex<HashMap<TypeId, &'static (dyn Any + Send + Sync)>>> =
        OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
    let entry = cache.entry(TypeId::of::<K>()).or_insert_with(|| {
        let (sk_r, pk_r) = K::derive_key_pair(b"typed-hpke fuzz recipient").expect("derive");
        let (sk_s, pk_s) = K::derive_key_pair(b"typed-hpke fuzz sender").expect("derive");
        Box::leak(Box::new(Keys {
            sk_r,
            pk_r,
            sk_s,
            pk_s,
        }))
    });
    entry
        .downcast_ref::<Keys<K>>()
        .expect("one entry per KEM type")
}

fn nenc<K: Kem>() -> usize {
    K::NEnc::USIZE
}

/// A little cursor over the fuzz input.
pub struct Input<'a>(pub &'a [u8]);

impl<'a> Input<'a> {
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    pub fn u16(&mut self) -> u16 {
        u16::from_be_bytes([self.byte(), self.byte()])
    }
    /// The next `n` bytes (fewer at the end).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, tail) = self.0.split_at(n.min(self.0.len()));
        self.0 = tail;
        head
    }
    /// A length-prefixed slice (one length byte).
    pub fn slice(&mut self) -> &'a [u8] {
        let n = usize::from(self.byte());
        self.take(n)
    }
    pub fn rest(&mut self) -> &'a [u8] {
        self.take(self.0.len())
    }
}

/// `public_key`: whatever parses re-serializes to the same bytes.
pub fn public_key<K: Kem>(data: &[u8]) {
    if let Ok(pk) = PublicKey::<K>::from_bytes(data) {
        assert_eq!(pk.as_bytes(), data);
        assert_eq!(&pk.to_bytes()[..], data);
    }
}

/// `private_key`: whatever parses re-serializes to bytes that parse to the same key, whose
/// public key parses too.
pub fn private_key<K: Kem>(data: &[u8]) {
    if let Ok(sk) = PrivateKey::<K>::from_bytes(data) {
        let again = PrivateKey::<K>::from_bytes(&sk.to_bytes()).expect("re-parse");
        assert!(again == sk);
        let pk = sk.public_key();
        assert!(PublicKey::<K>::from_bytes(pk.as_bytes()).expect("public key") == pk);
    }
}

/// `encapped_key`: whatever parses re-serializes to the same bytes.
pub fn encapped_key<K: Kem>(data: &[u8]) {
    if let Ok(enc) = EncappedKey::<K>::from_bytes(data) {
        assert_eq!(enc.as_bytes(), data);
    }
}

/// Lowercase hex, as the crate's `Debug` output writes bytes.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `derive_key_pair`: any ikm; a derived pair is consistent and round-trips. Then the rest of
/// the key API on it: `Debug` shows the public bytes and never the secret ones; encapsulation
/// to the pair, plain and through a `PreparedPublicKey`, decapsulates to the same secret;
/// `generate` from a generator seeded by the ikm gives a consistent pair.
pub fn derive_key_pair<K: Kem>(data: &[u8]) {
    derive_checked::<K>(data);
}

/// `derive_key_pair` for the DH-KEMs, adding `AuthEncap` from the derived key (plain and
/// prepared) to a fixed recipient, which `AuthDecap` must match.
pub fn derive_key_pair_auth<K: AuthKem>(data: &[u8])
where
    Keys<K>: Send + Sync,
{
    let Some((sk, pk)) = derive_checked::<K>(data) else {
        return;
    };
    let k = keys::<K>();
    let mut rng = typed_hpke::rand_core::UnwrapErr(Counter(seed_of(data) ^ 1));
    let (ss, enc) = K::auth_encap(&mut rng, &k.pk_r, &sk).expect("auth_encap");
    assert!(K::auth_decap(&enc, &k.sk_r, &pk).expect("auth_decap") == ss);
    let prepared = typed_hpke::kem::PreparedPublicKey::new(&k.pk_r);
    let (ss, enc) = prepared
        .auth_encap(&mut rng, &sk)
        .expect("prepared auth_encap");
    assert!(K::auth_decap(&enc, &k.sk_r, &pk).expect("auth_decap") == ss);
}

/// A generator seed from the input, so that a run is reproducible from its input alone.
fn seed_of(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn derive_checked<K: Kem>(data: &[u8]) -> Option<(PrivateKey<K>, PublicKey<K>)> {
    let (sk, pk) = K::derive_key_pair(data).ok()?;
    assert!(sk.public_key() == pk);
    let bytes = sk.to_bytes();
    assert!(PrivateKey::<K>::from_bytes(&bytes).expect("re-parse") == sk);
    let shown = format!("{sk:?}");
    assert!(
        !shown.contains(&hex(&bytes)),
        "Debug shows the private key: {shown}"
    );
    assert!(format!("{pk:?}").contains(&hex(pk.as_bytes())));

    let mut rng = typed_hpke::rand_core::UnwrapErr(Counter(seed_of(data)));
    let (ss, enc) = K::encap(&mut rng, &pk).expect("encap to a derived key");
    assert!(K::decap(&enc, &sk).expect("decap") == ss);
    let shown = format!("{ss:?}");
    assert!(
        !shown.contains(&hex(ss.as_bytes())),
        "Debug shows the shared secret"
    );
    assert!(enc.clone() == enc);
    assert!(format!("{enc:?}").contains(&hex(enc.as_bytes())));

    let prepared = typed_hpke::kem::PreparedPublicKey::new(&pk);
    assert!(prepared.public_key() == &pk);
    assert!(prepared.clone() == prepared);
    assert!(prepared.memory_size() >= core::mem::size_of_val(&prepared));
    assert!(format!("{prepared:?}").contains(&hex(pk.as_bytes())));
    let (ss, enc) = prepared.encap(&mut rng).expect("prepared encap");
    assert!(K::decap(&enc, &sk).expect("decap") == ss);

    let (sk_g, pk_g) = K::generate(&mut rng).expect("generate from a working generator");
    assert!(sk_g.public_key() == pk_g);
    Some((sk, pk))
}

/// `decap`: arbitrary encapsulated keys (cut or zero-padded to Nenc) against a fixed key.
pub fn decap<K: Kem>(data: &[u8])
where
    Keys<K>: Send + Sync,
{
    let mut enc = data.to_vec();
    enc.resize(nenc::<K>(), 0);
    let enc = EncappedKey::<K>::from_bytes(&enc).expect("Nenc bytes");
    let _ = K::decap(&enc, &keys::<K>().sk_r);
}

/// `decap` in the authenticated mode, for the DH-KEMs.
pub fn auth_decap<K: AuthKem>(data: &[u8])
where
    Keys<K>: Send + Sync,
{
    decap::<K>(data);
    let mut enc = data.to_vec();
    enc.resize(nenc::<K>(), 0);
    let enc = EncappedKey::<K>::from_bytes(&enc).expect("Nenc bytes");
    let k = keys::<K>();
    let _ = K::auth_decap(&enc, &k.sk_r, &k.pk_s);
}

const PSK: &[u8; 32] = b"typed-hpke fuzz pre-shared key!!";

/// Splits the input for an open: selector byte, enc, aad, info, ciphertext.
fn open_parts<'a, K: Kem>(
    data: &'a [u8],
) -> Option<(u8, EncappedKey<K>, &'a [u8], &'a [u8], &'a [u8])> {
    let mut input = Input(data);
    let selector = input.byte();
    let enc = EncappedKey::<K>::from_bytes(input.take(nenc::<K>())).ok()?;
    let aad = input.slice();
    let info = input.slice();
    Some((selector, enc, aad, info, input.rest()))
}

fn open_with<K: Kem, F: Kdf, A: SealingAead>(
    mode: u8,
    enc: &EncappedKey<K>,
    aad: &[u8],
    info: &[u8],
    ct: &[u8],
) where
    Keys<K>: Send + Sync,
{
    let sk = &keys::<K>().sk_r;
    let psk = Psk::new(PSK, b"fuzz").expect("psk");
    let r = match mode % 2 {
        0 => Hpke::<K, F, A>::open_base(enc, sk, info, aad, ct),
        _ => Hpke::<K, F, A>::open_psk(enc, sk, info, aad, ct, &psk),
    };
    assert!(r.is_err() || ct.len() >= 16);
}

fn open_auth_with<K: AuthKem, F: Kdf, A: SealingAead>(
    mode: u8,
    enc: &EncappedKey<K>,
    aad: &[u8],
    info: &[u8],
    ct: &[u8],
) where
    Keys<K>: Send + Sync,
{
    let k = keys::<K>();
    let psk = Psk::new(PSK, b"fuzz").expect("psk");
    let _ = match mode % 2 {
        0 => Hpke::<K, F, A>::open_auth(enc, &k.sk_r, info, aad, ct, &k.pk_s),
        _ => Hpke::<K, F, A>::open_auth_psk(enc, &k.sk_r, info, aad, ct, &psk, &k.pk_s),
    };
}

/// `open` for the PQ KEMs and hybrids: Base and PSK, a two-stage or a one-stage KDF, two AEADs.
pub fn open<K: Kem>(data: &[u8])
where
    Keys<K>: Send + Sync,
{
    let Some((sel, enc, aad, info, ct)) = open_parts::<K>(data) else {
        return;
    };
    match (sel >> 1) % 4 {
        0 => open_with::<K, HkdfSha256, ChaCha20Poly1305>(sel, &enc, aad, info, ct),
        1 => open_with::<K, Shake256, ChaCha20Poly1305>(sel, &enc, aad, info, ct),
        2 => open_with::<K, HkdfSha256, Aes128Gcm>(sel, &enc, aad, info, ct),
        _ => open_with::<K, TurboShake256, Aes128Gcm>(sel, &enc, aad, info, ct),
    }
}

/// `open` for the DH-KEMs: all four modes.
pub fn open_all_modes<K: AuthKem>(data: &[u8])
where
    Keys<K>: Send + Sync,
{
    let Some((sel, enc, aad, info, ct)) = open_parts::<K>(data) else {
        return;
    };
    if sel & 0x80 == 0 {
        return open::<K>(data);
    }
    match (sel >> 1) % 2 {
        0 => open_auth_with::<K, HkdfSha256, ChaCha20Poly1305>(sel, &enc, aad, info, ct),
        _ => open_auth_with::<K, Shake128, Aes128Gcm>(sel, &enc, aad, info, ct),
    }
}

/// `context`: a sender and a receiver driven in lockstep. They must always agree; a tampered
/// message must fail without moving either side.
pub fn context<K: Kem, F: Kdf, A: SealingAead>(data: &[u8])
where
    Keys<K>: Send + Sync,
{
    let k = keys::<K>();
    let mut input = Input(data);
    let info = input.slice();
    let mut rng = typed_hpke::rand_core::UnwrapErr(Zeros);
    let Ok((enc, mut sender)) = Hpke::<K, F, A>::setup_sender_base(&mut rng, &k.pk_r, info) else {
        return;
    };
    let mut receiver =
        Hpke::<K, F, A>::setup_receiver_base(&enc, &k.sk_r, info).expect("receiver of a good enc");
    let _ = format!("{sender:?}{receiver:?}");
    while !input.0.is_empty() {
        let op = input.byte();
        match op % 6 {
            0 | 1 => {
                let aad = input.slice();
                let pt = input.slice();
                let ct = sender.seal(aad, pt).expect("seal");
                if op % 6 == 1 && !ct.is_empty() {
                    // Tampered: flip one bit chosen by the input; it must not open, and the
                    // receiver must still open the genuine message next.
                    let mut bad = ct.clone();
                    let i = usize::from(input.u16()) % (bad.len() * 8);
                    bad[i / 8] ^= 1 << (i % 8);
                    assert_eq!(receiver.open(aad, &bad), Err(Error::Open));
                }
                assert_eq!(receiver.open(aad, &ct).expect("lockstep open"), pt);
            }
            2 => {
                let ctx = input.slice();
                let len = usize::from(input.u16());
                let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
                let (ra, rb) = (sender.export(ctx, &mut a), receiver.export(ctx, &mut b));
                assert_eq!(ra, rb);
                assert_eq!(a, b);
            }
            3 => {
                // Detached tags, in place.
                let aad = input.slice();
                let pt = input.slice();
                let mut buf = pt.to_vec();
                let tag = sender
                    .seal_in_place_detached(aad, &mut buf)
                    .expect("seal detached");
                receiver
                    .open_in_place_detached(aad, &mut buf, &tag)
                    .expect("open detached");
                assert_eq!(buf, pt);
            }
            4 => {
                // The message limit (RFC 9180 §5.2): at the last sequence number both sides
                // refuse, and stay there.
                let last = u64::MAX - u64::from(input.byte() % 2);
                sender.set_sequence_number_for_testing_only(last);
                receiver.set_sequence_number_for_testing_only(last);
                let ct = sender.seal(b"", b"limit");
                if last == u64::MAX {
                    assert_eq!(ct, Err(Error::MessageLimitReached));
                    // A ciphertext long enough to hold a tag (a shorter one is `Open` first).
                    let any = [0u8; 32];
                    assert_eq!(receiver.open(b"", &any), Err(Error::MessageLimitReached));
                } else {
                    let ct = ct.expect("the last message");
                    assert_eq!(receiver.open(b"", &ct).expect("the last message"), b"limit");
                    assert_eq!(sender.seal(b"", b""), Err(Error::MessageLimitReached));
                }
                return;
            }
            _ => {
                // Into caller buffers of arbitrary size.
                let pt = input.slice();
                let mut out = vec![0u8; usize::from(input.byte()) * 2];
                if let Ok(n) = sender.seal_into(b"", pt, &mut out) {
                    let mut back = vec![0u8; n];
                    let m = receiver
                        .open_into(b"", &out[..n], &mut back)
                        .expect("open_into");
                    assert_eq!(&back[..m], pt);
                }
            }
        }
        assert_eq!(sender.sequence_number(), receiver.sequence_number());
    }
}

/// A generator of zeros: the fuzz targets need determinism, not secrecy.
pub struct Zeros;

impl typed_hpke::rand_core::TryRng for Zeros {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(7)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(7)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.fill(7);
        Ok(())
    }
}

impl typed_hpke::rand_core::TryCryptoRng for Zeros {}

/// A deterministic generator that does not repeat (SplitMix64): rejection sampling (P-521
/// scalars) never ends on a constant stream like `Zeros`'.
pub struct Counter(pub u64);

impl typed_hpke::rand_core::TryRng for Counter {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Ok(z ^ (z >> 31))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl typed_hpke::rand_core::TryCryptoRng for Counter {}

/// `key_schedule`: arbitrary mode byte, psk, psk_id, info and shared secret, for a two-stage
/// and a one-stage KDF. Invalid combinations are errors, never panics.
pub fn key_schedule(data: &[u8]) {
    type X = typed_hpke::kem::DhKemX25519HkdfSha256;
    let mut input = Input(data);
    let mode = input.byte();
    let use_psk = input.byte() & 1 == 1;
    let psk = input.slice();
    let psk_id = input.slice();
    let ss = input.slice();
    let info = input.rest();
    let psk = if use_psk {
        Psk::new_allowing_short_psk(psk, psk_id).ok()
    } else {
        None
    };
    let _ = Hpke::<X, HkdfSha256, ChaCha20Poly1305>::key_schedule_for_testing_only(
        mode,
        ss,
        info,
        psk.as_ref(),
    );
    let _ =
        Hpke::<X, Shake128, Aes128Gcm>::key_schedule_for_testing_only(mode, ss, info, psk.as_ref());
    let _ = Hpke::<X, TurboShake256, ExportOnly>::key_schedule_for_testing_only(
        mode,
        ss,
        info,
        psk.as_ref(),
    );
}

/// `export`: arbitrary exporter contexts and lengths from both sides; too long is an error on
/// both, never a truncation or a panic.
pub fn export<F: Kdf, A: Aead>(data: &[u8]) {
    type X = typed_hpke::kem::DhKemX25519HkdfSha256;
    let k = keys::<X>();
    let mut input = Input(data);
    let mut rng = typed_hpke::rand_core::UnwrapErr(Zeros);
    let (enc, sender) =
        Hpke::<X, F, A>::setup_sender_base(&mut rng, &k.pk_r, b"fuzz").expect("setup");
    let receiver = Hpke::<X, F, A>::setup_receiver_base(&enc, &k.sk_r, b"fuzz").expect("setup");
    while !input.0.is_empty() {
        let ctx = input.slice();
        // Up to 2^17: past every KDF's limit (255 * Nh for HKDF, 65535 for the XOFs).
        let len = usize::from(input.u16()) << (input.byte() & 1);
        let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
        let (ra, rb) = (sender.export(ctx, &mut a), receiver.export(ctx, &mut b));
        assert_eq!(ra, rb);
        match ra {
            Ok(()) => assert_eq!(a, b),
            Err(e) => {
                assert_eq!(e, Error::ExportTooLong);
                assert!(len > F::MAX_EXPORT_LEN);
                assert!(a.iter().all(|&x| x == 0), "a refused export writes nothing");
            }
        }
    }
}

/// Every `kem_id` the crate has, for `suite` to pick from.
pub(crate) const KEM_IDS: [u16; 12] = [
    0x0010, 0x0011, 0x0012, 0x0016, 0x0020, 0x0021, 0x0040, 0x0041, 0x0042, 0x0050, 0x0051, 0x647a,
];

/// A runtime key pair per `kem_id` (recipient, sender), derived once per process.
pub(crate) fn runtime_keys(
    suite: &typed_hpke::suite::Suite,
) -> &'static [(typed_hpke::suite::PrivateKey, typed_hpke::suite::PublicKey); 2] {
    type Pair = (typed_hpke::suite::PrivateKey, typed_hpke::suite::PublicKey);
    static CACHE: OnceLock<Mutex<HashMap<u16, &'static [Pair; 2]>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
    cache.entry(suite.kem_id()).or_insert_with(|| {
        let r = suite
            .derive_key_pair(b"typed-hpke fuzz recipient")
            .expect("derive");
        let s = suite
            .derive_key_pair(b"typed-hpke fuzz sender")
            .expect("derive");
        Box::leak(Box::new([r, s]))
    })
}

/// `suite`: a `Suite` from arbitrary ids (raw, or picked from the known ones), then runtime
/// keys parsed from arbitrary bytes, setup in an arbitrary mode, seal, open and export of
/// arbitrary data, and an open of arbitrary `enc` and ciphertext. Everything unsupported or
/// malformed is an `Err`; what the sender seals the receiver opens.
pub fn suite(data: &[u8]) {
    use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};
    let mut input = Input(data);
    let how = input.byte();
    let ids = if how & 0x80 != 0 {
        (input.u16(), input.u16(), input.u16())
    } else {
        let kem = KEM_IDS[usize::from(input.byte()) % KEM_IDS.len()];
        let kdf = [1, 2, 3, 0x10, 0x11, 0x12, 0x13][usize::from(input.byte()) % 7];
        let aead = [1, 2, 3, 0xffff][usize::from(input.byte()) % 4];
        (kem, kdf, aead)
    };
    let Ok(suite) = Suite::new(ids.0, ids.1, ids.2) else {
        return;
    };
    // Arbitrary key bytes: whatever parses round-trips.
    let key_bytes = input.slice();
    if let Ok(sk) = suite.private_key_from_bytes(key_bytes) {
        assert_eq!(sk.kem_id(), suite.kem_id());
        let bytes = sk.to_bytes();
        assert!(suite.private_key_from_bytes(&bytes).expect("re-parse") == sk);
        // SerializePrivateKey gives the input back, X25519 and X448 included (their keys are
        // kept as given: draft-ietf-hpke-hpke §7.1.2).
        assert_eq!(&bytes[..], key_bytes);
    }
    if let Ok(pk) = suite.public_key_from_bytes(key_bytes) {
        assert_eq!(pk.as_bytes(), key_bytes);
    }

    let [(sk_r, pk_r), (sk_s, pk_s)] = runtime_keys(&suite);
    let psk_bytes = input.slice();
    let psk = Psk::new(psk_bytes, b"fuzz psk id");
    let psk = psk.as_ref().ok();
    let (send, receive) = match (how & 3, psk) {
        (1, Some(psk)) => (SenderMode::Psk(psk), ReceiverMode::Psk(psk)),
        (2, _) => (SenderMode::Auth(sk_s), ReceiverMode::Auth(pk_s)),
        (3, Some(psk)) => (
            SenderMode::AuthPsk(psk, sk_s),
            ReceiverMode::AuthPsk(psk, pk_s),
        ),
        _ => (SenderMode::Base, ReceiverMode::Base),
    };
    let info = input.slice();
    let aad = input.slice();
    let export_len = usize::from(input.u16()) * 2;
    let enc_bytes = input.slice();
    let pt = input.rest();

    // Arbitrary enc and ciphertext: an error or a plaintext, never a panic.
    if let Ok(mut r) = suite.setup_receiver(enc_bytes, sk_r, info, receive) {
        let _ = r.open(aad, pt);
        let _ = r.export(info, &mut vec![0u8; export_len]);
    }

    let sender = suite.setup_sender(&mut Counter(u64::from(how)), pk_r, info, send);
    let supports_auth = suite.supports_auth();
    let Ok((enc, mut s)) = sender else {
        assert!(
            matches!(how & 3, 2 | 3) && !supports_auth,
            "setup_sender failed"
        );
        return;
    };
    let mut r = suite
        .setup_receiver(enc.as_bytes(), sk_r, info, receive)
        .expect("setup_receiver of our own enc");
    let (mut a, mut b) = (vec![0u8; export_len], vec![0u8; export_len]);
    assert_eq!(s.export(aad, &mut a), r.export(aad, &mut b));
    assert_eq!(a, b);
    match s.seal(aad, pt) {
        Ok(ct) => assert_eq!(r.open(aad, &ct).expect("open"), pt),
        Err(e) => {
            assert_eq!(e, typed_hpke::Error::UnsupportedOperation);
            assert!(!suite.supports_seal());
        }
    }
    assert_eq!(s.sequence_number(), r.sequence_number());
    runtime_contexts(&suite, s, r, aad, pt);
    assert_eq!(enc.clone(), enc);
    assert!(format!("{enc:?}").contains(&hex(enc.as_ref())));
    runtime_keys_and_single_shot(&suite, u64::from(how), pk_r, info, aad, pt, export_len);
}

/// The rest of a runtime context pair's API: into caller buffers, detached tags in place, the
/// message limit (RFC 9180 §5.2) and a `Debug` that shows no key.
fn runtime_contexts(
    suite: &typed_hpke::suite::Suite,
    mut s: typed_hpke::suite::SenderContext,
    mut r: typed_hpke::suite::ReceiverContext,
    aad: &[u8],
    pt: &[u8],
) {
    let _ = format!("{s:?}{r:?}{:?}", s.suite());
    if !suite.supports_seal() {
        assert_eq!(
            s.seal_into(aad, pt, &mut []),
            Err(Error::UnsupportedOperation)
        );
        assert_eq!(
            r.open_into(aad, pt, &mut []),
            Err(Error::UnsupportedOperation)
        );
        return;
    }
    let mut out = vec![0u8; pt.len() + suite.lengths().tag];
    let n = s.seal_into(aad, pt, &mut out).expect("seal_into");
    let mut back = vec![0u8; pt.len()];
    assert_eq!(r.open_into(aad, &out[..n], &mut back), Ok(pt.len()));
    assert_eq!(back, pt);
    let mut buf = pt.to_vec();
    let tag = s
        .seal_in_place_detached(aad, &mut buf)
        .expect("seal detached");
    r.open_in_place_detached(aad, &mut buf, &tag)
        .expect("open detached");
    assert_eq!(buf, pt);
    s.set_sequence_number_for_testing_only(u64::MAX);
    r.set_sequence_number_for_testing_only(u64::MAX);
    assert_eq!(s.seal(aad, pt), Err(Error::MessageLimitReached));
    assert_eq!(r.open(aad, &out[..n]), Err(Error::MessageLimitReached));
    assert_eq!(s.sequence_number(), u64::MAX);
}

/// Runtime keys from a seeded generator (prepared and not), then the single-shot functions
/// and `seal_base_many` to them and to the fixed recipient.
fn runtime_keys_and_single_shot(
    suite: &typed_hpke::suite::Suite,
    seed: u64,
    pk_r: &typed_hpke::suite::PublicKey,
    info: &[u8],
    aad: &[u8],
    pt: &[u8],
    export_len: usize,
) {
    use typed_hpke::suite::{ReceiverMode, SenderMode};
    let mut rng = typed_hpke::rand_core::UnwrapErr(Counter(seed << 8));
    let (sk, mut pk) = suite
        .generate_key_pair(&mut rng)
        .expect("generate from a working generator");
    assert!(sk.public_key() == pk && sk.kem_id() == suite.kem_id());
    let shown = format!("{sk:?}");
    assert!(
        !shown.contains(&hex(&sk.to_bytes())),
        "Debug shows the key: {shown}"
    );
    assert!(!pk.is_prepared());
    let plain = pk.clone();
    pk.prepare();
    assert!(pk.is_prepared() && pk == plain);
    assert!(format!("{pk:?}").contains(&hex(pk.as_ref())));

    let (mut a, mut b) = (vec![0u8; export_len], vec![0u8; export_len]);
    let sent = suite.send_export(&mut rng, &pk, info, aad, &mut a, SenderMode::Base);
    if let Ok(enc) = &sent {
        let got = suite.receive_export(enc, &sk, info, aad, &mut b, ReceiverMode::Base);
        assert_eq!(got, Ok(()));
        assert_eq!(a, b);
    }
    if !suite.supports_seal() {
        let refused = suite.seal(&mut rng, &pk, info, aad, pt, SenderMode::Base);
        assert_eq!(refused, Err(Error::UnsupportedOperation));
        return;
    }
    for recipient in [&pk, &plain] {
        let (enc, ct) = suite
            .seal(&mut rng, recipient, info, aad, pt, SenderMode::Base)
            .expect("single-shot seal");
        let opened = suite.open(&enc, &sk, info, aad, &ct, ReceiverMode::Base);
        assert_eq!(opened.expect("single-shot open"), pt);
    }
    // By reference: `&[&PublicKey]` is what a caller holding its keys elsewhere passes.
    let to = [&pk, pk_r];
    let sealed = suite
        .seal_base_many(&mut rng, &to, info, aad, &[pt, aad])
        .expect("seal_base_many");
    let (enc, ct) = &sealed[0];
    let opened = suite.open(enc, &sk, info, aad, ct, ReceiverMode::Base);
    assert_eq!(opened.expect("open of seal_base_many"), pt);
}

/// The recipient key of a `prepared` input: parsed from its first `Npk` bytes (any 32 bytes are
/// an X25519 key, edge points included), else derived from them.
fn recipient_of<K: Kem>(key: &[u8]) -> Option<PublicKey<K>> {
    PublicKey::<K>::from_bytes(key)
        .ok()
        .or_else(|| K::derive_key_pair(key).ok().map(|(_, pk)| pk))
}

type Encapped = Result<(Vec<u8>, Vec<u8>), Error>;

fn bytes_of<K: Kem>(r: Result<(typed_hpke::SharedSecret<K>, EncappedKey<K>), Error>) -> Encapped {
    r.map(|(ss, enc)| (ss.as_bytes().to_vec(), enc.as_bytes().to_vec()))
}

/// `prepared`: encapsulation through a prepared key gives what the plain key gives (the same
/// shared secret and `enc`, or the same error), for the ephemeral fixed by the rest of the
/// input; for the DH-KEMs `AuthEncap` too, from the fixed sender key.
pub fn prepared<K: Kem>(
    data: &[u8],
) -> Option<(PublicKey<K>, typed_hpke::kem::PreparedPublicKey<K>, &[u8])> {
    let mut input = Input(data);
    let pk = recipient_of::<K>(input.take(K::NPk::USIZE))?;
    let prepared = typed_hpke::kem::PreparedPublicKey::new(&pk);
    let ikm_e = input.rest();
    let plain = bytes_of(typed_hpke::hazmat::encap_deterministic::<K>(ikm_e, &pk));
    let through = bytes_of(typed_hpke::hazmat::encap_deterministic::<K>(
        ikm_e, &prepared,
    ));
    assert_eq!(plain, through);
    Some((pk, prepared, ikm_e))
}

/// `prepared` for a DH-KEM: the above, then `AuthEncap`.
pub fn prepared_auth<K: AuthKem>(data: &[u8])
where
    Keys<K>: Send + Sync,
{
    if let Some((pk, prepared, ikm_e)) = prepared::<K>(data) {
        let sk_s = &keys::<K>().sk_s;
        let plain = typed_hpke::hazmat::auth_encap_deterministic::<K>(ikm_e, &pk, sk_s);
        let through = typed_hpke::hazmat::auth_encap_deterministic::<K>(ikm_e, &prepared, sk_s);
        assert_eq!(bytes_of(plain), bytes_of(through));
    }
}

/// `prepared` for the KEMs without the authenticated modes.
pub fn prepared_pq<K: Kem>(data: &[u8]) {
    let _ = prepared::<K>(data);
}

/// Reads a `T` from JSON text; what reads writes back to JSON that reads equal.
fn json<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq>(data: &[u8]) -> Option<T> {
    let value: T = serde_json::from_slice(data).ok()?;
    let text = serde_json::to_vec(&value).expect("a parsed key serializes");
    let back: T = serde_json::from_slice(&text).expect("what we write reads back");
    assert!(back == value);
    Some(value)
}

/// Reads a `T` from CBOR (a byte string, or an array of small integers); what reads writes
/// back to CBOR that reads equal.
fn cbor<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq>(data: &[u8]) -> Option<T> {
    let value: T = ciborium::from_reader(data).ok()?;
    let mut out = Vec::new();
    ciborium::into_writer(&value, &mut out).expect("a parsed key serializes");
    let back: T = ciborium::from_reader(&out[..]).expect("what we write reads back");
    assert!(back == value);
    Some(value)
}

/// `serde`: arbitrary JSON text or CBOR into every key type of `K` (the first byte picks the
/// format and the type). Bad input is an error; what reads round-trips, and a private or
/// public key's runtime form serializes exactly as the typed one.
pub fn serde_keys<K: Kem>(data: &[u8]) {
    let mut input = Input(data);
    let how = input.byte();
    let data = input.rest();
    match (how >> 1) % 3 {
        0 => {
            let sk: Option<PrivateKey<K>> = if how & 1 == 0 { json(data) } else { cbor(data) };
            if let Some(sk) = sk {
                let runtime = typed_hpke::suite::PrivateKey::from(sk.clone());
                assert_eq!(
                    serde_json::to_string(&runtime).expect("json"),
                    serde_json::to_string(&sk).expect("json")
                );
            }
        }
        1 => {
            let pk: Option<PublicKey<K>> = if how & 1 == 0 { json(data) } else { cbor(data) };
            if let Some(pk) = pk {
                let runtime = typed_hpke::suite::PublicKey::from(pk.clone());
                assert_eq!(
                    serde_json::to_string(&runtime).expect("json"),
                    serde_json::to_string(&pk).expect("json")
                );
            }
        }
        _ => {
            let _: Option<EncappedKey<K>> = if how & 1 == 0 { json(data) } else { cbor(data) };
        }
    }
}
