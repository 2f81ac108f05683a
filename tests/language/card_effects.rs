//! Effects on cards and queries of zones, checked (issue 30): what each
//! form becomes, a located error for each way one can be written wrong
//! (E0239 to E0243, E0407), the work a loop over a pile is bounded by, and
//! each said in words.

use grimoire::check::ast::{
    CardPick, CardVerb, Cards, Effect, Entity, Int, Place, Resource, Source,
};
use grimoire::check::explain::explain;
use grimoire::check::rules::RuleSet;
use grimoire::diag::{Code, Source as Text};
use grimoire::files::check_sources;
use grimoire::syntax::{Arena, read_one};

/// Two seats; a shared ordered deck, hands, an ordered discard pile, an
/// unordered set-aside zone, boards of 3 in play; and `more`.
fn rules_with(more: &str) -> String {
    format!(
        r#"{{:rules :hands
 :roles {{:you "the player" :other "the opponent"}}
 :kinds {{:player "a seat" :minion {{:card true :doc "a creature"}} :spell {{:card true :doc "a spell"}}}}
 :attributes {{:health {{:default 3 :min 0}} :attack {{:default 1 :min 0}}}}
 :seats [:p1 :p2]
 :zones {{:deck {{:shared true :ordered true :visible :nobody :start :deck}}
         :hand {{:visible :owner :plays true :discard-to :discard :deal 3}}
         :discard {{:shared true :ordered true}}
         :aside {{:shared true :visible :nobody}}
         :board {{:slots 3 :in-play true :leaves-to :discard}}}}
 {more}}}"#
    )
}

fn rules() -> RuleSet {
    RuleSet::parse(&rules_with("")).unwrap_or_else(|d| panic!("{d:#?}"))
}

/// `text` checked as effects of `rules`: the effects, or "code message" lines.
fn check_in(rules: &RuleSet, text: &str) -> Result<Vec<Effect>, Vec<String>> {
    let arena = Arena::new();
    let form = read_one(&arena, text).expect("a form");
    rules.check_effects(&form).map_err(|diags| {
        diags
            .iter()
            .map(|d| {
                let help = d.help.clone().unwrap_or_default();
                format!("{} {} | {help}", d.code.as_str(), d.message)
            })
            .collect()
    })
}

fn check(text: &str) -> Result<Vec<Effect>, Vec<String>> {
    check_in(&rules(), text)
}

/// Asserts `text` gives one diagnostic, of `code`, saying `words`.
fn refused(text: &str, code: Code, words: &str) {
    let said = check(text).expect_err("refused");
    assert_eq!(said.len(), 1, "{text}: {said:#?}");
    assert!(
        said[0].starts_with(code.as_str()) && said[0].contains(words),
        "{text}: {said:#?}"
    );
}

fn one(text: &str) -> Effect {
    let mut effects = check(text).unwrap_or_else(|d| panic!("{text}: {d:#?}"));
    assert_eq!(effects.len(), 1);
    effects.remove(0)
}

fn card_op(e: &Effect) -> &grimoire::check::ast::CardOp {
    match &e.resource {
        Resource::Cards(op) => op,
        other => panic!("not an effect on cards: {other:?}"),
    }
}

#[test]
fn a_draw_goes_to_the_seat_s_hand_from_what_it_draws_from() {
    let e = one("{:effected :other :draw [+ 1 1]}");
    let op = card_op(&e);
    assert_eq!(op.verb, CardVerb::Draw(None));
    let to = op.to.as_ref().expect("a destination");
    assert_eq!(to.zone.zone.index(), 1, "the hand");
    assert_eq!(to.zone.owner, Some(e.entity.clone()), "the drawer's own");
    assert!(matches!(e.amount, Int::Fold(..)));
    // From another pile, which must be ordered; into a board.
    let e = one("{:draw 1 :from :discard :to [:board :you]}");
    assert!(matches!(card_op(&e).verb, CardVerb::Draw(Some(_))));
    refused(
        "{:effected :you :draw 1 :from :aside}",
        Code::NotOrdered,
        "`:aside` is not `:ordered`: a draw takes the top card",
    );
    refused(
        "{:effected :you :draw 1 :to [:board :you]}",
        Code::MissingKey,
        "`:board` draws from no zone",
    );
}

