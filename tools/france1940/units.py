#!/usr/bin/env python3
"""Order of battle, 10 May 1940 (schematic): writes units_german.toml, units_allied.toml, units_neutral.toml."""
import sys

# Unit kinds: (type, size, ma, strength, motorized, class)
def K(type_, size, ma, st):
    mot = type_ in ("armored", "motorized")
    cls = "motorized" if mot else ("mountain" if type_ == "mountain" else "foot")
    return dict(type=type_, size=size, ma=ma, strength=st, motorized=mot, cls=cls)


PZ = lambda st=7, ma=8: K("armored", "XX", ma, st)
MOT = lambda st=4, ma=6: K("motorized", "XX", ma, st)
MOTR = lambda st=2: K("motorized", "III", 6, st)
INFC = lambda st=9: K("infantry", "XXX", 4, st)
INF = lambda st=3, ma=4: K("infantry", "XX", ma, st)
INFR = lambda st=1: K("infantry", "III", 4, st)
MTN = lambda st=3: K("mountain", "XX", 4, st)
MTNR = lambda st=1: K("mountain", "III", 4, st)
ARMR = lambda st=2, ma=6: K("armored", "III", ma, st)

U = []   # (id, side, nation, kind, at, attrs, comment)


def u(id_, side, nation, kind, at=None, comment="", **attrs):
    U.append((id_, side, nation, kind, at, attrs, comment))


def S(title):
    U.append(("#", title))


