//! Facing-aware movement (TAC and ANC, RULES.md): states are (hex, facing), the answer is
//! `{(hex, facing): least cost}` with the start state never listed (TA-R20).
//!
//! The game decisions are declared data ([`FacingRules::compile`], shape in `docs/facing.md`):
//! per unit kind its facing type (edge, vertex, none), front arc offsets, turn cost, TAC-2
//! tactical distance, ANC-5.3 joining cost; per game the model (`tactical` or `ancients`).
//! The search never calls back into the rules. Every step costs 1 (hexes in TAC, MP in ANC,
//! TA-R12); hexes of the terrains listed in `impassable` are never entered.
//!
//! - `tactical`: TAC-1..8 with readings TA-R3..R9. A breadth-first search over
//!   (hex, first enemy-front hex left, tactical so far); end facings are free (TA-R5).
//! - `ancients`: ANC-5..7 with readings TA-R10..R19. A Dijkstra over (hex, facing, stopped)
//!   for phalanx groups (turns cost MP), over hexes for the others (facing free, TA-R11).
//!
//! [`check_move`] runs the same search constrained to the hexes of an order, so an order is
//! legal exactly when the reach lists its end state (tests compare both).

use std::collections::{BTreeMap, HashMap, VecDeque};

use serde_json::Value;

use super::arc::{front_mask, rotate, Facing};
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

/// A declaration or position the facing engine cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FacingError {
    #[error("facing declaration: {0}")]
    Declaration(String),
    #[error("{0}")]
    Position(String),
}

/// The two families of rules the engine knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// TAC: distances in hexes, free facing, TAC-5/6/7.
    Tactical,
    /// ANC: MP, phalanx vertex facing, stop in enemy front, stacks join.
    Ancients,
}

/// How a kind faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FacingType {
    Edge,
    Vertex,
    None,
}

/// What the rules declare about one unit kind.
#[derive(Debug, Clone, PartialEq)]
pub struct KindRule {
    pub facing: FacingType,
    /// Front arc: edge-direction offsets from the facing (TA-R2 defaults).
    pub front: Vec<i8>,
    pub leader: bool,
    pub skirmisher: bool,
    /// TAC-2 tactical distance in hexes (None: the unit's MA).
    pub tactical: Option<u32>,
    /// Neither moves nor re-faces (unlimbered artillery, TA-R4).
    pub immobile: bool,
    /// MP per 60° turn (ANC-6.2); only vertex-facing groups pay it.
    pub turn_cost: u32,
    /// ANC-5.3 joining cost; None: the kind cannot join a stack.
    pub join: Option<u32>,
    /// ANC-5.1: may escort an elephant (light infantry) / is escorted (elephant).
    pub escort: bool,
    pub escorted: bool,
}

/// Refusal clause ids by key (see `docs/facing.md`).
const CLAUSE_KEYS: &[&str] = &[
    "adjacent",
    "immobile",
    "distance",
    "budget",
    "friendly",
    "enemy_hex",
    "melee",
    "front_to_front",
    "phalanx_front",
    "front_stop",
    "turn",
    "join",
    "stack",
    "facing",
    "terrain",
];

/// A compiled facing declaration.
#[derive(Debug, Clone)]
pub struct FacingRules {
    pub model: Model,
    sides: Vec<String>,
    kinds: BTreeMap<String, KindRule>,
    /// TAC-1 distance (default 2).
    pub near: u32,
    /// Statuses that take a unit out of good order (ANC, TA-R10/R16).
    pub not_in_order: Vec<String>,
    /// Boolean attribute that makes any unit a skirmisher (TA-R7).
    pub skirmisher_flag: String,
    /// Max escorts per elephant stack (ANC-5.1, default 2).
    pub max_escorts: usize,
    impassable: Vec<bool>,
    clauses: BTreeMap<String, String>,
}

fn decl_err(s: impl Into<String>) -> FacingError {
    FacingError::Declaration(s.into())
}

fn str_list(v: Option<&Value>, at: &str) -> Result<Vec<String>, FacingError> {
    match v {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| decl_err(format!("{at}: expected a list of names")))
            })
            .collect(),
        Some(Value::Object(o)) if o.is_empty() => Ok(Vec::new()),
        Some(_) => Err(decl_err(format!("{at}: expected a list of names"))),
    }
}

fn uint(v: Option<&Value>, at: &str) -> Result<Option<u32>, FacingError> {
    match v {
        None => Ok(None),
        Some(x) => x
            .as_u64()
            .filter(|n| *n <= 4096)
            .map(|n| Some(n as u32))
            .ok_or_else(|| decl_err(format!("{at}: expected a whole number from 0 to 4096"))),
    }
}

