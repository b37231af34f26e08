-- rules/tactical, the second round of mutation testing (docs/reliability.md): the orders' own
-- checks, the legal lists, a charger's end of phase, the score, each kind's TAC-2 distance and
-- each refusal's clause and wording. Run: hexwar test rules/tactical
-- Flat map, odd columns shifted down: from 0404 the edges 0..5 lead to 0504 0405 0304 0303
-- 0403 0503; from 0504 to 0605 0505 0405 0404 0503 0604. River hexes: 0601-0603, 0606-0608.

local function unit(id, side, kind, at, facing, ma)
  return { id = id, side = side, type = kind, ma = ma or 4, strength = 3, at = at, facing = facing }
end

local function inf(id, side, at, facing) return unit(id, side, "infantry", at, facing) end

local function leader(id, side, at) return { id = id, side = side, type = "leader", ma = 4, strength = 0, at = at } end

local function start(t, units)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = units }
end

local function move(id, path, facing) return { command = "move", unit = id, path = path, facing = facing } end
local function attack(id, target) return { command = "attack", unit = id, target = target } end

local function melee(events)
  for _, ev in ipairs(events) do
    if ev.event == "Custom" and ev.name == "MeleeResolved" then return ev.data end
  end
end

local function eliminations(events)
  local out = {}
  for _, ev in ipairs(events) do
    if ev.event == "UnitEliminated" then out[#out + 1] = ev.unit .. ": " .. ev.reason end
  end
  return out
end

-- The legal commands of `side` as short texts: "move b1 0504 f0", "attack b1 z1", "end_phase".
local function listed(t, side)
  local out = {}
  for _, c in ipairs(t.legal(side)) do
    if c.command == "move" then
      out[#out + 1] = "move " .. (c.unit or table.concat(c.units, "+")) .. " " .. (c.path[#c.path] or "-") .. " f" .. tostring(c.facing)
    elseif c.command == "attack" then
      out[#out + 1] = "attack " .. c.unit .. " " .. c.target
    else
      out[#out + 1] = c.command
    end
  end
  return out
end

local function count_moves(t, side, id)
  local n = 0
  for _, c in ipairs(t.legal(side)) do
    if c.command == "move" and c.unit == id then n = n + 1 end
  end
  return n
end

-- The farthest the unit's reach goes, in hexes (TAC counts a move in hexes).
local function farthest(t, id)
  local far = 0
  for _, per in pairs(t.reach(id)) do
    for _, cost in pairs(per) do far = math.max(far, cost) end
  end
  return far
end

test("TAC-3: a move names one of the side's own units, and only in the movement phase", function(t)
  -- (the rules' own checks: without them a Zulu unit moved in the British phase, a British one
  -- in the combat phase, and a unit no one has was a rules error)
  start(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0904", 3) })
  local before = t.state()
  t.eq(t.expect_refused("british", move("z1", { "0804" }, 3), "TAC-3").reason, "z1 is not a british unit")
  t.eq(t.expect_refused("british", move("b9", { "0504" }, 0), "TAC-3").reason, "no unit b9")
  t.eq(t.state(), before)
  t.end_phase("british")
  t.eq(t.expect_refused("british", move("b1", { "0504" }, 0), "TAC-3").reason, "units move in the movement phase")
  t.eq({ t.unit("b1").at, t.unit("z1").at }, { "0404", "0904" })
end)

test("TA-R2: a leader moved with facing \"none\" gets no facing, nor does one moving with a troop", function(t)
  -- ("none" is how the reach names a leader's end state; a group's facing is its troop's alone)
  start(t, { leader("l1", "british", "0202"), leader("l2", "british", "0404"), inf("b1", "british", "0404", 2),
    inf("z1", "zulu", "1107", 3) })
  t.eq(t.ok("british", move("l1", { "0302" }, "none")), {
    { event = "UnitEnteredHex", unit = "l1", hex = "0302" },
    { event = "UnitMoved", unit = "l1", from = "0202", to = "0302", path = { "0302" }, cost = 1 },
    { event = "UnitStatusChanged", unit = "l1", add = { "moved" } },
  })
  t.eq(t.ok("british", { command = "move", units = { "l2", "b1" }, path = { "0504" } }), {
    { event = "UnitEnteredHex", unit = "l2", hex = "0504" },
    { event = "UnitMoved", unit = "l2", from = "0404", to = "0504", path = { "0504" }, cost = 1 },
    { event = "UnitStatusChanged", unit = "l2", add = { "moved" } },
    { event = "UnitEnteredHex", unit = "b1", hex = "0504" },
    { event = "UnitMoved", unit = "b1", from = "0404", to = "0504", path = { "0504" }, cost = 1 },
    { event = "UnitFacingChanged", unit = "b1", facing = 2 },
    { event = "UnitStatusChanged", unit = "b1", add = { "moved" } },
  })
  t.eq({ t.unit("l1").facing, t.unit("l2").facing, t.unit("b1").facing }, { nil, nil, 2 })
end)

local function colonial(id, at)
  return { id = id, side = "british", type = "colonial", ma = 4, strength = 3, at = at, facing = 0, attrs = { facing2 = 3 } }
end

test("TA-R5 / TA-R6: a round trip back to the start hex is no move; re-faced there, only the re-faced base moved", function(t)
  -- (coming back has not changed hex: a round trip that re-faced base 1 marked both bases moved)
  start(t, { colonial("c1", "0202"), inf("z1", "zulu", "1107", 3) })
  local r = t.expect_refused("british", move("c1", { "0302", "0202" }, "0,3"), "TA-R5")
  t.eq(r.reason, "not a move: same hex, same facing (TA-R5)")
  local events = t.ok("british", move("c1", { "0302", "0202" }, "1,3"))
  t.eq(events[#events], { event = "UnitStatusChanged", unit = "c1", add = { "moved", "base1_moved" } })
  t.eq({ t.unit("c1").at, t.unit("c1").facing, t.unit("c1").attrs.facing2 }, { "0202", 1, 3 })
end)

test("TAC-3 / TAC-6: the legal list offers moves in the movement phase to units that have not moved, attacks in the combat phase to units that have not attacked", function(t)
  -- b1 faces z1 (0504, in its front); z1 faces away (front 0604, 0605, 0505). In the movement
  -- phase b1 has 6 hexes x 6 facings (a charge into 0504 among them) and 5 facings in place.
  start(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 0) })
  local moves = listed(t, "british")
  t.eq({ #moves, moves[#moves] }, { 42, "end_phase" })
  for i = 1, #moves - 1 do t.truthy(moves[i]:match("^move b1 "), moves[i]) end
  t.ok("british", move("b1", {}, 1))
  t.eq(listed(t, "british"), { "end_phase" })
  t.end_phase("british")
  t.eq(listed(t, "british"), { "attack b1 z1", "end_phase" })
  t.dice({ 1 }) -- 1 + 3 + 2 (flank) - 3: no effect
  t.eq(melee(t.ok("british", attack("b1", "z1"))).result, "no effect")
  t.eq(listed(t, "british"), { "end_phase" })
end)

test("TAC-6: after a charge the legal list offers the melee in the hex the charger shares with the enemy", function(t)
  -- b1 charges into z1's hex; z2 stands out of its front (0605, 0505, 0604 from 0504, facing 0).
  start(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 0), inf("z2", "zulu", "0304", 0) })
  t.ok("british", move("b1", { "0504" }, 0))
  t.end_phase("british")
  t.eq(listed(t, "british"), { "attack b1 z1", "end_phase" })
end)

test("TAC-6: a charger that attacked another enemy still loses the melee it did not fight, and the phase ends", function(t)
  -- b1 charges into z1's hex, then attacks z2 in its front (0605) with no effect: the melee in
  -- 0504 was not fought. (Its `attacked` flag is cleared before the elimination: the other way
  -- round the clearing named a unit already gone, and the phase could not end.)
  start(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 0), inf("z2", "zulu", "0605", 0) })
  t.ok("british", move("b1", { "0504" }, 0))
  t.end_phase("british")
  t.dice({ 1 }) -- 1 + 3 + 2 (flank) - 3: no effect
  t.eq(melee(t.ok("british", attack("b1", "z2"))).result, "no effect")
  t.eq(eliminations(t.end_phase("british")), { "b1: side=british melee not fought" })
  t.eq(t.state().phase, "movement")
  t.eq(t.state().side, "zulu")
end)

test("TAC victory: each counter eliminated in melee scores one for the other side", function(t)
  -- b1 (strength 20) eliminates z1 whatever the roll; the game then runs to its last turn.
  local strong = inf("b1", "british", "0404", 0)
  strong.strength = 20
  start(t, { strong, inf("z1", "zulu", "0504", 3), inf("z9", "zulu", "1107", 3) })
  t.end_phase("british")
  t.eq(melee(t.ok("british", attack("b1", "z1"))).result, "defender eliminated")
  while not t.state().over do t.end_phase() end
  t.eq(t.state().outcome, { winner = "british", scores = { british = 1, zulu = 0 }, reason = "enemy counters eliminated in melee" })
end)

test("TAC-1 / TAC-2: within 2 hexes of an enemy each kind moves at most its tactical distance; 3 hexes away, its MA", function(t)
  -- Each kind at 0404 (MA 4) with one Zulu infantry 2 hexes away (0604), then 3 (0704).
  for _, case in ipairs({
    { "infantry", 1 }, { "colonial", 1 }, { "cavalry", 2 }, { "foot_skirmisher", 2 },
    { "mounted_skirmisher", 3 }, { "leader", 2 }, { "artillery", 1 },
  }) do
    local kind, distance = case[1], case[2]
    local u = unit("b1", "british", kind, "0404", 0, 4)
    if kind == "colonial" then u.attrs = { facing2 = 3 } end
    if kind == "leader" then u.facing = nil end
    start(t, { u, inf("b2", "british", "0101", 0), inf("z1", "zulu", "0604", 3) })
    t.eq(farthest(t, "b1"), distance, kind .. ", 2 hexes from the enemy")
    start(t, { u, inf("b2", "british", "0101", 0), inf("z1", "zulu", "0704", 3) })
    t.eq(farthest(t, "b1"), 4, kind .. ", 3 hexes from the enemy")
  end
end)

test("TAC-2 / TA-R4: a tactical move past the kind's distance, or any move past the MA, is refused as such", function(t)
  -- b1 (infantry) 2 hexes from z1 moves away 2 hexes; b2 (MA 4), far off, 5 hexes.
  start(t, { inf("b1", "british", "0404", 0), inf("b2", "british", "0102", 0), inf("z1", "zulu", "0604", 3) })
  local r = t.expect_refused("british", move("b1", { "0304", "0204" }, 0), "TAC-2")
  t.eq(r.reason, "a tactical move is at most 1 hex (TAC-2)")
  r = t.expect_refused("british", move("b2", { "0103", "0104", "0105", "0106", "0107" }, 0), "TA-R4")
  t.eq(r.reason, "the unit moves at most 4 hexes (TA-R4)")
  r = t.expect_refused("british", move("b2", { "0104" }, 0), "TA-R4")
  t.eq(r.reason, "step 1 does not lead to an adjacent hex (0102 to 0104)")
end)

test("TAC-5 / TA-R7: a skirmisher passes through a friendly unit and is passed through; infantry through infantry is refused", function(t)
  -- A column along row 02: f (foot skirmisher) 0202, b1 0302, m (mounted skirmisher) 0402, b2 0502.
  start(t, {
    unit("f", "british", "foot_skirmisher", "0202", 0), inf("b1", "british", "0302", 0),
    unit("m", "british", "mounted_skirmisher", "0402", 0), inf("b2", "british", "0502", 0),
    inf("z1", "zulu", "1107", 3),
  })
  local r = t.expect_refused("british", move("b1", { "0402", "0502", "0602" }, 0), "TAC-5")
  t.eq(r.reason, "0502 holds a friendly unit: only skirmishers pass through, and no non-leader ends there (TAC-5)")
  t.ok("british", move("f", { "0302", "0402" , "0403" }, 0))
  t.ok("british", move("b1", { "0402", "0401" }, 0))
  t.ok("british", move("m", { "0302", "0202", "0201" }, 0))
  t.eq({ t.unit("f").at, t.unit("b1").at, t.unit("m").at }, { "0403", "0401", "0201" })
end)

test("TAC-7: a unit leaving an enemy's front may not enter another front hex, unless that enemy is a skirmisher", function(t)
  -- z1 at 0504 faces 3: front 0405, 0404, 0503. b1 stepping from 0404 to 0405 leaves one of
  -- its front hexes for another.
  start(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 3), inf("z9", "zulu", "1107", 3) })
  local r = t.expect_refused("british", move("b1", { "0405" }, 0), "TAC-7")
  t.eq(r.reason, "having left the enemy front hex 0404, the unit may not enter the enemy front hex 0405 (TAC-7)")
  -- z1 a foot skirmisher: its front does not hold b1.
  start(t, { inf("b1", "british", "0404", 0), unit("z1", "zulu", "foot_skirmisher", "0504", 3),
    inf("z9", "zulu", "1107", 3) })
  t.ok("british", move("b1", { "0405" }, 0))
  t.eq(t.unit("b1").at, "0405")
end)

test("TAC-2 / TA-R4: unlimbered artillery neither moves nor re-faces", function(t)
  start(t, { unit("a", "british", "artillery_unlimbered", "0202", 0, 0), inf("z1", "zulu", "1107", 3) })
  t.eq(t.reach("a"), {})
  local r = t.expect_refused("british", move("a", {}, 1), "TAC-2")
  t.eq(r.reason, "unlimbered artillery neither moves nor re-faces (TA-R4)")
  t.eq(count_moves(t, "british", "a"), 0)
end)

test("TAC-MAP: a river hex is never entered; the ford is", function(t)
  start(t, { unit("b1", "british", "cavalry", "0502", 0, 8), inf("z1", "zulu", "1107", 3) })
  local r = t.expect_refused("british", move("b1", { "0602" }, 0), "TAC-MAP")
  t.eq(r.reason, "0602 cannot be entered")
  t.eq(t.reach("b1")["0602"], nil)
  t.ok("british", move("b1", { "0503", "0604", "0704" }, 0))
end)

test("TAC-6 / TAC-3: a path going on past an enemy hex is refused, the charge ended it; nothing wheels in this game", function(t)
  start(t, { unit("c", "british", "cavalry", "0504", 0, 8), inf("z1", "zulu", "0704", 3), inf("z2", "zulu", "1107", 3) })
  local r = t.expect_refused("british", move("c", { "0604", "0704", "0804" }, 0), "TAC-6")
  t.eq(r.reason, "entering the enemy hex 0704 ended the move in a melee (TAC-6)")
  r = t.expect_refused("british", { command = "wheel", unit = "c", facing = 1 }, "TAC-3")
  t.eq(r.reason, "c does not wheel (no unit wheels in this game): a unit of type cavalry turns during its move")
end)