# ---------------------------------------------------------------- GERMANY
G = "german"
S('Army Group B: 18th Army (Netherlands)')
u("de-1-kav", G, G, INF(2, 5), "3201", "1st Cavalry Division (horsed), towards Groningen and Friesland", army_group="B")
u("de-x-ak", G, G, INFC(), "3106", "X Corps (18th Army), towards the IJssel", army_group="B")
u("de-xxvi-ak", G, G, INFC(), "2808", "XXVI Corps (18th Army), Kleve, towards Nijmegen and Gennep", army_group="B")
u("de-9-pz", G, G, PZ(6), "2907", "9th Panzer Division (18th Army), towards Moerdijk", army_group="B")
u("de-ss-v", G, G, MOT(4), "2907", "SS-Verfuegungs-Division (motorized)", army_group="B")
u("de-lssah", G, G, MOTR(2), "3106", "Leibstandarte SS Adolf Hitler (motorized regiment)", army_group="B")
u("de-207-id", G, G, INF(3), "3008", "207th Infantry Division (18th Army)", army_group="B")
S('Army Group B: 6th Army (Belgium)')
u("de-3-pz", G, G, PZ(7), "2911", "3rd Panzer Division (XVI Panzer Corps)", army_group="B")
u("de-4-pz", G, G, PZ(7), "2911", "4th Panzer Division (XVI Panzer Corps), towards Maastricht", army_group="B")
u("de-20-mot", G, G, MOT(4), "2910", "20th Motorized Infantry Division (XVI Panzer Corps)", army_group="B")
u("de-ix-ak", G, G, INFC(), "2910", "IX Corps (6th Army)", army_group="B")
u("de-xi-ak", G, G, INFC(), "2909", "XI Corps (6th Army)", army_group="B")
u("de-xxvii-ak", G, G, INFC(), "2812", "XXVII Corps (6th Army), Aachen", army_group="B")
u("de-iv-ak", G, G, INFC(), "2912", "IV Corps (6th Army), Dueren", army_group="B")
S('Army Group A: 4th Army')
u("de-5-pz", G, G, PZ(6), "2913", "5th Panzer Division (XV Panzer Corps, Hoth)", army_group="A")
u("de-7-pz", G, G, PZ(6), "2913", "7th Panzer Division (XV Panzer Corps, Rommel), towards Dinant", army_group="A")
u("de-ii-ak", G, G, INFC(), "3013", "II Corps (4th Army)", army_group="A")
u("de-v-ak", G, G, INFC(), "3012", "V Corps (4th Army)", army_group="A")
u("de-viii-ak", G, G, INFC(), "2914", "VIII Corps (4th Army)", army_group="A")
S('Army Group A: Panzergruppe Kleist and 12th Army')
u("de-6-pz", G, G, PZ(6), "2915", "6th Panzer Division (XLI Panzer Corps, Reinhardt), towards Montherme", army_group="A")
u("de-8-pz", G, G, PZ(6), "2915", "8th Panzer Division (XLI Panzer Corps)", army_group="A")
u("de-1-pz", G, G, PZ(8), "2916", "1st Panzer Division (XIX Panzer Corps, Guderian), towards Sedan", army_group="A")
u("de-2-pz", G, G, PZ(7), "2916", "2nd Panzer Division (XIX Panzer Corps)", army_group="A")
u("de-10-pz", G, G, PZ(7), "2916", "10th Panzer Division (XIX Panzer Corps)", army_group="A")
u("de-gd", G, G, MOTR(2), "2916", "Infanterie-Regiment Grossdeutschland (motorized)", army_group="A")
u("de-2-mot", G, G, MOT(4), "3015", "2nd Motorized Infantry Division (XIV Motorized Corps)", army_group="A")
u("de-13-mot", G, G, MOT(4), "3015", "13th Motorized Infantry Division (XIV Motorized Corps)", army_group="A")
u("de-29-mot", G, G, MOT(4), "3016", "29th Motorized Infantry Division (XIV Motorized Corps)", army_group="A")
u("de-iii-ak", G, G, INFC(), "3014", "III Corps (12th Army)", army_group="A")
u("de-vi-ak", G, G, INFC(), "3016", "VI Corps (12th Army)", army_group="A")
u("de-xviii-ak", G, G, INFC(), "3115", "XVIII Corps (12th Army)", army_group="A")
S('Army Group A: 16th Army (Luxembourg, facing Longwy and Thionville)')
u("de-vii-ak", G, G, INFC(), "3017", "VII Corps (16th Army), Trier", army_group="A")
u("de-xiii-ak", G, G, INFC(), "3018", "XIII Corps (16th Army)", army_group="A")
u("de-xxiii-ak", G, G, INFC(), "2918", "XXIII Corps (16th Army)", army_group="A")
S('Army Group C: 1st Army (Saar, Palatinate) and 7th Army (Upper Rhine)')
u("de-xii-ak", G, G, INFC(7), "3019", "XII Corps (1st Army)", army_group="C")
u("de-xxiv-ak", G, G, INFC(7), "3119", "XXIV Corps (1st Army), Saarbruecken", army_group="C")
u("de-xxx-ak", G, G, INFC(7), "3220", "XXX Corps (1st Army), Zweibruecken", army_group="C")
u("de-xxxvii-ak", G, G, INFC(6), "3420", "XXXVII Corps (1st Army), Pfaelzerwald", army_group="C")
u("de-xxv-ak", G, G, INFC(6), "3423", "XXV Corps (7th Army), Offenburg opposite Strasbourg", army_group="C")
u("de-xxxiii-ak", G, G, INFC(6), "3425", "XXXIII Corps (7th Army), Freiburg", army_group="C")
u("de-554-id", G, G, INF(2), "3521", "554th Infantry Division (7th Army), Rastatt", army_group="C")
u("de-557-id", G, G, INF(2), "3427", "557th Infantry Division (7th Army), Loerrach opposite Basel", army_group="C")
S('Airborne (off the map until dropped, F40-11)')
AB = dict(pool="airborne", airborne=True)
u("de-fjr-1", G, G, K("airborne", "III", 0, 0), None, "Fallschirmjaeger-Regiment 1 (7th Flieger Division)", para=True, **AB)
u("de-fjr-2", G, G, K("airborne", "III", 0, 0), None, "Fallschirmjaeger-Regiment 2 (7th Flieger Division)", para=True, **AB)
u("de-sa-koch", G, G, K("airborne", "III", 0, 0), None, "Sturmabteilung Koch (gliders: Eben-Emael, Albert Canal bridges)", para=True, **AB)
u("de-22-ll", G, G, K("airborne", "XX", 4, 3), None, "22nd Airlanding Division", airlanding=True, **AB)
S('OKH reserve (F40-17.4: 2 a turn from turn 3)')
R = dict(pool="german_reserve")
for roman, note in [("i", "I Corps"), ("xvii", "XVII Corps"), ("xxxviii", "XXXVIII Corps (Manstein)"), ("xl", "XL Corps"),
                    ("xlii", "XLII Corps"), ("xliii", "XLIII Corps"), ("xliv", "XLIV Corps"), ("xlv", "XLV Corps")]:
    u(f"de-{roman}-ak", G, G, INFC(), None, note + " (OKH reserve)", **R)
