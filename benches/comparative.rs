//! Head-to-head: typed-hpke against hpke-ng 0.2, rust-hpke (`hpke`) 0.15.1 and hpke-rs 0.8
//! (RustCrypto provider), plus a `floor` per KEM and setup group: the raw primitive calls
//! alone (scalar multiplications, ML-KEM calls, the SHA3 combiner, and the HKDF / XOF calls
//! the RFC requires), with no HPKE plumbing around them.
//!
//! ```text
//! cargo bench --features comparative --ignore-rust-version --bench comparative
//! cargo run --release --example bench-report     # writes BENCHMARKS.md
//! ```
//!
//! Group names are `<operation>/<suite or KEM>`, function names the library; peers with no
//! public raw encap / decap are measured through their setup functions with ExportOnly and are
//! named `<crate>_via_setup`. Every input goes through `black_box`; every generator is seeded
//! outside the timed closure.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkGroup, BenchmarkId, Criterion, measurement::WallTime};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, ExportOnly, SealingAead};
use typed_hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake128, Shake256, TurboShake128};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256,
    DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768, MlKem768P256, MlKem1024,
    MlKem1024P384, XWing,
};
use typed_hpke::{Hpke, Psk};

const INFO: &[u8] = b"comparative bench info";
const AAD: &[u8] = b"comparative bench aad";
const PSK: &[u8] = &[0x42; 32];
const PSK_ID: &[u8] = b"psk id";
const IKM_R: &[u8] = &[0x11; 66];
const IKM_S: &[u8] = &[0x22; 66];

const TYPED: &str = "typed-hpke";
const NG: &str = "hpke-ng";
const RUST_HPKE: &str = "rust-hpke";
const HPKE_RS: &str = "hpke-rs";
const FLOOR: &str = "floor";

fn rng() -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(0x5eed)
}

fn ikm<K: Kem>(ikm: &[u8]) -> &[u8] {
    use typed_hpke::hybrid_array::typenum::Unsigned;
    &ikm[..K::NSk::USIZE.min(ikm.len()).max(32)]
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Base,
    Psk,
    Auth,
    AuthPsk,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Base => "base",
            Mode::Psk => "psk",
            Mode::Auth => "auth",
            Mode::AuthPsk => "auth_psk",
        }
    }
    fn id(self) -> u8 {
        self as u8
    }
    fn psk(self) -> bool {
        matches!(self, Mode::Psk | Mode::AuthPsk)
    }
    fn auth(self) -> bool {
        matches!(self, Mode::Auth | Mode::AuthPsk)
    }
}

// =============================================================================================
// The floor: primitive calls only.

mod floor {
    use hkdf::Hkdf;
    use hkdf::hmac::{EagerHash, Hmac, KeyInit, Mac};
    use sha3::Digest;
    use sha3::digest::{ExtendableOutput, Update, XofReader};

    const V1: &[u8] = b"HPKE-v1";

    pub fn extract<H: EagerHash>(
        salt: &[u8],
        suite: &[u8],
        label: &[u8],
        ikm: &[&[u8]],
    ) -> Hkdf<H> {
        let mut mac = <Hmac<H> as KeyInit>::new_from_slice(salt).unwrap();
        Mac::update(&mut mac, V1);
        Mac::update(&mut mac, suite);
        Mac::update(&mut mac, label);
        for p in ikm {
            Mac::update(&mut mac, p);
        }
        Hkdf::<H>::from_prk(&mac.finalize().into_bytes()).unwrap()
    }

    fn extract_bytes<H: EagerHash>(
        salt: &[u8],
        suite: &[u8],
        label: &[u8],
        ikm: &[&[u8]],
    ) -> Vec<u8> {
        let mut mac = <Hmac<H> as KeyInit>::new_from_slice(salt).unwrap();
        Mac::update(&mut mac, V1);
        Mac::update(&mut mac, suite);
        Mac::update(&mut mac, label);
        for p in ikm {
            Mac::update(&mut mac, p);
        }
        mac.finalize().into_bytes().to_vec()
    }

    pub fn expand<H: EagerHash>(
        prk: &Hkdf<H>,
        suite: &[u8],
        label: &[u8],
        info: &[&[u8]],
        out: &mut [u8],
    ) {
        let len = (out.len() as u16).to_be_bytes();
        let mut pieces: Vec<&[u8]> = vec![&len, V1, suite, label];
        pieces.extend_from_slice(info);
        prk.expand_multi_info(&pieces, out).unwrap();
    }

    /// ExtractAndExpand(dh, kem_context) of RFC 9180 §4.1.
    pub fn extract_and_expand<H: EagerHash>(
        kem_id: u16,
        dh: &[&[u8]],
        kem_context: &[&[u8]],
    ) -> [u8; 64] {
        let suite = [b'K', b'E', b'M', (kem_id >> 8) as u8, kem_id as u8];
        let prk = extract::<H>(&[], &suite, b"eae_prk", dh);
        let mut out = [0u8; 64];
        let n = <H as hkdf::hmac::digest::OutputSizeUser>::output_size();
        expand::<H>(&prk, &suite, b"shared_secret", kem_context, &mut out[..n]);
        out
    }

    fn hpke_suite(kem: u16, kdf: u16, aead: u16) -> [u8; 10] {
        let mut s = *b"HPKE\0\0\0\0\0\0";
        s[4..6].copy_from_slice(&kem.to_be_bytes());
        s[6..8].copy_from_slice(&kdf.to_be_bytes());
        s[8..10].copy_from_slice(&aead.to_be_bytes());
        s
    }

    /// The two-stage KeySchedule of RFC 9180 §5.1: two hashes, the secret, and the three
    /// expansions.
    #[allow(clippy::too_many_arguments)]
    pub fn schedule_two_stage<H: EagerHash>(
        ids: (u16, u16, u16),
        mode: u8,
        ss: &[u8],
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        nk: usize,
        nn: usize,
    ) -> [u8; 160] {
        let suite = hpke_suite(ids.0, ids.1, ids.2);
        let psk_id_hash = extract_bytes::<H>(&[], &suite, b"psk_id_hash", &[psk_id]);
        let info_hash = extract_bytes::<H>(&[], &suite, b"info_hash", &[info]);
        let ctx: [&[u8]; 3] = [&[mode], &psk_id_hash, &info_hash];
        let secret = extract::<H>(ss, &suite, b"secret", &[psk]);
        let nh = <H as hkdf::hmac::digest::OutputSizeUser>::output_size();
        let mut out = [0u8; 160];
        let (key, rest) = out.split_at_mut(nk);
        let (nonce, rest) = rest.split_at_mut(nn);
        if nk > 0 {
            expand::<H>(&secret, &suite, b"key", &ctx, key);
            expand::<H>(&secret, &suite, b"base_nonce", &ctx, nonce);
        }
        expand::<H>(&secret, &suite, b"exp", &ctx, &mut rest[..nh]);
        out
    }

    /// The one-stage KeySchedule of draft-ietf-hpke-pq: one LabeledDerive.
    #[allow(clippy::too_many_arguments)]
    pub fn schedule_one_stage<X: Default + Update + ExtendableOutput>(
        ids: (u16, u16, u16),
        mode: u8,
        ss: &[u8],
        info: &[u8],
        psk: &[u8],
        psk_id: &[u8],
        len: usize,
    ) -> [u8; 160] {
        let suite = hpke_suite(ids.0, ids.1, ids.2);
        let mut x = X::default();
        x.update(&(psk.len() as u16).to_be_bytes());
        x.update(psk);
        x.update(&(ss.len() as u16).to_be_bytes());
        x.update(ss);
        x.update(V1);
        x.update(&suite);
        x.update(&6u16.to_be_bytes());
        x.update(b"secret");
        x.update(&(len as u16).to_be_bytes());
        x.update(&[mode]);
        x.update(&(psk_id.len() as u16).to_be_bytes());
        x.update(psk_id);
        x.update(&(info.len() as u16).to_be_bytes());
        x.update(info);
        let mut out = [0u8; 160];
        x.finalize_xof().read(&mut out[..len]);
        out
    }

    pub fn combine(ss_m: &[u8], ss_t: &[u8], ct_t: &[u8], pk_t: &[u8], label: &[u8]) -> [u8; 32] {
        sha3::Sha3_256::new()
            .chain_update(ss_m)
            .chain_update(ss_t)
            .chain_update(ct_t)
            .chain_update(pk_t)
            .chain_update(label)
            .finalize()
            .into()
    }

    /// A Diffie-Hellman group's raw operations, as the primitive crates offer them.
    pub trait Dh {
        type Sk;
        type Pt;
        fn sk(seed: u8) -> Self::Sk;
        /// The serialized public key of `sk` (a base-point multiplication).
        fn public(sk: &Self::Sk) -> Vec<u8>;
        fn parse(bytes: &[u8]) -> Self::Pt;
        fn dh(sk: &Self::Sk, pt: &Self::Pt) -> Vec<u8>;
    }

    pub struct X25519;
    impl Dh for X25519 {
        type Sk = [u8; 32];
        type Pt = curve25519_dalek::EdwardsPoint;
        fn sk(seed: u8) -> [u8; 32] {
            [seed; 32]
        }
        fn public(sk: &[u8; 32]) -> Vec<u8> {
            curve25519_dalek::EdwardsPoint::mul_base_clamped(*sk)
                .to_montgomery()
                .0
                .to_vec()
        }
        fn parse(bytes: &[u8]) -> Self::Pt {
            curve25519_dalek::MontgomeryPoint(bytes.try_into().unwrap())
                .to_edwards(0)
                .unwrap()
        }
        fn dh(sk: &[u8; 32], pt: &Self::Pt) -> Vec<u8> {
            pt.mul_clamped(*sk).to_montgomery().0.to_vec()
        }
    }

