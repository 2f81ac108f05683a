//! The native Arcomage (`src/lib.rs`) plays exactly the games grimoire plays
//! with `rules/arcomage.edn` and `cards/arcomage/`: the same deck, the same
//! effects card by card, and on the same seeds the same moves, the same
//! ending in the same turn, the same final values, hands and draw pile.
//!
//! The games are seeded as `grimoire simulate` seeds them ([`game_seed`]);
//! `GRIMOIRE_NATIVE_GAMES` sets how many are compared move by move (10,000
//! unless set).

use std::sync::atomic::AtomicU64;

use grimoire::check::defs::Card;
use grimoire::check::rules::{BUNDLED, RuleSet};
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::playout::{self, Computer, play_out};
use grimoire::engine::{Game, GameEvent, Log, Outcome};
use grimoire::eval::{State, apply};
use grimoire::files;
use grimoire::ids::EntityId;
use grimoire::sim::{game_seed, run_games};
use grimoire_peers::{
    Arcomage, CARDS, CardId, Colour, Ending, HAND_SIZE, Player, RESOURCE_GOAL, Reason, Summary,
    TOWER_GOAL, TURN_LIMIT, Watch, apply_effects,
};
use rand::{RngExt, SeedableRng};

/// The attributes in the order [`values`] lists a player's.
const ATTRIBUTES: [&str; 8] = [
    "tower", "wall", "quarry", "bricks", "magic", "gems", "zoo", "beasts",
];

fn rules() -> RuleSet {
    RuleSet::bundled("arcomage").unwrap().unwrap()
}

/// The deck `simulate arcomage` plays: the library's own loader of the bundled deck.
fn deck(rules: &RuleSet) -> Vec<Card> {
    let deck = files::load_deck(&mut rules.clone(), &[]).expect("the bundled deck loads");
    deck.cards
}

fn values(p: &Player) -> [i64; 8] {
    [
        p.tower, p.wall, p.quarry, p.bricks, p.magic, p.gems, p.zoo, p.beasts,
    ]
    .map(i64::from)
}

fn player(v: [i64; 8]) -> Player {
    let v = v.map(|x| i32::try_from(x).unwrap());
    Player {
        tower: v[0],
        wall: v[1],
        quarry: v[2],
        bricks: v[3],
        magic: v[4],
        gems: v[5],
        zoo: v[6],
        beasts: v[7],
    }
}

fn grimoire_values(rules: &RuleSet, state: &State, seat: usize) -> [i64; 8] {
    ATTRIBUTES.map(|a| state.get(EntityId::new(seat), rules.attribute(a).unwrap()))
}

/// One move, as both games report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    Played(u8, CardId),
    Discarded(u8, CardId, bool),
    Passed(u8),
}

#[derive(Default)]
struct Moves(Vec<Move>);

impl Watch for Moves {
    fn played(&mut self, seat: u8, card: CardId) {
        self.0.push(Move::Played(seat, card));
    }
    fn discarded(&mut self, seat: u8, card: CardId, forced: bool) {
        self.0.push(Move::Discarded(seat, card, forced));
    }
    fn passed(&mut self, seat: u8) {
        self.0.push(Move::Passed(seat));
    }
}

fn grimoire_moves(log: &[GameEvent]) -> Vec<Move> {
    let seat = |s: EntityId| u8::try_from(s.index()).unwrap();
    let card = |c: grimoire::ids::CardId| CardId::try_from(c.index()).unwrap();
    log.iter()
        .filter_map(|e| match *e {
            GameEvent::Played { seat: s, card: c, .. } => Some(Move::Played(seat(s), card(c))),
            GameEvent::Discarded {
                seat: s,
                card: c,
                forced,
            } => Some(Move::Discarded(seat(s), card(c), forced)),
            GameEvent::Passed { seat: s } => Some(Move::Passed(seat(s))),
            _ => None,
        })
        .collect()
}

fn native_ending(outcome: Outcome) -> Option<Ending> {
    Some(match outcome {
        Outcome::Win { seat, reason } => Ending::Won {
            seat: u8::try_from(seat.index()).unwrap(),
            reason: match reason {
                0 => Reason::BuiltTower,
                1 => Reason::GatheredResources,
                2 => Reason::DestroyedTower,
                _ => return None,
            },
        },
        Outcome::Tie => Ending::Tie,
        Outcome::TurnLimit => Ending::TurnLimit,
        // The native game has no budgets, nor a seat that loses without
        // another winning: Arcomage never comes near either.
        Outcome::NobodyLeft | Outcome::Aborted(_) | Outcome::Loss { .. } => return None,
    })
}

/// The type check that matters most: the native game's generator is grimoire's.
#[test]
fn the_generator_is_grimoires() {
    let same: fn(grimoire::eval::Rng) -> grimoire_peers::Rng = |rng| rng;
    let mut a = same(grimoire::eval::Rng::seed_from_u64(5));
    let mut b = grimoire_peers::Rng::seed_from_u64(5);
    assert_eq!(a.random::<u64>(), b.random::<u64>());
}

