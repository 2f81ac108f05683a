//! Cards kept in `:zones` (issue 30): the deal and its draws from the
//! generator, Arcomage written with zones playing exactly as bundled
//! Arcomage, the skirmish fixture (`tests/data/zones/`) playing, simulating
//! with every invariant and passing its scenarios, and each zone invariant
//! firing on a table built to break it.

use std::path::{Path, PathBuf};

use crate::common;

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::invariants::{Invariant, Monitor};
use grimoire::engine::playout::{Computer, Ending, play_out};
use grimoire::engine::{Ability, Game, GameEvent, Illegal, Log};
use grimoire::files;
use grimoire::ids::EntityId;
use grimoire::sim::check_range;

const ARCOMAGE_ZONES: &str = "tests/data/rules/arcomage-zones.edn";
const SKIRMISH: &str = "tests/data/zones/rules/skirmish.edn";
const SKIRMISH_CARDS: &str = "tests/data/zones/cards/skirmish";
const SKIRMISH_SCENARIOS: &str = "tests/data/zones/scenarios";

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A rule set read from a file of the repository, with the deck of `cards`.
fn load(rules: &str, cards: &str) -> (RuleSet, Vec<Card>) {
    let text = std::fs::read_to_string(root(rules)).expect("rule set");
    let mut rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let deck = files::load_deck(&mut rules, &[root(cards)]).expect("deck");
    (rules, deck.cards)
}

fn arcomage() -> (RuleSet, Vec<Card>) {
    let mut rules = common::bundled("arcomage");
    let deck = files::load_deck(&mut rules, &[]).expect("bundled deck");
    (rules, deck.cards)
}

fn skirmish() -> (RuleSet, Vec<Card>) {
    load(SKIRMISH, SKIRMISH_CARDS)
}

/// Plays `game` to its end with `policies`.
fn play(game: &mut Game<'_>, policies: &[Policy]) {
    let mut ai = Ai::new();
    let ending = play_out(
        game,
        &mut Computer {
            ai: &mut ai,
            policies,
        },
        &mut (),
    );
    assert_eq!(ending, Ending::Over);
}

/// A log without the zones' own lines: what bundled Arcomage logs too.
fn without_moves(log: &[GameEvent]) -> Vec<GameEvent> {
    log.iter()
        .filter(|e| !matches!(e, GameEvent::Moved { .. } | GameEvent::Shuffled { .. }))
        .copied()
        .collect()
}

#[test]
fn the_deal_makes_the_same_hands_from_the_same_draws_as_the_classic_piles() {
    let (classic, deck) = arcomage();
    let (zoned, zoned_deck) = load(ARCOMAGE_ZONES, "cards/arcomage");
    for seed in [1, 2, 99] {
        let a = Game::new(&classic, &deck, seed, Log::Skip).expect("game");
        let b = Game::new(&zoned, &zoned_deck, seed, Log::Skip).expect("game");
        assert!(b.zoned() && !a.zoned());
        for seat in EntityId::below(2) {
            assert_eq!(a.hand_of(seat), b.hand_of(seat), "seed {seed}");
        }
        assert_eq!(a.draw_pile_len(), b.draw_pile_len());
        assert_eq!(a.state().rng, b.state().rng, "seed {seed}: the generator");
    }
}

