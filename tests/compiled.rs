//! Property: a compiled expression gives what the tree walker gives, on any
//! state, and draws the same numbers from the generator: every node kind the
//! compiler lowers, and the ones it hands to the evaluator's helpers.

use grimoire::ast::{Arith, Bool, Cmp, Dec, Entity, EntityId, Int, Rounding};
use grimoire::eval::{CompiledBool, CompiledInt, State, holds, value};
use grimoire::rules::RuleSet;
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
        4 => (0u8..3).prop_map(Entity::Role),
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
        4 => (entity(), 0u16..3).prop_map(|(e, a)| Int::Attr(e, a)),
        1 => Just(Int::Amount),
        1 => Just(Int::Magnitude),
        1 => (0usize..6, 0u8..3, 0u16..3, number(), number(), number())
            .prop_map(|(c, r, a, n, t, o)| Int::Pick(CMPS[c], r, a, n, t, o)),
    ]
}

fn leaf_bool() -> impl Strategy<Value = Bool> {
    prop_oneof![
        1 => any::<bool>().prop_map(Bool::Lit),
        3 => (0usize..6, 0u8..3, 0u16..3, number())
            .prop_map(|(c, r, a, n)| Bool::AttrCmp(CMPS[c], r, a, n)),
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
            1 => (cond.clone(), entity(), entity(), 0u16..3).prop_map(|(c, x, y, a)| {
                Int::Attr(Entity::If(Box::new(c), Box::new(x), Box::new(y)), a)
            }),
            // Handed to the evaluator's helpers: a draw and a decimal.
            1 => (int.clone(), int.clone())
                .prop_map(|(a, b)| Int::Random(Box::new(a), Box::new(b))),
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
        state.put((i / 3) as EntityId, (i % 3) as u16, v);
    }
    state
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn compiled_expressions_agree_with_the_tree_walker(
        (int, cond) in tree(),
        values in prop::collection::vec(number(), 9),
        roles in prop::sample::subsequence(vec![0u32, 1, 2], 3).prop_shuffle(),
        seed in any::<u64>(),
    ) {
        let rules = RuleSet::parse(RULES).unwrap_or_else(|d| panic!("{d:#?}"));
        let (mut walked, mut compiled) = (state(&rules, &values, seed), state(&rules, &values, seed));
        let n = value(&int, &mut walked, &roles);
        prop_assert_eq!(CompiledInt::new(&int).value(&mut compiled, &roles), n);
        let b = holds(&cond, &mut walked, &roles);
        prop_assert_eq!(CompiledBool::new(&cond).holds(&mut compiled, &roles), b);
        // The same numbers drawn, in the same order.
        prop_assert_eq!(&walked, &compiled);
    }
}
