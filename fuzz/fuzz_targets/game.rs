//! See [`grimoire_fuzz::game_target`].
#![no_main]

libfuzzer_sys::fuzz_target!(|input: grimoire_fuzz::GameInput| grimoire_fuzz::game_target(input));
