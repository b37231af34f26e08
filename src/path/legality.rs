//! Checking one given path (a move order) and refusing it with the clause that forbids it
//! (DESIGN.md principle 7: `F40-6.4: non-motorized unit cannot move from enemy ZOC to enemy ZOC`).
//!
//! The clause ids and texts come from the declaration's `clauses` table, so the engine stays
//! game-neutral; texts may use `{side}`, `{class}`, `{terrain}`, `{features}`, `{cost}` and
//! `{budget}`.

use std::fmt;

use serde_json::Value;

use super::decl::{self, join};
use super::error::{DeclarationError, PositionError};
use super::mp::Mp;
use super::occupancy::Occupancy;
use super::rules::PathRules;
use super::step::{Block, Mover, Stepper};
use super::topology::OFF_MAP;
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

/// Which rule refused a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleKind {
    /// The path does not begin at the unit's hex.
    Start,
    /// Two successive hexes are not adjacent.
    Adjacent,
    /// The terrain of the hex entered is prohibited to the unit.
    Terrain,
    /// The hexside crossed is prohibited to the unit.
    Hexside,
    /// The hex entered holds an enemy unit that bars entry.
    EnemyOccupied,
    /// The unit goes on after entering an enemy ZOC.
    ZocStop,
    /// The unit steps directly from enemy ZOC to enemy ZOC.
    ZocToZoc,
    /// The unit enters an enemy ZOC across a hexside that forbids it.
    AcrossIntoZoc,
    /// The unit enters enemy territory across a hexside that forbids it.
    AcrossIntoTerritory,
    /// The path costs more than the budget.
    Budget,
}

impl RuleKind {
    pub const ALL: [RuleKind; 10] = [
        RuleKind::Start,
        RuleKind::Adjacent,
        RuleKind::Terrain,
        RuleKind::Hexside,
        RuleKind::EnemyOccupied,
        RuleKind::ZocStop,
        RuleKind::ZocToZoc,
        RuleKind::AcrossIntoZoc,
        RuleKind::AcrossIntoTerritory,
        RuleKind::Budget,
    ];

    /// The key of this rule in the declaration's `clauses` table.
    pub fn key(self) -> &'static str {
        match self {
            RuleKind::Start => "start",
            RuleKind::Adjacent => "adjacent",
            RuleKind::Terrain => "terrain",
            RuleKind::Hexside => "hexside",
            RuleKind::EnemyOccupied => "enemy_occupied",
            RuleKind::ZocStop => "zoc_stop",
            RuleKind::ZocToZoc => "zoc_to_zoc",
            RuleKind::AcrossIntoZoc => "across_into_zoc",
            RuleKind::AcrossIntoTerritory => "across_into_territory",
            RuleKind::Budget => "budget",
        }
    }

    fn default_text(self) -> &'static str {
        match self {
            RuleKind::Start => "a path must start at the unit's hex",
            RuleKind::Adjacent => "each hex of a path must be adjacent to the one before",
            RuleKind::Terrain => "{class} units may not enter {terrain}",
            RuleKind::Hexside => "{side} {class} units may not cross this hexside ({features})",
            RuleKind::EnemyOccupied => "a unit never enters an enemy-occupied hex",
            RuleKind::ZocStop => "a unit that enters an enemy ZOC stops there",
            RuleKind::ZocToZoc => "{class} unit cannot move from enemy ZOC to enemy ZOC",
            RuleKind::AcrossIntoZoc => {
                "no unit may enter an enemy ZOC across this hexside ({features})"
            }
            RuleKind::AcrossIntoTerritory => {
                "no unit may enter enemy territory across this hexside ({features})"
            }
            RuleKind::Budget => {
                "the path costs {cost} MP by this step, more than the {budget} MP allowed"
            }
        }
    }
}

/// Clause id and text per rule, from the declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clauses {
    entries: Vec<(String, String)>,
}

impl Default for Clauses {
    fn default() -> Self {
        Clauses {
            entries: RuleKind::ALL
                .iter()
                .map(|k| (String::new(), k.default_text().to_string()))
                .collect(),
        }
    }
}

impl Clauses {
    /// `clauses = { zoc_to_zoc = "F40-6.4", terrain = { id = "F40-9.2", text = "..." } }`.
    pub fn compile(v: Option<&Value>) -> Result<Clauses, DeclarationError> {
        let mut out = Clauses::default();
        let Some(v) = v else { return Ok(out) };
        let keys: Vec<&str> = RuleKind::ALL.iter().map(|k| k.key()).collect();
        let Some(m) = decl::table(v, "clauses", &keys)? else {
            return Ok(out);
        };
        for (i, kind) in RuleKind::ALL.iter().enumerate() {
            let Some(entry) = m.get(kind.key()) else {
                continue;
            };
            let at = join("clauses", kind.key());
            match entry {
                Value::String(id) => out.entries[i].0 = id.clone(),
                Value::Object(_) => {
                    let t = decl::table(entry, &at, &["id", "text"])?
                        .cloned()
                        .unwrap_or_default();
                    let text = |k: &str| -> Result<Option<String>, DeclarationError> {
                        t.get(k)
                            .map(|v| {
                                v.as_str()
                                    .map(str::to_string)
                                    .ok_or_else(|| decl::bad(&join(&at, k), "a string", v))
                            })
                            .transpose()
                    };
                    if let Some(id) = text("id")? {
                        out.entries[i].0 = id;
                    }
                    if let Some(tx) = text("text")? {
                        out.entries[i].1 = tx;
                    }
                }
                other => {
                    return Err(decl::bad(
                        &at,
                        "a clause id or { id = ..., text = ... }",
                        other,
                    ))
                }
            }
        }
        Ok(out)
    }

