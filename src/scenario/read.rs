//! Reading scenario files: each `{:scenario …}` map checked against a rule set
//! and its cards into a [`Scenario`], with a diagnostic for every mistake.

use super::{Expect, ExpectKey, GivenStatus, QueueWant, Scenario, ScenarioKey, Step, Who};
use crate::check;
use crate::check::ast::{AttrId, EntityId, StatusId};
use crate::check::defs::Card;
use crate::check::keys::Keys;
use crate::check::rules::{ActionId, RuleSet};
use crate::diag::{Code, Diagnostic};
use crate::engine::CardId;
use crate::ids::{OptionId, TurnKindId};
use crate::syntax::{Form, Kind, Span};

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
    // The encounter chosen first: its enemies' names are what the rest names.
    let encounter = form.get(ScenarioKey::Encounter.name());
    let chosen;
    let rules = match encounter {
        Some(e) => {
            let mut r = rules.clone();
            let Some(name) = e.as_keyword() else {
                diags.push(Diagnostic::new(
                    Code::WrongType,
                    e.span,
                    format!(
                        "`:encounter` names an encounter with a keyword, found {}",
                        e.describe()
                    ),
                ));
                return None;
            };
            if let Err(why) = r.choose_encounter(name) {
                diags.push(Diagnostic::new(Code::UnknownEntity, e.span, why));
                return None;
            }
            chosen = r;
            &chosen
        }
        None => rules,
    };
    // The count of players chosen next: its seats are what the rest names.
    let players = form.get(ScenarioKey::Players.name());
    let counted;
    let rules = match players {
        Some(p) => {
            let mut r = rules.clone();
            let n = match p.kind {
                crate::syntax::Kind::Int(n) if n > 0 => n as usize,
                _ => {
                    diags.push(Diagnostic::new(
                        Code::WrongType,
                        p.span,
                        format!(
                            "`:players` is a whole number of players, found {}",
                            p.describe()
                        ),
                    ));
                    return None;
                }
            };
            if let Err(why) = r.choose_players(n) {
                diags.push(Diagnostic::new(Code::OutOfRange, p.span, why));
                return None;
            }
            counted = r;
            &counted
        }
        None => rules,
    };
    let mut s = Scenario {
        name: String::new(),
        seed: 1,
        encounter: encounter.and_then(Form::as_keyword).map(str::to_string),
        players: players.and_then(|p| match p.kind {
            crate::syntax::Kind::Int(n) => usize::try_from(n).ok(),
            _ => None,
        }),
        start: None,
        given: Vec::new(),
        statuses: Vec::new(),
        zones: Vec::new(),
        steps: Vec::new(),
        expect: Vec::new(),
        log: None,
        logged: Vec::new(),
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
                _ => diags.push(Diagnostic::new(
                    Code::WrongType,
                    v.span,
                    "`:scenario` is the scenario's name, a string",
                )),
            },
            ScenarioKey::Rules => {
                // A path to an `.edn` file (`:rules "../../../rules/mygame.edn"`)
                // is what the rule set was loaded from; a name must be the rule set's.
                let path = matches!(v.kind, Kind::Str(p) if p.ends_with(".edn"));
                if !path && v.as_keyword() != Some(rules.name.as_str()) {
                    diags.push(Diagnostic::new(
                        Code::ScenarioRules,
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
                _ => diags.push(Diagnostic::new(
                    Code::whole_number(v),
                    v.span,
                    "`:seed` is a whole number",
                )),
            },
            // Read above, before anything that names an enemy.
            ScenarioKey::Encounter | ScenarioKey::Players => {}
            ScenarioKey::Start => s.start = Some(values(v, rules, false, diags)),
            ScenarioKey::Given => {
                s.given = values(v, rules, true, diags);
                // `:zones` beside the entities' values: the piles given.
                if let Some(z) = v.get(ExpectKey::Zones.name()) {
                    s.zones = super::zones::piles(z, (rules, deck), &NAMES, true, diags);
                }
            }
            ScenarioKey::Statuses => s.statuses = given_statuses(v, rules, diags),
            ScenarioKey::Play => s.steps = steps(v, rules, deck, diags),
            ScenarioKey::Expect => s.expect = expectations(v, rules, deck, diags),
            ScenarioKey::Log => match &v.kind {
                Kind::Str(text) => s.log = Some(text.to_string()),
                _ => diags.push(Diagnostic::new(
                    Code::WrongType,
                    v.span,
                    "`:log` is the expected log, a string",
                )),
            },
            ScenarioKey::Logged => match &v.kind {
                Kind::Vector(items) if items.iter().all(|i| matches!(i.kind, Kind::Str(_))) => {
                    s.logged = items
                        .iter()
                        .filter_map(|i| match i.kind {
                            Kind::Str(t) => Some(t.to_string()),
                            _ => None,
                        })
                        .collect();
                }
                _ => diags.push(Diagnostic::new(
                    Code::WrongType,
                    v.span,
                    "`:logged` is a vector of texts the log must hold, such as `[\"Scavenger triggers\"]`",
                )),
            },
        }
    }
    if !named {
        diags.push(Diagnostic::new(
            Code::MissingKey,
            form.span,
            "a scenario needs a name: `:scenario \"…\"`",
        ));
    }
    if s.expect.is_empty() && s.log.is_none() {
        diags.push(
            Diagnostic::new(
                Code::ExpectsNothing,
                form.span,
                "this scenario expects nothing",
            )
            .with_help("add `:expect {:you {:wall 6}}` or `:log \"…\"`"),
        );
    }
    (diags.len() == before).then_some(s)
}

