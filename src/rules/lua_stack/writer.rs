//! Fresh Lua values written straight onto the Lua stack, in one protected call ([`write`]).
//! The safety argument for everything here is in the parent module's docs (`lua_stack`).
//!
//! Interning a string costs Lua a hash and a lookup: the field names views use ([`KEYS`]) and
//! the map's labels are kept in two registry tables made once per VM ([`intern_keys`],
//! [`intern_labels`]), and pushed from there by index.

use std::os::raw::c_int;

use mlua::{ffi, FromLua, IntoLuaMulti, Lua, LuaSerdeExt, RegistryKey, Table, Value};

use crate::rules::api::with_host;
use crate::rules::bounded::DEPTH_LIMIT;

/// Stack slots reserved at a time.
const ROOM: c_int = 16;

/// The field names of the views, kept interned in a registry table (in this order).
pub(crate) const KEYS: [&str; 23] = [
    "id",
    "side",
    "nation",
    "type",
    "size",
    "ma",
    "strength",
    "at",
    "facing",
    "status",
    "attrs",
    "gone_reason",
    "eliminated",
    "gone_turn",
    "class",
    "from",
    "closer",
    "cost",
    "path",
    "event",
    "hex",
    "budget",
    "supply",
];

/// The 1-based position of `key` in [`KEYS`].
fn key_index(key: &str) -> Option<ffi::lua_Integer> {
    let i = match key {
        "id" => 1,
        "side" => 2,
        "nation" => 3,
        "type" => 4,
        "size" => 5,
        "ma" => 6,
        "strength" => 7,
        "at" => 8,
        "facing" => 9,
        "status" => 10,
        "attrs" => 11,
        "gone_reason" => 12,
        "eliminated" => 13,
        "gone_turn" => 14,
        "class" => 15,
        "from" => 16,
        "closer" => 17,
        "cost" => 18,
        "path" => 19,
        "event" => 20,
        "hex" => 21,
        "budget" => 22,
        "supply" => 23,
        _ => return None,
    };
    Some(i)
}

/// Makes the registry table of [`KEYS`] (once per VM, when the API is built).
pub(crate) fn intern_keys(lua: &Lua) -> mlua::Result<RegistryKey> {
    lua.create_registry_value(lua.create_sequence_from(KEYS)?)
}

/// The interned Lua string of one of [`KEYS`], for reading fields of the scripts' tables without
/// making the key anew each time (a new string when the VM has no keys table or `key` is not one
/// of them).
pub(crate) fn key_string(lua: &Lua, key: &str) -> mlua::Result<mlua::LuaString> {
    let table = with_host(lua, |h| {
        h.key_strings
            .as_ref()
            .map(|k| lua.registry_value::<mlua::Table>(k))
    })
    .ok()
    .flatten()
    .transpose()?;
    match (table, key_index(key)) {
        (Some(table), Some(i)) => table.raw_get(i),
        _ => lua.create_string(key),
    }
}

/// Makes the registry table of the map's labels, hex index `i` at `i + 1`.
pub(crate) fn intern_labels(lua: &Lua, labels: &[String]) -> mlua::Result<RegistryKey> {
    lua.create_registry_value(lua.create_sequence_from(labels.iter().map(String::as_str))?)
}

/// Pushes values onto the Lua stack of a [`write`] call and assembles them into tables.
pub(crate) struct Writer {
    state: *mut ffi::lua_State,
    /// Values pushed by this writer (the call's arguments sit below them).
    depth: c_int,
    /// Values that may be pushed before asking Lua for more room.
    room: c_int,
    /// How many arguments `write` was given (stack slots 1..=args).
    args: c_int,
    /// A misuse or a stack that could not grow: `write` returns an error.
    broken: Option<&'static str>,
    /// Stack slots of the interned keys and labels tables, when the VM has them.
    keys: Option<c_int>,
    labels: Option<c_int>,
}

impl Writer {
    fn reserve(&mut self) -> bool {
        if self.broken.is_some() {
            return false;
        }
        if self.depth >= self.room {
            // SAFETY: `state` is the live state of the protected call; lua_checkstack does not
            // raise (it returns 0 when the stack cannot grow).
            if unsafe { ffi::lua_checkstack(self.state, ROOM) } == 0 {
                self.broken = Some("the Lua stack cannot grow");
                return false;
            }
            self.room = self.depth + ROOM;
        }
        self.depth += 1;
        true
    }

