//! A card's abilities in plain words, as card texts say them: its triggers
//! ("Whenever a minion dies, +1 Attack for this card"), its auras ("The
//! cards beside this card have rallied") and its keywords ("Taunt").

use super::En;
use super::words::{Bound, capitalize, join};
use crate::check::ast::{Bool, Entity};
use crate::check::rules::RuleSet;
use crate::check::triggers::{Aura, On, Trigger};
use crate::ids::{KindId, RoleId};

/// A trigger as card text says it: when it runs, then what it does.
pub fn trigger(rules: &RuleSet, t: &Trigger) -> String {
    let mut en = En::new(
        rules,
        &[crate::check::triggers::SUBJECT, crate::check::SOURCE],
    );
    let subject = RoleId::new(rules.roles.len());
    let kind = t.filter.as_ref().and_then(|f| kind_of(f, subject));
    if let Some(k) = kind {
        en.bound[0] = Bound::Each(k);
    }
    let noun = match kind {
        Some(k) => format!("a {}", en.kind(k)),
        None if card_event(t.on) => "a card".to_string(),
        None => "anything".to_string(),
    };
    let when = if t.own {
        own_when(&en, t)
    } else {
        other_when(&en, t, &noun, subject)
    };
    let rest: Vec<&Bool> = t
        .filter
        .as_ref()
        .map(|f| {
            conjuncts(f)
                .into_iter()
                .filter(|c| !said(c, subject))
                .collect()
        })
        .unwrap_or_default();
    let mut out = when;
    for c in rest {
        out.push_str(&format!(" if {}", en.cond(c)));
    }
    if t.once_per_turn {
        out.push_str(" (once a turn)");
    }
    let items = en.list(&t.effects);
    let does = join(&items, ", ", "nothing");
    format!("{out}, {does}")
}

/// A reaction card as its text says it: what it answers, then what it does
/// ("Reaction: when another seat plays a spell, cancel it").
pub fn reaction(
    rules: &RuleSet,
    r: &crate::check::reactions::Reaction,
    effects: &[crate::check::ast::Effect],
) -> String {
    let mut en = En::new(
        rules,
        &[crate::check::triggers::SUBJECT, crate::check::SOURCE],
    );
    let subject = RoleId::new(rules.roles.len());
    let kind = r.filter.as_ref().and_then(|f| kind_of(f, subject));
    if let Some(k) = kind {
        en.bound[0] = Bound::Each(k);
    }
    let noun = match kind {
        Some(k) => format!("a {}", en.kind(k)),
        None => "a card".to_string(),
    };
    let mut out = format!("Reaction: when another seat plays {noun}");
    let rest = r.filter.as_ref().map(conjuncts).unwrap_or_default();
    for c in rest.into_iter().filter(|c| kind_of(c, subject).is_none()) {
        out.push_str(&format!(" if {}", en.cond(c)));
    }
    let items = en.list(effects);
    format!("{out}, {}", join(&items, ", ", "nothing"))
}

/// An aura as card text says it: whom it reaches, and what they have.
pub fn aura(rules: &RuleSet, a: &Aura) -> String {
    let mut en = En::new(rules, &[]);
    let whom = en.source_words(&a.source);
    let saved = en.bind_source(a.outer, &a.source);
    let cond = a.filter.as_ref().map(|c| en.where_clause(c));
    en.bound = saved;
    let status = en.status(a.status).to_string();
    match cond {
        Some(c) => capitalize(&format!("{whom} {c} have {status}")),
        None => capitalize(&format!("{whom} have {status}")),
    }
}

