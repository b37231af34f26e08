-- The greedy bot of rules/tactical (lib.facing_ai with this game's fronts and charges), asked as
-- `hexwar run` asks it (t.bot). Ties between equal commands are broken by the seed: the answers
-- for seeds 0..5 are listed whole, so the tie set and its order are both pinned.
-- Run: hexwar test rules/tactical
-- Flat map, odd columns shifted down: from 0404 the edges 0..5 lead to 0504 0405 0304 0303
-- 0403 0503; from 0504 to 0605 0505 0405 0404 0503 0604; from 0503 to 0604 0504 0404 0403 0502
-- 0603.

local function inf(id, side, at, facing, strength)
  return { id = id, side = side, type = "infantry", ma = 4, strength = strength or 3, at = at, facing = facing }
end

-- The bot's command in words: "move b1 0503 f1", "attack b1 z1", "end_phase".
local function said(c)
  if c.command == "move" then
    return string.format("move %s %s f%s", c.unit, table.concat(c.path, ","), tostring(c.facing))
  elseif c.command == "attack" then
    return string.format("attack %s %s", c.unit, c.target)
  end
  return c.command
end

-- The British bot's answers for seeds 0 .. n-1.
local function answers(t, n)
  local out = {}
  for seed = 0, n - 1 do out[#out + 1] = said(t.bot("british", seed)) end
  return out
end

local function position(t, units)
  t.scenario("scenarios/tactical", { seed = 3 })
  t.setup { units = units }
  t.eq(t.state().phase, "movement")
end

test("TAC-6 bot: a unit charges an adjacent enemy of no greater strength, in any facing", function(t)
  position(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 2) })
  t.eq(answers(t, 6), { "move b1 0504 f0", "move b1 0504 f1", "move b1 0504 f2",
    "move b1 0504 f3", "move b1 0504 f4", "move b1 0504 f5" })
end)

test("TAC-8 bot: a weaker unit does not charge; it steps onto the enemy's flank facing it", function(t)
  -- z1 (4) faces edge 2: front 0505, 0405, 0404. 0503 is off it (+2 flank, TAC-8), and b1 there
  -- faces 0504 with facings 0, 1 and 2.
  position(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 2, 4) })
  t.eq(answers(t, 6), { "move b1 0503 f0", "move b1 0503 f1", "move b1 0503 f2",
    "move b1 0503 f0", "move b1 0503 f1", "move b1 0503 f2" })
end)

test("TAC-8 bot: a unit already on the enemy's flank facing it stays; the side ends its phase", function(t)
  position(t, { inf("b1", "british", "0503", 1), inf("z1", "zulu", "0504", 2, 4) })
  t.eq(answers(t, 3), { "end_phase", "end_phase", "end_phase" })
end)

test("TAC-1 / TAC-2 bot: within its tactical distance, a unit ends next to the enemy facing it", function(t)
  -- Cavalry 3 hexes from z1 moves tactically, 2 hexes at most: z1's flank (0503) is 3 away, so
  -- it takes a front hex, 0404 or 0405, in the facings that hold 0504 in its front.
  position(t, { { id = "c1", side = "british", type = "cavalry", ma = 6, strength = 3, at = "0204", facing = 0 },
    inf("z1", "zulu", "0504", 2) })
  t.eq(answers(t, 6), { "move c1 0304,0404 f0", "move c1 0304,0404 f1", "move c1 0304,0404 f5",
    "move c1 0304,0405 f0", "move c1 0304,0405 f4", "move c1 0304,0405 f5" })
end)

test("TAC-1 bot: far from every enemy, a unit closes in as far as its MA takes it", function(t)
  -- b1 (MA 4) at 0201, z1 at 0808: the hexes four steps on nearest z1 are 0205, 0304, 0404 and
  -- 0503, each in any of its 6 facings: 24 equal answers, the 25th seed the first again.
  position(t, { inf("b1", "british", "0201", 0), inf("z1", "zulu", "0808", 2) })
  local expected = {}
  for _, path in ipairs({ "0202,0203,0204,0205", "0301,0302,0303,0304", "0301,0402,0403,0404",
    "0301,0402,0502,0503" }) do
    for f = 0, 5 do expected[#expected + 1] = "move b1 " .. path .. " f" .. f end
  end
  t.eq(answers(t, 24), expected)
  t.eq(said(t.bot("british", 24)), expected[1])
end)

test("TAC-6 bot: it attacks where d6 + margin cannot lose, frontally at equal strength", function(t)
  position(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 2) })
  t.end_phase("british")
  t.eq(answers(t, 2), { "attack b1 z1", "attack b1 z1" })
end)

test("TAC-6 bot: it does not attack a stronger enemy frontally, but does from its flank (+2)", function(t)
  position(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 2, 4) })
  t.end_phase("british")
  t.eq(answers(t, 2), { "end_phase", "end_phase" })
  position(t, { inf("b1", "british", "0503", 1), inf("z1", "zulu", "0504", 2, 4) })
  t.end_phase("british")
  t.eq(answers(t, 2), { "attack b1 z1", "attack b1 z1" })
end)

test("TAC-6 bot: of two safe attacks it takes the larger margin", function(t)
  position(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 2),
    inf("b2", "british", "0702", 0, 9), inf("z2", "zulu", "0802", 3, 1) })
  t.end_phase("british")
  t.eq(answers(t, 2), { "attack b2 z2", "attack b2 z2" })
end)

test("TAC-6 bot: the melee a charge started is fought before any other attack", function(t)
  position(t, { inf("b1", "british", "0404", 0), inf("z1", "zulu", "0504", 2),
    inf("b2", "british", "0702", 0, 9), inf("z2", "zulu", "0802", 3, 1) })
  t.ok("british", { command = "move", unit = "b1", path = { "0504" }, facing = 0 })
  t.end_phase("british")
  t.eq(answers(t, 2), { "attack b1 z1", "attack b1 z1" })
end)
