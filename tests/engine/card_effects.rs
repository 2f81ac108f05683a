//! Effects on cards and queries of zones in games (issue 30): a chosen
//! discard is offered to the seat that makes it, whoever's turn it is, and
//! every policy makes it; what a seat looks at it knows until the cards are
//! shuffled; a card that moves itself stays where it went; a destroyed card
//! in play runs its `:on-removed`; a loop over a pile skips the cards that
//! left it; a slot off the board is refused; and a deck whose cards, or whose
//! rule set, name a card it does not hold is refused when it is loaded.

use std::path::{Path, PathBuf};

use crate::common;

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::invariants::Monitor;
use grimoire::engine::{Ability, Game, Log, Phase};
use grimoire::eval::apply;
use grimoire::files;
use grimoire::ids::{CardId, EntityId};

const SKIRMISH: &str = "tests/data/zones/rules/skirmish.edn";
const SKIRMISH_CARDS: &str = "tests/data/zones/cards/skirmish";

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn skirmish() -> (RuleSet, Vec<Card>) {
    let text = std::fs::read_to_string(root(SKIRMISH)).expect("rule set");
    let mut rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let deck = files::load_deck(&mut rules, &[root(SKIRMISH_CARDS)]).expect("deck");
    (rules, deck.cards)
}

/// `text`'s effects, checked against `rules`.
fn checked(rules: &RuleSet, text: &str) -> Vec<grimoire::check::ast::Effect> {
    let arena = grimoire::syntax::Arena::new();
    let form = grimoire::syntax::read_one(&arena, text).expect("a form");
    rules
        .check_effects(&form)
        .unwrap_or_else(|d| panic!("{d:#?}"))
}

fn card(game: &Game<'_>, name: &str) -> CardId {
    let i = game.cards().iter().position(|c| c.name == name);
    CardId::new(i.unwrap_or_else(|| panic!("no card {name}")))
}

/// Gives `owner`'s pile of `zone` (a shared zone's, for `None`) exactly `names`.
fn give(game: &mut Game<'_>, zone: &str, owner: Option<usize>, names: &[&str]) {
    let set = game.rules().zones.as_ref().expect("zones");
    let z = set.zone(zone).expect("zone");
    let cards: Vec<Option<CardId>> = names.iter().map(|n| Some(card(game, n))).collect();
    let owner = EntityId::new(owner.unwrap_or(0));
    game.set_zone_cards(z, owner, &cards).expect("given");
}

fn names(game: &Game<'_>, zone: &str, owner: usize) -> Vec<String> {
    let set = game.rules().zones.as_ref().expect("zones");
    let cards = game
        .zone_cards(set.zone(zone).expect("zone"), EntityId::new(owner))
        .expect("pile");
    cards
        .iter()
        .flatten()
        .map(|c| game.cards()[c.index()].name.clone())
        .collect()
}

/// The seat at turn 1 after it played Toll: p2 must choose a discard.
fn after_toll<'r>(rules: &'r RuleSet, deck: &'r [Card]) -> Game<'r> {
    let mut game = Game::new(rules, deck, 5, Log::Keep).expect("game");
    give(&mut game, "hand", Some(0), &["Toll", "Coin"]);
    give(&mut game, "hand", Some(1), &["Yeti", "Fireball", "Relic"]);
    let mana = rules.attribute("mana").expect("mana");
    game.set(EntityId::FIRST, mana, 5);
    game.recheck();
    assert_eq!(game.ctx().current, EntityId::FIRST);
    game.act(game.play(0)).expect("Toll is played");
    game
}

#[test]
fn a_chosen_discard_is_the_discarding_seat_s_to_make_then_the_turn_goes_on() {
    let (rules, deck) = skirmish();
    let mut game = after_toll(&rules, &deck);
    let p2 = EntityId::new(1);
    assert_eq!(game.ctx().current, p2, "p2 chooses");
    assert_eq!(game.ctx().phase, Phase::MustDiscard(1));
    assert_eq!(game.chooser(), Some(p2));
    assert_eq!(game.hand().len(), 3, "the hand shown is the chooser's");
    // p1 cannot act meanwhile, nor can p2 play.
    let p1_plays = grimoire::engine::Action {
        actor: EntityId::FIRST,
        ..game.play(0)
    };
    assert!(game.act(p1_plays).is_err());
    assert!(game.act(game.play(0)).is_err());
    game.act(game.discard(1)).expect("p2 discards Fireball");
    assert_eq!(names(&game, "hand", 1), ["Yeti", "Relic"]);
    assert_eq!(names(&game, "discard", 0), ["Toll", "Fireball"]);
    assert_eq!(game.ctx().current, EntityId::FIRST, "back to p1's turn");
    assert_eq!(game.ctx().phase, Phase::Act);
    assert_eq!(game.chooser(), None);
    assert_eq!(game.ctx().turn, 1);
    let log = grimoire::engine::log::render(&rules, &deck, game.log().expect("kept"));
    assert!(
        log.contains("  p2 must discard Fireball\n    Fireball#"),
        "{log}"
    );
}

