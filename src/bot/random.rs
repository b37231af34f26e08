//! The random-legal bot: a fair pick among the legal commands, ending the phase with a chance
//! that grows with the number of commands already given in it.

use super::{Bot, LegalCommands};
use crate::engine::{Command, Dice, Game, RulesError};

/// Picks uniformly among legal commands other than `EndPhase`; ends the phase when none is left
/// or after `max_per_phase` commands.
pub struct RandomBot {
    pub dice: Dice,
    pub max_per_phase: u32,
    given: u32,
    phase_key: (u32, u32, String),
}

impl RandomBot {
    pub fn new(dice: Dice) -> Self {
        RandomBot {
            dice,
            max_per_phase: 50,
            given: 0,
            phase_key: (0, 0, String::new()),
        }
    }
}

impl Bot for RandomBot {
    fn choose(
        &mut self,
        game: &mut Game,
        legal: &mut LegalCommands,
    ) -> Result<Command, RulesError> {
        // Per side too: in a simultaneous step each side gets its own allowance.
        let key = (
            game.state().turn,
            game.state().step,
            legal.side().to_string(),
        );
        if key != self.phase_key {
            self.phase_key = key;
            self.given = 0;
        }
        let others: Vec<&Command> = legal
            .all(game)?
            .iter()
            .filter(|c| !matches!(c, Command::EndPhase))
            .collect();
        if others.is_empty() || self.given >= self.max_per_phase {
            return Ok(Command::EndPhase);
        }
        // One chance in (n + 1) to stop early keeps games varied without stalling.
        let pick = self.dice.roll(others.len() as u32 + 1) as usize - 1;
        self.given += 1;
        Ok(others
            .get(pick)
            .map(|c| (*c).clone())
            .unwrap_or(Command::EndPhase))
    }
}
