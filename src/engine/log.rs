//! The game log as people read it: turns, plays and discards, every change, the end.

use crate::ids::{AttrId, KindId, StatusId, TurnKindId};
use std::fmt::Write as _;

use super::{Ability, Action, By, Cancel, GameEvent, Outcome, Stage, moment_label};
use crate::check::ast::EntityId;
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::diag::Source;
use crate::eval::{Cause, Owner, Place, StatusChange};

/// What happened to a status, as a log line says it after the holder's name.
pub fn status_line(
    rules: &RuleSet,
    status: StatusId,
    change: StatusChange,
    before: i64,
    after: i64,
) -> String {
    let name = rules.statuses.get(status).map_or("?", String::as_str);
    let left = |n: i64| match n {
        -1 => "until removed".to_string(),
        1 => "1 left".to_string(),
        n => format!("{n} left"),
    };
    match change {
        StatusChange::Acquired => format!("acquires {name} ({})", left(after)),
        StatusChange::Refreshed => {
            format!("refreshes {name} ({} -> {})", left(before), left(after))
        }
        StatusChange::Stacked => format!("stacks {name} ({before} -> {after} stacks)"),
        StatusChange::Blocked => format!("blocks {name}"),
        StatusChange::Reflected => format!("reflects {name} back"),
        StatusChange::Extended => format!("{name}: {} -> {}", left(before), left(after)),
        StatusChange::Expired => format!("{name} runs out"),
        StatusChange::Removed => format!("{name} is removed"),
        StatusChange::Segment => format!("{name} runs part {before} of {after}"),
    }
}

/// An action of `:actions` in words: its actor's name, and "move cell-2-1"
/// (the action and its target), each entity called by `name`.
pub fn action_words(
    rules: &RuleSet,
    action: Action,
    name: impl Fn(EntityId) -> String,
) -> (String, String) {
    let what = match action.ability {
        Ability::Action(id) => rules.actions.get(id).map_or("?", |a| a.name.as_str()),
        Ability::EndTurn => "end the turn",
        Ability::Pass => "pass",
        // A card's play and a card's ability are named by the game, which
        // knows the card ([`super::Game::action_words`]).
        Ability::Target => "aim at",
        Ability::Card(_) | Ability::Discard(_) | Ability::Use(_) => "?",
    };
    let mut what = match action.target {
        Some(t) => format!("{what} {}", name(t)),
        None => what.to_string(),
    };
    if let Some(option) = action.choice.and_then(|o| rules.options.get(o)) {
        what.push_str(&format!(" ({option})"));
    }
    (name(action.actor), what)
}

/// " (weakness)": the status whose effects made a change, if one did and
/// `sight` may see it.
fn through(rules: &RuleSet, cause: Cause, sight: Sight) -> String {
    cause
        .status()
        .filter(|&s| sight.shows(rules, s))
        .and_then(|s| rules.statuses.get(s))
        .map(|s| format!(" ({s})"))
        .unwrap_or_default()
}

/// The status whose effects made a change, if one did.
fn by_status(by: By) -> Option<StatusId> {
    match by {
        By::Hook(_, c)
        | By::Card(_, c)
        | By::Removal(c)
        | By::Action(_, c)
        | By::Given(c)
        | By::EntityTurn(_, c)
        | By::Zone(_, c)
        | By::Trigger(_, c) => c.status(),
        By::Cost(_) | By::Played(_) | By::Aura(_) => None,
    }
}

/// Who reads a log or a state, and so what it shows of `:invisible` statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// A spectator, a designer, a scenario: everything, each invisible
    /// status marked "(invisible)".
    All,
    /// A seat's player at the table: invisible statuses are left out, and a
    /// change one makes is shown without naming it.
    Player,
    /// What this seat saw (`play --view SEAT`, `play --human`): what
    /// [`Sight::Player`] shows. A log line does not say who applied a
    /// status, so every invisible one is left out, even one the seat
    /// applied itself. A card is named only where the seat saw it: classic
    /// card storage logs a card only as it is played or discarded, in
    /// everyone's sight, and no draw.
    Seat(EntityId),
}

impl Sight {
    /// Whether a line about `status` is shown at all.
    pub fn shows(self, rules: &RuleSet, status: StatusId) -> bool {
        self == Sight::All || !invisible(rules, status)
    }

