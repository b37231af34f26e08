-- france1940/airborne: airborne operations (F40-11.1 .. 11.5).
--
-- Airborne units (attrs `airborne`, `para` for the para regiments, `airlanding` for the 22nd)
-- wait off the map (`at` unset) until dropped. Command {command = "drop", unit = ID, to = HEX}:
--   11.1 at the start of an assault: in the side's movement phase before any of its units has
--        moved or gone by rail; into a land hex (not `sea`) within 10 hexes of a supplied city
--        (a `major_city` hex or a `town`) in the side's territory; an enemy-occupied hex is
--        allowed. "Supplied city": a unit of the dropped unit's class standing there would
--        trace supply to the sources of its nation (hex.path.supplied_hexes). A unit with
--        attrs.arrives_turn drops from that turn on.
--        Events: UnitMoved (from nothing, path {to}, cost 0), UnitStatusChanged `dropped`.
--   11.2 at the start of the following assault (AssaultStarted), a dropped unit stacked with an
--        enemy unit is eliminated; the others lose `dropped`.
--   11.3 para regiments: no ZOC (regiments, 6.1) and enterable by enemies (movement.lua,
--        enemy_hexes). At the end of the assault of their drop (AssaultEnded), one stacked
--        with a friendly unit supplied at that moment, other than a para regiment, is removed
--        (UnitRemoved "withdrawn") and put in the pool, variable `para_pool` = {id = turn it
--        returns}: two turns later, at the start of its side's first assault of that turn, it
--        is placed back off the map (UnitPlaced) and may be dropped again.
--   11.4 the 22nd Airlanding (attrs.airlanding) may not move (movement.lua, rail.lua) in the
--        assault of its drop, i.e. while it carries `dropped`; combat must refuse its attacks
--        then (the combat rules read airborne.may_attack).
--   11.5 a drop into an enemy-occupied hex that is not a `maginot` hex records that hex in the
--        variable `airborne_hexsides` (sorted list): attacks on it in the next combat phase
--        ignore its hexsides. The list is cleared when that combat phase (the end of the
--        assault) ends; query `airborne_hexsides` exposes it (null when empty).
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")
local supply = require("france1940.supply")

local airborne = {}

airborne.RANGE = 10

function airborne.is_airborne(u)
  local a = u.attrs or {}
  return a.airborne == true or a.para == true or a.airlanding == true or u.type == "airborne"
end

