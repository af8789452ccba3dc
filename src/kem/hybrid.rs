//! The PQ/T hybrid KEMs of draft-ietf-hpke-pq §4: X-Wing (MLKEM768-X25519, 0x647a),
//! MLKEM768-P256 (0x0050) and MLKEM1024-P384 (0x0051), built from ML-KEM and the traditional
//! group as draft-irtf-cfrg-hybrid-kems and draft-connolly-cfrg-xwing-kem define them.
//!
//! The private key is the 32-byte seed, held beside everything decapsulation needs: the
//! expanded ML-KEM decapsulation key, the traditional secret scalar and the traditional public
//! key. Decapsulation therefore does no SHAKE expansion, no ML-KEM key generation and no
//! base-point multiplication (the `x-wing` crate does all three on every call).

use hkdf::hmac::digest::{ExtendableOutput, Update, XofReader};
use hybrid_array::{Array, ArraySize};
use sha3::Digest;
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::dhkem::DhGroup;
use crate::sealed::DhEngine as _;

/// A hybrid private key: the seed and what it expands to.
#[doc(hidden)]
pub struct HybridPrivateKey<DK, EK, G: DhGroup, NPk: ArraySize> {
    seed: Zeroizing<[u8; 32]>,
    dk_m: DK,
    sk_t: G::Scalar,
    public: HybridPublicKey<EK, G, NPk>,
}

impl<DK: Clone, EK: Clone, G: DhGroup, NPk: ArraySize> Clone for HybridPrivateKey<DK, EK, G, NPk> {
    fn clone(&self) -> Self {
        Self {
            seed: self.seed.clone(),
            dk_m: self.dk_m.clone(),
            sk_t: self.sk_t.clone(),
            public: self.public.clone(),
        }
    }
}

impl<DK, EK, G: DhGroup, NPk: ArraySize> Drop for HybridPrivateKey<DK, EK, G, NPk> {
    fn drop(&mut self) {
        // The seed is `Zeroizing`, the ML-KEM key wipes itself; the scalar is ours to wipe.
        zeroize::Zeroize::zeroize(&mut self.sk_t);
    }
}

// The seed is `Zeroizing`, the scalar is wiped by `Drop` above; the ML-KEM key must wipe itself,
// and the bound makes the marker false if it stops doing so.
impl<DK: ZeroizeOnDrop, EK, G: DhGroup, NPk: ArraySize> ZeroizeOnDrop
    for HybridPrivateKey<DK, EK, G, NPk>
{
}

impl<DK, EK, G: DhGroup, NPk: ArraySize> core::fmt::Debug for HybridPrivateKey<DK, EK, G, NPk> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("HybridPrivateKey(<redacted>)")
    }
}

/// A hybrid public key: `pk_PQ || pk_T` beside both parsed halves.
#[doc(hidden)]
pub struct HybridPublicKey<EK, G: DhGroup, NPk: ArraySize> {
    ek_m: EK,
    pk_t: G::Point,
    bytes: Array<u8, NPk>,
}

impl<EK: Clone, G: DhGroup, NPk: ArraySize> Clone for HybridPublicKey<EK, G, NPk> {
    fn clone(&self) -> Self {
        Self {
            ek_m: self.ek_m.clone(),
            pk_t: self.pk_t.clone(),
            bytes: self.bytes.clone(),
        }
    }
}

impl<EK, G: DhGroup, NPk: ArraySize> HybridPublicKey<EK, G, NPk> {
    /// `pk_T`, the traditional half at the end of `pk = concat(pk_PQ, pk_T)`.
    fn pk_t_bytes(&self) -> &[u8] {
        let npk_t = <G::NPk as hybrid_array::typenum::Unsigned>::USIZE;
        &self.bytes[self.bytes.len() - npk_t..]
    }
}

impl<EK, G: DhGroup, NPk: ArraySize> core::fmt::Debug for HybridPublicKey<EK, G, NPk> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("HybridPublicKey")
            .field(&crate::util::Hex(&self.bytes))
            .finish()
    }
}

