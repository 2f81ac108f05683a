//! `:operations {:damage {:doc "…" :effects […]}}`: named changes written in the
//! language, applied with `:target` bound to the effected entity and `:amount`
//! to the amount. Operations may use operations, never in a loop, and their
//! expansion is bounded so that no effect can do unbounded work.

use super::{Reading, RuleSet, keyword_map, string};
use crate::check::ast::{Effect, Leaf, OpId, Resource};
use crate::check::keys::{Keys, keys};
use crate::check::{self, Scope};
use crate::diag::{Code, Diagnostic};
use crate::syntax::Form;

keys! {
    /// The keys of an operation.
    pub enum OpKey {
        /// `:doc`: what it does, for people.
        Doc = "doc",
        /// `:effects`: its body.
        Effects = "effects",
    }
}

/// A derived operation such as `:damage`.
#[derive(Clone, Debug)]
pub struct OpDef {
    /// What it does, for people.
    pub doc: String,
    /// Its body: applied with `:target` bound to the effected entity and `:amount` to the amount.
    pub effects: Vec<Effect>,
}

/// The most operations a rule set may define (it also bounds how deep a chain of them can go).
pub const MAX_OPERATIONS: usize = 1000;

/// The most attribute changes one application of an operation may expand to.
pub const MAX_EXPANSION: u64 = 10_000;

/// How deep operations may call operations.
pub const MAX_OPERATION_DEPTH: u32 = 32;

/// Declares the operations' names; their bodies are checked once every name is known.
pub(super) fn names<'f, 'a>(
    value: &'f Form<'a>,
    rules: &mut RuleSet,
    reading: &mut Reading<'f, 'a>,
    diags: &mut Vec<Diagnostic>,
) {
    for (name, (span, body)) in keyword_map(value, "`:operations`", diags) {
        reading.names.declare(name, span, diags);
        rules.operations.push(name.to_string());
        reading.op_forms.push((span, body));
    }
}

/// Checks every operation's body, then that they form no loop and expand within bounds.
/// `None` when the rule set cannot be used at all.
pub(super) fn bodies(
    rules: &mut RuleSet,
    reading: &Reading<'_, '_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    if rules.operations.len() > MAX_OPERATIONS {
        diags.push(Diagnostic::new(
            Code::TooMany,
            reading.op_forms[MAX_OPERATIONS].0,
            format!("a rule set may define at most {MAX_OPERATIONS} operations"),
        ));
        return None;
    }
    let scope = Scope {
        in_operation: true,
        // An action with `:choose` may apply it: any field may be read (0 unchosen).
        choosable: crate::check::Choosable::Any,
        ..rules.scope()
    };
    let mut defs = Vec::new();
    for (_, body) in &reading.op_forms {
        let Some(pairs) = check::fields(body, "an operation", OpKey::ALL, diags) else {
            defs.push(None);
            continue;
        };
        let mut doc = String::new();
        let mut effects = None;
        for (key, value) in pairs {
            match key {
                OpKey::Doc => doc = string(value, diags).unwrap_or_default(),
                OpKey::Effects => effects = check::effects(value, &scope, diags),
            }
        }
        if !body.has_key(OpKey::Effects.name()) {
            diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    body.span,
                    "this operation has no `:effects`",
                )
                .with_label("missing `:effects`"),
            );
        }
        defs.push(effects.map(|effects| OpDef { doc, effects }));
    }
    rules.operation_defs = defs.into_iter().collect::<Option<_>>()?;
    if let Some(cycle) = find_cycle(&rules.operation_defs) {
        let path: Vec<String> = cycle
            .iter()
            .map(|&o| format!("`:{}`", rules.operations[o]))
            .collect();
        diags.push(
            Diagnostic::new(
                Code::OperationLoop,
                reading.op_forms[(cycle[0]).index()].0,
                format!("operations call each other in a loop: {}", path.join(" → ")),
            )
            .with_label("part of a loop")
            .with_help(
                "an operation may use other operations, but never, through any chain, itself",
            ),
        );
        return None;
    }
    let sizes = expansion(&rules.operation_defs);
    for (op, &(size, depth)) in sizes.iter().enumerate() {
        let problem = if size > MAX_EXPANSION {
            format!(
                "expands to {size} changes through the operations it uses; at most {MAX_EXPANSION}"
            )
        } else if depth > MAX_OPERATION_DEPTH {
            format!("goes {depth} operations deep; at most {MAX_OPERATION_DEPTH}")
        } else {
            continue;
        };
        diags.push(
            Diagnostic::new(
                Code::ExpandsTooFar,
                reading.op_forms[op].0,
                format!("`:{}` {problem}", rules.operations[OpId::new(op)]),
            )
            .with_label("expands too far")
            .with_help("an operation that applies another several times multiplies its work; flatten the chain"),
        );
        return None;
    }
    rules.op_sizes = sizes.into_iter().map(|(n, _)| n).collect();
    rules.op_draws = draws(&rules.operation_defs).into();
    Some(())
}

