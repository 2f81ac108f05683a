//! Game invariants: what must hold of every state a game of a rule set can
//! reach, checked from outside the turn machine so that a broken engine
//! cannot hide its own faults.
//!
//! - `attribute-bounds`: every value (and base value) within its attribute's `:min`..`:max`;
//! - `status-duration`: no instance held with no turns left, and no turns
//!   left below −1 ("until removed") in a log's status events;
//! - `status-instance`: every instance of a declared status, on an entity in play, with
//!   stacks within its stacking, charges left if it blocks, in acquisition order;
//! - `hand-limit`: a hand grows only by refilling up to the hand size and by
//!   the `:draw` of the card just played (cards of `:cards` alone);
//! - `card-count`: every copy of every card is in exactly one hand or pile
//!   (those played `:once` gone), and nothing else is (cards of `:cards` alone);
//! - `zone-membership`: with `:zones`, every card instance is in exactly one
//!   pile, the one it says, its card listed beside it; a row has no gaps; an
//!   instance is of its kind in an in-play zone, out of the game in
//!   `:removed`, and in a zone not in play otherwise;
//! - `zone-capacity`: no pile holds more than its zone's capacity (its slots);
//! - `known-sound`: every seat that sees a pile knows each of its cards;
//! - `view-hides`: no seat's view names a card it may not see nor know (in
//!   another's hand, a draw pile, a zone hidden from it), nor shows the
//!   values of such an instance; and with `:zones` the view is the same
//!   once the cards the seat cannot tell are moved round among their places;
//! - `queue-limit`: the turn queue within [`MAX_QUEUE`] entries (plus the base queue a round splices in);
//! - `turn-limit`: the turn number never past the rule set's `:turns :limit`;
//! - `must-discard`: a player told to discard has that many cards it may discard;
//! - `game-ends`: the game ends by a win, a tie, the turn limit or nobody
//!   left, never by the computer player finding nothing to do or the engine
//!   refusing what it chose;
//! - `same-seed-same-log`: a game played again from its seed, fresh, gives
//!   the same log and the same final state.
//!
//! [`check_state`] needs only a state; [`Monitor`] follows a game action by
//! action; [`play_checked`] plays one with computer players and checks it all.

use crate::ids::AttrId;
use std::fmt;
use std::ops::ControlFlow;

use super::ai::{Ai, Policy};
use super::playout::{Computer, Ending, Observer, play_out};
use super::{Ability, Action, CardId, Game, GameEvent, Log, MAX_QUEUE, Phase};
use crate::check::ast::{EntityId, Stacking};
use crate::check::rules::RuleSet;
use crate::eval::State;

/// One of the invariants; its [`Invariant::name`] is what reports show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Invariant {
    /// Every value within its attribute's bounds.
    AttributeBounds,
    /// No instance held with no turns left; no negative count in the log.
    StatusDuration,
    /// Every instance well formed: declared status, holder in play, stacks, charges, order.
    StatusInstance,
    /// Hands grow only by refilling and by a played card's `:draw`.
    HandLimit,
    /// Every copy of every card in exactly one zone.
    CardCount,
    /// Every card instance in exactly one pile, as it says.
    ZoneMembership,
    /// No pile past its capacity.
    ZoneCapacity,
    /// Who sees a pile knows its cards.
    KnownSound,
    /// A seat's view shows nothing it may not see.
    ViewHides,
    /// The turn queue within its limit.
    QueueLimit,
    /// The turn number within the rule set's limit.
    TurnLimit,
    /// A forced discard can be made.
    MustDiscard,
    /// The game ends by its rules.
    GameEnds,
    /// A seed replays its game exactly.
    SameSeedSameLog,
}

impl Invariant {
    /// Every invariant, in the order they are checked.
    pub const ALL: &[Invariant] = &[
        Invariant::AttributeBounds,
        Invariant::StatusDuration,
        Invariant::StatusInstance,
        Invariant::HandLimit,
        Invariant::CardCount,
        Invariant::ZoneMembership,
        Invariant::ZoneCapacity,
        Invariant::KnownSound,
        Invariant::ViewHides,
        Invariant::QueueLimit,
        Invariant::TurnLimit,
        Invariant::MustDiscard,
        Invariant::GameEnds,
        Invariant::SameSeedSameLog,
    ];

