//! Shared by `examples/perf` and `benches/reach.rs`: a deterministic generated map, the
//! movement declaration for it, the units, a hand-written baseline Dijkstra of the same
//! rules (the yardstick the engine must stay within 1.25× of), and the terrain cost closure
//! given to `hexx::algorithms::field_of_movement`.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use hexwar::board::{parse_map, HexIndex, HexMap, SourceText};
use hexwar::engine::Unit;
use serde_json::{json, Value};

/// xorshift64*: the same numbers on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

pub const TERRAINS: [(char, &str); 5] = [
    ('.', "clear"),
    ('f', "forest"),
    ('h', "hills"),
    ('m', "marsh"),
    ('M', "mountains"),
];

/// A `columns × rows` map: 5 terrains (clear 50 %, forest 15 %, hills 15 %, marsh 10 %,
/// mountains 10 %), and a major river on 10 % of the hexsides when `rivers`.
pub fn generate(columns: u32, rows: u32, seed: u64, rivers: bool) -> HexMap {
    let mut rng = Rng::new(seed);
    let mut text = format!("name = \"generated\"\ncolumns = {columns}\nrows = {rows}\ngrid = [\n");
    for _ in 0..rows {
        text.push('"');
        for _ in 0..columns {
            let roll = rng.below(100);
            let c = match roll {
                0..=49 => '.',
                50..=64 => 'f',
                65..=79 => 'h',
                80..=89 => 'm',
                _ => 'M',
            };
            text.push(c);
        }
        text.push_str("\",\n");
    }
    text.push_str("]\n[legend]\n");
    for (c, name) in TERRAINS {
        text.push_str(&format!("\"{c}\" = \"{name}\"\n"));
    }
    let mut map =
        parse_map(&SourceText::new("generated.toml", text)).expect("generated map parses");
    if rivers {
        for i in 0..map.len() {
            let later: Vec<HexIndex> = map
                .neighbors(i)
                .map(|(_, n)| n)
                .filter(|&n| n > i)
                .collect();
            for n in later {
                if rng.below(10) == 0 {
                    map.add_hexside_feature(i, n, "major_river")
                        .expect("adjacent");
                }
            }
        }
    } else {
        // Keep the feature name known so the same declaration compiles.
    }
    map
}

/// The declaration: F40-like costs, major river +2, F40 ZOC.
pub fn declaration() -> Value {
    json!({
        "sides": ["german", "allied"],
        "classes": ["foot", "motorized"],
        "vocabulary": { "hexsides": ["major_river"] },
        "unit_class": { "by_type": { "armored": "motorized" }, "default": "foot" },
        "terrain": {
            "clear": 1, "forest": 2, "hills": 1,
            "marsh": { "motorized": "prohibited", "default": 2 },
            "mountains": { "foot": 3, "motorized": 6 }
        },
        "hexsides": { "major_river": 2 },
        "friendly_status_cost": { "disorganized": 2 },
        "zoc": {
            "except": { "status": ["disorganized"], "size": ["III"] },
            "stop_on_entry": true, "leave_cost": 1, "zoc_to_zoc": ["motorized"]
        },
        "supply": { "zoc_blocks": ["foot"] }
    })
}

pub fn unit(id: &str, side: &str, kind: &str, at: String) -> Unit {
    Unit {
        id: id.into(),
        side: side.into(),
        nation: side.into(),
        kind: kind.into(),
        size: "XX".into(),
        ma: 12.0,
        strength: 1.0,
        at: Some(at),
        facing: None,
        status: Default::default(),
        attrs: Default::default(),
    }
}

/// The mover (index 0, Allied foot in the middle) and 40 German units scattered within 14
/// hexes of it, never on its hex.
pub fn units(map: &HexMap, seed: u64) -> Vec<Unit> {
    let mut rng = Rng::new(seed ^ 0x5EED);
    let (mc, mr) = (map.columns() / 2, map.rows() / 2);
    let mut out = vec![unit(
        "mover",
        "allied",
        "infantry",
        map.label(map.index_of_col_row(mc, mr).unwrap()),
    )];
    let mut used = vec![(mc, mr)];
    while out.len() < 41 {
        let c = mc + rng.below(29) as u32 - 14;
        let r = mr + rng.below(29) as u32 - 14;
        if used.contains(&(c, r))
            || map.distance(
                map.index_of_col_row(c, r).unwrap(),
                map.index_of_col_row(mc, mr).unwrap(),
            ) < 2
        {
            continue;
        }
        used.push((c, r));
        let id = format!("g{}", out.len());
        out.push(unit(
            &id,
            "german",
            "infantry",
            map.label(map.index_of_col_row(c, r).unwrap()),
        ));
    }
    out
}