#[test]
fn every_policy_makes_a_chosen_discard_it_is_offered() {
    let (rules, deck) = skirmish();
    for policy in [Policy::Random, Policy::Greedy, Policy::Search] {
        let mut game = after_toll(&rules, &deck);
        let mut ai = Ai::new();
        let action = ai.choose(&mut game, policy).expect("a discard");
        assert!(
            matches!(action.ability, Ability::Discard(_)) && action.actor == EntityId::new(1),
            "{policy:?}: {action:?}"
        );
        game.act(action).expect("allowed");
        assert_eq!(game.ctx().current, EntityId::FIRST, "{policy:?}");
        assert_eq!(names(&game, "hand", 1).len(), 2, "{policy:?}");
        assert_eq!(Monitor::new().check(&game), Ok(()), "{policy:?}");
    }
}

#[test]
fn what_a_seat_looks_at_it_knows_until_the_cards_move_out_of_its_sight() {
    let (rules, deck) = skirmish();
    let mut game = Game::new(&rules, &deck, 2, Log::Skip).expect("game");
    give(&mut game, "hand", Some(1), &["Yeti", "Coin"]);
    let effects = checked(
        &rules,
        "[{:effected :you :look [:hand :other]} {:move [:hand :other] :to :deck :at :top}]",
    );
    let mut state = game.state().clone();
    let mut events = Vec::new();
    let roles = [EntityId::new(0), EntityId::new(1)];
    apply(&rules, &effects[..1], &mut state, &roles, &mut events);
    let table = state.cards.as_deref().expect("table");
    let set = rules.zones.as_ref().expect("zones");
    let hand = table
        .pile(set, set.zone("hand").unwrap(), EntityId::new(1))
        .unwrap();
    let seen: Vec<EntityId> = table.contents(hand).to_vec();
    for &c in &seen {
        assert_eq!(table.known(c), 0b11, "p1 looked; p2 owns it");
    }
    // Moved face down from p2's hand to the deck's top: p2, who sees its
    // hand, knows what it put there; p1 cannot tell which card left a hand
    // it does not see, so it knows them no more (the issue: known "until it
    // moves to a hidden place").
    apply(&rules, &effects[1..], &mut state, &roles, &mut events);
    let table = state.cards.as_deref().expect("table");
    for &c in &seen {
        assert_eq!(table.known(c), 0b10);
    }
    let shuffle = checked(&rules, "[{:shuffle :deck}]");
    apply(&rules, &shuffle, &mut state, &roles, &mut events);
    let table = state.cards.as_deref().expect("table");
    for &c in &seen {
        assert_eq!(table.known(c), 0, "lost in the shuffle");
    }
}

#[test]
fn a_card_that_moves_itself_stays_where_it_went_and_is_not_discarded() {
    let (rules, deck) = skirmish();
    let text = r#"{:card "Boomerang" :kind :spell :type :mana :cost 0
 :effects [{:effected :you :resource :health :amount 1}
           {:move :this-card :to [:hand :you]}]}"#;
    let (rules, cards) = with_cards(&rules, &deck, text);
    let mut game = Game::new(&rules, &cards, 1, Log::Skip).expect("game");
    give(&mut game, "hand", Some(0), &["Boomerang"]);
    give(&mut game, "discard", None, &[]);
    game.act(game.play(0)).expect("played");
    assert_eq!(names(&game, "hand", 0), ["Boomerang"], "back in the hand");
    assert!(names(&game, "discard", 0).is_empty());
    assert_eq!(Monitor::new().check(&game), Ok(()));
}

/// `rules` with `text`'s cards added to `deck`, checked as a deck.
fn with_cards(rules: &RuleSet, deck: &[Card], text: &str) -> (RuleSet, Vec<Card>) {
    let dir = common::scratch_dir("card-effects-deck");
    std::fs::write(dir.join("more.edn"), text).unwrap();
    let mut rules = rules.clone();
    let more = files::load_deck(&mut rules, &[root(SKIRMISH_CARDS), dir.join("more.edn")])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(more.cards.len() > deck.len());
    (rules, more.cards)
}

