//! Running a checked scenario: a game started from its given state, its steps
//! done through the engine, and its expectations checked against the game.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use super::{Expect, QueueWant, Scenario, Step, Who};
use crate::check::ast::{AttrId, EntityId, StatusId};
use crate::check::defs::Card;
use crate::check::rules::{ActionId, RuleSet};
use crate::engine::log::spawned_name;
use crate::engine::{Action, CardId, Game, GameEvent, Illegal, Log, Outcome, Phase, Queued};
use crate::eval::State;
use crate::ids::RoleId;

/// Runs a scenario: the log it produced, or what failed.
pub fn run(s: &Scenario, rules: &RuleSet, deck: &[Card]) -> Result<String, Vec<String>> {
    match run_logged(s, rules, deck) {
        (Some(log), failures) if failures.is_empty() => Ok(log),
        (_, failures) => Err(failures),
    }
}

/// Runs a scenario: the log it produced, passing or failing (none when its
/// game could not start), and what failed (empty when it passed).
pub fn run_logged(s: &Scenario, rules: &RuleSet, deck: &[Card]) -> (Option<String>, Vec<String>) {
    let chosen;
    let rules = match (&s.encounter, s.players) {
        (None, None) => rules,
        (encounter, players) => {
            let mut r = rules.clone();
            if let Some(name) = encounter
                && let Err(why) = r.choose_encounter(name)
            {
                return (None, vec![why]);
            }
            if let Some(n) = players
                && let Err(why) = r.choose_players(n)
            {
                return (None, vec![why]);
            }
            chosen = r;
            &chosen
        }
    };
    let (game, roles) = match start(s, rules, deck) {
        Ok(started) => started,
        Err(failures) => return (None, failures),
    };
    let names = names(s, rules, &roles);
    let mut running = Running {
        game,
        rules,
        deck,
        names,
        roles,
        given_zones: !s.zones.is_empty(),
        failures: Vec::new(),
    };
    for (n, step) in s.steps.iter().enumerate() {
        // An expectation looks at the game as the last step left it;
        // `:next-turn` starts the next turn itself.
        if !matches!(step, Step::Expect(_) | Step::NextTurn) {
            running.game.resume();
        }
        if running.step(n, step).is_break() {
            break;
        }
    }
    let Running {
        mut game,
        names,
        roles,
        mut failures,
        ..
    } = running;
    // A trailing `:next-turn` starts that turn, so what it runs is seen.
    if s.steps.last() == Some(&Step::NextTurn) {
        game.resume();
    }
    // Cards a scenario gave never moved in its log: they are named here.
    let mut names = names;
    if let Some(table) = game.state().cards.as_deref() {
        for e in table.instances() {
            let (at, card) = (e.index(), table.card(e).map(|c| c.index()));
            if let Some(c) = card.and_then(|c| deck.get(c)) {
                if at >= names.len() {
                    names.extend((names.len()..=at).map(|i| format!("#{i}")));
                }
                names[at] = crate::engine::log::card_name(&c.name, e);
            }
        }
    }
    let log = crate::engine::log::render_named(
        rules,
        deck,
        game.log().unwrap_or(&[]),
        &names,
        crate::engine::log::Sight::All,
    );
    check_expectations(&s.expect, &game, rules, &names, &roles, &mut failures);
    if let Some(want) = &s.log
        && want.trim() != log.trim()
    {
        failures.push(format!("the log differs; it was:\n{log}"));
    }
    for want in &s.logged {
        if !log.lines().any(|line| line.contains(want.as_str())) {
            failures.push(format!(
                "no line of the log holds \"{want}\"; it was:\n{log}"
            ));
        }
    }
    (Some(log), failures)
}

/// The entity `w` names for the steps: the first seat's roles, role `r` being
/// the `r`-th seat after it.
fn entity(rules: &RuleSet, w: Who) -> EntityId {
    let seats = rules.seats.len().max(1);
    match w {
        Who::Role(r) => EntityId::new(r.index() % seats),
        Who::Entity(e) | Who::Spawned(_, e) => e,
        // Found only in a game, as the step runs ([`resolve`]).
        Who::Card(..) => EntityId::MAX,
    }
}

