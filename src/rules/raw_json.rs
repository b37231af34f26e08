//! JSON values <-> Lua tables through the Lua C API, in one protected call per value.
//!
//! mlua's serde bridge and its safe table API cost a protected call (a `lua_pcall`) per key and
//! per string; a Diplomacy position is ~150 of them, which made reading and writing it the
//! biggest cost of adjudicating a phase. These walks push or read the whole tree inside one
//! `exec_raw`: several times cheaper, with the same result as the serde bridge for the shapes
//! they accept.
//!
//! Safety: the walks only call Lua C functions on values they pushed or that the caller passed,
//! keep their stack use checked (`lua_checkstack` at each level), and hold no Rust value with a
//! destructor in a frame a Lua error could unwind (reading never raises; writing can raise only
//! a memory error, from table or string creation, with nothing but references in the frames).

use mlua::{ffi, Lua, LuaSerdeExt, Table, Value};

use super::bounded::{DEPTH_LIMIT, VALUE_LIMIT};

/// `value` as Lua, exactly as `lua.to_value(value)` makes it (arrays carry mlua's array
/// metatable, null is `mlua::Value::NULL`, integers stay integers).
pub fn json_to_lua(lua: &Lua, value: &serde_json::Value) -> mlua::Result<Value> {
    match value {
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => {}
        // scalars: no table to build, the serde bridge is as cheap
        other => return lua.to_value(other),
    }
    let array_mt = lua.array_metatable();
    // SAFETY: see the module doc; `push` leaves exactly one value (the tree) above the
    // metatable argument, which exec_raw returns.
    unsafe {
        lua.exec_raw::<Value>(array_mt, |state| {
            push(state, value, 0);
            ffi::lua_remove(state, 1);
        })
    }
}

/// Pushes `value` (array metatable at stack index 1). Depth is bounded by the JSON itself (every
/// var came through a bounded conversion or serde_json's own recursion limit); the stack is
/// checked anyway.
unsafe fn push(state: *mut ffi::lua_State, value: &serde_json::Value, depth: usize) {
    if ffi::lua_checkstack(state, 4) == 0 || depth > DEPTH_LIMIT {
        // no room: raise a Lua error (caught by exec_raw's protected call)
        ffi::lua_pushstring(
            state,
            c"hex.state.get: the variable is nested too deep to convert".as_ptr(),
        );
        ffi::lua_error(state);
    }
    match value {
        serde_json::Value::Null => ffi::lua_pushlightuserdata(state, std::ptr::null_mut()),
        serde_json::Value::Bool(b) => ffi::lua_pushboolean(state, *b as i32),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => ffi::lua_pushinteger(state, i),
            None => ffi::lua_pushnumber(state, n.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(s) => {
            ffi::lua_pushlstring(state, s.as_ptr().cast(), s.len());
        }
        serde_json::Value::Array(a) => {
            ffi::lua_createtable(state, a.len() as i32, 0);
            for (i, x) in a.iter().enumerate() {
                push(state, x, depth + 1);
                ffi::lua_rawseti(state, -2, (i + 1) as ffi::lua_Integer);
            }
            ffi::lua_pushvalue(state, 1);
            ffi::lua_setmetatable(state, -2);
        }
        serde_json::Value::Object(m) => {
            ffi::lua_createtable(state, 0, m.len() as i32);
            for (k, x) in m {
                ffi::lua_pushlstring(state, k.as_ptr().cast(), k.len());
                push(state, x, depth + 1);
                ffi::lua_rawset(state, -3);
            }
        }
    }
}

/// A Lua sequence of strings (or `false` where an item is None), built in one protected call:
/// what `lua.create_sequence_from` makes, without a protected call per string.
pub fn string_sequence<'a>(
    lua: &Lua,
    items: impl ExactSizeIterator<Item = Option<&'a str>>,
) -> mlua::Result<Table> {
    // SAFETY: see the module doc; the frame holds the iterator, whose items are borrowed strs
    // (a memory error from lua_pushlstring would skip only its destructor, which frees nothing
    // for the map iterators this is called with).
    unsafe {
        lua.exec_raw::<Table>((), |state| {
            ffi::lua_createtable(state, items.len().min(1 << 24) as i32, 0);
            for (i, item) in items.enumerate() {
                match item {
                    Some(s) => {
                        ffi::lua_pushlstring(state, s.as_ptr().cast(), s.len());
                    }
                    None => ffi::lua_pushboolean(state, 0),
                }
                ffi::lua_rawseti(state, -2, (i + 1) as ffi::lua_Integer);
            }
        })
    }
}

