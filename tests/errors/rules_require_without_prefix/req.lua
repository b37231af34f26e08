-- A module required without its game prefix (demo.movement).
local movement = require("movement")
