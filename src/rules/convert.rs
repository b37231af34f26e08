//! Conversions between Lua values and the engine's serde types.

use mlua::{AnyUserData, Lua, LuaSerdeExt, MultiValue, Table, Value};
use serde_json::Map;

use super::lua_stack::writer::{object_with_field_to_lua, write, Writer};
use crate::engine::{Command, Event, Unit};

/// A command as the flat Lua table rules see: `{command = "move", unit = ..., path = {...}}`:
/// the table `lua.to_value` makes of the command's map (`Map::from(command)`), written in one
/// protected call without copying the command.
pub fn command_to_lua(lua: &Lua, command: &Command) -> mlua::Result<Value> {
    match command {
        Command::Custom { name, args } => object_with_field_to_lua(lua, args, "command", name),
        Command::EndPhase => object_with_field_to_lua(lua, &Map::new(), "command", "end_phase"),
        Command::Move { .. } => {
            let map: Map<String, serde_json::Value> = command.clone().into();
            lua.to_value(&map)
        }
    }
}

/// A command table returned by Lua.
pub fn command_from_lua(lua: &Lua, value: Value) -> Result<Command, String> {
    if let Value::Table(t) = &value {
        if let Some(map) = flat_map_from_lua(t) {
            return Command::try_from(map);
        }
    }
    super::bounded::check(&value).map_err(|e| format!("not a command table: {e}"))?;
    let map: Map<String, serde_json::Value> = lua
        .from_value(value)
        .map_err(|e| format!("not a command table: {}", bridge_words(&e)))?;
    Command::try_from(map)
}

/// mlua's serde bridge's message in a script's words: without its `deserialize error: `, and a
/// value that is no data (a coroutine, a function) named so instead of as an "unsupported
/// value type `thread`".
pub(crate) fn bridge_words(e: &mlua::Error) -> String {
    let text = e.to_string();
    let text = text.trim_start_matches("deserialize error: ");
    match text
        .strip_prefix("unsupported value type `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        // (hex.state.json's values are host objects, taken only where the walk expects them)
        Some("userdata") => "a host object is no data here (a hex.state.json value goes only in \
                             a VarSet's value or a Custom event's data)"
            .to_string(),
        Some(kind) => format!(
            "a {} is no data (a value holds tables, strings, numbers and booleans)",
            match kind {
                "thread" => "coroutine",
                other => other,
            }
        ),
        // (a number key in a table of names: `values = { [5] = ... }`, or a list mixed with keys)
        None if text.contains("expected a string key") => format!(
            "{}: a table whose keys are names holds a number key (`[5] = ...`, or a list entry \
             beside named keys)",
            crate::board::in_lua_words(text)
        ),
        None => crate::board::in_lua_words(text),
    }
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

/// An event as the table its handlers get: what mlua's serde bridge makes of it (`event` first,
/// then the fields in declaration order, a missing side as `hex.null`-style null, lists with
/// the array metatable). The events handled most often (moves, status changes, eliminations,
/// removals, phase ends and starts, control and side changes) are written straight on the Lua
/// stack, the same table built the same way (so `pairs` visits it in the same order), at a
/// fraction of the serde walk's cost; the rest take the serde bridge.
pub fn event_to_lua(lua: &Lua, event: &Event) -> mlua::Result<Value> {
    if !matches!(
        event,
        Event::PhaseStarted { .. }
            | Event::PhaseEnded { .. }
            | Event::UnitMoved { .. }
            | Event::UnitEliminated { .. }
            | Event::UnitRemoved { .. }
            | Event::UnitStatusChanged { .. }
            | Event::UnitSideChanged { .. }
            | Event::ControlChanged { .. }
    ) {
        return lua.to_value(event);
    }
    // (only borrows: see writer.rs)
    write::<Value, _>(lua, lua.array_metatable(), |w| write_event(w, event))
}

/// Pushes one of the events `event_to_lua` writes itself; the array metatable is `write`'s
/// first argument.
fn write_event(w: &mut Writer, event: &Event) {
    let strings = |w: &mut Writer, items: &[String]| {
        w.table(items.len(), 0);
        w.string_items(items.iter().map(|s| Some(s.as_str())));
        w.arg(1);
        w.set_metatable();
    };
    let opt = |w: &mut Writer, s: &Option<String>| match s {
        Some(s) => w.str(s),
        None => w.null(),
    };
    match event {
        Event::PhaseStarted {
            turn,
            step,
            side,
            phase,
        }
        | Event::PhaseEnded {
            turn,
            step,
            side,
            phase,
        } => {
            w.table(0, 5);
            w.str(event.name());
            w.set("event");
            w.int(i64::from(*turn));
            w.set("turn");
            w.int(i64::from(*step));
            w.set("step");
            opt(w, side);
            w.set("side");
            w.str(phase);
            w.set("phase");
        }
        Event::UnitMoved {
            unit,
            from,
            to,
            path,
            cost,
        } => {
            w.table(0, 6);
            w.str("UnitMoved");
            w.set("event");
            w.str(unit);
            w.set("unit");
            opt(w, from);
            w.set("from");
            w.str(to);
            w.set("to");
            strings(w, path);
            w.set("path");
            w.float(*cost);
            w.set("cost");
        }
        Event::UnitEliminated { unit, reason } | Event::UnitRemoved { unit, reason } => {
            w.table(0, 3);
            w.str(event.name());
            w.set("event");
            w.str(unit);
            w.set("unit");
            w.str(reason);
            w.set("reason");
        }
        Event::UnitStatusChanged { unit, add, remove } => {
            // (serde skips an empty list, and counts only the fields it writes)
            w.table(
                0,
                2 + usize::from(!add.is_empty()) + usize::from(!remove.is_empty()),
            );
            w.str("UnitStatusChanged");
            w.set("event");
            w.str(unit);
            w.set("unit");
            if !add.is_empty() {
                strings(w, add);
                w.set("add");
            }
            if !remove.is_empty() {
                strings(w, remove);
                w.set("remove");
            }
        }
        Event::UnitSideChanged { unit, side } => {
            w.table(0, 3);
            w.str("UnitSideChanged");
            w.set("event");
            w.str(unit);
            w.set("unit");
            w.str(side);
            w.set("side");
        }
        Event::ControlChanged { hex, side } => {
            w.table(0, 3);
            w.str("ControlChanged");
            w.set("event");
            w.str(hex);
            w.set("hex");
            opt(w, side);
            w.set("side");
        }
        _ => w.fail("an event event_to_lua does not write itself"),
    }
}

/// The marker of a value the rules wrote as JSON text or as a plain-data table
/// (`hex.state.json(text | table)`): an opaque userdata whose user value is the text (a Lua
/// string, so the memory limit counts it) or the table. Standing as the `value` of a `VarSet` or
/// the `data` of a `Custom` event, it is parsed (text) or read in one walk over the table
/// (`lua_stack::reader::lua_to_json`) straight into the event: no serde walk value by value, which is what
/// makes big event data (Diplomacy's phase report and position) cheap.
pub struct JsonText;

/// A copy of a script's value as plain data, made now (the script may change its table
/// afterwards): read by the one-walk reader (or the serde bridge), written back on the stack.
/// The value of `hex.state.set` and the data of `hex.events.emit`.
pub(crate) fn plain_copy(lua: &Lua, value: Value) -> mlua::Result<Value> {
    let json = super::bounded::json_from_value(lua, value)?;
    super::lua_stack::writer::json_to_lua(lua, &json)
}

/// A value for an event `called` builds (`hex.state.set`'s value, `hex.events.emit`'s data): a
/// `hex.state.json` value as it is (read once, when the event is read), else a [`plain_copy`],
/// refused in the script's words naming the call (serde's `deserialize error: unsupported value
/// type `function`` named neither the call nor what a value may hold).
pub(crate) fn event_value(lua: &Lua, value: Value, called: &str) -> mlua::Result<Value> {
    if is_json_text(&value) {
        return Ok(value);
    }
    plain_copy(lua, value).map_err(|e| match e {
        mlua::Error::DeserializeError(_) => {
            mlua::Error::runtime(format!("{called}: {}", bridge_words(&e)))
        }
        other => other,
    })
}

/// Wraps a JSON text or a table (`hex.state.json`). It is parsed or read once, where the event
/// that holds it is read (a bad value is reported there, naming the event): checking it here as
/// well would read every value twice. A table is read as it stands when the call returns.
pub fn json_text_to_lua(lua: &Lua, value: Value) -> mlua::Result<AnyUserData> {
    if !matches!(value, Value::String(_) | Value::Table(_)) {
        return Err(mlua::Error::runtime(format!(
            "hex.state.json: expected a JSON text or a table, got a value of type {}",
            value.type_name()
        )));
    }
    let ud = lua.create_any_userdata(JsonText)?;
    ud.set_user_value(value)?;
    Ok(ud)
}

/// Is `value` a `hex.state.json` value?
pub fn is_json_text(value: &Value) -> bool {
    matches!(value, Value::UserData(ud) if ud.is::<JsonText>())
}

/// Most JSON text the events of one call may carry. Parsed JSON takes up to ~30 times its text
/// (a 2-byte `1,` becomes a 32-byte value), and the text itself only counts against the VM's
/// memory limit: without a bound of its own, a script could make the host allocate far more
/// than its limit. 8 MiB is over a thousand Diplomacy phases. A table counts 8 bytes a value.
const JSON_TEXT_LIMIT: usize = 8 << 20;

/// The JSON a `hex.state.json` value stands for; None when `value` is not one. `budget`: the
/// bytes of JSON text still allowed in this call (decreased by this text's length, or by 8 a
/// value of a table).
pub fn json_text_from_lua(
    lua: &Lua,
    value: &Value,
    budget: &mut usize,
) -> Option<Result<serde_json::Value, String>> {
    let Value::UserData(ud) = value else {
        return None;
    };
    if !ud.is::<JsonText>() {
        return None;
    }
    let over = || {
        format!(
            "hex.state.json: the events of one call carry more than {} MiB of JSON text",
            JSON_TEXT_LIMIT >> 20
        )
    };
    Some(match ud.user_value::<Value>() {
        Ok(Value::Table(t)) => {
            let mut values = *budget / 8;
            let before = values;
            let read = super::lua_stack::reader::lua_to_json(lua, &t, &mut values);
            *budget -= (before - values) * 8;
            match read {
                Err(e) if e.starts_with("the value holds more than") && values == 0 => Err(over()),
                other => other.map_err(|e| format!("hex.state.json: {e}")),
            }
        }
        Ok(Value::String(text)) => text.to_str().map_err(|e| e.to_string()).and_then(|text| {
            *budget = budget.checked_sub(text.len()).ok_or_else(over)?;
            let json: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| format!("hex.state.json: {e}"))?;
            match json_depth_over(&json, super::bounded::DEPTH_LIMIT) {
                false => Ok(json),
                true => Err(format!(
                    "hex.state.json: the text nests arrays and objects more than {} levels deep \
                     (a save could not hold it)",
                    super::bounded::DEPTH_LIMIT
                )),
            }
        }),
        Ok(_) => Err("hex.state.json: the value is gone".into()),
        Err(e) => Err(e.to_string()),
    })
}

