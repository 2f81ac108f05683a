//! `:zones {:deck {:shared true :ordered true :visible :nobody :start :deck} …}`:
//! where a game's cards are. Each zone is one for the game (`:shared`) or one
//! per seat, ordered (a pile with a top) or not, seen by everyone, its owner
//! or nobody, with a capacity, and, for a board, slots. The engine's own rules
//! for cards are keys of the zones: which zone the deck's cards start in, which
//! a seat plays from, where played and discarded cards go, what is dealt and
//! refilled, what a draw from an empty pile does.
//!
//! A rule set with `:cards` and no `:zones` has the three zones of a classic
//! card game (deck, hand, discard), [`ZoneSet::classic`]: the engine keeps
//! those in its own fast piles, and every later reader (scenarios,
//! invariants) reads one description.

use super::{RuleSet, keyword_map, string, whole};
use crate::check::ast::Effect;
use crate::check::keys::{Keys, keys};
use crate::check::rules::CardZones;
use crate::check::{self, Declared};
use crate::diag::{Code, Diagnostic};
use crate::ids::{IdVec, KindId, ZoneId};
use crate::syntax::{Form, Kind, Span};

/// The most cards a zone may hold.
pub const MAX_CAPACITY: i64 = crate::check::ast::MAX_PILE as i64;

/// The most slots a board may have.
pub const MAX_SLOTS: i64 = 64;

/// The zone a card being played is in while its effects run: shared, public.
pub const PLAYING: &str = "playing";

/// The zone a card out of the game is in: shared, public.
pub const REMOVED: &str = "removed";

keys! {
    /// The keys of one zone of `:zones`.
    pub enum ZoneKey {
        /// `:doc "…"`: what it is.
        Doc = "doc",
        /// `:shared true`: one zone for the game; otherwise one per seat.
        Shared = "shared",
        /// `:ordered true`: a pile with a top and a bottom.
        Ordered = "ordered",
        /// `:visible :all`, `:owner` or `:nobody`: who sees its cards.
        Visible = "visible",
        /// `:top-visible true`: an ordered zone's top card is public.
        TopVisible = "top-visible",
        /// `:capacity 10`: the most cards it holds.
        Capacity = "capacity",
        /// `:overflow :refuse`, `:destroy` or a zone: what a card that does not fit does.
        Overflow = "overflow",
        /// `:slots 7`: a board's positions.
        Slots = "slots",
        /// `:layout :row` (compact) or `:sites` (fixed positions with gaps).
        Layout = "layout",
        /// `:in-play true`: its cards are entities in play.
        InPlay = "in-play",
        /// `:leaves-to :discard`: where a card that falls from it goes.
        LeavesTo = "leaves-to",
        /// `:start :deck`: the deck's cards are made here at setup.
        Start = "start",
        /// `:draws-from :deck`: where its draws come from.
        DrawsFrom = "draws-from",
        /// `:plays true`: its owner plays cards from it.
        Plays = "plays",
        /// `:discard-to :discard`: where played and discarded cards go.
        DiscardTo = "discard-to",
        /// `:may-discard true`: its owner may discard from it instead of acting.
        MayDiscard = "may-discard",
        /// `:deal 3`: cards drawn into it at the game's start.
        Deal = "deal",
        /// `:refill 6`: topped up to this many at the start and after each action of its owner.
        Refill = "refill",
        /// `:draw-each-turn 1`: cards its owner draws into it as each of their turns starts.
        DrawEachTurn = "draw-each-turn",
        /// `:when-empty {:reshuffle :discard}`: what a draw from it does when it is empty.
        WhenEmpty = "when-empty",
    }
}

keys! {
    /// Who sees a zone's cards: `:visible`.
    pub enum Visibility {
        /// Every seat.
        All = "all",
        /// The seat that owns it (a zone per seat).
        Owner = "owner",
        /// No seat.
        Nobody = "nobody",
    }
}

keys! {
    /// How a board's cards sit in its slots: `:layout`.
    pub enum Layout {
        /// Compact: a card put in shifts the ones after it right; one leaving closes the gap.
        Row = "row",
        /// Fixed positions: a card keeps its slot, and a slot may be empty.
        Sites = "sites",
    }
}

