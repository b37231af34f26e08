hex.rules.sequence { steps = { { side = "blue", phase = "movement" } } }
hex.rules.victory(function() return { winner = "blue" } end)
