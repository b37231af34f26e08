//! What lives directly under `hex`.

use super::{FieldDoc, FunctionDoc};

pub(super) const FUNCTIONS: &[FunctionDoc] = &[
    "refuse(rule: string, reason: string): hexwar.Refusal -- A refusal naming the rule clause that refuses a command or an event; return it from `resolve` or a `before` handler.",
    "log(...: any) -- Writes a line to the host's log (not the terminal); `print` does the same.",
];

pub(super) const FIELDS: &[FieldDoc] =
    &["api_version: integer -- The version of the `hex.*` API the host provides."];
