//! The engine at its edges: setups it must refuse, games that must end, victories it must see.

use std::path::PathBuf;

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::cli::{self, Format, PlayArgs};
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::{Game, Log, Outcome, SetupError};
use grimoire::ids::{CardId, EntityId};
use grimoire::syntax::read;

/// A small game: two seats, gold and hp, with the given hand size, turn limit and victory.
fn rules(hand: usize, limit: u32, victory: &str) -> RuleSet {
    crate::common::rules(&rules_text(hand, limit, victory))
}

fn rules_text(hand: usize, limit: u32, victory: &str) -> String {
    format!(
        "{{:rules :mini :roles {{:you \"me\" :other \"them\"}}
          :attributes {{:gold {{:default 5 :min 1}} :hp {{:default 3 :min 0}}}}
          :seats [:p1 :p2]
          :turns {{:limit {limit}}}
          :cards {{:pay-with [:gold] :hand-size {hand}}}
          :victory [{victory}]}}"
    )
}

fn card(name: &str, text: &str, rules: &RuleSet) -> Card {
    let arena = grimoire::syntax::Arena::new();
    let read = read(&arena, text);
    let mut diags = Vec::new();
    let def = grimoire::check::defs::definition(&read.forms[0], rules, 0, &mut diags)
        .unwrap_or_else(|| panic!("{diags:?}"));
    Card {
        triggers: Vec::new(),
        auras: Vec::new(),
        aims: Default::default(),
        reaction: None,
        abilities: Vec::new(),
        name: name.into(),
        text: String::new(),
        effects: def.effects,
        play: def.play,
        file: None,
    }
}

fn play_out(game: &mut Game<'_>, policy: Policy) {
    let mut ai = Ai::new();
    while game.outcome().is_none() {
        let Some(action) = ai.choose(game, policy) else {
            break;
        };
        game.act(action).unwrap();
    }
}

#[test]
fn a_condition_that_reads_no_value_is_checked_from_the_start() {
    let rules = rules(3, 50, "{:when true :winner :you}");
    let deck = [card(
        "Nothing",
        "{:card \"Nothing\" :type :gold :cost 0 :effects []}",
        &rules,
    )];
    let game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    // `true` holds for both seats, so both win at once.
    assert_eq!(game.outcome(), Some(Outcome::Tie));
}

#[test]
fn an_endless_play_again_chain_still_reaches_the_turn_limit() {
    let rules = rules(3, 40, "{:when [= [:you :hp] 0] :winner :other}");
    let deck = [card(
        "Again",
        "{:card \"Again\" :type :gold :cost 0 :play-again true :effects []}",
        &rules,
    )];
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    play_out(&mut game, Policy::Random);
    assert_eq!(game.outcome(), Some(Outcome::TurnLimit));
    assert_eq!(game.ctx().turn, 40);
}

#[test]
fn turns_where_nobody_can_act_loop_without_exhausting_the_stack() {
    // One card nobody can afford and nobody may discard: every turn is a pass.
    let rules = rules(3, 200000, "{:when [= [:you :hp] 0] :winner :other}");
    let deck = [card(
        "Anchor",
        "{:card \"Anchor\" :type :gold :cost 99 :discardable false :copies 3 :effects []}",
        &rules,
    )];
    // Run on a small stack: a recursive pass would overflow it long before 200 000 turns.
    let outcome = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let deck = deck;
            let game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
            (game.outcome(), game.ctx().turn)
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(outcome, (Some(Outcome::TurnLimit), 200_000));
}

#[test]
fn paying_a_cost_respects_the_attributes_bounds() {
    let rules = rules(3, 10, "{:when [= [:you :hp] 0] :winner :other}");
    // Gold is at least 1; a card costing all of it leaves 1, not 0.
    let deck = [card(
        "Spend",
        "{:card \"Spend\" :type :gold :cost 5 :copies 6 :effects []}",
        &rules,
    )];
    let mut game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    let gold = rules.attribute("gold").unwrap();
    game.act(game.play(0)).unwrap();
    assert_eq!(game.state().get(EntityId::FIRST, gold), 1);
}

