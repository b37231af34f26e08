return function()
  local s = string.rep("x", 1 << 20)
  for _ = 1, 8 do s = s:gsub("x", "xx") end
  return s
end
