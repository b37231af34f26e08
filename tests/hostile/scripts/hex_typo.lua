return function()
  return hex.units.gett("b1")
end
