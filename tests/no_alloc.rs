//! Applying a checked effect allocates nothing once the event buffer has room.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use grimoire::eval::{State, apply};
use grimoire::rules::RuleSet;
use grimoire::syntax::read_one;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Only the measuring thread counts: the test harness allocates on its own threads.
    static COUNTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn count() {
    if COUNTING.with(|c| c.get()) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
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
    let form = read_one(text).unwrap();
    let effects = rules.check_effects(&form).unwrap();
    let mut state = State::new(&rules, 2, 7);
    let wall = rules.attribute("wall").unwrap();
    let mut events = Vec::with_capacity(64);
    COUNTING.with(|c| c.set(true));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for i in 0..10_000 {
        events.clear();
        state.put(0, wall, i % 3);
        apply(&rules, &effects, &mut state, &[0, 1], &mut events);
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(false));
    assert_eq!(after - before, 0, "allocations during 10 000 applications");
    assert!(!events.is_empty());
}
