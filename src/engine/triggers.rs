//! Cards' triggered abilities run: the events of each flushed batch matched
//! against the triggers of the cards in play (and a card's own, in any
//! zone), queued, and run once the effects that caused them are done, one
//! at a time, each run's own events queued behind the rest. A chain is
//! bounded by `:budgets :trigger-runs` and `:trigger-depth`: past either,
//! what is still queued is dropped and the log says so.

use std::collections::VecDeque;

use super::{By, CardId, Game, GameEvent};
pub(super) use crate::check::triggers::On;
use crate::check::triggers::Trigger;
use crate::eval::{Owner, What};
use crate::ids::{EntityId, ZoneId};

/// What a game keeps for its cards' triggers: only a game whose cards have some.
#[derive(Debug, Default)]
pub(super) struct Triggers {
    /// Runs waiting, in the order they will run.
    queue: VecDeque<Run>,
    /// Runs made in the chain resolving now.
    runs: u32,
    /// The depth of the run resolving now (0: none).
    depth: u8,
    /// True while the queue is being run (a run's own batch only queues).
    resolving: bool,
    /// The entity whose effects run now: what `:source` is for their events.
    source: Option<EntityId>,
    /// `(instance, keyword, trigger)` of each `:once-per-turn` trigger run this turn.
    this_turn: Vec<(EntityId, u16, u16)>,
    /// The turn `this_turn` is of.
    turn: u32,
    /// Which sorts of event some card waits for, bit `On as usize`.
    waited: u32,
    /// The statuses cards' auras give: true when some card has an aura.
    aura_statuses: Vec<crate::ids::StatusId>,
    /// Whether some keyword has triggers.
    keyworded: bool,
    /// A buffer for a batch's events as triggers see them: not the game's state.
    seen: Vec<Happened>,
    /// A buffer for the triggers one event matches: not the game's state.
    matched: Vec<Matched>,
    /// A buffer for the roles a trigger's test or effects run with.
    frame: Vec<EntityId>,
}

/// A trigger an event matched: its card, keyword ([`OWN`] for the card's
/// own), index, bearer and controller.
type Matched = (CardId, u16, u16, EntityId, EntityId);

impl Clone for Triggers {
    fn clone(&self) -> Triggers {
        let mut copy = Triggers::default();
        copy.clone_from(self);
        copy
    }

    /// Copies into the buffers already held: a search copies the game once an iteration.
    fn clone_from(&mut self, source: &Triggers) {
        // Destructured, so a field added and not copied here fails to compile.
        let Triggers {
            queue,
            runs,
            depth,
            resolving,
            source,
            this_turn,
            turn,
            waited,
            aura_statuses,
            keyworded,
            seen: _,
            matched: _,
            frame: _,
        } = source;
        self.queue.clone_from(queue);
        self.runs = *runs;
        self.depth = *depth;
        self.resolving = *resolving;
        self.source = *source;
        self.this_turn.clone_from(this_turn);
        self.turn = *turn;
        self.waited = *waited;
        self.aura_statuses.clone_from(aura_statuses);
        self.keyworded = *keyworded;
    }
}

/// One trigger to run.
#[derive(Clone, Copy, Debug)]
struct Run {
    card: CardId,
    /// The keyword whose trigger it is ([`OWN`]: the card's own).
    keyword: u16,
    index: u16,
    bearer: EntityId,
    subject: EntityId,
    source: EntityId,
    controller: EntityId,
    amount: i64,
    position: i64,
    depth: u8,
}

/// A trigger that is the card's own, not a keyword's.
pub(super) const OWN: u16 = u16::MAX;

/// One event as triggers see it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Happened {
    pub(super) on: On,
    pub(super) subject: EntityId,
    pub(super) amount: i64,
    pub(super) position: i64,
    /// The attribute, status or zone that narrows it (as its index).
    pub(super) detail: Option<usize>,
    /// The seat whose pile the subject was in (for a card), for its own triggers.
    pub(super) holder: Option<EntityId>,
}

impl Happened {
    /// An event of sort `on` about `subject`, with no numbers, of `holder`'s.
    pub(super) fn about(on: On, subject: EntityId, holder: Option<EntityId>) -> Happened {
        Happened {
            on,
            subject,
            amount: 0,
            position: 0,
            detail: None,
            holder,
        }
    }
}

