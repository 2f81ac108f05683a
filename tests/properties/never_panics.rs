//! No input makes grimoire panic, overflow its stack or blow up.
//!
//! Arbitrary text goes through every layer: the reader ([`grimoire::syntax::read`]),
//! the checker (`RuleSet::check_effects`, `RuleSet::from_form`,
//! `defs::definition`), diagnostics rendering, and, whenever the checks pass,
//! the evaluator on a state. The generators: any string at all; a soup of
//! EDN-ish tokens; well-formed effects, which must check clean, as they are and
//! with one random edit; and generated rule sets with operations that call each
//! other.
//!
//! Deep inputs run on a thread with a small stack, inside a child process: a
//! stack overflow aborts the whole process, and this way it fails one test
//! instead of taking the others down with it. The last tests hold sizes to
//! linear growth: the checked form of nested conditions, and the rendered output
//! of many errors on one line.
//!
//! `PROPTEST_CASES=100000 cargo test --release --test properties never_panics` hunts longer.

use std::process::Command;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use grimoire::check::rules::RuleSet;
use grimoire::diag::{Diagnostic, Source};
use grimoire::eval::{State, apply};
use grimoire::ids::{AttrId, EntityId};
use grimoire::syntax::{self, MAX_DEPTH, ReadError};
use proptest::prelude::*;
use proptest::test_runner::Config;

static RULES: LazyLock<RuleSet> = LazyLock::new(|| {
    RuleSet::bundled("arcomage")
        .expect("arcomage is bundled")
        .expect("arcomage checks clean")
});

/// A rule set with statuses, flags and kinds that leave play: `tactics`, as a game loads it.
static TACTICS: LazyLock<RuleSet> = LazyLock::new(|| crate::common::bundled("tactics"));

/// Proptest settings: enough cases to find things, few enough for a few seconds on 2 cores.
/// `PROPTEST_CASES=100000` runs more, to hunt.
fn config(cases: u32) -> Config {
    Config {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        // Failures are turned into deterministic tests below, not regression files.
        failure_persistence: None,
        ..Config::default()
    }
}

/// Applies checked effects to a state built from `values` (cycled over every slot)
/// and checks what the evaluator promises: events change values, within bounds.
fn run(rules: &RuleSet, effects: &[grimoire::check::ast::Effect], values: &[i64], seed: u64) {
    for roles in [[0, 1], [1, 0]].map(|r| r.map(EntityId::new)) {
        let mut state = State::new(rules, rules.roles.len(), seed);
        if !values.is_empty() {
            let mut it = values.iter().cycle();
            for entity in EntityId::below(state.len()) {
                for attr in 0..rules.attributes.len() {
                    state.put(entity, AttrId::new(attr), *it.next().expect("cycle"));
                }
            }
        }
        let mut events = Vec::new();
        apply(rules, effects, &mut state, &roles, &mut events);
        for e in &events {
            let Some(attr) = e.attr() else { continue };
            let def = &rules.attribute_defs[attr];
            assert!(e.before != e.after, "an event that changes nothing: {e:?}");
            assert!(
                (def.min..=def.max).contains(&e.after),
                "{e:?} leaves {} outside its bounds",
                rules.attributes[attr]
            );
        }
        // The state holds what the last event of each value says.
        for e in &events {
            let Some(attr) = e.attr() else { continue };
            let last = events
                .iter()
                .rev()
                .find(|x| x.entity == e.entity && x.attr() == Some(attr))
                .expect("e itself");
            assert_eq!(state.get(e.entity, attr), last.after);
        }
    }
}

/// Renders every diagnostic both ways: spans must stay inside the text.
fn show(source: &Source, diags: &[Diagnostic]) {
    for d in diags {
        assert!(!d.message.is_empty());
        assert!(
            d.span.start <= d.span.end && d.span.end as usize <= source.text.len(),
            "span {:?} outside a text of {} bytes: {}",
            d.span,
            source.text.len(),
            d.message
        );
        let _ = source.render(d, false);
        let _ = source.render(d, true);
        let _ = source.locate(d);
    }
}

/// Every layer, on one text. Returns how many effect lists checked clean.
fn exercise(text: &str, values: &[i64], seed: u64) -> usize {
    exercise_with(&RULES, text, values, seed)
}

