//! `hex.commands` (src/rules/api/commands.rs).

use super::NamespaceDoc;

pub(super) const SPEC: NamespaceDoc = NamespaceDoc {
    name: "commands",
    doc: "The rules' command handlers (define while loading; a later module's definition replaces an earlier one).",
    functions: &[
        "define(name: string, def: hexwar.CommandDef) -- Defines (or replaces) the command `name`: `resolve` gives its events or a refusal, `legal` lists the legal commands of a side.",
        "get(name: string): hexwar.CommandDef? -- The current definition of a command, so a variant can wrap it (nil when none is defined; an error when one or two letters off a defined one).",
        "legal(side: string, filter?: { command?: string, unit?: string }): table[] -- The legal commands of a side as the rules' `legal` functions list them (each given the filter), only the named command's and only those ordering the unit; `end_phase` last when the engine lists it.",
    ],
};
