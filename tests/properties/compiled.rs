//! Property: a compiled expression gives what the tree walker gives, on any
//! state, and draws the same numbers from the generator: every node kind the
//! compiler lowers, and the ones it hands to the evaluator's helpers.

use grimoire::check::ast::{
    Arith, Bool, Cmp, Dec, Each, Effect, Entity, EntityId, Formula, FormulaDef, Int, Lookup,
    Resource, Rounding, Source, StatusId,
};
use grimoire::check::rules::{BUNDLED, RuleSet};
use grimoire::eval::{
    CompiledBool, CompiledEffects, CompiledInt, Program, State, acquire, apply, holds, run_timing,
    value,
};
use grimoire::files::load_deck;
use grimoire::ids::{AttrId, KindId, OpId, RoleId, TimingId};
use grimoire::syntax::Span;
use proptest::prelude::*;

const RULES: &str = r#"
{:rules :compiled
 :roles {:you "the first" :other "the second" :third "the third"}
 :attributes {:a {:default 0 :min -1000000 :max 1000000}
              :b {:default 0 :min -1000000 :max 1000000}
              :c {:default 0 :min -1000000 :max 1000000}}}
"#;

const CMPS: [Cmp; 6] = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Gt, Cmp::Le, Cmp::Ge];
const OPS: [Arith; 5] = [Arith::Add, Arith::Sub, Arith::Mul, Arith::Min, Arith::Max];

fn entity() -> impl Strategy<Value = Entity> {
    prop_oneof![
        4 => (0usize..3).prop_map(role),
        1 => Just(Entity::Target),
    ]
}

/// Numbers near zero, where comparisons flip, and near the limits, where arithmetic saturates.
fn number() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -12i64..12,
        1 => Just(i64::MAX),
        1 => Just(i64::MIN),
        1 => any::<i64>(),
    ]
}

fn leaf_int() -> impl Strategy<Value = Int> {
    prop_oneof![
        3 => number().prop_map(Int::Lit),
        4 => (entity(), 0usize..3).prop_map(|(e, a)| Int::Attr(e, AttrId::new(a))),
        1 => Just(Int::Amount),
        1 => Just(Int::Magnitude),
        1 => (0usize..6, 0usize..3, 0usize..3, number(), number(), number())
            .prop_map(|(c, r, a, n, t, o)| Int::Pick(CMPS[c], RoleId::new(r), AttrId::new(a), n, t, o)),
    ]
}

fn leaf_bool() -> impl Strategy<Value = Bool> {
    prop_oneof![
        1 => any::<bool>().prop_map(Bool::Lit),
        3 => (0usize..6, 0usize..3, 0usize..3, number())
            .prop_map(|(c, r, a, n)| Bool::AttrCmp(CMPS[c], RoleId::new(r), AttrId::new(a), n)),
    ]
}

