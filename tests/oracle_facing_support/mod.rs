//! An independent oracle for the reach of the two facing games (RULES.md TAC and ANC, readings
//! TA-R1..R20), written from RULES.md alone: it never calls the engine's facing search nor the
//! Lua rules. It reads the map (hex coordinates, labels, terrain names) and the units of a
//! position, and the per-kind data RULES.md delegates to the rules module (TAC-8 front offsets,
//! ANC-5.3 formation costs), copied here from `rules/tactical/init.lua` and
//! `rules/ancients/init.lua`. Each game's search is a plain least-cost search over every state
//! the rules make relevant; see `tac.rs` and `anc.rs`.
#![allow(dead_code)]

pub mod anc;
pub mod gen;
pub mod tac;

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use hexwar::board::HexMap;
use hexwar::engine::Unit;

/// `(hex label, facing key) -> least cost`: facing keys as the CLI prints them ("3", "1,4",
/// "none"). TA-R20: the start state is never listed.
pub type Answer = BTreeMap<(String, String), u32>;

/// Axial coordinates (q, r) of hexx `Hex {x: q, y: r}` (TA-R1).
pub type Axial = (i32, i32);

/// TA-R1: edge direction k leads to these offsets; k+1 is clockwise.
pub const NEIGHBOR_OFFSETS: [Axial; 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// The map as the oracle sees it: hexes by axial coordinates, with label and terrain.
pub struct Field {
    cells: HashMap<Axial, (String, String)>,
}

impl Field {
    /// The map's hexes, each placed by its printed label (checked against the library's own
    /// coordinates, so both agree on which hex lies in which direction).
    pub fn from_map(map: &HexMap) -> Field {
        let mut cells = HashMap::new();
        for i in 0..map.len() {
            let label = map.label(i);
            let a = axial_of_label(&label);
            let h = map.hex(i);
            assert_eq!(
                a,
                (h.x, h.y),
                "{label}: the oracle and the map place it apart"
            );
            cells.insert(a, (label, map.terrain_name(i).to_string()));
        }
        Field { cells }
    }

    /// The hex with this label.
    pub fn find(&self, label: &str) -> Axial {
        *self
            .cells
            .iter()
            .find(|(_, (l, _))| l == label)
            .map(|(a, _)| a)
            .unwrap_or_else(|| panic!("no hex {label}"))
    }

    pub fn label(&self, a: Axial) -> &str {
        &self.cells[&a].0
    }

    pub fn terrain(&self, a: Axial) -> &str {
        &self.cells[&a].1
    }

    /// The neighbour in edge direction `d` (TA-R1), if on the map.
    pub fn neighbor(&self, a: Axial, d: u8) -> Option<Axial> {
        let (dq, dr) = NEIGHBOR_OFFSETS[(d % 6) as usize];
        let n = (a.0 + dq, a.1 + dr);
        self.cells.contains_key(&n).then_some(n)
    }

    pub fn hexes(&self) -> impl Iterator<Item = Axial> + '_ {
        self.cells.keys().copied()
    }
}

/// Axial coordinates of a CCRR label on a flat-topped map whose printed-odd columns are shifted
/// down by half a hex (`offset = "odd"`, docs/formats.md: 0303 touches 0203, 0204, 0403, 0404),
/// with y growing downwards so that direction 0 (1, 0) is the lower right neighbour and k+1 is
/// clockwise (TA-R1).
pub fn axial_of_label(label: &str) -> Axial {
    let col: i32 = label[..2].parse::<i32>().unwrap() - 1;
    let row: i32 = label[2..].parse::<i32>().unwrap() - 1;
    // 0-based even columns (printed odd) sit half a hex lower than their neighbours.
    (col, row - (col + (col & 1)) / 2)
}

/// Hex distance between two axial coordinates.
pub fn distance(a: Axial, b: Axial) -> u32 {
    let dq = a.0 - b.0;
    let dr = a.1 - b.1;
    ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as u32
}

/// Whether `b` is the neighbour of `a` in one of the edge directions `dirs`.
pub fn in_directions(a: Axial, b: Axial, dirs: &[u8]) -> bool {
    dirs.iter().any(|&d| {
        let (dq, dr) = NEIGHBOR_OFFSETS[(d % 6) as usize];
        (a.0 + dq, a.1 + dr) == b
    })
}

/// One unit of the position, as the oracle needs it.
#[derive(Debug, Clone)]
pub struct Piece {
    pub id: String,
    pub side: String,
    pub kind: String,
    pub at: Axial,
    pub facing: Option<u8>,
    pub facing2: Option<u8>,
    pub ma: u32,
    /// The `skirmisher` attribute (TA-R7 "or the skirmisher flag").
    pub skirmisher_flag: bool,
    pub statuses: Vec<String>,
}

impl Piece {
    pub fn from_unit(field: &Field, u: &Unit) -> Option<Piece> {
        let at = field.find(u.at.as_deref()?);
        Some(Piece {
            id: u.id.clone(),
            side: u.side.clone(),
            kind: u.kind.clone(),
            at,
            facing: u.facing,
            facing2: u
                .attrs
                .get("facing2")
                .and_then(|v| v.as_u64())
                .map(|v| v as u8),
            ma: u.ma.max(0.0).floor() as u32,
            skirmisher_flag: u.flag("skirmisher"),
            statuses: u.status.iter().cloned().collect(),
        })
    }
}

/// Every placed unit of the session's position.
pub fn pieces(field: &Field, session: &hexwar::Session) -> Vec<Piece> {
    session
        .game
        .state()
        .units
        .values()
        .filter_map(|u| Piece::from_unit(field, u))
        .collect()
}

/// How often each rule decided something in the oracle's searches (a coverage report: a rule
/// the positions never exercise would pass unseen).
pub static HITS: Mutex<BTreeMap<&'static str, usize>> = Mutex::new(BTreeMap::new());

/// Counts one decision by `rule`.
pub fn hit(rule: &'static str) {
    if let Ok(mut h) = HITS.lock() {
        *h.entry(rule).or_insert(0) += 1;
    }
}

/// The counts so far, one `rule: n` per line.
pub fn hits_report() -> String {
    HITS.lock()
        .map(|h| {
            h.iter()
                .map(|(k, v)| format!("  {k}: {v}"))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}
