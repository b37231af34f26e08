hex.rules.sequence { steps = { { side = "blue", phase = "combat" } } }
hex.commands.define("attack", {
  resolve = function(cmd, side)
    local target = hex.units.get(cmd.target)
    return { { event = "UnitEliminated", unit = target.id, reason = "attacked" } }
  end,
})
