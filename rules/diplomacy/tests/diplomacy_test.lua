-- Standard Diplomacy positions laid out inline, as a designer tests a variant's rules.
-- Run: hexwar test rules/diplomacy   (API: docs/testing.md; the DATC cases are in
-- tests/diplomacy_library.rs and rules/diplomacy/tests/run.lua)

-- The position: `units` and `centers` as a setup file's `[units]` and `[centers]`.
local function position(t, setup)
  t.scenario("scenarios/diplomacy", { seed = 1 })
  t.setup(setup)
end

-- Gives each power's orders, ends the phase (any power's end_phase adjudicates it) and returns
-- the phase's result table (the `PhaseAdjudicated` event's data).
local function adjudicate(t, orders)
  for power, list in pairs(orders) do
    t.ok(power, { command = "orders", power = power, orders = list })
  end
  for _, ev in ipairs(t.ok("FRANCE", { command = "end_phase" })) do
    if ev.event == "Custom" and ev.name == "PhaseAdjudicated" then return ev.data end
  end
  t.fail("the phase was not adjudicated")
end

-- The flags of `order` in a result table.
local function flags(t, result, order)
  for _, r in ipairs(result.results) do
    if r.order == order then return r.flags end
  end
  t.fail("no result for " .. order)
end

test("a supported attack dislodges, and the retreat phase lists where the unit may go", function(t)
  position(t, { phase = "S1901M", units = { FRANCE = { "A PAR", "A BUR" }, GERMANY = { "A MUN" } } })
  local result = adjudicate(t, { FRANCE = { "A BUR - MUN", "A PAR S A BUR - MUN" } })
  -- (PAR does not border MUN: the support is void, the attack bounces)
  t.eq(flags(t, result, "A PAR S A BUR - MUN"), { "void" })
  t.eq(flags(t, result, "A BUR - MUN"), { "bounce" })
  t.eq(result.next_phase, "F1901M")

  position(t, { phase = "S1901M", units = { FRANCE = { "A RUH", "A BUR" }, GERMANY = { "A MUN" } } })
  result = adjudicate(t, { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
  t.eq(flags(t, result, "A BUR - MUN"), {})
  t.eq(result.dislodged, { { power = "GERMANY", unit = "A MUN", by = "BUR", retreats = { "BER", "BOH", "KIE", "SIL", "TYR" } } })
  t.eq(result.next_phase, "S1901R")
  -- (Germany's army waits to retreat: off the board's unit list)
  t.eq(t.state().vars.position.units, { FRANCE = { "A MUN", "A RUH" }, GERMANY = {} })
end)

test("check_order says why an order is void, and what it is beside the phase's orders", function(t)
  position(t, { phase = "S1901M", units = { GERMANY = { "A MUN", "A BER" } } })
  local answer = t.query("check_order", { power = "GERMANY", order = "A MUN - PAR" })
  t.eq(answer.reason, "A MUN cannot reach PAR (not adjacent for an army, and no convoy could carry it there)")
  answer = t.query("check_order", {
    power = "GERMANY", order = "A BER S A MUN - SIL",
    orders = { GERMANY = { "A MUN - BOH", "A BER S A MUN - SIL" } },
  })
  t.eq(answer.void, false)
  t.eq(answer.beside, "the army in MUN is ordered A MUN - BOH, not to move to SIL")
end)

test("a winter build is made in an owned, empty home centre", function(t)
  position(t, {
    phase = "W1901A",
    units = { GERMANY = { "A BER", "A HOL" } },
    centers = { GERMANY = { "BER", "HOL", "KIE", "MUN" } },
  })
  local result = adjudicate(t, { GERMANY = { "A KIE B", "A BER B" } })
  t.eq(flags(t, result, "A KIE B"), {})
  t.eq(flags(t, result, "A BER B"), { "void" })
  t.eq(result.units.GERMANY, { "A BER", "A HOL", "A KIE" })
end)
