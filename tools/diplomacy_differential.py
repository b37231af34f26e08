"""Differential test of hexwar's Diplomacy adjudication against the reference Python engine.

Makes random spring positions (12-30 units anywhere on the standard map) with random orders
(holds, moves, long moves by convoy with or without VIA, supports to hold and to move, convoys),
adjudicates each with `hexwar play scenarios/diplomacy --json` and with PyPI `diplomacy` 1.1.2,
and prints every position where the boards after the phase, or the dislodged units and their
retreat options, differ. Not run in CI.

Run with the reference's virtualenv (benches/diplomacy_reference.sh makes it) after
`cargo build --release`:

    /tmp/hexwar-diplomacy-ref/bin/python tools/diplomacy_differential.py --cases 200 --seed 1
    /tmp/hexwar-diplomacy-ref/bin/python tools/diplomacy_differential.py --adjustments --cases 200

`--retreats` plays the retreat phase that follows too (each unit that can retreat retreats to a
random option or disbands). `--dense` makes the positions and orders of
tools/francqueville_differential.py instead (dense clusters of a few powers, head-to-heads,
supported attacks: many more dislodgements, so many more retreat phases). `--adjustments` makes
winter positions instead (builds, disbands, missing disbands: civil disorder).

Known differences, where hexwar follows the DATC and the reference does not (docs/diplomacy.md):
an army next to its destination whose own fleet is ordered to convoy it tries the convoy and
fails when the convoy is disrupted (DATC 4.A.3 d, 6.H.12), where the reference falls back to the
land route unless the army was ordered VIA; a power's support to a move onto its own unit is left out of that move's defend strength in a
head-to-head by the reference, and counted by it when it judges whether a convoying fleet so
attacked is dislodged (the DATC counts it in the defend strength and never to dislodge the
supporter's own unit); after a dislodgement by a convoyed army the reference lists the retreat
options unfiltered (occupied provinces, provinces left empty by a standoff, the attacker's origin
among them) and lets units retreat there; a support naming the other coast of a move's
destination counts in the reference (DATC 6.B.9: it does not). Not made by these positions, and
listed in docs/diplomacy.md: an army's retreat or build written with a coast (`A GAS R SPA/NC`,
`A STP/NC B`) is read without it by hexwar, as 6.B.12 reads a move, and void in the reference.

A position whose boards differ is checked against those departures, not left to the eye: the
reference, given each such army holding, must end with hexwar's board once the retreat options
the rule forbids are struck out;
where supports against the supporter's own unit were given, both engines play it again with those
supporters holding and must agree. Positions the departures do not explain are printed in full;
the summary counts both. `--all` names the explained ones too.

`--flags` also compares the orders' result flags wherever the boards agree, as the DATC cases are
checked: the reference's flags must be among hexwar's, and hexwar's empty where the reference's
are (hexwar words them as the reference does, docs/diplomacy.md; an order the reference drops as
impossible counts as `void`, and it adds `void` to a convoy it flags `no convoy`). Differences the
departures above explain (the position played again as for the boards) are counted apart, and
so is a support to a VIA move onto the supporter's own unit, which the reference does not
recognise as one; each other kind of difference is printed with its first cases.
"""

import argparse
import json
import os
import random
import subprocess
import tempfile
from collections import Counter

from diplomacy import Game

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
MAP = Game(map_name="standard").map
TYPE = {loc.upper(): MAP.loc_type[loc] for loc in MAP.locs}
LOCS = sorted(loc for loc, t in TYPE.items() if t != "SHUT")
PROVINCES = sorted(set(loc[:3] for loc in LOCS))


def coasts(province):
    return [loc for loc in LOCS if loc.startswith(province + "/")]


def units_for(province):
    """Every unit that may stand in the province: an army on land, a fleet at sea or on a coast."""
    kind = TYPE[province]
    out = []
    if kind in ("LAND", "COAST"):
        out.append("A " + province)
    if kind == "WATER":
        out.append("F " + province)
    if kind == "COAST":
        out += ["F " + c for c in coasts(province)] or ["F " + province]
    return out


def neighbours(unit):
    kind, loc = unit.split()
    return [
        dest
        for dest in LOCS
        if dest[:3] != loc[:3]
        and MAP.abuts(kind, loc, "-", dest)
        and not (kind == "A" and "/" in dest)
    ]


def random_position(rng, n):
    units = {}
    for i, province in enumerate(rng.sample(PROVINCES, n)):
        units.setdefault(POWERS[i % 7], []).append(rng.choice(units_for(province)))
    return units


def by_power(given):
    """{unit: (power, order)} as {power: [order, ...]}, in the order given."""
    orders = {}
    for power, order in given.values():
        orders.setdefault(power, []).append(order)
    return orders


def random_orders(rng, units):
    everyone = [(p, u) for p, us in units.items() for u in us]
    rng.shuffle(everyone)
    standing = {u.split()[1][:3]: u for _, u in everyone}
    given, moves = {}, {}
    for power, unit in everyone:
        roll = rng.random()
        options = neighbours(unit)
        if roll < 0.45 and options:
            moves[unit] = rng.choice(options)
            given[unit] = (power, f"{unit} - {moves[unit]}")
        elif roll < 0.55 and unit[0] == "A" and TYPE[unit[2:5]] == "COAST":
            far = rng.choice([q for q in PROVINCES if TYPE[q] == "COAST" and q != unit[2:5]])
            moves[unit] = far
            via = " VIA" if rng.random() < 0.3 else ""
            given[unit] = (power, f"{unit} - {far}{via}")
    for power, unit in everyone:
        if unit in given:
            continue
        roll = rng.random()
        kind, loc = unit.split()
        if kind == "F" and TYPE[loc] == "WATER" and roll < 0.5:
            armies = [u for _, u in everyone if u[0] == "A" and u in moves]
            if armies:
                army = rng.choice(armies)
                given[unit] = (power, f"{unit} C {army} - {moves[army][:3]}")
                continue
        near = [standing[d[:3]] for d in neighbours(unit) if d[:3] in standing]
        if roll < 0.8 and near:
            other = rng.choice(near)
            if other in moves and rng.random() < 0.7:
                given[unit] = (power, f"{unit} S {other} - {moves[other]}")
            else:
                given[unit] = (power, f"{unit} S {other}")
        else:
            given[unit] = (power, f"{unit} H")
    return by_power(given)


