-- Bridges: a variant of the demo where the map changes in play (docs/movement.md, "The map
-- changed in play"). Crossing the river costs 3 more MP, and no zone of control reaches across
-- it, except over a bridge. A blue or red
-- unit on a river bank may build a bridge across the river (`bridge`) or blow one up (`blow`)
-- in its movement phase. The commands return `HexsideChanged` events: once they are applied,
-- every search, `hex.map.hexside`, `render`, saves and replays see the bridge as if it were
-- printed on the map.
local movement = hex.rules.get("movement")
movement.vocabulary = { hexsides = { "bridge" } }     -- no bridge on the map: named here
movement.hexsides = { river = { unless = { "bridge" }, ["then"] = 0, ["else"] = 3 } }
-- No zone of control reaches across the river, except over a bridge.
movement.zoc.blocked_by_hexsides = { "river" }
movement.zoc.carried_by_hexsides = { "bridge" }

local function has(list, name)
  for _, item in ipairs(list) do
    if item == name then return true end
  end
  return false
end

-- BRIDGE-1: the unit is the side's own, on the map, in the side's movement phase, and the hex
-- `across` is over the river from it.
local function river_bank(cmd, side)
  local unit = hex.units.get(cmd.unit)
  if not unit or unit.side ~= side then
    return nil, hex.refuse("BRIDGE-1", tostring(cmd.unit) .. " is not a " .. side .. " unit")
  end
  if hex.state.phase() ~= "movement" then
    return nil, hex.refuse("BRIDGE-1", "bridges are built and blown in the movement phase")
  end
  local features = unit.at and hex.map.hexside(unit.at, cmd.across) or {}
  if not has(features, "river") then
    return nil, hex.refuse("BRIDGE-1", "no river between " .. tostring(unit.at) .. " and " .. cmd.across)
  end
  return unit, features
end

hex.commands.define("bridge", {
  args = { unit = "unit", across = "place" },
  resolve = function(cmd, side)
    local unit, features = river_bank(cmd, side)
    if not unit then return features end
    if has(features, "bridge") then
      return hex.refuse("BRIDGE-1", "there is a bridge between " .. unit.at .. " and " .. cmd.across)
    end
    return { { event = "HexsideChanged", hexside = { unit.at, cmd.across }, add = { "bridge" } } }
  end,
})

hex.commands.define("blow", {
  args = { unit = "unit", across = "place" },
  resolve = function(cmd, side)
    local unit, features = river_bank(cmd, side)
    if not unit then return features end
    if not has(features, "bridge") then
      return hex.refuse("BRIDGE-1", "no bridge between " .. unit.at .. " and " .. cmd.across)
    end
    return { { event = "HexsideChanged", hexside = { unit.at, cmd.across }, remove = { "bridge" } } }
  end,
})
