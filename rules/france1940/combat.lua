-- france1940/combat: the module's own combat rules (RULES.md: rules 12-15 are not in the seeds;
-- "[interpretation] the F40 module supplies a documented odds-based CRT ... declared as data").
-- Clause ids F40-C.1 .. C.9 are this module's (docs/france1940.md, "Combat").
--
-- Command {command = "attack", hex = TARGET, units = {attacker ids}} in the phasing side's
-- combat phase:
--   C.1 only in the side's own combat phase;
--   C.2 the target hex holds units of the enemy side (units of a still-neutral country are not
--       attacked: a German unit invades by entering, politics.lua);
--   C.3 every attacker is the side's, on the map, adjacent to the target, has not attacked in
--       this combat phase, has a combat strength (para regiments have none, 11.3), is not the
--       22nd Airlanding in its drop assault (11.4), and does not attack across a hexside it could
--       never cross (lake; sea without causeway for German units), unless a drop cancels the
--       target's hexsides (11.5: "the effects of all of that hex's hexsides");
--   C.4 each hex is attacked at most once per combat phase;
--   C.5 odds worse than the first column (1:2) are refused.
-- Strengths: attack = sum of attackers' strengths, each halved when isolated (8.3, no
-- rounding). Defence = sum of defenders' strengths (isolated halved) times the best defence
-- multiplier (combat.DEFENSE: terrain of the hex, its works, and a hexside effect when every
-- attacker attacks across such a hexside, unless 11.5 cancels the target's hexsides), plus one
-- per intrinsic strength point (Maastricht, Eben-Emael; F40-16.3) for Allied defenders.
-- Odds = attack / defence rounded down to a column of combat.CRT (none: 6:1 if defence 0).
-- One d6 (hex.dice.roll) gives the result (C.6):
--   AE all attackers eliminated; AR attackers retreat 1 hex; EX defenders eliminated and the
--   attacker loses units, weakest first, until it has lost at least the defenders' printed
--   strength; DR defenders retreat 2 hexes; DR% as DR, and the hex's fortification and intrinsic
--   strength point are destroyed (variable `destroyed` = {hex = {features}}); DE defenders
--   eliminated.
-- C.7 Retreats are carried out by the rules (no player choice): each step goes to a neighbour
--   one hex farther from the hex left, on land the unit may enter (terrain not prohibited to its
--   class, no lake or sea hexside crossed), free of units of any other side (except a hex
--   holding only enemy para regiments, which enemies may enter: F40-11.3, R8), not in a
--   still-neutral country (16.1), allowed by F40-6.6 (hex.path.may_retreat_into); the last hex
--   must keep the side within the stacking limits. Unit by unit: each retreat is judged on the
--   position the ones before it left, their new hexes held (for the stacking count and for
--   6.6's "a hex that holds a friendly unit"), and every unit of the result gone from its hex
--   from the start, as each leaves it (by retreat, or eliminated for want of a route): a unit
--   about to retreat out of a hex does not hold it for a retreat into it, which would end with
--   the retreated unit alone in enemy ZOC.
--   Among the routes the rules prefer a final hex controlled by the unit's side, then one out of
--   enemy ZOC, then the lowest label. A unit with no route is eliminated; its reason says so
--   with C.7, or, when enemy ZOC alone closes every route, with 6.6 and the hexes it refuses
--   (combat.no_route_reason). Forced retreats ignore 16.3, 16.4, 16.6 and 18.2; a Dutch or
--   Swiss unit that a retreat takes out of its country, and a Belgian unit that a retreat
--   takes into France, get the status `freed` (they operate normally afterwards).
-- C.8 No advance after combat [interpretation: omitted; the next movement phase takes the
--   ground].
-- C.9 Attackers get the status `attacked` and the target is added to the variable
--   `attacked_hexes`; both are cleared when the phase ends.
-- Events: DiceRolled, Custom CombatResolved {hex, attackers, defenders, attack, defense, odds,
-- roll, result}, C.9's marks, then the result's UnitEliminated / UnitMoved (retreats) / VarSet.
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)
local common = require("france1940.common")
local airborne = require("france1940.airborne")
local politics = require("france1940.politics")
local stacking = require("france1940.stacking")
local movement = require("france1940.movement")

local combat = {}

-- Columns: odds at least {a, d} (attack : defence), weakest first.
combat.COLUMNS = { { 1, 2 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 }, { 6, 1 } }
-- The CRT: one row per column, one result per d6 roll (1 .. 6).
combat.CRT = {
  ["1:2"] = { "AE", "AE", "AR", "AR", "EX", "DR" },
  ["1:1"] = { "AE", "AR", "AR", "EX", "DR", "DR" },
  ["2:1"] = { "AR", "AR", "EX", "DR", "DR", "DR%" },
  ["3:1"] = { "AR", "EX", "DR", "DR", "DR%", "DE" },
  ["4:1"] = { "EX", "DR", "DR", "DR%", "DE", "DE" },
  ["5:1"] = { "DR", "DR", "DR%", "DE", "DE", "DE" },
  ["6:1"] = { "DR", "DR%", "DE", "DE", "DE", "DE" },
}
combat.RETREAT = { AR = 1, DR = 2, ["DR%"] = 2 }
-- Defence multipliers; the largest that applies counts (they do not compound).
combat.DEFENSE = {
  terrain = { major_city = 2, mountains = 2, forest = 1.5, wooded_hills = 1.5, marsh = 1.5 },
  features = { fortification = 2, maginot = 3 },
  hexsides = { major_river = 2 },       -- only when every attacker attacks across one
}
-- Works destroyed by DR% (F40-16.3: Maastricht's point is not a fortification but is destroyed).
combat.DESTROYED_BY = { ["DR%"] = { "fortification", "intrinsic_strength" } }

function combat.column_name(c) return c[1] .. ":" .. c[2] end
-- Each column's name, made once per column table and read through `combat.COLUMNS` at every
-- call, so a variant that adds, replaces or edits columns after loading is followed.
local NAMES = {}
local function name_of(c)
  local n = NAMES[c]
  if n and n[1] == c[1] and n[2] == c[2] then return n[3] end
  local name = combat.column_name(c)
  NAMES[c] = { c[1], c[2], name }
  return name
end

-- The column for attack `a` against defence `d`, or nil below the first one.
-- (The last column reached: searched from the last one down.)
function combat.column(a, d)
  local columns = combat.COLUMNS
  for i = #columns, 1, -1 do
    local c = columns[i]
    if d == 0 or a * c[2] >= d * c[1] then return name_of(c) end
  end
  return nil
end

-- The place of the column named `name` in `combat.COLUMNS` (1 the lowest odds), or nil.
function combat.column_rank(name)
  local columns = combat.COLUMNS
  for i = 1, #columns do
    if name_of(columns[i]) == name then return i end
  end
  return nil
end

-- Whether the work `name` of `label` stands, `destroyed` being the variable of that name (read
-- once by callers that judge many hexes; nil: read here, only for a hex that has the work).
local function work_in(destroyed, label, name)
  if not common.has_feature(label, name) then return false end
  if destroyed == nil then destroyed = hex.state.get("destroyed") or {} end
  for _, f in ipairs(destroyed[label] or {}) do
    if f == name then return false end
  end
  return true
end

function combat.work(label, name)
  return work_in(nil, label, name)
end

-- The hexside features between two hexes as a set (map data, kept per game; callers only
-- read it).
local hexside_sets = {}
local function hexside_set(from, to)
  local row = hexside_sets[from]
  if not row then
    row = {}
    hexside_sets[from] = row
  end
  local set = row[to]
  if not set then
    set = {}
    for _, f in ipairs(common.hexside(from, to)) do set[f] = true end
    row[to] = set
  end
  return set
end

-- A unit's printed combat strength: a para regiment has none, whatever a setup gives it (F40-11.3;
-- common.para_regiment's test, inline: strengths are read thousands of times a game).
local function printed(u)
  local a = u.attrs
  if a and a.para == true and u.size == "III" then return 0 end
  return u.strength or 0
end

local function strength(u)
  local s = u.strength or 0
  local a = u.attrs
  if a and a.para == true and u.size == "III" then return 0 end
  if u.status.isolated and s > 0 then s = s / 2 end
  return s
end

local function crossing_refused(u, from, to)
  local has = hexside_set(from, to)
  if has.lake then return true end
  return has.sea == true and u.side == "german" and not has.causeway
end

-- Why `u` may not attack `target` now (C.3), or nil. `adjacent`: the caller knows `target` is
-- a neighbour of `u.at`.
local function attacker_refusal(u, side, target, adjacent)
  if not u then return "F40-C.3", "attack needs units in play" end
  if u.side ~= side then return "F40-C.3", common.not_of_side(u, side) end
  if not u.at then return "F40-C.3", u.id .. " is not on the map" end
  -- (the para's own clause first: the scenario gives paras strength 0, and 11.3 is why, even
  -- for a target it is not next to, such as the hex it dropped on)
  local a = u.attrs
  if a and a.para == true and u.size == "III" then                          -- common.para_regiment
    return "F40-11.3", u.id .. " is a para regiment: it has no combat factor"
  end
  if not adjacent and hex.map.distance(u.at, target) ~= 1 then
    return "F40-C.3", u.id .. " is not adjacent to " .. target
  end
  if u.status.attacked then return "F40-C.3", u.id .. " has already attacked this combat phase" end
  if (u.strength or 0) <= 0 then return "F40-C.3", u.id .. " has no combat strength" end
  if not airborne.may_attack(u) then return "F40-11.4", u.id .. " may not attack in the assault of its drop" end
  -- (11.5: a drop on the target cancels the effects of all its hexsides for attacks on it in the
  -- next combat phase, this ban too)
  if crossing_refused(u, u.at, target) and not airborne.hexsides_cancelled(target) then
    return "F40-C.3", string.format("%s may not attack across the hexside %s/%s", u.id, u.at, target)
  end
  return nil
end

function combat.attacker_refusal(u, side, target)
  return attacker_refusal(u, side, target, false)
end

function combat.defenders(target, side)
  local out = {}
  for _, u in ipairs(hex.units.at(target)) do
    if u.side == common.enemy_of(side) then out[#out + 1] = u end
  end
  return out
end

-- The defence multiplier of `target` against attackers standing at `froms`; `cancelled`:
-- whether 11.5 cancels the target's hexsides; `destroyed`: the variable of that name, or nil
-- (work_in). (The
-- largest multiplier that applies counts: the order of the checks does not matter.)
local base_multiplier
local function multiplier(target, froms, cancelled, destroyed)
  local m = 1
  local t = combat.DEFENSE.terrain[common.terrain(target)]
  if t and t > m then m = t end
  for name, f in pairs(combat.DEFENSE.features) do
    if f > m and work_in(destroyed, target, name) then m = f end
  end
  if not cancelled then
    for name, f in pairs(combat.DEFENSE.hexsides) do
      if f > m then
        local all = #froms > 0
        for _, from in ipairs(froms) do
          if not hexside_set(from, target)[name] then all = false; break end
        end
        if all then m = f end
      end
    end
  end
  return m
end

-- The defence multiplier of `target` against attackers standing at `froms`.
function combat.multiplier(target, froms)
  return multiplier(target, froms, airborne.hexsides_cancelled(target), nil)
end
-- (the module's own: the listing reads the variables once for all its targets while nothing
-- replaced it, and calls a variant's replacement otherwise)
base_multiplier = combat.multiplier

-- combat.odds against the given defenders; `cancelled`: the set {label = true} of the hexes
-- whose hexsides 11.5 cancels, `destroyed`: the variable of that name (read once by the
-- legal list for all its targets) or nil (work_in).
local function odds_against(attackers, defenders, target, side, cancelled, destroyed)
  local a, froms, seen = 0, {}, {}
  for k = 1, #attackers do
    local u = attackers[k]
    a = a + strength(u)
    if not seen[u.at] then seen[u.at] = true; froms[#froms + 1] = u.at end
  end
  local d = 0
  for k = 1, #defenders do d = d + strength(defenders[k]) end
  -- (a variant that replaced combat.multiplier is followed here too)
  if combat.multiplier ~= base_multiplier then
    d = d * combat.multiplier(target, froms)
  else
    d = d * multiplier(target, froms, cancelled[target] == true, destroyed)
  end
  if common.enemy_of(side) == "allied" and work_in(destroyed, target, "intrinsic_strength") then d = d + 1 end
  return { attack = a, defense = d, odds = combat.column(a, d), defenders = defenders }
end

-- The set {label = true} of the hexes whose hexsides 11.5 cancels now.
local function cancelled_now()
  local cancelled = {}
  for _, l in ipairs(hex.state.get("airborne_hexsides") or {}) do cancelled[l] = true end
  return cancelled
end

-- {attack, defense, odds (column name or nil), defenders}
function combat.odds(attackers, target, side)
  return odds_against(attackers, combat.defenders(target, side), target, side, cancelled_now(), nil)
end
local base_odds = combat.odds

local function phase_refusal(side)
  if hex.state.phase() ~= "combat" or hex.state.side() ~= side then
    return "F40-C.1", "attacks happen in the side's own combat phase"
  end
  return nil
end

local function attacked(target)
  for _, l in ipairs(hex.state.get("attacked_hexes") or {}) do
    if l == target then return true end
  end
  return false
end

-- --- retreats (C.7) ---------------------------------------------------------------------

local function passable(u, from, to)
  if not hex.map.is_hex(to) then return false end
  local cost = movement.declaration.terrain[common.terrain(to)]
  if type(cost) == "table" then
    local c = cost[common.class_of(u)]
    if c == nil then c = cost[u.side] end
    if c == nil then c = cost.default end
    cost = c
  end
  if cost == nil or cost == "prohibited" then return false end
  local features = common.hexside(from, to)
  for k = 1, #features do
    local f = features[k]
    if f == "lake" or f == "sea" then return false end
  end
  return true
end

-- hex.units.at for one position: each hex's units read once, then kept (a retreat's route
-- search asks of the same hexes over and over: 1 500 unit views a game). Valid only while no
-- event is applied; the lists are shared, so callers only read them.
function combat.units_at_memo()
  local kept = {}
  return function(label)
    local list = kept[label]
    if list == nil then
      list = hex.units.at(label)
      kept[label] = list
    end
    return list
  end
end

-- Retreats are judged unit by unit (C.7): `planned` = {label = {t, a}} holds the equivalents
-- the earlier retreats of this combat sent to a hex, `gone` = {id = true} the units of this
-- result, every one of which leaves its hex (retreated or eliminated for want of a route).
-- false and "zoc" when 6.6 alone keeps the unit out.
local function enterable(u, from, to, planned, gone, units_at)
  if not passable(u, from, to) then return false end
  local enemy = common.enemy_of(u.side)
  local friendly = planned[to] ~= nil
  local here = units_at(to)
  for k = 1, #here do
    local v = here[k]
    -- 11.3 / R8: a hex holding only enemy para regiments may be entered.
    if v.side ~= u.side and not (v.side == enemy and common.para_regiment(v)) then return false end
    if v.side == u.side and not gone[v.id] then friendly = true end
  end
  local c = politics.country_of(to)
  if c and politics.is_neutral(c) then return false end
  -- 6.6: "unless the hex holds a friendly unit" -- as it stands after the retreats before
  if hex.path.may_retreat_into(u.id, to, friendly) then return true end
  return false, "zoc"
end

-- The routes of `u`'s retreat of `n` hexes. Without `zoc_refused`: the final hex and path the
-- rules choose, or nil. With it (a set): the routes 6.6 alone closes are walked too (enemy ZOC
-- ignored, every other check kept), and the first hex 6.6 refuses on each of them that ends
-- within the stacking limits is added to it (none: 6.6 is not why the unit has no route).
local function routes(u, n, planned, gone, zoc_refused, units_at)
  gone = gone or {}
  units_at = units_at or combat.units_at_memo()
  local origin = u.at
  local best, best_key = nil, nil
  local function consider(path, refused)
    local last = path[#path]
    local p = planned[last] or { 0, 0 }
    local t, a = p[1] + common.equivalents(u), p[2] + common.armored_equivalents(u)
    local here = units_at(last)
    for k = 1, #here do
      local v = here[k]
      if v.side == u.side and not gone[v.id] then
        t = t + common.equivalents(v)
        a = a + common.armored_equivalents(v)
      end
    end
    if t > stacking.LIMIT or a > stacking.ARMORED_LIMIT then return end
    if zoc_refused then
      if refused then zoc_refused[refused] = true end
      return
    end
    local key = (hex.state.control(last) == u.side and "0" or "1")
    local zoc = hex.path.zoc(last) or {}
    local in_zoc = false
    for _, s in ipairs(zoc) do if s ~= u.side then in_zoc = true end end
    key = key .. (in_zoc and "1" or "0")
    for _, l in ipairs(path) do key = key .. l end
    if not best_key or key < best_key then best, best_key = path, key end
  end
  local function walk(at, path, refused)
    if #path == n then consider(path, refused); return end
    for _, nb in ipairs(common.neighbors(at)) do
      if hex.map.distance(origin, nb) == #path + 1 then
        local ok, why = enterable(u, at, nb, planned, gone, units_at)
        local next_refused = refused
        if not ok and why == "zoc" and zoc_refused then
          ok, next_refused = true, refused or nb
        end
        if ok then
          local next_path = {}
          table.move(path, 1, #path, 1, next_path)
          next_path[#next_path + 1] = nb
          walk(nb, next_path, next_refused)
        end
      end
    end
  end
  walk(origin, {}, nil)
  return best
end

-- The final hex and path of `u`'s retreat of `n` hexes, or nil. `planned`, `gone`: the
-- retreats of this combat before it (enterable); `units_at` (optional): a units_at_memo of
-- the position.
function combat.retreat_route(u, n, planned, gone, units_at)
  return routes(u, n, planned, gone, nil, units_at)
end

-- Why `u` has no retreat route of `n` hexes (combat.retreat_route gave none), for the reason
-- of its elimination: when enemy ZOC alone closes every route (F40-6.6: a route would be open
-- if 6.6 did not apply), the hexes it refuses are named; otherwise C.7's general reason.
function combat.no_route_reason(u, n, planned, gone, units_at)
  local refused = {}
  routes(u, n, planned, gone, refused, units_at)
  local list = {}
  for l in pairs(refused) do list[#list + 1] = l end
  if #list == 0 then return "no retreat route (F40-C.7)" end
  table.sort(list)
  return string.format("no retreat route: every route otherwise open to it enters enemy ZOC (%s), and a %s "
    .. "unit may not retreat into enemy ZOC unless a friendly unit stays there (F40-6.6)",
    table.concat(list, ", "), common.class_of(u))
end

local function retreat_events(units, n, why, out)
  if type(n) ~= "number" or n < 1 or n % 1 ~= 0 then
    error("F40-C.7: a retreat of " .. tostring(n) .. " hexes (" .. why .. "): combat.RETREAT gives each result "
      .. "that retreats a whole number of hexes, at least 1", 0)
  end
  -- (all of them leave: one about to retreat out of a hex holds it for nobody, F40-6.6)
  local planned, gone = {}, {}
  for _, u in ipairs(units) do gone[u.id] = true end
  -- (the position stays as it is while the routes are judged: the events are applied after)
  local units_at = combat.units_at_memo()
  for _, u in ipairs(units) do
    local path = combat.retreat_route(u, n, planned, gone, units_at)
    if not path then
      out[#out + 1] = { event = "UnitEliminated", unit = u.id,
        reason = why .. ": " .. combat.no_route_reason(u, n, planned, gone, units_at) }
    else
      local last = path[#path]
      local p = planned[last] or { 0, 0 }
      planned[last] = { p[1] + common.equivalents(u), p[2] + common.armored_equivalents(u) }
      -- 16.3 / 16.6: a Dutch (Swiss) unit that a retreat takes out of its country operates
      -- normally afterwards. 16.4: a Belgian unit is freed only by being forced into France
      -- (restrictions.lua frees it when any move or retreat of it enters France).
      local home = politics.COUNTRY_OF_NATION[u.nation]
      if home and u.nation ~= "belgian" and not u.status.freed
          and politics.country_of(u.at) == home and politics.country_of(last) ~= home then
        out[#out + 1] = { event = "UnitStatusChanged", unit = u.id, add = { "freed" } }
      end
      out[#out + 1] = { event = "UnitMoved", unit = u.id, from = u.at, to = last, path = path, cost = 0 }
    end
  end
end

local function ids(list)
  local out = {}
  for k = 1, #list do out[k] = list[k].id end
  return out
end

local function eliminate(list, why, out)
  for _, u in ipairs(list) do
    out[#out + 1] = { event = "UnitEliminated", unit = u.id, reason = why }
  end
end

-- (for variants' result effects)
combat.retreat_events = retreat_events
combat.eliminate = eliminate

-- What each result of the CRT does (F40-C.6), as data a variant extends: a new result needs its
-- entry here, as `NE = function() end` (no effect). Each appends the result's events to `out`;
-- `o` is the attack (`o.defenders`: the units attacked), `attackers` the attacking units, `why`
-- the reason events carry. The works `combat.DESTROYED_BY[result]` names are destroyed after.
combat.RESULT_EFFECTS = {
  AE = function(o, attackers, why, out) eliminate(attackers, why, out) end,
  AR = function(o, attackers, why, out) retreat_events(attackers, combat.RETREAT.AR, why, out) end,
  EX = function(o, attackers, why, out)
    local lost_needed = 0
    for _, u in ipairs(o.defenders) do lost_needed = lost_needed + printed(u) end
    eliminate(o.defenders, why, out)
    local order = {}
    for _, u in ipairs(attackers) do order[#order + 1] = u end
    table.sort(order, function(x, y)
      if x.strength ~= y.strength then return x.strength < y.strength end
      return x.id < y.id
    end)
    local lost = 0
    for _, u in ipairs(order) do
      if lost >= lost_needed then break end
      out[#out + 1] = { event = "UnitEliminated", unit = u.id, reason = why }
      lost = lost + (u.strength or 0)
    end
  end,
  DE = function(o, attackers, why, out) eliminate(o.defenders, why, out) end,
  DR = function(o, attackers, why, out) retreat_events(o.defenders, combat.RETREAT.DR, why, out) end,
  ["DR%"] = function(o, attackers, why, out) retreat_events(o.defenders, combat.RETREAT["DR%"], why, out) end,
}

-- Why an attack on `target`, which holds no enemy unit, is refused (C.2): units of a country
-- still neutral are said to be so, since the way in is an invasion (16.2), not an attack.
local function no_enemy(target, side)
  local enemy = common.enemy_of(side)
  local country = politics.country_of(target)
  for _, v in ipairs(hex.units.at(target)) do
    if v.side ~= side and politics.is_neutral(country) then
      return "F40-C.2", string.format("%s holds units of %s, still neutral: they are no %s "
        .. "units to attack (a German unit entering %s invades it, F40-16.2)", target, country, enemy, country)
    end
  end
  return "F40-C.2", target .. " holds no " .. enemy .. " unit"
end

-- Why `side`'s attack on the hex `target` by the units `ids` is refused (C.2-C.4), or nil and
-- the attacking units: the `attack` command and the `combat_odds` query judge alike.
local function attack_refusal(target, ids, side)
  if attacked(target) then return "F40-C.4", target .. " has already been attacked this combat phase" end
  if type(ids) ~= "table" or #ids == 0 then return "F40-C.3", "attack needs attacking units" end
  -- (the target first: an attack on an empty hex, or on the attackers' own, was refused as
  -- "not adjacent" by the first attacker's check)
  local enemy = common.enemy_of(side)
  local defended = false
  for _, v in ipairs(hex.units.at(target)) do defended = defended or v.side == enemy end
  if not defended then return no_enemy(target, side) end
  local attackers, seen = {}, {}
  for _, id in ipairs(ids) do
    if seen[id] then return "F40-C.3", tostring(id) .. " is listed twice" end
    seen[id] = true
    local u = hex.units.get(tostring(id))
    if not u then return "F40-C.3", common.no_unit(id) end
    local rule, reason = combat.attacker_refusal(u, side, target)
    if rule then return rule, reason end
    attackers[#attackers + 1] = u
  end
  return nil, nil, attackers
end

-- F40-C.5: why odds `o` (no column: worse than the first) are refused.
function combat.too_low(o)
  return string.format("odds %s against %s are worse than %s",
    common.mp_str(o.attack), common.mp_str(o.defense), name_of(combat.COLUMNS[1]))
end

function combat.resolve(cmd, side)
  local rule, reason = phase_refusal(side)
  if rule then return hex.refuse(rule, reason) end
  local target = cmd.hex or ""
  if not hex.map.is_hex(target) then return hex.refuse("F40-C.2", tostring(target) .. " is not a hex of the map") end
  local attackers
  rule, reason, attackers = attack_refusal(target, cmd.units, side)
  if rule then return hex.refuse(rule, reason) end
  table.sort(attackers, function(x, y) return x.id < y.id end)
  local o = combat.odds(attackers, target, side)
  if #o.defenders == 0 then return hex.refuse(no_enemy(target, side)) end
  if not o.odds then return hex.refuse("F40-C.5", combat.too_low(o)) end
  local row = combat.CRT[o.odds]
  if type(row) ~= "table" then
    error("F40-C.6: combat.CRT has no row for the column " .. o.odds .. " (one row per entry of combat.COLUMNS)", 0)
  end
  local roll = hex.dice.roll(6)
  local result = row[roll]
  local effect = combat.RESULT_EFFECTS[result]
  if not effect then
    error(string.format("F40-C.6: the CRT gives %s at %s, roll %d, and combat.RESULT_EFFECTS has no entry for it",
      tostring(result), o.odds, roll), 0)
  end
  local why = string.format("combat at %s (%s, roll %d: %s)", target, o.odds, roll, result)
  local out = {
    hex.events.emit("CombatResolved", { hex = target, attackers = ids(attackers), defenders = ids(o.defenders),
      attack = o.attack, defense = o.defense, odds = o.odds, roll = roll, result = result }),
  }
  local list = {}
  for _, l in ipairs(hex.state.get("attacked_hexes") or {}) do list[#list + 1] = l end
  list[#list + 1] = target
  table.sort(list)
  out[#out + 1] = hex.state.set("attacked_hexes", list)
  for _, u in ipairs(attackers) do
    out[#out + 1] = { event = "UnitStatusChanged", unit = u.id, add = { "attacked" } }
  end
  effect(o, attackers, why, out)
  do
    local works = {}
    for _, name in ipairs(combat.DESTROYED_BY[result] or {}) do
      if combat.work(target, name) then works[#works + 1] = name end
    end
    if #works > 0 then
      local destroyed = hex.state.get("destroyed") or {}
      local now = {}
      for _, f in ipairs(destroyed[target] or {}) do now[#now + 1] = f end
      for _, f in ipairs(works) do now[#now + 1] = f end
      table.sort(now)
      out[#out + 1] = hex.state.set("destroyed", common.with(destroyed, target, now))
    end
  end
  return out
end

-- The listed attacks with their odds: {cmd = {command = "attack", hex, units}, odds =
-- combat.odds of that attack (its `defenders` as light views: id, side, at, strength,
-- status = {isolated})}, per target hex in label order, the attack by every eligible
-- adjacent unit, when its odds reach 1:2 (subsets are accepted when given, not listed: see
-- docs). The bot reads the odds from here instead of asking combat.odds again per attack.
function combat.attack_options(side)
  if phase_refusal(side) then return {} end
  local enemy = common.enemy_of(side)
  -- Where the enemy stands, by hex (unit indices in id order), and the side's units on the
  -- map, from four flat lists; light views (`view`: id, side, at, strength and a status
  -- table holding `isolated`, 8.3's halving, when the unit has it) only for the side's units
  -- next to an enemy and the defenders of the targets. A unit with `dropped`, and a regiment
  -- with a strength, gets its full view instead (11.4: airborne.may_attack reads its
  -- attributes; 11.3: a para regiment has no combat factor, whatever its strength).
  local sides, ats, unit_ids = hex.units.list("side"), hex.units.list("at"), hex.units.list("id")
  local strengths, sizes = hex.units.list("strength"), hex.units.list("size")
  local isolated, dropped = hex.units.with_status("isolated"), hex.units.with_status("dropped")
  local ISOLATED, NONE = { isolated = true }, {}
  local function view(i)
    local id = unit_ids[i]
    if dropped[id] or (sizes[i] == "III" and strengths[i] > 0) then return hex.units.get(id) end
    return { id = id, side = sides[i], at = ats[i], strength = strengths[i], status = isolated[id] and ISOLATED or NONE }
  end
  local enemy_at, own = {}, {}
  for i = 1, #ats do
    local at = ats[i]
    if at then
      local s = sides[i]
      if s == enemy then
        local here = enemy_at[at]
        if here then here[#here + 1] = i else enemy_at[at] = { i } end
      elseif s == side then
        own[#own + 1] = i
      end
    end
  end
  local attacked_ids = {}
  for _, id in ipairs(hex.units.ids(side, { on_map = true, with = { "attacked" } })) do attacked_ids[id] = true end
  -- The hexes next to an enemy (a set: the order of `pairs` does not reach the list).
  local near = {}
  for at in pairs(enemy_at) do
    local nbs = common.neighbors(at)
    for k = 1, #nbs do near[nbs[k]] = true end
  end
  -- Targets attacked already this phase (C.4) are not gathered at all.
  local done = {}
  for _, l in ipairs(hex.state.get("attacked_hexes") or {}) do done[l] = true end
  local by_target = {}
  for k = 1, #own do
    local i = own[k]
    local u = near[ats[i]] and not attacked_ids[unit_ids[i]] and view(i)
    if u and not u.status.attacked then
      local nbs = common.neighbors(u.at)
      for k = 1, #nbs do
        local nb = nbs[k]
        if enemy_at[nb] and not done[nb] and not attacker_refusal(u, side, nb, true) then
          local list = by_target[nb] or {}
          list[#list + 1] = u
          by_target[nb] = list
        end
      end
    end
  end
  local out = {}
  if next(by_target) == nil then return out end
  -- The variables every target reads, read once.
  local cancelled, destroyed = cancelled_now(), hex.state.get("destroyed") or {}
  for _, target in ipairs(common.sorted_keys(by_target)) do
    local attackers = by_target[target]
    local defenders = {}
    local here = enemy_at[target]
    for k = 1, #here do defenders[k] = view(here[k]) end
    local o
    if combat.odds ~= base_odds then
      -- (a variant's combat.odds, given the attackers as the attack command gives them)
      local full = {}
      for k, u in ipairs(attackers) do full[k] = hex.units.get(u.id) end
      o = combat.odds(full, target, side)
    else
      o = odds_against(attackers, defenders, target, side, cancelled, destroyed)
    end
    if o.odds then
      out[#out + 1] = { cmd = { command = "attack", hex = target, units = ids(attackers) }, odds = o }
    end
  end
  return out
end

-- The listed attacks (combat.attack_options without the odds).
function combat.legal(side)
  local out = {}
  for i, option in ipairs(combat.attack_options(side)) do out[i] = option.cmd end
  return out
end

-- The rank of an odds threshold of the strategy table (`"2:1"`; ai.lua). A value that is no
-- column of combat.COLUMNS (`"2-1"`) is an error naming it: it used to count as the lowest
-- column, so the bot attacked at any odds without a word.
function combat.strategy_rank(key)
  local value = require("france1940.strategy")[key]
  local rank = combat.column_rank(value)
  if not rank then
    local names = {}
    for i, c in ipairs(combat.COLUMNS) do names[i] = combat.column_name(c) end
    error(string.format("strategy.%s = %s is no odds column (the columns: %s)", key,
      type(value) == "string" and string.format("%q", value) or tostring(value), table.concat(names, ", ")), 0)
  end
  return rank
end

-- F40-C.6: the CRT checked against COLUMNS and RESULT_EFFECTS as the game starts (a variant
-- replaces them while it loads): one row per column, one result per d6 roll, each a result
-- RESULT_EFFECTS has, and no row that no column names. A fault showed only when a roll used
-- it, turns into a game; now `hexwar check`, which starts the game, reports it.
function combat.check_tables()
  local spelling = require("lib.spelling")
  local columns = {}
  for i, c in ipairs(combat.COLUMNS) do columns[i] = name_of(c) end
  -- (combat.column takes the last column the odds reach: out of order, 6 against 6 was 1:2)
  for i = 2, #combat.COLUMNS do
    local low, high = combat.COLUMNS[i - 1], combat.COLUMNS[i]
    if high[1] * low[2] <= low[1] * high[2] then
      error(string.format("F40-C.6: combat.COLUMNS runs from the weakest odds up, but %s comes before %s (columns: %s)",
        columns[i - 1], columns[i], table.concat(columns, ", ")), 0)
    end
  end
  local results = {}
  for r in pairs(combat.RESULT_EFFECTS) do results[#results + 1] = tostring(r) end
  table.sort(results)
  for _, name in ipairs(columns) do
    local row = combat.CRT[name]
    if row == nil then
      error(string.format("F40-C.6: combat.CRT has no row for the column %s (one row per column of combat.COLUMNS: %s)",
        name, table.concat(columns, ", ")), 0)
    end
    if type(row) ~= "table" then
      error(string.format("F40-C.6: combat.CRT[\"%s\"] is a %s, not a row of 6 results (one per d6 roll)",
        name, type(row)), 0)
    end
    if #row ~= 6 then
      error(string.format("F40-C.6: combat.CRT[\"%s\"] has %d results: one per d6 roll, 6", name, #row), 0)
    end
    for roll = 1, 6 do
      local result = row[roll]
      if combat.RESULT_EFFECTS[result] == nil then
        -- (a hint for a result written in another case, or a longer name: a new two-letter
        -- result is one letter off several)
        local text = tostring(result)
        local hint = ""
        if combat.RESULT_EFFECTS[text:upper()] ~= nil then
          hint = " (did you mean '" .. text:upper() .. "'?)"
        elseif #text >= 3 then
          hint = spelling.did_you_mean(text, results)
        end
        error(string.format("F40-C.6: combat.CRT[\"%s\"][%d] is %s, which combat.RESULT_EFFECTS has no entry for%s (results: %s)",
          name, roll, text, hint, table.concat(results, ", ")), 0)
      end
    end
  end
  local rows = {}
  for key in pairs(combat.CRT) do rows[#rows + 1] = tostring(key) end
  table.sort(rows)
  for _, key in ipairs(rows) do
    local named = false
    for _, name in ipairs(columns) do named = named or name == key end
    if not named then
      error(string.format("F40-C.6: combat.CRT has a row '%s' that no column of combat.COLUMNS names%s (columns: %s; a new column needs its entry in COLUMNS)",
        key, spelling.did_you_mean(key, columns), table.concat(columns, ", ")), 0)
    end
  end
  -- (the bot's odds thresholds name columns: a variant that drops one was told only at the
  -- first German combat)
  combat.strategy_rank("attack_at")
  combat.strategy_rank("attack_dutch_at")
end

function combat.register()
  hex.events.on("GameStarted", function()
    combat.check_tables()
    return nil
  end)

  -- (through the module table at every call, so a variant's combat.resolve or .legal counts)
  hex.commands.define("attack", {
    args = { hex = "place", units = "units" },
    resolve = function(cmd, side) return combat.resolve(cmd, side) end,
    legal = function(side, filter) return combat.legal(side, filter) end,
  })

  -- {hex = TARGET, units = {ids}} -> {attack, defense, odds} of that attack now (odds null
  -- below 1:2); the side is the first unit's.
  -- (a wrong question is the asker's: hex.rules.caller_error; an unknown id was skipped, and
  -- the odds of the others answered as the attack's)
  hex.rules.query("combat_odds", function(arg)
    if type(arg) ~= "table" or type(arg.hex) ~= "string" or not hex.map.is_hex(arg.hex)
      or type(arg.units) ~= "table" then
      hex.rules.caller_error("give { hex = \"0312\", units = { ids } }, a hex of the map and units in play")
    end
    -- (each unit counted once: an id given twice doubled its strength)
    local attackers, seen = {}, {}
    for _, id in ipairs(arg.units) do
      local u = type(id) == "string" and hex.units.get(id)
      if not u then hex.rules.caller_error("no unit '" .. tostring(id) .. "' in play") end
      if not seen[id] then attackers[#attackers + 1] = u end
      seen[id] = true
    end
    if #attackers == 0 then return { refused = { rule = "F40-C.3", reason = "attack needs attacking units" } } end
    local side = attackers[1].side
    local o = combat.odds(attackers, arg.hex, side)
    -- (the odds are worked out for any units; `refused` says why the attack command would
    -- refuse them, as it judges: a target without enemies, an id given twice, a unit not
    -- adjacent or that attacked already, a crossing it may not make)
    local rule, reason = attack_refusal(arg.hex, arg.units, side)
    if not rule and not o.odds then rule, reason = "F40-C.5", combat.too_low(o) end
    return { attack = o.attack, defense = o.defense, odds = o.odds, refused = rule and { rule = rule, reason = reason } or nil }
  end)

  -- SIDE -> {{hex, units, attack, defense, odds}, ...}: the listed attacks with the odds the
  -- listing works out (what the bot ranks them by), in the listing's order.
  hex.rules.query("attack_options", function(side)
    if side ~= "german" and side ~= "allied" then
      hex.rules.caller_error("the argument is a side, \"german\" or \"allied\", not " .. tostring(side))
    end
    local out = {}
    for i, option in ipairs(combat.attack_options(side)) do
      local o = option.odds
      out[i] = { hex = option.cmd.hex, units = option.cmd.units, attack = o.attack, defense = o.defense, odds = o.odds }
    end
    -- (none: a list all the same, `[]` in JSON, not `{}`)
    return #out > 0 and out or hex.state.list()
  end)

  -- Cleared first, like movement's marks (common.CLEAR_MARKS_FIRST).
  hex.events.on("PhaseEnded", function()
    local out = {}
    for _, id in ipairs(common.ids_with({ "attacked" })) do
      out[#out + 1] = { event = "UnitStatusChanged", unit = id, remove = { "attacked" } }
    end
    if hex.state.get("attacked_hexes") ~= nil then out[#out + 1] = hex.state.set("attacked_hexes", nil) end
    return out
  end, common.CLEAR_MARKS_FIRST)
end

return require("lib.spelling").strict("france1940.combat", combat)