    /// Its name in reports (`attribute-bounds`).
    pub fn name(self) -> &'static str {
        match self {
            Invariant::AttributeBounds => "attribute-bounds",
            Invariant::StatusDuration => "status-duration",
            Invariant::StatusInstance => "status-instance",
            Invariant::HandLimit => "hand-limit",
            Invariant::CardCount => "card-count",
            Invariant::ZoneMembership => "zone-membership",
            Invariant::ZoneCapacity => "zone-capacity",
            Invariant::KnownSound => "known-sound",
            Invariant::ViewHides => "view-hides",
            Invariant::QueueLimit => "queue-limit",
            Invariant::TurnLimit => "turn-limit",
            Invariant::MustDiscard => "must-discard",
            Invariant::GameEnds => "game-ends",
            Invariant::SameSeedSameLog => "same-seed-same-log",
        }
    }
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An invariant that does not hold: which, when, and the values that break it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which invariant.
    pub invariant: Invariant,
    /// The game's turn when it was found (0 outside a game).
    pub turn: u32,
    /// What was found, with the values.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "turn {}: invariant `{}` broken: {}",
            self.turn, self.invariant, self.detail
        )
    }
}

impl std::error::Error for Violation {}

fn broken(invariant: Invariant, detail: String) -> Violation {
    Violation {
        invariant,
        turn: 0,
        detail,
    }
}

/// An entity as reports name it: a seat's or setup entity's name, else its number.
fn entity_name(rules: &RuleSet, entity: EntityId) -> String {
    let seats = rules.seats.len();
    let named = rules.setup_entities().filter(|s| s.seat.is_none());
    match entity.index().checked_sub(seats) {
        None => format!("`:{}`", rules.seats[entity.index()]),
        Some(k) => match named.clone().nth(k) {
            Some(s) => format!("`:{}`", s.name),
            None => format!("entity #{entity}"),
        },
    }
}

/// The invariants a state alone must keep: attribute bounds, and every
/// status instance well formed with turns left.
pub fn check_state(rules: &RuleSet, state: &State) -> Result<(), Violation> {
    let width = rules.attributes.len();
    for entity in EntityId::below(state.len()) {
        // A value kept by an entity out of play was within bounds when it left.
        for (attr, &(min, max)) in rules.bounds.iter().enumerate().take(width) {
            let a = AttrId::new(attr);
            for (what, v) in [
                ("", state.get(entity, a)),
                (" (base)", state.base(entity, a)),
            ] {
                if v < min || v > max {
                    return Err(broken(
                        Invariant::AttributeBounds,
                        format!(
                            "{} `:{}`{what} is {v}, outside {min}..={max}",
                            entity_name(rules, entity),
                            rules.attributes[a]
                        ),
                    ));
                }
            }
        }
    }
    let mut last: Option<u32> = None;
    for inst in state.statuses() {
        let Some(def) = rules.status_defs.get(inst.status) else {
            return Err(broken(
                Invariant::StatusInstance,
                format!(
                    "an instance of status #{} on {}, which the rule set does not declare",
                    inst.status,
                    entity_name(rules, inst.holder)
                ),
            ));
        };
        let name = rules.statuses.get(inst.status).map_or("?", String::as_str);
        let on = || format!("`:{name}` on {}", entity_name(rules, inst.holder));
        if inst.turns_left() == Some(0) {
            return Err(broken(
                Invariant::StatusDuration,
                format!("{} is held with 0 turns left: it should have run out", on()),
            ));
        }
        if !state.is_live(inst.holder) {
            return Err(broken(
                Invariant::StatusInstance,
                format!("{} is held by an entity out of play", on()),
            ));
        }
        let most = match def.stacking {
            Stacking::Stack(n) => n,
            Stacking::Refresh | Stacking::Independent => 1,
        };
        if inst.stacks == 0 || inst.stacks > most {
            return Err(broken(
                Invariant::StatusInstance,
                format!(
                    "{} has {} stacks; it may have 1 to {most}",
                    on(),
                    inst.stacks
                ),
            ));
        }
        if def.blocks.is_some() && inst.charges == 0 {
            return Err(broken(
                Invariant::StatusInstance,
                format!("{} blocks with no charges left: it should have ended", on()),
            ));
        }
        // The status timing's walk relies on acquisition order being serial order.
        if last.is_some_and(|l| inst.serial <= l) {
            return Err(broken(
                Invariant::StatusInstance,
                format!(
                    "{} (serial {}) is listed after serial {}: instances out of acquisition order",
                    on(),
                    inst.serial,
                    last.unwrap_or_default()
                ),
            ));
        }
        last = Some(inst.serial);
    }
    Ok(())
}

