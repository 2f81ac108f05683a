//! A run's figures as `simulate` shows them: seat win rates, endings, mean
//! length and each card's figures, in the order asked. [`RunFigures`] is the
//! one result the CLI prints its table, CSV and JSON from, and the Python
//! package builds its dictionaries from; its JSON is its serde form.

use serde::Serialize;
use serde::ser::SerializeMap;

use super::cardstats::{Counts, Figures};
use super::metrics::{CardMetric, Mean};
use super::tally::Tally;
use crate::check::defs::Card;
use crate::check::rules::RuleSet;

/// The columns rows can be sorted by: the per-card ones (explained in
/// `simulate --help`), and `deck` for deck order.
pub fn sort_columns() -> Vec<&'static str> {
    vec![
        "card",
        "in_hand",
        "played",
        "played_games",
        "not_seen_games",
        "discarded",
        "play_rate",
        "in_hand_wr",
        "played_wr",
        "not_seen_wr",
        "improvement",
        "mean_turn",
        "deck",
    ]
}

/// The column rows are sorted by when none is asked.
pub const DEFAULT_SORT: &str = "improvement";

/// `part` over `whole`, 0 when `whole` is.
pub fn rate(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Each card's counts (for `seat`, or summed over seats) and figures, in the
/// order `sort` asks: highest first, ties in deck order; `card` by name,
/// `deck` as dealt. Each row starts with the card's place in the deck.
pub fn card_rows(
    deck: &[Card],
    t: &Tally,
    seats: usize,
    seat: Option<usize>,
    sort: &str,
) -> Vec<(usize, Counts, Figures)> {
    let n = deck.len();
    let mut rows: Vec<(usize, Counts, Figures)> = (0..n)
        .map(|c| {
            let mut sum = Counts::default();
            for s in (0..seats).filter(|&s| seat.is_none_or(|x| x == s)) {
                sum.add(&t.cards[s * n + c]);
            }
            (c, sum, sum.figures())
        })
        .collect();
    let key = |(_, c, f): &(usize, Counts, Figures)| -> f64 {
        match sort {
            "in_hand" => c.in_hand as f64,
            "played" => c.plays as f64,
            "played_games" => c.played_games as f64,
            "not_seen_games" => f.not_seen.n as f64,
            "discarded" => c.discards as f64,
            "play_rate" => f.play_rate.value,
            "in_hand_wr" => f.in_hand.value,
            "played_wr" => f.played.value,
            "not_seen_wr" => f.not_seen.value,
            "mean_turn" => f.mean_turn,
            _ => f.improvement.value,
        }
    };
    match sort {
        "deck" => {}
        "card" => rows.sort_by(|a, b| deck[a.0].name.cmp(&deck[b.0].name).then(a.0.cmp(&b.0))),
        _ => rows.sort_by(|a, b| key(b).total_cmp(&key(a)).then(a.0.cmp(&b.0))),
    }
    rows
}

/// A digest of the rule set's name, seats and metrics and every card of the
/// deck as checked, so that shards played with different decks or measured
/// otherwise are not merged.
pub fn fingerprint(rules: &RuleSet, deck: &[Card]) -> String {
    let mut text = format!("{:?} {:?} {deck:?}", rules.name, rules.seats);
    // The metrics only where there are some: a digest without stays as it was.
    if !rules.metrics.is_empty() {
        text.push_str(&format!(" {:?}", rules.metrics));
    }
    // Shards of different encounters are different runs.
    if let Some(e) = rules.encounters.get(rules.encounter) {
        text.push_str(&format!(" encounter {:?}", e.name));
    }
    // FNV-1a: stable across builds and platforms, unlike std's hasher.
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// What a run played: the rule set, the deck and what it is, the seats'
/// policies and the seed.
#[derive(Clone, Copy, Debug)]
pub struct Played<'a> {
    /// The rule set.
    pub rules: &'a RuleSet,
    /// The deck's cards.
    pub deck: &'a [Card],
    /// Where the deck came from ("the bundled arcomage deck").
    pub source: &'a str,
    /// Where the rule set came from, when a project's ("arcomage of project
    /// x (rules/arcomage.edn), not the bundled one"); `None` for a bundled one.
    pub rules_from: Option<&'a str>,
    /// The changes made to its cards, as written (`Dragon:cost=24`).
    pub changes: &'a [String],
    /// Each seat's policy's name.
    pub policies: &'a [String],
    /// The run's seed.
    pub seed: u64,
}

/// A run's figures, every rate out of the games counted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunFigures {
    /// The rule set's name.
    pub rules: String,
    /// Where it came from, when a project's (none: left out of the JSON):
    /// the name alone does not say when a project's rule set shadows a
    /// bundled one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules_from: Option<String>,
    /// The encounter the games were set up as, for a rule set with `:encounters`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter: Option<String>,
    /// The deck played.
    pub deck: DeckFacts,
    /// Games counted.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Each seat's computer player (its policy's name), in seat order: the
    /// figures depend on who played, so the JSON says it at the top.
    pub ai: Vec<String>,
    /// Each seat's wins.
    pub seats: Vec<SeatFigures>,
    /// Games tied.
    pub ties: u64,
    /// Games stopped by the turn limit.
    pub turn_limits: u64,
    /// Games stopped with nothing the AI could do.
    pub no_action: u64,
    /// Games stopped by the engine refusing the AI's choice.
    pub refused: u64,
    /// Games aborted by a budget running out, by budget word (`work`,
    /// `statuses`); absent when none was.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aborted: Vec<(String, u64)>,
    /// Turns per game.
    pub mean_turns: f64,
    /// Each card's figures, in the order asked.
    pub cards: Vec<CardFigures>,
    /// Each declared metric's figures, in the rule set's order; absent from
    /// the JSON for a rule set without metrics (there, an object by name).
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "metrics_by_name"
    )]
    pub metrics: Vec<MetricFigures>,
}