/// A card's targets, each as "Choose a victim (a card on the enemy's
/// board)", and its effects with them named: what it does, in one sentence.
pub fn aimed(
    rules: &RuleSet,
    targets: &[crate::check::targets::Target],
    effects: &[crate::check::ast::Effect],
) -> String {
    let names: Vec<&str> = targets.iter().map(|t| t.name.as_str()).collect();
    let mut en = En::new(rules, &[]);
    let mut does = super::explain_with(rules, effects, &names);
    let mut said = Vec::new();
    for (i, t) in targets.iter().enumerate() {
        en.bound = names[..i]
            .iter()
            .map(|n| Bound::Name((*n).into()))
            .collect();
        // A target from one place, named once: said where it is named, as
        // card text does ("3 Damage to a chosen card on the enemy's board").
        let role = format!("the {}", t.name);
        if let ([from], None, 1) = (t.from.as_slice(), &t.filter, count_words(&does, &role)) {
            let how = if t.random { "a random" } else { "a chosen" };
            let one = en.source_words(from).replacen("cards ", "card ", 1);
            let one = match one.strip_suffix("s in play") {
                Some(kind) => format!("{kind} in play"),
                None => one,
            };
            let any = if t.optional { " if there is one" } else { "" };
            does = replace_words(&does, &role, &format!("{how} {one}{any}"));
            continue;
        }
        let places: Vec<String> = t.from.iter().map(|s| en.source_words(s)).collect();
        let mut whom = places.join(" or ");
        if let Some(c) = &t.filter {
            let saved = en.bind_as(t.outer, Bound::Name("one".into()));
            whom = format!("{whom} {}", en.where_clause(c).trim());
            en.bound = saved;
        }
        let how = if t.random { "a random" } else { "choose a" };
        // An optional target may be missing: the card is played on nothing.
        let any = if t.optional { " if there is one" } else { "" };
        said.push(format!("{how} {}{any} ({whom})", t.name));
    }
    if said.is_empty() {
        return capitalize(&does);
    }
    capitalize(&format!("{}: {}", said.join(", "), lower_first(&does)))
}

/// An activated ability as card text writes it: "Ping (1 mana, once a
/// turn): choose a victim (cards on the enemy's board): 1 Damage to the victim".
pub fn activated(rules: &RuleSet, a: &crate::check::abilities::Activated) -> String {
    let mut terms = Vec::new();
    if let Some(attr) = a.pay_with.filter(|_| a.cost > 0) {
        terms.push(format!("{} {}", a.cost, rules.attributes[attr]));
    }
    if a.once_per_turn {
        terms.push("once a turn".to_string());
    }
    if let Some(set) = a.choose.and_then(|c| rules.choices.get(c)) {
        let options: Vec<&str> = rules.options.as_slice()[set.options()]
            .iter()
            .map(String::as_str)
            .collect();
        terms.push(format!("choose {}", options.join(" or ")));
    }
    for p in &a.usable {
        terms.push(format!("unusable when {}", p.reason));
    }
    let name = keyword(&a.name);
    let head = match terms.is_empty() {
        true => name,
        false => format!("{name} ({})", terms.join(", ")),
    };
    let does = aimed(rules, &a.targets, &a.effects);
    format!("{head}: {}", lower_first(&does))
}

/// How many times `words` stand in `text` as whole words.
fn count_words(text: &str, words: &str) -> usize {
    word_matches(text, words).count()
}

/// `text` with `words`, standing as whole words once, replaced by `with`.
fn replace_words(text: &str, words: &str, with: &str) -> String {
    match word_matches(text, words).next() {
        Some(at) => format!("{}{with}{}", &text[..at], &text[at + words.len()..]),
        None => text.to_string(),
    }
}

/// Where `words` stand in `text` with no letter either side.
fn word_matches<'t>(text: &'t str, words: &'t str) -> impl Iterator<Item = usize> + 't {
    let letter = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '-');
    text.match_indices(words)
        .map(|(at, _)| at)
        .filter(move |&at| {
            !letter(text[..at].chars().next_back())
                && !letter(text[at + words.len()..].chars().next())
        })
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A keyword as card text writes it: `:divine-shield` → "Divine shield".
pub fn keyword(name: &str) -> String {
    capitalize(&name.replace('-', " "))
}

/// Whether events of `on` are about cards.
fn card_event(on: On) -> bool {
    matches!(
        on,
        On::Enters | On::Leaves | On::Drawn | On::Discarded | On::Played
    )
}

