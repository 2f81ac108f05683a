//! Expressions printed in the language's own syntax (`[ceil [/ [:other :gems] 2]]`),
//! with every name the rule set gives them: for amounts too long for words.

use super::En;
use super::words::Bound;
use crate::check::ast::{
    Arith, Bool, Cmp, Dec, Entity, Filter, Int, Polarity, Rounding, category_bit,
};
use crate::ids::{CategoryId, RoleId};

fn cmp_symbol(c: Cmp) -> &'static str {
    match c {
        Cmp::Eq => "=",
        Cmp::Ne => "not=",
        Cmp::Lt => "<",
        Cmp::Gt => ">",
        Cmp::Le => "<=",
        Cmp::Ge => ">=",
    }
}

fn arith_symbol(a: Arith) -> &'static str {
    match a {
        Arith::Add => "+",
        Arith::Sub => "-",
        Arith::Mul => "*",
        Arith::Min => "min",
        Arith::Max => "max",
    }
}

/// A decimal as the language writes it: `1.5`, `2.0`.
fn decimal(d: f64) -> String {
    format!("{d:?}")
}

impl En<'_> {
    fn role_syntax(&self, r: RoleId) -> String {
        let r = r.index();
        if let Some(name) = self.rules.roles.get(RoleId::new(r)) {
            return format!(":{name}");
        }
        match self.bound.get(r - self.rules.roles.len()) {
            Some(Bound::Each(_) | Bound::Card) => ":self".into(),
            Some(Bound::Name(n)) => format!(":{n}"),
            None => format!(":role{r}"),
        }
    }

    pub(super) fn entity_syntax(&self, e: &Entity, out: &mut String) {
        match e {
            Entity::Role(r) => out.push_str(&self.role_syntax(*r)),
            Entity::Target => out.push_str(":target"),
            Entity::ThisCard => out.push_str(":this-card"),
            Entity::If(c, a, b) => {
                self.if_syntax(c, out);
                out.push(' ');
                self.entity_syntax(a, out);
                out.push(' ');
                self.entity_syntax(b, out);
                out.push(']');
            }
        }
    }

    /// The head of simple logic on `c`, without its branches or closing
    /// bracket: `[< [:you :quarry] [:other :quarry]`, `[and c1 c2`, `[if c`.
    fn if_syntax(&self, c: &Bool, out: &mut String) {
        match c {
            Bool::CmpInt(..)
            | Bool::AttrCmp(..)
            | Bool::CmpDec(..)
            | Bool::And(..)
            | Bool::Or(..) => {
                self.bool_syntax(c, out);
                out.pop();
            }
            _ => {
                out.push_str("[if ");
                self.bool_syntax(c, out);
            }
        }
    }

    pub(super) fn int_syntax(&self, e: &Int, out: &mut String) {
        let list = |head: &str, items: &[&Int], out: &mut String| {
            out.push('[');
            out.push_str(head);
            for i in items {
                out.push(' ');
                self.int_syntax(i, out);
            }
            out.push(']');
        };
        match e {
            Int::Lit(n) => out.push_str(&n.to_string()),
            Int::Attr(who, a) => {
                out.push('[');
                self.entity_syntax(who, out);
                out.push_str(&format!(" :{}]", self.attr(*a)));
            }
            Int::Amount => out.push_str(":amount"),
            Int::Magnitude => out.push_str(":magnitude"),
            Int::Arg(i) => out.push_str(&format!(":arg{}", i + 1)),
            Int::Fold(op, items) => {
                let items: Vec<&Int> = items.iter().collect();
                list(arith_symbol(*op), &items, out);
            }
            Int::Neg(x) => list("-", &[x], out),
            Int::If(c, a, b) => {
                self.if_syntax(c, out);
                out.push(' ');
                self.int_syntax(a, out);
                out.push(' ');
                self.int_syntax(b, out);
                out.push(']');
            }
            &Int::Pick(cmp, r, a, n, then, other) => out.push_str(&format!(
                "[{} [{} :{}] {n} {then} {other}]",
                cmp_symbol(cmp),
                self.role_syntax(r),
                self.attr(a)
            )),
            Int::Round(r, d) => {
                out.push_str(match r {
                    Rounding::Nearest => "[round ",
                    Rounding::Floor => "[floor ",
                    Rounding::Ceil => "[ceil ",
                });
                self.dec_syntax(d, out);
                out.push(']');
            }
            Int::Random(lo, hi) => list("random", &[lo, hi], out),
            Int::Statuses(who, f) | Int::TurnsLeft(who, f) => {
                out.push_str(if matches!(e, Int::Statuses(..)) {
                    "[statuses "
                } else {
                    "[turns-left "
                });
                self.entity_syntax(who, out);
                for k in self.filter_keywords(f) {
                    out.push(' ');
                    out.push_str(&k);
                }
                out.push(']');
            }
            Int::Abs(x) => list("abs", &[x], out),
            Int::Count(over) | Int::Sum(over) => {
                let count = matches!(e, Int::Count(_));
                out.push_str(if count { "[count " } else { "[sum " });
                self.source_syntax(&over.source, out);
                // Inside, `:self` is each entity counted: said as written.
                let mut inner = En {
                    rules: self.rules,
                    bound: self.bound.clone(),
                    args: self.args.clone(),
                    depth: self.depth,
                };
                inner.bind_source(over.outer, &over.source);
                if !count {
                    out.push(' ');
                    inner.int_syntax(&over.value, out);
                }
                if let Some(c) = &over.filter {
                    out.push(' ');
                    inner.bool_syntax(c, out);
                }
                out.push(']');
            }
            Int::Formula(f) => match self
                .rules
                .formulas
                .iter()
                .find(|(_, d)| std::sync::Arc::ptr_eq(d, &f.def))
            {
                Some((name, _)) => {
                    let items: Vec<&Int> = f.args.iter().collect();
                    list(&format!("formula :{name}"), &items, out);
                }
                None => self.int_syntax(&f.def.body, out),
            },
            Int::Lookup(l) => {
                let name = self
                    .rules
                    .lookups
                    .iter()
                    .find(|(_, t)| *t == l.0)
                    .map_or("?", |(n, _)| n.as_str());
                list(&format!("lookup :{name}"), &[&l.1], out);
            }
            Int::Dice(d) => out.push_str(&d.to_string()),
            Int::Roll(r) => {
                out.push_str(&format!("[+ {} ", r.0));
                self.int_syntax(&r.1, out);
                out.push(']');
            }
            Int::Best(higher, x) => list(
                if *higher { "advantage" } else { "disadvantage" },
                &[x],
                out,
            ),
            Int::Event(field) => out.push_str(match field {
                crate::check::ast::EventField::Amount => "[event :amount]",
                crate::check::ast::EventField::Position => "[event :position]",
            }),
            Int::Choice(values) => {
                let field = self
                    .rules
                    .choice_columns
                    .iter()
                    .find(|(_, v)| **v == **values)
                    .map_or("?", |(name, _)| name.as_str());
                out.push_str(&format!("[choice :{field}]"));
            }
            Int::Extreme(..) | Int::Edge(..) | Int::Slot(_) => self.card_int_syntax(e, out),
        }
    }

    fn dec_syntax(&self, e: &Dec, out: &mut String) {
        let list = |head: &str, items: &[&Dec], out: &mut String| {
            out.push('[');
            out.push_str(head);
            for i in items {
                out.push(' ');
                self.dec_syntax(i, out);
            }
            out.push(']');
        };
        match e {
            Dec::Lit(d) => out.push_str(&decimal(*d)),
            Dec::Int(i) => self.int_syntax(i, out),
            Dec::Fold(op, items) => {
                let items: Vec<&Dec> = items.iter().collect();
                list(arith_symbol(*op), &items, out);
            }
            Dec::Neg(x) => list("-", &[x], out),
            Dec::Div(a, b) => list("/", &[a, b], out),
            Dec::If(c, a, b) => {
                self.if_syntax(c, out);
                out.push(' ');
                self.dec_syntax(a, out);
                out.push(' ');
                self.dec_syntax(b, out);
                out.push(']');
            }
        }
    }

    pub(super) fn bool_syntax(&self, c: &Bool, out: &mut String) {
        let pair = |head: &str, a: &Bool, b: &Bool, out: &mut String| {
            out.push_str(&format!("[{head} "));
            self.bool_syntax(a, out);
            out.push(' ');
            self.bool_syntax(b, out);
            out.push(']');
        };
        match c {
            Bool::Lit(b) => out.push_str(&b.to_string()),
            Bool::CmpInt(cmp, a, b) => {
                out.push_str(&format!("[{} ", cmp_symbol(*cmp)));
                self.int_syntax(a, out);
                out.push(' ');
                self.int_syntax(b, out);
                out.push(']');
            }
            &Bool::AttrCmp(cmp, r, a, n) => out.push_str(&format!(
                "[{} [{} :{}] {n}]",
                cmp_symbol(cmp),
                self.role_syntax(r),
                self.attr(a)
            )),
            Bool::CmpDec(cmp, a, b) => {
                out.push_str(&format!("[{} ", cmp_symbol(*cmp)));
                self.dec_syntax(a, out);
                out.push(' ');
                self.dec_syntax(b, out);
                out.push(']');
            }
            Bool::And(a, b) => pair("and", a, b, out),
            Bool::Or(a, b) => pair("or", a, b, out),
            Bool::Not(a) => {
                out.push_str("[not ");
                self.bool_syntax(a, out);
                out.push(']');
            }
            Bool::If(c, a, b) => {
                out.push_str("[if ");
                self.bool_syntax(c, out);
                out.push(' ');
                self.bool_syntax(a, out);
                out.push(' ');
                self.bool_syntax(b, out);
                out.push(']');
            }
            Bool::Chance(p) => {
                out.push_str("[chance ");
                self.dec_syntax(p, out);
                out.push(']');
            }
            Bool::Has(has) => {
                out.push_str("[has ");
                self.entity_syntax(&has.0, out);
                for k in self.filter_keywords(&has.1) {
                    out.push(' ');
                    out.push_str(&k);
                }
                out.push(']');
            }
            Bool::Same(a, b) => {
                out.push_str("[= ");
                self.entity_syntax(a, out);
                out.push(' ');
                self.entity_syntax(b, out);
                out.push(']');
            }
            Bool::Named(_) | Bool::OfKind(..) | Bool::In(_) => self.card_bool_syntax(c, out),
        }
    }

    /// A filter's keywords: `:debuff :ecaHeal`, or `:any`.
    fn filter_keywords(&self, f: &Filter) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(s) = f.status {
            out.push(format!(":{}", self.status(s)));
        }
        for (i, c) in self.rules.categories.iter().enumerate() {
            if f.categories & category_bit(CategoryId::new(i)) != 0 {
                out.push(format!(":{c}"));
            }
        }
        match f.polarity {
            Some(Polarity::Buff) => out.push(":buff".into()),
            Some(Polarity::Debuff) => out.push(":debuff".into()),
            None => {}
        }
        if let Some(flag) = f.flag {
            let flag = self.rules.flags.get(flag).map_or("?", String::as_str);
            out.push(format!(":{flag}"));
        }
        if out.is_empty() {
            out.push(format!(":{}", crate::check::ANY));
        }
        out
    }
}
