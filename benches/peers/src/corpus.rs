//! The read benchmark's corpus: ~10 MB of generated card definitions,
//! rendered as EDN and as the same content in JSON. Generated from a fixed
//! seed, so nothing large is committed and every run reads the same text.

use std::fmt::Write as _;

/// About how many bytes of EDN to generate.
pub const TARGET_BYTES: usize = 10 * 1024 * 1024;

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
pub fn corpus() -> (String, String, usize) {
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
