//! The legal commands of one decision, listed only when someone asks. A bot that picks a unit
//! and then that unit's command never pays for every command of every unit; a replay recorder,
//! which stores how many commands were legal, asks for the whole list once.

use crate::engine::{Command, CommandFilter, Game, RulesError};

/// The legal commands of `side` in the current position, computed at most once.
#[derive(Debug, Clone)]
pub struct LegalCommands {
    side: String,
    all: Option<Vec<Command>>,
}

impl LegalCommands {
    pub fn new(side: &str) -> Self {
        LegalCommands {
            side: side.to_string(),
            all: None,
        }
    }

    pub fn side(&self) -> &str {
        &self.side
    }

    /// Every legal command (listed on the first call).
    pub fn all(&mut self, game: &mut Game) -> Result<&[Command], RulesError> {
        if self.all.is_none() {
            self.all = Some(game.legal_commands(&self.side)?);
        }
        Ok(self.all.as_deref().unwrap_or_default())
    }

    /// The legal commands `filter` matches: from the whole list when it is known, else from the
    /// rules' cheaper partial listing.
    pub fn matching(
        &self,
        game: &mut Game,
        filter: &CommandFilter,
    ) -> Result<Vec<Command>, RulesError> {
        match &self.all {
            Some(all) => Ok(all.iter().filter(|c| filter.matches(c)).cloned().collect()),
            None => game.legal_commands_matching(&self.side, filter),
        }
    }

    /// How many commands are legal, if the whole list was asked for.
    pub fn count(&self) -> Option<usize> {
        self.all.as_ref().map(Vec::len)
    }
}
