-- Test variant: the 2:1 column dropped, which strategy.attack_at names (refused at game start).
local combat = require("france1940.combat")
combat.COLUMNS = { { 1, 2 }, { 1, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 }, { 6, 1 } }
combat.CRT["2:1"] = nil
