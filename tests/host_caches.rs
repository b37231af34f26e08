//! The host keeps what it derives from a position (the searches' occupancy and owners, in
//! src/rules/api/path.rs) from one call into Lua to the next while the position is unchanged.
//! Whatever changes between calls (a unit moved, a flag set, control changed, a unit gone), the
//! answers must be those of a VM that never saw the earlier positions.

mod common;

use std::path::Path;

use common::{control, moved};
use hexwar::engine::Ruleset;
use hexwar::engine::{Command, Event, GameState};
use hexwar::rules::LuaRules;
use hexwar::scenario::load_scenario;
use hexwar::Session;
use serde_json::{json, Value};

/// Everything the cached position feeds: reach (occupancy, ZOC), zoc, control (owners), supply.
const ASK: &str = r#"
    local out = {}
    for _, id in ipairs({"de-1-kav", "de-x-ak"}) do
      if hex.units.get(id) then out[id] = hex.path.reach(id) end
    end
    out.zoc = hex.path.zoc("3106")
    out.zoc2 = hex.path.zoc("3005")
    out.control = hex.path.control()
    out.supply = hex.path.supply({ {side = "german", hexes = {"3201"}} })
    return out
"#;

fn france() -> (LuaRules, GameState) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/france1940");
    let session = Session::start(&path, Some(1)).unwrap();
    let rules = LuaRules::load(&load_scenario(&path).unwrap()).unwrap();
    (rules, session.game.state().clone())
}

fn fresh_answer(state: &GameState) -> Value {
    let (mut rules, _) = france();
    rules.eval(state, ASK).unwrap()
}

#[test]
fn path_answers_follow_every_change_of_the_position_between_calls() {
    let (mut kept, start) = france();
    let mut moved = start.clone();
    moved.units.get_mut("de-x-ak").unwrap().at = Some("3005".into());
    let mut flagged = moved.clone();
    flagged
        .units
        .get_mut("de-1-kav")
        .unwrap()
        .status
        .insert("disorganized".into());
    let mut controlled = flagged.clone();
    for label in ["3005", "3006", "3105", "2906"] {
        controlled.control.insert(label.into(), "allied".into());
    }
    let mut gone = controlled.clone();
    gone.units.remove("de-x-ak");
    let positions = [&start, &moved, &start, &flagged, &controlled, &gone, &start];
    let mut answers = Vec::new();
    for state in positions {
        let answer = kept.eval(state, ASK).unwrap();
        // asked twice in a row: the same answer
        assert_eq!(kept.eval(state, ASK).unwrap(), answer);
        assert_eq!(answer, fresh_answer(state));
        answers.push(answer);
    }
    // the positions do differ where the cache is concerned
    assert_ne!(answers[0], answers[1]);
    assert_ne!(answers[3], answers[4]);
    assert_ne!(answers[4], answers[5]);
    assert_eq!(answers[0], answers[6]);
}

/// On a state no game vouches for the cache compares units id by id and control entry by entry:
/// a unit gone and another come (as many units, each but the last at another index: the kept
/// index of ids must be rebuilt), every hex changing hands (the same labels, every side other),
/// one hex held for another (the same side, another label), a unit replaced as another moves.
#[test]
fn path_answers_follow_a_unit_replaced_and_every_hex_changing_hands_between_calls() {
    let (mut kept, start) = france();
    let mut shifted = start.clone();
    let first = shifted.units.keys().next().unwrap().clone();
    let mut newcomer = shifted.units.remove(&first).unwrap();
    newcomer.id = "zz-newcomer".into();
    shifted.units.insert(newcomer.id.clone(), newcomer);
    // and, in the same change, a unit moved
    let mut shifted_moved = shifted.clone();
    shifted_moved.units.get_mut("de-x-ak").unwrap().at = Some("3005".into());
    let mut swapped = start.clone();
    for side in swapped.control.values_mut() {
        *side = if side == "german" { "allied" } else { "german" }.into();
    }
    // one hex held, then another of the same side (the same count, another label)
    let held = |label: &str| {
        let mut state = start.clone();
        state.control = [(label.to_string(), "german".to_string())].into();
        state
    };
    let (source, other) = (held("3201"), held("3106"));
    let positions = [
        &start,
        &shifted,
        &start,
        &swapped,
        &start,
        &source,
        &other,
        &start,
        &shifted_moved,
    ];
    let mut answers = Vec::new();
    for state in positions {
        let answer = kept.eval(state, ASK).unwrap();
        assert_eq!(answer, fresh_answer(state));
        answers.push(answer);
    }
    assert_ne!(answers[2], answers[3]);
    assert_ne!(answers[5], answers[6]);
    assert_ne!(answers[1], answers[8]);
}