    /// Pushes a new table with room for `narr` items and `nrec` fields.
    pub fn table(&mut self, narr: usize, nrec: usize) {
        if self.reserve() {
            let (narr, nrec) = (clamp(narr), clamp(nrec));
            // SAFETY: room reserved; may raise a memory error (see the `lua_stack` docs).
            unsafe { ffi::lua_createtable(self.state, narr, nrec) }
        }
    }

    /// Pushes a string.
    pub fn str(&mut self, s: &str) {
        if self.reserve() {
            // SAFETY: room reserved; `s` is valid for `len` bytes; may raise a memory error.
            unsafe { ffi::lua_pushlstring(self.state, s.as_ptr().cast(), s.len()) };
        }
    }

    /// Pushes a string, or nil.
    pub fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.str(s),
            None => self.nil(),
        }
    }

    pub fn int(&mut self, i: i64) {
        if self.reserve() {
            // SAFETY: room reserved.
            unsafe { ffi::lua_pushinteger(self.state, i) }
        }
    }

    pub fn float(&mut self, x: f64) {
        if self.reserve() {
            // SAFETY: room reserved.
            unsafe { ffi::lua_pushnumber(self.state, x) }
        }
    }

    /// Pushes a number as the views give them: whole numbers as integers (so a script's
    /// arithmetic on them stays integral), others as floats.
    pub fn number(&mut self, x: f64) {
        match whole(x) {
            Some(i) => self.int(i),
            None => self.float(x),
        }
    }

    pub fn bool(&mut self, b: bool) {
        if self.reserve() {
            // SAFETY: room reserved.
            unsafe { ffi::lua_pushboolean(self.state, c_int::from(b)) }
        }
    }

    pub fn nil(&mut self) {
        if self.reserve() {
            // SAFETY: room reserved.
            unsafe { ffi::lua_pushnil(self.state) }
        }
    }

    /// Pushes the null light userdata (`mlua::Value::NULL`, JSON's null in mlua's serde bridge).
    pub fn null(&mut self) {
        if self.reserve() {
            // SAFETY: room reserved; a light userdata is not allocated (cannot raise).
            unsafe { ffi::lua_pushlightuserdata(self.state, std::ptr::null_mut()) }
        }
    }

    /// Gives up: [`write`] returns an error naming `why`, and the writer's later calls do
    /// nothing. For checks of the value being written (a depth limit, say).
    pub fn fail(&mut self, why: &'static str) {
        self.broken.get_or_insert(why);
    }

    /// Pushes a copy of the `n`-th (1-based) argument given to [`write`].
    pub fn arg(&mut self, n: usize) {
        if n == 0 || n > self.args as usize {
            self.broken = Some("no such argument");
            return;
        }
        if self.reserve() {
            // SAFETY: room reserved; 1 <= n <= args, a valid stack index.
            unsafe { ffi::lua_pushvalue(self.state, n as c_int) }
        }
    }

    /// Whether the value below the top one is a table this writer pushed.
    fn table_below_top(&mut self) -> bool {
        if self.broken.is_some() {
            return false;
        }
        // SAFETY: depth >= 2 means both slots exist and were pushed by this writer.
        if self.depth < 2 || unsafe { ffi::lua_type(self.state, -2) } != ffi::LUA_TTABLE {
            self.broken = Some("a field set with no table below the value");
            return false;
        }
        true
    }

    /// Pushes the label of hex `index` from the interned labels (see [`intern_labels`]).
    pub fn label(&mut self, index: u32) {
        let Some(labels) = self.labels else {
            self.broken = Some("no interned labels");
            return;
        };
        if self.reserve() {
            // SAFETY: room reserved; `labels` is the slot of a plain table (no metamethods) that
            // write pushed; lua_rawgeti does not raise.
            unsafe { ffi::lua_rawgeti(self.state, labels, ffi::lua_Integer::from(index) + 1) };
        }
    }

    /// Pushes `key` as a field name (interned when it is one of [`KEYS`]), for
    /// [`Writer::set_keyed`] once its value is pushed: the order a recursive walk pushes in.
    pub fn key(&mut self, key: &str) {
        if self.reserve() {
            // SAFETY: room reserved; `keys` is the slot of a plain table write pushed
            // (lua_rawgeti does not raise); lua_pushlstring may raise a memory error.
            unsafe {
                match (self.keys, key_index(key)) {
                    (Some(keys), Some(i)) => {
                        ffi::lua_rawgeti(self.state, keys, i);
                    }
                    _ => {
                        ffi::lua_pushlstring(self.state, key.as_ptr().cast(), key.len());
                    }
                }
            }
        }
    }

    /// Pops the top value and the string below it (see [`Writer::key`]) into that field of
    /// the table below them.
    pub fn set_keyed(&mut self) {
        if self.broken.is_some() {
            return;
        }
        // SAFETY: depth >= 3 means the three slots exist and were pushed by this writer;
        // lua_type does not raise.
        let ok = self.depth >= 3
            && unsafe {
                ffi::lua_type(self.state, -2) == ffi::LUA_TSTRING
                    && ffi::lua_type(self.state, -3) == ffi::LUA_TTABLE
            };
        if !ok {
            self.broken = Some("a field set with no table and key below the value");
            return;
        }
        // SAFETY: stack is [.. table, key, value], the key a string (a valid key); lua_rawset
        // pops both and calls no metamethod. May raise a memory error.
        unsafe { ffi::lua_rawset(self.state, -3) };
        self.depth -= 2;
    }

    /// Pops the top value into `key` of the table below it (a raw set: `t[key] = v`).
    pub fn set(&mut self, key: &str) {
        if !self.table_below_top() {
            return;
        }
        self.key(key);
        self.set_under_pushed_key();
    }

    /// Pops the top value into the field named by hex `index`'s label (see [`Writer::label`]).
    pub fn set_label(&mut self, index: u32) {
        if !self.table_below_top() {
            return;
        }
        self.label(index);
        self.set_under_pushed_key();
    }

    /// With [.. table, value, key] on the stack (the key a string just pushed by `key` or
    /// `label`), sets `table[key] = value` and pops both.
    fn set_under_pushed_key(&mut self) {
        if self.broken.is_none() {
            // SAFETY: stack is [.. table, value, key]; rotating gives [.. table, key, value];
            // lua_rawset pops both and calls no metamethod; the key is a string, a valid key.
            // May raise a memory error.
            unsafe {
                ffi::lua_rotate(self.state, -2, 1);
                ffi::lua_rawset(self.state, -3);
            }
            self.depth -= 2;
        }
    }

    /// Pops the top value into item `i` (1-based) of the table below it (a raw set).
    pub fn set_item(&mut self, i: usize) {
        if !self.table_below_top() {
            return;
        }
        // SAFETY: stack is [.. table, value]; lua_rawseti pops the value, no metamethod. May
        // raise a memory error.
        unsafe { ffi::lua_rawseti(self.state, -2, i as ffi::lua_Integer) };
        self.depth -= 1;
    }

    /// Sets items 1, 2, ... of the table on top to `items` (`false` where an item is None): a
    /// loop of `str` and `set_item` with the checks made once. `items` is moved here: its type
    /// must need no drop (checked at compile time), since a memory error skips this frame.
    pub fn string_items<'a, I: Iterator<Item = Option<&'a str>>>(&mut self, items: I) {
        const {
            assert!(
                !std::mem::needs_drop::<I>(),
                "the items must not own values that need dropping"
            )
        };
        if self.broken.is_some() {
            return;
        }
        // SAFETY: depth >= 1 means the top slot was pushed by this writer.
        if self.depth < 1 || unsafe { ffi::lua_type(self.state, -1) } != ffi::LUA_TTABLE {
            self.broken = Some("items set with no table below");
            return;
        }
        // one slot at a time: reserved once, popped by each rawseti
        if !self.reserve() {
            return;
        }
        // (an item equal to the one before it is copied from the table: lists of sides,
        // nations or types come in runs, and a copy costs far less than making the string)
        let mut previous: Option<&str> = None;
        for (i, item) in items.enumerate() {
            // SAFETY: stack is [.. table] with a slot reserved; the pushed string (or
            // boolean, or the copy of item `i`, a string this loop set) is popped at once by
            // lua_rawseti into the table, no metamethod. The string is valid for `len` bytes.
            // May raise a memory error.
            unsafe {
                match item {
                    Some(s) if previous == Some(s) => {
                        ffi::lua_rawgeti(self.state, -1, i as ffi::lua_Integer);
                    }
                    Some(s) => {
                        ffi::lua_pushlstring(self.state, s.as_ptr().cast(), s.len());
                    }
                    None => ffi::lua_pushboolean(self.state, 0),
                }
                ffi::lua_rawseti(self.state, -2, (i + 1) as ffi::lua_Integer);
            }
            previous = item;
        }
        self.depth -= 1;
    }

    /// Pops the top value, a table, and makes it the metatable of the table below it.
    pub fn set_metatable(&mut self) {
        if !self.table_below_top() {
            return;
        }
        // SAFETY: depth >= 2 (checked above); the top slot was pushed by this writer.
        if unsafe { ffi::lua_type(self.state, -1) } != ffi::LUA_TTABLE {
            self.broken = Some("a metatable that is not a table");
            return;
        }
        // SAFETY: stack is [.. table, metatable]; lua_setmetatable pops the metatable and
        // allocates nothing (so raises nothing); no Lua code runs.
        unsafe { ffi::lua_setmetatable(self.state, -2) };
        self.depth -= 1;
    }
}

