-- France 1940: politics (F40-16), airborne (11.x), rail (10.1), evacuation (10.4), supply
-- (R12), stacking in the legal lists (5.3, R14) and reserves (F40-17), each on a small position
-- where one condition of the rule decides. Most run on the fixtures of tests/fixtures/f40/
-- (the same positions as the Rust tests there), a few on the full scenario.

local h = require("helpers")
local POLITICS, RESERVES, AIRBORNE, unit, move, place, drop, refusal, var_set, customs, play_out_turn, to_first_assault = h.POLITICS, h.RESERVES, h.AIRBORNE, h.unit, h.move, h.place, h.drop, h.refusal, h.var_set, h.customs, h.play_out_turn, h.to_first_assault

-- Where the legal list lets `side` place a reserve (`unit`'s, or any unit's when nil), in order.
local function places_listed(t, side, unit)
  local out = {}
  for _, c in ipairs(t.legal(side)) do
    if c.command == "place" and (unit == nil or c.unit == unit) then out[#out + 1] = c.to end
  end
  return out
end

-- The UnitMoved event of a move's events.
local function moved_event(events)
  for _, e in ipairs(events) do if e.event == "UnitMoved" then return e end end
  return nil
end

local function politics_position(t, setup)
  t.scenario(POLITICS, { seed = 1 })
  t.setup(setup)
end

-- ---------------------------------------------------------------------------------------------
-- F40-16.3 / 16.6: Dutch units bound to the Netherlands while a German unit is in it
-- ---------------------------------------------------------------------------------------------

test("F40-16.3: a freed Dutch unit back in the Netherlands may leave it while a German unit is inside", function(t)
  politics_position(t, {
    turn = 2, phase = "movement", side = "allied", invaded = { "netherlands" },
    units = {
      unit("g1", "german", "german", "0401"),
      unit("nl1", "allied", "dutch", "0302", { status = { "freed" } }),
      unit("nl2", "allied", "dutch", "0302"),
    },
  })
  -- nl2, never freed, is held (the clause this test's other half leans on)
  t.eq(refusal(t, "allied", move("nl2", { "0202" })),
    "F40-16.3: nl2 may not leave netherlands while a German unit is in it (0202)")
  t.eq(t.reach("nl2")["0202"], nil, "0202 is out of nl2's reach")
  -- nl1, freed by a forced retreat earlier, operates normally: France is in its reach, and it goes
  t.eq(t.reach("nl1")["0202"], 1, "0202 in nl1's reach")
  t.eq(moved_event(t.ok("allied", move("nl1", { "0202" }))), { event = "UnitMoved", unit = "nl1", from = "0302", to = "0202", path = { "0202" }, cost = 1 })
end)

test("F40-16.3: a freed Dutch unit in a Dutch port may be evacuated while a German unit is inside", function(t)
  politics_position(t, {
    turn = 2, phase = "movement", side = "allied", invaded = { "netherlands" },
    units = {
      unit("g1", "german", "german", "0401"),
      unit("nl1", "allied", "dutch", "0302", { status = { "freed" } }),
      unit("nl2", "allied", "dutch", "0302"),
    },
  })
  t.eq(refusal(t, "allied", { command = "evacuate", unit = "nl2" }),
    "F40-16.3: nl2 may not leave netherlands while a German unit is in it (evacuation leaves it too)")
  local events = t.ok("allied", { command = "evacuate", unit = "nl1" })
  t.eq(events[#events], { event = "UnitRemoved", unit = "nl1", reason = "evacuated" })
end)

test("F40-16.3: with the Netherlands invaded but no German unit inside, a Dutch unit may enter Belgium", function(t)
  politics_position(t, {
    turn = 2, phase = "movement", side = "allied", invaded = { "netherlands" },
    units = {
      unit("g1", "german", "german", "0603"),
      unit("nl1", "allied", "dutch", "0302"),
    },
  })
  t.eq(t.state().vars.countries, { belgium = "allied", luxembourg = "allied", netherlands = "allied" })
  t.eq(t.reach("nl1")["0303"], 1, "Belgian 0303 in nl1's reach")
  t.eq(t.reach("nl1")["0202"], 1, "French 0202 in nl1's reach")
  t.eq(moved_event(t.ok("allied", move("nl1", { "0303" }))),
    { event = "UnitMoved", unit = "nl1", from = "0302", to = "0303", path = { "0303" }, cost = 1 })
end)

test("F40-16.3: with the Netherlands invaded but no German unit inside, a Dutch unit may be evacuated", function(t)
  politics_position(t, {
    turn = 2, phase = "movement", side = "allied", invaded = { "netherlands" },
    units = {
      unit("g1", "german", "german", "0603"),
      unit("nl1", "allied", "dutch", "0302"),
    },
  })
  local events = t.ok("allied", { command = "evacuate", unit = "nl1" })
  t.eq(events[#events], { event = "UnitRemoved", unit = "nl1", reason = "evacuated" })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-16.4: where Belgian units go
-- ---------------------------------------------------------------------------------------------

test("F40-16.4: a Belgian unit may move into Germany, not into France", function(t)
  politics_position(t, {
    turn = 2, phase = "movement", side = "allied", invaded = { "belgium" },
    units = {
      unit("g1", "german", "german", "0601"),
      unit("be1", "allied", "belgian", "0403"),
    },
  })
  t.eq(refusal(t, "allied", move("be1", { "0203" })), "F40-16.4: Belgian unit be1 may not enter 0203 (france)")
  t.eq(t.reach("be1")["0503"], 1, "German 0503 in be1's reach")
  t.eq(moved_event(t.ok("allied", move("be1", { "0503" }))),
    { event = "UnitMoved", unit = "be1", from = "0403", to = "0503", path = { "0503" }, cost = 1 })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-5.3, R14: the legal moves keep the armored limit, which only armored units count toward
-- ---------------------------------------------------------------------------------------------

test("F40-5.3: the legal moves let an infantry division join three armored division-equivalents, not a fourth armored one", function(t)
  politics_position(t, {
    turn = 2, phase = "movement", side = "german",
    units = {
      unit("pz-k", "german", "german", "0503", { type = "armored", size = "XXX", ma = 6, strength = 6 }),
      unit("inf", "german", "german", "0603"),
      unit("pz", "german", "german", "0604", { type = "armored", ma = 6, strength = 3 }),
      unit("a1", "allied", "french", "0105"),
    },
  })
  local listed = {}
  for _, c in ipairs(t.legal("german")) do
    if c.command == "move" then listed[c.unit .. ">" .. c.path[#c.path]] = true end
  end
  t.eq(listed["inf>0503"], true, "infantry XX to 0503 (4 equivalents, 3 armored) listed")
  t.eq(listed["pz>0503"], nil, "armored XX to 0503 (4 armored equivalents) not listed")
  t.eq(listed["pz>0502"], true, "armored XX elsewhere listed")
  t.ok("german", move("inf", { "0503" }))
  t.end_phase("german")
end)

-- ---------------------------------------------------------------------------------------------
-- F40-16.3: the Netherlands surrender at the end of an Allied turn with two major cities occupied
-- ---------------------------------------------------------------------------------------------

test("F40-16.3: the Netherlands do not surrender with one of their major cities German-occupied", function(t)
  politics_position(t, {
    turn = 2, phase = "movement", side = "german", invaded = { "netherlands" },
    units = {
      unit("g1", "german", "german", "0401"),
      unit("nl1", "allied", "dutch", "0302"),
      unit("a1", "allied", "french", "0105"),
    },
  })
  local events = play_out_turn(t)
  t.eq(customs(events, "CountrySurrendered"), {})
  t.eq(t.state().vars.countries, { belgium = "allied", luxembourg = "allied", netherlands = "allied" })
  t.eq(t.unit("nl1").at, "0302")
end)

test("F40-16.3: the Netherlands surrender at the end of the Allied turn with two major cities German-occupied", function(t)
  politics_position(t, {
    turn = 2, phase = "movement", side = "german", invaded = { "netherlands" },
    units = {
      unit("g1", "german", "german", "0401"),
      unit("g2", "german", "german", "0301"),
      unit("nl1", "allied", "dutch", "0302"),
      unit("a1", "allied", "french", "0105"),
    },
  })
  local _, phases = play_out_turn(t)
  t.eq(#phases, 8, "the eight steps of turn 2")
  for i = 1, 7 do
    t.eq(customs(phases[i].events, "CountrySurrendered"), {}, "no surrender at the end of step " .. phases[i].step)
  end
  local last = phases[8].events
  t.eq(customs(last, "CountrySurrendered"),
    { { event = "Custom", name = "CountrySurrendered", data = { country = "netherlands", turn = 2 } } })
  local removed = {}
  for _, e in ipairs(last) do if e.event == "UnitRemoved" then removed[#removed + 1] = e end end
  t.eq(removed, { { event = "UnitRemoved", unit = "nl1", reason = "surrendered" } })
  t.eq(t.state().vars.countries, { belgium = "allied", luxembourg = "allied", netherlands = "surrendered" })
  t.eq(t.state().vars.surrendered, { netherlands = 2 })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-16.4 with 10.4: only an evacuated BEF corps counts toward Belgium's surrender
-- ---------------------------------------------------------------------------------------------

-- Belgium joined, both its major cities (0402, 0403) German-held, the Allied movement phase of
-- turn 2's second assault; a BEF unit `bef` of size `size` in the port 0101.
local function belgium_falling(t, size)
  politics_position(t, {
    turn = 2, phase = "movement", side = "german", invaded = { "belgium" },
    units = {
      unit("g1", "german", "german", "0402"),
      unit("g2", "german", "german", "0403"),
      unit("be1", "allied", "belgian", "0303"),
      unit("bef", "allied", "british", "0101", { size = size, strength = size == "XXX" and 6 or 2, attrs = { bef = true } }),
    },
  })
  while not (t.state().side == "allied" and t.state().phase == "movement" and t.state().vars.assault == 2) do
    t.end_phase()
  end
end

test("F40-16.4: an evacuated BEF division is no BEF corps: Belgium fights on", function(t)
  belgium_falling(t, "XX")
  local events = t.ok("allied", { command = "evacuate", unit = "bef" })
  t.eq(events[#events], { event = "UnitRemoved", unit = "bef", reason = "evacuated" })
  t.eq(t.state().vars.bef_corps_evacuated, nil)
  local rest = play_out_turn(t)
  t.eq(customs(rest, "CountrySurrendered"), {})
  t.eq(t.unit("be1").side, "allied")
end)

test("F40-16.4: an evacuated BEF corps with both Belgian cities German: Belgium and Luxembourg surrender", function(t)
  belgium_falling(t, "XXX")
  t.ok("allied", { command = "evacuate", unit = "bef" })
  t.eq(t.state().vars.bef_corps_evacuated, 1)
  local rest = play_out_turn(t)
  t.eq(customs(rest, "CountrySurrendered"), {
    { event = "Custom", name = "CountrySurrendered", data = { country = "belgium", turn = 2 } },
    { event = "Custom", name = "CountrySurrendered", data = { country = "luxembourg", turn = 2 } },
  })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-11.3: a para-marked unit of another size than III is an ordinary unit
-- ---------------------------------------------------------------------------------------------

test("F40-11.3: a para-marked division is no para regiment: it moves", function(t)
  politics_position(t, {
    turn = 2, phase = "movement", side = "german",
    units = {
      unit("pdiv", "german", "german", "0603", { type = "airborne", attrs = { para = true } }),
      unit("preg", "german", "german", "0604", { type = "airborne", size = "III", attrs = { para = true } }),
      unit("a1", "allied", "french", "0105"),
    },
  })
  t.eq(refusal(t, "german", move("preg", { "0504" })), "F40-11.3: para regiments have no movement factor")
  t.eq(t.reach("pdiv")["0503"], 1, "0503 in the para-marked division's reach")
  t.eq(moved_event(t.ok("german", move("pdiv", { "0503" }))),
    { event = "UnitMoved", unit = "pdiv", from = "0603", to = "0503", path = { "0503" }, cost = 1 })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-11.4, 10.1: the airborne fixture (tests/fixtures/f40/airborne): one row, a German
-- major city at 0101 (Germany: 0101-0301), sea at 0501, Allied a1 at 0701 and a2 at 0901
-- (Maginot); off the map the paras p1, p2, p3 (turn 2) and the 22nd Airlanding `al` (XX).
-- ---------------------------------------------------------------------------------------------

test("F40-11.4: the 22nd Airlanding, dropped this assault, may not go by rail", function(t)
  t.scenario(AIRBORNE, { seed = 1 })
  t.ok("german", drop("al", "0201"))
  t.eq(refusal(t, "german", { command = "rail", unit = "al", to = "0301" }),
    "F40-11.4: al may not move in the assault of its drop")
  local rails = {}
  for _, c in ipairs(t.legal("german")) do
    if c.command == "rail" then rails[#rails + 1] = c.unit .. ">" .. c.to end
  end
  t.eq(rails, { "g1>0101", "g1>0301" })
  -- g1 may: the refusal is the airlanding's, not the network's
  t.ok("german", { command = "rail", unit = "g1", to = "0301" })
end)

test("F40-11.4: the 22nd Airlanding may not attack in the combat phase of its drop assault", function(t)
  t.scenario(AIRBORNE, { seed = 1 })
  t.ok("german", drop("al", "0601"))
  t.end_phase("german")
  t.eq(t.state().phase, "combat")
  t.eq(refusal(t, "german", { command = "attack", hex = "0701", units = { "al" } }),
    "F40-11.4: al may not attack in the assault of its drop")
  local attacks = {}
  for _, c in ipairs(t.legal("german")) do
    if c.command == "attack" then attacks[#attacks + 1] = c end
  end
  t.eq(attacks, {})
end)

-- The full scenario, turn 2, the German movement phase: g1 at Dusseldorf (3010), a1 far away in
-- the south-west (0532), the para `p1` off the map, and `more` units.
local function drop_position(t, more)
  t.scenario("scenarios/france1940", { seed = 1 })
  local units = {
    unit("g1", "german", "german", "3010"),
    unit("a1", "allied", "french", "0532"),
    { id = "p1", side = "german", nation = "german", type = "airborne", size = "III", ma = 0, strength = 0,
      attrs = { class = "foot", airborne = true, para = true } },
  }
  for _, u in ipairs(more or {}) do units[#units + 1] = u end
  t.setup { turn = 2, phase = "movement", side = "german", units = units }
end

test("F40-11.1: a supplied city the enemy controls does not count for drop range", function(t)
  -- Thionville (2819), a French town next to German 2918: a German line could be traced from it
  -- (its own hex is exempt, R12), but it is Allied territory. 1821 is 10 hexes from it and more
  -- than 10 from every German city and town.
  drop_position(t)
  t.eq(t.state().control["2819"], "allied")
  t.eq(refusal(t, "german", drop("p1", "1821")),
    "F40-11.1: 1821 is more than 10 hexes from every supplied german city in friendly territory")
  local listed = {}
  for _, c in ipairs(t.legal("german")) do
    if c.command == "drop" then listed[c.to] = true end
  end
  t.eq(listed["1821"], nil, "1821 not listed")
  t.eq(listed["2819"], true, "2819 (within 10 of Trier) listed")
  -- With Thionville German-held, the same drop is accepted.
  drop_position(t, { unit("g2", "german", "german", "2819") })
  t.eq(t.state().control["2819"], "german")
  local events = t.ok("german", drop("p1", "1821"))
  t.eq(moved_event(events), { event = "UnitMoved", unit = "p1", to = "1821", path = { "1821" }, cost = 0 })
end)

-- ---------------------------------------------------------------------------------------------
-- R12, F40-10.3: German supply crosses a sea hexside along a causeway
-- ---------------------------------------------------------------------------------------------

test("F40-R12: a German unit traces supply across a causeway", function(t)
  -- tests/fixtures/f40/causeway: the German city 0101 (the only German source) and 0201 across a
  -- sea hexside with a causeway. The French unit at 0302 puts 0202 in its ZOC, so the land way
  -- round (0201, 0202, 0102, 0101) is closed to a foot unit's supply: only the causeway is left.
  t.scenario("tests/fixtures/f40/causeway", { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", units = {
    unit("g", "german", "german", "0201"),
    unit("a", "allied", "french", "0302"),
  } }
  t.eq(t.query("supply"), { a = true, g = true })
  t.eq(t.has_status("g", "isolated"), false)
end)

-- ---------------------------------------------------------------------------------------------
-- F40-17: reserves. The reserves fixture (tests/fixtures/f40/reserves): France columns 01-04
-- (the west-edge port 0101, Paris 0202, the assembly point 0302; row 2 is the south edge),
-- Germany columns 05-06 (major cities 0501, 0601, the town 0602). Pools: German gr1-gr3,
-- Allied ar1-ar4.
-- ---------------------------------------------------------------------------------------------

local ASSEMBLY_REFUSAL = "F40-17.5: 0302 is not an assembly point free of German ZOC and control, a Paris hex or a west/south edge hex of France"

test("F40-17.5: an assembly point in German ZOC takes no reserve, though Allied-controlled", function(t)
  -- g at 0402 puts 0302 in its ZOC; a2 at 0202 puts it in Allied ZOC too, so it stays Allied.
  t.scenario(RESERVES, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", units = {
    unit("g", "german", "german", "0402"),
    unit("a2", "allied", "french", "0202"),
  } }
  t.eq(t.state().control["0302"], "allied")
  t.eq(refusal(t, "allied", place("ar1", "0302")), ASSEMBLY_REFUSAL)
  t.eq(places_listed(t, "allied", "ar1"), { "0101", "0102", "0202" })
end)

test("F40-17.5: a German-controlled assembly point out of German ZOC takes no reserve", function(t)
  -- g's ZOC from 0402 makes 0302 German (7.1b); g then goes home and 0302 stays German (7.1c),
  -- in no German ZOC.
  t.scenario(RESERVES, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", units = {
    unit("g", "german", "german", "0402"),
    unit("a1", "allied", "french", "0101"),
  } }
  t.eq(t.state().control["0302"], "german")
  t.ok("german", move("g", { "0501" }))
  to_first_assault(t, 2, "allied")
  t.eq(t.unit("g").at, "0501")
  t.eq(t.state().control["0302"], "german")
  t.eq(refusal(t, "allied", place("ar1", "0302")), ASSEMBLY_REFUSAL)
  -- (with the same German control, the Paris hex and the south edge take reserves, 17.5)
  t.ok("allied", place("ar1", "0202"))
end)

test("F40-17.5: a south-edge hex of France off the west edge takes a reserve", function(t)
  -- 0402: south edge, not west edge, not Paris, not an assembly point.
  t.scenario(RESERVES, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", units = {
    unit("g", "german", "german", "0601"),
    unit("a1", "allied", "french", "0101"),
  } }
  t.eq(refusal(t, "allied", place("ar1", "0401")),
    "F40-17.5: 0401 is not an assembly point free of German ZOC and control, a Paris hex or a west/south edge hex of France")
  local events = t.ok("allied", place("ar1", "0402"))
  t.eq(events[1].event, "UnitPlaced")
  t.eq(events[1].unit.id, "ar1")
  t.eq(events[1].unit.at, "0402")
  t.eq(var_set(events, "placed"), { event = "VarSet", key = "placed", value = { ["0402"] = true } })
  t.eq(var_set(events, "reserves_used"), { event = "VarSet", key = "reserves_used", value = { allied = 1 } })
end)

test("F40-17.4: a German city the Allies control takes no German reserve", function(t)
  -- a at 0502 holds the town 0602 by its uncontested ZOC, then steps back to 0402, out of
  -- range: 0602 stays Allied (7.1c), neither held nor in Allied ZOC. (No German unit on the
  -- map: its ZOC would contest 0602.) 0601 stays German; 0501 is in a's ZOC.
  t.scenario(RESERVES, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", units = { unit("a", "allied", "french", "0502") } }
  t.eq(t.state().control["0602"], "allied")
  t.ok("allied", move("a", { "0402" }))
  to_first_assault(t, 3, "german")
  t.eq({ t.state().control["0501"], t.state().control["0601"], t.state().control["0602"] }, { "allied", "german", "allied" })
  t.eq(refusal(t, "german", place("gr1", "0602")), "F40-17.4: 0602 is not a German-controlled German city")
  t.eq(places_listed(t, "german", "gr1"), { "0601" })
  t.ok("german", place("gr1", "0601"))
end)

test("F40-17.4: two German reserves a turn: a third is refused", function(t)
  -- a1 far west: the three German cities (0501, 0601, 0602) are all free of Allied ZOC.
  t.scenario(RESERVES, { seed = 1 })
  t.setup { turn = 3, phase = "movement", side = "german", units = {
    unit("g", "german", "german", "0502"),
    unit("a1", "allied", "french", "0101"),
  } }
  t.ok("german", place("gr1", "0501"))
  local events = t.ok("german", place("gr2", "0601"))
  t.eq(var_set(events, "reserves_used"), { event = "VarSet", key = "reserves_used", value = { german = 2 } })
  t.eq(refusal(t, "german", place("gr3", "0602")), "F40-17.4: 2 German reserves per turn")
  t.eq(places_listed(t, "german"), {})
end)

-- ---------------------------------------------------------------------------------------------
-- F40-17.7: Swiss reserves
-- ---------------------------------------------------------------------------------------------

test("F40-17.7: a Swiss town the Germans control takes no Swiss reserve", function(t)
  -- tests/fixtures/f40/alpine: France columns 01-02, Switzerland 03-05 (the town 0301 on the
  -- north edge; 0302-0502 the south edge), Germany 06-07. g at 0401 holds the town 0301 by its
  -- uncontested ZOC.
  t.scenario("tests/fixtures/f40/alpine", { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", invaded = { "switzerland" }, units = {
    unit("g", "german", "german", "0401"),
    unit("a", "allied", "french", "0102"),
  } }
  t.eq(t.state().control["0301"], "german")
  t.eq(refusal(t, "allied", place("sr1", "0301")),
    "F40-17.7: 0301 is not an Allied-controlled Swiss city or south/east edge hex of Switzerland")
  t.eq(places_listed(t, "allied", "sr1"), { "0302", "0402", "0502" })
end)

test("F40-17.7: Swiss reserves enter by the east map edge in Switzerland", function(t)
  -- The full map: 4029 is an east-edge hex of Switzerland (hills, no city, not the south edge).
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 3, phase = "movement", side = "allied", invaded = { "switzerland" }, units = {
    unit("g", "german", "german", "3010"),
    unit("a", "allied", "french", "0532"),
  } }
  t.eq(refusal(t, "allied", place("ch-3-div", "3928")),
    "F40-17.7: 3928 is not an Allied-controlled Swiss city or south/east edge hex of Switzerland")
  local events = t.ok("allied", place("ch-3-div", "4029"))
  t.eq(events[1].event, "UnitPlaced")
  t.eq({ events[1].unit.id, events[1].unit.side, events[1].unit.at }, { "ch-3-div", "allied", "4029" })
  t.eq(var_set(events, "reserves_used"), { event = "VarSet", key = "reserves_used", value = { swiss = 1 } })
end)
