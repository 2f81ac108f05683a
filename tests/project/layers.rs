//! The layers point one way: ids (the typed ids every layer names, and the
//! bundled data's texts) → syntax
//! (with dice, which the reader recognises) → check → eval → engine → sim →
//! files → cli. A module may name modules of its own layer placed before it,
//! and modules of lower layers; never a higher one. Adding a module means placing it here. The check layer is one
//! folder, `check/`, holding the checked language too (`ast`, `rules`,
//! definitions, explanations). Only the file layer and the CLI touch the file
//! system, and the evaluator never sees the checker or raw syntax: of
//! `check/` it names only the checked language it runs (`check::ast`,
//! `check::rules`). Files point one way too: the import graph between source
//! files ([`import_graph`]) has no cycle anywhere in `src/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every top-level module, lowest first, with its layer.
const MODULES: &[(&str, &str)] = &[
    ("ids", "ids"),
    ("bundled", "ids"),
    ("dice", "syntax"),
    ("syntax", "syntax"),
    ("diag", "syntax"),
    ("formatter", "syntax"),
    ("check", "check"),
    ("eval", "eval"),
    ("engine", "engine"),
    ("scenario", "engine"),
    ("sim", "sim"),
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

/// Every `.rs` file under `dir`, into `out` (the other checks of src/ use it too).
pub(crate) fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
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

/// What the evaluator may name of the check layer: the checked language it
/// runs, not the checker that made it.
const CHECKED_LANGUAGE: &[&str] = &["crate::check::ast", "crate::check::rules"];

#[test]
fn the_evaluator_sees_neither_the_checker_nor_raw_syntax() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval");
    let mut files = Vec::new();
    sources(&dir, &mut files);
    assert!(files.len() >= 2, "the evaluator's files were not found");
    let mut checked_language = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            for (at, _) in line.match_indices("crate::") {
                let path = &line[at..];
                if path.starts_with("crate::syntax") {
                    panic!("{}:{}: names raw syntax", file.display(), n + 1);
                }
                if path.starts_with("crate::check") {
                    assert!(
                        CHECKED_LANGUAGE.iter().any(|ok| path.starts_with(ok)),
                        "{}:{}: names the checker: {line}",
                        file.display(),
                        n + 1
                    );
                    checked_language += 1;
                }
            }
        }
    }
    assert!(
        checked_language > 10,
        "only {checked_language} paths into check/ found: is the scan broken?"
    );
}

/// Who names whom among source files: each file a node named by its module
/// path (`src/cli/play.rs` → `cli::play`, a `mod.rs` → its folder, `lib.rs`
/// → `crate`), with an edge to the file of every `crate::…` and `super::…`
/// path it mentions (`use super::{a, b::c}` groups included; comments too,
/// as a doc link is a dependency), and the first line of each. A folder's
/// `mod.rs` naming its own files (`pub use super::a::X` in an inline
/// `mod keys`) is not an edge: a folder holds its files.
type Graph = BTreeMap<String, BTreeMap<String, usize>>;

/// A file's module path, as segments; `None` for `main.rs`, a crate of its own.
fn module_of(rel: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    match last.as_str() {
        "main.rs" if parts.is_empty() => None,
        "lib.rs" if parts.is_empty() => Some(parts),
        "mod.rs" => Some(parts),
        file => {
            parts.push(file.trim_end_matches(".rs").to_string());
            Some(parts)
        }
    }
}

fn node_name(segments: &[String]) -> String {
    if segments.is_empty() {
        "crate".to_string()
    } else {
        segments.join("::")
    }
}

