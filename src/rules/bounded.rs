//! Bounds on the Lua values the host converts (issue #9). The serde walk expands a table each
//! time it is referenced, so a script that shares one subtable twice at each of 40 levels hands
//! the host 2^40 values: in Rust, out of reach of both the instruction budget and the VM's memory
//! limit. Every conversion of a script's value counts the values it would expand into first.

use mlua::{Lua, LuaSerdeExt, Value};
use serde::de::DeserializeOwned;

/// The most values (table keys and values, counted at each place a table is referenced) one
/// converted Lua value may hold.
pub const VALUE_LIMIT: usize = 1_000_000;

/// The deepest nesting of tables a converted value may have: below the 128 levels a JSON reader
/// follows by default, with room for the levels a save, a replay or a log line puts around a
/// value (a variable nested 126 deep was saved, then the save could not be read back).
pub const DEPTH_LIMIT: usize = 100;

/// Checks that `value` expands into at most `VALUE_LIMIT` values nested at most `DEPTH_LIMIT`
/// deep, and that it converts without loss (see [`walk`]). Stops counting at the first limit
/// passed, so the check itself is bounded.
pub fn check(value: &Value) -> Result<(), String> {
    let mut left = VALUE_LIMIT;
    check_within(value, &mut left)
}

/// `check` against a budget shared by several values (the events of one call: a table or a
/// string they share counts in each, as each is copied into the host).
pub fn check_within(value: &Value, left: &mut usize) -> Result<(), String> {
    walk(value, left, 0).map_err(|e| match e {
        WalkError::Bound(message) => message,
        WalkError::Lossy { path, what } if path.is_empty() => format!("the value {what}"),
        WalkError::Lossy { path, what } => format!("{path} {what}"),
    })
}

/// How many bytes of a string count as one value (64 MiB of text at most in a value).
const STRING_BYTES_PER_VALUE: usize = 64;

/// Charges a string of `len` bytes to `left` (a value per `STRING_BYTES_PER_VALUE` bytes, on top
/// of the one the string is): text shared by many events is copied into the host for each.
pub(crate) fn charge_text(len: usize, left: &mut usize) -> Result<(), String> {
    let cost = len / STRING_BYTES_PER_VALUE;
    if cost > *left {
        return Err(format!(
            "the value holds more than {} bytes of text (a string shared at several places \
             counts at each)",
            VALUE_LIMIT * STRING_BYTES_PER_VALUE
        ));
    }
    *left -= cost;
    Ok(())
}

/// Why a walk stopped: a bound passed, or a value the conversion would change (`path`: where,
/// `value.a[2]`, made on the way back up so that a walk that passes costs no text).
enum WalkError {
    Bound(String),
    Lossy { path: String, what: String },
}

impl WalkError {
    /// The error one level up: its key put before the path.
    fn under(self, key: &Value) -> WalkError {
        let WalkError::Lossy { path, what } = self else {
            return self;
        };
        let key = match key {
            Value::String(s) => s.to_string_lossy().to_string(),
            Value::Integer(i) => format!("[{i}]"),
            other => format!("[{}]", super::error::value_in_message(other)),
        };
        let path = match path.as_str() {
            "" => key,
            p if p.starts_with('[') => format!("{key}{p}"),
            p => format!("{key}.{p}"),
        };
        WalkError::Lossy { path, what }
    }
}

