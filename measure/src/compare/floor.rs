//! The floor: the primitive calls typed-hpke itself makes (the same crates: curve25519-dalek,
//! x448, p256/p384/p521/k256, libcrux-ml-kem, RustCrypto sha3 / hkdf / sha2 / shake /
//! turboshake, aes-gcm, chacha20poly1305), in the order the RFC makes them, with no HPKE
//! plumbing around them. "over floor" measures framing.
//!
//! Floors run on fixed keys of their own, not the fixture's, and are not checked against
//! typed-hpke: they stop short of the HPKE encodings that a check would need.
//!
//! Built with the `graviola` feature, the context rows' floor is graviola's AEAD called bare
//! (`graviola_floor`), the primitive typed-hpke's context then runs; every other row's floor
//! still calls the pure-Rust crates.

use std::hint::black_box;

use typed_hpke::aead::{Aead, Aes128Gcm, Aes256Gcm, ChaCha20Poly1305, SealingAead};
use typed_hpke::kdf::{
    HkdfSha256, HkdfSha384, HkdfSha512, Kdf, Shake128, Shake256, TurboShake128, TurboShake256,
};
use typed_hpke::kem::{
    DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512, DhKemSecp256k1HkdfSha256,
    DhKemX448HkdfSha512, DhKemX25519HkdfSha256, Kem, MlKem512, MlKem768, MlKem768P256, MlKem1024,
    MlKem1024P384, XWing,
};

use crate::compare::driver::{
    AAD, EXPORTER, Fixture, INFO, Job, Mode, Op, PSK, PSK_ID, Row, timed,
};

pub const NAME: &str = "floor";

