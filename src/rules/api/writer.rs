//! Fresh Lua tables written straight onto the Lua stack, in one protected call.
//!
//! Why: with a memory limit set (every game has one), each `Table::raw_set` of mlua runs its own
//! protected call, and each `&str` it is given first becomes a registry-held Lua string that is
//! then released: a unit view of a dozen fields cost ~4 µs, a list of 180 brief views ~150 µs.
//! [`write`] runs one protected call (`Lua::exec_raw`) in which [`Writer`] pushes values and sets
//! fields with the plain C API: the same tables, built by the same sequence of table operations
//! (so the same layout and `pairs` order), several times cheaper.
//!
//! The safety argument, in one place:
//! - Every C call a [`Writer`] makes is checked first: the stack has room (`lua_checkstack`) and
//!   a field or item is only set on a table the writer itself pushed, with rawset (no
//!   metamethod, no Lua code runs). A misuse (setting a field with no table below) does nothing
//!   and makes [`write`] return an error instead.
//! - The only errors these calls can raise are memory errors. Lua raises them by `longjmp` to the
//!   protected call, skipping the Rust frames in between: those frames must own nothing that
//!   needs dropping. The closure's own captures are checked at compile time (`needs_drop`); its
//!   body must only borrow (precompute anything owned before calling [`write`]). Each use says so.
//! - The closure must not panic (no indexing that can fail): a panic cannot cross the C frames.
//!
//! Interning a string costs Lua a hash and a lookup: the field names views use ([`KEYS`]) and
//! the map's labels are kept in two registry tables made once per VM ([`intern_keys`],
//! [`intern_labels`]), and pushed from there by index.

use std::os::raw::c_int;

use mlua::{ffi, FromLua, IntoLuaMulti, Lua, RegistryKey, Value};

use super::with_host;

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
            // SAFETY: room reserved; may raise a memory error (see the module docs).
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

    /// Pops the top value into `key` of the table below it (a raw set: `t[key] = v`).
    pub fn set(&mut self, key: &str) {
        if !self.table_below_top() {
            return;
        }
        if self.reserve() {
            // SAFETY: stack is [.. table, value]; pushing the key (room reserved; an interned
            // one read from the keys table, or a new string) and rotating gives [.. table, key,
            // value]; lua_rawset pops both and calls no metamethod. The key is a string, a
            // valid key. May raise a memory error.
            unsafe {
                match (self.keys, key_index(key)) {
                    (Some(keys), Some(i)) => {
                        ffi::lua_rawgeti(self.state, keys, i);
                    }
                    _ => {
                        ffi::lua_pushlstring(self.state, key.as_ptr().cast(), key.len());
                    }
                }
                ffi::lua_rotate(self.state, -2, 1);
                ffi::lua_rawset(self.state, -3);
            }
            self.depth -= 2;
        }
    }

    /// Pops the top value into the field named by hex `index`'s label (see [`Writer::label`]).
    pub fn set_label(&mut self, index: u32) {
        if !self.table_below_top() {
            return;
        }
        self.label(index);
        if self.broken.is_none() {
            // SAFETY: stack is [.. table, value, label]; rotating gives [.. table, label,
            // value]; lua_rawset pops both, no metamethod; a label is a string. May raise a
            // memory error.
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
}

fn clamp(n: usize) -> c_int {
    n.min(c_int::MAX as usize) as c_int
}

/// `x` as an integer when it is whole (and well inside the integers a float holds exactly).
pub(crate) fn whole(x: f64) -> Option<i64> {
    (x.fract() == 0.0 && x.abs() < 9.0e15).then_some(x as i64)
}

/// Runs `f` in one protected call with `args` on the stack (see [`Writer::arg`]); `f` pushes
/// exactly one value, which is returned. `f` must only borrow: see the module docs.
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
    // SAFETY: see the module docs. The closure leaves exactly one value on the stack (the
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

#[cfg(test)]
mod tests {
    use mlua::Table;

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
        })
        .unwrap();
        let check: String = lua
            .load("local t = ...; return t.id .. math.type(t.ma) .. t.cost .. tostring(t.list[1]) .. #t.list")
            .call(t)
            .unwrap();
        assert_eq!(check, "xinteger2.5true1");
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
        let bad_arg = write::<Value, _>(&lua, (1,), |w| w.arg(2));
        assert!(bad_arg
            .unwrap_err()
            .to_string()
            .contains("no such argument"));
    }

    #[test]
    fn deep_and_long_lists_grow_the_stack() {
        let lua = limited();
        let t: Table = write(&lua, (), |w| {
            for _ in 0..100 {
                w.table(0, 1);
            }
            for _ in 0..99 {
                w.set("inner");
            }
        })
        .unwrap();
        let depth: i64 = lua
            .load("local t, n = ..., 1; while t.inner do t, n = t.inner, n + 1 end; return n")
            .call(t)
            .unwrap();
        assert_eq!(depth, 100);
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
}
