//! Tests for mutants of the Rust path core (`src/path/`) that no other test caught, for files
//! without a test module of their own.

use hexwar::board::{parse_map, SourceText};
use hexwar::path::CostVariants;

/// `costs_by_variable.variable` must name a rules variable: an empty name is refused, at its
/// key, as a missing one is.
#[test]
fn costs_by_variable_refuses_an_empty_variable_name() {
    let map = parse_map(&SourceText::new(
        "m.toml",
        "name = \"m\"\ncolumns = 2\nrows = 1\ngrid = [\". .\"]\n[legend]\n\".\" = \"clear\"\n",
    ))
    .unwrap();
    let declaration = serde_json::json!({
        "sides": ["blue", "red"], "classes": ["foot"],
        "terrain": { "clear": 1 },
        "costs_by_variable": { "variable": "", "values": { "mud": { "terrain": { "clear": 2 } } } },
    });
    let e = CostVariants::compile(&declaration, &map).unwrap_err();
    assert_eq!(
        e.to_string(),
        "costs_by_variable.variable: expected the name of a rules variable (a string), found the string \"\""
    );
}

fn two_hexes() -> hexwar::board::HexMap {
    parse_map(&SourceText::new(
        "m.toml",
        "name = \"m\"\ncolumns = 2\nrows = 1\ngrid = [\". .\"]\n[legend]\n\".\" = \"clear\"\n",
    ))
    .unwrap()
}

fn with_mud(mud: serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "sides": ["blue", "red"], "classes": ["foot"],
        "terrain": { "clear": 1 },
        "costs_by_variable": { "variable": "weather", "values": { "mud": mud } },
    })
}

/// An empty Lua table arrives as an empty list: a value replacing `terrain = {}` replaces
/// nothing and compiles; a non-empty list is no table of costs and is refused at its key.
#[test]
fn costs_by_variable_takes_an_empty_list_as_no_entries_and_refuses_a_full_one() {
    let map = two_hexes();
    let ok = CostVariants::compile(&with_mud(serde_json::json!({ "terrain": [] })), &map);
    assert!(ok.unwrap().is_some());
    let e =
        CostVariants::compile(&with_mud(serde_json::json!({ "terrain": [2] })), &map).unwrap_err();
    assert_eq!(
        e.to_string(),
        "costs_by_variable.values.mud.terrain: expected a table, found a list"
    );
}
