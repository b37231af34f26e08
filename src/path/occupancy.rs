//! `Occupancy`: the position snapshot a query runs against (F40-R9: a move is judged against
//! the state at its start). Built once from the units; afterwards every question a search asks
//! ("is this hex enemy-occupied, in enemy ZOC, holding a disorganized friend, whose is it?") is
//! one array read. A change of one unit is followed in place (`update_unit`): its old marks
//! are taken back and the new ones made, so a move touches its two hexes and their neighbours.

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

/// Everything the occupancy reads from one unit on the map: two units with the same footprint
/// leave the same marks, so a change that keeps a unit's footprint (a `moved` flag, a strength
/// loss) changes nothing here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Footprint {
    placed: Placed,
    /// Bars enemies from entering its hex (`enterable_if_only` does not match it).
    blocking: bool,
    /// Counts for occupation (`territory.ignore` does not match it).
    claim: bool,
    /// Extra raw MP it costs its friends to enter its hex (F40-9.5), 0 for none.
    extra: u32,
    /// Exerts a ZOC (its hexes are then the neighbours `ZocPolicy::project` gives).
    exerts: bool,
}

impl Footprint {
    fn of(
        map: &HexMap,
        rules: &PathRules,
        unit: &Unit,
    ) -> Result<Option<Footprint>, PositionError> {
        let Some(at) = &unit.at else {
            return Ok(None);
        };
        let profile = &rules.profile;
        let hex = map.parse_label(at).ok_or_else(|| PositionError::BadHex {
            unit: unit.id.clone(),
            at: at.clone(),
        })?;
        let side = profile.side_of(unit)?;
        let class = profile.class_of(unit)?;
        Ok(Some(Footprint {
            placed: Placed { hex, side, class },
            blocking: !profile.enterable_by_enemy(unit),
            claim: !rules.territory.ignore.matches(unit),
            extra: profile.status_cost(unit),
            exerts: rules.zoc.exerts(unit),
        }))
    }
}

/// How many units of one side mark one hex, per kind of mark: a mask bit is set while its
/// count is above 0, so one unit's marks can be taken back without looking at the others.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    present: u32,
    blocking: u32,
    zoc: u32,
    claim: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occupancy {
    cells: Vec<Cell>,
    /// Per (hex, side), at `hex * sides + side`: the counts behind `cells`.
    counts: Vec<Counts>,
    /// Declared sides (the stride of `counts`).
    sides: usize,
    /// `(hex, side, extra raw MP)` of every costly unit, sorted (so the last entry of a
    /// (hex, side) holds the largest extra); a hex's `costly` bit is set while it has one.
    extras: Vec<(HexIndex, SideId, u32)>,
    /// Per unit given to `build`, in the same order; None for units off the map.
    footprints: Vec<Option<Footprint>>,
    /// Territory owner per hex (`NO_SIDE` = neutral), when known (F40-10.2 needs it).
    owners: Option<Vec<SideId>>,
}

/// Whether a footprint's marks are being added or taken back.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Add,
    Remove,
}

impl Occupancy {
    /// Places the units and projects their ZOCs. Units whose `at` is None are off the map.
    pub fn build(
        map: &HexMap,
        rules: &PathRules,
        units: &[Unit],
    ) -> Result<Occupancy, PositionError> {
        let sides = rules.profile.sides().len();
        let mut occ = Occupancy {
            cells: vec![Cell::default(); map.len() as usize],
            counts: vec![Counts::default(); map.len() as usize * sides],
            sides,
            extras: Vec::new(),
            footprints: Vec::with_capacity(units.len()),
            owners: None,
        };
        for unit in units {
            let footprint = Footprint::of(map, rules, unit)?;
            if let Some(f) = &footprint {
                occ.mark(map, rules, f, Mark::Add);
            }
            occ.footprints.push(footprint);
        }
        Ok(occ)
    }

    /// Follows a change of the unit at `index` (in the order given to `build`) to `unit`: takes
    /// back its old marks and makes the new ones, touching only the hexes involved. Returns
    /// whether anything a search reads changed (false for e.g. a status the rules ignore here).
    /// On an error (a bad hex, an unknown side) the occupancy is unchanged.
    pub fn update_unit(
        &mut self,
        map: &HexMap,
        rules: &PathRules,
        index: usize,
        unit: &Unit,
    ) -> Result<bool, PositionError> {
        let Some(&old) = self.footprints.get(index) else {
            return Err(self.no_such_unit(index));
        };
        let new = Footprint::of(map, rules, unit)?;
        if new == old {
            return Ok(false);
        }
        if let Some(f) = &old {
            self.mark(map, rules, f, Mark::Remove);
        }
        if let Some(f) = &new {
            self.mark(map, rules, f, Mark::Add);
        }
        self.footprints[index] = new;
        Ok(true)
    }

