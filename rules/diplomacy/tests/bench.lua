-- Dev benchmark (plain Lua 5.4, not loaded by the host): lua5.4 rules/diplomacy/tests/bench.lua [--variant]
package.path = "rules/?.lua;rules/?/init.lua;" .. package.path
local board = require("diplomacy.standard_board")
local game = require("diplomacy")
if arg[1] == "--variant" then game = require("diplomacy.variants.francqueville") end

-- median of REPEATS timed batches (the machine is shared: single batches are noisy)
local REPEATS = 9
local function bench(name, pos, orders, n)
  game.adjudicate(board, pos, orders) -- warm (compiles the map once)
  local runs = {}
  for r = 1, REPEATS do
    local t0 = os.clock()
    for _ = 1, n do game.adjudicate(board, pos, orders) end
    runs[r] = (os.clock() - t0) / n * 1e6
  end
  table.sort(runs)
  local us = runs[(REPEATS + 1) // 2]
  print(string.format("%-40s %8.2f us/phase (median of %d; min %.2f)", name, us, REPEATS, runs[1]))
  return game.adjudicate(board, pos, orders)
end

-- 1. the opening, all 22 units holding
local pos = game.new_position(board, nil)
local holds = {}
for p, l in pairs(pos.units) do
  holds[p] = {}
  for _, u in ipairs(l) do holds[p][#holds[p] + 1] = u .. " H" end
end
bench("opening, 22 holds", pos, holds, 5000)

-- 2. a busy phase: 41 units, 18 supports, 2 convoys, 3 dislodgements
local busy_units = {
  ENGLAND = { "A YOR", "F NTH", "F NWG", "A LON", "F ENG", "F MAO", "F IRI", "A WAL" },
  FRANCE = { "A BRE", "A BUR", "A PAR", "A GAS", "F WES", "A MAR" },
  GERMANY = { "A MUN", "A RUH", "A BEL", "F KIE", "A BER", "F HOL", "A SIL" },
  RUSSIA = { "F NWY", "A STP", "A MOS", "A WAR", "A UKR", "F SEV" },
  AUSTRIA = { "A VIE", "A BUD", "A GAL", "F TRI", "A SER" },
  ITALY = { "A VEN", "A PIE", "F ROM", "F NAP", "F TYS" },
  TURKEY = { "A BUL", "F BLA", "A CON", "A SMY" },
}
-- Outcome (checked below): BUR dislodged (MUN with 2 supports vs BUR with GAS, MAR's support cut by
-- PIE), GAL dislodged (WAR with UKR and SIL vs GAL with VIE), NWY (unsupported: STP supports MOS)
-- dislodged by the convoyed YOR;
-- LON's convoyed move to BRE bounces (2 vs 2), and WAL, following it, bounces too.
local busy_orders = {
  ENGLAND = { "A YOR - NWY", "F NTH C A YOR - NWY", "F NWG S A YOR - NWY", "A LON - BRE",
              "F ENG C A LON - BRE", "F MAO S A LON - BRE", "F IRI S F MAO", "A WAL - LON" },
  FRANCE = { "A BRE H", "A BUR H", "A PAR S A BRE", "A GAS S A BUR", "F WES - LYO", "A MAR S A BUR" },
  GERMANY = { "A MUN - BUR", "A RUH S A MUN - BUR", "A BEL S A MUN - BUR", "F KIE S F HOL",
              "A BER - MUN", "F HOL S A BEL", "A SIL S A WAR - GAL" },
  RUSSIA = { "F NWY H", "A STP S A MOS", "A MOS S A UKR", "A WAR - GAL", "A UKR S A WAR - GAL", "F SEV H" },
  AUSTRIA = { "A VIE S A GAL", "A BUD - RUM", "A GAL H", "F TRI H", "A SER - BUL" },
  ITALY = { "A VEN - TRI", "A PIE - MAR", "F ROM H", "F NAP H", "F TYS S F ROM" },
  TURKEY = { "A BUL H", "F BLA S A BUL", "A CON S A BUL", "A SMY H" },
}
local bpos = game.new_position(board, { phase = "S1905M", units = busy_units })
local r = bench("busy: 41 units, 18 supports, 2 convoys", bpos, busy_orders, 1000)
local n, s, c, d = 0, 0, 0, #r.dislodged
for _, e in ipairs(r.results) do
  n = n + 1
  if e.order:find(" S ") then s = s + 1 end
  if e.order:find(" C ") then c = c + 1 end
end
print(string.format("  (units %d, supports %d, convoys %d, dislodged %d)", n, s, c, d))
for _, e in ipairs(r.results) do
  if #e.flags > 0 then io.write(e.unit, "{", table.concat(e.flags, ","), "} ") end
end
print()
