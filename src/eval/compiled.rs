//! Checked trees lowered to closures, for what a game runs over and over:
//! card, hook, action and operation effects, victory and action conditions,
//! and the AI's score. A game (the engine's `Game`) compiles them once.
//!
//! The tree walker ([`super::int`], [`super::boolean`], `run`) is one large
//! function per type: every node, a literal comparison included, pays for its
//! prologue and a dispatch on the node's kind. Here each node becomes a small
//! closure that knows its kind, its operator and its leaves when it is built,
//! so a comparison of a smart value with a number is one indirect call and a
//! load, and an effect knows its entity, its amount and its attribute's bounds.
//! Nodes that read statuses, entities or dice call the evaluator's own
//! helpers: they are rare in hot code, and one implementation of each keeps
//! both paths giving the same values and drawing the same numbers
//! (`tests/compiled.rs` holds them to it).

use crate::check::ast::{
    Arith, AttrId, Bool, Cmp, Effect, Entity, EntityId, Int, OpId, Resource, StatusId,
};
use crate::check::rules::{KindId, RuleSet};

use super::{
    Cause, Change, Event, Frame, State, Target, apply_one, at_once, change_modified, change_value,
    each_of_kind, flush_rolls, run_nested,
};
use crate::check::ast::Span;
use crate::ids::{RoleId, TimingId};

type IntCode = Box<dyn Fn(&mut State, &Frame<'_>) -> i64 + Send + Sync>;
type BoolCode = Box<dyn Fn(&mut State, &Frame<'_>) -> bool + Send + Sync>;

/// A checked integer expression, compiled: [`super::value`] without the tree walk.
pub struct CompiledInt(IntCode);

/// A checked condition, compiled: [`super::holds`] without the tree walk.
pub struct CompiledBool(BoolCode);

impl CompiledInt {
    /// Compiles `e`.
    pub fn new(e: &Int) -> CompiledInt {
        CompiledInt(int(e))
    }

    /// The value of the expression with role `i` bound to `roles[i]`: the same
    /// as [`super::value`], dice included.
    #[inline]
    pub fn value(&self, state: &mut State, roles: &[EntityId]) -> i64 {
        (self.0)(state, &Frame::outside(roles))
    }
}

impl CompiledBool {
    /// Compiles `c`.
    pub fn new(c: &Bool) -> CompiledBool {
        CompiledBool(boolean(c))
    }

    /// Whether the condition holds with role `i` bound to `roles[i]`: the same
    /// as [`super::holds`], dice included.
    #[inline]
    pub fn holds(&self, state: &mut State, roles: &[EntityId]) -> bool {
        (self.0)(state, &Frame::outside(roles))
    }
}

impl std::fmt::Debug for CompiledInt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CompiledInt")
    }
}

impl std::fmt::Debug for CompiledBool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CompiledBool")
    }
}

/// An operand read without a call: the leaves most expressions are made of.
#[derive(Clone, Copy)]
enum Leaf {
    Lit(i64),
    RoleAttr(usize, AttrId),
    TargetAttr(AttrId),
    Amount,
}

impl Leaf {
    fn of(e: &Int) -> Option<Leaf> {
        Some(match *e {
            Int::Lit(n) => Leaf::Lit(n),
            Int::Attr(Entity::Role(r), a) => Leaf::RoleAttr(r.index(), a),
            Int::Attr(Entity::Target, a) => Leaf::TargetAttr(a),
            Int::Amount | Int::Magnitude => Leaf::Amount,
            _ => return None,
        })
    }

    #[inline(always)]
    fn get(self, state: &State, frame: &Frame<'_>) -> i64 {
        match self {
            Leaf::Lit(n) => n,
            Leaf::RoleAttr(r, a) => state.get(frame.roles[r], a),
            Leaf::TargetAttr(a) => state.get(frame.target, a),
            Leaf::Amount => frame.amount,
        }
    }
}

/// One arithmetic step of a fold, chosen when the closure is built.
fn arith(op: Arith) -> fn(i64, i64) -> i64 {
    match op {
        Arith::Add => i64::saturating_add,
        Arith::Sub => i64::saturating_sub,
        Arith::Mul => i64::saturating_mul,
        Arith::Min => std::cmp::min,
        Arith::Max => std::cmp::max,
    }
}

