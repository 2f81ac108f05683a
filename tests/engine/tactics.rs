//! Seed 001 (BUFF_SYSTEM_V3) as the bundled rule set `tactics`, driven from
//! outside through `grimoire eval`: each buff's numbers, durations counted at
//! round end, refresh and stacking, the attack floor, death, and the seed's
//! round-end order. The checklist items played on the board (POWER's
//! move-and-attack refusal, SPEED's second action, SLOW's preparing, tiles
//! that spawn and trigger) are scenarios, `tests/scenarios/tactics/`.

use std::process::Command;

use serde_json::Value;

use crate::common;
use common::{grimoire, value};

/// Runs `grimoire eval --rules tactics --format json ARGS…` and parses the output.
fn eval(args: &[&str]) -> Value {
    common::eval_json("tactics", args)
}

/// `[(id, turns left)]` of an entity, in acquisition order.
fn statuses(v: &Value, entity: &str) -> Vec<(String, i64)> {
    v["state"][entity]["statuses"]
        .as_array()
        .expect("statuses")
        .iter()
        .map(|s| {
            (
                s["id"].as_str().expect("id").to_string(),
                s["left"].as_i64().expect("left"),
            )
        })
        .collect()
}

#[test]
fn the_six_buffs_exist_and_each_is_acquired() {
    for id in ["power", "life", "speed", "weakness", "bleed", "slow"] {
        let v = eval(&["--status", &format!("hero={id}")]);
        assert_eq!(statuses(&v, "hero"), [(id.to_string(), 2)], "{id}");
    }
}

#[test]
fn power_gives_three_attack_and_one_hp() {
    let v = eval(&["--status", "hero=power"]);
    assert_eq!(value(&v, "hero", "attack"), 3 + 3);
    assert_eq!(value(&v, "hero", "hp"), 10 + 1);
}

#[test]
fn life_gives_three_hp_at_once_past_max_hp() {
    let v = eval(&["--status", "hero=life"]);
    assert_eq!(value(&v, "hero", "hp"), 13);
    assert_eq!(value(&v, "hero", "max-hp"), 10);
    assert_eq!(value(&v, "hero", "attack"), 3);
}

#[test]
fn speed_costs_one_attack() {
    let v = eval(&["--status", "hero=speed"]);
    assert_eq!(value(&v, "hero", "attack"), 2);
}

#[test]
fn weakness_costs_two_attack_and_one_hp() {
    let v = eval(&["--status", "hero=weakness"]);
    assert_eq!(value(&v, "hero", "attack"), 1);
    assert_eq!(value(&v, "hero", "hp"), 9);
}

#[test]
fn different_buffs_add_up_power_and_weakness_make_plus_one() {
    let v = eval(&["--status", "hero=power", "--status", "hero=weakness"]);
    assert_eq!(value(&v, "hero", "attack"), 3 + 3 - 2);
    assert_eq!(
        statuses(&v, "hero"),
        [("power".to_string(), 2), ("weakness".to_string(), 2)]
    );
}

#[test]
fn attack_never_falls_below_zero_and_comes_back_when_the_debuff_ends() {
    let v = eval(&["--set", "hero.attack=1", "--status", "hero=weakness"]);
    assert_eq!(value(&v, "hero", "attack"), 0);
    let v = eval(&[
        "--set",
        "hero.attack=1",
        "--status",
        "hero=weakness",
        "--then",
        "round-end",
        "--then",
        "round-end",
    ]);
    assert_eq!(statuses(&v, "hero"), []);
    assert_eq!(value(&v, "hero", "attack"), 1);
}

#[test]
fn a_buff_lasts_two_rounds_counted_at_round_end() {
    let v = eval(&["--status", "hero=power", "--then", "round-end"]);
    assert_eq!(statuses(&v, "hero"), [("power".to_string(), 1)]);
    assert_eq!(value(&v, "hero", "attack"), 6);
    let v = eval(&[
        "--status",
        "hero=power",
        "--then",
        "round-end",
        "--then",
        "round-end",
    ]);
    assert_eq!(statuses(&v, "hero"), []);
    assert_eq!(value(&v, "hero", "attack"), 3);
    // The instant HP stays after the buff ends.
    assert_eq!(value(&v, "hero", "hp"), 11);
}

#[test]
fn the_same_buff_again_refreshes_its_duration_and_gives_nothing_more() {
    let once = eval(&["--status", "hero=power", "--status", "hero=power"]);
    assert_eq!(statuses(&once, "hero"), [("power".to_string(), 2)]);
    assert_eq!(value(&once, "hero", "hp"), 11);
    assert_eq!(value(&once, "hero", "attack"), 6);
    let events = once["events"].as_array().expect("events");
    assert!(
        events
            .iter()
            .any(|e| e["status"] == "power" && e["change"] == "refreshed"),
        "{events:?}"
    );
}

#[test]
fn bleed_takes_one_hp_each_round_and_minions_decay_as_well() {
    let v = eval(&["--status", "hero=bleed", "--then", "round-end"]);
    assert_eq!(value(&v, "hero", "hp"), 9);
    let v = eval(&["--status", "minion=bleed", "--then", "round-end"]);
    // A minion with BLEED loses 2 HP a round: bleed, then decay.
    assert_eq!(value(&v, "minion", "hp"), 1);
}

