//! The bots of a scenario: a Lua bot for each side whose `[[side]]` names one (`bot =
//! "demo.ai"`), the random bot for the others.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::{Bot, LegalCommands, RandomBot};
use crate::engine::{Command, Dice, Game, RulesError};

/// Dispatches each side to its bot.
pub struct SideBots {
    /// The random bot; its dice also give Lua bots their seeds.
    pub random: RandomBot,
    /// Side -> Lua bot module.
    pub lua: BTreeMap<String, String>,
    /// The dice before the last decision of a Lua bot, for [`Bot::take_back`] (None when
    /// the random bot made it: it takes back its own).
    lua_before: Option<Dice>,
}

impl SideBots {
    pub fn new(random: RandomBot, lua: BTreeMap<String, String>) -> Self {
        SideBots {
            random,
            lua,
            lua_before: None,
        }
    }
}

impl Bot for SideBots {
    fn choose(
        &mut self,
        game: &mut Game,
        legal: &mut LegalCommands,
    ) -> Result<Command, RulesError> {
        let side = legal.side().to_string();
        // (a decision that fails leaves the dice as they were: a save written after the error
        // goes on as the game before it did, and the same error comes again, not another)
        let before = self.random.dice;
        self.lua_before = None;
        let choice = match self.lua.get(&side) {
            None => self.random.choose(game, legal),
            Some(module) => {
                self.lua_before = Some(before);
                let seed = self.random.dice.roll(u32::MAX);
                ask_lua_bot(game, module, &side, u64::from(seed))
            }
        };
        if choice.is_err() {
            self.take_back();
        }
        choice
    }

    fn take_back(&mut self) {
        match self.lua_before.take() {
            Some(dice) => self.random.dice = dice,
            None => self.random.take_back(),
        }
    }
}

/// The command the Lua bot `module` gives for `side` now, asked with `seed` as a run asks it
/// (`hexwar test`'s `t.bot` too): a command table, or an index read from the legal list. An
/// answer that is neither, or a command with an argument its command does not take, is the
/// bot's error.
pub fn ask_lua_bot(
    game: &mut Game,
    module: &str,
    side: &str,
    seed: u64,
) -> Result<Command, RulesError> {
    // The Lua bot lists the legal commands it needs in the VM itself (docs/rules-api.md,
    // "Bots"): nothing is listed here, nothing crosses as JSON but its answer.
    let arg = json!({ "bot": module, "side": side, "seed": seed });
    let answer = game.query("bot", &arg)?;
    let bad = |what: String| RulesError::new(format!("bot '{module}' for {side}: {what}"));
    match answer {
        Some(Value::Object(map)) => {
            let command = Command::try_from(map).map_err(bad)?;
            // (an argument the command does not take is the bot's mistake, as a malformed
            // `move` is: an error, not a refusal that silently ends its side's phase)
            match game.rules_mut().unknown_argument(&command) {
                Some(r) => Err(bad(format!("returned {}", r.reason))),
                None => Ok(command),
            }
        }
        other => {
            // (the answer as the script wrote it: `nil`, `"end_phase"`, never Rust's debug form)
            let shown = match &other {
                None | Some(Value::Null) => "nil".to_string(),
                Some(v) => v.to_string(),
            };
            Err(bad(format!(
                "returned {shown}; a bot returns the index of a legal command or a command table"
            )))
        }
    }
}
