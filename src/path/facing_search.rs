//! The facing-aware searches (TAC breadth first, ANC Dijkstra) over states (hex, facing), and
//! the scratch they reuse. The rules they apply are documented with the declaration
//! (`facing.rs`, `docs/facing.md`); this file is about doing it fast and deterministically.
//!
//! Why the code is shaped this way (figures in `docs/facing.md`, "Performance"):
//! - states live in dense arrays, 12 per hex (6 facings × stopped or not), indexed through a
//!   per-hex local id that a generation stamp invalidates, so a query touches only the hexes it
//!   reaches and never clears anything the size of the map;
//! - every ANC step costs a whole MP, so the queue is a bucket queue (Dial) with one bucket per
//!   MP; the binary heap is kept for budgets needing very many buckets, zero-cost turns, and
//!   order checks (whose refusal message depends on the exact visiting order);
//! - the answer keeps, per listed state, a link into the settled states, and paths are walked
//!   back only when asked ([`FacingReach::path`]).
//!
//! Determinism does not depend on the queue: among states of equal cost the parent kept is the
//! one of least (cost, key) — the state a heap ordered by (cost, key) would have settled first
//! — and among equal-cost end states for one (hex, facing) the least key wins. So the answer
//! (costs and paths) is the same whichever queue ran.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet, VecDeque};

use super::arc::{front_mask, rotate, Facing};
use super::facing::{
    FacingBoard, FacingError, FacingOptions, FacingRefusal, FacingRules, FacingType, Model, Piece,
    CONTACT, ENEMY, ENEMY_FRONT, NEAR, OWN_FORMED, OWN_TROOPS,
};
use super::topology::OFF_MAP;
use crate::board::{HexIndex, HexMap};

/// "None": no state, no parent, not settled.
const NO: u32 = u32::MAX;
/// States per hex: facing 0..5 × stopped (ANC); TAC uses the first two (tactical or not).
const PER_HEX: usize = 12;
/// Budgets needing more buckets than this use the binary heap.
const MAX_BUCKETS: u32 = 1 << 14;
/// `End::facings`: every facing of the group's kind (TA-R5, TA-R11).
const ALL: u8 = 6;

/// One reachable end state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FacingReached {
    pub hex: HexIndex,
    pub facing: Facing,
    pub cost: u32,
}

/// The answer of a facing reach: every end state (hex, facing) with its least cost, sorted by
/// hex then facing, the start state never listed (TA-R20). Paths on demand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FacingReach {
    states: Vec<FacingReached>,
    /// Per listed state, its entry in `trail`.
    link: Vec<u32>,
    /// The settled search states: (hex, entry of the state it was entered from).
    trail: Vec<(HexIndex, u32)>,
}

impl FacingReach {
    pub fn states(&self) -> &[FacingReached] {
        &self.states
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, FacingReached> {
        self.states.iter()
    }

    /// The hexes entered to reach `states()[i]`, in order (empty for a turn in place); a
    /// cheapest path, the same one on every run.
    pub fn path(&self, i: usize) -> Vec<HexIndex> {
        let mut out = Vec::new();
        let mut at = self.link[i];
        while at != NO {
            let (hex, parent) = self.trail[at as usize];
            out.push(hex);
            at = parent;
        }
        out.reverse();
        out.dedup(); // turns in place repeat a hex
        out.remove(0); // the start
        out
    }
}

impl<'a> IntoIterator for &'a FacingReach {
    type Item = &'a FacingReached;
    type IntoIter = std::slice::Iter<'a, FacingReached>;
    fn into_iter(self) -> Self::IntoIter {
        self.states.iter()
    }
}

/// One search state's record. Valid for the local hex ids of the current query only.
#[derive(Debug, Clone, Copy)]
struct Slot {
    /// Least cost found so far (NO: not reached).
    dist: u32,
    /// The state it is entered (or turned) from on that cost.
    parent: u32,
    /// Its entry in the trail once settled (TAC: once queued).
    entry: u32,
}

const FRESH: Slot = Slot {
    dist: NO,
    parent: NO,
    entry: NO,
};

/// A candidate end state, chained per local hex.
#[derive(Debug, Clone, Copy)]
struct End {
    next: u32,
    cost: u32,
    /// Tie-break among equal costs: lower wins (the order the old heap settled them in).
    rank: u64,
    entry: u32,
    /// One facing, or `ALL`.
    facings: u8,
}

/// Reusable scratch for facing searches. Grows to the largest map (or order) it has served;
/// starting a query bumps a generation stamp instead of clearing it.
#[derive(Debug, Clone, Default)]
pub struct FacingSearch {
    generation: u32,
    /// Per node (a hex, or a position along an order): `generation << 32 | local id`.
    local_of: Vec<u64>,
    /// Per local id: its node.
    nodes: Vec<u32>,
    /// Per local id: its first `End`.
    end_head: Vec<u32>,
    /// Per local id × `PER_HEX`.
    slots: Vec<Slot>,
    ends: Vec<End>,
    buckets: Vec<Vec<u32>>,
    heap: BinaryHeap<Reverse<(u32, u64, u32)>>,
    fifo: VecDeque<Queued>,
    /// TAC states after leaving an enemy front hex (node, that hex, tactical): few, hashed.
    seen_after_front: HashSet<(u32, u32, bool)>,
    trail: Vec<(HexIndex, u32)>,
    last_trail: usize,
    /// Tests only: run every ANC search on the heap, to compare it with the buckets.
    #[cfg(test)]
    force_heap: bool,
}

/// A TAC queue entry.
#[derive(Debug, Clone, Copy)]
struct Queued {
    node: u32,
    left: u32,
    tac: bool,
    steps: u32,
    entry: u32,
    stopped: bool,
}

/// The moving group, resolved against the board.
struct Group {
    members: Vec<usize>,
    start: HexIndex,
    side: u8,
    facing: Facing,
    vertex: bool,
    leaders_only: bool,
    /// How many of its counters are not leaders.
    troops: usize,
    skirmisher: bool,
    immobile: bool,
    /// A counter is out of good order (ANC: TA-R12, only units in good order move).
    disordered: bool,
    tactical: Option<u32>,
    turn_cost: u32,
    /// Largest joining cost among troop kinds; None when one cannot join.
    join: Option<u32>,
    kinds: Vec<String>,
    /// Friendly non-group troops in the start hex (OWN_TROOPS / OWN_FORMED there count the
    /// group itself).
    start_troops: bool,
    start_formed: bool,
}

/// The rules and the board index hexes of the map searched (a caller's mix-up, reported
/// rather than indexing out of bounds).
fn same_map(map: &HexMap, rules: &FacingRules, board: &FacingBoard) -> Result<(), FacingError> {
    let n = map.len() as usize;
    if rules.topology.len() != n || board.flags.iter().any(|f| f.len() != n) {
        return Err(FacingError::Position(format!(
            "the facing rules or board were built for another map (this one has {n} hexes)"
        )));
    }
    Ok(())
}

fn group_of(
    rules: &FacingRules,
    board: &FacingBoard,
    members: &[usize],
) -> Result<Group, FacingError> {
    let mut first: Option<&Piece> = None;
    let mut g = Group {
        members: members.to_vec(),
        start: 0,
        side: 0,
        facing: Facing::None,
        vertex: false,
        leaders_only: true,
        troops: 0,
        skirmisher: true,
        immobile: false,
        disordered: false,
        tactical: None,
        turn_cost: 0,
        join: Some(0),
        kinds: Vec::new(),
        start_troops: false,
        start_formed: false,
    };
    for &m in members {
        let p = board
            .pieces
            .get(m)
            .and_then(Option::as_ref)
            .ok_or_else(|| FacingError::Position("a unit of the group is not on the map".into()))?;
        let rule = rules
            .kind(&p.kind)
            .ok_or_else(|| FacingError::Position(format!("unit type '{}' not declared", p.kind)))?;
        match first {
            None => {
                g.start = p.hex;
                g.side = p.side;
            }
            Some(f) if f.hex != p.hex || f.side != p.side => {
                return Err(FacingError::Position(
                    "a moving group is counters of one side in one hex (TA-R13)".into(),
                ))
            }
            _ => {}
        }
        first = first.or(Some(p));
        g.skirmisher &= p.skirmisher;
        g.immobile |= rule.immobile;
        g.disordered |= !p.in_order;
        g.tactical = match (g.tactical, rule.tactical) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        g.kinds.push(p.kind.clone());
        if !p.leader {
            // (the first troop with a facing gives the group's, wherever the order lists it:
            // a troop of a kind without facing, a wagon, listed first left the group none)
            if g.facing == Facing::None {
                g.facing = p.facing;
            }
            g.leaders_only = false;
            g.troops += 1;
            g.vertex |= rule.facing == FacingType::Vertex;
            g.turn_cost = g.turn_cost.max(rule.turn_cost);
            g.join = match (g.join, rule.join) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            };
        }
    }
    if first.is_none() {
        return Err(FacingError::Position("an empty group".into()));
    }
    if g.leaders_only {
        g.facing = Facing::None;
    }
    let (troops, formed) = friends(board, &g, g.start)
        .filter(|p| !p.leader)
        .fold((false, false), |(_, f), p| (true, f || !p.skirmisher));
    g.start_troops = troops;
    g.start_formed = formed;
    Ok(g)
}

