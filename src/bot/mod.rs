//! Bots: players that choose among the legal commands the rules list. Any game works with them
//! because they only use the engine's legal-command API. The list is lazy ([`LegalCommands`]):
//! a bot asks for all of it, for one kind of command or one unit's commands, or (a bot of the
//! rules, in Lua) lists what it needs itself.

mod driver;
mod legal;
mod random;
mod sides;

pub use driver::{
    play, play_keeping_report, play_observed, PlayOptions, Played, RunLimit, RunReport, SidesDone,
};
pub use legal::LegalCommands;
pub use random::RandomBot;
pub use sides::{ask_lua_bot, SideBots};

use crate::engine::{Command, Game, RulesError};

/// A player that picks the next command for a side.
pub trait Bot {
    /// The next command for `legal.side()`, chosen among the legal commands (never none: they
    /// hold at least `EndPhase`). A bot keeps no game state between calls: what is left to do
    /// comes from the position (a saved game continued plays as the uninterrupted one). Its
    /// dice are the host's to save (`Save::bot_dice`). One counter is the bot's own:
    /// [`RandomBot`]'s allowance of commands in a phase, which a new bot starts afresh; the
    /// CLI saves only where it is 0 (a turn's start, or before a side's first command), and a
    /// host saving in the middle of a phase keeps it with [`RandomBot::given_in_phase`].
    fn choose(&mut self, game: &mut Game, legal: &mut LegalCommands)
        -> Result<Command, RulesError>;

    /// Takes back the last decision: its command met a rules error, so the game stays as it
    /// was, and a save written now must go on as if the bot had not chosen (the same command,
    /// the same error, not another game). A bot that rolls dice or counts its commands puts
    /// them back; the default does nothing.
    fn take_back(&mut self) {}
}
