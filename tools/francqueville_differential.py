"""Differential test of hexwar's Francqueville retreat variant against an oracle written from RULES.md.

Makes random spring and fall positions (dense clusters of units of a few powers, random supply-centre
ownership) with random orders (moves, head-to-heads, supports to hold and to move, convoys, long
moves, supports and convoys that match nothing: void), and plays each through
`hexwar play scenarios/diplomacy-francqueville --json`: the movement phase, then a retreat phase
whose orders are drawn at random (each retreating unit retreats to one of its options, to a place
not in its list, or gets no order; units of different powers are often sent to one shared option).
Where the retreats leave stacks (R-g2), the next movement phase is played too (after a fall, the
winter adjustments first: each power disbands down to its centres): random orders for the other
units, often a supported attack on each stack, the stacked units holding.

The oracle knows only RULES.md's DIP section (clauses DIP-4.a..m, readings R-0..R-m1) and the map
(the reference's standard map: adjacency, coasts, supply centres, home centres). From the position
before the orders, the orders and the movement results it computes who must retreat (R-0
dislodged units, R-k1/R-k2 evictions, `by` by R-k3), each one's exact option list (R-a1..R-g1), the
immediate removals (R-l1), and then the retreat phase's outcome (R-h1, R-i1, R-j1), the board and,
after a fall, the supply-centre ownership; after the next movement phase, the retreats (a
dislodged stack retreats whole) and which unit of each stack stays (R-g3). The movement results themselves (which orders are void,
which moves bounced or failed for want of a convoy, who moved, who was dislodged and by whom) come
from the reference Python engine (PyPI `diplomacy` 1.1.2) on the same position (in the phase after
the stacks, with one unit standing for each stack: a stack that holds defends as one). Where the
reference and hexwar's standard scenario disagree on them, the tool takes hexwar's standard flags
and counts the position (`--standard` lists them). The disagreements seen, hexwar following the
DATC each time: those of tools/diplomacy_differential.py (an adjacent army whose own fleet's
convoy is disrupted: it tries the convoy; the reference falls back to the land route); a head-to-head where a power supports
a foreign attack on its own unit (the reference leaves that support out of the defend strength
too and dislodges; the DATC's defend strength counts every support, so both bounce); and convoy
orders the reference flags `void` but hexwar does not, which matters for R-f1 (the convoying
fleet's province is in the theatre): a convoy of an army that moves over land to an adjacent
province, and a convoy on an incomplete chain (hexwar: `no convoy`, as for the army).

Prints every position where hexwar's variant and the oracle differ (the option lists, `by`, the
evictions' flags, the removals, the boards, the retreat phase's flags, the centres) and a summary
with how many retreats, evictions, removals and retreat standoffs the run exercised. Not run in CI.

Run with the reference's virtualenv (benches/diplomacy_reference.sh makes it) after
`cargo build --release`:

    /tmp/hexwar-diplomacy-ref/bin/python tools/francqueville_differential.py --cases 1000 --seed 1
    /tmp/hexwar-diplomacy-ref/bin/python tools/francqueville_differential.py --cases 1 --seed 42 --show

A position runs in about 30 ms (two or three `hexwar play` runs and the reference).
"""

import argparse
import json
import os
import random
import subprocess
import tempfile
import time
from collections import Counter, defaultdict

from diplomacy import Game

# (the map facts and unit placement the standard differential tool already reads from the
# reference's map: the same definitions, one copy)
from diplomacy_differential import (
    LOCS,
    MAP,
    POWERS,
    TYPE,
    by_power,
    coasts,
    convoy_orders,
    convoy_position,
    units_for,
)

PROVINCES = sorted(set(loc[:3] for loc in LOCS))
SUPPLY_CENTRES = sorted(c.upper() for c in MAP.scs)
HOME_CENTRES = {p: {h.upper() for h in MAP.homes[p]} for p in POWERS}
FAILED_MOVE_FLAGS = {"bounce", "no convoy", "disrupted", "void", "dislodged"}


def province(loc):
    return loc[:3]


def locations(prov):
    return [prov] + coasts(prov)


def reachable_without_convoy(unit):
    """R-a1: the locations the unit could move to without convoy; armies bare provinces, fleets
    each coast they reach from their own coast."""
    kind, loc = unit.split()
    out = []
    for dest in LOCS:
        if province(dest) == province(loc) or not MAP.abuts(kind, loc, "-", dest):
            continue
        if kind == "A" and "/" in dest:
            continue
        if kind == "F" and coasts(dest) and "/" not in dest:
            continue
        out.append(dest)
    return out


def _bordering(p, q):
    return any(
        MAP.abuts(kind, a, "-", b) or MAP.abuts(kind, b, "-", a)
        for kind in "AF"
        for a in locations(p)
        for b in locations(q)
    )


BORDERS = {p: {q for q in PROVINCES if q != p and _bordering(p, q)} for p in PROVINCES}


# --- random positions and orders -------------------------------------------------------------


