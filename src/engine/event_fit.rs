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