/// Counts the values (the bounds) and refuses what the serde bridge would silently change: a
/// number that is not finite (saved as null) and a table read as a list that has keys besides
/// its items 1..n (a named key beside a list, an item past a hole: dropped).
fn walk(value: &Value, left: &mut usize, depth: usize) -> Result<(), WalkError> {
    if *left == 0 {
        return Err(WalkError::Bound(format!(
            "the value holds more than {VALUE_LIMIT} values (a table shared at several places \
             counts at each)"
        )));
    }
    *left -= 1;
    match value {
        Value::String(s) => {
            return charge_text(s.as_bytes().len(), left).map_err(WalkError::Bound);
        }
        Value::Number(x) if !x.is_finite() => {
            return Err(WalkError::Lossy {
                path: String::new(),
                what: format!("is {x}: a number must be finite to be saved"),
            });
        }
        _ => {}
    }
    let Value::Table(table) = value else {
        return Ok(());
    };
    if depth >= DEPTH_LIMIT {
        return Err(WalkError::Bound(format!(
            "tables nested more than {DEPTH_LIMIT} levels deep (a table that contains itself?)"
        )));
    }
    let mut keys = 0usize;
    for pair in table.pairs::<Value, Value>() {
        let (key, item) = pair.map_err(|e| WalkError::Bound(e.to_string()))?;
        keys += 1;
        walk(&key, left, depth + 1).map_err(|e| e.under(&key))?;
        walk(&item, left, depth + 1).map_err(|e| e.under(&key))?;
    }
    // (mlua's bridge reads a table with a length as the list 1..length, and nothing else)
    let len = table.raw_len();
    if len > 0 && keys != len {
        return Err(WalkError::Lossy {
            path: String::new(),
            what: format!(
                "is read as a list of {len} item{}, but holds {keys} keys: a list with a hole, or \
                 with named keys beside its items, would lose some of them",
                if len == 1 { "" } else { "s" }
            ),
        });
    }
    Ok(())
}

/// `lua.from_value`, refused with a message when the value passes the bounds.
pub fn from_value<T: DeserializeOwned>(lua: &Lua, value: Value) -> mlua::Result<T> {
    check(&value).map_err(mlua::Error::runtime)?;
    lua.from_value(value)
}