/// A Lua table as JSON by the plain-data rule: a table whose length `#t` (raw) is above 0 is the
/// array `t[1..#t]` (holes are null, other keys ignored); an empty table is `{}`; any other table
/// is an object, all of whose keys must be strings. Values: strings (UTF-8), integers, finite
/// floats, booleans, `mlua::Value::NULL`, tables. Bounded like every conversion of a script's
/// value (`bounded::VALUE_LIMIT` values, `DEPTH_LIMIT` levels; a table shared at several places
/// counts at each). `values_left` is decreased by the values read.
pub fn lua_to_json(
    lua: &Lua,
    table: &Table,
    values_left: &mut usize,
) -> Result<serde_json::Value, String> {
    read_table(lua, table, values_left, false)
}

/// `lua_to_json` for tables whose reading is beyond doubt: an error for any empty table, any
/// table with both an array part and other keys, any hole. What it accepts, mlua's serde bridge
/// reads the same way (sequences as arrays, string-keyed tables as objects), so a caller may try
/// it first and fall back to the bridge on an error.
pub fn plain_lua_to_json(
    lua: &Lua,
    table: &Table,
    values_left: &mut usize,
) -> Result<serde_json::Value, String> {
    read_table(lua, table, values_left, true)
}

fn read_table(
    lua: &Lua,
    table: &Table,
    values_left: &mut usize,
    strict: bool,
) -> Result<serde_json::Value, String> {
    let mut out: Option<Result<serde_json::Value, String>> = None;
    let mut left = (*values_left).min(VALUE_LIMIT);
    // SAFETY: see the module doc; `read` raises no Lua error (only lua_rawlen, lua_rawgeti,
    // lua_next on keys it got from lua_next, lua_type and the to* functions on values of the
    // matching type) and pops what it pushes.
    let run = unsafe {
        lua.exec_raw::<()>(table, |state| {
            out = Some(read(state, ffi::lua_gettop(state), &mut left, 0, strict));
        })
    };
    run.map_err(|e| e.to_string())?;
    *values_left -= (*values_left).min(VALUE_LIMIT) - left;
    out.unwrap_or_else(|| Err("the table could not be read".into()))
}

