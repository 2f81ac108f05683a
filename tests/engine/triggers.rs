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
    assert!(out.stdout.contains("34 passed, 0 failed"), "{}", out.stdout);
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
fn played_games_log_their_triggers_and_stop_loops() {
    // Seeds are tried until a game has shown each: the deck decides which.
    let wanted = [
        "Scavenger triggers: Whenever a minion dies",
        "Curse triggers: When drawn",
        // By either budget (the scenario of Frenzies pins the run budget's line).
        "trigger loop: stopped after ",
    ];
    let mut seen = [false; 3];
    for seed in 1..=60 {
        let out = common::grimoire(&[
            "play",
            &root(BRAWL).to_string_lossy(),
            "--seed",
            &seed.to_string(),
        ]);
        for (i, w) in wanted.iter().enumerate() {
            seen[i] |= out.contains(w);
        }
        if seen.iter().all(|&s| s) {
            return;
        }
    }
    panic!(
        "no game of 60 logged {:?}",
        wanted
            .iter()
            .zip(seen)
            .filter(|(_, s)| !s)
            .collect::<Vec<_>>()
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
    let dirs = [
        root("tests/data/triggers/cards/brawl"),
        root("tests/data/triggers/effects/brawl"),
    ];
    let deck = grimoire::files::load_deck(&mut rules, &dirs)
        .unwrap_or_else(|_| panic!("the brawl deck loads"));
    (rules, deck.cards)
}

#[test]
fn a_card_that_acts_from_a_hidden_hand_is_shown_to_every_seat() {
    use grimoire::engine::view::{Seen, ZoneName};
    use grimoire::ids::EntityId;
    let (rules, deck) = brawl();
    // p1 ends its turn with a Curse on top of the deck: p2 draws it.
    let mut game = boards(&rules, &deck, &[], &[]);
    let deck_zone = rules
        .zones
        .as_ref()
        .and_then(|z| z.zone("deck"))
        .expect("deck");
    let names = ["Yeti", "Curse"];
    let cards: Vec<Option<grimoire::ids::CardId>> = names
        .iter()
        .map(|n| {
            Some(grimoire::ids::CardId::new(
                deck.iter().position(|c| c.name == *n).expect("card"),
            ))
        })
        .collect();
    game.set_zone_cards(deck_zone, EntityId::new(0), &cards)
        .expect("deck given");
    game.recheck();
    let mut legal = Vec::new();
    game.legal(&mut legal);
    let end = legal
        .into_iter()
        .find(|a| a.ability == grimoire::engine::Ability::EndTurn);
    game.act(end.expect("p1 may end its turn"))
        .expect("turn ends");
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

/// A brawl game at its first turn (p1's), the boards given exactly, each
/// minion on them ready to attack.
fn boards<'r>(
    rules: &'r grimoire::check::rules::RuleSet,
    deck: &'r [grimoire::check::defs::Card],
    mine: &[&str],
    theirs: &[&str],
) -> grimoire::engine::Game<'r> {
    use grimoire::engine::{Game, Log};
    use grimoire::ids::{CardId, EntityId};
    let mut game = Game::new(rules, deck, 1, Log::Keep).expect("game");
    let set = rules.zones.as_ref().expect("zones");
    let board = set.zone("board").expect("board");
    for (owner, names) in [(0, mine), (1, theirs)] {
        let cards: Vec<Option<CardId>> = names
            .iter()
            .map(|n| {
                Some(CardId::new(
                    deck.iter().position(|c| c.name == *n).expect("card"),
                ))
            })
            .collect();
        game.set_zone_cards(board, EntityId::new(owner), &cards)
            .expect("given");
    }
    let tired = rules.attribute("tired").expect("tired");
    for e in on_board(&game, 0).into_iter().chain(on_board(&game, 1)) {
        game.set(e, tired, 0);
    }
    game.recheck();
    game
}

/// The instances on `owner`'s board, by slot.
fn on_board(game: &grimoire::engine::Game<'_>, owner: usize) -> Vec<grimoire::ids::EntityId> {
    let rules = game.rules();
    let set = rules.zones.as_ref().expect("zones");
    let board = set.zone("board").expect("board");
    let table = game.state().cards.as_deref().expect("cards");
    let pile = table
        .pile(set, board, grimoire::ids::EntityId::new(owner))
        .expect("pile");
    table.contents(pile).to_vec()
}

