-- diplomacy.variants.francqueville.retreats -- the retreat rule of Yves Philippe de Francqueville
-- (RULES.md DIP-4.a .. DIP-4.m, readings R-0 .. R-m1), as overrides of the standard rules table.
--
-- [interpretation] choices made here (the RULES.md readings fix most; these are ours):
--  * R-g3 "the first ordered there stays" when every unit of a stack arrived by retreat: the unit
--    whose retreat order came first in the retreat phase (position.arrived keeps that order).
--  * Within a stack of identical unit strings, the earlier entries count as the earlier occupant.
--  * A support naming a unit string a stack holds twice goes to the first unit of that string whose
--    action it matches (a support to hold: one that stays), else to the first (the core's
--    build_ctx, diplomacy.adjudicate).
--  * R-k1 evicted units get the order flags {"bounce", "dislodged"} (R-k3); the eviction is listed
--    in `dislodged` with `by` = the alphabetically first attacking province.
--  * Retreat orders: a void retreat (target not in the list) is flagged {"void", "disband"}; an
--    order that is no retreat/disband for a retreating unit likewise (as in the standard module).

local map = require("diplomacy.map")
local adj = require("diplomacy.adjudicate")

local M = {}
local EMPTY = {}
local flags_of = adj.flags_of
local function void_flags() return flags_of("void") end

