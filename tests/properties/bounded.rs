//! Valid data that asks for unbounded work (issue 29): nested `advantage`s,
//! nested `:each` loops and formulas each using the last twice, in any mix
//! and to any depth, always end — with a result, or with a located error
//! (`check`'s estimate, E0237) or a budget's (E0801) — within a minute and
//! 1 GB: each case runs the built binary, as a designer would.

use proptest::prelude::*;

/// One level of nesting around what is inside it.
#[derive(Clone, Copy, Debug)]
enum Level {
    Advantage,
    Each,
    Formula,
}

/// An amount for `levels` (innermost last): advantages and formulas wrap
/// the roll; `:each` levels wrap the effect.
fn effects_text(levels: &[Level]) -> String {
    let mut amount = String::from("1d6");
    let mut formulas = 0;
    for level in levels.iter().rev() {
        match level {
            Level::Advantage => amount = format!("[advantage {amount}]"),
            Level::Formula => {
                formulas += 1;
                amount = format!("[+ {amount} [formula :twice{formulas} 1]]");
            }
            Level::Each => {}
        }
    }
    let mut effects = format!("[{{:effected :you :resource :hp :amount {amount}}}]");
    for level in levels {
        if let Level::Each = level {
            effects = format!("[{{:each :player :effects {effects}}}]");
        }
    }
    effects
}

/// A rule set whose formula `twiceN` uses `twice(N-1)` twice.
fn rules_text(depth: usize) -> String {
    let mut formulas = String::from(":twice0 {:args [:x] :value [+ :x 1d6]}\n");
    for i in 1..=depth {
        formulas.push_str(&format!(
            ":twice{i} {{:args [:x] :value [+ [formula :twice{p} :x] [formula :twice{p} :x]]}}\n",
            p = i - 1
        ));
    }
    format!(
        "{{:rules :deep
 :roles {{:you \"the seat\" :other \"the other\"}}
 :attributes {{:hp {{:default 10}}}}
 :formulas {{{formulas}}}
 :seats [:p1 :p2]}}"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn nested_work_ends_with_a_result_or_a_located_error(
        levels in prop::collection::vec(
            prop_oneof![Just(Level::Advantage), Just(Level::Each), Just(Level::Formula)],
            0..40,
        )
    ) {
        let dir = crate::common::scratch_dir("bounded-nesting");
        std::fs::write(dir.join("deep.edn"), rules_text(levels.len())).unwrap();
        let effects = effects_text(&levels);
        std::fs::write(dir.join("effects.edn"), &effects).unwrap();
        // At most 1 GB of address space and a minute: an abort, a kill or
        // a timeout's exit code fails the case.
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 1000000; exec timeout 60 \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_grimoire"))
            .args(["eval", "--rules", "deep.edn", "--file", "effects.edn", "--seed", "1"])
            .env("NO_COLOR", "1")
            .current_dir(&dir)
            .output()
            .expect("run grimoire");
        let err = crate::common::text(&out.stderr);
        match out.status.code() {
            Some(0) => {}
            Some(1) => prop_assert!(
                err.contains("error[E0801]") || err.contains("error[E0237]"),
                "exit 1 without a budget's error: {err}"
            ),
            code => prop_assert!(false, "exit {code:?}: {err}"),
        }
    }
}
