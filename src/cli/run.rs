//! `hexwar run`: play a scenario or a save headless with bots, write the log and a save.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::bot::{PlayOptions, RunLimit, RunReport};
use crate::engine::{Event, GameError};
use crate::replay::{Replay, ReplayStep};
use crate::session::Session;

use super::{fail, EXIT_GAME, EXIT_OK};

#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Scenario directory or file, or a save file (.json) to continue.
    pub scenario: PathBuf,
    /// Seed for the dice and the bots (default: the scenario's).
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Play at most this many turns, then stop (and save with --save).
    #[arg(long, allow_negative_numbers = true)]
    pub turns: Option<u32>,
    /// Stop when this side is to give a command (a side a person plays with `hexwar play`;
    /// with --save, saved there); in a simultaneous step, once the other sides have given theirs.
    #[arg(long, value_name = "SIDE")]
    pub until_side: Option<String>,
    /// Write every event as one JSON line.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Save the game when the run stops.
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write a replay of the game (one game only) that `hexwar replay` verifies.
    #[arg(long)]
    pub replay: Option<PathBuf>,
    /// Play N games (seeds derived from --seed) and print statistics.
    #[arg(long, allow_negative_numbers = true)]
    pub games: Option<u64>,
    /// Play exactly the games A..B of the batch (a shard; merge shards with `hexwar stats
    /// merge`); not with --games.
    #[arg(long, value_name = "A..B")]
    pub seed_range: Option<String>,
    /// Worker threads for a batch (default: all cores); only with --games or --seed-range.
    #[arg(long, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// Print batch statistics as CSV.
    #[arg(long)]
    pub csv: bool,
    /// Write one JSON line per game of a batch.
    #[arg(long)]
    pub per_game: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Print where the rules spend their time (Lua functions and lines, entry points, `hex.*` calls) to stderr.
    #[arg(long)]
    pub profile: bool,
    /// Run the rules without the instruction budget and its wall-clock backstop, for rules you
    /// vouch for: faster (a Diplomacy phase 23-37%, France 1940 13% fewer machine instructions), but a
    /// loop in them hangs the run (docs/sandbox.md, "Trusted rules").
    #[arg(long)]
    pub trusted: bool,
    /// Play SIDE with the bot MODULE (a Lua module under the scenario's rule roots, a .lua
    /// file such as `bots/mine.lua`, or `random` for the built-in random bot) instead of the
    /// scenario's; repeatable. A save
    /// records the choice.
    #[arg(long = "bot", value_name = "SIDE=MODULE")]
    pub bots: Vec<String>,
    /// Load the Lua file FILE.lua after the scenario's rules, as one more module (a variant
    /// over the game: its folder becomes one more rule root); repeatable. Saves and replays
    /// record it.
    #[arg(long = "mod", value_name = "FILE.lua")]
    pub mods: Vec<PathBuf>,
}

impl RunArgs {
    /// The host's choices these options make (`--trusted`, `--bot`, `--mod`).
    pub(super) fn choices(&self) -> super::HostChoices<'_> {
        super::HostChoices {
            trusted: self.trusted,
            bots: &self.bots,
            mods: &self.mods,
        }
    }
}

pub fn run(args: &RunArgs) -> i32 {
    if args.profile {
        crate::rules::profile::enable();
    }
    let code = run_games(args);
    if args.profile {
        let report = crate::rules::profile::report();
        errln!("{}", report.trim_end_matches('\n'));
    }
    code
}

fn run_games(args: &RunArgs) -> i32 {
    if args.games.is_some() || args.seed_range.is_some() {
        if args.until_side.is_some() {
            return fail(
                "--until-side stops one game for a person to play a side: not with --games or --seed-range",
            );
        }
        return super::batch::run(args);
    }
    // (one game runs on one thread: a --jobs meant for a batch whose --games was left out)
    if args.jobs.is_some() {
        return fail("--jobs sets the threads of a batch: give --games N or --seed-range A..B too");
    }
    // (options of a batch would be ignored: no file written, no CSV printed)
    if args.per_game.is_some() || args.csv {
        let flag = if args.csv { "--csv" } else { "--per-game" };
        return fail(format!(
            "{flag} is for a batch's statistics and records: give --games N or --seed-range A..B too"
        ));
    }
    run_single(args)
}

