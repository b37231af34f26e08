//! What the rules' scripts print (`print`, `hex.log`) reaches stderr from `hexwar run` and
//! `hexwar play`, a line each (`script: ...`), in the order printed; stdout keeps only the
//! command's own output (docs/guide.md, "`hex.log` and `print`").

mod common;

use common::{hexwar, stderr, stdout};

const SCENARIO: &str = "tests/fixtures/printing";

#[test]
fn run_shows_what_scripts_print_on_stderr() {
    let out = hexwar(&["run", SCENARIO, "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "script: phase\tmovement\t1\nscript: started blue\n\
         script: phase\tcombat\t1\nscript: started blue\n\
         script: phase\tmovement\t1\nscript: started red\n\
         script: phase\tcombat\t1\nscript: started red\n"
    );
    assert!(!stdout(&out).contains("script:"));
}

#[test]
fn play_shows_what_scripts_print_on_stderr() {
    let out = hexwar(&[
        "play",
        SCENARIO,
        "--orders",
        &format!("{SCENARIO}/orders.toml"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "script: phase\tmovement\t1\nscript: started blue\n\
         script: phase\tcombat\t1\nscript: started blue\n"
    );
}

/// A `GameStarted` handler reads turn 0 (no `PhaseStarted` yet), while the phase and side
/// already name the first step; the first `PhaseStarted` makes it turn 1 (docs/guide.md, "Core
/// events").
#[test]
fn a_game_started_handler_reads_turn_0_and_the_first_step() {
    let dir = tempfile::tempdir().unwrap();
    let probe = dir.path().join("probe.lua");
    std::fs::write(
        &probe,
        "hex.events.on('GameStarted', function() print('GS', hex.state.turn(), hex.state.phase(), hex.state.side()) end)\n\
         hex.events.on('PhaseStarted', function(e) if e.turn == 1 and e.step == 0 then print('PS', hex.state.turn()) end end)\n",
    )
    .unwrap();
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--turns",
        "1",
        "--mod",
        probe.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "script: GS\t0\tmovement\tblue\nscript: PS\t1\n"
    );
}

/// A handler that prints, then fails as the game starts (its first `PhaseStarted`): the lines
/// it printed come before the error, as a load error's do; they were lost with the game.
#[test]
fn what_scripts_print_before_the_game_fails_to_start_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let probe = dir.path().join("probe.lua");
    std::fs::write(
        &probe,
        "hex.events.on('PhaseStarted', function(e) print('starting', e.turn) error('no start') end)\n",
    )
    .unwrap();
    for command in ["run", "status"] {
        let out = hexwar(&[command, "scenarios/demo", "--mod", probe.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("script: starting\t1\nerror: rules error: handler for PhaseStarted (")
                && err.contains("probe.lua:1: no start"),
            "{command}: {err}"
        );
    }
}

/// `check` shows those lines too, before its own error; and a setup that starts a step whose
/// `PhaseStarted` handler prints and fails (`--setup` with a phase) shows them before the error.
#[test]
fn what_scripts_print_before_check_or_a_setup_fails_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let start = dir.path().join("start.lua");
    std::fs::write(
        &start,
        "hex.events.on('PhaseStarted', function(e) print('starting', e.turn) error('no start') end)\n",
    )
    .unwrap();
    let out = hexwar(&["check", "scenarios/demo", "--mod", start.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with("script: starting\t1\nerror: the game does not start: rules error: "),
        "{err}"
    );
    let combat = dir.path().join("combat.lua");
    std::fs::write(
        &combat,
        "hex.events.on('PhaseStarted', function(e) if e.phase == 'combat' then print('combat', e.turn) error('no combat') end end)\n",
    )
    .unwrap();
    let setup = dir.path().join("setup.toml");
    std::fs::write(&setup, "phase = \"combat\"\n").unwrap();
    let out = hexwar(&[
        "status",
        "scenarios/demo",
        "--setup",
        setup.to_str().unwrap(),
        "--mod",
        combat.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with("script: combat\t1\nerror: rules error: handler for PhaseStarted (")
            && err.contains("combat.lua:1: no combat"),
        "{err}"
    );
}
