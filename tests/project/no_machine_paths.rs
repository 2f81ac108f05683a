//! The product carries no paths of the machine it was made on: data files and
//! the texts compiled into the binary cite their sources by name.

use std::path::{Path, PathBuf};

/// Top-level folders whose absolute paths a workstation leaves behind; the
/// paths themselves are built at run time, so this file holds none.
const MACHINE_ROOTS: &[&str] = &["work", "home", "root", "Users", "tmp"];

/// The first machine path in `text`: a root folder above, or a Windows drive.
fn machine_path(text: &str) -> Option<String> {
    MACHINE_ROOTS
        .iter()
        .map(|root| format!("/{root}/"))
        .chain(std::iter::once(format!("C:{}", '\\')))
        .find(|p| text.contains(p.as_str()))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn data_files_cite_sources_by_name_not_by_path() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "cards",
        "effects",
        "rules",
        "tests/scenarios",
        "tests/data",
        "docs",
    ] {
        walk(&root.join(dir), &mut files);
    }
    walk(&root.join("src"), &mut files);
    files.push(root.join("README.md"));
    assert!(files.len() > 20, "found only {} files", files.len());
    let offenders: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).ok()?;
            machine_path(&text).map(|p| format!("{} contains {p}", f.display()))
        })
        .collect();
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

#[test]
fn texts_compiled_into_the_binary_carry_no_machine_paths() {
    for (name, text) in grimoire::check::rules::BUNDLED {
        assert_eq!(machine_path(text), None, "bundled rule set {name}");
    }
    for (path, text) in grimoire::bundled::FILES {
        assert_eq!(machine_path(text), None, "bundled file {path}");
    }
}
