//! ML-KEM-512, ML-KEM-768 and ML-KEM-1024 (FIPS 203) as HPKE KEMs (draft-ietf-hpke-pq §3).
//!
//! The private key is the 64-byte seed `d || z` (that is what `to_bytes` returns), held beside
//! the decapsulation key expanded from it once, at construction: decapsulation does no key
//! generation. The public key holds the parsed encapsulation key (checked against the FIPS 203
//! modulus at `from_bytes`) beside its bytes.

use hybrid_array::Array;
use zeroize::ZeroizeOnDrop;

use crate::Error;
use crate::labeled::{Label, labeled_derive};
use crate::util::kem_suite_id;

/// An ML-KEM private key: the decapsulation key expanded from the seed (which it keeps).
#[doc(hidden)]
#[derive(Clone)]
pub struct MlKemPrivateKey<DK, EK, NPk: hybrid_array::ArraySize> {
    pub(crate) dk: DK,
    pub(crate) public: MlKemPublicKey<EK, NPk>,
}

// `DK` wipes its seed and its expanded form on drop; the bound makes the marker false, so
// `tests/zeroize.rs` fails to build, if it stops doing so.
impl<DK: ZeroizeOnDrop, EK, NPk: hybrid_array::ArraySize> ZeroizeOnDrop
    for MlKemPrivateKey<DK, EK, NPk>
{
}

impl<DK, EK, NPk: hybrid_array::ArraySize> core::fmt::Debug for MlKemPrivateKey<DK, EK, NPk> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("MlKemPrivateKey(<redacted>)")
    }
}

/// An ML-KEM public key: the parsed encapsulation key beside its bytes.
#[doc(hidden)]
#[derive(Clone)]
pub struct MlKemPublicKey<EK, NPk: hybrid_array::ArraySize> {
    pub(crate) ek: EK,
    pub(crate) bytes: Array<u8, NPk>,
}

impl<EK, NPk: hybrid_array::ArraySize> core::fmt::Debug for MlKemPublicKey<EK, NPk> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("MlKemPublicKey")
            .field(&crate::util::Hex(&self.bytes))
            .finish()
    }
}

/// `dk = SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", Nsk)` with
/// `suite_id = concat("KEM", I2OSP(kem_id, 2))` (draft-ietf-hpke-pq §3, §4).
pub(crate) fn derive_seed(kem_id: u16, ikm: &[u8], seed: &mut [u8]) -> Result<(), Error> {
    labeled_derive::<shake::Shake256>(
        &[ikm],
        &kem_suite_id(kem_id),
        Label::DeriveKeyPair,
        &[],
        seed,
    )
    .map_err(|_| Error::DeriveKeyPair)
}

