-- DEMO-1..3: movement. The cheapest-path search runs over this small map in Lua; bigger games
-- use the engine's compiled movement search instead (docs/movement.md).
local lib = require("lib")
local movement = {}

-- MP to step from `from` into `to` for a unit of `side`, or nil when prohibited.
local function step_cost(from, to, side)
  local cost = hex.rules.get("terrain_costs")[hex.map.terrain(to)]
  if not cost then return nil end
  for _, feature in ipairs(hex.map.hexside(from, to)) do
    if feature == "river" then cost = cost + hex.rules.get("river_cost") end
  end
  return cost
end

-- Every hex the unit can reach: { [label] = {cost = n, path = {...}} }.
function movement.reach(unit)
  local best = { [unit.at] = { cost = 0, path = {} } }
  local frontier = { unit.at }
  while #frontier > 0 do
    -- Take the cheapest open hex (small maps: a linear scan is enough); ties by label.
    local pick, pick_i = nil, nil
    for i, label in ipairs(frontier) do
      if not pick or best[label].cost < best[pick].cost
        or (best[label].cost == best[pick].cost and label < pick) then
        pick, pick_i = label, i
      end
    end
    table.remove(frontier, pick_i)
    local here = best[pick]
    -- DEMO-3: a unit that entered a hex next to an enemy stops there.
    local stopped = pick ~= unit.at and lib.enemy_adjacent(pick, unit.side)
    if not stopped then
      for _, n in ipairs(hex.map.neighbors(pick)) do
        local cost = step_cost(pick, n, unit.side)
        if cost and not lib.enemy_at(n, unit.side) then
          local total = here.cost + cost
          if total <= unit.ma and (not best[n] or total < best[n].cost) then
            local path = { table.unpack(here.path) }
            path[#path + 1] = n
            if not best[n] then frontier[#frontier + 1] = n end
            best[n] = { cost = total, path = path }
          end
        end
      end
    end
  end
  best[unit.at] = nil
  return best
end

-- Checks a given path step by step; returns the cost or a refusal.
local function check_path(unit, path)
  local at, spent = unit.at, 0
  for i, to in ipairs(path) do
    if not hex.map.is_hex(to) then
      return nil, hex.refuse("DEMO-1", to .. " is not a hex of the map")
    end
    if hex.map.distance(at, to) ~= 1 then
      return nil, hex.refuse("DEMO-1", string.format("%s is not adjacent to %s", to, at))
    end
    if i > 1 and lib.enemy_adjacent(at, unit.side) then
      return nil, hex.refuse("DEMO-3", string.format("%s stopped on entering %s next to an enemy unit", unit.id, at))
    end
    if lib.enemy_at(to, unit.side) then
      return nil, hex.refuse("DEMO-3", string.format("%s holds an enemy unit", to))
    end
    local cost = step_cost(at, to, unit.side)
    if not cost then
      return nil, hex.refuse("DEMO-2", string.format("%s (%s) is prohibited terrain", to, hex.map.terrain(to)))
    end
    spent = spent + cost
    at = to
  end
  if spent > unit.ma then
    return nil, hex.refuse("DEMO-1", string.format("the path costs %d MP, %s has %d", spent, unit.id, unit.ma))
  end
  return spent
end

function movement.register()
  hex.commands.define("move", {
    resolve = function(cmd, side)
      local unit = hex.units.get(cmd.unit)
      if not unit then return hex.refuse("DEMO-1", "no unit " .. tostring(cmd.unit)) end
      if unit.side ~= side then return hex.refuse("DEMO-1", unit.id .. " is not a " .. side .. " unit") end
      if hex.state.phase() ~= "movement" then return hex.refuse("DEMO-1", "units move only in the movement phase") end
      if unit.status.moved then return hex.refuse("DEMO-1", unit.id .. " has already moved this phase") end
      local cost, refusal = check_path(unit, cmd.path)
      if not cost then return refusal end
      local events = {}
      for _, label in ipairs(cmd.path) do
        events[#events + 1] = { event = "UnitEnteredHex", unit = unit.id, hex = label }
      end
      events[#events + 1] = { event = "UnitMoved", unit = unit.id, from = unit.at,
        to = cmd.path[#cmd.path], path = cmd.path, cost = cost }
      events[#events + 1] = { event = "UnitStatusChanged", unit = unit.id, add = { "moved" } }
      return events
    end,
    legal = function(side)
      if hex.state.phase() ~= "movement" then return {} end
      local out = {}
      for _, unit in ipairs(hex.units.of_side(side)) do
        if unit.at and not unit.status.moved then
          local reach = movement.reach(unit)
          for _, label in ipairs(lib.sorted_keys(reach)) do
            out[#out + 1] = { command = "move", unit = unit.id, path = reach[label].path }
          end
        end
      end
      return out
    end,
  })
end

return movement
