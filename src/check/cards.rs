//! Cards in zones, as effects and queries name them (a rule set with
//! `:zones`): piles (`:deck`, `[:hand :you]`), selections of their cards
//! (`{:from [:hand :you] :pick :random}`), the effects on cards (draw,
//! discard, move, shuffle, look, reveal, create, destroy, remove, pass), and the
//! queries of them (`max-of`, `top`, `slot`, `named`, `of-kind`, `in`,
//! `holds`, `adjacent`, and `count`, `sum` and `:each` over a pile).
//!
//! Every one of them is E0243 in a rule set without `:zones`: the cards of
//! `:cards` alone are the engine's, which no effect reaches.

use super::calls::Call;
use super::keys::{Keys, keys};
use super::ops::OpKind;
use super::{Checker, Declared, THIS_CARD, fields, list};
use crate::check::ast::{
    Bool, CardName, CardOp, CardPick, CardVerb, Cards, Cmp, Dest, Edge, Effect, Entity, Int, Over,
    Place, RoleId, Selection, Source, ZoneRef,
};
use crate::check::rules::{ZoneDef, ZoneSet};
use crate::diag::{Code, Diagnostic};
use crate::ids::ZoneId;
use crate::syntax::{Form, Kind, Span};

keys! {
    /// The keys of an effect on cards: one verb, and what it takes.
    pub enum CardKey {
        /// `:draw 2`: the effected seat draws.
        Draw = "draw",
        /// `:discard 1` (or `:all`): the effected seat discards from its hand.
        Discard = "discard",
        /// `:move SELECTION`: cards go to `:to`.
        Move = "move",
        /// `:shuffle ZONE`: a pile is shuffled.
        Shuffle = "shuffle",
        /// `:look SELECTION`: the effected seat sees cards.
        Look = "look",
        /// `:reveal SELECTION`: every seat (or `:to`'s) sees cards.
        Reveal = "reveal",
        /// `:create "Wisp"`: a new card of that name goes to `:to`.
        Create = "create",
        /// `:destroy SELECTION`: cards fall, to their zone's `:leaves-to`.
        Destroy = "destroy",
        /// `:remove SELECTION`: cards leave the game.
        Remove = "remove",
        /// `:pass [:pack]`: every seat's pile of a zone per seat moves to the next seat's (`:to`).
        Pass = "pass",
        /// `:cancel :subject`: the card a reaction answers is stopped (a
        /// reaction card's effects only).
        Cancel = "cancel",
        /// `:effected :you`: the seat that draws, discards or looks.
        Effected = "effected",
        /// `:from ZONE`: the pile a draw or a discard takes from.
        From = "from",
        /// `:to ZONE`: where cards go (a seat, for `:reveal`; `:next` or
        /// `:previous`, for `:pass`).
        To = "to",
        /// `:at :top`, `:bottom` or `:random`: where in the pile they go.
        At = "at",
        /// `:slot 2`: the board slot they go to.
        Slot = "slot",
        /// `:count 2`: how many cards `:create` makes.
        Count = "count",
        /// `:pick :random`: which cards of the hand a discard takes.
        Pick = "pick",
        /// `:where condition`: only the cards for which it holds (`:self` bound).
        Where = "where",
    }
}

keys! {
    /// The keys of a selection: `{:from ZONE :pick :random :count 2 :where c}`.
    pub enum SelectKey {
        /// `:from ZONE` (or `[adjacent card]`): where the cards are.
        From = "from",
        /// `:pick :top`: which of them.
        Pick = "pick",
        /// `:count 2`: how many (1 without).
        Count = "count",
        /// `:where condition`: only those for which it holds (`:self` bound).
        Where = "where",
    }
}

keys! {
    /// Which cards a selection takes: `:pick`.
    pub enum CardPickName {
        /// From the top of an ordered pile (the default there).
        Top = "top",
        /// From the bottom.
        Bottom = "bottom",
        /// At random.
        Random = "random",
        /// Every one.
        All = "all",
        /// The seat discarding chooses, after the effect list.
        Chosen = "chosen",
    }
}

keys! {
    /// Which way `:pass` passes the piles: `:to`.
    pub enum PassTo {
        /// To the next seat, in seat order (the last passes to the first).
        Next = "next",
        /// To the previous seat (the first passes to the last).
        Previous = "previous",
    }
}

keys! {
    /// Where in a pile cards go: `:at`.
    pub enum AtName {
        /// On top.
        Top = "top",
        /// At the bottom.
        Bottom = "bottom",
        /// At a random place.
        Random = "random",
    }
}

/// The verbs, the keys that say what an effect on cards does.
pub const VERBS: &[CardKey] = &[
    CardKey::Draw,
    CardKey::Discard,
    CardKey::Move,
    CardKey::Shuffle,
    CardKey::Look,
    CardKey::Reveal,
    CardKey::Create,
    CardKey::Destroy,
    CardKey::Remove,
    CardKey::Pass,
    CardKey::Cancel,
];

/// Whether `form` is an effect map on cards: it has a verb's key.
pub fn is_card_effect(form: &Form<'_>) -> bool {
    VERBS.iter().any(|k| form.has_key(k.name()))
}

/// The keys each verb takes beside itself.
fn keys_of(verb: CardKey) -> &'static [CardKey] {
    use CardKey as K;
    match verb {
        K::Draw => &[K::Effected, K::From, K::To],
        K::Discard => &[K::Effected, K::From, K::To, K::Pick, K::Where],
        K::Move => &[K::To, K::At, K::Slot],
        K::Look => &[K::Effected],
        K::Reveal => &[K::To],
        K::Create => &[K::To, K::At, K::Slot, K::Count],
        K::Shuffle | K::Destroy | K::Remove | K::Cancel => &[],
        K::Pass => &[K::To],
        _ => &[],
    }
}

/// A zone is laid out with an order: a pile with a top, or a board's slots.
fn has_order(def: &ZoneDef) -> bool {
    def.ordered || def.slots > 0
}