fn boolean(v: Option<&Value>, at: &str) -> Result<bool, FacingError> {
    match v {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(decl_err(format!("{at}: expected true or false"))),
    }
}

const KIND_KEYS: &[&str] = &[
    "facing",
    "front",
    "leader",
    "skirmisher",
    "tactical",
    "immobile",
    "turn_cost",
    "join",
    "escort",
    "escorted",
];

fn kind_rule(name: &str, v: &Value) -> Result<KindRule, FacingError> {
    let at = format!("kinds.{name}");
    let o = v
        .as_object()
        .ok_or_else(|| decl_err(format!("{at}: expected a table")))?;
    for k in o.keys() {
        if !KIND_KEYS.contains(&k.as_str()) {
            return Err(decl_err(format!(
                "{at}: unknown key '{k}' (expected one of: {})",
                KIND_KEYS.join(", ")
            )));
        }
    }
    let leader = boolean(o.get("leader"), &format!("{at}.leader"))?;
    let facing = match o.get("facing").and_then(Value::as_str) {
        None if leader => FacingType::None,
        None | Some("edge") => FacingType::Edge,
        Some("vertex") => FacingType::Vertex,
        Some("none") => FacingType::None,
        Some(other) => {
            return Err(decl_err(format!(
                "{at}.facing: '{other}' is not one of edge, vertex, none"
            )))
        }
    };
    let front = match o.get("front") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| {
                x.as_i64()
                    .filter(|n| (-5..=5).contains(n))
                    .map(|n| n as i8)
                    .ok_or_else(|| {
                        decl_err(format!(
                            "{at}.front: offsets are whole numbers from -5 to 5"
                        ))
                    })
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(Value::String(s)) if s == "all" => vec![0, 1, 2, 3, 4, 5],
        Some(Value::Object(x)) if x.is_empty() => Vec::new(),
        Some(_) => {
            return Err(decl_err(format!(
                "{at}.front: expected a list of offsets or \"all\""
            )))
        }
        None => match facing {
            FacingType::Edge => vec![-1, 0, 1],
            FacingType::Vertex => vec![-1, 0],
            FacingType::None => Vec::new(),
        },
    };
    Ok(KindRule {
        facing,
        front: if facing == FacingType::None {
            Vec::new()
        } else {
            front
        },
        leader,
        skirmisher: boolean(o.get("skirmisher"), &format!("{at}.skirmisher"))?,
        tactical: uint(o.get("tactical"), &format!("{at}.tactical"))?,
        immobile: boolean(o.get("immobile"), &format!("{at}.immobile"))?,
        turn_cost: uint(o.get("turn_cost"), &format!("{at}.turn_cost"))?.unwrap_or(0),
        join: uint(o.get("join"), &format!("{at}.join"))?,
        escort: boolean(o.get("escort"), &format!("{at}.escort"))?,
        escorted: boolean(o.get("escorted"), &format!("{at}.escorted"))?,
    })
}

const TOP_KEYS: &[&str] = &[
    "model",
    "sides",
    "kinds",
    "near",
    "not_in_order",
    "skirmisher_flag",
    "max_escorts",
    "impassable",
    "clauses",
];

