//! Choices on actions, status segments, `:removed-when` and status `:turns`,
//! driven through the library on small rule sets written here.

use crate::common::TWO_SEATS;
use grimoire::check::rules::RuleSet;
use grimoire::engine::{Game, Illegal, Log};
use grimoire::eval::{State, What, apply};
use grimoire::ids::{ActionId, EntityId, OptionId};
use grimoire::syntax::{read, read_one};

/// `text` parsed, with the statuses `defs` defines installed.
fn rules_with(text: &str, defs: &str) -> RuleSet {
    let mut rules = crate::common::rules(text);
    let arena = grimoire::syntax::Arena::new();
    let forms = read(&arena, defs);
    assert!(forms.errors.is_empty(), "{:?}", forms.errors);
    rules.declare_statuses(
        forms
            .forms
            .iter()
            .filter_map(|f| f.get("status").and_then(|v| v.as_keyword())),
    );
    let mut checked = Vec::new();
    for form in &forms.forms {
        let mut diags = Vec::new();
        let def = grimoire::check::defs::definition(form, &rules, 0, &mut diags);
        assert!(diags.is_empty(), "{diags:#?}");
        checked.push(def.expect("a definition"));
    }
    rules.install_statuses(
        checked
            .iter()
            .filter_map(|d| d.status.clone().map(|s| (d.name.as_str(), s, None))),
    );
    rules
}

