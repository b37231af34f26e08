//! The sandbox's guard on the C library functions whose work grows with their input, where the
//! instruction budget cannot see: a C closure around each that charges the work to the budget
//! (bytes made or scanned, values returned, elements joined or sorted: [`GUARDED`]), and for the
//! pattern functions first refuses a call whose backtracking estimate is too high
//! (`sandbox::pattern_cost`). It runs the library's original C function on the same stack.
//!
//! Why charge: one `string.rep("x", 16 * 2^20)` is a single VM instruction that copies 16 MB;
//! a loop dropping the results never reaches the memory limit and runs for hours under the
//! budget. Why C: a Rust callback cost ~5 800 machine instructions a call (mlua's argument
//! conversion and a protected call back into Lua for the original); order parsing calls
//! `gmatch` once for every new order, rules call `table.concat` and `table.sort` often. This
//! costs a few hundred.
//!
//! The rates, measured on France 1940 (`examples/charge_rates`, release build) against a mixed
//! loop of 5.6 ns a VM instruction, make one unit cost about one instruction's time or more:
//! `string.rep` of 16 MB 27 ms (0.29 instruction a byte), `upper` 0.09, `utf8.len` 0.09,
//! `sub` 0.01 a byte; `string.byte` 0.2, `table.unpack` 1.1 a value; `table.concat` 2.6 an
//! element of 6 bytes; `table.sort` 2.3 per element and halving (n log2 n).

use std::ffi::{c_void, CStr};
use std::os::raw::c_int;
use std::sync::Arc;

use mlua::{ffi, Function, Lua, Table};

use crate::rules::budget::{Budget, BUDGET_MARK, EXCEEDED};
use crate::rules::sandbox::{pattern_cost, C_LOOP_LIMIT, PATTERN_STEPS};

/// Bytes of string a call returns, per unit (`string.rep` of 16 MB: 0.29 instruction a byte).
const BYTES_MADE_PER_UNIT: u64 = 4;
/// Bytes a call reads without copying them (a pattern's subject, `utf8.len`), per unit.
const BYTES_SCANNED_PER_UNIT: u64 = 4;
/// Units per value returned (`string.byte`, `utf8.codepoint`, `table.unpack`) or element joined
/// (`table.concat`).
const UNITS_PER_ELEMENT: u64 = 1;
/// Units per element and halving of a sort (n log2 n in all).
const UNITS_PER_COMPARISON: u64 = 2;

/// What a guarded function is charged for before it runs (after it runs, every one but
/// `string.rep` is charged for the bytes of the strings it returns and, when `counts_results`,
/// for the values).
#[derive(Clone, Copy)]
enum Before {
    Nothing,
    /// `string.rep(s, n, sep)`: the bytes it will make, so a huge one is refused before it
    /// allocates (and not charged again after).
    Repeat,
    /// The subject (argument 1) from the position in argument `init` on (0: all of it).
    Subject {
        init: c_int,
    },
    /// The same, and a pattern (argument 2) whose backtracking estimate may refuse the call;
    /// `plain`: the argument that makes a `find` plain (0: none).
    Pattern {
        init: c_int,
        plain: c_int,
    },
    /// `table.concat`: the elements joined.
    Concat,
    /// `table.sort`: n log2 n comparisons; refused past `C_LOOP_LIMIT` elements.
    Sort,
    /// `string.format`: `%p` refused, and a table, function, thread or userdata without
    /// `__tostring` given to `%s` shown as its type, never its memory address.
    Format,
    /// `tostring`: a table, function, thread or userdata without `__tostring` is its type name.
    Tostring,
    /// `error`: a message holding NUL bytes gets them written `\x00`, charged as bytes made
    /// (mlua adds the traceback through a C string, which ended the message at its first NUL).
    Error,
    /// `assert`: the same for its message (argument 2) when it fails.
    Assert,
}

/// One guarded library function.
struct Guarded {
    library: &'static str,
    name: &'static CStr,
    before: Before,
    counts_results: bool,
}

