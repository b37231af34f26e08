//! Conversions between Lua values and the engine's serde types.

use mlua::{AnyUserData, Lua, LuaSerdeExt, Table, Value};
use serde_json::Map;

use crate::engine::{Command, Event, Unit};

/// A command as the flat Lua table rules see: `{command = "move", unit = ..., path = {...}}`.
pub fn command_to_lua(lua: &Lua, command: &Command) -> mlua::Result<Value> {
    let map: Map<String, serde_json::Value> = command.clone().into();
    lua.to_value(&map)
}

/// A command table returned by Lua.
pub fn command_from_lua(lua: &Lua, value: Value) -> Result<Command, String> {
    if let Value::Table(t) = &value {
        if let Some(map) = flat_map_from_lua(t) {
            return Command::try_from(map);
        }
    }
    let map: Map<String, serde_json::Value> = lua
        .from_value(value)
        .map_err(|e| format!("not a command table: {e}"))?;
    Command::try_from(map)
}

/// A flat table (string keys; string, integer or boolean values, no metatable) read in one pass
/// over the table: the usual shape of a command (a bot's menu holds dozens, `{command = "order",
/// power = "FRANCE", order = "A PAR H"}`), several times cheaper than the serde walk and with the
/// same result. None for any other table, which takes the serde path (and its error messages).
fn flat_map_from_lua(t: &Table) -> Option<Map<String, serde_json::Value>> {
    if t.metatable().is_some() || t.raw_len() > 0 {
        return None;
    }
    let mut map = Map::new();
    let not_flat = || mlua::Error::runtime("not flat");
    t.for_each::<Value, Value>(|k, v| {
        let Value::String(k) = k else {
            return Err(not_flat());
        };
        let k = k.to_str().map_err(|_| not_flat())?.to_string();
        let v = match v {
            Value::String(s) => {
                serde_json::Value::String(s.to_str().map_err(|_| not_flat())?.to_string())
            }
            Value::Integer(i) => serde_json::Value::from(i),
            Value::Boolean(b) => serde_json::Value::Bool(b),
            _ => return Err(not_flat()),
        };
        map.insert(k, v);
        Ok(())
    })
    .ok()?;
    Some(map)
}

pub fn event_to_lua(lua: &Lua, event: &Event) -> mlua::Result<Value> {
    lua.to_value(event)
}

/// The marker of a value the rules wrote as JSON text (`hex.state.json(text)`): an opaque
/// userdata whose user value is the text, a Lua string (so the memory limit counts it). Standing
/// as the `value` of a `VarSet` or the `data` of a `Custom` event, it is parsed straight into the
/// event: one string crosses from Lua instead of a table walked value by value, which is what
/// makes big event data (Diplomacy's phase report and position) cheap.
pub struct JsonText;

/// Wraps a JSON text checked to be valid (`hex.state.json`).
pub fn json_text_to_lua(lua: &Lua, text: mlua::LuaString) -> mlua::Result<AnyUserData> {
    {
        let s = text
            .to_str()
            .map_err(|_| mlua::Error::runtime("hex.state.json: the text is not UTF-8"))?;
        serde_json::from_str::<serde::de::IgnoredAny>(&s)
            .map_err(|e| mlua::Error::runtime(format!("hex.state.json: not JSON text ({e})")))?;
    }
    let ud = lua.create_any_userdata(JsonText)?;
    ud.set_user_value(text)?;
    Ok(ud)
}

/// The JSON a `hex.state.json` value stands for; None when `value` is not one.
pub fn json_text_from_lua(value: &Value) -> Option<Result<serde_json::Value, String>> {
    let Value::UserData(ud) = value else {
        return None;
    };
    if !ud.is::<JsonText>() {
        return None;
    }
    Some(
        ud.user_value::<mlua::LuaString>()
            .map_err(|e| e.to_string())
            .and_then(|text| {
                let text = text.to_str().map_err(|e| e.to_string())?;
                serde_json::from_str(&text).map_err(|e| format!("hex.state.json: {e}"))
            }),
    )
}

/// A `VarSet` / `Custom` event table whose payload is a `hex.state.json` value, built without
/// the serde walk; None for any other table (which takes the general path).
fn json_payload_event(t: &Table) -> Option<Result<Event, String>> {
    if t.raw_len() > 0 {
        return None;
    }
    let Ok(Value::String(kind)) = t.raw_get::<Value>("event") else {
        return None;
    };
    let (payload, label) = match kind.as_bytes().as_ref() {
        b"VarSet" => ("value", "key"),
        b"Custom" => ("data", "name"),
        _ => return None,
    };
    let json = json_text_from_lua(&t.raw_get::<Value>(payload).ok()?)?;
    let Ok(Value::String(label_value)) = t.raw_get::<Value>(label) else {
        return None;
    };
    let label_value = label_value.to_str().ok()?.to_string();
    Some(json.map(|json| match payload {
        "value" => Event::VarSet {
            key: label_value,
            value: json,
        },
        _ => Event::Custom {
            name: label_value,
            data: json,
        },
    }))
}

fn event_from_lua(lua: &Lua, value: Value) -> Result<Event, String> {
    if let Value::Table(t) = &value {
        if let Some(event) = json_payload_event(t) {
            return event;
        }
    }
    lua.from_value::<Event>(value).map_err(|e| e.to_string())
}

/// Events returned by a handler: a list of event tables, one event table, or nil.
pub fn events_from_lua(lua: &Lua, value: Value) -> Result<Vec<Event>, String> {
    match value {
        Value::Nil => Ok(Vec::new()),
        Value::Table(t) => {
            if t.contains_key("event").unwrap_or(false) {
                return event_from_lua(lua, Value::Table(t))
                    .map(|e| vec![e])
                    .map_err(|e| format!("malformed event: {e}"));
            }
            let mut out = Vec::new();
            for (i, item) in t.sequence_values::<Value>().enumerate() {
                let item = item.map_err(|e| e.to_string())?;
                out.push(
                    event_from_lua(lua, item)
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