#[test]
fn arcomage_written_with_zones_plays_as_bundled_arcomage() {
    let (classic, deck) = arcomage();
    let (zoned, zoned_deck) = load(ARCOMAGE_ZONES, "cards/arcomage");
    let pairings: [&[Policy]; 3] = [
        &[Policy::Random],
        &[Policy::Greedy],
        &[Policy::Greedy, Policy::Random],
    ];
    for policies in pairings {
        for seed in 1..=20 {
            let mut a = Game::new(&classic, &deck, seed, Log::Keep).expect("game");
            let mut b = Game::new(&zoned, &zoned_deck, seed, Log::Keep).expect("game");
            play(&mut a, policies);
            play(&mut b, policies);
            let (la, lb) = (a.log().expect("log"), without_moves(b.log().expect("log")));
            let text = |log: &[GameEvent], cards: &[Card], rules: &RuleSet| {
                grimoire::engine::log::render(rules, cards, log)
            };
            assert_eq!(
                text(la, &deck, &classic),
                text(&lb, &zoned_deck, &zoned),
                "{policies:?} seed {seed}"
            );
            assert_eq!(a.outcome(), b.outcome(), "{policies:?} seed {seed}");
            assert_eq!(a.state().rng, b.state().rng, "{policies:?} seed {seed}");
            assert!(
                b.log().expect("log").len() > la.len(),
                "zones log their moves"
            );
        }
    }
}

#[test]
fn the_fixture_keeps_every_invariant_under_random_and_greedy_players() {
    let (rules, deck) = skirmish();
    for (policies, games) in [(&[Policy::Random][..], 400), (&[Policy::Greedy][..], 60)] {
        let run = check_range(&rules, &deck, 1, 0..games, policies, 9)
            .unwrap_or_else(|f| panic!("{policies:?}: game {}: {}", f.game, f.violation));
        assert_eq!(run.games, games);
    }
}

#[test]
fn simulate_checks_the_fixture_s_invariants_clean() {
    let rules = root(SKIRMISH);
    let args = [
        "simulate",
        &rules.to_string_lossy(),
        "--games",
        "2000",
        "--check-invariants",
    ];
    let out = common::run_in(&args, "", None);
    let said = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("invariants held: 2000 games"), "{said}");
}

#[test]
fn a_seeded_fixture_game_log() {
    let out = common::grimoire(&[
        "play",
        &root(SKIRMISH).to_string_lossy(),
        "--seed",
        "1",
        "--ai",
        "greedy",
        "--ai",
        "random",
    ]);
    // The deck line names the folder, which differs between checkouts.
    let log: String = out.lines().skip(2).collect::<Vec<_>>().join("\n");
    insta::assert_snapshot!(log);
}

#[test]
fn the_fixture_s_scenarios_pass() {
    let out = grimoire::cli::test(&[root(SKIRMISH_SCENARIOS)], &[], false);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("22 passed, 0 failed"), "{}", out.stdout);
}

/// Runs one scenario written for the fixture: its failures, or empty.
fn scenario(name: &str, text: &str) -> (i32, String) {
    let dir = common::scratch_dir(&format!("zones-scenario-{name}"));
    let scenarios = dir.join("scenarios");
    std::fs::create_dir_all(&scenarios).unwrap();
    for (from, to) in [
        (SKIRMISH, "rules/skirmish.edn"),
        (
            "tests/data/zones/cards/skirmish/cards.edn",
            "cards/skirmish/cards.edn",
        ),
    ] {
        let to = dir.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root(from), to).unwrap();
    }
    let file = scenarios.join("one.edn");
    std::fs::write(&file, text).unwrap();
    let out = grimoire::cli::test(&[file], &[], false);
    (out.code, format!("{}{}", out.stdout, out.stderr))
}

#[test]
fn a_scenario_says_what_a_pile_holds_when_it_is_not_what_it_expects() {
    let (code, out) = scenario(
        "wrong",
        r#"{:scenario "wrong" :rules "../rules/skirmish.edn"
            :given {:zones {:deck ["Coin" "Yeti"] [:hand :you] []}}
            :expect {:zones {:deck ["Yeti" "Coin"] [:hand :you] {:count 1}}}}"#,
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(r#"deck holds ["Coin" "Yeti"], expected ["Yeti" "Coin"]"#),
        "{out}"
    );
    assert!(
        out.contains("you's hand holds 0 cards, expected 1"),
        "{out}"
    );
}

