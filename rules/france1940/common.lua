-- france1940/common: facts and small helpers every F40 file shares. Pure functions over the
-- read-only views (hex.units, hex.map, hex.state); no game state is kept here (DESIGN.md 3).
--
-- Readings fixed here (docs/france1940.md):
--   * "division-equivalents" (F40-5.2, R14): XX = 1, XXX = 3, III (regiment) = 0.
--   * A unit's movement class is its `class` attribute, else its type (armored and motorized ->
--     "motorized", mountain -> "mountain"), else "foot" -- exactly the engine's `unit_class`
--     rule of movement.lua, so Lua and Rust never disagree on who is motorized (F40-R5).
--   * The assault in progress (1 or 2) is kept in the rules variable `assault`, set by
--     sequence.lua when the first phase of an assault starts (F40-9.1, 18.1).
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local lib = require("lib")
local spelling = require("lib.spelling")

local common = {}

-- Why a command's `unit` names no unit: "no unit 'fr-1-dln' in play (did you mean 'fr-1-dlm'?)",
-- the nearest id of the units in play when one is within two edits (a player's typo).
function common.no_unit(id)
  local head = "no unit '" .. tostring(id) .. "' in play"
  -- (a unit out of play says why: in play by email the bot's turn eliminates units, and a
  -- "did you mean" pointed the player at another one)
  for _, g in ipairs(hex.units.gone()) do
    if g.id == id then
      if g.eliminated then
        return head .. ": it was eliminated on turn " .. tostring(g.gone_turn) .. " (" .. tostring(g.gone_reason) .. ")"
      end
      return head .. ": it is out of play (" .. tostring(g.gone_reason) .. ")"
    end
  end
  return head .. spelling.did_you_mean(id, hex.units.ids())
end

-- "de-1-pz is not an allied unit", "fr-2-di is not a german unit".
function common.not_of_side(u, side)
  local article = tostring(side):match("^[aeiouAEIOU]") and "an " or "a "
  return u.id .. " is not " .. article .. tostring(side) .. " unit"
end

-- `f` of one key, each answer kept: for map facts, which never change, and for facts of one
-- call kept in a per-call context (restrictions.lua).
function common.memo(f)
  local kept = {}
  return function(key)
    local v = kept[key]
    if v == nil then
      v = f(key)
      kept[key] = v
    end
    return v
  end
end

common.SIDES = { "german", "allied" }
-- Nations of the countries neutral at the start (F40-16.1; R7's turn-1 halving, F40-18.2).
common.NEUTRAL_NATIONS = { dutch = true, belgian = true, swiss = true }
-- Status flag carried by units of a still-neutral country (side "neutral"): no ZOC, no
-- occupation, always supplied (F40-R8, R11, R12). Set at game start by sequence.lua.
common.NEUTRAL = "neutral"

local CLASS_BY_TYPE = { armored = "motorized", motorized = "motorized", mountain = "mountain" }
common.CLASS_BY_TYPE = CLASS_BY_TYPE

function common.class_of(u)
  local c = u.attrs and u.attrs.class
  if type(c) == "string" then return c end
  return CLASS_BY_TYPE[u.type] or "foot"
end

function common.is_motorized(u)
  return common.class_of(u) == "motorized"
end

-- F40-5.2 / R14: division-equivalents of one unit.
local EQUIV = { XX = 1, XXX = 3, III = 0 }
common.EQUIVALENTS = EQUIV   -- by size, for hot loops that read it directly
function common.equivalents(u)
  return EQUIV[u.size] or 0
end

-- F40-5.3 / R14: armored division-equivalents (regiments count 0, armored ones too).
function common.armored_equivalents(u)
  if u.type ~= "armored" then return 0 end
  return EQUIV[u.size] or 0
end

-- Division-equivalents and armored ones of `side` per hex ({total = {label = n}, armored =
-- {label = n}}), from light views (hex.units.brief) or full ones.
function common.stacks_of(units)
  local total, armored = {}, {}
  for _, u in ipairs(units) do
    local at, e = u.at, EQUIV[u.size] or 0
    total[at] = (total[at] or 0) + e
    armored[at] = (armored[at] or 0) + (u.type == "armored" and e or 0)
  end
  return { total = total, armored = armored }
end

-- common.stacks_of for the units of `side` on the map, read through hex.units.list: four flat
-- lists cost far less than a light view per unit.
function common.stacks_of_side(side)
  local sides, sizes, types = hex.units.list("side"), hex.units.list("size"), hex.units.list("type")
  local total, armored = {}, {}
  local ats = hex.units.list("at")
  for i = 1, #ats do
    local at = ats[i]
    if at and sides[i] == side then
      local e = EQUIV[sizes[i]] or 0
      total[at] = (total[at] or 0) + e
      armored[at] = (armored[at] or 0) + (types[i] == "armored" and e or 0)
    end
  end
  return { total = total, armored = armored }
end

-- The set {label = true} of the hexes holding a unit of `side` (`other`: of any side but it).
function common.occupied_by(side, other)
  local sides = hex.units.list("side")
  local out = {}
  for i, at in ipairs(hex.units.list("at")) do
    if at and (sides[i] == side) ~= (other == true) then out[at] = true end
  end
  return out
end

-- F40-11.3: a para regiment (attrs `para`, size III) has no combat or movement factor and no
-- ZOC, and enemies may enter a hex holding only such regiments (R8); a para-marked unit of
-- another size is an ordinary unit.
function common.para_regiment(u)
  return u.attrs ~= nil and u.attrs.para == true and u.size == "III"
end

function common.enemy_of(side)
  if side == "german" then return "allied" end
  if side == "allied" then return "german" end
  return nil
end

-- Units of another side than `side` (neutral units included) standing at `label`.
function common.enemies_at(label, side)
  local out = {}
  for _, u in ipairs(hex.units.at(label)) do
    if u.side ~= side then out[#out + 1] = u end
  end
  return out
end

-- The hexes of a zone, or {} when this map has no such zone (small test maps). Read-only:
-- Map data, so kept per map; callers only read the list.
common.zone = common.memo(function(name)
  local ok, hexes = pcall(hex.map.zone, name)
  return ok and hexes or {}
end)

-- The units a `legal` function lists commands for: the filter's unit when it names one of
-- `side`'s units (hex.commands.legal(side, {unit = ID})), else every unit of `side`.
function common.units_for(side, filter)
  local id = filter and filter.unit
  if id then
    local u = hex.units.get(id)
    if u and u.side == side then return { u } end
    return {}
  end
  return hex.units.of_side(side)
end

-- The priority of the handlers that clear per-phase marks when a phase ends: above every other
-- PhaseEnded handler (sequence.lua's is 100), so the marks are gone before any reaction takes a
-- unit out of play (a mark cleared after a surrender would name a unit no longer in play).
common.CLEAR_MARKS_FIRST = 200

-- The units (full views, id order) carrying any of `flags`: cheap when few do, unlike a loop
-- over hex.units.all().
function common.units_with(flags)
  local out = {}
  for i, id in ipairs(common.ids_with(flags)) do out[i] = hex.units.get(id) end
  return out
end

-- The ids (sorted) of the units in play carrying any of `flags`, for callers that need no
-- more than the id.
function common.ids_with(flags)
  local seen, ids = {}, {}
  for _, flag in ipairs(flags) do
    for _, id in ipairs(hex.units.ids(nil, { with = { flag } })) do
      if not seen[id] then seen[id] = true; ids[#ids + 1] = id end
    end
  end
  table.sort(ids)
  return ids
end

-- The neighbours of a hex (map data, kept per map; callers only read the list).
common.neighbors = common.memo(function(label) return hex.map.neighbors(label) end)

-- Map data read once and kept (the map never changes during a game): every hex in index
-- order, the terrain of each hex, the hexside features between two hexes. Callers only read
-- the lists they get.
local hex_list = nil
function common.hexes()
  hex_list = hex_list or hex.map.hexes()
  return hex_list
end

common.terrain = common.memo(function(label) return hex.map.terrain(label) end)
common.zones_of = common.memo(function(label) return hex.map.zones(label) end)

-- Whether `label` is in the zone `name` (a set per zone, from common.zone).
local zone_set = common.memo(function(name)
  local set = {}
  for _, l in ipairs(common.zone(name)) do set[l] = true end
  return set
end)
function common.in_zone(label, name)
  return zone_set(name)[label] == true
end

local features = {}
function common.has_feature(label, name)
  local key = label .. "/" .. name
  local f = features[key]
  if f == nil then
    f = hex.map.has_feature(label, name)
    features[key] = f
  end
  return f
end

local hexsides = {}
local NO_FEATURES = {}
function common.hexside(a, b)
  local key = a .. "/" .. b
  local list = hexsides[key]
  if list == nil then
    list = hex.map.hexside(a, b) or NO_FEATURES
    hexsides[key] = list
  end
  return list
end

-- The labels within `range` hexes of any of `labels` (themselves included), in no set order: a
-- breadth-first walk over the neighbours, which on a map's rectangle of hexes reaches exactly
-- the hexes hex.map.distance puts within range (a shortest route between two hexes of the
-- rectangle never needs to leave it).
function common.within(labels, range)
  local list, seen, ring = {}, {}, {}
  for _, l in ipairs(labels) do
    if not seen[l] then
      seen[l] = true
      list[#list + 1] = l
      ring[#ring + 1] = l
    end
  end
  for _ = 1, range do
    local next_ring = {}
    for _, h in ipairs(ring) do
      local nbs = common.neighbors(h)
      for k = 1, #nbs do
        local n = nbs[k]
        if not seen[n] then
          seen[n] = true
          list[#list + 1] = n
          next_ring[#next_ring + 1] = n
        end
      end
    end
    ring = next_ring
  end
  return list
end

-- The current assault (1 or 2) of the phasing player's turn (sequence.lua keeps it).
function common.assault()
  return hex.state.get("assault") or 1
end

-- What shows that `side` has begun moving in this phase, as a phrase ("a1 has moved"), or nil:
-- a unit that moved or went by rail, or an evacuation (the unit has left play, 10.4). The
-- start of an assault, when drops (F40-11.1) and reserves (F40-17.3) come, is over once one has.
function common.first_mover(side)
  for _, flag in ipairs({ "moved", "railed" }) do
    local id = hex.units.ids(side, { with = { flag }, limit = 1 })[1]
    if id then return id .. " has moved" end
  end
  if hex.state.get("evacuated") ~= nil and side == "allied" then return "a unit has been evacuated" end
  return nil
end

function common.is_movement_phase()
  return hex.state.phase() == "movement"
end

-- F40-9.1, 8.3, 18.2 and R7: the MP a unit may spend in this movement phase; the halvings
-- compound without rounding (the engine's MP are exact multiples of 1/64).
function common.budget(u)
  local mp = u.ma or 0
  if common.assault() == 2 then mp = mp / 2 end                                   -- F40-9.1
  if u.status.isolated then mp = mp / 2 end                                       -- F40-8.3
  if hex.state.turn() == 1 and common.NEUTRAL_NATIONS[u.nation] then mp = mp / 2 end  -- F40-18.2
  return mp
end

local base_budget = common.budget
-- Whether a variant replaced common.budget (the bot, which works out the module's budget
-- inline for all its units at once, then asks the replacement instead).
function common.budget_replaced() return common.budget ~= base_budget end

-- Why common.budget halves `u`'s MA now, one entry per halving ("second assault, F40-9.1"):
-- for a refusal over MP, which otherwise names a budget the player does not see on the counter.
function common.budget_halvings(u)
  local out = {}
  if common.assault() == 2 then out[#out + 1] = "second assault, F40-9.1" end
  if u.status.isolated then out[#out + 1] = "isolated, F40-8.3" end
  if hex.state.turn() == 1 and common.NEUTRAL_NATIONS[u.nation] then
    out[#out + 1] = "neutral country's unit on turn 1, F40-18.2"
  end
  return out
end

-- MP already spent by a unit in this phase (movement.lua records each move's cost).
function common.spent(u)
  return hex.state.get("mp_spent", u.id) or 0
end

-- A copy of a table with one key changed (rules variables are replaced whole).
function common.with(t, key, value)
  local out = {}
  for k, v in pairs(t or {}) do out[k] = v end
  out[key] = value
  return out
end

-- MP as the players read them: 2, 1.5, 0.75.
function common.mp_str(x)
  if x == math.floor(x) then return string.format("%d", math.floor(x)) end
  return string.format("%g", x)
end

common.sorted_keys = lib.sorted_keys

return require("lib.spelling").strict("france1940.common", common)
