//! Cards' triggered abilities in games (issue 31): the brawl fixture's
//! scenarios (a death counted once each, chains included; a deathrattle
//! into the dead minion's slot; a loop stopped by the budget and logged;
//! cards that act when drawn or discarded) pass, and whole games of it,
//! loops included, keep every invariant and end.

use std::path::{Path, PathBuf};

use crate::common;

const BRAWL: &str = "tests/data/triggers/rules/brawl.edn";
const SCENARIOS: &str = "tests/data/triggers/scenarios";

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_fixture_s_scenarios_pass() {
    let out = grimoire::cli::test(&[root(SCENARIOS)], &[], false);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("7 passed, 0 failed"), "{}", out.stdout);
}

#[test]
fn games_with_endless_triggers_end_and_keep_every_invariant() {
    let rules = root(BRAWL);
    let args = [
        "simulate",
        &rules.to_string_lossy(),
        "--games",
        "300",
        "--check-invariants",
    ];
    let out = common::run_in(&args, "", None);
    let said = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("invariants held: 300 games"), "{said}");
}

#[test]
fn a_played_game_logs_its_triggers_and_stops_a_loop() {
    // Seed 3 deals two Frenzies that meet on p1's board.
    let out = common::grimoire(&["play", &root(BRAWL).to_string_lossy(), "--seed", "3"]);
    assert!(
        out.contains("Scavenger triggers: Whenever a minion dies"),
        "{out}"
    );
    assert!(out.contains("Curse triggers: When drawn"), "{out}");
    assert!(
        out.contains("trigger loop: stopped after 500 runs in one chain"),
        "{out}"
    );
}

/// Loads the brawl fixture from its files.
fn brawl() -> (
    grimoire::check::rules::RuleSet,
    Vec<grimoire::check::defs::Card>,
) {
    let text = std::fs::read_to_string(root(BRAWL)).expect("rule set");
    let mut rules =
        grimoire::check::rules::RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let deck = grimoire::files::load_deck(&mut rules, &[root("tests/data/triggers/cards/brawl")])
        .expect("deck");
    (rules, deck.cards)
}

#[test]
fn a_card_that_acts_from_a_hidden_hand_is_shown_to_every_seat() {
    use grimoire::engine::view::{Seen, ZoneName};
    use grimoire::engine::{Game, Log};
    use grimoire::ids::EntityId;
    let (rules, deck) = brawl();
    // Seed 3 deals p2 a Curse, which acts as it is drawn (see the logged game).
    let game = Game::new(&rules, &deck, 3, Log::Keep).expect("game");
    let set = rules.zones.as_ref().expect("zones");
    let hand = set.zone("hand").expect("hand");
    let curse = deck.iter().position(|c| c.name == "Curse").expect("Curse");
    let (p1, p2) = (EntityId::new(0), EntityId::new(1));
    let theirs = game.view(p1);
    let seen = theirs
        .zones
        .iter()
        .find(|z| z.zone == ZoneName::Zone(hand) && z.owner == Some(p2))
        .expect("p2's hand");
    let named: Vec<usize> = seen
        .cards
        .iter()
        .filter_map(|c| match c {
            Seen::Instance(card, _) => Some(card.index()),
            _ => None,
        })
        .collect();
    assert_eq!(named, [curse], "{seen:?}");
}
