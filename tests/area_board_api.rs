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

/// `board_table` carries a region's attrs where it has some (and none where it has none), and
/// a power the map declares without home centres has an empty list of homes, not an error.
#[test]
fn the_board_table_carries_attrs_and_a_power_without_homes_has_none() {
    let (_dir, mut rules, state) = line_rules();
    let answer = rules
        .eval(
            &state,
            "local p = hex.map.board_table().provinces
             return { p.WEST.attrs.continent, p.WEST.attrs.bonus, p.EAST.attrs.capital,
                      p.MID.attrs == nil, #hex.map.homes('RED') }",
        )
        .unwrap();
    assert_eq!(answer, serde_json::json!(["north", 2, true, true, 0]));
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

/// The calls that make sense on both kinds of board serve both: an area game reuses a hex
/// game's victory and bot code (`places`, `has_feature`, `terrain`) instead of failing on them.
/// On an area board a region's type is its terrain, and the names its `attrs` set to true are
/// its features.
#[test]
fn places_terrain_and_features_serve_an_area_board() {
    let (_dir, mut rules, state) = line_rules();
    let answer = rules
        .eval(
            &state,
            "local m = hex.map
             return { m.places(), m.terrain('EAST'), m.features('EAST'), #m.features('WEST'),
                      m.has_feature('EAST', 'capital'), m.has_feature('WEST', 'continent'),
                      m.has_feature('MID', 'capital'), m.is_location('MID'), m.is_location('0101') }",
        )
        .unwrap();
    assert_eq!(
        answer,
        serde_json::json!([
            ["EAST", "FAR", "ISLE", "MID", "WEST"],
            "land",
            ["capital"],
            0,
            true,
            false,
            false,
            true,
            false
        ])
    );
}

/// ... and on a hex board: `places` is `hexes`, `is_location` is `is_hex`.
#[test]
fn places_and_is_location_serve_a_hex_board() {
    let scenario = load_scenario(std::path::Path::new("scenarios/demo")).unwrap();
    let mut rules = LuaRules::load(&scenario).unwrap();
    let state = scenario.initial_state(1);
    let answer = rules
        .eval(
            &state,
            "local same = #hex.map.places() == #hex.map.hexes()
             for i, l in ipairs(hex.map.hexes()) do same = same and hex.map.places()[i] == l end
             return { same, hex.map.is_location('0101'), hex.map.is_location('PAR') }",
        )
        .unwrap();
    assert_eq!(answer, serde_json::json!([true, true, false]));
}

/// An unknown place or a hex-only call names the call, the nearest region, and what serves an
/// area board.
#[test]
fn area_board_errors_name_the_call_and_the_nearest_region() {
    let (_dir, mut rules, state) = line_rules();
    let cases = [
        (
            "return hex.map.neighbors('EASTT')",
            "hex.map.neighbors: 'EASTT' is not a location of the map (did you mean 'EAST'?)",
        ),
        (
            "return hex.map.has_feature('west', 'capital')",
            "hex.map.has_feature: 'west' is not a location of the map (did you mean 'WEST'?)",
        ),
        (
            "return hex.map.adjacent('MID', 'NOWHERE')",
            "hex.map.adjacent: 'NOWHERE' is not a location of the map",
        ),
        (
            "return hex.map.zone('north')",
            "hex.map.zone: this board is an area map, which has no hex grid; on both kinds of \
             board: places, is_location, terrain, features, has_feature, neighbors, distance; on \
             area maps: regions, region, adjacent, supply_centers, homes, powers, board_table",
        ),
        // (a feature or power near one the map has is misspelt: both read as a silent
        // false or empty list)
        (
            "return hex.map.has_feature('WEST', 'captial')",
            "hex.map.has_feature: this map has no feature 'captial' (did you mean 'capital'?)",
        ),
        (
            "return hex.map.homes('RD')",
            "hex.map.homes: this map has no power 'RD' (did you mean 'RED'?) (its powers: RED)",
        ),
        (
            "return hex.map.homes('red')",
            "hex.map.homes: this map has no power 'red' (did you mean 'RED'?) (its powers: RED)",
        ),
    ];
    for (script, message) in cases {
        let e = rules.eval(&state, script).unwrap_err();
        assert!(e.message.contains(message), "{script}: {}", e.message);
    }
}

/// A movement declaration on an area map is refused at load, naming where it is declared and
/// what an area game searches with instead.
#[test]
fn a_movement_declaration_on_an_area_map_names_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    common::write_area_scenario(dir.path(), MAP, "");
    std::fs::write(
        dir.path().join("seq.lua"),
        "hex.rules.sequence { steps = { { side = \"RED\", phase = \"move\" } } }\n\
         hex.rules.declare(\"movement\", { terrain = { land = 1 } })\n",
    )
    .unwrap();
    let scenario = load_scenario(dir.path()).unwrap();
    let Err(e) = LuaRules::load(&scenario) else {
        panic!("loaded")
    };
    let message = e.to_string();
    assert!(
        message.ends_with(
            "/seq.lua:2: the rules declare a movement table (hex.rules.declare(\"movement\", ...)), \
             which needs a hex map; this scenario's map is an area map, whose games search the \
             regions with hex.map.neighbors and hex.map.distance"
        ),
        "{message}"
    );
}

/// A host function's error caught with `pcall` is the text of its message, as a script's own
/// `error("...")` is (it was an error object whose text began with a traceback, so
/// `err:match(...)` failed); a script's own error keeps its place.
#[test]
fn a_caught_host_error_is_its_message_as_text() {
    let (_dir, mut rules, state) = line_rules();
    let answer = rules
        .eval(
            &state,
            "local ok, e = pcall(hex.map.neighbors, 'EASTT')
             local ok2, e2 = pcall(function() error('mine') end)
             return { ok, type(e), e, ok2, type(e2), e2:match('mine$') ~= nil }",
        )
        .unwrap();
    assert_eq!(
        answer,
        serde_json::json!([
            false,
            "string",
            "hex.map.neighbors: 'EASTT' is not a location of the map (did you mean 'EAST'?)",
            false,
            "string",
            true
        ])
    );
}

/// A host function given an argument of the wrong type, its error caught with `pcall`, reads as
/// the host's own report words it, naming the function: called straight by `pcall` (no
/// traceback frame names it), from a script's function, and with a number out of range.
/// mlua's text named no function: `bad argument #1: error converting Lua table to String
/// (expected string or number)`.
#[test]
fn a_caught_bad_argument_names_the_host_function_in_a_scripts_words() {
    let (_dir, mut rules, state) = line_rules();
    let answer = rules
        .eval(
            &state,
            "local _, direct = pcall(hex.map.neighbors, {})
             local _, second = pcall(hex.map.distance, 'EAST', function() end)
             local _, nested = pcall(function() local n = hex.map.neighbors(true) return n end)
             local _, range = pcall(hex.dice.roll, -3)
             return { direct, second, nested, range }",
        )
        .unwrap();
    assert_eq!(
        answer,
        serde_json::json!([
            "bad argument #1 to 'hex.map.neighbors' (string expected, got table)",
            "bad argument #2 to 'hex.map.distance' (string expected, got function)",
            "bad argument #1 to 'hex.map.neighbors' (string expected, got boolean)",
            "bad argument #1 to 'hex.dice.roll' (integer out of range)",
        ])
    );
}

/// An area scenario in `dir` whose region EAST is also called ORIENT, with one RED army, r1,
/// at MID (its rules: the test's `seq.lua`).
fn write_alias_scenario(dir: &std::path::Path) {
    let map = MAP.replace(
        "id = \"EAST\"\ntype = \"land\"",
        "id = \"EAST\"\ntype = \"land\"\naliases = [\"ORIENT\"]",
    );
    common::write_area_scenario(
        dir,
        &map,
        "[[unit]]\nid = \"r1\"\nside = \"RED\"\ntype = \"army\"\nat = \"MID\"\n",
    );
}

/// A region named by its alias in a command reaches the rules' `resolve` as the region's id:
/// the host's checks accept the alias, and an event naming it was refused as the rules' error
/// (an area-game designer's `move` to `BRK` failed with exit 2: "to 'BRK' is an alias of
/// location 'BRACKEN'"). So it does in a `move`'s path or `to`, and in an argument declared a
/// `place`; an id, and an argument not declared a place, reach the rules as written.
#[test]
fn a_command_naming_a_region_by_its_alias_reaches_the_rules_as_its_id() {
    use hexwar::engine::{Command, Ruleset};
    let dir = tempfile::tempdir().unwrap();
    write_alias_scenario(dir.path());
    // (each command returns the move its place names, as a designer's first rules would)
    std::fs::write(
        dir.path().join("seq.lua"),
        "hex.rules.sequence { steps = { { side = \"RED\", phase = \"move\" } } }
         local function moved(to) return { { event = \"UnitMoved\", unit = \"r1\", from = \"MID\", to = to, path = { to }, cost = 1 } } end
         hex.commands.define(\"move\", { args = { \"unit\", \"path\", \"to\" },
           resolve = function(cmd) return moved(cmd.path[#cmd.path]) end })
         hex.commands.define(\"garrison\", { args = { unit = \"unit\", at = \"place\", note = \"string?\" },
           resolve = function(cmd) return moved(cmd.at) end })",
    )
    .unwrap();
    let scenario = load_scenario(dir.path()).unwrap();
    let mut rules = LuaRules::load(&scenario).unwrap();
    let state = scenario.initial_state(1);
    let to_of = |rules: &mut LuaRules, command: serde_json::Value| {
        let command = Command::try_from(command.as_object().unwrap().clone()).unwrap();
        let events = rules
            .resolve(&state, Some("RED"), &command)
            .unwrap()
            .unwrap();
        serde_json::to_value(&events[0]).unwrap()["to"].clone()
    };
    let cases = [
        (
            serde_json::json!({"command": "move", "unit": "r1", "to": "ORIENT"}),
            "EAST",
        ),
        (
            serde_json::json!({"command": "move", "unit": "r1", "path": ["ORIENT"]}),
            "EAST",
        ),
        (
            serde_json::json!({"command": "move", "unit": "r1", "path": ["EAST"]}),
            "EAST",
        ),
        (
            serde_json::json!({"command": "garrison", "unit": "r1", "at": "ORIENT"}),
            "EAST",
        ),
        (
            serde_json::json!({"command": "garrison", "unit": "r1", "at": "ORIENT", "note": "ORIENT"}),
            "EAST",
        ),
    ];
    for (command, to) in cases {
        assert_eq!(to_of(&mut rules, command.clone()), to, "{command}");
    }
    // (an argument not declared a place keeps what was written)
    std::fs::write(
        dir.path().join("seq.lua"),
        "hex.rules.sequence { steps = { { side = \"RED\", phase = \"move\" } } }
         hex.commands.define(\"garrison\", { args = { unit = \"unit\", at = \"place\", note = \"string?\" },
           resolve = function(cmd) return hex.refuse(\"T-1\", cmd.at .. \" \" .. cmd.note) end })",
    )
    .unwrap();
    let scenario = load_scenario(dir.path()).unwrap();
    let mut rules = LuaRules::load(&scenario).unwrap();
    let command =
        serde_json::json!({"command": "garrison", "unit": "r1", "at": "ORIENT", "note": "ORIENT"});
    let command = Command::try_from(command.as_object().unwrap().clone()).unwrap();
    let refusal = rules
        .resolve(&state, Some("RED"), &command)
        .unwrap()
        .unwrap_err();
    assert_eq!(refusal.to_string(), "T-1: EAST ORIENT");
}

/// A move that gives `units` too goes to the rules whole, as a command of their own: its `path`
/// is read as places though not declared so, and an alias in it reaches `resolve` as the
/// region's id, while its other arguments keep what was written. Another command's argument
/// named `path`, not declared a place, keeps what was written too.
#[test]
fn a_group_moves_path_reaches_the_rules_as_ids_and_no_other_argument_does() {
    use hexwar::engine::{Command, Ruleset};
    let dir = tempfile::tempdir().unwrap();
    write_alias_scenario(dir.path());
    // (each command refuses with the places it was handed, so the test reads them back)
    std::fs::write(
        dir.path().join("seq.lua"),
        "hex.rules.sequence { steps = { { side = \"RED\", phase = \"move\" } } }
         hex.commands.define(\"move\", { args = { \"unit\", \"path\", \"units\" },
           resolve = function(cmd)
             return hex.refuse(\"T-1\", table.concat(cmd.path, \" \") .. \" / \" .. table.concat(cmd.units, \" \"))
           end })
         hex.commands.define(\"march\", { args = { unit = \"unit\", path = \"strings\" },
           resolve = function(cmd) return hex.refuse(\"T-2\", table.concat(cmd.path, \" \")) end })",
    )
    .unwrap();
    let scenario = load_scenario(dir.path()).unwrap();
    let mut rules = LuaRules::load(&scenario).unwrap();
    let state = scenario.initial_state(1);
    let mut refusal_of = |command: serde_json::Value| {
        let command = Command::try_from(command.as_object().unwrap().clone()).unwrap();
        rules
            .resolve(&state, Some("RED"), &command)
            .unwrap()
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        refusal_of(serde_json::json!({
            "command": "move", "unit": "r1", "path": ["MID", "ORIENT"], "units": ["ORIENT"]
        })),
        "T-1: MID EAST / ORIENT"
    );
    assert_eq!(
        refusal_of(serde_json::json!({"command": "march", "unit": "r1", "path": ["ORIENT"]})),
        "T-2: ORIENT"
    );
}
