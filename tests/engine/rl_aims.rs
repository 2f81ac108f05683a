//! The learning agent's action space with cards that aim (issue 31): a card
//! play is a hand slot × target place × option; a card instance, as a
//! card's target or an action's actor or target, is named by its place (a
//! pile counted from the seat acting, and a position in it). Every legal
//! move of the brawl fixture has an index, and an index means the same in
//! every game and to every seat.

use std::path::Path;

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::observe::{ActionSpace, Ranks};
use grimoire::engine::{Ability, Action, Game, Log};
use grimoire::files;
use grimoire::ids::{CardId, EntityId};

fn root(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A rule set given by its path, with the deck beside its `rules/` folder,
/// as `grimoire.env` loads it.
fn fixture(path: &str) -> (RuleSet, Vec<Card>) {
    let library = files::Library::current();
    let path = root(path);
    let mut opened = library.open(path.to_str().unwrap()).expect("rules");
    let deck = opened.deck(library, &[], &[]).expect("deck");
    (opened.rules, deck.cards)
}

fn brawl() -> (RuleSet, Vec<Card>) {
    fixture("tests/data/triggers/rules/brawl.edn")
}

fn card(deck: &[Card], name: &str) -> CardId {
    CardId::new(deck.iter().position(|c| c.name == name).expect(name))
}

/// A brawl game at p1's first turn (or, with `p2_moves`, p2's), the seat to
/// move holding `hand` with 10 mana, the boards given exactly.
fn dealt<'r>(
    rules: &'r RuleSet,
    deck: &'r [Card],
    p2_moves: bool,
    hand: &[&str],
    boards: [&[&str]; 2],
) -> Game<'r> {
    let mut game = Game::new(rules, deck, 1, Log::Skip).expect("game");
    if p2_moves {
        game.act(game.end_turn_action()).expect("p1 ends its turn");
    }
    let me = game.ctx().current;
    let set = rules.zones.as_ref().expect("zones");
    let named = |names: &[&str]| -> Vec<Option<CardId>> {
        names.iter().map(|n| Some(card(deck, n))).collect()
    };
    let board = set.zone("board").expect("board");
    for (owner, names) in boards.iter().enumerate() {
        game.set_zone_cards(board, EntityId::new(owner), &named(names))
            .expect("board");
    }
    let hand_zone = set.zone("hand").expect("hand");
    game.set_zone_cards(hand_zone, me, &named(hand))
        .expect("hand");
    game.set(me, rules.attribute("mana").expect("mana"), 10);
    game.recheck();
    game
}

/// The instances on `owner`'s board, by slot.
fn on_board(game: &Game<'_>, owner: usize) -> Vec<EntityId> {
    let set = game.rules().zones.as_ref().expect("zones");
    let board = set.zone("board").expect("board");
    let table = game.state().cards.as_deref().expect("cards");
    let pile = table.pile(set, board, EntityId::new(owner)).expect("pile");
    table.contents(pile).to_vec()
}

fn legal(game: &mut Game<'_>) -> Vec<Action> {
    let mut out = Vec::new();
    game.legal(&mut out);
    out
}

/// A small generator of its own, so the moves do not hang on the engine's.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// What `describe` must say of `entity` as a place, seen from the seat to
/// move: a seat's name, or where a card instance lies.
fn place_words(game: &Game<'_>, entity: EntityId) -> String {
    let table = game.state().cards.as_deref().expect("cards");
    if table.card(entity).is_none() {
        return game.entity_name(entity);
    }
    let set = game.rules().zones.as_ref().expect("zones");
    let pile = table.pile_of(entity).expect("a pile");
    let zone = &set.zones[table.zone_of(pile)].name;
    let whose = match table.owner_of(set, pile) {
        Some(o) if o == game.ctx().current => "your",
        Some(_) => "the other's",
        None => "the",
    };
    let at = table.position(entity).expect("a position");
    format!("{whose} {zone} slot {at}")
}

