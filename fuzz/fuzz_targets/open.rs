#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::{for_each_kem_family, open, open_all_modes};

fuzz_target!(|data: &[u8]| for_each_kem_family!(open_all_modes, open, data));
