//! Definitions: the cards and named effects a rule set's data files define.
//!
//! A definitions file holds top-level maps, each a `{:card "Name" …}` or an
//! `{:effect "Name" …}`; [`definition`] checks one against a rule set. A
//! checked card becomes a [`Card`], which the engine deals, holds in hands and
//! plays.

use crate::check::ast::StatusDef;
use crate::check::ast::{AttrId, Effect};
use crate::check::keys::Keys;
use crate::check::rules::RuleSet;
use crate::check::status_defs::{self, StatusKey};
use crate::check::{self, EffectKey};
use crate::diag::{Code, Diagnostic, Source};
use crate::ids::{KindId, ZoneId};
use crate::syntax::{Form, Kind, Span};
use std::sync::Arc;

/// What a definition defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefKind {
    /// `{:card "Miners" …}`
    Card,
    /// `{:effect "Foundations" …}`
    Effect,
    /// `{:status :weakness …}`
    Status,
}

/// A checked card or named effect.
#[derive(Clone, Debug)]
pub struct Definition {
    /// Card or effect.
    pub kind: DefKind,
    /// Its name.
    pub name: String,
    /// Its text for players (`:text`), if any.
    pub text: Option<String>,
    /// Its checked effects.
    pub effects: Vec<Effect>,
    /// How a card is played: cost, flags; defaults for named effects.
    pub play: CardRules,
    /// A status's definition (for [`DefKind::Status`]).
    pub status: Option<StatusDef>,
    /// Its triggers (`:triggers`, `:on-draw`, `:on-discard`, `:on-leave`), in that order.
    pub triggers: Vec<crate::check::triggers::Trigger>,
    /// Its static abilities (`:auras`).
    pub auras: Vec<crate::check::triggers::Aura>,
    /// What it aims at, and when it may or must be played.
    pub aims: Aims,
    /// `:reaction`: when it is played out of turn, answering another card.
    pub reaction: Option<crate::check::reactions::Reaction>,
    /// `:abilities`: what its controller may do with it while it is in play.
    pub abilities: Vec<crate::check::abilities::Activated>,
    /// The rule set it was checked against.
    pub rules: String,
    /// Index of its file among the sources checked with it (the file layer's `Checked::sources`).
    pub source: usize,
    /// The definition's map.
    pub span: Span,
}

/// How a card is played, beyond its effects.
#[derive(Clone, PartialEq, Eq)]
pub struct CardRules {
    /// The attribute the cost is paid in (`:type :bricks`), if it costs anything.
    pub pay_with: Option<AttrId>,
    /// The cost (`:cost 3`).
    pub cost: i64,
    /// `:play-again true`: the same player acts again after it.
    pub play_again: bool,
    /// `:discardable false`: it can never be discarded.
    pub discardable: bool,
    /// `:draw N`: cards drawn after it is played.
    pub draw: u8,
    /// `:discard N`: cards the player must then discard.
    pub discard: u8,
    /// `:copies N`: how many of it a deck holds.
    pub copies: u8,
    /// `:once true`: after it is played it leaves the game, not to the discards.
    pub once: bool,
    /// `:kind :minion`: the kind of its instances (with `:zones`); `None`,
    /// the rule set's first kind of card.
    pub kind: Option<KindId>,
    /// `:values {:attack 4}`: what its instances start with where the rule
    /// set's defaults do not say (with `:zones`).
    pub values: Vec<(AttrId, i64)>,
    /// `:to :board`: the zone it is played into and stays in (with `:zones`).
    pub to: Option<ZoneId>,
    /// `:token true`: no copy is dealt; only an effect makes one (with `:zones`).
    pub token: bool,
    /// `:keywords [:taunt]`: the keywords' statuses its instances hold while in play.
    pub keywords: Vec<crate::ids::StatusId>,
}