/// Integer and condition trees together, so each can hold the other.
fn tree() -> impl Strategy<Value = (Int, Bool)> {
    (leaf_int(), leaf_bool()).prop_recursive(5, 48, 4, |inner| {
        let int = inner.clone().prop_map(|(i, _)| i);
        let cond = inner.prop_map(|(_, b)| b);
        let ints = prop_oneof![
            4 => (0usize..5, prop::collection::vec(int.clone(), 0..5))
                .prop_map(|(op, items)| Int::Fold(OPS[op], items.into())),
            1 => int.clone().prop_map(|a| Int::Neg(Box::new(a))),
            1 => int.clone().prop_map(|a| Int::Abs(Box::new(a))),
            2 => (cond.clone(), int.clone(), int.clone())
                .prop_map(|(c, a, b)| Int::If(Box::new(c), Box::new(a), Box::new(b))),
            1 => (cond.clone(), entity(), entity(), 0usize..3).prop_map(|(c, x, y, a)| {
                Int::Attr(Entity::If(Box::new(c), Box::new(x), Box::new(y)), AttrId::new(a))
            }),
            // Handed to the evaluator's helpers: dice (logged with the change
            // they are part of), a draw and a decimal.
            1 => prop::sample::select(vec!["1d6", "2d4", "4d6kh3"])
                .prop_map(|d| Int::Dice(grimoire::dice::parse(d).expect("dice"))),
            1 => (int.clone(), int.clone())
                .prop_map(|(a, b)| Int::Random(Box::new(a), Box::new(b))),
            // A formula of two arguments; one inside another reads its own.
            // Compiled, or walked by the evaluator as a body using other
            // formulas is (`nested`): either way the same value.
            1 => (0usize..5, int.clone(), int.clone(), int.clone(), any::<bool>()).prop_map(
                |(op, a, b, rest, nested)| {
                    let body = Int::Fold(OPS[op], vec![Int::Arg(0), Int::Arg(1), rest].into());
                    let def = FormulaDef::new(vec!["a".into(), "b".into()], body, nested, 0);
                    Int::Formula(Box::new(Formula { def: std::sync::Arc::new(def), args: vec![a, b].into() }))
                }
            ),
            // A table, keyed by a number (looked up when compiled) or an expression.
            1 => int.clone().prop_map(|key| {
                let table = Lookup {
                    ranges: vec![(-5, -1, 7), (0, 0, 9), (1, 10, 11)].into(),
                    default: 3,
                };
                Int::Lookup(Box::new((table, key)))
            }),
            1 => int.clone().prop_map(|a| {
                Int::Round(Rounding::Floor, Box::new(Dec::Div(
                    Box::new(Dec::Int(Box::new(a))),
                    Box::new(Dec::Lit(3.0)),
                )))
            }),
        ];
        let conds = prop_oneof![
            4 => (0usize..6, int.clone(), int.clone())
                .prop_map(|(c, a, b)| Bool::CmpInt(CMPS[c], Box::new(a), Box::new(b))),
            1 => (cond.clone(), cond.clone()).prop_map(|(a, b)| Bool::And(Box::new(a), Box::new(b))),
            1 => (cond.clone(), cond.clone()).prop_map(|(a, b)| Bool::Or(Box::new(a), Box::new(b))),
            1 => cond.clone().prop_map(|a| Bool::Not(Box::new(a))),
            1 => (cond.clone(), cond.clone(), cond.clone())
                .prop_map(|(c, a, b)| Bool::If(Box::new(c), Box::new(a), Box::new(b))),
            1 => (0u8..=10).prop_map(|p| Bool::Chance(Box::new(Dec::Lit(f64::from(p) / 10.0)))),
        ];
        (ints, conds)
    })
}

fn state(rules: &RuleSet, values: &[i64], seed: u64) -> State {
    let mut state = State::new(rules, 3, seed);
    for (i, &v) in values.iter().enumerate() {
        state.put(EntityId::new(i / 3), AttrId::new(i % 3), v);
    }
    state
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn compiled_expressions_agree_with_the_tree_walker(
        (int, cond) in tree(),
        values in prop::collection::vec(number(), 9),
        roles in prop::sample::subsequence(EntityId::below(3).collect::<Vec<_>>(), 3).prop_shuffle(),
        seed in any::<u64>(),
    ) {
        let rules = crate::common::rules(RULES);
        let (mut walked, mut compiled) = (state(&rules, &values, seed), state(&rules, &values, seed));
        let n = value(&int, &mut walked, &roles);
        prop_assert_eq!(CompiledInt::new(&int).value(&mut compiled, &roles), n);
        let b = holds(&cond, &mut walked, &roles);
        prop_assert_eq!(CompiledBool::new(&cond).holds(&mut compiled, &roles), b);
        // The same numbers drawn, in the same order.
        prop_assert_eq!(&walked, &compiled);
    }
}

const EFFECT_RULES: &str = r#"
{:rules :compiled-effects
 :roles {:you "the first" :other "the second" :third "the third"}
 :attributes {:a {:default 0 :min -50 :max 50}
              :b {:default 0 :min 0 :max 100}
              :c {:default 0 :min -1000000 :max 1000000}}
 :operations {:hit {:doc "b absorbs first, a takes the rest"
                    :effects [{:effected :target :resource :a
                               :amount [- [max 0 [- :amount [:target :b]]]]}
                              {:effected :target :resource :b
                               :amount [- [min [max 0 :amount] [:target :b]]]}]}
              :twice {:doc "an operation applying another"
                      :effects [{:effected :target :resource :hit :amount :amount}
                                {:effected :other :resource :hit :amount [random 0 :amount]}]}}}
