//! A rule set's declared metrics over a simulation: the integer sums a run
//! keeps of each metric (so shards add up exactly), and the means worked out
//! from them, each with its 95 % interval: overall, per seat, and per card as
//! the win rates are (games the card was in hand, played, not seen, and the
//! improvement when drawn).
//!
//! A mean's interval is Student's t below 30 values and the normal one from
//! 30 on; a difference of two means is Welch's (t with the
//! Welch–Satterthwaite degrees of freedom below 30 on either side). With
//! fewer than two values on a side there is no spread to judge: the interval
//! is the mean itself, and a difference is never marked significant.
//!
//! The *overall* figure of a game is the mean of its seats' values (in a
//! one-seat game, the seat's), one value per game, so that a metric every
//! seat reads alike (the game's length) is not counted twice.

use serde::{Deserialize, Serialize};

use super::cardstats::Counts;

/// The z of a two-sided 95 % interval.
const Z: f64 = 1.959_963_984_540_054;

/// Below this many values a mean's interval is Student's t, not the normal one.
pub const NORMAL_FROM: u64 = 30;

/// A sum of values and of their squares, as exact integers: what shards add.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sums {
    /// The values added up.
    #[serde(with = "wide_signed")]
    pub sum: i128,
    /// Their squares added up (saturating at the 128-bit limit).
    #[serde(with = "wide_unsigned")]
    pub squares: u128,
}

impl Sums {
    /// `value` added in.
    pub fn add(&mut self, value: i128) {
        self.sum = self.sum.saturating_add(value);
        let square = value.unsigned_abs().saturating_mul(value.unsigned_abs());
        self.squares = self.squares.saturating_add(square);
    }

    /// `other`'s sums added in.
    pub fn merge(&mut self, other: &Sums) {
        self.sum = self.sum.saturating_add(other.sum);
        self.squares = self.squares.saturating_add(other.squares);
    }

    /// These sums less `other`'s: the values this holds that `other`, a part of it, does not.
    pub fn minus(&self, other: &Sums) -> Sums {
        Sums {
            sum: self.sum.saturating_sub(other.sum),
            squares: self.squares.saturating_sub(other.squares),
        }
    }
}

/// One card's sums for one seat: of the seat's values in the games it had
/// the card in hand, and in those it played it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardSums {
    /// Games the card was in the seat's hand.
    pub in_hand: Sums,
    /// Games the seat played it.
    pub played: Sums,
}

/// What a run's games add up to for one metric.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetricSums {
    /// Each game's seats' values summed (the overall figure is their mean).
    pub overall: Sums,
    /// Each seat's values, in seat order.
    pub seats: Vec<Sums>,
    /// Each card's sums for each seat, at `seat × cards + card`.
    pub cards: Vec<CardSums>,
}

impl MetricSums {
    /// Empty sums for `seats` seats and `cards` cards.
    pub fn new(seats: usize, cards: usize) -> MetricSums {
        MetricSums {
            overall: Sums::default(),
            seats: vec![Sums::default(); seats],
            cards: vec![CardSums::default(); seats * cards],
        }
    }

    /// `other`'s sums added in.
    pub fn merge(&mut self, other: &MetricSums) {
        self.overall.merge(&other.overall);
        for (a, b) in self.seats.iter_mut().zip(&other.seats) {
            a.merge(b);
        }
        for (a, b) in self.cards.iter_mut().zip(&other.cards) {
            a.in_hand.merge(&b.in_hand);
            a.played.merge(&b.played);
        }
    }

    /// One game's `values`, one per seat, added in.
    pub fn count(&mut self, values: &[i64]) {
        let total: i128 = values.iter().map(|&v| i128::from(v)).sum();
        self.overall.add(total);
        for (sums, &v) in self.seats.iter_mut().zip(values) {
            sums.add(i128::from(v));
        }
    }
}

/// A mean and its 95 % interval. In JSON: `{"mean", "low", "high", "n"}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Mean {
    /// The mean itself (0 of nothing).
    #[serde(rename = "mean")]
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// How many values it is the mean of.
    pub n: u64,
    /// The values' sample variance (0 below two values).
    #[serde(skip)]
    pub variance: f64,
}

