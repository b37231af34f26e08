//! An independent reading of how the F40 module resolves an attack (its own rules C.6 and C.7,
//! with F40-6.6, 11.3 and R8), written from docs/france1940.md ("Combat") and RULES.md, never
//! from the Lua module: given the position, the attack and the die, the result, what becomes of
//! each unit it strikes (eliminated, or where its retreat ends) and the works a DR% destroys.

use std::collections::{BTreeMap, BTreeSet};

use crate::oracle::{stacking_fits, Board, Class, Piece, Position, LAKE, SEA};

/// C.6: the result for an odds column and a roll of one d6.
pub fn crt(odds: &str, roll: u32) -> Option<&'static str> {
    let row: [&str; 6] = match odds {
        "1:2" => ["AE", "AE", "AR", "AR", "EX", "DR"],
        "1:1" => ["AE", "AR", "AR", "EX", "DR", "DR"],
        "2:1" => ["AR", "AR", "EX", "DR", "DR", "DR%"],
        "3:1" => ["AR", "EX", "DR", "DR", "DR%", "DE"],
        "4:1" => ["EX", "DR", "DR", "DR%", "DE", "DE"],
        "5:1" => ["DR", "DR", "DR%", "DE", "DE", "DE"],
        "6:1" => ["DR", "DR%", "DE", "DE", "DE", "DE"],
        _ => return None,
    };
    row.get((roll as usize).checked_sub(1)?).copied()
}

/// What becomes of one unit the result strikes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Eliminated by the result itself (AE, EX, DE).
    Eliminated,
    /// Eliminated for want of a retreat route (C.7); `zoc_alone`: the routes would be open if
    /// 6.6 did not apply.
    NoRoute { zoc_alone: bool },
    /// Retreated; the hex label where the retreat ends.
    Retreated(String),
}

/// The result, the fate of each unit it strikes (by id), and the works a DR% destroys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub result: String,
    pub fates: BTreeMap<String, Fate>,
    pub destroyed: BTreeSet<String>,
}

/// Resolves the attack of `attackers` (ids) on hex `target` at `odds` with `roll`, on `pos` as
/// it stands before the attack. Units are taken in id order (reading: the documentation says
/// "for each unit in turn"); EX takes the attackers weakest first (printed strength, then id)
/// until their printed strength lost reaches the defenders' (a para regiment's counts 0: it
/// has no combat factor, 11.3).
pub fn resolve(
    board: &Board,
    pos: &Position,
    (target, attackers): (usize, &[String]),
    odds: &str,
    roll: u32,
) -> Option<Outcome> {
    let result = crt(odds, roll)?;
    let mut attacking: Vec<&Piece> = attackers.iter().filter_map(|id| pos.unit(id)).collect();
    attacking.sort_by(|a, b| a.id.cmp(&b.id));
    attacking.dedup_by(|a, b| a.id == b.id);
    let side = attacking.first()?.side;
    let enemy = side.enemy()?;
    let mut defending: Vec<&Piece> = pos.units_at(target).filter(|u| u.side == enemy).collect();
    defending.sort_by(|a, b| a.id.cmp(&b.id));
    let mut fates = BTreeMap::new();
    let mut destroyed = BTreeSet::new();
    match result {
        "AE" => {
            for u in &attacking {
                fates.insert(u.id.clone(), Fate::Eliminated);
            }
        }
        "DE" => {
            for u in &defending {
                fates.insert(u.id.clone(), Fate::Eliminated);
            }
        }
        "EX" => {
            for u in &defending {
                fates.insert(u.id.clone(), Fate::Eliminated);
            }
            // (a para regiment has no combat factor, 11.3: it owes nothing)
            let printed = |u: &&Piece| if u.para_regiment() { 0.0 } else { u.strength };
            let owed: f64 = defending.iter().map(printed).sum();
            let mut weakest = attacking.clone();
            weakest.sort_by(|a, b| a.strength.total_cmp(&b.strength).then(a.id.cmp(&b.id)));
            let mut lost = 0.0;
            for u in weakest {
                if lost >= owed {
                    break;
                }
                lost += u.strength;
                fates.insert(u.id.clone(), Fate::Eliminated);
            }
        }
        "AR" => fates = retreats(board, pos, &attacking, 1),
        "DR" | "DR%" => {
            fates = retreats(board, pos, &defending, 2);
            if result == "DR%" {
                if board.is_fortification(target) {
                    destroyed.insert("fortification".to_string());
                }
                if board.has_intrinsic_strength(target) {
                    destroyed.insert("intrinsic_strength".to_string());
                }
            }
        }
        _ => return None,
    }
    Some(Outcome {
        result: result.to_string(),
        fates,
        destroyed,
    })
}

