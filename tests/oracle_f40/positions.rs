//! Random F40 positions for the oracle comparison: a seeded generator writing `--setup` TOML
//! (units of both sides and of the neutral countries around a random area of the full map),
//! plus what is done after the setup to reach positions a setup alone cannot express: a German
//! move invading a country (F40-16.2, R9) and the phases ended to reach a later assault.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write;

use super::oracle::{division_equivalents, Board};

#[path = "../support/seeded_rng.rs"]
mod seeded_rng;
pub use seeded_rng::Rng;

/// The movement phase the comparison is made in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    German1,
    German2,
    Allied1,
    Allied2,
}

impl Phase {
    /// `end_phase` commands from the setup's first step (German movement, assault 1).
    pub fn phases_to_end(self, turn: u32) -> u32 {
        match (self, turn) {
            (Phase::German1, _) => 0,
            (Phase::German2, _) => 2,
            (Phase::Allied1, 1) => 2,
            (Phase::Allied1, _) => 4,
            (Phase::Allied2, _) => 6,
        }
    }
}

/// A generated position: the setup text, then an optional invading move, then phases ended.
pub struct Generated {
    pub seed: u64,
    pub setup: String,
    pub turn: u32,
    pub phase: Phase,
    /// (unit, hex entered): a German move made in the first German movement phase.
    pub invasion: Option<(String, String)>,
}

impl Generated {
    pub fn describe(&self) -> String {
        format!(
            "seed {}: setup below, then {}, then {} end_phase (target {:?} of turn {})\n{}",
            self.seed,
            match &self.invasion {
                Some((u, h)) => format!("move {u} to {h}"),
                None => "no invasion".into(),
            },
            self.phase.phases_to_end(self.turn),
            self.phase,
            self.turn,
            self.setup
        )
    }
}