impl Mean {
    /// The mean of `n` values whose sums are `sums`, each value a sum of
    /// `parts` (the overall figure: each game's seats, whose mean it is).
    pub fn of(sums: &Sums, n: u64, parts: u64) -> Mean {
        if n == 0 {
            return Mean::default();
        }
        let k = parts.max(1) as f64;
        let nf = n as f64;
        let value = sums.sum as f64 / nf / k;
        let variance = spread(sums, n) / (k * k);
        let half = if n < 2 {
            0.0
        } else {
            quantile(n - 1, n) * (variance / nf).sqrt()
        };
        Mean {
            value,
            low: value - half,
            high: value + half,
            n,
            variance,
        }
    }
}

/// The sample variance of `n` values with `sums` (0 below two), exact in
/// integers where they hold it.
fn spread(sums: &Sums, n: u64) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let nf = n as f64;
    // n·Σx² − (Σx)², in integers when it fits: no cancellation.
    let exact = sums
        .squares
        .checked_mul(u128::from(n))
        .zip(sums.sum.unsigned_abs().checked_mul(sums.sum.unsigned_abs()))
        .map(|(a, b)| a.saturating_sub(b));
    let scaled = match exact {
        Some(d) => d as f64,
        None => {
            let s = sums.sum as f64;
            (sums.squares as f64 * nf - s * s).max(0.0)
        }
    };
    scaled / (nf * (nf - 1.0))
}

/// The two-sided 95 % quantile for an interval from `n` values with `df`
/// degrees of freedom: the normal one from [`NORMAL_FROM`] values on, else Student's t.
fn quantile(df: u64, n: u64) -> f64 {
    if n >= NORMAL_FROM {
        Z
    } else {
        student_t(df as f64)
    }
}

/// A difference of two means (`a − b`) and its 95 % interval (Welch's).
/// In JSON: `{"value", "low", "high", "significant"}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct MeanDifference {
    /// `a − b` (0 when either has no values).
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// Whether the interval leaves out 0, with two values or more on each side.
    pub significant: bool,
}

impl MeanDifference {
    /// `a − b`, with Welch's interval.
    pub fn between(a: &Mean, b: &Mean) -> MeanDifference {
        if a.n == 0 || b.n == 0 {
            return MeanDifference::default();
        }
        let value = a.value - b.value;
        if a.n < 2 || b.n < 2 {
            return MeanDifference {
                value,
                low: value,
                high: value,
                significant: false,
            };
        }
        let (va, vb) = (a.variance / a.n as f64, b.variance / b.n as f64);
        let se = (va + vb).sqrt();
        let q = if a.n >= NORMAL_FROM && b.n >= NORMAL_FROM {
            Z
        } else {
            // Welch–Satterthwaite; with no spread on either side, the least of the two.
            let df = (va + vb).powi(2) / (va * va / (a.n - 1) as f64 + vb * vb / (b.n - 1) as f64);
            let least = (a.n.min(b.n) - 1) as f64;
            student_t(if df.is_finite() { df } else { least })
        };
        let (low, high) = (value - q * se, value + q * se);
        MeanDifference {
            value,
            low,
            high,
            significant: low > 0.0 || high < 0.0,
        }
    }
}

/// One card's figures for one metric, over every seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct CardMetric {
    /// The holder's mean in games the card was in hand.
    pub in_hand: Mean,
    /// In games the holder played it.
    pub played: Mean,
    /// In games the holder never had it in hand.
    pub not_seen: Mean,
    /// In-hand mean minus not-seen mean.
    pub improvement: MeanDifference,
}

