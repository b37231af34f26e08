//! When stdout cannot be written (a full disk here; a reader that closed the pipe is the same
//! case), every command ends with one line on stderr and exit 2, never a panic.

use std::process::{Command, Stdio};

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
