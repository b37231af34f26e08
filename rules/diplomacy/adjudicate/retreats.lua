-- diplomacy.adjudicate.retreats -- the standard retreat rule: the hooks the movement phase calls
-- (who retreats, where to, who is disbanded at once) and the retreat phase itself. The
-- Francqueville variant replaces some of these through diplomacy.adjudicate's `rules` table.
local map = require("diplomacy.map")
local orders_mod = require("diplomacy.orders")
local shared = require("diplomacy.adjudicate.shared")

local M = {}

local sort = table.sort
local EMPTY = shared.EMPTY
local powers_of, sorted_centers = shared.powers_of, shared.sorted_centers

-- who retreats: the dislodged units. rec = {i = unit index, by = attacker province, conv = bool}
function M.retreating_units(rules, ctx)
  local recs = {}
  local down, dislodged_by, U, convoyed = ctx.scratch.down, ctx.dislodged_by, ctx.U, ctx.convoyed
  for k = 1, #down do
    local i = down[k]
    local j = dislodged_by[i]
    recs[k] = { i = i, by = U[j].prov, conv = convoyed[j] and true or false }
  end
  return recs
end

-- is province p occupied after the moves (by a unit that stays, or a unit that moved there; not
-- by a dislodged or removed one)? Asked only for a retreating unit's few neighbours, so computed
-- on demand rather than tabulated for the whole board.
local function occupied_after(ctx, p)
  local moved, dislodged_by, removed = ctx.moved, ctx.dislodged_by, ctx.removed
  local o = ctx.at[p]
  if o then
    local nxt = ctx.nxt
    repeat
      if not moved[o] and not dislodged_by[o] and not removed[o] then return true end
      o = nxt[o]
    until not o
  end
  local mt = ctx.scratch.moves_to[p]
  if mt then
    for m = 1, #mt do
      local j = mt[m]
      if moved[j] and not dislodged_by[j] and not removed[j] then return true end
    end
  end
  return false
end
M.occupied_after = occupied_after

