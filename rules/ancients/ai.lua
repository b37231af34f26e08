-- A greedy bot for rules/ancients (scenario: [[side]] bot = "ancients.ai"). It reads the
-- position only and returns the index of the legal command it picks; ties are broken with
-- the seed the host gives (so a run is deterministic by scenario seed).
--   combat:   attack where d6 + margin (flank bonus included) cannot lose;
--   movement: end next to an enemy with it in the front (a phalanx: its 2 front hexes,
--             ANC-6.4; flank preferred), else close in; a phalanx in contact with no enemy
--             in front wheels (ANC-6.3); a unit moves only when that improves on staying put;
--   otherwise end the phase.
local FLANK = 2 -- lib.facing flank_bonus in rules/ancients/init.lua
local PHALANX_ARC = { -1, 0 } -- ANC-6.1: the edges either side of the faced vertex
local ALL_ROUND = { 0, 1, 2, 3, 4, 5 } -- TA-R11: other troops front all 6 neighbours

local function enemies_of(side)
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

local function in_list(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end

-- The front hexes of a unit of kind `kind` standing at `at` with facing `f`.
local function front_at(kind, at, f)
  local arc = kind == "phalanx" and PHALANX_ARC or ALL_ROUND
  local out = {}
  for _, o in ipairs(arc) do
    local h = hex.map.neighbor(at, (f + o) % 6)
    if h then out[#out + 1] = h end
  end
  return out
end

-- How good it is for `u` to stand at `at` facing `f`.
local function standing(u, at, f, enemies, fronts)
  if u.type == "leader" then return 0 end
  local front = front_at(u.type, at, f)
  local best, near = nil, math.huge
  for _, e in ipairs(enemies) do
    local d = hex.map.distance(at, e.at)
    if d < near then near = d end
    if d == 1 and in_list(front, e.at) then
      local flank = not in_list(fronts[e.id], at)
      local margin = u.strength - e.strength + (flank and FLANK or 0)
      local score = 300 + 10 * margin
      if not best or score > best then best = score end
    end
  end
  if best then return best end
  return 100 - 5 * near
end

local function attack_score(cmd, fronts)
  local a, d = hex.units.get(cmd.unit), hex.units.get(cmd.target)
  local flank = not in_list(fronts[d.id] or {}, a.at)
  local margin = a.strength - d.strength + (flank and FLANK or 0)
  if margin >= 0 then return 1000 + margin end
  return nil
end

return function(side, legal, seed)
  local enemies = enemies_of(side)
  local fronts = {}
  for _, e in ipairs(enemies) do fronts[e.id] = hex.path.front(e.id) end
  local here = {}
  local best, best_score, ties, end_index = {}, nil, 0, nil
  for i, cmd in ipairs(legal) do
    local score
    if cmd.command == "attack" then
      score = attack_score(cmd, fronts)
    elseif cmd.command == "move" or cmd.command == "wheel" then
      local u = hex.units.get(cmd.unit)
      if here[u.id] == nil then here[u.id] = standing(u, u.at, u.facing, enemies, fronts) end
      local to = cmd.path and cmd.path[#cmd.path] or u.at
      local s = standing(u, to, cmd.facing or u.facing or 0, enemies, fronts)
      if cmd.command == "wheel" then s = s - 50 end -- the morale test may fail
      if s > here[u.id] then score = s end
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