def sea_neighbours(sea):
    return sorted({d[:3] for d in neighbours("F " + sea) if TYPE[d[:3]] == "WATER"})


def shores(sea):
    return sorted({d[:3] for d in neighbours("F " + sea) if TYPE[d[:3]] == "COAST"})


SEAS = sorted(p for p in PROVINCES if TYPE[p] == "WATER")


def convoy_position(rng):
    """Convoy country: a connected group of 2-5 seas, fleets of 2-4 powers on most of them,
    armies of those powers on 3-6 of their shores, and a few fleets and armies more on the
    shores and the seas around (to attack the convoying fleets, to support and to be attacked),
    so that convoys, their disruption and their paradoxes are the rule."""
    group = [rng.choice(SEAS)]
    for _ in range(rng.randint(1, 4)):
        around = sorted({q for p in group for q in sea_neighbours(p)} - set(group))
        if around:
            group.append(rng.choice(around))
    powers = rng.sample(POWERS, rng.randint(2, 4))
    units, taken = {}, set()

    def place(province, kind):
        if province in taken:
            return
        taken.add(province)
        unit = rng.choice([u for u in units_for(province) if u[0] == kind] or units_for(province))
        units.setdefault(rng.choice(powers), []).append(unit)

    for sea in group:
        if rng.random() < 0.85:
            place(sea, "F")
    coast = sorted({c for sea in group for c in shores(sea)})
    for province in rng.sample(coast, min(len(coast), rng.randint(3, 6))):
        place(province, "A")
    outer = sorted({q for p in group for q in sea_neighbours(p)} - set(group))
    for province in rng.sample(outer, min(len(outer), rng.randint(0, 3))):
        place(province, "F")
    for province in rng.sample(coast, min(len(coast), rng.randint(1, 4))):
        place(province, "F" if rng.random() < 0.7 else "A")
    return units


def convoy_orders(rng, units):
    """Armies on the shores move across the fleets: to a shore of a sea that a chain of fleets
    (of any power) reaches from theirs, and the fleets of that chain are ordered to convoy them,
    each with a fair chance to be missing (some `VIA`, a few moves to adjacent shores or to the
    wrong place). The other units attack the convoying fleets (with support), support them,
    attack the landing places or support those attacks, or hold."""
    everyone = [(p, u) for p, us in units.items() for u in us]
    rng.shuffle(everyone)
    standing = {u.split()[1][:3]: u for _, u in everyone}
    power_of = {u: p for p, u in everyone}
    fleets = {u.split()[1]: u for _, u in everyone if u[0] == "F" and TYPE[u.split()[1]] == "WATER"}
    given, moves = {}, {}
    for power, unit in everyone:
        loc = unit.split()[1]
        if unit[0] != "A" or TYPE[loc] != "COAST" or rng.random() < 0.15:
            continue
        # the fleets' seas reachable from the army's shore, each with the sea it was reached from
        came_from = {sea: None for sea in fleets if loc in shores(sea)}
        todo = list(came_from)
        while todo:
            sea = todo.pop(0)
            for q in sea_neighbours(sea):
                if q in fleets and q not in came_from:
                    came_from[q] = sea
                    todo.append(q)
        landings = sorted({(c, sea) for sea in came_from for c in shores(sea) if c != loc})
        near = sorted({d[:3] for d in neighbours(unit)})
        roll = rng.random()
        if landings and roll < 0.85:
            # (often onto a foreign fleet: the paradoxes want a supporter where the army lands)
            onto_fleets = [
                (c, sea) for c, sea in landings
                if c in standing and standing[c][0] == "F" and power_of[standing[c]] != power
            ]
            dest, last = rng.choice(onto_fleets if onto_fleets and rng.random() < 0.6 else landings)
            chain = []
            while last is not None:
                chain.append(last)
                last = came_from[last]
            for sea in chain:
                fleet = fleets[sea]
                if fleet not in given and rng.random() < 0.85:
                    given[fleet] = (power_of[fleet], f"{fleet} C {unit} - {dest}")
        elif near and roll < 0.95:
            dest = rng.choice(near)
        else:
            dest = rng.choice(PROVINCES)
        moves[unit] = dest
        via = " VIA" if rng.random() < 0.25 else ""
        given[unit] = (power, f"{unit} - {dest}{via}")
    convoying = sorted(u for u, (_, o) in given.items() if " C " in o)
    for power, unit in everyone:
        if unit in given:
            continue
        reach = sorted({d[:3] for d in neighbours(unit)})
        targets = [f for f in convoying if f.split()[1][:3] in reach]
        attacks = [m for m, d in moves.items() if d[:3] in reach and m != unit]
        roll = rng.random()
        if roll < 0.45 and targets:
            target = rng.choice(targets)
            dest = [d for d in neighbours(unit) if d[:3] == target.split()[1][:3]][0]
            moves[unit] = dest
            given[unit] = (power, f"{unit} - {dest}")
        elif roll < 0.65 and targets:
            given[unit] = (power, f"{unit} S {rng.choice(targets)}")
        elif roll < 0.85 and attacks:
            other = rng.choice(attacks)
            given[unit] = (power, f"{unit} S {other} - {moves[other]}")
        elif roll < 0.95 and reach:
            dest = rng.choice(neighbours(unit))
            moves[unit] = dest
            given[unit] = (power, f"{unit} - {dest}")
        else:
            given[unit] = (power, f"{unit} H")
    # supports to the attacks on convoying fleets, by units that hold so far and, most often, by
    # units standing where a convoyed army lands (the convoy paradoxes, DATC 6.F.14-24)
    landings = {d[:3] for m, d in moves.items() if m[0] == "A"}
    for power, unit in everyone:
        order = given[unit][1]
        lands_here = unit.split()[1][:3] in landings and unit not in moves
        if not order.endswith(" H") and not (lands_here and rng.random() < 0.7):
            continue
        reach = {d[:3] for d in neighbours(unit)}
        on_fleets = [m for m, d in moves.items() if d[:3] in reach and m != unit
                     and any(d[:3] == f.split()[1][:3] for f in convoying)]
        if on_fleets and rng.random() < 0.8:
            other = rng.choice(sorted(on_fleets))
            given[unit] = (power, f"{unit} S {other} - {moves[other]}")
    return by_power(given)