-- the places a unit of type t on loc may retreat to on the map alone: its move targets (without
-- convoy) that are not impassable, as two lists, locations and their provinces (memoised on the
-- compiled map: a function of the map)
local function retreat_targets(cm, t, loc)
  local memo = cm.retreat_targets
  if not memo then memo = { A = {}, F = {} }; cm.retreat_targets = memo end
  local byt = memo[t]
  if not byt then byt = {}; memo[t] = byt end
  local r = byt[loc]
  if not r then
    local locs, provs = {}, {}
    local targets = map.move_targets(cm, t, loc)
    for k = 1, #targets do
      local l = targets[k]
      local p = cm.loc_prov[l]
      if cm.prov[p].type ~= "impassable" then
        locs[#locs + 1] = l
        provs[#provs + 1] = p
      end
    end
    r = { locs, provs }
    byt[loc] = r
  end
  return r[1], r[2]
end

-- standard options: adjacent (without convoy), not occupied after the moves, not the attacker's
-- province (unless it came by convoy, 6.H.11), not left empty by a standoff (6.H.6, 6.H.16)
-- (occupied_after and the standoff test, inlined: one walk of the moves into the province)
function M.retreat_options(rules, ctx, rec)
  local u = ctx.U[rec.i]
  local out, no = {}, 0
  local by, conv = rec.by, rec.conv
  local moves_to, res, at, nxt = ctx.scratch.moves_to, ctx.res, ctx.at, ctx.nxt
  local moved, dislodged_by, removed = ctx.moved, ctx.dislodged_by, ctx.removed
  local locs, provs = retreat_targets(ctx.cm, u.type, u.loc)
  for k = 1, #provs do
    local p = provs[k]
    if p ~= by or conv then
      -- occupied after the moves: by a unit that stays ...
      local free = true
      local o = at[p]
      while o do
        if not moved[o] and not dislodged_by[o] and not removed[o] then free = false; break end
        o = nxt[o]
      end
      local mt = free and moves_to[p]
      if mt then
        -- ... or one that moved there; else contested (a standoff left it empty): no move there
        -- succeeded and one had some strength
        local won = false
        for m = 1, #mt do
          local j = mt[m]
          if moved[j] and not dislodged_by[j] and not removed[j] then free = false; break end
          if res[j] then won = true end
        end
        if free and not won then
          local prevent = ctx.scratch.prevent_strength
          for m = 1, #mt do
            if prevent(mt[m]) > 0 then free = false; break end
          end
        end
      end
      if free then
        no = no + 1
        out[no] = locs[k]
      end
    end
  end
  return out
end

function M.after_movement(rules, ctx) end

-- A retreating unit without options is disbanded at once (rulebook: "If a dislodged unit has
-- nowhere to retreat, it is disbanded"; the variant's R-l1 says the same): in the movement
-- phase's `disbanded` and in its `dislodged` with no retreats (6.H.15 and 6.H.16 still name it
-- dislodged, and by whom). The others wait for the retreat phase, which is skipped when none does.
function M.settle_retreats(rules, ctx, recs)
  for k = 1, #recs do
    if #recs[k].retreats == 0 then
      local kept, gone = {}, {}
      for _, r in ipairs(recs) do
        if #r.retreats > 0 then kept[#kept + 1] = r else gone[#gone + 1] = r end
      end
      return kept, gone
    end
  end
  return recs, EMPTY   -- (the common case: every one has somewhere to go)
end

function M.has_retreats(rules, position)
  return position.dislodged ~= nil and #position.dislodged > 0
end


-- Retreat orders matched to the dislodged units they name. An order names the units of its
-- power, of its type, in its province -- those on the location it names when any is (R-g2:
-- F SPA/SC beside F SPA/NC), else all of them. Each unit gets the order it can carry out (a
-- disband, or a retreat to one of its options, that the rules' `order_allowed` allows), as many
-- units as can get one, earlier orders first (a matching: an order may move to another unit
-- of the stack to make room for a later one; a stack's units have different options); a unit
-- left without one gets the first order naming it that it cannot carry out (void, as the
-- adjudicator reads it). So of several orders for one unit the first that can be carried out
-- counts, as the reference engine plays it (it drops an impossible order as it is given), and
-- the others are void. Returns `assigned` (index in `dl` -> {raw, o, seq}), `entries` (power ->
-- result entries: those of the orders no unit took, flagged `void_flags()`) and
-- `add(power, entry)`, which appends to `entries`. `seq` numbers the orders through the phase,
-- power after power, or within each power's list when `seq_per_power` is set (the
-- Francqueville variant's numbering, which orders its `arrived` list). An order the rules'
-- `order_allowed` forbids is given as a void one (`o.kind` "V"), so every resolve_retreats
-- reads it as void.
local FORBIDDEN = { kind = "V", kc = 5 }

-- Whether dislodged unit `d` can carry out order `o`: a disband, or a retreat (or a move, read
-- as one) to one of its options.
local function carried_out(cm, d, o)
  if o.kind == "D" then return true end
  if o.kind ~= "R" and o.kind ~= "M" then return false end
  return M.retreat_location(cm, d, o.utype, o.dest) ~= nil
end

-- The indexes in `dl` of power `p`'s units order `o` names (see above), in `dl`'s order.
local function named_units(cm, dl, p, o)
  local named, others = {}, {}
  if not o.utype then return named end
  for n = 1, #dl do
    local d = dl[n]
    if d.power == p then
      local u = map.parse_unit(cm, d.unit)
      if u and u.type == o.utype and u.prov == o.uprov then
        local list = u.loc == o.uloc and named or others
        list[#list + 1] = n
      end
    end
  end
  return #named > 0 and named or others
end
M.named_units = named_units

function M.assign_retreat_orders(cm, dl, orders, void_flags, seq_per_power, rules, position)
  local allowed = rules and rules.order_allowed
  local assigned, entries = {}, {}
  local function add(p, e)
    local l = entries[p]
    if not l then l = {}; entries[p] = l end
    l[#l + 1] = e
  end
  local seq = 0
  for _, p in ipairs(powers_of(cm, orders)) do
    -- this power's orders: {raw, o, seq, units (all it names), can (those that can carry it out)}
    local given = {}
    for k, raw in ipairs(orders[p] or EMPTY) do
      seq = seq_per_power and k or seq + 1
      local parsed = orders_mod.parse(cm, raw)
      local o = parsed
      local units = named_units(cm, dl, p, o)
      local can = {}
      if #units > 0 then
        if allowed and allowed(rules, cm, position, p, orders_mod.in_phase(o, "R")) == false then
          o = FORBIDDEN
        else
          for _, n in ipairs(units) do
            if carried_out(cm, dl[n], o) then can[#can + 1] = n end
          end
        end
      end
      given[#given + 1] = { raw = raw, o = o, parsed = parsed, seq = seq, units = units, can = can }
    end
    -- (Kuhn's augmenting paths, orders in turn: an order that found a unit keeps one)
    local holder = {} -- unit index -> index in `given`
    local function place(i, seen)
      for _, n in ipairs(given[i].can) do
        if not seen[n] then
          seen[n] = true
          if holder[n] == nil or place(holder[n], seen) then
            holder[n] = i
            return true
          end
        end
      end
      return false
    end
    for i = 1, #given do
      if #given[i].can > 0 then place(i, {}) end
    end
    local placed = {} -- index in `given` -> unit index
    for n, i in pairs(holder) do placed[i] = n end
    -- (a unit with no order it can carry out takes the first naming it)
    for i, g in ipairs(given) do
      if placed[i] == nil then
        for _, n in ipairs(g.units) do
          if holder[n] == nil then
            holder[n], placed[i] = i, n
            break
          end
        end
      end
    end
    for i, g in ipairs(given) do
      local n = placed[i]
      if n and holder[n] == i then
        assigned[n] = { raw = g.raw, o = g.o, seq = g.seq }
      else
        local o = g.parsed
        local ustr = (o.utype and o.uloc) and (o.utype .. " " .. o.uloc) or tostring(g.raw)
        add(p, { power = p, order = tostring(g.raw), unit = ustr, flags = void_flags(), seq = g.seq })
      end
    end
  end
  return assigned, entries, add
end

-- The option among `d.retreats` (dislodged unit `d`, of type `utype`) that the retreat to `want`
-- names, or nil: an army's order may name the province; a fleet's may leave the coast out when
-- exactly one coast of that province is listed.
function M.retreat_location(cm, d, utype, want)
  local wp = cm.loc_prov[want]
  for _, r in ipairs(d.retreats or EMPTY) do
    if r == want or (utype == "A" and r == wp) then return r end
  end
  if utype == "F" and want == wp then
    local only
    for _, r in ipairs(d.retreats or EMPTY) do
      if cm.loc_prov[r] == wp then
        if only then return nil end
        only = r
      end
    end
    return only
  end
  return nil
end

local function void_flags() return { "void" } end

-- Resolve the retreat orders. Returns results (unsorted per power lists merged later), the units
-- that arrive {power, unit}, the disbanded unit strings, and a table of extra next-position fields.
function M.resolve_retreats(rules, cm, position, orders)
  local dl = position.dislodged or EMPTY
  local assigned, entries, add = M.assign_retreat_orders(cm, dl, orders, void_flags, false, rules, position)
  -- targets
  local target = {}      -- dl index -> location
  local count = {}       -- province -> number of units retreating there
  for k = 1, #dl do
    local a = assigned[k]
    if a and a.o.kind ~= "R" and a.o.kind ~= "M" and a.o.kind ~= "D" then
      a.void = true
    elseif a and a.o.kind ~= "D" then
      local d = dl[k]
      local loc = M.retreat_location(cm, d, map.parse_unit(cm, d.unit).type, a.o.dest)
      if loc then
        target[k] = loc
        local p = cm.loc_prov[loc]
        count[p] = (count[p] or 0) + 1
      else
        a.void = true
      end
    end
  end
  local arrive, disbanded = {}, {}
  for k = 1, #dl do
    local d = dl[k]
    local a = assigned[k]
    local flags
    if target[k] then
      if count[cm.loc_prov[target[k]]] > 1 then
        flags = { "bounce", "disband" }
      else
        flags = {}
        local u = map.parse_unit(cm, d.unit)
        arrive[#arrive + 1] = { power = d.power, unit = u.type .. " " .. target[k], seq = a.seq }
      end
    elseif a and a.void then
      flags = { "void", "disband" }
    else
      flags = { "disband" }
    end
    if #flags > 0 then disbanded[#disbanded + 1] = d.unit end
    add(d.power, { power = d.power, order = a and tostring(a.raw) or (d.unit .. " D"), unit = d.unit, flags = flags, seq = a and a.seq or 0 })
  end
  return entries, arrive, disbanded, nil
end

function M.retreats(rules, cm, position, orders)
  local entries, arrive, disbanded, extra = rules.resolve_retreats(rules, cm, position, orders or EMPTY)
  local units = {}
  for p, l in pairs(position.units or EMPTY) do
    local c = {}
    for k = 1, #l do c[k] = l[k] end
    units[p] = c
  end
  for _, a in ipairs(arrive) do
    local l = units[a.power]
    if not l then l = {}; units[a.power] = l end
    l[#l + 1] = a.unit
  end
  for _, l in pairs(units) do sort(l) end
  local nph, ncent = shared.next_phase(rules, cm, position.phase, units, sorted_centers(position.centers), false)
  return shared.close_phase(rules, cm, position, entries, units, disbanded, nph, ncent, extra)
end

return M
