//! `hex.state`: turn, phase, control and the rules' own variables (read-only; `hex.state.set`
//! only builds the `VarSet` event that the rules return).

use mlua::{Lua, LuaSerdeExt, Table, Value, Variadic};

use super::{string_list, with_host, with_state};
use crate::rules::convert::json_text_to_lua;

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
            let answer = with_state(lua, |s| Ok(s.control.get(&label).cloned()))?;
            if answer.is_some() {
                return Ok(answer);
            }
            // (only a miss is looked at: a place the map lacks is a typo, not "nobody's"; an
            // area region's alias reads as the region)
            match with_host(lua, |h| {
                h.map.canonical_place(&label).map(|c| c.into_owned())
            })? {
                None => Err(mlua::Error::runtime(format!(
                    "hex.state.control: '{label}' is not a place of the map"
                ))),
                Some(id) if id != label => with_state(lua, |s| Ok(s.control.get(&id).cloned())),
                Some(_) => Ok(None),
            }
        })?,
    )?;
    // get(key, field, ...): the variable, or the part of it the path names (string: object
    // key, integer: 1-based array index; nil where the path leads nowhere). Only that part is
    // converted to Lua: reading one field of a big variable costs that field.
    t.raw_set(
        "get",
        lua.create_function(|lua, (key, path): (String, Variadic<Value>)| {
            with_state(lua, |s| {
                let Some(mut v) = s.vars.get(&key).map(|v| &**v) else {
                    return Ok(Value::Nil);
                };
                for step in path.iter() {
                    let next = match (step, v) {
                        (Value::String(k), serde_json::Value::Object(m)) => {
                            k.to_str().ok().and_then(|k| m.get(&*k))
                        }
                        (Value::Integer(i), serde_json::Value::Array(a)) => usize::try_from(*i)
                            .ok()
                            .and_then(|i| i.checked_sub(1))
                            .and_then(|i| a.get(i)),
                        _ => None,
                    };
                    match next {
                        Some(n) => v = n,
                        None => return Ok(Value::Nil),
                    }
                }
                crate::rules::lua_stack::writer::json_to_lua(lua, v)
            })
        })?,
    )?;
    // matches(key, table): whether the variable is exactly what `table` reads as (as
    // hex.state.json reads it), compared in one walk: rules may then keep using a table they
    // wrote or read before instead of having the variable rebuilt.
    t.raw_set(
        "matches",
        lua.create_function(|lua, (key, table): (String, Table)| {
            with_state(lua, |s| {
                Ok(s.vars.get(&key).is_some_and(|v| {
                    crate::rules::lua_stack::compare::table_matches_json(lua, &table, v)
                }))
            })
        })?,
    )?;
    t.raw_set(
        "set",
        lua.create_function(|lua, (key, value): (String, Value)| {
            let event = lua.create_table()?;
            event.raw_set("event", "VarSet")?;
            event.raw_set("key", key)?;
            // (JSON text goes into the event as it is, parsed once when the event is read)
            let value = crate::rules::convert::event_value(lua, value, "hex.state.set")?;
            event.raw_set("value", value)?;
            Ok(event)
        })?,
    )?;
    // json(text | table): a value given as JSON text, or a table of plain data read in one walk
    // when the event is read, for hex.state.set, the `value` of a VarSet event or the `data` of
    // a Custom event (anywhere else it is refused as an unsupported value).
    t.raw_set(
        "json",
        lua.create_function(|lua, value: Value| json_text_to_lua(lua, value))?,
    )?;
    // list(t?): `t` (or a new table) marked as a list, so that it reads as a JSON array even
    // when empty (a report's empty list of flags is `[]` in the log, not `{}`).
    t.raw_set(
        "list",
        lua.create_function(|lua, t: Option<Table>| {
            let t = match t {
                Some(t) => t,
                None => lua.create_table()?,
            };
            let mark = lua.array_metatable();
            match t.metatable() {
                Some(mt) if mt != mark => Err(mlua::Error::runtime(
                    "hex.state.list: the table has a metatable of its own",
                )),
                _ => {
                    t.set_metatable(Some(mark))?;
                    Ok(t)
                }
            }
        })?,
    )?;
    crate::rules::lua_stack::reader::remember_array_metatable(lua)?;
    // (so that the one walk over a handler's events knows these values: reader::read_events)
    let sample = json_text_to_lua(lua, Value::String(lua.create_string("null")?))?;
    crate::rules::lua_stack::reader::remember_json_text_metatable(lua, &sample)?;
    hex.raw_set("state", t)
}
