-- Melee in rules/tactical (lib.facing `attack`): front arcs (TAC-8) and the declared flank
-- bonus (+2). Run: hexwar test rules/tactical
-- Flat map, odd columns shifted down: from 0404 the edges 0..5 lead to 0504 0405 0304 0303
-- 0403 0503; from 0504 to 0605 0505 0405 0404 0503 0604.

local function position(t, units)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = units }
  t.end_phase("british") -- to the British combat phase
  t.eq(t.state().phase, "combat")
end

local function inf(id, side, at, facing)
  return { id = id, side = side, type = "infantry", ma = 4, strength = 3, at = at, facing = facing }
end

local function melee(events)
  for _, ev in ipairs(events) do
    if ev.event == "Custom" and ev.name == "MeleeResolved" then return ev.data end
  end
end

local function attack(unit, target) return { command = "attack", unit = unit, target = target } end

test("TAC-8: a unit attacks only into its front arc", function(t)
  -- b1 faces edge 0: front 0503, 0504, 0405. z2 at 0304 is behind it.
  position(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 2), inf("z2", "zulu", "0304", 0) })
  local r = t.expect_refused("british", attack("b1", "z2"), "TAC-8")
  t.eq(r.reason, "z2 is not in the front of b1")
  t.truthy(melee(t.ok("british", attack("b1", "z1"))), "the front attack is fought")
end)

test("TA-R2 / TAC-6: leaders do not attack; an attack names what is wrong with its units", function(t)
  position(t, { inf("b1", "british", "0404", 0), inf("b2", "british", "0503", 0), inf("z1", "zulu", "0504", 2),
    { id = "ldr", side = "british", type = "leader", ma = 4, strength = 1, at = "0405" } })
  local before = t.state()
  local r = t.expect_refused("british", attack("ldr", "z1"), "TA-R2")
  t.eq(r.reason, "leaders have no front (TA-R2), so they do not attack")
  t.eq(t.expect_refused("british", attack("b9", "z1"), "TAC-6").reason, "no unit 'b9' (the attacker)")
  t.eq(t.expect_refused("british", attack("b1", "z9"), "TAC-6").reason, "no unit 'z9' (the target)")
  t.eq(t.expect_refused("british", attack("z1", "b1"), "TAC-6").reason, "z1 is not british's unit")
  t.eq(t.expect_refused("british", attack("b1", "b2"), "TAC-6").reason, "b2 is british's own unit")
  t.eq(t.state(), before)
end)

test("TAC-6: an attack on a target already out of play, or by a unit off the map, says so", function(t)
  -- b1's strength 20 eliminates z1 whatever the roll (d6 + 20 - 3 >= 5)
  local strong = inf("b1", "british", "0404", 0)
  strong.strength = 20
  position(t, { strong, inf("b2", "british", "0503", 0), inf("z1", "zulu", "0504", 2),
    { id = "off", side = "british", type = "infantry", ma = 4, strength = 3, facing = 0 } })
  t.eq(t.expect_refused("british", attack("off", "z1"), "TAC-6").reason, "the attacker off is not on the map")
  t.eq(melee(t.ok("british", attack("b1", "z1"))).result, "defender eliminated")
  t.eq(t.expect_refused("british", attack("b2", "z1"), "TAC-6").reason, "the target z1 is out of play")
end)

test("TAC-8: an attack from outside the defender's front gets the flank bonus", function(t)
  -- z1 faces edge 2: front 0505, 0405, 0404. b1 at 0404 attacks into it frontally; b2 at
  -- 0605 (facing 3: front 0505, 0504, 0604) from its flank: +2.
  position(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 2) })
  local m = melee(t.ok("british", attack("b1", "z1")))
  t.eq({ m.flank, m.total }, { false, m.roll + 3 - 3 })
  position(t, { inf("b2", "british", "0605", 3), inf("z1", "zulu", "0504", 2) })
  m = melee(t.ok("british", attack("b2", "z1")))
  t.eq({ m.flank, m.total }, { true, m.roll + 3 + 2 - 3 })
end)

local function colonial(id, at)
  return { id = id, side = "british", type = "colonial", ma = 4, strength = 3, at = at, facing = 0, attrs = { facing2 = 3 } }
end

local function move(unit, path, facing) return { command = "move", unit = unit, path = path, facing = facing } end