/// [`exercise`] against any rule set.
fn exercise_with(rules: &RuleSet, text: &str, values: &[i64], seed: u64) -> usize {
    let source = Source::new("input.edn", text);
    let arena = grimoire::syntax::Arena::new();
    let read = syntax::read(&arena, text);
    let read_diags: Vec<Diagnostic> = read.errors.iter().map(Diagnostic::from).collect();
    show(&source, &read_diags);
    for w in read.errors.windows(2) {
        assert!(
            w[0].span().start <= w[1].span().start,
            "errors out of order: {:?}",
            read.errors
        );
    }
    let arena = grimoire::syntax::Arena::new();
    let _ = syntax::read_one(&arena, text);

    let mut clean = 0;
    for form in &read.forms {
        // Printing a form and reading it back gives the same value.
        let printed = form.to_string();
        let _ = form.describe();
        // (Strings holding characters Rust's `{:?}` escapes as `\u{…}` or `\0` print as
        // text that does not read back: a known gap of `Display`, left out here.)
        if read.errors.is_empty() && !printed.contains("\\u{") && !printed.contains("\\0") {
            let arena = grimoire::syntax::Arena::new();
            let again = syntax::read_one(&arena, &printed).unwrap_or_else(|e| {
                panic!("`{printed}` (printed from `{text}`) does not read back: {e:?}")
            });
            assert!(
                again.same_value(form),
                "`{printed}` reads back as a different value"
            );
        }

        match rules.check_effects(form) {
            Ok(effects) => {
                clean += 1;
                run(rules, &effects, values, seed);
            }
            Err(diags) => {
                assert!(
                    !diags.is_empty(),
                    "check_effects failed without a diagnostic on `{printed}`"
                );
                show(&source, &diags);
            }
        }

        let mut diags = Vec::new();
        match RuleSet::from_form(form, &mut diags) {
            Some(rs) if diags.is_empty() => {
                let _ = State::new(&rs, rs.roles.len(), seed);
            }
            _ => show(&source, &diags),
        }

        let mut diags = Vec::new();
        match grimoire::check::defs::definition(form, rules, 0, &mut diags) {
            Some(def) => {
                assert!(diags.is_empty(), "a definition with diagnostics: {diags:?}");
                run(rules, &def.effects, values, seed);
            }
            None => {
                assert!(
                    !diags.is_empty(),
                    "definition failed without a diagnostic on `{printed}`"
                );
                show(&source, &diags);
            }
        }
    }
    clean
}

// ---------------------------------------------------------------- generators

#[rustfmt::skip]
const TOKENS: &[&str] = &[
    // structure
    "[", "]", "[", "]", "{", "}", "{", "}", "(", ")", "#{", "#_", "#", "\"", ";", "; a comment\n", ",", ":",
    "::", "#inst", "#?", "^", "@", "~", "`", "\\", "\\a", "'",
    // keywords of effects, definitions and the rule set
    ":effected", ":resource", ":amount", ":set", ":card", ":effect", ":effects", ":text", ":type", ":cost",
    ":play-again", ":draw", ":discard", ":copies", ":discardable", ":rules", ":you", ":other", ":target",
    ":tower", ":wall", ":quarry", ":bricks", ":magic", ":gems", ":zoo", ":beasts", ":damage", ":quary",
    ":tower-goal", ":hand-size", ":a/b", ":/", ":a/", ":roles", ":attributes", ":operations", ":default",
    ":min", ":max", ":doc", ":params",
    // keywords of status definitions
    ":status", ":polarity", ":buff", ":debuff", ":category", ":lasts", ":stacking", ":refresh", ":stack",
    ":independent", ":on-acquire", ":modifiers", ":add", ":mul", ":flags", ":hooks", ":on-expire",
    ":on-remove", ":holder", ":source", ":turn-start", ":turn-end", ":blocks", ":filter", ":charges",
    ":reflect", ":acquire", ":dispel", ":extend", ":pick", ":oldest", ":newest", ":most-left", ":all",
    ":any", ":magnitude", ":removed-when", ":setup", ":kind", ":values", ":self", ":each", ":where", ":spawn",
    ":player", ":unit",
    // symbols and operators
    "=", "not=", "<", ">", "<=", ">=", "and", "or", "not", "if", "+", "-", "*", "/", "min", "max", "round",
    "floor", "ceil", "random", "chance", "statuses", "turns-left", "has", "effected", "nil", "true", "false", "=>", "foo",
    // numbers, including ones that do not fit
    "0", "1", "-1", "2", "3", "6", "10", "-3", "+5", "0.5", "1.5", "-0.0", "2e3", "1e308", "1e-308", "1e999",
    "1.2.3", "12ab", "1e", "1.", ".5", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "-9223372036854775809", "99999999999999999999999999",
    // strings, with good and bad escapes
    "\"Miners\"", "\"\"", "\"\\n\\t\\\"\\\\\"", "\"\\u00e9\"", "\"\\u12\"", "\"\\uD800\"", "\"\\u+041\"",
    "\"\\q\"", "\"\\", "\"é ✓\"",
    // whitespace and odd characters
    " ", " ", " ", "\n", "\t", "\r\n", "\u{0}", "\u{7f}", "\u{feff}", "é", "€", "𝄞", "\u{200b}",
];