    /// What follows a status's name: " (invisible)" for a spectator.
    pub fn mark(self, rules: &RuleSet, status: StatusId) -> &'static str {
        if self == Sight::All && invisible(rules, status) {
            " (invisible)"
        } else {
            ""
        }
    }
}

fn invisible(rules: &RuleSet, status: StatusId) -> bool {
    rules.status_defs.get(status).is_some_and(|d| d.invisible)
}

/// A game log as people read it: turns, plays and discards, every change
/// (those of `:scratch` attributes only where a status made them), the end.
pub fn render(rules: &RuleSet, cards: &[Card], log: &[GameEvent]) -> String {
    render_named(rules, cards, log, &rules.game_entity_names(), Sight::All)
}

/// [`render`] of the log from entry `from` on (what a person has not seen
/// yet), entities that entered play before it still called by their names.
pub fn render_from(
    rules: &RuleSet,
    cards: &[Card],
    log: &[GameEvent],
    from: usize,
    sight: Sight,
) -> String {
    let from = from.min(log.len());
    let mut names = with_spawned(rules, &log[..from], &rules.game_entity_names());
    name_cards(cards, &log[..from], &mut names);
    render_named(rules, cards, &log[from..], &names, sight)
}

/// What logs call an entity that entered play during a game (`{:spawn …}`):
/// its kind and number, `tile#33`.
pub fn spawned_name(rules: &RuleSet, kind: KindId, entity: EntityId) -> String {
    let kind = rules.kinds.get(kind).map_or("?", String::as_str);
    format!("{kind}#{entity}")
}

/// `names`, with every entity `log` sees enter play called by [`spawned_name`].
pub fn with_spawned(rules: &RuleSet, log: &[GameEvent], names: &[String]) -> Vec<String> {
    let mut all = names.to_vec();
    for e in log {
        if let GameEvent::Spawned { entity, kind } = *e {
            let at = entity.index();
            if at >= all.len() {
                all.extend((all.len()..=at).map(|i| format!("#{i}")));
            }
            all[at] = spawned_name(rules, kind, entity);
        }
    }
    all
}

/// `names`, with every card `log` sees move called by its card's name and
/// its number: `Yeti#14`.
pub fn name_cards(cards: &[Card], log: &[GameEvent], names: &mut Vec<String>) {
    for e in log {
        if let GameEvent::Moved { card, def, .. } = *e
            && let Some(c) = cards.get(def.index())
        {
            let at = card.index();
            if at >= names.len() {
                names.extend((names.len()..=at).map(|i| format!("#{i}")));
            }
            if names[at].starts_with('#') {
                names[at] = card_name(&c.name, card);
            }
        }
    }
}

/// What logs, scenarios and the state call a card's instance: `Yeti#14`.
pub fn card_name(card: &str, entity: EntityId) -> String {
    format!("{card}#{entity}")
}

/// [`render`] with each seat called by `names[seat]` (scenarios say `you` and
/// `other`); entities that enter play in `log` by [`spawned_name`]; as
/// `sight` may see it.
pub fn render_named(
    rules: &RuleSet,
    cards: &[Card],
    log: &[GameEvent],
    names: &[String],
    sight: Sight,
) -> String {
    let mut out = String::new();
    let mut names = with_spawned(rules, log, names);
    name_cards(cards, log, &mut names);
    // Seats and setup entities by name, entities added in play by kind and number.
    let seat = |s: EntityId| seat_name(&names, s);
    // A moment's hook changes share one line: "start: p1.bricks 5 -> 7, …".
    let mut hook_line: Vec<String> = Vec::new();
    let mut hook_name = "start";
    let flush = |out: &mut String, hook_line: &mut Vec<String>, name: &str| {
        if !hook_line.is_empty() {
            let _ = writeln!(out, "  {name}: {}", hook_line.join(", "));
            hook_line.clear();
        }
    };
    let scratch = |attr: AttrId| rules.attribute_defs.get(attr).is_some_and(|d| d.scratch);
    let mut rolls = Rolls::default();
    // A status a player may not see made nothing, as far as they are told.
    let seen_status = |by: By| by_status(by).filter(|&s| sight.shows(rules, s));
    for e in log {
        match *e {
            GameEvent::Status { status, .. } if !sight.shows(rules, status) => continue,
            // A working value shows only where a status changed it: that names a trigger.
            GameEvent::Changed { change, by }
                if scratch(change.attr) && seen_status(by).is_none() =>
            {
                continue;
            }
            GameEvent::Changed {
                change,
                by: By::Hook(timing, cause),
            } if cause.status().is_none() => {
                let name = moment_label(rules.timings[timing].at);
                if name != hook_name {
                    flush(&mut out, &mut hook_line, hook_name);
                    hook_name = name;
                }
                hook_line.push(format!(
                    "{}.{} {} -> {}",
                    seat(change.entity),
                    rules.attributes[change.attr],
                    change.before,
                    change.after
                ));
                continue;
            }
            _ => flush(&mut out, &mut hook_line, hook_name),
        }
        render_event(&mut out, rules, cards, e, &seat, &mut rolls, sight);
    }
    flush(&mut out, &mut hook_line, hook_name);
    out
}

