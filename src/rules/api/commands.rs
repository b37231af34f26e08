//! `hex.commands`: the rules' command handlers. `define(name, {resolve = f, legal = g, args =
//! {...}})` replaces an earlier module's definition (that is how variants override); `get(name)`
//! returns it so a variant can wrap it. `hex.refuse(rule, reason)` builds a refusal.

use mlua::{Lua, Table, Value};

use super::{require_loading, COMMANDS_KEY, REFUSAL_MT_KEY};

/// Checks a definition's `args`, the names of the arguments the command takes (besides
/// `command`): a list of distinct strings, or nothing (any argument is passed on).
fn check_args_list(def: &Table, name: &str) -> mlua::Result<()> {
    let bad = |why: String| {
        Err(mlua::Error::runtime(format!(
            "hex.commands.define(\"{name}\"): 'args' {why}"
        )))
    };
    let args = match def.raw_get::<Value>("args")? {
        Value::Nil => return Ok(()),
        Value::Table(t) => t,
        other => {
            return bad(format!(
                "must be a list of argument names, not a {}",
                other.type_name()
            ))
        }
    };
    let n = args.raw_len();
    if args.pairs::<Value, Value>().count() != n {
        return bad(
            "must be a list of argument names (keys 1..n), like { \"unit\", \"target\" }".into(),
        );
    }
    let mut seen: Vec<String> = Vec::with_capacity(n);
    for i in 1..=n {
        let name = match args.raw_get::<Value>(i)? {
            Value::String(s) => match s.to_str() {
                Ok(s) => s.to_string(),
                Err(_) => return bad(format!("#{i} is not UTF-8 text")),
            },
            other => {
                return bad(format!(
                    "#{i} is {}, not an argument name (a string)",
                    crate::rules::error::value_in_message(&other)
                ))
            }
        };
        if name == "command" {
            return bad("lists 'command', which every command has: leave it out".into());
        }
        if seen.contains(&name) {
            return bad(format!("lists '{name}' twice"));
        }
        seen.push(name);
    }
    Ok(())
}

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
            check_args_list(&def, &name)?;
            // (a misspelt `legal` would leave the command out of every legal list, silently)
            super::only_keys(
                &def,
                &["resolve", "legal", "args"],
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
