//! `hexwar test PATH`: runs the designers' Lua test files (`*_test.lua`) found under PATH.

use std::path::PathBuf;

use clap::Args;

use super::{fail, EXIT_GAME, EXIT_OK};

#[derive(Debug, Args)]
pub struct TestArgs {
    /// A test file, or a folder searched recursively for `*_test.lua`.
    pub path: PathBuf,
    /// `{"passed": N, "failed": N, "filtered_out": N, "files": [{"file", "error", "output", "tests": [{"name", "failure", "line", "error", "output"}]}]}`
    #[arg(long)]
    pub json: bool,
    /// Run only the tests whose name holds TEXT (the others are counted as filtered out).
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
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
    let filter = args.filter.as_deref();
    if args.json {
        return json(&args.path, filter);
    }
    // (through `Out`: every test runs and counts when the output cannot be written, so a
    // reader that closed the pipe, `| head`, leaves the exit code the tests' own)
    match crate::luatest::run_path(&args.path, filter, &mut super::output::Out) {
        Ok((0, 0)) if filter.is_some() => {
            fail(crate::luatest::no_test_named(filter.unwrap_or_default()))
        }
        Ok((_, 0)) => EXIT_OK,
        Ok(_) => EXIT_GAME,
        Err(e) => fail(format!("{}: {e}", args.path.display())),
    }
}

fn json(path: &std::path::Path, filter: Option<&str>) -> i32 {
    let files = match crate::luatest::find_test_files(path) {
        Ok(files) => files,
        Err(e) => return fail(format!("{}: {e}", path.display())),
    };
    let mut tally = crate::luatest::Tally::default();
    let mut list = Vec::new();
    for file in files {
        let r = crate::luatest::run_file(&file, filter);
        if !tally.count(&r, filter) {
            continue;
        }
        let tests: Vec<serde_json::Value> = r
            .tests
            .iter()
            .map(|t| {
                let line = t
                    .failure
                    .as_deref()
                    .and_then(|f| crate::luatest::failure_line(&r.file, f));
                serde_json::json!({
                    "name": t.name,
                    "failure": t.failure,
                    "line": line,
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
    let crate::luatest::Tally {
        passed,
        failed,
        filtered_out,
    } = tally;
    if passed + failed == 0 && filter.is_some() {
        return fail(crate::luatest::no_test_named(filter.unwrap_or_default()));
    }
    outln!(
        "{}",
        serde_json::json!({
            "passed": passed,
            "failed": failed,
            "filtered_out": filtered_out,
            "files": list
        })
    );
    if failed == 0 {
        EXIT_OK
    } else {
        EXIT_GAME
    }
}
