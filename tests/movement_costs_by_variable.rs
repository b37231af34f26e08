//! `costs_by_variable` (docs/movement.md): movement costs that follow a rules variable, such
//! as mud turns, declared as data. `rules/demo/variants/rain.lua` makes the ground mud from turn
//! 5 on: the same unit reaches fewer hexes, at the mud's costs, and a game with it plays the
//! same twice.

mod common;

use std::path::{Path, PathBuf};

use common::{hexwar, stderr, stdout};
use hexwar::Session;
use serde_json::{json, Value};

const RAIN: &str = "rules/demo/variants/rain.lua";

/// `hexwar reach scenarios/demo b-inf-1 --mod rain.lua --setup turn N --json`: its hexes.
fn reach_on_turn(turn: u32) -> Value {
    reach_from_setup(&format!("turn = {turn}\n"))
}

/// `hexwar reach scenarios/demo b-inf-1 --mod rain.lua --setup SETUP --json`: its hexes.
fn reach_from_setup(text: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("setup.toml");
    std::fs::write(&setup, text).unwrap();
    let out = hexwar(&[
        "reach",
        "scenarios/demo",
        "b-inf-1",
        "--mod",
        RAIN,
        "--setup",
        setup.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let answer: Value = serde_json::from_str(&stdout(&out)).unwrap();
    answer["hexes"].clone()
}

/// Before turn 5 the demo's own costs (clear 1, forest 2); from turn 5, when the variant's
/// handler sets `weather = "mud"`, clear costs 2 and forest 3: b-inf-1 (4 MP at 0102) reaches 7
/// hexes instead of 17. Hills and marsh, which the mud leaves out, keep their costs.
#[test]
fn costs_follow_the_variable_mud_from_turn_5() {
    assert_eq!(
        reach_on_turn(4),
        json!({
            "0101": 1, "0103": 1, "0104": 2, "0201": 2, "0202": 1, "0203": 1, "0204": 4, "0301": 3,
            "0302": 3, "0303": 2, "0304": 3, "0305": 4, "0403": 4, "0404": 3, "0405": 4, "0503": 4,
            "0504": 4
        })
    );
    assert_eq!(
        reach_on_turn(5),
        json!({"0101": 2, "0103": 2, "0104": 4, "0201": 4, "0202": 2, "0203": 2, "0303": 4})
    );
}

/// A setup's `[vars]` sets the weather without playing to turn 5: b-inf-1 reaches the mud's
/// 7 hexes on turn 1; on France 1940, whose rules read a setup table of their own, the key is
/// the engine's and their setup does not see it.
#[test]
fn a_setups_vars_set_the_weather() {
    let mud = "turn = 1\n[vars]\nweather = \"mud\"\n";
    assert_eq!(reach_from_setup(mud), reach_on_turn(5));
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("mud.toml");
    std::fs::write(&setup, mud).unwrap();
    let out = hexwar(&[
        "status",
        "scenarios/france1940",
        "--setup",
        setup.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "vars = 5\n").unwrap();
    let out = hexwar(&["status", "scenarios/demo", "--setup", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}:1: setup refused: setup: [vars] must be a table: name = value\n",
            bad.display()
        )
    );
}

/// The engine checks a move at the costs in force: a path the dry ground allows is refused in
/// the mud, with the rule's own words for too long a move.
#[test]
fn a_move_is_checked_at_the_costs_in_force() {
    let rain = PathBuf::from(RAIN);
    let mut dry = Session::start_with_mods(
        Path::new("scenarios/demo"),
        Some(1),
        std::slice::from_ref(&rain),
    )
    .expect("starts");
    let path = ["0202", "0203", "0303"];
    let mv = |path: &[&str]| hexwar::engine::Command::Move {
        unit: "b-inf-1".into(),
        path: path.iter().map(|s| s.to_string()).collect(),
    };
    dry.game
        .submit(Some("blue"), &mv(&path))
        .expect("4 MP on dry ground");
    let mut wet =
        Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[rain]).expect("starts");
    wet.setup_text(&hexwar::board::SourceText::new("turn.toml", "turn = 5\n"))
        .expect("setup");
    let before = wet.to_save().to_json();
    match wet.game.submit(Some("blue"), &mv(&path)) {
        Err(hexwar::engine::GameError::Refused(r)) => assert_eq!(
            (r.rule.as_str(), r.reason.as_str()),
            (
                "DEMO-1",
                "the path costs 6 MP by this step, more than the 4 MP allowed (step 3: 0203 to 0303)"
            )
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(wet.to_save().to_json(), before);
}

/// The variant's games are deterministic: the same seed gives the same log, the weather's
/// `VarSet` included.
#[test]
fn a_game_with_the_rain_plays_the_same_twice() {
    let dir = tempfile::tempdir().unwrap();
    let log = |name: &str| -> String {
        let path = dir.path().join(name);
        let out = hexwar(&[
            "run",
            "scenarios/demo",
            "--mod",
            RAIN,
            "--seed",
            "3",
            "--log",
            path.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::read_to_string(path).unwrap()
    };
    let first = log("a.jsonl");
    assert_eq!(first, log("b.jsonl"));
    assert!(
        first.contains(r#""key":"weather","value":"mud""#),
        "no weather change in the log"
    );
}

/// A bad `costs_by_variable` is refused when the rules load, naming the entry at fault.
#[test]
fn a_bad_costs_by_variable_is_named_where_it_is_wrong() {
    let cases = [
        (
            r#"{ variable = "weather", values = { mud = { terain = { clear = 2 } } } }"#,
            "costs_by_variable.values.mud: unknown key 'terain' (expected one of: terrain, hexsides, roads)",
        ),
        (
            r#"{ variable = "weather", values = { mud = { terrain = { claer = 2 } } } }"#,
            "costs_by_variable.values.mud (the declaration with these costs): terrain: unknown terrain 'claer' (this map has: clear, forest, hills, lake, marsh); the map has 'clear'",
        ),
        (
            r#"{ values = { mud = { terrain = { clear = 2 } } } }"#,
            "costs_by_variable.variable: expected the name of a rules variable (a string), found nothing",
        ),
        // (a number key: it read "deserialize error: invalid type: integer `5`, expected a
        // string key", naming no table)
        (
            r#"{ variable = "weather", values = { [5] = { terrain = { clear = 2 } } } }"#,
            "invalid type: integer `5`, expected a string key: a table whose keys are names holds a number key",
        ),
        (
            r#"{ variable = "weather", values = {} }"#,
            "costs_by_variable.values: expected a table of value = { terrain = ..., hexsides = ..., roads = ... }, found",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    // (a mod's file is named from its folder, as in its own Lua errors)
    let dir_name = dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    for (i, (spec, expected)) in cases.iter().enumerate() {
        let file = dir.path().join(format!("bad{i}.lua"));
        std::fs::write(
            &file,
            format!("hex.rules.get(\"movement\").costs_by_variable = {spec}\n"),
        )
        .unwrap();
        let message = match Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file])
        {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{spec}: loaded"),
        };
        // (the compiler's messages follow its prefix; the number key is found before it runs)
        let prefix = if expected.starts_with("invalid type") {
            "declaration 'movement': "
        } else {
            "the rules' movement declaration (hex.rules.declare(\"movement\", ...)): "
        };
        assert!(
            message.contains(&format!("{prefix}{expected}")),
            "{spec}: {message}"
        );
        // (the mod that changed the table is named beside the file that declared it)
        let place = format!(
            "rules/demo/movement.lua:7 (as {}/bad{i}.lua changed it): ",
            dir_name
        );
        assert!(message.contains(&place), "{spec}: {message}");
    }
}

/// The variant shows the weather in `status` (the rules' status query): dry, then mud.
#[test]
fn status_shows_the_weather() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("turn.toml");
    std::fs::write(&setup, "turn = 5\n").unwrap();
    let weather = |extra: &[&str]| -> Value {
        let mut args = vec!["status", "scenarios/demo", "--mod", RAIN, "--json"];
        args.extend_from_slice(extra);
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let status: Value = serde_json::from_str(&stdout(&out)).unwrap();
        status["rules_status"].clone()
    };
    assert_eq!(weather(&[]), json!({"weather": "dry"}));
    assert_eq!(
        weather(&["--setup", setup.to_str().unwrap()]),
        json!({"weather": "mud"})
    );
}