/// What an entity is called: its name in `names`, or `#n` for one added in play out of sight.
fn seat_name(names: &[String], s: EntityId) -> std::borrow::Cow<'_, str> {
    match names.get(s.index()) {
        Some(name) => std::borrow::Cow::Borrowed(name.as_str()),
        None => std::borrow::Cow::Owned(format!("#{s}")),
    }
}

/// Writes the line of one event other than a grouped hook change; a die waits in `rolls`.
fn render_event<'n>(
    out: &mut String,
    rules: &RuleSet,
    cards: &[Card],
    e: &GameEvent,
    seat: &dyn Fn(EntityId) -> std::borrow::Cow<'n, str>,
    rolls: &mut Rolls,
    sight: Sight,
) {
    match *e {
        // A turn of another kind than the first says which.
        GameEvent::TurnStart {
            turn,
            seat: s,
            kind: TurnKindId::FIRST,
        } => {
            let _ = writeln!(out, "turn {turn}: {}", seat(s));
        }
        GameEvent::TurnStart {
            turn,
            seat: s,
            kind,
        } => {
            let kind = rules.turn_kinds.get(kind).map_or("?", |k| k.name.as_str());
            let _ = writeln!(out, "turn {turn}: {} ({kind} turn)", seat(s));
        }
        GameEvent::Played {
            seat: s,
            card,
            choice,
        } => {
            let c = &cards[card.index()];
            // The option it was played with is said as an action's is: "(head)".
            let option = choice
                .and_then(|o| rules.options.get(o))
                .map(|o| format!(" ({o})"))
                .unwrap_or_default();
            let _ = if c.text.is_empty() {
                writeln!(out, "  {} plays {}{option}", seat(s), c.name)
            } else {
                writeln!(out, "  {} plays {}{option}: {}", seat(s), c.name, c.text)
            };
        }
        GameEvent::Triggered {
            card,
            keyword,
            index,
            ..
        } => {
            let c = &cards[card.index()];
            let k = rules.keywords.get(usize::from(keyword));
            let list = k.map_or(&c.triggers, |k| &k.triggers);
            let t = list.get(usize::from(index));
            let text = t
                .and_then(|t| t.text.clone())
                .unwrap_or_else(|| format!("on :{}", t.map_or("?", |t| t.on.name())));
            let by = k.map(|k| format!(" ({})", k.name)).unwrap_or_default();
            let _ = writeln!(out, "  {}{by} triggers: {text}", c.name);
        }
        GameEvent::Aimed { card, target } => {
            let _ = writeln!(
                out,
                "    {} aims at {}",
                cards[card.index()].name,
                seat(target)
            );
        }
        GameEvent::Used {
            seat: s,
            card,
            ability,
            ..
        } => {
            let c = &cards[card.index()];
            let a = c.abilities.get(usize::from(ability));
            let name = a.map_or("?", |a| a.name.as_str());
            let _ = match a.and_then(|a| a.text.as_deref()) {
                Some(text) => writeln!(out, "  {} uses {}'s {name}: {text}", seat(s), c.name),
                None => writeln!(out, "  {} uses {}'s {name}", seat(s), c.name),
            };
        }
        GameEvent::Fizzled { card } => {
            let _ = writeln!(
                out,
                "    {} has no target left: it does nothing",
                cards[card.index()].name
            );
        }
        GameEvent::TriggerLoop {
            card,
            runs,
            depth,
            dropped,
        } => {
            let _ = writeln!(
                out,
                "  trigger loop: stopped after {runs} runs in one chain, at depth {depth} ({}'s trigger next; {dropped} dropped)",
                cards[card.index()].name
            );
        }
        GameEvent::Discarded {
            seat: s,
            card,
            forced,
        } => {
            let how = if forced { "must discard" } else { "discards" };
            let _ = writeln!(out, "  {} {how} {}", seat(s), cards[card.index()].name);
        }
        GameEvent::Acted {
            seat: _,
            action,
            stage,
        } => {
            let (who, what) = action_words(rules, action, |e| seat(e).into_owned());
            let _ = match stage {
                Stage::Done => writeln!(out, "  {who}: {what}"),
                Stage::Delayed => {
                    writeln!(
                        out,
                        "  {who}: {what} (preparing: resolves as the next round ends)"
                    )
                }
                Stage::Resolved => writeln!(out, "  {who}'s prepared {what} resolves"),
                Stage::Cancelled(why) => {
                    let why = match why {
                        Cancel::Gone(e) => format!("{} left play", seat(e)),
                        Cancel::NotNow => "its :when no longer holds".to_string(),
                        Cancel::Refused(i) => match action.ability {
                            Ability::Action(id) => rules
                                .actions
                                .get(id)
                                .and_then(|def| def.refused.get(usize::from(i)))
                                .map_or_else(String::new, |(_, reason)| reason.clone()),
                            Ability::Card(_)
                            | Ability::Discard(_)
                            | Ability::EndTurn
                            | Ability::Pass
                            | Ability::Use(_)
                            | Ability::Target => String::new(),
                        },
                    };
                    writeln!(out, "  {who}'s prepared {what} is cancelled: {why}")
                }
            };
        }
        GameEvent::Passed { seat: s } => {
            let _ = writeln!(out, "  {} cannot act and passes", seat(s));
        }
        GameEvent::Changed { change, by } => {
            let note = change_note(rules, by, sight);
            let _ = writeln!(
                out,
                "    {}.{} {} -> {}{note}",
                seat(change.entity),
                rules.attributes[change.attr],
                change.before,
                change.after
            );
        }
        GameEvent::Status {
            entity,
            status,
            change,
            before,
            after,
            by: _,
        } => {
            let _ = writeln!(
                out,
                "    {} {}{}",
                seat(entity),
                status_line(rules, status, change, before, after),
                sight.mark(rules, status)
            );
        }
        GameEvent::Die { face, kept, .. } => rolls.die(face, kept),
        GameEvent::Rolled {
            entity,
            sides,
            keep,
            modifier,
            total,
        } => {
            let line = rolls.total(sides, keep, modifier, total);
            let _ = writeln!(out, "    {} rolls {line}", seat(entity));
        }
        GameEvent::Kept {
            entity,
            higher,
            kept,
            other,
        } => {
            let _ = writeln!(
                out,
                "    {} {}",
                seat(entity),
                kept_line(higher, kept, other)
            );
        }
        // Its name says its kind: `tile#33`.
        GameEvent::Spawned { entity, kind: _ } => {
            let _ = writeln!(out, "    {} enters play", seat(entity));
        }
        GameEvent::Removed { entity } => {
            let _ = writeln!(out, "    {} leaves play", seat(entity));
        }
        GameEvent::EntityTurn { entity } => {
            let _ = writeln!(out, "{}'s turn", seat(entity));
        }
        GameEvent::Intends {
            entity,
            kind,
            chosen,
            amount,
        }
        | GameEvent::IntentChanged {
            entity,
            kind,
            chosen,
            amount,
        } => {
            if let Some(script) = rules.scripts.get(kind).and_then(|s| s.as_deref()) {
                let intent = crate::engine::intent::Intent {
                    entity,
                    chosen,
                    amount,
                };
                let now = if matches!(e, GameEvent::IntentChanged { .. }) {
                    "now "
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "{} {now}intends {}",
                    seat(entity),
                    intent.words(script)
                );
            }
        }
        GameEvent::MoveDone {
            entity,
            kind,
            chosen,
        } => {
            let name = rules
                .scripts
                .get(kind)
                .and_then(|s| s.as_deref())
                .and_then(|s| s.moves.get(usize::from(chosen)))
                .map_or("?", |m| m.name.as_str());
            let _ = writeln!(out, "{} does {name}", seat(entity));
        }
        GameEvent::TimedRan { timing, entity } => {
            let name = rules.timings.get(timing).map_or("?", |t| t.name.as_str());
            let _ = writeln!(out, "timed entry {name} for {}", seat(entity));
        }
        GameEvent::Moved {
            card,
            from,
            to,
            at,
            seen,
            ..
        } => {
            // A card the seat saw at neither end is "a card", without its
            // number: numbers are dealt in the deck's order.
            let hidden = match sight {
                Sight::Seat(s) => seen & (1u64 << s.index().min(63)) == 0,
                Sight::All | Sight::Player => false,
            };
            let name = if hidden {
                std::borrow::Cow::Borrowed("a card")
            } else {
                seat(card)
            };
            let _ = writeln!(
                out,
                "    {}",
                moved_words(rules, &name, (from, to, at), seat)
            );
        }
        GameEvent::Shuffled {
            pile,
            from,
            moved,
            cards,
        } => {
            let words = shuffled_words(rules, (pile, from), (moved, cards), seat);
            let _ = writeln!(out, "    {words}");
        }
        GameEvent::Shown { card, pile, to, .. } => {
            // Named to a seat only if it was shown to it (a seat looked at
            // another's hand sees that it happened, not what was seen).
            let name = match sight {
                Sight::Seat(s) if to & (1u64 << s.index().min(63)) == 0 => {
                    std::borrow::Cow::Borrowed("a card")
                }
                _ => seat(card),
            };
            let _ = writeln!(out, "    {}", shown_words(rules, &name, (pile, to), seat));
        }
        GameEvent::EndedTurn { seat: s } => {
            let _ = writeln!(out, "  {} ends the turn", seat(s));
        }
        GameEvent::AtOnce { seats } => {
            let names: Vec<String> = (0..64)
                .filter(|s| seats & (1u64 << s) != 0)
                .map(|s| seat(EntityId::new(s)).into_owned())
                .collect();
            let _ = writeln!(
                out,
                "  {} choose at once, unseen",
                crate::diag::list_and(names)
            );
        }
        GameEvent::Declined { seat: s, card } => {
            let name = &cards[card.index()].name;
            let _ = writeln!(out, "  {} lets {name} resolve", seat(s));
        }
        GameEvent::Cancelled { card, by } => {
            let (name, by) = (&cards[card.index()].name, &cards[by.index()].name);
            let _ = writeln!(out, "  {name} is cancelled by {by}");
        }
        GameEvent::OutOfBudget(at) => {
            let _ = writeln!(out, "out of budget at {}", place_words(rules, cards, at));
        }
        GameEvent::Ended(outcome) => render_outcome(out, rules, outcome, seat),
    }
}

