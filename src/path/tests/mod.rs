//! Clause tests for the path engine, on small purpose-built maps (F40 rules as declared in
//! `f40()`; flat hexes, printed-odd columns shifted down, labels CCRR).

mod declaration;
mod movement;
mod occupancy;
mod rail;
mod roads;
mod supply;
mod territory;
mod zoc;

use serde_json::{json, Value};

use super::{reach, Mp, Occupancy, PathRules, SideId, NO_SIDE};
use crate::board::{parse_map, HexIndex, HexMap, SourceText};
use crate::engine::Unit;

/// Seeded random choices for the tests that walk random positions: the same sequence on every
/// machine (ChaCha8, as the game's dice).
pub(crate) struct TestRng(rand_chacha::ChaCha8Rng);

impl TestRng {
    pub(crate) fn new(seed: u64) -> Self {
        TestRng(<rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(seed))
    }

    /// A number in `0..n` (`n` > 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        rand_core::Rng::next_u64(&mut self.0) % n
    }
}

pub(crate) const GERMAN: SideId = 0;
pub(crate) const ALLIED: SideId = 1;

/// A map from rows of terrain letters: `.` clear, `m` marsh, `f` forest, `h` hills,
/// `w` wooded hills, `M` mountains, `C` major city, `s` sea. `extra` is appended TOML.
pub(crate) fn map(rows: &[&str], extra: &str) -> HexMap {
    let columns = rows[0].split_whitespace().count();
    let grid: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    let text = format!(
        "name = \"t\"\ncolumns = {columns}\nrows = {}\ngrid = [{}]\n[legend]\n\".\" = \"clear\"\nm = \"marsh\"\nf = \"forest\"\nh = \"hills\"\nw = \"wooded_hills\"\nM = \"mountains\"\nC = \"major_city\"\ns = \"sea\"\n{extra}",
        rows.len(),
        grid.join(", ")
    );
    parse_map(&SourceText::new("t.toml", text)).unwrap()
}

/// The F40 movement declaration, as a designer would write it in Lua.
pub(crate) fn f40() -> Value {
    json!({
        "sides": ["german", "allied"],
        "classes": ["foot", "mountain", "motorized"],
        "vocabulary": {
            "hexsides": ["sea", "causeway", "lake", "major_river", "minor_river"],
            "zones": ["germany", "france"]
        },
        "unit_class": {
            "attr": "class",
            "by_type": { "armored": "motorized", "motorized": "motorized", "mountain_infantry": "mountain" },
            "default": "foot"
        },
        "terrain": {
            "clear": 1, "marsh": { "motorized": "prohibited", "default": 2 }, "forest": 2, "hills": 1,
            "wooded_hills": 2, "mountains": { "foot": 3, "mountain": 2, "motorized": 6 },
            "major_city": 1, "sea": "prohibited"
        },
        "hexsides": {
            "sea": { "allied": 1, "german": { "unless": ["causeway"], "then": 0 } },
            "lake": "prohibited",
            "major_river": 2
        },
        "friendly_status_cost": { "disorganized": 2 },
        "enemy_hexes": { "enterable_if_only": { "flags": ["para"] } },
        "no_entry_across": { "sea": ["enemy_zoc", "enemy_territory"] },
        "zoc": {
            "except": { "status": ["disorganized"], "size": ["III"], "flags": ["neutral"] },
            "blocked_by_hexsides": ["sea", "lake"],
            "stop_on_entry": true,
            "leave_cost": 1,
            "zoc_to_zoc": ["motorized"],
            "friendly_units_negate": false,
            "retreat": { "blocked": ["foot", "mountain"], "friendly_unit_negates": true }
        },
        "supply": {
            "zoc_blocks": ["foot", "mountain"],
            "friendly_unit_negates_zoc": true,
            "hexsides": { "lake": "prohibited", "sea": { "german": { "unless": ["causeway"], "then": 0 } } },
            "always_supplied": { "flags": ["neutral"] }
        },
        "rail": {
            "zones": { "german": "germany", "allied": "france" },
            "blocked_by_hexsides": ["sea"],
            "excluded": { "status": ["isolated"] }
        },
        "territory": { "ignore": { "flags": ["neutral"] } },
        "clauses": {
            "terrain": "F40-9.2",
            "hexside": "F40-9.3",
            "enemy_occupied": "F40-9.5",
            "zoc_stop": "F40-6.2",
            "zoc_to_zoc": { "id": "F40-6.4", "text": "non-motorized unit cannot move from enemy ZOC to enemy ZOC" },
            "across_into_zoc": "F40-10.2",
            "across_into_territory": "F40-10.2",
            "budget": "F40-9.1"
        }
    })
}

pub(crate) fn rules(map: &HexMap) -> PathRules {
    PathRules::compile(&f40(), map).unwrap()
}

/// A division of a side at a hex; refine with the builder methods.
pub(crate) fn unit(id: &str, side: &str, kind: &str, at: &str) -> Unit {
    Unit {
        id: id.into(),
        side: side.into(),
        nation: if side == "german" {
            "german".into()
        } else {
            "french".into()
        },
        kind: kind.into(),
        size: "XX".into(),
        ma: 0.0,
        strength: 0.0,
        at: Some(at.into()),
        facing: None,
        status: Default::default(),
        attrs: Default::default(),
    }
}