/// A closure folding `items` with `f`; the operator is a type parameter, so
/// each operator's loop is its own code with the step inlined.
fn fold_leaves<F>(items: Box<[Leaf]>, f: F) -> IntCode
where
    F: Fn(i64, i64) -> i64 + Copy + Send + Sync + 'static,
{
    match *items {
        [a, b] => Box::new(move |s, fr| f(a.get(s, fr), b.get(s, fr))),
        // Unrolled: a loop's exit is one more branch to predict.
        [a, b, c] => Box::new(move |s, fr| f(f(a.get(s, fr), b.get(s, fr)), c.get(s, fr))),
        _ => Box::new(move |s, fr| {
            let mut acc = items[0].get(s, fr);
            for item in &items[1..] {
                acc = f(acc, item.get(s, fr));
            }
            acc
        }),
    }
}

fn fold_codes<F>(items: Box<[IntCode]>, f: F) -> IntCode
where
    F: Fn(i64, i64) -> i64 + Copy + Send + Sync + 'static,
{
    Box::new(move |s, fr| {
        let mut acc = items[0](s, fr);
        for item in &items[1..] {
            acc = f(acc, item(s, fr));
        }
        acc
    })
}

/// Chooses the fold's loop for `op` (see [`fold_leaves`]).
macro_rules! by_op {
    ($op:expr, $fold:ident, $items:expr) => {
        match $op {
            Arith::Add => $fold($items, i64::saturating_add),
            Arith::Sub => $fold($items, i64::saturating_sub),
            Arith::Mul => $fold($items, i64::saturating_mul),
            Arith::Min => $fold($items, std::cmp::min),
            Arith::Max => $fold($items, std::cmp::max),
        }
    };
}

fn int(e: &Int) -> IntCode {
    if let Some(leaf) = Leaf::of(e) {
        return Box::new(move |s, f| leaf.get(s, f));
    }
    match e {
        Int::Attr(who, attr) => {
            let who = entity(who);
            let attr = *attr;
            Box::new(move |s, f| {
                let who = who(s, f);
                s.get(who, attr)
            })
        }
        Int::Fold(_, items) if items.is_empty() => Box::new(|_, _| 0),
        Int::Fold(_, items) if items.len() == 1 => int(&items[0]),
        Int::Fold(op, items) => match items.iter().map(Leaf::of).collect::<Option<Box<[_]>>>() {
            Some(leaves) => by_op!(op, fold_leaves, leaves),
            None => {
                // A leaf beside a subexpression (`[- :amount [:target :wall]]`'s
                // parent `[max 0 …]`): the leaf is read inline.
                if let ([a, b], f) = (&items[..], arith(*op)) {
                    match (Leaf::of(a), Leaf::of(b)) {
                        (Some(a), None) => {
                            let b = int(b);
                            return Box::new(move |s, fr| {
                                let x = a.get(s, fr);
                                f(x, b(s, fr))
                            });
                        }
                        (None, Some(b)) => {
                            let a = int(a);
                            return Box::new(move |s, fr| {
                                let x = a(s, fr);
                                f(x, b.get(s, fr))
                            });
                        }
                        _ => {}
                    }
                }
                by_op!(op, fold_codes, items.iter().map(int).collect())
            }
        },
        Int::Neg(a) => match Leaf::of(a) {
            Some(a) => Box::new(move |s, f| a.get(s, f).saturating_neg()),
            None => {
                let a = int(a);
                Box::new(move |s, f| a(s, f).saturating_neg())
            }
        },
        Int::Abs(a) => {
            let a = int(a);
            Box::new(move |s, f| a(s, f).saturating_abs())
        }
        Int::If(c, a, b) => {
            let (c, a, b) = (boolean(c), int(a), int(b));
            Box::new(move |s, f| if c(s, f) { a(s, f) } else { b(s, f) })
        }
        &Int::Pick(cmp, r, attr, n, then, other) => {
            let r = r.index();
            let test = Within::new(cmp, n);
            Box::new(move |s, f| {
                if test.holds(s.get(f.roles[r], attr)) {
                    then
                } else {
                    other
                }
            })
        }
        Int::Lookup(l) => {
            let (table, key) = (&l.0, &l.1);
            match *key {
                // `[lookup :attack-cost :focused]`: a number, looked up now.
                Int::Lit(x) => {
                    let n = table.get(x);
                    Box::new(move |_, _| n)
                }
                ref key => {
                    let (table, key) = (table.clone(), int(key));
                    Box::new(move |s, f| table.get(key(s, f)))
                }
            }
        }
        Int::Formula(formula) => {
            let args: Box<[IntCode]> = formula.args.iter().map(int).collect();
            // A body that uses other formulas is walked by the evaluator:
            // compiled, each use would compile the formulas it uses again, and
            // a chain of formulas each using the last twice would compile
            // exponentially.
            let body: IntCode = if formula.def.nested {
                let def = std::sync::Arc::clone(&formula.def);
                Box::new(move |s, f| super::int(&def.body, s, f))
            } else {
                int(&formula.def.body)
            };
            // The arguments go on the state's stack, as the evaluator's
            // `formula` puts them, so a formula inside one reads its own.
            Box::new(move |s, f| {
                let base = s.args.len();
                for arg in &args {
                    let v = arg(s, f);
                    s.args.push(v);
                }
                let outer = std::mem::replace(&mut s.arg_base, base);
                let v = body(s, f);
                s.arg_base = outer;
                s.args.truncate(base);
                v
            })
        }
        &Int::Arg(i) => {
            let i = usize::from(i);
            Box::new(move |s, _| s.args.get(s.arg_base + i).copied().unwrap_or(0))
        }
        // Statuses, entities, dice, choices: the evaluator's helpers.
        e => {
            let e = e.clone();
            Box::new(move |s, f| super::int(&e, s, f))
        }
    }
}