impl Group {
    /// A friendly non-group non-leader in the hex.
    #[inline]
    fn troops_at(&self, flags: &[u8], hex: HexIndex) -> bool {
        if hex == self.start {
            self.start_troops
        } else {
            flags[hex as usize] & OWN_TROOPS != 0
        }
    }

    /// A friendly non-group non-leader non-skirmisher in the hex.
    #[inline]
    fn formed_at(&self, flags: &[u8], hex: HexIndex) -> bool {
        if hex == self.start {
            self.start_formed
        } else {
            flags[hex as usize] & OWN_FORMED != 0
        }
    }
}

/// Friendly non-group pieces in a hex.
fn friends<'a>(
    board: &'a FacingBoard,
    g: &'a Group,
    hex: HexIndex,
) -> impl Iterator<Item = &'a Piece> + 'a {
    board
        .at(hex)
        .filter(move |(i, p)| p.side == g.side && !g.members.contains(i))
        .map(|(_, p)| p)
}

/// The facing the troops of a stack present (the first non-leader's, TA-R18).
fn stack_facing(board: &FacingBoard, g: &Group, hex: HexIndex) -> u8 {
    match friends(board, g, hex).find(|p| !p.leader).map(|p| p.facing) {
        Some(Facing::One(f)) => f,
        _ => 0,
    }
}

/// "1 hex", "3 hexes": a count of hexes in a message.
fn hexes(n: u32) -> String {
    if n == 1 {
        "1 hex".into()
    } else {
        format!("{n} hexes")
    }
}

/// Whether an end listing `facings` (one, or `ALL` of the group's kind) includes `f`.
fn lists(facings: u8, group: Facing, f: Facing) -> bool {
    match (facings, f) {
        (ALL, _) => matches!(
            (group, f),
            (Facing::None, Facing::None)
                | (Facing::One(_), Facing::One(_))
                | (Facing::Two(_, _), Facing::Two(_, _))
        ),
        (one, Facing::One(x)) => one == x,
        _ => false,
    }
}

/// Output slot of a facing, in `Facing`'s order: None, One(0..5), Two(0..5, 0..5).
fn slot_of(f: Facing) -> u32 {
    match f {
        Facing::None => 0,
        Facing::One(x) => 1 + x as u32,
        Facing::Two(a, b) => 7 + a as u32 * 6 + b as u32,
    }
}

fn facing_of_slot(s: u32) -> Facing {
    match s {
        0 => Facing::None,
        1..=6 => Facing::One((s - 1) as u8),
        _ => Facing::Two(((s - 7) / 6) as u8, ((s - 7) % 6) as u8),
    }
}

/// Output slots an end covers, as a bit set.
fn slots_of(facings: u8, group: Facing) -> u64 {
    match (facings, group) {
        (ALL, Facing::None) => 1,
        (ALL, Facing::One(_)) => 0b111_1110,
        (ALL, Facing::Two(_, _)) => ((1u64 << 36) - 1) << 7,
        (one, _) => 1 << (1 + one as u32),
    }
}

/// Where the search may step next: anywhere (reach) or along an order's hexes (check).
#[derive(Clone, Copy)]
enum Course<'a> {
    Free,
    Along(&'a [HexIndex]),
}