u("de-ss-t", G, G, MOT(4), None, "SS-Totenkopf-Division (motorized, OKH reserve)", **R)
u("de-ss-pol", G, G, INF(3), None, "SS-Polizei-Division (OKH reserve)", **R)
u("de-1-geb", G, G, MTN(3), None, "1st Mountain Division (OKH reserve)", **R)
u("de-11-sbr", G, G, MOTR(2), None, "11th Rifle Brigade (motorized, OKH reserve)", **R)
for n in (8, 28, 44, 62, 87, 291):
    u(f"de-{n}-id", G, G, INF(3), None, f"{n}th Infantry Division (OKH reserve)".replace("1th", "1st").replace("2th", "2nd"), **R)

# ---------------------------------------------------------------- ALLIES
A, F, B = "allied", "french", "british"
S('7th Army (Giraud), left wing on the coast, to advance towards Breda')
u("fr-68-di", A, F, INF(3), "1511", "68th Infantry Division (7th Army), Dunkirk", army="7")
u("fr-1-dlm", A, F, PZ(5), "1612", "1st Light Mechanized Division (7th Army)", army="7")
u("fr-9-dim", A, F, MOT(3), "1612", "9th Motorized Infantry Division (7th Army)", army="7")
u("fr-25-dim", A, F, MOT(3), "1612", "25th Motorized Infantry Division (7th Army)", army="7")
u("fr-xvi-ca", A, F, INFC(8), "1613", "XVI Corps (7th Army: 4th, 21st, 60th ID)", army="7")
S('BEF (Gort), between Armentieres and Douai')
u("gb-i-corps", A, B, INFC(9), "1713", "BEF I Corps (1st, 2nd, 48th Divisions)", bef=True)
u("gb-ii-corps", A, B, INFC(9), "1813", "BEF II Corps (3rd, 4th, 50th Divisions), Lille", bef=True)
u("gb-iii-corps", A, B, INFC(9), "1814", "BEF III Corps (42nd, 44th, 5th Divisions)", bef=True)
u("gb-1-atb", A, B, ARMR(2, 6), "1713", "1st Army Tank Brigade (Matildas)")
u("gb-51-hd", A, B, INF(3), "2919", "51st (Highland) Division, Saar front under French 3rd Army")
S('1st Army (Blanchard)')
u("fr-2-dlm", A, F, PZ(5), "1914", "2nd Light Mechanized Division (Cavalry Corps, Prioux)", army="1")
u("fr-3-dlm", A, F, PZ(5), "1914", "3rd Light Mechanized Division (Cavalry Corps, Prioux)", army="1")
u("fr-1-dim", A, F, MOT(3), "1914", "1st Motorized Infantry Division (1st Army)", army="1")
u("fr-12-dim", A, F, MOT(3), "1914", "12th Motorized Infantry Division (1st Army)", army="1")
u("fr-iii-ca", A, F, INFC(8), "2015", "III Corps (1st Army)", army="1")
u("fr-15-dim", A, F, MOT(3), "2015", "15th Motorized Infantry Division (1st Army)", army="1")
u("fr-iv-ca", A, F, INFC(8), "2114", "IV Corps (1st Army), Maubeuge", army="1")
u("fr-v-ca", A, F, INFC(8), "1915", "V Corps (1st Army)", army="1")
S('9th Army (Corap), on the frontier, to advance to the Meuse between Namur and Sedan')
u("fr-1-dlc", A, F, MOT(3), "2115", "1st Light Cavalry Division (9th Army)", army="9")
u("fr-4-dlc", A, F, MOT(3), "2115", "4th Light Cavalry Division (9th Army)", army="9")
u("fr-5-dim", A, F, MOT(3), "2115", "5th Motorized Infantry Division (9th Army)", army="9")
u("fr-ii-ca", A, F, INFC(7), "2116", "II Corps (9th Army)", army="9")
u("fr-xi-ca", A, F, INFC(6), "2217", "XI Corps (9th Army: 18th, 22nd ID)", army="9")
u("fr-xli-ca", A, F, INFC(6), "2317", "XLI Fortress Corps (9th Army: 61st ID, 102nd Fortress ID), Charleville", army="9")
S('2nd Army (Huntziger), Sedan to Montmedy')
u("fr-x-ca", A, F, INFC(6), "2417", "X Corps (2nd Army: 55th, 71st ID, 3rd North African ID), Sedan", army="2")
u("fr-2-dlc", A, F, MOT(3), "2418", "2nd Light Cavalry Division (2nd Army)", army="2")
u("fr-5-dlc", A, F, MOT(3), "2418", "5th Light Cavalry Division (2nd Army)", army="2")
u("fr-3-dic", A, F, INF(3), "2418", "3rd Colonial Infantry Division (2nd Army)", army="2")
u("fr-xviii-ca", A, F, INFC(7), "2518", "XVIII Corps (2nd Army), Montmedy", army="2")
S('3rd Army (Conde), Longuyon to Metz')
u("fr-3-dlc", A, F, MOT(3), "2619", "3rd Light Cavalry Division (3rd Army)", army="3")
u("fr-cac", A, F, INFC(7), "2718", "Colonial Army Corps (3rd Army), Longwy", army="3")
u("fr-xxiv-ca", A, F, INFC(7), "2819", "XXIV Corps (3rd Army), Thionville", army="3")
u("fr-xlii-ca", A, F, INFC(7), "2919", "XLII Fortress Corps (3rd Army)", army="3")
u("fr-vi-ca", A, F, INFC(7), "2820", "VI Corps (3rd Army), Metz", army="3")
S('4th Army (Requin), Saar')
u("fr-ix-ca", A, F, INFC(7), "3020", "IX Corps (4th Army)", army="4")
u("fr-xx-ca", A, F, INFC(7), "3120", "XX Corps (4th Army), Sarreguemines", army="4")
S('5th Army (Bourret), Bitche to the Lauter')
u("fr-xii-ca", A, F, INFC(7), "3221", "XII Corps (5th Army)", army="5")
u("fr-xliii-ca", A, F, INFC(6), "3320", "XLIII Fortress Corps (5th Army), Bitche", army="5")
u("fr-viii-ca", A, F, INFC(7), "3421", "VIII Corps (5th Army), Wissembourg", army="5")
u("fr-xvii-ca", A, F, INFC(7), "3422", "XVII Corps (5th Army), Haguenau", army="5")
S('8th Army (Garchery), Upper Rhine and Swiss frontier')
u("fr-sf-strasbourg", A, F, INF(3, 2), "3322", "Fortified Sector of Strasbourg (fortress troops)", army="8")
u("fr-xiii-ca", A, F, INFC(6), "3324", "XIII Corps (8th Army), Rhine", army="8")
u("fr-xliv-ca", A, F, INFC(6), "3326", "XLIV Fortress Corps (8th Army), Haut-Rhin", army="8")
u("fr-vii-ca", A, F, INFC(7), "3027", "VII Corps (8th Army), Belfort", army="8")
u("fr-xlv-ca", A, F, INFC(6), "3128", "XLV Fortress Corps (8th Army), Swiss frontier", army="8")
u("fr-pl-2", A, F, INF(3), "3027", "2nd Polish Rifle Division (8th Army)", army="8")
S('GQG reserve behind the front')
u("fr-1-dcr", A, F, PZ(6, 6), "2221", "1st Armoured Division (DCR), Chalons", army="GQG")
u("fr-2-dcr", A, F, PZ(6, 6), "2221", "2nd Armoured Division (DCR), Chalons", army="GQG")
u("fr-3-dcr", A, F, PZ(6, 6), "2119", "3rd Armoured Division (DCR), Reims", army="GQG")
u("fr-xxi-ca", A, F, INFC(7), "2320", "XXI Corps (GQG reserve)", army="GQG")
u("fr-3-dim", A, F, MOT(3), "2119", "3rd Motorized Infantry Division (GQG reserve)", army="GQG")
u("fr-xxiii-ca", A, F, INFC(7), "1717", "XXIII Corps (GQG reserve)", army="GQG")
S('Allied reserves (F40-17.5: 3 a turn from turn 2)')
R = dict(pool="allied_reserve")
u("fr-4-dcr", A, F, PZ(5, 6), None, "4th Armoured Division (DCR, de Gaulle)", **R)
for n, name, st in [(2, "2nd Infantry Division", 3), (7, "7th North African Infantry Division", 3), (13, "13th Infantry Division", 3),
                    (14, "14th Infantry Division (de Lattre)", 3), (16, "16th Infantry Division", 3), (19, "19th Infantry Division", 3),
                    (23, "23rd Infantry Division", 3), (24, "24th Infantry Division", 3), (36, "36th Infantry Division", 3),
                    (44, "44th Infantry Division", 3), (47, "47th Infantry Division", 3), (85, "85th African Infantry Division", 3),
                    (87, "87th African Infantry Division", 3)]:
    u(f"fr-{n}-di", A, F, INF(st), None, name, **R)
