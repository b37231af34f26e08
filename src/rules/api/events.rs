//! `hex.events`: subscribe handlers (with priorities; "before" handlers may veto) and build
//! custom events. Handlers are registered while modules load.

use mlua::{Function, Lua, Table, Value};

use super::{require_loading, HANDLERS_KEY};

fn subscribe(
    lua: &Lua,
    kind: &str,
    name: String,
    handler: Function,
    priority: Option<i64>,
) -> mlua::Result<()> {
    require_loading(lua, &format!("hex.events.{kind}"))?;
    let handlers: Table = lua.named_registry_value(HANDLERS_KEY)?;
    let entry = lua.create_table()?;
    entry.raw_set("kind", kind)?;
    entry.raw_set("name", name)?;
    entry.raw_set("fn", handler)?;
    entry.raw_set("priority", priority.unwrap_or(0))?;
    // (where the handler is registered, for warnings about the event's name: the function may
    // be written elsewhere, a library's handler maker)
    let at = lua.inspect_stack(1, |debug| {
        let file = debug
            .source()
            .short_src
            .as_deref()
            .unwrap_or("?")
            .to_string();
        debug.current_line().map(|line| format!("{file}:{line}"))
    });
    if let Some(Some(at)) = at {
        entry.raw_set("at", at)?;
    }
    handlers.raw_push(entry)
}

/// Registers `hex.events`.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.raw_set(
        "on",
        lua.create_function(
            |lua, (name, handler, priority): (String, Function, Option<i64>)| {
                subscribe(lua, "on", name, handler, priority)
            },
        )?,
    )?;
    t.raw_set(
        "before",
        lua.create_function(
            |lua, (name, handler, priority): (String, Function, Option<i64>)| {
                subscribe(lua, "before", name, handler, priority)
            },
        )?,
    )?;
    t.raw_set(
        "emit",
        lua.create_function(|lua, (name, data): (String, Option<Value>)| {
            let data = match data {
                // (as hex.state.set's value: a hex.state.json value as it is, a refusal naming
                // the call)
                Some(v) => crate::rules::convert::event_value(lua, v, "hex.events.emit")?,
                None => Value::NULL,
            };
            let event = lua.create_table()?;
            event.raw_set("event", "Custom")?;
            event.raw_set("name", name)?;
            event.raw_set("data", data)?;
            Ok(event)
        })?,
    )?;
    hex.raw_set("events", t)
}
