//! The reach search: every hex a unit can reach this phase with its least MP cost, and the
//! cheapest path to any of them. Dijkstra over the dense arrays; the step cost is `step.rs`,
//! the same function that checks move orders.
//!
//! Where the time goes, and why the code is shaped the way it is (figures in
//! `docs/movement.md`, "Performance"): a 12-MP query settles a few hundred hexes, so anything
//! proportional to the map (clearing scratch arrays) or worse than linear in the answer (sorting
//! it) costs as much as the search itself. Hence:
//! - scratch arrays are reused across queries and invalidated by bumping a generation stamp,
//!   never cleared;
//! - costs are small multiples of the rules' cost quantum, so the queue is a bucket queue
//!   (Dial), with the binary heap kept only for budgets needing very many buckets;
//! - the answer is emitted in settle order (cheapest first) as the search settles each hex;
//!   lookups by hex ([`Reach::cost`], [`Reach::path_to`]) build a sorted index the first time
//!   they are asked, and [`Reach::labeled`] sorts by label as it always did.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::OnceLock;

use super::error::PositionError;
use super::mp::Mp;
use super::occupancy::Occupancy;
use super::rules::PathRules;
use super::step::{Mover, Stepper};
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

/// Budgets needing more buckets than this use the binary heap.
const MAX_BUCKETS: usize = 1 << 14;

/// One reachable hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reached {
    pub hex: HexIndex,
    /// Least MP to get there.
    pub cost: Mp,
    /// The hex before it on a cheapest path (the start for the first step).
    pub parent: HexIndex,
}

/// The result of a reach query. The start hex is never listed.
#[derive(Debug, Clone)]
pub struct Reach {
    start: HexIndex,
    /// In settle order: by non-decreasing cost, a hex always after its parent. Deterministic
    /// for a given map, rules, position and unit.
    hexes: Vec<Reached>,
    /// Positions in `hexes` sorted by hex, built on the first lookup by hex: most callers
    /// (the Lua `hex.path.reach`, the CLI) only iterate, and should not pay for a sort.
    by_hex: OnceLock<Box<[u32]>>,
}

/// Two answers are equal when they list the same hexes in the same order; whether either has
/// built its lookup index yet does not matter.
impl PartialEq for Reach {
    fn eq(&self, other: &Reach) -> bool {
        self.start == other.start && self.hexes == other.hexes
    }
}

impl Eq for Reach {}

impl Reach {
    pub fn start(&self) -> HexIndex {
        self.start
    }

    /// The reachable hexes in settle order: cheapest first (ties in search order), each after
    /// the hex it is entered from. Sort them (or use [`Reach::labeled`]) for a stable listing.
    pub fn hexes(&self) -> &[Reached] {
        &self.hexes
    }

    pub fn len(&self) -> usize {
        self.hexes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty()
    }

    fn find(&self, hex: HexIndex) -> Option<&Reached> {
        self.index_of(hex).map(|i| &self.hexes[i])
    }

    /// Where `hex` is in [`Reach::hexes`].
    fn index_of(&self, hex: HexIndex) -> Option<usize> {
        let by_hex = self.by_hex.get_or_init(|| {
            let mut order: Vec<u32> = (0..self.hexes.len() as u32).collect();
            order.sort_unstable_by_key(|&i| self.hexes[i as usize].hex);
            order.into_boxed_slice()
        });
        by_hex
            .binary_search_by_key(&hex, |&i| self.hexes[i as usize].hex)
            .ok()
            .map(|i| by_hex[i] as usize)
    }

    /// Where each listed hex's parent is in [`Reach::hexes`] (None: the start), in that order:
    /// the paths' lengths are known from it before any is built (a reach of MA 1000 on a million
    /// hexes built 2.8 GB of paths before its charge was made), and each path is its parent's
    /// and one hex more.
    pub fn parent_indices(&self) -> Vec<Option<usize>> {
        self.hexes
            .iter()
            .map(|r| match r.parent == self.start {
                true => None,
                false => self.index_of(r.parent),
            })
            .collect()
    }