const fn guarded(
    library: &'static str,
    name: &'static CStr,
    before: Before,
    counts_results: bool,
) -> Guarded {
    Guarded {
        library,
        name,
        before,
        counts_results,
    }
}

/// Every guarded function (its guard: `GUARDS`, at the same index).
const GUARDED: [Guarded; 20] = [
    guarded(
        "string",
        c"find",
        Before::Pattern { init: 3, plain: 4 },
        false,
    ),
    guarded(
        "string",
        c"match",
        Before::Pattern { init: 3, plain: 0 },
        false,
    ),
    guarded(
        "string",
        c"gmatch",
        Before::Pattern { init: 3, plain: 0 },
        false,
    ),
    guarded(
        "string",
        c"gsub",
        Before::Pattern { init: 0, plain: 0 },
        false,
    ),
    guarded("string", c"rep", Before::Repeat, false),
    guarded("string", c"sub", Before::Nothing, false),
    guarded("string", c"upper", Before::Nothing, false),
    guarded("string", c"lower", Before::Nothing, false),
    guarded("string", c"reverse", Before::Nothing, false),
    guarded("string", c"format", Before::Format, false),
    guarded("string", c"byte", Before::Nothing, true),
    guarded("utf8", c"len", Before::Subject { init: 2 }, false),
    guarded("utf8", c"offset", Before::Subject { init: 0 }, false),
    guarded("utf8", c"codepoint", Before::Nothing, true),
    guarded("table", c"concat", Before::Concat, false),
    guarded("table", c"unpack", Before::Nothing, true),
    guarded("table", c"sort", Before::Sort, false),
    guarded("_G", c"tostring", Before::Tostring, false),
    guarded("_G", c"error", Before::Error, false),
    guarded("_G", c"assert", Before::Assert, false),
];

/// Replaces each function of [`GUARDED`] in its library table with its guard, charging `budget`.
/// Must run before anything else wraps them: the guard calls the original C function directly.
pub(crate) fn guard_library(lua: &Lua, budget: &Arc<Budget>) -> mlua::Result<()> {
    // The guards reach the budget through a plain pointer (upvalue 2); each also holds this
    // userdata (upvalue 3), whose Arc keeps the budget alive as long as any guard exists.
    let keeper = lua.create_any_userdata(Arc::clone(budget))?;
    let budget_ptr = Arc::as_ptr(budget).cast_mut().cast::<c_void>();
    let globals = lua.globals();
    for (g, guard) in GUARDED.iter().zip(GUARDS) {
        let library: Table = globals.get(g.library)?;
        let name = g.name.to_string_lossy();
        let raw: Function = library.get(&*name)?;
        // SAFETY: the closure only pushes a light userdata and an integer next to the two
        // pushed values (room for them: exec_raw leaves LUA_MINSTACK free) and moves all four
        // into a new C closure's upvalues; exec_raw runs it protected.
        let guarded: Function = unsafe {
            lua.exec_raw((raw, keeper.clone()), |state| {
                // (a light C function has no upvalues: the guard may call it on its own frame)
                if ffi::lua_iscfunction(state, -2) == 0
                    || !ffi::lua_getupvalue(state, -2, 1).is_null()
                {
                    ffi::lua_settop(state, 0);
                    ffi::lua_pushnil(state);
                    return;
                }
                ffi::lua_pushlightuserdata(state, budget_ptr);
                ffi::lua_insert(state, -2);
                ffi::lua_pushcclosure(state, guard, 3);
            })
        }
        .map_err(|_| {
            mlua::Error::runtime(format!(
                "{}.{name} is not a plain C function: the sandbox cannot guard it",
                g.library
            ))
        })?;
        library.raw_set(&*name, guarded)?;
    }
    Ok(())
}