/// Two fighters and two sets of choices; `:aim` is delayed to the next round's end.
const ARENA: &str = "
{:rules :arena
 :roles {:you \"the fighter whose turn it is\" :other \"the other\"}
 :attributes {:hp {:default 20} :acted {:default 0} :seen {:default 0} :late {:default 0}}
 :seats [:a :b]
 :choices {:part {:options {:head {:bonus 4} :body {:bonus 0}}}
           :stance {:options {:low {:guard 1} :mid {:guard 5} :high {:guard 9}}}}
 :operations {:peek {:doc \"what is chosen, as an operation sees it\"
                     :effects [{:effected :target :resource :seen :set true :amount [+ 100 [choice :guard]]}]}}
 :timings {:ready {:at :turn-start} :after {:at :turn-end}}
 :hooks {:ready [{:effected :you :resource :acted :set true :amount 0}]
         :after [{:effected :other :resource :peek :amount 0}]}
 :actions {:punch {:actor :player :target :player :choose :part
                   :when [and [= :actor :you] [and [not= :target :you] [= [:actor :acted] 0]]]
                   :pay [{:effected :actor :resource :acted :amount 1}]
                   :effects [{:effected :target :resource :hp :amount [- -2 [choice :bonus]]}]}
           :brace {:actor :player :choose :stance
                   :when [and [= :actor :you] [= [:actor :acted] 0]]
                   :pay [{:effected :actor :resource :acted :amount 1}]
                   :effects [{:effected :actor :resource :peek :amount 0}]}
           :aim {:actor :player :choose :stance
                 :when [and [= :actor :you] [= [:actor :acted] 0]]
                 :delayed-when [= 1 1]
                 :pay [{:effected :actor :resource :acted :amount 1}]
                 :effects [{:effected :actor :resource :late :set true :amount [choice :guard]}]}}
 :turns {:limit 50}}";

fn arena() -> RuleSet {
    rules_with(ARENA, "")
}

fn action(rules: &RuleSet, name: &str) -> ActionId {
    ActionId::new(
        rules
            .actions
            .iter()
            .position(|a| a.name == name)
            .unwrap_or_else(|| panic!("no action {name}")),
    )
}

fn option(rules: &RuleSet, name: &str) -> Option<OptionId> {
    let found = rules.options.iter().position(|o| o == name);
    Some(OptionId::new(found.expect("option")))
}

fn value(game: &Game<'_>, rules: &RuleSet, entity: usize, attr: &str) -> i64 {
    let attr = rules.attribute(attr).expect("attr");
    game.state().get(EntityId::new(entity), attr)
}

#[test]
fn each_option_is_a_legal_action_and_reads_its_own_set() {
    let rules = arena();
    let mut game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    let mut legal = Vec::new();
    game.legal(&mut legal);
    // punch b × 2 parts, brace × 3 stances, aim × 3 stances.
    assert_eq!(legal.len(), 8, "{legal:?}");
    let mut brace = game.use_action(action(&rules, "brace"), EntityId::FIRST, None);
    brace.choice = option(&rules, "high");
    game.act(brace).unwrap();
    // The second set's options are numbered after the first's: high is 9.
    assert_eq!(value(&game, &rules, 0, "seen"), 109);
}

#[test]
fn the_chosen_option_is_cleared_after_the_action() {
    let rules = arena();
    let mut game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    game.pause_between_turns(true);
    let mut brace = game.use_action(action(&rules, "brace"), EntityId::FIRST, None);
    brace.choice = option(&rules, "mid");
    game.act(brace).unwrap();
    assert_eq!(value(&game, &rules, 0, "seen"), 105);
    // The turn-end hook applies the same operation with nothing chosen: 100.
    assert_eq!(value(&game, &rules, 1, "seen"), 100);
    game.resume();
    let mut punch = game.use_action(
        action(&rules, "punch"),
        EntityId::new(1),
        Some(EntityId::FIRST),
    );
    punch.choice = option(&rules, "head");
    game.act(punch).unwrap();
    assert_eq!(value(&game, &rules, 0, "hp"), 14);
}

#[test]
fn an_option_outside_the_actions_set_is_not_allowed() {
    let rules = arena();
    let mut game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    let mut punch = game.use_action(
        action(&rules, "punch"),
        EntityId::FIRST,
        Some(EntityId::new(1)),
    );
    for (choice, want) in [
        (None, "punch is used with one part: `:head` or `:body`"),
        (
            option(&rules, "low"),
            "punch is used with one part: `:head` or `:body`",
        ),
        (
            Some(OptionId::new(999)),
            "punch is used with one part: `:head` or `:body`",
        ),
    ] {
        punch.choice = choice;
        assert!(!game.allowed(punch));
        match game.check(punch) {
            Err(Illegal::NotAllowed(why)) => assert_eq!(why, want),
            other => panic!("{other:?}"),
        }
        assert!(game.act(punch).is_err());
    }
    let mut wait = game.use_action(action(&rules, "brace"), EntityId::FIRST, None);
    wait.choice = None;
    assert!(!game.allowed(wait));
    let rest_rules = rules_with(
        &ARENA
            .replace(
                ":aim {:actor :player :choose :stance",
                ":aim {:actor :player",
            )
            .replace(
                ":late :set true :amount [choice :guard]",
                ":late :set true :amount 1",
            ),
        "",
    );
    let mut game = Game::new(&rest_rules, &[], 1, Log::Skip).unwrap();
    let mut aim = game.use_action(action(&rest_rules, "aim"), EntityId::FIRST, None);
    aim.choice = Some(OptionId::FIRST);
    match game.check(aim) {
        Err(Illegal::NotAllowed(why)) => assert_eq!(why, "aim takes no option"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_delayed_action_resolves_with_the_option_it_was_chosen_with() {
    let rules = arena();
    let mut game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    let mut aim = game.use_action(action(&rules, "aim"), EntityId::FIRST, None);
    aim.choice = option(&rules, "mid");
    game.act(aim).unwrap();
    assert_eq!(value(&game, &rules, 0, "late"), 0);
    game.resume();
    let mut brace = game.use_action(action(&rules, "brace"), EntityId::new(1), None);
    brace.choice = option(&rules, "low");
    game.act(brace).unwrap();
    // Round 2: a is preparing and may do nothing else, so it passes; b braces again.
    assert_eq!(game.ctx().round, 2);
    assert_eq!(value(&game, &rules, 0, "late"), 0);
    game.act(brace).unwrap();
    // The next round's end resolved it with `:mid`, not with b's `:low`.
    assert_eq!(value(&game, &rules, 0, "late"), 5);
}

#[test]
fn the_random_policy_picks_a_move_before_its_option() {
    // punch (2 options), brace (3) and aim (3): three moves, each a third of the time.
    let rules = arena();
    let mut counts = [0u32; 3];
    let mut ai = grimoire::engine::ai::Ai::new();
    for seed in 0..3000 {
        let mut game = Game::new(&rules, &[], seed, Log::Skip).unwrap();
        let a = ai
            .choose(&mut game, grimoire::engine::ai::Policy::Random)
            .expect("a move");
        let grimoire::engine::Ability::Action(id) = a.ability else {
            panic!("{a:?}");
        };
        counts[id.index()] += 1;
    }
    for c in counts {
        assert!((850..1150).contains(&c), "{counts:?}");
    }
}

/// One fighter's rule set for statuses.
const RING: &str = "
{:rules :ring
 :roles {:you \"the fighter\" :other \"the other\"}
 :attributes {:hp {:default 20} :wall {:default 10} :x {:default 0} :acted {:default 0}}
 :statuses {:quake \"\" :shelter \"\" :guard \"\" :echo \"\" :flurry \"\"}
 :seats [:a :b]
 :turn-kinds {:classic \"any\" :quick {:doc \"quick\" :allows [:quick]}}
 :timings {:tick {:at :turn-start}}
 :hooks {:tick [{:effected :you :resource :acted :set true :amount 0}]}
 :actions {:wait {:actor :player :type :quick :when [and [= :actor :you] [= [:actor :acted] 0]]
                  :pay [{:effected :actor :resource :acted :amount 1}]}}}";

#[test]
fn a_status_that_acquires_itself_again_on_removal_does_not_loop() {
    let rules = rules_with(
        RING,
        "{:status :shelter :polarity :buff :removed-when [< [:holder :wall] 5]
          :on-remove [{:effected :holder :acquire :shelter} {:effected :holder :resource :hp :amount -1}]}",
    );
    let mut state = State::new(&rules, 2, 1);
    let mut events = Vec::new();
    let effects = rules
        .check_effects(
            &read_one(
                &grimoire::syntax::Arena::new(),
                "[{:effected :you :acquire :shelter} {:effected :you :resource :wall :amount -6}]",
            )
            .unwrap(),
        )
        .unwrap();
    apply(&rules, &effects, &mut state, &TWO_SEATS, &mut events);
    let mut removed = Vec::new();
    state.remove_fallen(&rules, &TWO_SEATS, &mut removed, &mut events);
    // Removed and acquired again once a wave, for a bounded number of waves.
    let hp = state.get(EntityId::FIRST, rules.attribute("hp").unwrap());
    assert!((0..20).contains(&hp), "hp {hp}");
    assert_eq!(state.statuses().len(), 1);
}

#[test]
fn a_removal_that_makes_another_status_go_is_followed_in_the_same_check() {
    let rules = rules_with(
        RING,
        "{:status :shelter :polarity :buff :removed-when [< [:holder :wall] 5]
          :on-remove [{:effected :holder :resource :x :amount 1}]}
         {:status :guard :polarity :buff :removed-when [> [:holder :x] 0]
          :on-remove [{:effected :holder :resource :hp :amount -3}]}",
    );
    let mut state = State::new(&rules, 2, 1);
    let mut events = Vec::new();
    let text = "[{:effected :you :acquire :guard} {:effected :you :acquire :shelter}
                 {:effected :you :resource :wall :amount -6}]";
    let arena = grimoire::syntax::Arena::new();
    let effects = rules
        .check_effects(&read_one(&arena, text).unwrap())
        .unwrap();
    apply(&rules, &effects, &mut state, &TWO_SEATS, &mut events);
    state.remove_fallen(&rules, &TWO_SEATS, &mut Vec::new(), &mut events);
    assert!(state.statuses().is_empty(), "{:?}", state.statuses());
    assert_eq!(
        state.get(EntityId::FIRST, rules.attribute("hp").unwrap()),
        17
    );
}

fn tick(rules: &RuleSet, state: &mut State, events: &mut Vec<grimoire::eval::Event>) {
    grimoire::engine::run_timing(
        rules,
        state,
        rules.timing("tick").unwrap(),
        EntityId::FIRST,
        events,
    );
}

#[test]
fn acquiring_a_segmented_status_again_starts_its_segments_over() {
    let rules = rules_with(
        RING,
        "{:status :quake :polarity :debuff :lasts [3 :tick]
          :segments [[{:effected :holder :resource :wall :amount -1}]
                     [{:effected :holder :resource :wall :amount -10}]
                     [{:effected :holder :resource :wall :amount -100}]]}",
    );
    let mut state = State::new(&rules, 2, 1);
    let mut events = Vec::new();
    let acquire = rules
        .check_effects(
            &read_one(
                &grimoire::syntax::Arena::new(),
                "[{:effected :you :acquire :quake}]",
            )
            .unwrap(),
        )
        .unwrap();
    apply(&rules, &acquire, &mut state, &TWO_SEATS, &mut events);
    tick(&rules, &mut state, &mut events);
    apply(&rules, &acquire, &mut state, &TWO_SEATS, &mut events);
    tick(&rules, &mut state, &mut events);
    // Part 1, then acquired again: part 1 once more, not part 2.
    assert_eq!(
        state.get(EntityId::FIRST, rules.attribute("wall").unwrap()),
        8
    );
}

#[test]
fn a_segment_that_acquires_its_status_again_restarts_the_whole_run() {
    let rules = rules_with(
        RING,
        "{:status :echo :polarity :debuff :lasts [2 :tick]
          :segments [[{:effected :holder :resource :hp :amount -1}]
                     [{:effected :holder :resource :wall :amount -1}
                      {:effected :holder :acquire :echo}]]}",
    );
    let mut state = State::new(&rules, 2, 1);
    let mut events = Vec::new();
    let acquire = rules
        .check_effects(
            &read_one(
                &grimoire::syntax::Arena::new(),
                "[{:effected :you :acquire :echo}]",
            )
            .unwrap(),
        )
        .unwrap();
    apply(&rules, &acquire, &mut state, &TWO_SEATS, &mut events);
    for _ in 0..4 {
        tick(&rules, &mut state, &mut events);
    }
    // Parts 1, 2 (restart), 1, 2 (restart): the status never runs out.
    assert_eq!(
        state.get(EntityId::FIRST, rules.attribute("hp").unwrap()),
        18
    );
    assert_eq!(
        state.get(EntityId::FIRST, rules.attribute("wall").unwrap()),
        8
    );
    assert_eq!(state.statuses().len(), 1);
    assert_eq!(state.statuses()[0].turns_left(), Some(2));
}

#[test]
fn status_turns_are_capped_at_sixteen_an_entity() {
    let turns = [":quick"; 10].join(" ");
    let rules = rules_with(
        RING,
        &format!("{{:status :flurry :polarity :buff :stacking :independent :turns [{turns}]}}"),
    );
    let mut game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    game.give_status(EntityId::FIRST, rules.status("flurry").unwrap(), 0);
    game.give_status(EntityId::FIRST, rules.status("flurry").unwrap(), 0);
    // Wait out the first round (a's turn, b's), then look at the second's queue.
    let wait = action(&rules, "wait");
    for seat in EntityId::below(2) {
        game.act(game.use_action(wait, seat, None)).unwrap();
    }
    assert_eq!(game.ctx().round, 2);
    let listing = game.queue_listing();
    let a_turns = listing
        .iter()
        .filter(|q| matches!(q, grimoire::engine::Queued::Turn(EntityId::FIRST, _)))
        .count();
    // The current turn is listed first; the rest of the base queue follows.
    assert_eq!(a_turns, 16, "{listing:?}");
}

#[test]
fn a_roll_is_rolled_by_the_entity_its_modifier_reads_through_any_operator() {
    let rules = rules_with(RING, "");
    for amount in [
        "[+ 1d6 [:you :wall]]",
        "[+ 1d6 [- [:you :wall]]]",
        "[+ 1d6 [abs [:you :wall]]]",
        "[+ 1d6 [min [:you :wall] 3]]",
        "[advantage [+ 1d6 [:you :wall]]]",
    ] {
        let text = format!("[{{:effected :other :resource :hp :amount {amount}}}]");
        let arena = grimoire::syntax::Arena::new();
        let effects = rules
            .check_effects(&read_one(&arena, &text).unwrap())
            .unwrap();
        let mut state = State::new(&rules, 2, 1);
        let mut events = Vec::new();
        apply(&rules, &effects, &mut state, &TWO_SEATS, &mut events);
        let rolls: Vec<_> = events
            .iter()
            .filter(|e| matches!(e.what, What::Rolled(..) | What::Die(_) | What::Kept(_)))
            .collect();
        assert!(!rolls.is_empty(), "{amount}");
        assert!(
            rolls.iter().all(|e| e.entity == EntityId::FIRST),
            "{amount}: {rolls:?}"
        );
    }
    // Bare dice are the changed entity's.
    let effects = rules
        .check_effects(
            &read_one(
                &grimoire::syntax::Arena::new(),
                "[{:effected :other :resource :hp :amount 1d6}]",
            )
            .unwrap(),
        )
        .unwrap();
    let mut state = State::new(&rules, 2, 1);
    let mut events = Vec::new();
    apply(&rules, &effects, &mut state, &TWO_SEATS, &mut events);
    assert!(
        events.iter().all(|e| e.entity == EntityId::new(1)),
        "{events:?}"
    );
}
