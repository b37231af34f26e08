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
