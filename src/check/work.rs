//! What checked data can be seen to cost before it runs: the work an effect
//! list may do (changes, dice, loops over entities, `advantage`), estimated
//! without expanding anything, and the statuses that acquire themselves
//! again without a bound. The evaluator's budgets stop what this misses.

use crate::check::ast::{
    Bool, CardOp, CardVerb, Cards, Dec, Effect, Entity, Int, Place, Resource, Source, StatusId,
    StatusOp,
};
use crate::ids::OpId;

/// What a loop over the entities of a kind is taken to multiply its body by:
/// a kind has at least the two seats, or two of its own, where loops nest.
pub const LOOP_FACTOR: u64 = 2;

/// The work of applying `effects` once: each change one unit, each die, each
/// `advantage` doubling what it wraps, each loop over entities its body
/// [`LOOP_FACTOR`] times; an operation the size `op_work` gives it.
pub fn effects(effects: &[Effect], op_work: &dyn Fn(OpId) -> u64) -> u64 {
    effects
        .iter()
        .map(|e| {
            let what = match &e.resource {
                Resource::Cards(op) => card_op(op, Some(&e.amount)),
                r => resource(r, op_work),
            };
            what.saturating_add(int(&e.amount))
                .saturating_add(entity(&e.entity))
        })
        .fold(0, u64::saturating_add)
}

fn resource(r: &Resource, op_work: &dyn Fn(OpId) -> u64) -> u64 {
    match r {
        Resource::Attr(_) => 1,
        Resource::Op(o) => op_work(*o),
        Resource::If(c, a, b) => {
            boolean(c).saturating_add(resource(a, op_work).max(resource(b, op_work)))
        }
        Resource::Status(op) => match &**op {
            StatusOp::Acquire { lasts, .. } => 1 + lasts.as_ref().map_or(0, int),
            StatusOp::Dispel { .. } | StatusOp::Extend { .. } => 1,
        },
        Resource::Spawn(spawn) => spawn
            .values
            .iter()
            .map(|(_, v)| int(v))
            .fold(1, u64::saturating_add),
        // A timing's hook is bounded where it is declared.
        Resource::Run(_) | Resource::Queue(_) => 1,
        Resource::Each(each) => {
            let body = effects(&each.effects, op_work)
                .saturating_add(each.filter.as_ref().map_or(0, boolean));
            match &each.source {
                Some(source) => {
                    let n = source.bound().unwrap_or(LOOP_FACTOR);
                    body.saturating_add(source_work(source)).saturating_mul(n)
                }
                None => body,
            }
        }
        Resource::Cards(op) => card_op(op, None),
    }
}

/// The work of reading a source: the expression naming its pile's owner.
fn source_work(source: &Source) -> u64 {
    match source {
        Source::Kind(_) => 0,
        Source::Zone(z) => z.owner.as_ref().map_or(0, entity),
        Source::Adjacent(who) => entity(who),
    }
}

/// The work of an effect on cards: each card it can move, show, make or
/// destroy one unit (a pile's capacity, for every card of one); a draw or a
/// `:create` as many as its amount says (a zone's most, when computed); a
/// selection's condition once for each card it looks at.
fn card_op(op: &CardOp, amount: Option<&Int>) -> u64 {
    let most = u64::from(MAX_CAPACITY_U16);
    let mut work = match (&op.verb, amount) {
        // As many as the amount says, a literal; a zone's most otherwise.
        (CardVerb::Draw(_) | CardVerb::Create(_), Some(&Int::Lit(n))) => {
            u64::try_from(n).unwrap_or(0).min(most)
        }
        (CardVerb::Draw(_) | CardVerb::Create(_), _) => most,
        (CardVerb::Shuffle(_), _) => 1,
        // Every card of every seat's pile of each zone moves.
        (CardVerb::Pass(zones, _), _) => most.saturating_mul(zones.len() as u64),
        _ => 0,
    };
    match &op.cards {
        Some(Cards::One(who)) => work = work.saturating_add(1).saturating_add(entity(who)),
        Some(Cards::Pick(sel)) => {
            let n = sel.from.bound().unwrap_or(LOOP_FACTOR);
            let per = sel.filter.as_ref().map_or(0, boolean).saturating_add(1);
            work = work
                .saturating_add(per.saturating_mul(n))
                .saturating_add(int(&sel.count))
                .saturating_add(source_work(&sel.from));
        }
        None => {}
    }
    if let Some(to) = &op.to {
        work = work.saturating_add(to.zone.owner.as_ref().map_or(0, entity));
        if let Place::Slot(n) = &to.at {
            work = work.saturating_add(int(n));
        }
    }
    work.max(1)
}

