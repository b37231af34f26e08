//! Scenario files (TOML): read into a spec, then validated into a [`Scenario`], with every
//! error located by file and line (the shakmaty `Setup` -> `Position` split).

mod error;
mod fingerprint;
mod fit;
mod load;
mod spec;

pub use error::ScenarioError;
pub use fingerprint::Fingerprint;
pub use fit::{direction, finite, movement_allowance, strength_points, unit_numbers, Fit};
pub use load::{load_scenario, parse_scenario, rules_named, Limits, Scenario, RANDOM_BOT};
pub use spec::{ScenarioSpec, UnitSpec};
