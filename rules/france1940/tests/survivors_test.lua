-- France 1940: the second round's remaining mutation survivors (docs/reliability.md, "Mutation
-- testing of the rules"): listings that share blocked lists (10.1 with 18.2, 16.4), control
-- re-judged when a unit leaves play (7.1), only a BEF corps's evacuation (16.4), the end of turn
-- 1's Allied turn (18.1, 16.3), the victory figures and the status text, each side's own supply
-- sources (8.2), neutral units named by 9.5 (R8), "all Belgian major cities" (16.4) and a
-- setup's invasions (16.2). Each on a small position where the one condition decides.

local h = require("helpers")
local POLITICS, RESERVES, unit, refusal, customs, play_out_turn = h.POLITICS, h.RESERVES, h.unit, h.refusal, h.customs, h.play_out_turn

-- The rail moves the legal list offers `side`, as "unit>hex", in order.
local function rails_listed(t, side)
  local out = {}
  for _, c in ipairs(t.legal(side)) do
    if c.command == "rail" then out[#out + 1] = c.unit .. ">" .. c.to end
  end
  return out
end

-- The move destinations the legal list offers `side`, as "unit>hex", in order.
local function moves_listed(t, side)
  local out = {}
  for _, c in ipairs(t.legal(side)) do
    if c.command == "move" then out[#out + 1] = c.unit .. ">" .. c.path[#c.path] end
  end
  return out
end

-- The ControlChanged events among `events`, as "hex:side".
local function control_changes(events)
  local out = {}
  for _, e in ipairs(events) do
    if e.event == "ControlChanged" then out[#out + 1] = e.hex .. ":" .. tostring(e.side) end
  end
  return out
end

-- Where the legal list lets `side` drop unit `id`, as a set {hex = true}.
local function drops_listed(t, side, id)
  local out = {}
  for _, c in ipairs(t.legal(side)) do
    if c.command == "drop" and c.unit == id then out[c.to] = true end
  end
  return out
end

-- The CountryInvaded events of the log after its first `before` events.
local function invasions_since(t, before)
  local log, out = t.log(), {}
  for i = before + 1, #log do
    local e = log[i]
    if e.event == "Custom" and e.name == "CountryInvaded" then out[#out + 1] = e end
  end
  return out
end

-- ---------------------------------------------------------------------------------------------
-- F40-10.1 with 18.2: one listing, one network, two blocked lists
-- ---------------------------------------------------------------------------------------------

test("F40-18.2: on turn 1 a British unit's rail list is all France, a French one's its deployment zone", function(t)
  -- Why: one rail search serves a network's units only if their blocked lists match (b1's and a1's do not).
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 1, phase = "movement", side = "allied", units = {
    unit("g1", "german", "german", "0603"),
    unit("a1", "allied", "french", "0202"),
    unit("b1", "allied", "british", "0203"),
  } }
  t.eq(rails_listed(t, "allied"), {
    "a1>0201", "a1>0203", "a1>0204", "a1>0205",
    "b1>0101", "b1>0201", "b1>0102", "b1>0202", "b1>0103", "b1>0104", "b1>0204", "b1>0105", "b1>0205",
  })
end)

test("F40-16.4: a Belgian unit standing in France and one in Belgium, listed together, get their own moves", function(t)
  -- Why: a listing shares blocked lists by kind of unit, and a Belgian unit's country is part of its kind.
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", invaded = { "belgium" }, units = {
    unit("g1", "german", "german", "0605"),
    unit("be1", "allied", "belgian", "0303", { ma = 1 }),
    unit("be2", "allied", "belgian", "0203", { ma = 1 }),
  } }
  -- be1 keeps out of France (0203, 0204) and the neutral Netherlands (0302); be2, in France,
  -- moves freely there (16.4: "once in France they operate normally")
  t.eq(moves_listed(t, "allied"), {
    "be1>0304", "be1>0403", "be1>0404",
    "be2>0102", "be2>0103", "be2>0202", "be2>0204", "be2>0303",
  })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-7.1: control judged again when a unit leaves play
-- ---------------------------------------------------------------------------------------------

test("F40-7.1: the hex of a defender eliminated in combat passes to the attacker's uncontested ZOC", function(t)
  -- Why: 7.1 is a standing definition; an elimination changes occupation and ZOC as a move does.
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "combat", side = "german", units = {
    unit("g1", "german", "german", "0202", { strength = 8 }),
    unit("a1", "allied", "french", "0203", { strength = 1 }),
    unit("a2", "allied", "french", "0105"),
  } }
  t.eq({ t.state().control["0102"], t.state().control["0203"] }, { "allied", "allied" })
  t.dice({ 6 })
  local events = t.ok("german", { command = "attack", hex = "0203", units = { "g1" } })
  t.eq(events[5], { event = "UnitEliminated", unit = "a1", reason = "combat at 0203 (4:1, roll 6: DE)" })
  -- no advance after combat (C.8): 0203 is German by g1's ZOC alone, as are 0102 and 0302,
  -- which a1's ZOC contested
  t.eq(control_changes(events), { "0102:german", "0302:german", "0203:german" })
  t.eq({ t.state().control["0102"], t.state().control["0203"] }, { "german", "german" })
end)

test("F40-7.1: a port whose last unit is evacuated passes to the enemy's uncontested ZOC", function(t)
  -- Why: a removal (evacuation, 10.4) takes a unit's occupation and ZOC away as an elimination does.
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", units = {
    unit("g1", "german", "german", "0202"),
    unit("a1", "allied", "french", "0101"),
    unit("a2", "allied", "french", "0105"),
  } }
  local control = t.state().control
  t.eq({ control["0101"], control["0102"], control["0201"] }, { "allied", "allied", "allied" })
  local events = t.ok("allied", { command = "evacuate", unit = "a1" })
  t.eq(events[2], { event = "UnitRemoved", unit = "a1", reason = "evacuated" })
  -- g1 (0202) alone exerts a ZOC in 0101 and in 0102 and 0201, which a1's contested
  t.eq(control_changes(events), { "0101:german", "0201:german", "0102:german" })
  control = t.state().control
  t.eq({ control["0101"], control["0102"], control["0201"] }, { "german", "german", "german" })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-16.4 with 10.4: a corps evacuated that is not of the BEF
