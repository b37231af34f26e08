//! A session ties a scenario, its Lua rules and a game together: start a new game, or resume
//! one from a save. This is the embedding entry point.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::{Dice, EventLimits, Game, GameError, Save, SaveError};
use crate::rules::{LuaRules, RulesLoadError};
use crate::scenario::{load_scenario, Scenario, ScenarioError};

/// Anything that stops a game from being set up.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
    Scenario(Vec<ScenarioError>),
    #[error("{0}")]
    Rules(#[from] RulesLoadError),
    #[error("{0}")]
    Save(#[from] SaveError),
    #[error("{0}")]
    Game(#[from] GameError),
    #[error("{path}: the save belongs to scenario '{found}', but that file now holds scenario '{expected}'")]
    WrongScenario {
        path: PathBuf,
        found: String,
        expected: String,
    },
}

/// The salt that separates the bots' dice from the game's dice.
const BOT_SALT: u64 = 0x5eed_b075;

/// A loaded game and what it came from.
pub struct Session {
    pub scenario: Arc<Scenario>,
    pub game: Game,
    pub seed: u64,
    pub bot_dice: Dice,
}

impl Session {
    /// Loads a scenario and its rules and starts a new game.
    pub fn start(path: &Path, seed: Option<u64>) -> Result<Session, SessionError> {
        let scenario = Arc::new(load_scenario(path).map_err(SessionError::Scenario)?);
        let seed = seed.unwrap_or(scenario.seed);
        let rules = LuaRules::load(&scenario)?;
        let limits = EventLimits {
            max_depth: scenario.limits.event_depth,
            max_events: scenario.limits.events_per_command,
        };
        let mut game = Game::new(
            scenario.initial_state(seed),
            Box::new(rules),
            scenario.turns,
            limits,
        );
        game.start(seed)?;
        Ok(Session {
            scenario,
            game,
            seed,
            bot_dice: Dice::new(seed ^ BOT_SALT),
        })
    }

    /// Resumes a saved game: the scenario and rules are loaded again from the save's scenario path.
    pub fn resume(save_path: &Path) -> Result<Session, SessionError> {
        let save = Save::read(save_path)?;
        let scenario =
            Arc::new(load_scenario(&save.scenario_path).map_err(SessionError::Scenario)?);
        if scenario.id != save.state.scenario {
            return Err(SessionError::WrongScenario {
                path: save_path.into(),
                found: save.state.scenario.clone(),
                expected: scenario.id.clone(),
            });
        }
        let rules = LuaRules::load(&scenario)?;
        let limits = EventLimits {
            max_depth: scenario.limits.event_depth,
            max_events: scenario.limits.events_per_command,
        };
        let game = Game::new(save.state, Box::new(rules), scenario.turns, limits);
        Ok(Session {
            scenario,
            game,
            seed: save.seed,
            bot_dice: save.bot_dice,
        })
    }

    /// The game as a save.
    pub fn to_save(&self) -> Save {
        Save::new(
            self.scenario.path.clone(),
            self.seed,
            self.bot_dice,
            self.game.state().clone(),
        )
    }
}
