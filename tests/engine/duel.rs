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

/// The moves `play duel` makes in the games of seeds 1 to 20 with `ai`.
fn defences(ai: &str) -> Vec<String> {
    (1..=20)
        .flat_map(|seed| {
            let log = grimoire(&["play", "duel", "--seed", &seed.to_string(), "--ai", ai]);
            log.lines()
                .filter(|l| {
                    l.ends_with(": defend p1")
                        || l.ends_with(": defend p2")
                        || l.contains(": dodge p")
                })
                .map(|l| l.trim().to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_computer_players_choose_the_defence_and_greedy_dodges_when_it_is_free() {
    // p1 (speed 4) dodges p2 (speed 2) for nothing; p2's dodge costs 1, as a defence does.
    let greedy = defences("greedy");
    assert!(greedy.iter().any(|m| m == "p1: dodge p2"), "{greedy:?}");
    assert!(!greedy.iter().any(|m| m == "p1: defend p2"), "{greedy:?}");
    // The random player picks among the legal moves: both defences, for both seats.
    let random = defences("random");
    for m in [
        "p1: dodge p2",
        "p1: defend p2",
        "p2: dodge p1",
        "p2: defend p1",
    ] {
        assert!(random.iter().any(|r| r == m), "{m} in {random:?}");
    }
}

#[test]
fn a_person_defends_or_dodges_on_their_defend_turn() {
    // Seed 3: p2 attacks first, so the person's first choice is a defence;
    // they dodge, for free, and then attack.
    let out = common::run_in(
        &["play", "duel", "--human", "--seed", "3"],
        "2\n1\nq\n",
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    let shown = common::text(&out.stdout);
    for want in [
        "turn 2: p1 (defend turn)",
        "your actions:\n  1. p1: defend p2\n  2. p1: dodge p2\n",
        "  p1: dodge p2\n    p1 rolls 1d20+1: 17 (16+1)\nturn 3: p1\n",
        "your actions:\n  1. p1: quick-attack p2\n  2. p1: focused-attack p2\n  3. p1: powerful-attack p2\n",
        "  p1: quick-attack p2\n    p1.stamina 90 -> 88\n",
        "game abandoned",
    ] {
        assert!(shown.contains(want), "{want:?} in:\n{shown}");
    }
}