-- R-k1, R-k2: the units evicted after a bounce, as {unit index = attacker province} (the
-- alphabetically first attacker of another power), computed once per movement phase (after_movement,
-- R-g3, needs them too: an evicted unit is not still in its province after the moves)
local function evictions(ctx)
  if ctx.evicted then return ctx.evicted end
  local U, res, dprov = ctx.U, ctx.res, ctx.dprov
  local attackers = {}   -- province -> the units whose non-void move goes there
  for _, j in ipairs(ctx.moves) do
    local d = dprov[j]
    local l = attackers[d]
    if not l then l = {}; attackers[d] = l end
    l[#l + 1] = j
  end
  local out = {}
  for _, i in ipairs(ctx.moves) do
    -- R-k1: a non-void move flagged bounce (path fine, not paradox), unit not dislodged ...
    if not res[i] and not ctx.dislodged_by[i] and not ctx.paradox[i] and ctx.path_ok(i) then
      local by
      -- ... whose province was the destination of a non-void move of another power (R-k2)
      for _, j in ipairs(attackers[U[i].prov] or EMPTY) do
        if U[j].power ~= U[i].power then
          local p = U[j].prov
          if not by or p < by then by = p end
        end
      end
      if by then out[i] = by end
    end
  end
  ctx.evicted = out
  return out
end

-- R-0, R-k1..R-k3: the dislodged units, plus units evicted after a bounce
function M.retreating_units(rules, ctx)
  local recs = adj.retreating_units(rules, ctx)
  local evicted = evictions(ctx)
  for _, i in ipairs(ctx.moves) do
    local by = evicted[i]
    if by then
      recs[#recs + 1] = { i = i, by = by, conv = false, evicted = true }
      ctx.flags = ctx.flags or {}
      ctx.flags[i] = flags_of("bounce", "dislodged") -- R-k3
    end
  end
  return recs
end

-- R-a1..R-g1: the option list, computed once at the end of the movement phase
function M.retreat_options(rules, ctx, rec)
  local cm, U, i = ctx.cm, ctx.U, rec.i
  local u = U[i]
  local me = u.power
  -- theatre of operations T (R-f1, R-f2): destinations of non-void moves and supports to move,
  -- provinces of fleets with a non-void convoy order
  local T = ctx.theatre
  if not T then
    T = {}
    for j = 1, ctx.n do
      local k = ctx.kind[j]
      if k == "M" or k == "SM" then T[ctx.dprov[j]] = true
      elseif k == "C" then T[U[j].prov] = true end
    end
    ctx.theatre = T
    -- who holds each province after the moves (R-g1), by power
    local after = {}
    for j = 1, ctx.n do
      if not ctx.dislodged_by[j] and not ctx.removed[j] and not (ctx.flags and ctx.flags[j] == flags_of("bounce", "dislodged")) then
        local p = ctx.moved[j] and ctx.dprov[j] or U[j].prov
        local s = after[p]
        if not s then s = {}; after[p] = s end
        s[U[j].power] = true
      end
    end
    ctx.held_after = after
    -- own centres (R-d1): owned in the ownership in force during the movement phase
    ctx.owned = adj.owner_map(ctx.position.centers)
  end
  local Y = ctx.kind[i] == "M" and ctx.dprov[i] or nil -- R-b1 (void moves are kind H: R-b3)
  local out = {}
  for _, loc in ipairs(map.move_targets(cm, u.type, u.loc)) do     -- R-a1
    local p = cm.loc_prov[loc]
    local pr = cm.prov[p]
    local ok = p ~= rec.by and pr.type ~= "impassable"                -- R-a2
    if ok and Y then ok = p ~= Y and cm.border[Y][p] == true end     -- R-b1, R-b2
    if ok and pr.sc then                                               -- R-c1, R-d1
      ok = (cm.home_set[me] and cm.home_set[me][p]) or ctx.owned[p] == me
    end
    if ok then                                                         -- R-e1
      local o = ctx.at[p]
      while o do
        if U[o].power ~= me then ok = false; break end
        o = ctx.nxt[o]
      end
    end
    if ok and T[p] then ok = false end                                 -- R-f1 (R-f3: origins are not in T)
    if ok then                                                         -- R-g1
      for pw in pairs(ctx.held_after[p] or EMPTY) do
        if pw ~= me then ok = false; break end
      end
    end
    if ok then out[#out + 1] = loc end
  end
  return out
end

-- R-l1: a retreating unit with no option is removed at once: the standard's settle_retreats
-- (diplomacy.adjudicate), as the rulebook has it

-- R-g3: after the moves, a stack keeps one unit (the earlier occupant, else the first arrived)
function M.after_movement(rules, ctx)
  local arrived = ctx.position.arrived
  if not arrived or #arrived == 0 then return end
  local U = ctx.U
  local acount = {}
  local aorder = {}
  for n, a in ipairs(arrived) do
    local key = a.power .. "|" .. a.unit
    acount[key] = (acount[key] or 0) + 1
    if not aorder[key] then aorder[key] = n end
  end
  local survivors = {}
  local evicted = evictions(ctx) -- R-k1: an evicted unit is not still there
  for j = 1, ctx.n do
    if not ctx.moved[j] and not ctx.dislodged_by[j] and not evicted[j] then
      local key = U[j].power .. "|" .. U[j].prov
      local l = survivors[key]
      if not l then l = {}; survivors[key] = l end
      l[#l + 1] = j
    end
  end
  for _, l in pairs(survivors) do
    if #l > 1 then
      local is_arr = {}
      local left = {}
      for k = #l, 1, -1 do -- later entries of identical strings count as the arrivals
        local j = l[k]
        local key = U[j].power .. "|" .. U[j].str
        local c = (left[key] or acount[key] or 0)
        if c > 0 then is_arr[j] = true; left[key] = c - 1 else left[key] = 0 end
      end
      local keep
      for _, j in ipairs(l) do
        if not is_arr[j] then keep = j; break end
      end
      if not keep then
        local best
        for _, j in ipairs(l) do
          local n = aorder[U[j].power .. "|" .. U[j].str]
          if not best or n < best then best = n; keep = j end
        end
      end
      for _, j in ipairs(l) do
        if j ~= keep then
          ctx.removed[j] = true
          ctx.flags = ctx.flags or {}
          ctx.flags[j] = flags_of("disband")
        end
      end
    end
  end
end

-- R-h1, R-i1, R-j1: resolution of the retreat phase
function M.resolve_retreats(rules, cm, position, orders)
  local dl = position.dislodged or EMPTY
  local assigned, entries, add = adj.assign_retreat_orders(cm, dl, orders, void_flags, true, rules, position)
  -- R-h1: provinces that are the single option of units of two or more powers
  local single = {}
  for _, d in ipairs(dl) do
    local provs = {}
    local np = 0
    for _, r in ipairs(d.retreats or EMPTY) do
      local p = cm.loc_prov[r]
      if not provs[p] then provs[p] = true; np = np + 1 end
    end
    if np == 1 then
      local p = cm.loc_prov[d.retreats[1]]
      local s = single[p]
      if not s then s = {}; single[p] = s end
      s[d.power] = true
    end
  end
  local standoff = {}
  for p, s in pairs(single) do
    local n = 0
    for _ in pairs(s) do n = n + 1 end
    if n >= 2 then standoff[p] = true end
  end
  -- targets
  local target, powers_at = {}, {}
  for n, d in ipairs(dl) do
    local a = assigned[n]
    local u = map.parse_unit(cm, d.unit)
    local only_p
    if #(d.retreats or EMPTY) > 0 then
      only_p = cm.loc_prov[d.retreats[1]]
      for _, r in ipairs(d.retreats) do if cm.loc_prov[r] ~= only_p then only_p = nil; break end end
    end
    if only_p and standoff[only_p] then
      target[n] = "standoff"
    elseif a and (a.o.kind == "R" or a.o.kind == "M") then
      local loc = adj.retreat_location(cm, d, u.type, a.o.dest)
      if loc then
        target[n] = loc
        local wp = cm.loc_prov[loc]
        local s = powers_at[wp]
        if not s then s = {}; powers_at[wp] = s end
        s[d.power] = true
      elseif a then
        a.void = true
      end
    elseif a and a.o.kind ~= "D" then
      a.void = true
    end
  end
  local arrive, disbanded, arrived = {}, {}, {}
  for n, d in ipairs(dl) do
    local a = assigned[n]
    local t = target[n]
    local flags
    if t == "standoff" then
      flags = flags_of("bounce", "disband")                          -- R-h1
    elseif t then
      local p = cm.loc_prov[t]
      local np = 0
      for _ in pairs(powers_at[p]) do np = np + 1 end
      if np > 1 or standoff[p] then
        flags = flags_of("bounce", "disband")                        -- R-i1 (R-h1: others bounce)
      else
        flags = flags_of(nil)                                        -- R-j1: own units all arrive
        local u = map.parse_unit(cm, d.unit)
        local s = u.type .. " " .. t
        arrive[#arrive + 1] = { power = d.power, unit = s }
        arrived[#arrived + 1] = { power = d.power, unit = s, seq = a.seq }
      end
    elseif a and a.void then
      flags = flags_of("void", "disband")
    else
      flags = flags_of("disband")
    end
    if #flags > 0 then disbanded[#disbanded + 1] = d.unit end
    add(d.power, { power = d.power, order = a and tostring(a.raw) or (d.unit .. " D"), unit = d.unit, flags = flags, seq = a and a.seq or 0 })
  end
  table.sort(arrived, function(x, y) return x.seq < y.seq end)
  for _, x in ipairs(arrived) do x.seq = nil end
  return entries, arrive, disbanded, { arrived = arrived }
end

return M
