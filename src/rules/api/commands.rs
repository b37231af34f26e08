//! `hex.commands`: the rules' command handlers. `define(name, {resolve = f, legal = g, args =
//! {...}})` replaces an earlier module's definition (that is how variants override); `get(name)`
//! returns it so a variant can wrap it. `hex.refuse(rule, reason)` builds a refusal.

use mlua::{Lua, Table, Value};

use super::{require_loading, COMMANDS_KEY, REFUSAL_MT_KEY};

/// The most argument names a command may declare: far above any command's needs, and a bound on
/// the host's work checking them (uncharged to the budget, as host work in a definition is).
const MAX_ARGS: usize = 256;

/// Reads a definition's `args`, the names of the arguments the command takes (besides
/// `command`): a list of distinct strings, or nothing (None: any argument is passed on).
fn args_list(def: &Table, name: &str) -> mlua::Result<Option<Vec<String>>> {
    let bad = |why: String| {
        Err(mlua::Error::runtime(format!(
            "hex.commands.define(\"{name}\"): 'args' {why}"
        )))
    };
    let args = match def.raw_get::<Value>("args")? {
        Value::Nil => return Ok(None),
        Value::Table(t) => t,
        other => {
            return bad(format!(
                "must be a list of argument names, not a {}",
                other.type_name()
            ))
        }
    };
    let n = args.raw_len();
    if n > MAX_ARGS {
        return bad(format!("lists {n} names (at most {MAX_ARGS})"));
    }
    let not_a_list = || {
        bad("must be a list of argument names (keys 1..n), like { \"unit\", \"target\" }".into())
    };
    let mut count = 0;
    for pair in args.pairs::<Value, Value>() {
        pair?;
        count += 1;
        if count > n {
            return not_a_list();
        }
    }
    if count != n {
        return not_a_list();
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut names = Vec::with_capacity(n);
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
        if !seen.insert(name.clone()) {
            return bad(format!("lists '{name}' twice"));
        }
        names.push(name);
    }
    Ok(Some(names))
}

/// A definition table of the host's own, `{resolve, legal, args}`, with `source`'s `resolve` and
/// `legal` (checked already) and `args`: the registry never holds a script's table (changed
/// after `define`, or through `get` during play, it would bypass the checks and make listings
/// differ from what a save resumes with).
fn definition(lua: &Lua, source: &Table, args: Option<&[String]>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("resolve", source.raw_get::<Value>("resolve")?)?;
    t.raw_set("legal", source.raw_get::<Value>("legal")?)?;
    if let Some(args) = args {
        t.raw_set(
            "args",
            super::string_list(lua, args.iter().map(String::as_str))?,
        )?;
    }
    Ok(t)
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
            let args = args_list(&def, &name)?;
            // (a misspelt `legal` would leave the command out of every legal list, silently)
            super::only_keys(
                &def,
                &["resolve", "legal", "args"],
                &format!("hex.commands.define(\"{name}\")"),
            )?;
            let own = definition(lua, &def, args.as_deref())?;
            let commands: Table = lua.named_registry_value(COMMANDS_KEY)?;
            commands.raw_set(name, own)
        })?,
    )?;
    t.raw_set(
        "get",
        // (a copy: changing it changes nothing; a variant defines the command again)
        // (nil for a command no module defined; a name one or two letters off a defined one
        // is an error naming it: `get("atack")` gave nil, and the wrapper then failed on it)
        lua.create_function(|lua, name: String| {
            let commands: Table = lua.named_registry_value(COMMANDS_KEY)?;
            let Some(def) = commands.raw_get::<Option<Table>>(name.as_str())? else {
                let mut defined = Vec::new();
                for pair in commands.pairs::<String, Value>() {
                    defined.push(pair?.0);
                }
                defined.sort();
                let near = crate::spelling::nearest(&name, defined.iter().map(String::as_str), 4);
                if let Some(near) = near {
                    return Err(mlua::Error::runtime(format!(
                        "hex.commands.get: no command '{name}' (did you mean '{near}'?)"
                    )));
                }
                return Ok(Value::Nil);
            };
            let args: Option<Vec<String>> = def.raw_get("args")?;
            Ok(Value::Table(definition(lua, &def, args.as_deref())?))
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
