//! Effects in plain words: checked effects rendered as the English a card's
//! text is written in, "+6 Wall if your wall is 0, otherwise +3 Wall".
//!
//! The common shapes get the card text's own phrases: a number and a
//! resource ("+3 Wall", "-1 enemy Quarry", "enemy loses 3 Beasts"), an
//! operation by its name ("5 Damage to the enemy"), one change made to both
//! players ("all players lose 8 Bricks"). Conditions, arithmetic, dice and
//! status changes are said in English; an amount too long to say in one
//! breath is shown in the language's own syntax, so every effect explains.
//! `grimoire explain` and `grimoire cards` print it, and the lint quotes it.

use crate::ast::{
    Arith, Bool, Cmp, Dec, Effect, Entity, Filter, Int, Pick, Polarity, QueueOp, Resource,
    Rounding, StatusOp, category_bit,
};
use crate::rules::RuleSet;

/// An English amount longer than this is shown in the language's syntax instead.
const MAX_PHRASE: usize = 90;

/// How far after a change its twin for the other player is looked for.
const TWIN_WINDOW: usize = 32;

/// How deep conditions are split into cases before the rest is said as it is
/// (each level doubles the cases).
const MAX_SPLIT: usize = 6;

/// What `effects` do, in one line of card-text English ("Nothing" for none).
///
/// The roles are the rule set's own; use [`explain_with`] where the engine
/// binds more (`:self` in a hook, `:holder` in a status).
pub fn explain(rules: &RuleSet, effects: &[Effect]) -> String {
    explain_with(rules, effects, &[])
}

/// [`explain`] for effects checked with more roles bound than the rule set
/// declares: role `rules.roles.len() + i` is called `bound[i]` (`"self"`,
/// `"holder"`, `"target"`).
pub fn explain_with(rules: &RuleSet, effects: &[Effect], bound: &[&str]) -> String {
    let mut en = En::new(rules, bound);
    let items = en.list(effects);
    capitalize(&join(&items, ", ", "Nothing"))
}

/// What one effect does, as [`explain`] says it (without merging it with others).
pub fn explain_effect(rules: &RuleSet, effect: &Effect) -> String {
    let mut en = En::new(rules, &[]);
    let item = en.effect(effect);
    capitalize(&item.text())
}

/// An integer expression in English ("half of the enemy's gems (rounded up)").
pub fn expression(rules: &RuleSet, e: &Int) -> String {
    En::new(rules, &[]).amount(e)
}

/// An integer expression in the language's own syntax (`[ceil [/ [:other :gems] 2]]`),
/// with every name the rule set gives it.
pub fn syntax(rules: &RuleSet, e: &Int) -> String {
    let en = En::new(rules, &[]);
    let mut out = String::new();
    en.int_syntax(e, &mut out);
    out
}

/// The cases an effect can be, with every condition that picks its entity,
/// resource or amount decided both ways: `[= [:you :wall] 0 6 3]` is one
/// effect adding 6 and one adding 3. Conditions inside arithmetic stay.
pub fn cases(effect: &Effect) -> Vec<Effect> {
    let mut out = Vec::new();
    cases_into(effect, 0, &mut out);
    out
}

fn cases_into(effect: &Effect, depth: usize, out: &mut Vec<Effect>) {
    match split(effect) {
        Some((_, then, other)) if depth < MAX_SPLIT => {
            cases_into(&then, depth + 1, out);
            cases_into(&other, depth + 1, out);
        }
        _ => out.push(effect.clone()),
    }
}

/// The first condition that picks an effect's entity, resource or amount, and
/// the effect with it holding and not: every pick by the same condition is
/// decided with it (Elven Archers' resource and amount share one test).
/// `None` when nothing is picked, or the amount only takes the higher or lower
/// of two values (said as such).
fn split(e: &Effect) -> Option<(Bool, Effect, Effect)> {
    let cond = match (&e.entity, &e.resource, &e.amount) {
        (Entity::If(c, ..), _, _) | (_, Resource::If(c, ..), _) => (**c).clone(),
        (_, _, Int::If(c, a, b)) if higher_or_lower(c, a, b).is_none() => (**c).clone(),
        (_, _, &Int::Pick(cmp, r, a, n, _, _)) => Bool::AttrCmp(cmp, r, a, n),
        _ => return None,
    };
    let pick = |holds: bool| Effect {
        entity: entity_case(&e.entity, &cond, holds),
        resource: resource_case(&e.resource, &cond, holds),
        amount: amount_case(&e.amount, &cond, holds),
        ..e.clone()
    };
    Some((cond.clone(), pick(true), pick(false)))
}

fn entity_case(e: &Entity, cond: &Bool, holds: bool) -> Entity {
    match e {
        Entity::If(c, a, b) if **c == *cond => entity_case(if holds { a } else { b }, cond, holds),
        _ => e.clone(),
    }
}

fn resource_case(r: &Resource, cond: &Bool, holds: bool) -> Resource {
    match r {
        Resource::If(c, a, b) if **c == *cond => {
            resource_case(if holds { a } else { b }, cond, holds)
        }
        _ => r.clone(),
    }
}

fn amount_case(i: &Int, cond: &Bool, holds: bool) -> Int {
    match i {
        Int::If(c, a, b) if **c == *cond => amount_case(if holds { a } else { b }, cond, holds),
        &Int::Pick(cmp, r, a, n, then, other) if Bool::AttrCmp(cmp, r, a, n) == *cond => {
            Int::Lit(if holds { then } else { other })
        }
        _ => i.clone(),
    }
}

/// `[< a b b a]` is the higher of a and b, `[< a b a b]` the lower: `Some(true)`
/// for the higher, `Some(false)` for the lower.
fn higher_or_lower(c: &Bool, then: &Int, other: &Int) -> Option<bool> {
    let Bool::CmpInt(cmp, a, b) = c else {
        return None;
    };
    let (a, b) = (&**a, &**b);
    match cmp {
        Cmp::Lt | Cmp::Le if then == b && other == a => Some(true),
        Cmp::Gt | Cmp::Ge if then == a && other == b => Some(true),
        Cmp::Lt | Cmp::Le if then == a && other == b => Some(false),
        Cmp::Gt | Cmp::Ge if then == b && other == a => Some(false),
        _ => None,
    }
}

