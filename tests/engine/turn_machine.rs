//! The turn machine on its own: a rule set with no card zones, hooks at every
//! moment, rounds, victory from hooks, and entities added and removed in play.

use grimoire::check::rules::RuleSet;
use grimoire::engine::{Game, Log, Outcome, log};

use crate::common::rules;
use grimoire::ids::{ActionId, EntityId, TurnKindId};

/// Two seats, no cards; each moment's hook counts on the seat it runs for.
const COUNTING: &str = "
{:rules :clock
 :roles {:you \"the seat the hook runs for\" :other \"the other seat\"}
 :attributes {:games {} :rounds {} :starts {} :ends {} :closes {} :hp {:default 3 :min 0}}
 :seats [:north :south]
 :turns {:limit 4}
 :timings {:begin {:at :game-start} :dawn {:at :round-start} :go {:at :turn-start}
           :stop {:at :turn-end} :dusk {:at :round-end}}
 :hooks {:begin [{:effected :you :resource :games :amount 1}]
         :dawn [{:effected :you :resource :rounds :amount 1}]
         :go [{:effected :you :resource :starts :amount 1}]
         :stop [{:effected :you :resource :ends :amount 1}]
         :dusk [{:effected :you :resource :closes :amount 1}]}}";

#[test]
fn every_moment_runs_its_timings_hooks_in_order() {
    let rules = rules(COUNTING);
    let game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    // No card zones: nobody can act, every turn passes, the limit ends the game.
    assert_eq!(game.outcome(), Some(Outcome::TurnLimit));
    assert_eq!((game.ctx().turn, game.ctx().round), (4, 2));
    let value = |seat, name| game.state().get(seat, rules.attribute(name).unwrap());
    for seat in EntityId::below(2) {
        // Game start once; two rounds began; two turns each; one round closed
        // (the limit ends the game inside the second).
        assert_eq!(
            ["games", "rounds", "starts", "ends", "closes"].map(|a| value(seat, a)),
            [1, 2, 2, 2, 1],
            "seat {seat}"
        );
    }
    let text = log::render(&rules, &[], game.log().unwrap());
    insta::assert_snapshot!(text);
}

#[test]
fn a_hook_can_end_the_game_at_a_round_end() {
    let text = COUNTING.replace(
        ":dusk [{:effected :you :resource :closes :amount 1}]",
        ":dusk [{:effected :other :resource :hp :amount -3}]",
    ) + "";
    let text = text.replacen(
        ":turns {:limit 4}",
        ":turns {:limit 4} :victory [{:when [= [:you :hp] 0] :winner :other :reason \"worn down\"}]",
        1,
    );
    let rules = rules(&text);
    let game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    // North's round-end hook empties south's hp: north wins at the first round's end.
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            seat: EntityId::FIRST,
            reason: 0
        })
    );
    assert_eq!(game.ctx().turn, 2);
}

#[test]
fn entities_added_in_play_are_rows_like_any_other_and_keep_their_numbers_once_removed() {
    let rules = rules(&COUNTING.replace(":turns {:limit 4}", ":turns {:limit 9}"));
    let mut game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    // The game is over already (no cards, every turn passed): a fresh one pauses instead.
    assert_eq!(game.outcome(), Some(Outcome::TurnLimit));
    assert_eq!(
        game.add_entity("rock"),
        None,
        "no kind `rock` in this rule set"
    );
    let rock = game.add_entity("player").unwrap();
    assert_eq!(rock, EntityId::new(2));
    let hp = rules.attribute("hp").unwrap();
    assert_eq!(game.state().get(rock, hp), 3);
    game.set(rock, hp, 1);
    assert_eq!(game.state().get(rock, hp), 1);
    assert!(game.state().is_live(rock));
    game.remove_entity(rock);
    assert!(!game.state().is_live(rock));
    // A removed entity keeps its number: the next one added is new.
    assert_eq!(game.add_entity("player"), Some(EntityId::new(3)));
}

