-- france1940/status: what `hexwar status` shows a player beside the units (the `status` query,
-- docs/cli.md): the assault and its movement allowance (9.1, 18.1), where each country stands
-- (16.x), and the victory points as they would be counted now, by what scores them.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")
local politics = require("france1940.politics")
local victory = require("france1940.victory")

local status = {}

local COUNTRIES = { "netherlands", "belgium", "luxembourg", "switzerland" }

-- "neutral", "invaded on turn 2, allied", "surrendered on turn 6".
local function country_text(country)
  local surrendered = hex.state.get("surrendered", country)
  if surrendered then return "surrendered on turn " .. surrendered end
  local invaded = hex.state.get("invaded", country)
  if invaded then return "invaded on turn " .. invaded .. ", allied" end
  return politics.status(country) or "neutral"
end

-- {side = "12 (cities 10, units eliminated 2)"}: victory.scores, split by what scores.
local function points_text()
  local p = victory.points()
  local out = {}
  for _, side in ipairs({ "german", "allied" }) do
    local cities, units = p.cities[side], p.units[side]
    out[side] = string.format("%s (cities %s, units eliminated %s)", common.mp_str(cities + units),
      common.mp_str(cities), common.mp_str(units))
  end
  return out
end

function status.answer()
  local out = { countries = {}, [hex.state.is_over() and "victory points" or "victory points now"] = points_text() }
  for _, c in ipairs(COUNTRIES) do out.countries[c] = country_text(c) end
  local phase = hex.state.phase()
  if not hex.state.is_over() and (phase == "movement" or phase == "combat") then
    if hex.state.turn() == 1 then
      out.assault = "the only one of turn 1 (F40-18.1)"
    elseif common.assault() == 2 then
      out.assault = "second: half movement allowance (F40-9.1)"
    else
      out.assault = "first: full movement allowance (F40-9.1)"
    end
  end
  local fell = hex.state.get("paris_fell")
  if fell then out["Paris fell"] = "on turn " .. tostring(fell) end
  return out
end

function status.register()
  hex.rules.query("status", function() return status.answer() end)
end

return require("lib.spelling").strict("france1940.status", status)