keys! {
    /// What `:overflow` may say besides a zone's name.
    pub enum OverflowKind {
        /// The card stays where it was: the move is refused.
        Refuse = "refuse",
        /// The card leaves the game.
        Destroy = "destroy",
    }
}

keys! {
    /// The keys of `:when-empty` written as a map, and `:nothing`.
    pub enum WhenEmptyKey {
        /// `:nothing`: a draw from the empty zone draws nothing.
        Nothing = "nothing",
        /// `{:reshuffle :discard}`: that zone's cards move in and are shuffled first.
        Reshuffle = "reshuffle",
        /// `{:draw-from :aside}`: the draw takes from that zone instead.
        DrawFrom = "draw-from",
        /// `{:effects […]}`: these run for the seat drawing, and nothing is drawn.
        Effects = "effects",
    }
}

keys! {
    /// What `:start` may say.
    pub enum StartKind {
        /// The deck's cards.
        Deck = "deck",
    }
}

/// What a card that does not fit a zone does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// It stays where it was.
    Refuse,
    /// It leaves the game.
    Destroy,
    /// It goes to this zone instead (out of the game if that is full too).
    To(ZoneId),
}

/// What a draw from an empty zone does.
#[derive(Clone, Debug, PartialEq)]
pub enum WhenEmpty {
    /// Nothing is drawn.
    Nothing,
    /// This zone's cards move in, are shuffled, and the draw goes on (the classic rule).
    Reshuffle(ZoneId),
    /// The draw takes from this zone instead.
    DrawFrom(ZoneId),
    /// These effects run for the seat drawing (`:you`), and nothing is drawn.
    Effects(Vec<Effect>),
}

/// One zone, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneDef {
    /// Its name (`hand`).
    pub name: String,
    /// What it is, for people.
    pub doc: String,
    /// One for the game; otherwise one per seat, which owns it.
    pub shared: bool,
    /// A pile with a top (the end of its list) and a bottom.
    pub ordered: bool,
    /// Who sees its cards.
    pub visible: Visibility,
    /// An ordered zone's top card is public.
    pub top_visible: bool,
    /// The most cards it holds (its slots, for a board).
    pub capacity: u16,
    /// What a card that does not fit does.
    pub overflow: Overflow,
    /// A board's slots (0: not a board).
    pub slots: u16,
    /// How a board's cards sit in its slots.
    pub layout: Layout,
    /// Its cards are in play: entities of their kind, reached by `:each`,
    /// `count`, statuses and `:removed-when`.
    pub in_play: bool,
    /// Where a card that falls from it (its kind's `:removed-when`) goes;
    /// `None`: out of the game.
    pub leaves_to: Option<ZoneId>,
    /// The deck's cards are made here at setup (one copy per seat for a zone per seat).
    pub start: bool,
    /// Where its draws come from.
    pub draws_from: Option<ZoneId>,
    /// Its owner plays cards from it.
    pub plays: bool,
    /// Where cards played or discarded from it go; `None`: out of the game.
    pub discard_to: Option<ZoneId>,
    /// Its owner may discard from it instead of acting, which ends the turn.
    pub may_discard: bool,
    /// Cards drawn into it at the game's start.
    pub deal: u16,
    /// Topped up to this many at the game's start and after each action of its owner.
    pub refill: u16,
    /// Cards its owner draws into it as each of their turns starts.
    pub draw_each_turn: u16,
    /// What a draw from it does when it is empty.
    pub when_empty: WhenEmpty,
}

impl ZoneDef {
    /// A zone with every key at its default.
    fn new(name: &str) -> ZoneDef {
        ZoneDef {
            name: name.to_string(),
            doc: String::new(),
            shared: false,
            ordered: false,
            visible: Visibility::All,
            top_visible: false,
            capacity: MAX_CAPACITY as u16,
            overflow: Overflow::Refuse,
            slots: 0,
            layout: Layout::Row,
            in_play: false,
            leaves_to: None,
            start: false,
            draws_from: None,
            plays: false,
            discard_to: None,
            may_discard: false,
            deal: 0,
            refill: 0,
            draw_each_turn: 0,
            when_empty: WhenEmpty::Nothing,
        }
    }