SPLIT = sorted(p for p in PROVINCES if coasts(p))


def coast_position(rng):
    """Around a split-coast province (BUL, SPA, STP): that province and most of its neighbours
    occupied by fleets and armies of 2-4 powers, fleets on either coast."""
    centre = rng.choice(SPLIT)
    area = sorted({centre} | {d[:3] for u in units_for(centre) for d in neighbours(u)})
    powers = rng.sample(POWERS, rng.randint(2, 4))
    units = {}
    for province in rng.sample(area, max(3, int(len(area) * rng.uniform(0.5, 0.9)))):
        units.setdefault(rng.choice(powers), []).append(rng.choice(units_for(province)))
    return units


def coast_orders(rng, units):
    """Moves to a coast named, to the wrong coast or with the coast left out, supports naming the
    supported unit's coast or not, attacks on the split-coast province from both seas."""
    everyone = [(p, u) for p, us in units.items() for u in us]
    rng.shuffle(everyone)
    moves, given = {}, {}
    for power, unit in everyone:
        options = neighbours(unit)
        roll = rng.random()
        if roll < 0.55 and options:
            dest = rng.choice(options)
            if "/" in dest and rng.random() < 0.3:
                dest = dest[:3] if rng.random() < 0.5 else rng.choice(coasts(dest[:3]))
            moves[unit] = dest
            given[unit] = (power, f"{unit} - {dest}")
    for power, unit in everyone:
        if unit in given:
            continue
        reach = {d[:3] for d in neighbours(unit)}
        supportable = [m for m, d in moves.items() if d[:3] in reach and m != unit]
        standing = [u for _, u in everyone if u != unit and u.split()[1][:3] in reach]
        roll = rng.random()
        if roll < 0.5 and supportable:
            other = rng.choice(sorted(supportable))
            dest = moves[other]
            if "/" in dest and rng.random() < 0.5:
                dest = dest[:3]
            shown = other if rng.random() < 0.7 else other.split("/")[0]
            given[unit] = (power, f"{unit} S {shown} - {dest}")
        elif roll < 0.8 and standing:
            other = rng.choice(sorted(standing))
            shown = other if rng.random() < 0.7 else other.split("/")[0]
            given[unit] = (power, f"{unit} S {shown}")
        else:
            given[unit] = (power, f"{unit} H")
    return by_power(given)


def ring(rng, length):
    """A cycle of `length` units, each able to move into the next one's province (the last into
    the first's), as a list of (unit, destination location), or None when the walk did not close.
    Some steps are long moves of coastal armies across one sea (convoyed rings, DATC 6.C.4-7)."""
    start_unit = rng.choice([u for p in PROVINCES for u in units_for(p)])
    steps, unit = [], start_unit
    seen = {start_unit.split()[1][:3]}
    for k in range(length):
        kind, loc = unit.split()
        if k == length - 1:
            first = start_unit.split()[1][:3]
            hits = [d for d in neighbours(unit) if d[:3] == first]
            if not hits:
                return None
            steps.append((unit, hits[0] if kind == "F" else first))
            return steps
        options = [d for d in neighbours(unit) if d[:3] not in seen]
        if kind == "A" and TYPE[loc] == "COAST" and rng.random() < 0.3:
            across = sorted({c for sea in SEAS if loc in shores(sea) for c in shores(sea)} - seen - {loc})
            if across:
                options = across
        if not options:
            return None
        dest = rng.choice(options)
        steps.append((unit, dest))
        seen.add(dest[:3])
        unit = rng.choice(units_for(dest[:3]))
    return None


def ring_position_and_orders(rng):
    """One or two rings of moves (3-5 units of 2-3 powers; convoyed steps get their fleets), units
    around them attacking a ring province or supporting a ring move, sometimes a unit cutting such
    a support."""
    units, given, moves, taken = {}, {}, {}, set()
    powers = rng.sample(POWERS, rng.randint(2, 3))
    for _ in range(rng.choice((1, 1, 2))):
        for _ in range(50):
            steps = ring(rng, rng.randint(3, 5))
            if steps and not any(u.split()[1][:3] in taken for u, _ in steps):
                break
        else:
            continue
        taken |= {unit.split()[1][:3] for unit, _ in steps}
        for unit, dest in steps:
            power = rng.choice(powers)
            units.setdefault(power, []).append(unit)
            moves[unit] = dest
            given[unit] = (power, f"{unit} - {dest}")
            loc = unit.split()[1]
            if unit[0] == "A" and dest[:3] not in {d[:3] for d in neighbours(unit)}:
                # a convoyed step: a fleet of the army's power on a sea both shores border
                seas = [sea for sea in SEAS if loc in shores(sea) and dest[:3] in shores(sea) and sea not in taken]
                if seas:
                    sea = rng.choice(seas)
                    taken.add(sea)
                    fleet = "F " + sea
                    units.setdefault(power, []).append(fleet)
                    given[fleet] = (power, f"{fleet} C {unit} - {dest[:3]}")
    around = sorted({d[:3] for u in list(moves) for d in neighbours(u)} - taken)
    for province in rng.sample(around, min(len(around), rng.randint(1, 5))):
        unit = rng.choice(units_for(province))
        power = rng.choice(POWERS)
        taken.add(province)
        units.setdefault(power, []).append(unit)
        reach = {d[:3]: d for d in neighbours(unit)}
        ring_targets = sorted(d for d in moves.values() if d[:3] in reach)
        supportable = sorted(m for m, d in moves.items() if d[:3] in reach)
        roll = rng.random()
        if roll < 0.4 and ring_targets:
            dest = reach[rng.choice(ring_targets)[:3]]
            given[unit] = (power, f"{unit} - {dest}")
        elif roll < 0.8 and supportable:
            other = rng.choice(supportable)
            given[unit] = (power, f"{unit} S {other} - {moves[other]}")
        elif reach:
            given[unit] = (power, f"{unit} - {rng.choice(sorted(reach.values()))}")
        else:
            given[unit] = (power, f"{unit} H")
    return units, by_power(given)