    pub struct X448;
    impl Dh for X448 {
        type Sk = [u8; 56];
        type Pt = [u8; 56];
        fn sk(seed: u8) -> [u8; 56] {
            [seed; 56]
        }
        fn public(sk: &[u8; 56]) -> Vec<u8> {
            x448::x448_unchecked(*sk, x448::X448_BASEPOINT_BYTES).to_vec()
        }
        fn parse(bytes: &[u8]) -> [u8; 56] {
            bytes.try_into().unwrap()
        }
        fn dh(sk: &[u8; 56], pt: &[u8; 56]) -> Vec<u8> {
            x448::x448_unchecked(*sk, *pt).to_vec()
        }
    }

    macro_rules! weierstrass {
        ($name:ident, $c:ident) => {
            pub struct $name;
            impl Dh for $name {
                type Sk = $c::NonZeroScalar;
                type Pt = $c::ProjectivePoint;
                fn sk(seed: u8) -> Self::Sk {
                    let mut bytes = $c::FieldBytes::default();
                    bytes.iter_mut().for_each(|b| *b = seed);
                    bytes[0] = 0x01;
                    $c::NonZeroScalar::from_repr(bytes).unwrap()
                }
                fn public(sk: &Self::Sk) -> Vec<u8> {
                    #[allow(unused_imports)]
                    use $c::elliptic_curve::group::Group as _;
                    use $c::elliptic_curve::sec1::ToSec1Point;
                    $c::ProjectivePoint::mul_by_generator(sk)
                        .to_affine()
                        .to_sec1_point(false)
                        .as_bytes()
                        .to_vec()
                }
                fn parse(bytes: &[u8]) -> Self::Pt {
                    use $c::elliptic_curve::sec1::FromSec1Point;
                    $c::AffinePoint::from_sec1_bytes(bytes).unwrap().into()
                }
                fn dh(sk: &Self::Sk, pt: &Self::Pt) -> Vec<u8> {
                    use $c::elliptic_curve::point::AffineCoordinates;
                    (*pt * **sk).to_affine().x().to_vec()
                }
            }
        };
    }
    weierstrass!(P256, p256);
    weierstrass!(P384, p384);
    weierstrass!(P521, p521);
    weierstrass!(K256, k256);
}

/// How a KEM's floor is computed: encap and decap, optionally authenticated.
trait KemFloor: Kem {
    /// Prepared inputs; `encap` / `decap` must then do only primitive work.
    type State;
    fn prepare(auth: bool) -> Self::State;
    fn floor_encap(s: &Self::State) -> [u8; 64];
    fn floor_decap(s: &Self::State) -> [u8; 64];
}

struct DhState<G: floor::Dh> {
    sk_e: G::Sk,
    pk_r: Vec<u8>,
    pt_r: G::Pt,
    sk_r: G::Sk,
    enc: Vec<u8>,
    sender: Option<(G::Sk, Vec<u8>, G::Pt)>,
}

macro_rules! dh_floor {
    ($kem:ty, $g:ty, $h:ty) => {
        impl KemFloor for $kem {
            type State = DhState<$g>;
            fn prepare(auth: bool) -> Self::State {
                use floor::Dh;
                let sk_r = <$g>::sk(0x31);
                let pk_r = <$g>::public(&sk_r);
                let sk_e = <$g>::sk(0x32);
                let enc = <$g>::public(&sk_e);
                let sender = auth.then(|| {
                    let sk_s = <$g>::sk(0x33);
                    let pk_s = <$g>::public(&sk_s);
                    let pt_s = <$g>::parse(&pk_s);
                    (sk_s, pk_s, pt_s)
                });
                DhState {
                    sk_e,
                    pt_r: <$g>::parse(&pk_r),
                    pk_r,
                    sk_r,
                    enc,
                    sender,
                }
            }
            fn floor_encap(s: &Self::State) -> [u8; 64] {
                use floor::Dh;
                // skE, pkE = GenerateKeyPair(); dh = DH(skE, pkR) [|| DH(skS, pkR)]
                let enc = <$g>::public(black_box(&s.sk_e));
                let dh = <$g>::dh(&s.sk_e, black_box(&s.pt_r));
                match &s.sender {
                    None => floor::extract_and_expand::<$h>(Self::ID, &[&dh], &[&enc, &s.pk_r]),
                    Some((sk_s, pk_s, _)) => {
                        let dh2 = <$g>::dh(black_box(sk_s), &s.pt_r);
                        floor::extract_and_expand::<$h>(
                            Self::ID,
                            &[&dh, &dh2],
                            &[&enc, &s.pk_r, pk_s],
                        )
                    }
                }
            }
            fn floor_decap(s: &Self::State) -> [u8; 64] {
                use floor::Dh;
                let pt_e = <$g>::parse(black_box(&s.enc));
                let dh = <$g>::dh(black_box(&s.sk_r), &pt_e);
                match &s.sender {
                    None => floor::extract_and_expand::<$h>(Self::ID, &[&dh], &[&s.enc, &s.pk_r]),
                    Some((_, pk_s, pt_s)) => {
                        let dh2 = <$g>::dh(&s.sk_r, black_box(pt_s));
                        floor::extract_and_expand::<$h>(
                            Self::ID,
                            &[&dh, &dh2],
                            &[&s.enc, &s.pk_r, pk_s],
                        )
                    }
                }
            }
        }
    };
}

dh_floor!(DhKemX25519HkdfSha256, floor::X25519, sha2::Sha256);
dh_floor!(DhKemX448HkdfSha512, floor::X448, sha2::Sha512);
dh_floor!(DhKemP256HkdfSha256, floor::P256, sha2::Sha256);
dh_floor!(DhKemP384HkdfSha384, floor::P384, sha2::Sha384);
dh_floor!(DhKemP521HkdfSha512, floor::P521, sha2::Sha512);
dh_floor!(DhKemSecp256k1HkdfSha256, floor::K256, sha2::Sha256);

/// ML-KEM called bare on libcrux, as typed-hpke's engine calls it: the unpacked key pair and
/// public key, with the implementation the CPU selects (AVX2 where it has it).
mod libcrux_floor {
    macro_rules! floor {
        ($name:ident, $lib:ident, $pair:ident, $public:ident, $ct:ident) => {
            pub enum $name {
                Portable(
                    libcrux_ml_kem::$lib::portable::unpacked::$pair,
                    libcrux_ml_kem::$lib::portable::unpacked::$public,
                    libcrux_ml_kem::$lib::$ct,
                ),
                #[cfg(target_arch = "x86_64")]
                Avx2(
                    libcrux_ml_kem::$lib::avx2::unpacked::$pair,
                    libcrux_ml_kem::$lib::avx2::unpacked::$public,
                    libcrux_ml_kem::$lib::$ct,
                ),
            }

            impl $name {
                pub fn new() -> Self {
                    macro_rules! build {
                        ($variant:ident, $m:ident) => {{
                            use libcrux_ml_kem::$lib::$m::unpacked as u;
                            let pair = u::generate_key_pair([0x41; 64]);
                            let public = pair.public_key.clone();
                            let (ct, _) = u::encapsulate(&public, [0x42; 32]);
                            Self::$variant(pair, public, ct)
                        }};
                    }
                    #[cfg(target_arch = "x86_64")]
                    if libcrux_platform::simd256_support() {
                        return build!(Avx2, avx2);
                    }
                    build!(Portable, portable)
                }

                pub fn encap(&self) -> [u8; 32] {
                    match self {
                        Self::Portable(_, pk, _) => {
                            libcrux_ml_kem::$lib::portable::unpacked::encapsulate(
                                pk,
                                black_box([0x42; 32]),
                            )
                            .1
                        }
                        #[cfg(target_arch = "x86_64")]
                        Self::Avx2(_, pk, _) => {
                            libcrux_ml_kem::$lib::avx2::unpacked::encapsulate(
                                pk,
                                black_box([0x42; 32]),
                            )
                            .1
                        }
                    }
                }

                pub fn decap(&self) -> [u8; 32] {
                    match self {
                        Self::Portable(pair, _, ct) => {
                            libcrux_ml_kem::$lib::portable::unpacked::decapsulate(
                                pair,
                                black_box(ct),
                            )
                        }
                        #[cfg(target_arch = "x86_64")]
                        Self::Avx2(pair, _, ct) => {
                            libcrux_ml_kem::$lib::avx2::unpacked::decapsulate(pair, black_box(ct))
                        }
                    }
                }
            }
        };
    }

    use std::hint::black_box;
    floor!(
        MlKem512,
        mlkem512,
        MlKem512KeyPairUnpacked,
        MlKem512PublicKeyUnpacked,
        MlKem512Ciphertext
    );
    floor!(
        MlKem768,
        mlkem768,
        MlKem768KeyPairUnpacked,
        MlKem768PublicKeyUnpacked,
        MlKem768Ciphertext
    );
    floor!(
        MlKem1024,
        mlkem1024,
        MlKem1024KeyPairUnpacked,
        MlKem1024PublicKeyUnpacked,
        MlKem1024Ciphertext
    );
}

