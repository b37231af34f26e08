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

/// The text board after a phase lists each side's units on one line, ids in natural order
/// (`b-inf-2` before `b-inf-10`), as `status` does: it was one line a unit, every side mixed
/// in the order of the ids as text (125 lines for France 1940).
#[test]
fn play_text_lists_the_board_side_by_side_in_natural_order() {
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("o.toml");
    for (scenario, side, shown) in [
        (
            "scenarios/demo",
            "blue",
            "board after the phase:\n  blue: b-arm-1 0103, b-art-1 0203, b-inf-1 0102, b-inf-2 0204\n  red: r-arm-1 1207, r-inf-1 1208, r-inf-2 1109, r-mtn-1 1110\n",
        ),
        (
            "scenarios/france1940",
            "german",
            "\n  german: de-1-kav 3201, de-1-pz 2916, de-2-mot 3015, de-2-pz 2916, de-3-pz 2911, de-4-pz 2911, de-5-pz 2913, de-6-pz 2915, de-7-pz 2913, de-8-pz 2915, de-9-pz 2907, de-10-pz 2916, de-13-mot 3015, ",
        ),
    ] {
        let text = format!("[[order]]\nside = \"{side}\"\ncommand = \"end_phase\"\n");
        std::fs::write(&orders, text).unwrap();
        let out = hexwar(&["play", scenario, "--orders", orders.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stdout(&out).contains(shown), "{}", stdout(&out));
    }
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

// Broken orders files (TOML errors, orders without a command, a side the scenario lacks, ...):
// tests/errors/orders_*.

/// An order the rules fail on (a script error, exit 2) after one that was played: the text
/// output keeps the order done, and with `--json` stdout is still one JSON value, the array of
/// the orders done; the error is on stderr either way.
#[test]
fn play_reports_the_orders_done_before_a_rules_error() {
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("orders.toml");
    std::fs::write(
        &orders,
        "[[order]]\nside = \"blue\"\ncommand = \"attack\"\ntarget = \"b1\"\n\n\
         [[order]]\nside = \"blue\"\ncommand = \"attack\"\ntarget = \"r9\"\n",
    )
    .unwrap();
    let orders = orders.to_str().unwrap();
    let error = format!(
        "error: {orders}:6: order #2: rules error: command 'attack' (rules/broken/init.lua:3): \
         rules/broken/init.lua:5: attempt to index a nil value (local 'target')\n"
    );
    let scenario = "tests/errors/rules_handler_error";

    let out = hexwar(&["play", scenario, "--orders", orders]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stdout(&out),
        "order 1 (blue, attack): ok\n  \
         {\"event\":\"UnitEliminated\",\"unit\":\"b1\",\"reason\":\"attacked\"}\n"
    );
    assert_eq!(stderr(&out), error);

    let out = hexwar(&["play", scenario, "--orders", orders, "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let done: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        done,
        serde_json::json!([{
            "order": 1, "side": "blue", "ok": true,
            "command": {"command": "attack", "target": "b1"},
            "events": [{"event": "UnitEliminated", "unit": "b1", "reason": "attacked"}],
        }])
    );
    assert_eq!(stderr(&out), error);
}

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

/// A setup file's `[control]` names the file and the line in its errors; rules with a setup table of their
/// own (France 1940) judge the key themselves: control there follows the units (F40-7).
#[test]
fn a_setup_control_error_names_the_file_and_france_1940_refuses_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("orders.toml");
    std::fs::write(&orders, "[[order]]\ncommand = \"end_phase\"\n").unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[control]\nred = [\"0101\", \"9999\"]\n").unwrap();
    let (orders, bad) = (orders.to_str().unwrap(), bad.to_str().unwrap());
    let out = hexwar(&["play", "scenarios/demo", "--setup", bad, "--orders", orders]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!("error: {bad}:2: [control].red: '9999' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)\n")
    );
    // (a misspelt side, in [control] and as the side to play: its line and the nearest side)
    let side = dir.path().join("side.toml");
    let side = side.to_str().unwrap();
    for (text, said) in [
        (
            "turn = 1\n[control]\nred = [\"0101\"]\nbleu = [\"0102\"]\n",
            "4: [control]: unknown side 'bleu'",
        ),
        (
            "turn = 1\nside = \"bleu\"\n",
            "2: setup refused: setup: unknown side 'bleu'",
        ),
    ] {
        std::fs::write(side, text).unwrap();
        let out = hexwar(&[
            "play",
            "scenarios/demo",
            "--setup",
            side,
            "--orders",
            orders,
        ]);
        assert_eq!(
            stderr(&out),
            format!("error: {side}:{said}: did you mean 'blue'? (sides: blue, red)\n")
        );
    }
    let f40 = dir.path().join("f40.toml");
    std::fs::write(&f40, "[control]\ngerman = [\"0101\"]\n").unwrap();
    let f40 = f40.to_str().unwrap();
    let out = hexwar(&[
        "play",
        "scenarios/france1940",
        "--setup",
        f40,
        "--orders",
        orders,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!("error: {f40}:1: setup refused: F40-setup: unknown key 'control' (a France 1940 setup holds invaded, phase, pools, side, turn and [[unit]] tables)\n")
    );
}

/// An orders file with no order plays nothing, and says so (nothing else would be printed).
#[test]
fn an_empty_orders_file_plays_nothing_and_says_so() {
    let out = hexwar(&[
        "play",
        "scenarios/demo",
        "--orders",
        "tests/fixtures/orders/empty.toml",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "warning: tests/fixtures/orders/empty.toml: no [[order]] or [[phase]] table: nothing to play\n"
    );
}

/// A file played a second time on the save it made: its commands are refused (the phase they
/// were for is over), and its end_phase, which would end the next phase without any of them,
/// is not played either; the save stays as it was.
#[test]
fn an_end_phase_after_commands_all_refused_is_not_played() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let save = save.to_str().unwrap();
    let orders = "tests/fixtures/orders/demo_positions.toml";
    let out = hexwar(&[
        "play",
        "tests/fixtures/demo_positions",
        "--orders",
        orders,
        "--save",
        save,
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let first = std::fs::read(save).unwrap();
    let out = hexwar(&["play", save, "--orders", orders, "--save", save]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.ends_with(
            "order 3 (blue, end_phase): refused: play: not played: every command of this file \
             before it in this phase was refused (#1, #2), so it would end turn 1, combat (blue) without them (give \
             end_phase with no command before it to end the phase anyway)\n"
        ),
        "{text}"
    );
    assert_eq!(std::fs::read(save).unwrap(), first, "the save is as it was");
}

/// A finished game refuses the end_phase as it refuses every command, `the game is over` (it
/// was refused as the end of a phase "without them", as if a phase could still be ended).
#[test]
fn an_end_phase_in_a_finished_game_is_refused_as_the_game_is_over() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("end.json");
    let save = save.to_str().unwrap();
    let out = hexwar(&["run", "tests/fixtures/demo_positions", "--save", save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&[
        "play",
        save,
        "--orders",
        "tests/fixtures/orders/demo_positions.toml",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("order 3 (blue, end_phase): refused: sequence: the game is over\n"),
        "{text}"
    );
}

/// A command without a side is the file's player's (the side whose phase it was when the file
/// began): after an end_phase too many the game is at the other side's phase, and the command
/// is refused, not given for that side.
#[test]
fn a_command_without_a_side_is_not_given_for_the_other_side() {
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("orders.toml");
    std::fs::write(
        &orders,
        "[[order]]\ncommand = \"end_phase\"\n[[order]]\ncommand = \"end_phase\"\n\
         [[order]]\ncommand = \"move\"\nunit = \"r1\"\npath = [\"0705\"]\n",
    )
    .unwrap();
    let out = hexwar(&[
        "play",
        "tests/fixtures/demo_positions",
        "--orders",
        orders.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with(
            "order 3 (red, move): refused: play: not played: the file's commands without a side \
             are blue's, and the game is at turn 1, movement (red) (give side = \"red\" to play \
             for it)\n"
        ),
        "{}",
        stdout(&out)
    );
}