/// As derived, with the keys of cards in zones shown only where a card sets
/// them: a deck's digest (`Card`'s debug text) is the same as before zones
/// for a deck that uses none.
impl std::fmt::Debug for CardRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("CardRules");
        d.field("pay_with", &self.pay_with)
            .field("cost", &self.cost)
            .field("play_again", &self.play_again)
            .field("discardable", &self.discardable)
            .field("draw", &self.draw)
            .field("discard", &self.discard)
            .field("copies", &self.copies)
            .field("once", &self.once);
        if self.kind.is_some() {
            d.field("kind", &self.kind);
        }
        if !self.values.is_empty() {
            d.field("values", &self.values);
        }
        if self.to.is_some() {
            d.field("to", &self.to);
        }
        if self.token {
            d.field("token", &self.token);
        }
        if !self.keywords.is_empty() {
            d.field("keywords", &self.keywords);
        }
        d.finish()
    }
}

impl Default for CardRules {
    fn default() -> CardRules {
        CardRules {
            pay_with: None,
            cost: 0,
            play_again: false,
            discardable: true,
            draw: 0,
            discard: 0,
            copies: 1,
            once: false,
            kind: None,
            values: Vec::new(),
            to: None,
            token: false,
            keywords: Vec::new(),
        }
    }
}

/// What a card aims at (`:targets`), and when it may (`:playable-when`) or
/// must (`:forced-when`) be played.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Aims {
    /// Its targets, in order: role `rules.roles.len() + i` in its effects is `targets[i]`.
    pub targets: Vec<crate::check::targets::Target>,
    /// Conditions it is played under, each with what a refusal says.
    pub playable: Vec<crate::check::targets::Playable>,
    /// When it must be played or discarded.
    pub forced: Option<crate::check::targets::Forced>,
    /// `:choose :mode`: the set of `:choices` it is played with one option of.
    pub choose: Option<crate::check::rules::choices::ChoiceSetId>,
}

impl Aims {
    /// The target its player chooses, if it has one (at most one does).
    pub fn chosen(&self) -> Option<(usize, &crate::check::targets::Target)> {
        self.targets.iter().enumerate().find(|(_, t)| !t.random)
    }
}

/// A card as the engine deals and plays it: one kind of ability, held in a hand.
#[derive(Clone)]
pub struct Card {
    /// Its name.
    pub name: String,
    /// Its text for players.
    pub text: String,
    /// What it does.
    pub effects: Vec<Effect>,
    /// What it does when something happens.
    pub triggers: Vec<crate::check::triggers::Trigger>,
    /// What it gives while in play.
    pub auras: Vec<crate::check::triggers::Aura>,
    /// What it aims at, and when it may or must be played.
    pub aims: Aims,
    /// When it is played out of turn, answering another seat's card.
    pub reaction: Option<crate::check::reactions::Reaction>,
    /// What its controller may do with it while it is in play.
    pub abilities: Vec<crate::check::abilities::Activated>,
    /// Cost and flags.
    pub play: CardRules,
    /// The file it was read from, when known: what its effects' spans point
    /// into, for a budget's error.
    pub file: Option<Arc<Source>>,
}

/// Everything but its file: a deck's digest (what a recording checks before
/// it is replayed) is the same wherever its files are.
impl std::fmt::Debug for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Card");
        d.field("name", &self.name)
            .field("text", &self.text)
            .field("effects", &self.effects);
        // Shown only where a card has them: a deck's digest stays as it was.
        if !self.triggers.is_empty() {
            d.field("triggers", &self.triggers);
        }
        if !self.auras.is_empty() {
            d.field("auras", &self.auras);
        }
        if self.aims != Aims::default() {
            d.field("aims", &self.aims);
        }
        if let Some(reaction) = &self.reaction {
            d.field("reaction", reaction);
        }
        if !self.abilities.is_empty() {
            d.field("abilities", &self.abilities);
        }
        d.field("play", &self.play).finish()
    }
}