#[test]
fn setups_the_engine_cannot_play_are_refused() {
    // A hand of no cards is refused when the rule set is checked, at its place.
    let text = rules_text(0, 10, "");
    let diags = RuleSet::parse(&text).unwrap_err();
    let d = diags
        .iter()
        .find(|d| {
            d.message
                .contains("`:hand-size` is a whole number from 1 to 64")
        })
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert_eq!(&text[d.span.start as usize..d.span.end as usize], "0");
    let rules = rules(3, 10, "");
    let none = [card(
        "Y",
        "{:card \"Y\" :type :gold :cost 0 :copies 0 :effects []}",
        &rules,
    )];
    assert!(matches!(
        Game::new(&rules, &none, 1, Log::Skip),
        Err(SetupError::NoCards(_))
    ));
}

#[test]
fn rule_sets_beyond_the_engines_limits_are_diagnosed() {
    let seats: String = (0..300).map(|i| format!(":s{i} ")).collect();
    let text =
        format!("{{:rules :big :roles {{:you \"me\"}} :attributes {{:hp {{}}}} :seats [{seats}]}}");
    let diags = RuleSet::parse(&text).unwrap_err();
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("at most 255 seats")),
        "{diags:?}"
    );

    let ops: String = (0..40)
        .map(|i| {
            format!(
                ":op{i} {{:effects [{{:effected :target :resource :op{} :amount :amount}}]}} ",
                i + 1
            )
        })
        .collect();
    let text = format!(
        "{{:rules :deep :roles {{:you \"me\"}} :attributes {{:hp {{}}}}
          :operations {{{ops} :op40 {{:effects [{{:effected :target :resource :hp :amount :amount}}]}}}}}}"
    );
    let diags = RuleSet::parse(&text).unwrap_err();
    assert!(
        diags.iter().any(|d| d.message.contains("operations deep")),
        "{diags:?}"
    );
}

#[test]
fn a_spreadsheet_saved_with_a_byte_order_mark_reads_like_one_without() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bom/arcomage");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("Cards.csv");
    std::fs::write(
        &file,
        "\u{feff}name,description,discardable,play-again,type,cost,effects\nMiners,+1 Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]\n",
    )
    .unwrap();
    let out = cli::check(&[file], None, Format::Json, false);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(out.stdout, "[]\n");
}

#[test]
fn a_deck_of_only_play_again_cards_still_ends() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("again-deck");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("again.edn"),
        "{:card \"Again\" :type :bricks :cost 0 :text \"Play again\" :play-again true :effects []}",
    )
    .unwrap();
    let mut input: &[u8] = b"";
    let out = cli::play(
        &PlayArgs {
            encounter: None,
            players: None,
            rules: "arcomage".into(),
            cards: vec![dir],
            seed: 1,
            ai: vec![Policy::Random],
            human: false,
            view: None,
            record: None,
            color: false,
        },
        &mut input,
        &mut Vec::new(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Production alone wins it in the end: "gathered enough resources".
    assert!(
        out.stdout.contains(" wins: gathered enough resources"),
        "{}",
        out.stdout.lines().last().unwrap_or("")
    );
}

#[test]
fn simulate_counts_each_ending_apart() {
    use grimoire::sim::{Stop, Tally};
    let rules = rules(3, 5, "{:when [= [:you :hp] 0] :winner :other}");
    let deck = [card(
        "Nothing",
        "{:card \"Nothing\" :type :gold :cost 0 :copies 6 :effects []}",
        &rules,
    )];
    let mut tally = Tally::new(2, deck.len());
    // Stopped mid-game: neither a win nor the turn limit.
    let game = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    assert_eq!(game.outcome(), None);
    tally.count(&game, Some(Stop::NoAction));
    tally.count(&game, Some(Stop::Refused));
    tally.count(&game, Some(Stop::Refused));
    // Played to the end: five turns of nothing reach the limit.
    let mut ended = Game::new(&rules, &deck, 1, Log::Skip).unwrap();
    play_out(&mut ended, Policy::Random);
    assert_eq!(ended.outcome(), Some(Outcome::TurnLimit));
    tally.count(&ended, None);
    assert_eq!(
        (
            tally.no_action,
            tally.refused,
            tally.turn_limits,
            tally.ties
        ),
        (1, 2, 1, 0)
    );
    assert_eq!(tally.wins, [0, 0]);
}

#[test]
fn the_greedy_ai_does_not_see_the_dice() {
    // Two free cards: 10 damage on a coin flip (worth 5 on average) or a sure 4.
    let rules = RuleSet::parse(
        "{:rules :coin :roles {:you \"me\" :other \"them\"}
          :attributes {:hp {:default 100 :min 0}}
          :seats [:p1 :p2]
          :cards {:hand-size 6}
          :victory [{:when [= [:you :hp] 0] :winner :other}]
          :ai {:score [- 0 [:other :hp]]}}",
    )
    .unwrap_or_else(|d| panic!("{d:?}"));
    let deck = [
        card(
            "Gamble",
            "{:card \"Gamble\" :copies 3 :effects [{:effected :other :resource :hp :amount [if [chance 0.5] -10 0]}]}",
            &rules,
        ),
        card(
            "Sure",
            "{:card \"Sure\" :copies 3 :effects [{:effected :other :resource :hp :amount -4}]}",
            &rules,
        ),
    ];
    let hp = rules.attribute("hp").unwrap();
    let (mut chosen, mut hit) = (0, 0);
    let mut ai = Ai::new();
    for seed in 0..400 {
        let mut game = Game::new(&rules, &deck, seed, Log::Skip).unwrap();
        let action = ai.choose(&mut game, Policy::Greedy).unwrap();
        let name = &deck[(game.hand()[action.hand_position()]).index()].name;
        game.act(action).unwrap();
        if name == "Gamble" {
            chosen += 1;
            hit += usize::from(game.state().get(EntityId::new(1), hp) == 90);
        }
    }
    // An AI that sees the dice chooses the gamble exactly when it hits (every time);
    // one that does not is right about half the time.
    assert!(
        chosen > 100,
        "the gamble was chosen only {chosen} times in 400"
    );
    let rate = hit as f64 / chosen as f64;
    assert!(
        (0.35..0.65).contains(&rate),
        "the gamble hit {hit} of {chosen} times"
    );
}

