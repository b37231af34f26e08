-- A handler returns an engine event under a misspelt name (UnitEliminated).
hex.events.on("UnitMoved", function(ev)
  return { { event = "UnitElimnated", unit = ev.unit, reason = "x" } }
end)
