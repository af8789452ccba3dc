//! age key strings, stanzas and headers through typed-hpke-age's parsers and identities
//! (`typed_hpke_age::fuzzing::stanzas` states the properties).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| typed_hpke_age::fuzzing::stanzas(data));
