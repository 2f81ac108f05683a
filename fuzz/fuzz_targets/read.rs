//! See [`grimoire_fuzz::read_target`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| grimoire_fuzz::read_target(data));
