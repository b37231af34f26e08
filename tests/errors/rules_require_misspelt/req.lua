-- A misspelt module name in require.
local movement = require("demo.movment")