/// `hex.units.at` indexes the units by place from its third call at a position (units_at.rs):
/// asked for every hex of the map, whatever the game changed between the asks (a move, two
/// units into one hex, a unit gone, a roll-back), and on a copy no game vouches for, the
/// answers are the state's own.
#[test]
fn units_at_answers_follow_every_change_of_the_position() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("units-at");
    std::fs::create_dir_all(&dir).unwrap();
    let module = dir.join("occupants.lua");
    std::fs::write(
        &module,
        r#"hex.rules.query("occupants", function()
  local out = {}
  for _, label in ipairs(hex.map.hexes()) do
    local ids = {}
    for _, u in ipairs(hex.units.at(label)) do ids[#ids + 1] = u.id end
    if #ids > 0 then out[label] = ids end
  end
  return out
end)
"#,
    )
    .unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/demo");
    let mut session = Session::start_with_mods(&demo, Some(1), &[module]).unwrap();
    // (the oracle: the state's units, place by place, in id order)
    let expected = |state: &GameState| {
        let mut out = serde_json::Map::new();
        for u in state.units.values() {
            if let Some(at) = &u.at {
                let ids = out
                    .entry(at.clone())
                    .or_insert_with(|| Value::Array(Vec::new()));
                ids.as_array_mut()
                    .unwrap()
                    .push(Value::String(u.id.clone()));
            }
        }
        Value::Object(out)
    };
    let moved = |unit: &str, from: &str, to: &str| hexwar::engine::Event::UnitMoved {
        unit: unit.into(),
        from: Some(from.into()),
        to: to.into(),
        path: vec![to.into()],
        cost: 1.0,
    };
    let steps = vec![
        vec![],
        vec![moved("b-inf-1", "0102", "0202")],
        vec![moved("b-arm-1", "0103", "0202")],
        vec![hexwar::engine::Event::UnitRemoved {
            unit: "b-inf-2".into(),
            reason: "test".into(),
        }],
        // rolled back: the answer must not keep the first event's move
        vec![
            moved("r-inf-1", "1208", "1108"),
            moved("nobody", "0101", "0102"),
        ],
    ];
    let mut answers = Vec::new();
    for events in steps {
        let _ = session.game.setup(&serde_json::Map::new(), events);
        let answer = session
            .game
            .query("occupants", &Value::Null)
            .unwrap()
            .unwrap();
        assert_eq!(answer, expected(session.game.state()));
        assert_eq!(
            session
                .game
                .query("occupants", &Value::Null)
                .unwrap()
                .unwrap(),
            answer,
            "asked twice in a row"
        );
        answers.push(answer);
    }
    assert_eq!(
        answers[2]["0202"],
        serde_json::json!(["b-arm-1", "b-inf-1"])
    );
    assert_ne!(answers[2], answers[3]);
    assert_eq!(answers[3], answers[4]);
    // A copy of the state: no revision, so indexed within the one call only.
    let mut copy = session.game.state().clone();
    copy.units.get_mut("r-inf-1").unwrap().at = Some("1108".into());
    let mut rules = LuaRules::load(&session.scenario).unwrap();
    for state in [&copy, session.game.state(), &copy] {
        let answer = rules
            .query(state, "occupants", &Value::Null)
            .unwrap()
            .unwrap();
        assert_eq!(answer, expected(state));
    }
}

