//! `grimoire eval` on a rule set with `:zones` (the skirmish fixture): the
//! state starts from the deck dealt as a game deals it, a `--state` file
//! gives piles, the output lists the card moves and every pile.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{self, run_in, text};

const RULES: &str = "tests/data/zones/rules/skirmish.edn";
const CARDS: &str = "tests/data/zones/cards/skirmish";

/// `grimoire eval` on the fixture with `args`: its exit code, standard
/// output and standard error.
fn eval(args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["eval", "--rules", RULES, "--cards", CARDS];
    all.extend_from_slice(args);
    let out = run_in(&all, "", None);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// [`eval`] with `--format json`, which must exit 0.
fn eval_json(args: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = eval(&all);
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_str(&out).expect("JSON")
}

/// The card names of a pile of `eval`'s JSON `zones`, instance numbers dropped.
fn pile(v: &Value, key: &str) -> Vec<String> {
    v["zones"][key]
        .as_array()
        .unwrap_or_else(|| panic!("no pile {key} in {v}"))
        .iter()
        .map(|c| {
            let name = c.as_str().unwrap_or("-");
            name.split('#').next().unwrap_or(name).to_string()
        })
        .collect()
}

/// The instances of a pile of `eval`'s JSON `zones`, as named (`Yeti#3`).
fn instances(v: &Value, key: &str) -> Vec<String> {
    v["zones"][key]
        .as_array()
        .unwrap_or_else(|| panic!("no pile {key} in {v}"))
        .iter()
        .map(|c| c.as_str().unwrap_or("-").to_string())
        .collect()
}

/// A state file of `text` in a scratch folder.
fn state_file(name: &str, text: &str) -> PathBuf {
    let path = common::scratch_dir(&format!("eval-zones-{name}")).join("state.ron");
    std::fs::write(&path, text).expect("write the state file");
    path
}

#[test]
fn eval_starts_from_the_hands_a_game_deals() {
    // The cards `play` shows dealt to each seat before turn 1, in order.
    let log = common::grimoire(&["play", RULES, "--cards", CARDS, "--seed", "4"]);
    let dealt = |seat: &str| -> Vec<String> {
        let to = format!(": deck -> {seat}'s hand");
        log.lines()
            .take_while(|l| !l.starts_with("turn 1"))
            .filter_map(|l| l.trim().strip_suffix(&to).map(str::to_string))
            .collect()
    };
    assert_eq!(dealt("p1").len(), 3, "{log}");
    let v = eval_json(&["--seed", "4", "[]"]);
    assert_eq!(instances(&v, "hand.you"), dealt("p1"), "{v}");
    assert_eq!(instances(&v, "hand.other"), dealt("p2"), "{v}");
    assert_eq!(pile(&v, "deck").len(), 48 - 6);
    assert!(pile(&v, "discard").is_empty() && pile(&v, "board.you").is_empty());
}

#[test]
fn a_draw_moves_the_decks_top_two_cards_into_yous_hand() {
    let before = eval_json(&["[]"]);
    let top: Vec<String> = instances(&before, "deck")[..2].to_vec();
    let after = eval_json(&["[{:effected :you :draw 2}]"]);
    let mut hand = instances(&before, "hand.you");
    hand.extend(top.iter().cloned());
    assert_eq!(instances(&after, "hand.you"), hand);
    assert_eq!(pile(&after, "deck").len(), 40);
    let moved: Vec<&Value> = after["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["moved"] == serde_json::json!(["deck", "hand.you"]))
        .collect();
    assert_eq!(moved.len(), 2, "{after}");
    assert_eq!(moved[0]["entity"], top[0].as_str());
    assert_eq!(moved[1]["entity"], top[1].as_str());

    // People read the moves as a play's log says them, with their cause,
    // and every pile after the table.
    let (code, out, err) = eval(&["[{:effected :you :draw 2}]"]);
    assert_eq!(code, Some(0), "{err}");
    for card in &top {
        let line = format!("{card}: deck -> you's hand (effect 1)");
        assert!(out.lines().any(|l| l == line), "{line} in\n{out}");
    }
    assert!(
        out.lines()
            .any(|l| l.starts_with("you's hand, 5 cards: ") && l.ends_with(&top[1])),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("deck, 40 cards, top first: ") && l.ends_with(", and 30 more")),
        "{out}"
    );
    assert!(out.contains("\ndiscard: empty\n"), "{out}");
    // The cards in hands and the deck are listed with their piles, not as rows.
    let row = format!("{} ", top[0]);
    assert!(!out.lines().any(|l| l.starts_with(&row)), "{out}");
}

#[test]
fn count_sees_the_dealt_hand() {
    let v = eval_json(&["[{:effected :you :resource :mana :amount [count [:hand :you]]}]"]);
    assert_eq!(common::value(&v, "you", "mana"), 3, "{v}");
    let census = eval_json(&["--card", "Census"]);
    assert_eq!(common::value(&census, "you", "mana"), 3, "{census}");
}

#[test]
fn a_state_file_gives_piles_as_a_scenario_does() {
    let path = state_file(
        "piles",
        r#"(seed: 3,
 entities: {"you": {"mana": 4}},
 zones: {"hand.you": ["Yeti", "Scout"], "deck": ["Purge", "Coin"],
         "board.other": {0: "Raider", 1: "Yeti"}, "discard": []})"#,
    );
    let state = path.to_str().expect("a path");
    let v = eval_json(&[
        "--state",
        state,
        "[{:effected :you :draw 1} {:effected :you :resource :health :amount [- [count [:board :other]]]}]",
    ]);
    // A deck is written top first: Purge is drawn.
    assert_eq!(pile(&v, "hand.you"), ["Yeti", "Scout", "Purge"]);
    assert_eq!(pile(&v, "deck"), ["Coin"]);
    assert_eq!(pile(&v, "board.other"), ["Raider", "Yeti"]);
    assert_eq!(common::value(&v, "you", "health"), 28);
    assert_eq!(common::value(&v, "you", "mana"), 4);
    // The minions on the board are rows of the state, with their values.
    assert_eq!(v["state"]["Raider#50"]["attack"], 2, "{v}");
    // Piles not given are as dealt.
    assert_eq!(pile(&v, "hand.other").len(), 3);

    // Blizzard kills the Raider: it falls to the discards, by the rules.
    let (code, out, err) = eval(&["--state", state, "--card", "Blizzard"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("Raider#50.health     1 -> 0     (effect 1)"),
        "{out}"
    );
    assert!(
        out.contains("\nRaider#50: other's board -> discard (it fell)\n"),
        "{out}"
    );
    assert!(out.contains("\nother's board, 1 card: Yeti#51\n"), "{out}");
}

#[test]
fn bad_pile_and_card_names_in_a_state_file_are_located() {
    let path = state_file(
        "bad",
        "(zones: {\"hnad.you\": [\"Yeti\"], \"deck\": [\"Yetti\"],\n \"board\": [], \"discard.you\": [], \"hand.yuo\": [], \"board.other\": {9: \"Yeti\"}})",
    );
    let state = path.to_str().expect("a path");
    let (code, out, err) = eval(&["--state", state, "[]"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(!err.contains("panicked"), "{err}");
    for (code, at, said) in [
        ("E0239", "state.ron:1:10", "did you mean `hand`?"),
        ("E0407", "state.ron:1:41", "did you mean `\"Yeti\"`?"),
        ("E0240", "state.ron:2:2", "say whose, `\"board.you\"`"),
        ("E0240", "state.ron:2:15", "`discard` is shared"),
        ("E0607", "state.ron:2:34", "did you mean `hand.you`?"),
        ("E0242", "state.ron:2:50", "there is no slot 9"),
    ] {
        let found = err
            .split("\n\n")
            .find(|d| d.contains(code) && d.contains(at));
        let d = found.unwrap_or_else(|| panic!("{code} at {at} in:\n{err}"));
        assert!(d.contains(said), "{said} in:\n{d}");
    }
    // The errors are told in the file's order.
    let at = |code: &str| err.find(code).expect("the code");
    assert!(
        at("E0239") < at("E0407") && at("E0407") < at("E0242"),
        "{err}"
    );

    // A pile given more cards than it holds.
    let eleven = ["\"Coin\""; 11].join(", ");
    let path = state_file("full", &format!("(zones: {{\"hand.you\": [{eleven}]}})"));
    let (code, _, err) = eval(&["--state", path.to_str().expect("a path"), "[]"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("error[E0007]: `:hand` holds 10 cards at most")
            && err.contains("state.ron:1:10"),
        "{err}"
    );
}

#[test]
fn piles_are_for_a_rule_set_with_zones() {
    let path = state_file("arcomage", "(zones: {\"deck\": [\"Imp\"]})");
    let out = run_in(
        &[
            "eval",
            "--rules",
            "arcomage",
            "--state",
            path.to_str().expect("a path"),
            "[]",
        ],
        "",
        None,
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error[E0705]") && err.contains("state.ron:1:2"),
        "{err}"
    );
}

#[test]
fn a_card_tried_is_made_where_its_play_puts_it() {
    // Scout resolves in `playing`, and draws 2.
    let v = eval_json(&["--card", "Scout"]);
    assert_eq!(pile(&v, "playing"), ["Scout"]);
    assert_eq!(pile(&v, "hand.you").len(), 5);
    // Banner goes to your board, beside the Yeti there: `:this-card` is it.
    let path = state_file("banner", "(zones: {\"board.you\": [\"Yeti\"]})");
    let v = eval_json(&[
        "--state",
        path.to_str().expect("a path"),
        "--card",
        "Banner",
    ]);
    assert_eq!(pile(&v, "board.you"), ["Yeti", "Banner"]);
    let yeti = &instances(&v, "board.you")[0];
    assert_eq!(v["state"][yeti]["attack"], 5, "{v}");
}

#[test]
fn effects_naming_no_card_of_the_deck_are_refused() {
    let (code, _, err) = eval(&["[{:create \"Wsip\" :to [:board :you]}]"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("error[E0407]: no card of the deck is named \"Wsip\"")
            && err.contains("<effects>:1:11")
            && err.contains("did you mean `\"Wisp\"`?"),
        "{err}"
    );
}

#[test]
fn over_seeds_each_run_deals_its_own_hands() {
    let v = eval_json(&[
        "--seeds",
        "0..199",
        "[{:effected :you :resource :mana :amount [count [:hand :you] [of-kind :self :minion]]}]",
    ]);
    let values = v["values"].as_array().expect("values");
    assert_eq!(values.len(), 1, "{v}");
    assert_eq!(values[0]["entity"], "you");
    assert_eq!(values[0]["runs"], 200);
    // 10 minions of 48 cards: three-card hands hold 0 to 3 of them.
    assert_eq!(
        (values[0]["min"].as_i64(), values[0]["max"].as_i64()),
        (Some(0), Some(3)),
        "{v}"
    );
}
