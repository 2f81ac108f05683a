//! The `grimoire` command: a thin clap front end over [`grimoire::cli`].
//!
//! The commands' argument structs ([`cli::PlayArgs`], [`cli::SimArgs`], …)
//! derive `clap::Args` themselves; what is read here is only what the
//! command line words differently from them (`simulate`'s `--format csv`,
//! `--record-game N FILE`, `--shard K/N`, `--change`), and the colour and the
//! progress bar, which come from the terminal.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use grimoire::cli::explain::{CardsArgs, ExplainArgs};
use grimoire::cli::{self, EvalArgs, Format, MergeArgs, Output, PlayArgs, RollArgs, SimArgs};
use grimoire::engine::ai::Policy;

/// Data-driven card and effect engine: check, evaluate and play games written as data.
#[derive(Parser)]
#[command(name = "grimoire", version, propagate_version = true)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check rule sets, cards and effects; report every problem in every file.
    ///
    /// Every diagnostic has a code (`error[E0204]: …`); `--explain E0204` says
    /// what it means, why it happens, and shows an example failing and fixed.
    ///
    /// Exit codes: 0 clean, 1 diagnostics found, 2 usage or I/O error (and an
    /// unknown code given to --explain).
    #[command(
        after_help = "Examples:\n  grimoire check\n  grimoire check rules cards effects\n  grimoire check --format json cards/arcomage\n  cat card.edn | grimoire check --rules arcomage -\n  grimoire check --rules arcomage my-cards.edn\n  grimoire check --rules skills buff-tables.md\n  grimoire check --explain E0204"
    )]
    Check {
        /// Files or folders (folders are searched for .edn, .csv and .md files,
        /// skipping `target/` and hidden folders; scenario files are checked as
        /// scenarios); `-` reads standard input. None: the whole project the
        /// command runs in (a folder with `grimoire.edn`, here or above).
        paths: Vec<PathBuf>,
        /// Explain a diagnostic code instead of checking: what it means, why it
        /// happens, an example failing and fixed.
        #[arg(long, value_name = "CODE", conflicts_with_all = ["paths", "rules", "format"])]
        explain: Option<String>,
        /// Check definitions against this rule set (bundled name or file) instead of
        /// the one named by their folder.
        #[arg(long)]
        rules: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
    },
    /// Apply effects to a state; print the events and the new state.
    #[command(
        after_help = "Examples:\n  grimoire eval --rules arcomage --set you.wall=0 '[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]'\n  grimoire eval --rules arcomage --state game.ron --format json '[{:effected :other :resource :damage :amount 5}]'\n  grimoire eval --rules arcomage --file effects.edn\n  echo '[{:effected :other :resource :damage :amount 5}]' | grimoire eval --rules arcomage -\n  grimoire eval --rules tactics --status hero=weakness --then round-end --format json\n  grimoire eval --rules skills --card Fireball --status you=increasePower1@23\n  grimoire eval --rules arcomage --seeds 0..999 '[{:effected :other :resource :damage :amount 1d6}]'\n  grimoire eval --rules mygame --state piles.ron '[{:effected :you :draw 2}]'"
    )]
    Eval(EvalArgs),
    /// Say what a card or effects do, in plain words (card-text English).
    #[command(
        after_help = "Examples:\n  grimoire explain --rules arcomage --card Foundations\n  grimoire explain --rules arcomage '[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]'\n  grimoire explain --rules arcomage --file effects.edn\n  echo '[{:effected :other :resource :damage :amount 5}]' | grimoire explain --rules arcomage -\n  grimoire explain --rules skills --card Fireball"
    )]
    Explain(ExplainArgs),
    /// List a deck's cards: name, type, cost and text, as a table or JSON.
    #[command(
        after_help = "Examples:\n  grimoire cards arcomage\n  grimoire cards arcomage --format json\n  grimoire cards arcomage --cards my-deck.csv"
    )]
    Cards(CardsArgs),
    /// Play a seeded game: AI against AI with a readable log, or you against an AI.
    #[command(
        after_help = "Examples:\n  grimoire play arcomage --seed 7\n  grimoire play arcomage --seed 7 --ai greedy --ai random\n  grimoire play arcomage --human --ai greedy"
    )]
    Play(Play),
    /// Play a recorded game again: the same output byte for byte, or what changed since.
    #[command(
        after_help = "Examples:\n  grimoire play arcomage --seed 7 --record game.json\n  grimoire replay game.json\n  grimoire replay --anyway game.json"
    )]
    Replay {
        /// A file written by `play --record` or `simulate --record-game`.
        file: PathBuf,
        /// Replay even if the rule set or deck changed since the recording (each change is
        /// named as a warning): the same seed, players and typed input with the data as it
        /// is now, to see what a change does; the game may then go another way (a note says
        /// from which decision), and it is not an error.
        #[arg(long)]
        anyway: bool,
    },
    /// Run scenario files: given a state, play cards, expect values and logs.
    #[command(
        after_help = "Examples:\n  grimoire test\n  grimoire test tests/scenarios\n  grimoire test tests/scenarios/arcomage/bricks.edn --cards my-deck\n  grimoire test --log tests/scenarios/arcomage/bricks.edn"
    )]
    Test {
        /// Scenario files or folders. None: the `tests/scenarios` of the
        /// project the command runs in (a project with no such folder has no
        /// scenarios yet: a note, "0 passed, 0 failed", exit 0).
        paths: Vec<PathBuf>,
        /// Card files or folders (default: the rule set's own, its project's or the bundled cards/NAME and effects/NAME).
        #[arg(long)]
        cards: Vec<PathBuf>,
        /// Print each scenario's log under its result, passing or failing (what a `:log`
        /// expectation compares with).
        #[arg(long)]
        log: bool,
    },
    /// Format .edn files: re-indent by structure, keeping comments, line breaks and every token.
    ///
    /// Exit codes: 0 formatted (with --check: nothing to change), 1 a file has
    /// syntax errors (left as it is) or, with --check, would change, 2 usage or I/O error.
    #[command(
        after_help = "Examples:\n  grimoire fmt rules cards effects tests/scenarios\n  grimoire fmt --check cards/arcomage\n  grimoire fmt my-cards.edn\n  grimoire fmt - < my-cards.edn > formatted.edn"
    )]
    Fmt {
        /// Files or folders (folders are searched for .edn files, skipping target/ and hidden folders);
        /// `-` alone formats standard input to standard output (nothing is printed for a text with
        /// syntax errors, which exits 1).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Write nothing: print a diff of each file that would change, and exit 1 if any would.
        #[arg(long)]
        check: bool,
    },
    /// Make a new game: a folder with a rule set, cards, a status, scenarios and a README.
    ///
    /// The folder's name names the game (its rule set and project). Inside it,
    /// `grimoire check`, `grimoire test`, `grimoire play NAME` and `grimoire
    /// simulate NAME` work at once. Refused (exit 2) when DIR exists and is not empty.
    #[command(
        after_help = "Examples:\n  grimoire new mygame\n  cd mygame && grimoire check && grimoire test && grimoire play mygame --seed 1"
    )]
    New {
        /// The folder to create; its name is the game's.
        dir: PathBuf,
    },
    /// Run a language server on standard input and output, for editors.
    ///
    /// Diagnostics as you type (the same as `check`), hover docs, completion,
    /// go to definition of cards and statuses, and formatting. See the
    /// README for VS Code, Neovim and Helix.
    #[command(after_help = "Examples:\n  grimoire lsp")]
    Lsp,
    /// Roll dice: one roll with its faces, or with --count the distribution.
    ///
    /// EXPR is any integer expression of the language without entities: dice
    /// (`1d20`, `3d6+2`, `d20`, `2d20kh1` keeps the higher of two, `4d6kl3-1`),
    /// `[advantage 1d20]`, `[disadvantage 1d20]`, arithmetic (`[+ 1d20 1d4 2]`).
    /// Without --seed a seed is picked and printed, so the roll can be replayed.
    #[command(
        after_help = "Examples:\n  grimoire roll 1d20+2\n  grimoire roll 3d6+2 --count 100000 --seed 7\n  grimoire roll '[advantage 1d20]' --count 100000 --format json"
    )]
    Roll(RollArgs),
    /// Simulate many seeded AI games: win rates, game length, per-card figures.
    ///
    /// Per-card columns (each rate with its 95% interval, Wilson; a card's
    /// holder is the seat whose hand it is in; a win rate counts the holder's
    /// wins, so ties and turn limits are not wins):
    ///   card         the card's name
    ///   in_hand      games it was in its holder's hand at one of their decisions (17lands' games in hand)
    ///   played       times it was played
    ///   played_games games it was played at least once (the n of played_wr)
    ///   not_seen_games games its holder never had it in hand (the n of not_seen_wr)
    ///   discarded    times its holder chose to discard it (a discard the rules make, a hand emptied as a turn ends or a knock-out's, is no choice and not counted)
    ///   play_rate    games it was played over games it was in hand
    ///   in_hand_wr   the holder's win rate in games it was in hand
    ///   played_wr    the holder's win rate in games they played it (overstates a card played when already winning)
    ///   not_seen_wr  the holder's win rate in games they never had it in hand
    ///   improvement  in_hand_wr minus not_seen_wr, 95% interval (Newcombe); * when it leaves out 0
    ///   mean_turn    the mean turn number it was played on
    /// A rate out of no games is left empty in the CSV.
    ///
    /// A rule set's declared metrics (`:metrics`) follow the win figures: each one's mean over
    /// the games (a game's value the mean of its seats') and each seat's, with 95% intervals
    /// (Student's t below 30 games, normal from 30). Then one per-card table a metric:
    ///   in hand      the holder's mean in games the card was in hand
    ///   played       in games the holder played it
    ///   not seen     in games the holder never had it in hand
    ///   improvement  in hand minus not seen, 95% interval (Welch); * when it leaves out 0
    /// CSV columns metric:NAME:in_hand, :played, :not_seen and :improvement, each with _low and
    /// _high, and metric:NAME:improvement_significant. --sort NAME sorts by its improvement.
    #[command(
        verbatim_doc_comment,
        after_help = "Examples:\n  grimoire simulate arcomage --games 100000 --seed 1\n  grimoire simulate arcomage --games 10000 --ai greedy --ai random --format json\n  grimoire simulate arcomage --games 100000 --format csv --sort in_hand_wr\n  grimoire simulate arcomage --games 100000 --versus-cards my-changed-deck\n  grimoire simulate tactics --games 10000 --check-invariants"
    )]
    Simulate(Simulate),
    /// Print a completion script for a shell, generated from grimoire's own commands and flags.
    #[command(
        after_help = "Examples:\n  grimoire completions bash > ~/.local/share/bash-completion/completions/grimoire\n  grimoire completions zsh > ~/.zfunc/_grimoire\n  grimoire completions fish > ~/.config/fish/completions/grimoire.fish"
    )]
    Completions {
        /// The shell the script is for.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) of grimoire, or of one of its commands, generated from the
    /// same definitions as --help.
    #[command(
        after_help = "Examples:\n  grimoire man | man -l -\n  grimoire man simulate | man -l -\n  grimoire man > ~/.local/share/man/man1/grimoire.1"
    )]
    Man {
        /// A command (`simulate`): its own page, `grimoire-simulate(1)`.
        command: Option<String>,
    },
    /// Merge the JSON of a run's shards (`simulate --shard K/N --format json`) into the
    /// figures one process would have printed for the whole run.
    #[command(
        after_help = "Examples:\n  grimoire simulate arcomage --games 100000 --shard 1/2 --format json > a.json\n  grimoire simulate arcomage --games 100000 --shard 2/2 --format json > b.json\n  grimoire merge a.json b.json --format json"
    )]
    Merge(Merge),
}

