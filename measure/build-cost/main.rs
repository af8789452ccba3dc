//! A one-suite file-encryption tool on the runtime API: the suite ids come from the command line
//! as a protocol would read them off the wire.
use std::io::Read;
use typed_hpke::suite::{ReceiverMode, SenderMode, Suite};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let id = |i: usize, d: u16| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let suite = Suite::new(id(1, 0x0020), id(2, 0x0001), id(3, 0x0003))?;
    let mut rng = typed_hpke::OsRng::default();
    let (sk, pk) = suite.generate_key_pair(&mut rng)?;
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input)?;
    let (enc, ct) = suite.seal(&mut rng, &pk, b"file", b"", &input, SenderMode::Base)?;
    let pt = suite.open(&enc, &sk, b"file", b"", &ct, ReceiverMode::Base)?;
    assert_eq!(pt, input);
    println!("{} bytes sealed, enc {} bytes", ct.len(), enc.len());
    Ok(())
}