/// "When this dies", for a trigger about its own card.
fn own_when(en: &En<'_>, t: &Trigger) -> String {
    match t.on {
        On::Dies => "When this dies".into(),
        On::Drawn => "When you draw this".into(),
        On::Discarded => "When you discard this".into(),
        On::Leaves => "When this leaves play".into(),
        On::Played => "When you play this".into(),
        On::Summoned => "When this enters play".into(),
        On::Targeted => "Whenever this is aimed at".into(),
        On::Damaged => "Whenever this is damaged".into(),
        On::Healed => "Whenever this is healed".into(),
        On::Changed => match t.attribute {
            Some(a) => format!("Whenever this card's {} changes", capitalize(en.attr(a))),
            None => "Whenever this card changes".into(),
        },
        On::StatusGained => format!("Whenever this gains {}", status_or(en, t, "a status")),
        On::StatusEnded => format!("Whenever this loses {}", status_or(en, t, "a status")),
        On::Enters => "When this enters a zone".into(),
        On::TurnStart | On::TurnEnd => turn_when(t.on, false),
    }
}

/// "Whenever a minion dies", for a trigger about anything.
fn other_when(en: &En<'_>, t: &Trigger, noun: &str, subject: RoleId) -> String {
    let zone = |en: &En<'_>| {
        t.zone
            .and_then(|z| en.rules.zones.as_ref().map(|s| s.zones[z].name.clone()))
            .map_or_else(|| "a zone".to_string(), |z| format!("the {z}"))
    };
    match t.on {
        On::Dies => format!("Whenever {noun} dies"),
        On::Damaged => format!("Whenever {noun} is damaged"),
        On::Healed => format!("Whenever {noun} is healed"),
        On::Changed => match t.attribute {
            Some(a) => format!("Whenever {noun}'s {} changes", capitalize(en.attr(a))),
            None => format!("Whenever {noun} changes"),
        },
        On::StatusGained => format!("Whenever {noun} gains {}", status_or(en, t, "a status")),
        On::StatusEnded => format!("Whenever {noun} loses {}", status_or(en, t, "a status")),
        On::Enters => format!("Whenever {noun} enters {}", zone(en)),
        On::Leaves => format!("Whenever {noun} leaves {}", zone(en)),
        On::Drawn => format!("Whenever {noun} is drawn"),
        On::Discarded => format!("Whenever {noun} is discarded"),
        On::Played => format!("Whenever {noun} is played"),
        On::Summoned => format!("Whenever {noun} enters play"),
        On::Targeted => format!("Whenever {noun} is aimed at"),
        On::TurnStart | On::TurnEnd => {
            let yours = t
                .filter
                .as_ref()
                .is_some_and(|f| conjuncts(f).iter().any(|c| is_subject_you(c, subject)));
            turn_when(t.on, yours)
        }
    }
}

fn turn_when(on: On, yours: bool) -> String {
    let edge = if on == On::TurnStart { "start" } else { "end" };
    let whose = if yours { "your" } else { "each" };
    format!("At the {edge} of {whose} turn")
}

fn status_or(en: &En<'_>, t: &Trigger, none: &str) -> String {
    t.status
        .map_or_else(|| none.to_string(), |s| en.status(s).to_string())
}

/// The parts of an `and`, each on its own.
fn conjuncts(c: &Bool) -> Vec<&Bool> {
    match c {
        Bool::And(a, b) => {
            let mut out = conjuncts(a);
            out.extend(conjuncts(b));
            out
        }
        other => vec![other],
    }
}

/// The kind `[of-kind :subject K]` names, if the condition says one.
fn kind_of(c: &Bool, subject: RoleId) -> Option<KindId> {
    conjuncts(c).into_iter().find_map(|c| match c {
        Bool::OfKind(who, k) if **who == Entity::Role(subject) => Some(*k),
        _ => None,
    })
}

/// Whether `[= :subject :you]` (the first role).
fn is_subject_you(c: &Bool, subject: RoleId) -> bool {
    matches!(c, Bool::Same(a, b) if (**a == Entity::Role(subject) && **b == Entity::Role(RoleId::FIRST))
        || (**b == Entity::Role(subject) && **a == Entity::Role(RoleId::FIRST)))
}

/// Whether a part of a trigger's condition is already said by its "when".
fn said(c: &Bool, subject: RoleId) -> bool {
    let own = matches!(c, Bool::Same(a, b) if (**a == Entity::Role(subject) && **b == Entity::ThisCard)
        || (**b == Entity::Role(subject) && **a == Entity::ThisCard));
    own || is_subject_you(c, subject)
        || matches!(c, Bool::OfKind(who, _) if **who == Entity::Role(subject))
}
