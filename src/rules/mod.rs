//! The Lua host: a sandboxed Lua 5.4 VM per game that loads a scenario's rules modules and
//! implements [`crate::engine::Ruleset`] over them.
//!
//! * `sandbox`: which libraries and functions scripts get (DESIGN.md principle 5).
//! * `budget`: the instruction budget and memory limit that bound every call.
//! * `host_work`: what the `hex` API's own work is charged to the budget.
//! * `loader`: `require` confined to the scenario's rule roots.
//! * `api/`: the `hex.*` namespaces, one file each.
//! * `host`: `LuaRules`, the `Ruleset` implementation.
//! * `luals`: the LuaLS definition file of the API (`hexwar api --luals`).
//! * `api_listing`: the same API as data (`hexwar api --json`).
//! * `lua_stack`: values written onto and read from the Lua stack in one protected call (the
//!   crate's only `unsafe` code, and its safety argument).

mod api;
mod api_listing;
pub(crate) mod bounded;
mod budget;
mod build_check;
pub(crate) mod command_args;
mod convert;
mod error;
mod event_check;
mod host;
mod host_work;
mod lint;
pub(crate) mod list_length;
mod loader;
mod lua_stack;
mod luals;
mod map_change_check;
pub(crate) mod map_in_force;
mod module_fields;
mod sandbox;

pub(crate) use budget::{Budget, EXCEEDED as BUDGET_EXCEEDED, WALL_MARK};
pub(crate) use error::{
    bad_argument, called_field, is_located, memory_exceeded, without_addresses,
};
pub mod profile;
pub use api_listing::{
    api_listing, AliasEntry, ApiListing, ClassEntry, FieldEntry, FunctionEntry, NamespaceEntry,
    TypedName,
};
pub(crate) use budget::script_place;
pub use build_check::lua_hash_seed_is_fixed;
pub(crate) use host::{already_loaded, module_name_arg, run_module};
pub use host::{LuaRules, RulesLoadError};
pub use lint::{
    describe_module_changes, event_name_warnings, file_hashes, loaded_names, module_hashes,
    recorded_hashes, syntax_errors,
};
pub use loader::{check_module_name, find_module, nearest_module};
pub use luals::{luals_definitions, LualsError};
pub(crate) use sandbox::{guard_protected_calls, new_vm};

/// The version of the `hex.*` API scripts see as `hex.api_version`.
pub const API_VERSION: u32 = 1;
