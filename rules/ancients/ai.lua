-- A greedy bot for rules/ancients (scenario: [[side]] bot = "ancients.ai"): lib.facing_ai with
-- this game's fronts, as the facing declaration gives them (rules/ancients/init.lua): a phalanx
-- (ANC-6.1) fronts the 2 hexes beside its faced vertex, other troops all 6 neighbours (TA-R11);
-- a phalanx in contact with no enemy in front wheels (ANC-6.3).
local facing_ai = require("lib.facing_ai")

return facing_ai.greedy({
  flank = 2, -- lib.facing flank_bonus in rules/ancients/init.lua
  charges = false, -- TA-R12: no unit enters an enemy hex
  facing_of = function(u) return u.facing or 0 end,
  front_at = function(u, at, f)
    local arc = facing_ai.declared_front(u.type)
    local out = {}
    for _, o in ipairs(arc) do
      local h = hex.map.neighbor(at, (f + o) % 6)
      if h then out[#out + 1] = h end
    end
    return out
  end,
})
