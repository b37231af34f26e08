-- france1940/reserves: reserves and reinforcements (F40-17.1 .. 17.7).
--
-- Pools: units with attrs.pool = german_reserve | allied_reserve | armee_des_alpes |
-- swiss_reserve | reinforcement start off the map; at GameStarted they are taken out of play
-- (UnitRemoved reason "pool": not eliminated) so that entering play is a UnitPlaced. (Airborne
-- units, pool "airborne", stay off the map for airborne.lua.)
--
-- Command {command = "place", unit = ID, to = HEX}:
--   17.3 in the owner's movement phase of its first assault [interpretation: at any time in that
--        phase; placed units may move and fight in that assault, 17.1]; at most one reserve per
--        hex per turn (variable `placed` = {hex = true}, cleared when that phase starts); the hex
--        holds no unit of another side.
--   17.4 german_reserve: from turn 3, 2 per turn, a city hex of Germany (major city or town:
--        "ville allemande", where the text says "grandes villes" for major cities, and as R13
--        reads the Swiss "villes") controlled by the Germans and not in Allied ZOC.
--   17.5 allied_reserve: from turn 2, 3 per turn, an assembly point (zone `assembly_points`)
--        neither in German ZOC nor German-controlled, a Paris hex (`city_paris`), or a
--        west-edge or south-edge hex of France (the text puts the ZOC and control condition on
--        the assembly points only).
--   17.6 armee_des_alpes: from the Allied player-turn of a German invasion of Switzerland on,
--        in addition to the 3 (not counted), in any French hex adjacent to Switzerland; or,
--        once no allied_reserve unit is left in the pool, as a normal reserve (counted, 17.5
--        hexes).
--   17.7 swiss_reserve: from the invasion of Switzerland, 1 per turn, an Allied-controlled Swiss
--        city (major city or town, R13) or a south- or east-edge hex of Switzerland (whoever
--        controls it). The unit enters on the Allied side.
--   17.2 reinforcement: from attrs.arrives_turn on, any port hex controlled by the Allies; not
--        a reserve (no quota, not subject to one per hex).
-- Counts this turn: variable `reserves_used` = {german = n, allied = n, swiss = n}, cleared
-- with `placed`.
-- Events: UnitPlaced {unit = {..., at = HEX}}, VarSet placed / reserves_used.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")
local spelling = require("lib.spelling")
local supply = require("france1940.supply")
local politics = require("france1940.politics")

local reserves = {}

reserves.POOLS = { german_reserve = true, allied_reserve = true, armee_des_alpes = true,
  swiss_reserve = true, reinforcement = true }
reserves.QUOTA = { german = 2, allied = 3, swiss = 1 }
reserves.FROM_TURN = { german = 3, allied = 2 }

-- The facts of the position the checks read, each asked of the host at most once per facts
-- table. The state does not change during one call into Lua: a legal list builds one for all
-- its hexes, a single check a fresh one. `listed`: pool_units() when the caller has it.
local function new_facts(listed)
  return { listed = listed, control = {}, zoc = {} }
end

local function f_turn(f)
  f.turn = f.turn or hex.state.turn()
  return f.turn
end

local function f_used(f, key)
  f.used = f.used or hex.state.get("reserves_used") or {}
  return f.used[key] or 0
end

local function f_control(f, label)
  local c = f.control[label]
  if c == nil then
    c = hex.state.control(label) or false
    f.control[label] = c
  end
  return c or nil
end

local function zoc_of(f, label, side)
  local sides = f.zoc[label]
  if not sides then
    sides = hex.path.zoc(label) or {}
    f.zoc[label] = sides
  end
  for _, s in ipairs(sides) do
    if s == side then return true end
  end
  return false
end

local function f_swiss_invaded(f)
  if f.swiss_invaded == nil then f.swiss_invaded = politics.invaded("switzerland") end
  return f.swiss_invaded
end