/// A card's move as a log line says it, unindented: `Yeti#14: p1's hand
/// -> p1's board, slot 0`, or `Wisp#50 is made: p1's board, slot 1` for
/// one just made; `(from, to, at)`: the piles and its place in the second.
pub fn moved_words<'n>(
    rules: &RuleSet,
    name: &str,
    (from, to, at): (u16, u16, u32),
    seat: &dyn Fn(EntityId) -> std::borrow::Cow<'n, str>,
) -> String {
    let to = pile_name(rules, to, at, seat);
    if from == crate::eval::zones::MADE {
        format!("{name} is made: {to}")
    } else {
        let from = pile_name(rules, from, u32::MAX, seat);
        format!("{name}: {from} -> {to}")
    }
}

/// A shuffle as a log line says it, unindented: `deck is shuffled (40
/// cards)`, or `discard (12 cards) is shuffled into deck` when the cards of
/// `from` moved in first; `(moved, cards)`: how many did, how many it holds.
pub fn shuffled_words<'n>(
    rules: &RuleSet,
    (pile, from): (u16, Option<u16>),
    (moved, cards): (u32, u32),
    seat: &dyn Fn(EntityId) -> std::borrow::Cow<'n, str>,
) -> String {
    let pile = pile_name(rules, pile, u32::MAX, seat);
    match from {
        Some(from) => format!(
            "{} ({moved} cards) is shuffled into {pile}",
            pile_name(rules, from, u32::MAX, seat)
        ),
        None => format!("{pile} is shuffled ({cards} cards)"),
    }
}