#[test]
fn a_removed_seat_takes_no_more_turns() {
    let rules = rules(&COUNTING.replace(":turns {:limit 4}", ":turns {:limit 6}"));
    // A game without cards plays itself out at once; pausing between turns and
    // starting again lets the test step in after the first turn.
    let mut game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    game.pause_between_turns(true);
    game.reset(1);
    game.remove_entity(EntityId::new(1));
    while game.outcome().is_none() {
        game.resume();
    }
    let log = log::render(&rules, &[], game.log().unwrap());
    let turns: Vec<&str> = log.lines().filter(|l| l.starts_with("turn ")).collect();
    assert_eq!(
        turns,
        [
            "turn 1: north",
            "turn 2: north",
            "turn 3: north",
            "turn 4: north",
            "turn 5: north",
            "turn 6: north"
        ],
        "{log}"
    );
    let starts = rules.attribute("starts").unwrap();
    assert_eq!(game.state().get(EntityId::new(1), starts), 0);
    assert_eq!(game.state().get(EntityId::FIRST, starts), 6);
}

#[test]
fn a_timing_with_each_runs_its_hook_for_every_entity_of_its_kind_with_self_bound() {
    let rules = rules(
        "{:rules :rockfall
          :roles {:you \"the first seat\" :other \"the second\"}
          :kinds {:player \"a seat\" :rock \"a falling rock\"}
          :attributes {:hp {:default 3 :min 0} :falls {}}
          :seats [:north :south]
          :turns {:limit 4}
          :timings {:fall {:at :round-end :each :rock}}
          :hooks {:fall [{:effected :self :resource :hp :amount -1}
                         {:effected :you :resource :falls :amount 1}]}}",
    );
    let mut game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    game.pause_between_turns(true);
    game.reset(1);
    let first = game.add_entity("rock").unwrap();
    let second = game.add_entity("rock").unwrap();
    let gone = game.add_entity("rock").unwrap();
    game.remove_entity(gone);
    while game.outcome().is_none() {
        game.resume();
    }
    let hp = rules.attribute("hp").unwrap();
    let falls = rules.attribute("falls").unwrap();
    // One round ended within four turns: each rock in play fell once; the removed one did not.
    assert_eq!(
        [first, second, gone].map(|r| game.state().get(r, hp)),
        [2, 2, 3]
    );
    // `:you` is the first seat's, once per rock.
    assert_eq!(game.state().get(EntityId::FIRST, falls), 2);
    assert_eq!(game.state().get(EntityId::new(1), falls), 0);
    // The seats are untouched: `:self` named only rocks.
    assert_eq!(game.state().get(EntityId::FIRST, hp), 3);
}

#[test]
fn self_is_only_bound_in_hooks_of_timings_with_each() {
    let diags = RuleSet::parse(
        "{:rules :bad :roles {:you \"me\"} :attributes {:hp {}}
          :timings {:tick {:at :turn-start}}
          :hooks {:tick [{:effected :self :resource :hp :amount 1}]}}",
    )
    .unwrap_err();
    assert!(
        diags.iter().any(|d| d.message == "unknown role `:self`"),
        "{diags:?}"
    );
}

#[test]
fn a_game_whose_seats_are_all_removed_ends_instead_of_looping() {
    let rules = rules(&COUNTING.replace(":turns {:limit 4}", ":turns {:limit 1000}"));
    let mut game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    game.pause_between_turns(true);
    game.reset(1);
    game.remove_entity(EntityId::FIRST);
    game.remove_entity(EntityId::new(1));
    game.resume();
    assert_eq!(game.outcome(), Some(Outcome::NobodyLeft));
    let log = log::render(&rules, &[], game.log().unwrap());
    assert!(log.ends_with("draw: no seat is left in play\n"), "{log}");
}

#[test]
fn a_removed_seat_gets_no_round_hooks_and_cannot_win() {
    // South would win at once if it could: its own hp is what it reads.
    let text = COUNTING.replacen(
        ":turns {:limit 4}",
        ":turns {:limit 6} :victory [{:when [= [:you :hp] 3] :winner :you :reason \"untouched\"}]",
        1,
    );
    let text = text.replace(":hp {:default 3 :min 0}", ":hp {:default 0 :min 0}");
    let rules = rules(&text);
    let mut game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    game.pause_between_turns(true);
    game.reset(1);
    let hp = rules.attribute("hp").unwrap();
    game.remove_entity(EntityId::new(1));
    game.set(EntityId::new(1), hp, 3);
    game.recheck();
    assert_eq!(game.outcome(), None, "a seat out of play cannot win");
    while game.outcome().is_none() {
        game.resume();
    }
    assert_eq!(game.outcome(), Some(Outcome::TurnLimit));
    let rounds = rules.attribute("rounds").unwrap();
    // South's round-start count stopped at the first round's; north, alone,
    // starts a round with each of its six turns.
    assert_eq!(game.state().get(EntityId::new(1), rounds), 1);
    assert_eq!(game.state().get(EntityId::FIRST, rounds), 6);
}

