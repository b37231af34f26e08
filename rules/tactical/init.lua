-- rules/tactical: a colonial-era tactical game with facing (RULES.md TAC-1..TAC-8, readings
-- TA-R1..R9). Movement is declared below and searched in Rust (docs/facing.md); orders are
-- `{command = "move", unit = id, path = {...}, facing = 0..5 | "f1,f2"}`, melee by
-- `{command = "attack", unit = id, target = id}` in the combat phase (host dice; +2 when the
-- attacker stands outside the defender's front).
local facing = require("lib.facing")

hex.rules.sequence {
  steps = {
    { side = "british", phase = "movement" },
    { side = "british", phase = "combat" },
    { side = "zulu", phase = "movement" },
    { side = "zulu", phase = "combat" },
  },
}

hex.rules.declare("facing", {
  model = "tactical",
  sides = { "british", "zulu" },
  near = 2,                                                     -- TAC-1, TA-R3
  kinds = {                                                     -- TAC-2 distances; TAC-8 arcs
    infantry = { tactical = 1 },
    colonial = { tactical = 1 },                                -- two bases (TAC-4, TA-R6)
    cavalry = { tactical = 2 },
    foot_skirmisher = { tactical = 2, skirmisher = true },
    mounted_skirmisher = { tactical = 3, skirmisher = true },
    leader = { leader = true, tactical = 2 },
    artillery = { tactical = 1 },                               -- limbered
    artillery_unlimbered = { tactical = 0, immobile = true },
  },
  impassable = { "river" },
  clauses = {
    distance = "TAC-2", immobile = "TAC-2", friendly = "TAC-5", melee = "TAC-6",
    front_to_front = "TAC-7", adjacent = "TA-R4", budget = "TA-R4", not_a_move = "TA-R5",
    facing = "TAC-4", leader_facing = "TA-R2",
    -- (the map's impassable rivers are this module's own rule, not a clause of the text)
    terrain = "TAC-MAP",
  },
})

facing.reach_query()
facing.register {
  clauses = { move = "TAC-3", attack = "TAC-6", front = "TAC-8", wheel = "TAC-3", leader_front = "TA-R2" },
  leaders = { leader = true },
  flank_bonus = 2,
}
