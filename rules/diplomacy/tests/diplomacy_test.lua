-- Standard Diplomacy positions laid out inline, as a designer tests a variant's rules.
-- Run: hexwar test rules/diplomacy   (API: docs/testing.md; the DATC cases are in
-- tests/diplomacy_library.rs and rules/diplomacy/tests/run.lua)

-- The position: `units` and `centers` as a setup file's `[units]` and `[centers]`.
local function position(t, setup)
  t.scenario("scenarios/diplomacy", { seed = 1 })
  t.setup(setup)
end

-- Gives each power's orders, ends the phase (any power's end_phase adjudicates it) and returns
-- the phase's result table (the `PhaseAdjudicated` event's data).
local function give_orders(t, orders)
  for power, list in pairs(orders) do
    t.ok(power, { command = "orders", power = power, orders = list })
  end
end

local function adjudicate(t, orders)
  give_orders(t, orders)
  for _, ev in ipairs(t.ok("FRANCE", { command = "end_phase" })) do
    if ev.event == "Custom" and ev.name == "PhaseAdjudicated" then return ev.data end
  end
  t.fail("the phase was not adjudicated")
end

-- The flags of `order` in a result table.
local function flags(t, result, order)
  for _, r in ipairs(result.results) do
    if r.order == order then return r.flags end
  end
  t.fail("no result for " .. order)
end