impl<'a, 'r> Checker<'_, 'r> {
    /// The zones, or E0243 at `span` saying `what` needs them.
    fn zones_for(&mut self, span: Span, what: &str) -> Option<&'r ZoneSet> {
        if self.scope.zones.is_none() {
            self.error(zones_needed(span, what));
        }
        self.scope.zones
    }

    /// `{:effected :you :draw 2}`, `{:move … :to …}` and the other effects
    /// on cards. Out of line, as the other rare effect forms.
    #[inline(never)]
    pub(super) fn card_effect(&mut self, form: &Form<'a>) -> Option<Effect> {
        let before = self.diags.len();
        let pairs = fields(form, "an effect on cards", CardKey::ALL, self.diags)?;
        let verbs: Vec<(CardKey, &Form<'a>)> = pairs
            .iter()
            .filter(|(k, _)| VERBS.contains(k))
            .copied()
            .collect();
        let &(verb, value) = verbs.first()?;
        if let Some(&(second, v)) = verbs.get(1) {
            self.error(
                Diagnostic::new(
                    Code::TwoChanges,
                    v.span,
                    format!(
                        "an effect does one thing: it has `:{}` already",
                        verb.name()
                    ),
                )
                .with_label(format!("a second verb, `:{}`", second.name()))
                .with_related(value.span, "the first"),
            );
            return None;
        }
        let key_span = key_span_of(form, verb.name()).unwrap_or(value.span);
        self.zones_for(key_span, &format!("`:{}`", verb.name()))?;
        let allowed = keys_of(verb);
        for (key, v) in &pairs {
            if *key != verb && !allowed.contains(key) {
                self.error(
                    Diagnostic::new(
                        Code::KeyNotHere,
                        key_span_of(form, key.name()).unwrap_or(v.span),
                        format!("`:{}` takes no `:{}`", verb.name(), key.name()),
                    )
                    .with_label("not used here")
                    .with_help(match allowed {
                        [] => format!("`:{}` takes nothing more", verb.name()),
                        keys => format!(
                            "`:{}` takes {}",
                            verb.name(),
                            list(keys.iter().map(|k| format!("`:{}`", k.name())))
                        ),
                    }),
                );
            }
        }
        if self.diags.len() > before {
            return None;
        }
        if verb == CardKey::Cancel && !self.scope.in_reaction {
            self.error(cancel_outside_reaction(key_span));
            return None;
        }
        let find = |key: CardKey| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        let effected = match find(CardKey::Effected) {
            Some(v) => self.entity(v),
            None => Some(Entity::Role(RoleId::FIRST)),
        };
        let parts = Parts {
            form,
            value,
            effected: effected?,
            find: &find,
        };
        let (op, amount) = match verb {
            CardKey::Draw => self.draw(&parts)?,
            CardKey::Discard => self.discard(&parts)?,
            CardKey::Create => self.create(&parts)?,
            CardKey::Shuffle => {
                let zone = self.zone_ref(value)?;
                (card_op(CardVerb::Shuffle(zone), None, None), Int::Lit(0))
            }
            CardKey::Pass => {
                let zones = self.passed_zones(value)?;
                let next = self.pass_to(form, find(CardKey::To))?;
                (
                    card_op(CardVerb::Pass(zones, next), None, None),
                    Int::Lit(0),
                )
            }
            CardKey::Reveal => {
                let to = match find(CardKey::To) {
                    Some(v) => Some(self.entity(v)?),
                    None => None,
                };
                let cards = self.cards(value, false)?;
                (
                    card_op(CardVerb::Reveal(to), Some(cards), None),
                    Int::Lit(0),
                )
            }
            _ => {
                let cards = self.cards(value, false)?;
                let (verb, to) = match verb {
                    CardKey::Move => (CardVerb::Move, Some(self.dest(form, &find)?)),
                    CardKey::Look => (CardVerb::Look, None),
                    CardKey::Destroy => (CardVerb::Destroy, None),
                    CardKey::Cancel => (CardVerb::Cancel, None),
                    _ => (CardVerb::Remove, None),
                };
                (card_op(verb, Some(cards), to), Int::Lit(0))
            }
        };
        if self.diags.len() > before {
            return None;
        }
        Some(Effect {
            entity: parts.effected,
            resource: crate::check::ast::Resource::Cards(Box::new(op)),
            amount,
            set: false,
            at_once: 1,
            span: form.span,
        })
    }

    /// `{:effected :you :draw 2 :from ZONE :to ZONE}`: into the seat's
    /// `:plays` zone unless `:to` says, from what the zone drawn into
    /// `:draws-from` unless `:from` says.
    fn draw(&mut self, parts: &Parts<'_, '_, 'a>) -> Option<(CardOp, Int)> {
        let n = self.int(parts.value)?;
        let set = self.scope.zones?;
        let to = match (parts.find)(CardKey::To) {
            Some(v) => self.zone_ref(v)?,
            None => self.plays_zone(set, &parts.effected, parts.value.span, "draws")?,
        };
        let from = match (parts.find)(CardKey::From) {
            Some(v) => {
                let from = self.zone_ref(v)?;
                if !has_order(&set.zones[from.zone]) {
                    self.error(not_ordered(
                        v.span,
                        &set.zones[from.zone].name,
                        "a draw takes the top card",
                    ));
                    return None;
                }
                Some(from)
            }
            None if set.zones[to.zone].draws_from.is_none() => {
                self.error(
                    Diagnostic::new(
                        Code::MissingKey,
                        parts.form.span,
                        format!(
                            "`:{}` draws from no zone: say where from",
                            set.zones[to.zone].name
                        ),
                    )
                    .with_label("missing `:from`")
                    .with_help("add `:from :deck`, or give the zone `:draws-from`"),
                );
                return None;
            }
            None => None,
        };
        let dest = Dest {
            zone: to,
            at: Place::Top,
        };
        Some((card_op(CardVerb::Draw(from), None, Some(dest)), n))
    }

    /// `{:effected :other :discard 1 :pick :random :where c}` (or `:discard
    /// :all`): from the seat's `:plays` zone (or `:from`), to that zone's
    /// `:discard-to` (or `:to`); `:pick :chosen` (the default) lets the seat choose.
    fn discard(&mut self, parts: &Parts<'_, '_, 'a>) -> Option<(CardOp, Int)> {
        let set = self.scope.zones?;
        let all = parts.value.as_keyword() == Some(CardPickName::All.name());
        let count = if all {
            Int::Lit(0)
        } else {
            self.int(parts.value)?
        };
        let from = match (parts.find)(CardKey::From) {
            Some(v) => self.zone_ref(v)?,
            None => self.plays_zone(set, &parts.effected, parts.value.span, "discards")?,
        };
        let pick = match ((parts.find)(CardKey::Pick), all) {
            (Some(v), false) => {
                let def = &set.zones[from.zone];
                self.pick(v, &def.name, has_order(def))?
            }
            (Some(v), true) => {
                self.error(
                    Diagnostic::new(
                        Code::KeyNotHere,
                        v.span,
                        "`:discard :all` discards every card: it takes no `:pick`",
                    )
                    .with_label("not used here"),
                );
                return None;
            }
            (None, true) => CardPick::All,
            (None, false) => CardPick::Chosen,
        };
        let filter = match (parts.find)(CardKey::Where) {
            Some(c) if pick == CardPick::Chosen => {
                self.error(
                    Diagnostic::new(
                        Code::KeyNotHere,
                        c.span,
                        "a chosen discard takes any discardable card of the hand: it takes no `:where`",
                    )
                    .with_label("not used here")
                    .with_help("pick the cards: `:pick :random`, `:all`, `:top`"),
                );
                return None;
            }
            Some(c) => Some(self.with_self(|cx| cx.boolean(c))?),
            None => None,
        };
        if let (CardPick::Chosen, Some(v)) = (pick, (parts.find)(CardKey::From)) {
            self.error(
                Diagnostic::new(
                    Code::KeyNotHere,
                    v.span,
                    "a chosen discard is from the seat's own hand (its `:plays` zone)",
                )
                .with_label("not used here")
                .with_help("leave out `:from`, or pick the cards: `:pick :random`"),
            );
            return None;
        }
        let to = match (parts.find)(CardKey::To) {
            Some(v) => self.zone_ref(v)?,
            None => {
                let zone = set.zones[from.zone].discard_to.unwrap_or(set.removed);
                owned(set, zone, &parts.effected)
            }
        };
        let selection = Selection {
            from: Source::Zone(Box::new(from)),
            pick,
            count,
            filter,
            outer: self.outer()?,
        };
        let dest = Dest {
            zone: to,
            at: Place::Top,
        };
        let op = card_op(
            CardVerb::Discard,
            Some(Cards::Pick(Box::new(selection))),
            Some(dest),
        );
        Some((op, Int::Lit(0)))
    }

    /// `{:create "Wisp" :to [:board :you] :count 2 :at :top :slot 0}`.
    fn create(&mut self, parts: &Parts<'_, '_, 'a>) -> Option<(CardOp, Int)> {
        let name = self.card_name(parts.value, "`:create`")?;
        let count = match (parts.find)(CardKey::Count) {
            Some(v) => self.int(v)?,
            None => Int::Lit(1),
        };
        let Some(_) = (parts.find)(CardKey::To) else {
            self.error(
                Diagnostic::new(
                    Code::MissingKey,
                    parts.form.span,
                    "`:create` makes a card somewhere: say where",
                )
                .with_label("missing `:to`")
                .with_help("add `:to [:board :you]`"),
            );
            return None;
        };
        let dest = self.dest(parts.form, parts.find)?;
        Some((card_op(CardVerb::Create(name), None, Some(dest)), count))
    }

    /// The pile of the `:plays` zone `who` owns: where a draw goes and a
    /// discard comes from unless the effect says.
    fn plays_zone(
        &mut self,
        set: &ZoneSet,
        who: &Entity,
        span: Span,
        does: &str,
    ) -> Option<ZoneRef> {
        match set.plays {
            Some(zone) => Some(owned(set, zone, who)),
            None => {
                self.error(
                    Diagnostic::new(
                        Code::MissingKey,
                        span,
                        format!(
                            "no zone has `:plays true`, so a seat has no hand: say where it {does}"
                        ),
                    )
                    .with_help("name the zone: `:from [:board :you]`, `:to [:board :you]`"),
                );
                None
            }
        }
    }

    /// `:to ZONE`, with `:at` and `:slot`: where cards go.
    fn dest<'f>(
        &mut self,
        form: &'f Form<'a>,
        find: &dyn Fn(CardKey) -> Option<&'f Form<'a>>,
    ) -> Option<Dest> {
        let Some(to) = find(CardKey::To) else {
            self.error(
                Diagnostic::new(Code::MissingKey, form.span, "this move has no `:to`")
                    .with_label("missing `:to`")
                    .with_help("say where the cards go: `:to [:hand :you]`"),
            );
            return None;
        };
        let zone = self.zone_ref(to)?;
        let set = self.scope.zones?;
        let def = &set.zones[zone.zone];
        let at = match (find(CardKey::At), find(CardKey::Slot)) {
            (Some(a), Some(s)) => {
                self.error(
                    Diagnostic::new(
                        Code::KeyNotHere,
                        s.span,
                        "a card goes to a slot or to a place in a pile: `:slot` or `:at`, not both",
                    )
                    .with_related(a.span, "`:at` is here"),
                );
                return None;
            }
            (Some(a), None) => {
                let message = format!(
                    "`:at` is `:top`, `:bottom` or `:random`, found {}",
                    a.describe()
                );
                match super::keyword_in::<AtName>(a, message, "not a place", None, self.diags)? {
                    AtName::Random => Place::Random,
                    at if !has_order(def) => {
                        self.error(not_ordered(
                            a.span,
                            &def.name,
                            &format!("it has no {}", at.name()),
                        ));
                        return None;
                    }
                    AtName::Top => Place::Top,
                    AtName::Bottom => Place::Bottom,
                }
            }
            (None, Some(s)) => Place::Slot(self.slot(s, def)?),
            (None, None) => Place::Top,
        };
        Some(Dest { zone, at })
    }

    /// `:slot N` on a board: a literal past its slots, or any slot of a zone
    /// without them, is E0242.
    fn slot(&mut self, s: &Form<'a>, def: &ZoneDef) -> Option<Int> {
        if def.slots == 0 {
            self.error(
                Diagnostic::new(
                    Code::NoSuchSlot,
                    s.span,
                    format!("`:{}` has no `:slots`: it is not a board", def.name),
                )
                .with_label("no slots")
                .with_help(
                    "put the card at a place in the pile: `:at :top`, or give the zone `:slots`",
                ),
            );
            return None;
        }
        let n = self.int(s)?;
        if let Int::Lit(k) = n
            && !(0..i64::from(def.slots)).contains(&k)
        {
            self.error(
                Diagnostic::new(
                    Code::NoSuchSlot,
                    s.span,
                    format!(
                        "`:{}` has slots 0 to {}: there is no slot {k}",
                        def.name,
                        def.slots - 1
                    ),
                )
                .with_label("no such slot"),
            );
            return None;
        }
        Some(n)
    }

    /// `:pick :random` for a selection from the pile of zone `zone`, which
    /// has a top and a bottom when `ordered`.
    fn pick(&mut self, v: &Form<'a>, zone: &str, ordered: bool) -> Option<CardPick> {
        let names = list(CardPickName::ALL.iter().map(|p| format!("`:{}`", p.name())));
        let message = format!("`:pick` is {names}, found {}", v.describe());
        let pick = super::keyword_in::<CardPickName>(v, message, "not a pick", None, self.diags)?;
        Some(match pick {
            CardPickName::Top | CardPickName::Bottom if !ordered => {
                self.error(not_ordered(
                    v.span,
                    zone,
                    &format!("it has no {}", pick.name()),
                ));
                return None;
            }
            CardPickName::Top => CardPick::Top,
            CardPickName::Bottom => CardPick::Bottom,
            CardPickName::Random => CardPick::Random,
            CardPickName::All => CardPick::All,
            CardPickName::Chosen => CardPick::Chosen,
        })
    }

    /// Cards an effect acts on: a role (`:this-card`, `:self`, `:target`); a
    /// pile, every card of it (`[:hand :other]`, `:discard`); `[adjacent
    /// card]`; or a selection map. `chosen` allows `:pick :chosen`.
    fn cards(&mut self, form: &Form<'a>, chosen: bool) -> Option<Cards> {
        if self.names_zone(form) {
            let zone = self.zone_ref(form)?;
            return Some(all_of(Source::Zone(Box::new(zone)), self.outer()?));
        }
        if is_adjacent(form) {
            let source = self.source(form, "a selection")?;
            return Some(all_of(source, self.outer()?));
        }
        let Kind::Map(_) = form.kind else {
            return Some(Cards::One(self.entity(form)?));
        };
        let pairs = fields(form, "a selection of cards", SelectKey::ALL, self.diags)?;
        let find = |key: SelectKey| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        let Some(from) = find(SelectKey::From) else {
            self.error(
                Diagnostic::new(Code::MissingKey, form.span, "this selection has no `:from`")
                    .with_label("missing `:from`")
                    .with_help("say where the cards are: `{:from [:hand :you] :pick :random}`"),
            );
            return None;
        };
        let source = self.source(from, "`:from`")?;
        let set = self.scope.zones?;
        let def = match &source {
            Source::Zone(z) => Some(&set.zones[z.zone]),
            Source::Kind(_) | Source::Adjacent(_) => None,
        };
        if let Source::Kind(_) = source {
            self.error(
                Diagnostic::new(
                    Code::UnknownZone,
                    from.span,
                    "`:from` names a zone, not a kind",
                )
                .with_help("`{:from [:board :other] :pick :random}`"),
            );
            return None;
        }
        let pick = match (find(SelectKey::Pick), def) {
            (Some(v), Some(def)) => self.pick(v, &def.name, has_order(def))?,
            // The cards beside one are in a row: left is the bottom, right the top.
            (Some(v), None) => self.pick(v, "adjacent", true)?,
            (None, Some(def)) if def.ordered => CardPick::Top,
            (None, None) => CardPick::All,
            (None, Some(def)) => {
                self.error(
                    Diagnostic::new(
                        Code::MissingKey,
                        form.span,
                        format!("`:{}` is not ordered: say which of its cards", def.name),
                    )
                    .with_label("missing `:pick`")
                    .with_help("`:pick :random`, or `:pick :all`"),
                );
                return None;
            }
        };
        if pick == CardPick::Chosen && !chosen {
            self.error(
                Diagnostic::new(
                    Code::KeyNotHere,
                    find(SelectKey::Pick).map_or(form.span, |v| v.span),
                    "`:pick :chosen` is for a discard: the seat chooses from its hand",
                )
                .with_help("pick the cards here: `:pick :random`, `:top`, `:all`"),
            );
            return None;
        }
        let count = match find(SelectKey::Count) {
            Some(v) => self.int(v)?,
            None => Int::Lit(1),
        };
        let filter = match find(SelectKey::Where) {
            Some(c) => Some(self.with_self(|cx| cx.boolean(c))?),
            None => None,
        };
        Some(Cards::Pick(Box::new(Selection {
            from: source,
            pick,
            count,
            filter,
            outer: self.outer()?,
        })))
    }

    /// Whether `form` names a zone: a zone's keyword, or a vector headed by one.
    fn names_zone(&self, form: &Form<'a>) -> bool {
        let Some(set) = self.scope.zones else {
            // Without zones, a vector headed by a keyword is read as one, to say E0243.
            return matches!(&form.kind, Kind::Vector(items) if items.first().is_some_and(|h| h.as_keyword().is_some()));
        };
        let head = match &form.kind {
            Kind::Keyword(k) => return set.zone(k).is_some(),
            Kind::Vector(items) => items.first(),
            _ => None,
        };
        head.is_some_and(|h| h.as_keyword().is_some())
    }

    /// A pile: `:deck` (a shared zone), `[:hand :you]` (a zone per seat and
    /// its owner). An unknown zone is E0239; a zone per seat without its
    /// owner, or a shared one with one, E0240.
    pub(super) fn zone_ref(&mut self, form: &Form<'a>) -> Option<ZoneRef> {
        let set = self.zones_for(form.span, "a zone")?;
        let (name_form, owner) = match &form.kind {
            Kind::Keyword(_) => (form, None),
            Kind::Vector(items) if items.len() == 2 && items[0].as_keyword().is_some() => {
                (&items[0], Some(&items[1]))
            }
            _ => {
                self.wrong_kind(
                    Code::WrongType,
                    form,
                    "a zone such as `:deck` or `[:hand :you]`",
                    &form.describe(),
                );
                return None;
            }
        };
        let name = name_form.as_keyword().unwrap_or("");
        let zone = self.zone_named(set, name, name_form.span)?;
        let def = &set.zones[zone];
        let owner = match (owner, def.shared) {
            (None, true) => None,
            (Some(o), false) => Some(self.entity(o)?),
            (None, false) => {
                self.error(
                    Diagnostic::new(
                        Code::ZoneOwner,
                        form.span,
                        format!("`:{name}` is one per seat: say whose"),
                    )
                    .with_label("whose?")
                    .with_help(format!("write `[:{name} :you]`")),
                );
                return None;
            }
            (Some(o), true) => {
                self.error(
                    Diagnostic::new(
                        Code::ZoneOwner,
                        o.span,
                        format!("`:{name}` is shared: no seat owns it"),
                    )
                    .with_label("no owner")
                    .with_help(format!("write `:{name}`")),
                );
                return None;
            }
        };
        Some(ZoneRef {
            zone,
            owner,
            capacity: def.capacity,
        })
    }

    /// `:pack` or `[:pack :aside]`: zones one per seat, whose piles a
    /// `:pass` moves round the table. A shared zone is E0240: no seat
    /// holds it to pass it on.
    fn passed_zones(&mut self, form: &Form<'a>) -> Option<Box<[ZoneId]>> {
        let set = self.zones_for(form.span, "`:pass`")?;
        let names: Vec<&Form<'a>> = match &form.kind {
            Kind::Keyword(_) => vec![form],
            Kind::Vector(items) if !items.is_empty() => items.iter().collect(),
            _ => {
                self.wrong_kind(
                    Code::WrongType,
                    form,
                    "a zone one per seat such as `:pack`, or a vector of them",
                    &form.describe(),
                );
                return None;
            }
        };
        // `[:hand :you]` is a pile; `:pass` takes every seat's of a zone.
        if let [zone, owner] = names.as_slice()
            && zone.as_keyword().and_then(|z| set.zone(z)).is_some()
            && owner.as_keyword().and_then(|o| set.zone(o)).is_none()
        {
            let name = zone.as_keyword().unwrap_or("");
            self.error(
                Diagnostic::new(
                    Code::ZoneOwner,
                    owner.span,
                    format!("`:pass` moves every seat's pile of `:{name}`: it names no owner"),
                )
                .with_label("an owner")
                .with_help(format!("write `:pass [:{name}]`")),
            );
            return None;
        }
        let mut zones = Vec::with_capacity(names.len());
        for name_form in names {
            let Some(name) = name_form.as_keyword() else {
                self.wrong_kind(
                    Code::WrongType,
                    name_form,
                    "a zone such as `:pack` (each seat's pile of it is passed)",
                    &name_form.describe(),
                );
                return None;
            };
            let zone = self.zone_named(set, name, name_form.span)?;
            if set.zones[zone].shared {
                self.error(
                    Diagnostic::new(
                        Code::ZoneOwner,
                        name_form.span,
                        format!("`:{name}` is shared: no seat holds it to pass it on"),
                    )
                    .with_label("shared")
                    .with_help("`:pass` moves each seat's own pile of a zone one per seat"),
                );
                return None;
            }
            if zones.contains(&zone) {
                self.error(Diagnostic::new(
                    Code::Duplicate,
                    name_form.span,
                    format!("`:{name}` is passed twice"),
                ));
                return None;
            }
            zones.push(zone);
        }
        Some(zones.into())
    }

    /// `:to :next` (true) or `:to :previous` (false): which way `:pass` goes.
    fn pass_to(&mut self, form: &Form<'a>, to: Option<&Form<'a>>) -> Option<bool> {
        let Some(to) = to else {
            self.error(
                Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    "`:pass` says which way the piles go: `:to :next` or `:to :previous`",
                )
                .with_label("which way?")
                .with_help("add `:to :next` (each seat's pile goes to the seat after it)"),
            );
            return None;
        };
        let message = format!(
            "`:pass` goes `:to :next` or `:to :previous`, found {}",
            to.describe()
        );
        let way = super::keyword_in::<PassTo>(to, message, "not a way round", None, self.diags)?;
        Some(way == PassTo::Next)
    }

    /// The zone called `name`, or E0239 with the nearest.
    fn zone_named(&mut self, set: &ZoneSet, name: &str, span: Span) -> Option<ZoneId> {
        Declared::new(
            set.zones.iter().map(|z| z.name.as_str()),
            "a zone",
            "zones",
            Code::UnknownZone,
        )
        .find(name, span, format!("unknown zone `:{name}`"), self.diags)
        .map(ZoneId::new)
    }

    /// A card's name: a string, the name of a card of the deck (E0407 when
    /// the deck is known and holds none of that name).
    fn card_name(&mut self, form: &Form<'a>, what: &str) -> Option<CardName> {
        match &form.kind {
            Kind::Str(s) if !s.trim().is_empty() => Some(CardName {
                name: (*s).into(),
                span: form.span,
            }),
            _ => {
                self.wrong_kind(
                    Code::WrongType,
                    form,
                    &format!("a card's name for {what}, such as \"Wisp\""),
                    &form.describe(),
                );
                None
            }
        }
    }

    /// What `count`, `sum`, `max-of`, `min-of` and `:each` range over: a
    /// kind (`:minion`), a pile (`[:board :you]`, `:discard`), or the cards
    /// beside one (`[adjacent :this-card]`). Without zones only a kind, as
    /// ever; a zone's name there is E0243.
    pub(super) fn source(&mut self, form: &Form<'a>, key: &str) -> Option<Source> {
        if is_adjacent(form) {
            self.zones_for(form.span, "`adjacent`")?;
            let Kind::Vector(items) = &form.kind else {
                return None;
            };
            let [_, who] = &items[..] else {
                self.error(
                    Diagnostic::new(
                        Code::Arity,
                        form.span,
                        format!(
                            "`adjacent` takes 1 operand, a card; found {}",
                            items.len() - 1
                        ),
                    )
                    .with_help("write `[adjacent :this-card]`"),
                );
                return None;
            };
            return Some(Source::Adjacent(Box::new(self.entity(who)?)));
        }
        let Some(set) = self.scope.zones else {
            if self.names_zone(form) {
                self.error(zones_needed(form.span, "a zone"));
                return None;
            }
            return self.kind_named(form, key).map(Source::Kind);
        };
        if let Some(k) = form.as_keyword()
            && self.scope.kinds.iter().any(|n| n == k)
        {
            return self.kind_named(form, key).map(Source::Kind);
        }
        if let Some(k) = form.as_keyword()
            && set.zone(k).is_none()
        {
            // Neither: the nearest of both.
            let names = self
                .scope
                .kinds
                .iter()
                .map(String::as_str)
                .chain(set.zones.iter().map(|z| z.name.as_str()));
            self.error(
                Diagnostic::new(
                    Code::UnknownZone,
                    form.span,
                    format!("`:{k}` is neither a zone nor a kind"),
                )
                .with_label("not a zone or a kind of this rule set")
                .suggest(k, names, |s| format!(":{s}")),
            );
            return None;
        }
        self.zone_ref(form).map(|z| Source::Zone(Box::new(z)))
    }

    /// `[max-of …]`, `[min-of …]`, `[top …]`, `[bottom …]`, `[slot …]`.
    /// Out of line, as the other rare operators.
    #[inline(never)]
    pub(super) fn card_int_op(&mut self, call: &Call<'_, 'a>) -> Option<Int> {
        match call.op.kind {
            OpKind::Extreme(max) => {
                let Some((source, rest)) = call.args.split_first() else {
                    self.arity(call, "a kind or a zone, a value, then at most a condition");
                    return None;
                };
                let source = self.source(source, &format!("`{}`", call.op.name));
                let (value, filter) = match rest {
                    [v] => (self.with_self(|cx| cx.int(v)), None),
                    [v, c] => (
                        self.with_self(|cx| cx.int(v)),
                        Some(self.with_self(|cx| cx.boolean(c))?),
                    ),
                    _ => {
                        self.arity(call, "a kind or a zone, a value, then at most a condition");
                        return None;
                    }
                };
                let over = Over {
                    source: source?,
                    value: value?,
                    filter,
                    outer: self.outer()?,
                };
                Some(Int::Extreme(max, Box::new(over)))
            }
            OpKind::Edge(top) => {
                let [zone, value, default] = call.args else {
                    self.arity(
                        call,
                        "3 operands: a zone, a value, and the value when it is empty",
                    );
                    return None;
                };
                let zone = self.zone_ref(zone)?;
                let set = self.scope.zones?;
                let def = &set.zones[zone.zone];
                if !has_order(def) {
                    self.error(not_ordered(
                        call.args[0].span,
                        &def.name,
                        &format!("it has no {} card", call.op.name),
                    ));
                    return None;
                }
                let value = self.with_self(|cx| cx.int(value));
                let default = self.int(default);
                let edge = Edge {
                    zone,
                    value: value?,
                    default: default?,
                    outer: self.outer()?,
                };
                Some(Int::Edge(top, Box::new(edge)))
            }
            _ => {
                let [who] = call.args else {
                    self.arity(call, "1 operand, a card");
                    return None;
                };
                self.zones_for(call.head.span, "`slot`")?;
                Some(Int::Slot(Box::new(self.entity(who)?)))
            }
        }
    }

    /// `[named card "Name"]`, `[of-kind card :kind]`, `[in card ZONE]`,
    /// `[holds who-or-ZONE "Name"]`. Out of line, as the other rare operators.
    #[inline(never)]
    pub(super) fn card_bool_op(&mut self, call: &Call<'_, 'a>) -> Option<Bool> {
        let [a, b] = call.args else {
            let wants = match call.op.kind {
                OpKind::Named => "2 operands: `[named :self \"Guard\"]`",
                OpKind::OfKind => "2 operands: `[of-kind :self :minion]`",
                OpKind::In => "2 operands: `[in :self [:hand :you]]`",
                _ => "2 operands: `[holds :you \"Princess\"]`",
            };
            self.arity(call, wants);
            return None;
        };
        match call.op.kind {
            OpKind::OfKind => {
                let who = self.entity(a);
                let kind = self.kind_named(b, "`of-kind`");
                Some(Bool::OfKind(Box::new(who?), kind?))
            }
            OpKind::Named => {
                self.zones_for(call.head.span, "`named`")?;
                let who = self.entity(a);
                let name = self.card_name(b, "`named`");
                Some(Bool::Named(Box::new((who?, name?))))
            }
            OpKind::In => {
                self.zones_for(call.head.span, "`in`")?;
                let who = self.entity(a);
                let zone = self.zone_ref(b);
                Some(Bool::In(Box::new((who?, zone?))))
            }
            _ => {
                let set = self.zones_for(call.head.span, "`holds`")?;
                let zone = if self.names_zone(a) {
                    self.zone_ref(a)?
                } else {
                    let who = self.entity(a)?;
                    self.plays_zone(set, &who, a.span, "holds cards")?
                };
                let name = self.card_name(b, "`holds`")?;
                let outer = self.outer()?;
                let this = Entity::Role(outer);
                let over = Over {
                    source: Source::Zone(Box::new(zone)),
                    value: Int::Lit(1),
                    filter: Some(Bool::Named(Box::new((this, name)))),
                    outer,
                };
                Some(Bool::CmpInt(
                    Cmp::Gt,
                    Box::new(Int::Count(Box::new(over))),
                    Box::new(Int::Lit(0)),
                ))
            }
        }
    }

    /// `:this-card`: bound in a card's effects of a rule set with `:zones`.
    pub(super) fn this_card(&mut self, form: &Form<'a>) -> Option<Entity> {
        if self.scope.this_card {
            return Some(Entity::ThisCard);
        }
        if self.scope.zones.is_none() {
            self.error(zones_needed(form.span, "`:this-card`"));
            return None;
        }
        self.error(
            Diagnostic::new(
                Code::UnknownRole,
                form.span,
                format!("`:{THIS_CARD}` is bound only in a card's effects"),
            )
            .with_label("not bound here")
            .with_help("here no card is being played: name a role, or a card of a zone"),
        );
        None
    }
}

