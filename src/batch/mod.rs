//! Batch runs: many bot games of one scenario, in parallel, with statistics for balancing.
//! Game `i` of a batch with base seed `S` always has the seed `derive_seed(S, i)`, so results
//! do not depend on how many workers ran them or how the range was split into shards.

mod compare;
mod stats;

pub use compare::{Comparison, PairedScore, SideComparison};
pub use stats::{SideStats, Stats};

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::bot::RunLimit;
use crate::scenario::Scenario;
use crate::session::Session;

/// One finished game of a batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub scenario: String,
    pub base_seed: u64,
    /// Index of the game in the batch.
    pub game: u64,
    pub seed: u64,
    /// The winner, or None for a draw / no decision.
    pub winner: Option<String>,
    /// Turns played.
    pub turns: u32,
    pub scores: std::collections::BTreeMap<String, f64>,
    pub commands: u64,
    /// Figures the rules declare for each game (`hex.rules.query("figures", ...)`).
    #[serde(default)]
    pub figures: std::collections::BTreeMap<String, f64>,
    /// `sha256:` of the scenario's files and every rules file, so that `stats merge` tells two
    /// variants of one scenario apart (they share its id); absent from records written before.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rules: String,
    /// The bots the host chose instead of the scenario's (`run --bot`), side -> module; absent
    /// when the scenario's own played.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub bots: std::collections::BTreeMap<String, String>,
    /// The mods the host added (`run --mod`), as given; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mods: Vec<String>,
    /// The bots' commands the rules refused (each ended its side's phase); absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub refused: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The fingerprint of a scenario and its rules ([`GameRecord::rules`]): the files `loaded`
/// as a game of it starts (`Ruleset::loaded_files`: a scratch file beside the rules is no part
/// of it), or, for rules that are no files, every file of its modules.
pub fn rules_fingerprint(scenario: &Scenario, loaded: &[std::path::PathBuf]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(scenario.fingerprint.hash().as_bytes());
    let files = if loaded.is_empty() {
        crate::rules::module_hashes(&scenario.rule_roots, &scenario.played_modules())
    } else {
        crate::rules::file_hashes(&scenario.rule_roots, loaded)
    };
    for (file, hash) in files {
        hasher.update(format!("\n{file} {hash}").as_bytes());
    }
    // (the order the modules load in, when the host added mods: the same files loaded in
    // another order play another game; a batch without mods keeps the fingerprint it had)
    if !scenario.mods.is_empty() {
        hasher.update(format!("\nmodules {}", scenario.rules.join(" ")).as_bytes());
    }
    // (which side a chosen bot plays: the same files may play two ways; a batch of the
    // scenario's own bots keeps the fingerprint it always had)
    for (side, module) in &scenario.chosen_bots {
        hasher.update(format!("\nbot {side} {module}").as_bytes());
    }
    crate::digest::sha256_label(&hasher.finalize())
}

/// The command-line options of the host's choices a batch was played with (` --bot blue=x
/// --mod m.lua`), for the hint that plays one of its games alone: without them it is another
/// game.
pub(crate) fn host_flags(scenario: &Scenario) -> String {
    let bots = scenario
        .chosen_bots
        .iter()
        .map(|(side, module)| format!(" --bot {side}={module}"));
    let mods = scenario
        .mods
        .iter()
        .map(|m| format!(" --mod {}", m.display()));
    bots.chain(mods).collect()
}