-- Whether a hex lies in one of the zones `names`, as a function of the hex (map data: each
-- answer kept, since the listings ask it of every candidate hex again and again).
local function in_any_zone(names)
  return common.memo(function(label)
    local zones = common.zones_of(label)
    for i = 1, #zones do
      for k = 1, #names do if zones[i] == names[k] then return true end end
    end
    return false
  end)
end
-- The map edges where reserves enter (17.5, 17.7).
local west_or_south_edge = in_any_zone({ "west_edge", "south_edge" })
local south_or_east_edge = in_any_zone({ "south_edge", "east_edge" })

-- Whether pool unit `g` is one `side` may place: its own, or a neutral country's (16.2).
local function own_pool_unit(g, side)
  return g.side == side or g.side == common.NEUTRAL
end

local function pool_units()
  return hex.units.gone_for("pool")
end

local function allied_pool_empty(pool)
  for _, g in ipairs(pool or pool_units()) do
    if g.attrs.pool == "allied_reserve" then return false end
  end
  return true
end

local function f_pool_empty(f)
  if f.pool_empty == nil then f.pool_empty = allied_pool_empty(f.listed) end
  return f.pool_empty
end

local function used(key)
  return hex.state.get("reserves_used", key) or 0
end

-- Hexes of 17.5: "les trois points de rassemblement ..., tant que ces points ne sont pas en ZdC
-- allemande ni contrôlés par le joueur Allemand" -- the condition is the assembly points' only;
-- "un hex de Paris, ou bien entrer par le bord ouest ou sud de la carte" asks none (a hex holding
-- a unit of another side, but for enemy para regiments, is refused to every placement,
-- reserves.refusal).
local function allied_hex(f, label)
  if common.in_zone(label, "assembly_points") then
    return f_control(f, label) ~= "german" and not zoc_of(f, label, "german")
  end
  if common.in_zone(label, "city_paris") then return true end
  return politics.country_of(label) == "france" and west_or_south_edge(label)
end

