//! Rail movement (F40-10.1): any distance along friendly territory inside the unit's rail
//! zone, never starting in, passing through or ending in an enemy ZOC, never across the
//! declared hexsides (sea).
//!
//! Readings chosen here (the clause is silent): the start hex must itself be friendly and in
//! the zone; the clause names every limit of a route, and terrain is none of them, so a route
//! runs through terrain the unit's class may not enter by its own movement (a motorized unit
//! through marsh, F40-9.2) but never through a hex no unit of its side may enter (sea); friendly
//! units do not cancel enemy ZOC for rail (as for movement, R4).

use std::collections::VecDeque;

use serde_json::Value;

use super::decl::{self, join, UnitSelector, Vocabulary};
use super::error::{DeclarationError, PositionError};
use super::occupancy::{check_len, Occupancy};
use super::rules::PathRules;
use super::step::Mover;
use super::topology::OFF_MAP;
use super::SideId;
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RailPolicy {
    /// `(nation or side name, zone id)`: nation entries are looked up first.
    zones: Vec<(String, usize)>,
    /// Hexside features a rail route never crosses.
    pub blocked_by: u32,
    /// Units that may not use rail (F40-8.3: isolated ones).
    pub excluded: UnitSelector,
}

impl RailPolicy {
    pub(crate) fn compile(
        v: Option<&Value>,
        vocab: &Vocabulary,
        map: &HexMap,
    ) -> Result<RailPolicy, DeclarationError> {
        let Some(v) = v else {
            return Ok(RailPolicy::default());
        };
        let Some(m) = decl::table(v, "rail", &["zones", "blocked_by_hexsides", "excluded"])? else {
            return Ok(RailPolicy::default());
        };
        let mut zones = Vec::new();
        if let Some(z) = m.get("zones") {
            if let Some(z) = decl::table(z, "rail.zones", &[])? {
                for (who, zone) in z {
                    let at = join("rail.zones", who);
                    let name = zone
                        .as_str()
                        .ok_or_else(|| decl::bad(&at, "a zone name", zone))?;
                    if let Some(id) = decl::zone(map, vocab, name, &at)? {
                        zones.push((who.clone(), id));
                    }
                }
            }
        }
        Ok(RailPolicy {
            zones,
            blocked_by: m
                .get("blocked_by_hexsides")
                .map(|v| decl::hexside_mask(map, vocab, v, "rail.blocked_by_hexsides"))
                .transpose()?
                .unwrap_or(0),
            excluded: UnitSelector::parse(m.get("excluded"), "rail.excluded")?,
        })
    }

    /// The rail zone of a unit: by its nation, else by its side.
    pub fn zone_of(&self, unit: &Unit) -> Option<usize> {
        let by = |key: &str| self.zones.iter().find(|(k, _)| k == key).map(|(_, z)| *z);
        by(&unit.nation).or_else(|| by(&unit.side))
    }
}

/// Every hex `unit` may reach by rail, in index order (empty when it may not use rail).
/// `blocked` (one flag per hex): hexes the route never enters, as the rules' political limits
/// refuse them (F40-18.2 on turn 1: a route leaving the deployment zone is refused).
pub fn rail_destinations(
    map: &HexMap,
    rules: &PathRules,
    occ: &Occupancy,
    owners: &[SideId],
    unit: &Unit,
    blocked: Option<&[bool]>,
) -> Result<Vec<HexIndex>, PositionError> {
    check_len("owners", map.len() as usize, owners.len())?;
    if let Some(b) = blocked {
        check_len("blocked", map.len() as usize, b.len())?;
    }
    let mover = Mover::new(map, rules, unit)?;
    let policy = &rules.rail;
    let Some(zone) = policy.zone_of(unit) else {
        return Ok(Vec::new());
    };
    if policy.excluded.matches(unit) {
        return Ok(Vec::new());
    }
    let zone_bit = 1u64 << zone;
    let usable = |h: HexIndex| {
        owners[h as usize] == mover.side
            && map.zone_mask(h) & zone_bit != 0
            && occ.cell(h).zoc & mover.enemies == 0
            && rules.profile.open_to_side(mover.side, map, h)
    };
    if !usable(mover.start) {
        return Ok(Vec::new());
    }
    // (the start hex is not entered: only the hexes after it must be open)
    let usable = |h: HexIndex| usable(h) && blocked.is_none_or(|b| !b[h as usize]);
    let mut seen = vec![false; map.len() as usize];
    seen[mover.start as usize] = true;
    let mut queue = VecDeque::from([mover.start]);
    let mut out = Vec::new();
    while let Some(u) = queue.pop_front() {
        let masks = map.hexside_masks(u);
        for (d, v) in rules.topology.neighbors(u).into_iter().enumerate() {
            if v != OFF_MAP && !seen[v as usize] && masks[d] & policy.blocked_by == 0 && usable(v) {
                seen[v as usize] = true;
                queue.push_back(v);
                out.push(v);
            }
        }
    }
    out.sort_unstable();
    Ok(out)
}
