//! `hex.path` (src/rules/api/path.rs; the facing functions in src/rules/api/facing.rs).

use super::NamespaceDoc;

pub(super) const SPEC: NamespaceDoc = NamespaceDoc {
    name: "path",
    doc: "The movement engine over the rules' `movement` (or `facing`) declaration: searches run in Rust.",
    functions: &[
        "reach(unit: string, budget?: number, opts?: hexwar.ReachOptions): table<string, number|hexwar.ReachEntry> -- The hexes a unit can reach with `budget` MP (default its MA), each with its cost (and path, with `paths = true`).",
        "check(unit: string, path: string[], budget?: number): number|hexwar.Refusal -- The MP cost of a move along `path` (the hexes entered), or a refusal naming the clause.",
        "supply(sources: hexwar.SupplySource[]): table<string, boolean> -- Whether each unit traces supply to one of its side's sources, by unit id.",
        "supplied_hexes(side: string, class: string, sources: string[]): string[] -- The hexes where a unit of that side and movement class would be supplied from `sources`.",
        "control(): hexwar.ControlChanged[] -- The `ControlChanged` events the territory rules call for in the current position.",
        "rail(unit: string, opts?: { blocked?: string[] }): string[] -- The hexes a unit may reach by rail; `blocked`: hexes the route never enters (as `reach`'s).",
        "steps(targets: string[], opts?: { impassable?: string[] }): table<string, integer> -- The hex steps from every hex to the nearest target, not crossing the `impassable` terrains (hexes no target can be reached from are left out): the field `toward` ranks by.",
        "toward(targets: string[], units: { id: string, budget?: number, supply?: string }[], opts?: { impassable?: string[], limit?: integer, first?: integer, nearest_first?: boolean, supplied?: table<string, { side: string, class: string, sources: string[] }>, capacity?: { limit: number, by_size?: table<string, number>, types?: string[] }[] }): { id: string, rank: integer, from: integer, closer: string[] }[] -- For bots: per unit (in the given order, or nearest the targets first), the reachable hexes closer (in steps) to the targets, nearest first, kept to the hexes where its named supply traces and its side's stacking `capacity` has room; `first` starts at that rank.",
        "path_to(unit: string, budget: number?, label: string): string[]? -- The path (hexes entered) `reach` with paths gives to a hex, or nil when out of reach.",
        "zoc(label: string): string[] -- The sides exerting a zone of control in a hex.",
        "may_retreat_into(unit: string, label: string, friendly?: boolean): boolean -- Whether a unit may retreat into a hex (zones of control); `friendly` says whether a unit of its side is there when the caller knows better than the position (units of one combat retreating one after another).",
        "reach_facing(group: string|string[], budget?: number, opts?: hexwar.FacingOptions): table<string, table<hexwar.Facing, integer|hexwar.ReachEntry>> -- Facing games: the hexes and facings a unit or group can reach, each with its cost.",
        "check_facing(group: string|string[], path: string[], facing: hexwar.Facing?, budget?: number, opts?: hexwar.FacingOptions): integer|hexwar.Refusal -- Facing games: the cost of a move ending with `facing`, or a refusal naming the clause.",
        "stack_legal(kinds: string[]): boolean -- Facing games: whether counters of these kinds may stack together.",
        "in_contact(unit: string): boolean -- Facing games: whether the unit's hex is adjacent to an enemy in good order.",
        "front(unit: string): string[] -- Facing games: the hexes in the unit's front arc.",
    ],
};
