//! `hex.events` (src/rules/api/events.rs).

use super::NamespaceDoc;

pub(super) const SPEC: NamespaceDoc = NamespaceDoc {
    name: "events",
    doc: "The event bus: handlers subscribed while loading, run by priority (higher first).",
    functions: &[
        "on(name: string, handler: fun(ev: hexwar.Event): hexwar.Event[]?, priority?: integer) -- Runs `handler` after each event `name` (`\"*\"`: every event) applied; the events it returns are applied next.",
        "before(name: string, handler: fun(ev: hexwar.Event): hexwar.Refusal?, priority?: integer) -- Runs `handler` before each event `name`; a refusal vetoes the whole command.",
        "emit(name: string, data?: any): hexwar.Custom -- A custom event (return it from a handler to apply it).",
    ],
};
