#!/usr/bin/env python3
"""Generates scenarios/france1940/map.toml from geo.py (approximate public geography).

Projection: flat-topped hexes, odd printed columns shifted half a hex down, 40 x 32.
Column c (1-based) centre longitude = LON0 + (c-1)*DLON; row r centre latitude =
LAT0 - (r-1+shift)*DLAT, shift 0.5 on odd columns.  One hex is about 24 km across.
Rivers, estuaries and lakes are polylines: a hexside gets the feature when the segment
joining the two hex centres crosses the line.  OVERRIDES below fix what a 24 km grid
cannot draw by itself (Afsluitdijk, Maastricht/Eben-Emael, Paris, ...).
"""
import math
import sys

from geo import (SEA, IJSSELMEER, NETHERLANDS, BELGIUM, LUXEMBOURG, SWITZERLAND, GERMANY, REGIONS,
                 MAJOR_RIVERS, MINOR_RIVERS, ESTUARIES, LAKES, PLACES)

COLS, ROWS = 40, 32
LON0, DLON = -1.75, 0.291
LAT0, DLAT = 53.25, 0.216

LETTER = {"clear": ".", "marsh": "m", "forest": "f", "hills": "h", "wooded_hills": "w",
          "mountains": "^", "major_city": "C", "sea": "~"}
COUNTRY_LETTER = {"netherlands": "N", "belgium": "B", "luxembourg": "L", "france": "F",
                  "switzerland": "S", "germany": "G"}


def lab(c, r):
    return f"{c:02d}{r:02d}"


def parse(label):
    return int(label[:2]), int(label[2:])


def center(c, r):
    y = r + (0.5 if c % 2 == 1 else 0.0)
    return LON0 + (c - 1) * DLON, LAT0 - (y - 1) * DLAT


def planar_ll(lon, lat):
    u = 1 + (lon - LON0) / DLON
    y = 1 + (LAT0 - lat) / DLAT
    return u * 0.8660254, y


def planar_hex(c, r):
    return c * 0.8660254, r + (0.5 if c % 2 == 1 else 0.0)


def on_map(c, r):
    return 1 <= c <= COLS and 1 <= r <= ROWS


def neighbours(c, r):
    if c % 2 == 1:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    else:
        cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    return [(a, b) for a, b in cand if on_map(a, b)]


def adjacent(a, b):
    return parse(b) in neighbours(*parse(a))


def nearest(lon, lat):
    x, y = planar_ll(lon, lat)
    best = None
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            hx, hy = planar_hex(c, r)
            d = (hx - x) ** 2 + (hy - y) ** 2
            if best is None or d < best[0]:
                best = (d, c, r)
    return lab(best[1], best[2])


def inside(poly, lon, lat):
    n, res = len(poly), False
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > lat) != (yj > lat) and lon < (xj - xi) * (lat - yi) / (yj - yi) + xi:
            res = not res
        j = i
    return res


def seg_cross(p1, p2, q1, q2):
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def all_hexes():
    return [(c, r) for r in range(1, ROWS + 1) for c in range(1, COLS + 1)]


def all_sides():
    out = []
    for c, r in all_hexes():
        for n in neighbours(c, r):
            a, b = lab(c, r), lab(*n)
            if a < b:
                out.append((a, b))
    return out


def crossed(polyline):
    pts = [planar_ll(*p) for p in polyline]
    hits = []
    for a, b in all_sides():
        pa, pb = planar_hex(*parse(a)), planar_hex(*parse(b))
        for i in range(len(pts) - 1):
            if seg_cross(pa, pb, pts[i], pts[i + 1]):
                hits.append((a, b))
                break
    return hits


# ------------------------------------------------------------------ overrides
# terrain fixes, by label (applied after the automatic pass)
TERRAIN_OVERRIDES = {}
COUNTRY_OVERRIDES = {}
PLACE_HEX = {}          # place name -> label, where the nearest hex is not the right one
EXTRA = {}              # feature -> labels added by hand
HEXSIDE_ADD = {}        # kind -> pairs added by hand
HEXSIDE_DEL = {}        # kind -> pairs removed by hand
import os as _os
exec(open(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "overrides.py")).read())



def build():
    terrain, country, region_of = {}, {}, {}
    for c, r in all_hexes():
        lon, lat = center(c, r)
        L = lab(c, r)
        if inside(SEA, lon, lat) or inside(IJSSELMEER, lon, lat):
            terrain[L] = "sea"
            continue
        t = "clear"
        for kind, name, poly in REGIONS:
            if inside(poly, lon, lat):
                t, region_of[L] = kind, name
                break
        terrain[L] = t
        for cname, poly in (("netherlands", NETHERLANDS), ("belgium", BELGIUM), ("luxembourg", LUXEMBOURG),
                            ("switzerland", SWITZERLAND), ("germany", GERMANY)):
            if inside(poly, lon, lat):
                country[L] = cname
                break
        else:
            country[L] = "france"
    for L, t in TERRAIN_OVERRIDES.items():
        terrain[L] = t
        if t == "sea":
            country.pop(L, None)
    for L, cn in COUNTRY_OVERRIDES.items():
        country[L] = cn

    places = {}     # label -> (name, kinds)
    for name, lon, lat, kinds in PLACES:
        if name in PLACE_HEX:
            L = PLACE_HEX[name]
            if L is None:
                continue
        else:
            if lon > LON0 + (COLS - 1) * DLON + DLON * 0.5 or lat < LAT0 - (ROWS - 0.5) * DLAT:
                continue
            L = nearest(lon, lat)
        if L in places:
            print(f"warning: {name} and {places[L][0]} share {L}; dropping {name}", file=sys.stderr)
            continue
        places[L] = (name, kinds.split())
    return terrain, country, places


if __name__ == "__main__":
    t, c, p = build()
    for r in range(1, ROWS + 1):
        print(f"{r:02d} " + " ".join(LETTER[t[lab(cc, r)]] for cc in range(1, COLS + 1)))
