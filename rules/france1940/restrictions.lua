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
-- The `reach` query and the `move` listing search with the refused hexes blocked
-- (restrictions.blocked), so each listed path avoids them.
--
-- Stacking (F40-5.1 .. 5.3, R14) is checked when a phase ends; so that a bot can always end its
-- phase, legal lists offer only moves, rail moves and drops whose destination stays within the
-- limits for the moving side (restrictions.fits). Such moves are still accepted when given.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
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

-- The turn-1 deployment zone as a set (map data, read once).
-- A label that names no hex is asked of hex.map.in_zone, as before, so that it answers alike.
local deployment_set, hex_set = nil, nil
local function in_deployment_zone(label)
  if not deployment_set then
    deployment_set, hex_set = {}, {}
    for _, l in ipairs(common.zone("deploy_french")) do deployment_set[l] = true end
    for _, l in ipairs(common.hexes()) do hex_set[l] = true end
  end
  if deployment_set[label] then return true end
  if hex_set[label] then return false end
  return hex.map.in_zone(label, "deploy_french")
end

-- The facts of the position hex_refusal reads, each asked of the host at most once per
-- context. The state does not change during one call into Lua, so a context lives for one call
-- (one listing, one command, one path) and is then dropped.
local function new_context()
  return {}
end

local function ctx_turn(ctx)
  local t = ctx.turn
  if t == nil then
    t = hex.state.turn()
    ctx.turn = t
  end
  return t
end

-- `f(key)`, kept in the context's table `name` for the rest of the call.
local function ctx_kept(ctx, name, f, key)
  local ask = ctx[name]
  if not ask then
    ask = common.memo(f)
    ctx[name] = ask
  end
  return ask(key)
end

local function ctx_neutral(ctx, country)
  return ctx_kept(ctx, "neutral", politics.is_neutral, country)
end

local function ctx_german_inside(ctx, home)
  return ctx_kept(ctx, "german_inside", politics.german_inside, home)
end

local function ctx_fallen(ctx)
  if ctx.fallen == nil then ctx.fallen = politics.belgian_cities_fallen() end
  return ctx.fallen
end

local function ctx_belgium_invaded(ctx)
  if ctx.belgium_invaded == nil then ctx.belgium_invaded = politics.invaded("belgium") end
  return ctx.belgium_invaded
end

-- hex_refusal against a context; `turn` (when given) overrides the current turn.
local function refusal_in(ctx, u, label, turn)
  turn = turn or ctx_turn(ctx)
  local country = politics.country_of(label)
  -- (a hex of no country is sea, which no unit enters: F40-9.2 says so, not a country's rule;
  -- a Dutch unit ordered onto the IJsselmeer was told it may not leave the Netherlands)
  if country == nil then return nil end
  if u.side ~= "german" and ctx_neutral(ctx, country)
      and politics.country_of(u.at or label) ~= country then
    return "F40-16.1", string.format("%s may not enter %s (%s is neutral)", u.id, label, country)
  end
  local nation = u.nation
  if nation == "dutch" or nation == "swiss" then
    local home, rule = politics.home_bound(u)
    if home and country ~= home and ctx_german_inside(ctx, home) then
      return rule, string.format("%s may not leave %s while a German unit is in it (%s)", u.id, home, label)
    end
  end
  -- (a Belgian unit standing in France has entered it: it operates normally, 16.4)
  if nation == "belgian" and not u.status.freed and not (u.at and politics.country_of(u.at) == "france") then
    local ok = BELGIAN_AREA[country] or (country == "netherlands" and not ctx_neutral(ctx, country))
    if country == "france" and ctx_fallen(ctx) then ok = true end
    if not ok then
      return "F40-16.4", string.format("Belgian unit %s may not enter %s (%s)", u.id, label, tostring(country))
    end
  end
  if turn == 1 then
    if nation == "french" and has_deployment_zone() and not in_deployment_zone(label) then
      return "F40-18.2", string.format("on turn 1 French unit %s may not leave its deployment zone (%s)", u.id, label)
    end
    if nation == "british" and country == "belgium" and not ctx_belgium_invaded(ctx) then
      return "F40-18.2", string.format("on turn 1 British unit %s may enter Belgium only if Belgium was invaded (%s)",
        u.id, label)
    end
  end
  return nil
end

