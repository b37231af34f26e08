//! A house rule in Rust over another ruleset (a game's Lua rules, say), without writing a whole
//! [`Ruleset`]: a wrapper that forwards every method by hand is easy to get subtly wrong (a
//! default method left in place answers for the wrapped rules, and Diplomacy lost its step labels
//! and its skipped retreat phases that way). [`WithPolicy`] forwards them all and asks its
//! [`CommandPolicy`] only about commands.

use super::{
    Command, CommandFilter, Event, GameState, Outcome, Refusal, Resolution, RulesError, Ruleset,
    Sequence, Unit,
};

/// A rule about commands, judged in Rust before the wrapped rules see them.
pub trait CommandPolicy: Send {
    /// Why `side` may not give `command` in `state` (the refusal a player sees), or None to leave
    /// the command to the wrapped rules. Refused commands are also left out of the legal lists
    /// the engine gives (the Lua rules' own `hex.commands.legal`, which bots in the VM read,
    /// does not see the policy: a Lua bot picking such a command has it refused).
    fn refusal(&self, state: &GameState, side: Option<&str>, command: &Command) -> Option<Refusal>;
}

/// A ruleset with a [`CommandPolicy`] over it: every question goes to `inner`, commands first
/// through `policy`.
pub struct WithPolicy<P> {
    pub inner: Box<dyn Ruleset>,
    pub policy: P,
}

impl<P: CommandPolicy> WithPolicy<P> {
    pub fn new(inner: Box<dyn Ruleset>, policy: P) -> Self {
        WithPolicy { inner, policy }
    }
}

impl<P: CommandPolicy> Ruleset for WithPolicy<P> {
    fn sequence(&self) -> &Sequence {
        self.inner.sequence()
    }

    fn legal_commands(
        &mut self,
        state: &GameState,
        side: &str,
    ) -> Result<Vec<Command>, RulesError> {
        let mut all = self.inner.legal_commands(state, side)?;
        all.retain(|c| self.policy.refusal(state, Some(side), c).is_none());
        Ok(all)
    }

    fn legal_commands_matching(
        &mut self,
        state: &GameState,
        side: &str,
        filter: &CommandFilter,
    ) -> Result<Vec<Command>, RulesError> {
        let mut all = self.inner.legal_commands_matching(state, side, filter)?;
        all.retain(|c| self.policy.refusal(state, Some(side), c).is_none());
        Ok(all)
    }

    fn resolve(
        &mut self,
        state: &GameState,
        side: Option<&str>,
        command: &Command,
    ) -> Result<Resolution, RulesError> {
        match self.policy.refusal(state, side, command) {
            Some(refusal) => Ok(Err(refusal)),
            None => self.inner.resolve(state, side, command),
        }
    }

    fn before_event(
        &mut self,
        state: &GameState,
        event: &Event,
    ) -> Result<Option<Refusal>, RulesError> {
        self.inner.before_event(state, event)
    }

    fn after_event(&mut self, state: &GameState, event: &Event) -> Result<Vec<Event>, RulesError> {
        self.inner.after_event(state, event)
    }

    fn victory(&mut self, state: &GameState) -> Result<Outcome, RulesError> {
        self.inner.victory(state)
    }

    fn query(
        &mut self,
        state: &GameState,
        name: &str,
        arg: &serde_json::Value,
    ) -> Result<Option<serde_json::Value>, RulesError> {
        self.inner.query(state, name, arg)
    }

    fn skip_step(&mut self, state: &GameState, turn: u32, step: u32) -> Result<bool, RulesError> {
        self.inner.skip_step(state, turn, step)
    }

    fn phase_label(
        &mut self,
        state: &GameState,
        turn: u32,
        step: u32,
    ) -> Result<Option<String>, RulesError> {
        self.inner.phase_label(state, turn, step)
    }

