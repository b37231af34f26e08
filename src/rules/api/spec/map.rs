//! `hex.map` (src/rules/api/map.rs for hex boards, src/rules/api/area.rs for area boards).

use super::NamespaceDoc;

pub(super) const SPEC: NamespaceDoc = NamespaceDoc {
    name: "map",
    doc: "The board, read-only. Hexes are named by their printed labels (`\"0312\"`), regions by id.",
    functions: &[
        "name(): string -- The map's name.",
        "kind(): \"hex\"|\"area\" -- The kind of board.",
        "columns(): integer -- Hex maps: the number of columns.",
        "rows(): integer -- Hex maps: the number of rows.",
        "is_hex(label: string): boolean -- Whether `label` names a hex of the map (false on an area board).",
        "hexes(): string[] -- Hex maps: every hex label, in index order.",
        "places(): string[] -- Every place of the board: the hex labels in index order, or the region ids sorted.",
        "terrain(place: string): string -- The terrain name of a hex; on an area board, the region's type (`land`, `sea`, `coast`, ...).",
        "features(place: string): string[] -- The features of a hex (`city`, `port`, ...); on an area board, the names the region's `attrs` set to true, in name order.",
        "has_feature(place: string, feature: string): boolean -- Whether a hex has a feature; on an area board, whether the region's `attrs` set it to true.",
        "hexside(a: string, b: string): string[] -- Hex maps: the features of the hexside between two adjacent hexes (`river`, ...).",
        "neighbors(place: string, class?: hexwar.MoveClass): string[] -- The adjacent hexes in direction order; on an area board, the regions a unit of `class` (default army) may move to.",
        "direction(a: string, b: string): integer? -- Hex maps: the direction (0-5) from `a` to the adjacent `b`, or nil.",
        "neighbor(label: string, direction: integer): string? -- Hex maps: the hex in a direction (0-5), or nil off the map.",
        "distance(a: string, b: string, class?: hexwar.MoveClass): integer? -- Hex maps: the distance in hexes. Area boards: the fewest moves a unit of `class` (default army) needs from `a` to `b` (0 for the same place), or nil when none joins them.",
        "zone(name: string): string[] -- Hex maps: the hexes of a named zone.",
        "in_zone(label: string, zone: string): boolean -- Hex maps: whether a hex is in a zone.",
        "zones(label: string): string[] -- Hex maps: the zones a hex is in.",
        "regions(): string[] -- Area boards: every region id, sorted.",
        "region(id: string): hexwar.Region? -- Area boards: a region (named by its id or one of its aliases; `id` is always the id), or nil.",
        "is_location(location: string): boolean -- Whether a region or coast (`\"SPA/NC\"`) is a location of the board; on a hex map, whether `location` is a hex label.",
        "adjacent(a: string, b: string, class?: hexwar.MoveClass): boolean -- Area boards: whether a unit of `class` (default army) may move from `a` to `b`.",
        "supply_centers(): string[] -- Area boards: the supply centres.",
        "homes(power: string): string[] -- Area boards: a power's home centres.",
        "powers(): hexwar.Power[] -- Area boards: the powers, in map order.",
        "board_table(): hexwar.BoardTable -- Area boards: the whole board as one plain table (built once per game).",
    ],
};
