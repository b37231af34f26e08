//! Plays a game headless: bots give commands for the phasing side until the game ends or a
//! turn limit is reached. In a simultaneous step (no phasing side) every side gives its commands
//! in turn, then the phase ends.

use super::{Bot, LegalCommands};
use crate::engine::{Command, Game, GameError};

/// How a headless run is played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayOptions<'a> {
    /// List every legal command before each choice, even when the bot does not need them, so
    /// that [`Played::legal`] is always known (a replay records it). Off, a bot that asks for
    /// one unit's commands at a time never pays for the whole list.
    pub count_legal: bool,
    /// A side a person plays (by `hexwar play`): the run stops when that side is to give a
    /// command, before it does: at its phase, or in a simultaneous step once every other side
    /// has given its commands ([`RunReport::waiting_for`]); in a one-side game, at a step
    /// without a phasing side too (that side's).
    pub stop_for_side: Option<&'a str>,
    /// Sides that have given their commands in a simultaneous step already (a run that stopped
    /// there for a person's side, saved and resumed: [`RunReport::sides_done`]): not asked again
    /// in that step, so their bots draw no dice for it and give no second set of commands.
    pub sides_done: Option<&'a SidesDone>,
}

/// The sides that have given their commands in one simultaneous step (`turn`, `step`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SidesDone {
    pub turn: u32,
    pub step: u32,
    pub sides: Vec<String>,
}

impl SidesDone {
    /// The sides done in the step `state` stands at (none for another step: the list is stale
    /// once the game has moved on).
    pub fn at(done: Option<&SidesDone>, state: &crate::engine::GameState) -> Vec<String> {
        done.filter(|d| (d.turn, d.step) == (state.turn, state.step))
            .map(|d| d.sides.clone())
            .unwrap_or_default()
    }
}

/// Where a headless run stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunLimit {
    /// Play to the end of the game.
    End,
    /// Stop when this turn is about to start (before any command in it), or at once when the
    /// game is already in it or past it (`--turns 0` on a save taken mid-turn plays nothing).
    BeforeTurn(u32),
}

/// What happened in a headless run.
#[derive(Debug, Clone, Default)]
pub struct RunReport {
    pub commands: u64,
    pub refused: u64,
    /// The side the run stopped for ([`PlayOptions::stop_for_side`]), when it did.
    pub waiting_for: Option<String>,
    /// When the run stopped inside a simultaneous step, for [`RunReport::waiting_for`] or
    /// at an error ([`play_keeping_report`]): the sides that have given their commands in it
    /// (a save records them, [`crate::engine::Save::sides_done`]).
    pub sides_done: Option<SidesDone>,
}

/// One command a bot gave, as an observer (a replay recorder) sees it.
#[derive(Debug, Clone)]
pub struct Played<'a> {
    pub side: &'a str,
    pub command: &'a Command,
    /// How many commands were legal when the bot chose (known when the run counts them,
    /// [`PlayOptions::count_legal`], or when the bot listed them all).
    pub legal: Option<usize>,
    /// Whether the rules accepted it.
    pub accepted: bool,
}

/// Plays until the limit. Refused commands (a bot picked an order the rules then refused) are
/// counted and replaced by ending the phase, so a buggy `legal` list cannot stall a game.
/// `sides`: the scenario's sides, which a simultaneous step (no phasing side) asks in this
/// order; a side the scenario lacks is a `HostCall` error.
pub fn play(
    game: &mut Game,
    bot: &mut dyn Bot,
    sides: &[String],
    limit: RunLimit,
) -> Result<RunReport, GameError> {
    play_observed(
        game,
        bot,
        sides,
        limit,
        PlayOptions::default(),
        &mut |_, _| {},
    )
}

