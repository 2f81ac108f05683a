//! The deduction game (issue 33, `rules/deduction.edn`): its computer
//! players beat the random one clearly, and they do not read hidden hands.
//! A Sentry's guess hits as often as the seat's view allows: every time when
//! the seat knows the opponent's card (a Confessor showed it, a Duelist or a
//! Regent exchanged it), and otherwise at the rate the cards it has not seen
//! give, not more.

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::view::{Seen, View, ZoneName};
use grimoire::engine::{Action, Game, Log, Outcome};
use grimoire::ids::EntityId;

use crate::common::wilson_low;

fn load() -> (RuleSet, Vec<Card>) {
    let mut rules = grimoire::files::load_rules("deduction").expect("the bundled rule set");
    let deck = grimoire::files::load_deck(&mut rules, &[])
        .expect("the bundled deck")
        .cards;
    (rules, deck)
}

/// One match of `policy` against random, `policy` in seat `seat`, watched
/// by `watch` before each of `policy`'s decisions; whether `policy` won.
fn play(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    policy: Policy,
    seat: usize,
    watch: &mut impl FnMut(&Game<'_>, Action),
) -> bool {
    let mut game = Game::new(rules, deck, seed, Log::Skip).expect("a game");
    let mut ai = Ai::new();
    while game.outcome().is_none() {
        let current = game.ctx().current;
        let mine = current.index() == seat;
        let chosen = ai.choose(&mut game, if mine { policy } else { Policy::Random });
        let Some(action) = chosen else { break };
        if mine {
            watch(&game, action);
        }
        game.act(action).expect("a legal move");
    }
    matches!(game.outcome(), Some(Outcome::Win { seat: s, .. }) if s.index() == seat)
}

/// Each card's rank, by card, as the rule set's header lists them.
fn ranks(deck: &[Card]) -> Vec<i64> {
    const RANKS: [&str; 8] = [
        "Sentry",
        "Confessor",
        "Duelist",
        "Chaperone",
        "Heir",
        "Regent",
        "Dowager",
        "Beloved",
    ];
    deck.iter()
        .map(|c| {
            1 + RANKS
                .iter()
                .position(|&n| n == c.name)
                .expect("a card of the court") as i64
        })
        .collect()
}

/// The card in `seat`'s hand as `view` shows it (the seat's own view: seen).
fn hand_of(rules: &RuleSet, view: &View, seat: EntityId) -> Vec<Seen> {
    let hand = rules
        .zones
        .as_ref()
        .and_then(|z| z.zone("hand"))
        .expect(":hand");
    view.zone(ZoneName::Zone(hand), Some(seat))
        .expect("a hand")
        .cards
        .clone()
}

/// The cards left in the deck, as `view` shows them.
fn deck_left(rules: &RuleSet, view: &View) -> usize {
    let deck = rules
        .zones
        .as_ref()
        .and_then(|z| z.zone("deck"))
        .expect(":deck");
    view.zone(ZoneName::Zone(deck), None).map_or(0, |z| z.len())
}

/// How many of each card `view`'s seat has not seen: the deck list's copies
/// less every card it sees wherever it lies.
fn unseen(deck: &[Card], view: &View) -> Vec<usize> {
    let mut left: Vec<usize> = deck.iter().map(|c| c.play.copies as usize).collect();
    for seen in view.zones.iter().flat_map(|z| &z.cards) {
        if let Some(c) = seen.card() {
            left[c.index()] -= 1;
        }
    }
    left
}

/// What a policy's Sentry guesses came to: with the target's card known,
/// and without (the hits, and the hits the unseen cards' counts predict,
/// with their variance).
#[derive(Default, Debug)]
struct Guesses {
    games: usize,
    wins: usize,
    known: usize,
    known_hits: usize,
    blind: usize,
    blind_hits: usize,
    expected: f64,
    variance: f64,
}

fn guesses(policy: Policy, games: u64) -> Guesses {
    let (rules, deck) = load();
    let rank = ranks(&deck);
    let by_option = |o: grimoire::ids::OptionId| -> i64 {
        let name = &rules.options[o];
        let card = deck
            .iter()
            .position(|c| c.name.to_lowercase() == *name)
            .expect("an option names a card");
        rank[card]
    };
    let mut g = Guesses::default();
    for seed in 1..=games {
        let seat = (seed % 2) as usize;
        let mut seen = Guesses::default();
        let won = play(&rules, &deck, seed, policy, seat, &mut |game, action| {
            let (Some(choice), Some(target)) = (action.choice, action.target) else {
                return;
            };
            let me = game.ctx().current;
            let view = game.view(me);
            let named = by_option(choice);
            // The truth, read from the target's own view (never the player's).
            let truth = hand_of(&rules, &game.view(target), target)[0]
                .card()
                .expect("seen by its owner");
            let hit = rank[truth.index()] == named;
            match hand_of(&rules, &view, target)[0] {
                // With the deck empty the round goes to the showdown as the
                // turn ends: a guess may not matter, and is not counted.
                Seen::Instance(known, _)
                    if rank[known.index()] != 1 && deck_left(&rules, &view) > 0 =>
                {
                    seen.known += 1;
                    seen.known_hits += usize::from(hit);
                }
                Seen::Hidden => {
                    let left = unseen(&deck, &view);
                    let total: usize = left.iter().sum();
                    let of_rank: usize = (0..deck.len())
                        .filter(|&c| rank[c] == named)
                        .map(|c| left[c])
                        .sum();
                    let p = of_rank as f64 / total as f64;
                    seen.blind += 1;
                    seen.blind_hits += usize::from(hit);
                    seen.expected += p;
                    seen.variance += p * (1.0 - p);
                }
                _ => {}
            }
        });
        g.games += 1;
        g.wins += usize::from(won);
        g.known += seen.known;
        g.known_hits += seen.known_hits;
        g.blind += seen.blind;
        g.blind_hits += seen.blind_hits;
        g.expected += seen.expected;
        g.variance += seen.variance;
    }
    g
}

/// `policy` against random over `games` matches (half in each seat): it
/// wins clearly (the 95 % interval's lower end above `least_rate`), and its
/// Sentry's guesses hit as its view allows.
fn assert_strong_and_fair(policy: Policy, games: u64, least_rate: f64, least: (usize, usize)) {
    let g = guesses(policy, games);
    let name = policy.name();
    eprintln!("{name}: {g:?}");
    let low = wilson_low(g.wins as f64 / g.games as f64, g.games as f64);
    assert!(
        low > least_rate,
        "{name} won {} of {} against random (95 % from {low:.3})",
        g.wins,
        g.games
    );
    assert!(
        g.blind >= least.0 && g.known >= least.1,
        "{name}: too few guesses: {g:?}"
    );
    // Knowing the card (the deck not yet empty), the guess names it (but
    // where no guess matters: a higher hand wins the round all the same).
    assert!(
        g.known_hits * 100 >= g.known * 95,
        "{name}: known cards missed: {g:?}"
    );
    // Not knowing it, the hits are what the unseen cards give: within three
    // standard deviations of their sum, and far below the known rate.
    let sd = g.variance.sqrt();
    let hits = g.blind_hits as f64;
    assert!(
        (hits - g.expected).abs() <= 3.0 * sd,
        "{name}: {} blind hits, the view allows {:.1} ± {:.1}: {g:?}",
        g.blind_hits,
        g.expected,
        3.0 * sd
    );
    assert!(
        hits / (g.blind as f64) < 0.5,
        "{name}: blind guesses hit too often: {g:?}"
    );
}

#[test]
fn greedy_beats_random_and_guesses_only_from_its_view() {
    assert_strong_and_fair(Policy::Greedy, 200, 0.8, (150, 20));
}

#[test]
fn search_beats_random_and_guesses_only_from_its_view() {
    // The search is slow unoptimised: fewer matches, still a clear interval.
    assert_strong_and_fair(Policy::Search, 24, 0.6, (20, 2));
}

#[test]
fn the_unseen_counts_are_the_deck_less_what_the_seat_sees() {
    let (rules, deck) = load();
    let game = Game::new(&rules, &deck, 1, Log::Skip).expect("a game");
    let left = unseen(&deck, &game.view(game.ctx().current));
    // 16 cards: the seat sees its two and the three face up; the other's
    // hand, the card set aside and the deck's nine are unseen.
    assert_eq!(left.iter().sum::<usize>(), 11);
}

#[test]
fn greedy_beats_two_random_players_with_three() {
    let (mut rules, deck) = load();
    rules.choose_players(3).expect("three of two to four");
    // The greedy seat moves round the table: p1, p2, p3 in turn.
    let games = 150u64;
    let wins = (1..=games)
        .filter(|&seed| {
            let seat = (seed % 3) as usize;
            play(&rules, &deck, seed, Policy::Greedy, seat, &mut |_, _| {})
        })
        .count();
    let low = wilson_low(wins as f64 / games as f64, games as f64);
    // A fair share is a third: greedy's is well above it.
    assert!(
        low > 0.6,
        "greedy won {wins} of {games} against two random players (95 % from {low:.3})"
    );
}