def random_position(rng):
    """Dense clusters: 1-3 neighbourhoods of radius 1-2 around random provinces, most of their
    provinces occupied by units of 2-4 powers (often including the power whose home centres are
    there), so that attacks, bounces and dislodgements are the rule."""
    units = {}
    taken = set()
    for _ in range(rng.randint(1, 3)):
        area = {rng.choice(PROVINCES)}
        for _ in range(rng.choice((1, 2, 2))):
            area |= {q for p in area for q in BORDERS[p]}
        area = sorted(area - taken)
        if len(area) < 2:
            continue
        powers = rng.sample(POWERS, rng.randint(2, 4))
        local = [p for p in POWERS if HOME_CENTRES[p] & set(area)]
        if local and rng.random() < 0.5:
            powers[0] = rng.choice(local)
        for prov in rng.sample(area, max(2, int(len(area) * rng.uniform(0.55, 0.9)))):
            if len(taken) < 34:
                taken.add(prov)
                units.setdefault(rng.choice(powers), []).append(rng.choice(units_for(prov)))
    return units


def random_centers(rng, units):
    """Random ownership: about a quarter neutral, home centres often their own power's, centres
    near a power's units often that power's, the rest to anyone (so that foreign-owned home
    centres and owned foreign centres occur, R-c1/R-d1)."""
    nearby = defaultdict(list)
    for power, us in units.items():
        for unit in us:
            here = province(unit.split()[1])
            for p in BORDERS[here] | {here}:
                nearby[p].append(power)
    owned = defaultdict(list)
    for centre in SUPPLY_CENTRES:
        home = [p for p in POWERS if centre in HOME_CENTRES[p]]
        roll = rng.random()
        if roll < 0.25:
            continue
        if nearby[centre] and roll < 0.6:
            owned[rng.choice(nearby[centre])].append(centre)
        elif home and roll < 0.8:
            owned[home[0]].append(centre)
        else:
            owned[rng.choice(POWERS)].append(centre)
    return {p: sorted(owned[p]) for p in POWERS}


def random_orders(rng, units):
    """Moves (often into occupied provinces, often answering a move into one's own province: a
    head-to-head), long moves of coastal armies (some `VIA`), convoys by fleets at sea, supports to
    move and to hold (some to moves not ordered: void), holds, and a few units without an order."""
    everyone = [(p, u) for p, us in units.items() for u in us]
    rng.shuffle(everyone)
    standing = {province(u.split()[1]): u for _, u in everyone}
    given, moves = {}, {}
    for power, unit in everyone:
        roll = rng.random()
        options = reachable_without_convoy(unit)
        here = province(unit.split()[1])
        if roll < 0.6 and options:
            # head-to-head: answer a move into our province by a move into the mover's province
            back = [
                m for m, d in moves.items()
                if province(d) == here and any(province(o) == province(m.split()[1]) for o in options)
            ]
            occupied = [o for o in options if province(o) in standing]
            if back and rng.random() < 0.3:
                target = province(rng.choice(back).split()[1])
                dest = rng.choice([o for o in options if province(o) == target])
            elif occupied and rng.random() < 0.6:
                dest = rng.choice(occupied)
            else:
                dest = rng.choice(options)
            moves[unit] = dest
            given[unit] = (power, f"{unit} - {dest}")
        elif roll < 0.68 and unit[0] == "A" and TYPE[here] == "COAST":
            far = rng.choice([q for q in PROVINCES if TYPE[q] == "COAST" and q != here])
            moves[unit] = far
            via = " VIA" if rng.random() < 0.3 else ""
            given[unit] = (power, f"{unit} - {far}{via}")
    for power, unit in everyone:
        if unit in given:
            continue
        kind, loc = unit.split()
        roll = rng.random()
        if kind == "F" and TYPE[loc] == "WATER" and roll < 0.5:
            armies = [u for _, u in everyone if u[0] == "A" and u in moves]
            # (mostly armies whose both ends the fleet borders: a convoy it can carry alone)
            carried = [a for a in armies if {province(a.split()[1]), province(moves[a])} <= BORDERS[loc]]
            if armies:
                army = rng.choice(carried if carried and rng.random() < 0.7 else armies)
                dest = province(moves[army]) if rng.random() < 0.85 else rng.choice(PROVINCES)
                given[unit] = (power, f"{unit} C {army} - {dest}")
                continue
        reach = sorted({province(d) for d in reachable_without_convoy(unit)})  # (sorted: same run for a seed)
        to_support_moves = [m for m, d in moves.items() if province(d) in reach and m != unit]
        to_support_holds = [standing[p] for p in reach if p in standing]
        if roll < 0.55 and to_support_moves:
            other = rng.choice(to_support_moves)
            given[unit] = (power, f"{unit} S {other} - {moves[other]}")
        elif roll < 0.85 and to_support_holds:
            other = rng.choice(to_support_holds)
            if rng.random() < 0.15:
                # a support to a move the unit was not ordered (void unless it was)
                near = [p for p in reach if p in BORDERS[province(other.split()[1])]]
                if near:
                    given[unit] = (power, f"{unit} S {other} - {rng.choice(near)}")
                    continue
            given[unit] = (power, f"{unit} S {other}")
        elif roll < 0.95:
            given[unit] = (power, f"{unit} H")
        # else: no order (holds)
    return by_power(given)