/// The fields an effect on cards was written with, for its verb's reader.
struct Parts<'p, 'f, 'a> {
    form: &'f Form<'a>,
    value: &'f Form<'a>,
    effected: Entity,
    find: &'p dyn Fn(CardKey) -> Option<&'f Form<'a>>,
}

fn card_op(verb: CardVerb, cards: Option<Cards>, to: Option<Dest>) -> CardOp {
    CardOp { verb, cards, to }
}

/// Every card of `source`.
fn all_of(source: Source, outer: RoleId) -> Cards {
    Cards::Pick(Box::new(Selection {
        from: source,
        pick: CardPick::All,
        count: Int::Lit(0),
        filter: None,
        outer,
    }))
}

/// Zone `zone`'s pile of `who`'s, or the zone's own when shared.
fn owned(set: &ZoneSet, zone: ZoneId, who: &Entity) -> ZoneRef {
    let def = &set.zones[zone];
    ZoneRef {
        zone,
        owner: (!def.shared).then(|| who.clone()),
        capacity: def.capacity,
    }
}

/// Whether `form` is `[adjacent …]`.
fn is_adjacent(form: &Form<'_>) -> bool {
    matches!(&form.kind, Kind::Vector(items)
        if items.first().and_then(Form::as_symbol).and_then(super::ops::find)
            .is_some_and(|op| op.kind == OpKind::Adjacent))
}

