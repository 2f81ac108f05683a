//! The words explanations are made of: who is named, the parts of an
//! explanation and how they are joined, phrases and how tightly they bind,
//! numbers as people write them, and the nouns for statuses.

use super::En;
use crate::check::ast::{Entity, Filter, Polarity, category_bit};
use crate::check::list_and;
use crate::ids::{CategoryId, KindId, RoleId};

/// Person an effect or a smart value names.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Person {
    /// The role `:you`.
    You,
    /// The role `:other`: the enemy.
    Other,
    /// Anyone else, by the phrase that names them ("the holder", "that player").
    Named(String),
}

impl Person {
    pub(super) fn subject(&self) -> String {
        match self {
            Person::You => "you".into(),
            Person::Other => "the enemy".into(),
            Person::Named(n) => n.clone(),
        }
    }

    pub(super) fn possessive(&self) -> String {
        match self {
            Person::You => "your".into(),
            Person::Other => "the enemy's".into(),
            Person::Named(n) => format!("{n}'s"),
        }
    }

    /// "yours", "the enemy's": a possessive standing alone.
    pub(super) fn own(&self) -> String {
        match self {
            Person::You => "yours".into(),
            _ => self.possessive(),
        }
    }

    /// The verb in the person this subject takes: "you lose", "the enemy loses".
    pub(super) fn verb(&self, plain: &str, third: &str) -> String {
        match self {
            Person::You => plain.into(),
            _ => third.into(),
        }
    }
}

/// A role bound beyond the rule set's own.
#[derive(Clone, Debug)]
pub(super) enum Bound {
    /// A name the engine binds (`holder`, `self` in a hook).
    Name(String),
    /// `:self` inside `{:each KIND …}`, `[count KIND …]` or `[sum KIND …]`.
    Each(KindId),
    /// `:self` inside a loop or a query over the cards of a pile.
    Card,
}

/// One part of an explanation, kept apart so that losses can be gathered:
/// "all players lose 5 Bricks, 5 Gems and 5 Beasts".
#[derive(Clone, Debug)]
pub(super) enum Item {
    Text(String),
    /// A change made only when a condition holds: kept apart from its
    /// neighbours with `;`, so the condition is not read as theirs.
    Cond(String),
    Loss {
        subject: String,
        verb: String,
        what: Vec<String>,
    },
}

impl Item {
    pub(super) fn text(&self) -> String {
        match self {
            Item::Text(t) | Item::Cond(t) => t.clone(),
            Item::Loss {
                subject,
                verb,
                what,
            } => format!("{subject} {verb} {}", list_and(what.iter().cloned())),
        }
    }
}

/// Items joined, losses of the same subject gathered into one; items that hold
/// a comma or a condition are kept apart with `;` so the parts stay readable.
pub(super) fn join(items: &[Item], sep: &str, empty: &str) -> String {
    let mut merged: Vec<Item> = Vec::new();
    for item in items {
        if let (
            Some(Item::Loss {
                subject,
                verb,
                what,
                ..
            }),
            Item::Loss {
                subject: s,
                verb: v,
                what: w,
            },
        ) = (merged.last_mut(), item)
            && subject == s
            && verb == v
        {
            what.extend(w.iter().cloned());
            continue;
        }
        merged.push(item.clone());
    }
    let texts: Vec<String> = merged.iter().map(Item::text).collect();
    if texts.is_empty() {
        return empty.into();
    }
    let apart = merged
        .iter()
        .any(|i| matches!(i, Item::Cond(_)) || i.text().contains(','));
    let sep = if sep == ", " && texts.len() > 1 && apart {
        "; "
    } else {
        sep
    };
    texts.join(sep)
}

/// The first letter upper-case.
pub(super) fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A name as card text writes a resource: `wall` → `Wall`.
pub(super) fn title(name: &str) -> String {
    capitalize(name)
}

/// How tightly a phrase binds, for parentheses: a phrase with words around
/// it ("the higher of a and b") needs them inside arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Prec {
    Phrase,
    Sum,
    Product,
    Atom,
}

/// An English phrase and how tightly it binds.
pub(super) struct Ph(pub(super) String, pub(super) Prec);

impl Ph {
    /// The phrase among words ("half of …", "… (rounded up)"): in parentheses
    /// only if it holds a comma or an "and" that would run into the words around it.
    pub(super) fn words(self) -> String {
        if self.1 == Prec::Phrase && (self.0.contains(',') || self.0.contains(" and ")) {
            format!("({})", self.0)
        } else {
            self.0
        }
    }

    /// The phrase, in parentheses if it binds less tightly than `at`.
    pub(super) fn at(self, at: Prec) -> String {
        if self.1 < at {
            format!("({})", self.0)
        } else {
            self.0
        }
    }
}