/// How piles' owners and cards are read: as everything else here.
const NAMES: super::zones::Names = super::zones::Names { who, card };

/// A role (`:you`), the name of a seat or `:setup` entity (`:hero`), or an
/// entity that enters play, by kind and number as logs name it (`:tile#33`).
fn who(form: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<Who> {
    if let Kind::Vector(items) = &form.kind {
        return card_at(form, items, rules, diags);
    }
    let name = form.as_keyword().unwrap_or("");
    if let Some(r) = rules.role(name) {
        return Some(Who::Role(r));
    }
    let names = rules.game_entity_names();
    if let Some(e) = names.iter().position(|n| n == name) {
        return Some(Who::Entity(EntityId::new(e)));
    }
    if let Some((kind, number)) = name.split_once('#') {
        return spawned(form, kind, number, &names, rules, diags);
    }
    let known: Vec<&str> = rules
        .roles
        .iter()
        .chain(&names)
        .map(String::as_str)
        .collect();
    diags.push(
        Diagnostic::new(
            Code::UnknownEntity,
            form.span,
            format!("expected a role or entity, found {}", form.describe()),
        )
        .suggest(name, known.iter().copied(), |s| format!(":{s}"))
        .with_help_if_none(format!(
            "the roles are {}; the entities, {}",
            crate::check::list_and(rules.roles.iter().map(|e| format!("`:{e}`"))),
            some_names(&names)
        )),
    );
    None
}

/// The entities a game starts with, as help names them: a board's many
/// cells are cut short after the first few.
fn some_names(names: &[String]) -> String {
    const SHOWN: usize = 8;
    let shown = names.iter().take(SHOWN).map(|e| format!("`:{e}`"));
    if names.len() > SHOWN {
        let listed: Vec<String> = shown.collect();
        format!("{}, … ({} in all)", listed.join(", "), names.len())
    } else {
        crate::check::list_and(shown)
    }
}

/// `:tile#33`: entity 33, of kind `:tile`, which enters play during the
/// scenario (the entities a game starts with have names of their own).
fn spawned(
    form: &Form<'_>,
    kind: &str,
    number: &str,
    names: &[String],
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Who> {
    let example =
        "an entity that enters play is named by its kind and number, as logs name it: `:tile#33`";
    let number = number
        .parse::<usize>()
        .ok()
        .filter(|&n| n < u32::MAX as usize);
    let Some(number) = number.filter(|_| !kind.is_empty()) else {
        diags.push(
            Diagnostic::new(
                Code::UnknownEntity,
                form.span,
                format!("expected a role or entity, found {form}"),
            )
            .with_help(example),
        );
        return None;
    };
    if let Some(name) = names.get(number) {
        diags.push(
            Diagnostic::new(
                Code::UnknownEntity,
                form.span,
                format!(
                    "entity {number} does not enter play: the game starts with it, as `:{name}`"
                ),
            )
            .with_help(format!("name it `:{name}`")),
        );
        return None;
    }
    let Some(k) = rules.kind(kind) else {
        diags.push(
            Diagnostic::new(
                Code::UnknownKind,
                form.span,
                format!("`:{kind}` in `{form}` is not a kind of this rule set"),
            )
            .suggest(kind, rules.kinds.iter().map(String::as_str), |s| {
                format!(":{s}#{number}")
            })
            .with_help_if_none(example),
        );
        return None;
    };
    Some(Who::Spawned(k, EntityId::new(number)))
}

/// A status id of the rule set.
fn status(form: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) -> Option<StatusId> {
    let name = form.as_keyword().unwrap_or("");
    let found = rules.status(name);
    if found.is_none() {
        diags.push(
            Diagnostic::new(
                Code::UnknownStatus,
                form.span,
                format!("unknown status `{form}`"),
            )
            .suggest(name, rules.statuses.iter().map(String::as_str), |s| {
                format!(":{s}")
            }),
        );
    }
    found
}

/// `{:hero [:power :slow]}`, or with turns left, `{:hero {:power 1}}`.
fn given_statuses(
    form: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Vec<GivenStatus> {
    let mut out = Vec::new();
    let Kind::Map(pairs) = &form.kind else {
        diags.push(Diagnostic::new(
            Code::NotAMap,
            form.span,
            "`:statuses` is a map such as `{:hero [:power]}`",
        ));
        return out;
    };
    for (k, v) in pairs.iter() {
        let Some(holder) = who(k, rules, diags) else {
            continue;
        };
        let given = |(status, magnitude, left)| GivenStatus {
            holder,
            status,
            magnitude,
            left,
        };
        if let Kind::Map(items) = &v.kind {
            out.extend(
                items
                    .iter()
                    .filter_map(|(id, left)| status_with_turns_left(id, left, rules, diags))
                    .map(|(status, left)| given((status, 0, Some(left)))),
            );
            continue;
        }
        let items = match &v.kind {
            Kind::Vector(items) => &items[..],
            _ => std::slice::from_ref(v),
        };
        for item in items {
            out.extend(status_with_magnitude(item, rules, diags).map(|(s, m)| given((s, m, None))));
        }
    }
    out
}

/// `:power 1` in `{:hero {:power 1}}`: a status and the turns it has left, 1 or more.
fn status_with_turns_left(
    id: &Form<'_>,
    left: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<(StatusId, u32)> {
    let status = status(id, rules, diags);
    let turns = match left.kind {
        // Up to the most a status lasts short of "until removed".
        Kind::Int(n) if n >= 1 && n < i64::from(u32::MAX) => u32::try_from(n).ok(),
        _ => None,
    };
    if turns.is_none() {
        diags.push(
            Diagnostic::new(
                Code::whole_number(left),
                left.span,
                format!(
                    "turns left are a whole number from 1 to {}, found {}",
                    u32::MAX - 1,
                    left.describe()
                ),
            )
            .with_help("`{:hero {:power 1}}` gives `:power` with 1 turn left; `{:hero [:power]}` with its own duration"),
        );
    }
    status.zip(turns)
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
                    Diagnostic::new(
                        Code::StepShape,
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

/// `{:you {:wall 0} :other {:tower 5}}`; `:zones` among them is passed over
/// where `zones` says it is read apart (`:given`).
fn values(
    form: &Form<'_>,
    rules: &RuleSet,
    zones: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(Who, AttrId, i64)> {
    let mut out = Vec::new();
    let Kind::Map(pairs) = &form.kind else {
        diags.push(Diagnostic::new(
            Code::NotAMap,
            form.span,
            "expected a map such as `{:you {:wall 0}}`",
        ));
        return out;
    };
    for (name, attrs) in pairs.iter() {
        // `:given`'s piles are read apart (a rule set with zones has no entity `zones`).
        if zones && name.as_keyword() == Some(ExpectKey::Zones.name()) {
            continue;
        }
        let Some(role) = who(name, rules, diags) else {
            continue;
        };
        let Kind::Map(attrs) = &attrs.kind else {
            diags.push(Diagnostic::new(
                Code::NotAMap,
                attrs.span,
                "expected a map of attributes such as `{:wall 0}`",
            ));
            continue;
        };
        for (k, v) in attrs.iter() {
            let name = k.as_keyword().unwrap_or("");
            let Some(attr) = rules.attribute(name) else {
                diags.push(
                    Diagnostic::new(
                        Code::UnknownAttribute,
                        k.span,
                        format!("unknown attribute {k}"),
                    )
                    .suggest(
                        name,
                        rules.attributes.iter().map(String::as_str),
                        |s| format!(":{s}"),
                    ),
                );
                continue;
            };
            match v.kind {
                Kind::Int(n) => {
                    let (min, max) = rules.bounds[attr];
                    if (min..=max).contains(&n) {
                        out.push((role, attr, n));
                    } else {
                        diags.push(
                            Diagnostic::new(
                                Code::OutOfBounds,
                                v.span,
                                format!("{n} is outside the bounds of `:{name}` ({min} to {max})"),
                            )
                            .with_label("out of bounds"),
                        );
                    }
                }
                _ => diags.push(Diagnostic::new(
                    Code::NotANumber,
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
        diags.push(Diagnostic::new(
            Code::StepShape,
            form.span,
            format!("expected a card name, found {}", form.describe()),
        ));
        return None;
    };
    let found = deck.iter().position(|c| c.name == **name);
    if found.is_none() {
        diags.push(
            Diagnostic::new(
                Code::UnknownCard,
                form.span,
                format!("no card named \"{name}\""),
            )
            .suggest(name, deck.iter().map(|c| c.name.as_str()), |s| {
                format!("\"{s}\"")
            }),
        );
    }
    found.map(CardId::new)
}

/// `[:act :hero :move :cell-2-1]`: actor, action, target (if the action
/// takes one), and the option chosen (if it has `:choose`): `[:act :dio
/// :stand-punch :pain :head]`.
fn act(
    items: &[Form<'_>],
    at: Span,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Who, ActionId, Option<Who>, Option<OptionId>)> {
    let shape = |diags: &mut Vec<Diagnostic>| {
        diags.push(
            Diagnostic::new(Code::StepShape, at, "an action step is `[:act ACTOR ACTION TARGET OPTION]`")
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
            Diagnostic::new(
                Code::UnknownAction,
                action.span,
                format!("unknown action `{action}`"),
            )
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
    let def = &rules.actions[ActionId::new(id)];
    let set = def.choose.and_then(|c| rules.choices.get(c));
    let (target, option) = match (def.target.is_some(), set.is_some(), rest) {
        (false, false, []) => (None, None),
        (true, false, [t]) => (Some(t), None),
        (false, true, [o]) => (None, Some(o)),
        (true, true, [t, o]) => (Some(t), Some(o)),
        // The target left out, the option given.
        (true, true, [o])
            if set.is_some_and(|set| {
                rules.options.as_slice()[set.options()]
                    .iter()
                    .any(|n| Some(n.as_str()) == o.as_keyword())
            }) =>
        {
            diags.push(
                Diagnostic::new(
                    Code::ActionOption,
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
            let options = &rules.options.as_slice()[set.options()];
            diags.push(
                Diagnostic::new(
                    Code::ActionOption,
                    at,
                    format!("`:{name}` is used with one `:{}`", set.name),
                )
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
            let options = &rules.options.as_slice()[set.options()];
            let k = o.as_keyword().unwrap_or("");
            let message = format!("`:{}` has no option `{o}`", set.name);
            let found = crate::check::Declared::new(
                options.iter().map(String::as_str),
                "an option",
                "options",
                Code::ActionOption,
            )
            .find(k, o.span, message, diags)?;
            Some(OptionId::new(set.first.index() + found))
        }
        _ => None,
    };
    Some((actor?, ActionId::new(id), target, choice))
}

/// `["Foundations" [:discard "Orc"] [:act :hero :wait] :next-turn]`
fn steps(
    form: &Form<'_>,
    rules: &RuleSet,
    deck: &[Card],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Step> {
    let Kind::Vector(items) = &form.kind else {
        diags.push(Diagnostic::new(
            Code::StepShape,
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
            Kind::Keyword("pass") => out.push(Step::Pass),
            Kind::Vector(items) if items.first().and_then(Form::as_keyword) == Some("expect") => {
                match &items[..] {
                    [_, map] => out.push(Step::Expect(expectations(map, rules, deck, diags))),
                    _ => diags.push(Diagnostic::new(
                        Code::StepShape,
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
                                    Diagnostic::new(Code::NotANumber, items[3].span, "a magnitude is a whole number")
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
                    _ => diags.push(Diagnostic::new(
                        Code::StepShape,
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
            Kind::Vector(pair) if pair.len() == 2 && pair[0].as_keyword() == Some("target") => {
                out.extend(who(&pair[1], rules, diags).map(Step::Target));
            }
            Kind::Vector(items) if items.first().and_then(Form::as_keyword) == Some("use") => {
                out.extend(
                    use_with(item, items, rules, deck, diags)
                        .map(|(a, name, t, c)| Step::Use(a, name, t, c)),
                );
            }
            Kind::Vector(items) if items.first().and_then(Form::as_keyword) == Some("play") => {
                if let Some((c, t, o)) = play_with(item, items, rules, deck, diags) {
                    // The first target is the play's; each later one is chosen after it.
                    out.push(Step::PlayWith(c, t.first().copied(), o));
                    out.extend(t.iter().skip(1).map(|&w| Step::Target(w)));
                }
            }
            Kind::Vector(pair) if pair.len() == 2 && pair[0].as_keyword() == Some("discard") => {
                out.extend(card(&pair[1], deck, diags).map(Step::Discard));
            }
            Kind::Vector(pair)
                if (2..=3).contains(&pair.len()) && pair[0].as_keyword() == Some("refused") =>
            {
                refused(pair, rules, deck, diags, &mut out);
            }
            _ => diags.push(Diagnostic::new(
                Code::StepShape,
                item.span,
                format!(
                    "expected a card name, `[:play \"Name\" …]`, `[:discard \"Name\"]`, `[:act …]`, `[:use …]`, `[:target WHO]` or `:next-turn`, found {}",
                    item.describe()
                ),
            )),
        }
    }
    out
}

/// The reason a refusal step `[:refused STEP "reason"]` expects, if it
/// gives one; `Err` (with a diagnostic) when it is not a string.
fn refusal_reason(pair: &[Form<'_>], diags: &mut Vec<Diagnostic>) -> Result<Option<String>, ()> {
    match pair.get(2).map(|r| &r.kind) {
        Some(Kind::Str(r)) => Ok(Some(r.to_string())),
        Some(_) => {
            diags.push(Diagnostic::new(
                Code::WrongType,
                pair[2].span,
                "the reason a refusal gives is a string",
            ));
            Err(())
        }
        None => Ok(None),
    }
}

/// `[:refused STEP "reason"]`: the step, `[:act …]`, `[:use …]`, `[:target
/// WHO]`, `[:play …]`, `[:discard "Name"]` or a card's name, must be
/// refused (with that reason, where given).
fn refused(
    pair: &[Form<'_>],
    rules: &RuleSet,
    deck: &[Card],
    diags: &mut Vec<Diagnostic>,
    out: &mut Vec<Step>,
) {
    let Ok(reason) = refusal_reason(pair, diags) else {
        return;
    };
    let (step, at) = (&pair[1], pair[1].span);
    let inner: &[Form<'_>] = match &step.kind {
        Kind::Vector(inner) => inner,
        _ => &[],
    };
    match inner.first().and_then(Form::as_keyword) {
        Some("act") => out.extend(
            act(inner, at, rules, diags).map(|(a, id, t, c)| Step::RefusedAct(a, id, t, c, reason)),
        ),
        Some("use") => out.extend(
            use_with(step, inner, rules, deck, diags)
                .map(|(a, name, t, c)| Step::RefusedUse(a, name, t, c, reason)),
        ),
        Some("target") if inner.len() == 2 => {
            out.extend(who(&inner[1], rules, diags).map(|w| Step::RefusedTarget(w, reason)));
        }
        Some("play") => match play_with(step, inner, rules, deck, diags) {
            Some((_, t, _)) if t.len() > 1 => diags.push(Diagnostic::new(
                Code::StepShape,
                at,
                "a refused play names its first target only: a later one is chosen once the play is allowed",
            ).with_help("expect the refusal of a later target with `[:refused [:target WHO]]` after the play")),
            Some((c, t, o)) => out.push(Step::RefusedWith(c, t.first().copied(), o, reason)),
            None => {}
        },
        Some("discard") if inner.len() == 2 => {
            out.extend(card(&inner[1], deck, diags).map(|c| Step::Refused(c, true, reason)));
        }
        _ => out.extend(card(step, deck, diags).map(|c| Step::Refused(c, false, reason))),
    }
}

/// `[:use ACTOR :ability :target WHO :choose OPTION]`: the ability named
/// by some card of the deck, the option by some option of the rule set
/// (which card and which set is the game's to say, once the actor is known).
fn use_with(
    form: &Form<'_>,
    items: &[Form<'_>],
    rules: &RuleSet,
    deck: &[Card],
    diags: &mut Vec<Diagnostic>,
) -> Option<(Who, String, Option<Who>, Option<String>)> {
    let shape = |diags: &mut Vec<Diagnostic>| {
        diags.push(Diagnostic::new(
            Code::StepShape,
            form.span,
            "a use step is `[:use CARD :ability :target WHO :choose OPTION]`, each of `:target` and `:choose` if the ability takes it",
        ).with_help("for example `[:use [:board :you 0] :ping :target [:board :other 1]]`"));
    };
    let [_, actor, ability, rest @ ..] = items else {
        shape(diags);
        return None;
    };
    let actor = who(actor, rules, diags)?;
    let names: Vec<&str> = deck
        .iter()
        .flat_map(|c| c.abilities.iter().map(|a| a.name.as_str()))
        .collect();
    let name = crate::check::Declared::new(
        names.iter().copied(),
        "an ability",
        "abilities",
        Code::UnknownAction,
    )
    .find(
        ability.as_keyword().unwrap_or(""),
        ability.span,
        format!("no card of the deck has the ability `{ability}`"),
        diags,
    )
    .map(|i| names[i].to_string())?;
    if rest.len() % 2 != 0 {
        shape(diags);
        return None;
    }
    let (mut target, mut choice) = (None, None);
    for pair in rest.chunks(2) {
        match pair[0].as_keyword() {
            Some("target") => target = Some(who(&pair[1], rules, diags)?),
            Some("choose") => {
                let o = &pair[1];
                let found = crate::check::Declared::new(
                    rules.options.iter().map(String::as_str),
                    "an option",
                    "options",
                    Code::ActionOption,
                )
                .find(
                    o.as_keyword().unwrap_or(""),
                    o.span,
                    format!("the rule set has no option `{o}`"),
                    diags,
                )?;
                choice = Some(rules.options[OptionId::new(found)].clone());
            }
            _ => {
                shape(diags);
                return None;
            }
        }
    }
    Some((actor, name, target, choice))
}

/// `[:play "Firebolt" :target [:board :other 0] :choose :help]`: a card,
/// the entities it aims at (one per chosen target, in order), the option
/// of its `:choose`, each optional.
#[allow(clippy::type_complexity)]
fn play_with(
    form: &Form<'_>,
    items: &[Form<'_>],
    rules: &RuleSet,
    deck: &[Card],
    diags: &mut Vec<Diagnostic>,
) -> Option<(CardId, Vec<Who>, Option<OptionId>)> {
    let shape = |diags: &mut Vec<Diagnostic>| {
        diags.push(Diagnostic::new(
            Code::StepShape,
            form.span,
            "a play step is `[:play \"Name\" :target WHO :choose OPTION]`, each of `:target` (once per chosen target) and `:choose` if the card takes it",
        ));
    };
    let [_, name, rest @ ..] = items else {
        shape(diags);
        return None;
    };
    let card = card(name, deck, diags)?;
    if rest.len() % 2 != 0 {
        shape(diags);
        return None;
    }
    let (mut targets, mut choice) = (Vec::new(), None);
    for pair in rest.chunks(2) {
        match pair[0].as_keyword() {
            Some("target") => targets.push(who(&pair[1], rules, diags)?),
            Some("choose") => {
                let set = deck[card.index()]
                    .aims
                    .choose
                    .and_then(|c| rules.choices.get(c));
                let Some(set) = set else {
                    diags.push(Diagnostic::new(
                        Code::ActionOption,
                        pair[1].span,
                        format!(
                            "{} has no `:choose`: it is played with no option",
                            deck[card.index()].name
                        ),
                    ));
                    return None;
                };
                let options = &rules.options.as_slice()[set.options()];
                let o = &pair[1];
                let message = format!("`:{}` has no option `{o}`", set.name);
                let found = crate::check::Declared::new(
                    options.iter().map(String::as_str),
                    "an option",
                    "options",
                    Code::ActionOption,
                )
                .find(o.as_keyword().unwrap_or(""), o.span, message, diags)?;
                choice = Some(OptionId::new(set.first.index() + found));
            }
            _ => {
                shape(diags);
                return None;
            }
        }
    }
    Some((card, targets, choice))
}

/// `[:board :other 0]` (a zone per seat: its owner, then the place) or
/// `[:discard 3]` (a shared zone): the card at that place, from the bottom.
fn card_at(
    form: &Form<'_>,
    items: &[Form<'_>],
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Who> {
    let shape = || {
        Diagnostic::new(
            Code::StepShape,
            form.span,
            "a card in a pile is `[:board :other 0]` (a zone per seat, its owner, the place from the bottom) or `[:discard 0]`",
        )
    };
    let Some(set) = rules.zones.as_ref().filter(|z| !z.classic) else {
        diags.push(shape().with_help("only a rule set with `:zones` keeps cards in piles"));
        return None;
    };
    let zone = items
        .first()
        .and_then(Form::as_keyword)
        .and_then(|z| set.zone(z));
    let Some(zone) = zone else {
        diags.push(shape());
        return None;
    };
    let (owner, at) = match (&items[1..], set.zones[zone].shared) {
        ([at], true) => (None, at),
        ([owner, at], false) => match who(owner, rules, diags)? {
            Who::Role(r) => (
                Some(EntityId::new(r.index() % rules.seats.len().max(1))),
                at,
            ),
            Who::Entity(e) => (Some(e), at),
            _ => {
                diags.push(shape());
                return None;
            }
        },
        _ => {
            diags.push(shape());
            return None;
        }
    };
    match at.kind {
        Kind::Int(n) if (0..1000).contains(&n) => Some(Who::Card(zone, owner, n as u16)),
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::NotANumber,
                    at.span,
                    "a place in a pile is a whole number from 0",
                )
                .with_label("expected a place such as `0`"),
            );
            None
        }
    }
}

/// `{:you {:wall 6} :next :other :winner :you :must-discard 1 :hand 6}`; `:winner :tie` for a tie.
fn expectations(
    form: &Form<'_>,
    rules: &RuleSet,
    deck: &[Card],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Expect> {
    let mut out = Vec::new();
    let Kind::Map(pairs) = &form.kind else {
        diags.push(Diagnostic::new(
            Code::NotAMap,
            form.span,
            "`:expect` is a map such as `{:you {:wall 6}}`",
        ));
        return out;
    };
    for (k, v) in pairs.iter() {
        let name = k.as_keyword().unwrap_or("");
        // `:tile#33`: an entity that enters play, named as logs name it.
        let entity = rules.role(name).is_some()
            || rules.game_entity_names().iter().any(|n| n == name)
            || name.contains('#');
        match (entity.then_some(()), ExpectKey::find(name)) {
            (Some(()), _) => {
                let pair = [(*k, *v)];
                let one = Form {
                    kind: Kind::Map(&pair),
                    span: k.span.to(v.span),
                };
                out.extend(
                    values(&one, rules, false, diags)
                        .into_iter()
                        .map(|(r, a, n)| Expect::Value(r, a, n)),
                );
            }
            (None, Some(ExpectKey::Statuses)) => {
                let Kind::Map(pairs) = &v.kind else {
                    diags.push(Diagnostic::new(
                        Code::NotAMap,
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
                                    _ => diags.push(Diagnostic::new(
                                        Code::NotANumber,
                                        left.span,
                                        "turns left are a whole number (-1 for a status that does not run out)",
                                    )),
                                }
                            }
                        }
                        _ => diags.push(Diagnostic::new(
                            Code::NotAMap,
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
            (None, Some(ExpectKey::Zones)) => out.extend(
                super::zones::piles(v, (rules, deck), &NAMES, false, diags)
                    .into_iter()
                    .map(|(p, w)| Expect::Zone(p, w)),
            ),
            (None, Some(ExpectKey::Queue)) => {
                out.extend(queue_wants(v, rules, diags).map(Expect::Queue))
            }
            (None, Some(ExpectKey::Next)) => out.extend(who(v, rules, diags).map(Expect::Next)),
            (None, Some(ExpectKey::Loser)) => out.extend(who(v, rules, diags).map(Expect::Loser)),
            (None, Some(ExpectKey::Intents)) => {
                let Kind::Map(pairs) = &v.kind else {
                    diags.push(Diagnostic::new(
                        Code::NotAMap,
                        v.span,
                        format!(
                            "`:intents` is a map from enemies to moves, found {}",
                            v.describe()
                        ),
                    ));
                    continue;
                };
                for (enemy, moves) in pairs.iter() {
                    let Some(w) = who(enemy, rules, diags) else {
                        continue;
                    };
                    let Kind::Vector(items) = &moves.kind else {
                        diags.push(Diagnostic::new(
                            Code::WrongType,
                            moves.span,
                            format!(
                                "`:intents` gives each enemy a vector of moves, found {}",
                                moves.describe()
                            ),
                        ));
                        continue;
                    };
                    let keys: Option<Vec<String>> = items
                        .iter()
                        .map(|m| m.as_keyword().map(str::to_string))
                        .collect();
                    match keys {
                        Some(keys) => out.push(Expect::Intents(w, keys)),
                        None => diags.push(Diagnostic::new(
                            Code::WrongType,
                            moves.span,
                            "each intent is a move's key, a keyword (`:chomp`)",
                        )),
                    }
                }
            }
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
                _ => diags.push(Diagnostic::new(
                    Code::whole_number(v),
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
                    Diagnostic::new(Code::UnknownKey, k.span, format!("unknown expectation {k}"))
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

/// `[[:turn :c1] [:turn :c2 :fast-magic] :reorder [:timed :bomb :c1]]`: an expected queue.
fn queue_wants(
    form: &Form<'_>,
    rules: &RuleSet,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<QueueWant>> {
    let help = "a queue is a vector of `[:turn :c1]` (or `[:turn :c1 :fast-magic]`), `:reorder` and `[:timed :bomb :c1]` (or `[:timed :bomb]`)";
    let Kind::Vector(items) = &form.kind else {
        diags.push(
            Diagnostic::new(
                Code::StepShape,
                form.span,
                "`:queue` is a vector of queue entries",
            )
            .with_help(help),
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
                                Diagnostic::new(
                                    Code::UnknownTurnKind,
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
                        found.map(TurnKindId::new)
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
                    diags.push(Diagnostic::new(
                        Code::UnknownTiming,
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
                Diagnostic::new(
                    Code::StepShape,
                    item.span,
                    format!("expected a queue entry, found {}", item.describe()),
                )
                .with_help(help),
            ),
        }
    }
    (diags.len() == before).then_some(out)
}