    /// Whether anything draws into it: a deal, a refill, a draw each turn, or plays.
    pub fn draws(&self) -> bool {
        self.deal > 0 || self.refill > 0 || self.draw_each_turn > 0 || self.plays
    }
}

/// Every zone of a rule set, checked: the declared ones, then `:playing` and `:removed`.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneSet {
    /// The zones, by [`ZoneId`].
    pub zones: IdVec<ZoneId, ZoneDef>,
    /// Lowered from `:cards` (deck, hand, discard): the engine keeps these in
    /// its own fast piles, never as card instances.
    pub classic: bool,
    /// The zone its owner plays from, if one is `:plays`.
    pub plays: Option<ZoneId>,
    /// `:playing`: where a card is while its effects run.
    pub playing: ZoneId,
    /// `:removed`: out of the game.
    pub removed: ZoneId,
}

impl ZoneSet {
    /// The zones `:cards` stands for: a deck (one, or one per seat with
    /// `:deck :per-seat`) that refills from the discards, reshuffled; a hand per
    /// seat, refilled to the hand size, that plays and may discard; a discard
    /// pile laid out as the deck.
    pub fn classic(cards: &CardZones) -> ZoneSet {
        let deck = ZoneId::new(0);
        let hand = ZoneId::new(1);
        let discard = ZoneId::new(2);
        let mut zones = vec![
            ZoneDef {
                shared: !cards.per_seat,
                ordered: true,
                visible: Visibility::Nobody,
                start: true,
                when_empty: WhenEmpty::Reshuffle(discard),
                ..ZoneDef::new("deck")
            },
            ZoneDef {
                visible: Visibility::Owner,
                plays: true,
                draws_from: Some(deck),
                discard_to: Some(discard),
                refill: cards.hand_size as u16,
                may_discard: true,
                ..ZoneDef::new("hand")
            },
            ZoneDef {
                shared: !cards.per_seat,
                ordered: true,
                ..ZoneDef::new("discard")
            },
        ];
        zones.extend(engine_zones());
        ZoneSet {
            zones: zones.into(),
            classic: true,
            plays: Some(hand),
            playing: ZoneId::new(3),
            removed: ZoneId::new(4),
        }
    }

    /// The zone called `name`.
    pub fn zone(&self, name: &str) -> Option<ZoneId> {
        self.zones
            .iter()
            .position(|z| z.name == name)
            .map(ZoneId::new)
    }

    /// Which zone pile `pile` of a game of `seats` seats is of, and its
    /// owner (`None` for a shared zone's): piles are numbered zone by zone,
    /// a zone per seat's in seat order, as the card table of a game lays them out.
    pub fn pile_place(&self, pile: usize, seats: usize) -> Option<(ZoneId, Option<usize>)> {
        let mut first = 0;
        for (z, def) in self.zones.iter().enumerate() {
            let n = self.instances(ZoneId::new(z), seats);
            if pile < first + n {
                return Some((ZoneId::new(z), (!def.shared).then_some(pile - first)));
            }
            first += n;
        }
        None
    }

    /// How many instances zone `zone` has in a game of `seats` seats: one, or one per seat.
    pub fn instances(&self, zone: ZoneId, seats: usize) -> usize {
        if self.zones[zone].shared { 1 } else { seats }
    }
}

/// `:playing` and `:removed`, the zones the engine adds to every set.
fn engine_zones() -> [ZoneDef; 2] {
    [
        ZoneDef {
            shared: true,
            doc: "a card being played, while its effects run".to_string(),
            ..ZoneDef::new(PLAYING)
        },
        ZoneDef {
            shared: true,
            doc: "out of the game".to_string(),
            ..ZoneDef::new(REMOVED)
        },
    ]
}

/// Which key of a zone names another zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LinkKey {
    LeavesTo,
    DrawsFrom,
    DiscardTo,
    Overflow,
    /// `:when-empty {:reshuffle Z}`
    Reshuffle,
    /// `:when-empty {:draw-from Z}`
    DrawFrom,
    /// `:when-empty {:effects […]}`: not a zone's name, effects.
    Effects,
}

