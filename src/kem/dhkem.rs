//! The generic DH-based KEM, `DHKEM(Group, KDF)` (RFC 9180 §4.1), over any [`DhGroup`].

use core::fmt;
use core::marker::PhantomData;

use crate::labeled::Expander;
use hkdf::hmac::EagerHash;
use hybrid_array::{Array, ArraySize};
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use super::{AuthKem, EncappedKey, Kem, PrivateKey, PublicKey, SharedSecret};
use crate::Error;
use crate::labeled::{Label, expander, labeled_expand, labeled_extract};
use crate::sealed::{AuthKemEngine, DhEngine, KemEngine};
use crate::util::kem_suite_id;

/// A Diffie-Hellman group with its serialization (RFC 9180 §4.1, §7.1), the building block of
/// [`DhKem`]. Implemented by the curve marker types ([`X25519`](super::X25519),
/// [`P256`](super::P256), ...); sealed.
pub trait DhGroup: crate::sealed::Sealed + Sized + 'static {
    /// The `kem_id` of `DHKEM(this group, its HKDF)`.
    const KEM_ID: u16;
    /// The hash of the KEM's HKDF, used by `ExtractAndExpand` and `DeriveKeyPair`.
    #[doc(hidden)]
    type Hash: EagerHash;
    /// `Nsecret`.
    type NSecret: ArraySize;
    /// `Npk` (= `Nenc`).
    type NPk: ArraySize;
    /// `Nsk`.
    type NSk: ArraySize;
    /// `Ndh`, the length of a Diffie-Hellman output.
    type NDh: ArraySize;
    /// A secret scalar, ready to multiply.
    #[doc(hidden)]
    type Scalar: Clone + Zeroize + Send + Sync;
    /// A validated public point, ready to be multiplied.
    #[doc(hidden)]
    type Point: Clone + Send + Sync;
    /// A precomputed table of multiples of a public point (see
    /// [`PreparedPublicKey`](super::PreparedPublicKey)).
    #[doc(hidden)]
    type Table: Clone + Send + Sync;

    /// The engine: scalars, points and raw Diffie-Hellman (sealed).
    #[doc(hidden)]
    type Engine: DhEngine<Self>;
}

/// `DHKEM(Group, KDF)` (RFC 9180 §4.1) over the group `G`. Use the aliases:
/// [`DhKemX25519HkdfSha256`](super::DhKemX25519HkdfSha256) and its siblings.
pub struct DhKem<G>(PhantomData<G>);

impl<G: DhGroup> fmt::Debug for DhKem<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DhKem({:#06x})", G::KEM_ID)
    }
}

impl<G: DhGroup> crate::sealed::Sealed for DhKem<G> {}

/// A DH-KEM private key: the scalar beside the cached public key.
#[doc(hidden)]
pub struct DhPrivateKey<G: DhGroup> {
    scalar: G::Scalar,
    public: DhPublicKey<G>,
}

impl<G: DhGroup> DhPrivateKey<G> {
    fn new(scalar: G::Scalar) -> Self {
        let (point, bytes) = G::Engine::public(&scalar);
        Self {
            scalar,
            public: DhPublicKey { point, bytes },
        }
    }
}

impl<G: DhGroup> Clone for DhPrivateKey<G> {
    fn clone(&self) -> Self {
        Self {
            scalar: self.scalar.clone(),
            public: self.public.clone(),
        }
    }
}

impl<G: DhGroup> fmt::Debug for DhPrivateKey<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DhPrivateKey(<redacted>)")
    }
}

impl<G: DhGroup> Drop for DhPrivateKey<G> {
    fn drop(&mut self) {
        self.scalar.zeroize();
    }
}

impl<G: DhGroup> ZeroizeOnDrop for DhPrivateKey<G> {}

/// A DH-KEM public key: the validated point beside its serialization.
#[doc(hidden)]
pub struct DhPublicKey<G: DhGroup> {
    pub(crate) point: G::Point,
    bytes: Array<u8, G::NPk>,
}

impl<G: DhGroup> Clone for DhPublicKey<G> {
    fn clone(&self) -> Self {
        Self {
            point: self.point.clone(),
            bytes: self.bytes.clone(),
        }
    }
}

impl<G: DhGroup> fmt::Debug for DhPublicKey<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("DhPublicKey")
            .field(&crate::util::Hex(&self.bytes))
            .finish()
    }
}

/// Whether `bytes` are all zero, in constant time.
pub(crate) fn is_all_zero(bytes: &[u8]) -> Choice {
    let acc = bytes.iter().fold(0u8, |acc, b| acc | b);
    acc.ct_eq(&0)
}

impl<G: DhGroup> DhKem<G> {
    const SUITE_ID: [u8; 5] = kem_suite_id(G::KEM_ID);