test("TA-R6: a two-base unit that changed hex moved both bases, else only the re-faced ones", function(t)
  -- Four colonial battalions, bases facing 0 and 3, no Zulu within 2 hexes (non-tactical).
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = {
    colonial("c1", "0202"), colonial("c2", "0204"), colonial("c3", "0206"), colonial("c4", "0402"),
    inf("z1", "zulu", "1107", 3),
  } }
  local function faced(id, f1, f2) return { event = "UnitFacingChanged", unit = id, facing = f1, facing2 = f2 } end
  local function moved(id, ...) return { event = "UnitStatusChanged", unit = id, add = { "moved", ... } } end
  -- In place, base 2 re-faced: only base 2 moved; base 1 only: only base 1; both: both.
  t.eq(t.ok("british", move("c1", {}, "0,4")), { faced("c1", 0, 4), moved("c1", "base2_moved") })
  t.eq(t.ok("british", move("c2", {}, "1,3")), { faced("c2", 1, 3), moved("c2", "base1_moved") })
  t.eq(t.ok("british", move("c4", {}, "5,2")), { faced("c4", 5, 2), moved("c4", "base1_moved", "base2_moved") })
  -- One hex on, facings kept: both bases moved all the same.
  t.eq(t.ok("british", move("c3", { "0306" }, "0,3")), {
    { event = "UnitEnteredHex", unit = "c3", hex = "0306" },
    { event = "UnitMoved", unit = "c3", from = "0206", to = "0306", path = { "0306" }, cost = 1 },
    faced("c3", 0, 3),
    moved("c3", "base1_moved", "base2_moved"),
  })
  t.eq({ t.unit("c3").at, t.unit("c3").facing, t.unit("c3").attrs.facing2 }, { "0306", 0, 3 })
  t.eq(t.unit("c1").status, { "base2_moved", "moved" })
end)

test("TA-R20: legal moves end with a facing that is an integer, an \"f1,f2\" pair, or none for leaders, never the start state", function(t)
  -- MA 1, no Zulu within reach: each unit steps to its 6 neighbours or re-faces in place.
  t.scenario("scenarios/tactical", { seed = 3 })
  local c = colonial("c1", "0204")
  c.ma = 1
  t.setup { units = {
    { id = "b1", side = "british", type = "infantry", ma = 1, strength = 3, at = "0202", facing = 0 },
    c,
    { id = "l1", side = "british", type = "leader", ma = 1, strength = 0, at = "0206" },
    inf("z1", "zulu", "1107", 3),
  } }
  local kinds, counts, start = {}, {}, {}
  for _, cmd in ipairs(t.legal("british")) do
    if cmd.command == "move" then
      local f = cmd.facing
      local kind = (f == nil and "none") or (math.type(f) == "integer" and "integer")
        or (type(f) == "string" and f:match("^%d,%d$") and "pair") or "other"
      kinds[cmd.unit] = kinds[cmd.unit] or {}
      kinds[cmd.unit][kind] = true
      counts[cmd.unit] = (counts[cmd.unit] or 0) + 1
      if #cmd.path == 0 then
        start[cmd.unit] = (start[cmd.unit] or 0) + 1
        t.truthy(f ~= 0 and f ~= "0,3", "the start state is not listed")
      end
    end
  end
  t.eq(kinds, { b1 = { integer = true }, c1 = { pair = true }, l1 = { none = true } })
  -- Infantry: 6 hexes x 6 facings, plus the 5 other facings in place. Two bases: 6 x 36 + 35.
  -- Leader: the 6 hexes only (no facing, so nothing to do in place).
  t.eq(counts, { b1 = 41, c1 = 251, l1 = 6 })
  t.eq(start, { b1 = 5, c1 = 35 })
end)

test("TAC-4 / TA-R2: an end facing of the wrong shape for the unit is refused as such", function(t)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = {
    colonial("c1", "0404"), inf("b1", "british", "0606", 0),
    { id = "ldr", side = "british", type = "leader", ma = 4, strength = 0, at = "0808" },
    inf("z1", "zulu", "1108", 0),
  } }
  local before = t.state()
  local r = t.expect_refused("british", move("c1", { "0504" }, 1), "TAC-4")
  t.eq(r.reason, "a two-base unit ends facing a pair \"f1,f2\", one per base (TA-R6), not 1")
  r = t.expect_refused("british", move("b1", { "0706" }, "1,2"), "TAC-4")
  t.eq(r.reason, "the unit ends facing one direction 0..5, not 1,2")
  r = t.expect_refused("british", move("ldr", { "0708" }, 2), "TA-R2")
  t.eq(r.reason, "leaders have no facing (TA-R2), so none is given, not 2")
  t.eq(t.state(), before)
  t.ok("british", move("c1", { "0504" }, "1,2"))
