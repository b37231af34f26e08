//! ANC oracle: ANC-5.1..7.3 with readings TA-R10..R20, for a group (TA-R13).
//!
//! A least-cost search (Dijkstra) over (hex, facing, ended): facing matters only to a phalanx
//! group (the others end in any facing, TA-R11); "ended" marks a move that entered an enemy
//! front (TA-R16) or joined a stack (TA-R18), after which nothing more happens.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use super::{in_directions, Answer, Axial, Field, Piece};

/// ANC-5.3 formation costs as `rules/ancients/init.lua` declares them (`join`).
pub fn join_cost(kind: &str) -> Option<u32> {
    match kind {
        "phalanx" | "light" => Some(1),
        "cavalry" | "elephant" => Some(2),
        _ => None,
    }
}

/// ANC-6.2: MP per 60° turn (`turn_cost` of the phalanx in `rules/ancients/init.lua`).
const TURN_COST: u32 = 1;

fn is_leader(p: &Piece) -> bool {
    p.kind == "leader"
}

fn is_phalanx(p: &Piece) -> bool {
    p.kind == "phalanx"
}

/// `not_in_order` of `rules/ancients/init.lua`.
fn in_good_order(p: &Piece) -> bool {
    !p.statuses.iter().any(|s| s == "disordered")
}

/// TA-R2 / ANC-6.1 / TA-R11: front edges (phalanx vertex v: v-1 and v; other troops: all six;
/// leaders: none).
fn front_edges(p: &Piece) -> Vec<u8> {
    if is_leader(p) {
        Vec::new()
    } else if is_phalanx(p) {
        let v = p.facing.unwrap_or(0) % 6;
        vec![(v + 5) % 6, v]
    } else {
        (0..6).collect()
    }
}

/// TA-R19: troops (leaders ignored) of one kind, or elephants plus at most 2 light counters.
pub fn stack_legal<'a>(kinds: impl IntoIterator<Item = &'a str>) -> bool {
    let troops: Vec<&str> = kinds.into_iter().filter(|k| *k != "leader").collect();
    if troops.windows(2).all(|w| w[0] == w[1]) {
        return true;
    }
    let elephants = troops.iter().filter(|k| **k == "elephant").count();
    let lights = troops.iter().filter(|k| **k == "light").count();
    elephants > 0 && elephants + lights == troops.len() && lights <= 2
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct State {
    hex: Axial,
    /// The phalanx group's vertex facing; 0 for others (their facing is free).
    facing: u8,
    ended: bool,
    /// TA-R18: ended by joining this stack facing (None: not a join).
    joined: Option<u8>,
}

/// The reach of the group `ids` (counters of one side in one hex). `contact_turn`: include the
/// TA-R15 turn in place (the morale test passed).
pub fn reach(field: &Field, pieces: &[Piece], ids: &[&str], contact_turn: bool) -> Answer {
    reach_with(
        field,
        pieces,
        ids,
        contact_turn,
        StayReading::KeepsTheStacksFacing,
    )
}

/// How a sub-group that stays in its start hex, beside the rest of its stack, may face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StayReading {
    /// ANC-5.4 ("Tous les pions d'une pile doivent avoir la même orientation") keeps it in the
    /// stack's facing: the engine's reading, the oracle's default.
    KeepsTheStacksFacing,
    /// It re-faces like any group (TA-R11, R14). Only counted, to report how often it matters.
    RefacesApart,
}

