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
//! phase by phase by `play_phases`.

use std::path::PathBuf;

use clap::Args;
use serde_json::{Map, Value};

use crate::engine::{Event, GameError};
use crate::session::Session;

use super::orders::{OrdersFile, SidedCommand};
use super::{fail, EXIT_GAME, EXIT_OK};

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Scenario directory or file.
    pub scenario: PathBuf,
    /// Orders file (TOML: `[[order]]` tables, or `[[phase]]` tables with `[phase.orders]`).
    #[arg(long)]
    pub orders: PathBuf,
    /// A position to start from (TOML): `turn`/`phase`, `[[unit]]`, and what the rules read.
    #[arg(long)]
    pub setup: Option<PathBuf>,
    #[arg(long)]
    pub seed: Option<u64>,
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &PlayArgs) -> i32 {
    let text = match std::fs::read_to_string(&args.orders) {
        Ok(t) => t,
        Err(e) => {
            return fail(format!(
                "{}: cannot read orders: {e}",
                args.orders.display()
            ))
        }
    };
    let orders = match super::orders::parse_orders(&args.orders, &text) {
        Ok(OrdersFile::Commands(orders)) => orders,
        Ok(OrdersFile::Phases(phases)) => return super::play_phases::run(args, &phases),
        Err(e) => return fail(e),
    };
    let mut session = match super::play_phases::start(args) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut refused = 0;
    let mut results = Vec::new();
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
        let side = side.clone().or_else(|| session.game.phasing_side());
        let outcome = session.game.submit(side.as_deref(), command);
        let (ok, detail) = match &outcome {
            Ok(events) => (true, serde_json::to_value(events).unwrap_or(Value::Null)),
            Err(GameError::Refused(r)) => {
                refused += 1;
                (
                    false,
                    serde_json::json!({"rule": r.rule, "reason": r.reason}),
                )
            }
            Err(e) => return fail(format!("{at}: {e}")),
        };
        let board = match &outcome {
            Ok(events) if events.iter().any(|e| matches!(e, Event::PhaseEnded { .. })) => {
                Some(board_of(&session))
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
                for (id, at) in b.as_object().into_iter().flatten() {
                    outln!("  {id}: {}", at.as_str().unwrap_or("off map"));
                }
            }
        }
    }
    if args.json {
        outln!("{}", Value::Array(results));
    }
    if refused > 0 {
        EXIT_GAME
    } else {
        EXIT_OK
    }
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
