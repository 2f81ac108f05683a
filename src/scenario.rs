//! Scenarios: tests written as data. Given a state, play these cards, expect these values.
//!
//! ```clojure
//! {:scenario "Foundations on no wall"
//!  :given {:you {:wall 0 :bricks 10}}
//!  :play ["Foundations"]
//!  :expect {:you {:wall 6 :bricks 7} :next :other}}
//! ```
//!
//! The acting player is the first seat; `:you` and `:other` keep naming the
//! same seats for the whole scenario. Before each step the named card is put
//! into the hand of the player whose turn it is, then played (or discarded,
//! `[:discard "Name"]`; `[:refused "Name"]` or `[:refused [:discard "Name"]]`
//! when the engine must refuse it) through the engine: costs, effects, "play again",
//! "draw", "discard" and victory all apply. Neither a round's end nor the next
//! turn's start runs after the last step, so the state is what the plays left.
//!
//! Rule sets with `:actions` and `:setup` entities name entities by their
//! setup names too (`:hero`), give them statuses before the first step
//! (`:statuses {:hero [:power]}`), and act: `[:act :hero :move :cell-2-1]`,
//! `[:refused [:act …] "reason"]`, `[:status :hero :power]` (acquired now),
//! `:next-turn` (the next turn begins, with
//! any round end and start on the way). `:expect` may then name statuses and
//! turns left (`:statuses {:hero {:power 2}}`), entities out of play
//! (`:gone [:minion]`) and any condition (`:holds [[= 1 [count :tile]]]`,
//! setup names bound as roles).

use std::fmt::Write as _;

use crate::ast::{AttrId, Bool, EntityId, RoleId, StatusId};
use crate::check;
use crate::check::keys::{Keys, keys};
use crate::defs::Card;
use crate::diag::Diagnostic;
use crate::engine::{Action, CardId, Game, Illegal, Outcome, Phase, Queued};
use crate::eval::State;
use crate::rules::{ActionId, RuleSet};
use crate::syntax::{Form, Kind, Span};

/// One checked scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// The seed of the game it runs in (shuffles, chance).
    pub seed: u64,
    /// Values set before the game's start (`:start`), if any: then the
    /// game's start is kept, not reset to the defaults, and logged.
    pub start: Option<Vec<(Who, AttrId, i64)>>,
    /// Values set before the first step: entity, attribute, value.
    pub given: Vec<(Who, AttrId, i64)>,
    /// Statuses acquired before the first step, in order, each with its magnitude.
    pub statuses: Vec<(Who, StatusId, i64)>,
    /// What is done, in order.
    pub steps: Vec<Step>,
    /// What must hold afterwards.
    pub expect: Vec<Expect>,
    /// The exact log expected, if given.
    pub log: Option<String>,
    /// The scenario's map.
    pub span: Span,
}

impl Scenario {
    /// Whether it names a seat by its name (`:p1`) anywhere, rather than by role.
    fn names_a_seat(&self, seats: usize) -> bool {
        let seat = |w: &Who| matches!(*w, Who::Entity(e) if (e as usize) < seats);
        let values = self.start.iter().flatten().chain(&self.given);
        values.clone().any(|(w, _, _)| seat(w))
            || self.statuses.iter().any(|(w, _, _)| seat(w))
            || self.steps.iter().any(|step| match step {
                Step::Act(a, _, t, _) | Step::RefusedAct(a, _, t, _, _) => {
                    seat(a) || t.iter().any(seat)
                }
                Step::Status(w, _, _) => seat(w),
                Step::Expect(list) => list.iter().any(|e| e.names(&seat)),
                _ => false,
            })
            || self.expect.iter().any(|e| e.names(&seat))
    }
}

impl Expect {
    /// Whether it names an entity `pick` picks.
    fn names(&self, pick: &impl Fn(&Who) -> bool) -> bool {
        match self {
            Expect::Value(w, _, _) | Expect::Statuses(w, _) | Expect::Gone(w) => pick(w),
            Expect::Next(w) | Expect::Winner(Some(w)) => pick(w),
            Expect::Queue(list) => list.iter().any(|q| match q {
                QueueWant::Turn(w, _) | QueueWant::Timed(_, Some(w)) => pick(w),
                _ => false,
            }),
            _ => false,
        }
    }
}

/// Whom a scenario names: a role (`:you`) or a setup entity (`:hero`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// The entity a role means on the first seat's turn.
    Role(RoleId),
    /// An entity by number: a seat or a `:setup` entity.
    Entity(EntityId),
}

/// One step of a scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Play this card.
    Play(CardId),
    /// Discard this card.
    Discard(CardId),
    /// The step must be refused (`[:refused "Name"]`, `[:refused [:discard "Name"]]`); nothing changes.
    Refused(CardId, bool),
    /// Use an action of `:actions`: `[:act :hero :move :cell-2-1]`, with the
    /// option chosen (its [`Action::choice`]) for an action with `:choose`:
    /// `[:act :dio :stand-punch :pain :head]`.
    Act(Who, ActionId, Option<Who>, u16),
    /// The action must be refused, with this reason if given.
    RefusedAct(Who, ActionId, Option<Who>, u16, Option<String>),
    /// The next turn begins (`:next-turn`): a round's end and start on the way run.
    NextTurn,
    /// An entity acquires a status now, through the normal path: `[:status :hero :power]`.
    Status(Who, StatusId, i64),
    /// Expectations checked here, mid-play: `[:expect {:queue […]}]`.
    Expect(Vec<Expect>),
}

