//! See [`grimoire_fuzz::md_target`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| grimoire_fuzz::md_target(data));
