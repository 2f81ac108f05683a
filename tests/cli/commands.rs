//! Flags that ignored or refused what a designer gave them, and the
//! commands designers asked for (issue 27): `--ai` beyond the seats,
//! `--sort` by every listed column, `--change` with a misspelled card,
//! `fmt -`, `test --log`, `eval --seeds`, shell completions and man pages.

use crate::common;

use common::text;

fn run(args: &[&str]) -> std::process::Output {
    common::run_in(args, "", None)
}

fn run_with_input(args: &[&str], stdin: &str) -> std::process::Output {
    common::run_in(args, stdin, None)
}

#[test]
fn more_ai_values_than_seats_are_refused_naming_the_seats() {
    let three = ["--ai", "greedy", "--ai", "random", "--ai", "random"];
    for command in ["play", "simulate"] {
        let mut args = vec![command, "arcomage"];
        args.extend(three);
        let out = run(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let said = text(&out.stderr);
        assert!(
            said.contains("3 --ai values for 2 seats")
                && said.contains("rule set `arcomage` has 2 (p1, p2)"),
            "{args:?}: {said}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: no game is played");
    }
    // As many as the seats, or one for all, still play.
    let out = run(&["play", "arcomage", "--ai", "greedy", "--ai", "random"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// The per-card columns `simulate --help` lists, in order.
fn listed_columns() -> Vec<String> {
    let help = text(&run(&["simulate", "--help"]).stdout);
    let start = help.find("Per-card columns").expect("the columns' list");
    help[start..]
        .lines()
        .skip_while(|l| !l.starts_with("  "))
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_listed_column_sorts_the_table() {
    let columns = listed_columns();
    assert!(
        columns.contains(&"played_games".to_string())
            && columns.contains(&"not_seen_games".to_string()),
        "{columns:?}"
    );
    for column in &columns {
        let out = run(&[
            "simulate", "arcomage", "--games", "30", "--sort", column, "--format", "csv",
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "--sort {column}: {}",
            text(&out.stderr)
        );
    }
    // Sorted by played_games: highest first.
    let out = run(&[
        "simulate",
        "arcomage",
        "--games",
        "200",
        "--sort",
        "played_games",
        "--format",
        "csv",
    ]);
    let csv = text(&out.stdout);
    let played: Vec<u64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap().parse().unwrap())
        .collect();
    assert!(played.windows(2).all(|w| w[0] >= w[1]), "{played:?}");
    assert!(played[0] > played[played.len() - 1], "{played:?}");
}

#[test]
fn a_misspelled_card_to_change_gets_the_nearest_name() {
    let out = run(&[
        "simulate",
        "arcomage",
        "--games",
        "10",
        "--change",
        "Ogr:cost=2",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert!(
        said.contains("no card named \"Ogr\"") && said.contains("did you mean \"Ogre\"?"),
        "{said}"
    );
}

#[test]
fn a_misspelled_field_to_change_gets_the_nearest_field() {
    let out = run(&[
        "simulate",
        "arcomage",
        "--games",
        "10",
        "--change",
        "Ogre:cots=2",
    ]);
    assert_ne!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert!(said.contains("cots") && said.contains("`:cost`"), "{said}");
}

#[test]
fn fmt_dash_formats_standard_input_to_standard_output() {
    let messy = "{:card \"A\"\n:cost 1 ; one\n    :effects []}\n";
    let out = run_with_input(&["fmt", "-"], messy);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let formatted = text(&out.stdout);
    assert_eq!(formatted, "{:card \"A\"\n :cost 1 ; one\n :effects []}\n");
    // Formatted text is left as it is, and `--check` says so.
    let again = run_with_input(&["fmt", "-"], &formatted);
    assert_eq!(text(&again.stdout), formatted);
    let check = run_with_input(&["fmt", "--check", "-"], &formatted);
    assert_eq!(check.status.code(), Some(0));
    assert!(check.stdout.is_empty());
    // `--check` of a messy text: a diff, exit 1.
    let check = run_with_input(&["fmt", "--check", "-"], messy);
    assert_eq!(check.status.code(), Some(1));
    assert!(text(&check.stdout).contains("+++ <stdin> (formatted)"));
    // Syntax errors: located in `<stdin>`, nothing printed for a filter to keep, exit 1.
    let broken = run_with_input(&["fmt", "-"], "{:card \"A\"\n :cost [1}\n");
    assert_eq!(broken.status.code(), Some(1));
    assert!(broken.stdout.is_empty());
    assert!(
        text(&broken.stderr).contains("<stdin>:2:"),
        "{}",
        text(&broken.stderr)
    );
    // With files too it is refused: where would each go?
    let mixed = run_with_input(&["fmt", "-", "cards"], messy);
    assert_eq!(mixed.status.code(), Some(2));
}

#[test]
fn test_log_prints_each_scenarios_log_passing_or_failing() {
    let dir = common::scratch_dir("commands/test-log/arcomage");
    let file = dir.join("two.edn");
    std::fs::write(
        &file,
        "{:scenario \"passes\" :play [\"Brick Shortage\"] :expect {:you {:bricks 0}}}\n\
         {:scenario \"fails\" :play [\"Lucky Cache\"] :expect {:you {:gems 99}}}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let plain = text(&run(&["test", path]).stdout);
    assert!(!plain.contains("log:"), "{plain}");
    let out = run(&["test", "--log", path]);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    let (passing, failing) = shown.split_once("FAIL").expect("one fails");
    assert!(passing.starts_with("ok "), "{shown}");
    assert!(
        passing.contains("        log:\n          ") && passing.contains("Brick Shortage"),
        "{shown}"
    );
    assert!(
        failing.contains("        log:\n          ") && failing.contains("Lucky Cache"),
        "{shown}"
    );
    assert!(shown.ends_with("1 passed, 1 failed\n"), "{shown}");
}

#[test]
fn eval_over_seeds_prints_each_changed_values_distribution() {
    let effects = "[{:effected :other :resource :tower :amount [- 0 1d6]}]";
    let out = run(&[
        "eval", "--rules", "arcomage", "--seeds", "0..599", effects, "--format", "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["seeds"]["runs"], 600);
    let values = v["values"].as_array().unwrap();
    // Only the tower changed, by 1 to 6 from 20.
    assert_eq!(values.len(), 1, "{v}");
    let tower = &values[0];
    assert_eq!(
        (tower["entity"].as_str(), tower["attribute"].as_str()),
        (Some("other"), Some("tower"))
    );
    assert_eq!(
        (tower["min"].as_i64(), tower["max"].as_i64()),
        (Some(14), Some(19))
    );
    let counts = tower["counts"].as_object().unwrap();
    assert_eq!(counts.len(), 6);
    let total: u64 = counts.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(total, 600);
    // A fair die: each face about a sixth of the runs, the mean about 16.5.
    assert!(
        counts
            .values()
            .all(|n| (60..=140).contains(&n.as_u64().unwrap())),
        "{counts:?}"
    );
    assert!(
        (tower["mean"].as_f64().unwrap() - 16.5).abs() < 0.3,
        "{tower}"
    );
    // Each seed's run is the run `eval --seed` makes.
    let one = common::eval_json("arcomage", &["--seed", "7", effects]);
    let seven = run(&[
        "eval", "--rules", "arcomage", "--seeds", "7..7", effects, "--format", "json",
    ]);
    let seven: serde_json::Value = serde_json::from_slice(&seven.stdout).unwrap();
    let tower_at_7 = common::value(&one, "other", "tower");
    assert_eq!(seven["values"][0]["counts"][tower_at_7.to_string()], 1);
    // For people: the range, each value's figures and bars.
    let human = text(&run(&["eval", "--rules", "arcomage", "--seeds", "0..599", effects]).stdout);
    assert!(
        human.starts_with("600 runs (seeds 0 to 599): 1 value changed\n"),
        "{human}"
    );
    assert!(
        human.contains("other.tower: min 14, max 19, mean 16."),
        "{human}"
    );
    assert!(human.contains("% #"), "{human}");
    // A bad range is a usage error; --seed and --seeds do not go together.
    for bad in [
        vec!["--seeds", "9..2"],
        vec!["--seeds", "0..9", "--seed", "3"],
    ] {
        let mut args = vec!["eval", "--rules", "arcomage", effects];
        args.extend(bad);
        assert_eq!(run(&args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn eval_over_seeds_counts_the_statuses_gained() {
    let out = run(&[
        "eval", "--rules", "skills", "--card", "Fireball", "--seeds", "0..199", "--format", "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(!v["values"].as_array().unwrap().is_empty(), "{v}");
    for s in v["statuses"].as_array().unwrap() {
        assert!(s["held"].as_u64().unwrap() <= 200, "{s}");
    }
}

#[test]
fn completions_are_generated_for_each_shell() {
    for (shell, says) in [
        ("bash", "_grimoire()"),
        ("zsh", "#compdef grimoire"),
        ("fish", "complete -c grimoire"),
    ] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        assert!(script.contains(says), "{shell}: {script}");
        for word in ["simulate", "versus-cards", "completions"] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
    }
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn man_pages_are_generated_from_the_commands() {
    let out = run(&["man"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = text(&out.stdout);
    assert!(
        page.starts_with(".ie") || page.contains(".TH grimoire"),
        "{page}"
    );
    for command in ["check", "simulate", "replay", "completions"] {
        assert!(page.contains(command), "{command} in the page");
    }
    let page = text(&run(&["man", "simulate"]).stdout);
    assert!(page.contains(".TH grimoire-simulate"), "{page}");
    assert!(page.contains("versus\\-cards"), "{page}");
    let out = run(&["man", "simulat"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the commands are check,"),
        "{}",
        text(&out.stderr)
    );
}
