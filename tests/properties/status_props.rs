//! Property: any sequence of status acquisitions, dispels, duration changes
//! and timings never panics, never leaves a status that has run out, never
//! lets a status outlive its holder, and keeps every modified value equal to
//! what the published formula gives for the statuses held.

use grimoire::check::ast::EntityId;
use grimoire::check::rules::RuleSet;
use grimoire::eval::{State, acquire, apply};
use grimoire::syntax::read_one;
use proptest::prelude::*;

const RULES: &str = r#"
{:rules :props
 :roles {:you "the acting unit" :other "its foe"}
 :kinds {:unit {:doc "a fighter" :removed-when [<= [:self :hp] 0]}}
 :categories {:damage "hurts" :curse "a curse"}
 :flags {:warded "blocks debuffs"}
 :attributes {:hp {:default 20 :min -100 :max 100} :attack {:default 3 :min 0 :max 50}}
 :seats [:a :b]
 :setup {:third {:kind :unit}}
 :timings {:tick {:at :round-end :each :unit} :count {:at :round-end :each :unit}}}
"#;

const STATUSES: &str = r#"
{:status :rage :polarity :buff :lasts [2 :count] :stacking [:stack 3]
 :modifiers {:attack {:add 2 :mul 1.5}}}
{:status :poison :polarity :debuff :category :damage :lasts [3 :count] :stacking :independent
 :hooks {:tick [{:effected :holder :resource :hp :amount -2}]}}
{:status :hex :polarity :debuff :category :curse :lasts [1 :count]
 :modifiers {:attack {:add -4}}
 :on-remove [{:effected :holder :acquire :poison}]
 :on-expire [{:effected :source :resource :hp :amount -1}]}
{:status :ward :polarity :buff :flags [:warded] :blocks {:filter :debuff :chance 0.5 :charges 2}}
{:status :mirror :polarity :buff :lasts [2 :count] :blocks {:filter :curse :reflect true}}
{:status :echo :polarity :buff :stacking :independent :lasts [1 :count]
 :on-acquire [{:effected :holder :acquire :echo}]}
{:status :sap :polarity :debuff
 :on-acquire [{:effected :holder :dispel :buff :pick :random}
              {:effected :holder :extend :any :amount -1}]}
"#;

fn rules() -> RuleSet {
    crate::common::rules_with_statuses(&crate::common::rules(RULES), "statuses.edn", STATUSES)
}

#[derive(Clone, Debug)]
enum Step {
    Acquire(usize, u16, i64),
    Dispel(usize, u8, i64),
    Extend(usize, i64),
    Hurt(usize, i64),
    RoundEnd,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0usize..3, 0u16..7, -5i64..30).prop_map(|(e, s, m)| Step::Acquire(e, s, m)),
        1 => (0usize..3, 0u8..6, 0i64..4).prop_map(|(e, p, n)| Step::Dispel(e, p, n)),
        1 => (0usize..3, -3i64..3).prop_map(|(e, by)| Step::Extend(e, by)),
        1 => (0usize..3, -8i64..8).prop_map(|(e, by)| Step::Hurt(e, by)),
        2 => Just(Step::RoundEnd),
    ]
}

const PICKS: [&str; 6] = [
    "random",
    "oldest",
    "newest",
    "most-left",
    "least-left",
    "all",
];

fn effects(rules: &RuleSet, text: &str) -> Vec<grimoire::check::ast::Effect> {
    rules
        .check_effects(&read_one(&grimoire::syntax::Arena::new(), text).expect("read"))
        .unwrap_or_else(|d| panic!("{text}: {d:#?}"))
}

/// The value the published formula gives: clamp(floor((base + Σ add) × Π mul)).
fn expected_attack(rules: &RuleSet, state: &State, entity: EntityId) -> i64 {
    let attack = rules.attribute("attack").unwrap();
    let (mut add, mut mul) = (0i64, 1.0f64);
    for i in state.statuses_of(entity) {
        match rules.statuses[i.status].as_str() {
            "rage" => {
                add += 2 * i64::from(i.stacks);
                mul *= 1.5f64.powi(i32::from(i.stacks));
            }
            "hex" => add -= 4,
            _ => {}
        }
    }
    let raw = ((state.base(entity, attack) + add) as f64 * mul).floor() as i64;
    raw.clamp(0, 50)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn status_sequences_keep_every_invariant(seed in any::<u64>(), steps in prop::collection::vec(step(), 1..40)) {
        let rules = rules();
        let mut state = State::new(&rules, 2, seed);
        state.add_setup(&rules);
        let mut events = Vec::new();
        let mut removed = Vec::new();
        let attack = rules.attribute("attack").unwrap();
        for step in &steps {
            // Roles: `:you` is the entity the step is about, `:other` the next.
            match *step {
                Step::Acquire(e, s, m) => {
                    let roles = pair(e);
                    acquire(&rules, &mut state, &roles, roles[0], roles[1], grimoire::ids::StatusId::new(usize::from(s)), m, &mut events);
                }
                Step::Dispel(e, p, n) => {
                    let roles = pair(e);
                    let text = format!("[{{:effected :you :dispel :any :pick :{} :amount {n}}}]", PICKS[p as usize]);
                    apply(&rules, &effects(&rules, &text), &mut state, &roles, &mut events);
                }
                Step::Extend(e, by) => {
                    let roles = pair(e);
                    let text = format!("[{{:effected :you :extend :any :amount {by}}}]");
                    apply(&rules, &effects(&rules, &text), &mut state, &roles, &mut events);
                }
                Step::Hurt(e, by) => {
                    let roles = pair(e);
                    let text = format!("[{{:effected :you :resource :attack :amount {by}}} {{:effected :you :resource :hp :amount {by}}}]");
                    apply(&rules, &effects(&rules, &text), &mut state, &roles, &mut events);
                }
                Step::RoundEnd => {
                    for name in ["tick", "count"] {
                        let t = rules.timing(name).unwrap();
                        grimoire::engine::run_timing(&rules, &mut state, t, EntityId::FIRST, &mut events);
                    }
                }
            }
            state.remove_fallen(&rules, &pair(0), &mut removed, &mut events);
            for i in state.statuses() {
                prop_assert!(i.turns_left() != Some(0), "a status at 0 turns left: {i:?}");
                prop_assert!(state.is_live(i.holder), "a status on an entity out of play: {i:?}");
                prop_assert!((1..=3).contains(&i.stacks), "{i:?}");
            }
            // An entity out of play keeps the values it left with.
            for e in EntityId::below(state.len()).filter(|&e| state.is_live(e)) {
                prop_assert_eq!(state.get(e, attack), expected_attack(&rules, &state, e), "entity {}", e);
            }
        }
    }
}

/// Roles for a step about entity `e` of three: `:you` is `e`, `:other` the next.
fn pair(e: usize) -> [EntityId; 2] {
    [EntityId::new(e), EntityId::new((e + 1) % 3)]
}