/// One game (`args` names no batch).
pub(super) fn run_single(args: &RunArgs) -> i32 {
    if args.replay.is_some() && super::is_save(&args.scenario) {
        return fail(format!(
            "{}: --replay records a game from its scenario's start, and this is a save: run the \
             scenario with --replay (and --turns to stop where the save was taken)",
            args.scenario.display()
        ));
    }
    let outputs: Vec<(&str, &Path)> = [
        ("--save", &args.save),
        ("--log", &args.log),
        ("--replay", &args.replay),
    ]
    .into_iter()
    .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
    .collect();
    if let Err(e) = super::output_paths::check(&outputs, Some(&args.scenario), &[])
        .and_then(|()| super::output_paths::check_json_alone(&outputs, args.json))
    {
        return fail(e);
    }
    let mut session = match super::open_session(&args.scenario, args.seed, None, &args.choices()) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let recorders = [("--save", &args.save), ("--replay", &args.replay)];
    let recorder = recorders.iter().find(|(_, path)| path.is_some());
    if let Some(e) = recorder.and_then(|(flag, _)| super::unrecordable(&session, flag)) {
        return fail(e);
    }
    if let Some(side) = &args.until_side {
        if let Some(e) = super::unknown_side("--until-side", side, &session.scenario.sides) {
            return fail(e);
        }
        // (a side no step is given to never stops the run: it would play to the end)
        let plays = session
            .game
            .rules()
            .sequence()
            .all_steps()
            .any(|step| step.side.as_deref().is_none_or(|s| s == side));
        if !plays {
            return fail(format!(
                "--until-side {side}: no step of the sequence of play is {side}'s, so the run \
                 would never stop for it"
            ));
        }
    }
    // A save of a finished game: nothing is played, so no log is written (an empty log used
    // to replace the file --log named); the save is written as it stands, as after any run (a
    // loop of `run a --save b` left an older b in place).
    if session.game.state().outcome.is_some() && super::is_save(&args.scenario) {
        // (written: false also when `--save -`'s reader closed the pipe, so not claimed below)
        let mut written = false;
        if let Some(path) = &args.save {
            match session.to_save().write(path) {
                Ok(()) => written = true,
                Err(e) if !save_reader_gone(path, &e) => return fail(e),
                Err(_) => {}
            }
        }
        let unwritten: Vec<&str> = (outputs.iter().map(|(flag, _)| *flag))
            .filter(|flag| *flag != "--save")
            .collect();
        errln!(
            "note: the game in {} is already over: nothing was played{}{}",
            args.scenario.display(),
            if written {
                " (--save wrote the game as it stands)"
            } else {
                ""
            },
            if unwritten.is_empty() {
                String::new()
            } else {
                format!(" and nothing was written ({})", unwritten.join(", "))
            }
        );
        print_summary(
            &mut session,
            &EventTally::new(false),
            &RunReport::default(),
            args.json,
        );
        return EXIT_OK;
    }
    let start_turn = session.game.state().turn.max(1);
    let limit = match args.turns {
        // (a count past the last turn plays to the end; it used to wrap around to turn 0)
        Some(n) => RunLimit::BeforeTurn(start_turn.saturating_add(n)),
        None => RunLimit::End,
    };
    let mut replay = args.replay.as_ref().map(|_| Replay::new(&session));
    let mut refusals = BotRefusals::default();
    // (what the game logged as it started, then each command's events as it is played)
    let mut tally = EventTally::new(args.log.is_some());
    tally.take(&mut session.game);
    // (the session's bots, their dice and the sides done kept in it for the save)
    let played = session.play_bots_observed(
        limit,
        // A replay stores how many commands were legal at each step; plain runs never list
        // them all unless a bot asks.
        PlayOptions {
            count_legal: replay.is_some(),
            stop_for_side: args.until_side.as_deref(),
            ..PlayOptions::default()
        },
        &mut |game, step| {
            super::show_script_log(game);
            if !step.accepted {
                refusals.note(game, step.side);
            }
            tally.take(game);
            if let Some(replay) = replay.as_mut() {
                replay.steps.push(ReplayStep {
                    side: step.side.to_string(),
                    command: step.command.clone(),
                    legal: step.legal.unwrap_or_default(),
                    accepted: step.accepted,
                    state: game.state().hash(),
                });
            }
        },
    );
    super::show_script_log(&mut session.game);
    tally.take(&mut session.game);
    refusals.warn();
    super::warn_changed_rules(&session.game);
    // (each output is tried even when another failed: a log the disk had no room for does
    // not cost the save)
    let mut unwritten = Vec::new();
    // (a save, log or replay sent to standard output whose reader stopped reading, `| head`,
    // ends the output quietly, as any command's output does)
    if let Some(path) = &args.save {
        if let Err(e) = session.to_save().write(path) {
            if !save_reader_gone(path, &e) {
                unwritten.push(e.to_string());
            }
        }
    }
    let mut unwritable = |path: &Path, what: &str, e: std::io::Error| {
        if !super::output::reader_gone(path, &e) {
            unwritten.push(format!("{}: cannot write {what}: {e}", path.display()));
        }
    };
    if let Some(path) = &args.log {
        if let Err(e) = tally.write_log(path) {
            unwritable(path, "log", e);
        }
    }
    if let (Some(path), Some(replay)) = (&args.replay, &mut replay) {
        replay.finish(&session);
        if let Err(e) = replay.write(path) {
            unwritable(path, "replay", e);
        }
    }
    // (an output that could not be written is said after the summary, which is printed all
    // the same: the game was played; exit 2)
    if played.is_err() {
        unwritten.iter().for_each(|e| {
            fail(e);
        });
    }
    let report = match played {
        Ok(report) => report,
        Err(GameError::Refused(r)) => {
            // A bot's command refused and its `end_phase` refused too: the game cannot go on.
            // A game-level failure (exit 1), reported in the JSON with --json.
            let at = session.game.position_text();
            if args.json {
                let mut summary = summary_json(&session, &tally, None);
                summary["refused"] = serde_json::json!({
                    "rule": r.rule, "reason": r.reason, "at": at,
                });
                outln!("{summary}");
            }
            errln!(
                "error: refused at {}: {} (the bots could not go on)",
                super::printable_lines(&at),
                super::printable_lines(&r.to_string())
            );
            return EXIT_GAME;
        }
        // (where play stopped and with which seed: a rules error is the designer's to find)
        Err(e) => {
            return fail(format!(
                "{e}\n  (play stopped at {}, seed {})",
                session.game.position_text(),
                session.seed
            ))
        }
    };
    print_summary(&mut session, &tally, &report, args.json);
    let codes: Vec<i32> = unwritten.iter().map(fail).collect();
    codes.first().copied().unwrap_or(EXIT_OK)
}