/// Whether an effect changes nothing: adds 0, or sets a value to itself.
fn no_op(e: &Effect) -> bool {
    match (&e.resource, e.set, &e.amount) {
        (Resource::Attr(_) | Resource::Op(_), false, Int::Lit(0)) => true,
        (Resource::Attr(a), true, Int::Attr(who, b)) => a == b && *who == e.entity,
        _ => false,
    }
}

/// Who an effect or a smart value names.
#[derive(Clone, Debug, PartialEq)]
enum Who {
    /// The role `:you`.
    You,
    /// The role `:other`: the enemy.
    Other,
    /// Anyone else, by the phrase that names them ("the holder", "that player").
    Named(String),
}

impl Who {
    fn subject(&self) -> String {
        match self {
            Who::You => "you".into(),
            Who::Other => "the enemy".into(),
            Who::Named(n) => n.clone(),
        }
    }

    fn possessive(&self) -> String {
        match self {
            Who::You => "your".into(),
            Who::Other => "the enemy's".into(),
            Who::Named(n) => format!("{n}'s"),
        }
    }

    /// "yours", "the enemy's": a possessive standing alone.
    fn own(&self) -> String {
        match self {
            Who::You => "yours".into(),
            _ => self.possessive(),
        }
    }

    /// The verb in the person this subject takes: "you lose", "the enemy loses".
    fn verb(&self, plain: &str, third: &str) -> String {
        match self {
            Who::You => plain.into(),
            _ => third.into(),
        }
    }
}

/// A role bound beyond the rule set's own.
#[derive(Clone, Debug)]
enum Bound {
    /// A name the engine binds (`holder`, `self` in a hook).
    Name(String),
    /// `:self` inside `{:each KIND …}`, `[count KIND …]` or `[sum KIND …]`.
    Each(u16),
}

/// One part of an explanation, kept apart so that losses can be gathered:
/// "all players lose 5 Bricks, 5 Gems and 5 Beasts".
#[derive(Clone, Debug)]
enum Item {
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
    fn text(&self) -> String {
        match self {
            Item::Text(t) | Item::Cond(t) => t.clone(),
            Item::Loss {
                subject,
                verb,
                what,
            } => format!("{subject} {verb} {}", and_list(what)),
        }
    }
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Items joined, losses of the same subject gathered into one; items that hold
/// a comma or a condition are kept apart with `;` so the parts stay readable.
fn join(items: &[Item], sep: &str, empty: &str) -> String {
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
fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A name as card text writes a resource: `wall` → `Wall`.
fn title(name: &str) -> String {
    capitalize(name)
}

/// How tightly a phrase binds, for parentheses: a phrase with words around
/// it ("the higher of a and b") needs them inside arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Phrase,
    Sum,
    Product,
    Atom,
}

/// An English phrase and how tightly it binds.
struct Ph(String, Prec);

impl Ph {
    /// The phrase among words ("half of …", "… (rounded up)"): in parentheses
    /// only if it holds a comma or an "and" that would run into the words around it.
    fn words(self) -> String {
        if self.1 == Prec::Phrase && (self.0.contains(',') || self.0.contains(" and ")) {
            format!("({})", self.0)
        } else {
            self.0
        }
    }

    /// The phrase, in parentheses if it binds less tightly than `at`.
    fn at(self, at: Prec) -> String {
        if self.1 < at {
            format!("({})", self.0)
        } else {
            self.0
        }
    }
}

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

/// A decimal as people write it: `1.5`, `100` (a whole one without its `.0`).
fn number(d: f64) -> String {
    if d.fract() == 0.0 && d.abs() < 1e15 {
        format!("{}", d as i64)
    } else {
        d.to_string()
    }
}

/// A probability as a percentage: 0.5 → "50%".
fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if (pct - pct.round()).abs() < 1e-9 {
        format!("{}%", pct.round() as i64)
    } else {
        format!("{pct}%")
    }
}

/// "1 turn", "3 turns".
fn count_of(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n.abs() == 1 { one } else { many })
}

struct En<'r> {
    rules: &'r RuleSet,
    /// Roles bound beyond the declared ones: role `roles.len() + i` is `bound[i]`.
    bound: Vec<Bound>,
    /// The arguments of the formula being said, already in English.
    args: Vec<String>,
    /// How many conditions the effect being said was split on: past
    /// [`MAX_SPLIT`] the rest is said as it is, so the cases stay few.
    depth: usize,
}

/// The `i`-th of a rule set's names, or `missing` past the end.
fn name_at<'n>(names: &'n [String], i: u16, missing: &'n str) -> &'n str {
    names.get(usize::from(i)).map_or(missing, String::as_str)
}

