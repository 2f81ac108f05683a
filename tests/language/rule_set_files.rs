//! A rule-set file checked with the definitions files written for it: a
//! status it declares that none of them defines is an error at the
//! declaration, and the files of a rule set with errors are told so.

use grimoire::diag::{Code, Severity, Source};
use grimoire::files::{Checked, check_sources};

const RULES: &str = r#"{:rules :siege
 :roles {:you "the attacker" :other "the defender"}
 :statuses {:shielded "takes no damage" :vulnerable "takes double damage"}
 :attributes {:wall {:default 10 :min 0}}
 :operations {:expose {:doc "leaves :target vulnerable"
                       :effects [{:effected :target :acquire :vulnerable}]}}}"#;

const SHIELDED: &str = "{:status :shielded :polarity :buff :modifiers {:wall {:add 5}}}";

/// The texts checked together, each as the file at its path.
fn check(files: &[(&str, &str)]) -> Checked {
    check_sources(
        files.iter().map(|(p, t)| Source::new(*p, *t)).collect(),
        None,
    )
}

/// Each diagnostic as "path: code message | help", in order.
fn said(checked: &Checked) -> Vec<String> {
    checked
        .diagnostics
        .iter()
        .map(|(i, d)| {
            format!(
                "{}: {} {} | {}",
                checked.sources[*i].path,
                d.code,
                d.message,
                d.help.clone().unwrap_or_default()
            )
        })
        .collect()
}

#[test]
fn a_declared_status_no_file_defines_is_an_error_at_its_declaration() {
    let checked = check(&[
        ("rules/siege.edn", RULES),
        ("effects/siege/statuses.edn", SHIELDED),
    ]);
    let found: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|(_, d)| d.code == Code::StatusNeverDefined)
        .collect();
    assert_eq!(found.len(), 1, "{:#?}", said(&checked));
    let (i, d) = found[0];
    assert_eq!(checked.sources[*i].path, "rules/siege.edn");
    assert_eq!(d.severity, Severity::Error);
    // At the declaration's key, `:vulnerable` in `:statuses`.
    let at = RULES.find(":vulnerable \"").unwrap();
    assert_eq!(
        (d.span.start as usize, d.span.end as usize),
        (at, at + ":vulnerable".len())
    );
    assert_eq!(
        d.message,
        "status `:vulnerable` is declared, but no definitions file of `siege` defines it"
    );
    assert!(
        d.help.as_deref().unwrap_or("").contains("never run out"),
        "{d:?}"
    );
}

#[test]
fn a_definition_under_a_near_name_is_suggested() {
    let checked = check(&[
        ("rules/siege.edn", RULES),
        ("effects/siege/shielded.edn", SHIELDED),
        (
            "effects/siege/vulnerable.edn",
            "{:status :vulnerible :polarity :debuff :modifiers {:wall {:add -5}}}",
        ),
    ]);
    assert_eq!(
        said(&checked),
        [
            "rules/siege.edn: E0312 status `:vulnerable` is declared, but no definitions file of `siege` defines it | did you mean `:vulnerible`?"
        ]
    );
}

#[test]
fn every_declared_status_defined_checks_clean() {
    let checked = check(&[
        ("rules/siege.edn", RULES),
        ("effects/siege/statuses.edn", SHIELDED),
        (
            "effects/siege/vulnerable.edn",
            "{:status :vulnerable :polarity :debuff :modifiers {:wall {:add -5}}}",
        ),
    ]);
    assert_eq!(said(&checked), Vec::<String>::new());
    // A definition with errors has its own; the declaration is not said undefined too.
    let checked = check(&[
        ("rules/siege.edn", RULES),
        ("effects/siege/statuses.edn", SHIELDED),
        (
            "effects/siege/vulnerable.edn",
            "{:status :vulnerable :polarity :debuff :modifiers {:wal {:add -5}}}",
        ),
    ]);
    let codes: Vec<Code> = checked.diagnostics.iter().map(|(_, d)| d.code).collect();
    assert!(!codes.is_empty(), "{:#?}", said(&checked));
    assert!(
        !codes.contains(&Code::StatusNeverDefined),
        "{:#?}",
        said(&checked)
    );
}

#[test]
fn a_rule_set_checked_without_its_definitions_files_is_not_judged() {
    // Alone: its definitions may be checked another time.
    let alone = check(&[("rules/siege.edn", RULES)]);
    assert_eq!(said(&alone), Vec::<String>::new());
    // Beside another rule set's files only.
    let other = check(&[
        ("rules/siege.edn", RULES),
        (
            "cards/arcomage/build.edn",
            "{:card \"Build\" :type :bricks :cost 1 :text \"+1 Wall\" :effects [{:effected :you :resource :wall :amount 1}]}",
        ),
    ]);
    assert_eq!(said(&other), Vec::<String>::new());
}

#[test]
fn a_markdown_row_with_a_description_defines_a_status() {
    let rules = r#"{:rules :siege
 :roles {:you "the attacker" :other "the defender"}
 :categories {:armour "changes the wall"}
 :statuses {:shielded "takes no damage"}
 :attributes {:wall {:default 10 :min 0}}
 :tables {:buffs {:columns {"Name" :status "Category" :category "Description" :text}
                  :polarity :buff}}}"#;
    let md = "| Name | Category | Description |\n|---|---|---|\n| shielded | armour | takes no damage |\n";
    let checked = check(&[("rules/siege.edn", rules), ("effects/siege/buffs.md", md)]);
    assert!(
        !checked
            .diagnostics
            .iter()
            .any(|(_, d)| d.code == Code::StatusNeverDefined),
        "{:#?}",
        said(&checked)
    );
}

#[test]
fn the_files_of_a_rule_set_with_errors_are_told_so() {
    let broken = r#"{:rules :bricks
 :roles {:you "the builder" :other "the rival"}
 :attributes {:wall {:default 5 :min 0}}
 :victory [{:when [>= [:you :wal] 20] :winner :you :reason "built a high wall"}]}"#;
    let card = "{:card \"Mortar\" :text \"+2 Wall\" :effects [{:effected :you :resource :wall :amount 2}]}";
    let checked = check(&[
        ("rules/bricks.edn", broken),
        ("cards/bricks/cards.edn", card),
    ]);
    let lines = said(&checked);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("rules/bricks.edn: E0204")),
        "{lines:#?}"
    );
    assert!(
        lines.contains(
            &"cards/bricks/cards.edn: E0707 `cards/bricks/cards.edn` is not checked: its rule set `bricks` has errors | fix the errors of `rules/bricks.edn` first: this file is checked against it once it checks clean"
                .to_string()
        ),
        "{lines:#?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("cannot tell which rule set")),
        "{lines:#?}"
    );
}
