//! `simulate --shard K/N` and `grimoire merge`: a run played in shares and
//! merged prints exactly what one process prints for the whole run.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::{scratch_dir as scratch, text};

/// `grimoire ARGS…`, without colour, whatever it exits with.
fn grimoire(args: &[&str]) -> Output {
    common::run_in(args, "", None)
}

/// `simulate` with `args`, its standard output; it must succeed.
fn simulate(args: &[&str]) -> String {
    let out = grimoire(&[&["simulate"], args].concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Plays every share of `run` into `dir`, returning the files in the order given by `order`.
fn shards(dir: &Path, run: &[&str], of: u64, order: &[u64]) -> Vec<String> {
    order
        .iter()
        .map(|k| {
            let shard = format!("{k}/{of}");
            let json = simulate(&[run, &["--shard", &shard, "--format", "json"]].concat());
            let file = dir.join(format!("shard-{k}-of-{of}.json"));
            std::fs::write(&file, json).expect("write shard");
            file.to_string_lossy().into_owned()
        })
        .collect()
}

fn merge(files: &[String], format: &str) -> Output {
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--format", format]);
    grimoire(&args)
}

#[test]
fn merged_shards_print_what_one_process_prints_in_every_format() {
    let dir = scratch("shards-arcomage");
    let run = [
        "arcomage",
        "--games",
        "600",
        "--seed",
        "9",
        "--ai",
        "greedy",
        "--ai",
        "random",
        "--threads",
        "2",
    ];
    // Out of order, as a cluster returns them.
    let files = shards(&dir, &run, 3, &[2, 3, 1]);
    for format in ["json", "human", "csv"] {
        let whole = simulate(&[&run[..], &["--format", format]].concat());
        let merged = merge(&files, format);
        assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
        assert_eq!(text(&merged.stdout), whole, "{format}");
    }
}

#[test]
fn every_bundled_rule_set_merges_byte_identical() {
    for rules in ["duel", "skills", "tactics", "tbwg"] {
        let dir = scratch(&format!("shards-{rules}"));
        let run = [rules, "--games", "40", "--seed", "3", "--sort", "deck"];
        let files = shards(&dir, &run, 2, &[1, 2]);
        let whole = simulate(&[&run[..], &["--format", "json"]].concat());
        let merged = merge(&files, "json");
        assert_eq!(
            merged.status.code(),
            Some(0),
            "{rules}: {}",
            text(&merged.stderr)
        );
        assert_eq!(text(&merged.stdout), whole, "{rules}");
    }
}

#[test]
fn uneven_and_empty_shares_still_add_up() {
    let dir = scratch("shards-uneven");
    // 7 games in 4 shares (1, 2, 2, 2), and 2 games in 5 (three shares play none).
    for (games, of) in [("7", 4u64), ("2", 5)] {
        let run = ["arcomage", "--games", games, "--seed", "5"];
        let order: Vec<u64> = (1..=of).collect();
        let files = shards(&dir, &run, of, &order);
        let whole = simulate(&[&run[..], &["--format", "json"]].concat());
        let merged = merge(&files, "json");
        assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
        assert_eq!(text(&merged.stdout), whole, "{games} games in {of}");
    }
}

#[test]
fn a_shard_plays_its_own_games_with_the_runs_seeds() {
    // A run of 2 games in 2 shares: each share is one of the whole run's games.
    let one = simulate(&[
        "arcomage", "--games", "2", "--seed", "11", "--shard", "2/2", "--format", "json",
    ]);
    let value: serde_json::Value = serde_json::from_str(&one).expect("json");
    assert_eq!(value["games"], 1);
    assert_eq!(value["shard"]["index"], 2);
    assert_eq!(value["shard"]["of"], 2);
    assert_eq!(value["shard"]["games"], 2);
    assert_eq!(value["raw"]["games"], 1);
    let human = simulate(&["arcomage", "--games", "2", "--seed", "11", "--shard", "2/2"]);
    assert!(
        human.starts_with("arcomage · 1 games (shard 2/2) · seed 11"),
        "{human}"
    );
}

#[test]
fn a_missing_duplicated_or_foreign_shard_is_refused() {
    let dir = scratch("shards-refused");
    let run = ["arcomage", "--games", "30", "--seed", "2"];
    let files = shards(&dir, &run, 3, &[1, 2, 3]);

    let out = merge(&files[..2], "json");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("shard 3/3 missing"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());

    let twice = vec![
        files[0].clone(),
        files[1].clone(),
        files[1].clone(),
        files[2].clone(),
    ];
    let out = merge(&twice, "json");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("shard 2/3 again"),
        "{}",
        text(&out.stderr)
    );

    // A share of the same run with another seed.
    let other = shards(
        &scratch("shards-other-seed"),
        &["arcomage", "--games", "30", "--seed", "3"],
        3,
        &[3],
    );
    let mixed = vec![files[0].clone(), files[1].clone(), other[0].clone()];
    let out = merge(&mixed, "json");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("another run"),
        "{}",
        text(&out.stderr)
    );

    // Not a shard at all: the plain run's JSON, and a file that is not JSON.
    let plain = dir.join("plain.json");
    std::fs::write(
        &plain,
        simulate(&[&run[..], &["--format", "json"]].concat()),
    )
    .expect("write");
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"shard\": ").expect("write");
    for bad in [&plain, &broken] {
        let out = merge(&[bad.to_string_lossy().into_owned()], "json");
        assert_eq!(out.status.code(), Some(1), "{}", bad.display());
        let err = text(&out.stderr);
        assert!(
            err.contains(&*bad.to_string_lossy()) && err.contains("not a shard"),
            "{err}"
        );
    }

    let out = merge(
        &[dir.join("nowhere.json").to_string_lossy().into_owned()],
        "json",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_bad_shard_is_a_usage_error() {
    for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"] {
        let shard = format!("--shard={bad}");
        let out = grimoire(&["simulate", "arcomage", "--games", "10", &shard]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            text(&out.stderr).contains("K/N"),
            "{bad}: {}",
            text(&out.stderr)
        );
    }
    let out = grimoire(&[
        "simulate", "arcomage", "--games", "10", "--shard", "1/2", "--report", "r.html",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--report needs the whole run"),
        "{}",
        text(&out.stderr)
    );
}

/// The figures of a JSON run without what says where its deck came from.
fn figures_only(json: &str) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(json).expect("json");
    value.as_object_mut().expect("an object").remove("deck");
    value
}

