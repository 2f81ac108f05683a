//! The language: reading, checking and explaining what designers write, and
//! what it means when it runs. The diagnostics and their snapshots, card
//! sources (spreadsheets, Markdown tables), the formatter, explanations,
//! dice, every example of `docs/LANGUAGE.md` and of seed 004's effects,
//! status definitions and `:each`.
//!
//! One test binary for all of them (linking is most of a fresh `cargo test`):
//! `cargo test --test language dice` runs one module.

#[path = "../common/mod.rs"]
mod common;

mod card_effects;
mod codes;
mod csv;
mod diagnostics;
mod dice;
mod each;
mod explain;
mod fmt;
mod language_doc;
mod md;
mod rule_set_files;
mod seed004;
mod status_defs;
mod wording;
mod zones;