/// A card shown as a log line says it, unindented: `Yeti#51 (p2's hand) is
/// shown to p1`; `to`: the seats it was shown to, bit `s` for seat `s`.
pub fn shown_words<'n>(
    rules: &RuleSet,
    name: &str,
    (pile, to): (u16, u64),
    seat: &dyn Fn(EntityId) -> std::borrow::Cow<'n, str>,
) -> String {
    let pile = pile_name(rules, pile, u32::MAX, seat);
    let seats = rules.seats.len().min(64);
    let all = if seats == 64 {
        u64::MAX
    } else {
        (1u64 << seats) - 1
    };
    let whom = if to == all {
        "everyone".to_string()
    } else {
        let names: Vec<String> = (0..seats)
            .filter(|s| to & (1u64 << s) != 0)
            .map(|s| seat(EntityId::new(s)).into_owned())
            .collect();
        crate::diag::list_and(names)
    };
    format!("{name} ({pile}) is shown to {whom}")
}

/// A pile as a log names it: its zone (`deck`), a seat's own (`p1's hand`),
/// and for a board, the slot `at` (`p1's board, slot 2`; `u32::MAX` for none).
pub fn pile_name<'n>(
    rules: &RuleSet,
    pile: u16,
    at: u32,
    seat: &dyn Fn(EntityId) -> std::borrow::Cow<'n, str>,
) -> String {
    let Some(set) = rules.zones.as_ref() else {
        return format!("pile {pile}");
    };
    let Some((zone, owner)) = set.pile_place(usize::from(pile), rules.seats.len()) else {
        return format!("pile {pile}");
    };
    let def = &set.zones[zone];
    let mut name = match owner {
        Some(o) => format!("{}'s {}", seat(EntityId::new(o)), def.name),
        None => def.name.clone(),
    };
    if def.slots > 0 && at != u32::MAX {
        let _ = write!(name, ", slot {at}");
    }
    name
}

