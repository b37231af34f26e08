//! `hex.state`: turn, phase, control and the rules' own variables (read-only; `hex.state.set`
//! only builds the `VarSet` event that the rules return).

use mlua::{Lua, LuaSerdeExt, Table, Value};

use super::{string_list, with_host, with_state};

/// Registers `hex.state`.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.raw_set(
        "turn",
        lua.create_function(|lua, ()| with_state(lua, |s| Ok(s.turn)))?,
    )?;
    t.raw_set(
        "turn_limit",
        lua.create_function(|lua, ()| with_host(lua, |h| h.turn_limit))?,
    )?;
    t.raw_set(
        "phase",
        lua.create_function(|lua, ()| {
            let (turn, step) = with_state(lua, |s| Ok((s.turn, s.step)))?;
            with_host(lua, |h| {
                h.sequence.step(turn, step).map(|s| s.phase.clone())
            })
        })?,
    )?;
    t.raw_set(
        "side",
        lua.create_function(|lua, ()| {
            let (turn, step) = with_state(lua, |s| Ok((s.turn, s.step)))?;
            with_host(lua, |h| {
                h.sequence.step(turn, step).and_then(|s| s.side.clone())
            })
        })?,
    )?;
    t.raw_set(
        "sides",
        lua.create_function(|lua, ()| {
            let sides = with_host(lua, |h| h.sides.clone())?;
            string_list(lua, sides.iter().map(String::as_str))
        })?,
    )?;
    t.raw_set(
        "is_over",
        lua.create_function(|lua, ()| with_state(lua, |s| Ok(s.outcome.is_some())))?,
    )?;
    t.raw_set(
        "control",
        lua.create_function(|lua, label: String| {
            with_state(lua, |s| Ok(s.control.get(&label).cloned()))
        })?,
    )?;
    t.raw_set(
        "get",
        lua.create_function(|lua, key: String| {
            with_state(lua, |s| match s.vars.get(&key) {
                Some(v) => lua.to_value(v),
                None => Ok(Value::Nil),
            })
        })?,
    )?;
    t.raw_set(
        "set",
        lua.create_function(|lua, (key, value): (String, Value)| {
            let value: serde_json::Value = lua.from_value(value)?;
            let event = lua.create_table()?;
            event.raw_set("event", "VarSet")?;
            event.raw_set("key", key)?;
            event.raw_set("value", lua.to_value(&value)?)?;
            Ok(event)
        })?,
    )?;
    hex.raw_set("state", t)
}
