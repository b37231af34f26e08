//! `hexwar run --profile`: the report names the rules' Lua functions and the `hex.*` calls, and
//! profiling changes nothing in the game itself.

use std::process::{Command, Output};

fn hexwar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("HEXWAR_PROFILE")
        .output()
        .unwrap()
}

#[test]
fn profile_reports_lua_functions_and_host_calls_without_changing_the_game() {
    let plain = hexwar(&["run", "scenarios/demo", "--seed", "3", "--json"]);
    let profiled = hexwar(&[
        "run",
        "scenarios/demo",
        "--seed",
        "3",
        "--json",
        "--profile",
    ]);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(profiled.status.code(), Some(0));
    assert_eq!(plain.stdout, profiled.stdout, "profiling changed the game");
    assert!(plain.stderr.is_empty());
    let report = String::from_utf8(profiled.stderr).unwrap();
    let sections: Vec<&str> = report.lines().filter(|l| l.starts_with("-- ")).collect();
    assert_eq!(
        sections,
        [
            "-- Lua functions (share of instructions)",
            "-- Lua lines (share of instructions)",
            "-- rules entry points (calls, total ms, us a call)",
            "-- hex.* functions (calls, total ms, us a call)",
        ]
    );
    assert!(report.starts_with("profile: "), "{report}");
    // The demo's rules run in rules/demo; their functions and lines are named with the file.
    assert!(
        report.lines().any(|l| l.contains("% rules/demo/")),
        "{report}"
    );
    // Every entry point row is `calls total per-call NAME (origin)`, named as in an error
    // message: the demo's bot and its move command are there.
    let entries: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.starts_with("-- rules entry points"))
        .skip(1)
        .take_while(|l| !l.starts_with("-- "))
        .collect();
    for expected in [
        "bot 'demo.ai' (rules/demo/ai.lua:19)",
        "command 'move' (rules/demo/movement.lua:23)",
        "handler for PhaseEnded (rules/lib/init.lua:52)",
    ] {
        assert!(
            entries.iter().any(|row| row.ends_with(expected)),
            "{expected} missing from {entries:?}"
        );
    }
    for row in &entries {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert!(fields.len() >= 4, "{row}");
        assert!(fields[0].parse::<u64>().unwrap() > 0, "{row}");
        assert!(fields[2].parse::<f64>().is_ok(), "{row}");
    }
    // Every host row is `calls total per-call hex.NS.NAME`.
    let host: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.starts_with("-- hex.*"))
        .skip(1)
        .collect();
    assert!(!host.is_empty(), "{report}");
    for row in host {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields.len(), 4, "{row}");
        assert!(fields[0].parse::<u64>().unwrap() > 0, "{row}");
        assert!(fields[3].starts_with("hex."), "{row}");
    }
}
