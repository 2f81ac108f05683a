//! The one play-out loop: a [`Decider`] picks each action, the game acts, an
//! [`Observer`] watches, until the game ends or one of them stops it.
//! Simulation, the invariant checks and `grimoire play` all play games
//! through [`play_out`]; each brings its own observer (per-card counts, the
//! invariant checker, the log and the recording), and `()` watches nothing.
//!
//! Both are generic parameters, not trait objects: the loop is compiled anew
//! for each, so an observer that does nothing costs nothing.

use std::ops::ControlFlow;

use super::ai::{Ai, Policy};
use super::{Action, Game, Illegal};

/// Who picks the actions of a game.
pub trait Decider {
    /// The action of the entity whose turn it is; `None` when there is none
    /// to take, or the decider gives up.
    fn decide(&mut self, game: &mut Game<'_>) -> Option<Action>;

    /// Whether to decide again after the engine refused the action decided
    /// (`refused` says why). A person is told and asked again; a computer
    /// player is not, and the play-out ends.
    fn retry(&mut self, _game: &Game<'_>, _refused: &Illegal) -> bool {
        false
    }
}

/// Computer players: each seat's policy (see [`Policy::for_seat`]) picks.
pub struct Computer<'a> {
    /// The players' reused buffers.
    pub ai: &'a mut Ai,
    /// One policy per seat, or the last for the rest.
    pub policies: &'a [Policy],
}

impl Decider for Computer<'_> {
    #[inline]
    fn decide(&mut self, game: &mut Game<'_>) -> Option<Action> {
        let policy = Policy::for_seat(self.policies, game.current.index());
        self.ai.choose(game, policy)
    }
}

/// What watches a play-out: told before each decision, of each action
/// decided before it is done, and after each action done, when it may stop
/// the game. Every method does nothing unless an observer says otherwise.
pub trait Observer {
    /// What an observer that stops the game hands back.
    type Stop;

    /// Before the entity whose turn it is decides.
    fn deciding(&mut self, _game: &Game<'_>) {}

    /// The action decided, before the game does it (it may yet be refused).
    fn chosen(&mut self, _game: &mut Game<'_>, _action: Action) {}

    /// After an action was done: `Break` stops the game there.
    fn acted(&mut self, _game: &Game<'_>) -> ControlFlow<Self::Stop> {
        ControlFlow::Continue(())
    }
}

/// Watches nothing.
impl Observer for () {
    type Stop = std::convert::Infallible;
}

/// How a play-out ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending<S> {
    /// The game is over by its rules ([`Game::outcome`] says how).
    Over,
    /// The decider had no action to take.
    NoAction,
    /// The engine refused the action decided, and the decider did not decide again.
    Refused(Action, Illegal),
    /// The observer stopped the game.
    Stopped(S),
}

/// Plays `game` from where it is: `decider` picks, the game acts, `observer`
/// watches, until the game is over, the decider has nothing to take, the
/// engine refuses what it picked, or the observer stops it.
#[inline]
pub fn play_out<D: Decider, O: Observer>(
    game: &mut Game<'_>,
    decider: &mut D,
    observer: &mut O,
) -> Ending<O::Stop> {
    while game.outcome().is_none() {
        observer.deciding(game);
        let Some(action) = decider.decide(game) else {
            return Ending::NoAction;
        };
        observer.chosen(game, action);
        match game.act(action) {
            Ok(()) => {
                if let ControlFlow::Break(stop) = observer.acted(game) {
                    return Ending::Stopped(stop);
                }
            }
            Err(refused) => {
                if !decider.retry(game, &refused) {
                    return Ending::Refused(action, refused);
                }
            }
        }
    }
    Ending::Over
}
