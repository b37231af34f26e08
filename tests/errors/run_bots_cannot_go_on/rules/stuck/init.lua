hex.rules.sequence { steps = { { side = "blue", phase = "movement" }, { side = "red", phase = "movement" } } }
hex.commands.define("end_phase", { resolve = function(cmd, side)
  if side == "blue" then return hex.refuse("ST-1", "blue may never end its phase") end
end })
