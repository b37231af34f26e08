//! `hexwar play`: apply orders from a TOML file in order, printing what each did and the board
//! after each phase. Exit 1 when any order was refused.
//!
//! ```toml
//! [[order]]
//! side = "blue"
//! command = "move"
//! unit = "b1"
//! path = ["0304", "0305"]
//! [[order]]
//! side = "blue"
//! command = "end_phase"
//! ```
//!
//! A file of `[[phase]]` tables instead (simultaneous-orders games such as Diplomacy) is played
//! phase by phase by `play_phases`. Either way a side the scenario lacks is an input error found
//! before any order is played.

use std::path::PathBuf;

use clap::Args;
use serde_json::{Map, Value};

use crate::engine::{Command, Event, GameError, Refusal};
use crate::session::Session;

use super::orders::{OrdersFile, SidedCommand};
use super::{fail, EXIT_GAME, EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Scenario directory or file, or a save to go on from.
    pub scenario: PathBuf,
    /// Orders file (TOML: `[[order]]` tables, or `[[phase]]` tables with `[phase.orders]`).
    #[arg(long)]
    pub orders: PathBuf,
    /// A position to start from (TOML): `turn`/`phase`, `[[unit]]`, and what the rules read
    /// (Diplomacy: `phase = "S1901M"`, `[units]` and `[centers]` of lists by power).
    #[arg(long)]
    pub setup: Option<PathBuf>,
    /// Seed for the dice (default: the scenario's; a save carries its own).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print each order's or phase's results as JSON.
    #[arg(long)]
    pub json: bool,
    /// Run the rules without the instruction budget (as `run --trusted`).
    #[arg(long)]
    pub trusted: bool,
    /// Load the Lua file FILE.lua after the scenario's rules (as `run --mod`); repeatable.
    #[arg(long = "mod", value_name = "FILE.lua")]
    pub mods: Vec<PathBuf>,
    /// Stop at the first refused order: the orders after it (an `end_phase` that would cost a
    /// mistyped unit its move) are not played. Exit 1 as for any refusal.
    #[arg(long)]
    pub stop_on_refusal: bool,
    /// Save the game after the orders (after those played when an error stopped them), for
    /// `hexwar run SAVE --until-side ...` or the next `play` to continue.
    #[arg(long)]
    pub save: Option<std::path::PathBuf>,
    /// Write the events this play applied as JSON lines, as `run --log` does: the logs of a
    /// game's runs and plays, joined in order, are the whole game's (play by email).
    #[arg(long, value_name = "FILE.jsonl")]
    pub log: Option<std::path::PathBuf>,
}

