//! How fast whole France 1940 games play with the greedy Lua bot on both sides, on one core
//! (issue #4's goal: 20 games a second).
//!
//! `cargo run --release --example f40_speed -- [--games K] [--turns N] [--seed S] [--full-lists]
//! [--trusted]`
//!
//! Plays K games (seeds S, S+1, ...) to their end (or N turns) and prints games/s, ms per
//! command, and how the time splits between the bots' decisions and the rules carrying the
//! commands out, then the bots' time by kind of decision (phase and command chosen: which
//! decisions to make cheaper). `--full-lists` plays the same games again with the whole legal-command list
//! built before every command (what the driver did before bots listed their own commands, and
//! what a replay recording still does), and prints that list's cost per decision and the ratio.
//! `--trusted` runs the rules without the instruction budget (docs/sandbox.md, "Trusted rules").

/// The allocator of the `hexwar` binary, so this measures what the binary does:
/// mimalloc, which serves the engine's many small strings and maps faster than the system one.
#[cfg(feature = "fast-alloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use hexwar::bot::{play_observed, Bot, LegalCommands, PlayOptions, RandomBot, RunLimit, SideBots};
use hexwar::engine::{Command, Game, RulesError};
use hexwar::scenario::{load_scenario, Scenario};
use hexwar::Session;

/// CPU time of this thread so far, in seconds (Linux: /proc, 100 ticks a second): wall time on a
/// loaded machine says little, CPU time says what one core spends. None elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Times the bot's decisions; the rest of a game is the rules at work.
struct Timed<B> {
    inner: B,
    spent: Duration,
    /// Decisions and time by "phase/command chosen".
    by_kind: BTreeMap<String, (u64, Duration)>,
}

impl<B: Bot> Bot for Timed<B> {
    fn choose(
        &mut self,
        game: &mut Game,
        legal: &mut LegalCommands,
    ) -> Result<Command, RulesError> {
        let phase = game.phase().unwrap_or_default();
        let start = Instant::now();
        let chosen = self.inner.choose(game, legal);
        let spent = start.elapsed();
        self.spent += spent;
        if let Ok(command) = &chosen {
            let kind = self
                .by_kind
                .entry(format!("{phase}/{}", command.name()))
                .or_default();
            kind.0 += 1;
            kind.1 += spent;
        }
        chosen
    }
}

#[derive(Default)]
struct Totals {
    games: u32,
    commands: u64,
    wall: Duration,
    cpu: f64,
    bot: Duration,
    by_kind: BTreeMap<String, (u64, Duration)>,
    outcomes: Vec<String>,
}

fn play(
    scenario: &Scenario,
    seed: u64,
    turns: Option<u32>,
    full_lists: bool,
    totals: &mut Totals,
) -> Result<(), String> {
    let mut session =
        Session::start_scenario(scenario.clone(), Some(seed)).map_err(|e| e.to_string())?;
    let mut bot = Timed {
        inner: SideBots::new(
            RandomBot::new(session.bot_dice),
            session.scenario.bots.clone(),
        ),
        spent: Duration::ZERO,
        by_kind: BTreeMap::new(),
    };
    let sides = session.scenario.sides.clone();
    let limit = turns.map_or(RunLimit::End, |n| RunLimit::BeforeTurn(n + 1));
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let report = play_observed(
        &mut session.game,
        &mut bot,
        &sides,
        limit,
        PlayOptions {
            count_legal: full_lists,
            ..PlayOptions::default()
        },
        &mut |_, _| {},
    )
    .map_err(|e| e.to_string())?;
    totals.wall += start.elapsed();
    if let (Some(a), Some(b)) = (cpu_start, cpu_seconds()) {
        totals.cpu += b - a;
    }
    totals.bot += bot.spent;
    for (kind, (n, spent)) in &bot.by_kind {
        let total = totals.by_kind.entry(kind.clone()).or_default();
        total.0 += n;
        total.1 += *spent;
    }
    totals.games += 1;
    totals.commands += report.commands;
    let state = session.game.state();
    totals.outcomes.push(match &state.outcome {
        Some(o) => format!(
            "seed {seed}: {} ({})",
            o.winner.as_deref().unwrap_or("no winner"),
            o.scores
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => format!("seed {seed}: stopped at turn {}", state.turn),
    });
    Ok(())
}

fn report(label: &str, t: &Totals) {
    let secs = t.wall.as_secs_f64();
    let per_cmd = |d: Duration| d.as_secs_f64() * 1000.0 / t.commands.max(1) as f64;
    println!(
        "{label}: {} games, {} commands in {:.2} s: {:.2} games/s, {:.3} ms/command \
         (bot decisions {:.3}, rules {:.3})",
        t.games,
        t.commands,
        secs,
        t.games as f64 / secs,
        per_cmd(t.wall),
        per_cmd(t.bot),
        per_cmd(t.wall.saturating_sub(t.bot)),
    );
    if t.cpu > 0.0 {
        // The split above is wall time; on a loaded machine the CPU figure is the one to read.
        println!(
            "  CPU: {:.2} s: {:.2} games/s, {:.3} ms/command",
            t.cpu,
            t.games as f64 / t.cpu,
            t.cpu * 1000.0 / t.commands.max(1) as f64
        );
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| -> Option<u64> {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
    };
    let games = value("--games").unwrap_or(3);
    let turns = value("--turns").map(|n| n as u32);
    let seed = value("--seed").unwrap_or(1);
    let full_lists = args.iter().any(|a| a == "--full-lists");
    let mut scenario = load_scenario(Path::new("scenarios/france1940")).map_err(|errors| {
        errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    scenario.limits.trusted = args.iter().any(|a| a == "--trusted");

    let mut lazy = Totals::default();
    for i in 0..games {
        play(&scenario, seed + i, turns, false, &mut lazy)?;
    }
    report("bots list what they need", &lazy);
    println!("  bot decisions by phase/command chosen:");
    for (kind, (n, spent)) in &lazy.by_kind {
        println!(
            "    {kind:<20} {n:>5} decisions, {:>7.1} ms, {:>6.0} us each",
            spent.as_secs_f64() * 1000.0,
            spent.as_secs_f64() * 1e6 / (*n).max(1) as f64
        );
    }
    if hexwar::rules::profile::enabled() {
        eprint!("{}", hexwar::rules::profile::report());
    }
    for o in &lazy.outcomes {
        println!("  {o}");
    }
    if full_lists {
        let mut full = Totals::default();
        for i in 0..games {
            play(&scenario, seed + i, turns, true, &mut full)?;
        }
        report("whole legal list before every command", &full);
        let extra = full
            .wall
            .saturating_sub(full.bot)
            .saturating_sub(lazy.wall.saturating_sub(lazy.bot));
        println!(
            "  the whole list costs {:.3} ms per decision; lazy lists play {:.1}x faster",
            extra.as_secs_f64() * 1000.0 / full.commands.max(1) as f64,
            if full.cpu > 0.0 && lazy.cpu > 0.0 {
                full.cpu / lazy.cpu
            } else {
                full.wall.as_secs_f64() / lazy.wall.as_secs_f64().max(1e-9)
            }
        );
    }
    Ok(())
}