unsafe fn read(
    state: *mut ffi::lua_State,
    idx: i32,
    left: &mut usize,
    depth: usize,
    strict: bool,
) -> Result<serde_json::Value, String> {
    if *left == 0 {
        return Err(format!(
            "the value holds more than {VALUE_LIMIT} values (a table shared at several places \
             counts at each)"
        ));
    }
    *left -= 1;
    match ffi::lua_type(state, idx) {
        ffi::LUA_TNIL if strict => Err("a list has a hole".into()),
        ffi::LUA_TNIL => Ok(serde_json::Value::Null),
        ffi::LUA_TBOOLEAN => Ok(serde_json::Value::Bool(ffi::lua_toboolean(state, idx) != 0)),
        ffi::LUA_TNUMBER => {
            if ffi::lua_isinteger(state, idx) != 0 {
                Ok(ffi::lua_tointegerx(state, idx, std::ptr::null_mut()).into())
            } else {
                let x = ffi::lua_tonumberx(state, idx, std::ptr::null_mut());
                serde_json::Number::from_f64(x)
                    .map(serde_json::Value::Number)
                    .ok_or_else(|| format!("the number {x} has no JSON form"))
            }
        }
        ffi::LUA_TSTRING => lua_str(state, idx).map(|s| serde_json::Value::String(s.into())),
        ffi::LUA_TLIGHTUSERDATA if ffi::lua_touserdata(state, idx).is_null() => {
            Ok(serde_json::Value::Null)
        }
        ffi::LUA_TTABLE => {
            if depth >= DEPTH_LIMIT {
                return Err(format!(
                    "tables nested more than {DEPTH_LIMIT} levels deep (a table that contains itself?)"
                ));
            }
            if ffi::lua_checkstack(state, 3) == 0 {
                return Err("the Lua stack is full".into());
            }
            let idx = ffi::lua_absindex(state, idx);
            let n = ffi::lua_rawlen(state, idx);
            if n > 0 {
                let mut items = Vec::with_capacity(n.min(1 << 16));
                for i in 1..=n {
                    ffi::lua_rawgeti(state, idx, i as ffi::lua_Integer);
                    let item = read(state, -1, left, depth + 1, strict);
                    ffi::lua_pop(state, 1);
                    items.push(item?);
                }
                if strict && key_count(state, idx) != n {
                    return Err("a table mixes a list and other keys".into());
                }
                return Ok(serde_json::Value::Array(items));
            }
            if strict {
                ffi::lua_pushnil(state);
                if ffi::lua_next(state, idx) == 0 {
                    return Err("an empty table (list or object?)".into());
                }
                ffi::lua_pop(state, 2);
            }
            let mut map = serde_json::Map::new();
            ffi::lua_pushnil(state);
            while ffi::lua_next(state, idx) != 0 {
                // key at -2, value at -1
                let key = if ffi::lua_type(state, -2) == ffi::LUA_TSTRING {
                    lua_str(state, -2)
                } else {
                    Err(format!(
                        "a table key is a {}, not a string",
                        type_name(state, -2)
                    ))
                };
                let item = key.and_then(|k| Ok((k, read(state, -1, left, depth + 1, strict)?)));
                match item {
                    Ok((k, v)) => {
                        map.insert(k.to_string(), v);
                        ffi::lua_pop(state, 1);
                    }
                    Err(e) => {
                        ffi::lua_pop(state, 2);
                        return Err(e);
                    }
                }
            }
            Ok(serde_json::Value::Object(map))
        }
        _ => Err(format!(
            "unsupported value type `{}`",
            type_name(state, idx)
        )),
    }
}

/// How many keys the table at `idx` (absolute) holds.
unsafe fn key_count(state: *mut ffi::lua_State, idx: i32) -> usize {
    let mut n = 0;
    ffi::lua_pushnil(state);
    while ffi::lua_next(state, idx) != 0 {
        n += 1;
        ffi::lua_pop(state, 1);
    }
    n
}

/// The string at `idx` (a string: `lua_tolstring` converts nothing), as UTF-8.
unsafe fn lua_str<'a>(state: *mut ffi::lua_State, idx: i32) -> Result<&'a str, String> {
    let mut len = 0usize;
    let p = ffi::lua_tolstring(state, idx, &mut len);
    if p.is_null() {
        return Err("a string could not be read".into());
    }
    let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len);
    std::str::from_utf8(bytes).map_err(|_| "a string is not valid UTF-8".into())
}

