//! A game's events: what changed an attribute ([`By`]), each entry of the log
//! ([`GameEvent`]), and the evaluator's events noted for victory checks and
//! turned into log entries.

use super::victory::bit;
use super::{Action, CardId, Game, Outcome};
use crate::check::ast::{AttrId, EntityId, OpId, StatusId};
use crate::check::rules::turn_kinds::TurnKindId;
use crate::check::rules::{ActionId, KindId, RuleSet, TimingId};
use crate::eval::{Cause, StatusChange, What};
use crate::ids::ZoneId;

/// Where an action of `:actions` stands when it is logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Chosen and resolved at once.
    Done,
    /// Chosen; its effects wait for the next round's end (`:delayed-when`),
    /// or for its actor to force them.
    Delayed,
    /// A delayed action resolves.
    Resolved,
    /// A delayed action is cancelled: it is no longer allowed when it resolves.
    Cancelled(Cancel),
}

/// Why a delayed action was cancelled when its round came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cancel {
    /// This entity, its actor or its target, has left play.
    Gone(EntityId),
    /// Its `:when` no longer holds.
    NotNow,
    /// Its `:refused-when` case with this index holds.
    Refused(u16),
}

/// What changed an attribute during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The hook of a timing (Arcomage's `:turn-start`: production); which effect of it.
    Hook(TimingId, Cause),
    /// Paying for this card.
    Cost(CardId),
    /// Playing this card: the attribute `:cards :played` names takes its number.
    Played(CardId),
    /// This card's effects; which effect of it.
    Card(CardId, Cause),
    /// The `:on-removed` effects of an entity leaving play; which effect.
    Removal(Cause),
    /// An action's `:pay` or `:effects`; which effect.
    Action(ActionId, Cause),
    /// A status given before play ([`Game::give_status`]); which effect of it.
    Given(Cause),
    /// An entity's turn (its kind's `:on-turn`); which effect.
    EntityTurn(EntityId, Cause),
    /// A rule of the zones: a deal, a refill, a draw at a turn's start, a
    /// card played or discarded (its moves), or an empty zone's `:when-empty`
    /// effects (its changes); the zone drawn into, and which effect.
    Zone(ZoneId, Cause),
    /// A trigger of this card ran; which effect of it.
    Trigger(CardId, Cause),
    /// An aura of this card (the first whose change it was) came or went.
    Aura(CardId),
}

/// One attribute change of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The entity changed.
    pub entity: EntityId,
    /// The attribute changed.
    pub attr: AttrId,
    /// Its value before.
    pub before: i64,
    /// Its value after, within the attribute's bounds.
    pub after: i64,
}

