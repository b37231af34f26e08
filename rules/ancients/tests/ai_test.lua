-- The greedy bot of rules/ancients (lib.facing_ai with this game's fronts, no charges), asked as
-- `hexwar run` asks it (t.bot). Ties between equal commands are broken by the seed: the answers
-- for several seeds are listed whole, so the tie set and its order are both pinned.
-- Run: hexwar test rules/ancients
-- Flat map, odd columns shifted down: from 0404 the edges 0..5 lead to 0504 0405 0304 0303
-- 0403 0503; from 0604 edges 0 and 5 lead to 0704 and 0703, from 0605 to 0705 and 0704.

local function unit(id, side, type, at, facing, strength)
  return { id = id, side = side, type = type, ma = 3, strength = strength, at = at, facing = facing }
end

-- A Macedonian phalanx (strength 4) facing vertex 0 (front 0503, 0504 from 0404) that passes
-- every morale test.
local function phalanx(id, at)
  local u = unit(id, "macedon", "phalanx", at, 0, 4)
  u.attrs = { morale = 6 }
  return u
end

-- The bot's command in words: "move p1 0504,0604 f0", "wheel p1 f5", "attack a b", "end_phase".
local function said(c)
  if c.command == "move" then
    return string.format("move %s %s f%s", c.unit, table.concat(c.path, ","), tostring(c.facing))
  elseif c.command == "attack" then
    return string.format("attack %s %s", c.unit, c.target)
  elseif c.command == "wheel" then
    return string.format("wheel %s f%s", c.unit, tostring(c.facing))
  end
  return c.command
end

-- The Macedonian bot's answers for seeds 0 .. n-1.
local function answers(t, n)
  local out = {}
  for seed = 0, n - 1 do out[#out + 1] = said(t.bot("macedon", seed)) end
  return out
end

local function position(t, units)
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = units }
  t.eq(t.state().phase, "movement")
end

test("ANC-6.3 bot: a phalanx in contact with an enemy off its front wheels to face it", function(t)
  -- s1 at 0403 is edge 4 from p1: off vertex 0's front, in vertex 5's (0403, 0503).
  position(t, { phalanx("p1", "0404"), unit("s1", "seleucid", "cavalry", "0403", 0, 3) })
  t.eq(answers(t, 3), { "wheel p1 f5", "wheel p1 f5", "wheel p1 f5" })
end)

test("ANC-6.3 bot: a wheel counts 50 less than a move to an equal standing (its morale test may fail)", function(t)
  -- Wheeling to face s1 (3) scores 300 + 10 * 1 - 50; moving to face s2 (4), at 0604 or 0605
  -- facing 0, scores 300 + 10 * 0: the move, though s2 is the stronger.
  position(t, { phalanx("p1", "0404"), unit("s1", "seleucid", "cavalry", "0403", 0, 3),
    unit("s2", "seleucid", "cavalry", "0704", 0, 4) })
  t.eq(answers(t, 4), { "move p1 0504,0604 f0", "move p1 0504,0605 f0",
    "move p1 0504,0604 f0", "move p1 0504,0605 f0" })
end)

test("ANC-6.4 bot: it attacks a phalanx on its flank (+2) and not front to front at a loss", function(t)
  -- s-ph (5) faces vertex 3: front 0405, 0404. From 0404 p1 (4) would attack front to front at
  -- -1; m-cav (3) at 0605 attacks it on its flank at 3 - 5 + 2 = 0.
  position(t, { phalanx("p1", "0404"), unit("m-cav", "macedon", "cavalry", "0605", 0, 3),
    unit("s-ph", "seleucid", "phalanx", "0504", 3, 5) })
  t.end_phase("macedon")
  t.eq(t.state().phase, "combat")
  t.eq(answers(t, 2), { "attack m-cav s-ph", "attack m-cav s-ph" })
end)

test("ANC-6.4 bot: with no attack it cannot lose, it ends the combat phase", function(t)
  position(t, { phalanx("p1", "0404"), unit("s-ph", "seleucid", "phalanx", "0504", 3, 5) })
  t.end_phase("macedon")
  t.eq(answers(t, 2), { "end_phase", "end_phase" })
end)
