-- diplomacy.adjudicate.resolve -- Kruijswijk's guess-and-check resolver over a movement context:
-- every move, support and convoy gets a resolution; cycles fall back on the circular-movement
-- and Szykman rules (see diplomacy.adjudicate).
local M = {}

local HUGE = math.huge

-- What cuts a support (the standard rule, a replaceable hook: rules.cuts_support): an attack on
-- the supporter's province by a unit of another power, except one from the province the supported
-- move goes to (that one cuts only by dislodging the supporter). j is the move, i the support; the
-- resolver asks only for a move that reaches the province (a convoyed army with a path) and reads
-- a dislodgement itself. A replacement must decide from the orders alone (ctx.U, ctx.kind,
-- ctx.dprov, ctx.target, ctx.convoyed), never from other orders' results: the resolver may ask
-- it while those are still guesses.
local function cuts_support(rules, ctx, j, i)
  local U = ctx.U
  return U[j].power ~= U[i].power and not (ctx.kind[i] == "SM" and U[j].prov == ctx.dprov[i])
end
M.cuts_support = cuts_support

-- Resolve every order of ctx (fills ctx.res, ctx.paradox, ctx.path).
local function always_true() return true end
local function no_strength() return 0 end

local function resolve_all(ctx)
  if #ctx.moves == 0 then
    -- no move at all (e.g. everybody holds): nothing is cut, dislodged or convoyed (a valid convoy
    -- needs a move), so every valid support succeeds (build_ctx resolved them: none is attacked)
    ctx.res, ctx.paradox, ctx.path_ok = ctx.scratch.res, ctx.scratch.paradox, always_true
    ctx.scratch.prevent_strength = no_strength
    return
  end
  local S = ctx.scratch
  local cm, U, at, nxt = ctx.cm, ctx.U, ctx.at, ctx.nxt
  local kind, dprov, target, convoyed = ctx.kind, ctx.dprov, ctx.target, ctx.convoyed
  local convoyers, moves_to, move_sup, hold_sup, h2h = S.convoyers, S.moves_to, S.move_sup, S.hold_sup, S.h2h
  local fpa = cm.fleet_prov_adj
  local state, res, paradox = S.state, S.res, S.paradox
  local deps, ndeps = {}, 0
  local resolve
  -- (a variant's rule of what cuts a support; nil for the standard one, worked out inline)
  local rules = ctx.rules
  local custom_cut = rules and rules.cuts_support ~= cuts_support and rules.cuts_support or nil
  -- (a variant's strengths of units before their supports; nil for the standard 1, inline)
  local strength = rules and rules.unit_strength
  local one = strength and function(i, role)
    return strength(rules, ctx, i, role) or 1
  end

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

  -- the supports in a list (a unit's supporters: never empty) that succeed, but for those of
  -- except_power (state 2 = resolved: the resolution is read without the call)
  local function count_sup(list, except_power)
    local c = 0
    for k = 1, #list do
      local s = list[k]
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

  -- the strength with which the units at p that stay hold it (`skip`: a unit of the province
  -- left out -- the one in a head-to-head, whose own defence is counted apart)
  local function hold_strength(p, skip)
    local o = at[p]
    if not o then return 0 end
    local stays, sup = false, 0
    while o do
      if o == skip then
        -- (not counted)
      elseif kind[o] == "M" then
        if state[o] == 2 then
          if not res[o] then stays = true end
        elseif not resolve(o) then
          stays = true
        end
      else
        stays = true
        local l = hold_sup[o]
        if l then sup = sup + count_sup(l) end
      end
      o = nxt[o]
    end
    return stays and 1 + sup or 0
  end
  if strength then
    -- (under a variant's unit_strength: the strongest staying unit's own strength, not 1)
    hold_strength = function(p, skip)
      local o = at[p]
      local stays, sup, own = false, 0, 0
      while o do
        local held = false
        if o == skip then
          -- (not counted)
        elseif kind[o] == "M" then
          if state[o] == 2 then
            held = not res[o]
          else
            held = not resolve(o)
          end
        else
          held = true
          local l = hold_sup[o]
          if l then sup = sup + count_sup(l) end
        end
        if held then
          stays = true
          local s = one(o, "hold")
          if s > own then own = s end
        end
        o = nxt[o]
      end
      return stays and own + sup or 0
    end
  end

  local function prevent_strength(j)
    if convoyed[j] and not path_ok(j) then return 0 end
    local h = h2h[j]
    if h and resolve(h) then return 0 end
    local l = move_sup[j]
    local base = strength and one(j, "prevent") or 1
    return l and base + count_sup(l) or base
  end

  local function adjudicate(i)
    local k = kind[i]
    if k == "M" then
      if convoyed[i] and not path_ok(i) then return false end
      local d = dprov[i]
      local h = h2h[i]
      -- attack strength: against the first unit at d that does not leave (a unit moving out in a
      -- head-to-head battle stays), none of the supports of that unit's power; 0 against one's
      -- own unit
      local defender
      local o = at[d]
      while o do
        if not (kind[o] == "M" and h ~= o and resolve(o)) then defender = U[o].power; break end
        o = nxt[o]
      end
      local att
      local sup = move_sup[i]
      local base = strength and one(i, "attack") or 1
      if not defender then
        att = sup and base + count_sup(sup) or base
      elseif defender == U[i].power then
        att = 0
      else
        att = sup and base + count_sup(sup, defender) or base
      end
      if h then
        local hsup = move_sup[h]
        local hbase = strength and one(h, "defend") or 1
        if att <= (hsup and hbase + count_sup(hsup) or hbase) then return false end
        -- R-g3 (a stack of the variant; standard play has no other unit there): the units of
        -- the stack that stay defend the province as one occupant beside the head-to-head
        if nxt[at[d]] and att <= hold_strength(d, h) then return false end
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
    if custom_cut and k ~= "C" then
      for m = 1, #mt do
        local j = mt[m]
        if custom_cut(rules, ctx, j, i) and (not convoyed[j] or path_ok(j)) then return false end
      end
    elseif k ~= "C" then
      -- support: cut by any attack of another power with a path, except from the province the
      -- supported move goes to (that one must dislodge the supporter): cuts_support, inline
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

  -- (the supports and convoys that no move attacks were resolved by build_ctx)
  local moves, attacked = ctx.moves, S.attacked
  for k = 1, #moves do resolve(moves[k]) end
  for k = 1, #attacked do
    local i = attacked[k]
    if state[i] ~= 2 then resolve(i) end
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

return M
