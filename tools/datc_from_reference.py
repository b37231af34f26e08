"""Turns the DATC tests of the reference engine (PyPI `diplomacy` 1.1.2, `tests/test_datc.py`)
into case files in the format of `../shared/data/diplomacy/datc/` (positions, orders and the
outcomes the tests assert: facts of the published DATC cases, as the reference reads them).

The shared data holds sections 6.A, 6.B, 6.C, 6.H and 6.I made that way; this tool makes the
others (6.D, 6.E, 6.F, 6.G, 6.J and the reference's own 6.K) so that hexwar is checked against
the same source for every section. Run with the reference's virtualenv
(benches/diplomacy_reference.sh makes it):

    /tmp/hexwar-diplomacy-ref/bin/python tools/datc_from_reference.py --out DIR [6.D 6.E ...]

How: each test method runs against the real reference engine, with the test class's helpers
wrapped so that every call is recorded: the board and centres as they stand when the phase is
processed, the orders given, and each assertion the test makes with the value the reference
gives (the reference passes its own tests, so that value is the expected one). `owner_name`
becomes `units`, `check_results` becomes `results` (`results_exact` in an adjustment phase),
`check_dislodged` becomes `dislodged` or, asserted false, `not_dislodged`. A test that builds
several games gives sub-cases `.a`, `.b`. Where a test guards a later phase with
`if game.phase_type == ...`, the phase gets `phase_type_guard` (a game may skip it).
`--check` compares the sections the shared data holds with what this tool makes of them.
"""

import argparse
import inspect
import json
import os
import re
import sys

from diplomacy.tests import test_datc
from diplomacy.utils import order_results as R

FLAG = {
    R.OK: "ok", R.VOID: "void", R.BOUNCE: "bounce", R.CUT: "cut", R.DISLODGED: "dislodged",
    R.NO_CONVOY: "no convoy", R.DISRUPTED: "disrupted", R.DISBAND: "disband",
}


def flag(value):
    for k, v in FLAG.items():
        if value is k or value == k:
            return v
    raise ValueError(f"unknown result {value!r}")


def as_list(x):
    return [x] if isinstance(x, str) else list(x)


class Recorder(test_datc.TestDATC):
    """The reference's test class with its helpers recording what each test sets and asserts."""

    def __init__(self):
        self.cases = []
        self.current = None

    # --- setting up -------------------------------------------------------------------------
    def create_game(self):
        game = test_datc.TestDATC.create_game()
        self.current = {"game": game, "phases": [], "orders": {}, "cleared": False}
        self.cases.append(self.current)
        return game

    def set_units(self, game, power_name, units):
        self.current.setdefault("asked", []).extend(as_list(units))
        test_datc.TestDATC.set_units(game, power_name, units)

    def clear_centers(self, game):
        self.current["cleared"] = True
        test_datc.TestDATC.clear_centers(game)

    def set_orders(self, game, power_name, orders):
        self.current["orders"].setdefault(power_name, []).extend(as_list(orders))
        test_datc.TestDATC.set_orders(game, power_name, orders)

    def process(self, game):
        c = self.current
        phase = {"phase": game.get_current_phase(), "phase_type": game.phase_type,
                 "orders": c["orders"], "expected": {}}
        if not c["phases"]:
            c["units"] = {p.name: list(p.units) for p in game.powers.values() if p.units}
            c["centers"] = {p.name: sorted(p.centers) for p in game.powers.values() if p.centers}
            c["retreats_before"] = {p.name: dict(p.retreats) for p in game.powers.values() if p.retreats}
        c["phases"].append(phase)
        c["orders"] = {}
        test_datc.TestDATC.process(game)

    # --- asserting --------------------------------------------------------------------------
    def expected(self):
        return self.current["phases"][-1]["expected"] if self.current["phases"] else None

    def owner_name(self, game, unit):
        owner = test_datc.TestDATC.owner_name(game, unit)
        e = self.expected()
        if e is not None:
            e.setdefault("units", {})[unit] = owner
        return owner

    def check_results(self, game, unit, value, phase="M"):
        ok = test_datc.TestDATC.check_results(game, unit, value, phase)
        e = self.expected()
        if e is not None:
            if phase == "A":
                values = value if isinstance(value, (list, tuple)) else [value]
                e.setdefault("results_exact", {})[unit] = [flag(v) for v in values]
            else:
                flags = e.setdefault("results", {}).setdefault(unit, [])
                if flag(value) not in flags:
                    flags.append(flag(value))
            if not ok:
                e.setdefault("_failed", []).append(unit)
        return ok