/// A comparison with a number, as a range: `v cmp k` holds where `v` is in
/// `[lo, lo + span]`, or where it is not when `outside`. Tested with one
/// subtraction and one unsigned comparison, no branch or call on the
/// operator (simple logic's test, `[= [:you :wall] 0 6 3]`).
#[derive(Clone, Copy)]
struct Within {
    lo: i64,
    span: u64,
    outside: bool,
}

impl Within {
    fn new(cmp: Cmp, k: i64) -> Within {
        // Every operator as `[lo, hi]` or its complement, lo ≤ hi, so no bound overflows.
        let (lo, hi, outside) = match cmp {
            Cmp::Eq => (k, k, false),
            Cmp::Ne => (k, k, true),
            Cmp::Le => (i64::MIN, k, false),
            Cmp::Gt => (i64::MIN, k, true),
            Cmp::Ge => (k, i64::MAX, false),
            Cmp::Lt => (k, i64::MAX, true),
        };
        Within {
            lo,
            span: hi.wrapping_sub(lo) as u64,
            outside,
        }
    }

    #[inline(always)]
    fn holds(self, v: i64) -> bool {
        (v.wrapping_sub(self.lo) as u64 <= self.span) != self.outside
    }
}

/// A comparison of two operands with the operator known when it is built.
macro_rules! compare_with {
    ($cmp:expr, |$a:ident, $b:ident| ($x:expr, $y:expr)) => {
        match $cmp {
            Cmp::Eq => Box::new(move |s, f| {
                let ($a, $b) = (s, f);
                let x = $x;
                x == $y
            }),
            Cmp::Ne => Box::new(move |s, f| {
                let ($a, $b) = (s, f);
                let x = $x;
                x != $y
            }),
            Cmp::Lt => Box::new(move |s, f| {
                let ($a, $b) = (s, f);
                let x = $x;
                x < $y
            }),
            Cmp::Gt => Box::new(move |s, f| {
                let ($a, $b) = (s, f);
                let x = $x;
                x > $y
            }),
            Cmp::Le => Box::new(move |s, f| {
                let ($a, $b) = (s, f);
                let x = $x;
                x <= $y
            }),
            Cmp::Ge => Box::new(move |s, f| {
                let ($a, $b) = (s, f);
                let x = $x;
                x >= $y
            }),
        }
    };
}

fn boolean(c: &Bool) -> BoolCode {
    match c {
        &Bool::Lit(b) => Box::new(move |_, _| b),
        &Bool::AttrCmp(cmp, r, attr, n) => {
            let r = r.index();
            compare_with!(cmp, |s, f| (s.get(f.roles[r], attr), n))
        }
        Bool::CmpInt(cmp, a, b) => match (Leaf::of(a), Leaf::of(b)) {
            (Some(a), Some(b)) => compare_with!(cmp, |s, f| (a.get(s, f), b.get(s, f))),
            (None, Some(b)) => {
                let a = int(a);
                compare_with!(cmp, |s, f| (a(s, f), b.get(s, f)))
            }
            (Some(a), None) => {
                let b = int(b);
                compare_with!(cmp, |s, f| (a.get(s, f), b(s, f)))
            }
            (None, None) => {
                let (a, b) = (int(a), int(b));
                compare_with!(cmp, |s, f| (a(s, f), b(s, f)))
            }
        },
        Bool::And(a, b) => {
            let (a, b) = (boolean(a), boolean(b));
            Box::new(move |s, f| a(s, f) && b(s, f))
        }
        Bool::Or(a, b) => {
            let (a, b) = (boolean(a), boolean(b));
            Box::new(move |s, f| a(s, f) || b(s, f))
        }
        Bool::Not(a) => {
            let a = boolean(a);
            Box::new(move |s, f| !a(s, f))
        }
        Bool::If(c, a, b) => {
            let (c, a, b) = (boolean(c), boolean(a), boolean(b));
            Box::new(move |s, f| if c(s, f) { a(s, f) } else { b(s, f) })
        }
        // Decimals, chance, statuses, identity: the evaluator's helpers.
        c => {
            let c = c.clone();
            Box::new(move |s, f| super::boolean(&c, s, f))
        }
    }
}

