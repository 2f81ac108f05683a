//! `{:each KIND :where … :effects […]}` wherever effects run: in a status's
//! hooks (beside `:holder`), nested in another `:each` (the inner `:self`
//! wins), and in an operation applied from a status's effects, whose frame
//! carries more roles than the operation's body was checked with.

use crate::common::TWO_SEATS;
use grimoire::check::rules::RuleSet;
use grimoire::eval::{State, acquire, apply};
use grimoire::ids::EntityId;
use grimoire::syntax::read_one;

const RULES: &str = r#"
{:rules :board
 :roles {:you "the acting player" :other "the opponent"}
 :kinds {:player "a seat" :unit "a piece"}
 :attributes {:hp {:default 5} :team {:default 0} :mark {:default 0}}
 :operations {:mend {:doc "every unit of the target's team gains the amount"
                     :effects [{:each :unit :where [= [:self :team] [:target :team]]
                                :effects [{:effected :self :resource :hp :amount :amount}]}]}}
 :seats [:p1 :p2]
 :setup {:a {:kind :unit :values {:team 1}} :b {:kind :unit :values {:team 1}}
         :c {:kind :unit :values {:team 2}}}
 :timings {:pulse {:at :round-end :each :unit}}}
"#;

const STATUSES: &str = r#"
{:status :aura :polarity :buff
 :hooks {:pulse [{:each :unit :where [= [:self :team] [:holder :team]]
                  :effects [{:effected :self :resource :hp :amount 1}]}]}}
{:status :rally :polarity :buff
 :on-acquire [{:effected :holder :resource :mend :amount 2}]}
"#;

fn rules() -> RuleSet {
    crate::common::rules_with_statuses(&crate::common::rules(RULES), "s.edn", STATUSES)
}

/// Entities: p1 0, p2 1, a 2, b 3, c 4.
fn hp(rules: &RuleSet, state: &State) -> Vec<i64> {
    let hp = rules.attribute("hp").unwrap();
    EntityId::below(5).map(|e| state.get(e, hp)).collect()
}

fn start(rules: &RuleSet) -> State {
    let mut state = State::new(rules, 2, 1);
    state.add_setup(rules);
    state
}

#[test]
fn in_a_status_hook_self_is_each_unit_and_holder_stays_the_holder() {
    let rules = rules();
    let mut state = start(&rules);
    let mut events = Vec::new();
    acquire(
        &rules,
        &mut state,
        &TWO_SEATS,
        EntityId::new(2),
        EntityId::FIRST,
        rules.status("aura").unwrap(),
        0,
        &mut events,
    );
    let pulse = rules.timing("pulse").unwrap();
    // The timing runs for each unit; only `a` holds the aura, so it pulses once.
    grimoire::engine::run_timing(&rules, &mut state, pulse, EntityId::FIRST, &mut events);
    assert_eq!(hp(&rules, &state), [5, 5, 6, 6, 5]);
}

#[test]
fn a_nested_each_binds_the_innermost_self() {
    let rules = rules();
    let mut state = start(&rules);
    // For each unit, every unit with a higher team number than it gains 1:
    // a and b see c (+2), c sees none.
    let text = "[{:each :unit :effects [{:each :unit :where [> [:self :team] 1]
                   :effects [{:effected :self :resource :mark :amount [:self :team]}]}]}]";
    let arena = grimoire::syntax::Arena::new();
    let effects = rules
        .check_effects(&read_one(&arena, text).unwrap())
        .unwrap();
    let mut events = Vec::new();
    apply(&rules, &effects, &mut state, &TWO_SEATS, &mut events);
    let mark = rules.attribute("mark").unwrap();
    let marks: Vec<i64> = EntityId::below(5)
        .skip(2)
        .map(|e| state.get(e, mark))
        .collect();
    assert_eq!(marks, [0, 0, 6]);
}

#[test]
fn an_each_in_an_operation_applied_from_a_status_binds_self_after_its_own_roles() {
    let rules = rules();
    let mut state = start(&rules);
    let mut events = Vec::new();
    // rally's on-acquire runs with :holder and :source bound after the seat
    // roles; mend's body was checked with the seat roles only.
    acquire(
        &rules,
        &mut state,
        &TWO_SEATS,
        EntityId::new(3),
        EntityId::FIRST,
        rules.status("rally").unwrap(),
        0,
        &mut events,
    );
    assert_eq!(hp(&rules, &state), [5, 5, 7, 7, 5]);
}

#[test]
fn an_each_names_a_declared_kind_and_has_effects() {
    let rules = rules();
    for (text, wanted) in [
        ("[{:each :units :effects []}]", "did you mean `:unit`?"),
        ("[{:each :unit}]", "this `:each` has no `:effects`"),
        (
            "[{:each :unit :effects [] :amount 1}]",
            "unknown key `:amount`",
        ),
        (
            "[{:each :unit :where [> [:selff :hp] 0] :effects []}]",
            "did you mean `:self`?",
        ),
    ] {
        let arena = grimoire::syntax::Arena::new();
        let diags = rules
            .check_effects(&read_one(&arena, text).unwrap())
            .unwrap_err();
        let shown: Vec<String> = diags
            .iter()
            .map(|d| format!("{} {}", d.message, d.help.clone().unwrap_or_default()))
            .collect();
        assert!(
            shown.iter().any(|d| d.contains(wanted)),
            "{text}: {shown:?}"
        );
    }
}

#[test]
fn a_spawned_entity_takes_its_values_from_where_the_effect_runs_and_is_reached_by_each() {
    let rules = rules();
    let mut state = start(&rules);
    // Each unit of team 2 leaves a copy of itself behind with 3 hp less; then every unit marks 1.
    let text = "[{:each :unit :where [= [:self :team] 2]
                  :effects [{:spawn :unit :values {:team [:self :team] :hp [- [:self :hp] 3]}}]}
                 {:each :unit :effects [{:effected :self :resource :mark :amount 1}]}]";
    let arena = grimoire::syntax::Arena::new();
    let effects = rules
        .check_effects(&read_one(&arena, text).unwrap())
        .unwrap();
    let mut events = Vec::new();
    apply(&rules, &effects, &mut state, &TWO_SEATS, &mut events);
    assert_eq!(state.len(), 6);
    let (hp, team, mark) = (
        rules.attribute("hp").unwrap(),
        rules.attribute("team").unwrap(),
        rules.attribute("mark").unwrap(),
    );
    assert_eq!(
        (
            state.get(EntityId::new(5), hp),
            state.get(EntityId::new(5), team),
            state.get(EntityId::new(5), mark)
        ),
        (2, 2, 1)
    );
    assert!(
        events
            .iter()
            .any(|e| e.entity == EntityId::new(5) && e.attr().is_none())
    );
}

#[test]
fn spawning_stops_at_the_entity_limit() {
    let rules = rules();
    let mut state = start(&rules);
    // Every unit spawns another: the count doubles with each application.
    let text = "[{:each :unit :effects [{:spawn :unit}]}]";
    let arena = grimoire::syntax::Arena::new();
    let effects = rules
        .check_effects(&read_one(&arena, text).unwrap())
        .unwrap();
    let mut events = Vec::new();
    for _ in 0..20 {
        events.clear();
        apply(&rules, &effects, &mut state, &TWO_SEATS, &mut events);
    }
    assert_eq!(state.len(), grimoire::eval::MAX_ENTITIES);
}
