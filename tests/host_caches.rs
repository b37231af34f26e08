//! The host keeps what it derives from a position (the searches' occupancy and owners, in
//! src/rules/api/path.rs) from one call into Lua to the next while the position is unchanged.
//! Whatever changes between calls (a unit moved, a flag set, control changed, a unit gone), the
//! answers must be those of a VM that never saw the earlier positions.

use std::path::Path;

use hexwar::engine::GameState;
use hexwar::rules::LuaRules;
use hexwar::scenario::load_scenario;
use hexwar::Session;
use serde_json::Value;

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