/// A soup of EDN-ish tokens, sometimes glued together, sometimes spaced.
fn token_soup() -> impl Strategy<Value = String> {
    let sep = prop::sample::select(&[" ", " ", "", "\n", ","][..]);
    prop::collection::vec((prop::sample::select(TOKENS), sep), 0..96).prop_map(|parts| {
        let mut s = String::new();
        for (t, sep) in parts {
            s.push_str(t);
            s.push_str(sep);
        }
        s
    })
}

fn entity_kw() -> impl Strategy<Value = &'static str> + Clone {
    prop::sample::select(&[":you", ":other"][..])
}

fn attr_kw() -> impl Strategy<Value = &'static str> + Clone {
    prop::sample::select(
        &[
            ":tower", ":wall", ":quarry", ":bricks", ":magic", ":gems", ":zoo", ":beasts",
        ][..],
    )
}

fn cmp_op() -> impl Strategy<Value = &'static str> + Clone {
    prop::sample::select(&["=", "not=", "<", ">", "<=", ">="][..])
}

fn int_literal() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        3 => (-12i64..40).prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => prop::sample::select(&[i64::MIN, i64::MAX, 0, -1][..]).prop_map(|n| n.to_string()),
    ]
}

fn smart_value() -> impl Strategy<Value = String> + Clone {
    (entity_kw(), attr_kw()).prop_map(|(e, a)| format!("[{e} {a}]"))
}

/// A condition over integer expressions from `int`.
fn condition(int: BoxedStrategy<String>) -> BoxedStrategy<String> {
    let simple = prop_oneof![
        Just("true".to_string()),
        Just("false".to_string()),
        (cmp_op(), int.clone(), int.clone()).prop_map(|(op, a, b)| format!("[{op} {a} {b}]")),
        prop::sample::select(&["0", "1", "0.5", "-0.5", "2", "1e308"][..])
            .prop_map(|p| format!("[chance {p}]")),
        (int.clone(), int.clone()).prop_map(|(a, b)| format!("[chance [/ {a} {b}]]")),
    ]
    .boxed();
    prop_oneof![
        3 => simple.clone(),
        1 => (prop::sample::select(&["and", "or"][..]), simple.clone(), simple.clone())
            .prop_map(|(op, a, b)| format!("[{op} {a} {b}]")),
        1 => simple.clone().prop_map(|a| format!("[not {a}]")),
        1 => (simple.clone(), simple.clone(), simple.clone()).prop_map(|(c, a, b)| format!("[if {c} {a} {b}]")),
    ]
    .boxed()
}

/// A well-typed integer expression: literals, smart values, simple logic, arithmetic.
fn int_expr() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        4 => int_literal(),
        4 => smart_value(),
        // The rule set's parameters read as numbers.
        1 => prop::sample::select(&[":tower-goal", ":resource-goal"][..]).prop_map(str::to_string),
    ];
    leaf.prop_recursive(4, 40, 4, |inner| {
        let inner = inner.boxed();
        prop_oneof![
            (
                cmp_op(),
                inner.clone(),
                inner.clone(),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b, t, e)| format!("[{op} {a} {b} {t} {e}]")),
            (
                prop::sample::select(&["+", "-", "*", "min", "max"][..]),
                prop::collection::vec(inner.clone(), 1..4)
            )
                .prop_map(|(op, args)| format!("[{op} {}]", args.join(" "))),
            inner.clone().prop_map(|a| format!("[- {a}]")),
            (
                prop::sample::select(&["round", "floor", "ceil"][..]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(r, a, b)| format!("[{r} [/ {a} {b}]]")),
            (
                prop::sample::select(&["round", "floor", "ceil"][..]),
                inner.clone()
            )
                .prop_map(|(r, a)| format!("[{r} [* 1.5 {a}]]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[random {a} {b}]")),
            (condition(inner.clone()), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("[if {c} {a} {b}]")),
        ]
    })
    .boxed()
}

