-- diplomacy.adjudicate.movement -- a movement phase from orders to result: builds the context,
-- resolves it, asks the rules' retreat hooks, and writes the results, the board after the moves
-- and the next position.
local shared = require("diplomacy.adjudicate.shared")
local context = require("diplomacy.adjudicate.context")
local resolve = require("diplomacy.adjudicate.resolve")
local results_mod = require("diplomacy.adjudicate.results")
local retreats = require("diplomacy.adjudicate.retreats")

local M = {}

local sort = table.sort
local unpack = table.unpack
local EMPTY = shared.EMPTY
local push_sorted, sorted_centers = shared.push_sorted, shared.sorted_centers
local build_ctx, take_scratch, release_scratch = context.build_ctx, context.take_scratch, context.release_scratch
local resolve_all = resolve.resolve_all
local outcome, order_flag, unit_flags, entry_for =
  results_mod.outcome, results_mod.order_flag, results_mod.unit_flags, results_mod.entry_for
local NOFLAGS, FLAGS_UP, DOWN_OF = results_mod.NOFLAGS, results_mod.FLAGS_UP, results_mod.DOWN_OF
local FL_VOID, FL_NOCONVOY, FL_BOUNCE = results_mod.FL_VOID, results_mod.FL_NOCONVOY, results_mod.FL_BOUNCE

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
  if S.any_dislodged or rules.retreating_units ~= retreats.retreating_units then
    recs = rules.retreating_units(rules, ctx)
    retreating = {}
    for k = 1, #recs do
      local r = recs[k]
      r.retreats = rules.retreat_options(rules, ctx, r)
      retreating[r.i] = r
    end
    kept, gone = rules.settle_retreats(rules, ctx, recs)
    if type(kept) ~= "table" or type(gone) ~= "table" then
      -- (a variant's hook returning one list failed later, on `#gone`, far from its cause)
      error(string.format("diplomacy variant: settle_retreats must return two lists, the records " ..
        "kept for the retreat phase and those disbanded at once (got a %s and a %s)",
        type(kept), type(gone)), 0)
    end
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
          l[#l + 1] = entry_for(u, ord[i], cflags and cflags[i] or unit_flags(ctx, i))
          i = i + 1
        end
        for k = 1, #e do l[#l + 1] = e[k] end
        push_sorted(cm, results, l)
        rn = #results
      else
        while i <= n and U[i].power == p do
          local u = U[i]
          rn = rn + 1
          results[rn] = entry_for(u, ord[i], cflags and cflags[i] or unit_flags(ctx, i))
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
      -- (the failed moves' flags were set by outcome)
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
        if kj == "SH" then
          -- (a support to hold that succeeded has no flag)
          if not res[j] then
            local a = cut_or_nil(j) or order_flag(ctx, j)
            if a ~= "" then fl[j] = FLAGS_UP[a] end
          end
        else
          local a = nil
          if kj == "SM" then
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
      end
      for k = 1, #voids do fl[voids[k]] = FL_VOID end
    end
    for k = 1, #down do
      local j = down[k]
      fl[j] = DOWN_OF[fl[j]]
    end
    -- memoised entries (entry_for, inlined: by order text, then by flag list)
    if cflags then
      for i = 1, n do
        local u, o = U[i], ord[i]
        local f = cflags[i] or fl[i]
        local byt = u.entries[o and o.raw or false]
        local en = byt and byt[f]
        if not en then en = entry_for(u, o, f) end
        results[i] = en
      end
    else
      -- (the occupancy table is emptied on the way: nothing reads it after the hooks)
      local at = ctx.at
      for i = 1, n do
        local u, o = U[i], ord[i]
        at[u.prov] = nil
        local byt = u.entries[o and o.raw or false]
        local en = byt and byt[fl[i]]
        if not en then en = entry_for(u, o, fl[i]) end
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
  local dislodged, dl_out, disbanded = EMPTY, nil, {}
  local in_order = true -- (dislodged strictly in dislodged_less order)
  if #kept > 0 then
    dislodged = {}
    for k = 1, #kept do
      local r = kept[k]
      local u = U[r.i]
      dislodged[k] = { power = u.power, unit = u.str, by = r.by, retreats = r.retreats }
    end
    if not dislodged_in_order(dislodged) then
      sort(dislodged, dislodged_less)
      in_order = dislodged_in_order(dislodged)
    end
  end
  if #gone == 0 and in_order then
    -- (the result's list is the next position's, as it is: both are read-only)
    dl_out = dislodged == EMPTY and {} or dislodged
  else
    dl_out = {}
    for k = 1, #gone do
      local r = gone[k]
      local u = U[r.i]
      disbanded[#disbanded + 1] = u.str
      -- (a unit disbanded at once has nowhere to go, whatever options it had: a variant's
      -- settle_retreats may disband units that had some)
      local opts = r.retreats
      if type(opts) ~= "table" or #opts > 0 then opts = {} end
      dl_out[#dl_out + 1] = { power = u.power, unit = u.str, by = r.by, retreats = opts }
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
  local nph, ncent = shared.next_phase(rules, cm, position.phase, units, centers, pending)
  next_pos.phase = nph
  next_pos.centers = ncent
  if not pending then next_pos.dislodged = nil end
  local w = ncent ~= centers and rules.winner(rules, cm, ncent, nph) or position.winner
  if w then next_pos.winner = w end
  local result = {
    phase = position.phase, results = results, units = units, dislodged = dl_out,
    disbanded = disbanded, centers = ncent, next_phase = nph,
  }
  release_scratch(S)
  return result, next_pos, ctx
end

return M
