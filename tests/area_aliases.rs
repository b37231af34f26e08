//! Area-map aliases (docs/formats.md, "Area maps"): a scenario or setup that names a region by
//! an alias places the unit in (or gives control of) the region itself, so the game keeps one
//! name for each place; a position that holds an alias (a script's event, a save edited by
//! hand) is refused, naming the id to use. (A game kept the alias, so control and occupancy of
//! one region were split between two names.)

use std::path::Path;

use hexwar::board::SourceText;
use hexwar::scenario::{parse_scenario, Fit};

/// The standard Diplomacy map's `ADRIATIC` is an alias of the sea region `ADR`.
const SCENARIO: &str = r#"
id = "aliases"
name = "Aliases"
map = "map.toml"
rules = ["diplomacy"]
rule_roots = ["../../rules"]
turns = 1

[[side]]
name = "AUSTRIA"
[[side]]
name = "ENGLAND"
[[side]]
name = "FRANCE"
[[side]]
name = "GERMANY"
[[side]]
name = "ITALY"
[[side]]
name = "RUSSIA"
[[side]]
name = "TURKEY"

[[unit]]
id = "f1"
side = "ITALY"
type = "fleet"
at = "ADRIATIC"

[control]
ITALY = ["ADRIATIC"]
"#;

/// `SCENARIO`, read as if beside the standard map.
fn aliases_scenario() -> hexwar::scenario::Scenario {
    let source = SourceText::new("scenarios/diplomacy/aliases.toml", SCENARIO);
    parse_scenario(&source).unwrap()
}

#[test]
fn a_scenario_naming_a_region_by_its_alias_keeps_the_region_id() {
    let scenario = aliases_scenario();
    assert_eq!(scenario.initial.units["f1"].at.as_deref(), Some("ADR"));
    assert_eq!(
        scenario.initial.control.keys().collect::<Vec<_>>(),
        vec!["ADR"]
    );
    let fit = Fit {
        board: &scenario.map,
        sides: &scenario.sides,
    };
    assert_eq!(fit.place("ADR", "to"), Ok(()));
    assert_eq!(
        fit.place("ADRIATIC", "to"),
        Err("to 'ADRIATIC' is an alias of location 'ADR': name it 'ADR'".into())
    );
}

/// `hex.map.adjacent` and `neighbors` read an alias as its region and refuse a location the
/// map does not have (adjacent answered false for both).
#[test]
fn the_area_map_api_reads_aliases_and_refuses_unknown_locations() {
    let scenario = hexwar::scenario::load_scenario(Path::new("scenarios/diplomacy")).unwrap();
    let mut rules = hexwar::rules::LuaRules::load(&scenario).unwrap();
    let state = scenario.initial_state(1);
    let answer = rules
        .eval(
            &state,
            "local m = hex.map
             local same = table.concat(m.neighbors('ADRIATIC', 'fleet'), ',') == table.concat(m.neighbors('ADR', 'fleet'), ',')
             return { m.adjacent('ADRIATIC', 'ION', 'fleet'), m.adjacent('ADR', 'ION', 'fleet'), same }",
        )
        .unwrap();
    assert_eq!(answer, serde_json::json!([true, true, true]));
    let e = rules
        .eval(&state, "return hex.map.adjacent('ADR', 'ZZZ', 'fleet')")
        .unwrap_err();
    assert!(
        e.message.contains("'ZZZ' is not a location of the map"),
        "{}",
        e.message
    );
}

/// `hex.state.control` reads an alias as its region and refuses a place the map lacks (it
/// answered nil, "nobody's", for a typo).
#[test]
fn control_reads_aliases_and_refuses_unknown_places() {
    let scenario = aliases_scenario();
    let mut rules = hexwar::rules::LuaRules::load(&scenario).unwrap();
    let state = scenario.initial_state(1);
    let answer = rules
        .eval(
            &state,
            "return { hex.state.control('ADR'), hex.state.control('ADRIATIC'), hex.state.control('ION') or 'nobody' }",
        )
        .unwrap();
    assert_eq!(answer, serde_json::json!(["ITALY", "ITALY", "nobody"]));
    let e = rules
        .eval(&state, "return hex.state.control('ZZZ')")
        .unwrap_err();
    assert!(
        e.message
            .contains("hex.state.control: 'ZZZ' is not a place of the map"),
        "{}",
        e.message
    );
}

/// `hex.units.at` reads an alias as its region and refuses a place the map lacks (a misspelt
/// region read as an empty one, so a rule looking for units there found none without a word).
#[test]
fn units_at_reads_aliases_and_refuses_unknown_places() {
    let scenario = aliases_scenario();
    let mut rules = hexwar::rules::LuaRules::load(&scenario).unwrap();
    let state = scenario.initial_state(1);
    let answer = rules
        .eval(
            &state,
            "return { hex.units.at('ADR')[1].id, hex.units.at('ADRIATIC')[1].id, #hex.units.at('ION') }",
        )
        .unwrap();
    assert_eq!(answer, serde_json::json!(["f1", "f1", 0]));
    let e = rules
        .eval(&state, "return hex.units.at('ADRIATICK')")
        .unwrap_err();
    assert!(
        e.message
            .contains("hex.units.at: 'ADRIATICK' is not a place of the map"),
        "{}",
        e.message
    );
}

/// `[control]` on an area map: a misspelt region is named with the nearest one, and a hex
/// map's `zone:` form is told that an area map has none (both read "not a region" alone).
#[test]
fn area_control_names_the_nearest_region_and_refuses_zones() {
    let text = SCENARIO.replace(
        "ITALY = [\"ADRIATIC\"]",
        "ITALY = [\"ADRIATICK\", \"zone:italy\"]",
    );
    let source = SourceText::new("scenarios/diplomacy/aliases.toml", &text);
    let errors: Vec<String> = parse_scenario(&source)
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errors,
        [
            "scenarios/diplomacy/aliases.toml:31: [control]: 'ADRIATICK' is not a region of the map (did you mean 'ADRIATIC'?)",
            "scenarios/diplomacy/aliases.toml:31: [control]: 'zone:italy' is not a region of the map (an area map has no zones: name each region)",
        ]
    );
}