impl Course<'_> {
    /// Node ids: a hex (free) or a position along the order (constrained).
    #[inline]
    fn hex(self, start: HexIndex, node: u32) -> HexIndex {
        match self {
            Course::Free => node,
            Course::Along(p) => {
                if node == 0 {
                    start
                } else {
                    p[node as usize - 1]
                }
            }
        }
    }

    /// Whether the order's path goes on after `node` (never, for a free search).
    #[inline]
    fn goes_on_after(self, node: u32) -> bool {
        matches!(self, Course::Along(p) if (node as usize) < p.len())
    }

    fn start(self, start: HexIndex) -> u32 {
        match self {
            Course::Free => start,
            Course::Along(_) => 0,
        }
    }

    /// The hexes a step out of `node` may enter, by edge direction (`OFF_MAP`: none).
    #[inline]
    fn steps(self, rules: &FacingRules, start: HexIndex, node: u32) -> [HexIndex; 6] {
        let nb = rules.topology.neighbors(self.hex(start, node));
        match self {
            Course::Free => nb,
            Course::Along(p) => {
                let mut out = [OFF_MAP; 6];
                if let Some(&next) = p.get(node as usize) {
                    if let Some(d) = nb.iter().position(|&h| h == next) {
                        out[d] = next;
                    }
                }
                out
            }
        }
    }

    /// The node a step into `hex` leads to.
    #[inline]
    fn next(self, node: u32, hex: HexIndex) -> u32 {
        match self {
            Course::Free => hex,
            Course::Along(_) => node + 1,
        }
    }
}

/// Records the furthest refusal met along an order (check mode only: a reach keeps none).
struct Why {
    active: bool,
    best: Option<(u32, &'static str, String)>,
}

impl Why {
    #[inline]
    fn note(&mut self, depth: u32, key: &'static str, reason: impl FnOnce() -> String) {
        if self.active && self.best.as_ref().is_none_or(|b| depth > b.0) {
            self.best = Some((depth, key, reason()));
        }
    }
}

/// Whether the declaration bars the terrain of `hex`.
#[inline]
fn barred_terrain(map: &HexMap, rules: &FacingRules, hex: HexIndex) -> bool {
    rules.impassable[map.terrain_id(hex) as usize]
}

/// Whether the declaration bars the hexside leaving `hex` in direction `d`.
#[inline]
fn barred_hexside(map: &HexMap, rules: &FacingRules, hex: HexIndex, d: u8) -> bool {
    rules.impassable_hexsides != 0
        && map.hexside_mask(hex, hexx::EdgeDirection::ALL_DIRECTIONS[d as usize])
            & rules.impassable_hexsides
            != 0
}

/// Whether terrain stops the step from `hex` to its neighbour `n` in direction `d` (TA-R4,
/// TA-R12: steps cost by count, but an impassable hex or hexside is never entered); the reason
/// is noted for a refusal.
#[inline]
fn terrain_bars_step(
    map: &HexMap,
    rules: &FacingRules,
    why: &mut Why,
    depth: u32,
    hex: HexIndex,
    n: HexIndex,
    d: u8,
) -> bool {
    if barred_terrain(map, rules, n) {
        why.note(depth, "terrain", || {
            format!("{} cannot be entered", map.label(n))
        });
        return true;
    }
    if barred_hexside(map, rules, hex, d) {
        why.note(depth, "terrain", || {
            format!(
                "the hexside {}/{} cannot be crossed",
                map.label(hex),
                map.label(n)
            )
        });
        return true;
    }
    false
}

/// ANC key order: (node, facing, stopped), the order the old heap settled equal costs in.
#[inline]
fn anc_key(node: u32, facing: u8, stopped: bool) -> u64 {
    (node as u64) << 8 | (facing as u64) << 5 | (stopped as u64) << 4
}

impl FacingSearch {
    pub fn new() -> FacingSearch {
        FacingSearch::default()
    }

    /// The facing-aware reach of a group (unit indices into the units given to the board).
    pub fn reach(
        &mut self,
        map: &HexMap,
        rules: &FacingRules,
        board: &FacingBoard,
        group: &[usize],
        budget: u32,
        opts: FacingOptions,
    ) -> Result<FacingReach, FacingError> {
        same_map(map, rules, board)?;
        let g = group_of(rules, board, group)?;
        let mut why = Why {
            active: false,
            best: None,
        };
        self.begin(map.len() as usize);
        self.search(map, rules, board, &g, budget, opts, Course::Free, &mut why);
        Ok(self.answer(&g))
    }

