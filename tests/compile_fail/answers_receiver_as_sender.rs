// A receiver's runtime answers hold `DH(skR, pkS)` for an Auth message, which is what an Auth
// sender to `pkS` needs. They are no sender's key, and no holder whose values can be read back:
// only the receiving functions take them (an Auth sender's are `SenderAnswers`).
use typed_hpke::kem::ExternalDh;
use typed_hpke::suite::{Answers, DhHolder, SenderMode, Suite};
use typed_hpke::OsRng;

fn send_as_receiver(suite: &Suite, answers: &Answers, pk_s: &typed_hpke::suite::PublicKey) {
    let _ = suite.seal(&mut OsRng::default(), pk_s, b"", b"", b"forged", SenderMode::Auth(&ExternalDh(answers)));
    let mut dh = [0u8; 32];
    let _ = answers.dh(pk_s.as_bytes(), &mut dh);
}

fn main() {}
