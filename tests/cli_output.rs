//! When stdout cannot be written (a full disk), every command ends with one line on stderr and
//! exit 2, never a panic; a reader that closed the pipe (`| head`) ends the output quietly.

use std::process::{Command, Stdio};

mod common;
use common::{hexwar, stderr};

fn with_full_stdout(args: &[&str]) -> Option<(i32, String)> {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()?;
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::from(full))
        .output()
        .unwrap();
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

#[test]
fn a_full_stdout_is_an_error_line_and_exit_2_for_every_command() {
    let commands: [&[&str]; 5] = [
        &["check", "scenarios/demo"],
        &["run", "scenarios/demo", "--turns", "1"],
        &["reach", "scenarios/demo", "b-inf-1", "--json"],
        &["api", "--luals"],
        &["run", "scenarios/demo", "--games", "2", "--json"],
    ];
    for args in commands {
        let Some((code, stderr)) = with_full_stdout(args) else {
            eprintln!("no /dev/full here: skipped");
            return;
        };
        assert_eq!(
            (code, stderr.as_str()),
            (
                2,
                "error: cannot write the output: No space left on device (os error 28)\n"
            ),
            "{args:?}"
        );
    }
}

/// Both stdout and stderr unwritable (`2>&1 | head -1` once the reader has gone): the error
/// line has nowhere to go, and the command still ends with exit 2, not a panic (exit 101).
#[test]
fn with_stdout_and_stderr_both_unwritable_the_exit_code_still_says_so() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let Ok(full_too) = full.try_clone() else {
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["run", "scenarios/demo", "--turns", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::from(full))
        .stderr(Stdio::from(full_too))
        .status()
        .unwrap();
    assert_eq!(out.code(), Some(2));
}

/// `--log /dev/stdout` with stdout going to a file: the log and the summary after it both
/// reach the file (the log used to be written to a fresh file put in its place, and the
/// summary went to the one replaced).
#[test]
fn a_log_to_dev_stdout_comes_before_the_summary_in_a_redirected_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    let file = std::fs::File::create(&path).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["run", "scenarios/demo", "--seed", "1", "--turns", "1"])
        .args(["--log", "/dev/stdout"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(file)
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"event":"GameStarted","scenario":"demo","seed":1}"#
    );
    let summary = lines
        .iter()
        .position(|l| l.starts_with("scenario: "))
        .unwrap();
    assert!(lines[..summary]
        .iter()
        .all(|l| l.starts_with("{\"event\":")));
    assert_eq!(lines[summary], "scenario: Demo: the river valley (demo)");
    assert_eq!(lines.last().copied(), Some("events: ControlChanged 1, GameStarted 1, PhaseEnded 4, PhaseStarted 5, UnitEnteredHex 27, UnitMoved 8, UnitStatusChanged 16"));
}

