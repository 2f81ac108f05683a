//! `grimoire._grimoire`: the native half of the Python package.
//!
//! `check` and `eval` run the library's own implementation of the CLI
//! command of the same name and hand back its exit code and output, so that
//! what Python sees is, byte for byte, what `grimoire … --format json`
//! prints. `simulate` and `merge` play and add up games with the library's
//! simulation core (`grimoire::sim`) and hand back the figures as
//! dictionaries, built from the same structs (`grimoire::cli::SimJson`) the
//! CLI prints its JSON from; a failure comes back as the CLI would print it.
//! The Python half (`grimoire/__init__.py`) raises on errors. A [`Match`] is
//! one game an agent plays move by move (the PettingZoo environments), in
//! the rule set's fixed action space, observing one seat's view
//! (`grimoire::engine::observe`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use grimoire::check::defs::Card;
use grimoire::check::rules::RuleSet;
use grimoire::cli::{self, EvalArgs, Format, Output, SimArgs, SimJson};
use grimoire::engine::ai::{Ai, Policy};
use grimoire::engine::observe::{self, ActionSpace, ObsLayout, Ranks};
use grimoire::engine::{Action, Game, Log, Outcome};
use grimoire::files::{CardChange, Library};
use grimoire::ids::EntityId;
use grimoire::sim::{self, Shard};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// What a command printed: exit code, standard output, standard error.
type Printed = (i32, String, String);

fn printed(out: Output) -> Printed {
    (out.code, out.stdout, out.stderr)
}

/// A run's figures: exit code 0, the figures as dictionaries and the notes
/// the CLI says on standard error beside them (`--threads` past the cores);
/// or the exit code, standard output and standard error of the CLI's
/// refusal (no figures).
type Figures = (i32, Option<Py<PyAny>>, String, String);

/// The figures as Python objects with their notes, or the refusal as printed.
fn figures(py: Python<'_>, result: Result<(SimJson, String), Output>) -> PyResult<Figures> {
    match result {
        Ok((json, notes)) => Ok((
            0,
            Some(to_python(py, &json.to_value())?),
            String::new(),
            notes,
        )),
        Err(out) => Ok((out.code, None, out.stdout, out.stderr)),
    }
}

