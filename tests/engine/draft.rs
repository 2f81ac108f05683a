//! Simultaneous turns and pile passing (issue 31, §4): the gem-draft
//! fixture (`tests/data/draft/`) passing its scenarios and playing to its
//! end under every policy with every invariant checked; a later seat's
//! view, legal moves, log and decisions the same whatever an earlier seat
//! picked; a world dealt for a seat forgetting the others' picks.

use std::path::{Path, PathBuf};

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::invariants::{Monitor, play_checked};
use grimoire::engine::log::{Sight, render_from};
use grimoire::engine::playout::{Computer, Ending, play_out};
use grimoire::engine::view::Unseen;
use grimoire::engine::{Ability, Action, Game, Log, Phase};
use grimoire::eval::Rng;
use grimoire::files;
use grimoire::ids::EntityId;
use rand::SeedableRng;

const DRAFT: &str = "tests/data/draft/rules/draft.edn";
const DRAFT_CARDS: &str = "tests/data/draft/cards/draft";
const DRAFT_SCENARIOS: &str = "tests/data/draft/scenarios";

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The draft fixture's rule set and deck.
pub(crate) fn draft() -> (RuleSet, Vec<Card>) {
    draft_with(|t| t)
}

/// The draft fixture, with `edit` made to its rule set's text.
pub(crate) fn draft_with(edit: impl Fn(String) -> String) -> (RuleSet, Vec<Card>) {
    let text = edit(std::fs::read_to_string(root(DRAFT)).expect("rule set"));
    let mut rules = RuleSet::parse(&text).unwrap_or_else(|d| panic!("{d:#?}"));
    let deck = files::load_deck(&mut rules, &[root(DRAFT_CARDS)]).expect("deck");
    (rules, deck.cards)
}

const P1: EntityId = EntityId::FIRST;

fn p2() -> EntityId {
    EntityId::new(1)
}

#[test]
fn the_draft_s_scenarios_pass() {
    let out = grimoire::cli::test(&[root(DRAFT_SCENARIOS)], &[], false);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("7 passed, 0 failed"), "{}", out.stdout);
}

#[test]
fn a_simultaneous_turn_is_one_turn_with_every_seat_asked_in_seat_order() {
    let (rules, deck) = draft();
    let mut game = Game::new(&rules, &deck, 7, Log::Keep).unwrap();
    let seats: Vec<EntityId> = EntityId::below(3).collect();
    assert_eq!(game.simultaneous_seats(), seats.as_slice());
    for (i, &seat) in seats.iter().enumerate() {
        let ctx = game.ctx();
        assert_eq!((ctx.current, ctx.turn, ctx.phase), (seat, 1, Phase::Act));
        assert_eq!(game.chosen_seats(), seats[..i].to_vec());
        game.act(game.play(0)).unwrap();
    }
    // All three picks resolved, the packs passed, and the next turn begun: turn 2.
    let ctx = game.ctx();
    assert_eq!((ctx.current, ctx.turn), (P1, 2));
    assert!(game.chosen_seats().is_empty());
    for seat in seats {
        assert_eq!(game.hand_of(seat).len(), 4);
    }
}

/// The game after p1 has held each of its legal picks in turn 1.
fn after_each_pick_of_p1<'r>(rules: &'r RuleSet, deck: &'r [Card], seed: u64) -> Vec<Game<'r>> {
    let game = Game::new(rules, deck, seed, Log::Keep).unwrap();
    let mut legal = Vec::new();
    game.clone().legal(&mut legal);
    assert_eq!(legal.len(), 5, "a pack of five, each card a pick");
    legal
        .iter()
        .map(|&pick| {
            let mut g = game.clone();
            g.act(pick).unwrap();
            assert_eq!(g.ctx().current, p2());
            g
        })
        .collect()
}

#[test]
fn the_second_seat_sees_and_may_do_the_same_whatever_the_first_picked() {
    let (rules, deck) = draft();
    for seed in 1..=5 {
        let games = after_each_pick_of_p1(&rules, &deck, seed);
        let first = &games[0];
        let mut legal0 = Vec::new();
        first.clone().legal(&mut legal0);
        let log0 = render_from(&rules, &deck, first.log().unwrap(), 0, Sight::Seat(p2()));
        for g in &games[1..] {
            assert_eq!(g.view(p2()), first.view(p2()), "seed {seed}: the view");
            let mut legal = Vec::new();
            g.clone().legal(&mut legal);
            assert_eq!(legal, legal0, "seed {seed}: the legal picks");
            let log = render_from(&rules, &deck, g.log().unwrap(), 0, Sight::Seat(p2()));
            assert_eq!(log, log0, "seed {seed}: the seat's log");
            // Not even the whole log tells a pick before the last seat has made its own.
            assert_eq!(g.log(), first.log(), "seed {seed}: the log");
        }
    }
}

