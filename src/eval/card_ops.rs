//! Effects on cards and queries of zones, evaluated (a rule set with
//! `:zones`): draws, discards, moves, shuffles, looks, reveals, cards made,
//! destroyed and removed, through the primitives of [`super::zones`]; and
//! `count`, `sum`, `max-of`, `min-of` and `:each` over a pile or the cards
//! beside one, `top`, `bottom`, `slot`, `named`, `of-kind`, `in`.
//!
//! Every arm here is cold: a rule set without `:zones` never reaches one
//! (the checker refuses them there), and a plain effect list runs as it did.
//!
//! A loop or a selection first copies the cards it goes through onto the
//! card table's scratch stack, above those of any loop around it, and takes
//! them off when it is done: it visits the cards that were there when it
//! began (skipping any that left meanwhile), and allocates nothing once the
//! stack has grown.

use rand::RngExt;

use super::state::MAX_ENTITIES;
use super::zones::{self, At, CardRequest, CardTable};
use super::{Cause, Event, Exhausted, Owner, State, What};
use super::{Frame, boolean, each_of_kind, entity, int, with_bindings};
use crate::check::ast::{
    CardOp, CardPick, CardVerb, Cards, Edge, Over, Place, Selection, Source, ZoneRef,
};
use crate::check::rules::RuleSet;
use crate::ids::{EntityId, RoleId};

/// The most cards one draw or one `:create` makes: a zone's most.
const MAX_CARDS: i64 = crate::check::ast::MAX_PILE as i64;

/// An empty site of a board, as the table marks it.
const HOLE: EntityId = EntityId::MAX;

/// The pile `zone` names in `frame`: its owner worked out, for a zone per seat.
pub(super) fn pile(zone: &ZoneRef, state: &mut State, frame: &Frame<'_>) -> Option<usize> {
    let owner = zone.owner.as_ref().map(|o| entity(o, state, frame));
    state.cards.as_deref()?.pile_at(zone.zone, owner)
}

/// `:this-card`: the card whose effects run (the first seat where none is,
/// so a reading never fails).
pub(super) fn this_card(state: &State) -> EntityId {
    state
        .cards
        .as_deref()
        .map_or(EntityId::FIRST, CardTable::this_card)
}

/// The table, which every caller here has checked is there.
fn table(state: &mut State) -> Option<&mut CardTable> {
    state.cards.as_deref_mut()
}

/// Copies the cards of `source` onto the scratch stack: a pile's, bottom
/// first; the cards beside one on its board, left first. Where they start
/// and end there, and the pile they are in.
fn snapshot(
    state: &mut State,
    frame: &Frame<'_>,
    source: &Source,
) -> Option<(usize, usize, usize)> {
    let (pile, beside) = match source {
        Source::Kind(_) => return None,
        Source::Zone(zone) => (pile(zone, state, frame)?, None),
        Source::Adjacent(who) => {
            let who = entity(who, state, frame);
            let t = state.cards.as_deref()?;
            (t.pile_of(who)?, Some(t.position(who)?))
        }
    };
    let (start, end) = table(state)?.snapshot(pile, beside);
    Some((start, end, pile))
}

/// The card at `i` of the scratch stack.
fn scratch_at(state: &State, i: usize) -> EntityId {
    state
        .cards
        .as_deref()
        .and_then(|t| t.scratch.get(i).copied())
        .unwrap_or(HOLE)
}

/// Takes the scratch stack back down to `len`.
fn release(state: &mut State, len: usize) {
    if let Some(t) = table(state) {
        t.scratch.truncate(len);
    }
}

/// Calls `f` for each entity of `source`, with the first `outer` roles of
/// `frame` and then `:self` bound to it: a kind's in play (as
/// [`each_of_kind`]), or the cards of a pile or beside a card as they were
/// when it began, skipping any that have left it since. Each costs a unit of work.
/// Every card come into play since this was last done acquires its
/// keywords' statuses, itself their source (its printed keywords, given
/// each time it enters): after each effect on cards, and after the engine's
/// own moves.
pub fn give_keywords(rules: &RuleSet, state: &mut State, events: &mut Vec<Event>) {
    let Some((entered, specs)) = state.cards.as_deref_mut().map(CardTable::take_entered) else {
        return;
    };
    for &entity in &entered {
        // Only while it is still in play.
        let (Some(_), Some(table)) = (state.kind(entity), state.cards.as_deref()) else {
            continue;
        };
        for &status in table.keywords_of(&specs, entity) {
            super::status::acquire(rules, state, &[entity], entity, entity, status, 0, events);
        }
    }
    if let Some(table) = state.cards.as_deref_mut() {
        table.give_back_entered(entered);
    }
}