/// `simulate` and `merge`'s `--format`: `csv` is a format on the command
/// line, a flag beside the format in [`SimArgs`] and [`MergeArgs`].
#[derive(Clone, Copy, ValueEnum)]
enum SimFormatArg {
    Human,
    Json,
    Csv,
}

impl SimFormatArg {
    /// The format, and whether CSV.
    fn split(self) -> (Format, bool) {
        match self {
            SimFormatArg::Human => (Format::Human, false),
            SimFormatArg::Json => (Format::Json, false),
            SimFormatArg::Csv => (Format::Human, true),
        }
    }
}

/// `play`: [`PlayArgs`], and the tree search's flags.
#[derive(clap::Args)]
struct Play {
    #[command(flatten)]
    args: PlayArgs,
    #[command(flatten)]
    mcts: cli::MctsArgs,
}

/// `simulate`: [`SimArgs`], and what the command line words otherwise.
#[derive(clap::Args)]
struct Simulate {
    #[command(flatten)]
    args: SimArgs,
    #[command(flatten)]
    mcts: cli::MctsArgs,
    /// Output format: a table, JSON (with per-seat figures), or CSV (the table's rows and columns).
    // Shown between `SimArgs`' --cards and --sort: the same place as --cards, after it by name.
    #[arg(long, value_enum, default_value = "human", display_order = 4)]
    format: SimFormatArg,
    /// Record game N (1 to --games) of the run to FILE, for `grimoire replay`.
    #[arg(long = "record-game", num_args = 2, value_names = ["N", "FILE"])]
    record_game: Vec<String>,
    /// Play only the Kth of N equal shares of the run's games (each with its seed in the
    /// whole run); `--format json` then carries the sums `grimoire merge` adds up.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Change a card before the run: its KEY (without the colon) gets VALUE, written as in
    /// its file (`--change Dragon:cost=24`); again for more changes. For cost sweeps. A value
    /// the card may not have is a located error (with `--format json`, the list `check` prints).
    #[arg(long = "change", value_name = "CARD:KEY=VALUE")]
    changes: Vec<String>,
    /// Play the games again checking the game invariants after every action (values within
    /// bounds, statuses, hands, cards, queue, turn limit, the game's end) and replaying some
    /// from their seeds to compare logs; a violation is an error naming the game (exit 1).
    #[arg(long = "check-invariants")]
    check_invariants: bool,
    /// With --check-invariants: replay every Nth game (the first included) from its seed; 1 replays all, 0 none.
    #[arg(long = "replay-every", value_name = "N", default_value_t = cli::REPLAY_EVERY, requires = "check_invariants")]
    replay_every: u64,
}

