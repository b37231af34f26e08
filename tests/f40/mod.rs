//! Helpers shared by the F40 rules tests (tests/f40_*.rs).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use hexwar::engine::{Command, Event, GameError, Refusal};
use hexwar::Session;
use serde_json::{Map, Value};

/// A session on a fixture under tests/fixtures/f40 (a directory or a scenario file).
pub fn session(fixture: &str) -> Session {
    Session::start(&Path::new("tests/fixtures/f40").join(fixture), Some(1))
        .unwrap_or_else(|e| panic!("{fixture}: {e}"))
}

pub fn mv(unit: &str, path: &[&str]) -> Command {
    Command::Move {
        unit: unit.into(),
        path: path.iter().map(|s| s.to_string()).collect(),
    }
}

/// A rules-defined command with string arguments.
pub fn custom(name: &str, args: &[(&str, &str)]) -> Command {
    let mut map = Map::new();
    for (k, v) in args {
        map.insert(k.to_string(), Value::String(v.to_string()));
    }
    Command::Custom {
        name: name.into(),
        args: map,
    }
}

pub fn ok(s: &mut Session, side: &str, c: &Command) -> Vec<Event> {
    s.game
        .submit(Some(side), c)
        .unwrap_or_else(|e| panic!("{c:?} refused: {e}"))
}

