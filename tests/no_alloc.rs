//! Applying a checked effect allocates nothing once the event buffer has room.
//!
//! A test binary of its own, not a module of a grouped one: its
//! `#[global_allocator]` is the allocator of the whole binary it is in (a
//! binary has one), so beside other tests it would put all of them behind
//! its counting.

use std::alloc::{GlobalAlloc, Layout, System};

use grimoire::check::rules::RuleSet;
use grimoire::eval::{CompiledEffects, Program, State, apply};
use grimoire::ids::EntityId;
use grimoire::syntax::read_one;

/// The two seats' entities, as `apply` binds them to `:you` and `:other`.
const TWO_SEATS: [EntityId; 2] = [EntityId::FIRST, EntityId::new(1)];

struct Counting;

thread_local! {
    // Only the measuring thread counts, into its own tally: the test harness
    // allocates on its own threads, and tests run side by side.
    static COUNTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static ALLOCATIONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn count() {
    if COUNTING.with(|c| c.get()) {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
    }
}

fn allocations() -> usize {
    ALLOCATIONS.with(|a| a.get())
}

// SAFETY: defers to the system allocator; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn applying_effects_allocates_nothing_in_steady_state() {
    let rules = RuleSet::bundled("arcomage").unwrap().unwrap();
    let text = "[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}
                 {:effected :other :resource :damage :amount [+ 2 [random 1 6]]}
                 {:effected :you :resource :gems :amount [- [ceil [/ [:other :gems] 2]]]}
                 {:effected [if [chance 0.5] :you :other] :resource [> [:other :wall] 10 :wall :tower] :amount 1}]";
    let arena = grimoire::syntax::Arena::new();
    let form = read_one(&arena, text).unwrap();
    let effects = rules.check_effects(&form).unwrap();
    let mut state = State::new(&rules, 2, 7);
    let wall = rules.attribute("wall").unwrap();
    let mut events = Vec::with_capacity(64);
    // The same effects compiled (what a game runs): compiling allocates, applying does not.
    let program = Program::new(&rules);
    let code = CompiledEffects::new(&rules, &effects);
    COUNTING.with(|c| c.set(true));
    let before = allocations();
    for i in 0..10_000 {
        events.clear();
        state.put(EntityId::FIRST, wall, i % 3);
        apply(&rules, &effects, &mut state, &TWO_SEATS, &mut events);
        assert!(!events.is_empty());
        events.clear();
        program.apply(&rules, &code, &mut state, &TWO_SEATS, &mut events);
        assert!(!events.is_empty());
    }
    let after = allocations();
    COUNTING.with(|c| c.set(false));
    assert_eq!(after - before, 0, "allocations during 10 000 applications");
}

#[test]
fn status_hooks_and_modifiers_allocate_nothing_in_steady_state() {
    let rules = grimoire::files::load_rules("tactics").expect("tactics is bundled");
    let mut state = State::new(&rules, 2, 7);
    state.add_setup(&rules);
    let hero = EntityId::new(rules.setup.iter().position(|s| s.name == "hero").unwrap() + 2);
    let roles = [EntityId::new(0), EntityId::new(1)];
    let mut events = Vec::with_capacity(256);
    for id in ["power", "speed", "weakness", "bleed", "slow", "life"] {
        let status = rules.status(id).unwrap();
        grimoire::eval::acquire(
            &rules,
            &mut state,
            &roles,
            hero,
            EntityId::FIRST,
            status,
            0,
            &mut events,
        );
    }
    let bleed = rules.timing("bleed").unwrap();
    let attack = rules.attribute("attack").unwrap();
    // `:you` is the hero: a change to its attack goes through the base and the modifiers.
    let text = "[{:effected :you :resource :hp :amount [statuses :you :debuff]}
                 {:effected :you :resource :attack :amount [- [random 0 2] 1]}]";
    let arena = grimoire::syntax::Arena::new();
    let effects = rules
        .check_effects(&read_one(&arena, text).unwrap())
        .unwrap();
    COUNTING.with(|c| c.set(true));
    let before = allocations();
    for i in 0..10_000 {
        events.clear();
        state.put(EntityId::new(hero.index()), attack, i % 4);
        grimoire::engine::run_timing(&rules, &mut state, bleed, EntityId::FIRST, &mut events);
        apply(
            &rules,
            &effects,
            &mut state,
            &[hero, EntityId::FIRST],
            &mut events,
        );
        state.put(
            EntityId::new(hero.index()),
            rules.attribute("hp").unwrap(),
            50,
        );
    }
    let after = allocations();
    COUNTING.with(|c| c.set(false));
    assert_eq!(
        after - before,
        0,
        "allocations during 10 000 status hook runs"
    );
    assert_eq!(state.statuses().len(), 6);
    // The last round's events: bleed's hook, the query's change, the modified attack.
    assert!(
        events.iter().any(|e| e.cause.status().is_some()),
        "{events:?}"
    );
    assert!(
        events.iter().any(|e| e.attr() == Some(attack)),
        "{events:?}"
    );
}
