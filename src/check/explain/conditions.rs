//! Conditions in English: clauses ("your wall is 0"), chances, and the
//! `:where` of a loop.

use super::En;
use super::words::{Bound, Person, Prec, percent};
use crate::check::ast::{Bool, Cmp, Dec, Entity, Int};
use crate::ids::{AttrId, RoleId};

fn cmp_words(c: Cmp) -> &'static str {
    match c {
        Cmp::Eq => "is",
        Cmp::Ne => "is not",
        Cmp::Lt => "is less than",
        Cmp::Gt => "is greater than",
        Cmp::Le => "is at most",
        Cmp::Ge => "is at least",
    }
}

fn negate(c: Cmp) -> Cmp {
    match c {
        Cmp::Eq => Cmp::Ne,
        Cmp::Ne => Cmp::Eq,
        Cmp::Lt => Cmp::Ge,
        Cmp::Ge => Cmp::Lt,
        Cmp::Gt => Cmp::Le,
        Cmp::Le => Cmp::Gt,
    }
}

impl En<'_> {
    /// "if your wall is 0", or "with a 50% chance".
    pub(super) fn when(&mut self, c: &Bool) -> String {
        match c {
            Bool::Chance(p) => format!("with {}", self.chance(p)),
            _ => format!("if {}", self.cond(c)),
        }
    }

    /// "a 50% chance".
    fn chance(&mut self, p: &Dec) -> String {
        let literal = match p {
            Dec::Lit(p) => Some(*p),
            Dec::Int(i) => match **i {
                Int::Lit(n) => Some(n as f64),
                _ => None,
            },
            _ => None,
        };
        match literal {
            Some(p) => format!("a {} chance", percent(p)),
            None => format!("a chance of {}", self.dec(p).0),
        }
    }

    /// A `:where` of an `{:each …}`, with `:self` bound: " with wall greater
    /// than 3", or " where …" for anything else.
    pub(super) fn where_clause(&mut self, c: &Bool) -> String {
        let self_attr = |i: &Int| match i {
            Int::Attr(Entity::Role(r), a) => Some((*r, *a)),
            _ => None,
        };
        let is_self = |en: &En, r: RoleId| {
            r.index() >= en.rules.roles.len()
                && matches!(
                    en.bound.get(r.index() - en.rules.roles.len()),
                    Some(Bound::Each(_) | Bound::Card)
                )
                && r.index() + 1 == en.rules.roles.len() + en.bound.len()
        };
        let with = |cmp: Cmp| match cmp {
            Cmp::Eq => "equal to",
            Cmp::Ne => "other than",
            Cmp::Lt => "less than",
            Cmp::Gt => "greater than",
            Cmp::Le => "at most",
            Cmp::Ge => "at least",
        };
        match c {
            &Bool::AttrCmp(cmp, r, a, n) if is_self(self, r) => {
                format!(" with {} {} {n}", self.attr(a), with(cmp))
            }
            Bool::CmpInt(cmp, x, y) if self_attr(x).is_some_and(|(r, _)| is_self(self, r)) => {
                let a = self_attr(x).map_or(AttrId::FIRST, |(_, a)| a);
                let y = self.int(y).at(Prec::Sum);
                format!(" with {} {} {y}", self.attr(a), with(*cmp))
            }
            _ => format!(" where {}", self.cond(c)),
        }
    }

    /// A condition as a clause: "your wall is 0", "you hold a debuff".
    pub(super) fn cond(&mut self, c: &Bool) -> String {
        match c {
            Bool::Lit(b) => b.to_string(),
            Bool::CmpInt(cmp, a, b) => {
                let (a, b) = self.pair(a, b);
                format!("{a} {} {b}", cmp_words(*cmp))
            }
            &Bool::AttrCmp(cmp, r, a, n) => {
                let who = self.role(r);
                format!(
                    "{} {} {} {n}",
                    who.possessive(),
                    self.attr(a),
                    cmp_words(cmp)
                )
            }
            Bool::CmpDec(cmp, a, b) => {
                let (a, b) = (self.dec(a).at(Prec::Sum), self.dec(b).at(Prec::Sum));
                format!("{a} {} {b}", cmp_words(*cmp))
            }
            Bool::And(a, b) => format!("{} and {}", self.cond_part(a), self.cond_part(b)),
            Bool::Or(a, b) => format!("{} or {}", self.cond_part(a), self.cond_part(b)),
            Bool::Not(x) => match &**x {
                Bool::CmpInt(cmp, a, b) => {
                    self.cond(&Bool::CmpInt(negate(*cmp), a.clone(), b.clone()))
                }
                &Bool::AttrCmp(cmp, r, a, n) => self.cond(&Bool::AttrCmp(negate(cmp), r, a, n)),
                Bool::CmpDec(cmp, a, b) => {
                    self.cond(&Bool::CmpDec(negate(*cmp), a.clone(), b.clone()))
                }
                Bool::Has(has) => {
                    let who = self.who(&has.0);
                    format!(
                        "{} {} not hold a {}",
                        who.subject(),
                        who.verb("do", "does"),
                        self.filter_noun(&has.1, false)
                    )
                }
                Bool::Same(a, b) => {
                    let (a, b) = self.same(a, b);
                    format!("{a} not {b}")
                }
                Bool::Chance(p) => format!("{} fails", self.chance(p)),
                other => format!("not ({})", self.cond(other)),
            },
            Bool::If(c, a, b) => format!(
                "({} if {}, otherwise {})",
                self.cond(a),
                self.cond(c),
                self.cond(b)
            ),
            Bool::Chance(p) => format!("{} comes up", self.chance(p)),
            Bool::Has(has) => {
                let who = self.who(&has.0);
                format!(
                    "{} {} a {}",
                    who.subject(),
                    who.verb("hold", "holds"),
                    self.filter_noun(&has.1, false)
                )
            }
            Bool::Same(a, b) => {
                let (a, b) = self.same(a, b);
                format!("{a} {b}")
            }
            Bool::Named(_) | Bool::OfKind(..) | Bool::In(_) => {
                self.card_cond(c).unwrap_or_default()
            }
        }
    }

    /// `[= :holder :you]` as "the holder is" and "you" (you last).
    fn same(&mut self, a: &Entity, b: &Entity) -> (String, String) {
        let (mut p, mut q) = (self.who(a), self.who(b));
        if p == Person::You {
            std::mem::swap(&mut p, &mut q);
        }
        (
            format!("{} {}", p.subject(), p.verb("are", "is")),
            q.subject(),
        )
    }

    /// A part of `and`/`or`: in parentheses if it is itself an `and`/`or`.
    fn cond_part(&mut self, c: &Bool) -> String {
        match c {
            Bool::And(..) | Bool::Or(..) => format!("({})", self.cond(c)),
            _ => self.cond(c),
        }
    }
}
