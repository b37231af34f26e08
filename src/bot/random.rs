//! The random-legal bot: a fair pick among the legal commands, ending the phase with a chance
//! that grows with the number of commands already given in it.

use super::{Bot, LegalCommands};
use crate::engine::{Command, Dice, Game, RulesError};

/// Picks uniformly among legal commands other than `EndPhase`; ends the phase when none is left
/// or after `max_per_phase` commands, and ends it early only when `EndPhase` is listed.
pub struct RandomBot {
    pub dice: Dice,
    pub max_per_phase: u32,
    given: u32,
    phase_key: (u32, u32, String),
    /// Dice, count and phase before the last decision, for [`Bot::take_back`].
    before_last: Option<(Dice, u32, (u32, u32, String))>,
}

impl RandomBot {
    pub fn new(dice: Dice) -> Self {
        RandomBot {
            dice,
            max_per_phase: 50,
            given: 0,
            phase_key: (0, 0, String::new()),
            before_last: None,
        }
    }

    /// The commands this bot has given in its current phase (turn, step, side), which count
    /// against `max_per_phase`: a host that saves in the middle of a phase keeps it beside
    /// the save (its `host` field) and hands it to the new bot with
    /// [`RandomBot::resume_phase`], so the resumed game plays as the uninterrupted one.
    pub fn given_in_phase(&self) -> (u32, u32, &str, u32) {
        let (turn, step, side) = &self.phase_key;
        (*turn, *step, side, self.given)
    }

    /// Takes up a phase where another bot left it: `given` commands already given by `side`
    /// in (turn, step).
    pub fn resume_phase(&mut self, turn: u32, step: u32, side: &str, given: u32) {
        self.phase_key = (turn, step, side.to_string());
        self.given = given;
    }
}

impl Bot for RandomBot {
    fn choose(
        &mut self,
        game: &mut Game,
        legal: &mut LegalCommands,
    ) -> Result<Command, RulesError> {
        self.before_last = Some((self.dice, self.given, self.phase_key.clone()));
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
        let all = legal.all(game)?;
        // Rules that list `end_phase` themselves leave it out while the phase may not end
        // (France 1940's stacking): then the bot goes on with the other commands.
        let may_end = all.iter().any(|c| matches!(c, Command::EndPhase));
        let others: Vec<&Command> = all
            .iter()
            .filter(|c| !matches!(c, Command::EndPhase))
            .collect();
        if others.is_empty() || (may_end && self.given >= self.max_per_phase) {
            return Ok(Command::EndPhase);
        }
        // One chance in (n + 1) to stop early keeps games varied without stalling.
        let choices = others.len() as u32 + u32::from(may_end);
        let pick = self.dice.roll(choices) as usize - 1;
        self.given += 1;
        Ok(others
            .get(pick)
            .map(|c| (*c).clone())
            .unwrap_or(Command::EndPhase))
    }

