//! Events: one change an effect made (to an attribute, a status, an entity's
//! presence, or a die rolled), what it changed, and why.

use serde::Serialize;

use crate::check::ast::{AttrId, EntityId, OpId, StatusId};
use crate::check::rules::KindId;

use super::StatusChange;

/// Why a change happened: which effect of the applied list, and through which operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
///
/// Six bytes, `None` written as `u16::MAX`, so that `Option<Cause>` fits a
/// register: passed through memory, it stalled every event's store (measured:
/// Foundations 16 → 26 ns).
pub struct Cause {
    /// Index of the effect in the list that was applied.
    pub effect: u16,
    via: OpId,
    status: StatusId,
}

/// How a [`Cause`] writes "none".
const NONE: OpId = OpId::MAX;

impl Cause {
    /// The `effect`-th effect of the list applied, on its own.
    pub fn effect(effect: usize) -> Cause {
        Cause {
            effect: u16::try_from(effect).unwrap_or(u16::MAX),
            via: NONE,
            status: StatusId::MAX,
        }
    }

    /// The operation the change was made in, if it came through one (`:damage`).
    pub fn via(self) -> Option<OpId> {
        (self.via != NONE).then_some(self.via)
    }

    /// The status whose effects made it, if a status's did (on acquiring it,
    /// at a timing, on its end).
    pub fn status(self) -> Option<StatusId> {
        (self.status != StatusId::MAX).then_some(self.status)
    }

    /// The same cause, made through operation `op` (the outermost one, if it already was).
    pub fn through(self, op: OpId) -> Cause {
        Cause {
            via: if self.via == NONE { op } else { self.via },
            ..self
        }
    }

    /// The same cause, made by status `status`'s effects.
    pub fn by_status(self, status: StatusId) -> Cause {
        Cause { status, ..self }
    }
}

/// What an event changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum What {
    /// An attribute: the event's values are the attribute's, as effects see it.
    Attr(AttrId),
    /// A status: the event's values are its turns left (its stacks, for
    /// [`StatusChange::Stacked`]).
    Status(StatusId, StatusChange),
    /// The entity entered play, of this kind (`{:spawn …}`); its values are 0.
    Spawned(KindId),
    /// One die of a roll, of this many faces: `after` is its face; `before`
    /// is 1 if it counts, 0 if a keep (`kh`, `kl`) dropped it. The dice of a
    /// roll come just before its [`What::Rolled`].
    Die(u16),
    /// A roll of dice of this many faces is done: `before` is its modifier
    /// (`+2`), `after` its total; the keep says which dice counted.
    Rolled(u16, crate::dice::KeepKind),
    /// `[advantage …]` (true: the higher kept) or `[disadvantage …]`: `after`
    /// is the value kept, `before` the other.
    Kept(bool),
    /// The entity, a card, moved from one pile to another (see
    /// [`super::zones`]; `from` is [`super::zones::MADE`] for a card just
    /// made): `after` is its place in the pile it went to, `before` the seats
    /// that saw or knew it at either end (bit `s` for seat `s`).
    Moved(u16, u16),
    /// A pile was shuffled (the first), after the cards of another moved in
    /// (the second; [`super::zones::MADE`] for none): `before` is how many
    /// moved in, `after` how many it holds.
    Shuffled(u16, u16),
    /// The entity, a card in this pile, was shown (`{:look …}`,
    /// `{:reveal …}`): `before` holds the seats it was shown to (bit `s`
    /// for seat `s`), `after` its place in the pile.
    Shown(u16),
    /// The entity, a card in play, fell (its kind's `:removed-when` held) or
    /// was destroyed, and is about to go where its zone sends what leaves it:
    /// `before` is its place in the pile it was in (its slot), `after` that
    /// pile. Only with `:zones`, for triggers that wait for a death.
    Fell(u16),
}

/// One change: to an attribute, or to an entity's statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    /// The entity changed.
    pub entity: EntityId,
    /// What changed.
    pub what: What,
    /// Its value before.
    pub before: i64,
    /// Its value after, within the attribute's bounds.
    pub after: i64,
    /// What made it.
    pub cause: Cause,
}

impl Event {
    /// The attribute changed, if an attribute was.
    #[inline]
    pub fn attr(&self) -> Option<AttrId> {
        match self.what {
            What::Attr(a) => Some(a),
            What::Status(..)
            | What::Spawned(_)
            | What::Die(_)
            | What::Rolled(..)
            | What::Kept(_)
            | What::Moved(..)
            | What::Shuffled(..)
            | What::Shown(_)
            | What::Fell(_) => None,
        }
    }
}
