-- A greedy bot for rules/tactical (scenario: [[side]] bot = "tactical.ai"): lib.facing_ai with
-- this game's fronts, as the facing declaration gives them (TAC-8: the faced hex and its two
-- neighbours; a two-base unit, TA-R6, the union of both bases' arcs) and charges into enemy
-- hexes (TAC-6).
local facing_ai = require("lib.facing_ai")

return facing_ai.greedy({
  flank = 2, -- lib.facing flank_bonus in rules/tactical/init.lua
  charges = true,
  -- "a,b" for a two-base unit (TA-R6), else its one facing.
  facing_of = function(u)
    if u.attrs.facing2 then return u.facing .. "," .. u.attrs.facing2 end
    return u.facing
  end,
  front_at = function(u, at, f)
    local faces = {}
    if type(f) == "string" then
      local a, b = f:match("^(%d),(%d)$")
      faces = { tonumber(a), tonumber(b) }
    elseif f ~= nil then
      faces = { f }
    end
    local out = {}
    for _, face in ipairs(faces) do
      for _, o in ipairs(facing_ai.declared_front(u.type)) do
        local h = hex.map.neighbor(at, (face + o) % 6)
        if h and not facing_ai.in_list(out, h) then out[#out + 1] = h end
      end
    end
    return out
  end,
})