/// One entry of an expected turn queue: `[:turn :c1]` (`[:turn :c1 :fast-magic]`
/// with its turn kind), `:reorder`, `[:timed :bomb :c1]` (`[:timed :bomb]`, for anyone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueWant {
    /// A turn of this entity, of this turn kind if given.
    Turn(Who, Option<u8>),
    /// A reorder.
    Reorder,
    /// A timed entry running this timing, for this entity if given.
    Timed(u16, Option<Who>),
}

/// One expectation.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// An attribute's value.
    Value(Who, AttrId, i64),
    /// The statuses an entity holds, each with its turns left, in acquisition order.
    Statuses(Who, Vec<(StatusId, i64)>),
    /// The entity is out of play.
    Gone(Who),
    /// A condition holds (the text, for the message).
    Holds(Bool, String),
    /// Whose turn it is next: a role, or a seat by name.
    Next(Who),
    /// Who won: `Some(role or seat)`, or `None` for a game still going.
    Winner(Option<Who>),
    /// Both players won at once (`:winner :tie`).
    Tie,
    /// Cards the acting player must still discard.
    MustDiscard(u8),
    /// Cards in the hand of the player whose turn it is.
    Hand(usize),
    /// The turn queue, as [`Game::queue_listing`] lists it.
    Queue(Vec<QueueWant>),
}

keys! {
    /// The keys of a scenario.
    pub enum ScenarioKey {
        /// `:scenario "Name"`.
        Scenario = "scenario",
        /// `:rules :name`: the rule set it is written for.
        Rules = "rules",
        /// `:seed N`: the game's seed.
        Seed = "seed",
        /// `:start {:p1 {:speed 3}}`: values set before the game's start, whose
        /// timings then run and are kept.
        Start = "start",
        /// `:given {:you {:wall 0}}`: values set before the first step.
        Given = "given",
        /// `:statuses {:hero [:power]}`: statuses acquired before the first step.
        Statuses = "statuses",
        /// `:play ["Card" …]`: the steps.
        Play = "play",
        /// `:expect {…}`: what must hold afterwards.
        Expect = "expect",
        /// `:log "…"`: the exact log expected.
        Log = "log",
    }
}

keys! {
    /// The keys of `:expect` besides role names.
    pub enum ExpectKey {
        /// `:next :other`: whose turn it is next.
        Next = "next",
        /// `:winner :you` (or `:tie`, or `nil` for a game still going).
        Winner = "winner",
        /// `:must-discard N`: cards the actor must still discard.
        MustDiscard = "must-discard",
        /// `:hand N`: cards in the actor's hand.
        Hand = "hand",
        /// `:statuses {:hero {:power 2}}`: the statuses held, with turns left.
        Statuses = "statuses",
        /// `:gone [:minion]`: entities out of play.
        Gone = "gone",
        /// `:holds [condition …]`: conditions that hold.
        Holds = "holds",
        /// `:queue [[:turn :c1] :reorder [:timed :bomb :c1]]`: the turn queue.
        Queue = "queue",
    }
}

