//! A Rust policy beside the Lua rules: a `Ruleset` that wraps the demo's `LuaRules` and vetoes
//! any move into a "minefield" hex, in Rust, before the Lua rules see it. The legal command lists
//! the engine gives (`Game::legal_commands`, the random bot's) are filtered the same way; a Lua
//! bot lists its commands inside the VM (`hex.commands.legal`), which does not see this policy,
//! so it may pick such a move and have it refused.
//!
//! A wrapper forwards *every* method of the trait, those with defaults too (`skip_step`,
//! `phase_label`, `setup`, `reads_setup`, `legal_commands_matching`, `take_script_log`): a
//! default left in place answers for the wrapped rules and silently changes the game (Diplomacy's
//! step labels and skipped retreat phases come from those methods).
//!
//! A rule about commands alone needs none of this: `hexwar::engine::WithPolicy` wraps the rules
//! with a `CommandPolicy` (one method) and forwards the rest (docs/embedding.md). This example
//! shows the whole trait, for a host whose rule goes beyond commands.
//!
//! `cargo run --example custom_rule`

use std::error::Error;
use std::io::Write;
use std::path::Path;

use hexwar::engine::{
    Command, CommandFilter, Event, GameError, GameState, Outcome, Refusal, Resolution, RulesError,
    Ruleset, Sequence,
};
use hexwar::rules::LuaRules;
use hexwar::scenario::load_scenario;
use hexwar::{Session, SessionError};

/// The Lua rules plus one house rule: no unit may enter `minefield`.
pub struct Minefield {
    pub inner: LuaRules,
    pub minefield: String,
}

impl Minefield {
    fn veto(&self, command: &Command) -> Option<Refusal> {
        match command {
            Command::Move { unit, path } if path.contains(&self.minefield) => Some(Refusal::new(
                "HOUSE-1",
                format!("{unit} may not enter the minefield at {}", self.minefield),
            )),
            _ => None,
        }
    }
}

impl Ruleset for Minefield {
    fn sequence(&self) -> &Sequence {
        self.inner.sequence()
    }
    fn legal_commands(&mut self, s: &GameState, side: &str) -> Result<Vec<Command>, RulesError> {
        let all = self.inner.legal_commands(s, side)?;
        Ok(all.into_iter().filter(|c| self.veto(c).is_none()).collect())
    }
    fn resolve(
        &mut self,
        s: &GameState,
        side: Option<&str>,
        c: &Command,
    ) -> Result<Resolution, RulesError> {
        match self.veto(c) {
            Some(refusal) => Ok(Err(refusal)),
            None => self.inner.resolve(s, side, c),
        }
    }
    fn before_event(&mut self, s: &GameState, e: &Event) -> Result<Option<Refusal>, RulesError> {
        self.inner.before_event(s, e)
    }
    fn after_event(&mut self, s: &GameState, e: &Event) -> Result<Vec<Event>, RulesError> {
        self.inner.after_event(s, e)
    }
    fn victory(&mut self, s: &GameState) -> Result<Outcome, RulesError> {
        self.inner.victory(s)
    }
    fn query(
        &mut self,
        s: &GameState,
        name: &str,
        arg: &serde_json::Value,
    ) -> Result<Option<serde_json::Value>, RulesError> {
        self.inner.query(s, name, arg)
    }
    fn legal_commands_matching(
        &mut self,
        s: &GameState,
        side: &str,
        filter: &CommandFilter,
    ) -> Result<Vec<Command>, RulesError> {
        let some = self.inner.legal_commands_matching(s, side, filter)?;
        Ok(some
            .into_iter()
            .filter(|c| self.veto(c).is_none())
            .collect())
    }
    fn skip_step(&mut self, s: &GameState, turn: u32, step: u32) -> Result<bool, RulesError> {
        self.inner.skip_step(s, turn, step)
    }
    fn phase_label(
        &mut self,
        s: &GameState,
        turn: u32,
        step: u32,
    ) -> Result<Option<String>, RulesError> {
        self.inner.phase_label(s, turn, step)
    }
    fn setup(
        &mut self,
        s: &GameState,
        table: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Resolution, RulesError> {
        self.inner.setup(s, table)
    }
    fn reads_setup(&self) -> bool {
        self.inner.reads_setup()
    }
    fn take_script_log(&mut self) -> Vec<String> {
        self.inner.take_script_log()
    }
    fn event_handlers(&self, event: &str) -> Vec<String> {
        self.inner.event_handlers(event)
    }
    fn sides(&self) -> &[String] {
        self.inner.sides()
    }
    fn vertex_facing_kinds(&self) -> Vec<String> {
        self.inner.vertex_facing_kinds()
    }
    fn unknown_argument(&self, command: &Command) -> Option<Refusal> {
        self.inner.unknown_argument(command)
    }
    fn command_names(&self) -> Vec<String> {
        self.inner.command_names()
    }
    fn query_names(&self) -> Vec<String> {
        self.inner.query_names()
    }
    fn map_changes_fit(&self, changes: &hexwar::engine::MapChanges) -> Result<(), String> {
        self.inner.map_changes_fit(changes)
    }
    fn loaded_files(&self) -> Vec<std::path::PathBuf> {
        self.inner.loaded_files()
    }

    fn changed_during_play(&self) -> Vec<String> {
        self.inner.changed_during_play()
    }
    fn unit_fits(&self, unit: &hexwar::engine::Unit) -> Result<(), String> {
        self.inner.unit_fits(unit)
    }
    fn force_dice(&mut self, values: Vec<u32>) -> Result<(), String> {
        self.inner.force_dice(values)
    }
    fn unused_forced_dice(&mut self) -> Vec<u32> {
        self.inner.unused_forced_dice()
    }
}

/// Plays the opening of the demo under the house rule; returns the refusal it met.
pub fn run(out: &mut dyn Write) -> Result<Refusal, Box<dyn Error>> {
    let scenario = load_scenario(Path::new("scenarios/demo")).map_err(SessionError::from)?;
    // The session builds the game as for Lua rules alone (limits, start), with ours around them.
    let mut session = Session::start_scenario_wrapped(scenario, Some(7), |inner| {
        Box::new(Minefield {
            inner,
            minefield: "0202".into(),
        })
    })?;
    let game = &mut session.game;

    let into_minefield = Command::Move {
        unit: "b-inf-1".into(),
        path: vec!["0202".into()],
    };
    let refusal = match game.submit(Some("blue"), &into_minefield) {
        Err(GameError::Refused(r)) => r,
        other => return Err(format!("expected a refusal, got {other:?}").into()),
    };
    writeln!(out, "b-inf-1 -> 0202 refused: {refusal}")?;
    let legal = game.legal_commands("blue")?;
    let into = legal
        .iter()
        .filter(|c| matches!(c, Command::Move { path, .. } if path.contains(&"0202".to_string())))
        .count();
    writeln!(
        out,
        "{} legal commands for blue, {into} of them through 0202",
        legal.len()
    )?;
    let events = game.submit(
        Some("blue"),
        &Command::Move {
            unit: "b-inf-1".into(),
            path: vec!["0101".into()],
        },
    )?;
    writeln!(out, "b-inf-1 -> 0101 accepted: {} events", events.len())?;
    Ok(refusal)
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn Error>> {
    run(&mut std::io::stdout()).map(|_| ())
}