def parse_order(order):
    """(kind, destination or supported/convoyed destination, supported/convoyed unit)."""
    words = order.replace(" VIA", "").split()
    if len(words) == 3 and words[2] == "H":
        return "H", None, None
    if words[2] == "-":
        return "M", words[3], None
    if words[2] == "S":
        other = " ".join(words[3:5])
        if len(words) == 5:
            return "SH", None, other
        return "SM", words[6], other
    if words[2] == "C":
        return "C", words[6], " ".join(words[3:5])
    raise ValueError(order)


# --- the movement results (standard adjudication) --------------------------------------------


def reference_movement(units, orders, phase):
    """The reference engine's movement results: per unit (power, unit) {flags, dislodged_by} (an
    order it refuses as illegal counts as void, as hexwar flags it), and the board after."""
    game = Game(map_name="standard")
    game.clear_units()
    game.set_current_phase(phase)
    for power, us in units.items():
        game.set_units(power, us)
    for power, os_ in orders.items():
        game.set_orders(power, os_)
    accepted = {
        " ".join(o.split()[:2]) for os_ in game.get_orders().values() for o in os_
    }
    game.process()
    results = game.get_phase_history()[-1].results
    facts = {}
    for power, us in units.items():
        for unit in us:
            flags = {str(getattr(r, "message", r)) for r in results.get(unit, [])}
            facts[(power, unit)] = {"flags": flags, "dislodged_by": None}
    for power, us in units.items():
        for unit in us:
            written = [o for o in orders.get(power, []) if o.startswith(unit + " ")]
            if written and unit not in accepted:
                facts[(power, unit)]["flags"].add("void")
    for unit, by in game.dislodged.items():
        power = next(p for p, us in units.items() if unit in us)
        facts[(power, unit)]["dislodged_by"] = province(by.upper())
    board = sorted(f"{p} {u}" for p, pw in game.powers.items() for u in pw.units)
    return facts, board


def toml_list(items):
    return "[" + ", ".join(json.dumps(x) for x in items) + "]"


def play(hexwar, root, workdir, scenario, units, centers, phases):
    """Run `hexwar play SCENARIO --json` on the position with the given [(phase, orders)]."""
    setup = os.path.join(workdir, "setup.toml")
    given = os.path.join(workdir, "orders.toml")
    with open(setup, "w") as f:
        f.write(f'phase = "{phases[0][0]}"\n[units]\n')
        for power, us in units.items():
            f.write(f"{power} = {toml_list(us)}\n")
        f.write("[centers]\n")
        for power, cs in centers.items():
            f.write(f"{power} = {toml_list(cs)}\n")
    with open(given, "w") as f:
        for phase, orders in phases:
            f.write(f'[[phase]]\nphase = "{phase}"\n[phase.orders]\n')
            for power, os_ in orders.items():
                f.write(f"{power} = {toml_list(os_)}\n")
    run = subprocess.run(
        [hexwar, "play", scenario, "--setup", setup, "--orders", given, "--json"],
        capture_output=True, text=True, cwd=root,
    )
    return run.returncode, run.stdout, run.stderr


def hexwar_movement(result, units):
    """The same facts from hexwar's standard scenario's phase result."""
    facts = {(p, u): {"flags": set(), "dislodged_by": None} for p, us in units.items() for u in us}
    for r in result["results"]:
        key = (r["power"], r["unit"])
        if key in facts:
            facts[key]["flags"] |= set(r["flags"])
    for d in result["dislodged"]:
        facts[(d["power"], d["unit"])]["dislodged_by"] = d["by"]
    board = sorted(f"{p} {u}" for p, us in result["units"].items() for u in us)
    return facts, board


def movement_summary(facts, units, orders):
    """What the variant reads from the movement results, per unit: non-void order kind, moved,
    bounced, dislodged by."""
    out = {}
    for power, us in units.items():
        for unit in us:
            f = facts[(power, unit)]
            written = [o for o in orders.get(power, []) if o.startswith(unit + " ")]
            kind = parse_order(written[0])[0] if written and "void" not in f["flags"] else "H"
            # (whether a support is void does not matter: a support to move counts only with the
            # non-void move it matches, whose destination is in the theatre anyway, R-f1)
            kind = "H" if kind in ("SH", "SM") else kind
            moved = kind == "M" and not (f["flags"] & FAILED_MOVE_FLAGS)
            out[f"{power} {unit}"] = (kind, moved, "bounce" in f["flags"], f["dislodged_by"])
    return out