-- 17.6: a French hex next to Switzerland ("dans tout hex de France adjacent à la frontière
-- suisse"), whoever controls it.
local function alpine_geo(label)
  if politics.country_of(label) ~= "france" then return false end
  for _, n in ipairs(common.neighbors(label)) do
    if politics.country_of(n) == "switzerland" then return true end
  end
  return false
end


-- reserves.check against a facts table.
-- A German city (17.4): a major-city or town hex of Germany.
local function german_city(label)
  return supply.is_major_city("germany", label)
    or (politics.country_of(label) == "germany" and common.has_feature(label, "town"))
end

-- "2 German reserves per turn": the quota of reserves.QUOTA[key] as a variant left it.
local function per_turn(key, who)
  local n = reserves.QUOTA[key]
  return common.mp_str(n) .. " " .. who .. " reserve" .. (n == 1 and "" or "s") .. " per turn"
end

local function check_in(f, g, side, to)
  local pool = g.attrs.pool
  local turn = f_turn(f)
  if pool == "reinforcement" then
    if side ~= "allied" then return nil, "F40-17.2", g.id .. " is an Allied reinforcement" end
    local arrives = g.attrs.arrives_turn or 1
    if turn < arrives then return nil, "F40-17.2", string.format("%s arrives on turn %d", g.id, arrives) end
    if not common.has_feature(to, "port") then
      return nil, "F40-17.2", g.id .. " enters at a port controlled by the Allies (" .. to .. " is no port)"
    end
    if f_control(f, to) ~= "allied" then
      return nil, "F40-17.2", g.id .. " enters at a port controlled by the Allies (" .. to .. " is not controlled by them)"
    end
    -- (an Allied unit's ZOC may control a port of a still-neutral country, R11; entering it is
    -- entering that country all the same)
    local country = politics.country_of(to)
    if politics.is_neutral(country) then
      return nil, "F40-16.1", string.format("%s may not enter %s (%s is neutral)", g.id, to, country)
    end
    return "none"
  end
  if pool == "german_reserve" then
    if side ~= "german" then return nil, "F40-17.4", g.id .. " is a German reserve" end
    -- (the texts read the tables at each call: a variant changes them)
    if turn < reserves.FROM_TURN.german then
      return nil, "F40-17.4", "German reserves enter from turn " .. common.mp_str(reserves.FROM_TURN.german)
    end
    if f_used(f, "german") >= reserves.QUOTA.german then
      return nil, "F40-17.4", per_turn("german", "German")
    end
    if not german_city(to) or f_control(f, to) ~= "german" then
      return nil, "F40-17.4", to .. " is not a German-controlled German city"
    end
    if zoc_of(f, to, "allied") then return nil, "F40-17.4", to .. " is in Allied ZOC" end
    return "german"
  end
  if pool == "swiss_reserve" then
    if side ~= "allied" then return nil, "F40-17.7", g.id .. " is a Swiss reserve" end
    if not f_swiss_invaded(f) then return nil, "F40-17.7", "Swiss reserves enter after an invasion of Switzerland" end
    if f_used(f, "swiss") >= reserves.QUOTA.swiss then
      return nil, "F40-17.7", per_turn("swiss", "Swiss")
    end
    -- "toute ville suisse contrôlée par le joueur Allié, ou par le bord sud ou est de la carte
    -- en Suisse": Allied control is asked of the cities only.
    local city = common.terrain(to) == "major_city" or common.has_feature(to, "town")
    local ok = politics.country_of(to) == "switzerland"
      and ((city and f_control(f, to) == "allied") or south_or_east_edge(to))
    if not ok then return nil, "F40-17.7", to .. " is not an Allied-controlled Swiss city or south/east edge hex of Switzerland" end
    return "swiss"
  end
  -- allied_reserve, armee_des_alpes
  if side ~= "allied" then return nil, "F40-17.5", g.id .. " is an Allied reserve" end
  if pool == "armee_des_alpes" and f_swiss_invaded(f) and alpine_geo(to) then   -- whoever controls it
    return "none"                                                                 -- 17.6
  end
  if pool == "armee_des_alpes" and not f_pool_empty(f) then
    return nil, "F40-17.6", g.id .. " enters next to Switzerland after its invasion, or once every other Allied reserve has entered"
  end
  if turn < reserves.FROM_TURN.allied then
    return nil, "F40-17.5", "Allied reserves enter from turn " .. common.mp_str(reserves.FROM_TURN.allied)
  end
  if f_used(f, "allied") >= reserves.QUOTA.allied then
    return nil, "F40-17.5", per_turn("allied", "Allied")
  end
  if not allied_hex(f, to) then
    return nil, "F40-17.5", to .. " is not an assembly point free of German ZOC and control, a Paris hex or a west/south edge hex of France"
  end
  return "allied"
end

-- (quota key or nil, rule, reason): how `g` (a pool unit) may enter at `to`, or why not.
-- `listed` (optional) is pool_units() already listed, for callers that check many hexes.
function reserves.check(g, side, to, listed)
  return check_in(new_facts(listed), g, side, to)
end

-- Whether `g` could enter anywhere now (the conditions of reserves.check that do not depend
-- on the hex), so that the legal list skips the hexes of units that cannot enter at all.
local function may_enter_now(f, g, side)
  local pool = g.attrs.pool
  local turn = f_turn(f)
  if pool == "reinforcement" then return side == "allied" and turn >= (g.attrs.arrives_turn or 1) end
  if pool == "german_reserve" then
    return side == "german" and turn >= reserves.FROM_TURN.german and f_used(f, "german") < reserves.QUOTA.german
  end
  if pool == "swiss_reserve" then
    return side == "allied" and f_swiss_invaded(f) and f_used(f, "swiss") < reserves.QUOTA.swiss
  end
  if side ~= "allied" then return false end
  if pool == "armee_des_alpes" and f_swiss_invaded(f) then return true end
  if pool == "armee_des_alpes" and not f_pool_empty(f) then return false end
  return turn >= reserves.FROM_TURN.allied and f_used(f, "allied") < reserves.QUOTA.allied
end

-- Why nothing of `side`'s pools (or the pool unit `g`, optional) enters now, or nil.
local function phase_refusal(side, g)
  if not common.is_movement_phase() or hex.state.side() ~= side or common.assault() ~= 1 then
    -- (17.2 names no moment: the module's reading gives reinforcements the reserves' one)
    if g and g.attrs.pool == "reinforcement" then
      return "F40-17.2", "reinforcements enter in the owner's first assault (movement phase), "
        .. "as reserves do (17.3; the module's reading: 17.2 names no moment)"
    end
    return "F40-17.3", "reserves are placed in the owner's first assault (movement phase)"
  end
  return nil
end

-- The clause that says where a unit of `g`'s pool enters (an occupied hex is refused by it:
-- another side's unit there makes it no hex the pool's clause names).
local POOL_CLAUSES = {
  reinforcement = "F40-17.2", german_reserve = "F40-17.4", allied_reserve = "F40-17.5",
  armee_des_alpes = "F40-17.6", swiss_reserve = "F40-17.7",
}
local function pool_clause(g)
  return POOL_CLAUSES[g.attrs and g.attrs.pool] or "F40-17.3"
