//! No bundled game is special to the code: the names of the rule sets under
//! `rules/` appear in `src/` only in comments, tests and documentation (the
//! help's examples, the diagnostics catalogue's examples), never in code. What
//! is bundled is found from the data folders by `build.rs`, so a game added to
//! `rules/` is bundled without touching Rust.

use std::path::{Path, PathBuf};

use crate::layers::sources;

/// Files whose string literals are documentation: the help's examples and the
/// diagnostics catalogue, whose examples are checked against a bundled game.
const DOCUMENTATION: &[&str] = &["main.rs", "diag/catalogue.rs"];

/// The code of a source text: comments gone, and the tests at its end (from
/// `#[cfg(test)]` on) left out.
fn code(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        // A trailing comment; `://` is a URI's, not a comment.
        let code = match line
            .match_indices("//")
            .find(|(at, _)| !line[..*at].ends_with(':'))
        {
            Some((at, _)) => &line[..at],
            None => line,
        };
        out.push((n + 1, code.to_string()));
    }
    out
}

/// Whether `word` stands alone in `line` (not inside a longer identifier).
fn has_word(line: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

#[test]
fn no_bundled_game_is_named_in_the_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names: Vec<String> = std::fs::read_dir(root.join("rules"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let path = e.path();
            (path.extension()? == "edn").then(|| path.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    assert!(names.len() >= 5, "only {names:?} found under rules/");
    let src = root.join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut found = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if DOCUMENTATION.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (line, code) in code(&text) {
            for name in &names {
                if has_word(&code, name) {
                    found.push(format!("src/{rel}:{line}: `{name}`: {}", code.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "bundled games named in code:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_a_name_in_code_and_not_in_a_comment() {
    let text = "let a = \"duel\"; // duel\n/// arcomage\nlet uri = \"file://x\"; // tbwg\nlet duels = 1;\n#[cfg(test)]\nmod tests { \"tbwg\" }\n";
    let lines = code(text);
    assert!(has_word(&lines[0].1, "duel"));
    assert!(
        !lines
            .iter()
            .any(|(_, l)| has_word(l, "arcomage") || has_word(l, "tbwg"))
    );
    assert!(!has_word(&lines[2].1, "duel"), "{:?}", lines[2]);
}

/// Every data file under the data folders, relative, sorted as `discover` finds them.
fn data_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            data_files(root, &path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "edn" || e == "csv" || e == "md")
        {
            let rel = path.strip_prefix(root).unwrap().to_string_lossy();
            out.push(rel.replace('\\', "/"));
        }
    }
}

#[test]
fn what_is_bundled_is_what_the_data_folders_hold_in_their_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut want = Vec::new();
    for folder in ["cards", "effects", "rules"] {
        data_files(root, &root.join(folder), &mut want);
    }
    let have: Vec<&str> = grimoire::bundled::FILES.iter().map(|(p, _)| *p).collect();
    assert_eq!(have, want);
    for (path, text) in grimoire::bundled::FILES {
        let on_disk = std::fs::read_to_string(root.join(path)).unwrap();
        assert!(on_disk == *text, "{path} is not the bundled text");
    }
    let names: Vec<&str> = grimoire::bundled::RULE_SETS
        .iter()
        .map(|(n, _)| *n)
        .collect();
    let stems: Vec<String> = want
        .iter()
        .filter_map(|p| {
            p.strip_prefix("rules/")?
                .strip_suffix(".edn")
                .map(str::to_string)
        })
        .collect();
    assert_eq!(names, stems);
}