impl FacingRules {
    /// Compiles a `facing` declaration (the Lua table as JSON) for one map.
    pub fn compile(decl: &Value, map: &HexMap) -> Result<FacingRules, FacingError> {
        let o = decl
            .as_object()
            .ok_or_else(|| decl_err("expected a table"))?;
        for k in o.keys() {
            if !TOP_KEYS.contains(&k.as_str()) {
                return Err(decl_err(format!(
                    "unknown key '{k}' (expected one of: {})",
                    TOP_KEYS.join(", ")
                )));
            }
        }
        let model = match o.get("model").and_then(Value::as_str) {
            Some("tactical") => Model::Tactical,
            Some("ancients") => Model::Ancients,
            _ => return Err(decl_err("model: expected \"tactical\" or \"ancients\"")),
        };
        let sides = str_list(o.get("sides"), "sides")?;
        if sides.is_empty() || sides.len() > 8 {
            return Err(decl_err("sides: expected 1 to 8 side names"));
        }
        let mut kinds = BTreeMap::new();
        match o.get("kinds") {
            Some(Value::Object(k)) => {
                for (name, v) in k {
                    kinds.insert(name.clone(), kind_rule(name, v)?);
                }
            }
            _ => return Err(decl_err("kinds: expected a table by unit type")),
        }
        let mut impassable = vec![false; map.terrain_names().len()];
        for t in str_list(o.get("impassable"), "impassable")? {
            match map.terrain_names().iter().position(|n| *n == t) {
                Some(i) => impassable[i] = true,
                None => {
                    return Err(decl_err(format!(
                        "impassable: unknown terrain '{t}' (this map has: {})",
                        map.terrain_names().join(", ")
                    )))
                }
            }
        }
        let mut clauses = BTreeMap::new();
        if let Some(c) = o.get("clauses") {
            let c = c
                .as_object()
                .ok_or_else(|| decl_err("clauses: expected a table"))?;
            for (k, v) in c {
                if !CLAUSE_KEYS.contains(&k.as_str()) {
                    return Err(decl_err(format!(
                        "clauses: unknown key '{k}' (expected one of: {})",
                        CLAUSE_KEYS.join(", ")
                    )));
                }
                let id = v
                    .as_str()
                    .ok_or_else(|| decl_err(format!("clauses.{k}: expected a clause id")))?;
                clauses.insert(k.clone(), id.to_string());
            }
        }
        Ok(FacingRules {
            model,
            sides,
            kinds,
            near: uint(o.get("near"), "near")?.unwrap_or(2),
            not_in_order: str_list(o.get("not_in_order"), "not_in_order")?,
            skirmisher_flag: o
                .get("skirmisher_flag")
                .and_then(Value::as_str)
                .unwrap_or("skirmisher")
                .to_string(),
            max_escorts: uint(o.get("max_escorts"), "max_escorts")?.unwrap_or(2) as usize,
            impassable,
            clauses,
        })
    }

    pub fn kind(&self, kind: &str) -> Option<&KindRule> {
        self.kinds.get(kind)
    }

    fn side_id(&self, side: &str) -> Option<u8> {
        self.sides.iter().position(|s| s == side).map(|i| i as u8)
    }

    /// The clause id declared for a refusal key, or the key itself.
    pub fn clause(&self, key: &str) -> String {
        self.clauses
            .get(key)
            .cloned()
            .unwrap_or_else(|| key.to_string())
    }

    /// ANC-5.1 / TA-R19: whether troops of these kinds (leaders ignored) may share a hex.
    pub fn stack_legal<'a>(&self, kinds: impl IntoIterator<Item = &'a str>) -> bool {
        let mut troops: Vec<&KindRule> = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        for k in kinds {
            match self.kinds.get(k) {
                Some(r) if r.leader => {}
                Some(r) => {
                    troops.push(r);
                    names.push(k);
                }
                None => return false,
            }
        }
        if names.windows(2).all(|w| w[0] == w[1]) {
            return true;
        }
        let escorts = troops.iter().filter(|r| r.escort).count();
        let elephants = troops.iter().filter(|r| r.escorted).count();
        elephants > 0 && elephants + escorts == troops.len() && escorts <= self.max_escorts
    }
}

/// One unit as the facing engine sees it.
#[derive(Debug, Clone)]
struct Piece {
    hex: HexIndex,
    side: u8,
    kind: String,
    facing: Facing,
    leader: bool,
    skirmisher: bool,
    in_order: bool,
    ma: f64,
    /// Front edge directions (union of both bases' arcs), 6-bit mask.
    front: u8,
}

// Per-side, per-hex flags.
const ENEMY: u8 = 1; // holds an enemy unit
const ENEMY_FRONT: u8 = 2; // in the front of an enemy in good order (ANC-7.3)
const CONTACT: u8 = 4; // adjacent to an enemy non-leader in good order (TA-R10)
const NEAR: u8 = 8; // within `near` of a counting enemy (TA-R3)

/// The position snapshot for facing searches: units placed, and per side the flags each hex
/// carries for a mover of that side. Build once per position.
#[derive(Debug, Clone)]
pub struct FacingBoard {
    pieces: Vec<Option<Piece>>,
    ids: BTreeMap<String, usize>,
    /// `(hex, piece)`, sorted.
    by_hex: Vec<(HexIndex, usize)>,
    flags: Vec<Vec<u8>>,
    /// TA-R9: per side, per hex, how many enemy fronts (non-skirmisher, non-leader) hold it.
    fh: Vec<Vec<u8>>,
}

fn neighbors(map: &HexMap, hex: HexIndex) -> [Option<HexIndex>; 6] {
    let mut out = [None; 6];
    for (d, n) in map.neighbors(hex) {
        out[d.index() as usize] = Some(n);
    }
    out
}

fn unit_facing(rules: &FacingRules, unit: &Unit, rule: &KindRule) -> Facing {
    if rule.facing == FacingType::None {
        return Facing::None;
    }
    let f = unit.facing.unwrap_or(0) % 6;
    let f2 = unit
        .attrs
        .get("facing2")
        .and_then(Value::as_u64)
        .map(|v| (v % 6) as u8);
    match (rules.model, f2) {
        (Model::Tactical, Some(g)) if rule.facing == FacingType::Edge => Facing::Two(f, g),
        _ => Facing::One(f),
    }
}