HOMES = {p: [h.upper() for h in MAP.homes[p]] for p in POWERS}
CENTERS = sorted(c.upper() for c in MAP.scs)


def random_adjustment(rng):
    """Units and centres that call for builds and disbands; some orders given, some missing (the
    missing disbands are civil disorder)."""
    units = random_position(rng, rng.randint(14, 30))
    free = CENTERS[:]
    rng.shuffle(free)
    centers = {}
    for power in POWERS:
        n = max(0, len(units.get(power, [])) + rng.randint(-3, 3))
        centers[power], free = sorted(free[:n]), free[n:]
    busy = {u.split()[1][:3] for us in units.values() for u in us}
    orders = {}
    for power in POWERS:
        have, own = units.get(power, []), centers[power]
        if len(have) > len(own):
            doomed = rng.sample(have, rng.randint(0, len(have) - len(own)))
            orders[power] = [f"{u} D" for u in doomed]
        else:
            sites = [h for h in HOMES[power] if h in own and h not in busy]
            picks = rng.sample(sites, min(len(sites), rng.randint(0, len(own) - len(have))))
            orders[power] = [rng.choice([u for u in units_for(h)]) + " B" for h in picks]
    return units, centers, orders


def reference_board(units, orders, centers=None, retreat_rng=None, given_retreats=None):
    """The board after the phase (and, with `retreat_rng`, after a retreat phase whose orders it
    draws: a random option or a disband for every unit that can retreat; with `given_retreats`,
    after one with those orders), and the retreat orders."""
    game = Game(map_name="standard")
    game.clear_units()
    if centers is not None:
        game.clear_centers()
        game.set_current_phase("W1901A")
        for power, cs in centers.items():
            game.set_centers(power, cs)
    for power, us in units.items():
        game.set_units(power, us)
    for power, os_ in orders.items():
        game.set_orders(power, os_)
    # (the reference drops an order it finds impossible, and the unit holds unordered: its tests
    # count that as `void`, and so does this comparison)
    accepted = {" ".join(o.split()[:2]) for p in game.powers for o in game.get_orders(p)}
    given = {" ".join(o.split()[:2]) for os_ in orders.values() for o in os_}
    game.process()
    # (the reference's OK result reads as the empty string: no flag)
    flags = {
        u: sorted(str(f) for f in fs if str(f))
        for u, fs in game.result_history.last_value().items()
    }
    for u in given - accepted:
        if u in flags and "void" not in flags[u]:
            flags[u] = sorted(flags[u] + ["void"])
    retreat_orders = {}
    if given_retreats and game.get_current_phase().endswith("R"):
        retreat_orders = given_retreats
        for p, os_ in retreat_orders.items():
            game.set_orders(p, os_)
        game.process()
    elif retreat_rng is not None and game.get_current_phase().endswith("R"):
        for p, power in game.powers.items():
            for u, options in sorted(power.retreats.items()):
                if options and retreat_rng.random() < 0.8:
                    retreat_orders.setdefault(p, []).append(f"{u} R {retreat_rng.choice(sorted(options))}")
                else:
                    retreat_orders.setdefault(p, []).append(f"{u} D")
        for p, os_ in retreat_orders.items():
            game.set_orders(p, os_)
        game.process()
    board = sorted(f"{p} {u}" for p, power in game.powers.items() for u in power.units)
    retreats = sorted(
        f"{p} {u} -> {' '.join(sorted(r))}"
        for p, power in game.powers.items()
        for u, r in power.retreats.items()
    )
    return board + retreats, retreat_orders, flags


def toml_list(items):
    return "[" + ", ".join(json.dumps(x) for x in items) + "]"


def hexwar_board(hexwar, root, workdir, units, orders, centers=None, retreat_orders=None):
    setup = os.path.join(workdir, "setup.toml")
    given = os.path.join(workdir, "orders.toml")
    phase = "S1901M" if centers is None else "W1901A"
    with open(setup, "w") as f:
        f.write(f'phase = "{phase}"\n[units]\n')
        for power, us in units.items():
            f.write(f"{power} = {toml_list(us)}\n")
        if centers is not None:
            f.write("[centers]\n")
            for power, cs in centers.items():
                f.write(f"{power} = {toml_list(cs)}\n")
    with open(given, "w") as f:
        f.write(f'[[phase]]\nphase = "{phase}"\n[phase.orders]\n')
        for power, os_ in orders.items():
            f.write(f"{power} = {toml_list(os_)}\n")
        if retreat_orders:
            f.write('[[phase]]\nphase = "S1901R"\n[phase.orders]\n')
            for power, os_ in retreat_orders.items():
                f.write(f"{power} = {toml_list(os_)}\n")
    run = subprocess.run(
        [hexwar, "play", "scenarios/diplomacy", "--setup", setup, "--orders", given, "--json"],
        capture_output=True, text=True, cwd=root,
    )
    if run.returncode != 0:
        raise RuntimeError(run.stderr)
    # (the last phase played: orders for a retreat phase hexwar passed over are reported skipped)
    phases = [p for p in json.loads(run.stdout) if not p.get("skipped")]
    phase = phases[-1]
    board = sorted(f"{p} {u}" for p, us in phase["units"].items() for u in us)
    # (a dislodged unit with nowhere to go is disbanded at once by both; hexwar lists it as
    # dislodged with no retreats, the reference not at all: it is left out)
    retreats = sorted(
        f"{d['power']} {d['unit']} -> {' '.join(sorted(d['retreats']))}"
        for d in phase["dislodged"]
        if d["retreats"]
    )
    later = [r for p in phases[1:] for r in p.get("results", [])]
    return board + retreats, phases[0]["results"], later


