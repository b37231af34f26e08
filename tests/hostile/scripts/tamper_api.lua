return function()
  hex.units.get = function() return nil end
end
