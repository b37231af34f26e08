//! Undoing applied events, so a command can be processed on the game state itself instead of on
//! a copy of it: before each event is applied, [`apply_undoable`] keeps what the event is about
//! to overwrite (one unit, one var, one control entry, ...), and [`Journal::roll_back`] puts it
//! back, last event first. A command that fails halfway leaves the state exactly as it was (the
//! same value, so the same hash), and a command that succeeds costs a few small copies instead of
//! a copy of the whole state (which grows with every unit removed).

use super::apply::{apply, ApplyError};
use super::{Event, GameState, GoneUnit, Outcome, Unit};

/// What one applied event changed, with the values it overwrote.
#[derive(Debug)]
enum Undo {
    /// The event changed nothing.
    Nothing,
    Step {
        turn: u32,
        step: u32,
    },
    /// A unit still in play that changed (moved, status, facing, side).
    Unit(Box<Unit>),
    /// A unit that left play; `gone` is the record its departure replaced.
    Removed {
        id: String,
        gone: Option<Box<GoneUnit>>,
    },
    /// A unit placed; `gone` is the record of it that the placement deleted.
    Placed {
        id: String,
        gone: Option<Box<GoneUnit>>,
    },
    Control {
        hex: String,
        side: Option<String>,
    },
    Var {
        key: String,
        value: Option<super::event::SharedJson>,
    },
    /// The map's changes before a `HexChanged` or `HexsideChanged` (few: copied whole).
    Map(Box<super::MapChanges>),
    Rolls(u64),
    Outcome(Option<Box<Outcome>>),
}

/// The undo records of the events applied so far, in order.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    undos: Vec<Undo>,
}

/// Applies `event` to `state` like [`apply`], keeping in `journal` what it overwrote. `apply`
/// either changes nothing and fails, or succeeds: nothing is recorded when it fails.
pub(crate) fn apply_undoable(
    state: &mut GameState,
    event: &Event,
    journal: &mut Journal,
) -> Result<(), ApplyError> {
    let undo = before(state, event);
    apply(state, event)?;
    journal.undos.push(undo);
    Ok(())
}

/// What `event` is about to overwrite in `state`.
fn before(state: &GameState, event: &Event) -> Undo {
    let unit = |id: &str| match state.units.get(id) {
        Some(u) => Undo::Unit(Box::new(u.clone())),
        None => Undo::Nothing, // apply fails: nothing is recorded
    };
    match event {
        Event::GameStarted { .. }
        | Event::PhaseEnded { .. }
        | Event::UnitEnteredHex { .. }
        | Event::CommandRefused { .. }
        | Event::Custom { .. } => Undo::Nothing,
        Event::PhaseStarted { .. } | Event::PhaseSkipped { .. } => Undo::Step {
            turn: state.turn,
            step: state.step,
        },
        Event::UnitMoved { unit: id, .. }
        | Event::UnitStatusChanged { unit: id, .. }
        | Event::UnitFacingChanged { unit: id, .. }
        | Event::UnitChanged { unit: id, .. }
        | Event::UnitSideChanged { unit: id, .. } => unit(id),
        Event::UnitEliminated { unit: id, .. } | Event::UnitRemoved { unit: id, .. } => {
            Undo::Removed {
                id: id.clone(),
                gone: state.gone.get(id).cloned().map(Box::new),
            }
        }
        Event::UnitPlaced { unit } => Undo::Placed {
            id: unit.id.clone(),
            gone: state.gone.get(&unit.id).cloned().map(Box::new),
        },
        Event::ControlChanged { hex, .. } => Undo::Control {
            hex: hex.clone(),
            side: state.control.get(hex).cloned(),
        },
        Event::VarSet { key, .. } => Undo::Var {
            key: key.clone(),
            value: state.vars.get(key).cloned(),
        },
        Event::HexChanged { .. } | Event::HexsideChanged { .. } => {
            Undo::Map(Box::new(state.map_changes.clone()))
        }
        Event::DiceRolled { .. } => Undo::Rolls(state.dice.rolls),
        Event::GameEnded { .. } => Undo::Outcome(state.outcome.clone().map(Box::new)),
    }
}

