-- défense: a comment saved as Latin-1
-- A game with nothing to do but end phases: the save and replay cases need rules that never change.
hex.rules.sequence { steps = { { side = "blue", phase = "movement" }, { side = "red", phase = "movement" } } }
hex.rules.victory(function() return { scores = {}, reason = "nobody can win this game" } end)
