//! Lua tables read into JSON straight from the Lua stack, in one protected call per table.
//!
//! mlua's serde bridge costs a protected call per key and per string; a Diplomacy position is
//! ~150 of them. This walk reads the whole tree inside one `exec_raw`, with the same result as
//! the bridge for the shapes it accepts. It raises no Lua error: the safety argument is in the
//! parent module's docs (`lua_stack`).

use mlua::{ffi, Lua, LuaSerdeExt, Table};

use crate::rules::bounded::{charge_text, DEPTH_LIMIT, VALUE_LIMIT};

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
    // SAFETY: see the `lua_stack` docs; `read` raises no Lua error (only lua_rawlen, lua_rawgeti,
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
        ffi::LUA_TSTRING => {
            let s = lua_str(state, idx)?;
            charge_text(s.len(), left)?;
            Ok(serde_json::Value::String(s.into()))
        }
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
            // (a table marked as a list, by `hex.state.list` or as `hex.state.get` gives an
            // array, is one even when empty: the `[]` mlua's serde bridge reads it as)
            if n == 0 && is_marked_list(state, idx) {
                return Ok(serde_json::Value::Array(Vec::new()));
            }
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

/// The hex indices of `list`, a Lua sequence of hex labels, looked up in `index` (the VM's
/// table label -> hex index, `api::map::labels`): one protected call, no label copied to Rust
/// or parsed. The inner error names the first item that is not a label of the map. Like `read`,
/// the walk raises no Lua error (lua_rawlen, lua_rawgeti, lua_pushvalue, lua_rawget on a plain
/// table, lua_type and the to* functions on values of the matching type) and pops what it pushes.
pub(crate) fn hex_indices(
    lua: &Lua,
    list: &Table,
    index: &Table,
) -> mlua::Result<Result<Vec<u32>, String>> {
    let mut out: Option<Result<Vec<u32>, String>> = None;
    // SAFETY: see above and the `lua_stack` docs; the closure only borrows `out`.
    unsafe {
        lua.exec_raw::<()>((list, index), |state| {
            out = Some(indices_walk(state));
        })?;
    }
    Ok(out.unwrap_or_else(|| Err("the list could not be read".into())))
}

/// The first key of `table` that is not one of `allowed`: `Ok(name)` for a string key,
/// `Err(type name)` for another. The check of a table's keys (a query's options, made once per
/// call), so one protected call and no key copied to Rust (mlua's `pairs` made a reference of
/// every key and value, about 6 000 machine instructions an options table). The walk raises
/// no Lua error (lua_next on keys it got from lua_next, lua_type and lua_tolstring on string
/// keys) and pops what it pushes.
pub(crate) fn key_not_in(
    lua: &Lua,
    table: &Table,
    allowed: &[&str],
) -> mlua::Result<Option<Result<String, String>>> {
    let mut out: Option<Result<String, String>> = None;
    // SAFETY: see above and the `lua_stack` docs; the closure only borrows `out` and `allowed`.
    unsafe {
        lua.exec_raw::<()>(table, |state| {
            if ffi::lua_checkstack(state, 3) == 0 {
                out = Some(Err("(the Lua stack is full)".into()));
                return;
            }
            ffi::lua_pushnil(state);
            while ffi::lua_next(state, 1) != 0 {
                // (lua_tolstring only on a string key: on a number it would convert the key in
                // place and break lua_next)
                let name = if ffi::lua_type(state, -2) == ffi::LUA_TSTRING {
                    lua_str(state, -2).ok()
                } else {
                    None
                };
                if !name.is_some_and(|k| allowed.contains(&k)) {
                    out = Some(match name {
                        Some(k) => Ok(k.to_string()),
                        None => Err(type_name(state, -2)),
                    });
                    ffi::lua_pop(state, 2);
                    return;
                }
                ffi::lua_pop(state, 1);
            }
        })?;
    }
    Ok(out)
}