/// The guard of each entry of [`GUARDED`], by index.
const GUARDS: [ffi::lua_CFunction; 20] = [
    guarded_library_call::<0>,
    guarded_library_call::<1>,
    guarded_library_call::<2>,
    guarded_library_call::<3>,
    guarded_library_call::<4>,
    guarded_library_call::<5>,
    guarded_library_call::<6>,
    guarded_library_call::<7>,
    guarded_library_call::<8>,
    guarded_library_call::<9>,
    guarded_library_call::<10>,
    guarded_library_call::<11>,
    guarded_library_call::<12>,
    guarded_library_call::<13>,
    guarded_library_call::<14>,
    guarded_library_call::<15>,
    guarded_library_call::<16>,
    guarded_library_call::<17>,
    guarded_library_call::<18>,
    guarded_library_call::<19>,
];

/// The guard of `GUARDED[K]`; upvalue 1 is the library's original function, 2 the budget (a
/// pointer kept valid by upvalue 3).
///
/// It holds nothing that needs dropping, so the errors raised from it (its own, the budget's,
/// the original's on bad arguments, a `__len` metamethod's) may unwind through it as Lua's
/// longjmp.
unsafe extern "C-unwind" fn guarded_library_call<const K: usize>(
    state: *mut ffi::lua_State,
) -> c_int {
    // SAFETY (whole body): `state` is the running Lua state that called this function; the
    // indices read are arguments or this closure's upvalues, which Lua keeps valid meanwhile,
    // and upvalue 2 points to the budget upvalue 3 keeps alive.
    unsafe {
        let Some(g) = GUARDED.get(K) else {
            return ffi::luaL_error(state, c"a library guard lost its function".as_ptr());
        };
        let budget = || &*ffi::lua_touserdata(state, ffi::lua_upvalueindex(2)).cast::<Budget>();
        let before = match g.before {
            Before::Nothing => 0,
            Before::Repeat => repeated_bytes(state) / BYTES_MADE_PER_UNIT,
            Before::Subject { init } => scanned_bytes(state, init) / BYTES_SCANNED_PER_UNIT,
            Before::Pattern { init, plain } => {
                refuse_expensive_pattern(state, g.name, plain);
                scanned_bytes(state, init) / BYTES_SCANNED_PER_UNIT
            }
            Before::Concat => concat_elements(state).saturating_mul(UNITS_PER_ELEMENT),
            Before::Sort => sort_comparisons(state).saturating_mul(UNITS_PER_COMPARISON),
            Before::Format => {
                refuse_pointer_format(state);
                for i in 2..=ffi::lua_gettop(state) {
                    if shows_address(state, i) {
                        ffi::lua_pushstring(state, ffi::luaL_typename(state, i));
                        ffi::lua_replace(state, i);
                    }
                }
                0
            }
            Before::Tostring => {
                if ffi::lua_gettop(state) >= 1 && shows_address(state, 1) {
                    ffi::lua_pushstring(state, ffi::luaL_typename(state, 1));
                    return 1;
                }
                0
            }
            Before::Error => escape_nul_in_message(state, 1) / BYTES_MADE_PER_UNIT,
            Before::Assert if ffi::lua_toboolean(state, 1) == 0 => {
                escape_nul_in_message(state, 2) / BYTES_MADE_PER_UNIT
            }
            Before::Assert => 0,
        };
        if before > 0 && !budget().try_charge(before) {
            // (one call asking for more than the whole budget is an argument far too large,
            // not an endless loop: said so)
            if before > budget().limit() {
                return raise_one_call_error(state, budget(), g, before);
            }
            return raise_budget_error(state, budget());
        }
        let Some(original) = ffi::lua_tocfunction(state, ffi::lua_upvalueindex(1)) else {
            return ffi::luaL_error(
                state,
                c"%s: its guard lost the original function".as_ptr(),
                g.name.as_ptr(),
            );
        };
        let results = original(state);
        let top = ffi::lua_gettop(state);
        let made = match g.before {
            // (charged before)
            Before::Repeat => 0,
            _ => returned_bytes(state, top, results),
        };
        let mut after = made / BYTES_MADE_PER_UNIT;
        if g.counts_results {
            after = after.saturating_add((results.max(0) as u64).saturating_mul(UNITS_PER_ELEMENT));
        }
        if after > 0 && !budget().try_charge(after) {
            // (the results may fill the stack: `table.unpack`)
            ffi::lua_settop(state, top - results);
            return raise_budget_error(state, budget());
        }
        results
    }
}