#[test]
fn a_taunt_minion_must_be_attacked_first() {
    use grimoire::engine::Ability;
    let (rules, deck) = brawl();
    let mut game = boards(&rules, &deck, &["Scavenger"], &["Yeti", "Guard"]);
    let (scavenger, yeti, guard) = (
        on_board(&game, 0)[0],
        on_board(&game, 1)[0],
        on_board(&game, 1)[1],
    );
    let mut legal = Vec::new();
    game.legal(&mut legal);
    let aimed: Vec<_> = legal
        .iter()
        .filter(|a| matches!(a.ability, Ability::Action(_)))
        .map(|a| (a.actor, a.target))
        .collect();
    assert_eq!(
        aimed,
        [(scavenger, Some(guard))],
        "only the Guard may be attacked"
    );
    let attack = rules
        .actions
        .iter()
        .position(|a| a.name == "attack")
        .expect("attack");
    let at_yeti = grimoire::engine::Action {
        ability: Ability::Action(grimoire::ids::ActionId::new(attack)),
        actor: scavenger,
        target: Some(yeti),
        choice: None,
    };
    let refused = game.act(at_yeti).expect_err("the Yeti is behind a Taunt");
    assert!(
        refused
            .to_string()
            .contains("a Taunt minion must be attacked first"),
        "{refused}"
    );
    // Once the Guard is gone, the Yeti may be attacked.
    let mut game = boards(&rules, &deck, &["Scavenger"], &["Yeti"]);
    let mut legal = Vec::new();
    game.legal(&mut legal);
    assert!(
        legal
            .iter()
            .any(|a| a.target == Some(on_board(&game, 1)[0]))
    );
}

#[test]
fn a_shield_takes_the_first_blow_and_is_lost() {
    use grimoire::engine::Ability;
    let (rules, deck) = brawl();
    let mut game = boards(&rules, &deck, &["Scavenger", "Scavenger"], &["Knight"]);
    let knight = on_board(&game, 1)[0];
    let (health, shield) = (
        rules.attribute("health").expect("health"),
        rules.status("shield").expect("shield"),
    );
    let attack = grimoire::ids::ActionId::new(
        rules
            .actions
            .iter()
            .position(|a| a.name == "attack")
            .expect("attack"),
    );
    let strike = |actor| grimoire::engine::Action {
        ability: Ability::Action(attack),
        actor,
        target: Some(knight),
        choice: None,
    };
    assert!(
        game.state().statuses_of(knight).any(|i| i.status == shield),
        "a Knight enters play shielded"
    );
    game.act(strike(on_board(&game, 0)[0]))
        .expect("first attack");
    assert_eq!(
        game.state().get(knight, health),
        2,
        "the shield took the blow"
    );
    assert!(
        !game.state().statuses_of(knight).any(|i| i.status == shield),
        "and is lost"
    );
    game.act(strike(on_board(&game, 0)[1]))
        .expect("second attack");
    assert!(
        !on_board(&game, 1).contains(&knight),
        "the second blow kills it"
    );
}

#[test]
fn a_charger_attacks_the_turn_it_enters_and_a_yeti_does_not() {
    use grimoire::engine::Ability;
    let (rules, deck) = brawl();
    let mut game = boards(&rules, &deck, &["Charger", "Yeti"], &[]);
    let (charger, yeti) = (on_board(&game, 0)[0], on_board(&game, 0)[1]);
    // As played this turn: not yet readied by a turn's start.
    let tired = rules.attribute("tired").expect("tired");
    game.set(charger, tired, 1);
    game.set(yeti, tired, 1);
    game.recheck();
    let mut legal = Vec::new();
    game.legal(&mut legal);
    let actors: Vec<_> = legal
        .iter()
        .filter(|a| matches!(a.ability, Ability::Action(_)))
        .map(|a| a.actor)
        .collect();
    assert_eq!(actors, [charger], "only the Charger may strike the hero");
}

#[test]
fn a_keyword_s_trigger_is_every_holder_s_a_poisonous_strike_destroys() {
    use grimoire::engine::Ability;
    let (rules, deck) = brawl();
    let mut game = boards(&rules, &deck, &["Viper"], &["Yeti"]);
    let (viper, yeti) = (on_board(&game, 0)[0], on_board(&game, 1)[0]);
    let attack = grimoire::ids::ActionId::new(
        rules
            .actions
            .iter()
            .position(|a| a.name == "attack")
            .expect("attack"),
    );
    game.act(grimoire::engine::Action {
        ability: Ability::Action(attack),
        actor: viper,
        target: Some(yeti),
        choice: None,
    })
    .expect("the Viper attacks");
    // 1 damage from a 1/2 would leave the 4/5 Yeti standing: the poison destroys it.
    let log = grimoire::engine::log::render(&rules, &deck, game.log().expect("log"));
    assert!(
        on_board(&game, 1).is_empty(),
        "the Yeti is destroyed: {log}"
    );
    assert!(on_board(&game, 0).is_empty(), "the Viper took 4 and fell");
    let log = grimoire::engine::log::render(&rules, &deck, game.log().expect("log"));
    assert!(
        log.contains("Viper (poison) triggers: Whenever this damages a minion, destroy it"),
        "{log}"
    );
}

