#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::{derive_key_pair, derive_key_pair_auth, for_each_kem_family};

fuzz_target!(|data: &[u8]| for_each_kem_family!(derive_key_pair_auth, derive_key_pair, data));