/// One entry of a game's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// A turn begins.
    TurnStart {
        /// 1-based turn number.
        turn: u32,
        /// Whose turn.
        seat: EntityId,
        /// Its turn kind.
        kind: TurnKindId,
    },
    /// A card is played.
    Played {
        /// Who played it.
        seat: EntityId,
        /// Which card.
        card: CardId,
        /// The option of its `:choose` it was played with (a rank named).
        choice: Option<crate::ids::OptionId>,
    },
    /// A card is discarded.
    Discarded {
        /// Who discarded it.
        seat: EntityId,
        /// Which card.
        card: CardId,
        /// True when a card's "discard 1" forced it.
        forced: bool,
    },
    /// An action of `:actions` was used.
    Acted {
        /// The seat whose turn it was when it was chosen.
        seat: EntityId,
        /// What, by whom, on whom.
        action: Action,
        /// Done at once, delayed, resolved or cancelled.
        stage: Stage,
    },
    /// The actor could do nothing and passed.
    Passed {
        /// Who passed.
        seat: EntityId,
    },
    /// An attribute changed.
    Changed {
        /// The change.
        change: Change,
        /// What made it.
        by: By,
    },
    /// A status was acquired, blocked, counted down or ended.
    Status {
        /// Whose status.
        entity: EntityId,
        /// Which.
        status: StatusId,
        /// What happened to it.
        change: StatusChange,
        /// Turns left (stacks, when stacked) before.
        before: i64,
        /// And after; −1 for a status that does not run out.
        after: i64,
        /// What made it.
        by: By,
    },
    /// One die of a roll: its face, and whether it counted.
    Die {
        /// Who rolled.
        entity: EntityId,
        /// Its face.
        face: i64,
        /// False when a keep (`kh`, `kl`) dropped it.
        kept: bool,
    },
    /// A roll is done; its dice are the [`GameEvent::Die`]s just before.
    Rolled {
        /// Who rolled.
        entity: EntityId,
        /// Faces of each die.
        sides: u16,
        /// Which dice counted.
        keep: crate::dice::KeepKind,
        /// Added to the dice kept.
        modifier: i64,
        /// The result.
        total: i64,
    },
    /// `[advantage …]` or `[disadvantage …]` kept one of two values.
    Kept {
        /// Who rolled.
        entity: EntityId,
        /// True when the higher was kept.
        higher: bool,
        /// The value kept.
        kept: i64,
        /// The other.
        other: i64,
    },
    /// An entity entered play (`{:spawn …}`).
    Spawned {
        /// Its number.
        entity: EntityId,
        /// Its kind.
        kind: KindId,
    },
    /// An entity left play: its kind's `:removed-when` held.
    Removed {
        /// Which.
        entity: EntityId,
    },
    /// An entity that is not a seat took its turn (its kind's `:on-turn`).
    EntityTurn {
        /// Which.
        entity: EntityId,
    },
    /// A scripted entity chose its next move: its intent, shown to every seat.
    Intends {
        /// Which.
        entity: EntityId,
        /// Its kind, whose `:moves` the move is of.
        kind: KindId,
        /// The move, by its index in its kind's `:moves`.
        chosen: u8,
        /// The amount shown with it, if the move has one.
        amount: Option<i64>,
    },
    /// The amount a scripted entity's intent shows changed (a strength
    /// gained): the same move, shown anew.
    IntentChanged {
        /// Which.
        entity: EntityId,
        /// Its kind, whose `:moves` the move is of.
        kind: KindId,
        /// The move, by its index in its kind's `:moves`.
        chosen: u8,
        /// The amount shown with it now.
        amount: Option<i64>,
    },
    /// A scripted entity did the move it intended.
    MoveDone {
        /// Which.
        entity: EntityId,
        /// Its kind, whose `:moves` the move is of.
        kind: KindId,
        /// The move, by its index in its kind's `:moves`.
        chosen: u8,
    },
    /// A timed queue entry came up and ran its timing.
    TimedRan {
        /// The timing.
        timing: TimingId,
        /// For whom.
        entity: EntityId,
    },
    /// A card moved from one pile to another (a zone's, or a seat's own of
    /// a zone per seat; see [`crate::check::rules::ZoneSet::pile_place`]).
    Moved {
        /// The card's instance.
        card: EntityId,
        /// Its card.
        def: CardId,
        /// The pile it left; [`crate::eval::zones::MADE`] for a card just made.
        from: u16,
        /// The pile it went to.
        to: u16,
        /// Its place there, from the bottom.
        at: u32,
        /// The seats that saw or knew it at either end, bit `s` for seat `s`.
        seen: u64,
        /// What moved it.
        by: By,
    },
    /// A pile was shuffled, after the cards of another moved onto it (a
    /// reshuffle of the discards into an empty deck).
    Shuffled {
        /// The pile shuffled.
        pile: u16,
        /// The pile whose cards moved in first, if any.
        from: Option<u16>,
        /// How many moved in.
        moved: u32,
        /// How many it holds.
        cards: u32,
    },
    /// A card was shown to seats (`{:look …}`, `{:reveal …}`), who know it
    /// from now on, until its place is lost to them.
    Shown {
        /// The card's instance.
        card: EntityId,
        /// Its card.
        def: CardId,
        /// The pile it is in.
        pile: u16,
        /// The seats it was shown to, bit `s` for seat `s`.
        to: u64,
        /// What showed it.
        by: By,
    },
    /// The seat ended its turn (`:turns {:plays :many}`).
    EndedTurn {
        /// Who.
        seat: EntityId,
    },
    /// A simultaneous turn begins: these seats choose at once, unseen, and
    /// their choices resolve together, in seat order.
    AtOnce {
        /// The seats, bit `s` for seat `s`.
        seats: u64,
    },
    /// A step ran out of a budget there: recorded just before the game ends
    /// as aborted.
    OutOfBudget(crate::eval::Place),
    /// A card being played aims at this entity (one of its `:targets`).
    Aimed {
        /// The card.
        card: CardId,
        /// What it aims at.
        target: EntityId,
    },
    /// A card's activated ability is used: the changes after it until the next entry are its.
    Used {
        /// Whose turn it is.
        seat: EntityId,
        /// The card.
        card: CardId,
        /// The instance used.
        instance: EntityId,
        /// Which of its `:abilities`, from 0.
        ability: u8,
    },
    /// A card being played found no candidate left for a target: it does nothing.
    Fizzled {
        /// The card.
        card: CardId,
    },
    /// A card's trigger runs: the changes after it until the next entry are its.
    Triggered {
        /// The card.
        card: CardId,
        /// The instance whose trigger it is.
        instance: EntityId,
        /// The keyword whose trigger it is (`u16::MAX`: the card's own).
        keyword: u16,
        /// Which of the card's (or keyword's) triggers, from 0.
        index: u16,
    },
    /// A chain of triggers was stopped by `:budgets :trigger-runs` or `:trigger-depth`.
    TriggerLoop {
        /// The card whose trigger was next.
        card: CardId,
        /// The runs the chain had made.
        runs: u32,
        /// The depth of the run that was next.
        depth: u8,
        /// How many queued runs were dropped.
        dropped: u32,
    },
    /// The game ended.
    Ended(Outcome),
    /// A seat asked to answer a card with a reaction let it resolve.
    Declined {
        /// Who passed.
        seat: EntityId,
        /// The card it let resolve.
        card: CardId,
    },
    /// A card was cancelled by a reaction: its effects do not run.
    Cancelled {
        /// The card cancelled.
        card: CardId,
        /// The reaction that cancelled it.
        by: CardId,
    },
}