test("a supported attack dislodges, and the retreat phase lists where the unit may go", function(t)
  position(t, { phase = "S1901M", units = { FRANCE = { "A PAR", "A BUR" }, GERMANY = { "A MUN" } } })
  local result = adjudicate(t, { FRANCE = { "A BUR - MUN", "A PAR S A BUR - MUN" } })
  -- (PAR does not border MUN: the support is void, the attack bounces)
  t.eq(flags(t, result, "A PAR S A BUR - MUN"), { "void" })
  t.eq(flags(t, result, "A BUR - MUN"), { "bounce" })
  t.eq(result.next_phase, "F1901M")

  position(t, { phase = "S1901M", units = { FRANCE = { "A RUH", "A BUR" }, GERMANY = { "A MUN" } } })
  result = adjudicate(t, { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
  t.eq(flags(t, result, "A BUR - MUN"), {})
  t.eq(result.dislodged, { { power = "GERMANY", unit = "A MUN", by = "BUR", retreats = { "BER", "BOH", "KIE", "SIL", "TYR" } } })
  t.eq(result.next_phase, "S1901R")
  -- (Germany's army waits to retreat: off the board's unit list)
  t.eq(t.state().vars.position.units, { FRANCE = { "A MUN", "A RUH" }, GERMANY = {} })
end)

test("check_order says why an order is void, and what it is beside the phase's orders", function(t)
  position(t, { phase = "S1901M", units = { GERMANY = { "A MUN", "A BER" } } })
  local answer = t.query("check_order", { power = "GERMANY", order = "A MUN - PAR" })
  t.eq(answer.reason, "A MUN cannot reach PAR (not adjacent for an army, and no convoy could carry it there)")
  answer = t.query("check_order", {
    power = "GERMANY", order = "A BER S A MUN - SIL",
    orders = { GERMANY = { "A MUN - BOH", "A BER S A MUN - SIL" } },
  })
  t.eq(answer.void, false)
  t.eq(answer.beside, "the army in MUN is ordered A MUN - BOH, not to move to SIL")
end)

test("a winter build is made in an owned, empty home centre", function(t)
  position(t, {
    phase = "W1901A",
    units = { GERMANY = { "A BER", "A HOL" } },
    centers = { GERMANY = { "BER", "HOL", "KIE", "MUN" } },
  })
  local result = adjudicate(t, { GERMANY = { "A KIE B", "A BER B" } })
  t.eq(flags(t, result, "A KIE B"), {})
  t.eq(flags(t, result, "A BER B"), { "void" })
  t.eq(result.units.GERMANY, { "A BER", "A HOL", "A KIE" })
end)

-- The units and the result entry (unit, flags) of each order, in the order given: what two
-- ways of writing the same orders must agree on.
local function outcome(t, result, orders)
  local out = { units = result.units, dislodged = result.dislodged, entries = {} }
  for _, order in ipairs(orders) do
    local entry
    for _, r in ipairs(result.results) do
      if r.order == order then entry = { unit = r.unit, flags = r.flags } end
    end
    if not entry then t.fail("no result for " .. order) end
    out.entries[#out.entries + 1] = entry
  end
  return out
end

test("orders_read_the_words_players_write", function(t)
  -- (each pair: the words a game master's players write, then the standard notation; the
  -- phase is played both ways from the same position and must come out the same)
  local setup = {
    phase = "S1901M",
    units = {
      FRANCE = { "A PAR", "A MAR", "F BRE" },
      ENGLAND = { "F NTH", "A EDI", "A LVP" },
      GERMANY = { "A MUN", "A BER" },
    },
  }
  local written = {
    FRANCE = { "A MAR supports A PAR - BUR", "A PAR – BUR.", "F BRE to MAO" },
    ENGLAND = { "F NTH convoys A EDI - HOL", "A EDI → HOL VIA", "army LVP moves to YOR;" },
    GERMANY = { "A MUN HOLD", "FLEET BER hold" },
  }
  local standard = {
    FRANCE = { "A MAR S A PAR - BUR", "A PAR - BUR", "F BRE - MAO" },
    ENGLAND = { "F NTH C A EDI - HOL", "A EDI - HOL VIA", "A LVP - YOR" },
    GERMANY = { "A MUN H", "F BER H" },
  }
  position(t, setup)
  local a = adjudicate(t, written)
  position(t, setup)
  local b = adjudicate(t, standard)
  for _, power in ipairs({ "FRANCE", "ENGLAND", "GERMANY" }) do
    t.eq(outcome(t, a, written[power]), outcome(t, b, standard[power]), power)
  end
  t.eq(a.units, { ENGLAND = { "A HOL", "A YOR", "F NTH" }, FRANCE = { "A BUR", "A MAR", "F MAO" }, GERMANY = { "A BER", "A MUN" } })
  -- (F BER: Germany has an army there, so the order is void, as "F BER H" is)
  t.eq(flags(t, a, "FLEET BER hold"), { "void" })

  -- every word and dash on its own, asked of check_order: the same verdict as the letter
  position(t, { phase = "S1901M", units = { FRANCE = { "A PAR", "A MAR", "F BRE" }, ENGLAND = { "F NTH", "A EDI" } } })
  local same = {
    { "FRANCE", "A PAR HOLDS", "A PAR H" },
    { "FRANCE", "A MAR SUPPORT A PAR", "A MAR S A PAR" },
    { "FRANCE", "A MAR S A PAR MOVE BUR", "A MAR S A PAR - BUR" },
    { "FRANCE", "A PAR -> BUR", "A PAR - BUR" },
    { "FRANCE", "A PAR => BUR", "A PAR - BUR" },
    { "FRANCE", "A PAR — BUR", "A PAR - BUR" },
    { "FRANCE", "A PAR MOVES TO BUR", "A PAR - BUR" },
    { "FRANCE", "A PAR - BUR,", "A PAR - BUR" },
    { "FRANCE", "A PAR - BUR .", "A PAR - BUR" },
    { "FRANCE", "A PAR HOLD.", "A PAR H" },
    { "FRANCE", "F BRE - MOS.", "F BRE - MOS" },
    { "ENGLAND", "F NTH CONVOY A EDI TO NWY", "F NTH C A EDI - NWY" },
  }
  for _, c in ipairs(same) do
    local got = t.query("check_order", { power = c[1], order = c[2] })
    local want = t.query("check_order", { power = c[1], order = c[3] })
    t.eq({ got.void, got.reason, got.unit }, { want.void, want.reason, want.unit }, c[2])
  end
  t.eq(t.query("check_order", { power = "FRANCE", order = "F BRE - MOS." }).reason,
    "F BRE cannot reach MOS (not adjacent for a fleet)")
end)

test("retreats, builds and disbands read the words too", function(t)
  position(t, { phase = "S1901M", units = { FRANCE = { "A RUH", "A BUR" }, GERMANY = { "A MUN" } } })
  adjudicate(t, { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
  local result = adjudicate(t, { GERMANY = { "A MUN RETREATS TO BOH" } })
  t.eq(flags(t, result, "A MUN RETREATS TO BOH"), {})
  t.eq(result.units.GERMANY, { "A BOH" })

  position(t, {
    phase = "W1901A",
    units = { GERMANY = { "A BER", "A HOL" }, FRANCE = { "A PAR", "A MAR" } },
    centers = { GERMANY = { "BER", "HOL", "KIE", "MUN" }, FRANCE = { "PAR" } },
  })
  result = adjudicate(t, { GERMANY = { "FLEET KIE BUILD", "ARMY MUN BUILDS." }, FRANCE = { "A MAR DISBAND" } })
  t.eq(flags(t, result, "FLEET KIE BUILD"), {})
  t.eq(flags(t, result, "ARMY MUN BUILDS."), {})
  t.eq(flags(t, result, "A MAR DISBAND"), {})
  t.eq(result.units, { FRANCE = { "A PAR" }, GERMANY = { "A BER", "A HOL", "A MUN", "F KIE" } })
end)

test("a void order's reason names the abbreviation of a province written in full", function(t)
  position(t, { phase = "S1901M", units = { ENGLAND = { "A LVP", "F LON", "F EDI" }, FRANCE = { "A PAR" } } })
  local function why(power, order)
    local answer = t.query("check_order", { power = power, order = order })
    t.eq(answer.void, true, order)
    return answer.reason
  end
  t.eq(why("ENGLAND", "A Liverpool -> Yorkshire"),
    "'LIVERPOOL' is no province or coast of the map (Liverpool is LVP)")
  t.eq(why("ENGLAND", "A LVP - Yorkshire."), "'YORKSHIRE' is no province or coast of the map (Yorkshire is YOR)")
  t.eq(why("ENGLAND", "F LON - North Sea"), "'NORTH' is no province or coast of the map (North Sea is NTH)")
  t.eq(why("ENGLAND", "F LON - Mid-Atlantic Ocean"),
    "'MID-ATLANTIC' is no province or coast of the map (Mid-Atlantic Ocean is MAO)")
  -- (a word that is no name: as before)
  t.eq(why("ENGLAND", "A LVP - NWX"), "'NWX' is no province or coast of the map")
  -- a dash against its neighbours is still void, and the hint spaces it whatever the dash
  t.eq(why("FRANCE", "a par-bur"), "write a move with spaces around its dash (A PAR - BUR)")
  t.eq(why("FRANCE", "A PAR->BUR"), "write a move with spaces around its dash (A PAR - BUR)")
  t.eq(why("FRANCE", "A PAR–BUR"), "write a move with spaces around its dash (A PAR - BUR)")
  t.eq(why("FRANCE", "A PAR -- BUR"), "write a move's dash as - (A PAR - BUR)")
end)

test("a second order for a unit in a retreat phase says that the first one counts", function(t)
  position(t, { phase = "S1901M", units = { FRANCE = { "A RUH", "A BUR" }, GERMANY = { "A MUN" } } })
  adjudicate(t, { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
  local orders = { GERMANY = { "A MUN R BOH", "A MUN R TYR", "A MUN - SIL" } }
  local function answer(order)
    return t.query("check_order", { power = "GERMANY", order = order, orders = orders })
  end
  t.eq(answer("A MUN R BOH").beside, nil)
  t.eq(answer("A MUN R TYR").beside, "a second order for A MUN: in a retreat phase the first one counts (A MUN R BOH)")
  t.eq(answer("A MUN - SIL").beside, "a further order for A MUN: in a retreat phase the first one counts (A MUN R BOH)")
  -- (which order counts is unchanged: the first)
  local result = adjudicate(t, orders)
  t.eq(flags(t, result, "A MUN R BOH"), {})
  t.eq(flags(t, result, "A MUN R TYR"), { "void" })
  t.eq(result.units.GERMANY, { "A BOH" })
end)

-- A variant's hooks and their answers (docs/diplomacy.md, "Writing a variant"). The variants are
-- the mods in tests/mods/, each loaded over the standard scenario as `--mod` loads it.
local function variant_position(t, mod, setup)
  t.scenario("scenarios/diplomacy", { seed = 1, mods = { "mods/" .. mod .. ".lua" } })
  t.setup(setup)
end

-- The message of the error `f(...)` raises: its first line, from "diplomacy variant:" on (before
-- it, the host names the command and the library's line).
local function variant_error(t, f, ...)
  local ok, err = pcall(f, ...)
  if ok then t.fail("no error") end
  return tostring(err):match("diplomacy variant:[^\n]*")
end

-- Russia's army in Galicia dislodged by Austria's supported attack from Vienna.
local GALICIA = { phase = "S1901M", units = { AUSTRIA = { "A VIE", "A BUD" }, RUSSIA = { "A GAL" } } }
local TAKE_GALICIA = { "A VIE - GAL", "A BUD S A VIE - GAL" }

local function end_phase_with(t, orders)
  give_orders(t, orders)
  return t.submit("FRANCE", { command = "end_phase" })
end

test("a variant's retreat_options must answer a list of the map's locations", function(t)
  -- (a set read as a list was no option at all: the unit was disbanded without a word)
  variant_position(t, "options_set", GALICIA)
  t.eq(variant_error(t, end_phase_with, t, { AUSTRIA = TAKE_GALICIA }),
    "diplomacy variant: retreat_options(RUSSIA A GAL) returned a table that is no list ({BOH = true, " ..
    "RUM = true, SIL = true, UKR = true, WAR = true}); it must return a list of locations of the map, " ..
    "as {\"BOH\", \"STP/NC\"}")
  variant_position(t, "options_bogus", GALICIA)
  t.eq(variant_error(t, end_phase_with, t, { AUSTRIA = TAKE_GALICIA }),
    "diplomacy variant: retreat_options(RUSSIA A GAL) returned {XYZ, MOS}, where XYZ is no location " ..
    "of the map; it must return a list of locations of the map, as {\"BOH\", \"STP/NC\"}")
end)

test("a variant's retreat options in any order are sorted, as the rules' own lists are", function(t)
  variant_position(t, "options_reversed", GALICIA)
  local result = adjudicate(t, { AUSTRIA = TAKE_GALICIA })
  t.eq(result.dislodged, { { power = "RUSSIA", unit = "A GAL", by = "VIE", retreats = { "BOH", "RUM", "SIL", "UKR", "WAR" } } })
  result = adjudicate(t, { RUSSIA = { "A GAL R UKR" } })
  t.eq(result.units.RUSSIA, { "A UKR" })
end)

test("a variant's retreating_units must answer records {i =, by =}, not unit names", function(t)
  variant_position(t, "retreating_unit_strings", GALICIA)
  t.eq(variant_error(t, end_phase_with, t, { AUSTRIA = TAKE_GALICIA }),
    "diplomacy variant: retreating_units returned string A GAL as record 1; it must return a list of " ..
    "retreat records {i = the unit's index in ctx.U, by = the province it was dislodged from}, as " ..
    "{i = 3, by = \"VIE\"} (i from 1 to 3)")
end)

test("a misspelt rule name is refused with the nearest name", function(t)
  local ok, err = pcall(t.scenario, "scenarios/diplomacy", { mods = { "mods/misspelt.lua" } })
  t.eq(ok, false)
  local wanted = "diplomacy variant: the rules have no 'build_site' (did you mean 'build_sites'?); a " ..
    "variant replaces one of: adjustments, after_movement, build_sites, cuts_support, has_retreats, " ..
    "movement, order_allowed, resolve_retreats, retreat_options, retreating_units, retreats, " ..
    "settle_retreats, stacks, unit_strength, winner"
  t.eq(tostring(err):find(wanted, 1, true) ~= nil, true)
end)

test("a unit a variant disbands at once is listed dislodged with no retreats", function(t)
  variant_position(t, "no_retreats", GALICIA)
  local result = adjudicate(t, { AUSTRIA = TAKE_GALICIA })
  t.eq(result.dislodged, { { power = "RUSSIA", unit = "A GAL", by = "VIE", retreats = {} } })
  t.eq(result.disbanded, { "A GAL" })
  t.eq(result.next_phase, "F1901M")
end)

test("check_order: a fleet on one coast names the other coast it would need", function(t)
  position(t, { phase = "S1901M", units = { RUSSIA = { "F STP/SC" } } })
  local function answer(order) return t.query("check_order", { power = "RUSSIA", order = order }) end
  -- (the province alone names the fleet, as the adjudicator reads it)
  t.eq(answer("F STP - BOT").void, false)
  t.eq(answer("F STP - BAR").reason, "F STP/SC cannot reach BAR (it stands on the south coast; a fleet reaches BAR from STP/NC)")
  t.eq(answer("F STP/SC - BAR").reason, "F STP/SC cannot reach BAR (it stands on the south coast; a fleet reaches BAR from STP/NC)")
  t.eq(answer("F STP/NC - BAR").reason, "the unit stands on STP/SC, not STP/NC")
end)

test("check_order: a convoy no chain needs names the fleets that carry the army", function(t)
  position(t, { phase = "F1901M", units = { ITALY = { "F TYS", "F ION", "A APU" }, ENGLAND = { "F IRI", "A LON" } } })
  local function answer(power, order) return t.query("check_order", { power = power, order = order }) end
  t.eq(answer("ITALY", "F ION C A APU - TUN").void, false)
  t.eq(answer("ITALY", "F TYS C A APU - TUN").reason,
    "F TYS is needed on no chain of fleets from APU to TUN (F ION can carry it without F TYS)")
  t.eq(answer("ENGLAND", "F IRI C A LON - NAF").reason, "no chain of fleets at sea joins LON to NAF")
end)