impl LinkKey {
    /// The key as written.
    fn shown(self) -> &'static str {
        match self {
            LinkKey::LeavesTo => "`:leaves-to`",
            LinkKey::DrawsFrom => "`:draws-from`",
            LinkKey::DiscardTo => "`:discard-to`",
            LinkKey::Overflow => "`:overflow`",
            LinkKey::Reshuffle => "`:reshuffle`",
            LinkKey::DrawFrom => "`:draw-from`",
            LinkKey::Effects => "`:effects`",
        }
    }
}

/// A zone's key naming another zone, kept until every zone is declared;
/// or its `:when-empty {:effects […]}`, kept until the zones are known, as
/// the effects may name them.
struct Link<'f, 'a> {
    zone: ZoneId,
    key: LinkKey,
    form: &'f Form<'a>,
}

/// Reads `:zones`: every zone declared first, then the keys that name zones
/// resolved, then the zones checked together.
pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let mut zones: Vec<ZoneDef> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    let mut links: Vec<Link<'_, '_>> = Vec::new();
    let entries = keyword_map(value, "`:zones`", diags);
    let declared = entries.len();
    for (name, (span, body)) in entries {
        if !zone_name_free(name, span, rules, &zones, diags) {
            continue;
        }
        let id = ZoneId::new(zones.len());
        zones.push(zone(name, body, id, &mut links, diags));
        spans.push(span);
    }
    if zones.is_empty() && declared > 0 {
        // Each was refused, and said why.
        return;
    }
    if zones.is_empty() {
        diags.push(
            Diagnostic::new(Code::EmptyDeclaration, value.span, "`:zones` declares no zone")
                .with_help("a card game needs somewhere to keep its cards: `:zones {:deck {:shared true :ordered true :start :deck} :hand {:plays true}}`"),
        );
        return;
    }
    zones.extend(engine_zones());
    let names: Vec<String> = zones.iter().map(|z| z.name.clone()).collect();
    let (effects, links): (Vec<_>, Vec<_>) =
        links.into_iter().partition(|l| l.key == LinkKey::Effects);
    for link in links {
        resolve(link, &names, &mut zones, diags);
    }
    let mut set = ZoneSet {
        plays: zones.iter().position(|z| z.plays).map(ZoneId::new),
        playing: ZoneId::new(zones.len() - 2),
        removed: ZoneId::new(zones.len() - 1),
        zones: zones.into(),
        classic: false,
    };
    together(&set, &spans, value.span, rules, diags);
    default_sources(&mut set);
    rules.zones = Some(set);
    // They run for the seat that draws: the rule set's roles, as on its turn.
    for link in effects {
        let checked = check::effects(link.form, &rules.scope(), diags).unwrap_or_default();
        if let Some(set) = rules.zones.as_mut() {
            set.zones[link.zone].when_empty = WhenEmpty::Effects(checked);
        }
    }
}

/// Whether `name` may name a new zone: not the engine's, not taken by a role,
/// attribute, kind, operation or param, not declared twice.
fn zone_name_free(
    name: &str,
    span: Span,
    rules: &RuleSet,
    zones: &[ZoneDef],
    diags: &mut Vec<Diagnostic>,
) -> bool {
    if name == PLAYING || name == REMOVED {
        diags.push(
            Diagnostic::new(
                Code::Reserved,
                span,
                format!("`:{name}` is reserved: the engine adds that zone itself"),
            )
            .with_label("reserved zone")
            .with_help(
                "`:playing` holds a card while its effects run; `:removed` is out of the game",
            ),
        );
        return false;
    }
    let taken = rules.roles.iter().any(|r| r == name)
        || rules.attributes.iter().any(|a| a == name)
        || rules.kinds.iter().any(|k| k == name)
        || rules.operations.iter().any(|o| o == name)
        || rules.params.iter().any(|(p, _)| p == name)
        || zones.iter().any(|z| z.name == name);
    if taken {
        diags.push(
            Diagnostic::new(
                Code::Duplicate,
                span,
                format!("`:{name}` is already a name in this rule set"),
            )
            .with_label("declared again")
            .with_help(
                "zones share one set of names with roles, attributes, kinds, operations and params",
            ),
        );
    }
    !taken
}