impl Simulate {
    /// The arguments `cli::simulate` takes, or what is wrong with the words read here.
    fn args(self, color: bool) -> Result<SimArgs, String> {
        let mut args = self.args;
        self.mcts.apply(&mut args.ai)?;
        (args.format, args.csv) = self.format.split();
        args.record_game = match self.record_game.as_slice() {
            [n, file] => match n.parse() {
                Ok(n) => Some((n, PathBuf::from(file))),
                Err(_) => {
                    return Err(format!(
                        "--record-game {n}: N is a game number, 1 to --games"
                    ));
                }
            },
            _ => None,
        };
        args.shard = self
            .shard
            .as_deref()
            .map(grimoire::sim::Shard::parse)
            .transpose()?;
        args.changes = self
            .changes
            .iter()
            .map(|c| grimoire::files::CardChange::parse(c))
            .collect::<Result<_, _>>()?;
        args.progress = std::io::stderr().is_terminal();
        args.color = color;
        Ok(args)
    }
}

/// `merge`: [`MergeArgs`], and its `--format`.
#[derive(clap::Args)]
struct Merge {
    #[command(flatten)]
    args: MergeArgs,
    /// Output format, as `simulate`'s.
    #[arg(long, value_enum, default_value = "human")]
    format: SimFormatArg,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let color = std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let out: Output = match args.command {
        Command::Check {
            explain: Some(code),
            ..
        } => cli::explain_code(&code),
        Command::Check {
            paths,
            rules,
            format,
            explain: None,
        } => cli::check(&paths, rules.as_deref(), format, color),
        Command::Eval(args) => cli::eval(&EvalArgs { color, ..args }),
        Command::Play(Play { mut args, mcts }) => {
            // A game to watch is more telling between two greedy players.
            if args.ai.is_empty() {
                args.ai = vec![Policy::Greedy];
            }
            if let Err(e) = mcts.apply(&mut args.ai) {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
            args.color = color;
            let stdin = std::io::stdin();
            cli::play(&args, &mut stdin.lock(), &mut std::io::stdout())
        }
        Command::Replay { file, anyway } => cli::replay(&file, anyway, color),
        Command::Explain(args) => cli::explain::explain(&ExplainArgs { color, ..args }),
        Command::Cards(args) => cli::explain::cards(&CardsArgs { color, ..args }),
        Command::Test { paths, cards, log } => cli::test_logs(&paths, &cards, log, color),
        Command::Fmt { paths, check } => cli::fmt::fmt(&paths, check, color),
        Command::New { dir } => cli::new(&dir),
        Command::Lsp => cli::lsp::lsp(),
        Command::Roll(args) => cli::roll(&RollArgs { color, ..args }),
        Command::Simulate(command) => {
            let (check_invariants, replay_every) = (command.check_invariants, command.replay_every);
            match command.args(color) {
                Ok(args) if check_invariants => cli::simulate_checked(&args, replay_every),
                Ok(args) => cli::simulate(&args),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Args::command(), "grimoire", &mut script);
            text_output(script)
        }
        Command::Man { command } => man_page(command.as_deref()),
        Command::Merge(Merge { args, format }) => {
            let (format, csv) = format.split();
            cli::merge(&MergeArgs {
                format,
                csv,
                color,
                ..args
            })
        }
    };
    // A closed pipe (`grimoire … | head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    ExitCode::from(u8::try_from(out.code).unwrap_or(2))
}

/// Generated text (a completion script, a man page) as a command's output.
fn text_output(bytes: Vec<u8>) -> Output {
    Output {
        stdout: String::from_utf8_lossy(&bytes).into_owned(),
        ..Output::default()
    }
}

/// `grimoire man [COMMAND]`: the page of grimoire, or of one of its
/// commands (named `grimoire-COMMAND`, as git's are); an unknown command is
/// a usage error naming the others.
fn man_page(command: Option<&str>) -> Output {
    let mut grimoire = Args::command();
    grimoire.build();
    let page = match command {
        None => grimoire,
        Some(name) => match grimoire.find_subcommand(name) {
            Some(sub) => sub.clone().display_name(format!("grimoire-{name}")),
            None => {
                let names: Vec<&str> = grimoire
                    .get_subcommands()
                    .map(clap::Command::get_name)
                    .filter(|n| *n != "help")
                    .collect();
                return Output {
                    stderr: format!(
                        "error: no command `{name}`; the commands are {}\n",
                        names.join(", ")
                    ),
                    code: cli::EXIT_USAGE,
                    ..Output::default()
                };
            }
        },
    };
    let mut roff = Vec::new();
    let source = format!("grimoire {}", env!("CARGO_PKG_VERSION"));
    match clap_mangen::Man::new(page).source(source).render(&mut roff) {
        Ok(()) => text_output(roff),
        Err(e) => Output {
            stderr: format!("error: {e}\n"),
            code: cli::EXIT_USAGE,
            ..Output::default()
        },
    }
}