#[test]
fn a_pause_between_turns_comes_before_the_rounds_end() {
    let rules = rules(&COUNTING.replace(":turns {:limit 4}", ":turns {:limit 8}"));
    let mut game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    game.pause_between_turns(true);
    game.reset(1);
    // Paused after north's first turn; resuming plays south's, the round's last.
    game.resume();
    let closes = rules.attribute("closes").unwrap();
    assert_eq!(
        game.state().get(EntityId::FIRST, closes),
        0,
        "round end ran before the pause"
    );
    assert_eq!(
        game.next_actor(),
        EntityId::FIRST,
        "north opens the next round"
    );
    game.resume();
    assert_eq!(game.state().get(EntityId::FIRST, closes), 1);
    assert_eq!((game.ctx().turn, game.ctx().round), (3, 2));
}

#[test]
fn a_scenario_on_a_rule_set_without_cards_fails_with_a_reason() {
    use grimoire::check::defs::{Card, CardRules};
    use grimoire::scenario;
    let rules = rules(COUNTING);
    let deck = [Card {
        triggers: Vec::new(),
        auras: Vec::new(),
        aims: Default::default(),
        reaction: None,
        abilities: Vec::new(),
        name: "Ghost".into(),
        text: String::new(),
        effects: Vec::new(),
        play: CardRules::default(),
        file: None,
    }];
    let arena = grimoire::syntax::Arena::new();
    let form = grimoire::syntax::read_one(
        &arena,
        "{:scenario \"plays\" :play [\"Ghost\"] :expect {:next :you}}",
    )
    .unwrap();
    let mut diags = Vec::new();
    let scenarios = scenario::load(std::slice::from_ref(&form), &rules, &deck, &mut diags);
    assert!(diags.is_empty(), "{diags:?}");
    let failures = scenario::run(&scenarios[0], &rules, &deck).unwrap_err();
    assert!(
        failures[0].contains("has no card zones, so no card can be played"),
        "{failures:?}"
    );
}

/// The language reference's turn-queue example: two turn kinds, a rock that
/// takes an entity turn, extra turns and a timed bomb.
fn queues_rules() -> RuleSet {
    let doc = include_str!("../../docs/LANGUAGE.md");
    let start = doc.find("{:rules :queues").expect("the example");
    let end = start + doc[start..].find("\n```").expect("its end");
    rules(&doc[start..end])
}

#[test]
fn extra_turns_go_to_the_front_of_the_queue() {
    use grimoire::engine::Queued;
    let rules = queues_rules();
    let mut game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    let act =
        |name: &str| ActionId::new(rules.actions.iter().position(|a| a.name == name).unwrap());
    game.act(game.use_action(act("stop-time"), EntityId::FIRST, None))
        .unwrap();
    // The turn being taken, three classic turns for c1, then the rest of the round.
    assert_eq!(
        game.queue_listing(),
        [
            Queued::Turn(EntityId::FIRST, TurnKindId::FIRST),
            Queued::Turn(EntityId::FIRST, TurnKindId::FIRST),
            Queued::Turn(EntityId::FIRST, TurnKindId::FIRST),
            Queued::Turn(EntityId::FIRST, TurnKindId::FIRST),
            Queued::Turn(EntityId::FIRST, TurnKindId::new(1)),
            Queued::Turn(EntityId::new(1), TurnKindId::FIRST),
            Queued::Turn(EntityId::new(1), TurnKindId::new(1))
        ]
    );
}

