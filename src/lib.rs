//! grimoire: a data-driven card and effect engine.
//!
//! Designers write cards, effects and rule sets as EDN-shaped data; grimoire
//! reads them ([`syntax`]), checks them against a rule set ([`check`],
//! [`rules`]) into a typed AST ([`ast`]), and applies them to game state
//! ([`eval`]), with diagnostics that point at the exact place ([`diag`]).
//!
//! ```
//! use grimoire::{check::rules::RuleSet, eval::{State, apply}, ids::EntityId, syntax::{Arena, read_one}};
//!
//! let rules = RuleSet::bundled("arcomage").unwrap().unwrap();
//! let arena = Arena::new(); // what was read lives here until checked
//! let form = read_one(&arena, "[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]").unwrap();
//! let effects = rules.check_effects(&form).unwrap();
//! let mut state = State::new(&rules, 2, 7);
//! let wall = rules.attribute("wall").unwrap();
//! let (you, other) = (EntityId::new(0), EntityId::new(1)); // the seats' players
//! state.put(you, wall, 0);
//! let mut events = Vec::new();
//! apply(&rules, &effects, &mut state, &[you, other], &mut events);
//! assert_eq!(state.get(you, wall), 6);
//! ```

#![warn(missing_docs)]

pub mod bundled;
pub mod check;
pub mod cli;
pub mod diag;
pub mod dice;
pub mod engine;
pub mod eval;
pub mod files;
pub mod formatter;
pub mod ids;
pub mod scenario;
pub mod sim;
pub mod syntax;