/// The first key that is not one of `allowed` in the tables of the list `list` (its items 1 to
/// its length; an item that is no table is left to the caller): the item's index and the key as
/// [`key_not_in`] gives it. The whole list in one protected call, not one an item (`hex.path.toward`
/// reads a hundred unit entries a bot decision).
pub(crate) fn item_key_not_in(
    lua: &Lua,
    list: &Table,
    allowed: &[&str],
) -> mlua::Result<Option<(usize, Result<String, String>)>> {
    let mut out: Option<(usize, Result<String, String>)> = None;
    // SAFETY: see above and the `lua_stack` docs; the closure only borrows `out` and `allowed`.
    unsafe {
        lua.exec_raw::<()>(list, |state| {
            if ffi::lua_checkstack(state, 4) == 0 {
                out = Some((0, Err("(the Lua stack is full)".into())));
                return;
            }
            let n = ffi::lua_rawlen(state, 1);
            for i in 1..=n {
                ffi::lua_rawgeti(state, 1, i as ffi::lua_Integer);
                if ffi::lua_type(state, -1) != ffi::LUA_TTABLE {
                    ffi::lua_pop(state, 1);
                    continue;
                }
                ffi::lua_pushnil(state);
                while ffi::lua_next(state, -2) != 0 {
                    // (lua_tolstring only on a string key, as in key_not_in)
                    let name = if ffi::lua_type(state, -2) == ffi::LUA_TSTRING {
                        lua_str(state, -2).ok()
                    } else {
                        None
                    };
                    if !name.is_some_and(|k| allowed.contains(&k)) {
                        out = Some((
                            i,
                            match name {
                                Some(k) => Ok(k.to_string()),
                                None => Err(type_name(state, -2)),
                            },
                        ));
                        ffi::lua_pop(state, 3);
                        return;
                    }
                    ffi::lua_pop(state, 1);
                }
                ffi::lua_pop(state, 1);
            }
        })?;
    }
    Ok(out)
}

/// `hex_indices` on the stack: the list at 1, the index at 2.
unsafe fn indices_walk(state: *mut ffi::lua_State) -> Result<Vec<u32>, String> {
    if ffi::lua_checkstack(state, 3) == 0 {
        return Err("the Lua stack is full".into());
    }
    let n = ffi::lua_rawlen(state, 1);
    let mut out = Vec::with_capacity(n.min(1 << 16));
    for i in 1..=n {
        ffi::lua_rawgeti(state, 1, i as ffi::lua_Integer);
        if ffi::lua_type(state, -1) != ffi::LUA_TSTRING {
            let kind = type_name(state, -1);
            ffi::lua_pop(state, 1);
            return Err(format!("item {i} is a {kind}, not a hex label"));
        }
        ffi::lua_pushvalue(state, -1);
        ffi::lua_rawget(state, 2);
        let mut is_int = 0;
        let hex = ffi::lua_tointegerx(state, -1, &mut is_int);
        if is_int == 0 {
            let label = lua_str(state, -2).unwrap_or("?").to_string();
            ffi::lua_pop(state, 2);
            return Err(format!("'{label}' is not a hex of the map"));
        }
        ffi::lua_pop(state, 2);
        out.push(hex as u32);
    }
    Ok(out)
}

/// The registry slot (keyed by this static's address, a light userdata) of the metatable of
/// `hex.state.json` values, so a walk can tell them from other userdata without a Lua call.
static JSON_TEXT_SLOT: u8 = 0;

fn json_text_slot() -> *const std::ffi::c_void {
    std::ptr::addr_of!(JSON_TEXT_SLOT).cast()
}

/// Remembers the metatable of `sample` (a `hex.state.json` value) as the one of all of them.
pub(crate) fn remember_json_text_metatable(
    lua: &Lua,
    sample: &mlua::AnyUserData,
) -> mlua::Result<()> {
    // SAFETY: the closure owns nothing; lua_rawsetp may raise a memory error, caught by the
    // protected call.
    unsafe {
        lua.exec_raw::<()>(sample, |state| {
            if ffi::lua_getmetatable(state, 1) != 0 {
                ffi::lua_rawsetp(state, ffi::LUA_REGISTRYINDEX, json_text_slot());
            }
        })
    }
}

