//! What a simulation's games add up to: endings, lengths, each card's
//! counts and each declared metric's sums, all integer sums, so that sums of
//! any split of a run add up to the whole run's.

use serde::{Deserialize, Serialize};

use super::cardstats::Counts;
use super::metrics::MetricSums;
use crate::engine::{Game, Outcome};

fn none_aborted(aborted: &[u64; 5]) -> bool {
    aborted.iter().all(|&n| n == 0)
}

/// Sums over games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Wins per seat.
    pub wins: Vec<u64>,
    /// Losses per seat (`:victory [{… :loser :you}]`); empty, and absent
    /// from JSON, when the rule set has no condition a seat loses by.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<u64>,
    /// Games where both seats won at once.
    pub ties: u64,
    /// Games stopped by the turn limit.
    pub turn_limits: u64,
    /// Games stopped because the player to act had no action the AI could take.
    pub no_action: u64,
    /// Games stopped because the engine refused the action the AI chose.
    pub refused: u64,
    /// Games aborted because a step ran out of a budget, by budget (in the
    /// order of [`crate::eval::Exhausted::ALL`]); absent from JSON when none was.
    #[serde(default, skip_serializing_if = "none_aborted")]
    pub aborted: [u64; 5],
    /// Turns over all games.
    pub turns: u64,
    /// Squares of each game's turns, summed: the spread of game length.
    pub turns_sq: u128,
    /// Games by length: `lengths[t]` games lasted `t` turns.
    pub lengths: Vec<u64>,
    /// Each card's counts for each seat, at `seat * cards + card`.
    pub cards: Vec<Counts>,
    /// Each declared metric's sums, in the rule set's order; absent from
    /// JSON for a rule set without metrics.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<MetricSums>,
}

/// Why a simulated game stopped before the engine ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The player to act had nothing the AI could do.
    NoAction,
    /// The engine refused the action the AI chose.
    Refused,
}

impl Tally {
    /// Counts one finished or stopped game: its ending and its length. Returns
    /// the winning seat, if any.
    pub fn count(&mut self, game: &Game<'_>, stop: Option<Stop>) -> Option<usize> {
        self.turns += u64::from(game.ctx().turn);
        self.turns_sq += u128::from(game.ctx().turn) * u128::from(game.ctx().turn);
        let t = game.ctx().turn as usize;
        if self.lengths.len() <= t {
            self.lengths.resize(t + 1, 0);
        }
        self.lengths[t] += 1;
        self.games += 1;
        let ending = match (game.outcome(), stop) {
            (Some(Outcome::Win { seat, .. }), _) => {
                self.wins[seat.index()] += 1;
                return Some(seat.index());
            }
            (Some(Outcome::Loss { seat, .. }), _) => {
                if let Some(n) = self.losses.get_mut(seat.index()) {
                    *n += 1;
                }
                return None;
            }
            // Every seat out of play at once is a draw, as the log says.
            (Some(Outcome::Tie | Outcome::NobodyLeft), _) => &mut self.ties,
            (Some(Outcome::TurnLimit), _) => &mut self.turn_limits,
            (Some(Outcome::Aborted(why)), _) => &mut self.aborted[why.index()],
            (None, Some(Stop::NoAction) | None) => &mut self.no_action,
            (None, Some(Stop::Refused)) => &mut self.refused,
        };
        *ending += 1;
        None
    }

    /// An empty tally for `seats` seats and `cards` cards.
    pub fn new(seats: usize, cards: usize) -> Tally {
        Tally {
            wins: vec![0; seats],
            cards: vec![Counts::default(); seats * cards],
            ..Tally::default()
        }
    }

    /// This tally with empty sums for `metrics` metrics, for its seats and cards.
    pub fn with_metrics(mut self, metrics: usize, cards: usize) -> Tally {
        self.metrics = vec![MetricSums::new(self.wins.len(), cards); metrics];
        self
    }

    /// One game's metric `values` (`metric × seats + seat`) added in.
    pub fn count_metrics(&mut self, values: &[i64]) {
        let seats = self.wins.len().max(1);
        for (sums, values) in self.metrics.iter_mut().zip(values.chunks(seats)) {
            sums.count(values);
        }
    }

    /// An empty tally for a run of `rules` with `cards` cards: with a count
    /// of losses per seat when some condition makes a seat lose, and sums
    /// for each declared metric.
    pub fn for_rules(rules: &crate::check::rules::RuleSet, cards: usize) -> Tally {
        let seats = rules.seats.len();
        let losses = rules.victory.iter().any(|v| v.loses);
        Tally {
            losses: if losses { vec![0; seats] } else { Vec::new() },
            ..Tally::new(seats, cards)
        }
        .with_metrics(rules.metrics.len(), cards)
    }

    /// The sums of both.
    pub fn merge(mut self, other: Tally) -> Tally {
        let add = |a: &mut Vec<u64>, b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.wins, &other.wins);
        if self.losses.len() < other.losses.len() {
            self.losses.resize(other.losses.len(), 0);
        }
        add(&mut self.losses, &other.losses);
        self.cards
            .iter_mut()
            .zip(&other.cards)
            .for_each(|(a, b)| a.add(b));
        self.ties += other.ties;
        self.turn_limits += other.turn_limits;
        self.no_action += other.no_action;
        self.refused += other.refused;
        for (a, b) in self.aborted.iter_mut().zip(other.aborted) {
            *a += b;
        }
        self.turns += other.turns;
        self.turns_sq += other.turns_sq;
        if self.lengths.len() < other.lengths.len() {
            self.lengths.resize(other.lengths.len(), 0);
        }
        add(&mut self.lengths, &other.lengths);
        self.games += other.games;
        // An empty tally (a reduction's start) takes the other's metrics whole.
        if self.metrics.is_empty() {
            self.metrics = other.metrics;
        } else {
            for (a, b) in self.metrics.iter_mut().zip(&other.metrics) {
                a.merge(b);
            }
        }
        self
    }
}
