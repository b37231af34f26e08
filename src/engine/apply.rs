//! `apply`: the one place where events change the state.

use super::event::Event;
use super::state::{GameState, GoneUnit, Outcome};

/// An event that cannot be applied to this state (it names a unit that is not there, ...).
/// Rules produce events, so this is a rules bug or a corrupt log, reported, never a panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot apply {event}: {reason}")]
pub struct ApplyError {
    pub event: String,
    pub reason: String,
}

fn missing(event: &Event, unit: &str) -> ApplyError {
    ApplyError {
        event: event.name().to_string(),
        reason: format!("no unit '{unit}' in play"),
    }
}

/// Applies one event. On error the state is unchanged.
pub fn apply(state: &mut GameState, event: &Event) -> Result<(), ApplyError> {
    match event {
        Event::GameStarted { .. }
        | Event::PhaseEnded { .. }
        | Event::UnitEnteredHex { .. }
        | Event::CommandRefused { .. }
        | Event::Custom { .. } => {}
        Event::PhaseStarted { turn, step, .. } | Event::PhaseSkipped { turn, step, .. } => {
            state.turn = *turn;
            state.step = *step;
        }
        Event::UnitMoved { unit, from, to, .. } => {
            let u = state
                .units
                .get_mut(unit)
                .ok_or_else(|| missing(event, unit))?;
            // (a move from where the unit is not would leave a log that lies about the game; a
            // move without `from` brings a unit onto the map, and read "from nowhere" for a unit
            // on it, which then jumped anywhere)
            match (from, u.at.as_deref()) {
                (Some(from), at) if at != Some(from.as_str()) => {
                    return Err(ApplyError {
                        event: event.name().to_string(),
                        reason: format!(
                            "unit '{unit}' is at {}, not at {from}",
                            at.unwrap_or("no hex (off the map)")
                        ),
                    });
                }
                (None, Some(at)) => {
                    return Err(ApplyError {
                        event: event.name().to_string(),
                        reason: format!(
                            "unit '{unit}' is at {at}: a move without 'from' brings a unit onto the map (give from = \"{at}\")"
                        ),
                    });
                }
                _ => {}
            }
            u.at = Some(to.clone());
        }
        Event::UnitEliminated { unit, reason } | Event::UnitRemoved { unit, reason } => {
            let u = state
                .units
                .remove(unit)
                .ok_or_else(|| missing(event, unit))?;
            let eliminated = matches!(event, Event::UnitEliminated { .. });
            state.gone.insert(
                unit.clone(),
                GoneUnit {
                    unit: u,
                    reason: reason.clone(),
                    eliminated,
                    turn: state.turn,
                },
            );
        }
        Event::UnitPlaced { unit } => {
            if state.units.contains_key(&unit.id) {
                return Err(ApplyError {
                    event: "UnitPlaced".into(),
                    reason: format!("unit '{}' is already in play", unit.id),
                });
            }
            state.gone.remove(&unit.id);
            state.units.insert(unit.id.clone(), unit.clone());
        }
        Event::UnitStatusChanged { unit, add, remove } => {
            let u = state
                .units
                .get_mut(unit)
                .ok_or_else(|| missing(event, unit))?;
            for flag in remove {
                u.status.remove(flag);
            }
            for flag in add {
                u.status.insert(flag.clone());
            }
        }
        Event::UnitFacingChanged {
            unit,
            facing,
            facing2,
        } => {
            let u = state
                .units
                .get_mut(unit)
                .ok_or_else(|| missing(event, unit))?;
            u.facing = Some(*facing);
            if let Some(f2) = facing2 {
                u.attrs.insert("facing2".into(), (*f2).into());
            }
        }
        Event::UnitChanged {
            unit,
            strength,
            ma,
            attrs,
        } => {
            let u = state
                .units
                .get_mut(unit)
                .ok_or_else(|| missing(event, unit))?;
            if let Some(strength) = strength {
                u.strength = *strength;
            }
            if let Some(ma) = ma {
                u.ma = *ma;
            }
            for (key, value) in attrs {
                u.attrs.insert(key.clone(), value.clone());
            }
        }
        Event::UnitSideChanged { unit, side } => {
            let u = state
                .units
                .get_mut(unit)
                .ok_or_else(|| missing(event, unit))?;
            u.side = side.clone();
        }
        Event::ControlChanged { hex, side } => match side {
            Some(side) => {
                state.control.insert(hex.clone(), side.clone());
            }
            None => {
                state.control.remove(hex);
            }
        },
        Event::HexChanged { .. } | Event::HexsideChanged { .. } => state.map_changes.record(event),
        Event::VarSet { key, value } => {
            if value.is_null() {
                state.vars.remove(key);
            } else {
                state.vars.insert(key.clone(), value.clone());
            }
        }
        Event::DiceRolled { .. } => state.dice.rolls = state.dice.rolls.wrapping_add(1),
        Event::GameEnded {
            winner,
            scores,
            reason,
        } => {
            state.outcome = Some(Outcome {
                winner: winner.clone(),
                scores: scores.clone(),
                reason: reason.clone(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::engine::Unit;

    fn state_with_a1_at_0101() -> GameState {
        let mut state = GameState::new("test", 1);
        state.units.insert(
            "a1".into(),
            Unit {
                id: "a1".into(),
                side: "red".into(),
                nation: "red".into(),
                kind: "infantry".into(),
                size: "XX".into(),
                ma: 4.0,
                strength: 3.0,
                at: Some("0101".into()),
                facing: None,
                status: Default::default(),
                attrs: Map::new(),
            },
        );
        state
    }

    /// A move whose `from` is not where the unit stands is refused, naming both hexes, and
    /// changes nothing (the log would lie about the game).
    #[test]
    fn a_move_from_a_hex_the_unit_is_not_in_is_refused() {
        let mut state = state_with_a1_at_0101();
        let before = state.clone();
        let err = apply(
            &mut state,
            &Event::UnitMoved {
                unit: "a1".into(),
                from: Some("0505".into()),
                to: "0506".into(),
                path: vec!["0506".into()],
                cost: 1.0,
            },
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot apply UnitMoved: unit 'a1' is at 0101, not at 0505"
        );
        assert_eq!(state, before);
    }
}
