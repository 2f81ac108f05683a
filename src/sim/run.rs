//! Seeded runs of many games: each game's seed from the run's seed and its
//! number alone, the games split into fixed chunks for the rayon pool, and a
//! run's share (`--shard K/N`) as a block of its games, so the sums are the
//! same whatever the thread count or the machines.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::cardstats::Counts;
use super::tally::{Stop, Tally};
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::engine::ai::{Ai, Policy};
use crate::engine::playout::{Computer, Ending, Observer, play_out};
use crate::engine::{Ability, Action, Game, Log};

/// Games run by one task: fixed, so the split never depends on the thread count.
const CHUNK: u64 = 256;

/// The games numbered `games`, in tasks of [`CHUNK`] for the rayon pool: the
/// same split wherever games are played in parallel.
pub(crate) fn chunks(games: Range<u64>) -> impl ParallelIterator<Item = Range<u64>> {
    let count = games.end.saturating_sub(games.start).div_ceil(CHUNK);
    (0..count).into_par_iter().map(move |c| {
        let start = games.start.saturating_add(c.saturating_mul(CHUNK));
        start..start.saturating_add(CHUNK).min(games.end)
    })
}

/// One process's share of a run (`--shard K/N`): the `index`th of `of`
/// blocks of consecutive games, numbered as in the whole run, so each game
/// has the seed it has there and the shards' sums add up to the run's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which share, from 1.
    pub index: u64,
    /// How many shares.
    pub of: u64,
}

impl Shard {
    /// Reads `K/N`, 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {text}: give K/N, the Kth of N shares, 1 ≤ K ≤ N (as 2/8)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let of: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || of == 0 || index > of {
            return Err(bad());
        }
        Ok(Shard { index, of })
    }

    /// The games (by number in the run, from 0) this share plays of a run of `games`.
    pub fn games(self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.of)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

/// The seed of game `i` of a run seeded `seed` (SplitMix64, so nearby games differ widely).
pub fn game_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One game's marks for each (seat, card), one bit each: in hand at a
/// decision, played; and the counts of plays and discards as they happen.
/// Bits, set without a branch, and read once a game.
struct Marks<'t> {
    /// The deck's size.
    n: usize,
    in_hand: Vec<u64>,
    played: Vec<u64>,
    cards: &'t mut [Counts],
}

impl Observer for Marks<'_> {
    type Stop = std::convert::Infallible;

    #[inline]
    fn deciding(&mut self, game: &Game<'_>) {
        let seat = (game.ctx().current).index();
        for &card in game.hand() {
            let k = seat * self.n + card.index();
            self.in_hand[k / 64] |= 1 << (k % 64);
        }
    }

    #[inline]
    fn chosen(&mut self, game: &mut Game<'_>, action: Action) {
        let seat = (game.ctx().current).index();
        match action.ability {
            Ability::Card(h) => {
                let k = seat * self.n + (game.hand()[usize::from(h)]).index();
                self.played[k / 64] |= 1 << (k % 64);
                self.cards[k].plays += 1;
                self.cards[k].play_turns += u64::from(game.ctx().turn);
            }
            Ability::Discard(h) => {
                self.cards[seat * self.n + (game.hand()[usize::from(h)]).index()].discards += 1;
            }
            Ability::Action(_)
            | Ability::EndTurn
            | Ability::Pass
            | Ability::Use(_)
            | Ability::Target => {}
        }
    }
}

/// Plays games `range` and sums them.
pub fn run_games(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    range: Range<u64>,
    ai_policies: &[Policy],
    done: &AtomicU64,
) -> Tally {
    play_games(rules, deck, seed, range, ai_policies, done, None)
}

