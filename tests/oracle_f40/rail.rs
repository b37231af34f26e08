//! An independent reading of F40-10.1's rail movement, written from RULES.md and the readings
//! docs/france1940.md fixes ("Rail (F40-10.1)"), never from the Lua module: which `rail {unit,
//! to}` commands the phasing side may give now.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::oracle::{Board, Position, Side, SEA};

/// The country a side's units go by rail in: "of its own nation (Allies: in France; Germans: in
/// Germany)", read by the bracket, by side.
fn rail_country(side: Side) -> Option<&'static str> {
    match side {
        Side::German => Some("germany"),
        Side::Allied => Some("france"),
        Side::Neutral => None,
    }
}

/// Units the political limits treat alike: nation, freed, the country they stand in.
type Kind<'a> = (String, bool, Option<&'a str>);

/// Per hex, the rail network (a component, named by one of its hexes) it belongs to, if any.
type Components = Vec<Option<usize>>;

/// Every `(unit, hex label)` the phasing `side` may send by rail now. `movement`: the step is
/// the side's movement phase.
/// - one unit a movement phase a side (`rail_used` names the one that went);
/// - not a unit that moved or went by rail this phase, nor an isolated one (8.3), nor the 22nd
///   Airlanding in the assault of its drop (11.4), nor a para regiment (11.3: no movement
///   factor);
/// - the route starts, runs and ends in hexes of the rail country that are the side's friendly
///   territory, in no enemy ZOC (a friendly unit does not cancel it), not sea (10.2), and that
///   the political limits let the unit enter (16.x, 18.2); it never crosses a sea hexside. 10.1
///   names no terrain, so marsh and mountains do not stop it, nor lake hexsides;
/// - the destination is any other hex of that network where the unit keeps the stacking limits
///   (as every legal list).
pub fn rails(
    board: &Board,
    pos: &Position,
    side: Side,
    movement: bool,
) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let Some(country) = rail_country(side) else {
        return out;
    };
    if !movement || pos.rail_used.is_some() {
        return out;
    }
    let usable = |h: usize| {
        board.country[h] == Some(country)
            && board.is_land(h)
            && pos.control[h] == Some(side)
            && !pos.in_enemy_zoc(side, h)
    };
    // The networks are the same for units the political limits treat alike (nation, freed,
    // the country they stand in): found once for each such kind, as numbered components of the
    // hexes open to it.
    let mut networks: BTreeMap<Kind, Components> = BTreeMap::new();
    for u in pos.units.iter().filter(|u| u.side == side) {
        let Some(start) = u.at else { continue };
        if u.has("moved")
            || u.has("railed")
            || u.has("isolated")
            || (u.airlanding && u.has("dropped"))
            || u.para_regiment()
            || !usable(start)
        {
            continue;
        }
        let kind = (u.nation.clone(), u.has("freed"), board.country[start]);
        let component = networks.entry(kind).or_insert_with(|| {
            let open = |h: usize| usable(h) && !pos.forbidden(board, u, h);
            let mut component = vec![None; board.len()];
            for first in 0..board.len() {
                if component[first].is_some() || !open(first) {
                    continue;
                }
                component[first] = Some(first);
                let mut queue = VecDeque::from([first]);
                while let Some(h) = queue.pop_front() {
                    for n in board.neighbors_of(h) {
                        if component[n].is_none() && board.hexside_bits(h, n) & SEA == 0 && open(n)
                        {
                            component[n] = Some(first);
                            queue.push_back(n);
                        }
                    }
                }
            }
            component
        });
        // (the networks the first step may enter: the start's own, or, when the start is a
        // hex the limits would not let the unit enter, those of its open neighbours)
        let entered: BTreeSet<usize> = std::iter::once(start)
            .chain(
                board
                    .neighbors_of(start)
                    .filter(|&n| board.hexside_bits(start, n) & SEA == 0),
            )
            .filter_map(|h| component[h])
            .collect();
        for h in (0..board.len()).filter(|&h| h != start) {
            let joined = component[h].is_some_and(|c| entered.contains(&c));
            if joined && pos.stacking_kept(side, u, h) {
                out.insert((u.id.clone(), board.labels[h].clone()));
            }
        }
    }
    out
}
