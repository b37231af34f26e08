//! TAC oracle: TAC-1..8 with readings TA-R2..R9 and TA-R20, for one unit.
//!
//! A breadth-first search over (hex, FH hex left first, tactical so far, stopped by a melee):
//! every step costs one hex, so the first time a state is met is its least count, and a
//! continuation legal from a state is legal from it whatever the count so far (the caps of
//! TA-R4 bound the total only).

use std::collections::{HashMap, VecDeque};

use super::{distance, Answer, Axial, Field, Piece};

/// TAC-2 tactical distances in hexes, by the kinds `scenarios/tactical` uses.
pub fn tactical_distance(kind: &str) -> u32 {
    match kind {
        "mounted_skirmisher" => 3,
        "leader" | "cavalry" | "foot_skirmisher" => 2,
        "infantry" | "colonial" | "artillery" => 1,
        "artillery_unlimbered" => 0,
        other => panic!("TAC-2 names no distance for '{other}'"),
    }
}

fn is_leader(p: &Piece) -> bool {
    p.kind == "leader"
}

/// TA-R7: a skirmisher by kind, or by the skirmisher flag.
fn is_skirmisher(p: &Piece) -> bool {
    p.kind == "foot_skirmisher" || p.kind == "mounted_skirmisher" || p.skirmisher_flag
}

/// TA-R4: unlimbered artillery neither moves nor re-faces.
fn is_immobile(p: &Piece) -> bool {
    p.kind == "artillery_unlimbered"
}

/// TAC-8 / TA-R2: the front edges of a unit (`rules/tactical` declares no offsets, so the
/// default f-1, f, f+1 for every kind; a two-base unit: the union of both arcs, TA-R6).
fn front_edges(p: &Piece) -> Vec<u8> {
    if is_leader(p) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for f in p.facing.iter().chain(p.facing2.iter()) {
        for off in [5u8, 0, 1] {
            out.push((f + off) % 6);
        }
    }
    out
}

/// The facing keys a unit of this shape may end with (TA-R5: any), and its start key.
fn facing_keys(p: &Piece) -> (Vec<String>, String) {
    if is_leader(p) {
        return (vec!["none".into()], "none".into());
    }
    let f = p.facing.unwrap_or(0) % 6;
    match p.facing2 {
        Some(g) => {
            let mut all = Vec::new();
            for a in 0..6 {
                for b in 0..6 {
                    all.push(format!("{a},{b}"));
                }
            }
            (all, format!("{f},{}", g % 6))
        }
        None => ((0..6).map(|a| a.to_string()).collect(), f.to_string()),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    hex: Axial,
    /// TA-R9: the first hex of FH the mover left.
    left: Option<Axial>,
    /// TA-R3: some hex of the move so far is within 2 of a counting enemy.
    tactical: bool,
    /// TA-R8: the move entered an enemy-occupied hex and ends there.
    stopped: bool,
}

/// How TA-R9's last sentence reads ("Entering the enemy's own hex is not entering its front").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnemyHexReading {
    /// Literal (the engine's reading; TAC-7's "un hexagone de front d'une autre unité"):
    /// entering enemy A's hex is not entering A's front, but still enters the front of another
    /// enemy B that holds that hex.
    OnlyItsOwnFront,
    /// Entering any enemy-occupied hex is never entering FH. Only counted, to report how often
    /// the choice matters.
    NeverAFront,
}

/// The reach of `mover` in the position `pieces` on `field`.
pub fn reach(field: &Field, pieces: &[Piece], mover: &str) -> Answer {
    reach_with(field, pieces, mover, EnemyHexReading::OnlyItsOwnFront)
}

