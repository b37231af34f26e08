//! `hex.dice`: the host's seeded dice. Every roll is recorded as a `DiceRolled` event, so the
//! log shows it and a replay makes the same roll.

use mlua::{Lua, Table};

use super::with_host;
use crate::engine::{Dice, Event};

/// Registers `hex.dice`.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.raw_set(
        "roll",
        lua.create_function(|lua, sides: Option<u32>| {
            let sides = sides.unwrap_or(6);
            if sides == 0 {
                return Err(mlua::Error::runtime(
                    "hex.dice.roll: a die needs at least 1 side",
                ));
            }
            with_host(lua, |h| {
                if h.loading {
                    return Err(mlua::Error::runtime(
                        "hex.dice.roll: no dice while rules modules load",
                    ));
                }
                if h.rolls.len() >= h.max_rolls {
                    return Err(mlua::Error::runtime(format!(
                        "hex.dice.roll: more than {} rolls in one call (each roll is an event: \
                         [limits] events_per_command)",
                        h.max_rolls
                    )));
                }
                let value = match h.forced_dice.pop_front() {
                    // (a Lua test's `t.dice`: the value is the test's, checked against the die)
                    Some(v) if v > sides => {
                        return Err(mlua::Error::runtime(format!(
                            "hex.dice.roll: the test set {v} (t.dice) for a roll of a \
                             {sides}-sided die"
                        )))
                    }
                    Some(v) => v,
                    None => {
                        let index = h.dice.rolls + h.rolls.len() as u64;
                        Dice::value_at(h.dice.seed, index, sides)
                    }
                };
                h.rolls.push(Event::DiceRolled { sides, value });
                Ok(value)
            })?
        })?,
    )?;
    hex.raw_set("dice", t)
}