/// Minions whose removal is counted; a board of 3; a spell destroying one.
const REMOVALS: &str = r#"{:rules :removals
 :roles {:you "the player" :other "the opponent"}
 :kinds {:player "a seat"
         :minion {:card true :doc "a creature" :removed-when [<= [:self :hp] 0]
                  :on-removed [{:create "Ghost" :to :grave}]}}
 :attributes {:hp {:default 1 :min 0}}
 :seats [:p1 :p2]
 :zones {:deck {:shared true :ordered true :visible :nobody :start :deck}
         :hand {:visible :owner :plays true :discard-to :grave}
         :grave {:shared true :ordered true}
         :board {:slots 3 :in-play true :leaves-to :grave}}
 :turns {:plays :many}}"#;

#[test]
fn a_destroyed_card_in_play_leaves_play_then_goes_where_its_zone_sends_it() {
    let rules = common::rules(REMOVALS);
    let checked = files::check_sources(
        vec![grimoire::diag::Source::new(
            "cards.edn",
            r#"{:card "Imp" :to :board :copies 3 :effects []}
{:card "Ghost" :token true :effects []}
{:card "Smite" :copies 1 :effects [{:destroy {:from [:board :other] :pick :top}}]}"#,
        )],
        Some(&rules),
    );
    assert_eq!(checked.error_count(), 0, "{:?}", checked.diagnostics);
    let cards = Card::from_definitions(&checked.definitions, &checked.sources, "removals");
    let mut game = Game::new(&rules, &cards, 1, Log::Skip).expect("game");
    give(&mut game, "hand", Some(0), &["Smite"]);
    give(&mut game, "board", Some(1), &["Imp", "Imp"]);
    game.act(game.play(0)).expect("played");
    assert_eq!(names(&game, "board", 1), ["Imp"], "the top one fell");
    // Its `:on-removed` made a Ghost before it went to the grave itself.
    assert_eq!(names(&game, "grave", 0), ["Ghost", "Imp", "Smite"]);
    assert_eq!(Monitor::new().check(&game), Ok(()));
}

#[test]
fn a_slot_off_the_board_computed_as_the_game_runs_is_refused() {
    let rules = common::rules(REMOVALS);
    let checked = files::check_sources(
        vec![grimoire::diag::Source::new(
            "cards.edn",
            r#"{:card "Imp" :to :board :copies 3 :effects []}
{:card "Ghost" :token true :effects []}
{:card "Shove" :copies 1 :effects [{:move {:from [:hand :you] :pick :all :where [named :self "Imp"]}
                                          :to [:board :you] :slot [+ 1 [count [:board :you]]]}]}"#,
        )],
        Some(&rules),
    );
    assert_eq!(checked.error_count(), 0, "{:?}", checked.diagnostics);
    let cards = Card::from_definitions(&checked.definitions, &checked.sources, "removals");
    let mut game = Game::new(&rules, &cards, 1, Log::Skip).expect("game");
    give(&mut game, "hand", Some(0), &["Shove", "Imp"]);
    give(&mut game, "board", Some(0), &["Imp", "Imp"]);
    game.act(game.play(0)).expect("played");
    // Slot 3 of a board of 3: refused, the Imp stays in the hand.
    assert_eq!(names(&game, "hand", 0), ["Imp"]);
    assert_eq!(names(&game, "board", 0), ["Imp", "Imp"]);
}

#[test]
fn a_loop_over_a_pile_visits_the_cards_there_when_it_began_and_skips_those_gone() {
    let (rules, deck) = skirmish();
    let mut game = Game::new(&rules, &deck, 4, Log::Skip).expect("game");
    give(
        &mut game,
        "board",
        Some(0),
        &["Yeti", "Raider", "Yeti", "Raider"],
    );
    give(&mut game, "deck", None, &[]);
    // Each visit sends the board's last card to the deck: the first two
    // visits send the last two cards, which the loop then skips.
    let effects = checked(
        &rules,
        "[{:each [:board :you] :effects [{:move {:from [:board :you] :pick :top} :to :deck}
                                         {:effected :you :resource :mana :amount 1}]}]",
    );
    let mut state = game.state().clone();
    let roles = [EntityId::new(0), EntityId::new(1)];
    let mana = rules.attribute("mana").unwrap();
    let before = state.get(EntityId::FIRST, mana);
    apply(&rules, &effects, &mut state, &roles, &mut Vec::new());
    assert_eq!(state.get(EntityId::FIRST, mana), before + 2, "two visits");
    let table = state.cards.as_deref().unwrap();
    let set = rules.zones.as_ref().unwrap();
    let deck_pile = table
        .pile(set, set.zone("deck").unwrap(), EntityId::FIRST)
        .unwrap();
    assert_eq!(table.count(deck_pile), 2);
}

