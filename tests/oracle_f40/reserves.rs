//! An independent reading of F40 reserves and reinforcements (17.2-17.7), written from RULES.md
//! and the readings docs/france1940.md fixes ("Reserves and reinforcements"), never from the Lua
//! module: which `place {unit, to}` commands the phasing side may give now. The listing offers
//! only hexes where the unit keeps the stacking limits (5.2, 5.3, R14).

use std::collections::{BTreeMap, BTreeSet};

use crate::oracle::{Board, Position, Side};

/// The per-turn quota a placement counts against (17.4, 17.5, 17.7), or none (17.2's
/// reinforcements; 17.6's Armée des Alpes beside Switzerland, "in addition").
pub type Quota = Option<&'static str>;

/// What the side has done in its turn so far, as the caller saw it happen.
#[derive(Debug, Default, Clone)]
pub struct TurnSoFar {
    /// Hexes a reserve entered this turn (17.3: at most one reserve a hex a turn; reinforcements
    /// are no reserves).
    pub hexes: BTreeSet<usize>,
    /// Reserves placed this turn, by quota.
    pub used: BTreeMap<&'static str, u32>,
    /// A unit of the side has moved in this phase: reserves come at the start of the first
    /// assault (17.3), so none after; reinforcements (17.2, silent on the moment) still may.
    pub moved: bool,
}

/// Reserves a turn by quota (17.4 German 2, 17.5 Allied 3, 17.7 Swiss 1) and the first turn
/// they enter (17.4 turn 3, 17.5 turn 2; Swiss: after the invasion).
fn quota_of(key: &str) -> u32 {
    match key {
        "german" => 2,
        "allied" => 3,
        _ => 1,
    }
}

/// Every `(unit, hex label)` the phasing `side` may place now, with the quota each counts
/// against. `first_assault_movement`: the step is `side`'s movement phase of its first assault
/// (17.3; 18.1: turn 1's single assault is the first).
pub fn placements(
    board: &Board,
    pos: &Position,
    side: Side,
    first_assault_movement: bool,
    so_far: &TurnSoFar,
) -> BTreeMap<(String, String), Quota> {
    let mut out = BTreeMap::new();
    if !first_assault_movement {
        return out;
    }
    let swiss_invaded = pos.invaded.contains("switzerland");
    let allied_pool_empty = !pos.pool.iter().any(|p| p.pool == "allied_reserve");
    let used = |key: &str| so_far.used.get(key).copied().unwrap_or(0);
    let open = |key: &str| used(key) < quota_of(key);
    let control = |h: usize| pos.control[h];
    let in_zoc_of = |enemy: Side, h: usize| pos.in_enemy_zoc(enemy.enemy().unwrap_or(enemy), h);
    let french = |h: usize| board.country[h] == Some("france");
    // 17.5: an assembly point neither in German ZOC nor German-controlled; a Paris hex; a hex of
    // France on the west or south map edge.
    let allied_hex = |h: usize| {
        (board.is_assembly_point(h)
            && control(h) != Some(Side::German)
            && !in_zoc_of(Side::German, h))
            || board.is_paris(h)
            || (french(h) && (board.edges(h)[2] || board.edges(h)[1]))
    };
    // 17.6: a French hex adjacent to the Swiss border, whoever controls it.
    let alpine_hex = |h: usize| {
        french(h)
            && board
                .neighbors_of(h)
                .any(|n| board.country[n] == Some("switzerland"))
    };
    for waiting in &pos.pool {
        let u = &waiting.piece;
        // (hexes, quota, whether it is a reserve: one a hex a turn)
        let (hexes, quota, reserve): (Vec<usize>, Quota, bool) = match (side, waiting.pool.as_str())
        {
            // 17.2: from its turn, at any Allied-controlled port; not in a country still neutral
            // (16.1: Allied units may not enter one).
            (Side::Allied, "reinforcement") => {
                if pos.turn < waiting.arrives_turn.unwrap_or(1) {
                    continue;
                }
                let hexes = (0..board.len())
                    .filter(|&h| {
                        board.is_port(h)
                            && control(h) == Some(Side::Allied)
                            && board.country[h].is_none_or(|c| !pos.neutral(c))
                    })
                    .collect();
                (hexes, None, false)
            }
            (_, "reinforcement") => continue,
            _ if so_far.moved => continue,
            // 17.4: from turn 3, 2 a turn, a German-controlled city of Germany not in Allied ZOC.
            (Side::German, "german_reserve") => {
                if pos.turn < 3 || !open("german") {
                    continue;
                }
                let hexes = (0..board.len())
                    .filter(|&h| {
                        board.is_city_of(h, "germany")
                            && control(h) == Some(Side::German)
                            && !in_zoc_of(Side::Allied, h)
                    })
                    .collect();
                (hexes, Some("german"), true)
            }
            (Side::German, _) | (_, "german_reserve") => continue,
            // 17.7: after the invasion of Switzerland, 1 a turn, an Allied-controlled Swiss city
            // or a Swiss hex on the south or east map edge.
            (Side::Allied, "swiss_reserve") => {
                if !swiss_invaded || !open("swiss") {
                    continue;
                }
                let hexes = (0..board.len())
                    .filter(|&h| {
                        (board.is_city_of(h, "switzerland") && control(h) == Some(Side::Allied))
                            || (board.country[h] == Some("switzerland")
                                && (board.edges(h)[1] || board.edges(h)[3]))
                    })
                    .collect();
                (hexes, Some("swiss"), true)
            }
            // 17.6: beside Switzerland once it is invaded, in addition to the 3; otherwise as
            // the normal reserves once every other Allied reserve has entered.
            (Side::Allied, "armee_des_alpes") if swiss_invaded => (
                (0..board.len()).filter(|&h| alpine_hex(h)).collect(),
                None,
                true,
            ),
            (Side::Allied, "armee_des_alpes") if !allied_pool_empty => continue,
            // 17.5: from turn 2, 3 a turn.
            (Side::Allied, _) => {
                if pos.turn < 2 || !open("allied") {
                    continue;
                }
                (
                    (0..board.len()).filter(|&h| allied_hex(h)).collect(),
                    Some("allied"),
                    true,
                )
            }
            (Side::Neutral, _) => continue,
        };
        for h in hexes {
            if reserve && so_far.hexes.contains(&h) {
                continue;
            }
            // (no unit of another side stands there: a hex the unit could not enter, 9.5)
            if pos.barred(side, h) || !pos.stacking_kept(side, u, h) {
                continue;
            }
            out.insert((u.id.clone(), board.labels[h].clone()), quota);
        }
    }
    out
}
