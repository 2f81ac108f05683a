//! Properties of the formatter: over every bundled and fixture `.edn` file
//! (as written, and with its whitespace shuffled) and over generated forms
//! (random nesting, strings with escapes and line breaks, comments, discards,
//! commas, random whitespace), formatting is idempotent and the result reads
//! back to the same forms.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use grimoire::formatter::format_source;
use grimoire::syntax::read;
use proptest::prelude::*;

use crate::common::same_forms;

fn edn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            edn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "edn") {
            out.push(path);
        }
    }
}

/// Every bundled and fixture `.edn` file that reads without errors, with its text.
fn corpus() -> &'static [(PathBuf, String)] {
    static CORPUS: OnceLock<Vec<(PathBuf, String)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["rules", "cards", "effects", "tests/scenarios", "tests/data"] {
            edn_files(&root.join(dir), &mut files);
        }
        files
            .into_iter()
            .filter_map(|p| {
                let text = String::from_utf8(std::fs::read(&p).ok()?).ok()?;
                read(&grimoire::syntax::Arena::new(), &text)
                    .errors
                    .is_empty()
                    .then_some((p, text))
            })
            .collect()
    })
}

#[test]
fn every_bundled_and_fixture_file_formats_idempotently_to_the_same_forms() {
    let files = corpus();
    assert!(files.len() > 100, "only {} files found", files.len());
    for (path, text) in files {
        let once = format_source(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(same_forms(text, &once), "{}", path.display());
        let twice = format_source(&once).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(twice, once, "{} is not idempotent", path.display());
    }
}

#[test]
fn the_bundled_data_is_formatted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (path, text) in corpus() {
        let rel = path.strip_prefix(root).unwrap_or(path);
        // The diagnostics fixtures pin line and column positions as written.
        if rel.starts_with("tests/data") {
            continue;
        }
        let formatted = format_source(text).unwrap_or_else(|e| panic!("{}: {e}", rel.display()));
        assert!(
            formatted == *text,
            "{} is not formatted: run `grimoire fmt {}`",
            rel.display(),
            rel.display()
        );
    }
}

/// Byte offsets of the line breaks of `text` that are outside strings and
/// comments' text: where whitespace can be added without changing a form.
fn free_breaks(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let (mut in_string, mut in_comment) = (false, false);
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' if in_string => i += 1,
            b'"' if !in_comment => in_string = !in_string,
            b';' if !in_string => in_comment = true,
            b'\n' if !in_string => {
                in_comment = false;
                out.push(i);
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// `text` with whitespace added around its free line breaks: `pads[k]` picks
/// what goes before and after the k-th one (cycling).
fn shuffle(text: &str, pads: &[(usize, usize)]) -> String {
    const BEFORE: &[&str] = &["", " ", "  \t", "\t", " , "];
    const AFTER: &[&str] = &["", " ", "    ", "\t", "\n", "\n\n  ", " \t  "];
    let mut out = String::with_capacity(text.len() * 2);
    let mut from = 0;
    for (k, at) in free_breaks(text).into_iter().enumerate() {
        let (b, a) = pads[k % pads.len()];
        out.push_str(&text[from..at]);
        // A comma is whitespace to the reader, but not inside a comment: add
        // it only where the line has no comment.
        let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
        let before = BEFORE[b % BEFORE.len()];
        if !(before.contains(',') && line.contains(';')) {
            out.push_str(before);
        }
        out.push('\n');
        out.push_str(AFTER[a % AFTER.len()]);
        from = at + 1;
    }
    out.push_str(&text[from..]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn shuffled_files_format_idempotently_to_the_same_forms(
        index in any::<prop::sample::Index>(),
        pads in prop::collection::vec((0usize..8, 0usize..8), 1..12),
    ) {
        let (path, text) = index.get(corpus());
        let shuffled = shuffle(text, &pads);
        prop_assume!(read(&grimoire::syntax::Arena::new(), &shuffled).errors.is_empty());
        prop_assert!(same_forms(text, &shuffled), "{}: the shuffle changed the forms", path.display());
        let once = format_source(&shuffled)
            .map_err(|e| TestCaseError::fail(format!("{}: {e}", path.display())))?;
        prop_assert!(same_forms(text, &once), "{}", path.display());
        prop_assert_eq!(&format_source(&once).expect("formatted text formats"), &once);
    }
}

fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[0-9]{1,6}",
        "[0-9]{1,3}\\.[0-9]{1,3}",
        ":[a-z][a-z0-9-]{0,6}(/[a-z]{1,3})?",
        prop::sample::select(vec![
            "+", "-", "<=", "not=", "and", "if", "lookup", "nil", "true", "false"
        ])
        .prop_map(String::from),
        "[1-9]d(4|6|20)([+-][1-9])?",
        // Strings with escapes, line breaks (multi-line strings) and trailing blanks.
        "\"([a-z ;#_\\[{]|\\\\n|\\\\\"|\\\\\\\\|\\\\u00e9|\\\\t|\n|  \n|\t)*\"",
    ]
}

/// What may separate two forms: whitespace, commas, comments, discards.
fn gap() -> BoxedStrategy<String> {
    prop_oneof![
        Just(" ".to_string()),
        Just("   ".to_string()),
        Just("\n".to_string()),
        Just("\n\n\n\n".to_string()),
        Just("\t".to_string()),
        Just("\n\t  ".to_string()),
        Just("  \n        ".to_string()),
        Just(", ".to_string()),
        Just("\r\n ".to_string()),
        Just(" ; a note \"q\" [ \n".to_string()),
        Just("\n  ;; a line of its own  \n   ".to_string()),
        Just(" #_ :gone ".to_string()),
        Just(" #_[1 \"x\"\n 2] ".to_string()),
    ]
    .boxed()
}

/// What may stand right after an opener or before a closer: a gap, or nothing.
fn edge() -> BoxedStrategy<String> {
    prop_oneof![2 => Just(String::new()), 1 => gap()].boxed()
}

fn join(items: Vec<(String, String)>) -> String {
    let mut out = String::new();
    for (i, (item, gap)) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(&gap);
        }
        out.push_str(&item);
    }
    out
}