#[test]
fn each_change_in_the_log_names_its_real_cause() {
    use grimoire::engine::{By, GameEvent};
    let rules = rules(3, 10, "{:when [= [:you :hp] 0] :winner :other}");
    let deck = [card(
        "Pricey",
        "{:card \"Pricey\" :type :gold :cost 2 :copies 6 :effects [{:effected :you :resource :hp :amount 0} {:effected :other :resource :hp :amount -1}]}",
        &rules,
    )];
    let mut game = Game::new(&rules, &deck, 1, Log::Keep).unwrap();
    game.act(game.play(0)).unwrap();
    let changes: Vec<By> = game
        .log()
        .unwrap()
        .iter()
        .filter_map(|e| match e {
            GameEvent::Changed { by, .. } => Some(*by),
            _ => None,
        })
        .collect();
    // The cost names the card, not an effect; the damage names the card's second effect.
    assert!(matches!(changes[0], By::Cost(CardId::FIRST)), "{changes:?}");
    assert!(
        matches!(changes[1], By::Card(CardId::FIRST, cause) if cause.effect == 1 && cause.via().is_none()),
        "{changes:?}"
    );
    assert_eq!(changes.len(), 2);
}

#[test]
fn a_hook_that_expands_too_far_is_reported_at_the_hook() {
    let hundred = |what: &str| -> String {
        (0..100)
            .map(|_| format!("{{:effected :target :resource {what} :amount 1}}"))
            .collect()
    };
    let hook: String = (0..11)
        .map(|_| "{:effected :you :resource :b :amount 1}")
        .collect();
    let text = format!(
        "{{:rules :wide :roles {{:you \"me\"}} :attributes {{:hp {{}}}}
          :operations {{:a {{:effects [{}]}} :b {{:effects [{}]}}}}
          :timings {{:tick {{:at :turn-start}}}}
          :hooks {{:tick [{hook}]}}}}",
        hundred(":hp"),
        hundred(":a"),
    );
    let diags = RuleSet::parse(&text).unwrap_err();
    let d = diags
        .iter()
        .find(|d| {
            d.message
                .contains("the `:tick` hook can do 110000 units of work")
        })
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert_eq!(&text[d.span.start as usize..d.span.end as usize], ":tick");
    assert!(text[..d.span.start as usize].contains(":hooks"));
}