/// The deck a run played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeckFacts {
    /// Where it came from.
    pub source: String,
    /// Its different cards.
    pub cards: usize,
    /// Its cards, every copy counted.
    pub copies: u64,
    /// The changes made to its cards (none: left out of the JSON).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
}

/// One seat's wins.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatFigures {
    /// The seat's name.
    pub seat: String,
    /// Its policy's name.
    pub ai: String,
    /// Games it won.
    pub wins: u64,
    /// Its wins over the games counted.
    pub win_rate: f64,
    /// Games it lost (`:loser`), when the rule set says how a seat loses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losses: Option<u64>,
}

/// One card's counts and figures over every seat, and for each seat.
#[derive(Clone, Debug, PartialEq)]
pub struct CardFigures {
    /// The card's name.
    pub card: String,
    /// Its place in the deck.
    pub index: usize,
    /// Its counts over every seat.
    pub counts: Counts,
    /// Its figures over every seat.
    pub figures: Figures,
    /// Its counts and figures for each seat, in seat order.
    pub seats: Vec<SeatCardFigures>,
}

/// One card's counts and figures for one seat.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatCardFigures {
    /// The seat's name.
    pub seat: String,
    /// The card's counts in that seat's games.
    pub counts: Counts,
    /// The figures they give.
    pub figures: Figures,
}

