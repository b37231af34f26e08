-- France 1940: the refusals a player reads, on the scenario's own start position (turn 1, the
-- German movement phase). The exact texts are asserted: they are what the player sees.

local function drops(t)
  -- The turn-1 drops of a player's game: the 22nd Airlanding next to The Hague invades the
  -- Netherlands, which join the Allies; their units then exert ZOC (F40-6.1, 16.2).
  t.ok("german", { command = "drop", unit = "de-22-ll", to = "2306" })
  t.ok("german", { command = "drop", unit = "de-fjr-1", to = "2308" })
  t.ok("german", { command = "drop", unit = "de-sa-koch", to = "2612" })
end

-- The refusal of `cmd` as the player reads it, "RULE: reason"; fails when it is accepted.
local function refusal(t, side, cmd)
  local events, refused = t.submit(side, cmd)
  if events ~= nil then t.fail("accepted: " .. t.show(cmd)) end
  return refused.rule .. ": " .. refused.reason
end

test("F40-6.2: a move named by its destination that an enemy ZOC stops says how to find why", function(t)
  t.scenario("scenarios/france1940", { seed = 1 })
  t.eq(t.reach("de-4-pz")["2409"], 7, "2409 within 8 MP before the drops")
  drops(t)
  t.eq(refusal(t, "german", { command = "move", unit = "de-4-pz", to = "2409" }),
    "F40-9.1: de-4-pz cannot reach 2409 this phase (8 MP); `hexwar reach` lists where it can, and a "
    .. "path given hex by hex names what stops it (an enemy ZOC, F40-6.2)")
  -- the path given names the ZOC
  t.eq(refusal(t, "german", { command = "move", unit = "de-4-pz", path = { "2811", "2710", "2610", "2509", "2409" } }),
    "F40-6.2: a unit that enters an enemy ZOC stops there (step 3: 2710 to 2610)")
end)

test("F40-9.5: a move named by its destination held by enemy units names them", function(t)
  t.scenario("scenarios/france1940", { seed = 1 })
  drops(t)
  t.eq(refusal(t, "german", { command = "move", unit = "de-4-pz", to = "2607" }),
    "F40-9.5: de-4-pz cannot move to 2607: a unit never enters a hex held by enemy units, or by "
    .. "a neutral country's (R8); 2607 holds nl-bde-a, nl-iv-ak")
end)

test("F40-5.2: the stacking refusal lists the units and which can still move", function(t)
  t.scenario("scenarios/france1940", { seed = 1 })
  t.ok("german", { command = "move", unit = "de-v-ak", to = "2912" })
  t.eq(refusal(t, "german", { command = "end_phase" }),
    "F40-5.2: hex 2912 holds 6 division-equivalents of german units at the end of the phase (at "
    .. "most 4): de-iv-ak (3), de-v-ak (3); de-iv-ak can still move")
  t.ok("german", { command = "move", unit = "de-ii-ak", to = "2912" })
  t.ok("german", { command = "move", unit = "de-iv-ak", to = "3013" })
  t.eq(refusal(t, "german", { command = "end_phase" }),
    "F40-5.2: hex 2912 holds 6 division-equivalents of german units at the end of the phase (at "
    .. "most 4): de-ii-ak (3), de-v-ak (3); every german unit there has moved, so no move can undo "
    .. "it: play the phase again from its start (a save from before it) with other moves (F40-5.1)")
end)

test("F40-5.3: the armored stacking refusal lists the armored units", function(t)
  t.scenario("scenarios/france1940", { seed = 1 })
  t.ok("german", { command = "move", unit = "de-5-pz", path = { "2911" } })
  t.ok("german", { command = "move", unit = "de-7-pz", path = { "2911" } })
  t.ok("german", { command = "move", unit = "de-iv-ak", path = { "2911" } })
  -- 5.2 is judged first (7 division-equivalents); a fresh game shows 5.3 alone, and a move
  -- of one of the units that can still move ends it.
  t.eq(refusal(t, "german", { command = "end_phase" }),
    "F40-5.2: hex 2911 holds 7 division-equivalents of german units at the end of the phase (at "
    .. "most 4): de-3-pz (1), de-4-pz (1), de-5-pz (1), de-7-pz (1), de-iv-ak (3); de-3-pz, "
    .. "de-4-pz can still move")
  t.scenario("scenarios/france1940", { seed = 1 })
  t.ok("german", { command = "move", unit = "de-5-pz", path = { "2911" } })
  t.ok("german", { command = "move", unit = "de-7-pz", path = { "2911" } })
  t.eq(refusal(t, "german", { command = "end_phase" }),
    "F40-5.3: hex 2911 holds 4 armored division-equivalents of german units at the end of the "
    .. "phase (at most 3): de-3-pz (1), de-4-pz (1), de-5-pz (1), de-7-pz (1); de-3-pz, de-4-pz "
    .. "can still move")
  t.ok("german", { command = "move", unit = "de-3-pz", to = "2808" })
  t.end_phase("german")
end)

