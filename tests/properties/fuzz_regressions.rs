//! Every input a fuzz target found a defect with, kept in
//! `tests/data/fuzz/TARGET/`, run through that target's body (the fuzz
//! package's own code, `fuzz/src/lib.rs`, included here as a module) without
//! libFuzzer: a crash fails the test, and so does a hang, by a time limit.
//! `tests/data/fuzz/README.md` says what each one found.

#[allow(dead_code)]
#[path = "../../fuzz/src/lib.rs"]
mod fuzz;

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// Longer than any fixture takes in a debug build; a hang takes for ever.
const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn every_fuzz_fixture_passes_its_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut ran = 0;
    for entry in std::fs::read_dir(&root).expect("tests/data/fuzz") {
        let dir = entry.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let Some(&(_, body)) = fuzz::TARGETS.iter().find(|(t, _)| *t == name) else {
            panic!("tests/data/fuzz/{name}: not a fuzz target");
        };
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("target folder")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).expect("fixture");
            let (tx, rx) = mpsc::channel();
            // On a thread, so a hang is a failure after LIMIT, not a CI run that never ends.
            std::thread::spawn(move || {
                let result = std::panic::catch_unwind(|| body(&data));
                let _ = tx.send(result.is_ok());
            });
            match rx.recv_timeout(LIMIT) {
                Ok(true) => ran += 1,
                Ok(false) => panic!("{}: the {name} target fails on it", file.display()),
                Err(_) => panic!("{}: the {name} target hangs on it", file.display()),
            }
        }
    }
    assert!(ran > 0, "no fixture under tests/data/fuzz");
}
