//! Whether a Lua table is, as plain data, a given JSON value: compared in one walk over both,
//! in one protected call, converting nothing.
//!
//! Why: rules that keep a big variable (Diplomacy's position) as a table may ask whether the
//! state still holds what they wrote or read last time (`hex.state.matches`) and keep using
//! their table, instead of having the whole variable rebuilt in Lua at every call. Comparing
//! costs a walk without allocation; rebuilding costs a table and a string per value. Like the
//! reader it raises no Lua error (the safety argument is in the parent module's docs).

use mlua::{ffi, Lua, Table};

use crate::rules::bounded::DEPTH_LIMIT;

/// True exactly when `lua_to_json(table)` (the plain-data reading of `hex.state.json`) would
/// give `json`. The walk follows `json`, so it never does more work than `json`'s size, however
/// the table is shaped; anything the reader would refuse (a non-string key, a function, NaN)
/// is no match.
pub fn table_matches_json(lua: &Lua, table: &Table, json: &serde_json::Value) -> bool {
    let mut same = false;
    // SAFETY: see the `lua_stack` docs; `matches` raises no Lua error (only lua_checkstack,
    // lua_rawlen, lua_rawgeti, lua_next on keys it got from lua_next, lua_type and the to*
    // functions on values of the matching type) and pops what it pushes.
    let run = unsafe {
        lua.exec_raw::<()>(table, |state| {
            same = matches(state, ffi::lua_gettop(state), json, 0);
        })
    };
    run.is_ok() && same
}