#[test]
fn every_policy_of_the_second_seat_decides_the_same_whatever_the_first_picked() {
    let (rules, deck) = draft();
    let mut ai = Ai::new();
    for seed in 1..=4 {
        let games = after_each_pick_of_p1(&rules, &deck, seed);
        for policy in Policy::ALL {
            let picks: Vec<Option<Action>> = games
                .iter()
                .map(|g| ai.choose(&mut g.clone(), policy))
                .collect();
            assert!(
                picks.windows(2).all(|w| w[0] == w[1]),
                "seed {seed}: {} chose by the first seat's pick: {picks:?}",
                policy.name()
            );
        }
    }
}

#[test]
fn a_world_dealt_for_a_seat_forgets_the_picks_the_others_hold() {
    let (rules, deck) = draft();
    let games = after_each_pick_of_p1(&rules, &deck, 3);
    // The same world dealt from the same generator, played out the same way:
    // had p1's true pick stayed held in it, each would end differently.
    let ends: Vec<String> = games
        .iter()
        .map(|g| {
            let mut world = g.clone();
            world.determinise(p2(), &mut Rng::seed_from_u64(11), &mut Unseen::new());
            assert_eq!(world.chosen_seats(), Vec::<EntityId>::new());
            assert_eq!(world.ctx().current, p2(), "the seat choosing stays first");
            world.clear_log();
            let mut ai = Ai::new();
            let policies = [Policy::Greedy];
            let mut computer = Computer {
                ai: &mut ai,
                policies: &policies,
            };
            assert_eq!(play_out(&mut world, &mut computer, &mut ()), Ending::Over);
            grimoire::engine::log::render(&rules, &deck, world.log().unwrap())
        })
        .collect();
    assert!(ends.windows(2).all(|w| w[0] == w[1]), "{ends:#?}");
}

#[test]
fn a_pick_no_longer_allowed_when_the_picks_resolve_passes() {
    let (rules, deck) = draft();
    let mut game = Game::new(&rules, &deck, 5, Log::Keep).unwrap();
    game.act(game.play(0)).unwrap();
    // p1's pick is held; a card position past its pack can no longer be played.
    let held = game.held_unchecked();
    assert_eq!(held.len(), 1);
    let gone = Action {
        ability: Ability::Card(9),
        ..held[0].1
    };
    assert!(game.set_held_unchecked(P1, gone));
    game.act(game.play(0)).unwrap();
    game.act(game.play(0)).unwrap();
    let log = grimoire::engine::log::render(&rules, &deck, game.log().unwrap());
    assert!(
        log.contains("  p1 cannot act and passes\n  p2 plays"),
        "{log}"
    );
    // p1 picked nothing: p2 now holds p1's whole pack, p1 p3's less its pick.
    assert_eq!(game.hand_of(p2()).len(), 5);
    assert_eq!(game.hand_of(P1).len(), 4);
}

#[test]
fn the_draft_plays_to_its_end_under_every_policy_with_every_invariant() {
    let (rules, deck) = draft();
    let mut ai = Ai::new();
    let mut checker = Monitor::new();
    let pairings: [&[Policy]; 4] = [
        &[Policy::Random],
        &[Policy::Greedy],
        &[Policy::Search, Policy::Random, Policy::Greedy],
        &[Policy::Random, Policy::Search],
    ];
    for policies in pairings {
        for seed in 1..=6 {
            let mut game = Game::new(&rules, &deck, seed, Log::Keep).unwrap();
            play_checked(&mut game, &mut ai, policies, &mut checker)
                .unwrap_or_else(|v| panic!("{policies:?} seed {seed}: {v}"));
            // Five picks each from packs of five: five simultaneous turns.
            assert_eq!(game.ctx().turn, 5, "{policies:?} seed {seed}");
            for seat in EntityId::below(3) {
                assert!(game.hand_of(seat).is_empty());
            }
        }
    }
}

#[test]
fn the_search_plays_the_draft_better_than_random() {
    let (rules, deck) = draft();
    let mut ai = Ai::new();
    let policies = [Policy::Search, Policy::Random, Policy::Random];
    let mut wins = 0;
    for seed in 1..=30 {
        let mut game = Game::new(&rules, &deck, seed, Log::Skip).unwrap();
        let mut computer = Computer {
            ai: &mut ai,
            policies: &policies,
        };
        assert_eq!(play_out(&mut game, &mut computer, &mut ()), Ending::Over);
        if matches!(game.outcome(), Some(grimoire::engine::Outcome::Win { seat, .. }) if seat == P1)
        {
            wins += 1;
        }
    }
    assert!(
        wins >= 15,
        "the search won {wins} of 30 against two random players"
    );
}

