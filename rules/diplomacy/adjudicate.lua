-- diplomacy.adjudicate -- standard Diplomacy adjudication (DATC preferred resolutions).
--
-- Exposes `M.rules`: a table of replaceable functions. A variant copies it with M.extend(overrides)
-- and replaces only what it changes (the Francqueville variant replaces the retreat part).
--
--   rules.movement(rules, cm, position, orders)      -> result, next_position   (phase ...M)
--   rules.retreats(rules, cm, position, orders)      -> result, next_position   (phase ...R)
--   rules.adjustments(rules, cm, position, orders)   -> result, next_position   (phase W...A)
-- hooks called by rules.movement (ctx = the movement context, see build_ctx below):
--   rules.retreating_units(rules, ctx)      -> list of retreat records {i=, by=}  (standard: dislodged)
--   rules.retreat_options(rules, ctx, rec)  -> sorted list of locations the unit may retreat to
--   rules.after_movement(rules, ctx)        -> nil (may mark ctx.removed[i] = true; ctx.extra_next)
--   rules.settle_retreats(rules, ctx, recs) -> recs kept for the retreat phase, units removed at once
--   rules.resolve_retreats(rules, cm, position, orders) -> results, units, disbanded, extra
--   rules.has_retreats(rules, position)     -> does the retreat phase have anything to do
--
-- Movement: Kruijswijk's guess-and-check resolver ("The Math of Adjudication"): every move, support
-- and convoy order gets a boolean resolution; cycles are detected through the dependency list and
-- broken by the backup rule: a cycle of moves only is a circular movement (all succeed); a cycle
-- with convoys is a convoy paradox resolved by the Szykman rule (the convoyed armies involved do not
-- move, as if not convoyed; flag `no convoy`). Convoy intent (DATC 4.A.3 d, the 1982/2000
-- rulebook, preferred): an army goes by convoy if it is not adjacent; next to its destination by
-- land, if it writes VIA or a fleet of its own power orders to convoy it, and then only when the
-- fleets ordered to convoy it make a whole chain (else it moves over land: "via convoy" has a
-- meaning only where there are both a land route and a convoy route, 6.G.8); a convoyed move is
-- never a head-to-head battle. What is possible depends on the fleets on the board, whatever their
-- orders (DATC 4.E.1): a move that needs a convoy is illegal (void) when no chain of fleets at sea
-- joins its two ends (6.D.32), and so is a convoy order by a fleet on no chain that needs it
-- (6.G.7; on_chain), which then shows no intent. Result flags are worded as the reference engine
-- words them (the DATC names outcomes only; see order_flag).

--
-- Sharing (speed; every table handed out is read-only): result entries and flag lists are memoised
-- constants; the next position's `units` and `centers` (and the result's) are the given position's
-- own tables when nothing in them changes, and its unchanged per-power lists otherwise.

local map = require("diplomacy.map")
local orders_mod = require("diplomacy.orders")

local M = {}

local sort = table.sort
local HUGE = math.huge
local unpack = table.unpack
local EMPTY = {}

----------------------------------------------------------------------------------------------------
-- helpers

local function is_sorted(l)
  for k = 2, #l do
    if l[k - 1] > l[k] then return false end
  end
  return true
end

local function sorted_copy(l)
  local c = {}
  for k = 1, #l do c[k] = l[k] end
  sort(c)
  return c
end
M.sorted_copy = sorted_copy