end)

test("TAC-4 / TA-R6: a two-base unit moved without a facing keeps its pair", function(t)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = { colonial("c1", "0202"), inf("z1", "zulu", "1107", 3) } }
  t.ok("british", { command = "move", unit = "c1", path = { "0302" } })
  t.eq({ t.unit("c1").at, t.unit("c1").facing, t.unit("c1").attrs.facing2 }, { "0302", 0, 3 })
end)

test("TA-R7: a TAC group of two non-leaders is refused, as it would end in one hex", function(t)
  -- (only a setup puts two non-leaders in one hex; a leader may go with one of them)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = {
    inf("b1", "british", "0404", 0), inf("b2", "british", "0404", 0),
    { id = "ldr", side = "british", type = "leader", ma = 4, strength = 0, at = "0202" },
    inf("b3", "british", "0202", 0), inf("z1", "zulu", "1107", 3),
  } }
  local before = t.state()
  for _, path in ipairs({ { "0504" }, {} }) do
    local r = t.expect_refused("british", { command = "move", units = { "b1", "b2" }, path = path, facing = 1 }, "TAC-5")
    t.eq(r.reason, "the group holds 2 non-leaders, and a non-leader never ends in a hex holding a friendly non-leader (TA-R7): they move one by one")
  end
  t.eq(t.state(), before)
  t.ok("british", { command = "move", units = { "b3", "ldr" }, path = { "0302" } })
  t.eq({ t.unit("b3").at, t.unit("ldr").at }, { "0302", "0302" })
end)

test("TA-R7: a leader given no facing ends on a friendly non-leader; a non-leader is refused by TAC-5", function(t)
  -- (the leader was read with the infantry's facing, TA-R18's join, and refused: "leaders
  -- have no facing (TA-R2), so none is given, not 1")
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = {
    { id = "ldr", side = "british", type = "leader", ma = 6, strength = 0, at = "0203" },
    inf("b1", "british", "0303", 1), inf("b2", "british", "0404", 1), inf("z1", "zulu", "1107", 3),
  } }
  local r = t.expect_refused("british", move("b2", { "0303" }), "TAC-5")
  t.eq(r.reason, "0303 holds a friendly unit: only skirmishers pass through, and no non-leader ends there (TAC-5)")
  t.eq(t.unit("b2").at, "0404")
  local events = t.ok("british", move("ldr", { "0303" }))
  t.eq(events[2], { event = "UnitMoved", unit = "ldr", from = "0203", to = "0303", path = { "0303" }, cost = 1 })
  t.eq(t.unit("ldr").at, "0303")
end)

-- Melee hexes at the end of the British combat phase (the module's reading of TAC-6's
-- "resolved later"): a charge must be fought in the charging side's combat phase.
local function leader(id, side, at) return { id = id, side = side, type = "leader", ma = 4, strength = 0, at = at } end

local function eliminations(events)
  local out = {}
  for _, ev in ipairs(events) do
    if ev.event == "UnitEliminated" then out[#out + 1] = ev.unit .. ": " .. ev.reason end
  end
  return out
end

test("TAC-6: a leader that charged alone loses the melee it cannot fight", function(t)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = { leader("ldr", "british", "0404"), inf("b1", "british", "0304", 0), inf("z1", "zulu", "0504", 3) } }
  t.ok("british", { command = "move", unit = "ldr", path = { "0504" } })
  t.end_phase("british")
  t.eq(t.legal("british"), { { command = "end_phase" } })
  t.eq(eliminations(t.end_phase("british")), { "ldr: side=british melee not fought" })
end)

test("TAC-6: a charger that won its melee holds the hex and captures the enemy leaders left there", function(t)
  -- z1 (strength 5) charges 0404 (b1, strength 3, and a British leader): in one hex a total
  -- of roll + 5 - 3 >= 3 eliminates the defender, whatever the roll.
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = {
    leader("ldr", "british", "0404"), inf("b1", "british", "0404", 0),
    { id = "z1", side = "zulu", type = "cavalry", ma = 4, strength = 5, at = "0604", facing = 3 },
    inf("z9", "zulu", "1107", 3),
  } }
  t.end_phase("british"); t.end_phase("british") -- to the Zulu movement phase
  t.ok("zulu", { command = "move", unit = "z1", path = { "0504", "0404" }, facing = 3 })
  t.end_phase("zulu")
  t.eq(melee(t.ok("zulu", attack("z1", "b1"))).result, "defender eliminated")
  t.eq(eliminations(t.end_phase("zulu")), { "ldr: side=british captured in melee" })
  t.eq(t.unit("z1").at, "0404")