#[test]
fn the_deck_is_grimoires_card_for_card() {
    let rules = rules();
    let deck = deck(&rules);
    assert_eq!(deck.len(), CARDS.len());
    for (id, (g, n)) in deck.iter().zip(&CARDS).enumerate() {
        let colour = match n.colour {
            Colour::Bricks => "bricks",
            Colour::Gems => "gems",
            Colour::Beasts => "beasts",
        };
        assert_eq!(g.name, n.name, "card {id}");
        assert_eq!(g.play.pay_with, rules.attribute(colour), "{}", n.name);
        assert_eq!(g.play.cost, i64::from(n.cost), "{}", n.name);
        assert_eq!(g.play.play_again, n.play_again, "{}", n.name);
        assert_eq!(g.play.discardable, n.discardable, "{}", n.name);
        let (draw, discard) = if n.draw_and_discard { (1, 1) } else { (0, 0) };
        assert_eq!((g.play.draw, g.play.discard), (draw, discard), "{}", n.name);
        assert_eq!(g.play.copies, 1, "{}", n.name);
        assert!(!g.play.once, "{}", n.name);
    }
}

#[test]
fn the_starting_values_and_limits_are_grimoires() {
    let rules = rules();
    let state = State::new(&rules, 2, 0);
    for seat in 0..2 {
        assert_eq!(
            grimoire_values(&rules, &state, seat),
            values(&Player::START)
        );
    }
    assert_eq!(rules.param("tower-goal"), Some(i64::from(TOWER_GOAL)));
    assert_eq!(rules.param("resource-goal"), Some(i64::from(RESOURCE_GOAL)));
    assert_eq!(rules.turn_limit, TURN_LIMIT);
    assert_eq!(rules.cards.as_ref().map(|c| c.hand_size), Some(HAND_SIZE));
    assert_eq!(rules.seats.len(), 2);
}

/// Every card's effects, on states chosen to reach each card's branches and
/// bounds (walls and resources at and near 0, producers at 1, equal values),
/// played by each seat, give what grimoire's effects give.
#[test]
fn every_card_does_what_grimoires_effects_do() {
    let rules = rules();
    let deck = deck(&rules);
    let mut rng = grimoire_peers::Rng::seed_from_u64(11);
    let mut state = State::new(&rules, 2, 0);
    let mut events = Vec::new();
    let pick = |rng: &mut grimoire_peers::Rng, hi: i64, lo: i64| -> i64 {
        // One draw in four a bound or a small value, where the clamps and tests turn.
        match rng.random_range(0..8) {
            0 => lo,
            1 => lo + 1,
            2 => rng.random_range(lo..=lo + 3),
            _ => rng.random_range(lo..=hi),
        }
    };
    let mut states = 0;
    for round in 0..2_000 {
        let mut players = [[0i64; 8]; 2];
        for p in &mut players {
            for (i, v) in p.iter_mut().enumerate() {
                let producer = matches!(i, 2 | 4 | 6);
                *v = if producer {
                    pick(&mut rng, 6, 1)
                } else {
                    pick(&mut rng, 45, 0)
                };
            }
        }
        // Now and then equal values, for the cards that compare the two players.
        if round % 5 == 0 {
            let i = rng.random_range(0..8);
            players[1][i] = players[0][i];
        }
        if round % 7 == 0 {
            players[1][1] = players[0][0];
        }
        for (id, card) in deck.iter().enumerate() {
            for you in 0..2usize {
                let roles = [EntityId::new(you), EntityId::new(1 - you)];
                for (seat, v) in players.iter().enumerate() {
                    for (a, &x) in ATTRIBUTES.iter().zip(v) {
                        state.put(EntityId::new(seat), rules.attribute(a).unwrap(), x);
                    }
                }
                events.clear();
                apply(&rules, &card.effects, &mut state, &roles, &mut events);
                let mut native = players.map(player);
                let [first, second] = &mut native;
                let (me, them) = if you == 0 {
                    (first, second)
                } else {
                    (second, first)
                };
                apply_effects(id as CardId, me, them);
                for (seat, p) in native.iter().enumerate() {
                    assert_eq!(
                        values(p),
                        grimoire_values(&rules, &state, seat),
                        "{} played by seat {you} on {players:?}: seat {seat} ({ATTRIBUTES:?})",
                        card.name
                    );
                }
                states += 1;
            }
        }
    }
    assert_eq!(states, 2_000 * 102 * 2);
}