/// One effect map that checks clean against arcomage.
fn effect_map() -> impl Strategy<Value = String> {
    let simple_int = prop_oneof![int_literal(), smart_value()].boxed();
    let entity = prop_oneof![
        3 => entity_kw().prop_map(str::to_string),
        1 => (condition(simple_int.clone()), entity_kw(), entity_kw())
            .prop_map(|(c, a, b)| format!("[if {c} {a} {b}]")),
        1 => (cmp_op(), simple_int.clone(), simple_int.clone(), entity_kw(), entity_kw())
            .prop_map(|(op, x, y, a, b)| format!("[{op} {x} {y} {a} {b}]")),
    ];
    // (the resource, whether it may be set)
    let target = prop_oneof![
        4 => attr_kw().prop_map(|a| (a.to_string(), true)),
        2 => Just((":damage".to_string(), false)),
        1 => (cmp_op(), simple_int.clone(), simple_int.clone(), attr_kw(), attr_kw())
            .prop_map(|(op, x, y, a, b)| (format!("[{op} {x} {y} {a} {b}]"), true)),
        1 => (condition(simple_int), attr_kw())
            .prop_map(|(c, a)| (format!("[if {c} :damage {a}]"), false)),
    ];
    let set = prop::sample::select(&["", " :set false", " :set nil", " :set true"][..]);
    (entity, target, int_expr(), set).prop_map(|(e, (t, settable), a, set)| {
        let set = if set == " :set true" && !settable {
            ""
        } else {
            set
        };
        format!("{{:effected {e} :resource {t} :amount {a}{set}}}")
    })
}

/// Well-formed effects: a bare vector, or a card or named effect holding it.
fn valid_text() -> impl Strategy<Value = String> {
    (prop::collection::vec(effect_map(), 0..4), 0..3u8).prop_map(|(effects, shape)| {
        let list = format!("[{}]", effects.join("\n "));
        match shape {
            0 => list,
            1 => format!(
                "{{:card \"Generated\" :type :bricks :cost 1 :text \"generated\" :effects {list}}}"
            ),
            _ => format!("; a comment\n{{:effect \"Generated\", :effects {list}}} #_ [discarded]"),
        }
    })
}

/// `text` with one edit: a token inserted, or a range deleted, at a character boundary.
fn edit(text: &str, at: prop::sample::Index, len: usize, insert: Option<&str>) -> String {
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let start = bounds[at.index(bounds.len())];
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..start]);
    match insert {
        Some(token) => {
            out.push_str(token);
            out.push_str(&text[start..]);
        }
        None => {
            let end = bounds
                .iter()
                .copied()
                .find(|&b| b >= start + len)
                .unwrap_or(text.len());
            out.push_str(&text[end..]);
        }
    }
    out
}

fn values() -> impl Strategy<Value = Vec<i64>> {
    prop_oneof![
        2 => Just(Vec::new()),
        2 => prop::collection::vec(-5i64..40, 1..17),
        1 => prop::collection::vec(any::<i64>(), 1..17),
    ]
}

// ---------------------------------------------------------------- properties

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn any_string_never_panics(text in any::<String>(), values in values(), seed in any::<u64>()) {
        exercise(&text, &values, seed);
    }
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn edn_token_soup_never_panics(text in token_soup(), values in values(), seed in any::<u64>()) {
        exercise(&text, &values, seed);
        exercise_with(&TACTICS, &text, &values, seed);
    }
}

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn well_formed_effects_check_clean_and_apply(text in valid_text(), values in values(), seed in any::<u64>()) {
        let arena = grimoire::syntax::Arena::new();
        let read = syntax::read(&arena, &text);
        prop_assert!(read.errors.is_empty(), "{:?}", read.errors);
        let form = &read.forms[0];
        if text.starts_with('[') {
            let effects = RULES.check_effects(form);
            prop_assert!(effects.is_ok(), "`{text}`:\n{:#?}", effects.err());
        } else {
            let mut diags = Vec::new();
            let def = grimoire::check::defs::definition(form, &RULES, 0, &mut diags);
            prop_assert!(def.is_some() && diags.is_empty(), "`{text}`:\n{diags:#?}");
        }
        exercise(&text, &values, seed);
    }

    #[test]
    fn edited_effects_never_panic(
        text in valid_text(),
        at in any::<prop::sample::Index>(),
        len in 1usize..12,
        insert in prop::option::of(prop::sample::select(TOKENS)),
        values in values(),
        seed in any::<u64>(),
    ) {
        exercise(&edit(&text, at, len, insert), &values, seed);
    }
}

