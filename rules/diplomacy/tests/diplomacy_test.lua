-- Standard Diplomacy positions laid out inline, as a designer tests a variant's rules.
-- Run: hexwar test rules/diplomacy   (API: docs/testing.md; the DATC cases are in
-- tests/diplomacy_library.rs and rules/diplomacy/tests/run.lua)

-- The position: `units` and `centers` as a setup file's `[units]` and `[centers]`.
local function position(t, setup)
  t.scenario("scenarios/diplomacy", { seed = 1 })
  t.setup(setup)
end

local h = require("helpers")
local give_orders, flags = h.give_orders, h.flags

-- Adjudicates the phase with `orders` (France ends it: any power's end_phase does).
local function adjudicate(t, orders) return h.adjudicate(t, "FRANCE", orders) end

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
  -- (a word that is no name, near an abbreviation: the nearest, lib.spelling's, within two edits)
  t.eq(why("ENGLAND", "A LVP - NWX"), "'NWX' is no province or coast of the map (did you mean NWG?)")
  -- a dash against its neighbours is still void, and the hint spaces it whatever the dash
  t.eq(why("FRANCE", "a par-bur"), "write a move with spaces around its dash (A PAR - BUR)")
  t.eq(why("FRANCE", "A PAR->BUR"), "write a move with spaces around its dash (A PAR - BUR)")
  t.eq(why("FRANCE", "A PAR–BUR"), "write a move with spaces around its dash (A PAR - BUR)")
  t.eq(why("FRANCE", "A PAR -- BUR"), "write a move's dash as - (A PAR - BUR)")
end)

test("a second order for a unit in a retreat phase says that the first one it can carry out counts", function(t)
  position(t, { phase = "S1901M", units = { FRANCE = { "A RUH", "A BUR" }, GERMANY = { "A MUN" } } })
  adjudicate(t, { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
  local orders = { GERMANY = { "A MUN R BOH", "A MUN R TYR", "A MUN - SIL" } }
  local function answer(order, list)
    return t.query("check_order", { power = "GERMANY", order = order, orders = list or orders })
  end
  t.eq(answer("A MUN R BOH").beside, nil)
  t.eq(answer("A MUN R TYR").beside, "a second order for A MUN: in a retreat phase the first one it can carry out counts (A MUN R BOH)")
  t.eq(answer("A MUN - SIL").beside, "a further order for A MUN: in a retreat phase the first one it can carry out counts (A MUN R BOH)")
  local result = adjudicate(t, orders)
  t.eq(flags(t, result, "A MUN R BOH"), {})
  t.eq(flags(t, result, "A MUN R TYR"), { "void" })
  t.eq(result.units.GERMANY, { "A BOH" })
end)

test("of a unit's retreat orders the first it can carry out counts, as the reference engine plays it", function(t)
  position(t, { phase = "S1901M", units = { FRANCE = { "A RUH", "A BUR" }, GERMANY = { "A MUN" } } })
  adjudicate(t, { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
  -- BUR is the attacker's province and RUH is held: neither is a retreat; BOH is.
  local orders = { GERMANY = { "A MUN R BUR", "A MUN R RUH", "A MUN R BOH", "A MUN R TYR" } }
  local function answer(order)
    return t.query("check_order", { power = "GERMANY", order = order, orders = orders })
  end
  t.eq(answer("A MUN R BUR").beside, nil)
  t.eq(answer("A MUN R BOH").beside, nil)
  t.eq(answer("A MUN R TYR").beside, "a further order for A MUN: in a retreat phase the first one it can carry out counts (A MUN R BOH)")
  local result = adjudicate(t, orders)
  t.eq(flags(t, result, "A MUN R BUR"), { "void" })
  t.eq(flags(t, result, "A MUN R RUH"), { "void" })
  t.eq(flags(t, result, "A MUN R BOH"), {})
  t.eq(flags(t, result, "A MUN R TYR"), { "void" })
  t.eq(result.units.GERMANY, { "A BOH" })
  -- (none it can carry out: the first is its order, void, and the unit is disbanded)
  position(t, { phase = "S1901M", units = { FRANCE = { "A RUH", "A BUR" }, GERMANY = { "A MUN" } } })
  adjudicate(t, { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
  result = adjudicate(t, { GERMANY = { "A MUN R BUR", "A MUN R RUH" } })
  t.eq(flags(t, result, "A MUN R BUR"), { "void", "disband" })
  t.eq(flags(t, result, "A MUN R RUH"), { "void" })
  t.eq(result.units.GERMANY, {})
end)

test("a stack's retreat order goes to a unit of the stack that can carry it out (R-g2)", function(t)
  -- Two French armies in PAR (a Francqueville stack), dislodged from GAS: the one that tried BUR
  -- may go to PIC only, the other to BRE or PIC.
  t.scenario("scenarios/diplomacy-francqueville", { seed = 1 })
  t.setup({ phase = "S1901M", units = { FRANCE = { "A PAR", "A PAR" }, GERMANY = { "A GAS", "A BUR" } } })
  adjudicate(t, { FRANCE = { "A PAR - BUR", "A PAR H" }, GERMANY = { "A GAS - PAR", "A BUR S A GAS - PAR" } })
  local result = adjudicate(t, { FRANCE = { "A PAR R GAS", "A PAR R GAS", "A PAR R BRE", "A PAR R PIC" } })
  local texts = {}
  for _, r in ipairs(result.results) do texts[#texts + 1] = r.order .. ": " .. table.concat(r.flags, " ") end
  t.eq(texts, { "A PAR R GAS: void", "A PAR R GAS: void", "A PAR R BRE: ", "A PAR R PIC: " })
  t.eq(result.units.FRANCE, { "A BRE", "A PIC" })
end)

test("a stack's retreat orders go to the units that can carry them out, whatever their order (R-g2)", function(t)
  -- The first A PAR (it tried BUR) may go to PIC only, the second to BRE or PIC: BRE, given
  -- first, goes to the second, and PIC to the first (both went to the first unit free).
  t.scenario("scenarios/diplomacy-francqueville", { seed = 1 })
  t.setup({ phase = "S1901M", units = { FRANCE = { "A PAR", "A PAR" }, GERMANY = { "A GAS", "A BUR" } } })
  adjudicate(t, { FRANCE = { "A PAR - BUR", "A PAR H" }, GERMANY = { "A GAS - PAR", "A BUR S A GAS - PAR" } })
  local result = adjudicate(t, { FRANCE = { "A PAR R BRE", "A PAR R PIC" } })
  t.eq(flags(t, result, "A PAR R BRE"), {})
  t.eq(flags(t, result, "A PAR R PIC"), {})
  t.eq(result.units.FRANCE, { "A BRE", "A PIC" })
end)

test("a retreat order naming a coast goes to the fleet on that coast only", function(t)
  t.scenario("scenarios/diplomacy-francqueville", { seed = 1 })
  t.setup({ phase = "S1901M", units = { ITALY = { "F SPA/NC", "F SPA/SC" }, FRANCE = { "A GAS", "A MAR" } } })
  adjudicate(t, { FRANCE = { "A GAS - SPA", "A MAR S A GAS - SPA" } })
  -- (F SPA/NC may go to MAO only: its WES is void, and the SC fleet's second order does not
  -- move it)
  local result = adjudicate(t, { ITALY = { "F SPA/NC R WES", "F SPA/SC R LYO", "F SPA/SC R MAO" } })
  t.eq(flags(t, result, "F SPA/NC R WES"), { "void", "disband" })
  t.eq(flags(t, result, "F SPA/SC R LYO"), {})
  t.eq(flags(t, result, "F SPA/SC R MAO"), { "void" })
  t.eq(result.units.ITALY, { "F LYO" })
end)

test("the reason a stack's fleet's later retreat order is void counts the orders for that fleet only", function(t)
  t.scenario("scenarios/diplomacy-francqueville", { seed = 1 })
  t.setup({ phase = "S1901M", units = { ITALY = { "F SPA/NC", "F SPA/SC" }, FRANCE = { "A GAS", "A MAR" } } })
  adjudicate(t, { FRANCE = { "A GAS - SPA", "A MAR S A GAS - SPA" } })
  local orders = { ITALY = { "F SPA/NC R WES", "F SPA/SC R LYO", "F SPA/SC R MAO" } }
  -- (the NC fleet's order is no order for the SC fleet: this is its second, not "a further")
  t.eq(t.query("check_order", { power = "ITALY", order = "F SPA/SC R MAO", orders = orders }).beside,
    "a second order for F SPA/SC: in a retreat phase the first one it can carry out counts (F SPA/SC R LYO)")
end)

test("a retreat order naming a coast goes to the fleet on it, even once it has an impossible one", function(t)
  t.scenario("scenarios/diplomacy-francqueville", { seed = 1 })
  t.setup({ phase = "S1901M", units = { ITALY = { "F SPA/NC", "F SPA/SC" }, FRANCE = { "A GAS", "A MAR" } } })
  adjudicate(t, { FRANCE = { "A GAS - SPA", "A MAR S A GAS - SPA" } })
  local result = adjudicate(t, { ITALY = { "F SPA/SC R NAF", "F SPA/SC R WES" } })
  t.eq(flags(t, result, "F SPA/SC R NAF"), { "void" })
  t.eq(flags(t, result, "F SPA/SC R WES"), {})
  t.eq(result.units.ITALY, { "F WES" })
end)

-- A variant's hooks and their answers (docs/diplomacy.md, "Writing a variant"). The variants are
-- the mods in tests/mods/, each loaded over the standard scenario as `--mod` loads it.
local function variant_position(t, mod, setup)
  t.scenario("scenarios/diplomacy", { seed = 1, mods = { "mods/" .. mod .. ".lua" } })
  t.setup(setup)
end

test("the reason a later retreat order is void names the order that counted, a variant's order_allowed heeded", function(t)
  variant_position(t, "no_retreat_to_mun", { phase = "S1901M", units = { FRANCE = { "A PAR", "A MAR", "A PIC" }, GERMANY = { "A BUR" } } })
  adjudicate(t, { FRANCE = { "A PAR - BUR", "A MAR S A PAR - BUR", "A PIC S A PAR - BUR" } })
  local orders = { GERMANY = { "A BUR R PAR", "A BUR R MUN", "A BUR R RUH", "A BUR R BEL" } }
  local function answer(order)
    return t.query("check_order", { power = "GERMANY", order = order, orders = orders })
  end
  t.eq(answer("A BUR R MUN").reason, "no retreat to MUN")
  t.eq(answer("A BUR R BEL").beside, "a further order for A BUR: in a retreat phase the first one it can carry out counts (A BUR R RUH)")
  local result = adjudicate(t, orders)
  t.eq(flags(t, result, "A BUR R RUH"), {})
  t.eq(result.units.GERMANY, { "A RUH" })
end)

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

test("VIA CONVOY, a coast in parentheses and the verb first read as the notation", function(t)
  -- DATC 6.G.8 as its text words it: the army moves over land (no fleet convoys it)
  position(t, { phase = "S1901M", units = { FRANCE = { "A BEL" }, ENGLAND = { "F NTH", "A HOL" } } })
  local result = adjudicate(t, { FRANCE = { "A BEL - HOL via Convoy" }, ENGLAND = { "F NTH - HEL", "A HOL - KIE" } })
  t.eq(flags(t, result, "A BEL - HOL via Convoy"), {})
  t.eq(result.units.FRANCE, { "A HOL" })
  -- a convoy the army asks for with VIA CONVOY: the fleets' orders match it
  position(t, { phase = "S1901M", units = { ENGLAND = { "F NAO", "F NWG", "A LVP" } } })
  result = adjudicate(t, { ENGLAND = { "F NAO C A LVP - EDI", "F NWG C A LVP - EDI", "A LVP - EDI VIA CONVOY" } })
  t.eq(flags(t, result, "A LVP - EDI VIA CONVOY"), {})
  t.eq(flags(t, result, "F NAO C A LVP - EDI"), {})
  t.eq(flags(t, result, "F NWG C A LVP - EDI"), {})
  t.eq(result.units.ENGLAND, { "A EDI", "F NAO", "F NWG" })

  -- each form asked of check_order: the same verdict as the notation
  position(t, {
    phase = "S1901M",
    units = { ENGLAND = { "F NAO", "F NWG", "A LVP", "A BEL", "F NTH" }, RUSSIA = { "F STP/NC", "F SEV" }, FRANCE = { "A PIC" } },
  })
  local same = {
    { "ENGLAND", "A BEL - HOL via Convoy", "A BEL - HOL VIA" },
    { "ENGLAND", "A LVP - EDI VIA CONVOY", "A LVP - EDI VIA" },
    { "ENGLAND", "a lvp - edi via convoy.", "A LVP - EDI VIA" },
    { "ENGLAND", "A LVP - EDI BY CONVOY", "A LVP - EDI VIA" },
    { "ENGLAND", "A LVP MOVES TO EDI VIA CONVOY", "A LVP - EDI VIA" },
    { "RUSSIA", "F STP(NC) - BAR", "F STP/NC - BAR" },
    { "RUSSIA", "F STP (NC) - BAR", "F STP/NC - BAR" },
    { "RUSSIA", "f stp (nc) - bar.", "F STP/NC - BAR" },
    { "RUSSIA", "F SEV - BUL(EC)", "F SEV - BUL/EC" },
    { "RUSSIA", "F SEV - BUL (EC)", "F SEV - BUL/EC" },
    { "RUSSIA", "F SEV S F STP(NC) - BAR", "F SEV S F STP/NC - BAR" },
    { "FRANCE", "A PIC REMOVE", "A PIC D" },
  }
  for _, c in ipairs(same) do
    local got = t.query("check_order", { power = c[1], order = c[2] })
    local want = t.query("check_order", { power = c[1], order = c[3] })
    t.eq({ got.void, got.reason, got.unit }, { want.void, want.reason, want.unit }, c[2])
  end
  t.eq(t.query("check_order", { power = "FRANCE", order = "A PIC REMOVE" }).reason,
    "this is a movement phase (S1901M), and the order is one of a retreat or an adjustment phase")
  t.eq(t.query("check_order", { power = "RUSSIA", order = "F STP (NC) - BAR" }).void, false)

  -- builds and disbands written verb first
  local winter = {
    phase = "W1901A",
    units = { RUSSIA = { "A MOS" }, FRANCE = { "A PAR", "A BUR", "A PIC", "A GAS" } },
    centers = { RUSSIA = { "MOS", "STP", "SEV", "WAR" }, FRANCE = { "PAR" } },
  }
  position(t, winter)
  local written = { RUSSIA = { "BUILD A SEV", "build f stp(nc).", "B A WAR" }, FRANCE = { "DISBAND A BUR", "REMOVE A PIC", "A GAS REMOVE" } }
  local a = adjudicate(t, written)
  position(t, winter)
  local standard = { RUSSIA = { "A SEV B", "F STP/NC B", "A WAR B" }, FRANCE = { "A BUR D", "A PIC D", "A GAS D" } }
  local b = adjudicate(t, standard)
  for _, power in ipairs({ "RUSSIA", "FRANCE" }) do
    t.eq(outcome(t, a, written[power]), outcome(t, b, standard[power]), power)
  end
  t.eq(a.units, { FRANCE = { "A PAR" }, RUSSIA = { "A MOS", "A SEV", "A WAR", "F STP/NC" } })
end)

test("check_order: the forms the notation does not read name what to write", function(t)
  position(t, { phase = "S1901M", units = { ENGLAND = { "A LVP", "F NTH" }, FRANCE = { "F MAO" }, RUSSIA = { "F STP/NC" } } })
  local function why(power, order)
    local answer = t.query("check_order", { power = power, order = order })
    t.eq(answer.void, true, order)
    return answer.reason
  end
  t.eq(why("ENGLAND", "LVP - EDI"), "an order names its unit type first: A LVP - EDI or F LVP - EDI")
  t.eq(why("ENGLAND", "lvp moves to edi."), "an order names its unit type first: A LVP - EDI or F LVP - EDI")
  t.eq(why("ENGLAND", "LVP H"), "an order names its unit type first: A LVP H or F LVP H")
  -- (a word that is no location is told first)
  t.eq(why("ENGLAND", "LVP - Yorkshire"), "'YORKSHIRE' is no province or coast of the map (Yorkshire is YOR)")
  t.eq(why("FRANCE", "F MAO S A LON - BEL VIA"), "a support names the move it supports without VIA (F MAO S A LON - BEL)")
  t.eq(why("ENGLAND", "F NTH C A LON - BEL VIA CONVOY"), "a convoy names the move it carries without VIA (F NTH C A LON - BEL)")
  t.eq(why("RUSSIA", "F STP(EC) - BAR"), "'STP/EC': STP's coasts are NC, SC")
  t.eq(why("RUSSIA", "F STP/NC - BUL (NC)"), "'BUL/NC': BUL's coasts are EC, SC")
  -- (still the notation: no unit, no location to start with)
  t.eq(why("ENGLAND", "hello world"),
    "not an order in the standard notation (unit, location, order: A XXX - YYY, F XXX S A YYY H, A XXX B, ...)")

  position(t, {
    phase = "W1901A",
    units = { RUSSIA = { "A MOS", "A SEV" } },
    centers = { RUSSIA = { "MOS", "STP", "SEV", "WAR" } },
  })
  t.eq(why("RUSSIA", "WAIVE"), "WAIVE is no order of the notation: a build is waived by giving no order for it")
  t.eq(why("RUSSIA", "BUILD WAR"), "a build names its unit type: A WAR B or F WAR B")
  t.eq(why("RUSSIA", "DISBAND MOS"), "a disband names its unit type: A MOS D or F MOS D")
  -- a fleet is never built inland, occupied or not; in an occupied coastal centre the occupant is told
  t.eq(why("RUSSIA", "F MOS B"), "a fleet cannot be built inland, in MOS")
  t.eq(why("RUSSIA", "F WAR B"), "a fleet cannot be built inland, in WAR")
  t.eq(why("RUSSIA", "F SEV B"), "SEV is occupied")
end)

test("check_order: VIA on a fleet, a fleet built or retreating without its coast, BY CONVOY in a support", function(t)
  position(t, { phase = "S1901M", units = { FRANCE = { "F BRE", "A PAR" }, ENGLAND = { "A YOR", "F ENG", "A LON" } } })
  local function why(power, order, label)
    local answer = t.query("check_order", { power = power, order = order })
    t.eq(answer.void, true, order .. (label and (" (" .. label .. ")") or ""))
    return answer.reason
  end
  -- a fleet is never convoyed: VIA on its move is no order of the notation (void), whatever it reaches
  t.eq(why("FRANCE", "F BRE - MAO VIA"), "a fleet is not convoyed: write F BRE - MAO without VIA")
  t.eq(why("FRANCE", "F BRE - MAO BY CONVOY"), "a fleet is not convoyed: write F BRE - MAO without VIA")
  t.eq(why("FRANCE", "F BRE - MAO via convoy."), "a fleet is not convoyed: write F BRE - MAO without VIA")
  t.eq(t.query("check_order", { power = "FRANCE", order = "F BRE - MAO" }).void, false)
  -- BY CONVOY in a support or a convoy: the hint VIA CONVOY gets
  t.eq(why("ENGLAND", "A YOR S A LON - BEL BY CONVOY"),
    "a support names the move it supports without VIA (A YOR S A LON - BEL)")
  t.eq(why("ENGLAND", "F ENG C A LON - BEL BY CONVOY"),
    "a convoy names the move it carries without VIA (F ENG C A LON - BEL)")
  t.eq(why("ENGLAND", "F ENG C A LON - BEL VIA CONVOY"),
    "a convoy names the move it carries without VIA (F ENG C A LON - BEL)")
  -- a misspelt abbreviation: the nearest one
  t.eq(why("FRANCE", "A PAR - BLE"), "'BLE' is no province or coast of the map (did you mean BEL?)")
  t.eq(why("FRANCE", "A PAR - BUR/NX"), "'BUR/NX': BUR has no split coasts")

  -- a fleet built in a split-coast province without its coast: the province's coasts
  position(t, {
    phase = "W1901A",
    units = { RUSSIA = { "A MOS" } },
    centers = { RUSSIA = { "MOS", "STP", "SEV", "WAR" } },
  })
  t.eq(why("RUSSIA", "F STP B"), "a fleet built in STP needs its coast (STP/NC, STP/SC)")
  t.eq(t.query("check_order", { power = "RUSSIA", order = "F STP/NC B" }).void, false)

  -- a fleet retreating to a split-coast province without its coast, in both rule sets
  local retreat = {
    phase = "S1901R",
    units = { ENGLAND = { "F NAO" } },
    dislodged = { { power = "FRANCE", unit = "F MAO", by = "NAO",
      retreats = { "ENG", "IRI", "NAF", "POR", "SPA/NC", "SPA/SC", "WES" } } },
  }
  for _, scenario in ipairs({ "scenarios/diplomacy", "scenarios/diplomacy-francqueville" }) do
    t.scenario(scenario, { seed = 1 })
    t.setup(retreat)
    t.eq(why("FRANCE", "F MAO R SPA", scenario), "a fleet retreating to SPA names the coast (SPA/NC, SPA/SC)", scenario)
    t.eq(why("FRANCE", "F MAO - SPA", scenario), "a fleet retreating to SPA names the coast (SPA/NC, SPA/SC)", scenario)
    t.eq(t.query("check_order", { power = "FRANCE", order = "F MAO R SPA/SC" }).void, false, scenario)
    -- (a province that is not among the retreats at all: as before)
    t.eq(why("FRANCE", "F MAO R GAS"), "GAS is not among F MAO's retreats (ENG, IRI, NAF, POR, SPA/NC, SPA/SC, WES)",
      scenario)
  end
  -- only one coast among the retreats: the province alone is read as that coast (not void)
  position(t, {
    phase = "S1901R",
    units = { ENGLAND = { "F NAO" } },
    dislodged = { { power = "FRANCE", unit = "F MAO", by = "NAO", retreats = { "ENG", "SPA/NC" } } },
  })
  t.eq(t.query("check_order", { power = "FRANCE", order = "F MAO R SPA" }).void, false)
end)

-- The standard rules the DATC sections given in ../shared do not cover: no own unit
-- dislodged, whatever the support; builds only in home centres still owned; centres change
-- hands after the Fall moves; 18 centres win.
test("a power cannot dislodge its own unit, even with foreign supports (6.D.10-6.D.14's rule)", function(t)
  position(t, { phase = "S1901M", units = { GERMANY = { "A BER", "F KIE" }, RUSSIA = { "A PRU", "A SIL" } } })
  local result = adjudicate(t, { GERMANY = { "A BER H", "F KIE - BER" }, RUSSIA = { "A PRU S F KIE - BER", "A SIL S F KIE - BER" } })
  t.eq(flags(t, result, "F KIE - BER"), { "bounce" })
  t.eq(result.dislodged, {})
  t.eq(result.units.GERMANY, { "A BER", "F KIE" })
end)

test("a build is void in a home centre another power owns", function(t)
  position(t, { phase = "W1901A", units = { GERMANY = { "A HOL", "A DEN" }, RUSSIA = { "A WAR" } },
    centers = { GERMANY = { "DEN", "HOL", "KIE", "MUN" }, RUSSIA = { "BER", "WAR" } } })
  local result = adjudicate(t, { GERMANY = { "A BER B", "A KIE B" } })
  t.eq(flags(t, result, "A BER B"), { "void" })
  t.eq(flags(t, result, "A KIE B"), {})
  t.eq(result.units.GERMANY, { "A DEN", "A HOL", "A KIE" })
end)

test("a centre changes hands when a unit holds it after the Fall moves, not the Spring's", function(t)
  position(t, { phase = "S1901M", units = { ITALY = { "A PIE" }, FRANCE = { "A PAR" } },
    centers = { FRANCE = { "BRE", "MAR", "PAR" }, ITALY = { "NAP", "ROM", "VEN" } } })
  local result = adjudicate(t, { ITALY = { "A PIE - MAR" } })
  t.eq({ result.centers.FRANCE, result.centers.ITALY }, { { "BRE", "MAR", "PAR" }, { "NAP", "ROM", "VEN" } })
  position(t, { phase = "F1901M", units = { ITALY = { "A PIE" }, FRANCE = { "A PAR" } },
    centers = { FRANCE = { "BRE", "MAR", "PAR" }, ITALY = { "NAP", "ROM", "VEN" } } })
  result = adjudicate(t, { ITALY = { "A PIE - MAR" } })
  t.eq({ result.centers.FRANCE, result.centers.ITALY }, { { "BRE", "PAR" }, { "MAR", "NAP", "ROM", "VEN" } })
end)

test("a power holding 18 centres after the Fall moves wins; 17 do not", function(t)
  local seventeen = { "ANK", "BER", "BUL", "CON", "DEN", "KIE", "MOS", "MUN", "RUM", "SER", "SEV", "SMY", "STP", "SWE", "TRI", "VIE", "WAR" }
  position(t, { phase = "F1901M", units = { RUSSIA = { "A GAL" } }, centers = { RUSSIA = seventeen } })
  adjudicate(t, { RUSSIA = { "A GAL H" } })
  t.eq(t.state().vars.position.winner, nil)
  position(t, { phase = "F1901M", units = { RUSSIA = { "A GAL" } }, centers = { RUSSIA = seventeen } })
  adjudicate(t, { RUSSIA = { "A GAL - BUD" } })
  t.eq(t.state().vars.position.winner, "RUSSIA")
  t.eq(t.state().over, true)
  t.eq(t.state().outcome.winner, "RUSSIA")
end)

test("a convoy order is void unless it carries an army by a fleet at sea; a unit supports no order of its own", function(t)
  position(t, { phase = "S1901M", units = { ENGLAND = { "F LON", "F NTH", "A WAL", "F ENG" }, FRANCE = { "F BRE", "A PAR", "A PIC" } } })
  local result = adjudicate(t, {
    ENGLAND = { "F LON - YOR", "F NTH C LON - YOR", "F ENG C A WAL - PIC" },
    FRANCE = { "F BRE C A PAR - PIC", "A PAR S A PAR - BUR", "A PIC S A PIC" },
  })
  -- (the unit in LON is a fleet: no convoy carries it, though the order names no type)
  t.eq(flags(t, result, "F NTH C LON - YOR"), { "void" })
  t.eq(flags(t, result, "F LON - YOR"), {})
  -- (WAL's army was ordered to hold: the convoy matches no move)
  t.eq(flags(t, result, "F ENG C A WAL - PIC"), { "void" })
  -- (a fleet in a coastal province convoys nothing)
  t.eq(flags(t, result, "F BRE C A PAR - PIC"), { "void" })
  t.eq(flags(t, result, "A PAR S A PAR - BUR"), { "void" })
  t.eq(flags(t, result, "A PIC S A PIC"), { "void" })
end)

-- Order matching and notation the DATC sections given in ../shared leave unguarded (found by
-- mutation testing: each test fails when its rule is broken).
local function francqueville(t, setup)
  t.scenario("scenarios/diplomacy-francqueville", { seed = 1 })
  t.setup(setup)
end

local function entry(t, result, order)
  for _, r in ipairs(result.results) do
    if r.order == order then return r end
  end
  t.fail("no result for " .. order)
end

test("a support names the unit that is there: an army supported as a fleet is not supported", function(t)
  position(t, { phase = "S1901M", units = { GERMANY = { "A BER", "A MUN" }, RUSSIA = { "A SIL", "A PRU" } } })
  local result = adjudicate(t, { GERMANY = { "A BER H", "A MUN S F BER" }, RUSSIA = { "A SIL - BER", "A PRU S A SIL - BER" } })
  t.eq(flags(t, result, "A MUN S F BER"), { "void" })
  t.eq(flags(t, result, "A SIL - BER"), {})
  t.eq(result.dislodged[1].unit, "A BER")
end)

test("a convoy takes no detour: a second fleet that is no link of the chain is void (6.G.6/6.G.7 reading)", function(t)
  position(t, { phase = "S1901M", units = { ENGLAND = { "A LON", "F ENG", "F NTH" } } })
  local result = adjudicate(t, { ENGLAND = { "A LON - NWY", "F NTH C A LON - NWY", "F ENG C A LON - NWY" } })
  t.eq(flags(t, result, "A LON - NWY"), {})
  t.eq(flags(t, result, "F NTH C A LON - NWY"), {})
  t.eq(flags(t, result, "F ENG C A LON - NWY"), { "void" })
end)

test("6.B.11: an order for the fleet on the other coast is void, listed under the unit it names; the fleet holds", function(t)
  position(t, { phase = "S1901M", units = { FRANCE = { "F SPA/SC" } } })
  local result = adjudicate(t, { FRANCE = { "F SPA/NC D" } })
  t.eq(entry(t, result, "F SPA/NC D"), { power = "FRANCE", order = "F SPA/NC D", unit = "F SPA/NC", flags = { "void" } })
  t.eq(entry(t, result, "F SPA/SC H").flags, {})
end)

test("6.G.8 reading: an army beside its destination moves by land when its fleets make no whole chain", function(t)
  position(t, { phase = "S1901M", units = { ENGLAND = { "A LVP", "F NAO" }, FRANCE = { "F NWG" } } })
  local result = adjudicate(t, { ENGLAND = { "A LVP - EDI", "F NAO C A LVP - EDI" }, FRANCE = { "F NWG H" } })
  t.eq(flags(t, result, "A LVP - EDI"), {})
  t.eq(result.units.ENGLAND, { "A EDI", "F NAO" })
end)

test("the notation: VIA goes with a move only, a support to move has its dash, a convoy names a move", function(t)
  position(t, { phase = "S1901M", units = { GERMANY = { "A MUN" }, FRANCE = { "A BUR", "A RUH" } } })
  adjudicate(t, { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
  local result = adjudicate(t, { GERMANY = { "A MUN R BOH VIA" } })
  t.eq(flags(t, result, "A MUN R BOH VIA"), { "void", "disband" })

  position(t, { phase = "S1901M", units = { GERMANY = { "A BER", "A MUN" }, RUSSIA = { "A SIL" } } })
  result = adjudicate(t, { GERMANY = { "A BER - SIL", "A MUN S A BER H SIL" }, RUSSIA = { "A SIL H" } })
  t.eq(flags(t, result, "A MUN S A BER H SIL"), { "void" })
  t.eq(flags(t, result, "A BER - SIL"), { "bounce" })

  position(t, { phase = "S1901M", units = { ENGLAND = { "A LON", "F NTH" }, FRANCE = { "F ENG", "F WAL" } } })
  result = adjudicate(t, { ENGLAND = { "A LON H", "F NTH C A LON" }, FRANCE = { "F ENG - LON", "F WAL S F ENG - LON" } })
  t.eq(flags(t, result, "F NTH C A LON"), { "void" })
  t.eq(flags(t, result, "F ENG - LON"), {})
end)

test("an army built with a coast is built without it", function(t)
  position(t, { phase = "W1901A", units = { RUSSIA = { "A MOS" } }, centers = { RUSSIA = { "MOS", "STP" } } })
  local result = adjudicate(t, { RUSSIA = { "A STP/NC B" } })
  t.eq(flags(t, result, "A STP/NC B"), {})
  t.eq(result.units.RUSSIA, { "A MOS", "A STP" })
end)

test("Francqueville: the dislodged units are listed in unit order within a power", function(t)
  francqueville(t, { phase = "S1901M", units = { GERMANY = { "A BER", "A KIE" }, RUSSIA = { "A SIL", "A PRU" }, FRANCE = { "A HOL", "A RUH" } } })
  local result = adjudicate(t, { GERMANY = { "A BER - SIL", "A KIE H" }, RUSSIA = { "A PRU - BER", "A SIL H" }, FRANCE = { "A HOL - KIE", "A RUH S A HOL - KIE" } })
  local units = {}
  for _, d in ipairs(result.dislodged) do units[#units + 1] = d.unit end
  t.eq(units, { "A BER", "A KIE" })
end)

test("Francqueville: a retreat written with a dash is a retreat; a hold in a retreat phase is void and disbands", function(t)
  for _, case in ipairs({ { order = "A MUN - BOH", flags = {} }, { order = "A MUN H", flags = { "void", "disband" } } }) do
    francqueville(t, { phase = "S1901M", units = { GERMANY = { "A MUN" }, FRANCE = { "A BUR", "A RUH" } } })
    adjudicate(t, { FRANCE = { "A BUR - MUN", "A RUH S A BUR - MUN" } })
    local result = adjudicate(t, { GERMANY = { case.order } })
    t.eq(flags(t, result, case.order), case.flags, case.order)
  end
end)
