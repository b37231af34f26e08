-- The bridges variant (rules/demo/variants/bridges.lua): the map changed in play.
-- Run: hexwar test rules/demo   (API: docs/testing.md)

local function on_the_bank(t)
  t.scenario("scenarios/demo", { seed = 1, mods = { "../variants/bridges.lua" } })
  t.setup {
    units = {
      { id = "b1", side = "blue", type = "infantry", ma = 4, strength = 3, at = "0502" },
      { id = "r1", side = "red", type = "infantry", ma = 4, strength = 3, at = "1210" },
    },
  }
end

local function order(name, across) return { command = name, unit = "b1", across = across } end

test("BRIDGE-1: a bridge built over the river makes the crossing cost nothing more", function(t)
  on_the_bank(t)
  t.eq(t.reach("b1")["0602"], 2)
  local events = t.ok("blue", order("bridge", "0602"))
  t.eq(events, { { event = "HexsideChanged", hexside = { "0502", "0602" }, add = { "bridge" } } })
  t.eq(t.state().map_changes, { hexsides = { ["0502/0602"] = { add = { "bridge" } } } })
  t.eq(t.reach("b1")["0602"], 1)
end)

test("BRIDGE-1: a bridge is blown only where there is one, and then the river costs again", function(t)
  on_the_bank(t)
  t.eq(t.expect_refused("blue", order("blow", "0602"), "BRIDGE-1").reason, "no bridge between 0502 and 0602")
  t.ok("blue", order("bridge", "0602"))
  t.ok("blue", order("blow", "0602"))
  t.eq(t.state().map_changes, { hexsides = { ["0502/0602"] = { remove = { "bridge" } } } })
  t.eq(t.reach("b1")["0602"], 2)
end)