/// The most cards one draw or one `:create` makes.
const MAX_CAPACITY_U16: u16 = crate::check::ast::MAX_PILE;

/// The work of evaluating an integer expression: its dice, doubled by each
/// `advantage` around them, and its loops over entities.
pub fn int(e: &Int) -> u64 {
    match e {
        Int::Lit(_)
        | Int::Amount
        | Int::Magnitude
        | Int::Pick(..)
        | Int::Arg(_)
        | Int::Choice(_)
        | Int::Event(_) => 0,
        Int::Attr(who, _) => entity(who),
        Int::Fold(_, items) => items.iter().map(int).fold(0, u64::saturating_add),
        Int::Neg(a) | Int::Abs(a) => int(a),
        Int::If(c, a, b) => boolean(c).saturating_add(int(a).max(int(b))),
        Int::Round(_, d) => dec(d),
        Int::Random(a, b) => 1u64.saturating_add(int(a)).saturating_add(int(b)),
        Int::Statuses(who, _) | Int::TurnsLeft(who, _) => 1u64.saturating_add(entity(who)),
        Int::Count(over) | Int::Sum(over) | Int::Extreme(_, over) => int(&over.value)
            .saturating_add(over.filter.as_ref().map_or(0, boolean))
            .saturating_add(1)
            .saturating_mul(over.source.bound().unwrap_or(LOOP_FACTOR))
            .saturating_add(source_work(&over.source)),
        Int::Edge(_, edge) => int(&edge.value)
            .saturating_add(int(&edge.default))
            .saturating_add(edge.zone.owner.as_ref().map_or(0, entity)),
        Int::Slot(who) => entity(who),
        Int::Formula(call) => call
            .args
            .iter()
            .map(int)
            .fold(call.def.work, u64::saturating_add),
        Int::Lookup(l) => int(&l.1),
        Int::Dice(d) => u64::from(d.count),
        Int::Roll(r) => u64::from(r.0.count).saturating_add(int(&r.1)),
        Int::Best(_, a) => int(a).saturating_add(1).saturating_mul(2),
    }
}

fn dec(e: &Dec) -> u64 {
    match e {
        Dec::Lit(_) => 0,
        Dec::Int(i) => int(i),
        Dec::Fold(_, items) => items.iter().map(dec).fold(0, u64::saturating_add),
        Dec::Neg(a) => dec(a),
        Dec::Div(a, b) => dec(a).saturating_add(dec(b)),
        Dec::If(c, a, b) => boolean(c).saturating_add(dec(a).max(dec(b))),
    }
}

fn boolean(c: &Bool) -> u64 {
    match c {
        Bool::Lit(_) | Bool::AttrCmp(..) => 0,
        Bool::CmpInt(_, a, b) => int(a).saturating_add(int(b)),
        Bool::CmpDec(_, a, b) => dec(a).saturating_add(dec(b)),
        Bool::And(a, b) | Bool::Or(a, b) => boolean(a).saturating_add(boolean(b)),
        Bool::Not(a) => boolean(a),
        Bool::If(c, a, b) => boolean(c).saturating_add(boolean(a).max(boolean(b))),
        Bool::Chance(p) => 1u64.saturating_add(dec(p)),
        Bool::Has(has) => 1u64.saturating_add(entity(&has.0)),
        Bool::Same(a, b) => entity(a).saturating_add(entity(b)),
        Bool::Named(named) => entity(&named.0),
        Bool::OfKind(who, _) => entity(who),
        Bool::In(is_in) => {
            entity(&is_in.0).saturating_add(is_in.1.owner.as_ref().map_or(0, entity))
        }
    }
}

fn entity(e: &Entity) -> u64 {
    match e {
        Entity::Role(_) | Entity::Target | Entity::ThisCard => 0,
        Entity::If(c, a, b) => boolean(c).saturating_add(entity(a).max(entity(b))),
    }
}

/// The statuses `effects` acquire, wherever in them (loops, conditions,
/// either side of a choice), each once, in the order found.
pub fn acquired(effects: &[Effect], out: &mut Vec<StatusId>) {
    fn walk(r: &Resource, out: &mut Vec<StatusId>) {
        match r {
            Resource::Status(op) => {
                if let StatusOp::Acquire { status, .. } = **op
                    && !out.contains(&status)
                {
                    out.push(status);
                }
            }
            Resource::If(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            Resource::Each(each) => acquired(&each.effects, out),
            Resource::Attr(_)
            | Resource::Op(_)
            | Resource::Spawn(_)
            | Resource::Run(_)
            | Resource::Queue(_)
            | Resource::Cards(_) => {}
        }
    }
    for e in effects {
        walk(&e.resource, out);
    }
}
