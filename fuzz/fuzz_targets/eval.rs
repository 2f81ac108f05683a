//! See [`grimoire_fuzz::eval_target`].
#![no_main]

libfuzzer_sys::fuzz_target!(|input: grimoire_fuzz::EvalInput| grimoire_fuzz::eval_target(input));
