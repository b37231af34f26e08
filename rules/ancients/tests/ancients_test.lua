-- Melee in rules/ancients (lib.facing `attack`): a phalanx attacks only into its 2 front hexes
-- (ANC-6.4) and an attack on a flank gets the declared bonus (+2). Run: hexwar test rules/ancients
-- Flat map, odd columns shifted down: from 0404 the edges 0..5 lead to 0504 0405 0304 0303
-- 0403 0503; from 0504 to 0605 0505 0405 0404 0503 0604.

local function position(t, units)
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = units }
  t.end_phase("macedon") -- to the Macedonian combat phase
  t.eq(t.state().phase, "combat")
end

local function unit(id, side, type, at, facing, strength)
  return { id = id, side = side, type = type, ma = 3, strength = strength, at = at, facing = facing }
end

local function melee(events)
  for _, ev in ipairs(events) do
    if ev.event == "Custom" and ev.name == "MeleeResolved" then return ev.data end
  end
end

local function attack(unit, target) return { command = "attack", unit = unit, target = target } end

test("ANC-6.4: a phalanx attacks only into its two front hexes", function(t)
  -- m-ph faces vertex 0: front 0503, 0504. s-lt at 0304 is on its flank.
  position(t, {
    unit("m-ph", "macedon", "phalanx", "0404", 0, 4),
    unit("s-lt", "seleucid", "light", "0304", 0, 1),
    unit("s-ph", "seleucid", "phalanx", "0504", 3, 4),
  })
  local r = t.expect_refused("macedon", attack("m-ph", "s-lt"), "ANC-6.4")
  t.eq(r.reason, "s-lt is not in the front of m-ph")
  -- s-ph faces vertex 3: front 0405, 0404, so this attack is front to front.
  local m = melee(t.ok("macedon", attack("m-ph", "s-ph")))
  t.eq({ m.flank, m.total }, { false, m.roll + 4 - 4 })
end)

test("ANC-6.4: attacking a phalanx on its flank gets the bonus", function(t)
  -- m-cav at 0605 fronts all round (TA-R11); 0605 is not in s-ph's front (0405, 0404).
  position(t, {
    unit("m-cav", "macedon", "cavalry", "0605", 3, 3),
    unit("s-ph", "seleucid", "phalanx", "0504", 3, 4),
  })
  local m = melee(t.ok("macedon", attack("m-cav", "s-ph")))
  t.eq({ m.flank, m.total }, { true, m.roll + 3 + 2 - 4 })
end)

local function wheel(id, facing) return { command = "wheel", unit = id, facing = facing } end

-- A Macedonian phalanx (strength 4) facing vertex 0, with its morale (6: any d6 passes; 0: any fails).
local function phalanx(id, at, morale)
  local u = unit(id, "macedon", "phalanx", at, 0, 4)
  u.attrs = { morale = morale }
  return u
end

