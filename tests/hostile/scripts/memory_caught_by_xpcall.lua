-- A memory bomb inside xpcall: Lua calls no message handler for a memory error, so the guard
-- must see it in xpcall's result (it went on, as under pcall before that guard).
return function()
  xpcall(function() local s = "x" while true do s = s .. s end end, function(m) return m end)
  return { { event = "VarSet", key = "survived", value = true } }
end
