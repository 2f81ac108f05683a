//! `play --human` in a rule set with reactions (`tests/data/reactions/`):
//! when a card of the computer's opens a window the person may answer, they
//! are asked whether to respond to it, and their pass lets it resolve.

use crate::common::{self, text};
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::{Game, Log, Phase};
use grimoire::ids::EntityId;

const DUEL: &str = "tests/data/reactions/rules/duel.edn";

/// What a person at p1 types to end each of their turns and pass in each
/// window, up to the first window they are asked in (p2 playing greedy):
/// the input, and the card that window answers; `None` if none came.
fn until_asked(seed: u64) -> Option<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(DUEL)).unwrap();
    let mut rules = grimoire::check::rules::RuleSet::parse(&text).unwrap();
    let cards_dir = root.join("tests/data/reactions/cards/duel");
    let deck = grimoire::files::load_deck(&mut rules, &[cards_dir])
        .unwrap()
        .cards;
    let mut game = Game::new(&rules, &deck, seed, Log::Skip).unwrap();
    let mut ai = Ai::new();
    let mut typed = String::new();
    for _ in 0..200 {
        if game.outcome().is_some() {
            return None;
        }
        let action = if game.ctx().current == EntityId::FIRST {
            if game.ctx().phase == Phase::React {
                let (card, _) = game.answering()?;
                typed.push_str("p\n");
                return Some((typed, deck[card.index()].name.clone()));
            }
            typed.push_str("a1\n");
            game.end_turn_action()
        } else {
            ai.choose(&mut game, Policy::Greedy)?
        };
        game.act(action).ok()?;
    }
    None
}

#[test]
fn a_person_is_asked_to_respond_to_a_card_and_may_pass() {
    let (seed, (typed, card)) = (1..40)
        .find_map(|s| until_asked(s).map(|found| (s, found)))
        .expect("a seed where p1 is asked");
    let out = common::run_in(
        &["play", DUEL, "--human", "--seed", &seed.to_string()],
        &format!("{typed}q\n"),
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let asked = format!("p1 may respond to p2's {card}: ");
    let at = shown.find(&asked).unwrap_or_else(|| panic!("{shown}"));
    assert!(
        shown[at..].contains("play a reaction with N, or pass with p, quit with q > "),
        "{shown}"
    );
    assert!(
        shown[at..].contains(&format!("p1 lets {card} resolve")),
        "{shown}"
    );
}

#[test]
fn explain_says_what_a_reaction_answers_and_does() {
    let said = |card: &str| {
        let out = common::run_in(&["explain", "--rules", DUEL, "--card", card], "", None);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout).trim().to_string()
    };
    assert_eq!(
        said("Counterspell"),
        "Reaction: when another seat plays a spell, cancel that spell"
    );
    assert_eq!(
        said("Ward"),
        "Reaction: when another seat plays a spell, +3 Health"
    );
}