/// The entity `w` names in `game` now: a card at a place of a pile is
/// whatever lies there (none: an entity no game has).
fn resolve(game: &Game<'_>, w: Who) -> EntityId {
    let rules = game.rules();
    match w {
        Who::Card(zone, owner, at) => {
            let found = game.state().cards.as_deref().zip(rules.zones.as_ref());
            found
                .and_then(|(t, set)| {
                    let pile = t.pile(set, zone, owner.unwrap_or(EntityId::FIRST))?;
                    t.contents(pile).get(usize::from(at)).copied()
                })
                .unwrap_or(EntityId::MAX)
        }
        other => entity(rules, other),
    }
}

/// Why `w` names no entity of `game` now, if it names none: an entity named
/// by kind and number (`tile#33`) that has not entered play as one of that kind.
fn not_entered(game: &Game<'_>, w: Who) -> Option<String> {
    let Who::Spawned(kind, e) = w else {
        return None;
    };
    let rules = game.rules();
    let name = spawned_name(rules, kind, e);
    // Out of play, an entity keeps no kind in the state; the log saw it enter.
    let logged = || {
        game.log()
            .unwrap_or(&[])
            .iter()
            .find_map(|event| match *event {
                GameEvent::Spawned { entity, kind } if entity == e => Some(kind),
                _ => None,
            })
    };
    match game.state().kind(e).or_else(logged) {
        Some(k) if k == kind => None,
        Some(k) => Some(format!(
            "there is no {name}: entity {e} entered play as {}",
            spawned_name(rules, k, e)
        )),
        None => Some(format!("{name} has not entered play")),
    }
}

/// The game a scenario starts from, paused between turns, with its given
/// values and statuses, and the entities the first seat's roles name.
fn start<'r>(
    s: &Scenario,
    rules: &'r RuleSet,
    deck: &'r [Card],
) -> Result<(Game<'r>, Vec<EntityId>), Vec<String>> {
    let named_before_play = (s.start.iter().flatten().chain(&s.given))
        .map(|g| g.0)
        .chain(s.statuses.iter().map(|g| g.holder));
    if let Some(Who::Spawned(kind, e)) = named_before_play
        .into_iter()
        .find(|w| matches!(w, Who::Spawned(..)))
    {
        return Err(vec![format!(
            "{} has not entered play before the first step",
            spawned_name(rules, kind, e)
        )]);
    }
    let start: Vec<(EntityId, AttrId, i64)> = s
        .start
        .iter()
        .flatten()
        .map(|&(who, attr, value)| (entity(rules, who), attr, value))
        .collect();
    let mut game = Game::starting_from(rules, deck, s.seed, Log::Keep, &start)
        .map_err(|e| vec![e.to_string()])?;
    game.pause_between_turns(true);
    let roles: Vec<EntityId> = game.roles(EntityId::FIRST).to_vec();
    if s.start.is_none() {
        // What the game's start and the first turn's start did is undone: the
        // first step sees the defaults and `:given`, exactly.
        let defaults = State::new(rules, rules.seats.len(), s.seed);
        // A seat's value drawn at setup (`:values {:health [10 20]}`) is the one the game drew.
        let drawn: Vec<(EntityId, AttrId, i64)> = rules
            .setup
            .iter()
            .filter_map(|e| Some((EntityId::new(e.seat?), &e.drawn)))
            .flat_map(|(seat, d)| d.iter().map(move |&(a, _, _)| (seat, a)))
            .map(|(seat, a)| (seat, a, game.state().get(seat, a)))
            .collect();
        for seat in EntityId::below(rules.seats.len()) {
            for attr in 0..rules.attributes.len() {
                game.set(
                    seat,
                    AttrId::new(attr),
                    defaults.get(seat, AttrId::new(attr)),
                );
            }
        }
        // A seat's own `:setup` values are part of its defaults.
        for e in rules.setup.iter().filter(|e| e.seat.is_some()) {
            for &(attr, value) in &e.values {
                game.set(EntityId::new(e.seat.unwrap_or(0)), attr, value);
            }
        }
        for (seat, attr, value) in drawn {
            game.set(seat, attr, value);
        }
    }
    let failures = super::zones::give(&mut game, &s.zones, |w| entity(rules, w));
    if !failures.is_empty() {
        return Err(failures);
    }
    for &(who, attr, value) in &s.given {
        game.set(entity(rules, who), attr, value);
    }
    if s.start.is_none() {
        game.clear_log();
    }
    // Given statuses are acquired through the normal path, and logged.
    for g in &s.statuses {
        game.give_status_lasting(entity(rules, g.holder), g.status, g.magnitude, g.left);
    }
    // The given state may already be won (a tower at 0): judge it before any step.
    game.recheck();
    Ok((game, roles))
}

