//! `hexwar test`: designers' Lua test files (`*_test.lua`). Each file runs in its own sandboxed
//! VM (the rules' sandbox and budgets) with a small API (`test(name, fn)`, `t.scenario`,
//! `t.submit`, `t.expect_refused`, `t.eq`, ...: docs/testing.md); the games a test starts are
//! Rust [`Session`]s, each with its own rules VM.

mod host;
mod require;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use mlua::chunk::ChunkMode;
use mlua::{Function, Table, Value};

use crate::printable::printable;
use crate::rules::{guard_protected_calls, new_vm, Budget};
use crate::session::Session;

/// Instructions one test may run in its own VM (the games' rules have their own budgets).
const TEST_INSTRUCTIONS: u64 = 500_000_000;
const TEST_MEMORY: usize = 256 << 20;
/// The wall-clock backstop of one test's own code (ten minutes, the most a scenario may set):
/// the clock runs on through the games the test plays, whose calls have budgets of their own,
/// so the rules' default of 10 s stopped a test that loads France 1940 forty times on a busy
/// machine (`F40-C.6: every cell of the combat results table`, 2-3 s on an idle one).
const TEST_WALL: std::time::Duration = std::time::Duration::from_secs(600);
/// Tests one file may hold: each gets a fresh budget, so a file whose tests register more tests
/// as they run would otherwise never end.
const TESTS_PER_FILE: usize = 10_000;

/// The result of one test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestResult {
    pub name: String,
    /// None when it passed; else what failed, starting with `file:line:`.
    pub failure: Option<String>,
    /// Whether the test stopped on an error (a script error, a game or rules error) rather
    /// than on an assertion that did not hold.
    pub errored: bool,
    /// What the test `print`ed, a line per call (its values joined by tabs).
    pub output: Vec<String>,
}

/// The results of one file, or why it could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileResult {
    pub file: PathBuf,
    pub tests: Vec<TestResult>,
    /// A file that does not load (syntax error, error at top level).
    pub error: Option<String>,
    /// What the file `print`ed while it loaded, outside any test.
    pub output: Vec<String>,
    /// Tests not run: their names do not hold the filter.
    pub filtered_out: usize,
}

impl FileResult {
    /// Whether a filter left nothing of the file to show: no test run, no load error, nothing
    /// printed as it loaded (such a file is not listed).
    pub fn filtered_away(&self, filter: Option<&str>) -> bool {
        filter.is_some() && self.tests.is_empty() && self.error.is_none() && self.output.is_empty()
    }
}

/// What a run over several files counts, for the text and the JSON report alike.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub passed: usize,
    /// Failed tests, and files that do not load (one each).
    pub failed: usize,
    pub filtered_out: usize,
}

impl Tally {
    /// Counts one file's results; false when the filter left nothing of it to show.
    pub fn count(&mut self, r: &FileResult, filter: Option<&str>) -> bool {
        self.filtered_out += r.filtered_out;
        if r.filtered_away(filter) {
            return false;
        }
        self.failed += usize::from(r.error.is_some());
        for t in &r.tests {
            if t.failure.is_some() {
                self.failed += 1;
            } else {
                self.passed += 1;
            }
        }
        true
    }
}

/// The refusal of a filter no test's name holds (a misspelt one ran nothing and passed).
pub fn no_test_named(filter: &str) -> String {
    format!("--filter {filter}: no test's name holds it")
}

/// The line of the test file a failure names (`file_test.lua:12: ...`), for tools that jump
/// to it; None when the message names no line there.
pub fn failure_line(file: &Path, failure: &str) -> Option<u32> {
    let rest = failure.strip_prefix(&format!("{}:", file.display()))?;
    let (line, _) = rest.split_once(':')?;
    line.parse().ok()
}

/// Test files under a path (a `*_test.lua` file itself, or found recursively), sorted.
pub fn find_test_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    if path.is_file() {
        out.push(path.to_path_buf());
        return Ok(out);
    }
    let mut dirs = vec![path.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            // (links are not followed into folders, as the rules lint does: `ln -s . x` made
            // the walk run one test file 41 times, two such links without end)
            if entry.file_type()?.is_symlink() && entry.path().is_dir() {
                continue;
            }
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with("_test.lua"))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The budget of a test's own code: [`TEST_INSTRUCTIONS`] and the backstop [`TEST_WALL`].
fn test_budget() -> Arc<Budget> {
    let budget = Budget::new(TEST_INSTRUCTIONS);
    budget.set_wall_limit(TEST_WALL);
    budget
}

/// The mark the prelude's `fail` puts before an assertion's message.
const ASSERTION_MARK: &str = "\u{1}assertion\u{1}";