/// Runs hexwar with `args` and a reader that closed its end of stdout at once.
fn with_stdout_closed(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// A reader that stops reading (`hexwar legal ... | head -2`) asked for no more: the command ends
/// quietly with its own exit code, no `cannot write the output: Broken pipe`.
#[test]
fn a_reader_closing_the_pipe_ends_the_output_quietly() {
    // (some 900 kB of output: far past what the pipe holds, so a write meets the closed end)
    let out = with_stdout_closed(&["legal", "scenarios/france1940"]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

/// The same for a log sent to standard output (`run ... --log /dev/stdout | head -2`): it said
/// `cannot write log: Broken pipe`, exit 2.
#[test]
fn a_reader_closing_the_pipe_of_a_log_on_stdout_ends_it_quietly() {
    // (a France 1940 campaign's log: megabytes, far past what the pipe holds)
    let out = with_stdout_closed(&["run", "scenarios/france1940", "--log", "/dev/stdout"]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

/// `--log -` is standard output, as `render -o -` is (it wrote a file named `-`).
#[test]
fn a_log_to_dash_goes_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/demo");
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args([
            "run",
            scenario.to_str().unwrap(),
            "--seed",
            "1",
            "--turns",
            "1",
        ])
        .args(["--log", "-"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().next(),
        Some(r#"{"event":"GameStarted","scenario":"demo","seed":1}"#)
    );
    assert!(!dir.path().join("-").exists());
}

/// `--json` promises one JSON value on stdout: an output sent there too (`--log -`, `--save -`,
/// `--per-game -`) is refused before play (the save or log came before the summary).
#[test]
fn an_output_to_stdout_beside_json_is_refused_before_play() {
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/demo");
    let scenario = scenario.to_str().unwrap();
    for (args, flag) in [
        (&["run", scenario, "--json", "--log", "-"][..], "--log -"),
        (
            &["run", scenario, "--json", "--save", "/dev/stdout"][..],
            "--save /dev/stdout",
        ),
        (
            &["run", scenario, "--json", "--games", "2", "--per-game", "-"][..],
            "--per-game -",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "", "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "error: {flag}: with --json, standard output holds one JSON value, the summary: \
                 write this output to a file\n"
            )
        );
    }
}

/// An output naming a file the command reads (`--orders`, `--setup`), whatever its name, is
/// refused before play: the orders file was replaced by the log.
#[test]
fn an_output_naming_the_orders_file_is_refused_and_the_file_kept() {
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("orders.txt");
    let text = "[[order]]\nside = \"blue\"\ncommand = \"end_phase\"\n";
    std::fs::write(&orders, text).unwrap();
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/demo");
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["play", scenario.to_str().unwrap(), "--orders"])
        .arg(&orders)
        .arg("--log")
        .arg(&orders)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: --log {}: that is the --orders file this command reads, which the output \
             would replace: name another file\n",
            orders.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&orders).unwrap(), text);
}

/// Every output sent to standard output ends quietly when its reader closed the pipe, with the
/// command's own exit code. Before, these exited 2: a save (`error: -: cannot write save:
/// Broken pipe`), a batch's records, `play`'s log and save, and `hexwar test`'s report
/// (silently).
#[test]
fn a_reader_closing_the_pipe_ends_every_output_on_stdout_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("orders.toml");
    std::fs::write(
        &orders,
        "[[order]]\nside = \"blue\"\ncommand = \"end_phase\"\n",
    )
    .unwrap();
    let orders = orders.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &[
            "run",
            "scenarios/demo",
            "--seed",
            "1",
            "--log",
            "-",
            "--save",
            "-",
        ],
        &["run", "scenarios/demo", "--seed", "1", "--save", "-"],
        &[
            "run",
            "scenarios/demo",
            "--games",
            "3",
            "--quiet",
            "--per-game",
            "-",
        ],
        &["play", "scenarios/demo", "--orders", orders, "--log", "-"],
        &["play", "scenarios/demo", "--orders", orders, "--save", "-"],
        &["test", "rules/demo"],
    ];
    for args in commands {
        let out = with_stdout_closed(args);
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (Some(0), ""),
            "{args:?}"
        );
    }
}

/// A save of a finished game given `--save -` whose reader closed the pipe: nothing is played
/// and nothing was written, and the note says only the first (it claimed `--save wrote the game
/// as it stands`).
#[test]
fn a_finished_save_to_a_closed_pipe_is_not_said_to_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let over = dir.path().join("over.json");
    let over = over.to_str().unwrap();
    let out = hexwar(&["run", "scenarios/demo", "--seed", "1", "--save", over]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = with_stdout_closed(&["run", over, "--save", "-"]);
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned()
        ),
        (
            Some(0),
            format!("note: the game in {over} is already over: nothing was played\n")
        )
    );
    let written = dir.path().join("again.json");
    let out = hexwar(&["run", over, "--save", written.to_str().unwrap()]);
    assert_eq!(
        stderr(&out),
        format!(
            "note: the game in {over} is already over: nothing was played (--save wrote the \
             game as it stands)\n"
        )
    );
}

/// `--help` and `--version` that cannot be written are an error as every command's output is
/// (they exited 0).
#[test]
fn help_and_version_that_cannot_be_written_are_an_error() {
    let commands: [&[&str]; 3] = [&["--help"], &["run", "--help"], &["--version"]];
    for args in commands {
        let Some((code, stderr)) = with_full_stdout(args) else {
            return;
        };
        assert_eq!(
            (code, stderr.as_str()),
            (
                2,
                "error: cannot write the output: No space left on device (os error 28)\n"
            ),
            "{args:?}"
        );
    }
}

