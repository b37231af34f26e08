-- diplomacy.ai: a greedy bot for any power (scenario: [[side]] bot = "diplomacy.ai").
--
-- It is asked again and again in each phase: every answer is one order, picked from the rules'
-- menu of orders for the power's units not ordered yet (host.lua's legal list), until the menu
-- is empty and it ends its part of the phase. Each order is scored against a step field: the
-- fewest moves from every location to a supply centre the power does not hold (one field for
-- armies, one for fleets, made afresh at each answer from the position):
--   movement    a move into such a centre scores highest, then a move that gets closer to one
--               (an army's move by one fleet's convoy too: convoy_options, below),
--               less into a province an enemy unit holds (it bounces without support: 6 less
--               when another unit of the power not ordered yet could support it, else 12); a move
--               into a province another of the power's moves already goes for, or where one of
--               its units stands that is not ordered to leave, is avoided (its own units would
--               bounce: SELF_BOUNCE below any other score, so even a unit with no centre in
--               reach holds instead); a hold scores where the unit stands, and
--               more on a held centre an enemy unit stands next to; a support is given only to
--               a move or hold of the power's that is already ordered (a second support of one
--               move scores little);
--   retreats    to a centre it does not hold, else nearest one; a disband last;
--   adjustments a build where listed (an army, a fleet while the power has fewer fleets than
--               half its armies, the builds ordered counted); a disband of the unit farthest
--               from the centres to take.
-- Ties go to the `seed` the host gives each answer, so games with other seeds differ; the same
-- seed gives the same game. It keeps nothing between answers (a saved game goes on the same).
-- A move an enemy unit may contest (into a province an enemy unit holds or stands next to) is
-- held back at one answer in four that pick it (two bits of the seed): the unit takes its best
-- order that is not such a move. Without it, two powers could send units into one province, or
-- into each other's, every year of a game (seed 2: 413 of 446 moves bounced, 33 succeeded).
local hex = hex -- (one local: a global is read through the locked globals table, docs/sandbox.md)

local FAR = 99

-- What a move that its own power's units would bounce scores below its plain score: lower than
-- any order's plain score can fall (FAR steps and an enemy unit there).
local SELF_BOUNCE = 2 * FAR

local orders = require("diplomacy.orders")
local map = require("diplomacy.map")