/// Follows one game action by action, checking every invariant a game's state
/// must keep; remembers what a hand may grow to from one action to the next.
#[derive(Clone, Debug, Default)]
pub struct Monitor {
    /// Each seat's hand size before the action, and the cards it may then draw.
    before: Vec<(usize, usize)>,
    /// A count per card and pile, reused.
    counts: Vec<u64>,
    /// How much of the game's log was read at the last check.
    read: usize,
}

impl Monitor {
    /// A monitor with nothing seen.
    pub fn new() -> Monitor {
        Monitor::default()
    }

    /// Notes, before `action` is done, what each hand may grow to after it:
    /// the hand size, or what it holds (less the card played); the actor's
    /// also by the played card's `:draw`.
    pub fn before(&mut self, game: &Game<'_>, action: Action) {
        self.before.clear();
        for seat in 0..game.seats() {
            let hand = game.hand_of(EntityId::new(seat));
            let mut held = hand.len();
            let mut draw = 0;
            if seat == game.current.index() && action.actor == game.current {
                match action.ability {
                    Ability::Card(i) => {
                        if let Some(&card) = hand.get(usize::from(i)) {
                            held -= 1;
                            draw = game
                                .cards()
                                .get(card.index())
                                .map_or(0, |c| usize::from(c.play.draw));
                        }
                    }
                    Ability::Discard(i) if usize::from(i) < hand.len() => held -= 1,
                    Ability::Discard(_)
                    | Ability::Action(_)
                    | Ability::EndTurn
                    | Ability::Pass
                    | Ability::Use(_)
                    | Ability::Target => {}
                }
            }
            self.before.push((held, draw));
        }
    }

    /// Checks every invariant of `game`'s state now; after [`Monitor::before`],
    /// the hands' growth too. The violation carries the game's turn.
    pub fn check(&mut self, game: &Game<'_>) -> Result<(), Violation> {
        self.check_all(game).map_err(|mut v| {
            v.turn = game.turn;
            v
        })
    }

    fn check_all(&mut self, game: &Game<'_>) -> Result<(), Violation> {
        let rules = game.rules();
        check_state(rules, game.state())?;
        self.check_log(game)?;
        if game.turn > rules.turn_limit {
            return Err(broken(
                Invariant::TurnLimit,
                format!("turn {} is past the limit {}", game.turn, rules.turn_limit),
            ));
        }
        let waiting = game.queue.len().saturating_sub(game.next);
        if waiting > MAX_QUEUE + game.base.len() {
            return Err(broken(
                Invariant::QueueLimit,
                format!(
                    "the turn queue holds {waiting} entries to run, more than {MAX_QUEUE} and a round of {}",
                    game.base.len()
                ),
            ));
        }
        if let Phase::MustDiscard(n) = game.phase {
            let can = game
                .hand()
                .iter()
                .filter(|&&c| game.cards()[c.index()].play.discardable)
                .count();
            if can < usize::from(n) {
                return Err(broken(
                    Invariant::MustDiscard,
                    format!(
                        "{} must discard {n} cards and may discard only {can}",
                        entity_name(rules, game.current)
                    ),
                ));
            }
        }
        if game.zoned() {
            check_zones(game)?;
            return check_views(game);
        }
        self.check_hands(game)?;
        self.check_cards(game)?;
        check_views(game)
    }

