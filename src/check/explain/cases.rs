//! The cases an effect can be: every condition that picks its entity,
//! resource or amount decided both ways, as `cases` and the lint see them.

use super::MAX_SPLIT;
use crate::check::ast::{Bool, Cmp, Effect, Entity, Int, Resource};

/// Pushes the cases of `effect` onto `out`, splitting at most [`MAX_SPLIT`]
/// conditions deep.
pub(super) fn cases_into(effect: &Effect, depth: usize, out: &mut Vec<Effect>) {
    match split(effect) {
        Some((_, then, other)) if depth < MAX_SPLIT => {
            cases_into(&then, depth + 1, out);
            cases_into(&other, depth + 1, out);
        }
        _ => out.push(effect.clone()),
    }
}

/// The first condition that picks an effect's entity, resource or amount, and
/// the effect with it holding and not: every pick by the same condition is
/// decided with it (Elven Archers' resource and amount share one test).
/// `None` when nothing is picked, or the amount only takes the higher or lower
/// of two values (said as such).
pub(super) fn split(e: &Effect) -> Option<(Bool, Effect, Effect)> {
    let cond = match (&e.entity, &e.resource, &e.amount) {
        (Entity::If(c, ..), _, _) | (_, Resource::If(c, ..), _) => (**c).clone(),
        (_, _, Int::If(c, a, b)) if higher_or_lower(c, a, b).is_none() => (**c).clone(),
        (_, _, &Int::Pick(cmp, r, a, n, _, _)) => Bool::AttrCmp(cmp, r, a, n),
        _ => return None,
    };
    let pick = |holds: bool| Effect {
        entity: entity_case(&e.entity, &cond, holds),
        resource: resource_case(&e.resource, &cond, holds),
        amount: amount_case(&e.amount, &cond, holds),
        ..e.clone()
    };
    Some((cond.clone(), pick(true), pick(false)))
}

fn entity_case(e: &Entity, cond: &Bool, holds: bool) -> Entity {
    match e {
        Entity::If(c, a, b) if **c == *cond => entity_case(if holds { a } else { b }, cond, holds),
        _ => e.clone(),
    }
}

fn resource_case(r: &Resource, cond: &Bool, holds: bool) -> Resource {
    match r {
        Resource::If(c, a, b) if **c == *cond => {
            resource_case(if holds { a } else { b }, cond, holds)
        }
        _ => r.clone(),
    }
}

fn amount_case(i: &Int, cond: &Bool, holds: bool) -> Int {
    match i {
        Int::If(c, a, b) if **c == *cond => amount_case(if holds { a } else { b }, cond, holds),
        &Int::Pick(cmp, r, a, n, then, other) if Bool::AttrCmp(cmp, r, a, n) == *cond => {
            Int::Lit(if holds { then } else { other })
        }
        _ => i.clone(),
    }
}

/// `[< a b b a]` is the higher of a and b, `[< a b a b]` the lower: `Some(true)`
/// for the higher, `Some(false)` for the lower.
pub(super) fn higher_or_lower(c: &Bool, then: &Int, other: &Int) -> Option<bool> {
    let Bool::CmpInt(cmp, a, b) = c else {
        return None;
    };
    let (a, b) = (&**a, &**b);
    match cmp {
        Cmp::Lt | Cmp::Le if then == b && other == a => Some(true),
        Cmp::Gt | Cmp::Ge if then == a && other == b => Some(true),
        Cmp::Lt | Cmp::Le if then == a && other == b => Some(false),
        Cmp::Gt | Cmp::Ge if then == b && other == a => Some(false),
        _ => None,
    }
}

/// Whether an effect changes nothing: adds 0, or sets a value to itself.
pub(super) fn no_op(e: &Effect) -> bool {
    match (&e.resource, e.set, &e.amount) {
        (Resource::Attr(_) | Resource::Op(_), false, Int::Lit(0)) => true,
        (Resource::Attr(a), true, Int::Attr(who, b)) => a == b && *who == e.entity,
        _ => false,
    }
}