fn clamp(n: usize) -> c_int {
    n.min(c_int::MAX as usize) as c_int
}

/// `x` as an integer when it is whole (and well inside the integers a float holds exactly).
pub(crate) fn whole(x: f64) -> Option<i64> {
    (x.fract() == 0.0 && x.abs() < 9.0e15).then_some(x as i64)
}

/// Runs `f` in one protected call with `args` on the stack (see [`Writer::arg`]); `f` pushes
/// exactly one value, which is returned. `f` must only borrow: see the `lua_stack` docs.
pub(crate) fn write<R, F>(lua: &Lua, args: impl IntoLuaMulti, f: F) -> mlua::Result<R>
where
    R: FromLua,
    F: FnOnce(&mut Writer),
{
    const {
        assert!(
            !std::mem::needs_drop::<F>(),
            "a writer closure must not own values that need dropping"
        )
    };
    let mut broken = None;
    let outcome = &mut broken;
    let (keys, labels) = with_host(lua, |h| {
        (
            h.key_strings.as_ref().map(RegistryKey::id),
            h.label_strings.as_ref().map(RegistryKey::id),
        )
    })
    .unwrap_or((None, None));
    // SAFETY: see the `lua_stack` docs. The closure leaves exactly one value on the stack (the
    // result), or none when the writer broke.
    let value: Value = unsafe {
        lua.exec_raw(args, move |state| {
            let args = ffi::lua_gettop(state);
            // A C function has LUA_MINSTACK (20) free slots: room for the two tables. Reading
            // the registry by index does not raise.
            let mut top = args;
            let mut intern = |id: Option<c_int>| {
                id.map(|id| {
                    ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, ffi::lua_Integer::from(id));
                    top += 1;
                    top
                })
            };
            let (keys, labels) = (intern(keys), intern(labels));
            let mut w = Writer {
                state,
                depth: 0,
                room: 0,
                args,
                broken: None,
                keys,
                labels,
            };
            f(&mut w);
            if w.broken.is_none() && w.depth != 1 {
                w.broken = Some("the writer did not leave exactly one value");
            }
            match w.broken {
                None => {
                    if ffi::lua_gettop(state) > 1 {
                        ffi::lua_rotate(state, 1, 1);
                        ffi::lua_settop(state, 1);
                    }
                }
                Some(why) => {
                    ffi::lua_settop(state, 0);
                    *outcome = Some(why);
                }
            }
        })?
    };
    if let Some(why) = broken {
        return Err(mlua::Error::runtime(format!(
            "hexwar host: a view could not be built ({why})"
        )));
    }
    R::from_lua(value, lua)
}

