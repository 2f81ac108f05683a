//! `src/README.md` is the map of the source: one table row per file, its path
//! under `src/` in the second column. Every source file is on it, and
//! everything on it is a source file, so a newcomer's map cannot leave out
//! the room they are looking for.

use std::collections::BTreeSet;
use std::path::Path;

/// The paths the map's table rows give in their file column (`` `eval/expr.rs` ``).
fn mapped(readme: &str) -> Vec<String> {
    readme
        .lines()
        .filter_map(|line| line.strip_prefix('|'))
        .filter_map(|row| row.split('|').nth(1))
        .filter_map(|cell| {
            let cell = cell.trim();
            let path = cell.strip_prefix('`')?.strip_suffix('`')?;
            path.ends_with(".rs").then(|| path.to_string())
        })
        .collect()
}

fn source_files(dir: &Path, src: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            source_files(&path, src, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(src).unwrap();
            out.insert(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn the_map_lists_every_source_file_once_and_nothing_else() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let readme = std::fs::read_to_string(src.join("README.md")).unwrap();
    let rows = mapped(&readme);
    let mut files = BTreeSet::new();
    source_files(&src, &src, &mut files);
    assert!(files.len() > 50, "only {} source files found", files.len());
    let listed: BTreeSet<String> = rows.iter().cloned().collect();
    let twice: Vec<&String> = rows
        .iter()
        .filter(|r| rows.iter().filter(|s| s == r).count() > 1)
        .collect();
    let missing: Vec<&String> = files.difference(&listed).collect();
    let stale: Vec<&String> = listed.difference(&files).collect();
    assert!(
        missing.is_empty() && stale.is_empty() && twice.is_empty(),
        "src/README.md: not on the map {missing:?}; on the map but not in src/ {stale:?}; listed twice {twice:?}"
    );
}

#[test]
fn the_map_reader_reads_the_file_column() {
    let readme = "| layer | file | job |\n|---|---|---|\n| eval | `eval/expr.rs` | expressions; see `state.rs` |\n| cli | `main.rs` | the front end |\n";
    assert_eq!(mapped(readme), ["eval/expr.rs", "main.rs"]);
}