INTENT = (
    "an army next to its destination whose own fleet convoys it tries the convoy and fails when"
    " it is disrupted (DATC 4.A.3 d, 6.H.12); the reference moves it over land"
)


def intent_departures(orders, results):
    """The armies hexwar keeps home where the reference moves them over land, as a set of
    (power, order): an army next to its destination by land, ordered without VIA, that a fleet of
    its own power convoys (the intent to convoy, DATC 4.A.3 d), whose convoy failed (`no convoy`:
    the fleets were ordered but the chain was broken). The DATC's preferred choice d has such an
    army try the convoy; the reference falls back to the land route unless it ordered VIA."""
    flags = {(r["power"], r["order"]): r["flags"] for r in results}
    found = set()
    for p, os_ in orders.items():
        for o in os_:
            if not o.startswith("A ") or " - " not in o or o.endswith(" VIA") or " S " in o or " C " in o:
                continue
            unit, dest = o.split(" - ")[0], o.split(" - ")[1].split()[0]
            if dest[:3] not in {d[:3] for d in neighbours(unit)}:
                continue
            if "no convoy" in flags.get((p, o), []) and any(
                q.startswith("F ") and q.split(" C ", 1)[-1] == f"{unit} - {dest}" for q in os_
            ):
                found.add((p, o))
    return found


def holding(orders, chosen):
    """`orders` with each (power, order) of `chosen` replaced by a hold of its unit."""
    return {
        p: [" ".join(o.split()[:2]) + " H" if (p, o) in chosen else o for o in os_]
        for p, os_ in orders.items()
    }


def self_attack_supports(units, orders):
    """Supports that the reference weighs otherwise than the DATC, as {(power, order): reason}:
    a power's support to a move onto its own unit. The DATC never counts it to dislodge that unit
    but counts it in the move's defend strength in a head-to-head; the reference leaves it out
    of the defend strength, and counts it when it judges whether a convoying fleet so attacked is
    dislodged (the convoy is then disrupted)."""
    owner = {u.split()[1][:3]: p for p, us in units.items() for u in us}
    found = {}
    for p, os_ in orders.items():
        for o in os_:
            if " S " in o and " - " in o:
                dest = o.split(" S ", 1)[1].split(" - ", 1)[1]
                if owner.get(dest.split()[0][:3]) == p:
                    found[(p, o)] = "a support against the supporter's own unit"
    return found


DESTINATION_SUPPORT = (
    "the reference calls a convoy broken when the unit in the army's destination supports a"
    " convoying fleet's hold, though that support is cut whatever the convoy does (X.9, X.10)"
)


def destination_supports(orders, results):
    """Supports to hold that hexwar reports cut, given to a fleet convoying an army by the unit
    in the army's destination, as {(power, order): reason}. The reference's paradox test calls
    such a convoy broken; a cut support gives as much as a hold, so with those supporters holding
    hexwar must end with the same board and the reference must agree with it."""
    flags = {(r["power"], r["order"]): r["flags"] for r in results}
    destinations = {}
    for os_ in orders.values():
        for o in os_:
            if " C " in o and " - " in o:
                destinations.setdefault(o.split()[1][:3], set()).add(o.split(" - ")[-1].split()[0][:3])
    found = {}
    for p, os_ in orders.items():
        for o in os_:
            if " S " not in o or " - " in o or "cut" not in flags.get((p, o), []):
                continue
            target = o.split(" S ", 1)[1].split()
            fleet = target[1] if target[0] in ("A", "F") and len(target) > 1 else target[0]
            if o.split()[1][:3] in destinations.get(fleet[:3], ()):
                found[(p, o)] = DESTINATION_SUPPORT
    return found


UNFILTERED_OPTIONS = (
    "the reference lists unfiltered retreat options after a convoyed attack (occupied provinces,"
    " standoffs) and lets units retreat there"
)


def without_unfiltered_options(board, results):
    """`board` with the retreat options the standard rule forbids struck out: provinces that
    hold a unit after the phase, and provinces left empty by a standoff (the destination of a
    bounced move in `results`). After a dislodgement by a convoyed army the reference lists them
    (the attacker's origin even after a standoff there, any other standoff too)."""
    standing = [line for line in board if " -> " not in line]
    occupied = {line.split()[2][:3] for line in standing}
    # (a move that lost a head-to-head battle bounced, but left no standoff where it was going:
    # the winner moved out of there into the loser's province)
    won = {
        (r["order"].split()[1][:3], r["order"].split(" - ", 1)[1].split()[0][:3])
        for r in results
        if not r["flags"] and " - " in r["order"] and " S " not in r["order"] and " C " not in r["order"]
    }
    standoffs = {
        r["order"].split(" - ", 1)[1].split()[0][:3]
        for r in results
        if "bounce" in r["flags"] and " - " in r["order"] and " S " not in r["order"]
        and (r["order"].split(" - ", 1)[1].split()[0][:3], r["order"].split()[1][:3]) not in won
    }
    retreats = []
    for line in board:
        if " -> " in line:
            unit, options = line.split(" -> ")
            kept = [o for o in options.split() if o[:3] not in occupied | standoffs]
            if kept:
                retreats.append(f"{unit} -> {' '.join(kept)}")
    return standing + sorted(retreats)


