//! The cost of one step, shared by the reach search and the order check so that they cannot
//! disagree (F40-R5: terrain of the hex entered + hexside extras + leaving-ZOC cost + friendly
//! status extra; along a declared road, the road's cost in place of the first two).

use super::decl::PROHIBITED;
use super::error::PositionError;
use super::occupancy::{enemies_of, is_enemy_owner, Cell, Occupancy};
use super::profile::HexsideCosts;
use super::rules::PathRules;
use super::{ClassId, SideId, SideMask};
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

/// Why a single step is impossible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Block {
    EnemyOccupied,
    Terrain,
    Hexside,
    ZocToZoc,
    AcrossIntoZoc,
    AcrossIntoTerritory,
}

/// The moving unit, resolved against the rules and the position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mover {
    pub start: HexIndex,
    pub side: SideId,
    pub class: ClassId,
    pub kind: usize,
    pub me: SideMask,
    pub enemies: SideMask,
}

impl Mover {
    pub fn new(map: &HexMap, rules: &PathRules, unit: &Unit) -> Result<Mover, PositionError> {
        let at = unit.at.as_ref().ok_or_else(|| PositionError::OffMap {
            unit: unit.id.clone(),
        })?;
        let start = map.parse_label(at).ok_or_else(|| PositionError::BadHex {
            unit: unit.id.clone(),
            at: at.clone(),
        })?;
        let side = rules.profile.side_of(unit)?;
        let class = rules.profile.class_of(unit)?;
        Ok(Mover {
            start,
            side,
            class,
            kind: rules.profile.kind(side, class),
            me: 1 << side,
            enemies: enemies_of(side),
        })
    }
}

/// Everything one step needs, borrowed for the length of a query, with the mover's tables
/// already selected so that a step is a handful of array reads.
pub(crate) struct Stepper<'a> {
    pub map: &'a HexMap,
    pub rules: &'a PathRules,
    pub occ: &'a Occupancy,
    pub mover: Mover,
    cells: &'a [Cell],
    terrain_ids: &'a [u8],
    terrain_cost: &'a [u32],
    hexside_costs: &'a HexsideCosts,
    zoc_to_zoc: bool,
    friendly_negates: bool,
    stop_on_entry: bool,
    leave_cost: u32,
    across_mask: u32,
    road_mask: u32,
    road_cost: &'a [u32; 32],
    /// Hexes the rules forbid this mover to enter (`hex.path.reach`'s `blocked` option), by
    /// hex index; None: none.
    pub blocked: Option<&'a [bool]>,
}

impl<'a> Stepper<'a> {
    pub fn new(map: &'a HexMap, rules: &'a PathRules, occ: &'a Occupancy, mover: Mover) -> Self {
        let p = &rules.profile;
        Stepper {
            map,
            rules,
            occ,
            mover,
            cells: occ.cells(),
            terrain_ids: map.terrain_ids(),
            terrain_cost: p.terrain_costs(mover.kind),
            hexside_costs: p.hexside_costs(mover.kind),
            zoc_to_zoc: rules.zoc.zoc_to_zoc_allowed(mover.class),
            friendly_negates: rules.zoc.friendly_negates,
            stop_on_entry: rules.zoc.stop_on_entry,
            leave_cost: rules.zoc.leave_cost,
            across_mask: p.no_zoc_entry_across() | p.no_territory_entry_across(),
            road_mask: p.road_mask(),
            road_cost: p.road_costs(mover.kind),
            blocked: None,
        }
    }

    #[inline]
    fn cell_in_enemy_zoc(&self, cell: Cell) -> bool {
        cell.zoc & self.mover.enemies != 0
            && !(self.friendly_negates && cell.present & self.mover.me != 0)
    }

    /// Whether the hex is in enemy ZOC for this mover's movement (F40-R4: friendly units do not
    /// cancel it unless the policy says so).
    #[inline]
    pub fn in_enemy_zoc(&self, hex: HexIndex) -> bool {
        self.cell_in_enemy_zoc(self.cells[hex as usize])
    }

    /// Whether entering an enemy ZOC ends the move (F40-6.2).
    #[inline]
    pub fn stop_on_entry(&self) -> bool {
        self.stop_on_entry
    }

    /// Whether a unit that reached `hex` (not its start) must stop there (F40-6.2).
    #[inline]
    pub fn stops_at(&self, hex: HexIndex) -> bool {
        self.stop_on_entry && self.in_enemy_zoc(hex)
    }

    /// The cheapest road of this mover on a hexside with features `mask`, or PROHIBITED.
    #[inline(never)]
    fn road(&self, mask: u32) -> u32 {
        let mut roads = mask & self.road_mask;
        let mut best = PROHIBITED;
        while roads != 0 {
            best = best.min(self.road_cost[roads.trailing_zeros() as usize]);
            roads &= roads - 1;
        }
        best
    }

    /// Raw MP of the step `from` → `to` across a hexside with features `mask`, or why it is
    /// impossible. `from_zoc` is `self.in_enemy_zoc(from)`, computed once per hex by the caller.
    #[inline(always)]
    pub fn step(&self, from_zoc: bool, mask: u32, to: HexIndex) -> Result<u32, Block> {
        let cell = self.cells[to as usize];
        if cell.blocking & self.mover.enemies != 0 {
            return Err(Block::EnemyOccupied);
        }
        let road = if mask & self.road_mask != 0 {
            self.road(mask)
        } else {
            PROHIBITED
        };
        let mut cost = if road != PROHIBITED {
            // Along a road: its cost instead of the terrain's and the hexside's (a bridge).
            road
        } else {
            let terrain = self.terrain_cost[self.terrain_ids[to as usize] as usize];
            if terrain == PROHIBITED {
                return Err(Block::Terrain);
            }
            terrain
        };
        let to_zoc = self.cell_in_enemy_zoc(cell);
        if mask != 0 {
            if road == PROHIBITED {
                let extra = self.hexside_costs.eval(mask);
                if extra == PROHIBITED {
                    return Err(Block::Hexside);
                }
                cost += extra;
            }
            if mask & self.across_mask != 0 {
                let profile = &self.rules.profile;
                if mask & profile.no_zoc_entry_across() != 0 && to_zoc {
                    return Err(Block::AcrossIntoZoc);
                }
                if mask & profile.no_territory_entry_across() != 0
                    && self
                        .occ
                        .owner(to)
                        .is_some_and(|o| is_enemy_owner(o, self.mover.side))
                {
                    return Err(Block::AcrossIntoTerritory);
                }
            }
        }
        if from_zoc {
            // F40-6.3/R2: +1 to leave; with stop-on-entry the only ZOC hex ever left is the start.
            cost += self.leave_cost;
            if to_zoc && !self.zoc_to_zoc {
                return Err(Block::ZocToZoc);
            }
        }
        if cell.costly & self.mover.me != 0 {
            cost += self.occ.friendly_extra(to, self.mover.side);
        }
        Ok(cost)
    }
}
