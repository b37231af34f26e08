//! Whether a position fits a scenario: places on its map, sides it has, facings that are
//! directions, numbers a save can hold. The same questions are asked of the events a script
//! returns (rules/event_check.rs) and of a saved state when a game is resumed (a save edited by
//! hand, with its checksum made again, must not reach the rules as a puzzle).

use crate::board::Board;
use crate::engine::{GameState, Save, Sequence, Unit};

/// The scenario facts a position is checked against.
pub struct Fit<'a> {
    pub board: &'a Board,
    pub sides: &'a [String],
}

impl Fit<'_> {
    /// `label` is a hex (or area location) of the map; `field` names it in the message.
    pub fn place(&self, label: &str, field: &str) -> Result<(), String> {
        match self.board.canonical_place(label) {
            Some(id) if id == label => Ok(()),
            // (a position keeps the region's id: a state holding an alias would have the same
            // place under two names, control and occupancy split between them)
            Some(id) => Err(format!(
                "{field} '{label}' is an alias of {} '{id}': name it '{id}'",
                self.board.place_word()
            )),
            None => Err(format!(
                "{field} '{label}' is not a {} of the map{}",
                self.board.place_word(),
                self.board.unknown_place_hint(label)
            )),
        }
    }

    pub fn side(&self, side: &str) -> Result<(), String> {
        if self.sides.iter().any(|s| s == side) {
            Ok(())
        } else {
            Err(crate::spelling::unknown_side(side, self.sides))
        }
    }

    /// A unit's side, place, facings and numbers; the message starts with the unit's id.
    pub fn unit(&self, unit: &Unit) -> Result<(), String> {
        let id = &unit.id;
        if id.is_empty() {
            return Err("the unit has no id".into());
        }
        // (a second base's facing, TA-R1: a whole number 0 to 5 like `facing`; -1 or 2.5 were
        // let through as no number at all)
        let facing2 = match unit.attrs.get("facing2") {
            None => None,
            Some(v) => Some(facing2_number(v).map_err(|e| format!("unit '{id}': {e}"))?),
        };
        let checked = self
            .side(&unit.side)
            .and_then(|()| unit.at.as_ref().map_or(Ok(()), |at| self.place(at, "at")))
            .and_then(|()| {
                unit.facing
                    .map_or(Ok(()), |f| direction(f.into(), "facing"))
            })
            .and_then(|()| facing2.map_or(Ok(()), |f| direction(f, "facing2")))
            .and_then(|()| unit_numbers(unit.ma, unit.strength));
        checked.map_err(|e| format!("unit '{id}': {e}"))
    }

    /// A save: its state ([`Fit::state`]) and the sides it records as done in a simultaneous
    /// step, each a side of the scenario named once, at a step without a phasing side.
    pub fn save(&self, save: &Save, sequence: &Sequence, turns: u32) -> Result<(), String> {
        self.state(&save.state, sequence, turns)?;
        let done = &save.sides_done;
        if let Some(at) = done.iter().position(|s| !self.sides.contains(s)) {
            return Err(format!(
                "sides_done: {}",
                crate::spelling::unknown_side(&done[at], self.sides)
            ));
        }
        if let Some(twice) = done
            .iter()
            .enumerate()
            .find(|(i, s)| done[..*i].contains(s))
        {
            return Err(format!("sides_done: '{}' is named twice", twice.1));
        }
        let simultaneous = sequence
            .step(save.state.turn, save.state.step)
            .is_some_and(|s| s.side.is_none());
        if !done.is_empty() && !simultaneous {
            return Err(
                "sides_done: the game stands at a step one side plays, not a simultaneous one"
                    .into(),
            );
        }
        Ok(())
    }

    /// A whole state (a save's): its units in and out of play, control, the step of the
    /// sequence it stands at (a turn of the scenario's `turns`, or the one after, where a
    /// finished game stands), and the outcome of a finished game.
    pub fn state(&self, state: &GameState, sequence: &Sequence, turns: u32) -> Result<(), String> {
        // (turn 0 is a scenario before its start: a save is taken once the game started, and
        // rules resumed there failed with an error that blamed them)
        if state.turn == 0 {
            return Err(
                "turn 0 is before the game starts (a saved game stands at turn 1 or later)".into(),
            );
        }
        // (the turn after the last is where a finished game stands)
        if let Some(why) = Sequence::turn_problem(state.turn, turns, state.outcome.is_some()) {
            return Err(why);
        }
        if let Some(outcome) = &state.outcome {
            if let Some(winner) = &outcome.winner {
                self.side(winner)
                    .map_err(|e| format!("outcome: winner: {e}"))?;
            }
            for (side, score) in &outcome.scores {
                self.side(side)
                    .map_err(|e| format!("outcome: scores: {e}"))?;
                finite(*score, &format!("outcome: the score of {side}"))?;
            }
        }
        if !state.map_changes.is_empty() {
            match self.board {
                Board::Hex(map) => map.with_changes(&state.map_changes).map(|_| ())?,
                Board::Area(_) => {
                    return Err(
                        "map_changes: an area map has no hexes or hexsides to change".into(),
                    )
                }
            }
        }
        for (key, unit) in &state.units {
            self.unit(unit)?;
            if key != &unit.id {
                return Err(format!("unit '{}' is filed under '{key}'", unit.id));
            }
        }
        for (key, gone) in &state.gone {
            self.unit(&gone.unit)
                .map_err(|e| format!("out of play: {e}"))?;
            if state.units.contains_key(key) {
                return Err(format!("unit '{key}' is both in play and out of play"));
            }
        }
        for (hex, side) in &state.control {
            self.place(hex, "control:")?;
            self.side(side)
                .map_err(|e| format!("control of '{hex}': {e}"))?;
        }
        if let Some(why) = sequence.step_problem(state.turn, state.step) {
            return Err(why);
        }
        Ok(())
    }
}

