-- France 1940: rail (10.1), reserves (17.3, 17.7), combat listing (C.4), victory points,
-- airborne drops (5.2/5.3, 11.1) and the stacking refusal (5.1), each on a small position
-- where one condition of the rule decides. Fixtures under tests/fixtures/f40/.

local h = require("helpers")
local POLITICS, RESERVES, AIRBORNE, unit, move, place, drop, refusal, var_set, to_first_assault = h.POLITICS, h.RESERVES, h.AIRBORNE, h.unit, h.move, h.place, h.drop, h.refusal, h.var_set, h.to_first_assault

-- ---------------------------------------------------------------------------------------------
-- F40-10.1: rail. tests/fixtures/f40/politics.
-- ---------------------------------------------------------------------------------------------

test("F40-10.1: the Germans may not send an Allied unit by rail", function(t)
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", units = {
    unit("g1", "german", "german", "0603"), unit("a1", "allied", "french", "0101") } }
  t.eq(refusal(t, "german", { command = "rail", unit = "a1", to = "0202" }),
    "F40-10.1: a1 is not a german unit")
end)

test("F40-10.1: no rail movement in the combat phase", function(t)
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "combat", side = "allied", units = {
    unit("g1", "german", "german", "0603"), unit("a1", "allied", "french", "0101") } }
  t.eq(refusal(t, "allied", { command = "rail", unit = "a1", to = "0202" }),
    "F40-10.1: rail movement happens in the movement phase")
end)

-- ---------------------------------------------------------------------------------------------
-- F40-17.3: reserves. tests/fixtures/f40/reserves: France columns 01-04 (port 0101, Paris 0202,
-- assembly point 0302), Germany columns 05-06. Allied pool ar1-ar4.
-- ---------------------------------------------------------------------------------------------

test("F40-17.3: one reserve per hex per turn, the hex takes another the next turn", function(t)
  t.scenario(RESERVES, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", units = {
    unit("g", "german", "german", "0601"),
    unit("a1", "allied", "french", "0101"),
  } }
  t.ok("allied", place("ar1", "0202"))
  t.eq(refusal(t, "allied", place("ar2", "0202")),
    "F40-17.3: one reserve per hex per turn (0202 has had one)")
  to_first_assault(t, 3, "allied")
  local events = t.ok("allied", place("ar2", "0202"))
  t.eq(events[1].event, "UnitPlaced")
  t.eq({ events[1].unit.id, events[1].unit.at }, { "ar2", "0202" })
  t.eq(var_set(events, "placed"), { event = "VarSet", key = "placed", value = { ["0202"] = true } })
end)

test("F40-17.3: after a unit went by rail, no reserve is placed", function(t)
  t.scenario(RESERVES, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", units = {
    unit("g", "german", "german", "0601"),
    unit("a1", "allied", "french", "0101"),
  } }
  t.ok("allied", { command = "rail", unit = "a1", to = "0102" })
  t.eq(refusal(t, "allied", place("ar1", "0202")),
    "F40-17.3: reserves are placed at the start of the first assault, before any movement (a1 has moved)")
end)

-- ---------------------------------------------------------------------------------------------
-- F40-17.7: Swiss reserves. tests/fixtures/f40/alpine: France columns 01-02, Switzerland 03-05
-- (town 0301, south edge 0302-0502), Germany 06-07; Swiss pool sr1, sr2.
-- ---------------------------------------------------------------------------------------------

local ALPINE = "tests/fixtures/f40/alpine"

test("F40-17.7: the Germans may not place a Swiss reserve", function(t)
  t.scenario(ALPINE, { seed = 1 })
  t.setup { turn = 3, phase = "movement", side = "german", invaded = { "switzerland" }, units = {
    unit("g", "german", "german", "0601"),
    unit("a", "allied", "french", "0102"),
  } }
  t.eq(refusal(t, "german", place("sr1", "0302")), "F40-17.7: sr1 is a Swiss reserve")
end)

test("F40-17.7: a Swiss reserve does not enter in France", function(t)
  t.scenario(ALPINE, { seed = 1 })
  t.setup { turn = 3, phase = "movement", side = "allied", invaded = { "switzerland" }, units = {
    unit("g", "german", "german", "0601"),
    unit("a", "allied", "french", "0102"),
  } }
  t.eq(refusal(t, "allied", place("sr1", "0201")),
    "F40-17.7: 0201 is not an Allied-controlled Swiss city or south/east edge hex of Switzerland")
  t.ok("allied", place("sr1", "0302"))
  -- Paris (1521) on the full map: an Allied-controlled city, but French.
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 3, phase = "movement", side = "allied", invaded = { "switzerland" }, units = {
    unit("g", "german", "german", "3010"),
    unit("a", "allied", "french", "0532"),
  } }
  t.eq(t.state().control["1521"], "allied")
  t.eq(refusal(t, "allied", place("ch-3-div", "1521")),
    "F40-17.7: 1521 is not an Allied-controlled Swiss city or south/east edge hex of Switzerland")
end)

-- ---------------------------------------------------------------------------------------------
-- F40-C.4 and victory: the full map. 1026 and its neighbours (1025, 1027, 0925, 0926, 1125,
-- 1126) are clear French hexes far from any city or river; a German unit there cannot trace
-- supply and is halved (F40-8.3), a French one can.
-- ---------------------------------------------------------------------------------------------

