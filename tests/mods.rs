//! Mods (`Session::start_with_mods`): a save records them and a resumed game runs with them; a
//! mod whose name another module already takes is refused instead of silently not loading.

use std::path::{Path, PathBuf};

use hexwar::engine::{Command, Save};
use hexwar::{Session, SessionError};

mod common;

/// Every move raises `ModSawMove`.
const MOD: &str = r#"
hex.events.on("UnitMoved", function(ev)
  return hex.events.emit("ModSawMove", { unit = ev.unit })
end)
"#;

fn write_mod(dir: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(dir).expect("a temporary folder");
    let file = dir.join(name);
    std::fs::write(&file, MOD).expect("the mod is written");
    file
}

/// The demo with one mod (seed `seed`).
fn demo_with(file: &Path, seed: u64) -> Result<Session, SessionError> {
    Session::start_with_mods(
        Path::new("scenarios/demo"),
        Some(seed),
        &[file.to_path_buf()],
    )
}

/// The first legal move of the phasing side, submitted; the names of the events it made.
fn first_move(session: &mut Session) -> Vec<String> {
    let side = session.game.phasing_side().expect("a phasing side");
    let legal = session.game.legal_commands(&side).expect("legal commands");
    let first = legal
        .into_iter()
        .find(|c| matches!(c, Command::Move { .. }))
        .expect("a legal move");
    session
        .game
        .submit(Some(&side), &first)
        .expect("the move is legal")
        .iter()
        .map(|e| e.name().to_string())
        .collect()
}

#[test]
fn a_resumed_save_runs_with_the_mods_the_game_started_with() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = write_mod(dir.path(), "watcher.lua");
    let mut session = demo_with(&file, 7).expect("the demo loads with the mod");
    let save = dir.path().join("game.json");
    session.to_save().write(&save).expect("saved");
    let text = std::fs::read_to_string(&save).expect("the save reads");
    assert!(text.contains("\"mods\""), "{text}");

    let mut resumed = Session::resume(&save).expect("the save resumes");
    assert_eq!(resumed.mods, vec![file]);
    let here = first_move(&mut session);
    assert!(here.contains(&"ModSawMove".to_string()), "{here:?}");
    assert_eq!(first_move(&mut resumed), here);
    assert_eq!(session.game.state(), resumed.game.state());

    // A game without mods writes no `mods` key: its saves are as they were.
    let plain = Session::start(Path::new("scenarios/demo"), Some(7)).expect("the demo loads");
    assert!(!plain.to_save().to_json().contains("\"mods\""));
}

#[test]
fn a_mod_whose_name_is_taken_or_unusable_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let a = write_mod(&dir.path().join("a"), "tweak.lua");
    let b = write_mod(&dir.path().join("b"), "tweak.lua");
    let lib = write_mod(dir.path(), "lib.lua");
    let other_game = write_mod(dir.path(), "diplomacy.lua");
    let dotted = write_mod(dir.path(), "my.mod.lua");
    let text = write_mod(dir.path(), "notes.txt");
    let refused = |mods: &[PathBuf]| -> String {
        match Session::start_with_mods(Path::new("scenarios/demo"), Some(1), mods) {
            Err(e @ SessionError::Mod { .. }) => e.to_string(),
            Err(other) => panic!("expected a mod error, got {other}"),
            Ok(_) => panic!("expected a mod error, the game loaded"),
        }
    };
    assert_eq!(
        refused(&[a.clone(), b.clone()]),
        format!(
            "{}: mod refused: a module named 'tweak' is already loaded: rename the file",
            b.display()
        )
    );
    assert_eq!(
        refused(std::slice::from_ref(&lib)),
        format!(
            "{}: mod refused: a module named 'lib' is already loaded: rename the file",
            lib.display()
        )
    );
    // Not loaded by the demo, but in its rule roots (rules/diplomacy): `require` finds that.
    let message = refused(std::slice::from_ref(&other_game));
    assert!(
        message.starts_with(&format!(
            "{}: mod refused: 'diplomacy' is the name of ",
            other_game.display()
        )) && message
            .ends_with("diplomacy/init.lua, which `require` would find first: rename the file"),
        "{message}"
    );
    assert_eq!(
        refused(std::slice::from_ref(&dotted)),
        format!(
            "{}: mod refused: 'my.mod' cannot be a module name (letters, digits, '_' and '-' \
             only): rename the file",
            dotted.display()
        )
    );
    assert_eq!(
        refused(std::slice::from_ref(&text)),
        format!("{}: mod refused: a mod is a .lua file", text.display())
    );
}