/// Submits a command that must be refused, checks the state is untouched, returns the refusal.
pub fn refused(s: &mut Session, side: &str, c: &Command) -> Refusal {
    let before = s.to_save().to_json();
    let err = s.game.submit(Some(side), c).unwrap_err();
    assert_eq!(s.to_save().to_json(), before, "a refusal changed the state");
    match err {
        GameError::Refused(r) => r,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

pub fn refusal(rule: &str, reason: &str) -> Refusal {
    Refusal::new(rule, reason)
}

/// The rules' `reach` query: label -> MP.
pub fn reach(s: &mut Session, unit: &str) -> BTreeMap<String, f64> {
    let v = s
        .game
        .query("reach", &Value::String(unit.into()))
        .unwrap()
        .unwrap();
    let Value::Object(m) = v else {
        // An empty Lua table comes back as an empty list.
        assert_eq!(v, Value::Array(vec![]), "reach answered {v}");
        return BTreeMap::new();
    };
    m.into_iter()
        .map(|(k, v)| (k, v.as_f64().unwrap()))
        .collect()
}

pub fn costs(list: &[(&str, f64)]) -> BTreeMap<String, f64> {
    list.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// The rules' `supply` query: unit -> supplied.
pub fn supply(s: &mut Session) -> BTreeMap<String, bool> {
    let v = s.game.query("supply", &Value::Null).unwrap().unwrap();
    let Value::Object(m) = v else {
        panic!("supply answered {v}")
    };
    m.into_iter()
        .map(|(k, v)| (k, v.as_bool().unwrap()))
        .collect()
}

/// Ends phases until the game reaches (turn, step).
pub fn advance_to(s: &mut Session, turn: u32, step: u32) {
    while (s.game.state().turn, s.game.state().step) != (turn, step) {
        let side = s.game.phasing_side().unwrap();
        ok(s, &side, &Command::EndPhase);
    }
}

pub fn status_changed(unit: &str, add: &[&str], remove: &[&str]) -> Event {
    Event::UnitStatusChanged {
        unit: unit.into(),
        add: add.iter().map(|s| s.to_string()).collect(),
        remove: remove.iter().map(|s| s.to_string()).collect(),
    }
}

pub fn control(hex: &str, side: &str) -> Event {
    Event::ControlChanged {
        hex: hex.into(),
        side: Some(side.into()),
    }
}

pub fn var(key: &str, value: Value) -> Event {
    Event::VarSet {
        key: key.into(),
        value: value.into(),
    }
}

pub fn entered(unit: &str, hex: &str) -> Event {
    Event::UnitEnteredHex {
        unit: unit.into(),
        hex: hex.into(),
    }
}

pub fn moved(unit: &str, from: Option<&str>, path: &[&str], cost: f64) -> Event {
    Event::UnitMoved {
        unit: unit.into(),
        from: from.map(str::to_string),
        to: path.last().unwrap().to_string(),
        path: path.iter().map(|s| s.to_string()).collect(),
        cost,
    }
}

pub fn legal_of(s: &mut Session, side: &str, name: &str) -> Vec<Command> {
    s.game
        .legal_commands(side)
        .unwrap()
        .into_iter()
        .filter(|c| c.name() == name)
        .collect()
}

/// Lays a `--setup` position (TOML text) over the session, as `hexwar ... --setup FILE` does.
pub fn setup(s: &mut Session, toml: &str) {
    s.setup_text(&hexwar::board::SourceText::new("setup.toml", toml))
        .unwrap_or_else(|e| panic!("setup: {e}"));
}

/// The control of a hex (None: nobody's).
pub fn control_of(s: &Session, hex: &str) -> Option<String> {
    s.game.state().control.get(hex).cloned()
}

/// The `hexwar` command's JSON answer (it must exit 0).
pub fn cli(args: &[&str]) -> Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `hexwar CMD scenarios/france1940 [UNIT] --setup FILE --json` on a setup written from `units`.
pub fn on_france_setup(name: &str, units: &str, cmd: &str, unit: Option<&str>) -> Value {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("f40_{name}.toml"));
    std::fs::write(&path, units).unwrap();
    let path = path.to_str().unwrap();
    let mut args = vec![cmd, "scenarios/france1940"];
    args.extend(unit);
    args.extend(["--setup", path, "--json"]);
    cli(&args)
}

/// A `[[unit]]` table of a setup file (strength 3, class by type).
pub fn setup_unit(id: &str, side: &str, nation: &str, kind: &str, ma: u32, at: &str) -> String {
    format!(
        "[[unit]]\nid = \"{id}\"\nside = \"{side}\"\nnation = \"{nation}\"\ntype = \"{kind}\"\n\
         size = \"XX\"\nma = {ma}\nstrength = 3\nat = \"{at}\"\n\n"
    )
}

/// Runs Lua `code` (statements ending in `return ...`) in a second rules VM of the session's
/// scenario, over the game's current state (as `hexwar render --overlay zoc` does).
pub fn eval(s: &Session, code: &str) -> Value {
    let mut rules = hexwar::rules::LuaRules::load(&s.scenario).unwrap();
    rules.eval(s.game.state(), code).unwrap()
}

/// The zones of control of the position: label -> the sides exerting ZOC there
/// (`hex.path.zoc`), only hexes where some side does.
pub fn zoc_map(s: &Session) -> BTreeMap<String, Vec<String>> {
    let v = eval(
        s,
        r#"
        local out = {}
        for _, label in ipairs(hex.map.hexes()) do
          local sides = hex.path.zoc(label)
          if #sides > 0 then out[label] = sides end
        end
        return out"#,
    );
    let Value::Object(m) = v else {
        assert_eq!(v, Value::Array(vec![]), "zoc answered {v}");
        return BTreeMap::new();
    };
    m.into_iter()
        .map(|(k, v)| {
            let sides = v.as_array().unwrap();
            (
                k,
                sides
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

/// `zoc_map`'s expected value from (label, sides) pairs.
pub fn zocs(list: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
        .collect()
}

/// The movement events of a list (UnitEnteredHex and UnitMoved), in order.
pub fn movement_of(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .filter(|e| matches!(e, Event::UnitEnteredHex { .. } | Event::UnitMoved { .. }))
        .cloned()
        .collect()
}

/// The first events of the attack of g1 and g3 on d2 at 0401 in tests/fixtures/f40/combat (5:1,
/// the first roll of seed 1, a 3), when the CRT gives `result` there: the roll, the combat, the
/// marks; the result's own events follow.
pub fn attack_on_0401_begins(result: &str) -> Vec<Event> {
    vec![
        Event::DiceRolled { sides: 6, value: 3 },
        Event::Custom {
            name: "CombatResolved".into(),
            data: serde_json::json!({"hex": "0401", "attackers": ["g1", "g3"], "defenders": ["d2"],
                "attack": 10, "defense": 2.0, "odds": "5:1", "roll": 3, "result": result})
            .into(),
        },
        var("attacked_hexes", serde_json::json!(["0401"])),
        status_changed("g1", &["attacked"], &[]),
        status_changed("g3", &["attacked"], &[]),
    ]
}

/// `attack {hex, units}` (docs/france1940.md, "Combat").
pub fn attack(target: &str, units: &[&str]) -> Command {
    let mut args = Map::new();
    args.insert("hex".into(), serde_json::json!(target));
    args.insert("units".into(), serde_json::json!(units));
    Command::Custom {
        name: "attack".into(),
        args,
    }
}