/// Whether Lua would show the value at `index` as its memory address (`table: 0x55d0...`): a
/// table, function, thread or userdata without `__tostring`. Addresses differ from run to run,
/// and what scripts print or put in events must not (DESIGN.md principle 6).
unsafe fn shows_address(state: *mut ffi::lua_State, index: c_int) -> bool {
    // SAFETY: reads the argument at `index` of the running call; luaL_getmetafield pushes the
    // field only when it finds one, popped at once.
    unsafe {
        match ffi::lua_type(state, index) {
            ffi::LUA_TTABLE
            | ffi::LUA_TFUNCTION
            | ffi::LUA_TTHREAD
            | ffi::LUA_TUSERDATA
            | ffi::LUA_TLIGHTUSERDATA => {
                if ffi::luaL_getmetafield(state, index, c"__tostring".as_ptr()) != ffi::LUA_TNIL {
                    ffi::lua_pop(state, 1);
                    false
                } else {
                    true
                }
            }
            _ => false,
        }
    }
}

/// An error message (argument `index` of `error` or a failing `assert`) with each NUL byte
/// written `\x00`, as `print` and the reports show it: the bytes of the new message (0, and
/// nothing changed, when the argument is not a string holding a NUL). The original function
/// then runs on this frame, so `error`'s level counts from the script's call as before.
unsafe fn escape_nul_in_message(state: *mut ffi::lua_State, index: c_int) -> u64 {
    // SAFETY: reads the argument in place when it is a string (the stack keeps it alive while
    // the buffer, which may push a box of its own, is filled), then replaces it with the result.
    // Nothing here needs dropping, so a memory error may unwind through it as Lua's longjmp.
    unsafe {
        if ffi::lua_type(state, index) != ffi::LUA_TSTRING {
            return 0;
        }
        let mut len = 0usize;
        let ptr = ffi::lua_tolstring(state, index, &mut len);
        let message = std::slice::from_raw_parts(ptr.cast::<u8>(), len);
        let nuls = message.iter().filter(|&&b| b == 0).count();
        if nuls == 0 {
            return 0;
        }
        let mut buffer = std::mem::MaybeUninit::<ffi::luaL_Buffer>::uninit();
        let buffer = buffer.as_mut_ptr();
        ffi::luaL_buffinit(state, buffer);
        for (i, piece) in message.split(|&b| b == 0).enumerate() {
            if i > 0 {
                ffi::luaL_addlstring(buffer, c"\\x00".as_ptr(), 4);
            }
            ffi::luaL_addlstring(buffer, piece.as_ptr().cast(), piece.len());
        }
        ffi::luaL_pushresult(buffer);
        ffi::lua_replace(state, index);
        // (each NUL byte became four)
        (len + 3 * nuls) as u64
    }
}

/// Refuses `string.format` with a `%p` conversion: it shows a memory address.
unsafe fn refuse_pointer_format(state: *mut ffi::lua_State) {
    // SAFETY: reads argument 1 in place when it is a string, converting nothing.
    unsafe {
        if ffi::lua_type(state, 1) != ffi::LUA_TSTRING {
            return;
        }
        let mut len = 0usize;
        let ptr = ffi::lua_tolstring(state, 1, &mut len);
        let format = std::slice::from_raw_parts(ptr.cast::<u8>(), len);
        let mut i = 0;
        while i < format.len() {
            if format[i] == b'%' {
                // (flags, width and precision, then the conversion)
                let mut j = i + 1;
                while j < format.len() && b"-+ #0.123456789".contains(&format[j]) {
                    j += 1;
                }
                if format.get(j) == Some(&b'p') {
                    ffi::luaL_error(
                        state,
                        c"string.format: %%p shows a memory address, which differs from run to run (a game must replay the same)".as_ptr(),
                    );
                }
                i = j + 1;
            } else {
                i += 1;
            }
        }
    }
}

