//! Arbitrary spreadsheet text never makes the CSV reader or the card checker panic.

use grimoire::check::csv;
use grimoire::check::rules::RuleSet;
use proptest::prelude::*;

fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(":bricks".into()),
        Just("true".into()),
        Just("3".into()),
        Just("\"a, \"\"quoted\"\" cell\"".into()),
        Just("[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]".into()),
        Just("[{effected :other :resource :damage :amount 5}]".into()),
        Just("\"unclosed".into()),
        "[ -~]{0,12}",
        any::<String>(),
    ]
}

fn sheet() -> impl Strategy<Value = String> {
    let row = prop::collection::vec(cell(), 0..9).prop_map(|cells| cells.join(","));
    (
        any::<bool>(),
        prop::collection::vec(row, 0..6),
        prop::sample::select(&["\n", "\r\n", "\r"][..]),
    )
        .prop_map(|(header, rows, end)| {
            let mut lines = Vec::new();
            if header {
                lines.push("name,description,discardable,play-again,type,cost,effects".to_string());
            }
            lines.extend(rows);
            lines.join(end)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn spreadsheets_never_panic(text in sheet()) {
        let rules = RuleSet::bundled("arcomage").unwrap().unwrap();
        let mut diags = Vec::new();
        let rows = csv::rows(&text, &mut diags);
        let arena = grimoire::syntax::Arena::new();
        let cards = csv::cards(&arena, &rows, &mut diags);
        for card in &cards {
            let _ = grimoire::check::defs::definition(card, &rules, 0, &mut diags);
        }
        // Every diagnostic points inside the text.
        for d in &diags {
            prop_assert!(d.span.end as usize <= text.len(), "{d:?} past the end of {text:?}");
        }
    }
}