/// A JSON value as the Python object `json.loads` reads from its text:
/// dictionaries in the same key order, integers as `int`, others as `float`.
fn to_python(py: Python<'_>, value: &serde_json::Value) -> PyResult<Py<PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any().unbind(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any().unbind(),
            (None, None) => n
                .as_f64()
                .unwrap_or(f64::NAN)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(entries) => {
            let dict = PyDict::new(py);
            for (key, item) in entries {
                dict.set_item(key, to_python(py, item)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

fn paths(list: Vec<String>) -> Vec<PathBuf> {
    list.into_iter().map(PathBuf::from).collect()
}

fn policies(names: &[String]) -> PyResult<Vec<Policy>> {
    names
        .iter()
        .map(|n| {
            Policy::parse(n).map_err(|e| PyValueError::new_err(format!("unknown AI: {e}")))
        })
        .collect()
}

/// `grimoire check PATHS --format json`.
#[pyfunction]
#[pyo3(signature = (paths, rules=None))]
fn check(py: Python<'_>, paths: Vec<String>, rules: Option<String>) -> Printed {
    let paths = self::paths(paths);
    py.detach(|| printed(cli::check(&paths, rules.as_deref(), Format::Json, false)))
}

/// How often a long call looks for a signal (Ctrl-C) while it runs.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Waits for `receiver`'s one message with the interpreter released,
/// looking for a signal every [`SIGNAL_CHECK`]: a signal's exception (Ctrl-C's
/// `KeyboardInterrupt`) is returned at once, `stop` set first.
fn wait_for<T: Send>(py: Python<'_>, receiver: Receiver<T>, stop: &AtomicBool) -> PyResult<T> {
    let mut receiver = receiver;
    loop {
        let (got, back) = py.detach(move || (receiver.recv_timeout(SIGNAL_CHECK), receiver));
        receiver = back;
        match got {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "grimoire stopped with an internal error",
                ));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
    }
}

/// `grimoire eval --rules RULES EFFECTS --format json`, with `--set` for
/// each of `sets`, `--status` for each of `statuses` and `--then` for each
/// of `then`: run on a thread of its own with the interpreter released, so
/// other Python threads go on and Ctrl-C raises `KeyboardInterrupt` at once
/// (the evaluation, which cannot be stopped from outside, ends on that
/// thread, within the evaluator's own limits, and its result is dropped).
#[pyfunction]
#[pyo3(signature = (rules, effects, sets=Vec::new(), seed=None, statuses=Vec::new(), then=Vec::new()))]
fn eval(
    py: Python<'_>,
    rules: String,
    effects: String,
    sets: Vec<String>,
    seed: Option<u64>,
    statuses: Vec<String>,
    then: Vec<String>,
) -> PyResult<Printed> {
    let args = EvalArgs {
        rules,
        effects,
        file: None,
        card: None,
        cards: Vec::new(),
        sets,
        state: None,
        seed,
        seeds: None,
        statuses,
        then,
        format: Format::Json,
        color: false,
    };
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("grimoire eval".to_string())
        // The main thread's stack, as the CLI evaluates on.
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = sender.send(printed(cli::eval(&args)));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the evaluation: {e}")))?;
    wait_for(py, receiver, &AtomicBool::new(false))
}

/// The figures of `grimoire simulate RULES --games GAMES --seed SEED --format
/// json`, the interpreter released while the games run.
#[pyfunction]
#[pyo3(signature = (rules, games, seed, ai=Vec::new(), cards=Vec::new(), threads=None, shard=None, sort=None, changes=Vec::new(), encounter=None, players=None))]
#[allow(clippy::too_many_arguments)]
fn simulate(
    py: Python<'_>,
    rules: String,
    games: u64,
    seed: u64,
    ai: Vec<String>,
    cards: Vec<String>,
    threads: Option<usize>,
    shard: Option<(u64, u64)>,
    sort: Option<String>,
    changes: Vec<(String, String, String)>,
    encounter: Option<String>,
    players: Option<usize>,
) -> PyResult<Figures> {
    let ai = policies(&ai)?;
    let changes = changes
        .iter()
        .map(|(card, key, value)| CardChange::new(card, key, value))
        .collect::<Result<_, _>>()
        .map_err(PyValueError::new_err)?;
    let shard = match shard {
        Some((index, of)) => {
            Some(Shard::parse(&format!("{index}/{of}")).map_err(PyValueError::new_err)?)
        }
        None => None,
    };
    let args = SimArgs {
        rules,
        cards: paths(cards),
        encounter,
        players,
        games,
        seed,
        ai,
        threads,
        format: Format::Json,
        csv: false,
        sort,
        versus: Vec::new(),
        report: None,
        record_game: None,
        shard,
        changes,
        progress: false,
        color: false,
    };
    // The CLI's checks and loading, so that a refusal is word for word its own.
    let prepared = match py.detach(|| cli::prepare_simulation(&args)) {
        Ok(prepared) => prepared,
        Err(out) => return figures(py, Err(out)),
    };
    // The games on a thread of their own, so that Ctrl-C stops them: the
    // games under way end and no other starts.
    let stop = AtomicBool::new(false);
    let tally = std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::channel();
        let (prepared, args, stop_flag) = (&prepared, &args, &stop);
        let worker = scope.spawn(move || {
            let done = AtomicU64::new(0);
            let tally = prepared.pool.install(|| {
                sim::run_range_until(
                    &prepared.rules,
                    &prepared.deck,
                    args.seed,
                    args.games_played(),
                    &args.ai,
                    &done,
                    stop_flag,
                )
            });
            let _ = sender.send(tally);
        });
        let tally = wait_for(py, receiver, &stop);
        // Stopped, the games under way finish before the error is raised.
        let _ = py.detach(move || worker.join());
        tally
    })?;
    figures(
        py,
        Ok((
            SimJson::of(&prepared, &args, &tally),
            prepared.notes.clone(),
        )),
    )
}

/// The figures of `grimoire merge --format json` of shards given as JSON text.
#[pyfunction]
fn merge(py: Python<'_>, shards: Vec<String>) -> PyResult<Figures> {
    let named: Vec<(String, String)> = shards
        .into_iter()
        .enumerate()
        .map(|(i, text)| (format!("shard #{}", i + 1), text))
        .collect();
    let merged = py.detach(|| cli::merge_figures(&named, false).map(|json| (json, String::new())));
    figures(py, merged)
}

/// A rule set and its deck, loaded once, which a match's game borrows.
struct Loaded {
    rules: RuleSet,
    deck: Vec<Card>,
}

self_cell::self_cell!(
    struct Playing {
        owner: Loaded,
        #[not_covariant]
        dependent: Game,
    }
);

/// One game an agent plays move by move: the seats take turns; each move is
/// an index of the rule set's fixed action space (`grimoire::engine::observe`):
/// the same index means the same thing in every game ([`Match::action_to_string`]).
#[pyclass(module = "grimoire._grimoire")]
struct Match {
    playing: Playing,
    /// Each seat's opponent policy when `play_ai` moves for it.
    ai: Ai,
    space: ActionSpace,
    layout: ObsLayout,
    /// The ranks of the game's entities, brought up to date after every move.
    ranks: Ranks,
    /// The legal actions now, and their indices as a mask.
    legal: Vec<Action>,
    mask: Vec<u8>,
    /// Legal actions now that have no index (past a kind's ranks or a pile's places).
    overflowed: usize,
}

impl Match {
    /// After a move or a reset: the new entities ranked, the legal actions masked.
    fn refresh(&mut self) {
        let (space, ranks, legal, mask) = (
            &self.space,
            &mut self.ranks,
            &mut self.legal,
            &mut self.mask,
        );
        let masked = self.playing.with_dependent_mut(|_, game| {
            ranks.update(game);
            space.mask(game, ranks, legal, mask)
        });
        self.overflowed = masked.overflowed;
    }

    /// Index `i`, refused past the end of the action space.
    fn index(&self, i: usize) -> PyResult<usize> {
        if i < self.space.len() {
            Ok(i)
        } else {
            Err(PyValueError::new_err(format!(
                "action {i}: the action space of `{}` has {} indices, 0 to {}",
                self.space.rules_name(),
                self.space.len(),
                self.space.len().saturating_sub(1)
            )))
        }
    }
}

#[pymethods]
impl Match {
    /// A new game of `rules` (a rule set of the project, a bundled one, or
    /// a rule-set file) with its own deck or `cards`, seeded `seed`: loaded
    /// as the CLI loads them, so a file in a `rules/` folder beside
    /// `cards/NAME/` plays that deck. A rule set whose action space would
    /// pass 4,096 indices is a `ValueError` saying how many. A rule set with
    /// `:encounters` sets its games up as `encounter` (default: its first);
    /// one with `:players` is played by `players` of its seats (default: its
    /// `:default`), and its spaces follow that count.
    #[new]
    #[pyo3(signature = (rules, seed=0, cards=Vec::new(), encounter=None, players=None))]
    fn new(
        rules: &str,
        seed: u64,
        cards: Vec<String>,
        encounter: Option<String>,
        players: Option<usize>,
    ) -> PyResult<Match> {
        let library = Library::current();
        let mut opened = library
            .open(rules)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let deck = opened
            .deck(library, &paths(cards), &[])
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut ruleset = opened.rules;
        if let Some(name) = &encounter {
            ruleset.choose_encounter(name).map_err(PyValueError::new_err)?;
        }
        if let Some(n) = players {
            ruleset.choose_players(n).map_err(PyValueError::new_err)?;
        }
        let space = ActionSpace::new(&ruleset, &deck.cards)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let layout = ObsLayout::new(&ruleset, &deck.cards, &space);
        let ranks = Ranks::new(&ruleset);
        let loaded = Loaded {
            rules: ruleset,
            deck: deck.cards,
        };
        let playing = Playing::try_new(loaded, |l| Game::new(&l.rules, &l.deck, seed, Log::Skip))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut m = Match {
            playing,
            ai: Ai::new(),
            mask: vec![0; space.len()],
            space,
            layout,
            ranks,
            legal: Vec::new(),
            overflowed: 0,
        };
        m.refresh();
        Ok(m)
    }

    /// Starts over with a new seed, as a new match would.
    fn reset(&mut self, seed: u64) {
        self.playing.with_dependent_mut(|_, game| game.reset(seed));
        self.ranks.reset();
        self.refresh();
    }

    /// The rule set's name (`arcomage`, `skirmish`), however it was given.
    #[getter]
    fn name(&self) -> String {
        self.playing.borrow_owner().rules.name.clone()
    }

    /// The seats' names, in seat order.
    #[getter]
    fn seats(&self) -> Vec<String> {
        self.playing.borrow_owner().rules.seats.clone()
    }

    /// The seat to move.
    #[getter]
    fn current(&self) -> usize {
        self.playing
            .with_dependent(|_, game| game.ctx().current.index())
    }

    /// How many indices the action space has.
    #[getter]
    fn action_count(&self) -> usize {
        self.space.len()
    }

    /// How many numbers an observation holds.
    #[getter]
    fn observation_size(&self) -> usize {
        self.layout.len()
    }

    /// How many legal moves have no index now (an entity past its kind's
    /// ranks, a card in a pile not shown place by place): they cannot be
    /// chosen, and are left out of `legal()`.
    #[getter]
    fn overflowed(&self) -> usize {
        self.overflowed
    }

    /// The indices of the moves the seat to move may make, in increasing order.
    fn legal(&self) -> Vec<usize> {
        (0..self.mask.len())
            .filter(|&i| self.mask[i] == 1)
            .collect()
    }

    /// The legal moves with what each does now (`play Ogre (slot 3)`,
    /// `hero: move cell-2-3`), in increasing order of index.
    fn legal_actions(&self) -> Vec<(usize, String)> {
        self.playing.with_dependent(|_, game| {
            self.legal()
                .into_iter()
                .filter_map(|i| Some((i, self.space.describe_in(game, &self.ranks, i)?)))
                .collect()
        })
    }

    /// What index `action` means in every game of the rule set: `play hand
    /// slot 3`, `hero: move cell-2-3`; a `ValueError` past the end.
    fn action_to_string(&self, action: usize) -> PyResult<String> {
        let i = self.index(action)?;
        let rules = &self.playing.borrow_owner().rules;
        Ok(self.space.describe(rules, i).unwrap_or_default())
    }

    /// What `seat` sees (see `observation_layout`). A seat the game does not
    /// have is a `ValueError`.
    fn observe(&self, seat: usize) -> PyResult<Vec<i64>> {
        let mut out = vec![0i64; self.layout.len()];
        self.playing
            .with_dependent(|_, game| self.layout.encode(game, &self.ranks, seat, &mut out))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(out)
    }

    /// The observation's fields, in order: each a dict of `name`, `offset`,
    /// `shape`, `low`, `high` and `doc`.
    fn observation_layout(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.layout
            .fields()
            .iter()
            .map(|f| {
                let d = PyDict::new(py);
                d.set_item("name", &f.name)?;
                d.set_item("offset", f.offset)?;
                d.set_item("shape", pyo3::types::PyTuple::new(py, &f.shape)?)?;
                d.set_item("low", f.low)?;
                d.set_item("high", f.high)?;
                d.set_item("doc", &f.doc)?;
                Ok(d.into_any().unbind())
            })
            .collect()
    }

    /// Each number's least and greatest value, in observation order.
    fn observation_bounds(&self) -> (Vec<i64>, Vec<i64>) {
        (self.layout.low().to_vec(), self.layout.high().to_vec())
    }

    /// What `play --human` shows `seat`'s player: the state as a player sees
    /// it and its own hand. A seat the game does not have is a `ValueError`.
    fn render(&self, seat: usize) -> PyResult<String> {
        let seats = self.playing.borrow_owner().rules.seats.len();
        if seat >= seats {
            return Err(PyValueError::new_err(format!(
                "seat {seat}: the game has {seats} seats, 0 to {}",
                seats.saturating_sub(1)
            )));
        }
        Ok(self
            .playing
            .with_dependent(|_, game| cli::seat_screen(game, EntityId::new(seat))))
    }

    /// Makes move `action` (one of [`Match::legal`]) for the seat to move.
    fn step(&mut self, action: usize) -> PyResult<()> {
        if self.mask.get(action) != Some(&1) {
            // The engine's own reason, where the index names a move at all.
            let (space, ranks) = (&self.space, &self.ranks);
            let why = self
                .playing
                .with_dependent_mut(|_, game| match space.action_at(game, ranks, action) {
                    Some(chosen) => game.check(chosen).err().map(|e| format!(": {e}")),
                    None if action < space.len() => Some(
                        ": it names no move now (no entity at its place, or an option the card there does not take)"
                            .to_string(),
                    ),
                    None => None,
                })
                .unwrap_or_default();
            return Err(PyValueError::new_err(format!(
                "move {action} is not legal now{why} (see legal())"
            )));
        }
        let (space, ranks) = (&self.space, &self.ranks);
        let result = self.playing.with_dependent_mut(|_, game| {
            let chosen = space
                .action_at(game, ranks, action)
                .ok_or_else(|| format!("move {action} names no entity"))?;
            game.act(chosen).map_err(|e| e.to_string())
        });
        self.refresh();
        result.map_err(PyRuntimeError::new_err)
    }

    /// The move the built-in `policy` (random, greedy, search or mcts, as `mcts:BUDGET`) would make
    /// for the seat to move, as an index; `None` when it has none.
    fn choose(&mut self, py: Python<'_>, policy: &str) -> PyResult<Option<usize>> {
        let policy = policies(&[policy.to_string()])?[0];
        let (ai, playing) = (&mut self.ai, &mut self.playing);
        // The searching player takes seconds: other Python threads go on meanwhile.
        let chosen =
            py.detach(move || playing.with_dependent_mut(|_, game| ai.choose(game, policy)));
        // A card instance is named by its place now, before the move is made.
        Ok(chosen.and_then(|a| {
            self.playing
                .with_dependent(|_, game| self.space.index_of(game, &self.ranks, a))
        }))
    }

    /// Deals anew, with its own generator seeded `seed`, what `seat` cannot
    /// see (the other hands, the draw piles' order; with `:zones`, every
    /// card it cannot tell, each instance staying where it lies): for tests
    /// that what `seat` observes does not change.
    fn _redeal_unseen(&mut self, seat: usize, seed: u64) -> PyResult<()> {
        let seats = self.playing.borrow_owner().rules.seats.len();
        if seat >= seats {
            return Err(PyValueError::new_err(format!(
                "seat {seat}: the game has {seats} seats"
            )));
        }
        self.playing
            .with_dependent_mut(|_, game| observe::redeal_unseen(game, seat, seed));
        self.refresh();
        Ok(())
    }

    /// `None` while the game goes on; else `"win"`, `"loss"`, `"tie"`,
    /// `"turn-limit"`, `"nobody-left"` or `"aborted: …"` (a budget ran out:
    /// why), and the winning seat for a win, the losing seat for a loss.
    fn outcome(&self) -> Option<(String, Option<usize>)> {
        self.playing.with_dependent(|_, game| {
            game.outcome().map(|o| match o {
                Outcome::Win { seat, .. } => ("win".to_string(), Some(seat.index())),
                Outcome::Loss { seat, .. } => ("loss".to_string(), Some(seat.index())),
                Outcome::Tie => ("tie".to_string(), None),
                Outcome::TurnLimit => ("turn-limit".to_string(), None),
                Outcome::NobodyLeft => ("nobody-left".to_string(), None),
                Outcome::Aborted(why) => {
                    let at = game.stopped_at().unwrap_or_default();
                    (format!("aborted at {at}: {why}"), None)
                }
            })
        })
    }

    /// The turn number, from 1.
    #[getter]
    fn turn(&self) -> u32 {
        self.playing.with_dependent(|_, game| game.ctx().turn)
    }
}

/// The native half of the `grimoire` package.
#[pymodule]
fn _grimoire(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_class::<Match>()?;
    Ok(())
}
