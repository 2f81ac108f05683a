//! The `:zones` section and the card keys of cards kept in zones, checked:
//! what a good section gives the engine, and a located error for each way
//! zones can be written wrong.

use grimoire::check::rules::{Overflow, RuleSet, Visibility, WhenEmpty, ZoneSet};
use grimoire::diag::{Code, Diagnostic, Source};
use grimoire::files::check_sources;
use grimoire::ids::ZoneId;

/// A two-seat rule set with kinds of card, and `zones` as its `:zones`.
fn with_zones(zones: &str, more: &str) -> String {
    format!(
        r#"{{:rules :hands
 :roles {{:you "the player" :other "the opponent"}}
 :kinds {{:player "a seat" :minion {{:card true :doc "a creature"}} :spell {{:card true :doc "a spell"}}}}
 :attributes {{:health {{:default 30 :min 0}} :mana {{:default 0 :min 0 :max 10}}}}
 :seats [:p1 :p2]
 :zones {zones}
 {more}}}"#
    )
}

const GOOD: &str = r#"{:deck {:shared true :ordered true :visible :nobody :start :deck
                :when-empty {:effects [{:effected :you :resource :health :amount -1}]}}
         :hand {:visible :owner :capacity 10 :overflow :destroy :plays true
                :discard-to :discard :deal 3 :draw-each-turn 1}
         :discard {:shared true :ordered true}
         :board {:slots 7 :in-play true :leaves-to :discard}}"#;

fn parse(text: &str) -> Result<RuleSet, Vec<Diagnostic>> {
    RuleSet::parse(text)
}

/// The diagnostics of `text`, as "code message" lines.
fn errors(text: &str) -> Vec<String> {
    match parse(text) {
        Ok(_) => Vec::new(),
        Err(diags) => diags
            .iter()
            .map(|d| format!("{} {}", d.code.as_str(), d.message))
            .collect(),
    }
}

/// Asserts `text` gives exactly one diagnostic, of `code`, saying `words`.
fn refused(text: &str, code: Code, words: &str) {
    let said = errors(text);
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(
        said[0].starts_with(code.as_str()) && said[0].contains(words),
        "{said:#?}"
    );
}

#[test]
fn a_good_section_gives_every_zone_and_the_engine_s_two() {
    let rules = parse(&with_zones(GOOD, "")).unwrap_or_else(|d| panic!("{d:#?}"));
    let set: &ZoneSet = rules.zones.as_ref().expect("zones");
    assert!(!set.classic);
    let names: Vec<&str> = set.zones.iter().map(|z| z.name.as_str()).collect();
    assert_eq!(
        names,
        ["deck", "hand", "discard", "board", "playing", "removed"]
    );
    let (deck, hand, discard, board) = (
        ZoneId::new(0),
        ZoneId::new(1),
        ZoneId::new(2),
        ZoneId::new(3),
    );
    assert_eq!(set.plays, Some(hand));
    assert_eq!(
        set.zones[hand].draws_from,
        Some(deck),
        "the `:start` zone by default"
    );
    assert_eq!(set.zones[hand].discard_to, Some(discard));
    assert_eq!(set.zones[hand].overflow, Overflow::Destroy);
    assert_eq!(set.zones[hand].visible, Visibility::Owner);
    assert_eq!(
        (set.zones[hand].deal, set.zones[hand].draw_each_turn),
        (3, 1)
    );
    assert!(matches!(set.zones[deck].when_empty, WhenEmpty::Effects(ref e) if e.len() == 1));
    assert_eq!(set.zones[board].capacity, 7, "a board holds its slots");
    assert_eq!(set.zones[board].leaves_to, Some(discard));
    assert!(set.zones[board].in_play && !set.zones[board].shared);
    assert_eq!(
        rules.card_kind.map(|k| rules.kinds[k].as_str()),
        Some("minion")
    );
    assert_eq!(
        rules.cards.as_ref().map(|c| c.hand_size),
        Some(0),
        "free cards, no hand size"
    );
}

#[test]
fn cards_alone_stand_for_a_deck_a_hand_and_a_discard_pile() {
    let rules = grimoire::files::load_rules("arcomage").expect("arcomage");
    let set = rules.zones.as_ref().expect("zones");
    assert!(set.classic);
    let names: Vec<&str> = set.zones.iter().map(|z| z.name.as_str()).collect();
    assert_eq!(names, ["deck", "hand", "discard", "playing", "removed"]);
    let hand = &set.zones[ZoneId::new(1)];
    assert!(hand.plays && hand.may_discard);
    assert_eq!(hand.refill, 6);
    assert_eq!(
        set.zones[ZoneId::new(0)].when_empty,
        WhenEmpty::Reshuffle(ZoneId::new(2))
    );
    let duel = grimoire::files::load_rules("duel").expect("duel");
    assert!(duel.zones.is_none(), "no cards, no zones");
}

