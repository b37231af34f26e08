-- A variant for the tests: no retreat to MUN (order_allowed refuses it, with its reason).
local function order_allowed(rules, cm, position, power, order)
  if order.kind == "R" and cm.loc_prov[order.dest] == "MUN" then return false, "no retreat to MUN" end
end
return require("diplomacy").variant({ order_allowed = order_allowed })
