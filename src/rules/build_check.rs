//! Whether this build's Lua replays the same from one process to the next: the order of `pairs`
//! over string keys follows Lua's string-hash seed, which hexwar's `.cargo/config.toml` fixes
//! when Lua is compiled (docs/embedding.md, "Determinism needs one build setting"). A program
//! that depends on hexwar and forgot the setting gets a seed made from addresses and the clock,
//! and nothing else tells it: this asks.

/// True when Lua's string-hash seed is fixed at build time. Two fresh Lua states, alive at
/// once, list the same string keys with `pairs`: with the fixed seed in the same order; with
/// Lua's default seed (mixed from the state's own address) in orders that differ.
pub fn lua_hash_seed_is_fixed() -> bool {
    let order = |lua: &mlua::Lua| -> mlua::Result<String> {
        lua.load(
            "local t = {}\n\
             for i = 1, 40 do t['key' .. i] = i end\n\
             local out = {}\n\
             for k in pairs(t) do out[#out + 1] = k end\n\
             return table.concat(out, ',')",
        )
        .eval()
    };
    let (first, second) = (mlua::Lua::new(), mlua::Lua::new());
    match (order(&first), order(&second)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    /// This repository's build sets the seed (`.cargo/config.toml`).
    #[test]
    fn this_build_fixes_the_lua_hash_seed() {
        assert!(super::lua_hash_seed_is_fixed());
    }
}
