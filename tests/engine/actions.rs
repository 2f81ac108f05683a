//! The rule-set sections that actions on a board need, checked: `:actions`,
//! `:statuses`, kinds' `:on-removed`, `:setup` for seats and `:for`. Each
//! mistake gets a located diagnostic; what checks plays (the tactics scenarios
//! play the rest).

use grimoire::check::rules::RuleSet;
use grimoire::engine::{Game, Illegal, Log};

use crate::common;
use grimoire::ids::{ActionId, EntityId};

const KINDS: &str = ":kinds {:player \"a seat\" :unit {:doc \"a piece\" :removed-when [<= [:self :hp] 0]} :cell \"a square\"}";

/// A small board game with `extra` spliced into its map.
fn rules(extra: &str) -> Result<RuleSet, Vec<grimoire::diag::Diagnostic>> {
    rules_with(KINDS, extra)
}

/// [`rules`] with its own `:kinds`.
fn rules_with(kinds: &str, extra: &str) -> Result<RuleSet, Vec<grimoire::diag::Diagnostic>> {
    RuleSet::parse(&format!(
        "{{:rules :skirmish
          :roles {{:you \"the player whose turn it is\" :other \"the opponent\"}}
          {kinds}
          :attributes {{:hp {{:default 3}} :team {{:default 0}} :x {{:default 0}} :acted {{:default 0}}}}
          :seats [:p1 :p2]
          {extra}}}"
    ))
}

/// The messages of a rule set that must not check.
fn errors(extra: &str) -> String {
    match rules(extra) {
        Ok(_) => panic!("checked, but should not: {extra}"),
        Err(diags) => common::messages(&diags),
    }
}

#[test]
fn an_action_needs_an_actor_kind_the_rule_set_declares() {
    let e = errors(":actions {:hit {:target :unit}}");
    assert!(e.contains("action `:hit` has no `:actor`"), "{e}");
    let e = errors(":actions {:hit {:actor :unti}}");
    assert!(e.contains("did you mean `:unit`?"), "{e}");
}

#[test]
fn an_action_condition_cannot_draw_chance() {
    let e = errors(":actions {:hit {:actor :unit :when [chance 0.5]}}");
    assert!(e.contains("cannot draw chance"), "{e}");
    let e = errors(
        ":actions {:hit {:actor :unit :refused-when [{:when [= [random 1 2] 1] :reason \"no\"}]}}",
    );
    assert!(e.contains("cannot draw chance"), "{e}");
}

#[test]
fn a_refusal_needs_a_condition_and_a_reason() {
    let e = errors(":actions {:hit {:actor :unit :refused-when [{:when true}]}}");
    assert!(e.contains("this refusal has no `:reason`"), "{e}");
    let e = errors(":actions {:hit {:actor :unit :refused-when {:when true :reason \"x\"}}}");
    assert!(e.contains("is a vector of"), "{e}");
}

#[test]
fn target_is_bound_only_in_actions_that_have_one() {
    assert!(rules(":actions {:hit {:actor :unit :target :unit :effects [{:effected :target :resource :hp :amount -1}]}}").is_ok());
    let e = errors(
        ":actions {:wait {:actor :unit :effects [{:effected :target :resource :hp :amount -1}]}}",
    );
    assert!(e.contains("`:target` is bound only in"), "{e}");
    let e = errors(":params {:actor 1}");
    assert!(e.contains("`:actor` is reserved"), "{e}");
}

#[test]
fn setup_gives_seats_values_and_makes_ranges_of_entities() {
    let r = rules(":setup {:p1 {:values {:team 1}} :cell {:kind :cell :for {:x [0 2] :hp [1 2]}}}")
        .expect("checks");
    let names = r.game_entity_names();
    assert_eq!(
        names,
        [
            "p1", "p2", "cell-0-1", "cell-0-2", "cell-1-1", "cell-1-2", "cell-2-1", "cell-2-2"
        ]
    );
    let game = Game::new(&r, &[], 1, Log::Skip).expect("a game");
    let team = r.attribute("team").unwrap();
    let x = r.attribute("x").unwrap();
    assert_eq!(game.state().get(EntityId::FIRST, team), 1, "p1's own value");
    assert_eq!(game.state().get(EntityId::new(1), team), 0);
    assert_eq!(game.state().get(EntityId::new(6), x), 2, "cell-2-1");
    let e = errors(":setup {:p1 {:kind :unit}}");
    assert!(e.contains("is a seat"), "{e}");
    let e = errors(":setup {:cell {:kind :cell :for {:x [3 1]}}}");
    assert!(e.contains("empty or too long"), "{e}");
    let e = errors(":setup {:cell {:kind :cell :for {:x [0 999] :hp [0 999]}}}");
    assert!(e.contains("at most 10000"), "{e}");
}

