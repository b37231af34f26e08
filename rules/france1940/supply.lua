-- france1940/supply: supply sources (F40-8.2, R13), supply lines (8.1, 6.5, R12: traced by the
-- engine from the declaration in movement.lua) and the judgment at the start of each assault
-- (F40-8.3): units that cannot trace are `isolated` for the whole assault (movement halved in
-- common.budget, combat halved by the combat rules, no rail: movement.lua's rail policy).
--
-- Sources, each counting only in friendly territory (8.2; the engine checks ownership):
--   german   : east-edge hexes north of Switzerland (rows above every Swiss hex, R13) and the
--              major-city hexes of Germany;
--   allied (French, British and any other Allied nation not listed below): west-edge hexes,
--              south-edge hexes west of Switzerland (columns left of every Swiss hex, R13), and
--              the Paris hexes (zone `city_paris`);
--   belgian / dutch : the major cities of their own country, plus the French sources;
--   swiss    : Swiss cities (major cities and towns, R13) and Swiss map-edge hexes; never the
--              French sources.
-- A major city is a `major_city` hex of the country's zone or a hex of its
-- `major_cities_<country>` zone. Without a `switzerland` zone (small maps) no edge hex is cut.
-- The `supply` query answers {unit_id = true|false} for every unit on the map, traced now;
-- `supply_sources` lists the source sets given to hex.path.supply.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")

local supply = {}

local COUNTRY_OF = { belgian = "belgium", dutch = "netherlands", swiss = "switzerland" }

local function row_col(label)
  -- Labels are column digits then row digits, in equal numbers (docs/formats.md).
  local half = #label // 2
  return tonumber(label:sub(half + 1)), tonumber(label:sub(1, half))
end

local function add_all(out, seen, list)
  for k = 1, #list do
    local label = list[k]
    if not seen[label] then
      seen[label] = true
      out[#out + 1] = label
    end
  end
end

-- Map data, computed once per map and copied out (callers may extend the lists they get).
local map_memo = {}
local function shared(key, build)
  local list = map_memo[key]
  if not list then
    list = build()
    map_memo[key] = list
  end
  return list
end
local function memo(key, build)
  local list = shared(key, build)
  return table.move(list, 1, #list, 1, {})
end

local function build_major_cities(country)
  local out, seen = {}, {}
  for _, label in ipairs(common.zone(country)) do
    if hex.map.terrain(label) == "major_city" then add_all(out, seen, { label }) end
  end
  add_all(out, seen, common.zone("major_cities_" .. country))
  table.sort(out)
  return out
end

function supply.major_cities(country)
  return memo("major_cities/" .. country, function() return build_major_cities(country) end)
end

-- The same list shared, for the rules' own lookups that only read it (no copy).
function supply.major_cities_shared(country)
  return shared("major_cities/" .. country, function() return build_major_cities(country) end)
end

-- Whether `label` is a major city of `country` (a set built once per map).
local city_set = common.memo(function(country)
  local set = {}
  for _, l in ipairs(supply.major_cities_shared(country)) do set[l] = true end
  return set
end)
function supply.is_major_city(country, label)
  return city_set(country)[label] == true
end

-- The extent of Switzerland: smallest row and smallest column of its hexes (nil without it).
local function swiss_bounds()
  local min_row, min_col
  for _, label in ipairs(common.zone("switzerland")) do
    local r, c = row_col(label)
    if not min_row or r < min_row then min_row = r end
    if not min_col or c < min_col then min_col = c end
  end
  return min_row, min_col
end

local function build_german_sources()
  local out, seen = {}, {}
  local min_row = swiss_bounds()
  for _, label in ipairs(common.zone("east_edge")) do
    local r = row_col(label)
    if not min_row or r < min_row then add_all(out, seen, { label }) end
  end
  add_all(out, seen, supply.major_cities_shared("germany"))
  table.sort(out)
  return out
end

function supply.german_sources() return memo("german_sources", build_german_sources) end

local function build_french_sources()
  local out, seen = {}, {}
  local _, min_col = swiss_bounds()
  add_all(out, seen, common.zone("west_edge"))
  for _, label in ipairs(common.zone("south_edge")) do
    local _, c = row_col(label)
    if not min_col or c < min_col then add_all(out, seen, { label }) end
  end
  add_all(out, seen, common.zone("city_paris"))
  table.sort(out)
  return out
end

function supply.french_sources() return memo("french_sources", build_french_sources) end

local function build_swiss_sources()
  local out, seen = {}, {}
  for _, label in ipairs(common.zone("switzerland")) do
    local edge = false
    for _, z in ipairs(hex.map.zones(label)) do
      if z:match("_edge$") then edge = true end
    end
    if edge or hex.map.terrain(label) == "major_city" or hex.map.has_feature(label, "town") then
      add_all(out, seen, { label })
    end
  end
  table.sort(out)
  return out
end

function supply.swiss_sources() return memo("swiss_sources", build_swiss_sources) end

-- The source sets for hex.path.supply (F40-8.2).
-- The lists are shared map data (hex.path.supply only reads them).
function supply.sources()
  local french = shared("french_sources", build_french_sources)
  local others = {}
  local listed = {}
  local sides = hex.units.list("side")   -- every unit in play, on the map or off it
  for i, nation in ipairs(hex.units.list("nation")) do
    if sides[i] == "allied" and not COUNTRY_OF[nation] and not listed[nation] then
      listed[nation] = true
      others[#others + 1] = nation
    end
  end
  table.sort(others)
  local sets = { { side = "german", hexes = shared("german_sources", build_german_sources) } }
  if #others > 0 then sets[#sets + 1] = { side = "allied", nations = others, hexes = french } end
  for _, nation in ipairs({ "belgian", "dutch" }) do
    local hexes = supply.major_cities(COUNTRY_OF[nation])
    table.move(french, 1, #french, #hexes + 1, hexes)
    sets[#sets + 1] = { side = "allied", nations = { nation }, hexes = hexes }
  end
  sets[#sets + 1] = { side = "allied", nations = { "swiss" }, hexes = shared("swiss_sources", build_swiss_sources) }
  return sets
end

-- The source hexes that serve a unit of `side` and `nation` (F40-8.2): those of every set of
-- supply.sources() for that side that names the nation or names none, in set order, each once.
-- The bot and the airborne drops read sources through this, so a variant that replaces
-- supply.sources (a new nation's sources, a captured port) is followed by all of them. `sets`
-- (optional): supply.sources()'s answer, when the caller has it already.
function supply.sources_for(side, nation, sets)
  local hexes, seen = {}, {}
  for _, set in ipairs(sets or supply.sources()) do
    local serves = set.side == side
    if serves and set.nations then
      serves = false
      for _, n in ipairs(set.nations) do
        if n == nation then serves = true end
      end
    end
    if serves then add_all(hexes, seen, set.hexes) end
  end
  return hexes
end

-- {unit_id = true|false} for every unit on the map, traced on the current position.
function supply.trace()
  return hex.path.supply(supply.sources())
end

function supply.register()
  hex.rules.query("supply", function() return supply.trace() end)
  hex.rules.query("supply_sources", function() return supply.sources() end)

  -- F40-8.3: judged for all units at the start of each assault (see sequence.lua).
  hex.events.on("AssaultSupply", function()
    local supplied = supply.trace()
    local isolated = hex.units.with_status("isolated")   -- one call, not one view per unit
    local out = {}
    for _, id in ipairs(common.sorted_keys(supplied)) do
      local was_isolated = isolated[id] == true
      if supplied[id] and was_isolated then
        out[#out + 1] = { event = "UnitStatusChanged", unit = id, remove = { "isolated" } }
      elseif not supplied[id] and not was_isolated then
        out[#out + 1] = { event = "UnitStatusChanged", unit = id, add = { "isolated" } }
      end
    end
    return out
  end)
end

return require("lib.spelling").strict("france1940.supply", supply)
