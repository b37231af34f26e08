-- diplomacy.adjudicate.context -- the movement context: a position's units as indexed records, the
-- orders given to them and checked on their own (legal moves, convoy chains that could exist,
-- supports and convoys matched to what the supported unit does), in the scratch tables the
-- resolver and the results read.
local map = require("diplomacy.map")
local orders_mod = require("diplomacy.orders")
local shared = require("diplomacy.adjudicate.shared")

local M = {}

local sort = table.sort
local EMPTY = shared.EMPTY
local flags_of, powers_of, sort_units, sorted_copy =
  shared.flags_of, shared.powers_of, shared.sort_units, shared.sorted_copy

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

-- (fl, the flags of each unit's result entry, holds the empty flag list where nothing is set, so
-- that the results read it without a test)
local NOFLAGS = shared.flags_of(nil)
local SPARSE_EMPTY = { fl = NOFLAGS }

-- give the per-unit arrays their empty value up to unit n
local function grow_scratch(S, n)
  for k = 1, #SPARSE do
    local name = SPARSE[k]
    local t, empty = S[name], SPARSE_EMPTY[name] or false
    for i = S.cap + 1, n do t[i] = empty end
  end
  S.cap = n
end

local function new_scratch()
  local S = { U = {}, at = {}, nxt = {}, ord = {}, kind = {}, n = 0, stacked = {}, nstacked = 0,
              moves = {}, others = {}, voids = {}, attacked = {}, pfirst = {}, plast = {}, cap = 0 }
  -- (the per-unit arrays hold false, not nil, where nothing is set: a slot of the array part that
  -- holds a value is read and written inline by the VM, an empty one takes a call)
  for k = 1, #SPARSE do S[SPARSE[k]] = {} end
  grow_scratch(S, DENSE)
  return S
end