def standard_difference(ref_facts, ref_board, std_facts, std_board, units, orders):
    """None if the reference and hexwar's standard scenario agree on what the variant reads;
    else "convoy orders void in the reference only" or "movement outcome"."""
    ours = movement_summary(std_facts, units, orders)
    theirs = movement_summary(ref_facts, units, orders)
    if (ref_board, theirs) == (std_board, ours):
        return None
    if ref_board == std_board and all(
        ours[k] == theirs[k] or (ours[k][0] == "C" and theirs[k][0] == "H" and ours[k][1:] == theirs[k][1:])
        for k in ours
    ):
        return "convoy orders void in the reference only"
    return "movement outcome"


# --- the oracle (RULES.md, DIP section) ------------------------------------------------------


def own_centres(power, centers):
    """R-d1: home centres (map) + centres owned in the ownership in force during the movement."""
    return HOME_CENTRES[power] | set(centers.get(power, []))


def oracle_movement(entries, centers, orders, facts):
    """Who retreats (R-0, R-k1/k2, `by` R-k3) and where to (R-a1..R-g1); R-l1 removals.
    `entries` lists the board before the orders as (power, unit), a power's stack (R-g2) as
    several entries; `facts` gives each entry's movement results (a stacked unit without an order
    holds, R-g3). Returns the retreating units and the board after the moves."""
    where = [province(unit.split()[1]) for _, unit in entries]  # provinces before the orders
    before = defaultdict(set)  # province -> powers with a unit there before the orders (R-e1)
    order_of = []
    unused = {power: list(os_) for power, os_ in orders.items()}
    for i, (power, unit) in enumerate(entries):
        before[where[i]].add(power)
        # (R-g2: an order naming a stack's unit string goes to its next unit without an order)
        written = [o for o in unused.get(power, []) if o.startswith(unit + " ")][:1]
        if written:
            unused[power].remove(written[0])
        nonvoid = written and "void" not in facts[i]["flags"]
        order_of.append(parse_order(written[0]) if nonvoid else ("H", None, None))
    theatre = set()  # R-f1 (a hold or a support to hold adds nothing, R-f2)
    attackers = defaultdict(list)  # province -> (power, origin) of every non-void move there
    for i, (kind, dest, _) in enumerate(order_of):
        if kind in ("M", "SM"):
            theatre.add(province(dest))
        if kind == "C":
            theatre.add(where[i])
        if kind == "M":
            attackers[province(dest)].append((entries[i][0], where[i]))
    retreating = []  # (entry index, by, evicted)
    for i in range(len(entries)):
        if facts[i]["dislodged_by"]:
            retreating.append((i, facts[i]["dislodged_by"], False))
    for i, (kind, dest, _) in enumerate(order_of):
        if kind == "M" and "bounce" in facts[i]["flags"] and not facts[i]["dislodged_by"]:
            enemies = sorted(o for p, o in attackers[where[i]] if p != entries[i][0])  # R-k1, R-k2
            if enemies:
                retreating.append((i, enemies[0], True))  # R-k3
    gone = {i for i, _, _ in retreating}
    after = defaultdict(set)  # province -> powers with a unit there after the moves (R-g1)
    board = []
    for i, (kind, dest, _) in enumerate(order_of):
        if i in gone:
            continue
        power, unit = entries[i]
        if kind == "M" and not (facts[i]["flags"] & FAILED_MOVE_FLAGS):
            unit = f"{unit[0]} {dest}"
        after[province(unit.split()[1])].add(power)
        board.append(f"{power} {unit}")
    out = []
    for i, by, evicted in retreating:
        power, unit = entries[i]
        kind, dest, _ = order_of[i]
        mine = own_centres(power, centers)
        options = []
        for loc in reachable_without_convoy(unit):  # R-a1
            p = province(loc)
            if p in (where[i], by):  # R-a2
                continue
            if kind == "M" and (p == province(dest) or p not in BORDERS[province(dest)]):
                continue  # R-b1, R-b2 (R-b3: no b without a non-void move)
            if p in SUPPLY_CENTRES and p not in mine:  # R-c1, R-d1
                continue
            if before[p] - {power}:  # R-e1
                continue
            if p in theatre:  # R-f1 (R-f3: origins are not in it)
                continue
            if after[p] - {power}:  # R-g1
                continue
            options.append(loc)
        out.append({"power": power, "unit": unit, "by": by, "retreats": options, "evicted": evicted})
    return out, sorted(board)


