-- rules/france1940: France 1940 (RULES.md F40), clauses F40-5 .. F40-11 and F40-16 .. F40-18, readings R1 .. R14, and the module's own combat and victory.
-- One concern per file; each file's header names its clauses and the readings it chose (all
-- collected in docs/france1940.md):
--   common.lua      shared facts: division-equivalents, classes, the assault budget (9.1, 8.3, R7)
--   sequence.lua    sequence of play (9.1, 18.1) and the events that open/close an assault
--   movement.lua    the movement declaration (6.x, 9.x, 10.2, 10.3, R1-R8), `move`, `reach`
--   stacking.lua    `end_phase` refused while a hex is overstacked (5.1-5.3, R14)
--   territory.lua   friendly territory at the start, after each change of position (7.1-7.3, R11)
--   supply.lua      sources (8.2, R13), the judgment at the start of each assault (8.3), `supply`
--   rail.lua        `rail` (10.1)
--   evacuation.lua  `evacuate` (10.4)
--   airborne.lua    `drop` and its follow-ups (11.1-11.5)
--   politics.lua    neutral countries, invasions, alliances, surrenders (16.1-16.6, R9, R11)
--   restrictions.lua where units may go by country and turn (16.1, 16.3, 16.4, 16.6, 18.2, R10);
--                   legal lists that keep stacking legal (5.1)
--   combat.lua      `attack`: the module's own odds CRT, retreats (F40-C.1-C.9, 11.4, 11.5, 16.3)
--   reserves.lua    `place`: reserves and reinforcements (17.1-17.7)
--   victory.lua     victory points, Paris, the `figures` query
--   status.lua      the `status` query: the assault, the countries, the points by what scores
--   ai.lua          the greedy bot of both sides (not loaded here: named by the scenario)
--   strategy.lua    the bot's settings a variant may change (countries avoided, attack odds)
-- Every refusal cites its clause: hex.refuse("F40-6.4", "...").
local sequence = require("france1940.sequence")
local movement = require("france1940.movement")
local stacking = require("france1940.stacking")
local territory = require("france1940.territory")
local supply = require("france1940.supply")
local rail = require("france1940.rail")
local evacuation = require("france1940.evacuation")
local airborne = require("france1940.airborne")
local politics = require("france1940.politics")
local restrictions = require("france1940.restrictions")
local combat = require("france1940.combat")
local reserves = require("france1940.reserves")
local victory = require("france1940.victory")
local status = require("france1940.status")

sequence.register()
movement.register()
stacking.register()
territory.register()
supply.register()
rail.register()
evacuation.register()
airborne.register()
politics.register()
restrictions.register()
combat.register()
reserves.register()
victory.register()
status.register()

return {
  sequence = sequence, movement = movement, stacking = stacking, territory = territory,
  supply = supply, rail = rail, evacuation = evacuation, airborne = airborne,
  politics = politics, restrictions = restrictions, combat = combat, reserves = reserves,
  victory = victory,
}
