//! The layers point one way: syntax (with dice, which the reader recognises) → check → eval → engine → files → cli. A
//! module may name modules of its own layer placed before it, and modules of
//! lower layers; never a higher one. Adding a module means placing it here.
//! Only the file layer and the CLI touch the file system, and the evaluator
//! never sees the checker or raw syntax.

use std::path::Path;

/// Every top-level module, lowest first, with its layer.
const MODULES: &[(&str, &str)] = &[
    ("dice", "syntax"),
    ("syntax", "syntax"),
    ("diag", "syntax"),
    ("fmt", "syntax"),
    ("ast", "check"),
    ("check", "check"),
    ("rules", "check"),
    ("explain", "check"),
    ("lint", "check"),
    ("status", "check"),
    ("defs", "check"),
    ("csv", "check"),
    ("md", "check"),
    ("project", "check"),
    ("eval", "eval"),
    ("engine", "engine"),
    ("scenario", "engine"),
    ("files", "files"),
    ("cli", "cli"),
];

fn rank(module: &str) -> Option<usize> {
    MODULES.iter().position(|(m, _)| *m == module)
}

/// The top-level module a source file belongs to (`src/engine/ai.rs` → `engine`).
fn owner(path: &Path, src: &Path) -> Option<String> {
    let rel = path.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    Some(first.trim_end_matches(".rs").to_string())
}

/// Every `crate::NAME` a text mentions, comments included (a doc link is a dependency too).
fn mentions(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `crate::{a, b}` groups are not used in this code base; a name is always next.
            out.push((n + 1, name));
        }
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_names_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut problems = Vec::new();
    let mut seen = 0;
    for file in &files {
        let Some(module) = owner(file, &src) else {
            continue;
        };
        if matches!(module.as_str(), "lib" | "main") {
            continue;
        }
        let Some(own) = rank(&module) else {
            problems.push(format!(
                "{}: module `{module}` has no place in MODULES",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for (line, name) in mentions(&text) {
            seen += 1;
            let Some(theirs) = rank(&name) else {
                problems.push(format!(
                    "{}:{line}: `crate::{name}` is not a known module",
                    file.display()
                ));
                continue;
            };
            if theirs > own {
                problems.push(format!(
                    "{}:{line}: `{module}` ({} layer) names `crate::{name}` ({} layer, higher)",
                    file.display(),
                    MODULES[own].1,
                    MODULES[theirs].1
                ));
            }
        }
    }
    assert!(
        seen > 50,
        "only {seen} crate paths found: is the scan broken?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_layer_list_matches_lib_rs() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    let mut listed: Vec<&str> = MODULES.iter().map(|(m, _)| *m).collect();
    let mut declared_sorted = declared.clone();
    listed.sort_unstable();
    declared_sorted.sort_unstable();
    assert_eq!(listed, declared_sorted);
}

#[test]
fn the_scan_sees_an_upward_name() {
    // The checker of this file, checked: an engine path named from `eval` is caught.
    let found = mentions("use crate::engine::Game; // and crate::syntax::Span");
    assert_eq!(
        found,
        [(1, "engine".to_string()), (1, "syntax".to_string())]
    );
    assert!(rank("engine") > rank("eval"));
}

#[test]
fn only_the_file_layer_and_the_cli_touch_the_file_system() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut problems = Vec::new();
    for file in &files {
        let module = owner(file, &src).unwrap_or_default();
        if matches!(module.as_str(), "files" | "cli" | "main") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            // The file system, and what looks at it: the working-directory defect
            // came from a `Path::is_dir` in the deck loader.
            const TOUCH: &[&str] = &[
                "std::fs",
                "File::open",
                ".is_dir()",
                ".is_file()",
                ".exists()",
                "read_dir",
                "metadata(",
                "current_dir",
            ];
            if TOUCH.iter().any(|t| line.contains(t)) {
                problems.push(format!("{}:{}: {line}", file.display(), n + 1));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_evaluator_sees_neither_the_checker_nor_raw_syntax() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval");
    let mut files = Vec::new();
    sources(&dir, &mut files);
    assert!(files.len() >= 2, "the evaluator's files were not found");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let named: Vec<String> = mentions(&text).into_iter().map(|(_, m)| m).collect();
        for forbidden in ["check", "syntax", "status"] {
            assert!(
                !named.iter().any(|m| m == forbidden),
                "{} names crate::{forbidden}",
                file.display()
            );
        }
    }
}
