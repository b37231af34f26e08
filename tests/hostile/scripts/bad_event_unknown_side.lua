-- A rule places a unit on a side the scenario does not have: it must not reach the state.
return function()
  return { event = "UnitPlaced", unit = { id = "x9", side = "purple", type = "infantry", at = "0303" } }
end