/// A module asking, in one query, what the kept supply fields and the occupancy's owners feed:
/// `supplied_hexes` from `sources` (one hex) for German foot and armour (src/rules/api/path.rs `PathCache::supply_field`),
/// the reach of `unit` (the owners decide F40-10.2's entry across a sea hexside), `control`, and
/// the German units' `supply` from the same source (its fields are those `supplied_hexes` traced
/// just before: one cache serves both), and the units `hex.units.at` finds in every hex (its
/// index, built at the third call, follows the game from one position to the next).
fn paths_module(dir: &Path, unit: &str, sources: &str) -> std::path::PathBuf {
    let module = dir.join("paths.lua");
    std::fs::write(
        &module,
        format!(
            r#"hex.commands.define("apply", {{ args = {{ "events" }}, resolve = function(cmd) return cmd.events end }})
-- the ids at every hex of the row (from the third call at a position, the index answers)
local function here()
  local out = {{}}
  for _, l in ipairs(hex.map.hexes()) do
    local ids = {{}}
    for _, u in ipairs(hex.units.at(l)) do ids[#ids + 1] = u.id end
    out[l] = table.concat(ids, " ")
  end
  return out
end
hex.rules.query("paths", function()
  return {{
    foot = hex.path.supplied_hexes("german", "foot", {{ "{sources}" }}),
    armour = hex.path.supplied_hexes("german", "motorized", {{ "{sources}" }}),
    reach = hex.units.get("{unit}") and hex.path.reach("{unit}") or false,
    control = hex.path.control(),
    supply = hex.path.supply({{ {{ side = "german", hexes = {{ "{sources}" }} }} }}),
    here = here(),
  }}
end)
"#
        ),
    )
    .unwrap();
    module
}

/// The `paths` answers of a game on `fixture` (under tests/fixtures/f40) after each batch of
/// events (applied by the module's command `apply`, in the game's first phase), asked in one VM
/// after every batch, checked against a game that applied the same events at once and is asked
/// only then.
fn paths_after_each(fixture: &str, unit: &str, sources: &str, steps: &[Vec<Event>]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let module = paths_module(dir.path(), unit, sources);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/f40")
        .join(fixture);
    let start =
        || Session::start_with_mods(&fixture, Some(1), std::slice::from_ref(&module)).unwrap();
    let apply = |s: &mut Session, events: &[Event]| {
        if events.is_empty() {
            return;
        }
        let mut args = serde_json::Map::new();
        args.insert("events".into(), serde_json::to_value(events).unwrap());
        let side = s.game.phasing_side();
        s.game
            .submit(
                side.as_deref(),
                &Command::Custom {
                    name: "apply".into(),
                    args,
                },
            )
            .unwrap();
    };
    let mut kept = start();
    let mut so_far = Vec::new();
    let mut answers = Vec::new();
    for events in steps {
        apply(&mut kept, events);
        so_far.extend(events.iter().cloned());
        let answer = kept.game.query("paths", &Value::Null).unwrap().unwrap();
        let mut fresh = start();
        apply(&mut fresh, &so_far);
        assert_eq!(
            answer,
            fresh.game.query("paths", &Value::Null).unwrap().unwrap(),
            "after {events:?}"
        );
        answers.push(answer);
    }
    answers
}

/// In a game the cache follows the revision's list of changes (`apply_changes`), dropping the
/// supply fields a change may alter and keeping the others. On supply/lines_classes (a1 at 0302
/// puts 0301, 0202 and 0402 in ZOC; g-east at 0401 stands between; the German source 0601):
/// g-east moving away, then on, a1 moving off.
#[test]
fn supply_fields_in_a_game_follow_each_move_between_calls() {
    let answers = paths_after_each(
        "supply/lines_classes.toml",
        "g-arm",
        "0601",
        &[
            vec![],
            vec![moved("g-east", "0401", "0501")],
            vec![moved("g-east", "0501", "0601")],
            vec![moved("a1", "0302", "0102")],
        ],
    );
    // (the armour's line leaves 0101 through a1's ZOC, open while g-east at 0401 contests it)
    let g_arm: Vec<&Value> = answers.iter().map(|a| &a["supply"]["g-arm"]).collect();
    assert_eq!(
        g_arm,
        [&json!(true), &json!(false), &json!(false), &json!(false)]
    );
    assert_eq!(answers[0]["supply"]["a1"], json!(false));
    for (i, pair) in answers.windows(2).enumerate() {
        assert_ne!(pair[0], pair[1], "step {} changed nothing", i + 1);
    }
}

/// Units entering and leaving play in a game reach the searches through the revision's changes
/// too (each named: the cache merges its list again, copying only the units named): on
/// supply/lines_classes, g-east eliminated (a1's ZOC now cuts the armour's line out of 0101), a
/// German division placed at 0401 in its place, then a1 moved off (the line open again) and the
/// armour's MA cut to 1 as g-mtn leaves play, then the new division moved and eliminated in one
/// batch, then an Allied division placed next to the armour (its MA back to 4) and eliminated.
#[test]
fn units_entering_and_leaving_play_in_a_game_reach_the_searches_between_calls() {
    let gone = |unit: &str, event: &str| -> Event {
        serde_json::from_value(json!({"event": event, "unit": unit, "reason": "test"})).unwrap()
    };
    let placed: Event = serde_json::from_value(json!({"event": "UnitPlaced", "unit": {
        "id": "g-new", "side": "german", "nation": "german", "type": "infantry", "size": "XX",
        "ma": 4.0, "strength": 2.0, "at": "0401"}}))
    .unwrap();
    // (the last in id order, next to the armour: leaving, it is the kept list's tail)
    let placed_allied: Event = serde_json::from_value(json!({"event": "UnitPlaced", "unit": {
        "id": "z-al", "side": "allied", "nation": "french", "type": "infantry", "size": "XX",
        "ma": 4.0, "strength": 2.0, "at": "0201"}}))
    .unwrap();
    let restored: Event =
        serde_json::from_value(json!({"event": "UnitChanged", "unit": "g-arm", "ma": 4.0}))
            .unwrap();
    // (no France 1940 handler asks the host between this change and the next: the cache meets
    // both at once, the unit changed as another leaves play)
    let slowed: Event =
        serde_json::from_value(json!({"event": "UnitChanged", "unit": "g-arm", "ma": 1.0}))
            .unwrap();
    let answers = paths_after_each(
        "supply/lines_classes.toml",
        "g-arm",
        "0601",
        &[
            vec![],
            vec![gone("g-east", "UnitEliminated")],
            vec![placed],
            vec![
                moved("a1", "0302", "0102"),
                slowed,
                gone("g-mtn", "UnitRemoved"),
            ],
            vec![
                moved("g-new", "0401", "0501"),
                gone("g-new", "UnitEliminated"),
            ],
            vec![placed_allied, restored],
            vec![gone("z-al", "UnitEliminated")],
        ],
    );
    let supply = |i: usize| answers[i]["supply"].clone();
    assert_eq!(supply(0)["g-arm"], json!(true));
    assert_eq!(supply(1)["g-arm"], json!(false));
    assert_eq!(supply(1)["g-east"], Value::Null);
    // (the hexes a1's ZOC took while 0401 stood empty stay Allied, F40-7.1(c))
    assert_eq!(supply(2)["g-arm"], json!(false));
    assert_eq!(supply(2)["g-new"], json!(true));
    assert_eq!(supply(3)["g-arm"], json!(true));
    assert_eq!(supply(3)["g-mtn"], Value::Null);
    // (at MA 1, with a1 now next to it at 0102, the armour reaches nothing)
    assert_eq!(answers[3]["reach"], json!({}));
    assert_eq!(supply(4)["g-new"], Value::Null);
    let here = |i: usize, label: &str| answers[i]["here"][label].clone();
    assert_eq!(here(0, "0401"), json!("g-east"));
    assert_eq!(here(1, "0401"), json!(""));
    assert_eq!(here(2, "0401"), json!("g-new"));
    assert_eq!((here(3, "0302"), here(3, "0102")), (json!(""), json!("a1")));
    assert_eq!(here(3, "0101"), json!("g-arm"));
    assert_eq!((here(4, "0401"), here(4, "0501")), (json!(""), json!("")));
    assert_eq!(here(5, "0201"), json!("z-al"));
    // (z-al at 0201 holds the armour back to 0202; gone, its ZOC goes with it)
    assert_eq!(answers[5]["reach"], json!({"0202": 2.0}));
    assert_eq!(
        answers[6]["reach"],
        json!({"0201": 2.0, "0202": 2.0, "0301": 3.0, "0302": 4.0, "0401": 4.0, "0402": 4.0})
    );
    for (i, pair) in answers.windows(2).enumerate() {
        assert_ne!(pair[0], pair[1], "step {} changed nothing", i + 1);
    }
}

/// A change of control alone reaches the searches: the occupancy's owners
/// (`Occupancy::set_owners`) and the supply fields traced before. On hexsides/german_territory
/// g2 (0401) may not cross the sea into Allied 0501 (F40-10.2) until it is German; a line to
/// the source 0401 needs it German.
#[test]
fn a_change_of_control_between_calls_reaches_the_owners_and_the_supply_fields() {
    let answers = paths_after_each(
        "hexsides/german_territory.toml",
        "g2",
        "0401",
        &[
            vec![],
            vec![control("0501", "german")],
            vec![control("0501", "allied")],
            vec![control("0401", "allied")],
            vec![control("0401", "german")],
        ],
    );
    assert_eq!(answers[0]["reach"], json!({}));
    assert_eq!(answers[1]["reach"], json!({"0501": 1.0}));
    assert_eq!(answers[2]["reach"], json!({}));
    assert_eq!(answers[2]["foot"], json!(["0401", "0501"]));
    assert_eq!(answers[3]["foot"], json!({}));
    for (i, pair) in answers.windows(2).enumerate() {
        assert_ne!(pair[0], pair[1], "step {} changed nothing", i + 1);
    }
}
