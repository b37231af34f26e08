//! The game engine: state, commands, events, the sequence of play. It knows no Lua: rules come in
//! through the [`Ruleset`] trait.

mod apply;
mod command;
mod dice;
mod duplicate_keys;
mod empty_table;
mod event;
mod event_fit;
mod file_kind;
mod game;
mod map_changes;
mod policy;
mod ruleset;
mod save;
mod sequence;
mod state;
mod undo;
mod unit;

pub use apply::{apply, ApplyError};
pub use command::{Command, Refusal};
pub use dice::Dice;
pub(crate) use duplicate_keys::refuse_duplicate_keys;
pub use event::{Event, SharedJson};
pub use event_fit::{direction, finite};
pub(crate) use event_fit::{engine_only, fit_for_rules};
pub(crate) use file_kind::{json_file_kind, toml_file_kind, JsonLines, TomlKind};
pub use game::{EventLimits, Game, GameError};
pub use map_changes::{hexside_key, hexside_labels, FeatureChange, HexChange, MapChanges};
pub use policy::{CommandPolicy, WithPolicy};
pub use ruleset::{CommandFilter, Resolution, RulesError, RulesErrorKind, Ruleset};
pub(crate) use save::json_problem;
pub use save::{Save, SaveError, MAX_SAVE_BYTES, SAVE_FORMAT, SAVE_VERSION};
pub use sequence::{Sequence, Step};
pub(crate) use state::Change;
pub use state::{GameState, GoneUnit, Outcome, Revision};
pub use unit::Unit;