-- Empty a scratch list and the sparse per-unit arrays at the indices it names. What can be set
-- where: moves set dest, dprov, convoyed, h2h, paradox and (resolved) state, res; supports and
-- convoys set target, dprov, dest, state, res; voids (pass 1) set void and maybe dest.
-- (the lists themselves are left as they are: build_ctx writes them over and cuts what is left
-- of the previous call's; kind goes back to "H", the kind of every unit load_units gives)
local function wipe_moves(S)
  local list = S.moves
  local dest, dprov, convoyed, h2h, state, res, paradox, moved, fl, kind =
    S.dest, S.dprov, S.convoyed, S.h2h, S.state, S.res, S.paradox, S.moved, S.fl, S.kind
  for k = 1, #list do
    local i = list[k]
    dest[i] = false; dprov[i] = false; convoyed[i] = false; h2h[i] = false
    state[i] = false; res[i] = false; paradox[i] = false; moved[i] = false; fl[i] = NOFLAGS
    kind[i] = "H"
  end
end

local function wipe_others(S)
  local list = S.others
  local dest, dprov, target, state, res, void, fl, kind =
    S.dest, S.dprov, S.target, S.state, S.res, S.void, S.fl, S.kind
  for k = 1, #list do
    local i = list[k]
    target[i] = false; dprov[i] = false; dest[i] = false; state[i] = false; res[i] = false
    void[i] = false; fl[i] = NOFLAGS -- (pass 2 voids a support or convoy that does not match)
    kind[i] = "H"
  end
end

local function wipe_voids(S)
  local list = S.voids
  local void, dest, fl = S.void, S.dest, S.fl
  for k = 1, #list do
    local i = list[k]
    void[i] = false; dest[i] = false; fl[i] = NOFLAGS
  end
  -- the dislodged units of the previous call
  local down, dislodged_by = S.down, S.dislodged_by
  if down then
    for k = 1, #down do
      local i = down[k]
      dislodged_by[i] = false; fl[i] = NOFLAGS
    end
    S.down = nil
  end
end

-- empty what the previous build filled: the occupancy chains and order slots of its units, and
-- the sparse arrays, which only its moves, supports / convoys and void orders touched
-- (order slots are all written by load_units; the occupancy table was usually emptied by the
-- results loop of the previous call already)
local function wipe_scratch(S)
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
  wipe_scratch(S)
  return S
end

local function release_scratch(S)
  if not S.fresh then S.busy = false end
end
M.take_scratch, M.release_scratch = take_scratch, release_scratch

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
  -- (kind: "H" up to the previous call's count already, the wipe saw to that)
  for k = S.n + 1, n do kind[k] = "H" end
  for k = n + 1, S.n do U[k] = nil; kind[k] = nil; ord[k] = nil end
  S.n = n
  if n > S.cap then grow_scratch(S, n) end
  return U, at, nxt, lists, powers
end
M.load_units = load_units


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

-- R-g2 (stacks of the variant; standard play never gets here): from unit i on, the first unit
-- of power p (any power when p is nil) and type ut standing on `loc` exactly and not yet
-- ordered (ord nil: any) -- so that in a stack an order, support or convoy naming F SPA/SC
-- reaches that fleet, not the F SPA/NC beside it; nil when none does.
local function named_in_stack(U, nxt, ord, i, p, ut, loc)
  while i do
    local u = U[i]
    if u.loc == loc and u.type == ut and (not p or u.power == p) and not (ord and ord[i]) then
      return i
    end
    i = nxt[i]
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
    -- (land: a convoy asked for by an army next to its destination by land, VIA)
    conv = ok and conv
    return { ok = ok, conv = conv, dest = d, dprov = dp, land = conv and utype == "A" and cm.army_adj[uprov][dp] == true }
  elseif k == "SH" or k == "SM" then
    local tp = k == "SH" and o.tprov or o.dprov
    return { ok = tp ~= uprov and map.reaches_prov(cm, utype, uloc, tp) }
  elseif k == "C" then
    return { ok = utype == "F" and cprov[uprov].type == "sea" }
  end
  return nil
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
-- (`loc`: the location the order named with its coast, when it did, and t stands there: only
-- a unit of that string may take its place; nil: any of t's type)
local function stack_hold_target(U, kind, nxt, t, loc)
  local j = nxt[t]
  while j do
    if U[j].type == U[t].type and (not loc or U[j].loc == loc) and kind[j] ~= "M" then return j end
    j = nxt[j]
  end
  return nil
end

-- The coast a support or convoy order names its target on, when it names one and the target
-- stands there (a location that is not a bare province), else nil.
local function named_coast(o, u)
  local tloc = o and o.tloc
  if tloc and tloc ~= o.tprov and u.loc == tloc then return tloc end
  return nil
end

local function stack_move_target(U, kind, dprov, dest, nxt, i, t, loc)
  local j = nxt[t]
  while j do
    if U[j].type == U[t].type and (not loc or U[j].loc == loc) and kind[j] == "M" and dprov[j] == dprov[i]
      and not (U[j].type == "F" and dest[i] ~= dprov[i] and dest[j] ~= dest[i]) then
      return j
    end
    j = nxt[j]
  end
  return nil
end

-- The orders without those a later order replaced. An order given again for the same unit
-- replaces the earlier one, as the reference engine and the judges take orders sent twice: of
-- the orders a power gives to its units of one type in one province, the last k count (k such
-- units: one, or a stack's size in the variant), in the order they were given. Orders naming no
-- unit of the power stay, to be reported void.
local function last_orders_win(cm, U, at, nxt, orders)
  local cache, parse = cm.order_cache, orders_mod.parse
  local out = {}
  for p, list in pairs(orders) do
    local units_of, given, keep = {}, {}, {}
    for q = #list, 1, -1 do
      local o = cache[list[q]] or parse(cm, list[q])
      local ut, pr = o.utype, o.uprov
      local kept = true
      if ut and pr then
        local key = ut .. " " .. pr
        local k = units_of[key]
        if not k then
          k = 0
          local j = at[pr]
          while j do
            local u = U[j]
            if u.power == p and u.type == ut then k = k + 1 end
            j = nxt[j]
          end
          units_of[key] = k
        end
        if k > 0 then
          local c = given[key] or 0
          kept = c < k
          given[key] = c + 1
        end
      end
      keep[q] = kept
    end
    local l = {}
    for q = 1, #list do
      if keep[q] then l[#l + 1] = list[q] end
    end
    out[p] = l
  end
  return out
end
M.last_orders_win = last_orders_win

-- Build the movement context: validated orders and the indexes the resolver needs.
local build_ctx
function build_ctx(rules, cm, position, orders, S)
  S = S or new_scratch()
  local replaced = false
  local U, at, nxt, lists, powers = load_units(cm, position, S)
  local stacks = S.nstacked > 0 -- (R-g2: only the variant's stacks need the named-unit checks)
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
  local via_land -- the moves by convoy (VIA) of armies next to their destination by land
  local moves_to, contested = {}, nil -- (contested: the lists of moves_to with several moves)
  local cache = cm.order_cache
  local parse = orders_mod.parse
  local allowed = rules.order_allowed -- (a variant's: nil in the standard game)
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
      if stacks and i and nxt[i] and u.loc ~= o.uloc then
        local j = named_in_stack(U, nxt, ord, nxt[i], p, ut, o.uloc)
        if j then i = j; u = U[j] end
      end
      if i then
        ord[i] = o
        local kc = o.kc -- H 0, M 1, SH 2, SM 3, C 4, any other kind 5
        -- (an order the variant forbids is void, as a kind with no place in the phase)
        if allowed and kc < 5 and allowed(rules, cm, position, p, o) == false then kc = 5 end
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
                local d = fx.dprov
                dprov[i] = d
                -- the moves into each province (put in unit order below when there are several)
                local l = moves_to[d]
                if l then
                  l[#l + 1] = i
                  if #l == 2 then contested = contested or {}; contested[#contested + 1] = l end
                else
                  moves_to[d] = { i }
                end
                if fx.conv then
                  convoyed[i] = true
                  if fx.land then via_land = via_land or {}; via_land[#via_land + 1] = i end
                end
                nm = nm + 1
                moves[nm] = i
              end
            else
              -- (first_unit_at, inlined for the usual single unit of the right type)
              local t = fx.ok and at[o.tprov]
              if t then
                local tt = o.ttype
                if tt and U[t].type ~= tt then t = first_unit_at(U, at, nxt, o.tprov, tt) end
                if stacks and t and nxt[t] and U[t].loc ~= o.tloc then
                  t = named_in_stack(U, nxt, nil, nxt[t], nil, U[t].type, o.tloc) or t
                end
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
              -- order); the real unit holds (and keeps no destination: no list names it for
              -- the next call's wipe).
              dest[i] = false
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
        -- (every unit of that power and type there already has an order: this one replaces it,
        -- last_orders_win; the context is built again below)
        local j = ut and at[o.uprov]
        while j do
          local v = U[j]
          if v.power == p and v.type == ut then replaced = true; break end
          j = nxt[j]
        end
        local e = extra[p]
        if not e then e = {}; extra[p] = e end
        local ustr = (o.utype and o.uloc) and (o.utype .. " " .. o.uloc) or tostring(raw)
        e[#e + 1] = { power = p, order = tostring(raw), unit = ustr, flags = flags_of("void"), seq = q }
      end
    end
  end
  -- (what is left of the previous call's lists)
  for k = nm + 1, #moves do moves[k] = nil end
  for k = no + 1, #others do others[k] = nil end
  for k = nvoid + 1, #voids do voids[k] = nil end
  if replaced then
    -- (a unit was given an order again: built again from the orders that count, rarely, so
    -- that the usual case pays nothing for it)
    local counted = last_orders_win(cm, U, at, nxt, orders)
    wipe_scratch(S)
    return build_ctx(rules, cm, position, counted, S)
  end
  -- (moves in unit order: the order they are resolved in and hooks see them in. Supports and
  -- convoys may stay in the order of the orders: what depends on their order, the lists of a
  -- unit's supporters and convoying fleets, is kept in unit order below; the voids' order does not
  -- matter)
  if nm > 1 then sort(moves) end
  if contested then
    for k = 1, #contested do sort(contested[k]) end
  end
  -- (supports and convoys in unit order too: each unit's list of supporters and of convoying
  -- fleets is then made in unit order by appending)
  if no > 1 then sort(others) end
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
  -- pass 2: supports and convoys must match what the supported / convoyed unit does. One that
  -- does and that no move attacks succeeds, whatever else happens (what the resolver would find
  -- at once): resolved here; the others that do are listed for the resolver (`attacked`).
  local convoyers, move_sup, hold_sup = {}, {}, {}
  local nohelp = nil
  local res, state = S.res, S.state
  local attacked, na = S.attacked, 0
  for q = 1, #others do
    local i = others[q]
    local k = kind[i]
    local t = target[i]
    local ok
    if k == "SH" then
      if kind[t] == "M" and nxt[t] then
        local j = stack_hold_target(U, kind, nxt, t, named_coast(ord[i], U[t]))
        if j then t = j; target[i] = j end
      end
      ok = kind[t] ~= "M"
      if ok then
        local l = hold_sup[t]
        if l then l[#l + 1] = i else hold_sup[t] = { i } end
      end
    elseif k == "SM" then
      ok = kind[t] == "M" and dprov[t] == dprov[i]
      if ok and U[t].type == "F" and dest[i] ~= dprov[i] and dest[t] ~= dest[i] then ok = false end
      if not ok and nxt[t] then
        local j = stack_move_target(U, kind, dprov, dest, nxt, i, t, named_coast(ord[i], U[t]))
        if j then t = j; target[i] = j; ok = true end
      end
      if ok then
        local l = move_sup[t]
        if l then l[#l + 1] = i else move_sup[t] = { i } end
        -- (a support onto a unit of the supporter's own power: its flag needs a closer look)
        local d = at[dprov[i]]
        if d and d ~= t and U[d].power == U[i].power then
          nohelp = nohelp or {}
          nohelp[i] = true
        end
      end
    else -- "C"
      -- (a convoy order that no chain of fleets could use is illegal: 6.G.7; a fleet next to both
      -- ends is a chain by itself, the usual case, which needs no search)
      ok = kind[t] == "M" and dprov[t] == dprov[i]
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
        if l then l[#l + 1] = i else convoyers[t] = { i } end
      end
    end
    if not ok then
      -- (dprov: set by a support to move or a convoy, false for a support to hold)
      kind[i] = "H"; void[i] = true; dprov[i] = false
    elseif moves_to[U[i].prov] then
      na = na + 1
      attacked[na] = i
    else
      res[i] = true
      state[i] = 2
    end
  end
  for k = na + 1, #attacked do attacked[k] = nil end
  -- convoy intent: an adjacent army is convoyed when a fleet of its own power convoys it ...
  -- ... but an army next to its destination by land that asks for a convoy (VIA, or a fleet of
  -- its own power convoys it) goes by convoy only when the fleets ordered to convoy it make a
  -- whole chain; else it moves over land (DATC 4.A.3 d, the 1982/2000 rulebook: "via convoy" has
  -- a meaning only where there are both a land route and a convoy route; 6.G.8). (An army this
  -- loop marks is next to its destination by land: else it would go by convoy already.)
  for t, l in pairs(convoyers) do
    if not convoyed[t] and cprov[U[t].prov].type == "coast" and cprov[dprov[t]].type == "coast" then
      for m = 1, #l do
        local f = l[m]
        if U[f].power == U[t].power then
          convoyed[t] = chain_exists(cm, U, l, U[t].prov, dprov[t])
          break
        end
      end
    end
  end
  if via_land then
    for k = 1, #via_land do
      local t = via_land[k]
      local l = convoyers[t]
      if not (l and chain_exists(cm, U, l, U[t].prov, dprov[t])) then convoyed[t] = false end
    end
  end
  -- indexes
  local h2h = S.h2h
  for k = 1, #moves do
    local i = moves[k]
    if not convoyed[i] then
      local o = at[dprov[i]]
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

M.chain_exists, M.on_chain = chain_exists, on_chain

return M
