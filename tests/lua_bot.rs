//! Bots written in Lua: named by the scenario's [[side]], sandboxed like the rules.

mod common;

use common::{hexwar, stderr, stdout};

#[test]
fn the_demo_greedy_lua_bot_beats_the_random_bot() {
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--games",
        "10",
        "--seed",
        "5",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stats: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let red = stats["sides"]["red"]["wins"].as_u64().unwrap();
    let blue = stats["sides"]["blue"]["wins"].as_u64().unwrap();
    assert!(
        red > blue * 2,
        "red (Lua bot) {red} wins, blue (random) {blue}"
    );
}

#[test]
fn a_bot_answering_nonsense_is_a_clear_error() {
    let out = hexwar(&["run", "tests/fixtures/bad_bot"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: rules error: bot 'ai' for red: returned "),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains(", not an index between 1 and "),
        "{}",
        stderr(&out)
    );
}

/// A bot that answers nothing: the error shows `nil`, as the script wrote it.
#[test]
fn a_bot_answering_nothing_is_named_as_nil() {
    let out = hexwar(&["run", "tests/fixtures/bad_bot/silent.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: rules error: bot 'silent' for red: returned nil; a bot returns the index of a \
         legal command or a command table\n  (play stopped at turn 1, movement (red), seed 0)\n"
    );
}

/// The bad_bot fixture's scenario written into `dir` with red's bot `bot` and `dir` as a rule
/// root beside the project's rules and the fixture's folder.
fn scenario_with_bot(dir: &std::path::Path, bot: &str) {
    let text = std::fs::read_to_string("tests/fixtures/bad_bot/scenario.toml").unwrap();
    let root = std::fs::canonicalize("tests/fixtures/bad_bot").unwrap();
    let text = text
        .replace("bot = \"ai\"", &format!("bot = {bot:?}"))
        .replace(
            "map = \"../../../scenarios/demo/map.toml\"",
            &format!("map = {:?}", root.join("../../../scenarios/demo/map.toml")),
        )
        .replace(
            "rule_roots = [\"../../../rules\", \".\"]",
            &format!(
                "rule_roots = [{:?}, {:?}, {:?}]",
                root.join("../../../rules"),
                root,
                dir
            ),
        );
    std::fs::write(dir.join("scenario.toml"), text).unwrap();
}

/// A folder holding the bad_bot scenario with red's bot `name`, whose module is `source`.
fn with_bot(name: &str, source: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    scenario_with_bot(dir.path(), name);
    std::fs::write(dir.path().join(format!("{name}.lua")), source).unwrap();
    dir
}

/// A bot answering a function or a coroutine is told what a bot returns (it was serde's
/// "deserialize error: unsupported value type `function`").
#[test]
fn a_bot_answering_no_data_is_told_what_a_bot_returns() {
    for (answer, kind) in [
        ("print", "a function"),
        ("coroutine.create(print)", "a thread"),
    ] {
        let dir = with_bot(
            "odd",
            &format!("return function(side, legal, seed) return {answer} end\n"),
        );
        let out = hexwar(&["run", dir.path().to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).starts_with(&format!(
                "error: rules error: bot 'odd' for red: returned {kind}; a bot returns the index \
                 of a legal command or a command table\n"
            )),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn an_unknown_bot_module_is_refused_by_check() {
    let dir = tempfile::tempdir().unwrap();
    scenario_with_bot(dir.path(), "nosuch");
    let out = hexwar(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("side 'red': unknown bot module 'nosuch'"),
        "{}",
        stderr(&out)
    );
}

/// A Lua bot facing an empty legal list (nothing legal, not even ending the phase) ends the
/// phase, as the random bot does: no index could be right, so its answer is not an error.
#[test]
fn a_lua_bot_with_nothing_legal_ends_the_phase() {
    let out = hexwar(&["run", "tests/fixtures/bad_bot/stuck.toml", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(summary["commands"], 4, "{summary}");
    assert_eq!(summary["turn"], 1, "{summary}");
    assert_eq!(summary["finished"], true, "{summary}");
}

/// A bot module outside the rules' folders plays the game too: saves, replays and batch records
/// hash it with the rules, so a save resumed under an edited bot says so, and two versions of
/// a bot give two batch fingerprints (shards of both are not merged as one).
#[test]
fn a_bot_module_outside_the_rules_is_hashed_with_them() {
    let dir = tempfile::tempdir().unwrap();
    scenario_with_bot(dir.path(), "mine");
    let bot = dir.path().join("mine.lua");
    std::fs::write(&bot, "return function(side, legal, seed) return 1 end\n").unwrap();
    let session = hexwar::Session::start(dir.path(), Some(1)).unwrap();
    let loaded = session.game.rules().loaded_files();
    assert!(loaded.iter().any(|f| f.ends_with("mine.lua")), "{loaded:?}");
    let before = hexwar::batch::rules_fingerprint(&session.scenario, &loaded);
    let save_path = dir.path().join("game.json");
    session.to_save().write(&save_path).unwrap();
    let text = std::fs::read_to_string(&save_path).unwrap();
    assert!(text.contains("mine.lua\": \"sha256:"), "{text}");

    std::fs::write(
        &bot,
        "return function(side, legal, seed) return #legal end\n",
    )
    .unwrap();
    let resumed = hexwar::Session::resume(&save_path).unwrap();
    let what = resumed.rules_changed.expect("the edited bot is seen");
    assert!(what.ends_with("mine.lua changed"), "{what}");
    let after = hexwar::Session::start(dir.path(), Some(1)).unwrap();
    let loaded = after.game.rules().loaded_files();
    assert_ne!(
        hexwar::batch::rules_fingerprint(&after.scenario, &loaded),
        before
    );
}

/// A bot whose commands the rules refuse is said to be refused: each refusal ends its side's
/// phase, so without a word such a bot looked only like a weak one. One warning per side,
/// with the count and the first refusal; the run still plays to its end (exit 0).
#[test]
fn a_bot_refused_by_the_rules_is_named_on_stderr() {
    let dir = with_bot("refused", "return function(side, legal) return { command = \"move\", unit = \"nobody\", path = { \"0103\" } } end\n");
    let out = hexwar(&["run", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "warning: red's bot gave 2 command(s) the rules refused, each ending its phase; the \
         first, at turn 1, movement (red): DEMO-1 no unit nobody (--log lists them all)\n"
    );
}

/// A batch says so too (it said nothing, and its statistics looked like a weak bot's): one
/// warning with the count, the games, and how to play the first alone with its log; the
/// per-game records carry each game's count.
#[test]
fn a_batch_whose_bots_were_refused_says_so() {
    let dir = with_bot("refused", "return function(side, legal) return { command = \"move\", unit = \"nobody\", path = { \"0103\" } } end\n");
    let records = dir.path().join("games.jsonl");
    let out = hexwar(&[
        "run",
        dir.path().to_str().unwrap(),
        "--games",
        "3",
        "--quiet",
        "--per-game",
        records.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "warning: the bots gave 6 command(s) the rules refused, in 3 of 3 games, each ending \
             its phase; the first in game 0 (to see them: hexwar run {} --seed 0 --seed-range \
             0..1 --log FILE)\n",
            dir.path().display()
        )
    );
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.matches("\"refused\":2").count(), 3, "{text}");
}

/// A bot's command with an argument its command does not take is the bot's mistake, an error
/// naming the bot (exit 2), as a malformed `move` already was: it used to be refused, which
/// silently ended the side's phase.
#[test]
fn a_bot_command_with_an_unknown_argument_is_the_bots_error() {
    let dir = with_bot("typo", "return function(side, legal) return { command = \"attack\", unit = \"r-inf-1\", traget = \"0101\" } end\n");
    let out = hexwar(&["run", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "error: rules error: bot 'typo' for red: returned attack: unknown argument 'traget' (it \
         takes target, unit)\n  (play stopped at turn 1, movement (red), seed 0)\n"
    );
}

/// A bot whose loop runs out of budget inside a rules function (here the legal listing) is
/// named by the frames that led there: the rules' line where the budget ran out, then the bot's
/// lines (the message used to name the rules' file alone).
#[test]
fn a_bots_loop_out_of_budget_names_the_bots_lines() {
    let dir = with_bot("looping", "local function deep()\n  local n = 0\n  for i = 1, #hex.commands.legal(\"red\") do n = n + i end\n  return n\nend\nreturn function(side, legal)\n  while true do deep() end\nend\n");
    // (the wall-clock backstop as long as a scenario may set: on a loaded machine the debug
    // build's 20 M instructions took past the default 10 s, and the clock spoke first)
    let scenario = dir.path().join("scenario.toml");
    let text = std::fs::read_to_string(&scenario).unwrap();
    std::fs::write(&scenario, format!("{text}\n[limits]\nseconds = 600\n")).unwrap();
    let out = hexwar(&["run", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let name = dir.path().file_name().unwrap().to_str().unwrap();
    let text = stderr(&out);
    let trace = text
        .split_once("stack traceback:\n")
        .map(|(_, t)| t)
        .unwrap_or_else(|| panic!("no traceback: {text}"));
    let mut frames: Vec<&str> = trace.lines().take(3).map(str::trim).collect();
    // (the rules' line is in the legal listing, whichever of its lines the budget ran out on:
    // that moves with any change of the instructions counted before it)
    let rules_line = frames.remove(0);
    assert!(
        ["rules/demo/movement.lua:51", "rules/demo/movement.lua:52"].contains(&rules_line),
        "{text}"
    );
    assert_eq!(
        frames,
        [
            format!("{name}/looping.lua:3"),
            format!("{name}/looping.lua:7"),
        ]
    );
    assert!(
        text.contains("instruction budget of 20000000 instructions exceeded (an endless loop?)"),
        "{text}"
    );
}

/// `t.bot` holds a bot's answer to what `run` holds it to: a command with an argument its
/// command does not take fails the test as it stops the game (it used to pass the test).
#[test]
fn t_bot_refuses_an_unknown_argument_as_run_does() {
    let dir = with_bot("typo", "return function(side, legal) return { command = \"attack\", unit = \"r-inf-1\", traget = \"0101\" } end\n");
    std::fs::write(
        dir.path().join("bot_test.lua"),
        "test(\"the bot\", function(t)\n  t.scenario(\"scenario.toml\")\n  t.end_phase(\"blue\")\n  t.end_phase(\"blue\")\n  t.bot(\"red\")\nend)\n",
    )
    .unwrap();
    let out = hexwar(&["test", dir.path().join("bot_test.lua").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(
            "t.bot: bot 'typo' for red: returned attack: unknown argument 'traget' (it takes target, unit)"
        ),
        "{}",
        stdout(&out)
    );
}

/// A bot that tries to ask a query through `hex.rules.query` (which declares one while the
/// rules load) is told what it is for; it met a conversion error before.
#[test]
fn a_bot_asking_a_query_is_told_what_hex_rules_query_does() {
    let dir = with_bot(
        "asking",
        "return function(side, legal) return hex.rules.query(\"reach\", \"r-inf-1\") end\n",
    );
    let out = hexwar(&["run", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "hex.rules.query declares a query while rules modules load; during play the host \
             asks the queries, and a script (a bot) calls the functions that answer them"
        ),
        "{}",
        stderr(&out)
    );
}

/// A run that stops at a bot's error saves the game as it stood: running that save again stops
/// at the same error and writes the same save, byte for byte (the failed decision's roll of the
/// bots' dice was kept, so each try went on from other dice).
#[test]
fn a_run_stopped_by_a_bots_error_saves_what_running_it_again_saves() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let save = save.to_str().unwrap();
    let out = hexwar(&["run", "tests/fixtures/bad_bot/silent.toml", "--save", save]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let first = std::fs::read_to_string(save).unwrap();
    let out = hexwar(&["run", save, "--save", save]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("bot 'silent' for red: returned nil"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(save).unwrap(), first);
}

/// The same when the bot's decision was good but its command met a rules error (a handler
/// failed): the decision is taken back, so each run of the save written after the error stops
/// at the same command and writes the same save, for the random bot and for a Lua bot alike
/// (each run used one more roll of the bots' dice and so failed on another command).
#[test]
fn a_run_stopped_by_a_rules_error_in_a_bots_command_saves_what_running_it_again_saves() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let save = save.to_str().unwrap();
    let again = dir.path().join("again.json");
    let again = again.to_str().unwrap();
    let module = "tests/fixtures/mods/fails_on_reds_second_turn_move.lua";
    for (bots, failed_on) in [
        (&["--bot", "red=random"][..], "\"unit\":\"r-inf-1\""),
        (&[][..], "\"unit\":\"r-arm-1\""),
    ] {
        let mut args = vec![
            "run",
            "scenarios/demo",
            "--seed",
            "7",
            "--mod",
            module,
            "--save",
            save,
        ];
        args.extend_from_slice(bots);
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains(failed_on),
            "{bots:?}: {}",
            stderr(&out)
        );
        let out = hexwar(&["run", save, "--save", again]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains(failed_on),
            "{bots:?}: {}",
            stderr(&out)
        );
        assert_eq!(
            std::fs::read_to_string(again).unwrap(),
            std::fs::read_to_string(save).unwrap(),
            "{bots:?}"
        );
    }
}