-- ---------------------------------------------------------------------------------------------

test("F40-16.4: an evacuated French corps is no BEF corps: Belgium fights on", function(t)
  -- Why: 16.4 counts BEF corps evacuated; a French corps leaving by sea opens no surrender.
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", invaded = { "belgium" }, units = {
    unit("g1", "german", "german", "0402"),
    unit("g2", "german", "german", "0403"),
    unit("be1", "allied", "belgian", "0303"),
    unit("fr", "allied", "french", "0101", { size = "XXX", strength = 6 }),
  } }
  while not (t.state().side == "allied" and t.state().phase == "movement" and t.state().vars.assault == 2) do
    t.end_phase()
  end
  t.eq({ t.state().control["0402"], t.state().control["0403"] }, { "german", "german" })
  local events = t.ok("allied", { command = "evacuate", unit = "fr" })
  t.eq(events, {
    { event = "VarSet", key = "evacuated", value = { ["0101"] = 3 } },
    { event = "UnitRemoved", unit = "fr", reason = "evacuated" },
  })
  t.eq(t.state().vars.bef_corps_evacuated, nil)
  local rest = play_out_turn(t)
  t.eq(customs(rest, "CountrySurrendered"), {})
  t.eq(t.state().vars.countries, { belgium = "allied", luxembourg = "allied" })
  t.eq(t.unit("be1").side, "allied")
end)

-- ---------------------------------------------------------------------------------------------
-- F40-18.1 with 16.3: turn 1's Allied turn ends with its single assault
-- ---------------------------------------------------------------------------------------------

test("F40-18.1: the Netherlands surrender at the end of turn 1's single Allied assault", function(t)
  -- Why: turn 1 has four steps (18.1), so "the end of an Allied turn" (16.3) is its fourth.
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 1, phase = "movement", side = "german", invaded = { "netherlands" }, units = {
    unit("g1", "german", "german", "0401"),
    unit("g2", "german", "german", "0301"),
    unit("nl1", "allied", "dutch", "0302"),
    unit("a1", "allied", "french", "0205"),
  } }
  local _, phases = play_out_turn(t)
  t.eq(#phases, 4, "the four steps of turn 1")
  for i = 1, 3 do
    t.eq(customs(phases[i].events, "CountrySurrendered"), {}, "no surrender at the end of step " .. phases[i].step)
  end
  t.eq(phases[4].step, 3)
  t.eq(customs(phases[4].events, "CountrySurrendered"),
    { { event = "Custom", name = "CountrySurrendered", data = { country = "netherlands", turn = 1 } } })
  t.eq(t.state().turn, 2)
  t.eq(t.state().vars.surrendered, { netherlands = 1 })
  t.eq(t.unit("nl1"), nil)
end)