#[test]
fn explain_says_a_card_s_triggers_auras_and_keywords_as_card_text_does() {
    let said = |card: &str| {
        let out = common::grimoire(&[
            "explain",
            "--rules",
            &root(BRAWL).to_string_lossy(),
            "--card",
            card,
        ]);
        out.trim().to_string()
    };
    assert_eq!(
        said("Scavenger"),
        "Whenever a minion dies, +1 Attack for this card"
    );
    assert_eq!(said("Curse"), "When you draw this, -2 Health");
    assert_eq!(
        said("Ember"),
        "2 Damage to the enemy. When you discard this, 3 Damage to the enemy"
    );
    assert_eq!(said("Banner"), "Cards beside this card have rallied");
    assert_eq!(said("Guard"), "Taunt");
    // Targets said where the effects name them, as card text does.
    assert_eq!(
        said("Firebolt"),
        "3 Damage to a chosen card on the enemy's board"
    );
    assert_eq!(
        said("Zap"),
        "1 Damage to a random card on the enemy's board"
    );
    assert_eq!(said("Pry"), "Destroy a chosen card in the enemy's hand");
    // A target named twice is introduced first.
    assert_eq!(
        said("Brawl"),
        "Choose a champion (cards on your board), a random foe (cards on the enemy's board): \
         at once: Damage of the champion's attack to the foe and Damage of the foe's attack to the champion"
    );
    // An activated ability: its name, cost and limit, then what it does.
    assert_eq!(
        said("Sorcerer"),
        "Ping (1 mana, once a turn): 1 Damage to a chosen card on the enemy's board"
    );
    assert_eq!(
        said("Shrine"),
        "Pray (2 mana, choose harm or help, unusable when your hero is not hurt): \
         2 Damage to the enemy unless 0 is the chosen option's hurt; \
         +2 Health unless 0 is the chosen option's mend"
    );
}

#[test]
fn a_targeted_card_is_one_legal_play_per_target_and_none_without_one() {
    use grimoire::engine::Ability;
    let (rules, deck) = brawl();
    let count_plays = |theirs: &[&str]| {
        let mut game = boards(&rules, &deck, &[], theirs);
        let set = rules.zones.as_ref().expect("zones");
        let firebolt = deck
            .iter()
            .position(|c| c.name == "Firebolt")
            .expect("Firebolt");
        let hand = set.zone("hand").expect("hand");
        let cards = [Some(grimoire::ids::CardId::new(firebolt))];
        game.set_zone_cards(hand, grimoire::ids::EntityId::new(0), &cards)
            .expect("hand");
        let mana = rules.attribute("mana").expect("mana");
        game.set(grimoire::ids::EntityId::new(0), mana, 5);
        game.recheck();
        let mut legal = Vec::new();
        game.legal(&mut legal);
        let plays: Vec<_> = legal
            .into_iter()
            .filter(|a| matches!(a.ability, Ability::Card(_)))
            .map(|a| a.target)
            .collect();
        (plays, on_board(&game, 1))
    };
    let (plays, theirs) = count_plays(&["Yeti", "Egg"]);
    assert_eq!(
        plays,
        [Some(theirs[0]), Some(theirs[1])],
        "one play per enemy minion"
    );
    let (plays, _) = count_plays(&[]);
    assert!(plays.is_empty(), "no enemy minion: Firebolt is not legal");
}

/// The brawl deck with Firebolt's target `:optional`, from a scratch copy.
fn brawl_with_optional_firebolt() -> (
    grimoire::check::rules::RuleSet,
    Vec<grimoire::check::defs::Card>,
) {
    brawl_edited(
        "optional-firebolt",
        ":targets {:victim {:from [:board :other]}}\n :effects [{:effected :victim :resource :damage :amount 3}]",
        ":targets {:victim {:from [:board :other] :optional true}}\n :effects [{:effected :victim :resource :damage :amount 3}]",
    )
}

