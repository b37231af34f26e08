//! `hex.rules`: declarations made while modules load — the sequence of play, the victory rule,
//! and named declarations (movement profiles, tables) that the host compiles. A later module's
//! declaration replaces an earlier one. Hooks: `skip(fn(turn, step, phase) -> bool)` passes over
//! a step with nothing to do, `phase_label(fn(turn, step, phase) -> string)` names a step
//! (`"F1901R"`), `setup(fn(table) -> events | refusal)` reads a `--setup` file. A later module's
//! declaration replaces an earlier one; `get` returns the current one so a variant can extend it
//! (during play a read-only view of it: `declared_view`);
//! `loading()` says whether modules are loading now; `caller_error(msg)` refuses a query's question.

use mlua::{Function, Lua, Table, Value};

use super::{require_loading, with_host, DECLARATIONS_KEY};

/// The declarations table's entry that keeps where each declaration was made
/// (`rules/x/init.lua:12`).
pub(crate) const ORIGINS: &str = "__origins";

/// The error `hex.rules.caller_error` raises: the question a query was asked is wrong.
#[derive(Debug)]
pub(crate) struct CallerError(pub(crate) String);

impl std::fmt::Display for CallerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CallerError {}

/// The message of a `hex.rules.caller_error` anywhere in `error`'s chain.
pub(crate) fn caller_error_in(error: &mlua::Error) -> Option<&str> {
    match error {
        mlua::Error::ExternalError(e) => e.downcast_ref::<CallerError>().map(|c| c.0.as_str()),
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            caller_error_in(cause)
        }
        _ => None,
    }
}

/// Registers `hex.rules`.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.raw_set(
        "sequence",
        lua.create_function(|lua, sequence: Table| {
            require_loading(lua, "hex.rules.sequence")?;
            // (a misspelt key would leave the sequence without its steps or special turns)
            super::only_keys(lua, &sequence, &["steps", "special"], "hex.rules.sequence")?;
            let decls: Table = lua.named_registry_value(DECLARATIONS_KEY)?;
            note_origin(lua, &decls, "sequence")?;
            decls.raw_set("sequence", sequence)
        })?,
    )?;
    t.raw_set(
        "victory",
        lua.create_function(|lua, f: Function| {
            require_loading(lua, "hex.rules.victory")?;
            let decls: Table = lua.named_registry_value(DECLARATIONS_KEY)?;
            decls.raw_set("victory", f)
        })?,
    )?;
    // Hooks the engine consults (`Ruleset::skip_step`, `phase_label`, `setup`); each replaces
    // an earlier module's.
    for (name, what) in [
        ("skip", "hex.rules.skip"),
        ("phase_label", "hex.rules.phase_label"),
        ("setup", "hex.rules.setup"),
    ] {
        t.raw_set(
            name,
            lua.create_function(move |lua, f: Function| {
                require_loading(lua, what)?;
                let decls: Table = lua.named_registry_value(DECLARATIONS_KEY)?;
                decls.raw_set(name, f)
            })?,
        )?;
    }
    t.raw_set(
        "declare",
        lua.create_function(|lua, (key, value): (String, Value)| {
            require_loading(lua, "hex.rules.declare")?;
            check_declared_name(&key)?;
            let decls: Table = lua.named_registry_value(DECLARATIONS_KEY)?;
            note_origin(lua, &decls, &key)?;
            decls.raw_set(key, value)
        })?,
    )?;
    // A query the host may ask outside any command (`hexwar reach`, `hexwar supply`, bots):
    // `hex.rules.query("reach", function(unit_id) return {["0302"] = 2} end)`.
    t.raw_set(
        "query",
        lua.create_function(|lua, (name, f): (String, Value)| {
            // (a bot asking `hex.rules.query("reach", id)` met a conversion error: it declares
            // a query while the rules load; queries answer the host, scripts call the functions)
            if !with_host(lua, |h| h.loading)? {
                return Err(mlua::Error::runtime(
                    "hex.rules.query declares a query while rules modules load; during play the \
                     host asks the queries, and a script (a bot) calls the functions that answer them",
                ));
            }
            let Value::Function(f) = f else {
                return Err(mlua::Error::runtime(format!(
                    "hex.rules.query('{name}', fn): fn must be a function (the query's answer), not {}",
                    f.type_name()
                )));
            };
            let decls: Table = lua.named_registry_value(DECLARATIONS_KEY)?;
            let queries: Table = match decls.raw_get::<Value>("__queries")? {
                Value::Table(t) => t,
                _ => {
                    let t = lua.create_table()?;
                    decls.raw_set("__queries", t.clone())?;
                    t
                }
            };
            queries.raw_set(name, f)
        })?,
    )?;
    t.raw_set(
        "get",
        // (nil for a name no module declared; a name one or two letters off a declared one is
        // an error naming it, as `hex.commands.get` does: `get("stack_limt")` gave nil, which
        // a rule then read as "no limit")
        lua.create_function(|lua, key: String| {
            let decls: Table = lua.named_registry_value(DECLARATIONS_KEY)?;
            let value = decls.raw_get::<Value>(key.as_str())?;
            if !value.is_nil() {
                // (a variant extends a declaration while the modules load; in play it is read
                // only: the compiled rules and saves would not follow a change)
                // (a VM without host data, the LuaLS generator's, is never in play)
                if with_host(lua, |h| h.loading).unwrap_or(true) {
                    return Ok(value);
                }
                return super::declared_view::read_only(lua, value);
            }
            let mut declared = Vec::new();
            for pair in decls.pairs::<Value, Value>() {
                if let (Value::String(name), _) = pair? {
                    let name = name.to_string_lossy();
                    // (the host's own entries: `__queries`, `__origins`)
                    if !name.starts_with("__") {
                        declared.push(name);
                    }
                }
            }
            declared.sort();
            match crate::spelling::nearest(&key, declared.iter().map(String::as_str), 4) {
                Some(near) => Err(mlua::Error::runtime(format!(
                    "hex.rules.get: nothing declared as '{key}' (did you mean '{near}'?)"
                ))),
                None => Ok(Value::Nil),
            }
        })?,
    )?;
    // A query's refusal of its question: the asker's mistake (a program passing a string where
    // the query reads a table), which the host reports as a `HostCall` error with this message,
    // not as a bug in the rules with a traceback. Outside a query it is a script error.
    t.raw_set(
        "caller_error",
        lua.create_function(|_, message: String| -> mlua::Result<()> {
            Err(mlua::Error::external(CallerError(message)))
        })?,
    )?;
    // Whether the host is loading rules modules now: a library that makes the game when it is
    // loaded (a Diplomacy variant) installs it then, and only then.
    t.raw_set(
        "loading",
        lua.create_function(|lua, ()| with_host(lua, |h| h.loading))?,
    )?;
    hex.raw_set("rules", t)
}

