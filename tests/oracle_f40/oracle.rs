//! An independent reading of the F40 movement and supply rules, written from RULES.md only
//! (clauses F40-6, 8, 9, 10.2, 10.3, 11.3, 16, 18.2 and readings R1-R13). It reads map facts
//! (terrain, hexside features, zones) and the position (units, control, turn, step, the
//! politics variables) and never calls the engine's searches or the Lua rules, so that the
//! engine can be compared against it (tests/oracle_f40.rs).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use hexwar::board::HexMap;
use hexwar::engine::GameState;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    German,
    Allied,
    Neutral,
}

impl Side {
    pub fn parse(name: &str) -> Side {
        match name {
            "german" => Side::German,
            "allied" => Side::Allied,
            _ => Side::Neutral,
        }
    }

    /// The other player (F40 has two; neutral units are nobody's enemy and nobody's friend).
    pub fn enemy(self) -> Option<Side> {
        match self {
            Side::German => Some(Side::Allied),
            Side::Allied => Some(Side::German),
            Side::Neutral => None,
        }
    }
}

/// Movement class (F40-R5: armored and motorized units are motorized, mountain infantry is not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Foot,
    Mountain,
    Motorized,
}

impl Class {
    pub fn of_type(kind: &str) -> Class {
        match kind {
            "armored" | "motorized" => Class::Motorized,
            "mountain" => Class::Mountain,
            _ => Class::Foot,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Terrain {
    Clear,
    Marsh,
    Forest,
    Hills,
    WoodedHills,
    Mountains,
    MajorCity,
    Sea,
}

/// Hexside features of one hexside, as bits.
pub const SEA: u8 = 1;
pub const LAKE: u8 = 2;
pub const MAJOR_RIVER: u8 = 4;
pub const CAUSEWAY: u8 = 8;

pub const COUNTRIES: [&str; 6] = [
    "france",
    "germany",
    "netherlands",
    "belgium",
    "luxembourg",
    "switzerland",
];
/// The countries neutral at the start (F40-16.1).
pub const NEUTRAL_COUNTRIES: [&str; 4] = ["netherlands", "belgium", "luxembourg", "switzerland"];

/// How often the reach search met each special case (steps considered, whether or not on a
/// cheapest path), so that a run can say what it exercised.
pub mod seen {
    use std::sync::atomic::{AtomicUsize, Ordering};

    pub const NAMES: [&str; 13] = [
        "enemy-occupied hex (9.5)",
        "enemy para-only hex entered (11.3/R8)",
        "political refusal (16.x/18.2/R10)",
        "marsh closed to motorized (9.2)",
        "mountains for motorized (R5)",
        "lake hexside (9.3)",
        "Allied sea crossing +1 (9.3)",
        "German causeway crossing (10.3/R6)",
        "German sea hexside refused (9.3)",
        "no entry across a sea hexside (10.2)",
        "leaving the start ZOC +1 (6.3/R2)",
        "ZOC to ZOC refused (6.4/R3)",
        "friendly disorganized +2 (9.5)",
    ];
    static COUNTS: [AtomicUsize; 13] = [const { AtomicUsize::new(0) }; 13];

    pub fn note(case: usize) {
        COUNTS[case].fetch_add(1, Ordering::Relaxed);
    }

    /// `name: count` of every case.
    pub fn summary() -> String {
        NAMES
            .iter()
            .zip(COUNTS.iter())
            .map(|(n, c)| format!("{n}: {}", c.load(Ordering::Relaxed)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Map facts, read once.
pub struct Board {
    pub labels: Vec<String>,
    terrain: Vec<Terrain>,
    /// Per hex: (neighbour, hexside feature bits).
    neighbors: Vec<Vec<(usize, u8)>>,
    pub country: Vec<Option<&'static str>>,
    deploy_french: Vec<bool>,
    col_row: Vec<(u32, u32)>,
    edge: Vec<[bool; 4]>,
    town: Vec<bool>,
    paris: Vec<bool>,
    port: Vec<bool>,
    assembly_point: Vec<bool>,
    /// Hex features with a combat effect (C.5): fortification, Maginot line, intrinsic
    /// strength point.
    fortification: Vec<bool>,
    maginot: Vec<bool>,
    intrinsic_strength: Vec<bool>,
    /// Major cities per country: `major_city` hexes of the country plus `major_cities_<country>`.
    major_cities: BTreeMap<&'static str, BTreeSet<usize>>,
    map: std::sync::Arc<HexMap>,
}

impl Board {
    pub fn new(map: std::sync::Arc<HexMap>) -> Board {
        let n = map.len() as usize;
        let mut terrain = Vec::with_capacity(n);
        let mut neighbors = Vec::with_capacity(n);
        let mut country = Vec::with_capacity(n);
        let mut labels = Vec::with_capacity(n);
        for i in 0..n as u32 {
            labels.push(map.label(i));
            terrain.push(match map.terrain_name(i) {
                "clear" => Terrain::Clear,
                "marsh" => Terrain::Marsh,
                "forest" => Terrain::Forest,
                "hills" => Terrain::Hills,
                "wooded_hills" => Terrain::WoodedHills,
                "mountains" => Terrain::Mountains,
                "major_city" => Terrain::MajorCity,
                "sea" => Terrain::Sea,
                other => panic!("terrain {other} is not in F40-9.2"),
            });
            let mut list = Vec::new();
            for (_, j) in map.neighbors(i) {
                let mut bits = 0;
                for f in map.hexside_features(i, j) {
                    bits |= match f {
                        "sea" => SEA,
                        "lake" => LAKE,
                        "major_river" => MAJOR_RIVER,
                        "causeway" => CAUSEWAY,
                        _ => 0, // minor rivers and the rest: no effect (9.4)
                    };
                }
                list.push((j as usize, bits));
            }
            neighbors.push(list);
            country.push(COUNTRIES.iter().copied().find(|c| map.in_zone(i, c)));
        }
        let in_zone =
            |zone: &str| -> Vec<bool> { (0..n as u32).map(|i| map.in_zone(i, zone)).collect() };
        let mut major_cities = BTreeMap::new();
        for c in COUNTRIES {
            let zone = format!("major_cities_{c}");
            let set: BTreeSet<usize> = (0..n)
                .filter(|&i| {
                    (country[i] == Some(c) && terrain[i] == Terrain::MajorCity)
                        || map.in_zone(i as u32, &zone)
                })
                .collect();
            major_cities.insert(c, set);
        }
        Board {
            deploy_french: in_zone("deploy_french"),
            col_row: (0..n as u32).map(|i| map.col_row(i)).collect(),
            edge: (0..n as u32)
                .map(|i| {
                    [
                        map.in_zone(i, "north_edge"),
                        map.in_zone(i, "south_edge"),
                        map.in_zone(i, "west_edge"),
                        map.in_zone(i, "east_edge"),
                    ]
                })
                .collect(),
            town: (0..n as u32).map(|i| map.has_feature(i, "town")).collect(),
            paris: in_zone("city_paris"),
            port: (0..n as u32).map(|i| map.has_feature(i, "port")).collect(),
            assembly_point: in_zone("assembly_points"),
            fortification: (0..n as u32)
                .map(|i| map.has_feature(i, "fortification"))
                .collect(),
            maginot: (0..n as u32)
                .map(|i| map.has_feature(i, "maginot"))
                .collect(),
            intrinsic_strength: (0..n as u32)
                .map(|i| map.has_feature(i, "intrinsic_strength"))
                .collect(),
            labels,
            terrain,
            neighbors,
            country,
            major_cities,
            map,
        }
    }

    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn index(&self, label: &str) -> Option<usize> {
        self.map.parse_label(label).map(|i| i as usize)
    }

    pub fn is_land(&self, h: usize) -> bool {
        self.terrain[h] != Terrain::Sea
    }

    pub fn is_clear(&self, h: usize) -> bool {
        self.terrain[h] == Terrain::Clear
    }

    pub fn distance(&self, a: usize, b: usize) -> u32 {
        self.map.distance(a as u32, b as u32)
    }

    pub fn neighbors_of(&self, h: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbors[h].iter().map(|&(n, _)| n)
    }

    /// Whether the hexside between two neighbours has any feature with movement effect.
    pub fn plain_hexside(&self, a: usize, b: usize) -> bool {
        self.neighbors[a]
            .iter()
            .any(|&(n, bits)| n == b && bits == 0)
    }

    pub fn major_cities(&self, country: &str) -> &BTreeSet<usize> {
        &self.major_cities[country]
    }

    /// A city of `country` (17.4, 17.7): a major city or a town (reading of "ville", as R13
    /// reads the Swiss "villes").
    pub fn is_city_of(&self, h: usize, country: &str) -> bool {
        self.country[h] == Some(country)
            && (self.terrain[h] == Terrain::MajorCity
                || self.major_cities[country].contains(&h)
                || self.town[h])
    }

    /// The hexside feature bits between neighbours `a` and `b` (0 when not neighbours).
    pub fn hexside_bits(&self, a: usize, b: usize) -> u8 {
        self.neighbors[a]
            .iter()
            .find(|&&(n, _)| n == b)
            .map_or(0, |&(_, bits)| bits)
    }

    /// C.5: the terrain's defence multiplier (major city, mountains 2; forest, wooded hills,
    /// marsh 1.5; else 1).
    pub fn terrain_defense(&self, h: usize) -> f64 {
        match self.terrain[h] {
            Terrain::MajorCity | Terrain::Mountains => 2.0,
            Terrain::Forest | Terrain::WoodedHills | Terrain::Marsh => 1.5,
            _ => 1.0,
        }
    }

    pub fn is_fortification(&self, h: usize) -> bool {
        self.fortification[h]
    }

    pub fn is_maginot(&self, h: usize) -> bool {
        self.maginot[h]
    }

    pub fn has_intrinsic_strength(&self, h: usize) -> bool {
        self.intrinsic_strength[h]
    }

    pub fn is_port(&self, h: usize) -> bool {
        self.port[h]
    }

    /// One of the three Allied reserve assembly points (17.5).
    pub fn is_assembly_point(&self, h: usize) -> bool {
        self.assembly_point[h]
    }

    /// A city for 11.1's drops: a major city or a town.
    pub fn is_city(&self, h: usize) -> bool {
        self.terrain[h] == Terrain::MajorCity || self.town[h]
    }

    pub fn is_paris(&self, h: usize) -> bool {
        self.paris[h]
    }

    /// The map edges the hex lies on: north, south, west, east.
    pub fn edges(&self, h: usize) -> [bool; 4] {
        self.edge[h]
    }

    /// F40-9.2 (R5): MP to enter a hex, None when prohibited (marsh to motorized, sea: 10.2).
    fn terrain_cost(&self, h: usize, class: Class) -> Option<f64> {
        Some(match self.terrain[h] {
            Terrain::Clear | Terrain::Hills | Terrain::MajorCity => 1.0,
            Terrain::Forest | Terrain::WoodedHills => 2.0,
            Terrain::Marsh if class == Class::Motorized => return None,
            Terrain::Marsh => 2.0,
            Terrain::Mountains => match class {
                Class::Foot => 3.0,
                Class::Mountain => 2.0,
                Class::Motorized => 6.0,
            },
            Terrain::Sea => return None,
        })
    }

    /// F40-8.1 / R12: terrain a supply line may not enter (sea hexes; marsh for motorized).
    pub fn line_passable(&self, h: usize, class: Class) -> bool {
        self.terrain_cost(h, class).is_some()
    }

    /// Supply sources of a unit (F40-8.2, R13), before the friendly-territory condition.
    fn sources(&self, side: Side, nation: &str) -> BTreeSet<usize> {
        let n = self.len();
        let swiss: Vec<usize> = (0..n)
            .filter(|&h| self.country[h] == Some("switzerland"))
            .collect();
        let min_swiss_row = swiss.iter().map(|&h| self.col_row[h].1).min();
        let min_swiss_col = swiss.iter().map(|&h| self.col_row[h].0).min();
        let french = || -> BTreeSet<usize> {
            (0..n)
                .filter(|&h| {
                    self.edge[h][2]
                        || (self.edge[h][1] && min_swiss_col.is_none_or(|c| self.col_row[h].0 < c))
                        || self.paris[h]
                })
                .collect()
        };
        if side == Side::German {
            let mut out: BTreeSet<usize> = (0..n)
                .filter(|&h| self.edge[h][3] && min_swiss_row.is_none_or(|r| self.col_row[h].1 < r))
                .collect();
            out.extend(self.major_cities["germany"].iter().copied());
            return out;
        }
        match nation {
            "swiss" => swiss
                .iter()
                .copied()
                .filter(|&h| {
                    self.edge[h].iter().any(|&e| e)
                        || self.terrain[h] == Terrain::MajorCity
                        || self.major_cities["switzerland"].contains(&h)
                        || self.town[h]
                })
                .collect(),
            "belgian" => {
                let mut out = french();
                out.extend(self.major_cities["belgium"].iter().copied());
                out
            }
            "dutch" => {
                let mut out = french();
                out.extend(self.major_cities["netherlands"].iter().copied());
                out
            }
            _ => french(),
        }
    }
}

/// One unit of the position.
#[derive(Debug, Clone)]
pub struct Piece {
    pub id: String,
    pub side: Side,
    pub nation: String,
    pub class: Class,
    pub size: String,
    pub ma: f64,
    pub at: Option<usize>,
    pub status: BTreeSet<String>,
    pub para: bool,
    pub airlanding: bool,
    /// `type = "armored"` (5.3, R14).
    pub armored: bool,
    /// An airborne unit (F40-11.1: attrs `airborne`, `para` or `airlanding`, or type
    /// `airborne`), and the turn it arrives (`attrs.arrives_turn`).
    pub airborne: bool,
    /// Of the British Expeditionary Force (attribute `bef`; its corps count for 16.4).
    pub bef: bool,
    pub arrives_turn: Option<u32>,
    pub strength: f64,
}

/// A unit waiting off the map in a pool (17.x): the scenario's `attrs.pool`, and for a
/// reinforcement its `attrs.arrives_turn`.
#[derive(Debug, Clone)]
pub struct PoolUnit {
    pub piece: Piece,
    pub pool: String,
    pub arrives_turn: Option<u32>,
}

impl Piece {
    pub fn has(&self, status: &str) -> bool {
        self.status.contains(status)
    }

    /// F40-11.3: para regiments (no ZOC, no movement factor; enemies may enter their hex).
    pub fn para_regiment(&self) -> bool {
        self.para && self.size == "III"
    }

    /// F40-6.1 / R8: disorganized units, regiments and still-neutral units exert no ZOC. Reading:
    /// the unit's side says whether it is neutral (a setup may put a Dutch unit on the Allied
    /// side while the Netherlands are still neutral: it is an Allied unit).
    fn exerts_zoc(&self) -> bool {
        self.side != Side::Neutral && !self.has("disorganized") && self.size != "III"
    }
}

/// Division-equivalents of a unit of `size` (5.2): a corps 3, a regiment 0, a division 1.
pub fn division_equivalents(size: &str) -> u32 {
    match size {
        "III" => 0,
        "XXX" => 3,
        _ => 1,
    }
}

/// Whether `u` joining `others` (the units in a hex) leaves it within 4 division-equivalents
/// and 3 armored ones (5.2, 5.3), counting `side`'s units only, regiments 0 and an armored corps
/// 3 (R14).
pub fn stacking_fits<'a>(side: Side, u: &Piece, others: impl Iterator<Item = &'a Piece>) -> bool {
    let weight = |u: &Piece| {
        let equivalents = division_equivalents(&u.size);
        (equivalents, if u.armored { equivalents } else { 0 })
    };
    let (mut all, mut armored) = weight(u);
    for other in others.filter(|o| o.side == side) {
        let (a, b) = weight(other);
        all += a;
        armored += b;
    }
    all <= 4 && armored <= 3
}

/// The position as the rules see it.
pub struct Position {
    pub turn: u32,
    pub assault: u32,
    pub units: Vec<Piece>,
    /// The units waiting off the map in a pool (17.x).
    pub pool: Vec<PoolUnit>,
    /// Per hex: the player it is friendly territory to (F40-7), from the state's control map.
    pub control: Vec<Option<Side>>,
    /// Countries no longer neutral (joined or surrendered), and those invaded.
    pub not_neutral: BTreeSet<String>,
    pub invaded: BTreeSet<String>,
    /// Countries that have surrendered (16.3, 16.4).
    pub surrendered: BTreeSet<String>,
    /// BEF corps evacuated so far (16.4's Belgian surrender).
    pub bef_evacuated: u32,
    /// Hexes whose hexsides an airborne drop cancels for the next combat phase (11.5; the
    /// variable `airborne_hexsides`).
    pub hexsides_cancelled: BTreeSet<usize>,
    /// Works a DR% destroyed, by hex (C.6; the variable `destroyed`).
    pub destroyed: BTreeMap<usize, BTreeSet<String>>,
    /// The unit that went by rail in this movement phase (10.1; the variable `rail_used`).
    pub rail_used: Option<String>,
    /// MP each unit spent moving in this phase (the variable `mp_spent`, read by 10.4).
    pub mp_spent: BTreeMap<String, f64>,
    /// Division-equivalents evacuated from each port in this phase (10.4; `evacuated`).
    pub evacuated: BTreeMap<usize, u32>,
    /// Per side (German, Allied): hexes in that side's ZOC (R1: 6 neighbours, not across sea or
    /// lake hexsides, even with a causeway).
    zoc: [Vec<bool>; 2],
}

fn side_slot(side: Side) -> usize {
    match side {
        Side::German => 0,
        _ => 1,
    }
}

impl Position {
    pub fn read(board: &Board, state: &GameState) -> Position {
        let piece = |u: &hexwar::engine::Unit| Piece {
            id: u.id.clone(),
            side: Side::parse(&u.side),
            nation: u.nation.clone(),
            class: Class::of_type(&u.kind),
            size: u.size.clone(),
            ma: u.ma,
            at: u.at.as_deref().and_then(|l| board.index(l)),
            status: u.status.clone(),
            para: u.flag("para"),
            airlanding: u.flag("airlanding"),
            armored: u.kind == "armored",
            airborne: u.flag("airborne")
                || u.flag("para")
                || u.flag("airlanding")
                || u.kind == "airborne",
            bef: u.flag("bef"),
            arrives_turn: u
                .attrs
                .get("arrives_turn")
                .and_then(Value::as_u64)
                .map(|t| t as u32),
            strength: u.strength,
        };
        let units: Vec<Piece> = state.units.values().map(piece).collect();
        let pool: Vec<PoolUnit> = state
            .gone
            .values()
            .filter(|g| g.reason == "pool")
            .map(|g| PoolUnit {
                piece: piece(&g.unit),
                pool: g.unit.attr_str("pool").unwrap_or_default().to_string(),
                arrives_turn: g
                    .unit
                    .attrs
                    .get("arrives_turn")
                    .and_then(Value::as_u64)
                    .map(|t| t as u32),
            })
            .collect();
        let mut control = vec![None; board.len()];
        for (label, side) in &state.control {
            if let Some(h) = board.index(label) {
                control[h] = match side.as_str() {
                    "german" => Some(Side::German),
                    "allied" => Some(Side::Allied),
                    _ => None,
                };
            }
        }
        let keys = |name: &str| -> BTreeSet<String> {
            match state.vars.get(name).map(|v| v.as_ref()) {
                Some(Value::Object(m)) => m.keys().cloned().collect(),
                _ => BTreeSet::new(),
            }
        };
        // The sequence of play (docs/france1940.md): turn 1 has one assault per player; later
        // turns German assaults 1, 2 then Allied 1, 2, each a movement then a combat step.
        let assault = if state.turn == 1 {
            1
        } else {
            (state.step / 2) % 2 + 1
        };
        let mut zoc = [vec![false; board.len()], vec![false; board.len()]];
        for u in &units {
            let Some(h) = u.at else { continue };
            if !u.exerts_zoc() {
                continue;
            }
            for &(n, bits) in &board.neighbors[h] {
                if bits & (SEA | LAKE) == 0 {
                    zoc[side_slot(u.side)][n] = true;
                }
            }
        }
        Position {
            turn: state.turn,
            assault,
            units,
            pool,
            control,
            not_neutral: keys("countries"),
            invaded: keys("invaded"),
            surrendered: keys("surrendered"),
            hexsides_cancelled: match state.vars.get("airborne_hexsides").map(|v| v.as_ref()) {
                Some(Value::Array(list)) => list
                    .iter()
                    .filter_map(|l| l.as_str().and_then(|l| board.index(l)))
                    .collect(),
                _ => BTreeSet::new(),
            },
            destroyed: match state.vars.get("destroyed").map(|v| v.as_ref()) {
                Some(Value::Object(m)) => m
                    .iter()
                    .filter_map(|(l, works)| {
                        let works = works.as_array()?.iter();
                        Some((
                            board.index(l)?,
                            works
                                .filter_map(|w| w.as_str().map(str::to_string))
                                .collect(),
                        ))
                    })
                    .collect(),
                _ => BTreeMap::new(),
            },
            rail_used: state
                .vars
                .get("rail_used")
                .and_then(|v| v.as_ref().as_str().map(str::to_string)),
            mp_spent: match state.vars.get("mp_spent").map(|v| v.as_ref()) {
                Some(Value::Object(m)) => m
                    .iter()
                    .filter_map(|(id, mp)| Some((id.clone(), mp.as_f64()?)))
                    .collect(),
                _ => BTreeMap::new(),
            },
            evacuated: match state.vars.get("evacuated").map(|v| v.as_ref()) {
                Some(Value::Object(m)) => m
                    .iter()
                    .filter_map(|(l, n)| Some((board.index(l)?, n.as_f64()? as u32)))
                    .collect(),
                _ => BTreeMap::new(),
            },
            bef_evacuated: state
                .vars
                .get("bef_corps_evacuated")
                .and_then(|v| v.as_ref().as_f64())
                .unwrap_or(0.0) as u32,
            zoc,
        }
    }

    /// Whether `u` entering `h` leaves the hex within 4 division-equivalents and 3 armored ones
    /// (5.2, 5.3), counting `side`'s units only, regiments 0 and an armored corps 3 (R14): the
    /// hexes the legal lists offer (docs/france1940.md: "every legal list keeps stacking legal").
    pub fn stacking_kept(&self, side: Side, u: &Piece, h: usize) -> bool {
        stacking_fits(side, u, self.units_at(h))
    }

    pub fn unit(&self, id: &str) -> Option<&Piece> {
        self.units.iter().find(|u| u.id == id)
    }

    pub fn neutral(&self, country: &str) -> bool {
        NEUTRAL_COUNTRIES.contains(&country) && !self.not_neutral.contains(country)
    }

    pub fn in_enemy_zoc(&self, side: Side, h: usize) -> bool {
        side.enemy().is_some_and(|e| self.zoc[side_slot(e)][h])
    }

    pub fn units_at(&self, h: usize) -> impl Iterator<Item = &Piece> {
        self.units.iter().filter(move |u| u.at == Some(h))
    }

    /// F40-9.5, 11.3, R8: a hex the mover may not enter because of the units in it.
    pub fn barred(&self, side: Side, h: usize) -> bool {
        self.units_at(h)
            .any(|u| u.side != side && !u.para_regiment())
    }

    pub fn german_inside(&self, board: &Board, country: &str) -> bool {
        self.units.iter().any(|u| {
            u.side == Side::German && u.at.is_some_and(|h| board.country[h] == Some(country))
        })
    }

    /// The political restrictions on entering `h` (16.1, 16.3, 16.4, 16.6, 18.2, R10).
    pub fn forbidden(&self, board: &Board, u: &Piece, h: usize) -> bool {
        let country = board.country[h];
        let home = u.at.and_then(|a| board.country[a]);
        // 16.1: Allied units never enter a neutral country. Reading (shared with the engine,
        // see the report): a unit already standing in that country is not entering it.
        if u.side == Side::Allied {
            if let Some(c) = country {
                if self.neutral(c) && home != Some(c) {
                    return true;
                }
            }
        }
        let freed = u.has("freed");
        // 16.3 / 16.6: Dutch (Swiss) units may not leave their country while a German unit is
        // in it.
        for (nation, own) in [("dutch", "netherlands"), ("swiss", "switzerland")] {
            if u.nation == nation
                && !freed
                && home == Some(own)
                && country != Some(own)
                && self.german_inside(board, own)
            {
                return true;
            }
        }
        // 16.4: Belgian units operate in Belgium, Luxembourg, the Netherlands (if invaded) and
        // Germany; France only when forced by a retreat (`freed`), or once every Belgian major
        // city is German-controlled; once in France they operate normally.
        if u.nation == "belgian" && !freed && home != Some("france") {
            let fallen = board
                .major_cities("belgium")
                .iter()
                .all(|&c| self.control[c] == Some(Side::German));
            let ok = match country {
                Some("belgium") | Some("luxembourg") | Some("germany") => true,
                Some("netherlands") => self.invaded.contains("netherlands"),
                Some("france") => fallen,
                _ => false,
            };
            if !ok {
                return true;
            }
        }
        // 18.2 / R10. Reading (the engine's; RULES.md does not say): a British unit standing in
        // a Belgium that was not invaded may not step to another Belgian hex either.
        if self.turn == 1 {
            if u.nation == "french" && !board.deploy_french[h] {
                return true;
            }
            if u.nation == "british"
                && country == Some("belgium")
                && !self.invaded.contains("belgium")
            {
                return true;
            }
        }
        false
    }

    /// F40-9.1, 8.3, 18.2, R7: the MP the unit may spend in this movement phase.
    pub fn budget(&self, u: &Piece) -> f64 {
        let mut mp = u.ma;
        if self.assault == 2 {
            mp /= 2.0;
        }
        if u.has("isolated") {
            mp /= 2.0;
        }
        if self.turn == 1 && ["dutch", "belgian", "swiss"].contains(&u.nation.as_str()) {
            mp /= 2.0;
        }
        mp
    }

    /// The hexes unit `id` can reach now, each with its least MP cost; the start is not listed.
    pub fn reach(&self, board: &Board, id: &str) -> BTreeMap<String, f64> {
        let mut out = BTreeMap::new();
        let Some(u) = self.unit(id) else { return out };
        let Some(start) = u.at else { return out };
        if u.side == Side::Neutral                                  // 16.1
            || u.has("moved")
            || u.has("railed")                                      // 10.1
            || (u.airlanding && u.has("dropped"))                   // 11.4
            || u.para_regiment()
        // 11.3: no movement factor
        {
            return out;
        }
        let budget = self.budget(u);
        let side = u.side;
        let motorized = u.class == Class::Motorized;
        let start_in_zoc = self.in_enemy_zoc(side, start);
        // Least-cost relaxation over hexes: the state of a partial move is its hex (whether it
        // is the start decides if it may be left while in enemy ZOC, 6.2/R2).
        let mut best: Vec<Option<f64>> = vec![None; board.len()];
        best[start] = Some(0.0);
        let mut queue = VecDeque::from([start]);
        while let Some(from) = queue.pop_front() {
            let Some(spent) = best[from] else { continue };
            let from_zoc = self.in_enemy_zoc(side, from);
            if from != start && from_zoc {
                continue; // 6.2: entering an enemy ZOC ends the move
            }
            for &(to, bits) in &board.neighbors[from] {
                if to == start {
                    continue;
                }
                if self.forbidden(board, u, to) {
                    seen::note(2);
                    continue;
                }
                if self.barred(side, to) {
                    seen::note(0);
                    continue;
                }
                if self.units_at(to).any(|e| e.side != side) {
                    seen::note(1);
                }
                let Some(mut cost) = board.terrain_cost(to, u.class) else {
                    if board.terrain[to] == Terrain::Marsh {
                        seen::note(3);
                    }
                    continue;
                };
                if motorized && board.terrain[to] == Terrain::Mountains {
                    seen::note(4);
                }
                let to_zoc = self.in_enemy_zoc(side, to);
                if bits & LAKE != 0 {
                    seen::note(5);
                    continue; // 9.3
                }
                if bits & SEA != 0 {
                    match side {
                        Side::Allied => {
                            seen::note(6);
                            cost += 1.0 // 9.3, R6
                        }
                        _ if bits & CAUSEWAY != 0 => seen::note(7), // 10.3, R6
                        _ => {
                            seen::note(8);
                            continue; // 9.3
                        }
                    }
                    // 10.2: never into enemy ZOC or enemy territory across a sea hexside.
                    if to_zoc || (self.control[to].is_some() && self.control[to] != Some(side)) {
                        seen::note(9);
                        continue;
                    }
                }
                if bits & MAJOR_RIVER != 0 {
                    cost += 2.0;
                }
                if from == start && start_in_zoc {
                    seen::note(10);
                    cost += 1.0; // 6.3, R2
                    if to_zoc && !motorized {
                        seen::note(11);
                        continue; // 6.4, R3
                    }
                }
                if self
                    .units_at(to)
                    .any(|f| f.side == side && f.has("disorganized"))
                {
                    seen::note(12);
                    cost += 2.0; // 9.5
                }
                let total = spent + cost;
                if total <= budget + 1e-9 && best[to].is_none_or(|b| total < b - 1e-9) {
                    best[to] = Some(total);
                    queue.push_back(to);
                }
            }
        }
        for (h, cost) in best.iter().enumerate() {
            if let (Some(c), true) = (cost, h != start) {
                out.insert(board.labels[h].clone(), *c);
            }
        }
        out
    }

    /// F40-8.1 / R12: whether unit `id` can trace a supply line now.
    pub fn supplied(&self, board: &Board, id: &str) -> bool {
        let Some(u) = self.unit(id) else { return false };
        let Some(start) = u.at else { return false };
        if u.side == Side::Neutral {
            return true; // R12
        }
        self.supplied_at(board, (u.side, &u.nation, u.class), start)
    }

    /// Whether a unit of `side`, `nation` and `class` standing at `start` would be supplied
    /// (F40-8.1, 8.2, R12, R13): its own hex exempt from the line's conditions.
    pub fn supplied_at(&self, board: &Board, unit: (Side, &str, Class), start: usize) -> bool {
        let (side, nation, class) = unit;
        let sources = board.sources(side, nation);
        let friendly = |h: usize| self.control[h] == Some(side);
        if sources.contains(&start) && friendly(start) {
            return true;
        }
        let carries = |h: usize| {
            friendly(h)
                && board.line_passable(h, class)
                && (class == Class::Motorized
                    || !self.in_enemy_zoc(side, h)
                    || self.units_at(h).any(|f| f.side == side))
        };
        let crosses = |bits: u8| {
            bits & LAKE == 0 && !(side == Side::German && bits & SEA != 0 && bits & CAUSEWAY == 0)
        };
        let mut seen = vec![false; board.len()];
        seen[start] = true;
        let mut queue = VecDeque::from([start]);
        while let Some(h) = queue.pop_front() {
            for &(n, bits) in &board.neighbors[h] {
                if seen[n] || !crosses(bits) || !carries(n) {
                    continue;
                }
                if sources.contains(&n) {
                    return true;
                }
                seen[n] = true;
                queue.push_back(n);
            }
        }
        false
    }

    /// F40-7.1 on a snapshot with no history (R11), for a `--setup` position: occupation by one
    /// player, else the uncontested ZOC of one player, else the owner at the start (7.3: France
    /// Allied, Germany German; a joined country's hexes Allied).
    pub fn judged_control(&self, board: &Board, h: usize) -> Option<Side> {
        let present = |s: Side| self.units_at(h).any(|u| u.side == s);
        match (present(Side::German), present(Side::Allied)) {
            (true, false) => return Some(Side::German),
            (false, true) => return Some(Side::Allied),
            _ => {}
        }
        match (self.zoc[0][h], self.zoc[1][h]) {
            (true, false) => return Some(Side::German),
            (false, true) => return Some(Side::Allied),
            _ => {}
        }
        match board.country[h] {
            Some("germany") => Some(Side::German),
            Some("france") => Some(Side::Allied),
            Some(c) if !self.neutral(c) => Some(Side::Allied),
            _ => None,
        }
    }
}