    pub(in crate::kem) fn key_pair(scalar: G::Scalar) -> (PrivateKey<Self>, PublicKey<Self>) {
        let sk = DhPrivateKey::<G>::new(scalar);
        let pk = sk.public.clone();
        (PrivateKey { sk }, PublicKey { pk })
    }

    /// `dh = DH(sk, pk)`, failing with `err` on an unusable output.
    pub(super) fn dh(
        sk: &G::Scalar,
        pk: &G::Point,
        err: Error,
    ) -> Result<Zeroizing<Array<u8, G::NDh>>, Error> {
        Self::dh_to(sk, pk, None, err)
    }

    /// `dh = DH(sk, pk)` through `pk`'s table when there is one (the same value either way).
    /// The hybrids' traditional half goes through it too, for the same abort.
    pub(super) fn dh_to(
        sk: &G::Scalar,
        pk: &G::Point,
        table: Option<&G::Table>,
        err: Error,
    ) -> Result<Zeroizing<Array<u8, G::NDh>>, Error> {
        let mut dh = Zeroizing::new(Array::<u8, G::NDh>::default());
        let ok = match table {
            Some(table) => G::Engine::dh_prepared(sk, pk, table, &mut dh),
            None => G::Engine::dh(sk, pk, &mut dh),
        };
        // §7.1.4: abort on an all-zero (or identity) output, decided in one public place.
        if crate::declassify::dh_output_valid(ok) {
            Ok(dh)
        } else {
            Err(err)
        }
    }

    /// `ExtractAndExpand(dh, kem_context)` (§4.1), with `dh` and `kem_context` as pieces.
    fn extract_and_expand(
        dh: &[&[u8]],
        kem_context: &[&[u8]],
    ) -> Result<SharedSecret<Self>, Error> {
        // eae_prk = LabeledExtract("", "eae_prk", dh)
        let eae_prk = labeled_extract::<G::Hash>(&[], &Self::SUITE_ID, Label::EaePrk, dh);
        // shared_secret = LabeledExpand(eae_prk, "shared_secret", kem_context, Nsecret)
        let mut shared_secret = Zeroizing::new(Array::<u8, G::NSecret>::default());
        labeled_expand(
            &expander::<G::Hash>(&eae_prk),
            &Self::SUITE_ID,
            Label::SharedSecret,
            kem_context,
            &mut shared_secret,
        )?;
        Ok(SharedSecret::new(shared_secret))
    }

    /// `Encap(pkR)` with the ephemeral scalar given.
    fn encap_with(
        sk_e: DhPrivateKey<G>,
        pk_r: &PublicKey<Self>,
        table: Option<&G::Table>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        // dh = DH(skE, pkR)
        let dh = Self::dh_to(&sk_e.scalar, &pk_r.pk.point, table, Error::Encap)?;
        // enc = SerializePublicKey(pkE)
        let enc = sk_e.public.bytes.clone();
        // kem_context = concat(enc, pkRm)
        let shared_secret = Self::extract_and_expand(&[&dh], &[&enc, &pk_r.pk.bytes])?;
        Ok((shared_secret, EncappedKey { enc }))
    }

    /// `AuthEncap(pkR, skS)` with the ephemeral scalar given.
    fn auth_encap_with(
        sk_e: DhPrivateKey<G>,
        pk_r: &PublicKey<Self>,
        table: Option<&G::Table>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        // dh = concat(DH(skE, pkR), DH(skS, pkR))
        let dh_e = Self::dh_to(&sk_e.scalar, &pk_r.pk.point, table, Error::Encap)?;
        let dh_s = Self::dh_to(&sk_s.sk.scalar, &pk_r.pk.point, table, Error::Encap)?;
        let enc = sk_e.public.bytes.clone();
        // kem_context = concat(enc, pkRm, pkSm)
        let shared_secret = Self::extract_and_expand(
            &[&dh_e, &dh_s],
            &[&enc, &pk_r.pk.bytes, &sk_s.sk.public.bytes],
        )?;
        Ok((shared_secret, EncappedKey { enc }))
    }
}

impl<G: DhGroup> Kem for DhKem<G> {
    const ID: u16 = G::KEM_ID;
    type NSecret = G::NSecret;
    type NEnc = G::NPk;
    type NPk = G::NPk;
    type NSk = G::NSk;
    type Sk = DhPrivateKey<G>;
    type Pk = DhPublicKey<G>;
    type Prepared = G::Table;
    type Engine = Self;

    fn visit_auth<V: super::AuthKemVisitor>(visitor: V) -> Option<V::Output> {
        Some(visitor.visit::<Self>())
    }

    fn generate<R: CryptoRng + ?Sized>(
        rng: &mut R,
    ) -> Result<(PrivateKey<Self>, PublicKey<Self>), Error> {
        G::Engine::random_scalar(rng)
            .map(Self::key_pair)
            .ok_or(Error::DeriveKeyPair)
    }