/// The names the hooks above keep their functions under, in the same table as the declarations
/// (so `get("sequence")` gives the sequence a variant extends): `declare` may not take them.
const HOOK_NAMES: [&str; 5] = ["sequence", "victory", "skip", "phase_label", "setup"];

/// The declarations the host reads itself: a name one or two letters off one of them is
/// refused, since the host would go on without the table meant (`movment`: no movement rules,
/// found only when a handler searched a path).
const HOST_READ: [&str; 4] = ["movement", "facing", "phase_labels", "play_only_phase"];

/// Refuses a `declare` name that would replace a hook (`declare("victory", {...})` replaced the
/// game's victory rule, without a word, with a table the host then ignored), the host's own
/// entries (`__queries`), or a near miss of a declaration the host reads.
fn check_declared_name(key: &str) -> mlua::Result<()> {
    if let Some(hook) = HOOK_NAMES.iter().find(|h| **h == key) {
        return Err(mlua::Error::runtime(format!(
            "hex.rules.declare: '{key}' is where hex.rules.{hook} keeps its declaration; name \
             your own value otherwise (e.g. '{key}_settings')"
        )));
    }
    if key.starts_with("__") {
        return Err(mlua::Error::runtime(format!(
            "hex.rules.declare: '{key}': names beginning with '__' are the host's own"
        )));
    }
    // (one edit, or another case, only: two edits from `facing` are words of their own,
    // `fencing`, `spacing`, and from `movement`, `moment`)
    if !HOST_READ.contains(&key) {
        let near = HOST_READ
            .iter()
            .find(|known| known.eq_ignore_ascii_case(key) || strsim::osa_distance(known, key) <= 1);
        if let Some(near) = near {
            return Err(mlua::Error::runtime(format!(
                "hex.rules.declare: '{key}' (did you mean '{near}'? the host reads \
                 hex.rules.declare(\"{near}\", ...); name your own value apart from it)"
            )));
        }
    }
    Ok(())
}

/// Notes where the declaration `key` is being made (`rules/x/init.lua:12`, the calling script
/// line), for the errors of the Rust code that reads it after loading.
fn note_origin(lua: &Lua, decls: &Table, key: &str) -> mlua::Result<()> {
    let origin = lua.inspect_stack(1, |debug| {
        let src = debug.source();
        let file = src.short_src.as_deref().unwrap_or("?").to_string();
        debug.current_line().map(|line| format!("{file}:{line}"))
    });
    if let Some(Some(origin)) = origin {
        let origins: Table = match decls.raw_get::<Value>(ORIGINS)? {
            Value::Table(t) => t,
            _ => {
                let t = lua.create_table()?;
                decls.raw_set(ORIGINS, t.clone())?;
                t
            }
        };
        origins.raw_set(key, origin)?;
    }
    Ok(())
}
