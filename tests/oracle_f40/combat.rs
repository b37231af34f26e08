//! An independent reading of the F40 module's combat odds (its own rules C.3 and C.5, with
//! F40-8.3, 11.3, 11.4 and 11.5), written from docs/france1940.md ("Combat") and RULES.md, never
//! from the Lua module: which `attack {hex, units}` commands the phasing side may give at the
//! start of its combat phase (one per target hex, with every unit that may attack it, listed
//! when the odds reach 1:2), and each attack's strengths and odds.

use std::collections::BTreeMap;

use crate::oracle::{Board, Piece, Position, Side, CAUSEWAY, LAKE, MAJOR_RIVER, SEA};

/// One attack the side may make: its attackers (ids, sorted), the attack and defence
/// strengths, and the odds column.
#[derive(Debug, Clone, PartialEq)]
pub struct Attack {
    pub units: Vec<String>,
    pub attack: f64,
    pub defense: f64,
    pub odds: String,
}

/// 8.3: an isolated unit fights at half strength; 11.3: a para regiment has no combat factor.
fn combat_strength(u: &Piece) -> f64 {
    if u.para_regiment() {
        return 0.0;
    }
    if u.has("isolated") {
        u.strength / 2.0
    } else {
        u.strength
    }
}

/// C.5: the column the odds fall in, rounded down (1:2, 1:1, 2:1 ... 6:1; 6:1 when the defence
/// is 0), or None below 1:2.
fn column(attack: f64, defense: f64) -> Option<String> {
    if defense <= 0.0 {
        return Some("6:1".into());
    }
    for n in (1..=6).rev() {
        if attack >= defense * n as f64 {
            return Some(format!("{n}:1"));
        }
    }
    (attack * 2.0 >= defense).then(|| "1:2".into())
}

/// Whether a work (fortification, Maginot line, intrinsic strength point) still stands at `h`.
fn work_stands(pos: &Position, h: usize, work: &str, printed: bool) -> bool {
    printed && !pos.destroyed.get(&h).is_some_and(|w| w.contains(work))
}

/// C.3: whether `u`, of the phasing `side`, may attack the enemy hex `target` (adjacency, a
/// combat strength, not a para regiment, not the 22nd Airlanding in its drop assault (11.4), no
/// lake hexside and for the Germans no sea hexside without causeway, unless 11.5 cancels the
/// target's hexsides).
fn may_attack(board: &Board, pos: &Position, u: &Piece, side: Side, target: usize) -> bool {
    let Some(at) = u.at else { return false };
    if u.side != side || board.distance(at, target) != 1 {
        return false;
    }
    if u.para_regiment() || u.strength <= 0.0 || u.has("attacked") {
        return false;
    }
    if u.airlanding && u.has("dropped") {
        return false;
    }
    let bits = board.hexside_bits(at, target);
    let barred =
        bits & LAKE != 0 || (side == Side::German && bits & SEA != 0 && bits & CAUSEWAY == 0);
    !barred || pos.hexsides_cancelled.contains(&target)
}

/// Every attack the phasing `side` may make now, by target hex label.
pub fn attacks(board: &Board, pos: &Position, side: Side) -> BTreeMap<String, Attack> {
    let mut out = BTreeMap::new();
    let Some(enemy) = side.enemy() else {
        return out;
    };
    for target in 0..board.len() {
        let defenders: Vec<&Piece> = pos.units_at(target).filter(|u| u.side == enemy).collect();
        if defenders.is_empty() {
            continue;
        }
        let mut attackers: Vec<&Piece> = pos
            .units
            .iter()
            .filter(|u| may_attack(board, pos, u, side, target))
            .collect();
        if attackers.is_empty() {
            continue;
        }
        attackers.sort_by(|a, b| a.id.cmp(&b.id));
        let attack: f64 = attackers.iter().map(|u| combat_strength(u)).sum();
        let mut multiplier = board.terrain_defense(target);
        if work_stands(pos, target, "fortification", board.is_fortification(target)) {
            multiplier = multiplier.max(2.0);
        }
        if work_stands(pos, target, "maginot", board.is_maginot(target)) {
            multiplier = multiplier.max(3.0);
        }
        let every_attacker_across_a_major_river = attackers.iter().all(|u| {
            u.at.is_some_and(|at| board.hexside_bits(at, target) & MAJOR_RIVER != 0)
        });
        if every_attacker_across_a_major_river && !pos.hexsides_cancelled.contains(&target) {
            multiplier = multiplier.max(2.0);
        }
        let mut defense: f64 =
            defenders.iter().map(|u| combat_strength(u)).sum::<f64>() * multiplier;
        if enemy == Side::Allied
            && work_stands(
                pos,
                target,
                "intrinsic_strength",
                board.has_intrinsic_strength(target),
            )
        {
            defense += 1.0;
        }
        let Some(odds) = column(attack, defense) else {
            continue;
        };
        out.insert(
            board.labels[target].clone(),
            Attack {
                units: attackers.iter().map(|u| u.id.clone()).collect(),
                attack,
                defense,
                odds,
            },
        );
    }
    out
}