/// A game where taking gold now loses to a stab next turn: hp 5, a stab
/// takes 5, a guard gives 10. Most of the deck is stabs.
fn stab_game() -> (RuleSet, Vec<Card>) {
    let rules = RuleSet::parse(
        "{:rules :stab :roles {:you \"me\" :other \"them\"}
          :attributes {:hp {:default 5 :min 0} :gold {:default 0}}
          :seats [:p1 :p2]
          :cards {:hand-size 2}
          :victory [{:when [= [:other :hp] 0] :winner :you}]
          :ai {:score [- [:you :gold] [:other :gold]]}}",
    )
    .unwrap_or_else(|d| panic!("{d:?}"));
    let deck = vec![
        card(
            "Loot",
            "{:card \"Loot\" :copies 4 :effects [{:effected :you :resource :gold :amount 5}]}",
            &rules,
        ),
        card(
            "Guard",
            "{:card \"Guard\" :copies 4 :effects [{:effected :you :resource :hp :amount 10}]}",
            &rules,
        ),
        card(
            "Stab",
            "{:card \"Stab\" :copies 12 :effects [{:effected :other :resource :hp :amount -5}]}",
            &rules,
        ),
    ];
    (rules, deck)
}

#[test]
fn the_search_policy_sees_the_reply_and_not_the_hand() {
    let (rules, deck) = stab_game();
    let names = |game: &Game<'_>, seat: usize| -> Vec<String> {
        let mut names: Vec<String> = game
            .hand_of(EntityId::new(seat))
            .iter()
            .map(|&c| deck[c.index()].name.clone())
            .collect();
        names.sort();
        names
    };
    let (mut armed, mut unarmed) = (0, 0);
    let mut ai = Ai::new();
    for seed in 0..3000 {
        let game = Game::new(&rules, &deck, seed, Log::Skip).unwrap();
        if names(&game, 0) != ["Guard", "Loot"] {
            continue;
        }
        let stab = names(&game, 1).iter().any(|n| n == "Stab");
        let mut chosen = |policy: Policy| {
            let mut g = game.clone();
            let action = ai.choose(&mut g, policy).unwrap();
            deck[(g.hand()[action.hand_position()]).index()]
                .name
                .clone()
        };
        // Greedy looks one move ahead: the gold.
        assert_eq!(chosen(Policy::Greedy), "Loot", "seed {seed}");
        // Search sees that most hands the opponent could hold stab back, and
        // guards whether or not this opponent's hand really holds a stab: it
        // never looks at the hand.
        assert_eq!(chosen(Policy::Search), "Guard", "seed {seed}, stab {stab}");
        if stab {
            armed += 1;
            // Greedy's gold loses at once to the opponent's stab.
            let mut g = game.clone();
            let action = ai.choose(&mut g, Policy::Greedy).unwrap();
            g.act(action).unwrap();
            let reply = ai.choose(&mut g, Policy::Greedy).unwrap();
            g.act(reply).unwrap();
            assert_eq!(
                g.outcome(),
                Some(Outcome::Win {
                    seat: EntityId::new(1),
                    reason: 0
                }),
                "seed {seed}"
            );
        } else {
            unarmed += 1;
        }
    }
    assert!(
        armed > 10 && unarmed > 3,
        "{armed} armed, {unarmed} unarmed deals"
    );
}

#[test]
fn a_redeal_keeps_the_players_own_hand_and_deals_the_rest_from_the_unseen_cards() {
    use grimoire::engine::cards::{Pool, Zones};
    use rand::SeedableRng;
    for (deck_kind, per_seat) in [(":shared", false), (":per-seat", true)] {
        let rules = RuleSet::parse(&format!(
            "{{:rules :redeal :roles {{:you \"me\" :other \"them\"}}
              :attributes {{:hp {{:default 5}}}}
              :seats [:p1 :p2]
              :cards {{:hand-size 3 :deck {deck_kind}}}
              :victory [{{:when [= [:other :hp] 0] :winner :you}}]}}"
        ))
        .unwrap_or_else(|d| panic!("{d:?}"));
        let deck: Vec<Card> = (0..20)
            .map(|i| {
                let name = format!("C{i}");
                let text = format!("{{:card \"{name}\" :effects []}}");
                card(&name, &text, &rules)
            })
            .collect();
        let mut rng = grimoire::eval::Rng::seed_from_u64(5);
        let mut zones = Zones::new(&rules, rules.cards.as_ref(), &deck, 2);
        zones.deal(&deck, &mut rng);
        let mine = zones.hand(EntityId::FIRST).to_vec();
        let (theirs, pile) = (
            zones.hand(EntityId::new(1)).to_vec(),
            zones.draw_pile_len(EntityId::new(1)),
        );
        let mut seen = std::collections::BTreeSet::new();
        let mut pool = Vec::new();
        for _ in 0..300 {
            zones.determinise(0, &mut rng, &mut pool, Pool::Sorted);
            assert_eq!(
                zones.hand(EntityId::FIRST),
                mine,
                "{deck_kind}: the player's own hand"
            );
            assert_eq!(zones.hand(EntityId::new(1)).len(), 3, "{deck_kind}");
            assert_eq!(zones.draw_pile_len(EntityId::new(1)), pile, "{deck_kind}");
            seen.extend(zones.hand(EntityId::new(1)).iter().copied());
        }
        // Every card the player cannot see reaches the other hand at some deal
        // (with a shared pile, never one the player holds).
        let unseen = if per_seat { 20 } else { 17 };
        assert_eq!(seen.len(), unseen, "{deck_kind}: {seen:?}");
        assert!(per_seat || mine.iter().all(|c| !seen.contains(c)));
        assert!(theirs.iter().all(|c| seen.contains(c)));
    }
}

