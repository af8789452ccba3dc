//! The JWE and its three serializations (RFC 7516 §7; draft-ietf-jose-hpke-encrypt-20 §4 and
//! §7.1 step 21 for what compact can carry).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use crate::json::{object, object_member, str_member};
use crate::{Error, MAX_HEADER_LEN, MAX_RECIPIENTS, b64};

/// One recipient of a JWE: its per-recipient header (JSON serializations only) and its JWE
/// Encrypted Key (the HPKE `enc` in integrated encryption, the sealed CEK in key encryption).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JweRecipient {
    pub(crate) header: Option<Map<String, Value>>,
    pub(crate) encrypted_key: Vec<u8>,
}

impl JweRecipient {
    /// The per-recipient unprotected header, if any.
    pub fn header(&self) -> Option<&Map<String, Value>> {
        self.header.as_ref()
    }

    /// The JWE Encrypted Key.
    pub fn encrypted_key(&self) -> &[u8] {
        &self.encrypted_key
    }
}

/// A JWE, parsed from or written to any serialization. The protected header is kept as it
/// was encoded, since its encoding is authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jwe {
    pub(crate) protected_b64: String,
    pub(crate) protected: Map<String, Value>,
    pub(crate) unprotected: Option<Map<String, Value>>,
    pub(crate) aad_b64: Option<String>,
    pub(crate) iv: Vec<u8>,
    pub(crate) ciphertext: Vec<u8>,
    pub(crate) tag: Vec<u8>,
    pub(crate) recipients: Vec<JweRecipient>,
}

fn protected_header(encoded: &str) -> Result<Map<String, Value>, Error> {
    if encoded.is_empty() {
        return Ok(Map::new());
    }
    // The longest unpadded base64url text of MAX_HEADER_LEN bytes: any longer one decodes to
    // more, and none as long decodes to more (4 characters carry 3 bytes).
    if encoded.len() > (MAX_HEADER_LEN * 4).div_ceil(3) {
        return Err(Error::TooLarge);
    }
    object(&b64::decode(encoded)?)
}

fn b64_member(map: &Map<String, Value>, name: &'static str) -> Result<Vec<u8>, Error> {
    str_member(map, name)?.map_or(Ok(Vec::new()), b64::decode)
}

impl Jwe {
    /// Reads a JWE in the compact serialization or either JSON serialization (a JSON one
    /// starts with `{`). White space around the JWE is ignored in both, as JSON ignores it: a
    /// compact JWE read from a file or a line keeps its newline. [`Self::from_compact`] takes
    /// the five parts alone.
    ///
    /// # Errors
    /// As [`Self::from_compact`] and [`Self::from_json`].
    pub fn parse(text: &str) -> Result<Self, Error> {
        let text = text.trim_ascii();
        if text.starts_with('{') {
            Self::from_json(text)
        } else {
            Self::from_compact(text)
        }
    }

    /// Reads the compact serialization: five base64url parts separated by dots (RFC 7516
    /// §7.1), the IV and tag empty in integrated encryption.
    ///
    /// # Errors
    /// [`Error::Malformed`] without five parts or a protected header; [`Error::Base64`],
    /// [`Error::DuplicateMember`], [`Error::TooLarge`] for its parts.
    pub fn from_compact(text: &str) -> Result<Self, Error> {
        let mut parts = text.split('.');
        let mut next = || {
            parts
                .next()
                .ok_or(Error::Malformed("compact serialization has five parts"))
        };
        let (protected_b64, ek, iv, ct, tag) = (next()?, next()?, next()?, next()?, next()?);
        if parts.next().is_some() {
            return Err(Error::Malformed("compact serialization has five parts"));
        }
        if protected_b64.is_empty() {
            return Err(Error::Malformed(
                "compact serialization needs a protected header",
            ));
        }
        Ok(Self {
            protected: protected_header(protected_b64)?,
            protected_b64: protected_b64.into(),
            unprotected: None,
            aad_b64: None,
            iv: b64::decode(iv)?,
            ciphertext: b64::decode(ct)?,
            tag: b64::decode(tag)?,
            recipients: alloc::vec![JweRecipient {
                header: None,
                encrypted_key: b64::decode(ek)?
            }],
        })
    }

