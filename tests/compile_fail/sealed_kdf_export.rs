// Export from a bare exporter secret, outside a context, is sealed.
use typed_hpke::kdf::{Kdf, Shake256};

fn through_a_bound<F: Kdf>(exporter: &F::Exporter) {
    let _ = F::export(b"HPKE", exporter, b"", &mut [0u8; 32]);
}

fn through_the_engine<F: Kdf>(exporter: &F::Exporter) {
    let _ = F::Engine::export(b"HPKE", exporter, b"", &mut [0u8; 32]);
}

fn on_the_type(exporter: &<Shake256 as Kdf>::Exporter) {
    let _ = Shake256::export(b"HPKE", exporter, b"", &mut [0u8; 32]);
}

fn main() {}