pub fn run(args: &PlayArgs) -> i32 {
    let text = match crate::board::read_named_capped(&args.orders, crate::board::MAX_SOURCE_BYTES) {
        Ok(t) => t,
        Err(e) => {
            return fail(format!(
                "{}: cannot read orders: {e}",
                args.orders.display()
            ))
        }
    };
    let orders = match super::orders::parse_orders(&args.orders, &text) {
        Ok(orders) => orders,
        Err(e) => return fail(e),
    };
    let outputs: Vec<(&str, &std::path::Path)> = [("--save", &args.save), ("--log", &args.log)]
        .into_iter()
        .filter_map(|(name, path)| path.as_deref().map(|p| (name, p)))
        .collect();
    let read: Vec<(&str, &std::path::Path)> = [
        ("--orders", Some(&args.orders)),
        ("--setup", args.setup.as_ref()),
    ]
    .into_iter()
    .filter_map(|(name, path)| Some((name, path?.as_path())))
    .collect();
    if let Err(e) = super::output_paths::check(&outputs, Some(&args.scenario), &read)
        .and_then(|()| super::output_paths::check_json_alone(&outputs, args.json))
    {
        return fail(e);
    }
    let mut session = match super::open_session(
        &args.scenario,
        args.seed,
        args.setup.as_deref(),
        &super::HostChoices {
            trusted: args.trusted,
            mods: &args.mods,
            ..Default::default()
        },
    ) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Some(e) = args
        .save
        .as_ref()
        .and_then(|_| super::unrecordable(&session, "--save"))
    {
        return fail(e);
    }
    if let Some(e) = orders.unknown_side(&args.orders, &session.scenario.sides) {
        return fail(e);
    }
    // (an argument a command of the rules does not take is bad input, as one the engine's
    // `move` does not take: found before any order is played)
    if let OrdersFile::Commands(list) = &orders {
        for (i, order) in list.iter().enumerate() {
            if let Some(r) = session.game.rules_mut().unknown_argument(&order.command) {
                return fail(format!(
                    "{}:{}: order #{}: {}",
                    args.orders.display(),
                    order.line,
                    i + 1,
                    r.reason
                ));
            }
            // (a place the map lacks, misspelt: bad input, said with the nearest name, not a
            // rules error from deep inside the rules' move)
            if let crate::engine::Command::Move { path, .. } = &order.command {
                let map = &session.scenario.map;
                if let Some(bad) = path.iter().find(|p| map.canonical_place(p).is_none()) {
                    return fail(format!(
                        "{}:{}: order #{}: move: '{bad}' is not a {} of the map{}",
                        args.orders.display(),
                        order.line,
                        i + 1,
                        map.place_word(),
                        map.unknown_place_hint(bad)
                    ));
                }
            }
        }
    }
    // (not an error: an empty file plays nothing; said, since nothing else is printed)
    if orders.is_empty() {
        errln!(
            "warning: {}: no [[order]] or [[phase]] table: nothing to play",
            args.orders.display()
        );
    }
    let logged_before = session.game.log().len();
    let code = match &orders {
        OrdersFile::Commands(orders) => play_orders(args, &mut session, orders),
        OrdersFile::Phases(phases) => super::play_phases::run(args, &mut session, phases),
    };
    super::warn_changed_rules(&session.game);
    // (an error before anything was played, a phase the game is not at: the outputs are left
    // as they were, not replaced by the position the command was given)
    if code == EXIT_INPUT && session.game.log().len() == logged_before {
        return code;
    }
    // (the events as the orders left them, those of a command a rules error undid left out)
    if let Some(path) = &args.log {
        let written = crate::output_file::write_with(path, |out| {
            for event in session.game.log() {
                serde_json::to_writer(&mut *out, event)?;
                out.write_all(b"\n")?;
            }
            Ok(())
        });
        // (standard output whose reader closed the pipe ends there quietly, as all output does)
        if let Err(e) = written {
            if !super::output::reader_gone(path, &e) {
                return fail(format!("--log {}: {e}", path.display()));
            }
        }
    }
    // (the game as the orders left it: a rules error undid only the command that met it)
    if let Some(path) = &args.save {
        if let Err(e) = session.to_save().write(path) {
            if !super::run::save_reader_gone(path, &e) {
                return fail(e.to_string());
            }
        }
    }
    code
}

/// Plays `[[order]]` tables. On an error that stops the play (a rules error, exit 2) what was
/// done is still reported: in text it is already printed, with `--json` the array of the orders
/// done is printed, so stdout stays one JSON value.
fn play_orders(args: &PlayArgs, session: &mut Session, orders: &[SidedCommand]) -> i32 {
    let mut results = Vec::new();
    let outcome = play_each(args, session, orders, &mut results);
    if args.json {
        outln!("{}", Value::Array(results));
    }
    exit_code(outcome)
}

/// The exit code of a play: 0, 1 when orders were refused, 2 (with its message) on an error.
pub(super) fn exit_code(outcome: Result<usize, String>) -> i32 {
    match outcome {
        Ok(0) => EXIT_OK,
        Ok(_refused) => EXIT_GAME,
        Err(message) => fail(message),
    }
}

