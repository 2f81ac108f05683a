//! Dice as values: their distributions over many seeded rolls, the faces in
//! logs, `grimoire roll`, and what a misspelt die gets told.

use crate::common;
use crate::common::TWO_SEATS;

use std::process::Command;

use common::grimoire;
use grimoire::check::rules::RuleSet;
use grimoire::eval::{State, value};
use serde_json::Value;

fn arcomage() -> RuleSet {
    RuleSet::bundled("arcomage").unwrap().unwrap()
}

/// `n` rolls of `expr` from seed 1: their mean, min and max.
fn rolls(expr: &str, n: u32) -> (f64, i64, i64) {
    let rules = arcomage();
    let arena = grimoire::syntax::Arena::new();
    let form = grimoire::syntax::read(&arena, expr).forms.remove(0);
    let mut diags = Vec::new();
    let e = grimoire::check::integer(&form, &rules.scope(), &mut diags).expect("checks");
    assert!(diags.is_empty(), "{diags:?}");
    let mut state = State::new(&rules, 2, 1);
    let (mut sum, mut min, mut max) = (0i64, i64::MAX, i64::MIN);
    for _ in 0..n {
        let v = value(&e, &mut state, &TWO_SEATS);
        sum += v;
        min = min.min(v);
        max = max.max(v);
    }
    (sum as f64 / f64::from(n), min, max)
}

#[test]
fn three_d6_plus_2_has_the_mean_and_range_of_three_dice() {
    let (mean, min, max) = rolls("3d6+2", 200_000);
    assert!((mean - 12.5).abs() < 0.03, "{mean}");
    assert_eq!((min, max), (5, 20));
}

#[test]
fn advantage_raises_the_mean_of_a_d20_to_about_13_8() {
    // E[max of two d20] = 13.825; E[min] = 7.175.
    for expr in ["[advantage 1d20]", "2d20kh1"] {
        let (mean, min, max) = rolls(expr, 200_000);
        assert!((mean - 13.825).abs() < 0.05, "{expr}: {mean}");
        assert_eq!((min, max), (1, 20), "{expr}");
    }
    for expr in ["[disadvantage 1d20]", "2d20kl1"] {
        let (mean, _, _) = rolls(expr, 200_000);
        assert!((mean - 7.175).abs() < 0.05, "{expr}: {mean}");
    }
    let (mean, min, max) = rolls("1d20", 200_000);
    assert!((mean - 10.5).abs() < 0.05, "{mean}");
    assert_eq!((min, max), (1, 20));
}

#[test]
fn keep_the_highest_three_of_four_d6() {
    // The classic ability roll: mean 12.24, range 3 to 18.
    let (mean, min, max) = rolls("4d6kh3", 200_000);
    assert!((mean - 12.245).abs() < 0.04, "{mean}");
    assert_eq!((min, max), (3, 18));
}