/// One zone's map (or doc string), its zone-naming keys noted in `links`.
fn zone<'f, 'a>(
    name: &str,
    body: &'f Form<'a>,
    id: ZoneId,
    links: &mut Vec<Link<'f, 'a>>,
    diags: &mut Vec<Diagnostic>,
) -> ZoneDef {
    let mut z = ZoneDef::new(name);
    if let Kind::Str(doc) = body.kind {
        z.doc = doc.to_string();
        return z;
    }
    let flag = |v: &Form<'_>, key: ZoneKey, diags: &mut Vec<Diagnostic>| {
        check::fields::flag(v, key.name(), diags).unwrap_or(false)
    };
    let count = |v: &Form<'_>, key: ZoneKey, min: i64, max: i64, diags: &mut Vec<Diagnostic>| {
        whole(v, &format!("`:{}`", key.name()), min, max, diags).map_or(0, |n| n as u16)
    };
    for (key, v) in check::fields(body, "a zone", ZoneKey::ALL, diags).unwrap_or_default() {
        match key {
            ZoneKey::Doc => z.doc = string(v, diags).unwrap_or_default(),
            ZoneKey::Shared => z.shared = flag(v, key, diags),
            ZoneKey::Ordered => z.ordered = flag(v, key, diags),
            ZoneKey::TopVisible => z.top_visible = flag(v, key, diags),
            ZoneKey::InPlay => z.in_play = flag(v, key, diags),
            ZoneKey::Plays => z.plays = flag(v, key, diags),
            ZoneKey::MayDiscard => z.may_discard = flag(v, key, diags),
            ZoneKey::Visible => {
                let message = format!(
                    "`:visible` is `:all`, `:owner` or `:nobody`, found {}",
                    v.describe()
                );
                if let Some(vis) = check::keyword_in(v, message, "not a visibility", None, diags) {
                    z.visible = vis;
                }
            }
            ZoneKey::Layout => {
                let message = format!("`:layout` is `:row` or `:sites`, found {}", v.describe());
                if let Some(l) = check::keyword_in(v, message, "not a layout", None, diags) {
                    z.layout = l;
                }
            }
            ZoneKey::Start => {
                let message = format!("`:start` is `:deck`, found {}", v.describe());
                z.start = check::keyword_in::<StartKind>(v, message, "not a start", None, diags)
                    .is_some();
            }
            ZoneKey::Capacity => z.capacity = count(v, key, 0, MAX_CAPACITY, diags),
            ZoneKey::Slots => z.slots = count(v, key, 1, MAX_SLOTS, diags),
            ZoneKey::Deal => z.deal = count(v, key, 0, MAX_CAPACITY, diags),
            ZoneKey::Refill => z.refill = count(v, key, 0, MAX_CAPACITY, diags),
            ZoneKey::DrawEachTurn => z.draw_each_turn = count(v, key, 0, MAX_CAPACITY, diags),
            ZoneKey::Overflow => match v.as_keyword().and_then(OverflowKind::find) {
                Some(OverflowKind::Refuse) => z.overflow = Overflow::Refuse,
                Some(OverflowKind::Destroy) => z.overflow = Overflow::Destroy,
                None => links.push(Link {
                    zone: id,
                    key: LinkKey::Overflow,
                    form: v,
                }),
            },
            ZoneKey::LeavesTo | ZoneKey::DrawsFrom | ZoneKey::DiscardTo => {
                let key = match key {
                    ZoneKey::LeavesTo => LinkKey::LeavesTo,
                    ZoneKey::DrawsFrom => LinkKey::DrawsFrom,
                    _ => LinkKey::DiscardTo,
                };
                links.push(Link {
                    zone: id,
                    key,
                    form: v,
                });
            }
            ZoneKey::WhenEmpty => z.when_empty = when_empty(v, id, links, diags),
        }
    }
    if z.slots > 0 {
        z.capacity = z.capacity.min(z.slots);
    }
    z
}

