#!/usr/bin/env bash
# Times the two positions of benches/diplomacy.rs in the reference Python engine (PyPI
# `diplomacy` 1.1.2), installed in a throwaway virtualenv under /tmp, next to the plain-Lua
# library (lua5.4, if installed). Not run in CI. Usage: benches/diplomacy_reference.sh
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-/tmp/hexwar-diplomacy-ref}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "diplomacy==1.1.2"
fi
"$VENV/bin/python" - <<'PY'
import time
from diplomacy import Game

BUSY_UNITS = {
    "ENGLAND": ["A YOR", "F NTH", "F NWG", "A LON", "F ENG", "F MAO", "F IRI", "A WAL"],
    "FRANCE": ["A BRE", "A BUR", "A PAR", "A GAS", "F WES", "A MAR"],
    "GERMANY": ["A MUN", "A RUH", "A BEL", "F KIE", "A BER", "F HOL", "A SIL"],
    "RUSSIA": ["F NWY", "A STP", "A MOS", "A WAR", "A UKR", "F SEV"],
    "AUSTRIA": ["A VIE", "A BUD", "A GAL", "F TRI", "A SER"],
    "ITALY": ["A VEN", "A PIE", "F ROM", "F NAP", "F TYS"],
    "TURKEY": ["A BUL", "F BLA", "A CON", "A SMY"],
}
BUSY_ORDERS = {
    "ENGLAND": ["A YOR - NWY VIA", "F NTH C A YOR - NWY", "F NWG S A YOR - NWY", "A LON - BRE VIA",
                "F ENG C A LON - BRE", "F MAO S A LON - BRE", "F IRI S F MAO", "A WAL S A LON"],
    "FRANCE": ["A BRE H", "A BUR H", "A PAR H", "A GAS S A BUR", "F WES S A MAR", "A MAR S A BUR"],
    "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR", "A BEL S A MUN - BUR", "F KIE S F HOL",
                "A BER S A MUN", "F HOL S A BEL", "A SIL S A MUN - BUR"],
    "RUSSIA": ["F NWY H", "A STP S F NWY", "A MOS H", "A WAR - GAL", "A UKR S A WAR - GAL", "F SEV H"],
    "AUSTRIA": ["A VIE - TYR", "A BUD H", "A GAL H", "F TRI H", "A SER - BUL"],
    "ITALY": ["A VEN - TRI", "A PIE - MAR", "F ROM H", "F NAP H", "F TYS S F ROM"],
    "TURKEY": ["A BUL H", "F BLA S A BUL", "A CON S A BUL", "A SMY H"],
}

# Orders given -> phase resolved (issue #5): set_orders (which parses and checks the order text)
# and process(), timed together, then process() alone for comparison. Each game is made untimed.
def opening_game():
    return Game(map_name="standard")

def opening_orders(g):
    for p, power in g.powers.items():
        g.set_orders(p, [u + " H" for u in power.units])

def busy_game():
    g = Game(map_name="standard")
    g.clear_units()
    for p, units in BUSY_UNITS.items():
        g.set_units(p, units)
    return g

def busy_orders(g):
    for p, orders in BUSY_ORDERS.items():
        g.set_orders(p, orders)

def bench(name, make, give, n):
    # (one game at a time: 300 live games slow the reference down by a third)
    whole = process = 0.0
    for _ in range(n):
        g = make()
        t0 = time.perf_counter()
        give(g)
        t1 = time.perf_counter()
        g.process()
        t2 = time.perf_counter()
        whole += t2 - t0
        process += t2 - t1
    print(f"python diplomacy 1.1.2  {name:<22} {whole / n * 1e6:10.1f} us/phase orders given -> resolved"
          f" ({process / n * 1e6:.1f} us of it in process())")
    return g

bench("opening_22_holds", opening_game, opening_orders, 300)
g = bench("busy_41_units", busy_game, busy_orders, 300)
dislodged = sum(len(p.retreats) for p in g.powers.values())
print(f"  busy check: {dislodged} dislodged units (expect 3)")
PY
if command -v lua5.4 >/dev/null; then
  echo "plain lua5.4 library (rules/diplomacy/tests/bench.lua; its busy position differs: 22 supports, 1 dislodgement):"
  lua5.4 rules/diplomacy/tests/bench.lua
fi
echo "hexwar through the Rust host: cargo bench --bench diplomacy"