struct Spec {
    id: String,
    side: &'static str,
    nation: &'static str,
    kind: &'static str,
    size: &'static str,
    ma: u32,
    at: usize,
    status: Vec<&'static str>,
    attrs: Vec<(&'static str, String)>,
}

/// Whether one more unit keeps its side's stack in the hex within F40-5.2 / 5.3 (R14), so that
/// the phases can be ended.
fn fits(units: &[Spec], side: &str, at: usize, kind: &str, size: &str) -> bool {
    let mut total = division_equivalents(size);
    let mut armored = if kind == "armored" { total } else { 0 };
    for u in units.iter().filter(|u| u.side == side && u.at == at) {
        total += division_equivalents(u.size);
        if u.kind == "armored" {
            armored += division_equivalents(u.size);
        }
    }
    total <= 4 && armored <= 3
}

pub fn generate(board: &Board, seed: u64) -> Generated {
    let mut rng = Rng::new(seed);
    let land: Vec<usize> = (0..board.len())
        .filter(|&h| board.is_land(h) && board.country[h].is_some())
        .collect();
    // Half the time the area is one of the places where the rules have special cases: the
    // Afsluitdijk causeway, the Zeeland estuaries and the Seine estuary (sea hexsides, 9.3, 10.2,
    // 10.3), Lake Constance, the Swiss border (R13 sources, 16.6), the Vosges and the Jura
    // (mountains, 9.2), the Belgian cities and Luxembourg (16.4), Paris (8.2), the map edges.
    let centre = if rng.chance(50) {
        let label = *rng.pick(&[
            "2403", "2502", "2109", "2009", "2210", "0718", "0719", "3827", "3926", "3327", "3128",
            "3123", "2929", "2212", "2817", "2712", "1521", "4012", "4026", "2832", "0120", "2306",
        ]);
        board
            .index(label)
            .filter(|&h| board.is_land(h))
            .unwrap_or(*rng.pick(&land))
    } else {
        *rng.pick(&land)
    };
    let radius = rng.range(1, 5) as u32;
    let area: Vec<usize> = land
        .iter()
        .copied()
        .filter(|&h| board.distance(h, centre) <= radius)
        .collect();
    let turn = if rng.chance(25) {
        1
    } else {
        rng.range(2, 10) as u32
    };
    let phase = match (turn, rng.below(4)) {
        (1, 0 | 1) => Phase::German1,
        (1, _) => Phase::Allied1,
        (_, 0) => Phase::German1,
        (_, 1) => Phase::German2,
        (_, 2) => Phase::Allied1,
        _ => Phase::Allied2,
    };
    let count = match rng.below(3) {
        0 => rng.range(1, 4),
        1 => rng.range(4, 12),
        _ => rng.range(12, 30),
    };
    let mut units: Vec<Spec> = Vec::new();
    let mut serial = BTreeMap::new();
    let mut next_id = |prefix: &str| {
        let n = serial.entry(prefix.to_string()).or_insert(0);
        *n += 1;
        format!("{prefix}{n}")
    };
    let mut add = |units: &mut Vec<Spec>,
                   rng: &mut Rng,
                   at: usize,
                   side: &'static str,
                   nation: &'static str| {
        let (kind, size, ma, mut attrs): (&str, &str, u32, Vec<(&str, String)>) =
            match rng.below(20) {
                0..=9 => (
                    "infantry",
                    *rng.pick(&["XX", "XX", "XXX", "III"]),
                    rng.range(1, 6) as u32,
                    vec![],
                ),
                10..=12 => (
                    "armored",
                    *rng.pick(&["XX", "XX", "XXX", "III"]),
                    rng.range(3, 12) as u32,
                    vec![],
                ),
                13..=15 => (
                    "motorized",
                    *rng.pick(&["XX", "XXX", "III"]),
                    rng.range(3, 10) as u32,
                    vec![],
                ),
                16..=17 => (
                    "mountain",
                    *rng.pick(&["XX", "XXX"]),
                    rng.range(1, 5) as u32,
                    vec![],
                ),
                18 if side == "german" => (
                    "airborne",
                    "III",
                    0,
                    vec![("airborne", "true".into()), ("para", "true".into())],
                ),
                19 if side == "german" => (
                    "airborne",
                    "XX",
                    rng.range(2, 4) as u32,
                    vec![("airborne", "true".into()), ("airlanding", "true".into())],
                ),
                _ => ("infantry", "XX", rng.range(1, 6) as u32, vec![]),
            };
        if !fits(units, side, at, kind, size) {
            return;
        }
        if rng.chance(30) {
            let class = match kind {
                "armored" | "motorized" => "motorized",
                "mountain" => "mountain",
                _ => "foot",
            };
            attrs.push(("class", format!("\"{class}\"")));
        }
        let mut status = Vec::new();
        if rng.chance(15) {
            status.push("disorganized");
        }
        if kind == "airborne" && rng.chance(50) {
            status.push("dropped");
        }
        if ["dutch", "swiss", "belgian"].contains(&nation) && rng.chance(25) {
            status.push("freed");
        }
        let prefix = match side {
            "german" => "g",
            "allied" => "a",
            _ => "n",
        };
        units.push(Spec {
            id: next_id(prefix),
            side,
            nation,
            kind,
            size,
            ma,
            at,
            status,
            attrs,
        });
    };
    for _ in 0..count {
        let at = *rng.pick(&area);
        let country = board.country[at].unwrap_or("france");
        let neutral_nation = match country {
            "netherlands" => Some("dutch"),
            "belgium" => Some("belgian"),
            "switzerland" => Some("swiss"),
            _ => None,
        };
        match rng.below(10) {
            0..=3 => add(&mut units, &mut rng, at, "german", "german"),
            4..=7 => {
                // Allied units stay out of the countries neutral at the start, as in play until
                // an invasion (F40-16.1).
                if matches!(country, "france" | "germany") || rng.chance(20) {
                    // Now and then a Dutch, Belgian or Swiss unit on the Allied side without
                    // its country having joined: a position only a setup can give.
                    let nation = match rng.below(20) {
                        0 => *rng.pick(&["dutch", "belgian", "swiss"]),
                        1..=14 => "french",
                        _ => "british",
                    };
                    add(&mut units, &mut rng, at, "allied", nation);
                }
            }
            _ => {
                if let Some(nation) = neutral_nation {
                    add(&mut units, &mut rng, at, "neutral", nation);
                } else if rng.chance(10) {
                    let nation = *rng.pick(&["dutch", "belgian", "swiss"]);
                    add(&mut units, &mut rng, at, "neutral", nation);
                }
            }
        }
    }
    // Sometimes Germans hold both Belgian major cities (F40-16.4).
    if rng.chance(8) {
        for &city in board.major_cities("belgium") {
            add(&mut units, &mut rng, city, "german", "german");
        }
    }
    // An invasion: a German infantry division next to the country's border moves in (16.2).
    let mut invasion = None;
    if rng.chance(40) {
        let country = *rng.pick(&["netherlands", "belgium", "luxembourg", "switzerland"]);
        let pairs: Vec<(usize, usize)> = (0..board.len())
            .filter(|&h| board.country[h] == Some("germany") && board.is_clear(h))
            .flat_map(|g| {
                board
                    .neighbors_of(g)
                    .filter(|&n| board.country[n] == Some(country) && board.is_clear(n))
                    .filter(move |&n| board.plain_hexside(g, n))
                    .map(move |n| (g, n))
                    .collect::<Vec<_>>()
            })
            .filter(|&(g, n)| units.iter().all(|u| u.at != g && u.at != n))
            .collect();
        if !pairs.is_empty() {
            let (g, n) = *rng.pick(&pairs);
            let id = "g-invader".to_string();
            units.push(Spec {
                id: id.clone(),
                side: "german",
                nation: "german",
                kind: "infantry",
                size: "XX",
                ma: 4,
                at: g,
                status: vec![],
                attrs: vec![],
            });
            invasion = Some((id, board.labels[n].clone()));
        }
    }
    // The surrenders (16.3, 16.4), drawn apart so the positions above stay as they were: now
    // and then Germans stand in Dutch major cities, sometimes beside an Allied unit, and the
    // setup says the Netherlands were invaded; or Belgium was, and Germans may hold its major
    // cities; and a BEF corps has been evacuated.
    let mut politics = Rng::new(seed ^ 0x5eed_0016);
    let mut invaded_by_setup = None;
    if politics.chance(15) {
        let cities: Vec<usize> = board.major_cities("netherlands").iter().copied().collect();
        for _ in 0..politics.range(1, 3) {
            let city = *politics.pick(&cities);
            add(&mut units, &mut politics, city, "german", "german");
        }
        if politics.chance(30) {
            let city = *politics.pick(&cities);
            let nation = *politics.pick(&["french", "british", "dutch"]);
            add(&mut units, &mut politics, city, "allied", nation);
        }
        if politics.chance(70) {
            invaded_by_setup = Some("netherlands");
        }
    } else if politics.chance(10) {
        invaded_by_setup = Some("belgium");
        if politics.chance(50) {
            for &city in board.major_cities("belgium") {
                add(&mut units, &mut politics, city, "german", "german");
            }
        }
    }
    let bef_evacuated = if politics.chance(if invaded_by_setup == Some("belgium") {
        60
    } else {
        20
    }) {
        politics.range(1, 2)
    } else {
        0
    };
    // Combat (the module's C.5 with F40-11.5): now and then a drop's cancelling of a hex's
    // hexsides (not on the Maginot line, where 11.5 does not apply) and works a DR% destroyed,
    // on hexes of the area.
    let mut vars = Vec::new();
    if bef_evacuated > 0 {
        vars.push(format!("bef_corps_evacuated = {bef_evacuated}"));
    }
    let occupied: Vec<usize> = units.iter().map(|u| u.at).collect();
    if politics.chance(30) && !occupied.is_empty() {
        let hexes: Vec<String> = (0..politics.range(1, 3))
            .map(|_| *politics.pick(&occupied))
            .filter(|&h| !board.is_maginot(h))
            .map(|h| format!("\"{}\"", board.labels[h]))
            .collect();
        vars.push(format!("airborne_hexsides = [{}]", hexes.join(", ")));
    }
    if politics.chance(15) {
        // (a work among the units when there is one)
        let works: Vec<usize> = (0..board.len())
            .filter(|&h| board.is_fortification(h) || board.has_intrinsic_strength(h))
            .collect();
        let near: Vec<usize> = works
            .iter()
            .copied()
            .filter(|h| occupied.contains(h))
            .collect();
        let works = if near.is_empty() { works } else { near };
        let h = *politics.pick(&works);
        vars.push(format!(
            "destroyed = {{ \"{}\" = [\"fortification\", \"intrinsic_strength\"] }}",
            board.labels[h]
        ));
    }
    // Naval evacuation (F40-10.4), drawn apart as the surrenders are: now and then Allied units
    // crowd one French port, British corps among them marked BEF (16.4 counts them), so the
    // port's limit of 3 division-equivalents a phase fills.
    let mut evacuation = Rng::new(seed ^ 0x5eed_0104);
    if evacuation.chance(20) {
        let ports: Vec<usize> = (0..board.len())
            .filter(|&h| board.is_port(h) && board.country[h] == Some("france"))
            .collect();
        let port = *evacuation.pick(&ports);
        for _ in 0..evacuation.range(2, 5) {
            let nation = *evacuation.pick(&["british", "british", "french"]);
            let before = units.len();
            add(&mut units, &mut evacuation, port, "allied", nation);
            if units.len() > before && nation == "british" && evacuation.chance(60) {
                units[before].attrs.push(("bef", "true".into()));
            }
        }
    }
    // Works (the module's C.5 and C.6): now and then an Allied unit holds a hex with an
    // intrinsic strength point (Maastricht, Eben-Emael) or a fortification, Germans beside it,
    // so attacks count the point and a DR% destroys the works.
    let mut works = Rng::new(seed ^ 0x5eed_00c6);
    if works.chance(15) {
        let hexes: Vec<usize> = (0..board.len())
            .filter(|&h| board.has_intrinsic_strength(h) || board.is_fortification(h))
            .collect();
        let h = if works.chance(50) {
            *works.pick(
                &hexes
                    .iter()
                    .copied()
                    .filter(|&h| board.has_intrinsic_strength(h))
                    .collect::<Vec<_>>(),
            )
        } else {
            *works.pick(&hexes)
        };
        let nation = match board.country[h] {
            Some("netherlands") => "dutch",
            Some("belgium") => "belgian",
            _ => "french",
        };
        add(&mut units, &mut works, h, "allied", nation);
        let beside: Vec<usize> = board
            .neighbors_of(h)
            .filter(|&n| board.is_land(n))
            .collect();
        for _ in 0..works.range(1, 4) {
            let n = *works.pick(&beside);
            add(&mut units, &mut works, n, "german", "german");
        }
    }
    // A setup naming no turn or phase stays at the scenario's first step (turn 1, German
    // movement) and keeps the `dropped` statuses (F40-11.4) that a phase start clears (11.2).
    let mut setup = if turn == 1 && phase == Phase::German1 && rng.chance(50) {
        String::new()
    } else {
        format!("turn = {turn}\nphase = \"movement\"\n\n")
    };
    for u in &units {
        let _ = write!(
            setup,
            "[[unit]]\nid = \"{}\"\nside = \"{}\"\nnation = \"{}\"\ntype = \"{}\"\nsize = \"{}\"\nma = {}\nstrength = 3\nat = \"{}\"\n",
            u.id, u.side, u.nation, u.kind, u.size, u.ma, board.labels[u.at]
        );
        if !u.status.is_empty() {
            let list: Vec<String> = u.status.iter().map(|s| format!("\"{s}\"")).collect();
            let _ = writeln!(setup, "status = [{}]", list.join(", "));
        }
        if !u.attrs.is_empty() {
            let list: Vec<String> = u.attrs.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            let _ = writeln!(setup, "attrs = {{ {} }}", list.join(", "));
        }
        setup.push('\n');
    }
    if let Some(country) = invaded_by_setup {
        setup.insert_str(0, &format!("invaded = [\"{country}\"]\n"));
    }
    if !vars.is_empty() {
        let _ = writeln!(setup, "[vars]\n{}", vars.join("\n"));
    }
    Generated {
        seed,
        setup,
        turn,
        phase,
        invasion,
    }
}
