//! Status definitions as the checker reads them: every key lands where it
//! should, and each way of getting one wrong is a located error.

use grimoire::check::ast::{Polarity, Stacking};
use grimoire::check::defs::{self, DefKind};
use grimoire::check::rules::RuleSet;
use grimoire::syntax::read_one;

const RULES: &str = "
{:rules :tactics-mini
 :roles {:you \"the unit acting\" :other \"its foe\"}
 :attributes {:hp {:default 5} :attack {:default 2 :min 0}}
 :categories {:damage-over-time \"hurts its holder each round\"}
 :flags {:bleeding \"loses blood\"}
 :seats [:a :b]
 :timings {:bleed {:at :round-end} :durations {:at :round-end}}}";

fn rules() -> RuleSet {
    crate::common::rules(RULES)
}

fn check(text: &str) -> (Option<defs::Definition>, Vec<String>) {
    let rules = rules();
    let arena = grimoire::syntax::Arena::new();
    let form = read_one(&arena, text).unwrap();
    let mut diags = Vec::new();
    let def = defs::definition(&form, &rules, 0, &mut diags);
    (
        def,
        diags
            .iter()
            .map(|d| format!("{} @{}..{}", d.message, d.span.start, d.span.end))
            .collect(),
    )
}

#[test]
fn every_key_lands_in_the_checked_definition() {
    let (def, diags) = check(
        "{:status :bleed :text \"-1 hp per round\" :polarity :debuff :category :damage-over-time
          :lasts [2 :durations] :stacking [:stack 3]
          :on-acquire [{:effected :holder :resource :hp :amount 0}]
          :modifiers {:attack {:add -1 :mul 0.5}}
          :flags [:bleeding]
          :hooks {:bleed [{:effected :holder :resource :hp :amount -1}]}
          :on-expire [{:effected :source :resource :hp :amount 1}]
          :on-remove [{:effected :holder :resource :hp :amount 1}]}",
    );
    assert!(diags.is_empty(), "{diags:?}");
    let def = def.unwrap();
    assert_eq!((def.kind, def.name.as_str()), (DefKind::Status, "bleed"));
    assert_eq!(def.text.as_deref(), Some("-1 hp per round"));
    let rules = rules();
    let s = def.status.unwrap();
    assert_eq!(s.polarity, Polarity::Debuff);
    assert_eq!(s.category, rules.category("damage-over-time"));
    assert_eq!(s.lasts, Some((2, rules.timing("durations").unwrap())));
    assert_eq!(s.stacking, Stacking::Stack(3));
    assert_eq!(s.modifiers.len(), 1);
    assert_eq!(s.modifiers[0].attr, rules.attribute("attack").unwrap());
    assert!(s.modifiers[0].add.is_some() && s.modifiers[0].mul.is_some());
    assert_eq!(s.flags, [grimoire::ids::FlagId::FIRST]);
    assert_eq!(s.hooks.len(), 1);
    assert_eq!(s.hooks[0].0, rules.timing("bleed").unwrap());
    assert_eq!(
        (s.on_acquire.len(), s.on_expire.len(), s.on_remove.len()),
        (1, 1, 1)
    );
}

#[test]
fn each_fault_is_a_located_error() {
    let cases = [
        ("{:status :x}", "a status needs `:polarity`"),
        (
            "{:status \"x\" :polarity :buff}",
            "a status's id is a keyword",
        ),
        (
            "{:status :x :polarity :good}",
            "`:polarity` is `:buff` or `:debuff`",
        ),
        (
            "{:status :x :polarity :buff :category :dot}",
            "`:category` names one of",
        ),
        (
            "{:status :x :polarity :buff :lasts 2}",
            "`:lasts` is a count and a timing",
        ),
        (
            "{:status :x :polarity :buff :lasts [0 :bleed]}",
            "from 1 to 1000",
        ),
        (
            "{:status :x :polarity :buff :lasts [2 :blead]}",
            "no timing `:blead` is declared",
        ),
        (
            "{:status :x :polarity :buff :stacking :stack}",
            "`:stack` says how many",
        ),
        (
            "{:status :x :polarity :buff :stacking [:stack 0]}",
            "from 1 to 255 times",
        ),
        (
            "{:status :x :polarity :buff :modifiers {:hp {}}}",
            "this modifier changes nothing",
        ),
        (
            "{:status :x :polarity :buff :modifiers {:hp {:plus 1}}}",
            "unknown key `:plus`",
        ),
        (
            "{:status :x :polarity :buff :flags [\"loud\"]}",
            "a status sets flags the rule set declares, found a string",
        ),
        (
            "{:status :x :polarity :buff :flags [:bleedin]}",
            "a status sets flags the rule set declares, found the keyword `:bleedin`",
        ),
        (
            "{:status :x :polarity :buff :blocks {:filter :nothing}}",
            "`:nothing` is not a status, category, flag or polarity",
        ),
        (
            "{:status :x :polarity :buff :blocks {:filter :debuff :charges 0}}",
            "`:charges` is a whole number from 1 to 65535",
        ),
        (
            "{:status :x :polarity :buff :modifiers {:attack {:add [:you :hp]}}}",
            "unknown role `:you`",
        ),
        (
            "{:status :x :polarity :buff :sparkle true}",
            "unknown key `:sparkle` in a status",
        ),
        (
            "{:status :x :polarity :buff :on-acquire [{:effected :self :resource :hp :amount 1}]}",
            "unknown role `:self`",
        ),
    ];
    for (text, want) in cases {
        let (def, diags) = check(text);
        assert!(def.is_none(), "{text} checked clean");
        assert!(
            diags.iter().any(|d| d.contains(want)),
            "{text}: wanted `{want}`, got {diags:?}"
        );
        // Every error points inside the text.
        for d in &diags {
            let (_, span) = d.rsplit_once('@').unwrap();
            let (_, end) = span.split_once("..").unwrap();
            assert!(end.parse::<usize>().unwrap() <= text.len(), "{text}: {d}");
        }
    }
}

#[test]
fn holder_and_source_are_roles_only_inside_a_status() {
    let (_, diags) =
        check("{:card \"Poke\" :effects [{:effected :holder :resource :hp :amount -1}]}");
    assert!(
        diags.iter().any(|d| d.contains("unknown role `:holder`")),
        "{diags:?}"
    );
    let diags = RuleSet::parse(&RULES.replace(
        ":attack {:default 2 :min 0}",
        ":attack {:default 2 :min 0} :holder {}",
    ))
    .unwrap_err();
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("`:holder` is reserved")),
        "{diags:?}"
    );
}