impl Triggers {
    /// The entity whose effects run now, as `:source` names it, if one does.
    pub(super) fn current_source(&self) -> Option<EntityId> {
        self.source
    }

    /// What a game of `cards` keeps, if any card has a trigger.
    pub(super) fn new(
        rules: &crate::check::rules::RuleSet,
        cards: &[crate::check::defs::Card],
    ) -> Option<Box<Triggers>> {
        // Abilities are for cards kept in `:zones`; the classic play never has any.
        if rules.zones.as_ref().is_none_or(|z| z.classic) {
            return None;
        }
        let keyworded = rules.keywords.iter().any(|k| !k.triggers.is_empty());
        // Cards with keywords need their keywords given as they enter play.
        let marked = cards.iter().any(|c| !c.play.keywords.is_empty());
        let waited = cards
            .iter()
            .flat_map(|c| &c.triggers)
            .chain(rules.keywords.iter().flat_map(|k| &k.triggers))
            .fold(0u32, |m, t| m | 1 << t.on as u32);
        let mut aura_statuses: Vec<_> = cards
            .iter()
            .flat_map(|c| &c.auras)
            .map(|a| a.status)
            .collect();
        aura_statuses.sort_unstable();
        aura_statuses.dedup();
        (waited != 0 || marked || !aura_statuses.is_empty()).then(|| {
            Box::new(Triggers {
                waited,
                aura_statuses,
                keyworded,
                ..Triggers::default()
            })
        })
    }
}

/// Whether trigger `t` waits for `h`'s sort and detail (a metric's events too).
pub(super) fn fits(t: &Trigger, h: &Happened) -> bool {
    if t.on != h.on {
        return false;
    }
    let want = match t.on {
        On::Changed | On::Damaged | On::Healed => t.attribute.map(|a| a.index()),
        On::StatusGained | On::StatusEnded => t.status.map(|s| s.index()),
        On::Enters | On::Leaves => t.zone.map(ZoneId::index),
        _ => None,
    };
    want.is_none_or(|w| Some(w) == h.detail)
}

impl<'r> Game<'r> {
    /// The events of the batch in `self.events` (not yet noted) as triggers
    /// see them, each matched and the matches queued.
    #[cold]
    #[inline(never)]
    pub(super) fn match_batch(&mut self) {
        if self.rules.zones.is_none() || self.state.cards.is_none() {
            return;
        }
        let Some(tr) = self.triggers.as_deref_mut() else {
            return;
        };
        let waited = tr.waited;
        let mut seen = std::mem::take(&mut tr.seen);
        seen.clear();
        self.happenings(waited, &mut seen);
        for &h in &seen {
            self.match_one(h);
        }
        if let Some(tr) = self.triggers.as_deref_mut() {
            tr.seen = seen;
        }
    }

