//! `hexwar run`: play a scenario or a save headless with bots, write the log and a save.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::bot::{play, RandomBot, RunLimit};
use crate::engine::{Event, GameError};
use crate::session::Session;

use super::{fail, EXIT_GAME, EXIT_OK};

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Scenario directory or file, or a save file (.json) to continue.
    pub scenario: PathBuf,
    /// Seed for the dice and the bots (default: the scenario's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Play at most this many turns, then stop (and save with --save).
    #[arg(long)]
    pub turns: Option<u32>,
    /// Write every event as one JSON line.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Save the game when the run stops.
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

fn is_save(path: &Path) -> bool {
    path.is_file() && path.extension().is_some_and(|e| e == "json")
}

pub fn run(args: &RunArgs) -> i32 {
    let session = if is_save(&args.scenario) {
        if args.seed.is_some() {
            return fail(
                "--seed cannot be used when continuing a save (the save carries its seed)",
            );
        }
        Session::resume(&args.scenario)
    } else {
        Session::start(&args.scenario, args.seed)
    };
    let mut session = match session {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let start_turn = session.game.state().turn.max(1);
    let limit = match args.turns {
        Some(n) => RunLimit::BeforeTurn(start_turn + n),
        None => RunLimit::End,
    };
    let mut bot = RandomBot::new(session.bot_dice);
    let sides = session.scenario.sides.clone();
    let played = play(&mut session.game, &mut bot, &sides, limit);
    session.bot_dice = bot.dice;
    if let Some(path) = &args.log {
        if let Err(e) = write_log(path, session.game.log()) {
            return fail(format!("{}: cannot write log: {e}", path.display()));
        }
    }
    if let Some(path) = &args.save {
        if let Err(e) = session.to_save().write(path) {
            return fail(e);
        }
    }
    let report = match played {
        Ok(report) => report,
        Err(GameError::Refused(r)) => {
            eprintln!("error: refused: {r}");
            return EXIT_GAME;
        }
        Err(e) => return fail(e),
    };
    print_summary(&session, report.commands, args.json);
    EXIT_OK
}

fn write_log(path: &Path, events: &[Event]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for event in events {
        serde_json::to_writer(&mut out, event)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

fn print_summary(session: &Session, commands: u64, json: bool) {
    let state = session.game.state();
    let mut counts = std::collections::BTreeMap::<&str, u64>::new();
    for e in session.game.log() {
        *counts.entry(e.name()).or_default() += 1;
    }
    if json {
        let summary = serde_json::json!({
            "scenario": session.scenario.id,
            "seed": session.seed,
            "turn": state.turn,
            "finished": state.outcome.is_some(),
            "outcome": state.outcome,
            "commands": commands,
            "events": counts,
            "units": state.units.len(),
        });
        println!("{summary}");
        return;
    }
    println!(
        "scenario: {} ({})",
        session.scenario.name, session.scenario.id
    );
    println!("seed: {}", session.seed);
    match &state.outcome {
        Some(o) => {
            println!(
                "finished after turn {} of {}",
                state.turn, session.scenario.turns
            );
            println!("winner: {}", o.winner.as_deref().unwrap_or("none (draw)"));
            let scores: Vec<String> = o.scores.iter().map(|(s, v)| format!("{s} {v}")).collect();
            println!("score: {}", scores.join(", "));
            println!("reason: {}", o.reason);
        }
        None => println!(
            "stopped before turn {} of {} (not finished)",
            state.turn + 1,
            session.scenario.turns
        ),
    }
    println!("commands: {commands}");
    let events: Vec<String> = counts.iter().map(|(n, c)| format!("{n} {c}")).collect();
    println!("events: {}", events.join(", "));
}
