//! Effects on cards and queries of zones never panic (issue 30): forms built
//! from their parts, right and wrong (unknown zones, missing owners, shared
//! zones given one, picks a zone cannot make, slots off the board, huge and
//! negative counts, names no card has), are checked against the skirmish
//! fixture with every diagnostic inside its text; those that check clean
//! run on a dealt game, for either seat, and leave every card in exactly
//! one pile, and the step within its work budget.

use std::sync::LazyLock;

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::diag::Source;
use grimoire::engine::{Game, Log};
use grimoire::eval::apply;
use grimoire::ids::EntityId;
use grimoire::syntax::{self, Arena};
use proptest::prelude::*;
use proptest::test_runner::Config;

static SKIRMISH: LazyLock<(RuleSet, Vec<Card>)> = LazyLock::new(|| {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/data/zones/rules/skirmish.edn"))
        .expect("the fixture");
    let mut rules = RuleSet::parse(&text).expect("the fixture checks");
    let deck =
        grimoire::files::load_deck(&mut rules, &[root.join("tests/data/zones/cards/skirmish")])
            .expect("its deck");
    (rules, deck.cards)
});

fn config() -> Config {
    Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Mostly piles the fixture has, so that lists of several check clean.
fn zone() -> impl Strategy<Value = &'static str> + Clone {
    let good = prop::sample::select(vec![
        ":deck",
        ":discard",
        ":removed",
        ":playing",
        "[:hand :you]",
        "[:hand :other]",
        "[:board :you]",
        "[:board :other]",
        "[:hand [if [> [:you :health] 10] :you :other]]",
        "[:board :this-card]",
    ]);
    // Wrong: unknown, owner missing, owner given to a shared zone, an unbound
    // owner, no name; and `:aside`, which has no order.
    let wrong = prop::sample::select(vec![
        ":hnad",
        ":hand",
        "[:deck :you]",
        "[:board :self]",
        "[:board]",
        "[]",
        "3",
        ":aside",
    ]);
    prop_oneof![9 => good, 1 => wrong]
}

fn count() -> impl Strategy<Value = &'static str> + Clone {
    prop::sample::select(vec![
        "0",
        "1",
        "2",
        "1",
        "-3",
        "1000",
        "9223372036854775807",
        "[count [:hand :you]]",
        "[random 0 5]",
        "[max-of [:board :other] [:self :attack]]",
    ])
}

fn pick() -> impl Strategy<Value = &'static str> + Clone {
    prop::sample::select(vec![
        "",
        ":pick :top",
        ":pick :bottom",
        ":pick :random",
        ":pick :all",
        ":pick :chosen",
        ":pick :nope",
    ])
}

fn condition() -> impl Strategy<Value = &'static str> + Clone {
    prop::sample::select(vec![
        "",
        ":where [<= [:self :attack] 2]",
        ":where [named :self \"Yeti\"]",
        ":where [of-kind :self :minion]",
        ":where [in :self [:board :other]]",
        ":where [= 1 [count [adjacent :self]]]",
        ":where [> [slot :self] 0]",
        ":where [holds :you \"Wisp\"]",
        ":where [named :self \"Yeit\"]",
    ])
}

fn place() -> impl Strategy<Value = &'static str> + Clone {
    prop::sample::select(vec![
        "",
        ":at :top",
        ":at :bottom",
        ":at :random",
        ":slot 0",
        ":slot 6",
        ":slot 7",
        ":slot [- [count [:board :you]] 1]",
        ":slot [* 100 [count :deck]]",
        ":at :top :slot 1",
    ])
}

fn selection() -> impl Strategy<Value = String> {
    prop_oneof![
        zone().prop_map(str::to_string),
        Just(":this-card".to_string()),
        Just(":you".to_string()),
        Just("[adjacent [if true :you :other]]".to_string()),
        (zone(), pick(), count(), condition())
            .prop_map(|(z, p, n, c)| format!("{{:from {z} {p} :count {n} {c}}}")),
    ]
}