impl Card {
    /// The cards among `defs` written for rule set `rules`, each with its
    /// file among `sources` (the texts `defs` were checked from).
    pub fn from_definitions(defs: &[Definition], sources: &[Source], rules: &str) -> Vec<Card> {
        let mut files: Vec<Option<Arc<Source>>> = vec![None; sources.len()];
        defs.iter()
            .filter(|d| d.kind == DefKind::Card && d.rules == rules)
            .map(|d| Card {
                name: d.name.clone(),
                text: d.text.clone().unwrap_or_default(),
                effects: d.effects.clone(),
                triggers: d.triggers.clone(),
                auras: d.auras.clone(),
                aims: d.aims.clone(),
                reaction: d.reaction.clone(),
                abilities: d.abilities.clone(),
                play: d.play.clone(),
                file: files.get_mut(d.source).and_then(|file| {
                    let source = sources.get(d.source)?;
                    Some(file.get_or_insert_with(|| Arc::new(source.clone())).clone())
                }),
            })
            .collect()
    }
}

pub use crate::check::DefKey;

/// The keys a card may use.
pub const CARD_KEYS: &[DefKey] = &[
    DefKey::Card,
    DefKey::Text,
    DefKey::Effects,
    DefKey::Type,
    DefKey::Cost,
    DefKey::PlayAgain,
    DefKey::Discardable,
    DefKey::Draw,
    DefKey::Discard,
    DefKey::Copies,
    DefKey::Once,
];

/// The keys a card of a rule set with `:zones` may use: [`CARD_KEYS`] and
/// its kind, starting values, the zone it is played to, and whether it is a token.
pub const ZONED_CARD_KEYS: &[DefKey] = &[
    DefKey::Card,
    DefKey::Text,
    DefKey::Effects,
    DefKey::Type,
    DefKey::Cost,
    DefKey::PlayAgain,
    DefKey::Discardable,
    DefKey::Draw,
    DefKey::Discard,
    DefKey::Copies,
    DefKey::Once,
    DefKey::Kind,
    DefKey::Values,
    DefKey::To,
    DefKey::Token,
    DefKey::Triggers,
    DefKey::OnDraw,
    DefKey::OnDiscard,
    DefKey::OnLeave,
    DefKey::Keywords,
    DefKey::Auras,
    DefKey::Targets,
    DefKey::PlayableWhen,
    DefKey::ForcedWhen,
    DefKey::Choose,
    DefKey::Reaction,
    DefKey::Abilities,
];

/// The keys a named effect may use.
pub const NAMED_EFFECT_KEYS: &[DefKey] = &[DefKey::Effect, DefKey::Text, DefKey::Effects];

/// The span of a definition's name, if it has one.
pub fn name_span(form: &Form<'_>) -> Option<Span> {
    let Kind::Map(pairs) = &form.kind else {
        return None;
    };
    pairs
        .iter()
        .find(|(k, _)| matches!(k.as_keyword(), Some("card" | "effect" | "status")))
        .map(|(_, v)| v.span)
}

