return function()
  local s = string.rep("x", 1 << 30)
  return s
end
