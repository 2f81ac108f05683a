//! Effects in plain words: `grimoire explain` and `grimoire cards`, and the
//! explanation of every bundled card and effect list.

use crate::common;

use std::path::PathBuf;
use std::process::Output;

use common::text;
use grimoire::check::explain::{explain, explain_with};
use grimoire::check::rules::{BUNDLED, Moment};
use grimoire::check::{ACTOR, HOLDER, SELF, SOURCE, TARGET};
use grimoire::cli::explain::explain_card;
use grimoire::files;
use grimoire::ids::OpId;
use grimoire::ids::TimingId;

fn grimoire(args: &[&str]) -> Output {
    common::run_in(args, "", None)
}

/// `grimoire ARGS` with `input` on standard input.
fn grimoire_with_stdin(args: &[&str], input: &str) -> Output {
    common::run_in(args, input, None)
}

/// A scratch file for one test.
fn scratch(name: &str, contents: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("explain");
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write scratch file");
    path
}

/// Every bundled Arcomage card: its name, its own text and the explanation,
/// one block each. Read by eye: each explanation must say what the card's
/// text says, in the explanation's own words.
#[test]
fn every_arcomage_card_explained() {
    let out = cards_explained("arcomage", 102, |card| card.name.clone());
    insta::assert_snapshot!(out);
}

/// Every card of the bundled minions game (issue 33): its name, its own
/// text and the explanation, one block each. Read by eye: each explanation
/// says what the card's text says (a Battlecry's target, a Deathrattle's
/// trigger, a keyword).
#[test]
fn every_minions_card_explained() {
    let out = cards_explained("minions", 26, |card| card.name.clone());
    insta::assert_snapshot!(out);
}

/// Every card of the bundled deduction game: its name, its own text and the
/// explanation, one block each, read by eye as Arcomage's are.
#[test]
fn every_deduction_card_explained() {
    let out = cards_explained("deduction", 8, |card| {
        format!("{} (x{})", card.name, card.play.copies)
    });
    insta::assert_snapshot!(out);
}

/// Every effect list of every bundled rule set (hooks, operations, actions,
/// kinds, statuses) and every bundled definition explains, without a panic and
/// with no placeholder for a name it could not find.
#[test]
fn every_bundled_effect_list_explains() {
    let mut seen = 0;
    for (name, _) in BUNDLED {
        let mut rules = common::bundled(name);
        let deck = files::load_deck(&mut rules, &[]).expect("the bundled deck loads");
        let mut lists: Vec<(String, Vec<grimoire::check::ast::Effect>, Vec<&str>)> = Vec::new();
        for (t, hook) in rules.hooks.iter().enumerate() {
            let timing = &rules.timings[TimingId::new(t)];
            let bound = if timing.each.is_some() || timing.at == Moment::Run {
                vec![SELF]
            } else {
                vec![]
            };
            lists.push((format!("hook {}", timing.name), hook.clone(), bound));
        }
        for (o, op) in rules.operation_defs.iter().enumerate() {
            let name = format!("operation {}", rules.operations[OpId::new(o)]);
            lists.push((name, op.effects.clone(), vec![]));
        }
        for action in &rules.actions {
            let bound = if action.target.is_some() {
                vec![ACTOR, TARGET]
            } else {
                vec![ACTOR]
            };
            lists.push((
                format!("action {}", action.name),
                action.effects.clone(),
                bound.clone(),
            ));
            lists.push((
                format!("action {} pays", action.name),
                action.pay.clone(),
                bound,
            ));
        }
        for (k, effects) in rules.on_removed.iter().chain(&rules.on_turn).enumerate() {
            lists.push((format!("kind {k}"), effects.clone(), vec![SELF]));
        }
        for (s, def) in rules.status_defs.iter_ids() {
            let status = &rules.statuses[s];
            let lists_of = def
                .hooks
                .iter()
                .map(|(_, e)| e)
                .chain([&def.on_acquire, &def.on_expire, &def.on_remove])
                .chain(&def.segments);
            for effects in lists_of {
                lists.push((
                    format!("status {status}"),
                    effects.clone(),
                    vec![HOLDER, SOURCE, SELF],
                ));
            }
        }
        // A card is said whole, as `explain` says it: its targets (roles its
        // effects name) introduced before the effects that name them.
        for card in &deck.cards {
            let said = explain_card(&rules, card);
            seen += 1;
            assert!(
                !said.contains('?') && !said.contains("role "),
                "{name} card {}: {said}",
                card.name
            );
        }
        for (label, effects, bound) in &lists {
            let said = explain_with(&rules, effects, bound);
            seen += 1;
            assert!(!said.is_empty(), "{name} {label}");
            assert!(
                !said.contains('?') && !said.contains("role "),
                "{name} {label}: {said}"
            );
        }
    }
    // The bundled definitions folders too (named effects, statuses as files),
    // and every definition of the test data that checks.
    let paths = ["cards", "effects", "tests/data"].map(PathBuf::from);
    let checked = files::check_paths(&paths, None);
    for def in &checked.definitions {
        let Ok(rules) = files::load_rules(&def.rules) else {
            continue;
        };
        let said = explain(&rules, &def.effects);
        assert!(
            !said.is_empty() && !said.contains('?'),
            "{}: {said}",
            def.name
        );
        seen += 1;
    }
    assert!(seen > 300, "only {seen} effect lists explained");
}

