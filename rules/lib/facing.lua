-- lib.facing: move / melee / wheel commands shared by facing games (rules/tactical,
-- rules/ancients). The movement itself is searched in Rust from the `facing` declaration
-- (docs/facing.md); these handlers only check orders with hex.path.check_facing and turn them
-- into events. Melee: d6 + attacker strength (+ flank bonus when the attacker is not in the
-- defender's front) - defender strength; `opts.clauses` name the rule ids cited.
local lib = require("lib")
local facing = {}

local function fkey(f) return tostring(f) end

-- `hexwar reach`: { [label] = { [facing as text] = cost } }. A phalanx group starting in
-- contact also lists its two 60° turns in place at its whole MP (ANC-6.3, TA-R15: possible when
-- the morale test passes; the `wheel` command rolls it), as TA-R20 asks of every end state.
function facing.reach_query()
  hex.rules.query("reach", function(id)
    -- (one unit, or a group: a list of ids, ANC-5.4)
    if type(id) == "table" then
      if #id == 0 then
        hex.rules.caller_error("the argument is a unit id or a list of unit ids, not a table without a list")
      end
      for _, one in ipairs(id) do lib.asked_unit(one) end
    else
      lib.asked_unit(id)
    end
    local out = {}
    for label, per in pairs(hex.path.reach_facing(id, nil, { contact_turn = true })) do
      local row = {}
      for f, cost in pairs(per) do row[fkey(f)] = cost end
      out[label] = row
    end
    return out
  end)
end

local function sorted_facings(per)
  local keys = {}
  for f in pairs(per) do keys[#keys + 1] = f end
  table.sort(keys, function(a, b) return fkey(a) < fkey(b) end)
  return keys
end

local function members(cmd)
  if cmd.units then return cmd.units end
  return { cmd.unit }
end

-- What is wrong with a move order's shape, before any rule looks at it (nil when nothing): a
-- player's bad order is refused, not a rules error. `units` a list of distinct unit ids, `path`
-- a list of hex labels, `facing` nil, "none", a direction 0..5 or a two-base pair "f1,f2".
local function malformed_move(cmd)
  local units = cmd.units
  if units ~= nil then
    if cmd.unit ~= nil then return "a move names a unit or units, not both" end
    if type(units) ~= "table" or #units == 0 then return "'units' is a list of unit ids" end
    local seen = {}
    for i = 1, #units do
      local id = units[i]
      if type(id) ~= "string" then return "'units' #" .. i .. " is not a unit id" end
      if seen[id] then return "'units' lists " .. id .. " twice" end
      seen[id] = true
    end
  elseif type(cmd.unit) ~= "string" then
    return "a move names a unit or units"
  end
  local path = cmd.path
  if path ~= nil then
    if type(path) ~= "table" then return "'path' is a list of hex labels" end
    for i = 1, #path do
      if type(path[i]) ~= "string" then return "'path' #" .. i .. " is not a hex label" end
    end
  end
  local f = cmd.facing
  if f == nil or f == "none" then return nil end
  if math.type(f) == "integer" and f >= 0 and f <= 5 then return nil end
  if type(f) == "string" and #f == 3 and f:match("^[0-5],[0-5]$") then return nil end
  -- (a string quoted: "1" is not 1; a long one cut)
  local given = type(f) == "string" and string.format("%q", #f > 40 and f:sub(1, 40) .. "..." or f)
    or tostring(f)
  return "a facing is a direction 0..5 or a two-base pair \"f1,f2\", not " .. given
end

-- ANC-5.4 / TA-R13: the groups a side's legal list offers to move as one, beside each unit
-- alone: in each hex holding two or more of its counters that have not moved (hexes in label
-- order, ids sorted), every subset of two or more when there are at most GROUP_SUBSETS_UP_TO
-- counters, else the whole hex and its troops without their leaders. (Any subset is a legal
-- order; listing every one of a big stack would be 2^n groups.)
local GROUP_SUBSETS_UP_TO = 3
local function groups_of(side, leaders)
  local by_hex, labels = {}, {}
  for _, u in ipairs(hex.units.of_side(side)) do
    if u.at and not u.status.moved then
      local l = by_hex[u.at]
      if not l then l = {}; by_hex[u.at] = l; labels[#labels + 1] = u.at end
      l[#l + 1] = u
    end
  end
  table.sort(labels)
  local out = {}
  for _, at in ipairs(labels) do
    local units = by_hex[at]
    if #units >= 2 then
      table.sort(units, function(a, b) return a.id < b.id end)
      local n = #units
      if n <= GROUP_SUBSETS_UP_TO then
        for mask = 1, (1 << n) - 1 do
          local g = {}
          for k = 1, n do
            if mask & (1 << (k - 1)) ~= 0 then g[#g + 1] = units[k].id end
          end
          if #g >= 2 then out[#out + 1] = g end
        end
      else
        local all, troops = {}, {}
        for k = 1, n do
          all[k] = units[k].id
          if not leaders[units[k].type] then troops[#troops + 1] = units[k].id end
        end
        out[#out + 1] = all
        if #troops >= 2 and #troops < n then out[#out + 1] = troops end
      end
    end
  end
  return out
end

function facing.register(opts)
  local C = opts.clauses
  -- A counter's facing as the search reads it: a troop a setup gave no facing plays as facing 0
  -- (docs/facing.md; `hexwar check` warns of it); a leader has none (TA-R2). (Read as nil here,
  -- such a troop crashed `legal`, could not wheel, and was refused a plain move "facing none".)
  -- Kinds without a facing: the leaders, and troops the declaration gives `facing = "none"`
  -- (read when first asked, so a variant's change to the declaration counts).
  local faceless_kinds = nil
  local function faceless(kind)
    if not faceless_kinds then
      faceless_kinds = {}
      for k in pairs(opts.leaders) do faceless_kinds[k] = true end
      local decl = hex.rules.get("facing")
      for k, rule in pairs(decl and decl.kinds or {}) do
        if type(rule) == "table" and (rule.leader or rule.facing == "none") then faceless_kinds[k] = true end
      end
    end
    return faceless_kinds[kind] == true
  end
  local function facing_of(u)
    if faceless(u.type) then return nil end
    return u.facing or 0
  end
  hex.commands.define("move", {
    -- (kinds: a client's malformed order is refused by the host, not an error in these rules)
    args = { unit = "unit?", units = "units?", path = "path?", facing = "any?" },
    resolve = function(cmd, side)
      local bad = malformed_move(cmd)
      if bad then return hex.refuse(C.move, bad) end
      local ids = members(cmd)
      local first
      for _, id in ipairs(ids) do
        local u = hex.units.get(id)
        if not u then return hex.refuse(C.move, "no unit " .. id) end
        if u.side ~= side then return hex.refuse(C.move, id .. " is not a " .. side .. " unit") end
        if u.status.moved then return hex.refuse(C.move, id .. " has already moved") end
        if not u.at then return hex.refuse(C.move, id .. " is not on the map") end
        first = first or u
        if u.at ~= first.at then
          return hex.refuse(C.move, "a moving group is counters of one side in one hex (TA-R13): "
            .. first.id .. " is at " .. tostring(first.at) .. ", " .. id .. " at " .. tostring(u.at))
        end
      end
      if hex.state.phase() ~= "movement" then return hex.refuse(C.move, "units move in the movement phase") end
      local path = cmd.path or {}
      -- ANC-5.4 / TA-R13: the group keeps the facing of its first non-leader; leaders (and kinds
      -- declared `facing = "none"`) have no facing (TA-R2), whatever a setup wrote for them, and
      -- "none" is how a listing names that.
      local f = cmd.facing
      if f == "none" then f = nil end
      if cmd.facing == nil then
        for _, id in ipairs(ids) do
          local u = hex.units.get(id)
          if not faceless(u.type) then
            f = facing_of(u)
            -- (a two-base unit keeps its pair, TAC-4 / TA-R6)
            if f ~= nil and u.attrs.facing2 ~= nil then f = f .. "," .. u.attrs.facing2 end
            break
          end
        end
      end
      -- TA-R18: joiners take the stack's facing, so a join given no facing is read with it
      -- (it was refused as "takes its facing 2, not 0"). Only troops join, and only where
      -- stacks are formed (opts.groups: ANC-5.3): a leader has no facing to take (TA-R7, R17),
      -- and in TAC a non-leader ending on one is refused by TAC-5, not read with its facing.
      local last = path[#path]
      local troops = false
      for _, id in ipairs(ids) do troops = troops or not faceless(hex.units.get(id).type) end
      if cmd.facing == nil and last and troops and opts.groups then
        local in_group = {}
        for _, id in ipairs(ids) do in_group[id] = true end
        for _, v in ipairs(hex.units.at(last)) do
          if v.side == first.side and not in_group[v.id] and not faceless(v.type) then
            f = facing_of(v)
            break
          end
        end
      end
      local cost = hex.path.check_facing(ids, path, f)
      if type(cost) ~= "number" then return cost end
      local events = {}
      for _, id in ipairs(ids) do
        local u = hex.units.get(id)
        for _, label in ipairs(path) do
          events[#events + 1] = { event = "UnitEnteredHex", unit = id, hex = label }
        end
        if #path > 0 then
          events[#events + 1] = { event = "UnitMoved", unit = id, from = u.at, to = path[#path], path = path, cost = cost }
        end
        local moved = { "moved" }
        if f ~= nil and not faceless(u.type) then
          if type(f) == "string" then
            local a, b = f:match("^(%d),(%d)$")
            a, b = tonumber(a), tonumber(b)
            events[#events + 1] = { event = "UnitFacingChanged", unit = id, facing = a, facing2 = b }
            -- TAC-4 / TA-R6: a two-base unit that changed hex moved both bases; one that only
            -- re-faced moved just the base(s) whose facing changed. A round trip back to the
            -- start hex has not changed hex (as TA-R5 reads it: ending there is no move).
            local changed_hex = #path > 0 and path[#path] ~= u.at
            if changed_hex or a ~= facing_of(u) then moved[#moved + 1] = "base1_moved" end
            if changed_hex or b ~= u.attrs.facing2 then moved[#moved + 1] = "base2_moved" end
          else
            events[#events + 1] = { event = "UnitFacingChanged", unit = id, facing = f }
          end
        end
        events[#events + 1] = { event = "UnitStatusChanged", unit = id, add = moved }
      end
      return events
    end,
    legal = function(side)
      if hex.state.phase() ~= "movement" then return {} end
      local out = {}
      -- (`who`: a unit id, or a group's list of ids; each reachable hex and end facing)
      local function list_moves(who, key)
        local reach = hex.path.reach_facing(who, nil, { paths = true })
        for _, label in ipairs(lib.sorted_keys(reach)) do
          local per = reach[label]
          for _, f in ipairs(sorted_facings(per)) do
            local fa = f
            if fa == "none" then fa = nil end
            out[#out + 1] = { command = "move", [key] = who, path = per[f].path, facing = fa }
          end
        end
      end
      for _, u in ipairs(hex.units.of_side(side)) do
        if u.at and not u.status.moved then list_moves(u.id, "unit") end
      end
      if opts.groups then
        for _, g in ipairs(groups_of(side, opts.leaders)) do list_moves(g, "units") end
      end
      return out
    end,
  })

  -- ANC-5.4: a stack shares one facing, so a unit wheels with the rest of its stack: its side's
  -- counters in the hex that have not moved, leaders excepted (TA-R2: they have no facing, and
  -- TA-R17: they ignore stacking, so a wheel neither turns them nor spends their move), and so
  -- are troops of a kind declared without facing.
  local function wheel_stack(u, side)
    local stack = {}
    for _, v in ipairs(hex.units.at(u.at)) do
      if v.side == side and not v.status.moved and not faceless(v.type) then
        stack[#stack + 1] = v.id
      end
    end
    return stack
  end

  -- ANC-6.3 / TA-R15: a phalanx in contact turns 60° as its whole move after a morale test.
  hex.commands.define("wheel", {
    args = { unit = "unit", facing = "direction" },
    resolve = function(cmd, side)
      local u = hex.units.get(cmd.unit or "")
      if not u or u.side ~= side then return hex.refuse(C.wheel, "wheel needs one of your units") end
      if hex.state.phase() ~= "movement" or u.status.moved then return hex.refuse(C.wheel, u.id .. " cannot wheel now") end
      -- TA-R15: only the kinds declared in `wheels` (phalanxes) wheel; other troops face freely.
      if not (opts.wheels and opts.wheels[u.type]) then
        local kinds = {}
        for kind in pairs(opts.wheels or {}) do kinds[#kinds + 1] = kind end
        table.sort(kinds)
        local who = #kinds > 0 and ("only " .. table.concat(kinds, ", ") .. " units wheel")
          or "no unit wheels in this game"
        return hex.refuse(C.wheel, u.id .. " does not wheel (" .. who .. "): a unit of type "
          .. u.type .. " turns during its move")
      end
      if not hex.path.in_contact(u.id) then return hex.refuse(C.wheel, u.id .. " is not in contact; it turns during its move") end
      if math.type(cmd.facing) ~= "integer" or cmd.facing < 0 or cmd.facing > 5 then
        return hex.refuse(C.wheel, "a wheel's facing is a corner 0..5, not " .. tostring(cmd.facing))
      end
      -- (one 60° step, TA-R15: a turn of 120° was refused as if the unit were not allowed to
      -- turn in contact at all)
      local now = facing_of(u)
      if (cmd.facing - now) % 6 ~= 1 and (now - cmd.facing) % 6 ~= 1 then
        return hex.refuse(C.wheel, string.format("a wheel turns 60°: %s faces %d, so it wheels to %d or %d, not %d",
          u.id, now, (now + 5) % 6, (now + 1) % 6, cmd.facing))
      end
      local stack = wheel_stack(u, side)
      local ok = hex.path.check_facing(stack, {}, cmd.facing, nil, { contact_turn = true })
      if type(ok) ~= "number" then return ok end
      local roll = hex.dice.roll(6)
      -- ANC-5.4: the stack is one unit, so it tests once, with its lowest morale (the texts do
      -- not say whose; a player naming the counter with the best morale took that one's)
      local morale = u.attrs.morale or 4
      for _, id in ipairs(stack) do
        morale = math.min(morale, hex.units.get(id).attrs.morale or 4)
      end
      local events = { hex.events.emit("MoraleTest", { unit = u.id, roll = roll, morale = morale, passed = roll <= morale }) }
      for _, id in ipairs(stack) do
        if roll <= morale then
          events[#events + 1] = { event = "UnitFacingChanged", unit = id, facing = cmd.facing }
        end
        events[#events + 1] = { event = "UnitStatusChanged", unit = id, add = { "moved" } }
      end
      return events
    end,
    -- (only the wheels `resolve` takes: a stack holding a disordered counter, TA-R12, does not
    -- wheel)
    legal = function(side)
      if hex.state.phase() ~= "movement" then return {} end
      local out = {}
      for _, u in ipairs(hex.units.of_side(side)) do
        if u.at and not u.status.moved and opts.wheels and opts.wheels[u.type] and hex.path.in_contact(u.id) then
          local stack = wheel_stack(u, side)
          for _, d in ipairs({ 1, 5 }) do
            local f = (facing_of(u) + d) % 6
            if type(hex.path.check_facing(stack, {}, f, nil, { contact_turn = true })) == "number" then
              out[#out + 1] = { command = "wheel", unit = u.id, facing = f }
            end
          end
        end
      end
      return out
    end,
  })

  local function in_list(list, x)
    for _, y in ipairs(list) do if y == x then return true end end
    return false
  end

  -- Melee: an attacker strikes an enemy in one of its front hexes (or sharing its hex after a
  -- TAC-6 charge). Leaders do not fight.
  local function may_attack(a, d)
    if a.at == d.at then return true end
    return in_list(hex.path.front(a.id), d.at)
  end

  -- Why `a` may not attack `d` as units (nil when they are one of `side`'s units and an
  -- enemy's, both on the map): each case said, a target already gone out of play by name.
  local function who_fights(a, d, cmd, side)
    local function gone(id)
      for _, u in ipairs(hex.units.gone()) do
        if u.id == id then return true end
      end
      return false
    end
    for _, x in ipairs({ { a, cmd.unit, "attacker" }, { d, cmd.target, "target" } }) do
      local u, id, role = x[1], tostring(x[2] or ""), x[3]
      if not u and gone(id) then return "the " .. role .. " " .. id .. " is out of play" end
      if not u then return "no unit '" .. id .. "' (the " .. role .. ")" end
      if not u.at then return "the " .. role .. " " .. id .. " is not on the map" end
    end
    if a.side ~= side then return a.id .. " is not " .. side .. "'s unit" end
    if d.side == side then return d.id .. " is " .. side .. "'s own unit" end
    return nil
  end

  hex.commands.define("attack", {
    args = { unit = "unit", target = "unit" },
    resolve = function(cmd, side)
      local a, d = hex.units.get(cmd.unit or ""), hex.units.get(cmd.target or "")
      local refusal = who_fights(a, d, cmd, side)
      if refusal then return hex.refuse(C.attack, refusal) end
      if hex.state.phase() ~= "combat" then return hex.refuse(C.attack, "attacks happen in the combat phase") end
      if a.status.attacked then return hex.refuse(C.attack, a.id .. " has already attacked") end
      if opts.leaders[a.type] then return hex.refuse(C.leader_front or C.attack, "leaders have no front (TA-R2), so they do not attack") end
      if not may_attack(a, d) then return hex.refuse(C.front, d.id .. " is not in the front of " .. a.id) end
      local flank = a.at ~= d.at and not in_list(hex.path.front(d.id), a.at)
      local roll = hex.dice.roll(6)
      local total = roll + a.strength + (flank and opts.flank_bonus or 0) - d.strength
      local events = { { event = "UnitStatusChanged", unit = a.id, add = { "attacked" } } }
      local result
      if total >= 5 or (a.at == d.at and total >= 3) then
        result = "defender eliminated"
        events[#events + 1] = { event = "UnitEliminated", unit = d.id, reason = "side=" .. d.side .. " melee" }
      elseif total <= 0 or a.at == d.at then
        result = "attacker eliminated"
        events[#events + 1] = { event = "UnitEliminated", unit = a.id, reason = "side=" .. a.side .. " melee" }
      else
        result = "no effect"
      end
      table.insert(events, 1, hex.events.emit("MeleeResolved", { attacker = a.id, defender = d.id, roll = roll, flank = flank, total = total, result = result }))
      return events
    end,
    legal = function(side)
      if hex.state.phase() ~= "combat" then return {} end
      local out = {}
      for _, a in ipairs(hex.units.of_side(side)) do
        if a.at and not a.status.attacked and not opts.leaders[a.type] then
          local targets = {}
          for _, h in ipairs(hex.path.front(a.id)) do targets[#targets + 1] = h end
          targets[#targets + 1] = a.at
          for _, h in ipairs(targets) do
            for _, d in ipairs(hex.units.at(h)) do
              if d.side ~= side then out[#out + 1] = { command = "attack", unit = a.id, target = d.id } end
            end
          end
        end
      end
      return out
    end,
  })

  -- (priority 2: every PhaseEnded handler sees the state the phase ended on, flags set; the
  -- flags are cleared first, so that the charge melee's eliminations below come after. The
  -- other way round the clearing named a charger already eliminated, and the phase could never
  -- end.)
  hex.events.on("PhaseEnded", require("lib").clearing_phase_flags({ "moved", "attacked", "base1_moved", "base2_moved" }), 2)

  -- A melee started by a TAC-6 charge must be fought in the charging side's combat phase
  -- (the module's reading of "resolved later"). When that phase ends, in each hex the phasing
  -- side shares with the enemy:
  -- * enemy non-leaders still there: every phasing unit there lost the melee unfought;
  -- * only enemy leaders left (leaders do not fight, TA-R7 does not count them): a phasing
  --   non-leader that attacked this phase holds the hex and captures them; one that did not
  --   attack lost the melee unfought, and a phasing leader with no such non-leader beside it
  --   too.
  -- (every handler of the PhaseEnded sees `attacked` still set: the clearing above is applied
  -- before these eliminations, priority 2 over 1)
  local function eliminated(u, why)
    return { event = "UnitEliminated", unit = u.id, reason = "side=" .. u.side .. " " .. why }
  end
  hex.events.on("PhaseEnded", function(ev)
    if ev.phase ~= "combat" then return nil end
    local out, seen = {}, {}
    for _, u in ipairs(hex.units.of_side(ev.side)) do
      if u.at and not seen[u.at] then
        seen[u.at] = true
        local ours, enemy_fighters, enemy_leaders = {}, 0, {}
        for _, d in ipairs(hex.units.at(u.at)) do
          if d.side == ev.side then ours[#ours + 1] = d
          elseif opts.leaders[d.type] then enemy_leaders[#enemy_leaders + 1] = d
          else enemy_fighters = enemy_fighters + 1 end
        end
        if enemy_fighters > 0 then
          for _, p in ipairs(ours) do out[#out + 1] = eliminated(p, "melee not fought") end
        elseif #enemy_leaders > 0 then
          local holds = false
          for _, p in ipairs(ours) do
            if not opts.leaders[p.type] and p.status.attacked then holds = true end
          end
          for _, p in ipairs(ours) do
            if not (p.status.attacked and not opts.leaders[p.type]) and not (holds and opts.leaders[p.type]) then
              out[#out + 1] = eliminated(p, "melee not fought")
            end
          end
          if holds then
            for _, d in ipairs(enemy_leaders) do out[#out + 1] = eliminated(d, "captured in melee") end
          end
        end
      end
    end
    return out
  end, 1)

  hex.events.on("UnitEliminated", function(ev)
    local key = "eliminated_" .. (ev.reason:match("^side=(%w+)") or "unknown")
    return hex.state.set(key, (hex.state.get(key) or 0) + 1)
  end)

  hex.rules.victory(function()
    local scores = {}
    for _, s in ipairs(hex.state.sides()) do scores[s] = 0 end
    for _, s in ipairs(hex.state.sides()) do
      local lost = hex.state.get("eliminated_" .. s) or 0
      for _, o in ipairs(hex.state.sides()) do if o ~= s then scores[o] = scores[o] + lost end end
    end
    local best, winner, tie = -1, nil, false
    for _, s in ipairs(hex.state.sides()) do
      if scores[s] > best then best, winner, tie = scores[s], s, false
      elseif scores[s] == best then tie = true end
    end
    if tie then winner = nil end
    return { winner = winner, scores = scores, reason = "enemy counters eliminated in melee" }
  end)
end

return facing
