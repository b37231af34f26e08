"""The other names of the standard map's regions, read from the reference engine's map file
(PyPI `diplomacy` 1.1.2, `diplomacy/maps/standard.map`: lines `Full Name = abbr alias ...`).

Only region names made of letters and digits are kept (`LIV`, `LIVONIA` for LVN); the forms
with a coast (`spn/nc`), parentheses or `+` are left out: hexwar writes a coast after the
region's name or alias (`SPN/NC`). A fact of the map, used by tools/area_map_from_toml.py and
tools/datc_to_lua.py.
"""
import re


def read_aliases(path):
    aliases = {}
    with open(path) as f:
        for line in f:
            if "=" not in line or line.lstrip().startswith("#"):
                continue
            words = line.split("=", 1)[1].split()
            if not words or not re.fullmatch(r"[a-z0-9]+", words[0]):
                continue
            abbr = words[0].upper()
            extra = [w.upper() for w in words[1:] if re.fullmatch(r"[a-z0-9]+", w)]
            if extra:
                aliases[abbr] = extra
    return aliases
