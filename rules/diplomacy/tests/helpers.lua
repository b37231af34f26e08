-- What the Diplomacy rule tests share (`require("helpers")`): giving a phase's orders,
-- adjudicating it, and reading one order's result.
local helpers = {}

-- Gives each power's orders (`{POWER = {"A PAR - BUR", ...}}`) as `orders` commands.
function helpers.give_orders(t, orders)
  for power, list in pairs(orders) do
    t.ok(power, { command = "orders", power = power, orders = list })
  end
end

-- Gives the orders, ends the phase (`ender`, any power, adjudicates it) and returns the phase's
-- result table (the `PhaseAdjudicated` event's data).
function helpers.adjudicate(t, ender, orders)
  helpers.give_orders(t, orders)
  for _, ev in ipairs(t.ok(ender, { command = "end_phase" })) do
    if ev.event == "Custom" and ev.name == "PhaseAdjudicated" then return ev.data end
  end
  t.fail("the phase was not adjudicated")
end

-- The flags of `order` in a result table.
function helpers.flags(t, result, order)
  for _, r in ipairs(result.results) do
    if r.order == order then return r.flags end
  end
  t.fail("no result for " .. order)
end

return helpers
