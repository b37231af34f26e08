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
local territory = {}

local function update()
  return hex.path.control()
end

function territory.register()
  for _, name in ipairs({ "UnitMoved", "UnitEliminated", "UnitRemoved", "UnitSideChanged" }) do
    hex.events.on(name, update, -10)
  end
  hex.events.on("UnitPlaced", function(ev)
    if ev.unit and ev.unit.at then return update() end
  end, -10)
  hex.events.on("UnitStatusChanged", function(ev)
    for _, list in ipairs({ ev.add or {}, ev.remove or {} }) do
      for _, flag in ipairs(list) do
        if flag == "disorganized" then return update() end
      end
    end
  end, -10)
end

return territory
