//! A name a script asks the map about that misspells one of the map's (a zone, a feature, a
//! terrain) is an error naming the one meant, not a silent `false` in victory or bot code; a
//! name near none of the map's is read as one this map has no hex of (rules shared between
//! maps ask about zones some maps leave out).

use std::path::Path;

use hexwar::rules::LuaRules;
use hexwar::Session;

/// The answer of `code` on the demo's start, or the error's message.
fn ask(code: &str) -> Result<serde_json::Value, String> {
    let session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let mut rules = LuaRules::load(&session.scenario).unwrap();
    rules
        .eval(session.game.state(), code)
        .map_err(|e| e.message)
}

#[test]
fn a_misspelt_zone_feature_or_terrain_is_named_and_an_absent_one_is_false() {
    assert_eq!(
        ask(r#"return hex.map.in_zone("0101", "blue_setup")"#),
        Ok(true.into())
    );
    assert_eq!(
        ask(r#"return hex.map.in_zone("0101", "paris")"#),
        Ok(false.into())
    );
    let e = ask(r#"return hex.map.in_zone("0101", "blue_setpu")"#).unwrap_err();
    assert!(
        e.contains(
            "hex.map.in_zone: this map has no zone 'blue_setpu' (did you mean 'blue_setup'?)"
        ),
        "{e}"
    );
    assert_eq!(
        ask(r#"return hex.map.has_feature("0203", "town")"#),
        Ok(true.into())
    );
    assert_eq!(
        ask(r#"return hex.map.has_feature("0203", "port")"#),
        Ok(false.into())
    );
    let e = ask(r#"return hex.map.has_feature("0203", "twon")"#).unwrap_err();
    assert!(
        e.contains("hex.map.has_feature: this map has no feature 'twon' (did you mean 'town'?)"),
        "{e}"
    );
    let e = ask(r#"return hex.map.zone("red_setpu")"#).unwrap_err();
    assert!(
        e.contains("unknown zone 'red_setpu' (did you mean 'red_setup'?)"),
        "{e}"
    );
    // (`impassable = {"sea"}` on a map without sea: no hex is sea, as before)
    assert!(ask(r#"return hex.path.steps({"0101"}, {impassable = {"sea"}})["0102"]"#).is_ok());
    let e = ask(r#"return hex.path.steps({"0101"}, {impassable = {"forst"}})"#).unwrap_err();
    assert!(
        e.contains(
            "hex.path.steps: impassable names 'forst', no terrain of this map (did you mean \
             'forest'?; terrains: clear, forest, hills, lake, marsh)"
        ),
        "{e}"
    );
}
