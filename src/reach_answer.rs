//! A unit's reach as the rules answer it (the `reach` query, or the engine's movement table),
//! checked once for every reader: `hexwar reach` and the render's reach overlay said different
//! things of the same wrong answer.

use serde_json::{Map, Value};

use crate::Session;

impl Session {
    /// The places `unit` can reach, each with its cost, as the rules' `reach` query answers
    /// (an empty table: nowhere). The error says what is wrong: no such unit (with the nearest
    /// id), no reach query, an answer that is no table of places, a place the map lacks.
    pub fn reach_of(&mut self, unit: &str) -> Result<Map<String, Value>, String> {
        // (a facing game's stack, written as the rules' query takes it: said where it is asked
        // for, not "no unit '[...]' in play")
        if unit.trim_start().starts_with('[') {
            return Err(format!(
                "'{}' names a group: `reach` takes one unit id; a group's reach (a facing \
                 game's stack, ANC-5.4) is the rules' query: hexwar query SCENARIO reach '{}' \
                 --json",
                crate::spelling::clipped(unit, 80),
                crate::spelling::clipped(unit, 80)
            ));
        }
        if let Some(gone) = self.game.state().gone.get(unit) {
            // (a reserve in its pool, an eliminated unit: it exists, off the map)
            return Err(format!(
                "'{unit}' is out of play ({}): only a unit on the map has a reach",
                gone.reason
            ));
        }
        if self
            .game
            .state()
            .units
            .get(unit)
            .is_some_and(|u| u.at.is_none())
        {
            // (a reinforcement not placed yet: it said "hex.path.reach: unit ... is not on the
            // map", the rules' function name)
            return Err(format!(
                "'{unit}' is off the map (not placed yet): only a unit on the map has a reach"
            ));
        }
        if !self.game.state().units.contains_key(unit) {
            // (a unit named by its place, as Diplomacy writes units: "A NWY", "NWY")
            let hint =
                crate::spelling::unit_hint(&self.scenario.map, &self.game.state().units, unit);
            return Err(format!("no unit '{unit}' in play{hint}"));
        }
        let area = self.scenario.map.as_area().is_some();
        let answer = match self
            .game
            .query("reach", &Value::String(unit.to_string()))
            .map_err(|e| e.to_string())?
        {
            Some(Value::Object(map)) => map,
            // (an empty table comes back as an empty list: nowhere to go)
            Some(Value::Array(list)) if list.is_empty() => Map::new(),
            Some(other) => {
                return Err(format!(
                    "the rules' reach query answered {other}, not a table of {} -> cost",
                    if area { "locations" } else { "hexes" }
                ))
            }
            // (a movement table needs a hex map: on an area board only a query of the rules
            // answers)
            None if area => {
                return Err(
                    "the rules answer no reach query: on an area board only the rules \
                            can say where a unit may go (hex.rules.query(\"reach\", ...); the \
                            engine's movement table is for hex maps); `hexwar legal` lists the \
                            orders a side may give"
                        .into(),
                )
            }
            None => {
                return Err(
                    "the rules answer no reach query (declare a movement table or \
                            hex.rules.query(\"reach\", ...))"
                        .into(),
                )
            }
        };
        // (a place the map lacks was printed as reachable)
        if let Some(label) = answer
            .keys()
            .find(|label| self.scenario.map.canonical_place(label).is_none())
        {
            return Err(format!(
                "the rules' reach query answered '{label}', which is not a {} of the map",
                self.scenario.map.place_word()
            ));
        }
        Ok(answer)
    }
}