/// `Group.RandomScalar(seed)` (draft-irtf-cfrg-concrete-hybrid-kems §3.1): `seed` read as
/// consecutive `Nscalar`-byte big-endian candidates, the first one that is a valid scalar
/// (non-zero and below the group order) taken. `None` ("rejection sampling failed") when every
/// candidate is rejected, or when `seed` is empty or not a whole number of candidates. For
/// Curve25519 `Nseed = Nscalar = 32` and every candidate is valid: RandomScalar is the identity.
///
/// The number of candidates is therefore fixed by the seed length: `Group.Nseed / Nscalar`
/// when the KEM draws the seed itself (4 for P-256, 1 for P-384 and Curve25519).
fn random_scalar<G: DhGroup>(seed: &[u8]) -> Option<G::Scalar> {
    let nscalar = <G::NSk as hybrid_array::typenum::Unsigned>::USIZE;
    if seed.is_empty() || !seed.len().is_multiple_of(nscalar) {
        return None;
    }
    seed.chunks_exact(nscalar)
        .find_map(|candidate| G::Engine::scalar_from_bytes(candidate).ok())
}

/// The ML-KEM seed `d || z`, wiped on drop.
type MlKemSeed = Zeroizing<[u8; 64]>;

/// `expandKey(seed)`: `seed_full = SHAKE256(seed, KEM.Nseed + Group.Nseed)`, split into the
/// 64-byte ML-KEM seed `d || z` and `Group.Nseed` bytes for `Group.RandomScalar`. `None` when
/// RandomScalar fails (for P-256 all four candidates rejected, probability below 2^-128; for
/// P-384 its one candidate, below 2^-190).
fn expand_seed<G: DhGroup, NSeedT: ArraySize>(seed: &[u8; 32]) -> Option<(MlKemSeed, G::Scalar)> {
    let mut xof = shake::Shake256::default();
    xof.update(seed);
    let mut reader = xof.finalize_xof();
    let mut seed_m = MlKemSeed::new([0u8; 64]);
    reader.read(&mut seed_m[..]);
    let mut seed_t = Zeroizing::new(Array::<u8, NSeedT>::default());
    reader.read(&mut seed_t[..]);
    let sk_t = random_scalar::<G>(&seed_t)?;
    Some((seed_m, sk_t))
}

/// The combiner: `SHA3-256(ss_PQ || ss_T || ct_T || pk_T || label)`.
fn combine(
    ss_m: &[u8],
    ss_t: &[u8],
    ct_t: &[u8],
    pk_t: &[u8],
    label: &[u8],
) -> Array<u8, hybrid_array::sizes::U32> {
    let mut h = sha3::Sha3_256::new();
    Digest::update(&mut h, ss_m);
    Digest::update(&mut h, ss_t);
    Digest::update(&mut h, ct_t);
    Digest::update(&mut h, pk_t);
    Digest::update(&mut h, label);
    h.finalize()
}

/// A PQ/T hybrid KEM of draft-ietf-hpke-pq §4 as its two halves: the ML-KEM and the
/// traditional DH-KEM whose keys and encapsulations it concatenates (`pk = pk_PQ || pk_T`,
/// `enc = ct_PQ || ct_T`). What [`crate::kem::SplitHybrid`] needs to decapsulate with the halves
/// held apart. Sealed.
pub trait HybridKem: crate::kem::Kem {
    /// The ML-KEM half.
    type MlKem: crate::kem::Kem;
    /// The traditional half, as the DH-KEM over the same group.
    type Traditional: crate::kem::AuthKem;
    /// The combiner (draft-irtf-cfrg-hybrid-kems' `C2PRICombiner` as §4 instantiates it):
    /// `SHA3-256(ss_PQ || ss_T || ct_T || pk_T || label)`.
    #[doc(hidden)]
    fn combine_halves(
        ss_m: &[u8],
        ss_t: &[u8],
        ct_t: &[u8],
        pk_t: &[u8],
    ) -> crate::kem::SharedSecret<Self>;

    /// `pk = pk_PQ || pk_T` from the halves, both already validated: nothing is parsed again.
    #[doc(hidden)]
    fn join_public(
        pk_m: &crate::kem::PublicKey<Self::MlKem>,
        pk_t: &crate::kem::PublicKey<Self::Traditional>,
    ) -> crate::kem::PublicKey<Self>;

