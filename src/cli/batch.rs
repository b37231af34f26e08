//! `hexwar run --games N` / `--seed-range A..B`, `hexwar stats merge`: batch runs and their
//! statistics.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::batch::{run_batch_until, GameRecord, Stats};
use crate::scenario::{load_scenario, Scenario};

use super::run::RunArgs;
use super::{fail, EXIT_GAME, EXIT_OK};

/// `A..B` into a range.
fn parse_range(text: &str) -> Result<std::ops::Range<u64>, String> {
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("--seed-range '{text}': expected A..B, like 0..100"))?;
    let a: u64 = a
        .trim()
        .parse()
        .map_err(|_| format!("--seed-range '{text}': '{a}' is not a number"))?;
    let b: u64 = b
        .trim()
        .parse()
        .map_err(|_| format!("--seed-range '{text}': '{b}' is not a number"))?;
    if b <= a {
        return Err(format!("--seed-range '{text}': the range is empty"));
    }
    Ok(a..b)
}

fn print_stats(stats: &Stats, json: bool, csv: bool) {
    if json {
        outln!("{}", serde_json::to_string(stats).unwrap_or_default());
    } else if csv {
        out!("{}", stats.to_csv());
    } else {
        out!("{}", stats.to_text());
    }
}

/// The scenario, or its errors as one message: each on a line of its own with its own
/// `error:` after the first (which `fail` writes), as a single game and `check` list them.
fn load(path: &Path) -> Result<crate::scenario::Scenario, String> {
    load_scenario(path).map_err(|errors| {
        errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\nerror: ")
    })
}

/// The most games one batch plays (`--games`, `--seed-range`).
pub const MAX_BATCH_GAMES: u64 = 10_000_000;

/// The most workers a batch starts, whatever `--jobs` asks.
const MAX_JOBS: usize = 256;

