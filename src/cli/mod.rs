//! The command-line interface (DESIGN.md contract): `check`, `run`, `play`, the queries, and the
//! designer tools (`render`, `test`, `api`).

#[macro_use]
pub(crate) mod output;
mod api;
mod ask;
mod batch;
mod check;
mod legal;
pub mod orders;
mod output_paths;
mod play;
mod play_phases;
mod position;
mod query;
mod render;
mod replay;
mod run;
mod status;
mod test;

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

pub(crate) use crate::printable::{printable, printable_lines};
use crate::spelling::side_hint;

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
        /// Scenario directory or file, or a save (its scenario is checked).
        scenario: PathBuf,
        /// Print the errors and warnings as JSON.
        #[arg(long)]
        json: bool,
        /// Check SIDE's bot MODULE too (as `run --bot`: a module, a .lua file or `random`).
        #[arg(long = "bot", value_name = "SIDE=MODULE")]
        bots: Vec<String>,
        /// Check the scenario with the mod FILE.lua loaded after its rules (as `run --mod`).
        #[arg(long = "mod", value_name = "FILE.lua")]
        mods: Vec<PathBuf>,
    },
    /// Play a scenario (or a save) headless to its end, bots for every side; print a summary.
    Run(run::RunArgs),
    /// Apply orders from a file phase by phase; print each phase's results and the board.
    Play(play::PlayArgs),
    /// The hexes a unit can reach this phase, each with its MP cost.
    Reach(query::ReachArgs),
    /// Each unit's supply status.
    Supply(query::SupplyArgs),
    /// Ask any query the rules declare (combat odds, an order's check, a bot's choice), as JSON.
    Query(ask::QueryArgs),
    /// Where a game stands: turn, phase, who is to play, the score now, every unit.
    Status(status::StatusArgs),
    /// The commands a side may give now (one unit's, one command's), as orders file entries.
    Legal(legal::LegalArgs),
    /// Re-execute a replay and verify every step (state hash, legal command count).
    Replay(replay::ReplayArgs),
    /// Draw a position as SVG: terrain, features, units, an optional overlay.
    Render(render::RenderArgs),
    /// Run designers' Lua test files (`*_test.lua`) found under a path.
    Test(test::TestArgs),
    /// Print the `hex.*` API for editors (`--luals`: a lua-language-server definition file).
    Api(api::ApiArgs),
    /// Statistics over batch runs.
    #[command(subcommand)]
    Stats(StatsCommand),
}

#[derive(Debug, Subcommand)]
enum StatsCommand {
    /// Merge the per-game files of batch shards into one set of statistics.
    Merge(batch::MergeArgs),
    /// Compare two batches (per-game files): each side's win rate, B minus A, with 95% intervals,
    /// and its score game by game where both played the same seeds.
    Compare(batch::CompareArgs),
}

/// Runs the CLI on the given arguments and returns the exit code.
pub fn main_with_args(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            if e.use_stderr() {
                let _ = e.print();
                return EXIT_INPUT;
            }
            // (`--help` and `--version` are output as any command's is: one that cannot be
            // written is an error, a reader that closed the pipe is not)
            return match e.print() {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    fail(format!("cannot write the output: {e}"))
                }
                _ => EXIT_OK,
            };
        }
    };
    let code = match cli.command {
        CliCommand::Check {
            scenario,
            json,
            bots,
            mods,
        } => check::run(&scenario, json, &bots, &mods),
        CliCommand::Run(args) => run::run(&args),
        CliCommand::Play(args) => play::run(&args),
        CliCommand::Reach(args) => query::reach(&args),
        CliCommand::Supply(args) => query::supply(&args),
        CliCommand::Query(args) => ask::run(&args),
        CliCommand::Status(args) => status::run(&args),
        CliCommand::Legal(args) => legal::run(&args),
        CliCommand::Replay(args) => replay::run(&args),
        CliCommand::Render(args) => render::run(&args),
        CliCommand::Test(args) => test::run(&args),
        CliCommand::Api(args) => api::run(&args),
        CliCommand::Stats(StatsCommand::Merge(args)) => batch::merge(&args),
        CliCommand::Stats(StatsCommand::Compare(args)) => batch::compare(&args),
    };
    match output::finish() {
        Some(why) => fail(format!("cannot write the output: {why}")),
        None => code,
    }
}

/// What the rules' scripts printed (`print`, `hex.log`) since the last call, to stderr, a line
/// each, `script: ...`: stdout stays the command's own output.
fn show_script_log(game: &mut crate::engine::Game) {
    show_script_lines(&game.take_script_log());
}