def oracle_retreat_phase(retreating, retreat_orders):
    """R-h1 retreat standoffs, R-i1 simultaneous retreats, void and unordered units, R-j1.
    Returns {(power, unit): flags} and the units that arrive."""
    with_options = [r for r in retreating if r["retreats"]]
    single = defaultdict(set)
    for r in with_options:
        provs = {province(loc) for loc in r["retreats"]}
        if len(provs) == 1:
            single[provs.pop()].add(r["power"])
    standoff = {p for p, powers in single.items() if len(powers) >= 2}  # R-h1
    target = {}
    flags = {}
    for r in with_options:
        key = (r["power"], r["unit"])
        provs = {province(loc) for loc in r["retreats"]}
        written = [o for o in retreat_orders.get(r["power"], []) if o.startswith(r["unit"] + " ")]
        if len(provs) == 1 and provs <= standoff:
            flags[key] = ["bounce", "disband"]  # R-h1: whatever its order
        elif not written or written[0].endswith(" D"):
            flags[key] = ["disband"]  # unordered, or disbanded by order
        else:
            loc = written[0].split()[3]
            coast = [x for x in r["retreats"] if province(x) == loc]
            if loc not in r["retreats"] and r["unit"][0] == "F" and len(coast) == 1:
                loc = coast[0]  # a fleet's retreat without coast, one coast listed (standard, 6.B.2)
            if loc in r["retreats"]:
                target[key] = loc
            else:
                flags[key] = ["void", "disband"]  # R-i1
    powers_at = defaultdict(set)
    for key, loc in target.items():
        powers_at[province(loc)].add(key[0])
    arriving = []
    for key, loc in target.items():
        p = province(loc)
        if len(powers_at[p]) > 1 or p in standoff:
            flags[key] = ["bounce", "disband"]  # R-i1, R-h1 (another unit retreating there)
        else:
            flags[key] = []  # R-j1
            arriving.append(f"{key[0]} {key[1][0]} {loc}")
    return flags, arriving


def oracle_stack_survivors(after_moves, earlier, retreat_orders):
    """R-g3 after the next movement phase: in each province where a power still has several units,
    the earlier occupant (`earlier`: the board after the previous moves) stays, else the unit whose
    retreat order came first; the others are disbanded. Returns (board, disbanded units)."""
    def order_rank(entry):
        power, kind, loc = entry.split()
        for n, order in enumerate(retreat_orders.get(power, [])):
            words = order.split()
            if words[0] == kind and len(words) == 4 and words[3] in (loc, province(loc)):
                return n
        return len(retreat_orders.get(power, []))

    earlier_left = Counter(earlier)
    stacks = defaultdict(list)
    for entry in after_moves:
        if earlier_left[entry] > 0:
            earlier_left[entry] -= 1
            rank = -1
        else:
            rank = order_rank(entry)
        stacks[(entry.split()[0], province(entry.split()[2]))].append((rank, entry))
    kept, disbanded = [], []
    for stack in stacks.values():
        stack.sort()
        kept.append(stack[0][1])
        disbanded += [" ".join(entry.split()[1:]) for _, entry in stack[1:]]
    return sorted(kept), sorted(disbanded)


def next_phase_with_stacks(rng, board, centers, phase):
    """The movement phase after a retreat phase that left stacks (R-g2, R-g3): random orders
    (no convoys: the reference's known differences are all about convoys), one unit of each stack
    holding or supporting, the others holding. The reference adjudicates it with that unit standing
    for its stack (a stack whose units all stay defends as one occupant, R-g3; supports to hold name
    that unit). Returns the orders and the oracle's retreating units and board after the moves."""
    stacks = defaultdict(list)
    for entry in board:
        power, kind, loc = entry.split()
        stacks[(power, province(loc))].append(f"{kind} {loc}")
    standing = {}
    for (power, _), us in stacks.items():
        standing.setdefault(power, []).append(rng.choice(us))
    stacked = {(power, unit) for power, us in standing.items() for unit in us
               if len(stacks[(power, province(unit.split()[1]))]) > 1}
    given = {
        (power, " ".join(order.split()[:2])): order
        for power, os_ in random_orders(rng, standing).items() for order in os_
    }
    for power, unit in sorted(stacked):
        # an attack on the stack, often supported (so that whole stacks retreat)
        here = province(unit.split()[1])
        near = [
            (p, u) for p, us in standing.items() for u in us
            if p != power and (p, u) not in stacked
            and here in {province(x) for x in reachable_without_convoy(u)}
        ]
        rng.shuffle(near)
        if near and rng.random() < 0.8:
            (p, u), helpers = near[0], near[1:3]
            dest = rng.choice([x for x in reachable_without_convoy(u) if province(x) == here])
            given[(p, u)] = f"{u} - {dest}"
            for q, h in helpers:
                given[(q, h)] = f"{h} S {u} - {dest}"
    orders = {}
    for (power, unit), order in given.items():
        kind, dest, _ = parse_order(order)
        if (power, unit) in stacked and kind == "M" or kind == "C" or " VIA" in order:
            continue  # (a stacked unit may support or hold: it stays, so the stack still defends as one)
        if kind == "M" and dest not in reachable_without_convoy(unit):
            continue
        orders.setdefault(power, []).append(order)
    facts, _ = reference_movement(standing, orders, phase)
    entries, entry_facts = [], []
    for power, us in standing.items():
        for unit in us:
            for member in stacks[(power, province(unit.split()[1]))]:
                entries.append((power, member))
                f = facts[(power, unit)]
                entry_facts.append(f if member == unit else {"flags": set(), "dislodged_by": f["dislodged_by"]})
    retreating, after_moves = oracle_movement(entries, centers, orders, entry_facts)
    return orders, retreating, after_moves


