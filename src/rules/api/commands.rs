//! `hex.commands`: the rules' command handlers. `define(name, {resolve = f, legal = g, args =
//! {...}})` (`args`: the names it takes, or their kinds: `command_args`) replaces an earlier module's definition (that is how variants override); `get(name)`
//! returns it so a variant can wrap it. `hex.refuse(rule, reason)` builds a refusal.

use mlua::{Lua, Table, Value};

use super::{require_loading, COMMANDS_KEY, REFUSAL_MT_KEY};
use crate::rules::command_args::{ArgKind, ArgSpec};

/// The most argument names a command may declare: far above any command's needs, and a bound on
/// the host's work checking them (uncharged to the budget, as host work in a definition is).
const MAX_ARGS: usize = 256;

/// Reads a definition's `args`: a list of distinct argument names (besides `command`), which
/// then take any value, and/or their kinds keyed by name, `{unit = "unit", to = "place", note =
/// "string?"}` (`command_args`); nothing (None) when absent: any argument is passed on.
pub(crate) fn args_list(def: &Table, name: &str) -> mlua::Result<Option<Vec<ArgSpec>>> {
    let bad = |why: String| {
        mlua::Error::runtime(format!("hex.commands.define(\"{name}\"): 'args' {why}"))
    };
    let args = match def.raw_get::<Value>("args")? {
        Value::Nil => return Ok(None),
        Value::Table(t) => t,
        other => {
            return Err(bad(format!(
                "must be a list of argument names or a table of their kinds, not a {}",
                other.type_name()
            )))
        }
    };
    let n = args.raw_len();
    let mut count = 0;
    for pair in args.pairs::<Value, Value>() {
        pair?;
        count += 1;
        if count > MAX_ARGS {
            return Err(bad(format!("declares more than {MAX_ARGS} arguments")));
        }
    }
    let text = |v: &Value, what: &str, expected: &str| -> mlua::Result<String> {
        match v {
            Value::String(s) => match s.to_str() {
                Ok(s) => Ok(s.to_string()),
                Err(_) => Err(bad(format!("{what} is not UTF-8 text"))),
            },
            other => Err(bad(format!(
                "{what} is {}, not {expected}",
                crate::rules::error::value_in_message(other)
            ))),
        }
    };
    const NAME: &str = "an argument name (a string)";
    let check_name = |arg: &str, specs: &[ArgSpec]| -> mlua::Result<()> {
        if arg == "command" {
            return Err(bad(
                "lists 'command', which every command has: leave it out".into(),
            ));
        }
        if specs.iter().any(|s| s.name == arg) {
            return Err(bad(format!("lists '{arg}' twice")));
        }
        Ok(())
    };
    // Names listed 1..n (any value, optional), then kinds keyed by name, in name order: a
    // wrapper may add a name to a command whose arguments have kinds (`args[#args + 1] = "note"`).
    let mut specs: Vec<ArgSpec> = Vec::with_capacity(count);
    for i in 1..=n {
        let arg = text(&args.raw_get::<Value>(i)?, &format!("#{i}"), NAME)?;
        check_name(&arg, &specs)?;
        specs.push(ArgSpec {
            name: arg,
            kind: None,
        });
    }
    let mut kinds: Vec<(String, String)> = Vec::with_capacity(count - n.min(count));
    for pair in args.pairs::<Value, Value>() {
        let (k, v) = pair?;
        match k {
            Value::Integer(i) if i >= 1 && (i as usize) <= n => {}
            Value::String(_) => {
                let arg = text(&k, "a key", NAME)?;
                let kind = text(
                    &v,
                    &format!("'{arg}'"),
                    "a kind (a string such as \"place\")",
                )?;
                kinds.push((arg, kind));
            }
            other => {
                return Err(bad(format!(
                    "has the key {}: names are listed 1, 2, 3 ... without gaps, like {{ \"unit\", \
                     \"target\" }}, and kinds keyed by name, like {{ unit = \"unit\", target = \
                     \"place\" }}",
                    crate::rules::error::value_in_message(&other)
                )))
            }
        }
    }
    kinds.sort();
    for (arg, kind) in kinds {
        check_name(&arg, &specs)?;
        let kind = ArgKind::parse(&kind).map_err(|e| bad(format!("'{arg}': {e}")))?;
        specs.push(ArgSpec {
            name: arg,
            kind: Some(kind),
        });
    }
    Ok(Some(specs))
}

