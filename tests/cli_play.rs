//! `hexwar play`: orders from a file, each result, the board after each phase, exit 1 on a refusal.

mod common;

use common::{hexwar, stderr, stdout};

#[test]
fn play_reports_each_order_and_the_board_after_the_phase() {
    let out = hexwar(&[
        "play",
        "tests/fixtures/demo_positions",
        "--orders",
        "tests/fixtures/orders/demo_positions.toml",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "one order is refused: {}",
        stderr(&out)
    );
    let results: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let results = results.as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results[0]["ok"], true);
    assert_eq!(results[0]["events"][1]["event"], "UnitMoved");
    assert_eq!(results[0]["events"][1]["to"], "0604");
    assert_eq!(results[1]["ok"], false);
    assert_eq!(
        results[1]["refused"],
        serde_json::json!({"rule": "DEMO-1", "reason": "b1 has already moved this phase"})
    );
    assert_eq!(results[2]["ok"], true);
    assert_eq!(
        results[2]["board"],
        serde_json::json!({"b1": "0604", "b2": "0503", "b3": "0403", "r1": "0706", "r2": "0902"})
    );
}

#[test]
fn play_text_output_names_the_refusing_rule() {
    let out = hexwar(&[
        "play",
        "tests/fixtures/demo_positions",
        "--orders",
        "tests/fixtures/orders/demo_positions.toml",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out)
            .contains("order 2 (blue, move): refused: DEMO-1: b1 has already moved this phase\n"),
        "{}",
        stdout(&out)
    );
}

// Broken orders files (TOML errors, orders without a command, ...): tests/errors/orders_*.

/// `play` takes a save as every game command does (DESIGN.md): its orders continue the saved
/// game; `--seed` is refused there, the save carrying its own.
#[test]
fn play_continues_a_save() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("turn-2.json");
    let orders = dir.path().join("orders.toml");
    std::fs::write(&orders, "[[order]]\ncommand = \"end_phase\"\n").unwrap();
    let save = save.to_str().unwrap();
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--seed",
        "7",
        "--turns",
        "1",
        "--save",
        save,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&["play", save, "--orders", orders.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let results: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(results[0]["ok"], true);
    assert_eq!(
        results[0]["events"][0],
        serde_json::json!({"event": "PhaseEnded", "turn": 2, "step": 0, "side": "blue", "phase": "movement"})
    );
    let out = hexwar(&[
        "play",
        save,
        "--orders",
        orders.to_str().unwrap(),
        "--seed",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --seed cannot be used when continuing a save (the save carries its seed)\n"
    );
}
