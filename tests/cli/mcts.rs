//! `--ai mcts` from the command line (issue 34): the budget and rollout
//! flags, the spec recorded where runs are written down, the same figures
//! at any thread count, a recorded game replayed, and mistakes said.

use crate::common;

use common::{grimoire, run_in, scratch_dir, text};

/// `simulate … --format json` as parsed JSON.
fn simulate_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["simulate"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    serde_json::from_str(&grimoire(&all)).expect("JSON")
}

#[test]
fn the_budget_flags_set_every_mcts_seat_and_the_run_names_them() {
    let v = simulate_json(&[
        "arcomage",
        "--games",
        "4",
        "--ai",
        "mcts",
        "--ai",
        "greedy",
        "--budget",
        "20",
        "--rollout",
        "greedy",
        "--rollout-plies",
        "3",
        "--threads",
        "1",
    ]);
    assert_eq!(v["ai"], serde_json::json!(["mcts:20:greedy:3", "greedy"]));
    assert_eq!(v["seats"][0]["ai"], "mcts:20:greedy:3");
    // A spec on `--ai` says the same.
    let spec = simulate_json(&[
        "arcomage",
        "--games",
        "4",
        "--ai",
        "mcts:20:greedy:3",
        "--ai",
        "greedy",
        "--threads",
        "1",
    ]);
    assert_eq!(spec, v);
}

/// Same seed, same budget: the same figures whether one thread plays the
/// games or two (each game's decisions depend on its seed alone).
#[test]
fn mcts_figures_do_not_depend_on_the_thread_count() {
    for rules in ["arcomage", "deduction"] {
        let run = |threads: &str| {
            grimoire(&[
                "simulate",
                rules,
                "--games",
                "6",
                "--seed",
                "3",
                "--ai",
                "mcts:16",
                "--ai",
                "random",
                "--threads",
                threads,
                "--format",
                "json",
            ])
        };
        assert_eq!(run("1"), run("2"), "{rules}");
    }
}

#[test]
fn a_recorded_mcts_game_replays_byte_for_byte() {
    let dir = scratch_dir("mcts/replay");
    let file = dir.join("game.json");
    let file = file.to_str().expect("UTF-8");
    let played = run_in(
        &[
            "play", "duel", "--seed", "4", "--ai", "mcts", "--budget", "30", "--record", file,
        ],
        "",
        None,
    );
    assert_eq!(played.status.code(), Some(0), "{}", text(&played.stderr));
    assert!(
        text(&played.stdout).contains("mcts:30:random:8"),
        "{}",
        text(&played.stdout)
    );
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).expect("the recording")).expect("JSON");
    assert_eq!(recorded["ai"][0], "mcts:30:random:8");
    let replayed = run_in(&["replay", file], "", None);
    assert_eq!(
        replayed.status.code(),
        Some(0),
        "{}",
        text(&replayed.stderr)
    );
    assert_eq!(text(&replayed.stdout), text(&played.stdout));
}

#[test]
fn mcts_mistakes_are_usage_errors_that_say_what_is_wrong() {
    for (args, says) in [
        (
            vec!["simulate", "arcomage", "--games", "2", "--budget", "20"],
            "give --ai mcts",
        ),
        (
            vec!["play", "arcomage", "--ai", "greedy", "--rollout", "greedy"],
            "give --ai mcts",
        ),
        (
            vec!["simulate", "arcomage", "--ai", "mcts:0"],
            "the budget `0`",
        ),
        (
            vec!["play", "arcomage", "--ai", "mcts:9:dice"],
            "the rollout `dice`",
        ),
        (
            vec!["simulate", "arcomage", "--ai", "monte"],
            "not a player",
        ),
        (
            vec!["simulate", "arcomage", "--ai", "mcts", "--budget", "0"],
            "--budget",
        ),
    ] {
        let out = run_in(&args, "", None);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stdout)
        );
        let err = text(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