/// Checks one `{:card …}`, `{:effect …}` or `{:status …}` map.
pub fn definition(
    form: &Form<'_>,
    rules: &RuleSet,
    source: usize,
    diags: &mut Vec<Diagnostic>,
) -> Option<Definition> {
    let before = diags.len();
    let kind = if form.has_key("card") {
        DefKind::Card
    } else if form.has_key("effect") {
        DefKind::Effect
    } else if form.has_key(StatusKey::Status.name()) {
        return status_definition(form, rules, source, diags);
    } else {
        not_a_definition(form, diags);
        return None;
    };
    let zoned = rules.zones.as_ref().is_some_and(|z| !z.classic);
    let (keys, what) = match kind {
        DefKind::Card if zoned => (ZONED_CARD_KEYS, "a card"),
        DefKind::Card => (CARD_KEYS, "a card"),
        DefKind::Effect | DefKind::Status => (NAMED_EFFECT_KEYS, "an effect definition"),
    };
    let pay_with: &[AttrId] = rules.cards.as_ref().map_or(&[], |c| &c.pay_with);
    // A card gives the rule set's `:cards :values` (`:multi 1.5`), each a
    // constant in its own effects; what it does not give is the default.
    let declared: &[crate::check::rules::ValueDef] = match kind {
        DefKind::Card => rules.cards.as_ref().map_or(&[], |c| &c.values),
        _ => &[],
    };
    let value_names: Vec<&str> = declared.iter().map(|v| v.name.as_str()).collect();
    let (pairs, given) = check::fields_with(form, what, keys, &value_names, diags)?;
    let values = card_values(declared, given, diags);
    let scope = check::Scope {
        card_values: &values,
        // A card's effects run with its instance bound, where cards are instances.
        this_card: zoned && kind == DefKind::Card,
        ..rules.scope()
    };
    // Its targets first: its effects name them, wherever the keys are written.
    let mut aims = Aims::default();
    if let Some((_, value)) = pairs.iter().find(|(k, _)| *k == DefKey::Targets) {
        aims.targets = check::targets::targets(value, &scope, diags).unwrap_or_default();
    }
    let target_names: Vec<&str> = aims.targets.iter().map(|t| t.name.as_str()).collect();
    // An option, as an action's `:choose`: its fields are read in the effects.
    if let Some((_, value)) = pairs.iter().find(|(k, _)| *k == DefKey::Choose) {
        aims.choose = crate::check::rules::choices::named(rules, value, diags);
    }
    let choosable = match aims.choose.and_then(|c| rules.choices.get(c)) {
        Some(set) => check::Choosable::Set(&set.name, &set.fields),
        None if form.has_key(DefKey::Choose.name()) => check::Choosable::Any,
        None => check::Choosable::Nothing,
    };
    let aimed = check::Scope {
        bound: &target_names,
        choosable,
        ..scope
    };
    // A reaction's effects see the card it answers: its `:reaction` is read
    // first, wherever it is written, so they are checked in its scope.
    let reacts = pairs.iter().find(|(k, _)| *k == DefKey::Reaction);
    let reaction = reacts.and_then(|(_, v)| check::reactions::reaction(v, &scope, diags));
    let reacting = check::reactions::scope(&scope);
    let effects_scope = if reacts.is_some() { &reacting } else { &aimed };
    if reacts.is_some() && !aims.targets.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::KeyNotHere,
                form.span,
                "a reaction aims at the card it answers (`:subject`): it takes no `:targets`",
            )
            .with_label("a reaction with targets"),
        );
    }
    let abilities_form = pairs
        .iter()
        .find(|(k, _)| *k == DefKey::Abilities)
        .map(|(_, v)| *v);
    let mut name = None;
    let mut text = None;
    let mut effects = None;
    let mut play = CardRules::default();
    let mut triggers = Vec::new();
    let mut auras = Vec::new();
    let mut shorthands = Vec::new();
    for (def_key, value) in pairs {
        let key = def_key.name();
        match def_key {
            DefKey::Type => {
                if let Some(a) = card_type(value, rules, pay_with, diags) {
                    play.pay_with = Some(a);
                }
            }
            DefKey::Cost => play.cost = count(value, key, i64::MAX, diags).unwrap_or(0),
            DefKey::Draw => play.draw = count(value, key, 10, diags).unwrap_or(0) as u8,
            DefKey::Discard => play.discard = count(value, key, 10, diags).unwrap_or(0) as u8,
            DefKey::Copies => play.copies = count(value, key, 100, diags).unwrap_or(1) as u8,
            DefKey::PlayAgain => {
                play.play_again = super::fields::flag(value, key, diags).unwrap_or(false)
            }
            DefKey::Discardable => {
                play.discardable = super::fields::flag(value, key, diags).unwrap_or(true)
            }
            DefKey::Once => play.once = super::fields::flag(value, key, diags).unwrap_or(false),
            DefKey::Token => play.token = super::fields::flag(value, key, diags).unwrap_or(false),
            DefKey::Kind => play.kind = card_kind(value, rules, diags),
            DefKey::To => play.to = to_zone(value, rules, diags),
            DefKey::Values => play.values = start_values(value, rules, diags),
            DefKey::Card | DefKey::Effect => match &value.kind {
                Kind::Str(s) if !s.trim().is_empty() => name = Some(s.to_string()),
                Kind::Str(_) => diags.push(
                    Diagnostic::new(Code::EmptyName, value.span, "a name cannot be empty")
                        .with_label("expected a name such as \"Miners\""),
                ),
                _ => diags.push(
                    Diagnostic::new(
                        Code::WrongType,
                        value.span,
                        format!("a name is a string, found {}", value.describe()),
                    )
                    .with_label("expected a name such as \"Miners\""),
                ),
            },
            DefKey::Text => match &value.kind {
                Kind::Str(s) => text = Some(s.to_string()),
                _ => diags.push(Diagnostic::new(
                    Code::WrongType,
                    value.span,
                    format!("`:text` is a string, found {}", value.describe()),
                )),
            },
            DefKey::Effects => effects = check::effects(value, effects_scope, diags),
            // Read above.
            DefKey::Targets | DefKey::Choose | DefKey::Reaction | DefKey::Abilities => {}
            DefKey::PlayableWhen => {
                aims.playable = check::targets::playable(value, key, &scope, diags)
            }
            DefKey::ForcedWhen => aims.forced = check::targets::forced(value, &scope, diags),
            DefKey::Triggers => {
                triggers = check::triggers::triggers(value, &scope, diags).unwrap_or_default()
            }
            DefKey::OnDraw | DefKey::OnDiscard | DefKey::OnLeave => {
                shorthands.push((def_key, value))
            }
            DefKey::Auras => {
                auras = check::triggers::auras(value, &scope, diags).unwrap_or_default()
            }
            DefKey::Keywords => {
                play.keywords = crate::check::rules::keywords::given(value, rules, diags)
            }
        }
    }
    // Its abilities once its `:type` is known: their costs are paid in it.
    let abilities = abilities_form
        .and_then(|v| check::abilities::abilities(v, rules, play.pay_with, &scope, diags))
        .unwrap_or_default();
    // The shorthands after the triggers written out, in the order of their keys.
    for (key, value) in shorthands {
        use check::triggers::On;
        let (on, zone) = match key {
            DefKey::OnDraw => (On::Drawn, None),
            DefKey::OnDiscard => (On::Discarded, None),
            _ => (On::Leaves, play.to),
        };
        if let Some(t) = check::triggers::shorthand(on, zone, value, &scope, diags) {
            triggers.push(t);
        }
    }
    if let Some(name) = &name {
        for t in &triggers {
            check::triggers::self_triggering(t, name, diags);
        }
    }
    if play.token {
        // A token is never dealt: only an effect makes one.
        play.copies = 0;
    }
    // A token is never played from a hand: it needs no cost.
    if kind == DefKind::Card && !pay_with.is_empty() && !play.token {
        missing_card_keys(form, rules, pay_with, diags);
    }
    whole_definition_checks(form, rules, what, effects.as_deref(), &play, diags);
    if diags
        .iter()
        .skip(before)
        .any(|d| d.severity == crate::diag::Severity::Error)
    {
        return None;
    }
    let def = Definition {
        kind,
        name: name?,
        text,
        effects: effects?,
        triggers,
        auras,
        aims,
        reaction,
        abilities,
        play,
        status: None,
        rules: rules.name.clone(),
        source,
        span: form.span,
    };
    if kind == DefKind::Card
        && let Some(text) = &def.text
    {
        card_text_lints(form, rules, text, &def, diags);
    }
    Some(def)
}

