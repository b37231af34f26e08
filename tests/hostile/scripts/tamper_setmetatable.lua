return function()
  setmetatable(hex.map, {})
end