test("TA-R15: a phalanx starting in contact may turn 60 degrees in place as its whole move, if it passes a morale test", function(t)
  -- p1 (morale 6: any d6 passes) and p2 (morale 0: any d6 fails) are in contact with a
  -- Seleucid cavalry; p3 is not; l1, a light, is in contact too.
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = {
    phalanx("p1", "0404", 6), phalanx("p2", "0904", 0), phalanx("p3", "0707", 6),
    unit("l1", "macedon", "light", "0402", 0, 1),
    unit("s1", "seleucid", "cavalry", "0403", 0, 3), unit("s2", "seleucid", "cavalry", "0903", 0, 3),
  } }
  -- One 60 degree turn, not two.
  local r = t.expect_refused("macedon", wheel("p1", 2), "ANC-6.3")
  t.eq(r.reason, "a wheel turns 60°: p1 faces 0, so it wheels to 5 or 1, not 2")
  r = t.expect_refused("macedon", wheel("p1", 0), "ANC-6.3")
  t.eq(r.reason, "a wheel turns 60°: p1 faces 0, so it wheels to 5 or 1, not 0")
  -- Passed: the turn is made, and it is the unit's whole move.
  local events = t.ok("macedon", wheel("p1", 1))
  local roll = events[1].value
  t.eq(events, {
    { event = "DiceRolled", sides = 6, value = roll },
    { event = "Custom", name = "MoraleTest", data = { unit = "p1", roll = roll, morale = 6, passed = true } },
    { event = "UnitFacingChanged", unit = "p1", facing = 1 },
    { event = "UnitStatusChanged", unit = "p1", add = { "moved" } },
  })
  t.eq(t.unit("p1").facing, 1)
  r = t.expect_refused("macedon", { command = "move", unit = "p1", path = { "0504" }, facing = 1 }, "ANC-7.1")
  t.eq(r.reason, "p1 has already moved")
  -- Failed: no turn, and the move is spent all the same.
  events = t.ok("macedon", wheel("p2", 5))
  roll = events[1].value
  t.eq(events, {
    { event = "DiceRolled", sides = 6, value = roll },
    { event = "Custom", name = "MoraleTest", data = { unit = "p2", roll = roll, morale = 0, passed = false } },
    { event = "UnitStatusChanged", unit = "p2", add = { "moved" } },
  })
  t.eq(t.unit("p2").facing, 0)
  -- Out of contact a phalanx turns during its move instead (ANC-6.2).
  r = t.expect_refused("macedon", wheel("p3", 1), "ANC-6.3")
  t.eq(r.reason, "p3 is not in contact; it turns during its move")
  -- Only phalanxes wheel: other troops face freely (TA-R11).
  r = t.expect_refused("macedon", wheel("l1", 1), "ANC-6.3")
  t.eq(r.reason, "l1 does not wheel (only phalanx units wheel): a unit of type light turns during its move")
end)

test("ANC-5.4: a stacked phalanx wheels with its whole stack (a stack shares one facing)", function(t)
  -- p1 and p2 (morale 6: any d6 passes) stacked at 0404, in contact with a Seleucid cavalry.
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = {
    phalanx("p1", "0404", 6), phalanx("p2", "0404", 6),
    unit("s1", "seleucid", "cavalry", "0403", 0, 3),
  } }
  local events = t.ok("macedon", wheel("p1", 1))
  local roll = events[1].value
  t.eq(events, {
    { event = "DiceRolled", sides = 6, value = roll },
    { event = "Custom", name = "MoraleTest", data = { unit = "p1", roll = roll, morale = 6, passed = true } },
    { event = "UnitFacingChanged", unit = "p1", facing = 1 },
    { event = "UnitStatusChanged", unit = "p1", add = { "moved" } },
    { event = "UnitFacingChanged", unit = "p2", facing = 1 },
    { event = "UnitStatusChanged", unit = "p2", add = { "moved" } },
  })
  t.eq({ t.unit("p1").facing, t.unit("p2").facing }, { 1, 1 })
end)