impl Game<'_> {
    pub(super) fn record(&mut self, e: GameEvent) {
        if let Some(log) = &mut self.log {
            log.push(e);
        }
    }

    /// Notes the evaluator's events for victory checks and the log, each made
    /// `by`; then takes out of play whatever fell, running their kinds' `:on-removed`.
    pub(super) fn flush_events(&mut self, by: impl Fn(Cause) -> By) {
        // Only a game whose cards have abilities: one test on every other's path.
        if self.triggers.is_some() {
            self.before_notes();
        }
        self.flush_plain(by);
        if self.triggers.is_some() {
            self.after_notes();
        }
    }

    /// Notes the changes auras made, as [`Game::flush_events`] notes others.
    pub(super) fn note_aura_events(&mut self, card: CardId) {
        self.note_events(&|_| By::Aura(card));
    }

    /// [`Game::flush_events`] for a game whose cards have no abilities (its
    /// classic card play, which never has any): the events noted, the queue's
    /// requests taken, what fell taken out of play. Always inline: the
    /// classic `act` calls it after a card's cost and effects, and out of
    /// line it cost Arcomage 2 % of instructions (measured).
    #[inline(always)]
    pub(super) fn flush_plain(&mut self, by: impl Fn(Cause) -> By) {
        self.note_events(&by);
        if !self.state.queued.is_empty() {
            self.take_queued();
        }
        if self.removals {
            let seat = self.current.index();
            let roles = &self.roles[seat * self.role_count..(seat + 1) * self.role_count];
            self.state
                .remove_fallen(self.rules, roles, &mut self.removed, &mut self.events);
            // Taken and handed back emptied: its buffer is kept.
            let mut removed = std::mem::take(&mut self.removed);
            for &entity in &removed {
                self.record(GameEvent::Removed { entity });
                self.changed = true;
                self.dirty = u64::MAX;
            }
            removed.clear();
            self.removed = removed;
            if !self.events.is_empty() {
                if self.triggers.is_some() {
                    self.match_batch();
                }
                self.note_events(&By::Removal);
            }
        }
    }

    /// Notes the evaluator's events for victory checks and the log, each made `by`.
    /// Inline: in one file with its callers it was inlined; apart, it was
    /// not; and once `act` grew, only when forced (+1.8 % on Arcomage).
    #[inline(always)]
    fn note_events(&mut self, by: &impl Fn(Cause) -> By) {
        // Only a game whose metrics count events: one test on every other's path.
        if self.meter.is_some() {
            self.meter_batch();
        }
        let width = self.rules.attributes.len();
        for e in &self.events {
            match e.what {
                // Only values some victory condition reads can end the game.
                What::Attr(attr) => {
                    if self.watched[attr.index()] {
                        self.changed = true;
                        self.dirty |= bit(e.entity.index() * width + attr.index());
                    }
                }
                // A condition may read statuses or entities: every one is checked
                // again. A card moved may have entered or left play.
                What::Status(..) | What::Spawned(_) | What::Moved(..) => {
                    self.changed = true;
                    self.dirty = u64::MAX;
                }
                // A roll changes nothing by itself, nor does a shuffle or a look.
                What::Die(_)
                | What::Rolled(..)
                | What::Kept(_)
                | What::Shuffled(..)
                | What::Shown(_)
                | What::Fell(_) => {}
            }
        }
        if let Some(log) = &mut self.log {
            let table = self.state.cards.as_deref();
            log.extend(self.events.iter().filter_map(|e| {
                Some(match e.what {
                    What::Moved(from, to) => GameEvent::Moved {
                        card: e.entity,
                        def: table.and_then(|t| t.card(e.entity)).unwrap_or(CardId::MAX),
                        from,
                        to,
                        at: u32::try_from(e.after).unwrap_or(u32::MAX),
                        seen: e.before as u64,
                        by: by(e.cause),
                    },
                    What::Shown(pile) => GameEvent::Shown {
                        card: e.entity,
                        def: table.and_then(|t| t.card(e.entity)).unwrap_or(CardId::MAX),
                        pile,
                        to: e.before as u64,
                        by: by(e.cause),
                    },
                    What::Shuffled(pile, from) => GameEvent::Shuffled {
                        pile,
                        from: (from != crate::eval::zones::MADE).then_some(from),
                        moved: u32::try_from(e.before).unwrap_or(0),
                        cards: u32::try_from(e.after).unwrap_or(0),
                    },
                    What::Attr(attr) => GameEvent::Changed {
                        change: Change {
                            entity: e.entity,
                            attr,
                            before: e.before,
                            after: e.after,
                        },
                        by: by(e.cause),
                    },
                    What::Spawned(kind) => GameEvent::Spawned {
                        entity: e.entity,
                        kind,
                    },
                    What::Die(_) => GameEvent::Die {
                        entity: e.entity,
                        face: e.after,
                        kept: e.before == 1,
                    },
                    What::Rolled(sides, keep) => GameEvent::Rolled {
                        entity: e.entity,
                        sides,
                        keep,
                        modifier: e.before,
                        total: e.after,
                    },
                    What::Kept(higher) => GameEvent::Kept {
                        entity: e.entity,
                        higher,
                        kept: e.after,
                        other: e.before,
                    },
                    What::Status(status, change) => GameEvent::Status {
                        entity: e.entity,
                        status,
                        change,
                        before: e.before,
                        after: e.after,
                        by: by(e.cause),
                    },
                    // Its moves and its leaving play are logged.
                    What::Fell(_) => return None,
                })
            }));
        }
        self.events.clear();
    }
}

/// The operation a cause came through, by name, for logs.
pub fn via_name(rules: &RuleSet, via: Option<OpId>) -> Option<&str> {
    via.map(|o| rules.operations[o].as_str())
}