-- power names of a {POWER = ...} table, in output order (board powers first, sorted)
local function powers_of(cm, t)
  local extra
  for p in pairs(t or EMPTY) do
    if not cm.power_rank[p] then
      extra = extra or {}
      extra[#extra + 1] = p
    end
  end
  if not extra then return cm.powers end
  local all = {}
  for _, p in ipairs(cm.powers) do all[#all + 1] = p end
  for _, p in ipairs(extra) do all[#all + 1] = p end
  sort(all)
  return all
end
M.powers_of = powers_of

-- sorted-ness of a list of unit strings (integer ranks from the compiled map; strcoll is slow)
local function units_sorted(cm, l)
  local rank = cm.unit_rank
  local prev = 0
  for k = 1, #l do
    local r = rank[l[k]]
    if not r or r < prev then return false end
    prev = r
  end
  return true
end
M.units_sorted = units_sorted

local function unit_list_less(cm)
  local rank = cm.unit_rank
  return function(a, b)
    local ra, rb = rank[a], rank[b]
    if ra and rb then return ra < rb end
    return a < b
  end
end

local function sort_units(cm, l)
  if not units_sorted(cm, l) then sort(l, unit_list_less(cm)) end
  return l
end
M.sort_units = sort_units

-- sort_units for a list that is nearly sorted (a power's units after the moves): insertion sort on
-- the integer ranks, no comparator closure; same order as sort_units (equal ranks = equal strings)
local function sort_by_rank(cm, l)
  local rank = cm.unit_rank
  local n = #l
  local r = {}
  for k = 1, n do
    local x = rank[l[k]]
    if not x then return sort_units(cm, l) end
    r[k] = x
  end
  for k = 2, n do
    local x, s = r[k], l[k]
    local j = k - 1
    if r[j] > x then
      while j >= 1 and r[j] > x do
        r[j + 1] = r[j]; l[j + 1] = l[j]
        j = j - 1
      end
      r[j + 1] = x; l[j + 1] = s
    end
  end
  return l
end

-- results: append one power's entries, sorted by unit string then order sequence (the
-- order in which they were given). `seq` is a side table: entries may be shared constants.
local function push_sorted(cm, out, list, seq)
  local rank = cm.unit_rank
  local ok = true
  for k = 2, #list do
    local a, b = list[k - 1], list[k]
    local ra, rb = rank[a.unit], rank[b.unit]
    if not ra or not rb or ra > rb or (ra == rb and ((a.seq or 0) > (b.seq or 0))) then
      ok = false
      break
    end
  end
  if not ok then
    sort(list, function(a, b)
      if a.unit ~= b.unit then return a.unit < b.unit end
      return (a.seq or 0) < (b.seq or 0)
    end)
  end
  local n = #out
  for k = 1, #list do
    local e = list[k]
    if e.seq then e.seq = nil end
    out[n + k] = e
  end
end
M.push_sorted = push_sorted

-- Shared constant flag lists (result tables are read-only for the host; see docs/diplomacy.md).
local FLAGS = {}
local function flags_of(a, b)
  local ka = a or ""
  local t = FLAGS[ka]
  if not t then t = {}; FLAGS[ka] = t end
  local kb = b or ""
  local f = t[kb]
  if not f then
    f = {}
    if a then f[#f + 1] = a end
    if b then f[#f + 1] = b end
    t[kb] = f
  end
  return f
end
M.flags_of = flags_of

-- centres {POWER = {...}} -> owner map, and back
local function owner_map(centers)
  local own = {}
  for p, l in pairs(centers or EMPTY) do
    for k = 1, #l do own[l[k]] = p end
  end
  return own
end
M.owner_map = owner_map

local function centers_from_owner(cm, own)
  local out = {}
  for _, sc in ipairs(cm.sc_list) do
    local p = own[sc]
    if p then
      local l = out[p]
      if not l then l = {}; out[p] = l end
      l[#l + 1] = sc
    end
  end
  for p, l in pairs(own) do
    if not cm.prov[p] then end
  end
  return out
end

-- (the very table given when every list is sorted: result tables are read-only)
local function sorted_centers(centers)
  if not centers then return {} end
  local out = centers
  for p, l in pairs(centers) do
    -- (is_sorted, inlined)
    local prev = l[1]
    for k = 2, #l do
      local x = l[k]
      if prev > x then
        if out == centers then
          out = {}
          for q, ql in pairs(centers) do out[q] = ql end
        end
        out[p] = sorted_copy(l)
        break
      end
      prev = x
    end
  end
  return out
end
M.sorted_centers = sorted_centers

-- units {POWER = {"A PAR", ...}}: every list sorted
local function sorted_units(units)
  local out = {}
  for p, l in pairs(units) do
    out[p] = is_sorted(l) and l or sorted_copy(l)
  end
  return out
end
M.sorted_units = sorted_units

-- centre ownership after Fall: every supply centre holding a unit goes to the unit's power
local function update_centers(cm, units, centers)
  local own = owner_map(centers)
  for p, l in pairs(units) do
    for k = 1, #l do
      local u = map.parse_unit(cm, l[k])
      if u and cm.prov[u.prov].sc then own[u.prov] = p end
    end
  end
  return centers_from_owner(cm, own)
end
M.update_centers = update_centers

local function count_centers(centers, p)
  local l = centers[p]
  return l and #l or 0
end

local function winner_of(cm, centers)
  for _, p in ipairs(cm.powers) do
    if count_centers(centers, p) >= cm.victory_centers then return p end
  end
  return nil
end

-- does the adjustment phase have anything to do for this board / ownership?
local function adjustments_needed(cm, units, centers)
  local occupied
  for _, p in ipairs(powers_of(cm, units)) do
    local nu = units[p] and #units[p] or 0
    local nc = count_centers(centers, p)
    if nu > nc then return true end
    if nc > nu then
      if not occupied then
        occupied = {}
        for _, l in pairs(units) do
          for k = 1, #l do
            local u = map.parse_unit(cm, l[k])
            if u then occupied[u.prov] = true end
          end
        end
      end
      local owned = {}
      for _, c in ipairs(centers[p] or EMPTY) do owned[c] = true end
      for _, h in ipairs(cm.home[p] or EMPTY) do
        if owned[h] and not occupied[h] then return true end
      end
    end
  end
  return false
end
M.adjustments_needed = adjustments_needed

-- the phase after `phase`, given the board after it; updates centres at the end of Fall.
-- retreat_pending: the retreat phase that follows a movement phase has something to do.
-- (the next-phase strings are memoised on the phase's memo record: r.R the retreat phase, r.F the
-- Fall movement, r.W the winter adjustments, r.N the next Spring)
function M.next_phase(rules, cm, phase, units, centers, retreat_pending)
  local r = map.phase_rec(phase)
  local s, y, k = r[1], r[2], r[3]
  if k == "M" and retreat_pending then
    local x = r.R
    if not x then x = s .. y .. "R"; r.R = x end
    return x, centers
  end
  if s == "S" then
    local x = r.F
    if not x then x = "F" .. y .. "M"; r.F = x end
    return x, centers
  end
  if s == "F" then
    centers = update_centers(cm, units, centers)
    if adjustments_needed(cm, units, centers) then
      local x = r.W
      if not x then x = "W" .. y .. "A"; r.W = x end
      return x, centers
    end
  end
  local x = r.N
  if not x then x = "S" .. (y + 1) .. "M"; r.N = x end
  return x, centers
end

----------------------------------------------------------------------------------------------------
-- movement

-- Build the unit table of a position: U[i] = {power, type, loc, prov, str} (memoised, immutable),
-- at[prov] = index of the first unit there, nxt[i] = next unit in the same province (stacks, R-g2)
-- (a string that is no unit is memoised as NOT_A_UNIT: its rank below every unit's makes the
-- sortedness check of load_units send it down the slow path without a test of its own)
local NOT_A_UNIT = { rank = -1 }
local UNIT_REC_MAX = 1024
local function unit_rec(cm, p, s)
  local byp = cm.unit_rec
  if not byp then byp = {}; cm.unit_rec = byp end
  local c = byp[p]
  if not c then c = {}; byp[p] = c end
  local r = c[s]
  if r == nil then
    -- (bounded: a power's memo is emptied when it holds UNIT_REC_MAX strings)
    local counts = cm.unit_rec_n
    if not counts then counts = {}; cm.unit_rec_n = counts end
    local nc = (counts[p] or 0) + 1
    if nc > UNIT_REC_MAX then
      c = {}
      byp[p] = c
      nc = 1
    end
    counts[p] = nc
    local u = map.parse_unit(cm, s)
    r = u and { power = p, type = u.type, loc = u.loc, prov = u.prov, str = u.str, hold = u.str .. " H",
                rank = cm.unit_rank[u.str] or 0, entries = {} } or NOT_A_UNIT
    c[s] = r
  end
  if r == NOT_A_UNIT then return nil end
  return r
end
M.unit_rec = unit_rec

-- Scratch tables of the movement context (U, at, nxt, ord, kind and the sparse per-unit arrays
-- void, dest, dprov, target, convoyed, h2h, state, res, paradox), kept on the compiled map and
-- reused between calls: allocating and growing ~15 tables per phase (sparse integer keys land in
-- the hash part and rehash as they grow) cost about as much as the adjudication itself.
-- They carry nothing from one call to the next: take_scratch empties exactly what the previous
-- call set (its units' provinces and slots; the indices of its moves, supports / convoys and void
-- orders). Hence the movement context (and its arrays) is only valid until the next adjudication
-- on the same map. `busy` marks the tables in use: a nested adjudication (a hook calling
-- adjudicate) gets fresh ones, and so does every later call if one ever raised midway.
local DENSE = 64
local SPARSE = { "void", "dest", "dprov", "target", "convoyed", "h2h", "state", "res", "paradox",
                 "moved", "dislodged_by", "fl" }

local function new_scratch()
  local S = { U = {}, at = {}, nxt = {}, ord = {}, kind = {}, n = 0, stacked = {}, nstacked = 0,
              moves = {}, others = {}, voids = {}, pfirst = {}, plast = {} }
  -- (the per-unit arrays hold false, not nil, where nothing is set: a slot of the array part that
  -- holds a value is read and written inline by the VM, an empty one takes a call)
  for k = 1, #SPARSE do
    local t = {}
    for i = 1, DENSE do t[i] = false end
    S[SPARSE[k]] = t
  end
  return S
end

-- Empty a scratch list and the sparse per-unit arrays at the indices it names. What can be set
-- where: moves set dest, dprov, convoyed, h2h, paradox and (resolved) state, res; supports and
-- convoys set target, dprov, dest, state, res; voids (pass 1) set void and maybe dest.
local function wipe_moves(S)
  local list = S.moves
  local dest, dprov, convoyed, h2h, state, res, paradox, moved, fl =
    S.dest, S.dprov, S.convoyed, S.h2h, S.state, S.res, S.paradox, S.moved, S.fl
  for k = #list, 1, -1 do
    local i = list[k]
    dest[i] = false; dprov[i] = false; convoyed[i] = false; h2h[i] = false
    state[i] = false; res[i] = false; paradox[i] = false; moved[i] = false; fl[i] = false
    list[k] = nil
  end
end

local function wipe_others(S)
  local list = S.others
  local dest, dprov, target, state, res, void, fl =
    S.dest, S.dprov, S.target, S.state, S.res, S.void, S.fl
  for k = #list, 1, -1 do
    local i = list[k]
    target[i] = false; dprov[i] = false; dest[i] = false; state[i] = false; res[i] = false
    void[i] = false; fl[i] = false -- (pass 2 voids a support or convoy that does not match)
    list[k] = nil
  end
end

local function wipe_voids(S)
  local list = S.voids
  local void, dest, fl = S.void, S.dest, S.fl
  for k = #list, 1, -1 do
    local i = list[k]
    void[i] = false; dest[i] = false; fl[i] = false
    list[k] = nil
  end
  -- the dislodged units of the previous call
  local down, dislodged_by = S.down, S.dislodged_by
  if down then
    for k = 1, #down do
      local i = down[k]
      dislodged_by[i] = false; fl[i] = false
    end
    S.down = nil
  end
end

local function take_scratch(cm)
  local S = cm.move_scratch
  if not S then
    S = new_scratch()
    cm.move_scratch = S
  end
  if S.busy then
    S = new_scratch()
    S.fresh = true
    return S
  end
  S.busy = true
  -- empty what the previous call filled: the occupancy chains and order slots of its units, and
  -- the sparse arrays, which only its moves, supports / convoys and void orders touched
  -- (order slots are all written by load_units; the occupancy table was usually emptied by the
  -- results loop of the previous call already)
  if not S.at_clean then
    local U, at = S.U, S.at
    for i = 1, S.n do at[U[i].prov] = nil end
  end
  S.at_clean = false
  local nxt, st = S.nxt, S.stacked
  for k = 1, S.nstacked do nxt[st[k]] = nil end
  S.nstacked = 0
  wipe_moves(S)
  wipe_others(S)
  wipe_voids(S)
  return S
end

local function release_scratch(S)
  if not S.fresh then S.busy = false end
end

local function load_units(cm, position, S)
  S = S or new_scratch()
  local U, at, nxt, ord, kind = S.U, S.at, S.nxt, S.ord, S.kind
  local pfirst, plast = S.pfirst, S.plast
  local n = 0
  local units = position.units or EMPTY
  -- the unit lists to go on with: the position's own table while every list is usable as it is
  -- (sorted, every string a unit), else a copy with those lists replaced
  local lists = units
  local byp = cm.unit_rec
  if not byp then byp = {}; cm.unit_rec = byp end
  local powers = powers_of(cm, units)
  for pi = 1, #powers do
    local p = powers[pi]
    local l = units[p]
    if l then
      local recs = byp[p]
      if not recs then recs = {}; byp[p] = recs end
      -- lists arrive sorted (positions are built sorted): check that on the fly with the ranks of
      -- the memoised unit records; only an unsorted list (or an unknown unit string) is sorted
      -- (one pass: records, sortedness and the occupancy chains, at[prov] = first unit there and
      -- nxt[i] = next unit of the same stack; an unsorted list undoes its chain links, sorts and
      -- starts over)
      local n0, prev, bad = n, 0, false
      for k = 1, #l do
        local u = recs[l[k]] or unit_rec(cm, p, l[k]) or NOT_A_UNIT
        local r = u.rank
        if r < prev then bad = true; break end
        prev = r
        n = n + 1
        U[n] = u
        ord[n] = false
        kind[n] = "H"
        local pr = u.prov
        local g = at[pr]
        if g then
          while nxt[g] do g = nxt[g] end
          nxt[g] = n
          S.nstacked = S.nstacked + 1
          S.stacked[S.nstacked] = g
        else
          at[pr] = n
        end
      end
      if bad then
        -- this power's units are the last links of their chains: unlink them, newest first
        for j = n, n0 + 1, -1 do
          local pr = U[j].prov
          local g = at[pr]
          if g == j then
            at[pr] = nil
          else
            while nxt[g] ~= j do g = nxt[g] end
            nxt[g] = nil
          end
        end
        n = n0
        l = sort_units(cm, sorted_copy(l))
        if lists == units then
          lists = {}
          for q, ql in pairs(units) do lists[q] = ql end
        end
        lists[p] = l
        -- (the fast path's lines again, written out: a function call per unit cost 8.5% of the
        -- opening's instructions, 4.7% of the busy phase's)
        for k = 1, #l do
          local u = unit_rec(cm, p, l[k])
          if u then
            n = n + 1
            U[n] = u
            ord[n] = false
            kind[n] = "H"
            local pr = u.prov
            local g = at[pr]
            if g then
              while nxt[g] do g = nxt[g] end
              nxt[g] = n
              S.nstacked = S.nstacked + 1
              S.stacked[S.nstacked] = g
            else
              at[pr] = n
            end
          end
        end
      end
      pfirst[p], plast[p] = n0 + 1, n
    end
  end
  for k = n + 1, S.n do U[k] = nil; kind[k] = nil; ord[k] = nil end
  S.n = n
  return U, at, nxt, lists, powers
end
M.load_units = load_units

-- Assign order strings to units. Returns ord[i] = parsed order (or nil) and the extra
-- (unmatched) void entries per power. (ord: a fresh table, or the scratch one, empty)
local function assign_orders(cm, U, at, nxt, orders, ord)
  ord = ord or {}
  local extra = {}
  local cache = cm.order_cache
  local parse = orders_mod.parse
  for p, list in pairs(orders or EMPTY) do
    for k = 1, #list do
      local raw = list[k]
      local o = cache[raw] or parse(cm, raw)
      local i = at[o.uprov] -- (nil for a void order without unit: at[nil] is nil)
      local ut = o.utype
      while i do
        local u = U[i]
        if u.power == p and u.type == ut and not ord[i] then break end
        i = nxt[i]
      end
      if i then
        ord[i] = o
      else
        local e = extra[p]
        if not e then e = {}; extra[p] = e end
        local ustr = (o.utype and o.uloc) and (o.utype .. " " .. o.uloc) or tostring(raw)
        e[#e + 1] = { power = p, order = tostring(raw), unit = ustr, flags = flags_of("void"), seq = k }
      end
    end
  end
  return ord, extra
end
M.assign_orders = assign_orders

-- the coast-resolved destination of a fleet move, or nil (6.B.1-6.B.3)
local function fleet_dest(cm, loc, dest)
  local dprov = cm.loc_prov[dest]
  if dest ~= dprov then
    return (cm.fleet_adj[loc] and cm.fleet_adj[loc][dest]) and dest or nil
  end
  local into = cm.fleet_into[loc]
  local l = into and into[dprov]
  if l and #l == 1 then return l[1] end
  return nil
end
M.fleet_dest = fleet_dest

local function first_unit_at(U, at, nxt, prov, ttype)
  local t = at[prov]
  while t do
    if not ttype or U[t].type == ttype then return t end
    t = nxt[t]
  end
  return nil
end

-- Static facts of a move / support / convoy order: whether it can be carried out at all by a unit
-- of its type on a location, and where a move ends. They depend only on the order and the map, so
-- they are computed once per parsed order (for a unit on the written location) and memoised on it
-- as o.fx; a unit standing on another coast than written (6.B.10) gets them computed afresh.
--   M:  ok, conv (goes by convoy: not adjacent, or VIA), dest (location; armies: the province,
--       set even when not ok), dprov;
--   SH/SM: ok (the supporter reaches the province);   C: ok (fleet at sea)
local function order_facts(cm, o, utype, uloc, uprov)
  local k = o.kind
  local cprov = cm.prov
  if k == "M" then
    local dp = cm.loc_prov[o.dest]
    local ok, conv, d = false, false, nil
    if dp ~= uprov and cprov[dp].type ~= "impassable" then
      if utype == "A" then
        local t = cprov[dp].type
        if t ~= "sea" then
          local coastal = cprov[uprov].type == "coast" and t == "coast"
          if o.via then
            -- (a convoy as any other: possible only between two coasts, along a chain of fleets;
            -- next to its destination by land, build_ctx grants it only when the fleets ordered
            -- to convoy the army make a whole chain: else the army goes by land, 6.G.8)
            ok = coastal
            conv = true
          elseif cm.army_adj[uprov][dp] then
            ok = true
          elseif coastal then
            ok = true
            conv = true
          end
          d = dp
        end
      elseif not o.via then
        d = fleet_dest(cm, uloc, o.dest)
        ok = d ~= nil
      end
    end
    return { ok = ok, conv = ok and conv, dest = d, dprov = dp }
  elseif k == "SH" or k == "SM" then
    local tp = k == "SH" and o.tprov or o.dprov
    return { ok = tp ~= uprov and map.reaches_prov(cm, utype, uloc, tp) }
  elseif k == "C" then
    return { ok = utype == "F" and cprov[uprov].type == "sea" }
  end
  return nil
end

-- append i to a short list of unit indices, keeping it in increasing order
local function insert_in_order(l, i)
  local m = #l
  while m >= 1 and l[m] > i do
    l[m + 1] = l[m]
    m = m - 1
  end
  l[m + 1] = i
end

-- What a convoy could do with the fleets on the board (DATC 4.E.1, preferred: an order that is
-- impossible with the units on the board is illegal, whatever the other orders). A chain is a
-- sequence of fleets at sea, each next to the one before, the first next to the army's province
-- and the last next to its destination.

-- the sea provinces next to a province, sorted (a function of the map, kept on it)
local function seas_next_to(cm, prov)
  local memo = cm.seas_next_to
  if not memo then memo = {}; cm.seas_next_to = memo end
  local l = memo[prov]
  if not l then
    l = {}
    for q, info in pairs(cm.prov) do
      if info.type == "sea" and cm.fleet_prov_adj[q] and cm.fleet_prov_adj[q][prov] then l[#l + 1] = q end
    end
    table.sort(l)
    memo[prov] = l
  end
  return l
end

-- Is there a fleet next to both provinces? (a chain of one fleet: the usual convoy, found without
-- listing the fleets)
local function one_fleet_chain(cm, at, U, src, dst)
  local seas = seas_next_to(cm, src)
  local fpa = cm.fleet_prov_adj
  for k = 1, #seas do
    local q = seas[k]
    local i = at[q]
    if i and U[i].type == "F" and fpa[q][dst] then return true end
  end
  return false
end

-- the units that are fleets at sea (in unit order)
local function sea_fleets(cm, U)
  local out = {}
  local cprov = cm.prov
  for i = 1, #U do
    local u = U[i]
    if u.type == "F" and cprov[u.prov].type == "sea" then out[#out + 1] = i end
  end
  return out
end

-- Is there a chain of fleets from province src to province dst? (6.D.32: none, so the move is
-- illegal and the army may receive support to hold)
local function chain_exists(cm, U, fleets, src, dst)
  local fpa = cm.fleet_prov_adj
  local seen, queue, qn = {}, {}, 0
  for k = 1, #fleets do
    local f = fleets[k]
    local adj = fpa[U[f].loc]
    if adj[src] then
      if adj[dst] then return true end
      seen[f] = true; qn = qn + 1; queue[qn] = f
    end
  end
  local qi = 1
  while qi <= qn do
    local f = queue[qi]
    qi = qi + 1
    local adj = fpa[U[f].loc]
    if adj[dst] then return true end
    for k = 1, #fleets do
      local g = fleets[k]
      if not seen[g] and adj[U[g].prov] then seen[g] = true; qn = qn + 1; queue[qn] = g end
    end
  end
  return false
end

-- Is fleet `f` on some chain from src to dst that needs every one of its fleets? (6.G.6, 6.G.7: a
-- convoy order no chain could use is illegal, so it shows no intent to convoy.) A chain counts
-- only when no fewer of its fleets make one -- each fleet next to the one before and the one after
-- only, the first alone next to src, the last alone next to dst -- as the reference engine counts
-- convoy routes: a fleet that a chain could only pass through on a detour (its neighbours are next
-- to each other, or to an end) carries nothing. Depth-first over such chains (a few fleets).
local function on_chain(cm, U, fleets, f, src, dst)
  local fpa = cm.fleet_prov_adj
  local m = #fleets
  local near, nsrc, ndst, fk = {}, {}, {}, nil
  for k = 1, m do
    local a = fpa[U[fleets[k]].loc]
    nsrc[k], ndst[k] = a[src] or false, a[dst] or false
    if fleets[k] == f then fk = k end
    local row = {}
    for l = 1, m do
      if l ~= k and a[U[fleets[l]].prov] then row[#row + 1] = l end
    end
    near[k] = row
  end
  if not fk then return false end
  local path, on = {}, {}
  local function extend(k, depth, has_f)
    -- (a fleet next to dst ends a chain: one more would make it a detour)
    if ndst[k] then return has_f end
    local row = near[k]
    for r = 1, #row do
      local l = row[r]
      if not on[l] and not nsrc[l] then
        local shortcut = false
        for d = 1, depth - 1 do
          local back = near[path[d]]
          for q = 1, #back do
            if back[q] == l then shortcut = true; break end
          end
          if shortcut then break end
        end
        if not shortcut then
          on[l] = true; path[depth + 1] = l
          local found = extend(l, depth + 1, has_f or l == fk)
          on[l] = false; path[depth + 1] = nil
          if found then return true end
        end
      end
    end
    return false
  end
  for k = 1, m do
    if nsrc[k] then
      on[k] = true; path[1] = k
      local found = extend(k, 1, k == fk)
      on[k] = false; path[1] = nil
      if found then return true end
    end
  end
  return false
end

-- [interpretation] A stack of the Francqueville variant (R-g2) may hold several units of the unit
-- string a support names ("A VIE" twice): the support goes to the first of them whose action it
-- matches -- a support to hold to one that stays (R-g3 counts "supports to hold given to any unit
-- that stays"), a support to move to the one making that move -- else to the first. These two
-- look past unit t (the first unit of that type in its province) for such a unit; nil if none.
-- (Only called where t has a stack successor: standard play never gets here.)
local function stack_hold_target(U, kind, nxt, t)
  local j = nxt[t]
  while j do
    if U[j].type == U[t].type and kind[j] ~= "M" then return j end
    j = nxt[j]
  end
  return nil
end

local function stack_move_target(U, kind, dprov, dest, nxt, i, t)
  local j = nxt[t]
  while j do
    if U[j].type == U[t].type and kind[j] == "M" and dprov[j] == dprov[i]
      and not (U[j].type == "F" and dest[i] ~= dprov[i] and dest[j] ~= dest[i]) then
      return j
    end
    j = nxt[j]
  end
  return nil
end

-- Build the movement context: validated orders and the indexes the resolver needs.
local function build_ctx(rules, cm, position, orders, S)
  S = S or new_scratch()
  local U, at, nxt, lists, powers = load_units(cm, position, S)
  local ord = S.ord
  local extra = {}
  local n = #U
  local kind = S.kind
  local void, dest, dprov, target, convoyed = S.void, S.dest, S.dprov, S.target, S.convoyed
  local moves, others, voids = S.moves, S.others, S.voids
  local nm, no, nvoid = 0, 0, 0
  local cprov = cm.prov
  local wrong_coast -- units whose void order was written with a coast they are not on (6.B.11)
  local fleets -- the fleets at sea, listed when a convoy is in question
  local cache = cm.order_cache
  local parse = orders_mod.parse
  -- orders to units (assign_orders) and, as each is given to its unit, what it says on its own
  -- (pass 1: static facts memoised on the order). load_units set every kind to "H". The lists of
  -- moves, supports / convoys and voids come out in the order of the orders and are sorted into
  -- unit order afterwards (the order the resolution and the hooks see them in).
  for p, list in pairs(orders or EMPTY) do
    for q = 1, #list do
      local raw = list[q]
      local o = cache[raw] or parse(cm, raw)
      local i = at[o.uprov] -- (nil for a void order without unit: at[nil] is nil)
      local ut = o.utype
      local u
      while i do
        u = U[i]
        if u.power == p and u.type == ut and not ord[i] then break end
        i = nxt[i]
      end
      if i then
        ord[i] = o
        local kc = o.kc -- H 0, M 1, SH 2, SM 3, C 4, any other kind 5
        if kc ~= 0 then -- (a hold has nothing to check)
          if kc < 5 then
            local fx
            if u.loc == o.uloc then
              fx = o.fx
              if not fx then fx = order_facts(cm, o, u.type, u.loc, u.prov); o.fx = fx end
            else
              fx = order_facts(cm, o, u.type, u.loc, u.prov)
            end
            local ok = false
            if kc == 1 then
              dest[i] = fx.dest
              -- a move that needs a convoy is illegal when no chain of fleets could carry it (6.D.32)
              local possible = fx.ok
              if possible and fx.conv and not one_fleet_chain(cm, at, U, u.prov, fx.dprov) then
                fleets = fleets or sea_fleets(cm, U)
                possible = chain_exists(cm, U, fleets, u.prov, fx.dprov)
              end
              if possible then
                ok = true
                dprov[i] = fx.dprov
                if fx.conv then convoyed[i] = true end
                nm = nm + 1
                moves[nm] = i
              end
            else
              -- (first_unit_at, inlined for the usual single unit of the right type)
              local t = fx.ok and at[o.tprov]
              if t then
                local tt = o.ttype
                if tt and U[t].type ~= tt then t = first_unit_at(U, at, nxt, o.tprov, tt) end
              end
              if kc == 4 then
                if t and U[t].type == "A" then
                  ok = true
                  target[i] = t
                  dprov[i] = o.dprov
                  no = no + 1
                  others[no] = i
                end
              elseif t and t ~= i then
                ok = true
                target[i] = t
                if kc == 3 then dprov[i] = o.dprov; dest[i] = o.dest end
                no = no + 1
                others[no] = i
              end
            end
            if ok then
              kind[i] = o.kind
            elseif u.loc ~= o.uloc then
              -- a void order written with a coast the unit is not on is an order for a unit that
              -- is not on the board (6.B.11): reported under the written unit (below, in unit
              -- order); the real unit holds.
              wrong_coast = wrong_coast or {}
              wrong_coast[#wrong_coast + 1] = i
            else
              void[i] = true
              nvoid = nvoid + 1
              voids[nvoid] = i
            end
          else
            -- (a kind that has no place in a movement phase: void)
            if u.loc ~= o.uloc then
              wrong_coast = wrong_coast or {}
              wrong_coast[#wrong_coast + 1] = i
            else
              void[i] = true
              nvoid = nvoid + 1
              voids[nvoid] = i
            end
          end
        end
      else
        local e = extra[p]
        if not e then e = {}; extra[p] = e end
        local ustr = (o.utype and o.uloc) and (o.utype .. " " .. o.uloc) or tostring(raw)
        e[#e + 1] = { power = p, order = tostring(raw), unit = ustr, flags = flags_of("void"), seq = q }
      end
    end
  end
  -- (moves in unit order: the order they are resolved in and hooks see them in. Supports and
  -- convoys may stay in the order of the orders: what depends on their order, the lists of a
  -- unit's supporters and convoying fleets, is kept in unit order below; the voids' order does not
  -- matter)
  if nm > 1 then sort(moves) end
  if wrong_coast then
    sort(wrong_coast)
    for q = 1, #wrong_coast do
      local i = wrong_coast[q]
      local o, p = ord[i], U[i].power
      local e = extra[p]
      if not e then e = {}; extra[p] = e end
      e[#e + 1] = { power = p, order = o.raw, unit = o.utype .. " " .. o.uloc, flags = flags_of("void"), seq = 0 }
      ord[i] = false
    end
  end
  -- pass 2: supports and convoys must match what the supported / convoyed unit does
  local convoyers, move_sup, hold_sup = {}, {}, {}
  local nohelp = nil
  for q = 1, #others do
    local i = others[q]
    local k = kind[i]
    local t = target[i]
    if k == "SH" then
      if kind[t] == "M" and nxt[t] then
        local j = stack_hold_target(U, kind, nxt, t)
        if j then t = j; target[i] = j end
      end
      if kind[t] == "M" then
        kind[i] = "H"; void[i] = true
      else
        local l = hold_sup[t]
        if l then insert_in_order(l, i) else hold_sup[t] = { i } end
      end
    elseif k == "SM" then
      local ok = kind[t] == "M" and dprov[t] == dprov[i]
      if ok and U[t].type == "F" and dest[i] ~= dprov[i] and dest[t] ~= dest[i] then ok = false end
      if not ok and nxt[t] then
        local j = stack_move_target(U, kind, dprov, dest, nxt, i, t)
        if j then t = j; target[i] = j; ok = true end
      end
      if not ok then
        kind[i] = "H"; void[i] = true; dprov[i] = false
      else
        local l = move_sup[t]
        if l then insert_in_order(l, i) else move_sup[t] = { i } end
        -- (a support onto a unit of the supporter's own power: its flag needs a closer look)
        local d = at[dprov[i]]
        if d and d ~= t and U[d].power == U[i].power then
          nohelp = nohelp or {}
          nohelp[i] = true
        end
      end
    elseif k == "C" then
      -- (a convoy order that no chain of fleets could use is illegal: 6.G.7; a fleet next to both
      -- ends is a chain by itself, the usual case, which needs no search)
      local ok = kind[t] == "M" and dprov[t] == dprov[i]
      if ok then
        local src, dst = U[t].prov, dprov[i]
        local adj = cm.fleet_prov_adj[U[i].loc]
        if not (adj[src] and adj[dst]) then
          fleets = fleets or sea_fleets(cm, U)
          ok = on_chain(cm, U, fleets, i, src, dst)
        end
      end
      if ok then
        local l = convoyers[t]
        if l then insert_in_order(l, i) else convoyers[t] = { i } end
      else
        kind[i] = "H"; void[i] = true; dprov[i] = false
      end
    end
  end
  -- convoy intent: an adjacent army is convoyed when a fleet of its own power convoys it
  for t, l in pairs(convoyers) do
    if not convoyed[t] and cprov[U[t].prov].type == "coast" and cprov[dprov[t]].type == "coast" then
      for m = 1, #l do
        local f = l[m]
        if U[f].power == U[t].power then convoyed[t] = true; break end
      end
    end
  end
  -- an army next to its destination by land that asks for a convoy (VIA, or a fleet of its own
  -- power convoys it) goes by convoy only when the fleets ordered to convoy it make a whole chain;
  -- else it moves over land (DATC 4.A.3 d, the 1982/2000 rulebook: "via convoy" has a meaning
  -- only where there are both a land route and a convoy route; 6.G.8)
  for k = 1, nm do
    local t = moves[k]
    if convoyed[t] and U[t].type == "A" and cm.army_adj[U[t].prov][dprov[t]] then
      local l = convoyers[t]
      if not (l and chain_exists(cm, U, l, U[t].prov, dprov[t])) then convoyed[t] = false end
    end
  end
  -- indexes
  local moves_to, h2h = {}, S.h2h
  for k = 1, #moves do
    local i = moves[k]
    local d = dprov[i]
    local l = moves_to[d]
    if l then l[#l + 1] = i else moves_to[d] = { i } end
    if not convoyed[i] then
      local o = at[d]
      local src = U[i].prov
      while o do
        if kind[o] == "M" and not convoyed[o] and dprov[o] == src then h2h[i] = o; break end
        o = nxt[o]
      end
    end
  end
  -- internal indexes live on the scratch record S (ctx.scratch), so that ctx keeps to the fields
  -- hooks use (documented in docs/diplomacy.md) and stays a small table
  S.ord, S.extra, S.lists, S.powers = ord, extra, lists, powers
  S.convoyers, S.moves_to, S.move_sup, S.hold_sup = convoyers, moves_to, move_sup, hold_sup
  S.nohelp = nohelp
  S.plain = nm == 0 and no == 0 and nvoid == 0 -- every unit holds (unordered or validly)
  S.contested = nil
  return {
    rules = rules, cm = cm, position = position, orders = orders, scratch = S,
    U = U, at = at, nxt = nxt, n = n, moves = moves,
    kind = kind, void = void, dest = dest, dprov = dprov, target = target, convoyed = convoyed,
    -- filled in later (listed so that the table is sized once, not rehashed as they arrive)
    res = nil, paradox = nil, path_ok = nil, moved = nil, dislodged_by = nil, removed = nil,
    flags = nil, extra_next = nil,
  }
end
M.build_ctx = build_ctx

-- Resolve every order of ctx (fills ctx.res, ctx.paradox, ctx.path).
local function always_true() return true end
local function no_strength() return 0 end

local function resolve_all(ctx)
  if #ctx.moves == 0 then
    -- no move at all (e.g. everybody holds): nothing is cut, dislodged or convoyed (a valid convoy
    -- needs a move), so every valid support succeeds and no resolution is needed
    local res, kind, others = ctx.scratch.res, ctx.kind, ctx.scratch.others
    for k = 1, #others do
      local i = others[k]
      if kind[i] ~= "H" then res[i] = true end
    end
    ctx.res, ctx.paradox, ctx.path_ok = res, ctx.scratch.paradox, always_true
    ctx.scratch.prevent_strength = no_strength
    return
  end
  local cm, U, at, nxt, n = ctx.cm, ctx.U, ctx.at, ctx.nxt, ctx.n
  local kind, dprov, target, convoyed = ctx.kind, ctx.dprov, ctx.target, ctx.convoyed
  local convoyers, moves_to, move_sup, hold_sup, h2h =
    ctx.scratch.convoyers, ctx.scratch.moves_to, ctx.scratch.move_sup, ctx.scratch.hold_sup, ctx.scratch.h2h
  local fpa = cm.fleet_prov_adj
  local S = ctx.scratch
  local state, res, paradox = S.state, S.res, S.paradox
  local deps, ndeps = {}, 0
  local resolve

  local function path_ok(i)
    if not convoyed[i] then return true end
    if paradox[i] then return false end
    local fl = convoyers[i]
    if not fl then return false end
    local src, dst = U[i].prov, dprov[i]
    local nf = #fl
    if nf == 1 then
      -- one fleet: the search below without its tables (same resolve calls, same answer)
      local adj = fpa[U[fl[1]].loc]
      if adj[src] and resolve(fl[1]) and adj[dst] then return true end
      return false
    end
    local seen, queue, qn = {}, {}, 0
    for k = 1, nf do
      local f = fl[k]
      if fpa[U[f].loc][src] and resolve(f) then
        seen[f] = true; qn = qn + 1; queue[qn] = f
      end
    end
    local qi = 1
    while qi <= qn do
      local f = queue[qi]
      qi = qi + 1
      local adj = fpa[U[f].loc]
      if adj[dst] then return true end
      for k = 1, nf do
        local g = fl[k]
        if not seen[g] and adj[U[g].prov] and resolve(g) then
          seen[g] = true; qn = qn + 1; queue[qn] = g
        end
      end
    end
    return false
  end

  local function count_sup(list, except_power)
    if not list then return 0 end
    local c = 0
    for k = 1, #list do
      local s = list[k]
      -- (state 2 = resolved: read the resolution without the call)
      if U[s].power ~= except_power then
        if state[s] == 2 then
          if res[s] then c = c + 1 end
        elseif resolve(s) then
          c = c + 1
        end
      end
    end
    return c
  end

  local function hold_strength(p)
    local o = at[p]
    if not o then return 0 end
    local stays, sup = false, 0
    while o do
      if kind[o] == "M" then
        if state[o] == 2 then
          if not res[o] then stays = true end
        elseif not resolve(o) then
          stays = true
        end
      else
        stays = true
        sup = sup + count_sup(hold_sup[o])
      end
      o = nxt[o]
    end
    return stays and 1 + sup or 0
  end

  local function attack_strength(i)
    local o = at[dprov[i]]
    local defender
    while o do
      if not (kind[o] == "M" and h2h[i] ~= o and resolve(o)) then defender = U[o].power; break end
      o = nxt[o]
    end
    if not defender then return 1 + count_sup(move_sup[i]) end
    if defender == U[i].power then return 0 end
    return 1 + count_sup(move_sup[i], defender)
  end

  local function prevent_strength(j)
    if convoyed[j] and not path_ok(j) then return 0 end
    local h = h2h[j]
    if h and resolve(h) then return 0 end
    return 1 + count_sup(move_sup[j])
  end

  local function adjudicate(i)
    local k = kind[i]
    if k == "M" then
      if convoyed[i] and not path_ok(i) then return false end
      local d = dprov[i]
      local att = attack_strength(i)
      local h = h2h[i]
      if h then
        if att <= 1 + count_sup(move_sup[h]) then return false end
      elseif att <= hold_strength(d) then
        return false
      end
      local mt = moves_to[d]
      for m = 1, #mt do
        local j = mt[m]
        if j ~= i and att <= prevent_strength(j) then return false end
      end
      return true
    end
    local mt = moves_to[U[i].prov]
    if not mt then return true end
    if k ~= "C" then
      -- support: cut by any attack of another power with a path, except from the province the
      -- supported move goes to (that one must dislodge the supporter)
      local me = U[i].power
      local sd = k == "SM" and dprov[i] or nil
      for m = 1, #mt do
        local j = mt[m]
        if U[j].power ~= me and U[j].prov ~= sd and (not convoyed[j] or path_ok(j)) then return false end
      end
    end
    for m = 1, #mt do
      local j = mt[m]
      if state[j] == 2 then
        if res[j] then return false end
      elseif resolve(j) then
        return false
      end
    end
    return true
  end

  local function backup_rule(old)
    local only_moves = true
    for k = old + 1, ndeps do
      if kind[deps[k]] ~= "M" then only_moves = false; break end
    end
    if only_moves then
      -- circular movement: every move of the cycle succeeds
      for k = old + 1, ndeps do
        local j = deps[k]
        res[j] = true; state[j] = 2
      end
    else
      -- convoy paradox (Szykman): the convoyed armies of the cycle do not move
      local marked = false
      for k = old + 1, ndeps do
        local j = deps[k]
        local a
        if kind[j] == "C" then a = target[j] elseif kind[j] == "M" and convoyed[j] then a = j end
        if a then paradox[a] = true; marked = true end
      end
      for k = old + 1, ndeps do state[deps[k]] = false end
      if not marked then
        for k = old + 1, ndeps do
          local j = deps[k]
          res[j] = false; state[j] = 2
        end
      end
    end
    for k = ndeps, old + 1, -1 do deps[k] = nil end
    ndeps = old
  end

  -- The lowest place in `deps` of a guess read since the current `resolve` frame began (frames
  -- save and restore it). Kruijswijk's check that an order's result depends on no guess (no order
  -- added to `deps`) misses a guess read that is in `deps` already, from an enclosing cycle: such
  -- an order must stay a guess too, or it keeps a result found under a guess that the enclosing
  -- cycle may then revise (an army convoyed through a fleet whose hold is supported by the unit
  -- it attacks, that fleet attacked: its move was left failed although the convoy succeeds).
  local lowest_read = HUGE
  -- Likewise for the guesses of orders still being resolved by an enclosing frame (not yet in
  -- `deps`): while i's `resolve` frame runs, state[i] is its depth + 2 (1 is a guess whose frame
  -- is done, 2 a result), and lowest_frame the lowest such depth read since the current frame
  -- began. A frame that read one below its own depth is
  -- part of a cycle that closes outside it: its order stays a guess, however its two guesses
  -- turn out, and the enclosing frame settles the cycle (Kruijswijk's test, "the first order
  -- added to the list is this one", takes such a frame for the head of the cycle, settles it when
  -- both guesses agree and erases the enclosing order from the list, which that order's frame
  -- then reads as "depends on no guess": a convoyed army's cut of a support against its own
  -- convoying fleet was kept while its convoy failed).
  local depth, lowest_frame = 0, HUGE

  -- `i` (resolved as r under guesses read from enclosing frames) joins the dependency list
  local function stays_a_guess(i, r, saved, saved_frame)
    local present = false
    for k = ndeps, 1, -1 do
      if deps[k] == i then present = true; break end
    end
    if not present then
      ndeps = ndeps + 1
      deps[ndeps] = i
    end
    res[i] = r
    state[i] = 1
    if saved < lowest_read then lowest_read = saved end
    if saved_frame < lowest_frame then lowest_frame = saved_frame end
    depth = depth - 1
    return r
  end

  resolve = function(i)
    local st = state[i]
    if st == 2 then return res[i] end
    if st then
      if st > 2 and st - 2 < lowest_frame then lowest_frame = st - 2 end
      for k = 1, ndeps do
        if deps[k] == i then
          if k < lowest_read then lowest_read = k end
          return res[i]
        end
      end
      ndeps = ndeps + 1
      deps[ndeps] = i
      if ndeps < lowest_read then lowest_read = ndeps end
      return res[i]
    end
    local old = ndeps
    local saved, saved_frame = lowest_read, lowest_frame
    lowest_read, lowest_frame = HUGE, HUGE
    depth = depth + 1
    local d = depth
    res[i] = false
    state[i] = d + 2
    local r1 = adjudicate(i)
    local outer = lowest_read <= old or lowest_frame < d
    if ndeps == old then
      if state[i] == 2 then
        if saved < lowest_read then lowest_read = saved end
        if saved_frame < lowest_frame then lowest_frame = saved_frame end
        depth = d - 1
        return res[i]
      end
      if outer then return stays_a_guess(i, r1, saved, saved_frame) end
      res[i] = r1
      state[i] = 2
      lowest_read, lowest_frame = saved, saved_frame
      depth = d - 1
      return r1
    end
    -- (a cycle: this frame heads it unless it reaches outside, through an enclosing guess)
    if outer then return stays_a_guess(i, r1, saved, saved_frame) end
    while ndeps > old do
      state[deps[ndeps]] = false; deps[ndeps] = nil; ndeps = ndeps - 1
    end
    res[i] = true
    state[i] = d + 2
    local r2 = adjudicate(i)
    if lowest_read <= old or lowest_frame < d then return stays_a_guess(i, r2, saved, saved_frame) end
    depth = d - 1
    if r1 == r2 then
      while ndeps > old do
        state[deps[ndeps]] = false; deps[ndeps] = nil; ndeps = ndeps - 1
      end
      res[i] = r1
      state[i] = 2
      lowest_read, lowest_frame = saved, saved_frame
      return r1
    end
    lowest_read, lowest_frame = saved, saved_frame
    backup_rule(old)
    return resolve(i)
  end

  local moves, others = ctx.moves, S.others
  -- a support or convoy that no move attacks succeeds, whatever else happens (what adjudicate
  -- would find at once): resolved before any move asks for it
  for k = 1, #others do
    local i = others[k]
    if kind[i] ~= "H" and not moves_to[U[i].prov] then res[i] = true; state[i] = 2 end
  end
  for k = 1, #moves do resolve(moves[k]) end
  for k = 1, #others do
    local i = others[k]
    if state[i] ~= 2 and kind[i] ~= "H" then resolve(i) end
  end
  ctx.res = res
  ctx.paradox = paradox
  -- (the answers are settled now: each is worked out once, for the flags and the retreats)
  local settled = {}
  ctx.path_ok = function(i)
    local ok = settled[i]
    if ok == nil then ok = path_ok(i); settled[i] = ok end
    return ok
  end
  S.prevent_strength = prevent_strength
end
M.resolve_all = resolve_all

-- Outcome of the resolution: moved[i], dislodged_by[i] (index of the dislodging move),
-- contested[prov] (a standoff left it empty), flags per unit.
local function outcome(ctx)
  local U, at, nxt, res, dprov = ctx.U, ctx.at, ctx.nxt, ctx.res, ctx.dprov
  local S = ctx.scratch
  local moved, dislodged_by = S.moved, S.dislodged_by
  local down, nd = {}, 0 -- the dislodged units, in unit order
  local any_moved = false
  local moves = ctx.moves
  for k = 1, #moves do
    local i = moves[k]
    if res[i] then moved[i] = true; any_moved = true end
  end
  if any_moved then
    for k = 1, #moves do
      local j = moves[k]
      if res[j] then
        local o = at[dprov[j]]
        while o do
          if not moved[o] then
            dislodged_by[o] = j
            nd = nd + 1
            down[nd] = o
          end
          o = nxt[o]
        end
      end
    end
    if nd > 1 then sort(down) end
  end
  ctx.moved, ctx.dislodged_by = moved, dislodged_by
  S.any_dislodged, S.any_moved, S.down = nd > 0, any_moved, down
  S.contested = nil -- computed lazily (only retreats need it)
end

local function contested(ctx)
  local S = ctx.scratch
  if S.contested then return S.contested end
  local c = {}
  local res, prevent = ctx.res, S.prevent_strength
  for p, mt in pairs(S.moves_to) do
    local won = false
    for m = 1, #mt do
      if res[mt[m]] then won = true; break end
    end
    if not won then
      for m = 1, #mt do
        if prevent(mt[m]) > 0 then c[p] = true; break end
      end
    end
  end
  S.contested = c
  return c
end
M.contested = contested

local NOFLAGS = flags_of(nil)
-- the shared flag lists by order flag, without / with "dislodged" (the very tables flags_of returns)
local FLAGS_UP, FLAGS_DOWN = { [""] = NOFLAGS }, { [""] = flags_of("dislodged") }
for _, a in ipairs({ "void", "disrupted", "no convoy", "bounce", "cut" }) do
  FLAGS_UP[a] = flags_of(a)
  FLAGS_DOWN[a] = flags_of(a, "dislodged")
end

local FL_VOID, FL_NOCONVOY, FL_BOUNCE = FLAGS_UP.void, FLAGS_UP["no convoy"], FLAGS_UP.bounce
local DOWN_OF = {} -- flag list -> the same with "dislodged"
for a, f in pairs(FLAGS_UP) do DOWN_OF[f] = FLAGS_DOWN[a] end

-- The flags follow the reference engine's wording (the DATC names outcomes, not flags), so that
-- results read alike in both: a convoyed move that fails for want of a convoy (no whole chain of
-- its convoying fleets held, or the Szykman rule) is `no convoy`, and so are the supports it was
-- given (not cut) and its convoying fleets, but for a fleet whose dislodgement (or, in a paradox,
-- attack) broke the convoy, which is `disrupted`; a convoy order for an army that goes by land,
-- or by a fleet on no chain of the fleets ordered to convoy it, is `no convoy` (6.G.2, 6.G.6); a
-- support that could not count is `void`: for a convoyed move no fleet was ordered to carry
-- (6.D.31), or for a move against the supporter's own unit that stays (see no_help_void).

-- did the convoyed move t fail for want of a convoy?
local function convoy_failed(ctx, t)
  return ctx.convoyed[t] and not ctx.res[t] and (ctx.paradox[t] or not ctx.path_ok(t))
end

local spared_by_convoy

-- the supports in a list that were not cut (as the flags tell it: spared_by_convoy)
local function kept(ctx, list)
  if not list then return 0 end
  local res, down, c = ctx.res, ctx.dislodged_by, 0
  for k = 1, #list do
    local s = list[k]
    if res[s] or (not down[s] and spared_by_convoy(ctx, s)) then c = c + 1 end
  end
  return c
end

-- A support i of move t onto the province of a unit of i's own power, which it cannot help to
-- dislodge (DATC 6.D.10-6.D.14, 6.D.19, 6.E.2-6.E.10): void when the two meet head to head, or
-- when that unit stays and move t, counted with every support it kept, was the strongest there
-- (the move then fails for want of that support, or succeeds without it); not when the unit
-- leaves, or another unit there was at least as strong.
local function no_help_void(ctx, i, t)
  local S, kind, res = ctx.scratch, ctx.kind, ctx.res
  -- (build_ctx marks the supports onto a unit of the supporter's own power)
  if not (S.nohelp and S.nohelp[i]) then return false end
  local d = ctx.at[ctx.dprov[t]]
  if S.h2h[t] == d then return true end
  if kind[d] == "M" and res[d] then return false end
  local full = 1 + kept(ctx, S.move_sup[t])
  local hold = kind[d] == "M" and 1 or 1 + kept(ctx, S.hold_sup[d])
  if hold >= full then return false end
  local others = S.moves_to[ctx.dprov[t]]
  for k = 1, #others do
    local j = others[k]
    if j ~= t and not convoy_failed(ctx, j) and 1 + kept(ctx, S.move_sup[j]) >= full then return false end
  end
  return true
end

-- Was support i, cut in the resolution, cut only by convoyed armies that could not have cut it in
-- the reference's reading (its "exception C": a convoyed army does not cut a support for or
-- against a fleet that convoys it on every route)? The resolution needs no such rule -- where
-- that cut would decide anything it makes a paradox, which the Szykman rule settles the same way
-- -- so the cut changed nothing, and the flag says what the reference says: not cut.
function spared_by_convoy(ctx, i)
  local S, U, kind = ctx.scratch, ctx.U, ctx.kind
  local attackers = S.moves_to[U[i].prov]
  if not attackers then return false end
  local t = ctx.target[i]
  local aim = kind[i] == "SM" and ctx.dprov[i] or U[t].prov
  local f = ctx.at[aim]
  for k = 1, #attackers do
    local j = attackers[k]
    if U[j].power ~= U[i].power and not (kind[i] == "SM" and U[j].prov == ctx.dprov[i]) then
      if not ctx.convoyed[j] then return false end
      if not convoy_failed(ctx, j) then
        -- (a convoyed army that got through: spared only by a fleet on every route)
        local l = S.convoyers[j]
        if not (f and kind[f] == "C" and ctx.target[f] == j) then return false end
        local others = {}
        for q = 1, #l do
          if l[q] ~= f then others[#others + 1] = l[q] end
        end
        if chain_exists(ctx.cm, U, others, U[j].prov, ctx.dprov[j]) then return false end
      end
    end
  end
  return true
end

local function support_flag(ctx, i)
  local t = ctx.target[i]
  if ctx.kind[i] == "SM" and convoy_failed(ctx, t) then
    local l = ctx.scratch.convoyers[t]
    local U = ctx.U
    if not (l and chain_exists(ctx.cm, U, l, U[t].prov, ctx.dprov[t])) then return "void" end
    if ctx.res[i] then return "no convoy" end
  end
  if not ctx.res[i] and (ctx.dislodged_by[i] or not spared_by_convoy(ctx, i)) then return "cut" end
  if ctx.kind[i] == "SM" and no_help_void(ctx, i, t) then return "void" end
  return ""
end

local function convoy_flag(ctx, i)
  local t = ctx.target[i]
  if not ctx.convoyed[t] then return "no convoy" end
  local U, cm = ctx.U, ctx.cm
  local src, dst = U[t].prov, ctx.dprov[t]
  local adj = cm.fleet_prov_adj[U[i].loc]
  local l = ctx.scratch.convoyers[t]
  if not (adj[src] and adj[dst]) and not on_chain(cm, U, l, i, src, dst) then return "no convoy" end
  if not convoy_failed(ctx, t) then return "" end
  if ctx.dislodged_by[i] then return "disrupted" end
  if ctx.paradox[t] then
    -- attacked by another power: the attack the paradox rule set aside
    local moves = ctx.scratch.moves_to[U[i].prov]
    for k = 1, moves and #moves or 0 do
      if U[moves[k]].power ~= U[i].power then return "disrupted" end
    end
  end
  return "no convoy"
end

local function move_flag(ctx, i)
  if ctx.res[i] then return "" end
  if ctx.convoyed[i] and (ctx.paradox[i] or not ctx.path_ok(i)) then return "no convoy" end
  return "bounce"
end

-- the flag of unit i's order ("" when it succeeded or held)
local function order_flag(ctx, i)
  if ctx.void[i] then return "void" end
  local k = ctx.kind[i]
  if k == "M" then return move_flag(ctx, i) end
  if k == "SH" or k == "SM" then return support_flag(ctx, i) end
  if k == "C" then return convoy_flag(ctx, i) end
  return ""
end

local function unit_flags(ctx, i)
  local a = order_flag(ctx, i)
  if ctx.dislodged_by[i] then return FLAGS_DOWN[a] end
  return FLAGS_UP[a]
end

-- memoised result entry {power, order, unit, flags} (immutable; shared between calls)
local ENTRY_MEMO_MAX = 64
local function entry_for(u, raw, flags)
  local byraw = u.entries
  local key = raw or ""
  local t = byraw[key]
  if not t then
    -- (bounded: a unit's memo of order texts is emptied when it holds ENTRY_MEMO_MAX of them)
    local ne = (u.nentries or 0) + 1
    if ne > ENTRY_MEMO_MAX then
      byraw = {}
      u.entries = byraw
      ne = 1
    end
    u.nentries = ne
    t = {}
    byraw[key] = t
  end
  local e = t[flags]
  if not e then
    e = { power = u.power, order = raw or u.hold, unit = u.str, flags = flags }
    t[flags] = e
  end
  return e
end
M.entry_for = entry_for
M.unit_flags = unit_flags

-- the unit string of unit i after the moves
local function unit_after(ctx, i)
  local u = ctx.U[i]
  if ctx.moved[i] then
    local d = ctx.dest[i]
    return ctx.cm.unit_str[u.type][d] or (u.type .. " " .. d)
  end
  return u.str
end
M.unit_after = unit_after

----------------------------------------------------------------------------------------------------
-- standard retreat hooks

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

-- standard options: adjacent (without convoy), not occupied after the moves, not the attacker's
-- province (unless it came by convoy, 6.H.11), not left empty by a standoff (6.H.6, 6.H.16)
function M.retreat_options(rules, ctx, rec)
  local cm = ctx.cm
  local u = ctx.U[rec.i]
  local out, no = {}, 0
  local by, conv = rec.by, rec.conv
  local loc_prov, cprov = cm.loc_prov, cm.prov
  local S = ctx.scratch
  local moves_to, res = S.moves_to, ctx.res
  local targets = map.move_targets(cm, u.type, u.loc)
  for k = 1, #targets do
    local loc = targets[k]
    local p = loc_prov[loc]
    if (p ~= by or conv) and cprov[p].type ~= "impassable" and not occupied_after(ctx, p) then
      -- contested (a standoff left it empty), for this province only: no move there succeeded
      -- and one had some strength
      local mt = moves_to[p]
      local cont = false
      if mt then
        local won = false
        for m = 1, #mt do
          if res[mt[m]] then won = true; break end
        end
        if not won then
          local prevent = S.prevent_strength
          for m = 1, #mt do
            if prevent(mt[m]) > 0 then cont = true; break end
          end
        end
      end
      if not cont then
        no = no + 1
        out[no] = loc
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

----------------------------------------------------------------------------------------------------
-- movement phase

local function dislodged_less(a, b)
  if a.power ~= b.power then return a.power < b.power end
  return a.unit < b.unit
end

-- is the list strictly in dislodged_less order (then sorting it would leave it as it is; equal
-- neighbours are left to the sort, which may swap them)
local function dislodged_in_order(l)
  for k = 2, #l do
    local a, b = l[k - 1], l[k]
    local pa, pb = a.power, b.power
    if pa > pb or (pa == pb and a.unit >= b.unit) then return false end
  end
  return true
end

function M.movement(rules, cm, position, orders)
  local S = take_scratch(cm)
  local ctx = build_ctx(rules, cm, position, orders, S)
  resolve_all(ctx)
  outcome(ctx)
  local U, n = ctx.U, ctx.n
  local removed = {}
  ctx.removed = removed
  rules.after_movement(rules, ctx)
  local dislodged_by, moved, dprov = ctx.dislodged_by, ctx.moved, ctx.dprov
  local recs, kept, gone = EMPTY, EMPTY, EMPTY
  local retreating = EMPTY
  if S.any_dislodged or rules.retreating_units ~= M.retreating_units then
    recs = rules.retreating_units(rules, ctx)
    retreating = {}
    for k = 1, #recs do
      local r = recs[k]
      r.retreats = rules.retreat_options(rules, ctx, r)
      retreating[r.i] = r
    end
    kept, gone = rules.settle_retreats(rules, ctx, recs)
  end
  -- results, grouped by power (U is in power order, sorted by unit within a power)
  local results, rn
  local ord, cflags = S.ord, ctx.flags
  local kind, void = ctx.kind, ctx.void
  local extra = S.extra
  local units
  local pos_units = position.units or EMPTY
  local i = 1
  local powers = S.powers
  local has_extra = next(extra) ~= nil
  -- does any power's unit list change? (else every list is reused as it came)
  local any_change = S.any_moved or retreating ~= EMPTY or next(removed) ~= nil
  if has_extra then
    results, rn = {}, 0
    -- some orders named no unit: each power's entries are merged with them and re-sorted
    for _, p in ipairs(powers) do
      local e = extra[p]
      if e then
        local l = {}
        while i <= n and U[i].power == p do
          local u = U[i]
          l[#l + 1] = entry_for(u, ord[i] and ord[i].raw, cflags and cflags[i] or unit_flags(ctx, i))
          i = i + 1
        end
        for k = 1, #e do l[#l + 1] = e[k] end
        push_sorted(cm, results, l)
        rn = #results
      else
        while i <= n and U[i].power == p do
          local u = U[i]
          rn = rn + 1
          results[rn] = entry_for(u, ord[i] and ord[i].raw, cflags and cflags[i] or unit_flags(ctx, i))
          i = i + 1
        end
      end
    end
  else
    -- U is already in result order. Flags: a unit that holds unordered or validly, is not void
    -- and not dislodged has none (with no move, no support and no void order: every unit)
    -- (the list made at its full size at once: filled one by one it would be re-allocated as it grows)
    results = { unpack(U, 1, n) }
    -- the flags of the few units that have any, found from the lists of moves, supports / convoys,
    -- void orders and dislodged units (unit_flags, list by list)
    local down = S.down
    local fl = S.fl
    if not S.plain then
      local res, paradox, path_ok = ctx.res, ctx.paradox, ctx.path_ok
      local moves, others, voids = ctx.moves, S.others, S.voids
      local convoyed, target, dprov, at, U = ctx.convoyed, ctx.target, ctx.dprov, ctx.at, ctx.U
      local dislodged_by, moves_to, fpa = ctx.dislodged_by, S.moves_to, ctx.cm.fleet_prov_adj
      for k = 1, #moves do
        local j = moves[k]
        if not res[j] then
          fl[j] = convoyed[j] and (paradox[j] or not path_ok(j)) and FL_NOCONVOY or FL_BOUNCE
        end
      end
      -- (order_flag, with the usual orders worked out here without a call: a support uncut and
      -- not onto the supporter's own unit, or cut by no convoyed army, for a move that did not
      -- fail for want of a convoy; a convoy by a fleet next to both ends that did not fail)
      local nohelp = S.nohelp
      local function cut_or_nil(j)
        if dislodged_by[j] then return "cut" end
        local att = moves_to[U[j].prov]
        for q = 1, att and #att or 0 do
          if convoyed[att[q]] then return nil end
        end
        return "cut"
      end
      for k = 1, #others do
        local j = others[k]
        local kj = kind[j]
        local a = nil
        if kj == "SH" then
          if res[j] then a = "" else a = cut_or_nil(j) end
        elseif kj == "SM" then
          local t = target[j]
          if not convoyed[t] or res[t] or not (paradox[t] or not path_ok(t)) then
            if not res[j] then
              a = cut_or_nil(j)
            elseif not (nohelp and nohelp[j]) then
              a = ""
            end
          end
        elseif kj == "C" then
          -- (a fleet next to both ends, of a convoy that did not fail: nothing to say)
          local t = target[j]
          if convoyed[t] and (res[t] or not (paradox[t] or not path_ok(t))) then
            local adj = fpa[U[j].loc]
            if adj[U[t].prov] and adj[dprov[t]] then a = "" end
          end
        end
        if a == nil then a = order_flag(ctx, j) end
        if a ~= "" then fl[j] = FLAGS_UP[a] end
      end
      for k = 1, #voids do fl[voids[k]] = FL_VOID end
    end
    for k = 1, #down do
      local j = down[k]
      fl[j] = DOWN_OF[fl[j] or NOFLAGS]
    end
    -- memoised entries (entry_for, inlined)
    if cflags then
      for i = 1, n do
        local u, o = U[i], ord[i]
        local f = cflags[i] or fl[i] or NOFLAGS
        local byraw = u.entries[o and o.raw or ""]
        local en = byraw and byraw[f]
        if not en then en = entry_for(u, o and o.raw, f) end
        results[i] = en
      end
    else
      -- (the occupancy table is emptied on the way: nothing reads it after the hooks)
      local at = ctx.at
      for i = 1, n do
        local o, u = ord[i], U[i]
        at[u.prov] = nil
        local byraw = u.entries[o and o.raw or ""]
        local en = byraw and byraw[fl[i] or NOFLAGS]
        if not en then en = entry_for(u, o and o.raw, fl[i] or NOFLAGS) end
        results[i] = en
      end
      S.at_clean = true
    end
  end
  -- the board after the moves: a power's list is reused unless one of its units moved, retreats or
  -- was removed
  units = S.lists
  if units == EMPTY then units = {} end
  if any_change then
    if units == pos_units then
      units = {}
      for p, l in pairs(pos_units) do units[p] = l end
    end
    -- a power whose unit moved, retreats or was removed gets a new list, sorted (by the default
    -- string order: the order of the unit ranks); the others keep theirs
    local changed = {}
    local moves = ctx.moves
    for k = 1, #moves do
      local j = moves[k]
      if moved[j] then changed[U[j].power] = true end
    end
    for k = 1, #recs do changed[U[recs[k].i].power] = true end
    for j in pairs(removed) do changed[U[j].power] = true end
    local unit_str, dest = cm.unit_str, ctx.dest
    local pfirst, plast = S.pfirst, S.plast
    -- the units that leave the board: retreating, and removed by a hook (one table to test)
    local drop = retreating
    if next(removed) then
      drop = {}
      for j in pairs(retreating) do drop[j] = true end
      for j in pairs(removed) do drop[j] = true end
    end
    for pi = 1, #powers do
      local p = powers[pi]
      if changed[p] then
        local nl, nn, resort = {}, 0, false
        for k = pfirst[p], plast[p] do
          if not drop[k] then
            nn = nn + 1
            local u = U[k]
            if moved[k] then
              resort = true
              local d = dest[k]
              nl[nn] = unit_str[u.type][d] or (u.type .. " " .. d)
            else
              nl[nn] = u.str
            end
          end
        end
        if resort then sort(nl) end
        units[p] = nl
      end
    end
  end
  if has_extra then
    -- orders from powers with no unit on the board
    local rest = {}
    for p in pairs(extra) do
      if not pos_units[p] then rest[#rest + 1] = p end
    end
    if #rest > 0 then
      sort(rest)
      local merged = {}
      -- re-merge so the whole list stays sorted by power
      local byp = {}
      for _, e in ipairs(results) do
        local l = byp[e.power]
        if not l then l = {}; byp[e.power] = l end
        l[#l + 1] = e
      end
      for _, p in ipairs(rest) do byp[p] = extra[p] end
      local ps = {}
      for p in pairs(byp) do ps[#ps + 1] = p end
      sort(ps)
      for _, p in ipairs(ps) do push_sorted(cm, merged, byp[p]) end
      results = merged
    end
  end
  local dislodged, dl_out, disbanded = EMPTY, {}, {}
  if #kept > 0 then
    dislodged = {}
    for k = 1, #kept do
      local r = kept[k]
      local u = U[r.i]
      dislodged[#dislodged + 1] = { power = u.power, unit = u.str, by = r.by, retreats = r.retreats }
    end
    if not dislodged_in_order(dislodged) then sort(dislodged, dislodged_less) end
  end
  if #gone > 0 or #kept > 0 then
    for k = 1, #gone do
      local r = gone[k]
      local u = U[r.i]
      disbanded[#disbanded + 1] = u.str
      dl_out[#dl_out + 1] = { power = u.power, unit = u.str, by = r.by, retreats = r.retreats }
    end
    for k = 1, #dislodged do dl_out[#dl_out + 1] = dislodged[k] end
    if not dislodged_in_order(dl_out) then sort(dl_out, dislodged_less) end
  end
  if next(removed) then
    for k = 1, n do
      if removed[k] then disbanded[#disbanded + 1] = U[k].str end
    end
  end
  if #disbanded > 1 then sort(disbanded) end
  local centers = sorted_centers(position.centers)
  local next_pos = { units = units, centers = centers }
  if #dislodged > 0 then next_pos.dislodged = dislodged end
  if ctx.extra_next then
    for k, v in pairs(ctx.extra_next) do next_pos[k] = v end
  end
  local pending = rules.has_retreats(rules, next_pos)
  local nph, ncent = M.next_phase(rules, cm, position.phase, units, centers, pending)
  next_pos.phase = nph
  next_pos.centers = ncent
  if not pending then next_pos.dislodged = nil end
  local w = ncent ~= centers and winner_of(cm, ncent) or position.winner
  if w then next_pos.winner = w end
  local result = {
    phase = position.phase, results = results, units = units, dislodged = dl_out,
    disbanded = disbanded, centers = ncent, next_phase = nph,
  }
  release_scratch(S)
  return result, next_pos, ctx
end

----------------------------------------------------------------------------------------------------
-- retreat phase (standard rule)

-- Retreat orders matched to the dislodged units they name: an order goes to the first dislodged
-- unit of its power, of its type, in its province, not matched yet. Returns `assigned` (index in
-- `dl` -> {raw, o, seq}), `entries` (power -> result entries: those of the orders that name no
-- dislodged unit, flagged `void_flags()`) and `add(power, entry)`, which appends to `entries`.
-- `seq` numbers the orders through the phase, power after power, or within each power's list
-- when `seq_per_power` is set (the Francqueville variant's numbering, which orders its
-- `arrived` list).
function M.assign_retreat_orders(cm, dl, orders, void_flags, seq_per_power)
  local assigned, entries = {}, {}
  local function add(p, e)
    local l = entries[p]
    if not l then l = {}; entries[p] = l end
    l[#l + 1] = e
  end
  local seq = 0
  for _, p in ipairs(powers_of(cm, orders)) do
    for k, raw in ipairs(orders[p] or EMPTY) do
      seq = seq_per_power and k or seq + 1
      local o = orders_mod.parse(cm, raw)
      local hit
      if o.utype then
        for n = 1, #dl do
          local d = dl[n]
          if not assigned[n] and d.power == p then
            local u = map.parse_unit(cm, d.unit)
            if u and u.type == o.utype and u.prov == o.uprov then hit = n; break end
          end
        end
      end
      if hit then
        assigned[hit] = { raw = raw, o = o, seq = seq }
      else
        local ustr = (o.utype and o.uloc) and (o.utype .. " " .. o.uloc) or tostring(raw)
        add(p, { power = p, order = tostring(raw), unit = ustr, flags = void_flags(), seq = seq })
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
  local assigned, entries, add = M.assign_retreat_orders(cm, dl, orders, void_flags, false)
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
  local results = {}
  local all = {}
  for p in pairs(entries) do all[p] = true end
  for _, p in ipairs(powers_of(cm, all)) do
    if entries[p] then push_sorted(cm, results, entries[p]) end
  end
  sort(disbanded)
  local nph, ncent = M.next_phase(rules, cm, position.phase, units, sorted_centers(position.centers), false)
  local next_pos = { phase = nph, units = units, centers = ncent }
  if extra then
    for k, v in pairs(extra) do next_pos[k] = v end
  end
  local w = winner_of(cm, ncent)
  if w then next_pos.winner = w end
  local result = {
    phase = position.phase, results = results, units = units, dislodged = {},
    disbanded = disbanded, centers = ncent, next_phase = nph,
  }
  return result, next_pos
end

----------------------------------------------------------------------------------------------------
-- adjustment phase

-- civil-disorder distance: fewest moves from the unit to one of the power's home centres, owned
-- or not (DATC 6.J.3-6.J.7 measure to the home supply centres). Armies count any adjacency (land
-- or sea: as if convoyed, 6.J.10, 6.J.11: a sea area adds one); fleets count fleet moves only,
-- to either coast (6.J.5, 6.J.6, 6.J.9).
local function cd_distance(cm, power, u)
  local targets = {}
  for _, h in ipairs(cm.home[power] or EMPTY) do targets[h] = true end
  if targets[u.prov] then return 0 end
  local seen, frontier, dist = {}, {}, 0
  if u.type == "A" then
    seen[u.prov] = true
    frontier[1] = u.prov
    while #frontier > 0 do
      dist = dist + 1
      local nxt = {}
      for _, p in ipairs(frontier) do
        for q in pairs(cm.border[p]) do
          if not seen[q] then
            if targets[q] then return dist end
            seen[q] = true
            nxt[#nxt + 1] = q
          end
        end
      end
      frontier = nxt
    end
  else
    seen[u.loc] = true
    frontier[1] = u.loc
    while #frontier > 0 do
      dist = dist + 1
      local nxt = {}
      for _, l in ipairs(frontier) do
        for q in pairs(cm.fleet_adj[l] or EMPTY) do
          if not seen[q] then
            if targets[cm.loc_prov[q]] then return dist end
            seen[q] = true
            nxt[#nxt + 1] = q
          end
        end
      end
      frontier = nxt
    end
  end
  return 1000
end
M.cd_distance = cd_distance

function M.adjustments(rules, cm, position, orders)
  orders = orders or EMPTY
  local units_in = position.units or EMPTY
  local centers = sorted_centers(position.centers)
  local occupied = {}
  local units = {}
  for p, l in pairs(units_in) do
    local c = {}
    for k = 1, #l do
      c[k] = l[k]
      local u = map.parse_unit(cm, l[k])
      if u then occupied[u.prov] = true end
    end
    units[p] = c
  end
  local entries = {}
  local disbanded = {}
  local all = {}
  for p in pairs(units_in) do all[p] = true end
  for p in pairs(orders) do all[p] = true end
  for p in pairs(centers) do all[p] = true end
  local seq = 0
  for _, p in ipairs(powers_of(cm, all)) do
    local mine = units[p] or {}
    units[p] = mine
    local nu, nc = #mine, count_centers(centers, p)
    local owned = {}
    for _, c in ipairs(centers[p] or EMPTY) do owned[c] = true end
    local builds = nc > nu and nc - nu or 0
    local disbands = nu > nc and nu - nc or 0
    local list = {}
    entries[p] = list
    local removed = {}
    for _, raw in ipairs(orders[p] or EMPTY) do
      seq = seq + 1
      local o = orders_mod.parse(cm, raw)
      local ok = false
      local ustr = (o.utype and o.uloc) and (o.utype .. " " .. o.uloc) or tostring(raw)
      if o.kind == "B" and builds > 0 then
        local pr = cm.prov[o.uprov]
        local fits
        if o.utype == "A" then
          fits = pr.type == "land" or pr.type == "coast"
          if fits and o.uloc ~= o.uprov then ustr = "A " .. o.uprov end
        else
          fits = pr.type == "coast" and ((pr.split and o.uloc ~= o.uprov) or (not pr.split and o.uloc == o.uprov))
        end
        if fits and cm.home_set[p] and cm.home_set[p][o.uprov] and owned[o.uprov] and not occupied[o.uprov] then
          ok = true
          builds = builds - 1
          occupied[o.uprov] = true
          mine[#mine + 1] = ustr
        end
      elseif o.kind == "D" and disbands > 0 then
        for k = 1, #mine do
          local u = map.parse_unit(cm, mine[k])
          if u and not removed[k] and u.type == o.utype and u.prov == o.uprov then
            removed[k] = true
            ustr = mine[k]
            ok = true
            disbands = disbands - 1
            disbanded[#disbanded + 1] = mine[k]
            break
          end
        end
      end
      list[#list + 1] = { power = p, order = tostring(raw), unit = ustr, flags = ok and {} or { "void" }, seq = seq }
    end
    -- (one order written twice for a unit: the copies cannot be told apart, so the void one is
    -- listed first, as the reference engine lists it: "void", "ok" in DATC 6.I.7 and 6.J.2)
    local groups = nil
    for k = 1, #list do
      local e = list[k]
      local key = e.unit .. "\0" .. e.order
      groups = groups or {}
      local g = groups[key]
      if g then g[#g + 1] = e else groups[key] = { e } end
    end
    for _, g in pairs(groups or EMPTY) do
      if #g > 1 then
        local seqs = {}
        for k = 1, #g do seqs[k] = g[k].seq end
        sort(g, function(a, b)
          local va, vb = #a.flags > 0, #b.flags > 0
          if va ~= vb then return va end
          return a.seq < b.seq
        end)
        for k = 1, #g do g[k].seq = seqs[k] end
      end
    end
    if disbands > 0 then
      -- civil disorder: furthest from home first; fleets before armies; then by province
      local cand = {}
      for k = 1, #mine do
        if not removed[k] then
          local u = map.parse_unit(cm, mine[k])
          if u then
            cand[#cand + 1] = { k = k, d = cd_distance(cm, p, u), f = u.type == "F", prov = u.prov, str = mine[k] }
          end
        end
      end
      sort(cand, function(a, b)
        if a.d ~= b.d then return a.d > b.d end
        if a.f ~= b.f then return a.f end
        if a.prov ~= b.prov then return a.prov < b.prov end
        return a.str < b.str
      end)
      for c = 1, disbands do
        local x = cand[c]
        if not x then break end
        removed[x.k] = true
        disbanded[#disbanded + 1] = x.str
        seq = seq + 1
        -- (a disband carried out, as the reference engine reports it: no flag, DATC 6.J.2-6.J.11)
        list[#list + 1] = { power = p, order = x.str .. " D", unit = x.str, flags = NOFLAGS, seq = seq }
      end
    end
    if next(removed) then
      local keep = {}
      for k = 1, #mine do
        if not removed[k] then keep[#keep + 1] = mine[k] end
      end
      mine = keep
      units[p] = mine
    end
    sort(mine)
    if #mine == 0 and not units_in[p] then units[p] = nil end
  end
  local results = {}
  for _, p in ipairs(powers_of(cm, entries)) do
    if entries[p] and #entries[p] > 0 then push_sorted(cm, results, entries[p]) end
  end
  sort(disbanded)
  local _, y = map.split_phase(position.phase)
  local nph = "S" .. (y + 1) .. "M"
  local next_pos = { phase = nph, units = units, centers = centers }
  local w = winner_of(cm, centers)
  if w then next_pos.winner = w end
  local result = {
    phase = position.phase, results = results, units = units, dislodged = {},
    disbanded = disbanded, centers = centers, next_phase = nph,
  }
  return result, next_pos
end

----------------------------------------------------------------------------------------------------

M.rules = {
  movement = M.movement,
  retreats = M.retreats,
  adjustments = M.adjustments,
  retreating_units = M.retreating_units,
  retreat_options = M.retreat_options,
  after_movement = M.after_movement,
  settle_retreats = M.settle_retreats,
  resolve_retreats = M.resolve_retreats,
  has_retreats = M.has_retreats,
}

-- A copy of the standard rules with some functions replaced.
function M.extend(overrides)
  local r = {}
  for k, v in pairs(M.rules) do r[k] = v end
  for k, v in pairs(overrides or EMPTY) do r[k] = v end
  return r
end

return M
