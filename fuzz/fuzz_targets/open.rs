#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::{open, for_each_kem};

fuzz_target!(|data: &[u8]| for_each_kem!(open, data));
