//! Events a script returns are checked against the scenario before the engine applies them.
//! `apply` only knows the state: a unit placed on a side the scenario lacks, moved to a hex off
//! the map or given facing 9 would go into the state and the save, and the game would fail
//! later, far from the script that made the mistake (DESIGN.md principles 4 and 7). The check
//! names the event, its place in the script's list and what is wrong; the call fails and the
//! state stays as it was.

use crate::engine::{engine_only, fit_for_rules, Event};
use crate::scenario::Fit;

/// Checks every event of a script's list; the error names the first bad one
/// (`event #2 (UnitPlaced): ...`).
pub(crate) fn check_events(context: &Fit, events: &[Event]) -> Result<(), String> {
    for (i, event) in events.iter().enumerate() {
        check_event(context, event)
            .map_err(|why| format!("event #{} ({}): {why}", i + 1, event.name()))?;
    }
    Ok(())
}

fn check_event(context: &Fit, event: &Event) -> Result<(), String> {
    match event {
        // (the host makes it as a script rolls hex.dice; a script's own would roll nothing)
        Event::DiceRolled { .. } => return Err(engine_only(event)),
        Event::UnitMoved { to, path, .. } => {
            context.place(to, "to")?;
            for step in path {
                context.place(step, "path")?;
            }
        }
        Event::UnitEnteredHex { hex, .. } => context.place(hex, "hex")?,
        Event::UnitPlaced { unit } => context.unit(unit)?,
        Event::UnitSideChanged { side, .. } => context.side(side)?,
        Event::ControlChanged { hex, side } => {
            context.place(hex, "hex")?;
            side.as_deref().map_or(Ok(()), |s| context.side(s))?
        }
        Event::GameEnded {
            winner: Some(w), ..
        } => context.side(w).map_err(|e| format!("winner: {e}"))?,
        _ => {}
    }
    // (what any ruleset's events must be, the board aside: the engine's own check)
    fit_for_rules(event)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use serde_json::json;

    use super::check_events;
    use crate::board::load_board;
    use crate::engine::Event;
    use crate::scenario::Fit;

    fn check(map: &str, sides: &[&str], event: serde_json::Value) -> Result<(), String> {
        let board = load_board(Path::new(map)).expect("the repository's map loads");
        let sides: Vec<String> = sides.iter().map(|s| s.to_string()).collect();
        let event: Event = serde_json::from_value(event).expect("a well-formed event");
        check_events(
            &Fit {
                board: &board,
                sides: &sides,
            },
            &[event],
        )
    }

    fn demo(event: serde_json::Value) -> Result<(), String> {
        check("scenarios/demo/map.toml", &["blue", "red"], event)
    }

    fn placed(unit: serde_json::Value) -> serde_json::Value {
        json!({"event": "UnitPlaced", "unit": unit})
    }

    #[test]
    fn events_within_the_scenario_pass() {
        for event in [
            json!({"event": "UnitMoved", "unit": "b1", "from": "0203", "to": "0303", "path": ["0303"], "cost": 1.0}),
            json!({"event": "ControlChanged", "hex": "0303", "side": "red"}),
            json!({"event": "ControlChanged", "hex": "0303", "side": null}),
            json!({"event": "UnitSideChanged", "unit": "b1", "side": "red"}),
            json!({"event": "UnitFacingChanged", "unit": "b1", "facing": 5, "facing2": 0}),
            json!({"event": "GameEnded", "winner": null, "scores": {"blue": 2.5}, "reason": "draw"}),
            json!({"event": "Custom", "name": "CountryInvaded", "data": {"country": "belgium"}}),
            placed(json!({"id": "b9", "side": "blue", "type": "infantry"})),
        ] {
            assert_eq!(demo(event.clone()), Ok(()), "{event}");
        }
    }

    #[test]
    fn each_field_that_names_the_scenario_is_checked() {
        let cases = [
            (
                json!({"event": "ControlChanged", "hex": "0000", "side": "red"}),
                "event #1 (ControlChanged): hex '0000' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)",
            ),
            (
                json!({"event": "ControlChanged", "hex": "0303", "side": "green"}),
                "event #1 (ControlChanged): unknown side 'green' (sides: blue, red)",
            ),
            (
                json!({"event": "UnitSideChanged", "unit": "b1", "side": ""}),
                "event #1 (UnitSideChanged): unknown side '' (sides: blue, red)",
            ),
            (
                json!({"event": "UnitEnteredHex", "unit": "b1", "hex": "A1"}),
                "event #1 (UnitEnteredHex): hex 'A1' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)",
            ),
            (
                json!({"event": "UnitMoved", "unit": "b1", "from": "0203", "to": "0303", "path": ["0203", "x"], "cost": 1.0}),
                "event #1 (UnitMoved): path 'x' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)",
            ),
            (
                json!({"event": "UnitFacingChanged", "unit": "b1", "facing": 0, "facing2": 6}),
                "event #1 (UnitFacingChanged): facing2 6 is not a direction: 0 to 5 (an edge, or a corner for a phalanx; TA-R1)",
            ),
            (
                json!({"event": "GameEnded", "winner": "green", "scores": {}, "reason": "x"}),
                "event #1 (GameEnded): winner: unknown side 'green' (sides: blue, red)",
            ),
            (
                json!({"event": "DiceRolled", "sides": 6, "value": 3}),
                "event #1 (DiceRolled): only the engine makes DiceRolled events (phases follow the sequence and `end_phase`; dice come from hex.dice)",
            ),
            (
                json!({"event": "Custom", "name": "", "data": null}),
                "event #1 (): a custom event needs a name",
            ),
            (
                placed(json!({"id": "", "side": "blue", "type": "infantry"})),
                "event #1 (UnitPlaced): the unit has no id",
            ),
            (
                placed(json!({"id": "b9", "side": "blue", "type": "infantry", "at": "9999"})),
                "event #1 (UnitPlaced): unit 'b9': at '9999' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)",
            ),
            (
                placed(json!({"id": "b9", "side": "blue", "type": "infantry", "facing": 7})),
                "event #1 (UnitPlaced): unit 'b9': facing 7 is not a direction: 0 to 5 (an edge, or a corner for a phalanx; TA-R1)",
            ),
        ];
        for (event, expected) in cases {
            assert_eq!(demo(event.clone()), Err(expected.to_string()), "{event}");
        }
    }

    /// Numbers are checked where JSON cannot carry them (serde_json would save NaN as null).
    #[test]
    fn numbers_must_be_finite() {
        let board = load_board(Path::new("scenarios/demo/map.toml")).expect("map");
        let sides = vec!["blue".to_string()];
        let context = Fit {
            board: &board,
            sides: &sides,
        };
        let moved = Event::UnitMoved {
            unit: "b1".into(),
            from: None,
            to: "0303".into(),
            path: vec![],
            cost: f64::NAN,
        };
        let ended = Event::GameEnded {
            winner: None,
            scores: BTreeMap::from([("blue".to_string(), f64::INFINITY)]),
            reason: "x".into(),
        };
        assert_eq!(
            check_events(&context, &[ended]),
            Err(
                "event #1 (GameEnded): scores.blue is inf: a number must be finite to be saved"
                    .into()
            )
        );
        assert_eq!(
            check_events(&context, &[moved]),
            Err("event #1 (UnitMoved): cost is NaN: a number must be finite to be saved".into())
        );
    }

    #[test]
    fn area_boards_check_locations_coasts_included() {
        let map = "scenarios/diplomacy/map.toml";
        let sides = ["FRANCE", "RUSSIA"];
        let moved = |to: &str| json!({"event": "UnitMoved", "unit": "f1", "from": null, "to": to, "path": [], "cost": 0.0});
        assert_eq!(check(map, &sides, moved("STP/NC")), Ok(()));
        assert_eq!(
            check(map, &sides, moved("STP/XC")),
            Err("event #1 (UnitMoved): to 'STP/XC' is not a location of the map (STP's coasts: NC, SC)".into())
        );
    }
}