/// The brawl deck with the cards' text `from` replaced by `to`, from a
/// scratch copy named by `tag`.
fn brawl_edited(
    tag: &str,
    from: &str,
    to: &str,
) -> (
    grimoire::check::rules::RuleSet,
    Vec<grimoire::check::defs::Card>,
) {
    let dir = common::scratch_dir(tag);
    std::fs::create_dir_all(&dir).expect("scratch");
    let cards =
        std::fs::read_to_string(root("tests/data/triggers/cards/brawl/cards.edn")).expect("cards");
    let edited = cards.replace(from, to);
    assert_ne!(cards, edited, "{from} found");
    std::fs::write(dir.join("cards.edn"), edited).expect("written");
    let text = std::fs::read_to_string(root(BRAWL)).expect("rule set");
    let mut rules =
        grimoire::check::rules::RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let dirs = [dir, root("tests/data/triggers/effects/brawl")];
    let deck = grimoire::files::load_deck(&mut rules, &dirs)
        .unwrap_or_else(|_| panic!("the edited brawl deck loads"));
    (rules, deck.cards)
}

#[test]
fn an_optional_target_with_no_candidate_is_one_play_on_nothing_that_does_nothing() {
    use grimoire::engine::{Ability, GameEvent};
    use grimoire::ids::EntityId;
    let (rules, deck) = brawl_with_optional_firebolt();
    let set = rules.zones.as_ref().expect("zones");
    let firebolt = deck
        .iter()
        .position(|c| c.name == "Firebolt")
        .expect("Firebolt");
    let mana = rules.attribute("mana").expect("mana");
    let start = |theirs: &[&str]| {
        let mut game = boards(&rules, &deck, &[], theirs);
        let cards = [Some(grimoire::ids::CardId::new(firebolt))];
        game.set_zone_cards(set.zone("hand").expect("hand"), EntityId::new(0), &cards)
            .expect("hand");
        game.set(EntityId::new(0), mana, 5);
        game.recheck();
        game
    };
    let plays = |game: &mut grimoire::engine::Game<'_>| {
        let mut legal = Vec::new();
        game.legal(&mut legal);
        legal
            .into_iter()
            .filter(|a| matches!(a.ability, Ability::Card(_)))
            .collect::<Vec<_>>()
    };
    // With candidates, the target is chosen as ever: no play on nothing.
    let mut game = start(&["Yeti", "Egg"]);
    let theirs = on_board(&game, 1);
    let targets: Vec<_> = plays(&mut game).iter().map(|a| a.target).collect();
    assert_eq!(targets, [Some(theirs[0]), Some(theirs[1])]);
    // With none, one play on nothing: paid for, discarded, and nothing else.
    let mut game = start(&[]);
    let found = plays(&mut game);
    assert_eq!(found.iter().map(|a| a.target).collect::<Vec<_>>(), [None]);
    let before = game.log().map_or(0, <[GameEvent]>::len);
    game.act(found[0]).expect("played on nothing");
    assert_eq!(game.state().get(EntityId::new(0), mana), 3, "paid for");
    let log = &game.log().expect("kept")[before..];
    assert!(
        log.iter().any(|e| matches!(e, GameEvent::Fizzled { .. })),
        "{log:?}"
    );
    assert!(
        !log.iter().any(|e| matches!(e, GameEvent::Aimed { .. })),
        "{log:?}"
    );
}

/// A card of two chosen targets whose first is `:optional`, played on
/// nothing (no minion of its player's), does nothing: its second target is
/// not asked, and the turn goes on.
#[test]
fn a_card_played_on_nothing_asks_for_none_of_its_later_targets() {
    use grimoire::engine::{Ability, GameEvent, Phase};
    use grimoire::ids::EntityId;
    let (rules, deck) = brawl_edited(
        "optional-challenge",
        ":targets {:champion {:from [:board :you]}",
        ":targets {:champion {:from [:board :you] :optional true}",
    );
    let set = rules.zones.as_ref().expect("zones");
    let challenge = deck
        .iter()
        .position(|c| c.name == "Challenge")
        .expect("Challenge");
    let mut game = boards(&rules, &deck, &[], &["Yeti"]);
    let cards = [Some(grimoire::ids::CardId::new(challenge))];
    game.set_zone_cards(set.zone("hand").expect("hand"), EntityId::new(0), &cards)
        .expect("hand");
    game.set(EntityId::new(0), rules.attribute("mana").expect("mana"), 5);
    game.recheck();
    let mut legal = Vec::new();
    game.legal(&mut legal);
    let play = legal
        .into_iter()
        .find(|a| matches!(a.ability, Ability::Card(_)))
        .expect("Challenge is playable on nothing");
    assert_eq!(play.target, None);
    let before = game.log().map_or(0, <[GameEvent]>::len);
    game.act(play).expect("played on nothing");
    assert_eq!(game.ctx().phase, Phase::Act, "no later target is asked");
    let log = &game.log().expect("kept")[before..];
    assert!(
        log.iter().any(|e| matches!(e, GameEvent::Fizzled { .. })),
        "{log:?}"
    );
}