/// The arguments an engine command's order can carry (`Command::try_from` refuses any other
/// before the rules see it): a declaration naming another could never be given, so it is an
/// error where it is written rather than an argument silently never seen.
fn engine_command_args(name: &str, args: &[ArgSpec]) -> mlua::Result<()> {
    let (takes, allowed): (&str, &[&str]) = match name {
        "end_phase" => ("no arguments", &[]),
        "move" => (
            "unit and path (or to); facing and units in a facing game",
            &["unit", "path", "to", "units", "facing"],
        ),
        _ => return Ok(()),
    };
    match args.iter().find(|a| !allowed.contains(&a.name.as_str())) {
        Some(extra) => Err(mlua::Error::runtime(format!(
            "hex.commands.define(\"{name}\"): 'args' declares '{}', but the engine's {name} \
             takes {takes}: an order could never give it (a command that needs more takes a \
             name of its own)",
            extra.name
        ))),
        None => Ok(()),
    }
}

/// A definition table of the host's own, `{resolve, legal, args}`, with `source`'s `resolve` and
/// `legal` (checked already) and `args`: the registry never holds a script's table (changed
/// after `define`, or through `get` during play, it would bypass the checks and make listings
/// differ from what a save resumes with).
fn definition(lua: &Lua, source: &Table, args: Option<&[ArgSpec]>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("resolve", source.raw_get::<Value>("resolve")?)?;
    t.raw_set("legal", source.raw_get::<Value>("legal")?)?;
    if let Some(args) = args {
        // (in the form it was declared: names, or a table of kinds)
        let table = if args.iter().any(|a| a.kind.is_some()) {
            let kinds = lua.create_table()?;
            for a in args {
                // (a name given without a kind takes any value and may be left out)
                let kind = a.kind.as_ref().map_or("any?", |k| k.written.as_str());
                kinds.raw_set(a.name.as_str(), kind)?;
            }
            kinds
        } else {
            super::string_list(lua, args.iter().map(|a| a.name.as_str()))?
        };
        t.raw_set("args", table)?;
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
            // (no order can name a command called "" or "  ": it would never be given)
            if name.trim().is_empty() {
                return Err(mlua::Error::runtime(format!(
                    "hex.commands.define({name:?}): a command needs a name (`move`, `attack`, ...)"
                )));
            }
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
            if let Some(args) = &args {
                engine_command_args(&name, args)?;
            }
            // (a misspelt `legal` would leave the command out of every legal list, silently)
            super::only_keys(
                lua,
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
            let args = args_list(&def, &name)?;
            Ok(Value::Table(definition(lua, &def, args.as_deref())?))
        })?,
    )?;
    super::legal::register(lua, &t)?;
    hex.raw_set("commands", t)?;
    hex.raw_set(
        "refuse",
        lua.create_function(|lua, (rule, reason): (Value, Value)| {
            // (strings only: a number was taken for a rule id, `hex.refuse(3, "mud")`, and the
            // refusal read `3 mud`)
            let text = |what: &str, v: Value| match v {
                Value::String(s) => Ok(s),
                other => Err(mlua::Error::runtime(format!(
                    "hex.refuse: the {what} must be a string{}, not {}",
                    if what == "rule" {
                        " naming the rule (\"F40-6.4\")"
                    } else {
                        ""
                    },
                    match other {
                        Value::Nil => "nil".to_string(),
                        Value::Integer(i) => format!("a number, {i}"),
                        Value::Number(n) => format!("a number, {n}"),
                        other => format!("a {}", other.type_name()),
                    }
                ))),
            };
            let (rule, reason) = (text("rule", rule)?, text("reason", reason)?);
            let refusal = lua.create_table()?;
            refusal.raw_set("rule", rule)?;
            refusal.raw_set("reason", reason)?;
            let mt: Table = lua.named_registry_value(REFUSAL_MT_KEY)?;
            refusal.set_metatable(Some(mt))?;
            Ok(refusal)
        })?,
    )
}