end

-- Whether `label` holds a unit of another side than `side` that a unit entering play there
-- cannot share the hex with: any but an enemy para regiment, whose hex enemies may enter (11.3,
-- R8, as moves and retreats do).
local function closed_to(label, side)
  local enemy = common.enemy_of(side)
  for _, u in ipairs(hex.units.at(label)) do
    if u.side ~= side and not (u.side == enemy and common.para_regiment(u)) then return true end
  end
  return false
end

-- The set of hexes closed_to(label, side): those holding a unit of another side, kept when one
-- of their units is no enemy para regiment. Read from the flat lists: a unit of another side is
-- no enemy para regiment when it is no enemy or no regiment (size III), so only a hex whose
-- other units are all enemy regiments is looked into (a unit view per unit there cost 1 500
-- hex.units.at calls a game).
local function closed_hexes(side)
  local enemy = common.enemy_of(side)
  local sides, sizes = hex.units.list("side"), hex.units.list("size")
  local out, regiments = {}, {}
  local ats = hex.units.list("at")
  for i = 1, #ats do
    local at = ats[i]
    local s = sides[i]
    if at and s ~= side then
      if s ~= enemy or sizes[i] ~= "III" then out[at] = true else regiments[at] = true end
    end
  end
  for label in pairs(regiments) do
    if not out[label] and closed_to(label, side) then out[label] = true end
  end
  return out
end

-- reserves.refusal once the phase is known to allow placements (the legal list checks that
-- once, not per hex). `foreign` (optional): closed_hexes(side), when the caller has built it.
local function refusal_in_phase(f, g, side, to, foreign)
  local rule, reason
  if not g then return nil, "F40-17.3", "no unit of that name waits in a pool" end
  if not hex.map.is_hex(to) then return nil, "F40-17.3", tostring(to) .. " is not a hex of the map" end
  if (foreign and foreign[to]) or (not foreign and closed_to(to, side)) then
    return nil, pool_clause(g), to .. " holds a unit of another side"
  end
  local key
  key, rule, reason = check_in(f, g, side, to)
  if not key then return nil, rule, reason end
  if g.attrs.pool ~= "reinforcement" then f.placed = f.placed or hex.state.get("placed") or {} end
  if g.attrs.pool ~= "reinforcement" and f.placed[to] then
    return nil, "F40-17.3", "one reserve per hex per turn (" .. to .. " has had one)"
  end
  return key
end

-- F40-17.3: reserves come at the start of the first assault, before any unit of the side has
-- moved or gone by rail (as drops do, 11.1); reinforcements (17.2) have no such clause.
local function late_reserve(g, side)
  if g.attrs.pool == "reinforcement" then return nil end
  local moved = common.first_mover(side)
  if moved then
    return "reserves are placed at the start of the first assault, before any movement (" .. moved .. ")"
  end
  return nil
end

