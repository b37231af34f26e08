-- Melee in rules/ancients (lib.facing `attack`): a phalanx attacks only into its 2 front hexes
-- (ANC-6.4) and an attack on a flank gets the declared bonus (+2). Run: hexwar test rules/ancients
-- Flat map, odd columns shifted down: from 0404 the edges 0..5 lead to 0504 0405 0304 0303
-- 0403 0503; from 0504 to 0605 0505 0405 0404 0503 0604.

local function position(t, units)
  t.scenario("scenarios/ancients", { seed = 3 })
  t.setup { units = units }
  t.end_phase("macedon") -- to the Macedonian combat phase
  t.eq(t.state().phase, "combat")
end

local function unit(id, side, type, at, facing, strength)
  return { id = id, side = side, type = type, ma = 3, strength = strength, at = at, facing = facing }
end

local function melee(events)
  for _, ev in ipairs(events) do
    if ev.event == "Custom" and ev.name == "MeleeResolved" then return ev.data end
  end
end

local function attack(unit, target) return { command = "attack", unit = unit, target = target } end

test("ANC-6.4: a phalanx attacks only into its two front hexes", function(t)
  -- m-ph faces vertex 0: front 0503, 0504. s-lt at 0304 is on its flank.
  position(t, {
    unit("m-ph", "macedon", "phalanx", "0404", 0, 4),
    unit("s-lt", "seleucid", "light", "0304", 0, 1),
    unit("s-ph", "seleucid", "phalanx", "0504", 3, 4),
  })
  local r = t.expect_refused("macedon", attack("m-ph", "s-lt"), "ANC-6.4")
  t.eq(r.reason, "s-lt is not in the front of m-ph")
  -- s-ph faces vertex 3: front 0405, 0404, so this attack is front to front.
  local m = melee(t.ok("macedon", attack("m-ph", "s-ph")))
  t.eq({ m.flank, m.total }, { false, m.roll + 4 - 4 })
end)

test("ANC-6.4: attacking a phalanx on its flank gets the bonus", function(t)
  -- m-cav at 0605 fronts all round (TA-R11); 0605 is not in s-ph's front (0405, 0404).
  position(t, {
    unit("m-cav", "macedon", "cavalry", "0605", 3, 3),
    unit("s-ph", "seleucid", "phalanx", "0504", 3, 4),
  })
  local m = melee(t.ok("macedon", attack("m-cav", "s-ph")))
  t.eq({ m.flank, m.total }, { true, m.roll + 3 + 2 - 4 })
end)