    /// How many hexes each listed hex's path enters (the start left out), in
    /// [`Reach::hexes`]' order, from [`Reach::parent_indices`].
    pub fn path_lengths(parents: &[Option<usize>]) -> Vec<u32> {
        let mut lengths: Vec<u32> = Vec::with_capacity(parents.len());
        for parent in parents {
            // (a hex is settled after its parent, whose length is known)
            let before = parent.and_then(|p| lengths.get(p)).copied().unwrap_or(0);
            lengths.push(before + 1);
        }
        lengths
    }

    /// Least cost to reach `hex`, None when it cannot be reached (or is the start).
    pub fn cost(&self, hex: HexIndex) -> Option<Mp> {
        self.find(hex).map(|r| r.cost)
    }

    /// A cheapest path from the start to `hex`, both included.
    pub fn path_to(&self, hex: HexIndex) -> Option<Vec<HexIndex>> {
        let mut path = vec![hex];
        let mut at = self.find(hex)?;
        loop {
            path.push(at.parent);
            if at.parent == self.start {
                break;
            }
            at = self.find(at.parent)?;
        }
        path.reverse();
        Some(path)
    }

    /// `(label, MP)` pairs sorted by label: the form tests and the CLI print.
    pub fn labeled(&self, map: &HexMap) -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = self
            .hexes
            .iter()
            .map(|r| (map.label(r.hex), r.cost.as_f64()))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

/// The search's record of one hex. `dist` and `parent` are meaningful only when `stamp` equals
/// the current query's generation; any other stamp reads as "not reached yet". Keeping the three
/// together means the relaxation that reads `dist` writes `parent` in the same cache line.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    stamp: u32,
    dist: u32,
    parent: HexIndex,
}

/// Reusable scratch for reach queries on one map. A query touches only the hexes it reaches
/// and never cleans up: starting the next query bumps a generation counter, which makes every
/// old record stale at once. So a 12-MP query on a 1000×1000 map costs the same as on a 20×20
/// one, and back-to-back queries do no bookkeeping beyond the search itself.
#[derive(Debug, Clone)]
pub struct ReachSearch {
    slots: Vec<Slot>,
    /// The current query's stamp; never 0, the stamp of a fresh slot.
    generation: u32,
    heap: BinaryHeap<Reverse<(u32, HexIndex)>>,
    buckets: Vec<Vec<HexIndex>>,
    /// The previous answer's length: the next answer reserves that much up front instead of
    /// growing its vector a doubling at a time.
    last_len: usize,
}

impl ReachSearch {
    pub fn new(map: &HexMap) -> ReachSearch {
        ReachSearch {
            slots: vec![Slot::default(); map.len() as usize],
            generation: 0,
            heap: BinaryHeap::new(),
            buckets: Vec::new(),
            last_len: 0,
        }
    }

    /// Every hex `unit` can reach with at most `budget` MP (the caller applies halvings,
    /// F40-9.1/R7), with its least cost. The start hex is not listed.
    pub fn reach(
        &mut self,
        map: &HexMap,
        rules: &PathRules,
        occ: &Occupancy,
        unit: &Unit,
        budget: Mp,
    ) -> Result<Reach, PositionError> {
        self.reach_avoiding(map, rules, occ, unit, budget, None)
    }