    /// The events of the batch in `self.events` as triggers and metrics see
    /// them, those of the sorts in `waited` (bit `On as u32`), pushed to
    /// `seen`. Without a card table (a game without `:zones`, which only
    /// metrics watch) no card moves, and nothing has a holder or a place.
    pub(super) fn happenings(&self, waited: u32, seen: &mut Vec<Happened>) {
        let mut push = |h: Happened| {
            if waited & (1 << h.on as u32) != 0 {
                seen.push(h);
            }
        };
        let table = self.state.cards.as_deref();
        let cards = self.rules.zones.as_ref().zip(table);
        let holder = |pile: usize| cards.and_then(|(set, table)| table.owner_of(set, pile));
        for e in &self.events {
            let place = table
                .and_then(|t| t.position(e.entity))
                .map_or(0, |p| p as i64);
            let held = table.and_then(|t| t.pile_of(e.entity)).and_then(holder);
            match e.what {
                What::Attr(attr) => {
                    let amount = e.after - e.before;
                    let detail = Some(attr.index());
                    let at = |on| Happened {
                        on,
                        subject: e.entity,
                        amount,
                        position: place,
                        detail,
                        holder: held,
                    };
                    push(at(On::Changed));
                    if amount < 0 {
                        push(at(On::Damaged));
                    } else if amount > 0 {
                        push(at(On::Healed));
                    }
                }
                What::Status(status, change) => {
                    use crate::eval::StatusChange as S;
                    let on = match change {
                        S::Acquired => On::StatusGained,
                        S::Expired | S::Removed => On::StatusEnded,
                        _ => continue,
                    };
                    push(Happened {
                        on,
                        subject: e.entity,
                        amount: e.after,
                        position: place,
                        detail: Some(status.index()),
                        holder: held,
                    });
                }
                What::Spawned(_) => push(Happened {
                    on: On::Summoned,
                    subject: e.entity,
                    amount: 0,
                    position: place,
                    detail: None,
                    holder: None,
                }),
                What::Moved(from, to) => {
                    let Some((set, table)) = cards else {
                        continue;
                    };
                    let made = from == crate::eval::zones::MADE;
                    let (from, to) = (usize::from(from), usize::from(to));
                    let to_zone = table.zone_of(to);
                    let from_zone = (!made).then(|| table.zone_of(from));
                    let was_held = if made { None } else { holder(from) };
                    let at = |on, detail, holder| Happened {
                        on,
                        subject: e.entity,
                        amount: 0,
                        position: e.after,
                        detail,
                        holder,
                    };
                    if let Some(z) = from_zone {
                        push(at(On::Leaves, Some(z.index()), was_held));
                    }
                    push(at(On::Enters, Some(to_zone.index()), holder(to)));
                    let into_play = set.zones[to_zone].in_play
                        && from_zone.is_none_or(|z| !set.zones[z].in_play);
                    if into_play {
                        push(at(On::Summoned, None, holder(to)));
                    }
                    if let (Some(hand), Some(z)) = (set.plays, from_zone) {
                        if to_zone == hand && set.zones[hand].draws_from == Some(z) {
                            push(at(On::Drawn, None, holder(to)));
                        }
                        if z == hand && set.zones[hand].discard_to == Some(to_zone) {
                            push(at(On::Discarded, None, was_held));
                        }
                    }
                }
                What::Fell(pile) => push(Happened {
                    on: On::Dies,
                    subject: e.entity,
                    amount: 0,
                    position: e.before,
                    detail: None,
                    holder: holder(usize::from(pile)),
                }),
                What::Die(_)
                | What::Rolled(..)
                | What::Kept(_)
                | What::Shuffled(..)
                | What::Shown(_) => {}
            }
        }
    }

    /// Queues every trigger that waits for `h`: those of the cards in an
    /// in-play zone, then the subject's own, wherever it is, if it is not in
    /// play (a card that has just died, been drawn or discarded).
    pub(super) fn match_one(&mut self, h: Happened) {
        let (Some(set), Some(tr)) = (self.rules.zones.as_ref(), self.triggers.as_deref_mut())
        else {
            return;
        };
        if tr.waited & (1 << h.on as u32) == 0 {
            return;
        }
        let (source, keyworded, depth) = (tr.source, tr.keyworded, tr.depth);
        let mut found = std::mem::take(&mut tr.matched);
        found.clear();
        let Some(table) = self.state.cards.as_deref() else {
            return;
        };
        let source = source.unwrap_or(self.current);
        for pile in 0..table.piles() {
            if !set.zones[table.zone_of(pile)].in_play {
                continue;
            }
            let controller = table.owner_of(set, pile).unwrap_or(self.current);
            for &bearer in table.contents(pile) {
                let Some(card) = table.card(bearer) else {
                    continue;
                };
                for (i, t) in self.cards[card.index()].triggers.iter().enumerate() {
                    if fits(t, &h) {
                        found.push((card, OWN, i as u16, bearer, controller));
                    }
                }
                if !keyworded {
                    continue;
                }
                // Then those of the keywords it holds, in the rule set's order.
                for (k, keyword) in self.rules.keywords.iter().enumerate() {
                    if keyword.triggers.is_empty()
                        || !self
                            .state
                            .statuses_of(bearer)
                            .any(|i| i.status == keyword.status)
                    {
                        continue;
                    }
                    for (i, t) in keyword.triggers.iter().enumerate() {
                        if fits(t, &h) {
                            found.push((card, k as u16, i as u16, bearer, controller));
                        }
                    }
                }
            }
        }
        let in_play = table
            .pile_of(h.subject)
            .is_some_and(|p| set.zones[table.zone_of(p)].in_play);
        if !in_play && let Some(card) = table.card(h.subject) {
            let controller = h.holder.unwrap_or(self.current);
            for (i, t) in self.cards[card.index()].triggers.iter().enumerate() {
                if t.own && fits(t, &h) {
                    found.push((card, OWN, i as u16, h.subject, controller));
                }
            }
        }
        // The seat whose turn it is first, then the others in turn order;
        // within a seat, in the order the cards are laid out.
        let seats = self.seats.max(1);
        let first = self.current.index() % seats;
        found.sort_by_key(|&(.., controller)| (controller.index() + seats - first) % seats);
        let depth = depth.saturating_add(1);
        for &(card, keyword, index, bearer, controller) in &found {
            let t = self.trigger(card, keyword, index);
            if let Some(filter) = &t.filter {
                let holds = self.trigger_frame(
                    bearer,
                    controller,
                    h.subject,
                    source,
                    h,
                    |_, state, roles| crate::eval::holds(filter, state, roles),
                );
                self.state.forget_rolls();
                if !holds {
                    continue;
                }
            }
            if let Some(tr) = self.triggers.as_deref_mut() {
                tr.queue.push_back(Run {
                    card,
                    keyword,
                    index,
                    bearer,
                    subject: h.subject,
                    source,
                    controller,
                    amount: h.amount,
                    position: h.position,
                    depth,
                });
            }
        }
        if let Some(tr) = self.triggers.as_deref_mut() {
            tr.matched = found;
        }
    }