#[test]
fn a_card_played_with_the_wrong_option_is_refused_for_that_reason_not_its_cost() {
    use grimoire::engine::{Ability, Action, Illegal};
    use grimoire::ids::{CardId, EntityId, OptionId};
    let (rules, deck) = brawl();
    let set = rules.zones.as_ref().expect("zones");
    let id = |n: &str| Some(CardId::new(deck.iter().position(|c| c.name == n).expect(n)));
    let mut game = boards(&rules, &deck, &[], &["Yeti"]);
    game.set_zone_cards(
        set.zone("hand").expect("hand"),
        EntityId::new(0),
        &[id("Rite"), id("Firebolt")],
    )
    .expect("hand");
    game.set(EntityId::new(0), rules.attribute("mana").expect("mana"), 5);
    game.recheck();
    let yeti = on_board(&game, 1)[0];
    let refusal = |game: &mut grimoire::engine::Game<'_>, i: u16, target, choice| {
        let action = Action {
            actor: EntityId::new(0),
            ability: Ability::Card(i),
            target,
            choice,
        };
        match game.check(action) {
            Err(Illegal::NotAllowed(why)) => why,
            other => panic!("{other:?}"),
        }
    };
    let harm = OptionId::new(0);
    assert_eq!(
        refusal(&mut game, 0, None, None),
        "Rite needs one `:mode` option: `:harm` or `:help`; none was chosen"
    );
    assert_eq!(
        refusal(&mut game, 0, None, Some(OptionId::new(7))),
        "Rite needs one `:mode` option: `:harm` or `:help`; option 7 is not one"
    );
    assert_eq!(
        refusal(&mut game, 1, Some(yeti), Some(harm)),
        "Firebolt has no `:choose`: it takes no option"
    );
    game.check(Action {
        actor: EntityId::new(0),
        ability: Ability::Card(1),
        target: Some(yeti),
        choice: None,
    })
    .expect("Firebolt at the Yeti with no option is legal");
}

#[test]
fn play_human_asks_which_option_of_a_card_that_chooses_one() {
    let dir = common::scratch_dir("rites");
    std::fs::create_dir_all(dir.join("rules")).expect("rules");
    std::fs::create_dir_all(dir.join("cards/rites")).expect("cards");
    std::fs::write(
        dir.join("rules/rites.edn"),
        r#"{:rules :rites
 :roles {:you "the player whose turn it is" :other "the opponent"}
 :kinds {:hero "a seat's hero" :spell {:card true :doc "a spell"}}
 :attributes {:health {:default 30 :min 0}}
 :seats [:p1 :p2]
 :choices {:mode {:doc "a rite's two ways" :options {:harm {:hurt 3 :mend 0} :help {:hurt 0 :mend 3}}}}
 :zones {:deck {:shared true :ordered true :visible :nobody :start :deck}
         :hand {:visible :owner :draws-from :deck :plays true :deal 2 :discard-to :discard}
         :discard {:shared true :ordered true}}
 :victory [{:when [= [:other :health] 0] :winner :you :reason "won"}]}"#,
    )
    .expect("rules file");
    std::fs::write(
        dir.join("cards/rites/rites.edn"),
        r#"{:card "Rite" :kind :spell :copies 10
 :text "Choose one: harm the enemy hero, or help your own"
 :choose :mode
 :effects [{:effected :other :resource :health :amount [- [choice :hurt]]}
           {:effected :you :resource :health :amount [choice :mend]}]}"#,
    )
    .expect("cards file");
    // Card 1, then the second play listed: harm.
    let out = common::run_in(
        &["play", "rules/rites.edn", "--human", "--seed", "1"],
        "1\n2\nq\n",
        Some(&dir),
    );
    let said = common::text(&out.stdout);
    assert!(
        said.contains("  1. Rite (harm)\n  2. Rite (help)"),
        "{said}"
    );
    assert!(said.contains("p1 plays Rite"), "{said}");
    assert!(
        said.contains("p1.health 30 -> 33"),
        "the help chosen: {said}"
    );
}

