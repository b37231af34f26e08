//! `hex.state` (src/rules/api/state.rs).

use super::NamespaceDoc;

pub(super) const SPEC: NamespaceDoc = NamespaceDoc {
    name: "state",
    doc: "Turn, phase, control and the rules' variables, read-only (`set` only builds the event).",
    functions: &[
        "turn(): integer -- The current turn: 0 before the first `PhaseStarted` (in a `GameStarted` handler), whose turn 1 `phase()` and `side()` already name.",
        "turn_limit(): integer -- The scenario's last turn.",
        "phase(): string? -- The current phase's name.",
        "side(): string? -- The phasing side (nil in a simultaneous phase).",
        "sides(): string[] -- The scenario's sides, in order.",
        "is_over(): boolean -- Whether the game has ended.",
        "control(label: string): string? -- The side controlling a hex (or region; an alias reads as its region), or nil; a place the map lacks is an error.",
        "get(key: string, ...: string|integer): any -- A rules variable (set by a `VarSet` event), or the part a path of keys and 1-based indexes names; nil where there is none.",
        "matches(key: string, value: table): boolean -- Whether the variable is exactly the plain data `value` holds (as `json(value)` would set it): a table kept from an earlier call may then stand for the variable, unread.",
        "set(key: string, value: any): hexwar.VarSet -- The `VarSet` event that sets a rules variable: return it from a handler.",
        "list(t?: table): table -- `t` (or a new empty table) marked as a list, so that it reads as a JSON array even when empty (`[]`, not `{}`); a table with a metatable of its own is refused.",
        "json(value: string|table): any -- The value a JSON text denotes, or a table of plain data, as a `VarSet` value or `Custom` data (parsed, or read in one walk, where the event is read).",
    ],
};