/// The entities of `source` for which `filter` holds (with `:self`, role
/// `outer`, bound to each, after `roles`), pushed to `out` in the order a
/// loop over them visits them: whom an aura reaches.
pub fn members(
    state: &mut State,
    source: &Source,
    filter: Option<&crate::check::ast::Bool>,
    roles: &[EntityId],
    outer: RoleId,
    out: &mut Vec<EntityId>,
) {
    let frame = Frame::outside(roles);
    let slot = outer.index().min(roles.len());
    each_in(state, &frame, source, outer, |state, inner| {
        if filter.is_none_or(|c| super::boolean(c, state, inner)) {
            out.push(inner.roles[slot]);
        }
    });
}

pub(super) fn each_in(
    state: &mut State,
    frame: &Frame<'_>,
    source: &Source,
    outer: RoleId,
    mut f: impl FnMut(&mut State, &Frame<'_>),
) {
    if let Source::Kind(kind) = source {
        return each_of_kind(state, frame, *kind, outer, f);
    }
    let Some((start, end, pile)) = snapshot(state, frame, source) else {
        return;
    };
    let outer = outer.index().min(frame.roles.len());
    with_bindings(&frame.roles[..outer], 1, |roles| {
        for i in start..end {
            if !state.spend(1) {
                break;
            }
            let card = scratch_at(state, i);
            let here = state.cards.as_deref().and_then(|t| t.pile_of(card));
            if here != Some(pile) {
                continue;
            }
            roles[outer] = card;
            f(state, &Frame { roles, ..*frame });
        }
    });
    release(state, start);
}

/// `[count …]` and `[sum …]`: the value summed over the source's entities
/// for which the condition holds, with `:self` bound to each in turn.
pub(super) fn sum(over: &Over, state: &mut State, frame: &Frame<'_>) -> i64 {
    let mut total = 0i64;
    each_in(state, frame, &over.source, over.outer, |state, inner| {
        if over
            .filter
            .as_ref()
            .is_none_or(|c| boolean(c, state, inner))
        {
            total = total.saturating_add(int(&over.value, state, inner));
        }
    });
    total
}

/// `[max-of …]` (`max`) and `[min-of …]`: 0 when no entity is there.
pub(super) fn extreme(max: bool, over: &Over, state: &mut State, frame: &Frame<'_>) -> i64 {
    let mut best: Option<i64> = None;
    each_in(state, frame, &over.source, over.outer, |state, inner| {
        if over
            .filter
            .as_ref()
            .is_none_or(|c| boolean(c, state, inner))
        {
            let v = int(&over.value, state, inner);
            best = Some(match best {
                Some(b) if max => b.max(v),
                Some(b) => b.min(v),
                None => v,
            });
        }
    });
    best.unwrap_or(0)
}

/// `[top ZONE value default]` (`top`) and `[bottom …]`.
pub(super) fn edge(top: bool, edge: &Edge, state: &mut State, frame: &Frame<'_>) -> i64 {
    let card = pile(&edge.zone, state, frame).and_then(|p| {
        let cards = state.cards.as_deref()?.contents(p);
        let mut real = cards.iter().copied().filter(|&e| e != HOLE);
        if top { real.next_back() } else { real.next() }
    });
    let Some(card) = card else {
        return int(&edge.default, state, frame);
    };
    let outer = edge.outer.index().min(frame.roles.len());
    with_bindings(&frame.roles[..outer], 1, |roles| {
        roles[outer] = card;
        int(&edge.value, state, &Frame { roles, ..*frame })
    })
}

/// `[slot card]`: its place on its board, from 0; -1 off a board.
pub(super) fn slot(who: EntityId, state: &State) -> i64 {
    let Some(t) = state.cards.as_deref() else {
        return -1;
    };
    match (t.pile_of(who), t.position(who)) {
        (Some(p), Some(at)) if t.is_board(p) => at as i64,
        _ => -1,
    }
}

/// `[named card "Name"]`.
pub(super) fn named(who: EntityId, name: &str, state: &State) -> bool {
    state
        .cards
        .as_deref()
        .is_some_and(|t| t.is_named(who, name))
}

/// `[of-kind who :kind]`: its kind in play, or, for a card out of play, the
/// kind it has in play.
pub(super) fn of_kind(who: EntityId, kind: crate::ids::KindId, state: &State) -> bool {
    state.kind(who) == Some(kind)
        || state
            .cards
            .as_deref()
            .and_then(|t| t.kind_in_play(who))
            .is_some_and(|k| k == kind && state.is_zoned(who))
}

/// `[in card ZONE]`.
pub(super) fn is_in(who: EntityId, zone: &ZoneRef, state: &mut State, frame: &Frame<'_>) -> bool {
    let at = pile(zone, state, frame);
    at.is_some() && state.cards.as_deref().and_then(|t| t.pile_of(who)) == at
}

/// The cards `sel` picks, left on the scratch stack from its returned start
/// to its end (the caller takes them off): the source's cards for which the
/// condition holds, then the count of them from the top (top first), the
/// bottom, at random, or all.
fn select(state: &mut State, frame: &Frame<'_>, sel: &Selection) -> Option<(usize, usize)> {
    let n = int(&sel.count, state, frame).clamp(0, MAX_CARDS) as usize;
    let (start, end, _) = snapshot(state, frame, &sel.from)?;
    let mut kept = end;
    if let Some(filter) = &sel.filter {
        let outer = sel.outer.index().min(frame.roles.len());
        kept = start;
        with_bindings(&frame.roles[..outer], 1, |roles| {
            for i in start..end {
                let card = scratch_at(state, i);
                roles[outer] = card;
                if boolean(filter, state, &Frame { roles, ..*frame })
                    && let Some(t) = table(state)
                {
                    t.scratch[kept] = card;
                    kept += 1;
                }
            }
        });
    }
    let t = table(state)?;
    t.scratch.truncate(kept);
    let len = kept - start;
    let take = n.min(len);
    let chosen = &mut t.scratch[start..];
    match sel.pick {
        CardPick::All | CardPick::Chosen => return Some((start, kept)),
        CardPick::Bottom => {}
        CardPick::Top => chosen.reverse(),
        CardPick::Random => {
            for k in 0..take {
                let j = state.rng.random_range(k..len);
                if let Some(t) = table(state) {
                    t.scratch.swap(start + k, start + j);
                }
            }
        }
    }
    release(state, start + take);
    Some((start, start + take))
}

/// Calls `f` for each card `cards` names: the one a role names (if it is a
/// card), or those a selection picks.
fn each_card(
    state: &mut State,
    frame: &Frame<'_>,
    cards: &Cards,
    mut f: impl FnMut(&mut State, EntityId),
) {
    match cards {
        Cards::One(who) => {
            let card = entity(who, state, frame);
            if state.cards.as_deref().and_then(|t| t.card(card)).is_some() {
                f(state, card);
            }
        }
        Cards::Pick(sel) => {
            let Some((start, end)) = select(state, frame, sel) else {
                return;
            };
            for i in start..end {
                let card = scratch_at(state, i);
                f(state, card);
            }
            release(state, start);
        }
    }
}

/// The most roles a rule set's empty pile's effects are given here.
const MAX_ROLES: usize = 16;

/// The roles of seat `seat`'s turn (`:you` the seat, then the next ones, as
/// the engine binds them), for an empty pile's `:when-empty` effects, into
/// `out`; `around`'s where `seat` is no seat. How many there are.
fn seat_roles(
    rules: &RuleSet,
    state: &State,
    seat: EntityId,
    around: &[EntityId],
    out: &mut [EntityId; MAX_ROLES],
) -> usize {
    let seats = state.cards.as_deref().map_or(0, CardTable::seats);
    let n = rules.roles.len().min(MAX_ROLES);
    if seat.index() >= seats {
        let n = n.min(around.len());
        out[..n].copy_from_slice(&around[..n]);
        return n;
    }
    for (i, r) in out[..n].iter_mut().enumerate() {
        *r = EntityId::new((seat.index() + i) % seats);
    }
    n
}

/// Where in a pile `place` puts a card: `None` for a slot off the board
/// (refused).
fn at(
    rules: &RuleSet,
    place: &Place,
    zone: &ZoneRef,
    state: &mut State,
    frame: &Frame<'_>,
) -> Option<At> {
    Some(match place {
        Place::Top => At::Top,
        Place::Bottom => At::Bottom,
        Place::Random => At::Random,
        Place::Slot(n) => {
            let n = int(n, state, frame);
            let slots = rules
                .zones
                .as_ref()
                .and_then(|set| set.zones.get(zone.zone))
                .map_or(0, |z| i64::from(z.slots));
            if !(0..slots).contains(&n) {
                return None;
            }
            At::Slot(n as u16)
        }
    })
}

/// Applies an effect on cards: `who` is its effected entity, `amount` its
/// amount (the cards a draw draws, a `:create` makes).
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(super) fn apply(
    rules: &RuleSet,
    state: &mut State,
    frame: &Frame<'_>,
    op: &CardOp,
    who: EntityId,
    amount: i64,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    if state.cards.is_none() {
        return;
    }
    apply_op(rules, state, frame, op, who, amount, cause, events);
    give_keywords(rules, state, events);
}

/// [`apply`]'s change itself.
#[allow(clippy::too_many_arguments)]
fn apply_op(
    rules: &RuleSet,
    state: &mut State,
    frame: &Frame<'_>,
    op: &CardOp,
    who: EntityId,
    amount: i64,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    match &op.verb {
        CardVerb::Draw(from) => draw(
            rules,
            state,
            frame,
            op,
            from.as_ref(),
            who,
            amount,
            cause,
            events,
        ),
        CardVerb::Create(name) => {
            let (Some(dest), Some(t)) = (&op.to, state.cards.as_deref()) else {
                return;
            };
            let Some(def) = t.card_named(&name.name) else {
                return;
            };
            let Some(into) = pile(&dest.zone, state, frame) else {
                return;
            };
            let Some(place) = at(rules, &dest.at, &dest.zone, state, frame) else {
                return;
            };
            for _ in 0..amount.clamp(0, MAX_CARDS) {
                if state.len() >= MAX_ENTITIES {
                    state.exhaust(Exhausted::Entities);
                    return;
                }
                if !state.spend(1)
                    || zones::create(rules, state, def, (into, place), cause, events).is_none()
                {
                    return;
                }
            }
        }
        CardVerb::Shuffle(zone) => {
            if let Some(p) = pile(zone, state, frame) {
                zones::shuffle(rules, state, p, cause, events);
            }
        }
        CardVerb::Pass(passed, next) => {
            for &zone in passed.iter() {
                zones::pass(rules, state, zone, *next, cause, events);
            }
        }
        CardVerb::Look | CardVerb::Reveal(_) => {
            let seats = match &op.verb {
                CardVerb::Reveal(None) => state.cards.as_deref().map_or(0, CardTable::all_seats),
                CardVerb::Reveal(Some(to)) => seat_bit(entity(to, state, frame), state),
                _ => seat_bit(who, state),
            };
            if let Some(cards) = &op.cards {
                each_card(state, frame, cards, |state, card| {
                    show(state, card, seats, cause, events)
                });
            }
        }
        CardVerb::Discard => {
            if let Some(Cards::Pick(sel)) = &op.cards
                && sel.pick == CardPick::Chosen
            {
                let n = int(&sel.count, state, frame).clamp(0, MAX_CARDS) as u16;
                if n > 0
                    && let Some(t) = table(state)
                {
                    t.request(CardRequest {
                        seat: who,
                        count: n,
                    });
                }
                return;
            }
            move_to(rules, state, frame, op, cause, events);
        }
        CardVerb::Move => move_to(rules, state, frame, op, cause, events),
        CardVerb::Destroy => {
            if let Some(cards) = &op.cards {
                each_card(state, frame, cards, |state, card| {
                    destroy(rules, state, card, cause, events)
                });
            }
        }
        CardVerb::Cancel => {
            if let Some(cards) = &op.cards {
                each_card(state, frame, cards, |state, card| {
                    if let Some(t) = table(state) {
                        t.cancel(card);
                    }
                });
            }
        }
        CardVerb::Remove => {
            let (Some(set), Some(cards)) = (rules.zones.as_ref(), &op.cards) else {
                return;
            };
            let Some(removed) = state
                .cards
                .as_deref()
                .and_then(|t| t.pile_at(set.removed, None))
            else {
                return;
            };
            each_card(state, frame, cards, |state, card| {
                zones::move_card(rules, state, card, removed, At::Top, cause, events);
            });
        }
    }
}

/// `{:draw N}`: `who` draws `amount` cards into the effect's `:to`, from
/// `from`, or else from what that zone `:draws-from` (`who`'s pile of it).
#[allow(clippy::too_many_arguments)]
fn draw(
    rules: &RuleSet,
    state: &mut State,
    frame: &Frame<'_>,
    op: &CardOp,
    from: Option<&ZoneRef>,
    who: EntityId,
    amount: i64,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let (Some(set), Some(dest)) = (rules.zones.as_ref(), &op.to) else {
        return;
    };
    let Some(into) = pile(&dest.zone, state, frame) else {
        return;
    };
    let source = match from {
        Some(z) => pile(z, state, frame),
        None => set.zones[dest.zone.zone].draws_from.and_then(|z| {
            let owner = (!set.zones[z].shared).then_some(who);
            state.cards.as_deref()?.pile_at(z, owner)
        }),
    };
    let Some(source) = source else {
        return;
    };
    for _ in 0..amount.clamp(0, MAX_CARDS) {
        if !state.spend(1) {
            return;
        }
        let mut roles = [EntityId::FIRST; MAX_ROLES];
        let n = seat_roles(rules, state, who, frame.roles, &mut roles);
        zones::draw_between(
            rules,
            state,
            &roles[..n],
            who,
            (source, into),
            cause,
            events,
        );
        state.claim(Owner::Rules);
    }
}

/// Moves the cards an effect names to its `:to`, at its place.
fn move_to(
    rules: &RuleSet,
    state: &mut State,
    frame: &Frame<'_>,
    op: &CardOp,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    let (Some(dest), Some(cards)) = (&op.to, &op.cards) else {
        return;
    };
    let Some(into) = pile(&dest.zone, state, frame) else {
        return;
    };
    let Some(place) = at(rules, &dest.at, &dest.zone, state, frame) else {
        return;
    };
    each_card(state, frame, cards, |state, card| {
        zones::move_card(rules, state, card, into, place, cause, events);
    });
}

/// `{:destroy …}` of one card: one in play falls as its kind's
/// `:removed-when` would make it (out of play, its `:on-removed` run, with
/// `:self` bound); then, in play or not, it goes where its zone's
/// `:leaves-to` says, else out of the game.
fn destroy(
    rules: &RuleSet,
    state: &mut State,
    card: EntityId,
    cause: Cause,
    events: &mut Vec<Event>,
) {
    if let Some(kind) = state.kind(card) {
        zones::fallen(state, card, events);
        state.remove(card);
        if let Some(effects) = rules.on_removed.get(kind)
            && !effects.is_empty()
        {
            super::apply(rules, effects, state, &[card], events);
            state.claim(Owner::Rules);
        }
    }
    zones::fell_by(rules, state, card, cause, events);
}

/// The bit of `who`'s seat; none for an entity that is no seat.
fn seat_bit(who: EntityId, state: &State) -> u64 {
    let seats = state.cards.as_deref().map_or(0, CardTable::seats);
    if who.index() < seats.min(64) {
        1u64 << who.index()
    } else {
        0
    }
}

/// `seats` see `card`, and know it from now on: logged.
fn show(state: &mut State, card: EntityId, seats: u64, cause: Cause, events: &mut Vec<Event>) {
    let Some(t) = table(state) else {
        return;
    };
    let (Some(pile), Some(at)) = (t.pile_of(card), t.position(card)) else {
        return;
    };
    t.show(card, seats);
    events.push(Event {
        entity: card,
        what: What::Shown(pile as u16),
        before: seats as i64,
        after: at as i64,
        cause,
    });
}
