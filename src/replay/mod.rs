//! Replays: a recorded game (scenario and rules fingerprints, seed, every command with the
//! number of legal commands before it and the state hash after it) that re-executes and
//! verifies itself step by step.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::{Command, GameError};
use crate::rules::recorded_hashes;
use crate::scenario::Scenario;
use crate::session::{Session, SessionError};

pub const REPLAY_FORMAT: &str = "hexwar-replay";
pub const REPLAY_VERSION: u32 = 1;

/// One recorded command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplayStep {
    pub side: String,
    pub command: Command,
    /// How many commands were legal for the side when it chose.
    pub legal: usize,
    pub accepted: bool,
    /// `GameState::hash` after the command.
    pub state: String,
}

/// A recorded game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format: String,
    pub version: u32,
    pub scenario_id: String,
    pub scenario_path: PathBuf,
    pub scenario_hash: String,
    /// `sha256:` of every Lua file of the rules modules.
    pub rules: BTreeMap<String, String>,
    pub seed: u64,
    /// The mods the game ran with (`hexwar run --mod`), loaded again to verify it; absent from
    /// replays of games without mods.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mods: Vec<PathBuf>,
    pub steps: Vec<ReplayStep>,
    /// How the recording ended: written when the run finished, so that a replay cut short is
    /// told from a whole one. Absent from replays recorded before it was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<ReplayEnd>,
}

/// The end of a recording: how many steps it holds and the hash of the state they end in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayEnd {
    pub steps: usize,
    pub state: String,
}

/// Why a replay did not verify.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{path}: cannot read replay: {message}")]
    Read { path: PathBuf, message: String },
    #[error("{path}:{line}: not a hexwar replay: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error("the replay was recorded against different rules, it cannot be verified: {0}")]
    DifferentRules(String),
    #[error(
        "the replay was recorded against a different scenario ({recorded}, now {now}): {path}"
    )]
    DifferentScenario {
        path: PathBuf,
        recorded: String,
        now: String,
    },
    /// The game went another way: the first step that differs.
    #[error("replay diverges at step {step} ({side}: {command}): {what}")]
    Diverged {
        step: usize,
        side: String,
        command: String,
        what: Divergence,
    },
    #[error("replay step {step}: {error}")]
    Game { step: usize, error: GameError },
    /// The scenario the replay names is not where it says (a relative path, read from the
    /// working directory).
    #[error("the replay's scenario {} is not there (a relative path is read from the working directory, as it was when the game was recorded: verify it from that directory, or correct \"scenario_path\" in the replay)", .0.display())]
    ScenarioMissing(PathBuf),
    /// No recorded end: steps cut off with it, or a recording older than the end (verifying
    /// such a file checked only the steps it still held: a cut-short replay passed).
    #[error("the replay has no recorded end (its \"end\"): it was cut short, or recorded before replays kept their end (record it again)")]
    NoEnd,
    /// The steps do not reach the recorded end: the file was cut short (or padded).
    #[error("the replay holds {found} steps but its recording ended after {recorded}: it was cut short or added to")]
    Incomplete { found: usize, recorded: usize },
    /// The recorded scenario id is not the scenario's (whose content matches the recorded hash).
    #[error("the replay names scenario '{recorded}', but its scenario file is '{now}'")]
    ScenarioId { recorded: String, now: String },
}

/// What differed at the step where a replay diverged: the value found now and the recorded one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Divergence {
    /// How many commands were legal for the side.
    Legal { now: usize, recorded: usize },
    /// Whether the command was accepted.
    Accepted { now: bool, recorded: bool },
    /// The state hash after the command.
    State { now: String, recorded: String },
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let said = |a: bool| if a { "accepted" } else { "refused" };
        match self {
            Divergence::Legal { now, recorded } => {
                write!(f, "{now} legal commands, {recorded} recorded")
            }
            Divergence::Accepted { now, recorded } => write!(
                f,
                "the command was {}, recorded {}",
                said(*now),
                said(*recorded)
            ),
            Divergence::State { now, recorded } => {
                write!(f, "state {now} differs from the recorded {recorded}")
            }
        }
    }
}

/// A replay that verified: how many steps, and the hash of the state they end in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub steps: usize,
    pub state: String,
}

impl Replay {
    /// An empty recording for a session that is about to start playing.
    pub fn new(session: &Session) -> Replay {
        let scenario: &Scenario = &session.scenario;
        Replay {
            format: REPLAY_FORMAT.into(),
            version: REPLAY_VERSION,
            scenario_id: scenario.id.clone(),
            scenario_path: scenario.path.clone(),
            scenario_hash: scenario.fingerprint.hash().to_string(),
            // (the rules only: a replay plays its recorded commands, so a bot edited since
            // does not stop it from verifying)
            rules: recorded_hashes(
                &scenario.rule_roots,
                &scenario.rules,
                &session.game.rules().loaded_files(),
            ),
            seed: session.seed,
            mods: session.mods.clone(),
            steps: Vec::new(),
            end: None,
        }
    }