#[test]
fn seats_falling_together_end_the_game_at_once_as_a_draw() {
    let rules = rules(
        "{:rules :duel-to-the-death
          :roles {:you \"the one acting\" :other \"the other\"}
          :kinds {:fighter {:doc \"a fighter\" :removed-when [<= [:self :hp] 0]}}
          :attributes {:hp {:default 3}}
          :seats [:a :b]
          :actions {:blast {:actor :fighter :when [= :actor :you]
                            :effects [{:effected :you :resource :hp :amount -3}
                                      {:effected :other :resource :hp :amount -3}]}}
          :victory [{:when [<= [:other :hp] 0] :winner :you :reason \"the other fell\"}]}",
    );
    let mut game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    game.pause_between_turns(true);
    game.act(game.use_action(ActionId::FIRST, EntityId::FIRST, None))
        .unwrap();
    // Both left play in the same action: nobody can win, and nothing runs after.
    assert_eq!(game.outcome(), Some(Outcome::NobodyLeft));
    assert_eq!((game.ctx().turn, game.ctx().round), (1, 1));
    let text = log::render(&rules, &[], game.log().unwrap());
    assert!(text.ends_with("draw: no seat is left in play\n"), "{text}");
}

#[test]
fn a_turn_queued_as_a_round_ends_runs_first_in_the_next_round() {
    let rules = rules(
        "{:rules :late
          :roles {:you \"the seat the hook runs for\" :other \"the other seat\"}
          :turn-kinds {:classic \"a seat's turn\" :bonus {:doc \"won at a round's end\" :allows [:bonus]}}
          :attributes {:lucky {:default 0}}
          :seats [:a :b]
          :setup {:a {:values {:lucky 1}}}
          :turns {:limit 6}
          :timings {:dusk {:at :round-end}}
          :hooks {:dusk [{:when [= [:you :lucky] 1]
                          :effects [{:queue :turns :effected :you :count 1 :kind :bonus}]}]}}",
    );
    let game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    // Nobody can act, so every turn passes; a's bonus turn opens round 2.
    let text = log::render(&rules, &[], game.log().unwrap());
    let turns: Vec<&str> = text.lines().filter(|l| l.starts_with("turn ")).collect();
    assert_eq!(
        turns,
        [
            "turn 1: a",
            "turn 2: b",
            "turn 3: a (bonus turn)",
            "turn 4: a",
            "turn 5: b",
            "turn 6: a (bonus turn)"
        ],
        "{text}"
    );
    assert_eq!(game.ctx().round, 3);
}

#[test]
fn a_turn_allows_only_the_actions_its_kind_allows_and_lists_only_those() {
    let rules = queues_rules();
    let mut game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    // c1's classic turn allows everything; its fast-magic turn only `:push`.
    game.end_turn_now().unwrap();
    assert_eq!(game.ctx().turn_kind, TurnKindId::new(1));
    let mut legal = Vec::new();
    game.legal(&mut legal);
    let push = ActionId::new(rules.actions.iter().position(|a| a.name == "push").unwrap());
    assert!(!legal.is_empty());
    assert!(
        legal
            .iter()
            .all(|a| a.ability == grimoire::engine::Ability::Action(push)),
        "{legal:?}"
    );
}

#[test]
fn a_turn_lists_as_legal_only_the_actions_its_kind_allows() {
    let rules = queues_rules();
    let mut game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    // c1's classic turn ends; its fast-magic turn comes next in the base queue.
    game.end_turn_now().unwrap();
    let ctx = game.ctx();
    assert_eq!(
        (ctx.current, ctx.turn_kind),
        (EntityId::FIRST, TurnKindId::new(1))
    );
    let mut legal = Vec::new();
    game.legal(&mut legal);
    let names: Vec<&str> = legal
        .iter()
        .map(|a| match a.ability {
            grimoire::engine::Ability::Action(id) => rules.actions[id].name.as_str(),
            _ => "a card",
        })
        .collect();
    // Push, the one fast-magic action (by either fighter at either: it has
    // no `:when`); stop-time and the other classic actions would be refused,
    // so they are not legal.
    assert_eq!(names, ["push"; 4]);
}

/// Four seats, three playing by default, the second out from the start:
/// each turn's start and end count on the seat whose turn it is.
const RELAY: &str = "
{:rules :relay
 :roles {:you \"the seat whose turn it is\" :other \"the next seat\"}
 :attributes {:out {:default 0 :min 0 :max 1} :laps {} :ends {}}
 :seats [:p1 :p2 :p3 :p4]
 :players {:min 2 :default 3}
 :setup {:p2 {:values {:out 1}}}
 :timings {:lap {:at :turn-start} :stop {:at :turn-end}}
 :hooks {:lap [{:effected :you :resource :laps :amount 1}]
         :stop [{:effected :you :resource :ends :amount 1}]}
 :turns {:limit 100 :skip-when [= 1 [:self :out]]}
 :victory [{:when [>= [:you :laps] [* 2 [count :player]]] :winner :you :reason \"ran the laps\"}]}";

#[test]
fn a_seat_that_skip_when_holds_for_passes_its_turns_whole_and_players_pick_the_seats() {
    let mut rules = rules(RELAY);
    assert_eq!(rules.seats, ["p1", "p2", "p3"], "the default count");
    let value = |game: &Game<'_>, seat: usize, name: &str| {
        game.state()
            .get(EntityId::new(seat), rules_attr(game, name))
    };
    fn rules_attr(game: &Game<'_>, name: &str) -> grimoire::ids::AttrId {
        game.rules().attribute(name).expect("attribute")
    }
    let game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    // p1 and p3 alternate; p2's turns run no hook: 6 laps (3 players) win.
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            seat: EntityId::FIRST,
            reason: 0
        })
    );
    assert_eq!(game.ctx().turn, 11, "p1 six turns, p3 five, p2 none");
    assert_eq!([0, 1, 2].map(|s| value(&game, s, "laps")), [6, 0, 5]);
    assert_eq!([0, 1, 2].map(|s| value(&game, s, "ends")), [5, 0, 5]);
    let text = log::render(&rules, &[], game.log().unwrap());
    assert!(!text.contains(": p2"), "{text}");
    // Four players: p4 plays too, and 8 laps win.
    rules.choose_players(4).expect("4 of 2 to 4");
    assert_eq!(rules.seats.len(), 4);
    let game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    assert_eq!([0, 1, 2, 3].map(|s| value(&game, s, "laps")), [8, 0, 7, 7]);
    assert_eq!(
        rules.choose_players(5),
        Err("rule set `relay` is played by 2 to 4 players, not 5".to_string())
    );
    assert_eq!(
        rules.choose_players(1),
        Err("rule set `relay` is played by 2 to 4 players, not 1".to_string())
    );
}

/// Every seat stunned for two rounds, the stun wearing off as each round
/// ends: the rounds passed over whole are no "nobody left" (both seats are
/// in play and play once the stun is gone); stunned for good, the game ends
/// at the turn limit, counting such rounds.
#[test]
fn rounds_of_seats_all_passed_over_go_on_until_a_seat_plays_or_the_limit() {
    let stun = "
{:rules :stun
 :roles {:you \"the seat whose turn it is\" :other \"the other\"}
 :attributes {:stun {:default 2 :min 0} :laps {}}
 :seats [:p1 :p2]
 :timings {:lap {:at :turn-start} :thaw {:at :round-end}}
 :hooks {:lap [{:effected :you :resource :laps :amount 1}]
         :thaw [{:effected :you :resource :stun :amount -1}]}
 :turns {:limit 50 :skip-when [> [:self :stun] 0]}
 :victory [{:when [>= [:you :laps] 3] :winner :you :reason \"ran the laps\"}]}";
    let thawing = rules(stun);
    let game = Game::new(&thawing, &[], 1, Log::Skip).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            seat: EntityId::FIRST,
            reason: 0
        })
    );
    assert_eq!(game.ctx().turn, 5);
    let forever = stun.replace(
        ":thaw [{:effected :you :resource :stun :amount -1}]",
        ":thaw []",
    );
    let frozen = rules(&forever);
    let game = Game::new(&frozen, &[], 1, Log::Skip).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::TurnLimit));
}

#[test]
fn players_out_of_the_seats_range_are_located_diagnostics() {
    for (players, said) in [
        (
            "{:min 1}",
            "`:min` (players) is a whole number from 2 to 4, found the integer 1",
        ),
        (
            "{:min 2 :default 5}",
            "`:default` (players) is a whole number from 2 to 4, found the integer 5",
        ),
        ("{:default 3}", "`:players` has no `:min`"),
    ] {
        let text = RELAY.replace("{:min 2 :default 3}", players);
        let diags = RuleSet::parse(&text).expect_err(players);
        assert!(
            diags.iter().any(|d| d.message == said),
            "{players}: {diags:#?}"
        );
    }
    // Without `:seats` a count of players would be ignored: it is an error.
    let text = RELAY.replace(" :seats [:p1 :p2 :p3 :p4]\n", "");
    assert_ne!(text, RELAY);
    let diags = RuleSet::parse(&text).expect_err("no seats");
    assert!(
        diags.iter().any(|d| d.message
            == "`:players` without `:seats`: the players are the first seats of `:seats`"),
        "{diags:#?}"
    );
}