/// Whether a save that could not be written went to standard output whose reader closed the
/// pipe ([`super::output::reader_gone`]).
pub(super) fn save_reader_gone(path: &Path, e: &crate::engine::SaveError) -> bool {
    matches!(e, crate::engine::SaveError::Write { source, .. } if super::output::reader_gone(path, source))
}

/// The bots' commands the rules refused, per side: each ends the side's phase (the driver
/// ends it after a refusal), so a bot refused again and again looks only like a weak bot
/// unless the run says so. The first refusal of each side is kept to be shown.
#[derive(Default)]
struct BotRefusals {
    by_side: std::collections::BTreeMap<String, (u64, String)>,
}

impl BotRefusals {
    /// Counts a refusal of `side`'s bot, just logged by the game.
    fn note(&mut self, game: &mut crate::engine::Game, side: &str) {
        if let Some(entry) = self.by_side.get_mut(side) {
            entry.0 += 1;
            return;
        }
        let at = game.position_text();
        let why = match game.log().last() {
            Some(Event::CommandRefused { rule, reason, .. }) => format!("{at}: {rule} {reason}"),
            _ => at,
        };
        self.by_side.insert(side.to_string(), (1, why));
    }

    /// One warning per side on stderr.
    fn warn(&self) {
        for (side, (count, first)) in &self.by_side {
            errln!(
                "warning: {side}'s bot gave {count} command(s) the rules refused, each ending \
                 its phase; the first, at {} (--log lists them all)",
                super::printable_lines(first)
            );
        }
    }
}

/// The events a run played, taken out of the game's log as they come: their count by name for
/// the summary and, with `--log`, their JSON lines. The game's log is emptied after every
/// command, so a run holds one command's events, not the whole game's (a script setting a
/// 60 MB variable at every move held gigabytes).
#[derive(Default)]
struct EventTally {
    counts: std::collections::BTreeMap<String, u64>,
    /// `--log`'s JSON lines so far, when asked for.
    lines: Option<Vec<u8>>,
}

impl EventTally {
    fn new(log: bool) -> Self {
        EventTally {
            counts: Default::default(),
            lines: log.then(Vec::new),
        }
    }

    /// Takes the events the game logged since the last call.
    fn take(&mut self, game: &mut crate::engine::Game) {
        for event in game.take_log() {
            *self.counts.entry(event.name().to_string()).or_default() += 1;
            if let Some(lines) = self.lines.as_mut() {
                // (plain data: serialising it cannot fail; Vec's writes cannot)
                let _ = serde_json::to_writer(&mut *lines, &event);
                lines.push(b'\n');
            }
        }
    }

