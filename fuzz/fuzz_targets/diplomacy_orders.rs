//! Diplomacy order notation, parsed in Lua (`rules/diplomacy/orders.lua`), fuzzed through the
//! host: one game of the standard scenario is loaded once; each input is one power's order list
//! (the first byte picks the power, the rest is one order a line). Every refusal must leave the
//! state unchanged. Resubmitting a power's orders replaces them, so inputs do not pile up.
//! One input in 16 (by its second byte) also adjudicates on a fresh game, to drive the parsed
//! orders through the adjudicator.
#![no_main]

use std::sync::{Mutex, OnceLock};

use hexwar::engine::{Command, GameError};
use hexwar::Session;
use hexwar_fuzz::{start, submit_checked};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

const POWERS: [&str; 7] = [
    "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
];

fn game() -> &'static Mutex<Session> {
    static GAME: OnceLock<Mutex<Session>> = OnceLock::new();
    GAME.get_or_init(|| Mutex::new(start("diplomacy")))
}

fn orders(power: &str, lines: &[&str]) -> Command {
    let mut args = Map::new();
    args.insert("power".into(), Value::String(power.into()));
    args.insert(
        "orders".into(),
        Value::Array(lines.iter().map(|l| Value::String((*l).into())).collect()),
    );
    Command::Custom {
        name: "orders".into(),
        args,
    }
}

fuzz_target!(|data: &[u8]| {
    let [pick, mode, rest @ ..] = data else {
        return;
    };
    let Some(text) = hexwar_fuzz::text(rest) else {
        return;
    };
    let power = POWERS[*pick as usize % POWERS.len()];
    let lines: Vec<&str> = text.lines().take(64).collect();
    let command = orders(power, &lines);
    if mode % 16 == 0 {
        let mut session = start("diplomacy");
        if submit_checked(&mut session.game, Some(power), &command).is_ok() {
            match submit_checked(&mut session.game, None, &Command::EndPhase) {
                Ok(_) | Err(GameError::Refused(_)) => {}
                Err(e) => panic!("adjudicating {lines:?} for {power} failed: {e}"),
            }
        }
        return;
    }
    let mut session = game().lock().unwrap_or_else(|e| e.into_inner());
    match submit_checked(&mut session.game, Some(power), &command) {
        Ok(_) | Err(GameError::Refused(_)) => {}
        // A script error on an order list is a bug in the rules: they must refuse, not fail.
        Err(e) => panic!("orders {lines:?} for {power} failed: {e}"),
    }
});
