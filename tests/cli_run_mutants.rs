//! `hexwar run`'s summary of a game it stopped before the end, pinned where mutation testing
//! of `src/cli/run.rs` found it unchecked.

use std::process::Command;

fn hexwar(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = hexwar(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A run from a save taken in the middle of a turn (here where `--until-side red` stopped the
/// demo, at red's movement of turn 1) says it stopped *during* the turn when `--turns 0` plays
/// nothing, and *at the start* of the next turn when `--turns 1` plays the rest of it: the
/// summary tells a person where the game stands without asking `status`.
#[test]
fn a_run_stopped_mid_turn_says_during_and_one_stopped_as_a_turn_begins_says_at_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("red.json");
    let save = save.to_str().unwrap();
    let stopped = ok(&[
        "run",
        "scenarios/demo",
        "--until-side",
        "red",
        "--save",
        save,
    ]);
    assert!(
        stopped.contains("\nwaiting for red to play: turn 1, movement (red)\n"),
        "{stopped}"
    );

    assert_eq!(
        ok(&["run", save, "--turns", "0"]),
        "scenario: Demo: the river valley (demo)\n\
         seed: 1\n\
         stopped during turn 1 of 8 (not finished)\n\
         commands: 0\n\
         events: none\n"
    );
    let next = ok(&["run", save, "--turns", "1"]);
    assert!(
        next.contains("\nstopped at the start of turn 2 of 8 (not finished)\n"),
        "{next}"
    );
}
