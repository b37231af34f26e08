//! An independent reading of the F40 surrenders (16.3, 16.4, 16.5), written from RULES.md and the
//! readings docs/france1940.md fixes ("Politics"), never from the Lua module: which countries
//! surrender at the end of an Allied player-turn.

use std::collections::BTreeSet;

use crate::oracle::{Board, Position, Side};

/// The countries that surrender at the end of the Allied player-turn now ending, judged on the
/// position as that turn ends:
/// - 16.3: the Netherlands when the Germans occupy at least two Dutch major cities (reading:
///   German units and no Allied one in the hex, 7.1(a) with R11);
/// - 16.4: Belgium when both Belgian major cities are German-controlled and at least one BEF
///   corps has been evacuated;
/// - 16.5: Luxembourg with Belgium.
///
/// A country surrenders once, and only once at war: one still neutral (German units a setup put
/// in it, no invasion) does not (the module's reading, docs/france1940.md).
pub fn surrenders(board: &Board, pos: &Position) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    let at_war = |c: &str| !pos.neutral(c) && !pos.surrendered.contains(c);
    let occupied_by_germans = |h: usize| {
        pos.units_at(h).any(|u| u.side == Side::German)
            && !pos.units_at(h).any(|u| u.side == Side::Allied)
    };
    let dutch_cities_held = board
        .major_cities("netherlands")
        .iter()
        .filter(|&&h| occupied_by_germans(h))
        .count();
    if at_war("netherlands") && dutch_cities_held >= 2 {
        out.insert("netherlands");
    }
    let belgian_cities_fallen = board
        .major_cities("belgium")
        .iter()
        .all(|&h| pos.control[h] == Some(Side::German));
    if at_war("belgium") && belgian_cities_fallen && pos.bef_evacuated >= 1 {
        out.insert("belgium");
        if at_war("luxembourg") {
            out.insert("luxembourg");
        }
    }
    out
}
