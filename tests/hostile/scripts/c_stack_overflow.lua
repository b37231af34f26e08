-- Recursion through a C function (tostring calling __tostring): Lua's "C stack overflow" names
-- no place by itself; the host gives it the innermost script frame's.
return function()
  local function f() return tostring(setmetatable({}, { __tostring = f })) end
  return f()
end
