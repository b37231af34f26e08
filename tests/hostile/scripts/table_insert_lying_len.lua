-- table.insert at position 1 of a table whose __len lies: it would shift ~2^63 elements in C.
return function()
  local t = setmetatable({}, { __len = function() return math.maxinteger - 1 end })
  table.insert(t, 1, "x")
end