/// `:when-empty :nothing`, `{:reshuffle Z}`, `{:draw-from Z}` or `{:effects […]}`.
fn when_empty<'f, 'a>(
    v: &'f Form<'a>,
    id: ZoneId,
    links: &mut Vec<Link<'f, 'a>>,
    diags: &mut Vec<Diagnostic>,
) -> WhenEmpty {
    if v.as_keyword() == Some(WhenEmptyKey::Nothing.name()) {
        return WhenEmpty::Nothing;
    }
    let shape = |diags: &mut Vec<Diagnostic>| {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                v.span,
                format!(
                    "`:when-empty` is `:nothing`, `{{:reshuffle ZONE}}`, `{{:draw-from ZONE}}` or `{{:effects [...]}}`, found {}",
                    v.describe()
                ),
            )
            .with_help("one key: `{:reshuffle :discard}` refills a deck from the discards"),
        );
    };
    let Some(pairs) = check::fields(v, "`:when-empty`", &WhenEmptyKey::ALL[1..], diags) else {
        return WhenEmpty::Nothing;
    };
    let [(key, form)] = pairs[..] else {
        shape(diags);
        return WhenEmpty::Nothing;
    };
    match key {
        WhenEmptyKey::Effects => {
            // Checked once the zones are known (see `read`).
            links.push(Link {
                zone: id,
                key: LinkKey::Effects,
                form,
            });
            WhenEmpty::Effects(Vec::new())
        }
        WhenEmptyKey::Reshuffle | WhenEmptyKey::DrawFrom => {
            let key = if key == WhenEmptyKey::Reshuffle {
                LinkKey::Reshuffle
            } else {
                LinkKey::DrawFrom
            };
            // Resolved with the other links, once every zone is declared.
            links.push(Link {
                zone: id,
                key,
                form,
            });
            WhenEmpty::Nothing
        }
        WhenEmptyKey::Nothing => {
            shape(diags);
            WhenEmpty::Nothing
        }
    }
}

/// Resolves one zone-naming key once every zone is declared.
fn resolve(
    link: Link<'_, '_>,
    names: &[String],
    zones: &mut [ZoneDef],
    diags: &mut Vec<Diagnostic>,
) {
    let message = format!(
        "{} names one of the rule set's zones, found {}",
        link.key.shown(),
        link.form.describe()
    );
    let found = Declared::new(
        names.iter().map(String::as_str),
        "a zone",
        "zones",
        Code::NotOneOf,
    )
    .find(
        link.form.as_keyword().unwrap_or(""),
        link.form.span,
        message,
        diags,
    )
    .map(ZoneId::new);
    let Some(target) = found else {
        return;
    };
    let z = &mut zones[link.zone.index()];
    match link.key {
        LinkKey::LeavesTo => z.leaves_to = Some(target),
        LinkKey::DrawsFrom => z.draws_from = Some(target),
        LinkKey::DiscardTo => z.discard_to = Some(target),
        LinkKey::Overflow => z.overflow = Overflow::To(target),
        LinkKey::Reshuffle => z.when_empty = WhenEmpty::Reshuffle(target),
        LinkKey::DrawFrom => z.when_empty = WhenEmpty::DrawFrom(target),
        LinkKey::Effects => {}
    }
}

/// Says, at the zone's name, that zones cannot work together (E0314).
fn clash(span: Span, message: String, help: &str) -> Diagnostic {
    Diagnostic::new(Code::ZoneRules, span, message)
        .with_label("cannot work")
        .with_help(help.to_string())
}

