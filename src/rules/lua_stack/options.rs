//! A query's options table read in one protected call, when it holds only the plain shapes a
//! script writes every time (`{on_map = true, with = {"moved"}, limit = 1}`).
//!
//! Why: `hex.units.ids` is asked about 2 800 times in a France 1940 game, and reading its options
//! key by key through mlua (a check of the keys, then one `raw_get` per option, each its own
//! protected call with its key made a Lua string) cost ~9 000 machine instructions a call, more
//! than the listing itself. Anything else (an unknown key, a value of another type, a float
//! count, a list holding a number) is answered `None`: the caller's general reading then gives
//! the same result, or names the mistake in its own words, so this path changes no answer.
//!
//! `hex.path.toward`'s unit entries (`{id = ..., budget = ..., supply = ...}`, a hundred a bot
//! decision) are read the same way, all in one walk (`plain_unit_entries`).

use mlua::{ffi, Lua, Table};

use super::reader::lua_str;

/// One option of a plain options table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PlainOption {
    /// Not in the table.
    Absent,
    Bool(bool),
    /// An integer, 0 or more (a Lua integer, not a float).
    Count(i64),
    /// A list of strings: items 1, 2 ... up to the first nil, as mlua reads a `Vec<String>`.
    Names(Vec<String>),
}

/// The options of `table`, in `allowed`'s order, when every key is one of `allowed` and every
/// value a boolean, an integer 0 or more, or a list of UTF-8 strings; `None` otherwise. Like
/// the other readers it raises no Lua error (`lua_next` on keys it gave, `lua_type`,
/// `lua_toboolean` on a boolean, `lua_tointegerx` on an integer, `lua_rawgeti`, `lua_tolstring`
/// on a string key or item: nothing converted) and pops what it pushes (the `lua_stack` docs).
pub(crate) fn plain_options(
    lua: &Lua,
    table: &Table,
    allowed: &[&str],
) -> mlua::Result<Option<Vec<PlainOption>>> {
    let mut out: Option<Vec<PlainOption>> = None;
    // SAFETY: see above and the `lua_stack` docs; the closure only borrows `out` and `allowed`,
    // and its frames may own the strings read (no Lua error can skip their drop).
    unsafe {
        lua.exec_raw::<()>(table, |state| {
            out = options_walk(state, allowed);
        })?;
    }
    Ok(out)
}

/// `plain_options` on the stack: the table at 1.
unsafe fn options_walk(state: *mut ffi::lua_State, allowed: &[&str]) -> Option<Vec<PlainOption>> {
    if ffi::lua_checkstack(state, 4) == 0 {
        return None;
    }
    let mut options = vec![PlainOption::Absent; allowed.len()];
    ffi::lua_pushnil(state);
    while ffi::lua_next(state, 1) != 0 {
        let slot = (ffi::lua_type(state, -2) == ffi::LUA_TSTRING)
            .then(|| string_at(state, -2))
            .flatten()
            .and_then(|key| allowed.iter().position(|a| *a == key));
        let value = slot.and_then(|_| plain_value(state));
        match (slot, value) {
            (Some(slot), Some(value)) => {
                options[slot] = value;
                ffi::lua_pop(state, 1);
            }
            _ => {
                ffi::lua_pop(state, 2);
                return None;
            }
        }
    }
    Some(options)
}

/// The string at `idx` (a string: read in place, not converted), if it is UTF-8.
unsafe fn string_at<'a>(state: *mut ffi::lua_State, idx: i32) -> Option<&'a str> {
    lua_str(state, idx).ok()
}

/// The value on top as a plain option, or `None` for any other shape.
unsafe fn plain_value(state: *mut ffi::lua_State) -> Option<PlainOption> {
    match ffi::lua_type(state, -1) {
        ffi::LUA_TBOOLEAN => Some(PlainOption::Bool(ffi::lua_toboolean(state, -1) != 0)),
        ffi::LUA_TNUMBER if ffi::lua_isinteger(state, -1) != 0 => {
            let n = ffi::lua_tointegerx(state, -1, std::ptr::null_mut());
            (n >= 0).then_some(PlainOption::Count(n))
        }
        ffi::LUA_TTABLE => names(state).map(PlainOption::Names),
        _ => None,
    }
}