end)

test("TAC-6: a charger that did not fight loses its melee, even against a leader alone", function(t)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = {
    leader("ldr", "british", "0404"),
    { id = "z1", side = "zulu", type = "cavalry", ma = 4, strength = 5, at = "0604", facing = 3 },
    inf("z9", "zulu", "1107", 3),
  } }
  t.end_phase("british"); t.end_phase("british")
  t.ok("zulu", { command = "move", unit = "z1", path = { "0504", "0404" }, facing = 3 })
  t.end_phase("zulu")
  t.eq(eliminations(t.end_phase("zulu")), { "z1: side=zulu melee not fought" })
  t.eq(t.unit("ldr").at, "0404")
end)

test("TAC-6: a unit attacks once a combat phase, and never in its movement phase", function(t)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 2), inf("z2", "zulu", "0503", 2) } }
  t.eq(t.expect_refused("british", attack("b1", "z1"), "TAC-6").reason, "attacks happen in the combat phase")
  t.end_phase("british")
  t.dice({ 3 })
  t.eq(melee(t.ok("british", attack("b1", "z1"))).result, "no effect")
  t.eq(t.expect_refused("british", attack("b1", "z2"), "TAC-6").reason, "b1 has already attacked")
end)

-- The melee table (docs/facing.md): across a hexside a total of 5 or more eliminates the
-- defender, 0 or less the attacker, anything between does nothing; in one hex (after a TAC-6
-- charge) 3 or more eliminates the defender and anything less the attacker.
test("TAC-6: each row of the melee table, the die set by the test", function(t)
  for _, case in ipairs({
    { a = 1, d = 2, roll = 1, total = 0, result = "attacker eliminated" },
    { a = 1, d = 2, roll = 2, total = 1, result = "no effect" },
    { a = 3, d = 3, roll = 4, total = 4, result = "no effect" },
    { a = 3, d = 3, roll = 5, total = 5, result = "defender eliminated" },
    { a = 3, d = 3, roll = 2, total = 2, result = "attacker eliminated", together = true },
    { a = 3, d = 3, roll = 3, total = 3, result = "defender eliminated", together = true },
  }) do
    local b1, z1 = inf("b1", "british", "0404", 0), inf("z1", "zulu", case.together and "0404" or "0504", 2)
    b1.strength, z1.strength = case.a, case.d
    position(t, { b1, z1, inf("z9", "zulu", "1107", 3) })
    t.dice({ case.roll })
    local events = t.ok("british", attack("b1", "z1"))
    local m = melee(events)
    local what = string.format("%d - %d, roll %d%s", case.a, case.d, case.roll, case.together and ", one hex" or "")
    t.eq({ m.total, m.result }, { case.total, case.result }, what)
    local gone = { ["attacker eliminated"] = { "b1: side=british melee" }, ["defender eliminated"] = { "z1: side=zulu melee" } }
    t.eq(eliminations(events), gone[case.result] or {}, what)
  end
end)

test("TAC-6: a charger that won its melee keeps the leader that charged with it, and captures the enemy's", function(t)
  -- b1 and the British leader share 0504 with z1 and the Zulu leader (as after a charge).
  position(t, {
    inf("b1", "british", "0504", 0), leader("bl", "british", "0504"),
    inf("z1", "zulu", "0504", 2), leader("zl", "zulu", "0504"), inf("z9", "zulu", "1107", 3),
  })
  t.dice({ 6 })
  t.eq(melee(t.ok("british", attack("b1", "z1"))).result, "defender eliminated")
  t.eq(eliminations(t.end_phase("british")), { "zl: side=zulu captured in melee" })
  t.eq({ t.unit("b1").at, t.unit("bl").at }, { "0504", "0504" })
end)

test("TAC victory: equal eliminations name no winner", function(t)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = { inf("b1", "british", "0101", 0), inf("z9", "zulu", "1107", 3) } }
  while not t.state().over do t.end_phase() end
  local outcome = t.state().outcome
  t.eq({ outcome.winner, outcome.scores }, { nil, { british = 0, zulu = 0 } })
end)