/// A form as text: atoms and nested vectors, lists, maps (unique keys) and
/// sets (unique elements), with random gaps.
fn form() -> impl Strategy<Value = String> {
    atom().prop_recursive(6, 64, 6, |inner| {
        let items = prop::collection::vec((inner.clone(), gap()), 0..6);
        prop_oneof![
            (edge(), items.clone(), edge())
                .prop_map(|(a, items, b)| format!("[{a}{}{b}]", join(items))),
            // An operator call: a symbol, then arguments.
            (
                prop::sample::select(vec!["+", "and", "if", "max"]),
                items.clone(),
                edge()
            )
                .prop_map(|(op, items, b)| {
                    let args = join(items);
                    format!("[{op} {args}{b}]")
                }),
            (edge(), items.clone(), edge())
                .prop_map(|(a, items, b)| format!("({a}{}{b})", join(items))),
            (edge(), items.clone(), edge()).prop_map(|(a, items, b)| {
                let pairs = items
                    .into_iter()
                    .enumerate()
                    .map(|(i, (v, g))| (format!(":k{i}{g}{v}"), g))
                    .collect();
                format!("{{{a}{}{b}}}", join(pairs))
            }),
            (edge(), prop::collection::vec(gap(), 0..5), edge()).prop_map(|(a, gaps, b)| {
                let elems = gaps
                    .into_iter()
                    .enumerate()
                    .map(|(i, g)| (format!(":e{i}"), g))
                    .collect();
                format!("#{{{a}{}{b}}}", join(elems))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn generated_forms_format_idempotently_to_the_same_forms(
        forms in prop::collection::vec((form(), gap()), 0..4),
        lead in edge(),
        tail in edge(),
    ) {
        let text = format!("{lead}{}{tail}", join(forms));
        prop_assume!(read(&grimoire::syntax::Arena::new(), &text).errors.is_empty());
        let once = format_source(&text)
            .map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?;
        prop_assert!(same_forms(&text, &once), "{:?} became {:?}", text, once);
        prop_assert_eq!(&format_source(&once).expect("formatted text formats"), &once, "from {:?}", text);
        prop_assert!(once.is_empty() || once.ends_with('\n') && !once.ends_with("\n\n"));
    }
}