/// The instances of `seat`'s pack.
fn pack(game: &Game<'_>, seat: EntityId) -> Vec<EntityId> {
    let rules = game.rules();
    let set = rules.zones.as_ref().unwrap();
    let t = game.state().cards.as_deref().unwrap();
    let pile = t.pile(set, set.zone("pack").unwrap(), seat).unwrap();
    t.contents(pile).to_vec()
}

#[test]
fn packs_pass_whole_to_the_next_or_previous_seat_and_the_passer_still_knows_them() {
    for (way, from) in [(":next", 2), (":previous", 1)] {
        let (rules, deck) = draft_with(|t| t.replace(":to :next", &format!(":to {way}")));
        let mut game = Game::new(&rules, &deck, 9, Log::Keep).unwrap();
        let before: Vec<Vec<EntityId>> = EntityId::below(3).map(|s| pack(&game, s)).collect();
        for _ in 0..3 {
            game.act(game.play(0)).unwrap();
        }
        // Each seat picked its pack's first card; the rest went round, in order, ids kept.
        let giver = EntityId::new(from);
        assert_eq!(
            pack(&game, P1),
            before[giver.index()][1..].to_vec(),
            "{way}"
        );
        let set = rules.zones.as_ref().unwrap();
        let t = game.state().cards.as_deref().unwrap();
        let third = EntityId::new(3 - from);
        for &card in &pack(&game, P1) {
            assert!(t.sees(set, P1, card), "{way}: the receiver sees its pack");
            assert!(
                t.sees(set, giver, card),
                "{way}: the passer knows what it passed"
            );
            assert!(
                !t.sees(set, third, card),
                "{way}: the third seat never held it"
            );
        }
    }
}

#[test]
fn a_simultaneous_turn_runs_its_hooks_once_with_the_first_seat_s_roles_and_each_seat_draws() {
    let (rules, deck) = draft_with(|t| {
        t.replace(
            ":timings {:pass {:at :turn-end",
            ":timings {:bonus {:at :turn-start :doc \"a bonus\"} :pass {:at :turn-end",
        )
        .replace(
            ":hooks {:pass",
            ":hooks {:bonus [{:effected :you :resource :hoard :amount 10}] :pass",
        )
        .replace(
            ":capacity 5 :draws-from :deck",
            ":capacity 6 :draws-from :deck :draw-each-turn 1",
        )
    });
    let mut game = Game::new(&rules, &deck, 2, Log::Keep).unwrap();
    let hoard = rules.attribute("hoard").unwrap();
    let hoards = |g: &Game<'_>| -> Vec<i64> {
        EntityId::below(3)
            .map(|s| g.state().get(s, hoard))
            .collect()
    };
    assert_eq!(
        hoards(&game),
        [10, 0, 0],
        "the turn's start ran once, as p1's"
    );
    for seat in EntityId::below(3) {
        assert_eq!(
            game.hand_of(seat).len(),
            6,
            "dealt 5, and each seat's own draw"
        );
    }
    let coal = |g: &Game<'_>| {
        g.hand()
            .iter()
            .position(|&c| g.cards()[c.index()].name == "Coal")
    };
    // Each seat picks a card worth nothing where it has one, else its first.
    for _ in 0..3 {
        let at = coal(&game).unwrap_or(0);
        game.act(game.play(at)).unwrap();
    }
    assert_eq!(game.ctx().turn, 2);
    let after = hoards(&game);
    assert_eq!(after[0] - 10, 10 + picked_worth(&game, P1), "{after:?}");
    assert_eq!(after[1], picked_worth(&game, p2()), "{after:?}");
}

/// What the gems `seat` has drafted so far added to its hoard, without the set bonus.
fn picked_worth(game: &Game<'_>, seat: EntityId) -> i64 {
    let rules = game.rules();
    let set = rules.zones.as_ref().unwrap();
    let t = game.state().cards.as_deref().unwrap();
    let pile = t.pile(set, set.zone("drafted").unwrap(), seat).unwrap();
    t.defs(pile)
        .iter()
        .map(|c| match game.cards()[c.index()].name.as_str() {
            "Diamond" => 4,
            "Gold" => 2,
            "Coal" => 0,
            _ => 1,
        })
        .sum()
}