macro_rules! ml_kem_floor {
    ($kem:ty, $p:ty) => {
        impl KemFloor for $kem {
            type State = $p;
            fn prepare(_: bool) -> Self::State {
                <$p>::new()
            }
            fn floor_encap(s: &Self::State) -> [u8; 64] {
                let mut out = [0u8; 64];
                out[..32].copy_from_slice(&s.encap());
                out
            }
            fn floor_decap(s: &Self::State) -> [u8; 64] {
                let mut out = [0u8; 64];
                out[..32].copy_from_slice(&s.decap());
                out
            }
        }
    };
}

ml_kem_floor!(MlKem512, libcrux_floor::MlKem512);
ml_kem_floor!(MlKem768, libcrux_floor::MlKem768);
ml_kem_floor!(MlKem1024, libcrux_floor::MlKem1024);

macro_rules! hybrid_floor {
    ($kem:ty, $p:ty, $g:ty, $label:expr) => {
        impl KemFloor for $kem {
            type State = ($p, DhState<$g>);
            fn prepare(_: bool) -> Self::State {
                use floor::Dh;
                let sk_r = <$g>::sk(0x31);
                let pk_r = <$g>::public(&sk_r);
                let sk_e = <$g>::sk(0x32);
                let enc = <$g>::public(&sk_e);
                (
                    <$p>::new(),
                    DhState {
                        sk_e,
                        pt_r: <$g>::parse(&pk_r),
                        pk_r,
                        sk_r,
                        enc,
                        sender: None,
                    },
                )
            }
            fn floor_encap(s: &Self::State) -> [u8; 64] {
                use floor::Dh;
                let ss_m = s.0.encap();
                let ct_t = <$g>::public(black_box(&s.1.sk_e));
                let ss_t = <$g>::dh(&s.1.sk_e, black_box(&s.1.pt_r));
                let mut out = [0u8; 64];
                out[..32].copy_from_slice(&floor::combine(&ss_m, &ss_t, &ct_t, &s.1.pk_r, $label));
                out
            }
            fn floor_decap(s: &Self::State) -> [u8; 64] {
                use floor::Dh;
                let ss_m = s.0.decap();
                let pt_e = <$g>::parse(black_box(&s.1.enc));
                let ss_t = <$g>::dh(black_box(&s.1.sk_r), &pt_e);
                let mut out = [0u8; 64];
                out[..32]
                    .copy_from_slice(&floor::combine(&ss_m, &ss_t, &s.1.enc, &s.1.pk_r, $label));
                out
            }
        }
    };
}

hybrid_floor!(XWing, libcrux_floor::MlKem768, floor::X25519, b"\\.//^\\");
hybrid_floor!(
    MlKem768P256,
    libcrux_floor::MlKem768,
    floor::P256,
    b"MLKEM768-P256"
);
hybrid_floor!(
    MlKem1024P384,
    libcrux_floor::MlKem1024,
    floor::P384,
    b"MLKEM1024-P384"
);

/// The key schedule's floor for a KDF.
trait KdfFloor: Kdf {
    fn schedule(ids: (u16, u16, u16), mode: Mode, ss: &[u8], nk: usize, nn: usize) -> [u8; 160];
}

macro_rules! two_stage_floor {
    ($($kdf:ty => $h:ty),*) => {$(
        impl KdfFloor for $kdf {
            fn schedule(ids: (u16, u16, u16), mode: Mode, ss: &[u8], nk: usize, nn: usize) -> [u8; 160] {
                let (psk, psk_id): (&[u8], &[u8]) = if mode.psk() { (PSK, PSK_ID) } else { (&[], &[]) };
                floor::schedule_two_stage::<$h>(ids, mode.id(), ss, black_box(INFO), psk, psk_id, nk, nn)
            }
        }
    )*};
}
two_stage_floor!(HkdfSha256 => sha2::Sha256, HkdfSha384 => sha2::Sha384, HkdfSha512 => sha2::Sha512);

macro_rules! one_stage_floor {
    ($($kdf:ty => $x:ty, $nh:expr),*) => {$(
        impl KdfFloor for $kdf {
            fn schedule(ids: (u16, u16, u16), mode: Mode, ss: &[u8], nk: usize, nn: usize) -> [u8; 160] {
                let (psk, psk_id): (&[u8], &[u8]) = if mode.psk() { (PSK, PSK_ID) } else { (&[], &[]) };
                floor::schedule_one_stage::<$x>(ids, mode.id(), ss, black_box(INFO), psk, psk_id, nk + nn + $nh)
            }
        }
    )*};
}
one_stage_floor!(Shake128 => shake::Shake128, 32, Shake256 => shake::Shake256, 64, TurboShake128 => turboshake::TurboShake128, 32);

fn aead_sizes<A: Aead>() -> (usize, usize) {
    match A::ID {
        0x0001 => (16, 12),
        0x0002 | 0x0003 => (32, 12),
        _ => (0, 0),
    }
}

// =============================================================================================
// typed-hpke

/// Setup in a runtime mode (auth only where `K: AuthKem`, via `AuthSetup`).
trait Setup: Kem + KemFloor {
    fn sender<F: Kdf, A: Aead>(
        mode: Mode,
        rng: &mut ChaCha20Rng,
        pk: &typed_hpke::PublicKey<Self>,
        sk_s: &typed_hpke::PrivateKey<Self>,
    ) -> (
        typed_hpke::EncappedKey<Self>,
        typed_hpke::SenderContext<Self, F, A>,
    ) {
        let psk = Psk::new(PSK, PSK_ID).unwrap();
        match mode {
            Mode::Base => Hpke::<Self, F, A>::setup_sender_base(rng, pk, INFO),
            Mode::Psk => Hpke::<Self, F, A>::setup_sender_psk(rng, pk, INFO, &psk),
            _ => Self::auth_sender(mode, rng, pk, sk_s),
        }
        .unwrap()
    }
    fn receiver<F: Kdf, A: Aead>(
        mode: Mode,
        enc: &typed_hpke::EncappedKey<Self>,
        sk: &typed_hpke::PrivateKey<Self>,
        pk_s: &typed_hpke::PublicKey<Self>,
    ) -> typed_hpke::ReceiverContext<Self, F, A> {
        let psk = Psk::new(PSK, PSK_ID).unwrap();
        match mode {
            Mode::Base => Hpke::<Self, F, A>::setup_receiver_base(enc, sk, INFO),
            Mode::Psk => Hpke::<Self, F, A>::setup_receiver_psk(enc, sk, INFO, &psk),
            _ => Self::auth_receiver(mode, enc, sk, pk_s),
        }
        .unwrap()
    }
    #[allow(clippy::type_complexity)]
    fn auth_sender<F: Kdf, A: Aead>(
        _: Mode,
        _: &mut ChaCha20Rng,
        _: &typed_hpke::PublicKey<Self>,
        _: &typed_hpke::PrivateKey<Self>,
    ) -> Result<
        (
            typed_hpke::EncappedKey<Self>,
            typed_hpke::SenderContext<Self, F, A>,
        ),
        typed_hpke::Error,
    > {
        unreachable!()
    }
    fn auth_receiver<F: Kdf, A: Aead>(
        _: Mode,
        _: &typed_hpke::EncappedKey<Self>,
        _: &typed_hpke::PrivateKey<Self>,
        _: &typed_hpke::PublicKey<Self>,
    ) -> Result<typed_hpke::ReceiverContext<Self, F, A>, typed_hpke::Error> {
        unreachable!()
    }
}

macro_rules! auth_setup {
    ($($k:ty),*) => {$(
        impl Setup for $k {
            fn auth_sender<F: Kdf, A: Aead>(
                mode: Mode, rng: &mut ChaCha20Rng, pk: &typed_hpke::PublicKey<Self>,
                sk_s: &typed_hpke::PrivateKey<Self>,
            ) -> Result<(typed_hpke::EncappedKey<Self>, typed_hpke::SenderContext<Self, F, A>), typed_hpke::Error> {
                let psk = Psk::new(PSK, PSK_ID).unwrap();
                if mode == Mode::Auth {
                    Hpke::<Self, F, A>::setup_sender_auth(rng, pk, INFO, sk_s)
                } else {
                    Hpke::<Self, F, A>::setup_sender_auth_psk(rng, pk, INFO, &psk, sk_s)
                }
            }
            fn auth_receiver<F: Kdf, A: Aead>(
                mode: Mode, enc: &typed_hpke::EncappedKey<Self>, sk: &typed_hpke::PrivateKey<Self>,
                pk_s: &typed_hpke::PublicKey<Self>,
            ) -> Result<typed_hpke::ReceiverContext<Self, F, A>, typed_hpke::Error> {
                let psk = Psk::new(PSK, PSK_ID).unwrap();
                if mode == Mode::Auth {
                    Hpke::<Self, F, A>::setup_receiver_auth(enc, sk, INFO, pk_s)
                } else {
                    Hpke::<Self, F, A>::setup_receiver_auth_psk(enc, sk, INFO, &psk, pk_s)
                }
            }
        }
    )*};
}
auth_setup!(
    DhKemX25519HkdfSha256,
    DhKemX448HkdfSha512,
    DhKemP256HkdfSha256,
    DhKemP384HkdfSha384,
    DhKemP521HkdfSha512,
    DhKemSecp256k1HkdfSha256
);
impl Setup for MlKem512 {}
impl Setup for MlKem768 {}
impl Setup for MlKem1024 {}
impl Setup for XWing {}
impl Setup for MlKem768P256 {}
impl Setup for MlKem1024P384 {}

