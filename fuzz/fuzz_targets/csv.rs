//! See [`grimoire_fuzz::csv_target`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| grimoire_fuzz::csv_target(data));
