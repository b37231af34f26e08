-- What tostring and string.format show of a table, function or thread: its type, never its
-- memory address, which differs from run to run (the message is the test's whole check).
return function()
  local custom = setmetatable({}, { __tostring = function() return "custom" end })
  error(tostring({}) .. "|" .. string.format("%s %s %s", print, coroutine.running(), custom)
    .. "|" .. tostring(custom), 0)
end
