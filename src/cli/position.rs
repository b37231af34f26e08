//! The position the looking commands work on (`legal`, `status`, `query`, `reach`, `supply`,
//! `render`): a scenario's start or a save, with a `--setup` laid over it and `--mod`s loaded.
//! One set of arguments, so that each command takes and describes them alike.

use std::path::PathBuf;

use clap::Args;

use super::HostChoices;

#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Scenario directory or file, or a save.
    pub scenario: PathBuf,
    /// A position to look at instead of the scenario's or the save's (the `--setup` schema).
    #[arg(long)]
    pub setup: Option<PathBuf>,
    /// Load the Lua file FILE.lua after the scenario's rules (as `run --mod`); repeatable.
    #[arg(long = "mod", value_name = "FILE.lua")]
    pub mods: Vec<PathBuf>,
}

impl PositionArgs {
    /// The game to look at: no seed, nothing trusted. The error is the message `fail` prints.
    pub fn open(&self) -> Result<crate::Session, String> {
        let choices = HostChoices {
            mods: &self.mods,
            ..Default::default()
        };
        super::open_session(&self.scenario, None, self.setup.as_deref(), &choices)
    }
}
