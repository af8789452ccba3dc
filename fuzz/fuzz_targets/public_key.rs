#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::{for_each_kem, public_key};

fuzz_target!(|data: &[u8]| for_each_kem!(public_key, data));