def centres_after_fall(centers, board):
    owner = {c: p for p, cs in centers.items() for c in cs}
    for entry in board:
        power, _, loc = entry.split()
        if province(loc) in SUPPLY_CENTRES:
            owner[province(loc)] = power
    return {p: sorted(c for c, o in owner.items() if o == p) for p in POWERS}


def random_retreat_orders(rng, retreating):
    """Each unit with options: a random option (often one a unit of another power can reach too),
    a location not in its list, a disband, or no order."""
    with_options = [r for r in retreating if r["retreats"]]
    orders = {}
    for r in with_options:
        shared = [
            loc for loc in r["retreats"]
            if any(
                o["power"] != r["power"] and province(loc) in {province(x) for x in o["retreats"]}
                for o in with_options
            )
        ]
        # (above all the province that is another unit's only option: a possible R-h1 standoff)
        only_option = {
            province(o["retreats"][0]) for o in with_options
            if o is not r and len({province(x) for x in o["retreats"]}) == 1
        }
        contested = [loc for loc in shared if province(loc) in only_option]
        not_listed = [loc for loc in reachable_without_convoy(r["unit"]) if loc not in r["retreats"]]
        roll = rng.random()
        if contested and roll < 0.6:
            order = f"{r['unit']} R {rng.choice(contested)}"
        elif shared and roll < 0.6:
            loc = rng.choice(shared)
            if r["unit"][0] == "F":
                loc = rng.choice([x for x in r["retreats"] if province(x) == province(loc)])
            order = f"{r['unit']} R {loc}"
        elif roll < 0.8:
            loc = rng.choice(r["retreats"])
            if rng.random() < 0.4:
                loc = province(loc)  # a fleet's retreat written without coast
            order = f"{r['unit']} R {loc}"
        elif roll < 0.9 and not_listed:
            order = f"{r['unit']} R {rng.choice(not_listed)}"
        elif roll < 0.95:
            order = f"{r['unit']} D"
        else:
            continue
        orders.setdefault(r["power"], []).append(order)
    return orders


# --- one position ----------------------------------------------------------------------------


def board_of(result):
    return sorted(f"{p} {u}" for p, us in result["units"].items() for u in us)


def winter_disbands(rng, board, centers):
    """Disband orders that bring each power down to its centres (so no civil disorder), taken from
    units outside stacks where it can; the board left."""
    stacks = Counter((e.split()[0], province(e.split()[2])) for e in board)
    orders, left = {}, list(board)
    for power in POWERS:
        mine = [e for e in board if e.split()[0] == power]
        excess = len(mine) - len(centers.get(power, []))
        if excess <= 0:
            continue
        alone = [e for e in mine if stacks[(power, province(e.split()[2]))] == 1]
        rng.shuffle(alone)
        stacked = [e for e in mine if e not in alone]
        for entry in (alone + stacked)[:excess]:
            orders.setdefault(power, []).append(" ".join(entry.split()[1:]) + " D")
            left.remove(entry)
    return orders, sorted(left)


def check_next_phase(hexwar, root, workdir, rng, stats, expect, units, centers, phases, board,
                     final_board, retreat_orders, season):
    """R-g2, R-g3: the movement phase after the retreat phase that left stacks (after a fall, the
    winter adjustments first: each power disbands down to its centres, R-m1)."""
    earlier = board  # the occupants before the retreats
    if season == "S":
        following, in_force, before = "F1901M", centers, final_board
        extra = []
    else:
        in_force = centres_after_fall(centers, final_board)
        if any(len(cs) >= 18 for cs in in_force.values()):
            # (a power holds 18 centres after the fall: the game is over, no phase follows)
            stats["games won in the fall (no next phase)"] += 1
            return
        winter, before = winter_disbands(rng, final_board, in_force)
        earlier = list((Counter(board) - (Counter(final_board) - Counter(before))).elements())
        following = "S1902M"
        extra = [("W1901A", winter)]
        if len(before) == len({(e.split()[0], province(e.split()[2])) for e in before}):
            return
    next_orders, next_retreating, after_moves = next_phase_with_stacks(rng, before, in_force, following)
    code, out, err = play(
        hexwar, root, workdir, "scenarios/diplomacy-francqueville", units, centers,
        phases + extra + [(following, next_orders)],
    )
    if code != 0:
        expect(f"{following} accepted", "exit 0", f"exit {code}: {err.strip()}")
        return
    played = [phase for phase in json.loads(out) if phase["phase"] == following]
    if not played:
        expect(f"{following} played", "played", "not reached")
        return
    result = played[0]
    kept, stack_disbanded = oracle_stack_survivors(after_moves, earlier, retreat_orders)
    expect(
        f"dislodged in {following}",
        sorted([r["power"], r["unit"], r["by"], sorted(r["retreats"])] for r in next_retreating),
        sorted([d["power"], d["unit"], d["by"], sorted(d["retreats"])] for d in result["dislodged"]),
    )
    expect(f"board after {following} (R-g3)", kept, board_of(result))
    expect(
        f"disbanded in {following} (R-g3, R-l1)",
        sorted(stack_disbanded + [r["unit"] for r in next_retreating if not r["retreats"]]),
        sorted(result["disbanded"]),
    )
    stats[f"next movement phases with stacks (R-g3), {'after a winter' if extra else 'in the fall'}"] += 1
    stats["stacked units disbanded after the next moves (R-g3)"] += len(stack_disbanded)
    stacks = Counter((e.split()[0], province(e.split()[2])) for e in before)
    stats["stacked units retreating in the next phase"] += sum(
        1 for r in next_retreating if stacks[(r["power"], province(r["unit"].split()[1]))] > 1
    )


