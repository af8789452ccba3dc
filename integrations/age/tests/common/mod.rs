//! What the integration tests share: whole files through the `age` crate's own API.

use std::io::{Read, Write};

use age::DecryptError;

/// `pt` encrypted to `recipients` by `age::Encryptor`, armored or binary.
pub fn encrypt(recipients: &[&dyn age::Recipient], pt: &[u8], armor: bool) -> Vec<u8> {
    let encryptor = age::Encryptor::with_recipients(recipients.iter().copied()).unwrap();
    let mut file = vec![];
    let format = if armor {
        age::armor::Format::AsciiArmor
    } else {
        age::armor::Format::Binary
    };
    let out = age::armor::ArmoredWriter::wrap_output(&mut file, format).unwrap();
    let mut w = encryptor.wrap_output(out).unwrap();
    w.write_all(pt).unwrap();
    w.finish().unwrap().finish().unwrap();
    file
}

/// `file` (armored or not) decrypted by `age::Decryptor` with `identity`, read to the end.
pub fn decrypt(file: &[u8], identity: &dyn age::Identity) -> Result<Vec<u8>, DecryptError> {
    let decryptor = typed_hpke_age::decryptor(age::armor::ArmoredReader::new(file))?;
    let mut r = decryptor.decrypt(std::iter::once(identity))?;
    let mut out = vec![];
    r.read_to_end(&mut out)?;
    Ok(out)
}