#[test]
fn round_end_runs_bleed_then_decay_then_durations() {
    let v = eval(&["--status", "minion=bleed", "--then", "round-end"]);
    let seen: Vec<String> = v["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["entity"] == "minion")
        .map(|e| match e.get("attribute") {
            Some(a) => format!(
                "{} {}->{}",
                a.as_str().unwrap_or("?"),
                e["before"],
                e["after"]
            ),
            None => format!(
                "{} {} {}->{}",
                e["status"].as_str().unwrap_or("?"),
                e["change"].as_str().unwrap_or("?"),
                e["before"],
                e["after"]
            ),
        })
        .collect();
    assert_eq!(
        seen,
        [
            "bleed acquired 0->2",
            "hp 3->2",
            "hp 2->1",
            "bleed extended 2->1"
        ]
    );
}

#[test]
fn a_unit_at_zero_hp_leaves_play_at_once_with_its_buffs() {
    // WEAKNESS's -1 HP on a 1 HP minion kills it immediately.
    let v = eval(&["--set", "minion.hp=1", "--status", "minion=weakness"]);
    assert_eq!(v["state"]["minion"]["alive"], false);
    assert_eq!(statuses(&v, "minion"), []);
    assert_eq!(v["state"]["hero"]["alive"], true);
}

#[test]
fn unknown_names_on_the_command_line_get_a_suggestion_and_exit_2() {
    for (args, wanted) in [
        (["--status", "hero=weaknes"], "did you mean `weakness`?"),
        (["--status", "heroo=weakness"], "did you mean `hero`?"),
        (["--then", "round-edn"], "did you mean `round-end`?"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_grimoire"))
            .args(["eval", "--rules", "tactics"])
            .args(args)
            .output()
            .expect("run grimoire");
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(wanted), "{stderr}");
    }
}

/// Runs `grimoire ARGS…`, expecting exit 0; its standard output.
#[test]
fn a_played_battle_log() {
    let log = grimoire(&[
        "play", "tactics", "--seed", "4", "--ai", "greedy", "--ai", "random",
    ]);
    // Units act on the board, and the battle ends by the rule set's victory or its turn limit.
    assert!(log.contains(": move cell-"), "{log}");
    assert!(
        log.contains(": attack ") || log.contains(": move-and-attack "),
        "{log}"
    );
    assert!(
        log.contains(" wins: no foe hero is left") || log.contains("draw: the turn limit"),
        "{log}"
    );
    insta::assert_snapshot!(log);
}

#[test]
fn the_same_seed_plays_the_same_battle() {
    for seed in ["1", "9"] {
        let a = grimoire(&["play", "tactics", "--seed", seed, "--ai", "random"]);
        let b = grimoire(&["play", "tactics", "--seed", seed, "--ai", "random"]);
        assert_eq!(a, b);
    }
    assert_ne!(
        grimoire(&["play", "tactics", "--seed", "1", "--ai", "random"]),
        grimoire(&["play", "tactics", "--seed", "2", "--ai", "random"])
    );
}

#[test]
fn simulated_battles_end_and_are_counted() {
    let out = grimoire(&[
        "simulate", "tactics", "--games", "300", "--seed", "3", "--ai", "random", "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let wins = common::seat_wins(&v);
    let ends = wins + v["ties"].as_i64().unwrap() + v["turn_limits"].as_i64().unwrap();
    assert_eq!(ends, 300, "{v}");
    assert_eq!(v["refused"].as_i64(), Some(0), "{v}");
    assert!(wins > 100, "most random battles end in a win: {v}");
}

#[test]
fn the_rule_set_and_its_buffs_check() {
    // Exit 0: no errors (the summary goes to standard error).
    grimoire(&["check", "--rules", "tactics", "effects/tactics"]);
}

#[test]
fn simulate_shows_no_card_table_for_a_rule_set_without_cards() {
    let out = grimoire(&["simulate", "tactics", "--games", "20", "--seed", "1"]);
    assert!(out.contains("mean length:"), "{out}");
    assert!(!out.contains("played"), "{out}");
}

#[test]
fn a_person_plays_the_board_by_numbered_actions() {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .args(["play", "tactics", "--seed", "1", "--human"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run grimoire");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"x\n1\nq\n")
        .expect("write");
    let out = child.wait_with_output().expect("output");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("your actions:\n  1. hero: move cell-2-1"),
        "{text}"
    );
    assert!(text.contains("type an action number from 1 to 6"), "{text}");
    assert!(
        text.contains("  hero: move cell-2-1\n    hero.acted 0 -> 1"),
        "{text}"
    );
}

#[test]
fn eval_effects_name_setup_entities_as_set_and_status_do() {
    let v = eval(&[
        "--set",
        "foe-minion.hp=2",
        "[{:effected :foe-minion :resource :hp :amount -1}]",
    ]);
    assert_eq!(value(&v, "foe-minion", "hp"), 1);
}

#[test]
fn eval_names_a_spawned_entity_by_its_kind_and_number() {
    // 2 roles, 4 units, 2 rocks and 25 cells are entities 0 to 32.
    let v = eval(&["[{:spawn :tile :values {:ttl 2}}]"]);
    assert_eq!(value(&v, "tile#33", "ttl"), 2);
    assert_eq!(v["events"][0]["entity"], "tile#33", "{v}");
    let text = grimoire(&[
        "eval",
        "--rules",
        "tactics",
        "[{:spawn :tile :values {:ttl 2}}]",
    ]);
    assert!(text.contains("tile#33 enters play (effect 1)"), "{text}");
}