#[test]
fn the_random_player_picks_a_card_first_then_its_target() {
    use grimoire::engine::ai::{Ai, Policy};
    use grimoire::engine::{Ability, Game, Log};
    use grimoire::ids::{CardId, EntityId};
    let (rules, deck) = brawl();
    let set = rules.zones.as_ref().expect("zones");
    let (hand, board) = (
        set.zone("hand").expect("hand"),
        set.zone("board").expect("board"),
    );
    let id = |n: &str| {
        Some(CardId::new(
            deck.iter().position(|c| c.name == n).expect("card"),
        ))
    };
    let mana = rules.attribute("mana").expect("mana");
    let (mut firebolts, mut fireballs) = (0u32, 0u32);
    for seed in 0..400 {
        let mut game = Game::new(&rules, &deck, seed, Log::Skip).expect("game");
        game.set_zone_cards(hand, EntityId::new(0), &[id("Firebolt"), id("Fireball")])
            .expect("hand");
        let theirs = [id("Yeti"), id("Yeti"), id("Egg"), id("Egg")];
        game.set_zone_cards(board, EntityId::new(1), &theirs)
            .expect("board");
        game.set(EntityId::new(0), mana, 10);
        game.recheck();
        let action = Ai::new().choose(&mut game, Policy::Random).expect("a play");
        match action.ability {
            Ability::Card(0) => firebolts += 1,
            Ability::Card(1) => fireballs += 1,
            _ => {}
        }
    }
    // Four targets for Firebolt, none for Fireball: each card is one move
    // (picking among plays would give Firebolt four times Fireball's share).
    assert!(
        firebolts.abs_diff(fireballs) < 50,
        "Firebolt {firebolts}, Fireball {fireballs} of 400"
    );
}

/// A brawl game at p1's first turn with a Sorcerer on its board, 1 mana,
/// an empty hand, and the boards given.
fn sorcerer_game<'r>(
    rules: &'r grimoire::check::rules::RuleSet,
    deck: &'r [grimoire::check::defs::Card],
    theirs: &[&str],
) -> grimoire::engine::Game<'r> {
    use grimoire::ids::EntityId;
    let mut game = boards(rules, deck, &["Sorcerer"], theirs);
    let hand = rules
        .zones
        .as_ref()
        .and_then(|z| z.zone("hand"))
        .expect("hand");
    game.set_zone_cards(hand, EntityId::new(0), &[])
        .expect("hand");
    game.set(EntityId::new(0), rules.attribute("mana").expect("mana"), 1);
    game.recheck();
    game
}

#[test]
fn an_ability_s_optional_target_with_no_candidate_is_one_use_on_nothing_that_does_nothing() {
    use grimoire::engine::observe::{ActionSpace, Ranks};
    use grimoire::engine::{Ability, GameEvent, Illegal};
    use grimoire::ids::EntityId;
    // The Sorcerer's ping made optional, and choosing how hard it hits.
    let (rules, deck) = brawl_edited(
        "optional-ping",
        ":targets {:victim {:from [:board :other]}}\n                    :effects [{:effected :victim :resource :damage :amount 1}]",
        ":targets {:victim {:from [:board :other] :optional true}}\n                    :choose :mode\n                    :effects [{:effected :victim :resource :damage :amount [if [= 0 [choice :hurt]] 1 2]}]",
    );
    let mana = rules.attribute("mana").expect("mana");
    let uses = |game: &mut grimoire::engine::Game<'_>| {
        let mut legal = Vec::new();
        game.legal(&mut legal);
        legal
            .into_iter()
            .filter(|a| matches!(a.ability, Ability::Use(0)))
            .collect::<Vec<_>>()
    };
    // With a candidate, the target is chosen as ever, with each option.
    let mut game = sorcerer_game(&rules, &deck, &["Yeti"]);
    let yeti = on_board(&game, 1)[0];
    let found = uses(&mut game);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found
            .iter()
            .all(|a| a.target == Some(yeti) && a.choice.is_some())
    );
    let on_nothing = grimoire::engine::Action {
        target: None,
        choice: None,
        ..found[0]
    };
    assert_eq!(
        game.check(on_nothing),
        Err(Illegal::NotAllowed(
            "Sorcerer's `:ping` needs a target: choose its `:victim`".into()
        ))
    );
    // With none, one use on nothing and with no option: paid for, and nothing else.
    let mut game = sorcerer_game(&rules, &deck, &[]);
    let found = uses(&mut game);
    assert_eq!(found, [on_nothing]);
    assert_eq!(
        game.check(grimoire::engine::Action {
            choice: Some(grimoire::ids::OptionId::new(0)),
            ..on_nothing
        }),
        Err(Illegal::NotAllowed(
            "Sorcerer's `:ping` is used on nothing: it names no option".into()
        ))
    );
    // Its learning agent's index names it back.
    let (space, ranks) = (
        ActionSpace::new(&rules, &deck).expect("space"),
        Ranks::new(&rules),
    );
    let i = space.index_of(&game, &ranks, on_nothing).expect("an index");
    assert_eq!(space.action_at(&game, &ranks, i), Some(on_nothing));
    let before = game.log().map_or(0, <[GameEvent]>::len);
    game.act(on_nothing).expect("used on nothing");
    assert_eq!(game.state().get(EntityId::new(0), mana), 0, "paid for");
    let log = &game.log().expect("kept")[before..];
    assert!(
        log.iter().any(|e| matches!(e, GameEvent::Fizzled { .. })),
        "{log:?}"
    );
    assert!(uses(&mut game).is_empty(), "used once a turn");
}