fn card_effect() -> impl Strategy<Value = String> {
    let who = prop::sample::select(vec![":you", ":other", ":self", ":this-card"]);
    prop_oneof![
        (who.clone(), count(), zone(), zone()).prop_map(|(w, n, from, to)| format!(
            "{{:effected {w} :draw {n} :from {from} :to {to}}}"
        )),
        (who.clone(), count()).prop_map(|(w, n)| format!("{{:effected {w} :draw {n}}}")),
        (who.clone(), count(), pick(), condition()).prop_map(|(w, n, p, c)| format!(
            "{{:effected {w} :discard {n} {p} {c}}}"
        )),
        who.clone().prop_map(|w| format!("{{:effected {w} :discard :all}}")),
        (selection(), zone(), place())
            .prop_map(|(s, z, p)| format!("{{:move {s} :to {z} {p}}}")),
        zone().prop_map(|z| format!("{{:shuffle {z}}}")),
        (who.clone(), selection()).prop_map(|(w, s)| format!("{{:effected {w} :look {s}}}")),
        (selection(), who).prop_map(|(s, w)| format!("{{:reveal {s} :to {w}}}")),
        (
            prop::sample::select(vec!["\"Wisp\"", "\"Yeti\"", "\"Wsip\"", "3", "\"\""]),
            zone(),
            count(),
            place()
        )
            .prop_map(|(n, z, c, p)| format!("{{:create {n} :to {z} :count {c} {p}}}")),
        selection().prop_map(|s| format!("{{:destroy {s}}}")),
        selection().prop_map(|s| format!("{{:remove {s}}}")),
        (zone(), condition()).prop_map(|(z, c)| format!(
            "{{:each {z} {c} :effects [{{:destroy :self}} {{:effected :self :resource :attack :amount 1}}]}}"
        )),
        (zone(), condition()).prop_map(|(z, c)| format!(
            "{{:effected :you :resource :mana :amount [+ [count {z}] [top {z} [:self :attack] -1] [min-of {z} [:self :health]]]}} {c}"
        )),
    ]
}

/// Every card instance is in one pile, where its pile says, once.
fn every_card_in_one_pile(state: &grimoire::eval::State) {
    let table = state.cards.as_deref().expect("a card table");
    let mut seen = std::collections::HashSet::new();
    for pile in 0..table.piles() {
        for &e in table.contents(pile) {
            if e == EntityId::MAX {
                continue;
            }
            assert!(seen.insert(e), "{e:?} is in two piles");
            assert_eq!(table.pile_of(e), Some(pile), "{e:?}'s pile");
        }
    }
    for e in table.instances() {
        assert!(seen.contains(&e), "{e:?} is in no pile");
    }
}

fn exercise(text: &str, seed: u64) {
    let (rules, cards) = &*SKIRMISH;
    let source = Source::new("input.edn", text);
    let arena = Arena::new();
    let Ok(form) = syntax::read_one(&arena, text) else {
        return;
    };
    let effects = match rules.check_effects(&form) {
        Ok(effects) => effects,
        Err(diags) => {
            for d in &diags {
                assert!(d.span.end as usize <= text.len(), "{}", d.message);
                let _ = source.render(d, false);
            }
            return;
        }
    };
    let _ = grimoire::check::explain::explain(rules, &effects);
    let game = Game::new(rules, cards, seed, Log::Skip).expect("a game");
    for roles in [[0, 1], [1, 0]].map(|r| r.map(EntityId::new)) {
        let mut state = game.state().clone();
        let _ = state.refuel();
        apply(rules, &effects, &mut state, &roles, &mut Vec::new());
        every_card_in_one_pile(&state);
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn card_effects_check_or_say_why_and_run_without_panicking(
        list in prop::collection::vec(card_effect(), 1..4),
        seed in 0u64..1000,
    ) {
        exercise(&format!("[{}]", list.join(" ")), seed);
    }
}

#[test]
fn a_loop_of_draws_over_an_enormous_count_stops_at_its_budget() {
    exercise(
        "[{:each :deck :effects [{:effected :you :draw 9223372036854775807}]}]",
        1,
    );
}
