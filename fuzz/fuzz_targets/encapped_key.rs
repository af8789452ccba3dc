#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::{encapped_key, for_each_kem};

fuzz_target!(|data: &[u8]| for_each_kem!(encapped_key, data));