def explained(hexwar, root, workdir, units, orders, centers, retreat_orders, ours, results, later):
    """Why the boards differ, when the known departures account for it, else None (to be looked
    at). The reference, given each army of intent_departures holding, must end with hexwar's
    board once the retreat options the rule forbids are struck out (and a retreat into one of
    them, which hexwar voids, disbanded, if that is what differs); if it does not and supports against the supporter's own unit were given, both
    engines play the position again with those supporters holding and must then agree."""

    def agree(given, our_board, our_results, our_later):
        """The reasons, if the reference given `given` (and hexwar's void retreats in
        `our_later` disbanded) ends with `our_board`; None otherwise."""
        kept_home = intent_departures(given, our_results)
        moved = holding(given, kept_home)
        voided = {(r["power"], r["order"]) for r in our_later if "void" in r["flags"]}
        if retreat_orders and not our_later:
            # hexwar held no retreat phase: every unit it dislodged had nowhere to go
            voided = {(p, o) for p, os_ in retreat_orders.items() for o in os_}
        retreats = {
            p: [f"{o.split(' R ')[0]} D" if (p, o) in voided else o for o in os_]
            for p, os_ in (retreat_orders or {}).items()
        }
        theirs, _, _ = reference_board(units, moved, centers, None, retreats)
        reasons = [INTENT] * len(kept_home)
        if theirs != our_board or retreats != (retreat_orders or {}):
            if without_unfiltered_options(theirs, our_results) != our_board:
                return None
            reasons.append(UNFILTERED_OPTIONS)
        return reasons

    reasons = agree(orders, ours, results, later)
    if reasons:
        return sorted(reasons)
    for supports in (self_attack_supports(units, orders), destination_supports(orders, results)):
        if not supports:
            continue
        held = holding(orders, supports)
        ours_again, results_again, later_again = hexwar_board(
            hexwar, root, workdir, units, held, centers, retreat_orders
        )
        # (a cut support held changes nothing for hexwar: its board must stay as it was)
        cut_held = DESTINATION_SUPPORT in supports.values()
        if cut_held and ours_again != ours:
            continue
        reasons = agree(held, ours_again, results_again, later_again)
        if reasons is not None:
            return sorted(reasons + list(supports.values()))
    return None


def order_kind(order):
    if " C " in order:
        return "convoy"
    if " S " in order:
        return "support to move" if " - " in order else "support to hold"
    return "move" if " - " in order else "hold"


def flag_differences(units, their_flags, results):
    """The orders whose result flags differ, as [(kind, order, theirs, ours)], set aside what
    only words the same outcome otherwise (`void` beside `no convoy` in the reference, `disrupted`
    beside `dislodged` in hexwar)."""
    owner = {u: p for p, us in units.items() for u in us}
    out = []
    for r in results:
        unit = r["unit"]
        if owner.get(unit) != r["power"] or unit not in their_flags:
            continue
        theirs, ours = set(their_flags[unit]), set(r["flags"])
        if "no convoy" in theirs:
            theirs.discard("void")
        # (as the DATC cases are checked: the reference's flags must be among hexwar's, and
        # hexwar's empty where the reference's are)
        if (not theirs and ours) or not theirs <= ours:
            out.append((order_kind(r["order"]), r["order"], sorted(theirs), sorted(ours)))
    return out


VIA_SELF_SUPPORT = (
    "the reference misses a support onto the supporter's own unit when the move is ordered VIA"
    " (it reads VIA as the destination), so does not flag it void"
)
SELF_SUPPORT_FLAGS = (
    "flags of a position with a support against the supporter's own unit, which the reference"
    " counts when it judges a convoying fleet (they agree with those supports held)"
)


def explained_flags(hexwar, root, workdir, units, orders, centers, diffs, *results_of):
    """Why the flags in `diffs` differ, as {reason: orders}, when the known departures account
    for all of them, else None."""
    owner = {u.split()[1][:3]: p for p, us in units.items() for u in us}
    power_of = {o: p for p, os_ in orders.items() for o in os_}
    via = {" ".join(o.split()[:2]) + " - " + o.split(" - ")[1].split()[0]
           for os_ in orders.values() for o in os_ if o.endswith(" VIA")}
    rest = []
    reasons = Counter()
    for kind, order, theirs, ours in diffs:
        if (kind == "support to move" and theirs == [] and ours == ["void"]
                and order.split(" S ", 1)[1] in via
                and owner.get(order.split(" - ")[-1][:3]) == power_of.get(order)):
            reasons[VIA_SELF_SUPPORT] += 1
        else:
            rest.append(order)
    if rest:
        # the intent departure: the reference, given those armies holding, must agree elsewhere
        kept_home = intent_departures(orders, results_of[0])
        if kept_home:
            held = holding(orders, kept_home)
            _, _, their_flags = reference_board(units, held, centers)
            # (those armies, and the orders that name them, set aside)
            armies = {o.split(" - ")[0] for (_, o) in kept_home}
            left = flag_differences(units, their_flags, [
                r for r in results_of[0]
                if r["unit"] not in armies and not any(f" {a} " in r["order"] + " " for a in armies)
            ])
            if not left:
                reasons[INTENT] += len(rest)
                return reasons
    if rest:
        for supports, reason in (
            (self_attack_supports(units, orders), SELF_SUPPORT_FLAGS),
            (destination_supports(orders, results_of[0]), DESTINATION_SUPPORT),
        ):
            if not supports:
                continue
            held = holding(orders, supports)
            theirs, _, their_flags = reference_board(units, held, centers)
            ours, results, _ = hexwar_board(hexwar, root, workdir, units, held, centers)
            held_units = {" ".join(o.split()[:2]) for (_, o) in supports}
            if (theirs != ours and without_unfiltered_options(theirs, results) != ours) or flag_differences(
                units, their_flags, [r for r in results if r["unit"] not in held_units]
            ):
                continue
            reasons[reason] += len(rest)
            return reasons
        return None
    return reasons