/// The span of key `key` in map `form`.
fn key_span_of(form: &Form<'_>, key: &str) -> Option<Span> {
    match &form.kind {
        Kind::Map(pairs) => pairs
            .iter()
            .find(|(k, _)| k.as_keyword() == Some(key))
            .map(|(k, _)| k.span),
        _ => None,
    }
}

/// E0243 at `span`: `what` needs `:zones`.
fn zones_needed(span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(
        Code::ZonesNeeded,
        span,
        format!("{what} needs cards kept in `:zones`, and this rule set has none"),
    )
    .with_label("no `:zones`")
    .with_help("declare where the cards are: `:zones {:deck {:shared true :ordered true :start :deck} :hand {:plays true}}` (the cards of `:cards` alone are the engine's: a card's `:draw N` and `:discard N` draw and discard them)")
}

/// E0241 at `span`: zone `name` is not ordered, so `why`.
fn not_ordered(span: Span, name: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        Code::NotOrdered,
        span,
        format!("`:{name}` is not `:ordered`: {why}"),
    )
    .with_label("not ordered")
    .with_help(format!(
        "give `:{name}` `:ordered true`, or pick at random: `:pick :random`, `:at :random`"
    ))
}

/// The names of the cards `effects` name, each with where (for E0407).
pub fn card_names<'e>(effects: &'e [Effect], f: &mut impl FnMut(&'e CardName)) {
    for e in effects {
        names_in_entity(&e.entity, f);
        names_in_int(&e.amount, f);
        names_in_resource(&e.resource, f);
    }
}

