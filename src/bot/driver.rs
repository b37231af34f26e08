//! Plays a game headless: bots give commands for the phasing side until the game ends or a
//! turn limit is reached. In a simultaneous step (no phasing side) every side gives its commands
//! in turn, then the phase ends.

use super::Bot;
use crate::engine::{Command, Game, GameError};

/// Where a headless run stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunLimit {
    /// Play to the end of the game.
    End,
    /// Stop when this turn is about to start (before any command in it).
    BeforeTurn(u32),
}

/// What happened in a headless run.
#[derive(Debug, Clone, Default)]
pub struct RunReport {
    pub commands: u64,
    pub refused: u64,
}

/// Plays until the limit. Refused commands (a bot picked an order the rules then refused) are
/// counted and replaced by ending the phase, so a buggy `legal` list cannot stall a game.
pub fn play(
    game: &mut Game,
    bot: &mut dyn Bot,
    sides: &[String],
    limit: RunLimit,
) -> Result<RunReport, GameError> {
    let mut report = RunReport::default();
    let mut guard: u64 = 0;
    while !game.is_over() {
        if let RunLimit::BeforeTurn(turn) = limit {
            if game.state().turn >= turn && game.state().step == 0 {
                break;
            }
        }
        guard += 1;
        if guard > 10_000_000 {
            return Err(GameError::Rules(crate::engine::RulesError::new(
                "the game did not end after 10 million commands",
            )));
        }
        if game.phasing_side().is_none() && sides.len() > 1 {
            // A simultaneous step (Diplomacy): every side gives its commands, then the phase ends.
            for side in sides {
                loop {
                    guard += 1;
                    let legal = game.legal_commands(side)?;
                    let command = bot.choose(game, side, &legal)?;
                    if matches!(command, Command::EndPhase) {
                        break;
                    }
                    report.commands += 1;
                    match game.submit(Some(side), &command) {
                        Ok(_) => {}
                        Err(GameError::Refused(_)) => {
                            report.refused += 1;
                            break;
                        }
                        Err(e) => return Err(e),
                    }
                }
            }
            report.commands += 1;
            game.submit(None, &Command::EndPhase)?;
            continue;
        }
        let side = game
            .phasing_side()
            .or_else(|| sides.first().cloned())
            .unwrap_or_default();
        let legal = game.legal_commands(&side)?;
        let command = bot.choose(game, &side, &legal)?;
        report.commands += 1;
        match game.submit(Some(&side), &command) {
            Ok(_) => {}
            Err(GameError::Refused(_)) if !matches!(command, Command::EndPhase) => {
                report.refused += 1;
                game.submit(Some(&side), &Command::EndPhase)?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(report)
}
