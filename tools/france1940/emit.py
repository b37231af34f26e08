#!/usr/bin/env python3
"""Computes hexsides, features and zones and writes map.toml (see make_map.py)."""
import sys
import unicodedata

from make_map import *
import make_map as mm

COUNTRY_ORDER = ["netherlands", "belgium", "luxembourg", "france", "switzerland", "germany"]

# extra hex features by hand
FORTIFICATIONS = {
    # Belgium
    "2613": "Liege (fortified position PFL)", "2414": "Namur (fortified position PFN)",
    "2210": "Antwerp (national redoubt)", "2211": "KW line (Koningshooikt-Lier)",
    "2311": "KW line (Leuven)", "2312": "KW line (Wavre)", "2612": "Eben-Emael",
    # Netherlands
    "2506": "New Dutch Water Line (Utrecht)", "2606": "Grebbe line (Amersfoort to Rhenen)",
    "2709": "Peel-Raam line", "2708": "Peel-Raam line (Grave)", "2403": "Afsluitdijk positions (Den Oever, Kornwerderzand)",
    # France
    "2114": "Maubeuge fortified sector",
}
ASSEMBLY = {"1516": "Amiens", "2221": "Chalons-sur-Marne", "2722": "Toul"}
PARIS = ["1521", "1621"]


def slug(name):
    s = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "".join(ch if ch.isalnum() else "_" for ch in s).strip("_").replace("__", "_")


def compute():
    terrain, country, places = build()
    # major cities are terrain; Paris covers two hexes
    for L, (name, kinds) in places.items():
        if "major" in kinds:
            terrain[L] = "major_city"
    for L in PARIS:
        terrain[L] = "major_city"
        country[L] = "france"
    land = {L for L, t in terrain.items() if t != "sea"}

    sides = {}   # kind -> {pair: source name}

    def add(kind, pair, src):
        a, b = sorted(pair)
        sides.setdefault(kind, {})
        if (a, b) not in sides[kind]:
            sides[kind][(a, b)] = src

    def has(kind, pair):
        return tuple(sorted(pair)) in sides.get(kind, {})

    for a, b in all_sides():
        if (a in land) != (b in land):
            add("sea", (a, b), "coast")
    for name, line in ESTUARIES.items():
        for a, b in crossed(line):
            if a in land and b in land:
                add("sea", (a, b), name)
    for name, line in LAKES.items():
        for a, b in crossed(line):
            if a in land and b in land:
                add("lake", (a, b), name)
    for name, line in MAJOR_RIVERS.items():
        for a, b in crossed(line):
            if a in land and b in land and not has("sea", (a, b)) and not has("lake", (a, b)):
                add("major_river", (a, b), name)
    for name, line in MINOR_RIVERS.items():
        for a, b in crossed(line):
            if a in land and b in land and not any(has(k, (a, b)) for k in ("sea", "lake", "major_river")):
                add("minor_river", (a, b), name)
    for kind, pairs in HEXSIDE_DEL.items():
        for pr in pairs:
            sides.get(kind, {}).pop(tuple(sorted(pr)), None)
    for kind, pairs in HEXSIDE_ADD.items():
        for pr, src in pairs:
            add(kind, pr, src)
            if kind in ("sea", "lake"):
                for k in ("major_river", "minor_river"):
                    sides.get(k, {}).pop(tuple(sorted(pr)), None)

    feats = {}   # feature -> {label: note}
    for L, (name, kinds) in places.items():
        if "major" not in kinds:
            feats.setdefault("town", {})[L] = name
        if "port" in kinds:
            feats.setdefault("port", {})[L] = name
    for L, note in FORTIFICATIONS.items():
        feats.setdefault("fortification", {})[L] = note
    feats["eben_emael"] = {"2612": "Fort Eben-Emael"}
    feats["maastricht"] = {"2712": "Maastricht bridges"}
    feats["intrinsic_strength"] = {"2612": "Eben-Emael", "2712": "Maastricht"}
    # Maginot line: French hexes facing Luxembourg and Germany, Montmedy to Basel
    for L in sorted(land):
        if country.get(L) != "france":
            continue
        nb = [lab(*n) for n in neighbours(*parse(L))]
        if any(country.get(n) in ("germany", "luxembourg") for n in nb):
            feats.setdefault("maginot", {})[L] = "Maginot line"
    for L in ("2518",):  # Montmedy bridgehead
        feats["maginot"][L] = "Maginot line (Montmedy)"
    # West Wall: German hexes facing France and Luxembourg, and the Aachen-Eifel front
    for L in sorted(land):
        if country.get(L) != "germany":
            continue
        c_, r_ = parse(L)
        nb = [lab(*n) for n in neighbours(c_, r_)]
        if any(country.get(n) in ("france", "luxembourg") for n in nb) or \
           (r_ >= 12 and any(country.get(n) in ("belgium", "netherlands") for n in nb)):
            feats.setdefault("westwall", {})[L] = "West Wall"

    zones = {}
    for L, (name, kinds) in places.items():
        if "major" in kinds:
            zones.setdefault("city_" + slug(name), []).append(L)
            zones.setdefault("major_cities_" + country[L], []).append(L)
    zones["city_paris"] = list(PARIS)
    for L in PARIS:
        if L not in zones["major_cities_france"]:
            zones["major_cities_france"].append(L)
    zones["assembly_points"] = sorted(ASSEMBLY)
    return terrain, country, places, sides, feats, zones


def check(terrain, country, places, sides, feats, zones):
    errs = []
    land = {L for L, t in terrain.items() if t != "sea"}
    for L in land:
        if L not in country:
            errs.append(f"land hex {L} has no country")
    for L in terrain:
        if terrain[L] == "sea" and L in country:
            errs.append(f"sea hex {L} in {country[L]}")
    for feat, ls in feats.items():
        for L in ls:
            if L not in land:
                errs.append(f"feature {feat} on sea hex {L}")
    for kind, pairs in sides.items():
        for a, b in pairs:
            if not adjacent(a, b):
                errs.append(f"{kind} {a}/{b} not adjacent")
    for L, name in feats.get("port", {}).items():
        if not any(tuple(sorted((L, lab(*n)))) in sides["sea"] for n in neighbours(*parse(L))):
            errs.append(f"port {name} {L} has no sea hexside")
    for L in feats.get("maginot", {}):
        if country.get(L) != "france":
            errs.append(f"maginot {L} not French")
    for L in zones["assembly_points"]:
        if country.get(L) != "france":
            errs.append(f"assembly point {L} not in France")
    for z, ls in zones.items():
        for L in ls:
            if L not in land:
                errs.append(f"zone {z} has sea hex {L}")
    return errs


if __name__ == "__main__":
    res = compute()
    for e in check(*res):
        print("ERROR", e)
    t, c, p, s, f, z = res
    from collections import Counter
    print(Counter(t.values()))
    print({k: len(v) for k, v in s.items()})
    print({k: len(v) for k, v in f.items()})
    print({k: v for k, v in z.items() if k.startswith("major")})
