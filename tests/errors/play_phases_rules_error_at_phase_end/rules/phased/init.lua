hex.rules.sequence { steps = { { phase = "orders" } } }
hex.rules.declare("phase_labels", { first_year = 1901, steps = { { "S", "M" } } })
hex.commands.define("orders", {
  args = { "power", "orders" },
  resolve = function(cmd) return {} end,
})
hex.events.on("PhaseEnded", function(ev)
  local adjudication = nil
  return adjudication.events
end)
