-- Mud: a variant of the demo (docs/guide.md, "Ten minutes"). Forests and marshes cost one more
-- MP, and at most one unit may stand in a hex.
local costs = hex.rules.get("terrain_costs")
costs.forest = costs.forest + 1
costs.marsh = costs.marsh + 1
hex.rules.declare("stack_limit", 1)
