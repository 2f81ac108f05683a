//! What a rule set needs to write a pipeline such as seed 000's skill steps in
//! data: `{:run :timing}` effects and `:run` timings, entity comparison
//! (`[= :holder :you]`), category sets in filters, and the card zones' per-seat
//! decks, `:once` cards, `:played` and card `:values`.

use crate::common::TWO_SEATS;
use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::engine::{Game, Log};
use grimoire::eval::{State, apply};
use grimoire::ids::{AttrId, CardId, EntityId};
use grimoire::syntax::read_one;

use crate::common;

/// Two seats with a wall and a counter, and `extra` spliced into the map.
fn rules_text(extra: &str) -> String {
    format!(
        "{{:rules :pipe
          :roles {{:you \"the player whose turn it is\" :other \"the opponent\"}}
          :categories {{:fire \"burns\" :ice \"freezes\" :rot \"rots\"}}
          :attributes {{:wall {{:default 0}} :hits {{:default 0 :scratch true}} :card {{:default 0}}}}
          :seats [:p1 :p2]
          {extra}}}"
    )
}

fn rules(extra: &str) -> RuleSet {
    common::rules(&rules_text(extra))
}

fn errors(extra: &str) -> String {
    match RuleSet::parse(&rules_text(extra)) {
        Ok(_) => panic!("checked, but should not: {extra}"),
        Err(diags) => common::messages(&diags),
    }
}

/// Applies `effects` with `:you` = seat 0 and `:other` = seat 1; the state after.
fn run(rules: &RuleSet, effects: &str) -> State {
    let arena = grimoire::syntax::Arena::new();
    let form = read_one(&arena, effects).expect("reads");
    let effects = rules
        .check_effects(&form)
        .unwrap_or_else(|d| panic!("{d:?}"));
    let mut state = State::new(rules, 2, 1);
    let mut events = Vec::new();
    apply(rules, &effects, &mut state, &TWO_SEATS, &mut events);
    state
}

const WALL: AttrId = AttrId::new(0);
const HITS: AttrId = AttrId::new(1);

#[test]
fn a_run_timing_runs_its_hook_for_the_effected_entity_with_self_bound() {
    let r = rules(
        ":timings {:bump {:at :run}}
         :hooks {:bump [{:effected :self :resource :wall :amount 2}]}",
    );
    let s = run(&r, "[{:run :bump :effected :other} {:run :bump}]");
    // Once for :other (named), once for :you (the default).
    assert_eq!(
        (s.get(EntityId::FIRST, WALL), s.get(EntityId::new(1), WALL)),
        (2, 2)
    );
}

#[test]
fn a_run_timing_with_each_runs_for_every_entity_of_the_kind() {
    let r = rules(
        ":timings {:bump {:at :run :each :player}}
         :hooks {:bump [{:when [= :self :you] :effects [{:effected :self :resource :wall :amount 5}]}
                        {:effected :self :resource :hits :amount 1}]}",
    );
    let s = run(&r, "[{:run :bump}]");
    // `[= :self :you]` compares entities: only seat 0 is the one whose turn it is.
    assert_eq!(
        (s.get(EntityId::FIRST, WALL), s.get(EntityId::new(1), WALL)),
        (5, 0)
    );
    assert_eq!(
        (s.get(EntityId::FIRST, HITS), s.get(EntityId::new(1), HITS)),
        (1, 1)
    );
}

#[test]
fn a_timing_never_runs_inside_its_own_run() {
    // The hook runs itself: the inner run does nothing, so the game cannot loop.
    let r = rules(
        ":timings {:again {:at :run}}
         :hooks {:again [{:effected :you :resource :wall :amount 1} {:run :again}]}",
    );
    let s = run(&r, "[{:run :again}]");
    assert_eq!(s.get(EntityId::FIRST, WALL), 1);
}

#[test]
fn runs_nest_at_most_eight_deep() {
    // t0 runs t1 runs … t11: each adds 1 before running the next.
    let timings: String = (0..12).map(|i| format!(":t{i} {{:at :run}} ")).collect();
    let hooks: String = (0..12)
        .map(|i| {
            format!(
                ":t{i} [{{:effected :you :resource :wall :amount 1}} {{:run :t{}}}] ",
                (i + 1).min(11)
            )
        })
        .collect();
    let r = rules(&format!(":timings {{{timings}}} :hooks {{{hooks}}}"));
    let s = run(&r, "[{:run :t0}]");
    assert_eq!(s.get(EntityId::FIRST, WALL), 8);
}

#[test]
fn a_run_names_a_declared_run_timing() {
    let e = errors(
        ":timings {:bump {:at :run} :start {:at :turn-start}}
         :hooks {:start [{:run :bmp}]}",
    );
    assert!(e.contains("`:run` names a timing"), "{e}");
    assert!(e.contains("did you mean `:bump`?"), "{e}");
    let e = errors(
        ":timings {:bump {:at :run} :start {:at :turn-start}}
         :hooks {:bump [{:run :start}]}",
    );
    assert!(
        e.contains(
            "`:start` runs at `:turn-start` by itself; an effect can run only timings at `:run`"
        ),
        "{e}"
    );
    let e = errors(
        ":timings {:bump {:at :run :each :player} :start {:at :turn-start}}
         :hooks {:start [{:run :bump :effected :other}]}",
    );
    assert!(
        e.contains("runs for each `:player` in play, so it takes no `:effected`"),
        "{e}"
    );
}

#[test]
fn an_operation_may_run_a_timing_declared_after_it_in_the_file() {
    // Sections are read in their order, timings before operations.
    let r = RuleSet::parse(&rules_text(
        ":operations {:twice {:effects [{:run :bump :effected :target} {:run :bump :effected :target}]}}
         :timings {:bump {:at :run}}
         :hooks {:bump [{:effected :self :resource :wall :amount 3}]}",
    ))
    .unwrap_or_else(|d| panic!("{d:?}"));
    let s = run(&r, "[{:effected :other :resource :twice :amount 0}]");
    assert_eq!(s.get(EntityId::new(1), WALL), 6);
}

const STATUSES: &str = "
{:status :burn :polarity :debuff :category :fire}
{:status :chill :polarity :debuff :category :ice}
{:status :blight :polarity :debuff :category :rot}
{:status :glow :polarity :buff :category :fire}";

/// `rules` with `STATUSES` installed.
fn with_statuses(rules: &RuleSet) -> RuleSet {
    common::rules_with_statuses(rules, "s.edn", STATUSES)
}

#[test]
fn a_set_of_categories_in_a_filter_matches_any_of_them() {
    let r = with_statuses(&rules(""));
    let s = run(
        &r,
        "[{:effected :you :acquire :burn} {:effected :you :acquire :chill}
          {:effected :you :acquire :blight} {:effected :you :acquire :glow}
          {:effected :you :dispel [:debuff #{:fire :ice}] :pick :all}]",
    );
    let left: Vec<_> = s.statuses_of(EntityId::FIRST).map(|i| i.status).collect();
    // burn and chill go; blight (rot) and glow (a buff) stay.
    assert_eq!(
        left,
        [r.status("blight").unwrap(), r.status("glow").unwrap()]
    );
}

#[test]
fn a_category_set_names_only_categories() {
    let r = with_statuses(&rules(""));
    let arena = grimoire::syntax::Arena::new();
    let form = read_one(&arena, "[{:effected :you :dispel #{:fire :fir}}]").unwrap();
    let e = format!("{:?}", r.check_effects(&form).unwrap_err());
    assert!(e.contains("a set in a filter holds categories"), "{e}");
    assert!(e.contains("did you mean `:fire`?"), "{e}");
    let arena = grimoire::syntax::Arena::new();
    let form = read_one(&arena, "[{:effected :you :dispel #{:frost}}]").unwrap();
    let e = format!("{:?}", r.check_effects(&form).unwrap_err());
    assert!(
        e.contains("the categories are `:fire`, `:ice` and `:rot`"),
        "{e}"
    );
    let arena = grimoire::syntax::Arena::new();
    let form = read_one(&arena, "[{:effected :you :dispel [#{:fire} #{:ice}]}]").unwrap();
    let e = format!("{:?}", r.check_effects(&form).unwrap_err());
    assert!(e.contains("one set of them, at most"), "{e}");
}

#[test]
fn a_rule_set_declares_at_most_64_categories() {
    let many: String = (0..65).map(|i| format!(":c{i} \"x\" ")).collect();
    let text = rules_text("").replace(
        ":categories {:fire \"burns\" :ice \"freezes\" :rot \"rots\"}",
        &format!(":categories {{{many}}}"),
    );
    let e = format!("{:?}", RuleSet::parse(&text).unwrap_err());
    assert!(e.contains("at most 64"), "{e}");
}

/// A game of `rules` dealing `cards` (definition texts).
fn deck(rules: &RuleSet, cards: &[&str]) -> Vec<Card> {
    cards
        .iter()
        .map(|text| {
            let arena = grimoire::syntax::Arena::new();
            let form = read_one(&arena, text).unwrap();
            let mut diags = Vec::new();
            let def = grimoire::check::defs::definition(&form, rules, 0, &mut diags)
                .unwrap_or_else(|| panic!("{diags:?}"));
            Card {
                triggers: Vec::new(),
                auras: Vec::new(),
                aims: Default::default(),
                reaction: None,
                abilities: Vec::new(),
                name: def.name,
                text: String::new(),
                effects: def.effects,
                play: def.play,
                file: None,
            }
        })
        .collect()
}

#[test]
fn per_seat_decks_once_cards_and_the_played_number() {
    let r = rules(":cards {:deck :per-seat :hand-size 8 :played :card}");
    let cards = deck(
        &r,
        &[
            "{:card \"Brick\" :effects [{:effected :you :resource :wall :amount 1}]}",
            "{:card \"Potion\" :once true :effects [{:effected :you :resource :wall :amount 10}]}",
        ],
    );
    let mut game = Game::new(&r, &cards, 7, Log::Skip).unwrap();
    // Each seat holds its own copy of the whole deck.
    assert_eq!(game.hand().len(), 2);
    let potion = game
        .hand()
        .iter()
        .position(|&c| c == CardId::new(1))
        .unwrap();
    game.act(game.play(potion)).unwrap();
    // The player's `:card` is the number of the card played (its place, from 1).
    assert_eq!(game.state().get(EntityId::FIRST, AttrId::new(2)), 2);
    assert_eq!(game.state().get(EntityId::FIRST, WALL), 10);
    // p2 still holds both; p1's potion is gone for good, its brick stays.
    assert_eq!(game.hand().len(), 2);
    let brick = game
        .hand()
        .iter()
        .position(|&c| c == CardId::FIRST)
        .unwrap();
    game.act(game.play(brick)).unwrap();
    assert_eq!(game.hand(), &[CardId::FIRST]);
}

#[test]
fn a_card_value_is_a_constant_in_the_cards_effects() {
    let r = rules(
        ":cards {:hand-size 4 :values {:multi {:default 1.0 :doc \"x\"} :bonus {:default 2}}}",
    );
    let cards = deck(
        &r,
        &[
            "{:card \"Big\" :multi 2.5 :effects [{:effected :you :resource :wall :amount [ceil [* 3 :multi]]}]}",
            "{:card \"Plain\" :effects [{:effected :you :resource :wall :amount [+ :bonus [round :multi]]}]}",
        ],
    );
    let mut state = State::new(&r, 2, 1);
    let mut events = Vec::new();
    apply(&r, &cards[0].effects, &mut state, &TWO_SEATS, &mut events);
    assert_eq!(state.get(EntityId::FIRST, WALL), 8);
    apply(&r, &cards[1].effects, &mut state, &TWO_SEATS, &mut events);
    assert_eq!(state.get(EntityId::FIRST, WALL), 8 + 3);
}

#[test]
fn card_values_are_checked() {
    let e = errors(":cards {:hand-size 4 :values {:cost {:default 1}}}");
    assert!(e.contains("`:cost` is already a name here"), "{e}");
    let e = errors(":cards {:hand-size 4 :values {:wall {:default 1}}}");
    assert!(e.contains("`:wall` is already a name here"), "{e}");
    let e = errors(":cards {:hand-size 4 :values {:multi {:default \"x\"}}}");
    assert!(e.contains("expected a number"), "{e}");
    let e = errors(":cards {:hand-size 4 :deck :mine}");
    assert!(e.contains("`:deck` is `:shared` or `:per-seat`"), "{e}");
    let e = errors(":cards {:hand-size 4 :played :wal}");
    assert!(e.contains("did you mean `:wall`?"), "{e}");
    // A card gives a value as a number.
    let r = rules(":cards {:hand-size 4 :values {:multi {:default 1}}}");
    let arena = grimoire::syntax::Arena::new();
    let form = read_one(&arena, "{:card \"X\" :multi :lots :effects []}").unwrap();
    let mut diags = Vec::new();
    assert!(grimoire::check::defs::definition(&form, &r, 0, &mut diags).is_none());
    assert!(
        format!("{diags:?}").contains("expected a number"),
        "{diags:?}"
    );
}

#[test]
fn scratch_changes_are_logged_only_where_a_status_made_them() {
    let r = rules(
        ":cards {:hand-size 4}
         :victory [{:when [>= [:you :wall] 3] :winner :you}]",
    );
    let cards = deck(
        &r,
        &[
            "{:card \"Tick\" :effects [{:effected :you :resource :hits :amount 1} {:effected :you :resource :wall :amount 1}]}",
        ],
    );
    let mut game = Game::new(&r, &cards, 1, Log::Keep).unwrap();
    game.act(game.play(0)).unwrap();
    let log = grimoire::engine::log::render(&r, &cards, game.log().unwrap_or(&[]));
    assert!(log.contains("p1.wall 0 -> 1"), "{log}");
    assert!(!log.contains("hits"), "{log}");
}
