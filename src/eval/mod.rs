//! The evaluator: checked effects applied to a state, one event per change.
//!
//! Evaluation cannot fail: names were resolved and types checked before, integer
//! arithmetic saturates, division by zero gives 0, and every chance draws from
//! the seeded generator inside the [`State`]. Applying effects allocates nothing
//! beyond the growth of the caller's event buffer.
//!
//! The state and its queue requests (`state.rs`); events and their causes
//! (`event.rs`); effects applied, one change at a time, and `{:run :timing}`
//! with timings run outside a game (`effects.rs`);
//! expressions evaluated, role bindings, dice rolled and logged (`expr.rs`);
//! statuses (`status.rs`); and the compiled form of what a game runs most
//! (`compiled.rs`).

mod card_ops;
mod compiled;
mod effects;
mod event;
mod expr;
mod state;
mod status;
pub mod zones;
pub use card_ops::{give_keywords, members};
pub use compiled::{CompiledBool, CompiledEffects, CompiledInt, Program};
pub use effects::{add_to, apply, run_timing};
pub use event::{Cause, Event, What};
pub use expr::{Value, eval_expr, holds, value, value_logged, with_bindings};
pub use state::{
    Exhausted, FUEL, MAX_ENTITIES, MAX_INSTANCES, MAX_QUEUED, MAX_REMOVAL_WAVES, MAX_RUN_DEPTH,
    MAX_STATUS_DEPTH, Owner, Place, QueueRequest, Rng, State,
};
pub use status::{
    Instance, StatusChange, acquire, acquire_lasting, end_status, forget_statuses,
    run_status_timing,
};

// The kinds out of play, shared by the state and the card table.
use state::{GONE, ZONED};

// What the evaluator's files share among themselves, by the names
// `compiled.rs` and `status.rs` use (`super::int`).
use effects::{
    Change, Target, apply_one, at_once, change_modified, change_value, run, run_nested, timing,
};
use expr::{Frame, boolean, dec, each_of_kind, entity, flush_rolls, int};