/// A mod file that is not there is named as a mod error, at start and when a save that
/// records it is resumed; a save whose scenario is not there names the save and the scenario.
#[test]
fn a_missing_mod_or_scenario_is_named_with_its_path() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let gone = dir.path().join("gone.lua");
    let message = match demo_with(&gone, 1) {
        Err(e @ SessionError::Mod { .. }) => e.to_string(),
        Err(other) => panic!("expected a mod error, got {other}"),
        Ok(_) => panic!("expected a mod error, the game loaded"),
    };
    // (an absolute path: the hint about relative paths is left out)
    let expected = format!("{}: mod refused: no such file", gone.display());
    assert_eq!(message, expected);

    let file = write_mod(dir.path(), "gone.lua");
    let session = demo_with(&file, 1).expect("the demo loads with the mod");
    let save_path = dir.path().join("game.json");
    session.to_save().write(&save_path).expect("saved");
    std::fs::remove_file(&file).expect("the mod is removed");
    match Session::resume(&save_path) {
        Err(e @ SessionError::Mod { .. }) => assert_eq!(
            e.to_string(),
            format!(
                "{expected}; the save {} records it as given when the game started: resume \
                 from that directory, or correct \"mods\" in the save",
                save_path.display()
            )
        ),
        Err(other) => panic!("expected a mod error, got {other}"),
        Ok(_) => panic!("expected a mod error, the game resumed"),
    }

    let mut save = session.to_save();
    save.scenario_path = PathBuf::from("elsewhere/scenario.toml");
    match Session::resume_save(save, &save_path) {
        Err(e @ SessionError::SaveScenarioMissing { .. }) => assert_eq!(
            e.to_string(),
            format!(
                "{}: the save's scenario elsewhere/scenario.toml is not there (a relative path is \
                 read from the working directory, as it was when the game started: resume from \
                 that directory, or correct \"scenario_path\" in the save)",
                save_path.display()
            )
        ),
        Err(other) => panic!("expected a missing scenario, got {other}"),
        Ok(_) => panic!("expected a missing scenario, the game resumed"),
    }
}

/// A save records the rules files it ran under; a resumed game whose mod (or rules module)
/// changed since says what changed, and goes on under the new text. The CLI warns.
#[test]
fn a_resumed_game_says_which_rules_files_changed_since_the_save() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = write_mod(dir.path(), "watcher.lua");
    let session = demo_with(&file, 1).expect("the demo loads with the mod");
    let save_path = dir.path().join("game.json");
    session.to_save().write(&save_path).expect("saved");
    let text = std::fs::read_to_string(&save_path).expect("the save reads");
    assert!(
        text.contains("\"rules/demo/movement.lua\": \"sha256:"),
        "{text}"
    );

    let same = Session::resume(&save_path).expect("the save resumes");
    assert_eq!(same.rules_changed, None);

    std::fs::write(&file, format!("{MOD}\n-- edited\n")).expect("the mod is edited");
    let changed = Session::resume(&save_path).expect("the save resumes");
    let what = changed.rules_changed.expect("the change is seen");
    assert!(
        what.ends_with("/watcher.lua changed") && !what.contains(','),
        "{what}"
    );

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["run", save_path.to_str().unwrap(), "--turns", "1"])
        .output()
        .expect("hexwar runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "warning: {}: the rules changed since the game was saved ({what}): it goes on under \
             the rules as they are now",
            save_path.display()
        )),
        "{stderr}"
    );
}

