//! Seeded random positions for the oracle comparisons, written as `--setup` TOML (the text the
//! CLI reads), in small clusters so that tactical distance, fronts and contact matter.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{distance, Axial, Field};

#[path = "../support/seeded_rng.rs"]
mod seeded_rng;
pub use seeded_rng::Rng;

/// One unit of a generated position.
#[derive(Debug, Clone)]
pub struct GenUnit {
    pub id: String,
    pub side: String,
    pub kind: String,
    pub at: Axial,
    pub facing: Option<u8>,
    pub facing2: Option<u8>,
    pub ma: u32,
    pub skirmisher_flag: bool,
    pub disordered: bool,
}

/// A position: its units and the `--setup` TOML that places them.
pub struct GenPosition {
    pub units: Vec<GenUnit>,
}

impl GenPosition {
    pub fn toml(&self, field: &Field) -> String {
        let mut out = String::new();
        for u in &self.units {
            let _ = writeln!(out, "[[unit]]");
            let _ = writeln!(out, "id = \"{}\"", u.id);
            let _ = writeln!(out, "side = \"{}\"", u.side);
            let _ = writeln!(out, "type = \"{}\"", u.kind);
            let _ = writeln!(out, "ma = {}", u.ma);
            let _ = writeln!(out, "strength = 1");
            let _ = writeln!(out, "at = \"{}\"", field.label(u.at));
            if let Some(f) = u.facing {
                let _ = writeln!(out, "facing = {f}");
            }
            if u.disordered {
                let _ = writeln!(out, "status = [\"disordered\"]");
            }
            let mut attrs = Vec::new();
            if let Some(g) = u.facing2 {
                attrs.push(format!("facing2 = {g}"));
            }
            if u.skirmisher_flag {
                attrs.push("skirmisher = true".to_string());
            }
            if !attrs.is_empty() {
                let _ = writeln!(out, "attrs = {{ {} }}", attrs.join(", "));
            }
            out.push('\n');
        }
        out
    }

    /// The groups worth asking about: every hex's whole side group when it has 2+ counters, and
    /// one random sub-group of 2+ counters when there are 3+.
    pub fn groups(&self, rng: &mut Rng) -> Vec<Vec<String>> {
        let mut by_hex: BTreeMap<(Axial, String), Vec<String>> = BTreeMap::new();
        for u in &self.units {
            by_hex
                .entry((u.at, u.side.clone()))
                .or_default()
                .push(u.id.clone());
        }
        let mut out = Vec::new();
        for ids in by_hex.into_values() {
            if ids.len() >= 2 {
                out.push(ids.clone());
            }
            if ids.len() >= 3 {
                let mut sub: Vec<String> = ids.iter().filter(|_| rng.chance(60)).cloned().collect();
                if sub.len() < 2 {
                    sub = ids[..2].to_vec();
                }
                if sub.len() < ids.len() {
                    out.push(sub);
                }
            }
        }
        out
    }
}

/// Hexes within `radius` of `center` that pass `ok`.
fn around(field: &Field, center: Axial, radius: u32, ok: &dyn Fn(Axial) -> bool) -> Vec<Axial> {
    let mut v: Vec<Axial> = field
        .hexes()
        .filter(|h| distance(*h, center) <= radius && ok(*h))
        .collect();
    v.sort();
    v
}

const TAC_SIDES: [&str; 2] = ["british", "zulu"];
const TAC_KINDS: [&str; 8] = [
    "infantry",
    "colonial",
    "cavalry",
    "foot_skirmisher",
    "mounted_skirmisher",
    "leader",
    "artillery",
    "artillery_unlimbered",
];

