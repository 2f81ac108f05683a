//! The built `grimoire` binary driven as a user drives it: exit codes,
//! formats and colour, `check` on real inputs, `play --record` and `replay`,
//! `simulate` (its per-card figures, shards and `merge`), the language
//! server, the HTML report in a headless browser, and docs/TUTORIAL.md run
//! as written.
//!
//! One test binary for all of them (linking is most of a fresh `cargo test`):
//! `cargo test --test cli shards` runs one module;
//! `cargo test --test cli report_browser -- --ignored` runs the browser test.

#[path = "../common/mod.rs"]
mod common;

mod arcomage_identity;
mod bounds;
mod check_inputs;
mod cli;
mod commands;
mod deduction;
mod eval_zones;
mod lsp;
mod mcts;
mod metrics;
mod projects;
mod reactions;
mod replay;
mod report_browser;
mod report_pages;
mod shards;
mod simulate_cards;
mod tutorial;
mod views;
