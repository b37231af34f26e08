//! The save loader (`src/engine/save.rs`). Raw text goes through `Save::from_json` (format,
//! version, checksum). Because anyone can recompute a checksum, text that has a save's shape
//! is also re-sealed with a valid checksum and resumed against the demo scenario: the resumed
//! game must refuse or fail cleanly, never panic, and keep its state on every failure.
#![no_main]

use std::path::Path;

use hexwar::engine::{Command, Save};
use hexwar::Session;
use hexwar_fuzz::{repo, submit_checked};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = hexwar_fuzz::text(data) else {
        return;
    };
    let path = Path::new("fuzz/save.json");
    if let Ok(save) = Save::from_json(path, text) {
        // What was read writes back to a save that reads as the same save.
        let again = Save::from_json(path, &save.to_json()).expect("a save re-reads");
        assert_eq!(again, save);
    }
    let Ok(shaped) = serde_json::from_str::<Save>(text) else {
        return;
    };
    let sealed = Save::new(
        repo().join("scenarios/demo/scenario.toml"),
        shaped.seed,
        shaped.bot_dice,
        shaped.state,
    );
    let Ok(mut session) = Session::resume_save(sealed, path) else {
        return;
    };
    let sides = session.scenario.sides.clone();
    for side in &sides {
        let _ = session.game.legal_commands(side);
    }
    let units: Vec<String> = session.game.state().units.keys().take(4).cloned().collect();
    for unit in units {
        let _ = session
            .game
            .query("reach", &serde_json::Value::String(unit));
    }
    let side = session.game.phasing_side();
    let _ = submit_checked(&mut session.game, side.as_deref(), &Command::EndPhase);
});