#[test]
fn a_scenario_cannot_give_a_pile_more_than_it_holds() {
    let (code, out) = scenario(
        "too-many",
        r#"{:scenario "too many" :rules "../rules/skirmish.edn"
            :given {:zones {[:board :you] ["Yeti" "Yeti" "Yeti" "Yeti" "Yeti" "Yeti" "Yeti" "Yeti"]}}
            :expect {:next :you}}"#,
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("`:board` holds 7 cards at most"), "{out}");
}

#[test]
fn a_scenario_s_piles_are_checked_against_the_zones() {
    let (code, out) = scenario(
        "names",
        r#"{:scenario "names" :rules "../rules/skirmish.edn"
            :given {:zones {[:hnad :you] [] :hand [] [:deck :you] ["Yeti"]}}
            :expect {:zones {:discard ["Yeeti"]}}}"#,
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("`:hnad` is not a zone"), "{out}");
    assert!(out.contains("did you mean `:hand`"), "{out}");
    assert!(out.contains("`:hand` is a zone per seat"), "{out}");
    assert!(out.contains("`:deck` is shared"), "{out}");
    assert!(out.contains(r#"no card named "Yeeti""#), "{out}");
}

#[test]
fn classic_zones_are_given_and_expected_in_scenarios_too() {
    let dir = common::scratch_dir("classic-zones").join("arcomage");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hands.edn");
    std::fs::write(
        &file,
        r#"{:scenario "A discard refills the hand from the deck's top, then from the discards"
            :given {:zones {[:hand :you] ["Lodestone" "Amethyst"] :deck ["Gnome" "Moody Goblins"]}}
            :play [[:refused [:discard "Lodestone"]] [:discard "Amethyst"]]
            :expect {:next :other
                     :zones {[:hand :you] ["Lodestone" "Gnome" "Moody Goblins" "Amethyst"]
                             :deck [] :discard []}}}"#,
    )
    .unwrap();
    let out = grimoire::cli::test(&[file], &[], false);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
}

#[test]
fn a_token_is_never_dealt_and_every_other_copy_is() {
    let (rules, deck) = skirmish();
    let game = Game::new(&rules, &deck, 3, Log::Skip).expect("game");
    let table = game.state().cards.as_deref().expect("a card table");
    let wisp = deck.iter().position(|c| c.name == "Wisp").expect("Wisp");
    let made: Vec<usize> = table
        .instances()
        .filter_map(|e| table.card(e))
        .map(|c| c.index())
        .collect();
    assert!(!made.contains(&wisp));
    let copies: usize = deck.iter().map(|c| usize::from(c.play.copies)).sum();
    assert_eq!(made.len(), copies);
    // Each hand was dealt 3 and the first seat drew 1 as its turn began.
    assert_eq!(game.hand_of(EntityId::new(0)).len(), 4);
    assert_eq!(game.hand_of(EntityId::new(1)).len(), 3);
    assert_eq!(game.draw_pile_len(), copies - 7);
}

#[test]
fn only_a_turn_of_many_plays_can_be_ended_by_its_player() {
    let (rules, deck) = skirmish();
    let mut game = Game::new(&rules, &deck, 3, Log::Keep).expect("game");
    let mut legal = Vec::new();
    game.legal(&mut legal);
    assert_eq!(legal.last().map(|a| a.ability), Some(Ability::EndTurn));
    game.act(game.end_turn_action()).expect("ends");
    assert_eq!(game.ctx().current, EntityId::new(1));
    let log = grimoire::engine::log::render(&rules, &deck, game.log().unwrap());
    assert!(log.contains("  p1 ends the turn\nturn 2: p2"), "{log}");
    let (classic, deck) = arcomage();
    let mut game = Game::new(&classic, &deck, 3, Log::Skip).expect("game");
    game.legal(&mut legal);
    assert!(legal.iter().all(|a| a.ability != Ability::EndTurn));
    assert!(matches!(
        game.act(game.end_turn_action()),
        Err(Illegal::Zones(_))
    ));
}