#[test]
fn explain_a_card_by_name() {
    let out = grimoire(&["explain", "--card", "Foundations", "--rules", "arcomage"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "+6 Wall if your wall is 0, otherwise +3 Wall\n"
    );
}

#[test]
fn explain_a_misspelt_card_suggests_the_name() {
    let out = grimoire(&["explain", "--card", "Fundations", "--rules", "arcomage"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("no card named \"Fundations\""), "{err}");
    assert!(err.contains("did you mean \"Foundations\"?"), "{err}");
}

#[test]
fn explain_effects_given_inline_from_a_file_and_from_stdin() {
    let effects = "[{:effected :other :resource :damage :amount 5} {:effected :other :resource :wall :amount -5}]";
    let said = "5 Damage to the enemy, -5 enemy Wall\n";
    let out = grimoire(&["explain", "--rules", "arcomage", effects]);
    assert_eq!(
        (out.status.code(), text(&out.stdout).as_str()),
        (Some(0), said)
    );

    let file = scratch(
        "effects.edn",
        &format!("; two changes to the enemy\n{effects}\n"),
    );
    let out = grimoire(&[
        "explain",
        "--rules",
        "arcomage",
        "--file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(
        (out.status.code(), text(&out.stdout).as_str()),
        (Some(0), said),
        "{}",
        text(&out.stderr)
    );

    let out = grimoire_with_stdin(&["explain", "--rules", "arcomage", "-"], effects);
    assert_eq!(
        (out.status.code(), text(&out.stdout).as_str()),
        (Some(0), said),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_bad_effects_file_is_located_in_that_file() {
    let file = scratch(
        "typo.edn",
        "; a misspelt resource on line 2\n[{:effected :you :resource :quary :amount 1}]\n",
    );
    for command in ["explain", "eval"] {
        let out = grimoire(&[
            command,
            "--rules",
            "arcomage",
            "--file",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{command}");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("{}:2:28", file.display())),
            "{command}: {err}"
        );
        assert!(err.contains("did you mean `:quarry`?"), "{command}: {err}");
        assert!(!err.contains("<effects>"), "{command}: {err}");
    }
    let out = grimoire_with_stdin(
        &["explain", "--rules", "arcomage", "-"],
        "[{:effected :you :resource :quary :amount 1}]",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("<stdin>:1:"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_missing_effects_file_is_an_io_error_naming_it() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("explain/no-such-file.edn");
    for command in ["explain", "eval"] {
        let out = grimoire(&[
            command,
            "--rules",
            "arcomage",
            "--file",
            missing.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = text(&out.stderr);
        assert!(
            err.contains(&missing.display().to_string()),
            "{command}: {err}"
        );
    }
}

#[test]
fn eval_reads_effects_from_a_file_and_from_stdin() {
    let effects = "[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]";
    let file = scratch("foundations.edn", effects);
    let out = grimoire(&[
        "eval",
        "--rules",
        "arcomage",
        "--set",
        "you.wall=0",
        "--file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("you.wall             0 -> 6"),
        "{}",
        text(&out.stdout)
    );

    let out = grimoire_with_stdin(
        &["eval", "--rules", "arcomage", "--set", "you.wall=4", "-"],
        effects,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("you.wall             4 -> 7"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn cards_lists_the_deck_as_a_table() {
    let out = grimoire(&["cards", "arcomage"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 103, "a header and 102 cards");
    assert!(
        lines[0].starts_with("name") && lines[0].ends_with("text"),
        "{}",
        lines[0]
    );
    let foundations = lines
        .iter()
        .find(|l| l.starts_with("Foundations "))
        .expect("Foundations is listed");
    let cells: Vec<&str> = foundations.split("  ").filter(|c| !c.is_empty()).collect();
    assert_eq!(
        cells.iter().map(|c| c.trim()).collect::<Vec<_>>(),
        [
            "Foundations",
            "bricks",
            "3",
            "If you have no wall, +6 Wall, otherwise +3 Wall"
        ]
    );
    // Every row's text starts in the same column.
    let at = lines[0].find("text").unwrap();
    assert!(
        lines
            .iter()
            .skip(1)
            .all(|l| l.len() > at && l.as_bytes()[at - 1] == b' ')
    );
}

#[test]
fn cards_lists_the_deck_as_json() {
    let out = grimoire(&["cards", "arcomage", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows = rows.as_array().expect("an array of cards");
    assert_eq!(rows.len(), 102);
    let lode = rows
        .iter()
        .find(|r| r["name"] == "Mother Lode")
        .expect("Mother Lode is listed");
    assert_eq!(
        *lode,
        serde_json::json!({
            "name": "Mother Lode",
            "type": "bricks",
            "cost": 4,
            "text": "If Quarry < enemy Quarry, +2 Quarry. Else +1 Quarry"
        })
    );
}

#[test]
fn cards_of_an_unknown_rule_set_is_a_usage_error() {
    let out = grimoire(&["cards", "arcomag"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("arcomage"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn status_changes_are_said() {
    let rules = common::bundled("skills");
    let say = |text: &str| {
        let arena = grimoire::syntax::Arena::new();
        let form = grimoire::syntax::read_one(&arena, text).expect("reads");
        explain(&rules, &rules.check_effects(&form).expect("checks"))
    };
    assert_eq!(
        say("[{:effected :other :acquire :TakeDamage2 :amount 23 :lasts 4}]"),
        "The enemy acquires TakeDamage2 with magnitude 23, lasting 4"
    );
    assert_eq!(
        say("[{:effected :you :acquire :heal4}]"),
        "You acquire heal4"
    );
    assert_eq!(
        say("[{:effected :you :dispel :debuff :pick :all}]"),
        "Remove every debuff from you"
    );
    assert_eq!(
        say("[{:effected :you :dispel :buff}]"),
        "Remove a random buff from you"
    );
    assert_eq!(
        say("[{:effected :other :dispel [:debuff :ecaTakeDamage] :amount 2 :pick :oldest}]"),
        "Remove the 2 oldest ecaTakeDamage debuffs from the enemy"
    );
    assert_eq!(
        say("[{:effected :you :extend :buff :amount 2}]"),
        "+2 turns to your buffs"
    );
    assert_eq!(
        say("[{:effected :other :extend :debuff :amount -1}]"),
        "-1 turn to the enemy's debuffs"
    );
    assert_eq!(
        say("[{:effected :other :extend :any :amount [floor [/ [:you :power] 10]]}]"),
        "Add your power / 10 (rounded down) to the turns left of the enemy's statuses"
    );
    assert_eq!(
        say("[{:effected :you :resource :health :amount [- [turns-left :you :buff]]}]"),
        "Subtract the turns left of your buffs from your health"
    );
    assert_eq!(
        say(
            "[{:effected :you :resource :power :amount [if [has :other :debuff] [statuses :other :debuff] 0]}]"
        ),
        "Add the number of debuffs the enemy holds to your power if the enemy holds a debuff"
    );
}

#[test]
fn cards_of_a_rule_set_without_cards_says_so() {
    let out = grimoire(&["cards", "tactics"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("rule set `tactics` deals no cards"),
        "{}",
        text(&out.stderr)
    );
}

/// Every card of the bundled deckbuilder (issue 33), the rewards not dealt
/// included: its name, its text and the explanation. Read by eye: each
/// explanation says what the text says (an attack's damage is the rule set's
/// `:damage` formula: strength, weak and vulnerable, rounded down once).
#[test]
fn every_deckbuilder_card_explained() {
    let out = cards_explained("deckbuilder", 7, |card| {
        format!(
            "{} (cost {}, {} copies)",
            card.name, card.play.cost, card.play.copies
        )
    });
    insta::assert_snapshot!(out);
}

/// Each card of bundled rule set `name` (which has `count`), a block each:
/// `head` of the card, its own text and the explanation.
fn cards_explained(
    name: &str,
    count: usize,
    head: impl Fn(&grimoire::check::defs::Card) -> String,
) -> String {
    let mut rules = common::bundled(name);
    let deck = files::load_deck(&mut rules, &[]).expect("the bundled deck loads");
    assert_eq!(deck.cards.len(), count);
    let mut out = String::new();
    for card in &deck.cards {
        out.push_str(&format!(
            "{}\n  text:    {}\n  explain: {}\n",
            head(card),
            card.text,
            explain_card(&rules, card)
        ));
    }
    out
}