    /// A unit entering play at `index` (the units after it move up one): its marks are made and
    /// nothing else is touched. Returns whether anything a search reads changed (false for a
    /// unit off the map). On an error (an index past the end, a bad hex, an unknown side) the
    /// occupancy is unchanged.
    pub fn insert_unit(
        &mut self,
        map: &HexMap,
        rules: &PathRules,
        index: usize,
        unit: &Unit,
    ) -> Result<bool, PositionError> {
        if index > self.footprints.len() {
            return Err(self.no_such_unit(index));
        }
        let new = Footprint::of(map, rules, unit)?;
        if let Some(f) = &new {
            self.mark(map, rules, f, Mark::Add);
        }
        self.footprints.insert(index, new);
        Ok(new.is_some())
    }

    /// The unit at `index` leaving play (the units after it move down one): its marks are
    /// taken back. Returns whether anything a search reads changed (false for a unit that was
    /// off the map). On an error (an index past the end) the occupancy is unchanged.
    pub fn remove_unit(
        &mut self,
        map: &HexMap,
        rules: &PathRules,
        index: usize,
    ) -> Result<bool, PositionError> {
        let Some(&old) = self.footprints.get(index) else {
            return Err(self.no_such_unit(index));
        };
        if let Some(f) = &old {
            self.mark(map, rules, f, Mark::Remove);
        }
        self.footprints.remove(index);
        Ok(old.is_some())
    }

    /// The error for a unit index past the units given to `build`.
    fn no_such_unit(&self, index: usize) -> PositionError {
        PositionError::NoSuchUnit {
            index,
            count: self.footprints.len(),
        }
    }

    /// Adds or takes back one unit's marks: its hex, its ZOC hexes, its extra cost.
    fn mark(&mut self, map: &HexMap, rules: &PathRules, f: &Footprint, mark: Mark) {
        let Placed { hex, side, .. } = f.placed;
        let step = |n: &mut u32| match mark {
            Mark::Add => *n += 1,
            Mark::Remove => *n -= 1,
        };
        let at = hex as usize * self.sides + side as usize;
        let c = &mut self.counts[at];
        step(&mut c.present);
        if f.blocking {
            step(&mut c.blocking);
        }
        if f.claim {
            step(&mut c.claim);
        }
        let c = *c;
        let bit: SideMask = 1 << side;
        let cell = &mut self.cells[hex as usize];
        set_bit(&mut cell.present, bit, c.present > 0);
        set_bit(&mut cell.blocking, bit, c.blocking > 0);
        set_bit(&mut cell.claim, bit, c.claim > 0);
        if f.extra > 0 {
            let entry = (hex, side, f.extra);
            match mark {
                Mark::Add => {
                    let i = self.extras.partition_point(|e| *e < entry);
                    self.extras.insert(i, entry);
                }
                Mark::Remove => {
                    if let Ok(i) = self.extras.binary_search(&entry) {
                        self.extras.remove(i);
                    }
                }
            }
            let costly = self.extra_entry(hex, side).is_some();
            set_bit(&mut self.cells[hex as usize].costly, bit, costly);
        }
        if f.exerts {
            let (cells, counts, sides) = (&mut self.cells, &mut self.counts, self.sides);
            rules.zoc.project(map, &rules.topology, hex, |n| {
                let c = &mut counts[n as usize * sides + side as usize];
                step(&mut c.zoc);
                set_bit(&mut cells[n as usize].zoc, bit, c.zoc > 0);
            });
        }
    }

    /// The largest extra of `side`'s units in `hex`, if any is costly.
    fn extra_entry(&self, hex: HexIndex, side: SideId) -> Option<u32> {
        let end = self.extras.partition_point(|e| (e.0, e.1) <= (hex, side));
        let last = self.extras.get(end.checked_sub(1)?)?;
        ((last.0, last.1) == (hex, side)).then_some(last.2)
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
        self.footprints
            .get(unit)
            .copied()
            .flatten()
            .map(|f| f.placed)
    }

    /// Territory owner of a hex, when owners were given.
    #[inline]
    pub fn owner(&self, hex: HexIndex) -> Option<SideId> {
        self.owners.as_ref().map(|o| o[hex as usize])
    }

    /// Extra raw MP for `side` to enter `hex` because of its friendly units (F40-9.5): several
    /// costly friends in one hex cost the largest extra, once.
    #[inline]
    pub(crate) fn friendly_extra(&self, hex: HexIndex, side: SideId) -> u32 {
        if self.cells[hex as usize].costly & (1 << side) == 0 {
            return 0;
        }
        self.extra_entry(hex, side).unwrap_or(0)
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

fn set_bit(mask: &mut SideMask, bit: SideMask, on: bool) {
    if on {
        *mask |= bit;
    } else {
        *mask &= !bit;
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