    fn get(&self, kind: RuleKind) -> &(String, String) {
        &self.entries[kind as usize]
    }
}

/// A refused path: which rule, at which step, in the designer's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct MoveRefusal {
    pub kind: RuleKind,
    /// The clause id from the declaration (`F40-6.4`), empty when none was declared.
    pub clause: String,
    pub message: String,
    /// 1-based index of the refused step (0 for a path that does not start at the unit).
    pub step: usize,
    pub from: String,
    pub to: String,
}

impl fmt::Display for MoveRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.clause.is_empty() {
            write!(f, "{}: ", self.clause)?;
        }
        write!(f, "{}", self.message)?;
        if self.step > 0 {
            write!(f, " (step {}: {} to {})", self.step, self.from, self.to)?;
        }
        // (a path that lists the unit's own hex first reads as `step 1: 2620 to 2620`)
        if self.kind == RuleKind::Adjacent && self.from == self.to {
            let which = if self.step == 1 {
                "the unit's own hex"
            } else {
                "a hex twice"
            };
            write!(
                f,
                ": {which}; a path lists the hexes entered, one step each"
            )?;
        }
        Ok(())
    }
}

/// Checking a path failed: either the position is bad or the rules refuse the path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error(transparent)]
    Refused(#[from] MoveRefusal),
}

/// Checks that `unit` may follow `path` (its first hex is the unit's own) within `budget`,
/// and returns what it costs.
pub fn check_path(
    map: &HexMap,
    rules: &PathRules,
    occ: &Occupancy,
    unit: &Unit,
    budget: Mp,
    path: &[HexIndex],
) -> Result<Mp, PathError> {
    let mover = Mover::new(map, rules, unit)?;
    let stepper = Stepper::new(map, rules, occ, mover);
    for &hex in path {
        if hex >= map.len() {
            return Err(PositionError::BadIndex {
                what: "path".into(),
                index: hex,
            }
            .into());
        }
    }
    let refuse = |kind: RuleKind,
                  step: usize,
                  from: HexIndex,
                  to: HexIndex,
                  extra: &[(&str, String)]|
     -> PathError {
        let (clause, text) = rules.clauses.get(kind);
        let profile = &rules.profile;
        let mut message = text
            .replace("{side}", &profile.sides()[mover.side as usize])
            .replace("{class}", &profile.classes()[mover.class])
            .replace("{terrain}", map.terrain_name(to))
            .replace("{features}", &map.hexside_features(from, to).join(", "));
        for (k, v) in extra {
            message = message.replace(k, v);
        }
        MoveRefusal {
            kind,
            clause: clause.clone(),
            message,
            step,
            from: map.label(from),
            to: map.label(to),
        }
        .into()
    };
    match path.first() {
        Some(&first) if first == mover.start => {}
        Some(&first) => return Err(refuse(RuleKind::Start, 0, mover.start, first, &[])),
        None => return Ok(Mp::ZERO),
    }
    let mut total = 0u32;
    for (i, pair) in path.windows(2).enumerate() {
        let (from, to) = (pair[0], pair[1]);
        let step = i + 1;
        if i > 0 && stepper.stops_at(from) {
            return Err(refuse(RuleKind::ZocStop, step, from, to, &[]));
        }
        let Some(dir) = rules
            .topology
            .neighbors(from)
            .iter()
            .position(|&n| n == to && n != OFF_MAP)
        else {
            return Err(refuse(RuleKind::Adjacent, step, from, to, &[]));
        };
        let cost = stepper
            .step(stepper.in_enemy_zoc(from), map.hexside_masks(from)[dir], to)
            .map_err(|block| {
                let kind = match block {
                    Block::EnemyOccupied => RuleKind::EnemyOccupied,
                    Block::Terrain => RuleKind::Terrain,
                    Block::Hexside => RuleKind::Hexside,
                    Block::ZocToZoc => RuleKind::ZocToZoc,
                    Block::AcrossIntoZoc => RuleKind::AcrossIntoZoc,
                    Block::AcrossIntoTerritory => RuleKind::AcrossIntoTerritory,
                };
                refuse(kind, step, from, to, &[])
            })?;
        total += cost;
        if total > budget.raw() {
            let extra = [
                ("{cost}", Mp(total).to_string()),
                ("{budget}", budget.to_string()),
            ];
            return Err(refuse(RuleKind::Budget, step, from, to, &extra));
        }
    }
    Ok(Mp(total))
}
