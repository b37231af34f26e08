//! The movement and supply engine: a game's movement rules, declared as data (a Lua table
//! converted to JSON by the host), compiled into dense tables for one map, and searched in
//! Rust (DESIGN.md principle 1). Nothing here calls back into the rules during a search.
//!
//! - [`PathRules::compile`]: declaration → tables (profile, ZOC, supply, rail, territory, clauses);
//!   the declaration's shape is in `docs/movement.md`.
//! - [`Occupancy::build`]: the units of a position → per-hex side masks (presence, blocking, ZOC).
//! - [`ReachSearch`] / [`reach`]: reachable hexes with least MP; [`check_path`]: one move order.
//! - [`FacingRules`], [`FacingBoard`], [`FacingSearch`] / [`reach_facing`], [`check_move`]:
//!   facing-aware movement (TAC, ANC), `docs/facing.md`.
//! - [`trace_supply`], [`update_control`] (and [`control_changes`]), [`rail_destinations`].
//!
//! ```
//! use hexwar::board::{parse_map, SourceText};
//! use hexwar::engine::Unit;
//! use hexwar::path::{reach, Mp, Occupancy, PathRules};
//!
//! let map = parse_map(&SourceText::new("m.toml", r#"name = "m"
//! columns = 3
//! rows = 1
//! grid = [". f ."]
//! [legend]
//! "." = "clear"
//! f = "forest"
//! "#)).unwrap();
//! let decl = serde_json::json!({
//!     "sides": ["blue", "red"], "classes": ["foot"],
//!     "terrain": { "clear": 1, "forest": 2 },
//! });
//! let rules = PathRules::compile(&decl, &map).unwrap();
//! let unit: Unit = serde_json::from_value(serde_json::json!(
//!     { "id": "u", "side": "blue", "type": "infantry", "at": "0101" })).unwrap();
//! let occ = Occupancy::build(&map, &rules, std::slice::from_ref(&unit)).unwrap();
//! let r = reach(&map, &rules, &occ, &unit, Mp::whole(3)).unwrap();
//! assert_eq!(r.labeled(&map), [("0201".to_string(), 2.0), ("0301".to_string(), 3.0)]);
//! ```

mod arc;
mod cost_variants;
mod decl;
mod error;
mod facing;
mod facing_search;
mod field;
mod legality;
mod mp;
mod occupancy;
mod profile;
mod rail;
mod reach;
mod rules;
mod step;
mod supply;
mod territory;
mod topology;
mod zoc;

#[cfg(test)]
mod tests;

pub use arc::{front_mask, rotate, Facing};
pub use cost_variants::{CostVariants, COSTS_BY_VARIABLE};
pub use decl::UnitSelector;
pub use error::{DeclarationError, PositionError};
pub use facing::{
    FacingBoard, FacingError, FacingOptions, FacingRefusal, FacingRules, FacingType, KindRule,
    Model,
};
pub use facing_search::{check_move, reach_facing, FacingReach, FacingReached, FacingSearch};
pub use field::StepField;
pub use legality::{check_path, Clauses, MoveRefusal, PathError, RuleKind};
pub use mp::Mp;
pub use occupancy::{Cell, Occupancy, Placed};
pub use profile::{HexsideCosts, MovementProfile};
pub use rail::{rail_destinations, RailPolicy};
pub use reach::{reach, Reach, ReachSearch, Reached};
pub use rules::{PathRules, DECLARATION_KEYS};
pub use supply::{
    supply_groups, trace_supply, SourceSet, SupplyField, SupplyGroup, SupplyPolicy, SupplyReport,
};
pub use territory::{control_changes, update_control, Control, TerritoryPolicy};
pub use topology::{Topology, OFF_MAP};
pub use zoc::ZocPolicy;

/// A declared side, by its position in `sides`.
pub type SideId = u8;
/// A declared movement class, by its position in `classes`.
pub type ClassId = usize;
/// A set of sides, bit `s` = side `s`.
pub type SideMask = u8;
/// "No side": a neutral hex, or one nobody has held yet.
pub const NO_SIDE: SideId = SideId::MAX;
/// At most 8 sides, so a side set fits a byte.
pub const MAX_SIDES: usize = 8;
