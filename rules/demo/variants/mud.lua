-- Mud: a variant of the demo (docs/guide.md, "Ten minutes"). Forests and marshes cost one more
-- MP, and at most one unit may stand in a hex.
local terrain = hex.rules.get("movement").terrain
terrain.forest = terrain.forest + 1
terrain.marsh = terrain.marsh + 1
hex.rules.declare("stack_limit", 1)