/// Texts the scripts printed, to stderr: a `script: ...` line for each of their lines.
fn show_script_lines(texts: &[String]) {
    for line in texts.iter().flat_map(|t| t.split('\n')) {
        errln!("script: {}", printable(line));
    }
}

/// A warning when the rules changed their own module tables during play: a save does not keep
/// them, so the game resumed from a save would play on without the change (`docs/sandbox.md`).
fn warn_changed_rules(game: &crate::engine::Game) {
    let changed = game.rules().changed_during_play();
    if changed.is_empty() {
        return;
    }
    errln!(
        "warning: the rules changed their module tables during play ({}): a save keeps the game \
         state, not module tables, so this game resumed from a save would play on without the \
         change; keep what changes in hex.state (or change the tables while the modules load)",
        changed.join(", ")
    );
}

/// Whether a command's game argument names a save (a `.json` file) rather than a scenario.
/// The error of an option naming a side the scenario lacks (`--side`, `--until-side`), or None.
fn unknown_side(option: &str, side: &str, sides: &[String]) -> Option<String> {
    (!sides.iter().any(|s| s == side))
        .then(|| format!("{option}: {}", crate::spelling::unknown_side(side, sides)))
}

/// What the host chooses for a game beyond its scenario, from the command line.
#[derive(Default)]
struct HostChoices<'a> {
    /// `--trusted`: the rules run without the instruction budget (`Limits::trusted`).
    trusted: bool,
    /// `--bot SIDE=MODULE`, as given: a side played by another bot than the scenario's.
    bots: &'a [String],
    /// `--mod FILE.lua`: rules modules loaded after the scenario's (a variant over it).
    mods: &'a [std::path::PathBuf],
}

impl HostChoices<'_> {
    /// Makes the choices on `scenario`, before its rules load; the error is `fail`'s message.
    fn apply(&self, scenario: &mut crate::scenario::Scenario) -> Result<(), String> {
        scenario.limits.trusted = self.trusted;
        crate::session::add_mods(scenario, self.mods).map_err(|e| format!("--mod {e}"))?;
        let mut sides_given: Vec<&str> = Vec::new();
        for given in self.bots {
            // (quoted clipped: a name of megabytes made a line of megabytes)
            let shown = crate::spelling::clipped(given, 100);
            let Some((side, module)) = given.split_once('=') else {
                return Err(format!(
                    "--bot {shown}: write SIDE=MODULE, a Lua module under the scenario's rule \
                     roots or '{}' (like --bot {}={})",
                    crate::scenario::RANDOM_BOT,
                    scenario.sides.first().map(String::as_str).unwrap_or("SIDE"),
                    crate::scenario::RANDOM_BOT
                ));
            };
            let side = side.trim();
            if sides_given.contains(&side) {
                return Err(format!(
                    "--bot {shown}: a second bot for {side}; give --bot once per side"
                ));
            }
            sides_given.push(side);
            scenario
                .choose_bot(side, module.trim())
                .map_err(|e| format!("--bot {shown}: {e}"))?;
        }
        Ok(())
    }
}

fn is_save(path: &std::path::Path) -> bool {
    path.is_file() && (path.extension().is_some_and(|e| e == "json") || starts_like_json(path))
}

/// Whether a file's first non-blank byte is `{`: a save by another name (`game.save`) is read
/// as one (it was read as a scenario: `TOML: invalid key-value pair`), and a JSON-lines log
/// given in a scenario's place is said not to be a save. A scenario file (TOML) cannot start so.
fn starts_like_json(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 256];
    let Ok(n) = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)) else {
        return false;
    };
    // (after an editor's byte-order mark: the save reader skips it too)
    let head = head[..n]
        .strip_prefix(b"\xef\xbb\xbf")
        .unwrap_or(&head[..n]);
    head.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{')
}