def check_dislodged_recorder(recorder, real):
    def check(game, unit, dislodger):
        ok = real(game, unit, dislodger)
        e = recorder.expected()
        if e is not None:
            if ok:
                e.setdefault("dislodged", {})[unit] = "".join(dislodger.split()[1:])[:3]
            else:
                e.setdefault("not_dislodged", []).append(unit)
        return ok
    return check


def title_of(method):
    doc = (method.__doc__ or "").strip().splitlines()[0]
    m = re.search(r"TEST CASE,?\s*(.*)$", doc)
    return (m.group(1) if m else doc).strip().rstrip(".")


def convert(section):
    """The cases of one section ('6.D'): a list of case dicts."""
    letter = section.split(".")[1].lower()
    names = sorted((n for n in dir(test_datc.TestDATC) if n.startswith(f"test_6_{letter}_")),
                   key=lambda n: int(n.rsplit("_", 1)[1]))
    out = []
    for name in names:
        number = name.rsplit("_", 1)[1]
        datc_id = f"{section}.{number}"
        rec = Recorder()
        real = test_datc.check_dislodged
        test_datc.check_dislodged = check_dislodged_recorder(rec, real)
        try:
            getattr(rec, name)()
            error = None
        except AssertionError as e:
            error = f"the reference fails its own test: {e!r}"
        finally:
            test_datc.check_dislodged = real
        method = getattr(test_datc.TestDATC, name)
        guarded = "phase_type ==" in inspect.getsource(method)
        played = [c for c in rec.cases if c["phases"]]
        for k, c in enumerate(played):
            first, later = c["phases"][0], c["phases"][1:]
            case = {
                "id": datc_id + (f".{'abcdefgh'[k]}" if len(played) > 1 else ""),
                "datc_id": datc_id,
                "title": title_of(method),
                "phase": first["phase"],
                "units": c["units"],
                "centers": c["centers"],
                "centers_cleared": c["cleared"],
                "orders": first["orders"],
                "expected": first["expected"],
                "later_phases": [
                    dict({"phase": p["phase"], "orders": p["orders"], "expected": p["expected"]},
                         **({"phase_type_guard": p["phase_type"]} if guarded else {}))
                    for p in later
                ],
                "notes": "",
            }
            placed = {u for l in c["units"].values() for u in l}
            dropped = [u for u in c.get("asked", []) if u not in placed]
            if dropped:
                case["notes"] = ("the test places " + ", ".join(dropped) + ", which the reference "
                                 "engine does not put on the board (no such location)")
            if c.get("retreats_before"):
                case["notes"] = "the test starts with units waiting to retreat: " + json.dumps(c["retreats_before"])
            if error:
                case["notes"] = (case["notes"] + " " + error).strip()
            out.append(case)
    return out


def check(shared):
    """Compares what this tool makes of the sections in `shared` (the given DATC data) with them:
    prints each case that differs and the count."""
    def lists(d):
        return {p: sorted(l) for p, l in d.items() if l}

    total = differ = 0
    for name in sorted(os.listdir(shared)):
        if not re.fullmatch(r"6\.[A-Z]\.json", name):
            continue
        given = {c["id"]: c for c in json.load(open(os.path.join(shared, name)))["cases"]}
        made = {c["id"]: c for c in convert(name[:-5])}
        for cid, a in given.items():
            total += 1
            b = made.get(cid)
            if b is None:
                differ += 1
                print(f"{cid}: not made")
                continue
            fields = [k for k in ("title", "phase", "centers_cleared", "orders", "expected")
                      if a[k] != b[k]]
            fields += [k for k in ("units", "centers") if lists(a[k]) != lists(b[k])]
            if [dict(p) for p in a["later_phases"]] != b["later_phases"]:
                fields.append("later_phases")
            if fields:
                differ += 1
                print(f"{cid}: {', '.join(fields)} differ")
    print(f"{total} given cases, {total - differ} made alike, {differ} differ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sections", nargs="*", default=["6.D", "6.E", "6.F", "6.G", "6.J", "6.K"])
    parser.add_argument("--out", default="-", help="directory for SECTION.json files (- prints)")
    parser.add_argument("--check", metavar="DIR",
                        help="compare with the given sections in DIR (../shared/data/diplomacy/datc)")
    args = parser.parse_args()
    if args.check:
        check(args.check)
        return
    for section in args.sections:
        cases = convert(section)
        doc = {"section": section, "source": "reference engine tests (PyPI diplomacy 1.1.2)",
               "format_version": 1, "cases": cases}
        text = json.dumps(doc, indent=1) + "\n"
        if args.out == "-":
            sys.stdout.write(text)
        else:
            os.makedirs(args.out, exist_ok=True)
            with open(os.path.join(args.out, section + ".json"), "w") as f:
                f.write(text)
            print(f"{section}: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