    /// Reads the general or flattened JSON serialization (RFC 7516 §7.2). Members this crate
    /// does not know are ignored, as §7.2.1 says; a member name twice is refused.
    ///
    /// # Errors
    /// [`Error::Malformed`] for a member of the wrong type, a missing `ciphertext`, or
    /// `recipients` beside the flattened members; [`Error::Base64`],
    /// [`Error::DuplicateMember`], [`Error::TooLarge`].
    pub fn from_json(text: &str) -> Result<Self, Error> {
        let map = object(text.as_bytes())?;
        let protected_b64 = str_member(&map, "protected")?.unwrap_or("");
        let aad_b64 = str_member(&map, "aad")?;
        if let Some(aad) = aad_b64 {
            b64::decode(aad)?;
        }
        let ciphertext = str_member(&map, "ciphertext")?.ok_or(Error::Malformed("ciphertext"))?;
        let recipient = |m: &Map<String, Value>| -> Result<JweRecipient, Error> {
            Ok(JweRecipient {
                header: object_member(m, "header")?.cloned(),
                encrypted_key: b64_member(m, "encrypted_key")?,
            })
        };
        let recipients = match map.get("recipients") {
            None => alloc::vec![recipient(&map)?],
            Some(Value::Array(list)) => {
                if map.contains_key("header") || map.contains_key("encrypted_key") {
                    return Err(Error::Malformed("recipients beside flattened members"));
                }
                if list.is_empty() {
                    return Err(Error::Malformed("recipients is empty"));
                }
                if list.len() > MAX_RECIPIENTS {
                    return Err(Error::TooLarge);
                }
                list.iter()
                    .map(|r| {
                        r.as_object()
                            .ok_or(Error::Malformed("recipient"))
                            .and_then(recipient)
                    })
                    .collect::<Result<_, _>>()?
            }
            Some(_) => return Err(Error::Malformed("recipients")),
        };
        Ok(Self {
            protected: protected_header(protected_b64)?,
            protected_b64: protected_b64.into(),
            unprotected: object_member(&map, "unprotected")?.cloned(),
            aad_b64: aad_b64.map(String::from),
            iv: b64_member(&map, "iv")?,
            ciphertext: b64::decode(ciphertext)?,
            tag: b64_member(&map, "tag")?,
            recipients,
        })
    }

    /// The compact serialization.
    ///
    /// # Errors
    /// [`Error::Serialization`] for a JWE with a JWE AAD, an unprotected header or more than
    /// one recipient (draft-ietf-jose-hpke-encrypt-20 §4).
    pub fn to_compact(&self) -> Result<String, Error> {
        let [recipient] = self.recipients.as_slice() else {
            return Err(Error::Serialization);
        };
        if self.aad_b64.is_some()
            || self.unprotected.is_some()
            || recipient.header.is_some()
            || self.protected_b64.is_empty()
        {
            return Err(Error::Serialization);
        }
        Ok([
            self.protected_b64.clone(),
            b64::encode(&recipient.encrypted_key),
            b64::encode(&self.iv),
            b64::encode(&self.ciphertext),
            b64::encode(&self.tag),
        ]
        .join("."))
    }

    fn json_common(&self) -> Map<String, Value> {
        let mut map = Map::new();
        let mut put = |name: &str, value: String| {
            map.insert(name.into(), Value::String(value));
        };
        if !self.protected_b64.is_empty() {
            put("protected", self.protected_b64.clone());
        }
        if let Some(aad) = &self.aad_b64 {
            put("aad", aad.clone());
        }
        // RFC 7516 §7.2.1: `iv` and `tag` are absent when empty (integrated encryption).
        if !self.iv.is_empty() {
            put("iv", b64::encode(&self.iv));
        }
        put("ciphertext", b64::encode(&self.ciphertext));
        if !self.tag.is_empty() {
            put("tag", b64::encode(&self.tag));
        }
        if let Some(u) = &self.unprotected {
            map.insert("unprotected".into(), Value::Object(u.clone()));
        }
        map
    }

    fn write_recipient(r: &JweRecipient, map: &mut Map<String, Value>) {
        if let Some(h) = &r.header {
            map.insert("header".into(), Value::Object(h.clone()));
        }
        if !r.encrypted_key.is_empty() {
            map.insert(
                "encrypted_key".into(),
                Value::String(b64::encode(&r.encrypted_key)),
            );
        }
    }

