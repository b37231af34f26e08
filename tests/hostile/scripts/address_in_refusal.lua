-- A table or a function as the key of a refused assignment: the message names its type, not
-- its address (the first line of each message).
return function()
  local _, global = pcall(function() _G[{}] = 1 end)
  local _, api = pcall(function() hex.units[print] = 1 end)
  local function first(m) return (tostring(m):match("[^\n]*")) end
  error(first(global) .. " / " .. first(api), 0)
end