fn names_in_resource<'e>(r: &'e crate::check::ast::Resource, f: &mut impl FnMut(&'e CardName)) {
    use crate::check::ast::Resource;
    match r {
        Resource::Attr(_) | Resource::Op(_) | Resource::Run(_) | Resource::Queue(_) => {}
        Resource::If(c, a, b) => {
            names_in_bool(c, f);
            names_in_resource(a, f);
            names_in_resource(b, f);
        }
        Resource::Status(op) => {
            if let crate::check::ast::StatusOp::Acquire { lasts: Some(n), .. } = &**op {
                names_in_int(n, f);
            }
        }
        Resource::Spawn(spawn) => spawn.values.iter().for_each(|(_, v)| names_in_int(v, f)),
        Resource::Each(each) => {
            if let Some(source) = &each.source {
                names_in_source(source, f);
            }
            if let Some(c) = &each.filter {
                names_in_bool(c, f);
            }
            card_names(&each.effects, f);
        }
        Resource::Cards(op) => {
            if let CardVerb::Create(name) = &op.verb {
                f(name);
            }
            if let Some(Cards::Pick(sel)) = &op.cards {
                names_in_source(&sel.from, f);
                names_in_int(&sel.count, f);
                if let Some(c) = &sel.filter {
                    names_in_bool(c, f);
                }
            }
            if let Some(Dest {
                at: Place::Slot(n), ..
            }) = &op.to
            {
                names_in_int(n, f);
            }
        }
    }
}

