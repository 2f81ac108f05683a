//! Cards in zones in plain words: effects on cards as card texts say them
//! ("Draw 2 cards", "The enemy discards a random card", "Create 2 Wisps on
//! your board"), piles ("your hand", "the deck"), and the queries of zones,
//! in English and in the language's syntax.

use super::En;
use super::words::{Bound, Item, Person, Ph, Prec};
use crate::check::ast::{
    Bool, CardOp, CardPick, CardVerb, Cards, Edge, Entity, Int, Over, Place, RoleId, Selection,
    Source, ZoneRef,
};

/// "a card", "2 cards", "(n) cards".
fn cards_count(n: &str) -> String {
    match n {
        "1" => "a card".into(),
        n => format!("{n} cards"),
    }
}

/// A number as a count: `2`, or `3` in words where short.
fn number_word(n: i64) -> String {
    match n {
        2 => "two".into(),
        3 => "three".into(),
        n => n.to_string(),
    }
}

impl En<'_> {
    /// Binds `:self` at role `outer` to each entity of `source`: an entity
    /// of a kind, or a card. Returns what to restore.
    pub(super) fn bind_source(&mut self, outer: RoleId, source: &Source) -> Vec<Bound> {
        match source {
            Source::Kind(k) => self.bind_self(outer, *k),
            Source::Zone(_) | Source::Adjacent(_) => self.bind_as(outer, Bound::Card),
        }
    }

    /// The name of zone `z`'s zone.
    fn zone_name(&self, z: &ZoneRef) -> &str {
        self.rules
            .zones
            .as_ref()
            .and_then(|set| set.zones.get(z.zone))
            .map_or("zone", |d| d.name.as_str())
    }

    /// Whether zone `z` is a board (it has slots).
    fn is_board(&self, z: &ZoneRef) -> bool {
        self.rules
            .zones
            .as_ref()
            .and_then(|set| set.zones.get(z.zone))
            .is_some_and(|d| d.slots > 0)
    }

    /// Whether zone `z` is a pile with a top (`:ordered`).
    fn is_ordered(&self, z: &ZoneRef) -> bool {
        self.rules
            .zones
            .as_ref()
            .and_then(|set| set.zones.get(z.zone))
            .is_some_and(|d| d.ordered)
    }

    /// A pile in words: "your hand", "the enemy's board", "the deck".
    pub(super) fn zone_words(&mut self, z: &ZoneRef) -> String {
        let name = self.zone_name(z).to_string();
        match &z.owner {
            Some(who) => format!("{} {name}", self.who(who).possessive()),
            None => format!("the {name}"),
        }
    }

    /// The cards of a source, in words, after "the number of" and the like:
    /// "cards in your hand", "cards beside this card", "minions in play".
    pub(super) fn source_words(&mut self, s: &Source) -> String {
        match s {
            Source::Kind(k) => format!("{} in play", self.kinds(*k)),
            Source::Zone(z) if self.is_board(z) => format!("cards on {}", self.zone_words(z)),
            Source::Zone(z) => format!("cards in {}", self.zone_words(z)),
            Source::Adjacent(who) => format!("cards beside {}", self.who(who).subject()),
        }
    }

    /// `[count PILE where]`: "the number of cards in your hand".
    pub(super) fn count_cards(&mut self, over: &Over) -> Ph {
        let what = self.source_words(&over.source);
        let saved = self.bind_source(over.outer, &over.source);
        let filter = over
            .filter
            .as_ref()
            .map(|c| self.where_clause(c))
            .unwrap_or_default();
        self.bound = saved;
        Ph(format!("the number of {what}{filter}"), Prec::Phrase)
    }

    /// `[sum PILE value where]`, `[max-of …]`, `[min-of …]`: "the total
    /// attack of the cards on your board", "the highest attack of …".
    pub(super) fn over_cards(&mut self, how: &str, over: &Over) -> Ph {
        let what = self.source_words(&over.source);
        let saved = self.bind_source(over.outer, &over.source);
        let filter = over
            .filter
            .as_ref()
            .map(|c| self.where_clause(c))
            .unwrap_or_default();
        let text = match &over.value {
            Int::Attr(Entity::Role(r), a) if (*r).index() == over.outer.index() => {
                format!("the {how} {} of the {what}{filter}", self.attr(*a))
            }
            v => format!(
                "the {how} of {} over the {what}{filter}",
                self.int(v).at(Prec::Sum)
            ),
        };
        self.bound = saved;
        Ph(text, Prec::Phrase)
    }

    /// `[top PILE value default]`: "the top card's cost of the deck (0 if it is empty)".
    pub(super) fn edge_words(&mut self, top: bool, edge: &Edge) -> Ph {
        let pile = self.zone_words(&edge.zone);
        let end = if top { "top" } else { "bottom" };
        let saved = self.bind_as(edge.outer, Bound::Card);
        let value = match &edge.value {
            Int::Attr(Entity::Role(r), a) if (*r).index() == edge.outer.index() => {
                format!("the {} of the {end} card of {pile}", self.attr(*a))
            }
            v => format!("{} for the {end} card of {pile}", self.int(v).at(Prec::Sum)),
        };
        self.bound = saved;
        let default = self.int(&edge.default).at(Prec::Sum);
        Ph(format!("{value} ({default} if it is empty)"), Prec::Phrase)
    }

    /// Conditions on cards: "that card is a Guard", "this card is in your hand".
    pub(super) fn card_cond(&mut self, c: &Bool) -> Option<String> {
        Some(match c {
            Bool::Named(named) => {
                let who = self.who(&named.0);
                format!(
                    "{} {} {}",
                    who.subject(),
                    who.verb("are", "is"),
                    named.1.name
                )
            }
            Bool::OfKind(who, k) => {
                let who = self.who(who);
                format!(
                    "{} {} a {}",
                    who.subject(),
                    who.verb("are", "is"),
                    self.kind(*k)
                )
            }
            Bool::In(is_in) => {
                let who = self.who(&is_in.0);
                let pile = self.zone_words(&is_in.1);
                format!("{} {} in {pile}", who.subject(), who.verb("are", "is"))
            }
            _ => return None,
        })
    }

    /// The cards an effect acts on: "this card", "the top card of the deck",
    /// "a random card of the enemy's board with attack at most 2".
    fn cards_words(&mut self, cards: &Cards) -> String {
        let sel = match cards {
            Cards::One(who) => return self.who(who).subject(),
            Cards::Pick(sel) => sel,
        };
        self.selection_words(sel)
    }

    fn selection_words(&mut self, sel: &Selection) -> String {
        let (from, of) = match &sel.from {
            Source::Zone(z) => (self.zone_words(z), "of"),
            Source::Adjacent(who) => (self.who(who).subject(), "beside"),
            Source::Kind(k) => (format!("the {} in play", self.kinds(*k)), "of"),
        };
        let n = match &sel.count {
            Int::Lit(n) => *n,
            _ => -1,
        };
        let count = if n < 0 {
            format!("({})", self.amount(&sel.count))
        } else {
            n.to_string()
        };
        let saved = self.bind_source(sel.outer, &sel.from);
        let filter = sel
            .filter
            .as_ref()
            .map(|c| self.where_clause(c))
            .unwrap_or_default();
        self.bound = saved;
        let one = n == 1;
        let text = match (sel.pick, one) {
            (CardPick::All, _) => format!("every card {of} {from}"),
            (CardPick::Top, true) => format!("the top card of {from}"),
            (CardPick::Top, false) => format!("the top {count} cards of {from}"),
            (CardPick::Bottom, true) => format!("the bottom card of {from}"),
            (CardPick::Bottom, false) => format!("the bottom {count} cards of {from}"),
            (CardPick::Random, true) => format!("a random card {of} {from}"),
            (CardPick::Random, false) => format!("{count} random cards {of} {from}"),
            (CardPick::Chosen, true) => format!("a card {of} {from}"),
            (CardPick::Chosen, false) => format!("{count} cards {of} {from}"),
        };
        format!("{text}{filter}")
    }

    /// Where cards go: "to your hand", "to the bottom of the deck", "to slot 2 of your board".
    fn dest_words(&mut self, zone: &ZoneRef, at: &Place) -> String {
        let pile = self.zone_words(zone);
        match at {
            Place::Top if self.is_board(zone) => format!("onto {pile}"),
            Place::Top if self.is_ordered(zone) => format!("to the top of {pile}"),
            Place::Top => format!("to {pile}"),
            Place::Bottom => format!("to the bottom of {pile}"),
            Place::Random => format!("into {pile} at a random place"),
            Place::Slot(n) => format!("to slot {} of {pile}", self.int(n).at(Prec::Sum)),
        }
    }

    /// An effect on cards, as a card's text says it.
    pub(super) fn card_effect(&mut self, who: &Person, op: &CardOp, amount: &Int) -> Item {
        let n = self
            .short(amount)
            .map_or_else(|| format!("({})", self.amount(amount)), |(_, n)| n);
        let dest = op.to.as_ref();
        let text = match &op.verb {
            CardVerb::Draw(from) => {
                let mut text = format!("{} {}", draw_subject(who), cards_count(&n));
                if let Some(from) = from {
                    text.push_str(&format!(" from {}", self.zone_words(from)));
                }
                if let Some(d) = dest
                    && self.rules.zones.as_ref().and_then(|s| s.plays) != Some(d.zone.zone)
                {
                    let into = self.zone_words(&d.zone);
                    text.push_str(&format!(" into {into}"));
                }
                text
            }
            CardVerb::Discard => {
                let what = match &op.cards {
                    Some(Cards::Pick(sel)) => self.discard_words(sel),
                    Some(cards) => self.cards_words(cards),
                    None => "nothing".into(),
                };
                format!("{} {what}", subject_verb(who, "discard", "discards"))
            }
            CardVerb::Move => {
                let what = op
                    .cards
                    .as_ref()
                    .map_or_else(String::new, |c| self.cards_words(c));
                let to = dest.map_or_else(String::new, |d| self.dest_words(&d.zone, &d.at));
                format!("move {what} {to}")
            }
            CardVerb::Shuffle(z) => format!("shuffle {}", self.zone_words(z)),
            CardVerb::Look => {
                let what = op
                    .cards
                    .as_ref()
                    .map_or_else(String::new, |c| self.look_words(c));
                format!("{} at {what}", subject_verb(who, "look", "looks"))
            }
            CardVerb::Reveal(to) => {
                let what = op
                    .cards
                    .as_ref()
                    .map_or_else(String::new, |c| self.look_words(c));
                match to {
                    Some(to) => format!("reveal {what} to {}", self.who(to).subject()),
                    None => format!("reveal {what}"),
                }
            }
            CardVerb::Create(name) => {
                let count = match amount {
                    Int::Lit(1) => "a".to_string(),
                    Int::Lit(k) => number_word(*k),
                    _ => n.clone(),
                };
                let plural = if matches!(amount, Int::Lit(1)) {
                    ""
                } else {
                    "s"
                };
                let to = dest.map_or_else(String::new, |d| {
                    let pile = self.zone_words(&d.zone);
                    if self.is_board(&d.zone) {
                        format!(" on {pile}")
                    } else {
                        format!(" in {pile}")
                    }
                });
                format!("create {count} {}{plural}{to}", name.name)
            }
            CardVerb::Destroy => {
                let what = op
                    .cards
                    .as_ref()
                    .map_or_else(String::new, |c| self.cards_words(c));
                format!("destroy {what}")
            }
            CardVerb::Cancel => {
                let what = op
                    .cards
                    .as_ref()
                    .map_or_else(String::new, |c| self.cards_words(c));
                format!("cancel {what}")
            }
            CardVerb::Remove => {
                let what = op
                    .cards
                    .as_ref()
                    .map_or_else(String::new, |c| self.cards_words(c));
                format!("remove {what} from the game")
            }
            CardVerb::Pass(zones, next) => {
                let names = zones.iter().map(|&z| {
                    self.rules
                        .zones
                        .as_ref()
                        .and_then(|s| s.zones.get(z))
                        .map_or_else(|| "pile".to_string(), |d| d.name.clone())
                });
                let way = if *next { "next" } else { "previous" };
                format!(
                    "each seat passes its {} to the {way} seat",
                    crate::diag::list_and(names.collect::<Vec<_>>())
                )
            }
        };
        Item::Text(text)
    }

    /// What a discard takes from the seat's hand: "a card", "a random card",
    /// "their hand", "every spell of your hand".
    fn discard_words(&mut self, sel: &Selection) -> String {
        let n = match &sel.count {
            Int::Lit(n) => n.to_string(),
            c => format!("({})", self.amount(c)),
        };
        match (sel.pick, &sel.filter) {
            (CardPick::Chosen, _) => cards_count(&n),
            (CardPick::Random, None) if n == "1" => "a random card".into(),
            (CardPick::Random, None) => format!("{n} random cards"),
            (CardPick::All, None) => match &sel.from {
                Source::Zone(z) => self.zone_words(z),
                _ => self.selection_words(sel),
            },
            _ => self.selection_words(sel),
        }
    }

    /// What a look or a reveal shows: "the enemy's hand", "this card".
    fn look_words(&mut self, cards: &Cards) -> String {
        match cards {
            Cards::Pick(sel) if sel.pick == CardPick::All && sel.filter.is_none() => {
                match &sel.from {
                    Source::Zone(z) => self.zone_words(z),
                    _ => self.selection_words(sel),
                }
            }
            _ => self.cards_words(cards),
        }
    }

    /// A pile in the language's syntax: `:deck`, `[:hand :you]`.
    pub(super) fn zone_syntax(&self, z: &ZoneRef, out: &mut String) {
        let name = self.zone_name(z).to_string();
        match &z.owner {
            Some(who) => {
                out.push_str(&format!("[:{name} "));
                self.entity_syntax(who, out);
                out.push(']');
            }
            None => out.push_str(&format!(":{name}")),
        }
    }

    /// A source in the language's syntax: `:minion`, `[:board :you]`, `[adjacent :this-card]`.
    pub(super) fn source_syntax(&self, s: &Source, out: &mut String) {
        match s {
            Source::Kind(k) => out.push_str(&format!(":{}", self.kind(*k))),
            Source::Zone(z) => self.zone_syntax(z, out),
            Source::Adjacent(who) => {
                out.push_str("[adjacent ");
                self.entity_syntax(who, out);
                out.push(']');
            }
        }
    }

    /// A query of zones in the language's syntax, where it is one.
    pub(super) fn card_int_syntax(&self, e: &Int, out: &mut String) {
        match e {
            Int::Extreme(max, over) => {
                out.push_str(if *max { "[max-of " } else { "[min-of " });
                self.source_syntax(&over.source, out);
                let mut inner = self.inner();
                inner.bind_source(over.outer, &over.source);
                out.push(' ');
                inner.int_syntax(&over.value, out);
                if let Some(c) = &over.filter {
                    out.push(' ');
                    inner.bool_syntax(c, out);
                }
                out.push(']');
            }
            Int::Edge(top, edge) => {
                out.push_str(if *top { "[top " } else { "[bottom " });
                self.zone_syntax(&edge.zone, out);
                let mut inner = self.inner();
                inner.bind_as(edge.outer, Bound::Card);
                out.push(' ');
                inner.int_syntax(&edge.value, out);
                out.push(' ');
                self.int_syntax(&edge.default, out);
                out.push(']');
            }
            Int::Slot(who) => {
                out.push_str("[slot ");
                self.entity_syntax(who, out);
                out.push(']');
            }
            _ => {}
        }
    }

    /// A condition on cards in the language's syntax, where it is one.
    pub(super) fn card_bool_syntax(&self, c: &Bool, out: &mut String) {
        match c {
            Bool::Named(named) => {
                out.push_str("[named ");
                self.entity_syntax(&named.0, out);
                out.push_str(&format!(" {:?}]", &*named.1.name));
            }
            Bool::OfKind(who, k) => {
                out.push_str("[of-kind ");
                self.entity_syntax(who, out);
                out.push_str(&format!(" :{}]", self.kind(*k)));
            }
            Bool::In(is_in) => {
                out.push_str("[in ");
                self.entity_syntax(&is_in.0, out);
                out.push(' ');
                self.zone_syntax(&is_in.1, out);
                out.push(']');
            }
            _ => {}
        }
    }

    /// A copy of this explainer, for what is said inside a loop or a query.
    fn inner(&self) -> En<'_> {
        En {
            rules: self.rules,
            bound: self.bound.clone(),
            args: self.args.clone(),
            depth: self.depth,
        }
    }
}

/// The subject of a draw, with its verb: "draw", "the enemy draws".
fn draw_subject(who: &Person) -> String {
    subject_verb(who, "draw", "draws")
}

/// "discard" for you (a card's imperative), "the enemy discards" for others.
fn subject_verb(who: &Person, plain: &str, third: &str) -> String {
    match who {
        Person::You => plain.into(),
        _ => format!("{} {third}", who.subject()),
    }
}