type EntityCode = Box<dyn Fn(&mut State, &Frame<'_>) -> EntityId + Send + Sync>;

fn entity(e: &Entity) -> EntityCode {
    match e {
        &Entity::Role(r) => {
            let r = r.index();
            Box::new(move |_, f| f.roles[r])
        }
        Entity::Target => Box::new(|_, f| f.target),
        Entity::ThisCard => Box::new(|s, _| super::card_ops::this_card(s)),
        Entity::If(c, a, b) => {
            let (c, a, b) = (boolean(c), entity(a), entity(b));
            Box::new(move |s, f| if c(s, f) { a(s, f) } else { b(s, f) })
        }
    }
}

/// What a compiled effect runs with: the rule set (for the effects handed to
/// the evaluator) and every operation's compiled effects.
struct Ctx<'a> {
    rules: &'a RuleSet,
    program: &'a Program,
    /// Whether the state keeps base values (some status modifies an
    /// attribute): the evaluator's `MODIFIED`.
    modified: bool,
}

/// One compiled effect, or one `:at-once` group. `inside` is the cause of the
/// operation it runs in (`None` at the top of a list, where each change's
/// cause is its effect's index, built in).
type StepCode =
    Box<dyn Fn(&Ctx<'_>, &mut State, &Frame<'_>, Option<Cause>, &mut Vec<Event>) + Send + Sync>;

/// A list of checked effects, compiled: [`super::apply`] without the tree walk.
///
/// An effect that changes an attribute, applies an operation or runs effects
/// `:each` entity of a kind, with any amount, is one closure that knows its
/// entity, its attribute's bounds and how its amount is computed. The rest
/// (statuses, spawns, queues, `{:run …}`, a resource chosen by simple logic,
/// `:at-once` groups) run through the evaluator's own code for one effect.
/// On a state where statuses modify values, a change to a modified attribute
/// goes to its base value, as the evaluator's does.
pub struct CompiledEffects {
    /// The first effect, held here so a one-effect list (most cards) is one
    /// indirect call with no list to load; then the others.
    first: StepCode,
    rest: Box<[(StepCode, Span)]>,
    /// The first effect's map: where a step that runs out of budget in it
    /// is said to have (the others' are beside them in `rest`).
    first_span: Span,
    /// How many effects it was compiled from.
    effects: usize,
}

impl std::fmt::Debug for CompiledEffects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CompiledEffects({} effects)", self.effects)
    }
}

/// The effects of a game, compiled once: operations first, so that an
/// effect applying one runs its compiled effects; then the rule set's hooks
/// and every status's hooks, which the turn machine runs at each timing.
#[derive(Debug)]
pub struct Program {
    ops: Box<[CompiledEffects]>,
    /// The rule set's hook at each timing.
    hooks: Box<[CompiledEffects]>,
    /// Every status's hooks, one status after another.
    status_hooks: Box<[CompiledEffects]>,
    /// What each status does at each timing (`status × timings + timing`),
    /// so the turn's walk over statuses reads one entry an instance.
    status_at: Box<[StatusAt]>,
    timings: usize,
}

/// What a status does at a timing: which hook of `status_hooks` runs
/// (`NO_HOOK` for none) and whether it counts down.
#[derive(Clone, Copy, Debug)]
struct StatusAt {
    hook: u32,
    counts_down: bool,
}

/// [`StatusAt::hook`] of a status with no hook at the timing.
const NO_HOOK: u32 = u32::MAX;

impl Program {
    /// Compiles every operation and hook of `rules`.
    pub fn new(rules: &RuleSet) -> Program {
        let compile = |effects: &[Effect]| CompiledEffects::new(rules, effects);
        let timings = rules.timings.len();
        let mut status_hooks = Vec::new();
        let mut status_at = Vec::with_capacity(rules.status_defs.len() * timings);
        for def in &rules.status_defs {
            let first = status_hooks.len();
            status_hooks.extend(def.hooks.iter().map(|(_, h)| compile(h)));
            status_at.extend((0..timings).map(|t| {
                StatusAt {
                    hook: def
                        .hooks
                        .iter()
                        .position(|&(at, _)| at.index() == t)
                        .and_then(|h| u32::try_from(first + h).ok())
                        .unwrap_or(NO_HOOK),
                    counts_down: def.lasts.is_some_and(|(_, at)| at.index() == t),
                }
            }));
        }
        Program {
            ops: rules
                .operation_defs
                .iter()
                .map(|op| compile(&op.effects))
                .collect(),
            hooks: rules.hooks.iter().map(|h| compile(h)).collect(),
            status_hooks: status_hooks.into(),
            status_at: status_at.into(),
            timings,
        }
    }

