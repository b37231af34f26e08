//! The sandboxed VM: base, table, string, math, utf8 and coroutine only, with the dangerous
//! parts of the base library removed or narrowed (DESIGN.md principle 5).

use std::sync::Arc;

use mlua::{Function, Lua, LuaOptions, MultiValue, StdLib, Table, Value, Variadic};

use super::budget::Budget;

/// Bytes of chunk text `load` compiles per unit of the instruction budget (compiling costs
/// more a byte than copying: see `lua_stack/library_guard.rs` for the copying rate).
const LOADED_BYTES_PER_UNIT: u64 = 1;

/// The most text one `load` compiles. Compiling is one C call the budget and the backstop cannot
/// interrupt, and some texts take the square of their length (a chain of 110 000 `elseif`
/// took 16.5 s from 1.5 MB); at this size such a chain takes about half a second.
const LOAD_MAX_BYTES: usize = 256 * 1024;

/// Bytes of heap a full collection walks per unit of the budget: `examples/charge_rates` times a
/// collection of a 139 MB heap of small tables at 68 ms, 0.49 ns a byte, about one VM
/// instruction's time per 11 bytes.
const COLLECTED_BYTES_PER_UNIT: u64 = 8;

/// A fresh VM with only the safe libraries; the library functions whose work grows with their
/// input charge it to `budget`.
pub fn new_vm(budget: &Arc<Budget>) -> mlua::Result<Lua> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    let globals = lua.globals();
    for name in ["dofile", "loadfile", "require", "print"] {
        globals.raw_set(name, Value::Nil)?;
    }
    // math.random would be a second, unseeded source of chance: dice come from hex.dice. A
    // script that reads it is told so (it was `attempt to call a nil value (field 'random')`).
    let math: mlua::Table = globals.get("math")?;
    for name in ["random", "randomseed"] {
        math.raw_set(name, Value::Nil)?;
    }
    let no_random = lua
        .load(
            r#"return function(_, key)
  if key == "random" or key == "randomseed" then
    error("math." .. key .. " is not in hexwar rules: chance comes from the host's seeded dice, hex.dice.roll(sides), so that a game replays", 2)
  end
end"#,
        )
        .set_name("=hexwar host")
        .eval::<mlua::Function>()?;
    let math_meta = lua.create_table()?;
    math_meta.raw_set("__index", no_random)?;
    math.set_metatable(Some(math_meta))?;
    let string: mlua::Table = globals.get("string")?;
    string.raw_set("dump", Value::Nil)?;
    // (first: the guard calls the library's original C functions directly)
    super::lua_stack::library_guard::guard_library(&lua, budget)?;
    guard_c_loops(&lua, &string, &globals.get::<Table>("table")?)?;
    // The string metatable is shared by every string in the VM: lock it, so a script cannot
    // change how all other scripts' strings behave.
    let meta: Table = lua.load("return getmetatable('')").eval()?;
    meta.raw_set(
        "__metatable",
        "strings' metatable is locked in hexwar rules",
    )?;

    // load: text chunks only, and only in the sandbox's globals unless an env is given.
    let raw_load: mlua::Function = globals.get("load")?;
    let safe_load = lua.create_function(move |lua, args: Variadic<Value>| {
        let chunk = args.first().cloned().unwrap_or(Value::Nil);
        if let Value::String(s) = &chunk {
            let text = s.as_bytes();
            if text.first() == Some(&0x1b) {
                return Err(mlua::Error::runtime(
                    "load: binary chunks are not allowed in hexwar rules",
                ));
            }
            if text.len() > LOAD_MAX_BYTES {
                return Err(too_long_to_load(text.len()));
            }
            super::budget::charge(lua, text.len() as u64 / LOADED_BYTES_PER_UNIT)?;
        }
        // A reader function's pieces are charged as a text chunk's bytes are.
        let chunk = match chunk {
            Value::Function(reader) => {
                let read = std::cell::Cell::new(0usize);
                Value::Function(lua.create_function(move |lua, ()| {
                    let piece: Value = reader.call(())?;
                    if let Value::String(s) = &piece {
                        let len = s.as_bytes().len();
                        read.set(read.get().saturating_add(len));
                        if read.get() > LOAD_MAX_BYTES {
                            return Err(too_long_to_load(read.get()));
                        }
                        super::budget::charge(lua, len as u64 / LOADED_BYTES_PER_UNIT)?;
                    }
                    Ok(piece)
                })?)
            }
            other => other,
        };
        // (a chunk named "@rules/demo/combat.lua" or "=..." would have its errors shown as that
        // file's lines: a loaded chunk is always named as one)
        let name = match args.get(1) {
            Some(Value::String(n)) if matches!(n.as_bytes().first(), Some(b'@' | b'=')) => {
                let mut named = b"=(load) ".to_vec();
                named.extend_from_slice(&n.as_bytes()[1..]);
                Value::String(lua.create_string(&named)?)
            }
            other => other.cloned().unwrap_or(Value::Nil),
        };
        let env = args.get(3).cloned().unwrap_or(Value::Nil);
        let mut call = vec![chunk, name, Value::String(lua.create_string("t")?)];
        if !env.is_nil() {
            call.push(env);
        }
        let loaded = raw_load.call::<mlua::MultiValue>(Variadic::from_iter(call))?;
        if loaded.get(1).is_some_and(is_memory_message) {
            if let Some(budget) = lua.app_data_ref::<Arc<Budget>>() {
                return Err(budget.exhaust_memory());
            }
        }
        // `load` turns an error its reader raises into `nil, message`, the budget's too: raised
        // again here, as the protected calls do (a reader looping for ever was caught each tick).
        if let Some(spent) = lua
            .app_data_ref::<Arc<Budget>>()
            .and_then(|b| b.exhausted_error())
        {
            return Err(spent);
        }
        Ok(loaded)
    })?;
    globals.raw_set("load", safe_load)?;

    // collectgarbage: only the options that do not let a script steer the host's collector. A
    // collection walks the whole heap in one call: `collect` and `step` (which may finish a
    // cycle) are charged by the heap in use, so a loop of them cannot run for hours. What the
    // collector would tell (the heap's size, whether a step ended a cycle) depends on the VM's
    // history, which a replay or a loaded save does not share: `count` is refused, and `collect`
    // and `step` return nothing.
    let raw_gc: mlua::Function = globals.get("collectgarbage")?;
    let safe_gc = lua.create_function(move |lua, args: Variadic<Value>| {
        let option = match args.first() {
            None | Some(Value::Nil) => "collect".to_string(),
            Some(Value::String(s)) => s.to_string_lossy(),
            Some(_) => return Err(mlua::Error::runtime("collectgarbage: option must be a string")),
        };
        match option.as_str() {
            "collect" | "step" => {
                let heap = u64::try_from(lua.used_memory()).unwrap_or(u64::MAX);
                super::budget::charge(lua, heap / COLLECTED_BYTES_PER_UNIT)?;
                raw_gc.call::<()>(args)?;
                Ok(mlua::MultiValue::new())
            }
            "isrunning" => raw_gc.call::<mlua::MultiValue>(args),
            "count" => Err(mlua::Error::runtime(
                "collectgarbage(\"count\") is not allowed in hexwar rules: the heap's size depends on what the VM did before, which a replay or a loaded save does not repeat",
            )),
            other => Err(mlua::Error::runtime(format!(
                "collectgarbage(\"{other}\") is not allowed in hexwar rules (allowed: collect, step, isrunning)"
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
    // xpcall: the message handler itself runs unprotected inside Lua's error handling, where
    // an error raised by the budget hook would leave hooks off and the handler looping for
    // ever. It is called through a guard that runs it protected and skips it once the budget
    // is spent.
    let raw_xpcall: Function = globals.get("xpcall")?;
    let xpcall_budget = Arc::clone(budget);
    let xpcall = lua.create_function(move |lua, mut args: MultiValue| {
        let f = args.pop_front().unwrap_or(Value::Nil);
        let handler = args.pop_front().unwrap_or(Value::Nil);
        let handler_budget = Arc::clone(&xpcall_budget);
        let guarded_handler = lua.create_function(move |_, message: Value| {
            if is_memory_message(&message) {
                handler_budget.exhaust_memory();
            }
            if handler_budget.exhausted_error().is_some() {
                return Ok(message);
            }
            match &handler {
                Value::Function(h) => Ok(h.call::<Value>(message.clone()).unwrap_or(message)),
                _ => Ok(message),
            }
        })?;
        let mut call = MultiValue::new();
        call.push_back(f);
        call.push_back(Value::Function(guarded_handler));
        call.extend(args);
        let result = raw_xpcall.call::<MultiValue>(call)?;
        // (Lua calls no message handler for a memory error: it comes back as the result)
        if caught_memory_error(&result) {
            return Err(xpcall_budget.exhaust_memory());
        }
        match xpcall_budget.exhausted_error() {
            Some(e) => Err(e),
            None => Ok(result),
        }
    })?;
    globals.raw_set("xpcall", xpcall)?;
    // setmetatable: Lua runs __gc finalizers with debug hooks switched off, so a looping
    // finalizer could never be stopped; scripts may not declare finalizers.
    let raw_setmetatable: Function = globals.get("setmetatable")?;
    let setmetatable = lua.create_function(move |_, (t, meta): (Value, Value)| {
        if let Value::Table(m) = &meta {
            if !m.raw_get::<Value>("__gc")?.is_nil() {
                return Err(mlua::Error::runtime(
                    "setmetatable: __gc finalizers are not allowed in hexwar rules (they run where no budget can stop them)",
                ));
            }
        }
        raw_setmetatable.call::<Value>((t, meta))
    })?;
    globals.raw_set("setmetatable", setmetatable)?;
    for (table, name) in [
        (&globals, "pcall"),
        (&coroutine, "resume"),
        // (close runs pending __close handlers protected: their budget error comes back as a value)
        (&coroutine, "close"),
    ] {
        let raw: Function = table.get(name)?;
        let budget = Arc::clone(budget);
        let guarded = lua.create_function(move |lua, args: MultiValue| {
            // (`pcall(hex.map.neighbors, {})`: the function called, to name in its error)
            let callee = args.front().cloned();
            let mut result = raw.call::<MultiValue>(args)?;
            if caught_memory_error(&result) {
                return Err(budget.exhaust_memory());
            }
            match budget.exhausted_error() {
                Some(e) => Err(e),
                None => {
                    caught_host_error_as_text(lua, &mut result, callee)?;
                    Ok(result)
                }
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
            if matches!(&result, Err(e) if super::budget::is_memory_error(e)) {
                return Err(budget.exhaust_memory());
            }
            match budget.exhausted_error() {
                Some(e) => Err(e),
                None => result,
            }
        })
    })?;
    coroutine.raw_set("wrap", wrap)
}

/// The most elements a `table.move`, `table.insert` or `table.remove` may shift in one call: a
/// table that large would pass any memory limit, so only a lying `__len` or a made-up range
/// gets there.
pub(crate) const C_LOOP_LIMIT: i64 = 1 << 24;

/// 2^63: the floats Lua reads as integers are the integral ones from -2^63 up to this.
const TWO_TO_63: f64 = 9_223_372_036_854_775_808.0;

/// Library functions that loop inside one C call, where the instruction budget cannot see:
/// `string.rep` of an empty string (n empty copies, however large n), `table.move` over a huge
/// range, `table.insert`/`table.remove` at a position far below a (lying) length. Each is
/// refused, naming itself and the numbers, instead of running for hours; every other call goes
/// to the original. (Rules call these rarely: a Rust guard is cheap enough here.)
fn guard_c_loops(lua: &Lua, string: &Table, table: &Table) -> mlua::Result<()> {
    let too_many = |name: &str, n: i64| {
        mlua::Error::runtime(format!(
            "{name}: {n} elements to shift in one call (at most {C_LOOP_LIMIT}: a lying __len or a made-up range?)"
        ))
    };
    // (a float is read as Lua reads it as an integer: integral, from -2^63 up to 2^63; a bound
    // of 9e18 let `table.move({}, 1, 9e18, 1, {})` through to a C loop of 9e18 elements)
    let int = |v: Option<&Value>| match v {
        Some(Value::Integer(i)) => Some(*i),
        Some(Value::Number(x)) if x.fract() == 0.0 && (-TWO_TO_63..TWO_TO_63).contains(x) => {
            Some(*x as i64)
        }
        _ => None,
    };
    let raw_rep: Function = string.get("rep")?;
    let rep = lua.create_function(move |lua, args: MultiValue| {
        let empty = |v: Option<&Value>| match v {
            Some(Value::String(s)) => s.as_bytes().is_empty(),
            None | Some(Value::Nil) => true,
            _ => false,
        };
        if matches!(args.front(), Some(Value::String(_)))
            && empty(args.front())
            && empty(args.get(2))
        {
            return Ok(MultiValue::from_vec(vec![Value::String(
                lua.create_string("")?,
            )]));
        }
        raw_rep.call::<MultiValue>(args)
    })?;
    string.raw_set("rep", rep)?;
    let raw_move: Function = table.get("move")?;
    let mv = lua.create_function(move |lua, args: MultiValue| {
        if let (Some(f), Some(e)) = (int(args.get(1)), int(args.get(2))) {
            if e >= f && e.saturating_sub(f) >= C_LOOP_LIMIT {
                return Err(too_many(
                    "table.move",
                    e.saturating_sub(f).saturating_add(1),
                ));
            }
            // (each element moved is a read and a write: charged one unit, as a value a
            // library call returns)
            if e >= f {
                let moved = e.saturating_sub(f).saturating_add(1);
                super::budget::charge(lua, u64::try_from(moved).unwrap_or(u64::MAX))?;
            }
        }
        raw_move.call::<MultiValue>(args)
    })?;
    table.raw_set("move", mv)?;
    for name in ["insert", "remove"] {
        let raw: Function = table.get(name)?;
        let label = format!("table.{name}");
        // (only a call given a position shifts elements, from it to the length: insert(t, pos, v),
        // remove(t, pos))
        let with_position = if name == "insert" { 3 } else { 2 };
        let guarded = lua.create_function(move |_, args: MultiValue| {
            if let (Some(Value::Table(t)), Some(pos)) = (args.front(), int(args.get(1))) {
                if args.len() >= with_position {
                    let len = t.len()?;
                    // (more than the limit below the length, as docs/sandbox.md says and
                    // the message's "at most" reads: exactly the limit is taken, as by move)
                    if len.saturating_sub(pos) > C_LOOP_LIMIT {
                        return Err(too_many(&label, len.saturating_sub(pos)));
                    }
                }
            }
            raw.call::<MultiValue>(args)
        })?;
        table.raw_set(name, guarded)?;
    }
    Ok(())
}

/// Lua patterns backtrack inside one C call, where the instruction budget cannot see. A pattern
/// with k places that can backtrack (quantifiers `* + - ?`, balances `%b`, back-references
/// `%1`..`%9`) over a subject of n bytes may try every way of sharing the n bytes among the k
/// places, from each of the n starting points, each step comparing up to the pattern's m bytes:
/// n * C(n + k, k) * m. The pattern functions
/// refuse a call whose estimate passes `PATTERN_STEPS` (a second or so), which no rule working on
/// labels, orders or names ever comes near.
pub(crate) const PATTERN_STEPS: f64 = 1.0e9;

pub(crate) fn pattern_cost(subject: &[u8], pattern: &[u8]) -> f64 {
    let mut places = 0usize;
    let mut i = 0;
    while i < pattern.len() {
        match pattern[i] {
            // (an escape: `%*` is a plain star; `%b` and `%1`..`%9` backtrack)
            b'%' => {
                if matches!(pattern.get(i + 1), Some(b'b' | b'1'..=b'9')) {
                    places += 1;
                }
                i += 2;
                continue;
            }
            b'*' | b'+' | b'-' | b'?' => places += 1,
            _ => {}
        }
        i += 1;
    }
    let n = subject.len();
    let mut steps = n.max(1) as f64 * pattern.len().max(1) as f64;
    // C(n + k, k), one factor at a time, stopping once past the limit
    let (few, many) = (places.min(n), places.max(n));
    for j in 1..=few {
        steps *= (many + j) as f64 / j as f64;
        if steps > PATTERN_STEPS {
            break;
        }
    }
    steps
}

/// The refusal of a chunk past `LOAD_MAX_BYTES`.
fn too_long_to_load(bytes: usize) -> mlua::Error {
    mlua::Error::runtime(format!(
        "load: a chunk of {bytes} bytes is too long (at most {LOAD_MAX_BYTES} in one load: compiling is one step the budget cannot interrupt)"
    ))
}

/// `rawset` would let a script write into the read-only `hex` tables, libraries and globals
/// behind their metatables.
pub fn guard_rawset(lua: &Lua) -> mlua::Result<()> {
    let globals = lua.globals();
    let raw: Function = globals.get("rawset")?;
    let guarded = lua.create_function(move |_, (t, k, v): (Table, Value, Value)| {
        let locked = t.metatable().is_some_and(|m| m.raw_get::<Value>("__hexwar_read_only").is_ok_and(|v| v == Value::Boolean(true)));
        if locked {
            return Err(mlua::Error::runtime("the hex API is read-only (rawset refused), as are the standard libraries and the globals; rules change the game by returning events"));
        }
        raw.call::<Table>((t, k, v))
    })?;
    globals.raw_set("rawset", guarded)
}

/// Whether a protected call's results are `false, "not enough memory"`: the VM's memory error,
/// caught (Lua hands it over as that string).
/// A host function's error caught by `pcall` (or a coroutine's `resume`) as the text of its
/// message: scripts read caught errors as strings (`err:match(...)`), and mlua hands them over
/// as an error object (userdata) whose text starts with the callback's traceback.
fn caught_host_error_as_text(
    lua: &Lua,
    result: &mut MultiValue,
    callee: Option<Value>,
) -> mlua::Result<()> {
    if !matches!(result.front(), Some(Value::Boolean(false))) {
        return Ok(());
    }
    if let Some(Value::Error(e)) = result.get(1) {
        // (called straight by `pcall`, a host function has no traceback frame naming it)
        let callee_name = || {
            let names = lua
                .named_registry_value::<Table>(super::api::FUNCTION_NAMES_KEY)
                .ok()?;
            names.raw_get::<Option<String>>(callee.clone()?).ok()?
        };
        let text = lua.create_string(innermost_message(e, &callee_name))?;
        result[1] = Value::String(text);
    }
    Ok(())
}

/// The message of the error a chain of callbacks wraps (`hex.map.neighbors: 'X' is not ...`).
/// An argument of the wrong type reads as the host's own reports word it (`bad argument #1 to
/// 'hex.map.neighbors' (string expected, got table)`), not as mlua's `bad argument #1: error
/// converting Lua table to String (expected string or number)`, which names no function;
/// `callee_name` names the function when no traceback frame does.
fn innermost_message(e: &mlua::Error, callee_name: &dyn Fn() -> Option<String>) -> String {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let called = super::error::host_function_called(traceback).or_else(callee_name);
            super::error::bad_argument(cause, called.as_deref())
                .unwrap_or_else(|| innermost_message(cause, callee_name))
        }
        mlua::Error::FromLuaConversionError { .. } => {
            super::error::conversion(e).unwrap_or_else(|| e.to_string())
        }
        mlua::Error::RuntimeError(message) => message.clone(),
        other => other.to_string(),
    }
}

fn caught_memory_error(result: &MultiValue) -> bool {
    matches!(result.front(), Some(Value::Boolean(false)))
        && result.get(1).is_some_and(is_memory_message)
}

fn is_memory_message(v: &Value) -> bool {
    match v {
        Value::String(s) => s.as_bytes() == b"not enough memory",
        // (raised inside a host function: mlua's error value)
        Value::Error(e) => super::budget::is_memory_error(e),
        _ => false,
    }
}

/// The libraries every script shares, behind read-only tables (the strings' metatable keeps the
/// real `string` table, and is locked).
const LIBRARIES: [&str; 5] = ["string", "table", "math", "utf8", "coroutine"];

/// Locks what every script of the VM shares: the libraries' tables and the globals. One VM
/// serves the whole game, so a script that replaced `pairs`, `string.format` or `hex` (even in a
/// command then refused, whose game state is rolled back) changed every later call, which a
/// replay without that command would not see. The globals move to a table behind an empty one:
/// a new global may be made while the rules modules load (a helper function), never during play,
/// and the standard names (`pairs`, `hex`, `string`, ...) never.
pub fn lock_globals(lua: &Lua) -> mlua::Result<()> {
    let globals = lua.globals();
    for name in LIBRARIES {
        let library: Table = globals.raw_get(name)?;
        globals.raw_set(name, read_only_library(lua, name, library)?)?;
    }
    let backing = lua.create_table()?;
    let backing_read = backing.clone();
    let mut standard = std::collections::BTreeSet::new();
    for pair in globals.clone().pairs::<Value, Value>() {
        let (key, value) = pair?;
        if let Value::String(name) = &key {
            standard.insert(name.to_string_lossy());
        }
        backing.raw_set(key, value)?;
    }
    for name in &standard {
        globals.raw_set(name.as_str(), Value::Nil)?;
    }
    let on_write = lua.create_function(move |lua, (_g, key, value): (Value, Value, Value)| {
        // (a string key is a global's name; any other key is named by its type)
        let (name, is_name) = match &key {
            Value::String(n) => (n.to_string_lossy(), true),
            other => (format!("a {} key", other.type_name()), false),
        };
        if is_name && standard.contains(&name) {
            return Err(mlua::Error::runtime(format!(
                "'{name}' is a standard global of hexwar rules and cannot be replaced (use a local)"
            )));
        }
        if !super::api::with_host(lua, |h| h.loading).unwrap_or(false) {
            return Err(mlua::Error::runtime(format!(
                "rules may not set globals during play (tried to set '{name}'): keep game state in hex.state, helpers in locals or module tables"
            )));
        }
        backing.raw_set(key, value)
    })?;
    super::api::lock_in_front(
        lua,
        &globals,
        backing_read,
        on_write,
        "the globals are locked in hexwar rules",
    )
}

/// A library's table behind a read-only one.
fn read_only_library(lua: &Lua, name: &'static str, library: Table) -> mlua::Result<Table> {
    let proxy = lua.create_table()?;
    let refuse = lua.create_function(move |_, (_t, key, _v): (Value, Value, Value)| -> mlua::Result<()> {
        Err(mlua::Error::runtime(format!(
            "the standard library is read-only in hexwar rules (tried to set '{name}.{}'): use a local",
            super::error::value_in_message(&key)
        )))
    })?;
    super::api::lock_in_front(
        lua,
        &proxy,
        library,
        refuse,
        "the standard libraries are locked in hexwar rules",
    )?;
    Ok(proxy)
}

#[cfg(test)]
mod tests {
    use super::{guard_protected_calls, new_vm, pattern_cost, PATTERN_STEPS};
    use crate::rules::budget::Budget;

    /// A sandboxed VM with a budget no test here reaches.
    fn vm() -> mlua::Lua {
        new_vm(&Budget::new(u64::MAX / 2)).expect("vm")
    }

    /// Runs `code` as a chunk named `guard.lua` and returns its error message (without the
    /// traceback mlua appends).
    fn error_of(code: &str) -> String {
        let lua = vm();
        match lua.load(code).set_name("@guard.lua").exec() {
            Err(mlua::Error::RuntimeError(message)) => {
                message.lines().next().unwrap_or_default().to_string()
            }
            other => panic!("expected a runtime error, got {other:?}"),
        }
    }

    /// The loop guards keep the library's results: rep with and without a separator, move,
    /// insert and remove at a position.
    #[test]
    fn guarded_table_and_rep_functions_answer_as_the_originals() {
        let lua = vm();
        let got: String = lua
            .load(
                r#"
                local t = {1, 2, 3}
                table.insert(t, 1, 0)
                table.insert(t, 4)
                local r = table.remove(t, 2)
                local m = table.move({7, 8}, 1, 2, 2, {9})
                return table.concat(t, ",") .. "|" .. r .. "|" .. table.concat(m, ",") .. "|"
                  .. string.rep("ab", 3, "-") .. "|" .. string.rep("", 5) .. "|" .. string.rep(4, 2)
                "#,
            )
            .eval()
            .expect("runs");
        assert_eq!(got, "0,2,3,4|1|9,7,8|ab-ab-ab||44");
    }

    /// The functions whose work is charged to the budget keep the library's results, defaults
    /// included (`table.concat` is handed its length by the guard).
    #[test]
    fn charged_library_functions_answer_as_the_originals() {
        let lua = vm();
        let got: String = lua
            .load(
                r##"
                local t = {3, 1, 2}
                table.sort(t)
                local s = "h\u{e9}llo"
                return table.concat({
                  table.concat(t, ","), table.concat({"a", "b", "c"}, "-", 2), s:sub(2, 3),
                  s:upper(), s:reverse():len(), table.concat({s:byte(1, 3)}, ","), utf8.len(s),
                  select("#", table.unpack({1, 2, nil, 4}, 1, 4)), string.format("%d-%s", 5, "x"),
                  utf8.offset(s, 3), table.concat({utf8.codepoint(s, 1, -1)}, ","),
                  (("a1b2"):gsub("%d", "#")), ("key=value"):match("(%w+)=(%w+)"),
                }, "|")
                "##,
            )
            .eval()
            .expect("runs");
        assert_eq!(
            got,
            "1,2,3|b-c|\u{e9}|H\u{e9}LLO|6|104,195,169|5|4|5-x|4|104,233,108,108,111|a#b#|key|value"
        );
    }

    #[test]
    fn each_pattern_function_refuses_an_expensive_pattern_naming_itself_and_the_line() {
        for (name, call) in [
            ("find", "string.find(s, '.-.-.-.-b')"),
            ("match", "s:match('.-.-.-.-b')"),
            ("gmatch", "string.gmatch(s, '.-.-.-.-b')"),
            ("gsub", "s:gsub('.-.-.-.-b', 'x')"),
        ] {
            let code = format!("local s = string.rep('a', 100000)\nlocal r = {call}\n");
            assert_eq!(
                error_of(&code),
                format!(
                    "guard.lua:2: string.{name}: pattern too expensive for a 100000-byte subject \
                     (it could run for hours); use fewer quantifiers or a shorter subject"
                ),
            );
        }
    }

    #[test]
    fn a_plain_find_is_not_refused_whatever_true_value_asks_for_it() {
        let lua = vm();
        let found: (Option<i64>, Option<i64>) = lua
            .load("local s = string.rep('a', 100000) .. '.-.-.-.-b'\nreturn s:find('.-.-.-.-b', 1, 1)")
            .eval()
            .expect("a plain find runs");
        assert_eq!(found, (Some(100001), Some(100009)));
    }

    #[test]
    fn guarded_functions_give_the_originals_results_and_errors() {
        let lua = vm();
        let results: String = lua
            .load(
                r#"
                local out = {}
                out[#out + 1] = table.concat({ ("F LON - NTH"):find("(%u+)%s*%-") }, ",")
                out[#out + 1] = ("A PAR S A MAR - BUR"):match("^(%u) (%u+)")
                for word in ("a  b c"):gmatch("%S+") do out[#out + 1] = word end
                out[#out + 1] = (("x1y2"):gsub("%d", function(d) return "<" .. d .. ">" end))
                out[#out + 1] = tostring(string.find(12345, 3))
                return table.concat(out, "|")
                "#,
            )
            .eval()
            .expect("runs");
        assert_eq!(results, "3,7,LON|A|a|b|c|x<1>y<2>|3");
        assert_eq!(
            error_of("string.find(nil, 'a')"),
            "guard.lua:1: bad argument #1 to 'find' (string expected, got nil)"
        );
    }

    /// `error` and a failing `assert` keep a message with NUL bytes whole, each written `\x00`
    /// (mlua's traceback read the message as a C string and ended it at the first NUL), and
    /// `error`'s level still names the caller it names.
    #[test]
    fn error_and_assert_keep_a_message_with_nul_bytes_whole() {
        assert_eq!(
            error_of("error('before\\0after')"),
            "guard.lua:1: before\\x00after"
        );
        assert_eq!(
            error_of("local function f() error('a\\0b\\0', 2) end\nf()"),
            "guard.lua:2: a\\x00b\\x00"
        );
        assert_eq!(error_of("error('a\\0b', 0)"), "a\\x00b");
        assert_eq!(error_of("assert(false, '\\0x')"), "guard.lua:1: \\x00x");
        assert_eq!(error_of("assert(nil, 'plain')"), "guard.lua:1: plain");
    }

    /// Only a string message holding a NUL changes: other messages, error objects and a passing
    /// `assert`'s values are the originals.
    #[test]
    fn error_and_assert_pass_other_values_unchanged() {
        let lua = vm();
        let results: String = lua
            .load(
                r#"
                local out = {}
                local t = {}
                local ok, e = pcall(error, t)
                out[#out + 1] = tostring(not ok and e == t)
                ok, e = pcall(error, "no nul", 0)
                out[#out + 1] = e
                out[#out + 1] = tostring(select(2, assert(1, "a\0b")) == "a\0b")
                ok, e = pcall(error, "x\0y", 0)
                out[#out + 1] = tostring(e == "x\\x00y")
                return table.concat(out, "|")
                "#,
            )
            .eval()
            .expect("runs");
        assert_eq!(results, "true|no nul|true|true");
    }

    /// The message of an error a host function raised (through mlua's callback wrapping).
    fn message(e: &mlua::Error) -> String {
        match e {
            mlua::Error::CallbackError { cause, .. } => message(cause),
            mlua::Error::RuntimeError(m) => m.clone(),
            other => other.to_string(),
        }
    }

    /// Runs `code` (named `s.lua`) and returns what it returns, or its error's message.
    fn eval(lua: &mlua::Lua, code: &str) -> Result<String, String> {
        lua.load(code)
            .set_name("@s.lua")
            .eval::<String>()
            .map_err(|e| message(&e))
    }

    fn too_long(bytes: usize) -> String {
        format!(
            "load: a chunk of {bytes} bytes is too long (at most 262144 in one load: compiling \
             is one step the budget cannot interrupt)"
        )
    }

    /// `load` compiles 256 KiB at most, as one text or as a reader's pieces together.
    #[test]
    fn load_takes_at_most_256_kib_as_text_or_from_a_reader() {
        let lua = vm();
        let text = |bytes: usize| format!("return ('ok') --{}", "x".repeat(bytes - 16));
        lua.globals().set("full", text(262_144)).unwrap();
        lua.globals().set("over", text(262_145)).unwrap();
        assert_eq!(eval(&lua, "return load(full)()"), Ok("ok".into()));
        assert_eq!(eval(&lua, "return load(over)()"), Err(too_long(262_145)));
        // a reader's pieces: 4 of 65 536 bytes, then one more byte or none
        let reader = |extra: usize| {
            format!(
                r#"local n = 0
                local f, e = load(function()
                  n = n + 1
                  if n <= 4 then return string.rep(" ", 65536) end
                  if n == 5 and {extra} > 0 then return string.rep(" ", {extra}) end
                  return nil
                end)
                return f and "compiled" or tostring(e)"#
            )
        };
        assert_eq!(eval(&lua, &reader(0)), Ok("compiled".into()));
        let refused = eval(&lua, &reader(1)).unwrap();
        assert!(refused.contains(&too_long(262_145)), "{refused}");
    }

    /// `load` charges what it compiles, a byte a unit, as one text or as a reader's pieces: four
    /// loads of 256 KiB pass a budget of a million units (the hook off: only charges count).
    #[test]
    fn load_charges_the_bytes_it_compiles_as_text_or_from_a_reader() {
        for (code, line) in [
            (
                "local text = 'return 1 --' .. string.rep(' ', 262133)\n\
                 for i = 1, 4 do load(text) end\n\
                 return 'loaded'",
                2,
            ),
            (
                "local piece = string.rep(' ', 65536)\n\
                 for i = 1, 4 do\n\
                 local n = 0\n\
                 load(function() n = n + 1 if n <= 4 then return piece end end)\n\
                 end\n\
                 return 'loaded'",
                4,
            ),
        ] {
            let budget = Budget::new(1_000_000);
            let lua = new_vm(&budget).unwrap();
            budget.install(&lua, 1 << 30, false).unwrap();
            budget.reset();
            assert_eq!(
                eval(&lua, code),
                Err(format!(
                    "s.lua:{line}: instruction budget of 1000000 instructions exceeded (an \
                     endless loop?); raise [limits] instructions in the scenario if the rule \
                     really needs more"
                )),
                "{code}"
            );
        }
    }

    /// A host function's error caught by `pcall` or `coroutine.resume` reaches the script as
    /// its message's text (mlua hands it over as an error object whose text starts with a
    /// traceback); a script's own error and a call that succeeds come back as they were.
    #[test]
    fn a_host_functions_error_caught_by_a_protected_call_is_its_message_as_text() {
        let budget = Budget::new(u64::MAX / 2);
        let lua = new_vm(&budget).unwrap();
        guard_protected_calls(&lua, &budget).unwrap();
        let refuse = lua
            .create_function(|_, ()| -> mlua::Result<()> {
                Err(mlua::Error::runtime("refused: no such hex"))
            })
            .unwrap();
        lua.globals().set("refuse", refuse).unwrap();
        assert_eq!(
            eval(
                &lua,
                "local _, caught = pcall(refuse)\n\
                 local _, resumed = coroutine.resume(coroutine.create(refuse))\n\
                 local _, own = pcall(error, {}, 0)\n\
                 local ok, value = pcall(string.upper, 'x')\n\
                 return type(caught) .. ': ' .. caught .. ' | ' .. type(resumed) .. ': ' \
                 .. resumed .. ' | ' .. type(own) .. ' | ' .. tostring(ok) .. ' ' .. value"
            ),
            Ok(
                "string: refused: no such hex | string: refused: no such hex | table | true X"
                    .into()
            )
        );
    }

    /// A chunk name written as a file's (`@...`, `=...`) is shown as `(load) ...`; any other
    /// name is Lua's own `[string "..."]`.
    #[test]
    fn only_a_chunk_name_written_as_a_files_is_renamed() {
        let lua = vm();
        for (name, shown) in [
            ("mine", "[string \"mine\"]:1: x"),
            ("=mine", "(load) mine:1: x"),
            ("@rules/a.lua", "(load) rules/a.lua:1: x"),
        ] {
            let code = format!("local ok, e = pcall(load(\"error('x')\", {name:?})) return e");
            assert_eq!(eval(&lua, &code), Ok(shown.to_string()), "{name}");
        }
    }

    /// A chunk runs in the environment `load` is given, else in the sandbox's globals.
    #[test]
    fn load_runs_a_chunk_in_the_env_given_else_in_the_globals() {
        let lua = vm();
        assert_eq!(
            eval(
                &lua,
                "return load('return x', 'c', 't', {x = 'given'})() .. type(load('return pairs')())"
            ),
            Ok("givenfunction".into())
        );
        assert_eq!(
            eval(&lua, "return type(load('return pairs', 'c', 't', {})())"),
            Ok("nil".into())
        );
    }

    /// `collectgarbage`: `collect` and `step` answer nothing and are charged by the heap (one
    /// unit per 8 bytes), `isrunning` answers; the rest is refused with its reason.
    #[test]
    fn collectgarbage_answers_nothing_is_charged_by_the_heap_and_refuses_the_rest() {
        let budget = Budget::new(4_000_000);
        let lua = new_vm(&budget).unwrap();
        budget.install(&lua, 1 << 30, false).unwrap();
        budget.reset();
        // a heap of about 2 MB: a collection is about 270 000 units, not eight times the heap
        assert_eq!(
            eval(
                &lua,
                "big = string.rep('x', 1 << 21)\n\
                 return select('#', collectgarbage()) .. select('#', collectgarbage('step')) \
                 .. tostring(collectgarbage('isrunning'))"
            ),
            Ok("00true".into())
        );
        assert_eq!(
            eval(
                &lua,
                "for i = 1, 100 do\n  collectgarbage()\nend\nreturn ''"
            ),
            Err(
                "s.lua:2: instruction budget of 4000000 instructions exceeded (an endless \
                 loop?); raise [limits] instructions in the scenario if the rule really needs \
                 more"
                    .into()
            )
        );
        budget.reset();
        for (call, refusal) in [
            (
                "collectgarbage('count')",
                "collectgarbage(\"count\") is not allowed in hexwar rules: the heap's size \
                 depends on what the VM did before, which a replay or a loaded save does not \
                 repeat",
            ),
            (
                "collectgarbage('stop')",
                "collectgarbage(\"stop\") is not allowed in hexwar rules (allowed: collect, \
                 step, isrunning)",
            ),
            (
                "collectgarbage(1)",
                "collectgarbage: option must be a string",
            ),
        ] {
            assert_eq!(
                eval(&lua, &format!("{call} return ''")),
                Err(refusal.to_string())
            );
        }
    }

    /// `rawset` refuses only a table whose metatable marks it read-only (`__hexwar_read_only =
    /// true`): a script's own table behind a metatable of its own is written, and returned.
    #[test]
    fn rawset_refuses_only_a_table_marked_read_only() {
        let lua = vm();
        super::guard_rawset(&lua).unwrap();
        assert_eq!(
            eval(
                &lua,
                "local t = setmetatable({}, {__newindex = error})\n\
                 return tostring(rawset(t, 'k', 'v') == t) .. rawget(t, 'k')"
            ),
            Ok("truev".into())
        );
        assert_eq!(
            eval(
                &lua,
                "local t = setmetatable({}, {__hexwar_read_only = 1})\n\
                 rawset(t, 'k', 'v') return t.k"
            ),
            Ok("v".into())
        );
        assert_eq!(
            eval(
                &lua,
                "rawset(setmetatable({}, {__hexwar_read_only = true}), 'k', 'v') return ''"
            ),
            Err(
                "the hex API is read-only (rawset refused), as are the standard libraries and \
                 the globals; rules change the game by returning events"
                    .into()
            )
        );
    }

    /// A VM set up as the host sets one up for its scripts' memory: protected calls guarded, a
    /// memory limit of `mib` MiB, a budget no test here reaches.
    fn vm_with_memory_limit(mib: usize) -> mlua::Lua {
        let budget = Budget::new(u64::MAX / 2);
        let lua = new_vm(&budget).unwrap();
        budget.install(&lua, mib << 20, false).unwrap();
        guard_protected_calls(&lua, &budget).unwrap();
        lua.set_memory_limit(mib << 20).unwrap();
        lua
    }

    /// A memory error is raised again, as the limit's own message, wherever a protected call or
    /// a wrapped coroutine caught it: raised inside a host function (`string.rep`), in Lua code,
    /// under `pcall`, `xpcall` or `coroutine.wrap`.
    #[test]
    fn a_memory_error_is_raised_again_by_every_protected_call() {
        let raised_again =
            "memory limit of 16 MiB exceeded (caught by a protected call and raised \
                            again: a script may not go on past the limit)";
        for code in [
            "pcall(string.rep, 'x', 1 << 26)",
            "xpcall(string.rep, print, 'x', 1 << 26)",
            "pcall(function() local s = 'x' while true do s = s .. s end end)",
            "coroutine.wrap(function() local s = 'x' while true do s = s .. s end end)()",
            "coroutine.wrap(string.rep)('x', 1 << 26)",
            "local ok = coroutine.resume(coroutine.create(string.rep), 'x', 1 << 26)",
        ] {
            let lua = vm_with_memory_limit(16);
            assert_eq!(
                eval(&lua, &format!("{code}\nreturn 'went on'")),
                Err(raised_again.to_string()),
                "{code}"
            );
        }
    }

    /// `xpcall`'s message handler still handles the error (it runs guarded).
    #[test]
    fn xpcall_hands_the_error_to_its_handler() {
        let budget = Budget::new(u64::MAX / 2);
        let lua = new_vm(&budget).unwrap();
        guard_protected_calls(&lua, &budget).unwrap();
        assert_eq!(
            eval(
                &lua,
                "local ok, e = xpcall(function() error('boom', 0) end, \
                 function(m) return 'handled: ' .. m end) return tostring(ok) .. ' ' .. e"
            ),
            Ok("false handled: boom".into())
        );
    }

    /// Runs `f` on a thread of its own and fails if it still runs after 20 s: a loop inside one
    /// call that a guard should have refused (left spinning: the test binary ends without it).
    fn at_once(f: impl FnOnce() + Send + 'static) {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            f();
            let _ = done.send(());
        });
        match finished.recv_timeout(std::time::Duration::from_secs(20)) {
            Ok(()) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                panic!("still running after 20 s: a loop inside one call the guards let through")
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("the call panicked"),
        }
    }

    /// `table.remove(t, pos)` under a lying length is refused as `insert` is; `insert(t, v)`
    /// (no position) shifts nothing and is not.
    #[test]
    fn table_remove_at_a_position_is_guarded_and_insert_without_one_is_not() {
        at_once(|| {
            let lua = vm();
            let lying =
                "local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end})\n";
            assert_eq!(
                eval(&lua, &format!("{lying}table.remove(t, 1) return ''")),
                Err(
                    "table.remove: 9223372036854775805 elements to shift in one call (at most \
                 16777216: a lying __len or a made-up range?)"
                        .into()
                )
            );
            assert_eq!(
                eval(
                    &lua,
                    &format!(
                        "{lying}table.insert(t, 5) return tostring(rawget(t, math.maxinteger))"
                    )
                ),
                Ok("5".into())
            );
        });
    }

    /// `table.move` shifts up to 2^24 elements in one call: a range one element longer is
    /// refused, naming its count.
    #[test]
    fn table_move_takes_exactly_the_limit_and_refuses_one_element_more() {
        at_once(|| {
            let lua = vm();
            assert_eq!(
                eval(&lua, "table.move({}, 1, 1 << 24, 1, {}) return 'moved'"),
                Ok("moved".into())
            );
            assert_eq!(
                eval(&lua, "table.move({}, 1, (1 << 24) + 1, 1, {}) return ''"),
                Err(
                    "table.move: 16777217 elements to shift in one call (at most 16777216: a \
                     lying __len or a made-up range?)"
                        .into()
                )
            );
        });
    }

    /// `table.remove(t, pos)` and `table.insert(t, pos, v)` are refused once the length is more
    /// than 2^24 past the position (the message's "at most"), and run at exactly 2^24.
    #[test]
    fn insert_and_remove_at_a_position_refuse_from_exactly_the_limit_past_it() {
        at_once(|| {
            let lua = vm();
            let lying = |len: &str| {
                format!("local t = setmetatable({{}}, {{__len = function() return {len} end}})\n")
            };
            for call in ["table.remove(t, 1)", "table.insert(t, 1, 'x')"] {
                assert_eq!(
                    eval(
                        &lua,
                        &format!("{}{call} return 'shifted'", lying("(1 << 24) + 1"))
                    ),
                    Ok("shifted".into()),
                    "{call}"
                );
                let name = &call[..12];
                assert_eq!(
                    eval(&lua, &format!("{}{call} return ''", lying("(1 << 24) + 2"))),
                    Err(format!(
                        "{name}: 16777217 elements to shift in one call (at most 16777216: a \
                         lying __len or a made-up range?)"
                    )),
                    "{call}"
                );
            }
        });
    }

    /// A range given as floats is read as the integers Lua reads them as: a made-up range of
    /// 9e18 elements is refused as one of 1e12 is (it ran in C for ever); a float Lua cannot read
    /// as an integer is Lua's own error.
    #[test]
    fn table_move_reads_a_float_range_as_lua_does() {
        at_once(|| {
            let lua = vm();
            for (range, elements) in [
                ("1, 1e12", "1000000000000"),
                ("1, 9e18", "9000000000000000000"),
                ("-9.2e18, 1", "9200000000000000002"),
            ] {
                assert_eq!(
                    eval(
                        &lua,
                        &format!("table.move({{}}, {range}, 1, {{}}) return ''")
                    ),
                    Err(format!(
                    "table.move: {elements} elements to shift in one call (at most 16777216: a \
                     lying __len or a made-up range?)"
                )),
                    "{range}"
                );
            }
            // (the original called from the guard is named '?')
            let not_integral = eval(&lua, "table.move({}, 1, 1e300, 1, {}) return ''").unwrap_err();
            assert_eq!(
                not_integral.lines().next(),
                Some("bad argument #3 to '?' (number has no integer representation)"),
            );
        });
    }

    /// `string.rep` of an empty string makes "" at once however many copies, separator or not.
    #[test]
    fn string_rep_of_an_empty_string_is_immediate_with_or_without_a_separator() {
        at_once(|| {
            let lua = vm();
            assert_eq!(
            eval(
                &lua,
                "return string.rep('', 1e12) .. string.rep('', 1e12, '') .. '|' .. string.rep('', 3, '-')"
            ),
            Ok("|--".into())
        );
        });
    }

    /// The pattern functions' estimate, n * C(n + k, k) * m: k counts `* + - ?`, `%b` and
    /// `%1`..`%9`, not an escaped character.
    #[test]
    fn pattern_cost_is_the_subjects_ways_to_share_among_the_backtracking_places() {
        at_once(|| {
            for (subject, pattern, steps) in [
                // n = 4, m = 3, k = 1: 12 * 5
                ("aaaa", "a*b", 60.0),
                // n = 10, m = 5, k = 2: 50 * 11 * 12 / 2
                ("aaaaaaaaaa", ".-.-b", 3300.0),
                // k = 1 for each of `+`, `?`, `%b`, `%1`; none for `%*`, `%a`
                ("abc", "a+", 3.0 * 2.0 * 4.0),
                ("abc", "a?", 3.0 * 2.0 * 4.0),
                ("abc", "%b()", 3.0 * 4.0 * 4.0),
                ("abc", "(a)%1", 3.0 * 5.0 * 4.0),
                ("abc", "%*%a", 3.0 * 4.0),
                // k = 3 on n = 2: C(5, 2), the fewer of n and k
                ("ab", "a*b*c*", 2.0 * 6.0 * 10.0),
                // an empty subject or pattern counts as one byte
                ("", "a*", 2.0),
                ("abc", "", 3.0),
            ] {
                assert_eq!(
                    pattern_cost(subject.as_bytes(), pattern.as_bytes()),
                    steps,
                    "{subject:?} {pattern:?}"
                );
            }
            // an estimate that is exactly the limit part way through goes on to its whole value
            // (2 * 32 000 * 15 625 = 10^9 after the first factor, then 15 626 / 2): refused
            let at_the_limit_first = format!("{}{}", "a-".repeat(15_624), "x".repeat(752));
            assert_eq!(pattern_cost(b"ab", at_the_limit_first.as_bytes()), 7.813e12);
            let long = "a".repeat(100_000);
            assert!(pattern_cost(long.as_bytes(), b".-.-.-.-b") > PATTERN_STEPS);
            assert!(pattern_cost(&long.as_bytes()[..1000], b"a*b") < PATTERN_STEPS);
        });
    }
}