#[test]
fn hand_size_or_a_deck_beside_zones_is_e0313() {
    let more = ":cards {:pay-with [:mana] :hand-size 5 :deck :per-seat}";
    let said = errors(&with_zones(GOOD, more));
    assert_eq!(said.len(), 2, "{said:#?}");
    assert!(said.iter().all(|s| s.starts_with("E0313")), "{said:#?}");
    // `:pay-with` alone is welcome.
    assert_eq!(
        errors(&with_zones(GOOD, ":cards {:pay-with [:mana]}")),
        Vec::<String>::new()
    );
}

#[test]
fn zones_that_cannot_work_together_are_e0314() {
    let cases = [
        (
            r#"{:pile {:shared true :visible :owner}}"#,
            "no seat owns it",
        ),
        (
            r#"{:a {:plays true} :b {:plays true}}"#,
            "second `:plays` zone",
        ),
        (
            r#"{:hand {:plays true :shared true}}"#,
            "a zone per seat without slots",
        ),
        (
            r#"{:deck {:shared true :start :deck} :hand {:plays true :refill 2}}"#,
            "not `:ordered`",
        ),
        (
            r#"{:deck {:ordered true :start :deck} :hand {:shared true :deal 1}}"#,
            "whose?",
        ),
        (r#"{:hand {:deal 2}}"#, "no zone says where from"),
        (
            r#"{:deck {:shared true :ordered true :start :deck :when-empty {:reshuffle :discard}} :discard {:ordered true}}"#,
            "their owners differ",
        ),
        (
            r#"{:hand {:capacity 3 :refill 5 :draws-from :deck} :deck {:ordered true}}"#,
            "more than its capacity",
        ),
        (r#"{:pile {:top-visible true}}"#, "no top card"),
        (
            r#"{:board {:in-play true :leaves-to :board2} :board2 {:in-play true}}"#,
            "it would fall again",
        ),
        (
            r#"{:hand {:capacity 3 :overflow :hand}}"#,
            "overflows into itself",
        ),
    ];
    for (zones, words) in cases {
        refused(&with_zones(zones, ""), Code::ZoneRules, words);
    }
    // Cards in zones are entities of a kind of card.
    let no_card_kind =
        r#"{:rules :hands :roles {:you "p"} :seats [:p1] :zones {:hand {:plays true}}}"#;
    refused(no_card_kind, Code::ZoneRules, "no kind of card");
    let first_kind =
        r#"{:rules :hands :roles {:you "p"} :kinds {:player {:card true}} :seats [:p1]}"#;
    refused(first_kind, Code::ZoneRules, "seats' kind");
    let many = r#"{:rules :one :roles {:you "p"} :seats [:p1] :cards {:hand-size 3} :turns {:plays :many}}"#;
    refused(
        many,
        Code::ZoneRules,
        "`:plays :many` needs cards kept in `:zones`",
    );
    let at_once = r#"{:rules :one :roles {:you "p"} :seats [:p1] :cards {:hand-size 3}
                     :turn-kinds {:draft {:simultaneous true}}}"#;
    refused(
        at_once,
        Code::ZoneRules,
        "`:simultaneous true` needs cards kept in `:zones`",
    );
    // With zones (written after the turn kinds, as sections may be), it is read.
    let zoned = r#"{:rules :one :roles {:you "p"} :seats [:p1 :p2]
                    :turn-kinds {:draft {:simultaneous true} :other "a turn of one seat"}
                    :kinds {:player "a seat" :gem {:card true}}
                    :zones {:hand {:plays true}}}"#;
    let rules = parse(zoned).unwrap_or_else(|d| panic!("{d:#?}"));
    let simultaneous: Vec<bool> = rules.turn_kinds.iter().map(|k| k.simultaneous).collect();
    assert_eq!(simultaneous, [true, false]);
    refused(
        &zoned.replace(":simultaneous true", ":simultaneous :yes"),
        Code::WrongType,
        "`:simultaneous` is `true` or `false`",
    );
}

