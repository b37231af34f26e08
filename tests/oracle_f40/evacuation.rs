//! An independent reading of F40-10.4's naval evacuation, written from RULES.md and the readings
//! docs/france1940.md fixes ("Naval evacuation (F40-10.4)"), never from the Lua module: which
//! `evacuate {unit}` commands the Allied player may give now.

use std::collections::BTreeSet;

use crate::oracle::{division_equivalents, Board, Position, Side};

/// Every unit the Allied player may evacuate now. `movement`: the step is the Allied movement
/// phase.
/// - an Allied unit in a port hex;
/// - it spends 1 MP in the port: at least 1 MP of its budget (9.1, 8.3, 18.2, R7) is left after
///   what it spent moving this phase; a unit that went by rail has none left;
/// - at most 3 division-equivalents a port a phase, counting those already evacuated from it;
/// - a Dutch (Swiss) unit no forced retreat freed is not evacuated from its country while a
///   German unit is in it (16.3, 16.6: it would leave it voluntarily).
pub fn evacuations(board: &Board, pos: &Position, side: Side, movement: bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if !movement || side != Side::Allied {
        return out;
    }
    for u in pos.units.iter().filter(|u| u.side == Side::Allied) {
        let Some(h) = u.at else { continue };
        if !board.is_port(h) || u.has("railed") {
            continue;
        }
        let spent = pos.mp_spent.get(&u.id).copied().unwrap_or(0.0);
        if pos.budget(u) - spent < 1.0 {
            continue;
        }
        let done = pos.evacuated.get(&h).copied().unwrap_or(0);
        if done + division_equivalents(&u.size) > 3 {
            continue;
        }
        let held_home = [("dutch", "netherlands"), ("swiss", "switzerland")]
            .iter()
            .any(|&(nation, country)| {
                u.nation == nation
                    && !u.has("freed")
                    && board.country[h] == Some(country)
                    && pos.german_inside(board, country)
            });
        if held_home {
            continue;
        }
        out.insert(u.id.clone());
    }
    out
}
