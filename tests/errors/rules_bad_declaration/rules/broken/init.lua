hex.rules.sequence { steps = { { side = "blue", phase = "movement" } } }
hex.commands.define("attack", { legal = function() return {} end })
