//! `hexwar test PATH`: runs the designers' Lua test files (`*_test.lua`) found under PATH.

use std::path::PathBuf;

use clap::Args;

use super::{fail, EXIT_GAME, EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct TestArgs {
    /// A test file, or a folder searched recursively for `*_test.lua`.
    pub path: PathBuf,
    /// `{"passed": N, "failed": N, "files": [{"file", "error", "output", "tests": [{"name", "failure", "error", "output"}]}]}`
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &TestArgs) -> i32 {
    if !args.path.exists() {
        return fail(format!("{}: no such file or folder", args.path.display()));
    }
    match crate::luatest::find_test_files(&args.path) {
        Ok(files) if files.is_empty() => {
            return fail(format!(
                "{}: no test files (*_test.lua) found",
                args.path.display()
            ))
        }
        Ok(_) => {}
        Err(e) => return fail(format!("{}: {e}", args.path.display())),
    }
    if args.json {
        return json(&args.path);
    }
    let mut out = std::io::stdout().lock();
    match crate::luatest::run_path(&args.path, &mut out) {
        Ok((_, 0)) => EXIT_OK,
        Ok(_) => EXIT_GAME,
        // (the output could not be written: reported once, as every command reports it)
        Err(e) => {
            super::output::lost(e);
            EXIT_INPUT
        }
    }
}

fn json(path: &std::path::Path) -> i32 {
    let files = match crate::luatest::find_test_files(path) {
        Ok(files) => files,
        Err(e) => return fail(format!("{}: {e}", path.display())),
    };
    let (mut passed, mut failed) = (0, 0);
    let mut list = Vec::new();
    for file in files {
        let r = crate::luatest::run_file(&file);
        failed += usize::from(r.error.is_some());
        let tests: Vec<serde_json::Value> = r
            .tests
            .iter()
            .map(|t| {
                if t.failure.is_some() {
                    failed += 1;
                } else {
                    passed += 1;
                }
                serde_json::json!({
                    "name": t.name,
                    "failure": t.failure,
                    "error": t.errored,
                    "output": t.output,
                })
            })
            .collect();
        list.push(serde_json::json!({
            "file": r.file.display().to_string(),
            "error": r.error,
            "output": r.output,
            "tests": tests,
        }));
    }
    outln!(
        "{}",
        serde_json::json!({ "passed": passed, "failed": failed, "files": list })
    );
    if failed == 0 {
        EXIT_OK
    } else {
        EXIT_GAME
    }
}
