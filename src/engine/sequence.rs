//! The sequence of play, declared by the rules and driven by the core.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One step of a turn: a phase, usually of one side (None: simultaneous or administrative).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    #[serde(default)]
    pub side: Option<String>,
    pub phase: String,
}

/// The steps of an ordinary turn, and the turns that differ (a single-assault turn 1, ...).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    pub steps: Vec<Step>,
    #[serde(default)]
    pub special: BTreeMap<u32, Vec<Step>>,
}

impl Sequence {
    pub fn steps_for(&self, turn: u32) -> &[Step] {
        self.special.get(&turn).unwrap_or(&self.steps)
    }

    /// The step at (turn, index), if any.
    pub fn step(&self, turn: u32, index: u32) -> Option<&Step> {
        self.steps_for(turn).get(index as usize)
    }

    /// Why a game cannot stand at `turn` of a scenario of `turns` turns, or None: past the turn
    /// after the last, or at that turn (where a finished game stands) with the game not over.
    /// A save's reader and `Game::restore` ask it.
    pub fn turn_problem(turn: u32, turns: u32, over: bool) -> Option<String> {
        if turn > turns.saturating_add(1) {
            return Some(format!(
                "turn {turn} is past the scenario's last turn ({turns})"
            ));
        }
        // (a game going on there, from a scenario shortened since the save, played turns the
        // scenario no longer has)
        (turn > turns && !over).then(|| {
            format!(
                "turn {turn} is past the scenario's last turn ({turns}), and the game is not over"
            )
        })
    }

    /// Why a game cannot stand at step `step` of `turn` (turn 0: before the start), or None.
    pub fn step_problem(&self, turn: u32, step: u32) -> Option<String> {
        (turn > 0 && self.step(turn, step).is_none()).then(|| {
            format!(
                "turn {turn} has no step {step} (its sequence has {})",
                self.steps_for(turn).len()
            )
        })
    }

    /// Every step the game may play: the regular turn's, then the special turns'.
    pub fn all_steps(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().chain(self.special.values().flatten())
    }
}
