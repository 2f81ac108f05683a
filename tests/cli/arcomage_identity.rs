//! Arcomage plays byte for byte as it did before cards became things in
//! zones (issue 30): the digest of every play log of 20 seeds under each
//! pairing of the computer players, and of two `simulate` runs' JSON, were
//! recorded before the zones work began, in `tests/data/arcomage-identity.txt`.
//!
//! A line that changes on purpose is recorded again with
//! `GRIMOIRE_WRITE_IDENTITY=1 cargo test --test cli arcomage_identity`, and
//! the commit says why (the search player's worlds no longer depend on the
//! true order of hidden cards, for one).

use crate::common::{self, text};

const RECORD: &str = "tests/data/arcomage-identity.txt";
const AIS: [&str; 3] = ["random", "greedy", "search"];

/// 64-bit FNV-1a, as hex: the same on every machine and every Rust.
fn digest(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// `(name, command)` of every run recorded.
fn runs() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for a in AIS {
        for b in AIS {
            for seed in 1..=20 {
                let args = [
                    "play",
                    "arcomage",
                    "--seed",
                    &seed.to_string(),
                    "--ai",
                    a,
                    "--ai",
                    b,
                ];
                out.push((
                    format!("play {a} {b} {seed}"),
                    args.iter().map(|s| s.to_string()).collect(),
                ));
            }
        }
    }
    for ai in [None, Some("greedy")] {
        let mut args = vec!["simulate", "arcomage", "--games", "2000", "--seed", "1"];
        args.extend(["--format", "json"]);
        args.extend(ai.iter().flat_map(|a| ["--ai", a]));
        out.push((
            format!("simulate {}", ai.unwrap_or("default")),
            args.iter().map(|s| s.to_string()).collect(),
        ));
    }
    out
}

#[test]
fn arcomage_plays_and_simulates_byte_for_byte_as_recorded() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lines = Vec::new();
    for (name, args) in runs() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = common::run_in(&args, "", Some(root));
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        lines.push(format!("{name} {}", digest(&out.stdout)));
    }
    let now = lines.join("\n") + "\n";
    let path = root.join(RECORD);
    if std::env::var_os("GRIMOIRE_WRITE_IDENTITY").is_some() {
        std::fs::write(&path, &now).expect("write the record");
        return;
    }
    let recorded = std::fs::read_to_string(&path).expect("the record");
    let changed: Vec<String> = recorded
        .lines()
        .zip(now.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("recorded {a}\n     now {b}"))
        .collect();
    assert!(
        changed.is_empty() && recorded.lines().count() == now.lines().count(),
        "{} of {} runs changed:\n{}",
        changed.len(),
        now.lines().count(),
        changed.join("\n")
    );
}
