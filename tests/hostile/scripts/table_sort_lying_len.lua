-- table.sort of a table whose __len lies: it would sort ~2^31 elements in C, reading each through
-- an __index that is a C function (no Lua instruction for the budget to count).
return function()
  local t = setmetatable({}, { __len = function() return 2 ^ 31 - 2 end, __index = tostring })
  table.sort(t)
end