#[test]
fn on_removed_effects_run_as_an_entity_leaves_play() {
    let r = rules_with(
        ":kinds {:player \"a seat\" :unit {:doc \"a piece\" :removed-when [<= [:self :hp] 0]
                                           :on-removed [{:effected :self :resource :acted :amount [:self :x]}]}}",
        ":setup {:piece {:kind :unit :values {:x 7}}}
         :actions {:hit {:actor :player :target :unit :effects [{:effected :target :resource :hp :amount -5}]}}",
    )
    .expect("checks");
    let mut game = Game::new(&r, &[], 1, Log::Keep).expect("a game");
    let hit = game.use_action(ActionId::FIRST, EntityId::FIRST, Some(EntityId::new(2)));
    game.act(hit).expect("allowed");
    let acted = r.attribute("acted").unwrap();
    assert!(!game.state().is_live(EntityId::new(2)));
    assert_eq!(
        game.state().get(EntityId::new(2), acted),
        7,
        "the removed piece's x, read by its :on-removed"
    );
}

#[test]
fn a_refused_action_says_the_designers_reason_and_changes_nothing() {
    let r = rules(
        ":setup {:piece {:kind :unit}}
         :actions {:hit {:actor :player :target :unit
                         :refused-when [{:when [< [:you :hp] 5] :reason \"Too weak to hit\"}]
                         :effects [{:effected :target :resource :hp :amount -1}]}
                   :wait {:actor :player}}",
    )
    .expect("checks");
    let mut game = Game::new(&r, &[], 1, Log::Skip).expect("a game");
    let hit = game.use_action(ActionId::FIRST, EntityId::FIRST, Some(EntityId::new(2)));
    assert_eq!(
        game.check(hit),
        Err(Illegal::Refused("Too weak to hit".into()))
    );
    assert_eq!(
        game.act(hit),
        Err(Illegal::Refused("Too weak to hit".into()))
    );
    let hp = r.attribute("hp").unwrap();
    assert_eq!(game.state().get(EntityId::new(2), hp), 3);
    let mut legal = Vec::new();
    game.legal(&mut legal);
    // Any player may wait (the data does not tie actors to the seat); nobody may hit.
    assert_eq!(
        legal,
        [
            game.use_action(ActionId::new(1), EntityId::FIRST, None),
            game.use_action(ActionId::new(1), EntityId::new(1), None)
        ],
        "a refused action is not legal"
    );
    // Aimed at something of the wrong kind: not allowed, with why.
    let wrong = game.use_action(ActionId::FIRST, EntityId::FIRST, Some(EntityId::new(1)));
    match game.check(wrong) {
        Err(Illegal::NotAllowed(why)) => assert!(why.contains("aimed at a unit"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn while_preparing_is_allowed_or_forces() {
    assert!(rules(":actions {:wait {:actor :unit :while-preparing :allowed}}").is_ok());
    assert!(rules(":actions {:go {:actor :unit :while-preparing :forces}}").is_ok());
    let e = errors(":actions {:wait {:actor :unit :while-preparing :alowed}}");
    assert!(
        e.contains("`:while-preparing` is `:allowed` or `:forces`, found the keyword `:alowed`")
            && e.contains("did you mean `:allowed`?"),
        "{e}"
    );
}

/// A seat's piece that prepares a shot (delayed), and what it may do meanwhile.
const PREPARING: &str = ":setup {:gun {:kind :unit} :foe {:kind :unit :values {:team 1}}}
     :timings {:ready {:at :turn-start}}
     :hooks {:ready [{:effected :you :resource :acted :set true :amount 0}]}
     :actions {:shoot {:actor :unit :target :unit
                       :when [and [= [:you :acted] 0] [not= :actor :target]]
                       :delayed-when true
                       :pay [{:effected :you :resource :acted :amount 1}]
                       :effects [{:effected :target :resource :hp :amount -1}]}
               :hold {:actor :unit :while-preparing :allowed
                      :when [= [:you :acted] 0] :pay [{:effected :you :resource :acted :amount 1}]}
               :fire {:actor :unit :while-preparing :forces
                      :when [= [:you :acted] 0] :pay [{:effected :you :resource :acted :amount 1}]}}";

#[test]
fn a_preparing_actor_may_only_use_the_actions_while_preparing_allows() {
    let r = rules(PREPARING).expect("checks");
    let (shoot, hold, fire) = (ActionId::FIRST, ActionId::new(1), ActionId::new(2));
    let (gun, foe) = (EntityId::new(2), EntityId::new(3));
    let mut game = Game::new(&r, &[], 1, Log::Keep).expect("a game");
    // Nothing prepared: nothing to force.
    assert_eq!(
        game.check(game.use_action(fire, gun, None)),
        Err(Illegal::Refused(
            "gun has no prepared action to fire".into()
        ))
    );
    game.act(game.use_action(shoot, gun, Some(foe))).unwrap();
    // p2's turn, then p1's again in round 2: the gun is still preparing.
    game.act(game.use_action(hold, EntityId::new(3), None))
        .unwrap();
    assert_eq!(game.ctx().round, 2);
    assert_eq!(
        game.check(game.use_action(shoot, gun, Some(foe))),
        Err(Illegal::Refused(
            "gun is preparing shoot foe: while preparing it may only hold or fire".into()
        ))
    );
    let mut legal = Vec::new();
    game.legal(&mut legal);
    assert!(
        legal.iter().all(|a| a.actor != gun
            || matches!(a.ability, grimoire::engine::Ability::Action(id) if id != shoot)),
        "{legal:?}"
    );
    // Forcing resolves it at once, before the round's end.
    let hp = r.attribute("hp").unwrap();
    game.act(game.use_action(fire, gun, None)).unwrap();
    assert_eq!(game.state().get(foe, hp), 2);
}
