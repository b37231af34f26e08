//! `hex.units` (src/rules/api/units.rs).

use super::NamespaceDoc;

pub(super) const SPEC: NamespaceDoc = NamespaceDoc {
    name: "units",
    doc: "Read-only views of the units in play: fresh tables, lists in id order.",
    functions: &[
        "get(id: string): hexwar.Unit? -- The unit with this id, or nil when it is not in play.",
        "all(): hexwar.Unit[] -- Every unit in play.",
        "at(label: string): hexwar.Unit[] -- The units in a hex (or a region; an alias reads as its region); a place the map lacks is an error, not an empty place. Cheap to ask per hex: indexed by place from the third call at a position.",
        "of_side(side: string): hexwar.Unit[] -- The units of a side.",
        "list(field: string, side?: string): (string|number|false)[] -- One field (`id`, `side`, `nation`, `type`, `size`, `at`, `strength`) of every unit (of `side` when given) in id order; false for a unit off the map (`at`); `strength` gives numbers.",
        "with_status(flag: string): table<string, boolean> -- The set `{id = true}` of the units with this status flag.",
        "gone(): hexwar.GoneUnit[] -- The units out of play (eliminated or removed), with why and when.",
        "ids(side?: string, opts?: { on_map?: boolean, with?: string[], without?: string[], limit?: integer }): string[] -- The ids of the units of a side (every side when nil), in id order: only those on the map, carrying every `with` flag and none of the `without` flags; with `limit`, the first N only.",
        "brief(side?: string, opts?: { off_map?: boolean }): table[] -- Light views `{id, side, nation, type, size, strength, ma, at, class}` of the units of a side on the map (off it too with `off_map`), in id order; `class` is the engine's movement class.",
        "gone_for(reason: string, id?: string): hexwar.GoneUnit[] -- The units out of play for that reason (a reserve pool: `pool`), without converting the others; with `id`, that unit alone (an empty list when it is not out of play for that reason).",
    ],
};
