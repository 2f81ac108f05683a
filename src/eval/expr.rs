//! Expressions evaluated against a state: integers, decimals, conditions and
//! entities, in a [`Frame`] of role bindings; the public entry points
//! ([`eval_expr`], [`holds`], [`value`]).

use rand::RngExt;

use super::{Cause, Event, State, What, status};
use crate::check::ast::{Arith, Bool, Dec, Entity, EntityId, Expr, Int, Rounding};
use crate::check::rules::KindId;
use crate::ids::RoleId;

/// Bindings for one application: which entity each role means.
#[derive(Clone, Copy)]
pub(super) struct Frame<'b> {
    pub(super) roles: &'b [EntityId],
    pub(super) target: EntityId,
    /// `:amount` in an operation; `:magnitude` in a status's effects (which
    /// have no `:amount`): one slot, so the frame stays as small as it was.
    pub(super) amount: i64,
}

impl<'b> Frame<'b> {
    /// Bindings outside any effect: for expressions evaluated on their own.
    pub(super) fn outside(roles: &'b [EntityId]) -> Frame<'b> {
        Frame {
            roles,
            target: EntityId::FIRST,
            amount: 0,
        }
    }
}

/// Calls `f` with role bindings for one run of effects: the roles `around`,
/// then `more` slots for the entities bound after them (`:self`, `:holder`,
/// `:source`), 0 until set. Up to 16 live on the stack, so hooks and `:each`
/// runs allocate nothing.
#[inline]
pub fn with_bindings<R>(
    around: &[EntityId],
    more: usize,
    f: impl FnOnce(&mut [EntityId]) -> R,
) -> R {
    let len = around.len() + more;
    let mut stack = [EntityId::FIRST; 16];
    let mut heap = Vec::new();
    let roles: &mut [EntityId] = if len <= stack.len() {
        &mut stack[..len]
    } else {
        heap.resize(len, EntityId::FIRST);
        &mut heap
    };
    roles[..around.len()].copy_from_slice(around);
    f(roles)
}

/// The value of an [`Expr`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A decimal.
    Dec(f64),
    /// A truth value.
    Bool(bool),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Dec(d) => write!(f, "{d:?}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// Evaluates any checked expression against a state.
pub fn eval_expr(e: &Expr, state: &mut State, roles: &[EntityId]) -> Value {
    let frame = &Frame::outside(roles);
    match e {
        Expr::Int(i) => Value::Int(int(i, state, frame)),
        Expr::Dec(d) => Value::Dec(dec(d, state, frame)),
        Expr::Bool(b) => Value::Bool(boolean(b, state, frame)),
    }
}

/// Does condition `cond` hold, with role `i` bound to entity `roles[i]`?
/// Dice it rolls wait to be logged with the next change, or dropped by
/// [`State::forget_rolls`].
pub fn holds(cond: &Bool, state: &mut State, roles: &[EntityId]) -> bool {
    boolean(cond, state, &Frame::outside(roles))
}

/// The value of integer expression `e`, with role `i` bound to entity `roles[i]`.
/// Dice it rolls wait as [`holds`]'s do; [`value_logged`] logs them.
pub fn value(e: &Int, state: &mut State, roles: &[EntityId]) -> i64 {
    int(e, state, &Frame::outside(roles))
}

/// The value of `e`, as [`value`], with the dice it rolls pushed to `events`
/// as rolled by `roles[0]`.
pub fn value_logged(
    e: &Int,
    state: &mut State,
    roles: &[EntityId],
    events: &mut Vec<Event>,
) -> i64 {
    let n = int(e, state, &Frame::outside(roles));
    let who = roles.first().copied().unwrap_or_default();
    flush_rolls(state, who, Cause::effect(0), events);
    n
}

pub(super) fn int(e: &Int, state: &mut State, frame: &Frame<'_>) -> i64 {
    match e {
        Int::Lit(n) => *n,
        Int::Pick(cmp, r, attr, n, then, other) => {
            if cmp.test(state.get(frame.roles[(*r).index()], *attr), *n) {
                *then
            } else {
                *other
            }
        }
        // The common smart value `[:you :wall]`, without a call to resolve the entity.
        Int::Attr(Entity::Role(r), attr) => state.get(frame.roles[(*r).index()], *attr),
        Int::Attr(who, attr) => {
            let who = entity(who, state, frame);
            state.get(who, *attr)
        }
        Int::Amount => frame.amount,
        Int::Fold(op, items) => {
            let Some((first, rest)) = items.split_first() else {
                return 0;
            };
            let mut acc = operand(first, state, frame);
            for item in rest {
                let v = operand(item, state, frame);
                acc = match op {
                    Arith::Add => acc.saturating_add(v),
                    Arith::Sub => acc.saturating_sub(v),
                    Arith::Mul => acc.saturating_mul(v),
                    Arith::Min => acc.min(v),
                    Arith::Max => acc.max(v),
                };
            }
            acc
        }
        Int::Neg(a) => operand(a, state, frame).saturating_neg(),
        Int::If(c, a, b) => {
            // Simple logic on a smart value with literal branches, `[= [:you :wall] 0 6 3]`,
            // is the seed's commonest shape: it runs here without further calls.
            let holds = match **c {
                Bool::AttrCmp(cmp, r, attr, n) => {
                    cmp.test(state.get(frame.roles[r.index()], attr), n)
                }
                ref c => boolean(c, state, frame),
            };
            match if holds { &**a } else { &**b } {
                Int::Lit(n) => *n,
                e => int(e, state, frame),
            }
        }
        Int::Round(mode, d) => {
            let x = dec(d, state, frame);
            // `as` saturates at the i64 limits and maps NaN to 0.
            match mode {
                Rounding::Nearest => x.round() as i64,
                Rounding::Floor => x.floor() as i64,
                Rounding::Ceil => x.ceil() as i64,
            }
        }
        Int::Random(lo, hi) => {
            let (a, b) = (int(lo, state, frame), int(hi, state, frame));
            let (lo, hi) = (a.min(b), a.max(b));
            state.rng.random_range(lo..=hi)
        }
        Int::Magnitude => frame.amount,
        Int::Statuses(who, filter) => {
            let who = entity(who, state, frame);
            status::count(state, who, filter, status::Count::Instances)
        }
        Int::TurnsLeft(who, filter) => {
            let who = entity(who, state, frame);
            status::count(state, who, filter, status::Count::TurnsLeft)
        }
        Int::Abs(a) => abs(a, state, frame),
        Int::Count(over) | Int::Sum(over) => sum_over(over, state, frame),
        Int::Extreme(max, over) => super::card_ops::extreme(*max, over, state, frame),
        Int::Edge(top, edge) => super::card_ops::edge(*top, edge, state, frame),
        Int::Slot(who) => {
            let who = entity(who, state, frame);
            super::card_ops::slot(who, state)
        }
        Int::Dice(d) => roll(d, 0, ROLLER_UNKNOWN, state),
        Int::Roll(r) => {
            let extra = int(&r.1, state, frame);
            roll(&r.0, extra, roller(&r.1, frame), state)
        }
        Int::Lookup(l) => lookup(l, state, frame),
        Int::Formula(f) => formula(f, state, frame),
        Int::Arg(i) => state
            .args
            .get(state.arg_base + usize::from(*i))
            .copied()
            .unwrap_or(0),
        Int::Best(higher, a) => best_of_two(*higher, a, state, frame),
        Int::Choice(column) => state
            .choice
            .and_then(|o| column.get(o.index()))
            .copied()
            .unwrap_or(0),
        Int::Event(field) => state.event_number(*field),
    }
}

/// A condition inside another: the commonest (an attribute compared with a
/// number) tested here, without a call into [`boolean`].
#[inline(always)]
fn test(e: &Bool, state: &mut State, frame: &Frame<'_>) -> bool {
    match *e {
        Bool::AttrCmp(cmp, r, attr, n) => cmp.test(state.get(frame.roles[r.index()], attr), n),
        ref e => boolean(e, state, frame),
    }
}

/// An operand of an operator: the leaves most operands are (a number, a
/// smart value of a role, `:amount`) read here, without a call into [`int`].
#[inline(always)]
fn operand(e: &Int, state: &mut State, frame: &Frame<'_>) -> i64 {
    match *e {
        Int::Lit(n) => n,
        Int::Attr(Entity::Role(r), attr) => state.get(frame.roles[r.index()], attr),
        Int::Amount => frame.amount,
        ref e => int(e, state, frame),
    }
}

/// `[abs a]`, out of line so that `int`'s frame, on the evaluator's recursion path, stays small.
#[inline(never)]
fn abs(a: &Int, state: &mut State, frame: &Frame<'_>) -> i64 {
    int(a, state, frame).saturating_abs()
}

/// `[formula :name a …]`: the arguments evaluated once each, then the body
/// with them bound. Out of line so that `int`'s frame stays small.
#[inline(never)]
fn formula(f: &crate::check::ast::Formula, state: &mut State, frame: &Frame<'_>) -> i64 {
    let base = state.args.len();
    for a in &f.args {
        let v = int(a, state, frame);
        state.args.push(v);
    }
    let outer = std::mem::replace(&mut state.arg_base, base);
    let v = int(&f.def.body, state, frame);
    state.arg_base = outer;
    state.args.truncate(base);
    v
}

/// `[lookup :table x]`, out of line so that `int`'s frame stays small.
#[inline(never)]
fn lookup(l: &(crate::check::ast::Lookup, Int), state: &mut State, frame: &Frame<'_>) -> i64 {
    l.0.get(int(&l.1, state, frame))
}

/// `[count …]` and `[sum …]`: the value summed over the entities of a kind in
/// play (or the cards of a pile) for which the condition holds, with `:self`
/// bound to each in turn.
#[cold]
#[inline(never)]
fn sum_over(over: &crate::check::ast::Over, state: &mut State, frame: &Frame<'_>) -> i64 {
    super::card_ops::sum(over, state, frame)
}

/// Calls `f` for each entity of `kind` in play, in the order they were added,
/// with the first `outer` roles of `frame` and then `:self`, bound to it.
/// Entities added meanwhile wait for the next run.
#[inline]
pub(super) fn each_of_kind(
    state: &mut State,
    frame: &Frame<'_>,
    kind: KindId,
    outer: RoleId,
    mut f: impl FnMut(&mut State, &Frame<'_>),
) {
    let outer = outer.index().min(frame.roles.len());
    with_bindings(&frame.roles[..outer], 1, |roles| {
        for entity in EntityId::below(state.len()) {
            // Each entity looked at is work: nested loops are what fans out.
            if !state.spend(1) {
                break;
            }
            if state.kind(entity) != Some(kind) {
                continue;
            }
            roles[outer] = entity;
            f(state, &Frame { roles, ..*frame });
        }
    })
}

pub(super) fn dec(e: &Dec, state: &mut State, frame: &Frame<'_>) -> f64 {
    match e {
        Dec::Lit(d) => *d,
        Dec::Int(i) => int(i, state, frame) as f64,
        Dec::Fold(op, items) => {
            let Some((first, rest)) = items.split_first() else {
                return 0.0;
            };
            let mut acc = dec(first, state, frame);
            for item in rest {
                let v = dec(item, state, frame);
                acc = match op {
                    Arith::Add => acc + v,
                    Arith::Sub => acc - v,
                    Arith::Mul => acc * v,
                    Arith::Min => acc.min(v),
                    Arith::Max => acc.max(v),
                };
            }
            acc
        }
        Dec::Neg(a) => -dec(a, state, frame),
        Dec::Div(a, b) => {
            let (a, b) = (dec(a, state, frame), dec(b, state, frame));
            if b == 0.0 { 0.0 } else { a / b }
        }
        Dec::If(c, a, b) => {
            if boolean(c, state, frame) {
                dec(a, state, frame)
            } else {
                dec(b, state, frame)
            }
        }
    }
}

pub(super) fn boolean(e: &Bool, state: &mut State, frame: &Frame<'_>) -> bool {
    match e {
        Bool::Lit(b) => *b,
        Bool::AttrCmp(cmp, r, attr, n) => cmp.test(state.get(frame.roles[(*r).index()], *attr), *n),
        Bool::CmpInt(cmp, a, b) => {
            let a = operand(a, state, frame);
            cmp.test(a, operand(b, state, frame))
        }
        Bool::CmpDec(cmp, a, b) => {
            let a = dec(a, state, frame);
            cmp.test(a, dec(b, state, frame))
        }
        Bool::And(a, b) => test(a, state, frame) && test(b, state, frame),
        Bool::Or(a, b) => test(a, state, frame) || test(b, state, frame),
        Bool::Not(a) => !test(a, state, frame),
        Bool::If(c, a, b) => {
            if boolean(c, state, frame) {
                boolean(a, state, frame)
            } else {
                boolean(b, state, frame)
            }
        }
        Bool::Same(a, b) => same(a, b, state, frame),
        Bool::Chance(p) => {
            let p = dec(p, state, frame);
            // NaN and out-of-range probabilities clamp: `random_bool` needs 0..=1.
            let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
            state.rng.random_bool(p)
        }
        Bool::Has(has) => {
            let who = entity(&has.0, state, frame);
            status::count(state, who, &has.1, status::Count::Instances) > 0
        }
        Bool::Named(named) => {
            let who = entity(&named.0, state, frame);
            super::card_ops::named(who, &named.1.name, state)
        }
        Bool::OfKind(who, kind) => {
            let who = entity(who, state, frame);
            super::card_ops::of_kind(who, *kind, state)
        }
        Bool::In(is_in) => {
            let who = entity(&is_in.0, state, frame);
            super::card_ops::is_in(who, &is_in.1, state, frame)
        }
    }
}

// Always: since the evaluator was split into files, `int` and `boolean` no longer inlined it.
#[inline(always)]
pub(super) fn entity(e: &Entity, state: &mut State, frame: &Frame<'_>) -> EntityId {
    match e {
        Entity::Role(r) => frame.roles[(*r).index()],
        _ => entity_slow(e, state, frame),
    }
}

fn entity_slow(e: &Entity, state: &mut State, frame: &Frame<'_>) -> EntityId {
    match e {
        Entity::Role(r) => frame.roles[(*r).index()],
        Entity::Target => frame.target,
        Entity::ThisCard => super::card_ops::this_card(state),
        Entity::If(c, a, b) => {
            if boolean(c, state, frame) {
                entity(a, state, frame)
            } else {
                entity(b, state, frame)
            }
        }
    }
}

/// `[= :holder :you]`. Out of line: `boolean` recurses.
#[inline(never)]
fn same(a: &Entity, b: &Entity, state: &mut State, frame: &Frame<'_>) -> bool {
    entity(a, state, frame) == entity(b, state, frame)
}

// Dice: rolls drawn from the state's generator, who rolled them, and their
// events moved into the log with the change they fed.

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
            .get((*r).index())
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
    // Past the budget nothing is drawn: the step stops here.
    if !state.spend(u64::from(dice.count)) {
        return dice.modifier.saturating_add(extra);
    }
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
    // Taken twice, nested advantage doubles: past the budget, once.
    let x = int(a, state, frame);
    let y = if state.spend(1) {
        int(a, state, frame)
    } else {
        x
    };
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