fn names_in_source<'e>(s: &'e Source, f: &mut impl FnMut(&'e CardName)) {
    match s {
        Source::Kind(_) => {}
        Source::Zone(z) => {
            if let Some(o) = &z.owner {
                names_in_entity(o, f);
            }
        }
        Source::Adjacent(who) => names_in_entity(who, f),
    }
}

fn names_in_entity<'e>(e: &'e Entity, f: &mut impl FnMut(&'e CardName)) {
    if let Entity::If(c, a, b) = e {
        names_in_bool(c, f);
        names_in_entity(a, f);
        names_in_entity(b, f);
    }
}

/// The card names an integer expression holds.
pub fn names_in_int<'e>(e: &'e Int, f: &mut impl FnMut(&'e CardName)) {
    match e {
        Int::Attr(who, _) => names_in_entity(who, f),
        Int::Fold(_, items) => items.iter().for_each(|i| names_in_int(i, f)),
        Int::Neg(a) | Int::Abs(a) | Int::Best(_, a) => names_in_int(a, f),
        Int::If(c, a, b) => {
            names_in_bool(c, f);
            names_in_int(a, f);
            names_in_int(b, f);
        }
        Int::Random(a, b) => {
            names_in_int(a, f);
            names_in_int(b, f);
        }
        Int::Count(over) | Int::Sum(over) | Int::Extreme(_, over) => {
            names_in_source(&over.source, f);
            names_in_int(&over.value, f);
            if let Some(c) = &over.filter {
                names_in_bool(c, f);
            }
        }
        Int::Edge(_, edge) => {
            names_in_int(&edge.value, f);
            names_in_int(&edge.default, f);
        }
        Int::Slot(who) | Int::Statuses(who, _) | Int::TurnsLeft(who, _) => names_in_entity(who, f),
        Int::Formula(call) => {
            names_in_int(&call.def.body, f);
            call.args.iter().for_each(|a| names_in_int(a, f));
        }
        Int::Lookup(l) => names_in_int(&l.1, f),
        Int::Roll(r) => names_in_int(&r.1, f),
        Int::Round(_, d) => names_in_dec(d, f),
        Int::Lit(_)
        | Int::Amount
        | Int::Pick(..)
        | Int::Magnitude
        | Int::Arg(_)
        | Int::Dice(_)
        | Int::Choice(_)
        | Int::Event(_) => {}
    }
}

