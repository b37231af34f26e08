//! Facing-aware movement (TAC and ANC, RULES.md): states are (hex, facing), the answer is
//! `{(hex, facing): least cost}` with the start state never listed (TA-R20).
//!
//! The game decisions are declared data ([`FacingRules::compile`], shape in `docs/facing.md`):
//! per unit kind its facing type (edge, vertex, none), front arc offsets, turn cost, TAC-2
//! tactical distance, ANC-5.3 joining cost; per game the model (`tactical` or `ancients`).
//! The search never calls back into the rules. Every step costs 1 (hexes in TAC, TA-R4; MP in
//! ANC, TA-R12); terrains listed in `impassable` are never entered and hexside features listed
//! in `impassable_hexsides` never crossed.
//!
//! - `tactical`: TAC-1..8 with readings TA-R3..R9. A breadth-first search over
//!   (hex, first enemy-front hex left, tactical so far); end facings are free (TA-R5).
//! - `ancients`: ANC-5..7 with readings TA-R10..R19. A Dijkstra over (hex, facing, stopped)
//!   (only phalanx groups turn, for MP; the others keep their facing and end in any, TA-R11).
//!
//! This file holds the compiled declaration and the position snapshot; the searches
//! themselves ([`super::facing_search`]) run over dense scratch arrays. `check_move` runs the
//! same search constrained to the hexes of an order, so an order is legal exactly when the
//! reach lists its end state (tests compare both).

use std::collections::BTreeMap;

use serde_json::Value;

use super::arc::{front_mask, Facing};
use super::topology::Topology;
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
    "stack_facing",
    "facing",
    "leader_facing",
    "terrain",
    "not_a_move",
    "contact_turn",
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
    /// Per terrain id: never entered.
    pub(super) impassable: Vec<bool>,
    /// Hexside features never crossed (bit = `HexMap::hexside_feature_id`).
    pub(super) impassable_hexsides: u32,
    clauses: BTreeMap<String, String>,
    /// Neighbour arithmetic for the map the rules were compiled for.
    pub(super) topology: Topology,
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