    fn write_log(&self, path: &Path) -> std::io::Result<()> {
        let lines = self.lines.as_deref().unwrap_or_default();
        crate::output_file::write_with(path, |out| out.write_all(lines))
    }
}

/// `run --json`'s summary of a game (`commands`: None when play stopped on an error).
fn summary_json(session: &Session, tally: &EventTally, commands: Option<u64>) -> serde_json::Value {
    summary_waiting_json(session, tally, commands, None)
}

/// `summary_json` with the side the run stopped for (`waiting_for`, null when none).
fn summary_waiting_json(
    session: &Session,
    tally: &EventTally,
    commands: Option<u64>,
    waiting_for: Option<&str>,
) -> serde_json::Value {
    let state = session.game.state();
    let counts = &tally.counts;
    serde_json::json!({
        "scenario": session.scenario.id,
        "seed": session.seed,
        "turn": state.turn,
        "turns": session.scenario.turns,
        "finished": state.outcome.is_some(),
        "outcome": state.outcome,
        // (print_summary fills it in for a game stopped before its end)
        "score_now": null,
        "commands": commands,
        "events": counts,
        "units": state.units.len(),
        "waiting_for": waiting_for,
        "bots_chosen": session.scenario.chosen_bots,
        "mods": session.mods,
    })
}

fn print_summary(session: &mut Session, tally: &EventTally, report: &RunReport, json: bool) {
    let commands = report.commands;
    // (a game stopped before its end: the score as it would be counted now, as `status` says)
    let unfinished = session.game.state().outcome.is_none();
    let score = match super::status::score_now(session) {
        Ok(score) => score.filter(|_| unfinished),
        Err(e) => {
            errln!("warning: no score now: {e}");
            None
        }
    };
    if json {
        let waiting = report.waiting_for.as_deref();
        let mut summary = summary_waiting_json(session, tally, Some(commands), waiting);
        summary["score_now"] = serde_json::json!(score);
        outln!("{summary}");
        return;
    }
    // (where the run waits for a side, read first: the label may ask the rules)
    let waiting = match (&session.game.state().outcome, &report.waiting_for) {
        (None, Some(side)) => Some((side.clone(), session.game.position_text())),
        _ => None,
    };
    let state = session.game.state();
    let counts = &tally.counts;
    outln!(
        "scenario: {} ({})",
        session.scenario.name,
        session.scenario.id
    );
    outln!("seed: {}", session.seed);
    // (only when the host chose them: the scenario's own bots are in its file)
    if !session.scenario.chosen_bots.is_empty() {
        let chosen: Vec<String> = session
            .scenario
            .chosen_bots
            .iter()
            .map(|(side, module)| format!("{side} {module}"))
            .collect();
        outln!("bots chosen: {}", chosen.join(", "));
    }
    super::print_mods(session);
    match &state.outcome {
        Some(o) => {
            outln!(
                "finished after turn {} of {}",
                state.turn,
                session.scenario.turns
            );
            outln!("winner: {}", o.winner.as_deref().unwrap_or("none (draw)"));
            let scores: Vec<String> = o.scores.iter().map(|(s, v)| format!("{s} {v}")).collect();
            // (a victory rule that gives no scores: said, not an empty line)
            if scores.is_empty() {
                outln!("score: none");
            } else {
                outln!("score: {}", scores.join(", "));
            }
            outln!("reason: {}", o.reason);
        }
        // (`--until-side` stops where the side is to play, after the others' commands in a
        // simultaneous step: the line after this one says where)
        None if waiting.is_some() => outln!(
            "stopped in turn {} of {} (not finished)",
            state.turn,
            session.scenario.turns
        ),
        // `--turns` stops as a turn begins, before any command in it.
        None if state.step == 0 => outln!(
            "stopped at the start of turn {} of {} (not finished)",
            state.turn,
            session.scenario.turns
        ),
        None => outln!(
            "stopped during turn {} of {} (not finished)",
            state.turn,
            session.scenario.turns
        ),
    }
    if let Some((side, at)) = waiting {
        outln!("waiting for {side} to play: {at}");
    }
    if let Some(score) = &score {
        let points: Vec<String> = score.iter().map(|(s, p)| format!("{s} {p}")).collect();
        outln!("score now: {}", points.join(", "));
    }
    outln!("commands: {commands}");
    let events: Vec<String> = counts.iter().map(|(n, c)| format!("{n} {c}")).collect();
    if events.is_empty() {
        outln!("events: none");
    } else {
        outln!("events: {}", events.join(", "));
    }
}
