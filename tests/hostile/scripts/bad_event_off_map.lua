-- A rule moves a unit to a hex the map does not have (the second event of the list).
return function()
  return {
    { event = "UnitStatusChanged", unit = "b1", add = { "tired" } },
    { event = "UnitMoved", unit = "b1", from = "0203", to = "9999", path = { "9999" }, cost = 1 },
  }
end