/// A straightforward hand-written Dijkstra of the same rules, with everything hard-coded:
/// foot costs per terrain, river +2, stop on entering enemy ZOC, +1 to leave the start's
/// ZOC, no ZOC-to-ZOC step, enemy hexes barred. Dense arrays, reused between queries.
pub struct Baseline {
    columns: u32,
    rows: u32,
    terrain_cost: Vec<u32>,
    river_bit: u32,
    pub enemy_zoc: Vec<bool>,
    pub enemy_here: Vec<bool>,
    dist: Vec<u32>,
    touched: Vec<u32>,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

impl Baseline {
    pub fn new(map: &HexMap, units: &[Unit]) -> Baseline {
        let n = map.len() as usize;
        let cost_of = |name: &str| match name {
            "clear" | "hills" => 1,
            "forest" | "marsh" => 2,
            "mountains" => 3,
            _ => u32::MAX,
        };
        let terrain_cost = map.terrain_names().iter().map(|t| cost_of(t)).collect();
        let river_bit = map
            .hexside_feature_id("major_river")
            .map(|b| 1u32 << b)
            .unwrap_or(0);
        let mut enemy_zoc = vec![false; n];
        let mut enemy_here = vec![false; n];
        for u in units.iter().filter(|u| u.side == "german") {
            let h = map.parse_label(u.at.as_deref().unwrap()).unwrap();
            enemy_here[h as usize] = true;
            for (_, nb) in map.neighbors(h) {
                enemy_zoc[nb as usize] = true;
            }
        }
        Baseline {
            columns: map.columns(),
            rows: map.rows(),
            terrain_cost,
            river_bit,
            enemy_zoc,
            enemy_here,
            dist: vec![u32::MAX; n],
            touched: Vec::new(),
            heap: BinaryHeap::new(),
        }
    }

    /// Flat, printed-odd columns shifted down: neighbours in hexx's edge-direction order.
    #[inline]
    fn neighbors(&self, i: u32) -> [u32; 6] {
        let (c, r) = ((i % self.columns) as i32, (i / self.columns) as i32);
        let d: [(i32, i32); 6] = if c & 1 == 0 {
            [(1, 1), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0)]
        } else {
            [(1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
        };
        let mut out = [u32::MAX; 6];
        for k in 0..6 {
            let (nc, nr) = (c + d[k].0, r + d[k].1);
            if nc >= 0 && nr >= 0 && (nc as u32) < self.columns && (nr as u32) < self.rows {
                out[k] = nr as u32 * self.columns + nc as u32;
            }
        }
        out
    }

    /// Reachable hexes with their cost in whole MP (start excluded), in the order first
    /// reached. Not sorted: the engine does not sort its answer either, and the yardstick
    /// should do the same work (callers comparing the two sort outside the timed loop).
    pub fn reach(&mut self, map: &HexMap, start: u32, budget: u32) -> Vec<(u32, u32)> {
        self.dist[start as usize] = 0;
        self.touched.push(start);
        self.heap.push(Reverse((0, start)));
        let start_zoc = self.enemy_zoc[start as usize];
        while let Some(Reverse((d, u))) = self.heap.pop() {
            if d > self.dist[u as usize] {
                continue;
            }
            if u != start && self.enemy_zoc[u as usize] {
                continue;
            }
            let terrain = map.terrain_ids();
            let masks = map.hexside_masks(u);
            for (k, v) in self.neighbors(u).into_iter().enumerate() {
                if v == u32::MAX || self.enemy_here[v as usize] {
                    continue;
                }
                let mut cost = self.terrain_cost[terrain[v as usize] as usize];
                if masks[k] & self.river_bit != 0 {
                    cost += 2;
                }
                if u == start && start_zoc {
                    if self.enemy_zoc[v as usize] {
                        continue;
                    }
                    cost += 1;
                }
                let nd = d + cost;
                if nd <= budget && nd < self.dist[v as usize] {
                    if self.dist[v as usize] == u32::MAX {
                        self.touched.push(v);
                    }
                    self.dist[v as usize] = nd;
                    self.heap.push(Reverse((nd, v)));
                }
            }
        }
        let out: Vec<(u32, u32)> = self
            .touched
            .iter()
            .filter(|&&h| h != start)
            .map(|&h| (h, self.dist[h as usize]))
            .collect();
        for &h in &self.touched {
            self.dist[h as usize] = u32::MAX;
        }
        self.touched.clear();
        self.heap.clear();
        out
    }
}

/// MP per hex for a foot unit on `map` (`u8::MAX` = impassable), from the same terrain costs as
/// [`declaration`]: the dense array the hexx comparison reads, so that hexx pays one array read
/// per cost question, like the engine, rather than a terrain-name lookup.
pub fn foot_cost_per_hex(map: &HexMap) -> Vec<u8> {
    let by_terrain: Vec<u8> = map
        .terrain_names()
        .iter()
        .map(|name| match name.as_str() {
            "clear" | "hills" => 1,
            "forest" | "marsh" => 2,
            "mountains" => 3,
            _ => u8::MAX,
        })
        .collect();
    map.terrain_ids()
        .iter()
        .map(|&t| by_terrain[t as usize])
        .collect()
}

/// The cost closure for `hexx::algorithms::field_of_movement` on `map`: hexx adds 1 MP per step
/// itself, so it is told the terrain cost minus 1; off the map and impassable hexes are None.
/// The coordinate → index conversion is the least any hexx-keyed cost function must do.
pub fn hexx_cost<'a>(map: &'a HexMap, cost: &'a [u8]) -> impl Fn(hexx::Hex) -> Option<u32> + 'a {
    move |h| {
        let c = cost[map.index(h)? as usize];
        (c != u8::MAX).then(|| u32::from(c) - 1)
    }
}