    /// The log's entries since the last check: each change ends within its
    /// attribute's bounds (a value that left them and came back within one
    /// action shows only here), and no status event counts below −1.
    fn check_log(&mut self, game: &Game<'_>) -> Result<(), Violation> {
        let Some(log) = game.log() else {
            return Ok(());
        };
        // A log shorter than what was read belongs to a game reset since.
        let from = if self.read > log.len() { 0 } else { self.read };
        self.read = log.len();
        let rules = game.rules();
        for event in &log[from..] {
            match *event {
                GameEvent::Changed { change, .. } => {
                    let (min, max) = rules.bounds[change.attr];
                    if change.after < min || change.after > max {
                        return Err(broken(
                            Invariant::AttributeBounds,
                            format!(
                                "the log changes {} `:{}` from {} to {}, outside {min}..={max}",
                                entity_name(rules, change.entity),
                                rules.attributes[change.attr],
                                change.before,
                                change.after
                            ),
                        ));
                    }
                }
                GameEvent::Status {
                    entity,
                    status,
                    change,
                    before,
                    after,
                    ..
                } if before < -1 || after < -1 => {
                    return Err(broken(
                        Invariant::StatusDuration,
                        format!(
                            "the log's {change:?} of `:{}` on {} counts {before} to {after}",
                            rules.statuses.get(status).map_or("?", String::as_str),
                            entity_name(rules, entity)
                        ),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn check_hands(&mut self, game: &Game<'_>) -> Result<(), Violation> {
        let Some(zones) = game.rules().cards.as_ref() else {
            return Ok(());
        };
        let before = std::mem::take(&mut self.before);
        for (seat, &(held, draw)) in before.iter().enumerate() {
            let now = game.hand_of(EntityId::new(seat)).len();
            let most = held.max(zones.hand_size) + draw;
            if now > most {
                return Err(broken(
                    Invariant::HandLimit,
                    format!(
                        "{}'s hand went from {held} cards (hand size {}, {draw} to draw) to {now}",
                        entity_name(game.rules(), EntityId::new(seat)),
                        zones.hand_size
                    ),
                ));
            }
        }
        Ok(())
    }

    fn check_cards(&mut self, game: &Game<'_>) -> Result<(), Violation> {
        let Some(zones) = game.rules().cards.as_ref() else {
            return Ok(());
        };
        let cards = game.cards();
        let piles = game.zones.piles();
        let n = cards.len();
        self.counts.clear();
        self.counts.resize(n * piles, 0);
        let mut tally = |pile: usize, ids: &[CardId], place: &dyn Fn() -> String| {
            for &c in ids {
                match self.counts.get_mut(pile * n + c.index()) {
                    Some(k) if c.index() < n => *k += 1,
                    _ => {
                        return Err(broken(
                            Invariant::CardCount,
                            format!("{} holds card #{c}, not one of the {n} cards", place()),
                        ));
                    }
                }
            }
            Ok(())
        };
        for seat in 0..game.seats() {
            let pile = if zones.per_seat { seat } else { 0 };
            let hand = game.hand_of(EntityId::new(seat));
            tally(pile, hand, &|| {
                format!("{}'s hand", entity_name(game.rules(), EntityId::new(seat)))
            })?;
        }
        for pile in 0..piles {
            let (draw, discard) = game.zones.pile_contents(pile);
            tally(pile, draw, &|| format!("draw pile {pile}"))?;
            tally(pile, discard, &|| format!("discard pile {pile}"))?;
        }
        for pile in 0..piles {
            for (id, card) in cards.iter().enumerate() {
                let have = self.counts[pile * n + id];
                let copies = u64::from(card.play.copies);
                // A card played `:once` leaves the game: fewer copies, never more.
                let fine = if card.play.once {
                    have <= copies
                } else {
                    have == copies
                };
                if !fine {
                    return Err(broken(
                        Invariant::CardCount,
                        format!(
                            "{} copies of `{}` are in the hands and piles{}, and the deck holds {copies}",
                            have,
                            card.name,
                            if zones.per_seat {
                                format!(" of seat {pile}")
                            } else {
                                String::new()
                            }
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The invariants of cards kept in `:zones`: membership, capacity, knowledge.
fn check_zones(game: &Game<'_>) -> Result<(), Violation> {
    let (rules, state) = (game.rules(), game.state());
    let (Some(set), Some(table)) = (rules.zones.as_ref(), state.cards.as_deref()) else {
        return Err(broken(
            Invariant::ZoneMembership,
            "a game with `:zones` keeps no card table".to_string(),
        ));
    };
    let name = |e: EntityId| game.entity_name(e);
    let pile_name = |p: usize| {
        let seat = |s: EntityId| std::borrow::Cow::Owned(game.entity_name(s));
        super::log::pile_name(rules, p as u16, u32::MAX, &seat)
    };
    let mut seen = vec![false; state.len()];
    for pile in 0..table.piles() {
        let zone = &set.zones[table.zone_of(pile)];
        let (contents, defs) = (table.contents(pile), table.defs(pile));
        let sites = zone.layout == crate::check::rules::Layout::Sites && zone.slots > 0;
        let membership = |detail: String| Err(broken(Invariant::ZoneMembership, detail));
        if contents.len() != defs.len() || (sites && contents.len() != usize::from(zone.slots)) {
            return membership(format!(
                "{} lists {} cards and {} definitions",
                pile_name(pile),
                contents.len(),
                defs.len()
            ));
        }
        for (at, (&e, &def)) in contents.iter().zip(defs).enumerate() {
            if e == EntityId::MAX && sites {
                continue;
            }
            if table.card(e) != Some(def) || table.pile_of(e) != Some(pile) {
                return membership(format!(
                    "{} holds {} at {at}, which is not that card there",
                    pile_name(pile),
                    if e == EntityId::MAX {
                        "a gap".to_string()
                    } else {
                        name(e)
                    }
                ));
            }
            if std::mem::replace(&mut seen[e.index()], true) {
                return membership(format!("{} is in two places", name(e)));
            }
            let removed = table.zone_of(pile) == set.removed;
            let kind_ok = match (zone.in_play, removed) {
                (_, true) => !state.is_live(e) && !state.is_zoned(e),
                (true, false) => state.kind(e) == table.kind_in_play(e),
                (false, false) => state.is_zoned(e),
            };
            if !kind_ok {
                return membership(format!(
                    "{} in {} is {}",
                    name(e),
                    pile_name(pile),
                    if state.is_live(e) {
                        "in play"
                    } else {
                        "not in play"
                    }
                ));
            }
            let visible = table.visible_to(set, pile);
            if table.known(e) & visible != visible {
                return Err(broken(
                    Invariant::KnownSound,
                    format!(
                        "{} in {} is seen by seats {visible:#b} but known to {:#b}",
                        name(e),
                        pile_name(pile),
                        table.known(e)
                    ),
                ));
            }
        }
        if table.count(pile) > usize::from(zone.capacity) {
            return Err(broken(
                Invariant::ZoneCapacity,
                format!(
                    "{} holds {} cards; it holds {} at most",
                    pile_name(pile),
                    table.count(pile),
                    zone.capacity
                ),
            ));
        }
    }
    if let Some(lost) = table.instances().find(|e| !seen[e.index()]) {
        return Err(broken(
            Invariant::ZoneMembership,
            format!("{} is in no pile", name(lost)),
        ));
    }
    Ok(())
}

/// `view-hides`, by a reading of the rules of its own: for each seat, the
/// cards its view names are the ones it may see or knows, and the values it
/// shows are those of the instances it may tell; with `:zones`, its view is
/// unchanged when the cards it cannot tell are rotated one place along.
fn check_views(game: &Game<'_>) -> Result<(), Violation> {
    check_views_of(game, &|g, seat| g.view(seat))
}

/// `view-hides` ([`Monitor::check`] checks it with [`Game::view`]) of the
/// views `see` gives: for its test, which must be shown leaky views.
#[doc(hidden)]
pub fn check_views_of(
    game: &Game<'_>,
    see: &dyn Fn(&Game<'_>, EntityId) -> super::view::View,
) -> Result<(), Violation> {
    let rules = game.rules();
    if rules.cards.is_none() && rules.zones.is_none() {
        return Ok(());
    }
    for seat in EntityId::below(game.seats()) {
        let view = see(game, seat);
        let told = told_by(game, seat);
        let hides = |detail: String| Err(broken(Invariant::ViewHides, detail));
        let who = entity_name(rules, seat);
        if !game.zoned() {
            // Classic storage: another's hand and every draw pile are hidden.
            for zone in &view.zones {
                let theirs = zone.zone == super::view::ZoneName::Hand && zone.owner != Some(seat);
                let hidden = theirs || zone.zone == super::view::ZoneName::Deck;
                if hidden && zone.cards.iter().any(|c| c.card().is_some()) {
                    return hides(format!(
                        "{who}'s view names a card of a hidden {}",
                        zone.zone.word(rules)
                    ));
                }
            }
            continue;
        }
        for row in &view.rows {
            if !told[row.entity.index()] && (!row.values.is_empty() || row.kind.is_some()) {
                return hides(format!(
                    "{who}'s view shows the values of {}, which it cannot tell",
                    game.entity_name(row.entity)
                ));
            }
        }
        for zone in &view.zones {
            for c in &zone.cards {
                if let super::view::Seen::Instance(_, e) = *c
                    && !told[e.index()]
                {
                    return hides(format!(
                        "{who}'s view names {}, which it cannot tell",
                        game.entity_name(e)
                    ));
                }
            }
        }
        let hidden: Vec<EntityId> = EntityId::below(told.len())
            .filter(|e| !told[e.index()])
            .filter(|&e| {
                game.state()
                    .cards
                    .as_deref()
                    .is_some_and(|t| t.card(e).is_some())
            })
            .collect();
        if hidden.len() > 1 {
            let mut moved = game.clone();
            for pair in hidden.windows(2) {
                moved.swap_cards_unchecked(pair[0], pair[1]);
            }
            if see(&moved, seat) != view {
                return hides(format!(
                    "{who}'s view changes when the cards it cannot tell are moved round"
                ));
            }
        }
    }
    Ok(())
}

/// Per entity, whether `seat` may tell which card it is (and every entity
/// that is no card): it sees the pile (`:all`, or `:owner` and owns it), or
/// the card on top of a `:top-visible` pile, or knows it.
fn told_by(game: &Game<'_>, seat: EntityId) -> Vec<bool> {
    use crate::check::rules::Visibility;
    let state = game.state();
    let mut told = vec![true; state.len()];
    let (Some(set), Some(t)) = (game.rules().zones.as_ref(), state.cards.as_deref()) else {
        return told;
    };
    for pile in 0..t.piles() {
        let zone = &set.zones[t.zone_of(pile)];
        let sees = match zone.visible {
            Visibility::All => true,
            Visibility::Owner => t.owner_of(set, pile) == Some(seat),
            Visibility::Nobody => false,
        };
        let cards: Vec<EntityId> = t
            .contents(pile)
            .iter()
            .copied()
            .filter(|&e| t.card(e).is_some())
            .collect();
        for (i, &e) in cards.iter().enumerate() {
            let top = zone.top_visible && i + 1 == cards.len();
            told[e.index()] = sees || top || t.known(e) & (1u64 << seat.index().min(63)) != 0;
        }
    }
    told
}

/// Plays `game` (new or just reset) to its end with computer players of
/// `policies` (one per seat, or the last for the rest), checking every
/// invariant at the start and after every action, and that the game ended by
/// its rules. How many actions were done, or the first violation.
pub fn play_checked(
    game: &mut Game<'_>,
    ai: &mut Ai,
    policies: &[Policy],
    checker: &mut Monitor,
) -> Result<u64, Violation> {
    checker.before.clear();
    checker.read = 0;
    checker.check(game)?;
    let mut watch = Watch {
        checker,
        actions: 0,
    };
    let ending = play_out(game, &mut Computer { ai, policies }, &mut watch);
    let actions = watch.actions;
    match ending {
        Ending::Over => Ok(actions),
        Ending::Stopped(violation) => Err(violation),
        Ending::NoAction => Err(Violation {
            invariant: Invariant::GameEnds,
            turn: game.turn,
            detail: format!(
                "{} has nothing to do in phase {:?}, and the game is not over",
                entity_name(game.rules(), game.current),
                game.phase
            ),
        }),
        Ending::Refused(action, e) => Err(Violation {
            invariant: Invariant::GameEnds,
            turn: game.turn,
            detail: format!("the engine refused {action:?}, which the computer player chose: {e}"),
        }),
    }
}

/// The checker as a play-out's observer: notes each action before it is
/// done, checks after, and counts the actions.
struct Watch<'c> {
    checker: &'c mut Monitor,
    actions: u64,
}

impl Observer for Watch<'_> {
    type Stop = Violation;

    fn chosen(&mut self, game: &mut Game<'_>, action: Action) {
        self.checker.before(game, action);
    }

    fn acted(&mut self, game: &Game<'_>) -> ControlFlow<Violation> {
        self.actions += 1;
        match self.checker.check(game) {
            Ok(()) => ControlFlow::Continue(()),
            Err(v) => ControlFlow::Break(v),
        }
    }
}

/// Plays the game seeded `seed` again, from a fresh [`Game`] with computer
/// players of `policies`, and compares its log and final state with `log` and
/// `state`, what a game with that seed gave before (a game reset from another
/// one's buffers, say).
pub fn replay_matches(
    rules: &RuleSet,
    cards: &[crate::check::defs::Card],
    seed: u64,
    policies: &[Policy],
    log: &[GameEvent],
    state: &State,
) -> Result<(), Violation> {
    let mut game = Game::new(rules, cards, seed, Log::Keep).map_err(|e| {
        broken(
            Invariant::SameSeedSameLog,
            format!("the game could not be set up again: {e}"),
        )
    })?;
    let mut ai = Ai::new();
    let mut checker = Monitor::new();
    play_checked(&mut game, &mut ai, policies, &mut checker)?;
    let again = game.log().unwrap_or(&[]);
    let differ = log.iter().zip(again).position(|(a, b)| a != b);
    let detail = match differ {
        Some(i) => Some(format!(
            "the logs part at entry {i}: {:?} the first time, {:?} the second",
            log[i], again[i]
        )),
        None if log.len() != again.len() => Some(format!(
            "the log has {} entries the first time, {} the second",
            log.len(),
            again.len()
        )),
        None if state != game.state() => {
            Some("the logs agree but the final states differ".to_string())
        }
        None => None,
    };
    match detail {
        Some(detail) => Err(Violation {
            invariant: Invariant::SameSeedSameLog,
            turn: game.turn,
            detail,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two seats taking turns, with nothing else.
    const RULES: &str = r#"{:rules :queue :roles {:you "" :other ""} :seats [:p1 :p2] :attributes {:hp {:default 3}}}"#;

    #[test]
    fn queue_limit_fires_on_a_queue_past_its_limit() {
        let rules = RuleSet::parse(RULES).expect("rule set");
        let mut game = Game::new(&rules, &[], 1, Log::Skip).expect("game");
        assert_eq!(Monitor::new().check(&game), Ok(()));
        let turn = game.base[0];
        game.queue.extend(std::iter::repeat_n(turn, MAX_QUEUE + 10));
        let v = Monitor::new().check(&game).expect_err("too long");
        assert_eq!(v.invariant, Invariant::QueueLimit, "{v}");
        assert!(v.detail.contains("more than 10000"), "{v}");
    }
}