/// A game of the fixture, and the pile of `zone` of `owner`.
fn pile_of(game: &Game<'_>, zone: &str, owner: usize) -> usize {
    let set = game.rules().zones.as_ref().expect("zones");
    let table = game.state().cards.as_deref().expect("table");
    table
        .pile(set, set.zone(zone).expect("zone"), EntityId::new(owner))
        .expect("pile")
}

#[test]
fn zone_membership_fires_on_a_card_in_two_piles() {
    let (rules, deck) = skirmish();
    let mut game = Game::new(&rules, &deck, 3, Log::Skip).expect("game");
    assert_eq!(Monitor::new().check(&game), Ok(()));
    let (hand, discard) = (pile_of(&game, "hand", 0), pile_of(&game, "discard", 0));
    let table = game.cards_mut_unchecked().expect("table");
    let card = table.contents(hand)[0];
    table.pile_mut_unchecked(discard).push(card);
    let v = Monitor::new()
        .check(&game)
        .expect_err("a card in two piles");
    assert_eq!(v.invariant, Invariant::ZoneMembership, "{v}");
}

#[test]
fn zone_membership_fires_on_a_card_in_no_pile() {
    let (rules, deck) = skirmish();
    let mut game = Game::new(&rules, &deck, 3, Log::Skip).expect("game");
    let deck_pile = pile_of(&game, "deck", 0);
    let table = game.cards_mut_unchecked().expect("table");
    table.pile_mut_unchecked(deck_pile).pop();
    let v = Monitor::new().check(&game).expect_err("a lost card");
    assert_eq!(v.invariant, Invariant::ZoneMembership, "{v}");
    assert!(v.detail.contains("lists"), "{v}");
}

#[test]
fn zone_capacity_fires_on_an_overfull_hand() {
    let (rules, deck) = skirmish();
    let mut game = Game::new(&rules, &deck, 3, Log::Skip).expect("game");
    let set = rules.zones.as_ref().unwrap();
    let hand = set.zone("hand").unwrap();
    // Eleven cards given where ten fit are refused…
    let yeti = deck.iter().position(|c| c.name == "Yeti").unwrap();
    let eleven = vec![Some(grimoire::ids::CardId::new(yeti)); 11];
    assert!(game.set_zone_cards(hand, EntityId::FIRST, &eleven).is_err());
    // …so the pile is filled behind the engine's back: the invariant fires.
    let (from, to) = (pile_of(&game, "deck", 0), pile_of(&game, "hand", 0));
    let table = game.cards_mut_unchecked().unwrap();
    let moved: Vec<EntityId> = table.contents(from)[..10].to_vec();
    table.pile_mut_unchecked(to).extend(&moved);
    let v = Monitor::new().check(&game).expect_err("overfull");
    // Membership is checked pile by pile first: a broken table breaks both.
    assert!(
        matches!(
            v.invariant,
            Invariant::ZoneMembership | Invariant::ZoneCapacity
        ),
        "{v}"
    );
}

#[test]
fn known_sound_fires_on_a_card_its_owner_does_not_know_in_its_hand() {
    let (rules, deck) = skirmish();
    let mut game = Game::new(&rules, &deck, 3, Log::Skip).expect("game");
    let hand = pile_of(&game, "hand", 0);
    let table = game.cards_mut_unchecked().unwrap();
    let card = table.contents(hand)[0];
    assert_eq!(table.known(card) & 1, 1, "its owner saw it drawn");
    table.set_known_unchecked(card, 0);
    let v = Monitor::new()
        .check(&game)
        .expect_err("unknown to its owner");
    assert_eq!(v.invariant, Invariant::KnownSound, "{v}");
}

#[test]
fn a_seat_knows_the_cards_it_saw_and_none_of_a_shuffled_deck() {
    let (rules, deck) = skirmish();
    let game = Game::new(&rules, &deck, 3, Log::Skip).expect("game");
    let table = game.state().cards.as_deref().unwrap();
    let (hand, deck_pile) = (pile_of(&game, "hand", 1), pile_of(&game, "deck", 0));
    for &card in table.contents(deck_pile) {
        assert_eq!(table.known(card), 0, "nobody knows the deck's cards");
    }
    for &card in table.contents(hand) {
        assert_eq!(table.known(card), 0b10, "only p2 knows p2's hand");
    }
}