"#;

/// The effects' rule set; `modified`: with a status that modifies `:c`, so
/// every state keeps base values and changes to `:c` go through them.
fn effect_rules(modified: bool) -> RuleSet {
    let rules = crate::common::rules(EFFECT_RULES);
    if !modified {
        return rules;
    }
    let status = "{:status :bolster :polarity :buff :modifiers {:c {:add 3 :mul 1.5}}}";
    let rules = crate::common::rules_with_statuses(&rules, "bolster.edn", status);
    assert!(rules.modified[AttrId::new(2)]);
    rules
}

fn effect() -> impl Strategy<Value = Effect> {
    // `:each` of the one kind (`:self`, role 3, bound to each entity in turn) or
    // `{:when …}`, around effects on attributes and operations.
    let each = prop::bool::weighted(0.7)
        .prop_flat_map(|of_kind| {
            // `:self` only where an entity of the kind is bound.
            let roles = if of_kind { 4 } else { 3 };
            (
                Just(of_kind),
                prop::option::of(tree().prop_map(|(_, c)| c)),
                prop::collection::vec(simple_effect(roles), 0..3),
            )
        })
        .prop_map(|(of_kind, filter, effects)| {
            Resource::Each(Box::new(Each {
                source: of_kind.then_some(Source::Kind(KindId::new(0))),
                filter,
                effects,
                outer: RoleId::new(3),
            }))
        });
    let resource = prop_oneof![
        3 => (0usize..3).prop_map(|a| Resource::Attr(AttrId::new(a))),
        2 => (0usize..2).prop_map(|o| Resource::Op(OpId::new(o))),
        1 => each,
    ];
    // An entity chosen by a condition can roll dice before the amount is computed.
    let who = prop_oneof![
        4 => (0usize..3).prop_map(role),
        1 => Just(Entity::Target),
        1 => (tree().prop_map(|(_, c)| c), 0usize..3, 0usize..3).prop_map(|(c, a, b)| {
            Entity::If(Box::new(c), Box::new(role(a)), Box::new(role(b)))
        }),
    ];
    (
        who,
        resource,
        tree().prop_map(|(i, _)| i),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(entity, resource, amount, set)| Effect {
            entity,
            resource,
            amount,
            set,
            at_once: 1,
            span: Span::default(),
        })
}

/// An effect on an attribute or through an operation, of one of `roles` roles.
fn simple_effect(roles: usize) -> impl Strategy<Value = Effect> {
    let resource = prop_oneof![
        3 => (0usize..3).prop_map(|a| Resource::Attr(AttrId::new(a))),
        1 => (0usize..2).prop_map(|o| Resource::Op(OpId::new(o))),
    ];
    ((0..roles).prop_map(role), resource, leaf_int()).prop_map(|(entity, resource, amount)| {
        Effect {
            entity,
            resource,
            amount,
            set: false,
            at_once: 1,
            span: Span::default(),
        }
    })
}