/// Checks the scenario maps among `forms` against a rule set and its cards.
pub fn load(
    forms: &[Form<'_>],
    rules: &RuleSet,
    deck: &[Card],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Scenario> {
    forms
        .iter()
        .filter_map(|f| scenario(f, rules, deck, diags))
        .collect()
}

fn scenario(
    form: &Form<'_>,
    rules: &RuleSet,
    deck: &[Card],
    diags: &mut Vec<Diagnostic>,
) -> Option<Scenario> {
    let before = diags.len();
    let pairs = check::fields(form, "a scenario", ScenarioKey::ALL, diags)?;
    let mut s = Scenario {
        name: String::new(),
        seed: 1,
        start: None,
        given: Vec::new(),
        statuses: Vec::new(),
        steps: Vec::new(),
        expect: Vec::new(),
        log: None,
        span: form.span,
    };
    let mut named = false;
    for (key, v) in pairs {
        match key {
            ScenarioKey::Scenario => match &v.kind {
                Kind::Str(name) => {
                    s.name = name.to_string();
                    named = true;
                }
                _ => diags.push(Diagnostic::error(
                    v.span,
                    "`:scenario` is the scenario's name, a string",
                )),
            },
            ScenarioKey::Rules => {
                if v.as_keyword() != Some(rules.name.as_str()) {
                    diags.push(Diagnostic::error(
                        v.span,
                        format!(
                            "this scenario names rule set {v}, but it is run with `:{}`",
                            rules.name
                        ),
                    ));
                }
            }
            ScenarioKey::Seed => match v.kind {
                Kind::Int(n) if n >= 0 => s.seed = n as u64,
                _ => diags.push(Diagnostic::error(v.span, "`:seed` is a whole number")),
            },
            ScenarioKey::Start => s.start = Some(values(v, rules, diags)),
            ScenarioKey::Given => s.given = values(v, rules, diags),
            ScenarioKey::Statuses => s.statuses = given_statuses(v, rules, diags),
            ScenarioKey::Play => s.steps = steps(v, rules, deck, diags),
            ScenarioKey::Expect => s.expect = expectations(v, rules, diags),
            ScenarioKey::Log => match &v.kind {
                Kind::Str(text) => s.log = Some(text.to_string()),
                _ => diags.push(Diagnostic::error(
                    v.span,
                    "`:log` is the expected log, a string",
                )),
            },
        }
    }
    if !named {
        diags.push(Diagnostic::error(
            form.span,
            "a scenario needs a name: `:scenario \"…\"`",
        ));
    }
    if s.expect.is_empty() && s.log.is_none() {
        diags.push(
            Diagnostic::error(form.span, "this scenario expects nothing")
                .with_help("add `:expect {:you {:wall 6}}` or `:log \"…\"`"),
        );
    }
    (diags.len() == before).then_some(s)
}

/// A role (`:you`) or the name of a seat or `:setup` entity (`:hero`).
fn who(form: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<Who> {
    let name = form.as_keyword().unwrap_or("");
    if let Some(r) = rules.role(name) {
        return Some(Who::Role(r));
    }
    let names = rules.game_entity_names();
    if let Some(e) = names.iter().position(|n| n == name) {
        return Some(Who::Entity(e as EntityId));
    }
    let known: Vec<&str> = rules
        .roles
        .iter()
        .chain(&names)
        .map(String::as_str)
        .collect();
    diags.push(
        Diagnostic::error(
            form.span,
            format!("expected a role or entity, found {}", form.describe()),
        )
        .suggest(name, known.iter().copied(), |s| format!(":{s}"))
        .with_help_if_none(format!(
            "the roles are {}",
            crate::check::list_and(rules.roles.iter().map(|e| format!("`:{e}`")))
        )),
    );
    None
}

/// A status id of the rule set.
fn status(form: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<StatusId> {
    let name = form.as_keyword().unwrap_or("");
    let found = rules.status(name);
    if found.is_none() {
        diags.push(
            Diagnostic::error(form.span, format!("unknown status `{form}`")).suggest(
                name,
                rules.statuses.iter().map(String::as_str),
                |s| format!(":{s}"),
            ),
        );
    }
    found
}

/// `{:hero [:power :slow]}`
fn given_statuses(
    form: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(Who, StatusId, i64)> {
    let mut out = Vec::new();
    let Kind::Map(pairs) = &form.kind else {
        diags.push(Diagnostic::error(
            form.span,
            "`:statuses` is a map such as `{:hero [:power]}`",
        ));
        return out;
    };
    for (k, v) in pairs.iter() {
        let Some(w) = who(k, rules, diags) else {
            continue;
        };
        let items = match &v.kind {
            Kind::Vector(items) => &items[..],
            _ => std::slice::from_ref(v),
        };
        for item in items {
            out.extend(status_with_magnitude(item, rules, diags).map(|(s, m)| (w, s, m)));
        }
    }
    out
}

/// `:power`, or `[:heal4 23]`: a status and the magnitude it is acquired with (0 without).
fn status_with_magnitude(
    form: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<(StatusId, i64)> {
    match &form.kind {
        Kind::Vector(items) => match &items[..] {
            [
                id,
                Form {
                    kind: Kind::Int(m), ..
                },
            ] => status(id, rules, diags).map(|s| (s, *m)),
            _ => {
                diags.push(
                    Diagnostic::error(
                        form.span,
                        "a status with a magnitude is `[STATUS NUMBER]`, such as `[:heal4 23]`",
                    )
                    .with_label("expected `[:status magnitude]`"),
                );
                None
            }
        },
        _ => status(form, rules, diags).map(|s| (s, 0)),
    }
}

/// `{:you {:wall 0} :other {:tower 5}}`
fn values(
    form: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(Who, AttrId, i64)> {
    let mut out = Vec::new();
    let Kind::Map(pairs) = &form.kind else {
        diags.push(Diagnostic::error(
            form.span,
            "expected a map such as `{:you {:wall 0}}`",
        ));
        return out;
    };
    for (name, attrs) in pairs.iter() {
        let Some(role) = who(name, rules, diags) else {
            continue;
        };
        let Kind::Map(attrs) = &attrs.kind else {
            diags.push(Diagnostic::error(
                attrs.span,
                "expected a map of attributes such as `{:wall 0}`",
            ));
            continue;
        };
        for (k, v) in attrs.iter() {
            let name = k.as_keyword().unwrap_or("");
            let Some(attr) = rules.attribute(name) else {
                diags.push(
                    Diagnostic::error(k.span, format!("unknown attribute {k}")).suggest(
                        name,
                        rules.attributes.iter().map(String::as_str),
                        |s| format!(":{s}"),
                    ),
                );
                continue;
            };
            match v.kind {
                Kind::Int(n) => {
                    let (min, max) = rules.bounds[attr as usize];
                    if (min..=max).contains(&n) {
                        out.push((role, attr, n));
                    } else {
                        diags.push(
                            Diagnostic::error(
                                v.span,
                                format!("{n} is outside the bounds of `:{name}` ({min} to {max})"),
                            )
                            .with_label("out of bounds"),
                        );
                    }
                }
                _ => diags.push(Diagnostic::error(
                    v.span,
                    format!("expected an integer, found {}", v.describe()),
                )),
            }
        }
    }
    out
}

fn card(form: &Form<'_>, deck: &[Card], diags: &mut Vec<Diagnostic>) -> Option<CardId> {
    let Kind::Str(name) = &form.kind else {
        diags.push(Diagnostic::error(
            form.span,
            format!("expected a card name, found {}", form.describe()),
        ));
        return None;
    };
    let found = deck.iter().position(|c| c.name == **name);
    if found.is_none() {
        diags.push(
            Diagnostic::error(form.span, format!("no card named \"{name}\"")).suggest(
                name,
                deck.iter().map(|c| c.name.as_str()),
                |s| format!("\"{s}\""),
            ),
        );
    }
    found.map(|i| i as CardId)
}

/// `[:act :hero :move :cell-2-1]`: actor, action, target (if the action
/// takes one), and the option chosen (if it has `:choose`): `[:act :dio
/// :stand-punch :pain :head]`.
fn act(
    items: &[Form<'_>],
    at: Span,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Who, ActionId, Option<Who>, u16)> {
    let shape = |diags: &mut Vec<Diagnostic>| {
        diags.push(
            Diagnostic::error(at, "an action step is `[:act ACTOR ACTION TARGET OPTION]`")
                .with_help("for example `[:act :hero :move :cell-2-1]`; an action without a target leaves it out, and one without `:choose` the option"),
        );
    };
    let [_, actor, action, rest @ ..] = items else {
        shape(diags);
        return None;
    };
    let actor = who(actor, rules, diags);
    let name = action.as_keyword().unwrap_or("");
    let Some(id) = rules.actions.iter().position(|a| a.name == name) else {
        diags.push(
            Diagnostic::error(action.span, format!("unknown action `{action}`"))
                .suggest(name, rules.actions.iter().map(|a| a.name.as_str()), |s| {
                    format!(":{s}")
                })
                .with_help_if_none(if rules.actions.is_empty() {
                    format!("rule set `{}` declares no `:actions`", rules.name)
                } else {
                    String::new()
                })
                .drop_empty_help(),
        );
        return None;
    };
    let def = &rules.actions[id];
    let set = def.choose.and_then(|c| rules.choices.get(usize::from(c)));
    let (target, option) = match (def.target.is_some(), set.is_some(), rest) {
        (false, false, []) => (None, None),
        (true, false, [t]) => (Some(t), None),
        (false, true, [o]) => (None, Some(o)),
        (true, true, [t, o]) => (Some(t), Some(o)),
        // The target left out, the option given.
        (true, true, [o])
            if set.is_some_and(|set| {
                rules.options[usize::from(set.first)..][..usize::from(set.len)]
                    .iter()
                    .any(|n| Some(n.as_str()) == o.as_keyword())
            }) =>
        {
            diags.push(
                Diagnostic::error(
                    o.span,
                    format!("`:{name}` needs a target before its option"),
                )
                .with_label("an option, not a target")
                .with_help(format!("write `[:act ACTOR :{name} TARGET {o}]`")),
            );
            return None;
        }
        // An action with `:choose` named with no option: say which there are.
        (true, true, [_]) | (false, true, []) => {
            let set = set?;
            let options = &rules.options[usize::from(set.first)..][..usize::from(set.len)];
            diags.push(
                Diagnostic::error(at, format!("`:{name}` is used with one `:{}`", set.name))
                    .with_label("no option chosen")
                    .with_help(format!(
                        "end the step with one of {}",
                        crate::check::list(options.iter().map(|o| format!("`:{o}`")))
                    )),
            );
            return None;
        }
        (has_target, has_set, _) => {
            let takes = match (has_target, has_set) {
                (false, false) => "no target and no option".to_string(),
                (true, false) => "a target and no option".to_string(),
                (false, true) => "no target and one option".to_string(),
                (true, true) => "a target, then one option".to_string(),
            };
            shape(diags);
            if let Some(d) = diags.last_mut() {
                d.help = Some(format!("`:{name}` takes {takes}"));
            }
            return None;
        }
    };
    let target = match target {
        Some(t) => Some(who(t, rules, diags)?),
        None => None,
    };
    let choice = match (set, option) {
        (Some(set), Some(o)) => {
            let options = &rules.options[usize::from(set.first)..][..usize::from(set.len)];
            let k = o.as_keyword().unwrap_or("");
            let message = format!("`:{}` has no option `{o}`", set.name);
            let found = crate::check::Declared::new(
                options.iter().map(String::as_str),
                "an option",
                "options",
            )
            .find(k, o.span, message, diags)?;
            set.first + found as u16 + 1
        }
        _ => 0,
    };
    Some((actor?, id as ActionId, target, choice))
}

/// `["Foundations" [:discard "Orc"] [:act :hero :wait] :next-turn]`
fn steps(
    form: &Form<'_>,
    rules: &RuleSet,
    deck: &[Card],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Step> {
    let Kind::Vector(items) = &form.kind else {
        diags.push(Diagnostic::error(
            form.span,
            "`:play` is a vector of card names",
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items.iter() {
        match &item.kind {
            Kind::Str(_) => out.extend(card(item, deck, diags).map(Step::Play)),
            Kind::Keyword("next-turn") => out.push(Step::NextTurn),
            Kind::Vector(items) if items.first().and_then(Form::as_keyword) == Some("expect") => {
                match &items[..] {
                    [_, map] => out.push(Step::Expect(expectations(map, rules, diags))),
                    _ => diags.push(Diagnostic::error(
                        item.span,
                        "an expect step is `[:expect {…}]`, such as `[:expect {:queue [[:turn :c1]]}]`",
                    )),
                }
            }
            Kind::Vector(items) if items.first().and_then(Form::as_keyword) == Some("status") => {
                match &items[..] {
                    [_, holder, id] | [_, holder, id, _] => {
                        let magnitude = match items.get(3).map(|m| &m.kind) {
                            None => Some(0),
                            Some(Kind::Int(m)) => Some(*m),
                            Some(_) => {
                                diags.push(
                                    Diagnostic::error(items[3].span, "a magnitude is a whole number")
                                        .with_label("expected a number such as `23`"),
                                );
                                None
                            }
                        };
                        let (holder, id) = (who(holder, rules, diags), status(id, rules, diags));
                        if let (Some(h), Some(id), Some(m)) = (holder, id, magnitude) {
                            out.push(Step::Status(h, id, m));
                        }
                    }
                    _ => diags.push(Diagnostic::error(
                        item.span,
                        "a status step is `[:status ENTITY STATUS]` or `[:status ENTITY STATUS MAGNITUDE]`, such as `[:status :hero :power]`",
                    )),
                }
            }
            Kind::Vector(items) if items.first().and_then(Form::as_keyword) == Some("act") => {
                out.extend(
                    act(items, item.span, rules, diags).map(|(a, id, t, c)| Step::Act(a, id, t, c)),
                );
            }
            Kind::Vector(pair)
                if (2..=3).contains(&pair.len())
                    && pair[0].as_keyword() == Some("refused")
                    && matches!(&pair[1].kind, Kind::Vector(inner)
                        if inner.first().and_then(Form::as_keyword) == Some("act")) =>
            {
                let Kind::Vector(inner) = &pair[1].kind else {
                    continue;
                };
                let reason = match pair.get(2).map(|r| &r.kind) {
                    Some(Kind::Str(r)) => Some(r.to_string()),
                    Some(_) => {
                        diags.push(Diagnostic::error(
                            pair[2].span,
                            "the reason a refusal gives is a string",
                        ));
                        continue;
                    }
                    None => None,
                };
                out.extend(
                    act(inner, pair[1].span, rules, diags)
                        .map(|(a, id, t, c)| Step::RefusedAct(a, id, t, c, reason)),
                );
            }
            Kind::Vector(pair) if pair.len() == 2 && pair[0].as_keyword() == Some("discard") => {
                out.extend(card(&pair[1], deck, diags).map(Step::Discard));
            }
            Kind::Vector(pair) if pair.len() == 2 && pair[0].as_keyword() == Some("refused") => {
                let (what, discard) = match &pair[1].kind {
                    Kind::Vector(inner)
                        if inner.len() == 2 && inner[0].as_keyword() == Some("discard") =>
                    {
                        (&inner[1], true)
                    }
                    _ => (&pair[1], false),
                };
                out.extend(card(what, deck, diags).map(|c| Step::Refused(c, discard)));
            }
            _ => diags.push(Diagnostic::error(
                item.span,
                format!(
                    "expected a card name, `[:discard \"Name\"]`, `[:act …]` or `:next-turn`, found {}",
                    item.describe()
                ),
            )),
        }
    }
    out
}

/// `{:you {:wall 6} :next :other :winner :you :must-discard 1 :hand 6}`; `:winner :tie` for a tie.
fn expectations(form: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Vec<Expect> {
    let mut out = Vec::new();
    let Kind::Map(pairs) = &form.kind else {
        diags.push(Diagnostic::error(
            form.span,
            "`:expect` is a map such as `{:you {:wall 6}}`",
        ));
        return out;
    };
    for (k, v) in pairs.iter() {
        let name = k.as_keyword().unwrap_or("");
        let entity =
            rules.role(name).is_some() || rules.game_entity_names().iter().any(|n| n == name);
        match (entity.then_some(()), ExpectKey::find(name)) {
            (Some(()), _) => {
                let pair = [(*k, *v)];
                let one = Form {
                    kind: Kind::Map(&pair),
                    span: k.span.to(v.span),
                };
                out.extend(
                    values(&one, rules, diags)
                        .into_iter()
                        .map(|(r, a, n)| Expect::Value(r, a, n)),
                );
            }
            (None, Some(ExpectKey::Statuses)) => {
                let Kind::Map(pairs) = &v.kind else {
                    diags.push(Diagnostic::error(
                        v.span,
                        "`:statuses` is a map such as `{:hero {:power 2}}`",
                    ));
                    continue;
                };
                for (name, held) in pairs.iter() {
                    let Some(w) = who(name, rules, diags) else {
                        continue;
                    };
                    let mut list = Vec::new();
                    match &held.kind {
                        Kind::Map(items) => {
                            for (id, left) in items.iter() {
                                let id = status(id, rules, diags);
                                match (id, &left.kind) {
                                    (Some(id), Kind::Int(n)) => list.push((id, *n)),
                                    (_, Kind::Int(_)) => {}
                                    _ => diags.push(Diagnostic::error(
                                        left.span,
                                        "turns left are a whole number (-1 for a status that does not run out)",
                                    )),
                                }
                            }
                        }
                        _ => diags.push(Diagnostic::error(
                            held.span,
                            "expected a map of statuses to turns left, such as `{:power 2}` (`{}` for none)",
                        )),
                    }
                    out.push(Expect::Statuses(w, list));
                }
            }
            (None, Some(ExpectKey::Gone)) => {
                let items = match &v.kind {
                    Kind::Vector(items) => &items[..],
                    _ => std::slice::from_ref(v),
                };
                out.extend(
                    items
                        .iter()
                        .filter_map(|i| who(i, rules, diags))
                        .map(Expect::Gone),
                );
            }
            (None, Some(ExpectKey::Holds)) => {
                let items = match &v.kind {
                    Kind::Vector(items) if items.first().and_then(Form::as_symbol).is_none() => {
                        &items[..]
                    }
                    _ => std::slice::from_ref(v),
                };
                let names = rules.game_entity_names();
                let bound: Vec<&str> = names.iter().map(String::as_str).collect();
                let scope = crate::check::Scope {
                    bound: &bound,
                    ..rules.scope()
                };
                for item in items {
                    if let Some(c) = check::condition(item, &scope, diags) {
                        out.push(Expect::Holds(c, item.to_string()));
                    }
                }
            }
            (None, Some(ExpectKey::Queue)) => {
                out.extend(queue_wants(v, rules, diags).map(Expect::Queue))
            }
            (None, Some(ExpectKey::Next)) => out.extend(who(v, rules, diags).map(Expect::Next)),
            (None, Some(ExpectKey::Winner)) => match v.kind {
                Kind::Nil => out.push(Expect::Winner(None)),
                Kind::Keyword("tie") => out.push(Expect::Tie),
                _ => out.extend(who(v, rules, diags).map(|w| Expect::Winner(Some(w)))),
            },
            (None, Some(key @ (ExpectKey::MustDiscard | ExpectKey::Hand))) => match v.kind {
                Kind::Int(n) if (0..=255).contains(&n) => out.push(if key == ExpectKey::Hand {
                    Expect::Hand(n as usize)
                } else {
                    Expect::MustDiscard(n as u8)
                }),
                _ => diags.push(Diagnostic::error(
                    v.span,
                    format!("`:{}` is a small whole number", key.name()),
                )),
            },
            (None, None) => {
                let keys = || ExpectKey::ALL.iter().map(|k| k.name());
                let known: Vec<&str> = rules
                    .roles
                    .iter()
                    .map(String::as_str)
                    .chain(keys())
                    .collect();
                diags.push(
                    Diagnostic::error(k.span, format!("unknown expectation {k}"))
                        .suggest(name, known.iter().copied(), |s| format!(":{s}"))
                        .with_help_if_none(format!(
                            "expect role values or {}",
                            keys().collect::<Vec<_>>().join(", ")
                        )),
                );
            }
        }
    }
    out
}

/// Runs a scenario: the log it produced, or what failed.
pub fn run(s: &Scenario, rules: &RuleSet, deck: &[Card]) -> Result<String, Vec<String>> {
    // The first seat's roles: role `r` is the `r`-th seat after it.
    let seats = rules.seats.len().max(1);
    let entity = |w: Who| match w {
        Who::Role(r) => (r as usize % seats) as EntityId,
        Who::Entity(e) => e,
    };
    let start: Vec<(EntityId, AttrId, i64)> = s
        .start
        .iter()
        .flatten()
        .map(|&(who, attr, value)| (entity(who), attr, value))
        .collect();
    let mut game =
        Game::starting_from(rules, deck, s.seed, true, &start).map_err(|e| vec![e.to_string()])?;
    game.pause_between_turns(true);
    let roles: Vec<EntityId> = game.roles(0).to_vec();
    if s.start.is_none() {
        // What the game's start and the first turn's start did is undone: the
        // first step sees the defaults and `:given`, exactly.
        let defaults = State::new(rules, rules.seats.len(), s.seed);
        for seat in 0..rules.seats.len() as EntityId {
            for attr in 0..rules.attributes.len() {
                game.set(seat, attr as AttrId, defaults.get(seat, attr as AttrId));
            }
        }
        // A seat's own `:setup` values are part of its defaults.
        for e in rules.setup.iter().filter(|e| e.seat.is_some()) {
            for &(attr, value) in &e.values {
                game.set(e.seat.unwrap_or(0) as EntityId, attr, value);
            }
        }
    }
    for &(who, attr, value) in &s.given {
        game.set(entity(who), attr, value);
    }
    if s.start.is_none()
        && let Some(log) = &mut game.log
    {
        log.clear();
    }
    // Given statuses are acquired through the normal path, and logged.
    for &(who, status, magnitude) in &s.statuses {
        game.give_status(entity(who), status, magnitude);
    }
    // The given state may already be won (a tower at 0): judge it before any step.
    game.recheck();
    let mut names: Vec<String> = rules.game_entity_names();
    // Seats are named by their roles (`you`), unless the scenario names a seat itself.
    let roles_name_seats = !s.names_a_seat(rules.seats.len());
    for (seat, name) in names
        .iter_mut()
        .enumerate()
        .take(rules.seats.len())
        .filter(|_| roles_name_seats)
    {
        if let Some(role) = roles.iter().position(|&r| r as usize == seat) {
            *name = rules.roles[role].clone();
        }
    }
    let mut failures = Vec::new();
    let action_name = |id: ActionId| rules.actions[usize::from(id)].name.as_str();
    for (n, step) in s.steps.iter().enumerate() {
        // An expectation looks at the game as the last step left it.
        if !matches!(step, Step::Expect(_)) {
            game.resume();
        }
        let (card, play, refused) = match *step {
            Step::Play(c) => (c, true, false),
            Step::Discard(c) => (c, false, false),
            Step::Refused(c, discard) => (c, !discard, true),
            Step::NextTurn => continue,
            Step::Expect(ref expect) => {
                let before = failures.len();
                check_expectations(expect, &game, rules, &names, &roles, &mut failures);
                for f in &mut failures[before..] {
                    *f = format!("step {}: {f}", n + 1);
                }
                continue;
            }
            Step::Status(holder, id, magnitude) => {
                game.give_status(entity(holder), id, magnitude);
                continue;
            }
            Step::Act(actor, id, target, choice) => {
                let mut action = game.use_action(id, entity(actor), target.map(entity));
                action.choice = choice;
                if let Err(e) = game.act(action) {
                    failures.push(format!("step {}: {}: {e}", n + 1, action_name(id)));
                    break;
                }
                continue;
            }
            Step::RefusedAct(actor, id, target, choice, ref reason) => {
                let mut action: Action = game.use_action(id, entity(actor), target.map(entity));
                action.choice = choice;
                match (game.check(action), reason) {
                    (Ok(()), _) => {
                        failures.push(format!(
                            "step {}: expected {} to be refused, but it was allowed",
                            n + 1,
                            action_name(id)
                        ));
                        break;
                    }
                    (Err(Illegal::Refused(got)), Some(want)) if got != *want => {
                        failures.push(format!(
                            "step {}: {} was refused with \"{got}\", expected \"{want}\"",
                            n + 1,
                            action_name(id)
                        ));
                    }
                    (Err(e), Some(want)) if !matches!(e, Illegal::Refused(_)) => {
                        failures.push(format!(
                            "step {}: {} was not allowed ({e}), not refused with \"{want}\"",
                            n + 1,
                            action_name(id)
                        ));
                    }
                    (Err(_), _) => {}
                }
                continue;
            }
        };
        game.give(card);
        let Some(at) = game.hand().len().checked_sub(1) else {
            failures.push(format!(
                "step {}: rule set `{}` has no card zones, so no card can be played",
                n + 1,
                rules.name
            ));
            break;
        };
        let action = if play {
            game.play(at)
        } else {
            game.discard(at)
        };
        if refused {
            match game.act(action) {
                Ok(()) => {
                    failures.push(format!(
                        "step {}: expected {} {} to be refused, but it was allowed",
                        n + 1,
                        if play { "playing" } else { "discarding" },
                        deck[card as usize].name
                    ));
                    break;
                }
                Err(_) => {
                    // Take back the card the step gave, so the hand is as before.
                    game.take_back(at);
                    continue;
                }
            }
        }
        if let Err(e) = game.act(action) {
            failures.push(format!(
                "step {}: {} {}: {e}",
                n + 1,
                if play { "play" } else { "discard" },
                deck[card as usize].name
            ));
            break;
        }
    }
    // A trailing `:next-turn` starts that turn, so what it runs is seen.
    if s.steps.last() == Some(&Step::NextTurn) {
        game.resume();
    }
    let log =
        crate::engine::log::render_named(rules, deck, game.log.as_deref().unwrap_or(&[]), &names);
    check_expectations(&s.expect, &game, rules, &names, &roles, &mut failures);
    if let Some(want) = &s.log
        && want.trim() != log.trim()
    {
        failures.push(format!("the log differs; it was:\n{log}"));
    }
    if failures.is_empty() {
        Ok(log)
    } else {
        Err(failures)
    }
}

fn describe(game: &Game<'_>, names: &[String]) -> String {
    let mut out = String::new();
    let _ = match game.outcome() {
        Some(Outcome::Win { seat, .. }) => write!(out, "{} won", names[seat as usize]),
        Some(Outcome::Tie) => write!(out, "the game ended in a tie"),
        Some(Outcome::TurnLimit) => write!(out, "the game hit the turn limit"),
        Some(Outcome::NobodyLeft) => write!(out, "no seat is left in play"),
        None => write!(out, "{} is to act", names[game.next_actor() as usize]),
    };
    out
}

/// Checks `expect` against the game as it stands, adding what does not hold to `failures`.
fn check_expectations(
    expect: &[Expect],
    game: &Game<'_>,
    rules: &RuleSet,
    names: &[String],
    roles: &[EntityId],
    failures: &mut Vec<String>,
) {
    let entity = |w: Who| match w {
        Who::Role(r) => roles[r as usize],
        Who::Entity(e) => e,
    };
    let who_name = |w: Who| match w {
        Who::Role(r) => rules.roles[r as usize].clone(),
        Who::Entity(e) => names
            .get(e as usize)
            .cloned()
            .unwrap_or_else(|| format!("#{e}")),
    };
    for e in expect {
        match *e {
            Expect::Value(who, attr, want) => {
                let got = game.state().get(entity(who), attr);
                if got != want {
                    failures.push(format!(
                        "{}.{} is {got}, expected {want}",
                        who_name(who),
                        rules.attributes[attr as usize]
                    ));
                }
            }
            Expect::Statuses(who, ref want) => {
                let got: Vec<(StatusId, i64)> = game
                    .state()
                    .statuses_of(entity(who))
                    .map(|i| (i.status, i.turns_left().map_or(-1, i64::from)))
                    .collect();
                if got != *want {
                    let show = |list: &[(StatusId, i64)]| {
                        let items: Vec<String> = list
                            .iter()
                            .map(|&(id, left)| format!(":{} {left}", rules.statuses[id as usize]))
                            .collect();
                        format!("{{{}}}", items.join(" "))
                    };
                    failures.push(format!(
                        "{} holds {}, expected {}",
                        who_name(who),
                        show(&got),
                        show(want)
                    ));
                }
            }
            Expect::Gone(who) => {
                if game.state().is_live(entity(who)) {
                    failures.push(format!(
                        "expected {} out of play; it is in play",
                        who_name(who)
                    ));
                }
            }
            Expect::Holds(ref cond, ref text) => {
                let mut bound = roles.to_vec();
                bound.extend(0..rules.game_entity_names().len() as EntityId);
                let mut state = game.state().clone();
                if !crate::eval::holds(cond, &mut state, &bound) {
                    failures.push(format!("expected {text} to hold; it does not"));
                }
            }
            Expect::Next(who) => {
                if game.outcome().is_some() || game.next_actor() != entity(who) {
                    failures.push(format!(
                        "expected {} to act next; {}",
                        who_name(who),
                        describe(game, names)
                    ));
                }
            }
            Expect::Winner(who) => {
                let got = match game.outcome() {
                    Some(Outcome::Win { seat, .. }) => Some(Some(seat)),
                    None => Some(None),
                    Some(_) => None,
                };
                if got != Some(who.map(entity)) {
                    let want = who.map_or("nobody yet".to_string(), who_name);
                    failures.push(format!(
                        "expected winner: {want}; {}",
                        describe(game, names)
                    ));
                }
            }
            // A draw where every seat left play at once is a tie too, as `simulate` counts it.
            Expect::Tie => {
                if !matches!(game.outcome(), Some(Outcome::Tie | Outcome::NobodyLeft)) {
                    failures.push(format!("expected a tie; {}", describe(game, names)));
                }
            }
            Expect::MustDiscard(n) => {
                let got = match game.phase {
                    Phase::MustDiscard(k) => k,
                    _ => 0,
                };
                if got != n {
                    failures.push(format!(
                        "expected {n} card(s) still to discard, found {got}"
                    ));
                }
            }
            Expect::Hand(n) => {
                if game.hand().len() != n {
                    failures.push(format!(
                        "expected {n} cards in hand, found {}",
                        game.hand().len()
                    ));
                }
            }
            Expect::Queue(ref want) => {
                let got = game.queue_listing();
                let matches = got.len() == want.len()
                    && got.iter().zip(want).all(|(g, w)| match (*g, *w) {
                        (Queued::Turn(e, k), QueueWant::Turn(who, kind)) => {
                            e == entity(who) && kind.is_none_or(|kind| kind == k)
                        }
                        (Queued::Reorder, QueueWant::Reorder) => true,
                        (Queued::Timed(t, e), QueueWant::Timed(timing, who)) => {
                            t == timing && who.is_none_or(|w| entity(w) == e)
                        }
                        _ => false,
                    });
                if !matches {
                    let show = |q: &Queued| match *q {
                        Queued::Turn(e, k) => format!(
                            "[:turn :{} :{}]",
                            names.get(e as usize).map_or("?", String::as_str),
                            rules.turn_kinds[usize::from(k)].name
                        ),
                        Queued::Reorder => ":reorder".to_string(),
                        Queued::Timed(t, e) => format!(
                            "[:timed :{} :{}]",
                            rules.timings[usize::from(t)].name,
                            names.get(e as usize).map_or("?", String::as_str)
                        ),
                    };
                    failures.push(format!(
                        "the queue is [{}]",
                        got.iter().map(show).collect::<Vec<_>>().join(" ")
                    ));
                }
            }
        }
    }
}

/// `[[:turn :c1] [:turn :c2 :fast-magic] :reorder [:timed :bomb :c1]]`: an expected queue.
fn queue_wants(
    form: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<QueueWant>> {
    let help = "a queue is a vector of `[:turn :c1]` (or `[:turn :c1 :fast-magic]`), `:reorder` and `[:timed :bomb :c1]` (or `[:timed :bomb]`)";
    let Kind::Vector(items) = &form.kind else {
        diags.push(
            Diagnostic::error(form.span, "`:queue` is a vector of queue entries").with_help(help),
        );
        return None;
    };
    let before = diags.len();
    let mut out = Vec::new();
    for item in items.iter() {
        let parts: &[Form<'_>] = match &item.kind {
            Kind::Vector(parts) => parts,
            Kind::Keyword("reorder") => {
                out.push(QueueWant::Reorder);
                continue;
            }
            _ => &[],
        };
        match (parts.first().and_then(Form::as_keyword), parts) {
            (Some("turn"), [_, whom] | [_, whom, _]) => {
                let kind = match parts.get(2) {
                    Some(k) => {
                        let found = k
                            .as_keyword()
                            .and_then(|name| rules.turn_kinds.iter().position(|t| t.name == name));
                        if found.is_none() {
                            diags.push(
                                Diagnostic::error(
                                    k.span,
                                    format!("{k} is not a turn kind of this rule set"),
                                )
                                .with_help(format!(
                                    "the turn kinds are {}",
                                    check::list_and(
                                        rules.turn_kinds.iter().map(|t| format!("`:{}`", t.name))
                                    )
                                )),
                            );
                        }
                        found.map(|f| f as u8)
                    }
                    None => None,
                };
                if let Some(w) = who(whom, rules, diags) {
                    out.push(QueueWant::Turn(w, kind));
                }
            }
            (Some("timed"), [_, timing] | [_, timing, _]) => {
                let t = timing.as_keyword().and_then(|name| rules.timing(name));
                if t.is_none() {
                    diags.push(Diagnostic::error(
                        timing.span,
                        format!("{timing} is not a timing of this rule set"),
                    ));
                }
                let whom = match parts.get(2) {
                    Some(w) => who(w, rules, diags),
                    None => None,
                };
                if let Some(t) = t {
                    out.push(QueueWant::Timed(t, whom));
                }
            }
            _ => diags.push(
                Diagnostic::error(
                    item.span,
                    format!("expected a queue entry, found {}", item.describe()),
                )
                .with_help(help),
            ),
        }
    }
    (diags.len() == before).then_some(out)
}
