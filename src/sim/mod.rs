//! The simulation core, below the CLI: seeded runs of many games played
//! through the engine's one play-out loop, their sums ([`Tally`]), the
//! per-card statistics, the declared metrics' means, a run's figures as one result ([`RunFigures`]), two
//! decks compared, and runs checked against the game invariants. No I/O and
//! no rendering: the CLI prints these results, the Python package hands them
//! over as dictionaries, and the benches time [`run_games`].

pub mod cardstats;
pub mod checked;
pub mod compare;
pub mod metrics;
pub mod report;
pub mod run;
pub mod tally;

pub use cardstats::{Counts, Difference, Figures, Rate};
pub use checked::{CheckedRun, Failure, check_range};
pub use compare::Comparison;
pub use report::{Played, RunFigures, card_rows, fingerprint, sort_columns};
pub use run::{Shard, game_seed, run_all, run_games, run_range, run_range_until};
pub use tally::{Stop, Tally};
