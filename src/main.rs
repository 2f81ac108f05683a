//! The `grimoire` command: a thin clap front end over [`grimoire::cli`].

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use grimoire::cli::{self, EvalArgs, Format, Output};

/// Data-driven card and effect engine: check, evaluate and play games written as data.
#[derive(Parser)]
#[command(name = "grimoire", version, propagate_version = true)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Check rule sets, cards and effects; report every problem in every file.
    ///
    /// Exit codes: 0 clean, 1 diagnostics found, 2 usage or I/O error.
    #[command(
        after_help = "Examples:\n  grimoire check rules cards effects\n  grimoire check --format json cards/arcomage\n  grimoire check --rules arcomage my-cards.edn"
    )]
    Check {
        /// Files or folders (folders are searched for .edn files).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Check definitions against this rule set (bundled name or file) instead of
        /// the one named by their folder.
        #[arg(long)]
        rules: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: FormatArg,
    },
    /// Apply effects to a state; print the events and the new state.
    #[command(
        after_help = "Examples:\n  grimoire eval --rules arcomage --set you.wall=0 '[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]'\n  grimoire eval --rules arcomage --state game.ron --format json '[{:effected :other :resource :damage :amount 5}]'"
    )]
    Eval {
        /// The effects: a vector of effect maps.
        effects: String,
        /// Rule set: a bundled name (arcomage) or a rule-set file.
        #[arg(long)]
        rules: String,
        /// Set a value before applying: ENTITY.ATTRIBUTE=INTEGER (repeatable).
        #[arg(long = "set", value_name = "ENTITY.ATTRIBUTE=N")]
        sets: Vec<String>,
        /// Start from a RON state file: (seed: 7, entities: {"you": {"wall": 0}}).
        #[arg(long)]
        state: Option<PathBuf>,
        /// Seed for chance (default: the state file's, else 0).
        #[arg(long)]
        seed: Option<u64>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: FormatArg,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    let color = std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let out: Output = match args.command {
        Command::Check {
            paths,
            rules,
            format,
        } => cli::check(&paths, rules.as_deref(), format.into(), color),
        Command::Eval {
            effects,
            rules,
            sets,
            state,
            seed,
            format,
        } => cli::eval(&EvalArgs {
            rules,
            effects,
            sets,
            state,
            seed,
            format: format.into(),
            color,
        }),
    };
    // A closed pipe (`grimoire … | head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    ExitCode::from(u8::try_from(out.code).unwrap_or(2))
}