unsafe fn matches(
    state: *mut ffi::lua_State,
    idx: i32,
    json: &serde_json::Value,
    depth: usize,
) -> bool {
    use serde_json::Value as J;
    match (ffi::lua_type(state, idx), json) {
        (ffi::LUA_TNIL, J::Null) => true,
        (ffi::LUA_TLIGHTUSERDATA, J::Null) => ffi::lua_touserdata(state, idx).is_null(),
        (ffi::LUA_TBOOLEAN, J::Bool(b)) => (ffi::lua_toboolean(state, idx) != 0) == *b,
        (ffi::LUA_TNUMBER, J::Number(n)) => {
            if ffi::lua_isinteger(state, idx) != 0 {
                serde_json::Number::from(ffi::lua_tointegerx(state, idx, std::ptr::null_mut()))
                    == *n
            } else {
                let x = ffi::lua_tonumberx(state, idx, std::ptr::null_mut());
                serde_json::Number::from_f64(x).is_some_and(|x| x == *n)
            }
        }
        (ffi::LUA_TSTRING, J::String(s)) => lua_bytes(state, idx) == Some(s.as_bytes()),
        (ffi::LUA_TTABLE, J::Array(_) | J::Object(_)) => {
            if depth >= DEPTH_LIMIT || ffi::lua_checkstack(state, 3) == 0 {
                return false;
            }
            let idx = ffi::lua_absindex(state, idx);
            let n = ffi::lua_rawlen(state, idx);
            // (an empty table is `[]` when marked as a list, else `{}`: reader::read)
            let marked = n == 0 && super::reader::is_marked_list(state, idx);
            match json {
                J::Array(items) if marked => items.is_empty(),
                // a table with a length reads as the list t[1..#t] (other keys ignored)
                J::Array(items) if n > 0 && n == items.len() => {
                    for (i, item) in items.iter().enumerate() {
                        ffi::lua_rawgeti(state, idx, (i + 1) as ffi::lua_Integer);
                        let same = matches(state, -1, item, depth + 1);
                        ffi::lua_pop(state, 1);
                        if !same {
                            return false;
                        }
                    }
                    true
                }
                // any other table reads as an object of string keys (an empty one as `{}`):
                // first its keys and plain values, then its tables, so that a changed scalar
                // (a phase, a flag) ends the walk before any list is walked
                J::Object(map) if n == 0 && !marked => {
                    object_matches(state, idx, map, depth, false)
                        && object_matches(state, idx, map, depth, true)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// One pass over the table at `idx` (absolute) against `map`: `tables` false checks the keys
/// (all strings, all in `map`, as many) and the values that are not tables; true, the tables.
unsafe fn object_matches(
    state: *mut ffi::lua_State,
    idx: i32,
    map: &serde_json::Map<String, serde_json::Value>,
    depth: usize,
    tables: bool,
) -> bool {
    let mut count = 0;
    ffi::lua_pushnil(state);
    while ffi::lua_next(state, idx) != 0 {
        // key at -2, value at -1
        count += 1;
        let is_table = ffi::lua_type(state, -1) == ffi::LUA_TTABLE;
        let same = if tables && !is_table {
            true
        } else {
            count <= map.len()
                && ffi::lua_type(state, -2) == ffi::LUA_TSTRING
                && lua_bytes(state, -2)
                    .and_then(super::reader::utf8)
                    .and_then(|k| map.get(k))
                    .is_some_and(|item| {
                        (is_table && !tables) || matches(state, -1, item, depth + 1)
                    })
        };
        if !same {
            ffi::lua_pop(state, 2);
            return false;
        }
        ffi::lua_pop(state, 1);
    }
    count == map.len()
}

/// The bytes of the string at `idx` (a string: `lua_tolstring` converts nothing).
pub(super) unsafe fn lua_bytes<'a>(state: *mut ffi::lua_State, idx: i32) -> Option<&'a [u8]> {
    let mut len = 0usize;
    let p = ffi::lua_tolstring(state, idx, &mut len);
    (!p.is_null()).then(|| std::slice::from_raw_parts(p.cast::<u8>(), len))
}

#[cfg(test)]
mod tests {
    use mlua::LuaSerdeExt;
    use serde_json::json;

    use super::*;
    use crate::rules::bounded::VALUE_LIMIT;
    use crate::rules::lua_stack::reader::lua_to_json;

    fn table(lua: &Lua, code: &str) -> Table {
        lua.load(code).eval().unwrap()
    }

    #[test]
    fn a_table_matches_exactly_the_json_it_reads_as() {
        let lua = Lua::new();
        let code = r#"return {phase = "S1901M", units = {FRANCE = {"A PAR", "F BRE"}},
            n = 3, x = 1.5, ok = false, empty = {}, holes = {1, nil, 3}, extra = {"a", k = 1}}"#;
        let t = table(&lua, code);
        let mut left = VALUE_LIMIT;
        let read = lua_to_json(&lua, &t, &mut left).unwrap();
        assert_eq!(
            read,
            json!({"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE"]}, "n": 3,
                "x": 1.5, "ok": false, "empty": {}, "holes": [1, null, 3], "extra": ["a"]})
        );
        assert!(table_matches_json(&lua, &t, &read));
        // every single difference is no match
        for other in [
            json!({"phase": "S1901M"}),
            json!([]),
            json!("S1901M"),
            json!(null),
        ] {
            assert!(!table_matches_json(&lua, &t, &other), "{other}");
        }
        let changed = |f: fn(&mut serde_json::Value)| {
            let mut v = read.clone();
            f(&mut v);
            assert!(!table_matches_json(&lua, &t, &v), "{v}");
        };
        changed(|v| v["phase"] = json!("F1901M"));
        changed(|v| v["units"]["FRANCE"][1] = json!("F MAO"));
        changed(|v| {
            v["units"]["FRANCE"]
                .as_array_mut()
                .unwrap()
                .pop()
                .map(drop)
                .unwrap()
        });
        changed(|v| {
            v["units"]["FRANCE"]
                .as_array_mut()
                .unwrap()
                .push(json!("A MAR"))
        });
        changed(|v| v["units"]["ITALY"] = json!(["A ROM"]));
        changed(|v| drop(v.as_object_mut().unwrap().remove("ok")));
        changed(|v| v["n"] = json!(3.0));
        changed(|v| v["x"] = json!(1));
        changed(|v| v["ok"] = json!(true));
        changed(|v| v["empty"] = json!([]));
        changed(|v| v["holes"][1] = json!(2));
    }

    #[test]
    fn an_empty_table_matches_an_empty_array_exactly_when_marked_as_a_list() {
        let lua = Lua::new();
        crate::rules::lua_stack::reader::remember_array_metatable(&lua).unwrap();
        lua.globals().set("LIST", lua.array_metatable()).unwrap();
        let marked = table(&lua, "return {flags = setmetatable({}, LIST)}");
        let bare = table(&lua, "return {flags = {}}");
        assert!(table_matches_json(&lua, &marked, &json!({"flags": []})));
        assert!(!table_matches_json(&lua, &marked, &json!({"flags": {}})));
        assert!(table_matches_json(&lua, &bare, &json!({"flags": {}})));
        assert!(!table_matches_json(&lua, &bare, &json!({"flags": []})));
    }

    #[test]
    fn what_the_reader_refuses_matches_nothing() {
        let lua = Lua::new();
        for (code, json) in [
            ("return {[2] = 'x'}", json!({"2": "x"})),
            ("return {f = print}", json!({"f": null})),
            ("return {x = 0/0}", json!({"x": null})),
            ("local t = {}; t.t = t; return t", json!({"t": {"t": {}}})),
        ] {
            assert!(
                !table_matches_json(&lua, &table(&lua, code), &json),
                "{code}"
            );
        }
    }
}