/// Refuses a kind whose keys its model never reads: a vertex kind or a turning cost in the
/// tactical model (where every end facing is free, TAC-3), a turning cost on an edge kind (only
/// a phalanx's turns cost, ANC-6.2). Each was accepted, and the troop then played as an edge
/// unit turning free, without a word.
fn model_fits(model: Model, name: &str, rule: &KindRule) -> Result<(), FacingError> {
    let at = format!("kinds.{name}");
    if model == Model::Tactical && rule.facing == FacingType::Vertex {
        return Err(decl_err(format!(
            "{at}.facing: 'vertex' is the ancients model's (a phalanx facing a hex corner, \
             ANC-6.1); the tactical model gives troops edge facings, every end facing free \
             (TAC-3): declare model = \"ancients\" for vertex troops"
        )));
    }
    if rule.turn_cost > 0 && (model == Model::Tactical || rule.facing != FacingType::Vertex) {
        return Err(decl_err(format!(
            "{at}.turn_cost: only a vertex kind of the ancients model pays to turn (ANC-6.2); \
             {} (a rule of your own that charges turns wraps the move command)",
            if model == Model::Tactical {
                "in the tactical model every end facing is free (TAC-3)"
            } else {
                "an edge kind ends its move with any facing"
            }
        )));
    }
    Ok(())
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
    "impassable_hexsides",
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
                    let rule = kind_rule(name, v)?;
                    model_fits(model, name, &rule)?;
                    kinds.insert(name.clone(), rule);
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
        let mut impassable_hexsides = 0u32;
        for t in str_list(o.get("impassable_hexsides"), "impassable_hexsides")? {
            match map.hexside_feature_id(&t) {
                Some(i) => impassable_hexsides |= 1 << i,
                None => {
                    return Err(decl_err(format!(
                        "impassable_hexsides: unknown hexside feature '{t}' (this map has: {})",
                        if map.hexside_feature_names().is_empty() {
                            "none".to_string()
                        } else {
                            map.hexside_feature_names().join(", ")
                        }
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
            impassable_hexsides,
            clauses,
            topology: Topology::new(map),
        })
    }

    /// The kinds that face a hex vertex (ANC-6.1: phalanxes), in name order.
    pub fn vertex_kinds(&self) -> Vec<String> {
        self.kinds
            .iter()
            .filter(|(_, rule)| rule.facing == FacingType::Vertex)
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Whether a unit of type `kind` has a facing rule: the message naming the kinds there
    /// are if not (a setup's `type = "dragon"` broke every listing later, inside the rules).
    pub fn knows_kind(&self, kind: &str) -> Result<(), String> {
        if self.kinds.contains_key(kind) {
            return Ok(());
        }
        let names: Vec<&str> = self.kinds.keys().map(String::as_str).collect();
        let near = crate::spelling::nearest(kind, names.iter().copied(), 3)
            .map(|n| format!(": did you mean '{n}'?"))
            .unwrap_or_default();
        Err(format!(
            "unit type '{kind}' has no facing rule{near} (the rules' facing kinds: {})",
            names.join(", ")
        ))
    }

    /// What `hexwar check` warns of in a unit of the scenario (its data alone decide it, and a
    /// slip plays on silently): a unit of a facing kind with no `facing` (it plays as facing
    /// 0), and an `attrs.facing2` that no rule reads (TAC-4: only edge-facing units of a
    /// tactical game have two bases).
    pub fn unit_warnings(&self, unit: &Unit) -> Vec<String> {
        let Some(rule) = self.kinds.get(&unit.kind) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if rule.facing != FacingType::None && unit.facing.is_none() {
            out.push(format!(
                "unit '{}' (type '{}') has no facing: it plays as facing 0 (give `facing`)",
                unit.id, unit.kind
            ));
        }
        let two_base = self.model == Model::Tactical && rule.facing == FacingType::Edge;
        if unit.attrs.contains_key("facing2") && !two_base {
            out.push(format!(
                "unit '{}' (type '{}'): attrs.facing2 is read only for edge-facing units of a \
                 tactical game (TAC-4); this one has one facing",
                unit.id, unit.kind
            ));
        }
        out
    }

    pub fn kind(&self, kind: &str) -> Option<&KindRule> {
        self.kinds.get(kind)
    }

    pub(super) fn side_id(&self, side: &str) -> Option<u8> {
        self.sides.iter().position(|s| s == side).map(|i| i as u8)
    }

    /// Whether the rules declare a clause id for refusal key `key`.
    pub fn declares_clause(&self, key: &str) -> bool {
        self.clauses.contains_key(key)
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

    /// What is wrong with a stack of these kinds that [`Self::stack_legal`] refuses, for its
    /// refusal: too many escorts with an escorted kind (`5 light escorts, at most 2`; escorts of
    /// several kinds are each named: `3 escorts (light, peltast)`), or kinds that do not stack.
    pub fn stack_fault<'a>(&self, kinds: impl IntoIterator<Item = &'a str>) -> String {
        let troops: Vec<(&str, &KindRule)> = kinds
            .into_iter()
            .filter_map(|k| self.kinds.get(k).map(|r| (k, r)))
            .filter(|(_, r)| !r.leader)
            .collect();
        let escorts: Vec<&str> = troops.iter().filter(|t| t.1.escort).map(|t| t.0).collect();
        let escorted: Vec<&str> = troops
            .iter()
            .filter(|t| t.1.escorted)
            .map(|t| t.0)
            .collect();
        if !escorted.is_empty()
            && escorted.len() + escorts.len() == troops.len()
            && escorts.len() > self.max_escorts
        {
            // (each kind of escort named: `3 light escorts`, `3 escorts (light, peltast)`)
            let mut escort_kinds = escorts.clone();
            escort_kinds.sort_unstable();
            escort_kinds.dedup();
            let escorts_named = match escort_kinds.as_slice() {
                [one] => format!("{} {one} escorts", escorts.len()),
                many => format!("{} escorts ({})", escorts.len(), many.join(", ")),
            };
            return format!(
                "would hold {escorts_named} with its {} (at most {})",
                escorted[0], self.max_escorts
            );
        }
        "would mix troop types".to_string()
    }
}

/// One unit as the facing engine sees it.
#[derive(Debug, Clone)]
pub(super) struct Piece {
    pub(super) hex: HexIndex,
    pub(super) side: u8,
    pub(super) kind: String,
    pub(super) facing: Facing,
    pub(super) leader: bool,
    pub(super) skirmisher: bool,
    pub(super) in_order: bool,
    ma: f64,
    /// Front edge directions (union of both bases' arcs), 6-bit mask.
    front: u8,
}

// Per-side, per-hex flags.
pub(super) const ENEMY: u8 = 1; // holds an enemy unit
pub(super) const ENEMY_FRONT: u8 = 2; // in the front of an enemy in good order (ANC-7.3)
pub(super) const CONTACT: u8 = 4; // adjacent to an enemy non-leader in good order (TA-R10)
pub(super) const NEAR: u8 = 8; // within `near` of a counting enemy (TA-R3)
/// Holds a non-leader of the mover's own side (the search treats the start hex apart: the
/// group's own counters are there).
pub(super) const OWN_TROOPS: u8 = 16;
/// Holds a non-leader, non-skirmisher of the mover's own side (TA-R7).
pub(super) const OWN_FORMED: u8 = 32;

/// The position snapshot for facing searches: units placed, and per side the flags each hex
/// carries for a mover of that side. Build once per position.
#[derive(Debug, Clone)]
pub struct FacingBoard {
    pub(super) pieces: Vec<Option<Piece>>,
    ids: BTreeMap<String, usize>,
    /// `(hex, piece)`, sorted.
    by_hex: Vec<(HexIndex, usize)>,
    pub(super) flags: Vec<Vec<u8>>,
    /// TA-R9: per side, per hex, how many enemy fronts (non-skirmisher, non-leader) hold it.
    pub(super) fh: Vec<Vec<u8>>,
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
                    if !p.leader {
                        flags[s][p.hex as usize] |= OWN_TROOPS;
                        if !p.skirmisher {
                            flags[s][p.hex as usize] |= OWN_FORMED;
                        }
                    }
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

    pub(super) fn at(&self, hex: HexIndex) -> impl Iterator<Item = (usize, &Piece)> + '_ {
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
/// Options of a facing search.
#[derive(Debug, Clone, Copy, Default)]
pub struct FacingOptions {
    /// ANC-6.3 / TA-R15: list the in-contact 60° turns in place of a phalanx group (the caller
    /// has passed, or will make, the morale test).
    pub contact_turn: bool,
}