fn arc_of(facing: Facing, rule: &KindRule) -> u8 {
    match facing {
        Facing::None => 0,
        Facing::One(f) => front_mask(f, &rule.front),
        Facing::Two(a, b) => front_mask(a, &rule.front) | front_mask(b, &rule.front),
    }
}

impl FacingBoard {
    pub fn build(
        map: &HexMap,
        rules: &FacingRules,
        units: &[Unit],
    ) -> Result<FacingBoard, FacingError> {
        let mut pieces = Vec::with_capacity(units.len());
        let mut ids = BTreeMap::new();
        let mut by_hex = Vec::new();
        for (i, u) in units.iter().enumerate() {
            ids.insert(u.id.clone(), i);
            let Some(at) = &u.at else {
                pieces.push(None);
                continue;
            };
            let hex = map.parse_label(at).ok_or_else(|| {
                FacingError::Position(format!("{}: '{at}' is not a hex of the map", u.id))
            })?;
            let side = rules.side_id(&u.side).ok_or_else(|| {
                FacingError::Position(format!("{}: side '{}' is not declared", u.id, u.side))
            })?;
            let rule = rules.kind(&u.kind).ok_or_else(|| {
                FacingError::Position(format!(
                    "{}: unit type '{}' has no entry in facing.kinds",
                    u.id, u.kind
                ))
            })?;
            let facing = unit_facing(rules, u, rule);
            pieces.push(Some(Piece {
                hex,
                side,
                kind: u.kind.clone(),
                facing,
                leader: rule.leader,
                skirmisher: rule.skirmisher || u.flag(&rules.skirmisher_flag),
                in_order: !rules.not_in_order.iter().any(|s| u.has_status(s)),
                ma: u.ma,
                front: arc_of(facing, rule),
            }));
            by_hex.push((hex, i));
        }
        by_hex.sort_unstable();
        let n = map.len() as usize;
        let nsides = rules.sides.len();
        let mut flags = vec![vec![0u8; n]; nsides];
        let mut fh = vec![vec![0u8; n]; nsides];
        for p in pieces.iter().flatten() {
            // TA-R3: an isolated leader (no non-leader of its side in or next to its hex) does
            // not count for TAC-1.
            let counting = !p.leader || {
                let mut around = vec![p.hex];
                around.extend(neighbors(map, p.hex).into_iter().flatten());
                pieces
                    .iter()
                    .flatten()
                    .any(|q| q.side == p.side && !q.leader && around.contains(&q.hex))
            };
            let adj = neighbors(map, p.hex);
            for s in 0..nsides {
                if s as u8 == p.side {
                    continue;
                }
                let fl = &mut flags[s];
                fl[p.hex as usize] |= ENEMY;
                for (d, nb) in adj.iter().enumerate() {
                    let Some(nb) = *nb else { continue };
                    let in_front = p.front & (1 << d) != 0;
                    if in_front && p.in_order {
                        fl[nb as usize] |= ENEMY_FRONT;
                    }
                    if !p.leader && p.in_order {
                        fl[nb as usize] |= CONTACT;
                    }
                    if in_front && !p.skirmisher && !p.leader {
                        fh[s][nb as usize] = fh[s][nb as usize].saturating_add(1);
                    }
                }
                if counting && rules.model == Model::Tactical {
                    let c = map.hex(p.hex);
                    for h in c.range(rules.near) {
                        if let Some(i) = map.index(h) {
                            fl[i as usize] |= NEAR;
                        }
                    }
                }
            }
        }
        Ok(FacingBoard {
            pieces,
            ids,
            by_hex,
            flags,
            fh,
        })
    }

