//! The sandboxed VM: base, table, string, math, utf8 and coroutine only, with the dangerous
//! parts of the base library removed or narrowed (DESIGN.md principle 5).

use std::sync::Arc;

use mlua::{Function, Lua, LuaOptions, MultiValue, StdLib, Table, Value, Variadic};

use super::budget::Budget;

/// A fresh VM with only the safe libraries.
pub fn new_vm() -> mlua::Result<Lua> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    let globals = lua.globals();
    for name in ["dofile", "loadfile", "require", "print"] {
        globals.raw_set(name, Value::Nil)?;
    }
    // math.random would be a second, unseeded source of chance: dice come from hex.dice.
    let math: mlua::Table = globals.get("math")?;
    for name in ["random", "randomseed"] {
        math.raw_set(name, Value::Nil)?;
    }
    let string: mlua::Table = globals.get("string")?;
    string.raw_set("dump", Value::Nil)?;

    // load: text chunks only, and only in the sandbox's globals unless an env is given.
    let raw_load: mlua::Function = globals.get("load")?;
    let safe_load = lua.create_function(move |lua, args: Variadic<Value>| {
        let chunk = args.first().cloned().unwrap_or(Value::Nil);
        if let Value::String(s) = &chunk {
            if s.as_bytes().first() == Some(&0x1b) {
                return Err(mlua::Error::runtime(
                    "load: binary chunks are not allowed in hexwar rules",
                ));
            }
        }
        let name = args.get(1).cloned().unwrap_or(Value::Nil);
        let env = args.get(3).cloned().unwrap_or(Value::Nil);
        let mut call = vec![chunk, name, Value::String(lua.create_string("t")?)];
        if !env.is_nil() {
            call.push(env);
        }
        raw_load.call::<mlua::MultiValue>(Variadic::from_iter(call))
    })?;
    globals.raw_set("load", safe_load)?;

    // collectgarbage: only the options that do not let a script steer the host's collector.
    let raw_gc: mlua::Function = globals.get("collectgarbage")?;
    let safe_gc = lua.create_function(move |_, args: Variadic<Value>| {
        let option = match args.first() {
            None | Some(Value::Nil) => "collect".to_string(),
            Some(Value::String(s)) => s.to_string_lossy(),
            Some(_) => return Err(mlua::Error::runtime("collectgarbage: option must be a string")),
        };
        match option.as_str() {
            "collect" | "count" | "step" | "isrunning" => raw_gc.call::<mlua::MultiValue>(args),
            other => Err(mlua::Error::runtime(format!(
                "collectgarbage(\"{other}\") is not allowed in hexwar rules (allowed: collect, count, step, isrunning)"
            ))),
        }
    })?;
    globals.raw_set("collectgarbage", safe_gc)?;
    Ok(lua)
}

/// Wraps the protected-call functions (`pcall`, `xpcall`, `coroutine.resume`, `coroutine.wrap`)
/// so that an exhausted instruction budget is raised again instead of being caught: a script
/// that loops around `pcall` still stops.
pub fn guard_protected_calls(lua: &Lua, budget: &Arc<Budget>) -> mlua::Result<()> {
    let globals = lua.globals();
    let coroutine: Table = globals.get("coroutine")?;
    for (table, name) in [
        (&globals, "pcall"),
        (&globals, "xpcall"),
        (&coroutine, "resume"),
    ] {
        let raw: Function = table.get(name)?;
        let budget = Arc::clone(budget);
        let guarded = lua.create_function(move |_, args: MultiValue| {
            let result = raw.call::<MultiValue>(args)?;
            match budget.exhausted_error() {
                Some(e) => Err(e),
                None => Ok(result),
            }
        })?;
        table.raw_set(name, guarded)?;
    }
    // coroutine.wrap raises errors itself; wrap the function it returns so a budget error
    // caught inside still surfaces.
    let raw_wrap: Function = coroutine.get("wrap")?;
    let budget = Arc::clone(budget);
    let wrap = lua.create_function(move |lua, f: Function| {
        let inner: Function = raw_wrap.call(f)?;
        let budget = Arc::clone(&budget);
        lua.create_function(move |_, args: MultiValue| {
            let result = inner.call::<MultiValue>(args);
            match budget.exhausted_error() {
                Some(e) => Err(e),
                None => result,
            }
        })
    })?;
    coroutine.raw_set("wrap", wrap)
}
