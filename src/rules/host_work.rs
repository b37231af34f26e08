//! What the `hex` API's own work costs, charged to the instruction budget
//! ([`super::budget::charge`]): one call is one VM instruction, however many hexes it searches,
//! so a loop around `hex.path.reach` would run for minutes before the budget saw it.
//!
//! The measure is the hexes and units a call goes through: each hex a search settles (a reach,
//! a path, a supply or step field: the map's hexes, as the search may go through all of them),
//! each item an answer lists or a walk reads, each unit view built. It is the answer's or the
//! map's size, never whether a cache spared the work, so the same game stops at the same place
//! whatever the caches held. The rates make one unit cost about one VM instruction's time or
//! more (`examples/charge_rates`, release build, France 1940: a mixed Lua loop 5.6 ns an
//! instruction; a reach settling 117 hexes 5.9 us, 50 ns a hex; `hex.map.hexes` 12 ns a hex;
//! `hex.units.all` 680 ns a unit).

use mlua::Lua;

use super::budget::charge;

/// Units per hex a search settles or a field covers.
const PER_HEX_SEARCHED: u64 = 10;
/// Units per item an answer lists or a walk reads (a label, a number, a unit's field).
const PER_ITEM_LISTED: u64 = 2;
/// Units per unit view built (a table of a dozen fields).
const PER_UNIT_VIEW: u64 = 120;

/// Charges a search that settled (or a field that covers) `hexes` hexes.
pub(crate) fn charge_search(lua: &Lua, hexes: usize) -> mlua::Result<()> {
    charge(lua, (hexes as u64).saturating_mul(PER_HEX_SEARCHED))
}

/// Charges `items` listed in an answer or read by a walk.
pub(crate) fn charge_listed(lua: &Lua, items: usize) -> mlua::Result<()> {
    charge(lua, (items as u64).saturating_mul(PER_ITEM_LISTED))
}

/// Charges `units` unit views built.
pub(crate) fn charge_unit_views(lua: &Lua, units: usize) -> mlua::Result<()> {
    charge(lua, (units as u64).saturating_mul(PER_UNIT_VIEW))
}
