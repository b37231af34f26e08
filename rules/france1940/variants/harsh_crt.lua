-- An example France 1940 variant, loaded as a mod over the scenario:
--   hexwar run scenarios/france1940 --mod rules/france1940/variants/harsh_crt.lua
-- A bloodier combat results table (exchanges from 1:1, eliminations from 3:1) and dearer
-- corps. The module's settings are data in its tables (docs/france1940.md, "Writing a
-- variant"); the engine checks the CRT whole as the game starts (F40-C.6), so `hexwar check
-- scenarios/france1940 --mod rules/france1940/variants/harsh_crt.lua` reports a misspelt
-- result or a row no column names.
local combat = require("france1940.combat")
local victory = require("france1940.victory")

-- One row per column of combat.COLUMNS, one result per d6 roll (1 .. 6).
combat.CRT = {
  ["1:2"] = { "AE", "AE", "AR", "EX", "EX", "DR" },
  ["1:1"] = { "AE", "AR", "EX", "EX", "DR", "DR%" },
  ["2:1"] = { "AR", "EX", "EX", "DR", "DR%", "DE" },
  ["3:1"] = { "EX", "EX", "DR", "DR%", "DE", "DE" },
  ["4:1"] = { "EX", "DR", "DR%", "DE", "DE", "DE" },
  ["5:1"] = { "DR", "DR%", "DE", "DE", "DE", "DE" },
  ["6:1"] = { "DR%", "DE", "DE", "DE", "DE", "DE" },
}

-- One entry changed, the others kept (a whole new table would drop a size it left out).
victory.UNIT_POINTS.XXX = 5
