hex.rules.sequence { steps = { { side = "blue", phase = "movement" } } }
local tables = require("broken.tables")
tables.check_terrain({ clear = 1 })
