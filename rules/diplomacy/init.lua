-- diplomacy -- standard Diplomacy adjudication (movement, retreats, adjustments) as a rules module.
--
--   local game = require("diplomacy")            -- (or require("diplomacy.init"))
--   local pos = game.new_position(board, {phase = "S1901M", units = {...}, centers = {...}})
--   local result, next_pos = game.adjudicate(board, pos, {FRANCE = {"A PAR - BUR"}, ...})
--
-- game.rules is the table of replaceable rule functions (diplomacy.adjudicate); a variant builds
-- its own game with require("diplomacy.game").new(require("diplomacy.adjudicate").extend{...}).
-- API and table shapes: docs/diplomacy.md.

local adj = require("diplomacy.adjudicate")
local game = require("diplomacy.game").new(adj.rules)
game.extend = adj.extend
game.new_game = require("diplomacy.game").new
-- Inside the hexwar host (the `hex` API exists) this module is also the rules module that drives
-- the game (diplomacy.host); under plain Lua it is only the library.
if type(hex) == "table" then require("diplomacy.host").install(game) end
return game
