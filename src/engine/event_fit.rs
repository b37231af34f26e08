//! What every ruleset's events must be for the engine to apply and save them, whatever the
//! board: no event only the engine makes (a phase, dice, the game's start), facings that are
//! directions, numbers a save can hold, custom events with names of their own. A Rust
//! [`crate::engine::Ruleset`]'s events went in unchecked (a `PhaseStarted` of turn 99 moved the
//! game there; a strength of NaN made a save that would not read back); the Lua host checks
//! its scripts' events against the scenario too (rules/event_check.rs), with this as its part.

use super::Event;

/// Whether the rules (not the engine) may make `event`: the reason it cannot be applied.
pub(crate) fn fit_for_rules(event: &Event) -> Result<(), String> {
    match event {
        // Only the engine makes these: the sequence starts and ends phases, the game makes
        // `GameStarted` and `CommandRefused`. (`DiceRolled` is a ruleset's, made as it rolls
        // the state's dice: the Lua host makes it, its scripts may not, rules/event_check.rs.)
        Event::GameStarted { .. }
        | Event::PhaseStarted { .. }
        | Event::PhaseEnded { .. }
        | Event::PhaseSkipped { .. }
        | Event::CommandRefused { .. } => Err(engine_only(event)),
        Event::UnitMoved { cost, .. } => finite(*cost, "cost"),
        Event::UnitPlaced { unit } => {
            finite(unit.ma, "ma")?;
            finite(unit.strength, "strength")?;
            unit.facing
                .map_or(Ok(()), |f| direction(f.into(), "facing"))
        }
        Event::UnitFacingChanged {
            facing, facing2, ..
        } => {
            direction((*facing).into(), "facing")?;
            facing2.map_or(Ok(()), |f| direction(f.into(), "facing2"))
        }
        Event::UnitChanged { strength, ma, .. } => {
            strength.map_or(Ok(()), |s| finite(s, "strength"))?;
            ma.map_or(Ok(()), |m| finite(m, "ma"))
        }
        Event::GameEnded { scores, .. } => scores
            .iter()
            .try_for_each(|(side, score)| finite(*score, &format!("scores.{side}"))),
        Event::Custom { name, .. } => {
            if Event::ENGINE_NAMES.contains(&name.as_str()) {
                return Err(format!(
                    "'{name}' is the name of an engine event; give the custom event a name of \
                     its own"
                ));
            }
            if name.is_empty() {
                return Err("a custom event needs a name".into());
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Why the rules may not make `event`, one the engine makes.
pub(crate) fn engine_only(event: &Event) -> String {
    format!(
        "only the engine makes {} events (phases follow the sequence and `end_phase`; dice \
         come from hex.dice)",
        event.name()
    )
}

/// Every event of a list the rules made; the error names the first bad one
/// (`event #2 (UnitPlaced): ...`).
pub(crate) fn list_fit_for_rules(events: &[Event]) -> Result<(), String> {
    for (i, event) in events.iter().enumerate() {
        fit_for_rules(event)
            .map_err(|why| format!("event #{} ({}): {why}", i + 1, event.name()))?;
    }
    Ok(())
}

/// TA-R1: a facing is one of the six edges (or corners) of a hex.
pub fn direction(facing: u64, field: &str) -> Result<(), String> {
    if facing <= 5 {
        Ok(())
    } else {
        Err(format!(
            "{field} {facing} is not a direction: 0 to 5 (an edge, or a corner for a phalanx; TA-R1)"
        ))
    }
}

/// JSON has no NaN or infinity (serde_json would save them as null, and the save would not load).
pub fn finite(value: f64, field: &str) -> Result<(), String> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(format!(
            "{field} is {value}: a number must be finite to be saved"
        ))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::engine::Unit;

    fn unit(ma: f64, strength: f64, facing: Option<u8>) -> Unit {
        Unit {
            id: "u".into(),
            side: "red".into(),
            nation: "red".into(),
            kind: "infantry".into(),
            size: String::new(),
            ma,
            strength,
            at: Some("0101".into()),
            facing,
            status: Default::default(),
            attrs: Map::new(),
        }
    }

    fn custom(name: &str) -> Event {
        Event::Custom {
            name: name.into(),
            data: serde_json::json!({}).into(),
        }
    }

    /// Every event only the engine makes is refused, with the engine's reason.
    #[test]
    fn the_engines_own_events_are_refused_to_the_rules() {
        for event in [
            Event::GameStarted {
                scenario: "s".into(),
                seed: 1,
            },
            Event::PhaseEnded {
                turn: 1,
                step: 0,
                side: None,
                phase: "move".into(),
            },
            Event::PhaseSkipped {
                turn: 1,
                step: 0,
                side: None,
                phase: "move".into(),
            },
            Event::CommandRefused {
                side: None,
                command: crate::engine::Command::EndPhase,
                rule: "r".into(),
                reason: "no".into(),
            },
        ] {
            assert_eq!(
                fit_for_rules(&event),
                Err(format!(
                    "only the engine makes {} events (phases follow the sequence and \
                     `end_phase`; dice come from hex.dice)",
                    event.name()
                ))
            );
        }
    }

    /// A move's cost must be finite (a save holds no NaN).
    #[test]
    fn a_move_with_a_cost_that_is_not_finite_is_refused() {
        let event = Event::UnitMoved {
            unit: "u".into(),
            from: None,
            to: "0101".into(),
            path: vec!["0101".into()],
            cost: f64::INFINITY,
        };
        assert_eq!(
            fit_for_rules(&event),
            Err("cost is inf: a number must be finite to be saved".into())
        );
    }

    /// A placed unit's movement allowance, strength and facing are checked, in that order.
    #[test]
    fn a_placed_unit_with_a_bad_number_or_facing_is_refused() {
        let placed = |u| Event::UnitPlaced { unit: u };
        assert_eq!(fit_for_rules(&placed(unit(4.0, 3.0, Some(5)))), Ok(()));
        assert_eq!(
            fit_for_rules(&placed(unit(f64::NAN, 3.0, None))),
            Err("ma is NaN: a number must be finite to be saved".into())
        );
        assert_eq!(
            fit_for_rules(&placed(unit(4.0, f64::NEG_INFINITY, None))),
            Err("strength is -inf: a number must be finite to be saved".into())
        );
        assert_eq!(
            fit_for_rules(&placed(unit(4.0, 3.0, Some(6)))),
            Err(
                "facing 6 is not a direction: 0 to 5 (an edge, or a corner for a phalanx; TA-R1)"
                    .into()
            )
        );
    }

    /// A facing change is checked on both facings; 5 is the last direction.
    #[test]
    fn a_facing_change_to_no_direction_is_refused() {
        let change = |facing, facing2| Event::UnitFacingChanged {
            unit: "u".into(),
            facing,
            facing2,
        };
        assert_eq!(fit_for_rules(&change(5, Some(0))), Ok(()));
        assert_eq!(
            fit_for_rules(&change(6, None)),
            Err(
                "facing 6 is not a direction: 0 to 5 (an edge, or a corner for a phalanx; TA-R1)"
                    .into()
            )
        );
        assert_eq!(
            fit_for_rules(&change(0, Some(9))),
            Err(
                "facing2 9 is not a direction: 0 to 5 (an edge, or a corner for a phalanx; TA-R1)"
                    .into()
            )
        );
    }

    /// A unit's new movement allowance must be finite (its strength too: game.rs's test).
    #[test]
    fn a_unit_changed_to_a_movement_allowance_that_is_not_finite_is_refused() {
        let event = Event::UnitChanged {
            unit: "u".into(),
            strength: Some(2.0),
            ma: Some(f64::INFINITY),
            attrs: Map::new(),
        };
        assert_eq!(
            fit_for_rules(&event),
            Err("ma is inf: a number must be finite to be saved".into())
        );
    }

    /// A final score must be finite; the error names the side.
    #[test]
    fn a_game_ended_with_a_score_that_is_not_finite_is_refused() {
        let event = Event::GameEnded {
            winner: None,
            scores: [("red".to_string(), 1.0), ("blue".to_string(), f64::NAN)].into(),
            reason: "end".into(),
        };
        assert_eq!(
            fit_for_rules(&event),
            Err("scores.blue is NaN: a number must be finite to be saved".into())
        );
    }

    /// A custom event needs a name of its own: not empty, not an engine event's.
    #[test]
    fn a_custom_event_named_like_an_engine_event_or_unnamed_is_refused() {
        assert_eq!(fit_for_rules(&custom("bridge_blown")), Ok(()));
        assert_eq!(
            fit_for_rules(&custom("UnitMoved")),
            Err(
                "'UnitMoved' is the name of an engine event; give the custom event a name of its own"
                    .into()
            )
        );
        assert_eq!(
            fit_for_rules(&custom("")),
            Err("a custom event needs a name".into())
        );
    }

    /// A list's error names the first bad event by its 1-based position and name.
    #[test]
    fn a_list_of_events_names_its_first_bad_one() {
        assert_eq!(list_fit_for_rules(&[custom("a"), custom("b")]), Ok(()));
        assert_eq!(
            list_fit_for_rules(&[custom("a"), custom(""), custom("GameEnded")]),
            Err("event #2 (): a custom event needs a name".into())
        );
    }
}