fn names_in_dec<'e>(d: &'e crate::check::ast::Dec, f: &mut impl FnMut(&'e CardName)) {
    use crate::check::ast::Dec;
    match d {
        Dec::Lit(_) => {}
        Dec::Int(i) => names_in_int(i, f),
        Dec::Fold(_, items) => items.iter().for_each(|d| names_in_dec(d, f)),
        Dec::Neg(a) => names_in_dec(a, f),
        Dec::Div(a, b) => {
            names_in_dec(a, f);
            names_in_dec(b, f);
        }
        Dec::If(c, a, b) => {
            names_in_bool(c, f);
            names_in_dec(a, f);
            names_in_dec(b, f);
        }
    }
}

/// The card names a condition holds.
pub fn names_in_bool<'e>(c: &'e Bool, f: &mut impl FnMut(&'e CardName)) {
    match c {
        Bool::Lit(_) | Bool::AttrCmp(..) => {}
        Bool::CmpInt(_, a, b) => {
            names_in_int(a, f);
            names_in_int(b, f);
        }
        Bool::CmpDec(_, a, b) => {
            names_in_dec(a, f);
            names_in_dec(b, f);
        }
        Bool::And(a, b) | Bool::Or(a, b) => {
            names_in_bool(a, f);
            names_in_bool(b, f);
        }
        Bool::Not(a) => names_in_bool(a, f),
        Bool::If(c, a, b) => {
            names_in_bool(c, f);
            names_in_bool(a, f);
            names_in_bool(b, f);
        }
        Bool::Chance(p) => names_in_dec(p, f),
        Bool::Has(has) => names_in_entity(&has.0, f),
        Bool::Same(a, b) => {
            names_in_entity(a, f);
            names_in_entity(b, f);
        }
        Bool::Named(named) => {
            names_in_entity(&named.0, f);
            f(&named.1);
        }
        Bool::OfKind(who, _) => names_in_entity(who, f),
        Bool::In(is_in) => names_in_entity(&is_in.0, f),
    }
}

