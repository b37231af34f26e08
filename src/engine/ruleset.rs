//! The `Ruleset` trait: how the engine talks to a game's rules without knowing Lua
//! (DESIGN.md principle 8). The Lua host is one implementation; a Rust ruleset is another.

use super::command::{Command, Refusal};
use super::event::Event;
use super::sequence::Sequence;
use super::state::{GameState, Outcome};

/// A failure of the rules themselves (a Lua error, a budget exceeded, a malformed answer), as
/// opposed to a refused command. The message names the script and line where there is one;
/// `kind` tells a host which limit stopped the rules, if one did (a modding host may blame a
/// mod's bug and a mod's appetite differently).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RulesError {
    pub message: String,
    pub kind: RulesErrorKind,
}

/// What stopped the rules (docs/sandbox.md, "Budgets").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RulesErrorKind {
    /// A script raised an error or returned something the host cannot use, or the rules broke a
    /// rule of the engine (no sequence of play): a bug to fix in the rules.
    #[default]
    Script,
    /// A call used its whole instruction budget (`[limits] instructions`).
    InstructionBudget,
    /// A call ran past the wall-clock backstop (`[limits] seconds`).
    WallClock,
    /// The rules' VM reached its memory limit (`[limits] memory_mb`).
    Memory,
    /// Event handlers emitted events past `[limits] event_depth` or `events_per_command`.
    EventChain,
    /// The host asked about something the game does not have (a side, a unit, a bot module),
    /// or set a limit out of its range (`Scenario.limits`): a bug in the calling program, not in
    /// the rules.
    HostCall,
}

impl RulesError {
    /// A rules error of kind [`RulesErrorKind::Script`].
    pub fn new(message: impl Into<String>) -> Self {
        RulesError {
            message: message.into(),
            kind: RulesErrorKind::Script,
        }
    }

    /// A rules error stopped by one of the limits.
    pub fn of_kind(kind: RulesErrorKind, message: impl Into<String>) -> Self {
        RulesError {
            message: message.into(),
            kind,
        }
    }
}

/// What the rules say about a command: the events it resolves into, or a refusal.
pub type Resolution = Result<Vec<Event>, Refusal>;

/// A part of the legal commands (a bot that chooses a unit, then that unit's command, asks for
/// one unit's moves instead of every command of every unit). Unset fields match everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandFilter {
    /// Only commands of this name (`move`, `attack`, `end_phase` ...).
    pub command: Option<String>,
    /// Only commands that order this unit: its `unit` field, or one of its `units`.
    pub unit: Option<String>,
}

impl CommandFilter {
    /// Every command of one name.
    pub fn command(name: &str) -> Self {
        CommandFilter {
            command: Some(name.to_string()),
            unit: None,
        }
    }

    /// The commands of one name that order one unit.
    pub fn unit_command(name: &str, unit: &str) -> Self {
        CommandFilter {
            command: Some(name.to_string()),
            unit: Some(unit.to_string()),
        }
    }

    pub fn matches(&self, command: &Command) -> bool {
        if self.command.as_deref().is_some_and(|n| n != command.name()) {
            return false;
        }
        let Some(unit) = self.unit.as_deref() else {
            return true;
        };
        match command {
            Command::Move { unit: u, .. } => u == unit,
            Command::EndPhase => false,
            Command::Custom { args, .. } => {
                args.get("unit").and_then(|v| v.as_str()) == Some(unit)
                    || args
                        .get("units")
                        .and_then(|v| v.as_array())
                        .is_some_and(|list| list.iter().any(|v| v.as_str() == Some(unit)))
            }
        }
    }
}

/// A game's rules as the engine sees them.
pub trait Ruleset: Send {
    /// The sequence of play.
    fn sequence(&self) -> &Sequence;

    /// Every command the side may give now (bots choose among these).
    fn legal_commands(&mut self, state: &GameState, side: &str)
        -> Result<Vec<Command>, RulesError>;

    /// The legal commands that `filter` matches, in the order `legal_commands` lists them.
    /// Rules that can list a part more cheaply than the whole override it; the default filters
    /// the whole list.
    fn legal_commands_matching(
        &mut self,
        state: &GameState,
        side: &str,
        filter: &CommandFilter,
    ) -> Result<Vec<Command>, RulesError> {
        let mut all = self.legal_commands(state, side)?;
        all.retain(|c| filter.matches(c));
        Ok(all)
    }

    /// Checks a command given by `side` and resolves it into events. Dice rolled while
    /// resolving must appear as `DiceRolled` events, in order, before the events that used them.
    fn resolve(
        &mut self,
        state: &GameState,
        side: Option<&str>,
        command: &Command,
    ) -> Result<Resolution, RulesError>;

    /// Handlers that may veto an event before it is applied (`Some(refusal)` vetoes). The
    /// default, for rules without handlers, vetoes nothing.
    fn before_event(
        &mut self,
        _state: &GameState,
        _event: &Event,
    ) -> Result<Option<Refusal>, RulesError> {
        Ok(None)
    }

    /// Handlers that react to an applied event with more events. The default, for rules
    /// without handlers, adds none.
    fn after_event(
        &mut self,
        _state: &GameState,
        _event: &Event,
    ) -> Result<Vec<Event>, RulesError> {
        Ok(Vec::new())
    }

