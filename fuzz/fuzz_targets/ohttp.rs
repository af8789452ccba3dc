#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| typed_hpke_fuzz::ohttp::ohttp(data));
