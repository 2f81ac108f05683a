//! Seed 003's duel (`rules/duel.edn`) from the outside: a seeded game's log,
//! simulations that always end, and "first to 3 hits" as a param.

use crate::common;

use common::{grimoire, seat_wins};
use serde_json::Value;

#[test]
fn a_seeded_duel_prints_the_same_log_with_every_roll() {
    let log = grimoire(&["play", "duel", "--seed", "5"]);
    assert_eq!(log, grimoire(&["play", "duel", "--seed", "5"]));
    assert!(log.contains(" rolls 1d20+"), "{log}");
    insta::assert_snapshot!(log);
}

fn simulate(rules: &str, games: &str) -> Value {
    let out = grimoire(&[
        "simulate", rules, "--games", games, "--seed", "3", "--format", "json",
    ]);
    serde_json::from_str(&out).expect("JSON")
}

#[test]
fn every_simulated_duel_ends_with_a_winner() {
    let v = simulate("duel", "2000");
    assert_eq!(seat_wins(&v), 2000, "{v}");
    // First to 3 hits: at least 10 turns (3 attacks for the winner, 2 for the
    // other, each followed by its defence turn).
    assert!(v["mean_turns"].as_f64().expect("mean") >= 10.0, "{v}");
}

#[test]
fn hits_to_win_is_a_param_and_0_fights_to_a_collapse() {
    let rules = include_str!("../../rules/duel.edn");
    assert!(rules.contains(":hits-to-win 3"));
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("duel-collapse");
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("duel.edn");
    std::fs::write(&file, rules.replace(":hits-to-win 3", ":hits-to-win 0")).expect("write");
    let path = file.to_string_lossy().into_owned();
    let v = simulate(&path, "500");
    // Stamina only falls, so every fight ends in a collapse (of both at once: a
    // tie), and takes far longer; none reaches the turn limit.
    assert_eq!(
        seat_wins(&v) + v["ties"].as_i64().expect("ties"),
        500,
        "{v}"
    );
    assert_eq!(v["turn_limits"], 0, "{v}");
    assert!(v["mean_turns"].as_f64().expect("mean") > 20.0, "{v}");
    let log = grimoire(&["play", &path, "--seed", "2"]);
    assert!(log.contains("wins: the other collapsed"), "{log}");
    assert!(log.contains("acquires exhausted"), "{log}");
}
