-- lib.facing_ai: the greedy bot shared by the facing games (rules/tactical, rules/ancients). It
-- reads the position only and returns the index of the legal command it picks; ties are broken
-- with the seed the host gives, so a run is deterministic by scenario seed.
--   combat:   attack where d6 + margin (flank bonus included) cannot lose; with `charges`, fight
--             first every melee a charge started (TAC-6: an unfought one is lost);
--   movement: with `charges`, charge an enemy hex when strength at least matches; else end next
--             to an enemy with it in the front (flank preferred), else close in; a unit moves
--             only when that improves on staying put (a group, when it does for each of its
--             troops); a wheel (ANC-6.3) counts 50 less, since the morale test may fail;
--   otherwise end the phase.
-- A game passes what differs: `front_at(u, at, f)` (its front arcs), `facing_of(u)` (the
-- facing a unit now has, in the form `front_at` takes), `flank` (the bonus its melee rule
-- declares) and `charges`.
local M = {}

function M.in_list(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end

-- The non-leader units of every other side standing on the map.
function M.enemies_of(side)
  local out = {}
  for _, s in ipairs(hex.state.sides()) do
    if s ~= side then
      for _, u in ipairs(hex.units.of_side(s)) do
        if u.at and u.type ~= "leader" then out[#out + 1] = u end
      end
    end
  end
  return out
end

-- The front arc the facing declaration gives `kind`, as offsets from the facing: its `front`
-- ("all" or a list), else its facing's default (an edge troop's faced hex and the two beside
-- it, a vertex troop's two hexes beside the faced corner; none for a leader or `facing =
-- "none"`), as the engine's searches read it: a variant that changes a kind's front changes
-- the bots' reading of it too (the games' bots kept arcs of their own).
local declared_fronts = {}
function M.declared_front(kind)
  local known = declared_fronts[kind]
  if known then return known end
  local decl = hex.rules.get("facing")
  local k = decl and decl.kinds and decl.kinds[kind] or {}
  local front, out = k.front, {}
  if front == "all" then
    out = { 0, 1, 2, 3, 4, 5 }
  elseif type(front) == "table" then
    for i, o in ipairs(front) do out[i] = o end
  elseif k.leader or k.facing == "none" then
    out = {}
  elseif k.facing == "vertex" then
    out = { -1, 0 }
  else
    out = { -1, 0, 1 }
  end
  declared_fronts[kind] = out
  return out
end

function M.greedy(opts)
  local in_list = M.in_list

  -- How good it is for `u` to stand at `at` facing `f`.
  local function standing(u, at, f, enemies, fronts)
    if u.type == "leader" then return 0 end
    local front = opts.front_at(u, at, f)
    local best, near = nil, math.huge
    for _, e in ipairs(enemies) do
      if opts.charges and e.at == at then
        -- A charge (TAC-6): the melee is won on d6 + margin >= 3.
        local margin = u.strength - e.strength
        if margin >= 0 then return 500 + 10 * margin end
        return -100
      end
      local d = hex.map.distance(at, e.at)
      if d < near then near = d end
      if d == 1 and in_list(front, e.at) then
        local flank = not in_list(fronts[e.id], at)
        local margin = u.strength - e.strength + (flank and opts.flank or 0)
        local score = 300 + 10 * margin
        if not best or score > best then best = score end
      end
    end
    if best then return best end
    return 100 - 5 * near
  end

  local function attack_score(cmd, fronts)
    local a, d = hex.units.get(cmd.unit), hex.units.get(cmd.target)
    if opts.charges and a.at == d.at then return 2000 + a.strength - d.strength end
    local flank = not in_list(fronts[d.id] or {}, a.at)
    local margin = a.strength - d.strength + (flank and opts.flank or 0)
    if margin >= 0 then return 1000 + margin end
    return nil
  end

  return function(side, legal, seed)
    local enemies = M.enemies_of(side)
    local fronts = {}
    for _, e in ipairs(enemies) do fronts[e.id] = hex.path.front(e.id) end
    local here = {}
    local best, best_score, ties, end_index = {}, nil, 0, nil
    for i, cmd in ipairs(legal) do
      local score
      if cmd.command == "attack" then
        score = attack_score(cmd, fronts)
      elseif cmd.command == "move" or cmd.command == "wheel" then
        -- a group (ANC-5.4) moves only when that improves on staying put for each of its
        -- troops, and scores as its first troop (a stack is of one kind, ANC-5.1)
        local members = cmd.units or { cmd.unit }
        for k = #members, 1, -1 do
          local u = hex.units.get(members[k])
          if here[u.id] == nil then here[u.id] = standing(u, u.at, opts.facing_of(u), enemies, fronts) end
          local to = cmd.path and cmd.path[#cmd.path] or u.at
          local s = standing(u, to, cmd.facing or opts.facing_of(u), enemies, fronts)
          if cmd.command == "wheel" then s = s - 50 end
          if u.type ~= "leader" or #members == 1 then
            if s <= here[u.id] then score = nil; break end
            score = s
          end
        end
      elseif cmd.command == "end_phase" then
        end_index = i
      end
      if score then
        if not best_score or score > best_score then
          best, best_score, ties = { i }, score, 1
        elseif score == best_score then
          ties = ties + 1
          best[ties] = i
        end
      end
    end
    if best_score then return best[1 + seed % ties] end
    return end_index or 1
  end
end

return M