#[test]
fn a_discard_is_chosen_unless_its_pick_says_otherwise() {
    let e = one("{:effected :other :discard 2}");
    let Some(Cards::Pick(sel)) = &card_op(&e).cards else {
        panic!()
    };
    assert_eq!((sel.pick, &sel.count), (CardPick::Chosen, &Int::Lit(2)));
    assert_eq!(card_op(&e).to.as_ref().unwrap().zone.zone.index(), 2);
    let e = one("{:effected :you :discard :all}");
    let Some(Cards::Pick(sel)) = &card_op(&e).cards else {
        panic!()
    };
    assert_eq!(sel.pick, CardPick::All);
    one("{:effected :you :discard 1 :pick :random :where [of-kind :self :spell]}");
    refused(
        "{:effected :you :discard 1 :where [of-kind :self :spell]}",
        Code::KeyNotHere,
        "a chosen discard takes any discardable card",
    );
    refused(
        "{:effected :you :discard :all :pick :random}",
        Code::KeyNotHere,
        "`:discard :all` discards every card",
    );
    refused(
        "{:effected :you :discard 1 :from :discard}",
        Code::KeyNotHere,
        "a chosen discard is from the seat's own hand",
    );
    refused(
        "{:effected :you :discard 1 :pick :top}",
        Code::NotOrdered,
        "`:hand` is not `:ordered`: it has no top",
    );
}

#[test]
fn a_move_takes_a_selection_a_pile_or_a_role_to_a_place() {
    let e = one("{:move {:from :deck :pick :bottom :count 2} :to [:hand :you] :at :random}");
    let op = card_op(&e);
    assert_eq!(op.to.as_ref().unwrap().at, Place::Random);
    let Some(Cards::Pick(sel)) = &op.cards else {
        panic!()
    };
    assert_eq!((sel.pick, &sel.count), (CardPick::Bottom, &Int::Lit(2)));
    // A pile alone is every card of it; an ordered one defaults to its top.
    let e = one("{:move :discard :to :deck}");
    let Some(Cards::Pick(sel)) = &card_op(&e).cards else {
        panic!()
    };
    assert_eq!(sel.pick, CardPick::All);
    let e = one("{:move {:from :deck} :to [:board :other] :slot 2}");
    let Some(Cards::Pick(sel)) = &card_op(&e).cards else {
        panic!()
    };
    assert_eq!(sel.pick, CardPick::Top);
    refused(
        "{:move {:from [:hand :you]} :to :deck}",
        Code::MissingKey,
        "`:hand` is not ordered: say which of its cards",
    );
    refused(
        "{:move {:from :deck :pick :chosen} :to [:hand :you]}",
        Code::KeyNotHere,
        "`:pick :chosen` is for a discard",
    );
    refused(
        "{:move {:from :deck}}",
        Code::MissingKey,
        "this move has no `:to`",
    );
    refused(
        "{:move {:from :deck} :to [:board :you] :at :top :slot 0}",
        Code::KeyNotHere,
        "`:slot` or `:at`, not both",
    );
    refused(
        "{:move {:from :deck} :to :aside :at :top}",
        Code::NotOrdered,
        "`:aside` is not `:ordered`: it has no top",
    );
    refused(
        "{:move {:from :deck} :to [:board :you] :slot 3}",
        Code::NoSuchSlot,
        "`:board` has slots 0 to 2: there is no slot 3",
    );
    refused(
        "{:move {:from :deck} :to [:hand :you] :slot 0}",
        Code::NoSuchSlot,
        "`:hand` has no `:slots`",
    );
    refused(
        "{:move {:from :deck} :to [:hand :you] :count 2}",
        Code::KeyNotHere,
        "`:move` takes no `:count`",
    );
}

#[test]
fn a_zone_is_known_and_named_with_its_owner_or_without_one() {
    refused(
        "{:shuffle :dekc}",
        Code::UnknownZone,
        "unknown zone `:dekc` | did you mean `:deck`?",
    );
    refused(
        "{:effected :you :look [:hnad :other]}",
        Code::UnknownZone,
        "did you mean `:hand`?",
    );
    refused(
        "{:shuffle :hand}",
        Code::ZoneOwner,
        "`:hand` is one per seat: say whose",
    );
    refused(
        "{:shuffle [:deck :you]}",
        Code::ZoneOwner,
        "`:deck` is shared",
    );
    refused(
        "{:effected :you :resource :health :amount [count :boards]}",
        Code::UnknownZone,
        "`:boards` is neither a zone nor a kind | did you mean `:board`?",
    );
    // A kind is still a kind.
    let e = one("{:effected :you :resource :health :amount [count :minion]}");
    let Int::Count(over) = &e.amount else {
        panic!()
    };
    assert!(matches!(over.source, Source::Kind(_)));
    refused(
        "{:draw 1 :reveal :deck}",
        Code::TwoChanges,
        "an effect does one thing: it has `:draw` already",
    );
}