/// A rule set of every other kind of pile: a deck that draws from the card
/// set aside when empty, a small hand that overflows to a graveyard, a
/// market dealt face up, and a board of sites.
const PILES: &str = r#"{:rules :piles
 :roles {:you "the player" :other "the opponent"}
 :kinds {:player "a seat" :card {:card true :doc "a card"}}
 :attributes {:hp {:default 10 :min 0}}
 :seats [:p1 :p2]
 :zones {:deck {:shared true :ordered true :visible :nobody :start :deck
                :when-empty {:draw-from :aside}}
         :aside {:shared true :ordered true :visible :nobody :capacity 1}
         :hand {:visible :owner :plays true :capacity 2 :overflow :graveyard
                :discard-to :graveyard :draw-each-turn 1}
         :graveyard {:shared true :ordered true}
         :market {:shared true :deal 2}
         :board {:slots 3 :layout :sites :in-play true}}}"#;

const PILE_CARDS: &str = r#"{:card "A" :to :board :copies 3 :effects []}
{:card "B" :copies 3 :effects [{:effected :you :resource :hp :amount 1}]}"#;

fn piles() -> (RuleSet, Vec<Card>) {
    let rules = common::rules(PILES);
    let checked = files::check_sources(
        vec![grimoire::diag::Source::new("cards.edn", PILE_CARDS)],
        Some(&rules),
    );
    assert_eq!(checked.error_count(), 0, "{:#?}", checked.diagnostics);
    let deck = Card::from_definitions(&checked.definitions, &checked.sources, "piles");
    (rules, deck)
}

/// The names of the cards in `owner`'s pile of `zone`, bottom first (`-` for an empty site).
fn names(game: &Game<'_>, zone: &str, owner: usize) -> Vec<String> {
    let set = game.rules().zones.as_ref().unwrap();
    let cards = game
        .zone_cards(set.zone(zone).unwrap(), EntityId::new(owner))
        .expect("a pile");
    cards
        .iter()
        .map(|c| c.map_or("-".to_string(), |c| game.cards()[c.index()].name.clone()))
        .collect()
}

#[test]
fn a_shared_zone_is_dealt_once_and_an_empty_deck_can_draw_from_another() {
    let (rules, deck) = piles();
    let mut game = Game::new(&rules, &deck, 5, Log::Keep).expect("game");
    let set = rules.zones.as_ref().unwrap();
    assert_eq!(names(&game, "market", 0).len(), 2, "dealt once, face up");
    assert_eq!(
        names(&game, "hand", 0).len(),
        1,
        "p1 drew as its turn began"
    );
    let b = Some(grimoire::ids::CardId::new(1));
    game.set_zone_cards(set.zone("deck").unwrap(), EntityId::FIRST, &[])
        .unwrap();
    game.set_zone_cards(set.zone("aside").unwrap(), EntityId::FIRST, &[b])
        .unwrap();
    game.set_zone_cards(set.zone("hand").unwrap(), EntityId::new(1), &[])
        .unwrap();
    game.end_turn_now().unwrap();
    assert_eq!(names(&game, "hand", 1), ["B"], "drawn from the aside");
    assert!(names(&game, "aside", 0).is_empty());
    assert_eq!(Monitor::new().check(&game), Ok(()));
}