pub fn run(args: &RunArgs) -> i32 {
    let range = match (&args.seed_range, args.games) {
        (Some(r), None) => match parse_range(r) {
            Ok(r) => r,
            Err(e) => return fail(e),
        },
        (None, Some(n)) if n > 0 => 0..n,
        (None, Some(_)) => return fail("--games must be at least 1"),
        (Some(_), Some(_)) => return fail("give either --games N or --seed-range A..B, not both"),
        (None, None) => return fail("a batch needs --games or --seed-range"),
    };
    // (each game keeps a record until the batch ends: a count past this is a typo, and
    // 2^64 of them made the collection's capacity overflow)
    if range.end - range.start > MAX_BATCH_GAMES {
        return fail(format!(
            "a batch plays at most {MAX_BATCH_GAMES} games ({} asked): split it with --seed-range and join the --per-game files with `hexwar stats merge`",
            range.end - range.start
        ));
    }
    let single =
        args.replay.is_some() || args.save.is_some() || args.log.is_some() || args.turns.is_some();
    if single && args.games.is_none() && range.end - range.start == 1 {
        // (game i played alone is a single game, with a single game's summary: a batch's
        // statistics and records were asked for and silently not written)
        if args.per_game.is_some() || args.csv {
            let flag = if args.csv { "--csv" } else { "--per-game" };
            return fail(format!(
                "{flag} is for a batch's statistics and records, and --seed-range {}..{} with \
                 --replay, --save, --log or --turns plays that game alone, as a single game: \
                 run it without those for its record",
                range.start, range.end
            ));
        }
        // (one game of a batch played alone, with the seed the batch gives it, so that its log,
        // save or replay can be had: its seed printed in JSON is past what a double holds
        // exactly, and jq rounds it)
        let base = match args.seed {
            Some(seed) => seed,
            None => match load(&args.scenario) {
                Ok(scenario) => scenario.seed,
                Err(e) => return fail(e),
            },
        };
        let mut alone = args.clone();
        alone.seed_range = None;
        alone.seed = Some(crate::batch::derive_seed(base, range.start));
        return super::run::run_single(&alone);
    }
    if single {
        return fail(
            "--replay, --save, --log and --turns are for single games, not batches (a batch's \
             game i alone: --seed-range i..i+1)",
        );
    }
    if super::is_save(&args.scenario) {
        return fail(format!(
            "{}: a batch plays its scenario from the start, and this is a save: give the scenario",
            args.scenario.display()
        ));
    }
    if args.csv && args.json {
        return fail("--csv and --json each print the statistics: give one");
    }
    match args.jobs {
        Some(0) => {
            return fail(format!(
                "--jobs 0: a batch needs at least 1 worker (at most {MAX_JOBS})"
            ))
        }
        // (more were started as 256 without a word, each with its own games' memory)
        Some(n) if n > MAX_JOBS => {
            return fail(format!(
                "--jobs {n}: a batch starts at most {MAX_JOBS} workers"
            ))
        }
        _ => {}
    }
    if let Some(path) = &args.per_game {
        let outputs = [("--per-game", path.as_path())];
        if let Err(e) = super::output_paths::check(&outputs, None, &[])
            .and_then(|()| super::output_paths::check_json_alone(&outputs, args.json))
        {
            return fail(e);
        }
    }
    let mut scenario = match load(&args.scenario) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Err(e) = args.choices().apply(&mut scenario) {
        return fail(e);
    }
    // (handlers on a misspelt event never run: a batch warns once, as a single game does; rules
    // that do not load are the games' error, reported by the batch as it meets it)
    if let Ok(rules) = crate::rules::LuaRules::load(&scenario) {
        for warning in crate::rules::event_name_warnings(&rules.subscribed_events()) {
            errln!("warning: {}", super::printable_lines(&warning));
        }
    }
    let base_seed = args.seed.unwrap_or(scenario.seed);
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let total = range.end - range.start;
    // (more workers than games, or than a machine has threads to give, only cost memory)
    let jobs = jobs
        .clamp(1, MAX_JOBS)
        .min(usize::try_from(total).unwrap_or(MAX_JOBS));
    let bar = ProgressBar::new(total);
    if args.quiet || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta_precise})",
    ) {
        bar.set_style(style);
    }
    // Ctrl-C (SIGINT) starts no more games: the games under way finish, and the statistics
    // and records are of the games played (an interrupted batch printed and kept nothing). A
    // second Ctrl-C stops at once. The first is answered at once on stderr: the games under
    // way may take many seconds to finish, and a silent wait looked like a hang.
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    static LEFT: AtomicU64 = AtomicU64::new(0);
    static WORKERS: AtomicU64 = AtomicU64::new(0);
    LEFT.store(total, Ordering::SeqCst);
    WORKERS.store(jobs as u64, Ordering::SeqCst);
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED);
        }
        let under_way = LEFT
            .load(Ordering::SeqCst)
            .min(WORKERS.load(Ordering::SeqCst));
        // (none once the last game ended: the batch is ending anyway)
        if under_way > 0 {
            errln!("{}", finishing(under_way));
        }
    });
    let asked = range.clone();
    let records = match run_batch_until(
        &scenario,
        base_seed,
        range,
        jobs,
        &|done| {
            // (the least: workers report their counts in any order)
            LEFT.fetch_min(total.saturating_sub(done), Ordering::SeqCst);
            bar.set_position(done)
        },
        &|| INTERRUPTED.load(Ordering::SeqCst),
    ) {
        Ok(r) => r,
        Err(e) if e.refused => {
            bar.finish_and_clear();
            errln!("error: {}", super::printable_lines(&e.to_string()));
            return EXIT_GAME;
        }
        Err(e) => return fail(e),
    };
    bar.finish_and_clear();
    let interrupted = INTERRUPTED.load(Ordering::SeqCst);
    if interrupted {
        errln!("{}", interruption(&records, &asked));
        if records.is_empty() {
            return EXIT_INTERRUPTED;
        }
    }
    warn_refusals(&records, base_seed, &args.scenario, &scenario);
    // (the statistics are printed even when the per-game file cannot be written: a disk full
    // at the end of a long batch lost every result)
    let written = match &args.per_game {
        Some(path) => match write_records(path, &records) {
            // (standard output whose reader closed the pipe: the output ends there quietly)
            Err(e) if !super::output::reader_gone(path, &e) => {
                Err(format!("{}: cannot write: {e}", path.display()))
            }
            _ => Ok(()),
        },
        None => Ok(()),
    };
    print_stats(
        &Stats::from_records(&records, &sides_of(&records)),
        args.json,
        args.csv,
    );
    match written {
        Ok(()) if interrupted => EXIT_INTERRUPTED,
        Ok(()) => EXIT_OK,
        Err(e) => fail(e),
    }
}

/// The exit code of a batch stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
const EXIT_INTERRUPTED: i32 = 130;