/// `play`, calling `observe` after every command with the game as it then stands.
pub fn play_observed(
    game: &mut Game,
    bot: &mut dyn Bot,
    sides: &[String],
    limit: RunLimit,
    options: PlayOptions<'_>,
    observe: &mut dyn FnMut(&mut Game, Played<'_>),
) -> Result<RunReport, GameError> {
    let mut report = RunReport::default();
    play_keeping_report(game, bot, sides, limit, options, observe, &mut report)?;
    Ok(report)
}

/// How many commands one run gives before it takes the game for one that never ends (a bot
/// that gives commands forever in a phase that only it can end).
const COMMANDS_AT_MOST: u64 = 10_000_000;

/// `play_observed`, with what was played in `report` even when an error stops the run: its
/// `sides_done` then names the sides that gave their commands in the simultaneous step where
/// it stopped (all of them when the phase's end failed), so that a save written then, run
/// again, does not ask them again with other dice and meets the same error.
pub fn play_keeping_report(
    game: &mut Game,
    bot: &mut dyn Bot,
    sides: &[String],
    limit: RunLimit,
    options: PlayOptions<'_>,
    observe: &mut dyn FnMut(&mut Game, Played<'_>),
    report: &mut RunReport,
) -> Result<(), GameError> {
    play_at_most(
        game,
        bot,
        sides,
        limit,
        options,
        observe,
        report,
        COMMANDS_AT_MOST,
    )
}

/// Counts one more command (or step) of a run: past `at_most`, the game is taken for one that
/// never ends.
fn count_one(given: &mut u64, at_most: u64) -> Result<(), GameError> {
    *given += 1;
    if *given > at_most {
        return Err(GameError::Rules(crate::engine::RulesError::new(format!(
            "the game did not end after {at_most} commands"
        ))));
    }
    Ok(())
}

/// [`play_keeping_report`] with the count of commands it gives `at_most` (a test's is small).
#[allow(clippy::too_many_arguments)]
fn play_at_most(
    game: &mut Game,
    bot: &mut dyn Bot,
    sides: &[String],
    limit: RunLimit,
    options: PlayOptions<'_>,
    observe: &mut dyn FnMut(&mut Game, Played<'_>),
    report: &mut RunReport,
    at_most: u64,
) -> Result<(), GameError> {
    // (a misspelt person's side, `Blue`, let the bots play that side's whole game)
    let known = game.rules().sides();
    if !known.is_empty() {
        let named = options.stop_for_side.into_iter();
        if let Some(side) = named
            .chain(sides.iter().map(String::as_str))
            .find(|side| !known.iter().any(|k| k == side))
        {
            return Err(GameError::Rules(crate::engine::RulesError::of_kind(
                crate::engine::RulesErrorKind::HostCall,
                format!(
                    "bot::play: {} (PlayOptions::stop_for_side and the sides bots play name \
                     sides of the scenario)",
                    crate::spelling::unknown_side(side, known)
                ),
            )));
        }
    }
    let listed = |game: &mut Game, side: &str| -> Result<LegalCommands, GameError> {
        let mut legal = LegalCommands::new(side);
        if options.count_legal {
            legal.all(game)?;
        }
        Ok(legal)
    };
    let mut guard: u64 = 0;
    while !game.is_over() {
        if let RunLimit::BeforeTurn(turn) = limit {
            if game.state().turn >= turn {
                break;
            }
        }
        let person = options.stop_for_side;
        count_one(&mut guard, at_most)?;
        if game.phasing_side().is_none() && sides.len() > 1 {
            // A simultaneous step (Diplomacy): every side gives its commands, then the phase ends
            // (the person's side, if any, gives its own after the run: it stops before the end).
            let done_before = SidesDone::at(options.sides_done, game.state());
            let mut done = SidesDone {
                turn: game.state().turn,
                step: game.state().step,
                sides: done_before.clone(),
            };
            report.sides_done = Some(done.clone());
            for side in sides
                .iter()
                .filter(|s| Some(s.as_str()) != person && !done_before.contains(s))
            {
                loop {
                    // (checked here too: a bot that never ended its part of a simultaneous
                    // step, its commands all taken, kept the run going for ever)
                    count_one(&mut guard, at_most)?;
                    let mut legal = listed(game, side)?;
                    let command = bot.choose(game, &mut legal)?;
                    if matches!(command, Command::EndPhase) {
                        break;
                    }
                    report.commands += 1;
                    let accepted = match game.submit(Some(side), &command) {
                        Ok(_) => true,
                        Err(GameError::Refused(_)) => false,
                        Err(e) => {
                            bot.take_back();
                            return Err(while_giving(e, side, &command));
                        }
                    };
                    let played = Played {
                        side,
                        command: &command,
                        legal: legal.count(),
                        accepted,
                    };
                    observe(game, played);
                    if !accepted {
                        report.refused += 1;
                        break;
                    }
                }
                done.sides.push(side.clone());
                report.sides_done = Some(done.clone());
            }
            // (whether or not the bots' sides name it, as at its own phase: a person's side
            // missing there had its part of every simultaneous step ended unasked)
            if let Some(person) = person {
                // (a step where the person may only end it, a retreat phase of other powers'
                // units, is resolved without them: stopping cost a file with no orders)
                let has_work = game
                    .legal_commands(person)?
                    .iter()
                    .any(|c| !matches!(c, Command::EndPhase));
                if has_work {
                    report.waiting_for = Some(person.to_string());
                    report.sides_done = Some(SidesDone {
                        turn: game.state().turn,
                        step: game.state().step,
                        sides: sides.iter().filter(|s| *s != person).cloned().collect(),
                    });
                    break;
                }
            }
            // Recorded under the first side, which may end a simultaneous phase like any other.
            let first = &sides[0];
            let legal = listed(game, first)?.count();
            report.commands += 1;
            game.submit(None, &Command::EndPhase)
                .map_err(|e| while_giving(e, first, &Command::EndPhase))?;
            report.sides_done = None;
            observe(
                game,
                Played {
                    side: first,
                    command: &Command::EndPhase,
                    legal,
                    accepted: true,
                },
            );
            continue;
        }
        let Some(side) = game.phasing_side().or_else(|| sides.first().cloned()) else {
            // (an embedder's empty list: the step was played as side '' and refused)
            return Err(GameError::Rules(crate::engine::RulesError::of_kind(
                crate::engine::RulesErrorKind::HostCall,
                format!(
                    "bot::play: phase '{}' of turn {} has no phasing side and no sides were \
                     given to play it",
                    game.phase().unwrap_or_default(),
                    game.state().turn
                ),
            )));
        };
        // (the phasing side's, or in a one-side game a step without one, that side's: the bot
        // played a person's side there)
        if person == Some(side.as_str()) {
            report.waiting_for = Some(side);
            break;
        }
        let mut legal = listed(game, &side)?;
        let command = bot.choose(game, &mut legal)?;
        report.commands += 1;
        match game.submit(Some(&side), &command) {
            Ok(_) => observe(
                game,
                Played {
                    side: &side,
                    command: &command,
                    legal: legal.count(),
                    accepted: true,
                },
            ),
            Err(GameError::Refused(_)) if !matches!(command, Command::EndPhase) => {
                report.refused += 1;
                observe(
                    game,
                    Played {
                        side: &side,
                        command: &command,
                        legal: legal.count(),
                        accepted: false,
                    },
                );
                let end = Command::EndPhase;
                if let Err(e) = game.submit(Some(&side), &end) {
                    // (the refused command made no change either: chosen again, it is
                    // refused again and the phase's end fails again)
                    bot.take_back();
                    return Err(while_giving(e, &side, &end));
                }
                observe(
                    game,
                    Played {
                        side: &side,
                        command: &end,
                        legal: legal.count(),
                        accepted: true,
                    },
                );
            }
            Err(e) => {
                bot.take_back();
                return Err(while_giving(e, &side, &command));
            }
        }
    }
    Ok(())
}

/// A rules error met while a side's command was played, with that command: the phase alone
/// did not say which of the side's commands set off the handler that failed.
fn while_giving(error: GameError, side: &str, command: &Command) -> GameError {
    match error {
        GameError::Rules(mut e) => {
            let command = serde_json::to_string(command).unwrap_or_default();
            e.message = format!("{}\n  (while {side} gave {command})", e.message);
            GameError::Rules(e)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{play_at_most, PlayOptions, RunLimit, RunReport};
    use crate::bot::{Bot, LegalCommands};
    use crate::engine::{
        Command, EventLimits, Game, GameError, GameState, Outcome, Resolution, RulesError, Ruleset,
        Sequence, Step,
    };

    /// Rules whose one phase never ends by itself: `wait` is all that is legal, and taken.
    struct Endless(Sequence, Vec<String>);

    impl Ruleset for Endless {
        fn sequence(&self) -> &Sequence {
            &self.0
        }
        fn sides(&self) -> &[String] {
            &self.1
        }
        fn legal_commands(&mut self, _: &GameState, _: &str) -> Result<Vec<Command>, RulesError> {
            Ok(vec![wait()])
        }
        fn resolve(
            &mut self,
            _: &GameState,
            _: Option<&str>,
            _: &Command,
        ) -> Result<Resolution, RulesError> {
            Ok(Ok(Vec::new()))
        }
        fn victory(&mut self, _: &GameState) -> Result<Outcome, RulesError> {
            Ok(Outcome {
                winner: None,
                scores: BTreeMap::new(),
                reason: "over".into(),
            })
        }
    }

    fn wait() -> Command {
        Command::Custom {
            name: "wait".into(),
            args: Default::default(),
        }
    }

    /// A bot that waits for ever; it gives up after 50 commands, so that a run the limit
    /// missed ends with its error instead of hanging.
    struct Waiter(u32);

    impl Bot for Waiter {
        fn choose(&mut self, _: &mut Game, _: &mut LegalCommands) -> Result<Command, RulesError> {
            self.0 += 1;
            if self.0 > 50 {
                return Err(RulesError::new("the waiter gave up"));
            }
            Ok(wait())
        }
    }

    /// A run of an endless game of `sides` (one step: `phasing`'s, or simultaneous) with at
    /// most 5 commands: its error's message and the commands it gave.
    fn endless_run(sides: &[&str], phasing: Option<&str>) -> (String, u64) {
        let sides: Vec<String> = sides.iter().map(|s| s.to_string()).collect();
        let sequence = Sequence {
            steps: vec![Step {
                side: phasing.map(str::to_string),
                phase: "wait".into(),
            }],
            special: BTreeMap::new(),
        };
        let mut game = Game::new(
            GameState::new("endless", 1),
            Box::new(Endless(sequence, sides.clone())),
            1,
            EventLimits::default(),
        );
        game.start(1).expect("the game starts");
        let mut report = RunReport::default();
        let result = play_at_most(
            &mut game,
            &mut Waiter(0),
            &sides,
            RunLimit::End,
            PlayOptions::default(),
            &mut |_, _| {},
            &mut report,
            5,
        );
        match result {
            Err(GameError::Rules(e)) => (e.message, report.commands),
            other => panic!("expected a rules error, got {other:?}"),
        }
    }

    /// A run whose phase never ends stops with an error once it has given the most commands
    /// a run gives, not one sooner or later.
    #[test]
    fn a_run_whose_phase_never_ends_stops_after_the_most_commands() {
        assert_eq!(
            endless_run(&["a"], Some("a")),
            ("the game did not end after 5 commands".to_string(), 5)
        );
    }

    /// A step without a phasing side, with no sides given to play it, is a host call's error
    /// naming the step (it was played as side '').
    #[test]
    fn a_step_without_a_phasing_side_and_no_sides_given_is_refused() {
        assert_eq!(
            endless_run(&[], None),
            (
                "bot::play: phase 'wait' of turn 1 has no phasing side and no sides were given \
                 to play it"
                    .to_string(),
                0
            )
        );
    }

    /// The same in a simultaneous step, whose side gives its commands in a loop of its own (the
    /// step counts one): the run went on for ever there.
    #[test]
    fn a_run_whose_simultaneous_step_never_ends_stops_after_the_most_commands() {
        assert_eq!(
            endless_run(&["a", "b"], None),
            ("the game did not end after 5 commands".to_string(), 4)
        );
    }
}
