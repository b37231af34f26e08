//! `hex.dice` (src/rules/api/dice.rs).

use super::NamespaceDoc;

pub(super) const SPEC: NamespaceDoc = NamespaceDoc {
    name: "dice",
    doc: "The host's seeded dice: every roll is logged as a `DiceRolled` event and replays identically.",
    functions: &[
        "roll(sides?: integer): integer -- A roll of a die with `sides` sides (default 6), from 1 to `sides`.",
    ],
};