/// Submits each order in turn, printing it (text) or collecting it in `results` (JSON); the
/// number refused, or the error that stopped the play.
fn play_each(
    args: &PlayArgs,
    session: &mut Session,
    orders: &[SidedCommand],
    results: &mut Vec<Value>,
) -> Result<usize, String> {
    let mut refused = 0;
    // (the commands since the last end_phase: played, and refused)
    let (mut played_since_end, mut refused_since_end) = (0usize, Vec::new());
    // (a command without `side` is the file's player's: the side whose phase it was when the
    // file began; once the game reaches another side's phase such a command is refused, not
    // given for that side, so an end_phase too many does not play the opponent's turn)
    let player = session.game.phasing_side();
    for (
        i,
        SidedCommand {
            side,
            command,
            line,
        },
    ) in orders.iter().enumerate()
    {
        let at = format!("{}:{line}: order #{}", args.orders.display(), i + 1);
        let unnamed = side.is_none();
        let side = side.clone().or_else(|| session.game.phasing_side());
        let other_side = unnamed && player.is_some() && side.is_some() && side != player;
        // (an end_phase in a simultaneous step resolves it for every side: said when the file
        // goes on with commands of sides that gave none before it, which then fall in the next
        // phase; the order of `legal`'s pasted lists, each ending with end_phase, does that)
        let simultaneous = matches!(command, Command::EndPhase)
            && session.game.phasing_side().is_none()
            && !session.game.is_over();
        let label = if simultaneous {
            session.game.phase_label().ok().flatten()
        } else {
            None
        };
        let outcome = match held_back(
            session,
            command,
            other_side.then_some((&player, &side)),
            played_since_end,
            &refused_since_end,
        ) {
            Some(refusal) => Err(GameError::Refused(refusal)),
            None => session.game.submit(side.as_deref(), command),
        };
        if matches!(command, Command::EndPhase) {
            played_since_end = 0;
            refused_since_end.clear();
        } else if outcome.is_ok() {
            played_since_end += 1;
        } else {
            refused_since_end.push(format!("#{}", i + 1));
        }
        if let (Some(label), Ok(_)) = (&label, &outcome) {
            let late = sides_after_the_end(orders, i);
            if !late.is_empty() {
                errln!(
                    "note: {}:{line}: {}'s end_phase resolved {label} for every side; the \
                     file's later commands of {} are played in the next phase (give one \
                     end_phase after every side's orders)",
                    args.orders.display(),
                    side.as_deref().unwrap_or("-"),
                    late.join(", ")
                );
            }
        }
        super::show_script_log(&mut session.game);
        let (ok, detail) = match &outcome {
            Ok(events) => (true, serde_json::to_value(events).unwrap_or(Value::Null)),
            Err(GameError::Refused(r)) => {
                refused += 1;
                (
                    false,
                    serde_json::json!({"rule": r.rule, "reason": r.reason}),
                )
            }
            Err(e) => return Err(format!("{at}: {e}")),
        };
        let board = match &outcome {
            Ok(events) if events.iter().any(|e| matches!(e, Event::PhaseEnded { .. })) => {
                Some(board_of(session))
            }
            _ => None,
        };
        if args.json {
            let mut entry =
                serde_json::json!({"order": i + 1, "side": side, "command": command, "ok": ok});
            entry[if ok { "events" } else { "refused" }] = detail;
            if let Some(b) = board {
                entry["board"] = b;
            }
            results.push(entry);
        } else {
            let name = command.name();
            if ok {
                outln!(
                    "order {} ({}, {name}): ok",
                    i + 1,
                    side.as_deref().unwrap_or("-")
                );
                for e in outcome.iter().flatten() {
                    outln!("  {}", serde_json::to_string(e).unwrap_or_default());
                }
            } else {
                outln!(
                    "order {} ({}, {name}): refused: {}: {}",
                    i + 1,
                    side.as_deref().unwrap_or("-"),
                    detail["rule"].as_str().unwrap_or(""),
                    detail["reason"].as_str().unwrap_or("")
                );
            }
            if let Some(b) = board {
                outln!("board after the phase:");
                for line in board_text(session, &b) {
                    outln!("{line}");
                }
            }
        }
        if !ok && args.stop_on_refusal {
            let left = orders.len() - i - 1;
            errln!(
                "stopped at the refused order #{}: {left} order(s) after it not played",
                i + 1
            );
            break;
        }
    }
    Ok(refused)
}