/// typed-hpke's KEM rows and the floor.
fn typed_kem<K: Setup>(c: &mut Criterion, name: &str) {
    let mut rng = rng();
    let (sk, pk) = K::derive_key_pair(ikm::<K>(IKM_R)).unwrap();
    let (_, enc) = K::encap(&mut rng, &pk).unwrap();
    let ikm = ikm::<K>(IKM_R);
    bench(c, &format!("kem/{name}/generate"), TYPED, || {
        K::generate(black_box(&mut rng))
    });
    bench(c, &format!("kem/{name}/derive_key_pair"), TYPED, || {
        K::derive_key_pair(black_box(ikm))
    });
    let mut rng = self::rng();
    bench(c, &format!("kem/{name}/encap"), TYPED, || {
        K::encap(black_box(&mut rng), black_box(&pk))
    });
    bench(c, &format!("kem/{name}/decap"), TYPED, || {
        K::decap(black_box(&enc), black_box(&sk))
    });
    let state = K::prepare(false);
    bench(c, &format!("kem/{name}/encap"), FLOOR, || {
        K::floor_encap(&state)
    });
    bench(c, &format!("kem/{name}/decap"), FLOOR, || {
        K::floor_decap(&state)
    });
}

/// One benchmark function in a group of its own name.
fn bench<O>(c: &mut Criterion, group: &str, function: &str, mut f: impl FnMut() -> O) {
    let mut g = c.benchmark_group(group);
    g.bench_function(function, |b| b.iter(&mut f));
    g.finish();
}

/// typed-hpke's setup rows for a suite, with the floor (KEM floor + key schedule floor).
fn typed_setup<K: Setup, F: Kdf + KdfFloor, A: Aead>(
    c: &mut Criterion,
    suite: &str,
    modes: &[Mode],
) {
    let (sk, pk) = K::derive_key_pair(ikm::<K>(IKM_R)).unwrap();
    let (sk_s, pk_s) = K::derive_key_pair(ikm::<K>(IKM_S)).unwrap();
    let ids = (K::ID, F::ID, A::ID);
    let (nk, nn) = aead_sizes::<A>();
    for &mode in modes {
        let mut rng = rng();
        let (enc, _) = K::sender::<F, A>(mode, &mut rng, &pk, &sk_s);
        let sender = format!("setup_sender_{}/{suite}", mode.name());
        let receiver = format!("setup_receiver_{}/{suite}", mode.name());
        bench(c, &sender, TYPED, || {
            K::sender::<F, A>(mode, black_box(&mut rng), black_box(&pk), black_box(&sk_s))
        });
        bench(c, &receiver, TYPED, || {
            K::receiver::<F, A>(mode, black_box(&enc), black_box(&sk), black_box(&pk_s))
        });
        let state = K::prepare(mode.auth());
        bench(c, &sender, FLOOR, || {
            let ss = K::floor_encap(&state);
            F::schedule(ids, mode, &ss[..32], nk, nn)
        });
        bench(c, &receiver, FLOOR, || {
            let ss = K::floor_decap(&state);
            F::schedule(ids, mode, &ss[..32], nk, nn)
        });
    }
}

const SEAL_SIZES: &[usize] = &[16, 64, 256, 1024, 4096, 16384, 65536, 262144];
const SWEEP_SIZES: &[usize] = &[64, 1024, 16384, 65536];
const CONTEXT_SIZES: &[usize] = &[64, 1024, 16384, 65536];
const EXPORT_SIZES: &[usize] = &[16, 32, 64, 128, 256];

/// A group whose rows are sizes, each library one line.
fn sized<O>(
    c: &mut Criterion,
    group: &str,
    function: &str,
    sizes: &[usize],
    mut f: impl FnMut(&[u8]) -> O,
) {
    let mut g: BenchmarkGroup<'_, WallTime> = c.benchmark_group(group);
    for &n in sizes {
        let pt = vec![0x5a; n];
        g.throughput(criterion::Throughput::Bytes(n as u64));
        g.bench_with_input(BenchmarkId::new(function, n), &pt, |b, pt| {
            b.iter(|| f(black_box(pt)))
        });
    }
    g.finish();
}

/// Post-setup `open` rows: a receiver must open ciphertexts in its sequence, so each sample
/// seals a batch (untimed) from a fresh sender / receiver pair and times opening the batch.
fn context_open<S, R, O>(
    c: &mut Criterion,
    suite: &str,
    lib: &str,
    mut pair: impl FnMut() -> (S, R),
    mut seal: impl FnMut(&mut S, &[u8]) -> Vec<u8>,
    mut open: impl FnMut(&mut R, &[u8]) -> O,
) {
    let mut g = c.benchmark_group(format!("context_open/{suite}"));
    for &n in CONTEXT_SIZES {
        g.throughput(criterion::Throughput::Bytes(n as u64));
        g.bench_function(BenchmarkId::new(lib, n), |b| {
            b.iter_custom(|iters| {
                let (mut s, mut r) = pair();
                let pt = vec![0x5a; n];
                let mut total = Duration::ZERO;
                let mut left = iters;
                while left > 0 {
                    let k = left.min(64);
                    let cts: Vec<Vec<u8>> = (0..k).map(|_| seal(&mut s, &pt)).collect();
                    let start = std::time::Instant::now();
                    for ct in &cts {
                        black_box(open(&mut r, black_box(ct)));
                    }
                    total += start.elapsed();
                    left -= k;
                }
                total
            })
        });
    }
    g.finish();
}

/// typed-hpke's message rows: single-shot seal / open sweeps, in-place, context seal / open,
/// export and the 1 KiB roundtrip.
fn typed_messages<K: Kem, F: Kdf, A: SealingAead>(
    c: &mut Criterion,
    suite: &str,
    seal_sizes: &[usize],
    full: bool,
) {
    let (sk, pk) = K::derive_key_pair(ikm::<K>(IKM_R)).unwrap();
    let mut rng = rng();
    type H<K, F, A> = Hpke<K, F, A>;
    sized(c, &format!("seal/{suite}"), TYPED, seal_sizes, |pt| {
        H::<K, F, A>::seal_base(&mut rng, &pk, INFO, AAD, pt).unwrap()
    });
    let open_sizes: Vec<usize> = seal_sizes
        .iter()
        .copied()
        .filter(|n| (64..=65536).contains(n))
        .collect();
    {
        let mut g = c.benchmark_group(format!("open/{suite}"));
        for &n in &open_sizes {
            let (enc, ct) =
                H::<K, F, A>::seal_base(&mut rng, &pk, INFO, AAD, &vec![0x5a; n]).unwrap();
            g.throughput(criterion::Throughput::Bytes(n as u64));
            g.bench_with_input(BenchmarkId::new(TYPED, n), &ct, |b, ct| {
                b.iter(|| {
                    H::<K, F, A>::open_base(
                        black_box(&enc),
                        black_box(&sk),
                        INFO,
                        AAD,
                        black_box(ct),
                    )
                    .unwrap()
                })
            });
        }
        g.finish();
    }
    if !full {
        return;
    }
    // In place: the ciphertext overwrites the buffer, the tag comes back detached.
    {
        let mut g = c.benchmark_group(format!("seal_in_place/{suite}"));
        for &n in &open_sizes {
            let mut buf = vec![0x5a; n];
            g.throughput(criterion::Throughput::Bytes(n as u64));
            g.bench_function(BenchmarkId::new(TYPED, n), |b| {
                b.iter(|| {
                    H::<K, F, A>::seal_base_in_place_detached(
                        &mut rng,
                        &pk,
                        INFO,
                        AAD,
                        black_box(&mut buf),
                    )
                    .unwrap()
                })
            });
        }
        g.finish();
        let mut g = c.benchmark_group(format!("open_in_place/{suite}"));
        for &n in &open_sizes {
            let mut ct = vec![0x5a; n];
            let (enc, tag) =
                H::<K, F, A>::seal_base_in_place_detached(&mut rng, &pk, INFO, AAD, &mut ct)
                    .unwrap();
            g.throughput(criterion::Throughput::Bytes(n as u64));
            g.bench_function(BenchmarkId::new(TYPED, n), |b| {
                b.iter_batched_ref(
                    || ct.clone(),
                    |buf| {
                        H::<K, F, A>::open_base_in_place_detached(
                            &enc,
                            &sk,
                            INFO,
                            AAD,
                            black_box(buf),
                            &tag,
                        )
                        .unwrap()
                    },
                    BatchSize::SmallInput,
                )
            });
        }
        g.finish();
    }
    let (enc, mut sender) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
    sized(
        c,
        &format!("context_seal/{suite}"),
        TYPED,
        CONTEXT_SIZES,
        |pt| sender.seal(AAD, pt).unwrap(),
    );
    context_open(
        c,
        suite,
        TYPED,
        || {
            let (enc, s) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
            (
                s,
                H::<K, F, A>::setup_receiver_base(&enc, &sk, INFO).unwrap(),
            )
        },
        |s, pt| s.seal(AAD, pt).unwrap(),
        |r, ct| r.open(AAD, ct).unwrap(),
    );
    let _ = enc;
    let mut g = c.benchmark_group(format!("export/{suite}"));
    for &n in EXPORT_SIZES {
        let mut out = vec![0u8; n];
        g.bench_function(BenchmarkId::new(TYPED, n), |b| {
            b.iter(|| {
                sender
                    .export(black_box(b"exporter context"), black_box(&mut out))
                    .unwrap()
            })
        });
    }
    g.finish();
    bench(c, &format!("roundtrip_1k/{suite}"), TYPED, || {
        let (enc, mut s) = H::<K, F, A>::setup_sender_base(&mut rng, black_box(&pk), INFO).unwrap();
        let ct = s.seal(AAD, black_box(&[0x5a; 1024])).unwrap();
        let mut r = H::<K, F, A>::setup_receiver_base(&enc, black_box(&sk), INFO).unwrap();
        r.open(AAD, &ct).unwrap()
    });
}