/// A test's error as (message, whether it is an error rather than a failed assertion).
fn outcome_of(e: &mlua::Error, budget: &Budget) -> (String, bool) {
    let text = message_of(e, budget);
    match text.split_once(ASSERTION_MARK) {
        Some((position, message)) => (format!("{position}{message}"), false),
        None => (text, true),
    }
}

/// Strips mlua's traceback from an error message: the designer wants `file:line: what`.
fn message_of(e: &mlua::Error, budget: &Budget) -> String {
    let text = match e {
        mlua::Error::CallbackError { cause, traceback } => {
            return match bad_test_argument(cause, traceback) {
                Some(message) => message,
                None => message_of(cause, budget),
            }
        }
        // (Lua's own "not enough memory" names no place: the budget saw where the test ran)
        mlua::Error::MemoryError(_) => return crate::rules::memory_exceeded(budget, TEST_MEMORY),
        mlua::Error::RuntimeError(m) => m.clone(),
        other => other.to_string(),
    };
    let text = crate::rules::without_addresses(&text);
    let (head, traceback) = text
        .split_once("\nstack traceback:")
        .unwrap_or((text.as_str(), ""));
    let head = head.trim_end();
    // (an error value that is no string, `error(setmetatable({}, ...))`, carries no place: the
    // test file's innermost frame gives it)
    let place = test_file_place(traceback.lines().map(str::trim));
    let text = match place {
        Some(place) if !crate::rules::is_located(head) => format!("{place}: {head}"),
        _ => head.to_string(),
    };
    // (the test's own VM has a fixed budget, which no scenario's [limits] raises: a loop in
    // the test file itself was told to raise it there)
    let own_budget = format!("of {TEST_INSTRUCTIONS} {}", crate::rules::BUDGET_EXCEEDED);
    let own_wall = format!(
        "{} of {} s exceeded",
        crate::rules::WALL_MARK,
        TEST_WALL.as_secs()
    );
    match text.split_once(&own_wall) {
        // (the same for the test's own backstop: no scenario's [limits] raises it either)
        Some((place, _)) => format!(
            "{place}{own_wall} (a loop comparing or joining long strings?): the backstop of a \
             test file's own code, for each test, the games it plays included"
        ),
        None => text.replace(
            &own_budget,
            &format!(
                "of {TEST_INSTRUCTIONS} instructions exceeded (an endless loop?): the budget of a \
                 test file's own code, for each test"
            ),
        ),
    }
}

/// A test API function given an argument of the wrong type, named as the test file called it
/// (`t.query`, not the host function the prelude passes it on to) at the test file's line.
fn bad_test_argument(cause: &mlua::Error, traceback: &str) -> Option<String> {
    let frames: Vec<&str> = traceback
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("[C]: in "))
        .collect();
    let called = frames
        .iter()
        .skip(1)
        .find(|f| f.starts_with(PRELUDE_NAME))
        .and_then(|f| crate::rules::called_field(f))
        .map(|field| format!("t.{field}"));
    let message = crate::rules::bad_argument(cause, called.as_deref())?;
    let place = test_file_place(frames.iter().copied()).map(|place| format!("{place}: "));
    Some(format!("{}{message}", place.unwrap_or_default()))
}

/// The innermost traceback frame in a script of the designer's (not the test API's Lua half nor
/// a C function), as `file.lua:3`.
fn test_file_place<'a>(frames: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    frames
        .filter(|f| !f.starts_with('[') && !f.starts_with(PRELUDE_NAME))
        .find_map(|f| f.split_once(": in "))
        .map(|(place, _)| place)
}

/// The chunk name of the test API's Lua half (prelude.lua), as tracebacks print it.
const PRELUDE_NAME: &str = "hexwar test API";

/// Runs the tests of one file whose name holds `filter` (every test without one).
pub fn run_file(file: &Path, filter: Option<&str>) -> FileResult {
    let mut result = FileResult {
        file: file.to_path_buf(),
        tests: Vec::new(),
        error: None,
        output: Vec::new(),
        filtered_out: 0,
    };
    match run_file_inner(file, filter, &mut result) {
        Ok(()) => {}
        Err(e) => result.error = Some(e),
    }
    result
}

/// Takes what was printed so far.
fn take(printed: &Mutex<Vec<String>>) -> Vec<String> {
    printed
        .lock()
        .map(|mut p| std::mem::take(&mut *p))
        .unwrap_or_default()
}