    /// The rule set's hook at `timing`, compiled.
    pub fn hook(&self, timing: TimingId) -> Option<&CompiledEffects> {
        self.hooks.get(timing.index())
    }

    /// What `status` does at `timing`: its hook there, compiled, and
    /// whether it counts down. `None` for a status or timing it was not
    /// compiled with.
    #[inline]
    pub(super) fn status_at(
        &self,
        status: StatusId,
        timing: TimingId,
    ) -> Option<(Option<&CompiledEffects>, bool)> {
        if timing.index() >= self.timings {
            return None;
        }
        let at = self
            .status_at
            .get(status.index() * self.timings + timing.index())?;
        let hook = if at.hook == NO_HOOK {
            None
        } else {
            self.status_hooks.get(at.hook as usize)
        };
        Some((hook, at.counts_down))
    }

    /// Applies `effects` as [`super::apply`] does, with the same changes,
    /// events and draws, in the same order.
    #[inline]
    pub fn apply(
        &self,
        rules: &RuleSet,
        effects: &CompiledEffects,
        state: &mut State,
        roles: &[EntityId],
        events: &mut Vec<Event>,
    ) {
        let ctx = self.ctx(rules, state);
        effects.run_last(&ctx, state, &Frame::outside(roles), None, events);
    }

    /// [`Program::apply`] with the loop over the list's effects in line in
    /// its caller: for the engine's own calls, made from functions that are
    /// large already.
    #[inline(always)]
    pub(crate) fn apply_inline(
        &self,
        rules: &RuleSet,
        effects: &CompiledEffects,
        state: &mut State,
        roles: &[EntityId],
        events: &mut Vec<Event>,
    ) {
        let ctx = self.ctx(rules, state);
        effects.run(&ctx, state, &Frame::outside(roles), None, events);
    }

    #[inline(always)]
    fn ctx<'a>(&'a self, rules: &'a RuleSet, state: &State) -> Ctx<'a> {
        Ctx {
            rules,
            program: self,
            // Decided once per list, as the evaluator decides it.
            modified: !state.base.is_empty(),
        }
    }

    /// Runs a status's effects in `frame`, every change caused by `cause`, as
    /// the evaluator runs them (always through base values where statuses
    /// modify an attribute).
    pub(super) fn run_held(
        &self,
        rules: &RuleSet,
        effects: &CompiledEffects,
        state: &mut State,
        frame: &Frame<'_>,
        cause: Cause,
        events: &mut Vec<Event>,
    ) {
        let ctx = Ctx {
            rules,
            program: self,
            modified: true,
        };
        effects.run(&ctx, state, frame, Some(cause), events);
    }

    /// Runs timing `timing` as [`super::run_timing`] does (the rule set's
    /// hook, then the statuses' hooks and countdowns), compiled.
    pub fn run_timing(
        &self,
        rules: &RuleSet,
        state: &mut State,
        timing: TimingId,
        roles: &[EntityId],
        who: EntityId,
        events: &mut Vec<Event>,
    ) {
        super::timing(rules, Some(self), state, timing, roles, who, events);
    }

    /// Runs timing `timing` for statuses as [`super::run_status_timing`]
    /// does, their hooks compiled.
    pub fn run_status_timing(
        &self,
        rules: &RuleSet,
        state: &mut State,
        timing: TimingId,
        holder: Option<EntityId>,
        roles: &[EntityId],
        events: &mut Vec<Event>,
    ) {
        super::status::statuses_at(rules, Some(self), state, timing, holder, roles, events);
    }
}

impl CompiledEffects {
    /// Compiles `effects`, checked against `rules`.
    pub fn new(rules: &RuleSet, effects: &[Effect]) -> CompiledEffects {
        let mut steps = Vec::new();
        let mut i = 0;
        while i < effects.len() {
            // Grouped exactly as `run` groups them.
            let span = effects[i].span;
            if effects[i].at_once <= 1 {
                steps.push((effect(rules, &effects[i], i), span));
                i += 1;
                continue;
            }
            let n = usize::from(effects[i].at_once).min(effects.len() - i);
            steps.push((group(effects[i..i + n].into(), i), span));
            i += n;
        }
        let mut steps = steps.into_iter();
        let (first, first_span) = steps
            .next()
            .unwrap_or_else(|| (Box::new(|_, _, _, _, _| {}), Span::default()));
        CompiledEffects {
            first,
            rest: steps.collect(),
            first_span,
            effects: effects.len(),
        }
    }