impl<'r> En<'r> {
    fn new(rules: &'r RuleSet, bound: &[&str]) -> En<'r> {
        En {
            rules,
            bound: bound.iter().map(|b| Bound::Name((*b).into())).collect(),
            args: Vec::new(),
            depth: 0,
        }
    }

    fn kind(&self, k: u16) -> &str {
        name_at(&self.rules.kinds, k, "entity")
    }

    fn attr(&self, a: u16) -> &str {
        name_at(&self.rules.attributes, a, "?")
    }

    fn op(&self, o: u16) -> &str {
        name_at(&self.rules.operations, o, "?")
    }

    fn status(&self, s: u16) -> &str {
        name_at(&self.rules.statuses, s, "?")
    }

    fn timing(&self, t: u16) -> &str {
        self.rules
            .timings
            .get(usize::from(t))
            .map_or("?", |t| t.name.as_str())
    }

    /// Whether an attribute is something players spend (a card's cost is paid
    /// in it): losing it reads "enemy loses 3 Beasts", where a producer or a
    /// building reads "-1 enemy Quarry".
    fn is_stock(&self, a: u16) -> bool {
        self.rules
            .cards
            .as_ref()
            .is_some_and(|c| c.pay_with.contains(&a))
    }

    /// Every seat, as a subject: "all players" in a two-seat game (the two
    /// roles are every seat), else "you and the enemy".
    fn everyone(&self) -> String {
        if self.rules.seats.len() == 2 {
            format!("all {}s", self.kind(0))
        } else {
            "you and the enemy".into()
        }
    }

    /// Binds `:self` at role `outer` to an entity of `kind`; returns what to restore.
    fn bind_self(&mut self, outer: u8, kind: u16) -> Vec<Bound> {
        let saved = self.bound.clone();
        let at = usize::from(outer).saturating_sub(self.rules.roles.len());
        self.bound.truncate(at);
        while self.bound.len() < at {
            self.bound.push(Bound::Name("entity".into()));
        }
        self.bound.push(Bound::Each(kind));
        saved
    }

    fn role(&self, r: u8) -> Who {
        let r = usize::from(r);
        if let Some(name) = self.rules.roles.get(r) {
            return match name.as_str() {
                "you" => Who::You,
                "other" => Who::Other,
                _ => {
                    // A doc that is a short name ("the opponent") says it best.
                    let doc = self.rules.role_docs.get(r).map_or("", String::as_str);
                    let short = doc.starts_with("the ")
                        && doc.split_whitespace().count() <= 3
                        && doc
                            .chars()
                            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-');
                    Who::Named(if short {
                        doc.to_string()
                    } else {
                        format!("the {name}")
                    })
                }
            };
        }
        match self.bound.get(r - self.rules.roles.len()) {
            Some(Bound::Each(k)) => Who::Named(format!("that {}", self.kind(*k))),
            Some(Bound::Name(n)) if n == crate::check::SELF => Who::Named("that entity".into()),
            Some(Bound::Name(n)) => Who::Named(format!("the {n}")),
            None => Who::Named(format!("role {r}")),
        }
    }

    fn who(&mut self, e: &Entity) -> Who {
        match e {
            Entity::Role(r) => self.role(*r),
            Entity::Target => Who::Named("the target".into()),
            Entity::If(c, a, b) => {
                let (c, a, b) = (self.cond(c), self.who(a), self.who(b));
                Who::Named(format!(
                    "({} if {c}, otherwise {})",
                    a.subject(),
                    b.subject()
                ))
            }
        }
    }

    // ----- effects -----

    fn list(&mut self, effects: &[Effect]) -> Vec<Item> {
        let mut out = Vec::new();
        let mut used = vec![false; effects.len()];
        let mut i = 0;
        while i < effects.len() {
            if used[i] {
                i += 1;
                continue;
            }
            let e = &effects[i];
            let n = usize::from(e.at_once.max(1));
            if n > 1 {
                let group = &effects[i..(i + n).min(effects.len())];
                out.push(Item::Text(self.at_once(group)));
                i += group.len();
                continue;
            }
            if let Some((text, n)) = self.same_condition(&effects[i..]) {
                out.push(Item::Cond(text));
                i += n;
                continue;
            }
            match self.twin(effects, i, &used) {
                Some(j) => {
                    used[j] = true;
                    out.push(self.both(e));
                }
                None => out.push(self.effect(e)),
            }
            i += 1;
        }
        out
    }

    /// The first effects of `effects` that each change something only when
    /// one same condition holds, said together: "-1 Zoo and -2 Tower if …".
    /// `None` unless there are two or more.
    fn same_condition(&mut self, effects: &[Effect]) -> Option<(String, usize)> {
        let only_if = |e: &Effect| {
            if e.at_once > 1 {
                return None;
            }
            let (c, then, other) = split(e)?;
            (no_op(&other) && !no_op(&then)).then_some((c, then))
        };
        let (c, first) = only_if(effects.first()?)?;
        let mut thens = vec![first];
        for e in &effects[1..] {
            match only_if(e) {
                Some((c2, then)) if c2 == c => thens.push(then),
                _ => break,
            }
        }
        if thens.len() < 2 {
            return None;
        }
        let texts: Vec<String> = thens.iter().map(|t| self.effect(t).text()).collect();
        Some((
            format!("{} {}", and_list(&texts), self.when(&c)),
            thens.len(),
        ))
    }

    /// A plain change of a number by a literal, to `:you` or `:other`: one
    /// that can be said once for both when its twin is there too.
    fn plain<'e>(&self, e: &'e Effect) -> Option<(Who, &'e Resource, i64)> {
        let (Entity::Role(r), Int::Lit(n)) = (&e.entity, &e.amount) else {
            return None;
        };
        let who = self.role(*r);
        (matches!(who, Who::You | Who::Other)
            && matches!(e.resource, Resource::Attr(_) | Resource::Op(_))
            && !e.set
            && e.at_once <= 1)
            .then_some((who, &e.resource, *n))
    }

    /// The effect after `i` that makes the same change to the other player,
    /// if only changes of other attributes stand between them (so saying the
    /// two together changes no result). An operation's twin must come next:
    /// it reads values others may change.
    fn twin(&self, effects: &[Effect], i: usize, used: &[bool]) -> Option<usize> {
        let (who, resource, n) = self.plain(&effects[i])?;
        // A twin is looked for among the next few: a card says both together.
        for (j, e) in effects.iter().enumerate().skip(i + 1).take(TWIN_WINDOW) {
            let (w, r, m) = self.plain(e)?;
            if used[j] {
                continue;
            }
            if r == resource {
                return (w != who && m == n).then_some(j);
            }
            if matches!(resource, Resource::Op(_)) || matches!(r, Resource::Op(_)) {
                return None;
            }
        }
        None
    }

    /// A change made to both players.
    fn both(&mut self, e: &Effect) -> Item {
        let everyone = self.everyone();
        let n = match e.amount {
            Int::Lit(n) => n,
            _ => 0,
        };
        match e.resource {
            Resource::Op(o) => Item::Text(format!("{n} {} to {everyone}", title(self.op(o)))),
            Resource::Attr(a) if n < 0 && self.is_stock(a) => Item::Loss {
                subject: everyone,
                verb: "lose".into(),
                what: vec![format!("{} {}", -n, title(self.attr(a)))],
            },
            Resource::Attr(a) => Item::Text(format!(
                "{}{n} {} for {everyone}",
                if n >= 0 { "+" } else { "" },
                title(self.attr(a))
            )),
            _ => self.effect(e),
        }
    }

