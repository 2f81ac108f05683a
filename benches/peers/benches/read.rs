//! Reading ~10 MB of card definitions: grimoire's reader against serde_json
//! (the same content written as JSON) and edn-rs (the same EDN text).
//!
//! The text is generated here, deterministically, so nothing large is committed.
//! Before timing, all three results are converted to `serde_json::Value` and
//! compared, so every reader is known to have read the same content.

use std::fmt::Write as _;
use std::hint::black_box;
use std::str::FromStr;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use grimoire::syntax::{Form, Kind};
use serde_json::Value;

/// About how many bytes of EDN to generate.
const TARGET_BYTES: usize = 10 * 1024 * 1024;

// ---------------------------------------------------------------------------
// The generated content, rendered twice.

/// A small value tree, rendered both as EDN and as JSON.
enum V {
    Int(i64),
    Dec(f64),
    Str(String),
    Kw(&'static str),
    Sym(&'static str),
    Vec(Vec<V>),
    /// Keyword keys only, so JSON can write them as strings.
    Map(Vec<(&'static str, V)>),
}

/// A fixed-seed xorshift generator: the text is the same on every run and machine.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

const ATTRS: &[&str] = &[
    "tower", "wall", "quarry", "bricks", "magic", "gems", "zoo", "beasts",
];
const WHO: &[&str] = &["you", "other"];
const CMPS: &[&str] = &["=", "not=", "<", ">", "<=", ">="];
const FOLDS: &[&str] = &["+", "-", "max", "min", "*"];
const WORDS: &[&str] = &[
    "Wall",
    "Tower",
    "Quarry",
    "Bricks",
    "Magic",
    "Gems",
    "Zoo",
    "Beasts",
    "damage",
    "enemy",
    "player",
    "each",
    "if",
    "otherwise",
    "all",
    "gain",
    "lose",
];
const NAMES: &[&str] = &[
    "Foundations",
    "Brick Shortage",
    "Lucky Cache",
    "Friendly Terrain",
    "Miners",
    "Mother Lode",
    "Dwarven Miners",
    "Work Overtime",
    "Copping the Tech",
    "Basic Wall",
    "Sturdy Wall",
    "Innovations",
    "Quartz",
    "Smoky Quartz",
    "Amethyst",
    "Spell Weavers",
    "Prism",
    "Lodestone",
    "Solar Flare",
    "Gemstone Flaw",
    "Faerie",
    "Moody Goblins",
    "Spearman",
    "Gnome",
    "Orc",
    "Goblin Archers",
    "Dragon",
    "Succubus",
];

fn kw(name: &'static str) -> V {
    V::Kw(name)
}

fn attr_ref(g: &mut Gen) -> V {
    V::Vec(vec![kw(g.pick(WHO)), kw(g.pick(ATTRS))])
}

/// An integer expression a few levels deep.
fn amount(g: &mut Gen, depth: u32) -> V {
    match if depth == 0 { 0 } else { g.below(6) } {
        0 | 1 => V::Int(g.int(-12, 12)),
        2 => attr_ref(g),
        3 => V::Vec(vec![
            V::Sym(g.pick(CMPS)),
            attr_ref(g),
            V::Int(g.int(0, 20)),
            amount(g, depth - 1),
            amount(g, depth - 1),
        ]),
        4 => {
            let mut items = vec![V::Sym(g.pick(FOLDS))];
            for _ in 0..g.int(2, 3) {
                items.push(amount(g, depth - 1));
            }
            V::Vec(items)
        }
        _ => V::Vec(vec![
            V::Sym("if"),
            V::Vec(vec![
                V::Sym("chance"),
                V::Dec(g.pick(&[0.25, 0.5, 0.125, 0.75])),
            ]),
            amount(g, depth - 1),
            amount(g, depth - 1),
        ]),
    }
}

fn effect(g: &mut Gen) -> V {
    let resource = if g.below(5) == 0 {
        "damage"
    } else {
        g.pick(ATTRS)
    };
    V::Map(vec![
        ("effected", kw(g.pick(WHO))),
        ("resource", kw(resource)),
        ("amount", amount(g, 3)),
    ])
}

fn text(g: &mut Gen) -> String {
    let mut s = String::new();
    for i in 0..g.int(4, 14) {
        if i > 0 {
            s.push(' ');
        }
        match g.below(12) {
            0 => {
                let _ = write!(s, "+{}", g.int(1, 20));
            }
            1 => s.push_str("\\\"quoted\\\""),
            2 => s.push('\u{2014}'),
            _ => s.push_str(g.pick(WORDS)),
        }
    }
    s
}

fn card(g: &mut Gen, i: usize) -> V {
    let mut effects = Vec::new();
    for _ in 0..g.int(1, 4) {
        effects.push(effect(g));
    }
    V::Map(vec![
        ("card", V::Str(format!("{} {i}", g.pick(NAMES)))),
        ("cost", V::Int(g.int(0, 40))),
        ("color", kw(g.pick(&["bricks", "gems", "beasts"]))),
        ("text", V::Str(text(g))),
        ("effects", V::Vec(effects)),
    ])
}

fn edn(v: &V, out: &mut String) {
    match v {
        V::Int(n) => {
            let _ = write!(out, "{n}");
        }
        V::Dec(d) => {
            let _ = write!(out, "{d:?}");
        }
        V::Str(s) => {
            out.push('"');
            out.push_str(s); // already escaped
            out.push('"');
        }
        V::Kw(k) => {
            out.push(':');
            out.push_str(k);
        }
        V::Sym(s) => out.push_str(s),
        V::Vec(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                edn(item, out);
            }
            out.push(']');
        }
        V::Map(pairs) => {
            out.push('{');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push(':');
                out.push_str(k);
                out.push(' ');
                edn(v, out);
            }
            out.push('}');
        }
    }
}

/// Keywords become `":name"`, symbols `"name"`, keyword keys `":name"`.
fn json(v: &V, out: &mut String) {
    match v {
        V::Int(_) | V::Dec(_) | V::Str(_) => edn(v, out),
        V::Kw(k) => {
            out.push_str("\":");
            out.push_str(k);
            out.push('"');
        }
        V::Sym(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        V::Vec(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json(item, out);
            }
            out.push(']');
        }
        V::Map(pairs) => {
            out.push('{');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str("\":");
                out.push_str(k);
                out.push_str("\":");
                json(v, out);
            }
            out.push('}');
        }
    }
}

/// The corpus: one top-level vector of cards, as EDN and as JSON, and the card count.
fn corpus() -> (String, String, usize) {
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let mut edn_text = String::with_capacity(TARGET_BYTES + 4096);
    let mut json_text = String::with_capacity(TARGET_BYTES * 5 / 4);
    edn_text.push_str("[\n");
    json_text.push_str("[\n");
    let mut cards = 0;
    while edn_text.len() < TARGET_BYTES {
        let c = card(&mut g, cards);
        if cards > 0 {
            edn_text.push('\n');
            json_text.push_str(",\n");
        }
        edn(&c, &mut edn_text);
        json(&c, &mut json_text);
        cards += 1;
    }
    edn_text.push_str("]\n");
    json_text.push_str("]\n");
    (edn_text, json_text, cards)
}

// ---------------------------------------------------------------------------
// Same-content checks: everything is converted to serde_json::Value.

fn num(n: i64) -> Value {
    Value::from(n)
}

fn from_form(f: &Form<'_>) -> Value {
    match &f.kind {
        Kind::Int(n) => num(*n),
        Kind::Dec(d) => Value::from(*d),
        Kind::Str(s) => Value::from(s.as_ref()),
        Kind::Keyword(k) => Value::from(format!(":{k}")),
        Kind::Symbol(s) => Value::from(*s),
        Kind::Vector(items) => Value::Array(items.iter().map(from_form).collect()),
        Kind::Map(pairs) => Value::Object(
            pairs
                .iter()
                .map(|(k, v)| {
                    let Value::String(key) = from_form(k) else {
                        panic!("non-keyword key")
                    };
                    (key, from_form(v))
                })
                .collect(),
        ),
        other => panic!("unexpected form in corpus: {other:?}"),
    }
}

fn from_edn_rs(e: edn_rs::Edn) -> Value {
    use edn_rs::Edn;
    match e {
        Edn::Int(n) => num(n),
        Edn::UInt(n) => Value::from(n),
        Edn::Double(_) => Value::from(e.to_float().expect("double")),
        Edn::Str(s) => Value::from(s),
        Edn::Key(k) => Value::from(k),
        Edn::Symbol(s) => Value::from(s),
        Edn::Vector(v) => Value::Array(v.to_vec().into_iter().map(from_edn_rs).collect()),
        Edn::Map(m) => Value::Object(
            m.to_map()
                .into_iter()
                .map(|(k, v)| (k, from_edn_rs(v)))
                .collect(),
        ),
        other => panic!("unexpected edn-rs value in corpus: {other:?}"),
    }
}

/// Compares maps without regard to key order (edn-rs keeps its maps sorted).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// The end of the `n`th card line, for cutting a smaller, still valid EDN slice.
fn first_cards(edn_text: &str, n: usize) -> String {
    let end = edn_text
        .match_indices('\n')
        .nth(n)
        .map_or(edn_text.len(), |(i, _)| i);
    let mut s = edn_text[..end].to_string();
    s.push_str("]\n");
    s
}

// ---------------------------------------------------------------------------

fn bench_read(c: &mut Criterion) {
    let (edn_text, json_text, cards) = corpus();
    eprintln!(
        "corpus: {cards} cards, EDN {} bytes, JSON {} bytes",
        edn_text.len(),
        json_text.len()
    );

    // Same content, checked once before any timing.
    let read = grimoire::syntax::read(&edn_text);
    assert!(
        read.errors.is_empty(),
        "grimoire read errors: {:?}",
        &read.errors[..read.errors.len().min(3)]
    );
    assert_eq!(read.forms.len(), 1);
    let from_grimoire = from_form(&read.forms[0]);
    drop(read);
    let from_json: Value = serde_json::from_str(&json_text).expect("valid JSON");
    assert_eq!(from_json.as_array().map(Vec::len), Some(cards));
    assert!(
        same(&from_grimoire, &from_json),
        "grimoire and serde_json read different content"
    );

    // edn-rs: the whole text if it copes, else a slice (set GRIMOIRE_EDN_RS_CARDS).
    let edn_rs_text = match std::env::var("GRIMOIRE_EDN_RS_CARDS") {
        Ok(n) => first_cards(&edn_text, n.parse().expect("a card count")),
        Err(_) => edn_text.clone(),
    };
    let t = std::time::Instant::now();
    let from_edn =
        from_edn_rs(edn_rs::Edn::from_str(&edn_rs_text).expect("edn-rs parses the corpus"));
    eprintln!(
        "edn-rs: one parse of {} bytes took {:?}",
        edn_rs_text.len(),
        t.elapsed()
    );
    let n = from_edn.as_array().map_or(0, Vec::len);
    let prefix = Value::Array(from_json.as_array().expect("array")[..n].to_vec());
    assert!(
        same(&from_edn, &prefix),
        "edn-rs and serde_json read different content"
    );
    drop((from_grimoire, from_json, from_edn, prefix));

    let mut group = c.benchmark_group("read");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(2));

    group.throughput(Throughput::Bytes(edn_text.len() as u64));
    group.bench_function("grimoire", |b| {
        b.iter(|| grimoire::syntax::read(black_box(&edn_text)))
    });

    group.throughput(Throughput::Bytes(json_text.len() as u64));
    group.bench_function("serde_json_value", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&json_text)).unwrap())
    });

    group.throughput(Throughput::Bytes(edn_rs_text.len() as u64));
    group.bench_function("edn_rs", |b| {
        b.iter(|| edn_rs::Edn::from_str(black_box(&edn_rs_text)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench_read);
criterion_main!(benches);