/// The game a command works on: a scenario started with `seed`, or a save continued (a
/// `--seed` is refused there: the save carries its own), with a `--setup` laid over it. The
/// error is the message `fail` prints.
/// `choices`: what the host chose beyond the scenario (`--trusted`, `--bot`).
fn open_session(
    path: &std::path::Path,
    seed: Option<u64>,
    setup: Option<&std::path::Path>,
    choices: &HostChoices,
) -> Result<crate::Session, String> {
    let trust = |scenario: &mut crate::scenario::Scenario| choices.apply(scenario);
    // (handlers listening to a misspelt event never run: `check` warns of them, and so does
    // every command that plays or looks at a game, before it starts)
    let mut warnings = Vec::new();
    let wrap = |rules: crate::rules::LuaRules| -> Box<dyn crate::engine::Ruleset> {
        warnings = crate::rules::event_name_warnings(&rules.subscribed_events());
        Box::new(rules)
    };
    // (a `.json` path that is no file was meant as a save: said so, not "scenario file")
    if path.extension().is_some_and(|e| e == "json") && !path.is_file() {
        if let Err(e) = std::fs::metadata(path) {
            return Err(format!("{}: cannot read save file: {e}", path.display()));
        }
    }
    // (an empty file is neither a save nor a scenario: it was read as a scenario missing `id`)
    if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0) {
        return Err(format!(
            "{}: the file is empty: no save or scenario in it (a save cut short, by a full disk?)",
            path.display()
        ));
    }
    let session = if is_save(path) {
        if seed.is_some() {
            return Err(
                "--seed cannot be used when continuing a save (the save carries its seed)".into(),
            );
        }
        if !choices.mods.is_empty() {
            return Err(
                "--mod cannot be used when continuing a save (the save carries its mods, loaded again)"
                    .into(),
            );
        }
        crate::engine::Save::read(path)
            .map_err(crate::SessionError::from)
            .and_then(|save| crate::Session::resume_save_adjusted(save, path, trust, wrap))
    } else {
        crate::scenario::load_scenario(path)
            .map_err(crate::SessionError::Scenario)
            .and_then(|mut scenario| {
                trust(&mut scenario).map_err(crate::SessionError::HostChoice)?;
                crate::Session::start_scenario_wrapped(scenario, seed, wrap)
            })
    };
    let mut session = session.map_err(|e| session_message(&e))?;
    for warning in &warnings {
        errln!("warning: {}", printable_lines(warning));
    }
    if session.scenario_changed {
        errln!(
            "warning: {}: the scenario changed since the game was saved ({} or its map): it goes on under the scenario as it is now",
            path.display(),
            session.scenario.path.display()
        );
    }
    if let Some(changes) = &session.rules_changed {
        errln!(
            "warning: {}: the rules changed since the game was saved ({changes}): it goes on under the rules as they are now",
            path.display()
        );
    }
    if let Some(setup) = setup {
        session.setup_file(setup).map_err(|e| {
            // (what a handler of the step the setup starts printed before it failed)
            show_script_log(&mut session.game);
            session_message(&e)
        })?;
        // (an empty file, or one cut down to its comments, sets nothing: most likely not what
        // was meant, a truncated or wrong file)
        let empty = crate::board::SourceText::read(setup)
            .ok()
            .and_then(|s| s.text.parse::<toml::Table>().ok())
            .is_some_and(|t| t.is_empty());
        if empty {
            errln!(
                "warning: {}: the setup sets nothing (it has no keys): the position is the scenario's or the save's as it stands",
                printable_lines(&setup.display().to_string())
            );
        }
    }
    Ok(session)
}

/// Why a save or replay (`flag`) of this game could not be written, if it could not: they
/// record the scenario's path and the mods' as text, and a path that is not UTF-8 has none
/// (the game was played to its end, then the save failed as "the file ends too early").
fn unrecordable(session: &crate::Session, flag: &str) -> Option<String> {
    let paths = std::iter::once(&session.scenario.path).chain(&session.mods);
    let path = paths.into_iter().find(|p| p.to_str().is_none())?;
    Some(format!(
        "{}: the path is not UTF-8 text, and {flag} records it as text (a save or a replay \
         names its scenario and mods by path): rename the file or its folder",
        path.display()
    ))
}

/// `mods: a.lua, b.lua` for a game played with mods (`--mod`, or a save's own), else nothing:
/// `run`'s summary and `status` say under what the game is played.
fn print_mods(session: &crate::Session) {
    if !session.mods.is_empty() {
        let mods: Vec<String> = session
            .mods
            .iter()
            .map(|m| m.display().to_string())
            .collect();
        outln!("mods: {}", mods.join(", "));
    }
}

/// A session error as `fail` prints it: several scenario errors each on a line of its own
/// with its own `error:`, as `check` lists them (the library's Display joins them bare).
fn session_message(e: &crate::SessionError) -> String {
    // (what the modules printed before their load error: shown first, as it came first)
    show_script_lines(e.printed());
    match e {
        crate::SessionError::Scenario(list) => list
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\nerror: "),
        other => other.to_string(),
    }
}

/// Prints an error to stderr and returns the input-error exit code.
/// Each line escaped as script output is ([`printable`]): a message may quote what a bot, a
/// script or an input file gave (a command's argument names), control characters included.
fn fail(message: impl std::fmt::Display) -> i32 {
    errln!("error: {}", printable_lines(&message.to_string()));
    EXIT_INPUT
}
