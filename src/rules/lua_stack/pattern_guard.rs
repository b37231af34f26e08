//! The sandbox's guard on the pattern functions (`string.find`, `match`, `gmatch`, `gsub`): a C
//! closure per function that refuses a call whose backtracking estimate is too high
//! (`sandbox::pattern_cost`) and otherwise runs the library's original C function on the same
//! stack.
//!
//! Why C: a Rust callback cost ~5 800 machine instructions a call (mlua's argument conversion and
//! a protected call back into Lua for the original); order parsing calls `gmatch` once for every
//! new order. This costs a few hundred.

use std::ffi::CStr;
use std::os::raw::c_int;

use mlua::{ffi, Function, Lua, Table};

use crate::rules::sandbox::{pattern_cost, PATTERN_STEPS};

/// The four guarded functions, by the index their guard is instantiated with.
const PATTERN_FUNCTIONS: [&CStr; 4] = [c"find", c"match", c"gmatch", c"gsub"];

/// Replaces each pattern function of `string` (the library table) with its guard.
pub(crate) fn guard_patterns(lua: &Lua, string: &Table) -> mlua::Result<()> {
    let guards: [ffi::lua_CFunction; 4] = [
        guarded_pattern_call::<0>,
        guarded_pattern_call::<1>,
        guarded_pattern_call::<2>,
        guarded_pattern_call::<3>,
    ];
    for (name, guard) in PATTERN_FUNCTIONS.into_iter().zip(guards) {
        let name = name.to_string_lossy();
        let raw: Function = string.get(&*name)?;
        // SAFETY: the closure only moves the pushed original into a new C closure's upvalue;
        // exec_raw checks the stack and runs it protected.
        let guarded: Function =
            unsafe { lua.exec_raw(raw, |state| ffi::lua_pushcclosure(state, guard, 1))? };
        string.raw_set(&*name, guarded)?;
    }
    Ok(())
}

/// The guard of `PATTERN_FUNCTIONS[K]`; its one upvalue is the library's original function.
///
/// It holds nothing that needs dropping, so the errors raised from it (its own, or the
/// original's on bad arguments) may unwind through it as Lua's longjmp.
unsafe extern "C-unwind" fn guarded_pattern_call<const K: usize>(
    state: *mut ffi::lua_State,
) -> c_int {
    // SAFETY (whole body): `state` is the running Lua state that called this function; the
    // indices read are arguments or this closure's upvalue, which Lua keeps valid meanwhile.
    unsafe {
        let is_string = |index| ffi::lua_type(state, index) == ffi::LUA_TSTRING;
        // string.find(s, p, init, plain): a plain find does not backtrack (Lua reads `plain`
        // as any true value).
        let plain = K == 0 && ffi::lua_toboolean(state, 4) != 0;
        if !plain && is_string(1) && is_string(2) {
            let bytes = |index| {
                let mut len = 0usize;
                let ptr = ffi::lua_tolstring(state, index, &mut len);
                std::slice::from_raw_parts(ptr.cast::<u8>(), len)
            };
            let subject = bytes(1);
            if pattern_cost(subject, bytes(2)) > PATTERN_STEPS {
                let name = PATTERN_FUNCTIONS[K];
                return ffi::luaL_error(
                    state,
                    c"string.%s: pattern too expensive for a %I-byte subject (it could run for hours); use fewer quantifiers or a shorter subject".as_ptr(),
                    name.as_ptr(),
                    subject.len() as ffi::lua_Integer,
                );
            }
        }
        match ffi::lua_tocfunction(state, ffi::lua_upvalueindex(1)) {
            Some(original) => original(state),
            None => ffi::luaL_error(
                state,
                c"string.%s: its guard lost the original function".as_ptr(),
                PATTERN_FUNCTIONS[K].as_ptr(),
            ),
        }
    }
}
