-- Test variant: combat.COLUMNS with its first two columns swapped (refused at game start).
local combat = require("france1940.combat")
combat.COLUMNS = { { 1, 1 }, { 1, 2 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 }, { 6, 1 } }