    fn take_back(&mut self) {
        if let Some((dice, given, key)) = self.before_last.take() {
            (self.dice, self.given, self.phase_key) = (dice, given, key);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::RandomBot;
    use crate::bot::{play, Bot, RunLimit};
    use crate::engine::{
        Command, Dice, Event, EventLimits, Game, GameState, Outcome, Refusal, Resolution,
        RulesError, Ruleset, Sequence, Step,
    };

    /// Nim-like: a side must take a stone before it may end its phase; `end_phase` is listed
    /// only once it has, and refused before.
    struct MustTake(Sequence);

    fn taken(state: &GameState) -> bool {
        state.vars.get("taken").and_then(|v| v.as_u64()) == Some(u64::from(state.turn))
    }

    impl Ruleset for MustTake {
        fn sequence(&self) -> &Sequence {
            &self.0
        }
        fn legal_commands(
            &mut self,
            state: &GameState,
            _: &str,
        ) -> Result<Vec<Command>, RulesError> {
            let take = Command::Custom {
                name: "take".into(),
                args: Default::default(),
            };
            Ok(if taken(state) {
                vec![take, Command::EndPhase]
            } else {
                vec![take]
            })
        }
        fn resolve(
            &mut self,
            state: &GameState,
            _: Option<&str>,
            command: &Command,
        ) -> Result<Resolution, RulesError> {
            Ok(match command {
                Command::EndPhase if !taken(state) => {
                    Err(Refusal::new("NIM-1", "take a stone first"))
                }
                Command::EndPhase => Ok(Vec::new()),
                _ => Ok(vec![Event::VarSet {
                    key: "taken".into(),
                    value: json!(state.turn).into(),
                }]),
            })
        }
        fn victory(&mut self, _: &GameState) -> Result<Outcome, RulesError> {
            Ok(Outcome {
                winner: None,
                scores: BTreeMap::new(),
                reason: "over".into(),
            })
        }
    }

    /// A game of MustTake, one side, `turns` turns.
    fn must_take(seed: u64, turns: u32) -> Game {
        let sequence = Sequence {
            steps: vec![Step {
                side: Some("a".into()),
                phase: "take".into(),
            }],
            special: BTreeMap::new(),
        };
        let mut game = Game::new(
            GameState::new("nim", seed),
            Box::new(MustTake(sequence)),
            turns,
            EventLimits::default(),
        );
        game.start(seed).expect("the game starts");
        game
    }

    /// One command from `bot`, given: its name.
    fn step(game: &mut Game, bot: &mut RandomBot) -> String {
        let mut legal = crate::bot::LegalCommands::new("a");
        let command = bot.choose(game, &mut legal).expect("a choice");
        game.submit(Some("a"), &command).expect("accepted");
        command.name().to_string()
    }

    /// A host that drives the bot one command at a time and hands a new bot over in the
    /// middle of a phase (a save and resume) plays the uninterrupted game when it passes the
    /// allowance used on (`given_in_phase`, `resume_phase`); a fresh allowance plays another
    /// game for some seeds.
    #[test]
    fn a_bot_taking_up_a_phase_where_another_left_it_plays_the_same_game() {
        let play = |seed: u64, hand_over: bool| {
            let mut game = must_take(seed, 3);
            let mut bot = RandomBot::new(Dice::new(seed));
            bot.max_per_phase = 2;
            let mut names = vec![step(&mut game, &mut bot)];
            let mut next = RandomBot::new(bot.dice);
            next.max_per_phase = 2;
            if hand_over {
                let (turn, step_index, side, given) = bot.given_in_phase();
                next.resume_phase(turn, step_index, side, given);
            }
            while !game.is_over() {
                names.push(step(&mut game, &mut next));
            }
            names
        };
        let mut differed = 0;
        for seed in 1..=40 {
            let whole = {
                let mut game = must_take(seed, 3);
                let mut bot = RandomBot::new(Dice::new(seed));
                bot.max_per_phase = 2;
                let mut names = Vec::new();
                while !game.is_over() {
                    names.push(step(&mut game, &mut bot));
                }
                names
            };
            assert_eq!(play(seed, true), whole, "seed {seed}");
            differed += usize::from(play(seed, false) != whole);
        }
        assert!(
            differed > 0,
            "a fresh allowance changed no game: the test shows nothing"
        );
    }

    /// The random bot ends a phase early only when `end_phase` is listed: a game whose rules
    /// leave it out until a condition holds is played to its end, whatever the dice.
    #[test]
    fn the_random_bot_does_not_end_a_phase_the_rules_do_not_list_end_phase_in() {
        for seed in 1..=40 {
            let sequence = Sequence {
                steps: vec![Step {
                    side: Some("a".into()),
                    phase: "take".into(),
                }],
                special: BTreeMap::new(),
            };
            let state = GameState::new("nim", seed);
            let mut game = Game::new(
                state,
                Box::new(MustTake(sequence)),
                5,
                EventLimits::default(),
            );
            game.start(seed).expect("the game starts");
            let mut bot = RandomBot::new(Dice::new(seed));
            let report = play(&mut game, &mut bot, &["a".to_string()], RunLimit::End)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(game.is_over(), "seed {seed}");
            assert_eq!(report.refused, 0, "seed {seed}");
        }
    }
}