/// What the first Ctrl-C says at once: the games that workers are playing (each worker plays
/// one at a time, and no more start) are finished before the batch stops.
fn finishing(under_way: u64) -> String {
    let games = if under_way == 1 { "game" } else { "games" };
    format!("interrupted: finishing the {under_way} {games} under way (Ctrl-C again stops at once)")
}

/// What an interrupted batch says: how many of the games asked were played, and which were not
/// (to be played with `--seed-range` and joined with `stats merge`).
fn interruption(records: &[GameRecord], asked: &std::ops::Range<u64>) -> String {
    let missing: Vec<String> = absent(records, asked.clone())
        .iter()
        .map(|r| format!("--seed-range {}..{}", r.start, r.end))
        .collect();
    format!(
        "warning: interrupted: {} of {} games played; the statistics and any --per-game file are \
         of those; the rest: {} (then `hexwar stats merge`)",
        records.len(),
        asked.end - asked.start,
        missing.join(", ")
    )
}

/// The runs of game indices of `within` that no record holds, in order.
fn absent(records: &[GameRecord], within: std::ops::Range<u64>) -> Vec<std::ops::Range<u64>> {
    let mut games: Vec<u64> = records.iter().map(|r| r.game).collect();
    games.sort_unstable();
    let mut out = Vec::new();
    let mut next = within.start;
    for game in games.into_iter().filter(|g| within.contains(g)) {
        if game > next {
            out.push(next..game);
        }
        next = next.max(game + 1);
    }
    if next < within.end {
        out.push(next..within.end);
    }
    out
}

/// One warning when the bots' commands were refused in any game (each refusal ended the side's
/// phase and so changed the game; a single game warns, a batch said nothing), naming the first
/// such game and how to play it alone with its log.
fn warn_refusals(records: &[GameRecord], base_seed: u64, path: &Path, scenario: &Scenario) {
    let refused: Vec<&GameRecord> = records.iter().filter(|r| r.refused > 0).collect();
    let Some(first) = refused.first() else {
        return;
    };
    let total: u64 = refused.iter().map(|r| r.refused).sum();
    errln!(
        "warning: the bots gave {total} command(s) the rules refused, in {} of {} games, each \
         ending its phase; the first in game {} (to see them: hexwar run {} --seed {base_seed} \
         --seed-range {}..{}{} --log FILE)",
        refused.len(),
        records.len(),
        first.game,
        path.display(),
        first.game,
        first.game + 1,
        crate::batch::host_flags(scenario)
    );
}

/// The sides the statistics report: those the games scored or that won, sorted. Computed from
/// the records alone, so a merge of shards reports exactly what one run would.
fn sides_of(records: &[GameRecord]) -> Vec<String> {
    let mut sides: Vec<String> = records
        .iter()
        .flat_map(|r| r.scores.keys().cloned().chain(r.winner.clone()))
        .collect();
    sides.sort();
    sides.dedup();
    sides
}