pub use crate::engine::{direction, finite};

/// A second base's facing as written (`attrs.facing2`, TA-R1): a whole number, which
/// [`direction`] then holds to 0 to 5. The same check for a scenario's units, a setup's and a
/// save's: the facing search reads anything else as no second base at all.
pub(crate) fn facing2_number(v: &serde_json::Value) -> Result<u64, String> {
    v.as_u64().ok_or_else(|| {
        format!(
            "facing2 {v} is not a direction: 0 to 5 (an edge, or a corner for a phalanx; TA-R1)"
        )
    })
}

/// A unit's movement allowance and strength as the engine can use them, checked wherever units
/// come from (scenarios, setups, saves): an allowance the movement search cannot count in (a
/// negative, 0.3, 1e9) would pass the load and fail at the first move, blaming the rules.
pub fn unit_numbers(ma: f64, strength: f64) -> Result<(), String> {
    movement_allowance(ma)?;
    strength_points(strength)
}

/// A movement allowance the search can count in: see [`unit_numbers`].
pub fn movement_allowance(ma: f64) -> Result<(), String> {
    not_negative(ma, "ma")?;
    if crate::path::Mp::from_f64(ma).is_none() {
        return Err(format!(
            "ma is {}: a movement allowance is counted in 64ths of a movement point \
             (1, 2.5, 0.375 ...), below {}",
            shown(ma),
            crate::path::Mp::BELOW
        ));
    }
    Ok(())
}

/// A strength: finite, never below zero.
pub fn strength_points(strength: f64) -> Result<(), String> {
    not_negative(strength, "strength")
}

/// A unit's movement allowance or strength: a finite number, never below zero.
fn not_negative(value: f64, field: &str) -> Result<(), String> {
    finite(value, field)?;
    if value < 0.0 {
        return Err(format!(
            "{field} is {}: it cannot be negative",
            shown(value)
        ));
    }
    Ok(())
}