-- ---------------------------------------------------------------------------------------------
-- Victory figures (the module's own victory rules, docs/france1940.md "Victory")
-- ---------------------------------------------------------------------------------------------

-- The Netherlands invaded (Belgium and Luxembourg join), German units in both Dutch and both
-- Belgian major cities, the BEF corps `bef` in the port 0101, a Dutch and a Belgian unit.
local function low_countries_falling(t)
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", invaded = { "netherlands" }, units = {
    unit("g1", "german", "german", "0301"),
    unit("g2", "german", "german", "0401"),
    unit("g3", "german", "german", "0402"),
    unit("g4", "german", "german", "0403"),
    unit("nl1", "allied", "dutch", "0302"),
    unit("be1", "allied", "belgian", "0303"),
    unit("bef", "allied", "british", "0101", { size = "XXX", strength = 6, attrs = { bef = true } }),
    unit("a1", "allied", "french", "0105"),
  } }
end

test("victory: the figures count the evacuated units and each country's surrender turn", function(t)
  -- Why: batch runs read these figures, and units gone otherwise (setup, surrender) are not evacuated.
  -- The Netherlands fall on turn 2; Belgium, once the BEF corps has left, on turn 3.
  low_countries_falling(t)
  play_out_turn(t)
  t.eq(t.state().vars.surrendered, { netherlands = 2 })
  while not (t.state().side == "allied" and t.state().phase == "movement") do t.end_phase() end
  t.ok("allied", { command = "evacuate", unit = "bef" })
  play_out_turn(t)
  t.eq(t.state().over, true)
  t.eq(t.state().vars.surrendered, { netherlands = 2, belgium = 3, luxembourg = 3 })
  -- (no Paris hex on this map: Paris never falls)
  t.eq(t.state().vars.paris_fell, nil)
  t.eq(t.query("figures"), {
    paris_fell = 0,
    evacuated = 1,
    countries_surrendered = 3,
    netherlands_surrendered = 1,
    netherlands_surrendered_turn = 2,
    belgium_surrendered = 1,
    belgium_surrendered_turn = 3,
    switzerland_invaded = 0,
  })
end)

test("victory: a German move into Switzerland counts as its invasion in the figures", function(t)
  -- Why: `switzerland_invaded` is how often batch games see 16.6's invasion, and only it.
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", units = {
    unit("g1", "german", "german", "0505"),
    unit("a1", "allied", "french", "0105"),
  } }
  t.eq(t.query("figures").switzerland_invaded, 0)
  local events = t.ok("german", { command = "move", unit = "g1", path = { "0405" } })
  t.eq(customs(events, "CountryInvaded"),
    { { event = "Custom", name = "CountryInvaded", data = { country = "switzerland", unit = "g1" } } })
  t.eq(t.query("figures"), {
    paris_fell = 0, evacuated = 0, countries_surrendered = 0,
    netherlands_surrendered = 0, belgium_surrendered = 0, switzerland_invaded = 1,
  })
end)

test("victory: Paris falls once: the first turn it is German at the end of an Allied turn is kept", function(t)
  -- Why: `paris_fell` is the turn Paris fell, not the last turn it was German.
  t.scenario(RESERVES, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", units = {
    unit("g", "german", "german", "0202"),
    unit("a1", "allied", "french", "0101"),
  } }
  play_out_turn(t)
  t.eq(t.state().vars.paris_fell, 2)
  local turn3 = play_out_turn(t)
  t.eq(t.state().turn, 4)
  t.eq(t.state().control["0202"], "german")
  local set_again = {}
  for _, e in ipairs(turn3) do
    if e.event == "VarSet" and e.key == "paris_fell" then set_again[#set_again + 1] = e end
  end
  t.eq(set_again, {})
  t.eq(t.state().vars.paris_fell, 2)
  t.eq({ t.query("figures").paris_fell, t.query("figures").paris_fell_turn }, { 1, 2 })
  t.eq(t.query("status")["Paris fell"], "on turn 2")
end)

-- ---------------------------------------------------------------------------------------------
-- F40-16.x in the `status` query (what `hexwar status` shows)
-- ---------------------------------------------------------------------------------------------

