//! The built `grimoire` binary: exit codes, formats, colour.

use std::path::PathBuf;
use std::process::Output;

use crate::common::{self, text};

/// `grimoire ARGS…` with `NO_COLOR` unset, so colour is the terminal's call
/// (these tests hold it off when not on one); whatever it exits with.
fn grimoire(args: &[&str]) -> Output {
    common::command(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("run grimoire")
}

/// A scratch folder for one test, emptied first, with an `arcomage/` in it.
fn scratch(name: &str) -> PathBuf {
    let dir = common::scratch_dir(name);
    std::fs::create_dir_all(dir.join("arcomage")).expect("create scratch dir");
    dir
}

#[test]
fn bundled_data_checks_clean() {
    let out = grimoire(&["check", "rules", "cards", "effects"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("0 errors"));
}

#[test]
fn misspelled_resource_in_a_file_exits_1_with_location_caret_and_suggestion() {
    let dir = scratch("quary");
    let file = dir.join("arcomage/bad.edn");
    std::fs::write(
        &file,
        "; a card with a typo\n{:card \"Miners\" :type :bricks :cost 3\n :effects [{:effected :you :resource :quary :amount 1}]}\n",
    )
    .unwrap();
    let out = grimoire(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("{}:3:38", file.display())), "{err}");
    assert!(
        err.contains(" :effects [{:effected :you :resource :quary :amount 1}]"),
        "{err}"
    );
    assert!(err.contains("^^^^^^"), "{err}");
    assert!(err.contains("did you mean `:quarry`?"), "{err}");
    // No colour when not on a terminal.
    assert!(!err.contains('\x1b'));

    let out = grimoire(&["check", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let d = &json[0];
    assert_eq!(d["path"], file.display().to_string());
    assert_eq!(d["line"], 3);
    assert_eq!(d["column"], 38);
    assert_eq!(d["message"], "unknown resource `:quary`");
    assert_eq!(d["help"], "did you mean `:quarry`?");
}

#[test]
fn every_error_of_every_file_is_reported() {
    let dir = scratch("many");
    std::fs::write(dir.join("arcomage/a.edn"), "{:card \"A\" :type :bricks :cost 1 :effects [{:effected :yuo :resource :wall :amount 1}]}\n{:card \"B\" :type :bricks :cost 1 :effects [{:effected :you :resource :wal :amount 1}]}").unwrap();
    std::fs::write(
        dir.join("arcomage/b.edn"),
        "{:card \"C\" :type :bricks :cost 1 :effects [{:effected :you :resource :wall :amount [< 1]}]}",
    )
    .unwrap();
    let out = grimoire(&["check", "--format", "json", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json.as_array().map(Vec::len), Some(3), "{json:#}");
}

#[test]
fn missing_path_is_an_io_error_exit_2() {
    let out = grimoire(&["check", "no/such/folder"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no/such/folder"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(grimoire(&["check"]).status.code(), Some(2));
    assert_eq!(grimoire(&["frobnicate"]).status.code(), Some(2));
    let out = grimoire(&["eval", "--rules", "arcomag", "[]"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("did you mean `arcomage`?"));
    let out = grimoire(&["eval", "--rules", "arcomage", "--set", "you.wal=3", "[]"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `wall`?"),
        "{}",
        text(&out.stderr)
    );
    let out = grimoire(&["eval", "--rules", "arcomage", "--set", "you.wall", "[]"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_lists_examples() {
    let out = grimoire(&["check", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("Examples:"));
    let out = grimoire(&["eval", "--help"]);
    assert!(text(&out.stdout).contains("Examples:"));
}

#[test]
fn eval_json_has_state_per_entity_and_events() {
    let out = grimoire(&[
        "eval",
        "--rules",
        "arcomage",
        "--set",
        "you.wall=0",
        "--set",
        "other.quarry=5",
        "--format",
        "json",
        "[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["state"]["you"]["wall"], 6);
    assert_eq!(json["state"]["other"]["quarry"], 5);
    assert_eq!(json["state"]["other"]["tower"], 20);
    assert_eq!(json["events"][0]["entity"], "you");
    assert_eq!(json["events"][0]["attribute"], "wall");
    assert_eq!(json["events"][0]["before"], 0);
    assert_eq!(json["events"][0]["after"], 6);
}

#[test]
fn eval_reads_a_ron_state_and_the_seed_repeats_chance() {
    let dir = scratch("state");
    let state = dir.join("state.ron");
    std::fs::write(
        &state,
        "(seed: 11, entities: {\"you\": {\"wall\": 0}, \"other\": {\"tower\": 30}})",
    )
    .unwrap();
    let effects = "[{:effected :other :resource :tower :amount [- [random 1 20]]} {:effected :you :resource :wall :amount [if [chance 0.5] 1 2]}]";
    let run = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            "--rules",
            "arcomage",
            "--state",
            state.to_str().unwrap(),
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        args.push(effects);
        let out = grimoire(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let a = run(&[]);
    assert_eq!(a, run(&[]), "same seed, same output");
    assert_eq!(a, run(&["--seed", "11"]));
    let json: serde_json::Value = serde_json::from_str(&a).unwrap();
    let tower = json["state"]["other"]["tower"].as_i64().unwrap();
    assert!((10..=29).contains(&tower), "{tower}");
    // Some other seed gives some other draw.
    let differs = (0..20).any(|s| run(&["--seed", &s.to_string()]) != a);
    assert!(differs);

    std::fs::write(&state, "(entities: {\"you\": {\"wall\": }})").unwrap();
    let out = grimoire(&[
        "eval",
        "--rules",
        "arcomage",
        "--state",
        state.to_str().unwrap(),
        "[]",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("state.ron:1:"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn binary_and_empty_files_are_diagnostics_not_panics() {
    let dir = scratch("binary");
    std::fs::write(dir.join("arcomage/bin.edn"), [0x00, 0xff, 0xfe, 0x41]).unwrap();
    std::fs::write(dir.join("arcomage/empty.edn"), "").unwrap();
    let out = grimoire(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("not UTF-8"), "{err}");
    assert!(err.contains("holds no forms"), "{err}");
}

#[test]
fn a_file_with_hundreds_of_errors_shows_the_first_two_hundred_and_counts_the_rest() {
    let dir = scratch("hundreds");
    let cards: String = (0..500)
        .map(|i| format!("{{:card \"C{i}\" :type :bricks :cost 1 :effects [{{:effected :you :resource :wal :amount 1}}]}}\n"))
        .collect();
    std::fs::write(dir.join("arcomage/many.edn"), cards).unwrap();
    let out = grimoire(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(
        err.matches("error[E0205]: unknown resource `:wal`").count(),
        200
    );
    assert!(
        err.contains("300 more diagnostics in this file are not shown"),
        "{err}"
    );
    assert!(err.contains("500 errors"), "{err}");
}

#[test]
fn outside_a_checkout_play_uses_the_bundled_deck_and_deals_the_same_game() {
    let elsewhere = scratch("elsewhere");
    let here = grimoire(&["play", "arcomage", "--seed", "7"]);
    let there = common::command(&["play", "arcomage", "--seed", "7"])
        .current_dir(&elsewhere)
        .output()
        .expect("run grimoire");
    assert_eq!(there.status.code(), Some(0), "{}", text(&there.stderr));
    assert_eq!(text(&here.stdout), text(&there.stdout));
}

#[test]
fn the_working_directory_does_not_change_the_deck_and_the_deck_is_named() {
    // A folder with its own `cards/arcomage`: one free card nobody else has.
    let dir = scratch("cwd-deck");
    let cards = dir.join("cards/arcomage");
    std::fs::create_dir_all(&cards).unwrap();
    std::fs::write(
        cards.join("only.edn"),
        "{:card \"Only Card\" :type :bricks :cost 0 :copies 20 :text \"+1 Wall\" \
         :effects [{:effected :you :resource :wall :amount 1}]}",
    )
    .unwrap();
    let run = |args: &[&str]| {
        common::command(args)
            .current_dir(&dir)
            .output()
            .expect("run grimoire")
    };
    let out = run(&["play", "arcomage", "--seed", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(
        log.lines()
            .nth(1)
            .is_some_and(|l| l == "deck: the bundled arcomage deck, 102 cards"),
        "{log}"
    );
    assert!(!log.contains("Only Card"), "{log}");

    let out = run(&[
        "play",
        "arcomage",
        "--seed",
        "3",
        "--cards",
        "cards/arcomage",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(log.contains("deck: cards/arcomage, 20 cards\n"), "{log}");
    assert!(log.contains("plays Only Card"), "{log}");

    let out = run(&["simulate", "arcomage", "--games", "10", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["deck"]["source"], "the bundled arcomage deck");
    assert_eq!(json["deck"]["cards"], 102);
    let out = run(&["simulate", "arcomage", "--games", "10"]);
    assert!(
        text(&out.stdout).contains("deck: the bundled arcomage deck, 102 cards"),
        "{}",
        text(&out.stdout)
    );
}

/// A rule set with cards and actions side by side: a hand of Meteors nobody
/// can afford at first, and a strike each turn.
const CARDS_AND_ACTIONS: &str = r#"{:rules :mixed
 :doc "cards and actions side by side"
 :roles {:you "the player whose turn it is" :other "the opponent"}
 :kinds {:player "a seat's player"}
 :attributes {:gold {:default 1 :min 0} :hp {:default 5 :min 0} :acted {:default 0 :min 0}}
 :seats [:p1 :p2]
 :cards {:pay-with [:gold] :hand-size 2}
 :timings {:ready {:at :turn-start :doc "each player may strike again"}}
 :hooks {:ready [{:effected :you :resource :acted :set true :amount 0}]}
 :actions {:strike {:doc "hit the other player" :actor :player :target :player
                    :when [and [= :actor :you] [and [= :target :other] [= [:actor :acted] 0]]]
                    :pay [{:effected :actor :resource :acted :amount 1}]
                    :effects [{:effected :target :resource :hp :amount -1}]}}
 :victory [{:when [<= [:other :hp] 0] :winner :you :reason "the other fell"}]
 :turns {:limit 6}}
"#;

#[test]
fn a_person_is_offered_the_rule_sets_actions_beside_a_hand_and_told_why_a_card_is_refused() {
    let dir = common::scratch_dir("human-cards-and-actions");
    std::fs::write(dir.join("mixed.edn"), CARDS_AND_ACTIONS).unwrap();
    std::fs::write(
        dir.join("meteors.edn"),
        "{:card \"Meteor\" :type :gold :cost 5 :text \"-3 Hp\" :discardable false :copies 8\n \
         :effects [{:effected :other :resource :hp :amount -3}]}\n",
    )
    .unwrap();
    // A card that cannot be paid for, a mistyped action, the strike, then quit.
    let out = common::run_in(
        &["play", "mixed.edn", "--cards", "meteors.edn", "--human"],
        "1\na 9\na 1\nq\n",
        Some(&dir),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    for want in [
        "your hand:\n  1. Meteor (5 gold): -3 Hp  [cannot afford, cannot be discarded]",
        "your actions:\n  a1. p1: strike p2\n",
        "play N, discard with d N, act with a N, quit with q > ",
        "Meteor costs 5 gold; you have 1 (seat p1)",
        "type a N, an action number from 1 to 1",
        "  p1: strike p2\n    p1.acted 0 -> 1\n    p2.hp 5 -> 4",
        "game abandoned",
    ] {
        assert!(shown.contains(want), "{want:?} in:\n{shown}");
    }
}

/// A project whose `:whisper` gives the other seat a curse nobody is shown.
const HIDDEN_CURSE: &str = r#"{:rules :hide
 :doc "an invisible status and a visible one"
 :roles {:you "the player whose turn it is" :other "the other player"}
 :statuses {:hex "a curse its holder is not told of" :ward "a ward everyone sees"}
 :attributes {:luck {:default 5}}
 :seats [:p1 :p2]
 :actions {:whisper {:doc "curse the other, unseen" :actor :player :target :player
                     :when [and [= :actor :you] [= :target :other]]
                     :effects [{:effected :target :acquire :hex}]}
           :ward {:doc "ward yourself" :actor :player :when [= :actor :you]
                  :effects [{:effected :actor :acquire :ward}]}}
 :turns {:limit 2}}
"#;

#[test]
fn an_invisible_status_is_kept_from_the_person_at_the_table_and_marked_for_a_spectator() {
    let dir = common::scratch_dir("invisible-status");
    std::fs::write(dir.join("grimoire.edn"), "{:project \"hide\"}\n").unwrap();
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::create_dir_all(dir.join("effects/hide")).unwrap();
    std::fs::write(dir.join("rules/hide.edn"), HIDDEN_CURSE).unwrap();
    std::fs::write(
        dir.join("effects/hide/statuses.edn"),
        "{:status :hex :text \"luck -1, unseen\" :polarity :debuff :invisible true\n \
         :modifiers {:luck {:add -1}}}\n\
         {:status :ward :text \"luck +1\" :polarity :buff :modifiers {:luck {:add 1}}}\n",
    )
    .unwrap();
    // The person whispers (the first action), then wards on nothing: the AI plays p2.
    let out = common::run_in(
        &["play", "hide", "--human", "--seed", "2"],
        "1\n",
        Some(&dir),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("p1: whisper p2"), "{shown}");
    // p2's luck falls, but the person is never told of the hex.
    assert!(shown.contains("p2.luck 5 -> 4"), "{shown}");
    assert!(
        !shown.contains("hex"),
        "the hex is shown to the person:\n{shown}"
    );
    // A spectator of the same game sees it, marked.
    let out = common::run_in(&["play", "hide", "--seed", "2"], "", Some(&dir));
    let log = text(&out.stdout);
    assert!(
        log.contains("acquires hex (until removed) (invisible)"),
        "{log}"
    );
}

/// Issue 29's `each-exponential`: forty nested `{:each :player …}` would make
/// 2^40 changes; `eval` stops at the work budget with E0801 and exit 1.
#[test]
fn forty_nested_each_stop_at_the_work_budget_in_eval() {
    let mut effects = String::from("[{:effected :self :resource :wall :amount 1}]");
    for _ in 0..40 {
        effects = format!("[{{:each :player :effects {effects}}}]");
    }
    let out = common::run_in(&["eval", "--rules", "arcomage", &effects], "", None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error[E0801]: the work budget ran out"),
        "{err}"
    );
    // Pointed at the effect running, in the text given.
    assert!(err.contains("\n  --> <effects>:1:"), "{err}");
    assert!(err.contains("running here, in the effects given"), "{err}");
}

/// `CARDS_AND_ACTIONS` with forty tiles set up, which `check` cannot count:
/// four `:each` over them nested are 40^4 runs, past the work budget,
/// though `check`'s estimate (two a kind) sees 16.
fn with_tiles() -> String {
    CARDS_AND_ACTIONS
        .replace(
            ":kinds {:player \"a seat's player\"}",
            ":kinds {:player \"a seat's player\" :tile \"a tile\"}\n :setup {:tile {:kind :tile :for {:x [0 39]}}}",
        )
        .replace(":attributes {", ":attributes {:x {:default 0} ")
}

/// Four nested `:each :tile`, the innermost a change of the other's hp.
fn four_loops() -> String {
    let mut effects = String::from("{:effected :other :resource :hp :amount 0}");
    for _ in 0..4 {
        effects = format!("{{:each :tile :effects [{effects}]}}");
    }
    effects
}

/// Issue 29: a budget's runtime error points at the construct that ran out,
/// file:line:col: a card's effect in `eval --card` (with the source line and
/// a caret) and in a game's log, just before the game is said aborted.
#[test]
fn a_card_that_runs_out_of_the_work_budget_is_named_with_its_file_line_and_column() {
    let dir = common::scratch_dir("bomb-card");
    std::fs::write(dir.join("mixed.edn"), with_tiles()).unwrap();
    let bomb = format!(
        "{{:card \"Bomb\" :type :gold :cost 0 :text \"every tile\" :copies 8\n :effects\n [{}]}}\n",
        four_loops()
    );
    std::fs::write(dir.join("bomb.edn"), bomb).unwrap();
    let out = common::run_in(
        &[
            "eval",
            "--rules",
            "mixed.edn",
            "--cards",
            "bomb.edn",
            "--card",
            "Bomb",
        ],
        "",
        Some(&dir),
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("error[E0801]: the work budget ran out"),
        "{err}"
    );
    assert!(err.contains("\n  --> bomb.edn:3:"), "{err}");
    assert!(err.contains("running here, in card `Bomb`"), "{err}");
    // In a game: the first seat plays a Bomb (every card is one) or strikes,
    // and a Bomb comes soon.
    let out = common::run_in(
        &["play", "mixed.edn", "--cards", "bomb.edn", "--seed", "1"],
        "",
        Some(&dir),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    let lines: Vec<&str> = log.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("out of budget at bomb.edn:3:"))
        .unwrap_or_else(|| panic!("{log}"));
    assert!(lines[at].ends_with(", in card `Bomb`"), "{}", lines[at]);
    assert!(
        lines[at + 1].starts_with("aborted: the work budget ran out"),
        "{log}"
    );
}

/// The same for a rule set's own hook, run by `eval --then`: the rule set's
/// file, line and column.
#[test]
fn a_hook_that_runs_out_of_the_work_budget_is_named_in_the_rule_sets_file() {
    let dir = common::scratch_dir("bomb-hook");
    let rules = with_tiles().replace(
        ":hooks {:ready [",
        &format!(":hooks {{:ready [\n  {}\n  ", four_loops()),
    );
    let line = rules
        .lines()
        .position(|l| l.contains(":each :tile"))
        .unwrap()
        + 1;
    std::fs::write(dir.join("mixed.edn"), rules).unwrap();
    let out = common::run_in(
        &["eval", "--rules", "mixed.edn", "--then", "ready"],
        "",
        Some(&dir),
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!(" --> mixed.edn:{line}:")), "{err}");
    assert!(err.contains("running here, in rule set `mixed`"), "{err}");
}

/// `roll` points at the expression rolled.
#[test]
fn a_roll_that_runs_out_of_the_work_budget_points_at_the_expression() {
    let mut e = String::from("1d20");
    for _ in 0..24 {
        e = format!("[advantage {e}]");
    }
    let out = common::run_in(&["roll", &e], "", None);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("\n  --> <expr>:1:1\n"), "{err}");
    assert!(
        err.contains("running here, in the expression rolled"),
        "{err}"
    );
}

/// A game aborted by a budget is counted apart in `simulate`: never a draw.
#[test]
fn simulate_counts_games_aborted_by_a_budget_apart_from_draws() {
    let dir = common::scratch_dir("aborted-games");
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::write(dir.join("rules/grow.edn"), common::GROW_RULES).unwrap();
    std::fs::create_dir_all(dir.join("effects/grow")).unwrap();
    std::fs::write(dir.join("effects/grow/seed.edn"), common::GROW_SEED).unwrap();
    let out = common::run_in(
        &[
            "simulate",
            "rules/grow.edn",
            "--games",
            "3",
            "--format",
            "json",
        ],
        "",
        Some(&dir),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["aborted"], serde_json::json!([["statuses", 3]]), "{v}");
    assert_eq!(v["ties"], 0);
    assert_eq!(v["turn_limits"], 0);
    // Played, the log ends saying why, and the thousands of seeds held are
    // one entry of the final table, not thousands.
    let out = common::run_in(&["play", "rules/grow.edn", "--seed", "1"], "", Some(&dir));
    let log = text(&out.stdout);
    assert!(
        log.contains(
            "\nout of budget at effects/grow/seed.edn:2:24, in status `seed`\n\
             aborted: the status budget ran out"
        ),
        "{log}"
    );
    let p1 = log.lines().rev().find(|l| l.starts_with("p1 ")).unwrap();
    assert!(p1.contains("[seed ×") && p1.len() < 80, "{p1}");
}

/// Two statuses that acquire each other, one stacking `:independent`: the
/// warning names the cycle's path; one stacking `:refresh` alone is no cycle
/// to warn of (acquiring it again only refreshes it).
#[test]
fn a_status_acquiring_itself_through_another_is_warned_with_the_cycles_path() {
    let dir = common::scratch_dir("self-acquiring");
    std::fs::create_dir_all(dir.join("tactics")).unwrap();
    std::fs::write(
        dir.join("tactics/spores.edn"),
        "{:status :spores :polarity :debuff :stacking :independent
 :on-expire [{:effected :holder :acquire :mould}]}
{:status :mould :polarity :debuff :lasts [1 :bleed]
 :hooks {:bleed [{:each :unit :effects [{:effected :self :acquire :spores}]}]}}
{:status :calm :polarity :buff :hooks {:bleed [{:effected :holder :acquire :calm}]}}\n",
    )
    .unwrap();
    let out = common::run_in(&["check", "tactics/spores.edn"], "", Some(&dir));
    let shown = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert!(
        shown.contains(
            "warning[W0404]: status `:spores` acquires itself again (:spores → :mould → :spores)"
        ),
        "{shown}"
    );
    assert_eq!(shown.matches("W0404").count(), 1, "{shown}");
}