/// `value` as Lua, exactly as `lua.to_value(value)` makes it (arrays carry mlua's array
/// metatable, null is `mlua::Value::NULL`, integers stay integers), in one protected call.
pub(crate) fn json_to_lua(lua: &Lua, value: &serde_json::Value) -> mlua::Result<Value> {
    match value {
        serde_json::Value::Array(_) | serde_json::Value::Object(_) => {}
        // scalars: no table to build, the serde bridge is as cheap
        other => return lua.to_value(other),
    }
    // (only borrows: `value` and the depth)
    write(lua, lua.array_metatable(), |w| push_json(w, value, 0))
}

/// Pushes `value`; the array metatable is [`write`]'s first argument. Depth is bounded by the
/// JSON itself (every variable came through a bounded conversion or serde_json's own recursion
/// limit), checked anyway.
fn push_json(w: &mut Writer, value: &serde_json::Value, depth: usize) {
    if depth > DEPTH_LIMIT {
        w.fail("the value is nested too deep to convert");
        return;
    }
    match value {
        serde_json::Value::Null => w.null(),
        serde_json::Value::Bool(b) => w.bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => w.int(i),
            None => w.float(n.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(s) => w.str(s),
        serde_json::Value::Array(a) => {
            w.table(a.len(), 0);
            for (i, x) in a.iter().enumerate() {
                push_json(w, x, depth + 1);
                w.set_item(i + 1);
            }
            w.arg(1);
            w.set_metatable();
        }
        serde_json::Value::Object(m) => {
            w.table(0, m.len());
            for (k, x) in m {
                w.key(k);
                push_json(w, x, depth + 1);
                w.set_keyed();
            }
        }
    }
}

/// The object `fields` with one more string field `key` = `value` (it replaces a field of that
/// name), as Lua, exactly as `lua.to_value` makes that map (fields in key order), in one
/// protected call: a command's table (`command` plus its arguments).
pub(crate) fn object_with_field_to_lua(
    lua: &Lua,
    fields: &serde_json::Map<String, serde_json::Value>,
    key: &str,
    value: &str,
) -> mlua::Result<Value> {
    // (only borrows: the map and the two strings)
    write(lua, lua.array_metatable(), |w| {
        let n = fields.len() + usize::from(!fields.contains_key(key));
        w.table(0, n);
        let mut pending = true;
        for (k, x) in fields {
            if pending && k.as_str() >= key {
                w.key(key);
                w.str(value);
                w.set_keyed();
                pending = false;
                if k == key {
                    continue;
                }
            }
            w.key(k);
            push_json(w, x, 1);
            w.set_keyed();
        }
        if pending {
            w.key(key);
            w.str(value);
            w.set_keyed();
        }
    })
}

/// A Lua sequence of strings (or `false` where an item is None), in one protected call: what
/// `lua.create_sequence_from` makes. `items` is moved into the write: its type must need no
/// drop (checked at compile time; borrowing iterators over maps and slices qualify).
pub(crate) fn string_sequence<'a>(
    lua: &Lua,
    items: impl ExactSizeIterator<Item = Option<&'a str>>,
) -> mlua::Result<Table> {
    write(lua, (), |w| {
        w.table(items.len(), 0);
        w.string_items(items);
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn limited() -> Lua {
        let lua = Lua::new();
        lua.set_memory_limit(1 << 24).unwrap();
        lua
    }

    #[test]
    fn builds_nested_tables_like_the_table_api() {
        let lua = limited();
        let t: Table = write(&lua, (), |w| {
            w.table(0, 3);
            w.str("x");
            w.set("id");
            w.number(3.0);
            w.set("ma");
            w.number(2.5);
            w.set("cost");
            w.table(2, 0);
            w.bool(true);
            w.set_item(1);
            w.opt_str(None);
            w.set_item(2);
            w.set("list");
            w.key("k");
            w.int(-1);
            w.set_keyed();
        })
        .unwrap();
        let check: String = lua
            .load("local t = ...; return t.id .. math.type(t.ma) .. t.cost .. tostring(t.list[1]) .. #t.list .. t.k")
            .call(t)
            .unwrap();
        assert_eq!(check, "xinteger2.5true1-1");
    }

    #[test]
    fn string_items_in_runs_and_gaps_are_each_set() {
        let lua = limited();
        let items = [
            Some("a"),
            Some("a"),
            None,
            Some("a"),
            Some("b"),
            Some("b"),
            Some("ab"),
        ];
        let t: Table = write(&lua, (), |w| {
            w.table(items.len(), 0);
            w.string_items(items.iter().copied());
        })
        .unwrap();
        let read: String = lua
            .load("local t = ...; local out = {} for i = 1, #t do out[i] = tostring(t[i]) end return table.concat(out, ',')")
            .call(t)
            .unwrap();
        assert_eq!(read, "a,a,false,a,b,b,ab");
    }

    #[test]
    fn interned_keys_are_found_at_their_position() {
        for (i, key) in KEYS.iter().enumerate() {
            assert_eq!(key_index(key), Some(i as ffi::lua_Integer + 1), "{key}");
        }
        assert_eq!(key_index("ids"), None);
        let lua = limited();
        let keys = intern_keys(&lua).unwrap();
        let table: Table = lua.registry_value(&keys).unwrap();
        let listed: Vec<String> = table.sequence_values().map(|k| k.unwrap()).collect();
        assert_eq!(listed, KEYS);
    }

    #[test]
    fn labels_need_the_interned_labels() {
        let lua = limited();
        let err = write::<Value, _>(&lua, (), |w| w.label(0)).unwrap_err();
        assert!(err.to_string().contains("no interned labels"), "{err}");
    }

    #[test]
    fn arguments_can_be_placed_in_the_result() {
        let lua = limited();
        let inner = lua.create_table().unwrap();
        inner.raw_set("k", 7).unwrap();
        let t: Table = write(&lua, (inner.clone(), "s"), |w| {
            w.table(2, 0);
            w.arg(1);
            w.set_item(1);
            w.arg(2);
            w.set_item(2);
        })
        .unwrap();
        assert_eq!(t.raw_get::<Table>(1).unwrap(), inner);
        assert_eq!(t.raw_get::<String>(2).unwrap(), "s");
    }

    #[test]
    fn a_misuse_is_an_error_not_a_crash() {
        let lua = limited();
        let no_table = write::<Value, _>(&lua, (), |w| {
            w.str("v");
            w.set("k");
        });
        assert_eq!(
            no_table.unwrap_err().to_string(),
            "runtime error: hexwar host: a view could not be built (a field set with no table below the value)"
        );
        let two = write::<Value, _>(&lua, (), |w| {
            w.int(1);
            w.int(2);
        });
        assert!(two
            .unwrap_err()
            .to_string()
            .contains("the writer did not leave exactly one value"));
        for deep in [0, 130] {
            let no_table_deep = write::<Value, _>(&lua, (), |w| {
                for _ in 0..deep {
                    w.table(0, 0);
                }
                w.str("t");
                w.str("v");
                w.set("k");
            });
            assert!(
                no_table_deep
                    .unwrap_err()
                    .to_string()
                    .contains("a field set with no table below the value"),
                "{deep}"
            );
        }
        let items_no_table = write::<Value, _>(&lua, (), |w| {
            w.int(1);
            w.string_items([Some("a")].iter().copied());
        });
        assert!(items_no_table
            .unwrap_err()
            .to_string()
            .contains("items set with no table below"));
        let key_not_a_string = write::<Value, _>(&lua, (), |w| {
            w.table(0, 1);
            w.int(1);
            w.str("v");
            w.set_keyed();
        });
        assert!(key_not_a_string
            .unwrap_err()
            .to_string()
            .contains("a field set with no table and key below the value"));
        let bad_metatable = write::<Value, _>(&lua, (), |w| {
            w.table(0, 0);
            w.int(1);
            w.set_metatable();
        });
        assert!(bad_metatable
            .unwrap_err()
            .to_string()
            .contains("a metatable that is not a table"));
        let bad_arg = write::<Value, _>(&lua, (1,), |w| w.arg(2));
        assert!(bad_arg
            .unwrap_err()
            .to_string()
            .contains("no such argument"));
    }

    #[test]
    fn a_set_with_only_an_argument_table_below_is_refused_and_the_argument_left_alone() {
        let lua = limited();
        let arg = lua.create_table().unwrap();
        let msg =
            |why: &str| format!("runtime error: hexwar host: a view could not be built ({why})");
        let no_table = "a field set with no table below the value";
        // (what, the writer's calls, the error)
        type Case = (&'static str, fn(&mut Writer), &'static str);
        let cases: [Case; 6] = [
            (
                "set",
                |w| {
                    w.str("v");
                    w.set("k");
                },
                no_table,
            ),
            (
                "set_item",
                |w| {
                    w.str("v");
                    w.set_item(1);
                },
                no_table,
            ),
            (
                "set_metatable",
                |w| {
                    w.table(0, 0);
                    w.set_metatable();
                },
                no_table,
            ),
            (
                "string_items, nothing pushed",
                |w| w.string_items([Some("a")].iter().copied()),
                "items set with no table below",
            ),
            (
                "string_items on a number",
                |w| {
                    w.int(1);
                    w.string_items([Some("a")].iter().copied());
                },
                "items set with no table below",
            ),
            (
                "set_keyed",
                |w| {
                    w.key("k");
                    w.str("v");
                    w.set_keyed();
                },
                "a field set with no table and key below the value",
            ),
        ];
        for (what, f, why) in cases {
            let result = write::<Value, _>(&lua, (arg.clone(),), f);
            assert_eq!(result.unwrap_err().to_string(), msg(why), "{what}");
            assert_eq!(arg.pairs::<Value, Value>().count(), 0, "{what}");
            assert!(arg.metatable().is_none(), "{what}");
        }
    }

    #[test]
    fn whole_numbers_below_9e15_are_integers_and_others_floats() {
        assert_eq!(whole(3.0), Some(3));
        assert_eq!(whole(-0.0), Some(0));
        assert_eq!(whole(2.5), None);
        assert_eq!(whole(-2.5), None);
        assert_eq!(whole(8_999_999_999_999_999.0), Some(8_999_999_999_999_999));
        assert_eq!(
            whole(-8_999_999_999_999_999.0),
            Some(-8_999_999_999_999_999)
        );
        assert_eq!(whole(9.0e15), None);
        assert_eq!(whole(-9.0e15), None);
        assert_eq!(whole(f64::INFINITY), None);
        assert_eq!(whole(f64::NAN), None);
        // as a script sees them
        let lua = limited();
        let t: Table = write(&lua, (), |w| {
            w.table(3, 0);
            w.number(9.0e15);
            w.set_item(1);
            w.number(8_999_999_999_999_999.0);
            w.set_item(2);
            w.number(-4.0);
            w.set_item(3);
        })
        .unwrap();
        let types: String = lua
            .load("local t = ...; return math.type(t[1]) .. ' ' .. math.type(t[2]) .. ' ' .. t[3]")
            .call(t)
            .unwrap();
        assert_eq!(types, "float integer -4");
    }

    #[test]
    fn deep_and_long_lists_grow_the_stack() {
        let lua = limited();
        let t: Table = write(&lua, (), |w| {
            for _ in 0..200 {
                w.table(0, 1);
            }
            for _ in 0..199 {
                w.set("inner");
            }
        })
        .unwrap();
        let depth: i64 = lua
            .load("local t, n = ..., 1; while t.inner do t, n = t.inner, n + 1 end; return n")
            .call(t)
            .unwrap();
        assert_eq!(depth, 200);
    }

    #[test]
    fn running_out_of_memory_is_a_memory_error() {
        let lua = Lua::new();
        lua.set_memory_limit(lua.used_memory() + 64 * 1024).unwrap();
        let big = "x".repeat(1000);
        let big = big.as_str();
        let result = write::<Value, _>(&lua, (), |w| {
            w.table(0, 0);
            for i in 0..10_000 {
                w.str(big);
                w.set_item(i + 1);
            }
        });
        assert!(
            matches!(result, Err(mlua::Error::MemoryError(_))),
            "{result:?}"
        );
    }

    #[test]
    fn null_and_metatables_are_set_like_the_serde_bridge() {
        let lua = limited();
        let t: Table = write(&lua, lua.array_metatable(), |w| {
            w.table(1, 0);
            w.null();
            w.set_item(1);
            w.arg(1);
            w.set_metatable();
        })
        .unwrap();
        assert_eq!(t.raw_get::<Value>(1).unwrap(), Value::NULL);
        assert_eq!(t.metatable(), Some(lua.array_metatable()));
    }

    #[test]
    fn json_nested_too_deep_is_an_error() {
        let lua = limited();
        let mut v = json!(1);
        for _ in 0..=DEPTH_LIMIT {
            v = json!([v]);
        }
        assert_eq!(
            json_to_lua(&lua, &v).unwrap_err().to_string(),
            "runtime error: hexwar host: a view could not be built (the value is nested too deep to convert)"
        );
        // one level less is fine
        let serde_json::Value::Array(inner) = v else {
            unreachable!()
        };
        assert!(json_to_lua(&lua, &inner[0]).is_ok());
    }

    #[test]
    fn json_objects_nested_too_deep_are_an_error_as_arrays_are() {
        let lua = limited();
        let mut v = json!(1);
        for _ in 0..=DEPTH_LIMIT {
            v = json!({ "k": v });
        }
        assert_eq!(
            json_to_lua(&lua, &v).unwrap_err().to_string(),
            "runtime error: hexwar host: a view could not be built (the value is nested too deep to convert)"
        );
        // one level less is fine
        let inner = &v["k"];
        let t: Table = json_to_lua(&lua, inner)
            .unwrap()
            .as_table()
            .unwrap()
            .clone();
        let depth: i64 = lua
            .load(
                "local t, n = ..., 0; while type(t) == 'table' do t, n = t.k, n + 1 end; return n",
            )
            .call(t)
            .unwrap();
        assert_eq!(depth as usize, DEPTH_LIMIT);
    }

    #[test]
    fn json_to_lua_makes_what_the_serde_bridge_makes() {
        let lua = limited();
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
        assert!(check.call::<bool>((fast.clone(), slow.clone())).unwrap());
        // and the same tables down to their `next` order
        let dump: mlua::Function = lua.load(super::super::LUA_DUMP).eval().unwrap();
        assert_eq!(
            dump.call::<String>(fast.clone()).unwrap(),
            dump.call::<String>(slow).unwrap()
        );
        let back: serde_json::Value = lua.from_value(fast).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn an_object_with_a_field_is_the_table_the_serde_bridge_makes_of_the_merged_map() {
        let lua = limited();
        let dump: mlua::Function = lua.load(super::super::LUA_DUMP).eval().unwrap();
        let names = [
            "a", "attacker", "b", "cmd", "command", "d", "from", "path", "power", "to", "unit", "z",
        ];
        // sets of up to 12 field names (every 7th subset): with and without `command` (which
        // the new field replaces), with fields before it, after it, or both. The dump compares
        // `next` orders too: a table sized for fewer fields grows by rehashing, which places
        // its keys otherwise than the serde bridge's table sized for all of them.
        for bits in (0u32..1 << names.len()).step_by(7) {
            let fields: serde_json::Map<String, serde_json::Value> = names
                .iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .map(|(i, k)| (k.to_string(), json!(i)))
                .collect();
            let mut merged = fields.clone();
            merged.insert("command".into(), json!("orders"));
            let fast = object_with_field_to_lua(&lua, &fields, "command", "orders").unwrap();
            let slow = lua.to_value(&merged).unwrap();
            assert_eq!(
                dump.call::<String>(fast.clone()).unwrap(),
                dump.call::<String>(slow).unwrap(),
                "{fields:?}"
            );
            let back: serde_json::Value = lua.from_value(fast).unwrap();
            assert_eq!(back, serde_json::Value::Object(merged));
        }
    }

    #[test]
    fn string_sequence_is_the_sequence_of_the_items() {
        let lua = limited();
        let t = string_sequence(&lua, [Some("a"), None, Some("")].iter().copied()).unwrap();
        let v: Vec<Value> = t.sequence_values().collect::<mlua::Result<_>>().unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[0].to_string().unwrap(), "a");
        assert_eq!(v[1], Value::Boolean(false));
        assert_eq!(v[2].to_string().unwrap(), "");
    }
}
