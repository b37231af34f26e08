//! `Occupancy`: the position snapshot a query runs against (F40-R9: a move is judged against
//! the state at its start). Built once from the units; afterwards every question a search asks
//! ("is this hex enemy-occupied, in enemy ZOC, holding a disorganized friend, whose is it?") is
//! one array read.

use super::error::PositionError;
use super::rules::PathRules;
use super::{ClassId, SideId, SideMask, NO_SIDE};
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

/// What one hex holds, as side masks (bit `s` = side `s`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cell {
    /// Sides with at least one unit here.
    pub present: SideMask,
    /// Sides with a unit here that bars enemies from entering (all but e.g. para regiments).
    pub blocking: SideMask,
    /// Sides exerting a ZOC into this hex.
    pub zoc: SideMask,
    /// Sides with a unit here that counts for occupation (F40-7.1a).
    pub claim: SideMask,
    /// Sides with a unit here that costs its friends extra to enter (F40-9.5).
    pub costly: SideMask,
}

/// A unit as placed on the map for the searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub hex: HexIndex,
    pub side: SideId,
    pub class: ClassId,
}

#[derive(Debug, Clone)]
pub struct Occupancy {
    cells: Vec<Cell>,
    /// `(hex, side, extra raw MP)`, sorted; only hexes whose `costly` mask is set.
    extras: Vec<(HexIndex, SideId, u32)>,
    /// Per unit given to `build`, in the same order; None for units off the map.
    placed: Vec<Option<Placed>>,
    /// Territory owner per hex (`NO_SIDE` = neutral), when known (F40-10.2 needs it).
    owners: Option<Vec<SideId>>,
}

impl Occupancy {
    /// Places the units and projects their ZOCs. Units whose `at` is None are off the map.
    pub fn build(
        map: &HexMap,
        rules: &PathRules,
        units: &[Unit],
    ) -> Result<Occupancy, PositionError> {
        let profile = &rules.profile;
        let mut cells = vec![Cell::default(); map.len() as usize];
        let mut extras = Vec::new();
        let mut placed = Vec::with_capacity(units.len());
        for unit in units {
            let Some(at) = &unit.at else {
                placed.push(None);
                continue;
            };
            let hex = map.parse_label(at).ok_or_else(|| PositionError::BadHex {
                unit: unit.id.clone(),
                at: at.clone(),
            })?;
            let side = profile.side_of(unit)?;
            let class = profile.class_of(unit)?;
            let bit: SideMask = 1 << side;
            let cell = &mut cells[hex as usize];
            cell.present |= bit;
            if !profile.enterable_by_enemy(unit) {
                cell.blocking |= bit;
            }
            if !rules.territory.ignore.matches(unit) {
                cell.claim |= bit;
            }
            let extra = profile.status_cost(unit);
            if extra > 0 {
                cell.costly |= bit;
                extras.push((hex, side, extra));
            }
            rules.zoc.project(map, &rules.topology, hex, unit, |n| {
                cells[n as usize].zoc |= bit
            });
            placed.push(Some(Placed { hex, side, class }));
        }
        extras.sort_unstable();
        // Several costly friends in one hex: the largest extra applies, once.
        extras.dedup_by(|later, kept| {
            let same = later.0 == kept.0 && later.1 == kept.1;
            if same {
                kept.2 = kept.2.max(later.2);
            }
            same
        });
        Ok(Occupancy {
            cells,
            extras,
            placed,
            owners: None,
        })
    }

    /// Adds the territory owner of every hex (`NO_SIDE` = nobody's), for the rule that no
    /// unit enters enemy territory across some hexsides (F40-10.2).
    pub fn with_owners(mut self, owners: Vec<SideId>) -> Result<Occupancy, PositionError> {
        check_len("owners", self.cells.len(), owners.len())?;
        self.owners = Some(owners);
        Ok(self)
    }

    /// Replaces the territory owners (the units unchanged: a change of control only).
    pub fn set_owners(&mut self, owners: Vec<SideId>) -> Result<(), PositionError> {
        check_len("owners", self.cells.len(), owners.len())?;
        self.owners = Some(owners);
        Ok(())
    }

    #[inline]
    pub fn cell(&self, hex: HexIndex) -> Cell {
        self.cells[hex as usize]
    }

    pub(crate) fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Sides exerting a ZOC into the hex.
    #[inline]
    pub fn zoc_mask(&self, hex: HexIndex) -> SideMask {
        self.cells[hex as usize].zoc
    }

    /// The hexes where `side` exerts a ZOC, as a per-hex bitmap.
    pub fn zoc_bitmap(&self, side: SideId) -> Vec<bool> {
        self.cells
            .iter()
            .map(|c| c.zoc & (1 << side) != 0)
            .collect()
    }

    pub fn placed(&self, unit: usize) -> Option<Placed> {
        self.placed.get(unit).copied().flatten()
    }

    /// Territory owner of a hex, when owners were given.
    #[inline]
    pub fn owner(&self, hex: HexIndex) -> Option<SideId> {
        self.owners.as_ref().map(|o| o[hex as usize])
    }

    /// Extra raw MP for `side` to enter `hex` because of its friendly units (F40-9.5).
    #[inline]
    pub(crate) fn friendly_extra(&self, hex: HexIndex, side: SideId) -> u32 {
        if self.cells[hex as usize].costly & (1 << side) == 0 {
            return 0;
        }
        match self
            .extras
            .binary_search_by(|e| (e.0, e.1).cmp(&(hex, side)))
        {
            Ok(i) => self.extras[i].2,
            Err(_) => 0,
        }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

pub(crate) fn check_len(what: &str, expected: usize, found: usize) -> Result<(), PositionError> {
    if expected == found {
        Ok(())
    } else {
        Err(PositionError::WrongLength {
            what: what.into(),
            expected,
            found,
        })
    }
}

/// The side mask of a side's enemies: every other declared side.
#[inline]
pub(crate) fn enemies_of(side: SideId) -> SideMask {
    !(1 << side)
}

/// Whether an owner value means "held by an enemy of `side`".
#[inline]
pub(crate) fn is_enemy_owner(owner: SideId, side: SideId) -> bool {
    owner != NO_SIDE && owner != side
}
