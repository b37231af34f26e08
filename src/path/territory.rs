//! Territory control (F40-7.1, 7.2, R11): who holds each hex after a position.
//!
//! By decreasing priority: (a) only one side's units occupy the hex; (b) exactly one side
//! exerts a ZOC there (an uncontested ZOC; ZOC of non-exerting units, e.g. still-neutral ones,
//! counts for nobody — the ZOC policy decides); (c) the last side to do (a) or (b); (d) the
//! owner at the start of the game.

use serde_json::Value;

use super::decl::{self, UnitSelector};
use super::error::{DeclarationError, PositionError};
use super::occupancy::{check_len, Occupancy};
use super::{SideId, NO_SIDE};
use crate::board::HexIndex;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TerritoryPolicy {
    /// Units whose presence does not count as occupation (7.1a).
    pub ignore: UnitSelector,
}

impl TerritoryPolicy {
    pub fn compile(v: Option<&Value>) -> Result<TerritoryPolicy, DeclarationError> {
        let Some(v) = v else {
            return Ok(TerritoryPolicy::default());
        };
        let Some(m) = decl::table(v, "territory", &["ignore"])? else {
            return Ok(TerritoryPolicy::default());
        };
        Ok(TerritoryPolicy {
            ignore: UnitSelector::parse(m.get("ignore"), "territory.ignore")?,
        })
    }
}

/// Control after a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Control {
    /// The side that last occupied the hex or exerted an uncontested ZOC in it (`NO_SIDE`:
    /// nobody yet). Keep it in the game state and pass it back next time.
    pub holder: Vec<SideId>,
    /// The owner now: the holder, or else the initial owner (`NO_SIDE`: neutral).
    pub owner: Vec<SideId>,
}

/// The side alone in a side mask, if exactly one.
fn only(mask: u8) -> Option<SideId> {
    (mask != 0 && mask & (mask - 1) == 0).then(|| mask.trailing_zeros() as SideId)
}

/// Applies 7.1 to a position. `holder` is the previous `Control::holder` (all `NO_SIDE` at the
/// start of a game), `initial` the owners at the start (7.3, or Allied for a hex of a country
/// that has joined, R11).
pub fn update_control(
    occ: &Occupancy,
    holder: &[SideId],
    initial: &[SideId],
) -> Result<Control, PositionError> {
    check_len("holder", occ.len(), holder.len())?;
    check_len("initial owners", occ.len(), initial.len())?;
    let mut next = holder.to_vec();
    let mut owner = Vec::with_capacity(occ.len());
    for (h, slot) in next.iter_mut().enumerate() {
        let cell = occ.cell(h as u32);
        if let Some(side) = only(cell.claim).or_else(|| only(cell.zoc)) {
            *slot = side;
        }
        owner.push(if *slot != NO_SIDE { *slot } else { initial[h] });
    }
    Ok(Control {
        holder: next,
        owner,
    })
}

/// The hexes whose owner 7.1 changes now, with their new owner, in hex order: `update_control`
/// for a game that keeps one map as both the last holders and the owners (a hex's owner is its
/// last holder, or its owner at the start while nobody has held it). Made for the call after
/// every move: one pass over the cells, nothing allocated but the answer.
pub fn control_changes(
    occ: &Occupancy,
    owners: &[SideId],
) -> Result<Vec<(HexIndex, SideId)>, PositionError> {
    check_len("owners", occ.len(), owners.len())?;
    Ok(occ
        .cells()
        .iter()
        .zip(owners)
        .enumerate()
        .filter_map(|(h, (cell, &owner))| {
            let side = only(cell.claim).or_else(|| only(cell.zoc))?;
            (side != owner).then_some((h as HexIndex, side))
        })
        .collect())
}
