//! Trusted rules (`Limits::trusted`, `--trusted`; docs/sandbox.md, "Trusted rules"): the host
//! vouches for the rules, which then run without the instruction budget and its backstop, and
//! play the same games as with them.

use std::path::Path;
use std::process::Command as Process;

use hexwar::engine::RulesErrorKind;
use hexwar::rules::LuaRules;
use hexwar::scenario::load_scenario;
use hexwar::Session;

/// Three million turns of a loop: over the harness's budget of two million instructions.
const LONG_LOOP: &str = "local n = 0; for i = 1, 3000000 do n = n + 1 end; return n";

#[test]
fn trusted_rules_run_past_the_instruction_budget() {
    let mut scenario = load_scenario(Path::new("tests/hostile")).unwrap();
    let state = scenario.initial_state(1);
    let mut bounded = LuaRules::load(&scenario).unwrap();
    let error = bounded.eval(&state, LONG_LOOP).unwrap_err();
    assert_eq!(error.kind, RulesErrorKind::InstructionBudget, "{error}");
    assert!(
        error
            .message
            .contains("instruction budget of 2000000 instructions exceeded"),
        "{error}"
    );

    scenario.limits.trusted = true;
    let mut trusted = LuaRules::load(&scenario).unwrap();
    assert_eq!(
        trusted.eval(&state, LONG_LOOP).unwrap(),
        serde_json::json!(3000000)
    );
}

#[test]
fn trusted_rules_keep_the_memory_limit() {
    let mut scenario = load_scenario(Path::new("tests/hostile")).unwrap();
    scenario.limits.trusted = true;
    let state = scenario.initial_state(1);
    let mut trusted = LuaRules::load(&scenario).unwrap();
    let error = trusted
        .eval(
            &state,
            "local t = {}; for i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end; return #t",
        )
        .unwrap_err();
    assert_eq!(error.kind, RulesErrorKind::Memory, "{error}");
    // (and the VM still answers)
    assert_eq!(
        trusted.eval(&state, "return 1 + 1").unwrap(),
        serde_json::json!(2)
    );
}

/// The same game, event for event, with and without the budget.
#[test]
fn a_game_with_trusted_rules_is_the_same_game() {
    let play = |trusted: bool| {
        let mut scenario = load_scenario(Path::new("scenarios/france1940")).unwrap();
        scenario.limits.trusted = trusted;
        let mut session = Session::start_scenario(scenario, Some(3)).unwrap();
        session
            .play_bots(hexwar::bot::RunLimit::BeforeTurn(3))
            .unwrap();
        serde_json::to_string(session.game.log()).unwrap()
    };
    assert_eq!(play(false), play(true));
}

/// `Session::resume_save_adjusted` gives the host's settings to a resumed game, which a save
/// does not record.
#[test]
fn a_resumed_game_can_be_trusted_again() {
    let scenario = load_scenario(Path::new("tests/hostile")).unwrap();
    let session = Session::start_scenario(scenario, Some(1)).unwrap();
    let save = session.to_save();
    let mut resumed = Session::resume_save_adjusted(
        save,
        Path::new("in-memory.json"),
        |s| {
            s.limits.trusted = true;
            Ok(())
        },
        |rules| Box::new(rules),
    )
    .unwrap();
    assert!(resumed.scenario.limits.trusted);
    let events = resumed
        .game
        .submit(Some("blue"), &hexwar::engine::Command::EndPhase)
        .unwrap();
    assert!(!events.is_empty());
}

fn hexwar(args: &[&str]) -> (String, String, i32) {
    let out = Process::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn run_trusted_prints_the_same_game_and_batch() {
    let single = ["run", "scenarios/demo", "--seed", "5"];
    let (plain, _, code) = hexwar(&single);
    assert_eq!(code, 0);
    let (trusted, _, code) = hexwar(&[&single[..], &["--trusted"]].concat());
    assert_eq!(code, 0);
    assert_eq!(plain, trusted);

    let batch = [
        "run",
        "scenarios/demo",
        "--games",
        "4",
        "--jobs",
        "1",
        "--quiet",
    ];
    let (plain, _, code) = hexwar(&batch);
    assert_eq!(code, 0);
    let (trusted, _, code) = hexwar(&[&batch[..], &["--trusted"]].concat());
    assert_eq!(code, 0);
    assert_eq!(plain, trusted);
}

/// Limits a host sets in Rust are held to the ranges a scenario file may set: `instructions =
/// 0` used to fail at load as if the rules had run out of budget, then as a script error. The
/// budget is not checked
/// for trusted rules, which run without it.
#[test]
fn limits_set_by_the_host_are_range_checked_at_load() {
    let base = load_scenario(Path::new("scenarios/demo")).unwrap();
    type Edit = fn(&mut hexwar::scenario::Limits);
    let cases: [(Edit, &str); 5] = [
        (
            |l| l.instructions = 0,
            "limits.instructions = 0 is out of range: 1000 to 10000000000 (Scenario.limits, set by the host)",
        ),
        (
            |l| l.wall_ms = 0,
            "limits.wall_ms = 0 is out of range: 1 to 600000 (Scenario.limits, set by the host)",
        ),
        (
            |l| l.memory_bytes = 1000,
            "limits.memory_bytes = 1000 is out of range: 1048576 to 4294967296 (Scenario.limits, set by the host)",
        ),
        (
            |l| l.event_depth = 0,
            "limits.event_depth = 0 is out of range: 1 to 1000 (Scenario.limits, set by the host)",
        ),
        (
            |l| l.events_per_command = 0,
            "limits.events_per_command = 0 is out of range: 1 to 1000000 (Scenario.limits, set by the host)",
        ),
    ];
    for (edit, message) in cases {
        let mut scenario = base.clone();
        edit(&mut scenario.limits);
        let e = LuaRules::load(&scenario).expect_err("refused");
        assert_eq!(e.errors, vec![message.to_string()]);
        // (the calling program's mistake, not the scripts')
        assert_eq!(e.kind, hexwar::engine::RulesErrorKind::HostCall);
    }
    let mut trusted = base.clone();
    trusted.limits.trusted = true;
    trusted.limits.instructions = 0;
    assert!(LuaRules::load(&trusted).is_ok());
}