fn run_file_inner(
    file: &Path,
    filter: Option<&str>,
    result: &mut FileResult,
) -> Result<(), String> {
    let source = crate::board::SourceText::read(file)
        .map(|s| crate::board::without_bom(s.text))
        .map_err(|e| match crate::board::NotUtf8::of(&e) {
            Some(bad) => bad.at(file.display()),
            None => format!("{}: cannot read: {e}", file.display()),
        })?;
    let budget = test_budget();
    let lua = new_vm(&budget).map_err(|e| e.to_string())?;
    // (absolute, so that the folders above it are searched too when PATH was relative:
    // `hexwar test tests` run inside rules/demo looked only in `tests` and the empty path)
    let parent = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let base = std::fs::canonicalize(&parent).unwrap_or_else(|_| parent.clone());
    let game: Arc<Mutex<Option<Session>>> = Arc::new(Mutex::new(None));
    // (kept with the test that printed it, shown under it)
    let printed: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
    let setup = || -> mlua::Result<(Table, Table, Function)> {
        budget.install(&lua, TEST_MEMORY, true)?;
        guard_protected_calls(&lua, &budget)?;
        lua.set_memory_limit(TEST_MEMORY)?;
        let api = host::register(&lua, Arc::clone(&game), base.clone())?;
        lua.globals().raw_set("__host", api)?;
        let sink = Arc::clone(&printed);
        let print = lua.create_function(move |_, args: mlua::Variadic<Value>| {
            let parts: Vec<String> = args
                .iter()
                // (an assertion's message caught by pcall carries the runner's mark)
                .map(|v| v.to_string().unwrap_or_else(|_| "?".into()))
                .map(|text| text.replace(ASSERTION_MARK, ""))
                .collect();
            if let Ok(mut p) = sink.lock() {
                p.push(parts.join("\t"));
            }
            Ok(())
        })?;
        lua.globals().raw_set("print", print)?;
        require::install(&lua, &parent)?;
        lua.load(include_str!("prelude.lua"))
            .set_name(format!("={PRELUDE_NAME}"))
            .set_mode(ChunkMode::Text)
            .eval::<(Table, Table, Function)>()
    };
    let (tests, t, dice_left) = setup().map_err(|e| format!("cannot set up the test VM: {e}"))?;
    budget.reset();
    let loaded = lua
        .load(&source)
        .set_name(format!("@{}", file.display()))
        .set_mode(ChunkMode::Text)
        .exec();
    result.output = take(&printed);
    loaded.map_err(|e| message_of(&e, &budget))?;
    for entry in tests.sequence_values::<Table>() {
        if result.tests.len() >= TESTS_PER_FILE {
            return Err(format!(
                "{}: more than {TESTS_PER_FILE} tests (does a test register tests?)",
                file.display()
            ));
        }
        let entry = entry.map_err(|e| e.to_string())?;
        let name: String = entry.get("name").unwrap_or_default();
        if filter.is_some_and(|f| !name.contains(f)) {
            result.filtered_out += 1;
            continue;
        }
        let f: Function = entry.get("fn").map_err(|e| e.to_string())?;
        if let Ok(mut g) = game.lock() {
            *g = None;
        }
        budget.reset();
        // (values a test set with t.dice and never rolled fail it, and go no further)
        let _ = dice_left.call::<Option<String>>(());
        let outcome = f
            .call::<()>(t.clone())
            .err()
            .map(|e| outcome_of(&e, &budget))
            .or_else(|| match dice_left.call::<Option<String>>(()) {
                Ok(Some(left)) => Some((
                    format!(
                        "{}: t.dice: values set at the end of the test were never rolled ({left}): \
                         they are for the command that follows t.dice",
                        file.display()
                    ),
                    true,
                )),
                _ => None,
            });
        result.tests.push(TestResult {
            name,
            errored: outcome.as_ref().is_some_and(|(_, errored)| *errored),
            failure: outcome.map(|(message, _)| message),
            output: take(&printed),
        });
    }
    Ok(())
}

/// What a test printed, each line marked as its output (a printed text of several lines too),
/// control characters escaped as `run` shows a script's lines.
fn write_printed(out: &mut dyn std::io::Write, printed: &[String]) -> std::io::Result<()> {
    for line in printed.iter().flat_map(|text| text.split('\n')) {
        writeln!(out, "    | {}", printable(line))?;
    }
    Ok(())
}