test("F40-16.3: the status shows the Netherlands surrendered on turn 2, Belgium and Luxembourg allied", function(t)
  -- Why: the player reads each country's standing there; a surrendered one is no longer "allied".
  low_countries_falling(t)
  t.eq(t.query("status").countries, {
    netherlands = "invaded on turn 2, allied", belgium = "allied", luxembourg = "allied", switzerland = "neutral" })
  play_out_turn(t)
  t.eq(t.query("status").countries, {
    netherlands = "surrendered on turn 2", belgium = "allied", luxembourg = "allied", switzerland = "neutral" })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-8.2 with 11.1: the other side's supply sources serve nobody
-- ---------------------------------------------------------------------------------------------

test("F40-8.2: a German city the Allies hold is no Allied source: no Allied drop beside Bremen", function(t)
  -- Why: 8.2 gives each side its own sources: a German major city serves Germans only, whoever holds it.
  -- The full map: a0 holds Bremen (3701), cut off from every French source; 3702, next to it,
  -- is more than 10 hexes from every French city. (No Allied para is in the scenario's order of
  -- battle: `ap` stands for one a variant could add.)
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", units = {
    unit("a0", "allied", "french", "3701"),
    unit("a1", "allied", "french", "0532"),
    unit("g1", "german", "german", "3010"),
    { id = "ap", side = "allied", nation = "french", type = "airborne", size = "III", ma = 0, strength = 1,
      attrs = { class = "foot", airborne = true, para = true } },
  } }
  t.eq(t.state().control["3701"], "allied")
  local listed = drops_listed(t, "allied", "ap")
  t.eq(listed["3702"], nil, "3702 not listed")
  t.eq(listed["1521"], true, "Paris (1521) listed: the French sources serve ap")
  t.eq(refusal(t, "allied", { command = "drop", unit = "ap", to = "3702" }),
    "F40-11.1: 3702 is more than 10 hexes from every supplied allied city in friendly territory")
end)

-- ---------------------------------------------------------------------------------------------
-- F40-9.5 with R8: a still-neutral country's units hold their hex against everyone
-- ---------------------------------------------------------------------------------------------

test("F40-R8: a German move onto a hex a still-neutral unit holds is refused naming it", function(t)
  -- Why: R8, "units of a still-neutral country block their hex": 9.5's refusal names them as it names enemies.
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", units = {
    unit("g1", "german", "german", "0601"),
    unit("nl1", "neutral", "dutch", "0401"),
    unit("a1", "allied", "french", "0105"),
  } }
  t.eq(t.has_status("nl1", "neutral"), true)
  t.eq(refusal(t, "german", { command = "move", unit = "g1", to = "0401" }),
    "F40-9.5: g1 cannot move to 0401: a unit never enters a hex held by enemy units, or by a "
    .. "neutral country's (R8); 0401 holds nl1")
  t.eq(refusal(t, "german", { command = "move", unit = "g1", path = { "0501", "0401" } }),
    "F40-9.5: a unit never enters a hex held by enemy units, or by a neutral country's (R8) "
    .. "(step 2: 0501 to 0401); 0401 holds nl1")
end)

-- ---------------------------------------------------------------------------------------------
-- F40-16.4: "once all Belgian major cities are German-controlled"
-- ---------------------------------------------------------------------------------------------

-- Belgium invaded, the Allied movement phase of turn 2: be1 at 0303 beside France; the Belgian
-- major city 0402 German-held, and 0403 held by `at_0403` (a Belgian unit or a German one).
local function belgian_city_position(t, at_0403)
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", invaded = { "belgium" }, units = {
    unit("g1", "german", "german", "0402"),
    at_0403,
    unit("be1", "allied", "belgian", "0303"),
  } }
end

