//! Two decks played on the same seeds, compared: what changed in the seat
//! win rates, the game length, the declared metrics and each card's
//! figures, with 95 % intervals for every difference (what `simulate
//! --versus-cards` shows).
//!
//! The two runs share seeds but not games (a changed card changes every draw
//! after it), so the intervals treat them as independent samples: cautious.

use super::cardstats::{Counts, Difference, Figures, Rate};
use super::metrics::{CardMetric, Mean, MeanDifference};
use super::tally::Tally;
use crate::check::defs::Card;
use crate::check::rules::RuleSet;

/// One deck's run.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    /// Its cards.
    pub deck: &'a [Card],
    /// What its games added up to.
    pub tally: &'a Tally,
}

/// A difference of means and its 95 % interval (Welch's normal approximation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanChange {
    /// The mean of A.
    pub a: f64,
    /// The mean of B.
    pub b: f64,
    /// Lower end of the interval of B − A.
    pub low: f64,
    /// Upper end of the interval of B − A.
    pub high: f64,
}

impl MeanChange {
    /// The change in mean game length from `a` to `b`.
    pub fn of(a: &Tally, b: &Tally) -> MeanChange {
        let stats = |t: &Tally| {
            let n = t.games.max(1) as f64;
            let mean = t.turns as f64 / n;
            let var = (t.turns_sq as f64 / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
            (mean, var / n)
        };
        let ((ma, va), (mb, vb)) = (stats(a), stats(b));
        let half = 1.959_963_984_540_054 * (va + vb).sqrt();
        MeanChange {
            a: ma,
            b: mb,
            low: mb - ma - half,
            high: mb - ma + half,
        }
    }

    /// Whether the interval leaves out 0.
    pub fn significant(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// A seat's win rate with each deck, and the change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatChange {
    /// Its win rate with deck A.
    pub a: Rate,
    /// Its win rate with deck B.
    pub b: Rate,
    /// B − A.
    pub change: Difference,
}

/// One card's figures in each deck (`None` where the deck lacks it), and
/// the change in its in-hand win rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardComparison<'a> {
    /// The card's name.
    pub name: &'a str,
    /// Its figures with deck A.
    pub a: Option<Figures>,
    /// Its figures with deck B.
    pub b: Option<Figures>,
    /// B − A of its in-hand win rate, when both decks hold it.
    pub change: Option<Difference>,
}

/// What changed from deck A to deck B.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison<'a> {
    /// Each seat's win rates, in seat order.
    pub seats: Vec<SeatChange>,
    /// Each seat's loss rates (`:loser`), in seat order; none for a rule
    /// set where no seat loses.
    pub losses: Vec<SeatChange>,
    /// The mean game length.
    pub length: MeanChange,
    /// Every card of either deck: significant changes first, then the
    /// largest; cards in one deck only last.
    pub cards: Vec<CardComparison<'a>>,
    /// Each declared metric, in the rule set's order (none without).
    pub metrics: Vec<MetricChange>,
}

/// A card's counts in a deck, summed over seats; `None` if the deck lacks it.
fn card_counts(side: &Side<'_>, seats: usize, name: &str) -> Option<Counts> {
    let n = side.deck.len();
    let c = side.deck.iter().position(|card| card.name == name)?;
    let mut sum = Counts::default();
    for s in 0..seats {
        sum.add(&side.tally.cards[s * n + c]);
    }
    Some(sum)
}