mod prim {
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
        let prk = labeled_mac::<H>(salt, suite, label, ikm)
            .finalize()
            .into_bytes();
        Hkdf::<H>::from_prk(&prk).unwrap()
    }

    /// HMAC(salt, "HPKE-v1" || suite || label || ikm...): LabeledExtract's one call.
    fn labeled_mac<H: EagerHash>(
        salt: &[u8],
        suite: &[u8],
        label: &[u8],
        ikm: &[&[u8]],
    ) -> Hmac<H> {
        let mut mac = <Hmac<H> as KeyInit>::new_from_slice(salt).unwrap();
        for p in [V1, suite, label].iter().chain(ikm) {
            Mac::update(&mut mac, p);
        }
        mac
    }

    fn extract_bytes<H: EagerHash>(
        salt: &[u8],
        suite: &[u8],
        label: &[u8],
        ikm: &[&[u8]],
    ) -> ([u8; 64], usize) {
        let tag = labeled_mac::<H>(salt, suite, label, ikm)
            .finalize()
            .into_bytes();
        let mut out = [0u8; 64];
        out[..tag.len()].copy_from_slice(&tag);
        (out, tag.len())
    }

    pub fn expand<H: EagerHash>(
        prk: &Hkdf<H>,
        suite: &[u8],
        label: &[u8],
        info: &[&[u8]],
        out: &mut [u8],
    ) {
        let len = (out.len() as u16).to_be_bytes();
        let mut pieces: [&[u8]; 8] = [&[]; 8];
        pieces[..4].copy_from_slice(&[&len, V1, suite, label]);
        pieces[4..4 + info.len()].copy_from_slice(info);
        prk.expand_multi_info(&pieces[..4 + info.len()], out)
            .unwrap();
    }

    /// LabeledExpand(exporter_secret, "sec", exporter_context, L) (RFC 9180 §5.3).
    pub fn export_two_stage<H: EagerHash>(suite: &[u8], secret: &[u8], ctx: &[u8], out: &mut [u8]) {
        let prk = Hkdf::<H>::from_prk(secret).unwrap();
        expand::<H>(&prk, suite, b"sec", &[ctx], out);
    }

    /// LabeledDerive(exporter_secret, "sec", exporter_context, L) (draft-ietf-hpke-pq): one
    /// XOF call.
    pub fn export_one_stage<X: Default + Update + ExtendableOutput>(
        suite: &[u8],
        secret: &[u8],
        ctx: &[u8],
        out: &mut [u8],
    ) {
        let mut x = X::default();
        x.update(&(secret.len() as u16).to_be_bytes());
        x.update(secret);
        x.update(V1);
        x.update(suite);
        x.update(&3u16.to_be_bytes());
        x.update(b"sec");
        x.update(&(out.len() as u16).to_be_bytes());
        x.update(ctx);
        x.finalize_xof().read(out);
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

    pub fn hpke_suite(kem: u16, kdf: u16, aead: u16) -> [u8; 10] {
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
        let ctx: [&[u8]; 3] = [
            &[mode],
            &psk_id_hash.0[..psk_id_hash.1],
            &info_hash.0[..info_hash.1],
        ];
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

struct DhState<G: prim::Dh> {
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
                use prim::Dh;
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
                use prim::Dh;
                // skE, pkE = GenerateKeyPair(); dh = DH(skE, pkR) [|| DH(skS, pkR)]
                let enc = <$g>::public(black_box(&s.sk_e));
                let dh = <$g>::dh(&s.sk_e, black_box(&s.pt_r));
                match &s.sender {
                    None => prim::extract_and_expand::<$h>(Self::ID, &[&dh], &[&enc, &s.pk_r]),
                    Some((sk_s, pk_s, _)) => {
                        let dh2 = <$g>::dh(black_box(sk_s), &s.pt_r);
                        prim::extract_and_expand::<$h>(
                            Self::ID,
                            &[&dh, &dh2],
                            &[&enc, &s.pk_r, pk_s],
                        )
                    }
                }
            }
            fn floor_decap(s: &Self::State) -> [u8; 64] {
                use prim::Dh;
                let pt_e = <$g>::parse(black_box(&s.enc));
                let dh = <$g>::dh(black_box(&s.sk_r), &pt_e);
                match &s.sender {
                    None => prim::extract_and_expand::<$h>(Self::ID, &[&dh], &[&s.enc, &s.pk_r]),
                    Some((_, pk_s, pt_s)) => {
                        let dh2 = <$g>::dh(&s.sk_r, black_box(pt_s));
                        prim::extract_and_expand::<$h>(
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

dh_floor!(DhKemX25519HkdfSha256, prim::X25519, sha2::Sha256);
dh_floor!(DhKemX448HkdfSha512, prim::X448, sha2::Sha512);
dh_floor!(DhKemP256HkdfSha256, prim::P256, sha2::Sha256);
dh_floor!(DhKemP384HkdfSha384, prim::P384, sha2::Sha384);
dh_floor!(DhKemP521HkdfSha512, prim::P521, sha2::Sha512);
dh_floor!(DhKemSecp256k1HkdfSha256, prim::K256, sha2::Sha256);

/// ML-KEM called bare on libcrux, as typed-hpke's libcrux backend calls it: the unpacked key pair and
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
                use prim::Dh;
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
                use prim::Dh;
                let ss_m = s.0.encap();
                let ct_t = <$g>::public(black_box(&s.1.sk_e));
                let ss_t = <$g>::dh(&s.1.sk_e, black_box(&s.1.pt_r));
                let mut out = [0u8; 64];
                out[..32].copy_from_slice(&prim::combine(&ss_m, &ss_t, &ct_t, &s.1.pk_r, $label));
                out
            }
            fn floor_decap(s: &Self::State) -> [u8; 64] {
                use prim::Dh;
                let ss_m = s.0.decap();
                let pt_e = <$g>::parse(black_box(&s.1.enc));
                let ss_t = <$g>::dh(black_box(&s.1.sk_r), &pt_e);
                let mut out = [0u8; 64];
                out[..32]
                    .copy_from_slice(&prim::combine(&ss_m, &ss_t, &s.1.enc, &s.1.pk_r, $label));
                out
            }
        }
    };
}

hybrid_floor!(XWing, libcrux_floor::MlKem768, prim::X25519, b"\\.//^\\");
hybrid_floor!(
    MlKem768P256,
    libcrux_floor::MlKem768,
    prim::P256,
    b"MLKEM768-P256"
);
hybrid_floor!(
    MlKem1024P384,
    libcrux_floor::MlKem1024,
    prim::P384,
    b"MLKEM1024-P384"
);

/// The key schedule's floor for a KDF.
trait KdfFloor: Kdf {
    fn schedule(ids: (u16, u16, u16), mode: Mode, ss: &[u8], nk: usize, nn: usize) -> [u8; 160];
    fn export(suite: &[u8], secret: &[u8], ctx: &[u8], out: &mut [u8]);
}

macro_rules! two_stage_floor {
    ($($kdf:ty => $h:ty),*) => {$(
        impl KdfFloor for $kdf {
            fn schedule(ids: (u16, u16, u16), mode: Mode, ss: &[u8], nk: usize, nn: usize) -> [u8; 160] {
                let (psk, psk_id): (&[u8], &[u8]) = if mode.psk() { (PSK, PSK_ID) } else { (&[], &[]) };
                prim::schedule_two_stage::<$h>(ids, mode.id(), ss, black_box(INFO), psk, psk_id, nk, nn)
            }
            fn export(suite: &[u8], secret: &[u8], ctx: &[u8], out: &mut [u8]) {
                prim::export_two_stage::<$h>(suite, secret, ctx, out)
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
                prim::schedule_one_stage::<$x>(ids, mode.id(), ss, black_box(INFO), psk, psk_id, nk + nn + $nh)
            }
            fn export(suite: &[u8], secret: &[u8], ctx: &[u8], out: &mut [u8]) {
                prim::export_one_stage::<$x>(suite, secret, ctx, out)
            }
        }
    )*};
}
one_stage_floor!(
    Shake128 => shake::Shake128, 32,
    Shake256 => shake::Shake256, 64,
    TurboShake128 => turboshake::TurboShake128, 32,
    TurboShake256 => turboshake::TurboShake256, 64
);

fn aead_sizes(aead: u16) -> (usize, usize) {
    match aead {
        0x0001 => (16, 12),
        0x0002 | 0x0003 => (32, 12),
        _ => (0, 0),
    }
}

/// The AEAD called bare: seal into (or open from) a buffer kept across calls, with the nonce
/// XORed with a counting sequence number as a context's is.
mod aead_floor {
    use aes_gcm::aead::{AeadInOut, KeyInit};
    use std::hint::black_box;

    pub trait Cipher: AeadInOut + KeyInit + 'static {}
    impl<C: AeadInOut + KeyInit + 'static> Cipher for C {}

    /// Up to this many bytes typed-hpke's default backend seals and opens ChaCha20-Poly1305
    /// with libcrux's (`SHORT_MAX` in its `src/aead/chacha20poly1305.rs`).
    pub const LIBCRUX_TO: usize = 1536;

    /// libcrux-chacha20poly1305 as typed-hpke calls it for short messages: libcrux encrypts
    /// from one slice into another, so in place goes through a stack scratch buffer.
    pub struct LibcruxChaCha([u8; 32]);

    impl aes_gcm::aead::KeySizeUser for LibcruxChaCha {
        type KeySize = aes_gcm::aead::consts::U32;
    }
    impl KeyInit for LibcruxChaCha {
        fn new(key: &aes_gcm::aead::Key<Self>) -> Self {
            Self(key.0)
        }
    }
    impl aes_gcm::aead::AeadCore for LibcruxChaCha {
        type NonceSize = aes_gcm::aead::consts::U12;
        type TagSize = aes_gcm::aead::consts::U16;
        const TAG_POSITION: aes_gcm::aead::TagPosition = aes_gcm::aead::TagPosition::Postfix;
    }
    impl AeadInOut for LibcruxChaCha {
        fn encrypt_inout_detached(
            &self,
            nonce: &aes_gcm::aead::Nonce<Self>,
            aad: &[u8],
            mut buffer: aes_gcm::aead::inout::InOutBuf<'_, '_, u8>,
        ) -> aes_gcm::aead::Result<aes_gcm::aead::Tag<Self>> {
            let mut scratch = [0u8; LIBCRUX_TO];
            let ct = &mut scratch[..buffer.len()];
            let mut tag = aes_gcm::aead::Tag::<Self>::default();
            libcrux_chacha20poly1305::encrypt_detached(
                &self.0,
                buffer.get_in(),
                ct,
                &mut tag.0,
                aad,
                &nonce.0,
            )
            .map_err(|_| aes_gcm::aead::Error)?;
            buffer.get_out().copy_from_slice(ct);
            Ok(tag)
        }
        fn decrypt_inout_detached(
            &self,
            nonce: &aes_gcm::aead::Nonce<Self>,
            aad: &[u8],
            mut buffer: aes_gcm::aead::inout::InOutBuf<'_, '_, u8>,
            tag: &aes_gcm::aead::Tag<Self>,
        ) -> aes_gcm::aead::Result<()> {
            let mut scratch = [0u8; LIBCRUX_TO];
            let ct = &mut scratch[..buffer.len()];
            ct.copy_from_slice(buffer.get_in());
            libcrux_chacha20poly1305::decrypt_detached(
                &self.0,
                buffer.get_out(),
                ct,
                &tag.0,
                aad,
                &nonce.0,
            )
            .map(|_| ())
            .map_err(|_| aes_gcm::aead::Error)
        }
    }

    pub(super) fn nonce<C: Cipher>(seq: u64) -> aes_gcm::aead::Nonce<C> {
        let mut n = aes_gcm::aead::Nonce::<C>::default();
        n.iter_mut().for_each(|b| *b = 0x24);
        let at = n.len() - 8;
        for (b, s) in n[at..].iter_mut().zip(seq.to_be_bytes()) {
            *b ^= s;
        }
        n
    }

    /// As typed-hpke's context seal: a new `Vec` per message, the plaintext copied in, sealed in
    /// place, the tag appended.
    pub fn seal<C: Cipher>(pt: Vec<u8>) -> crate::compare::driver::Job {
        let cipher = C::new_from_slice(&[0x33; 32][..C::key_size()]).unwrap();
        let mut seq = 0u64;
        crate::compare::driver::timed(move || {
            let mut out = Vec::with_capacity(pt.len() + 16);
            out.extend_from_slice(black_box(&pt));
            let tag = cipher
                .encrypt_inout_detached(&nonce::<C>(seq), super::AAD, out.as_mut_slice().into())
                .unwrap();
            out.extend_from_slice(&tag);
            seq += 1;
            out
        })
    }

    /// As typed-hpke's context open (`driver::open_fresh`): a fresh ciphertext per call, copied
    /// into a new `Vec` and opened in place there.
    pub fn open<C: Cipher>(pt: Vec<u8>) -> crate::compare::driver::Job {
        let cipher = C::new_from_slice(&[0x33; 32][..C::key_size()]).unwrap();
        crate::compare::driver::open_fresh(
            pt,
            cipher,
            |cipher: &C, seq, ct| {
                let tag = cipher
                    .encrypt_inout_detached(&nonce::<C>(seq), super::AAD, ct.as_mut_slice().into())
                    .unwrap();
                ct.extend_from_slice(&tag);
            },
            |cipher: &C, seq, out, tag| {
                cipher
                    .decrypt_inout_detached(
                        &nonce::<C>(seq),
                        super::AAD,
                        out.into(),
                        tag.try_into().unwrap(),
                    )
                    .unwrap();
            },
        )
    }
}

/// With the `graviola` feature (and not `aws-lc-rs`) the context rows' floor is graviola called
/// bare, in the shape of typed-hpke's context on that backend: the seal into a new `Vec` with the
/// tag appended, the open on a copy in place (graviola has no out-of-place call). typed / floor
/// on those rows is then typed-hpke's own per-message work over the primitive it runs.
#[cfg(all(feature = "graviola", not(feature = "aws-lc-rs")))]
mod graviola_floor {
    use graviola::aead::{AesGcm, ChaCha20Poly1305};
    use std::hint::black_box;

    /// AES-GCM boxed, as typed-hpke holds it (its key is 64-byte aligned).
    enum Key {
        Gcm(Box<AesGcm>),
        ChaCha(ChaCha20Poly1305),
    }

    impl Key {
        fn new(aead: u16) -> Self {
            match aead {
                0x0001 => Self::Gcm(Box::new(AesGcm::new(&[0x33; 16]))),
                0x0002 => Self::Gcm(Box::new(AesGcm::new(&[0x33; 32]))),
                _ => Self::ChaCha(ChaCha20Poly1305::new([0x33; 32])),
            }
        }

        fn seal(&self, seq: u64, buf: &mut [u8], tag: &mut [u8; 16]) {
            match self {
                Self::Gcm(k) => k.encrypt(&nonce(seq), super::AAD, buf, tag),
                Self::ChaCha(k) => k.encrypt(&nonce(seq), super::AAD, buf, tag),
            }
        }

        fn open(&self, seq: u64, buf: &mut [u8], tag: &[u8]) {
            match self {
                Self::Gcm(k) => k.decrypt(&nonce(seq), super::AAD, buf, tag),
                Self::ChaCha(k) => k.decrypt(&nonce(seq), super::AAD, buf, tag),
            }
            .unwrap()
        }
    }

    /// The RustCrypto floor's nonce (every AEAD here has Nn = 12).
    fn nonce(seq: u64) -> [u8; 12] {
        super::aead_floor::nonce::<aes_gcm::Aes128Gcm>(seq).into()
    }

    pub fn seal(aead: u16, pt: Vec<u8>) -> crate::compare::driver::Job {
        let key = Key::new(aead);
        let mut seq = 0u64;
        crate::compare::driver::timed(move || {
            let mut out = Vec::with_capacity(pt.len() + 16);
            out.extend_from_slice(black_box(&pt));
            let mut tag = [0u8; 16];
            key.seal(seq, &mut out, &mut tag);
            out.extend_from_slice(&tag);
            seq += 1;
            out
        })
    }

    pub fn open(aead: u16, pt: Vec<u8>) -> crate::compare::driver::Job {
        crate::compare::driver::open_fresh(
            pt,
            Key::new(aead),
            |key: &Key, seq, ct| {
                let mut tag = [0u8; 16];
                key.seal(seq, ct, &mut tag);
                ct.extend_from_slice(&tag);
            },
            |key: &Key, seq, out, tag| key.open(seq, out, tag),
        )
    }
}

/// Maps literal ids to typed-hpke's types and calls `$func::<K, F, A>(args..)`: the floor is
/// written per KEM and KDF (`KemFloor`, `KdfFloor` above), so it names their types itself.
macro_rules! floor_call {
    (@ $k:ty, 0x0001, $($rest:tt)*) => { floor_call!(@@ $k, HkdfSha256, $($rest)*) };
    (@ $k:ty, 0x0002, $($rest:tt)*) => { floor_call!(@@ $k, HkdfSha384, $($rest)*) };
    (@ $k:ty, 0x0003, $($rest:tt)*) => { floor_call!(@@ $k, HkdfSha512, $($rest)*) };
    (@ $k:ty, 0x0010, $($rest:tt)*) => { floor_call!(@@ $k, Shake128, $($rest)*) };
    (@ $k:ty, 0x0011, $($rest:tt)*) => { floor_call!(@@ $k, Shake256, $($rest)*) };
    (@ $k:ty, 0x0012, $($rest:tt)*) => { floor_call!(@@ $k, TurboShake128, $($rest)*) };
    (@ $k:ty, 0x0013, $($rest:tt)*) => { floor_call!(@@ $k, TurboShake256, $($rest)*) };
    (@@ $k:ty, $f:ty, 0x0001, $func:ident, $($arg:expr),*) => { $func::<$k, $f, Aes128Gcm>($($arg),*) };
    (@@ $k:ty, $f:ty, 0x0002, $func:ident, $($arg:expr),*) => { $func::<$k, $f, Aes256Gcm>($($arg),*) };
    (@@ $k:ty, $f:ty, 0x0003, $func:ident, $($arg:expr),*) => { $func::<$k, $f, ChaCha20Poly1305>($($arg),*) };
    (0x0020, $($rest:tt)*) => { floor_call!(@ DhKemX25519HkdfSha256, $($rest)*) };
    (0x0021, $($rest:tt)*) => { floor_call!(@ DhKemX448HkdfSha512, $($rest)*) };
    (0x0010, $($rest:tt)*) => { floor_call!(@ DhKemP256HkdfSha256, $($rest)*) };
    (0x0011, $($rest:tt)*) => { floor_call!(@ DhKemP384HkdfSha384, $($rest)*) };
    (0x0012, $($rest:tt)*) => { floor_call!(@ DhKemP521HkdfSha512, $($rest)*) };
    (0x0016, $($rest:tt)*) => { floor_call!(@ DhKemSecp256k1HkdfSha256, $($rest)*) };
    (0x0040, $($rest:tt)*) => { floor_call!(@ MlKem512, $($rest)*) };
    (0x0041, $($rest:tt)*) => { floor_call!(@ MlKem768, $($rest)*) };
    (0x0042, $($rest:tt)*) => { floor_call!(@ MlKem1024, $($rest)*) };
    (0x647a, $($rest:tt)*) => { floor_call!(@ XWing, $($rest)*) };
    (0x0050, $($rest:tt)*) => { floor_call!(@ MlKem768P256, $($rest)*) };
    (0x0051, $($rest:tt)*) => { floor_call!(@ MlKem1024P384, $($rest)*) };
}

pub fn peer(row: &Row, fix: &Fixture) -> Option<Job> {
    for_suite!(row.ids, floor_call, job, row, fix)
}

fn job<K: Kem + KemFloor, F: Kdf + KdfFloor, A: SealingAead>(
    row: &Row,
    fix: &Fixture,
) -> Option<Job> {
    // The floor is the unprepared primitives' cost; a prepared row has no floor of its own.
    if row.prepared {
        return None;
    }
    let _ = <A as Aead>::ID;
    let ids = row.ids;
    let (nk, nn) = aead_sizes(ids.2);
    let mode = row.mode();
    Some(match row.op {
        Op::Encap | Op::AuthEncap => {
            let state = K::prepare(mode.auth());
            timed(move || K::floor_encap(&state))
        }
        Op::Decap | Op::AuthDecap => {
            let state = K::prepare(mode.auth());
            timed(move || K::floor_decap(&state))
        }
        Op::SetupSender(_) => {
            let state = K::prepare(mode.auth());
            timed(move || {
                let ss = K::floor_encap(&state);
                F::schedule(ids, mode, &ss[..32], nk, nn)
            })
        }
        Op::SetupReceiver(_) => {
            let state = K::prepare(mode.auth());
            timed(move || {
                let ss = K::floor_decap(&state);
                F::schedule(ids, mode, &ss[..32], nk, nn)
            })
        }
        Op::ContextSeal(_) | Op::ContextOpen(_) => {
            let seal = matches!(row.op, Op::ContextSeal(_));
            let pt = fix.pt.clone();
            #[cfg(all(feature = "graviola", not(feature = "aws-lc-rs")))]
            if matches!(ids.2, 0x0001..=0x0003) {
                return Some(if seal {
                    graviola_floor::seal(ids.2, pt)
                } else {
                    graviola_floor::open(ids.2, pt)
                });
            }
            match (ids.2, seal) {
                (0x0001, true) => aead_floor::seal::<aes_gcm::Aes128Gcm>(pt),
                (0x0001, false) => aead_floor::open::<aes_gcm::Aes128Gcm>(pt),
                (0x0002, true) => aead_floor::seal::<aes_gcm::Aes256Gcm>(pt),
                (0x0002, false) => aead_floor::open::<aes_gcm::Aes256Gcm>(pt),
                // typed-hpke's default backend: libcrux's cipher to 1.5 KiB, RustCrypto's above.
                (0x0003, true) if pt.len() <= aead_floor::LIBCRUX_TO => {
                    aead_floor::seal::<aead_floor::LibcruxChaCha>(pt)
                }
                (0x0003, false) if pt.len() <= aead_floor::LIBCRUX_TO => {
                    aead_floor::open::<aead_floor::LibcruxChaCha>(pt)
                }
                (0x0003, true) => aead_floor::seal::<chacha20poly1305::ChaCha20Poly1305>(pt),
                (0x0003, false) => aead_floor::open::<chacha20poly1305::ChaCha20Poly1305>(pt),
                _ => return None,
            }
        }
        Op::Export(n) => {
            let suite = prim::hpke_suite(ids.0, ids.1, ids.2);
            let secret = [0x44u8; 64];
            let nh = <F::Nh as typed_hpke::hybrid_array::typenum::Unsigned>::USIZE;
            let mut out = vec![0u8; n];
            timed(move || {
                F::export(
                    &suite,
                    black_box(&secret[..nh]),
                    black_box(EXPORTER),
                    &mut out,
                )
            })
        }
        _ => return None,
    })
}