#[test]
fn a_card_s_ability_is_one_legal_use_per_target_and_none_once_used_this_turn() {
    use grimoire::engine::Ability;
    let (rules, deck) = brawl();
    let mut game = sorcerer_game(&rules, &deck, &["Yeti", "Egg"]);
    let uses = |game: &mut grimoire::engine::Game<'_>| {
        let mut legal = Vec::new();
        game.legal(&mut legal);
        legal
            .into_iter()
            .filter(|a| matches!(a.ability, Ability::Use(0)))
            .collect::<Vec<_>>()
    };
    let theirs = on_board(&game, 1);
    let sorcerer = on_board(&game, 0)[0];
    let found = uses(&mut game);
    assert_eq!(
        found
            .iter()
            .map(|a| (a.actor, a.target))
            .collect::<Vec<_>>(),
        [(sorcerer, Some(theirs[0])), (sorcerer, Some(theirs[1]))],
        "one use per enemy minion, by the Sorcerer"
    );
    game.act(found[1]).expect("the ping");
    let health = rules.attribute("health").expect("health");
    assert_eq!(game.state().get(theirs[1], health), 1, "the Egg was pinged");
    assert!(uses(&mut game).is_empty(), "once a turn");
}

#[test]
fn every_player_uses_a_card_s_ability_when_it_is_the_best_move() {
    use grimoire::engine::ai::{Ai, Policy};
    use grimoire::engine::{Ability, Action};
    let (rules, deck) = brawl();
    let health = rules.attribute("health").expect("health");
    // A Yeti at 1 health: the ping kills it at no loss, which an attack
    // (the Sorcerer would fall) and ending the turn do not.
    let position = || {
        let mut game = sorcerer_game(&rules, &deck, &["Yeti"]);
        let yeti = on_board(&game, 1)[0];
        game.set(yeti, health, 1);
        game.recheck();
        game
    };
    let is_ping = |a: &Action| matches!(a.ability, Ability::Use(0));
    for policy in [Policy::Greedy, Policy::Search] {
        let mut game = position();
        let chosen = Ai::new().choose(&mut game, policy).expect("a move");
        assert!(is_ping(&chosen), "{policy:?} chose {chosen:?}");
    }
    // The random player draws among its moves: the ping is one of them.
    let mut game = position();
    let pinged = (0..200).any(|_| {
        let a = Ai::new().choose(&mut game, Policy::Random).expect("a move");
        is_ping(&a)
    });
    assert!(pinged, "the random player never pinged in 200 draws");
}

#[test]
fn play_human_lists_a_card_s_ability_among_its_actions_and_uses_it() {
    let dir = common::scratch_dir("totems");
    std::fs::create_dir_all(dir.join("rules")).expect("rules");
    std::fs::create_dir_all(dir.join("cards/totems")).expect("cards");
    std::fs::write(
        dir.join("rules/totems.edn"),
        r#"{:rules :totems
 :roles {:you "the player whose turn it is" :other "the opponent"}
 :kinds {:hero "a seat's hero" :totem {:card true :doc "stays in play"}}
 :attributes {:health {:default 30 :min 0}}
 :seats [:p1 :p2]
 :zones {:deck {:shared true :ordered true :visible :nobody :start :deck}
         :hand {:visible :owner :draws-from :deck :plays true :deal 2}
         :board {:visible :all :in-play true}}
 :turns {:plays :many}
 :victory [{:when [= [:other :health] 0] :winner :you :reason "won"}]}"#,
    )
    .expect("rules file");
    std::fs::write(
        dir.join("cards/totems/totems.edn"),
        r#"{:card "Totem" :kind :totem :copies 10 :to :board
 :text "Bolt, once a turn: -2 Health to the enemy"
 :abilities {:bolt {:text "-2 Health to the enemy" :once-per-turn true
                    :effects [{:effected :other :resource :health :amount -2}]}}
 :effects []}"#,
    )
    .expect("cards file");
    // The first Totem played, then the second action listed: its bolt.
    let out = common::run_in(
        &["play", "rules/totems.edn", "--human", "--seed", "1"],
        "1\na2\nq\n",
        Some(&dir),
    );
    let said = common::text(&out.stdout);
    assert!(
        said.contains("  a1. p1: end the turn\n  a2. Totem"),
        "{said}"
    );
    assert!(said.contains(": bolt\n"), "{said}");
    assert!(said.contains("p1 uses Totem's bolt"), "{said}");
    assert!(said.contains("p2.health 30 -> 28"), "{said}");
}

