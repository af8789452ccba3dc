#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::{for_each_kem_family, prepared_auth, prepared_pq};

fuzz_target!(|data: &[u8]| for_each_kem_family!(prepared_auth, prepared_pq, data));