impl RunFigures {
    /// The figures of `tally`, a run of what `played` says, its cards in the
    /// order `sort` asks (a column of [`sort_columns`]).
    pub fn new(played: &Played<'_>, tally: &Tally, sort: &str) -> RunFigures {
        let (rules, deck) = (played.rules, played.deck);
        let games = tally.games;
        let n = rules.seats.len();
        let seats = rules
            .seats
            .iter()
            .enumerate()
            .map(|(s, name)| SeatFigures {
                seat: name.clone(),
                ai: played.policies[s].to_string(),
                wins: tally.wins[s],
                win_rate: rate(tally.wins[s], games),
                losses: tally.losses.get(s).copied(),
            })
            .collect();
        let by_seat: Vec<Vec<(usize, Counts, Figures)>> = (0..n)
            .map(|s| card_rows(deck, tally, n, Some(s), "deck"))
            .collect();
        let cards = card_rows(deck, tally, n, None, sort)
            .into_iter()
            .map(|(c, counts, figures)| CardFigures {
                card: deck[c].name.clone(),
                index: c,
                counts,
                figures,
                seats: rules
                    .seats
                    .iter()
                    .zip(&by_seat)
                    .map(|(seat, rows)| SeatCardFigures {
                        seat: seat.clone(),
                        counts: rows[c].1,
                        figures: rows[c].2,
                    })
                    .collect(),
            })
            .collect();
        RunFigures {
            rules: rules.name.clone(),
            rules_from: played.rules_from.map(str::to_string),
            encounter: rules
                .encounters
                .get(rules.encounter)
                .map(|e| e.name.clone()),
            deck: DeckFacts {
                source: played.source.to_string(),
                cards: deck.len(),
                copies: deck.iter().map(|c| u64::from(c.play.copies)).sum(),
                changes: played.changes.to_vec(),
            },
            games,
            seed: played.seed,
            ai: played.policies.iter().map(ToString::to_string).collect(),
            seats,
            ties: tally.ties,
            turn_limits: tally.turn_limits,
            no_action: tally.no_action,
            refused: tally.refused,
            aborted: crate::eval::Exhausted::ALL
                .iter()
                .filter(|why| tally.aborted[why.index()] > 0)
                .map(|why| (why.word().to_string(), tally.aborted[why.index()]))
                .collect(),
            mean_turns: rate(tally.turns, games),
            metrics: Vec::new(),
            cards,
        }
        .with_metrics(rules, tally, sort)
    }
}

/// A card's counts and figures as JSON fields: `in_hand`, `played`,
/// `played_games`, `discarded`, the rates, `improvement` and `mean_turn`.
fn figure_fields<M: SerializeMap>(map: &mut M, c: &Counts, f: &Figures) -> Result<(), M::Error> {
    map.serialize_entry("in_hand", &c.in_hand)?;
    map.serialize_entry("played", &c.plays)?;
    map.serialize_entry("played_games", &c.played_games)?;
    map.serialize_entry("discarded", &c.discards)?;
    map.serialize_entry("play_rate", &f.play_rate)?;
    map.serialize_entry("in_hand_wr", &f.in_hand)?;
    map.serialize_entry("played_wr", &f.played)?;
    map.serialize_entry("not_seen_wr", &f.not_seen)?;
    map.serialize_entry("improvement", &f.improvement)?;
    map.serialize_entry("mean_turn", &f.mean_turn)
}

/// The figures' fields, then `card` and `seats`.
impl Serialize for CardFigures {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        figure_fields(&mut map, &self.counts, &self.figures)?;
        map.serialize_entry("card", &self.card)?;
        map.serialize_entry("seats", &self.seats)?;
        map.end()
    }
}

/// The figures' fields, then `seat`.
impl Serialize for SeatCardFigures {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        figure_fields(&mut map, &self.counts, &self.figures)?;
        map.serialize_entry("seat", &self.seat)?;
        map.end()
    }
}

/// The metric `sort` names, if it names one and no per-card column: `NAME`
/// or `metric:NAME`, sorted by its improvement when drawn.
pub fn metric_sort(rules: &RuleSet, sort: &str) -> Option<usize> {
    if sort_columns().contains(&sort) {
        return None;
    }
    let name = sort.strip_prefix("metric:").unwrap_or(sort);
    rules.metrics.iter().position(|m| m.name == name)
}