macro_rules! ml_kem {
    ($(#[$doc:meta])* $name:ident, $params:ident, $id:literal, $npk:ident, $nenc:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl crate::sealed::Sealed for $name {}

        impl $name {
            /// `expandDecapsKey(dk)`: ML-KEM.KeyGen_internal(d, z), done once per key.
            pub(in crate::kem) fn from_seed(seed: Zeroizing<[u8; 64]>) -> <Self as Kem>::Sk {
                let (dk, ek, bytes) = $params::DecapKey::from_seed(seed, Implementation::detect());
                MlKemPrivateKey { dk, public: MlKemPublicKey { ek, bytes: Array(bytes) } }
            }

            fn key_pair(sk: <Self as Kem>::Sk) -> (PrivateKey<Self>, PublicKey<Self>) {
                let pk = sk.public.clone();
                (PrivateKey { sk }, PublicKey { pk })
            }

            /// `ML-KEM.Encaps_internal(ek, m)`.
            fn encap_with(
                m: &Array<u8, U32>,
                pk_r: &PublicKey<Self>,
            ) -> (SharedSecret<Self>, EncappedKey<Self>) {
                let (ct, ss) = pk_r.pk.ek.encapsulate(&m.0);
                (SharedSecret::new(Zeroizing::new(Array(*ss))), EncappedKey { enc: Array(ct) })
            }
        }

        impl Kem for $name {
            const ID: u16 = $id;
            type NSecret = U32;
            type NEnc = $nenc;
            type NPk = $npk;
            type NSk = U64;
            type Sk = MlKemPrivateKey<$params::DecapKey, $params::EncapKey, $npk>;
            type Pk = MlKemPublicKey<$params::EncapKey, $npk>;
            // The parsed key is libcrux's unpacked form, the matrix already expanded: there is
            // nothing further to precompute.
            type Prepared = ();
            type Engine = Self;

            fn generate<R: CryptoRng + ?Sized>(
                rng: &mut R,
            ) -> Result<(PrivateKey<Self>, PublicKey<Self>), Error> {
                // GenerateKeyPair(): dk = random(64)
                let mut seed = Zeroizing::new([0u8; 64]);
                rng.fill_bytes(&mut seed[..]);
                Ok(Self::key_pair(Self::from_seed(seed)))
            }

            fn derive_key_pair(ikm: &[u8]) -> Result<(PrivateKey<Self>, PublicKey<Self>), Error> {
                let mut seed = Zeroizing::new([0u8; 64]);
                derive_seed(Self::ID, ikm, &mut seed[..])?;
                Ok(Self::key_pair(Self::from_seed(seed)))
            }

            fn encap<R: CryptoRng + ?Sized>(
                rng: &mut R,
                pk_r: &PublicKey<Self>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                // ML-KEM.Encaps(ek): m = random(32), then Encaps_internal (FIPS 203 §7.2).
                let mut m = Zeroizing::new(Array::<u8, U32>::default());
                rng.fill_bytes(&mut m[..]);
                Ok(Self::encap_with(&m, pk_r))
            }

            fn decap(
                enc: &EncappedKey<Self>,
                sk_r: &PrivateKey<Self>,
            ) -> Result<SharedSecret<Self>, Error> {
                // ML-KEM.Decaps(dk, c) with the cached expanded key. Implicit rejection: a
                // tampered ciphertext yields a pseudorandom secret, not an error.
                let ss = sk_r.sk.dk.decapsulate(&enc.enc.0);
                Ok(SharedSecret::new(Zeroizing::new(Array(*ss))))
            }

        }

        impl crate::sealed::KemEngine<$name> for $name {
            fn prepare(_: &<Self as Kem>::Pk) {}

            fn prepared_heap_size(_: &()) -> usize {
                0
            }

            fn encap_to<R: CryptoRng + ?Sized>(
                rng: &mut R,
                pk_r: &PublicKey<Self>,
                _: Option<&()>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                Self::encap(rng, pk_r)
            }

            fn encap_deterministic(
                ikm_e: &[u8],
                pk_r: &PublicKey<Self>,
                _: Option<&()>,
            ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
                // ikmE is the 32-byte `m` of Encaps_internal.
                let m = Array::<u8, U32>::try_from(ikm_e).map_err(|_| Error::Encap)?;
                Ok(Self::encap_with(&m, pk_r))
            }

            fn sk_from_bytes(bytes: &[u8]) -> Result<<Self as Kem>::Sk, Error> {
                // Copied straight into the wiped buffer: no unwiped array on the way.
                let bytes: &[u8; 64] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
                let mut seed = Zeroizing::new([0u8; 64]);
                seed.copy_from_slice(bytes);
                Ok(Self::from_seed(seed))
            }

            fn sk_to_bytes(sk: &<Self as Kem>::Sk) -> Zeroizing<Array<u8, U64>> {
                Zeroizing::new(Array(*sk.dk.seed()))
            }

            fn sk_public_key(sk: &<Self as Kem>::Sk) -> &<Self as Kem>::Pk {
                &sk.public
            }

            fn sk_ct_eq(a: &<Self as Kem>::Sk, b: &<Self as Kem>::Sk) -> Choice {
                a.dk.seed()[..].ct_eq(&b.dk.seed()[..])
            }

            fn pk_from_bytes(bytes: &[u8]) -> Result<<Self as Kem>::Pk, Error> {
                let bytes = Array::<u8, $npk>::try_from(bytes).map_err(|_| Error::InvalidPublicKey)?;
                // FIPS 203 §7.2 encapsulation key check: every coefficient below q.
                let ek = $params::EncapKey::from_bytes(&bytes.0, Implementation::detect())
                    .ok_or(Error::InvalidPublicKey)?;
                Ok(MlKemPublicKey { ek, bytes })
            }

            fn pk_as_bytes(pk: &<Self as Kem>::Pk) -> &Array<u8, $npk> {
                &pk.bytes
            }
        }
    };
}

mod kems {
    use hybrid_array::Array;
    use hybrid_array::sizes::{U32, U64, U768, U800, U1088, U1184, U1568};
    use rand_core::CryptoRng;
    use subtle::{Choice, ConstantTimeEq};
    use zeroize::Zeroizing;

    use super::{MlKemPrivateKey, MlKemPublicKey, derive_seed};
    use crate::Error;
    use crate::backend::libcrux::{Implementation, mlkem512, mlkem768, mlkem1024};
    use crate::kem::{EncappedKey, Kem, PrivateKey, PublicKey, SharedSecret};

    ml_kem!(
        /// ML-KEM-512, `kem_id` 0x0040: Nsecret 32, Nenc 768, Npk 800, Nsk 64. Prefer 768 or
        /// 1024 (draft-ietf-hpke-pq §3). No authenticated modes.
        MlKem512, mlkem512, 0x0040, U800, U768
    );
    ml_kem!(
        /// ML-KEM-768, `kem_id` 0x0041: Nsecret 32, Nenc 1088, Npk 1184, Nsk 64.
        /// No authenticated modes.
        MlKem768, mlkem768, 0x0041, U1184, U1088
    );
    ml_kem!(
        /// ML-KEM-1024, `kem_id` 0x0042: Nsecret 32, Nenc 1568, Npk 1568, Nsk 64.
        /// No authenticated modes.
        MlKem1024, mlkem1024, 0x0042, U1568, U1568
    );
}

pub use self::kems::{MlKem512, MlKem768, MlKem1024};