#[test]
fn this_card_is_bound_only_in_a_card_s_effects() {
    refused(
        "{:move :this-card :to :deck}",
        Code::UnknownRole,
        "`:this-card` is bound only in a card's effects",
    );
    let text = rules_with("");
    let checked = check_sources(
        vec![
            Text::new("rules/hands.edn", text),
            Text::new(
                "cards/hands/cards.edn",
                r#"{:card "Boomerang" :effects [{:move :this-card :to [:hand :you]}
                                          {:effected :this-card :resource :attack :amount [slot :this-card]}]}"#,
            ),
        ],
        None,
    );
    assert_eq!(checked.error_count(), 0, "{:?}", checked.diagnostics);
    let card = checked
        .definitions
        .iter()
        .find(|d| d.name == "Boomerang")
        .unwrap();
    assert_eq!(card.effects[1].entity, Entity::ThisCard);
}

#[test]
fn without_zones_every_card_effect_query_and_this_card_is_e0243() {
    let arcomage = RuleSet::bundled("arcomage").unwrap().unwrap();
    for text in [
        "{:effected :you :draw 2}",
        "{:shuffle :deck}",
        "{:effected :you :resource :wall :amount [count [:hand :you]]}",
        "{:effected :you :resource :wall :amount [slot :you]}",
        "{:when [holds :you \"Miners\"] :effects []}",
        "{:effected :this-card :resource :wall :amount 1}",
        "{:each [adjacent :you] :effects []}",
    ] {
        let said = check_in(&arcomage, text).expect_err(text);
        assert!(
            said.len() == 1 && said[0].starts_with("E0243"),
            "{text}: {said:#?}"
        );
    }
    // An unknown kind is what it always was there.
    let said = check_in(
        &arcomage,
        "{:effected :you :resource :wall :amount [count :imp]}",
    )
    .expect_err("unknown");
    assert!(said[0].starts_with("E0222"), "{said:?}");
    // `of-kind` and `max-of` over a kind need no zones.
    check_in(
        &arcomage,
        "{:effected :you :resource :wall :amount [max-of :player [:self :wall] [of-kind :self :player]]}",
    )
    .unwrap_or_else(|d| panic!("{d:?}"));
}