impl CardMetric {
    /// The figures of card `card` of a deck of `cards` in a run of `games`
    /// games: `counts` its counts for each seat, in seat order.
    pub fn of(sums: &MetricSums, counts: &[Counts], card: usize, cards: usize, games: u64) -> Self {
        let (mut in_hand, mut played, mut not_seen) =
            (Sums::default(), Sums::default(), Sums::default());
        let (mut n_hand, mut n_played, mut n_not) = (0, 0, 0);
        for (seat, (total, c)) in sums.seats.iter().zip(counts).enumerate() {
            let Some(s) = sums.cards.get(seat * cards + card) else {
                continue;
            };
            in_hand.merge(&s.in_hand);
            played.merge(&s.played);
            not_seen.merge(&total.minus(&s.in_hand));
            n_hand += c.in_hand;
            n_played += c.played_games;
            n_not += games.saturating_sub(c.in_hand);
        }
        let in_hand = Mean::of(&in_hand, n_hand, 1);
        let not_seen = Mean::of(&not_seen, n_not, 1);
        CardMetric {
            in_hand,
            played: Mean::of(&played, n_played, 1),
            not_seen,
            improvement: MeanDifference::between(&in_hand, &not_seen),
        }
    }
}

/// The upper 2.5 % point of Student's t with `df` degrees of freedom (any
/// real `df` ≥ 1; a smaller one is taken as 1): the `t` where the upper
/// tail `½·I_{df/(df+t²)}(df/2, ½)` is 0.025, found by bisection.
pub fn student_t(df: f64) -> f64 {
    let df = if df.is_finite() { df.max(1.0) } else { 1e9 };
    let tail = |t: f64| 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    // The tail falls as t grows; t(1) is 12.7, so 100 is past any df ≥ 1.
    let (mut lo, mut hi) = (0.0, 100.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if tail(mid) > 0.025 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The regularized incomplete beta function `I_x(a, b)`, by its continued
/// fraction (modified Lentz), on the side where it converges fast.
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// The continued fraction of the incomplete beta function.
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    d = 1.0 / if d.abs() < TINY { TINY } else { d };
    let mut h = d;
    for m in 1..300 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        // The even step, then the odd one.
        for num in [
            m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
        ] {
            d = 1.0 + num * d;
            d = 1.0 / if d.abs() < TINY { TINY } else { d };
            c = 1.0 + num / c;
            if c.abs() < TINY {
                c = TINY;
            }
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// `ln Γ(x)` for `x > 0` (Lanczos' approximation, g = 7, nine terms).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1−x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let series = G[1..]
        .iter()
        .enumerate()
        .fold(G[0], |s, (i, g)| s + g / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

/// A 128-bit count in JSON: a number where it fits 64 bits (as every
/// real run's does), else its digits in a string, so a JSON reader that
/// holds numbers in 64 bits never loses one.
mod wide_signed {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &i128, s: S) -> Result<S::Ok, S::Error> {
        match i64::try_from(*v) {
            Ok(small) => s.serialize_i64(small),
            Err(_) => s.serialize_str(&v.to_string()),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
        match super::Wide::deserialize(d)? {
            super::Wide::Signed(v) => Ok(i128::from(v)),
            super::Wide::Unsigned(v) => Ok(i128::from(v)),
            super::Wide::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// [`wide_signed`] for the sums of squares.
mod wide_unsigned {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(*v) {
            Ok(small) => s.serialize_u64(small),
            Err(_) => s.serialize_str(&v.to_string()),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        match super::Wide::deserialize(d)? {
            super::Wide::Unsigned(v) => Ok(u128::from(v)),
            super::Wide::Signed(v) => u128::try_from(v).map_err(serde::de::Error::custom),
            super::Wide::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// A wide count as JSON may hold it.
#[derive(Deserialize)]
#[serde(untagged)]
enum Wide {
    Unsigned(u64),
    Signed(i64),
    Text(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sums(values: &[i64]) -> Sums {
        let mut s = Sums::default();
        values.iter().for_each(|&v| s.add(i128::from(v)));
        s
    }

    #[test]
    fn student_t_matches_the_tables() {
        // The two-sided 95 % points of a t table.
        for (df, t) in [
            (1.0, 12.706),
            (2.0, 4.303),
            (3.0, 3.182),
            (5.0, 2.571),
            (10.0, 2.228),
            (29.0, 2.045),
            (120.0, 1.980),
        ] {
            assert!(
                (student_t(df) - t).abs() < 1e-3,
                "t({df}) = {}",
                student_t(df)
            );
        }
        // Between two whole degrees of freedom, between their points.
        let (t4, t45, t5) = (student_t(4.0), student_t(4.5), student_t(5.0));
        assert!(t5 < t45 && t45 < t4, "{t4} {t45} {t5}");
    }

    #[test]
    fn a_small_sample_has_the_t_interval() {
        // 2, 4, 6, 8: mean 5, s² = 20/3, half-width t(3)·√(s²/4) = 3.182 × 1.291.
        let m = Mean::of(&sums(&[2, 4, 6, 8]), 4, 1);
        assert_eq!(m.value, 5.0);
        assert!((m.variance - 20.0 / 3.0).abs() < 1e-12, "{m:?}");
        assert!((m.high - 5.0 - 4.108).abs() < 1e-3, "{m:?}");
        assert!((m.value - m.low - (m.high - m.value)).abs() < 1e-12);
    }

    #[test]
    fn a_large_sample_has_the_normal_interval() {
        let values: Vec<i64> = (0..100).map(|i| i % 10).collect();
        let m = Mean::of(&sums(&values), 100, 1);
        assert!((m.value - 4.5).abs() < 1e-12);
        // s² = 8.25 × 100/99; half-width 1.96 × √(s²/100).
        let half = Z * (8.25 * 100.0 / 99.0 / 100.0f64).sqrt();
        assert!((m.high - m.value - half).abs() < 1e-12, "{m:?}");
    }

    #[test]
    fn the_overall_figure_is_the_mean_of_each_games_seats() {
        // Two games of two seats: (3, 5) and (4, 8); the games' means are 4 and 6.
        let mut m = MetricSums::new(2, 0);
        m.count(&[3, 5]);
        m.count(&[4, 8]);
        let overall = Mean::of(&m.overall, 2, 2);
        assert_eq!(overall.value, 5.0);
        assert!((overall.variance - 2.0).abs() < 1e-12, "{overall:?}");
        assert_eq!(Mean::of(&m.seats[1], 2, 1).value, 6.5);
    }

    #[test]
    fn too_few_values_give_no_spread_and_nothing_significant() {
        assert_eq!(Mean::of(&Sums::default(), 0, 1), Mean::default());
        let one = Mean::of(&sums(&[7]), 1, 1);
        assert_eq!((one.value, one.low, one.high), (7.0, 7.0, 7.0));
        let d = MeanDifference::between(&one, &Mean::of(&sums(&[1, 2]), 2, 1));
        assert_eq!(d.value, 5.5);
        assert!(!d.significant);
    }

    #[test]
    fn welch_interval_matches_a_worked_example() {
        // 30 values of 10 ± 1 against 30 of 9 ± 1: a difference of 1, se = √(2·s²/30).
        let a: Vec<i64> = (0..30).map(|i| if i % 2 == 0 { 9 } else { 11 }).collect();
        let b: Vec<i64> = (0..30).map(|i| if i % 2 == 0 { 8 } else { 10 }).collect();
        let (ma, mb) = (Mean::of(&sums(&a), 30, 1), Mean::of(&sums(&b), 30, 1));
        let d = MeanDifference::between(&ma, &mb);
        let se = (2.0 * (30.0 / 29.0) / 30.0f64).sqrt();
        assert!((d.value - 1.0).abs() < 1e-12);
        assert!((d.low - (1.0 - Z * se)).abs() < 1e-12, "{d:?}");
        assert!(d.significant);
        // Below 30 a side, Student's t with Welch's degrees of freedom (here 2·9 = 18).
        let d = MeanDifference::between(
            &Mean::of(&sums(&a[..10]), 10, 1),
            &Mean::of(&sums(&b[..10]), 10, 1),
        );
        let se = (2.0 * (10.0 / 9.0) / 10.0f64).sqrt();
        assert!(
            (d.high - (1.0 + student_t(18.0) * se)).abs() < 1e-9,
            "{d:?}"
        );
    }

    #[test]
    fn sums_past_64_bits_go_through_json_exactly() {
        let s = Sums {
            sum: -(1i128 << 100),
            squares: u128::MAX,
        };
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Sums>(&text).unwrap(), s);
        let small = sums(&[3, -4]);
        assert_eq!(
            serde_json::to_string(&small).unwrap(),
            r#"{"sum":-1,"squares":25}"#
        );
    }
}