/// A script's value as JSON, as [`from_value`] reads it: a table of plain data (no empty
/// unmarked table, no table mixing a list and keys) through the one-walk reader, several times
/// cheaper than the serde bridge's protected call per value; anything else through
/// [`from_value`] (the same reading, its bounds and its error messages).
pub fn json_from_value(lua: &Lua, value: Value) -> mlua::Result<serde_json::Value> {
    if let Value::Table(t) = &value {
        let mut left = VALUE_LIMIT;
        if let Ok(json) = super::lua_stack::reader::plain_lua_to_json(lua, t, &mut left) {
            return Ok(json);
        }
    }
    from_value(lua, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_subtable_counts_at_every_place() {
        let lua = Lua::new();
        let bomb: Value = lua
            .load("local t = {1} for _ = 1, 40 do t = {t, t} end return t")
            .eval()
            .unwrap();
        let err = check(&bomb).unwrap_err();
        assert!(
            err.starts_with("the value holds more than 1000000 values"),
            "{err}"
        );
    }

    #[test]
    fn a_table_containing_itself_is_too_deep() {
        let lua = Lua::new();
        let cycle: Value = lua.load("local t = {} t.me = t return t").eval().unwrap();
        let err = check(&cycle).unwrap_err();
        assert!(
            err.starts_with("tables nested more than 100 levels deep"),
            "{err}"
        );
    }

    #[test]
    fn json_from_value_reads_every_value_as_the_serde_bridge_does() {
        let lua = Lua::new();
        crate::rules::lua_stack::reader::remember_array_metatable(&lua).unwrap();
        lua.globals().set("LIST", lua.array_metatable()).unwrap();
        for code in [
            "return {a = {1, 2.5}, b = 'c', d = {e = true}}",
            "return {}",
            "return {x = {}, y = setmetatable({}, LIST)}",
            "return 'text'",
            "return 7",
        ] {
            let v: Value = lua.load(code).eval().unwrap();
            let bridge: serde_json::Value = from_value(&lua, v.clone()).unwrap();
            assert_eq!(json_from_value(&lua, v).unwrap(), bridge, "{code}");
        }
        // what the bridge refuses, json_from_value refuses with the bridge's own message
        let bomb: Value = lua
            .load("local t = {1} for _ = 1, 40 do t = {t, t} end return t")
            .eval()
            .unwrap();
        let err = json_from_value(&lua, bomb).unwrap_err().to_string();
        assert!(
            err.contains("the value holds more than 1000000 values"),
            "{err}"
        );
    }

    /// What the serde bridge would change without a word is refused, naming where: NaN and
    /// infinities (saved as null), tables read as lists that hold more than their items.
    #[test]
    fn values_the_bridge_would_change_are_refused_with_their_place() {
        let lua = Lua::new();
        for (code, message) in [
            (
                "return {a = {1, 2, k = 'mixed'}}",
                "a is read as a list of 2 items, but holds 3 keys: a list with a hole, or with \
                 named keys beside its items, would lose some of them",
            ),
            (
                "return {[1] = 'a', [3] = 'hole'}",
                "the value is read as a list of 1 item, but holds 2 keys: a list with a hole, \
                 or with named keys beside its items, would lose some of them",
            ),
            (
                "return {data = {x = {0/0}}}",
                "data.x[1] is NaN: a number must be finite to be saved",
            ),
            (
                "return {list = {{}, {y = -1/0}}}",
                "list[2].y is -inf: a number must be finite to be saved",
            ),
            (
                "return 1/0",
                "the value is inf: a number must be finite to be saved",
            ),
        ] {
            let v: Value = lua.load(code).eval().unwrap();
            assert_eq!(check(&v).unwrap_err(), message, "{code}");
            let err = json_from_value(&lua, v).unwrap_err().to_string();
            assert!(err.contains(message), "{code}: {err}");
        }
    }

    /// Text counts a value per 64 bytes, on top of the string itself, at each place a string
    /// is found: a budget of values spent exactly still passes, one value more is refused.
    #[test]
    fn text_is_counted_a_value_per_64_bytes_at_each_place() {
        let lua = Lua::new();
        let text = |bytes: usize| Value::String(lua.create_string("x".repeat(bytes)).unwrap());
        // the string (1) and its 64 bytes (1): exactly the 2 values left
        let mut left = 2;
        assert_eq!(check_within(&text(64), &mut left), Ok(()));
        assert_eq!(left, 0);
        let refused = "the value holds more than 64000000 bytes of text (a string shared at \
                       several places counts at each)";
        let mut left = 2;
        assert_eq!(
            check_within(&text(128), &mut left),
            Err(refused.to_string())
        );
        // a string shared by two items counts twice: table 1, key 1, string 1 + 4, key 1,
        // string 1 + 4 = 13 values
        lua.globals().set("s", text(256)).unwrap();
        let shared: Value = lua.load("return {s, s}").eval().unwrap();
        let mut left = 13;
        assert_eq!(check_within(&shared, &mut left), Ok(()));
        assert_eq!(left, 0);
        let mut left = 12;
        assert_eq!(check_within(&shared, &mut left), Err(refused.to_string()));
        // a megabyte of text is 16 384 values: well within the million
        assert_eq!(check(&text(1 << 20)), Ok(()));
    }

    /// A table used as a key is nested as a value is: a key one level down counts that level.
    #[test]
    fn a_table_key_counts_its_nesting_as_a_value_does() {
        let lua = Lua::new();
        let nested = |levels: usize| -> Value {
            lua.load(format!(
                "local t = {{}} for _ = 2, {levels} do t = {{t}} end return {{[t] = true}}"
            ))
            .eval()
            .unwrap()
        };
        // the outer table, then the key's 99 levels: 100 in all
        assert_eq!(check(&nested(99)), Ok(()));
        assert_eq!(
            check(&nested(100)),
            Err("tables nested more than 100 levels deep (a table that contains itself?)".into())
        );
    }

    #[test]
    fn ordinary_values_convert_as_before() {
        let lua = Lua::new();
        let v: Value = lua
            .load("return {event = 'Custom', name = 'X', data = {a = {1, 2}, b = 'c'}}")
            .eval()
            .unwrap();
        let json: serde_json::Value = from_value(&lua, v).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"event": "Custom", "name": "X", "data": {"a": [1, 2], "b": "c"}})
        );
    }
}
