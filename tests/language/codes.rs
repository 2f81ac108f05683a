//! The diagnostic codes: each has an explanation whose failing example
//! gives it and whose fixed example gives nothing, a fixture that gives it,
//! and `grimoire check --explain` prints it.
//!
//! Fixtures: `tests/data/err/*.edn` (checked with `--rules arcomage`, see
//! `diagnostics.rs`) and `tests/data/err-codes/`, whose files need another
//! way to run: `defs/`, `rules/`, `scenario/`, `csv/`, `md/` are checked with
//! `grimoire check PATH` (the rule set is the folder named after it, or a
//! scenario's `:rules`), and `cmd/*.args` are command lines (the line after the
//! `;` comment). Which codes a fixture gives is in its snapshot; adding a code
//! is adding its catalogue entry and a fixture.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use grimoire::diag::Code;
use grimoire::diag::catalogue::{self, Input};

use crate::common::{run_in, scratch_dir, text};

/// The codes no small input produces, with why: they have an explanation but
/// no example and no fixture.
const NO_EXAMPLE: &[(Code, &str)] = &[
    (
        Code::TooLarge,
        "a text over 4 GiB: too large for a test input",
    ),
    (
        Code::FormatterUnsafe,
        "an internal error of `fmt`: no known input makes it",
    ),
];

/// What a run of the binary said: its exit code, the codes in its headers
/// (`error[E0204]: …`) and its whole output, for messages.
struct Said {
    exit: Option<i32>,
    codes: BTreeSet<String>,
    output: String,
}

/// Runs `grimoire ARGS…` from the package root and reads the codes it shows.
fn run(args: &[&str]) -> Said {
    let out = run_in(args, "", None);
    let output = format!("{}{}", text(&out.stdout), text(&out.stderr));
    Said {
        exit: out.status.code(),
        codes: shown_codes(&output),
        output,
    }
}

/// The codes of the diagnostics' headers in human output: `E0204` of
/// `error[E0204]: …`.
fn shown_codes(output: &str) -> BTreeSet<String> {
    let mut codes = BTreeSet::new();
    for word in ["error[", "warning["] {
        for (at, _) in output.match_indices(word) {
            let rest = &output[at + word.len()..];
            if let Some(code) = rest.get(..5).filter(|_| rest[5..].starts_with("]:"))
                && Code::parse(code).is_some()
            {
                codes.insert(code.to_string());
            }
        }
    }
    codes
}

/// A command line as a shell splits it: words, or `"…"` quoted with spaces.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// Checks one catalogue example, written to a file in `dir` as its input
/// says, the way `check --explain` says it is checked.
fn run_example(input: Input, example: &str, dir: &Path, failing: bool) -> Said {
    let file = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write the example");
        path.to_string_lossy().into_owned()
    };
    match input {
        Input::Definitions(rules) => run(&[
            "check",
            "--rules",
            rules,
            &file("example.edn", example.as_bytes()),
        ]),
        Input::RuleSet | Input::Unruled => {
            run(&["check", &file("example.edn", example.as_bytes())])
        }
        Input::Scenario => run(&[
            "check",
            "--rules",
            "arcomage",
            &file("example.edn", example.as_bytes()),
        ]),
        Input::Csv(rules) => run(&[
            "check",
            "--rules",
            rules,
            &file("example.csv", example.as_bytes()),
        ]),
        Input::Markdown(rules) => run(&[
            "check",
            "--rules",
            rules,
            &file("example.md", example.as_bytes()),
        ]),
        Input::Latin1(rules) => {
            // The failing example is saved as Latin-1: one byte per character.
            let bytes: Vec<u8> = if failing {
                example
                    .chars()
                    .map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 character"))
                    .collect()
            } else {
                example.as_bytes().to_vec()
            };
            run(&["check", "--rules", rules, &file("example.edn", &bytes)])
        }
        Input::StateFile => run(&[
            "eval",
            "--rules",
            "arcomage",
            "--state",
            &file("state.ron", example.as_bytes()),
            "[]",
        ]),
        Input::Command => {
            let args = words(example);
            run(&args.iter().map(String::as_str).collect::<Vec<_>>())
        }
        Input::None => unreachable!("no example to run"),
    }
}

#[test]
fn every_code_is_explained_with_a_failing_and_a_fixed_example() {
    let exempt: BTreeMap<Code, &str> = NO_EXAMPLE.iter().copied().collect();
    for &code in Code::ALL {
        let e = catalogue::explain(code);
        assert_eq!(e.code, code);
        for (what, text) in [("title", e.title), ("meaning", e.means), ("cause", e.why)] {
            assert!(!text.trim().is_empty(), "{code} has no {what}");
        }
        if let Some(why) = exempt.get(&code) {
            assert_eq!(
                e.input,
                Input::None,
                "{code} is exempt ({why}): give it no example"
            );
            continue;
        }
        assert_ne!(e.input, Input::None, "{code} has no example");
        // A failing example may be an empty file (E0503, a spreadsheet with
        // no header); a fixed one holds what was missing. A Latin-1 example
        // differs from its fix in its bytes only.
        assert!(!e.fixed.trim().is_empty(), "{code}: no fixed example");
        if !matches!(e.input, Input::Latin1(_)) {
            assert_ne!(e.failing, e.fixed, "{code}: the fix changes nothing");
        }
    }
}

