//! An independent reading of F40-11.1's drops, written from RULES.md and the readings
//! docs/france1940.md fixes ("Airborne operations"), never from the Lua module: which `drop
//! {unit, to}` commands the phasing side may give at the start of its assault.

use std::collections::BTreeSet;

use crate::oracle::{Board, Position, Side};

/// Every `(unit, hex label)` the phasing `side` may drop now. `assault_start`: the step is the
/// side's movement phase and none of its units has moved, gone by rail or been evacuated in it.
/// - the unit is airborne, the side's, off the map, and its `arrives_turn` (if any) has come;
/// - the hex is a land hex within 10 hexes of a supplied city in the side's territory (reading:
///   a major city or town the side controls where a unit of the dropped unit's nation and class
///   would be supplied), enemy-occupied or not (11.1), but not one holding units of a
///   still-neutral country, which block their hex (R8) and are nobody's enemy before the
///   invasion; listed where the unit keeps the stacking limits (as every legal list).
pub fn drops(
    board: &Board,
    pos: &Position,
    side: Side,
    assault_start: bool,
) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    if !assault_start || side == Side::Neutral {
        return out;
    }
    let neutral_held: BTreeSet<usize> = pos
        .units
        .iter()
        .filter(|u| u.side == Side::Neutral)
        .filter_map(|u| u.at)
        .collect();
    for u in pos.units.iter().filter(|u| {
        u.side == side
            && u.at.is_none()
            && u.airborne
            && u.arrives_turn.is_none_or(|t| pos.turn >= t)
    }) {
        let cities: Vec<usize> = (0..board.len())
            .filter(|&h| {
                board.is_city(h)
                    && pos.control[h] == Some(side)
                    && pos.supplied_at(board, (side, &u.nation, u.class), h)
            })
            .collect();
        for h in 0..board.len() {
            if !board.is_land(h) || neutral_held.contains(&h) || !pos.stacking_kept(side, u, h) {
                continue;
            }
            if cities.iter().any(|&c| board.distance(c, h) <= 10) {
                out.insert((u.id.clone(), board.labels[h].clone()));
            }
        }
    }
    out
}