// =============================================================================================
// hpke-ng 0.2

mod ng {
    use super::*;
    use hpke_ng::Hpke as H;

    pub fn kem<K: hpke_ng::Kem>(c: &mut Criterion, name: &str) {
        let mut rng = rng();
        let ikm = &IKM_R[..K::PRIVATE_KEY_LEN.clamp(32, 66)];
        let (sk, pk) = K::derive_key_pair(ikm).unwrap();
        let (_, enc) = K::encap(&mut rng, &pk).unwrap();
        bench(c, &format!("kem/{name}/generate"), NG, || {
            K::generate(black_box(&mut rng)).unwrap()
        });
        bench(c, &format!("kem/{name}/derive_key_pair"), NG, || {
            K::derive_key_pair(black_box(ikm)).unwrap()
        });
        bench(c, &format!("kem/{name}/encap"), NG, || {
            K::encap(black_box(&mut rng), black_box(&pk)).unwrap()
        });
        bench(c, &format!("kem/{name}/decap"), NG, || {
            K::decap(black_box(&enc), black_box(&sk)).unwrap()
        });
    }

    pub fn setup<K: hpke_ng::Kem, F: hpke_ng::Kdf, A: hpke_ng::Aead>(
        c: &mut Criterion,
        suite: &str,
        modes: &[Mode],
    ) {
        let ikm = &IKM_R[..K::PRIVATE_KEY_LEN.clamp(32, 66)];
        let (sk, pk) = K::derive_key_pair(ikm).unwrap();
        let mut rng = rng();
        for &mode in modes {
            let psk = || hpke_ng::Psk::new(PSK, PSK_ID).unwrap();
            let (enc, _) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
            match mode {
                Mode::Base => {
                    bench(c, &format!("setup_sender_base/{suite}"), NG, || {
                        H::<K, F, A>::setup_sender_base(black_box(&mut rng), black_box(&pk), INFO)
                            .unwrap()
                    });
                    bench(c, &format!("setup_receiver_base/{suite}"), NG, || {
                        H::<K, F, A>::setup_receiver_base(black_box(&enc), black_box(&sk), INFO)
                            .unwrap()
                    });
                }
                Mode::Psk => {
                    bench(c, &format!("setup_sender_psk/{suite}"), NG, || {
                        H::<K, F, A>::setup_sender_psk(
                            black_box(&mut rng),
                            black_box(&pk),
                            INFO,
                            psk(),
                        )
                        .unwrap()
                    });
                    bench(c, &format!("setup_receiver_psk/{suite}"), NG, || {
                        H::<K, F, A>::setup_receiver_psk(
                            black_box(&enc),
                            black_box(&sk),
                            INFO,
                            psk(),
                        )
                        .unwrap()
                    });
                }
                _ => unreachable!("auth rows go through ng::auth"),
            }
        }
    }

    pub fn auth<K: hpke_ng::AuthKem, F: hpke_ng::Kdf, A: hpke_ng::Aead>(
        c: &mut Criterion,
        suite: &str,
        modes: &[Mode],
    ) {
        let ikm = &IKM_R[..K::PRIVATE_KEY_LEN.clamp(32, 66)];
        let (sk, pk) = K::derive_key_pair(ikm).unwrap();
        let (sk_s, pk_s) = K::derive_key_pair(&IKM_S[..ikm.len()]).unwrap();
        let mut rng = rng();
        let psk = || hpke_ng::Psk::new(PSK, PSK_ID).unwrap();
        for &mode in modes {
            let (enc, _) = H::<K, F, A>::setup_sender_auth(&mut rng, &pk, INFO, &sk_s).unwrap();
            match mode {
                Mode::Auth => {
                    bench(c, &format!("setup_sender_auth/{suite}"), NG, || {
                        H::<K, F, A>::setup_sender_auth(
                            black_box(&mut rng),
                            black_box(&pk),
                            INFO,
                            &sk_s,
                        )
                        .unwrap()
                    });
                    bench(c, &format!("setup_receiver_auth/{suite}"), NG, || {
                        H::<K, F, A>::setup_receiver_auth(
                            black_box(&enc),
                            black_box(&sk),
                            INFO,
                            &pk_s,
                        )
                        .unwrap()
                    });
                }
                Mode::AuthPsk => {
                    bench(c, &format!("setup_sender_auth_psk/{suite}"), NG, || {
                        H::<K, F, A>::setup_sender_auth_psk(
                            black_box(&mut rng),
                            black_box(&pk),
                            INFO,
                            psk(),
                            &sk_s,
                        )
                        .unwrap()
                    });
                    bench(c, &format!("setup_receiver_auth_psk/{suite}"), NG, || {
                        H::<K, F, A>::setup_receiver_auth_psk(
                            black_box(&enc),
                            black_box(&sk),
                            INFO,
                            psk(),
                            &pk_s,
                        )
                        .unwrap()
                    });
                }
                _ => unreachable!(),
            }
        }
    }

    pub fn messages<K: hpke_ng::Kem, F: hpke_ng::Kdf, A: hpke_ng::SealingAead>(
        c: &mut Criterion,
        suite: &str,
        seal_sizes: &[usize],
        full: bool,
    ) {
        let ikm = &IKM_R[..K::PRIVATE_KEY_LEN.clamp(32, 66)];
        let (sk, pk) = K::derive_key_pair(ikm).unwrap();
        let mut rng = rng();
        sized(c, &format!("seal/{suite}"), NG, seal_sizes, |pt| {
            H::<K, F, A>::seal_base(&mut rng, &pk, INFO, AAD, pt).unwrap()
        });
        let mut g = c.benchmark_group(format!("open/{suite}"));
        for &n in seal_sizes.iter().filter(|n| (64..=65536).contains(*n)) {
            let (enc, ct) =
                H::<K, F, A>::seal_base(&mut rng, &pk, INFO, AAD, &vec![0x5a; n]).unwrap();
            g.throughput(criterion::Throughput::Bytes(n as u64));
            g.bench_with_input(BenchmarkId::new(NG, n), &ct, |b, ct| {
                b.iter(|| {
                    H::<K, F, A>::open_base(
                        black_box(&enc),
                        black_box(&sk),
                        INFO,
                        AAD,
                        black_box(ct),
                    )
                    .unwrap()
                })
            });
        }
        g.finish();
        if !full {
            return;
        }
        let (_, mut sender) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
        sized(
            c,
            &format!("context_seal/{suite}"),
            NG,
            CONTEXT_SIZES,
            |pt| sender.seal(AAD, pt).unwrap(),
        );
        context_open(
            c,
            suite,
            NG,
            || {
                let (enc, s) = H::<K, F, A>::setup_sender_base(&mut rng, &pk, INFO).unwrap();
                (
                    s,
                    H::<K, F, A>::setup_receiver_base(&enc, &sk, INFO).unwrap(),
                )
            },
            |s, pt| s.seal(AAD, pt).unwrap(),
            |r, ct| r.open(AAD, ct).unwrap(),
        );
        let mut g = c.benchmark_group(format!("export/{suite}"));
        for &n in EXPORT_SIZES {
            g.bench_function(BenchmarkId::new(NG, n), |b| {
                b.iter(|| {
                    sender
                        .export(black_box(b"exporter context"), black_box(n))
                        .unwrap()
                })
            });
        }
        g.finish();
        bench(c, &format!("roundtrip_1k/{suite}"), NG, || {
            let (enc, mut s) =
                H::<K, F, A>::setup_sender_base(&mut rng, black_box(&pk), INFO).unwrap();
            let ct = s.seal(AAD, black_box(&[0x5a; 1024])).unwrap();
            let mut r = H::<K, F, A>::setup_receiver_base(&enc, black_box(&sk), INFO).unwrap();
            r.open(AAD, &ct).unwrap()
        });
    }
}

// =============================================================================================
// rust-hpke 0.15.1

mod rh {
    use super::*;
    use hpke::{Deserializable as _, OpModeR, OpModeS, PskBundle, Serializable as _};

    fn keys<K: hpke::Kem>(ikm: &[u8]) -> (K::PrivateKey, K::PublicKey) {
        K::derive_keypair(ikm)
    }

    fn ikm_len<K: hpke::Kem>() -> usize {
        use hpke::Serializable;
        <K::PrivateKey as Serializable>::size().clamp(32, 66)
    }

    pub fn kem<K: hpke::Kem>(c: &mut Criterion, name: &str) {
        let mut rng = rng();
        let ikm = &IKM_R[..ikm_len::<K>()];
        let (sk, pk) = keys::<K>(ikm);
        bench(c, &format!("kem/{name}/generate"), RUST_HPKE, || {
            K::gen_keypair_with_rng(black_box(&mut rng))
        });
        bench(c, &format!("kem/{name}/derive_key_pair"), RUST_HPKE, || {
            K::derive_keypair(black_box(ikm))
        });
        // No public raw encap / decap: through setup with ExportOnly and the KEM's own HKDF.
        type Xo = hpke::aead::ExportOnlyAead;
        type Kd = hpke::kdf::HkdfSha256;
        let (enc, _) =
            hpke::setup_sender_with_rng::<Xo, Kd, K>(&OpModeS::Base, &pk, INFO, &mut rng).unwrap();
        bench(
            c,
            &format!("kem/{name}/encap"),
            "rust-hpke_via_setup",
            || {
                hpke::setup_sender_with_rng::<Xo, Kd, K>(
                    &OpModeS::Base,
                    black_box(&pk),
                    INFO,
                    black_box(&mut rng),
                )
                .unwrap()
            },
        );
        bench(
            c,
            &format!("kem/{name}/decap"),
            "rust-hpke_via_setup",
            || {
                hpke::setup_receiver::<Xo, Kd, K>(
                    &OpModeR::Base,
                    black_box(&sk),
                    black_box(&enc),
                    INFO,
                )
                .unwrap()
            },
        );
    }