    /// Calls `f` with `:this-card` bound to `bearer`, the event's numbers
    /// set, and the roles of a trigger: `controller`'s seat's, then
    /// `:subject` and `:source`; what `:this-card` and the numbers were is
    /// put back after.
    pub(super) fn trigger_frame<R>(
        &mut self,
        bearer: EntityId,
        controller: EntityId,
        subject: EntityId,
        source: EntityId,
        h: Happened,
        f: impl FnOnce(&crate::check::rules::RuleSet, &mut crate::eval::State, &[EntityId]) -> R,
    ) -> R {
        use crate::check::ast::EventField;
        let saved = self.state.cards.as_deref_mut().map(|t| {
            let was = t.this_card();
            t.set_this_card(bearer);
            was
        });
        let numbers = (
            self.state.event_number(EventField::Amount),
            self.state.event_number(EventField::Position),
        );
        self.state.set_event(h.amount, h.position);
        let n = self.role_count;
        let s = controller.index().min(self.seats.saturating_sub(1));
        let mut roles = self
            .triggers
            .as_deref_mut()
            .map(|t| std::mem::take(&mut t.frame))
            .unwrap_or_default();
        roles.clear();
        roles.extend_from_slice(&self.roles[s * n..][..n]);
        roles.extend([subject, source]);
        let out = f(self.rules, &mut self.state, &roles);
        if let Some(t) = self.triggers.as_deref_mut() {
            t.frame = roles;
        }
        if let (Some(t), Some(card)) = (self.state.cards.as_deref_mut(), saved) {
            t.set_this_card(card);
        }
        self.state.set_event(numbers.0, numbers.1);
        out
    }