/// Brawl games played by uniformly random legal moves: at every decision
/// each legal move has an index of its own, the index names the move back,
/// and what the index means in every game (`describe`) is where the move's
/// card instances lie now. The kinds of moves met, counted.
#[test]
fn every_legal_brawl_move_has_an_index_that_names_it_back_in_every_game() {
    let (rules, deck) = brawl();
    let space = ActionSpace::new(&rules, &deck).expect("a space");
    let mut ranks = Ranks::new(&rules);
    let mut game = Game::new(&rules, &deck, 0, Log::Skip).expect("game");
    let (mut found, mut mask) = (Vec::new(), vec![0u8; space.len()]);
    let mut rng = Lcg(31);
    let (mut aimed_plays, mut attacks, mut strikes, mut options) = (0, 0, 0, 0);
    for seed in 0..60 {
        game.reset(seed);
        ranks.reset();
        ranks.update(&game);
        while game.outcome().is_none() {
            let m = space.mask(&mut game, &ranks, &mut found, &mut mask);
            assert_eq!(m.overflowed, 0, "seed {seed}: {found:?}");
            assert_eq!(m.legal, found.len(), "two legal moves share an index");
            for &action in &found {
                let i = space.index_of(&game, &ranks, action).expect("an index");
                assert_eq!(space.action_at(&game, &ranks, i), Some(action), "{i}");
                let said = space.describe(&rules, i).expect("a meaning");
                let now = space.describe_in(&game, &ranks, i).expect("what it does");
                match action.ability {
                    Ability::Card(slot) => {
                        assert!(
                            said.starts_with(&format!("play hand slot {slot}")),
                            "{said}"
                        );
                        if let Some(t) = action.target {
                            let at = place_words(&game, t);
                            assert!(said.contains(&format!(" at {at}")), "{said} / {at}");
                            assert!(now.contains(&game.entity_name(t)), "{now}");
                            aimed_plays += 1;
                        }
                        if let Some(o) = action.choice {
                            let option = &rules.options[o];
                            let ends = [format!("({option})"), format!("({option} or no option)")];
                            assert!(ends.iter().any(|e| said.ends_with(e)), "{said}");
                            options += 1;
                        }
                    }
                    Ability::Action(id) => {
                        let name = &rules.actions[id].name;
                        let target = action.target.expect("a target");
                        let words = format!(
                            "{}: {name} {}",
                            place_words(&game, action.actor),
                            place_words(&game, target)
                        );
                        assert_eq!(said, words);
                        assert!(now.contains(&game.entity_name(action.actor)), "{now}");
                        if name == "attack" {
                            attacks += 1;
                        } else {
                            strikes += 1;
                        }
                    }
                    _ => {}
                }
            }
            let action = found[rng.below(found.len())];
            game.act(action).expect("a legal move");
            ranks.update(&game);
        }
    }
    assert!(
        aimed_plays > 50 && attacks > 50 && strikes > 50 && options > 10,
        "plays with a target {aimed_plays}, attacks {attacks}, strikes {strikes}, options {options}"
    );
}

#[test]
fn a_targeted_spell_s_two_targets_are_two_indices_and_each_hits_the_one_it_names() {
    let (rules, deck) = brawl();
    let space = ActionSpace::new(&rules, &deck).expect("a space");
    let ranks = Ranks::new(&rules);
    let health = rules.attribute("health").expect("health");
    for aim in 0..2 {
        let mut game = dealt(
            &rules,
            &deck,
            false,
            &["Firebolt"],
            [&[], &["Yeti", "Guard"]],
        );
        let theirs = on_board(&game, 1);
        let plays: Vec<usize> = legal(&mut game)
            .into_iter()
            .filter(|a| matches!(a.ability, Ability::Card(_)))
            .map(|a| space.index_of(&game, &ranks, a).expect("an index"))
            .collect();
        assert_eq!(plays.len(), 2, "{plays:?}");
        assert_ne!(plays[0], plays[1]);
        assert_eq!(
            space.describe(&rules, plays[aim]),
            Some(format!(
                "play hand slot 0 at the other's board slot {aim} (harm or no option)"
            ))
        );
        let name = game.entity_name(theirs[aim]);
        assert_eq!(
            space.describe_in(&game, &ranks, plays[aim]),
            Some(format!(
                "play Firebolt (slot 0) at {name} (the other's board slot {aim})"
            ))
        );
        let before: Vec<i64> = theirs
            .iter()
            .map(|&e| game.state().get(e, health))
            .collect();
        let action = space.action_at(&game, &ranks, plays[aim]).expect("a move");
        game.act(action).expect("legal");
        let after: Vec<i64> = theirs
            .iter()
            .map(|&e| game.state().get(e, health))
            .collect();
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            let hit = if i == aim { 3 } else { 0 };
            assert_eq!(b - a, hit, "minion {i}: {before:?} -> {after:?}");
        }
    }
}