#[test]
fn a_change_plays_the_deck_as_if_its_file_said_so() {
    let dir = scratch("change-by-hand");
    // The same change made by hand in a copy of the deck.
    for file in ["beasts.edn", "bricks.edn", "gems.edn"] {
        let text = std::fs::read_to_string(format!("cards/arcomage/{file}")).expect("read");
        let text = text.replace(
            "{:card \"Dragon\" :type :beasts :cost 25",
            "{:card \"Dragon\" :type :beasts :cost 12",
        );
        std::fs::write(dir.join(file), text).expect("write");
    }
    let run = [
        "arcomage", "--games", "300", "--seed", "4", "--format", "json",
    ];
    let changed = simulate(&[&run[..], &["--change", "Dragon:cost=12"]].concat());
    let by_hand = simulate(&[&run[..], &["--cards", &dir.to_string_lossy()]].concat());
    let plain = simulate(&run);
    assert_eq!(figures_only(&changed), figures_only(&by_hand));
    assert_ne!(
        figures_only(&changed),
        figures_only(&plain),
        "a cheaper Dragon changes nothing?"
    );
    let value: serde_json::Value = serde_json::from_str(&changed).expect("json");
    assert_eq!(value["deck"]["changes"][0], "Dragon:cost=12");
    let human = simulate(&["arcomage", "--games", "10", "--change", "Dragon:cost=12"]);
    assert!(human.contains("changed: Dragon:cost=12"), "{human}");
    // Without a change the JSON says nothing of changes.
    assert!(!plain.contains("changes"));
}

#[test]
fn a_change_adds_a_key_the_card_lacks() {
    let run = ["arcomage", "--games", "5", "--format", "json"];
    let plain: serde_json::Value = serde_json::from_str(&simulate(&run)).expect("json");
    let more: serde_json::Value = serde_json::from_str(&simulate(
        &[&run[..], &["--change", "Dragon:copies=3"]].concat(),
    ))
    .expect("json");
    let copies = |v: &serde_json::Value| v["deck"]["copies"].as_u64().expect("copies");
    assert_eq!(copies(&more), copies(&plain) + 2);
}

