//! Shared pieces of the fuzz targets: the repository's scenarios, and the oracle every target
//! applies to a game: a command that fails leaves the state byte-identical.

use std::path::PathBuf;

use hexwar::engine::{Command, Event, Game, GameError};
use hexwar::Session;

/// Most commands one input may give, so one input cannot run for minutes.
pub const MAX_COMMANDS: usize = 32;

/// The repository root (the fuzz package lives in `fuzz/`).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A shipped scenario, started with seed 1. A scenario that does not load is a broken
/// checkout, not a finding, so this panics.
pub fn start(scenario: &str) -> Session {
    let path = repo().join("scenarios").join(scenario);
    match Session::start(&path, Some(1)) {
        Ok(s) => s,
        Err(e) => panic!("the shipped scenario {scenario} does not load: {e}"),
    }
}

/// The fuzz input as text; libFuzzer's non-UTF-8 inputs are skipped (every file format here
/// is UTF-8 TOML or JSON, and the readers refuse other bytes before parsing).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Submits a command and checks the engine's promise: on any error the state is unchanged.
pub fn submit_checked(
    game: &mut Game,
    side: Option<&str>,
    command: &Command,
) -> Result<Vec<Event>, GameError> {
    let before = game.state().hash();
    let result = game.submit(side, command);
    if result.is_err() {
        assert_eq!(
            before,
            game.state().hash(),
            "a failed command changed the state: {command:?} -> {result:?}"
        );
    }
    result
}