test("F40-16.4: Belgian units enter France once both Belgian major cities are German, not one", function(t)
  -- Why: 16.4 frees Belgian units for France when *all* Belgian major cities are German-controlled.
  belgian_city_position(t, unit("be2", "allied", "belgian", "0403"))
  t.eq({ t.state().control["0402"], t.state().control["0403"] }, { "german", "allied" })
  t.eq(refusal(t, "allied", { command = "move", unit = "be1", path = { "0203" } }),
    "F40-16.4: Belgian unit be1 may not enter 0203 (france)")
  t.eq(t.reach("be1")["0203"], nil, "0203 out of be1's reach")
  belgian_city_position(t, unit("g2", "german", "german", "0403"))
  t.eq({ t.state().control["0402"], t.state().control["0403"] }, { "german", "german" })
  -- (1 MP for 0203, 1 to leave g2's ZOC, F40-6.3)
  t.eq(t.reach("be1")["0203"], 2, "0203 in be1's reach")
  local events = t.ok("allied", { command = "move", unit = "be1", path = { "0203" } })
  t.eq(events[2], { event = "UnitMoved", unit = "be1", from = "0303", to = "0203", path = { "0203" }, cost = 2 })
end)

test("F40-16.4: on a map with no Belgian major city, Belgian units stay out of France", function(t)
  -- Why: the module's reading: a map with no Belgian major city never has them "all German-controlled".
  -- (Else Belgian units would enter France as soon as Belgium joins.) tests/fixtures/f40/
  -- belgium_no_city: one row, France 0101-0201, Belgium 0301, Germany 0401-0501.
  t.scenario("tests/fixtures/f40/belgium_no_city", { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "allied", invaded = { "belgium" }, units = {
    unit("g1", "german", "german", "0501"),
    unit("be1", "allied", "belgian", "0301"),
  } }
  t.eq(t.state().vars.countries, { belgium = "allied", luxembourg = "allied" })
  t.eq(refusal(t, "allied", { command = "move", unit = "be1", path = { "0201" } }),
    "F40-16.4: Belgian unit be1 may not enter 0201 (france)")
  t.eq(t.reach("be1"), { ["0401"] = 1 })
end)

-- ---------------------------------------------------------------------------------------------
-- F40-16.2: a setup's `invaded` on a game in progress
-- ---------------------------------------------------------------------------------------------

test("F40-16.2: a later setup naming countries already invaded or surrendered invades none again", function(t)
  -- Why: a country is invaded once (16.2) and a surrendered one no more; a setup over a save must agree.
  low_countries_falling(t)
  t.eq(t.state().vars.invaded, { netherlands = 2 })
  while not (t.state().side == "allied" and t.state().phase == "movement") do t.end_phase() end
  t.ok("allied", { command = "evacuate", unit = "bef" })
  play_out_turn(t)
  -- the Netherlands (invaded) and Belgium (joined, never invaded) surrendered on turn 2
  t.eq(t.state().vars.surrendered, { netherlands = 2, belgium = 2, luxembourg = 2 })
  local before = #t.log()
  t.setup { turn = 3, phase = "movement", side = "german",
    invaded = { "netherlands", "belgium", "luxembourg" }, units = {
      unit("g1", "german", "german", "0301"),
      unit("g3", "german", "german", "0402"),
      unit("a1", "allied", "french", "0105"),
    } }
  t.eq(invasions_since(t, before), {})
  t.eq(t.state().vars.invaded, { netherlands = 2 })
  t.eq(t.state().vars.countries, { netherlands = "surrendered", belgium = "surrendered", luxembourg = "surrendered" })
end)

test("F40-R11: a setup after the Low Countries surrendered gives their unheld hexes to the Allies", function(t)
  -- Why: R11, "in a country that was neutral and is no longer, a hex nobody has held is Allied";
  -- a surrendered country is neutral no more, and a setup's position has no history of holders.
  low_countries_falling(t)
  while not (t.state().side == "allied" and t.state().phase == "movement") do t.end_phase() end
  t.ok("allied", { command = "evacuate", unit = "bef" })
  play_out_turn(t)
  t.eq(t.state().vars.countries, { netherlands = "surrendered", belgium = "surrendered", luxembourg = "surrendered" })
  t.setup { turn = 3, phase = "movement", side = "german", units = {
    unit("g1", "german", "german", "0603"),
    unit("a1", "allied", "french", "0105"),
  } }
  local control = t.state().control
  local held = {}
  for _, label in ipairs({ "0301", "0302", "0303", "0304", "0401", "0402", "0403", "0404", "0305", "0405" }) do
    held[#held + 1] = label .. ":" .. tostring(control[label])
  end
  t.eq(held, { "0301:allied", "0302:allied", "0303:allied", "0304:allied", "0401:allied", "0402:allied",
    "0403:allied", "0404:allied", "0305:nil", "0405:nil" })
end)

test("F40-16.2: a later setup naming a country invaded on an earlier turn keeps that turn", function(t)
  -- Why: a country is invaded once; the turn of its invasion (the status text) stays the first.
  t.scenario(POLITICS, { seed = 1 })
  t.setup { turn = 2, phase = "movement", side = "german", invaded = { "switzerland" }, units = {
    unit("g1", "german", "german", "0405"),
    unit("a1", "allied", "french", "0105"),
  } }
  t.eq(t.state().vars.invaded, { switzerland = 2 })
  local before = #t.log()
  t.setup { turn = 3, phase = "movement", side = "german", invaded = { "switzerland" }, units = {
    unit("g1", "german", "german", "0405"),
    unit("sw1", "allied", "swiss", "0305"),
    unit("a1", "allied", "french", "0105"),
  } }
  t.eq(invasions_since(t, before), {})
  t.eq(t.state().vars.invaded, { switzerland = 2 })
  t.eq(t.query("status").countries.switzerland, "invaded on turn 2, allied")
end)
