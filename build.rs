//! Finds the data compiled into the binary, so that a game added under
//! `rules/`, `cards/` or `effects/` is bundled without touching Rust, and the
//! template `grimoire new` copies: writes tables of (relative path, text) to
//! `$OUT_DIR`, which `src/bundled.rs` includes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The file extensions a project's data folders are read for (as `files::EXTENSIONS`).
const EXTENSIONS: &[&str] = &["edn", "csv", "md"];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let mut data = Vec::new();
    // In sorted order, so the table is the sorted tree, as `discover` walks it.
    for folder in ["cards", "effects", "rules"] {
        println!("cargo:rerun-if-changed={folder}");
        walk(&root, &root.join(folder), true, &mut data);
    }
    println!("cargo:rerun-if-changed=templates/new");
    let template_root = root.join("templates/new");
    let mut template = Vec::new();
    walk(&template_root, &template_root, false, &mut template);
    // Rule sets by name, as `rules/NAME.edn`, for the library's `RuleSet::bundled`.
    let rule_sets: Vec<(String, PathBuf)> = data
        .iter()
        .filter_map(|(rel, path)| {
            let name = rel.strip_prefix("rules/")?.strip_suffix(".edn")?;
            (!name.contains('/')).then(|| (name.to_string(), path.clone()))
        })
        .collect();
    write(&out.join("bundled_files.rs"), &data);
    write(&out.join("bundled_rule_sets.rs"), &rule_sets);
    write(&out.join("template_files.rs"), &template);
}

/// Every data file under `dir`, as (path relative to `root` with `/`, path),
/// in the order `files::discover` finds a folder's files: sorted, recursively,
/// skipping hidden folders and `target/`. With `data`, only the data extensions.
fn walk(root: &Path, dir: &Path, data: bool, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            walk(root, &path, data, out);
        } else if !data
            || path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| EXTENSIONS.contains(&e))
        {
            let rel = path.strip_prefix(root).expect("under the root");
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push((rel.join("/"), path));
        }
    }
}

/// A Rust slice expression of (key, `include_str!` of the file) pairs.
fn write(to: &Path, files: &[(String, PathBuf)]) {
    let mut text = String::from("&[\n");
    for (key, path) in files {
        let _ = writeln!(
            text,
            "    ({key:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    text.push_str("]\n");
    // Written only when changed, so an unchanged table rebuilds nothing.
    if std::fs::read_to_string(to).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(to, text).expect("write to OUT_DIR");
    }
}