/// Forty formulas, each using the one before twice: written in 2 KB, they
/// stand for 2^40 nodes if a use copies the body in. Checking, loading and
/// compiling them for a game share each body instead (issue 29's repro
/// `formula-chain-check-oom` ran out of memory at 30); a use evaluates right.
#[test]
fn a_chain_of_formulas_each_using_the_last_twice_loads_in_its_written_size() {
    let mut formulas = String::from(":f0 {:args [:x] :value [+ :x 1]}\n");
    for i in 1..40 {
        formulas.push_str(&format!(
            ":f{i} {{:args [:x] :value [+ [formula :f{p} :x] [formula :f{p} :x]]}}\n",
            p = i - 1
        ));
    }
    let text = format!(
        "{{:rules :chain
 :roles {{:you \"the seat\" :other \"the other\"}}
 :attributes {{:hp {{:default 1}} :big {{}}}}
 :formulas {{{formulas}}}
 :seats [:north :south]
 :turns {{:limit 2}}
 :timings {{:begin {{:at :game-start}} :go {{:at :turn-start}}}}
 :hooks {{:begin [{{:effected :you :resource :hp :set true :amount [formula :f2 1]}}]
         :go [{{:effected :you :resource :big :set true :amount [formula :f3 [:you :hp]]}}]}}
 :ai {{:score [formula :f39 0]}}}}"
    );
    let rules = crate::common::rules(&text);
    let game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    let value = |name| {
        game.state()
            .get(EntityId::FIRST, rules.attribute(name).unwrap())
    };
    // f(n)(x) = 2^n (x + 1): f2(1) = 8, then at each turn start f3(8) = 72.
    assert_eq!((value("hp"), value("big")), (8, 72));
}

/// Issue 29's `status-doubling-hang`: a status whose turn-start hook acquires
/// itself anew doubles every turn. The game is aborted once 10,000 are held,
/// with the reason in the log, instead of running for ever.
#[test]
fn a_status_that_doubles_itself_every_turn_aborts_the_game_at_the_status_budget() {
    let rules = crate::common::rules(crate::common::GROW_RULES);
    let rules = crate::common::rules_with_statuses(&rules, "seed.edn", crate::common::GROW_SEED);
    let game = Game::new(&rules, &[], 1, Log::Keep).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Aborted(grimoire::eval::Exhausted::Instances))
    );
    // Each seat's turns double its seeds: 2^13 = 8,192 < 10,000 < 2^14.
    assert!(game.ctx().turn < 40, "turn {}", game.ctx().turn);
    // Where: the hook of `:seed` that acquires it again, in its file.
    assert_eq!(
        game.stopped_at().as_deref(),
        Some("seed.edn:2:24, in status `seed`")
    );
    let text = grimoire::engine::log::render(&rules, &[], game.log().unwrap());
    assert!(
        text.ends_with("out of budget at seed.edn:2:24, in status `seed`\naborted: the status budget ran out: more statuses held at once than `:budgets :statuses` allows (10000 by default; a status that acquires itself?)\n"),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );
}