/// A rules file a save recorded that the game does not load now (a save written when every
/// file of a module's folder was recorded, its tests and variants too) is not named as a
/// change: the comparison is held to the files the game loads. A file it loads still is.
#[test]
fn a_recorded_file_the_game_does_not_load_is_no_change() {
    let session = Session::start(Path::new("scenarios/demo"), Some(1)).expect("the demo loads");
    let mut save = session.to_save();
    save.rules
        .insert("rules/demo/variants/mud.lua".into(), "sha256:00".into());
    let resumed =
        Session::resume_save(save.clone().sealed(), Path::new("game.json")).expect("resumes");
    assert_eq!(resumed.rules_changed, None);
    save.rules
        .insert("rules/demo/combat.lua".into(), "sha256:00".into());
    let resumed = Session::resume_save(save.sealed(), Path::new("game.json")).expect("resumes");
    assert_eq!(
        resumed.rules_changed.as_deref(),
        Some("rules/demo/combat.lua changed")
    );
}

/// A save records the files of a module's folder the game may load, nested folders included
/// (`adjudicate/`), but not its `tests/` folder: the designers' test helpers and test mods,
/// which no game loads (Diplomacy's save listed `tests/helpers.lua` and `tests/mods/*.lua`).
#[test]
fn a_save_records_no_file_of_a_modules_tests_folder() {
    let session =
        Session::start(Path::new("scenarios/diplomacy"), Some(1)).expect("Diplomacy loads");
    let save = session.to_save();
    let files: Vec<&String> = save.rules.keys().collect();
    assert!(files.iter().all(|f| !f.contains("/tests/")), "{files:?}");
    for wanted in [
        "rules/diplomacy/init.lua",
        "rules/diplomacy/adjudicate/movement.lua",
    ] {
        assert!(files.iter().any(|f| *f == wanted), "{wanted}: {files:?}");
    }
    assert!(
        Path::new("rules/diplomacy/tests/helpers.lua").is_file(),
        "the folder this test is about has a helper"
    );
}

/// A mod added to a save's `mods` list (the save is JSON anyone can edit, and its checksum
/// anyone can compute) loads extra Lua the game never ran: the resumed game says so, as it says
/// a rules file changed. It used to resume without a word.
#[test]
fn a_mod_added_to_a_save_is_named_as_new_rules() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = write_mod(dir.path(), "extra.lua");
    let session = Session::start(Path::new("scenarios/demo"), Some(1)).expect("the demo loads");
    let mut save = session.to_save();
    assert_eq!(
        Session::resume_save(save.clone(), Path::new("game.json"))
            .expect("resumes")
            .rules_changed,
        None
    );
    save.mods.push(file.clone());
    let resumed = Session::resume_save(save, Path::new("game.json")).expect("resumes");
    let what = resumed.rules_changed.expect("the extra mod is seen");
    let folder = dir
        .path()
        .canonicalize()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(what, format!("{folder}/extra.lua is new"));
}

/// What a mod prints reaches the host through `Game::take_script_log`, drained at each call.
#[test]
fn a_mods_prints_reach_the_host() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(dir.path()).expect("folder");
    let file = dir.path().join("chatty.lua");
    std::fs::write(
        &file,
        "hex.events.on(\"UnitMoved\", function(ev) print(\"moved\", ev.unit, ev.to) end)\n",
    )
    .expect("written");
    let mut session =
        Session::start_with_mods(Path::new("scenarios/demo"), Some(7), &[file]).expect("loads");
    let _ = session.game.take_script_log();
    let side = session.game.phasing_side().expect("a side");
    let first = session
        .game
        .legal_commands(&side)
        .expect("legal")
        .into_iter()
        .find(|c| matches!(c, Command::Move { .. }))
        .expect("a move");
    let Command::Move { unit, path } = &first else {
        unreachable!()
    };
    let to = path.last().expect("a path").clone();
    session.game.submit(Some(&side), &first).expect("moves");
    assert_eq!(
        session.game.take_script_log(),
        vec![format!("moved\t{unit}\t{to}")]
    );
    assert!(session.game.take_script_log().is_empty());
}