test("F40-5.2: units moved by rail cannot move again", function(t)
  t.scenario("scenarios/france1940", { seed = 1 })
  t.ok("german", { command = "rail", unit = "de-xviii-ak", to = "3011" })
  t.ok("german", { command = "move", unit = "de-v-ak", to = "3011" })
  t.eq(refusal(t, "german", { command = "end_phase" }),
    "F40-5.2: hex 3011 holds 6 division-equivalents of german units at the end of the phase (at "
    .. "most 4): de-v-ak (3), de-xviii-ak (3); none of them can move now")
end)

test("F40-16.2: a move to a German hex is listed, and taken by destination, by a path that invades no one where one is as cheap", function(t)
  -- g1 at 2907 (German) to 3107 (German): through Dutch 3007 or German 3008, 2 MP either
  -- way. The search settled on 3007, so the listed move and `to = "3107"` invaded the
  -- Netherlands (and so Belgium and Luxembourg) or were refused asking for a path.
  local function position()
    t.scenario("scenarios/france1940", { seed = 1 })
    t.setup {
      turn = 3, phase = "movement", side = "german",
      units = {
        { id = "g1", side = "german", nation = "german", type = "infantry", size = "XX", ma = 6, strength = 2, at = "2907" },
        { id = "a1", side = "allied", nation = "french", type = "infantry", size = "XX", ma = 4, strength = 2, at = "1025" },
      },
    }
  end
  position()
  local listed = {}
  for _, c in ipairs(t.legal("german")) do
    if c.command == "move" and c.unit == "g1" then listed[c.path[#c.path]] = c.path end
  end
  t.eq(listed["3107"], { "3008", "3107" })
  -- (no path as cheap keeps out of the Netherlands: 3106 stays through 3007)
  t.eq(listed["3106"], { "3007", "3106" })
  local events = t.ok("german", { command = "move", unit = "g1", to = "3107" })
  t.eq(events[3], { event = "UnitMoved", unit = "g1", from = "2907", to = "3107", path = { "3008", "3107" }, cost = 2 })
  t.eq(t.state().vars.invaded, nil)
end)

test("F40-16.1: a neutral country's unit may not move, whoever orders it", function(t)
  -- (a player ordering a still-neutral Belgian unit was told "F40-9.1: be-i-ca is not a german
  -- unit", or "not an allied unit")
  t.scenario("scenarios/france1940", { seed = 1 })
  t.eq(refusal(t, "german", { command = "move", unit = "be-i-ca", path = { "2611" } }),
    "F40-16.1: be-i-ca belongs to a neutral country: units of a neutral country may not move")
end)

test("F40-9.2: a Dutch unit ordered onto the sea is told of the sea, not of F40-16.3", function(t)
  -- Netherlands invaded and a German unit inside (16.3 binds the Dutch units): the IJsselmeer
  -- (2503) is in no country, which the 16.3 check read as leaving the Netherlands.
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup {
    turn = 2, phase = "movement", side = "allied", invaded = { "netherlands" },
    units = {
      { id = "nl1", side = "allied", nation = "dutch", type = "armored", size = "XX", ma = 5, strength = 2, at = "2404", attrs = { class = "motorized" } },
      { id = "nl2", side = "allied", nation = "dutch", type = "infantry", size = "XX", ma = 4, strength = 2, at = "3006" },
      { id = "g1", side = "german", nation = "german", type = "infantry", size = "XX", ma = 6, strength = 2, at = "2606" },
    },
  }
  t.eq(refusal(t, "allied", { command = "move", unit = "nl1", path = { "2503" } }),
    "F40-9.2: motorized units may not enter sea (step 1: 2404 to 2503)")
  -- (leaving the Netherlands by land, into Germany at 3106, is still 16.3's)
  t.eq(refusal(t, "allied", { command = "move", unit = "nl2", path = { "3106" } }),
    "F40-16.3: nl2 may not leave netherlands while a German unit is in it (3106)")
end)

-- The error that stops a variant's game from starting (a table checked at GameStarted).
local function start_error(t, mod)
  local ok, err = pcall(t.scenario, "scenarios/france1940", { seed = 1, mods = { mod } })
  t.eq(ok, false, mod .. " refused")
  return tostring(err)
end

local function has(t, text, wanted)
  t.truthy(text:find(wanted, 1, true), "'" .. wanted .. "' in: " .. text)
end

test("F40-17.4, 17.5: the reserve refusals give a variant's turns and quota", function(t)
  t.scenario("scenarios/france1940", { seed = 1, mods = { "mods/reserves_late.lua" } })
  t.setup{ turn = 3, phase = "movement", side = "german", units = {
    { id = "g1", side = "german", nation = "german", type = "infantry", size = "XX", ma = 4, strength = 2, at = "3010" },
    { id = "a1", side = "allied", nation = "french", type = "infantry", size = "XX", ma = 4, strength = 2, at = "1521" } } }
  t.eq(refusal(t, "german", { command = "place", unit = "de-28-id", to = "3119" }),
    "F40-17.4: German reserves enter from turn 4")
  t.setup{ turn = 2, phase = "movement", side = "allied" }
  t.eq(refusal(t, "allied", { command = "place", unit = "fr-1-dic", to = "2722" }),
    "F40-17.5: Allied reserves enter from turn 3")
  t.setup{ turn = 3, phase = "movement", side = "allied" }
  t.ok("allied", { command = "place", unit = "fr-1-dic", to = "2722" })
  t.eq(refusal(t, "allied", { command = "place", unit = "fr-13-di", to = "2221" }),
    "F40-17.5: 1 Allied reserve per turn")
end)

test("F40-C.6: combat.COLUMNS out of order is refused as the game starts", function(t)
  has(t, start_error(t, "mods/columns_out_of_order.lua"),
    "F40-C.6: combat.COLUMNS runs from the weakest odds up, but 1:1 comes before 1:2 (columns: 1:1, 1:2, 2:1, 3:1, 4:1, 5:1, 6:1)")
end)

test("the bot's odds thresholds are checked against combat.COLUMNS as the game starts", function(t)
  has(t, start_error(t, "mods/no_2to1.lua"),
    "strategy.attack_at = \"2:1\" is no odds column (the columns: 1:2, 1:1, 3:1, 4:1, 5:1, 6:1)")
end)

test("a misspelt victory.CITY_POINTS key is refused as the game starts", function(t)
  has(t, start_error(t, "mods/city_points_typo.lua"),
    "victory.CITY_POINTS has 'Paris', a key no city scores by (did you mean 'paris'?) (keys: belgium, "
    .. "france, netherlands, paris): its points would never count")
end)

-- A French unit at 1026 (clear, deep in France) attacked by g1-g3 from three of its neighbours
-- (1025, 1126, 0926): the other three (0925, 1027, 1125) are free but each in the ZOC of two of
-- them. `ring`: German units on those three too. Seed 7: the first roll is a 1, DR at 6:1.
local function boxed_in(t, defender, ring)
  t.scenario("scenarios/france1940", { seed = 7 })
  local units = {
    defender,
    { id = "g1", side = "german", nation = "german", type = "infantry", size = "XX", ma = 4, strength = 8, at = "1025" },
    { id = "g2", side = "german", nation = "german", type = "infantry", size = "XX", ma = 4, strength = 8, at = "1126" },
    { id = "g3", side = "german", nation = "german", type = "infantry", size = "XX", ma = 4, strength = 8, at = "0926" },
  }
  if ring then
    for i, at in ipairs({ "0925", "1027", "1125" }) do
      units[#units + 1] = { id = "r" .. i, side = "german", nation = "german", type = "infantry", size = "XX", ma = 4, strength = 2, at = at }
    end
  end
  t.setup { turn = 3, phase = "combat", side = "german", units = units }
end

-- The retreat of the attack on 1026 (the events after the result): "RESULT: what a1 did".
local function retreat_of(t)
  local events = t.ok("german", { command = "attack", hex = "1026", units = { "g1", "g2", "g3" } })
  t.eq(events[1], { event = "DiceRolled", sides = 6, value = 1 })
  local result = events[2].data.odds .. " " .. events[2].data.result
  for _, e in ipairs(events) do
    if e.event == "UnitEliminated" then return result .. ": eliminated, " .. e.reason end
    if e.event == "UnitMoved" then return result .. ": retreated " .. table.concat(e.path, " ") end
  end
  t.fail("no retreat event: " .. t.show(events))
end

test("F40-6.6: a foot unit whose every retreat enters enemy ZOC is told so; a motorized one retreats", function(t)
  -- (the tester's report: "no retreat route (F40-C.7)" did not say that enemy ZOC closed them)
  boxed_in(t, { id = "a1", side = "allied", nation = "french", type = "infantry", size = "XX", ma = 4, strength = 2, at = "1026" })
  t.eq(retreat_of(t), "6:1 DR: eliminated, combat at 1026 (6:1, roll 1: DR): no retreat route: every route "
    .. "otherwise open to it enters enemy ZOC (0925, 1027, 1125), and a foot unit may not retreat into "
    .. "enemy ZOC unless a friendly unit stays there (F40-6.6)")
  boxed_in(t, { id = "a1", side = "allied", nation = "french", type = "armored", size = "XX", ma = 6, strength = 2, at = "1026", attrs = { class = "motorized" } })
  t.eq(retreat_of(t), "6:1 DR: retreated 0925 0825")
end)

test("F40-C.7: a retreat closed by enemy units, not by ZOC alone, keeps C.7's reason", function(t)
  boxed_in(t, { id = "a1", side = "allied", nation = "french", type = "infantry", size = "XX", ma = 4, strength = 2, at = "1026" }, true)
  t.eq(retreat_of(t), "6:1 DR: eliminated, combat at 1026 (6:1, roll 1: DR): no retreat route (F40-C.7)")
end)
