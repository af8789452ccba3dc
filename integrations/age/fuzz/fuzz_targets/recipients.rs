//! Recipient strings and keys, then a file encrypted to each: an error or a file that opens,
//! never a panic (`typed_hpke_age::fuzzing::recipients` states the properties).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| typed_hpke_age::fuzzing::recipients(data));
