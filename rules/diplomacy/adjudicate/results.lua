-- diplomacy.adjudicate.results -- what a resolution means for each unit: moved or dislodged (and
-- by whom), provinces left empty by a standoff, the flags of each order in the reference
-- engine's words, and the memoised result entries.
local shared = require("diplomacy.adjudicate.shared")
local context = require("diplomacy.adjudicate.context")

local M = {}

local sort = table.sort
local flags_of = shared.flags_of
local chain_exists, on_chain = context.chain_exists, context.on_chain

-- Outcome of the resolution: moved[i], dislodged_by[i] (index of the dislodging move),
-- contested[prov] (a standoff left it empty), flags per unit.
local FL_NOCONVOY_, FL_BOUNCE_ -- (the flag lists of a failed move, set below)
local function outcome(ctx)
  local S = ctx.scratch
  local moved, dislodged_by = S.moved, S.dislodged_by
  ctx.moved, ctx.dislodged_by = moved, dislodged_by
  S.contested = nil -- computed lazily (only retreats need it)
  local down, nd = {}, 0 -- the dislodged units, in unit order
  local moves = ctx.moves
  if #moves == 0 then
    S.any_dislodged, S.any_moved, S.down = false, false, down
    return
  end
  local U, at, nxt, res, dprov, kind = ctx.U, ctx.at, ctx.nxt, ctx.res, ctx.dprov, ctx.kind
  local fl, convoyed, paradox, path_ok = S.fl, ctx.convoyed, ctx.paradox, ctx.path_ok
  local any_moved = false
  for k = 1, #moves do
    local i = moves[k]
    if res[i] then
      moved[i] = true
      any_moved = true
      -- every unit there that does not move out is dislodged (a move that got out is a move that
      -- succeeded: its `moved` may not be set yet)
      local o = at[dprov[i]]
      while o do
        if not (res[o] and kind[o] == "M") then
          dislodged_by[o] = i
          nd = nd + 1
          down[nd] = o
        end
        o = nxt[o]
      end
    else
      -- (the flags of a failed move, for the results)
      fl[i] = convoyed[i] and (paradox[i] or not path_ok(i)) and FL_NOCONVOY_ or FL_BOUNCE_
    end
  end
  if nd > 1 then sort(down) end
  S.any_dislodged, S.any_moved, S.down = nd > 0, any_moved, down
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
FL_NOCONVOY_, FL_BOUNCE_ = FL_NOCONVOY, FL_BOUNCE
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

-- The strength unit i brings in `role` before its supports ("attack", "defend" in a head-to-head,
-- "hold", "prevent"): 1, or what a variant's `unit_strength` says (a fortress holding with 2),
-- as the resolver counts it (resolve.lua).
local function unit_strength(ctx, i, role)
  local strength = ctx.rules and ctx.rules.unit_strength
  if not strength then return 1 end
  return strength(ctx.rules, ctx, i, role) or 1
end

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
  local strength = unit_strength
  local full = strength(ctx, t, "attack") + kept(ctx, S.move_sup[t])
  local hold = strength(ctx, d, "hold") + (kind[d] == "M" and 0 or kept(ctx, S.hold_sup[d]))
  if hold >= full then return false end
  local others = S.moves_to[ctx.dprov[t]]
  for k = 1, #others do
    local j = others[k]
    if j ~= t and not convoy_failed(ctx, j) and strength(ctx, j, "prevent") + kept(ctx, S.move_sup[j]) >= full then
      return false
    end
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
  local cuts = ctx.rules and ctx.rules.cuts_support
  for k = 1, #attackers do
    local j = attackers[k]
    if (cuts and cuts(ctx.rules, ctx, j, i))
      or (not cuts and U[j].power ~= U[i].power and not (kind[i] == "SM" and U[j].prov == ctx.dprov[i])) then
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
    -- attacked by another power, with the attack or the fleet's hold supported from where an
    -- army of a paradox was going: the attack the paradox rule set aside (that army's cut of
    -- the support made the paradox, of the first or second order: 6.F.18, 6.F.23, 6.F.24). An
    -- attack no such support bears on broke nothing: the fleet is `no convoy`, as the reference
    -- engine has it
    local S = ctx.scratch
    local moves = S.moves_to[U[i].prov]
    if moves then
      local aims = {} -- the provinces the armies of a paradox were going to
      for k = 1, #ctx.moves do
        local a = ctx.moves[k]
        if ctx.paradox[a] then aims[ctx.dprov[a]] = true end
      end
      local function from_aim(list)
        for q = 1, list and #list or 0 do
          if aims[U[list[q]].prov] then return true end
        end
        return false
      end
      local held_from_aim = from_aim(S.hold_sup[i])
      for k = 1, #moves do
        local m = moves[k]
        if U[m].power ~= U[i].power and (held_from_aim or from_aim(S.move_sup[m])) then
          return "disrupted"
        end
      end
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

-- memoised result entry {power, order, unit, flags} of unit record u with parsed order o (false:
-- no order) and a flag list (immutable; shared between calls). Keyed by the order's text (false
-- for no order), not its parsed record: a record is new whenever the parse memo lost it, a text
-- is the same in every phase that gives it.
local ENTRY_MEMO_MAX = 64
local function entry_for(u, o, flags)
  local byt = u.entries
  local text = o and o.raw or false
  local t = byt[text]
  if not t then
    -- (bounded: a unit's memo of order texts is emptied when it holds ENTRY_MEMO_MAX of them)
    local ne = (u.nentries or 0) + 1
    if ne > ENTRY_MEMO_MAX then
      byt = {}
      u.entries = byt
      ne = 1
    end
    u.nentries = ne
    t = {}
    byt[text] = t
  end
  local e = t[flags]
  if not e then
    e = { power = u.power, order = o and o.raw or u.hold, unit = u.str, flags = flags }
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
M.outcome, M.order_flag = outcome, order_flag
M.NOFLAGS, M.FLAGS_UP, M.DOWN_OF = NOFLAGS, FLAGS_UP, DOWN_OF
M.FL_VOID, M.FL_NOCONVOY, M.FL_BOUNCE = FL_VOID, FL_NOCONVOY, FL_BOUNCE

return M
