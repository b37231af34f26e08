-- france1940/rail: rail movement (F40-10.1, 8.3).
--
-- Command {command = "rail", unit = ID, to = HEX}, in the side's own movement phase. The
-- destinations are the engine's rail search (hex.path.rail, declared under `rail` in
-- movement.lua): friendly territory of the unit's rail zone (Allies: France; Germans: Germany),
-- never starting in, passing through or ending in an enemy ZOC, never across a sea hexside.
-- Readings (docs/france1940.md):
--   * one unit per movement phase per side: the variable `rail_used` holds the unit that went
--     by rail in this phase (cleared when the phase ends);
--   * rail movement is the unit's movement for the phase: a unit that moved may not go by
--     rail, and a unit that went by rail may not move again (status `railed`);
--   * isolated units may not use rail (F40-8.3, refused with that clause);
--   * para regiments have no movement factor (F40-11.3): they do not go by rail either.
-- Events: UnitMoved (path = {to}, cost 0), UnitStatusChanged `railed`, VarSet rail_used.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")

local rail = {}

-- The political limits (restrictions.lua) as hexes the route never enters: a refused hex is
-- refused anywhere on a route, as on a move's path (F40-18.2: on turn 1 a French unit's route
-- stays in its deployment zone). nil when nothing is refused (the common case). `blocker`: a
-- listing's restrictions.blocker(), else one is made.
local function blocked_for(u, blocker)
  blocker = blocker or require("france1940.restrictions").blocker()
  local list = blocker(u)
  if #list == 0 then return nil end
  return list
end

-- Why no rail route takes `u` to `to` (F40-10.1), the first cause that applies, for the
-- refusal: the engine's search only says that none does.
local function why_no_route(u, side, to)
  if not hex.map.is_hex(to) then return tostring(to) .. " is not a hex of the map" end
  local function enemy_zoc(label)
    for _, s in ipairs(hex.path.zoc(label) or {}) do
      if s ~= side and s ~= "neutral" then return true end
    end
    return false
  end
  local zone, country = "france", "France"
  if side == "german" then zone, country = "germany", "Germany" end
  if enemy_zoc(u.at) then return "it starts in an enemy ZOC" end
  if not common.in_zone(u.at, zone) then
    return "it starts at " .. u.at .. ", outside " .. country .. " (" .. side .. " rail runs in " .. country .. " only)"
  end
  if not common.in_zone(to, zone) then return to .. " is not in " .. country .. " (" .. side .. " rail runs in " .. country .. " only)" end
  if hex.state.control(to) ~= side then return to .. " is not friendly territory" end
  if enemy_zoc(to) then return to .. " is in an enemy ZOC" end
  -- (10.1 names no terrain: a motorized unit goes by rail through marsh; only sea, which no
  -- unit enters, is never on a route)
  if hex.map.terrain(to) == "sea" then return to .. " is sea, which no unit enters (F40-10.2)" end
  return "every route crosses a sea hexside, or a hex that is not friendly territory of " .. country .. " free of enemy ZOC"
end

-- Why `u` may not go by rail to `to` (or at all, `to` nil), as (rule, reason), or nil.
function rail.refusal(u, side, to)
  if not u then return "F40-10.1", "rail needs a unit in play" end
  if u.side ~= side then return "F40-10.1", common.not_of_side(u, side) end
  if not common.is_movement_phase() then return "F40-10.1", "rail movement happens in the movement phase" end
  if not u.at then return "F40-10.1", u.id .. " is not on the map" end
  local used = hex.state.get("rail_used")
  if used then
    return "F40-10.1", "only one unit per movement phase may move by rail (" .. used .. " already did)"
  end
  if u.status.moved then return "F40-10.1", u.id .. " has already moved this phase" end
  if u.status.isolated then return "F40-8.3", u.id .. " is isolated and may not use rail" end
  if u.status.dropped and u.attrs.airlanding then
    return "F40-11.4", u.id .. " may not move in the assault of its drop"
  end
  if common.para_regiment(u) then return "F40-11.3", "para regiments have no movement factor" end
  if to ~= nil then
    local blocked = blocked_for(u)
    for _, label in ipairs(hex.path.rail(u.id, blocked and { blocked = blocked } or nil)) do
      if label == to then return nil end
    end
    if blocked then
      for _, label in ipairs(hex.path.rail(u.id)) do
        if label == to then
          return "F40-10.1", string.format(
            "%s cannot go by rail from %s to %s: every route enters a hex the unit may not enter now (F40-16, F40-18.2)",
            u.id, u.at, to)
        end
      end
    end
    return "F40-10.1", string.format("%s cannot go by rail from %s to %s: %s", u.id, u.at,
      tostring(to), why_no_route(u, side, to))
  end
  return nil