/// What a mod prints before its load error is not lost with the VM: the error carries it, and
/// the CLI shows it as `script:` lines before the error (`check` and `run` alike).
#[test]
fn a_mods_prints_before_its_load_error_are_shown() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("broken.lua");
    std::fs::write(
        &file,
        "print(\"reached\", 1)\nhex.log(\"two\\nlines\")\nerror(\"boom\")\n",
    )
    .expect("written");
    let Err(SessionError::Rules(e)) = demo_with(&file, 1) else {
        panic!("the mod's error stops the loading");
    };
    assert_eq!(
        e.printed,
        vec!["reached\t1".to_string(), "two\nlines".to_string()]
    );
    assert!(e.to_string().ends_with(": boom"), "{e}");
    let file = file.to_str().expect("a UTF-8 path");
    for command in ["check", "run"] {
        let out = common::hexwar(&[command, "scenarios/demo", "--mod", file]);
        let err = common::stderr(&out);
        assert!(
            err.starts_with(
                "script: reached\t1\nscript: two\nscript: lines\nerror: loading rules module 'broken': "
            ),
            "{command}: {err}"
        );
    }
    // (a batch's game shows the error as one text: the lines after it)
    let out = common::hexwar(&["run", "scenarios/demo", "--games", "2", "--mod", file]);
    let err = common::stderr(&out);
    assert!(
        err.starts_with("error: loading rules module 'broken': ")
            && err.ends_with(": boom\nscript: reached\t1\nscript: two\nscript: lines\n"),
        "{err}"
    );
}

/// The log keeps 10 000 lines between reads; what a script prints past them is counted and said
/// in a last line, not dropped without a sign.
#[test]
fn a_log_past_its_lines_says_how_many_were_dropped() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("loud.lua");
    std::fs::write(&file, "for i = 1, 10003 do print(i) end\n").expect("written");
    let mut session =
        Session::start_with_mods(Path::new("scenarios/demo"), Some(7), &[file]).expect("loads");
    let log = session.game.take_script_log();
    assert_eq!(log.len(), 10_001);
    assert_eq!(log[9_999], "10000");
    assert_eq!(
        log[10_000],
        "... 3 more line(s) dropped: the log keeps 10000 between reads"
    );
    assert!(session.game.take_script_log().is_empty());
}

/// A host function given an argument of the wrong type names itself and the types, as Lua's own
/// library does (mlua's message named neither: `bad argument #2: error converting Lua function
/// to table`).
#[test]
fn a_wrong_argument_to_the_api_names_the_function_and_the_types() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cases = [
        (
            "define_fn.lua",
            "hex.commands.define(\"attack2\", function() end)\n",
            "bad argument #2 to 'hex.commands.define' (table expected, got function)",
        ),
        (
            "on_swapped.lua",
            "hex.events.on(function() end, \"UnitMoved\")\n",
            "bad argument #1 to 'hex.events.on' (string expected, got function)",
        ),
    ];
    for (name, text, expected) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, text).expect("the mod is written");
        let message = match demo_with(&file, 1) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{name}: expected an error"),
        };
        let module = name.trim_end_matches(".lua");
        assert!(
            message.starts_with(&format!("loading rules module '{module}': "))
                && message.ends_with(&format!("/{name}:1: {expected}")),
            "{message}"
        );
    }
}

/// A mod that loops or allocates while it loads is told apart from a broken one by the load
/// error's `kind`, as a `RulesError` is during play.
#[test]
fn a_load_error_says_which_limit_stopped_the_module() {
    use hexwar::engine::RulesErrorKind;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cases = [
        (
            "spins.lua",
            "while true do end\n",
            RulesErrorKind::InstructionBudget,
        ),
        ("typo.lua", "local x = = 1\n", RulesErrorKind::Script),
        ("fails.lua", "error('no')\n", RulesErrorKind::Script),
    ];
    for (name, text, kind) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, text).expect("the mod is written");
        match demo_with(&file, 1) {
            Err(SessionError::Rules(e)) => assert_eq!(e.kind, kind, "{name}: {e}"),
            Err(other) => panic!("{name}: expected a rules load error, got {other}"),
            Ok(_) => panic!("{name}: expected an error"),
        }
    }
}