local function attack(hex, units) return { command = "attack", hex = hex, units = units } end

-- The attacks the legal list offers `side`, as "hex:unit,unit".
local function attacks_listed(t, side)
  local out = {}
  for _, c in ipairs(t.legal(side)) do
    if c.command == "attack" then out[#out + 1] = c.hex .. ":" .. table.concat(c.units, ",") end
  end
  return out
end

test("F40-C.4: a hex attacked this combat phase is not offered for another attack", function(t)
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 3, phase = "combat", side = "german", units = {
    unit("g1", "german", "german", "1026", { strength = 8 }),
    unit("g2", "german", "german", "1126", { strength = 8 }),
    unit("a2", "allied", "french", "1027", { strength = 8 }),
  } }
  t.eq(attacks_listed(t, "german"), { "1027:g1,g2" })
  t.dice({ 1 })
  local events = t.ok("german", attack("1027", { "g2" }))
  t.eq(events[5], { event = "UnitEliminated", unit = "g2", reason = "combat at 1027 (1:2, roll 1: AE)" })
  -- a2 holds on and g1, next to it, has not attacked: 1027 is still not offered (C.4)
  t.eq(t.unit("a2").at, "1027")
  t.eq(t.has_status("g1", "attacked"), false)
  t.eq(attacks_listed(t, "german"), {})
  t.eq(refusal(t, "german", attack("1027", { "g1" })), "F40-C.4: 1027 has already been attacked this combat phase")
end)

test("victory: an eliminated German division scores a point for the Allies", function(t)
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 3, phase = "combat", side = "allied", units = {
    unit("a1", "allied", "french", "1026", { strength = 8 }),
    unit("g1", "german", "german", "1025", { strength = 1 }),
  } }
  local before = t.query("score")
  t.dice({ 6 })
  local events = t.ok("allied", attack("1025", { "a1" }))
  t.eq(events[5], { event = "UnitEliminated", unit = "g1", reason = "combat at 1025 (6:1, roll 6: DE)" })
  t.eq(t.query("score"), { german = before.german, allied = before.allied + 1 })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-5.2/5.3, 11.1: drops. tests/fixtures/f40/airborne: one row, a German major city at 0101
-- (Germany: 0101-0301), sea at 0501, Allied a1 at 0701 and a2 at 0901; off the map the paras
-- and the 22nd Airlanding `al` (XX).
-- ---------------------------------------------------------------------------------------------

local function drops_listed(t, side, id)
  local out = {}
  for _, c in ipairs(t.legal(side)) do
    if c.command == "drop" and c.unit == id then out[#out + 1] = c.to end
  end
  return out
end

test("F40-5.2: a hex holding four German division-equivalents is no drop target for the 22nd Airlanding", function(t)
  t.scenario(AIRBORNE, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", units = {
    unit("g1", "german", "german", "0201"), unit("g2", "german", "german", "0201"),
    unit("g3", "german", "german", "0201"), unit("g4", "german", "german", "0201"),
    unit("a1", "allied", "french", "0701"), unit("a2", "allied", "french", "0901"),
    { id = "al", side = "german", nation = "german", type = "airborne", size = "XX", ma = 3, strength = 2,
      attrs = { airlanding = true, airborne = true } },
  } }
  t.eq(drops_listed(t, "german", "al"), { "0101", "0301", "0401", "0601", "0701", "0801", "0901", "1001", "1101" })
end)

test("F40-11.1: a supplied German-held town counts for drop range", function(t)
  -- Thionville (2819), a French town next to German 2918, held by g2; 1821 is 10 hexes from it
  -- and more than 10 from every German city and town. a2 holds Metz (2820), the major city
  -- next to it, which g2's ZOC would otherwise make German.
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", units = {
    unit("g1", "german", "german", "3010"),
    unit("g2", "german", "german", "2819"),
    unit("a1", "allied", "french", "0532"),
    unit("a2", "allied", "french", "2820"),
    { id = "p1", side = "german", nation = "german", type = "airborne", size = "III", ma = 0, strength = 0,
      attrs = { class = "foot", airborne = true, para = true } },
  } }
  t.eq(t.state().control["2819"], "german")
  t.eq(t.state().control["2820"], "allied")
  local events = t.ok("german", drop("p1", "1821"))
  t.eq(events[1], { event = "UnitMoved", unit = "p1", to = "1821", path = { "1821" }, cost = 0 })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-5.1: the stacking refusal names the first overstacked hex in label order.
-- ---------------------------------------------------------------------------------------------

test("F40-5.1: with two hexes overstacked, the refusal names the lower label", function(t)
  t.scenario(AIRBORNE, { seed = 1 })
  local units = { unit("a1", "allied", "french", "0701"), unit("a2", "allied", "french", "0901") }
  for i = 1, 5 do units[#units + 1] = unit("h" .. i, "german", "german", "0301") end
  for i = 1, 5 do units[#units + 1] = unit("l" .. i, "german", "german", "0201") end
  t.setup { turn = 2, phase = "movement", side = "german", units = units }
  t.eq(refusal(t, "german", { command = "end_phase" }),
    "F40-5.2: hex 0201 holds 5 division-equivalents of german units at the end of the phase (at "
    .. "most 4): l1 (1), l2 (1), l3 (1), l4 (1), l5 (1); l1, l2, l3, l4, l5 can still move")
end)
