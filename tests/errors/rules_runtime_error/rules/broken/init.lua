hex.rules.sequence { steps = { { side = "blue", phase = "movement" } } }
local costs = hex.rules.get("movement")
local clear = costs.terrain.clear