/// Three loops over a board of 10,000 dots nested pass `check` (which can
/// only take a kind to have two entities), and would look at 10^12 triples:
/// the step runs out of the work budget and the game is aborted, not hung.
#[test]
fn nested_loops_over_a_large_board_abort_the_game_at_the_work_budget() {
    let rules = crate::common::rules(
        "{:rules :dots
 :roles {:you \"the seat\" :other \"the other\"}
 :kinds {:player \"a seat\" :dot \"a point of the board\"}
 :attributes {:x {} :y {} :n {}}
 :seats [:p1 :p2]
 :setup {:dot {:kind :dot :for {:x [0 99] :y [0 99]}}}
 :turns {:limit 10}
 :timings {:ts {:at :turn-start}}
 :hooks {:ts [{:each :dot :effects [{:each :dot :effects [{:each :dot
               :effects [{:effected :you :resource :n :amount 1}]}]}]}]}}",
    );
    let game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Aborted(grimoire::eval::Exhausted::Fuel))
    );
    assert_eq!(game.ctx().turn, 1);
}

/// A kind whose `:on-removed` spawns one that falls at once: removals set off
/// removals without end. Past 16 waves the game is aborted and says so (it
/// used to stop quietly, the last one left in play at 0 hp).
#[test]
fn removals_that_set_off_removals_without_end_abort_the_game() {
    let rules = crate::common::rules(
        "{:rules :ghosts
 :roles {:you \"the seat\" :other \"the other\"}
 :kinds {:player \"a seat\"
         :ghost {:doc \"falls at once, and leaves another\" :removed-when [<= [:self :hp] 0]
                 :on-removed [{:spawn :ghost :values {:hp 0}}]}}
 :attributes {:hp {:default 1}}
 :seats [:p1 :p2]
 :turns {:limit 10}
 :timings {:begin {:at :game-start}}
 :hooks {:begin [{:spawn :ghost :values {:hp 0}}]}}",
    );
    let game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Aborted(grimoire::eval::Exhausted::Removals))
    );
}

/// A timed entry that queues itself at the front (`:after 0`) never lets a
/// turn come: the queue fills, and the game is aborted at its limit, said as
/// such (what was added past it used to be dropped without a word).
#[test]
fn a_timed_entry_that_queues_itself_at_the_front_aborts_the_game_at_the_queue_budget() {
    let rules = crate::common::rules(
        "{:rules :loop
 :roles {:you \"the seat\" :other \"the other\"}
 :attributes {:n {}}
 :seats [:a :b]
 :turns {:limit 100}
 :timings {:begin {:at :game-start} :again {:at :run}}
 :hooks {:begin [{:queue :timed :after 0 :run :again :effected :you}]
         :again [{:effected :self :resource :n :amount 1}
                 {:queue :timed :after 0 :run :again :effected :self}]}}",
    );
    let game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Aborted(grimoire::eval::Exhausted::Queue))
    );
}

/// `:budgets` raises the work a step may do within its cap: the nested loops
/// that run out of the default budget finish with a bigger one, and a
/// budget past the cap is refused where it is written.
#[test]
fn a_rule_set_may_raise_its_budgets_within_their_caps() {
    let text = |budget: &str| {
        format!(
            "{{:rules :dots
 :roles {{:you \"the seat\" :other \"the other\"}}
 :kinds {{:player \"a seat\" :dot \"a point\"}}
 :attributes {{:x {{}} :y {{}} :n {{}}}}
 :seats [:p1 :p2]
 :setup {{:dot {{:kind :dot :for {{:x [0 29] :y [0 29]}}}}}}
 :turns {{:limit 2}}
 {budget}
 :timings {{:ts {{:at :turn-start}}}}
 :hooks {{:ts [{{:each :dot :effects [{{:each :dot :effects [{{:effected :you :resource :n :amount 1}}]}}]}}]}}}}"
        )
    };
    // 900 dots looked at 902 times, and 810,000 changes: past the default 1,000,000.
    let rules = crate::common::rules(&text(""));
    let game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Aborted(grimoire::eval::Exhausted::Fuel))
    );
    let rules = crate::common::rules(&text(":budgets {:work 5000000}"));
    let game = Game::new(&rules, &[], 1, Log::Skip).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::TurnLimit));
    assert_eq!(
        game.state()
            .get(EntityId::FIRST, rules.attribute("n").unwrap()),
        810_000
    );
    let refused = RuleSet::parse(&text(":budgets {:work 1000000000}")).unwrap_err();
    assert!(
        refused.iter().any(|d| d.message.contains("`:work`")),
        "{refused:?}"
    );
}
