//! The engine at its edges: setups it must refuse, games that must end, victories it must see.

use std::path::PathBuf;

use grimoire::cli::{self, Format, PlayArgs};
use grimoire::defs::Card;
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::{Game, Outcome, SetupError};
use grimoire::rules::RuleSet;
use grimoire::syntax::read;

/// A small game: two seats, gold and hp, with the given hand size, turn limit and victory.
fn rules(hand: usize, limit: u32, victory: &str) -> RuleSet {
    RuleSet::parse(&rules_text(hand, limit, victory)).unwrap_or_else(|d| panic!("{d:?}"))
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
    let read = read(text);
    let mut diags = Vec::new();
    let def = grimoire::defs::definition(&read.forms[0], rules, 0, &mut diags)
        .unwrap_or_else(|| panic!("{diags:?}"));
    Card {
        name: name.into(),
        text: String::new(),
        effects: def.effects,
        play: def.play,
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
    let game = Game::new(&rules, &deck, 1, false).unwrap();
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
    let mut game = Game::new(&rules, &deck, 1, false).unwrap();
    play_out(&mut game, Policy::Random);
    assert_eq!(game.outcome(), Some(Outcome::TurnLimit));
    assert_eq!(game.turn, 40);
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
            let game = Game::new(&rules, &deck, 1, false).unwrap();
            (game.outcome(), game.turn)
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
    let mut game = Game::new(&rules, &deck, 1, false).unwrap();
    let gold = rules.attribute("gold").unwrap();
    game.act(game.play(0)).unwrap();
    assert_eq!(game.state().get(0, gold), 1);
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
        Game::new(&rules, &none, 1, false),
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
            rules: "arcomage".into(),
            cards: vec![dir],
            seed: 1,
            ai: vec![Policy::Random],
            human: false,
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