#[test]
fn zone_names_and_values_are_checked_where_they_are_written() {
    refused(
        &with_zones(r#"{:hand {:discard-to :dicsard} :discard {}}"#, ""),
        Code::NotOneOf,
        "`:discard-to` names one of the rule set's zones",
    );
    let said = errors(&with_zones(
        r#"{:hand {:discard-to :dicsard} :discard {}}"#,
        "",
    ));
    let diags = parse(&with_zones(
        r#"{:hand {:discard-to :dicsard} :discard {}}"#,
        "",
    ))
    .unwrap_err();
    assert!(
        diags[0].help.as_deref().unwrap_or("").contains(":discard"),
        "{said:#?}"
    );
    refused(
        &with_zones(r#"{:removed {}}"#, ""),
        Code::Reserved,
        "the engine adds that zone",
    );
    refused(
        &with_zones(r#"{:health {}}"#, ""),
        Code::Duplicate,
        "already a name",
    );
    refused(
        &with_zones(r#"{:minion {}}"#, ""),
        Code::Duplicate,
        "already a name",
    );
    refused(
        &with_zones(r#"{:hand {:capacity -1}}"#, ""),
        Code::OutOfRange,
        "from 0 to 1000",
    );
    refused(
        &with_zones(r#"{:board {:slots 0}}"#, ""),
        Code::OutOfRange,
        "from 1 to 64",
    );
    refused(
        &with_zones(r#"{:hand {:visible :everyone}}"#, ""),
        Code::NotOneOf,
        "`:visible` is",
    );
    refused(
        &with_zones(r#"{:hand {:when-empty {:reshuffle :a :draw-from :b}}}"#, ""),
        Code::WrongType,
        "`:when-empty` is",
    );
    refused(
        &with_zones(r#"{}"#, ""),
        Code::EmptyDeclaration,
        "declares no zone",
    );
}

/// The diagnostics of definitions checked against `rules`, as "code message".
fn definitions(rules: &str, defs: &str) -> Vec<String> {
    let rules = parse(rules).unwrap_or_else(|d| panic!("{d:#?}"));
    let checked = check_sources(vec![Source::new("cards.edn", defs)], Some(&rules));
    checked
        .diagnostics
        .iter()
        .map(|(_, d)| format!("{} {}", d.code.as_str(), d.message))
        .collect()
}

#[test]
fn a_card_in_zones_says_its_kind_values_zone_and_whether_it_is_a_token() {
    let rules = with_zones(GOOD, ":cards {:pay-with [:mana]}");
    let good = r#"{:card "Yeti" :kind :minion :type :mana :cost 4 :to :board :values {:health 5} :effects []}
                  {:card "Wisp" :kind :minion :token true :to :board :effects []}"#;
    assert_eq!(definitions(&rules, good), Vec::<String>::new());
    let rules_set = parse(&rules).unwrap();
    let checked = check_sources(vec![Source::new("cards.edn", good)], Some(&rules_set));
    let cards = grimoire::check::defs::Card::from_definitions(
        &checked.definitions,
        &checked.sources,
        "hands",
    );
    assert_eq!(cards[1].play.copies, 0, "a token is never dealt");
    assert_eq!(cards[0].play.values.len(), 1);
    let bad = r#"{:card "A" :kind :player :type :mana :cost 1 :effects []}
                 {:card "B" :to :deck :type :mana :cost 1 :effects []}
                 {:card "C" :values {:health 99 :mana 11} :type :mana :cost 1 :effects []}
                 {:card "D" :to :bord :type :mana :cost 1 :effects []}"#;
    let said = definitions(&rules, bad);
    assert_eq!(said.len(), 4, "{said:#?}");
    assert!(
        said[0].starts_with("E0222") && said[0].contains("a kind of card"),
        "{said:#?}"
    );
    assert!(
        said[1].starts_with("E0314") && said[1].contains("`:deck` is shared"),
        "{said:#?}"
    );
    assert!(
        said[2].starts_with("E0008") && said[2].contains("11 is outside"),
        "{said:#?}"
    );
    assert!(
        said[3].starts_with("E0009") && said[3].contains("`:to` names"),
        "{said:#?}"
    );
}

#[test]
fn cards_without_zones_take_none_of_the_zone_keys() {
    let said = definitions(
        "{:rules :plain :roles {:you \"p\"} :attributes {:gold {:default 0}} :seats [:p1] :cards {:pay-with [:gold] :hand-size 3}}",
        r#"{:card "A" :type :gold :cost 1 :kind :card :to :board :effects []}"#,
    );
    assert_eq!(said.len(), 2, "{said:#?}");
    assert!(said.iter().all(|s| s.starts_with("E0002")), "{said:#?}");
}
