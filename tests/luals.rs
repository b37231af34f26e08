//! The committed LuaLS definitions (`types/hexwar.lua`) are exactly what `hexwar api --luals`
//! prints for the API this build registers; generating them fails when a registered function has
//! no spec line or a spec line names no registered function (unit tests in src/rules/luals.rs).
//!
//! Regenerate after changing the API: `HEXWAR_BLESS=1 cargo test --test luals`, or
//! `cargo run -- api --luals > types/hexwar.lua`.

use std::path::Path;
use std::process::Command;

const COMMITTED: &str = "types/hexwar.lua";

fn generated() -> String {
    match hexwar::rules::luals_definitions() {
        Ok(text) => text,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn committed_definitions_match_the_registered_api() {
    let text = generated();
    if std::env::var_os("HEXWAR_BLESS").is_some() {
        std::fs::write(COMMITTED, &text).unwrap();
    }
    let committed = std::fs::read_to_string(COMMITTED).unwrap_or_default();
    assert!(
        committed == text,
        "{COMMITTED} is stale: regenerate it with `HEXWAR_BLESS=1 cargo test --test luals` \
         (or `cargo run -- api --luals > {COMMITTED}`) and review the diff"
    );
}

#[test]
fn api_luals_prints_the_committed_definitions() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["api", "--luals"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), generated());
}

#[test]
fn api_without_a_form_says_which_forms_exist() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .arg("api")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: hexwar api: say which form to print (--luals: the LuaLS definition file, \
         --json: the API as JSON)\n"
    );
}

/// `api --json`: the same API as data, in the documented shape; it lists exactly the functions
/// the LuaLS file has stubs for.
#[test]
fn api_json_lists_the_functions_of_the_definitions_as_data() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["api", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "{\"api_version\":1,\"fields\":[{\"name\":\"api_version\",\"type\":\"integer\",\
             \"optional\":false,\"doc\":\"The version of the `hex.*` API the host provides.\"}],\
             \"functions\":[{\"name\":\"hex.log\",\"signature\":\"log(...: any)\",\
             \"params\":[{\"name\":\"...\",\"type\":\"any\",\"optional\":false}],\"returns\":[],"
        ),
        "{}",
        &text[..300.min(text.len())]
    );
    assert!(text.ends_with("}\n"));
    let listing: serde_json::Value = serde_json::from_str(&text).unwrap();
    let dice = listing["namespaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|ns| ns["name"] == "hex.dice")
        .unwrap();
    assert_eq!(
        dice,
        &serde_json::json!({
            "name": "hex.dice",
            "doc": "The host's seeded dice: every roll is logged as a `DiceRolled` event and replays identically.",
            "functions": [{
                "name": "hex.dice.roll",
                "signature": "roll(sides?: integer): integer",
                "params": [{"name": "sides", "type": "integer", "optional": true}],
                "returns": ["integer"],
                "doc": "A roll of a die with `sides` sides (default 6), from 1 to `sides`."
            }]
        })
    );
    let refusal = listing["classes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "hexwar.Refusal")
        .unwrap();
    assert_eq!(refusal["parent"], serde_json::Value::Null);
    assert!(refusal["fields"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["name"] == "rule" && f["type"] == "string"));

    let mut listed: Vec<String> = listing["functions"]
        .as_array()
        .unwrap()
        .iter()
        .chain(
            listing["namespaces"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|ns| ns["functions"].as_array().unwrap()),
        )
        .map(|f| f["name"].as_str().unwrap().to_string())
        .collect();
    listed.sort();
    let mut stubs: Vec<String> = generated()
        .lines()
        .filter_map(|l| l.strip_prefix("function "))
        .filter(|l| l.starts_with("hex."))
        .map(|l| l.split('(').next().unwrap().to_string())
        .collect();
    stubs.sort();
    assert_eq!(listed, stubs);
}

#[test]
fn definitions_cover_every_namespace_with_typed_stubs() {
    let text = generated();
    let namespaces: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("---@class hexwar."))
        .filter(|c| c.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .collect();
    assert_eq!(
        namespaces,
        ["hex", "commands", "dice", "events", "map", "path", "rules", "state", "units"]
    );
    let stubs = text
        .lines()
        .filter(|l| l.starts_with("function hex."))
        .count();
    assert_eq!(stubs, 83);
    // The test API of `hexwar test`: the global `test` and the 21 functions of `t`.
    let test_stubs = text
        .lines()
        .filter(|l| l.starts_with("function t."))
        .count();
    assert_eq!(test_stubs, 21);
    assert!(text.contains(
        "---@param name string\n---@param fn fun(t: hexwar.Test)\nfunction test(name, fn) end\n"
    ));
    assert!(text.contains(
        "---@param unit string\n---@param budget? number\n---@param opts? hexwar.ReachOptions\n\
         ---@return table<string, number|hexwar.ReachEntry>\nfunction hex.path.reach(unit, budget, opts) end\n"
    ));
}

#[test]
fn luarc_points_editors_at_the_definitions() {
    let luarc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(".luarc.json").unwrap()).unwrap();
    assert_eq!(luarc["runtime.version"], "Lua 5.4");
    assert_eq!(luarc["workspace.library"], serde_json::json!(["types"]));
    assert_eq!(
        luarc["diagnostics.globals"],
        serde_json::json!(["hex", "test"])
    );
    assert!(Path::new(COMMITTED).is_file());
}

