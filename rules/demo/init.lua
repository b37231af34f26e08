-- rules/demo: the demo game. A small rules module that shows every part of the API:
-- declarations (sequence, terrain table, victory), commands with refusals citing rule ids,
-- event handlers, host dice and rule variables.
--
-- Rule ids cited in refusals:
--   DEMO-1 a unit moves once per movement phase, along adjacent hexes, up to its MA
--   DEMO-2 terrain costs (table below; a lake is prohibited); crossing a river costs +1
--   DEMO-3 a unit may not enter a hex holding an enemy unit, and stops when it enters a hex
--          next to an enemy unit
--   DEMO-4 at most 2 units per hex at the end of each phase
--   DEMO-5 each unit attacks at most once per combat phase, an adjacent enemy unit
--   DEMO-6 combat: d6 + attacker strength - defender strength: 6+ defender eliminated,
--          1 or less attacker eliminated, otherwise no effect
--   DEMO-7 victory: 3 points per city, 2 per town controlled at the end, 1 per enemy unit eliminated
local lib = require("lib")
local movement = require("demo.movement")
local combat = require("demo.combat")

hex.rules.sequence {
  steps = {
    { side = "blue", phase = "movement" },
    { side = "blue", phase = "combat" },
    { side = "red", phase = "movement" },
    { side = "red", phase = "combat" },
  },
}

-- DEMO-4: a declaration a variant may change (see demo/variants/mud). The movement table is
-- declared in demo/movement.lua.
hex.rules.declare("stack_limit", 2)

movement.register()
combat.register()

-- DEMO-4: stacking is checked when a side ends a phase.
hex.commands.define("end_phase", {
  resolve = function(cmd, side)
    local limit = hex.rules.get("stack_limit")
    local counts = {}
    for _, u in ipairs(hex.units.of_side(side)) do
      if u.at then counts[u.at] = (counts[u.at] or 0) + 1 end
    end
    for _, label in ipairs(lib.sorted_keys(counts)) do
      if counts[label] > limit then
        return hex.refuse("DEMO-4", string.format(
          "hex %s holds %d %s units at the end of the phase (at most %d)", label, counts[label], side, limit))
      end
    end
    return nil
  end,
})

-- Flags set during a phase are cleared when it ends.
hex.events.on("PhaseEnded", lib.clearing_phase_flags({ "moved", "attacked" }))

-- Entering a hex takes control of it.
hex.events.on("UnitEnteredHex", function(ev)
  local u = hex.units.get(ev.unit)
  if u and hex.state.control(ev.hex) ~= u.side then
    return { event = "ControlChanged", hex = ev.hex, side = u.side }
  end
end)

-- Count eliminations per side in a rule variable.
hex.events.on("UnitEliminated", function(ev)
  local key = "eliminated_" .. (ev.reason:match("^side=(%w+)") or "unknown")
  return hex.state.set(key, (hex.state.get(key) or 0) + 1)
end)

-- DEMO-7
hex.rules.victory(function()
  local scores = {}
  for _, side in ipairs(hex.state.sides()) do scores[side] = 0 end
  for _, label in ipairs(hex.map.hexes()) do
    local owner = hex.state.control(label)
    if owner then
      if hex.map.has_feature(label, "city") then scores[owner] = scores[owner] + 3 end
      if hex.map.has_feature(label, "town") then scores[owner] = scores[owner] + 2 end
    end
  end
  for _, side in ipairs(hex.state.sides()) do
    local lost = hex.state.get("eliminated_" .. side) or 0
    for _, other in ipairs(hex.state.sides()) do
      if other ~= side then scores[other] = scores[other] + lost end
    end
  end
  local best, winner, tie = -1, nil, false
  for _, side in ipairs(hex.state.sides()) do
    if scores[side] > best then best, winner, tie = scores[side], side, false
    elseif scores[side] == best then tie = true end
  end
  if tie then winner = nil end
  return { winner = winner, scores = scores, reason = "DEMO-7: objectives held and enemy units eliminated" }
end)