/// A number as a message quotes it: in exponent form when plain digits would run long
/// (`1e-300`, not a 0 and three hundred digits).
fn shown(value: f64) -> String {
    if value != 0.0 && !(1e-4..1e16).contains(&value.abs()) {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::Fit;
    use crate::engine::{GameState, GoneUnit, Sequence, Step};
    use crate::scenario::load_scenario;

    fn sequence() -> Sequence {
        let step = |phase: &str| Step {
            side: Some("blue".into()),
            phase: phase.into(),
        };
        Sequence {
            steps: vec![step("movement"), step("combat")],
            special: [(1, vec![step("movement")])].into(),
        }
    }

    /// An edit of a state, and the message it must get.
    type Case = (Box<dyn Fn(&mut GameState)>, String);

    /// Files `unit` among the units gone from play (eliminated at turn 1).
    fn eliminate(state: &mut GameState, unit: crate::engine::Unit) {
        state.gone.insert(
            unit.id.clone(),
            GoneUnit {
                unit,
                reason: "eliminated".into(),
                eliminated: true,
                turn: 1,
            },
        );
    }

    /// Every way a hand-edited save can leave its scenario, each named.
    #[test]
    fn a_state_that_leaves_its_scenario_is_named() {
        let scenario = load_scenario(Path::new("scenarios/demo")).expect("the demo loads");
        let fit = Fit {
            board: &scenario.map,
            sides: &scenario.sides,
        };
        let mut base = scenario.initial_state(1);
        base.turn = 2;
        base.step = 1;
        assert_eq!(fit.state(&base, &sequence(), scenario.turns), Ok(()));
        let first = base
            .units
            .keys()
            .next()
            .expect("the demo has units")
            .clone();
        let last = scenario.turns;
        let cases: Vec<Case> = vec![
            (
                Box::new(|s| s.turn = 1),
                "turn 1 has no step 1 (its sequence has 1)".into(),
            ),
            (
                Box::new(|s| {
                    s.control.insert("0000".into(), "blue".into());
                }),
                "control: '0000' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)".into(),
            ),
            (
                Box::new(|s| {
                    s.control.insert("0303".into(), "green".into());
                }),
                "control of '0303': unknown side 'green' (sides: blue, red)".into(),
            ),
            (
                Box::new(|s| {
                    let u = s.units.values_mut().next().expect("a unit");
                    u.at = Some("A1".into());
                }),
                format!("unit '{first}': at 'A1' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)"),
            ),
            (
                Box::new(|s| {
                    let u = s.units.values_mut().next().expect("a unit");
                    u.attrs.insert("facing2".into(), 6.into());
                }),
                format!(
                    "unit '{first}': facing2 6 is not a direction: 0 to 5 (an edge, or a corner \
                     for a phalanx; TA-R1)"
                ),
            ),
            (
                Box::new(|s| {
                    let mut u = s.units.values().next().expect("a unit").clone();
                    u.id = "other".into();
                    s.units.insert("renamed".into(), u);
                }),
                "unit 'other' is filed under 'renamed'".into(),
            ),
            (
                Box::new(|s| {
                    let mut unit = s.units.values().next().expect("a unit").clone();
                    unit.side = "green".into();
                    eliminate(s, unit);
                }),
                format!("out of play: unit '{first}': unknown side 'green' (sides: blue, red)"),
            ),
            (
                Box::new(|s| {
                    let unit = s.units.values().next().expect("a unit").clone();
                    eliminate(s, unit);
                }),
                format!("unit '{first}' is both in play and out of play"),
            ),
            (
                Box::new(|s| {
                    s.units.values_mut().next().expect("a unit").strength = -5.0;
                }),
                format!("unit '{first}': strength is -5: it cannot be negative"),
            ),
            (
                Box::new(|s| s.turn = u32::MAX),
                format!(
                    "turn {} is past the scenario's last turn ({})",
                    u32::MAX,
                    scenario.turns
                ),
            ),
            (
                Box::new(move |s| {
                    s.turn = last + 1;
                    s.step = 0;
                }),
                format!(
                    "turn {} is past the scenario's last turn ({}), and the game is not over",
                    scenario.turns + 1,
                    scenario.turns
                ),
            ),
            (
                Box::new(|s| {
                    s.outcome = Some(crate::engine::Outcome {
                        winner: Some("purple".into()),
                        scores: Default::default(),
                        reason: "forged".into(),
                    })
                }),
                "outcome: winner: unknown side 'purple' (sides: blue, red)".into(),
            ),
        ];
        let cases = cases.into_iter().chain([(
            Box::new(|s: &mut GameState| s.turn = 0) as Box<dyn Fn(&mut GameState)>,
            "turn 0 is before the game starts (a saved game stands at turn 1 or later)".to_string(),
        )]);
        for (edit, expected) in cases {
            let mut state = base.clone();
            edit(&mut state);
            assert_eq!(
                fit.state(&state, &sequence(), scenario.turns),
                Err(expected.clone())
            );
        }
    }

    /// A number in a message is written as plain digits from 1e-4 up to 1e16, in exponent form
    /// beyond (not a 0 and three hundred digits).
    #[test]
    fn numbers_far_from_one_are_quoted_in_exponent_form() {
        let below = "a movement allowance is counted in 64ths of a movement point (1, 2.5, \
                     0.375 ...), below 33554432";
        assert_eq!(
            super::movement_allowance(1e-300),
            Err(format!("ma is 1e-300: {below}"))
        );
        assert_eq!(
            super::movement_allowance(0.3),
            Err(format!("ma is 0.3: {below}"))
        );
        assert_eq!(
            super::movement_allowance(1e16),
            Err(format!("ma is 1e16: {below}"))
        );
        assert_eq!(
            super::strength_points(-1e20),
            Err("strength is -1e20: it cannot be negative".into())
        );
        assert_eq!(
            super::strength_points(-0.5),
            Err("strength is -0.5: it cannot be negative".into())
        );
        assert_eq!(super::unit_numbers(0.0, 0.0), Ok(()));
    }

    /// A save's `sides_done`: sides of the scenario, each once, and only at a simultaneous step
    /// (step 0 here is simultaneous, step 1 blue's).
    #[test]
    fn a_saves_done_sides_are_known_sides_named_once_at_a_simultaneous_step() {
        let scenario = load_scenario(Path::new("scenarios/demo")).expect("the demo loads");
        let fit = Fit {
            board: &scenario.map,
            sides: &scenario.sides,
        };
        let sequence = Sequence {
            steps: vec![
                Step {
                    side: None,
                    phase: "orders".into(),
                },
                Step {
                    side: Some("blue".into()),
                    phase: "movement".into(),
                },
            ],
            special: Default::default(),
        };
        let save = |step: u32, done: &[&str]| {
            let mut state = scenario.initial_state(1);
            state.turn = 2;
            state.step = step;
            crate::engine::Save::new(
                "scenarios/demo".into(),
                1,
                crate::engine::Dice::new(1),
                state,
            )
            .with_sides_done(done.iter().map(|s| s.to_string()).collect())
        };
        let check = |step: u32, done: &[&str]| fit.save(&save(step, done), &sequence, 8);
        assert_eq!(check(0, &["blue"]), Ok(()));
        assert_eq!(check(0, &["red", "blue"]), Ok(()));
        assert_eq!(check(1, &[]), Ok(()));
        assert_eq!(
            check(0, &["blue", "green"]),
            Err("sides_done: unknown side 'green' (sides: blue, red)".into())
        );
        assert_eq!(
            check(0, &["blue", "red", "blue"]),
            Err("sides_done: 'blue' is named twice".into())
        );
        assert_eq!(
            check(1, &["blue"]),
            Err(
                "sides_done: the game stands at a step one side plays, not a simultaneous one"
                    .into()
            )
        );
    }

    /// A save's map changes are laid over the hex map, so a change at a place the map lacks is
    /// refused; none on an area map, which has no hexes to change.
    #[test]
    fn a_saves_map_changes_must_fit_the_map() {
        let scenario = load_scenario(Path::new("scenarios/demo")).expect("the demo loads");
        let fit = Fit {
            board: &scenario.map,
            sides: &scenario.sides,
        };
        let mut state = scenario.initial_state(1);
        state.turn = 2;
        state
            .map_changes
            .hexes
            .insert("0000".into(), Default::default());
        assert_eq!(
            fit.state(&state, &sequence(), scenario.turns),
            Err(
                "map change at '0000': not a hex of the map (this 12×10 map's labels are 4 \
                 digits, column then row: 0101 to 1210)"
                    .into()
            )
        );
    }
}
