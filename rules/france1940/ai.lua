-- france1940/ai: a greedy bot for both sides (scenario: [[side]] bot = "france1940.ai").
--
-- Written against the legal-command API: it receives the legal list and returns the index of
-- the command it picks; it reads the position through the read-only views and the rules'
-- own helpers (combat odds, supply sources), never changes anything and keeps no game state
-- (the memo below holds distance fields, a pure function of the map and a list of hexes).
-- Choice, in order of score:
--   1. `place` reserves and reinforcements (nearest the objectives), `drop` airborne units into
--      an empty hex nearest the objectives;
--   2. `attack` at the best odds, at 2:1 or better;
--   3. `evacuate` an isolated unit standing in a port;
--   4. `move` the unit whose destination gets it closest to its side's objectives, keeping it
--      supplied (the destination must be a hex where a unit of its class traces supply) and
--      never entering Switzerland;
--   5. otherwise `end_phase`.
-- Objectives: German - the major cities of the Netherlands, Belgium and France it does not
-- control (Paris counted twice as close); Allied - German-held objectives to take back and
-- Allied-held ones with a German unit within 4 hexes, else the German units themselves.
-- Deterministic: ties go to the first command in the legal list.
local common = require("france1940.common")
local combat = require("france1940.combat")
local supply = require("france1940.supply")
local politics = require("france1940.politics")

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
    for _, n in ipairs(hex.map.neighbors(h)) do
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

local function objectives(side)
  local out = {}
  local paris = {}
  for _, l in ipairs(common.zone("city_paris")) do paris[l] = true end
  if side == "german" then
    for _, c in ipairs(OBJECTIVE_COUNTRIES) do
      for _, l in ipairs(supply.major_cities(c)) do
        if hex.state.control(l) ~= "german" then out[#out + 1] = l end
      end
    end
    return out
  end
  local germans = {}
  for _, u in ipairs(hex.units.of_side("german")) do
    if u.at then germans[#germans + 1] = u.at end
  end
  for _, c in ipairs(OBJECTIVE_COUNTRIES) do
    for _, l in ipairs(supply.major_cities(c)) do
      local ctl = hex.state.control(l)
      if ctl == "german" then
        out[#out + 1] = l
      elseif ctl == "allied" then
        for _, g in ipairs(germans) do
          if hex.map.distance(g, l) <= 4 then out[#out + 1] = l; break end
        end
      end
    end
  end
  if #out == 0 then return germans end
  return out
end

local function supplied_set(side, u, cache)
  local class = common.class_of(u)
  local key = class .. "/" .. (u.nation or "")
  if cache[key] then return cache[key] end
  local hexes
  if side == "german" then
    hexes = supply.german_sources()
  elseif u.nation == "swiss" then
    hexes = supply.swiss_sources()
  else
    hexes = supply.french_sources()
    local home = politics.COUNTRY_OF_NATION[u.nation]
    if home then
      for _, l in ipairs(supply.major_cities(home)) do hexes[#hexes + 1] = l end
    end
  end
  local set = {}
  for _, l in ipairs(hex.path.supplied_hexes(side, class, hexes)) do set[l] = true end
  cache[key] = set
  return set
end

local COLUMN_RANK = {}
for i, c in ipairs(combat.COLUMNS) do COLUMN_RANK[combat.column_name(c)] = i end

return function(side, legal, seed)
  local best, best_score, end_index = nil, nil, nil
  local dist = nil
  local supplied = {}
  for i, cmd in ipairs(legal) do
    local score = nil
    local name = cmd.command
    if name == "place" or name == "drop" then
      dist = dist or field(objectives(side))
      local d = dist[cmd.to] or 99
      if name == "place" or #common.enemies_at(cmd.to, side) == 0 then score = 1000 - d end
    elseif name == "attack" then
      local attackers = {}
      for _, id in ipairs(cmd.units) do attackers[#attackers + 1] = hex.units.get(id) end
      local o = combat.odds(attackers, cmd.hex, side)
      local rank = o.odds and COLUMN_RANK[o.odds] or 0
      if rank >= 3 then score = 800 + rank * 10 + o.attack / 100 end
    elseif name == "evacuate" then
      local u = hex.units.get(cmd.unit)
      if u.status.isolated then score = 500 end
    elseif name == "move" then
      dist = dist or field(objectives(side))
      local u = hex.units.get(cmd.unit)
      local to = cmd.path[#cmd.path]
      local before, after = dist[u.at] or 99, dist[to] or 99
      if after < before and politics.country_of(to) ~= "switzerland" then
        local ok = true
        for _, l in ipairs(cmd.path) do
          if politics.country_of(l) == "switzerland" then ok = false end
        end
        if ok and supplied_set(side, u, supplied)[to] then
          score = 100 + (before - after) * 10 - after + (u.strength or 0) / 100
        end
      end
    elseif name == "end_phase" then
      end_index = i
    end
    if score and (not best_score or score > best_score) then best, best_score = i, score end
  end
  return best or end_index or 1
end
