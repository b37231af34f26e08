//! `PathRules`: a game's whole movement declaration compiled against one map.

use serde_json::Value;

use super::decl;
use super::error::DeclarationError;
use super::legality::Clauses;
use super::profile::MovementProfile;
use super::rail::RailPolicy;
use super::supply::SupplyPolicy;
use super::territory::TerritoryPolicy;
use super::topology::Topology;
use super::zoc::ZocPolicy;
use crate::board::HexMap;

/// The top-level keys of a declaration (see docs/movement.md).
pub const DECLARATION_KEYS: [&str; 16] = [
    "sides",
    "vocabulary",
    "classes",
    "unit_class",
    "terrain",
    "hexsides",
    "roads",
    "friendly_status_cost",
    "enemy_hexes",
    "no_entry_across",
    "zoc",
    "supply",
    "rail",
    "territory",
    "clauses",
    // (read by `CostVariants`, not here)
    super::cost_variants::COSTS_BY_VARIABLE,
];

/// Everything the searches need to know about a game's rules, as dense tables for one map.
/// Compile again when the map or a rule changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathRules {
    pub profile: MovementProfile,
    pub zoc: ZocPolicy,
    pub supply: SupplyPolicy,
    pub rail: RailPolicy,
    pub territory: TerritoryPolicy,
    pub clauses: Clauses,
    pub topology: Topology,
    /// Every path cost is a multiple of this many raw 1/64 MP (≥ 1): the bucket width of the
    /// reach search.
    pub(crate) cost_quantum: u32,
}

impl PathRules {
    /// Compiles a declaration (the JSON form of the Lua `movement` table) against a map.
    pub fn compile(declaration: &Value, map: &HexMap) -> Result<PathRules, DeclarationError> {
        let top = decl::table(declaration, "declaration", &DECLARATION_KEYS)?
            .ok_or_else(|| decl::bad("declaration", "a table", declaration))?;
        let profile = MovementProfile::compile(declaration, map)?;
        let zoc = ZocPolicy::compile(top.get("zoc"), &profile.vocab, map)?.unwrap_or_default();
        let supply = SupplyPolicy::compile(top.get("supply"), &profile.vocab, map)?;
        let rail = RailPolicy::compile(top.get("rail"), &profile.vocab, map)?;
        let territory = TerritoryPolicy::compile(top.get("territory"))?;
        let clauses = Clauses::compile(top.get("clauses"))?;
        let cost_quantum = super::profile::gcd(profile.cost_gcd(), zoc.leave_cost).max(1);
        Ok(PathRules {
            cost_quantum,
            profile,
            zoc,
            supply,
            rail,
            territory,
            clauses,
            topology: Topology::new(map),
        })
    }
}
