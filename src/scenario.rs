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

use std::fmt::Write as _;

use crate::ast::{AttrId, EntityId, RoleId};
use crate::check;
use crate::check::keys::{Keys, keys};
use crate::defs::Card;
use crate::diag::Diagnostic;
use crate::engine::{CardId, Game, Outcome, Phase};
use crate::eval::State;
use crate::rules::RuleSet;
use crate::syntax::{Form, Kind, Span};

/// One checked scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// The seed of the game it runs in (shuffles, chance).
    pub seed: u64,
    /// Values set before the first step: entity, attribute, value.
    pub given: Vec<(RoleId, AttrId, i64)>,
    /// What is done, in order.
    pub steps: Vec<Step>,
    /// What must hold afterwards.
    pub expect: Vec<Expect>,
    /// The exact log expected, if given.
    pub log: Option<String>,
    /// The scenario's map.
    pub span: Span,
}

/// One step of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Play this card.
    Play(CardId),
    /// Discard this card.
    Discard(CardId),
    /// The step must be refused (`[:refused "Name"]`, `[:refused [:discard "Name"]]`); nothing changes.
    Refused(CardId, bool),
}

/// One expectation.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// An attribute's value.
    Value(RoleId, AttrId, i64),
    /// Whose turn it is next.
    Next(RoleId),
    /// Who won: `Some(role)`, or `None` for a game still going.
    Winner(Option<RoleId>),
    /// Both players won at once (`:winner :tie`).
    Tie,
    /// Cards the acting player must still discard.
    MustDiscard(u8),
    /// Cards in the hand of the player whose turn it is.
    Hand(usize),
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
        /// `:given {:you {:wall 0}}`: values set before the first step.
        Given = "given",
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
        given: Vec::new(),
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
            ScenarioKey::Given => s.given = values(v, rules, diags),
            ScenarioKey::Play => s.steps = steps(v, deck, diags),
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

fn role(form: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<RoleId> {
    let name = form.as_keyword().unwrap_or("");
    let found = rules.role(name);
    if found.is_none() {
        diags.push(
            Diagnostic::error(
                form.span,
                format!("expected a role, found {}", form.describe()),
            )
            .suggest(name, rules.roles.iter().map(String::as_str), |s| {
                format!(":{s}")
            })
            .with_help_if_none(format!(
                "the roles are {}",
                crate::check::list_and(rules.roles.iter().map(|e| format!("`:{e}`")))
            )),
        );
    }
    found
}

/// `{:you {:wall 0} :other {:tower 5}}`
fn values(
    form: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(RoleId, AttrId, i64)> {
    let mut out = Vec::new();
    let Kind::Map(pairs) = &form.kind else {
        diags.push(Diagnostic::error(
            form.span,
            "expected a map such as `{:you {:wall 0}}`",
        ));
        return out;
    };
    for (who, attrs) in pairs {
        let Some(role) = role(who, rules, diags) else {
            continue;
        };
        let Kind::Map(attrs) = &attrs.kind else {
            diags.push(Diagnostic::error(
                attrs.span,
                "expected a map of attributes such as `{:wall 0}`",
            ));
            continue;
        };
        for (k, v) in attrs {
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
    let found = deck.iter().position(|c| c.name == name.as_ref());
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

/// `["Foundations" [:discard "Orc"]]`
fn steps(form: &Form<'_>, deck: &[Card], diags: &mut Vec<Diagnostic>) -> Vec<Step> {
    let Kind::Vector(items) = &form.kind else {
        diags.push(Diagnostic::error(
            form.span,
            "`:play` is a vector of card names",
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        match &item.kind {
            Kind::Str(_) => out.extend(card(item, deck, diags).map(Step::Play)),
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
                    "expected a card name or `[:discard \"Name\"]`, found {}",
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
    for (k, v) in pairs {
        let name = k.as_keyword().unwrap_or("");
        match (rules.role(name), ExpectKey::find(name)) {
            (Some(_), _) => {
                let one = Form {
                    kind: Kind::Map(vec![(k.clone(), v.clone())]),
                    span: k.span.to(v.span),
                };
                out.extend(
                    values(&one, rules, diags)
                        .into_iter()
                        .map(|(r, a, n)| Expect::Value(r, a, n)),
                );
            }
            (None, Some(ExpectKey::Next)) => out.extend(role(v, rules, diags).map(Expect::Next)),
            (None, Some(ExpectKey::Winner)) => match v.kind {
                Kind::Nil => out.push(Expect::Winner(None)),
                Kind::Keyword("tie") => out.push(Expect::Tie),
                _ => out.extend(role(v, rules, diags).map(|r| Expect::Winner(Some(r)))),
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
    let mut game = Game::new(rules, deck, s.seed, true).map_err(|e| vec![e.to_string()])?;
    game.pause_between_turns(true);
    let roles: Vec<EntityId> = game.roles(0).to_vec();
    let defaults = State::new(rules, rules.seats.len(), s.seed);
    for seat in 0..rules.seats.len() as EntityId {
        for attr in 0..rules.attributes.len() {
            game.set(seat, attr as AttrId, defaults.get(seat, attr as AttrId));
        }
    }
    for &(role, attr, value) in &s.given {
        game.set(roles[role as usize], attr, value);
    }
    if let Some(log) = &mut game.log {
        log.clear();
    }
    // The given state may already be won (a tower at 0): judge it before any step.
    game.recheck();
    let mut failures = Vec::new();
    for (n, step) in s.steps.iter().enumerate() {
        game.resume();
        let (card, play, refused) = match *step {
            Step::Play(c) => (c, true, false),
            Step::Discard(c) => (c, false, false),
            Step::Refused(c, discard) => (c, !discard, true),
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
    let names: Vec<String> = (0..rules.seats.len())
        .map(
            |seat| match roles.iter().position(|&r| r as usize == seat) {
                Some(role) => rules.roles[role].clone(),
                None => rules.seats[seat].clone(),
            },
        )
        .collect();
    let log =
        crate::engine::log::render_named(rules, deck, game.log.as_deref().unwrap_or(&[]), &names);
    for e in &s.expect {
        let role_name = |r: RoleId| rules.roles[r as usize].as_str();
        match *e {
            Expect::Value(role, attr, want) => {
                let got = game.state().get(roles[role as usize], attr);
                if got != want {
                    failures.push(format!(
                        "{}.{} is {got}, expected {want}",
                        role_name(role),
                        rules.attributes[attr as usize]
                    ));
                }
            }
            Expect::Next(role) => {
                if game.outcome().is_some() || game.next_actor() != roles[role as usize] {
                    failures.push(format!(
                        "expected {} to act next; {}",
                        role_name(role),
                        describe(&game, &names)
                    ));
                }
            }
            Expect::Winner(who) => {
                let got = match game.outcome() {
                    Some(Outcome::Win { seat, .. }) => Some(Some(seat)),
                    None => Some(None),
                    Some(_) => None,
                };
                if got != Some(who.map(|r| roles[r as usize])) {
                    let want = who.map_or("nobody yet", |r| role_name(r));
                    failures.push(format!(
                        "expected winner: {want}; {}",
                        describe(&game, &names)
                    ));
                }
            }
            Expect::Tie => {
                if game.outcome() != Some(Outcome::Tie) {
                    failures.push(format!("expected a tie; {}", describe(&game, &names)));
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
        }
    }
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
