//! `hex.log` and `print`: script output goes to the host's log, never to the terminal directly.

use mlua::{Lua, Table, Variadic};

use super::with_host;

fn join(values: Variadic<mlua::Value>) -> String {
    values
        .iter()
        .map(|v| {
            v.to_string()
                .unwrap_or_else(|_| format!("<{}>", v.type_name()))
        })
        .collect::<Vec<_>>()
        .join("\t")
}

/// Registers `hex.log` and a `print` that writes to the same place.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let log = lua.create_function(|lua, values: Variadic<mlua::Value>| {
        let line = join(values);
        with_host(lua, |h| {
            if h.log.len() < 10_000 {
                h.log.push(line);
            }
        })
    })?;
    hex.raw_set("log", log.clone())?;
    lua.globals().raw_set("print", log)
}
