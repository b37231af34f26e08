-- france1940/ai: a greedy bot for both sides (scenario: [[side]] bot = "france1940.ai").
--
-- Written against the legal-command API, one decision at a time: it lists only the legal
-- commands it needs (hex.commands.legal(side, {command = ..., unit = ...})) and returns the
-- command it picks; it reads the position through the read-only views and the rules' own
-- helpers (combat.attack_options, supply sources), never changes anything and keeps no game state: every
-- decision is a function of the current position alone, so a game continued from a save plays
-- the same commands. What it keeps between decisions is map data (the land hexes, the hexes
-- near each objective city), step fields (hex.path.steps: a function of the map and a list of
-- hexes) and each unit's fixed facts (nation, type, size, MA, strength, class: no F40 event
-- changes them; a variant's UnitChanged makes the bot learn them again). What is left to do comes from the position: units that moved carry `moved`.
-- Cost (docs/france1940.md, "Bots"): each decision asks the host once for each thing it needs;
-- a move is one hex.path.toward call that orders the units, ranks their hexes and keeps out of
-- the hexes the stacking limits would refuse (declared as capacities), so the bot reads no unit
-- positions of its own side (but for the Germans' Dutch front, below: two flat lists, until the
-- Netherlands surrender); it lists `drop` only when an airborne unit waits off the map, and
-- takes the attacks with their odds from the rules' own listing (combat.attack_options, the
-- list hex.commands.legal gives for `attack`), so no attack's odds are worked out twice; it
-- ranks placements per group of the `place` listing (reserves.place_options), not per command.
-- Choice, in order:
--   1. `place` reserves and reinforcements (nearest the objectives);
--   2. `drop` airborne units into an empty hex nearest the objectives;
--   3. `evacuate` an isolated unit standing in a port;
--   (1-3 only before the side's first move of the phase: the bot does them first, so a unit
--   with `moved` says they are done)
--   4. `move`: the units that may still move, nearest the objectives first; for each, the
--      destination that gets it closest to its side's objectives, keeping it supplied (a hex
--      where a unit of its class traces supply) and never entering Switzerland (the countries
--      of strategy.avoided_countries, which a variant may change), within the
--      stacking limits and the political restrictions (the engine ranks each unit's reachable
--      hexes, hex.path.toward; the bot builds the move with hex.path.path_to, and lists the
--      unit's legal moves only when that path is refused);
--   5. in a combat phase, `attack` at the best odds, at 2:1 or better (German, until the
--      Netherlands surrender: at 1:1 or better on a Dutch major city, and never with the units
--      standing in one; both thresholds: strategy.attack_at, .attack_dutch_at);
--   6. otherwise `end_phase`.
-- Objectives: German - the major cities of Belgium and France it does not control, and until
-- the Netherlands surrender (F40-16.3: German units standing in two Dutch major cities at the end
-- of an Allied player-turn) the Dutch major cities it does not hold, i.e. where no German unit
-- with a combat strength stands (a para regiment alone has none) or an enemy unit stands (after
-- the surrender, the Dutch ones it does not control, as the others). Until then, German units
-- standing in a Dutch major city neither move nor attack, and the German units within
-- DUTCH_FRONT (10) land steps of the Dutch cities not held (motorized ones: within 3) move
-- first and toward those alone: into the ones free of enemy units if any can get closer to one
-- (an empty city is taken), else, those not already next to such a city, toward the empty
-- hexes next to them (the posts they attack from); the rest of the army moves after them
-- toward all the objectives. Drops go, as before, to the empty hex nearest the objectives, so
-- an empty Dutch city not held is the first choice.
-- Allied - German-held objectives to take back and
-- Allied-held ones with a German unit within 4 hexes, else the German units themselves.
-- Deterministic: ties go to the first command listed.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")
local combat = require("france1940.combat")
local supply = require("france1940.supply")
local politics = require("france1940.politics")
local movement = require("france1940.movement")
local restrictions = require("france1940.restrictions")
local airborne = require("france1940.airborne")
local stacking = require("france1940.stacking")
local reserves = require("france1940.reserves")
local strategy = require("france1940.strategy")

local fields = {}          -- memo: key (sorted objective labels) -> {label = distance}

-- The land hexes of the map, a set (map data, read once per game).
local land_hexes = nil
local function land()
  if land_hexes then return land_hexes end
  land_hexes = {}
  for _, label in ipairs(hex.map.hexes()) do
    if hex.map.terrain(label) ~= "sea" then land_hexes[label] = true end
  end
  return land_hexes
end

-- The land steps from every hex to the nearest of `list` (hexes no target can be reached from
-- are left out): the engine's step field (hex.path.steps, the one hex.path.toward ranks by),
-- kept per set of targets.
local LAND_ONLY = { impassable = { "sea" } }
local function field(list)
  local targets = table.move(list, 1, #list, 1, {})
  table.sort(targets)
  local key = table.concat(targets, ",")
  if fields[key] then return fields[key] end
  local dist = hex.path.steps(targets, LAND_ONLY)
  local count = 0
  for _ in pairs(fields) do count = count + 1 end
  if count > 64 then fields = {} end
  fields[key] = dist
  return dist
end

local OBJECTIVE_COUNTRIES = { "netherlands", "belgium", "france" }

-- The major cities of the objective countries, in the order the bot examines them (map data).
local objective_cities = nil
local function cities()
  if not objective_cities then
    objective_cities = {}
    for _, c in ipairs(OBJECTIVE_COUNTRIES) do
      for _, l in ipairs(supply.major_cities(c)) do objective_cities[#objective_cities + 1] = l end
    end
  end
  return objective_cities
end

-- Unit facts that never change while a unit is in play (nation, type, size, MA, movement
-- class and so the key of its supply filter, class/nation: no F40 event alters them; a unit
-- back from a pool comes back with the same record), kept per id and refreshed from
-- hex.units.brief whenever an id is new to the bot.
local facts = {}
local function learn()
  for _, b in ipairs(hex.units.brief(nil, { off_map = true })) do
    local class = b.class or common.CLASS_BY_TYPE[b.type] or "foot"
    facts[b.id] = { id = b.id, nation = b.nation, type = b.type, size = b.size, ma = b.ma,
      strength = b.strength, class = class, supply_key = class .. "/" .. tostring(b.nation) }
  end
end

-- (a variant may change a counter, `UnitChanged`: its facts are learnt again, or the bot would
-- plan that unit's moves with its old MA; its moves stay legal either way, each checked by
-- hex.path.path_to with common.budget, but a stale plan costs a fallback to the legal list)
hex.events.on("UnitChanged", function(ev) facts[ev.unit] = nil end)

-- The fixed facts of unit `id` (learnt when new to the bot).
local function fact(id)
  local f = facts[id]
  if not f then learn(); f = facts[id] end
  return f
end

-- For each hex, the list of objective cities within `THREAT` of it (map data, built once): the hexes
-- THREAT steps away on the grid of every hex (sea included, as hex.map.distance counts them).
local THREAT = 4
local threatened_from = nil
local function threatened_cities()
  if threatened_from then return threatened_from end
  threatened_from = {}
  for _, city in ipairs(cities()) do
    local list = common.within({ city }, THREAT)
    for _, h in ipairs(list) do
      local near = threatened_from[h] or {}
      near[#near + 1] = city
      threatened_from[h] = near
    end
  end
  return threatened_from
end

-- The Dutch major cities (map data), a set.
local dutch_cities = nil
local function dutch_set()
  if not dutch_cities then
    dutch_cities = {}
    for _, l in ipairs(supply.major_cities("netherlands")) do dutch_cities[l] = true end
  end
  return dutch_cities
end

-- Until the Netherlands surrender (F40-16.3: German units standing in two Dutch major cities at
-- the end of an Allied player-turn), what the German side reads of the Dutch major cities, or
-- nil once they have surrendered: `held`, the set of those where German units with a combat
-- strength stand (a para regiment alone has none: 11.3) and no enemy unit; `stays`, the set of
-- the ids of the German units standing in any of them (they stay there); `enemy`, the set of
-- those with an enemy unit.
local function dutch_position()
  if politics.status("netherlands") == "surrendered" then return nil end
  local held, stays, enemy = {}, {}, {}
  for _, l in ipairs(supply.major_cities("netherlands")) do
    local strength, other = 0, false
    for _, u in ipairs(hex.units.at(l)) do
      if u.side == "german" then
        strength = strength + (u.strength or 0)
        stays[u.id] = true
      else
        other = true
      end
    end
    if other then enemy[l] = true elseif strength > 0 then held[l] = true end
  end
  return { held = held, stays = stays, enemy = enemy }
end

-- For each Dutch major city, the hexes a German unit may attack it from (map data, built
-- once): its land neighbours, save across a lake hexside or a sea hexside without causeway (C.3).
local dutch_approaches = nil
local function approaches()
  if dutch_approaches then return dutch_approaches end
  local is_land = land()
  dutch_approaches = {}
  for _, city in ipairs(supply.major_cities("netherlands")) do
    local list = {}
    for _, n in ipairs(common.neighbors(city)) do
      local across = {}
      for _, f in ipairs(common.hexside(city, n)) do across[f] = true end
      if is_land[n] and not across.lake and (not across.sea or across.causeway) then list[#list + 1] = n end
    end
    dutch_approaches[city] = list
  end
  return dutch_approaches
end

-- What the German units near the Netherlands head for (`nl`: dutch_position(); `units_at`: the
-- set of hexes holding any unit): `cities`, the Dutch major cities they do not hold, in map
-- order; `free`, those of them no enemy unit stands in (to be entered); `posts`, the empty hexes
-- next to them from which they may be attacked. The posts are targets of their own because a
-- step field to the cities stops a unit two steps away whose only nearer hexes are full or
-- enemy-held, or which it may not enter from an enemy ZOC (F40-5.2, 6.4): toward an empty post
-- it goes round. `posted`, the set of the posts of those cities (empty or not), says which units
-- stand ready to attack already.
local function dutch_targets(nl, units_at)
  local cities, free, posts, posted = {}, {}, {}, {}
  local from = approaches()
  for _, l in ipairs(supply.major_cities("netherlands")) do
    if not nl.held[l] then
      cities[#cities + 1] = l
      if not nl.enemy[l] then free[#free + 1] = l end
      for _, h in ipairs(from[l]) do
        if not posted[h] then
          posted[h] = true
          if not units_at[h] then posts[#posts + 1] = h end
        end
      end
    end
  end
  return { cities = cities, free = free, posts = posts, posted = posted }
end

-- How far (land steps) from those cities a German unit heads for them alone: foot units from
-- the whole right wing (the infantry of the 18th and 6th Armies starts 6 to 9 steps from The
-- Hague and Rotterdam), motorized ones only when already close (they may not enter marsh,
-- below). The surrenders this gives, by radius: docs/france1940.md, "Bots".
local DUTCH_FRONT = 10
local DUTCH_FRONT_MOTORIZED = 3

local function objectives(side, nl)
  local out = {}
  if side == "german" then
    local dutch = dutch_set()
    for _, l in ipairs(cities()) do
      if nl and dutch[l] then
        if not nl.held[l] then out[#out + 1] = l end
      elseif hex.state.control(l) ~= "german" then
        out[#out + 1] = l
      end
    end
    return out
  end
  -- The hexes of the German units on the map, in id order (one flat list, no unit views).
  local germans, threatened = {}, {}
  local from = threatened_cities()
  local ats = hex.units.list("at", "german")
  for k = 1, #ats do
    local at = ats[k]
    if at then
      germans[#germans + 1] = at
      local near = from[at]
      if near then
        for k = 1, #near do threatened[near[k]] = true end
      end
    end
  end
  for _, l in ipairs(cities()) do
    local ctl = hex.state.control(l)
    if ctl == "german" or (ctl == "allied" and threatened[l]) then out[#out + 1] = l end
  end
  if #out == 0 then return germans end
  return out
end

-- The supply sources of a unit of `side` and `nation` (what the bot keeps its units within):
-- the rules' own (supply.sources_for), so a variant's sources are the bot's too. Read again
-- each turn (a variant may make supply.sources follow the position; each phase would cost 1%
-- of a game), as is toward's supply filter for a unit of `side`, `class` and `nation`.
local source_sets, sources_of, supply_asks, sources_turn = nil, {}, {}, nil
hex.events.on("PhaseStarted", function(ev)
  if ev.turn ~= sources_turn then
    source_sets, sources_of, supply_asks, sources_turn = nil, {}, {}, ev.turn
  end
end)
local function supply_sources(side, nation)
  local key = side .. "/" .. tostring(nation)
  local list = sources_of[key]
  if not list then
    source_sets = source_sets or supply.sources()
    list = supply.sources_for(side, nation, source_sets)
    sources_of[key] = list
  end
  return list
end

local function supply_ask(side, class, nation)
  local key = side .. "/" .. class .. "/" .. nation
  local ask = supply_asks[key]
  if not ask then
    ask = { side = side, class = class, sources = supply_sources(side, nation) }
    supply_asks[key] = ask
  end
  return ask
end

local function supplied_set(side, u, cache)
  local class = common.class_of(u)
  local key = class .. "/" .. (u.nation or "")
  if cache[key] then return cache[key] end
  local set = {}
  local hexes = hex.path.supplied_hexes(side, class, supply_sources(side, u.nation))
  for k = 1, #hexes do set[hexes[k]] = true end
  cache[key] = set
  return set
end

-- The best of `list` by `score(cmd)` (nil scores are skipped; ties keep the first).
local function best_of(list, score)
  local best, best_score = nil, nil
  for _, cmd in ipairs(list) do
    local sc = score(cmd)
    if sc and (not best_score or sc > best_score) then best, best_score = cmd, sc end
  end
  return best
end

-- (strategy.avoided_countries: Switzerland in the game as written)
local function enters_avoided(path)
  local avoided = strategy.avoided_countries
  for _, l in ipairs(path) do
    local c = politics.country_of(l)
    if c and avoided[c] then return true end
  end
  return false
end

-- For an airborne unit, what its drop hexes depend on besides its side: its class and nation
-- (airborne.cities); false for any other unit. Attributes never change: kept per unit id.
local airborne_kind = {}
local function drop_kind(id)
  local known = airborne_kind[id]
  if known == nil then
    local u = hex.units.get(id)
    known = u ~= nil and airborne.is_airborne(u) and (common.class_of(u) .. "/" .. tostring(u.nation))
    airborne_kind[id] = known
  end
  return known
end

-- Among the commands of `cmds` (in listing order) that pass both `legal` and `ok`, the first one
-- with the highest `score(cmd)` (nil scores are skipped), or nil. The commands are examined
-- highest score first, ties in listing order, so `legal` and `ok` are asked only of the ones
-- examined, not of the whole listing. Also returns whether any command of `cmds` passes `legal`
-- (asked of the others only when none is picked).
local function best_listed(cmds, score, legal, ok)
  local by_score, scores = {}, {}
  for i, cmd in ipairs(cmds) do
    local sc = score(cmd)
    if sc then
      local same = by_score[sc]
      if not same then
        same = {}
        by_score[sc] = same
        scores[#scores + 1] = sc
      end
      same[#same + 1] = i
    end
  end
  table.sort(scores, function(a, b) return a > b end)
  local known = {}
  for _, sc in ipairs(scores) do
    for _, i in ipairs(by_score[sc]) do
      local cmd = cmds[i]
      local is_legal = legal(cmd)
      known[i] = is_legal
      if is_legal and ok(cmd) then return cmd, true end
    end
  end
  for i, cmd in ipairs(cmds) do
    local is_legal = known[i]
    if is_legal == nil then is_legal = legal(cmd) end
    if is_legal then return nil, true end
  end
  return nil, false
end

-- The drop nearest the objectives into a hex with no enemy unit (the first such in the `drop`
-- listing), or nil. Only airborne units off the map drop (F40-11.1), so without one nothing is
-- asked. The drop hexes depend on the unit only through its side, class and nation (the
-- supplied cities it flies from, airborne.cities): when every such unit shares them, the first
-- unit with any drop has the best one, and only that unit's drops are examined. The listing's
-- own checks (airborne.drop_hexes, then restrictions.one_hex_checker, as the `drop` listing
-- makes them) are applied best hex first (best_listed), so a decision checks a few hexes
-- instead of the hundreds within range: the same command as the best of the whole listing.
local function drop_choice(side, near)
  local on_map, waiting = {}, {}
  for _, id in ipairs(hex.units.ids(side, { on_map = true })) do on_map[id] = true end
  for _, id in ipairs(hex.units.ids(side)) do
    if not on_map[id] and drop_kind(id) then waiting[#waiting + 1] = id end
  end
  if #waiting == 0 or airborne.phase_refusal(side) then return nil end
  local empty = function(cmd) return #common.enemies_at(cmd.to, side) == 0 end
  local enters = restrictions.one_hex_checker(side)
  local views, cities_by_kind = {}, {}
  local legal = function(cmd) return enters(views[cmd.unit], cmd.to) end
  -- (unit `id`'s drops as the listing gives them, before the restrictions)
  local function drops(id, out)
    local u = hex.units.get(id)
    views[id] = u
    for _, to in ipairs(airborne.drop_hexes(u, side, cities_by_kind)) do
      out[#out + 1] = { command = "drop", unit = id, to = to }
    end
    return out
  end
  local kinds = {}
  for _, id in ipairs(waiting) do kinds[drop_kind(id)] = true end
  if next(kinds, next(kinds)) == nil then
    for _, id in ipairs(waiting) do
      local choice, listed = best_listed(drops(id, {}), near, legal, empty)
      if listed then return choice end
    end
    return nil
  end
  local all = {}
  for _, id in ipairs(waiting) do drops(id, all) end
  return (best_listed(all, near, legal, empty))
end

-- The `place` command best_of(the `place` list, near) gives (`near_to`: near's score of a hex), from the listing's groups
-- (reserves.place_options, the same placements in the same order): the first placement with
-- the highest score. A group's hexes are one table shared by its units, ranked once.
local function place_choice(side, near_to)
  local best, best_score, ranked = nil, nil, {}
  for _, option in ipairs(reserves.place_options(side)) do
    local hexes = option.hexes
    local top = ranked[hexes]
    if not top then
      top = {}
      for _, to in ipairs(hexes) do
        local sc = near_to(to)
        -- German reserves go to the major cities first (their rail hubs toward the whole
        -- front), the towns 17.4 also opens only when those are taken: towns first drew every
        -- reserve to the towns nearest the southern objectives (100 games: the German win rate
        -- fell from 74% to 66%).
        if side == "german" and supply.is_major_city("germany", to) then sc = sc + 100 end
        if not top.score or sc > top.score then top.to, top.score = to, sc end
      end
      ranked[hexes] = top
    end
    if top.score and (not best_score or top.score > best_score) then
      best, best_score = { command = "place", unit = option.unit, to = top.to }, top.score
    end
  end
  return best
end

-- Whether `u` (Dutch or Swiss, not freed, in its home country) is kept home by 16.3 / 16.6 when
-- entering `label`: restrictions.hex_refusal would refuse it. `german_inside` is asked once
-- per decision (it lists the German units).
local function kept_home(u, label, home_locked)
  local home = politics.home_bound(u)
  if not home or politics.country_of(label) == home then return false end
  if home_locked[home] == nil then home_locked[home] = politics.german_inside(home) end
  return home_locked[home]
end

-- The stacking limits (5.2, 5.3) as hex.path.toward's `capacity`: a hex holds at most LIMIT
-- division-equivalents of a side, ARMORED_LIMIT of them armored (as restrictions.fits counts).
-- Made again when a variant has changed the limits since (read at each decision).
local CAPACITY = nil
local function capacity()
  if not CAPACITY or CAPACITY[1].limit ~= stacking.LIMIT or CAPACITY[2].limit ~= stacking.ARMORED_LIMIT then
    CAPACITY = {
      { limit = stacking.LIMIT, by_size = common.EQUIVALENTS },
      { limit = stacking.ARMORED_LIMIT, by_size = common.EQUIVALENTS, types = { "armored" } },
    }
  end
  return CAPACITY
end

-- How many units one hex.path.toward call answers at most: the bot takes the first acceptable
-- one, and asks again (from the next rank) only when none is. With stacking left to the engine
-- the first answer is nearly always taken (French units held to their zone on turn 1 are the
-- exception), and every call reads the unit list again: two measured fastest.
local TOWARD_LIMIT = 2

-- hex.path.toward's unit entries, one table per unit id reused by every decision (scratch: each
-- decision sets every field it passes).
local entries = {}

local function movement_choice(side)
  local nl = side == "german" and dutch_position() or nil
  local targets = objectives(side, nl)
  -- German units standing in a Dutch major city stay there until the Netherlands surrender.
  local stays = nl and nl.stays or {}
  -- The Lua field is needed only to rank placements, drops and a refused path's alternatives:
  -- worked out on first use.
  local dist = nil
  local function distances()
    dist = dist or field(targets)
    return dist
  end
  local function near_to(label) return 1000 - ((dist or distances())[label] or 99) end
  local near = function(cmd) return near_to(cmd.to) end
  -- Placements, drops and evacuations come before any move: once a unit of the side has moved
  -- this phase (a status, so this holds for a continued save too), they are done.
  local started = hex.units.ids(side, { with = { "moved" }, limit = 1 })[1]
    or hex.units.ids(side, { with = { "railed" }, limit = 1 })[1]
  local place = not started and place_choice(side, near_to)
  if place then return place end
  local drop = not started and drop_choice(side, near)
  if drop then return drop end
  if side == "allied" and not started then
    for _, id in ipairs(hex.units.ids(side, { on_map = true, with = { "isolated" } })) do
      local evacuate = hex.commands.legal(side, { command = "evacuate", unit = id })[1]
      if evacuate then return evacuate end
    end
  end
  -- Units that may still move, in id order (the engine examines them nearest the objectives
  -- first, ties by id).
  local cannot, isolated = {}, {}
  local dropped = hex.units.ids(side, { on_map = true, with = { "dropped" } })
  for k = 1, #dropped do
    local id = dropped[k]
    if movement.cannot_move(hex.units.get(id), side) then cannot[id] = true end   -- F40-11.4
  end
  for _, id in ipairs(hex.units.ids(side, { on_map = true, with = { "isolated" } })) do isolated[id] = true end
  -- Each unit keeps to hexes where a unit of its class is supplied: one supply field per class
  -- and nation, traced by the engine inside hex.path.toward. The engine ranks each unit's
  -- reachable hexes by the same field as `dist`, nearest units first, and stops after
  -- TOWARD_LIMIT units that can get closer (most decisions end with the first of them).
  -- Budgets as common.budget gives them, its phase-wide factors read once.
  local halved = common.assault() == 2
  local first_turn = hex.state.turn() == 1
  local replaced_budget = common.budget_replaced()
  local units, asks = {}, {}
  local movable = hex.units.ids(side, { on_map = true, without = { "moved", "railed", common.NEUTRAL } })
  for k = 1, #movable do
    local id = movable[k]
    local b = facts[id] or fact(id)
    -- (F40-11.3: para regiments have no movement factor, whatever MA a setup gave them)
    if b.size == "III" and b.type == "airborne" and movement.cannot_move(hex.units.get(id), side) then
      cannot[id] = true
    end
    if not cannot[id] and not stays[id] then
      local key = b.supply_key
      if not asks[key] then asks[key] = supply_ask(side, b.class, b.nation) end
      local mp = b.ma or 0
      if replaced_budget then
        mp = common.budget(hex.units.get(id))                                          -- a variant's
      else
        if halved then mp = mp / 2 end                                                 -- F40-9.1
        if isolated[id] then mp = mp / 2 end                                           -- F40-8.3
        if first_turn and common.NEUTRAL_NATIONS[b.nation] then mp = mp / 2 end        -- F40-18.2
      end
      local entry = entries[id]
      if not entry then entry = { id = id }; entries[id] = entry end
      entry.supply, entry.budget = key, mp
      units[#units + 1] = entry
    end
  end
  local supplied, home_locked = {}, {}
  -- Stacking (5.2, 5.3, as restrictions.fits counts it) is declared to the engine: it offers
  -- only the hexes where the unit's division-equivalents (and armored ones) still fit.
  local opts = { impassable = { "sea" }, supplied = asks, limit = TOWARD_LIMIT, first = 1,
    nearest_first = true, capacity = capacity() }
  -- The first move of `units` toward `goals` (`dists`: their Lua field, on first use), or nil.
  local function advance(goals, group, dists)
    opts.first = 1
    while opts.first <= #group do
      local batch = hex.path.toward(goals, group, opts)
      for b = 1, #batch do
        local r = batch[b]
        local u = hex.units.get(r.id)
        local wanted = nil
        local closer = r.closer
        for k = 1, #closer do
          local label = closer[k]
          local c = politics.country_of(label)
          if not (c and strategy.avoided_countries[c]) and not kept_home(u, label, home_locked) and not restrictions.hex_refusal(u, label) then
            wanted = label
            break
          end
        end
        if wanted then
          local before = r.from
          -- The move the legal list would give for that hex: the engine's path, checked against
          -- the political restrictions along the way (restrictions.lua) and Switzerland.
          local path = hex.path.path_to(u.id, common.budget(u), wanted)
          if path and not enters_avoided(path) and not restrictions.path_refusal(u, path) then
            return { command = "move", unit = u.id, path = path }
          end
          local legal = hex.commands.legal(side, { command = "move", unit = u.id })
          local set = supplied_set(side, u, supplied)
          -- The listed path to that hex is refused: the best other listed move.
          local move = best_of(legal, function(cmd)
            local to = cmd.path[#cmd.path]
            local after = dists()[to] or 99
            if after < before and set[to] and not enters_avoided(cmd.path) then
              return 100 + (before - after) * 10 - after
            end
          end)
          if move then return move end
        end
      end
      if #batch < TOWARD_LIMIT then break end
      opts.first = batch[#batch].rank + 1
    end
    return nil
  end
  -- Until the Netherlands surrender, the German units within DUTCH_FRONT land steps of the Dutch
  -- cities they do not hold (dutch_targets) are examined first, toward those cities alone:
  -- into a free one, else to the posts around them; the others after them, toward all the
  -- objectives. Only then are unit positions read (two flat lists, `at` and `id`).
  if nl then
    local at = hex.units.list("at")
    local units_at, at_of = {}, {}
    for k = 1, #at do
      local l = at[k]
      if l then units_at[l] = true end
    end
    local dutch = dutch_targets(nl, units_at)
    if #dutch.cities > 0 then
      local city_dist = field(dutch.cities)
      local ids = hex.units.list("id")
      for i = 1, #ids do at_of[ids[i]] = at[i] end
      -- Motorized units may not enter marsh (F40-9.2), and every way into Fortress Holland
      -- crosses marsh: only those already close (they hold the dry hexes south of the rivers
      -- and their ZOC keeps the lines open) are of the front.
      local front, rest = {}, {}
      for k = 1, #units do
        local entry = units[k]
        local d = city_dist[at_of[entry.id]]
        if d and d <= (fact(entry.id).class == "motorized" and DUTCH_FRONT_MOTORIZED or DUTCH_FRONT) then
          front[#front + 1] = entry
        else
          rest[#rest + 1] = entry
        end
      end
      if #front > 0 then
        -- First into a free city; then, the units not at a post yet toward an empty post.
        if #dutch.free > 0 then
          local move = advance(dutch.free, front, function() return field(dutch.free) end)
          if move then return move end
        end
        local waiting = {}
        for _, entry in ipairs(front) do
          if not dutch.posted[at_of[entry.id]] then waiting[#waiting + 1] = entry end
        end
        if #dutch.posts > 0 and #waiting > 0 then
          local move = advance(dutch.posts, waiting, function() return field(dutch.posts) end)
          if move then return move end
        end
        units = rest
      end
    end
  end
  return advance(targets, units, distances)
end

-- The attack at the best odds, at 2:1 or better - 1:1 or better on a Dutch major city until the
-- Netherlands surrender (German) - (ties: the larger attack, then the first listed).
-- combat.attack_options is the `attack` list hex.commands.legal gives, in the same order, each
-- with the odds the listing worked out already: no attack is judged twice. Until the
-- Netherlands surrender, German units standing in a Dutch major city take no part: an AR or EX
-- would take them out of the city that counts for F40-16.3 (a unit that cannot retreat is
-- eliminated, C.7). The attack is then given without them (C.1 accepts any eligible subset)
-- and judged again by combat.odds.
-- The rank of an odds threshold of the strategy table (`"2:1"`), or an error naming a value
-- that is no column (combat.strategy_rank; also checked as the game starts).
local function threshold_rank(key)
  return combat.strategy_rank(key)
end

local function combat_choice(side)
  local nl = side == "german" and dutch_position() or nil
  local dutch = nl and dutch_set() or {}
  local stays = nl and nl.stays or {}
  local best = best_of(combat.attack_options(side), function(option)
    local o = option.odds
    if next(stays) then
      local kept = {}
      for _, id in ipairs(option.cmd.units) do
        if not stays[id] then kept[#kept + 1] = id end
      end
      if #kept == 0 then return nil end
      if #kept < #option.cmd.units then
        local views = {}
        for i, id in ipairs(kept) do views[i] = hex.units.get(id) end
        o = combat.odds(views, option.cmd.hex, side)
        if not o.odds then return nil end
        option.cmd = { command = "attack", hex = option.cmd.hex, units = kept }
      end
    end
    -- (ranks read from combat.COLUMNS now, thresholds from strategy: a variant's count)
    local rank = combat.column_rank(o.odds) or 0
    if rank >= threshold_rank("attack_at")
        or (dutch[option.cmd.hex] and rank >= threshold_rank("attack_dutch_at")) then
      return 800 + rank * 10 + o.attack / 100
    end
  end)
  return best and best.cmd
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