    /// Runs the queued triggers, one at a time, until none is left or a
    /// budget ends the chain; a run's own events queue more behind.
    #[cold]
    #[inline(never)]
    pub(super) fn resolve_triggers(&mut self) {
        let Some(tr) = self.triggers.as_deref_mut() else {
            return;
        };
        if tr.resolving || tr.queue.is_empty() {
            return;
        }
        tr.resolving = true;
        if tr.turn != self.turn {
            tr.turn = self.turn;
            tr.this_turn.clear();
        }
        let (max_runs, max_depth) = (self.rules.trigger_runs, self.rules.trigger_depth);
        loop {
            if matches!(self.phase, super::Phase::Over(_)) {
                break;
            }
            let Some(tr) = self.triggers.as_deref_mut() else {
                break;
            };
            let Some(run) = tr.queue.pop_front() else {
                break;
            };
            if tr.runs >= max_runs || run.depth > max_depth {
                let dropped = tr.queue.len() as u32 + 1;
                tr.queue.clear();
                let runs = tr.runs;
                self.record(GameEvent::TriggerLoop {
                    card: run.card,
                    runs,
                    depth: run.depth,
                    dropped,
                });
                break;
            }
            let t = trigger_in(self.cards, self.rules, run.card, run.keyword, run.index);
            // Once set off, a trigger runs though its card has left play
            // since (a poisonous minion that falls as it strikes still
            // destroys what it struck), as Magic's and Hearthstone's do.
            if t.once_per_turn {
                let key = (run.bearer, run.keyword, run.index);
                if tr.this_turn.contains(&key) {
                    continue;
                }
                tr.this_turn.push(key);
            }
            tr.runs += 1;
            tr.depth = run.depth;
            let outer_source = tr.source.replace(run.bearer);
            self.reveal(run.bearer, run.card);
            self.record(GameEvent::Triggered {
                card: run.card,
                instance: run.bearer,
                keyword: run.keyword,
                index: run.index,
            });
            let h = Happened {
                on: t.on,
                subject: run.subject,
                amount: run.amount,
                position: run.position,
                detail: None,
                holder: None,
            };
            let effects = &self.trigger(run.card, run.keyword, run.index).effects;
            let mut events = std::mem::take(&mut self.events);
            self.trigger_frame(
                run.bearer,
                run.controller,
                run.subject,
                run.source,
                h,
                |rules, state, roles| {
                    crate::eval::apply(rules, effects, state, roles, &mut events);
                },
            );
            self.events = events;
            self.state.claim(Owner::Card(run.card.index()));
            let card = run.card;
            self.flush_events(|cause| By::Trigger(card, cause));
            if let Some(tr) = self.triggers.as_deref_mut() {
                tr.source = outer_source;
            }
        }
        if let Some(tr) = self.triggers.as_deref_mut() {
            tr.resolving = false;
            tr.runs = 0;
            tr.depth = 0;
        }
    }

