// `DecapKey` is sealed: a caller cannot hand typed-hpke a key of its own making that returns
// whatever shared secret it likes. A key held elsewhere goes through `ExternalDh` /
// `ExternalDecap`, or through `Decapsulated`, which binds its secret to one `enc`.
use typed_hpke::kem::{DecapKey, EncappedKey, MlKem768, SharedSecret};

struct Mine;

impl DecapKey<MlKem768> for Mine {
    type Error = typed_hpke::Error;
    fn decap_for(&self, _: &EncappedKey<MlKem768>) -> Result<SharedSecret<MlKem768>, Self::Error> {
        unimplemented!()
    }
}

fn main() {}