    fn derive_key_pair(ikm: &[u8]) -> Result<(PrivateKey<Self>, PublicKey<Self>), Error> {
        // dkp_prk = LabeledExtract("", "dkp_prk", ikm)
        let dkp_prk = labeled_extract::<G::Hash>(&[], &Self::SUITE_ID, Label::DkpPrk, &[ikm]);
        let scalar = G::Engine::derive_scalar(&Self::SUITE_ID, &expander::<G::Hash>(&dkp_prk))?;
        Ok(Self::key_pair(scalar))
    }

    fn encap<R: CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        Self::encap_to(rng, pk_r, None)
    }

    fn decap(
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
    ) -> Result<SharedSecret<Self>, Error> {
        // pkE = DeserializePublicKey(enc)
        let pk_e = G::Engine::point_from_bytes(&enc.enc).map_err(|_| Error::Decap)?;
        // dh = DH(skR, pkE)
        let dh = Self::dh(&sk_r.sk.scalar, &pk_e, Error::Decap)?;
        // kem_context = concat(enc, pkRm), pkRm cached in the private key
        Self::extract_and_expand(&[&dh], &[&enc.enc, &sk_r.sk.public.bytes])
            .map_err(|_| Error::Decap)
    }
}

impl<G: DhGroup> KemEngine<DhKem<G>> for DhKem<G> {
    fn prepare(pk: &DhPublicKey<G>) -> G::Table {
        G::Engine::prepare(&pk.point)
    }

    fn prepared_heap_size(table: &G::Table) -> usize {
        G::Engine::table_heap_size(table)
    }

    fn encap_to<R: CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<Self>,
        table: Option<&G::Table>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        // skE, pkE = GenerateKeyPair()
        let sk_e = G::Engine::random_scalar(rng).ok_or(Error::Encap)?;
        Self::encap_with(DhPrivateKey::new(sk_e), pk_r, table)
    }

    fn encap_deterministic(
        ikm_e: &[u8],
        pk_r: &PublicKey<Self>,
        table: Option<&G::Table>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        let (sk_e, _) = Self::derive_key_pair(ikm_e)?;
        Self::encap_with(sk_e.sk, pk_r, table)
    }

    fn sk_from_bytes(bytes: &[u8]) -> Result<<Self as Kem>::Sk, Error> {
        Ok(DhPrivateKey::new(G::Engine::scalar_from_bytes(bytes)?))
    }

    /// The scalar parsed as [`Self::sk_from_bytes`] parses it, beside `pk` as given: no
    /// base-point multiplication (`pk(sk)` is not recomputed, so not compared either).
    fn sk_from_bytes_and_public(
        bytes: &[u8],
        pk: &<Self as Kem>::Pk,
    ) -> Result<<Self as Kem>::Sk, Error> {
        Ok(DhPrivateKey {
            scalar: G::Engine::scalar_from_bytes(bytes)?,
            public: pk.clone(),
        })
    }

    fn sk_from_bytes_and_public_bytes(bytes: &[u8], pk: &[u8]) -> Result<<Self as Kem>::Sk, Error> {
        let scalar = G::Engine::scalar_from_bytes(bytes)?;
        Ok(DhPrivateKey {
            scalar,
            public: Self::pk_from_bytes(pk)?,
        })
    }

    fn sk_to_bytes(sk: &<Self as Kem>::Sk) -> Zeroizing<Array<u8, <Self as Kem>::NSk>> {
        G::Engine::scalar_to_bytes(&sk.scalar)
    }

    fn sk_public_key(sk: &<Self as Kem>::Sk) -> &<Self as Kem>::Pk {
        &sk.public
    }

    fn sk_ct_eq(a: &<Self as Kem>::Sk, b: &<Self as Kem>::Sk) -> Choice {
        G::Engine::scalar_ct_eq(&a.scalar, &b.scalar)
    }

    fn pk_from_bytes(bytes: &[u8]) -> Result<<Self as Kem>::Pk, Error> {
        let point = G::Engine::point_from_bytes(bytes)?;
        let bytes = Array::try_from(bytes).map_err(|_| Error::InvalidPublicKey)?;
        Ok(DhPublicKey { point, bytes })
    }

    fn pk_as_bytes(pk: &<Self as Kem>::Pk) -> &Array<u8, <Self as Kem>::NPk> {
        &pk.bytes
    }
}

impl<G: DhGroup> AuthKem for DhKem<G> {
    type AuthEngine = Self;
    type NDh = G::NDh;

