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
    // Bytes the measuring thread holds, and the most it held.
    static LIVE: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
    static PEAK: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
}

fn count() {
    if COUNTING.with(|c| c.get()) {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
    }
}

fn hold(bytes: isize) {
    if COUNTING.with(|c| c.get()) {
        LIVE.with(|l| {
            l.set(l.get() + bytes);
            PEAK.with(|p| p.set(p.get().max(l.get())));
        });
    }
}

/// The most bytes `f` held at once on this thread, beyond what it started with.
fn peak_bytes(f: impl FnOnce()) -> isize {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    PEAK.with(|p| p.get())
}

fn allocations() -> usize {
    ALLOCATIONS.with(|a| a.get())
}

// SAFETY: defers to the system allocator; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        hold(layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        hold(-(layout.size() as isize));
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        hold(new_size as isize - layout.size() as isize);
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

/// A game's memory is bounded by what is pending, not by its length (issue
/// 29, item 5): timed entries that queue themselves again each round used to
/// keep every entry ever queued (4.7 GB after 20 s). Ten times the turns
/// holds about the same memory.
#[test]
fn a_game_of_self_queuing_timed_entries_holds_flat_memory() {
    let play = |limit: u32| {
        let text = format!(
            "{{:rules :tick
 :roles {{:you \"the seat\" :other \"the other\"}}
 :attributes {{:n {{}}}}
 :seats [:a :b]
 :turns {{:limit {limit}}}
 :timings {{:begin {{:at :game-start}} :tick {{:at :run}}}}
 :hooks {{:begin [{{:queue :timed :after 1 :run :tick :effected :you}}]
         :tick [{{:effected :self :resource :n :amount 1}}
                {{:queue :timed :after 1 :run :tick :effected :self}}]}}}}"
        );
        let rules = RuleSet::parse(&text).expect("the rule set checks");
        peak_bytes(|| {
            let game = grimoire::engine::Game::new(&rules, &[], 1, grimoire::engine::Log::Skip)
                .expect("a game");
            // Every round each seat's entry ran and queued the next.
            let n = game
                .state()
                .get(EntityId::FIRST, rules.attribute("n").unwrap());
            assert!(
                n >= i64::from(limit / 2) - 2,
                "ran {n} times in {limit} turns"
            );
        })
    };
    let (short, long) = (play(2_000), play(20_000));
    assert!(
        long < short * 2,
        "2,000 turns held {short} bytes at most, 20,000 held {long}"
    );
}

/// Dealing a computer player's world from its seat's view
/// (`Game::determinise`) allocates nothing once its scratch has grown: a
/// search (and issue 34's tree search) deals one for every world it plays.
#[test]
fn determinising_a_world_allocates_nothing_in_steady_state() {
    use grimoire::engine::view::Unseen;
    use rand::SeedableRng;
    for name in ["arcomage", "skills"] {
        // Some turns in, so the discards hold cards too.
        bundled_game_after(name, 8, |game, _| {
            let mut rng = grimoire::eval::Rng::seed_from_u64(9);
            let mut scratch = Unseen::new();
            let seat = game.ctx().current;
            game.determinise(seat, &mut rng, &mut scratch);
            COUNTING.with(|c| c.set(true));
            let before = allocations();
            for _ in 0..1_000 {
                game.determinise(seat, &mut rng, &mut scratch);
            }
            let after = allocations();
            COUNTING.with(|c| c.set(false));
            assert_eq!(after - before, 0, "{name}: allocations in 1,000 deals");
        });
    }
}

