//! Bots: players that choose among the legal commands the rules list. Any game works with them
//! because they only use the engine's legal-command API.

mod driver;
mod random;
mod sides;

pub use driver::{play, play_observed, Played, RunLimit, RunReport};
pub use random::RandomBot;
pub use sides::SideBots;

use crate::engine::{Command, Game, RulesError};

/// A player that picks the next command for a side.
pub trait Bot {
    /// The next command for `side`, chosen among `legal` (never empty: it holds at least
    /// `EndPhase`).
    fn choose(
        &mut self,
        game: &mut Game,
        side: &str,
        legal: &[Command],
    ) -> Result<Command, RulesError>;
}