pub(crate) trait UnitExt {
    fn status(self, s: &str) -> Self;
    fn size(self, s: &str) -> Self;
    fn flag(self, f: &str) -> Self;
    fn nation(self, n: &str) -> Self;
}

impl UnitExt for Unit {
    fn status(mut self, s: &str) -> Self {
        self.status.insert(s.into());
        self
    }
    fn size(mut self, s: &str) -> Self {
        self.size = s.into();
        self
    }
    fn flag(mut self, f: &str) -> Self {
        self.attrs.insert(f.into(), Value::Bool(true));
        self
    }
    fn nation(mut self, n: &str) -> Self {
        self.nation = n.into();
        self
    }
}

pub(crate) fn hex(map: &HexMap, label: &str) -> HexIndex {
    map.parse_label(label).unwrap()
}

pub(crate) fn labels(map: &HexMap, hexes: impl IntoIterator<Item = HexIndex>) -> Vec<String> {
    let mut v: Vec<String> = hexes.into_iter().map(|h| map.label(h)).collect();
    v.sort();
    v
}

/// `(label, MP)` of what `units[mover]` reaches with `budget`.
pub(crate) fn reach_of(
    map: &HexMap,
    units: &[Unit],
    mover: usize,
    budget: Mp,
) -> Vec<(String, f64)> {
    let rules = rules(map);
    let occ = Occupancy::build(map, &rules, units).unwrap();
    reach(map, &rules, &occ, &units[mover], budget)
        .unwrap()
        .labeled(map)
}

pub(crate) fn costs(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
    pairs.iter().map(|(l, c)| (l.to_string(), *c)).collect()
}

/// An owner array: every hex `fill`, then the listed hexes set.
pub(crate) fn owners(map: &HexMap, fill: SideId, set: &[(&str, SideId)]) -> Vec<SideId> {
    let mut o = vec![fill; map.len() as usize];
    for (l, s) in set {
        o[hex(map, l) as usize] = *s;
    }
    o
}

#[allow(dead_code)]
pub(crate) const NEUTRAL: SideId = NO_SIDE;

/// Reach and the order check must agree: every reached hex's path checks at its cost, and no
/// legal path is cheaper than the reach cost. Checked on a pseudo-random map with rivers,
/// sea, roads, ZOC and friends.
mod consistency {
    use super::*;
    use crate::path::check_path;

    #[test]
    fn reach_and_check_path_agree() {
        let letters = ['.', '.', '.', 'f', 'h', 'm', 'w', 'M'];
        let mut seed = 12345u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let rows: Vec<String> = (0..9)
            .map(|_| {
                (0..9)
                    .map(|_| letters[(next() % 8) as usize].to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let rows_ref: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut sides = Vec::new();
        for _ in 0..14 {
            let (c, r) = (next() % 9 + 1, next() % 9 + 1);
            let (c2, r2) = (c, if r < 9 { r + 1 } else { r - 1 });
            let f = ["major_river", "sea", "lake", "causeway", "road"][(next() % 5) as usize];
            sides.push(format!("{f} = [\"{c:02}{r:02}/{c2:02}{r2:02}\"]"));
        }
        sides.sort();
        sides.dedup_by(|a, b| a.split('=').next() == b.split('=').next());
        let m = map(&rows_ref, &format!("[hexsides]\n{}\n", sides.join("\n")));
        let units = vec![
            unit("a", "allied", "infantry", "0505"),
            unit("m", "allied", "armored", "0505"),
            unit("g1", "german", "infantry", "0703"),
            unit("g2", "german", "infantry", "0307"),
            unit("d", "allied", "infantry", "0406").status("disorganized"),
        ];
        let r = PathRules::compile(&super::roads::with_roads(), &m).unwrap();
        let occ = Occupancy::build(&m, &r, &units).unwrap();
        for mover in &units[..2] {
            let got = reach(&m, &r, &occ, mover, Mp::whole(8)).unwrap();
            assert!(!got.is_empty());
            for entry in got.hexes() {
                let path = got.path_to(entry.hex).unwrap();
                assert_eq!(
                    check_path(&m, &r, &occ, mover, Mp::whole(8), &path),
                    Ok(entry.cost),
                    "to {}",
                    m.label(entry.hex)
                );
            }
            // Random walks: a legal walk never beats the reach cost, and ends on a reached hex.
            for _ in 0..2000 {
                let mut path = vec![got.start()];
                for _ in 0..(next() % 6 + 1) {
                    let here = *path.last().unwrap();
                    let n = r.topology.neighbors(here)[(next() % 6) as usize];
                    if n != crate::path::OFF_MAP {
                        path.push(n);
                    }
                }
                if let Ok(cost) = check_path(&m, &r, &occ, mover, Mp::whole(8), &path) {
                    let end = *path.last().unwrap();
                    if end != got.start() {
                        assert!(
                            got.cost(end).is_some_and(|c| c <= cost),
                            "walk to {} costs {cost}",
                            m.label(end)
                        );
                    }
                }
            }
        }
    }
}