/// An output file rewritten keeps its permission bits (a 600 save became 644), and one without
/// write permission (chmod 444) is refused before play and kept.
#[cfg(unix)]
#[test]
fn a_rewritten_output_keeps_its_permissions_and_a_read_only_one_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let log = dir.path().join("game.jsonl");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    for (path, bits) in [(&save, 0o600), (&log, 0o640)] {
        std::fs::write(path, "old").unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(bits)).unwrap();
    }
    let run = |save: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args(["run", "scenarios/demo", "--turns", "1", "--save"])
            .arg(save)
            .arg("--log")
            .arg(&log)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    let out = run(&save);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!((mode(&save), mode(&log)), (0o600, 0o640));
    assert_ne!(std::fs::read_to_string(&save).unwrap(), "old");

    let kept = dir.path().join("kept.json");
    std::fs::write(&kept, "keep").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = run(&kept);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: --save {}: cannot be written: the file is read-only (no write permission): \
             it is not replaced\n",
            kept.display()
        )
    );
    assert_eq!(out.stdout, b"");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "keep");
}

/// A log written to a named pipe reaches its reader whole: the check before play asks whether
/// the pipe may be written without opening it (opening and closing it there gave the reader an
/// end of file, and the game's log went nowhere).
#[cfg(unix)]
#[test]
fn a_log_to_a_named_pipe_reaches_its_reader() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("log.pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // (no mkfifo here: nothing to test)
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["run", "scenarios/demo", "--turns", "1", "--quiet", "--log"])
        .arg(&fifo)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = reader.join().unwrap();
    assert!(log.starts_with("{\"event\":\"GameStarted\""), "{log:?}");
    assert!(log.ends_with("\n") && log.lines().count() > 10, "{log:?}");
}

/// A save sent to a full standard output (`--save -` onto a full disk) is an error of its own,
/// said before the output's: the save was lost, not only the summary (a save whose write
/// failed was taken for a reader that had stopped reading, and said nothing). A save of a game
/// already over is written as it stands before anything is printed: its failure ends the run
/// there, with no note and no summary.
#[test]
fn a_save_to_a_full_stdout_is_said_to_be_lost() {
    let save_lost = "error: -: cannot write save: No space left on device (os error 28)\n";
    let output_lost = "error: cannot write the output: No space left on device (os error 28)\n";
    let played = ["run", "scenarios/demo", "--seed", "1", "--turns", "1"];
    let Some(out) = with_full_stdout(&[&played[..], &["--save", "-"]].concat()) else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    assert_eq!(out, (2, format!("{save_lost}{output_lost}")));

    let dir = tempfile::tempdir().unwrap();
    let end = dir.path().join("end.json");
    let end = end.to_str().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["run", "scenarios/demo", "--seed", "1", "--save", end])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let out = with_full_stdout(&["run", end, "--save", "-"]);
    assert_eq!(out, Some((2, save_lost.to_string())));
}

/// Two outputs named by one bare file name, not there yet, in the working directory are one
/// file, refused before the game is played (a name with no folder part had no folder to
/// compare by, and both were written, the save over the log).
#[test]
fn two_outputs_named_by_one_new_bare_name_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/demo");
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["run", scenario.to_str().unwrap(), "--turns", "1"])
        .args(["--log", "game.jsonl", "--save", "game.jsonl"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --save and --log name the same file (game.jsonl): one would replace the other\n"
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `--help` and `--version` whose reader closed the pipe end quietly with exit 0, as every
/// command's output does: only another write error (a full disk, above) is an error. (The
/// pipe's read end is closed before hexwar starts, so its first write meets it.)
#[test]
fn help_and_version_to_a_closed_pipe_end_quietly() {
    let commands: [&[&str]; 3] = [&["--help"], &["run", "--help"], &["--version"]];
    for args in commands {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args(args)
            .stdout(writer)
            .output()
            .unwrap();
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (Some(0), ""),
            "{args:?}"
        );
    }
}
