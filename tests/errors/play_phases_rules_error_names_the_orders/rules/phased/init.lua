hex.rules.sequence { steps = { { phase = "orders" } } }
hex.rules.declare("phase_labels", { first_year = 1901, steps = { { "S", "M" } } })
hex.commands.define("orders", {
  args = { "power", "orders" },
  resolve = function(cmd)
    local counts = nil
    if cmd.power == "red" then return counts[cmd.power] end
    return {}
  end,
})
