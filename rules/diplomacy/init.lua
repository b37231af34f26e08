-- diplomacy -- standard Diplomacy adjudication (movement, retreats, adjustments) as a rules module.
--
--   local game = require("diplomacy")            -- (or require("diplomacy.init"))
--   local pos = game.new_position(board, {phase = "S1901M", units = {...}, centers = {...}})
--   local result, next_pos = game.adjudicate(board, pos, {FRANCE = {"A PAR - BUR"}, ...})
--
-- game.rules is the table of replaceable rule functions (diplomacy.adjudicate); a variant is
-- `return require("diplomacy").variant{ retreat_options = ... }`, the standard rules with some
-- replaced.
-- API and table shapes: docs/diplomacy.md.

local adj = require("diplomacy.adjudicate")
local game = require("diplomacy.game").new(adj.rules)
game.extend = adj.extend
game.new_game = require("diplomacy.game").new
-- A variant in one call: the standard rules with `overrides` replacing some of them
-- (docs/diplomacy.md, "Writing a variant"). Made while the host loads rules modules, the new
-- game is the one the host drives (diplomacy.game installs it); under plain Lua it is a library.
function game.variant(overrides)
  return require("diplomacy.game").new(adj.extend(overrides))
end
-- The rules table in force now: while the host loads rules modules, that of the game the host
-- drives (the standard rules, with the variants loaded before the caller layered in); else the
-- standard rules. A variant that wraps a rule wraps this one's (`rules_in_force().adjustments`),
-- so that an earlier variant's replacement of it stays: `adj.rules.X` is always the standard one.
function game.rules_in_force()
  if type(hex) == "table" and hex.rules.loading() then
    local driven = require("diplomacy.host").game()
    if driven then return driven.rules end
  end
  return adj.rules
end
return game
