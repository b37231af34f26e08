//! Hostile scripts (tests/hostile/scripts): each is stopped with an error naming the script and
//! line, the game state stays byte-identical, and the host answers the next call.

use std::path::Path;

use hexwar::engine::{Command, GameError};
use hexwar::Session;
use serde_json::{Map, Value};

fn hostile(script: &str) -> Command {
    let mut args = Map::new();
    args.insert("script".into(), Value::String(script.into()));
    Command::Custom {
        name: "hostile".into(),
        args,
    }
}

/// Runs one script; returns the error message after checking state and liveness.
fn run_hostile(script: &str) -> String {
    let mut session = Session::start(Path::new("tests/hostile"), Some(1)).expect("harness loads");
    let before = serde_json::to_string(session.game.state()).unwrap();
    let err = match session.game.submit(Some("blue"), &hostile(script)) {
        Err(GameError::Rules(e)) => e.message,
        other => panic!("{script}: expected a rules error, got {other:?}"),
    };
    let after = serde_json::to_string(session.game.state()).unwrap();
    assert_eq!(before, after, "{script}: the state changed");
    // The host still answers: a legal move goes through.
    let moved = session
        .game
        .submit(
            Some("blue"),
            &Command::Move {
                unit: "b1".into(),
                path: vec!["0303".into()],
            },
        )
        .unwrap_or_else(|e| panic!("{script}: host dead after the error: {e}"));
    assert!(moved.iter().any(|e| e.name() == "UnitMoved"));
    err
}

fn assert_contains(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "expected {part:?} in:\n{message}");
    }
}

#[test]
fn endless_loop_is_stopped_by_the_instruction_budget() {
    let m = run_hostile("endless_loop");
    assert_contains(
        &m,
        &[
            "hostile/scripts/endless_loop.lua:2:",
            "instruction budget of 2000000 instructions exceeded",
        ],
    );
}

#[test]
fn endless_loop_in_a_coroutine_is_stopped() {
    let m = run_hostile("endless_loop_in_coroutine");
    assert_contains(
        &m,
        &[
            "hostile/scripts/endless_loop_in_coroutine.lua:4:",
            "instruction budget",
        ],
    );
}

#[test]
fn memory_bomb_table_hits_the_memory_limit() {
    let m = run_hostile("memory_bomb_table");
    assert_contains(
        &m,
        &[
            "memory limit of 32 MiB exceeded",
            "hostile/scripts/memory_bomb_table.lua:3",
        ],
    );
}

#[test]
fn memory_bomb_string_rep_hits_the_memory_limit() {
    let m = run_hostile("memory_bomb_string_rep");
    // The allocation happens inside one C call, so the message names the handler that ran it.
    assert_contains(
        &m,
        &["command 'hostile' (hostile/harness.lua:4): memory limit of 32 MiB exceeded"],
    );
}

#[test]
fn io_library_is_absent() {
    let m = run_hostile("io_open");
    assert_contains(&m, &["hostile/scripts/io_open.lua:2:", "global 'io'"]);
}

#[test]
fn os_library_is_absent() {
    let m = run_hostile("os_execute");
    assert_contains(&m, &["hostile/scripts/os_execute.lua:2:", "global 'os'"]);
}

#[test]
fn load_of_bytecode_is_refused() {
    let m = run_hostile("load_bytecode");
    assert_contains(
        &m,
        &[
            "hostile/scripts/load_bytecode.lua:3:",
            "binary chunks are not allowed",
        ],
    );
}

#[test]
fn require_outside_the_rule_roots_is_refused() {
    let m = run_hostile("require_outside_roots");
    assert_contains(
        &m,
        &[
            "hostile/scripts/require_outside_roots.lua:2:",
            "paths, '..' and '/' are not allowed",
        ],
    );
}

#[test]
fn string_dump_is_absent() {
    let m = run_hostile("string_dump");
    assert_contains(&m, &["hostile/scripts/string_dump.lua:2:", "field 'dump'"]);
}

#[test]
fn dofile_is_absent() {
    let m = run_hostile("dofile");
    assert_contains(&m, &["hostile/scripts/dofile.lua:2:", "global 'dofile'"]);
}

#[test]
fn collectgarbage_stop_is_refused() {
    let m = run_hostile("collectgarbage_stop");
    assert_contains(
        &m,
        &[
            "hostile/scripts/collectgarbage_stop.lua:2:",
            "collectgarbage(\"stop\") is not allowed",
        ],
    );
}

#[test]
fn the_api_table_is_read_only() {
    let m = run_hostile("tamper_api");
    assert_contains(
        &m,
        &[
            "hostile/scripts/tamper_api.lua:2:",
            "the hex API is read-only",
        ],
    );
}

#[test]
fn deep_recursion_is_stopped() {
    let m = run_hostile("deep_recursion");
    assert_contains(&m, &["hostile/scripts/deep_recursion.lua:1"]);
}

#[test]
fn pcall_cannot_swallow_the_budget() {
    let m = run_hostile("pcall_swallows_budget");
    assert_contains(
        &m,
        &[
            "hostile/scripts/pcall_swallows_budget.lua:3:",
            "instruction budget",
        ],
    );
}