    /// Who won when the last turn is over.
    fn victory(&mut self, state: &GameState) -> Result<Outcome, RulesError>;

    /// Answers a question about the position that is not a command (`reach` for a unit,
    /// `supply` for every unit): JSON in, JSON out; None when the rules do not answer it.
    fn query(
        &mut self,
        _state: &GameState,
        _name: &str,
        _arg: &serde_json::Value,
    ) -> Result<Option<serde_json::Value>, RulesError> {
        Ok(None)
    }

    /// Should the game pass over step `step` of turn `turn` (about to start, `state` as the
    /// previous step left it)? For phases with nothing to do, such as Diplomacy's retreat and
    /// adjustment phases. The default never skips.
    fn skip_step(
        &mut self,
        _state: &GameState,
        _turn: u32,
        _step: u32,
    ) -> Result<bool, RulesError> {
        Ok(false)
    }

    /// A game-specific name for a step (`"F1901R"`), where the static phase name of the
    /// sequence is not enough. `None`: use the sequence's phase name.
    fn phase_label(
        &mut self,
        _state: &GameState,
        _turn: u32,
        _step: u32,
    ) -> Result<Option<String>, RulesError> {
        Ok(None)
    }

    /// Sets up a position from a setup file's table (`--setup`), beyond what the core reads
    /// itself (`turn`, `phase`, `side`, `[[unit]]`): the events that set it up, or a refusal
    /// saying what is wrong with it. The default reads nothing (and `reads_setup` says so).
    fn setup(
        &mut self,
        _state: &GameState,
        _table: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Resolution, RulesError> {
        Ok(Ok(Vec::new()))
    }

    /// The scenario's sides, when the rules know them: `Game::submit` refuses a command from any
    /// other (a typo would otherwise pass as the host's command in a simultaneous phase). Empty:
    /// any side is taken (rules that keep no list of sides).
    fn sides(&self) -> &[String] {
        &[]
    }

    /// The unit kinds whose facing is a hex vertex (ANC-6.1 phalanxes), so that a picture
    /// draws their facing towards a corner; rules without such kinds name none.
    fn vertex_facing_kinds(&self) -> Vec<String> {
        Vec::new()
    }

    /// What scripts printed since the last call (`print`, `hex.log`), drained; rules without
    /// scripts print nothing.
    fn take_script_log(&mut self) -> Vec<String> {
        Vec::new()
    }

    /// Where the handlers of `event` were registered (`rules/x.lua:12`), for the error of a
    /// reaction that cannot be applied (asked only then); rules without scripts name none.
    fn event_handlers(&self, event: &str) -> Vec<String> {
        let _ = event;
        Vec::new()
    }

    /// The rules files the game has loaded so far (a Lua host: every module `require` read,
    /// the sides' bots included), so that a resumed save or a replay is held to what the game
    /// runs rather than to every file beside it; empty when the rules are no files.
    fn loaded_files(&self) -> Vec<std::path::PathBuf> {
        Vec::new()
    }

    /// What the rules changed outside the game state during play (`module.field` of a rules
    /// module table: a save does not keep it, so a game resumed from a save would play on
    /// without the change), in name order; empty when nothing did or the rules cannot tell.
    fn changed_during_play(&self) -> Vec<String> {
        Vec::new()
    }

    /// The names of the commands the rules define (`attack`, `rail` ...), sorted; empty when
    /// the rules do not say (a host then cannot tell a misspelt command name from one not
    /// legal now).
    fn command_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The names of the queries a host may ask (`supply`, `combat_odds` ...), sorted; empty
    /// when the rules do not say.
    fn query_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The refusal of an argument `command` does not take, by the command's own definition
    /// (or one it leaves out or gives a value of another kind, where the definition declares
    /// kinds), without playing it (a host checks a whole orders file before it plays any); None
    /// when its arguments fit, or the rules do not say which they take.
    fn unknown_argument(&self, command: &Command) -> Option<Refusal> {
        let _ = command;
        None
    }

    /// Whether the rules can play on the map as `changes` leave it (a resumed save's
    /// `map_changes`, which anyone can edit): names they know, a map their tables compile on.
    /// The default takes every change.
    fn map_changes_fit(&self, changes: &crate::engine::MapChanges) -> Result<(), String> {
        let _ = changes;
        Ok(())
    }

    /// Whether the rules can play `unit` as it is given (a setup's unit): its movement class
    /// declared, say. The error says why not; the default takes every unit.
    fn unit_fits(&self, unit: &crate::engine::Unit) -> Result<(), String> {
        let _ = unit;
        Ok(())
    }

    /// Sets the values the next rolls of the rules' dice take, in order, instead of the seeded
    /// ones: a Lua test's `t.dice`, to test a combat result without hunting for a seed. Err
    /// when the rules roll no dice a host can set.
    fn force_dice(&mut self, values: Vec<u32>) -> Result<(), String> {
        let _ = values;
        Err("these rules roll no dice a test can set".into())
    }

    /// The values [`Ruleset::force_dice`] set that no roll took, cleared.
    fn unused_forced_dice(&mut self) -> Vec<u32> {
        Vec::new()
    }

    /// Whether `setup` reads keys of its own; when not, a setup table with keys other than the
    /// engine's (`turn`, `phase`, `side`) is refused, so that a misspelt key is not ignored.
    fn reads_setup(&self) -> bool {
        false
    }
}
