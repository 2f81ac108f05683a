//! Seed 000 (the skill and talisman battle) as the bundled rule set `skills`,
//! driven from outside: the worked example through `eval --card`, whole games
//! through `play` and `simulate`, and the rule set's checks. Every described
//! row of the seed's tables is a scenario, `tests/scenarios/skills/`.

use std::process::Command;

use serde_json::Value;

use crate::common;
use common::{grimoire, value};

/// Runs `grimoire eval --rules skills --format json ARGS…` and parses the output.
fn eval(args: &[&str]) -> Value {
    common::eval_json("skills", args)
}

#[test]
fn the_worked_example_fireball_23_then_34_with_increase_power() {
    // power 15 × Fireball 1.5 = 22.5 → 23.
    let v = eval(&["--card", "Fireball"]);
    assert_eq!(value(&v, "you", "raw"), 23);
    assert_eq!(value(&v, "other", "health"), 125 - 23);
    let burn = &v["state"]["other"]["statuses"][0];
    assert_eq!(burn["id"], "TakeDamage2");
    assert_eq!(burn["left"], 4);
    assert_eq!(burn["magnitude"], 23);
    // An increasePower effect of magnitude 23 is a multi of 1.46: 23 × 1.46 = 33.58 → 34.
    let v = eval(&["--card", "Fireball", "--status", "you=increasePower1@23"]);
    assert_eq!(value(&v, "you", "raw"), 34);
    assert_eq!(value(&v, "other", "health"), 125 - 34);
}

#[test]
fn the_seeds_player_defaults_are_the_rule_sets() {
    // `new player John normal 125 15 8`.
    let v = eval(&["[]"]);
    for who in ["you", "other"] {
        assert_eq!(value(&v, who, "health"), 125);
        assert_eq!(value(&v, who, "power"), 15);
        assert_eq!(value(&v, who, "speed"), 8);
    }
}

#[test]
fn a_status_given_with_a_magnitude_scales_by_it() {
    // heal4: 2 health per 3 power at each turn end; 23 → 16.
    let v = eval(&[
        "--set",
        "you.health=100",
        "--status",
        "you=heal4@23",
        "--then",
        "etiOnTurnEnd",
    ]);
    assert_eq!(value(&v, "you", "health"), 116);
    assert_eq!(v["state"]["you"]["statuses"][0]["left"], 3);
}

#[test]
fn a_bad_magnitude_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .args([
            "eval",
            "--rules",
            "skills",
            "--status",
            "you=heal4@lots",
            "[]",
        ])
        .output()
        .expect("run grimoire");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the magnitude after `@` is a whole number"),
        "{err}"
    );
}

#[test]
fn the_bundled_data_checks_and_a_skills_file_checks_alone() {
    let check = |paths: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_grimoire"))
            .arg("check")
            .args(paths)
            .output()
            .expect("run grimoire");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{err}");
        err
    };
    let err = check(&["rules", "cards", "effects"]);
    assert!(err.contains("0 errors, 0 warnings"), "{err}");
    // A file in a folder named after a bundled rule set gets its bundled
    // statuses too, as with `--rules skills`.
    let err = check(&["cards/skills/skills.edn"]);
    assert!(err.contains("0 errors, 0 warnings"), "{err}");
}

#[test]
fn a_played_battle_log() {
    let log = grimoire(&[
        "play", "skills", "--seed", "3", "--ai", "greedy", "--ai", "random",
    ]);
    assert!(
        log.contains("wins") || log.contains("draw") || log.contains("tie"),
        "{log}"
    );
    insta::assert_snapshot!(log);
}

#[test]
fn the_same_seed_plays_the_same_bytes() {
    let a = grimoire(&["play", "skills", "--seed", "11"]);
    let b = grimoire(&["play", "skills", "--seed", "11"]);
    assert_eq!(a, b);
    assert_ne!(a, grimoire(&["play", "skills", "--seed", "12"]));
}

#[test]
fn the_log_names_every_trigger_and_hides_the_working_values() {
    let log = grimoire(&["play", "skills", "--seed", "1"]);
    // A status's change names the status and the timing it ran at.
    assert!(log.contains("(TakeDamage2) at etiOnTurnStart"), "{log}");
    // The pipeline's working values are `:scratch`: only a status's change to one shows.
    assert!(!log.contains(".dealt 0 ->"), "{log}");
    assert!(!log.contains(".used "), "{log}");
}

#[test]
fn simulate_plays_whole_games_to_an_end() {
    let out = grimoire(&[
        "simulate", "skills", "--games", "200", "--seed", "5", "--format", "json",
    ]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["games"], 200);
    assert_eq!(v["refused"], 0, "{v}");
    assert_eq!(v["no_action"], 0, "{v}");
    let wins = common::seat_wins(&v);
    assert!(wins > 150, "most games end in a win: {v}");
}

#[test]
fn each_fighter_holds_every_skill_and_talisman() {
    // A per-seat deck: both hands hold the whole bundled deck of 21 cards.
    let log = grimoire(&["play", "skills", "--seed", "2", "--ai", "random"]);
    assert!(
        log.contains("deck: the bundled skills deck, 21 cards"),
        "{log}"
    );
}

#[test]
fn a_dispel_names_the_status_that_dispelled_as_its_cause() {
    // removeEffect8 removes its holder's oldest debuff at its turn start: the
    // removal is removeEffect8's doing, not DecreasePower1's.
    let v = eval(&[
        "--status",
        "you=DecreasePower1",
        "--status",
        "you=removeEffect8",
        "--then",
        "etiOnTurnStart",
    ]);
    let events = v["events"].as_array().expect("events");
    let removed = events
        .iter()
        .find(|e| e["status"] == "DecreasePower1" && e["change"] == "removed")
        .unwrap_or_else(|| panic!("no removal in {v}"));
    assert_eq!(removed["by"], "removeEffect8", "{removed}");
    // Its acquisition is still its own.
    let acquired = events
        .iter()
        .find(|e| e["status"] == "DecreasePower1" && e["change"] == "acquired")
        .expect("acquired");
    assert_eq!(acquired["by"], "DecreasePower1", "{acquired}");
}