    /// Marks the recording as ended where the session now stands (`hexwar run` calls it once
    /// the game or its `--turns` are over).
    pub fn finish(&mut self, session: &Session) {
        self.end = Some(ReplayEnd {
            steps: self.steps.len(),
            state: session.game.state().hash(),
        });
    }

    pub fn read(path: &Path) -> Result<Replay, ReplayError> {
        let err = |message: String| ReplayError::Read {
            path: path.into(),
            message,
        };
        let text = crate::board::read_named_capped(path, crate::engine::MAX_SAVE_BYTES)
            .map(crate::board::without_bom)
            .map_err(|e| err(e.to_string()))?;
        if let Some(kind) = crate::engine::JsonLines::of(&text) {
            return Err(err(format!("this is {}, not a replay", kind.describe())));
        }
        #[derive(Deserialize)]
        struct Header {
            format: Option<String>,
        }
        if let Ok(Header {
            format: Some(format),
        }) = serde_json::from_str::<Header>(&text)
        {
            if format == crate::engine::SAVE_FORMAT {
                return Err(err(format!(
                    "this is a hexwar save, not a replay (continue it with `hexwar run {}`)",
                    path.display()
                )));
            }
        }
        let parse_err = |e: serde_json::Error| ReplayError::Parse {
            path: path.into(),
            line: e.line(),
            message: crate::engine::json_problem(&e),
        };
        crate::engine::refuse_duplicate_keys(&text).map_err(parse_err)?;
        let replay: Replay = serde_json::from_str(&text).map_err(parse_err)?;
        if replay.format != REPLAY_FORMAT || replay.version != REPLAY_VERSION {
            return Err(err(format!(
                "format '{}' version {} is not supported (this build reads '{REPLAY_FORMAT}' version {REPLAY_VERSION})",
                replay.format, replay.version
            )));
        }
        Ok(replay)
    }

    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        crate::output_file::write_bytes(path, (text + "\n").as_bytes())
    }

    /// Re-executes the replay, checking at every step the number of legal commands, whether
    /// the command was accepted, and the state hash. Returns the number of steps verified and
    /// the final state's hash.
    pub fn verify(&self) -> Result<Verified, ReplayError> {
        if !self.scenario_path.exists() {
            return Err(ReplayError::ScenarioMissing(self.scenario_path.clone()));
        }
        let mut session =
            Session::start_with_mods(&self.scenario_path, Some(self.seed), &self.mods).map_err(
                |e| {
                    crate::session::recorded_mod_error(
                    e,
                    "the replay records it as given when the game was recorded: verify it from \
                     that directory, or correct \"mods\" in the replay",
                )
                },
            )?;
        if !session
            .scenario
            .fingerprint
            .recorded_by(&self.scenario_hash)
        {
            return Err(ReplayError::DifferentScenario {
                path: self.scenario_path.clone(),
                recorded: self.scenario_hash.clone(),
                now: session.scenario.fingerprint.hash().to_string(),
            });
        }
        if session.scenario.id != self.scenario_id {
            return Err(ReplayError::ScenarioId {
                recorded: self.scenario_id.clone(),
                now: session.scenario.id.clone(),
            });
        }
        let Some(end) = &self.end else {
            return Err(ReplayError::NoEnd);
        };
        if end.steps != self.steps.len() {
            return Err(ReplayError::Incomplete {
                found: self.steps.len(),
                recorded: end.steps,
            });
        }
        // (held to the files the game loads, not every file beside them)
        let loaded = session.game.rules().loaded_files();
        let now = recorded_hashes(
            &session.scenario.rule_roots,
            &session.scenario.rules,
            &loaded,
        );
        let in_play = crate::rules::loaded_names(&session.scenario.rule_roots, &loaded);
        // (every file the game loads must be recorded: a replay whose `rules` lost an entry,
        // or all of them, verified against whatever the files held now)
        let loaded_names: Vec<String> = in_play.iter().cloned().collect();
        let in_play = (!loaded.is_empty()).then_some(&in_play);
        if let Some(changes) =
            crate::rules::describe_module_changes(&self.rules, &now, &loaded_names, in_play)
        {
            return Err(ReplayError::DifferentRules(changes));
        }
        for (i, step) in self.steps.iter().enumerate() {
            let n = i + 1;
            let diverged = |what: Divergence| ReplayError::Diverged {
                step: n,
                side: step.side.clone(),
                command: serde_json::to_string(&step.command).unwrap_or_default(),
                what,
            };
            let legal = session
                .game
                .legal_commands(&step.side)
                .map_err(|e| ReplayError::Game {
                    step: n,
                    error: e.into(),
                })?;
            if legal.len() != step.legal {
                return Err(diverged(Divergence::Legal {
                    now: legal.len(),
                    recorded: step.legal,
                }));
            }
            let accepted = match session.game.submit(Some(&step.side), &step.command) {
                Ok(_) => true,
                Err(GameError::Refused(_)) => false,
                Err(error) => return Err(ReplayError::Game { step: n, error }),
            };
            if accepted != step.accepted {
                return Err(diverged(Divergence::Accepted {
                    now: accepted,
                    recorded: step.accepted,
                }));
            }
            let hash = session.game.state().hash();
            if hash != step.state {
                return Err(diverged(Divergence::State {
                    now: hash,
                    recorded: step.state.clone(),
                }));
            }
        }
        let state = session.game.state().hash();
        if end.state != state {
            return Err(ReplayError::Diverged {
                step: self.steps.len(),
                side: self
                    .steps
                    .last()
                    .map(|s| s.side.clone())
                    .unwrap_or_default(),
                command: self
                    .steps
                    .last()
                    .and_then(|s| serde_json::to_string(&s.command).ok())
                    .unwrap_or_default(),
                what: Divergence::State {
                    now: state,
                    recorded: end.state.clone(),
                },
            });
        }
        Ok(Verified {
            steps: self.steps.len(),
            state,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = "tests/errors/_tiny/scenario.toml";

    /// The tiny game's first four `end_phase` steps (blue, red, blue, red), recorded as
    /// `hexwar run --replay` records them, and finished.
    fn recorded() -> Replay {
        let mut session = Session::start(Path::new(TINY), Some(1)).unwrap();
        let mut replay = Replay::new(&session);
        for side in ["blue", "red", "blue", "red"] {
            let legal = session.game.legal_commands(side).unwrap().len();
            let accepted = session.game.submit(Some(side), &Command::EndPhase).is_ok();
            replay.steps.push(ReplayStep {
                side: side.into(),
                command: Command::EndPhase,
                legal,
                accepted,
                state: session.game.state().hash(),
            });
        }
        replay.finish(&session);
        replay
    }

    fn message(replay: &Replay) -> String {
        replay.verify().unwrap_err().to_string()
    }

    #[test]
    fn a_recorded_game_verifies_to_its_last_state() {
        let replay = recorded();
        assert_eq!(
            replay.end,
            Some(ReplayEnd {
                steps: 4,
                state: replay.steps[3].state.clone()
            })
        );
        assert_eq!(
            replay.verify().unwrap(),
            Verified {
                steps: 4,
                state: replay.steps[3].state.clone()
            }
        );
    }

    /// Another count of legal commands is a divergence at that step (numbered from 1), told
    /// with both counts.
    #[test]
    fn another_legal_count_diverges_at_its_step() {
        let mut replay = recorded();
        assert_eq!(replay.steps[1].legal, 1);
        replay.steps[1].legal = 3;
        assert_eq!(
            message(&replay),
            "replay diverges at step 2 (red: {\"command\":\"end_phase\"}): 1 legal commands, \
             3 recorded"
        );
    }

    /// A recorded end whose state is not where the steps lead is a divergence at the last
    /// step, even though every step verified; with no steps, at step 0.
    #[test]
    fn an_end_state_the_steps_do_not_reach_diverges() {
        let zeros = format!("sha256:{}", "0".repeat(64));
        let mut replay = recorded();
        let now = replay.steps[3].state.clone();
        replay.end.as_mut().unwrap().state = zeros.clone();
        assert_eq!(
            message(&replay),
            format!(
                "replay diverges at step 4 (red: {{\"command\":\"end_phase\"}}): state {now} \
                 differs from the recorded {zeros}"
            )
        );
        let start = Session::start(Path::new(TINY), Some(1)).unwrap();
        let start = start.game.state().hash();
        replay.steps.clear();
        replay.end = Some(ReplayEnd {
            steps: 0,
            state: zeros.clone(),
        });
        assert_eq!(
            message(&replay),
            format!(
                "replay diverges at step 0 (: ): state {start} differs from the recorded {zeros}"
            )
        );
    }

    /// A file of another format, or of another version of this one, is refused as it is read,
    /// naming what it is and what this build reads.
    #[test]
    fn another_format_or_version_is_refused_as_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        let whole = recorded();
        whole.write(&path).unwrap();
        assert_eq!(Replay::read(&path).unwrap(), whole);
        for (format, version) in [("hexwar-replays", 1), ("hexwar-replay", 2)] {
            let mut other = whole.clone();
            other.format = format.into();
            other.version = version;
            other.write(&path).unwrap();
            assert_eq!(
                Replay::read(&path).unwrap_err().to_string(),
                format!(
                    "{}: cannot read replay: format '{format}' version {version} is not \
                     supported (this build reads 'hexwar-replay' version 1)",
                    path.display()
                )
            );
        }
    }
}
