//! See [`grimoire_fuzz::fmt_target`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| grimoire_fuzz::fmt_target(data));
