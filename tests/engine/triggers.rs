//! Cards' triggered abilities in games (issue 31): the brawl fixture's
//! scenarios (a death counted once each, chains included; a deathrattle
//! into the dead minion's slot; a loop stopped by the budget and logged;
//! cards that act when drawn or discarded) pass, and whole games of it,
//! loops included, keep every invariant and end.

use std::path::{Path, PathBuf};

use crate::common;

const BRAWL: &str = "tests/data/triggers/rules/brawl.edn";
const SCENARIOS: &str = "tests/data/triggers/scenarios";

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_fixture_s_scenarios_pass() {
    let out = grimoire::cli::test(&[root(SCENARIOS)], &[], false);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("7 passed, 0 failed"), "{}", out.stdout);
}

#[test]
fn games_with_endless_triggers_end_and_keep_every_invariant() {
    let rules = root(BRAWL);
    let args = [
        "simulate",
        &rules.to_string_lossy(),
        "--games",
        "300",
        "--check-invariants",
    ];
    let out = common::run_in(&args, "", None);
    let said = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("invariants held: 300 games"), "{said}");
}

#[test]
fn a_played_game_logs_its_triggers_and_stops_a_loop() {
    // Seed 3 deals two Frenzies that meet on p1's board.
    let out = common::grimoire(&["play", &root(BRAWL).to_string_lossy(), "--seed", "3"]);
    assert!(
        out.contains("Scavenger triggers: Whenever a minion dies"),
        "{out}"
    );
    assert!(out.contains("Curse triggers: When drawn"), "{out}");
    assert!(
        out.contains("trigger loop: stopped after 500 runs in one chain"),
        "{out}"
    );
}
