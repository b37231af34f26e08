-- France 1940: the module's combat (F40-C.1 .. C.9), the retreats it makes (C.7 with F40-5.3,
-- 6.6, 16.3), naval evacuation (F40-10.4) and the victory rules, on set positions of the
-- scenario's own map (scenarios/france1940/map.toml). Every die that decides is set with
-- t.dice; exact events, refusal texts and unit positions are asserted.
--
-- Map notes (flat-topped hexes, odd columns half a hex lower): 1026 and its neighbours (1025,
-- 1027, 0925, 0926, 1125, 1126) are clear French hexes far from any city or river; a German
-- unit there cannot trace supply and is halved (F40-8.3), a French one can.

-- A unit table for t.setup: a division (XX) of MA 4 unless `extra` says otherwise.
local function unit(id, side, nation, type, strength, at, extra)
  local u = { id = id, side = side, nation = nation, type = type, size = "XX", ma = 4, strength = strength, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function german(id, strength, at, extra) return unit(id, "german", "german", "infantry", strength, at, extra) end
local function french(id, strength, at, extra) return unit(id, "allied", "french", "infantry", strength, at, extra) end
local MOTORIZED = { attrs = { class = "motorized" } }

-- A fresh game of the scenario set to `side`'s combat phase (turn 3 unless `extra.turn`, the
-- first assault) with `units` alone in play.
local function position(t, side, units, extra)
  t.scenario("scenarios/france1940", { seed = 1 })
  local s = { turn = 3, phase = "combat", side = side, units = units }
  for k, v in pairs(extra or {}) do s[k] = v end
  t.setup(s)
end

local function attack(hex, units) return { command = "attack", hex = hex, units = units } end

