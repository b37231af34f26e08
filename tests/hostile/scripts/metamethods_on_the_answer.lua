-- The events returned in a table whose metamethods lie, loop or fail: the host reads the
-- answer raw, as plain data, and runs none of them (an `__index` asked for `event` made the
-- list read as one malformed event; a looping one spent the call's budget, its error dropped).
return function()
  local mt = {
    __index = function(_, key)
      if key == "event" then return "VarSet" end
      while true do end
    end,
    __len = function() error("boom") end,
  }
  return setmetatable({ setmetatable({ event = "VarSet", key = "k", value = 1 }, mt) }, mt)
end
