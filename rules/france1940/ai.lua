-- france1940/ai: a greedy bot for both sides (scenario: [[side]] bot = "france1940.ai").
--
-- Written against the legal-command API, one decision at a time: it lists only the legal
-- commands it needs (hex.commands.legal(side, {command = ..., unit = ...})) and returns the
-- command it picks; it reads the position through the read-only views and the rules' own
-- helpers (combat odds, supply sources), never changes anything and keeps no game state (the
-- memo below holds distance fields, a pure function of the map and a list of hexes). What is
-- left to do comes from the position: units that moved carry `moved`.
-- Choice, in order:
--   1. `place` reserves and reinforcements (nearest the objectives);
--   2. `drop` airborne units into an empty hex nearest the objectives;
--   3. `evacuate` an isolated unit standing in a port;
--   (1-3 only before the side's first move of the phase: the bot does them first, so a unit
--   with `moved` says they are done)
--   4. `move`: the units that may still move, nearest the objectives first; for each, the
--      destination that gets it closest to its side's objectives, keeping it supplied (a hex
--      where a unit of its class traces supply) and never entering Switzerland. A unit's own
--      legal moves are listed only when its plain reach (hex.path.reach, no paths) shows such a
--      destination;
--   5. in a combat phase, `attack` at the best odds, at 2:1 or better;
--   6. otherwise `end_phase`.
-- Objectives: German - the major cities of the Netherlands, Belgium and France it does not
-- control; Allied - German-held objectives to take back and
-- Allied-held ones with a German unit within 4 hexes, else the German units themselves.
-- Deterministic: ties go to the first command listed.
local common = require("france1940.common")
local combat = require("france1940.combat")
local supply = require("france1940.supply")
local politics = require("france1940.politics")
local movement = require("france1940.movement")
local restrictions = require("france1940.restrictions")

local fields = {}          -- memo: key (sorted objective labels) -> {label = distance}