-- The events of an accepted command without the control changes (territory's business).
local function without_control(events)
  local out = {}
  for _, e in ipairs(events) do
    if e.event ~= "ControlChanged" then out[#out + 1] = e end
  end
  return out
end

-- `side`'s attack, the die set to `roll`: its events from the result on (after DiceRolled,
-- CombatResolved and the C.9 marks), control changes left out, and the CombatResolved data.
local function fight(t, side, hex, units, roll)
  t.dice({ roll })
  local events = without_control(t.ok(side, attack(hex, units)))
  t.eq(events[1], { event = "DiceRolled", sides = 6, value = roll })
  t.eq(events[2].name, "CombatResolved")
  local i = 3
  t.eq(events[i].key, "attacked_hexes")
  i = i + 1
  while events[i] and events[i].event == "UnitStatusChanged" and events[i].add and events[i].add[1] == "attacked" do
    i = i + 1
  end
  local rest = {}
  for k = i, #events do rest[#rest + 1] = events[k] end
  return rest, events[2].data
end

local function moved(id, from, path)
  return { event = "UnitMoved", unit = id, from = from, to = path[#path], path = path, cost = 0 }
end

-- ---------------------------------------------------------------------------------------
-- C.3: who may attack

test("F40-C.3: a unit that has attacked may not attack again in the same combat phase", function(t)
  -- g1 (8, isolated: 4) between a1 (1025) and a2 (1027); g2 also next to 1027.
  position(t, "german", {
    german("g1", 8, "1026"),
    german("g2", 8, "1126"),
    french("a1", 1, "1025"),
    french("a2", 1, "1027"),
  })
  local rest, o = fight(t, "german", "1025", { "g1" }, 6)
  t.eq(o.odds .. " " .. o.result, "4:1 DE")
  t.eq(rest, { { event = "UnitEliminated", unit = "a1", reason = "combat at 1025 (4:1, roll 6: DE)" } })
  t.truthy(t.has_status("g1", "attacked"), "g1 is marked attacked")
  local r = t.expect_refused("german", attack("1027", { "g1" }), "F40-C.3")
  t.eq(r.reason, "g1 has already attacked this combat phase")
  r = t.expect_refused("german", attack("1027", { "g2", "g1" }), "F40-C.3")
  t.eq(r.reason, "g1 has already attacked this combat phase")
  -- (1027 itself may still be attacked, by a unit that has not attacked)
  rest, o = fight(t, "german", "1027", { "g2" }, 6)
  t.eq(o.attackers, { "g2" })
  t.eq(rest, { { event = "UnitEliminated", unit = "a2", reason = "combat at 1027 (4:1, roll 6: DE)" } })
end)

test("F40-C.3: an attack across a lake hexside is refused", function(t)
  -- Lake Constance: 3826 (Germany) / 3827 (Switzerland) is a lake hexside; 3826/3726 is not.
  -- Switzerland invaded: its units are Allied.
  position(t, "german", {
    german("g1", 8, "3826"),
    unit("s1", "allied", "swiss", "infantry", 1, "3827"),
    unit("s2", "allied", "swiss", "infantry", 1, "3726"),
  }, { invaded = { "switzerland" } })
  local r = t.expect_refused("german", attack("3827", { "g1" }), "F40-C.3")
  t.eq(r.reason, "g1 may not attack across the hexside 3826/3827")
  -- the combat_odds query says the same
  t.eq(t.query("combat_odds", { hex = "3827", units = { "g1" } }).refused,
    { rule = "F40-C.3", reason = "g1 may not attack across the hexside 3826/3827" })
  -- g1 may attack 3726, its other Swiss neighbour, across no lake
  t.eq(t.query("combat_odds", { hex = "3726", units = { "g1" } }).refused, nil)
end)

-- ---------------------------------------------------------------------------------------
-- C.7: retreats

test("F40-C.7: a retreat never crosses a sea hexside", function(t)
  -- Le Havre (0718): every neighbour but 0818 is sea or across a sea hexside (the Seine
  -- estuary: 0718/0719, 0718/0819). g1 holds 0818: the motorized a1 has no way out.
  position(t, "german", {
    german("g1", 8, "0818"),
    unit("a1", "allied", "french", "armored", 1, "0718", MOTORIZED),
  })
  local rest, o = fight(t, "german", "0718", { "g1" }, 4)
  t.eq(o.odds .. " " .. o.result, "2:1 DR")
  t.eq(rest, { { event = "UnitEliminated", unit = "a1",
    reason = "combat at 0718 (2:1, roll 4: DR): no retreat route (F40-C.7)" } })
end)

test("F40-C.7: a retreat may not end with more than 3 armored division-equivalents in the hex (F40-5.3)", function(t)
  -- a1, an armored division at 1026, retreats 2 hexes from g1 (1025). Its preferred route is
  -- 0925 then 0825 (Allied, out of German ZOC, lowest labels). `corps`: an Allied corps of
  -- that type waits at 0825.
  local function retreat_beside(corps_type)
    position(t, "german", {
      german("g1", 8, "1025"),
      unit("a1", "allied", "french", "armored", 1, "1026", MOTORIZED),
      unit("c1", "allied", "french", corps_type, 6, "0825", { size = "XXX", attrs = corps_type == "armored" and { class = "motorized" } or nil }),
    })
    local rest, o = fight(t, "german", "1026", { "g1" }, 2)
    t.eq(o.odds .. " " .. o.result, "4:1 DR")
    return rest
  end
  -- beside an infantry corps: 4 division-equivalents, within 5.2; 1 armored
  t.eq(retreat_beside("infantry"), { moved("a1", "1026", { "0925", "0825" }) })
  -- beside an armored corps: 4 armored division-equivalents, over 5.3's 3: the next route
  t.eq(retreat_beside("armored"), { moved("a1", "1026", { "0925", "0826" }) })
end)

test("F40-16.3: a Dutch unit a retreat takes out of the Netherlands is freed", function(t)
  -- The Netherlands invaded (Belgium with them): n1 at 2610 retreats from g1 (2609) into
  -- Belgium. The status comes before the move (C.6's order of events).
  position(t, "german", {
    german("g1", 8, "2609"),
    unit("n1", "allied", "dutch", "infantry", 1, "2610"),
  }, { invaded = { "netherlands" } })
  t.truthy(not t.has_status("n1", "freed"), "n1 starts bound to the Netherlands")
  local rest, o = fight(t, "german", "2610", { "g1" }, 1)
  t.eq(o.odds .. " " .. o.result, "6:1 DR")
  t.eq(rest, {
    { event = "UnitStatusChanged", unit = "n1", add = { "freed" } },
    moved("n1", "2610", { "2510", "2410" }),
  })
  t.truthy(t.has_status("n1", "freed"), "n1 is freed")
end)

test("F40-16.3: a Dutch unit retreating inside the Netherlands stays bound", function(t)
  -- n1 at 2609 retreats from g1 (2610) north, inside the Netherlands: no freed status.
  position(t, "german", {
    german("g1", 8, "2610"),
    unit("n1", "allied", "dutch", "infantry", 1, "2609"),
  }, { invaded = { "netherlands" } })
  local rest, o = fight(t, "german", "2609", { "g1" }, 2)
  t.eq(o.odds .. " " .. o.result, "4:1 DR")
  t.eq(rest, { moved("n1", "2609", { "2508", "2408" }) })
  t.truthy(not t.has_status("n1", "freed"), "n1 is still bound")
end)

-- A1 (the defender given) at 1026 attacked by g1-g3 (8 each, isolated: 4) from 1025, 1126 and
-- 0926; its other neighbours, 0925, 1027 and 1125, are each in the ZOC of two of them. `more`:
-- other units.
local function boxed_in(t, defender, more)
  local units = {
    defender,
    german("g1", 8, "1025"),
    german("g2", 8, "1126"),
    german("g3", 8, "0926"),
  }
  for _, u in ipairs(more or {}) do units[#units + 1] = u end
  position(t, "german", units)
  local rest, o = fight(t, "german", "1026", { "g1", "g2", "g3" }, 1)
  t.eq(o.odds .. " " .. o.result, "6:1 DR")
  return rest
end

test("F40-6.6: a friendly unit in an enemy-ZOC hex lets a foot unit retreat through it", function(t)
  -- a2 stands at 0925 (in the ZOC of g1 and g3): a1 retreats through it to 0825, out of ZOC.
  t.eq(boxed_in(t, french("a1", 2, "1026"), { french("a2", 2, "0925") }),
    { moved("a1", "1026", { "0925", "0825" }) })
  t.eq(t.unit("a1").at, "0825")
  -- without a2 every route enters enemy ZOC: eliminated
  local rest = boxed_in(t, french("a1", 2, "1026"))
  t.eq(rest, { { event = "UnitEliminated", unit = "a1", reason = "combat at 1026 (6:1, roll 1: DR): no retreat "
    .. "route: every route otherwise open to it enters enemy ZOC (0925, 1027, 1125), and a foot unit may not "
    .. "retreat into enemy ZOC unless a friendly unit stays there (F40-6.6)" } })
end)

test("F40-6.6: mountain infantry may not retreat into enemy ZOC; motorized units may", function(t)
  local rest = boxed_in(t, unit("m1", "allied", "french", "mountain", 2, "1026"))
  t.eq(rest, { { event = "UnitEliminated", unit = "m1", reason = "combat at 1026 (6:1, roll 1: DR): no retreat "
    .. "route: every route otherwise open to it enters enemy ZOC (0925, 1027, 1125), and a mountain unit may not "
    .. "retreat into enemy ZOC unless a friendly unit stays there (F40-6.6)" } })
  t.eq(boxed_in(t, unit("k1", "allied", "french", "armored", 2, "1026", MOTORIZED)),
    { moved("k1", "1026", { "0925", "0825" }) })
end)

test("F40-C.7: a retreat prefers a final hex its side controls", function(t)
  -- g1 in the Maginot hex 2919 (France, next to Germany) retreats from a1 (3020). Routes end
  -- in Germany (German-controlled) or deeper in France (Allied): the lowest labels, 2819 then
  -- 2718, lead into France; the rules take the German hex 3018 by 2918.
  position(t, "allied", {
    german("g1", 1, "2919"),
    french("a1", 8, "3020"),
  })
  t.eq(t.state().control["3018"], "german")
  t.eq(t.state().control["2718"], "allied")
  local rest, o = fight(t, "allied", "2919", { "a1" }, 4)
  t.eq(o.odds .. " " .. o.result, "2:1 DR")
  t.eq(o.defense, 3, "1 x 3 in the Maginot line")
  t.eq(rest, { moved("g1", "2919", { "2918", "3018" }) })
end)

-- ---------------------------------------------------------------------------------------
-- C.6: the exchange

test("F40-C.6: EX removes the attackers weakest first, until their printed strength lost reaches the defenders'", function(t)
  -- d1 (2) attacked by g2 (2, 1025) and g3 (3, 1027); all three are isolated (1 + 1.5 against
  -- 1: 2:1). The attackers must lose 2 printed points: g2 (2) is enough, g3 stays.
  position(t, "german", {
    french("d1", 2, "1026"),
    german("g2", 2, "1025"),
    german("g3", 3, "1027"),
  })
  local rest, o = fight(t, "german", "1026", { "g3", "g2" }, 3)
  t.eq(o, { hex = "1026", attackers = { "g2", "g3" }, defenders = { "d1" }, attack = 2.5, defense = 1,
    odds = "2:1", roll = 3, result = "EX" })
  local why = "combat at 1026 (2:1, roll 3: EX)"
  t.eq(rest, {
    { event = "UnitEliminated", unit = "d1", reason = why },
    { event = "UnitEliminated", unit = "g2", reason = why },
  })
  t.eq(t.unit("g3").at, "1027")
end)

test("F40-C.6: EX counts the defenders' printed strength, not their halved one", function(t)
  -- g1 (4, isolated: 2) attacked by a2 (2, 1025) and a3 (3, 1027): 5 against 2, 2:1. The
  -- attackers must lose 4 printed points: a2 (2) is not enough, a3 goes too.
  position(t, "allied", {
    german("g1", 4, "1026"),
    french("a2", 2, "1025"),
    french("a3", 3, "1027"),
  })
  t.truthy(t.has_status("g1", "isolated"), "g1 is isolated")
  t.truthy(not t.has_status("a2", "isolated") and not t.has_status("a3", "isolated"), "a2, a3 are supplied")
  local rest, o = fight(t, "allied", "1026", { "a2", "a3" }, 3)
  t.eq(o, { hex = "1026", attackers = { "a2", "a3" }, defenders = { "g1" }, attack = 5, defense = 2,
    odds = "2:1", roll = 3, result = "EX" })
  local why = "combat at 1026 (2:1, roll 3: EX)"
  t.eq(rest, {
    { event = "UnitEliminated", unit = "g1", reason = why },
    { event = "UnitEliminated", unit = "a2", reason = why },
    { event = "UnitEliminated", unit = "a3", reason = why },
  })
end)

-- ---------------------------------------------------------------------------------------
-- C.5, C.6, C.9: works

test("F40-C.6: a fortification destroyed by DR% no longer doubles the defence", function(t)
  -- Maubeuge (2114, clear, a fortification): d1 (1) attacked by the panzer division k1 (8,
  -- isolated: 4) from 2115: 4 against 1 x 2, 2:1; a 6 is DR%.
  position(t, "german", {
    french("d1", 1, "2114"),
    french("a2", 2, "2015"),
    unit("k1", "german", "german", "armored", 8, "2115", { ma = 12, attrs = { class = "motorized" } }),
  })
  t.eq(t.query("combat_odds", { hex = "2114", units = { "k1" } }), { attack = 4, defense = 2, odds = "2:1" })
  local rest, o = fight(t, "german", "2114", { "k1" }, 6)
  t.eq(o.odds .. " " .. o.result, "2:1 DR%")
  t.eq(rest, {
    moved("d1", "2114", { "2015", "1914" }),
    { event = "VarSet", key = "destroyed", value = { ["2114"] = { "fortification" } } },
  })
  t.eq(t.state().vars.destroyed, { ["2114"] = { "fortification" } })
  -- k1 takes the town in its second assault; the Allies attack it there in theirs.
  t.end_phase("german")
  t.ok("german", { command = "move", unit = "k1", path = { "2114" } })
  t.end_phase("german")
  t.end_phase("german")
  t.eq({ t.state().side, t.state().phase }, { "allied", "movement" })
  t.end_phase("allied")
  t.eq({ t.state().side, t.state().phase, t.unit("k1").at }, { "allied", "combat", "2114" })
  -- k1 (8, isolated: 4) x 1: the town's works are gone (x 2 would put 2 against 8, below 1:2)
  t.eq(t.query("combat_odds", { hex = "2114", units = { "a2" } }), { attack = 2, defense = 4, odds = "1:2" })
  local _, o2 = fight(t, "allied", "2114", { "a2" }, 6)
  t.eq({ o2.attack, o2.defense, o2.odds, o2.result }, { 2, 4, "1:2", "DR" })
end)

test("F40-16.3: Maastricht's intrinsic strength point counts for Allied defenders only", function(t)
  -- The Netherlands invaded. German g1 (2) on Maastricht (2712, clear) attacked by a1 (8)
  -- from 2711 (no river between): 8 against 2, 4:1, no +1.
  position(t, "allied", {
    german("g1", 2, "2712"),
    french("a1", 8, "2711"),
  }, { invaded = { "netherlands" } })
  t.truthy(not t.has_status("g1", "isolated"), "g1 is supplied")
  t.eq(t.query("combat_odds", { hex = "2712", units = { "a1" } }), { attack = 8, defense = 2, odds = "4:1" })
  local _, o = fight(t, "allied", "2712", { "a1" }, 2)
  t.eq({ o.attack, o.defense, o.odds, o.result }, { 8, 2, "4:1", "DR" })
  -- A Dutch n1 (2) there, attacked by g1 (8) from 2711: 8 against 2 + 1, 2:1.
  position(t, "german", {
    unit("n1", "allied", "dutch", "infantry", 2, "2712"),
    german("g1", 8, "2711"),
  }, { invaded = { "netherlands" } })
  t.truthy(not t.has_status("n1", "isolated"), "n1 is supplied")
  t.eq(t.query("combat_odds", { hex = "2712", units = { "g1" } }), { attack = 8, defense = 3, odds = "2:1" })
end)

-- ---------------------------------------------------------------------------------------
-- C.6: the table

-- The CRT as docs/france1940.md declares it (C.6), by column and d6 roll.
local CRT = {
  { "1:2", { "AE", "AE", "AR", "AR", "EX", "DR" } },
  { "1:1", { "AE", "AR", "AR", "EX", "DR", "DR" } },
  { "2:1", { "AR", "AR", "EX", "DR", "DR", "DR%" } },
  { "3:1", { "AR", "EX", "DR", "DR", "DR%", "DE" } },
  { "4:1", { "EX", "DR", "DR", "DR%", "DE", "DE" } },
  { "5:1", { "DR", "DR", "DR%", "DE", "DE", "DE" } },
  { "6:1", { "DR", "DR%", "DE", "DE", "DE", "DE" } },
}

test("F40-C.6: every cell of the combat results table", function(t)
  -- d1 (French, supplied) at 1026 attacked by g1 (isolated, halved) from 1025, clear terrain
  -- and no river: g1 of 2 against d1 of 2 is 1:2; g1 of 2k against d1 of 1 is k:1.
  for _, row in ipairs(CRT) do
    local column, results = row[1], row[2]
    local k = tonumber(column:sub(1, 1))
    local attack, defense = k, 1
    if column == "1:2" then attack, defense = 1, 2 end
    for roll = 1, 6 do
      position(t, "german", { french("d1", defense, "1026"), german("g1", 2 * attack, "1025") })
      local _, o = fight(t, "german", "1026", { "g1" }, roll)
      t.eq({ o.attack, o.defense, o.odds, o.roll, o.result }, { attack, defense, column, roll, results[roll] },
        column .. ", roll " .. roll)
    end
  end
end)

test("F40-C.6: what each result does", function(t)
  -- the same position: d1 at 1026, g1 at 1025
  local function result_of(column, roll)
    local attack, defense = tonumber(column:sub(1, 1)), 1
    if column == "1:2" then attack, defense = 1, 2 end
    position(t, "german", { french("d1", defense, "1026"), german("g1", 2 * attack, "1025") })
    local rest, o = fight(t, "german", "1026", { "g1" }, roll)
    return rest, "combat at 1026 (" .. column .. ", roll " .. roll .. ": " .. o.result .. ")"
  end
  local rest, why = result_of("1:2", 1)       -- AE: the attackers are eliminated
  t.eq(rest, { { event = "UnitEliminated", unit = "g1", reason = why } })
  rest = result_of("1:2", 3)                  -- AR: the attackers retreat 1 hex
  t.eq(rest, { moved("g1", "1025", { "0924" }) })
  rest, why = result_of("4:1", 1)             -- EX
  t.eq(rest, { { event = "UnitEliminated", unit = "d1", reason = why }, { event = "UnitEliminated", unit = "g1", reason = why } })
  -- DR: the defenders retreat 2 hexes (0925, in g1's ZOC, is closed to a foot unit, 6.6)
  rest = result_of("1:2", 6)
  t.eq(rest, { moved("d1", "1026", { "0926", "0826" }) })
  rest = result_of("6:1", 2)                  -- DR% (no works at 1026 to destroy)
  t.eq(rest, { moved("d1", "1026", { "0926", "0826" }) })
  rest, why = result_of("6:1", 6)             -- DE: the defenders are eliminated
  t.eq(rest, { { event = "UnitEliminated", unit = "d1", reason = why } })
end)

-- ---------------------------------------------------------------------------------------
-- F40-10.4: naval evacuation

-- An Allied movement phase of turn 3 (its first assault) with `units` in play and a German
-- division far off in Germany.
local function allied_movement(t, units)
  t.scenario("scenarios/france1940", { seed = 1 })
  units[#units + 1] = german("g1", 2, "3515")
  t.setup { turn = 3, phase = "movement", side = "allied", units = units }
end

local function evacuate(id) return { command = "evacuate", unit = id } end

test("F40-10.4: a unit with less than 1 MP left is not evacuated", function(t)
  -- In Dunkirk (1511, a port), in the Allied second assault (MA halved, 9.1): a1 (MA 1) has
  -- 0.5 MP, a2 (MA 2) 1 MP.
  allied_movement(t, {
    french("a1", 2, "1511", { ma = 1 }),
    french("a2", 2, "1511", { ma = 2 }),
  })
  t.end_phase("allied")
  t.end_phase("allied")
  local s = t.state()
  t.eq({ s.side, s.phase, s.vars.assault }, { "allied", "movement", 2 })
  t.truthy(not t.has_status("a1", "isolated"), "a1 is supplied")
  local r = t.expect_refused("allied", evacuate("a1"), "F40-10.4")
  t.eq(r.reason, "a1 has 0.5 MP left; evacuation costs 1 MP in the port hex")
  t.eq(t.ok("allied", evacuate("a2")), {
    { event = "VarSet", key = "evacuated", value = { ["1511"] = 1 } },
    { event = "UnitRemoved", unit = "a2", reason = "evacuated" },
  })
  t.eq(t.unit("a1").at, "1511")
end)

test("F40-10.4: a unit that moved by rail to a port is not evacuated", function(t)
  allied_movement(t, {
    french("a1", 2, "1026"),
    french("a2", 2, "1511"),
  })
  t.ok("allied", { command = "rail", unit = "a1", to = "1511" })
  t.eq(t.unit("a1").at, "1511")
  local r = t.expect_refused("allied", evacuate("a1"), "F40-10.4")
  t.eq(r.reason, "a1 has moved by rail and has no MP left")
  -- a2, which stood in the port from the start of the phase, is evacuated
  t.eq(t.ok("allied", evacuate("a2"))[2], { event = "UnitRemoved", unit = "a2", reason = "evacuated" })
end)

test("F40-10.4: an evacuated BEF corps is counted for 16.4, a BEF division is not", function(t)
  allied_movement(t, {
    unit("b1", "allied", "british", "infantry", 2, "1511", { attrs = { bef = true } }),
    unit("b2", "allied", "british", "infantry", 6, "1311", { size = "XXX", attrs = { bef = true } }),
  })
  t.eq(t.ok("allied", evacuate("b1")), {
    { event = "VarSet", key = "evacuated", value = { ["1511"] = 1 } },
    { event = "UnitRemoved", unit = "b1", reason = "evacuated" },
  })
  t.eq(t.ok("allied", evacuate("b2")), {
    { event = "VarSet", key = "evacuated", value = { ["1511"] = 1, ["1311"] = 3 } },
    { event = "UnitRemoved", unit = "b2", reason = "evacuated" },
    { event = "VarSet", key = "bef_corps_evacuated", value = 1 },
  })
end)

-- ---------------------------------------------------------------------------------------
-- Victory

-- Ends the phases of `side` until the step is another side's or the game is over.
local function end_turn(t, side)
  while not t.state().over and t.state().side == side do t.end_phase(side) end
end

test("victory: equal scores are a draw", function(t)
  -- Turn 10 (the last), the Allied player-turn: German units hold both Paris hexes (5 each) and
  -- Reims (2): 12 points; the Allies hold the other French major cities: 7 x 2 - 2 = 12. The
  -- neutral Low Countries' cities are nobody's.
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 10, phase = "movement", side = "allied", units = {
    german("g1", 2, "1521"),
    german("g2", 2, "1621"),
    german("g3", 2, "2119"),
    french("a1", 2, "0825"),
  } }
  t.eq(t.query("score"), { german = 12, allied = 12 })
  end_turn(t, "allied")
  local s = t.state()
  t.eq(s.over, true)
  t.eq(s.outcome, { winner = nil, scores = { german = 12, allied = 12 },
    reason = "victory points: german 12, allied 12; Paris fell on turn 10" })
end)

test("victory: the higher score wins", function(t)
  -- as above, with Reims left to the Allies: german 10, allied 14
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 10, phase = "movement", side = "allied", units = {
    german("g1", 2, "1521"),
    german("g2", 2, "1621"),
    french("a1", 2, "0825"),
  } }
  end_turn(t, "allied")
  local s = t.state()
  t.eq(s.over, true)
  t.eq(s.outcome, { winner = "allied", scores = { german = 10, allied = 14 },
    reason = "victory points: german 10, allied 14; Paris fell on turn 10" })
end)

test("victory: Paris taken on the German turn and retaken on the Allied turn has not fallen", function(t)
  -- Turn 3, German combat phase (first assault): g1 and g2 stand in both Paris hexes (1521,
  -- 1621). In its second assault g2 leaves 1621; in the Allied turn a1 (motorized) enters it
  -- from 1721. Paris is judged at the end of the Allied turn only, when 1621 is Allied.
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 3, phase = "combat", side = "german", units = {
    german("g1", 2, "1521"),
    german("g2", 2, "1621", { ma = 8 }),
    unit("a1", "allied", "french", "armored", 2, "1721", MOTORIZED),
  } }
  t.eq({ t.state().control["1521"], t.state().control["1621"] }, { "german", "german" })
  t.end_phase("german")                                -- German combat 1 ends, Paris German
  t.ok("german", { command = "move", unit = "g2", path = { "1620" } })
  end_turn(t, "german")
  t.eq({ t.state().side, t.state().phase }, { "allied", "movement" })
  t.ok("allied", { command = "move", unit = "a1", path = { "1621" } })
  t.eq(t.state().control["1621"], "allied")
  end_turn(t, "allied")
  t.eq(t.state().turn, 4)
  t.eq(t.state().vars.paris_fell, nil)
  t.eq(t.query("figures").paris_fell, 0)
end)

test("victory: Paris held at the end of an Allied turn has fallen on that turn", function(t)
  t.scenario("scenarios/france1940", { seed = 1 })
  t.setup { turn = 3, phase = "combat", side = "german", units = {
    german("g1", 2, "1521"),
    german("g2", 2, "1621"),
    unit("a1", "allied", "french", "armored", 2, "1723", MOTORIZED),
  } }
  end_turn(t, "german")
  t.eq(t.state().vars.paris_fell, nil, "not judged at the end of the German turn")
  end_turn(t, "allied")
  t.eq(t.state().vars.paris_fell, 3)
  t.eq(t.query("figures").paris_fell_turn, 3)
end)