/// Why `play` does not give `command` at all, or None: a command without a side once the game
/// is at another side's phase than the file's player's (`other`: the player and that side); an
/// end_phase after commands that were all refused since the last one, which would end a phase
/// without any of them (a file played a second time on its own save ended the combat phase
/// after its moves, all refused, with no attack).
fn held_back(
    session: &mut Session,
    command: &Command,
    other: Option<(&Option<String>, &Option<String>)>,
    played_since_end: usize,
    refused_since_end: &[String],
) -> Option<Refusal> {
    let text = |s: &Option<String>| s.as_deref().unwrap_or("-").to_string();
    if let Some((player, side)) = other {
        return Some(Refusal::new(
            "play",
            format!(
                "not played: the file's commands without a side are {}'s, and the game is at {} \
                 (give side = \"{}\" to play for it)",
                text(player),
                session.game.position_text(),
                text(side)
            ),
        ));
    }
    // (a finished game refuses the end_phase itself: `the game is over`, not a phase to end)
    if matches!(command, Command::EndPhase)
        && played_since_end == 0
        && !refused_since_end.is_empty()
        && !session.game.is_over()
    {
        return Some(Refusal::new(
            "play",
            format!(
                "not played: every command of this file before it in this phase was refused ({}), so it would \
                 end {} without them (give end_phase with no command before it to end the phase \
                 anyway)",
                refused_since_end.join(", "),
                session.game.position_text()
            ),
        ));
    }
    None
}

/// The sides that give commands after the `end_phase` at `end` (up to the next end_phase, in
/// file order) and none since the end_phase before it: in a simultaneous step, commands meant
/// for the phase that `end` resolved.
fn sides_after_the_end(orders: &[SidedCommand], end: usize) -> Vec<String> {
    let is_end = |c: &SidedCommand| matches!(c.command, Command::EndPhase);
    let start = orders[..end].iter().rposition(is_end).map_or(0, |k| k + 1);
    let before: Vec<&str> = orders[start..=end]
        .iter()
        .filter_map(|c| c.side.as_deref())
        .collect();
    let mut late: Vec<String> = Vec::new();
    for c in &orders[end + 1..] {
        if let Some(side) = c.side.as_deref() {
            if !before.contains(&side) && !late.iter().any(|s| s == side) {
                late.push(side.to_string());
            }
        }
        if is_end(c) {
            break;
        }
    }
    late
}

/// The board after a phase as text: side by side in the scenario's order, each unit as `id
/// place` with ids in natural order (`de-2-pz` before `de-10-pz`), as `status` lists them;
/// the units off the map last.
fn board_text(session: &Session, board: &Value) -> Vec<String> {
    let units = &session.game.state().units;
    let mut by_side: std::collections::BTreeMap<&str, Vec<(&str, &str)>> = Default::default();
    for (id, at) in board.as_object().into_iter().flatten() {
        let side = units.get(id).map_or("", |u| u.side.as_str());
        by_side
            .entry(side)
            .or_default()
            .push((id.as_str(), at.as_str().unwrap_or("off map")));
    }
    let mut sides: Vec<&str> = session.scenario.sides.iter().map(String::as_str).collect();
    sides.extend(
        by_side
            .keys()
            .filter(|s| !sides.contains(s))
            .copied()
            .collect::<Vec<_>>(),
    );
    let mut out = Vec::new();
    for side in sides {
        let Some(list) = by_side.get_mut(side) else {
            continue;
        };
        list.sort_by_key(|(id, _)| super::status::natural_key(id));
        let cells: Vec<String> = list.iter().map(|(id, at)| format!("{id} {at}")).collect();
        out.push(format!("  {side}: {}", cells.join(", ")));
    }
    out
}

fn board_of(session: &Session) -> Value {
    let mut board = Map::new();
    for (id, unit) in &session.game.state().units {
        board.insert(
            id.clone(),
            unit.at.clone().map(Value::String).unwrap_or(Value::Null),
        );
    }
    Value::Object(board)
}