function reserves.refusal(g, side, to, listed)
  local rule, reason = phase_refusal(side, g)
  if rule then return nil, rule, reason end
  -- (a unit of the enemy in a pool, as only a hand-made setup can put it, is not this side's to
  -- place: placed, it would change side. A neutral country's units pass to the Allies, 16.2.)
  if g and not own_pool_unit(g, side) then return nil, "F40-17.3", common.not_of_side(g, side) end
  reason = g and late_reserve(g, side)
  if reason then return nil, "F40-17.3", reason end
  return refusal_in_phase(new_facts(listed), g, side, to)
end

local function record(g, side, to)
  local u = { id = g.id, side = side, nation = g.nation, type = g.type, size = g.size,
    ma = g.ma, strength = g.strength, at = to }
  if next(g.attrs or {}) ~= nil then u.attrs = g.attrs end
  return u
end

-- Hexes where a unit of `pool` could ever enter (map data, built once): the legal list only
-- checks these.
local candidates_cache = {}
local function candidates(pool)
  if candidates_cache[pool] then return candidates_cache[pool] end
  local out = {}
  for _, label in ipairs(common.hexes()) do
    local c = politics.country_of(label)
    local ok
    if pool == "german_reserve" then
      ok = german_city(label)
    elseif pool == "reinforcement" then
      ok = common.has_feature(label, "port")
    elseif pool == "swiss_reserve" then
      ok = c == "switzerland"
    else
      ok = common.in_zone(label, "assembly_points") or common.in_zone(label, "city_paris")
        or (c == "france" and west_or_south_edge(label))
        or (pool == "armee_des_alpes" and alpine_geo(label))
    end
    if ok then out[#out + 1] = label end
  end
  candidates_cache[pool] = out
  return out
end

-- Pool unit `id`'s view, or nil (only that unit's view is made: a `place` names one).
local function find(id)
  if type(id) ~= "string" then return nil end
  return hex.units.gone_for("pool", id)[1]
end

-- Why `place` names no unit of a pool, and the clause: the unit is in play already (where; a
-- reinforcement's clause is 17.2), or no unit of a pool has that id (the nearest pool id when
-- one is within two edits: a typo).
local function not_in_pool(id)
  local u = hex.units.get(tostring(id))
  if u then
    return pool_clause(u), u.id .. " waits in no pool: it is in play" .. (u.at and (" at " .. u.at) or "")
  end
  local ids = {}
  for _, g in ipairs(pool_units()) do ids[#ids + 1] = g.id end
  return "F40-17.3", "no unit '" .. tostring(id) .. "' waits in a pool" .. spelling.did_you_mean(id, ids)
end

-- The placements the `place` listing gives, grouped: {unit = ID, hexes = {labels}} per unit
-- that may enter somewhere, in the listing's order (its commands are these units' hexes in
-- turn). Units of one pool group, size and type share one `hexes` table (callers only read
-- it), so a bot ranks each group's hexes once instead of every placement. `only`: that unit's.
function reserves.place_options(side, only)
  if phase_refusal(side) then return {} end
  -- German reserves are the only German pool (17.4): nothing to list outside their turns.
  if side == "german" and (hex.state.turn() < reserves.FROM_TURN.german
      or used("german") >= reserves.QUOTA.german) then
    return {}
  end
  local pool = pool_units()
  if #pool == 0 then return {} end
  local restrictions = require("france1940.restrictions")
  local stacks = nil     -- built when a unit may enter at all
  local out = {}
  -- Whether a hex takes a unit depends on its pool (and arrival turn), not on which unit
  -- of the pool: judged once per listing, per candidate hex. Whether it also fits the
  -- stack there (restrictions.fits, for a unit off the map) depends on the unit's size and
  -- type only (5.2, 5.3): the fitting hexes are kept per group, size and type.
  -- may_enter_now, too, reads the unit's pool and arrival turn only: judged once per group.
  local open_by_group, fitting_by_kind, enters_by_group, foreign = {}, {}, {}, nil
  local facts = new_facts(pool)
  local started = common.first_mover(side) ~= nil -- (then only reinforcements: late_reserve)
  for _, g in ipairs(pool) do
    local attrs = g.attrs
    local group = tostring(attrs.pool) .. "/" .. tostring(attrs.arrives_turn)
    local enters = enters_by_group[group]
    if enters == nil and (not only or only == g.id) then
      local owner = (attrs.pool == "german_reserve") and "german" or "allied"
      enters = owner == side and not (started and attrs.pool ~= "reinforcement")
        and may_enter_now(facts, g, side)
      enters_by_group[group] = enters
    end
    if enters and own_pool_unit(g, side) and (not only or only == g.id) then
      local kind = group .. "/" .. tostring(g.size) .. "/" .. tostring(g.type)
      local fitting = fitting_by_kind[kind]   -- the open hexes it fits, in candidate order
      if not fitting then
        local open = open_by_group[group]     -- the open hexes, in candidate order
        if not open then
          foreign = foreign or closed_hexes(side)
          open = {}
          for _, to in ipairs(candidates(g.attrs.pool)) do
            if refusal_in_phase(facts, g, side, to, foreign) ~= nil then open[#open + 1] = to end
          end
          open_by_group[group] = open
        end
        local probe = record(g, side, nil)
        probe.status = {}
        stacks = stacks or restrictions.stacks(side)
        fitting = {}
        for k = 1, #open do
          local to = open[k]
          if restrictions.fits(probe, to, stacks) then fitting[#fitting + 1] = to end
        end
        fitting_by_kind[kind] = fitting
      end
      if #fitting > 0 then out[#out + 1] = { unit = g.id, hexes = fitting } end
    end
  end
  return out
end

-- A `--setup` position's `[pools]`: `pool = [ids]` keeps exactly those units waiting in that
-- pool; every other unit of the pool entered play before the position (17.x) and has left it
-- since, neither eliminated nor evacuated (reason "entered": it scores nothing). This is how a
-- position says "all other Allied reserves have entered" (17.6). Pools not named stay whole.
-- `given`: the setup's [[unit]] tables, not yet placed when the hook runs (one without `at` of
-- a pool joins that pool; one with `at` is in play). Returns the events, or nil and the reason.
function reserves.setup_pools(pools, given)
  local names = common.sorted_keys(reserves.POOLS)
  if type(pools) ~= "table" then
    return nil, "[pools] must be a table of pool = [unit ids] (pools: " .. table.concat(names, ", ") .. ")"
  end
  local listed, waiting = {}, {}
  for _, u in ipairs(given or {}) do listed[u.id] = u end
  for _, g in ipairs(pool_units()) do
    if not listed[g.id] then waiting[g.id] = g end
  end
  for id, u in pairs(listed) do
    local pool = u.attrs and u.attrs.pool
    if u.at == nil and reserves.POOLS[pool] then waiting[id] = { id = id, attrs = u.attrs, given = true } end
  end
  local out = {}
  for _, pool in ipairs(common.sorted_keys(pools)) do
    local ids = pools[pool]
    if not reserves.POOLS[pool] then
      return nil, "[pools]: '" .. tostring(pool) .. "' is not a pool" .. spelling.did_you_mean(pool, names)
        .. " (pools: " .. table.concat(names, ", ") .. ")"
    end
    local listed_ids = type(ids) == "table"
    for k in pairs(listed_ids and ids or {}) do
      if type(k) ~= "number" then listed_ids = false end
    end
    if not listed_ids then
      return nil, "[pools]." .. pool .. " must be a list of the unit ids still waiting in it"
    end
    local keep, members = {}, {}
    for id, g in pairs(waiting) do
      if g.attrs.pool == pool then members[#members + 1] = id end
    end
    table.sort(members)
    for i, id in ipairs(ids) do
      local g, why = waiting[id], nil
      if keep[id] then
        why = "'" .. id .. "' is listed twice"
      elseif g and g.attrs.pool ~= pool then
        why = "'" .. id .. "' waits in pool " .. g.attrs.pool .. ", not " .. pool
      elseif not g and listed[id] and listed[id].at then
        why = "'" .. id .. "' stands at " .. tostring(listed[id].at) .. " in this setup, in no pool"
      elseif not g and listed[id] then
        local own = listed[id].attrs and listed[id].attrs.pool
        why = "'" .. id .. "' is a [[unit]] of this setup off the map "
          .. (own and ("whose pool '" .. tostring(own) .. "' is none of " .. table.concat(names, ", "))
            or "with no pool (attrs.pool)")
      elseif not g then
        local all = {}
        for other in pairs(waiting) do all[#all + 1] = other end
        table.sort(all)
        why = "no unit '" .. tostring(id) .. "' waits in a pool" .. spelling.did_you_mean(id, all)
      end
      if why then return nil, "[pools]." .. pool .. " #" .. i .. ": " .. why end
      keep[id] = true
    end
    for _, id in ipairs(members) do
      local g = waiting[id]
      if not keep[id] and g.given then
        return nil, "[pools]." .. pool .. ": '" .. id .. "' is a [[unit]] of this setup without `at`, so it "
          .. "waits in " .. pool .. ": list it there, or leave it out of the setup"
      elseif not keep[id] then
        local attrs = {}
        for k, v in pairs(g.attrs) do if k ~= "pool" then attrs[k] = v end end
        out[#out + 1] = { event = "UnitPlaced", unit = { id = g.id, side = g.side, nation = g.nation,
          type = g.type, size = g.size, ma = g.ma, strength = g.strength, attrs = attrs } }
        out[#out + 1] = { event = "UnitRemoved", unit = g.id, reason = "entered" }
      end
    end
  end
  return out
end

function reserves.register()
  hex.events.on("GameStarted", function()
    local out = {}
    for _, u in ipairs(hex.units.all()) do
      local pool = u.attrs and u.attrs.pool
      if not u.at and pool and reserves.POOLS[pool] then
        out[#out + 1] = { event = "UnitRemoved", unit = u.id, reason = "pool" }
      end
    end
    return out
  end, 90)

  -- A pool unit laid down off the map later (a --setup position's units arrive as UnitPlaced
  -- after GameStarted) goes to its pool the same way.
  hex.events.on("UnitPlaced", function(ev)
    local u = ev.unit and hex.units.get(ev.unit.id)
    local pool = u and u.attrs and u.attrs.pool
    if u and not u.at and pool and reserves.POOLS[pool] then
      return { { event = "UnitRemoved", unit = u.id, reason = "pool" } }
    end
  end, 90)

  hex.events.on("AssaultStarted", function(ev)
    if ev.data.assault ~= 1 then return nil end
    local out = {}
    if hex.state.get("placed") ~= nil then out[#out + 1] = hex.state.set("placed", nil) end
    if hex.state.get("reserves_used") ~= nil then out[#out + 1] = hex.state.set("reserves_used", nil) end
    return out
  end)

  hex.commands.define("place", {
    args = { unit = "unit", to = "place" },
    resolve = function(cmd, side)
      local g = find(cmd.unit or "")
      if not g then return hex.refuse(not_in_pool(cmd.unit)) end
      local to = cmd.to or ""
      local key, rule, reason = reserves.refusal(g, side, to)
      if not key then return hex.refuse(rule, reason) end
      local events = { { event = "UnitPlaced", unit = record(g, side, to) } }
      if g.attrs.pool ~= "reinforcement" then
        events[#events + 1] = hex.state.set("placed", common.with(hex.state.get("placed"), to, true))
      end
      if key ~= "none" then
        events[#events + 1] = hex.state.set("reserves_used", common.with(hex.state.get("reserves_used"), key, used(key) + 1))
      end
      return events
    end,
    -- `filter.unit` (hex.commands.legal): only that unit's placements.
    legal = function(side, filter)
      local out, n = {}, 0
      for _, option in ipairs(reserves.place_options(side, filter and filter.unit)) do
        local id, hexes = option.unit, option.hexes
        for i = 1, #hexes do
          out[n + i] = { command = "place", unit = id, to = hexes[i] }
        end
        n = n + #hexes
      end
      return out
    end,
  })
end

return require("lib.spelling").strict("france1940.reserves", reserves)
