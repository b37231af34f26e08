-- Rain: a variant of the demo (docs/movement.md, "Costs that follow a variable"). From turn 5
-- on the ground is mud: clear hexes cost 2 MP and forests 3. The costs are data, chosen by the
-- rules variable `weather`, which a handler sets; the searches stay in Rust.
local movement = hex.rules.get("movement")
movement.costs_by_variable = {
  variable = "weather",
  values = { mud = { terrain = { clear = 2, forest = 3 } } },
}

hex.events.on("PhaseStarted", function(ev)
  if ev.turn >= 5 and hex.state.get("weather") ~= "mud" then
    return { hex.state.set("weather", "mud") }
  end
end)

-- (the weather in `hexwar status`, which the demo's rules leave to the engine)
hex.rules.query("status", function()
  return { weather = hex.state.get("weather") or "dry" }
end)