    /// Whether it was compiled from no effects.
    pub fn is_empty(&self) -> bool {
        self.effects == 0
    }

    /// Runs the list with the loop over its effects in line.
    #[inline(always)]
    fn run(
        &self,
        ctx: &Ctx<'_>,
        state: &mut State,
        frame: &Frame<'_>,
        inside: Option<Cause>,
        events: &mut Vec<Event>,
    ) {
        (self.first)(ctx, state, frame, inside, events);
        state.blame_effect(self.first_span);
        for (step, span) in &self.rest {
            step(ctx, state, frame, inside, events);
            state.blame_effect(*span);
        }
    }

    /// Runs the list as its caller's last act: a one-effect list (most cards)
    /// is one jump, the loop over longer ones out of line. From a small
    /// caller the loop in line cost a one-effect list a nanosecond (the
    /// registers it needs saved); from the engine's large ones, the call out
    /// of line cost a random Arcomage game 4 % (measured).
    #[inline(always)]
    fn run_last(
        &self,
        ctx: &Ctx<'_>,
        state: &mut State,
        frame: &Frame<'_>,
        inside: Option<Cause>,
        events: &mut Vec<Event>,
    ) {
        if self.rest.is_empty() {
            (self.first)(ctx, state, frame, inside, events);
            state.blame_effect(self.first_span);
        } else {
            self.run_out_of_line(ctx, state, frame, inside, events)
        }
    }

    #[inline(never)]
    fn run_out_of_line(
        &self,
        ctx: &Ctx<'_>,
        state: &mut State,
        frame: &Frame<'_>,
        inside: Option<Cause>,
        events: &mut Vec<Event>,
    ) {
        self.run(ctx, state, frame, inside, events);
    }
}

/// Who an effect changes. Each kind is its own type, so that an effect's
/// closure is built for its kind of entity and kind of amount together and
/// reads both without a test.
trait Who: Send + Sync + 'static {
    fn get(&self, state: &mut State, frame: &Frame<'_>) -> EntityId;
}

struct RoleWho(usize);
struct TargetWho;
struct ChosenWho(EntityCode);

impl Who for RoleWho {
    #[inline(always)]
    fn get(&self, _: &mut State, frame: &Frame<'_>) -> EntityId {
        frame.roles[self.0]
    }
}

impl Who for TargetWho {
    #[inline(always)]
    fn get(&self, _: &mut State, frame: &Frame<'_>) -> EntityId {
        frame.target
    }
}

impl Who for ChosenWho {
    #[inline(always)]
    fn get(&self, state: &mut State, frame: &Frame<'_>) -> EntityId {
        (self.0)(state, frame)
    }
}

/// How an effect's amount is computed. The evaluator logs the dice waiting
/// after any amount but a number, a pick and a role's smart value (which
/// roll nothing), and so do these.
trait Amount: Send + Sync + 'static {
    /// Whether the dice waiting are logged once it is computed.
    const LOGGED: bool;

    fn value(&self, state: &mut State, frame: &Frame<'_>) -> i64;

    #[inline(always)]
    fn get(
        &self,
        state: &mut State,
        frame: &Frame<'_>,
        who: EntityId,
        cause: Cause,
        events: &mut Vec<Event>,
    ) -> i64 {
        let n = self.value(state, frame);
        if Self::LOGGED {
            flush_rolls(state, who, cause, events);
        }
        n
    }
}

struct LitAmount(i64);
struct RoleAttrAmount(usize, AttrId);
/// Simple logic on a role's smart value with numbers for branches (`[= [:you :wall] 0 6 3]`).
struct PickAmount {
    test: Within,
    role: usize,
    attr: AttrId,
    then: i64,
    other: i64,
}
/// `:amount` or `[:target …]`, read inline.
struct LeafAmount(Leaf);
/// Anything else.
struct CodeAmount(IntCode);

impl Amount for LitAmount {
    const LOGGED: bool = false;
    #[inline(always)]
    fn value(&self, _: &mut State, _: &Frame<'_>) -> i64 {
        self.0
    }
}

impl Amount for RoleAttrAmount {
    const LOGGED: bool = false;
    #[inline(always)]
    fn value(&self, s: &mut State, f: &Frame<'_>) -> i64 {
        s.get(f.roles[self.0], self.1)
    }
}

impl Amount for PickAmount {
    const LOGGED: bool = false;
    #[inline(always)]
    fn value(&self, s: &mut State, f: &Frame<'_>) -> i64 {
        if self.test.holds(s.get(f.roles[self.role], self.attr)) {
            self.then
        } else {
            self.other
        }
    }
}

