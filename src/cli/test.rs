//! `hexwar test PATH`: runs the designers' Lua test files (`*_test.lua`) found under PATH.

use std::path::PathBuf;

use clap::Args;

use super::{fail, EXIT_GAME, EXIT_OK};

#[derive(Debug, Args)]
pub struct TestArgs {
    /// A test file, or a folder searched recursively for `*_test.lua`.
    pub path: PathBuf,
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
    let mut out = std::io::stdout().lock();
    match crate::luatest::run_path(&args.path, &mut out) {
        Ok((_, 0)) => EXIT_OK,
        Ok(_) => EXIT_GAME,
        Err(e) => fail(e),
    }
}