/// [`run_games`], no game started once `stop` (if any) is set.
fn play_games(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    range: Range<u64>,
    ai_policies: &[Policy],
    done: &AtomicU64,
    stop: Option<&AtomicBool>,
) -> Tally {
    let seats = rules.seats.len();
    let metered = !rules.metrics.is_empty();
    let mut tally = Tally::for_rules(rules, deck.len());
    // Each game's metric values, `metric × seats + seat`.
    let mut values: Vec<i64> = Vec::new();
    let Ok(mut game) = Game::new(rules, deck, game_seed(seed, range.start), Log::Skip) else {
        return tally;
    };
    let mut ai = Ai::new();
    let n = deck.len();
    let words = (seats * n).div_ceil(64);
    // The card counts go to the observer, the endings stay with the tally, until the last game.
    let mut cards = std::mem::take(&mut tally.cards);
    let mut marks = Marks {
        n,
        in_hand: vec![0; words],
        played: vec![0; words],
        cards: &mut cards,
    };
    for i in range {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            break;
        }
        game.reset(game_seed(seed, i));
        let mut players = Computer {
            ai: &mut ai,
            policies: ai_policies,
        };
        let stop = match play_out(&mut game, &mut players, &mut marks) {
            Ending::Over => None,
            Ending::NoAction => Some(Stop::NoAction),
            Ending::Refused(..) => Some(Stop::Refused),
            Ending::Stopped(never) => match never {},
        };
        let winner = tally.count(&game, stop);
        if metered {
            game.metric_values(&mut values);
            tally.count_metrics(&values);
        }
        let words = marks.in_hand.iter_mut().zip(&mut marks.played);
        for (w, (hand_word, played_word)) in words.enumerate() {
            // A card played was in hand at that decision: its bit is in both.
            let mut bits = std::mem::take(hand_word);
            let plays = std::mem::take(played_word);
            while bits != 0 {
                let k = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let won = u64::from(winner == Some(k / n));
                let c = &mut marks.cards[k];
                c.in_hand += 1;
                c.in_hand_won += won;
                let played = plays & (1 << (k % 64)) != 0;
                if played {
                    c.played_games += 1;
                    c.played_games_won += won;
                }
                if metered {
                    // The holder's value of each metric, in the card's sums.
                    for (m, sums) in tally.metrics.iter_mut().enumerate() {
                        let v = i128::from(values[m * seats + k / n]);
                        sums.cards[k].in_hand.add(v);
                        if played {
                            sums.cards[k].played.add(v);
                        }
                    }
                }
            }
        }
        done.fetch_add(1, Ordering::Relaxed);
    }
    tally.cards = cards;
    // Every card's holder played every game: the not-seen rates need it.
    for (k, c) in tally.cards.iter_mut().enumerate() {
        c.games = tally.games;
        c.wins = tally.wins[k / n.max(1)];
    }
    tally
}

/// Runs `games` games on the current rayon pool.
pub fn run_all(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    games: u64,
    ai: &[Policy],
    done: &AtomicU64,
) -> Tally {
    run_range(rules, deck, seed, 0..games, ai, done)
}

/// Runs the games numbered `games` of a run seeded `seed` on the current
/// rayon pool: a shard's share of a run.
pub fn run_range(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    games: Range<u64>,
    ai: &[Policy],
    done: &AtomicU64,
) -> Tally {
    chunks(games)
        .map(|range| run_games(rules, deck, seed, range, ai, done))
        .reduce(|| Tally::for_rules(rules, deck.len()), Tally::merge)
}

/// [`run_range`] that a caller can interrupt (the Python package, on
/// Ctrl-C): once `stop` is set, the games under way finish and no other
/// starts, and the tally holds only the games played, for the caller to
/// drop.
pub fn run_range_until(
    rules: &RuleSet,
    deck: &[Card],
    seed: u64,
    games: Range<u64>,
    ai: &[Policy],
    done: &AtomicU64,
    stop: &AtomicBool,
) -> Tally {
    // Once stopped, the chunks not yet begun are passed over without a game made.
    chunks(games)
        .filter(|_| !stop.load(Ordering::Relaxed))
        .map(|range| play_games(rules, deck, seed, range, ai, done, Some(stop)))
        .reduce(|| Tally::for_rules(rules, deck.len()), Tally::merge)
}
