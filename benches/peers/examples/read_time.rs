//! The read benchmark's two main readers timed by hand, alternating in one
//! process, best of N: steadier than criterion's medians for before/after
//! comparisons of the reader, and quick (`cargo run --release --example
//! read_time [N] [grimoire|serde_json]`; naming one reader times only it, for
//! a profiler). Each timed read includes dropping what it read.

use std::hint::black_box;
use std::time::{Duration, Instant};

use grimoire_peers::corpus::corpus;

fn best(times: &[Duration]) -> Duration {
    times.iter().copied().min().unwrap_or_default()
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(15);
    let only = std::env::args().nth(2);
    let runs = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let (edn, json, cards) = corpus();
    let arena = grimoire::syntax::Arena::new();
    let read = grimoire::syntax::read(&arena, &edn);
    assert!(read.errors.is_empty() && read.forms.len() == 1);
    drop(read);
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        if runs("grimoire") {
            let t = Instant::now();
            // A fresh arena each read, dropped with what was read.
            let arena = grimoire::syntax::Arena::new();
            black_box(&grimoire::syntax::read(&arena, black_box(&edn)));
            drop(arena);
            ours.push(t.elapsed());
        }
        if runs("serde_json") {
            let t = Instant::now();
            drop(black_box(
                serde_json::from_str::<serde_json::Value>(black_box(&json)).expect("valid JSON"),
            ));
            theirs.push(t.elapsed());
        }
    }
    let mib = |bytes: usize, t: Duration| bytes as f64 / 1048576.0 / t.as_secs_f64();
    let (g, s) = (best(&ours), best(&theirs));
    println!("{cards} cards, best of {rounds}");
    println!(
        "grimoire   {:>8.2} ms  {:>6.1} MiB/s (EDN, {} bytes)",
        g.as_secs_f64() * 1e3,
        mib(edn.len(), g),
        edn.len()
    );
    println!(
        "serde_json {:>8.2} ms  {:>6.1} MiB/s (JSON, {} bytes)",
        s.as_secs_f64() * 1e3,
        mib(json.len(), s),
        json.len()
    );
    println!(
        "serde_json takes {:.2}x grimoire's time for the same content",
        s.as_secs_f64() / g.as_secs_f64()
    );
}