#[test]
fn the_log_shows_every_roll_with_its_faces() {
    let out = grimoire(&[
        "eval",
        "--rules",
        "arcomage",
        "--seed",
        "7",
        "[{:effected :you :resource :wall :amount 3d6+2} {:effected :other :resource :tower :amount [advantage 1d20]} {:effected :you :resource :gems :amount 4d6kl3-1}]",
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn a_sum_that_starts_with_dice_is_one_roll_with_its_modifier() {
    // `[+ 1d20 x 2]` logs as `1d20+N`; a rest that rolls dice of its own stays a plain sum.
    let out = grimoire(&[
        "eval",
        "--rules",
        "arcomage",
        "--seed",
        "7",
        "--set",
        "you.quarry=3",
        "[{:effected :you :resource :wall :amount [+ 1d20 [:you :quarry] 2]} {:effected :you :resource :gems :amount [advantage [+ 1d8 [- [:you :quarry]]]]} {:effected :other :resource :wall :amount [+ 1d6 1d4]}]",
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn roll_json_is_the_distribution() {
    let out = grimoire(&[
        "roll", "3d6+2", "--count", "10000", "--seed", "3", "--format", "json",
    ]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["expr"], "3d6+2");
    assert_eq!(v["count"], 10_000);
    assert_eq!((v["min"].as_i64(), v["max"].as_i64()), (Some(5), Some(20)));
    let mean = v["mean"].as_f64().expect("mean");
    assert!((mean - 12.5).abs() < 0.15, "{mean}");
    let counts = v["counts"].as_object().expect("counts");
    let total: u64 = counts.values().filter_map(Value::as_u64).sum();
    assert_eq!(total, 10_000);
    let keys: Vec<i64> = counts.keys().map(|k| k.parse().expect("a value")).collect();
    assert_eq!(keys, (5..=20).collect::<Vec<_>>(), "values in order");
    // The same seed, the same bytes.
    let again = grimoire(&[
        "roll", "3d6+2", "--count", "10000", "--seed", "3", "--format", "json",
    ]);
    assert_eq!(out, again);
}

#[test]
fn one_roll_shows_its_faces_and_its_seed() {
    let out = grimoire(&["roll", "4d6kl3-1", "--seed", "7"]);
    assert_eq!(
        out,
        "4d6kl3-1: 7 (1+5+2-1; dropped 6)\n4d6kl3-1 = 7  (seed 7)\n"
    );
    let v: Value = serde_json::from_str(&grimoire(&[
        "roll",
        "[advantage 1d20]",
        "--seed",
        "7",
        "--format",
        "json",
    ]))
    .expect("JSON");
    assert_eq!(v["count"], 1);
    assert_eq!(v["min"], 17);
    assert_eq!(v["counts"]["17"], 1);
    assert_eq!(
        v["rolls"],
        serde_json::json!([
            "1d20: 2",
            "1d20: 17",
            "keeps 17, the higher of 17 and 2 (advantage)"
        ])
    );
}

#[test]
fn a_histogram_for_people() {
    insta::assert_snapshot!(grimoire(&[
        "roll", "2d6", "--count", "36000", "--seed", "1"
    ]));
}

/// `grimoire roll ARGS…`: exit code and standard error.
fn roll_fails(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .arg("roll")
        .args(args)
        .output()
        .expect("run grimoire");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn malformed_dice_exit_1_with_a_located_diagnostic_and_a_suggestion() {
    let dice = ["3d", "0d6", "d-4", "1d0", "2d20kh3", "[+ 1d20 3d6x]"];
    // Other bad input: nothing, an unclosed vector, a decimal, an entity, two forms.
    let other = ["", "[+ 1d20", "1.5", "[:you :wall]", "1d20 1d4"];
    let mut all = String::new();
    for expr in dice.iter().chain(&other) {
        let (code, err) = roll_fails(&[expr]);
        assert_eq!(code, 1, "{expr}: {err}");
        assert!(err.contains("<expr>:1:"), "{expr}: {err}");
        if dice.contains(expr) {
            assert!(err.contains("help:"), "{expr}: {err}");
        }
        all.push_str(&format!("$ grimoire roll '{expr}'\n{err}\n"));
    }
    insta::assert_snapshot!(all);
}

#[test]
fn bad_counts_are_usage_errors() {
    for count in ["0", "100000001"] {
        let (code, err) = roll_fails(&["1d6", "--count", count]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("roll 1 to 100000000 times"), "{err}");
    }
}

#[test]
fn dice_in_a_card_check_like_numbers() {
    let rules = arcomage();
    let arena = grimoire::syntax::Arena::new();
    let checked = grimoire::syntax::read(
        &arena,
        "[{:effected :you :resource :wall :amount [+ 1d20 [:you :wall]]}]",
    );
    assert!(rules.check_effects(&checked.forms[0]).is_ok());
    let bad = grimoire::syntax::read(&arena, "[{:effected :you :resource :wall :amount 2d}]");
    let diags = rules
        .check_effects(&bad.forms[0])
        .expect_err("2d is not dice");
    assert_eq!(
        common::messages(&diags),
        "`2d` does not say how many faces its dice have | say how many faces: `2d6`"
    );
    assert_eq!(diags[0].span.start, 41);
}

#[test]
fn dice_in_conditions_are_logged_with_their_effect() {
    // `:when`'s roll after the effects it ran; a choice of resource's before the change.
    let out = grimoire(&[
        "eval",
        "--rules",
        "arcomage",
        "--seed",
        "2",
        "[{:when [> 1d20 5] :effects [{:effected :other :resource :wall :amount 1}]} {:effected :you :resource [> 1d6 3 :wall :tower] :amount 2}]",
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn a_played_game_logs_every_roll() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dice-deck/arcomage");
    std::fs::create_dir_all(&dir).unwrap();
    let cards: String = (0..8)
        .map(|i| format!("{{:card \"Dice Wall {i}\" :type :bricks :cost 1 :text \"+2d6 Wall; the enemy loses the better of two 1d4 Tower\" :effects [{{:effected :you :resource :wall :amount 2d6}} {{:effected :other :resource :tower :amount [- [advantage 1d4]]}}]}}\n"))
        .collect();
    let file = dir.join("dice.edn");
    std::fs::write(&file, cards).unwrap();
    let path = file.to_string_lossy().into_owned();
    let log = grimoire(&["play", "arcomage", "--seed", "1", "--cards", &path]);
    assert_eq!(
        log,
        grimoire(&["play", "arcomage", "--seed", "1", "--cards", &path])
    );
    let head: Vec<&str> = log.lines().skip(2).take(12).collect();
    insta::assert_snapshot!(head.join("\n"));
    // A card without text is named alone, with no dangling colon.
    let bare = dir.join("bare.edn");
    std::fs::write(
        &bare,
        (0..8)
            .map(|i| format!("{{:card \"Bare {i}\" :type :bricks :cost 1 :effects [{{:effected :you :resource :wall :amount 1d6}}]}}\n"))
            .collect::<String>(),
    )
    .unwrap();
    let log = grimoire(&[
        "play",
        "arcomage",
        "--seed",
        "1",
        "--cards",
        &bare.to_string_lossy(),
    ]);
    let played = log.lines().find(|l| l.contains(" plays ")).expect("a play");
    assert!(!played.contains(':'), "{played}");
}