    fn at(&self, hex: HexIndex) -> impl Iterator<Item = (usize, &Piece)> + '_ {
        let lo = self.by_hex.partition_point(|e| e.0 < hex);
        self.by_hex[lo..]
            .iter()
            .take_while(move |e| e.0 == hex)
            .filter_map(|&(_, i)| self.pieces[i].as_ref().map(|p| (i, p)))
    }

    /// The index of a unit id in the units given to `build`.
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.ids.get(id).copied()
    }

    /// ANC-5.4 / TA-R13: a group moves at the allowance of its slowest counter (whole MP).
    pub fn group_budget(&self, group: &[usize]) -> u32 {
        group
            .iter()
            .filter_map(|&i| self.pieces.get(i).and_then(Option::as_ref))
            .map(|p| p.ma.max(0.0).floor() as u32)
            .min()
            .unwrap_or(0)
    }

    /// The front hexes of a unit (its arc, TA-R2; none for leaders), in direction order.
    pub fn front_hexes(&self, map: &HexMap, unit: usize) -> Vec<HexIndex> {
        let Some(p) = self.pieces.get(unit).and_then(Option::as_ref) else {
            return Vec::new();
        };
        neighbors(map, p.hex)
            .iter()
            .enumerate()
            .filter(|(d, n)| n.is_some() && p.front & (1 << d) != 0)
            .filter_map(|(_, n)| *n)
            .collect()
    }

    /// Whether the hex is in contact for `side` (TA-R10).
    pub fn in_contact(&self, side_of_unit: usize, hex: HexIndex) -> bool {
        self.pieces[side_of_unit]
            .as_ref()
            .is_some_and(|p| self.flags[p.side as usize][hex as usize] & CONTACT != 0)
    }
}

/// A refused move order: the clause key (see `CLAUSE_KEYS`), its declared id, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{clause}: {reason}")]
pub struct FacingRefusal {
    pub key: &'static str,
    pub clause: String,
    pub reason: String,
}

/// One reachable end state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FacingReached {
    pub hex: HexIndex,
    pub facing: Facing,
    pub cost: u32,
    /// The hexes entered, in order (empty for a turn in place).
    pub path: Vec<HexIndex>,
}

/// Options of a facing search.
#[derive(Debug, Clone, Copy, Default)]
pub struct FacingOptions {
    /// ANC-6.3 / TA-R15: list the in-contact 60° turns in place of a phalanx group (the caller
    /// has passed, or will make, the morale test).
    pub contact_turn: bool,
}