/// The seed of game `index` of a batch (SplitMix64 of the base seed and the index).
pub fn derive_seed(base: u64, index: u64) -> u64 {
    let mut z = base.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Why a batch stopped: a game that cannot go on (its bots' commands refused, a game-level
/// failure, exit 1), or anything else (a scenario or rules error, exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct BatchFailure {
    pub message: String,
    /// True when the rules refused the bots' commands (`GameError::Refused`).
    pub refused: bool,
}

impl From<String> for BatchFailure {
    fn from(message: String) -> Self {
        BatchFailure {
            message,
            refused: false,
        }
    }
}

/// Plays game `index` of a batch of `scenario` (loaded once for the whole batch, with the
/// host's settings such as `limits.trusted`) to its end.
pub fn play_game(
    scenario: &Scenario,
    base_seed: u64,
    index: u64,
) -> Result<GameRecord, BatchFailure> {
    let seed = derive_seed(base_seed, index);
    let mut session = Session::start_scenario(scenario.clone(), Some(seed))
        .map_err(|e| e.with_script_output())?;
    // (the files the game runs from its start: one batch's games all load them)
    let loaded = session.game.rules().loaded_files();
    let report = match session.play_bots(RunLimit::End) {
        Ok(report) => report,
        Err(crate::engine::GameError::Refused(r)) => {
            return Err(BatchFailure {
                message: format!(
                    "game {index} (seed {seed}): refused at {}: {r} (the bots could not go on; \
                     to play it alone with its log: --seed {base_seed} --seed-range {index}..{}{} \
                     --log FILE)",
                    session.game.position_text(),
                    index + 1,
                    host_flags(scenario)
                ),
                refused: true,
            })
        }
        // (where, and how to play that game alone, as for a game the bots cannot go on with)
        Err(e) => {
            return Err(format!(
                "game {index} (seed {seed}): {e}\n  (play stopped at {}; to play it alone with \
                 its log: --seed {base_seed} --seed-range {index}..{}{} --log FILE)",
                session.game.position_text(),
                index + 1,
                host_flags(scenario)
            )
            .into())
        }
    };
    let figures = match session.game.query("figures", &serde_json::Value::Null) {
        Ok(Some(serde_json::Value::Object(map))) => map
            .into_iter()
            .filter_map(|(k, v)| v.as_f64().map(|x| (k, x)))
            .collect(),
        Ok(_) => Default::default(),
        Err(e) => return Err(format!("game {index} (seed {seed}): figures: {e}").into()),
    };
    let state = session.game.state();
    let outcome = state.outcome.clone();
    Ok(GameRecord {
        scenario: session.scenario.id.clone(),
        base_seed,
        game: index,
        seed,
        winner: outcome.as_ref().and_then(|o| o.winner.clone()),
        turns: state.turn,
        scores: outcome.map(|o| o.scores).unwrap_or_default(),
        commands: report.commands,
        figures,
        rules: rules_fingerprint(scenario, &loaded),
        bots: scenario.chosen_bots.clone(),
        mods: scenario
            .mods
            .iter()
            .map(|m| m.display().to_string())
            .collect(),
        refused: report.refused,
    })
}

/// Plays the games `range` of a batch on `jobs` worker threads, calling `progress` with the
/// number of games finished so far. Records come back in game order whatever `jobs` is.
pub fn run_batch(
    scenario: &Scenario,
    base_seed: u64,
    range: std::ops::Range<u64>,
    jobs: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<GameRecord>, BatchFailure> {
    run_batch_until(scenario, base_seed, range, jobs, progress, &|| false)
}

/// [`run_batch`] that starts no more games once `stop()` is true (an interrupted batch: the
/// games under way finish): the records are of the games played, in game order, which need not
/// be one run of indices (each worker plays its own part of the range).
pub fn run_batch_until(
    scenario: &Scenario,
    base_seed: u64,
    range: std::ops::Range<u64>,
    jobs: usize,
    progress: &(dyn Fn(u64) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Vec<GameRecord>, BatchFailure> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| BatchFailure::from(e.to_string()))?;
    let done = Arc::new(AtomicU64::new(0));
    // Every game is played and the first failure in game order reported, so that the message
    // does not depend on which worker failed first.
    let results: Vec<Option<Result<GameRecord, BatchFailure>>> = pool.install(|| {
        range
            .clone()
            .into_par_iter()
            .map(|i| {
                if stop() {
                    return None;
                }
                let r = play_game(scenario, base_seed, i);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                Some(r)
            })
            .collect()
    });
    let mut records = results
        .into_iter()
        .flatten()
        .collect::<Result<Vec<_>, _>>()?;
    records.sort_by_key(|r| r.game);
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::{derive_seed, run_batch};

    /// A batch's game seeds are SplitMix64 of the base seed and the game's index: these exact
    /// values, so that a batch's games stay the same from build to build.
    #[test]
    fn game_seeds_are_splitmix64_of_the_base_and_index() {
        assert_eq!(derive_seed(1, 0), 10_451_216_379_200_822_465);
        assert_eq!(derive_seed(1, 1), 13_757_245_211_066_428_519);
        assert_eq!(derive_seed(u64::MAX, 5), 15_212_506_146_343_009_075);
    }

    /// A batch tells its progress as the count of games finished, 1 to the last, and gives
    /// its records in game order whatever the number of workers.
    #[test]
    fn progress_counts_the_games_finished_and_records_come_in_game_order() {
        let scenario = crate::scenario::load_scenario(std::path::Path::new("scenarios/demo"))
            .expect("the demo loads");
        for jobs in [1, 2] {
            let told = std::sync::Mutex::new(Vec::new());
            let records = run_batch(&scenario, 3, 0..4, jobs, &|n| {
                if let Ok(mut told) = told.lock() {
                    told.push(n);
                }
            })
            .expect("the batch plays");
            let mut told = told.into_inner().expect("the progress list");
            told.sort_unstable();
            assert_eq!(told, [1, 2, 3, 4], "{jobs} jobs");
            let games: Vec<u64> = records.iter().map(|r| r.game).collect();
            assert_eq!(games, [0, 1, 2, 3], "{jobs} jobs");
        }
    }
}
