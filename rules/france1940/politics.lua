-- france1940/politics: neutral countries, invasions, alliances and surrenders (F40-16.1 .. 16.6,
-- R9, R11).
--
-- State (rules variables; every one replaced whole):
--   countries   {country = "allied" | "surrendered"}; a country absent is still neutral
--   invaded     {country = turn of its invasion}
--   surrendered {country = turn of its surrender}
-- Units of a still-neutral country have side "neutral" and the status `neutral` (sequence.lua).
--
-- Events:
--   16.2 A German unit whose move (UnitMoved: a move, a drop, a retreat) enters a hex of a
--        still-neutral country invades it: Custom CountryInvaded {country, unit} (one per
--        country, in path order). The move is judged first (R9), so the invader's own hex is
--        German before the country's hexes are handed over.
--   16.2/16.4/16.5/R9 CountryInvaded brings countries in: the Netherlands -> Netherlands,
--        Belgium, Luxembourg; Belgium or Luxembourg -> Belgium and Luxembourg; Switzerland ->
--        Switzerland. Each joining country: Custom CountryJoined {country}, then for each of
--        its units UnitSideChanged (allied) and UnitStatusChanged (remove `neutral`), then
--        ControlChanged (allied) for each of its hexes not German-controlled (R11).
--   16.3/16.4 At the end of each Allied player-turn (the PhaseEnded of its last step):
--        the Netherlands surrender if German units stand in at least two Dutch major cities
--        [interpretation: "occupe" = German units and no Allied one in the hex, as 7.1(a) with R11]; Belgium surrenders if both
--        Belgian major cities are German-controlled and `bef_corps_evacuated` >= 1
--        (evacuation.lua). Custom CountrySurrendered {country}, VarSet countries/surrendered,
--        UnitRemoved "surrendered" for every unit of the country's nation still in play
--        (on or off the map). Luxembourg, which has no units, shares Belgium's fate.
-- Movement restrictions (16.1, 16.3, 16.4, 16.6) are in restrictions.lua, which asks
-- politics.status / politics.country_of.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")
local supply = require("france1940.supply")

local politics = {}

politics.COUNTRIES = { "netherlands", "belgium", "luxembourg", "switzerland" }
politics.NATION_OF = { netherlands = "dutch", belgium = "belgian", switzerland = "swiss" }
politics.COUNTRY_OF_NATION = { dutch = "netherlands", belgian = "belgium", swiss = "switzerland" }
-- F40-16.4, 16.5, R9: who joins when a country is invaded.
politics.JOINS = {
  netherlands = { "netherlands", "belgium", "luxembourg" },
  belgium = { "belgium", "luxembourg" },
  luxembourg = { "belgium", "luxembourg" },
  switzerland = { "switzerland" },
}

-- label -> country (one of the four, or "france" / "germany"), built once per map (map data,
-- not game state).
local country_cache = nil
local function countries_by_hex()
  if country_cache then return country_cache end
  country_cache = {}
  for _, c in ipairs({ "france", "germany", "netherlands", "belgium", "luxembourg", "switzerland" }) do
    for _, label in ipairs(common.zone(c)) do country_cache[label] = c end
  end
  return country_cache
end

function politics.country_of(label)
  return (country_cache or countries_by_hex())[label]
end

-- "neutral", "allied" or "surrendered" for the four countries; nil for France and Germany.
function politics.status(country)
  if not politics.NATION_OF[country] and country ~= "luxembourg" then return nil end
  local s = hex.state.get("countries", country)   -- (the one entry, not the whole table)
  return s or "neutral"
end

function politics.is_neutral(country)
  return country ~= nil and politics.status(country) == "neutral"
end

function politics.invaded(country)
  return hex.state.get("invaded", country) ~= nil
end

-- True when a German unit stands in a hex of `country`.
function politics.german_inside(country)
  for label in pairs(common.occupied_by("german")) do
    if politics.country_of(label) == country then return true end
  end
  return false
end