/// [`reach`] with a choice of reading for a sub-group staying beside its stack.
pub fn reach_with(
    field: &Field,
    pieces: &[Piece],
    ids: &[&str],
    contact_turn: bool,
    stay: StayReading,
) -> Answer {
    let group: Vec<&Piece> = ids
        .iter()
        .map(|id| {
            pieces
                .iter()
                .find(|p| p.id == *id)
                .unwrap_or_else(|| panic!("no unit {id}"))
        })
        .collect();
    let mut answer = Answer::new();
    let side = group[0].side.clone();
    let start = group[0].at;
    // TA-R12: only units in good order move.
    if group.iter().any(|p| !in_good_order(p)) {
        return answer;
    }
    let troops: Vec<&Piece> = group.iter().copied().filter(|p| !is_leader(p)).collect();
    let leaders_only = troops.is_empty();
    let phalanx = troops.iter().any(|p| is_phalanx(p));
    // TA-R13 / ANC-5.4: the slowest counter; the troops' one facing.
    let budget = group.iter().map(|p| p.ma).min().unwrap_or(0);
    let facing0 = troops.first().and_then(|p| p.facing).unwrap_or(0) % 6;
    let in_group = |p: &Piece| ids.contains(&p.id.as_str());

    let enemies: Vec<&Piece> = pieces.iter().filter(|p| p.side != side).collect();
    let enemy_hex = |h: Axial| enemies.iter().any(|e| e.at == h);
    // TA-R10: adjacent to an enemy non-leader in good order.
    let contact = |h: Axial| {
        enemies
            .iter()
            .any(|e| !is_leader(e) && in_good_order(e) && super::distance(e.at, h) == 1)
    };
    // ANC-7.3 / TA-R16: in the front of an enemy in good order.
    let enemy_front = |h: Axial| {
        enemies
            .iter()
            .any(|e| in_good_order(e) && in_directions(e.at, h, &front_edges(e)))
    };
    // Friendly troops not in the group (TA-R17: hexes with only friendly leaders are empty).
    let friendly_troops = |h: Axial| -> Vec<&Piece> {
        pieces
            .iter()
            .filter(|p| p.side == side && p.at == h && !is_leader(p) && !in_group(p))
            .collect()
    };
    let joining_cost = troops
        .iter()
        .map(|p| join_cost(&p.kind))
        .collect::<Option<Vec<u32>>>()
        .map(|v| 1 + v.into_iter().max().unwrap_or(0));

    let first = State {
        hex: start,
        facing: if phalanx { facing0 } else { 0 },
        ended: false,
        joined: None,
    };
    let mut dist: HashMap<State, u32> = HashMap::new();
    let mut heap = BinaryHeap::new();
    dist.insert(first, 0);
    heap.push(Reverse((0u32, first)));
    while let Some(Reverse((cost, s))) = heap.pop() {
        if dist.get(&s).is_some_and(|&c| c < cost) {
            continue;
        }
        if s.ended {
            continue;
        }
        let mut next: Vec<(State, u32)> = Vec::new();
        // TA-R14: a phalanx turns 60° in any hex of its move not in contact.
        if phalanx && contact(s.hex) {
            super::hit("TA-R14: phalanx turn barred in contact");
        }
        if phalanx && !contact(s.hex) {
            for d in [1u8, 5] {
                next.push((
                    State {
                        facing: (s.facing + d) % 6,
                        ..s
                    },
                    cost + TURN_COST,
                ));
            }
        }
        // ANC-7.2 / TA-R14: a phalanx steps only into its 2 front hexes.
        let dirs: Vec<u8> = if phalanx {
            vec![(s.facing + 5) % 6, s.facing]
        } else {
            (0..6).collect()
        };
        for d in dirs {
            let Some(n) = field.neighbor(s.hex, d) else {
                continue;
            };
            // TA-R12: no unit enters an enemy-occupied hex.
            if enemy_hex(n) {
                super::hit("TA-R12: enemy hex barred");
                continue;
            }
            let troops_there = friendly_troops(n);
            if enemy_front(n) {
                super::hit("TA-R16: enemy front entered");
            }
            if leaders_only && !troops_there.is_empty() {
                super::hit("TA-R17: leaders cross friendly troops");
            }
            if leaders_only || troops_there.is_empty() {
                // TA-R17: leaders-only groups ignore friendly hexes; TA-R16: an enemy front
                // ends the move.
                next.push((
                    State {
                        hex: n,
                        facing: s.facing,
                        ended: enemy_front(n),
                        joined: None,
                    },
                    cost + 1,
                ));
                continue;
            }
            // TA-R18: joining a stack.
            let Some(join) = joining_cost else { continue };
            if contact(n) {
                super::hit("TA-R18: join refused in contact");
                continue;
            }
            let kinds = troops_there
                .iter()
                .chain(troops.iter())
                .map(|p| p.kind.as_str());
            if !stack_legal(kinds) {
                super::hit("TA-R19: illegal stack refused");
                continue;
            }
            let stack_facing = troops_there[0].facing.unwrap_or(0) % 6;
            if phalanx && stack_facing != s.facing {
                super::hit("TA-R18: phalanx join refused, other facing");
                continue;
            }
            super::hit("TA-R18: join");
            next.push((
                State {
                    hex: n,
                    facing: s.facing,
                    ended: true,
                    joined: Some(stack_facing),
                },
                cost + join,
            ));
        }
        for (t, c) in next {
            if c > budget {
                continue;
            }
            if dist.get(&t).is_none_or(|&old| c < old) {
                dist.insert(t, c);
                heap.push(Reverse((c, t)));
            }
        }
    }

    // A sub-group of a stack that stays in its start hex keeps the stack's facing (ANC-5.4: all
    // the counters of a stack share one facing, against TA-R11/R14's free turns), so it has no
    // end state there but the start state. Coming back to the start hex after leaving it is an
    // entry, so a join (TA-R16, R18).
    let mut best: BTreeMap<(Axial, String), u32> = BTreeMap::new();
    let mut put = |h: Axial, k: String, c: u32| {
        let e = best.entry((h, k)).or_insert(c);
        *e = (*e).min(c);
    };
    let rest_at_start = !friendly_troops(start).is_empty();
    let kept = rest_at_start && stay == StayReading::KeepsTheStacksFacing;
    for (s, c) in &dist {
        if kept && s.hex == start && s.joined.is_none() {
            continue;
        }
        if leaders_only {
            put(s.hex, "none".into(), *c);
        } else if let Some(f) = s.joined {
            put(s.hex, f.to_string(), *c);
        } else if phalanx {
            put(s.hex, s.facing.to_string(), *c);
        } else {
            for f in 0..6 {
                put(s.hex, f.to_string(), *c);
            }
        }
    }
    // TA-R15: a phalanx group starting in contact may turn 60° in place for all its MP.
    if contact_turn && phalanx && contact(start) && !kept {
        hit_r15();
        for d in [1u8, 5] {
            put(start, ((facing0 + d) % 6).to_string(), budget);
        }
    }
    let start_key = if leaders_only {
        "none".to_string()
    } else {
        facing0.to_string()
    };
    for ((h, k), c) in best {
        if h == start && k == start_key {
            continue;
        }
        answer.insert((field.label(h).to_string(), k), c);
    }
    answer
}

fn hit_r15() {
    super::hit("TA-R15: turn in place listed");
}
