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
    .. "path given hex by hex names what stops it (an enemy ZOC, F40-6.2; a neutral country, F40-16.1)")
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