/// A TAC position on `scenarios/tactical`: 3 to 10 units around one hex (radius 3; or 6 to 14
/// within radius 2), a few far
/// ones; no two non-leaders of a side share a hex (TAC-5); a few units stand in an enemy hex, as
/// after a TAC-6 charge.
pub fn tactical(field: &Field, rng: &mut Rng) -> GenPosition {
    let land: Vec<Axial> = {
        let mut v: Vec<Axial> = field
            .hexes()
            .filter(|h| field.terrain(*h) != "river")
            .collect();
        v.sort();
        v
    };
    let center = *rng.pick(&land);
    // One position in three is a dense one (radius 2, up to 14 units).
    let (n, near) = if rng.chance(33) {
        (6 + rng.below(9), 2)
    } else {
        (3 + rng.below(8), 3)
    };
    let mut units: Vec<GenUnit> = Vec::new();
    for i in 0..n {
        let side = TAC_SIDES[rng.below(2) as usize].to_string();
        let kind = rng.pick(&TAC_KINDS).to_string();
        let leader = kind == "leader";
        let radius = if rng.chance(15) { 12 } else { near };
        // Now and then a unit in melee: it charged into an enemy hex (TAC-6) and shares it.
        let melee = !leader && rng.chance(8);
        // And rarely two non-leaders of a side in one hex (TAC-5 forbids moving there, a
        // position may still hold them).
        let crowded = !leader && !melee && rng.chance(5);
        let spots = around(field, center, radius, &|h| {
            let here: Vec<&GenUnit> = units.iter().filter(|u| u.at == h).collect();
            field.terrain(h) != "river"
                && if melee {
                    !here.is_empty() && here.iter().all(|u| u.side != side)
                } else {
                    here.iter()
                        .all(|u| u.side == side && (leader || crowded || u.kind == "leader"))
                }
        });
        if spots.is_empty() {
            continue;
        }
        let at = *rng.pick(&spots);
        let ma = match kind.as_str() {
            "artillery_unlimbered" => 0,
            _ if rng.chance(10) => rng.below(2) as u32,
            _ => 1 + rng.below(8) as u32,
        };
        units.push(GenUnit {
            id: format!("{}{i}", &side[..1]),
            side,
            facing: (!leader).then(|| rng.below(6) as u8),
            facing2: (kind == "colonial").then(|| rng.below(6) as u8),
            skirmisher_flag: !leader && !kind.contains("skirmisher") && rng.chance(10),
            disordered: false,
            kind,
            at,
            ma,
        });
    }
    GenPosition { units }
}

const ANC_SIDES: [&str; 2] = ["macedon", "seleucid"];
const ANC_KINDS: [&str; 5] = ["phalanx", "light", "cavalry", "elephant", "leader"];

/// An ANC position on `scenarios/ancients`: 4 to 13 counters around one hex (radius 3; or 8 to
/// 17 within radius 2), some
/// stacked (one facing per stack, ANC-5.4; legal stacks, TA-R19, but for a rare illegal one),
/// some disordered.
pub fn ancients(field: &Field, rng: &mut Rng) -> GenPosition {
    let all: Vec<Axial> = {
        let mut v: Vec<Axial> = field.hexes().collect();
        v.sort();
        v
    };
    let center = *rng.pick(&all);
    let (n, near) = if rng.chance(33) {
        (8 + rng.below(10), 2)
    } else {
        (4 + rng.below(10), 3)
    };
    let mut units: Vec<GenUnit> = Vec::new();
    for i in 0..n {
        let side = ANC_SIDES[rng.below(2) as usize].to_string();
        let kind = rng.pick(&ANC_KINDS).to_string();
        let leader = kind == "leader";
        let radius = if rng.chance(10) { 12 } else { near };
        let odd = rng.chance(4);
        // Stack on a friendly hex now and then (a legal stack, but for the odd one).
        let stack_on: Vec<Axial> = {
            let mut v: Vec<Axial> = units
                .iter()
                .filter(|u| u.side == side)
                .map(|u| u.at)
                .filter(|h| {
                    let kinds = units
                        .iter()
                        .filter(|u| u.at == *h)
                        .map(|u| u.kind.as_str())
                        .chain([kind.as_str()]);
                    // Rarely an illegal stack (ANC-5.1 forbids forming it; a setup may hold
                    // it, and TA-R13's "a group holding a phalanx" then has other troops).
                    super::anc::stack_legal(kinds) || odd
                })
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let at = if !stack_on.is_empty() && rng.chance(if leader { 50 } else { 35 }) {
            *rng.pick(&stack_on)
        } else {
            let spots = around(field, center, radius, &|h| units.iter().all(|u| u.at != h));
            if spots.is_empty() {
                continue;
            }
            *rng.pick(&spots)
        };
        // A stack shares one facing (ANC-5.4).
        let shared = units
            .iter()
            .find(|u| u.at == at && u.kind != "leader")
            .and_then(|u| u.facing);
        let facing = if leader {
            None
        } else {
            Some(shared.unwrap_or_else(|| rng.below(6) as u8))
        };
        units.push(GenUnit {
            id: format!("{}{i}", &side[..1]),
            side,
            facing,
            facing2: None,
            skirmisher_flag: false,
            disordered: rng.chance(12),
            ma: if rng.chance(5) {
                0
            } else {
                1 + rng.below(6) as u32
            },
            kind,
            at,
        });
    }
    GenPosition { units }
}
