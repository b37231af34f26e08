//! `hexwar replay FILE [--json]`: re-execute a replay and verify every step. Exit 0 when every
//! step matches, 1 at the first divergence, 2 when the replay cannot be run (unreadable, or
//! recorded against other rules).

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use serde_json::Value;

use crate::replay::{Divergence, Replay, ReplayError};

use super::{fail, EXIT_GAME, EXIT_OK};

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A replay written by `hexwar run --replay FILE`.
    pub file: PathBuf,
    /// `{"ok", "scenario", "seed", "steps", "verified", "state", "diverged", "problem"}`
    #[arg(long)]
    pub json: bool,
}

/// The verdict as `--json` prints it (keys in this order, every key always present).
#[derive(Serialize)]
struct Verdict<'a> {
    ok: bool,
    scenario: &'a str,
    seed: u64,
    /// Steps the replay holds.
    steps: usize,
    /// Steps that matched (all of them, or those before the divergence).
    verified: usize,
    /// The final state's hash when every step matched.
    state: Option<String>,
    diverged: Option<Diverged<'a>>,
    /// Why the replay as a whole does not hold (cut short, another scenario's id); null when
    /// it does.
    problem: Option<String>,
}

/// The first step that differs: the recorded command and what differed (`what`, `now`,
/// `recorded`).
#[derive(Serialize)]
struct Diverged<'a> {
    step: usize,
    side: &'a str,
    command: Value,
    #[serde(flatten)]
    difference: &'a Divergence,
}

pub fn run(args: &ReplayArgs) -> i32 {
    let file = &args.file;
    let replay = match Replay::read(file) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let outcome = replay.verify();
    if args.json {
        if let Some(verdict) = verdict(&replay, &outcome) {
            outln!("{}", serde_json::to_string(&verdict).unwrap_or_default());
        }
    }
    match outcome {
        Ok(verified) => {
            if !args.json {
                outln!(
                    "replay ok: {} steps of {} (seed {}) verified",
                    verified.steps,
                    replay.scenario_id,
                    replay.seed
                );
            }
            EXIT_OK
        }
        // Name the replay file when the message itself does not.
        Err(
            e @ (ReplayError::Diverged { .. }
            | ReplayError::Incomplete { .. }
            | ReplayError::NoEnd
            | ReplayError::ScenarioId { .. }),
        ) => {
            if !args.json {
                errln!(
                    "error: {}: {}",
                    file.display(),
                    super::printable_lines(&e.to_string())
                );
            }
            EXIT_GAME
        }
        Err(
            e @ (ReplayError::DifferentRules(_)
            | ReplayError::DifferentScenario { .. }
            | ReplayError::Game { .. }
            | ReplayError::ScenarioMissing(_)),
        ) => fail(format!("{}: {e}", file.display())),
        // (what the rules' modules printed before a load error, as `run` shows it)
        Err(ReplayError::Session(e)) => fail(super::session_message(&e)),
        Err(e) => fail(e),
    }
}

/// The JSON verdict of a replay that ran to its end or to a divergence; `None` for the errors
/// that stop it from running (they go to stderr as text, as with every command).
fn verdict<'a>(
    replay: &'a Replay,
    outcome: &'a Result<crate::replay::Verified, ReplayError>,
) -> Option<Verdict<'a>> {
    let base = |verified, state, diverged: Option<Diverged<'a>>| Verdict {
        ok: diverged.is_none(),
        problem: None,
        scenario: &replay.scenario_id,
        seed: replay.seed,
        steps: replay.steps.len(),
        verified,
        state,
        diverged,
    };
    match outcome {
        Ok(v) => Some(base(v.steps, Some(v.state.clone()), None)),
        Err(ReplayError::Diverged {
            step, side, what, ..
        }) => {
            let command = replay
                .steps
                .get(step.saturating_sub(1))
                .and_then(|s| serde_json::to_value(&s.command).ok())
                .unwrap_or(Value::Null);
            Some(base(
                step.saturating_sub(1),
                None,
                Some(Diverged {
                    step: *step,
                    side,
                    command,
                    difference: what,
                }),
            ))
        }
        Err(
            e @ (ReplayError::Incomplete { .. }
            | ReplayError::NoEnd
            | ReplayError::ScenarioId { .. }),
        ) => Some(Verdict {
            ok: false,
            problem: Some(e.to_string()),
            ..base(0, None, None)
        }),
        Err(_) => None,
    }
}
