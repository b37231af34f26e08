//! `--mod FILE.lua` on the command line: a variant over a scenario without copying it. The mod
//! loads after the scenario's rules (its folder one more rule root), and saves, replays and
//! batches record it.

use serde_json::Value;

mod common;

use common::{hexwar, stderr, stdout};

const RED_WINS: &str = "tests/fixtures/mods/red_wins.lua";

/// `run --mod` plays the scenario under the mod (the demo's victory replaced: red wins every
/// game) and says so in the summary, as text and as JSON.
#[test]
fn run_plays_the_scenario_under_the_mod() {
    let out = hexwar(&["run", "scenarios/demo", "--seed", "3", "--mod", RED_WINS]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("\nmods: tests/fixtures/mods/red_wins.lua\n"),
        "{text}"
    );
    assert!(text.contains("\nwinner: red\n"), "{text}");
    // (the plain scenario: no mods line, the demo's own victory rule)
    let plain = stdout(&hexwar(&["run", "scenarios/demo", "--seed", "3"]));
    assert!(!plain.contains("mods:"), "{plain}");
    let json = hexwar(&[
        "run",
        "scenarios/demo",
        "--seed",
        "3",
        "--mod",
        RED_WINS,
        "--json",
    ]);
    let summary: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(summary["mods"], serde_json::json!([RED_WINS]));
    assert_eq!(summary["outcome"]["reason"], "the red_wins mod");
}

/// A save of a game with a mod records it, and the game goes on under it; `--mod` with a save
/// is refused (the save carries its mods), and `check` of the save checks it with its mods.
#[test]
fn a_save_records_its_mods_and_resumes_with_them() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let save = save.to_str().unwrap();
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--mod",
        RED_WINS,
        "--turns",
        "2",
        "--save",
        save,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(save).unwrap()).unwrap();
    assert_eq!(saved["mods"], serde_json::json!([RED_WINS]));
    let resumed = hexwar(&["run", save]);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    assert!(
        stdout(&resumed).contains("\nwinner: red\n"),
        "{}",
        stdout(&resumed)
    );
    let refused = hexwar(&["run", save, "--mod", RED_WINS]);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        stderr(&refused),
        "error: --mod cannot be used when continuing a save (the save carries its mods, loaded again)\n"
    );
    let checked = hexwar(&["check", save]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert!(
        stdout(&checked).contains("rules lib, demo, red_wins\n"),
        "{}",
        stdout(&checked)
    );
}

/// `check --mod` checks the scenario with the mod loaded: its module in the summary, a mod that
/// fails as it loads reported at its line, a file that is not there named.
#[test]
fn check_takes_mods() {
    let ok = hexwar(&["check", "scenarios/demo", "--mod", RED_WINS]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(
        stdout(&ok).ends_with("rules lib, demo, red_wins\n"),
        "{}",
        stdout(&ok)
    );
    let broken = hexwar(&[
        "check",
        "scenarios/demo",
        "--mod",
        "tests/fixtures/mods/broken_mod.lua",
    ]);
    assert_eq!(broken.status.code(), Some(2));
    assert_eq!(
        stderr(&broken),
        "error: loading rules module 'broken_mod': mods/broken_mod.lua:3: attempt to index a nil \
         value (local 'settings')\n1 error(s) in scenarios/demo\n"
    );
    let missing = hexwar(&[
        "run",
        "scenarios/demo",
        "--mod",
        "tests/fixtures/mods/nope.lua",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        stderr(&missing),
        "error: --mod tests/fixtures/mods/nope.lua: mod refused: no such file (a path without a \
         leading '/' is read from the working directory)\n"
    );
}

/// A replay of a game with a mod records the mod and verifies with it loaded.
#[test]
fn a_replay_records_its_mods() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.json");
    let replay = replay.to_str().unwrap();
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--mod",
        RED_WINS,
        "--replay",
        replay,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(replay).unwrap()).unwrap();
    assert_eq!(recorded["mods"], serde_json::json!([RED_WINS]));
    let verified = hexwar(&["replay", replay]);
    assert_eq!(verified.status.code(), Some(0), "{}", stderr(&verified));
    assert!(
        stdout(&verified).starts_with("replay ok: "),
        "{}",
        stdout(&verified)
    );
}

/// A batch under a mod names it in its statistics (text and JSON) and in each game's record.
#[test]
fn a_batch_names_its_mods() {
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--games",
        "3",
        "--quiet",
        "--mod",
        RED_WINS,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "scenario: demo  base seed: 1  games: 3  mods: tests/fixtures/mods/red_wins.lua\n"
        ),
        "{text}"
    );
    assert!(text.contains("red: wins     3"), "{text}");
    let json = hexwar(&[
        "run",
        "scenarios/demo",
        "--games",
        "2",
        "--quiet",
        "--json",
        "--mod",
        RED_WINS,
    ]);
    let stats: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(stats["mods"], serde_json::json!([RED_WINS]));
}

/// The France 1940 variant shipped as an example mod (rules/france1940/variants/harsh_crt.lua)
/// checks, and its first turn rolls on its own table: every combat's result is the harsh
/// table's for its odds and roll (6:1 roll 2 is DE there, DR% in the standard table).
#[test]
fn the_shipped_france_1940_variant_plays_its_own_crt() {
    const HARSH: &str = "rules/france1940/variants/harsh_crt.lua";
    let checked = hexwar(&["check", "scenarios/france1940", "--mod", HARSH]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    assert!(stdout(&checked).ends_with("rules lib, france1940, harsh_crt\n"));
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.jsonl");
    let out = hexwar(&[
        "run",
        "scenarios/france1940",
        "--seed",
        "1",
        "--turns",
        "1",
        "--mod",
        HARSH,
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let harsh: [(&str, [&str; 6]); 7] = [
        ("1:2", ["AE", "AE", "AR", "EX", "EX", "DR"]),
        ("1:1", ["AE", "AR", "EX", "EX", "DR", "DR%"]),
        ("2:1", ["AR", "EX", "EX", "DR", "DR%", "DE"]),
        ("3:1", ["EX", "EX", "DR", "DR%", "DE", "DE"]),
        ("4:1", ["EX", "DR", "DR%", "DE", "DE", "DE"]),
        ("5:1", ["DR", "DR%", "DE", "DE", "DE", "DE"]),
        ("6:1", ["DR%", "DE", "DE", "DE", "DE", "DE"]),
    ];
    let mut combats = 0;
    let mut six_to_one_roll_two = 0;
    for line in std::fs::read_to_string(&log).unwrap().lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        if event["name"] != "CombatResolved" {
            continue;
        }
        let data = &event["data"];
        let odds = data["odds"].as_str().unwrap();
        let roll = data["roll"].as_u64().unwrap() as usize;
        let row = harsh.iter().find(|(o, _)| *o == odds).unwrap().1;
        assert_eq!(data["result"], row[roll - 1], "{data}");
        combats += 1;
        if odds == "6:1" && roll == 2 {
            six_to_one_roll_two += 1;
        }
    }
    assert_eq!((combats, six_to_one_roll_two), (6, 2));
}
