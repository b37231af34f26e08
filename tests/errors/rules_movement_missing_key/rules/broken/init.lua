hex.rules.sequence { steps = { { side = "blue", phase = "movement" } } }
hex.rules.declare("movement", { terrain = { clear = 1, swamp = 3 } })