/// Runs every test file under a path (the tests whose name holds `filter`); prints each file's
/// results and a summary to `out`. Returns (passed, failed).
pub fn run_path(
    path: &Path,
    filter: Option<&str>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<(usize, usize)> {
    let files = find_test_files(path)?;
    let mut tally = Tally::default();
    for file in files {
        let r = run_file(&file, filter);
        if !tally.count(&r, filter) {
            continue;
        }
        writeln!(out, "{}", r.file.display())?;
        write_printed(out, &r.output)?;
        if let Some(e) = &r.error {
            writeln!(out, "  ERROR the file does not load")?;
            for line in e.lines() {
                writeln!(out, "        {}", printable(line))?;
            }
        }
        for t in &r.tests {
            match &t.failure {
                None => writeln!(out, "  ok    {}", printable(&t.name))?,
                Some(message) => {
                    let label = if t.errored { "ERROR" } else { "FAIL " };
                    writeln!(out, "  {label} {}", printable(&t.name))?;
                    for line in message.lines() {
                        writeln!(out, "        {}", printable(line))?;
                    }
                }
            }
            write_printed(out, &t.output)?;
        }
    }
    let Tally {
        passed,
        failed,
        filtered_out,
    } = tally;
    if filter.is_some() {
        writeln!(
            out,
            "{passed} passed, {failed} failed, {filtered_out} filtered out"
        )?;
    } else {
        writeln!(out, "{passed} passed, {failed} failed")?;
    }
    Ok((passed, failed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new folder holding each (file name, Lua source).
    pub(super) fn folder_of(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for (name, source) in files {
            std::fs::write(dir.path().join(name), source).expect("a test file written");
        }
        dir
    }

    /// `--filter` counts the tests it left out of every file, a file whose tests it left out
    /// entirely included (the summary said "0 filtered out" when a count was dropped).
    #[test]
    fn a_filter_counts_the_tests_it_leaves_out_of_every_file() {
        let dir = folder_of(&[
            (
                "a_test.lua",
                "test(\"one\", function(t) end)\ntest(\"two\", function(t) end)\n\
                 test(\"three\", function(t) end)\n",
            ),
            (
                "b_test.lua",
                "test(\"four\", function(t) end)\ntest(\"five\", function(t) end)\n\
                 test(\"six\", function(t) end)\n",
            ),
        ]);
        let a = dir.path().join("a_test.lua");
        let one = run_file(&a, Some("one"));
        assert_eq!(one.filtered_out, 2);
        let names: Vec<&str> = one.tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["one"]);
        let mut out = Vec::new();
        assert_eq!(
            run_path(dir.path(), Some("one"), &mut out).expect("the tests ran"),
            (1, 0)
        );
        assert_eq!(
            String::from_utf8_lossy(&out),
            format!(
                "{}\n  ok    one\n1 passed, 0 failed, 5 filtered out\n",
                a.display()
            )
        );
    }

    /// A file that does not load counts as a failure in the summary and in what `run_path`
    /// gives back (the exit code), before and beside the tests of a file that loads.
    #[test]
    fn a_file_that_does_not_load_counts_as_failed() {
        let dir = folder_of(&[
            ("a_test.lua", "error(\"broken at load\")\n"),
            ("b_test.lua", "test(\"fine\", function(t) end)\n"),
        ]);
        let (a, b) = (dir.path().join("a_test.lua"), dir.path().join("b_test.lua"));
        let mut out = Vec::new();
        assert_eq!(
            run_path(dir.path(), None, &mut out).expect("the tests ran"),
            (1, 1)
        );
        assert_eq!(
            String::from_utf8_lossy(&out),
            format!(
                "{a}\n  ERROR the file does not load\n        {a}:1: broken at load\n{b}\n  ok    \
                 fine\n1 passed, 1 failed\n",
                a = a.display(),
                b = b.display()
            )
        );
    }

    /// A test's own code has ten minutes of wall clock, the games it plays included; a rules VM
    /// keeps the scenarios' default of 10 s.
    #[test]
    fn a_tests_own_backstop_is_ten_minutes() {
        assert_eq!(
            test_budget().wall_limit(),
            std::time::Duration::from_secs(600)
        );
        assert_eq!(
            Budget::new(1).wall_limit(),
            std::time::Duration::from_secs(10)
        );
    }

    /// The test's own backstop is named as such, not as a scenario's `[limits] seconds`; a
    /// game's backstop (its scenario's limit) is left as the rules host words it.
    #[test]
    fn the_tests_own_backstop_is_named_as_the_tests() {
        let budget = test_budget();
        let stopped = |seconds: u64| {
            mlua::Error::RuntimeError(format!(
                "rules/x/tests/x_test.lua:3: wall-clock backstop of {seconds} s exceeded within \
                 the instruction budget (one instruction doing megabytes of work: comparing or \
                 joining long strings?); raise [limits] seconds in the scenario if the rule \
                 really needs more"
            ))
        };
        assert_eq!(
            message_of(&stopped(600), &budget),
            "rules/x/tests/x_test.lua:3: wall-clock backstop of 600 s exceeded (a loop comparing \
             or joining long strings?): the backstop of a test file's own code, for each test, \
             the games it plays included"
        );
        assert_eq!(
            message_of(&stopped(10), &budget),
            "rules/x/tests/x_test.lua:3: wall-clock backstop of 10 s exceeded within the \
             instruction budget (one instruction doing megabytes of work: comparing or joining \
             long strings?); raise [limits] seconds in the scenario if the rule really needs more"
        );
    }
}