impl Journal {
    /// Puts back everything the journal's events changed, last first.
    pub(crate) fn roll_back(self, state: &mut GameState) {
        for undo in self.undos.into_iter().rev() {
            match undo {
                Undo::Nothing => {}
                Undo::Step { turn, step } => {
                    state.turn = turn;
                    state.step = step;
                }
                Undo::Unit(unit) => {
                    state.units.insert(unit.id.clone(), *unit);
                }
                Undo::Removed { id, gone } => {
                    // The departure moved the unit into `gone`, over `gone`'s old record.
                    let left = match gone {
                        Some(old) => state.gone.insert(id.clone(), *old),
                        None => state.gone.remove(&id),
                    };
                    if let Some(left) = left {
                        state.units.insert(id, left.unit);
                    }
                }
                Undo::Placed { id, gone } => {
                    state.units.remove(&id);
                    if let Some(old) = gone {
                        state.gone.insert(id, *old);
                    }
                }
                Undo::Control { hex, side } => match side {
                    Some(side) => {
                        state.control.insert(hex, side);
                    }
                    None => {
                        state.control.remove(&hex);
                    }
                },
                Undo::Var { key, value } => match value {
                    Some(value) => {
                        state.vars.insert(key, value);
                    }
                    None => {
                        state.vars.remove(&key);
                    }
                },
                Undo::Map(changes) => state.map_changes = *changes,
                Undo::Rolls(rolls) => state.dice.rolls = rolls,
                Undo::Outcome(outcome) => state.outcome = outcome.map(|o| *o),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::{json, Map};

    use super::*;
    use crate::engine::Dice;

    fn unit(id: &str, side: &str, at: Option<&str>) -> Unit {
        Unit {
            id: id.into(),
            side: side.into(),
            nation: side.into(),
            kind: "infantry".into(),
            size: "XX".into(),
            ma: 4.0,
            strength: 3.0,
            at: at.map(String::from),
            facing: None,
            status: ["isolated".to_string()].into(),
            attrs: Map::new(),
        }
    }

    fn start() -> GameState {
        let mut units = BTreeMap::new();
        for u in [
            unit("a1", "red", Some("0101")),
            unit("a2", "red", Some("0102")),
            unit("b1", "blue", Some("0203")),
        ] {
            units.insert(u.id.clone(), u);
        }
        let mut gone = BTreeMap::new();
        // b2 left play on turn 1; a2's old record is what a second departure overwrites.
        for (id, turn) in [("b2", 1), ("a2", 1)] {
            gone.insert(
                id.to_string(),
                GoneUnit {
                    unit: unit(id, "blue", None),
                    reason: "evacuated".into(),
                    eliminated: false,
                    turn,
                },
            );
        }
        let mut vars = BTreeMap::new();
        vars.insert("score".into(), json!({"red": 3}).into());
        vars.insert("flag".into(), json!(true).into());
        GameState {
            turn: 2,
            step: 1,
            units,
            gone,
            control: [("0101".to_string(), "red".to_string())].into(),
            dice: Dice { seed: 9, rolls: 4 },
            vars,
            ..GameState::new("test", 9)
        }
    }

    /// One event of every kind, several touching the same unit, var or hex.
    fn every_kind() -> Vec<Event> {
        vec![
            Event::GameStarted {
                scenario: "test".into(),
                seed: 9,
            },
            Event::PhaseStarted {
                turn: 3,
                step: 0,
                side: Some("red".into()),
                phase: "move".into(),
            },
            Event::UnitMoved {
                unit: "a1".into(),
                from: Some("0101".into()),
                to: "0202".into(),
                path: vec!["0202".into()],
                cost: 1.0,
            },
            Event::UnitEnteredHex {
                unit: "a1".into(),
                hex: "0202".into(),
            },
            Event::UnitStatusChanged {
                unit: "a1".into(),
                add: vec!["moved".into()],
                remove: vec!["isolated".into()],
            },
            Event::UnitFacingChanged {
                unit: "b1".into(),
                facing: 3,
                facing2: Some(4),
            },
            Event::UnitSideChanged {
                unit: "b1".into(),
                side: "red".into(),
            },
            Event::UnitEliminated {
                unit: "a2".into(),
                reason: "eliminated".into(),
            },
            Event::UnitRemoved {
                unit: "b1".into(),
                reason: "surrendered".into(),
            },
            Event::UnitPlaced {
                unit: unit("b2", "blue", Some("0305")),
            },
            Event::UnitPlaced {
                unit: unit("c1", "blue", Some("0306")),
            },
            Event::UnitMoved {
                unit: "c1".into(),
                from: Some("0306".into()),
                to: "0307".into(),
                path: vec!["0307".into()],
                cost: 1.0,
            },
            Event::ControlChanged {
                hex: "0101".into(),
                side: None,
            },
            Event::ControlChanged {
                hex: "0202".into(),
                side: Some("red".into()),
            },
            Event::ControlChanged {
                hex: "0202".into(),
                side: Some("blue".into()),
            },
            Event::VarSet {
                key: "score".into(),
                value: json!({"red": 4}).into(),
            },
            Event::VarSet {
                key: "flag".into(),
                value: serde_json::Value::Null.into(),
            },
            Event::VarSet {
                key: "new".into(),
                value: json!([1, 2]).into(),
            },
            Event::DiceRolled { sides: 6, value: 2 },
            Event::DiceRolled { sides: 6, value: 5 },
            Event::PhaseSkipped {
                turn: 3,
                step: 1,
                side: None,
                phase: "retreat".into(),
            },
            Event::GameEnded {
                winner: Some("red".into()),
                scores: [("red".to_string(), 4.0)].into(),
                reason: "last turn".into(),
            },
        ]
    }

    #[test]
    fn rolling_back_every_kind_of_event_restores_the_state_exactly() {
        let before = start();
        let events = every_kind();
        // Roll back after every prefix of the list: each partial command is undone exactly.
        for n in 0..=events.len() {
            let mut state = before.clone();
            let mut plain = before.clone();
            let mut journal = Journal::default();
            for event in &events[..n] {
                apply_undoable(&mut state, event, &mut journal).unwrap();
                apply(&mut plain, event).unwrap();
            }
            assert_eq!(state, plain, "journaled apply differs after {n} events");
            journal.roll_back(&mut state);
            assert_eq!(state, before, "not restored after {n} events");
            assert_eq!(state.hash(), before.hash());
        }
    }

    #[test]
    fn a_failing_event_is_not_journaled_and_changes_nothing() {
        let before = start();
        let mut state = before.clone();
        let mut journal = Journal::default();
        apply_undoable(
            &mut state,
            &Event::UnitMoved {
                unit: "a1".into(),
                from: Some("0101".into()),
                to: "0909".into(),
                path: vec![],
                cost: 0.0,
            },
            &mut journal,
        )
        .unwrap();
        for bad in [
            // (a1 is on the map: a move without `from` would bring it onto the map)
            Event::UnitMoved {
                unit: "a1".into(),
                from: None,
                to: "0101".into(),
                path: vec![],
                cost: 0.0,
            },
            Event::UnitMoved {
                unit: "nobody".into(),
                from: None,
                to: "0101".into(),
                path: vec![],
                cost: 0.0,
            },
            Event::UnitPlaced {
                unit: unit("a2", "red", Some("0102")),
            },
            Event::UnitRemoved {
                unit: "b2".into(),
                reason: "gone twice".into(),
            },
        ] {
            let kept = state.clone();
            assert!(apply_undoable(&mut state, &bad, &mut journal).is_err());
            assert_eq!(state, kept);
        }
        assert_eq!(journal.undos.len(), 1);
        journal.roll_back(&mut state);
        assert_eq!(state, before);
    }
}
