//! The command-line interface (DESIGN.md contract): `check`, `run`, `play`.

mod check;
mod play;
mod play_phases;
mod run;

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Exit codes of the contract.
pub const EXIT_OK: i32 = 0;
pub const EXIT_GAME: i32 = 1;
pub const EXIT_INPUT: i32 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "hexwar",
    version,
    about = "Board wargames with rules in Lua: check, run and play scenarios headless"
)]
struct Cli {
    #[command(subcommand)]
    command: CliCommand,
}

#[derive(Debug, Subcommand)]
enum CliCommand {
    /// Load and validate a scenario, its map and every rules module; list every error found.
    Check {
        /// Scenario directory or file.
        scenario: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Play a scenario (or a save) headless to its end, bots for every side; print a summary.
    Run(run::RunArgs),
    /// Apply orders from a file phase by phase; print each phase's results and the board.
    Play(play::PlayArgs),
}

/// Runs the CLI on the given arguments and returns the exit code.
pub fn main_with_args(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_INPUT } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        CliCommand::Check { scenario, json } => check::run(&scenario, json),
        CliCommand::Run(args) => run::run(&args),
        CliCommand::Play(args) => play::run(&args),
    }
}

/// Prints an error to stderr and returns the input-error exit code.
fn fail(message: impl std::fmt::Display) -> i32 {
    eprintln!("error: {message}");
    EXIT_INPUT
}
