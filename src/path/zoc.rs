//! The zone-of-control policy, declared under `zoc` (F40-6.1 … 6.4, R1 … R4).
//!
//! Which units exert a ZOC and where it reaches is decided here, once per position, into a
//! per-hex side mask (`Occupancy::zoc_mask`). The searches only read that mask. A later rule
//! restricting ZOC to front arcs (facing) extends `ZocPolicy::project` and the occupancy's
//! footprint of a unit.

use serde_json::Value;

use super::decl::{self, join, UnitSelector, Vocabulary};
use super::error::DeclarationError;
use super::mp::Mp;
use super::occupancy::Occupancy;
use super::topology::{Topology, OFF_MAP};
use super::{ClassId, SideId, SideMask};
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZocPolicy {
    /// False when the game declares no `zoc` table: nobody exerts a ZOC.
    pub enabled: bool,
    /// Units that exert no ZOC (F40-6.1: disorganized, regiments; R8: still-neutral units).
    pub except: UnitSelector,
    /// Hexside features a ZOC never extends across (F40-6.1/R1: sea, lake, even with a causeway).
    pub blocked_by: u32,
    /// Hexside features that carry a ZOC across a hexside `blocked_by` would stop (a bridge over
    /// a river that blocks ZOC elsewhere). F40 lists none: a causeway carries no ZOC (R6).
    pub carried_by: u32,
    /// A unit entering an enemy ZOC stops (F40-6.2).
    pub stop_on_entry: bool,
    /// Extra MP paid on a step out of an enemy-ZOC hex (F40-6.3/R2), raw.
    pub(crate) leave_cost: u32,
    /// Classes that may step directly from one enemy-ZOC hex to another (F40-6.4).
    pub zoc_to_zoc_classes: u32,
    /// Whether a friendly unit in a hex cancels enemy ZOC there for movement (F40-R4: no).
    pub friendly_negates: bool,
    /// Classes that may not retreat into enemy ZOC (F40-6.6: the non-motorized ones)...
    pub retreat_blocked: u32,
    /// ...unless a friendly unit holds the hex (F40-6.6: yes).
    pub retreat_friendly_negates: bool,
}

impl Default for ZocPolicy {
    /// No ZOC at all: nobody exerts one.
    fn default() -> Self {
        ZocPolicy {
            enabled: false,
            except: UnitSelector::default(),
            blocked_by: 0,
            carried_by: 0,
            stop_on_entry: false,
            leave_cost: 0,
            zoc_to_zoc_classes: u32::MAX,
            friendly_negates: false,
            retreat_blocked: 0,
            retreat_friendly_negates: true,
        }
    }
}

impl ZocPolicy {
    /// Compiles the `zoc` table; an absent table means the game has no zones of control.
    pub(crate) fn compile(
        v: Option<&Value>,
        vocab: &Vocabulary,
        map: &HexMap,
    ) -> Result<Option<ZocPolicy>, DeclarationError> {
        let Some(v) = v else { return Ok(None) };
        let keys = [
            "except",
            "blocked_by_hexsides",
            "carried_by_hexsides",
            "stop_on_entry",
            "leave_cost",
            "zoc_to_zoc",
            "friendly_units_negate",
            "retreat",
        ];
        let Some(m) = decl::table(v, "zoc", &keys)? else {
            return Ok(None);
        };
        let at = |k: &str| join("zoc", k);
        let (mut retreat_blocked, mut retreat_friendly_negates) = (0, true);
        if let Some(r) = m.get("retreat") {
            if let Some(r) = decl::table(r, &at("retreat"), &["blocked", "friendly_unit_negates"])?
            {
                let here = |k: &str| join(&at("retreat"), k);
                if let Some(b) = r.get("blocked") {
                    retreat_blocked = vocab.class_mask(b, &here("blocked"))?;
                }
                retreat_friendly_negates = decl::boolean(
                    r.get("friendly_unit_negates"),
                    &here("friendly_unit_negates"),
                    true,
                )?;
            }
        }
        Ok(Some(ZocPolicy {
            retreat_blocked,
            retreat_friendly_negates,
            enabled: true,
            except: UnitSelector::parse(m.get("except"), &at("except"))?,
            blocked_by: m
                .get("blocked_by_hexsides")
                .map(|v| decl::hexside_mask(map, vocab, v, &at("blocked_by_hexsides")))
                .transpose()?
                .unwrap_or(0),
            carried_by: m
                .get("carried_by_hexsides")
                .map(|v| decl::hexside_mask(map, vocab, v, &at("carried_by_hexsides")))
                .transpose()?
                .unwrap_or(0),
            stop_on_entry: decl::boolean(m.get("stop_on_entry"), &at("stop_on_entry"), true)?,
            leave_cost: m
                .get("leave_cost")
                .map(|v| decl::mp(v, &at("leave_cost")))
                .transpose()?
                .unwrap_or(0),
            zoc_to_zoc_classes: m
                .get("zoc_to_zoc")
                .map(|v| vocab.class_mask(v, &at("zoc_to_zoc")))
                .transpose()?
                .unwrap_or(0),
            friendly_negates: decl::boolean(
                m.get("friendly_units_negate"),
                &at("friendly_units_negate"),
                false,
            )?,
        }))
    }

    pub fn leave_cost(&self) -> Mp {
        Mp(self.leave_cost)
    }

    /// Whether a unit exerts a ZOC at all.
    pub fn exerts(&self, unit: &Unit) -> bool {
        self.enabled && !self.except.matches(unit)
    }

    pub fn zoc_to_zoc_allowed(&self, class: ClassId) -> bool {
        self.zoc_to_zoc_classes & (1 << class) != 0
    }

    /// Whether enemy ZOC lets a unit of this side and class retreat into `hex` (F40-6.6). Only
    /// the ZOC part of retreat rules; the rest is the game's retreat policy. `friendly`: whether
    /// a unit of the side is in the hex, when the caller knows better than the occupancy (units
    /// of one combat retreating one after another: those gone, those arrived); None: as the
    /// occupancy has it.
    pub fn may_retreat_into(
        &self,
        occ: &Occupancy,
        side: SideId,
        class: ClassId,
        hex: HexIndex,
        friendly: Option<bool>,
    ) -> bool {
        let cell = occ.cell(hex);
        let me: SideMask = 1 << side;
        let in_enemy_zoc = cell.zoc & !me != 0;
        let friendly = friendly.unwrap_or(cell.present & me != 0);
        !(in_enemy_zoc
            && self.retreat_blocked & (1 << class) != 0
            && !(self.retreat_friendly_negates && friendly))
    }

    /// Calls `into` for every hex the ZOC of a unit exerting one (`exerts`), standing on `hex`,
    /// extends into (R1: the six neighbours, never its own hex, never across a blocking
    /// hexside unless a carrying feature is on it too). It reads nothing of the unit but its
    /// hex: a rule restricting ZOC to front arcs (facing) would add the facing here and to the
    /// occupancy's `Footprint`, which decides when a unit's change must be followed.
    pub(crate) fn project(
        &self,
        map: &HexMap,
        topo: &Topology,
        hex: HexIndex,
        mut into: impl FnMut(HexIndex),
    ) {
        let masks = map.hexside_masks(hex);
        for (d, n) in topo.neighbors(hex).into_iter().enumerate() {
            let side = masks[d];
            if n != OFF_MAP && (side & self.blocked_by == 0 || side & self.carried_by != 0) {
                into(n);
            }
        }
    }
}
