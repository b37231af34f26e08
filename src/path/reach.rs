//! The reach search: every hex a unit can reach this phase with its least MP cost, and the
//! cheapest path to any of them. Dijkstra over the dense arrays; the step cost is `step.rs`,
//! the same function that checks move orders.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::error::PositionError;
use super::mp::Mp;
use super::occupancy::Occupancy;
use super::rules::PathRules;
use super::step::{Mover, Stepper};
use super::topology::OFF_MAP;
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

const UNSEEN: u32 = u32::MAX;
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    start: HexIndex,
    /// Sorted by hex index.
    hexes: Vec<Reached>,
}

impl Reach {
    pub fn start(&self) -> HexIndex {
        self.start
    }

    /// The reachable hexes in index order.
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
        self.hexes
            .binary_search_by_key(&hex, |r| r.hex)
            .ok()
            .map(|i| &self.hexes[i])
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

/// Reusable scratch arrays for reach queries on one map: a query touches only the hexes it
/// reaches and cleans them up afterwards, so a 12-MP query on a 1000×1000 map costs the same
/// as on a 20×20 one.
#[derive(Debug, Clone)]
pub struct ReachSearch {
    dist: Vec<u32>,
    parent: Vec<HexIndex>,
    touched: Vec<HexIndex>,
    heap: BinaryHeap<Reverse<(u32, HexIndex)>>,
    buckets: Vec<Vec<HexIndex>>,
}

impl ReachSearch {
    pub fn new(map: &HexMap) -> ReachSearch {
        ReachSearch {
            dist: vec![UNSEEN; map.len() as usize],
            parent: vec![OFF_MAP; map.len() as usize],
            touched: Vec::new(),
            heap: BinaryHeap::new(),
            buckets: Vec::new(),
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
        let mover = Mover::new(map, rules, unit)?;
        self.check_size(map)?;
        self.run(&Stepper::new(map, rules, occ, mover), budget, OFF_MAP);
        self.touched.sort_unstable();
        let hexes: Vec<Reached> = self
            .touched
            .iter()
            .filter(|&&h| h != mover.start)
            .map(|&h| Reached {
                hex: h,
                cost: Mp(self.dist[h as usize]),
                parent: self.parent[h as usize],
            })
            .collect();
        self.clear();
        Ok(Reach {
            start: mover.start,
            hexes,
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
        self.run(&Stepper::new(map, rules, occ, mover), budget, target);
        let found = if self.dist[target as usize] == UNSEEN {
            None
        } else {
            let mut path = vec![target];
            let mut at = target;
            while at != mover.start {
                at = self.parent[at as usize];
                path.push(at);
            }
            path.reverse();
            Some((path, Mp(self.dist[target as usize])))
        };
        self.clear();
        Ok(found)
    }

    fn check_size(&self, map: &HexMap) -> Result<(), PositionError> {
        super::occupancy::check_len("reach scratch", map.len() as usize, self.dist.len())
    }

    fn run(&mut self, stepper: &Stepper<'_>, budget: Mp, target: HexIndex) {
        let start = stepper.mover.start;
        self.dist[start as usize] = 0;
        self.touched.push(start);
        // Costs are small multiples of the rules' cost quantum: a bucket queue (Dial) indexed by
        // cost / quantum beats a binary heap; very large budgets fall back to the heap.
        let quantum = stepper.rules.cost_quantum;
        let buckets = (budget.raw() / quantum) as usize + 1;
        if buckets <= MAX_BUCKETS {
            self.run_buckets(stepper, budget.raw(), quantum, buckets, target);
        } else {
            self.run_heap(stepper, budget.raw(), target);
        }
    }

    /// Expands `u` (settled at cost `d`), offering each improved neighbour to `push`.
    #[inline(always)]
    fn expand(
        &mut self,
        stepper: &Stepper<'_>,
        u: HexIndex,
        d: u32,
        budget: u32,
        mut push: impl FnMut(u32, HexIndex),
    ) {
        let from_zoc = stepper.in_enemy_zoc(u);
        // F40-6.2: entering an enemy ZOC ends the move (only the start may be left).
        if u != stepper.mover.start && from_zoc && stepper.rules.zoc.stop_on_entry {
            return;
        }
        let masks = stepper.map.hexside_masks(u);
        for (dir, v) in stepper.rules.topology.neighbors(u).into_iter().enumerate() {
            if v == OFF_MAP {
                continue;
            }
            let Ok(cost) = stepper.step(from_zoc, masks[dir], v) else {
                continue;
            };
            let nd = d + cost;
            let slot = &mut self.dist[v as usize];
            if nd <= budget && nd < *slot {
                if *slot == UNSEEN {
                    self.touched.push(v);
                }
                *slot = nd;
                self.parent[v as usize] = u;
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
    ) {
        let mut buckets = std::mem::take(&mut self.buckets);
        if buckets.len() < count {
            buckets.resize_with(count, Vec::new);
        }
        buckets[0].push(stepper.mover.start);
        let mut b = 0;
        'outer: while b < count {
            while let Some(u) = buckets[b].pop() {
                let d = b as u32 * quantum;
                if self.dist[u as usize] != d {
                    continue;
                }
                if u == target {
                    break 'outer;
                }
                self.expand(stepper, u, d, budget, |nd, v| {
                    buckets[(nd / quantum) as usize].push(v)
                });
            }
            b += 1;
        }
        for bucket in buckets.iter_mut().take(count) {
            bucket.clear();
        }
        self.buckets = buckets;
    }

    fn run_heap(&mut self, stepper: &Stepper<'_>, budget: u32, target: HexIndex) {
        let mut heap = std::mem::take(&mut self.heap);
        heap.push(Reverse((0, stepper.mover.start)));
        while let Some(Reverse((d, u))) = heap.pop() {
            if d > self.dist[u as usize] {
                continue;
            }
            if u == target {
                break;
            }
            self.expand(stepper, u, d, budget, |nd, v| heap.push(Reverse((nd, v))));
        }
        heap.clear();
        self.heap = heap;
    }

    fn clear(&mut self) {
        for &h in &self.touched {
            self.dist[h as usize] = UNSEEN;
            self.parent[h as usize] = OFF_MAP;
        }
        self.touched.clear();
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