/// A save records its scenario's hash (the content of the scenario file and its map); a resumed
/// game whose scenario changed since (here its number of turns) says so and goes on under the
/// new one; a comment or spacing is no change.
/// The CLI warns. A changed `id` is still refused (another scenario).
#[test]
fn a_resumed_game_says_that_its_scenario_changed_since_the_save() {
    let (dir, scenario) = common::demo_copy();
    let toml = scenario.join("scenario.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let session = Session::start(&scenario, Some(1)).expect("the copy loads");
    let save_path = dir.path().join("game.json");
    session.to_save().write(&save_path).expect("saved");
    assert!(
        !Session::resume(&save_path)
            .expect("resumes")
            .scenario_changed
    );

    // (a comment, spacing and key order are no change: the hash is of the content)
    let reworded = format!(
        "# reworded\n{}",
        text.replace("turns = 8", "turns   =   8 # eight")
    );
    std::fs::write(&toml, &reworded).unwrap();
    assert!(
        !Session::resume(&save_path)
            .expect("resumes")
            .scenario_changed
    );
    // (a save from before session 29 recorded the text's hash: accepted while the text is the same)
    std::fs::write(&toml, &text).unwrap();
    let text_hash = Session::start(&scenario, Some(1))
        .unwrap()
        .scenario
        .fingerprint
        .text_hash()
        .to_string();
    let mut old_save = Save::read(&save_path).unwrap();
    assert_ne!(old_save.scenario_hash.as_ref(), Some(&text_hash));
    old_save.scenario_hash = Some(text_hash);
    let old_path = dir.path().join("old.json");
    old_save.write(&old_path).unwrap();
    assert!(
        !Session::resume(&old_path)
            .expect("resumes")
            .scenario_changed
    );
    std::fs::write(&toml, &reworded).unwrap();
    assert!(
        Session::resume(&old_path)
            .expect("resumes")
            .scenario_changed
    );

    std::fs::write(&toml, text.replace("turns = 8", "turns = 3")).unwrap();
    assert!(
        Session::resume(&save_path)
            .expect("resumes")
            .scenario_changed
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["status", save_path.to_str().unwrap()])
        .output()
        .expect("hexwar runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "warning: {}: the scenario changed since the game was saved ({} or its map): it goes \
             on under the scenario as it is now\n",
            save_path.display(),
            toml.display()
        )
    );
}

/// A host that adjusts the scenario before starting it (lower limits for a stranger's mod)
/// adds the mod with `Scenario::add_mod`: the mod runs, the save names it, and the resumed game
/// loads it again. `load_scenario(path)?` converts into `SessionError`. The host's own data in
/// a save (`Save::host`) is kept by a resumed session and written again by its `to_save`.
#[test]
fn a_mod_added_to_an_adjusted_scenario_is_saved_and_resumed_with_the_hosts_data() {
    fn start(file: &Path) -> Result<Session, SessionError> {
        let mut scenario = hexwar::scenario::load_scenario(Path::new("scenarios/demo"))?;
        scenario
            .add_mod(file)
            .map_err(|message| SessionError::Mod {
                path: file.into(),
                message,
            })?;
        scenario.limits.memory_bytes = 16 << 20;
        Session::start_scenario(scenario, Some(7))
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = write_mod(dir.path(), "stranger.lua");
    let mut session = start(&file).expect("the demo starts with the mod");
    assert_eq!(session.mods, vec![file.clone()]);
    let save = dir.path().join("game.json");
    let done = serde_json::json!({"done": ["blue"]});
    session
        .to_save()
        .with_host(done.clone())
        .write(&save)
        .expect("saved");
    let mut resumed = Session::resume(&save).expect("the save resumes");
    assert_eq!(resumed.mods, vec![file]);
    assert_eq!(resumed.rules_changed, None);
    let here = first_move(&mut session);
    assert!(here.contains(&"ModSawMove".to_string()), "{here:?}");
    assert_eq!(first_move(&mut resumed), here);
    assert_eq!(resumed.host, Some(done.clone()));
    assert_eq!(resumed.to_save().host, Some(done));
    // A mod the scenario cannot take is refused with why.
    let mut scenario = hexwar::scenario::load_scenario(Path::new("scenarios/demo")).unwrap();
    assert_eq!(
        scenario.add_mod(&dir.path().join("game.json")).unwrap_err(),
        "a mod is a .lua file"
    );
}