/// The file a step ran out of its budget in, and what wrote the effects
/// running there: the card's file, the status's, else the rule set's.
pub fn place_of<'a>(
    rules: &'a RuleSet,
    cards: &'a [Card],
    at: Place,
) -> (Option<&'a Source>, String) {
    match at.owner {
        Some(Owner::Card(i)) => match cards.get(i) {
            Some(card) => (card.file.as_deref(), format!("card `{}`", card.name)),
            None => (None, "a card".to_string()),
        },
        Some(Owner::Status(s)) => (
            rules.status_files.get(s).and_then(Option::as_deref),
            format!(
                "status `{}`",
                rules.statuses.get(s).map_or("?", String::as_str)
            ),
        ),
        Some(Owner::Rules) | None => (rules.file.as_deref(), format!("rule set `{}`", rules.name)),
    }
}

/// Where a step ran out of its budget, as a log says it:
/// ``cards/g/bomb.edn:3:5, in card `Bomb` ``.
pub fn place_words(rules: &RuleSet, cards: &[Card], at: Place) -> String {
    let (file, what) = place_of(rules, cards, at);
    match (file, at.span) {
        (Some(file), Some(span)) => {
            let l = file.location(span.start);
            format!("{}:{}:{}, in {what}", file.path, l.line, l.column)
        }
        (Some(file), None) => format!("{}, in {what}", file.path),
        (None, _) => what,
    }
}

/// What a change's line says after its numbers: what made it.
fn change_note(rules: &RuleSet, by: By, sight: Sight) -> String {
    let through = |cause| through(rules, cause, sight);
    match by {
        By::Cost(_) => " (cost)".to_string(),
        By::Played(_) => " (the card's number)".to_string(),
        By::Card(_, cause) => through(cause),
        By::Action(_, cause) => through(cause),
        By::Given(cause) => format!("{} (given)", through(cause)),
        By::Removal(cause) => format!("{} (on removal)", through(cause)),
        By::EntityTurn(_, cause) => through(cause),
        By::Trigger(_, cause) => through(cause),
        By::Aura(_) => " (aura)".to_string(),
        // Only an empty zone's `:when-empty` effects change values by a zone's
        // rule: the zone is the one drawn into, which names the one drawn from.
        By::Zone(zone, cause) => {
            let empty = rules.zones.as_ref().and_then(|set| {
                let drawer = set.zones.get(zone)?;
                set.zones.get(drawer.draws_from.unwrap_or(zone))
            });
            match empty {
                Some(z) => format!("{} (empty {})", through(cause), z.name),
                None => through(cause),
            }
        }
        // A status's hook: which status, at which timing.
        By::Hook(timing, cause) => format!("{} at {}", through(cause), rules.timings[timing].name),
    }
}

