//! What `hex.rules.get` hands a script during play: a read-only view of a declaration. The
//! host compiles declarations (movement costs, tables) once the modules have loaded, and a save
//! holds none of them, so a change made in play would be ignored by the compiled rules and lost
//! by a save, and a resumed game would play on differently: a write is an error at its line.

use mlua::{Function, Lua, Value};

/// The registry entry holding the function that makes views.
const VIEW_KEY: &str = "hexwar.declared_view";

/// Views are made in Lua (a table behind a metatable, nested tables behind views of their own,
/// one view per table so that `get(x) == get(x)`); `pairs`, `ipairs`, `#` and indexing read
/// through.
const VIEW_SOURCE: &str = r#"
local setmetatable, next, type, error, tostring = ...
local views = setmetatable({}, { __mode = "k" })
local function view(t)
  local v = views[t]
  if v then return v end
  v = {}
  setmetatable(v, {
    __index = function(_, k)
      local x = t[k]
      if type(x) == "table" then return view(x) end
      return x
    end,
    __newindex = function(_, k)
      error("declarations are fixed once the rules have loaded (tried to set '" .. tostring(k)
        .. "' in one during play): the compiled rules would not see it and a save would lose it;"
        .. " a value that changes in play lives in hex.state", 2)
    end,
    __len = function() return #t end,
    __pairs = function()
      return function(_, k)
        local nk, nv = next(t, k)
        if type(nv) == "table" then nv = view(nv) end
        return nk, nv
      end, v, nil
    end,
    __metatable = "a declaration (read-only during play)",
    __hexwar_read_only = true,
  })
  views[t] = v
  return v
end
return view
"#;

/// Makes the view function (once per VM, on the first view asked for: a game that never asks
/// pays nothing, not even the collector's visits to the views' weak table).
fn view_function(lua: &Lua) -> mlua::Result<Function> {
    if let Some(view) = lua.named_registry_value::<Option<Function>>(VIEW_KEY)? {
        return Ok(view);
    }
    let globals = lua.globals();
    let make: Function = lua
        .load(VIEW_SOURCE)
        .set_name("=hexwar declarations")
        .into_function()?;
    let view: Function = make.call((
        globals.get::<Value>("setmetatable")?,
        globals.get::<Value>("next")?,
        globals.get::<Value>("type")?,
        globals.get::<Value>("error")?,
        globals.get::<Value>("tostring")?,
    ))?;
    lua.set_named_registry_value(VIEW_KEY, &view)?;
    Ok(view)
}

/// `value` as a script may hold it during play: tables behind a read-only view.
pub(crate) fn read_only(lua: &Lua, value: Value) -> mlua::Result<Value> {
    match value {
        Value::Table(_) => view_function(lua)?.call(value),
        other => Ok(other),
    }
}
