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

/// Candidates tried for the traditional secret before giving up. For P-256 one candidate in
/// 2^32 is rejected, for P-384 one in 2^190: 16 failures in a row do not happen.
const MAX_CANDIDATES: usize = 16;

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

impl<DK, EK, G: DhGroup, NPk: ArraySize> ZeroizeOnDrop for HybridPrivateKey<DK, EK, G, NPk> {}

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
            .field(&super::Hex(&self.bytes))
            .finish()
    }
}

/// The first valid traditional scalar among `Nscalar`-byte candidates read from `next`.
fn first_valid_scalar<G: DhGroup>(mut next: impl FnMut(&mut [u8]) -> bool) -> Option<G::Scalar> {
    let mut candidate = Zeroizing::new(Array::<u8, G::NSk>::default());
    for _ in 0..MAX_CANDIDATES {
        if !next(&mut candidate[..]) {
            return None;
        }
        if let Ok(scalar) = G::scalar_from_bytes(&candidate) {
            return Some(scalar);
        }
    }
    None
}

/// The ML-KEM seed `d || z`, wiped on drop.
type MlKemSeed = Zeroizing<Array<u8, hybrid_array::sizes::U64>>;

/// `DeriveKeyPair(seed)` of the hybrid KEM: `SHAKE256(seed)` read as a stream, 64 bytes of
/// ML-KEM seed `d || z`, then `Nscalar`-byte candidates until one is a valid scalar.
fn expand_seed<G: DhGroup>(seed: &[u8; 32]) -> Option<(MlKemSeed, G::Scalar)> {
    let mut xof = shake::Shake256::default();
    xof.update(seed);
    let mut reader = xof.finalize_xof();
    let mut seed_m = MlKemSeed::default();
    reader.read(&mut seed_m[..]);
    let sk_t = first_valid_scalar::<G>(|buf| {
        reader.read(buf);
        true
    })?;
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

macro_rules! hybrid_kem {
    ($(#[$doc:meta])* $name:ident, $params:ident, $group:ty, $id:literal, $label:expr,
     $nenc_m:ident, $npk:ident, $nenc:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl crate::sealed::Sealed for $name {}

        impl $name {
            /// The label the combiner appends.
            const LABEL: &'static [u8] = $label;

            fn from_seed(seed: Zeroizing<[u8; 32]>) -> Option<<Self as Kem>::Sk> {
                let (seed_m, sk_t) = expand_seed::<$group>(&seed)?;
                let dk_m = ml_kem::DecapsulationKey::<ml_kem::$params>::from_seed(*seed_m);
                let ek_m = dk_m.encapsulation_key().clone();
                let (pk_t, pk_t_bytes) = <$group as DhGroup>::public(&sk_t);
                // pk = concat(pk_PQ, pk_T)
                let pk_m = ml_kem::KeyExport::to_bytes(&ek_m);
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

            /// `Encaps` with the ML-KEM randomness `m` and the traditional ephemeral scalar given.
            fn encap_with(
                m: &Array<u8, U32>,
                sk_e: &<$group as DhGroup>::Scalar,
                pk_r: &PublicKey<Self>,
            ) -> (SharedSecret<Self>, EncappedKey<Self>) {
                let pk = &pk_r.pk;
                // (ct_PQ, ss_PQ) = ML-KEM.Encaps_internal(pk_PQ, m)
                let (ct_m, ss_m) = pk.ek_m.encapsulate_deterministic(m);
                // ct_T = pk(sk_E); ss_T = DH(sk_E, pk_T)
                let (_, ct_t) = <$group as DhGroup>::public(sk_e);
                let mut ss_t = Zeroizing::new(Array::<u8, <$group as DhGroup>::NDh>::default());
                // X-Wing defines no all-zero check on ss_T (its combiner hashes ct_T and pk_T);
                // for the Weierstrass groups a validated point times a non-zero scalar is never
                // the identity. The flag is therefore not an error here.
                let _usable = <$group as DhGroup>::dh(sk_e, &pk.pk_t, &mut ss_t);
                let ss = combine(&ss_m, &ss_t, &ct_t, pk.pk_t_bytes(), Self::LABEL);
                // enc = concat(ct_PQ, ct_T)
                let mut enc = Array::<u8, $nenc>::default();
                enc[..ct_m.len()].copy_from_slice(&ct_m);
                enc[ct_m.len()..].copy_from_slice(&ct_t);
                (SharedSecret::new(Zeroizing::new(ss)), EncappedKey { enc })
            }
        }

        impl Kem for $name {
            const ID: u16 = $id;
            type NSecret = U32;
            type NEnc = $nenc;
            type NPk = $npk;
            type NSk = U32;
            type Sk = HybridPrivateKey<
                ml_kem::DecapsulationKey<ml_kem::$params>,
                ml_kem::EncapsulationKey<ml_kem::$params>,
                $group,
                $npk,
            >;
            type Pk = HybridPublicKey<ml_kem::EncapsulationKey<ml_kem::$params>, $group, $npk>;

            fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> (PrivateKey<Self>, PublicKey<Self>) {
                loop {
                    let mut seed = Zeroizing::new([0u8; 32]);
                    rng.fill_bytes(&mut seed[..]);
                    // A seed whose expansion finds no scalar (probability below 2^-500) is
                    // simply replaced.
                    if let Some(sk) = Self::from_seed(seed) {
                        return Self::key_pair(sk);
                    }
                }
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
                let mut m = Zeroizing::new(Array::<u8, U32>::default());
                rng.fill_bytes(&mut m[..]);
                let sk_e = Zeroizing::new(<$group as DhGroup>::random_scalar(rng));
                Ok(Self::encap_with(&m, &sk_e, pk_r))
            }

            fn decap(
                enc: &EncappedKey<Self>,
                sk_r: &PrivateKey<Self>,
            ) -> Result<SharedSecret<Self>, Error> {
                let sk = &sk_r.sk;
                // (ct_PQ, ct_T) = enc
                let (ct_m, ct_t) = enc.enc.split_at(<$nenc_m as Unsigned>::USIZE);
                let ct_m = Array::<u8, $nenc_m>::try_from(ct_m).map_err(|_| Error::Decap)?;
                let pk_e = <$group as DhGroup>::point_from_bytes(ct_t).map_err(|_| Error::Decap)?;
                // ss_PQ = ML-KEM.Decaps(dk_PQ, ct_PQ), with the cached expanded key
                let ss_m = Zeroizing::new(ml_kem::Decapsulate::decapsulate(&sk.dk_m, &ct_m));
                // ss_T = DH(sk_T, ct_T)
                let mut ss_t = Zeroizing::new(Array::<u8, <$group as DhGroup>::NDh>::default());
                let _usable = <$group as DhGroup>::dh(&sk.sk_t, &pk_e, &mut ss_t);
                let ss = combine(&ss_m, &ss_t, ct_t, sk.public.pk_t_bytes(), Self::LABEL);
                Ok(SharedSecret::new(Zeroizing::new(ss)))
            }

            fn encap_deterministic(
                ikm_e: &[u8],
                pk_r: &PublicKey<Self>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                // ikmE = concat(m, candidate_1, candidate_2, ...): the ML-KEM randomness, then
                // Nscalar-byte candidates for the ephemeral scalar, used as they are.
                let (m, mut rest) = ikm_e.split_at_checked(32).ok_or(Error::Encap)?;
                let m = Array::<u8, U32>::try_from(m).map_err(|_| Error::Encap)?;
                let sk_e = first_valid_scalar::<$group>(|buf| {
                    match rest.split_at_checked(buf.len()) {
                        Some((head, tail)) => {
                            buf.copy_from_slice(head);
                            rest = tail;
                            true
                        }
                        None => false,
                    }
                })
                .ok_or(Error::Encap)?;
                Ok(Self::encap_with(&m, &sk_e, pk_r))
            }

            fn sk_from_bytes(bytes: &[u8]) -> Result<Self::Sk, Error> {
                let seed: [u8; 32] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
                Self::from_seed(Zeroizing::new(seed)).ok_or(Error::InvalidPrivateKey)
            }

            fn sk_to_bytes(sk: &Self::Sk) -> Zeroizing<Array<u8, U32>> {
                Zeroizing::new(Array(*sk.seed))
            }

            fn sk_public_key(sk: &Self::Sk) -> &Self::Pk {
                &sk.public
            }

            fn sk_ct_eq(a: &Self::Sk, b: &Self::Sk) -> Choice {
                subtle::ConstantTimeEq::ct_eq(&a.seed[..], &b.seed[..])
            }

            fn pk_from_bytes(bytes: &[u8]) -> Result<Self::Pk, Error> {
                let bytes = Array::<u8, $npk>::try_from(bytes).map_err(|_| Error::InvalidPublicKey)?;
                let npk_t = <<$group as DhGroup>::NPk as Unsigned>::USIZE;
                let (pk_m, pk_t) = bytes.split_at(bytes.len() - npk_t);
                let pk_m = ml_kem::Key::<ml_kem::EncapsulationKey<ml_kem::$params>>::try_from(pk_m)
                    .map_err(|_| Error::InvalidPublicKey)?;
                // FIPS 203 modulus check on the ML-KEM half, group validation on the other.
                let ek_m = ml_kem::EncapsulationKey::<ml_kem::$params>::new(&pk_m)
                    .map_err(|_| Error::InvalidPublicKey)?;
                let pk_t = <$group as DhGroup>::point_from_bytes(pk_t)?;
                Ok(HybridPublicKey { ek_m, pk_t, bytes })
            }

            fn pk_as_bytes(pk: &Self::Pk) -> &Array<u8, $npk> {
                &pk.bytes
            }
        }
    };
}

mod kems {
    use hybrid_array::Array;
    #[allow(unused_imports)]
    use hybrid_array::sizes::{U32, U1088, U1120, U1153, U1216, U1249, U1568, U1665};
    use hybrid_array::typenum::Unsigned;
    use rand_core::CryptoRng;
    use subtle::Choice;
    use zeroize::Zeroizing;

    use super::{
        DhGroup, HybridPrivateKey, HybridPublicKey, combine, expand_seed, first_valid_scalar,
    };
    use crate::Error;
    use crate::kem::{EncappedKey, Kem, PrivateKey, PublicKey, SharedSecret};

    #[cfg(feature = "x25519")]
    hybrid_kem!(
        /// X-Wing (MLKEM768-X25519), `kem_id` 0x647a: Nsecret 32, Nenc 1120, Npk 1216, Nsk 32.
        /// No authenticated modes.
        XWing, MlKem768, crate::kem::X25519, 0x647a, b"\\.//^\\", U1088, U1216, U1120
    );
    #[cfg(feature = "nist")]
    hybrid_kem!(
        /// MLKEM768-P256, `kem_id` 0x0050: Nsecret 32, Nenc 1153, Npk 1249, Nsk 32.
        /// No authenticated modes.
        MlKem768P256, MlKem768, crate::kem::P256, 0x0050, b"MLKEM768-P256", U1088, U1249, U1153
    );
    #[cfg(feature = "nist")]
    hybrid_kem!(
        /// MLKEM1024-P384, `kem_id` 0x0051: Nsecret 32, Nenc 1665, Npk 1665, Nsk 32.
        /// No authenticated modes.
        MlKem1024P384, MlKem1024, crate::kem::P384, 0x0051, b"MLKEM1024-P384", U1568, U1665, U1665
    );
}

#[cfg(feature = "x25519")]
pub use self::kems::XWing;
#[cfg(feature = "nist")]
pub use self::kems::{MlKem768P256, MlKem1024P384};