for n in (1, 4, 7):
    u(f"fr-{n}-dic", A, F, INF(3), None, f"{n}{'st' if n == 1 else 'th'} Colonial Infantry Division", **R)
for n in (27, 28, 29):
    u(f"fr-{n}-dia", A, F, MTN(3), None, f"{n}th Alpine Infantry Division", **R)
for n in (235, 236, 237, 238, 239, 240):
    u(f"fr-{n}-dli", A, F, INF(2), None, f"{n}th Light Infantry Division", **R)
u("fr-pl-1", A, F, INF(3), None, "1st Polish Grenadier Division (under French command)", **R)
u("gb-52-ld", A, B, INF(3), None, "52nd (Lowland) Division", **R)
u("gb-1-cdn", A, B, INF(3), None, "1st Canadian Division", **R)
u("gb-beauman", A, B, INF(1), None, "Beauman Division (improvised)", **R)
S('Armee des Alpes, two SR units (F40-17.6)')
u("fr-sr-1", A, F, MTN(3), None, "Armee des Alpes SR unit (XIV Corps)", pool="armee_des_alpes")
u("fr-sr-2", A, F, MTN(3), None, "Armee des Alpes SR unit (XV Corps)", pool="armee_des_alpes")
S('Reinforcements (F40-17.2)')
u("gb-1-ad", A, B, PZ(4), None, "British 1st Armoured Division", pool="reinforcement", arrives_turn=3)
u("gb-2-ad", A, B, PZ(4), None, "British 2nd Armoured Division", pool="reinforcement", arrives_turn=7)

