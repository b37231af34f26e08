//! Lua values built and read straight on the Lua stack, in one protected call per value: the
//! only `unsafe` code in the crate.
//!
//! Why: with a memory limit set (every game has one), each `Table::raw_set` of mlua and each
//! value its serde bridge reads or makes runs its own protected call, and each `&str` it is
//! given first becomes a registry-held Lua string: a unit view of a dozen fields cost ~4 µs, a
//! Diplomacy position ~150 protected calls. Here one protected call (`Lua::exec_raw`) does the
//! whole value with the plain C API: the same tables, built by the same sequence of table
//! operations (so the same layout and `pairs` order), several times cheaper.
//!
//! * [`writer`]: pushes values and assembles tables ([`writer::Writer`], one entry point
//!   [`writer::write`]); the views of `hex.*`, label lists, `json_to_lua`, `string_sequence`
//!   are all built on it. No other code pushes onto the Lua stack.
//! * [`reader`]: reads a Lua table into JSON (`lua_to_json`, `plain_lua_to_json`), a list of hex
//!   labels into hex indices (`hex_indices`).
//! * [`options`]: a query's options table of plain values (booleans, counts, lists of names)
//!   in one walk (`hex.units.ids`); any other shape is left to the caller's general reading.
//! * [`compare`]: whether a Lua table reads as a given JSON value (`hex.state.matches`).
//! * [`library_guard`]: the sandbox's guard on the library functions whose work grows with
//!   their input (`string.rep`, `table.concat`, the pattern functions ...), a C closure around
//!   each that charges the work to the instruction budget.
//!
//! # The safety argument, in one place
//!
//! Writing ([`writer::Writer`]):
//! - Every C call a writer makes is checked first: the stack has room (`lua_checkstack`, which
//!   returns 0 instead of raising) and a field, item or metatable is only set on a table the
//!   writer pushed (below the value; below the key for `set_keyed`, whose key must be a string;
//!   on top for `string_items`), with rawset / `lua_setmetatable` (no metamethod, no Lua code
//!   runs). A misuse (setting a field with no table below) does nothing and makes `write`
//!   return an error.
//! - The only errors these calls can raise are memory errors. Lua raises them by `longjmp` to the
//!   protected call, skipping the Rust frames in between: those frames must own nothing that
//!   needs dropping. The closure's own captures are checked at compile time (`needs_drop`); its
//!   body must only borrow (precompute anything owned before calling `write`). Each use says so.
//! - The closure must not panic (no indexing that can fail): a panic cannot cross the C frames.
//!
//! Reading and comparing ([`reader`], [`options`], [`compare`]):
//! - It raises no Lua error at all: it calls only `lua_checkstack`, `lua_rawlen`, `lua_rawgeti`,
//!   `lua_next` on keys `lua_next` gave, `lua_type`, and the `lua_to*` functions on values of the
//!   matching type (a string is read in place, nothing is converted), and `lua_getmetatable`,
//!   `lua_rawgetp` on the registry and `lua_rawequal` to tell the host's marked values (a list,
//!   `reader::is_marked_list`; a `hex.state.json` value); `reader::hex_indices` also
//!   `lua_pushvalue` and `lua_rawget` on the host's own label index (a plain table, a string key:
//!   a lookup that neither allocates nor calls a metamethod). Its frames may therefore
//!   own Rust values (the JSON being built). It pops what it pushes, checks room at each level
//!   and stops at `bounded::DEPTH_LIMIT` levels and `VALUE_LIMIT` values.
//!
//! Guarding the library functions ([`library_guard`]):
//! - The guard is a C function Lua calls with its arguments on the stack. It reads them only by
//!   type (strings in place and their lengths, integers with `lua_tointegerx`, `plain` with
//!   `lua_toboolean`), and for `table.concat`/`table.sort` the length with `luaL_len` (which may
//!   run a `__len` metamethod or raise); `concat` gets that length as its own `j`. Its upvalues:
//!   the library's original, a light C function (checked when the guard is made) it calls
//!   directly on the same stack, as if Lua had called it; the budget as a light userdata; a
//!   userdata holding an `Arc` of that budget, which keeps the pointer valid as long as the guard
//!   exists.
//! - After the original returns it only reads the lengths of the string results.
//! - Its errors (`luaL_error`, the budget's `lua_error`, `__len`'s, or the original's on bad
//!   arguments) `longjmp` over its frame: the frame owns nothing that needs dropping (byte
//!   slices borrowed from Lua strings, numbers, a `lua_Debug`, a borrowed budget). The budget's
//!   message is composed on the Lua stack; the budget copies it before the error is raised.

pub(crate) mod compare;
pub(crate) mod library_guard;
pub(crate) mod options;
pub(crate) mod reader;
pub(crate) mod writer;

/// For tests comparing tables built here with mlua's own builds: a Lua function that writes a
/// value out in `next` order, with value types (integer or float) and metatables, so two tables
/// print alike only when their content, layout and `pairs` order are alike.
#[cfg(test)]
pub(crate) const LUA_DUMP: &str = r#"
    local function dump(v)
      if type(v) == "table" then
        local parts = {}
        local k, x = next(v)
        while k ~= nil do
          parts[#parts + 1] = tostring(k) .. "=" .. dump(x)
          k, x = next(v, k)
        end
        return (getmetatable(v) and "mt" or "") .. "{" .. table.concat(parts, ",") .. "}"
      end
      return (math.type(v) or type(v)) .. ":" .. tostring(v)
    end
    return dump
"#;