/// The checks of the zones as a whole (E0314): each is a rule of how the
/// engine moves cards that these zones would break.
fn together(
    set: &ZoneSet,
    spans: &[Span],
    whole: Span,
    rules: &mut RuleSet,
    diags: &mut Vec<Diagnostic>,
) {
    let name = |z: ZoneId| set.zones[z].name.as_str();
    let mut plays = 0;
    for (i, &span) in spans.iter().enumerate() {
        let z = &set.zones[ZoneId::new(i)];
        if z.shared && z.visible == Visibility::Owner {
            diags.push(clash(
                span,
                format!(
                    "`:{}` is shared, so no seat owns it: `:visible :owner` sees nobody",
                    z.name
                ),
                "write `:visible :nobody`, or make it a zone per seat",
            ));
        }
        if z.plays {
            plays += 1;
            if plays == 2 {
                diags.push(clash(
                    span,
                    format!(
                        "`:{}` is a second `:plays` zone: a seat plays from one zone",
                        z.name
                    ),
                    "keep `:plays true` on the hand only",
                ));
            }
            if z.shared || z.slots > 0 {
                diags.push(clash(
                    span,
                    format!(
                        "`:{}` plays cards, so it is a zone per seat without slots",
                        z.name
                    ),
                    "a hand: no `:shared`, no `:slots`",
                ));
            }
        }
        let (deal, refill) = (z.deal, z.refill);
        if deal > z.capacity || refill > z.capacity {
            diags.push(clash(
                span,
                format!(
                    "`:{}` deals {deal} and refills to {refill}, more than its capacity {}",
                    z.name, z.capacity
                ),
                "lower `:deal` or `:refill`, or raise `:capacity`",
            ));
        }
        if z.top_visible && !z.ordered {
            diags.push(clash(
                span,
                format!(
                    "`:{}` is not `:ordered`, so it has no top card to show",
                    z.name
                ),
                "add `:ordered true`, or drop `:top-visible`",
            ));
        }
        let draws_from = z.draws_from.or_else(|| {
            z.draws()
                .then(|| set.zones.iter().position(|d| d.start).map(ZoneId::new))
                .flatten()
        });
        match draws_from {
            Some(from) if !set.zones[from].ordered => diags.push(clash(
                span,
                format!(
                    "`:{}` draws from `:{}`, which is not `:ordered`: a draw takes the top card",
                    z.name,
                    name(from)
                ),
                "add `:ordered true` to the zone drawn from",
            )),
            Some(from) if z.shared && !set.zones[from].shared => diags.push(clash(
                span,
                format!(
                    "`:{}` is shared and draws from `:{}`, one per seat: whose?",
                    z.name,
                    name(from)
                ),
                "draw from a shared zone, or make this one a zone per seat",
            )),
            None if z.deal > 0 || z.refill > 0 || z.draw_each_turn > 0 => diags.push(clash(
                span,
                format!("`:{}` draws cards, but no zone says where from", z.name),
                "give it `:draws-from`, or give a deck `:start :deck`",
            )),
            _ => {}
        }
        if let WhenEmpty::Reshuffle(from) = z.when_empty
            && (set.zones[from].shared != z.shared || from == ZoneId::new(i))
        {
            diags.push(clash(
                span,
                format!(
                    "`:{}` reshuffles `:{}` into itself, and their owners differ",
                    z.name,
                    name(from)
                ),
                "reshuffle from a zone laid out as this one: both shared, or both one per seat",
            ));
        }
        if let Some(to) = z.leaves_to
            && set.zones[to].in_play
        {
            diags.push(clash(
                span,
                format!(
                    "`:{}` sends a card that falls to `:{}`, which is in play: it would fall again",
                    z.name,
                    name(to)
                ),
                "send it to a discard pile, or leave `:leaves-to` out (out of the game)",
            ));
        }
        if z.overflow == Overflow::To(ZoneId::new(i)) {
            diags.push(clash(
                span,
                format!("`:{}` overflows into itself", z.name),
                "name another zone, or `:refuse` or `:destroy`",
            ));
        }
    }
    let card_kinds = rules.card_kinds.iter().any(|&c| c);
    if !card_kinds {
        diags.push(clash(
            whole,
            "the rule set has `:zones` but no kind of card: cards in zones are entities of a kind marked `:card true`".to_string(),
            "declare one: `:kinds {:player \"a seat\" :card {:card true :doc \"a card\"}}`",
        ));
    }
    // The first kind marked `:card` is a card's kind unless it says another.
    rules.card_kind = rules.card_kinds.iter().position(|&c| c).map(KindId::new);
}

/// Fills in each drawing zone's `:draws-from` left out: the first `:start` zone.
fn default_sources(set: &mut ZoneSet) {
    let start = set.zones.iter().position(|d| d.start).map(ZoneId::new);
    for z in set.zones.iter_mut() {
        if z.draws() && z.draws_from.is_none() {
            z.draws_from = start;
        }
    }
}