-- F40-16.3 / 16.6: the home country a Dutch or Swiss unit `u` may not leave voluntarily while a
-- German unit is in it, and the clause, when `u` stands in it and no forced retreat has freed
-- it; nil otherwise. (Whether a German unit is inside is the caller's to ask: listings keep it.)
function politics.home_bound(u)
  local nation = u.nation
  if (nation ~= "dutch" and nation ~= "swiss") or u.status.freed or not u.at then return nil end
  local home = politics.COUNTRY_OF_NATION[nation]
  if politics.country_of(u.at) ~= home then return nil end
  return home, nation == "dutch" and "F40-16.3" or "F40-16.6"
end

-- F40-16.4: every Belgian major city is German-controlled.
function politics.belgian_cities_fallen()
  local cities = supply.major_cities("belgium")
  if #cities == 0 then return false end
  for _, l in ipairs(cities) do
    if hex.state.control(l) ~= "german" then return false end
  end
  return true
end

local function join(country)
  local out = {
    hex.state.set("countries", common.with(hex.state.get("countries"), country, "allied")),
  }
  -- (the country's hexes first: the territory judgment the units' changes of side set off then
  -- finds them allied already, where it used to give each a second ControlChanged to allied)
  local hexes = {}
  for _, l in ipairs(common.zone(country)) do hexes[#hexes + 1] = l end
  table.sort(hexes)
  for _, l in ipairs(hexes) do
    local c = hex.state.control(l)
    if c ~= "german" and c ~= "allied" then
      out[#out + 1] = { event = "ControlChanged", hex = l, side = "allied" }
    end
  end
  local nation = politics.NATION_OF[country]
  if nation then
    for _, u in ipairs(hex.units.all()) do
      if u.nation == nation and u.side == "neutral" then
        out[#out + 1] = { event = "UnitSideChanged", unit = u.id, side = "allied" }
        if u.status[common.NEUTRAL] then
          out[#out + 1] = { event = "UnitStatusChanged", unit = u.id, remove = { common.NEUTRAL } }
        end
      end
    end
  end
  return out
end

-- The countries that surrender now (end of an Allied player-turn), in a fixed order.
function politics.due_surrenders()
  local due = {}
  if politics.status("netherlands") == "allied" then
    -- (occupied as 7.1(a) reads it with R11: German units and no Allied one in the hex -- an
    -- Allied unit may share a hex with a German para regiment, 11.3)
    local held = 0
    for _, l in ipairs(supply.major_cities("netherlands")) do
      local german, allied = false, false
      for _, u in ipairs(hex.units.at(l)) do
        if u.side == "german" then german = true elseif u.side == "allied" then allied = true end
      end
      if german and not allied then held = held + 1 end
    end
    if held >= 2 then due[#due + 1] = "netherlands" end                           -- 16.3
  end
  if politics.status("belgium") == "allied" and politics.belgian_cities_fallen()
      and (hex.state.get("bef_corps_evacuated") or 0) >= 1 then                  -- 16.4
    due[#due + 1] = "belgium"
    if politics.status("luxembourg") == "allied" then due[#due + 1] = "luxembourg" end  -- 16.5
  end
  return due
end

-- The surrender events for `due` (one handler's events all see one state: the variables are
-- built up here, not read back).
function politics.surrender_events(due, turn)
  if #due == 0 then return {} end
  local countries = hex.state.get("countries") or {}
  local surrendered = hex.state.get("surrendered") or {}
  local out = {}
  for _, c in ipairs(due) do
    countries = common.with(countries, c, "surrendered")
    surrendered = common.with(surrendered, c, turn)
    out[#out + 1] = hex.events.emit("CountrySurrendered", { country = c, turn = turn })
    local nation = politics.NATION_OF[c]
    if nation then
      for _, u in ipairs(hex.units.all()) do
        if u.nation == nation then
          out[#out + 1] = { event = "UnitRemoved", unit = u.id, reason = "surrendered" }
        end
      end
    end
  end
  out[#out + 1] = hex.state.set("countries", countries)
  out[#out + 1] = hex.state.set("surrendered", surrendered)
  return out
end

-- Whether a PhaseEnded ends the Allied player-turn.
function politics.ends_allied_turn(ev)
  local sequence = require("france1940.sequence")
  local steps = (ev.turn == 1) and sequence.turn1 or sequence.steps
  return ev.side == "allied" and ev.step == #steps - 1
end

-- 16.2: the invasions a German move makes (CountryInvaded events). The handlers below call
-- this and the next two through the module table, so a variant replaces or wraps them
-- (`politics.invasions = function(ev) ... end`: Switzerland entered without an invasion).
function politics.invasions(ev)
  local u = hex.units.get(ev.unit)
  if not u or u.side ~= "german" then return nil end
  local out, seen = {}, {}
  local invaded = nil     -- read once: one handler call sees one state
  for _, label in ipairs(ev.path or { ev.to }) do
    local c = politics.country_of(label)
    -- a country is invaded once: when still neutral, or (R10) when it joined by another's
    -- invasion and a German unit now enters it
    local status = c and not seen[c] and politics.status(c)
    if status and status ~= "surrendered" then
      invaded = invaded or hex.state.get("invaded") or {}
    end
    if status and status ~= "surrendered" and invaded[c] == nil then
      seen[c] = true
      out[#out + 1] = hex.events.emit("CountryInvaded", { country = c, unit = u.id })
    end
  end
  return out
end

-- What an invasion does (16.2, 16.4, 16.5, R9): the country noted invaded, it and the countries
-- that join with it join the Allies.
function politics.invasion(ev)
  local c = ev.data.country
  local out = { hex.state.set("invaded", common.with(hex.state.get("invaded"), c, ev.data.turn or hex.state.turn())) }
  for _, other in ipairs(politics.JOINS[c] or { c }) do
    if politics.is_neutral(other) then
      out[#out + 1] = hex.events.emit("CountryJoined", { country = other })
    end
  end
  return out
end

-- A country joining the Allies (16.2): its units and hexes change hands.
function politics.joining(ev)
  return join(ev.data.country)
end

function politics.register()
  -- Priority below territory.lua's (-10) so that the events of the move's own control change
  -- are applied before the country is handed over.
  hex.events.on("UnitMoved", function(ev) return politics.invasions(ev) end, -20)

  -- A --setup position's `invaded = ["netherlands", ...]`: those countries have been invaded
  -- (16.2), with the joins of 16.4/16.5/R9, as if by a German move. Without it a setup changes
  -- no country's status: a position is a snapshot (R9), and a German unit a setup stands inside
  -- a neutral country has not moved in. Before territory.lua's judgment (its PositionSet
  -- handler, priority 0, judges in a later event), so that 7.1 is judged once with the joined
  -- countries' units Allied (R11). The invader named is the first German unit inside the
  -- country in id order, if any; the invasion is noted on the position's turn.
  hex.events.on("PositionSet", function(ev)
    local named = (ev.data and ev.data.invaded) or {}
    if #named == 0 then return nil end
    local first = {}
    local ids, sides, ats = hex.units.list("id"), hex.units.list("side"), hex.units.list("at")
    for i, id in ipairs(ids) do
      local c = sides[i] == "german" and ats[i] and politics.country_of(ats[i])
      if c and (first[c] == nil or id < first[c]) then first[c] = id end
    end
    local wanted = {}
    for _, c in ipairs(named) do wanted[c] = true end
    local invaded = hex.state.get("invaded") or {}
    local out = {}
    for _, c in ipairs(politics.COUNTRIES) do
      if wanted[c] and politics.status(c) ~= "surrendered" and invaded[c] == nil then
        out[#out + 1] = hex.events.emit("CountryInvaded", { country = c, unit = first[c], turn = ev.data.turn })
      end
    end
    return out
  end, 10)

  hex.events.on("CountryInvaded", function(ev) return politics.invasion(ev) end)
  hex.events.on("CountryJoined", function(ev) return politics.joining(ev) end)

  -- 16.3, 16.4: surrenders at the end of the Allied player-turn.
  hex.events.on("PhaseEnded", function(ev)
    if not politics.ends_allied_turn(ev) then return nil end
    return politics.surrender_events(politics.due_surrenders(), ev.turn)
  end, 50)
end

return require("lib.spelling").strict("france1940.politics", politics)