def known_departure(order, power, owner):
    """Whether `order` may play one of the known departures, where the two engines part and a
    whole game would go on from different boards: a convoy of an army of one's own power to an
    adjacent province (the intent to convoy: the convoy may be disrupted), a support to a move
    onto one's own unit, or a support naming a coast (DATC 6.B.9: it supports a move to that
    coast only; the reference also counts it for a move to the other coast)."""
    if " C A " in order:
        army, dest = order.split(" C ", 1)[1].split(" - ")
        return owner.get(army[2:5]) == power and dest[:3] in {d[:3] for d in neighbours(army)}
    if " S " in order and " - " in order:
        # (a support naming a coast: the reference matches it to a move to the other coast)
        return owner.get(order.split(" - ")[-1][:3]) == power or "/" in order.split(" - ")[-1]
    return False


def random_game(rng, phases):
    """A game from the standard opening played by the reference for up to `phases` phases, each
    unit (or build site, or retreating unit) given one of the reference's possible orders at
    random (moves twice as likely as the rest), as [(phase, orders, board after, centres after)]."""
    game = Game(map_name="standard")
    played = []
    for _ in range(phases):
        phase = game.get_current_phase()
        # (the scenario's game ends with 1910; the reference's lists come in hash order: sorted)
        if game.is_game_done or int(phase[1:5]) > 1910:
            break
        possible = game.get_all_possible_orders()
        owner = {u.lstrip("*").split()[1][:3]: p for p, us in game.get_state()["units"].items() for u in us}
        orders = {}
        for power in POWERS:
            for loc in sorted(game.get_orderable_locations(power)):
                options = sorted(
                    o for o in possible.get(loc, [])
                    if o != "WAIVE" and not known_departure(o, power, owner)
                )
                if not options:
                    continue
                moves = [o for o in options if " - " in o and " S " not in o and " C " not in o]
                order = rng.choice(moves if moves and rng.random() < 0.5 else options)
                orders.setdefault(power, []).append(order)
        for power, os_ in orders.items():
            game.set_orders(power, os_)
        game.process()
        state = game.get_state()
        board = sorted(
            f"{p} {u}" for p, us in state["units"].items() for u in us if not u.startswith("*")
        )
        centres = sorted(f"{p} {c}" for p, cs in state["centers"].items() for c in cs)
        played.append((phase, orders, board, centres))
    return played


def hexwar_game(hexwar, root, workdir, played):
    """hexwar's board and centres after each phase of `played`, from the standard opening."""
    given = os.path.join(workdir, "game.toml")
    with open(given, "w") as f:
        for phase, orders, _, _ in played:
            f.write(f'[[phase]]\nphase = "{phase}"\n[phase.orders]\n')
            for power, os_ in orders.items():
                f.write(f"{power} = {toml_list(os_)}\n")
    run = subprocess.run(
        [hexwar, "play", "scenarios/diplomacy", "--orders", given, "--json"],
        capture_output=True, text=True, cwd=root,
    )
    if run.returncode != 0 and not run.stdout.strip():
        return run.stderr.strip()
    # (refused orders still print the phases played before them: the first difference is found)
    out = []
    for p in json.loads(run.stdout):
        if p.get("skipped"):
            # (a phase hexwar passed over leaves the board as it was)
            out.append((p["phase"],) + (out[-1][1:3] if out else (None, None)) + (True,))
            continue
        board = sorted(f"{q} {u}" for q, us in p["units"].items() for u in us)
        centres = sorted(f"{q} {c}" for q, cs in p["centers"].items() for c in cs)
        out.append((p["phase"], board, centres, False))
    if run.returncode != 0:
        out.append((run.stderr.strip(), None, None, False))
    return out


