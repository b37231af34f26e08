-- diplomacy.variants.francqueville -- standard Diplomacy with the retreat rule of Yves Philippe de
-- Francqueville (RULES.md DIP-4.a .. DIP-4.m; readings R-0 .. R-m1). Movement and adjustments are
-- the standard module's, unchanged (R-m1); only the retreat part is replaced: who retreats (R-0,
-- R-k1), the option list (R-a1..R-g1), immediate removal (R-l1), the retreat phase (R-h1, R-i1,
-- R-j1) and stacks (R-g2: the core adjudicator orders and defends stacked units; R-g3 here).
-- Interpretation choices: see the header of retreats.lua and docs/diplomacy.md.
local adj = require("diplomacy.adjudicate")
local r = require("diplomacy.variants.francqueville.retreats")
-- R-g3: a stack lasts until the end of the next movement phase. One formed in the fall retreats
-- meets that phase after the winter adjustments (standard, R-m1), which must carry the record of
-- the units that arrived by retreat (`position.arrived`) for after_movement to find them.
-- (the adjustments in force below this variant: the standard ones, or an earlier variant's)
local below = require("diplomacy").rules_in_force().adjustments
local function adjustments(rules, cm, position, orders)
  local result, next_pos = below(rules, cm, position, orders)
  if position.arrived and #position.arrived > 0 then next_pos.arrived = position.arrived end
  return result, next_pos
end
local game = require("diplomacy.game").new(adj.extend({
  adjustments = adjustments,
  retreating_units = r.retreating_units,
  retreat_options = r.retreat_options,
  after_movement = r.after_movement,
  resolve_retreats = r.resolve_retreats,
  stacks = true,   -- R-g2: a power may have several units in one province (setups may show them)
}))
-- (made while the host loads the rules, this game is the one the host drives: diplomacy.game)
return game
