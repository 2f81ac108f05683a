//! Amounts in English: integer and decimal expressions said as phrases that
//! know how tightly they bind, or in the language's syntax when too long.

use super::En;
use super::cases::higher_or_lower;
use super::words::{Ph, Prec, number};
use crate::check::ast::{
    Arith, Bool, Dec, Entity, Filter, Formula, Int, Lookup, Over, Rounding, Source,
};
use crate::check::list_and;
use crate::dice::Dice;

/// An English amount longer than this is shown in the language's syntax instead.
const MAX_PHRASE: usize = 90;

impl En<'_> {
    /// A literal or a roll, said before a resource's name: `(negative, "5")`, `(false, "1d6")`.
    pub(super) fn short(&self, amount: &Int) -> Option<(bool, String)> {
        match amount {
            Int::Lit(n) => Some((*n < 0, n.unsigned_abs().to_string())),
            Int::Dice(d) => Some((false, d.to_string())),
            Int::Neg(x) => match &**x {
                Int::Dice(d) => Some((true, d.to_string())),
                _ => None,
            },
            _ => None,
        }
    }

    /// An amount in English, or in the language's syntax when the English
    /// would be too long to read.
    pub(super) fn amount(&mut self, e: &Int) -> String {
        let words = self.int(e).0;
        if words.len() <= MAX_PHRASE {
            return words;
        }
        let mut out = String::new();
        self.int_syntax(e, &mut out);
        format!("`{out}`")
    }

    /// An integer expression as an English phrase.
    pub(super) fn int(&mut self, e: &Int) -> Ph {
        match e {
            Int::Lit(n) => Ph(n.to_string(), Prec::Atom),
            Int::Attr(who, a) => {
                let who = self.who(who);
                Ph(
                    format!("{} {}", who.possessive(), self.attr(*a)),
                    Prec::Atom,
                )
            }
            Int::Amount => Ph("the amount".into(), Prec::Atom),
            Int::Magnitude => Ph("the magnitude".into(), Prec::Atom),
            Int::Arg(i) => Ph(
                self.args
                    .get(usize::from(*i))
                    .cloned()
                    .unwrap_or_else(|| format!("argument {}", i + 1)),
                Prec::Atom,
            ),
            Int::Fold(op, items) => {
                let items: Vec<Ph> = items.iter().map(|i| self.int(i)).collect();
                self.fold(*op, items)
            }
            Int::Neg(x) => Ph(format!("-{}", self.int(x).at(Prec::Atom)), Prec::Product),
            Int::If(c, a, b) => self.int_if(c, a, b),
            &Int::Pick(cmp, r, a, n, then, other) => {
                let c = self.cond(&Bool::AttrCmp(cmp, r, a, n));
                Ph(format!("{then} if {c}, otherwise {other}"), Prec::Phrase)
            }
            Int::Round(r, d) => self.rounded(*r, d),
            Int::Random(lo, hi) => {
                let (lo, hi) = (self.int(lo).at(Prec::Sum), self.int(hi).at(Prec::Sum));
                Ph(format!("a random number from {lo} to {hi}"), Prec::Phrase)
            }
            Int::Statuses(who, f) => self.statuses(who, f),
            Int::TurnsLeft(who, f) => self.turns_left(who, f),
            Int::Abs(x) => match &**x {
                Int::Fold(Arith::Sub, items) if items.len() == 2 => {
                    let (a, b) = self.pair(&items[0], &items[1]);
                    Ph(format!("the difference between {a} and {b}"), Prec::Phrase)
                }
                _ => Ph(format!("|{}|", self.int(x).0), Prec::Atom),
            },
            Int::Count(over) => self.count(over),
            Int::Sum(over) => self.sum(over),
            Int::Extreme(max, over) => {
                self.over_cards(if *max { "highest" } else { "lowest" }, over)
            }
            Int::Edge(top, edge) => self.edge_words(*top, edge),
            Int::Slot(who) => {
                let who = self.who(who);
                Ph(format!("{} slot", who.possessive()), Prec::Atom)
            }
            Int::Formula(f) => self.formula(f),
            Int::Lookup(l) => self.lookup(l),
            Int::Dice(d) => Ph(d.to_string(), Prec::Atom),
            Int::Roll(r) => self.roll(r),
            Int::Best(higher, x) => Ph(
                format!(
                    "{} with {}",
                    self.int(x).at(Prec::Sum),
                    if *higher { "advantage" } else { "disadvantage" }
                ),
                Prec::Phrase,
            ),
            Int::Choice(values) => self.choice(values),
            Int::Event(crate::check::ast::EventField::Amount) => {
                Ph("the amount it changed by".to_string(), Prec::Phrase)
            }
            Int::Event(crate::check::ast::EventField::Position) => {
                Ph("its place".to_string(), Prec::Phrase)
            }
        }
    }

    /// `[< a b x y]` as an amount: "the higher of a and b", or both values
    /// with the condition between them.
    fn int_if(&mut self, c: &Bool, a: &Int, b: &Int) -> Ph {
        match higher_or_lower(c, a, b) {
            Some(higher) => {
                let (x, y) = match c {
                    Bool::CmpInt(_, x, y) => (&**x, &**y),
                    _ => (a, b),
                };
                let (x, y) = self.pair(x, y);
                let which = if higher { "higher" } else { "lower" };
                Ph(format!("the {which} of {x} and {y}"), Prec::Phrase)
            }
            None => {
                let (a, b) = (self.int(a).at(Prec::Sum), self.int(b).at(Prec::Sum));
                Ph(
                    format!("{a} if {}, otherwise {b}", self.cond(c)),
                    Prec::Phrase,
                )
            }
        }
    }

    /// `[round d]`, `[floor d]`, `[ceil d]`: "half of x (rounded up)".
    fn rounded(&mut self, r: Rounding, d: &Dec) -> Ph {
        let how = match r {
            Rounding::Nearest => "rounded",
            Rounding::Floor => "rounded down",
            Rounding::Ceil => "rounded up",
        };
        let d = self.dec(d);
        let d = if d.1 == Prec::Phrase && d.0.contains(',') {
            format!("({})", d.0)
        } else {
            d.0
        };
        Ph(format!("{d} ({how})"), Prec::Phrase)
    }

    /// `[statuses who …]`: how many statuses an entity holds.
    fn statuses(&mut self, who: &Entity, f: &Filter) -> Ph {
        let who = self.who(who);
        Ph(
            format!(
                "the number of {} {} {}",
                self.filter_noun(f, true),
                who.subject(),
                who.verb("hold", "holds")
            ),
            Prec::Phrase,
        )
    }

    /// `[turns-left who …]`: the turns left of the statuses an entity holds.
    fn turns_left(&mut self, who: &Entity, f: &Filter) -> Ph {
        let who = self.who(who);
        Ph(
            format!(
                "the turns left of {} {}",
                who.possessive(),
                self.filter_noun(f, true)
            ),
            Prec::Phrase,
        )
    }

    /// `[count KIND where]`: "the number of units in play with …".
    fn count(&mut self, over: &Over) -> Ph {
        let Source::Kind(kind) = over.source else {
            return self.count_cards(over);
        };
        let saved = self.bind_self(over.outer, kind);
        let filter = over
            .filter
            .as_ref()
            .map(|c| self.where_clause(c))
            .unwrap_or_default();
        self.bound = saved;
        Ph(
            format!("the number of {} in play{filter}", self.kinds(kind)),
            Prec::Phrase,
        )
    }

    /// `[sum KIND value where]`: "the total wall of the players in play".
    fn sum(&mut self, over: &Over) -> Ph {
        let Source::Kind(kind) = over.source else {
            return self.over_cards("total", over);
        };
        let saved = self.bind_self(over.outer, kind);
        let filter = over
            .filter
            .as_ref()
            .map(|c| self.where_clause(c))
            .unwrap_or_default();
        let kinds = self.kinds(kind);
        let text = match &over.value {
            Int::Attr(Entity::Role(r), a) if (*r).index() == over.outer.index() => {
                format!("the total {} of the {kinds} in play{filter}", self.attr(*a))
            }
            v => format!(
                "the sum of {} over the {kinds} in play{filter}",
                self.int(v).at(Prec::Sum)
            ),
        };
        self.bound = saved;
        Ph(text, Prec::Phrase)
    }

    /// `[formula :name args…]`: by its name if the rule set has one for it,
    /// else its body with the arguments said in.
    fn formula(&mut self, f: &Formula) -> Ph {
        let args: Vec<String> = f.args.iter().map(|a| self.int(a).words()).collect();
        match self
            .rules
            .formulas
            .iter()
            .find(|(_, d)| std::sync::Arc::ptr_eq(d, &f.def))
        {
            Some((name, _)) => Ph(
                format!("the {name} formula of {}", list_and(args)),
                Prec::Phrase,
            ),
            None => {
                let saved = std::mem::replace(&mut self.args, args);
                let body = self.int(&f.def.body);
                self.args = saved;
                body
            }
        }
    }

    /// `[lookup :name x]`: "the index table's value for x".
    fn lookup(&mut self, l: &(Lookup, Int)) -> Ph {
        let x = self.int(&l.1).words();
        match self.rules.lookups.iter().find(|(_, t)| *t == l.0) {
            Some((name, _)) => Ph(format!("the {name} table's value for {x}"), Prec::Phrase),
            None => Ph(format!("a lookup table's value for {x}"), Prec::Phrase),
        }
    }

    /// `[+ 1d20 m]`: the roll and its modifier, "1d20 - 3".
    fn roll(&mut self, r: &(Dice, Int)) -> Ph {
        let m = self.int(&r.1);
        let m = m.at(Prec::Sum);
        match m.strip_prefix('-') {
            Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => {
                Ph(format!("{} - {rest}", r.0), Prec::Sum)
            }
            _ => Ph(format!("{} + {m}", r.0), Prec::Sum),
        }
    }

    /// `[choice :dodge]`: "the chosen option's dodge".
    fn choice(&self, values: &[i64]) -> Ph {
        let field = self
            .rules
            .choice_columns
            .iter()
            .find(|(_, v)| **v == *values)
            .map(|(name, _)| name.as_str());
        Ph(
            match field {
                Some(f) => format!("the chosen option's {f}"),
                None => "the chosen option's number".into(),
            },
            Prec::Atom,
        )
    }

    /// Two values side by side; the second said as "the enemy's" when both
    /// are the same attribute of two entities ("your quarry and the enemy's").
    pub(super) fn pair(&mut self, a: &Int, b: &Int) -> (String, String) {
        if let (Int::Attr(p, x), Int::Attr(q, y)) = (a, b)
            && x == y
            && p != q
        {
            let (p, q) = (self.who(p), self.who(q));
            return (format!("{} {}", p.possessive(), self.attr(*x)), q.own());
        }
        (self.int(a).at(Prec::Sum), self.int(b).at(Prec::Sum))
    }

    fn fold(&mut self, op: Arith, items: Vec<Ph>) -> Ph {
        match op {
            Arith::Add => {
                // `[+ x -3]` reads "x - 3".
                let mut text = String::new();
                for (n, item) in items.into_iter().enumerate() {
                    let item = item.at(Prec::Sum);
                    match item.strip_prefix('-') {
                        Some(rest) if n > 0 && rest.starts_with(|c: char| c.is_ascii_digit()) => {
                            text.push_str(" - ");
                            text.push_str(rest);
                        }
                        _ if n > 0 => {
                            text.push_str(" + ");
                            text.push_str(&item);
                        }
                        _ => text.push_str(&item),
                    }
                }
                Ph(text, Prec::Sum)
            }
            Arith::Sub => {
                let mut parts = items.into_iter();
                let first = parts.next().map(|p| p.at(Prec::Sum)).unwrap_or_default();
                let rest: Vec<String> = parts.map(|p| p.at(Prec::Product)).collect();
                Ph(
                    std::iter::once(first)
                        .chain(rest)
                        .collect::<Vec<_>>()
                        .join(" - "),
                    Prec::Sum,
                )
            }
            Arith::Mul => Ph(
                items
                    .into_iter()
                    .map(|i| i.at(Prec::Product))
                    .collect::<Vec<_>>()
                    .join(" × "),
                Prec::Product,
            ),
            Arith::Min | Arith::Max => {
                // "the higher of 0 and (the amount - the wall)": a sum in
                // parentheses, so its last term is not read as the list's.
                let items: Vec<String> = items
                    .into_iter()
                    .map(|i| match i.1 {
                        Prec::Phrase => i.words(),
                        Prec::Sum => format!("({})", i.0),
                        _ => i.0,
                    })
                    .collect();
                let which = match (op, items.len()) {
                    (Arith::Min, 2) => "lower",
                    (Arith::Min, _) => "lowest",
                    (_, 2) => "higher",
                    _ => "highest",
                };
                Ph(format!("the {which} of {}", list_and(items)), Prec::Phrase)
            }
        }
    }

    pub(super) fn dec(&mut self, e: &Dec) -> Ph {
        match e {
            Dec::Lit(d) => Ph(number(*d), Prec::Atom),
            Dec::Int(i) => self.int(i),
            Dec::Fold(op, items) => {
                let items: Vec<Ph> = items.iter().map(|i| self.dec(i)).collect();
                self.fold(*op, items)
            }
            Dec::Neg(x) => Ph(format!("-{}", self.dec(x).at(Prec::Atom)), Prec::Product),
            Dec::Div(a, b) => {
                let half = matches!(**b, Dec::Lit(d) if d == 2.0)
                    || matches!(&**b, Dec::Int(i) if **i == Int::Lit(2));
                if half {
                    let a = self.dec(a);
                    let a = if a.1 == Prec::Phrase {
                        a.words()
                    } else {
                        a.at(Prec::Product)
                    };
                    Ph(format!("half of {a}"), Prec::Phrase)
                } else {
                    let (a, b) = (self.dec(a).at(Prec::Product), self.dec(b).at(Prec::Atom));
                    Ph(format!("{a} / {b}"), Prec::Product)
                }
            }
            Dec::If(c, a, b) => {
                let (a, b) = (self.dec(a).at(Prec::Sum), self.dec(b).at(Prec::Sum));
                Ph(
                    format!("{a} if {}, otherwise {b}", self.cond(c)),
                    Prec::Phrase,
                )
            }
        }
    }
}
