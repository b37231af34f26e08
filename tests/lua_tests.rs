//! `hexwar test`: the designers' Lua tests under rules/ pass; a failing file reports expected vs
//! actual with file and line, a summary, and exit 1.

use std::process::Command;

fn hexwar(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .output()
        .expect("run hexwar");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_rules_lua_tests_pass() {
    let (code, stdout, stderr) = hexwar(&["test", "rules"]);
    assert_eq!(code, 0, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout.contains("rules/demo/tests/demo_test.lua\n"),
        "{stdout}"
    );
    assert!(stdout.contains("  ok    DEMO-7: victory counts objectives and eliminations\n"));
    assert!(stdout.ends_with(" passed, 0 failed\n"), "{stdout}");
}

#[test]
fn a_failing_lua_test_shows_expected_and_actual_with_file_and_line() {
    let (code, stdout, _) = hexwar(&["test", "tests/fixtures/lua_failing"]);
    assert_eq!(code, 1);
    let expected = "\
tests/fixtures/lua_failing/failing_test.lua
  ok    passes
  FAIL  a wrong expectation
        tests/fixtures/lua_failing/failing_test.lua:7: the table
          expected: {a = 1, b = {\"x\", \"z\"}}
            actual: {a = 1, b = {\"x\", \"y\"}}
          first difference at .b[2]: expected \"z\", actual \"y\"
  FAIL  a refusal by another rule
        tests/fixtures/lua_failing/failing_test.lua:12: expected {command = \"move\", path = {\"0104\"}, unit = \"b-inf-1\"} to be refused by DEMO-2
          refused by: DEMO-1: each hex of a path must be adjacent to the one before (step 1: 0102 to 0104)
  ERROR a setup unit on a side the scenario lacks
        tests/fixtures/lua_failing/failing_test.lua:17: t.setup: units: unit 'x': unknown side 'purple' (sides: blue, red)
  ERROR a script error
        tests/fixtures/lua_failing/failing_test.lua:22: attempt to index a nil value (local 'nothing')
  ERROR a misspelt unit key
        tests/fixtures/lua_failing/failing_test.lua:27: t.setup: units: unit #1: unknown key 'strenght' (did you mean 'strength'?); a unit takes id, side, nation, type, size, ma, strength, at, facing, status, attrs
  ERROR a misspelt option
        tests/fixtures/lua_failing/failing_test.lua:31: t.scenario: unknown option 'sed' (the options are seed, setup and mods)
  FAIL  floats shown in full
        tests/fixtures/lua_failing/failing_test.lua:35: values differ
          expected: 0.3
            actual: 0.30000000000000004
  ERROR a misspelt units key
        tests/fixtures/lua_failing/failing_test.lua:40: t.setup: unknown key 'unit' (did you mean 'units'?): units, a list of unit tables, replaces the units in play
  ok    an assertion caught by pcall and printed
    | false	values differ
    |   expected: 2
    |     actual: 1
  ERROR a test out of memory
        memory limit of 256 MiB exceeded (last seen running tests/fixtures/lua_failing/failing_test.lua:52)
  ERROR a reach answer of the wrong shape
        tests/fixtures/lua_failing/failing_test.lua:57: t.reach: the rules' reach query answered 5, not a table of hexes -> cost
  ERROR a misspelt side for the legal list
        tests/fixtures/lua_failing/failing_test.lua:62: t.legal: legal commands of 'bleu': the scenario has no such side (sides: blue, red)
  ERROR a misspelt unit id for a status
        tests/fixtures/lua_failing/failing_test.lua:67: t.has_status: no unit 'b-inf-l' (did you mean 'b-inf-1'?)
  ERROR the legal list of no side in a simultaneous step
        tests/fixtures/lua_failing/failing_test.lua:72: t.legal: no side is to play now (a simultaneous step, or the game is over): name the side
  ERROR dice set and not rolled
        tests/fixtures/lua_failing/failing_test.lua:87: t.ok: t.dice: the command rolled 1 of the 2 values set (not rolled: 5)
  ERROR a die set past its faces
        tests/fixtures/lua_failing/failing_test.lua:93: t.ok: rules error: command 'attack' (rules/demo/combat.lua:9): rules/demo/combat.lua:23: hex.dice.roll: the test set 7 (t.dice) for a roll of a 6-sided die
  ERROR dice that are no list of faces
        tests/fixtures/lua_failing/failing_test.lua:97: t.dice: value #2 is 0, not a die's face (a whole number from 1)
  ok    a helper module shared by the test files
  ERROR a helper module misspelt
        tests/fixtures/lua_failing/failing_test.lua:107: require(\"positons\"): no module 'positons' beside the test file (looked for tests/fixtures/lua_failing/positons.lua): did you mean 'positions'?
  ERROR a helper module named by a path
        tests/fixtures/lua_failing/failing_test.lua:111: require(\"../lua_require/helpers\"): a test's helper module is a dotted name inside the test file's folder (\"helpers\" is helpers.lua there); paths, '..' and '/' are not allowed
  ERROR dice set and no command after them
        tests/fixtures/lua_failing/failing_test.lua: t.dice: values set at the end of the test were never rolled (4): they are for the command that follows t.dice
  FAIL  a refused command with dice set shows its refusal
        tests/fixtures/lua_failing/failing_test.lua:122: expected {command = \"attack\", target = \"r-inf-1\", unit = \"b-inf-1\"} to be accepted
          refused: DEMO-5: attacks happen in the combat phase
  ERROR dice set before another game starts
        tests/fixtures/lua_failing/failing_test.lua:128: t.dice: the values set (2, 5) are for a command of this game, given before t.scenario starts another
  ERROR a test file required as a helper
        tests/fixtures/lua_failing/failing_test.lua:132: require(\"failing_test\"): a test file is no helper module (it runs on its own); name the helper otherwise
  ERROR a helper that requires itself
        tests/fixtures/lua_failing/circular.lua:2: require(\"circular\"): circular require
  ok    a helper whose value is any string is loaded once, not taken for a circular require
  ERROR a test printing control characters cannot rewrite the report
        tests/fixtures/lua_failing/failing_test.lua:146: broken\\x1b[31m red
    | erase\\x1b[2K\\x0dok    a fake pass
  ERROR a helper module named by no string
        tests/fixtures/lua_failing/failing_test.lua:150: require: no module name given (a string)
  ERROR a helper module named by a table
        tests/fixtures/lua_failing/failing_test.lua:154: require: the module name must be a string, not a table
4 passed, 26 failed
";
    assert_eq!(stdout, expected);
}

/// `--filter TEXT` runs the tests whose name holds it, counts the others, lists only the files
/// it ran tests of; one that no test's name holds is an error (a misspelt filter passed).
#[test]
fn a_filter_runs_the_tests_named_by_it() {
    let (code, stdout, _) = hexwar(&["test", "rules", "--filter", "DEMO-7"]);
    assert_eq!(code, 0, "{stdout}");
    let ran: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        ran[..2],
        [
            "rules/demo/tests/demo_test.lua",
            "  ok    DEMO-7: victory counts objectives and eliminations"
        ]
    );
    assert!(ran[2].starts_with("1 passed, 0 failed, "), "{stdout}");
    assert!(ran[2].ends_with(" filtered out"), "{stdout}");
    let (code, stdout, stderr) = hexwar(&["test", "rules", "--filter", "DEMO-77"]);
    assert_eq!(code, 2);
    assert!(stdout.starts_with("0 passed, 0 failed, "), "{stdout}");
    assert_eq!(stderr, "error: --filter DEMO-77: no test's name holds it\n");
}

#[test]
fn no_test_files_is_bad_input() {
    let (code, _, stderr) = hexwar(&["test", "scenarios/demo"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no test files"), "{stderr}");
}

#[test]
fn json_output_lists_each_test() {
    let (code, stdout, _) = hexwar(&["test", "tests/fixtures/lua_failing", "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["passed"], 4);
    assert_eq!(v["failed"], 26);
    assert_eq!(v["files"][0]["tests"][0]["name"], "passes");
    // (an assertion that did not hold, apart from a test that stopped on an error)
    let errors: Vec<&serde_json::Value> = v["files"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["error"])
        .collect();
    let (f, e) = (&serde_json::json!(false), &serde_json::json!(true));
    assert_eq!(
        errors,
        [
            f, f, f, e, e, e, e, f, e, f, e, e, e, e, e, e, e, e, f, e, e, e, f, e, e, e, f, e, e,
            e
        ]
    );
    // (JSON carries a test's text as it was, control characters in JSON's own escapes: only
    // the text report, read on a terminal, writes them as `\x1b`)
    let control = &v["files"][0]["tests"][27];
    assert_eq!(
        control["name"],
        "a test printing control characters cannot rewrite the report"
    );
    assert_eq!(
        control["output"],
        serde_json::json!(["erase\u{1b}[2K\rok    a fake pass"])
    );
    assert_eq!(v["files"][0]["tests"][1]["line"], 7);
    assert!(v["files"][0]["tests"][1]["failure"]
        .as_str()
        .unwrap()
        .starts_with("tests/fixtures/lua_failing/failing_test.lua:7: the table"));
}

/// `print` in a test file goes under the test that printed (text), or into that test's
/// `output` (`--json`, which stays one JSON document); what the file prints as it loads goes
/// under the file's name.
#[test]
fn print_output_stays_with_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("print_test.lua");
    std::fs::write(
        &file,
        "local t = ...\nprint(\"loading\")\n\
         test(\"a\", function(t) print(\"in a\", 1) end)\n\
         test(\"b\", function(t) t.eq(1, 1) end)\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (code, stdout, stderr) = hexwar(&["test", path]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!("{path}\n    | loading\n  ok    a\n    | in a\t1\n  ok    b\n2 passed, 0 failed\n")
    );
    let (code, stdout, stderr) = hexwar(&["test", path, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["files"][0]["output"], serde_json::json!(["loading"]));
    assert_eq!(
        report["files"][0]["tests"][0]["output"],
        serde_json::json!(["in a\t1"])
    );
    assert_eq!(
        report["files"][0]["tests"][1]["output"],
        serde_json::json!([])
    );
}

/// A file whose tests register more tests as they run stops at 10 000 tests, as a file error
/// (each test has a fresh budget, so it would never end otherwise).
#[test]
fn a_file_that_keeps_registering_tests_stops() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chain_test.lua");
    std::fs::write(
        &file,
        "local n = 0\nlocal function again(t) n = n + 1 test(\"again \" .. n, again) end\ntest(\"start\", again)\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (code, stdout, _) = hexwar(&["test", path, "--json"]);
    assert_eq!(code, 1);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["passed"], 10_000);
    assert_eq!(
        report["files"][0]["error"],
        format!("{path}: more than 10000 tests (does a test register tests?)")
    );
}

/// A test names its scenario as from the project's folder (`scenarios/demo`); run from any
/// other working directory, the path is found from the test file's folder upwards, and a path
/// found nowhere is named with where it was looked for.
#[test]
fn tests_find_their_scenario_from_any_working_directory() {
    let root = env!("CARGO_MANIFEST_DIR");
    let elsewhere = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["test", &format!("{root}/rules/demo")])
        .current_dir(elsewhere.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    std::fs::write(
        elsewhere.path().join("lost_test.lua"),
        "test(\"lost\", function(t) t.scenario(\"scenarios/nowhere\") end)\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["test", "."])
        .current_dir(elsewhere.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let looked = std::fs::canonicalize(elsewhere.path()).unwrap();
    assert!(
        stdout.contains(&format!(
            "lost_test.lua:1: t.scenario: 'scenarios/nowhere' is neither in the working directory \
             nor in {} or a folder above it",
            looked.display()
        )),
        "{stdout}"
    );
    // A relative PATH, from inside the rules folder and from the tests' own folder (the folders
    // above a relative path were not searched).
    for (dir, path) in [
        ("rules/demo", "tests"),
        ("rules/demo/tests", "demo_test.lua"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args(["test", path])
            .current_dir(format!("{root}/{dir}"))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{dir} {path}: {stdout}");
    }
}

/// A test reads scenarios, setups and mods only inside the working directory and its own
/// project (the folder above it holding `scenarios`): `t.scenario` of any other file read it
/// and quoted its content back in the parse error (`TOML: invalid type: string "SECRET"`).
#[test]
fn a_test_reads_no_file_outside_its_project_and_the_working_directory() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("creds.toml"), "turns = \"SECRET-42\"\n").unwrap();
    let project = tempfile::tempdir().unwrap();
    let creds = outside.path().join("creds.toml");
    std::fs::write(
        project.path().join("leak_test.lua"),
        format!(
            "test(\"leak\", function(t) t.scenario({:?}) end)\n",
            creds.display().to_string()
        ),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["test", "."])
        .current_dir(project.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(!stdout.contains("SECRET"), "{stdout}");
    let project_dir = std::fs::canonicalize(project.path()).unwrap();
    assert!(
        stdout.contains(&format!(
            "t.scenario: '{}' is outside the working directory and the test's project ({}): a \
             test reads scenarios, setups and mods only there",
            creds.display(),
            project_dir.display()
        )),
        "{stdout}"
    );
}

/// A loop in a test file's own code is stopped by the test VM's fixed budget, and the message
/// says so: it told the designer to raise the scenario's `[limits] instructions`, which no
/// test file's own code runs under.
#[test]
fn a_loop_in_a_test_file_names_the_tests_own_budget() {
    let (code, stdout, _) = hexwar(&["test", "tests/fixtures/lua_loop"]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "tests/fixtures/lua_loop/loop_test.lua\n  ERROR a loop in the test itself\n        \
         tests/fixtures/lua_loop/loop_test.lua:3: instruction budget of 500000000 instructions \
         exceeded (an endless loop?): the budget of a test file's own code, for each test\n0 \
         passed, 1 failed\n"
    );
}

/// `t.scenario` loads mods as `hexwar run --mod` does, so a variant written as a mod is tested
/// on its base scenario (the options were seed and setup only).
#[test]
fn a_test_loads_mods_with_its_scenario() {
    let (code, stdout, stderr) = hexwar(&["test", "tests/fixtures/lua_mods"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout,
        "tests/fixtures/lua_mods/mods_test.lua\n  ok    a mod is loaded with the scenario\n  \
         ok    without it the query is not there\n  ok    mods is a list of paths\n  ok    an \
         empty list of mods is no mods\n4 passed, 0 failed\n"
    );
}

/// A wrong argument names the function as the script called it: a test API function by its
/// `t.` name at the test's line (mlua's message named neither: `bad argument #1: error
/// converting Lua function to String`), an API function of the rules with its namespace
/// (`hex.map.distance`, not `distance`); an error in `t.end_phase` is named so (was `t.ok`);
/// an error value named by `__name` at the test's line, without its address (was `Bar:
/// 0x59a5cad8640`, no place).
#[test]
fn a_wrong_argument_names_the_function_as_the_script_called_it() {
    let (code, stdout, _) = hexwar(&["test", "tests/fixtures/lua_error_names"]);
    assert_eq!(code, 1);
    let file = "tests/fixtures/lua_error_names/bad_argument_test.lua";
    let other = "tests/fixtures/lua_error_names/error_value_test.lua";
    assert_eq!(
        stdout,
        format!(
            "{file}\n  ERROR a function where t.query takes a name\n        {file}:5: bad argument \
             #1 to 't.query' (string expected, got function)\n  ERROR a table where \
             hex.map.distance takes a label\n        {file}:10: t.query: query 'far' \
             (lua_error_names/distance.lua:2): lua_error_names/distance.lua:2: bad argument #2 \
             to 'hex.map.distance' (string expected, got table)\n  ERROR an end_phase the rules \
             fail in\n        {file}:15: t.end_phase: rules error: handler for PhaseEnded \
             (lua_error_names/phase_fails.lua:2): lua_error_names/phase_fails.lua:2: no end \
             today\n{other}\n  ERROR an error value named by its metatable\n        \
             {other}:3: Bar\n0 passed, 4 failed\n"
        )
    );
}

/// Tables that contain themselves are shown with `<cycle>` and compared without end (the test
/// API overflowed the stack inside its own file: `hexwar test API:57: stack overflow`); cycles
/// of one shape are equal; the first difference skips the cycle; `t.fail` takes a table.
#[test]
fn tables_that_contain_themselves_are_compared_and_shown() {
    let (code, stdout, _) = hexwar(&["test", "tests/fixtures/lua_cycles"]);
    assert_eq!(code, 1);
    let file = "tests/fixtures/lua_cycles/cycles_test.lua";
    assert_eq!(
        stdout,
        format!(
            "{file}\n  FAIL  cyclic eq\n        {file}:6: values differ\n          expected: {{self \
             = <cycle>, v = 2}}\n            actual: {{self = <cycle>, v = 1}}\n          first \
             difference at .v: expected 2, actual 1\n  ok    cyclic same shape\n  FAIL  cycle \
             along the key\n        {file}:16: values differ\n          expected: {{a = <cycle>, \
             z = 2}}\n            actual: {{a = <cycle>, z = 1}}\n          first difference at \
             .z: expected 2, actual 1\n  FAIL  fail with a table\n        {file}:18: {{reason = \
             \"x\"}}\n1 passed, 3 failed\n"
        )
    );
}

/// A helper module a symbolic link takes out of the test file's folder is refused, and said so
/// (the hint offered the link's own name); a long name is clipped in the message.
#[cfg(unix)]
#[test]
fn a_helper_module_outside_the_folder_is_refused_and_said_so() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.lua"), "return 42\n").unwrap();
    let project = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.lua"),
        project.path().join("link.lua"),
    )
    .unwrap();
    let long = "x".repeat(5000);
    std::fs::write(
        project.path().join("link_test.lua"),
        format!(
            "test(\"link\", function(t) require(\"link\") end)\n\
             test(\"long\", function(t) require(\"{long}\") end)\n"
        ),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["test", "link_test.lua"])
        .current_dir(project.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "link_test.lua:1: require(\"link\"): no module 'link' beside the test file (looked \
             for ./link.lua) (it leads out of the test file's folder: a symbolic link?)"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("42"), "{stdout}");
    let long_line = stdout
        .lines()
        .find(|l| l.contains("link_test.lua:2:"))
        .unwrap_or_default();
    assert!(long_line.len() < 1000, "{long_line}");
}

/// `--json` with `--filter`: the tests the filter names run and are counted (the others
/// counted as filtered out), with the exit code of their results; a filter no test's name
/// holds is an error on stderr, with nothing on stdout (as the text report refuses it).
#[test]
fn json_with_a_filter_counts_the_tests_it_names_and_refuses_one_naming_none() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two_test.lua");
    std::fs::write(
        &file,
        "test(\"alpha holds\", function(t) t.eq(1, 1) end)\n\
         test(\"beta fails\", function(t) t.eq(1, 2) end)\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (code, stdout, stderr) = hexwar(&["test", path, "--json", "--filter", "alpha"]);
    assert_eq!((code, stderr.as_str()), (0, ""), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        [
            &report["passed"],
            &report["failed"],
            &report["filtered_out"]
        ],
        [1, 0, 1]
    );
    assert_eq!(report["files"][0]["file"], path);
    assert_eq!(report["files"][0]["tests"][0]["name"], "alpha holds");
    assert_eq!(report["files"][0]["tests"].as_array().unwrap().len(), 1);
    let (code, stdout, stderr) = hexwar(&["test", path, "--json", "--filter", "beta"]);
    assert_eq!(code, 1, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        [
            &report["passed"],
            &report["failed"],
            &report["filtered_out"]
        ],
        [0, 1, 1]
    );
    let (code, stdout, stderr) = hexwar(&["test", path, "--json", "--filter", "gamma"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(stderr, "error: --filter gamma: no test's name holds it\n");
}

/// A test file that registers no test passes with nothing counted, as text and as JSON: only
/// a filter that names no test is an error (an empty file was refused as `--filter :`).
#[test]
fn a_test_file_with_no_test_passes_with_nothing_counted() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty_test.lua");
    std::fs::write(&file, "-- no tests yet\n").unwrap();
    let path = file.to_str().unwrap();
    let (code, stdout, stderr) = hexwar(&["test", path]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout, format!("{path}\n0 passed, 0 failed\n"));
    let (code, stdout, stderr) = hexwar(&["test", path, "--json"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        [
            &report["passed"],
            &report["failed"],
            &report["filtered_out"]
        ],
        [0, 0, 0]
    );
}