    fn auth_encap<R: CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<Self>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        Self::auth_encap_to(rng, pk_r, None, sk_s)
    }

    fn auth_decap(
        enc: &EncappedKey<Self>,
        sk_r: &PrivateKey<Self>,
        pk_s: &PublicKey<Self>,
    ) -> Result<SharedSecret<Self>, Error> {
        let pk_e = G::Engine::point_from_bytes(&enc.enc).map_err(|_| Error::Decap)?;
        // dh = concat(DH(skR, pkE), DH(skR, pkS))
        let dh_e = Self::dh(&sk_r.sk.scalar, &pk_e, Error::Decap)?;
        let dh_s = Self::dh(&sk_r.sk.scalar, &pk_s.pk.point, Error::Decap)?;
        // kem_context = concat(enc, pkRm, pkSm)
        Self::extract_and_expand(
            &[&dh_e, &dh_s],
            &[&enc.enc, &sk_r.sk.public.bytes, &pk_s.pk.bytes],
        )
        .map_err(|_| Error::Decap)
    }
}

impl<G: DhGroup> AuthKemEngine<DhKem<G>> for DhKem<G> {
    fn auth_encap_to<R: CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<Self>,
        table: Option<&G::Table>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        let sk_e = G::Engine::random_scalar(rng).ok_or(Error::Encap)?;
        Self::auth_encap_with(DhPrivateKey::new(sk_e), pk_r, table, sk_s)
    }

    fn auth_encap_deterministic(
        ikm_e: &[u8],
        pk_r: &PublicKey<Self>,
        table: Option<&G::Table>,
        sk_s: &PrivateKey<Self>,
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        let (sk_e, _) = Self::derive_key_pair(ikm_e)?;
        Self::auth_encap_with(sk_e.sk, pk_r, table, sk_s)
    }

    fn shared_secret(dh: &[&[u8]], kem_context: &[&[u8]]) -> Result<SharedSecret<Self>, Error> {
        Self::extract_and_expand(dh, kem_context)
    }

    fn auth_encap_with_dh<R: CryptoRng + ?Sized>(
        rng: &mut R,
        pk_r: &PublicKey<Self>,
        table: Option<&G::Table>,
        pk_sm: &[u8],
        dh_s: &[u8],
    ) -> Result<(SharedSecret<Self>, EncappedKey<Self>), Error> {
        let sk_e = DhPrivateKey::<G>::new(G::Engine::random_scalar(rng).ok_or(Error::Encap)?);
        // dh = concat(DH(skE, pkR), DH(skS, pkR))
        let dh_e = Self::dh_to(&sk_e.scalar, &pk_r.pk.point, table, Error::Encap)?;
        let enc = sk_e.public.bytes.clone();
        // kem_context = concat(enc, pkRm, pkSm)
        let shared_secret =
            Self::extract_and_expand(&[&dh_e, dh_s], &[&enc, &pk_r.pk.bytes, pk_sm])?;
        Ok((shared_secret, EncappedKey { enc }))
    }
}

/// `LabeledExpand(dkp_prk, label, info, Nsk)` into a fresh buffer, for `derive_scalar`.
#[cfg_attr(
    not(any(
        feature = "x25519",
        feature = "x448",
        feature = "nist",
        feature = "secp256k1"
    )),
    allow(dead_code, reason = "used by the curve modules")
)]
pub(crate) fn expand_candidate<H: EagerHash, N: ArraySize>(
    dkp_prk: &Expander<H>,
    suite_id: &[u8],
    label: Label,
    info: &[u8],
) -> Result<Zeroizing<Array<u8, N>>, Error> {
    let mut out = Zeroizing::new(Array::<u8, N>::default());
    labeled_expand(dkp_prk, suite_id, label, &[info], &mut out)
        .map_err(|_| Error::DeriveKeyPair)?;
    Ok(out)
}

#[cfg(all(test, feature = "x25519"))]
mod tests {
    extern crate alloc;
    use alloc::format;

    use super::DhKem;
    use crate::kem::{DhKemX25519HkdfSha256, Kem, X25519};

    /// The framework's own `Debug`s, which no public API reaches today (a key's `Debug` is
    /// `PrivateKey`'s), so that a type that comes to hold one prints it redacted: the KEM its
    /// id, a private key nothing of its scalar, a public key its bytes.
    #[test]
    fn debug_is_redacted_and_says_what_it_is() {
        assert_eq!(
            format!("{:?}", DhKem::<X25519>(core::marker::PhantomData)),
            "DhKem(0x0020)"
        );
        let (sk, pk) = DhKemX25519HkdfSha256::derive_key_pair(&[7; 32]).unwrap();
        assert_eq!(format!("{:?}", sk.sk), "DhPrivateKey(<redacted>)");
        assert_eq!(
            format!("{:?}", pk.pk),
            format!("DhPublicKey({:?})", crate::util::Hex(pk.as_bytes()))
        );
    }
}