/// A decimal as people write it: `1.5`, `100` (a whole one without its `.0`).
pub(super) fn number(d: f64) -> String {
    if d.fract() == 0.0 && d.abs() < 1e15 {
        format!("{}", d as i64)
    } else {
        d.to_string()
    }
}

/// A probability as a percentage: 0.5 → "50%".
pub(super) fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if (pct - pct.round()).abs() < 1e-9 {
        format!("{}%", pct.round() as i64)
    } else {
        format!("{pct}%")
    }
}

/// "1 turn", "3 turns".
pub(super) fn count_of(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n.abs() == 1 { one } else { many })
}

impl En<'_> {
    /// Binds `:self` at role `outer` to an entity of `kind`; returns what to restore.
    pub(super) fn bind_self(&mut self, outer: RoleId, kind: KindId) -> Vec<Bound> {
        self.bind_as(outer, Bound::Each(kind))
    }

    /// Binds `:self` at role `outer` as `bound`; returns what to restore.
    pub(super) fn bind_as(&mut self, outer: RoleId, bound: Bound) -> Vec<Bound> {
        let saved = self.bound.clone();
        let at = outer.index().saturating_sub(self.rules.roles.len());
        self.bound.truncate(at);
        while self.bound.len() < at {
            self.bound.push(Bound::Name("entity".into()));
        }
        self.bound.push(bound);
        saved
    }

    pub(super) fn role(&self, r: RoleId) -> Person {
        let r = r.index();
        if let Some(name) = self.rules.roles.get(RoleId::new(r)) {
            return match name.as_str() {
                "you" => Person::You,
                "other" => Person::Other,
                _ => {
                    // A doc that is a short name ("the opponent") says it best.
                    let doc = self
                        .rules
                        .role_docs
                        .get(RoleId::new(r))
                        .map_or("", String::as_str);
                    let short = doc.starts_with("the ")
                        && doc.split_whitespace().count() <= 3
                        && doc
                            .chars()
                            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-');
                    Person::Named(if short {
                        doc.to_string()
                    } else {
                        format!("the {name}")
                    })
                }
            };
        }
        match self.bound.get(r - self.rules.roles.len()) {
            Some(Bound::Each(k)) => Person::Named(format!("that {}", self.kind(*k))),
            Some(Bound::Card) => Person::Named("that card".into()),
            Some(Bound::Name(n)) if n == crate::check::SELF => Person::Named("that entity".into()),
            Some(Bound::Name(n)) => Person::Named(format!("the {n}")),
            None => Person::Named(format!("role {r}")),
        }
    }

    pub(super) fn who(&mut self, e: &Entity) -> Person {
        match e {
            Entity::Role(r) => self.role(*r),
            Entity::Target => Person::Named("the target".into()),
            Entity::ThisCard => Person::Named("this card".into()),
            Entity::If(c, a, b) => {
                let (c, a, b) = (self.cond(c), self.who(a), self.who(b));
                Person::Named(format!(
                    "({} if {c}, otherwise {})",
                    a.subject(),
                    b.subject()
                ))
            }
        }
    }

    /// Which statuses a filter matches, as a noun: "buff", "ecaHeal debuffs",
    /// "weakness", "statuses".
    pub(super) fn filter_noun(&self, f: &Filter, plural: bool) -> String {
        if let Some(s) = f.status {
            let mut name = self.status(s).to_string();
            if f.polarity.is_some() || f.categories != 0 || f.flag.is_some() {
                let rest = Filter { status: None, ..*f };
                name.push_str(&format!(" (if a {})", self.filter_noun(&rest, false)));
            }
            return name;
        }
        let categories: Vec<&str> = self
            .rules
            .categories
            .iter()
            .enumerate()
            .filter(|(i, _)| f.categories & category_bit(CategoryId::new(*i)) != 0)
            .map(|(_, c)| c.as_str())
            .collect();
        let mut words = Vec::new();
        if !categories.is_empty() {
            words.push(categories.join(" or "));
        }
        let noun = match (f.polarity, plural) {
            (Some(Polarity::Buff), false) => "buff",
            (Some(Polarity::Buff), true) => "buffs",
            (Some(Polarity::Debuff), false) => "debuff",
            (Some(Polarity::Debuff), true) => "debuffs",
            (None, false) => "status",
            (None, true) => "statuses",
        };
        words.push(noun.to_string());
        if let Some(flag) = f.flag {
            let flag = self.rules.flags.get(flag).map_or("?", String::as_str);
            words.push(format!("that sets {flag}"));
        }
        words.join(" ")
    }
}
