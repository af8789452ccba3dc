//! A recipient key held outside the process (a device's secure element): the decryptor asks
//! the holder for the Diffie-Hellman values and does the rest, for COSE_Encrypt0 and
//! COSE_Encrypt, in base and PSK mode; the holder's failures and the KEMs it cannot serve.

use typed_hpke::kem::{EncappedKey, ExternalDecap, ExternalDh, Kem, XWing};
use typed_hpke::suite::{AnyKem, DecapHolder, DhHolder, PublicKey};
use typed_hpke_cose::{
    Algorithm, ContentAlgorithm, Decryptor, Encryptor, Error, PrivateCoseKey, PublicCoseKey,
    Recipient,
};

/// An X25519 key in a "secure element": x25519-dalek, not typed-hpke, computes with it.
struct Holder {
    secret: x25519_dalek::StaticSecret,
    public: PublicKey,
    fail: bool,
}

impl Holder {
    fn new(seed: u8) -> Self {
        let secret = x25519_dalek::StaticSecret::from([seed; 32]);
        let pk = x25519_dalek::PublicKey::from(&secret);
        let public = AnyKem::new(0x0020)
            .unwrap()
            .public_key_from_bytes(pk.as_bytes())
            .unwrap();
        Self {
            secret,
            public,
            fail: false,
        }
    }
}

impl DhHolder for Holder {
    type Error = &'static str;
    fn public_key(&self) -> &PublicKey {
        &self.public
    }
    fn dh(&self, peer: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
        if self.fail {
            return Err("the element is gone");
        }
        let peer: [u8; 32] = peer.try_into().map_err(|_| "not an X25519 key")?;
        out.copy_from_slice(
            self.secret
                .diffie_hellman(&x25519_dalek::PublicKey::from(peer))
                .as_bytes(),
        );
        Ok(())
    }
}

fn encrypt(alg: Algorithm, to: &PublicCoseKey, psk: Option<&[u8]>) -> Vec<u8> {
    let mut rng = typed_hpke_cose::OsRng::default();
    let e = if alg.is_key_encryption() {
        let mut r = Recipient::new(alg, to).unwrap();
        if let Some(psk) = psk {
            r = r.psk(psk, b"id").unwrap();
        }
        Encryptor::key_encryption(ContentAlgorithm::A128Gcm)
            .recipient(r)
            .unwrap()
    } else {
        let e = Encryptor::encrypt0(alg, to).unwrap();
        if let Some(psk) = psk {
            e.psk(psk, b"id").unwrap()
        } else {
            e
        }
    };
    e.external_aad(b"aad")
        .encrypt(&mut rng, b"from the element")
        .unwrap()
}

#[test]
fn an_element_key_decrypts_every_mode() {
    let holder = Holder::new(7);
    let held = ExternalDh(&holder);
    let public = PublicCoseKey::new(holder.public.clone()).with_kid(*b"element-1");
    let local = PrivateCoseKey::new(
        AnyKem::new(0x0020)
            .unwrap()
            .private_key_from_bytes(&[7; 32])
            .unwrap(),
    )
    .with_kid(*b"element-1");
    let psk = [3u8; 32];
    for alg in [
        Algorithm::HPKE_3,
        Algorithm::HPKE_4,
        Algorithm::HPKE_3_KE,
        Algorithm::HPKE_4_KE,
    ] {
        for with_psk in [None, Some(&psk[..])] {
            let message = encrypt(alg, &public, with_psk);
            let mut d =
                Decryptor::external(&held, Some(alg), Some(b"element-1")).external_aad(b"aad");
            let mut l = Decryptor::new(&local).external_aad(b"aad");
            if with_psk.is_some() {
                d = d.psk(&psk, b"id").unwrap();
                l = l.psk(&psk, b"id").unwrap();
            }
            assert_eq!(
                d.decrypt(&message).unwrap(),
                b"from the element",
                "{}",
                alg.name()
            );
            assert_eq!(l.decrypt(&message).unwrap(), b"from the element");
        }
    }
}

#[test]
fn the_holder_and_its_limits() {
    let holder = Holder::new(7);
    let public = PublicCoseKey::new(holder.public.clone()).with_kid(*b"element-1");
    let message = encrypt(Algorithm::HPKE_3_KE, &public, None);
    fn d<'a>(
        h: &'a ExternalDh<&'a Holder>,
        alg: Option<Algorithm>,
        kid: Option<&'a [u8]>,
    ) -> Decryptor<'a> {
        Decryptor::external(h, alg, kid).external_aad(b"aad")
    }
    assert_eq!(
        d(&ExternalDh(&holder), None, Some(b"other")).decrypt(&message),
        Err(Error::NoRecipient)
    );
    assert_eq!(
        d(&ExternalDh(&holder), Some(Algorithm::HPKE_4_KE), None).decrypt(&message),
        Err(Error::NoRecipient)
    );
    assert_eq!(
        d(&ExternalDh(&Holder::new(8)), None, None).decrypt(&message),
        Err(Error::Decrypt)
    );
    let failing = Holder {
        fail: true,
        ..Holder::new(7)
    };
    assert_eq!(
        d(&ExternalDh(&failing), None, None).decrypt(&message),
        Err(Error::KeyHolder)
    );
    // A post-quantum key has no Diffie-Hellman to hand out.
    let mut rng = typed_hpke_cose::OsRng::default();
    let pq = PrivateCoseKey::generate(Algorithm::HPKE_9, &mut rng).unwrap();
    // An X-Wing key's holder that decapsulates whole: the post-quantum KEMs too.
    struct PqHolder(PublicKey, Vec<u8>);
    impl DecapHolder for PqHolder {
        type Error = &'static str;
        fn public_key(&self) -> &PublicKey {
            &self.0
        }
        fn decapsulate(&self, enc: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
            let sk = typed_hpke::PrivateKey::<XWing>::from_bytes(&self.1).map_err(|_| "key")?;
            let enc = EncappedKey::<XWing>::from_bytes(enc).map_err(|_| "enc")?;
            let secret = XWing::decap(&enc, &sk).map_err(|_| "decap")?;
            out.copy_from_slice(secret.as_bytes());
            Ok(())
        }
    }
    impl DhHolder for PqHolder {
        type Error = &'static str;
        fn public_key(&self) -> &PublicKey {
            &self.0
        }
        fn dh(&self, _: &[u8], _: &mut [u8]) -> Result<(), &'static str> {
            unreachable!("a post-quantum KEM asks for no Diffie-Hellman value")
        }
    }
    let pq_holder = PqHolder(pq.public_key().key().clone(), pq.key().to_bytes().to_vec());
    let message = encrypt(Algorithm::HPKE_9, pq.public_key(), None);
    assert_eq!(
        Decryptor::external(&ExternalDh(&pq_holder), None, None)
            .external_aad(b"aad")
            .decrypt(&message),
        Err(Error::UnsupportedAlgorithm)
    );
    assert_eq!(
        Decryptor::external(&ExternalDecap(&pq_holder), None, None)
            .external_aad(b"aad")
            .decrypt(&message)
            .unwrap(),
        b"from the element"
    );
}