#[test]
fn naming_brawl_moves_by_index_allocates_nothing() {
    use grimoire::engine::observe::{ActionSpace, Ranks};
    use grimoire::engine::{Game, Log};
    // Minions on boards, spells that aim, a card with options: card
    // instances named by their places, read from the card table as is.
    let library = grimoire::files::Library::current();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/triggers/rules/brawl.edn");
    let mut opened = library.open(path.to_str().unwrap()).expect("brawl");
    let deck = opened.deck(library, &[], &[]).expect("its deck").cards;
    let rules = opened.rules;
    let space = ActionSpace::new(&rules, &deck).expect("a space");
    let mut ranks = Ranks::new(&rules);
    let mut game = Game::new(&rules, &deck, 5, Log::Skip).expect("a game");
    let mut legal = Vec::new();
    let mut named = 0;
    for step in 0..400 {
        if game.outcome().is_some() {
            break;
        }
        legal.clear();
        game.legal(&mut legal);
        COUNTING.with(|c| c.set(true));
        let before = allocations();
        for &a in &legal {
            std::hint::black_box(space.index_of(&game, &ranks, a).expect("an index"));
        }
        let after = allocations();
        COUNTING.with(|c| c.set(false));
        assert_eq!(after - before, 0, "allocations naming {legal:?}");
        named += legal.len();
        // Moves spread over the list, not always the first (the end of a turn).
        game.act(legal[(step * 7) % legal.len()]).expect("legal");
        ranks.update(&game);
    }
    assert!(named > 400, "{named}");
}

/// The tree search (issue 34) allocates nothing per iteration once its
/// buffers have grown, in every bundled rule set: a decision of 1,600
/// iterations allocates no more than one of 100 at the same position, but
/// for a few buffers of the world it copies the game into (made once a
/// decision, each as long as the game's, so one doubles when an iteration
/// needs it longer: a pile and its cards' list, the scratch stack, the
/// values of units made, each a few times as the rollouts reach further; 12
/// at most today, in tbwg). An allocation an iteration would show as 1,500
/// more, one every fifty iterations as 30. Before, the zone games' legality checks built lists anew for
/// every card of every check (about 930 an iteration in the deduction game,
/// 53 in the minion battler, 40 in the deckbuilder).
#[test]
fn a_tree_search_iteration_allocates_nothing_in_steady_state() {
    for name in [
        "arcomage",
        "skills",
        "duel",
        "deduction",
        "minions",
        "tactics",
        "tbwg",
        "deckbuilder",
    ] {
        bundled_game_after(name, 6, |game, ai| {
            // A decision with a choice in it (one legal move is played unsearched).
            let mut legal = Vec::new();
            game.clone().legal(&mut legal);
            assert!(legal.len() > 1, "{name}: no choice to search");
            let (few, many) = decisions_allocations(game, ai);
            assert!(
                many < few + 30,
                "{name}: a decision of 100 iterations allocated {few} times, one of 1,600 {many}"
            );
        });
    }
}

/// The allocations of a tree-search decision of 100 iterations and of one
/// of 1,600 at `game`, on copies of it, once a larger one has grown the buffers.
fn decisions_allocations(
    game: &grimoire::engine::Game<'_>,
    ai: &mut grimoire::engine::ai::Ai,
) -> (usize, usize) {
    use grimoire::engine::ai::Policy;
    use grimoire::engine::mcts::MctsParams;
    let mcts = |budget| {
        Policy::Mcts(MctsParams {
            budget,
            ..MctsParams::DEFAULT
        })
    };
    ai.choose(&mut game.clone(), mcts(3200));
    let mut count = |budget| {
        let mut copy = game.clone();
        COUNTING.with(|c| c.set(true));
        let before = allocations();
        ai.choose(&mut copy, mcts(budget));
        let after = allocations();
        COUNTING.with(|c| c.set(false));
        after - before
    };
    (count(100), count(1600))
}

/// Runs `f` on bundled rule set `name`'s game from seed 3, `moves` random
/// moves in, with the computer player that made them.
fn bundled_game_after(
    name: &str,
    moves: usize,
    f: impl FnOnce(&mut grimoire::engine::Game<'_>, &mut grimoire::engine::ai::Ai),
) {
    use grimoire::engine::ai::{Ai, Policy};
    use grimoire::engine::{Game, Log};
    let mut rules = grimoire::files::load_rules(name).expect("bundled");
    let deck = grimoire::files::load_deck(&mut rules, &[])
        .expect("its deck")
        .cards;
    let mut game = Game::new(&rules, &deck, 3, Log::Skip).expect("a game");
    let mut ai = Ai::new();
    for _ in 0..moves {
        let action = ai.choose(&mut game, Policy::Random).expect("a move");
        game.act(action).expect("legal");
    }
    f(&mut game, &mut ai);
}