    pub fn setup<K: hpke::Kem, F: hpke::kdf::Kdf, A: hpke::aead::Aead>(
        c: &mut Criterion,
        suite: &str,
        modes: &[Mode],
    ) {
        let ikm = &IKM_R[..ikm_len::<K>()];
        let (sk, pk) = keys::<K>(ikm);
        let (sk_s, pk_s) = keys::<K>(&IKM_S[..ikm.len()]);
        let bundle = PskBundle::new(PSK, PSK_ID).unwrap();
        let mut rng = rng();
        for &mode in modes {
            let mode_s = match mode {
                Mode::Base => OpModeS::Base,
                Mode::Psk => OpModeS::Psk(bundle),
                Mode::Auth => OpModeS::Auth((sk_s.clone(), pk_s.clone())),
                Mode::AuthPsk => OpModeS::AuthPsk((sk_s.clone(), pk_s.clone()), bundle),
            };
            let mode_r = match mode {
                Mode::Base => OpModeR::Base,
                Mode::Psk => OpModeR::Psk(bundle),
                Mode::Auth => OpModeR::Auth(pk_s.clone()),
                Mode::AuthPsk => OpModeR::AuthPsk(pk_s.clone(), bundle),
            };
            let (enc, _) =
                hpke::setup_sender_with_rng::<A, F, K>(&mode_s, &pk, INFO, &mut rng).unwrap();
            bench(
                c,
                &format!("setup_sender_{}/{suite}", mode.name()),
                RUST_HPKE,
                || {
                    hpke::setup_sender_with_rng::<A, F, K>(
                        &mode_s,
                        black_box(&pk),
                        INFO,
                        black_box(&mut rng),
                    )
                    .unwrap()
                },
            );
            bench(
                c,
                &format!("setup_receiver_{}/{suite}", mode.name()),
                RUST_HPKE,
                || {
                    hpke::setup_receiver::<A, F, K>(&mode_r, black_box(&sk), black_box(&enc), INFO)
                        .unwrap()
                },
            );
        }
    }

    pub fn messages<K: hpke::Kem, F: hpke::kdf::Kdf, A: hpke::aead::Aead>(
        c: &mut Criterion,
        suite: &str,
        seal_sizes: &[usize],
        full: bool,
    ) {
        let ikm = &IKM_R[..ikm_len::<K>()];
        let (sk, pk) = keys::<K>(ikm);
        let mut rng = rng();
        sized(c, &format!("seal/{suite}"), RUST_HPKE, seal_sizes, |pt| {
            hpke::single_shot_seal_with_rng::<A, F, K>(&OpModeS::Base, &pk, INFO, pt, AAD, &mut rng)
                .unwrap()
        });
        let mut g = c.benchmark_group(format!("open/{suite}"));
        for &n in seal_sizes.iter().filter(|n| (64..=65536).contains(*n)) {
            let (enc, ct) = hpke::single_shot_seal_with_rng::<A, F, K>(
                &OpModeS::Base,
                &pk,
                INFO,
                &vec![0x5a; n],
                AAD,
                &mut rng,
            )
            .unwrap();
            let enc = K::EncappedKey::from_bytes(&enc.to_bytes()).unwrap();
            g.throughput(criterion::Throughput::Bytes(n as u64));
            g.bench_with_input(BenchmarkId::new(RUST_HPKE, n), &ct, |b, ct| {
                b.iter(|| {
                    hpke::single_shot_open::<A, F, K>(
                        &OpModeR::Base,
                        black_box(&sk),
                        black_box(&enc),
                        INFO,
                        black_box(ct),
                        AAD,
                    )
                    .unwrap()
                })
            });
        }
        g.finish();
        if !full {
            return;
        }
        // rust-hpke's in-place API: `single_shot_seal_inout_detached_with_rng`.
        let mut g = c.benchmark_group(format!("seal_in_place/{suite}"));
        for &n in seal_sizes.iter().filter(|n| (64..=65536).contains(*n)) {
            let mut buf = vec![0x5a; n];
            g.throughput(criterion::Throughput::Bytes(n as u64));
            g.bench_function(BenchmarkId::new(RUST_HPKE, n), |b| {
                b.iter(|| {
                    hpke::single_shot_seal_inout_detached_with_rng::<A, F, K>(
                        &OpModeS::Base,
                        &pk,
                        INFO,
                        black_box(buf.as_mut_slice()).into(),
                        AAD,
                        &mut rng,
                    )
                    .unwrap()
                })
            });
        }
        g.finish();
        let mut g = c.benchmark_group(format!("open_in_place/{suite}"));
        for &n in seal_sizes.iter().filter(|n| (64..=65536).contains(*n)) {
            let mut ct = vec![0x5a; n];
            let (enc, tag) = hpke::single_shot_seal_inout_detached_with_rng::<A, F, K>(
                &OpModeS::Base,
                &pk,
                INFO,
                ct.as_mut_slice().into(),
                AAD,
                &mut rng,
            )
            .unwrap();
            g.throughput(criterion::Throughput::Bytes(n as u64));
            g.bench_function(BenchmarkId::new(RUST_HPKE, n), |b| {
                b.iter_batched_ref(
                    || ct.clone(),
                    |buf| {
                        hpke::single_shot_open_inout_detached::<A, F, K>(
                            &OpModeR::Base,
                            &sk,
                            &enc,
                            INFO,
                            black_box(buf.as_mut_slice()).into(),
                            AAD,
                            &tag,
                        )
                        .unwrap()
                    },
                    BatchSize::SmallInput,
                )
            });
        }
        g.finish();
        let (_, mut sender) =
            hpke::setup_sender_with_rng::<A, F, K>(&OpModeS::Base, &pk, INFO, &mut rng).unwrap();
        sized(
            c,
            &format!("context_seal/{suite}"),
            RUST_HPKE,
            CONTEXT_SIZES,
            |pt| sender.seal(pt, AAD).unwrap(),
        );
        context_open(
            c,
            suite,
            RUST_HPKE,
            || {
                let (enc, s) =
                    hpke::setup_sender_with_rng::<A, F, K>(&OpModeS::Base, &pk, INFO, &mut rng)
                        .unwrap();
                (
                    s,
                    hpke::setup_receiver::<A, F, K>(&OpModeR::Base, &sk, &enc, INFO).unwrap(),
                )
            },
            |s, pt| s.seal(pt, AAD).unwrap(),
            |r, ct| r.open(ct, AAD).unwrap(),
        );
        let mut g = c.benchmark_group(format!("export/{suite}"));
        for &n in EXPORT_SIZES {
            let mut out = vec![0u8; n];
            g.bench_function(BenchmarkId::new(RUST_HPKE, n), |b| {
                b.iter(|| {
                    sender
                        .export(black_box(b"exporter context"), black_box(&mut out))
                        .unwrap()
                })
            });
        }
        g.finish();
        bench(c, &format!("roundtrip_1k/{suite}"), RUST_HPKE, || {
            let (enc, mut s) = hpke::setup_sender_with_rng::<A, F, K>(
                &OpModeS::Base,
                black_box(&pk),
                INFO,
                &mut rng,
            )
            .unwrap();
            let ct = s.seal(black_box(&[0x5a; 1024]), AAD).unwrap();
            let mut r = hpke::setup_receiver::<A, F, K>(&OpModeR::Base, black_box(&sk), &enc, INFO)
                .unwrap();
            r.open(&ct, AAD).unwrap()
        });
    }
}

// =============================================================================================
// hpke-rs 0.8 (RustCrypto provider): runtime ids; its PRNG lives in the `Hpke` value, built
// once outside the timed closures.