#[test]
fn greedy_sees_what_a_move_sets_off_a_deathrattle_and_a_burst() {
    use grimoire::engine::ai::{Ai, Policy};
    use grimoire::ids::{CardId, EntityId};
    let (rules, deck) = brawl();
    // Firebolt kills either: the Egg hatches a Chick in its place (no
    // minion fewer), the Bomb bursts and leaves the Egg at 1 Health.
    let mut game = boards(&rules, &deck, &[], &["Egg", "Bomb"]);
    let hand = rules
        .zones
        .as_ref()
        .and_then(|z| z.zone("hand"))
        .expect("hand");
    let firebolt = deck
        .iter()
        .position(|c| c.name == "Firebolt")
        .expect("card");
    game.set_zone_cards(hand, EntityId::new(0), &[Some(CardId::new(firebolt))])
        .expect("hand");
    game.set(EntityId::new(0), rules.attribute("mana").expect("mana"), 2);
    game.recheck();
    let bomb = on_board(&game, 1)[1];
    let chosen = Ai::new().choose(&mut game, Policy::Greedy).expect("a move");
    assert_eq!(chosen.target, Some(bomb), "{chosen:?}");
}

#[test]
fn a_second_chosen_target_is_its_own_decision_for_every_player() {
    use grimoire::engine::ai::{Ai, Policy};
    use grimoire::engine::{Ability, Phase};
    use grimoire::ids::{CardId, EntityId};
    let (rules, deck) = brawl();
    let position = || {
        let mut game = boards(&rules, &deck, &["Yeti"], &["Scavenger", "Egg"]);
        let hand = rules
            .zones
            .as_ref()
            .and_then(|z| z.zone("hand"))
            .expect("hand");
        let challenge = deck
            .iter()
            .position(|c| c.name == "Challenge")
            .expect("card");
        game.set_zone_cards(hand, EntityId::new(0), &[Some(CardId::new(challenge))])
            .expect("hand");
        game.set(EntityId::new(0), rules.attribute("mana").expect("mana"), 1);
        game.recheck();
        let mine = on_board(&game, 0)[0];
        let play = grimoire::engine::Action {
            target: Some(mine),
            ..game.play(0)
        };
        game.act(play).expect("Challenge played at the Yeti");
        game
    };
    let mut game = position();
    assert_eq!(game.ctx().phase, Phase::Target);
    let mut legal = Vec::new();
    game.legal(&mut legal);
    let theirs = on_board(&game, 1);
    assert_eq!(
        legal
            .iter()
            .map(|a| (a.ability, a.target))
            .collect::<Vec<_>>(),
        [
            (Ability::Target, Some(theirs[0])),
            (Ability::Target, Some(theirs[1]))
        ],
        "one decision per enemy minion, and nothing else"
    );
    for policy in [Policy::Random, Policy::Greedy, Policy::Search] {
        let mut game = position();
        let chosen = Ai::new().choose(&mut game, policy).expect("a target");
        assert_eq!(chosen.ability, Ability::Target, "{policy:?}");
        game.act(chosen).expect("the target chosen");
        assert_eq!(
            game.ctx().phase,
            Phase::Act,
            "{policy:?}: the card resolved"
        );
    }
}

#[test]
fn a_badly_written_ability_is_refused_by_check_with_its_place_and_key() {
    let dir = common::scratch_dir("bad-abilities");
    std::fs::create_dir_all(dir.join("cards/brawl")).expect("cards");
    std::fs::copy(root(BRAWL), dir.join("brawl.edn")).expect("rules");
    std::fs::write(
        dir.join("cards/brawl/bad.edn"),
        r#"{:card "Bad" :kind :minion :type :mana :cost 1 :to :board :effects []
 :abilities {:ping {:cost -1 :usable-when 3 :once-per-turn 1 :costt 2}}}"#,
    )
    .expect("cards file");
    let out = common::run_in(&["check", "."], "", Some(&dir));
    let said = common::text(&out.stdout) + &common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    for (message, at) in [
        (
            "`:cost` is a whole number, 0 or more, found the integer -1",
            "bad.edn:2:27",
        ),
        (
            "expected `:usable-when` (a map), found the integer 3",
            "bad.edn:2:43",
        ),
        ("`:once-per-turn` is `true` or `false`", "bad.edn:2:60"),
        ("unknown key `:costt` in an ability", "bad.edn:2:62"),
        ("the ability `:ping` has no `:effects`", "bad.edn:2:20"),
    ] {
        assert!(said.contains(message), "{message}: {said}");
        assert!(said.contains(at), "{at}: {said}");
    }
}