/// `:kind :minion`: one of the rule set's kinds marked `:card true`.
fn card_kind(value: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<KindId> {
    let cards: Vec<(usize, &str)> = rules
        .kinds
        .iter()
        .enumerate()
        .filter(|&(i, _)| rules.card_kinds.get(KindId::new(i)) == Some(&true))
        .map(|(i, k)| (i, k.as_str()))
        .collect();
    let message = format!(
        "`:kind` names a kind of card (one marked `:card true`), found {}",
        value.describe()
    );
    check::Declared::new(
        cards.iter().map(|&(_, k)| k),
        "a kind of card",
        "kinds of card",
        Code::UnknownKind,
    )
    .find(value.as_keyword().unwrap_or(""), value.span, message, diags)
    .map(|i| KindId::new(cards[i].0))
}

/// `:to :board`: one of the rule set's zones, a zone per seat (the player's own).
fn to_zone(value: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<ZoneId> {
    let set = rules.zones.as_ref()?;
    let message = format!(
        "`:to` names one of the rule set's zones, found {}",
        value.describe()
    );
    let found = check::Declared::new(
        set.zones.iter().map(|z| z.name.as_str()),
        "a zone",
        "zones",
        Code::NotOneOf,
    )
    .find(value.as_keyword().unwrap_or(""), value.span, message, diags)
    .map(ZoneId::new)?;
    if set.zones[found].shared {
        diags.push(
            Diagnostic::new(
                Code::ZoneRules,
                value.span,
                format!(
                    "`:{}` is shared: a card is played to a zone of its player's own",
                    set.zones[found].name
                ),
            )
            .with_help("name a zone per seat (a board without `:shared`)"),
        );
        return None;
    }
    Some(found)
}

/// `:values {:attack 4 :health 5}`: attributes its instances start with,
/// each within the attribute's bounds.
fn start_values(
    value: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(AttrId, i64)> {
    let mut out: Vec<(AttrId, i64)> = Vec::new();
    let Kind::Map(pairs) = &value.kind else {
        diags.push(Diagnostic::new(
            Code::NotAMap,
            value.span,
            format!(
                "`:values` is a map of attributes, such as `{{:attack 4 :health 5}}`, found {}",
                value.describe()
            ),
        ));
        return out;
    };
    for (k, v) in pairs.iter() {
        let Some(attr) =
            crate::check::rules::cards_attribute(k, rules, "a card's `:values`", diags)
        else {
            continue;
        };
        let (min, max) = rules.bounds[attr];
        match v.kind {
            Kind::Int(n) if (min..=max).contains(&n) => out.push((attr, n)),
            Kind::Int(n) => diags.push(
                Diagnostic::new(
                    Code::OutOfBounds,
                    v.span,
                    format!(
                        "{n} is outside the bounds of `:{}` ({min} to {max})",
                        rules.attributes[attr]
                    ),
                )
                .with_label("out of bounds"),
            ),
            _ => diags.push(Diagnostic::new(
                Code::NotANumber,
                v.span,
                format!("expected an integer, found {}", v.describe()),
            )),
        }
    }
    out
}

/// Reports a form that is none of the three definitions, with a hint where it looks like one's body.
fn not_a_definition(form: &Form<'_>, diags: &mut Vec<Diagnostic>) {
    let mut d = Diagnostic::new(
        Code::NotADefinition,
        form.span,
        format!(
            "expected a definition, `{{:card \"Name\" …}}`, `{{:effect \"Name\" …}}` or `{{:status :id …}}`, found {}",
            form.describe()
        ),
    );
    if let Kind::Map(pairs) = &form.kind
        && pairs
            .iter()
            .any(|(k, _)| k.as_keyword().and_then(EffectKey::find).is_some())
    {
        d = d
            .with_help("this looks like an effect map: put it in a definition's `:effects` vector");
    } else if matches!(form.kind, Kind::Vector(_)) {
        d = d.with_help("a bare effect list needs a name: `{:effect \"Name\" :effects [...]}`");
    }
    diags.push(d);
}

/// A card's `:cards :values`: what it gives (`:multi 1.5`), else the rule set's default.
fn card_values(
    declared: &[crate::check::rules::ValueDef],
    given: Vec<(&str, &Form<'_>)>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, crate::check::rules::CardValue)> {
    let mut values: Vec<(String, crate::check::rules::CardValue)> = declared
        .iter()
        .map(|v| (v.name.clone(), v.default))
        .collect();
    for (name, v) in given {
        if let (Some(slot), Some(n)) = (
            values.iter_mut().find(|(k, _)| k == name),
            crate::check::rules::cards_number(v, diags),
        ) {
            slot.1 = n;
        }
    }
    values
}

/// The attribute a card's `:type` names, if the rule set lets cards be paid in it (else reported).
fn card_type(
    value: &Form<'_>,
    rules: &RuleSet,
    pay_with: &[AttrId],
    diags: &mut Vec<Diagnostic>,
) -> Option<AttrId> {
    match value.as_keyword().and_then(|k| rules.attribute(k)) {
        Some(a) if pay_with.is_empty() || pay_with.contains(&a) => Some(a),
        _ => {
            let allowed: Vec<&str> = if pay_with.is_empty() {
                rules.attributes.iter().map(String::as_str).collect()
            } else {
                pay_with
                    .iter()
                    .map(|&a| rules.attributes[a].as_str())
                    .collect()
            };
            diags.push(
                Diagnostic::new(
                    Code::UnknownCardType,
                    value.span,
                    format!(
                        "`:type` names what the card is paid in, found {}",
                        value.describe()
                    ),
                )
                .with_label("not a card type of this rule set")
                .suggest(
                    value.as_keyword().unwrap_or(""),
                    allowed.iter().copied(),
                    |s| format!(":{s}"),
                )
                .with_help_if_none(format!(
                    "the card types are {}",
                    check::list_and(allowed.iter().map(|a| format!("`:{a}`")))
                )),
            );
            None
        }
    }
}

/// Reports a card of a rule set with costs that lacks `:type` or `:cost`.
fn missing_card_keys(
    form: &Form<'_>,
    rules: &RuleSet,
    pay_with: &[AttrId],
    diags: &mut Vec<Diagnostic>,
) {
    for key in [DefKey::Type.name(), DefKey::Cost.name()] {
        if !form.has_key(key) {
            diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    form.span,
                    format!("a card of rule set `{}` needs `:{key}`", rules.name),
                )
                .with_label(format!("missing `:{key}`"))
                .with_help(if key == DefKey::Cost.name() {
                    "write `:cost 0` for a free card".to_string()
                } else {
                    format!(
                        "write what it is paid in: {}",
                        check::list(
                            pay_with
                                .iter()
                                .map(|&a| format!("`:type :{}`", rules.attributes[a]))
                        )
                    )
                }),
            );
        }
    }
}

/// Reports what a definition gets wrong as a whole: no `:effects`, effects
/// that expand too far, a cost with nothing to pay it in.
fn whole_definition_checks(
    form: &Form<'_>,
    rules: &RuleSet,
    what: &str,
    effects: Option<&[Effect]>,
    play: &CardRules,
    diags: &mut Vec<Diagnostic>,
) {
    if !form.has_key(DefKey::Effects.name()) {
        diags.push(
            Diagnostic::new(
                Code::MissingKey,
                form.span,
                format!("{what} needs `:effects`"),
            )
            .with_label("missing `:effects`")
            .with_help("write `:effects []` for one that does nothing"),
        );
    }
    if let Some(list) = effects
        && rules.expansion_of(list) > crate::check::rules::MAX_LIST_EXPANSION
    {
        diags.push(Diagnostic::new(
            Code::ExpandsTooFar,
            value_span(form, DefKey::Effects.name()).unwrap_or(form.span),
            format!(
                "these effects can do {} units of work (changes, through operations too; dice; `advantage`s; loops over entities); at most {}",
                rules.expansion_of(list),
                crate::check::rules::MAX_LIST_EXPANSION
            ),
        )
        .with_help("nested `advantage`s and `:each` loops double the work at each level: flatten them, or roll once and keep the result in an attribute"));
    }
    if play.pay_with.is_none() && play.cost > 0 && !form.has_key(DefKey::Type.name()) {
        diags.push(
            Diagnostic::new(
                Code::CostWithoutType,
                value_span(form, DefKey::Cost.name()).unwrap_or(form.span),
                "this card has a `:cost` but no `:type` to pay it in, so it is free",
            )
            .with_help("add `:type`, naming the attribute the cost is paid in"),
        );
    }
}

/// Reports where a card's `:text` and what its data does disagree.
fn card_text_lints(
    form: &Form<'_>,
    rules: &RuleSet,
    text: &str,
    def: &Definition,
    diags: &mut Vec<Diagnostic>,
) {
    let at = value_span(form, "text").unwrap_or(form.span);
    let abilities = &def.abilities;
    let targets: Vec<&str> = def
        .aims
        .targets
        .iter()
        .chain(abilities.iter().flat_map(|a| &a.targets))
        .map(|t| t.name.as_str())
        .collect();
    // What its triggers and abilities do is the card's too: its text says all.
    let effects: std::borrow::Cow<'_, [Effect]> = if def.triggers.is_empty() && abilities.is_empty()
    {
        std::borrow::Cow::Borrowed(&def.effects)
    } else {
        let all = def
            .effects
            .iter()
            .chain(def.triggers.iter().flat_map(|t| &t.effects))
            .chain(abilities.iter().flat_map(|a| &a.effects));
        std::borrow::Cow::Owned(all.cloned().collect())
    };
    for (code, message) in
        crate::check::lint::text_vs_card(rules, text, &effects, def.play.play_again, &targets)
    {
        diags.push(
            Diagnostic::new(code, at, message)
                .with_label("the card's text")
                .with_help("make the text and the data agree"),
        );
    }
}

/// Checks a `{:status :id …}` map: its id and text here, the rest in [`status_defs::check`].
fn status_definition(
    form: &Form<'_>,
    rules: &RuleSet,
    source: usize,
    diags: &mut Vec<Diagnostic>,
) -> Option<Definition> {
    let before = diags.len();
    let field = |key: StatusKey| form.get(key.name());
    let name = field(StatusKey::Status).and_then(|v| match v.as_keyword() {
        Some(id) => Some(id.to_string()),
        None => {
            diags.push(
                Diagnostic::new(
                    Code::WrongType,
                    v.span,
                    format!("a status's id is a keyword, found {}", v.describe()),
                )
                .with_label("expected a keyword such as `:weakness`"),
            );
            None
        }
    });
    let text = field(StatusKey::Text).and_then(|v| match &v.kind {
        Kind::Str(s) => Some(s.to_string()),
        _ => {
            diags.push(Diagnostic::new(
                Code::WrongType,
                v.span,
                format!("`:text` is a string, found {}", v.describe()),
            ));
            None
        }
    });
    let def = status_defs::check(form, rules, diags);
    if diags[before..]
        .iter()
        .any(|d| d.severity == crate::diag::Severity::Error)
    {
        return None;
    }
    Some(Definition {
        kind: DefKind::Status,
        name: name?,
        text,
        effects: Vec::new(),
        triggers: Vec::new(),
        auras: Vec::new(),
        aims: Aims::default(),
        reaction: None,
        abilities: Vec::new(),
        play: CardRules::default(),
        status: Some(def?),
        rules: rules.name.clone(),
        source,
        span: form.span,
    })
}

fn value_span(form: &Form<'_>, key: &str) -> Option<Span> {
    form.get(key).map(|v| v.span)
}

/// A whole number from 0 to `max`.
fn count(value: &Form<'_>, key: &str, max: i64, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    let range = if max == i64::MAX {
        "0 or more".to_string()
    } else {
        format!("from 0 to {max}")
    };
    match value.kind {
        Kind::Int(n) if (0..=max).contains(&n) => Some(n),
        _ => {
            let label = if matches!(value.kind, Kind::Int(_)) {
                "out of range"
            } else {
                "expected a whole number"
            };
            diags.push(
                Diagnostic::new(
                    Code::whole_number(value),
                    value.span,
                    format!(
                        "`:{key}` is a whole number {range}, found {}",
                        value.describe()
                    ),
                )
                .with_label(label),
            );
            // `"4"` from a spreadsheet: say how to write the number.
            if let Kind::Str(text) = &value.kind
                && let Some(d) = diags.last_mut()
            {
                d.help = Some(match text.trim().parse::<i64>() {
                    Ok(n) => format!("numbers are written without quotes: `:{key} {n}`"),
                    Err(_) => format!("write a whole number without quotes: `:{key} 3`"),
                });
            }
            None
        }
    }
}
