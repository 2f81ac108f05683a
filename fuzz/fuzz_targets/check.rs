//! See [`grimoire_fuzz::check_target`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| grimoire_fuzz::check_target(data));