/// Game by game: the same moves, ending, turn count, final values, hands and
/// draw pile. Grimoire is driven as `simulate` drives it (`run_games`).
#[test]
fn seeded_games_line_up_move_for_move() {
    let games: u64 = std::env::var("GRIMOIRE_NATIVE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let rules = rules();
    let seen = line_up(&rules, &mut Arcomage::new(), 2024, games);
    eprintln!(
        "{games} games line up move for move: {} plays, {} forced discards, {} passes; \
         seat wins {:?}, ties {}, turn limits {}, mean length {:.2} turns",
        seen.plays,
        seen.forced,
        seen.passes,
        seen.summary.wins,
        seen.summary.ties,
        seen.summary.turn_limits,
        seen.summary.turns as f64 / seen.summary.games as f64
    );
    // The games must reach what the rules allow, or the comparison proves less than it seems.
    assert!(seen.plays > 0 && seen.forced > 0);
    assert!(seen.summary.wins[0] > 0 && seen.summary.wins[1] > 0 && seen.summary.ties > 0);
}

/// Random games never last 1,000 turns; with a limit of 40 many end there,
/// and they line up too.
#[test]
fn games_stopped_by_the_turn_limit_line_up() {
    let text = BUNDLED.iter().find(|(n, _)| *n == "arcomage").unwrap().1;
    let short = text.replace(":turns {:limit 1000}", ":turns {:limit 40}");
    assert_ne!(short, text, "the rule set's turn limit moved");
    let rules = RuleSet::parse(&short).unwrap();
    let seen = line_up(&rules, &mut Arcomage::with_turn_limit(40), 7, 2_000);
    assert!(seen.summary.turn_limits > 100, "{:?}", seen.summary);
    assert!(seen.summary.wins[0] + seen.summary.wins[1] > 100);
}

/// What [`line_up`] saw.
struct Seen {
    summary: Summary,
    plays: u64,
    forced: u64,
    passes: u64,
}

/// Plays games `0..games` of a run seeded `run_seed` both ways, asserting
/// they are the same game.
fn line_up(rules: &RuleSet, native: &mut Arcomage, run_seed: u64, games: u64) -> Seen {
    let deck = deck(rules);
    let mut game = Game::new(rules, &deck, 0, Log::Keep).unwrap();
    let mut ai = Ai::new();
    let mut moves = Moves::default();
    let mut seen = Seen {
        summary: Summary::default(),
        plays: 0,
        forced: 0,
        passes: 0,
    };
    for i in 0..games {
        let seed = game_seed(run_seed, i);
        game.reset(seed);
        let mut players = Computer {
            ai: &mut ai,
            policies: &[Policy::Random],
        };
        let ending = play_out(&mut game, &mut players, &mut ());
        assert_eq!(
            ending,
            playout::Ending::Over,
            "the random policy always has a legal move"
        );
        moves.0.clear();
        let result = native.play(seed, &mut moves);
        seen.summary.count(result);

        let expected = grimoire_moves(game.log().unwrap());
        if let Some(at) = expected.iter().zip(&moves.0).position(|(a, b)| a != b) {
            panic!(
                "game {i} (seed {seed:#x}): move {at} is {:?} in grimoire, {:?} natively",
                expected[at], moves.0[at]
            );
        }
        assert_eq!(expected.len(), moves.0.len(), "game {i}: number of moves");
        let outcome = game.outcome().unwrap();
        assert_eq!(native_ending(outcome), Some(result.ending), "game {i}");
        assert_eq!(game.ctx().turn, result.turns, "game {i}: turns");
        for seat in 0..2 {
            assert_eq!(
                grimoire_values(rules, game.state(), seat),
                values(&native.players()[seat]),
                "game {i}: seat {seat}'s values"
            );
            let hand: Vec<CardId> = game
                .hand_of(EntityId::new(seat))
                .iter()
                .map(|&c| CardId::try_from(c.index()).unwrap())
                .collect();
            assert_eq!(hand, native.hand(seat), "game {i}: seat {seat}'s hand");
        }
        assert_eq!(
            game.draw_pile_len(),
            native.draw_pile_len(),
            "game {i}: draw pile"
        );
        for m in &moves.0 {
            match m {
                Move::Played(..) => seen.plays += 1,
                Move::Discarded(_, _, true) => seen.forced += 1,
                Move::Passed(_) => seen.passes += 1,
                Move::Discarded(..) => {}
            }
        }
    }
    seen
}

/// What the bench times on both sides plays the same games: `run_games`'s
/// tally and the native summary agree over the same seeds.
#[test]
fn the_benched_runs_agree() {
    let rules = rules();
    let deck = deck(&rules);
    let done = AtomicU64::new(0);
    for run_seed in [1u64, 2, 3] {
        let n = 2_000;
        let tally = run_games(&rules, &deck, run_seed, 0..n, &[Policy::Random], &done);
        let summary = Arcomage::new().run((0..n).map(|i| game_seed(run_seed, i)));
        assert_eq!(tally.games, summary.games);
        assert_eq!(tally.wins, summary.wins);
        assert_eq!(tally.ties, summary.ties);
        assert_eq!(tally.turn_limits, summary.turn_limits);
        assert_eq!(tally.turns, summary.turns);
        assert_eq!(tally.no_action + tally.refused, 0);
    }
}
