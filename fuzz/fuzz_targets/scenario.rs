//! See [`grimoire_fuzz::scenario_target`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| grimoire_fuzz::scenario_target(data));