/// C.7: the retreats of `units`, `distance` hexes each, one unit after another, each judged on
/// the position the ones before it left. Control and ZOC are read as they stood when the combat
/// was resolved; the occupancy changes as the units go: none of them holds the hex it leaves,
/// and a hex one reached holds it for those after (stacking, and 6.6's friendly unit).
fn retreats(
    board: &Board,
    pos: &Position,
    units: &[&Piece],
    distance: u32,
) -> BTreeMap<String, Fate> {
    let leaving: BTreeSet<&str> = units.iter().map(|u| u.id.as_str()).collect();
    // (hex -> the pieces standing in it now, the units of the result taken out)
    let mut standing: BTreeMap<usize, Vec<Piece>> = BTreeMap::new();
    for u in pos
        .units
        .iter()
        .filter(|u| !leaving.contains(u.id.as_str()))
    {
        if let Some(h) = u.at {
            standing.entry(h).or_default().push(u.clone());
        }
    }
    let mut fates = BTreeMap::new();
    for u in units {
        let Some(from) = u.at else { continue };
        let fate = match route_end(board, pos, &standing, u, from, distance, true) {
            Some(end) => {
                let mut moved = (*u).clone();
                moved.at = Some(end);
                standing.entry(end).or_default().push(moved);
                Fate::Retreated(board.labels[end].clone())
            }
            None => Fate::NoRoute {
                zoc_alone: route_end(board, pos, &standing, u, from, distance, false).is_some(),
            },
        };
        fates.insert(u.id.clone(), fate);
    }
    fates
}

/// The hex where `u`'s retreat from `from` ends, `distance` steps each one hex farther from
/// `from`, or None when no route is open. Each hex entered: terrain the unit may enter (9.2:
/// no sea, no marsh for motorized), across no sea or lake hexside (a causeway is a sea
/// hexside), holding no unit of another side but enemy para regiments (11.3, R8), not in a
/// still-neutral country, and, `with_6_6` and the unit not motorized, not in enemy ZOC unless a
/// friendly unit stands there (6.6). The last hex keeps the stacking limits (5.2, 5.3, R14).
/// Preferred: a route ending in the side's own territory, then out of enemy ZOC, then the one
/// with the lowest labels compared hex by hex from the first step.
fn route_end(
    board: &Board,
    pos: &Position,
    standing: &BTreeMap<usize, Vec<Piece>>,
    u: &Piece,
    from: usize,
    distance: u32,
    with_6_6: bool,
) -> Option<usize> {
    let here = |h: usize| standing.get(&h).map(Vec::as_slice).unwrap_or(&[]);
    let enterable = |a: usize, b: usize| {
        if !board.line_passable(b, u.class) || board.hexside_bits(a, b) & (SEA | LAKE) != 0 {
            return false;
        }
        let others = here(b).iter().filter(|o| o.side != u.side);
        let blocked = others
            .clone()
            .any(|o| !(o.side == u.side.enemy().unwrap_or(o.side) && o.para_regiment()));
        if blocked {
            return false;
        }
        if board.country[b].is_some_and(|c| pos.neutral(c)) {
            return false;
        }
        let friendly_there = here(b).iter().any(|o| o.side == u.side);
        !(with_6_6 && u.class != Class::Motorized && pos.in_enemy_zoc(u.side, b) && !friendly_there)
    };
    // Every route, as its hexes. The preferred one: its last hex the side's own territory,
    // then out of enemy ZOC, then the least by its labels from the first step.
    let rank = |route: &[usize]| {
        let last = route[route.len() - 1];
        (
            pos.control[last] != Some(u.side),
            pos.in_enemy_zoc(u.side, last),
            route[1..]
                .iter()
                .map(|&h| board.labels[h].clone())
                .collect::<Vec<_>>(),
        )
    };
    let mut routes: Vec<Vec<usize>> = vec![vec![from]];
    for step in 1..=distance {
        let mut longer = Vec::new();
        for route in &routes {
            let a = *route.last().unwrap_or(&from);
            for b in board.neighbors_of(a) {
                if board.distance(from, b) == step && enterable(a, b) {
                    let mut r = route.clone();
                    r.push(b);
                    longer.push(r);
                }
            }
        }
        routes = longer;
    }
    routes
        .into_iter()
        .filter(|r| {
            r.last()
                .is_some_and(|&h| stacking_fits(u.side, u, here(h).iter()))
        })
        .min_by_key(|r| rank(r))
        .and_then(|r| r.last().copied())
}
