#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::{derive_key_pair, for_each_kem};

fuzz_target!(|data: &[u8]| for_each_kem!(derive_key_pair, data));
