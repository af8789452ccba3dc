#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::{for_each_kem, serde_keys};

fuzz_target!(|data: &[u8]| for_each_kem!(serde_keys, data));
