//! Dice: rolls drawn from the state's generator, who rolled them, and their
//! events moved into the log with the change they fed.

use rand::RngExt;

use super::expr::{Frame, int};
use super::{Cause, Event, State, What};
use crate::ast::{Entity, EntityId, Int};

/// Moves the dice rolled so far, if any, into `events`, as rolled by `who`
/// for `cause`. Only the test is inlined; the move is out of line.
#[inline(always)]
pub(super) fn flush_rolls(state: &mut State, who: EntityId, cause: Cause, events: &mut Vec<Event>) {
    if !state.rolls.is_empty() {
        move_rolls(state, who, cause, events);
    }
}

#[cold]
#[inline(never)]
fn move_rolls(state: &mut State, who: EntityId, cause: Cause, events: &mut Vec<Event>) {
    events.extend(state.rolls.drain(..).map(|e| Event {
        entity: if e.entity == ROLLER_UNKNOWN {
            who
        } else {
            e.entity
        },
        cause,
        ..e
    }));
}

/// The entity of a roll event whose roller is the entity its change is to.
pub(super) const ROLLER_UNKNOWN: EntityId = EntityId::MAX;

/// Who rolls `[+ 1d6 [:you :dex]]`: the entity whose attribute its modifier
/// reads first (`:you`, so the log says "pain rolls 1d6+10"); otherwise
/// [`ROLLER_UNKNOWN`], and the roll is the changed entity's.
pub(super) fn roller(e: &Int, frame: &Frame<'_>) -> EntityId {
    match e {
        Int::Attr(Entity::Role(r), _) => frame
            .roles
            .get(*r as usize)
            .copied()
            .unwrap_or(ROLLER_UNKNOWN),
        Int::Attr(Entity::Target, _) => frame.target,
        Int::Fold(_, items) => items
            .iter()
            .map(|i| roller(i, frame))
            .find(|&r| r != ROLLER_UNKNOWN)
            .unwrap_or(ROLLER_UNKNOWN),
        Int::Neg(a) | Int::Abs(a) | Int::Best(_, a) => roller(a, frame),
        Int::Roll(r) => roller(&r.1, frame),
        Int::Lookup(l) => roller(&l.1, frame),
        Int::Formula(f) => f
            .args
            .iter()
            .map(|i| roller(i, frame))
            .find(|&r| r != ROLLER_UNKNOWN)
            .unwrap_or(ROLLER_UNKNOWN),
        _ => ROLLER_UNKNOWN,
    }
}

/// Rolls `dice` and adds `extra` to its modifier: each face from the state's
/// generator, recorded to be logged.
#[cold]
#[inline(never)]
pub(super) fn roll(dice: &crate::dice::Dice, extra: i64, by: EntityId, state: &mut State) -> i64 {
    use crate::dice::Keep;
    let first = state.rolls.len();
    for _ in 0..dice.count {
        let face = state.rng.random_range(1..=i64::from(dice.sides));
        state.rolls.push(Event {
            entity: by,
            what: What::Die(dice.sides),
            before: 1,
            after: face,
            cause: Cause::effect(0),
        });
    }
    // Drop the lowest (keep high) or highest (keep low) until `n` are left;
    // among equal faces the later one goes, so the log reads left to right.
    let (n, high) = match dice.keep {
        Keep::All => (dice.count, true),
        Keep::High(n) => (n, true),
        Keep::Low(n) => (n, false),
    };
    for _ in n..dice.count {
        let faces = &mut state.rolls[first..];
        let worst = faces
            .iter()
            .enumerate()
            .filter(|(_, e)| e.before == 1)
            .fold(None, |worst: Option<(usize, i64)>, (i, e)| match worst {
                Some((_, w)) if (high && e.after > w) || (!high && e.after < w) => worst,
                _ => Some((i, e.after)),
            });
        if let Some((i, _)) = worst {
            faces[i].before = 0;
        }
    }
    let kept: i64 = state.rolls[first..]
        .iter()
        .filter(|e| e.before == 1)
        .map(|e| e.after)
        .sum();
    let modifier = dice.modifier.saturating_add(extra);
    let total = kept.saturating_add(modifier);
    state.rolls.push(Event {
        entity: by,
        what: What::Rolled(dice.sides, dice.keep.kind()),
        before: modifier,
        after: total,
        cause: Cause::effect(0),
    });
    total
}

/// `[advantage a]` / `[disadvantage a]`: `a` twice, the higher (lower) kept.
#[cold]
#[inline(never)]
pub(super) fn best_of_two(higher: bool, a: &Int, state: &mut State, frame: &Frame<'_>) -> i64 {
    let (x, y) = (int(a, state, frame), int(a, state, frame));
    let (kept, other) = if (x >= y) == higher { (x, y) } else { (y, x) };
    state.rolls.push(Event {
        entity: roller(a, frame),
        what: What::Kept(higher),
        before: other,
        after: kept,
        cause: Cause::effect(0),
    });
    kept
}