local function field(targets)
  table.sort(targets)
  local key = table.concat(targets, ",")
  if fields[key] then return fields[key] end
  local dist, queue, head = {}, {}, 1
  for _, t in ipairs(targets) do
    if dist[t] == nil then dist[t] = 0; queue[#queue + 1] = t end
  end
  while head <= #queue do
    local h = queue[head]; head = head + 1
    for _, n in ipairs(common.neighbors(h)) do
      if dist[n] == nil and hex.map.terrain(n) ~= "sea" then
        dist[n] = dist[h] + 1
        queue[#queue + 1] = n
      end
    end
  end
  local count = 0
  for _ in pairs(fields) do count = count + 1 end
  if count > 64 then fields = {} end
  fields[key] = dist
  return dist
end

local OBJECTIVE_COUNTRIES = { "netherlands", "belgium", "france" }

-- Hexes within `THREAT` of a city (map data, kept per map).
local THREAT = 4
local near_city = {}
local function within_threat(city)
  local list = near_city[city]
  if not list then
    list = {}
    for _, label in ipairs(hex.map.hexes()) do
      if hex.map.distance(label, city) <= THREAT then list[#list + 1] = label end
    end
    near_city[city] = list
  end
  return list
end

local function objectives(side)
  local out = {}
  if side == "german" then
    for _, c in ipairs(OBJECTIVE_COUNTRIES) do
      for _, l in ipairs(supply.major_cities(c)) do
        if hex.state.control(l) ~= "german" then out[#out + 1] = l end
      end
    end
    return out
  end
  local germans, german_at = {}, {}
  for _, u in ipairs(hex.units.brief("german")) do
    germans[#germans + 1] = u.at
    german_at[u.at] = true
  end
  for _, c in ipairs(OBJECTIVE_COUNTRIES) do
    for _, l in ipairs(supply.major_cities(c)) do
      local ctl = hex.state.control(l)
      if ctl == "german" then
        out[#out + 1] = l
      elseif ctl == "allied" then
        for _, h in ipairs(within_threat(l)) do
          if german_at[h] then out[#out + 1] = l; break end
        end
      end
    end
  end
  if #out == 0 then return germans end
  return out
end

-- The supply sources of a unit of `side` and `nation` (what the bot keeps its units within).
local function supply_sources(side, nation)
  if side == "german" then return supply.german_sources() end
  if nation == "swiss" then return supply.swiss_sources() end
  local hexes = supply.french_sources()
  local home = politics.COUNTRY_OF_NATION[nation]
  if home then
    for _, l in ipairs(supply.major_cities(home)) do hexes[#hexes + 1] = l end
  end
  return hexes
end

local function supplied_set(side, u, cache)
  local class = common.class_of(u)
  local key = class .. "/" .. (u.nation or "")
  if cache[key] then return cache[key] end
  local set = {}
  for _, l in ipairs(hex.path.supplied_hexes(side, class, supply_sources(side, u.nation))) do set[l] = true end
  cache[key] = set
  return set
end

local COLUMN_RANK = {}
for i, c in ipairs(combat.COLUMNS) do COLUMN_RANK[combat.column_name(c)] = i end

-- The best of `list` by `score(cmd)` (nil scores are skipped; ties keep the first).
local function best_of(list, score)
  local best, best_score = nil, nil
  for _, cmd in ipairs(list) do
    local sc = score(cmd)
    if sc and (not best_score or sc > best_score) then best, best_score = cmd, sc end
  end
  return best
end

local function enters_switzerland(path)
  for _, l in ipairs(path) do
    if politics.country_of(l) == "switzerland" then return true end
  end
  return false
end

local function movement_choice(side)
  local targets = objectives(side)
  local dist = field(targets)
  local near = function(cmd) return 1000 - (dist[cmd.to] or 99) end
  -- Placements, drops and evacuations come before any move: once a unit of the side has moved
  -- this phase (a status, so this holds for a continued save too), they are done.
  local started = hex.units.ids(side, { with = { "moved" } })[1] or hex.units.ids(side, { with = { "railed" } })[1]
  local place = not started and best_of(hex.commands.legal(side, { command = "place" }), near)
  if place then return place end
  local drop = not started and best_of(hex.commands.legal(side, { command = "drop" }), function(cmd)
    if #common.enemies_at(cmd.to, side) == 0 then return near(cmd) end
  end)
  if drop then return drop end
  if side == "allied" and not started then
    for _, id in ipairs(hex.units.ids(side, { on_map = true, with = { "isolated" } })) do
      local evacuate = hex.commands.legal(side, { command = "evacuate", unit = id })[1]
      if evacuate then return evacuate end
    end
  end
  -- Units that may still move, nearest the objectives first (ties by id).
  local waiting, isolated = {}, {}
  for _, id in ipairs(hex.units.ids(side, { on_map = true, without = { "moved", "railed", common.NEUTRAL } })) do
    waiting[id] = true
  end
  for _, id in ipairs(hex.units.ids(side, { on_map = true, with = { "dropped" } })) do
    if movement.cannot_move(hex.units.get(id), side) then waiting[id] = nil end   -- F40-11.4
  end
  for _, id in ipairs(hex.units.ids(side, { on_map = true, with = { "isolated" } })) do isolated[id] = true end
  local brief = hex.units.brief(side)
  local order = {}
  for _, b in ipairs(brief) do
    if waiting[b.id] then order[#order + 1] = { b = b, d = dist[b.at] or 99 } end
  end
  table.sort(order, function(x, y)
    if x.d ~= y.d then return x.d < y.d end
    return x.b.id < y.b.id
  end)
  -- Each unit keeps to hexes where a unit of its class is supplied: one supply field per class
  -- and nation, traced by the engine inside hex.path.toward. The engine ranks each unit's
  -- reachable hexes by the same field as `dist`, sixteen units at a time (most decisions end in
  -- the first sixteen).
  local supplied, stacks = {}, nil
  for first = 1, #order, 16 do
    local units, asks = {}, {}
    for i = first, math.min(first + 15, #order) do
      local b = order[i].b
      local class = b.class or common.CLASS_BY_TYPE[b.type] or "foot"
      local key = class .. "/" .. b.nation
      if not asks[key] then
        asks[key] = { side = side, class = class, sources = supply_sources(side, b.nation) }
      end
      units[#units + 1] = { id = b.id, supply = key,
        budget = common.budget({ ma = b.ma, nation = b.nation, status = { isolated = isolated[b.id] } }) }
    end
    local batch = hex.path.toward(targets, units, { impassable = { "sea" }, supplied = asks })
    for _, r in ipairs(batch) do
      local u = hex.units.get(r.id)
      stacks = stacks or restrictions.stacks(side, brief)
      local wanted = nil
      for _, label in ipairs(r.closer) do
        if politics.country_of(label) ~= "switzerland" and restrictions.fits(u, label, stacks)
            and not restrictions.hex_refusal(u, label) then
          wanted = label
          break
        end
      end
      if wanted then
        local before = r.from
        -- The move the legal list would give for that hex: the engine's path, checked against
        -- the political restrictions along the way (restrictions.lua) and Switzerland.
        local path = hex.path.path_to(u.id, common.budget(u), wanted)
        if path and not enters_switzerland(path) and not restrictions.path_refusal(u, path) then
          return { command = "move", unit = u.id, path = path }
        end
        local legal = hex.commands.legal(side, { command = "move", unit = u.id })
        local set = supplied_set(side, u, supplied)
        -- The listed path to that hex is refused: the best other listed move.
        local move = best_of(legal, function(cmd)
          local to = cmd.path[#cmd.path]
          local after = dist[to] or 99
          if after < before and set[to] and not enters_switzerland(cmd.path) then
            return 100 + (before - after) * 10 - after
          end
        end)
        if move then return move end
      end
    end
  end
  return nil
end

local function combat_choice(side)
  return best_of(hex.commands.legal(side, { command = "attack" }), function(cmd)
    local attackers = {}
    for _, id in ipairs(cmd.units) do attackers[#attackers + 1] = hex.units.get(id) end
    local o = combat.odds(attackers, cmd.hex, side)
    local rank = o.odds and COLUMN_RANK[o.odds] or 0
    if rank >= 3 then return 800 + rank * 10 + o.attack / 100 end
  end)
end

return function(side, legal, seed)
  local choice = nil
  local phase = hex.state.phase()
  if hex.state.side() == side then
    if phase == "movement" then
      choice = movement_choice(side)
    elseif phase == "combat" then
      choice = combat_choice(side)
    end
  end
  return choice or hex.commands.legal(side, { command = "end_phase" })[1] or 1
end
