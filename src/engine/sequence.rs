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

#[cfg(test)]
mod tests {
    use super::*;

    fn step(side: Option<&str>, phase: &str) -> Step {
        Step {
            side: side.map(str::to_string),
            phase: phase.into(),
        }
    }

    /// An ordinary turn of three steps, and a turn 1 of one step (a single-assault turn).
    fn sequence() -> Sequence {
        Sequence {
            steps: vec![
                step(Some("red"), "move"),
                step(Some("red"), "combat"),
                step(None, "supply"),
            ],
            special: BTreeMap::from([(1, vec![step(Some("blue"), "assault")])]),
        }
    }

    /// A special turn plays its own steps; every other turn the regular ones.
    #[test]
    fn a_special_turn_has_its_own_steps_and_the_others_the_regular_ones() {
        let s = sequence();
        assert_eq!(s.steps_for(1), [step(Some("blue"), "assault")]);
        assert_eq!(s.steps_for(2), s.steps.as_slice());
        assert_eq!(s.step(1, 0), Some(&step(Some("blue"), "assault")));
        assert_eq!(s.step(1, 1), None);
        assert_eq!(s.step(2, 2), Some(&step(None, "supply")));
        assert_eq!(s.step(2, 3), None);
    }

    /// The turn after the last is where a finished game stands; any later turn is refused.
    #[test]
    fn a_game_stands_at_most_one_turn_past_the_last_and_there_only_when_over() {
        assert_eq!(Sequence::turn_problem(5, 10, false), None);
        assert_eq!(Sequence::turn_problem(10, 10, false), None);
        assert_eq!(Sequence::turn_problem(11, 10, true), None);
        assert_eq!(
            Sequence::turn_problem(11, 10, false).as_deref(),
            Some("turn 11 is past the scenario's last turn (10), and the game is not over")
        );
        assert_eq!(
            Sequence::turn_problem(12, 10, true).as_deref(),
            Some("turn 12 is past the scenario's last turn (10)")
        );
        assert_eq!(
            Sequence::turn_problem(12, 10, false).as_deref(),
            Some("turn 12 is past the scenario's last turn (10)")
        );
        assert_eq!(Sequence::turn_problem(u32::MAX, u32::MAX, false), None);
    }

    /// Turn 0 (before the start) has no step to check; a later turn must have the step.
    #[test]
    fn a_step_past_its_turns_sequence_is_named_with_the_sequence_length() {
        let s = sequence();
        assert_eq!(s.step_problem(0, 7), None);
        assert_eq!(s.step_problem(1, 0), None);
        assert_eq!(s.step_problem(2, 2), None);
        assert_eq!(
            s.step_problem(1, 1).as_deref(),
            Some("turn 1 has no step 1 (its sequence has 1)")
        );
        assert_eq!(
            s.step_problem(3, 3).as_deref(),
            Some("turn 3 has no step 3 (its sequence has 3)")
        );
    }

    /// Every step the game may play: the regular turn's first, then the special turns'.
    #[test]
    fn all_steps_lists_the_regular_turn_then_the_special_turns() {
        let sequence = sequence();
        let phases: Vec<&str> = sequence.all_steps().map(|s| s.phase.as_str()).collect();
        assert_eq!(phases, ["move", "combat", "supply", "assault"]);
    }
}
