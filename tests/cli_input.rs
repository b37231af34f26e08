//! Input the user's editor or file system shaped: a byte-order mark before a Lua file, a
//! replay or game records; a scenario folder whose path is not UTF-8; and options that one
//! game of a batch played alone cannot honour.

mod common;

use std::path::Path;

use common::{demo_copy, hexwar, stderr, stdout};

/// Runs hexwar, checks it succeeded and returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = hexwar(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Puts an editor's UTF-8 byte-order mark before the file's text.
fn add_bom(path: &Path) {
    let text = std::fs::read(path).unwrap();
    std::fs::write(path, [b"\xef\xbb\xbf".as_slice(), &text].concat()).unwrap();
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A byte-order mark is skipped, as in TOML files and saves, in a rules file, a mod, a Lua test
/// file, a replay and a per-game file: Lua said `unexpected symbol near '<\239>'`, the replay
/// `not valid JSON`, `stats merge` `not a game record`.
#[test]
fn a_byte_order_mark_is_skipped_in_lua_files_replays_and_game_records() {
    let (dir, scenario) = demo_copy();
    let rules = dir.path().join("rules/demo");
    add_bom(&rules.join("init.lua"));
    add_bom(&rules.join("tests/bridges_test.lua"));
    let args = ["run", "--seed", "1", "--turns", "1"];
    assert_eq!(
        ok(&[&args[..1], &[s(&scenario)], &args[1..]].concat()),
        ok(&[&args[..1], &["scenarios/demo"], &args[1..]].concat())
    );
    let tested = ok(&["test", s(&rules.join("tests/bridges_test.lua"))]);
    assert!(tested.contains("  ok    "), "{tested}");

    let mod_file = dir.path().join("quiet.lua");
    std::fs::write(&mod_file, "\u{feff}-- a mod that changes nothing\n").unwrap();
    ok(&[
        "run",
        "scenarios/demo",
        "--turns",
        "1",
        "--mod",
        s(&mod_file),
    ]);

    let replay = dir.path().join("game.replay.json");
    ok(&[
        "run",
        "scenarios/demo",
        "--seed",
        "4",
        "--replay",
        s(&replay),
    ]);
    let verified = ok(&["replay", s(&replay)]);
    add_bom(&replay);
    assert_eq!(ok(&["replay", s(&replay)]), verified);

    let records = dir.path().join("games.jsonl");
    ok(&[
        "run",
        "scenarios/demo",
        "--games",
        "3",
        "--quiet",
        "--per-game",
        s(&records),
    ]);
    let merged = ok(&["stats", "merge", s(&records)]);
    add_bom(&records);
    assert_eq!(ok(&["stats", "merge", s(&records)]), merged);
}

/// `--seed-range i..i+1` with `--log`, `--save`, `--replay` or `--turns` plays game i alone, as
/// a single game: `--per-game` and `--csv` were silently not written (exit 0); they are refused.
#[test]
fn one_game_of_a_batch_played_alone_refuses_per_game_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("game.jsonl");
    let records = dir.path().join("games.jsonl");
    let base = [
        "run",
        "scenarios/demo",
        "--seed-range",
        "2..3",
        "--log",
        s(&log),
    ];
    for (extra, flag) in [
        (["--per-game", s(&records)].as_slice(), "--per-game"),
        (["--csv"].as_slice(), "--csv"),
    ] {
        let out = hexwar(&[&base[..], extra].concat());
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            stderr(&out),
            format!(
                "error: {flag} is for a batch's statistics and records, and --seed-range 2..3 \
                 with --replay, --save, --log or --turns plays that game alone, as a single \
                 game: run it without those for its record\n"
            )
        );
        assert_eq!(stdout(&out), "");
    }
    assert!(!log.exists() && !records.exists());
}

/// A save or a replay records its scenario's path as text: a scenario folder whose name is not
/// UTF-8 played the whole game and then failed to write the save ("the file ends too early,
/// is it truncated?"). It is refused before play, naming the path.
#[cfg(unix)]
#[test]
fn a_scenario_whose_path_is_not_utf8_is_refused_before_play_with_save_or_replay() {
    use std::os::unix::ffi::OsStrExt;
    let (dir, scenario) = demo_copy();
    let odd = dir
        .path()
        .join("scenarios")
        .join(std::ffi::OsStr::from_bytes(b"d\xe9mo"));
    std::fs::rename(&scenario, &odd).unwrap();
    let save = dir.path().join("game.json");
    let orders = dir.path().join("orders.toml");
    std::fs::write(
        &orders,
        "[[order]]\nside = \"blue\"\ncommand = \"end_phase\"\n",
    )
    .unwrap();
    let shown = odd.join("scenario.toml").display().to_string();
    let runs: [(&[&std::ffi::OsStr], &str); 3] = [
        (
            &[
                "run".as_ref(),
                odd.as_ref(),
                "--save".as_ref(),
                save.as_ref(),
            ],
            "--save",
        ),
        (
            &[
                "run".as_ref(),
                odd.as_ref(),
                "--replay".as_ref(),
                save.as_ref(),
            ],
            "--replay",
        ),
        (
            &[
                "play".as_ref(),
                odd.as_ref(),
                "--orders".as_ref(),
                orders.as_ref(),
                "--save".as_ref(),
                save.as_ref(),
            ],
            "--save",
        ),
    ];
    for (args, flag) in runs {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            (out.status.code(), stderr(&out), stdout(&out)),
            (
                Some(2),
                format!(
                    "error: {shown}: the path is not UTF-8 text, and {flag} records it as text (a \
                     save or a replay names its scenario and mods by path): rename the file or \
                     its folder\n"
                ),
                String::new()
            ),
            "{args:?}"
        );
        assert!(!save.exists());
    }
    // (without an output that records the path, the game is played)
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args([
            "run".as_ref(),
            odd.as_os_str(),
            "--turns".as_ref(),
            "1".as_ref(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}
