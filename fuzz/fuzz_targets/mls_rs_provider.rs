#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| typed_hpke_fuzz::targets::mls_rs_provider(data));