/// A rule set over arcomage's names with random bounds, and operations that
/// call each other (sometimes in a loop, which the checker must refuse).
fn rule_set_text() -> impl Strategy<Value = String> {
    const ATTRS: &[&str] = &[
        "tower", "wall", "quarry", "bricks", "magic", "gems", "zoo", "beasts",
    ];
    let value = prop_oneof![
        4 => -5i64..50,
        1 => prop::sample::select(&[i64::MIN, i64::MAX, 0][..]),
    ];
    // `{}`, or `:default :min :max` in order, or (rarely) in any order.
    let attr = prop_oneof![
        1 => Just(String::from("{}")),
        6 => prop::collection::vec(value.clone(), 3).prop_map(|mut v| {
            v.sort_unstable();
            format!("{{:default {} :min {} :max {} :doc \"generated\"}}", v[1], v[0], v[2])
        }),
        1 => (value.clone(), value).prop_map(|(lo, hi)| format!("{{:min {lo} :max {hi}}}")),
    ];
    let op_effect = (
        prop::sample::select(
            &[
                ":target",
                ":target",
                ":you",
                ":other",
                "[> :amount 3 :target :you]",
            ][..],
        ),
        prop::sample::select(
            &[
                ":tower",
                ":wall",
                ":gems",
                ":bricks",
                ":zoo",
                ":damage",
                ":heal",
                ":drain",
                "[> :amount 0 :wall :damage]",
            ][..],
        ),
        prop::sample::select(
            &[
                ":amount",
                "[- :amount]",
                "[max 0 [- :amount [:target :wall]]]",
                "[- [min [max 0 :amount] [:target :wall]]]",
                "[* :amount 2]",
                "[round [/ :amount 2]]",
                "[random 0 :amount]",
                "[if [chance 0.5] :amount 0]",
                "3",
            ][..],
        ),
    )
        .prop_map(|(e, r, a)| format!("{{:effected {e} :resource {r} :amount {a}}}"));
    let op = prop::collection::vec(op_effect, 0..3);
    (
        prop::collection::vec(attr, ATTRS.len()),
        prop::collection::vec(op, 3),
    )
        .prop_map(|(attrs, ops)| {
            let mut s = String::from(
                "{:rules :generated\n :roles {:you \"one\" :other \"two\"}\n :attributes {",
            );
            for (name, def) in ATTRS.iter().zip(attrs) {
                s.push_str(&format!(":{name} {def}\n  "));
            }
            s.push_str("}\n :operations {");
            for (name, effects) in ["damage", "heal", "drain"].iter().zip(ops) {
                s.push_str(&format!(
                    ":{name} {{:doc \"op\" :effects [{}]}}\n  ",
                    effects.join(" ")
                ));
            }
            s.push_str("}}");
            s
        })
}

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn generated_rule_sets_never_panic(
        rules_text in rule_set_text(),
        effects in valid_text(),
        values in values(),
        seed in any::<u64>(),
    ) {
        match RuleSet::parse(&rules_text) {
            Ok(rules) => {
                exercise_with(&rules, &effects, &values, seed);
            }
            Err(diags) => {
                prop_assert!(!diags.is_empty());
                show(&Source::new("rules.edn", rules_text.as_str()), &diags);
            }
        }
    }
}

// ---------------------------------------------------------------- deep inputs

/// Stack for reading 100 000 openers: the reader stops at [`MAX_DEPTH`], which takes
/// about 1 KiB a level optimised and 4 KiB unoptimised (measured), where 100 000
/// levels would need hundreds of MiB.
const READ_STACK_KIB: usize = if cfg!(debug_assertions) { 1024 } else { 256 };

/// Stack for checking and applying the deepest effects the reader accepts: a
/// default spawned thread's 2 MiB unoptimised, a quarter of it optimised.
const CHECK_STACK_KIB: usize = if cfg!(debug_assertions) { 2048 } else { 512 };