#[test]
fn an_index_names_the_same_place_for_either_seat_and_in_any_game() {
    let (rules, deck) = brawl();
    let space = ActionSpace::new(&rules, &deck).expect("a space");
    let ranks = Ranks::new(&rules);
    let target_of = |game: &mut Game<'_>, enemy: usize, slot: usize| {
        let want = on_board(game, enemy)[slot];
        legal(game)
            .into_iter()
            .find(|a| a.target == Some(want) && matches!(a.ability, Ability::Card(_)))
            .map(|a| space.index_of(game, &ranks, a).expect("an index"))
            .expect("Firebolt at it")
    };
    // p1 aims at p2's second minion; p2 aims at p1's, in another game with
    // other minions: one index.
    let mut p1 = dealt(&rules, &deck, false, &["Firebolt"], [&[], &["Yeti", "Egg"]]);
    let mut p2 = dealt(
        &rules,
        &deck,
        true,
        &["Firebolt"],
        [&["Guard", "Viper", "Knight"], &["Bomb"]],
    );
    let i = target_of(&mut p1, 1, 1);
    assert_eq!(target_of(&mut p2, 0, 1), i);
    let viper = on_board(&p2, 0)[1];
    assert_eq!(
        space.action_at(&p2, &ranks, i).and_then(|a| a.target),
        Some(viper)
    );
    // An attack: the seat's own board slot against the other's.
    let attack = |game: &mut Game<'_>, mine: usize, theirs: usize| {
        let me = game.ctx().current.index();
        let (actor, target) = (on_board(game, me)[mine], on_board(game, 1 - me)[theirs]);
        legal(game)
            .into_iter()
            .find(|a| a.actor == actor && a.target == Some(target))
            .map(|a| space.index_of(game, &ranks, a).expect("an index"))
            .expect("the attack")
    };
    let mut p1 = dealt(
        &rules,
        &deck,
        false,
        &[],
        [&["Yeti", "Scavenger"], &["Egg", "Yeti"]],
    );
    let mut p2 = dealt(
        &rules,
        &deck,
        true,
        &[],
        [&["Bomb", "Viper"], &["Guard", "Yeti"]],
    );
    let tired = rules.attribute("tired").expect("tired");
    for game in [&mut p1, &mut p2] {
        for owner in 0..2 {
            for e in on_board(game, owner) {
                game.set(e, tired, 0);
            }
        }
        game.recheck();
    }
    let i = attack(&mut p1, 1, 0);
    assert_eq!(attack(&mut p2, 1, 0), i);
    assert_eq!(
        space.describe(&rules, i).as_deref(),
        Some("your board slot 1: attack the other's board slot 0")
    );
    let (yeti, bomb) = (on_board(&p2, 1)[1], on_board(&p2, 0)[0]);
    assert_eq!(
        space.describe_in(&p2, &ranks, i),
        Some(format!(
            "{} (your board slot 1): attack {} (the other's board slot 0)",
            p2.entity_name(yeti),
            p2.entity_name(bomb)
        ))
    );
}

