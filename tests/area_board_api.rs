//! `hex.map` on an area board for a game that is not Diplomacy: regions carry the designer's
//! own data (`[region.attrs]`), and `distance` counts moves along a class's adjacency, as it
//! counts hexes on a hex map (a Risk-like game had to keep its continents in Lua tables that
//! `check` never saw, and write its own search for how far a region is).

mod common;

use hexwar::rules::LuaRules;
use hexwar::scenario::load_scenario;

/// A line of four regions, W - M - E - F, and a lone island I; W and E carry attributes.
const MAP: &str = r#"kind = "area"
name = "line"
[[power]]
name = "RED"
[[region]]
id = "WEST"
type = "land"
army = ["MID"]
[region.attrs]
continent = "north"
bonus = 2
[[region]]
id = "MID"
type = "land"
army = ["WEST", "EAST"]
[[region]]
id = "EAST"
type = "land"
army = ["MID", "FAR"]
[region.attrs]
continent = "south"
capital = true
[[region]]
id = "FAR"
type = "land"
army = ["EAST"]
[[region]]
id = "ISLE"
type = "land"
"#;

fn line_rules() -> (tempfile::TempDir, LuaRules, hexwar::engine::GameState) {
    let dir = tempfile::tempdir().unwrap();
    common::write_area_scenario(dir.path(), MAP, "");
    let scenario = load_scenario(dir.path()).unwrap();
    let rules = LuaRules::load(&scenario).unwrap();
    let state = scenario.initial_state(1);
    (dir, rules, state)
}

#[test]
fn regions_carry_their_attrs() {
    let (_dir, mut rules, state) = line_rules();
    let answer = rules
        .eval(
            &state,
            "local w, e, m = hex.map.region('WEST'), hex.map.region('EAST'), hex.map.region('MID')
             return { w.attrs.continent, w.attrs.bonus, e.attrs.continent, e.attrs.capital,
                      next(m.attrs) == nil, math.type(w.attrs.bonus) }",
        )
        .unwrap();
    assert_eq!(
        answer,
        serde_json::json!(["north", 2, "south", true, true, "integer"])
    );
}

#[test]
fn distance_on_an_area_board_counts_moves_or_is_nil() {
    let (_dir, mut rules, state) = line_rules();
    let answer = rules
        .eval(
            &state,
            "local d = hex.map.distance
             return { d('WEST', 'WEST'), d('WEST', 'MID'), d('WEST', 'FAR'), d('FAR', 'WEST', 'army'),
                      d('WEST', 'ISLE') == nil }",
        )
        .unwrap();
    assert_eq!(answer, serde_json::json!([0, 1, 3, 3, true]));
    let e = rules
        .eval(&state, "return hex.map.distance('WEST', 'WESTT')")
        .unwrap_err();
    assert!(
        e.message.contains("'WESTT' is not a location of the map"),
        "{}",
        e.message
    );
}

/// The standard Diplomacy map: armies by land, fleets along coasts (a fleet reaches a bare
/// region on any of its coasts; an inland region is out of its reach).
#[test]
fn distance_on_the_standard_map_follows_each_class() {
    let scenario = load_scenario(std::path::Path::new("scenarios/diplomacy")).unwrap();
    let mut rules = LuaRules::load(&scenario).unwrap();
    let state = scenario.initial_state(1);
    let answer = rules
        .eval(
            &state,
            "local d = hex.map.distance
             return { d('PAR', 'MOS'), d('LON', 'NTH', 'fleet'), d('NWY', 'STP', 'fleet'),
                      d('NWY', 'STP/SC', 'fleet'), d('LON', 'MOS', 'fleet') == nil }",
        )
        .unwrap();
    assert_eq!(answer, serde_json::json!([5, 1, 1, 3, true]));
}

/// A setup's `[control]` (`side = [places]`, as in a scenario) sets who holds each place, on
/// any board: an area game's position is mostly control, and a test had to write a setup hook
/// of its own to set it (`t.setup{control = ...}` was an unknown key).
#[test]
fn a_setup_sets_control() {
    let (dir, _rules, _state) = line_rules();
    let mut session = hexwar::Session::start(dir.path(), Some(1)).unwrap();
    let table = serde_json::json!({ "control": { "RED": ["EAST", "FAR"] } });
    let serde_json::Value::Object(table) = table else {
        unreachable!()
    };
    session.setup_table(&table, Vec::new()).unwrap();
    let control = &session.game.state().control;
    assert_eq!(
        control.iter().collect::<Vec<_>>(),
        [
            (&"EAST".to_string(), &"RED".to_string()),
            (&"FAR".to_string(), &"RED".to_string())
        ]
    );
    for (bad, message) in [
        (
            serde_json::json!({ "control": { "RED": ["EASTT"] } }),
            "setup table: [control].RED: 'EASTT' is not a location of the map (did you mean 'EAST'?)",
        ),
        (
            serde_json::json!({ "control": { "BLUE": ["EAST"] } }),
            "setup table: [control]: unknown side 'BLUE' (sides: RED)",
        ),
        (
            serde_json::json!({ "control": ["EAST"] }),
            "setup table: [control] must be a table: side = [places]",
        ),
    ] {
        let serde_json::Value::Object(bad) = bad else {
            unreachable!()
        };
        let e = session.setup_table(&bad, Vec::new()).unwrap_err();
        assert_eq!(e.to_string(), message);
        // (nothing applied: the control set above stands)
        assert_eq!(session.game.state().control.len(), 2);
    }
}