#[test]
fn a_full_hand_sends_the_card_drawn_where_its_overflow_says() {
    let (rules, deck) = piles();
    let mut game = Game::new(&rules, &deck, 5, Log::Keep).expect("game");
    let set = rules.zones.as_ref().unwrap();
    let (a, b) = (grimoire::ids::CardId::new(0), grimoire::ids::CardId::new(1));
    let zone = |n: &str| set.zone(n).unwrap();
    game.set_zone_cards(zone("hand"), EntityId::new(1), &[Some(a), Some(a)])
        .unwrap();
    game.set_zone_cards(zone("deck"), EntityId::FIRST, &[Some(b)])
        .unwrap();
    game.set_zone_cards(zone("graveyard"), EntityId::FIRST, &[])
        .unwrap();
    game.end_turn_now().unwrap();
    assert_eq!(names(&game, "hand", 1), ["A", "A"]);
    assert_eq!(names(&game, "graveyard", 0), ["B"]);
    let log = grimoire::engine::log::render(&rules, &deck, game.log().unwrap());
    assert!(log.contains(": deck -> graveyard"), "{log}");
    assert_eq!(Monitor::new().check(&game), Ok(()));
}

#[test]
fn a_board_of_sites_keeps_its_gaps_and_fills_the_first() {
    let (rules, deck) = piles();
    let mut game = Game::new(&rules, &deck, 5, Log::Keep).expect("game");
    let set = rules.zones.as_ref().unwrap();
    let a = Some(grimoire::ids::CardId::new(0));
    let zone = |n: &str| set.zone(n).unwrap();
    game.set_zone_cards(zone("board"), EntityId::FIRST, &[None, a, None])
        .unwrap();
    game.set_zone_cards(zone("hand"), EntityId::FIRST, &[a])
        .unwrap();
    assert_eq!(names(&game, "board", 0), ["-", "A", "-"]);
    game.act(game.play(0)).expect("played");
    assert_eq!(names(&game, "board", 0), ["A", "A", "-"]);
    let log = grimoire::engine::log::render(&rules, &deck, game.log().unwrap());
    assert!(log.contains(": p1's hand -> p1's board, slot 0"), "{log}");
    assert_eq!(Monitor::new().check(&game), Ok(()));
}

#[test]
fn the_zones_say_why_they_refuse_a_play_or_a_discard() {
    let (rules, deck) = piles();
    let mut game = Game::new(&rules, &deck, 5, Log::Skip).expect("game");
    let set = rules.zones.as_ref().unwrap();
    let a = Some(grimoire::ids::CardId::new(0));
    let zone = |n: &str| set.zone(n).unwrap();
    game.set_zone_cards(zone("board"), EntityId::FIRST, &[a, a, a])
        .unwrap();
    game.set_zone_cards(zone("hand"), EntityId::FIRST, &[a])
        .unwrap();
    let no_room = game.check(game.play(0)).expect_err("a full board");
    assert_eq!(no_room.to_string(), "there is no room for A in p1's board");
    let no_discard = game.check(game.discard(0)).expect_err("no `:may-discard`");
    assert!(matches!(no_discard, Illegal::Zones(ref m) if m.contains("`:may-discard`")));
    assert_eq!(game.act(game.play(0)), Err(no_room));
}