def check_position(hexwar, root, workdir, rng, stats, make_position=None, make_orders=None):
    """Play one random position (dense clusters, or what `make_position` / `make_orders` make);
    return the list of differences (empty if none), the position, its orders and whether the
    reference and hexwar's standard rules differed on the movement."""
    season = rng.choice("SF")
    phase, retreat_phase = f"{season}1901M", f"{season}1901R"
    units = (make_position or random_position)(rng)
    centers = random_centers(rng, units)
    orders = (make_orders or random_orders)(rng, units)
    ref_facts, ref_board = reference_movement(units, orders, phase)
    code, out, err = play(hexwar, root, workdir, "scenarios/diplomacy", units, centers, [(phase, orders)])
    if code != 0:
        return [f"hexwar (standard) failed: {err.strip()}"], units, centers, orders, {}, None
    std_facts, std_board = hexwar_movement(json.loads(out)[0], units)
    facts = ref_facts
    difference = standard_difference(ref_facts, ref_board, std_facts, std_board, units, orders)
    if difference:
        stats[f"standard differences, hexwar's flags used: {difference}"] += 1
        facts = std_facts
    entries = [(p, u) for p, us in units.items() for u in us]
    retreating, board = oracle_movement(entries, centers, orders, [facts[e] for e in entries])
    retreat_orders = random_retreat_orders(rng, retreating)
    has_retreat_phase = any(r["retreats"] for r in retreating)
    phases = [(phase, orders)] + ([(retreat_phase, retreat_orders)] if has_retreat_phase else [])
    code, out, err = play(hexwar, root, workdir, "scenarios/diplomacy-francqueville", units, centers, phases)
    if code != 0:
        code, out, err = play(
            hexwar, root, workdir, "scenarios/diplomacy-francqueville", units, centers, phases[:1]
        )
        if code != 0:
            return [f"hexwar (variant) failed: {err.strip()}"], units, centers, orders, retreat_orders, difference
    played = json.loads(out)
    movement = played[0]
    diffs = []

    def expect(what, oracle, engine):
        if oracle != engine:
            diffs.append(f"{what}: oracle {json.dumps(oracle)} / hexwar {json.dumps(engine)}")

    expect(
        "dislodged",
        sorted([r["power"], r["unit"], r["by"], sorted(r["retreats"])] for r in retreating),
        sorted([d["power"], d["unit"], d["by"], sorted(d["retreats"])] for d in movement["dislodged"]),
    )
    engine_flags = {(r["power"], r["unit"]): sorted(r["flags"]) for r in movement["results"]}
    for r in retreating:
        if r["evicted"]:
            expect(f"flags of evicted {r['unit']}", ["bounce", "dislodged"],
                   engine_flags.get((r["power"], r["unit"])))
    expect("board after the moves", board, board_of(movement))
    expect("removed at once (R-l1)",
           sorted(r["unit"] for r in retreating if not r["retreats"]), sorted(movement["disbanded"]))
    expect("next phase", retreat_phase if has_retreat_phase else "not a retreat phase",
           movement["next_phase"] if movement["next_phase"].endswith("R") else "not a retreat phase")
    final_board = board
    if has_retreat_phase and len(played) > 1 and played[1].get("skipped"):
        diffs.append("hexwar skipped the retreat phase")
    elif has_retreat_phase and len(played) > 1:
        retreats = played[1]
        flags, arriving = oracle_retreat_phase(retreating, retreat_orders)
        engine = {(r["power"], r["unit"]): sorted(r["flags"]) for r in retreats["results"]}
        for key, f in sorted(flags.items()):
            expect(f"retreat of {key[0]} {key[1]}", sorted(f), engine.get(key))
        final_board = sorted(board + arriving)
        expect("board after the retreats", final_board, board_of(retreats))
        expect("disbanded in the retreat phase",
               sorted(k[1] for k, f in flags.items() if f), sorted(retreats["disbanded"]))
        stats["retreat phases"] += 1
        stats["arrivals"] += len(arriving)
        single = defaultdict(set)
        for r in retreating:
            provs = {province(loc) for loc in r["retreats"]}
            if len(provs) == 1:
                single[provs.pop()].add(r["power"])
        standoffs = {p for p, s in single.items() if len(s) >= 2}
        stats["R-h1 retreat standoffs (provinces)"] += len(standoffs)
        stats["R-h1 units disbanded in a retreat standoff"] += sum(
            1 for r in retreating
            if {province(x) for x in r["retreats"]} & standoffs and len({province(x) for x in r["retreats"]}) == 1
        )
        bounced_at = set()
        for r in retreating:
            written = [o for o in retreat_orders.get(r["power"], []) if o.startswith(r["unit"] + " R ")]
            target = written and province(written[0].split()[3])
            if written and flags.get((r["power"], r["unit"])) == ["bounce", "disband"]:
                bounced_at.add(target)
        stats["R-i1 retreat bounces (provinces, no R-h1)"] += sum(1 for p in bounced_at if p not in standoffs)
        stats["retreats bounced (R-h1/R-i1)"] += sum(1 for f in flags.values() if "bounce" in f)
        stats["void retreats (R-i1)"] += sum(1 for f in flags.values() if "void" in f)
        stats["unordered or disbanded retreating units"] += sum(1 for f in flags.values() if f == ["disband"])
        stats["R-j1 arrivals onto an own unit or with another"] += sum(
            n - 1 for n in Counter(a.split()[2][:3] for a in arriving + board).values() if n > 1
        )
        if len(final_board) > len({(e.split()[0], province(e.split()[2])) for e in final_board}):
            check_next_phase(hexwar, root, workdir, rng, stats, expect, units, centers, phases,
                             board, final_board, retreat_orders, season)
    elif has_retreat_phase:
        diffs.append("hexwar refused the retreat phase's orders")
    if season == "F":
        last = [phase for phase in played if not phase.get("skipped")][-1]
        expect("centres after the fall", centres_after_fall(centers, final_board),
               {p: sorted(last["centers"].get(p, [])) for p in POWERS})
    stats["positions"] += 1
    stats["dislodged units (R-0)"] += sum(1 for r in retreating if not r["evicted"])
    stats["evictions (R-k1)"] += sum(1 for r in retreating if r["evicted"])
    stats["retreating units with options"] += sum(1 for r in retreating if r["retreats"])
    stats["removed at once (R-l1)"] += sum(1 for r in retreating if not r["retreats"])
    stats["fleets with coasts in their options"] += sum(
        1 for r in retreating if any("/" in x for x in r["retreats"])
    )
    held_after = defaultdict(set)
    for entry in board:
        held_after[province(entry.split()[2])].add(entry.split()[0])
    vacated = {
        (p, province(u.split()[1])) for p, us in units.items() for u in us
        if f"{p} {u}" not in board
    }
    for r in retreating:
        provs = {province(x) for x in r["retreats"]}
        mine = own_centres(r["power"], centers)
        stats["options: own supply centres (R-d1)"] += len(provs & mine)
        stats["options: home centres owned by another power (R-d1)"] += sum(
            1 for p in provs & HOME_CENTRES[r["power"]] if p not in centers.get(r["power"], [])
        )
        stats["options: held by an own unit after the moves (R-g1)"] += sum(
            1 for p in provs if held_after[p] == {r["power"]}
        )
        stats["options: vacated by an own unit (R-f3)"] += sum(
            1 for p in provs if (r["power"], p) in vacated
        )
        written = [o for o in orders.get(r["power"], []) if o.startswith(r["unit"] + " - ")]
        if written and r["unit"][0] == "A" and province(written[0].split()[3]) not in {
            province(x) for x in reachable_without_convoy(r["unit"])
        }:
            stats["retreating armies ordered to a far shore (R-b1)"] += 1
    return diffs, units, centers, orders, retreat_orders, difference


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", action="store_true", help="print every position, not only differences")
    parser.add_argument("--standard", action="store_true",
                        help="list the seeds where the reference and hexwar's standard rules differ")
    parser.add_argument("--convoys", action="store_true",
                        help="diplomacy_differential's convoy positions (R-b1's far shore, R-f1's "
                        "convoying fleets, R-k2's failed convoys)")
    parser.add_argument("--hexwar", default=os.path.join(root, "target/release/hexwar"))
    args = parser.parse_args()
    generators = (convoy_position, convoy_orders) if args.convoys else (None, None)
    stats = Counter()
    differ = 0
    start = time.time()
    with tempfile.TemporaryDirectory() as workdir:
        for k in range(args.cases):
            rng = random.Random(args.seed + k)
            diffs, units, centers, orders, retreat_orders, difference = check_position(
                args.hexwar, root, workdir, rng, stats, *generators
            )
            if difference and args.standard:
                print(f"== seed {args.seed + k}: reference and hexwar (standard) differ: {difference}")
            if diffs or args.show:
                differ += bool(diffs)
                print(f"== seed {args.seed + k}: {len(diffs)} difference(s)")
                print("  units:  ", json.dumps(units))
                print("  centers:", json.dumps({p: c for p, c in centers.items() if c}))
                print("  orders: ", json.dumps(orders))
                print("  retreats:", json.dumps(retreat_orders))
                for d in diffs:
                    print("  -", d)
    print(f"{args.cases} positions in {time.time() - start:.0f} s, {differ} with differences")
    for name, n in sorted(stats.items()):
        print(f"  {name}: {n}")


if __name__ == "__main__":
    main()
