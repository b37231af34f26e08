return function()
  local parts = {}
  for i = 1, 64 do parts[i] = string.rep("y", 1 << 20) end
  return table.concat(parts)
end
