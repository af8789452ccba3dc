// Without the `hazmat` feature this entry point does not exist: the last line fails, and only it.
use typed_hpke::OsRng;
use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};

fn main() -> Result<(), typed_hpke::Error> {
    let mut rng = OsRng::default();
    let suite = Suite::new(0x0020, 0x0001, 0x0003)?;
    let (sk, pk) = suite.generate_key_pair(&mut rng)?;
    let (enc, _) = suite.setup_sender(&mut rng, &pk, b"", SenderMode::Base)?;
    let mut ctx = suite.setup_receiver(enc.as_bytes(), &sk, b"", ReceiverMode::Base)?;
    ctx.set_sequence_number_for_testing_only(7);
    Ok(())
}
