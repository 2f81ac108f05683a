//! A rule set's declared metrics (`:metrics`) measured as a game is played:
//! the events a `:count` or `:sum` metric waits for are matched as a
//! trigger's are (the same [`Happened`] and the same fit), each checked with
//! every seat's roles in turn and added to that seat's total; a `:value`
//! metric is read at the game's end ([`Game::metric_values`]).
//!
//! Only a game whose rule set counts events keeps a [`Meter`]; every other
//! game pays one test per batch of changes. Reading a metric never changes
//! the game: its conditions and amounts run on a work budget of their own
//! ([`crate::eval::State::aside`]) and cannot draw chance (the checker says so).

use super::Game;
use super::triggers::Happened;
use crate::check::rules::RuleSet;
use crate::check::rules::metrics::Measure;
use crate::ids::EntityId;

/// What a game keeps for the metrics that count events.
#[derive(Debug)]
pub(super) struct Meter {
    /// Each metric's total for each seat, at `metric × seats + seat`
    /// (0 for a `:value` metric, read at the end instead).
    totals: Vec<i64>,
    /// How many seats.
    seats: usize,
    /// Which sorts of event some metric waits for, bit `On as u32`.
    waited: u32,
    /// The entity whose effects run now, for `:source`, in a game that keeps
    /// no triggers (one that does keeps it there).
    pub(super) source: Option<EntityId>,
    /// The batch's events as metrics see them: a buffer kept between batches.
    seen: Vec<Happened>,
    /// The roles a metric is read with: a buffer kept between events.
    roles: Vec<EntityId>,
}

impl Clone for Meter {
    fn clone(&self) -> Meter {
        let mut copy = Meter {
            totals: Vec::new(),
            seats: self.seats,
            waited: self.waited,
            source: self.source,
            seen: Vec::new(),
            roles: Vec::new(),
        };
        copy.clone_from(self);
        copy
    }

    /// Copies into the buffers already held (the two buffers are not state):
    /// a search copies the game once an iteration.
    fn clone_from(&mut self, source: &Meter) {
        // Destructured, so a field added and not copied here fails to compile.
        let Meter {
            totals,
            seats,
            waited,
            source,
            seen: _,
            roles: _,
        } = source;
        self.totals.clone_from(totals);
        self.seats = *seats;
        self.waited = *waited;
        self.source = *source;
    }
}

impl Meter {
    /// What a game of `rules` with `seats` seats keeps, if some metric counts events.
    pub(super) fn new(rules: &RuleSet, seats: usize) -> Option<Box<Meter>> {
        let waited = rules
            .metrics
            .iter()
            .filter_map(|m| m.event())
            .fold(0u32, |w, t| w | 1 << t.on as u32);
        (waited != 0).then(|| {
            Box::new(Meter {
                totals: vec![0; rules.metrics.len() * seats],
                seats,
                waited,
                source: None,
                seen: Vec::new(),
                roles: Vec::new(),
            })
        })
    }

    /// Back to the start of a game.
    pub(super) fn clear(&mut self) {
        self.totals.fill(0);
        self.source = None;
    }
}

impl Game<'_> {
    /// The batch of changes about to be noted, measured: each event a metric
    /// waits for added to the totals it counts toward.
    #[cold]
    #[inline(never)]
    pub(super) fn meter_batch(&mut self) {
        let Some(meter) = self.meter.as_deref_mut() else {
            return;
        };
        let mut seen = std::mem::take(&mut meter.seen);
        let waited = meter.waited;
        seen.clear();
        self.happenings(waited, &mut seen);
        for &h in &seen {
            self.meter_one(h);
        }
        if let Some(meter) = self.meter.as_deref_mut() {
            meter.seen = seen;
        }
    }

    /// `h`, measured by every metric that waits for it, for every seat: its
    /// `:where` checked with the seat's roles then `:subject` and `:source`,
    /// and 1 (`:count`) or its `:amount` (`:sum`) added to the seat's total.
    pub(super) fn meter_one(&mut self, h: Happened) {
        let Some(meter) = self.meter.as_deref() else {
            return;
        };
        if meter.waited & (1 << h.on as u32) == 0 {
            return;
        }
        let seats = meter.seats;
        // As for triggers: the entity whose effects made it, else the seat to act.
        let source = self
            .triggers
            .as_deref()
            .map_or(meter.source, |t| t.current_source())
            .unwrap_or(self.current);
        let n = self.role_count;
        let rules = self.rules;
        let mut buffer = self
            .meter
            .as_deref_mut()
            .map(|m| std::mem::take(&mut m.roles));
        let roles = buffer.get_or_insert_with(Vec::new);
        for (m, metric) in rules.metrics.iter().enumerate() {
            let Some(t) = metric.event().filter(|t| super::triggers::fits(t, &h)) else {
                continue;
            };
            for s in 0..seats {
                roles.clear();
                roles.extend_from_slice(&self.roles[s * n..][..n]);
                roles.extend([h.subject, source]);
                let roles = &*roles;
                let add = self.state.aside(|state| {
                    let (amount, position) = numbers(state);
                    state.set_event(h.amount, h.position);
                    let holds = t
                        .filter
                        .as_ref()
                        .is_none_or(|f| crate::eval::holds(f, state, roles));
                    let add = match &metric.measure {
                        _ if !holds => 0,
                        Measure::Sum(_, amount) => crate::eval::value(amount, state, roles),
                        Measure::Count(_) | Measure::Value(_) => 1,
                    };
                    state.set_event(amount, position);
                    add
                });
                if let Some(meter) = self.meter.as_deref_mut() {
                    let total = &mut meter.totals[m * seats + s];
                    *total = total.saturating_add(add);
                }
            }
        }
        if let (Some(meter), Some(buffer)) = (self.meter.as_deref_mut(), buffer) {
            meter.roles = buffer;
        }
    }

    /// Each declared metric's value for each seat, now (at a game's end):
    /// `out[metric × seats + seat]`. A `:value` metric is read with the
    /// seat's roles; a `:count` or `:sum` one is its total so far.
    pub fn metric_values(&mut self, out: &mut Vec<i64>) {
        let seats = self.seats;
        out.clear();
        out.resize(self.rules.metrics.len() * seats, 0);
        let n = self.role_count;
        let rules = self.rules;
        for (m, metric) in rules.metrics.iter().enumerate() {
            for s in 0..seats {
                out[m * seats + s] = match &metric.measure {
                    Measure::Value(value) => {
                        let roles = &self.roles[s * n..][..n];
                        self.state
                            .aside(|state| crate::eval::value(value, state, roles))
                    }
                    Measure::Count(_) | Measure::Sum(..) => self
                        .meter
                        .as_deref()
                        .map_or(0, |meter| meter.totals[m * seats + s]),
                };
            }
        }
    }
}

/// The event numbers `state` holds now, to put back once a metric is read.
fn numbers(state: &crate::eval::State) -> (i64, i64) {
    use crate::check::ast::EventField;
    (
        state.event_number(EventField::Amount),
        state.event_number(EventField::Position),
    )
}
