//! The project's own rules, read from its files: the layers point one way,
//! the source map lists every file, nothing carries a path of the machine it
//! was made on, and the fuzzers' dictionary is the language's words.
//!
//! One test binary for all of them (linking is most of a fresh `cargo test`):
//! `cargo test --test project layers` runs one module.

mod fuzz_dict;
mod layers;
mod map;
mod no_game_names;
mod no_machine_paths;
