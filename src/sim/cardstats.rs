//! Per-card figures of a simulation, the ones card players already trust
//! (17lands, HSReplay), each rate with its 95 % interval.
//!
//! A card is *in hand* in a game when it is in its holder's hand at one of
//! their decisions (17lands' "games in hand"); *played* when its holder played
//! it at least once; *not seen* when its holder never had it in hand. A win
//! rate is the holder's: games the holder won over games counted (a tie or a
//! turn limit is not a win). *Improvement when drawn* is the in-hand win rate
//! minus the not-seen win rate: what holding the card is worth, which the
//! plain played win rate overstates (a card played when already winning).

/// The z of a two-sided 95 % interval.
const Z: f64 = 1.959_963_984_540_054;

/// A rate and its 95 % interval (Wilson score), from `wins` of `n`; all 0 when `n` is 0.
/// In JSON: `{"rate", "low", "high", "n"}`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rate {
    /// The rate itself.
    #[serde(rename = "rate")]
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// How many it is out of.
    pub n: u64,
}

impl Rate {
    /// `wins` of `n`, with the Wilson score interval.
    pub fn wilson(wins: u64, n: u64) -> Rate {
        if n == 0 {
            return Rate {
                value: 0.0,
                low: 0.0,
                high: 0.0,
                n,
            };
        }
        let nf = n as f64;
        let p = wins as f64 / nf;
        let z2 = Z * Z;
        let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
        let half = Z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / (1.0 + z2 / nf);
        // At 0 of n and n of n the ends are exactly 0 and 1; rounding must
        // never leave the rate outside its own interval.
        let low = if wins == 0 {
            0.0
        } else {
            (centre - half).clamp(0.0, p)
        };
        let high = if wins >= n {
            1.0
        } else {
            (centre + half).clamp(p, 1.0)
        };
        Rate {
            value: p,
            low,
            high,
            n,
        }
    }
}

/// A difference of two rates and its 95 % interval (Newcombe's hybrid score
/// interval from the two Wilson intervals); significant when it leaves out 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    /// `a − b`.
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

impl Difference {
    /// `a − b`, from their Wilson intervals.
    pub fn between(a: Rate, b: Rate) -> Difference {
        if a.n == 0 || b.n == 0 {
            return Difference {
                value: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let d = a.value - b.value;
        let low = d - ((a.value - a.low).powi(2) + (b.high - b.value).powi(2)).sqrt();
        let high = d + ((a.high - a.value).powi(2) + (b.value - b.low).powi(2)).sqrt();
        Difference {
            value: d,
            low,
            high,
        }
    }

    /// Whether the interval leaves out 0.
    pub fn significant(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// In JSON: `{"value", "low", "high", "significant"}`.
impl serde::Serialize for Difference {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut s = serializer.serialize_struct("Difference", 4)?;
        s.serialize_field("value", &self.value)?;
        s.serialize_field("low", &self.low)?;
        s.serialize_field("high", &self.high)?;
        s.serialize_field("significant", &self.significant())?;
        s.end()
    }
}

/// What one card's games add up to, for one seat or all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Games its holder played (one a game per seat counted).
    pub games: u64,
    /// Of those, games its holder won.
    pub wins: u64,
    /// Games it was in hand at one of its holder's decisions.
    pub in_hand: u64,
    /// Of those, games its holder won.
    pub in_hand_won: u64,
    /// Games its holder played it at least once.
    pub played_games: u64,
    /// Of those, games its holder won.
    pub played_games_won: u64,
    /// Times it was played.
    pub plays: u64,
    /// Times it was discarded.
    pub discards: u64,
    /// The turn numbers it was played on, summed.
    pub play_turns: u64,
}

impl Counts {
    /// Adds `other` in.
    pub fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.wins += other.wins;
        self.in_hand += other.in_hand;
        self.in_hand_won += other.in_hand_won;
        self.played_games += other.played_games;
        self.played_games_won += other.played_games_won;
        self.plays += other.plays;
        self.discards += other.discards;
        self.play_turns += other.play_turns;
    }

    /// The figures these counts give.
    pub fn figures(&self) -> Figures {
        let in_hand = Rate::wilson(self.in_hand_won, self.in_hand);
        let not_seen = Rate::wilson(
            self.wins.saturating_sub(self.in_hand_won),
            self.games.saturating_sub(self.in_hand),
        );
        Figures {
            in_hand,
            played: Rate::wilson(self.played_games_won, self.played_games),
            not_seen,
            improvement: Difference::between(in_hand, not_seen),
            play_rate: Rate::wilson(self.played_games, self.in_hand),
            mean_turn: if self.plays == 0 {
                0.0
            } else {
                self.play_turns as f64 / self.plays as f64
            },
        }
    }
}

/// One card's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figures {
    /// Win rate of games it was in hand.
    pub in_hand: Rate,
    /// Win rate of games it was played.
    pub played: Rate,
    /// Win rate of games its holder never had it in hand.
    pub not_seen: Rate,
    /// In-hand win rate minus not-seen win rate.
    pub improvement: Difference,
    /// Games played over games in hand.
    pub play_rate: Rate,
    /// The mean turn it was played on.
    pub mean_turn: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook_values() {
        // 8 of 10: 0.490 to 0.943 (Wilson score, z = 1.96).
        let r = Rate::wilson(8, 10);
        assert!((r.low - 0.4902).abs() < 1e-3, "{r:?}");
        assert!((r.high - 0.9433).abs() < 1e-3, "{r:?}");
        assert_eq!(Rate::wilson(0, 0).high, 0.0);
        let all = Rate::wilson(5, 5);
        assert!(all.high <= 1.0 && all.low > 0.5);
    }

    #[test]
    fn every_interval_holds_its_rate() {
        for n in 1..3000u64 {
            for wins in [0, 1, n / 2, n - 1, n] {
                let r = Rate::wilson(wins, n);
                assert!(r.low <= r.value && r.value <= r.high, "{wins}/{n}: {r:?}");
            }
        }
        assert_eq!(Rate::wilson(0, 3).low, 0.0);
        assert_eq!(Rate::wilson(13, 13).high, 1.0);
    }

    #[test]
    fn newcombe_difference_is_significant_only_when_it_leaves_out_zero() {
        let d = Difference::between(Rate::wilson(600, 1000), Rate::wilson(500, 1000));
        assert!((d.value - 0.1).abs() < 1e-9);
        assert!(d.significant(), "{d:?}");
        let d = Difference::between(Rate::wilson(52, 100), Rate::wilson(50, 100));
        assert!(!d.significant(), "{d:?}");
        // Newcombe's example (56/70 − 48/80): 0.0524 to 0.3339.
        let d = Difference::between(Rate::wilson(56, 70), Rate::wilson(48, 80));
        assert!((d.low - 0.0524).abs() < 1e-3, "{d:?}");
        assert!((d.high - 0.3339).abs() < 1e-3, "{d:?}");
    }

    #[test]
    fn not_seen_is_what_in_hand_leaves() {
        let c = Counts {
            games: 100,
            wins: 50,
            in_hand: 40,
            in_hand_won: 30,
            ..Counts::default()
        };
        let f = c.figures();
        assert!((f.in_hand.value - 0.75).abs() < 1e-9);
        assert!((f.not_seen.value - 20.0 / 60.0).abs() < 1e-9);
        assert!(f.improvement.significant());
    }
}
