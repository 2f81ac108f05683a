//! Properties over generated inputs, and the fuzz targets' defects kept as
//! fixtures: no input makes grimoire panic (text, spreadsheets, fuzz
//! fixtures), the formatter is idempotent, statuses keep their invariants,
//! and compiled expressions and effects agree with the tree walker.
//!
//! One test binary for all of them (linking is most of a fresh `cargo test`):
//! `PROPTEST_CASES=100000 cargo test --release --test properties never_panics`
//! hunts longer in one module.

#[path = "../common/mod.rs"]
mod common;

mod bounded;
mod card_effects;
mod compiled;
mod csv_never_panics;
mod fmt_props;
mod fuzz_regressions;
mod never_panics;
mod status_props;