/// Whether a JSON value nests arrays and objects deeper than `limit` (tables given to
/// `hex.state.json` are held to the same bound by the reader; text was held only to the JSON
/// parser's own 128, so a save took it and could not be read back).
fn json_depth_over(json: &serde_json::Value, limit: usize) -> bool {
    let mut stack = vec![(json, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        match value {
            serde_json::Value::Array(_) | serde_json::Value::Object(_) if depth >= limit => {
                return true
            }
            serde_json::Value::Array(items) => stack.extend(items.iter().map(|c| (c, depth + 1))),
            serde_json::Value::Object(map) => stack.extend(map.values().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    false
}

/// A `VarSet` / `Custom` event table whose payload is a `hex.state.json` value, built without
/// the serde walk; None for any other table (which takes the general path).
fn json_payload_event(lua: &Lua, t: &Table, budget: &mut usize) -> Option<Result<Event, String>> {
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
    let json = json_text_from_lua(lua, &t.raw_get::<Value>(payload).ok()?, budget)?;
    let Ok(Value::String(label_value)) = t.raw_get::<Value>(label) else {
        return None;
    };
    let label_value = label_value.to_str().ok()?.to_string();
    // (a field the event does not have is refused, as serde refuses it for every other event)
    for pair in t.pairs::<Value, Value>() {
        let (key, _) = pair.ok()?;
        let known = matches!(&key, Value::String(k) if matches!(k.to_str().as_deref(), Ok(k) if k == "event" || k == label || k == payload));
        if !known {
            return Some(Err(format!(
                "unknown field `{}`, expected `{label}` or `{payload}`",
                super::error::value_in_message(&key)
            )));
        }
    }
    Some(json.map(|json| match payload {
        "value" => Event::VarSet {
            key: label_value,
            value: json.into(),
        },
        _ => Event::Custom {
            name: label_value,
            data: json.into(),
        },
    }))
}

/// One event of a script's list. `budget`: the JSON text bytes left to the call's
/// `hex.state.json` payloads; `values_left`: the values left to the whole list (one bound for
/// all the events of a call, as the one-walk reader counts them).
fn event_from_lua(
    lua: &Lua,
    value: Value,
    budget: &mut usize,
    values_left: &mut usize,
) -> Result<Event, String> {
    if let Value::Table(t) = &value {
        if let Some(event) = json_payload_event(lua, t, budget) {
            return event;
        }
        // Plain data (no empty or mixed table) reads the same through the one-walk reader as
        // through the serde bridge, several times cheaper; anything else, and any event the
        // reader's JSON does not make, takes the bridge (and its error messages).
        let mut left = *values_left;
        if let Ok(json) = super::lua_stack::reader::plain_lua_to_json(lua, t, &mut left) {
            if let Ok(event) = serde_json::from_value::<Event>(json) {
                *values_left = left;
                return Ok(event);
            }
        }
    }
    super::bounded::check_within(&value, values_left)?;
    let first = match lua.from_value::<Event>(value.clone()) {
        Ok(event) => return Ok(event),
        Err(e) => e,
    };
    // An empty table where a list is expected (`remove = {}`) reads as an empty list: Lua
    // cannot tell the two apart, and the event is otherwise read as before.
    let empty_as_list = mlua::serde::DeserializeOptions::new().encode_empty_tables_as_array(true);
    if let Ok(event) = lua.from_value_with::<Event>(value.clone(), empty_as_list) {
        return Ok(event);
    }
    let why = bridge_words(&first);
    let name = match &value {
        Value::Table(t) => t.raw_get::<Option<String>>("event").ok().flatten(),
        _ => None,
    };
    Err(match name {
        // (no such event: the nearest engine event, and how a custom one is made, instead of
        // serde's list of every variant)
        Some(name) if name != "Custom" && !Event::ENGINE_NAMES.contains(&name.as_str()) => {
            let near = crate::spelling::nearest(&name, Event::ENGINE_NAMES.iter().copied(), 0)
                .map(|n| format!(" (did you mean '{n}'?)"))
                .unwrap_or_default();
            format!(
                "{name}: no engine event is called so{near}; a custom event is \
                 hex.events.emit(\"{name}\", data)"
            )
        }
        Some(name) => match culprit_field(lua, &value, &why) {
            Some(field) => format!("{name}: field '{field}': {why}"),
            None => format!("{name}: {why}"),
        },
        None => why.to_string(),
    })
}

/// The field of a malformed event that serde's message does not name ("invalid type: integer
/// 3607, expected a string"): the one whose removal makes the event read, or makes the error
/// "missing field" for it. Tried only once an event has failed, one field at a time.
fn culprit_field(lua: &Lua, value: &Value, why: &str) -> Option<String> {
    if why.contains("field `") {
        return None;
    }
    let serde_json::Value::Object(fields) =
        lua.from_value::<serde_json::Value>(value.clone()).ok()?
    else {
        return None;
    };
    fields.keys().filter(|k| *k != "event").find_map(|key| {
        let mut without = fields.clone();
        without.remove(key);
        match serde_json::from_value::<Event>(serde_json::Value::Object(without)) {
            Ok(_) => Some(key.clone()),
            Err(e) if e.to_string().contains(&format!("missing field `{key}`")) => {
                Some(key.clone())
            }
            Err(_) => None,
        }
    })
}

/// A list of events of the common shape (plain tables, `hex.state.json` payloads) read in one
/// walk over the Lua tables (`reader::read_events`); None for anything else, which the general
/// path reads (the same events, or its error messages).
fn events_in_one_walk(lua: &Lua, t: &Table) -> Option<Vec<Event>> {
    let read = super::lua_stack::reader::read_events(lua, t, JSON_TEXT_LIMIT / 8)?;
    let mut budget = JSON_TEXT_LIMIT;
    read.into_iter()
        .map(|e| event_of_fields(e, &mut budget))
        .collect()
}

/// The event the walk read, as `event_from_lua` makes it (None: let it make it).
fn event_of_fields(e: super::lua_stack::reader::EventFields, budget: &mut usize) -> Option<Event> {
    use super::lua_stack::reader::JsonPayload;
    let mut fields = e.fields;
    let Some((field, payload)) = e.json else {
        // A plain VarSet (every orders command's event, the commonest kind) is built directly,
        // as serde builds it, without serde's buffering of an internally tagged enum.
        if fields.len() == 3
            && fields.get("event").and_then(serde_json::Value::as_str) == Some("VarSet")
            && fields.get("key").is_some_and(serde_json::Value::is_string)
            && fields.contains_key("value")
        {
            let (Some(serde_json::Value::String(key)), Some(value)) =
                (fields.remove("key"), fields.remove("value"))
            else {
                return None;
            };
            return Some(Event::VarSet {
                key,
                value: value.into(),
            });
        }
        return serde_json::from_value::<Event>(serde_json::Value::Object(fields)).ok();
    };
    let (label, var) = match (fields.get("event")?.as_str()?, field.as_str()) {
        ("VarSet", "value") => ("key", true),
        ("Custom", "data") => ("name", false),
        _ => return None,
    };
    let json = match payload {
        JsonPayload::Table(v, values) => {
            *budget = budget.checked_sub(values.checked_mul(8)?)?;
            v
        }
        JsonPayload::Text(text) => {
            *budget = budget.checked_sub(text.len())?;
            let json = serde_json::from_str(&text).ok()?;
            // (too deep: the general path refuses it, naming why)
            if json_depth_over(&json, super::bounded::DEPTH_LIMIT) {
                return None;
            }
            json
        }
    };
    let serde_json::Value::String(label) = fields.remove(label)? else {
        return None;
    };
    // (a field the event does not have: the general path names it in its refusal)
    if fields.len() != 1 {
        return None;
    }
    Some(if var {
        Event::VarSet {
            key: label,
            value: json.into(),
        }
    } else {
        Event::Custom {
            name: label,
            data: json.into(),
        }
    })
}

/// Events returned by a handler: a list of event tables, one event table, or nil.
pub fn events_from_lua(lua: &Lua, value: Value) -> Result<Vec<Event>, String> {
    let mut budget = JSON_TEXT_LIMIT;
    let mut values_left = super::bounded::VALUE_LIMIT;
    match value {
        Value::Nil => Ok(Vec::new()),
        Value::Table(t) => {
            if let Some(events) = events_in_one_walk(lua, &t) {
                return Ok(events);
            }
            // (read raw, as the rest of the answer is: a metamethod run here had its error,
            // the instruction budget's included, dropped, and a looping `__index` played on)
            if !t
                .raw_get::<Value>("event")
                .map_err(|e| e.to_string())?
                .is_nil()
            {
                return event_from_lua(lua, Value::Table(t), &mut budget, &mut values_left)
                    .map(|e| vec![e])
                    .map_err(|e| format!("malformed event: {e}"));
            }
            list_shape(&t)?;
            let mut out = Vec::new();
            for (i, item) in t.sequence_values::<Value>().enumerate() {
                let item = item.map_err(|e| e.to_string())?;
                out.push(
                    event_from_lua(lua, item, &mut budget, &mut values_left)
                        .map_err(|e| format!("malformed event #{}: {e}", i + 1))?,
                );
            }
            Ok(out)
        }
        other => Err(format!(
            "{} where a list of events or nil was expected",
            with_article(other.type_name())
        )),
    }
}

/// "a boolean", "an integer": a Lua type name with its article.
pub(crate) fn with_article(name: &str) -> String {
    let vowel = name.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// What a command's `legal` answered, read as a listing: its list of commands and their count,
/// items 1 to n (`None` for nil). One command table (`{command = "move", ...}` without the list
/// around it), a table of other keys, a list with a hole (`list_length`) or a value that is no
/// table is an error naming what came: each used to read as an empty or shorter listing, a game
/// in which nothing (or less) could be done, without a word.
pub(crate) fn listing_of(value: &Value) -> Result<Option<(Table, usize)>, String> {
    match value {
        Value::Nil => Ok(None),
        // (a list's first item settles it; only a table without one is looked into)
        Value::Table(t) if t.raw_len() > 0 || t.is_empty() => {
            let n = super::list_length::list_length(t, "commands")
                .map_err(|e| format!("answered {e}"))?;
            Ok(Some((t.clone(), n)))
        }
        Value::Table(t) => Err(
            if t.raw_get::<Value>("command").is_ok_and(|v| !v.is_nil()) {
                "answered one command table, not a list of commands: wrap it, \
             return { {command = ...} }"
                    .to_string()
            } else {
                let mut keys: Vec<String> = t
                    .pairs::<Value, Value>()
                    .filter_map(Result::ok)
                    .map(|(k, _)| super::error::value_in_message(&k))
                    .collect();
                keys.sort();
                keys.truncate(5);
                format!(
                    "answered a table without a list part (its keys: {}), not a list of commands",
                    keys.join(", ")
                )
            },
        ),
        other => Err(format!(
            "answered {}, not a list of commands",
            value_kind(other)
        )),
    }
}

/// A value as a message names what a script returned: `true`/`false`, else its type with an
/// article (`a string`).
pub(crate) fn value_kind(value: &Value) -> String {
    match value {
        Value::Boolean(b) => b.to_string(),
        other => with_article(other.type_name()),
    }
}

/// Checks that a table without an `event` key is a list of events: keys 1 to n and nothing
/// else. A table of other keys was read as an empty list (a misspelt `evnt`, a plain
/// `{rule = ..., reason = ...}` meant as a refusal), and a nil in a list ended it, dropping the
/// events after it: both passed without a word.
fn list_shape(t: &Table) -> Result<(), String> {
    let mut count = 0i64;
    let mut names = Vec::new();
    for pair in t.clone().pairs::<Value, Value>() {
        let (key, _) = pair.map_err(|e| e.to_string())?;
        match key {
            Value::Integer(i) if i >= 1 => count += 1,
            Value::String(name) => names.push(name.to_string_lossy()),
            // (a number or boolean key as the script writes it: `[0]`, the 0-based list's slip)
            Value::Integer(i) => names.push(format!("[{i}]")),
            Value::Number(x) => names.push(format!("[{x}]")),
            Value::Boolean(b) => names.push(format!("[{b}]")),
            other => names.push(format!("{} key", with_article(other.type_name()))),
        }
    }
    if names.iter().any(|n| n == "rule") && names.iter().any(|n| n == "reason") {
        return Err(
            "a plain table {rule = ..., reason = ...}: a refusal is made with hex.refuse(rule, reason)"
                .into(),
        );
    }
    if !names.is_empty() {
        names.sort();
        return Err(format!(
            "a table that is neither an event (it has no `event` field; its keys: {}) nor a list of events",
            names.join(", ")
        ));
    }
    // (the first index missing from 1..=count: a list with a hole)
    if let Some(gap) = (1..=count).find(|&i| t.raw_get::<Value>(i).is_ok_and(|v| v.is_nil())) {
        return Err(format!(
            "a list of events with nothing at #{gap} (a nil in the list would drop the events after it)"
        ));
    }
    Ok(())
}

/// A read-only view of a unit: a fresh table, so changing it changes nothing in the game.
pub fn unit_to_lua(lua: &Lua, unit: &Unit) -> mlua::Result<Table> {
    let args = complex_attrs(lua, std::iter::once(unit))?;
    write(lua, args, |w| {
        write_unit(w, unit, (!plain_attrs(unit)).then_some(1))
    })
}

/// Whether every attribute of the unit is a string, a boolean or a number that serde gives Lua
/// as it is (an i64 or a float): then [`write_unit`] writes them itself.
pub(crate) fn plain_attrs(unit: &Unit) -> bool {
    unit.attrs.values().all(|v| match v {
        serde_json::Value::String(_) | serde_json::Value::Bool(_) => true,
        serde_json::Value::Number(n) => n.is_i64() || n.is_f64(),
        _ => false,
    })
}

/// The `attrs` tables (serde's conversion) of the units whose attributes are not plain, in
/// order: the arguments [`write_unit`] takes them from.
pub(crate) fn complex_attrs<'a>(
    lua: &Lua,
    units: impl Iterator<Item = &'a Unit>,
) -> mlua::Result<MultiValue> {
    let mut out = MultiValue::new();
    for u in units.filter(|u| !plain_attrs(u)) {
        out.push_back(lua.to_value(&u.attrs)?);
    }
    Ok(out)
}

/// Sets the fields every unit table starts with (the full view, the brief), in this order,
/// on the table at the top of the writer's stack.
pub(crate) fn write_unit_identity(w: &mut Writer, unit: &Unit) {
    w.str(&unit.id);
    w.set("id");
    w.str(&unit.side);
    w.set("side");
    w.str(&unit.nation);
    w.set("nation");
    w.str(&unit.kind);
    w.set("type");
    w.str(&unit.size);
    w.set("size");
}

/// Writes the view of [`unit_to_lua`] (the same table operations in the same order, so the
/// same table), taking `attrs` from writer argument `attrs_arg` when the unit's attributes are
/// not plain. Only borrows (see writer.rs).
pub(crate) fn write_unit(w: &mut Writer, unit: &Unit, attrs_arg: Option<usize>) {
    w.table(0, 12);
    write_unit_identity(w, unit);
    w.number(unit.ma);
    w.set("ma");
    w.number(unit.strength);
    w.set("strength");
    w.opt_str(unit.at.as_deref());
    w.set("at");
    match unit.facing {
        Some(f) => w.int(i64::from(f)),
        None => w.nil(),
    }
    w.set("facing");
    w.table(0, unit.status.len());
    for flag in &unit.status {
        w.bool(true);
        w.set(flag);
    }
    w.set("status");
    match attrs_arg {
        Some(n) => w.arg(n),
        None => {
            w.table(0, unit.attrs.len());
            for (key, value) in &unit.attrs {
                match value {
                    serde_json::Value::String(s) => w.str(s),
                    serde_json::Value::Bool(b) => w.bool(*b),
                    serde_json::Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                        (Some(i), _) => w.int(i),
                        (None, Some(x)) => w.float(x),
                        (None, None) => w.nil(),
                    },
                    _ => w.nil(),
                }
                w.set(key);
            }
        }
    }
    w.set("attrs");
}

/// Writes the views of the units of `items` as a sequence (a table grown item by item, as
/// `raw_set(i, ..)` grows it), each view then passed to `extra` with its item to add fields.
/// `items` is walked twice.
pub(crate) fn write_unit_list<'a, T, I>(
    lua: &Lua,
    items: I,
    unit_of: impl Fn(T) -> &'a Unit + Copy,
    extra: impl Fn(&mut Writer, T) + Copy,
) -> mlua::Result<Table>
where
    T: Copy,
    I: Iterator<Item = T> + Clone,
{
    let args = complex_attrs(lua, items.clone().map(unit_of))?;
    write(lua, args, |w| {
        w.table(0, 0);
        let mut next_arg = 0;
        for (i, item) in items.enumerate() {
            let u = unit_of(item);
            let arg = if plain_attrs(u) {
                None
            } else {
                next_arg += 1;
                Some(next_arg)
            };
            write_unit(w, u, arg);
            extra(w, item);
            w.set_item(i + 1);
        }
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_one_walk_reads_events_as_the_general_path_does() {
        let lua = vm();
        let list: Table = lua
            .load(
                r#"return {
                  { event = "VarSet", key = "position", value = json({ phase = "S1901M", units = { FRANCE = { "A PAR" } }, none = {} }) },
                  { event = "VarSet", key = "orders.FRANCE", value = json("null") },
                  { event = "UnitMoved", unit = "FRANCE-1", from = "PAR", to = "BUR", path = { "BUR" }, cost = 0 },
                  { event = "VarSet", key = "next_unit", value = 23 },
                  { event = "Custom", name = "PhaseAdjudicated", data = json({ results = {}, n = 1.5 }) },
                  { event = "VarSet", key = "orders.ITALY", value = { "A ROM H", "F NAP H" } },
                  { event = "VarSet", key = "extra", value = 1 },
                }"#,
            )
            .eval()
            .unwrap();
        let expected = vec![
            Event::VarSet {
                key: "position".into(),
                value: json!({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "none": {}})
                    .into(),
            },
            Event::VarSet {
                key: "orders.FRANCE".into(),
                value: serde_json::Value::Null.into(),
            },
            Event::UnitMoved {
                unit: "FRANCE-1".into(),
                from: Some("PAR".into()),
                to: "BUR".into(),
                path: vec!["BUR".into()],
                cost: 0.0,
            },
            Event::VarSet {
                key: "next_unit".into(),
                value: json!(23).into(),
            },
            Event::Custom {
                name: "PhaseAdjudicated".into(),
                data: json!({"results": {}, "n": 1.5}).into(),
            },
            Event::VarSet {
                key: "orders.ITALY".into(),
                value: json!(["A ROM H", "F NAP H"]).into(),
            },
            Event::VarSet {
                key: "extra".into(),
                value: json!(1).into(),
            },
        ];
        assert_eq!(events_in_one_walk(&lua, &list).unwrap(), expected);
        // a field no event has is refused by both paths, not dropped (a handler would read nil)
        for code in [
            r#"return { { event = "VarSet", key = "extra", value = 1, note = "x" } }"#,
            r#"return { { event = "VarSet", key = "p", value = json({ a = 1 }), note = "x" } }"#,
            r#"return { { event = "UnitEliminated", unit = "u", reason = "r", cause = "x" } }"#,
        ] {
            let t: Table = lua.load(code).eval().unwrap();
            assert_eq!(events_in_one_walk(&lua, &t), None, "{code}");
            let e = events_from_lua(&lua, Value::Table(t)).unwrap_err();
            assert!(
                e.starts_with("malformed event #1: ") && e.contains("unknown field"),
                "{code}: {e}"
            );
        }
        assert_eq!(
            events_from_lua(&lua, Value::Table(list.clone())).unwrap(),
            expected
        );
        // one event table
        let one: Table = list.raw_get(3).unwrap();
        assert_eq!(
            events_in_one_walk(&lua, &one).unwrap(),
            vec![expected[2].clone()]
        );
        // what the walk leaves to the general path: an empty table in a plain event, a JSON
        // value outside a payload, a payload that is not JSON, a key that is not a string
        for code in [
            r#"return {{ event = "UnitStatusChanged", unit = "u", add = {} }}"#,
            r#"return {{ event = "UnitMoved", unit = json("1"), to = "B", path = {"B"}, cost = 0 }}"#,
            r#"return {{ event = "VarSet", key = "k", value = json("[1,") }}"#,
            r#"return {{ event = "VarSet", key = 3, value = json("1") }}"#,
            r#"return {}"#,
        ] {
            let t: Table = lua.load(code).eval().unwrap();
            assert!(events_in_one_walk(&lua, &t).is_none(), "{code}");
        }
    }

    #[test]
    fn a_command_table_is_the_one_serde_makes_of_its_map() {
        let lua = Lua::new();
        lua.set_memory_limit(1 << 24).unwrap();
        let dump: mlua::Function = lua.load(crate::rules::lua_stack::LUA_DUMP).eval().unwrap();
        let custom = |args: serde_json::Value| Command::Custom {
            name: "orders".into(),
            args: args.as_object().unwrap().clone(),
        };
        for command in [
            Command::EndPhase,
            Command::Move {
                unit: "u1".into(),
                path: vec!["0101".into(), "0102".into()],
            },
            custom(json!({"power": "FRANCE", "orders": ["A PAR H", "F BRE - MAO"]})),
            custom(json!({})),
            custom(json!({"a": 1, "z": 2.5, "n": null, "t": {"x": [true]}, "e": []})),
            custom(json!({"command": "other", "power": "ITALY"})),
        ] {
            let map: Map<String, serde_json::Value> = command.clone().into();
            let old: String = dump.call(lua.to_value(&map).unwrap()).unwrap();
            let new: String = dump.call(command_to_lua(&lua, &command).unwrap()).unwrap();
            assert_eq!(new, old, "{command:?}");
        }
    }

    fn json_event(lua: &Lua, kind: &str, text: &str) -> Table {
        let t = lua.create_table().unwrap();
        t.raw_set("event", kind).unwrap();
        let (label, payload) = if kind == "VarSet" {
            ("key", "value")
        } else {
            ("name", "data")
        };
        t.raw_set(label, "x").unwrap();
        let text = lua.create_string(text).unwrap();
        t.raw_set(payload, json_text_to_lua(lua, Value::String(text)).unwrap())
            .unwrap();
        t
    }

    #[test]
    fn json_text_becomes_the_payload_of_var_set_and_custom_events() {
        let lua = Lua::new();
        let list = lua.create_table().unwrap();
        list.raw_set(1, json_event(&lua, "VarSet", r#"{"a":[1,"b"],"c":{}}"#))
            .unwrap();
        list.raw_set(2, json_event(&lua, "Custom", "[true,null]"))
            .unwrap();
        let events = events_from_lua(&lua, Value::Table(list)).unwrap();
        assert_eq!(
            events,
            vec![
                Event::VarSet {
                    key: "x".into(),
                    value: json!({"a": [1, "b"], "c": {}}).into()
                },
                Event::Custom {
                    name: "x".into(),
                    data: json!([true, null]).into()
                },
            ]
        );
    }

    #[test]
    fn a_table_payload_is_read_by_the_plain_data_rule() {
        let lua = Lua::new();
        let t: Table = lua
            .load(r#"return {event = "VarSet", key = "x", value = {units = {"A PAR"}, none = {}, n = 2}}"#)
            .eval()
            .unwrap();
        let table: Value = t.raw_get("value").unwrap();
        t.raw_set("value", json_text_to_lua(&lua, table).unwrap())
            .unwrap();
        let events = events_from_lua(&lua, Value::Table(t.clone())).unwrap();
        assert_eq!(
            events,
            vec![Event::VarSet {
                key: "x".into(),
                value: json!({"units": ["A PAR"], "none": {}, "n": 2}).into()
            }]
        );
        let bad: Value = lua.load("return {[1.5] = true, x = 1}").eval().unwrap();
        t.raw_set("value", json_text_to_lua(&lua, bad).unwrap())
            .unwrap();
        assert_eq!(
            events_from_lua(&lua, Value::Table(t)).unwrap_err(),
            "malformed event: hex.state.json: a table key is a number, not a string"
        );
        assert_eq!(
            json_text_to_lua(&lua, Value::Integer(3)).unwrap_err().to_string(),
            "runtime error: hex.state.json: expected a JSON text or a table, got a value of type integer"
        );
    }

    #[test]
    fn bad_json_text_is_reported_with_the_event_that_holds_it() {
        let lua = Lua::new();
        let list = lua.create_table().unwrap();
        list.raw_set(1, json_event(&lua, "VarSet", "{\"a\": [1,"))
            .unwrap();
        let err = events_from_lua(&lua, Value::Table(list)).unwrap_err();
        assert_eq!(
            err,
            "malformed event #1: hex.state.json: EOF while parsing a value at line 1 column 9"
        );
    }

    #[test]
    fn json_text_past_the_limit_of_a_call_is_refused() {
        let lua = Lua::new();
        let list = lua.create_table().unwrap();
        let big = format!("\"{}\"", "x".repeat(JSON_TEXT_LIMIT / 2));
        list.raw_set(1, json_event(&lua, "VarSet", &big)).unwrap();
        list.raw_set(2, json_event(&lua, "Custom", &big)).unwrap();
        let err = events_from_lua(&lua, Value::Table(list)).unwrap_err();
        assert_eq!(
            err,
            "malformed event #2: hex.state.json: the events of one call carry more than 8 MiB of JSON text"
        );
    }

    #[test]
    fn an_empty_table_for_a_list_reads_as_an_empty_list_and_errors_name_the_event() {
        let lua = Lua::new();
        let t: Table = lua
            .load(r#"return { event = "UnitStatusChanged", unit = "u", add = { "moved" }, remove = {} }"#)
            .eval()
            .unwrap();
        assert_eq!(
            events_from_lua(&lua, Value::Table(t)).unwrap(),
            vec![Event::UnitStatusChanged {
                unit: "u".into(),
                add: vec!["moved".into()],
                remove: Vec::new(),
            }]
        );
        let t: Table = lua
            .load(r#"return { { event = "VarSet", key = "k", value = 1, cause = "x" } }"#)
            .eval()
            .unwrap();
        assert_eq!(
            events_from_lua(&lua, Value::Table(t)).unwrap_err(),
            "malformed event #1: VarSet: unknown field `cause`, expected `key` or `value`"
        );
    }

    /// An event holding an empty list and an empty map (`status = {}, attrs = {}`) reads: `{}`
    /// read as a map failed the list, read as a list failed the map (found by a designer
    /// rebuilding a unit to change its strength).
    #[test]
    fn an_event_with_an_empty_list_and_an_empty_map_reads() {
        let lua = Lua::new();
        let t: Table = lua
            .load(
                r#"return { event = "UnitPlaced", unit = { id = "u", side = "blue", type = "army",
                    ma = 1, strength = 9, at = "0101", status = {}, attrs = {} } }"#,
            )
            .eval()
            .unwrap();
        let events = events_from_lua(&lua, Value::Table(t)).unwrap();
        let [Event::UnitPlaced { unit }] = events.as_slice() else {
            panic!("{events:?}")
        };
        assert_eq!((unit.id.as_str(), unit.strength), ("u", 9.0));
        assert!(unit.status.is_empty() && unit.attrs.is_empty());
        // (the other map field of an event, next to an empty list)
        let t: Table = lua
            .load(
                r#"return { { event = "UnitStatusChanged", unit = "u", add = {}, remove = {} },
                    { event = "GameEnded", winner = "blue", scores = {}, reason = "r" } }"#,
            )
            .eval()
            .unwrap();
        let events = events_from_lua(&lua, Value::Table(t)).unwrap();
        assert!(
            matches!(&events[1], Event::GameEnded { scores, .. } if scores.is_empty()),
            "{events:?}"
        );
    }

    #[test]
    fn json_text_elsewhere_in_an_event_is_refused() {
        let lua = Lua::new();
        let t = lua.create_table().unwrap();
        t.raw_set("event", "UnitRemoved").unwrap();
        t.raw_set(
            "unit",
            json_text_to_lua(&lua, Value::String(lua.create_string("\"a\"").unwrap())).unwrap(),
        )
        .unwrap();
        t.raw_set("reason", "x").unwrap();
        let err = events_from_lua(&lua, Value::Table(t)).unwrap_err();
        assert_eq!(
            err,
            "malformed event: UnitRemoved: a host object is no data here (a hex.state.json \
             value goes only in a VarSet's value or a Custom event's data)"
        );
    }

    /// The table-API view the writer replaced, kept to check the writer builds the same table.
    fn unit_by_table_api(lua: &Lua, unit: &Unit) -> mlua::Result<Table> {
        let number = |x: f64| match super::super::lua_stack::writer::whole(x) {
            Some(i) => Value::Integer(i),
            None => Value::Number(x),
        };
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

    /// A VM with the host's memory limit; `interned`: with the host's interned keys table, so
    /// the writers push field names from it instead of as new strings.
    fn test_vm(interned: bool) -> Lua {
        let lua = Lua::new();
        lua.set_memory_limit(1 << 24).unwrap();
        if interned {
            let board = crate::board::Board::Hex(std::sync::Arc::new(crate::board::HexMap::new(
                Default::default(),
            )));
            let mut host = super::super::api::HostData::new(board, Vec::new(), 1);
            host.key_strings = Some(super::super::lua_stack::writer::intern_keys(&lua).unwrap());
            lua.set_app_data(host);
        }
        lua
    }

    #[test]
    fn event_tables_written_on_the_stack_are_the_serde_bridges() {
        // with the field names pushed as new strings, and interned in the VM's keys table
        event_tables_match(false);
        event_tables_match(true);
    }

    fn event_tables_match(interned: bool) {
        let lua = test_vm(interned);
        let s = |x: &str| x.to_string();
        let phase = |side: Option<&str>| Event::PhaseEnded {
            turn: 3,
            step: 4,
            side: side.map(s),
            phase: s("movement"),
        };
        let events = vec![
            phase(Some("german")),
            phase(None),
            Event::PhaseStarted {
                turn: 1,
                step: 0,
                side: None,
                phase: s("combat"),
            },
            Event::UnitMoved {
                unit: s("de-1-pz"),
                from: Some(s("2912")),
                to: s("3012"),
                path: vec![s("2913"), s("3012")],
                cost: 2.0,
            },
            Event::UnitMoved {
                unit: s("u"),
                from: None,
                to: s("0101"),
                path: Vec::new(),
                cost: 1.5,
            },
            Event::UnitEliminated {
                unit: s("u"),
                reason: s("combat"),
            },
            Event::UnitRemoved {
                unit: s("u"),
                reason: s("surrendered"),
            },
            Event::UnitStatusChanged {
                unit: s("u"),
                add: vec![s("moved"), s("disorganized")],
                remove: vec![s("isolated")],
            },
            Event::UnitStatusChanged {
                unit: s("u"),
                add: Vec::new(),
                remove: vec![s("isolated")],
            },
            Event::UnitStatusChanged {
                unit: s("u"),
                add: vec![s("moved")],
                remove: Vec::new(),
            },
            Event::UnitStatusChanged {
                unit: s("u"),
                add: Vec::new(),
                remove: Vec::new(),
            },
            Event::UnitSideChanged {
                unit: s("u"),
                side: s("allied"),
            },
            Event::ControlChanged {
                hex: s("0101"),
                side: Some(s("allied")),
            },
            Event::ControlChanged {
                hex: s("0101"),
                side: None,
            },
        ];
        let dump: mlua::Function = lua.load(crate::rules::lua_stack::LUA_DUMP).eval().unwrap();
        let same_metatables: mlua::Function = lua
            .load(
                r#"return function(a, b)
                     for k, v in pairs(a) do
                       if type(v) == "table" and (getmetatable(v) == nil or getmetatable(v) ~= getmetatable(b[k])) then
                         return false
                       end
                     end
                     return true
                   end"#,
            )
            .eval()
            .unwrap();
        for event in &events {
            let serde = lua.to_value(event).unwrap();
            let written = event_to_lua(&lua, event).unwrap();
            let old: String = dump.call(serde.clone()).unwrap();
            let new: String = dump.call(written.clone()).unwrap();
            assert_eq!(new, old, "{event:?}");
            // (the array metatable hides itself behind `__metatable`: compared as scripts see it)
            assert!(same_metatables.call::<bool>((written, serde)).unwrap());
        }
    }

    #[test]
    fn unit_views_are_the_tables_the_table_api_built() {
        // with the field names pushed as new strings, and interned in the VM's keys table
        unit_views_match(false);
        unit_views_match(true);
    }

    fn unit_views_match(interned: bool) {
        let lua = test_vm(interned);
        let plain: Unit = serde_json::from_value(json!({
            "id": "de-1-pz", "side": "german", "nation": "german", "type": "armored",
            "size": "XX", "ma": 8, "strength": 6.5, "at": "2912", "facing": 3,
            "status": ["disorganized", "isolated", "moved", "z"],
            "attrs": {"class": "motorized", "motorized": true, "army_group": "A", "n": 3,
                      "x": 2.0, "y": -1.25, "big": 9007199254740993i64}
        }))
        .unwrap();
        let complex: Unit = serde_json::from_value(json!({
            "id": "fr-2", "side": "allied", "type": "infantry", "ma": 4.5, "strength": 2,
            "attrs": {"list": [1, "a"], "obj": {"k": null}, "u": 18446744073709551615u64}
        }))
        .unwrap();
        let bare: Unit =
            serde_json::from_value(json!({"id": "u", "side": "s", "type": "t"})).unwrap();
        let dump: mlua::Function = lua.load(crate::rules::lua_stack::LUA_DUMP).eval().unwrap();
        for unit in [&plain, &complex, &bare] {
            let old: String = dump.call(unit_by_table_api(&lua, unit).unwrap()).unwrap();
            let new: String = dump.call(unit_to_lua(&lua, unit).unwrap()).unwrap();
            assert_eq!(new, old, "{}", unit.id);
        }
        assert!(plain_attrs(&plain) && !plain_attrs(&complex));
        // and in a list, the complex units' attrs taken from the arguments in order
        let units = [&complex, &plain, &complex, &bare];
        let list = write_unit_list(&lua, units.iter().copied(), |u| u, |_, _| {}).unwrap();
        let expected = lua.create_table().unwrap();
        for (i, u) in units.iter().enumerate() {
            expected
                .raw_set(i + 1, unit_by_table_api(&lua, u).unwrap())
                .unwrap();
        }
        let (old, new): (String, String) = (dump.call(expected).unwrap(), dump.call(list).unwrap());
        assert_eq!(new, old);
    }

    #[test]
    fn flat_command_tables_read_like_the_serde_path() {
        let lua = Lua::new();
        let t: Table = lua
            .load(r#"return {command = "order", power = "FRANCE", order = "A PAR H", n = 3, ok = true}"#)
            .eval()
            .unwrap();
        let fast = flat_map_from_lua(&t).unwrap();
        let slow: Map<String, serde_json::Value> = lua.from_value(Value::Table(t)).unwrap();
        assert_eq!(fast, slow);
        // nested values, floats and array parts take the serde path
        for code in [
            "return {command = 'move', path = {'a'}}",
            "return {command = 'x', cost = 1.5}",
            "return {'a', command = 'x'}",
        ] {
            let t: Table = lua.load(code).eval().unwrap();
            assert_eq!(flat_map_from_lua(&t), None, "{code}");
        }
    }
    /// A field of the wrong type is named: serde's message alone ("invalid type: integer 3607,
    /// expected a string") left the designer to guess which of the event's fields it was.
    #[test]
    fn a_malformed_event_names_the_field_of_the_wrong_type() {
        let lua = Lua::new();
        for (code, expected) in [
            (
                r#"return { event = "UnitMoved", unit = 3607, from = "a", to = "b", path = {"b"}, cost = 1 }"#,
                "malformed event: UnitMoved: field 'unit': invalid type: integer `3607`, expected a string",
            ),
            (
                r#"return { event = "UnitMoved", unit = "u", from = "a", to = "b", path = "b", cost = 1 }"#,
                "malformed event: UnitMoved: field 'path': invalid type: string \"b\", expected a list",
            ),
            // (serde names a missing field itself)
            (
                r#"return { event = "UnitMoved", unit = "u", from = "a", to = "b", path = {"b"} }"#,
                "malformed event: UnitMoved: missing field `cost`",
            ),
        ] {
            let t: Table = lua.load(code).eval().unwrap();
            assert_eq!(events_from_lua(&lua, Value::Table(t)).unwrap_err(), expected, "{code}");
        }
    }

    // The tests below were written for the mutants of the readers (`cargo mutants`, session
    // 54): the exact values, budgets and messages a script's answer gets.

    /// A Lua VM with `json` (`hex.state.json`) as a global, its marker known to the one walk.
    fn vm() -> Lua {
        let lua = Lua::new();
        lua.set_memory_limit(1 << 26).unwrap();
        let json = lua
            .create_function(|lua, v: Value| json_text_to_lua(lua, v))
            .unwrap();
        let sample =
            json_text_to_lua(&lua, Value::String(lua.create_string("1").unwrap())).unwrap();
        crate::rules::lua_stack::reader::remember_json_text_metatable(&lua, &sample).unwrap();
        lua.globals().set("json", json).unwrap();
        lua
    }

    fn events(lua: &Lua, code: &str) -> Result<Vec<Event>, String> {
        let value: Value = lua.load(code).eval().unwrap();
        events_from_lua(lua, value)
    }

    /// A table given to `hex.state.json` costs the call's JSON budget 8 bytes a value it holds
    /// (the table itself and each item), and running out of budget is the call's limit, not
    /// the table's.
    #[test]
    fn a_table_payload_costs_the_budget_8_bytes_a_value() {
        let lua = vm();
        let payload = |code: &str| -> Value { lua.load(code).eval().unwrap() };
        let list = payload("return json({ 1, 2, 3 })");
        let mut budget = 1000;
        assert_eq!(
            json_text_from_lua(&lua, &list, &mut budget),
            Some(Ok(json!([1, 2, 3])))
        );
        assert_eq!(budget, 1000 - 4 * 8);
        // two values left: the third runs out of the call's budget
        let mut budget = 16;
        assert_eq!(
            json_text_from_lua(&lua, &list, &mut budget),
            Some(Err(
                "hex.state.json: the events of one call carry more than 8 MiB of JSON text".into()
            ))
        );
        assert_eq!(budget, 0);
        // a table that is no JSON is named so, whether the budget is left over or just spent
        // on its last value (the table itself)
        let bad = payload("return json({ [1.5] = true })");
        for start in [1000, 8] {
            let mut budget = start;
            assert_eq!(
                json_text_from_lua(&lua, &bad, &mut budget),
                Some(Err(
                    "hex.state.json: a table key is a number, not a string".into()
                )),
                "{start}"
            );
            assert_eq!(budget, start - 8);
        }
        // (not a hex.state.json value: None)
        assert_eq!(
            json_text_from_lua(&lua, &payload("return { 1 }"), &mut 1000),
            None
        );
    }

    /// The 8 MiB of one call are shared by text and tables: a table after 8 MiB of text less
    /// 40 bytes (5 values) is refused for the call's limit, as a script sees it.
    #[test]
    fn a_table_payload_after_text_counts_toward_the_same_8_mib() {
        let lua = vm();
        let text = format!("\"{}\"", "x".repeat(JSON_TEXT_LIMIT - 40 - 2));
        lua.globals().set("big", text).unwrap();
        // (the empty `add` leaves the list to the general path, which names the limit)
        let code = |table: &str| {
            format!(
                r#"return {{
                  {{ event = "VarSet", key = "text", value = json(big) }},
                  {{ event = "Custom", name = "t", data = json({table}) }},
                  {{ event = "UnitStatusChanged", unit = "u", add = {{}} }},
                }}"#
            )
        };
        // the table and 4 items: 5 values, 40 bytes, fits exactly
        let read = events(&lua, &code("{ 1, 2, 3, 4 }")).unwrap();
        assert_eq!(
            read[1],
            Event::Custom {
                name: "t".into(),
                data: json!([1, 2, 3, 4]).into()
            }
        );
        assert_eq!(
            events(&lua, &code("{ 1, 2, 3, 4, 5 }")).unwrap_err(),
            "malformed event #2: hex.state.json: the events of one call carry more than 8 MiB \
             of JSON text"
        );
    }

    /// Text nesting objects is held to the same 100 levels as text nesting arrays.
    #[test]
    fn json_text_nesting_objects_or_arrays_past_100_levels_is_refused() {
        assert!(!json_depth_over(&json!([[[1]], {"a": {"b": 1}}]), 3));
        assert!(json_depth_over(&json!([[[[1]]]]), 3));
        assert!(json_depth_over(&json!({"a": {"b": {"c": {}}}}), 3));
        assert!(json_depth_over(&json!([{"a": [{}]}]), 3));
        assert!(!json_depth_over(&json!(1), 0));
        let lua = vm();
        let nested = |n: usize| format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n));
        for (n, kind) in [
            (100, "VarSet"),
            (101, "VarSet"),
            (100, "Custom"),
            (101, "Custom"),
        ] {
            lua.globals().set("text", nested(n)).unwrap();
            let code = match kind {
                "VarSet" => r#"return { event = "VarSet", key = "deep", value = json(text) }"#,
                _ => r#"return { event = "Custom", name = "deep", data = json(text) }"#,
            };
            let read = events(&lua, code);
            if n == 100 {
                assert_eq!(read.unwrap().len(), 1, "{n} {kind}");
            } else {
                assert_eq!(
                    read.unwrap_err(),
                    "malformed event: hex.state.json: the text nests arrays and objects more \
                     than 100 levels deep (a save could not hold it)",
                    "{n} {kind}"
                );
            }
        }
    }

    /// `hex.state.json` payloads in a list the one walk leaves to the general path (an empty
    /// `add`) are read there to the same events: a VarSet's value, a Custom event's data.
    #[test]
    fn json_payloads_read_on_the_general_path_make_the_same_events() {
        let lua = vm();
        let code = r#"return {
          { event = "UnitStatusChanged", unit = "u", add = {} },
          { event = "VarSet", key = "k", value = json("[1, {\"a\": null}]") },
          { event = "Custom", name = "n", data = json({ a = { true } }) },
        }"#;
        let t: Table = lua.load(code).eval().unwrap();
        assert_eq!(events_in_one_walk(&lua, &t), None);
        assert_eq!(
            events(&lua, code).unwrap(),
            vec![
                Event::UnitStatusChanged {
                    unit: "u".into(),
                    add: Vec::new(),
                    remove: Vec::new(),
                },
                Event::VarSet {
                    key: "k".into(),
                    value: json!([1, {"a": null}]).into()
                },
                Event::Custom {
                    name: "n".into(),
                    data: json!({"a": [true]}).into()
                },
            ]
        );
    }

    /// A Custom event carrying a VarSet's fields is refused, not read as a VarSet.
    #[test]
    fn a_custom_event_with_a_key_and_a_value_is_no_var_set() {
        let lua = vm();
        assert_eq!(
            events(
                &lua,
                r#"return { { event = "Custom", key = "k", value = 1 } }"#
            )
            .unwrap_err(),
            "malformed event #1: Custom: unknown field `key`, expected `name` or `data`"
        );
    }

    /// An event name no engine event has gets the nearest engine name and how a custom event
    /// is made.
    #[test]
    fn an_unknown_event_name_is_answered_with_the_nearest_and_hex_events_emit() {
        let lua = vm();
        assert_eq!(
            events(&lua, r#"return { event = "UnitMovd", unit = "u" }"#).unwrap_err(),
            "malformed event: UnitMovd: no engine event is called so (did you mean \
             'UnitMoved'?); a custom event is hex.events.emit(\"UnitMovd\", data)"
        );
    }

    /// A VarSet with a `hex.state.json` value and a list part too is refused as any event
    /// with a list part is (the list would be lost).
    #[test]
    fn a_json_payload_event_with_a_list_part_is_refused() {
        let lua = vm();
        assert_eq!(
            events(
                &lua,
                r#"return { "x", event = "VarSet", key = "k", value = json("1") }"#
            )
            .unwrap_err(),
            "malformed event: the value is read as a list of 1 item, but holds 4 keys: a list \
             with a hole, or with named keys beside its items, would lose some of them"
        );
    }

    /// What a table that is neither an event nor a list of events is told.
    #[test]
    fn a_table_of_other_keys_is_named_by_its_keys() {
        let lua = vm();
        for (code, expected) in [
            (
                r#"return { [0] = { event = "VarSet", key = "k", value = 1 } }"#,
                "a table that is neither an event (it has no `event` field; its keys: [0]) nor a \
                 list of events",
            ),
            (
                r#"return { [-1] = 1, [2.5] = 2, [true] = 3, [{}] = 4 }"#,
                "a table that is neither an event (it has no `event` field; its keys: [-1], \
                 [2.5], [true], a table key) nor a list of events",
            ),
            (
                r#"return { rule = "X-1", side = "blue" }"#,
                "a table that is neither an event (it has no `event` field; its keys: rule, side) \
                 nor a list of events",
            ),
            (
                r#"return { reason = "mud", side = "blue" }"#,
                "a table that is neither an event (it has no `event` field; its keys: reason, \
                 side) nor a list of events",
            ),
            (
                r#"return { reason = "mud", rule = "X-1" }"#,
                "a plain table {rule = ..., reason = ...}: a refusal is made with \
                 hex.refuse(rule, reason)",
            ),
        ] {
            assert_eq!(events(&lua, code).unwrap_err(), expected, "{code}");
        }
    }

    /// A number key in a table read as a map of names is explained in the script's words (the
    /// bridge said only "expected a string key").
    #[test]
    fn a_number_key_where_names_are_expected_is_explained() {
        let lua = Lua::new();
        let t: Value = lua.load("return { a = 1, [5] = 2 }").eval().unwrap();
        let e = lua.from_value::<serde_json::Value>(t).unwrap_err();
        assert_eq!(
            bridge_words(&e),
            "invalid type: integer `5`, expected a string key: a table whose keys are names \
             holds a number key (`[5] = ...`, or a list entry beside named keys)"
        );
    }
}
