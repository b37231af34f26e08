//! `hexwar run --games N` / `--seed-range A..B` and `hexwar stats merge`: the limits of a batch,
//! the flags it refuses, its progress bar, and a Ctrl-C once its games are played, pinned where
//! mutation testing of `src/cli/batch.rs` found them unchecked.

mod common;

use common::{hexwar, stderr, stdout};
use std::process::{Command, Stdio};

fn ok(args: &[&str]) -> String {
    let out = hexwar(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The `--per-game` record of a one-game batch of the demo, base seed 9 (standard output holds
/// the record, then the statistics).
fn one_game_record() -> String {
    let out = ok(&[
        "run",
        "scenarios/demo",
        "--seed",
        "9",
        "--games",
        "1",
        "--per-game",
        "-",
        "--quiet",
    ]);
    out.lines().next().unwrap().to_string()
}

/// A batch plays at most ten million games: exactly ten million passes that check (and meets
/// the next one, `--csv` with `--json`, before any game is played), one more is refused. A
/// shard far into the seeds (`--seed-range 10000000..10000002`) is two games, not the sum of
/// its ends, and plays.
#[test]
fn a_batch_of_exactly_ten_million_games_passes_the_limit_and_a_far_shard_plays() {
    let out = hexwar(&[
        "run",
        "tests/errors/_tiny",
        "--games",
        "10000000",
        "--csv",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --csv and --json each print the statistics: give one\n"
    );
    let out = hexwar(&[
        "run",
        "tests/errors/_tiny",
        "--games",
        "10000001",
        "--csv",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: a batch plays at most 10000000 games (10000001 asked): split it with \
         --seed-range and join the --per-game files with `hexwar stats merge`\n"
    );
    let far: serde_json::Value = serde_json::from_str(&ok(&[
        "run",
        "scenarios/demo",
        "--seed",
        "9",
        "--seed-range",
        "10000000..10000002",
        "--jobs",
        "1",
        "--json",
    ]))
    .unwrap();
    assert_eq!(far["games"], 2, "{far}");
}

/// `--replay`, `--save`, `--log` and `--turns` each belong to one game: in a batch of two
/// (`--seed-range 3..5`, whose ends divide to 1; `--games 1`, a batch even of one game) each is
/// refused before anything is played or written.
#[test]
fn each_single_game_flag_is_refused_in_a_batch() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.json");
    let file = file.to_str().unwrap();
    for count in [["--seed-range", "3..5"], ["--games", "1"]] {
        for flag in [
            ["--replay", file],
            ["--save", file],
            ["--log", file],
            ["--turns", "1"],
        ] {
            let out = hexwar(&[&["run", "scenarios/demo"], &count[..], &flag[..]].concat());
            assert_eq!(out.status.code(), Some(2), "{count:?} {flag:?}");
            assert_eq!(
                stderr(&out),
                "error: --replay, --save, --log and --turns are for single games, not batches \
                 (a batch's game i alone: --seed-range i..i+1)\n",
                "{count:?} {flag:?}"
            );
            assert_eq!(stdout(&out), "", "{count:?} {flag:?}");
            assert!(!std::path::Path::new(file).exists(), "{count:?} {flag:?}");
        }
    }
}

/// `--jobs 256`, the most, is taken (and gives the results of one worker); 257 is refused.
#[test]
fn a_batch_takes_256_workers_and_refuses_257() {
    let batch = |jobs: &str| {
        hexwar(&[
            "run",
            "scenarios/demo",
            "--seed",
            "9",
            "--games",
            "2",
            "--jobs",
            jobs,
            "--json",
        ])
    };
    let most = batch("256");
    assert_eq!(most.status.code(), Some(0), "{}", stderr(&most));
    let one = batch("1");
    assert_eq!(stdout(&most), stdout(&one));
    let out = batch("257");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --jobs 257: a batch starts at most 256 workers\n"
    );
    assert_eq!(stdout(&out), "");
}

/// A merged record may carry a score of exactly 1e15 either way (the largest allowed); past it
/// the record is refused.
#[test]
fn a_merged_score_of_exactly_1e15_is_taken_and_a_larger_one_refused() {
    let dir = tempfile::tempdir().unwrap();
    let record: serde_json::Value = serde_json::from_str(&one_game_record()).unwrap();
    let file = dir.path().join("games.jsonl");
    let merge = |blue: f64, red: f64| {
        let mut edited = record.clone();
        edited["scores"]["blue"] = serde_json::json!(blue);
        edited["scores"]["red"] = serde_json::json!(red);
        std::fs::write(&file, format!("{edited}\n")).unwrap();
        hexwar(&["stats", "merge", file.to_str().unwrap(), "--json"])
    };
    let out = merge(1e15, -1e15);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stats: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(stats["games"], 1);
    assert_eq!(stats["sides"]["blue"]["mean_score"], 1e15, "{stats}");
    assert_eq!(stats["sides"]["red"]["mean_score"], -1e15, "{stats}");
    let out = merge(1e15, -1.5e15);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}:1: 'red' is -1.5e15: a score or figure is at most 1e15 either way\n",
            file.display()
        )
    );
}

