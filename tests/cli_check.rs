//! `hexwar check`: exit 0 on the demo; exit 2 naming file and line for each kind of broken input.
//! The exact message for each broken map, scenario and rules module is a golden file in
//! `tests/errors/` (tests/error_messages.rs); these tests cover what those cannot: every error
//! listed at once, files not yet required, a module inside a copy of the demo.

mod common;

use common::{demo_copy, edit, hexwar, stderr, stdout};

#[test]
fn check_accepts_the_demo() {
    let out = hexwar(&["check", "scenarios/demo"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("ok: scenarios/demo\n{DEMO_SUMMARY}\n")
    );
}

/// The line `check` prints under `ok` for the demo: what it read (a designer sees the scenario
/// read as meant).
const DEMO_SUMMARY: &str = "  Demo: the river valley: hex map 'Demo valley' 12x10 (120 hexes); sides blue, red; 8 unit(s) in the scenario; 8 turn(s) of 4 step(s); rules lib, demo";

/// On an area map the summary counts regions, centres and powers.
#[test]
fn check_summarises_an_area_map() {
    let out = hexwar(&["check", "scenarios/diplomacy"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "ok: scenarios/diplomacy\n  Diplomacy (standard map): area map 'standard' (76 regions, 34 supply centres, 7 powers); sides AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY; 0 unit(s) in the scenario, 22 start unit(s) in the map (the rules place them); 10 turn(s) of 5 step(s); rules diplomacy\n"
    );
}

#[test]
fn check_names_file_and_line_of_a_lua_syntax_error() {
    let (dir, scenario) = demo_copy();
    edit(
        &dir.path().join("rules/demo/combat.lua"),
        "local roll = hex.dice.roll(6)",
        "local roll = = hex.dice.roll(6)",
    );
    let out = hexwar(&["check", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: syntax error: rules/demo/combat.lua:23: unexpected symbol near '='\n1 error(s) in "),
        "{err}"
    );
}

#[test]
fn check_lists_every_error_found() {
    let (_dir, scenario) = demo_copy();
    edit(
        &scenario.join("scenario.toml"),
        "side = \"red\"\ntype = \"infantry\"",
        "side = \"green\"\ntype = \"infantry\"",
    );
    edit(
        &scenario.join("scenario.toml"),
        "at = \"0204\"",
        "at = \"9999\"",
    );
    let out = hexwar(&["check", "--json", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let errors: Vec<String> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap().to_string())
        .collect();
    let file = scenario.join("scenario.toml").display().to_string();
    assert_eq!(
        errors,
        [
            format!("{file}:36: unit 'b-inf-2': '9999' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)"),
            format!("{file}:56: unit 'r-inf-1': unknown side 'green' (sides: blue, red)"),
        ]
    );
}

#[test]
fn check_finds_syntax_errors_in_files_not_yet_required() {
    let (dir, scenario) = demo_copy();
    std::fs::write(
        dir.path().join("rules/demo/unused.lua"),
        "local x = \nreturn x +\n",
    )
    .unwrap();
    let out = hexwar(&["check", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: syntax error: rules/demo/unused.lua:"),
        "{}",
        stderr(&out)
    );
}

/// A scenario that fails to load (here its map) still has its rules modules checked: the map's
/// error and a module's syntax error come in one list.
#[test]
fn check_lists_rules_syntax_errors_beside_scenario_errors() {
    let (dir, scenario) = demo_copy();
    let map = scenario.join("map.toml");
    let text = std::fs::read_to_string(&map).unwrap();
    let line = text.lines().nth(10).unwrap().to_string();
    let broken = format!("{}x{}", &line[..6], &line[7..]);
    edit(&map, &line, &broken);
    edit(
        &dir.path().join("rules/demo/combat.lua"),
        "local roll = hex.dice.roll(6)",
        "local roll = = hex.dice.roll(6)",
    );
    let out = hexwar(&["check", "--json", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let errors: Vec<&str> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!("{}:11: ", map.display())),
        "{errors:?}"
    );
    assert_eq!(
        errors[1],
        "syntax error: rules/demo/combat.lua:23: unexpected symbol near '='"
    );
}

/// `check` takes a save too (DESIGN.md: every command takes a scenario or a save): the save is
/// read and verified, then the scenario it names is checked.
#[test]
fn check_takes_a_save_and_checks_its_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid.json");
    let save = save.to_str().unwrap();
    let out = hexwar(&["run", "scenarios/demo", "--turns", "1", "--save", save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&["check", save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("ok: {save}\n{DEMO_SUMMARY}\n"));
    // A save sealed again for another scenario's state fails `check` as it fails `run`
    // (check passed it).
    let mut other = hexwar::engine::Save::read(std::path::Path::new(save)).unwrap();
    other.state.scenario = "other".into();
    let other = other.with_sides_done(Vec::new());
    let moved = dir.path().join("other.json");
    other.write(&moved).unwrap();
    let moved = moved.to_str().unwrap();
    let expected = format!(
        "error: {moved}: the save belongs to scenario 'other', but that file now holds scenario \
         'demo'\n"
    );
    let out = hexwar(&["check", moved]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stderr(&out), format!("{expected}1 error(s) in {moved}\n"));
    let out = hexwar(&["status", moved]);
    assert_eq!(stderr(&out), expected);
}

/// `check` of a save refuses `--mod` (the save carries its mods), and names the save as the
/// source of a recorded mod or bot that no longer loads.
#[test]
fn check_of_a_save_refuses_mod_and_names_the_saves_own_choices() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid.json");
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--turns",
        "1",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown = save.display();
    let out = hexwar(&[
        "check",
        save.to_str().unwrap(),
        "--mod",
        "tests/fixtures/lua_mods/rain.lua",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: --mod cannot be used with a save (the save carries its mods, checked with \
             it)\n1 error(s) in {shown}\n"
        )
    );
    let saved = hexwar::engine::Save::read(&save).unwrap();
    let mut bad_bot = saved.clone();
    bad_bot
        .bots
        .insert("blue".into(), "demo.no_such_bot".into());
    let bad_bot_path = dir.path().join("bad_bot.json");
    bad_bot.sealed().write(&bad_bot_path).unwrap();
    let out = hexwar(&["check", bad_bot_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: the save's bot for blue: unknown bot module 'demo.no_such_bot' (looked under \
             scenarios/demo/../../rules; 'random' is the built-in random bot, and a bot in a file \
             of its own is named by its path: bots/mine.lua)\n1 error(s) in {}\n",
            bad_bot_path.display()
        )
    );
    let mut bad_mod = saved;
    bad_mod.mods = vec![dir.path().join("gone.lua")];
    let bad_mod_path = dir.path().join("bad_mod.json");
    bad_mod.sealed().write(&bad_mod_path).unwrap();
    let out = hexwar(&["check", bad_mod_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: the save's {}: mod refused: no such file\n1 error(s) in {}\n",
            dir.path().join("gone.lua").display(),
            bad_mod_path.display()
        )
    );
}

/// The misspelt-event warning names the line that registers the handler, not where its
/// function was written: a handler made by a library function (`lib.clearing_flags{...}`)
/// was blamed on the library's line.
#[test]
fn the_misspelt_event_warning_names_the_registering_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("maker.lua");
    std::fs::write(
        &file,
        "local function maker()\n  return function() return nil end\nend\n\
         hex.events.on(\"PhaseStart\", maker())\n",
    )
    .unwrap();
    let out = hexwar(&["check", "scenarios/demo", "--mod", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let folder = dir.path().file_name().unwrap().to_str().unwrap();
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {folder}/maker.lua:4: a handler listens to 'PhaseStart', which no engine \
             event is called: did you mean 'PhaseStarted'? (a custom event the rules emit may \
             have any name)\n"
        )
    );
}

/// A handler on a name within two letters of an engine event's (`UnitEliminate`) never runs:
/// `check` warns, naming the likely event, and still passes; a custom event's name (far from
/// every engine event's) gets no warning.
#[test]
fn check_warns_of_a_handler_on_a_misspelt_event() {
    let warning = "typo_event/listener.lua:2: a handler listens to 'UnitEliminate', \
                   which no engine event is called: did you mean 'UnitEliminated'? (a custom \
                   event the rules emit may have any name)";
    let out = hexwar(&["check", "tests/fixtures/typo_event"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), format!("warning: {warning}\n"));
    let out = hexwar(&["check", "tests/fixtures/typo_event", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        report,
        serde_json::json!({"ok": true, "errors": [], "warnings": [warning], "summary": report["summary"]})
    );
    // (the line under `ok`, as text prints it)
    let text = stdout(&hexwar(&["check", "tests/fixtures/typo_event"]));
    assert_eq!(
        text,
        format!(
            "ok: tests/fixtures/typo_event\n  {}\n",
            report["summary"].as_str().unwrap()
        )
    );
    let out = hexwar(&["check", "tests/fixtures/broken_start", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        (report["ok"].as_bool(), report["summary"].is_null()),
        (Some(false), true)
    );
    let out = hexwar(&["check", "scenarios/france1940"]);
    assert_eq!(stderr(&out), "");
    // (a designer who runs the game without `check` hears of it too, before play)
    let out = hexwar(&["run", "tests/fixtures/typo_event", "--turns", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), format!("warning: {warning}\n"));
    let out = hexwar(&["run", "scenarios/demo", "--turns", "1"]);
    assert_eq!(stderr(&out), "");
    // (and so does one who runs a batch, once for the batch)
    let out = hexwar(&[
        "run",
        "tests/fixtures/typo_event",
        "--games",
        "3",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), format!("warning: {warning}\n"));
    let out = hexwar(&["run", "scenarios/demo", "--games", "3", "--quiet"]);
    assert_eq!(stderr(&out), "");
}

/// The summary counts the units the scenario lists without a hex (reinforcements, reserve
/// pools) apart.
#[test]
fn check_counts_the_units_off_the_map() {
    let out = hexwar(&["check", "scenarios/france1940"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("; 181 unit(s) in the scenario (60 off the map); "),
        "{}",
        stdout(&out)
    );
}

/// A special turn after the scenario's last is never played: a warning (rules shared by a long
/// and a short scenario may declare one), not an error.
#[test]
fn check_warns_of_a_special_turn_past_the_last() {
    let out = hexwar(&["check", "tests/fixtures/late_special"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warning: tests/fixtures/late_special/scenario.toml: hex.rules.sequence: special turn 3 \
         is never played (turns 1..1)\n"
    );
}

/// A named pipe among a rules folder's `.lua` files is named as no file, not waited on: `check`
/// and `run` used to open it and wait for a writer forever. A device given as a replay stops at
/// the size cap.
#[test]
fn a_pipe_in_the_rules_folder_is_named_not_waited_on() {
    let (dir, scenario) = demo_copy();
    let pipe = dir.path().join("rules/demo/extra.lua");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    let out = hexwar(&["check", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // (named from its rule root's folder, as every Lua file's error names it)
    assert!(
        stderr(&out).contains("error: rules/demo/extra.lua: cannot read: not a regular file\n"),
        "{}",
        stderr(&out)
    );
    let out = hexwar(&["run", scenario.to_str().unwrap(), "--turns", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&["replay", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: /dev/zero: cannot read replay: more than the 268435456 bytes this file may have\n"
    );
}

/// `check` starts the game (the setup run, nothing played): a game that cannot start is an
/// error with the handler's file and line (`run` met it at once, `check` said ok).
#[test]
fn check_reports_a_game_that_cannot_start() {
    let out = hexwar(&["check", "tests/fixtures/broken_start"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(
        stderr(&out),
        "error: the game does not start: rules error: handler for GameStarted \
         (broken_start/broken_start.lua:2): broken_start/broken_start.lua:4: attempt to index a \
         nil value (local 'deployment')\n1 error(s) in tests/fixtures/broken_start\n"
    );
}

/// `check` asks the victory rule once on the start position: one that fails there is a
/// warning (a rule may read what only play sets), where it showed only when a whole game ended.
#[test]
fn check_warns_of_a_victory_rule_that_fails_on_the_start_position() {
    let out = hexwar(&["check", "tests/fixtures/broken_victory"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warning: victory rule (broken_victory/broken_victory.lua:3): \
         broken_victory/broken_victory.lua:5: attempt to index a nil value (local 'tally') \
         (asked on the start position: the rule runs when a game ends)\n"
    );
    assert!(stdout(&out).starts_with("ok: tests/fixtures/broken_victory\n"));
}

/// `check` of a save warns, as `run` does when it resumes it, of a scenario or rules file
/// (a mod's too) changed since the game was saved; it said nothing, and `run` then warned.
#[test]
fn check_of_a_save_warns_of_what_changed_since_it_was_saved() {
    let (dir, scenario) = demo_copy();
    let mod_file = dir.path().join("tweak.lua");
    std::fs::write(&mod_file, "-- a variant that changes nothing yet\n").unwrap();
    let save = dir.path().join("game.json");
    let out = hexwar(&[
        "run",
        scenario.to_str().unwrap(),
        "--turns",
        "1",
        "--mod",
        mod_file.to_str().unwrap(),
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let check = || hexwar(&["check", save.to_str().unwrap()]);
    let out = check();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    std::fs::write(&mod_file, "-- a variant that changes nothing yet, edited\n").unwrap();
    edit(&scenario.join("scenario.toml"), "turns = 8", "turns = 9");
    let out = check();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let save = save.display();
    let scenario_file = scenario.join("scenario.toml");
    let scenario_file = scenario_file.display();
    // (a mod is named by its folder and file, as in the save's record)
    let folder = dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let expected = format!(
        "warning: {save}: the scenario changed since the game was saved ({scenario_file} or its map): the game would go on under the scenario as it is now\n\
         warning: {save}: the rules changed since the game was saved ({folder}/tweak.lua changed): the game would go on under the rules as they are now\n"
    );
    assert_eq!(stderr(&out), expected);
}

/// A rules error quotes the script's own text: its control characters are written as escapes
/// (`\x1b`), as a script's log lines are, so a script cannot colour, erase or move the host's
/// output (`check` and the errors of `run` printed them raw).
#[test]
fn a_rules_error_is_printed_with_its_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let evil = dir.path().join("evil.lua");
    std::fs::write(&evil, "error(\"bad\\27[2K\\7 end\")\n").unwrap();
    let evil = evil.to_str().unwrap();
    for args in [
        vec!["check", "scenarios/demo", "--mod", evil],
        vec!["run", "scenarios/demo", "--mod", evil],
    ] {
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("evil.lua:1: bad\\x1b[2K\\x07 end"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains('\u{1b}') && !err.contains('\u{7}'),
            "{args:?}: {err}"
        );
    }
}

/// A module name far too long to be one (a slip, a generated file) is quoted clipped, with its
/// length: the message was the whole name (megabytes), and looking for the nearest module
/// compared all of it with every module (16 s for 10 million letters).
#[test]
fn an_overlong_module_name_is_quoted_clipped() {
    let (_dir, scenario) = demo_copy();
    let long = "x".repeat(5000);
    edit(
        &scenario.join("scenario.toml"),
        "bot = \"demo.ai\"",
        &format!("bot = \"{long}\""),
    );
    let out = hexwar(&["check", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            ": side 'red': unknown bot module '{}… (5000 bytes)' (looked under ",
            "x".repeat(100)
        )),
        "{err}"
    );
    assert!(err.len() < 1000, "{err}");
}

/// A `unit_class.by_type` entry one letter off a unit type of the scenario (`artilery` for
/// `artillery`) is warned of: those units play as the default class, and `check` said `ok`.
#[test]
fn check_warns_of_a_by_type_entry_that_looks_like_a_misspelt_unit_type() {
    let (dir, scenario) = demo_copy();
    edit(
        &dir.path().join("rules/demo/movement.lua"),
        "  classes = { \"foot\" },",
        "  classes = { \"foot\", \"guns\" },\n  unit_class = { by_type = { artilery = \"guns\" }, default = \"foot\" },",
    );
    let out = hexwar(&["check", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warning: the rules' movement declaration: unit_class.by_type names type 'artilery', \
         which no unit of the scenario has, while its units of type 'artillery' get the \
         default class: a misspelling?\n"
    );
}

/// A step whose phase is a letter off another's (`combt` for red, `combat` for blue) is warned
/// of: red's combat step was played, and the rules, asking for `combat`, refused its attacks.
#[test]
fn check_warns_of_a_phase_name_a_letter_off_another() {
    let (dir, scenario) = demo_copy();
    edit(
        &dir.path().join("rules/demo/init.lua"),
        "{ side = \"red\", phase = \"combat\" }",
        "{ side = \"red\", phase = \"combt\" }",
    );
    let out = hexwar(&["check", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warning: rules/demo/init.lua:19: hex.rules.sequence: phases 'combat' and 'combt' are a \
         letter or two apart: a misspelling? (a step's phase is what the rules ask for)\n"
    );
}

/// TA-R1/R2, TAC-4: in a facing game a unit of a facing kind without `facing` plays as facing
/// 0, and `attrs.facing2` makes a two-base unit only of an edge-facing kind in a tactical game:
/// `check` warns of both (the data alone decide them, and a slip played on silently).
#[test]
fn check_warns_of_a_facing_unit_without_facing_and_a_second_base_no_rule_reads() {
    let (_dir, scenario) = common::scenario_copy("ancients");
    let file = scenario.join("scenario.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    // (the first unit with a facing, the phalanx m-ph-1, loses it; the second, m-ph-2, gets a
    // second base)
    let first = text.find("facing = ").unwrap();
    let line_end = first + text[first..].find('\n').unwrap();
    let mut edited = format!("{}{}", &text[..first], &text[line_end + 1..]);
    let second = edited.find("facing = ").unwrap();
    edited.insert_str(second, "attrs = { facing2 = 3 }\n");
    std::fs::write(&file, edited).unwrap();
    let out = hexwar(&["check", "--json", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let warnings: Vec<&str> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w.as_str())
        .filter(|w| w.contains("facing"))
        .collect();
    assert_eq!(
        warnings,
        [
            "unit 'm-ph-1' (type 'phalanx') has no facing: it plays as facing 0 (give `facing`)",
            "unit 'm-ph-2' (type 'phalanx'): attrs.facing2 is read only for edge-facing units of \
             a tactical game (TAC-4); this one has one facing"
        ]
    );
}

/// Only a special turn the scenario never reaches is warned of: one on the last turn is played
/// (no warning), and turn 0, before the first, is never played.
#[test]
fn check_warns_of_a_special_turn_zero_but_not_of_one_on_the_last_turn() {
    let (dir, scenario) = demo_copy();
    edit(
        &dir.path().join("rules/demo/init.lua"),
        "    { side = \"red\", phase = \"combat\" },\n  },\n}",
        "    { side = \"red\", phase = \"combat\" },\n  },\n  special = {\n    \
         [0] = { { side = \"blue\", phase = \"movement\" } },\n    \
         [8] = { { side = \"blue\", phase = \"movement\" } },\n  },\n}",
    );
    let out = hexwar(&["check", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {}: hex.rules.sequence: special turn 0 is never played (turns 1..8)\n",
            scenario.join("scenario.toml").display()
        )
    );
}

/// A sequence declared where no script line is known (through `pcall`, a C function) has its
/// near phase names warned of at the scenario's file, as the place to start from.
#[test]
fn a_near_phase_name_warning_without_a_declaring_line_names_the_scenario() {
    let (dir, scenario) = demo_copy();
    let init = dir.path().join("rules/demo/init.lua");
    edit(&init, "hex.rules.sequence {", "pcall(hex.rules.sequence, {");
    edit(
        &init,
        "    { side = \"red\", phase = \"combat\" },\n  },\n}",
        "    { side = \"red\", phase = \"combt\" },\n  },\n})",
    );
    let out = hexwar(&["check", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "warning: {}: hex.rules.sequence: phases 'combat' and 'combt' are a letter or two \
             apart: a misspelling? (a step's phase is what the rules ask for)\n",
            scenario.join("scenario.toml").display()
        )
    );
}

/// Rules that declare no sequence of play are an error at the scenario's file, found before
/// the game is started (which would stop on it too, with no file named).
#[test]
fn check_names_the_scenario_when_the_rules_declare_no_sequence() {
    let (dir, scenario) = demo_copy();
    edit(
        &dir.path().join("rules/demo/init.lua"),
        "hex.rules.sequence {",
        "local _not_declared = {",
    );
    let out = hexwar(&["check", scenario.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}: the rules declare no sequence of play (hex.rules.sequence)\n\
             1 error(s) in {}\n",
            scenario.join("scenario.toml").display(),
            scenario.display()
        )
    );
}