    /// The flattened JSON serialization (RFC 7516 §7.2.2).
    ///
    /// # Errors
    /// [`Error::Serialization`] for more than one recipient.
    pub fn to_flattened(&self) -> Result<String, Error> {
        let [recipient] = self.recipients.as_slice() else {
            return Err(Error::Serialization);
        };
        let mut map = self.json_common();
        Self::write_recipient(recipient, &mut map);
        Ok(Value::Object(map).to_string())
    }

    /// The general JSON serialization (RFC 7516 §7.2.1).
    pub fn to_general(&self) -> String {
        let mut map = self.json_common();
        let recipients = self
            .recipients
            .iter()
            .map(|r| {
                let mut m = Map::new();
                Self::write_recipient(r, &mut m);
                Value::Object(m)
            })
            .collect();
        map.insert("recipients".into(), Value::Array(recipients));
        Value::Object(map).to_string()
    }

    /// The protected header.
    pub fn protected_header(&self) -> &Map<String, Value> {
        &self.protected
    }

    /// The shared unprotected header (JSON serializations), if any.
    pub fn unprotected_header(&self) -> Option<&Map<String, Value>> {
        self.unprotected.as_ref()
    }

    /// The JWE AAD (JSON serializations), if any.
    pub fn aad(&self) -> Option<Vec<u8>> {
        self.aad_b64.as_deref().and_then(|a| b64::decode(a).ok())
    }

    /// The recipients, in order.
    pub fn recipients(&self) -> &[JweRecipient] {
        &self.recipients
    }

    /// The Additional Authenticated Data of §7.1 step 15: `ASCII(Encoded Protected Header)`,
    /// then `'.' || BASE64URL(JWE AAD)` when there is a JWE AAD.
    pub(crate) fn authenticated_data(&self) -> Vec<u8> {
        let mut out = self.protected_b64.as_bytes().to_vec();
        if let Some(aad) = &self.aad_b64 {
            out.push(b'.');
            out.extend_from_slice(aad.as_bytes());
        }
        out
    }

    /// The JOSE Header of recipient `i`: the protected header, the shared unprotected header
    /// and the recipient's header, whose names must be disjoint (RFC 7516 §7.2.1). A view of
    /// the three, never a copy: a JWE's shared header is read once per recipient, so copying
    /// it would cost its size times the recipients. Checking the recipient's names costs
    /// their number times a look-up; the two shared headers are checked against each other
    /// once, by [`Self::shared_headers_disjoint`].
    pub(crate) fn joint_header(&self, i: usize) -> Result<JointHeader<'_>, Error> {
        let recipient = self.recipients.get(i).and_then(|r| r.header.as_ref());
        let joint = JointHeader {
            protected: &self.protected,
            unprotected: self.unprotected.as_ref(),
            recipient: None,
        };
        if recipient.is_some_and(|r| r.keys().any(|name| joint.contains_key(name))) {
            return Err(Error::Header("a parameter in two header locations"));
        }
        Ok(JointHeader { recipient, ..joint })
    }

    /// The protected and shared unprotected headers have no name in common (RFC 7516 §7.2.1).
    pub(crate) fn shared_headers_disjoint(&self) -> Result<(), Error> {
        let mut shared = self.unprotected.iter().flat_map(Map::keys);
        if shared.any(|name| self.protected.contains_key(name)) {
            return Err(Error::Header("a parameter in two header locations"));
        }
        Ok(())
    }
}

/// A recipient's JOSE Header (RFC 7516 §7.2.1) as a view of its three disjoint parts.
pub(crate) struct JointHeader<'j> {
    protected: &'j Map<String, Value>,
    unprotected: Option<&'j Map<String, Value>>,
    recipient: Option<&'j Map<String, Value>>,
}

impl<'j> JointHeader<'j> {
    pub(crate) fn get(&self, name: &str) -> Option<&'j Value> {
        [Some(self.protected), self.unprotected, self.recipient]
            .into_iter()
            .flatten()
            .find_map(|part| part.get(name))
    }

    pub(crate) fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The member `name` as a string, if present.
    pub(crate) fn str(&self, name: &'static str) -> Result<Option<&'j str>, Error> {
        crate::json::str_value(self.get(name), name)
    }
}
