#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::{auth_decap, decap, for_each_kem_family};

fuzz_target!(|data: &[u8]| for_each_kem_family!(auth_decap, decap, data));