    /// Trigger `index` of `card` ([`OWN`]), or of keyword `keyword`.
    fn trigger(&self, card: CardId, keyword: u16, index: u16) -> &'r Trigger {
        trigger_in(self.cards, self.rules, card, keyword, index)
    }

    /// A card whose trigger runs where some seat cannot see it (a card that
    /// acts as it is drawn) is shown to every seat first: what it does tells
    /// what it is, and the log names it.
    fn reveal(&mut self, bearer: EntityId, card: CardId) {
        let (Some(set), Some(t)) = (self.rules.zones.as_ref(), self.state.cards.as_deref_mut())
        else {
            return;
        };
        let (Some(pile), Some(at)) = (t.pile_of(bearer), t.position(bearer)) else {
            return;
        };
        let all = t.all_seats();
        if (t.visible_to(set, pile) | t.known(bearer)) & all == all {
            return;
        }
        t.show(bearer, all);
        self.events.push(crate::eval::Event {
            entity: bearer,
            what: What::Shown(pile as u16),
            before: all as i64,
            after: at as i64,
            cause: crate::eval::Cause::effect(0),
        });
        self.flush_events(|cause| By::Trigger(card, cause));
    }

    /// Before a batch is noted: the cards the engine's own rules moved into
    /// play get their keywords, and the batch's events are matched.
    #[cold]
    #[inline(never)]
    pub(super) fn before_notes(&mut self) {
        crate::eval::give_keywords(self.rules, &mut self.state, &mut self.events);
        self.match_batch();
    }

    /// After a batch and its removals are noted: auras follow, and what was
    /// set off runs.
    #[cold]
    #[inline(never)]
    pub(super) fn after_notes(&mut self) {
        self.update_auras();
        self.resolve_triggers();
    }

    /// Every aura of a card in play given to whom it reaches now, and taken
    /// from whom it no longer reaches (or whose card has left play): after
    /// each batch, so that it follows every change.
    #[cold]
    #[inline(never)]
    pub(super) fn update_auras(&mut self) {
        let Some(tr) = self.triggers.as_deref() else {
            return;
        };
        if tr.aura_statuses.is_empty() {
            return;
        }
        let (Some(set), Some(table)) = (self.rules.zones.as_ref(), self.state.cards.as_deref())
        else {
            return;
        };
        let mut bearers: Vec<(EntityId, CardId, EntityId)> = Vec::new();
        for pile in 0..table.piles() {
            if !set.zones[table.zone_of(pile)].in_play {
                continue;
            }
            let controller = table.owner_of(set, pile).unwrap_or(self.current);
            for &bearer in table.contents(pile) {
                if let Some(card) = table.card(bearer)
                    && !self.cards[card.index()].auras.is_empty()
                {
                    bearers.push((bearer, card, controller));
                }
            }
        }
        let mut wanted: Vec<(EntityId, crate::ids::StatusId, EntityId)> = Vec::new();
        let mut reached = Vec::new();
        for &(bearer, card, controller) in &bearers {
            for aura in &self.cards[card.index()].auras {
                reached.clear();
                let h = Happened::about(On::Changed, bearer, None);
                self.trigger_frame(bearer, controller, bearer, bearer, h, |_, state, roles| {
                    let n = roles.len() - 2;
                    crate::eval::members(
                        state,
                        &aura.source,
                        aura.filter.as_ref(),
                        &roles[..n],
                        aura.outer,
                        &mut reached,
                    );
                });
                wanted.extend(reached.iter().map(|&holder| (holder, aura.status, bearer)));
            }
        }
        self.state.forget_rolls();
        // What auras hold now: their statuses from a card that has such an aura.
        let cards = self.cards;
        let table = self.state.cards.as_deref();
        let held: Vec<(u32, EntityId, crate::ids::StatusId, EntityId)> = self
            .state
            .statuses()
            .iter()
            .filter(|i| {
                tr_has(self.triggers.as_deref(), i.status)
                    && table.and_then(|t| t.card(i.source)).is_some_and(|c| {
                        cards[c.index()].auras.iter().any(|a| a.status == i.status)
                    })
            })
            .map(|i| (i.serial, i.holder, i.status, i.source))
            .collect();
        let roles: Vec<EntityId> = self.roles[..self.role_count].to_vec();
        let mut events = std::mem::take(&mut self.events);
        let mut by_card = None;
        for &(serial, holder, status, source) in &held {
            if !wanted.contains(&(holder, status, source)) {
                crate::eval::end_status(self.rules, &mut self.state, &roles, serial, &mut events);
                by_card = by_card.or_else(|| table_card(&self.state, source));
            }
        }
        for &(holder, status, source) in &wanted {
            if !held
                .iter()
                .any(|&(_, h, s, src)| (h, s, src) == (holder, status, source))
            {
                crate::eval::acquire(
                    self.rules,
                    &mut self.state,
                    &roles,
                    holder,
                    source,
                    status,
                    0,
                    &mut events,
                );
                by_card = by_card.or_else(|| table_card(&self.state, source));
            }
        }
        self.events = events;
        if !self.events.is_empty() {
            let card = by_card.unwrap_or(CardId::MAX);
            self.match_batch();
            self.note_aura_events(card);
        }
    }

    /// Says that `h` happened outside the evaluator (a card played, a turn
    /// started): metrics measure it, and what it triggers runs.
    pub(super) fn happened(&mut self, h: Happened) {
        if self.meter.is_some() {
            self.meter_one(h);
        }
        if self.triggers.is_some() {
            self.match_one(h);
            self.resolve_triggers();
        }
    }

    /// Sets the entity whose effects run from now, for `:source`; returns the one before.
    pub(super) fn set_trigger_source(&mut self, source: Option<EntityId>) -> Option<EntityId> {
        // A game that keeps no triggers keeps it for its metrics.
        if let Some(meter) = self.meter.as_deref_mut() {
            let was = std::mem::replace(&mut meter.source, source);
            if self.triggers.is_none() {
                return was;
            }
        }
        match self.triggers.as_deref_mut() {
            Some(tr) => std::mem::replace(&mut tr.source, source),
            None => None,
        }
    }
}

/// Whether some card's aura gives `status`.
fn tr_has(tr: Option<&Triggers>, status: crate::ids::StatusId) -> bool {
    tr.is_some_and(|t| t.aura_statuses.binary_search(&status).is_ok())
}

/// The card of instance `entity`, if it is one.
fn table_card(state: &crate::eval::State, entity: EntityId) -> Option<CardId> {
    state.cards.as_deref().and_then(|t| t.card(entity))
}

/// Trigger `index` of `card` ([`OWN`]), or of keyword `keyword`, in `cards` and `rules`.
fn trigger_in<'r>(
    cards: &'r [crate::check::defs::Card],
    rules: &'r crate::check::rules::RuleSet,
    card: CardId,
    keyword: u16,
    index: u16,
) -> &'r Trigger {
    let list = match keyword {
        OWN => &cards[card.index()].triggers,
        k => &rules.keywords[usize::from(k)].triggers,
    };
    &list[usize::from(index)]
}
