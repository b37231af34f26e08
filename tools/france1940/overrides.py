# Hand fixes the 24 km grid cannot draw by itself.
TERRAIN_OVERRIDES.update({
    "2302": "marsh",   # Den Helder, tip of North Holland
    "2502": "clear",   # Friesland end of the Afsluitdijk (Zurich/Makkum)
    "2503": "sea",     # IJsselmeer south of the dike
    "0718": "clear",   # Le Havre, north bank of the Seine estuary
    "1311": "clear",   # Calais
})
COUNTRY_OVERRIDES.update({
    "2302": "netherlands", "2502": "netherlands", "0718": "france", "1311": "france",
    "2114": "france",      # Maubeuge
    "2930": "france",      # Pontarlier
})
PLACE_HEX.update({
    "Maastricht": "2712",  # Dutch hex; Eben-Emael is the Belgian hex 2612 next to it
    "Konstanz": None,
})
COUNTRY_OVERRIDES.update({"3326": "france"})   # Huningue / Saint-Louis, Alsace bank of the Rhine
PLACE_HEX.update({
    "Strasbourg": "3322",  # on the Rhine opposite Kehl (3423)
    "Colmar": "3325",      # Alsace plain, opposite Breisach
})
HEXSIDE_ADD.update({
    "sea": [(("2403", "2502"), "Afsluitdijk"),
            (("2110", "2210"), "Westerschelde")],   # Antwerp's way to the sea
    "causeway": [(("2403", "2502"), "Afsluitdijk")],
})
HEXSIDE_DEL.update({
    "major_river": [("1521", "1621"),    # the Seine inside Paris
                    ("3325", "3326")],   # the Rhine runs east of Huningue, not through Alsace
    "minor_river": [("1521", "1621")],   # the Marne at Charenton

})
# the lower Seine, Rouen to the estuary at Le Havre (drawn by hand)
HEXSIDE_DEL.setdefault("major_river", []).extend([("0917", "0918"), ("0818", "0918"), ("0918", "1018")])
HEXSIDE_ADD.setdefault("major_river", []).extend([
    (("0918", "1019"), "Seine"), (("0918", "0919"), "Seine"), (("0819", "0918"), "Seine"), (("0818", "0819"), "Seine"),
])
HEXSIDE_ADD["sea"].extend([(("0718", "0819"), "Seine estuary"), (("0718", "0719"), "Seine estuary")])
TERRAIN_OVERRIDES.update({"2417": "clear"})    # Sedan, in the Meuse valley south of the Ardennes
COUNTRY_OVERRIDES.update({"2417": "france"})
TERRAIN_OVERRIDES.update({"3425": "hills"})    # Freiburg and the Breisgau foothills
# Walcheren (1909, Vlissingen) lies north of the Westerschelde; the Sloe to Zuid-Beveland is bridged by a dam
HEXSIDE_DEL.setdefault("sea", []).append(("1909", "2009"))
HEXSIDE_ADD["sea"].extend([(("1810", "1909"), "Westerschelde"), (("1909", "1910"), "Westerschelde"),
                           (("1909", "2010"), "Westerschelde")])