def compare_games(args, root):
    """`--games N`: whole games from the opening, phase by phase (the season and year sequence,
    retreat and adjustment phases skipped when empty, centres changing hands after the fall,
    builds and civil disorder, victory)."""
    differ = phases = 0
    with tempfile.TemporaryDirectory() as workdir:
        for k in range(args.games):
            rng = random.Random(args.seed + k)
            played = random_game(rng, args.phases)
            ours = hexwar_game(args.hexwar, root, workdir, played)
            phases += len(played)
            if isinstance(ours, str):
                differ += 1
                print(f"== game {args.seed + k}: hexwar refused the orders: {ours}")
                continue
            for j, ((phase, orders, board, centres), (our_phase, our_board, our_centres, _)) in enumerate(
                zip(played, ours)
            ):
                # (a fall retreat phase only the reference holds -- the fourth departure -- moves
                # its change of centres after that phase; they are compared there)
                if j + 1 < len(ours) and ours[j + 1][3] and ours[j + 1][0].endswith("R"):
                    centres = our_centres
                if (phase, board, centres) != (our_phase, our_board, our_centres):
                    differ += 1
                    print(f"== game {args.seed + k}, phase {phase}: hexwar {our_phase}")
                    print("  orders:", json.dumps(orders))
                    if board != our_board:
                        print("  reference only:", sorted(set(board) - set(our_board or [])))
                        print("  hexwar only:   ", sorted(set(our_board or []) - set(board)))
                    if centres != our_centres:
                        print("  centres, reference only:", sorted(set(centres) - set(our_centres or [])))
                        print("  centres, hexwar only:   ", sorted(set(our_centres or []) - set(centres)))
                    break
    print(f"{args.games} games, {phases} phases, {differ} games that differ")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--adjustments", action="store_true",
                        help="winter adjustment positions (builds, disbands, civil disorder)")
    parser.add_argument("--retreats", action="store_true",
                        help="play the retreat phase too (random retreats and disbands)")
    parser.add_argument("--dense", action="store_true",
                        help="dense clusters of units (francqueville_differential's generator)")
    parser.add_argument("--convoys", action="store_true",
                        help="convoy country: fleets on a group of seas, armies on its shores")
    parser.add_argument("--coasts", action="store_true",
                        help="around a split-coast province: coasts named, wrong or left out")
    parser.add_argument("--rings", action="store_true",
                        help="rings of moves (some convoyed) with attacks and supports around them")
    parser.add_argument("--games", type=int, default=0,
                        help="instead: N whole games from the opening, compared phase by phase")
    parser.add_argument("--phases", type=int, default=40, help="with --games: phases a game")
    parser.add_argument("--flags", action="store_true",
                        help="also compare the orders' result flags where the boards agree")
    parser.add_argument("--all", action="store_true",
                        help="also name the positions the known departures explain")
    parser.add_argument("--hexwar", default=os.path.join(root, "target/release/hexwar"))
    args = parser.parse_args()
    if args.games:
        compare_games(args, root)
        return
    make_position = lambda rng: random_position(rng, rng.randint(12, 30))
    make_orders = random_orders
    if args.convoys:
        make_position, make_orders = convoy_position, convoy_orders
    if args.coasts:
        make_position, make_orders = coast_position, coast_orders
    if args.rings:
        # (one draw makes both: the position is the orders' rings)
        made = {}

        def make_position(rng):
            made["units"], made["orders"] = ring_position_and_orders(rng)
            return made["units"]

        def make_orders(rng, units):
            return made["orders"]
    if args.dense:
        # (imported here: that tool imports this one's map facts)
        from francqueville_differential import random_orders as make_orders
        from francqueville_differential import random_position as make_position
    differ = retreat_phases = 0
    reasons = Counter()
    explained_positions = 0
    convoy_outcomes = Counter()  # armies ordered beyond their neighbours, by hexwar's outcome
    flag_kinds, flag_examples = Counter(), {}  # --flags: (kind, theirs, ours) -> count, cases
    flag_reasons = Counter()  # --flags: orders whose flags the known departures explain
    with tempfile.TemporaryDirectory() as workdir:
        for k in range(args.cases):
            rng = random.Random(args.seed + k)
            centers = None
            if args.adjustments:
                units, centers, orders = random_adjustment(rng)
            else:
                units = make_position(rng)
                orders = make_orders(rng, units)
            theirs, retreat_orders, their_flags = reference_board(
                units, orders, centers, rng if args.retreats else None
            )
            ours, results, later = hexwar_board(
                args.hexwar, root, workdir, units, orders, centers, retreat_orders
            )
            retreat_phases += bool(retreat_orders)
            if args.flags and ours == theirs:
                diffs = flag_differences(units, their_flags, results)
                why = diffs and explained_flags(
                    args.hexwar, root, workdir, units, orders, centers, diffs, results
                )
                if why:
                    flag_reasons.update(why)
                    diffs = []
                for kind, order, t, o in diffs:
                    key = (kind, ", ".join(t) or "ok", ", ".join(o) or "ok")
                    flag_kinds[key] += 1
                    if flag_kinds[key] <= 2:
                        flag_examples.setdefault(key, []).append(
                            f"seed {args.seed + k}: {order}; units {json.dumps(units)}; orders {json.dumps(orders)}"
                        )
            for r in results:
                if r["unit"].startswith("A ") and " - " in r["order"] and " S " not in r["order"]:
                    dest = r["order"].split(" - ", 1)[1].split()[0][:3]
                    if dest not in {d[:3] for d in neighbours(r["unit"])}:
                        tried = "disrupted" if "disrupted" in r["flags"] else (
                            "no convoy" if "no convoy" in r["flags"] else (
                                "void" if "void" in r["flags"] else (
                                    "landed" if not r["flags"] else "bounced or dislodged")))
                        convoy_outcomes[tried] += 1
            if ours != theirs:
                why = explained(
                    args.hexwar, root, workdir, units, orders, centers, retreat_orders, ours,
                    results, later,
                )
                if why is not None:
                    reasons.update(why)
                    explained_positions += 1
                    if args.all:
                        print(f"== seed {args.seed + k}: known departure: {', '.join(why)}")
                    continue
                differ += 1
                print(f"== seed {args.seed + k}: the boards differ")
                print("  units: ", json.dumps(units))
                if centers is not None:
                    print("  centers:", json.dumps(centers))
                print("  orders:", json.dumps(orders))
                if retreat_orders:
                    print("  retreats:", json.dumps(retreat_orders))
                print("  reference only:", sorted(set(theirs) - set(ours)))
                print("  hexwar only:   ", sorted(set(ours) - set(theirs)))
    played = f" ({retreat_phases} with a retreat phase)" if args.retreats else ""
    known = sum(reasons.values())
    if convoy_outcomes:
        listed = ", ".join(f"{n} {what}" for what, n in sorted(convoy_outcomes.items()))
        print(f"moves that need a convoy (hexwar's outcome): {listed}")
    print(
        f"{args.cases} positions{played}, {differ} with different boards not explained by the "
        f"known departures"
    )
    if args.flags:
        print(
            f"result flags that differ where the boards agree, not explained by the known"
            f" departures: {sum(flag_kinds.values())} orders"
        )
        for why, n in sorted(flag_reasons.items()):
            print(f"  (explained: {n} x {why})")
        for (kind, t, o), n in sorted(flag_kinds.items(), key=lambda x: -x[1]):
            print(f"  {n} x {kind}: reference {t}, hexwar {o}")
            for example in flag_examples[(kind, t, o)]:
                print(f"      {example}")
    if reasons:
        listed = ", ".join(f"{n} x {why}" for why, n in sorted(reasons.items()))
        print(
            f"known departures (hexwar follows the DATC) explain {explained_positions} positions,"
            f" {known} orders: {listed}"
        )


if __name__ == "__main__":
    main()