fn write_records(path: &Path, records: &[GameRecord]) -> std::io::Result<()> {
    crate::output_file::write_with(path, |out| {
        for r in records {
            serde_json::to_writer(&mut *out, r)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    })
}

/// The largest score or figure a merged record may carry: far beyond any game's, and small
/// enough that the statistics' sums stay finite.
const MAX_RECORDED: f64 = 1e15;

/// The game records of one batch from the per-game files of its shards, in game order: refused
/// when empty, when they mix batches (scenario, base seed, scenario and rules files), when a
/// game appears twice, or when a record is none a batch writes (a score past 1e15, a winner
/// that scored nothing, a seed or a game no batch gives).
fn read_batch(files: &[PathBuf]) -> Result<Vec<GameRecord>, String> {
    // (each record with the file it came from, so that a mix of batches names the files)
    let mut records: Vec<(GameRecord, &Path)> = Vec::new();
    for path in files {
        // (a per-game file holds about 200 bytes a game: 1 GiB is some five million games)
        let text = crate::board::read_named_capped(path, 1 << 30)
            .map(crate::board::without_bom)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // (a save or a replay, one JSON document over many lines, was "not a game record: EOF
        // while parsing an object", which read as a file cut short)
        let game_records = crate::engine::JsonLines::GameRecords.describe();
        if let Some(what) = crate::engine::json_file_kind(&text).filter(|k| *k != game_records) {
            return Err(format!(
                "{}: this is {what}, not a --per-game file (the game records `hexwar run \
                 --games N --per-game FILE` writes, one JSON line a game)",
                path.display()
            ));
        }
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let record = serde_json::from_str::<GameRecord>(line).map_err(|e| {
                format!(
                    "{}:{}: not a game record: {}",
                    path.display(),
                    i + 1,
                    crate::board::in_json_words(&e.to_string())
                )
            })?;
            // (no game scores 1e308: sums of such numbers overflow into inf and NaN)
            if let Some((name, value)) = record
                .scores
                .iter()
                .chain(record.figures.iter())
                .find(|(_, v)| v.abs() > MAX_RECORDED)
            {
                return Err(format!(
                    "{}:{}: '{name}' is {value:e}: a score or figure is at most {MAX_RECORDED:e} either way",
                    path.display(),
                    i + 1
                ));
            }
            // (an edited record: a winner that scored nothing, `"martians"`, got its own row;
            // a seed the batch does not give game i paired with another batch's game i)
            if let Some(winner) = &record.winner {
                if !record.scores.is_empty() && !record.scores.contains_key(winner) {
                    return Err(format!(
                        "{}:{}: the winner '{winner}' is none of the sides the game scored ({})",
                        path.display(),
                        i + 1,
                        record.scores.keys().cloned().collect::<Vec<_>>().join(", ")
                    ));
                }
            }
            // (a range's end is past its last game, so no batch plays game 2^64-1: an edited
            // record's game there overflowed the merge's count of the games missing, a panic)
            if record.game == u64::MAX {
                return Err(format!(
                    "{}:{}: game {} is past the last game a batch can play ({})",
                    path.display(),
                    i + 1,
                    record.game,
                    u64::MAX - 1
                ));
            }
            let seed = crate::batch::derive_seed(record.base_seed, record.game);
            if record.seed != seed {
                return Err(format!(
                    "{}:{}: game {} has seed {}, not the one base seed {} gives it ({seed})",
                    path.display(),
                    i + 1,
                    record.game,
                    record.seed,
                    record.base_seed,
                ));
            }
            records.push((record, path));
        }
    }
    if records.is_empty() {
        return Err(format!(
            "no game records in {} (files written by `hexwar run --per-game`)",
            files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    records.sort_by_key(|(r, _)| r.game);
    let (first, first_file) = &records[0];
    let batch = |r: &GameRecord| format!("{} seed {}", r.scenario, r.base_seed);
    if let Some((other, other_file)) = records
        .iter()
        .find(|(r, _)| r.scenario != first.scenario || r.base_seed != first.base_seed)
    {
        return Err(format!(
            "shards of different batches: {} holds {} (game {}), {} holds {} (game {})",
            first_file.display(),
            batch(first),
            first.game,
            other_file.display(),
            batch(other),
            other.game
        ));
    }
    if let Some((other, other_file)) = records.iter().find(|(r, _)| r.rules != first.rules) {
        return Err(format!(
            "shards of different batches: game {} ({}) and game {} ({}) of {} were played under \
             different scenario or rules files (a variant?)",
            first.game,
            first_file.display(),
            other.game,
            other_file.display(),
            batch(first)
        ));
    }
    if let Some(w) = records.windows(2).find(|w| w[0].0.game == w[1].0.game) {
        return Err(format!(
            "game {} appears twice ({} and {})",
            w[0].0.game,
            w[0].1.display(),
            w[1].1.display()
        ));
    }
    Ok(records.into_iter().map(|(r, _)| r).collect())
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The per-game file (`--per-game`) of batch A (the reference).
    pub a: PathBuf,
    /// The per-game file of batch B (the variant).
    pub b: PathBuf,
    /// `{"scenario_a", "scenario_b", "games_a", "games_b", "paired_games", "same_winner",
    /// "sides": {SIDE: {"wins_a", "wins_b", "win_rate_a", "win_rate_b", "difference",
    /// "difference_95", "paired_score": {"mean_difference", "difference_95"} | null}},
    /// "figures": {NAME: {"mean_a", "mean_b", "paired": {"mean_difference", "difference_95"}
    /// | null}}}`, with "bots_a"/"bots_b" and "mods_a"/"mods_b" when a batch chose bots or mods
    #[arg(long)]
    pub json: bool,
}

/// `hexwar stats compare A B`: does variant B change each side's chances, with 95% intervals.
pub fn compare(args: &CompareArgs) -> i32 {
    let read = |path: &PathBuf| read_batch(std::slice::from_ref(path));
    let (a, b) = match (read(&args.a), read(&args.b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let (sides_a, sides_b) = (sides_of(&a), sides_of(&b));
    // (two unrelated games, France 1940 and Diplomacy, were compared side by side, each side
    // at 0% in the batch that lacks it)
    if !sides_a.iter().any(|s| sides_b.contains(s)) {
        let scenario = |r: &[GameRecord]| r.first().map(|r| r.scenario.clone()).unwrap_or_default();
        return fail(format!(
            "{} and {} have no side in common ({} plays {}; {} plays {}): nothing to compare",
            args.a.display(),
            args.b.display(),
            scenario(&a),
            sides_a.join(", "),
            scenario(&b),
            sides_b.join(", ")
        ));
    }
    let mut sides = sides_a;
    sides.extend(sides_b);
    sides.sort();
    sides.dedup();
    let comparison = crate::batch::Comparison::of(&a, &b, &sides);
    if args.json {
        outln!("{}", serde_json::to_string(&comparison).unwrap_or_default());
    } else {
        out!("{}", comparison.to_text());
    }
    EXIT_OK
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Per-game files (`--per-game`) of the shards.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the statistics as JSON.
    #[arg(long)]
    pub json: bool,
    /// Print the statistics as CSV.
    #[arg(long)]
    pub csv: bool,
}

/// `hexwar stats merge FILES...`: the statistics of all the shards' games together.
pub fn merge(args: &MergeArgs) -> i32 {
    if args.csv && args.json {
        return fail("--csv and --json each print the statistics: give one");
    }
    let records = match read_batch(&args.files) {
        Ok(records) => records,
        Err(e) => return fail(e),
    };
    if let Some(gaps) = missing_games(&records) {
        errln!("warning: {gaps}");
    }
    print_stats(
        &Stats::from_records(&records, &sides_of(&records)),
        args.json,
        args.csv,
    );
    EXIT_OK
}

/// The games a merge lacks between its first and last (a shard lost or not yet done: shards
/// `0..10` and `20..30` merged to 20 games without a word), said as ranges, or None.
fn missing_games(records: &[GameRecord]) -> Option<String> {
    let first = records.iter().map(|r| r.game).min()?;
    let last = records.iter().map(|r| r.game).max()?;
    let gaps = absent(records, first..last + 1);
    if gaps.is_empty() {
        return None;
    }
    let missing: u64 = gaps.iter().map(|r| r.end - r.start).sum();
    let shown: Vec<String> = gaps
        .iter()
        .map(|r| format!("{}..{}", r.start, r.end))
        .collect();
    Some(format!(
        "the files hold games {first}..{} but not {} ({missing} game(s) missing: a shard lost or \
         not done?); the statistics are of the {} games given",
        last + 1,
        shown.join(", "),
        records.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::{absent, finishing, interruption, GameRecord};

    /// Records of games `games` of a batch of the demo, base seed 9.
    fn played(games: impl IntoIterator<Item = u64>) -> Vec<GameRecord> {
        games
            .into_iter()
            .map(|game| GameRecord {
                scenario: "demo".into(),
                base_seed: 9,
                game,
                seed: crate::batch::derive_seed(9, game),
                winner: None,
                turns: 8,
                scores: Default::default(),
                commands: 0,
                figures: Default::default(),
                rules: String::new(),
                bots: Default::default(),
                mods: Vec::new(),
                refused: 0,
            })
            .collect()
    }

    /// An interrupted batch names every run of its games not played as a `--seed-range` shard,
    /// the last one up to the batch's end included (those after the last game played were
    /// left out).
    #[test]
    fn an_interrupted_batch_names_the_games_left_up_to_its_end() {
        let asked = 10..20;
        let records = played([10, 11, 14, 15]);
        assert_eq!(absent(&records, asked.clone()), vec![12..14, 16..20]);
        assert_eq!(
            interruption(&records, &asked),
            "warning: interrupted: 4 of 10 games played; the statistics and any --per-game file \
             are of those; the rest: --seed-range 12..14, --seed-range 16..20 (then `hexwar \
             stats merge`)"
        );
        assert_eq!(absent(&played(10..20), 10..20), vec![]);
        assert_eq!(absent(&played([]), 10..20), vec![10..20]);
        assert_eq!(
            finishing(1),
            "interrupted: finishing the 1 game under way (Ctrl-C again stops at once)"
        );
    }
}