/// A Ctrl-C that comes once every game is played (here while the batch waits for a reader of
/// its `--per-game` named pipe) says nothing (there is no game under way to finish, even in a
/// shard that does not start at 0) and changes nothing: the records and statistics of every
/// game, exit 0.
#[cfg(target_os = "linux")]
#[test]
fn a_ctrl_c_once_the_games_are_played_says_nothing_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("games.pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // (no mkfifo here: nothing to test)
    }
    let child = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args([
            "run",
            "scenarios/demo",
            "--seed",
            "9",
            "--seed-range",
            "5..7",
            "--jobs",
            "1",
            "--per-game",
        ])
        .arg(&fifo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // (the games are played when the batch waits to open the pipe for writing, which Linux
    // names `wait_for_partner` in /proc/PID/wchan; a kernel that names no wait there, or
    // another, leaves nothing to observe: the test says so and stops, after a minute)
    let wchan = format!("/proc/{}/wchan", child.id());
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&wchan).unwrap_or_default() != "wait_for_partner" {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let mut child = child;
            let _ = child.kill();
            let _ = child.wait();
            eprintln!("skipped: {wchan} never named the wait for the pipe's reader");
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // (time for the handler to say anything it would)
    std::thread::sleep(std::time::Duration::from_millis(500));
    let records = std::fs::read_to_string(&fifo).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(stderr(&out), "");
    assert_eq!(out.status.code(), Some(0));
    let games: Vec<u64> = records
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(games, [5, 6]);
    assert!(
        stdout(&out).starts_with("scenario: demo  base seed: 9  games: 2\n"),
        "{}",
        stdout(&out)
    );
}

/// At a terminal a batch draws its progress bar on stderr (`N/M games`); `--quiet` draws
/// nothing there. (`script` gives the batch a terminal; standard output goes to /dev/null.)
#[cfg(target_os = "linux")]
#[test]
fn the_progress_bar_is_drawn_at_a_terminal_unless_quiet() {
    let at_a_terminal = |extra: &str| {
        Command::new("script")
            .args(["-qec"])
            .arg(format!(
                "'{}' run scenarios/demo --games 10 --jobs 1{extra} >/dev/null",
                env!("CARGO_BIN_EXE_hexwar")
            ))
            .arg("/dev/null")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .output()
    };
    let Ok(drawn) = at_a_terminal("") else {
        return; // (no `script` here: no terminal to test with)
    };
    assert_eq!(drawn.status.code(), Some(0), "{}", stderr(&drawn));
    let drawn = stdout(&drawn);
    assert!(drawn.contains("/10 games"), "{drawn:?}");
    let quiet = at_a_terminal(" --quiet").unwrap();
    assert_eq!(quiet.status.code(), Some(0), "{}", stderr(&quiet));
    assert_eq!(stdout(&quiet), "");
}

/// No batch plays game 2^64-1 (a range's end is past its last game): a record edited to that
/// game, with the seed the base seed would give it, is refused by `stats merge` and `stats
/// compare`, naming the file and line. (`stats merge` panicked counting the games missing.)
#[test]
fn a_record_of_game_2_pow_64_minus_1_is_refused_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let first = one_game_record();
    let mut record: serde_json::Value = serde_json::from_str(&first).unwrap();
    record["game"] = serde_json::json!(u64::MAX);
    record["seed"] = serde_json::json!(hexwar::batch::derive_seed(9, u64::MAX));
    let file = dir.path().join("games.jsonl");
    std::fs::write(&file, format!("{first}\n{record}\n")).unwrap();
    let file = file.to_str().unwrap();
    let message = format!(
        "error: {file}:2: game 18446744073709551615 is past the last game a batch can play \
         (18446744073709551614)\n"
    );
    let out = hexwar(&["stats", "merge", file]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), message);
    assert_eq!(stdout(&out), "");
    let out = hexwar(&["stats", "compare", file, file]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), message);
}
