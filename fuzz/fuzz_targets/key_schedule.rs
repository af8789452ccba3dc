#![no_main]

use libfuzzer_sys::fuzz_target;
use typed_hpke_fuzz::key_schedule;

fuzz_target!(|data: &[u8]| key_schedule(data));
