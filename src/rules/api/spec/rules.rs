//! `hex.rules` (src/rules/api/rules.rs).

use super::NamespaceDoc;

pub(super) const SPEC: NamespaceDoc = NamespaceDoc {
    name: "rules",
    doc: "Declarations made while modules load; a later module's declaration replaces an earlier one.",
    functions: &[
        "sequence(sequence: hexwar.Sequence) -- Declares the sequence of play.",
        "victory(rule: fun(): hexwar.Outcome) -- Declares the victory rule, asked when the game ends.",
        "skip(hook: fun(turn: integer, step: integer, phase: string): boolean) -- Declares which steps to pass over (a step with nothing to do).",
        "phase_label(hook: fun(turn: integer, step: integer, phase: string): string) -- Declares how a step is named in output (`\"F1901R\"`).",
        "setup(hook: fun(setup: table): hexwar.Event[]|hexwar.Refusal) -- Declares how a `--setup` file becomes events.",
        "declare(key: string, value: any) -- Declares a named value a variant may change; `movement` and `facing` are compiled by the host.",
        "query(name: string, answer: function) -- Declares a query the host asks outside commands (`reach`, `supply`, `figures`, ...).",
        "get(key: string): any -- The current declaration under `key` (`sequence`, `movement`, ...), or nil.",
        "caller_error(message: string) -- In a query: refuses the question asked (the asker's mistake, reported to the host as such with this message, no traceback). Elsewhere a script error.",
        "loading(): boolean -- Whether the host is loading rules modules now (true while a module's top level runs; false in commands, handlers, bots and tests).",
    ],
};
