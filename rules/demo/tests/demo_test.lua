-- The demo rules (rules/demo/init.lua), clause by clause, as designer's tests.
-- Run: hexwar test rules/demo   (API: docs/testing.md)

-- The test position: three blue units by the river, two red ones beyond it.
local function position(t, seed)
  t.scenario("scenarios/demo", { seed = seed or 11 })
  t.setup {
    units = {
      { id = "b1", side = "blue", type = "infantry", ma = 4, strength = 3, at = "0504" },
      { id = "b2", side = "blue", type = "infantry", ma = 4, strength = 3, at = "0503" },
      { id = "b3", side = "blue", type = "armor", ma = 6, strength = 4, at = "0403" },
      { id = "r1", side = "red", type = "infantry", ma = 4, strength = 3, at = "0706" },
      { id = "r2", side = "red", type = "infantry", ma = 4, strength = 1, at = "0902" },
    },
  }
end

local function move(unit, path) return { command = "move", unit = unit, path = path } end
local function attack(unit, target) return { command = "attack", unit = unit, target = target } end

test("DEMO-1: moves go to adjacent hexes, within the MA, once a phase", function(t)
  position(t)
  local r = t.expect_refused("blue", move("b1", { "0506" }), "DEMO-1")
  t.eq(r.reason, "each hex of a path must be adjacent to the one before (step 1: 0504 to 0506)")
  r = t.expect_refused("blue", move("b2", { "0502", "0402", "0302", "0202", "0102" }), "DEMO-1")
  t.eq(r.reason, "the path costs 5 MP by this step, more than the 4 MP allowed (step 3: 0402 to 0302)")
  t.truthy(not t.has_status("b2", "moved"), "b2 has not moved yet")
  t.ok("blue", move("b2", { "0502" }))
  t.truthy(t.has_status("b2", "moved"), "b2 is marked moved")
  t.expect_refused("blue", move("b2", { "0501" }), "DEMO-1")
end)

test("DEMO-2: a lake is prohibited, a river costs one more", function(t)
  position(t)
  t.expect_refused("blue", move("b1", { "0605" }), "DEMO-2")
  local events = t.ok("blue", move("b1", { "0604" }))
  local moved
  for _, ev in ipairs(events) do
    if ev.event == "UnitMoved" then moved = ev end
  end
  t.eq(moved, { event = "UnitMoved", unit = "b1", from = "0504", to = "0604", path = { "0604" }, cost = 2 })
  t.eq(t.unit("b1").at, "0604")
end)

test("DEMO-2: reach shows the river and the lake", function(t)
  position(t)
  local reach = t.reach("b1")
  t.eq(reach["0604"], 2, "0504 -> 0604 crosses the river")
  t.eq(reach["0605"], nil, "0605 is a lake")
end)

test("DEMO-3: no entering enemy hexes, stop next to an enemy", function(t)
  position(t)
  t.expect_refused("blue", move("b1", { "0505", "0506", "0607", "0707" }), "DEMO-3")
  t.expect_refused("blue", move("b1", { "0505", "0506", "0607", "0706" }), "DEMO-3")
  t.ok("blue", move("b1", { "0505", "0506", "0607" }))
end)

test("DEMO-4: stacking is checked when the phase ends", function(t)
  position(t)
  t.ok("blue", move("b2", { "0504" }))
  t.ok("blue", move("b3", { "0503", "0504" }))
  local r = t.expect_refused("blue", { command = "end_phase" }, "DEMO-4")
  t.eq(r.reason, "hex 0504 holds 3 blue units at the end of the phase (at most 2)")
end)

test("DEMO-5: attacks only adjacent enemies, once, in the combat phase", function(t)
  position(t)
  t.expect_refused("blue", attack("b1", "r1"), "DEMO-5")
  t.ok("blue", move("b1", { "0505", "0506", "0607" }))
  t.end_phase()
  t.eq(t.state().phase, "combat")
  t.expect_refused("blue", attack("b2", "r1"), "DEMO-5")
  t.ok("blue", attack("b1", "r1"))
  t.expect_refused("blue", attack("b1", "r1"), "DEMO-5")
end)

test("DEMO-6: the combat result follows the die", function(t)
  position(t)
  t.ok("blue", move("b1", { "0505", "0506", "0607" }))
  t.end_phase()
  local events = t.ok("blue", attack("b1", "r1"))
  t.eq(events[1].event, "DiceRolled")
  local roll = events[1].value
  local result = roll >= 6 and "defender eliminated" or roll <= 1 and "attacker eliminated" or "no effect"
  t.eq(events[2], { event = "Custom", name = "CombatResolved",
    data = { attacker = "b1", defender = "r1", roll = roll, total = roll, result = result } })
end)

-- t.dice sets the next command's rolls: every row of the result table, without a seed hunt.
test("DEMO-6: each result of the table, the die set by the test", function(t)
  for _, case in ipairs({
    { roll = 6, result = "defender eliminated", gone = "r1" },
    { roll = 5, result = "no effect" },
    { roll = 2, result = "no effect" },
    { roll = 1, result = "attacker eliminated", gone = "b1" },
  }) do
    position(t)
    t.ok("blue", move("b1", { "0505", "0506", "0607" }))
    t.end_phase()
    t.dice({ case.roll })
    local events = t.ok("blue", attack("b1", "r1"))
    t.eq(events[1], { event = "DiceRolled", sides = 6, value = case.roll })
    t.eq(events[2].data.result, case.result, "roll " .. case.roll)
    for _, id in ipairs({ "b1", "r1" }) do
      local unit = t.unit(id)
      t.eq(unit == nil or unit.at == nil, case.gone == id, id .. " gone after a roll of " .. case.roll)
    end
  end
end)

test("DEMO-7: victory counts objectives and eliminations", function(t)
  position(t)
  t.ok("blue", move("b1", { "0604" }))
  while not t.state().over do t.end_phase() end
  local outcome = t.state().outcome
  t.eq(outcome.winner, "blue")
  t.eq(outcome.scores, { blue = 7, red = 2 })
end)

-- t.bot asks a side's Lua bot what it would give now, as `hexwar run` asks it (docs/testing.md).
test("demo.ai: red's bot moves on the city it does not hold; blue has no Lua bot", function(t)
  t.scenario("scenarios/demo", { seed = 11 })
  t.setup {
    units = {
      { id = "b1", side = "blue", type = "infantry", ma = 4, strength = 3, at = "0504" },
      { id = "r1", side = "red", type = "infantry", ma = 4, strength = 3, at = "0706" },
    },
  }
  t.end_phase("blue")
  t.end_phase("blue")
  t.eq(t.bot("red"), { command = "move", unit = "r1", path = { "0806", "0805", "0704", "0604" } })
  local ok, e = pcall(t.bot, "blue")
  t.truthy(not ok and tostring(e):find("side 'blue' has no Lua bot in the scenario (sides with one: red)", 1, true),
    tostring(e))
  ok, e = pcall(t.bot, "rde")
  t.truthy(not ok and tostring(e):find("unknown side 'rde': did you mean 'red'? (sides: blue, red)", 1, true),
    tostring(e))
end)
