-- The rules the mutation pass of session 45 left unguarded (docs/reliability.md, "Mutation
-- testing of the rules"): the library's fallbacks for a designer's own map, which the shipped
-- scenarios never reach (tests/fixtures/diplomacy_survivors: Marchland, no victory_centers,
-- WEST's home centres given on its regions), game.skip_phase, and check_order's reasons that
-- no test read. Each test fails when its rule is broken.
-- Run: hexwar test rules/diplomacy   (API: docs/testing.md)

local MARCHLAND = "tests/fixtures/diplomacy_survivors"
local HOUSE_RULES = "tests/fixtures/diplomacy_survivors/house_rules.lua"
local SKIP_QUERY = "tests/fixtures/diplomacy_survivors/skip_query.lua"

-- A game of `scenario` (with `mods`, if any) from the position `setup`.
local function position(t, scenario, setup, mods)
  t.scenario(scenario, { seed = 1, mods = mods })
  if setup then t.setup(setup) end
end

local function standard(t, setup, mods) position(t, "scenarios/diplomacy", setup, mods) end

local h = require("helpers")
local adjudicate, flags = h.adjudicate, h.flags

-- check_order's answer for one order given alone: its reason, which must be a void's.
local function why(t, power, order)
  local answer = t.query("check_order", { power = power, order = order })
  t.eq(answer.void, true, order)
  return answer.reason
end

-- check_order's `beside` for an order valid alone, given the phase's `orders`.
local function beside(t, power, order, orders)
  local answer = t.query("check_order", { power = power, order = order, orders = orders })
  t.eq(answer.void, false, order)
  return answer.beside
end

-- ---------------------------------------------------------------------------------------------
-- The library's fallbacks on a designer's map

test("DIP-1: a map without victory_centers is won with half its centres rounded down plus one", function(t)
  -- (map.lua's default: Marchland's 7 centres need 4, Isthmia's 8 need 5; 3 and 4 do not win)
  local function fall(scenario, ender, setup, orders)
    position(t, scenario, setup)
    adjudicate(t, ender, orders)
    return t.state()
  end
  local marchland = {
    phase = "F1901M",
    units = { WEST = { "A WTN", "F WCA" }, EAST = { "A ETN" } },
    centers = { WEST = { "MID", "WCA", "WTN" }, EAST = { "ECA", "ETN" } },
  }
  local s = fall(MARCHLAND, "WEST", marchland, { WEST = { "A WTN H" } })
  t.eq({ s.over, s.vars.position.winner }, { false, nil }, "3 of 7")
  s = fall(MARCHLAND, "WEST", marchland, { WEST = { "A WTN - HIL" } })
  t.eq({ s.over, s.vars.position.winner, s.vars.position.centers.WEST }, { true, "WEST", { "HIL", "MID", "WCA", "WTN" } }, "4 of 7")
  t.eq(s.outcome.winner, "WEST")

  local isthmia = {
    phase = "F1901M",
    units = { NORTH = { "A NHL", "F NOR" }, SOUTH = { "A SPL" }, EAST = { "A EAS" } },
    centers = { NORTH = { "FRT", "NHL", "NOR" }, SOUTH = { "SOU", "SPL" }, EAST = { "EAS", "EMT" } },
  }
  s = fall("tests/fixtures/diplomacy_small_map", "NORTH", isthmia, { NORTH = { "A NHL - EMT" } })
  t.eq({ s.over, s.vars.position.winner }, { false, nil }, "4 of 8")
  isthmia.centers.NORTH = { "FRT", "IS", "NHL", "NOR" }
  s = fall("tests/fixtures/diplomacy_small_map", "NORTH", isthmia, { NORTH = { "A NHL - EMT" } })
  t.eq({ s.over, s.vars.position.winner }, { true, "NORTH" }, "5 of 8")
end)

test("DIP-4.m/R-m1: home centres given on the map's regions are where the power builds", function(t)
  -- (WEST lists no home_centers: map.lua reads its homes from the regions' `home`)
  local winter = {
    phase = "W1901A",
    units = { WEST = { "A MID" }, EAST = { "A ETN", "F ECA" } },
    centers = { WEST = { "HIL", "WCA", "WTN" }, EAST = { "ECA", "ETN" } },
  }
  position(t, MARCHLAND, winter)
  t.eq(t.query("adjustments").WEST, { centers = 3, units = 1, change = 2, build_sites = { "WCA", "WTN" } })
  t.eq(t.query("check_order", { power = "WEST", order = "F WCA B" }).void, false)
  t.eq(why(t, "WEST", "A HIL B"), "HIL is not a home supply centre of WEST")
  local result = adjudicate(t, "WEST", { WEST = { "A WTN B", "A HIL B" } })
  t.eq(flags(t, result, "A WTN B"), {})
  t.eq(flags(t, result, "A HIL B"), { "void" })
  t.eq(result.units.WEST, { "A MID", "A WTN" })
end)

test("DIP-4.m: civil disorder disbands the unit farthest from home centres given on the regions", function(t)
  -- (A ETN is two moves from WCA and WTN, A BAY one: ETN goes, though BAY comes first by name)
  position(t, MARCHLAND, {
    phase = "W1901A",
    units = { WEST = { "A BAY", "A ETN" }, EAST = { "F ECA" } },
    centers = { WEST = { "WTN" }, EAST = { "ECA", "ETN" } },
  })
  local result = adjudicate(t, "WEST", {})
  t.eq(result.disbanded, { "A ETN" })
  t.eq(flags(t, result, "A ETN D"), {})
  t.eq(result.units.WEST, { "A BAY" })
end)

-- The error t.setup raises for `setup` on a fresh Marchland game (it must refuse it).
local function refusal(t, setup)
  t.scenario(MARCHLAND, { seed = 1 })
  local ok, err = pcall(t.setup, setup)
  t.eq(ok, false, "the setup is refused")
  return tostring(err)
end

test("DIP-setup: a setup's centre written as a coast or an alias is the region's own", function(t)
  -- (the host reads a centre through hex.map.region: BAY/SC and BAYTOWN are BAY; kept sorted)
  position(t, MARCHLAND, { phase = "S1901M", centers = { WEST = { "WCA", "bay/sc" }, EAST = { "ECA" } } })
  t.eq(t.state().vars.position.centers, { WEST = { "BAY", "WCA" }, EAST = { "ECA" } })
  position(t, MARCHLAND, { phase = "S1901M", centers = { WEST = { "WCA", "BAYTOWN" }, EAST = { "ECA" } } })
  t.eq(t.state().vars.position.centers.WEST, { "BAY", "WCA" })
  -- (no centres given: the map's start_centers; no units given: its start units)
  t.eq(t.state().vars.position.units, { WEST = { "A WTN", "F WCA" }, EAST = { "A ETN", "F ECA" } })
  position(t, MARCHLAND, { phase = "F1901M", units = { WEST = { "F WCA", "A BAYTOWN" }, EAST = { "A MID" } } })
  t.eq(t.state().vars.position, { phase = "F1901M", units = { WEST = { "A BAY", "F WCA" }, EAST = { "A MID" } },
    centers = { WEST = { "WCA", "WTN" }, EAST = { "ECA", "ETN" } } })
  -- (so one centre owned twice under two names is told as such; a region that is no centre is
  -- refused, named as written)
  t.eq(refusal(t, { phase = "S1901M", centers = { WEST = { "BAY/NC" }, EAST = { "BAYTOWN" } } }),
    "t.setup: refused: DIP-setup: [centers].WEST: 'BAY' is EAST's already (a centre has one owner)")
  t.eq(refusal(t, { phase = "S1901M", centers = { WEST = { "nse" } } }),
    "t.setup: refused: DIP-setup: [centers].WEST: 'NSE' is not a supply centre")
end)

test("DIP-setup: a retreat setup's units, attackers and retreats written by an alias are the region's own", function(t)
  -- (game.new_position reads the `dislodged` test extension through the map's aliases)
  position(t, MARCHLAND, {
    phase = "S1901R",
    units = { EAST = { "A ETN", "A MID" } },
    dislodged = {
      { power = "WEST", unit = "A BAYTOWN", by = "ECA", retreats = { "WCA" } },
      { power = "WEST", unit = "A MID", by = "ETN", retreats = { "BAYTOWN", "HIL" } },
      { power = "EAST", unit = "A WCA", by = "BAYTOWN", retreats = { "WTN" } },
    },
  })
  t.eq(t.state().vars.position.dislodged, {
    { power = "WEST", unit = "A BAY", by = "ECA", retreats = { "WCA" } },
    { power = "WEST", unit = "A MID", by = "ETN", retreats = { "BAY", "HIL" } },
    { power = "EAST", unit = "A WCA", by = "BAY", retreats = { "WTN" } },
  })
  -- (so a retreat to BAY is among A MID's)
  t.eq(t.query("check_order", { power = "WEST", order = "A MID R BAY" }).void, false)
end)

test("R-l1, DIP-4.m: game.skip_phase skips a retreat phase nobody needs, an adjustment phase with nothing to adjust", function(t)
  -- (the library's API a designer's glue asks: skip_query.lua answers game.skip_phase)
  position(t, MARCHLAND, nil, { SKIP_QUERY })
  local function skip(position_table) return t.query("skip_phase", position_table) end
  local function skip_alone(position_table) return t.query("skip_phase_alone", position_table) end
  local waiting = { phase = "S1901R", units = { EAST = { "A MID" } },
    dislodged = { { power = "WEST", unit = "A MID", by = "ETN", retreats = { "HIL" } } } }
  t.eq({ skip({ phase = "S1901R" }), skip({ phase = "S1901R", dislodged = {} }), skip(waiting) }, { true, true, false })
  t.eq({ skip_alone({ phase = "F1901R", dislodged = {} }), skip_alone(waiting) }, { true, false })
  t.eq(skip({ phase = "S1901M", units = {}, centers = {} }), false)
  -- WEST: a build due with WTN free; none due; one due with both homes (WCA, WTN) taken
  local due = { phase = "W1901A", units = { WEST = { "A MID", "F WCA" } }, centers = { WEST = { "MID", "WCA", "WTN" } } }
  t.eq(skip(due), false)
  t.eq(skip({ phase = "W1901A", units = { WEST = { "A MID", "F WCA" } }, centers = { WEST = { "MID", "WCA" } } }), true)
  t.eq(skip({ phase = "W1901A", units = { WEST = { "A WTN", "F WCA" } }, centers = { WEST = { "MID", "WCA", "WTN" } } }), true)
  -- a disband due: the phase is played
  t.eq(skip({ phase = "W1901A", units = { WEST = { "A MID", "F WCA" } }, centers = { WEST = { "WCA" } } }), false)
  -- (one argument: the standard board measures the adjustments)
  standard(t, nil, { SKIP_QUERY })
  t.eq(skip_alone({ phase = "W1901A", units = { FRANCE = { "A PAR" } }, centers = { FRANCE = { "BRE", "PAR" } } }), false)
  t.eq(skip_alone({ phase = "W1901A", units = { FRANCE = { "A PAR" } }, centers = { FRANCE = { "PAR" } } }), true)
end)

test("DIP-1 replaced: a variant's winner reads the phase the position goes on to, and its reason ends the game", function(t)
  -- (short_game.lua: from 1902 on, the power with the most centres wins; game.winner passes
  -- the phase, so the host keeps the variant's reason)
  standard(t, {
    phase = "F1901M",
    units = { FRANCE = { "A BRE", "A MAR", "A PAR" }, GERMANY = { "A MUN" } },
    centers = { FRANCE = { "BRE", "MAR", "PAR" }, GERMANY = { "MUN" } },
  }, { "tests/fixtures/diplomacy_survivors/short_game.lua" })
  t.ok("FRANCE", { command = "orders", power = "FRANCE", orders = { "A PAR H" } })
  local ended
  for _, ev in ipairs(t.ok("FRANCE", { command = "end_phase" })) do
    if ev.event == "GameEnded" then ended = ev end
  end
  t.truthy(ended, "the game ended after F1901M")
  t.eq({ ended.winner, ended.reason }, { "FRANCE", "HOUSE-2: 1901 is over and FRANCE leads with 3 centres" })
  t.eq({ t.state().over, t.state().vars.position.phase }, { true, "S1902M" })
end)

test("R-g3: of a stack of one unit string, the later entry is the unit that arrived by retreat and is disbanded", function(t)
  -- (retreats.lua's reading: A MUN retreats onto Germany's own A BER; in the fall both stay, and
  -- the second order for A BER goes to the second unit, the arrival, which is disbanded)
  t.scenario("scenarios/diplomacy-francqueville", { seed = 1 })
  t.setup({ phase = "S1901M", units = { GERMANY = { "A MUN", "A BER", "A KIE" }, FRANCE = { "A BUR", "A RUH" } } })
  local result = adjudicate(t, "FRANCE", { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
  t.eq(result.dislodged, { { power = "GERMANY", unit = "A MUN", by = "BUR", retreats = { "BER", "BOH", "KIE", "SIL", "TYR" } } })
  result = adjudicate(t, "GERMANY", { GERMANY = { "A MUN R BER" } })
  t.eq(result.units.GERMANY, { "A BER", "A BER", "A KIE" })
  result = adjudicate(t, "GERMANY", { GERMANY = { "A BER S A KIE", "A BER H", "A KIE H" } })
  t.eq(flags(t, result, "A BER S A KIE"), {})
  t.eq(flags(t, result, "A BER H"), { "disband" })
  t.eq(result.units.GERMANY, { "A BER", "A KIE" })
end)

-- ---------------------------------------------------------------------------------------------
-- check_order's reasons (rules/diplomacy/order_check.lua) no test read

test("check_order: a movement phase's moves and convoys say what is wrong", function(t)
  standard(t, { phase = "S1901M", units = {
    ENGLAND = { "F NTH", "A LON", "F LVP" }, FRANCE = { "A BRE", "A PAR", "F MAO" }, GERMANY = { "A MUN" } } })
  t.eq(why(t, "GERMANY", "A RUH - BUR"), "GERMANY has no army in RUH")
  t.eq(why(t, "GERMANY", "F MUN - BOH"), "GERMANY has no fleet in MUN")
  -- (6.B.1: a fleet that reaches both coasts names one)
  t.eq(why(t, "FRANCE", "F MAO - SPA"), "a fleet moving to SPA names the coast (SPA/NC, SPA/SC)")
  t.eq(why(t, "FRANCE", "A PAR - BUR VIA"), "no chain of fleets at sea could convoy A PAR to BUR (VIA asks for a convoy)")
  -- (a fleet on a coast, or an army, convoys nothing)
  t.eq(why(t, "ENGLAND", "F LVP C A LON - YOR"), "only a fleet at sea convoys")
  t.eq(why(t, "FRANCE", "A PAR C A BRE - LON"), "only a fleet at sea convoys")
  -- (a fleet in LVP is no army to convoy)
  t.eq(why(t, "ENGLAND", "F NTH C A LVP - EDI"), "no army in LVP to convoy")
  t.eq(why(t, "ENGLAND", "F NTH C A YOR - EDI"), "no army in YOR to convoy")
  -- (a convoy back into the army's own province: nothing more precise to say)
  t.eq(why(t, "ENGLAND", "F NTH C A LON - LON"), "the convoy cannot be made")
  -- (an army goes to land only: a convoy to a sea region was said to need no fleet)
  t.eq(why(t, "ENGLAND", "F NTH C A LON - NTH"), "an army is convoyed to land, not to a sea region (NTH)")
end)

test("check_order: a support names what it lacks", function(t)
  standard(t, { phase = "S1901M", units = { GERMANY = { "A MUN", "A BER" } } })
  t.eq(why(t, "GERMANY", "A MUN S A KIE"), "no army in KIE to support")
  -- (BER holds an army: a support to a fleet there finds none)
  t.eq(why(t, "GERMANY", "A MUN S F BER"), "no fleet in BER to support")
  t.eq(why(t, "GERMANY", "A MUN S KIE - HOL"), "no unit in KIE to support")
  t.eq(why(t, "GERMANY", "A MUN S A MUN"), "a unit cannot support itself")
  t.eq(why(t, "GERMANY", "A MUN S A MUN - BER"), "a unit cannot support itself")
  t.eq(why(t, "GERMANY", "A MUN S A BER - MUN"), "A MUN cannot support a move into its own province")
  t.eq(why(t, "GERMANY", "A MUN S A BER - PRU"), "A MUN cannot reach PRU, where the support is given")
end)

test("check_order: a winter's builds and disbands say why they cannot be made", function(t)
  standard(t, {
    phase = "W1901A",
    units = { FRANCE = { "A PAR" }, GERMANY = { "A BER", "A KIE", "A DEN" } },
    centers = { FRANCE = { "BRE", "MUN", "PAR" }, GERMANY = { "BER", "DEN", "KIE" } },
  })
  t.eq(why(t, "FRANCE", "A MUN B"), "MUN is not a home supply centre of FRANCE")
  t.eq(why(t, "FRANCE", "A MAR B"), "FRANCE does not hold MAR")
  t.eq(why(t, "GERMANY", "A BER D"), "GERMANY has no disband due")
  t.eq(why(t, "GERMANY", "F KIE B"), "GERMANY has no build due (3 centres, 3 units)")
  t.eq(why(t, "FRANCE", "A PAR D"), "FRANCE has no disband due")
  t.eq(t.query("check_order", { power = "FRANCE", order = "F BRE B" }).void, false)
end)

test("check_order: a variant's build sites are its own, and so is its silent refusal", function(t)
  -- build anywhere (an owned centre): not "not a home supply centre" for one the power lacks
  position(t, "tests/fixtures/diplomacy_build_anywhere", {
    phase = "W1901A",
    units = { FRANCE = { "A PAR", "A BUR", "A SPA" }, GERMANY = { "A MUN" } },
    centers = { FRANCE = { "BRE", "MAR", "PAR", "POR", "SPA" }, GERMANY = { "BER", "MUN" } },
  })
  t.eq(why(t, "FRANCE", "A BEL B"), "FRANCE does not hold BEL")
  t.eq(why(t, "FRANCE", "A BUR B"), "BUR is not a supply centre")
  t.eq(why(t, "FRANCE", "A SPA B"), "SPA is occupied")
  t.eq(t.query("check_order", { power = "FRANCE", order = "A POR B" }).void, false)
  -- the capital only (house_rules.lua): BRE, a home centre France holds, is none of its sites
  standard(t, {
    phase = "W1901A",
    units = { FRANCE = { "A MAR" }, ENGLAND = { "F NTH" } },
    centers = { FRANCE = { "BRE", "MAR", "PAR" } },
  }, { HOUSE_RULES })
  t.eq(why(t, "FRANCE", "A BRE B"), "BRE is not a place FRANCE may build in under these rules")
  t.eq(why(t, "FRANCE", "A MAR B"), "MAR is occupied")
  t.eq(t.query("check_order", { power = "FRANCE", order = "A PAR B" }).void, false)
  -- (order_allowed answers false with no reason: the answer says the variant forbids it)
  standard(t, { phase = "S1901M", units = { ENGLAND = { "F NTH", "A LON" } } }, { HOUSE_RULES })
  t.eq(why(t, "ENGLAND", "F NTH C A LON - NWY"), "the rules of this variant forbid it")
  -- (the variant is asked of the power's own units only: no fleet in ENG is said first)
  t.eq(why(t, "ENGLAND", "F ENG C A LON - BEL"), "ENGLAND has no fleet in ENG")
end)

test("check_order: a retreat phase's order for a unit that is not retreating names what is missing", function(t)
  standard(t, {
    phase = "S1901R",
    units = { FRANCE = { "A MUN", "A RUH" }, GERMANY = { "A BER" } },
    dislodged = { { power = "GERMANY", unit = "A MUN", by = "BUR", retreats = { "BOH", "SIL" } } },
  })
  t.eq(why(t, "GERMANY", "A BER R PRU"), "GERMANY has no dislodged army in BER")
  t.eq(why(t, "GERMANY", "F MUN R BOH"), "GERMANY has no dislodged fleet in MUN")
end)

test("check_order beside the phase's orders: supports to hold and to move, a power's own unit (6.D.10)", function(t)
  standard(t, { phase = "S1901M", units = { GERMANY = { "A MUN", "A BER", "A SIL" }, AUSTRIA = { "A BOH" } } })
  t.eq(beside(t, "GERMANY", "A MUN S A BER", { GERMANY = { "A BER - SIL", "A MUN S A BER" } }),
    "the army in BER is ordered to move (A BER - SIL): a support to hold needs it to stay")
  t.eq(beside(t, "GERMANY", "A MUN S A BER", { GERMANY = { "A BER H", "A MUN S A BER" } }), nil)
  t.eq(beside(t, "GERMANY", "A MUN S A BER - SIL", { GERMANY = { "A MUN S A BER - SIL" } }),
    "the army in BER has no order (it holds), not a move to SIL")
  -- (an order that is no order of the notation is none: the army holds)
  t.eq(beside(t, "GERMANY", "A MUN S A BER - SIL", { GERMANY = { "A BER - SIL - PRU", "A MUN S A BER - SIL" } }),
    "the army in BER has no order (it holds), not a move to SIL")
  t.eq(beside(t, "GERMANY", "A MUN S A BOH - SIL", { AUSTRIA = { "A BOH - SIL" }, GERMANY = { "A MUN S A BOH - SIL" } }),
    "the move is onto GERMANY's own A SIL, which stays: a power's support does not help to dislodge its own unit (DATC 6.D.10)")
end)

test("check_order beside the phase's orders: builds past the ones due, a second build in one centre", function(t)
  standard(t, {
    phase = "W1901A",
    units = { GERMANY = { "A HOL", "A DEN" }, FRANCE = { "A PAR", "A PIC" } },
    centers = { GERMANY = { "BER", "HOL", "KIE", "MUN" }, FRANCE = { "BRE", "MAR", "PAR" } },
  })
  t.eq(beside(t, "GERMANY", "A KIE B", { GERMANY = { "A BER B", "A KIE B" } }), nil)
  t.eq(beside(t, "GERMANY", "A MUN B", { GERMANY = { "A BER B", "A KIE B", "A MUN B" } }),
    "GERMANY has 2 builds due and orders 3: the ones past the due are void")
  t.eq(beside(t, "GERMANY", "A KIE B", { GERMANY = { "F KIE B", "A KIE B" } }), "a second build in KIE")
  t.eq(beside(t, "FRANCE", "A BRE B", { FRANCE = { "A MAR B", "A BRE B" } }),
    "FRANCE has 1 build due and orders 2: the ones past the due are void")
end)

test("R-g2: check_order beside a stack's retreat orders: one order too many for its units", function(t)
  -- (two French armies in PAR dislodged from GAS, a Francqueville stack: three orders for two)
  t.scenario("scenarios/diplomacy-francqueville", { seed = 1 })
  t.setup({ phase = "S1901M", units = { FRANCE = { "A PAR", "A PAR" }, GERMANY = { "A GAS", "A BUR" } } })
  adjudicate(t, "FRANCE", { FRANCE = { "A PAR - BUR", "A PAR H" }, GERMANY = { "A GAS - PAR", "A BUR S A GAS - PAR" } })
  local orders = { FRANCE = { "A PAR R BRE", "A PAR R PIC", "A PAR D" } }
  t.eq(beside(t, "FRANCE", "A PAR R PIC", orders), nil)
  t.eq(beside(t, "FRANCE", "A PAR D", orders),
    "one order too many for the 2 units A PAR: in a retreat phase the first 2 they can carry out count (A PAR R BRE, A PAR R PIC)")
end)