impl Amount for LeafAmount {
    const LOGGED: bool = true;
    #[inline(always)]
    fn value(&self, s: &mut State, f: &Frame<'_>) -> i64 {
        self.0.get(s, f)
    }
}

impl Amount for CodeAmount {
    const LOGGED: bool = true;
    #[inline(always)]
    fn value(&self, s: &mut State, f: &Frame<'_>) -> i64 {
        (self.0)(s, f)
    }
}

/// What an effect does once its entity and amount are known: change an
/// attribute (within `bounds`), apply an operation, or run effects for each
/// entity of a kind.
enum Does {
    Attr {
        attr: AttrId,
        bounds: (i64, i64),
        set: bool,
    },
    /// An attribute some status modifies: on a state with base values the
    /// change goes to the base, and the value is worked out again.
    Modified {
        attr: AttrId,
        set: bool,
    },
    Op(OpId),
    /// `:each`, or `{:run :timing}`: effects inside, for the effect's entity.
    Nested(Nested),
}

enum Nested {
    Each(Box<EachCode>),
    /// The timing's hooks, compiled, through the evaluator's guard on
    /// runs inside runs.
    Run(TimingId),
}

/// `{:each :kind :where … :effects […]}` (or `{:when … :effects […]}`), compiled.
struct EachCode {
    kind: Option<KindId>,
    /// What it goes through when that is not a kind: the cards of a pile.
    cards: Option<crate::check::ast::Source>,
    filter: Option<BoolCode>,
    effects: CompiledEffects,
    /// How many roles were bound around it: `:self` is the next.
    outer: RoleId,
    /// The work one run of the body costs: its length.
    cost: u64,
}

impl EachCode {
    /// Runs the effects for each entity of the kind in play for which the
    /// condition holds, `:self` bound to it, in the order they were added; as
    /// the evaluator's `for_each` does.
    fn run(
        &self,
        ctx: &Ctx<'_>,
        state: &mut State,
        frame: &Frame<'_>,
        cause: Cause,
        events: &mut Vec<Event>,
    ) {
        let Some(kind) = self.kind else {
            if let Some(source) = &self.cards {
                return self.run_cards(ctx, state, frame, source, cause, events);
            }
            if self.filter.as_ref().is_none_or(|c| c(state, frame)) {
                self.effects.run(ctx, state, frame, Some(cause), events);
            }
            return;
        };
        each_of_kind(state, frame, kind, self.outer, |state, inner| {
            if self.filter.as_ref().is_none_or(|c| c(state, inner)) && state.spend(self.cost) {
                self.effects.run(ctx, state, inner, Some(cause), events);
            }
        })
    }
}

impl EachCode {
    /// The effects for each card of a pile (or beside a card): the
    /// evaluator's loop, as `:each` over a kind is. Out of line: only games
    /// with `:zones` come here.
    #[cold]
    #[inline(never)]
    fn run_cards(
        &self,
        ctx: &Ctx<'_>,
        state: &mut State,
        frame: &Frame<'_>,
        source: &crate::check::ast::Source,
        cause: Cause,
        events: &mut Vec<Event>,
    ) {
        super::card_ops::each_in(state, frame, source, self.outer, |state, inner| {
            if self.filter.as_ref().is_none_or(|c| c(state, inner)) && state.spend(self.cost) {
                self.effects.run(ctx, state, inner, Some(cause), events);
            }
        })
    }
}

/// Effect `index` of its list.
fn effect(rules: &RuleSet, e: &Effect, index: usize) -> StepCode {
    let does = match e.resource {
        Resource::Attr(attr) if rules.modified[attr] => Does::Modified { attr, set: e.set },
        Resource::Attr(attr) => Does::Attr {
            attr,
            bounds: rules.bounds[attr],
            set: e.set,
        },
        Resource::Op(op) => Does::Op(op),
        Resource::Run(timing) => Does::Nested(Nested::Run(timing)),
        Resource::Each(ref each) => Does::Nested(Nested::Each(Box::new(EachCode {
            kind: each
                .source
                .as_ref()
                .and_then(crate::check::ast::Source::kind),
            cards: each.source.clone().filter(|s| s.kind().is_none()),
            filter: each.filter.as_ref().map(boolean),
            effects: CompiledEffects::new(rules, &each.effects),
            outer: each.outer,
            cost: each.effects.len() as u64,
        }))),
        _ => {
            let (e, mine) = (e.clone(), Cause::effect(index));
            return Box::new(move |ctx, state, frame, inside, events| {
                let cause = inside.unwrap_or(mine);
                if ctx.modified {
                    apply_one::<true>(ctx.rules, &e, state, frame, cause, events);
                } else {
                    apply_one::<false>(ctx.rules, &e, state, frame, cause, events);
                }
            });
        }
    };
    match e.entity {
        Entity::Role(r) => by_amount(RoleWho(r.index()), &e.amount, does, index),
        Entity::Target => by_amount(TargetWho, &e.amount, does, index),
        ref who => by_amount(ChosenWho(entity(who)), &e.amount, does, index),
    }
}