-- Why unit `u` may not enter `label`, as (rule, reason), or nil. `turn` defaults to now.
-- A variant may replace or wrap it: every check below (moves, rail moves, drops, the listings
-- and the `reach` query) asks restrictions.hex_refusal as it stands at the call.
function restrictions.hex_refusal(u, label, turn)
  return refusal_in(new_context(), u, label, turn)
end
local standard_hex_refusal = restrictions.hex_refusal

-- Whether a variant replaced hex_refusal (then its verdicts are asked per unit and hex, not per
-- class of hexes, and without the standard rule's kept facts).
local function replaced()
  return restrictions.hex_refusal ~= standard_hex_refusal
end

-- hex_refusal in a context: the standard rule reads the context's kept facts.
local function judge(ctx, u, label)
  if replaced() then return restrictions.hex_refusal(u, label) end
  return refusal_in(ctx, u, label)
end

-- The hexes `u` may not enter now (hex_refusal), as a sorted list of labels, for the engine's
-- searches (hex.path.reach's `blocked`): so that `reach` and the legal moves follow paths that
-- avoid them (a refused hex is refused anywhere on a path). A verdict depends on the hex only
-- through its country and, on turn 1, its membership of `deploy_french`: judged once per such
-- class of hexes, and kept in the context per kind of unit (what refusal_in reads of it).
local class_of_hex = nil
local function hex_classes()
  if class_of_hex then return class_of_hex end
  class_of_hex = {}
  local has_zone = has_deployment_zone()
  for _, l in ipairs(common.hexes()) do
    local c = politics.country_of(l) or "-"
    if has_zone and in_deployment_zone(l) then c = c .. "/deploy" end
    class_of_hex[l] = c
  end
  return class_of_hex
end

local function blocked_in(ctx, u)
  local own = replaced()
  local key = own and ("unit|" .. tostring(u.id) .. "|" .. tostring(u.at))
    or table.concat({ tostring(u.side), tostring(u.nation), tostring(u.status.freed == true),
      tostring(u.at and politics.country_of(u.at)) }, "|")
  ctx.blocked = ctx.blocked or {}
  local list = ctx.blocked[key]
  if list then return list end
  local classes = hex_classes()
  local verdict = {}
  list = {}
  for _, l in ipairs(common.hexes()) do
    local c = own and l or classes[l]
    local r = verdict[c]
    if r == nil then
      r = judge(ctx, u, l) ~= nil
      verdict[c] = r
    end
    if r then list[#list + 1] = l end
  end
  ctx.blocked[key] = list
  return list
end

function restrictions.blocked(u)
  return blocked_in(new_context(), u)
end

-- The blocked lists of many units in one call (one context: a listing).
function restrictions.blocker()
  local ctx = new_context()
  return function(u) return blocked_in(ctx, u) end
end

local function path_refusal_in(ctx, u, path)
  path = path or {}
  for k = 1, #path do
    local label = path[k]
    local rule, reason = judge(ctx, u, label)
    if rule then return rule, reason end
  end
  return nil
end

function restrictions.path_refusal(u, path)
  return path_refusal_in(new_context(), u, path)
end

-- Division-equivalents (and armored ones) of `side` per hex, for the legal lists. `brief`:
-- hex.units.brief(side) when the caller has it already.
function restrictions.stacks(side, brief)
  if brief then return common.stacks_of(brief) end
  return common.stacks_of_side(side)
end

local EQUIVALENTS = common.EQUIVALENTS

-- Whether `u` may end in `label` without overstacking its side (5.2, 5.3). (The limits read
-- from `stacking` at each call, so a variant that changes them after loading is followed.)
function restrictions.fits(u, label, stacks)
  stacks = stacks or restrictions.stacks(u.side)
  local LIMIT, ARMORED_LIMIT = stacking.LIMIT, stacking.ARMORED_LIMIT
  local t, a = stacks.total[label] or 0, stacks.armored[label] or 0
  if u.at == label then return t <= LIMIT and a <= ARMORED_LIMIT end
  local e = EQUIVALENTS[u.size] or 0
  return t + e <= LIMIT and a + (u.type == "armored" and e or 0) <= ARMORED_LIMIT
end

-- `refused(u, label)`: whether hex_refusal refuses unit `u` (a full view) the hex `label`,
-- answers kept per unit id and hex in `ctx`'s life (one position).
local function refusal_memo(ctx)
  local kept = {}
  return function(u, label)
    local seen = kept[u.id]
    if not seen then
      seen = {}
      kept[u.id] = seen
    end
    local r = seen[label]
    if r == nil then
      r = judge(ctx, u, label) ~= nil
      seen[label] = r
    end
    return r
  end
end

-- The check the listings of one-hex commands (`drop`, `rail`) make: `enters(u, to)` is true
-- when unit `u` (a full view) of `side` may end in `to` within the stacking limits (5.2, 5.3)
-- and the political restrictions (16.x, 18.2). Answers are kept per unit and hex for the
-- checker's life, which must not outlast the call into Lua that made it (one position).
-- `stacks` and `ctx` default to fresh ones. A bot ranking a listing's hexes itself checks only
-- the few it examines (ai.lua, drops).
function restrictions.one_hex_checker(side, stacks, ctx)
  stacks = stacks or restrictions.stacks(side)
  local refused = refusal_memo(ctx or new_context())
  return function(u, to)
    if not restrictions.fits(u, to, stacks) then return false end
    return to == nil or not refused(u, to)
  end
end

-- `single`: the command enters one hex, its `to` (path_of gives {cmd.to}): the listing checks
-- that hex without building the path.
-- Whether every label of `path` is a hex of the map: a path naming no hex (a typo, `16133`) is
-- left to the base command, which refuses it by name; the political checks ask only map hexes.
local function on_map(path)
  for _, l in ipairs(path or {}) do
    if type(l) ~= "string" or not hex.map.is_hex(l) then return false end
  end
  return true
end

local function wrap(name, path_of, single)
  local base = hex.commands.get(name)
  hex.commands.define(name, {
    args = base.args,
    resolve = function(cmd, side)
      local u = hex.units.get(cmd.unit or "")
      if u and u.side == side and on_map(path_of(cmd)) then
        local rule, reason = restrictions.path_refusal(u, path_of(cmd))
        if rule then return hex.refuse(rule, reason) end
      end
      -- (the view read above, passed on: nothing has changed since; a base command taking
      -- none ignores it)
      return base.resolve(cmd, side, u)
    end,
    legal = function(side, filter)
      local out = {}
      local list = base.legal(side, filter)
      if #list == 0 then return list end
      local stacks = restrictions.stacks(side)
      local ctx = new_context()
      local enters = single and restrictions.one_hex_checker(side, stacks, ctx)
      local refused = refusal_memo(ctx)
      -- Per unit: its full view (paths to nearby hexes share most of their hexes: the verdicts
      -- per hex are kept, refusal_memo).
      local units = {}
      for _, cmd in ipairs(list) do
        local id = cmd.unit
        local u = units[id]
        if not u then
          u = hex.units.get(id)
          units[id] = u
        end
        if single then
          if enters(u, cmd.to) then out[#out + 1] = cmd end
        else
          local path = path_of(cmd)
          if restrictions.fits(u, path[#path], stacks) then
            local ok = true
            for _, label in ipairs(path) do
              if refused(u, label) then ok = false; break end
            end
            if ok then out[#out + 1] = cmd end
          end
        end
      end
      return out
    end,
  })
end

function restrictions.register()
  wrap("move", function(cmd) return cmd.path or {} end)
  wrap("rail", function(cmd) return { cmd.to } end, true)
  wrap("drop", function(cmd) return { cmd.to } end, true)

  -- 16.4: a Belgian unit that has entered France operates normally from then on; one that
  -- stood in France (a setup's) and moves out has been there as much (it was free to move
  -- while there, and leaving must not bar it from coming back).
  hex.events.on("UnitMoved", function(ev)
    local u = hex.units.get(ev.unit)
    if not u or u.nation ~= "belgian" or u.status.freed then return nil end
    if ev.from and politics.country_of(ev.from) == "france" then
      return { { event = "UnitStatusChanged", unit = u.id, add = { "freed" } } }
    end
    for _, label in ipairs(ev.path or {}) do
      if politics.country_of(label) == "france" then
        return { { event = "UnitStatusChanged", unit = u.id, add = { "freed" } } }
      end
    end
  end)
end

return require("lib.spelling").strict("france1940.restrictions", restrictions)
