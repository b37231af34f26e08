-- rules/ancients: Hellenistic battles with phalanxes (RULES.md ANC-5.1..7.3, readings
-- TA-R10..R20). Movement, stacking joins and facing are declared below and searched in Rust
-- (docs/facing.md). Orders: `{command = "move", unit = id | units = {ids}, path = {...},
-- facing = 0..5}`; `{command = "wheel", unit = id, facing = f}` (ANC-6.3, morale test with the
-- host dice); `{command = "attack", unit = id, target = id}` (a phalanx only into its front,
-- ANC-6.4; +2 for a flank attack).
local facing = require("lib.facing")

hex.rules.sequence {
  steps = {
    { side = "macedon", phase = "movement" },
    { side = "macedon", phase = "combat" },
    { side = "seleucid", phase = "movement" },
    { side = "seleucid", phase = "combat" },
  },
}

hex.rules.declare("facing", {
  model = "ancients",
  sides = { "macedon", "seleucid" },
  not_in_order = { "disordered" },                              -- TA-R10, R16
  max_escorts = 2,                                              -- ANC-5.1
  kinds = {
    phalanx = { facing = "vertex", turn_cost = 1, join = 1 },   -- ANC-6.1, 6.2, 5.3
    light = { front = "all", join = 1, escort = true },         -- TA-R11
    cavalry = { front = "all", join = 2 },
    elephant = { front = "all", join = 2, escorted = true },
    leader = { leader = true },                                 -- TA-R17
  },
  clauses = {
    phalanx_front = "ANC-7.2", front_stop = "ANC-7.3", join = "ANC-5.3", stack = "ANC-5.1",
    stack_facing = "ANC-5.4",
    turn = "ANC-6.2", contact_turn = "ANC-6.3", facing = "ANC-6.2", enemy_hex = "ANC-7.1",
    budget = "ANC-7.1", friendly = "ANC-7.1", adjacent = "ANC-7.1", immobile = "ANC-7.1",
    not_a_move = "ANC-7.1", leader_facing = "TA-R2",
  },
})

facing.reach_query()
facing.register {
  clauses = { move = "ANC-7.1", attack = "ANC-6.4", front = "ANC-6.4", wheel = "ANC-6.3", leader_front = "TA-R2" },
  leaders = { leader = true },
  wheels = { phalanx = true },
  groups = true,                                                -- ANC-5.4: stacks move as one
  flank_bonus = 2,
}