    /// [`ReachSearch::reach`] never entering the hexes marked in `blocked` (indexed by hex; the
    /// rules' own prohibitions, such as F40's political ones): no path crosses them.
    pub fn reach_avoiding(
        &mut self,
        map: &HexMap,
        rules: &PathRules,
        occ: &Occupancy,
        unit: &Unit,
        budget: Mp,
        blocked: Option<&[bool]>,
    ) -> Result<Reach, PositionError> {
        let mover = Mover::new(map, rules, unit)?;
        self.check_size(map)?;
        let mut hexes = Vec::with_capacity(self.last_len);
        let mut stepper = Stepper::new(map, rules, occ, mover);
        stepper.blocked = blocked;
        self.run(&stepper, budget, None, |h, s| {
            hexes.push(Reached {
                hex: h,
                cost: Mp(s.dist),
                parent: s.parent,
            })
        });
        self.last_len = hexes.len();
        Ok(Reach {
            start: mover.start,
            hexes,
            by_hex: OnceLock::new(),
        })
    }

    /// A cheapest legal path from the unit to `target` within `budget`, with its cost; None
    /// when the target cannot be reached. Stops searching as soon as the target is settled.
    pub fn cheapest_path(
        &mut self,
        map: &HexMap,
        rules: &PathRules,
        occ: &Occupancy,
        unit: &Unit,
        budget: Mp,
        target: HexIndex,
    ) -> Result<Option<(Vec<HexIndex>, Mp)>, PositionError> {
        let mover = Mover::new(map, rules, unit)?;
        self.check_size(map)?;
        if target >= map.len() {
            return Err(PositionError::BadIndex {
                what: "target".into(),
                index: target,
            });
        }
        if target == mover.start {
            return Ok(None);
        }
        let stepper = Stepper::new(map, rules, occ, mover);
        let mut cost = None;
        self.run(&stepper, budget, Some(target), |h, s| {
            if h == target {
                cost = Some(Mp(s.dist));
            }
        });
        let Some(cost) = cost else {
            return Ok(None);
        };
        // The records of this query are still valid (stale ones belong to older generations
        // and are never on a parent chain from the target).
        let mut path = vec![target];
        let mut at = target;
        while at != mover.start {
            at = self.slots[at as usize].parent;
            path.push(at);
        }
        path.reverse();
        Ok(Some((path, cost)))
    }

    fn check_size(&self, map: &HexMap) -> Result<(), PositionError> {
        super::occupancy::check_len("reach scratch", map.len() as usize, self.slots.len())
    }

    /// Starts a new generation; on the (once in four billion queries) wrap-around, really
    /// clears the stamps so that no record of an old query can pass for a current one.
    fn next_generation(&mut self) -> u32 {
        self.generation = match self.generation.checked_add(1) {
            Some(g) => g,
            None => {
                self.slots.fill(Slot::default());
                1
            }
        };
        self.generation
    }

    /// Runs the search, calling `settled(hex, record)` once per hex other than the start when
    /// its least cost is final, cheapest first. With a `target`, stops once it is settled.
    fn run(
        &mut self,
        stepper: &Stepper<'_>,
        budget: Mp,
        target: Option<HexIndex>,
        settled: impl FnMut(HexIndex, Slot),
    ) {
        let generation = self.next_generation();
        let start = stepper.mover.start;
        self.slots[start as usize] = Slot {
            stamp: generation,
            dist: 0,
            parent: start,
        };
        // Costs are small multiples of the rules' cost quantum: a bucket queue (Dial) indexed by
        // cost / quantum beats a binary heap; very large budgets fall back to the heap.
        let quantum = stepper.rules.cost_quantum;
        let buckets = (budget.raw() / quantum) as usize + 1;
        let target = target.unwrap_or(stepper.mover.start);
        if buckets <= MAX_BUCKETS {
            self.run_buckets(stepper, budget.raw(), quantum, buckets, target, settled);
        } else {
            self.run_heap(stepper, budget.raw(), target, settled);
        }
    }

