-- france1940/territory: friendly territory (F40-7.1 .. 7.3, R11) kept in the game's control map.
--
-- Initial control (7.3) is the scenario's `[control]` (France allied, Germany german, the rest
-- nobody's). After every change of position -- a move, an elimination, a removal, a placement,
-- a change of side, a unit becoming or ceasing to be disorganized (its ZOC) -- the engine's
-- `hex.path.control()` gives the ControlChanged events that 7.1 calls for (occupation, then
-- uncontested ZOC, then the last holder; neutral units count for nobody, R11).
--
-- Reading (docs/france1940.md): positions are snapshots (R9): control is judged on the position
-- after each event, so a hex a unit only passes through during a move does not change hands.
local common = require("france1940.common")

local territory = {}
local NEUTRAL = common.NEUTRAL

local function update()
  return hex.path.control()
end

function territory.register()
  for _, name in ipairs({ "UnitMoved", "UnitEliminated", "UnitRemoved", "UnitSideChanged" }) do
    hex.events.on(name, update, -10)
  end
  hex.events.on("UnitPlaced", function(ev)
    if ev.unit and ev.unit.at then
      -- A unit of side `neutral` placed without its status (a --setup position) gets it from
      -- sequence.lua first; the judgment follows that change (below), so that its ZOC and
      -- occupation never count (R11).
      local u = hex.units.get(ev.unit.id)
      if u and u.side == "neutral" and not u.status[NEUTRAL] then return nil end
      return update()
    end
  end, -10)
  hex.events.on("UnitStatusChanged", function(ev)
    for _, flag in ipairs(ev.add or {}) do
      if flag == "disorganized" then return update() end
    end
    -- A unit ceasing to be disorganized, or to be neutral (its country joins, 16.2: its
    -- occupation and ZOC count from now on, R11).
    for _, flag in ipairs(ev.remove or {}) do
      if flag == "disorganized" or flag == NEUTRAL then return update() end
    end
  end, -10)
end

return territory