/// The bytes of the strings among the `results` values on top of the stack (`top`).
unsafe fn returned_bytes(state: *mut ffi::lua_State, top: c_int, results: c_int) -> u64 {
    // SAFETY: reads the values the original just returned, converting nothing.
    unsafe {
        let mut made = 0u64;
        for i in (top - results + 1).max(1)..=top {
            if ffi::lua_type(state, i) == ffi::LUA_TSTRING {
                made = made.saturating_add(ffi::lua_rawlen(state, i) as u64);
            }
        }
        made
    }
}

/// The bytes of the string argument 1 from the position in argument `init` on (all of it when
/// `init` is 0 or absent); 0 when argument 1 is not a string (the original raises its error).
unsafe fn scanned_bytes(state: *mut ffi::lua_State, init: c_int) -> u64 {
    // SAFETY: reads arguments of the running call, converting nothing.
    unsafe {
        if ffi::lua_type(state, 1) != ffi::LUA_TSTRING {
            return 0;
        }
        let len = ffi::lua_rawlen(state, 1) as i64;
        let mut is_int = 0;
        let start = if init > 0 {
            ffi::lua_tointegerx(state, init, &mut is_int)
        } else {
            1
        };
        // (Lua's reading of a position: negative from the end, 0 or absent as 1)
        let start = match start {
            _ if init > 0 && is_int == 0 => 1,
            s if s > 0 => s,
            0 => 1,
            s if s < -len => 1,
            s => len + s + 1,
        };
        (len - start + 1).max(0) as u64
    }
}

/// Refuses (a Lua error naming the function and the subject's size) a pattern call that could
/// backtrack for hours; `plain`: the argument that makes `find` plain (0: none).
unsafe fn refuse_expensive_pattern(state: *mut ffi::lua_State, name: &CStr, plain: c_int) {
    // SAFETY: reads arguments of the running call in place; a number is turned into its string
    // in its slot, as the pattern function itself would read it (`luaL_checklstring`).
    unsafe {
        let is_string = |index| {
            matches!(
                ffi::lua_type(state, index),
                ffi::LUA_TSTRING | ffi::LUA_TNUMBER
            )
        };
        if !(is_string(1) && is_string(2)) {
            return;
        }
        let bytes = |index| {
            let mut len = 0usize;
            let ptr = ffi::lua_tolstring(state, index, &mut len);
            std::slice::from_raw_parts(ptr.cast::<u8>(), len)
        };
        let subject = bytes(1);
        // string.find(s, p, init, plain): a plain find does not backtrack (Lua reads `plain`
        // as any true value), but compares up to the pattern's length at every start
        let cost = if plain > 0 && ffi::lua_toboolean(state, plain) != 0 {
            (subject.len().max(1) as f64) * (bytes(2).len().max(1) as f64)
        } else {
            pattern_cost(subject, bytes(2))
        };
        if cost > PATTERN_STEPS {
            ffi::luaL_error(
                state,
                c"string.%s: pattern too expensive for a %I-byte subject (it could run for hours); use fewer quantifiers or a shorter subject".as_ptr(),
                name.as_ptr(),
                subject.len() as ffi::lua_Integer,
            );
        }
    }
}

/// `string.rep(s, n, sep)`: the bytes of its result; 0 when the arguments are not a string and
/// an integer (the original raises its error, or converts a number: a small overlook).
unsafe fn repeated_bytes(state: *mut ffi::lua_State) -> u64 {
    // SAFETY: reads arguments of the running call; a number to repeat or separate with is
    // turned into its string in its slot, as `string.rep` itself reads it (`luaL_checklstring`).
    unsafe {
        for index in [1, 3] {
            if ffi::lua_type(state, index) == ffi::LUA_TNUMBER {
                ffi::lua_tolstring(state, index, std::ptr::null_mut());
            }
        }
        if ffi::lua_type(state, 1) != ffi::LUA_TSTRING {
            return 0;
        }
        let mut is_int = 0;
        let n = ffi::lua_tointegerx(state, 2, &mut is_int);
        if is_int == 0 || n <= 0 {
            return 0;
        }
        let n = n as u64;
        let sep = if ffi::lua_type(state, 3) == ffi::LUA_TSTRING {
            ffi::lua_rawlen(state, 3) as u64
        } else {
            0
        };
        let len = ffi::lua_rawlen(state, 1) as u64;
        n.saturating_mul(len)
            .saturating_add((n - 1).saturating_mul(sep))
    }
}