/// The registry slot of mlua's array metatable (the mark of a list: `json_to_lua` gives every
/// array it, `hex.state.list` sets it), so a walk can tell an empty list from an empty object
/// without a Lua call.
static ARRAY_MT_SLOT: u8 = 0;

fn array_mt_slot() -> *const std::ffi::c_void {
    std::ptr::addr_of!(ARRAY_MT_SLOT).cast()
}

/// Remembers mlua's array metatable in [`ARRAY_MT_SLOT`] (once per VM, when `hex.state` is
/// registered; without it no table counts as marked).
pub(crate) fn remember_array_metatable(lua: &Lua) -> mlua::Result<()> {
    // SAFETY: the closure owns nothing; lua_rawsetp may raise a memory error, caught by the
    // protected call.
    unsafe {
        lua.exec_raw::<()>(lua.array_metatable(), |state| {
            ffi::lua_rawsetp(state, ffi::LUA_REGISTRYINDEX, array_mt_slot());
        })
    }
}

/// Whether the table at `idx` (absolute) carries mlua's array metatable. Raises no error
/// (lua_getmetatable, lua_rawgetp, lua_rawequal) and pops what it pushes.
pub(super) unsafe fn is_marked_list(state: *mut ffi::lua_State, idx: i32) -> bool {
    if ffi::lua_getmetatable(state, idx) == 0 {
        return false;
    }
    ffi::lua_rawgetp(state, ffi::LUA_REGISTRYINDEX, array_mt_slot());
    let marked = ffi::lua_rawequal(state, -1, -2) != 0;
    ffi::lua_pop(state, 2);
    marked
}

/// What a `hex.state.json` value held, as a walk over events found it.
pub(crate) enum JsonPayload {
    /// A table read by the plain-data rule, and how many values it holds.
    Table(serde_json::Value, usize),
    /// A JSON text, not parsed yet.
    Text(String),
}

/// One event table as [`read_events`] found it: its fields read by the strict rule, except the
/// one field (if any) that held a `hex.state.json` value, whose payload is apart.
pub(crate) struct EventFields {
    pub fields: serde_json::Map<String, serde_json::Value>,
    pub json: Option<(String, JsonPayload)>,
}

/// A list of event tables (or one event table: a table with an `event` key) read in one walk. None as soon
/// as anything is not the common shape (a metatable, an item that is not a table, a field the
/// strict rule refuses, two `hex.state.json` values in one event, too many values...): the
/// caller then takes the general path, which gives the same events or the error messages.
pub(crate) fn read_events(
    lua: &Lua,
    table: &Table,
    json_values: usize,
) -> Option<Vec<EventFields>> {
    let mut out: Option<Vec<EventFields>> = None;
    // SAFETY: see the `lua_stack` docs; like `read`, the walk raises no Lua error (lua_rawlen,
    // lua_rawgeti, lua_next on keys it got from lua_next, lua_type, the to* functions on values
    // of the matching type, lua_getmetatable, lua_rawgetp, lua_rawequal, lua_getiuservalue, none
    // of which allocates) and pops what it pushes.
    let run = unsafe {
        lua.exec_raw::<()>(table, |state| {
            out = events_walk(state, ffi::lua_gettop(state), json_values);
        })
    };
    run.ok()?;
    out
}

unsafe fn events_walk(
    state: *mut ffi::lua_State,
    idx: i32,
    json_values: usize,
) -> Option<Vec<EventFields>> {
    if ffi::lua_checkstack(state, 8) == 0 {
        return None;
    }
    let idx = ffi::lua_absindex(state, idx);
    let n = ffi::lua_rawlen(state, idx);
    let mut json_left = json_values;
    // (a table with an `event` key is one event, as `events_from_lua` reads it)
    if has_key(state, idx, b"event") {
        let mut left = VALUE_LIMIT;
        return event_fields(state, idx, &mut left, &mut json_left).map(|e| vec![e]);
    }
    // (a list holds its n items and nothing else: any other key, the general path names)
    if n == 0 || key_count(state, idx) != n {
        return None;
    }
    let mut events = Vec::with_capacity(n.min(1 << 16));
    // (one bound for all the events of a call: a table or string shared by many events counts
    // at each, so per-event bounds let one call copy the same big value into the host
    // thousands of times)
    let mut left = VALUE_LIMIT;
    for i in 1..=n {
        ffi::lua_rawgeti(state, idx, i as ffi::lua_Integer);
        let event = event_fields(state, -1, &mut left, &mut json_left);
        ffi::lua_pop(state, 1);
        events.push(event?);
    }
    Some(events)
}