/// The names of the cards a rule set's own effects and conditions name:
/// its hooks, operations, actions, kinds' removals and turns, victory, the
/// AI's score, the turn order and its empty piles' effects.
pub fn rule_set_names<'r>(
    rules: &'r crate::check::rules::RuleSet,
    f: &mut impl FnMut(&'r CardName),
) {
    for hook in rules.hooks.iter() {
        card_names(hook, f);
    }
    for list in rules.on_removed.iter().chain(rules.on_turn.iter()) {
        card_names(list, f);
    }
    for c in rules.removed_when.iter().flatten() {
        names_in_bool(c, f);
    }
    for op in rules.operation_defs.iter() {
        card_names(&op.effects, f);
    }
    for action in rules.actions.iter() {
        card_names(&action.pay, f);
        card_names(&action.effects, f);
        let conditions = action.when.iter().chain(action.delayed_when.iter());
        for c in conditions.chain(action.refused.iter().map(|(c, _)| c)) {
            names_in_bool(c, f);
        }
    }
    for v in &rules.victory {
        names_in_bool(&v.when, f);
    }
    for e in rules.ai_score.iter().chain(rules.turn_order.iter()) {
        names_in_int(e, f);
    }
    for zone in rules.zones.iter().flat_map(|set| set.zones.iter()) {
        if let crate::check::rules::WhenEmpty::Effects(effects) = &zone.when_empty {
            card_names(effects, f);
        }
    }
}

/// E0407 at `name`: no card of the deck, `known`, has it; the nearest said.
pub fn unknown_card(name: &CardName, known: &[String]) -> Diagnostic {
    let help = if known.is_empty() {
        "it is checked with no cards: check it with its deck, or define the card (a card only effects make has `:token true`)".to_string()
    } else {
        "define it (a card only effects make has `:token true`), or name one of the deck's"
            .to_string()
    };
    Diagnostic::new(
        Code::UnknownCardName,
        name.span,
        format!("no card of the deck is named \"{}\"", name.name),
    )
    .with_label("not a card of the deck")
    .suggest(&name.name, known.iter().map(String::as_str), |s| {
        format!("\"{s}\"")
    })
    .with_help_if_none(help)
}

/// E0408: `{:cancel …}` outside a reaction card's effects, where there is no
/// card being answered to stop.
fn cancel_outside_reaction(span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::CancelOutsideReaction,
        span,
        "`:cancel` stops the card a reaction answers: only a reaction card's effects may use it",
    )
    .with_label("not in a reaction")
    .with_help("give the card `:reaction {:on :played :where …}`, or remove this effect")
}