    /// Checks a move order: the hexes entered (not the start) and the end facing. Ok(cost) or
    /// the refusal naming the clause.
    #[allow(clippy::too_many_arguments)]
    pub fn check(
        &mut self,
        map: &HexMap,
        rules: &FacingRules,
        board: &FacingBoard,
        group: &[usize],
        budget: u32,
        path: &[HexIndex],
        facing: Facing,
        opts: FacingOptions,
    ) -> Result<Result<u32, FacingRefusal>, FacingError> {
        same_map(map, rules, board)?;
        let g = group_of(rules, board, group)?;
        let refuse = |key: &'static str, reason: String| {
            Ok(Err(FacingRefusal {
                key,
                clause: rules.clause(key),
                reason,
            }))
        };
        // A facing of the wrong shape for the group (a single direction for a two-base unit,
        // a pair for another, any for leaders): said as such, not as an unreachable facing.
        if !lists(ALL, g.facing, facing) {
            let reason = match g.facing {
                Facing::None if g.leaders_only => format!(
                    "leaders have no facing (TA-R2), so none is given, not {}",
                    facing.key()
                ),
                Facing::None => {
                    let mut faceless: Vec<&str> = g
                        .kinds
                        .iter()
                        .map(String::as_str)
                        .filter(|k| {
                            rules
                                .kind(k)
                                .is_some_and(|r| !r.leader && r.facing == FacingType::None)
                        })
                        .collect();
                    faceless.dedup();
                    format!(
                        "{} is declared without a facing (facing = \"none\"), so none is given, not {}",
                        faceless.join(", "),
                        facing.key()
                    )
                }
                // (a single troop is no group: it was told "the group ends facing ...")
                Facing::One(_) => format!(
                    "the {} ends facing one direction 0..5, not {}",
                    if g.members.len() > 1 { "group" } else { "unit" },
                    facing.key()
                ),
                Facing::Two(_, _) => format!(
                    "a two-base unit ends facing a pair \"f1,f2\", one per base (TA-R6), not {}",
                    facing.key()
                ),
            };
            // (a leader's own rule is TA-R2, not the facing clause of the troops; rules that
            // declare none for it cite their `facing` clause, as before the key existed)
            let key = if matches!(g.facing, Facing::None)
                && g.leaders_only
                && rules.declares_clause("leader_facing")
            {
                "leader_facing"
            } else {
                "facing"
            };
            return refuse(key, reason);
        }
        // TA-R5 (TAC): ending in the start hex with the start facing is not a move, whatever
        // the path. ANC has no such reading: there only the empty order is refused, and a round
        // trip back to the start state stays an order (tests/facing.rs anc_7_3).
        let back_home = path.last().is_none_or(|&h| h == g.start);
        let round_trip_counts = path.is_empty() || rules.model == Model::Tactical;
        if back_home && round_trip_counts && facing == g.facing {
            // (TA-R5 is the tactical game's reading; the ancients' is TA-R20's start state)
            let reading = match rules.model {
                Model::Tactical => "TA-R5",
                _ => "TA-R20",
            };
            return refuse(
                "not_a_move",
                format!("not a move: same hex, same facing ({reading})"),
            );
        }
        let mut prev = g.start;
        for (i, &h) in path.iter().enumerate() {
            if h >= map.len() || map.distance(prev, h) != 1 {
                // (the hexes named, as a plain move's refusal names them)
                let to = if h < map.len() {
                    map.label(h)
                } else {
                    format!("#{h}")
                };
                return refuse(
                    "adjacent",
                    format!(
                        "step {} does not lead to an adjacent hex ({} to {to})",
                        i + 1,
                        map.label(prev)
                    ),
                );
            }
            prev = h;
        }
        let mut why = Why {
            active: true,
            best: None,
        };
        self.begin(path.len() + 1);
        let course = Course::Along(path);
        self.search(map, rules, board, &g, budget, opts, course, &mut why);
        let last = self.lookup(path.len() as u32);
        let mut any_end = false;
        let mut end = None;
        let mut e = last.map_or(NO, |l| self.end_head[l as usize]);
        while e != NO {
            let x = self.ends[e as usize];
            any_end = true;
            if lists(x.facings, g.facing, facing) {
                end = Some(end.map_or(x.cost, |c: u32| c.min(x.cost)));
            }
            e = x.next;
        }
        if let Some(c) = end {
            return Ok(Ok(c));
        }
        if any_end {
            // Ending in the start hex beside the rest of its stack (ANC-5.4): whatever else
            // the search noted (a turn it could not make on the way), that is why.
            let end_hex = path.last().copied().unwrap_or(g.start);
            if rules.model == Model::Ancients
                && end_hex == g.start
                && !g.leaders_only
                && g.troops_at(&board.flags[g.side as usize], g.start)
            {
                return refuse(
                    "stack_facing",
                    format!(
                        "a stack shares one facing: the group ends at {} beside the rest of its \
                         stack, which faces {}",
                        map.label(g.start),
                        stack_facing(board, &g, g.start)
                    ),
                );
            }
            if let Some((_, key @ ("turn" | "contact_turn"), reason)) = why.best {
                return refuse(key, reason);
            }
            // A phalanx that reaches the hex of its move but not the facing, where it is in
            // contact: it could not turn there (ANC-6.2, TA-R14). (In place, the search has
            // said so already: the turn in contact is the wheel, ANC-6.3.)
            if let Some(&end_hex) = path.last() {
                if g.vertex && board.flags[g.side as usize][end_hex as usize] & CONTACT != 0 {
                    return refuse(
                        "turn",
                        format!(
                            "the phalanx cannot end facing {} at {}: it turns only out of \
                             contact (TA-R14)",
                            facing.key(),
                            map.label(end_hex)
                        ),
                    );
                }
            }
            // Joining a stack (TA-R18): the joiners take the stack's facing.
            if let Some(&end_hex) = path.last() {
                if end_hex != g.start
                    && !g.leaders_only
                    && g.troops_at(&board.flags[g.side as usize], end_hex)
                {
                    return refuse(
                        "join",
                        format!(
                            "the group joins the stack at {} and takes its facing {}, not {} \
                             (TA-R18)",
                            map.label(end_hex),
                            stack_facing(board, &g, end_hex),
                            facing.key()
                        ),
                    );
                }
            }
            // A phalanx that reaches the hex in other facings only: name them (a plain "cannot
            // end facing 0" left a player to guess that turning costs MP).
            let mut end_facings: Vec<u8> = Vec::new();
            let mut e = last.map_or(NO, |l| self.end_head[l as usize]);
            while e != NO {
                let x = self.ends[e as usize];
                if !end_facings.contains(&x.facings) {
                    end_facings.push(x.facings);
                }
                e = x.next;
            }
            end_facings.sort_unstable();
            if g.vertex && !end_facings.contains(&ALL) {
                let mut listed: Vec<String> = end_facings.iter().map(u8::to_string).collect();
                let final_one = listed.pop().unwrap_or_default();
                let listed = if listed.is_empty() {
                    final_one
                } else {
                    format!("{} or {final_one}", listed.join(", "))
                };
                return refuse(
                    "facing",
                    format!(
                        "{} reaches {} facing {} only, not {} (each 60° turn costs {} MP, \
                         ANC-6.2)",
                        if g.members.len() > 1 {
                            "the group"
                        } else {
                            "the phalanx"
                        },
                        map.label(end_hex),
                        listed,
                        facing.key(),
                        g.turn_cost
                    ),
                );
            }
            return refuse(
                "facing",
                format!("the group cannot end this move facing {}", facing.key()),
            );
        }
        match why.best {
            Some((_, key, reason)) => refuse(key, reason),
            None => refuse("adjacent", "the move is not possible".into()),
        }
    }

    /// Starts a query over `nodes` node ids.
    fn begin(&mut self, nodes: usize) {
        if self.local_of.len() < nodes {
            if self.local_of.is_empty() {
                self.local_of = vec![0; nodes]; // zeroed pages on demand
            } else {
                self.local_of.resize(nodes, 0);
            }
        }
        self.generation = match self.generation.checked_add(1) {
            Some(g) => g,
            None => {
                self.local_of.fill(0);
                1
            }
        };
        self.nodes.clear();
        self.end_head.clear();
        self.slots.clear();
        self.ends.clear();
        self.trail = Vec::with_capacity(self.last_trail);
    }