-- An order text of the menu as the bot scores it, read by the rules' own parser (memoised on the
-- compiled map): unit type and location, kind (H, M, S for either support, R, D, B), the
-- location it names (a move's, a retreat's, a support's target move) and a support's unit.
local function parse(cm, text)
  local p = orders.parse(cm, text)
  if p.kind == "V" then return nil end
  local support = p.kind == "SH" or p.kind == "SM"
  -- (a convoy names the army it carries as `supported`: "A LON")
  local carried = p.kind == "C" and ("A " .. p.tloc) or nil
  return { kind = support and "S" or p.kind, type = p.utype, at = p.uloc, unit = p.utype .. " " .. p.uloc,
           dest = p.dest, supported = support and ((p.ttype or "?") .. " " .. p.tloc) or carried }
end

local province = map.prov_of

local function class_of(t)
  return t == "A" and "army" or "fleet"
end

-- Steps from every location to the nearest of `targets` for units of `class` (a breadth-first
-- search backwards from the targets over the map's adjacency, which is symmetric).
local function field(targets, class)
  local dist, queue, head = {}, {}, 1
  for _, loc in ipairs(targets) do
    local r = hex.map.region(loc)
    -- (a fleet reaches a split-coast centre on either coast)
    local starts = { loc }
    if class == "fleet" and r and #r.coasts > 0 then
      starts = {}
      for _, c in ipairs(r.coasts) do starts[#starts + 1] = loc .. "/" .. c end
    end
    for _, s in ipairs(starts) do
      if dist[s] == nil then
        dist[s] = 0
        queue[#queue + 1] = s
      end
    end
  end
  while head <= #queue do
    local loc = queue[head]
    head = head + 1
    for _, n in ipairs(hex.map.neighbors(loc, class)) do
      if dist[n] == nil then
        dist[n] = dist[loc] + 1
        queue[#queue + 1] = n
      end
    end
  end
  return dist
end

-- What the answer needs of the position, read once per answer.
local function situation(side)
  local units = hex.state.get("position", "units") or {}
  local centers = hex.state.get("position", "centers") or {}
  local owned = {}
  for _, c in ipairs(centers[side] or {}) do owned[c] = true end
  local targets = {}
  for _, c in ipairs(hex.map.supply_centers()) do
    if not owned[c] then targets[#targets + 1] = c end
  end
  local enemy_at, own_at = {}, {}
  for power, list in pairs(units) do
    for _, u in ipairs(list) do
      if power ~= side then enemy_at[province(u:sub(3))] = true else own_at[province(u:sub(3))] = u end
    end
  end
  local fields = {}
  local function steps(loc, t)
    local class = class_of(t)
    fields[class] = fields[class] or field(targets, class)
    return fields[class][loc] or fields[class][province(loc)] or FAR
  end
  local cm = map.get(hex.map.board_table())
  local given, ordered = {}, {}
  for _, o in ipairs(hex.state.get("orders." .. side) or {}) do
    local p = parse(cm, o)
    if p then
      given[#given + 1] = p
      ordered[p.unit] = true
    end
  end
  return {
    cm = cm,
    units = units[side] or {},
    owned = owned,
    enemy_at = enemy_at,
    own_at = own_at,
    steps = steps,
    given = given,
    ordered = ordered, -- (the units the orders given name)
    target = function(loc)
      local r = hex.map.region(province(loc))
      return r ~= nil and r.supply_center and not owned[r.id]
    end,
  }
end

-- Whether an enemy unit stands next to `loc` (by either class's moves: a threat to hold).
local function threatened(s, loc)
  for _, class in ipairs({ "army", "fleet" }) do
    for _, n in ipairs(hex.map.neighbors(province(loc), class)) do
      if s.enemy_at[province(n)] then return true end
    end
  end
  return false
end

-- Whether an enemy unit may contest a move into `loc`: one stands there or next to it.
local function contested(s, loc)
  return s.enemy_at[province(loc)] or threatened(s, loc)
end

-- Whether this answer holds back a contested move: one answer in four, by two bits of the
-- seed above those the ties use.
local function hesitates(seed)
  return math.floor((seed or 0) / 65536) % 4 == 1
end

-- Whether another unit of the power, not ordered yet, could support a move into `prov`.
local function could_be_backed(s, o, prov)
  local ordered = s.ordered
  for _, u in ipairs(s.units) do
    if u ~= o.unit and not ordered[u] then
      local class = class_of(u:sub(1, 1))
      for _, n in ipairs(hex.map.neighbors(u:sub(3), class)) do
        if province(n) == prov then return true end
      end
    end
  end
  return false
end

local function movement_score(s, o)
  if o.kind == "M" then
    local prov = province(o.dest)
    local score = (s.target(o.dest) and 10 or 0) - s.steps(o.dest, o.type)
      - (s.enemy_at[prov] and (could_be_backed(s, o, prov) and 6 or 12) or 0)
    for _, g in ipairs(s.given) do
      if g.kind == "M" and province(g.dest) == prov then return score - SELF_BOUNCE end
    end
    -- (a unit standing there bounces a move without support, unless it leaves; one of the
    -- power's own that is not ordered to leave bounces it for certain)
    local own = s.own_at[prov]
    if own and own ~= o.unit then
      local leaves = false
      for _, g in ipairs(s.given) do
        if g.unit == own then leaves = g.kind == "M" end
      end
      if not leaves then return score - SELF_BOUNCE end
    end
    return score
  elseif o.kind == "H" then
    local held = s.owned[province(o.at)] and threatened(s, o.at)
    return (held and 4 or 0) - s.steps(o.at, o.type)
  elseif o.kind == "S" then
    -- (a second support of one move is worth little: one usually decides it)
    local backed = 0
    for _, g in ipairs(s.given) do
      if g.kind == "S" and g.supported == o.supported and g.dest == o.dest then backed = backed + 1 end
    end
    for _, g in ipairs(s.given) do
      if g.unit == o.supported then
        if o.dest and g.kind == "M" and province(g.dest) == province(o.dest) then
          if backed > 0 then return 2 end
          return 8 + (s.target(o.dest) and 10 or 0)
        end
        if not o.dest and (g.kind == "H" or g.kind == "S") and s.owned[province(g.at)] then
          return 3
        end
      end
    end
  end
  return nil
end

local function retreat_score(s, o)
  if o.kind == "R" then return (s.target(o.dest) and 10 or 0) - s.steps(o.dest, o.type) end
  if o.kind == "D" then return -FAR end
  return nil
end

local function adjustment_score(s, o)
  if o.kind == "B" then
    if o.type == "A" then return 1 end
    local armies, fleets = 0, 0
    for _, u in ipairs(s.units) do
      if u:sub(1, 1) == "A" then armies = armies + 1 else fleets = fleets + 1 end
    end
    for _, g in ipairs(s.given) do
      if g.kind == "B" then
        if g.type == "A" then armies = armies + 1 else fleets = fleets + 1 end
      end
    end
    return fleets * 2 < armies and 2 or 0
  end
  if o.kind == "D" then return s.steps(o.at, o.type) end
  return nil
end

local SCORE = { M = movement_score, R = retreat_score, A = adjustment_score }

-- Convoys by one fleet (the menu lists none): an army of the power on a coast, a fleet of the
-- power in a sea next to it, and a coast of that sea the army cannot walk to. The fleet's
-- convoy is ordered first, scored as the army's move would be, and only when that move beats
-- every move the army has by land; the army's move follows at the next answer (first of all).
-- An island power's armies used to stay at home.
local function convoy_options(s)
  local ordered = s.ordered
  local out = {}
  for _, army in ipairs(s.units) do
    local from = army:sub(3)
    if army:sub(1, 1) == "A" and not ordered[army] then
      for _, fleet in ipairs(s.units) do
        local sea = fleet:sub(3)
        local r = fleet:sub(1, 1) == "F" and not ordered[fleet] and hex.map.region(sea)
        if r and r.type == "sea" and hex.map.adjacent(sea, from, "fleet") then
          for _, loc in ipairs(hex.map.neighbors(sea, "fleet")) do
            local dest = province(loc)
            if dest ~= from and hex.map.region(dest).type == "coast"
                and not hex.map.adjacent(from, dest, "army") then
              out[#out + 1] = { army = army, fleet = fleet, from = from, dest = dest }
            end
          end
        end
      end
    end
  end
  return out
end

-- Whether a variant's `order_allowed` forbids order `text` (the standard game has no such
-- rule): the convoys the bot makes up itself are checked as the menu's orders are.
local function forbidden(s, side, text)
  local rules = require("diplomacy.host").game().rules
  local allowed = rules.order_allowed
  if not allowed then return false end
  s.position = s.position or hex.state.get("position")
  return allowed(rules, s.cm, s.position, side, orders.parse(s.cm, text)) == false
end

-- The army's move a convoy ordered already carries, if that army has no order yet.
local function convoyed_move(s)
  local ordered = s.ordered
  for _, g in ipairs(s.given) do
    if g.kind == "C" and not ordered[g.supported] then
      return g.supported .. " - " .. g.dest .. " VIA"
    end
  end
  return nil
end

return function(side, legal, seed)
  local menu = hex.commands.legal(side, { command = "order" })
  if #menu == 0 then return { command = "end_phase" } end
  local phase = hex.state.get("position", "phase") or ""
  local score = SCORE[phase:sub(-1)]
  if not score then return { command = "end_phase" } end
  local s = situation(side)
  local moving = phase:sub(-1) == "M"
  local carried = moving and convoyed_move(s)
  if carried and not forbidden(s, side, carried) then return { command = "order", power = side, order = carried } end
  local best, best_score = {}, nil
  local unit_best = {}
  local parsed, scores = {}, {}
  local function consider(cmd, v)
    if v == nil then return end
    if best_score == nil or v > best_score then
      best, best_score = { cmd }, v
    elseif v == best_score then
      best[#best + 1] = cmd
    end
  end
  for _, cmd in ipairs(menu) do
    local o = parse(s.cm, cmd.order)
    local v = o and score(s, o)
    parsed[cmd], scores[cmd] = o, v
    if v ~= nil and (unit_best[o.unit] == nil or v > unit_best[o.unit]) then unit_best[o.unit] = v end
    consider(cmd, v)
  end
  if moving then
    for _, c in ipairs(convoy_options(s)) do
      local v = movement_score(s, { kind = "M", type = "A", at = c.from, unit = c.army, dest = c.dest })
      local order = c.fleet .. " C " .. c.army .. " - " .. c.dest
      if v and v > (unit_best[c.army] or -FAR) and not forbidden(s, side, order) then
        -- (one more than the move it makes: a carried army gains what the fleet's own move
        -- would, and the fleet stays at sea to carry another)
        consider({ command = "order", power = side, order = order }, v + 1)
      end
    end
  end
  -- (nothing worth giving: the power's other units hold, as when a player stops ordering)
  if best_score == nil or best_score <= -FAR then
    if phase:sub(-1) ~= "R" then return { command = "end_phase" } end
  end
  if #best == 0 then return { command = "end_phase" } end
  local picked = best[(math.floor(seed or 0) % #best) + 1]
  local o = parsed[picked]
  if moving and o and o.kind == "M" and hesitates(seed) and contested(s, o.dest) then
    -- (held back: the unit's best order no enemy unit may contest, the first in the menu's
    -- order among equals)
    local alt, alt_score
    for _, cmd in ipairs(menu) do
      local c, v = parsed[cmd], scores[cmd]
      if c and c.unit == o.unit and v and (alt_score == nil or v > alt_score)
          and not (c.kind == "M" and contested(s, c.dest)) then
        alt, alt_score = cmd, v
      end
    end
    if alt then return alt end
  end
  return picked
end
