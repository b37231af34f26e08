-- rules/ancients, the second round of mutation testing (docs/reliability.md): the wheel's own
-- checks and listing, the default morale, the groups the legal list offers, joining costs, the
-- fronts of troops other than phalanxes and each refusal's clause and wording.
-- Run: hexwar test rules/ancients
-- Flat map, odd columns shifted down: from 0404 the edges 0..5 lead to 0504 0405 0304 0303
-- 0403 0503; from 0504 to 0605 0505 0405 0404 0503 0604. A phalanx facing vertex v fronts its
-- edges v-1 and v: at 0404 facing 0, 0503 and 0504.

local function unit(id, side, kind, at, facing, ma)
  return { id = id, side = side, type = kind, ma = ma or 3, strength = 3, at = at, facing = facing }
end

-- A Macedonian phalanx facing vertex 0, with its morale (nil: none given).
local function phalanx(id, at, morale)
  local u = unit(id, "macedon", "phalanx", at, 0)
  if morale then u.attrs = { morale = morale } end
  return u
end

local function start(t, units)
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = units }
end

local function move(id, path, facing) return { command = "move", unit = id, path = path, facing = facing } end
local function wheel(id, facing) return { command = "wheel", unit = id, facing = facing } end
local function attack(id, target) return { command = "attack", unit = id, target = target } end

local function melee(events)
  for _, ev in ipairs(events) do
    if ev.event == "Custom" and ev.name == "MeleeResolved" then return ev.data end
  end
end