/// The table on top as a list of strings (items 1, 2 ... up to the first nil), or `None` when
/// an item is no string or not UTF-8.
unsafe fn names(state: *mut ffi::lua_State) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for i in 1.. {
        let kind = ffi::lua_rawgeti(state, -1, i);
        let item = match kind {
            ffi::LUA_TSTRING => string_at(state, -1).map(str::to_string),
            _ => None,
        };
        ffi::lua_pop(state, 1);
        match (kind, item) {
            (ffi::LUA_TNIL, _) => return Some(out),
            (_, Some(item)) => out.push(item),
            _ => return None,
        }
    }
    None
}

/// One of `hex.path.toward`'s unit entries as the plain reading gives it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PlainUnitEntry {
    pub id: String,
    pub budget: Option<f64>,
    pub supply: Option<String>,
}

/// The entries of `list` (items 1 to its length), when each is a table whose keys are all
/// names in `allowed`, whose `id` is a UTF-8 string, `budget` a number or nil and `supply` a
/// UTF-8 string or nil; `None` otherwise, for the caller's general reading (which names an
/// unknown key). One walk over each entry's keys checks them and reads the three fields, raw,
/// as `Table::raw_get` reads them. Raises no Lua error (`lua_rawlen`, `lua_rawgeti`, `lua_next`
/// on keys it gave, `lua_type`, `lua_tonumberx` on a number, `lua_tolstring` on a string).
pub(crate) fn plain_unit_entries(
    lua: &Lua,
    list: &Table,
    allowed: &[&str],
) -> mlua::Result<Option<Vec<PlainUnitEntry>>> {
    let mut out: Option<Vec<PlainUnitEntry>> = None;
    // SAFETY: as `plain_options`; the closure only borrows `out` and `allowed`.
    unsafe {
        lua.exec_raw::<()>(list, |state| {
            out = entries_walk(state, allowed);
        })?;
    }
    Ok(out)
}

/// `plain_unit_entries` on the stack: the list at 1.
unsafe fn entries_walk(
    state: *mut ffi::lua_State,
    allowed: &[&str],
) -> Option<Vec<PlainUnitEntry>> {
    if ffi::lua_checkstack(state, 4) == 0 {
        return None;
    }
    let n = ffi::lua_rawlen(state, 1);
    let mut out = Vec::with_capacity(n.min(1 << 16));
    let reads_all = ENTRY_FIELDS.iter().all(|k| allowed.contains(k));
    for i in 1..=n {
        ffi::lua_rawgeti(state, 1, i as ffi::lua_Integer);
        let entry = plain_entry(state, allowed, reads_all);
        ffi::lua_pop(state, 1);
        out.push(entry?);
    }
    Some(out)
}

/// The fields an entry's walk reads.
const ENTRY_FIELDS: [&str; 3] = ["id", "budget", "supply"];

/// The entry on top, or `None`; leaves the stack as it found it. `reads_all`: whether `allowed`
/// holds every name of `ENTRY_FIELDS` (then they are matched before the list is searched).
unsafe fn plain_entry(
    state: *mut ffi::lua_State,
    allowed: &[&str],
    reads_all: bool,
) -> Option<PlainUnitEntry> {
    if ffi::lua_type(state, -1) != ffi::LUA_TTABLE {
        return None;
    }
    let (mut id, mut budget, mut supply) = (None, None, None);
    ffi::lua_pushnil(state);
    while ffi::lua_next(state, -2) != 0 {
        // (the three read looked for first when allowed: a bot's entry holds only them)
        let key = (ffi::lua_type(state, -2) == ffi::LUA_TSTRING)
            .then(|| string_at(state, -2))
            .flatten()
            .filter(|k| {
                (reads_all && matches!(*k, "id" | "budget" | "supply")) || allowed.contains(k)
            });
        let kind = ffi::lua_type(state, -1);
        let plain = match (key, kind) {
            (None, _) => false,
            (Some("id"), ffi::LUA_TSTRING) => {
                id = string_at(state, -1).map(str::to_string);
                id.is_some()
            }
            (Some("budget"), ffi::LUA_TNUMBER) => {
                budget = Some(ffi::lua_tonumberx(state, -1, std::ptr::null_mut()));
                true
            }
            (Some("supply"), ffi::LUA_TSTRING) => {
                supply = string_at(state, -1).map(str::to_string);
                supply.is_some()
            }
            (Some("id" | "budget" | "supply"), _) => false,
            (Some(_), _) => true,
        };
        ffi::lua_pop(state, 1);
        if !plain {
            ffi::lua_pop(state, 1);
            return None;
        }
    }
    Some(PlainUnitEntry {
        id: id?,
        budget,
        supply,
    })
}

#[cfg(test)]
mod tests {
    use super::PlainOption::{Absent, Bool, Count, Names};
    use super::*;