/// `table.concat(t, sep, i, j)`: the elements it will join. The length (`j`'s default) is read
/// here, `__len` and all, and handed to the original as `j`, so `__len` runs once.
unsafe fn concat_elements(state: *mut ffi::lua_State) -> u64 {
    // SAFETY: reads arguments of the running call; `luaL_len` may run `__len` (Lua code, counted
    // by the budget) or raise, over this frame that owns nothing.
    unsafe {
        if ffi::lua_type(state, 1) != ffi::LUA_TTABLE {
            return 0;
        }
        let mut is_int = 0;
        let first = match ffi::lua_type(state, 3) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => 1,
            _ => ffi::lua_tointegerx(state, 3, &mut is_int),
        };
        let last = match ffi::lua_type(state, 4) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => {
                let len = ffi::luaL_len(state, 1);
                ffi::lua_settop(state, 3);
                ffi::lua_pushinteger(state, len);
                len
            }
            _ => ffi::lua_tointegerx(state, 4, &mut is_int),
        };
        // (a wrong type is the original's error to raise)
        if last < first {
            return 0;
        }
        last.abs_diff(first).saturating_add(1)
    }
}

/// `table.sort(t)`: n log2 n for the n elements; a length past `C_LOOP_LIMIT` (only a
/// lying `__len` gets there) is refused, naming the call, instead of sorting for hours.
unsafe fn sort_comparisons(state: *mut ffi::lua_State) -> u64 {
    // SAFETY: as `concat_elements`.
    unsafe {
        if ffi::lua_type(state, 1) != ffi::LUA_TTABLE {
            return 0;
        }
        let n = ffi::luaL_len(state, 1);
        if n > C_LOOP_LIMIT {
            ffi::luaL_error(
                state,
                c"table.sort: %I elements to sort in one call (at most %I: a lying __len?)"
                    .as_ptr(),
                n,
                C_LOOP_LIMIT,
            );
        }
        let n = n.max(0) as u64;
        n.saturating_mul(u64::from(n.max(1).ilog2() + 1))
    }
}

/// Raises the budget error at the innermost script line on the stack (the line whose call
/// asked for the work), marking the budget spent with it so protected calls raise it again.
unsafe fn raise_budget_error(state: *mut ffi::lua_State, budget: &Budget) -> c_int {
    // SAFETY: as push_place; the pushes may raise a memory error over this frame, which owns
    // nothing (the budget is borrowed).
    unsafe {
        // (room for the message's four parts; past the arguments, a C call always has it)
        if ffi::lua_checkstack(state, 4) == 0 {
            ffi::lua_settop(state, 0);
        }
        push_place(state);
        ffi::lua_pushlstring(state, BUDGET_MARK.as_ptr().cast(), BUDGET_MARK.len());
        ffi::lua_pushfstring(
            state,
            c" of %I ".as_ptr(),
            budget.limit() as ffi::lua_Integer,
        );
        ffi::lua_pushlstring(state, EXCEEDED.as_ptr().cast(), EXCEEDED.len());
        raise_pushed(state, budget, 4)
    }
}