end

-- hex.path.rail for the units of one listing, asking the engine once per network. The engine
-- gives the hexes joined to the unit's hex through usable hexes (friendly territory of the
-- side's rail zone, free of enemy ZOC, not sea, no sea hexside between), in map order, the unit's own hex left out. That set depends only on the
-- side, the movement class (attrs.class, else type) and the network the unit starts in: a unit
-- starting in a network already found gets that network minus its own hex. (Isolated units,
-- which the engine excludes, never get here: rail.refusal refuses them first.)
local function new_components()
  local networks = {}          -- {kind, blocked, set = {label = true}, list = labels in map order}
  local rank = nil
  local blocker = require("france1940.restrictions").blocker()
  -- (hexes in map order, the one hex of them to leave out or nil)
  return function(u)
    local kind = u.side .. "|" .. tostring((u.attrs or {}).class) .. "|" .. tostring(u.type)
    -- (units with the same blocked list -- the listing's blocker shares one per kind of unit --
    -- share a network)
    local blocked = blocked_for(u, blocker)
    for _, n in ipairs(networks) do
      if n.kind == kind and n.blocked == blocked and n.set[u.at] then return n.list, u.at end
    end
    local dests = hex.path.rail(u.id, blocked and { blocked = blocked } or nil)
    if #dests > 0 then
      if not rank then
        rank = {}
        for i, label in ipairs(common.hexes()) do rank[label] = i end
      end
      local set, list = { [u.at] = true }, { u.at }
      for _, label in ipairs(dests) do
        set[label] = true
        list[#list + 1] = label
      end
      table.sort(list, function(a, b) return rank[a] < rank[b] end)
      networks[#networks + 1] = { kind = kind, blocked = blocked, set = set, list = list }
    end
    return dests, nil
  end
end

function rail.register()
  hex.commands.define("rail", {
    args = { unit = "unit", to = "place" },
    resolve = function(cmd, side)
      local u = hex.units.get(cmd.unit or "")
      if not u then return hex.refuse("F40-10.1", common.no_unit(cmd.unit)) end
      local rule, reason = rail.refusal(u, side, cmd.to or "")
      if rule then return hex.refuse(rule, reason) end
      return {
        { event = "UnitMoved", unit = u.id, from = u.at, to = cmd.to, path = { cmd.to }, cost = 0 },
        { event = "UnitStatusChanged", unit = u.id, add = { "railed" } },
        hex.state.set("rail_used", u.id),
      }
    end,
    legal = function(side, filter)
      if hex.state.side() ~= side or not common.is_movement_phase() then return {} end
      if hex.state.get("rail_used") then return {} end
      local out = {}
      local reuse = new_components()
      for _, u in ipairs(common.units_for(side, filter)) do
        if u.at and not u.status[common.NEUTRAL] and not rail.refusal(u, side, nil) then
          local list, own = reuse(u)
          local id = u.id
          for _, label in ipairs(list) do
            if label ~= own then out[#out + 1] = { command = "rail", unit = id, to = label } end
          end
        end
      end
      return out
    end,
  })

  hex.events.on("PhaseEnded", function()
    if hex.state.get("rail_used") ~= nil then return hex.state.set("rail_used", nil) end
  end)
end

return require("lib.spelling").strict("france1940.rail", rail)