/// [`reach`] with a choice of reading for TA-R9's enemy-hex sentence.
pub fn reach_with(
    field: &Field,
    pieces: &[Piece],
    mover: &str,
    reading: EnemyHexReading,
) -> Answer {
    let me = pieces
        .iter()
        .find(|p| p.id == mover)
        .unwrap_or_else(|| panic!("no unit {mover}"));
    let mut answer = Answer::new();
    if is_immobile(me) {
        return answer;
    }
    let enemies: Vec<&Piece> = pieces.iter().filter(|p| p.side != me.side).collect();
    let friends: Vec<&Piece> = pieces
        .iter()
        .filter(|p| p.side == me.side && p.id != me.id)
        .collect();

    // TA-R3: an enemy counts unless it is a leader with no non-leader of its side in or next
    // to its hex.
    let counting: Vec<&Piece> = enemies
        .iter()
        .copied()
        .filter(|e| {
            !is_leader(e)
                || pieces
                    .iter()
                    .any(|q| q.side == e.side && !is_leader(q) && distance(q.at, e.at) <= 1)
        })
        .collect();
    let near = |h: Axial| counting.iter().any(|e| distance(e.at, h) <= 2);
    let enemy_occupied = |h: Axial| enemies.iter().any(|e| e.at == h);
    // TA-R9: how many fronts of enemies that are neither skirmishers nor leaders hold a hex.
    let fronts = |h: Axial| {
        enemies
            .iter()
            .filter(|e| !is_skirmisher(e) && !is_leader(e) && e.at != h)
            .filter(|e| super::in_directions(e.at, h, &front_edges(e)))
            .count()
    };
    let friendly_troops = |h: Axial| -> Vec<&&Piece> {
        friends
            .iter()
            .filter(|p| p.at == h && !is_leader(p))
            .collect()
    };
    let passable = |h: Axial| field.terrain(h) != "river";

    let cap_tactical = tactical_distance(&me.kind);
    let cap_plain = me.ma;
    // TA-R4: a move is tactical or not as a whole, so a path not (yet) tactical may run to the
    // larger cap, and only its end is held to the MA.
    let within_cap = |tactical: bool, steps: u32| {
        if tactical {
            steps <= cap_tactical
        } else {
            steps <= cap_plain
        }
    };
    let may_go_on = |tactical: bool, steps: u32| {
        if tactical {
            steps <= cap_tactical
        } else {
            steps <= cap_plain.max(cap_tactical)
        }
    };

    let start = State {
        hex: me.at,
        left: None,
        tactical: near(me.at),
        stopped: false,
    };
    let mut seen: HashMap<State, u32> = HashMap::new();
    seen.insert(start, 0);
    let mut queue = VecDeque::from([(start, 0u32)]);
    // Least count per end hex.
    let mut best: HashMap<Axial, u32> = HashMap::new();
    while let Some((s, steps)) = queue.pop_front() {
        // May the move end here? TA-R7: a non-leader never ends with a friendly non-leader.
        if s.tactical && steps > cap_plain {
            super::hit("TA-R4: tactical move longer than the MA");
        }
        if steps > 0
            && s.hex != me.at
            && within_cap(s.tactical, steps)
            && (is_leader(me) || friendly_troops(s.hex).is_empty())
        {
            let e = best.entry(s.hex).or_insert(steps);
            *e = (*e).min(steps);
        }
        if s.stopped {
            continue;
        }
        // TA-R9: leaving s.hex, which may be the first FH hex left.
        let left = match s.left {
            Some(h) => Some(h),
            None if fronts(s.hex) > 0 => Some(s.hex),
            None => None,
        };
        for d in 0..6 {
            let Some(n) = field.neighbor(s.hex, d) else {
                continue;
            };
            if !passable(n) {
                super::hit("TAC terrain: river hex barred");
                continue;
            }
            let enemy_here = enemy_occupied(n);
            // TA-R7: crossing friendly non-leaders.
            if !is_leader(me) && !enemy_here {
                let troops = friendly_troops(n);
                if !troops.is_empty()
                    && !is_skirmisher(me)
                    && !troops.iter().all(|p| is_skirmisher(p))
                {
                    super::hit("TA-R7: friendly troops not crossed");
                    continue;
                }
                if !troops.is_empty() {
                    super::hit("TA-R7: skirmisher crossing");
                }
            }
            // TA-R9 (mover not a skirmisher): entering an enemy's own hex is not entering a
            // front.
            let exempt = enemy_here && reading == EnemyHexReading::NeverAFront;
            if !is_skirmisher(me) && !exempt {
                if let Some(h) = left {
                    let f = fronts(n);
                    if f > 0 && (n != h || fronts(h) >= 2) {
                        super::hit("TA-R9: front hex barred");
                        continue;
                    }
                }
            }
            let next = State {
                hex: n,
                left: if is_skirmisher(me) { None } else { left },
                tactical: s.tactical || near(n),
                stopped: enemy_here,
            };
            if enemy_here {
                super::hit("TA-R8: enemy hex entered");
            }
            if !may_go_on(next.tactical, steps + 1) {
                if next.tactical && steps < cap_plain {
                    super::hit("TA-R4: tactical cap reached");
                }
                continue;
            }
            if seen.contains_key(&next) {
                continue;
            }
            seen.insert(next, steps + 1);
            queue.push_back((next, steps + 1));
        }
    }

    let (keys, start_key) = facing_keys(me);
    for (hex, cost) in best {
        for k in &keys {
            answer.insert((field.label(hex).to_string(), k.clone()), cost);
        }
    }
    // TA-R5 / TAC-3: re-facing in the start hex is a 0-hex move; the start facing is no move.
    // It is a move that ends in the start hex, so TA-R7 bars it when a friendly non-leader
    // shares that hex (a position TAC-5 forbids reaching, which a setup may still hold).
    if !is_leader(me) && friendly_troops(me.at).is_empty() {
        for k in &keys {
            if *k != start_key {
                answer.insert((field.label(me.at).to_string(), k.clone()), 0);
            }
        }
    }
    answer
}