-- Map data, built once: the city hexes (a `major_city` hex or a `town`).
local city_hexes = nil
local function cities_of_map()
  if not city_hexes then
    city_hexes = {}
    for _, label in ipairs(common.hexes()) do
      if common.terrain(label) == "major_city" or hex.map.has_feature(label, "town") then
        city_hexes[#city_hexes + 1] = label
      end
    end
  end
  return city_hexes
end

-- The source hexes that serve `u` (its side's sets for its nation, F40-8.2).
local function sources_for(u)
  return supply.sources_for(u.side, u.nation)
end

-- The cities from which `u` may be dropped now (F40-11.1), in map order. They depend on its
-- side, class and nation only.
function airborne.cities(u)
  local supplied = {}
  for _, l in ipairs(hex.path.supplied_hexes(u.side, common.class_of(u), sources_for(u))) do supplied[l] = true end
  local out = {}
  for _, label in ipairs(cities_of_map()) do
    if supplied[label] and hex.state.control(label) == u.side then out[#out + 1] = label end
  end
  return out
end

-- The hexes `u` may be dropped into from `cities` (F40-11.1), in map order. A pure function
-- of the map and the list: kept per list (a few lists a game).
local target_lists = {}
local function targets(cities)
  local key = table.concat(cities, ",")
  local out = target_lists[key]
  if out then return out end
  local near = {}
  for _, label in ipairs(common.within(cities, airborne.RANGE)) do near[label] = true end
  out = {}
  for _, label in ipairs(common.hexes()) do
    if near[label] and common.terrain(label) ~= "sea" then out[#out + 1] = label end
  end
  target_lists[key] = out
  return out
end

-- Why the side may not drop now (not the unit or the hex), as (rule, reason), or nil.
local function phase_refusal(side)
  if not common.is_movement_phase() or hex.state.side() ~= side then
    return "F40-11.1", "airborne units are dropped at the start of their side's assault (movement phase)"
  end
  if hex.state.get("rail_used") then
    return "F40-11.1", "drops happen at the start of the assault, before any movement"
  end
  local moved = common.first_mover(side)
  if moved then
    return "F40-11.1", "drops happen at the start of the assault, before any movement (" .. moved .. ")"
  end
  return nil
end

airborne.phase_refusal = phase_refusal

local function unit_refusal(u, side)
  if not u then return "F40-11.1", "drop needs a unit in play" end
  if u.side ~= side then return "F40-11.1", common.not_of_side(u, side) end
  if not airborne.is_airborne(u) then return "F40-11.1", u.id .. " is not an airborne unit" end
  if u.at then return "F40-11.1", u.id .. " is already on the map" end
  local arrives = u.attrs.arrives_turn
  if type(arrives) == "number" and hex.state.turn() < arrives then
    return "F40-11.1", string.format("%s is not available before turn %d", u.id, arrives)
  end
  return nil
end

-- R8: the hexes holding units of a still-neutral country, which block their hex to drops as
-- to moves (11.1's "enemy-occupied hex" is not theirs: they are nobody's enemy until their
-- country is invaded, and R9 judges the drop on the position at its start).
local function neutral_held()
  local held = {}
  for _, u in ipairs(common.units_with({ common.NEUTRAL })) do
    if u.at then held[u.at] = true end
  end
  return held
end

local function target_refusal(u, to, cities)
  if not hex.map.is_hex(to) then return "F40-11.1", tostring(to) .. " is not a hex of the map" end
  if common.terrain(to) == "sea" then return "F40-11.1", "airborne units drop on land hexes only" end
  if neutral_held()[to] then
    return "F40-R8", to .. " holds units of a still-neutral country, which block their hex"
  end
  for _, c in ipairs(cities) do
    if hex.map.distance(to, c) <= airborne.RANGE then return nil end
  end
  return "F40-11.1", string.format("%s is more than %d hexes from every supplied %s city in friendly territory",
    to, airborne.RANGE, u.side)
end

function airborne.refusal(u, side, to)
  local rule, reason = phase_refusal(side)
  if rule then return rule, reason end
  rule, reason = unit_refusal(u, side)
  if rule then return rule, reason end
  return target_refusal(u, to, airborne.cities(u))
end

-- The hexes unit `u` (a full view) of `side` may be dropped into now by 11.1 alone, in the
-- order the `drop` listing gives them (before the political restrictions, restrictions.lua), or
-- {} when the unit may not drop; the caller asks airborne.phase_refusal(side) first (once for
-- all its units), as the listing does. The cities depend on the unit's
-- side, class and nation only (sources_for): `cities_by_kind` (optional) keeps them for the
-- caller's other units. The list is shared: read it, do not change it.
function airborne.drop_hexes(u, side, cities_by_kind)
  if unit_refusal(u, side) then return {} end
  local kind = u.side .. "/" .. common.class_of(u) .. "/" .. tostring(u.nation)
  local cities = cities_by_kind and cities_by_kind[kind]
  if not cities then
    cities = airborne.cities(u)
    if cities_by_kind then cities_by_kind[kind] = cities end
  end
  return targets(cities)
end

-- 11.4: whether a unit may attack now (for the combat rules).
function airborne.may_attack(u)
  return not (u.status.dropped and u.attrs.airlanding)
end

-- 11.5: whether attacks on `label` in this combat phase ignore its hexsides.
function airborne.hexsides_cancelled(label)
  for _, l in ipairs(hex.state.get("airborne_hexsides") or {}) do
    if l == label then return true end
  end
  return false
end

local function unit_record(g)
  local u = { id = g.id, side = g.side, nation = g.nation, type = g.type, size = g.size,
    ma = g.ma, strength = g.strength }
  if next(g.attrs or {}) ~= nil then u.attrs = g.attrs end
  return u
end

function airborne.register()
  hex.commands.define("drop", {
    args = { unit = "unit", to = "place" },
    resolve = function(cmd, side)
      local u = hex.units.get(cmd.unit or "")
      if not u then return hex.refuse("F40-11.1", common.no_unit(cmd.unit)) end
      local to = cmd.to or ""
      local rule, reason = airborne.refusal(u, side, to)
      if rule then return hex.refuse(rule, reason) end
      local events = {
        { event = "UnitMoved", unit = u.id, to = to, path = { to }, cost = 0 },
        { event = "UnitStatusChanged", unit = u.id, add = { "dropped" } },
      }
      if #common.enemies_at(to, side) > 0 and not hex.map.has_feature(to, "maginot") then   -- 11.5
        local list, seen = {}, false
        for _, l in ipairs(hex.state.get("airborne_hexsides") or {}) do
          list[#list + 1] = l
          if l == to then seen = true end
        end
        if not seen then
          list[#list + 1] = to
          table.sort(list)
          events[#events + 1] = hex.state.set("airborne_hexsides", list)
        end
      end
      return events
    end,
    -- `filter.unit` (hex.commands.legal): only that unit's drops.
    legal = function(side, filter)
      if phase_refusal(side) then return {} end
      local out = {}
      local units = {}
      if filter and filter.unit then
        units = common.units_for(side, filter)
      else
        -- Only units off the map may drop: no full view of the others.
        local sides, ats = hex.units.list("side"), hex.units.list("at")
        for i, id in ipairs(hex.units.list("id")) do
          if sides[i] == side and not ats[i] then units[#units + 1] = hex.units.get(id) end
        end
      end
      local cities_by_kind = {}
      local blocked = #units > 0 and neutral_held() or {}
      for _, u in ipairs(units) do
        for _, to in ipairs(airborne.drop_hexes(u, side, cities_by_kind)) do
          if not blocked[to] then out[#out + 1] = { command = "drop", unit = u.id, to = to } end
        end
      end
      return out
    end,
  })

  hex.rules.query("airborne_hexsides", function()
    return hex.state.get("airborne_hexsides")   -- nil (JSON null) when there is none
  end)

  -- 11.2, and the return of withdrawn para regiments (11.3).
  hex.events.on("AssaultStarted", function(ev)
    local out = {}
    for _, u in ipairs(common.units_with({ "dropped" })) do
      if u.at and #common.enemies_at(u.at, u.side) > 0 then
        out[#out + 1] = { event = "UnitEliminated", unit = u.id,
          reason = "F40-11.2: stacked with an enemy unit at the start of the following assault" }
      else
        out[#out + 1] = { event = "UnitStatusChanged", unit = u.id, remove = { "dropped" } }
      end
    end
    local pool = hex.state.get("para_pool") or {}
    local gone = {}
    if next(pool) ~= nil then   -- the list of units out of play is long: only when needed
      for _, g in ipairs(hex.units.gone()) do gone[g.id] = g end
    end
    local changed, rest = false, {}
    for _, id in ipairs(common.sorted_keys(pool)) do
      local g = gone[id]
      if g and g.side == ev.data.side and ev.data.turn >= pool[id] then
        out[#out + 1] = { event = "UnitPlaced", unit = unit_record(g) }
        changed = true
      else
        rest[id] = pool[id]
      end
    end
    if changed then
      out[#out + 1] = hex.state.set("para_pool", next(rest) and rest or nil)
    end
    return out
  end, 10)

  -- 11.3 and the end of 11.5's record.
  hex.events.on("AssaultEnded", function(ev)
    local out = {}
    local pool = hex.state.get("para_pool") or {}
    local added = false
    -- (supply as it stands at the end of the assault, traced only when a para regiment has a
    -- companion: the `isolated` status was judged at its start, and says nothing of a unit
    -- dropped or placed since, such as the 22nd Airlanding dropped with the regiment)
    local supplied
    for _, u in ipairs(common.units_with({ "dropped" })) do
      if common.para_regiment(u) and u.at then
        for _, f in ipairs(hex.units.at(u.at)) do
          if f.side == u.side and not common.para_regiment(f) then
            supplied = supplied or supply.trace()
            if supplied[f.id] then
              out[#out + 1] = { event = "UnitRemoved", unit = u.id, reason = "withdrawn" }
              pool = common.with(pool, u.id, ev.data.turn + 2)
              added = true
              break
            end
          end
        end
      end
    end
    if added then out[#out + 1] = hex.state.set("para_pool", pool) end
    if hex.state.get("airborne_hexsides") ~= nil then
      out[#out + 1] = hex.state.set("airborne_hexsides", nil)
    end
    return out
  end)
end

return require("lib.spelling").strict("france1940.airborne", airborne)