#[test]
fn each_failing_example_gives_its_code_and_each_fixed_one_nothing() {
    let dir = scratch_dir("codes-examples");
    let mut wrong = Vec::new();
    for &code in Code::ALL {
        let e = catalogue::explain(code);
        if e.input == Input::None {
            continue;
        }
        let here = dir.join(code.as_str());
        std::fs::create_dir_all(&here).expect("a folder per code");
        let failing = run_example(e.input, e.failing, &here, true);
        if !failing.codes.contains(code.as_str()) {
            wrong.push(format!(
                "{code}: the failing example gives {:?}:\n{}",
                failing.codes, failing.output
            ));
        }
        let fixed = run_example(e.input, e.fixed, &here, false);
        if !fixed.codes.is_empty() || fixed.exit != Some(0) {
            wrong.push(format!(
                "{code}: the fixed example gives {:?} (exit {:?}):\n{}",
                fixed.codes, fixed.exit, fixed.output
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every fixture, relative to the package root: `err/*.edn`, and
/// `err-codes/**` but the state file an `.args` fixture reads.
fn fixtures() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut folders = vec![PathBuf::from("tests/data/err-codes")];
    let sorted = |dir: &Path| {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("a fixture folder (tests run from the package root)")
            .map(|e| e.expect("a readable entry").path())
            .collect();
        entries.sort();
        entries
    };
    out.extend(
        sorted(Path::new("tests/data/err"))
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "edn")),
    );
    while let Some(dir) = folders.pop() {
        for path in sorted(&dir) {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if path.is_dir() {
                folders.push(path);
            } else if matches!(ext, "edn" | "csv" | "md" | "args") {
                out.push(path);
            }
        }
    }
    out
}

/// The command that runs the fixture at `path` (relative to the package root).
fn fixture_command(path: &Path) -> Vec<String> {
    let shown = path.to_string_lossy().replace('\\', "/");
    if path.extension().is_some_and(|e| e == "args") {
        let line = std::fs::read_to_string(path).expect("an .args fixture");
        words(line.lines().find(|l| !l.starts_with(';')).unwrap_or(""))
    } else if path.starts_with("tests/data/err-codes") {
        vec!["check".into(), shown]
    } else {
        vec!["check".into(), "--rules".into(), "arcomage".into(), shown]
    }
}

#[test]
fn err_codes_fixtures_are_snapshotted() {
    // The fixtures of `tests/data/err/*.edn` are snapshotted by `diagnostics.rs`.
    insta::glob!("..", "data/err-codes/**/*.{edn,csv,md,args}", |path| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let rel = path.strip_prefix(root).unwrap_or(path);
        let args = fixture_command(rel);
        let said = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let shown = format!(
            "$ grimoire {}\nexit code: {}\n\n{}",
            args.join(" "),
            said.exit.unwrap_or(-1),
            said.output
        );
        insta::with_settings!({ omit_expression => true }, {
            insta::assert_snapshot!("fixture", shown);
        });
    });
}

#[test]
fn every_code_has_a_fixture_that_gives_it() {
    let exempt: BTreeSet<Code> = NO_EXAMPLE.iter().map(|(c, _)| *c).collect();
    let mut given: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let mut silent = Vec::new();
    let all = fixtures();
    assert!(all.len() >= 150, "only {} fixtures found", all.len());
    for path in all {
        let args = fixture_command(&path);
        let said = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        if said.codes.is_empty() {
            silent.push(format!("{}:\n{}", path.display(), said.output));
        }
        for code in said.codes {
            given.entry(code).or_default().push(path.clone());
        }
    }
    assert!(
        silent.is_empty(),
        "fixtures that give no code:\n{}",
        silent.join("\n")
    );
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| !exempt.contains(c) && !given.contains_key(c.as_str()))
        .map(|c| c.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "no fixture gives {missing:?}: add one (the catalogue's failing example) to tests/data/err-codes/"
    );
    for code in exempt {
        assert!(
            !given.contains_key(code.as_str()),
            "{code} is exempt, but a fixture gives it"
        );
    }
}

