//! What a user sees for each kind of broken input, byte for byte: every folder
//! `tests/errors/<case>/` holds the broken input(s), `cmd` (the arguments, one line, split at
//! whitespace; paths relative to the repository root, where the binary runs), `expected.stderr`,
//! `expected.code` (the exit code) and, when the command prints anything on stdout,
//! `expected.stdout`.
//!
//! After changing a message: `HEXWAR_BLESS=1 cargo test --test error_messages` rewrites the
//! expected files; review them with `git diff tests/errors`.
//!
//! (A home-made runner rather than trycmd: the comparison is exact, with no newline or path
//! normalisation and no `[..]` wildcards, and the case layout and bless switch stay the ones the
//! docs name.)

use std::path::{Path, PathBuf};
use std::process::Command;

/// What one run produced.
struct Outcome {
    code: String,
    stdout: String,
    stderr: String,
}

fn run_case(root: &Path, case: &Path) -> Outcome {
    let cmd = std::fs::read_to_string(case.join("cmd"))
        .unwrap_or_else(|e| panic!("{}: cannot read cmd: {e}", case.display()));
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(cmd.split_whitespace())
        .current_dir(root)
        .env_remove("HEXWAR_BLESS")
        .output()
        .unwrap_or_else(|e| panic!("cannot run hexwar: {e}"));
    Outcome {
        code: match out.status.code() {
            Some(c) => format!("{c}\n"),
            None => "killed by a signal\n".into(),
        },
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn read_or_empty(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn bless(case: &Path, got: &Outcome) {
    std::fs::write(case.join("expected.stderr"), &got.stderr).unwrap();
    std::fs::write(case.join("expected.code"), &got.code).unwrap();
    let stdout = case.join("expected.stdout");
    if got.stdout.is_empty() {
        let _ = std::fs::remove_file(stdout);
    } else {
        std::fs::write(stdout, &got.stdout).unwrap();
    }
}

/// The differences between what was expected and what came, as text for the failure message.
fn differences(case: &Path, shown: &Path, got: &Outcome) -> Vec<String> {
    let mut diffs = Vec::new();
    for (file, actual) in [
        ("expected.code", &got.code),
        ("expected.stderr", &got.stderr),
        ("expected.stdout", &got.stdout),
    ] {
        let expected = read_or_empty(&case.join(file));
        if &expected != actual {
            diffs.push(format!(
                "{}/{file}:\n--- expected\n{expected}--- actual\n{actual}---",
                shown.display()
            ));
        }
    }
    diffs
}

fn cases(root: &Path) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root.join("tests/errors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("cmd").is_file())
        .collect();
    cases.sort();
    cases
}

#[test]
fn every_broken_input_gets_its_exact_message_and_exit_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let blessing = std::env::var_os("HEXWAR_BLESS").is_some();
    let cases = cases(root);
    assert!(cases.len() >= 20, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let got = run_case(root, case);
        if blessing {
            bless(case, &got);
        } else {
            let relative = case.strip_prefix(root).unwrap_or(case);
            failures.extend(differences(case, relative, &got));
        }
    }
    assert_expects_a_failure_with_a_message(&cases);
    assert!(
        failures.is_empty(),
        "{}\n\n{} difference(s); if the new messages are right: \
         HEXWAR_BLESS=1 cargo test --test error_messages, then review git diff tests/errors",
        failures.join("\n\n"),
        failures.len()
    );
}

/// Every case is a failure the user must see: no case may exit 0 or say nothing (checked after
/// blessing too, so a blessed case that no longer fails is caught).
fn assert_expects_a_failure_with_a_message(cases: &[PathBuf]) {
    for case in cases {
        let code = read_or_empty(&case.join("expected.code"));
        assert!(
            code == "1\n" || code == "2\n",
            "{}: exit code {code:?}",
            case.display()
        );
        // Bad input is an `error:` on stderr; a refused order (exit 1) is reported as refused.
        let stderr = read_or_empty(&case.join("expected.stderr"));
        let stdout = read_or_empty(&case.join("expected.stdout"));
        let refused = stderr.contains("refused") || stdout.contains("refused");
        assert!(
            stderr.starts_with("error: ") || (code == "1\n" && refused),
            "{}: {stderr}",
            case.display()
        );
    }
}