/// One declared metric's figures: its mean over the games (each game's
/// seats' mean), each seat's, and each card's as the win rates are.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricFigures {
    /// Its name.
    pub name: String,
    /// What it measures.
    pub doc: String,
    /// Its mean over the games, each game's value the mean of its seats'.
    pub overall: Mean,
    /// Each seat's mean, in seat order, by the seat's name.
    pub seats: Vec<(String, Mean)>,
    /// Each card's name and figures (over every seat), in the order of [`RunFigures::cards`].
    pub cards: Vec<(String, CardMetric)>,
}

impl RunFigures {
    /// These figures with the rule set's metrics worked out from `tally`,
    /// the cards sorted by a metric's improvement if `sort` names one.
    fn with_metrics(mut self, rules: &RuleSet, tally: &Tally, sort: &str) -> RunFigures {
        let seats = rules.seats.len();
        let n = self.deck.cards;
        let games = tally.games;
        let counts = |c: usize| -> Vec<Counts> {
            (0..seats)
                .map(|s| tally.cards.get(s * n + c).copied().unwrap_or_default())
                .collect()
        };
        self.metrics = rules
            .metrics
            .iter()
            .zip(&tally.metrics)
            .map(|(metric, sums)| MetricFigures {
                name: metric.name.clone(),
                doc: metric.doc.clone(),
                overall: Mean::of(&sums.overall, games, seats as u64),
                seats: rules
                    .seats
                    .iter()
                    .zip(&sums.seats)
                    .map(|(seat, s)| (seat.clone(), Mean::of(s, games, 1)))
                    .collect(),
                cards: self
                    .cards
                    .iter()
                    .map(|c| {
                        let figures = CardMetric::of(sums, &counts(c.index), c.index, n, games);
                        (c.card.clone(), figures)
                    })
                    .collect(),
            })
            .collect();
        if let Some(m) = metric_sort(rules, sort).filter(|&m| m < self.metrics.len()) {
            let mut order: Vec<usize> = (0..self.cards.len()).collect();
            let metric = &self.metrics[m];
            let key = |i: usize| metric.cards[i].1.improvement.value;
            let cards = &self.cards;
            order.sort_by(|&a, &b| {
                key(b)
                    .total_cmp(&key(a))
                    .then(cards[a].index.cmp(&cards[b].index))
            });
            self.cards = order.iter().map(|&i| self.cards[i].clone()).collect();
            for metric in &mut self.metrics {
                metric.cards = order.iter().map(|&i| metric.cards[i].clone()).collect();
            }
        }
        self
    }
}

/// The metrics as a JSON object by name, each `{"doc", "mean", "low",
/// "high", "n", "seats": […], "cards": […]}`.
fn metrics_by_name<S: serde::Serializer>(
    metrics: &[MetricFigures],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(metrics.len()))?;
    for m in metrics {
        map.serialize_entry(&m.name, m)?;
    }
    map.end()
}

/// `{"doc", "mean", "low", "high", "n", "seats", "cards"}`: the name is its key.
impl Serialize for MetricFigures {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("doc", &self.doc)?;
        mean_fields(&mut map, &self.overall)?;
        let seats: Vec<serde_json::Value> = self
            .seats
            .iter()
            .map(|(seat, m)| {
                serde_json::json!({"seat": seat, "mean": m.value, "low": m.low, "high": m.high, "n": m.n})
            })
            .collect();
        map.serialize_entry("seats", &seats)?;
        let cards: Vec<serde_json::Value> = self
            .cards
            .iter()
            .map(|(card, c)| {
                serde_json::json!({"card": card, "in_hand": c.in_hand, "played": c.played,
                                   "not_seen": c.not_seen, "improvement": c.improvement})
            })
            .collect();
        map.serialize_entry("cards", &cards)?;
        map.end()
    }
}

/// A mean's fields, flat: `mean`, `low`, `high`, `n`.
fn mean_fields<M: SerializeMap>(map: &mut M, m: &Mean) -> Result<(), M::Error> {
    map.serialize_entry("mean", &m.value)?;
    map.serialize_entry("low", &m.low)?;
    map.serialize_entry("high", &m.high)?;
    map.serialize_entry("n", &m.n)
}