test("ANC-5.4: a stack tests its morale once, with its lowest morale, whichever counter the wheel names", function(t)
  -- p1 (morale 0: any d6 fails) and p2 (morale 6) stacked at 0404, in contact with s1: the
  -- wheel fails named by either (naming p2 used to take p2's morale and turn both).
  for _, named in ipairs({ "p1", "p2" }) do
    t.scenario("scenarios/ancients", { seed = 3 })
    t.setup { units = {
      phalanx("p1", "0404", 0), phalanx("p2", "0404", 6),
      unit("s1", "seleucid", "cavalry", "0403", 0, 3),
    } }
    local events = t.ok("macedon", wheel(named, 1))
    local roll = events[1].value
    t.eq(events, {
      { event = "DiceRolled", sides = 6, value = roll },
      { event = "Custom", name = "MoraleTest", data = { unit = named, roll = roll, morale = 0, passed = false } },
      { event = "UnitStatusChanged", unit = "p1", add = { "moved" } },
      { event = "UnitStatusChanged", unit = "p2", add = { "moved" } },
    })
  end
end)

test("ANC-6.3: a phalanx a setup gave no facing plays as facing 0: it wheels, is listed, and moves facing 0", function(t)
  -- p (morale 6) at 0404 with no facing, in contact with s1 (legal, the wheel and a plain move
  -- failed on it: "attempt to perform arithmetic on a nil value", "an empty group", "not none")
  local function start()
    t.scenario("scenarios/ancients", { seed = 3 })
    local p = phalanx("p", "0404", 6)
    p.facing = nil
    t.setup { units = { p, unit("s1", "seleucid", "cavalry", "0403", 0, 3) } }
  end
  start()
  local wheels = {}
  for _, c in ipairs(t.legal("macedon")) do
    if c.command == "wheel" then wheels[#wheels + 1] = c.facing end
  end
  t.eq(wheels, { 1, 5 })
  local r = t.expect_refused("macedon", wheel("p", 2), "ANC-6.3")
  t.eq(r.reason, "a wheel turns 60°: p faces 0, so it wheels to 5 or 1, not 2")
  local events = t.ok("macedon", wheel("p", 5))
  t.eq(events[3], { event = "UnitFacingChanged", unit = "p", facing = 5 })
  start()
  events = t.ok("macedon", { command = "move", unit = "p", path = { "0504" } })
  t.eq(events[3], { event = "UnitFacingChanged", unit = "p", facing = 0 })
  t.eq(t.unit("p").facing, 0)
end)

test("TA-R2 / TA-R17: a wheel neither turns nor spends a leader in the phalanx's hex", function(t)
  -- p (morale 6) and a leader that a setup gave a facing, at 0404, in contact with s1.
  t.scenario("scenarios/ancients", { seed = 3 })
  local leader = unit("L", "macedon", "leader", "0404", 2, 0)
  t.setup { units = { phalanx("p", "0404", 6), leader, unit("s1", "seleucid", "cavalry", "0403", 0, 3) } }
  local events = t.ok("macedon", wheel("p", 1))
  local roll = events[1].value
  t.eq(events, {
    { event = "DiceRolled", sides = 6, value = roll },
    { event = "Custom", name = "MoraleTest", data = { unit = "p", roll = roll, morale = 6, passed = true } },
    { event = "UnitFacingChanged", unit = "p", facing = 1 },
    { event = "UnitStatusChanged", unit = "p", add = { "moved" } },
  })
  -- the leader has not moved: it still moves (to 0405, away from the enemy)
  t.ok("macedon", { command = "move", unit = "L", path = { "0405" } })
  t.eq(t.unit("L").at, "0405")
end)

test("TA-R12: the legal list offers a wheel only when it would be taken", function(t)
  -- p1 in contact and in good order: both 60 degree wheels. p2 in contact but disordered, and
  -- p3 in good order stacked with a disordered p4: none (a stack with a counter out of order
  -- does not move, TA-R12).
  t.scenario("scenarios/ancients", { seed = 3 })
  local p2, p4 = phalanx("p2", "0904", 6), phalanx("p4", "0707", 6)
  p2.status = { "disordered" }
  p4.status = { "disordered" }
  t.setup { units = {
    phalanx("p1", "0404", 6), p2, phalanx("p3", "0707", 6), p4,
    unit("s1", "seleucid", "cavalry", "0403", 0, 3), unit("s2", "seleucid", "cavalry", "0903", 0, 3),
    unit("s3", "seleucid", "cavalry", "0706", 0, 3),
  } }
  local wheels = {}
  for _, c in ipairs(t.legal("macedon")) do
    if c.command == "wheel" then wheels[#wheels + 1] = c.unit .. ">" .. c.facing end
  end
  t.eq(wheels, { "p1>1", "p1>5" })
  local r = t.expect_refused("macedon", wheel("p2", 1), "ANC-7.1")
  t.eq(r.reason, "only units in good order move (TA-R12)")
  t.expect_refused("macedon", wheel("p3", 1), "ANC-7.1")
  -- (a facing that is no direction is refused by the host, from the command's declared args)
  r = t.expect_refused("macedon", wheel("p1", 7), "command")
  t.eq(r.reason, "wheel: argument 'facing' must be a direction (a whole number, 0 to 5), not a number, 7")
end)

test("ANC-5.4 / TA-R13: the legal list offers a stack moving and re-facing as one", function(t)
  -- Two phalanxes and a leader at 0404, far from the enemy: every group of two or more of them.
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = {
    unit("p", "macedon", "phalanx", "0404", 0, 4), unit("q", "macedon", "phalanx", "0404", 0, 4),
    unit("L", "macedon", "leader", "0404", nil, 0), unit("s1", "seleucid", "cavalry", "1107", 0, 3),
  } }
  local groups, turns = {}, {}
  for _, c in ipairs(t.legal("macedon")) do
    if c.command == "move" and c.units then
      local key = table.concat(c.units, "+")
      if not groups[#groups] or groups[#groups] ~= key then groups[#groups + 1] = key end
      if #c.path == 0 and key == "p+q" then turns[#turns + 1] = c.facing end
    end
  end
  t.eq(groups, { "L+p", "L+q", "p+q", "L+p+q" })
  -- the whole stack of troops re-faces in place (1 MP a 60 degree turn, MA 3)
  t.eq(turns, { 1, 2, 3, 4, 5 })
  -- one phalanx alone cannot: it would face otherwise than the rest of its stack
  local r = t.expect_refused("macedon", { command = "move", unit = "p", path = {}, facing = 1 }, "ANC-5.4")
  t.eq(r.reason, "a stack shares one facing: the group ends at 0404 beside the rest of its stack, which faces 0")
  -- (a group of several counters given a facing of the wrong shape is told so as a group)
  r = t.expect_refused("macedon", { command = "move", units = { "p", "q" }, path = {}, facing = "1,2" }, "ANC-6.2")
  t.eq(r.reason, "the group ends facing one direction 0..5, not 1,2")
  t.ok("macedon", { command = "move", units = { "p", "q" }, path = {}, facing = 1 })
  t.eq({ t.unit("p").facing, t.unit("q").facing, t.unit("L").facing }, { 1, 1, nil })
end)

test("ANC-7.1 / TA-R13: a malformed move order is refused, naming what is wrong", function(t)
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = {
    unit("p", "macedon", "phalanx", "0404", 0, 4), unit("q", "macedon", "phalanx", "0606", 0, 4),
    unit("r", "macedon", "phalanx", nil, 0, 4), unit("r2", "macedon", "phalanx", nil, 0, 4),
    unit("s1", "seleucid", "cavalry", "1107", 0, 3),
  } }
  local before = t.state()
  for _, case in ipairs({
    { { unit = "p", path = { "0504" }, facing = 7 }, "a facing is a direction 0..5 or a two-base pair \"f1,f2\", not 7" },
    { { unit = "p", path = { "0504" }, facing = "x" }, "a facing is a direction 0..5 or a two-base pair \"f1,f2\", not \"x\"" },
    { { unit = "p", path = { "0504" }, facing = "1" }, "a facing is a direction 0..5 or a two-base pair \"f1,f2\", not \"1\"" },
    { { units = { "p", "q" }, path = { "0504" }, facing = 0 }, "a moving group is counters of one side in one hex (TA-R13): p is at 0404, q at 0606" },
    { { units = { "p", "p" }, path = { "0504" }, facing = 0 }, "'units' lists p twice" },
    { { unit = "p", units = { "p" }, path = { "0504" } }, "a move names a unit or units, not both" },
    { { units = { "r", "r2" }, path = { "0303" }, facing = 0 }, "r is not on the map" },
    { { unit = "r", path = {}, facing = 1 }, "r is not on the map" },
    -- (the wrong kinds are refused by the host, from the command's declared args)
    { { units = "p", path = { "0504" }, facing = 0 }, "move: argument 'units' must be a list of unit ids, not a string, \"p\"", "command" },
    { { unit = "p", path = "0504", facing = 0 }, "move: argument 'path' must be a list of place labels, not a string, \"0504\"", "command" },
    { { unit = "p", path = { 5 }, facing = 0 }, "move: argument 'path' must be a list of place labels, not a list, [5]", "command" },
  }) do
    local cmd = case[1]
    cmd.command = "move"
    local r = t.expect_refused("macedon", cmd, case[3] or "ANC-7.1")
    t.eq(r.reason, case[2])
  end
  t.eq(t.state(), before)
end)

test("TA-R18: a phalanx joining a stack is told it takes the stack's facing", function(t)
  -- p1 at 0404 faces vertex 3; p2 at 0504, facing vertex 3 too (front 0405, 0404), steps into
  -- 0404 and joins it: it ends facing 3, not 2.
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = {
    unit("p1", "macedon", "phalanx", "0404", 3, 4), unit("p2", "macedon", "phalanx", "0504", 3, 4),
    unit("s1", "seleucid", "cavalry", "1107", 0, 3),
  } }
  local r = t.expect_refused("macedon", { command = "move", unit = "p2", path = { "0404" }, facing = 2 }, "ANC-5.3")
  t.eq(r.reason, "the group joins the stack at 0404 and takes its facing 3, not 2 (TA-R18)")
  t.ok("macedon", { command = "move", unit = "p2", path = { "0404" }, facing = 3 })
end)

test("TA-R17: a leader given no facing ends on a friendly phalanx: leaders ignore stacking and take no facing", function(t)
  -- (the leader was read with the phalanx's facing, as a joiner, and refused: "leaders have no
  -- facing (TA-R2), so none is given, not 1")
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = {
    { id = "ldr", side = "macedon", type = "leader", ma = 6, strength = 0, at = "0203" },
    unit("p1", "macedon", "phalanx", "0303", 1, 4), unit("s1", "seleucid", "cavalry", "1107", 0, 3),
  } }
  local events = t.ok("macedon", { command = "move", unit = "ldr", path = { "0303" } })
  -- (1 MP for the hex entered, TA-R12; no join cost, TA-R17)
  t.eq(events[2], { event = "UnitMoved", unit = "ldr", from = "0203", to = "0303", path = { "0303" }, cost = 1 })
  t.eq({ t.unit("ldr").at, t.unit("p1").facing }, { "0303", 1 })
end)

test("ANC-6.3 / TA-R15: a morale roll equal to the morale passes, one above fails", function(t)
  for _, case in ipairs({ { roll = 4, passed = true, facing = 1 }, { roll = 5, passed = false, facing = 0 } }) do
    t.scenario("scenarios/ancients", { seed = 3 })
    t.setup { units = { phalanx("p1", "0404", 4), unit("s1", "seleucid", "cavalry", "0403", 0, 3) } }
    t.dice({ case.roll })
    local events = t.ok("macedon", wheel("p1", 1))
    t.eq(events[2].data, { unit = "p1", roll = case.roll, morale = 4, passed = case.passed }, "roll " .. case.roll)
    t.eq(t.unit("p1").facing, case.facing, "roll " .. case.roll)
  end
end)

test("ANC-5.1: an elephant takes at most two light escorts", function(t)
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = {
    unit("e", "macedon", "elephant", "0404", 0, 3), unit("l1", "macedon", "light", "0404", 0, 1),
    unit("l2", "macedon", "light", "0504", 0, 1), unit("l3", "macedon", "light", "0503", 0, 1),
    unit("s1", "seleucid", "cavalry", "1107", 0, 3),
  } }
  -- (a second escort joins; a third is refused)
  t.ok("macedon", { command = "move", unit = "l2", path = { "0404" } })
  t.expect_refused("macedon", { command = "move", unit = "l3", path = { "0404" } }, "ANC-5.1")
end)

test("ANC-5.4 / TA-R13: past three counters the legal list offers the whole stack and its troops without leaders", function(t)
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = {
    unit("p", "macedon", "phalanx", "0404", 0, 4), unit("q", "macedon", "phalanx", "0404", 0, 4),
    unit("r", "macedon", "phalanx", "0404", 0, 4), unit("L", "macedon", "leader", "0404", nil, 0),
    unit("s1", "seleucid", "cavalry", "1107", 0, 3),
  } }
  local groups = {}
  for _, c in ipairs(t.legal("macedon")) do
    if c.command == "move" and c.units then
      local key = table.concat(c.units, "+")
      if groups[#groups] ~= key then groups[#groups + 1] = key end
    end
  end
  t.eq(groups, { "L+p+q+r", "p+q+r" })
end)