/// Runs `work` on a thread with a `kib` KiB stack, in a child process running only `test`.
///
/// In the parent this spawns the test binary again with the test's exact name;
/// in the child (marked by an environment variable) it does the work. A stack
/// overflow aborts only the child, and the parent reports it.
fn on_small_stack(test: &str, kib: usize, work: fn()) {
    const CHILD: &str = "GRIMOIRE_NEVER_PANICS_CHILD";
    if std::env::var_os(CHILD).is_some() {
        std::thread::Builder::new()
            .name(format!("{test} on {kib} KiB"))
            .stack_size(kib * 1024)
            .spawn(work)
            .expect("spawn a thread")
            .join()
            .expect("the work panicked");
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    // Its exact name in the binary: this module's path, less the crate's name.
    let exact = match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{test}"),
        None => test.to_string(),
    };
    let out = Command::new(exe)
        .args([&exact, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .expect("run the test binary again");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "`{test}` on a {kib} KiB stack failed ({}):\n{stderr}\n{stdout}",
        out.status
    );
}

fn assert_too_deep(text: &str) {
    let arena = grimoire::syntax::Arena::new();
    let read = syntax::read(&arena, text);
    assert!(
        read.errors
            .iter()
            .any(|e| matches!(e, ReadError::TooDeep { .. })),
        "no TooDeep error among {:?}",
        &read.errors[..read.errors.len().min(3)]
    );
    // The error points at the opener that went one level too deep.
    let deep = read
        .errors
        .iter()
        .find(|e| matches!(e, ReadError::TooDeep { .. }))
        .expect("TooDeep");
    let at = deep.span().start as usize;
    let opens_before = text[..at].bytes().filter(|b| b"[({".contains(b)).count();
    assert_eq!(opens_before, MAX_DEPTH, "TooDeep at byte {at}");
    // And the rest of the pipeline copes with the partial result.
    exercise(text, &[], 0);
}

#[test]
fn hundred_thousand_open_brackets_are_an_error_not_a_stack_overflow() {
    on_small_stack(
        "hundred_thousand_open_brackets_are_an_error_not_a_stack_overflow",
        READ_STACK_KIB,
        || {
            assert_too_deep(&"[".repeat(100_000));
            assert_too_deep(&("[".repeat(100_000) + &"]".repeat(100_000)));
            assert_too_deep(&"{:a ".repeat(100_000));
            assert_too_deep(&"([{".repeat(40_000));
            assert_too_deep(&"#{".repeat(100_000));
            assert_too_deep(&"[#_ [".repeat(50_000));
        },
    );
}

#[test]
fn hundred_thousand_discards_are_not_a_stack_overflow() {
    // `#_ #_ … x`: each `#_` discards the next form, which may itself be `#_ …`.
    on_small_stack(
        "hundred_thousand_discards_are_not_a_stack_overflow",
        READ_STACK_KIB,
        || {
            for text in [
                "#_ ".repeat(100_000) + "1",
                "[".to_string() + &"#_".repeat(100_000) + "1 2]",
            ] {
                exercise(&text, &[], 0);
            }
        },
    );
}

/// An effect whose `:amount` (or `:effected`) is `open` repeated `levels` times
/// around `leaf`, each closed by `close`, inside an effect map inside `[ ]`.
fn nested_effect(levels: usize, open: &str, leaf: &str, close: &str, amount: bool) -> String {
    let expr = format!("{}{leaf}{}", open.repeat(levels), close.repeat(levels));
    if amount {
        format!("[{{:effected :you :resource :wall :amount {expr}}}]")
    } else {
        format!("[{{:effected {expr} :resource :wall :amount 1}}]")
    }
}

#[test]
fn the_deepest_readable_effects_check_and_apply_on_a_small_stack() {
    on_small_stack(
        "the_deepest_readable_effects_check_and_apply_on_a_small_stack",
        CHECK_STACK_KIB,
        || {
            // The outer `[` and `{` take two levels; the expression may take the rest.
            let room = MAX_DEPTH - 2;
            let cases = [
                // `[- [- … 1]]`: one level each.
                nested_effect(room, "[- ", "1", "]", true),
                // `[+ 1 [+ 1 … [:you :wall]]]`: the smart value takes the last level.
                nested_effect(room - 1, "[+ 1 ", "[:you :wall]", "]", true),
                // `[if [not [not … true]] 1 2]`: conditions.
                format!(
                    "[{{:effected :you :resource :wall :amount [if {}true{} 1 2]}}]",
                    "[not ".repeat(room - 1),
                    "]".repeat(room - 1)
                ),
                // Entity logic, with smart values at the bottom.
                nested_effect(
                    room - 1,
                    "[< [:you :wall] [:other :wall] ",
                    ":you",
                    " :other]",
                    false,
                ),
                // `[round [/ … 2]]`: two levels each.
                nested_effect(room / 2, "[round [/ ", "7", " 2]]", true),
            ];
            for text in &cases {
                let arena = grimoire::syntax::Arena::new();
                let read = syntax::read(&arena, text);
                assert!(
                    read.errors.is_empty(),
                    "{:?}",
                    &read.errors[..1.min(read.errors.len())]
                );
                let opens = text.bytes().filter(|b| b"[{".contains(b)).count();
                assert!(
                    opens >= MAX_DEPTH - 1,
                    "only {opens} levels: the case does not test the limit"
                );
                let effects = RULES.check_effects(&read.forms[0]);
                assert!(
                    effects.is_ok(),
                    "{:?}",
                    effects
                        .err()
                        .map(|d| d.into_iter().take(2).collect::<Vec<_>>())
                );
                exercise(text, &[], 0);
            }
            // One level deeper is a read error, whatever the shape.
            assert_too_deep(&nested_effect(room + 1, "[- ", "1", "]", true));
        },
    );
}

// ---------------------------------------------------------------- blow-ups

/// The size of a checked effect list, as the length of its debug text.
fn ast_size(text: &str) -> usize {
    let arena = grimoire::syntax::Arena::new();
    let form = syntax::read_one(&arena, text).expect("reads");
    let effects = RULES.check_effects(&form).expect("checks");
    format!("{effects:?}").len()
}

#[test]
fn nested_conditions_do_not_blow_up_the_checked_effects() {
    // A condition nested in a condition: `[if [if [if true false true] false true] 1 2]`.
    // Each level is a few bytes of text; its checked form must grow by a few nodes,
    // not double (2^n nodes is minutes and gigabytes at n = 30).
    let mut failures = Vec::new();
    for (open, close) in [
        ("[if ", " false true]"),
        ("[and ", " true true false]"),
        ("[or ", " false false true]"),
    ] {
        let mut sizes = Vec::new();
        for n in [4usize, 8, 12, 16] {
            let cond = format!("{}true{}", open.repeat(n), close.repeat(n));
            let text = format!("[{{:effected :you :resource :wall :amount [if {cond} 1 2]}}]");
            let started = Instant::now();
            let size = ast_size(&text);
            sizes.push(format!(
                "{n} deep: {} bytes -> {size} bytes of AST in {:?}",
                text.len(),
                started.elapsed()
            ));
            if size > 200 * text.len() || started.elapsed() > Duration::from_millis(500) {
                failures.push(format!(
                    "`{open}…{close}` nested {n} deep; growth:\n  {}",
                    sizes.join("\n  ")
                ));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "checked conditions grow exponentially:\n{}",
        failures.join("\n")
    );
}

/// The human output of checking a one-line file holding `n` errors (`:` without a name).
fn output_for_errors_on_one_line(n: usize) -> (usize, usize) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("never_panics");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let path = dir.join(format!("colons-{n}.edn"));
    let text = format!("[{}]\n", ": ".repeat(n));
    std::fs::write(&path, &text).expect("write the file");
    let out = grimoire::cli::check(
        &[path],
        Some("arcomage"),
        grimoire::cli::Format::Human,
        false,
    );
    assert_eq!(out.code, grimoire::cli::EXIT_DIAGNOSTICS);
    assert!(
        out.stderr
            .matches("error[E0112]: a keyword needs a name")
            .count()
            >= n.min(10)
    );
    (text.len(), out.stderr.len())
}

#[test]
fn many_errors_on_one_long_line_do_not_blow_up_the_output() {
    // Each diagnostic shows its source line; when every error is on one long line,
    // printing the whole line each time makes the output grow with the square of
    // the input (16 KB of `: ` gave 190 MB, all held in memory). Doubling the
    // input may double the output, not quadruple it.
    let (small_in, small_out) = output_for_errors_on_one_line(500);
    let (big_in, big_out) = output_for_errors_on_one_line(1000);
    assert!(
        big_out < 3 * small_out,
        "{small_in} bytes in -> {small_out} bytes out, but {big_in} bytes in -> {big_out} bytes out"
    );
}
