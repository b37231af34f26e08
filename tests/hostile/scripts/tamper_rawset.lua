return function()
  rawset(hex.units, "get", function() return nil end)
end
