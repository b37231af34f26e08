-- france1940/restrictions: where units may go, by country and turn (F40-16.1, 16.3, 16.4, 16.6,
-- 18.2, R10), and legal lists that never lead to a refused `end_phase` (F40-5.1).
--
-- The engine's movement search knows terrain, hexsides and ZOC, not politics. This file wraps
-- `move` and `rail` (hex.commands.get): every hex a unit enters must pass
-- restrictions.hex_refusal, checked along the whole path:
--   16.1 Allied units (and units of a joined country) never enter a still-neutral country;
--        German units may (that is an invasion, politics.lua).
--   16.3 / 16.6 Dutch (Swiss) units may not leave the Netherlands (Switzerland) while a German
--        unit is in it, unless a retreat has already taken them out (status `freed`, set by
--        combat.lua's retreats).
--   16.4 Belgian units operate in Belgium, Luxembourg, the Netherlands (once joined) and
--        Germany; they enter France only when `freed` by a retreat, or once every Belgian major
--        city is German-controlled; a Belgian unit that has entered France is `freed` for good.
--   18.2 / R10 on turn 1: French units enter only hexes of `deploy_french`; British units enter
--        Belgium only if Belgium itself was invaded (having joined is not enough).
-- Reading [interpretation]: a refused hex is refused anywhere on the path, not only at its end.
-- Known limit: the legal list offers the engine's cheapest path to each hex and drops it when
-- that path crosses a refused hex, even if a dearer path avoiding it exists (such a path is
-- accepted when given).
--
-- Stacking (F40-5.1 .. 5.3, R14) is checked when a phase ends; so that a bot can always end its
-- phase, legal lists offer only moves, rail moves and drops whose destination stays within the
-- limits for the moving side (restrictions.fits). Such moves are still accepted when given.
local common = require("france1940.common")
local politics = require("france1940.politics")
local stacking = require("france1940.stacking")

local restrictions = {}

-- A map that draws no `deploy_french` zone (a small test position) sets no turn-1 limit on French
-- units: the rule restricts them to a zone, and there is none. Cached: the map never changes.
local deployment_zone_known = nil
local function has_deployment_zone()
  if deployment_zone_known == nil then
    deployment_zone_known = pcall(hex.map.zone, "deploy_french")
  end
  return deployment_zone_known
end


local BELGIAN_AREA = { belgium = true, luxembourg = true, germany = true }

-- Why unit `u` may not enter `label`, as (rule, reason), or nil. `turn` defaults to now.
function restrictions.hex_refusal(u, label, turn)
  turn = turn or hex.state.turn()
  local country = politics.country_of(label)
  if u.side ~= "german" and country and politics.is_neutral(country)
      and politics.country_of(u.at or label) ~= country then
    return "F40-16.1", string.format("%s may not enter %s (%s is neutral)", u.id, label, country)
  end
  local home = politics.COUNTRY_OF_NATION[u.nation]
  if (u.nation == "dutch" or u.nation == "swiss") and not u.status.freed and u.at
      and politics.country_of(u.at) == home and country ~= home and politics.german_inside(home) then
    local rule = u.nation == "dutch" and "F40-16.3" or "F40-16.6"
    return rule, string.format("%s may not leave %s while a German unit is in it (%s)", u.id, home, label)
  end
  if u.nation == "belgian" and not u.status.freed then
    local ok = BELGIAN_AREA[country] or (country == "netherlands" and not politics.is_neutral(country))
    if country == "france" and politics.belgian_cities_fallen() then ok = true end
    if not ok then
      return "F40-16.4", string.format("Belgian unit %s may not enter %s (%s)", u.id, label, tostring(country))
    end
  end
  if turn == 1 then
    if u.nation == "french" and has_deployment_zone() and not hex.map.in_zone(label, "deploy_french") then
      return "F40-18.2", string.format("on turn 1 French unit %s may not leave its deployment zone (%s)", u.id, label)
    end
    if u.nation == "british" and country == "belgium" and not politics.invaded("belgium") then
      return "F40-18.2", string.format("on turn 1 British unit %s may enter Belgium only if Belgium was invaded (%s)",
        u.id, label)
    end
  end
  return nil
end

function restrictions.path_refusal(u, path)
  for _, label in ipairs(path or {}) do
    local rule, reason = restrictions.hex_refusal(u, label)
    if rule then return rule, reason end
  end
  return nil
end

-- Division-equivalents (and armored ones) of `side` per hex, for the legal lists. `brief`:
-- hex.units.brief(side) when the caller has it already.
function restrictions.stacks(side, brief)
  local total, armored = {}, {}
  for _, u in ipairs(brief or hex.units.brief(side)) do
    total[u.at] = (total[u.at] or 0) + common.equivalents(u)
    armored[u.at] = (armored[u.at] or 0) + common.armored_equivalents(u)
  end
  return { total = total, armored = armored }
end

-- Whether `u` may end in `label` without overstacking its side (5.2, 5.3).
function restrictions.fits(u, label, stacks)
  stacks = stacks or restrictions.stacks(u.side)
  local t, a = stacks.total[label] or 0, stacks.armored[label] or 0
  if u.at == label then return t <= stacking.LIMIT and a <= stacking.ARMORED_LIMIT end
  return t + common.equivalents(u) <= stacking.LIMIT
    and a + common.armored_equivalents(u) <= stacking.ARMORED_LIMIT
end

local function wrap(name, path_of)
  local base = hex.commands.get(name)
  hex.commands.define(name, {
    resolve = function(cmd, side)
      local u = hex.units.get(cmd.unit or "")
      if u and u.side == side then
        local rule, reason = restrictions.path_refusal(u, path_of(cmd))
        if rule then return hex.refuse(rule, reason) end
      end
      return base.resolve(cmd, side)
    end,
    legal = function(side, filter)
      local out = {}
      local list = base.legal(side, filter)
      if #list == 0 then return list end
      local stacks = restrictions.stacks(side)
      local units = {}
      for _, cmd in ipairs(list) do
        local u = units[cmd.unit]
        if not u then
          u = hex.units.get(cmd.unit)
          units[cmd.unit] = u
        end
        local path = path_of(cmd)
        if restrictions.fits(u, path[#path], stacks) and not restrictions.path_refusal(u, path) then
          out[#out + 1] = cmd
        end
      end
      return out
    end,
  })
end

function restrictions.register()
  wrap("move", function(cmd) return cmd.path or {} end)
  wrap("rail", function(cmd) return { cmd.to } end)
  wrap("drop", function(cmd) return { cmd.to } end)

  -- 16.4: a Belgian unit that has entered France operates normally from then on.
  hex.events.on("UnitMoved", function(ev)
    local u = hex.units.get(ev.unit)
    if not u or u.nation ~= "belgian" or u.status.freed then return nil end
    for _, label in ipairs(ev.path or {}) do
      if politics.country_of(label) == "france" then
        return { { event = "UnitStatusChanged", unit = u.id, add = { "freed" } } }
      end
    end
  end)
end

return restrictions