    #[inline]
    fn lookup(&self, node: u32) -> Option<u32> {
        let e = self.local_of[node as usize];
        (e >> 32 == self.generation as u64).then_some(e as u32)
    }

    /// The local id of a node, allocating its states on first use.
    #[inline]
    fn local(&mut self, node: u32) -> u32 {
        let e = self.local_of[node as usize];
        if e >> 32 == self.generation as u64 {
            return e as u32;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.end_head.push(NO);
        self.slots.extend([FRESH; PER_HEX]);
        self.local_of[node as usize] = (self.generation as u64) << 32 | id as u64;
        id
    }

    fn add_end(&mut self, local: u32, cost: u32, rank: u64, entry: u32, facings: u8) {
        let next = self.end_head[local as usize];
        self.end_head[local as usize] = self.ends.len() as u32;
        self.ends.push(End {
            next,
            cost,
            rank,
            entry,
            facings,
        });
    }

    /// Per (hex, facing) the cheapest end (least rank on ties), sorted by hex then facing.
    fn answer(&mut self, g: &Group) -> FacingReach {
        let mut hexes: Vec<(HexIndex, u32)> = (0..self.nodes.len() as u32)
            .filter(|&l| self.end_head[l as usize] != NO)
            .map(|l| (self.nodes[l as usize], l))
            .collect();
        hexes.sort_unstable();
        let mut states = Vec::with_capacity(hexes.len() * 6);
        let mut link = Vec::with_capacity(hexes.len() * 6);
        let mut best = [(0u32, 0u64, 0u32); 43];
        for (hex, local) in hexes {
            let mut touched = 0u64;
            let mut e = self.end_head[local as usize];
            while e != NO {
                let x = self.ends[e as usize];
                let mut set = slots_of(x.facings, g.facing);
                if hex == g.start {
                    set &= !(1u64 << slot_of(g.facing)); // TA-R20
                }
                while set != 0 {
                    let s = set.trailing_zeros();
                    set &= set - 1;
                    let b = &mut best[s as usize];
                    if touched & (1 << s) == 0 || (x.cost, x.rank) < (b.0, b.1) {
                        *b = (x.cost, x.rank, x.entry);
                        touched |= 1 << s;
                    }
                }
                e = x.next;
            }
            while touched != 0 {
                let s = touched.trailing_zeros();
                touched &= touched - 1;
                let (cost, _, entry) = best[s as usize];
                states.push(FacingReached {
                    hex,
                    facing: facing_of_slot(s),
                    cost,
                });
                link.push(entry);
            }
        }
        self.last_trail = self.trail.len();
        FacingReach {
            states,
            link,
            trail: std::mem::take(&mut self.trail),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        map: &HexMap,
        rules: &FacingRules,
        board: &FacingBoard,
        g: &Group,
        budget: u32,
        opts: FacingOptions,
        course: Course,
        why: &mut Why,
    ) {
        match rules.model {
            Model::Tactical => self.tactical(map, rules, board, g, budget, course, why),
            Model::Ancients => self.ancients(map, rules, board, g, budget, opts, course, why),
        }
    }

    /// TAC (TA-R3..R9). State: (node, first enemy-front hex left, tactical so far); breadth
    /// first, so each state is settled at its least hex count, and the first to queue a state
    /// is its parent.
    #[allow(clippy::too_many_arguments)]
    fn tactical(
        &mut self,
        map: &HexMap,
        rules: &FacingRules,
        board: &FacingBoard,
        g: &Group,
        budget: u32,
        course: Course,
        why: &mut Why,
    ) {
        if g.immobile {
            why.note(0, "immobile", || {
                "unlimbered artillery neither moves nor re-faces (TA-R4)".into()
            });
            return;
        }
        // TA-R7: its non-leaders would end together wherever the group ends (TAC has no
        // stacks: each non-leader moves alone, a leader may go with one)
        if g.troops >= 2 {
            why.note(0, "friendly", || {
                format!(
                    "the group holds {} non-leaders, and a non-leader never ends in a hex \
                     holding a friendly non-leader (TA-R7): they move one by one",
                    g.troops
                )
            });
            return;
        }
        let flags = &board.flags[g.side as usize];
        let fh = &board.fh[g.side as usize];
        let cap_tactical = g.tactical.unwrap_or(budget);
        // TA-R4: being tactical is a property of the whole move (any hex of it near a counting
        // enemy), so until the move turns tactical it may run on as far as either cap allows;
        // a move that ends still not tactical is held to the MA (its end is refused beyond it).
        let cap_open = budget.max(cap_tactical);
        let front_rule = !g.skirmisher; // TAC-7 spares skirmishers
        let start_tac = flags[g.start as usize] & NEAR != 0;
        self.fifo.clear();
        self.seen_after_front.clear();
        let n0 = course.start(g.start);
        let l0 = self.local(n0);
        self.slots[l0 as usize * PER_HEX + start_tac as usize].entry = 0;
        self.trail.push((g.start, NO));
        self.fifo.push_back(Queued {
            node: n0,
            left: NO,
            tac: start_tac,
            steps: 0,
            entry: 0,
            stopped: false,
        });
        while let Some(q) = self.fifo.pop_front() {
            let hex = course.hex(g.start, q.node);
            // An end state here: TA-R7, a non-leader never ends with a friendly non-leader.
            let blocked_end = !g.leaders_only && g.troops_at(flags, hex);
            if !q.tac && q.steps > budget {
                why.note(q.node, "budget", || {
                    format!("the unit moves at most {} (TA-R4)", hexes(budget))
                });
            } else if !blocked_end {
                let local = self.local(q.node);
                self.add_end(local, q.steps, q.entry as u64, q.entry, ALL);
            } else {
                why.note(q.node, "friendly", || {
                    format!(
                        "{} holds a friendly unit; only leaders may end there (TAC-5)",
                        map.label(hex)
                    )
                });
            }
            if q.stopped {
                // (only where the path asked goes on: a path that ends here is judged by the
                // end state above, a friendly non-leader there by TAC-5, not as a melee)
                let goes_on = why.active
                    && course
                        .steps(rules, g.start, q.node)
                        .iter()
                        .any(|&n| n != OFF_MAP);
                if goes_on {
                    why.note(q.node + 1, "melee", || {
                        format!(
                            "entering the enemy hex {} ended the move in a melee (TAC-6)",
                            map.label(hex)
                        )
                    });
                }
                continue;
            }
            // Leaving `hex`: TA-R9 remembers the first enemy-front hex left.
            let left_now = if q.left == NO && front_rule && fh[hex as usize] > 0 {
                hex
            } else {
                q.left
            };
            let steps = course.steps(rules, g.start, q.node);
            for (d, &n) in steps.iter().enumerate() {
                if n == OFF_MAP {
                    continue;
                }
                let (d, next_node) = (d as u8, course.next(q.node, n));
                let nsteps = q.steps + 1;
                let ntac = q.tac || flags[n as usize] & NEAR != 0;
                let cap = if ntac { cap_tactical } else { cap_open };
                let depth = next_node;
                if nsteps > cap {
                    why.note(depth, if ntac { "distance" } else { "budget" }, || {
                        if ntac {
                            format!("a tactical move is at most {} (TAC-2)", hexes(cap_tactical))
                        } else {
                            format!("the unit moves at most {} (TA-R4)", hexes(budget))
                        }
                    });
                    continue;
                }
                if terrain_bars_step(map, rules, why, depth, hex, n, d) {
                    continue;
                }
                let enemy = flags[n as usize] & ENEMY != 0;
                // TA-R9 also for an enemy-occupied hex (a charge): an enemy's own hex is never
                // in its own front, so `fh` there counts only the fronts of other enemies, and
                // entering one of those is entering "a front hex of another unit" (TAC-7).
                if front_rule && left_now != NO && fh[n as usize] > 0 {
                    let back_ok = n == left_now && fh[n as usize] < 2;
                    if !back_ok {
                        why.note(depth, "front_to_front", || {
                            if n == left_now {
                                // (back into the hex it left: allowed unless two fronts hold it)
                                format!(
                                    "having left {0}, which lies in the fronts of {1} enemy \
                                     units, the unit may not enter it again (TA-R9)",
                                    map.label(n),
                                    fh[n as usize]
                                )
                            } else {
                                format!(
                                    "having left the enemy front hex {}, the unit may not enter the enemy front hex {} (TAC-7)",
                                    map.label(left_now),
                                    map.label(n)
                                )
                            }
                        });
                        continue;
                    }
                }
                // TA-R7: crossing a friendly non-leader needs a skirmisher on one side.
                if !enemy
                    && !g.leaders_only
                    && g.troops_at(flags, n)
                    && !g.skirmisher
                    && g.formed_at(flags, n)
                {
                    why.note(depth, "friendly", || {
                        format!(
                            "{} holds a friendly unit: only skirmishers pass through, and no non-leader ends there (TAC-5)",
                            map.label(n)
                        )
                    });
                    continue;
                }
                let entry = self.trail.len() as u32;
                if left_now == NO {
                    let local = self.local(next_node);
                    let slot = &mut self.slots[local as usize * PER_HEX + ntac as usize];
                    if slot.entry != NO {
                        continue;
                    }
                    slot.entry = entry;
                } else if !self.seen_after_front.insert((next_node, left_now, ntac)) {
                    continue;
                }
                self.trail.push((n, q.entry));
                // TA-R8: entering an enemy hex ends the move (melee).
                self.fifo.push_back(Queued {
                    node: next_node,
                    left: left_now,
                    tac: ntac,
                    steps: nsteps,
                    entry,
                    stopped: enemy,
                });
            }
        }
    }

    /// ANC (TA-R10..R19): Dijkstra over (node, facing, stopped); a joined stack's facing is
    /// that of the stack (a function of the hex), so it is not part of the state.
    #[allow(clippy::too_many_arguments)]
    fn ancients(
        &mut self,
        map: &HexMap,
        rules: &FacingRules,
        board: &FacingBoard,
        g: &Group,
        budget: u32,
        opts: FacingOptions,
        course: Course,
        why: &mut Why,
    ) {
        if g.immobile {
            why.note(0, "immobile", || "this unit does not move".into());
            return;
        }
        if g.disordered {
            why.note(0, "immobile", || {
                "only units in good order move (TA-R12)".into()
            });
            return;
        }
        let flags = &board.flags[g.side as usize];
        let f0 = match g.facing {
            Facing::One(f) => f,
            _ => 0,
        };
        // The phalanx front (steps, ANC-7.2): the vertex arc of the group's phalanx kind, as
        // an edge mask per facing.
        let mut step_masks = [0u8; 6];
        if g.vertex {
            let offsets = g
                .kinds
                .iter()
                .filter_map(|k| rules.kind(k))
                .find(|r| r.facing == FacingType::Vertex)
                .map_or(&[-1i8, 0][..], |r| &r.front[..]);
            for (f, m) in step_masks.iter_mut().enumerate() {
                *m = front_mask(f as u8, offsets);
            }
        }
        // Buckets need positive steps (a turn may cost 0) and a bounded budget; an order check
        // keeps the heap's exact visiting order, on which its refusal message depends.
        let exact = matches!(course, Course::Along(_))
            || (g.vertex && g.turn_cost == 0)
            || budget >= MAX_BUCKETS;
        #[cfg(test)]
        let exact = exact || self.force_heap;
        let n0 = course.start(g.start);
        let l0 = self.local(n0);
        let s0 = l0 * PER_HEX as u32 + f0 as u32 * 2;
        self.slots[s0 as usize].dist = 0;
        if exact {
            self.heap.clear();
            self.heap.push(Reverse((0, anc_key(n0, f0, false), s0)));
        } else {
            let count = budget as usize + 1;
            if self.buckets.len() < count {
                self.buckets.resize_with(count, Vec::new);
            }
            self.buckets[0].push(s0);
        }
        // TA-R15: the in-contact turn in place, as the group's only action (rank 0: listed
        // before any other end at that cost; entry 0 is the start, settled first).
        // (not for a sub-group beside the rest of its stack: ANC-5.4, one facing a stack)
        if opts.contact_turn
            && g.vertex
            && flags[g.start as usize] & CONTACT != 0
            && (g.leaders_only || !g.troops_at(flags, g.start))
        {
            for o in [-1i8, 1] {
                self.add_end(l0, budget, 0, 0, rotate(f0, o));
            }
        }
        let mut bucket = 0usize;
        loop {
            // The next state to settle, cheapest first.
            let (cost, state) = if exact {
                match self.heap.pop() {
                    Some(Reverse((c, _, s))) => (c, s),
                    None => break,
                }
            } else {
                match self.buckets[bucket].pop() {
                    Some(s) => (bucket as u32, s),
                    None => {
                        bucket += 1;
                        if bucket > budget as usize {
                            break;
                        }
                        continue;
                    }
                }
            };
            let slot = self.slots[state as usize];
            if slot.entry != NO || slot.dist != cost {
                continue; // settled already, or a stale entry
            }
            let local = state / PER_HEX as u32;
            let facing = ((state % PER_HEX as u32) / 2) as u8;
            let stopped = state % 2 == 1;
            let node = self.nodes[local as usize];
            let hex = course.hex(g.start, node);
            let entry = self.trail.len() as u32;
            let parent_entry = if slot.parent == NO {
                NO
            } else {
                self.slots[slot.parent as usize].entry
            };
            self.slots[state as usize].entry = entry;
            self.trail.push((hex, parent_entry));
            let rank = 1 + anc_key(node, facing, stopped);
            // End states. A stopped group in friendly troops has joined their stack.
            if stopped && !g.leaders_only && g.troops_at(flags, hex) {
                let sf = stack_facing(board, g, hex);
                self.add_end(local, cost, rank, entry, sf);
                continue;
            }
            if hex == g.start && !g.leaders_only && g.troops_at(flags, hex) {
                // ANC-5.4: a stack shares one facing. A sub-group that ends in its start hex,
                // beside the rest of its stack, ends in the stack's facing (a phalanx may still
                // turn there on its way out).
                let sf = stack_facing(board, g, hex);
                if !g.vertex || facing == sf {
                    self.add_end(local, cost, rank, entry, sf);
                }
            } else {
                self.add_end(
                    local,
                    cost,
                    rank,
                    entry,
                    if g.vertex { facing } else { ALL },
                );
            }
            if stopped {
                why.note(node + 1, "front_stop", || {
                    format!(
                        "entering the enemy front at {} ended the move (ANC-7.3)",
                        map.label(hex)
                    )
                });
                continue;
            }
            // ANC-6.2 / TA-R14: turns out of contact.
            if g.vertex {
                if flags[hex as usize] & CONTACT == 0 {
                    for o in [-1i8, 1] {
                        let c = cost.saturating_add(g.turn_cost);
                        if c <= budget {
                            let to = local * PER_HEX as u32 + rotate(facing, o) as u32 * 2;
                            self.relax(to, c, state, exact);
                        } else {
                            why.note(node, "turn", || {
                                "not enough MP left to turn (ANC-6.2)".into()
                            });
                        }
                    }
                } else {
                    why.note(node, "contact_turn", || {
                        format!("in contact at {}: a phalanx turns only by spending its whole movement after a morale test (ANC-6.3)", map.label(hex))
                    });
                }
            }
            let steps = course.steps(rules, g.start, node);
            for (d, &n) in steps.iter().enumerate() {
                if n == OFF_MAP {
                    continue;
                }
                let (d, next_node) = (d as u8, course.next(node, n));
                let depth = next_node;
                if g.vertex && step_masks[facing as usize] & (1 << d) == 0 {
                    why.note(depth, "phalanx_front", || {
                        format!("a phalanx facing vertex {facing} moves only into its 2 front hexes (ANC-7.2)")
                    });
                    continue;
                }
                if terrain_bars_step(map, rules, why, depth, hex, n, d) {
                    continue;
                }
                if flags[n as usize] & ENEMY != 0 {
                    why.note(depth, "enemy_hex", || {
                        format!("{} holds an enemy unit (TA-R12)", map.label(n))
                    });
                    continue;
                }
                let c = cost.saturating_add(1);
                if !g.leaders_only && g.troops_at(flags, n) {
                    // ANC-7.1: no unit passes through friendly units: an order whose path goes
                    // on past them is told so, not why it could not join them
                    if course.goes_on_after(next_node) {
                        why.note(depth, "friendly", || {
                            format!(
                                "{} holds friendly troops: no unit passes through friendly \
                                 units (ANC-7.1); entering them joins their stack, the last \
                                 step of a move (TA-R18)",
                                map.label(n)
                            )
                        });
                        continue;
                    }
                    // TA-R18: joining a stack, as the last step.
                    let Some(join) = g.join else {
                        why.note(depth, "join", || {
                            "a troop type of the group cannot join a stack (ANC-5.3)".into()
                        });
                        continue;
                    };
                    let c = c.saturating_add(join);
                    if c > budget {
                        why.note(depth, "join", || {
                            format!(
                                "joining the stack at {} costs {} MP (ANC-5.3)",
                                map.label(n),
                                1 + join
                            )
                        });
                        continue;
                    }
                    if flags[n as usize] & CONTACT != 0 {
                        why.note(depth, "join", || {
                            format!(
                                "no stack may be formed in contact with the enemy at {} (ANC-5.3)",
                                map.label(n)
                            )
                        });
                        continue;
                    }
                    let kinds = friends(board, g, n)
                        .filter(|p| !p.leader)
                        .map(|p| p.kind.as_str())
                        .chain(g.kinds.iter().map(String::as_str));
                    if !rules.stack_legal(kinds) {
                        why.note(depth, "stack", || {
                            let kinds = friends(board, g, n)
                                .filter(|p| !p.leader)
                                .map(|p| p.kind.as_str())
                                .chain(g.kinds.iter().map(String::as_str));
                            format!(
                                "the stack at {} {} (ANC-5.1)",
                                map.label(n),
                                rules.stack_fault(kinds)
                            )
                        });
                        continue;
                    }
                    if g.vertex && stack_facing(board, g, n) != facing {
                        why.note(depth, "join", || {
                            "a phalanx joins a stack only already facing its way (TA-R18)".into()
                        });
                        continue;
                    }
                    let to = self.local(next_node) * PER_HEX as u32 + facing as u32 * 2 + 1;
                    self.relax(to, c, state, exact);
                    continue;
                }
                if c > budget {
                    why.note(depth, "budget", || {
                        format!("not enough MP (ANC-7.1: {budget} MP)")
                    });
                    continue;
                }
                // TA-R16: entering an enemy front ends the move.
                let stop = flags[n as usize] & ENEMY_FRONT != 0;
                let to = self.local(next_node) * PER_HEX as u32 + facing as u32 * 2 + stop as u32;
                self.relax(to, c, state, exact);
            }
        }
        if !exact {
            for b in self.buckets.iter_mut().take(budget as usize + 1) {
                b.clear();
            }
        }
    }

    /// Offers cost `c` to state `to` from state `from`. The heap keeps the
    /// first offer of the least cost; buckets, visiting equal costs in no particular order,
    /// keep the offer of least (cost, key), which is the same one.
    #[inline]
    fn relax(&mut self, to: u32, c: u32, from: u32, exact: bool) {
        let slot = self.slots[to as usize];
        if slot.entry != NO {
            return;
        }
        let improved = c < slot.dist;
        let better_parent = !exact
            && c == slot.dist
            && (self.slots[from as usize].dist, self.key_of(from))
                < (
                    self.slots[slot.parent as usize].dist,
                    self.key_of(slot.parent),
                );
        if !improved && !better_parent {
            return;
        }
        self.slots[to as usize].dist = c;
        self.slots[to as usize].parent = from;
        if !improved {
            return; // same cost, better parent: already queued
        }
        if exact {
            self.heap.push(Reverse((c, self.key_of(to), to)));
        } else {
            self.buckets[c as usize].push(to);
        }
    }

    /// The ANC order key of a state (see `anc_key`).
    #[inline]
    fn key_of(&self, state: u32) -> u64 {
        let node = self.nodes[(state / PER_HEX as u32) as usize];
        anc_key(node, ((state % PER_HEX as u32) / 2) as u8, state % 2 == 1)
    }
}

/// One-off facing reach (allocates its scratch; keep a [`FacingSearch`] for repeated queries).
pub fn reach_facing(
    map: &HexMap,
    rules: &FacingRules,
    board: &FacingBoard,
    group: &[usize],
    budget: u32,
    opts: FacingOptions,
) -> Result<FacingReach, FacingError> {
    FacingSearch::new().reach(map, rules, board, group, budget, opts)
}

/// One-off order check ([`FacingSearch::check`]).
#[allow(clippy::too_many_arguments)]
pub fn check_move(
    map: &HexMap,
    rules: &FacingRules,
    board: &FacingBoard,
    group: &[usize],
    budget: u32,
    path: &[HexIndex],
    facing: Facing,
    opts: FacingOptions,
) -> Result<Result<u32, FacingRefusal>, FacingError> {
    FacingSearch::new().check(map, rules, board, group, budget, path, facing, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_map, SourceText};
    use crate::engine::Unit;
    use serde_json::json;

    /// Searches random ANC positions of the declared `kinds` (units drawn from `names`, marsh
    /// barred) with the default queue and with the heap forced: both must list the same
    /// states at the same costs with the same paths. The number of states compared.
    fn compare_with_the_heap(kinds: serde_json::Value, names: &[&str], seed: u64) -> usize {
        let row = format!("\"{}\"", [". . m . . . . . . . . ."; 1].join(" "));
        let grid = vec![row; 11].join(", ");
        let map = parse_map(&SourceText::new(
            "t.toml",
            format!("name = \"t\"\ncolumns = 12\nrows = 11\ngrid = [{grid}]\n[legend]\n\".\" = \"clear\"\nm = \"marsh\"\n"),
        ))
        .unwrap();
        let rules = FacingRules::compile(
            &json!({ "model": "ancients", "sides": ["a", "b"], "not_in_order": ["disordered"],
                     "impassable": ["marsh"], "kinds": kinds }),
            &map,
        )
        .unwrap();
        let mut rng = crate::path::tests::TestRng::new(seed);
        let (mut default, mut heap) = (FacingSearch::new(), FacingSearch::new());
        heap.force_heap = true;
        let mut compared = 0;
        for _ in 0..60 {
            let units: Vec<Unit> = (0..10)
                .map(|i| {
                    let status = if rng.below(6) == 0 {
                        json!(["disordered"])
                    } else {
                        json!([])
                    };
                    serde_json::from_value(json!({
                        "id": format!("u{i}"), "side": if rng.below(2) == 0 { "a" } else { "b" },
                        "type": names[rng.below(names.len() as u64) as usize],
                        "at": map.label(rng.below(map.len() as u64) as u32),
                        "ma": 2 + rng.below(6), "facing": rng.below(6), "status": status,
                    }))
                    .unwrap()
                })
                .collect();
            let board = FacingBoard::build(&map, &rules, &units).unwrap();
            for i in 0..units.len() {
                let budget = board.group_budget(&[i]);
                let opts = FacingOptions {
                    contact_turn: i % 2 == 0,
                };
                let a = default
                    .reach(&map, &rules, &board, &[i], budget, opts)
                    .unwrap();
                let b = heap
                    .reach(&map, &rules, &board, &[i], budget, opts)
                    .unwrap();
                assert_eq!(a.states(), b.states());
                for k in 0..a.len() {
                    assert_eq!(a.path(k), b.path(k), "unit {i} state {k}");
                }
                compared += a.len();
            }
        }
        compared
    }

    #[test]
    fn bucket_queue_answers_equal_the_heap_ones_costs_and_paths() {
        // Random ANC positions (phalanxes turning for 1 or 2 MP, troops facing free, stacks,
        // disordered units, marsh barred): the Dial buckets and the heap ordered by
        // (cost, key) must list the same states at the same costs with the same paths.
        let compared = compare_with_the_heap(
            json!({ "phalanx": { "facing": "vertex", "turn_cost": 1, "join": 1 },
                    "slow": { "facing": "vertex", "turn_cost": 2, "join": 2 },
                    "light": { "front": "all", "join": 1, "escort": true },
                    "cavalry": { "front": "all" },
                    "leader": { "leader": true } }),
            &["phalanx", "slow", "light", "cavalry", "leader"],
            0x9E37_79B9_7F4A_7C15,
        );
        assert!(compared > 5000, "{compared} states compared");
    }

    /// A phalanx turning free (no `turn_cost`, ANC-6.2 declared 0) is searched on the heap:
    /// with zero-cost steps the buckets would report other cheapest paths than the heap's.
    #[test]
    fn zero_cost_turns_are_searched_on_the_heap() {
        let compared = compare_with_the_heap(
            json!({ "phalanx": { "facing": "vertex", "join": 1 },
                    "light": { "front": "all", "join": 1, "escort": true },
                    "leader": { "leader": true } }),
            &["phalanx", "light", "leader"],
            0x9E37_79B9_7F4A_7C15,
        );
        assert!(compared > 5000, "{compared} states compared");
    }
}
