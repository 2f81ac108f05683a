//! The engine: whole games and the turn machine, the engine's edges and
//! invariants, the bundled rule sets (Arcomage, duel, skills, tactics, tbwg,
//! minions) played from outside, their scenarios, and the rule-set sections
//! games need (actions, choices and segments, pipelines).
//!
//! One test binary for all of them (linking is most of a fresh `cargo test`):
//! `cargo test --test engine tactics` runs one module.

#[path = "../common/mod.rs"]
mod common;

mod actions;
mod card_effects;
mod choices_and_segments;
mod deckbuilder;
mod deduction;
mod draft;
mod duel;
mod engine_edges;
mod fairness;
mod game;
mod invariants;
mod mcts;
mod metrics;
mod minions;
mod observe;
mod pipelines;
mod reactions;
mod rl_aims;
mod scenarios;
mod skills;
mod solo;
mod tactics;
mod tbwg;
mod triggers;
mod turn_machine;
mod zones;