fn by_amount<W: Who>(who: W, amount: &Int, does: Does, index: usize) -> StepCode {
    match *amount {
        Int::Lit(n) => step(who, LitAmount(n), does, index),
        Int::Attr(Entity::Role(r), attr) => step(who, RoleAttrAmount(r.index(), attr), does, index),
        Int::Pick(cmp, r, attr, against, then, other) => {
            let pick = PickAmount {
                test: Within::new(cmp, against),
                role: r.index(),
                attr,
                then,
                other,
            };
            step(who, pick, does, index)
        }
        ref e => match Leaf::of(e) {
            Some(leaf) => step(who, LeafAmount(leaf), does, index),
            None => step(who, CodeAmount(int(e)), does, index),
        },
    }
}

/// The closure of one effect, built for its kinds of entity and amount.
fn step<W: Who, A: Amount>(who: W, amount: A, does: Does, index: usize) -> StepCode {
    let mine = Cause::effect(index);
    match does {
        Does::Attr { attr, bounds, set } => {
            // Built for adding or setting, so neither is a test when it runs.
            if set {
                Box::new(move |_, state, frame, inside, events| {
                    let cause = inside.unwrap_or(mine);
                    let who = who.get(state, frame);
                    let amount = amount.get(state, frame, who, cause, events);
                    change_value(state, bounds, who, attr, true, amount, cause, events);
                })
            } else {
                Box::new(move |_, state, frame, inside, events| {
                    let cause = inside.unwrap_or(mine);
                    let who = who.get(state, frame);
                    let amount = amount.get(state, frame, who, cause, events);
                    change_value(state, bounds, who, attr, false, amount, cause, events);
                })
            }
        }
        Does::Modified { attr, set } => Box::new(move |ctx, state, frame, inside, events| {
            let cause = inside.unwrap_or(mine);
            let who = who.get(state, frame);
            let amount = amount.get(state, frame, who, cause, events);
            let rules = ctx.rules;
            if ctx.modified {
                let change = Change {
                    set,
                    entity: who,
                    target: Target::Attr(attr),
                    amount,
                    cause,
                };
                change_modified(rules, state, &change, attr, events);
            } else {
                let bounds = rules.bounds[attr];
                change_value(state, bounds, who, attr, set, amount, cause, events);
            }
        }),
        Does::Op(op) => Box::new(move |ctx, state, frame, inside, events| {
            let cause = inside.unwrap_or(mine);
            let who = who.get(state, frame);
            // The evaluator logs the dice of a resource that is not an attribute here.
            flush_rolls(state, who, cause, events);
            let amount = amount.get(state, frame, who, cause, events);
            let inner = Frame {
                target: who,
                amount,
                ..*frame
            };
            let ops = &ctx.program.ops;
            ops[op.index()].run(ctx, state, &inner, Some(cause.through(op)), events);
            state.claim(super::Owner::Rules);
        }),
        Does::Nested(nested) => Box::new(move |ctx, state, frame, inside, events| {
            let cause = inside.unwrap_or(mine);
            let who = who.get(state, frame);
            // Where the evaluator logs dice for a resource that is not an attribute.
            flush_rolls(state, who, cause, events);
            // Unused, but computed: it may draw from the generator.
            amount.get(state, frame, who, cause, events);
            match &nested {
                Nested::Each(each) => each.run(ctx, state, frame, cause, events),
                Nested::Run(timing) => {
                    let program = Some(ctx.program);
                    run_nested(ctx.rules, program, state, frame, *timing, who, events);
                }
            }
            // The dice of the conditions inside.
            flush_rolls(state, who, cause, events);
        }),
    }
}

/// An `:at-once` group starting at effect `index`: the evaluator's own code.
fn group(effects: Box<[Effect]>, index: usize) -> StepCode {
    Box::new(move |ctx, state, frame, inside, events| {
        let cause = |k| inside.unwrap_or(Cause::effect(index + k));
        if ctx.modified {
            at_once::<true>(ctx.rules, &effects, state, frame, events, cause);
        } else {
            at_once::<false>(ctx.rules, &effects, state, frame, events, cause);
        }
    })
}
