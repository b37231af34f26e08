//! The designers' test API of `hexwar test` (src/luatest/prelude.lua, docs/testing.md): the
//! global `test` and the `t` table each test function gets.

use super::{ClassDoc, FunctionDoc};

/// The global `test`.
pub(super) const GLOBAL: FunctionDoc =
    "test(name: string, fn: fun(t: hexwar.Test)) -- Registers a test; the tests of a file run in file order, each with no game until it calls `t.scenario`.";

/// The functions of `t`.
pub(super) const FUNCTIONS: &[FunctionDoc] = &[
    "scenario(path: string, opts?: hexwar.TestScenarioOptions) -- Starts a game: a scenario folder or file, relative to the current folder or else to the test file's folder.",
    "setup(position: table) -- Overlays a position: `units` (unit tables as in a scenario) replaces every unit in play; other keys go to the rules' setup.",
    "submit(side: string?, cmd: hexwar.Command): hexwar.Event[]?, hexwar.Refusal? -- Gives a command: its events, or nil and the refusal.",
    "ok(side: string?, cmd: hexwar.Command): hexwar.Event[] -- Gives a command that must be accepted: its events (the test fails with the refusal otherwise).",
    "expect_refused(side: string?, cmd: hexwar.Command, rule?: string): hexwar.Refusal -- Gives a command that must be refused by `rule` (any rule when nil): the refusal.",
    "end_phase(side?: string): hexwar.Event[] -- Ends the phase (default: the phasing side's): its events.",
    "dice(values: integer[]) -- The values the next command's dice rolls take, in order, instead of the seeded ones; each must be rolled.",
    "reach(unit: string): table<string, number> -- The rules' `reach` answer: the MP cost of each hex the unit can reach.",
    "query(name: string, arg?: any): any -- The answer of any query the rules declare (`supply`, `figures`, ...).",
    "legal(side?: string): hexwar.Command[] -- The legal commands of a side (default: the phasing side).",
    "bot(side: string, seed?: integer): hexwar.Command -- The command the side's Lua bot gives now, asked as `hexwar run` asks it (seed default 0).",
    "unit(id: string): hexwar.Unit? -- A unit, as the log shows it, or nil.",
    "units(): hexwar.Unit[] -- Every unit in play.",
    "has_status(id: string, flag: string): boolean -- Whether the unit carries the status flag (a unit's `status` here is a list).",
    "state(): hexwar.TestState -- The game's turn, step, phase, control, variables and outcome.",
    "log(): hexwar.Event[] -- Every event applied so far.",
    "eq(actual: any, expected: any, what?: string) -- Fails the test unless the values are deeply equal, printing both.",
    "truthy(v: any, what?: string) -- Fails the test unless `v` is neither nil nor false.",
    "fail(message: string) -- Fails the test.",
    "show(v: any): string -- A value as text, table keys sorted.",
    "deep_eq(a: any, b: any): boolean -- Whether two values are deeply equal.",
];

pub(super) const CLASSES: &[ClassDoc] = &[
    ClassDoc {
        name: "hexwar.TestScenarioOptions",
        parent: None,
        doc: "Options of `t.scenario`.",
        fields: &[
            "seed?: integer -- The seed (default: the scenario's).",
            "setup?: string -- A `--setup` file to start from.",
            "mods?: string[] -- Mods (.lua files) loaded after the scenario's rules, as `hexwar run --mod` loads them.",
        ],
    },
    ClassDoc {
        name: "hexwar.TestState",
        parent: None,
        doc: "The game's state as `t.state()` gives it.",
        fields: &[
            "turn: integer",
            "step: integer -- The step's index in the turn.",
            "phase?: string",
            "side?: string -- The phasing side.",
            "over: boolean -- Whether the game has ended.",
            "control: table<string, string> -- The controller of each controlled hex or region.",
            "vars: table<string, any> -- The rules' variables.",
            "outcome?: hexwar.Outcome -- The result, once the game is over.",
        ],
    },
];