-- The wheels the legal list offers, as "unit>facing".
local function wheels(t, side)
  local out = {}
  for _, c in ipairs(t.legal(side)) do
    if c.command == "wheel" then out[#out + 1] = c.unit .. ">" .. c.facing end
  end
  return out
end

-- How many group moves (`units`) the legal list offers, by group ("p+q"), and the groups in
-- the order it first lists them.
local function groups(t, side)
  local count, order = {}, {}
  for _, c in ipairs(t.legal(side)) do
    if c.command == "move" and c.units then
      local key = table.concat(c.units, "+")
      if not count[key] then order[#order + 1] = key end
      count[key] = (count[key] or 0) + 1
    end
  end
  return count, order
end

local function cost_of(events)
  for _, ev in ipairs(events) do
    if ev.event == "UnitMoved" then return ev.cost end
  end
end

test("ANC-6.3: a wheel is given by the side's own phalanx, once, in its movement phase", function(t)
  -- p1 (morale 6) and the Seleucid phalanx s-ph are in contact (0404, 0403).
  start(t, { phalanx("p1", "0404", 6), unit("s-ph", "seleucid", "phalanx", "0403", 1) })
  local r = t.expect_refused("macedon", wheel("s-ph", 2), "ANC-6.3")
  t.eq(r.reason, "wheel needs one of your units")
  t.eq(t.unit("s-ph").facing, 1)
  t.dice({ 1 })
  t.ok("macedon", wheel("p1", 1))
  r = t.expect_refused("macedon", wheel("p1", 2), "ANC-6.3")
  t.eq(r.reason, "p1 cannot wheel now")
  t.end_phase("macedon")
  r = t.expect_refused("macedon", wheel("p1", 2), "ANC-6.3")
  t.eq(r.reason, "p1 cannot wheel now")
  t.eq(t.unit("p1").facing, 1)
end)

test("ANC-6.3: a counter given no morale tests with morale 4, and a stack with its lowest", function(t)
  -- (docs/facing.md: "one d6 that passes when it is at most the lowest attrs.morale of the
  -- unit's stack (default 4)")
  for _, case in ipairs({ { roll = 4, passed = true }, { roll = 5, passed = false } }) do
    start(t, { phalanx("p", "0404"), unit("s1", "seleucid", "cavalry", "0403", 0) })
    t.dice({ case.roll })
    t.eq(t.ok("macedon", wheel("p", 1))[2].data, { unit = "p", roll = case.roll, morale = 4, passed = case.passed })
  end
  -- p1 (morale 6) stacked with p2 (none given): the stack's morale is 4, whichever is named.
  start(t, { phalanx("p1", "0404", 6), phalanx("p2", "0404"), unit("s1", "seleucid", "cavalry", "0403", 0) })
  t.dice({ 5 })
  t.eq(t.ok("macedon", wheel("p1", 1))[2].data, { unit = "p1", roll = 5, morale = 4, passed = false })
  t.eq({ t.unit("p1").facing, t.unit("p2").facing }, { 0, 0 })
end)

test("ANC-6.3 / TA-R15: the legal list offers wheels only to unmoved phalanxes in contact, in the movement phase", function(t)
  -- p1 in contact with s1 (0403); l1, a light, in contact with it too (0402); p3 out of contact.
  start(t, {
    phalanx("p1", "0404", 6), unit("l1", "macedon", "light", "0402", 0), phalanx("p3", "0707", 6),
    unit("s1", "seleucid", "cavalry", "0403", 0),
  })
  t.eq(wheels(t, "macedon"), { "p1>1", "p1>5" })
  t.dice({ 1 })
  t.ok("macedon", wheel("p1", 1))
  t.eq(wheels(t, "macedon"), {})
  t.end_phase("macedon")
  -- (the combat phase: the flags are cleared, and still nothing wheels)
  t.eq(wheels(t, "macedon"), {})
end)

test("TA-R15 / TA-R20: the reach of a phalanx starting in contact lists its two 60 degree turns in place at its whole MP", function(t)
  -- p (MA 3) at 0404 in contact with s1 (0403): in place it cannot turn for 1 MP (ANC-6.2),
  -- only wheel (ANC-6.3), which is an end state when the morale test passes.
  start(t, { phalanx("p", "0404"), unit("s1", "seleucid", "cavalry", "0403", 0) })
  t.eq(t.reach("p")["0404"], { ["1"] = 3, ["5"] = 3 })
  local r = t.expect_refused("macedon", move("p", {}, 1), "ANC-6.3")
  t.eq(r.reason, "in contact at 0404: a phalanx turns only by spending its whole movement after a morale test (ANC-6.3)")
end)

test("TA-R17 / TA-R18: a phalanx given no facing ends on a hex holding only a friendly leader, keeping its facing", function(t)
  -- (a hex of friendly leaders only counts as empty: there is no stack to take a facing from)
  start(t, { unit("L", "macedon", "leader", "0504", nil), phalanx("p", "0404"), unit("s9", "seleucid", "cavalry", "1107", 3) })
  t.eq(t.ok("macedon", move("p", { "0504" })), {
    { event = "UnitEnteredHex", unit = "p", hex = "0504" },
    { event = "UnitMoved", unit = "p", from = "0404", to = "0504", path = { "0504" }, cost = 1 },
    { event = "UnitFacingChanged", unit = "p", facing = 0 },
    { event = "UnitStatusChanged", unit = "p", add = { "moved" } },
  })
  t.eq({ t.unit("p").at, t.unit("L").at, t.unit("p").facing }, { "0504", "0504", 0 })
end)

test("ANC-5.4 / TA-R13: the legal list offers no group holding a counter that has moved", function(t)
  -- p joins q at 0404 (from 0504, facing 3 as q does): q alone has not moved, so no group.
  start(t, {
    unit("q", "macedon", "phalanx", "0404", 3), unit("p", "macedon", "phalanx", "0504", 3),
    unit("s9", "seleucid", "cavalry", "1107", 3),
  })
  t.ok("macedon", move("p", { "0404" }, 3))
  t.eq(groups(t, "macedon"), {})
end)

test("ANC-5.4 / TA-R13: the legal list offers each hex's groups in label order", function(t)
  -- a1, a2 at 0707 are listed first by the side's units; x1, x2 at 0303 come first by label.
  start(t, {
    phalanx("a1", "0707"), phalanx("a2", "0707"), phalanx("x1", "0303"), phalanx("x2", "0303"),
    unit("s9", "seleucid", "cavalry", "1107", 3),
  })
  local _, order = groups(t, "macedon")
  t.eq(order, { "x1+x2", "a1+a2" })
end)

test("ANC-5.4 / TA-R13: past three counters the whole stack is offered once, and its troops apart only when two or more", function(t)
  -- Four phalanxes (no leader): the whole stack, listed once (its 5 turns in place, not 10).
  -- Three leaders and one phalanx: the whole hex, and no one-troop "group".
  start(t, {
    phalanx("p", "0404"), phalanx("q", "0404"), phalanx("r", "0404"), phalanx("s", "0404"),
    unit("s9", "seleucid", "cavalry", "1107", 3),
  })
  local _, order = groups(t, "macedon")
  t.eq(order, { "p+q+r+s" })
  local in_place = 0
  for _, c in ipairs(t.legal("macedon")) do
    if c.command == "move" and c.units and #c.path == 0 then in_place = in_place + 1 end
  end
  t.eq(in_place, 5)
  start(t, {
    unit("L1", "macedon", "leader", "0404", nil), unit("L2", "macedon", "leader", "0404", nil),
    unit("L3", "macedon", "leader", "0404", nil), phalanx("p", "0404"),
    unit("s9", "seleucid", "cavalry", "1107", 3),
  })
  local _, order2 = groups(t, "macedon")
  t.eq(order2, { "L1+L2+L3+p" })
end)

test("ANC-7.1: a facing that is no facing is quoted whole up to 40 characters, past that cut at 40", function(t)
  -- (the refusal quotes what the player gave, a long text clipped)
  start(t, { phalanx("p", "0404"), unit("s9", "seleucid", "cavalry", "1107", 3) })
  local forty = string.rep("ab", 20)
  local r = t.expect_refused("macedon", move("p", { "0504" }, forty), "ANC-7.1")
  t.eq(r.reason, "a facing is a direction 0..5 or a two-base pair \"f1,f2\", not \"" .. forty .. "\"")
  r = t.expect_refused("macedon", move("p", { "0504" }, forty .. "c"), "ANC-7.1")
  t.eq(r.reason, "a facing is a direction 0..5 or a two-base pair \"f1,f2\", not \"" .. forty .. "...\"")
end)

test("ANC-5.3 / TA-R18: joining a stack costs 1 MP and the kind's formation cost: phalanx and light 1, cavalry and elephant 2", function(t)
  -- Each joiner (MA 3) steps from 0504 into its stack at 0404, far from the enemy.
  for _, case in ipairs({
    { stack = "phalanx", joiner = "phalanx", facing = 3, cost = 2 },
    { stack = "light", joiner = "light", cost = 2 },
    { stack = "elephant", joiner = "light", cost = 2 },
    { stack = "cavalry", joiner = "cavalry", cost = 3 },
    { stack = "elephant", joiner = "elephant", cost = 3 },
  }) do
    start(t, {
      unit("a", "macedon", case.stack, "0404", case.facing or 0), unit("b", "macedon", case.joiner, "0504", case.facing or 0),
      unit("s9", "seleucid", "cavalry", "1107", 3),
    })
    local what = case.joiner .. " joining " .. case.stack
    t.eq(cost_of(t.ok("macedon", move("b", { "0404" }, case.facing or 0))), case.cost, what)
  end
  -- A cavalry with MA 2 cannot join (1 + 2 MP).
  start(t, {
    unit("a", "macedon", "cavalry", "0404", 0), unit("b", "macedon", "cavalry", "0504", 0, 2),
    unit("s9", "seleucid", "cavalry", "1107", 3),
  })
  t.expect_refused("macedon", move("b", { "0404" }, 0))
  t.eq(t.unit("b").at, "0504")
end)

test("TA-R11: light troops, cavalry and elephants front all six hexes: they attack behind them, and are never taken in flank", function(t)
  -- The Macedonian at 0404 faces 0, away from the Seleucid at 0303 (its edge 3), which faces
  -- 3, away from it (0303's edge 0 leads to 0404).
  for _, kind in ipairs({ "light", "cavalry", "elephant" }) do
    start(t, { unit("m", "macedon", kind, "0404", 0), unit("s", "seleucid", kind, "0303", 3) })
    t.end_phase("macedon")
    t.dice({ 2 })
    local m = melee(t.ok("macedon", attack("m", "s")))
    t.eq({ m.flank, m.total }, { false, 2 + 3 - 3 }, kind)
  end
end)

test("ANC-7.1 / ANC-7.2 / ANC-7.3 / ANC-6.2: each refusal of a move names its clause and says why", function(t)
  start(t, {
    phalanx("p", "0404"), unit("q", "macedon", "phalanx", "1002", 0, 1), unit("r", "macedon", "phalanx", "0102", 0, 2),
    unit("c", "macedon", "cavalry", "0208", 0), unit("c2", "macedon", "cavalry", "0103", 0),
    unit("l", "macedon", "light", "0203", 0),
    unit("s1", "seleucid", "cavalry", "0504", 0), unit("s2", "seleucid", "cavalry", "0307", 3),
  })
  local before = t.state()
  for _, case in ipairs({
    -- ANC-7.2: a phalanx steps only into its two front hexes (1002 facing 0: 1101, 1102)
    { move("q", { "1003" }, 0), "ANC-7.2", "a phalanx facing vertex 0 moves only into its 2 front hexes (ANC-7.2)" },
    -- ANC-6.2: 1 MP a 60 degree turn
    { move("q", {}, 2), "ANC-6.2", "not enough MP left to turn (ANC-6.2)" },
    { move("r", { "0202" }, 2), "ANC-6.2", "the phalanx reaches 0202 facing 0, 1 or 5 only, not 2 (each 60° turn costs 1 MP, ANC-6.2)" },
    { move("r", { "0202" }, "1,2"), "ANC-6.2", "the unit ends facing one direction 0..5, not 1,2" },
    -- ANC-7.3: entering an enemy's front ends the move (0207 is next to s2)
    { move("c", { "0207", "0107" }, 0), "ANC-7.3", "entering the enemy front at 0207 ended the move (ANC-7.3)" },
    -- ANC-7.1: no entering an enemy, no passing through friends, MP, adjacent steps, a move
    { move("p", { "0504" }, 0), "ANC-7.1", "0504 holds an enemy unit (TA-R12)" },
    { move("c", { "0108", "0107", "0106", "0105" }, 0), "ANC-7.1", "not enough MP (ANC-7.1: 3 MP)" },
    { move("c2", { "0203", "0303" }, 0), "ANC-7.1",
      "0203 holds friendly troops: no unit passes through friendly units (ANC-7.1); entering them joins their stack, the last step of a move (TA-R18)" },
    { move("r", { "0302" }, 0), "ANC-7.1", "step 1 does not lead to an adjacent hex (0102 to 0302)" },
    { move("r", {}, 0), "ANC-7.1", "not a move: same hex, same facing (TA-R20)" },
  }) do
    local r = t.expect_refused("macedon", case[1], case[2])
    t.eq(r.reason, case[3], t.show(case[1]))
  end
  t.eq(t.state(), before)
end)
