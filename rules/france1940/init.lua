-- rules/france1940: France 1940 (RULES.md F40), clauses F40-5 .. F40-11 and readings R1 .. R14.
-- One concern per file; each file's header names its clauses and the readings it chose (all
-- collected in docs/france1940.md):
--   common.lua      shared facts: division-equivalents, classes, the assault budget (9.1, 8.3, R7)
--   sequence.lua    sequence of play (9.1, 18.1) and the events that open/close an assault
--   movement.lua    the movement declaration (6.x, 9.x, 10.2, 10.3, R1-R8), `move`, `reach`
--   stacking.lua    `end_phase` refused while a hex is overstacked (5.1-5.3, R14)
--   territory.lua   friendly territory after every change of position (7.1-7.3, R11)
--   supply.lua      sources (8.2, R13), the judgment at the start of each assault (8.3), `supply`
--   rail.lua        `rail` (10.1)
--   evacuation.lua  `evacuate` (10.4)
--   airborne.lua    `drop` and its follow-ups (11.1-11.5)
-- Every refusal cites its clause: hex.refuse("F40-6.4", "...").
-- Politics (16), reserves (17) and the turn-1 restrictions (18.2) beyond the halving, and combat
-- (12-15), are later issues; they wrap these commands (hex.commands.get) or handle events.
local sequence = require("france1940.sequence")
local movement = require("france1940.movement")
local stacking = require("france1940.stacking")
local territory = require("france1940.territory")
local supply = require("france1940.supply")
local rail = require("france1940.rail")
local evacuation = require("france1940.evacuation")
local airborne = require("france1940.airborne")

sequence.register()
movement.register()
stacking.register()
territory.register()
supply.register()
rail.register()
evacuation.register()
airborne.register()

return {
  sequence = sequence, movement = movement, stacking = stacking, territory = territory,
  supply = supply, rail = rail, evacuation = evacuation, airborne = airborne,
}
