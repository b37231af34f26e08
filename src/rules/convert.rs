//! Conversions between Lua values and the engine's serde types.

use mlua::{Lua, LuaSerdeExt, Table, Value};
use serde_json::Map;

use crate::engine::{Command, Event, Unit};

/// A command as the flat Lua table rules see: `{command = "move", unit = ..., path = {...}}`.
pub fn command_to_lua(lua: &Lua, command: &Command) -> mlua::Result<Value> {
    let map: Map<String, serde_json::Value> = command.clone().into();
    lua.to_value(&map)
}

/// A command table returned by Lua.
pub fn command_from_lua(lua: &Lua, value: Value) -> Result<Command, String> {
    let map: Map<String, serde_json::Value> = lua
        .from_value(value)
        .map_err(|e| format!("not a command table: {e}"))?;
    Command::try_from(map)
}

pub fn event_to_lua(lua: &Lua, event: &Event) -> mlua::Result<Value> {
    lua.to_value(event)
}

/// Events returned by a handler: a list of event tables, one event table, or nil.
pub fn events_from_lua(lua: &Lua, value: Value) -> Result<Vec<Event>, String> {
    match value {
        Value::Nil => Ok(Vec::new()),
        Value::Table(t) => {
            if t.contains_key("event").unwrap_or(false) {
                return lua
                    .from_value::<Event>(Value::Table(t))
                    .map(|e| vec![e])
                    .map_err(|e| format!("malformed event: {e}"));
            }
            let mut out = Vec::new();
            for (i, item) in t.sequence_values::<Value>().enumerate() {
                let item = item.map_err(|e| e.to_string())?;
                out.push(
                    lua.from_value::<Event>(item)
                        .map_err(|e| format!("malformed event #{}: {e}", i + 1))?,
                );
            }
            Ok(out)
        }
        other => Err(format!(
            "expected a list of events or nil, got a {}",
            other.type_name()
        )),
    }
}

/// A read-only view of a unit: a fresh table, so changing it changes nothing in the game.
pub fn unit_to_lua(lua: &Lua, unit: &Unit) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(0, 12)?;
    t.raw_set("id", unit.id.as_str())?;
    t.raw_set("side", unit.side.as_str())?;
    t.raw_set("nation", unit.nation.as_str())?;
    t.raw_set("type", unit.kind.as_str())?;
    t.raw_set("size", unit.size.as_str())?;
    t.raw_set("ma", number(unit.ma))?;
    t.raw_set("strength", number(unit.strength))?;
    t.raw_set("at", unit.at.as_deref())?;
    t.raw_set("facing", unit.facing)?;
    let status = lua.create_table_with_capacity(0, unit.status.len())?;
    for flag in &unit.status {
        status.raw_set(flag.as_str(), true)?;
    }
    t.raw_set("status", status)?;
    t.raw_set("attrs", lua.to_value(&unit.attrs)?)?;
    Ok(t)
}

/// Whole numbers become Lua integers, so a script's arithmetic on them stays integral (and prints
/// as `3`, not `3.0`).
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::Integer(x as i64)
    } else {
        Value::Number(x)
    }
}