/// Whether the table at `idx` (absolute) has the string key `key`.
unsafe fn has_key(state: *mut ffi::lua_State, idx: i32, key: &[u8]) -> bool {
    ffi::lua_pushnil(state);
    while ffi::lua_next(state, idx) != 0 {
        if ffi::lua_type(state, -2) == ffi::LUA_TSTRING
            && super::compare::lua_bytes(state, -2) == Some(key)
        {
            ffi::lua_pop(state, 2);
            return true;
        }
        ffi::lua_pop(state, 1);
    }
    false
}

unsafe fn event_fields(
    state: *mut ffi::lua_State,
    idx: i32,
    left: &mut usize,
    json_left: &mut usize,
) -> Option<EventFields> {
    if ffi::lua_type(state, idx) != ffi::LUA_TTABLE {
        return None;
    }
    let idx = ffi::lua_absindex(state, idx);
    if ffi::lua_rawlen(state, idx) > 0 {
        return None;
    }
    if ffi::lua_getmetatable(state, idx) != 0 {
        ffi::lua_pop(state, 1);
        return None;
    }
    let mut fields = serde_json::Map::new();
    let mut json = None;
    ffi::lua_pushnil(state);
    while ffi::lua_next(state, idx) != 0 {
        // key at -2, value at -1
        let key = (ffi::lua_type(state, -2) == ffi::LUA_TSTRING)
            .then(|| lua_str(state, -2).ok())
            .flatten();
        let Some(key) = key else {
            ffi::lua_pop(state, 2);
            return None;
        };
        let value = if let Some(payload) = json_text_payload(state, -1, json_left) {
            match (payload, &json) {
                (Some(p), None) => {
                    json = Some((key.to_string(), p));
                    None
                }
                _ => {
                    ffi::lua_pop(state, 2);
                    return None;
                }
            }
        } else {
            match read(state, -1, left, 1, true) {
                Ok(v) => Some(v),
                Err(_) => {
                    ffi::lua_pop(state, 2);
                    return None;
                }
            }
        };
        if let Some(v) = value {
            fields.insert(key.to_string(), v);
        }
        ffi::lua_pop(state, 1);
    }
    Some(EventFields { fields, json })
}

/// None when the value at `idx` is not a `hex.state.json` value; Some(None) when it is one
/// the walk does not take (its table too big for `json_left` values, or unreadable).
unsafe fn json_text_payload(
    state: *mut ffi::lua_State,
    idx: i32,
    json_left: &mut usize,
) -> Option<Option<JsonPayload>> {
    if ffi::lua_type(state, idx) != ffi::LUA_TUSERDATA {
        return None;
    }
    let idx = ffi::lua_absindex(state, idx);
    if ffi::lua_getmetatable(state, idx) == 0 {
        return None;
    }
    ffi::lua_rawgetp(state, ffi::LUA_REGISTRYINDEX, json_text_slot());
    let ours = ffi::lua_rawequal(state, -1, -2) != 0;
    ffi::lua_pop(state, 2);
    if !ours {
        return None;
    }
    // the user value: mlua keeps it as item 1 of a table in the first user value slot
    if ffi::lua_getiuservalue(state, idx, 1) != ffi::LUA_TTABLE {
        ffi::lua_pop(state, 1);
        return Some(None);
    }
    ffi::lua_rawgeti(state, -1, 1);
    let payload = match ffi::lua_type(state, -1) {
        ffi::LUA_TSTRING => lua_str(state, -1)
            .ok()
            .map(|s| JsonPayload::Text(s.to_string())),
        ffi::LUA_TTABLE => {
            let before = (*json_left).min(VALUE_LIMIT);
            let mut values = before;
            read(state, -1, &mut values, 0, false).ok().map(|v| {
                let used = before - values;
                *json_left -= used;
                JsonPayload::Table(v, used)
            })
        }
        _ => None,
    };
    ffi::lua_pop(state, 2);
    Some(payload)
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
pub(super) unsafe fn lua_str<'a>(state: *mut ffi::lua_State, idx: i32) -> Result<&'a str, String> {
    let mut len = 0usize;
    let p = ffi::lua_tolstring(state, idx, &mut len);
    if p.is_null() {
        return Err("a string could not be read".into());
    }
    let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len);
    utf8(bytes).ok_or_else(|| "a string is not valid UTF-8".into())
}

