//! `hex.commands`: the rules' command handlers. `define(name, {resolve = f, legal = g})`
//! replaces an earlier module's definition (that is how variants override); `get(name)` returns
//! it so a variant can wrap it. `hex.refuse(rule, reason)` builds a refusal.

use mlua::{Lua, Table, Value};

use super::{require_loading, COMMANDS_KEY, REFUSAL_MT_KEY};

/// Registers `hex.commands` and `hex.refuse`.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.raw_set(
        "define",
        lua.create_function(|lua, (name, def): (String, Table)| {
            require_loading(lua, "hex.commands.define")?;
            match def.raw_get::<Value>("resolve")? {
                Value::Function(_) => {}
                _ => {
                    return Err(mlua::Error::runtime(format!(
                        "hex.commands.define(\"{name}\"): 'resolve' must be a function"
                    )))
                }
            }
            match def.raw_get::<Value>("legal")? {
                Value::Function(_) | Value::Nil => {}
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "hex.commands.define(\"{name}\"): 'legal' must be a function, not a {}",
                        other.type_name()
                    )))
                }
            }
            // (a misspelt `legal` would leave the command out of every legal list, silently)
            super::only_keys(
                &def,
                &["resolve", "legal"],
                &format!("hex.commands.define(\"{name}\")"),
            )?;
            let commands: Table = lua.named_registry_value(COMMANDS_KEY)?;
            commands.raw_set(name, def)
        })?,
    )?;
    t.raw_set(
        "get",
        lua.create_function(|lua, name: String| {
            let commands: Table = lua.named_registry_value(COMMANDS_KEY)?;
            commands.raw_get::<Value>(name)
        })?,
    )?;
    super::legal::register(lua, &t)?;
    hex.raw_set("commands", t)?;
    hex.raw_set(
        "refuse",
        lua.create_function(|lua, (rule, reason): (String, String)| {
            let refusal = lua.create_table()?;
            refusal.raw_set("rule", rule)?;
            refusal.raw_set("reason", reason)?;
            let mt: Table = lua.named_registry_value(REFUSAL_MT_KEY)?;
            refusal.set_metatable(Some(mt))?;
            Ok(refusal)
        })?,
    )
}