    const KEYS: [&str; 3] = ["on_map", "with", "limit"];

    fn read(code: &str) -> Option<Vec<PlainOption>> {
        let lua = Lua::new();
        let t: Table = lua.load(code).eval().unwrap();
        plain_options(&lua, &t, &KEYS).unwrap()
    }

    fn names(list: &[&str]) -> PlainOption {
        Names(list.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn plain_options_are_read_in_the_allowed_order() {
        assert_eq!(
            read(r#"{limit = 1, with = {"moved", "railed"}, on_map = true}"#),
            Some(vec![Bool(true), names(&["moved", "railed"]), Count(1)])
        );
        assert_eq!(read("{}"), Some(vec![Absent, Absent, Absent]));
        assert_eq!(
            read("{on_map = false, limit = 0, with = {}}"),
            Some(vec![Bool(false), Names(vec![]), Count(0)])
        );
    }

    #[test]
    fn a_list_ends_at_its_first_nil_as_mlua_reads_a_vec() {
        assert_eq!(
            read(r#"{with = {"a", nil, "c"}}"#),
            Some(vec![Absent, names(&["a"]), Absent])
        );
        // (other keys of the list are not items)
        assert_eq!(
            read(r#"{with = {"a", n = 3}}"#),
            Some(vec![Absent, names(&["a"]), Absent])
        );
    }

    #[test]
    fn any_other_shape_is_left_to_the_general_reading() {
        for code in [
            "{other = true}",
            "{[1] = true}",
            r#"{on_map = "yes"}"#,
            "{limit = -1}",
            "{limit = 1.0}",
            "{limit = 2.5}",
            r#"{with = "moved"}"#,
            "{with = {1}}",
            r#"{with = {"a", {}}}"#,
            r#"{with = {"\255"}}"#,
            r#"{["\255"] = true}"#,
            "{with = {true}}",
        ] {
            assert_eq!(read(code), None, "{code}");
        }
    }

    fn entries(code: &str) -> Option<Vec<PlainUnitEntry>> {
        let lua = Lua::new();
        let t: Table = lua.load(code).eval().unwrap();
        plain_unit_entries(&lua, &t, &["id", "budget", "supply", "side", "status"]).unwrap()
    }

    fn entry(id: &str, budget: Option<f64>, supply: Option<&str>) -> PlainUnitEntry {
        PlainUnitEntry {
            id: id.to_string(),
            budget,
            supply: supply.map(str::to_string),
        }
    }

    #[test]
    fn plain_unit_entries_are_read_with_their_keys_checked() {
        assert_eq!(
            entries(
                r#"{ {id = "g1", budget = 3, supply = "inf"}, {budget = 1.5, id = "g2"},
                     {id = "g3", side = {}, status = 7} }"#
            ),
            Some(vec![
                entry("g1", Some(3.0), Some("inf")),
                entry("g2", Some(1.5), None),
                entry("g3", None, None),
            ])
        );
        assert_eq!(entries("{}"), Some(vec![]));
    }

    #[test]
    fn unit_entries_of_any_other_shape_are_left_to_the_general_reading() {
        for code in [
            r#"{ {id = "g1"}, "g2" }"#,
            r#"{ {id = "g1"}, nil, {id = "g3"} }"#,
            "{ {budget = 3} }",
            "{ {id = 7} }",
            r#"{ {id = "g1", budget = "3"} }"#,
            r#"{ {id = "g1", supply = 1} }"#,
            r#"{ {id = "g1", budgte = 3} }"#,
            r#"{ {id = "g1", [1] = true} }"#,
            r#"{ {id = "\255"} }"#,
            r#"{ {id = "g1", supply = "\255"} }"#,
        ] {
            assert_eq!(entries(code), None, "{code}");
        }
    }

    #[test]
    fn an_entry_field_the_caller_does_not_allow_is_left_to_the_general_reading() {
        let lua = Lua::new();
        let list: Table = lua
            .load(r#"{ {id = "g1", budget = 3, supply = "inf"} }"#)
            .eval()
            .unwrap();
        assert_eq!(
            plain_unit_entries(&lua, &list, &["id", "budget"]).unwrap(),
            None
        );
        let list: Table = lua.load(r#"{ {id = "g1", budget = 3} }"#).eval().unwrap();
        assert_eq!(
            plain_unit_entries(&lua, &list, &["id", "budget"]).unwrap(),
            Some(vec![entry("g1", Some(3.0), None)])
        );
    }
}
