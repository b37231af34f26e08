return function()
  local mt = getmetatable(hex.state)
  mt.__index = {}
end
