//! Seed 002's battle (`rules/tbwg.edn`) from the outside: a seeded game's log,
//! and simulations that end, with either policy.

use crate::common;

use common::{grimoire, seat_wins};
use serde_json::Value;

#[test]
fn a_seeded_battle_prints_the_same_log_with_parts_and_rolls() {
    // Seed 37: DIO opens with a Time Stopping Punch, then Stand Punches, which Pain may dodge.
    let log = grimoire(&["play", "tbwg", "--seed", "37"]);
    assert_eq!(log, grimoire(&["play", "tbwg", "--seed", "37"]));
    // The greedy AI aims its punches: every action with `:choose` names its part.
    assert!(log.contains("time-stopping-punch pain ("), "{log}");
    assert!(log.contains("stand-punch pain ("), "{log}");
    assert!(log.contains(" rolls 1d6+17: "), "{log}");
    insta::assert_snapshot!(log);
}

#[test]
fn every_simulated_battle_ends_with_a_winner_or_a_draw() {
    for ai in ["random", "greedy"] {
        let out = grimoire(&[
            "simulate", "tbwg", "--games", "500", "--seed", "3", "--ai", ai, "--format", "json",
        ]);
        let v: Value = serde_json::from_str(&out).expect("JSON");
        // A quake that kills both at once is a draw; nothing else ends a fight undecided.
        assert_eq!(
            seat_wins(&v) + v["ties"].as_i64().expect("ties"),
            500,
            "{ai}: {v}"
        );
        assert_eq!(v["no_action"], 0, "{ai}: {v}");
    }
}