unsafe fn type_name(state: *mut ffi::lua_State, idx: i32) -> String {
    let p = ffi::lua_typename(state, ffi::lua_type(state, idx));
    std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn json_to_lua_makes_what_the_serde_bridge_makes() {
        let lua = Lua::new();
        let v = json!({"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE"]}, "n": 3,
            "x": 1.5, "none": null, "empty": [], "obj": {}, "ok": true, "deep": [[1, [2]]]});
        let fast = json_to_lua(&lua, &v).unwrap();
        let slow = lua.to_value(&v).unwrap();
        let check: mlua::Function = lua
            .load(
                r#"
                local function same(a, b)
                  if type(a) ~= type(b) then return false end
                  if type(a) ~= "table" then return a == b end
                  if getmetatable(a) ~= getmetatable(b) then return false end
                  for k, x in pairs(a) do if not same(x, b[k]) then return false end end
                  for k in pairs(b) do if a[k] == nil then return false end end
                  return true
                end
                return same
                "#,
            )
            .eval()
            .unwrap();
        assert!(check.call::<bool>((fast.clone(), slow)).unwrap());
        let back: serde_json::Value = lua.from_value(fast).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn string_sequence_is_the_sequence_of_the_items() {
        let lua = Lua::new();
        let t = string_sequence(&lua, [Some("a"), None, Some("")].into_iter()).unwrap();
        let v: Vec<Value> = t.sequence_values().collect::<mlua::Result<_>>().unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[0].to_string().unwrap(), "a");
        assert_eq!(v[1], Value::Boolean(false));
        assert_eq!(v[2].to_string().unwrap(), "");
    }

    #[test]
    fn lua_to_json_reads_plain_data() {
        let lua = Lua::new();
        let t: Table = lua
            .load(r#"return {a = {"x", "y", n = 1}, b = {}, c = 3, d = 2.5, e = false, f = {1, nil, 3}}"#)
            .eval()
            .unwrap();
        let mut left = 100;
        let v = lua_to_json(&lua, &t, &mut left).unwrap();
        assert_eq!(
            v,
            json!({"a": ["x", "y"], "b": {}, "c": 3, "d": 2.5, "e": false, "f": [1, null, 3]})
        );
        assert_eq!(left, 100 - 12);
    }

    #[test]
    fn plain_lua_to_json_refuses_what_could_read_two_ways() {
        let lua = Lua::new();
        for (code, msg) in [
            ("return {a = {}}", "an empty table (list or object?)"),
            (
                "return {a = {'x', n = 1}}",
                "a table mixes a list and other keys",
            ),
            ("return {a = {1, nil, 3}}", "a list has a hole"),
        ] {
            let t: Table = lua.load(code).eval().unwrap();
            let mut left = VALUE_LIMIT;
            assert_eq!(
                plain_lua_to_json(&lua, &t, &mut left).unwrap_err(),
                msg,
                "{code}"
            );
        }
        let t: Table = lua
            .load("return {event = 'UnitMoved', unit = 'u1', path = {'a', 'b'}, cost = 1.5}")
            .eval()
            .unwrap();
        let mut left = VALUE_LIMIT;
        assert_eq!(
            plain_lua_to_json(&lua, &t, &mut left).unwrap(),
            json!({"event": "UnitMoved", "unit": "u1", "path": ["a", "b"], "cost": 1.5})
        );
    }

    #[test]
    fn lua_to_json_refuses_what_json_cannot_hold() {
        let lua = Lua::new();
        for (code, msg) in [
            (
                "return {[2] = 'x', [3] = 'y'}",
                "a table key is a number, not a string",
            ),
            ("return {f = print}", "unsupported value type `function`"),
            ("return {x = 0/0}", "the number NaN has no JSON form"),
            (
                "local t = {}; t.t = t; return t",
                "tables nested more than 128 levels deep (a table that contains itself?)",
            ),
            ("return {s = '\\xff'}", "a string is not valid UTF-8"),
        ] {
            let t: Table = lua.load(code).eval().unwrap();
            let mut left = VALUE_LIMIT;
            assert_eq!(lua_to_json(&lua, &t, &mut left).unwrap_err(), msg, "{code}");
        }
        let t: Table = lua.load("return {1, 2, 3}").eval().unwrap();
        let mut left = 3;
        assert!(lua_to_json(&lua, &t, &mut left)
            .unwrap_err()
            .starts_with("the value holds more than"));
    }
}
