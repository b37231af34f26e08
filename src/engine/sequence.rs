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

    /// Every step the game may play: the regular turn's, then the special turns'.
    pub fn all_steps(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().chain(self.special.values().flatten())
    }
}