#[test]
fn a_card_that_chooses_an_option_has_an_index_per_option() {
    let (rules, deck) = brawl();
    let space = ActionSpace::new(&rules, &deck).expect("a space");
    let ranks = Ranks::new(&rules);
    let mut game = dealt(&rules, &deck, false, &["Rite"], [&[], &[]]);
    let plays: Vec<usize> = legal(&mut game)
        .into_iter()
        .filter(|a| matches!(a.ability, Ability::Card(_)))
        .map(|a| space.index_of(&game, &ranks, a).expect("an index"))
        .collect();
    let said: Vec<String> = plays
        .iter()
        .map(|&i| space.describe(&rules, i).unwrap())
        .collect();
    // Option 0 is also how a card without one is played.
    assert_eq!(
        said,
        [
            "play hand slot 0 (harm or no option)",
            "play hand slot 0 (help)"
        ]
    );
    assert_eq!(plays[1], plays[0] + 1, "the option varies fastest");
}

/// A deck none of whose cards chooses a target or an option keeps the
/// space it had: one index per hand slot, the rest after, as counted here
/// from the rule set (and as python/README.md lists them).
#[test]
fn a_deck_that_aims_at_nothing_keeps_its_space() {
    let bundled = |name: &str| {
        let mut rules = files::load_rules(name).expect("rules");
        let deck = files::load_deck(&mut rules, &[]).expect("deck");
        (rules, deck.cards)
    };
    let cases = [
        (bundled("arcomage"), 14),
        (fixture("tests/data/zones/rules/skirmish.edn"), 21),
        (fixture("tests/data/reactions/rules/duel.edn"), 12),
    ];
    for ((rules, deck), len) in cases {
        assert!(
            deck.iter()
                .all(|c| c.aims.chosen().is_none() && c.aims.choose.is_none()),
            "{}",
            rules.name
        );
        let space = ActionSpace::new(&rules, &deck).expect("a space");
        assert_eq!(
            (space.len(), space.plays_per_slot()),
            (len, 1),
            "{}",
            rules.name
        );
        for i in 0..space.hand_slots() {
            assert_eq!(
                space.describe(&rules, i),
                Some(format!("play hand slot {i}"))
            );
        }
    }
}

#[test]
fn an_ability_s_use_and_a_later_target_are_indices_named_by_place() {
    let (rules, deck) = brawl();
    let space = ActionSpace::new(&rules, &deck).expect("a space");
    let ranks = Ranks::new(&rules);
    // The Sorcerer in p1's board slot 1 pings the other's slot 0.
    let mut game = dealt(
        &rules,
        &deck,
        false,
        &["Challenge"],
        [&["Yeti", "Sorcerer"], &["Egg"]],
    );
    let ping = legal(&mut game)
        .into_iter()
        .find(|a| matches!(a.ability, Ability::Use(0)))
        .expect("the ping is legal");
    let i = space.index_of(&game, &ranks, ping).expect("an index");
    assert_eq!(space.action_at(&game, &ranks, i), Some(ping));
    assert_eq!(
        space.describe(&rules, i),
        Some("your board slot 1: use ability 0 at the other's board slot 0 (option 0)".into())
    );
    let said = space.describe_in(&game, &ranks, i).expect("words");
    assert!(said.contains("(your board slot 1): use ping Egg"), "{said}");
    // Challenge at the Yeti, then its foe: an `aim at` index.
    let play = legal(&mut game)
        .into_iter()
        .find(|a| matches!(a.ability, Ability::Card(0)) && a.target == Some(on_board(&game, 0)[0]))
        .expect("Challenge at the Yeti");
    game.act(play).expect("played");
    let aim = legal(&mut game);
    assert_eq!(aim.len(), 1, "{aim:?}");
    let i = space.index_of(&game, &ranks, aim[0]).expect("an index");
    assert_eq!(space.action_at(&game, &ranks, i), Some(aim[0]));
    assert_eq!(
        space.describe(&rules, i),
        Some("aim at the other's board slot 0".into())
    );
    let mut mask = vec![0u8; space.len()];
    let m = space.mask(&mut game, &ranks, &mut Vec::new(), &mut mask);
    assert_eq!((m.legal, m.overflowed), (1, 0));
    assert_eq!(mask[i], 1);
}