    /// Expands `u` (settled at cost `d`), offering each improved neighbour to `push`.
    #[inline(always)]
    fn expand(
        slots: &mut [Slot],
        generation: u32,
        stepper: &Stepper<'_>,
        u: HexIndex,
        d: u32,
        budget: u32,
        mut push: impl FnMut(u32, HexIndex),
    ) {
        let from_zoc = stepper.in_enemy_zoc(u);
        // F40-6.2: entering an enemy ZOC ends the move (only the start may be left).
        if from_zoc && stepper.stop_on_entry() && u != stepper.mover.start {
            return;
        }
        let masks = stepper.map.hexside_masks(u);
        let neighbors = stepper.rules.topology.neighbors(u);
        for dir in 0..6 {
            let v = neighbors[dir];
            // OFF_MAP is u32::MAX, so the same test also rules out stepping off the map.
            let Some(slot) = slots.get_mut(v as usize) else {
                continue;
            };
            if stepper
                .blocked
                .is_some_and(|b| b.get(v as usize).copied().unwrap_or(false))
            {
                continue;
            }
            let Ok(cost) = stepper.step(from_zoc, masks[dir], v) else {
                continue;
            };
            let nd = d + cost;
            if nd <= budget && (slot.stamp != generation || nd < slot.dist) {
                *slot = Slot {
                    stamp: generation,
                    dist: nd,
                    parent: u,
                };
                push(nd, v);
            }
        }
    }

    fn run_buckets(
        &mut self,
        stepper: &Stepper<'_>,
        budget: u32,
        quantum: u32,
        count: usize,
        target: HexIndex,
        mut settled: impl FnMut(HexIndex, Slot),
    ) {
        let generation = self.generation;
        let start = stepper.mover.start;
        let slots = &mut self.slots[..];
        let buckets = &mut self.buckets;
        if buckets.len() < count {
            buckets.resize_with(count, Vec::new);
        }
        // The quantum is almost always a power of two (1 MP = 64 raw, or a halving of it):
        // then the bucket of a cost is a shift, not a division, on every push.
        let shift = quantum.trailing_zeros();
        let pow2 = quantum.is_power_of_two();
        let bucket_of = |nd: u32| (if pow2 { nd >> shift } else { nd / quantum }) as usize;
        buckets[0].push(start);
        'outer: for b in 0..count {
            let d = b as u32 * quantum;
            // Entries pushed into bucket `b` while it is being drained (zero-cost steps) are
            // popped in the same pass.
            while let Some(u) = buckets[b].pop() {
                let slot = slots[u as usize];
                // A stale entry: the hex was since reached more cheaply. Costs only improve
                // strictly, so a hex has at most one live entry and is settled exactly once.
                if slot.dist != d {
                    continue;
                }
                if u != start {
                    settled(u, slot);
                    if u == target {
                        break 'outer;
                    }
                }
                Self::expand(slots, generation, stepper, u, d, budget, |nd, v| {
                    buckets[bucket_of(nd)].push(v)
                });
            }
        }
        for bucket in buckets.iter_mut().take(count) {
            bucket.clear();
        }
    }

    fn run_heap(
        &mut self,
        stepper: &Stepper<'_>,
        budget: u32,
        target: HexIndex,
        mut settled: impl FnMut(HexIndex, Slot),
    ) {
        let generation = self.generation;
        let start = stepper.mover.start;
        let slots = &mut self.slots[..];
        let heap = &mut self.heap;
        heap.push(Reverse((0, start)));
        while let Some(Reverse((d, u))) = heap.pop() {
            let slot = slots[u as usize];
            if d > slot.dist {
                continue;
            }
            if u != start {
                settled(u, slot);
                if u == target {
                    break;
                }
            }
            Self::expand(slots, generation, stepper, u, d, budget, |nd, v| {
                heap.push(Reverse((nd, v)))
            });
        }
        heap.clear();
    }
}

/// One-off reach query (allocates scratch arrays the size of the map; keep a [`ReachSearch`]
/// for repeated queries).
pub fn reach(
    map: &HexMap,
    rules: &PathRules,
    occ: &Occupancy,
    unit: &Unit,
    budget: Mp,
) -> Result<Reach, PositionError> {
    ReachSearch::new(map).reach(map, rules, occ, unit, budget)
}