/// A list with `:at-once` groups in it, as the checker marks them: the
/// group's first effect holds its size.
fn effects() -> impl Strategy<Value = Vec<Effect>> {
    prop::collection::vec((effect(), 0u8..4), 0..6).prop_map(|items| {
        let mut out: Vec<Effect> = Vec::new();
        for (e, group) in items {
            let start = out.len();
            out.push(e.clone());
            for _ in 1..group {
                out.push(e.clone());
            }
            out[start].at_once = group.max(1);
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn compiled_effects_agree_with_the_evaluator(
        effects in effects(),
        values in prop::collection::vec(-60i64..120, 9),
        roles in prop::sample::subsequence(EntityId::below(3).collect::<Vec<_>>(), 3).prop_shuffle(),
        seed in any::<u64>(),
        modified in any::<bool>(),
    ) {
        let rules = effect_rules(modified);
        let (mut walked, mut compiled) = (state(&rules, &values, seed), state(&rules, &values, seed));
        let (mut walked_events, mut compiled_events) = (Vec::new(), Vec::new());
        apply(&rules, &effects, &mut walked, &roles, &mut walked_events);
        let program = Program::new(&rules);
        let code = CompiledEffects::new(&rules, &effects);
        program.apply(&rules, &code, &mut compiled, &roles, &mut compiled_events);
        prop_assert_eq!(&walked, &compiled);
        prop_assert_eq!(walked_events, compiled_events);
    }
}

/// A state of `rules` set up for play, its values spread over each
/// attribute's bounds near the low end (where effects clamp), and roles for
/// it (two more than the rule set's, for `:self` and the like).
fn spread_state(rules: &RuleSet, seed: u64) -> (State, Vec<EntityId>) {
    let mut state = State::new(rules, rules.seats.len().max(2), seed);
    state.add_setup(rules);
    for entity in EntityId::below(state.len()) {
        for (attr, def) in rules.attribute_defs.iter().enumerate() {
            let span = def.max.saturating_sub(def.min).clamp(1, 40) as u64;
            let v = def.min.saturating_add(
                ((seed * 7 + entity.index() as u64 * 3 + attr as u64) % span) as i64,
            );
            state.put(entity, AttrId::new(attr), v);
        }
    }
    let n = state.len();
    let roles = (0..rules.roles.len() + 2)
        .map(|r| EntityId::new((r + seed as usize) % n))
        .collect();
    (state, roles)
}

/// Every timing of every bundled rule set, run compiled (the rule set's hook,
/// then each status's hooks, as a game runs them), changes a state as the
/// evaluator's `run_timing` does, on states where every entity holds every
/// status.
#[test]
fn timings_run_compiled_as_the_evaluator_runs_them() {
    let mut hooks_run = 0;
    // Every bundled rule set, the new games too.
    for (name, _) in BUNDLED {
        let mut rules = crate::common::bundled(name);
        load_deck(&mut rules, &[]).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let program = Program::new(&rules);
        for seed in 0..10u64 {
            let (mut walked, roles) = spread_state(&rules, seed);
            let n = walked.len();
            let mut setup = Vec::new();
            for status in 0..rules.status_defs.len() {
                for holder in 0..n {
                    let source = EntityId::new((holder + 1) % n);
                    let holder = EntityId::new(holder);
                    let magnitude = 1 + seed as i64;
                    acquire(
                        &rules,
                        &mut walked,
                        &roles,
                        holder,
                        source,
                        StatusId::new(status),
                        magnitude,
                        &mut setup,
                    );
                }
            }
            let mut compiled = walked.clone();
            for timing in TimingId::below(rules.timings.len()) {
                let hooked = rules
                    .status_defs
                    .iter()
                    .any(|d| d.hooks.iter().any(|(t, _)| *t == timing));
                for who in EntityId::below(n) {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    let bound = &roles[..rules.roles.len()];
                    run_timing(&rules, &mut walked, timing, bound, who, &mut a);
                    program.run_timing(&rules, &mut compiled, timing, bound, who, &mut b);
                    assert_eq!(
                        walked, compiled,
                        "{name}, timing {timing}, entity {who}, seed {seed}"
                    );
                    assert_eq!(a, b, "{name}, timing {timing}, entity {who}, seed {seed}");
                    hooks_run += usize::from(hooked && !a.is_empty());
                }
            }
        }
    }
    assert!(
        hooks_run >= 100,
        "only {hooks_run} runs of statuses' hooks changed a state"
    );
}

/// Every card, hook, operation and action of every bundled rule set,
/// compiled, changes a state as the evaluator does (the effects the compiler
/// hands back to the evaluator, statuses, `:each`, spawns, queues, included),
/// and every condition and score the engine compiles holds where it holds.
#[test]
fn bundled_effects_compile_to_the_same_changes() {
    for name in ["arcomage", "duel", "skills", "tactics", "tbwg", "minions"] {
        let mut rules = crate::common::bundled(name);
        let deck = load_deck(&mut rules, &[]).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let program = Program::new(&rules);
        let lists: Vec<&[Effect]> = deck
            .cards
            .iter()
            .map(|c| &c.effects[..])
            .chain(rules.hooks.iter().map(|h| &h[..]))
            .chain(rules.operation_defs.iter().map(|o| &o.effects[..]))
            .chain(
                rules
                    .actions
                    .iter()
                    .flat_map(|a| [&a.pay[..], &a.effects[..]]),
            )
            .collect();
        let mut compared = 0;
        for (k, effects) in lists.iter().enumerate() {
            let code = CompiledEffects::new(&rules, effects);
            for seed in 0..20u64 {
                let (mut walked, roles) = spread_state(&rules, seed);
                let mut compiled = walked.clone();
                // The conditions the engine compiles (victory, actions'
                // `:when` and `:refused-when`) and the score, on the same state.
                let conditions = rules
                    .victory
                    .iter()
                    .map(|v| &v.when)
                    .chain(rules.actions.iter().flat_map(|a| a.when.iter()))
                    .chain(
                        rules
                            .actions
                            .iter()
                            .flat_map(|a| a.refused.iter().map(|(c, _)| c)),
                    );
                for c in conditions {
                    let held = holds(c, &mut walked, &roles);
                    assert_eq!(
                        CompiledBool::new(c).holds(&mut compiled, &roles),
                        held,
                        "{name}"
                    );
                }
                if let Some(score) = &rules.ai_score {
                    let n = value(score, &mut walked, &roles);
                    assert_eq!(
                        CompiledInt::new(score).value(&mut compiled, &roles),
                        n,
                        "{name}"
                    );
                }
                let (mut a, mut b) = (Vec::new(), Vec::new());
                apply(&rules, effects, &mut walked, &roles, &mut a);
                program.apply(&rules, &code, &mut compiled, &roles, &mut b);
                assert_eq!(walked, compiled, "{name}, list {k}, seed {seed}");
                assert_eq!(a, b, "{name}, list {k}, seed {seed}");
                compared += 1;
            }
        }
        assert!(compared >= 3 * 20, "{name}: only {compared} lists compared");
    }
}

/// Dice rolled to choose who an effect changes wait for the change they are
/// part of: the evaluator logs them after the amount unless the amount is a
/// number, a pick or a role's smart value, and before it for an operation.
/// Chance alone rarely builds these, so each shape is written out.
#[test]
fn dice_in_an_effects_entity_are_logged_where_the_evaluator_logs_them() {
    let rules = crate::common::rules(EFFECT_RULES);
    let rolled = || {
        Entity::If(
            Box::new(Bool::CmpInt(
                Cmp::Gt,
                Box::new(Int::Dice(grimoire::dice::parse("1d6").expect("dice"))),
                Box::new(Int::Lit(3)),
            )),
            Box::new(role(0)),
            Box::new(role(1)),
        )
    };
    let amounts = [
        Int::Lit(4),
        Int::Attr(role(1), AttrId::new(2)),
        Int::Attr(Entity::Target, AttrId::new(2)),
        Int::Amount,
        Int::Pick(Cmp::Eq, RoleId::new(1), AttrId::FIRST, 5, 6, 3),
        Int::Fold(
            Arith::Add,
            vec![Int::Lit(1), Int::Attr(role(2), AttrId::new(0))].into(),
        ),
    ];
    for resource in [Resource::Attr(AttrId::new(0)), Resource::Op(OpId::FIRST)] {
        for amount in &amounts {
            for seed in 0..8 {
                let effect = |amount: Int| Effect {
                    entity: rolled(),
                    resource: resource.clone(),
                    amount,
                    set: false,
                    at_once: 1,
                    span: Span::default(),
                };
                let effects = [effect(amount.clone()), effect(Int::Lit(2))];
                let values = [5, 7, 9, 1, 2, 3, 4, 6, 8];
                let mut walked = state(&rules, &values, seed);
                let mut compiled = state(&rules, &values, seed);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                apply(
                    &rules,
                    &effects,
                    &mut walked,
                    &EntityId::below(3).collect::<Vec<_>>(),
                    &mut a,
                );
                let code = CompiledEffects::new(&rules, &effects);
                Program::new(&rules).apply(
                    &rules,
                    &code,
                    &mut compiled,
                    &EntityId::below(3).collect::<Vec<_>>(),
                    &mut b,
                );
                assert_eq!(a, b, "{resource:?} {amount:?} seed {seed}");
                assert_eq!(walked, compiled, "{resource:?} {amount:?} seed {seed}");
            }
        }
    }
}

/// Role `r` of the rule set, as an effect names it.
fn role(r: usize) -> Entity {
    Entity::Role(RoleId::new(r))
}