/// Every `function hex.ns.name` stub of the file, as `ns.name` (top level: `name`).
fn stub_names(lua: &mlua::Lua) -> Vec<String> {
    let hex: mlua::Table = lua.globals().get("hex").unwrap();
    let mut names = Vec::new();
    for pair in hex.pairs::<String, mlua::Value>() {
        let (key, value) = pair.unwrap();
        match value {
            mlua::Value::Function(_) => names.push(key),
            mlua::Value::Table(t) => {
                for inner in t.pairs::<String, mlua::Value>() {
                    names.push(format!("{key}.{}", inner.unwrap().0));
                }
            }
            _ => {}
        }
    }
    names.sort();
    names
}

#[test]
fn the_definitions_run_as_lua_and_define_every_stub() {
    // A syntax slip in a spec line would break LuaLS's parse of the whole file.
    let lua = mlua::Lua::new();
    lua.load(generated())
        .set_name("types/hexwar.lua")
        .exec()
        .unwrap();
    let names = stub_names(&lua);
    assert_eq!(names.len(), 83);
    let namespaces: std::collections::BTreeSet<&str> = names
        .iter()
        .filter_map(|n| n.split_once('.'))
        .map(|(ns, _)| ns)
        .collect();
    assert_eq!(
        namespaces.into_iter().collect::<Vec<_>>(),
        ["commands", "dice", "events", "map", "path", "rules", "state", "units"]
    );
    assert_eq!(
        names
            .iter()
            .filter(|n| !n.contains('.'))
            .collect::<Vec<_>>(),
        ["log", "refuse"]
    );
}

/// Every core event's class in the API listing (`hexwar api --json`, types/hexwar.lua) names
/// exactly the fields the engine writes for it, optional ones included: a tool building its
/// schema from the listing read `HexsideChanged` as carrying `features`, where the log has
/// `add` and `remove`.
#[test]
fn api_event_classes_name_the_fields_the_engine_writes() {
    let unit = serde_json::json!({"id": "b1", "side": "blue", "type": "infantry", "ma": 4.0,
        "strength": 3.0, "at": "0101"});
    let command = serde_json::json!({"command": "end_phase"});
    let samples = serde_json::json!([
        {"event": "GameStarted", "scenario": "demo", "seed": 1},
        {"event": "PhaseStarted", "turn": 1, "step": 0, "side": "blue", "phase": "movement"},
        {"event": "PhaseEnded", "turn": 1, "step": 0, "side": "blue", "phase": "movement"},
        {"event": "PhaseSkipped", "turn": 1, "step": 0, "side": "blue", "phase": "movement"},
        {"event": "UnitMoved", "unit": "b1", "from": "0101", "to": "0102",
            "path": ["0102"], "cost": 1.0},
        {"event": "UnitEnteredHex", "unit": "b1", "hex": "0102"},
        {"event": "UnitEliminated", "unit": "b1", "reason": "combat"},
        {"event": "UnitRemoved", "unit": "b1", "reason": "evacuated"},
        {"event": "UnitPlaced", "unit": unit},
        {"event": "UnitStatusChanged", "unit": "b1", "add": ["moved"], "remove": ["dug_in"]},
        {"event": "UnitChanged", "unit": "b1", "strength": 2.0, "ma": 3.0, "attrs": {"x": 1}},
        {"event": "UnitFacingChanged", "unit": "b1", "facing": 2, "facing2": 3},
        {"event": "UnitSideChanged", "unit": "b1", "side": "red"},
        {"event": "ControlChanged", "hex": "0101", "side": "blue"},
        {"event": "HexChanged", "hex": "0101", "terrain": "marsh", "add": ["fort"],
            "remove": ["town"]},
        {"event": "HexsideChanged", "hexside": ["0101", "0102"], "add": ["wreck"],
            "remove": ["bridge"]},
        {"event": "VarSet", "key": "k", "value": 1},
        {"event": "DiceRolled", "sides": 6, "value": 3},
        {"event": "CommandRefused", "side": "blue", "command": command, "rule": "R",
            "reason": "why"},
        {"event": "GameEnded", "winner": "blue", "scores": {"blue": 1.0}, "reason": "last turn"},
        {"event": "Custom", "name": "Ping", "data": {}},
    ]);
    let listing = serde_json::to_value(hexwar::rules::api_listing().unwrap()).unwrap();
    let classes = listing["classes"].as_array().unwrap();
    let mut names = Vec::new();
    for sample in samples.as_array().unwrap() {
        let event: hexwar::engine::Event = serde_json::from_value(sample.clone()).unwrap();
        let written = serde_json::to_value(&event).unwrap();
        let name = written["event"].as_str().unwrap().to_string();
        let mut fields: Vec<&str> = written
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .filter(|k| *k != "event")
            .collect();
        fields.sort_unstable();
        let class = classes
            .iter()
            .find(|c| c["name"] == format!("hexwar.{name}"))
            .unwrap_or_else(|| panic!("no class hexwar.{name}"));
        let mut listed: Vec<&str> = class["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        listed.sort_unstable();
        assert_eq!(listed, fields, "hexwar.{name}");
        names.push(name);
    }
    // (every engine event has its sample; Custom is the rules' own)
    assert_eq!(names.pop().as_deref(), Some("Custom"));
    let mut engine = hexwar::engine::Event::ENGINE_NAMES.to_vec();
    engine.sort_unstable();
    names.sort_unstable();
    assert_eq!(names, engine);
}
