hex.rules.sequence { steps = { { side = "blue", phase = "movement" } } }
local x = = 1