/// The names of the game's entities in messages and the log: seats by their
/// roles (`you`), unless the scenario names a seat itself.
fn names(s: &Scenario, rules: &RuleSet, roles: &[EntityId]) -> Vec<String> {
    let mut names: Vec<String> = rules.game_entity_names();
    let roles_name_seats = !s.names_a_seat(rules.seats.len());
    for (seat, name) in names
        .iter_mut()
        .enumerate()
        .take(rules.seats.len())
        .filter(|_| roles_name_seats)
    {
        if let Some(role) = roles.iter().position(|&r| r.index() == seat) {
            *name = rules.roles[RoleId::new(role)].clone();
        }
    }
    names
}

/// A scenario's game while its steps are done, and what has failed so far.
struct Running<'r> {
    game: Game<'r>,
    rules: &'r RuleSet,
    deck: &'r [Card],
    /// Entity names, as [`names`] gives them.
    names: Vec<String>,
    /// The entities the first seat's roles name.
    roles: Vec<EntityId>,
    /// Whether the scenario gives piles (`:given {:zones …}`).
    given_zones: bool,
    failures: Vec<String>,
}

impl Running<'_> {
    /// Does step `n` (counted from 0); `Break` when the scenario stops there.
    fn step(&mut self, n: usize, step: &Step) -> ControlFlow<()> {
        let (card, play, refused, target, why) = match *step {
            Step::Play(c) => (c, true, false, None, None),
            Step::PlayWith(c, w, o) => (
                c,
                true,
                false,
                Some((w.map(|w| resolve(&self.game, w)), o)),
                None,
            ),
            Step::RefusedWith(c, w, o, ref why) => (
                c,
                true,
                true,
                Some((w.map(|w| resolve(&self.game, w)), o)),
                why.as_deref(),
            ),
            Step::Discard(c) => (c, false, false, None, None),
            Step::Refused(c, discard, ref why) => (c, !discard, true, None, why.as_deref()),
            Step::NextTurn => return self.next_turn(n),
            Step::Pass => {
                let pass = self.game.pass_action();
                if let Err(e) = self.game.act(pass) {
                    self.failures.push(format!("step {}: `:pass`: {e}", n + 1));
                    return ControlFlow::Break(());
                }
                return ControlFlow::Continue(());
            }
            Step::Expect(ref expect) => {
                let before = self.failures.len();
                check_expectations(
                    expect,
                    &self.game,
                    self.rules,
                    &self.names,
                    &self.roles,
                    &mut self.failures,
                );
                for f in &mut self.failures[before..] {
                    *f = format!("step {}: {f}", n + 1);
                }
                return ControlFlow::Continue(());
            }
            Step::Status(holder, id, magnitude) => {
                if let Some(why) = not_entered(&self.game, holder) {
                    self.failures.push(format!("step {}: {why}", n + 1));
                    return ControlFlow::Break(());
                }
                self.game
                    .give_status(entity(self.rules, holder), id, magnitude);
                return ControlFlow::Continue(());
            }
            Step::Act(actor, _, target, _) | Step::RefusedAct(actor, _, target, _, _)
                if self.absent(n, actor, target) =>
            {
                return ControlFlow::Break(());
            }
            Step::Act(actor, id, target, choice) => {
                let mut action = self.action(actor, id, target);
                action.choice = choice;
                if let Err(e) = self.game.act(action) {
                    let name = self.action_name(id);
                    self.failures.push(format!("step {}: {name}: {e}", n + 1));
                    return ControlFlow::Break(());
                }
                return ControlFlow::Continue(());
            }
            Step::RefusedAct(actor, id, target, choice, ref reason) => {
                let mut action = self.action(actor, id, target);
                action.choice = choice;
                let name = self.action_name(id).to_string();
                return self.refused_act(n, &name, action, reason.as_deref());
            }
            Step::Target(t) | Step::RefusedTarget(t, _) if self.absent(n, t, None) => {
                return ControlFlow::Break(());
            }
            Step::Target(t) => {
                let action = self.game.target_action(resolve(&self.game, t));
                if let Err(e) = self.game.act(action) {
                    self.failures
                        .push(format!("step {}: `:target`: {e}", n + 1));
                    return ControlFlow::Break(());
                }
                return ControlFlow::Continue(());
            }
            Step::RefusedTarget(t, ref reason) => {
                let action = self.game.target_action(resolve(&self.game, t));
                return self.refused_act(n, "the target", action, reason.as_deref());
            }
            Step::Use(actor, _, target, _) | Step::RefusedUse(actor, _, target, _, _)
                if self.absent(n, actor, target) =>
            {
                return ControlFlow::Break(());
            }
            Step::Use(actor, ref name, target, ref choice) => {
                let result = self
                    .ability_use(actor, name, target, choice.as_deref())
                    .and_then(|action| self.game.act(action).map_err(|e| e.to_string()));
                if let Err(e) = result {
                    self.failures.push(format!("step {}: {name}: {e}", n + 1));
                    return ControlFlow::Break(());
                }
                return ControlFlow::Continue(());
            }
            Step::RefusedUse(actor, ref name, target, ref choice, ref reason) => {
                return match self.ability_use(actor, name, target, choice.as_deref()) {
                    Ok(action) => self.refused_act(n, name, action, reason.as_deref()),
                    Err(e) => {
                        self.failures.push(format!("step {}: {name}: {e}", n + 1));
                        ControlFlow::Break(())
                    }
                };
            }
        };
        let why = why.map(str::to_string);
        self.card(n, card, (play, refused, why.as_deref()), target)
    }

    /// Step `n`, `:next-turn`: the turn being taken ends, even if its actor
    /// could still act, and the next one starts; a turn that has ended
    /// already only lets the next one start.
    fn next_turn(&mut self, n: usize) -> ControlFlow<()> {
        if let Err(e) = self.game.end_turn_now() {
            self.failures.push(format!(
                "step {}: `:next-turn` cannot end the turn: {e}",
                n + 1
            ));
            return ControlFlow::Break(());
        }
        self.game.resume();
        ControlFlow::Continue(())
    }

    /// Whether step `n`'s actor or target is named by kind and number and has
    /// not entered play as one (a failure, then).
    fn absent(&mut self, n: usize, actor: Who, target: Option<Who>) -> bool {
        let why = [Some(actor), target]
            .into_iter()
            .flatten()
            .find_map(|w| not_entered(&self.game, w));
        if let Some(why) = &why {
            self.failures.push(format!("step {}: {why}", n + 1));
        }
        why.is_some()
    }

    fn action_name(&self, id: ActionId) -> &str {
        self.rules.actions[id].name.as_str()
    }

    /// Action `id` used by `actor` on `target`, without a choice yet.
    fn action(&self, actor: Who, id: ActionId, target: Option<Who>) -> Action {
        let target = target.map(|t| resolve(&self.game, t));
        self.game.use_action(id, resolve(&self.game, actor), target)
    }

    /// The use of the ability `name` of the card `actor` names, on
    /// `target`, with the option named `choice`.
    fn ability_use(
        &self,
        actor: Who,
        name: &str,
        target: Option<Who>,
        choice: Option<&str>,
    ) -> Result<Action, String> {
        let target = target.map(|t| resolve(&self.game, t));
        self.game
            .ability_use(resolve(&self.game, actor), name, target, choice)
    }

    /// Step `n` expects `action` (called `name`) refused, with `reason` if given.
    fn refused_act(
        &mut self,
        n: usize,
        name: &str,
        action: Action,
        reason: Option<&str>,
    ) -> ControlFlow<()> {
        match (self.game.check(action), reason) {
            (Ok(()), _) => {
                self.failures.push(format!(
                    "step {}: expected {name} to be refused, but it was allowed",
                    n + 1
                ));
                return ControlFlow::Break(());
            }
            (Err(Illegal::Refused(got)), Some(want)) if got != want => {
                self.failures.push(format!(
                    "step {}: {name} was refused with \"{got}\", expected \"{want}\"",
                    n + 1
                ));
            }
            (Err(e), Some(want)) if !matches!(e, Illegal::Refused(_)) => {
                self.failures.push(format!(
                    "step {}: {name} was not allowed ({e}), not refused with \"{want}\"",
                    n + 1
                ));
            }
            (Err(_), _) => {}
        }
        ControlFlow::Continue(())
    }

    /// Step `n`: `card` put into the hand of the player whose turn it is, then
    /// played (or discarded), or expected refused (with the refusal's
    /// words `why`, if given).
    fn card(
        &mut self,
        n: usize,
        card: CardId,
        (play, refused, why): (bool, bool, Option<&str>),
        aim: Option<(Option<EntityId>, Option<crate::ids::OptionId>)>,
    ) -> ControlFlow<()> {
        let (target, choice) = aim.unwrap_or((None, None));
        let (game, deck) = (&mut self.game, self.deck);
        // Where the scenario says what the hands hold (cards in `:zones`, or
        // piles given), the hand's own card of that name, if it holds one.
        let held = (game.zoned() || self.given_zones)
            .then(|| game.hand().iter().position(|&c| c == card))
            .flatten();
        if held.is_none() {
            game.give(card);
        }
        let Some(at) = held.or_else(|| game.hand().len().checked_sub(1)) else {
            self.failures.push(format!(
                "step {}: rule set `{}` has no card zones, so no card can be played",
                n + 1,
                self.rules.name
            ));
            return ControlFlow::Break(());
        };
        if game.hand().get(at) != Some(&card) {
            self.failures.push(format!(
                "step {}: {} cannot be put into the hand: it is full",
                n + 1,
                deck[card.index()].name
            ));
            return ControlFlow::Break(());
        }
        let action = if play {
            crate::engine::Action {
                target,
                choice,
                ..game.play(at)
            }
        } else {
            game.discard(at)
        };
        if refused {
            match game.act(action) {
                Ok(()) => {
                    self.failures.push(format!(
                        "step {}: expected {} {} to be refused, but it was allowed",
                        n + 1,
                        if play { "playing" } else { "discarding" },
                        deck[card.index()].name
                    ));
                    return ControlFlow::Break(());
                }
                Err(e) => {
                    // Take back the card the step gave, so the hand is as before.
                    if held.is_none() {
                        game.take_back(at);
                    }
                    if let Some(want) = why.filter(|w| *w != e.to_string()) {
                        self.failures.push(format!(
                            "step {}: {} was refused with \"{e}\", expected \"{want}\"",
                            n + 1,
                            deck[card.index()].name
                        ));
                    }
                    return ControlFlow::Continue(());
                }
            }
        }
        if let Err(e) = game.act(action) {
            self.failures.push(format!(
                "step {}: {} {}: {e}",
                n + 1,
                if play { "play" } else { "discard" },
                deck[card.index()].name
            ));
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// Describes the game's standing for a message: who won, or who is to act.
fn describe(game: &Game<'_>, names: &[String]) -> String {
    let mut out = String::new();
    let _ = match game.outcome() {
        Some(Outcome::Win { seat, .. }) => write!(out, "{} won", names[seat.index()]),
        Some(Outcome::Loss { seat, .. }) => write!(out, "{} lost", names[seat.index()]),
        Some(Outcome::Tie) => write!(out, "the game ended in a tie"),
        Some(Outcome::TurnLimit) => write!(out, "the game hit the turn limit"),
        Some(Outcome::NobodyLeft) => write!(out, "no seat is left in play"),
        Some(Outcome::Aborted(why)) => write!(
            out,
            "the game was aborted at {}: {why}",
            game.stopped_at().unwrap_or_default()
        ),
        None => write!(out, "{} is to act", names[game.next_actor().index()]),
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
    let seen = Seen {
        game,
        rules,
        names,
        roles,
    };
    failures.extend(expect.iter().filter_map(|e| seen.failure(e)));
}

/// The game as expectations see it: roles are the first seat's, and entities
/// are called by their names in the log.
struct Seen<'a, 'r> {
    game: &'a Game<'r>,
    rules: &'a RuleSet,
    names: &'a [String],
    roles: &'a [EntityId],
}

impl Seen<'_, '_> {
    fn entity(&self, w: Who) -> EntityId {
        match w {
            Who::Role(r) => self.roles[r.index()],
            Who::Entity(e) | Who::Spawned(_, e) => e,
            Who::Card(..) => resolve(self.game, w),
        }
    }

    fn who_name(&self, w: Who) -> String {
        match w {
            Who::Role(r) => self.rules.roles[r].clone(),
            Who::Entity(e) => self
                .names
                .get(e.index())
                .cloned()
                .unwrap_or_else(|| self.game.entity_name(e)),
            Who::Spawned(kind, e) => spawned_name(self.rules, kind, e),
            Who::Card(..) => self.game.entity_name(resolve(self.game, w)),
        }
    }

    /// What is wrong with `e`, if it does not hold.
    fn failure(&self, e: &Expect) -> Option<String> {
        let (game, rules) = (self.game, self.rules);
        // An entity named by kind and number must have entered play to be read.
        if let Expect::Value(w, ..) | Expect::Statuses(w, _) | Expect::Gone(w) = e
            && let Some(why) = not_entered(game, *w)
        {
            return Some(why);
        }
        match *e {
            Expect::Value(who, attr, want) => {
                let got = game.state().get(self.entity(who), attr);
                (got != want).then(|| {
                    format!(
                        "{}.{} is {got}, expected {want}",
                        self.who_name(who),
                        rules.attributes[attr]
                    )
                })
            }
            Expect::Statuses(who, ref want) => self.statuses(who, want),
            Expect::Loser(who) => {
                let lost = matches!(game.outcome(), Some(Outcome::Loss { seat, .. }) if seat == self.entity(who));
                (!lost).then(|| {
                    format!(
                        "expected {} to have lost; {}",
                        self.who_name(who),
                        describe(game, self.names)
                    )
                })
            }
            Expect::Intents(who, ref want) => {
                let got = game.intended(self.entity(who));
                (got != *want).then(|| {
                    let list = |v: &[&str]| {
                        v.iter()
                            .map(|m| format!(":{m}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    let want: Vec<&str> = want.iter().map(String::as_str).collect();
                    format!(
                        "{} intended [{}], expected [{}]",
                        self.who_name(who),
                        list(&got),
                        list(&want)
                    )
                })
            }
            Expect::Gone(who) => game
                .state()
                .is_live(self.entity(who))
                .then(|| format!("expected {} out of play; it is in play", self.who_name(who))),
            Expect::Holds(ref cond, ref text) => {
                let mut bound = self.roles.to_vec();
                bound.extend(EntityId::below(rules.game_entity_names().len()));
                let mut state = game.state().clone();
                (!crate::eval::holds(cond, &mut state, &bound))
                    .then(|| format!("expected {text} to hold; it does not"))
            }
            Expect::Next(who) => {
                (game.outcome().is_some() || game.next_actor() != self.entity(who)).then(|| {
                    format!(
                        "expected {} to act next; {}",
                        self.who_name(who),
                        describe(game, self.names)
                    )
                })
            }
            Expect::Winner(who) => {
                let got = match game.outcome() {
                    Some(Outcome::Win { seat, .. }) => Some(Some(seat)),
                    None => Some(None),
                    Some(_) => None,
                };
                (got != Some(who.map(|w| self.entity(w)))).then(|| {
                    let want = who.map_or("nobody yet".to_string(), |w| self.who_name(w));
                    format!("expected winner: {want}; {}", describe(game, self.names))
                })
            }
            // A draw where every seat left play at once is a tie too, as `simulate` counts it.
            Expect::Tie => (!matches!(game.outcome(), Some(Outcome::Tie | Outcome::NobodyLeft)))
                .then(|| format!("expected a tie; {}", describe(game, self.names))),
            Expect::MustDiscard(n) => {
                let got = match game.ctx().phase {
                    Phase::MustDiscard(k) => k,
                    _ => 0,
                };
                (got != n).then(|| format!("expected {n} card(s) still to discard, found {got}"))
            }
            Expect::Hand(n) => (game.hand().len() != n)
                .then(|| format!("expected {n} cards in hand, found {}", game.hand().len())),
            Expect::Queue(ref want) => self.queue(want),
            Expect::Zone(ref pile, ref want) => {
                let owner = pile.owner.map(|w| self.entity(w));
                super::zones::failure(game, pile, want, owner, |e| {
                    self.names
                        .get(e.index())
                        .cloned()
                        .unwrap_or_else(|| game.entity_name(e))
                })
            }
        }
    }

    /// `:statuses {who {…}}`: the statuses `who` holds, each with its turns left.
    fn statuses(&self, who: Who, want: &[(StatusId, i64)]) -> Option<String> {
        let rules = self.rules;
        let got: Vec<(StatusId, i64)> = self
            .game
            .state()
            .statuses_of(self.entity(who))
            .map(|i| (i.status, i.turns_left().map_or(-1, i64::from)))
            .collect();
        if got == *want {
            return None;
        }
        let show = |list: &[(StatusId, i64)]| {
            let items: Vec<String> = list
                .iter()
                .map(|&(id, left)| format!(":{} {left}", rules.statuses[id]))
                .collect();
            format!("{{{}}}", items.join(" "))
        };
        Some(format!(
            "{} holds {}, expected {}",
            self.who_name(who),
            show(&got),
            show(want)
        ))
    }

    /// `:queue […]`: the turn queue, entry by entry.
    fn queue(&self, want: &[QueueWant]) -> Option<String> {
        let rules = self.rules;
        let name = |e: EntityId| {
            self.names
                .get(e.index())
                .cloned()
                .unwrap_or_else(|| self.game.entity_name(e))
        };
        let got = self.game.queue_listing();
        let matches = got.len() == want.len()
            && got.iter().zip(want).all(|(g, w)| match (*g, *w) {
                (Queued::Turn(e, k), QueueWant::Turn(who, kind)) => {
                    e == self.entity(who) && kind.is_none_or(|kind| kind == k)
                }
                (Queued::Reorder, QueueWant::Reorder) => true,
                (Queued::Timed(t, e), QueueWant::Timed(timing, who)) => {
                    t == timing && who.is_none_or(|w| self.entity(w) == e)
                }
                _ => false,
            });
        if matches {
            return None;
        }
        let show = |q: &Queued| match *q {
            Queued::Turn(e, k) => format!("[:turn :{} :{}]", name(e), rules.turn_kinds[k].name),
            Queued::Reorder => ":reorder".to_string(),
            Queued::Timed(t, e) => format!("[:timed :{} :{}]", rules.timings[t].name, name(e)),
        };
        Some(format!(
            "the queue is [{}]",
            got.iter().map(show).collect::<Vec<_>>().join(" ")
        ))
    }
}