/// `bytes` as UTF-8, if they are. Most strings of a game (names, labels, orders) are ASCII,
/// which a word-at-a-time check proves faster than the full validation.
pub(crate) fn utf8(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        std::str::from_utf8(bytes).ok()
    }
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
    fn an_empty_table_marked_as_a_list_reads_as_an_empty_array_as_the_serde_bridge_reads_it() {
        let lua = Lua::new();
        remember_array_metatable(&lua).unwrap();
        lua.globals().set("LIST", lua.array_metatable()).unwrap();
        let t: Table = lua
            .load("return {flags = setmetatable({}, LIST), none = {}, inner = {setmetatable({}, LIST)}}")
            .eval()
            .unwrap();
        let want = json!({"flags": [], "none": {}, "inner": [[]]});
        assert_eq!(lua_to_json(&lua, &t, &mut 100).unwrap(), want);
        let bridge: serde_json::Value = lua.from_value(mlua::Value::Table(t.clone())).unwrap();
        assert_eq!(bridge, want);
        // the strict rule takes a marked empty table (it cannot read two ways), not a bare one
        let marked: Table = lua
            .load("return {flags = setmetatable({}, LIST)}")
            .eval()
            .unwrap();
        assert_eq!(
            plain_lua_to_json(&lua, &marked, &mut 100).unwrap(),
            json!({"flags": []})
        );
        assert!(plain_lua_to_json(&lua, &t, &mut 100).is_err());
    }

    #[test]
    fn hex_indices_look_labels_up_in_the_index_and_name_the_first_bad_item() {
        let lua = Lua::new();
        let index: Table = lua
            .load(r#"return {["0101"] = 0, ["0201"] = 1, ["0102"] = 2}"#)
            .eval()
            .unwrap();
        let list = |code: &str| -> Table { lua.load(code).eval().unwrap() };
        let read = |code: &str| hex_indices(&lua, &list(code), &index).unwrap();
        assert_eq!(
            read(r#"return {"0102", "0101", "0102"}"#),
            Ok(vec![2, 0, 2])
        );
        assert_eq!(read("return {}"), Ok(vec![]));
        assert_eq!(
            read(r#"return {"0101", "0909"}"#),
            Err("'0909' is not a hex of the map".to_string())
        );
        assert_eq!(
            read(r#"return {"0101", 12}"#),
            Err("item 2 is a number, not a hex label".to_string())
        );
        // the walk leaves the stack as it found it: the same list reads the same again
        assert_eq!(read(r#"return {"0201"}"#), Ok(vec![1]));
    }

    #[test]
    fn strings_beyond_ascii_are_read_when_valid_utf8() {
        let lua = Lua::new();
        let t: Table = lua
            .load(r#"return {["Forêt"] = "Ardennes, forêt", plain = "A PAR"}"#)
            .eval()
            .unwrap();
        let mut left = 100;
        assert_eq!(
            lua_to_json(&lua, &t, &mut left).unwrap(),
            json!({"Forêt": "Ardennes, forêt", "plain": "A PAR"})
        );
        assert_eq!(utf8(b"\xc3\xa9"), Some("\u{e9}"));
        assert_eq!(utf8(b"a\xc3"), None);
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
                "tables nested more than 100 levels deep (a table that contains itself?)",
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