# ---------------------------------------------------------------- NEUTRALS
N = "neutral"
S('Netherlands')
u("nl-i-ak", N, "dutch", INFC(6), "2206", "I Corps (1st, 3rd Divisions), Fortress Holland reserve, The Hague")
u("nl-ii-ak", N, "dutch", INFC(6), "2606", "II Corps (2nd, 4th Divisions), Grebbe line, Amersfoort")
u("nl-iv-ak", N, "dutch", INFC(6), "2607", "IV Corps (7th, 8th Divisions), Grebbe line south (Rhenen) and Betuwe")
u("nl-iii-ak", N, "dutch", INFC(6), "2709", "III Corps (5th, 6th Divisions), Peel-Raam line")
u("nl-ld", N, "dutch", INF(2), "2508", "Light Division, 's-Hertogenbosch")
u("nl-peel", N, "dutch", INF(2), "2708", "Peel Division, Grave")
u("nl-bde-a", N, "dutch", INFR(1), "2607", "Brigade A, Betuwe")
u("nl-bde-b", N, "dutch", INFR(1), "2707", "Brigade B, Maas and Waal, Nijmegen")
u("nl-afsluitdijk", N, "dutch", INFR(1), "2403", "Afsluitdijk detachment (Den Oever, Kornwerderzand)")
u("nl-rotterdam", N, "dutch", INFR(1), "2207", "Rotterdam garrison (marines)")
S('Belgium')
u("be-i-ca", N, "belgian", INFC(6), "2612", "I Corps (4th, 7th Divisions), Albert Canal at Eben-Emael")
u("be-ii-ca", N, "belgian", INFC(6), "2411", "II Corps, Albert Canal (Herentals)")
u("be-iii-ca", N, "belgian", INFC(6), "2613", "III Corps, Fortified Position of Liege")
u("be-iv-ca", N, "belgian", INFC(6), "2511", "IV Corps, Albert Canal (Hasselt)")
u("be-v-ca", N, "belgian", INFC(6), "2311", "V Corps, KW line (Leuven)")
u("be-vi-ca", N, "belgian", INFC(6), "2210", "VI Corps, Antwerp")
u("be-vii-ca", N, "belgian", INFC(6), "2414", "VII Corps, Fortified Position of Namur")
u("be-1-cav", N, "belgian", MOT(2), "2212", "1st Cavalry Division (Cavalry Corps), Brussels")
u("be-2-cav", N, "belgian", MOT(2), "2312", "2nd Cavalry Division (Cavalry Corps), Wavre")
u("be-ch-ard", N, "belgian", INF(2), "2716", "Chasseurs Ardennais Division, Bastogne")
S('Switzerland')
u("ch-1-div", N, "swiss", INF(3), "3031", "1st Division, Vaud")
u("ch-2-div", N, "swiss", MTN(3), "3129", "2nd Division, Jura (Neuchatel)")
u("ch-4-div", N, "swiss", MTN(3), "3428", "4th Division, Jura (Basel-Land)")
u("ch-5-div", N, "swiss", INF(3), "3527", "5th Division, Aargau")
u("ch-6-div", N, "swiss", INF(3), "3628", "6th Division, Zurich")
u("ch-7-div", N, "swiss", INF(3), "3827", "7th Division, Thurgau")
u("ch-basel", N, "swiss", INFR(1), "3327", "Basel territorial regiment")
R = dict(pool="swiss_reserve")
u("ch-3-div", N, "swiss", INF(3), None, "3rd Division (Bern)", **R)
u("ch-8-div", N, "swiss", INF(3), None, "8th Division (Lucerne)", **R)
u("ch-9-div", N, "swiss", MTN(3), None, "9th Division (Gotthard)", **R)
u("ch-gebbr-10", N, "swiss", MTNR(1), None, "10th Mountain Brigade", **R)


