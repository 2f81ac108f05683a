//! The deduction game from the command line (issue 33): `play --seed 1`
//! plays to the match's end, and a person can play it at the terminal with
//! piped input, asked for a Sentry's target and the rank it names, never
//! shown the other hand.

use crate::common::{run_in, text};

#[test]
fn play_deduction_seed_1_plays_the_match_to_its_end() {
    let out = run_in(&["play", "deduction", "--seed", "1"], "", None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(log.contains(" wins: won the match"), "{log}");
    // Rounds were settled and dealt again, and a Sentry's guess is named.
    assert!(log.contains(".tokens 0 -> 1"), "{log}");
    assert!(log.contains("plays Sentry ("), "{log}");
}

#[test]
fn play_deduction_human_is_playable_with_piped_input() {
    // "1" to every question: the first card, the first target, the first rank.
    let input = "1\n".repeat(400);
    let out = run_in(
        &["play", "deduction", "--human", "--seed", "2"],
        &input,
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let screen = text(&out.stdout);
    assert!(screen.contains("your hand:"), "{screen}");
    assert!(screen.contains("p2's hand: 1 card"), "{screen}");
    // A Sentry asks which rank, each option a line of its own.
    assert!(screen.contains("Sentry at p2 (confessor)"), "{screen}");
    assert!(screen.contains("won the match"), "{screen}");
}

/// `grimoire ARGS…` with no input; its exit code, standard output and error.
fn grimoire(args: &[&str]) -> (Option<i32>, String, String) {
    let out = run_in(args, "", None);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn play_deduction_by_three_and_four_players_and_the_default_stays_two() {
    let (code, two, err) = grimoire(&["play", "deduction", "--seed", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        two.starts_with("deduction · seed 1 · p1 greedy vs p2 greedy\n"),
        "{two}"
    );
    let (_, asked_two, _) = grimoire(&["play", "deduction", "--seed", "1", "--players", "2"]);
    assert_eq!(asked_two, two, "--players 2 is the default game");
    for (n, seats) in [
        (3, "p1 greedy vs p2 greedy vs p3 greedy"),
        (4, "vs p4 greedy"),
    ] {
        let (code, log, err) = grimoire(&[
            "play",
            "deduction",
            "--seed",
            "1",
            "--players",
            &n.to_string(),
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert!(log.lines().next().unwrap_or("").contains(seats), "{log}");
        assert!(log.contains(" wins: won the match"), "{log}");
        // No cards laid face up with more than two.
        assert!(!log.contains("-> shown"), "{log}");
        // Tokens to win: 5 with three, 4 with four.
        let need = if n == 3 { 5 } else { 4 };
        assert!(
            log.contains(&format!(".tokens {} -> {need}", need - 1)),
            "{log}"
        );
        assert!(!log.contains(&format!(".tokens {need} -> ")), "{log}");
    }
}

#[test]
fn a_count_of_players_outside_the_range_is_a_usage_error_naming_it() {
    for command in ["play", "simulate"] {
        let (code, _, err) = grimoire(&[command, "deduction", "--players", "5"]);
        assert_eq!(code, Some(2), "{command}: {err}");
        assert!(
            err.contains("rule set `deduction` is played by 2 to 4 players, not 5"),
            "{command}: {err}"
        );
    }
    let (code, _, err) = grimoire(&["play", "arcomage", "--players", "3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is played by 2 players only"), "{err}");
}

#[test]
fn a_scenario_with_a_count_outside_the_range_is_a_located_diagnostic() {
    let dir = crate::common::scratch_dir("deduction-players-scenario");
    std::fs::create_dir_all(&dir).expect("scratch");
    let file = dir.join("five.edn");
    std::fs::write(
        &file,
        "{:scenario \"Five suitors\"\n :rules :deduction\n :players 5\n :play [\"Chaperone\"]\n :expect {:you {:tokens 0}}}\n",
    )
    .expect("written");
    let (code, out, err) = grimoire(&["test", file.to_str().expect("path")]);
    assert_eq!(code, Some(1), "{out}{err}");
    let said = format!("{out}{err}");
    assert!(said.contains("E0007"), "{said}");
    assert!(said.contains("five.edn:3:11"), "{said}");
    assert!(said.contains("played by 2 to 4 players, not 5"), "{said}");
}

#[test]
fn simulate_deduction_by_three_and_four_keeps_the_invariants_and_shards_merge() {
    let dir = crate::common::scratch_dir("deduction-players-shards");
    std::fs::create_dir_all(&dir).expect("scratch");
    for n in ["3", "4"] {
        let run = [
            "simulate",
            "deduction",
            "--players",
            n,
            "--games",
            "60",
            "--seed",
            "5",
        ];
        let (code, whole, err) = grimoire(&[&run[..], &["--check-invariants"]].concat());
        assert_eq!(code, Some(0), "{err}");
        assert!(whole.contains(&format!("p{n} random")), "{whole}");
        assert!(whole.contains("refused        0"), "{whole}");
        let (_, whole, _) = grimoire(&run);
        let mut files = Vec::new();
        for k in ["1/2", "2/2"] {
            let (code, json, err) =
                grimoire(&[&run[..], &["--shard", k, "--format", "json"]].concat());
            assert_eq!(code, Some(0), "{err}");
            assert!(json.contains(&format!("\"players\": {n}")), "{json}");
            let file = dir.join(format!("{n}-{}.json", &k[..1]));
            std::fs::write(&file, json).expect("shard");
            files.push(file.to_string_lossy().into_owned());
        }
        let (code, merged, err) = grimoire(&["merge", &files[0], &files[1]]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(
            merged, whole,
            "{n} players: the merged shards print the whole run"
        );
    }
}

#[test]
fn a_recorded_game_of_three_replays_with_its_count() {
    let dir = crate::common::scratch_dir("deduction-players-replay");
    std::fs::create_dir_all(&dir).expect("scratch");
    let file = dir.join("three.json");
    let path = file.to_str().expect("path");
    let (code, played, err) = grimoire(&[
        "play",
        "deduction",
        "--seed",
        "3",
        "--players",
        "3",
        "--record",
        path,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let recorded = std::fs::read_to_string(&file).expect("recording");
    assert!(recorded.contains("\"players\": 3"), "{recorded}");
    let (code, replayed, err) = grimoire(&["replay", path]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(replayed, played);
}

#[test]
fn the_tables_leave_out_table_false_columns_and_a_deck_without_costs_says_none() {
    let (code, log, err) = grimoire(&["play", "deduction", "--seed", "1"]);
    assert_eq!(code, Some(0), "{err}");
    // `:rank`, `:won`, `:score` and `:waiting` are `:table false`.
    assert!(log.contains("\n    tokens  out  protected\np1 "), "{log}");
    let input = "1\n".repeat(400);
    let out = run_in(
        &["play", "deduction", "--human", "--seed", "1"],
        &input,
        None,
    );
    let screen = text(&out.stdout);
    assert!(screen.contains("  1. Sentry: Name a rank"), "{screen}");
    assert!(!screen.contains("(free)"), "{screen}");
    assert!(!screen.contains("rank  tokens"), "{screen}");
}

#[test]
fn a_round_won_by_a_knock_out_shows_no_hand() {
    // With two, a knock-out ends the round: the one left keeps their card
    // unseen (only a showdown at the deck's end shows the hands).
    for seed in ["1", "2", "12"] {
        let (_, log, _) = grimoire(&["play", "deduction", "--seed", seed]);
        let mut knocked = false;
        let mut rounds = 0;
        for line in log.lines() {
            if line.starts_with("turn ") {
                knocked = false;
            } else if line.contains(".out 0 -> 1") {
                knocked = true;
                rounds += 1;
            } else if knocked {
                assert!(
                    !line.contains("is shown to everyone"),
                    "seed {seed}: {line}\n{log}"
                );
            }
        }
        assert!(rounds > 0, "seed {seed}: no knock-out\n{log}");
    }
}