#[test]
fn explain_prints_a_known_code_and_refuses_an_unknown_one() {
    let said = run(&["check", "--explain", "E0204"]);
    assert_eq!(said.exit, Some(0), "{}", said.output);
    assert_eq!(said.output, catalogue::render(Code::UnknownAttribute));
    assert!(
        said.output
            .starts_with("E0204: unknown attribute (error)\n"),
        "{}",
        said.output
    );
    assert!(said.output.contains("Fixed:"), "{}", said.output);
    // Written in lower case too.
    assert_eq!(
        run(&["check", "--explain", "w0401"]).output,
        catalogue::render(Code::TextDisagrees)
    );

    for unknown in ["E9999", "wall", ""] {
        let said = run(&["check", "--explain", unknown]);
        assert_eq!(said.exit, Some(2), "{unknown:?}: {}", said.output);
        assert!(
            said.output.contains("is not a diagnostic code"),
            "{}",
            said.output
        );
    }
    let help = run(&["check", "--help"]);
    assert!(help.output.contains("--explain <CODE>"), "{}", help.output);
}

/// What `docs/DIAGNOSTICS.md` says before the catalogue.
const DOC_INTRO: &str = "# Diagnostics

<!-- Generated from the catalogue (src/diag/catalogue.rs) by tests/language/codes.rs:
     GRIMOIRE_WRITE_DOCS=1 cargo test --test language codes writes it; the test fails when it differs. -->

Every diagnostic grimoire reports has a stable code: `E` for errors, `W` for
warnings. The code never changes with the message's wording and is never
reused for another kind of problem. It is shown as rustc shows its own,

```text
error[E0204]: unknown attribute `:gem`
  --> tests/data/err/smart-value-unknown-attribute.edn:4:62
```

as `\"code\": \"E0204\"` in every JSON diagnostic (`check`, `eval` and
`simulate` with `--format json`), and as the `code` of the language server's
diagnostics. `grimoire check --explain E0204` prints an entry of this page:
what the code means, why it usually happens, and an example failing and fixed
(an unknown code exits 2).

| codes | area |
|---|---|
| E00xx | the shape of any map or value: keys, types, ranges, names declared twice, limits |
| E01xx | the reader: text that is not well-formed |
| E02xx | expressions and effects, and the rule-set names they use |
| E03xx | rule-set files |
| E04xx | definitions files: cards, named effects, statuses |
| E05xx | spreadsheets (`.csv`) and markdown tables (`.md`) |
| E06xx | scenario files |
| E07xx | loading: files, rule sets, decks, `eval`'s state and arguments |
| W0xxx | warnings, by the same areas |
";

/// The fence language of an example, and what goes before each line.
fn fence(input: Input) -> (&'static str, &'static str) {
    match input {
        Input::Csv(_) => ("csv", ""),
        Input::Markdown(_) => ("markdown", ""),
        Input::StateFile => ("ron", ""),
        Input::Command => ("sh", "grimoire "),
        _ => ("edn", ""),
    }
}

/// `docs/DIAGNOSTICS.md`: the intro, an index, and every code's entry.
fn diagnostics_doc() -> String {
    use std::fmt::Write as _;
    let mut out = String::from(DOC_INTRO);
    out.push_str("\n## Index\n\n| code | kind | title |\n|---|---|---|\n");
    for &code in Code::ALL {
        let kind = if code.is_warning() {
            "warning"
        } else {
            "error"
        };
        let title = catalogue::explain(code).title;
        let _ = writeln!(
            out,
            "| [{code}](#{}) | {kind} | {title} |",
            code.as_str().to_lowercase()
        );
    }
    for &code in Code::ALL {
        let e = catalogue::explain(code);
        let kind = if code.is_warning() {
            "warning"
        } else {
            "error"
        };
        let _ = write!(
            out,
            "\n## {code}\n\n**{}** ({kind})\n\n{}\n\n{}\n",
            e.title, e.means, e.why
        );
        if e.input == Input::None {
            out.push_str("\nNo small input produces it.\n");
            continue;
        }
        let (lang, prefix) = fence(e.input);
        let block = |text: &str| {
            let body: String = text.lines().map(|l| format!("{prefix}{l}\n")).collect();
            format!("```{lang}\n{body}```\n")
        };
        let _ = write!(
            out,
            "\nFor example, {}:\n\n{}\nFixed:\n\n{}",
            e.input.describe(),
            block(e.failing),
            block(e.fixed)
        );
    }
    out
}

#[test]
fn the_diagnostics_doc_is_the_catalogue() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/DIAGNOSTICS.md");
    let want = diagnostics_doc();
    if std::env::var_os("GRIMOIRE_WRITE_DOCS").is_some() {
        std::fs::write(&path, &want).expect("write docs/DIAGNOSTICS.md");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    for &code in Code::ALL {
        assert!(
            have.contains(&format!("\n## {code}\n")),
            "docs/DIAGNOSTICS.md has no entry for {code}"
        );
    }
    assert!(
        have == want,
        "docs/DIAGNOSTICS.md is not the catalogue's: run GRIMOIRE_WRITE_DOCS=1 cargo test --test language codes"
    );
}