    /// The halves `expandKey(seed)` gave the key ([`crate::kem::PrivateKey::expanded_halves`]).
    #[doc(hidden)]
    fn split_private(
        sk: &crate::kem::PrivateKey<Self>,
    ) -> (
        crate::kem::PrivateKey<Self::MlKem>,
        crate::kem::PrivateKey<Self::Traditional>,
    );
}

impl<K: HybridKem> crate::kem::PrivateKey<K> {
    /// The secrets this key's seed expands to (draft-ietf-hpke-pq §4, `expandKey(seed)`): the
    /// ML-KEM seed `d || z` and the traditional half's private key as `SerializePrivateKey`
    /// writes it. For moving the key into a place that keeps each half apart, as a PKCS#11 3.2
    /// token imports them (an ML-KEM key from `CKA_SEED`, an EC key from `CKA_VALUE`), to be
    /// used again as one with [`crate::kem::SplitHybrid`]: the same public key, the same
    /// shared secrets.
    ///
    /// Bytes, not keys: each half is a key only inside this hybrid, and one used alone (as a
    /// DH-KEM key, or as an Auth sender whose public key is this key's `pk_T`) would be the
    /// hybrid's key in another protocol, with none of its post-quantum security.
    #[allow(clippy::type_complexity)]
    pub fn expanded_halves(
        &self,
    ) -> (
        Zeroizing<Array<u8, <K::MlKem as crate::kem::Kem>::NSk>>,
        Zeroizing<Array<u8, <K::Traditional as crate::kem::Kem>::NSk>>,
    ) {
        let (ml_kem, traditional) = K::split_private(self);
        (ml_kem.to_bytes(), traditional.to_bytes())
    }
}

