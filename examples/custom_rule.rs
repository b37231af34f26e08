//! A Rust policy beside the Lua rules: a `Ruleset` that wraps the demo's `LuaRules` and vetoes
//! any move into a "minefield" hex, in Rust, before the Lua rules see it. Legal command lists are
//! filtered the same way, so bots never try it.
//!
//! `cargo run --example custom_rule`

use std::error::Error;
use std::io::Write;
use std::path::Path;

use hexwar::engine::{
    Command, Event, EventLimits, Game, GameError, GameState, Outcome, Refusal, Resolution,
    RulesError, Ruleset, Sequence,
};
use hexwar::rules::LuaRules;
use hexwar::scenario::load_scenario;

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
}

/// Plays the opening of the demo under the house rule; returns the refusal it met.
pub fn run(out: &mut dyn Write) -> Result<Refusal, Box<dyn Error>> {
    let scenario = load_scenario(Path::new("scenarios/demo")).map_err(|e| format!("{e:?}"))?;
    let rules = Minefield {
        inner: LuaRules::load(&scenario)?,
        minefield: "0202".into(),
    };
    let limits = EventLimits {
        max_depth: scenario.limits.event_depth,
        max_events: scenario.limits.events_per_command,
    };
    let mut game = Game::new(
        scenario.initial_state(7),
        Box::new(rules),
        scenario.turns,
        limits,
    );
    game.start(7)?;

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