/// For each operation, whether applying it can draw from the generator, through
/// the operations it uses too (operations are acyclic here; each is walked once).
fn draws(ops: &[OpDef]) -> Vec<bool> {
    fn op_draws(op: usize, memo: &mut [Option<bool>], ops: &[OpDef]) -> bool {
        if let Some(d) = memo[op] {
            return d;
        }
        let draws = effects_draw(&ops[op].effects, |o| op_draws(o.index(), memo, ops));
        memo[op] = Some(draws);
        draws
    }
    let mut memo = vec![None; ops.len()];
    (0..ops.len())
        .map(|op| op_draws(op, &mut memo, ops))
        .collect()
}

/// Whether `effects` draw from the generator, themselves or through an
/// operation they apply (`op` says whether an operation does).
pub(super) fn effects_draw(effects: &[Effect], mut op: impl FnMut(OpId) -> bool) -> bool {
    effects.iter().any(|e| {
        let mut draws = false;
        // A status change may run a status's effects, or roll its blocks: counted as drawing.
        e.leaves(&mut |leaf| draws |= matches!(leaf, Leaf::Draw | Leaf::Status));
        draws || calls(&e.resource).into_iter().any(&mut op)
    })
}

/// The operations a resource may apply.
pub fn calls(r: &Resource) -> Vec<OpId> {
    fn walk(r: &Resource, out: &mut Vec<OpId>) {
        match r {
            Resource::Attr(_)
            | Resource::Status(_)
            | Resource::Spawn(_)
            | Resource::Run(_)
            | Resource::Queue(_)
            | Resource::Cards(_) => {}
            Resource::Each(each) => each.effects.iter().for_each(|e| walk(&e.resource, out)),
            Resource::Op(o) => out.push(*o),
            Resource::If(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(r, &mut out);
    out
}

/// For each operation, how many attribute changes it expands to at most, and how
/// deep its chain of operations goes (operations are acyclic here).
fn expansion(ops: &[OpDef]) -> Vec<(u64, u32)> {
    fn resource_cost(t: &Resource, memo: &mut [Option<(u64, u32)>], ops: &[OpDef]) -> (u64, u32) {
        match t {
            // A timing's hook is bounded where it is declared; running it counts one.
            Resource::Attr(_)
            | Resource::Status(_)
            | Resource::Spawn(_)
            | Resource::Run(_)
            | Resource::Queue(_)
            | Resource::Cards(_) => (1, 0),
            Resource::Each(each) => each.effects.iter().fold((0, 0), |acc, e| {
                let (n, depth) = resource_cost(&e.resource, memo, ops);
                (acc.0.saturating_add(n), acc.1.max(depth))
            }),
            Resource::Op(o) => op_size((*o).index(), memo, ops),
            Resource::If(_, a, b) => {
                let (x, y) = (resource_cost(a, memo, ops), resource_cost(b, memo, ops));
                (x.0.max(y.0), x.1.max(y.1))
            }
        }
    }
    fn op_size(op: usize, memo: &mut [Option<(u64, u32)>], ops: &[OpDef]) -> (u64, u32) {
        if let Some(n) = memo[op] {
            return n;
        }
        let (size, depth) = ops[op].effects.iter().fold((0u64, 0u32), |(n, d), e| {
            let (en, ed) = resource_cost(&e.resource, memo, ops);
            (n.saturating_add(en), d.max(ed))
        });
        memo[op] = Some((size, depth + 1));
        (size, depth + 1)
    }
    let mut memo = vec![None; ops.len()];
    (0..ops.len())
        .map(|op| op_size(op, &mut memo, ops))
        .collect()
}

/// A chain of operations that leads back to its start, if the bodies contain one.
fn find_cycle(ops: &[OpDef]) -> Option<Vec<OpId>> {
    let edges: Vec<Vec<OpId>> = ops
        .iter()
        .map(|op| op.effects.iter().flat_map(|e| calls(&e.resource)).collect())
        .collect();
    // 0 = unvisited, 1 = on the current path, 2 = done.
    let mut mark = vec![0u8; ops.len()];
    let mut path = Vec::new();
    fn visit(
        n: usize,
        edges: &[Vec<OpId>],
        mark: &mut [u8],
        path: &mut Vec<OpId>,
    ) -> Option<Vec<OpId>> {
        mark[n] = 1;
        path.push(OpId::new(n));
        for &m in &edges[n] {
            match mark[m.index()] {
                1 => {
                    let start = path.iter().position(|&p| p == m).unwrap_or(0);
                    let mut cycle = path[start..].to_vec();
                    cycle.push(m);
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m.index(), edges, mark, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        mark[n] = 2;
        None
    }
    (0..ops.len()).find_map(|n| {
        if mark[n] == 0 {
            visit(n, &edges, &mut mark, &mut path)
        } else {
            None
        }
    })
}