/// The budget error of one call that alone asks for more work than the whole budget
/// (`string.rep("x", 2^30)`): an argument far too large, which the usual "(an endless loop?)"
/// would misname.
unsafe fn raise_one_call_error(
    state: *mut ffi::lua_State,
    budget: &Budget,
    g: &Guarded,
    units: u64,
) -> c_int {
    // SAFETY: as raise_budget_error.
    unsafe {
        if ffi::lua_checkstack(state, 5) == 0 {
            ffi::lua_settop(state, 0);
        }
        push_place(state);
        ffi::lua_pushlstring(state, BUDGET_MARK.as_ptr().cast(), BUDGET_MARK.len());
        ffi::lua_pushfstring(
            state,
            c" of %I instructions exceeded by one call: ".as_ptr(),
            budget.limit() as ffi::lua_Integer,
        );
        ffi::lua_pushlstring(state, g.library.as_ptr().cast(), g.library.len());
        ffi::lua_pushfstring(
            state,
            c".%s asks for %I units of work at once (an argument far too large?)".as_ptr(),
            g.name.as_ptr(),
            units.min(i64::MAX as u64) as ffi::lua_Integer,
        );
        raise_pushed(state, budget, 5)
    }
}

/// Joins the `parts` message pieces on top of the stack, marks the budget spent with the
/// message (protected calls raise it again) and raises it.
unsafe fn raise_pushed(state: *mut ffi::lua_State, budget: &Budget, parts: c_int) -> c_int {
    // SAFETY: the `parts` values on top of the stack are the strings just pushed.
    unsafe {
        ffi::lua_concat(state, parts);
        let mut len = 0usize;
        let message = ffi::lua_tolstring(state, -1, &mut len);
        budget.exhaust_with(std::slice::from_raw_parts(message.cast::<u8>(), len));
        ffi::lua_error(state)
    }
}

/// Pushes the place of the innermost script line on the stack (`rules/x.lua:12: `, or
/// `?:?: `).
unsafe fn push_place(state: *mut ffi::lua_State) {
    // SAFETY: `lua_getstack`/`lua_getinfo` fill a plain struct on this frame.
    unsafe {
        let mut ar: ffi::lua_Debug = std::mem::zeroed();
        let mut level = 1;
        let mut found = false;
        while level < 32 && ffi::lua_getstack(state, level, &mut ar) != 0 {
            if ffi::lua_getinfo(state, c"Sl".as_ptr(), &mut ar) != 0 && ar.currentline > 0 {
                found = true;
                break;
            }
            level += 1;
        }
        if found {
            ffi::lua_pushfstring(
                state,
                c"%s:%d: ".as_ptr(),
                ar.short_src.as_ptr(),
                ar.currentline,
            );
        } else {
            ffi::lua_pushstring(state, c"?:?: ".as_ptr());
        }
    }
}

#[cfg(test)]
mod tests {

    use mlua::Lua;

    use super::guard_library;
    use crate::rules::budget::Budget;

    /// The guard calls the library's original C function on its own frame, so it takes only a
    /// plain C function: one a host replaced before the sandbox was made (a Lua function, or a
    /// C closure with upvalues, as a Rust callback is) is refused, naming it.
    #[test]
    fn only_a_plain_c_function_is_guarded() {
        let refused =
            "runtime error: string.find is not a plain C function: the sandbox cannot guard it";
        // a Lua function without upvalues
        let lua = Lua::new();
        let find = lua
            .load("return function() return 1 end")
            .eval::<mlua::Function>();
        let string: mlua::Table = lua.globals().get("string").unwrap();
        string.set("find", find.unwrap()).unwrap();
        let err = guard_library(&lua, &Budget::new(1000)).unwrap_err();
        assert_eq!(err.to_string(), refused);
        // a C closure with an upvalue
        let lua = Lua::new();
        let find = lua.create_function(|_, ()| Ok(1)).unwrap();
        let string: mlua::Table = lua.globals().get("string").unwrap();
        string.set("find", find).unwrap();
        let err = guard_library(&lua, &Budget::new(1000)).unwrap_err();
        assert_eq!(err.to_string(), refused);
        // the standard library as it is: every function guarded
        let lua = Lua::new();
        assert!(guard_library(&lua, &Budget::new(1000)).is_ok());
    }
}
