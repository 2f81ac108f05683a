//! Effects said as card texts say them: changes of numbers and operations,
//! the same change to both players said once, groups, loops, new entities,
//! timings run, queue changes and status changes.

use super::cases::{no_op, split};
use super::words::{Item, Person, count_of, join, title};
use super::{En, MAX_SPLIT};
use crate::check::ast::{Bool, Effect, Entity, Int, Pick, QueueOp, Resource, Source, StatusOp};
use crate::check::list_and;
use crate::ids::{AttrId, KindId, OpId};

/// How far after a change its twin for the other player is looked for.
const TWIN_WINDOW: usize = 32;

impl En<'_> {
    /// Whether an attribute is something players spend (a card's cost is paid
    /// in it): losing it reads "enemy loses 3 Beasts", where a producer or a
    /// building reads "-1 enemy Quarry".
    fn is_stock(&self, a: AttrId) -> bool {
        self.rules
            .cards
            .as_ref()
            .is_some_and(|c| c.pay_with.contains(&a))
    }

    /// Every seat, as a subject: "all players" in a two-seat game (the two
    /// roles are every seat), else "you and the enemy".
    fn everyone(&self) -> String {
        if self.rules.seats.len() == 2 {
            format!("all {}", self.kinds(KindId::FIRST))
        } else {
            "you and the enemy".into()
        }
    }

    pub(super) fn list(&mut self, effects: &[Effect]) -> Vec<Item> {
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
            format!("{} {}", list_and(texts), self.when(&c)),
            thens.len(),
        ))
    }

    /// A plain change of a number by a literal, to `:you` or `:other`: one
    /// that can be said once for both when its twin is there too.
    fn plain<'e>(&self, e: &'e Effect) -> Option<(Person, &'e Resource, i64)> {
        let (Entity::Role(r), Int::Lit(n)) = (&e.entity, &e.amount) else {
            return None;
        };
        let who = self.role(*r);
        (matches!(who, Person::You | Person::Other)
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
        format!("at once: {}", list_and(items))
    }

    pub(super) fn effect(&mut self, e: &Effect) -> Item {
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
                match &each.source {
                    Some(source @ (Source::Zone(_) | Source::Adjacent(_))) => {
                        let what = self.source_words(source);
                        let saved = self.bind_source(each.outer, source);
                        let filter = each.filter.as_ref().map(|c| self.where_clause(c));
                        let (_, text) = inner(self, &each.effects);
                        self.bound = saved;
                        let what = what.replacen("cards", "card", 1);
                        Item::Cond(format!(
                            "for each {what}{}: {text}",
                            filter.unwrap_or_default()
                        ))
                    }
                    Some(Source::Kind(kind)) => {
                        let kind = *kind;
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
                    text.push_str(&format!(" with {}", list_and(values)));
                }
                Item::Text(text)
            }
            Resource::Run(t) => {
                let each = self.rules.timings.get(*t).and_then(|t| t.each);
                let whom = match each {
                    Some(k) => format!(" for each {}", self.kind(k)),
                    None if who == Person::You => String::new(),
                    None => format!(" for {}", who.subject()),
                };
                Item::Text(format!("run {}{whom}", self.timing(*t)))
            }
            Resource::Queue(q) => Item::Text(match **q {
                QueueOp::Turns(kind) => {
                    let kind = match self.rules.turn_kind_names.get(kind) {
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
            Resource::Cards(op) => self.card_effect(&who, op, &e.amount),
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

    fn attr_change(&mut self, who: &Person, a: AttrId, amount: &Int, set: bool) -> Item {
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
                    Person::You => format!("{sign}{n} {name}"),
                    Person::Other if negative && self.is_stock(a) => {
                        return Item::Loss {
                            subject: "enemy".into(),
                            verb: "loses".into(),
                            what: vec![format!("{n} {name}")],
                        };
                    }
                    Person::Other => format!("{sign}{n} enemy {name}"),
                    Person::Named(_) => format!("{sign}{n} {name} for {}", who.subject()),
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

    fn op_change(&mut self, who: &Person, o: OpId, amount: &Int) -> String {
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

    fn status_change(&mut self, who: &Person, op: &StatusOp, amount: &Int) -> String {
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
}