/// A view that shows p1 what p2 holds, or the values of p2's cards, or
/// tells p2's cards apart by where they lie, breaks `view-hides`; the
/// true views keep it.
#[test]
fn view_hides_fires_on_a_view_that_shows_what_its_seat_cannot_see() {
    use grimoire::engine::invariants::check_views_of;
    use grimoire::engine::view::{Seen, ZoneName};
    let (rules, deck) = skirmish();
    let game = Game::new(&rules, &deck, 3, Log::Skip).expect("game");
    assert_eq!(check_views_of(&game, &|g, s| g.view(s)), Ok(()));
    let p2 = EntityId::new(1);
    let hand = rules.zones.as_ref().and_then(|z| z.plays).expect("hand");
    let t = game.state().cards.as_deref().expect("cards");
    let theirs: Vec<EntityId> = {
        let set = rules.zones.as_ref().expect("zones");
        t.contents(t.pile(set, hand, p2).expect("pile")).to_vec()
    };
    // p2's hand named in p1's view.
    let named = |g: &Game<'_>, seat: EntityId| {
        let mut v = g.view(seat);
        for z in &mut v.zones {
            if z.zone == ZoneName::Zone(hand) && z.owner == Some(p2) {
                let tt = g.state().cards.as_deref().expect("cards");
                z.cards = theirs
                    .iter()
                    .map(|&e| Seen::Instance(tt.card(e).expect("card"), e))
                    .collect();
            }
        }
        v
    };
    let v = check_views_of(&game, &named).expect_err("named");
    assert_eq!(v.invariant, Invariant::ViewHides, "{v}");
    assert!(v.detail.contains("names"), "{v}");
    // The values of p2's first card in p1's view.
    let valued = |g: &Game<'_>, seat: EntityId| {
        let mut v = g.view(seat);
        let e = theirs[0];
        v.rows[e.index()].values = g.state().row(e).to_vec();
        v
    };
    let v = check_views_of(&game, &valued).expect_err("valued");
    assert!(v.detail.contains("values"), "{v}");
    // A count that depends on which card lies where: the Yetis in p2's hand.
    let counted = |g: &Game<'_>, seat: EntityId| {
        let mut v = g.view(seat);
        let tt = g.state().cards.as_deref().expect("cards");
        let first = tt.card(theirs[0]).expect("card");
        v.ctx.turn += theirs
            .iter()
            .filter(|&&e| tt.card(e) == Some(first))
            .count() as u32;
        v
    };
    let v = check_views_of(&game, &counted).expect_err("counted");
    assert!(v.detail.contains("moved round"), "{v}");
}

/// With the deck's top card face up (`:top-visible`), every seat sees it:
/// the cards p2 was dealt were each seen on top as they left, so p1 knows
/// them and its view names them; the card on top now is seen by both; the
/// cards under it by neither.
#[test]
fn a_card_seen_on_a_face_up_top_is_known_to_all_where_it_goes() {
    use grimoire::engine::view::Seen;
    let text = std::fs::read_to_string(root(SKIRMISH)).expect("rule set");
    let text = text.replace(
        ":visible :nobody :start :deck",
        ":visible :nobody :top-visible true :start :deck",
    );
    let mut rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let deck = files::load_deck(&mut rules, &[root(SKIRMISH_CARDS)]).expect("deck");
    let game = Game::new(&rules, &deck.cards, 3, Log::Skip).expect("game");
    let (p1, p2) = (EntityId::FIRST, EntityId::new(1));
    let table = game.state().cards.as_deref().expect("table");
    let set = rules.zones.as_ref().expect("zones");
    let theirs = table.contents(pile_of(&game, "hand", 1)).to_vec();
    assert!(theirs.len() >= 3);
    for &e in &theirs {
        assert_eq!(table.known(e) & 0b11, 0b11, "dealt from a face-up top");
        assert!(table.sees(set, p1, e));
    }
    let view = game.view(p1);
    let hand = set.zone("hand").expect("hand");
    let seen = view
        .zones
        .iter()
        .find(|z| z.zone == grimoire::engine::view::ZoneName::Zone(hand) && z.owner == Some(p2))
        .expect("p2's hand");
    assert!(
        seen.cards.iter().all(|c| matches!(c, Seen::Instance(..))),
        "{seen:?}"
    );
    let pile = table.contents(pile_of(&game, "deck", 0));
    let (top, under) = pile.split_last().expect("cards left");
    assert!(table.sees(set, p1, *top) && table.sees(set, p2, *top));
    assert!(
        under
            .iter()
            .all(|&e| !table.sees(set, p1, e) && !table.sees(set, p2, e))
    );
    // Without `:top-visible`, p1 knows none of p2's cards.
    let (rules, deck) = skirmish();
    let game = Game::new(&rules, &deck, 3, Log::Skip).expect("game");
    let table = game.state().cards.as_deref().expect("table");
    let theirs = table.contents(pile_of(&game, "hand", 1));
    assert!(theirs.iter().all(|&e| table.known(e) & 1 == 0));
}