/// The moving group, resolved against the board.
struct Group {
    members: Vec<usize>,
    start: HexIndex,
    side: u8,
    facing: Facing,
    vertex: bool,
    leaders_only: bool,
    skirmisher: bool,
    immobile: bool,
    tactical: Option<u32>,
    turn_cost: u32,
    /// Largest joining cost among troop kinds; None when one cannot join.
    join: Option<u32>,
    kinds: Vec<String>,
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
        skirmisher: true,
        immobile: false,
        tactical: None,
        turn_cost: 0,
        join: Some(0),
        kinds: Vec::new(),
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
        g.tactical = match (g.tactical, rule.tactical) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        g.kinds.push(p.kind.clone());
        if !p.leader {
            if g.leaders_only {
                g.facing = p.facing;
            }
            g.leaders_only = false;
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
    Ok(g)
}

/// The facings an unconstrained unit may end in (TA-R5, TA-R11): all of them.
fn all_facings(f: Facing) -> Vec<Facing> {
    match f {
        Facing::None => vec![Facing::None],
        Facing::One(_) => (0..6).map(Facing::One).collect(),
        Facing::Two(_, _) => (0..36).map(|i| Facing::Two(i / 6, i % 6)).collect(),
    }
}

/// Where the search may step next: anywhere (reach) or along an order's hexes (check).
#[derive(Clone, Copy)]
enum Course<'a> {
    Free,
    Along(&'a [HexIndex]),
}

/// Node ids: a hex (free) or a position along the order (constrained).
fn node_hex(course: Course, start: HexIndex, node: u32) -> HexIndex {
    match course {
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

fn start_node(course: Course, start: HexIndex) -> u32 {
    match course {
        Course::Free => start,
        Course::Along(_) => 0,
    }
}

fn successors(
    map: &HexMap,
    course: Course,
    start: HexIndex,
    node: u32,
) -> Vec<(u8, u32, HexIndex)> {
    let hex = node_hex(course, start, node);
    let nb = neighbors(map, hex);
    match course {
        Course::Free => nb
            .iter()
            .enumerate()
            .filter_map(|(d, n)| n.map(|n| (d as u8, n, n)))
            .collect(),
        Course::Along(p) => match p.get(node as usize) {
            Some(&next) => nb
                .iter()
                .position(|n| *n == Some(next))
                .map(|d| vec![(d as u8, node + 1, next)])
                .unwrap_or_default(),
            None => Vec::new(),
        },
    }
}

/// Records the furthest refusal met along an order (check mode).
#[derive(Default)]
struct Why {
    best: Option<(u32, &'static str, String)>,
}

impl Why {
    fn note(&mut self, depth: u32, key: &'static str, reason: impl FnOnce() -> String) {
        if self.best.as_ref().is_none_or(|b| depth > b.0) {
            self.best = Some((depth, key, reason()));
        }
    }
}

struct Raw {
    /// (node, facing, cost, arena index)
    ends: Vec<(u32, Facing, u32, usize)>,
    /// (node, parent)
    arena: Vec<(u32, usize)>,
}

impl Raw {
    fn path(&self, course: Course, start: HexIndex, mut i: usize) -> Vec<HexIndex> {
        let mut out = Vec::new();
        while i != usize::MAX {
            let (node, parent) = self.arena[i];
            out.push(node_hex(course, start, node));
            i = parent;
        }
        out.reverse();
        out.dedup(); // turns in place repeat a hex
        out.remove(0); // the start
        out
    }
}

/// The facing-aware reach of a group (unit indices into the units given to the board).
pub fn reach_facing(
    map: &HexMap,
    rules: &FacingRules,
    board: &FacingBoard,
    group: &[usize],
    budget: u32,
    opts: FacingOptions,
) -> Result<Vec<FacingReached>, FacingError> {
    let g = group_of(rules, board, group)?;
    let mut why = Why::default();
    let raw = search(map, rules, board, &g, budget, opts, Course::Free, &mut why);
    let mut best: BTreeMap<(HexIndex, Facing), (u32, usize)> = BTreeMap::new();
    for &(node, facing, cost, idx) in &raw.ends {
        let hex = node_hex(Course::Free, g.start, node);
        if hex == g.start && facing == g.facing {
            continue; // TA-R20: the start state is never listed
        }
        let e = best.entry((hex, facing)).or_insert((cost, idx));
        if cost < e.0 {
            *e = (cost, idx);
        }
    }
    Ok(best
        .into_iter()
        .map(|((hex, facing), (cost, idx))| FacingReached {
            hex,
            facing,
            cost,
            path: raw.path(Course::Free, g.start, idx),
        })
        .collect())
}

/// Checks a move order: the hexes entered (not the start) and the end facing. Ok(cost) or
/// the refusal naming the clause.
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
    let g = group_of(rules, board, group)?;
    let refuse = |key: &'static str, reason: String| {
        Ok(Err(FacingRefusal {
            key,
            clause: rules.clause(key),
            reason,
        }))
    };
    if path.is_empty() && facing == g.facing {
        return refuse(
            "adjacent",
            "not a move: same hex, same facing (TA-R5)".into(),
        );
    }
    let mut prev = g.start;
    for (i, &h) in path.iter().enumerate() {
        if map.distance(prev, h) != 1 {
            return refuse(
                "adjacent",
                format!("step {} does not lead to an adjacent hex", i + 1),
            );
        }
        prev = h;
    }
    let mut why = Why::default();
    let course = Course::Along(path);
    let raw = search(map, rules, board, &g, budget, opts, course, &mut why);
    let last = path.len() as u32;
    let end = raw
        .ends
        .iter()
        .filter(|e| e.0 == last && e.1 == facing)
        .map(|e| e.2)
        .min();
    if let Some(c) = end {
        return Ok(Ok(c));
    }
    if raw.ends.iter().any(|e| e.0 == last) {
        if let Some((_, "turn", reason)) = why.best {
            return refuse("turn", reason);
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

#[allow(clippy::too_many_arguments)]
fn search(
    map: &HexMap,
    rules: &FacingRules,
    board: &FacingBoard,
    g: &Group,
    budget: u32,
    opts: FacingOptions,
    course: Course,
    why: &mut Why,
) -> Raw {
    match rules.model {
        Model::Tactical => tactical(map, rules, board, g, budget, course, why),
        Model::Ancients => ancients(map, rules, board, g, budget, opts, course, why),
    }
}

fn passable(map: &HexMap, rules: &FacingRules, hex: HexIndex) -> bool {
    !rules.impassable[map.terrain_id(hex) as usize]
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

/// TAC (TA-R3..R9). State: (node, first enemy-front hex left, tactical so far); breadth
/// first, so each state is settled at its least hex count.
fn tactical(
    map: &HexMap,
    rules: &FacingRules,
    board: &FacingBoard,
    g: &Group,
    budget: u32,
    course: Course,
    why: &mut Why,
) -> Raw {
    let mut raw = Raw {
        ends: Vec::new(),
        arena: Vec::new(),
    };
    if g.immobile {
        why.note(0, "immobile", || {
            "unlimbered artillery neither moves nor re-faces (TA-R4)".into()
        });
        return raw;
    }
    let flags = &board.flags[g.side as usize];
    let fh = &board.fh[g.side as usize];
    let cap_tactical = g.tactical.unwrap_or(budget);
    let front_rule = !g.skirmisher; // TAC-7 spares skirmishers
    type Key = (u32, u32, bool); // node, left FH hex (u32::MAX none), tactical
    let start_tac = flags[g.start as usize] & NEAR != 0;
    let mut seen: HashMap<Key, ()> = HashMap::new();
    let mut queue: VecDeque<(Key, u32, usize, bool)> = VecDeque::new();
    let n0 = start_node(course, g.start);
    let k0 = (n0, u32::MAX, start_tac);
    seen.insert(k0, ());
    raw.arena.push((n0, usize::MAX));
    queue.push_back((k0, 0, 0, false));
    while let Some(((node, left, tac), steps, idx, stopped)) = queue.pop_front() {
        let hex = node_hex(course, g.start, node);
        // An end state here: TA-R7, a non-leader never ends with a friendly non-leader.
        let blocked_end = !g.leaders_only && friends(board, g, hex).any(|p| !p.leader);
        if !blocked_end {
            for f in all_facings(g.facing) {
                raw.ends.push((node, f, steps, idx));
            }
        } else {
            why.note(node, "friendly", || {
                format!(
                    "{} holds a friendly unit; only leaders may end there (TAC-5)",
                    map.label(hex)
                )
            });
        }
        if stopped {
            why.note(node + 1, "melee", || {
                format!(
                    "entering the enemy hex {} ended the move in a melee (TAC-6)",
                    map.label(hex)
                )
            });
            continue;
        }
        // Leaving `hex`: TA-R9 remembers the first enemy-front hex left.
        let left_now = if left == u32::MAX && front_rule && fh[hex as usize] > 0 {
            hex
        } else {
            left
        };
        for (_d, next_node, n) in successors(map, course, g.start, node) {
            let nsteps = steps + 1;
            let ntac = tac || flags[n as usize] & NEAR != 0;
            let cap = if ntac { cap_tactical } else { budget };
            let depth = next_node;
            if nsteps > cap {
                why.note(depth, if ntac { "distance" } else { "budget" }, || {
                    if ntac {
                        format!("a tactical move is at most {cap_tactical} hexes (TAC-2)")
                    } else {
                        format!("the unit moves at most {budget} hexes")
                    }
                });
                continue;
            }
            if !passable(map, rules, n) {
                why.note(depth, "terrain", || {
                    format!("{} cannot be entered", map.label(n))
                });
                continue;
            }
            let enemy = flags[n as usize] & ENEMY != 0;
            if !enemy && front_rule && left_now != u32::MAX && fh[n as usize] > 0 {
                let back_ok = n == left_now && fh[n as usize] < 2;
                if !back_ok {
                    why.note(depth, "front_to_front", || {
                        format!(
                            "having left the enemy front hex {}, the unit may not enter the enemy front hex {} (TAC-7)",
                            map.label(left_now),
                            map.label(n)
                        )
                    });
                    continue;
                }
            }
            if !enemy && !g.leaders_only {
                // TA-R7: crossing a friendly non-leader needs a skirmisher on one side.
                let mut troops = friends(board, g, n).filter(|p| !p.leader).peekable();
                if troops.peek().is_some() && !g.skirmisher && !troops.all(|p| p.skirmisher) {
                    why.note(depth, "friendly", || {
                        format!(
                            "{} holds a friendly unit; only skirmishers pass through (TAC-5)",
                            map.label(n)
                        )
                    });
                    continue;
                }
            }
            let key = (next_node, left_now, ntac);
            if seen.contains_key(&key) {
                continue;
            }
            seen.insert(key, ());
            raw.arena.push((next_node, idx));
            // TA-R8: entering an enemy hex ends the move (melee).
            queue.push_back((key, nsteps, raw.arena.len() - 1, enemy));
        }
    }
    raw
}

/// ANC (TA-R10..R19): Dijkstra over (node, facing, stopped).
#[allow(clippy::too_many_arguments)]
fn ancients(
    map: &HexMap,
    rules: &FacingRules,
    board: &FacingBoard,
    g: &Group,
    budget: u32,
    opts: FacingOptions,
    course: Course,
    why: &mut Why,
) -> Raw {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut raw = Raw {
        ends: Vec::new(),
        arena: Vec::new(),
    };
    if g.immobile {
        why.note(0, "immobile", || "this unit does not move".into());
        return raw;
    }
    let flags = &board.flags[g.side as usize];
    let f0 = match g.facing {
        Facing::One(f) => f,
        _ => 0,
    };
    // The phalanx front (steps, ANC-7.2): the vertex arc of the group's phalanx kind.
    let step_offsets: Vec<i8> = if g.vertex {
        g.kinds
            .iter()
            .filter_map(|k| rules.kind(k))
            .find(|r| r.facing == FacingType::Vertex)
            .map(|r| r.front.clone())
            .unwrap_or_else(|| vec![-1, 0])
    } else {
        Vec::new()
    };
    // Key: node, facing (phalanx only, else 0), stopped, joined-facing (6 = none).
    type Key = (u32, u8, bool, u8);
    let mut dist: HashMap<Key, u32> = HashMap::new();
    let mut heap = BinaryHeap::new();
    let n0 = start_node(course, g.start);
    let k0: Key = (n0, f0, false, 6);
    dist.insert(k0, 0);
    raw.arena.push((n0, usize::MAX));
    heap.push(Reverse((0u32, k0, 0usize)));
    // TA-R15: the in-contact turn in place, as the group's only action.
    if opts.contact_turn && g.vertex && flags[g.start as usize] & CONTACT != 0 {
        for o in [-1i8, 1] {
            raw.ends.push((n0, Facing::One(rotate(f0, o)), budget, 0));
        }
    }
    let mut settled: HashMap<Key, ()> = HashMap::new();
    while let Some(Reverse((cost, key, idx))) = heap.pop() {
        if settled.contains_key(&key) {
            continue;
        }
        settled.insert(key, ());
        let (node, facing, stopped, joined) = key;
        let hex = node_hex(course, g.start, node);
        // End states.
        if joined < 6 {
            raw.ends.push((node, Facing::One(joined), cost, idx));
            continue;
        }
        if g.leaders_only {
            raw.ends.push((node, Facing::None, cost, idx));
        } else if g.vertex {
            raw.ends.push((node, Facing::One(facing), cost, idx));
        } else {
            for f in all_facings(g.facing) {
                raw.ends.push((node, f, cost, idx));
            }
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
        let mut push = |k: Key, c: u32, from: usize, raw: &mut Raw| {
            if dist.get(&k).is_none_or(|&d| c < d) {
                dist.insert(k, c);
                raw.arena.push((k.0, from));
                heap.push(Reverse((c, k, raw.arena.len() - 1)));
            }
        };
        // ANC-6.2 / TA-R14: turns out of contact.
        if g.vertex {
            if flags[hex as usize] & CONTACT == 0 {
                for o in [-1i8, 1] {
                    let c = cost + g.turn_cost;
                    if c <= budget {
                        push((node, rotate(facing, o), false, 6), c, idx, &mut raw);
                    } else {
                        why.note(node, "turn", || {
                            "not enough MP left to turn (ANC-6.2)".into()
                        });
                    }
                }
            } else {
                why.note(node, "turn", || {
                    format!("in contact at {}: a phalanx turns only by spending its whole movement after a morale test (ANC-6.3)", map.label(hex))
                });
            }
        }
        for (d, next_node, n) in successors(map, course, g.start, node) {
            let depth = next_node;
            if g.vertex && front_mask(facing, &step_offsets) & (1 << d) == 0 {
                why.note(depth, "phalanx_front", || {
                    format!("a phalanx facing vertex {facing} moves only into its 2 front hexes (ANC-7.2)")
                });
                continue;
            }
            if !passable(map, rules, n) {
                why.note(depth, "terrain", || {
                    format!("{} cannot be entered", map.label(n))
                });
                continue;
            }
            if flags[n as usize] & ENEMY != 0 {
                why.note(depth, "enemy_hex", || {
                    format!("{} holds an enemy unit (TA-R12)", map.label(n))
                });
                continue;
            }
            let c = cost + 1;
            let troops: Vec<&Piece> = friends(board, g, n).filter(|p| !p.leader).collect();
            if !troops.is_empty() && !g.leaders_only {
                // TA-R18: joining a stack, as the last step.
                let Some(join) = g.join else {
                    why.note(depth, "join", || {
                        "a troop type of the group cannot join a stack (ANC-5.3)".into()
                    });
                    continue;
                };
                let c = c + join;
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
                let kinds = troops
                    .iter()
                    .map(|p| p.kind.as_str())
                    .chain(g.kinds.iter().map(String::as_str));
                if !rules.stack_legal(kinds) {
                    why.note(depth, "stack", || {
                        format!(
                            "the stack at {} would mix troop types (ANC-5.1)",
                            map.label(n)
                        )
                    });
                    continue;
                }
                let sf = match troops[0].facing {
                    Facing::One(f) => f,
                    _ => 0,
                };
                if g.vertex && sf != facing {
                    why.note(depth, "join", || {
                        "a phalanx joins a stack only already facing its way (TA-R18)".into()
                    });
                    continue;
                }
                push((next_node, facing, true, sf), c, idx, &mut raw);
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
            push((next_node, facing, stop, 6), c, idx, &mut raw);
        }
    }
    raw
}