impl<'a> Comparison<'a> {
    /// Compares `b` with `a`, runs of `seats` seats.
    pub fn new(seats: usize, a: &Side<'a>, b: &Side<'a>) -> Comparison<'a> {
        let change = |na: u64, nb: u64| {
            let ra = Rate::wilson(na, a.tally.games);
            let rb = Rate::wilson(nb, b.tally.games);
            SeatChange {
                a: ra,
                b: rb,
                change: Difference::between(rb, ra),
            }
        };
        let seat_changes = (0..seats)
            .map(|s| change(a.tally.wins[s], b.tally.wins[s]))
            .collect();
        let losses = a
            .tally
            .losses
            .iter()
            .zip(&b.tally.losses)
            .map(|(&na, &nb)| change(na, nb))
            .collect();
        // Every card of either deck, in A's order, then B's new ones.
        let mut names: Vec<&'a str> = a.deck.iter().map(|c| c.name.as_str()).collect();
        for c in b.deck {
            if !names.contains(&c.name.as_str()) {
                names.push(&c.name);
            }
        }
        let mut cards: Vec<CardComparison<'a>> = names
            .into_iter()
            .map(|name| {
                let fa = card_counts(a, seats, name).map(|c| c.figures());
                let fb = card_counts(b, seats, name).map(|c| c.figures());
                let change = match (fa, fb) {
                    (Some(x), Some(y)) => Some(Difference::between(y.in_hand, x.in_hand)),
                    _ => None,
                };
                CardComparison {
                    name,
                    a: fa,
                    b: fb,
                    change,
                }
            })
            .collect();
        // Significant changes first, then the largest; cards in one deck last.
        cards.sort_by(|x, y| {
            let key = |c: &CardComparison<'_>| {
                c.change
                    .map_or((0, 0.0), |d| (u8::from(d.significant()), d.value.abs()))
            };
            let (kx, ky) = (key(x), key(y));
            ky.0.cmp(&kx.0).then(ky.1.total_cmp(&kx.1))
        });
        Comparison {
            seats: seat_changes,
            losses,
            length: MeanChange::of(a.tally, b.tally),
            cards,
            metrics: Vec::new(),
        }
    }

    /// This comparison with `rules`' metrics compared too (`a` and `b` its
    /// sides): overall, per seat, and each card's in-hand mean.
    pub fn with_metrics(mut self, rules: &RuleSet, a: &Side<'_>, b: &Side<'_>) -> Comparison<'a> {
        let seats = rules.seats.len();
        self.metrics = rules
            .metrics
            .iter()
            .enumerate()
            .filter_map(|(m, metric)| {
                let (sa, sb) = (a.tally.metrics.get(m)?, b.tally.metrics.get(m)?);
                let overall = MeanPair::new(
                    Mean::of(&sa.overall, a.tally.games, seats as u64),
                    Mean::of(&sb.overall, b.tally.games, seats as u64),
                );
                let per_seat = sa
                    .seats
                    .iter()
                    .zip(&sb.seats)
                    .map(|(x, y)| {
                        MeanPair::new(Mean::of(x, a.tally.games, 1), Mean::of(y, b.tally.games, 1))
                    })
                    .collect();
                let cards = self
                    .cards
                    .iter()
                    .map(|c| {
                        let in_hand = |side: &Side<'_>, sums| {
                            let n = side.deck.len();
                            let i = side.deck.iter().position(|card| card.name == c.name)?;
                            let counts: Vec<Counts> = (0..seats)
                                .map(|s| {
                                    side.tally.cards.get(s * n + i).copied().unwrap_or_default()
                                })
                                .collect();
                            Some(CardMetric::of(sums, &counts, i, n, side.tally.games).in_hand)
                        };
                        match (in_hand(a, sa), in_hand(b, sb)) {
                            (Some(x), Some(y)) => Some(MeanPair::new(x, y)),
                            _ => None,
                        }
                    })
                    .collect();
                Some(MetricChange {
                    name: metric.name.clone(),
                    overall,
                    seats: per_seat,
                    cards,
                })
            })
            .collect();
        self
    }
}

/// A mean with deck A and with deck B, and B − A with Welch's interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanPair {
    /// With deck A.
    pub a: Mean,
    /// With deck B.
    pub b: Mean,
    /// B − A.
    pub change: MeanDifference,
}

impl MeanPair {
    /// `a` and `b`, and the change from one to the other.
    pub fn new(a: Mean, b: Mean) -> MeanPair {
        MeanPair {
            a,
            b,
            change: MeanDifference::between(&b, &a),
        }
    }
}

/// One metric compared between the two decks.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricChange {
    /// Its name.
    pub name: String,
    /// Its mean over the games (each game's seats' mean).
    pub overall: MeanPair,
    /// Each seat's mean, in seat order.
    pub seats: Vec<MeanPair>,
    /// For each card of [`Comparison::cards`], in that order, the holder's
    /// mean in games it was in hand; `None` for a card one deck lacks.
    pub cards: Vec<Option<MeanPair>>,
}