    /// Effects computed together from one state: a swap, or "at once: …".
    fn at_once(&mut self, group: &[Effect]) -> String {
        if let [a, b] = group
            && a.set
            && b.set
            && let (Resource::Attr(x), Resource::Attr(y)) = (&a.resource, &b.resource)
            && x == y
            && a.amount == Int::Attr(b.entity.clone(), *x)
            && b.amount == Int::Attr(a.entity.clone(), *x)
        {
            let (p, q) = (self.who(&a.entity), self.who(&b.entity));
            return format!("swap {} {} with {}", p.possessive(), self.attr(*x), q.own());
        }
        let items: Vec<String> = group.iter().map(|e| self.effect(e).text()).collect();
        format!("at once: {}", and_list(&items))
    }

    fn effect(&mut self, e: &Effect) -> Item {
        if self.depth < MAX_SPLIT
            && let Some((c, then, other)) = split(e)
        {
            self.depth += 1;
            let said = self.conditional(&c, &then, &other);
            self.depth -= 1;
            return Item::Cond(said);
        }
        let who = self.who(&e.entity);
        match &e.resource {
            Resource::Attr(a) => self.attr_change(&who, *a, &e.amount, e.set),
            Resource::Op(o) => Item::Text(self.op_change(&who, *o, &e.amount)),
            Resource::Status(op) => Item::Text(self.status_change(&who, op, &e.amount)),
            Resource::Each(each) => {
                let inner = |en: &mut En, effects: &[Effect]| {
                    let items = en.list(effects);
                    (items.len(), join(&items, " and ", "nothing"))
                };
                match each.kind {
                    Some(kind) => {
                        let saved = self.bind_self(each.outer, kind);
                        let filter = each.filter.as_ref().map(|c| self.where_clause(c));
                        let (_, text) = inner(self, &each.effects);
                        self.bound = saved;
                        Item::Cond(format!(
                            "for each {}{}: {text}",
                            self.kind(kind),
                            filter.unwrap_or_default()
                        ))
                    }
                    None => {
                        let (n, text) = inner(self, &each.effects);
                        match &each.filter {
                            Some(c) if n == 1 => Item::Cond(format!("{text} {}", self.when(c))),
                            Some(c) => Item::Cond(format!("{}: {text}", self.when(c))),
                            None => Item::Text(text),
                        }
                    }
                }
            }
            Resource::Spawn(spawn) => {
                let mut values = Vec::new();
                for (a, v) in &spawn.values {
                    let name = self.attr(*a).to_string();
                    values.push(format!("{name} {}", self.amount(v)));
                }
                let mut text = format!("a new {} enters play", self.kind(spawn.kind));
                if !values.is_empty() {
                    text.push_str(&format!(" with {}", and_list(&values)));
                }
                Item::Text(text)
            }
            Resource::Run(t) => {
                let each = self.rules.timings.get(usize::from(*t)).and_then(|t| t.each);
                let whom = match each {
                    Some(k) => format!(" for each {}", self.kind(k)),
                    None if who == Who::You => String::new(),
                    None => format!(" for {}", who.subject()),
                };
                Item::Text(format!("run {}{whom}", self.timing(*t)))
            }
            Resource::Queue(q) => Item::Text(match **q {
                QueueOp::Turns(kind) => {
                    let kind = match self.rules.turn_kind_names.get(usize::from(kind)) {
                        Some(k) if self.rules.turn_kind_names.len() > 1 => format!("{k} "),
                        _ => String::new(),
                    };
                    let n = match e.amount {
                        Int::Lit(n) => count_of(n, "turn", "turns"),
                        _ => format!("({}) turns", self.amount(&e.amount)),
                    };
                    let n = n.replacen(' ', &format!(" extra {kind}"), 1);
                    format!("{n} for {} at the front of the queue", who.subject())
                }
                QueueOp::Timed(t) => {
                    let n = match e.amount {
                        Int::Lit(n) => count_of(n, "reorder", "reorders"),
                        _ => format!("({}) reorders", self.amount(&e.amount)),
                    };
                    format!(
                        "after {n} of the queue, run {} for {}",
                        self.timing(t),
                        who.subject()
                    )
                }
            }),
            // Split above, unless conditions nest past MAX_SPLIT: said as its syntax.
            Resource::If(c, ..) => {
                let mut cond = String::new();
                self.bool_syntax(c, &mut cond);
                Item::Text(format!(
                    "a change to {} picked by `{cond}`",
                    who.possessive()
                ))
            }
        }
    }

    /// An effect picked by a condition, said as its two cases.
    fn conditional(&mut self, c: &Bool, then: &Effect, other: &Effect) -> String {
        let when = self.when(c);
        match (no_op(then), no_op(other)) {
            (true, true) => "nothing".into(),
            (false, true) => format!("{} {when}", self.effect(then).text()),
            (true, false) => format!("{} unless {}", self.effect(other).text(), self.cond(c)),
            (false, false) => {
                let (a, b) = (self.effect(then).text(), self.effect(other).text());
                format!("{a} {when}, otherwise {b}")
            }
        }
    }

    /// "if your wall is 0", or "with a 50% chance".
    fn when(&mut self, c: &Bool) -> String {
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
    fn where_clause(&mut self, c: &Bool) -> String {
        let self_attr = |i: &Int| match i {
            Int::Attr(Entity::Role(r), a) => Some((*r, *a)),
            _ => None,
        };
        let is_self = |en: &En, r: u8| {
            usize::from(r) >= en.rules.roles.len()
                && matches!(
                    en.bound.get(usize::from(r) - en.rules.roles.len()),
                    Some(Bound::Each(_))
                )
                && usize::from(r) + 1 == en.rules.roles.len() + en.bound.len()
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
                let a = self_attr(x).map_or(0, |(_, a)| a);
                let y = self.int(y).at(Prec::Sum);
                format!(" with {} {} {y}", self.attr(a), with(*cmp))
            }
            _ => format!(" where {}", self.cond(c)),
        }
    }