mod arbitrary {
    use super::*;
    use proptest::prelude::*;

    const KEYS: &[&str] = &[
        ":status",
        ":text",
        ":polarity",
        ":category",
        ":lasts",
        ":stacking",
        ":on-acquire",
        ":modifiers",
        ":flags",
        ":hooks",
        ":on-expire",
        ":on-remove",
        ":effects",
        ":oops",
    ];
    const VALUES: &[&str] = &[
        ":bleed",
        ":buff",
        ":debuff",
        ":damage-over-time",
        "[2 :bleed]",
        "[0 :bleed]",
        "[2]",
        "[99999 :durations]",
        ":refresh",
        ":independent",
        "[:stack 3]",
        "[:stack 300]",
        ":stack",
        "[{:effected :holder :resource :hp :amount -1}]",
        "[{:effected :source :resource :hp :amount 1}]",
        "{:attack {:add 1}}",
        "{:attack {:mul 0.5 :add [:holder :hp]}}",
        "{:hp {}}",
        "{:nope {:add 1}}",
        "[:a :b]",
        "[\"x\"]",
        "{:bleed [{:effected :holder :resource :hp :amount -1}]}",
        "{:nope []}",
        "\"text\"",
        "1",
        "-1",
        "nil",
        "true",
        "[]",
        "{}",
        "[[[]]]",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_status_maps_never_panic_and_point_inside_the_text(
            pairs in prop::collection::vec((prop::sample::select(KEYS), prop::sample::select(VALUES)), 0..8)
        ) {
            let mut text = String::from("{");
            for (k, v) in &pairs {
                text.push_str(&format!("{k} {v} "));
            }
            text.push('}');
            let rules = rules();
            let arena = grimoire::syntax::Arena::new();
            let read = grimoire::syntax::read(&arena, &text);
            if let Some(form) = read.forms.first() {
                let mut diags = Vec::new();
                let _ = defs::definition(form, &rules, 0, &mut diags);
                for d in &diags {
                    prop_assert!(d.span.end as usize <= text.len(), "{text}: {d:?}");
                }
            }
        }
    }
}

#[test]
fn a_name_that_is_not_a_keyword_gets_the_list_not_a_guess() {
    // A one-letter status is "near" an empty name: it must not be offered for `5`.
    let text = "{:status :s :polarity :buff}
                {:effect \"E\" :effects [{:effected :you :acquire 5}]}";
    let checked = grimoire::files::check_sources(
        vec![grimoire::diag::Source::new("x.edn", text)],
        Some(&rules()),
    );
    let help: Vec<String> = checked
        .diagnostics
        .iter()
        .filter_map(|(_, d)| d.help.clone())
        .collect();
    assert_eq!(help, ["the statuses are `:s`"], "{:?}", checked.diagnostics);
}