#[test]
fn a_bad_change_is_refused_with_where_and_why() {
    // A value the language does not allow: a located error in the changed text.
    let out = grimoire(&[
        "simulate",
        "arcomage",
        "--games",
        "5",
        "--change",
        "Dragon:cost=:lots",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("beasts.edn>:150:37") && err.contains(":cost :lots"),
        "{err}"
    );
    // For machines, the same located error in the JSON list `check` prints.
    let out = grimoire(&[
        "simulate",
        "arcomage",
        "--games",
        "5",
        "--change",
        "Dragon:cost=:lots",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let list: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("json");
    let list = list.as_array().expect("a list of diagnostics");
    assert_eq!(list.len(), 1, "{list:?}");
    assert!(
        list[0]["path"]
            .as_str()
            .is_some_and(|p| p.ends_with("beasts.edn>"))
            && list[0]["line"] == 150
            && list[0]["column"] == 37
            && list[0]["severity"] == "error",
        "{list:?}"
    );
    assert!(text(&out.stderr).contains("the deck does not check (1 error)"));
    // No such card, with the name asked for.
    let out = grimoire(&[
        "simulate",
        "arcomage",
        "--games",
        "5",
        "--change",
        "Dargon:cost=3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no card named \"Dargon\""),
        "{}",
        text(&out.stderr)
    );
    for bad in ["Dragon", "Dragon:cost", ":cost=3", "Dragon:=3"] {
        let change = format!("--change={bad}");
        let out = grimoire(&["simulate", "arcomage", "--games", "5", &change]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            text(&out.stderr).contains("CARD:KEY=VALUE"),
            "{bad}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn shards_of_a_changed_deck_merge_to_the_changed_run() {
    let dir = scratch("shards-changed");
    let run = [
        "arcomage",
        "--games",
        "90",
        "--seed",
        "6",
        "--change",
        "Dragon:cost=20",
        "--change",
        "Werewolf:cost=3",
    ];
    let files = shards(&dir, &run, 2, &[1, 2]);
    let whole = simulate(&[&run[..], &["--format", "json"]].concat());
    let merged = merge(&files, "json");
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    assert_eq!(text(&merged.stdout), whole);
}

#[test]
fn a_rule_set_with_metrics_merges_byte_identical_in_every_format() {
    // The metrics' sums and sums of squares add up as the shards' other sums do.
    let dir = scratch("shards-metrics");
    let run = [
        "tests/data/metrics/rules/bout.edn",
        "--games",
        "500",
        "--seed",
        "4",
        "--ai",
        "greedy",
        "--ai",
        "random",
        "--sort",
        "damage-taken",
    ];
    let files = shards(&dir, &run, 3, &[3, 1, 2]);
    let raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(raw["raw"]["metrics"].as_array().map(Vec::len), Some(5));
    for format in ["json", "human", "csv"] {
        let whole = simulate(&[&run[..], &["--format", format]].concat());
        let merged = merge(&files, format);
        assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
        assert_eq!(text(&merged.stdout), whole, "{format}");
    }
    // And the sums are the run's: the turn count is the mean length.
    let merged: serde_json::Value =
        serde_json::from_str(&text(&merge(&files, "json").stdout)).unwrap();
    assert_eq!(merged["metrics"]["turns"]["mean"], merged["mean_turns"]);
    // A shard whose sums lack the metrics (forged, or from before them) is refused.
    let mut forged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    forged["raw"]["metrics"] = serde_json::json!([]);
    let path = dir.join("forged.json");
    std::fs::write(&path, forged.to_string()).unwrap();
    let mixed = vec![
        files[0].clone(),
        path.to_string_lossy().into_owned(),
        files[2].clone(),
    ];
    let out = merge(&mixed, "json");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("forged.json: its sums do not fit the metrics of"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_solo_fight_s_shards_merge_byte_identical_with_its_losses_metrics_and_encounter() {
    let dir = scratch("shards-solo");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules = root.join("tests/data/solo/rules/solo.edn");
    let cards = root.join("tests/data/solo/cards/solo");
    let (rules, cards) = (rules.to_string_lossy(), cards.to_string_lossy());
    let run = [
        &rules[..],
        "--cards",
        &cards,
        "--encounter",
        "brute",
        "--games",
        "300",
        "--seed",
        "4",
    ];
    let files = shards(&dir, &run, 3, &[3, 1, 2]);
    for format in ["json", "human", "csv"] {
        let whole = simulate(&[&run[..], &["--format", format]].concat());
        let merged = merge(&files, format);
        assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
        assert_eq!(text(&merged.stdout), whole, "{format}");
        if format == "json" {
            for key in ["\"encounter\": \"brute\"", "\"losses\"", "\"health-left\""] {
                assert!(whole.contains(key), "{key}: {whole}");
            }
        }
    }
}