mod rs {
    use super::*;
    use hpke_rs::hpke_types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};
    use hpke_rs::{HpkePrivateKey, HpkePublicKey};

    type Crypto = hpke_rs::rustcrypto::HpkeRustCrypto;

    fn config(mode: Mode, kem: u16, kdf: u16, aead: u16) -> hpke_rs::Hpke<Crypto> {
        let mode = match mode {
            Mode::Base => hpke_rs::Mode::Base,
            Mode::Psk => hpke_rs::Mode::Psk,
            Mode::Auth => hpke_rs::Mode::Auth,
            Mode::AuthPsk => hpke_rs::Mode::AuthPsk,
        };
        hpke_rs::Hpke::new(
            mode,
            KemAlgorithm::try_from(kem).unwrap(),
            KdfAlgorithm::try_from(kdf).unwrap(),
            AeadAlgorithm::try_from(aead).unwrap(),
        )
    }

    fn keys(h: &hpke_rs::Hpke<Crypto>, ikm: &[u8]) -> (HpkePrivateKey, HpkePublicKey) {
        h.derive_key_pair(ikm).unwrap().into_keys()
    }

    /// The KEM rows; `kdf` is the KEM's own HKDF, used for the `_via_setup` rows.
    pub fn kem(c: &mut Criterion, name: &str, kem: u16, kdf: u16, ikm_len: usize) {
        let mut h = config(Mode::Base, kem, kdf, 0xFFFF);
        let ikm = &IKM_R[..ikm_len];
        let (sk, pk) = keys(&h, ikm);
        let (enc, _) = h.setup_sender(&pk, INFO, None, None, None).unwrap();
        bench(c, &format!("kem/{name}/generate"), HPKE_RS, || {
            h.generate_key_pair().unwrap()
        });
        bench(c, &format!("kem/{name}/derive_key_pair"), HPKE_RS, || {
            h.derive_key_pair(black_box(ikm)).unwrap()
        });
        bench(c, &format!("kem/{name}/encap"), "hpke-rs_via_setup", || {
            h.setup_sender(black_box(&pk), INFO, None, None, None)
                .unwrap()
        });
        bench(c, &format!("kem/{name}/decap"), "hpke-rs_via_setup", || {
            h.setup_receiver(black_box(&enc), black_box(&sk), INFO, None, None, None)
                .unwrap()
        });
    }

    #[allow(clippy::too_many_arguments)]
    pub fn setup(
        c: &mut Criterion,
        suite: &str,
        ids: (u16, u16, u16),
        ikm_len: usize,
        modes: &[Mode],
    ) {
        for &mode in modes {
            let mut h = config(mode, ids.0, ids.1, ids.2);
            let (sk, pk) = keys(&h, &IKM_R[..ikm_len]);
            let (sk_s, pk_s) = keys(&h, &IKM_S[..ikm_len]);
            let (psk, psk_id) = if mode.psk() {
                (Some(PSK), Some(PSK_ID))
            } else {
                (None, None)
            };
            let (sk_s, pk_s) = if mode.auth() {
                (Some(&sk_s), Some(&pk_s))
            } else {
                (None, None)
            };
            let (enc, _) = h.setup_sender(&pk, INFO, psk, psk_id, sk_s).unwrap();
            bench(
                c,
                &format!("setup_sender_{}/{suite}", mode.name()),
                HPKE_RS,
                || {
                    h.setup_sender(black_box(&pk), INFO, psk, psk_id, sk_s)
                        .unwrap()
                },
            );
            bench(
                c,
                &format!("setup_receiver_{}/{suite}", mode.name()),
                HPKE_RS,
                || {
                    h.setup_receiver(black_box(&enc), black_box(&sk), INFO, psk, psk_id, pk_s)
                        .unwrap()
                },
            );
        }
    }

    pub fn messages(
        c: &mut Criterion,
        suite: &str,
        ids: (u16, u16, u16),
        seal_sizes: &[usize],
        full: bool,
    ) {
        let mut h = config(Mode::Base, ids.0, ids.1, ids.2);
        let (sk, pk) = keys(&h, &IKM_R[..32]);
        sized(c, &format!("seal/{suite}"), HPKE_RS, seal_sizes, |pt| {
            h.seal(&pk, INFO, AAD, pt, None, None, None).unwrap()
        });
        let mut g = c.benchmark_group(format!("open/{suite}"));
        for &n in seal_sizes.iter().filter(|n| (64..=65536).contains(*n)) {
            let (enc, ct) = h
                .seal(&pk, INFO, AAD, &vec![0x5a; n], None, None, None)
                .unwrap();
            g.throughput(criterion::Throughput::Bytes(n as u64));
            g.bench_with_input(BenchmarkId::new(HPKE_RS, n), &ct, |b, ct| {
                b.iter(|| {
                    h.open(
                        black_box(&enc),
                        black_box(&sk),
                        INFO,
                        AAD,
                        black_box(ct),
                        None,
                        None,
                        None,
                    )
                    .unwrap()
                })
            });
        }
        g.finish();
        if !full {
            return;
        }
        let (_, mut sender) = h.setup_sender(&pk, INFO, None, None, None).unwrap();
        sized(
            c,
            &format!("context_seal/{suite}"),
            HPKE_RS,
            CONTEXT_SIZES,
            |pt| sender.seal(AAD, pt).unwrap(),
        );
        let pair = std::cell::RefCell::new(h);
        context_open(
            c,
            suite,
            HPKE_RS,
            || {
                let mut h = pair.borrow_mut();
                let (enc, s) = h.setup_sender(&pk, INFO, None, None, None).unwrap();
                (
                    s,
                    h.setup_receiver(&enc, &sk, INFO, None, None, None).unwrap(),
                )
            },
            |s, pt| s.seal(AAD, pt).unwrap(),
            |r, ct| r.open(AAD, ct).unwrap(),
        );
        let mut h = pair.into_inner();
        let mut g = c.benchmark_group(format!("export/{suite}"));
        for &n in EXPORT_SIZES {
            g.bench_function(BenchmarkId::new(HPKE_RS, n), |b| {
                b.iter(|| {
                    sender
                        .export(black_box(b"exporter context"), black_box(n))
                        .unwrap()
                })
            });
        }
        g.finish();
        bench(c, &format!("roundtrip_1k/{suite}"), HPKE_RS, || {
            let (enc, mut s) = h
                .setup_sender(black_box(&pk), INFO, None, None, None)
                .unwrap();
            let ct = s.seal(AAD, black_box(&[0x5a; 1024])).unwrap();
            let mut r = h
                .setup_receiver(&enc, black_box(&sk), INFO, None, None, None)
                .unwrap();
            r.open(AAD, &ct).unwrap()
        });
    }
}

// =============================================================================================
// The rows.

fn kems(c: &mut Criterion) {
    use hpke::kem as rk;
    typed_kem::<DhKemX25519HkdfSha256>(c, "x25519");
    ng::kem::<hpke_ng::DhKemX25519HkdfSha256>(c, "x25519");
    rh::kem::<rk::X25519HkdfSha256>(c, "x25519");
    rs::kem(c, "x25519", 0x0020, 0x0001, 32);

    typed_kem::<DhKemX448HkdfSha512>(c, "x448");
    ng::kem::<hpke_ng::DhKemX448HkdfSha512>(c, "x448");

    typed_kem::<DhKemP256HkdfSha256>(c, "p256");
    ng::kem::<hpke_ng::DhKemP256HkdfSha256>(c, "p256");
    rh::kem::<rk::DhP256HkdfSha256>(c, "p256");
    rs::kem(c, "p256", 0x0010, 0x0001, 32);

    typed_kem::<DhKemP384HkdfSha384>(c, "p384");
    ng::kem::<hpke_ng::DhKemP384HkdfSha384>(c, "p384");
    rh::kem::<rk::DhP384HkdfSha384>(c, "p384");
    rs::kem(c, "p384", 0x0011, 0x0002, 48);

    typed_kem::<DhKemP521HkdfSha512>(c, "p521");
    ng::kem::<hpke_ng::DhKemP521HkdfSha512>(c, "p521");
    rh::kem::<rk::DhP521HkdfSha512>(c, "p521");

    typed_kem::<DhKemSecp256k1HkdfSha256>(c, "k256");
    ng::kem::<hpke_ng::DhKemK256HkdfSha256>(c, "k256");
    rs::kem(c, "k256", 0x0016, 0x0001, 32);

    typed_kem::<MlKem512>(c, "mlkem512");

    typed_kem::<MlKem768>(c, "mlkem768");
    ng::kem::<hpke_ng::MlKem768>(c, "mlkem768");
    rh::kem::<rk::MlKem768>(c, "mlkem768");
    rs::kem(c, "mlkem768", 0x0041, 0x0001, 32);

    typed_kem::<MlKem1024>(c, "mlkem1024");
    ng::kem::<hpke_ng::MlKem1024>(c, "mlkem1024");
    rh::kem::<rk::MlKem1024>(c, "mlkem1024");
    rs::kem(c, "mlkem1024", 0x0042, 0x0001, 32);

    typed_kem::<XWing>(c, "xwing");
    ng::kem::<hpke_ng::XWingDraft06>(c, "xwing");
    rh::kem::<rk::XWing>(c, "xwing");
    rs::kem(c, "xwing", 0x647a, 0x0001, 32);

    typed_kem::<MlKem768P256>(c, "mlkem768p256");
    rh::kem::<rk::MlKem768P256>(c, "mlkem768p256");

    typed_kem::<MlKem1024P384>(c, "mlkem1024p384");
    rh::kem::<rk::MlKem1024P384>(c, "mlkem1024p384");
}

const BASE: &[Mode] = &[Mode::Base];
const BASE_PSK: &[Mode] = &[Mode::Base, Mode::Psk];
const AUTH: &[Mode] = &[Mode::Auth, Mode::AuthPsk];
const ALL: &[Mode] = &[Mode::Base, Mode::Psk, Mode::Auth, Mode::AuthPsk];

