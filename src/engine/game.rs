//! `Game`: a state, its rules and its log. Commands in, events out; a refused command or a
//! failing rule leaves the state exactly as it was.

use std::collections::VecDeque;

use super::apply::{apply, ApplyError};
use super::command::{Command, Refusal};
use super::event::Event;
use super::ruleset::{RulesError, Ruleset};
use super::state::GameState;

/// Why a command did not go through. The state is unchanged in every case.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The rules refused the command (a game-level failure, exit code 1).
    #[error("refused: {0}")]
    Refused(Refusal),
    /// The rules failed (a script error or budget; exit code 2).
    #[error("rules error: {0}")]
    Rules(#[from] RulesError),
    /// An event could not be applied.
    #[error("{0}")]
    Apply(#[from] ApplyError),
}

/// Bounds on event chains, so a handler that emits events forever is stopped.
#[derive(Debug, Clone, Copy)]
pub struct EventLimits {
    /// Longest chain of reactions (an event caused by an event caused by ...).
    pub max_depth: u32,
    /// Most events one command may produce.
    pub max_events: u32,
}

impl Default for EventLimits {
    fn default() -> Self {
        EventLimits {
            max_depth: 32,
            max_events: 10_000,
        }
    }
}

/// A game in progress.
pub struct Game {
    state: GameState,
    rules: Box<dyn Ruleset>,
    turn_limit: u32,
    log: Vec<Event>,
    limits: EventLimits,
}

impl Game {
    /// A game from a starting (or loaded) state.
    pub fn new(
        state: GameState,
        rules: Box<dyn Ruleset>,
        turn_limit: u32,
        limits: EventLimits,
    ) -> Self {
        Game {
            state,
            rules,
            turn_limit,
            log: Vec::new(),
            limits,
        }
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }
    /// Every event applied since this `Game` was made.
    pub fn log(&self) -> &[Event] {
        &self.log
    }
    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }
    pub fn is_over(&self) -> bool {
        self.state.outcome.is_some()
    }
    pub fn rules_mut(&mut self) -> &mut dyn Ruleset {
        self.rules.as_mut()
    }

    /// The current step's side (None for simultaneous steps or a finished game).
    pub fn phasing_side(&self) -> Option<String> {
        self.rules
            .sequence()
            .step(self.state.turn, self.state.step)
            .and_then(|s| s.side.clone())
    }

    /// The current phase name.
    pub fn phase(&self) -> Option<String> {
        self.rules
            .sequence()
            .step(self.state.turn, self.state.step)
            .map(|s| s.phase.clone())
    }

    /// Starts the game: `GameStarted` and the first `PhaseStarted`.
    pub fn start(&mut self, seed: u64) -> Result<Vec<Event>, GameError> {
        let first = self.rules.sequence().step(1, 0).cloned().ok_or_else(|| {
            GameError::Rules(RulesError::new(
                "the rules declare no sequence of play (hex.rules.sequence)",
            ))
        })?;
        let events = vec![
            Event::GameStarted {
                scenario: self.state.scenario.clone(),
                seed,
            },
            Event::PhaseStarted {
                turn: 1,
                step: 0,
                side: first.side,
                phase: first.phase,
            },
        ];
        self.process(events)
    }

    /// Asks the rules a question about the current position (see [`Ruleset::query`]).
    pub fn query(
        &mut self,
        name: &str,
        arg: &serde_json::Value,
    ) -> Result<Option<serde_json::Value>, RulesError> {
        self.rules.query(&self.state, name, arg)
    }

    /// Commands the side may give now.
    pub fn legal_commands(&mut self, side: &str) -> Result<Vec<Command>, RulesError> {
        if self.is_over() {
            return Ok(Vec::new());
        }
        self.rules.legal_commands(&self.state, side)
    }

    /// Checks and carries out a command. On any error the state is unchanged; a refusal is
    /// recorded in the log as a `CommandRefused` event.
    pub fn submit(
        &mut self,
        side: Option<&str>,
        command: &Command,
    ) -> Result<Vec<Event>, GameError> {
        let result = self.try_submit(side, command);
        if let Err(GameError::Refused(r)) = &result {
            self.log.push(Event::CommandRefused {
                side: side.map(str::to_string),
                command: command.clone(),
                rule: r.rule.clone(),
                reason: r.reason.clone(),
            });
        }
        result
    }

    fn try_submit(
        &mut self,
        side: Option<&str>,
        command: &Command,
    ) -> Result<Vec<Event>, GameError> {
        if self.is_over() {
            return Err(GameError::Refused(Refusal::new(
                "sequence",
                "the game is over",
            )));
        }
        if let (Some(phasing), Some(side)) = (self.phasing_side(), side) {
            if phasing != side {
                let phase = self.phase().unwrap_or_default();
                return Err(GameError::Refused(Refusal::new(
                    "sequence",
                    format!("it is {phasing}'s {phase} phase, not {side}'s"),
                )));
            }
        }
        let mut events = match self.rules.resolve(&self.state, side, command)? {
            Ok(events) => events,
            Err(refusal) => return Err(GameError::Refused(refusal)),
        };
        if matches!(command, Command::EndPhase) {
            events.extend(self.phase_change_events()?);
        }
        self.process(events)
    }

    /// `PhaseEnded`, then the next `PhaseStarted`, or the end of the game after the last turn.
    fn phase_change_events(&mut self) -> Result<Vec<Event>, GameError> {
        let (turn, step) = (self.state.turn, self.state.step);
        let sequence = self.rules.sequence();
        let current = sequence
            .step(turn, step)
            .cloned()
            .unwrap_or_else(|| super::sequence::Step {
                side: None,
                phase: String::new(),
            });
        let mut events = vec![Event::PhaseEnded {
            turn,
            step,
            side: current.side,
            phase: current.phase,
        }];
        let (next_turn, next_step) = if (step as usize) + 1 < sequence.steps_for(turn).len() {
            (turn, step + 1)
        } else {
            (turn + 1, 0)
        };
        match sequence.step(next_turn, next_step).cloned() {
            Some(next) if next_turn <= self.turn_limit => events.push(Event::PhaseStarted {
                turn: next_turn,
                step: next_step,
                side: next.side,
                phase: next.phase,
            }),
            _ => {
                let outcome = self.rules.victory(&self.state)?;
                events.push(Event::GameEnded {
                    winner: outcome.winner,
                    scores: outcome.scores,
                    reason: outcome.reason,
                });
            }
        }
        Ok(events)
    }

    /// Applies events and the reactions they cause, atomically.
    fn process(&mut self, events: Vec<Event>) -> Result<Vec<Event>, GameError> {
        let mut working = self.state.clone();
        let mut applied = Vec::new();
        let mut queue: VecDeque<(Event, u32)> = events.into_iter().map(|e| (e, 0)).collect();
        while let Some((event, depth)) = queue.pop_front() {
            if depth > self.limits.max_depth || applied.len() as u32 >= self.limits.max_events {
                return Err(GameError::Rules(RulesError::new(format!(
                    "event handlers went on too long (chain depth {} / {} events, limits {} / {}) at event {}: \
                     a handler probably emits events forever",
                    depth,
                    applied.len(),
                    self.limits.max_depth,
                    self.limits.max_events,
                    event.name()
                ))));
            }
            if working.outcome.is_some() && !matches!(event, Event::GameEnded { .. }) {
                continue;
            }
            if let Some(refusal) = self.rules.before_event(&working, &event)? {
                return Err(GameError::Refused(refusal));
            }
            apply(&mut working, &event)?;
            let reactions = self.rules.after_event(&working, &event)?;
            applied.push(event);
            for (i, reaction) in reactions.into_iter().enumerate() {
                queue.insert(i, (reaction, depth + 1));
            }
        }
        self.state = working;
        self.log.extend(applied.iter().cloned());
        Ok(applied)
    }
}
