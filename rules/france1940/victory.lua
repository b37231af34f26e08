-- france1940/victory: the module's own victory points (the F40 readings are silent) and the
-- per-game figures of batch runs.
--
-- [interpretation] At the end of the game each side scores:
--   * cities it controls: each Paris hex 5, each other major city of France 2, each major city
--     of Belgium or the Netherlands 1 (victory.CITY_POINTS; Swiss and German cities count 0);
--   * enemy units eliminated (UnitEliminated): XX 1, XXX 3, III 1 (victory.UNIT_POINTS).
--     Units evacuated (10.4), surrendered (16.3, 16.4), withdrawn (11.3) or still in a pool
--     are not eliminated and score nothing.
-- The higher score wins; equal scores are a draw (no winner).
-- Paris: at the end of each turn, the first turn at whose end every Paris hex is German-
-- controlled is kept in the variable `paris_fell`.
-- Query `figures`: paris_fell, netherlands_surrendered, belgium_surrendered, switzerland_invaded
-- (1 if it happened, else 0: a batch's mean is how often), paris_fell_turn,
-- netherlands_surrendered_turn, belgium_surrendered_turn (only when it happened: a batch's mean
-- is the mean turn of the games where it did; a 0 for "never" made that mean meaningless),
-- evacuated (units), countries_surrendered.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")
local supply = require("france1940.supply")
local politics = require("france1940.politics")

local victory = {}

victory.CITY_POINTS = { paris = 5, france = 2, belgium = 1, netherlands = 1 }
victory.UNIT_POINTS = { XX = 1, XXX = 3, III = 1 }

-- The keys of CITY_POINTS that victory.cities reads (a variant whose victory.cities reads more
-- adds them here, or check_tables refuses them).
victory.CITY_KEYS = { "belgium", "france", "netherlands", "paris" }

-- {label = points} of the cities that score.
function victory.cities()
  local out = {}
  for _, l in ipairs(supply.major_cities("france")) do out[l] = victory.CITY_POINTS.france end
  for _, l in ipairs(common.zone("city_paris")) do out[l] = victory.CITY_POINTS.paris end
  for _, c in ipairs({ "belgium", "netherlands" }) do
    for _, l in ipairs(supply.major_cities(c)) do out[l] = victory.CITY_POINTS[c] end
  end
  return out
end

-- The points each side has now by what scores them: {cities = {side = n}, units = {side = n}}
-- (units: the enemy units eliminated).
function victory.points()
  local cities, units = { german = 0, allied = 0 }, { german = 0, allied = 0 }
  local points = victory.cities()
  for _, l in ipairs(common.sorted_keys(points)) do
    local c = hex.state.control(l)
    if cities[c] then cities[c] = cities[c] + points[l] end
  end
  for _, g in ipairs(hex.units.gone()) do
    if g.eliminated then
      local enemy = common.enemy_of(g.side)
      if enemy then units[enemy] = units[enemy] + (victory.UNIT_POINTS[g.size] or 0) end
    end
  end
  return { cities = cities, units = units }
end

function victory.scores()
  local p = victory.points()
  return { german = p.cities.german + p.units.german, allied = p.cities.allied + p.units.allied }
end

function victory.result()
  local s = victory.scores()
  local winner = nil
  if s.german > s.allied then winner = "german" elseif s.allied > s.german then winner = "allied" end
  local fell = hex.state.get("paris_fell")
  local reason = string.format("victory points: german %s, allied %s%s", common.mp_str(s.german),
    common.mp_str(s.allied), fell and string.format("; Paris fell on turn %d", fell) or "")
  return { winner = winner, scores = s, reason = reason }
end

function victory.figures()
  local evacuated = 0
  for _, g in ipairs(hex.units.gone()) do
    if g.gone_reason == "evacuated" then evacuated = evacuated + 1 end
  end
  local surrendered = hex.state.get("surrendered") or {}
  local n = 0
  for _ in pairs(surrendered) do n = n + 1 end
  local paris = hex.state.get("paris_fell")
  return {
    paris_fell = paris and 1 or 0,
    paris_fell_turn = paris,
    evacuated = evacuated,
    countries_surrendered = n,
    netherlands_surrendered = surrendered.netherlands and 1 or 0,
    netherlands_surrendered_turn = surrendered.netherlands,
    belgium_surrendered = surrendered.belgium and 1 or 0,
    belgium_surrendered_turn = surrendered.belgium,
    switzerland_invaded = politics.invaded("switzerland") and 1 or 0,
  }
end

-- The unit sizes the module reads (docs/france1940.md, "Scenario data the module reads").
local SIZES = { "III", "XX", "XXX" }

-- victory.UNIT_POINTS checked as the game starts: a size neither the module reads nor any unit
-- of the game has (`xx` for `XX`) would never score, and the size meant would score nothing,
-- without a word.
function victory.check_tables()
  local sizes, listed = {}, {}
  local function note(size)
    if size and not sizes[size] then
      sizes[size] = true
      listed[#listed + 1] = size
    end
  end
  for _, size in ipairs(SIZES) do note(size) end
  for _, u in ipairs(hex.units.all()) do note(u.size) end
  for _, u in ipairs(hex.units.gone()) do note(u.size) end
  table.sort(listed)
  local keys = {}
  for size in pairs(victory.UNIT_POINTS) do keys[#keys + 1] = tostring(size) end
  table.sort(keys)
  for _, size in ipairs(keys) do
    if not sizes[size] then
      error(string.format("victory.UNIT_POINTS has '%s', a size no unit of the game has%s (sizes: %s): its points would never count",
        size, require("lib.spelling").did_you_mean(size, listed), table.concat(listed, ", ")), 0)
    end
  end
  -- (a key victory.cities does not read, `Paris` for `paris`, scored nothing, and the city
  -- meant kept its points)
  local cities = {}
  for _, k in ipairs(victory.CITY_KEYS) do cities[k] = true end
  keys = {}
  for k in pairs(victory.CITY_POINTS) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for _, k in ipairs(keys) do
    if not cities[k] then
      error(string.format("victory.CITY_POINTS has '%s', a key no city scores by%s (keys: %s): its points would never count",
        k, require("lib.spelling").did_you_mean(k, victory.CITY_KEYS), table.concat(victory.CITY_KEYS, ", ")), 0)
    end
  end
  -- (points that are no number stopped the game at its end, or scored NaN)
  for _, table_name in ipairs({ "UNIT_POINTS", "CITY_POINTS" }) do
    local points = victory[table_name]
    local names = {}
    for k in pairs(points) do names[#names + 1] = k end
    table.sort(names, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(names) do
      local v = points[k]
      if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
        error(string.format("victory.%s.%s is %s, not a number of points", table_name, tostring(k),
          type(v) == "string" and ('"' .. v .. '"') or tostring(v)), 0)
      end
    end
  end
end

function victory.register()
  hex.events.on("GameStarted", function()
    victory.check_tables()
    return nil
  end)

  -- (through the module table at every call: a variant that replaces victory.result, .figures
  -- or .scores after loading is followed by the engine's hooks too)
  hex.rules.victory(function(...) return victory.result(...) end)
  hex.rules.query("figures", function(...) return victory.figures(...) end)
  hex.rules.query("score", function(...) return victory.scores(...) end)

  hex.events.on("PhaseEnded", function(ev)
    if not politics.ends_allied_turn(ev) or hex.state.get("paris_fell") then return nil end
    local paris = common.zone("city_paris")
    if #paris == 0 then return nil end
    for _, l in ipairs(paris) do
      if hex.state.control(l) ~= "german" then return nil end
    end
    return hex.state.set("paris_fell", ev.turn)
  end, 40)
end

return require("lib.spelling").strict("france1940.victory", victory)