    fn setup(
        &mut self,
        state: &GameState,
        table: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Resolution, RulesError> {
        self.inner.setup(state, table)
    }

    fn sides(&self) -> &[String] {
        self.inner.sides()
    }

    fn vertex_facing_kinds(&self) -> Vec<String> {
        self.inner.vertex_facing_kinds()
    }

    fn take_script_log(&mut self) -> Vec<String> {
        self.inner.take_script_log()
    }

    fn force_dice(&mut self, values: Vec<u32>) -> Result<(), String> {
        self.inner.force_dice(values)
    }

    fn unused_forced_dice(&mut self) -> Vec<u32> {
        self.inner.unused_forced_dice()
    }

    fn event_handlers(&self, event: &str) -> Vec<String> {
        self.inner.event_handlers(event)
    }

    fn loaded_files(&self) -> Vec<std::path::PathBuf> {
        self.inner.loaded_files()
    }

    fn changed_during_play(&self) -> Vec<String> {
        self.inner.changed_during_play()
    }

    fn command_names(&self) -> Vec<String> {
        self.inner.command_names()
    }

    fn query_names(&self) -> Vec<String> {
        self.inner.query_names()
    }

    fn unknown_argument(&self, command: &Command) -> Option<Refusal> {
        self.inner.unknown_argument(command)
    }

    fn map_changes_fit(&self, changes: &crate::engine::MapChanges) -> Result<(), String> {
        self.inner.map_changes_fit(changes)
    }

    fn unit_fits(&self, unit: &Unit) -> Result<(), String> {
        self.inner.unit_fits(unit)
    }

    fn reads_setup(&self) -> bool {
        self.inner.reads_setup()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::engine::MapChanges;

    /// Rules that answer every question a `Ruleset` has a default for with something else.
    struct Answering {
        sequence: Sequence,
        forced: Vec<u32>,
    }

    impl Ruleset for Answering {
        fn sequence(&self) -> &Sequence {
            &self.sequence
        }
        fn legal_commands(&mut self, _: &GameState, _: &str) -> Result<Vec<Command>, RulesError> {
            Ok(vec![Command::EndPhase])
        }
        fn resolve(
            &mut self,
            _: &GameState,
            _: Option<&str>,
            _: &Command,
        ) -> Result<Resolution, RulesError> {
            Ok(Ok(vec![]))
        }
        fn before_event(
            &mut self,
            _: &GameState,
            _: &Event,
        ) -> Result<Option<Refusal>, RulesError> {
            Ok(Some(Refusal::new("zoc", "not into a zone of control")))
        }
        fn victory(&mut self, _: &GameState) -> Result<Outcome, RulesError> {
            Ok(Outcome {
                winner: None,
                scores: BTreeMap::new(),
                reason: "over".into(),
            })
        }
        fn vertex_facing_kinds(&self) -> Vec<String> {
            vec!["phalanx".into()]
        }
        fn take_script_log(&mut self) -> Vec<String> {
            vec!["printed".into()]
        }
        fn force_dice(&mut self, values: Vec<u32>) -> Result<(), String> {
            if values.contains(&0) {
                return Err("a die shows 1 or more".into());
            }
            self.forced = values;
            Ok(())
        }
        fn unused_forced_dice(&mut self) -> Vec<u32> {
            self.forced.clone()
        }
        fn changed_during_play(&self) -> Vec<String> {
            vec!["rules/combat.lua".into()]
        }
        fn unknown_argument(&self, _: &Command) -> Option<Refusal> {
            Some(Refusal::new("command", "unknown argument 'x'"))
        }
        fn map_changes_fit(&self, _: &MapChanges) -> Result<(), String> {
            Err("no hex 9999".into())
        }
        fn unit_fits(&self, _: &Unit) -> Result<(), String> {
            Err("no side 'green'".into())
        }
    }

    /// A policy that refuses nothing.
    struct Nothing;

    impl CommandPolicy for Nothing {
        fn refusal(&self, _: &GameState, _: Option<&str>, _: &Command) -> Option<Refusal> {
            None
        }
    }

    fn wrapped() -> WithPolicy<Nothing> {
        let inner = Answering {
            sequence: Sequence {
                steps: vec![],
                special: BTreeMap::new(),
            },
            forced: vec![],
        };
        WithPolicy::new(Box::new(inner), Nothing)
    }

    /// Every question but the commands goes to the wrapped rules, and their answer, not the
    /// `Ruleset` default, comes back (a default left in place answers for the wrapped rules).
    #[test]
    fn a_policy_gives_the_wrapped_rules_answers_not_the_defaults() {
        let mut rules = wrapped();
        let state = GameState::new("t", 1);
        let unit = Unit {
            id: "u".into(),
            side: "green".into(),
            nation: String::new(),
            kind: "infantry".into(),
            size: String::new(),
            ma: 1.0,
            strength: 1.0,
            at: None,
            facing: None,
            status: Default::default(),
            attrs: serde_json::Map::new(),
        };
        assert_eq!(
            rules
                .legal_commands_matching(&state, "red", &CommandFilter::command("end_phase"))
                .unwrap(),
            [Command::EndPhase]
        );
        assert_eq!(
            rules.before_event(&state, &Event::DiceRolled { sides: 6, value: 1 }),
            Ok(Some(Refusal::new("zoc", "not into a zone of control")))
        );
        assert_eq!(rules.vertex_facing_kinds(), ["phalanx"]);
        assert_eq!(rules.take_script_log(), ["printed"]);
        assert_eq!(
            rules.force_dice(vec![0]),
            Err("a die shows 1 or more".to_string())
        );
        assert_eq!(rules.force_dice(vec![6, 2]), Ok(()));
        assert_eq!(rules.unused_forced_dice(), [6, 2]);
        assert_eq!(rules.changed_during_play(), ["rules/combat.lua"]);
        assert_eq!(
            rules.unknown_argument(&Command::EndPhase),
            Some(Refusal::new("command", "unknown argument 'x'"))
        );
        assert_eq!(
            rules.map_changes_fit(&MapChanges::default()),
            Err("no hex 9999".to_string())
        );
        assert_eq!(rules.unit_fits(&unit), Err("no side 'green'".to_string()));
    }
}
