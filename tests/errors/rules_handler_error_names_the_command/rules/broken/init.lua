hex.rules.sequence { steps = { { side = "blue", phase = "movement" } } }
hex.commands.define("hold", {
  args = { "unit" },
  legal = function(side) return { { command = "hold", unit = "b1" } } end,
  resolve = function(cmd) return { hex.events.emit("Held", { unit = cmd.unit }) } end,
})
hex.events.on("Held", function(ev)
  local loser = nil
  return loser.id
end)