    fn attr_change(&mut self, who: &Who, a: u16, amount: &Int, set: bool) -> Item {
        let name = self.attr(a).to_string();
        if set {
            return Item::Text(format!(
                "{} {name} becomes {}",
                who.possessive(),
                self.amount(amount)
            ));
        }
        match self.short(amount) {
            Some((negative, n)) => {
                let sign = if negative { "-" } else { "+" };
                let name = title(&name);
                Item::Text(match who {
                    Who::You => format!("{sign}{n} {name}"),
                    Who::Other if negative && self.is_stock(a) => {
                        return Item::Loss {
                            subject: "enemy".into(),
                            verb: "loses".into(),
                            what: vec![format!("{n} {name}")],
                        };
                    }
                    Who::Other => format!("{sign}{n} enemy {name}"),
                    Who::Named(_) => format!("{sign}{n} {name} for {}", who.subject()),
                })
            }
            None => Item::Text(match amount {
                Int::Neg(x) => format!(
                    "subtract {} from {} {name}",
                    self.amount(x),
                    who.possessive()
                ),
                _ => format!("add {} to {} {name}", self.amount(amount), who.possessive()),
            }),
        }
    }

    fn op_change(&mut self, who: &Who, o: u16, amount: &Int) -> String {
        let name = title(self.op(o));
        match self.short(amount) {
            Some((negative, n)) => format!(
                "{}{n} {name} to {}",
                if negative { "-" } else { "" },
                who.subject()
            ),
            None => format!("{name} of {} to {}", self.amount(amount), who.subject()),
        }
    }

    fn status_change(&mut self, who: &Who, op: &StatusOp, amount: &Int) -> String {
        match op {
            StatusOp::Acquire { status, lasts } => {
                let mut text = format!(
                    "{} {} {}",
                    who.subject(),
                    who.verb("acquire", "acquires"),
                    self.status(*status)
                );
                if *amount != Int::Lit(0) {
                    text.push_str(&format!(" with magnitude {}", self.amount(amount)));
                }
                if let Some(lasts) = lasts {
                    text.push_str(&format!(", lasting {}", self.amount(lasts)));
                }
                text
            }
            StatusOp::Dispel { filter, pick } => {
                let n = match amount {
                    Int::Lit(n) => Some(*n),
                    _ => None,
                };
                let count = match n {
                    Some(n) => n.to_string(),
                    None => format!("({})", self.amount(amount)),
                };
                let one = n == Some(1);
                let noun = self.filter_noun(filter, !one);
                let what = match (pick, one) {
                    (Pick::All, _) => format!("every {}", self.filter_noun(filter, false)),
                    (Pick::Random, true) => format!("a random {noun}"),
                    (Pick::Random, false) => format!("{count} random {noun}"),
                    (Pick::Oldest, true) => format!("the oldest {noun}"),
                    (Pick::Oldest, false) => format!("the {count} oldest {noun}"),
                    (Pick::Newest, true) => format!("the newest {noun}"),
                    (Pick::Newest, false) => format!("the {count} newest {noun}"),
                    (Pick::MostLeft, true) => format!("the {noun} with the most turns left"),
                    (Pick::MostLeft, false) => {
                        format!("the {count} {noun} with the most turns left")
                    }
                    (Pick::LeastLeft, true) => format!("the {noun} with the fewest turns left"),
                    (Pick::LeastLeft, false) => {
                        format!("the {count} {noun} with the fewest turns left")
                    }
                };
                format!("remove {what} from {}", who.subject())
            }
            StatusOp::Extend { filter } => {
                let whose = format!("{} {}", who.possessive(), self.filter_noun(filter, true));
                match self.short(amount) {
                    Some((negative, n)) => format!(
                        "{}{n} {} to {whose}",
                        if negative { "-" } else { "+" },
                        if n == "1" { "turn" } else { "turns" }
                    ),
                    None => match amount {
                        Int::Neg(x) => {
                            format!("take {} from the turns left of {whose}", self.amount(x))
                        }
                        _ => format!("add {} to the turns left of {whose}", self.amount(amount)),
                    },
                }
            }
        }
    }