/// Writes the line that ends the game.
fn render_outcome<'n>(
    out: &mut String,
    rules: &RuleSet,
    outcome: Outcome,
    seat: &dyn Fn(EntityId) -> std::borrow::Cow<'n, str>,
) {
    let _ = match outcome {
        Outcome::Win { seat: s, reason } => writeln!(
            out,
            "{} wins: {}",
            seat(s),
            rules
                .victory
                .get(reason as usize)
                .map_or("", |v| v.reason.as_str())
        ),
        Outcome::Loss { seat: s, reason } => writeln!(
            out,
            "{} loses: {}",
            seat(s),
            rules
                .victory
                .get(reason as usize)
                .map_or("", |v| v.reason.as_str())
        ),
        Outcome::Tie => writeln!(out, "tie: both players won at once"),
        Outcome::TurnLimit => writeln!(out, "draw: the turn limit was reached"),
        Outcome::NobodyLeft => writeln!(out, "draw: no seat is left in play"),
        Outcome::Aborted(why) => writeln!(out, "aborted: {why}"),
    };
}

/// Reads a roll's events in order: each die waits until the roll's total
/// comes, which gives the roll's line. Play logs, `eval` and `roll` share it.
#[derive(Debug, Default)]
pub struct Rolls {
    faces: Vec<(i64, bool)>,
}

impl Rolls {
    /// A die of the roll under way: its face, and whether it counted.
    pub fn die(&mut self, face: i64, kept: bool) {
        self.faces.push((face, kept));
    }

    /// The roll's total has come: its line (`3d6+2: 12 (3+5+2+2)`).
    pub fn total(
        &mut self,
        sides: u16,
        keep: crate::dice::KeepKind,
        modifier: i64,
        total: i64,
    ) -> String {
        let line = roll_line(&self.faces, sides, keep, modifier, total);
        self.faces.clear();
        line
    }

    /// An evaluator event: the line it ends, if it ends one (a roll's total,
    /// `[advantage …]`'s choice); a die waits; other events are not rolls.
    pub fn event(&mut self, e: &crate::eval::Event) -> Option<String> {
        use crate::eval::What;
        match e.what {
            What::Die(_) => {
                self.die(e.after, e.before == 1);
                None
            }
            What::Rolled(sides, keep) => Some(self.total(sides, keep, e.before, e.after)),
            What::Kept(higher) => Some(kept_line(higher, e.after, e.before)),
            What::Attr(_)
            | What::Status(..)
            | What::Spawned(_)
            | What::Moved(..)
            | What::Shuffled(..)
            | What::Shown(_)
            | What::Fell(_) => None,
        }
    }
}

/// A roll as a log tells it, from its dice (`faces`: each face, and whether
/// it counted) and its total: `1d20+2: 14 (12+2)`, `3d6: 10 (3+5+2)`,
/// `2d20kh1: 15 (15; dropped 7)`, `1d20: 12`.
pub fn roll_line(
    faces: &[(i64, bool)],
    sides: u16,
    keep: crate::dice::KeepKind,
    modifier: i64,
    total: i64,
) -> String {
    use crate::dice::KeepKind;
    let kept: Vec<String> = faces
        .iter()
        .filter(|(_, k)| *k)
        .map(|(f, _)| f.to_string())
        .collect();
    let dropped: Vec<String> = faces
        .iter()
        .filter(|(_, k)| !*k)
        .map(|(f, _)| f.to_string())
        .collect();
    let mut dice = format!("{}d{sides}", faces.len());
    match keep {
        KeepKind::All => {}
        KeepKind::High => dice.push_str(&format!("kh{}", kept.len())),
        KeepKind::Low => dice.push_str(&format!("kl{}", kept.len())),
    }
    let signed = match modifier {
        0 => String::new(),
        m if m > 0 => format!("+{m}"),
        m => m.to_string(),
    };
    if kept.len() == 1 && dropped.is_empty() && modifier == 0 {
        return format!("{dice}: {total}");
    }
    let mut parts = kept.join("+");
    parts.push_str(&signed);
    if !dropped.is_empty() {
        parts.push_str(&format!("; dropped {}", dropped.join(", ")));
    }
    format!("{dice}{signed}: {total} ({parts})")
}

/// `[advantage …]` or `[disadvantage …]` as a log tells it.
pub fn kept_line(higher: bool, kept: i64, other: i64) -> String {
    if higher {
        format!("keeps {kept}, the higher of {kept} and {other} (advantage)")
    } else {
        format!("keeps {kept}, the lower of {kept} and {other} (disadvantage)")
    }
}
