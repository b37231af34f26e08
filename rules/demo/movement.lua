-- DEMO-1..3: movement, declared as data and searched by the engine in Rust (docs/movement.md):
-- the rules never walk the map step by step themselves (DESIGN.md principle 1).
local movement = {}

-- DEMO-2 terrain costs and the river; DEMO-3 a unit next to an enemy stops (a zone of control
-- that stops on entry, costs nothing to leave, and may be entered from another).
hex.rules.declare("movement", {
  sides = { "blue", "red" },
  classes = { "foot" },
  terrain = { clear = 1, forest = 2, hills = 2, marsh = 3, lake = "prohibited" },
  hexsides = { river = 1 },
  zoc = { stop_on_entry = true, leave_cost = 0, zoc_to_zoc = { "foot" } },
  clauses = {
    start = "DEMO-1", adjacent = "DEMO-1", budget = "DEMO-1",
    terrain = "DEMO-2", hexside = "DEMO-2",
    enemy_occupied = "DEMO-3", zoc_stop = "DEMO-3",
  },
})

function movement.register()
  hex.commands.define("move", {
    args = { "unit", "path" },
    resolve = function(cmd, side)
      local unit = hex.units.get(cmd.unit)
      if not unit then return hex.refuse("DEMO-1", "no unit " .. tostring(cmd.unit)) end
      if unit.side ~= side then return hex.refuse("DEMO-1", unit.id .. " is not a " .. side .. " unit") end
      if hex.state.phase() ~= "movement" then return hex.refuse("DEMO-1", "units move only in the movement phase") end
      if unit.status.moved then return hex.refuse("DEMO-1", unit.id .. " has already moved this phase") end
      local cost = hex.path.check(unit.id, cmd.path)
      if type(cost) ~= "number" then return cost end   -- a refusal naming the clause
      local events = {}
      for _, label in ipairs(cmd.path) do
        events[#events + 1] = { event = "UnitEnteredHex", unit = unit.id, hex = label }
      end
      events[#events + 1] = { event = "UnitMoved", unit = unit.id, from = unit.at,
        to = cmd.path[#cmd.path], path = cmd.path, cost = cost }
      events[#events + 1] = { event = "UnitStatusChanged", unit = unit.id, add = { "moved" } }
      return events
    end,
    -- Every move the engine allows, except into a hex already holding the stack limit: such a
    -- move is legal by itself, but the side could then not end the phase (DEMO-4).
    legal = function(side)
      if hex.state.phase() ~= "movement" then return {} end
      local lib = require("lib")
      local limit = hex.rules.get("stack_limit")
      local out = {}
      for _, unit in ipairs(hex.units.of_side(side)) do
        if unit.at and not unit.status.moved then
          local reach = hex.path.reach(unit.id, unit.ma, { paths = true })
          for _, label in ipairs(lib.sorted_keys(reach)) do
            if #lib.units_of_side_at(label, side) < limit then
              out[#out + 1] = { command = "move", unit = unit.id, path = reach[label].path }
            end
          end
        end
      end
      return out
    end,
  })
end

return movement