    /// Which statuses a filter matches, as a noun: "buff", "ecaHeal debuffs",
    /// "weakness", "statuses".
    fn filter_noun(&self, f: &Filter, plural: bool) -> String {
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
            .filter(|(i, _)| f.categories & category_bit(*i as u16) != 0)
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
            let flag = self
                .rules
                .flags
                .get(usize::from(flag))
                .map_or("?", String::as_str);
            words.push(format!("that sets {flag}"));
        }
        words.join(" ")
    }

    /// A literal or a roll, said before a resource's name: `(negative, "5")`, `(false, "1d6")`.
    fn short(&self, amount: &Int) -> Option<(bool, String)> {
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
    fn amount(&mut self, e: &Int) -> String {
        let words = self.int(e).0;
        if words.len() <= MAX_PHRASE {
            return words;
        }
        let mut out = String::new();
        self.int_syntax(e, &mut out);
        format!("`{out}`")
    }

    // ----- expressions in English -----

    fn int(&mut self, e: &Int) -> Ph {
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
            Int::If(c, a, b) => match higher_or_lower(c, a, b) {
                Some(higher) => {
                    let (x, y) = match &**c {
                        Bool::CmpInt(_, x, y) => (x, y),
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
            },
            &Int::Pick(cmp, r, a, n, then, other) => {
                let c = self.cond(&Bool::AttrCmp(cmp, r, a, n));
                Ph(format!("{then} if {c}, otherwise {other}"), Prec::Phrase)
            }
            Int::Round(r, d) => {
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
            Int::Random(lo, hi) => {
                let (lo, hi) = (self.int(lo).at(Prec::Sum), self.int(hi).at(Prec::Sum));
                Ph(format!("a random number from {lo} to {hi}"), Prec::Phrase)
            }
            Int::Statuses(who, f) => {
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
            Int::TurnsLeft(who, f) => {
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
            Int::Abs(x) => match &**x {
                Int::Fold(Arith::Sub, items) if items.len() == 2 => {
                    let (a, b) = self.pair(&items[0], &items[1]);
                    Ph(format!("the difference between {a} and {b}"), Prec::Phrase)
                }
                _ => Ph(format!("|{}|", self.int(x).0), Prec::Atom),
            },
            Int::Count(over) => {
                let saved = self.bind_self(over.outer, over.kind);
                let filter = over
                    .filter
                    .as_ref()
                    .map(|c| self.where_clause(c))
                    .unwrap_or_default();
                self.bound = saved;
                Ph(
                    format!("the number of {}s in play{filter}", self.kind(over.kind)),
                    Prec::Phrase,
                )
            }
            Int::Sum(over) => {
                let saved = self.bind_self(over.outer, over.kind);
                let filter = over
                    .filter
                    .as_ref()
                    .map(|c| self.where_clause(c))
                    .unwrap_or_default();
                let kind = self.kind(over.kind).to_string();
                let text = match &over.value {
                    Int::Attr(Entity::Role(r), a) if usize::from(*r) == usize::from(over.outer) => {
                        format!("the total {} of the {kind}s in play{filter}", self.attr(*a))
                    }
                    v => format!(
                        "the sum of {} over the {kind}s in play{filter}",
                        self.int(v).at(Prec::Sum)
                    ),
                };
                self.bound = saved;
                Ph(text, Prec::Phrase)
            }
            Int::Formula(f) => {
                let args: Vec<String> = f.args.iter().map(|a| self.int(a).words()).collect();
                match self.rules.formulas.iter().find(|(_, d)| d.body == f.body) {
                    Some((name, _)) => Ph(
                        format!("the {name} formula of {}", and_list(&args)),
                        Prec::Phrase,
                    ),
                    None => {
                        let saved = std::mem::replace(&mut self.args, args);
                        let body = self.int(&f.body);
                        self.args = saved;
                        body
                    }
                }
            }
            Int::Lookup(l) => {
                let x = self.int(&l.1).words();
                match self.rules.lookups.iter().find(|(_, t)| *t == l.0) {
                    Some((name, _)) => {
                        Ph(format!("the {name} table's value for {x}"), Prec::Phrase)
                    }
                    None => Ph(format!("a lookup table's value for {x}"), Prec::Phrase),
                }
            }
            Int::Dice(d) => Ph(d.to_string(), Prec::Atom),
            Int::Roll(r) => {
                let m = self.int(&r.1);
                let m = m.at(Prec::Sum);
                match m.strip_prefix('-') {
                    Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => {
                        Ph(format!("{} - {rest}", r.0), Prec::Sum)
                    }
                    _ => Ph(format!("{} + {m}", r.0), Prec::Sum),
                }
            }
            Int::Best(higher, x) => Ph(
                format!(
                    "{} with {}",
                    self.int(x).at(Prec::Sum),
                    if *higher { "advantage" } else { "disadvantage" }
                ),
                Prec::Phrase,
            ),
            Int::Choice(values) => {
                let field = self
                    .rules
                    .choice_columns
                    .iter()
                    .find(|(_, v)| **v == **values)
                    .map(|(name, _)| name.as_str());
                Ph(
                    match field {
                        Some(f) => format!("the chosen option's {f}"),
                        None => "the chosen option's number".into(),
                    },
                    Prec::Atom,
                )
            }
        }
    }

    /// Two values side by side; the second said as "the enemy's" when both
    /// are the same attribute of two entities ("your quarry and the enemy's").
    fn pair(&mut self, a: &Int, b: &Int) -> (String, String) {
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
                Ph(format!("the {which} of {}", and_list(&items)), Prec::Phrase)
            }
        }
    }

    fn dec(&mut self, e: &Dec) -> Ph {
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

    /// A condition as a clause: "your wall is 0", "you hold a debuff".
    fn cond(&mut self, c: &Bool) -> String {
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
        }
    }

    /// `[= :holder :you]` as "the holder is" and "you" (you last).
    fn same(&mut self, a: &Entity, b: &Entity) -> (String, String) {
        let (mut p, mut q) = (self.who(a), self.who(b));
        if p == Who::You {
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

    // ----- expressions in the language's syntax -----

    fn role_syntax(&self, r: u8) -> String {
        let r = usize::from(r);
        if let Some(name) = self.rules.roles.get(r) {
            return format!(":{name}");
        }
        match self.bound.get(r - self.rules.roles.len()) {
            Some(Bound::Each(_)) => ":self".into(),
            Some(Bound::Name(n)) => format!(":{n}"),
            None => format!(":role{r}"),
        }
    }

    fn entity_syntax(&self, e: &Entity, out: &mut String) {
        match e {
            Entity::Role(r) => out.push_str(&self.role_syntax(*r)),
            Entity::Target => out.push_str(":target"),
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

    fn int_syntax(&self, e: &Int, out: &mut String) {
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
                out.push_str(if count { "[count :" } else { "[sum :" });
                out.push_str(self.kind(over.kind));
                if !count {
                    out.push(' ');
                    self.int_syntax(&over.value, out);
                }
                if let Some(c) = &over.filter {
                    out.push(' ');
                    self.bool_syntax(c, out);
                }
                out.push(']');
            }
            Int::Formula(f) => match self.rules.formulas.iter().find(|(_, d)| d.body == f.body) {
                Some((name, _)) => {
                    let items: Vec<&Int> = f.args.iter().collect();
                    list(&format!("formula :{name}"), &items, out);
                }
                None => self.int_syntax(&f.body, out),
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
            Int::Choice(values) => {
                let field = self
                    .rules
                    .choice_columns
                    .iter()
                    .find(|(_, v)| **v == **values)
                    .map_or("?", |(name, _)| name.as_str());
                out.push_str(&format!("[choice :{field}]"));
            }
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

    fn bool_syntax(&self, c: &Bool, out: &mut String) {
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
        }
    }

    /// A filter's keywords: `:debuff :ecaHeal`, or `:any`.
    fn filter_keywords(&self, f: &Filter) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(s) = f.status {
            out.push(format!(":{}", self.status(s)));
        }
        for (i, c) in self.rules.categories.iter().enumerate() {
            if f.categories & category_bit(i as u16) != 0 {
                out.push(format!(":{c}"));
            }
        }
        match f.polarity {
            Some(Polarity::Buff) => out.push(":buff".into()),
            Some(Polarity::Debuff) => out.push(":debuff".into()),
            None => {}
        }
        if let Some(flag) = f.flag {
            let flag = self
                .rules
                .flags
                .get(usize::from(flag))
                .map_or("?", String::as_str);
            out.push(format!(":{flag}"));
        }
        if out.is_empty() {
            out.push(format!(":{}", crate::check::ANY));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundled(name: &str) -> RuleSet {
        RuleSet::bundled(name)
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("{name} checks"))
    }

    /// The explanation of `effects`, checked against the bundled rule set `rules`.
    fn say_in(rules: &str, effects: &str) -> String {
        let rules = bundled(rules);
        let arena = crate::syntax::Arena::new();
        let form = crate::syntax::read_one(&arena, effects).unwrap_or_else(|e| panic!("{e:?}"));
        let effects = rules
            .check_effects(&form)
            .unwrap_or_else(|d| panic!("{d:?}"));
        explain(&rules, &effects)
    }

    fn say(effects: &str) -> String {
        say_in("arcomage", effects)
    }

    #[test]
    fn signs_are_said_as_card_texts_say_them() {
        assert_eq!(
            say("[{:effected :you :resource :wall :amount 3}]"),
            "+3 Wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount -5}]"),
            "-5 Wall"
        );
        assert_eq!(
            say("[{:effected :other :resource :tower :amount 1}]"),
            "+1 enemy Tower"
        );
        // What players spend is lost; what they build or produce goes down.
        assert_eq!(
            say("[{:effected :other :resource :beasts :amount -3}]"),
            "Enemy loses 3 Beasts"
        );
        assert_eq!(
            say("[{:effected :other :resource :quarry :amount -1}]"),
            "-1 enemy Quarry"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [- [:other :quarry]]}]"),
            "Subtract the enemy's quarry from your wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount 1d6}]"),
            "+1d6 Wall"
        );
    }

    #[test]
    fn targets_name_whom_an_effect_changes() {
        assert_eq!(
            say("[{:effected :other :resource :damage :amount 5}]"),
            "5 Damage to the enemy"
        );
        assert_eq!(
            say("[{:effected :you :resource :damage :amount 3}]"),
            "3 Damage to you"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount 0 :set true}]"),
            "Your wall becomes 0"
        );
        assert_eq!(
            say("[{:effected :other :resource :wall :amount [:you :wall] :set true}]"),
            "The enemy's wall becomes your wall"
        );
        assert_eq!(
            say("[{:effected :other :resource :damage :amount [* 2 [:you :zoo]]}]"),
            "Damage of 2 × your zoo to the enemy"
        );
    }

    #[test]
    fn the_same_change_to_both_players_is_said_once() {
        assert_eq!(
            say(
                "[{:effected :you :resource :bricks :amount -8} {:effected :other :resource :bricks :amount -8}]"
            ),
            "All players lose 8 Bricks"
        );
        assert_eq!(
            say(
                "[{:effected :you :resource :quarry :amount 1} {:effected :other :resource :quarry :amount 1}]"
            ),
            "+1 Quarry for all players"
        );
        // Losses of one subject are gathered; other changes between them do not
        // stop the pairing when they touch other numbers.
        assert_eq!(
            say("[{:effected :you :resource :gems :amount -5} {:effected :you :resource :beasts :amount -5}
                  {:effected :other :resource :gems :amount -5} {:effected :other :resource :beasts :amount -5}]"),
            "All players lose 5 Gems and 5 Beasts"
        );
        // Different amounts are two changes.
        assert_eq!(
            say(
                "[{:effected :you :resource :wall :amount 1} {:effected :other :resource :wall :amount 2}]"
            ),
            "+1 Wall, +2 enemy Wall"
        );
    }

    #[test]
    fn conditions_pick_between_two_cases() {
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]"),
            "+6 Wall if your wall is 0, otherwise +3 Wall"
        );
        assert_eq!(
            say(
                "[{:effected :you :resource :quarry :amount [< [:you :quarry] [:other :quarry] 2 1]}]"
            ),
            "+2 Quarry if your quarry is less than the enemy's, otherwise +1 Quarry"
        );
        // No change in one case: said once, with its condition.
        assert_eq!(
            say("[{:effected :you :resource :zoo :amount [< [:you :zoo] [:other :zoo] 1 0]}]"),
            "+1 Zoo if your zoo is less than the enemy's"
        );
        assert_eq!(
            say("[{:effected :other :resource :damage :amount [if [chance 0.5] 4 0]}]"),
            "4 Damage to the enemy with a 50% chance"
        );
        // Resource and amount picked by one test are decided together.
        assert_eq!(
            say(
                "[{:effected :other :resource [> [:you :wall] [:other :wall] :tower :damage]
                   :amount [> [:you :wall] [:other :wall] -6 6]}]"
            ),
            "-6 enemy Tower if your wall is greater than the enemy's, otherwise 6 Damage to the enemy"
        );
        assert_eq!(
            say(
                "[{:effected [> [:you :tower] [:other :tower] :other :you] :resource :gems :amount 3}]"
            ),
            "+3 enemy Gems if your tower is greater than the enemy's, otherwise +3 Gems"
        );
        // Taking the higher of two values is no choice between cases.
        assert_eq!(
            say("[{:effected :you :resource :quarry :set true
                   :amount [< [:you :quarry] [:other :quarry] [:other :quarry] [:you :quarry]]}]"),
            "Your quarry becomes the higher of your quarry and the enemy's"
        );
        assert_eq!(
            say("[{:when [< [:you :wall] 5] :effects [{:effected :you :resource :wall :amount 3}
                                                     {:effected :you :resource :bricks :amount -1}]}]"),
            "If your wall is less than 5: +3 Wall and -1 Bricks"
        );
        assert_eq!(
            say(
                "[{:effected :you :resource :wall :amount [and [not [= [:you :wall] 0]] [or [> [:you :tower] 3] [has :you :any]] 2 0]}]"
            ),
            "+2 Wall if your wall is not 0 and (your tower is greater than 3 or you hold a status)"
        );
    }

    #[test]
    fn groups_swaps_and_loops() {
        assert_eq!(
            say(
                "[{:at-once [{:effected :you :resource :wall :set true :amount [:other :wall]}
                             {:effected :other :resource :wall :set true :amount [:you :wall]}]}]"
            ),
            "Swap your wall with the enemy's"
        );
        assert_eq!(
            say(
                "[{:at-once [{:effected :other :resource :wall :set true :amount 0}
                             {:effected :other :resource :damage :amount 5}]}]"
            ),
            "At once: the enemy's wall becomes 0 and 5 Damage to the enemy"
        );
        assert_eq!(
            say("[{:each :player :effects [{:effected :self :resource :wall :amount 2}]}]"),
            "For each player: +2 Wall for that player"
        );
        assert_eq!(
            say(
                "[{:each :player :where [> [:self :wall] 3] :effects [{:effected :self :resource :wall :amount -1}]}]"
            ),
            "For each player with wall greater than 3: -1 Wall for that player"
        );
        assert_eq!(
            say("[{:spawn :player :values {:wall 3}}]"),
            "A new player enters play with wall 3"
        );
    }

    #[test]
    fn arithmetic_dice_and_the_rest_of_the_operators() {
        assert_eq!(
            say("[{:effected :other :resource :gems :amount [- [ceil [/ [:other :gems] 2]]]}]"),
            "Subtract half of the enemy's gems (rounded up) from the enemy's gems"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [+ [max 0 [- [:other :wall] 3]] 2]}]"),
            "Add (the higher of 0 and (the enemy's wall - 3)) + 2 to your wall"
        );
        assert_eq!(
            say(
                "[{:effected :you :resource :wall :amount [abs [- [:you :tower] [:other :tower]]]}]"
            ),
            "Add the difference between your tower and the enemy's to your wall"
        );
        assert_eq!(
            say("[{:effected :other :resource :damage :amount 1d6}]"),
            "1d6 Damage to the enemy"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [advantage [+ 1d20 [:you :quarry]]]}]"),
            "Add 1d20 + your quarry with advantage to your wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [random 1 6]}]"),
            "Add a random number from 1 to 6 to your wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [count :player [> [:self :wall] 3]]}]"),
            "Add the number of players in play with wall greater than 3 to your wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [sum :player [:self :tower]]}]"),
            "Add the total tower of the players in play to your wall"
        );
        assert_eq!(
            say_in(
                "duel",
                "[{:effected :you :resource :stamina :set true :amount [formula :stamina [lookup :index [:you :endurance]]]}]"
            ),
            "Your stamina becomes the stamina formula of the index table's value for your endurance"
        );
    }

    #[test]
    fn an_amount_too_long_for_words_is_shown_in_the_language() {
        let said = say(
            "[{:effected :you :resource :wall :amount [+ [max [:you :wall] [:other :wall] [:you :tower]]
                                                         [min [:you :quarry] [:other :quarry] [:you :magic]]
                                                         [* 2 [:you :zoo] [:other :zoo]]]}]",
        );
        assert_eq!(
            said,
            "Add `[+ [max [:you :wall] [:other :wall] [:you :tower]] [min [:you :quarry] [:other :quarry] [:you :magic]] [* 2 [:you :zoo] [:other :zoo]]]` to your wall"
        );
        // The syntax reads back to the same expression.
        let rules = bundled("arcomage");
        let text = format!(
            "[{{:effected :you :resource :wall :amount {}}}]",
            said.trim_start_matches("Add `")
                .trim_end_matches("` to your wall")
        );
        let arena = crate::syntax::Arena::new();
        let effects = rules
            .check_effects(
                &crate::syntax::read_one(&arena, &text).unwrap_or_else(|e| panic!("{e:?}")),
            )
            .unwrap_or_else(|d| panic!("{d:?}"));
        let again = explain(&rules, &effects);
        assert_eq!(again, said);
    }

    #[test]
    fn timings_queues_and_choices_are_named() {
        let tbwg = bundled("tbwg");
        let hit = tbwg.operations.iter().position(|o| o == "hit");
        let said = explain(
            &tbwg,
            &tbwg.operation_defs[hit.unwrap_or(usize::MAX)].effects,
        );
        assert!(
            said.contains("1d6 + the target's dex + the chosen option's dodge"),
            "{said}"
        );
        assert_eq!(
            say_in("tbwg", "[{:queue :turns :effected :you :count 3}]"),
            "3 extra classic turns for you at the front of the queue"
        );
        assert_eq!(
            say_in(
                "tbwg",
                "[{:queue :timed :after 2 :run :bomb :effected :other}]"
            ),
            "After 2 reorders of the queue, run bomb for the enemy"
        );
        assert_eq!(
            say_in("skills", "[{:run :etiOnHealCalculation :effected :other}]"),
            "Run etiOnHealCalculation for the enemy"
        );
        assert_eq!(
            say_in("skills", "[{:run :etiOnSkillStart}]"),
            "Run etiOnSkillStart for each player"
        );
    }

    #[test]
    fn cases_decide_every_condition_both_ways() {
        let rules = bundled("arcomage");
        let arena = crate::syntax::Arena::new();
        let form = crate::syntax::read_one(
            &arena,
            "[{:effected :you :resource [> [:other :wall] 10 :wall :tower] :amount [= [:you :wall] 0 6 3]}]",
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let effects = rules
            .check_effects(&form)
            .unwrap_or_else(|d| panic!("{d:?}"));
        let all = cases(&effects[0]);
        let said: Vec<String> = all.iter().map(|c| explain_effect(&rules, c)).collect();
        assert_eq!(said, ["+6 Wall", "+3 Wall", "+6 Tower", "+3 Tower"]);
    }
}