macro_rules! hybrid_kem {
    ($(#[$doc:meta])* $name:ident, $params:ident, $mlkem:ty, $group:ty, $id:literal, $label:expr,
     $npk:ident, $nenc:ident, $nseed_t:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl crate::sealed::Sealed for $name {}

        impl super::HybridKem for $name {
            type MlKem = $mlkem;
            type Traditional = crate::kem::DhKem<$group>;

            fn combine_halves(
                ss_m: &[u8],
                ss_t: &[u8],
                ct_t: &[u8],
                pk_t: &[u8],
            ) -> SharedSecret<Self> {
                SharedSecret::new(Zeroizing::new(combine(ss_m, ss_t, ct_t, pk_t, Self::LABEL)))
            }

            fn split_private(
                sk: &PrivateKey<Self>,
            ) -> (PrivateKey<$mlkem>, PrivateKey<crate::kem::DhKem<$group>>) {
                // Copied straight into the wiped buffer, as the ML-KEM keys' own bytes are.
                let mut seed_m = Zeroizing::new([0u8; 64]);
                seed_m.copy_from_slice(sk.sk.dk_m.seed());
                let ml_kem = PrivateKey { sk: <$mlkem>::from_seed(seed_m) };
                let (traditional, _) = crate::kem::DhKem::<$group>::key_pair(sk.sk.sk_t.clone());
                (ml_kem, traditional)
            }

            fn join_public(
                pk_m: &PublicKey<$mlkem>,
                pk_t: &PublicKey<crate::kem::DhKem<$group>>,
            ) -> PublicKey<Self> {
                let mut bytes = Array::<u8, $npk>::default();
                let (m, t) = bytes.split_at_mut(pk_m.as_bytes().len());
                m.copy_from_slice(pk_m.as_bytes());
                t.copy_from_slice(pk_t.as_bytes());
                PublicKey {
                    pk: HybridPublicKey {
                        ek_m: pk_m.pk.ek.clone(),
                        pk_t: pk_t.pk.point.clone(),
                        bytes,
                    },
                }
            }
        }

        impl $name {
            /// The label the combiner appends.
            const LABEL: &'static [u8] = $label;

            fn from_seed(seed: Zeroizing<[u8; 32]>) -> Option<<Self as Kem>::Sk> {
                let (seed_m, sk_t) = expand_seed::<$group, $nseed_t>(&seed)?;
                let (dk_m, ek_m, pk_m) = $params::DecapKey::from_seed(seed_m, Implementation::detect());
                let (pk_t, pk_t_bytes) = <$group as DhEngine<$group>>::public(&sk_t);
                // pk = concat(pk_PQ, pk_T)
                let mut bytes = Array::<u8, $npk>::default();
                let (pq, t) = bytes.split_at_mut(pk_m.len());
                pq.copy_from_slice(&pk_m);
                t.copy_from_slice(&pk_t_bytes);
                Some(HybridPrivateKey {
                    seed,
                    dk_m,
                    sk_t,
                    public: HybridPublicKey { ek_m, pk_t, bytes },
                })
            }

            fn key_pair(sk: <Self as Kem>::Sk) -> (PrivateKey<Self>, PublicKey<Self>) {
                let pk = sk.public.clone();
                (PrivateKey { sk }, PublicKey { pk })
            }

            /// `Encaps` with the ML-KEM randomness `m` and the traditional ephemeral scalar
            /// given; `DH(sk_E, pk_T)` through `table` when the key was prepared.
            fn encap_with(
                m: &Array<u8, U32>,
                sk_e: &<$group as DhGroup>::Scalar,
                pk_r: &PublicKey<Self>,
                table: Option<&<$group as DhGroup>::Table>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                let pk = &pk_r.pk;
                // (ct_PQ, ss_PQ) = ML-KEM.Encaps_internal(pk_PQ, m)
                let (ct_m, ss_m) = pk.ek_m.encapsulate(&m.0);
                // ct_T = pk(sk_E); ss_T = DH(sk_E, pk_T)
                let (_, ct_t) = <$group as DhEngine<$group>>::public(sk_e);
                // An all-zero X25519 output (pk_T of low order) is refused: see `decap`.
                let ss_t = crate::kem::DhKem::<$group>::dh_to(sk_e, &pk.pk_t, table, Error::Encap)?;
                let ss = combine(&ss_m[..], &ss_t, &ct_t, pk.pk_t_bytes(), Self::LABEL);
                // enc = concat(ct_PQ, ct_T)
                let mut enc = Array::<u8, $nenc>::default();
                enc[..ct_m.len()].copy_from_slice(&ct_m);
                enc[ct_m.len()..].copy_from_slice(&ct_t);
                Ok((SharedSecret::new(Zeroizing::new(ss)), EncappedKey { enc }))
            }
        }

        impl Kem for $name {
            const ID: u16 = $id;
            type NSecret = U32;
            type NEnc = $nenc;
            type NPk = $npk;
            type NSk = U32;
            type Sk = HybridPrivateKey<$params::DecapKey, $params::EncapKey, $group, $npk>;
            type Pk = HybridPublicKey<$params::EncapKey, $group, $npk>;
            // The traditional half's table; the ML-KEM half is expanded when parsed.
            type Prepared = <$group as DhGroup>::Table;
            type Engine = Self;

            fn generate<R: CryptoRng + ?Sized>(
                rng: &mut R,
            ) -> Result<(PrivateKey<Self>, PublicKey<Self>), Error> {
                // GenerateKeyPair(): seed = random(Nseed); a seed whose expansion finds no
                // scalar (see `expand_seed`) is an error rather than a redraw, so a generator
                // stuck on one such seed cannot hang the caller.
                let mut seed = Zeroizing::new([0u8; 32]);
                rng.fill_bytes(&mut seed[..]);
                Self::from_seed(seed).map(Self::key_pair).ok_or(Error::DeriveKeyPair)
            }

            fn derive_key_pair(ikm: &[u8]) -> Result<(PrivateKey<Self>, PublicKey<Self>), Error> {
                // seed = SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", 32)
                let mut seed = Zeroizing::new([0u8; 32]);
                crate::kem::ml_kem::derive_seed(Self::ID, ikm, &mut seed[..])?;
                Self::from_seed(seed).map(Self::key_pair).ok_or(Error::DeriveKeyPair)
            }

            fn encap<R: CryptoRng + ?Sized>(
                rng: &mut R,
                pk_r: &PublicKey<Self>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                <Self as crate::sealed::KemEngine<Self>>::encap_to(rng, pk_r, None)
            }

            fn decap(
                enc: &EncappedKey<Self>,
                sk_r: &PrivateKey<Self>,
            ) -> Result<SharedSecret<Self>, Error> {
                let sk = &sk_r.sk;
                // (ct_PQ, ct_T) = enc
                let (ct_m, ct_t) = enc.enc.split_at($params::NCT);
                let ct_m: &[u8; $params::NCT] = ct_m.try_into().map_err(|_| Error::Decap)?;
                let pk_e = <$group as DhEngine<$group>>::point_from_bytes(ct_t).map_err(|_| Error::Decap)?;
                // ss_PQ = ML-KEM.Decaps(dk_PQ, ct_PQ), with the cached expanded key
                let ss_m = sk.dk_m.decapsulate(ct_m);
                // ss_T = DH(sk_T, ct_T)
                // X-Wing (draft-connolly-cfrg-xwing-kem, and draft-irtf-cfrg-concrete-hybrid-kems'
                // MLKEM768-X25519) defines no check on ss_T, its combiner hashing ct_T and pk_T
                // in; RFC 7748 §6.1 lets an X25519 user abort on an all-zero output. Go's
                // crypto/hpke does, as RFC 9180 §7.1.4 requires of DHKEM(X25519), and so does
                // this crate, so that the two agree on which `enc` is valid; an honest sender
                // never produces a low-order ct_T. For the Weierstrass groups a validated point
                // times a non-zero scalar is never the identity: the check never fires there.
                // The check is the DH-KEMs' own (RFC 9180 §7.1.4), in `DhKem::dh`.
                let ss_t = crate::kem::DhKem::<$group>::dh(&sk.sk_t, &pk_e, Error::Decap)?;
                let ss = combine(&ss_m[..], &ss_t, ct_t, sk.public.pk_t_bytes(), Self::LABEL);
                Ok(SharedSecret::new(Zeroizing::new(ss)))
            }
        }

        impl crate::sealed::KemEngine<$name> for $name {
            fn prepare(pk: &<Self as Kem>::Pk) -> <Self as Kem>::Prepared {
                <$group as DhEngine<$group>>::prepare(&pk.pk_t)
            }

            fn prepared_heap_size(table: &<Self as Kem>::Prepared) -> usize {
                <$group as DhEngine<$group>>::table_heap_size(table)
            }

            fn encap_to<R: CryptoRng + ?Sized>(
                rng: &mut R,
                pk_r: &PublicKey<Self>,
                table: Option<&<Self as Kem>::Prepared>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                // ML-KEM.Encaps(ek_PQ): m = random(32).
                let mut m = Zeroizing::new(Array::<u8, U32>::default());
                rng.fill_bytes(&mut m[..]);
                // sk_E = Group.RandomScalar(random(Group.Nseed)).
                let mut seed_t = Zeroizing::new(Array::<u8, $nseed_t>::default());
                rng.fill_bytes(&mut seed_t[..]);
                let sk_e = Zeroizing::new(random_scalar::<$group>(&seed_t).ok_or(Error::Encap)?);
                Self::encap_with(&m, &sk_e, pk_r, table)
            }

            fn encap_deterministic(
                ikm_e: &[u8],
                pk_r: &PublicKey<Self>,
                table: Option<&<Self as Kem>::Prepared>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                // ikmE = concat(m, seed_T): the ML-KEM randomness, then at most Group.Nseed
                // bytes for Group.RandomScalar (the published MLKEM768-P256 vectors carry three
                // P-256 candidates, not four).
                let (m, seed_t) = ikm_e.split_at_checked(32).ok_or(Error::Encap)?;
                let m = Zeroizing::new(Array::<u8, U32>::try_from(m).map_err(|_| Error::Encap)?);
                if seed_t.len() > <$nseed_t as Unsigned>::USIZE {
                    return Err(Error::Encap);
                }
                let sk_e = Zeroizing::new(random_scalar::<$group>(seed_t).ok_or(Error::Encap)?);
                Self::encap_with(&m, &sk_e, pk_r, table)
            }

            fn sk_from_bytes(bytes: &[u8]) -> Result<<Self as Kem>::Sk, Error> {
                // Copied straight into the wiped buffer: no unwiped array on the way.
                let bytes: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
                let mut seed = Zeroizing::new([0u8; 32]);
                seed.copy_from_slice(bytes);
                Self::from_seed(seed).ok_or(Error::InvalidPrivateKey)
            }

            fn sk_to_bytes(sk: &<Self as Kem>::Sk) -> Zeroizing<Array<u8, U32>> {
                Zeroizing::new(Array(*sk.seed))
            }

            fn sk_public_key(sk: &<Self as Kem>::Sk) -> &<Self as Kem>::Pk {
                &sk.public
            }

            fn sk_ct_eq(a: &<Self as Kem>::Sk, b: &<Self as Kem>::Sk) -> Choice {
                subtle::ConstantTimeEq::ct_eq(&a.seed[..], &b.seed[..])
            }

            fn pk_from_bytes(bytes: &[u8]) -> Result<<Self as Kem>::Pk, Error> {
                let bytes = Array::<u8, $npk>::try_from(bytes).map_err(|_| Error::InvalidPublicKey)?;
                let npk_t = <<$group as DhGroup>::NPk as Unsigned>::USIZE;
                let (pk_m, pk_t) = bytes.split_at(bytes.len() - npk_t);
                let pk_m: &[u8; $params::NPK] = pk_m.try_into().map_err(|_| Error::InvalidPublicKey)?;
                // FIPS 203 modulus check on the ML-KEM half, group validation on the other.
                let ek_m = $params::EncapKey::from_bytes(pk_m, Implementation::detect())
                    .ok_or(Error::InvalidPublicKey)?;
                let pk_t = <$group as DhEngine<$group>>::point_from_bytes(pk_t)?;
                Ok(HybridPublicKey { ek_m, pk_t, bytes })
            }

            fn pk_as_bytes(pk: &<Self as Kem>::Pk) -> &Array<u8, $npk> {
                &pk.bytes
            }
        }
    };
}

mod kems {
    use hybrid_array::Array;
    #[allow(unused_imports)]
    use hybrid_array::sizes::{U32, U48, U128, U1120, U1153, U1216, U1249, U1665};
    use hybrid_array::typenum::Unsigned;
    use rand_core::CryptoRng;
    use subtle::Choice;
    use zeroize::Zeroizing;

    use super::{DhGroup, HybridPrivateKey, HybridPublicKey, combine, expand_seed, random_scalar};
    use crate::Error;
    #[cfg(feature = "nist")]
    use crate::backend::libcrux::mlkem1024;
    use crate::backend::libcrux::{Implementation, mlkem768};
    use crate::kem::{EncappedKey, Kem, PrivateKey, PublicKey, SharedSecret};
    use crate::sealed::DhEngine;

    #[cfg(feature = "x25519")]
    hybrid_kem!(
        /// X-Wing (MLKEM768-X25519), `kem_id` 0x647a: Nsecret 32, Nenc 1120, Npk 1216, Nsk 32.
        /// No authenticated modes.
        XWing, mlkem768, crate::kem::MlKem768, crate::kem::X25519, 0x647a, b"\\.//^\\", U1216, U1120, U32
    );
    #[cfg(feature = "nist")]
    hybrid_kem!(
        /// MLKEM768-P256, `kem_id` 0x0050: Nsecret 32, Nenc 1153, Npk 1249, Nsk 32.
        /// No authenticated modes.
        MlKem768P256, mlkem768, crate::kem::MlKem768, crate::kem::P256, 0x0050, b"MLKEM768-P256", U1249, U1153, U128
    );
    #[cfg(feature = "nist")]
    hybrid_kem!(
        /// MLKEM1024-P384, `kem_id` 0x0051: Nsecret 32, Nenc 1665, Npk 1665, Nsk 32.
        /// No authenticated modes.
        MlKem1024P384, mlkem1024, crate::kem::MlKem1024, crate::kem::P384, 0x0051, b"MLKEM1024-P384", U1665, U1665, U48
    );
}

#[cfg(feature = "x25519")]
pub use self::kems::XWing;
#[cfg(feature = "nist")]
pub use self::kems::{MlKem768P256, MlKem1024P384};
