-- A greedy bot for the demo, written in Lua (scenario: [[side]] bot = "demo.ai"). It runs in the
-- rules' sandbox and only reads the position: it returns the index of the legal command it picks.
--   1. attack where its strength beats the defender's by the most;
--   2. otherwise move toward the nearest objective (town or city) its side does not hold;
--   3. otherwise end the phase.
local lib = require("lib")

local function objectives_not_held(side)
  local out = {}
  for _, label in ipairs(hex.map.hexes()) do
    if (hex.map.has_feature(label, "town") or hex.map.has_feature(label, "city"))
      and hex.state.control(label) ~= side then
      out[#out + 1] = label
    end
  end
  return out
end

return function(side, legal, seed)
  local best, best_score, end_index = nil, nil, nil
  local targets = nil
  for i, cmd in ipairs(legal) do
    local score
    if cmd.command == "attack" then
      local a, d = hex.units.get(cmd.unit), hex.units.get(cmd.target)
      local margin = a.strength - d.strength
      if margin >= 0 then score = 1000 + margin end
    elseif cmd.command == "move" then
      targets = targets or objectives_not_held(side)
      local unit = hex.units.get(cmd.unit)
      local to = cmd.path[#cmd.path]
      local before, after = math.huge, math.huge
      for _, t in ipairs(targets) do
        before = math.min(before, hex.map.distance(unit.at, t))
        after = math.min(after, hex.map.distance(to, t))
      end
      if after < before and #lib.units_of_side_at(to, side) == 0 then score = 100 - after end
    elseif cmd.command == "end_phase" then
      end_index = i
    end
    if score and (not best_score or score > best_score) then best, best_score = i, score end
  end
  return best or end_index or 1
end