/// `text` with the inside of every string and character literal blanked,
/// and a copy with the comments blanked too; line breaks and byte offsets kept.
fn blanked(text: &str) -> (String, String) {
    let b = text.as_bytes();
    let (mut no_strings, mut code) = (b.to_vec(), b.to_vec());
    let blank = |v: &mut Vec<u8>, range: std::ops::Range<usize>| {
        for x in &mut v[range] {
            if *x != b'\n' {
                *x = b' ';
            }
        }
    };
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        let prev_ident = i > 0 && ident(b[i - 1]);
        if b[i..].starts_with(b"//") {
            let end = b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n);
            blank(&mut code, i..end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let (mut depth, mut j) = (0, i);
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut code, i..j);
            i = j;
        } else if !prev_ident && (b[i] == b'r' || b[i..].starts_with(b"br")) && {
            let k = i + if b[i] == b'b' { 2 } else { 1 };
            let hashes = b[k..].iter().take_while(|&&c| c == b'#').count();
            b.get(k + hashes) == Some(&b'"')
        } {
            // A raw string: r"…", r#"…"#, br#"…"#.
            let k = i + if b[i] == b'b' { 2 } else { 1 };
            let hashes = b[k..].iter().take_while(|&&c| c == b'#').count();
            let start = k + hashes + 1;
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let end = (start..b.len())
                .find(|&j| b[j..].starts_with(&close))
                .unwrap_or(b.len());
            blank(&mut no_strings, start..end);
            blank(&mut code, start..end);
            i = (end + close.len()).min(b.len());
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = j.min(b.len());
            blank(&mut no_strings, i + 1..end);
            blank(&mut code, i + 1..end);
            i = end + 1;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '{'), not a lifetime ('a).
            let width = text[i + 1..].chars().next().map_or(0, char::len_utf8);
            let end = if b.get(i + 1) == Some(&b'\\') {
                (i + 2..b.len()).find(|&j| b[j] == b'\'')
            } else {
                (b.get(i + 1 + width) == Some(&b'\'')).then_some(i + 1 + width)
            };
            match end {
                Some(end) => {
                    blank(&mut no_strings, i + 1..end);
                    blank(&mut code, i + 1..end);
                    i = end + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    let text = |v: Vec<u8>| String::from_utf8(v).expect("whole characters blanked");
    (text(no_strings), text(code))
}

/// The inline modules of `code` (`mod tests { … }`): each one's name and byte range.
fn inline_modules(code: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("mod ").map(|n| from + n) {
        from = at + 4;
        if at > 0 && ident(b[at - 1]) {
            continue;
        }
        let rest = code[from..].trim_start();
        let name: String = rest.chars().take_while(|c| ident(*c as u8)).collect();
        let open = code.len() - rest.len() + name.len();
        let after = code[open..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let start = code.len() - after.len();
        let mut depth = 0;
        let end = (start..b.len())
            .find(|&j| {
                match b[j] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .unwrap_or(b.len());
        out.push((name, start..end));
    }
    out
}

/// The paths a `crate::`/`super::` mention starting at `at` names, each as
/// its segments from the mention on, groups (`{a, b::c}`) spread out.
fn paths_at(text: &str, at: usize) -> Vec<Vec<String>> {
    fn skip_space(b: &[u8], mut i: usize) -> usize {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    }
    /// A path from `i`; where it ended.
    fn path(b: &[u8], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
        let mut segments = prefix;
        loop {
            i = skip_space(b, i);
            if b.get(i) == Some(&b'{') {
                i += 1;
                loop {
                    i = skip_space(b, i);
                    match b.get(i) {
                        Some(b'}') => return i + 1,
                        Some(b',') => i += 1,
                        None => return i,
                        _ => {
                            let before = i;
                            i = path(b, i, segments.clone(), out);
                            // ` as name`, or anything else a group may hold.
                            while i < b.len() && !matches!(b[i], b',' | b'}') {
                                i += 1;
                            }
                            if i == before {
                                i += 1;
                            }
                        }
                    }
                }
            }
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if i > start {
                segments.push(String::from_utf8_lossy(&b[start..i]).into_owned());
            }
            if b[i..].starts_with(b"::") {
                i += 2;
            } else {
                out.push(segments);
                return i;
            }
        }
    }
    let mut out = Vec::new();
    path(text.as_bytes(), at, Vec::new(), &mut out);
    out
}

/// The import graph of `sources`, given as (path under `src/`, text).
fn import_graph(sources: &[(std::path::PathBuf, String)]) -> Graph {
    let modules: BTreeMap<Vec<String>, String> = sources
        .iter()
        .filter_map(|(rel, _)| module_of(rel))
        .map(|m| (m.clone(), node_name(&m)))
        .collect();
    let mut graph = Graph::new();
    for (rel, text) in sources {
        let Some(own) = module_of(rel) else {
            continue;
        };
        let from = node_name(&own);
        graph.entry(from.clone()).or_default();
        let (no_strings, code) = blanked(text);
        let inline = inline_modules(&code);
        let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        for prefix in ["crate::", "super::"] {
            for (at, _) in no_strings.match_indices(prefix) {
                if at > 0
                    && (ident(no_strings.as_bytes()[at - 1]) || no_strings[..at].ends_with("::"))
                {
                    continue;
                }
                // Code is read without its comments; a comment's path is read as written.
                let source = if code[at..].starts_with(prefix) {
                    &code
                } else {
                    &no_strings
                };
                let mut here = own.clone();
                here.extend(
                    inline
                        .iter()
                        .filter(|(_, range)| range.contains(&at))
                        .map(|(name, _)| name.clone()),
                );
                let line = text[..at].matches('\n').count() + 1;
                for path in paths_at(source, at) {
                    let mut absolute = Vec::new();
                    let mut rest = path.as_slice();
                    if rest.first().is_some_and(|s| s == "crate") {
                        rest = &rest[1..];
                    } else {
                        absolute = here.clone();
                        while rest.first().is_some_and(|s| s == "super") {
                            absolute.pop();
                            rest = &rest[1..];
                        }
                    }
                    absolute.extend(rest.iter().cloned());
                    let to = (0..=absolute.len())
                        .rev()
                        .find_map(|n| modules.get(&absolute[..n]));
                    // A folder's `mod.rs` re-exporting its own files holds them; it does not import them.
                    let own_file = |to: &String| to.starts_with(&format!("{from}::"));
                    if let Some(to) = to.filter(|to| **to != from && !own_file(to)) {
                        graph
                            .entry(from.clone())
                            .or_default()
                            .entry(to.clone())
                            .or_insert(line);
                    }
                }
            }
        }
    }
    graph
}

/// The cycles among the nodes `keep` keeps: each strongly connected
/// component of two or more, as one cycle through it with the line of each
/// mention (`a → b (line 3 of a) → a (line 7 of b)`), then the component's
/// other files when it has more.
fn cycles(graph: &Graph, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let nodes: Vec<&String> = graph.keys().filter(|n| keep(n)).collect();
    let index: BTreeMap<&String, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let next: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            graph[*n]
                .keys()
                .filter_map(|t| index.get(t).copied())
                .collect()
        })
        .collect();
    // Reachability by repeated search: the graphs are a few hundred nodes at most.
    let reach = |from: usize| {
        let mut seen = vec![false; nodes.len()];
        let mut stack = vec![from];
        while let Some(n) = stack.pop() {
            for &t in &next[n] {
                if !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
        seen
    };
    let reaches: Vec<Vec<bool>> = (0..nodes.len()).map(reach).collect();
    let mut done = vec![false; nodes.len()];
    let mut out = Vec::new();
    for a in 0..nodes.len() {
        if done[a] || !reaches[a][a] {
            continue;
        }
        let component: BTreeSet<usize> = (0..nodes.len())
            .filter(|&b| reaches[a][b] && reaches[b][a])
            .collect();
        component.iter().for_each(|&b| done[b] = true);
        // The shortest way round from `a`, inside the component.
        let mut back = vec![None; nodes.len()];
        let mut queue = std::collections::VecDeque::from([a]);
        'search: while let Some(n) = queue.pop_front() {
            for &t in &next[n] {
                if component.contains(&t) && back[t].is_none() {
                    back[t] = Some(n);
                    if t == a {
                        break 'search;
                    }
                    queue.push_back(t);
                }
            }
        }
        let mut ring = Vec::new();
        let mut at = back[a];
        while let Some(n) = at.filter(|&n| n != a) {
            ring.push(n);
            at = back[n];
        }
        ring.push(a);
        ring.reverse();
        let mut text = nodes[a].clone();
        for (k, &n) in ring.iter().enumerate() {
            let to = ring.get(k + 1).copied().unwrap_or(a);
            text.push_str(&format!(
                " → {} (line {} of {})",
                nodes[to], graph[nodes[n]][nodes[to]], nodes[n]
            ));
        }
        if component.len() > ring.len() {
            let all: Vec<&str> = component.iter().map(|&n| nodes[n].as_str()).collect();
            text.push_str(&format!(", among {}", all.join(", ")));
        }
        out.push(text);
    }
    out
}

/// Every source file under `src/`, as (path under `src/`, text).
fn source_texts() -> Vec<(std::path::PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f.strip_prefix(&src).unwrap().to_path_buf(), text)
        })
        .collect()
}

#[test]
fn the_cli_files_name_each_other_one_way() {
    let graph = import_graph(&source_texts());
    let in_cli = |n: &str| n == "cli" || n.starts_with("cli::");
    let edges: usize = graph
        .iter()
        .filter(|(n, _)| in_cli(n))
        .map(|(_, to)| to.keys().filter(|t| in_cli(t)).count())
        .sum();
    assert!(
        edges > 15,
        "only {edges} edges inside cli/: is the scan broken?"
    );
    let found = cycles(&graph, in_cli);
    assert!(
        found.is_empty(),
        "files of cli/ that name each other in a circle (give the shared part a module of its own):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_cycle_finder_finds_a_planted_cycle() {
    let file = |path: &str, text: &str| (std::path::PathBuf::from(path), text.to_string());
    let sources = [
        file("lib.rs", "pub mod cli;"),
        file(
            "cli/mod.rs",
            "mod a;\nmod b;\nmod c;\npub use a::X;\npub mod keys {\n    pub use super::a::X;\n}\n",
        ),
        file(
            "cli/a.rs",
            "use super::{\n    Output,\n    b::{thing, other as o},\n};\npub struct X;",
        ),
        file(
            "cli/b.rs",
            "/// Made by [`crate::cli::c`].\nfn f() -> crate::cli::a::X { todo!() }",
        ),
        file(
            "cli/c.rs",
            "use super::Output;\nconst OPEN: char = '{';\nconst S: &str = \"super::a }\";\n#[cfg(test)]\nmod tests {\n    use super::*;\n    fn g<'a>(s: &'a str) -> &'a str { s }\n}\n",
        ),
    ];
    let graph = import_graph(&sources);
    let to = |n: &str| graph[n].keys().cloned().collect::<Vec<_>>();
    assert_eq!(to("cli::a"), ["cli", "cli::b"]);
    assert_eq!(to("cli::b"), ["cli::a", "cli::c"]);
    // The test module's `super` is the file itself; the string names nothing.
    assert_eq!(to("cli::c"), ["cli"]);
    assert!(
        to("cli").is_empty(),
        "a parent declaring its files does not name them"
    );
    let found = cycles(&graph, |n| n.starts_with("cli"));
    assert_eq!(
        found,
        ["cli::a → cli::b (line 1 of cli::a) → cli::a (line 2 of cli::b)"]
    );
    assert!(cycles(&graph, |n| n != "cli::b").is_empty());
}

#[test]
fn no_source_files_name_each_other_in_a_circle() {
    let found = cycles(&import_graph(&source_texts()), |_| true);
    assert!(found.is_empty(), "{}", found.join("\n"));
}