FILES = {"german": "units_german.toml", "allied": "units_allied.toml", "neutral": "units_neutral.toml"}
HEAD = {
    "german": "German order of battle, 10 May 1940 (schematic): Army Groups A, B, C, airborne, OKH reserve.",
    "allied": "Allied order of battle, 10 May 1940 (schematic): French armies from the coast to Switzerland, the BEF,\n"
              "# the GQG reserve behind the front, the reserve pool, the Armee des Alpes SR units and the British armoured reinforcements.",
    "neutral": "Neutral orders of battle, 10 May 1940 (schematic): Dutch, Belgian and Swiss armies (side \"neutral\" at start, F40-16).",
}
NATION_COUNTRY = {"german": "germany", "french": "france", "british": "france", "dutch": "netherlands",
                  "belgian": "belgium", "swiss": "switzerland"}
EQ = {"III": 0, "XX": 1, "XXX": 3}


def toml_val(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    return '"' + str(v) + '"'


def check(terrain, country):
    errs, ids, stack = [], set(), {}
    for e in U:
        if e[0] == "#":
            continue
        id_, side, nation, k, at, attrs, comment = e
        if id_ in ids:
            errs.append(f"duplicate id {id_}")
        ids.add(id_)
        if at is None and "pool" not in attrs:
            errs.append(f"{id_}: off-map without a pool")
        if at is not None:
            if terrain.get(at, "sea") == "sea":
                errs.append(f"{id_}: {at} is not a land hex")
            elif country.get(at) != NATION_COUNTRY[nation]:
                errs.append(f"{id_}: {at} is in {country.get(at)}, not {NATION_COUNTRY[nation]}")
            if k["motorized"] and terrain.get(at) == "marsh":
                errs.append(f"{id_}: motorized unit in marsh {at}")
            s = stack.setdefault((side, at), [0, 0])
            s[0] += EQ[k["size"]]
            if k["type"] == "armored":
                s[1] += EQ[k["size"]]
    for (side, at), (eq, arm) in stack.items():
        if eq > 4 or arm > 3:
            errs.append(f"stack {side} {at}: {eq} division-equivalents, {arm} armored")
    return errs


def french_hexes():
    return sorted({e[4] for e in U if e[0] != "#" and e[2] == "french" and e[4]})


def write(outdir):
    for side, fname in FILES.items():
        lines = [f"# {HEAD[side]}", "# Generated by tools/write_map.py from tools/units.py; one [[unit]] table per counter.",
                 "# Strengths and movement allowances are design values: infantry XX 2-3 / MA 4, infantry XXX about",
                 "# three divisions, panzer XX 6-8 / MA 8, light mechanized and armoured divisions 4-6, motorized XX 3-4 / MA 6.",
                 "# attrs: motorized (armored and motorized units, F40-R5), class (movement class: foot / motorized / mountain),",
                 "# para and airlanding (F40-11), airborne, bef (F40-16.4), army_group (German), army (French), pool for",
                 "# counters that start off the map, arrives_turn for scheduled reinforcements (F40-17.2).", ""]
        current = None
        pending = None
        for e in U:
            if e[0] == "#":
                pending = e[1]
                continue
            id_, s, nation, k, at, attrs, comment = e
            if s != side:
                continue
            if pending:
                lines += ["", f"# ---- {pending}", ""]
                pending = None
            a = {}
            if k["motorized"]:
                a["motorized"] = True
            a["class"] = k["cls"]
            a.update(attrs)
            if k["type"] == "airborne":
                a["airborne"] = True
            lines.append(f"# {comment}")
            lines.append("[[unit]]")
            lines.append(f'id = "{id_}"')
            lines.append(f'side = "{s}"')
            lines.append(f'nation = "{nation}"')
            lines.append(f'type = "{k["type"]}"')
            lines.append(f'size = "{k["size"]}"')
            lines.append(f'ma = {k["ma"]}')
            lines.append(f'strength = {k["strength"]}')
            if at:
                lines.append(f'at = "{at}"')
            order = ["motorized", "class", "airborne", "para", "airlanding", "bef", "army_group", "army", "pool", "arrives_turn"]
            keys = [x for x in order if x in a] + [x for x in a if x not in order]
            lines.append("attrs = { " + ", ".join(f"{x} = {toml_val(a[x])}" for x in keys) + " }")
            lines.append("")
        open(f"{outdir}/{fname}", "w").write("\n".join(lines).rstrip() + "\n")


def summary():
    from collections import Counter
    c = Counter()
    for e in U:
        if e[0] == "#":
            continue
        id_, s, nation, k, at, attrs, comment = e
        c[(s, nation, attrs.get("pool", "on map" if at else "?"))] += 1
    return c
