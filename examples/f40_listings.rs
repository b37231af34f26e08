//! The France 1940 listings the greedy bot asks for, timed and optionally written out, so that
//! a speed change can be checked to list exactly the same commands in the same order.
//!
//! `cargo run --release --example f40_listings -- [--games K] [--dump FILE]`
//!
//! Plays K games (seeds 1..=K) with the scenario's bots. Before every bot decision it lists, as
//! the bot may: in a movement phase `place`, `drop`, and `drop` for each airborne unit off the
//! map; in a combat phase `attack`. It prints the count and time of each kind of listing (the
//! conversion of the list to Rust included) and, with `--dump`, writes one line per listing:
//! turn, step, side, command, unit filter and the list as JSON. Two runs' files compare with
//! `cmp`. `REPEAT=N` (environment) lists each kind N times (only the last one is timed), and
//! `ONLY=NAME` repeats that command only: with `HEXWAR_PROFILE=1`, the profile then shows
//! mostly that listing.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use hexwar::bot::{play_observed, Bot, LegalCommands, PlayOptions, RandomBot, RunLimit, SideBots};
use hexwar::engine::{Command, CommandFilter, Game, RulesError};
use hexwar::Session;

/// Lists what the bot may list, then lets the bot choose.
struct Probe<B> {
    inner: B,
    by_kind: BTreeMap<String, (u64, Duration)>,
    dump: Option<std::fs::File>,
    repeat: usize,
    only: Option<String>,
}

impl<B: Bot> Probe<B> {
    fn list(
        &mut self,
        game: &mut Game,
        side: &str,
        name: &str,
        unit: Option<&str>,
    ) -> Result<(), RulesError> {
        let filter = CommandFilter {
            command: Some(name.to_string()),
            unit: unit.map(str::to_string),
        };
        let repeat = match &self.only {
            Some(only) if only != name => 1,
            _ => self.repeat,
        };
        for _ in 1..repeat {
            game.legal_commands_matching(side, &filter)?;
        }
        let start = Instant::now();
        let list = game.legal_commands_matching(side, &filter)?;
        let spent = start.elapsed();
        let phase = game.phase().unwrap_or_default();
        let kind = format!(
            "{phase}/{name}{}",
            if unit.is_some() { " (one unit)" } else { "" }
        );
        let entry = self.by_kind.entry(kind).or_default();
        entry.0 += 1;
        entry.1 += spent;
        if let Some(file) = &mut self.dump {
            let json = serde_json::to_string(&list).map_err(|e| RulesError::new(e.to_string()))?;
            let state = game.state();
            writeln!(
                file,
                "{} {} {side} {name} {unit:?} {json}",
                state.turn, state.step
            )
            .map_err(|e| RulesError::new(e.to_string()))?;
        }
        Ok(())
    }
}

impl<B: Bot> Bot for Probe<B> {
    fn choose(
        &mut self,
        game: &mut Game,
        legal: &mut LegalCommands,
    ) -> Result<Command, RulesError> {
        let side = legal.side().to_string();
        match game.phase().unwrap_or_default().as_str() {
            "movement" => {
                self.list(game, &side, "place", None)?;
                self.list(game, &side, "drop", None)?;
                let waiting: Vec<String> = game
                    .state()
                    .units
                    .values()
                    .filter(|u| u.side == side && u.at.is_none())
                    .filter(|u| u.flag("airborne") || u.flag("para") || u.flag("airlanding"))
                    .map(|u| u.id.clone())
                    .collect();
                for id in waiting {
                    self.list(game, &side, "drop", Some(&id))?;
                }
            }
            "combat" => self.list(game, &side, "attack", None)?,
            _ => {}
        }
        self.inner.choose(game, legal)
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| -> Option<&String> {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let games: u64 = value("--games").and_then(|v| v.parse().ok()).unwrap_or(2);
    let mut dump = value("--dump")
        .map(|p| std::fs::File::create(p).map_err(|e| format!("{p}: {e}")))
        .transpose()?;
    let repeat = std::env::var("REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let only = std::env::var("ONLY").ok();
    let mut totals: BTreeMap<String, (u64, Duration)> = BTreeMap::new();
    for seed in 1..=games {
        let mut session = Session::start(Path::new("scenarios/france1940"), Some(seed))
            .map_err(|e| e.to_string())?;
        let mut probe = Probe {
            inner: SideBots::new(
                RandomBot::new(session.bot_dice),
                session.scenario.bots.clone(),
            ),
            by_kind: BTreeMap::new(),
            dump: dump.take(),
            repeat,
            only: only.clone(),
        };
        let sides = session.scenario.sides.clone();
        play_observed(
            &mut session.game,
            &mut probe,
            &sides,
            RunLimit::End,
            PlayOptions::default(),
            &mut |_, _| {},
        )
        .map_err(|e| e.to_string())?;
        dump = probe.dump.take();
        for (kind, (n, spent)) in probe.by_kind {
            let total = totals.entry(kind).or_default();
            total.0 += n;
            total.1 += spent;
        }
    }
    for (kind, (n, spent)) in &totals {
        println!(
            "{kind:<28} {n:>6} listings {:>8.1} ms {:>7.0} us each",
            spent.as_secs_f64() * 1e3,
            spent.as_secs_f64() * 1e6 / (*n).max(1) as f64
        );
    }
    if hexwar::rules::profile::enabled() {
        eprint!("{}", hexwar::rules::profile::report());
    }
    Ok(())
}