#[test]
fn a_deck_whose_cards_name_a_card_it_does_not_hold_is_refused() {
    let (rules, _) = skirmish();
    let dir = common::scratch_dir("card-effects-misnamed");
    let deck = dir.join("deck.edn");
    std::fs::write(
        &deck,
        r#"{:card "Conjure" :kind :spell :type :mana :cost 3 :effects [{:create "Wisp" :to [:board :you] :count 2}]}"#,
    )
    .unwrap();
    // The rule set's own deck has a Wisp; this one, which a game would deal, has none.
    let err = files::load_deck(&mut rules.clone(), &[deck]).expect_err("no Wisp");
    let files::DeckError::Invalid(checked) = err else {
        panic!("{err}")
    };
    let said: Vec<String> = checked
        .diagnostics
        .iter()
        .map(|(_, d)| format!("{} {}", d.code.as_str(), d.message))
        .collect();
    assert_eq!(said, ["E0407 no card of the deck is named \"Wisp\""]);
}

#[test]
fn a_deck_is_refused_when_its_rule_set_names_a_card_it_does_not_hold() {
    let text = std::fs::read_to_string(root(SKIRMISH)).unwrap().replace(
        ":hooks {:turn-start [",
        ":hooks {:turn-start [{:effected :you :resource :mana :amount [count [:hand :you] [named :self \"Coyn\"]]} ",
    );
    let dir = common::scratch_dir("card-effects-rule-set-misnamed");
    std::fs::write(dir.join("skirmish.edn"), &text).unwrap();
    let path = dir.join("skirmish.edn");
    let mut rules = files::load_rules(&path.to_string_lossy()).expect("loads");
    let err = files::load_deck(&mut rules, &[root(SKIRMISH_CARDS)]).expect_err("no Coyn");
    let files::DeckError::Invalid(checked) = err else {
        panic!("{err}")
    };
    let (i, d) = &checked.diagnostics[0];
    assert_eq!(d.code.as_str(), "E0407");
    assert_eq!(d.help.as_deref(), Some("did you mean `\"Coin\"`?"));
    assert_eq!(
        checked.sources[*i].text, text,
        "said in the rule set's file"
    );
    assert_eq!(
        &text[d.span.start as usize..d.span.end as usize],
        "\"Coyn\""
    );
    // The rule set of a library's text, read from no file, is named.
    let mut rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let err = files::load_deck(&mut rules, &[root(SKIRMISH_CARDS)]).expect_err("no Coyn");
    let files::DeckError::Invalid(checked) = err else {
        panic!("{err}")
    };
    let (i, _) = &checked.diagnostics[0];
    assert_eq!(checked.sources[*i].path, "<rule set skirmish>");
}

#[test]
fn a_chosen_discard_a_turn_end_hook_asks_is_made_as_the_next_turn_begins() {
    let text = REMOVALS.replace(
        " :turns {:plays :many}}",
        r#" :timings {:turn-end {:at :turn-end}}
 :hooks {:turn-end [{:effected :you :discard [- [count [:hand :you]] 2]}]}
 :turns {:plays :many}}"#,
    );
    let rules = common::rules(&text);
    let checked = files::check_sources(
        vec![grimoire::diag::Source::new(
            "cards.edn",
            r#"{:card "Imp" :to :board :copies 6 :effects []}
{:card "Ghost" :token true :effects []}"#,
        )],
        Some(&rules),
    );
    assert_eq!(checked.error_count(), 0, "{:?}", checked.diagnostics);
    let cards = Card::from_definitions(&checked.definitions, &checked.sources, "removals");
    let mut game = Game::new(&rules, &cards, 1, Log::Skip).expect("game");
    give(&mut game, "hand", Some(0), &["Imp", "Imp", "Imp", "Imp"]);
    game.act(game.end_turn_action()).expect("p1 ends its turn");
    let (p1, p2) = (EntityId::new(0), EntityId::new(1));
    assert_eq!((game.ctx().current, game.ctx().turn), (p1, 2));
    assert_eq!(game.ctx().phase, Phase::MustDiscard(2));
    assert_eq!(game.chooser(), Some(p1));
    game.act(game.discard(0)).expect("one");
    game.act(game.discard(0)).expect("two");
    assert_eq!(names(&game, "hand", 0).len(), 2, "down to 2");
    assert_eq!((game.ctx().current, game.ctx().phase), (p2, Phase::Act));
    assert_eq!(game.chooser(), None);
}
