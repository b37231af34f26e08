-- Test variant: a misspelt CITY_POINTS key (refused at game start).
local victory = require("france1940.victory")
victory.CITY_POINTS.Paris = 10