fn setups(c: &mut Criterion) {
    use hpke::{aead as ra, kdf as rf, kem as rk};
    use hpke_ng as n;

    // X25519 + HKDF-SHA256 + ChaCha20-Poly1305: every mode, every crate.
    let s = "x25519-sha256-chacha20";
    typed_setup::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>(c, s, ALL);
    ng::setup::<n::DhKemX25519HkdfSha256, n::HkdfSha256, n::ChaCha20Poly1305>(c, s, BASE_PSK);
    ng::auth::<n::DhKemX25519HkdfSha256, n::HkdfSha256, n::ChaCha20Poly1305>(c, s, AUTH);
    rh::setup::<rk::X25519HkdfSha256, rf::HkdfSha256, ra::ChaCha20Poly1305>(c, s, ALL);
    rs::setup(c, s, (0x0020, 0x0001, 0x0003), 32, ALL);

    for (s, aead) in [
        ("x25519-sha256-aes128", 0x0001),
        ("x25519-sha256-aes256", 0x0002),
    ] {
        if aead == 0x0001 {
            typed_setup::<DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm>(c, s, BASE);
            ng::setup::<n::DhKemX25519HkdfSha256, n::HkdfSha256, n::Aes128Gcm>(c, s, BASE);
            rh::setup::<rk::X25519HkdfSha256, rf::HkdfSha256, ra::AesGcm128>(c, s, BASE);
        } else {
            typed_setup::<DhKemX25519HkdfSha256, HkdfSha256, Aes256Gcm>(c, s, BASE);
            ng::setup::<n::DhKemX25519HkdfSha256, n::HkdfSha256, n::Aes256Gcm>(c, s, BASE);
            rh::setup::<rk::X25519HkdfSha256, rf::HkdfSha256, ra::AesGcm256>(c, s, BASE);
        }
        rs::setup(c, s, (0x0020, 0x0001, aead), 32, BASE);
    }

    let s = "p256-sha256-aes128";
    typed_setup::<DhKemP256HkdfSha256, HkdfSha256, Aes128Gcm>(c, s, &[Mode::Base, Mode::Auth]);
    ng::setup::<n::DhKemP256HkdfSha256, n::HkdfSha256, n::Aes128Gcm>(c, s, BASE);
    ng::auth::<n::DhKemP256HkdfSha256, n::HkdfSha256, n::Aes128Gcm>(c, s, &[Mode::Auth]);
    rh::setup::<rk::DhP256HkdfSha256, rf::HkdfSha256, ra::AesGcm128>(
        c,
        s,
        &[Mode::Base, Mode::Auth],
    );
    rs::setup(
        c,
        s,
        (0x0010, 0x0001, 0x0001),
        32,
        &[Mode::Base, Mode::Auth],
    );

    let s = "p256-sha256-aes256";
    typed_setup::<DhKemP256HkdfSha256, HkdfSha256, Aes256Gcm>(c, s, BASE);
    ng::setup::<n::DhKemP256HkdfSha256, n::HkdfSha256, n::Aes256Gcm>(c, s, BASE);
    rh::setup::<rk::DhP256HkdfSha256, rf::HkdfSha256, ra::AesGcm256>(c, s, BASE);
    rs::setup(c, s, (0x0010, 0x0001, 0x0002), 32, BASE);

    let s = "k256-sha256-chacha20";
    typed_setup::<DhKemSecp256k1HkdfSha256, HkdfSha256, ChaCha20Poly1305>(c, s, BASE);
    ng::setup::<n::DhKemK256HkdfSha256, n::HkdfSha256, n::ChaCha20Poly1305>(c, s, BASE);
    rs::setup(c, s, (0x0016, 0x0001, 0x0003), 32, BASE);

    let s = "x448-sha512-chacha20";
    typed_setup::<DhKemX448HkdfSha512, HkdfSha512, ChaCha20Poly1305>(c, s, BASE);
    ng::setup::<n::DhKemX448HkdfSha512, n::HkdfSha512, n::ChaCha20Poly1305>(c, s, BASE);

    let s = "p384-sha384-aes256";
    typed_setup::<DhKemP384HkdfSha384, HkdfSha384, Aes256Gcm>(c, s, &[Mode::Base, Mode::Auth]);
    ng::setup::<n::DhKemP384HkdfSha384, n::HkdfSha384, n::Aes256Gcm>(c, s, BASE);
    ng::auth::<n::DhKemP384HkdfSha384, n::HkdfSha384, n::Aes256Gcm>(c, s, &[Mode::Auth]);
    rh::setup::<rk::DhP384HkdfSha384, rf::HkdfSha384, ra::AesGcm256>(
        c,
        s,
        &[Mode::Base, Mode::Auth],
    );
    rs::setup(
        c,
        s,
        (0x0011, 0x0002, 0x0002),
        48,
        &[Mode::Base, Mode::Auth],
    );

    let s = "p521-sha512-aes256";
    typed_setup::<DhKemP521HkdfSha512, HkdfSha512, Aes256Gcm>(c, s, BASE);
    ng::setup::<n::DhKemP521HkdfSha512, n::HkdfSha512, n::Aes256Gcm>(c, s, BASE);
    rh::setup::<rk::DhP521HkdfSha512, rf::HkdfSha512, ra::AesGcm256>(c, s, BASE);

    let s = "xwing-sha256-chacha20";
    typed_setup::<XWing, HkdfSha256, ChaCha20Poly1305>(c, s, BASE_PSK);
    ng::setup::<n::XWingDraft06, n::HkdfSha256, n::ChaCha20Poly1305>(c, s, BASE_PSK);
    rh::setup::<rk::XWing, rf::HkdfSha256, ra::ChaCha20Poly1305>(c, s, BASE_PSK);
    rs::setup(c, s, (0x647a, 0x0001, 0x0003), 32, BASE_PSK);

    let s = "mlkem768-sha256-chacha20";
    typed_setup::<MlKem768, HkdfSha256, ChaCha20Poly1305>(c, s, BASE);
    ng::setup::<n::MlKem768, n::HkdfSha256, n::ChaCha20Poly1305>(c, s, BASE);
    rh::setup::<rk::MlKem768, rf::HkdfSha256, ra::ChaCha20Poly1305>(c, s, BASE);
    rs::setup(c, s, (0x0041, 0x0001, 0x0003), 32, BASE);

    let s = "mlkem1024-sha384-chacha20";
    typed_setup::<MlKem1024, HkdfSha384, ChaCha20Poly1305>(c, s, BASE);
    ng::setup::<n::MlKem1024, n::HkdfSha384, n::ChaCha20Poly1305>(c, s, BASE);
    rh::setup::<rk::MlKem1024, rf::HkdfSha384, ra::ChaCha20Poly1305>(c, s, BASE);
    rs::setup(c, s, (0x0042, 0x0002, 0x0003), 32, BASE);

    typed_setup::<MlKem512, HkdfSha256, ChaCha20Poly1305>(c, "mlkem512-sha256-chacha20", BASE);

    let s = "mlkem768p256-sha256-chacha20";
    typed_setup::<MlKem768P256, HkdfSha256, ChaCha20Poly1305>(c, s, BASE);
    rh::setup::<rk::MlKem768P256, rf::HkdfSha256, ra::ChaCha20Poly1305>(c, s, BASE);

    let s = "mlkem1024p384-sha384-aes256";
    typed_setup::<MlKem1024P384, HkdfSha384, Aes256Gcm>(c, s, BASE);
    rh::setup::<rk::MlKem1024P384, rf::HkdfSha384, ra::AesGcm256>(c, s, BASE);

    // The one-stage KDFs (only rust-hpke has them among the peers).
    let s = "xwing-shake256-chacha20";
    typed_setup::<XWing, Shake256, ChaCha20Poly1305>(c, s, BASE);
    rh::setup::<rk::XWing, rf::KdfShake256, ra::ChaCha20Poly1305>(c, s, BASE);
    let s = "x25519-shake128-chacha20";
    typed_setup::<DhKemX25519HkdfSha256, Shake128, ChaCha20Poly1305>(c, s, BASE);
    rh::setup::<rk::X25519HkdfSha256, rf::KdfShake128, ra::ChaCha20Poly1305>(c, s, BASE);
    let s = "x25519-turboshake128-chacha20";
    typed_setup::<DhKemX25519HkdfSha256, TurboShake128, ChaCha20Poly1305>(c, s, BASE);
    rh::setup::<rk::X25519HkdfSha256, rf::KdfTurboShake128, ra::ChaCha20Poly1305>(c, s, BASE);
}

fn messages(c: &mut Criterion) {
    use hpke::{aead as ra, kdf as rf, kem as rk};
    use hpke_ng as n;
    let s = "x25519-sha256-chacha20";
    typed_messages::<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>(c, s, SEAL_SIZES, true);
    ng::messages::<n::DhKemX25519HkdfSha256, n::HkdfSha256, n::ChaCha20Poly1305>(
        c, s, SEAL_SIZES, true,
    );
    rh::messages::<rk::X25519HkdfSha256, rf::HkdfSha256, ra::ChaCha20Poly1305>(
        c, s, SEAL_SIZES, true,
    );
    rs::messages(c, s, (0x0020, 0x0001, 0x0003), SEAL_SIZES, true);

    let s = "x25519-sha256-aes128";
    typed_messages::<DhKemX25519HkdfSha256, HkdfSha256, Aes128Gcm>(c, s, SWEEP_SIZES, false);
    ng::messages::<n::DhKemX25519HkdfSha256, n::HkdfSha256, n::Aes128Gcm>(c, s, SWEEP_SIZES, false);
    rh::messages::<rk::X25519HkdfSha256, rf::HkdfSha256, ra::AesGcm128>(c, s, SWEEP_SIZES, false);
    rs::messages(c, s, (0x0020, 0x0001, 0x0001), SWEEP_SIZES, false);
    let _ = ExportOnly;
}

criterion::criterion_group! {
    name = comparative;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(400))
        .measurement_time(Duration::from_millis(1500))
        .nresamples(20_000)
        .without_plots();
    targets = kems, setups, messages
}
criterion::criterion_main!(comparative);