#[test]
fn a_card_name_no_card_of_the_deck_has_is_e0407_with_the_nearest() {
    let sources = |create: &str| {
        vec![
            Text::new(
                "rules/hands.edn",
                rules_with(
                    ":timings {:turn-start {:at :turn-start}} :hooks {:turn-start [{:effected :you :resource :health :amount [count [:board :you] [named :self \"Wisp\"]]}]}",
                ),
            ),
            Text::new(
                "cards/hands/cards.edn",
                format!(
                    r#"{{:card "Wisp" :token true :effects []}}
{{:card "Conjure" :effects [{{:create "{create}" :to [:board :you] :count 2}}]}}"#
                ),
            ),
        ]
    };
    let checked = check_sources(sources("Wisp"), None);
    assert_eq!(checked.error_count(), 0, "{:?}", checked.diagnostics);
    let checked = check_sources(sources("Wsip"), None);
    let said: Vec<String> = checked
        .diagnostics
        .iter()
        .map(|(i, d)| {
            format!(
                "{} {} {} {}",
                checked.sources[*i].path,
                d.code.as_str(),
                d.message,
                d.help.clone().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        said,
        [
            "cards/hands/cards.edn E0407 no card of the deck is named \"Wsip\" did you mean `\"Wisp\"`?"
        ]
    );
    // Checked alone, the rule set's names have no card to be.
    let alone = check_sources(sources("Wisp")[..1].to_vec(), None);
    let codes: Vec<&str> = alone
        .diagnostics
        .iter()
        .map(|(_, d)| d.code.as_str())
        .collect();
    assert_eq!(codes, ["E0407"]);
}

#[test]
fn a_loop_over_a_pile_costs_its_capacity_and_nested_loops_over_a_deck_are_too_much() {
    let rules = rules();
    let work = |text: &str| rules.expansion_of(&check_in(&rules, text).unwrap());
    assert_eq!(work("{:each [:board :you] :effects [{:destroy :self}]}"), 3);
    assert_eq!(
        work("{:effected :you :resource :health :amount [count :deck]}"),
        1 + 1000
    );
    assert_eq!(work("{:effected :you :draw 2}"), 2);
    let text = rules_with(
        ":timings {:turn-start {:at :turn-start}} :hooks {:turn-start [{:each :deck :effects [{:each :deck :effects [{:reveal :self}]}]}]}",
    );
    let said = RuleSet::parse(&text).expect_err("too much work");
    assert!(
        said.iter().any(|d| d.code == Code::ExpandsTooFar),
        "{said:#?}"
    );
}

#[test]
fn effects_on_cards_are_said_as_card_texts_say_them() {
    let rules = rules();
    let say = |text: &str| explain(&rules, &check_in(&rules, text).unwrap());
    assert_eq!(say("[{:effected :you :draw 2}]"), "Draw 2 cards");
    assert_eq!(say("[{:effected :you :draw 1}]"), "Draw a card");
    assert_eq!(
        say("[{:effected :other :discard 1 :pick :random}]"),
        "The enemy discards a random card"
    );
    assert_eq!(
        say("[{:effected :other :discard 1}]"),
        "The enemy discards a card"
    );
    assert_eq!(say("[{:effected :you :discard :all}]"), "Discard your hand");
    assert_eq!(
        say("[{:move {:from [:board :you] :pick :random} :to [:hand :you]}]"),
        "Move a random card of your board to your hand"
    );
    assert_eq!(
        say("[{:move {:from [:hand :you] :pick :random} :to :deck :at :bottom}]"),
        "Move a random card of your hand to the bottom of the deck"
    );
    assert_eq!(say("[{:shuffle :deck}]"), "Shuffle the deck");
    assert_eq!(
        say("[{:effected :you :look [:hand :other]}]"),
        "Look at the enemy's hand"
    );
    assert_eq!(
        say("[{:reveal {:from :deck :pick :top} :to :other}]"),
        "Reveal the top card of the deck to the enemy"
    );
    assert_eq!(
        say("[{:create \"Wisp\" :to [:board :you] :count 2}]"),
        "Create two Wisps on your board"
    );
    assert_eq!(
        say("[{:each [:board :other] :where [<= [:self :attack] 2] :effects [{:destroy :self}]}]"),
        "For each card on the enemy's board with attack at most 2: destroy that card"
    );
    assert_eq!(
        say("[{:remove {:from :discard :pick :all :where [named :self \"Wisp\"]}}]"),
        "Remove every card of the discard where that card is Wisp from the game"
    );
    assert_eq!(
        say("[{:effected :you :resource :health :amount [max-of [:board :you] [:self :attack]]}]"),
        "Add the highest attack of the cards on your board to your health"
    );
    assert_eq!(
        say("[{:effected :you :resource :health :amount [top :deck [:self :attack] 0]}]"),
        "Add the attack of the top card of the deck (0 if it is empty) to your health"
    );
}

#[test]
fn a_pass_moves_zones_one_per_seat_round_the_table_one_way() {
    let e = one("{:pass [:hand :board] :to :previous}");
    let CardVerb::Pass(zones, next) = &card_op(&e).verb else {
        panic!("{e:?}")
    };
    assert_eq!((zones.len(), *next), (2, false));
    let e = one("{:pass :hand :to :next}");
    assert!(matches!(&card_op(&e).verb, CardVerb::Pass(z, true) if z.len() == 1));
    refused(
        "{:pass :deck :to :next}",
        Code::ZoneOwner,
        "`:deck` is shared: no seat holds it to pass it on",
    );
    refused(
        "{:pass [:hand] :to :left}",
        Code::NotOneOf,
        "`:pass` goes `:to :next` or `:to :previous`",
    );
    refused(
        "{:pass [:hand]}",
        Code::MissingKey,
        "says which way the piles go: `:to :next` or `:to :previous` | add `:to :next`",
    );
    refused(
        "{:pass [:hnad] :to :next}",
        Code::UnknownZone,
        "did you mean `:hand`?",
    );
    refused(
        "{:pass [:hand :hand] :to :next}",
        Code::Duplicate,
        "`:hand` is passed twice",
    );
    refused(
        "{:pass [:hand :you] :to :next}",
        Code::ZoneOwner,
        "every seat's pile of `:hand`: it names no owner | write `:pass [:hand]`",
    );
    refused(
        "{:pass 3 :to :next}",
        Code::WrongType,
        "a zone one per seat",
    );
    refused(
        "{:effected :you :pass [:hand] :to :next}",
        Code::KeyNotHere,
        "`:pass` takes no `:effected`",
    );
    let rules = rules();
    let say = |text: &str| explain(&rules, &check_in(&rules, text).unwrap());
    assert_eq!(
        say("[{:pass [:hand] :to :next}]"),
        "Each seat passes its hand to the next seat"
    );
    assert_eq!(
        say("[{:pass [:hand :board] :to :previous}]"),
        "Each seat passes its hand and board to the previous seat"
    );
}
