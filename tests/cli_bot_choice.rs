//! `hexwar run --bot SIDE=MODULE`: a side played by another bot than the scenario names, without
//! editing the scenario (a bot author trying a bot, a batch pitting two bots); a save keeps the
//! choice.

mod common;

use common::{demo_copy, edit, hexwar, stderr, stdout};

fn ok(out: &std::process::Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    stdout(out)
}

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// A batch of `games` demo games on one worker, `extra` arguments, records to `per_game`,
/// which must succeed: its stdout.
fn demo_batch(games: &str, extra: &[&str], per_game: &std::path::Path) -> String {
    let mut args = vec![
        "run",
        "scenarios/demo",
        "--games",
        games,
        "--jobs",
        "1",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    args.extend(["--per-game", per_game.to_str().unwrap()]);
    ok(&hexwar(&args))
}

/// `hexwar run SCENARIO --seed SEED EXTRA... --log LOG`, which must succeed: its stdout.
fn run_logged(scenario: &str, seed: &str, extra: &[&str], log: &std::path::Path) -> String {
    let mut args = vec!["run", scenario, "--seed", seed];
    args.extend_from_slice(extra);
    args.extend(["--log", log.to_str().unwrap()]);
    ok(&hexwar(&args))
}

/// The game `--bot blue=demo.ai` plays is the game of the scenario naming that bot for blue:
/// the same event log, byte for byte.
#[test]
fn a_chosen_bot_plays_the_game_the_scenario_naming_it_plays() {
    let (dir, copy) = demo_copy();
    edit(
        &copy.join("scenario.toml"),
        "name = \"blue\"\n",
        "name = \"blue\"\nbot = \"demo.ai\"\n",
    );
    let chosen = dir.path().join("chosen.jsonl");
    let named = dir.path().join("named.jsonl");
    let text = run_logged(
        "scenarios/demo",
        "3",
        &["--bot", "blue=demo.ai", "--quiet"],
        &chosen,
    );
    assert!(
        text.lines().any(|l| l == "bots chosen: blue demo.ai"),
        "{text}"
    );
    run_logged(copy.to_str().unwrap(), "3", &["--quiet"], &named);
    assert_eq!(read(&chosen), read(&named));
    // ... and not the scenario's own game (blue by the random bot).
    let own = dir.path().join("own.jsonl");
    run_logged("scenarios/demo", "3", &["--quiet"], &own);
    assert_ne!(read(&chosen), read(&own));
}

/// `random` takes a side's Lua bot away: the game of a scenario naming no bot for it.
#[test]
fn random_plays_a_side_with_the_built_in_random_bot() {
    let (dir, copy) = demo_copy();
    edit(&copy.join("scenario.toml"), "bot = \"demo.ai\"\n", "");
    let chosen = dir.path().join("chosen.jsonl");
    let named = dir.path().join("named.jsonl");
    let out = run_logged(
        "scenarios/demo",
        "5",
        &["--bot", "red=random", "--json"],
        &chosen,
    );
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(summary["bots_chosen"], serde_json::json!({"red": "random"}));
    run_logged(copy.to_str().unwrap(), "5", &["--quiet"], &named);
    assert_eq!(read(&chosen), read(&named));
}

/// A save records the chosen bots, so the continued game is the uninterrupted one.
#[test]
fn a_save_keeps_the_chosen_bot_for_the_rest_of_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let path = |name: &str| dir.path().join(name);
    let chosen = ["--bot", "blue=demo.ai", "--quiet"];
    run_logged("scenarios/demo", "3", &chosen, &path("whole.jsonl"));
    let mid = at("mid.json");
    let stop = [
        "--bot",
        "blue=demo.ai",
        "--quiet",
        "--turns",
        "3",
        "--save",
        &mid,
    ];
    run_logged("scenarios/demo", "3", &stop, &path("part1.jsonl"));
    let save: serde_json::Value =
        serde_json::from_str(&read(dir.path().join("mid.json").as_path())).unwrap();
    assert_eq!(save["bots"], serde_json::json!({"blue": "demo.ai"}));
    let resumed = ok(&hexwar(&[
        "run",
        &mid,
        "--quiet",
        "--log",
        &at("part2.jsonl"),
    ]));
    // (the rules the save recorded include the chosen bot: nothing reads as changed)
    assert!(resumed.contains("bots chosen: blue demo.ai"), "{resumed}");
    let joined = read(&dir.path().join("part1.jsonl")) + &read(&dir.path().join("part2.jsonl"));
    assert_eq!(joined, read(&dir.path().join("whole.jsonl")));
    // Another bot chosen on resume is the host's choice, not a change of the saved rules: no
    // warning (a bot whose file only it plays: a_bot_in_a_file_of_its_own_is_named_by_its_path).
    let swapped = hexwar(&["run", &at("mid.json"), "--quiet", "--bot", "blue=random"]);
    assert_eq!(stderr(&swapped), "");
    assert!(
        ok(&swapped).contains("bots chosen: blue random"),
        "{}",
        stdout(&swapped)
    );
}

/// A save whose chosen bot is no longer there is refused, naming the side and the module.
#[test]
fn a_save_whose_chosen_bot_is_gone_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid.json");
    ok(&hexwar(&[
        "run",
        "scenarios/demo",
        "--bot",
        "blue=demo.ai",
        "--turns",
        "1",
        "--save",
        save.to_str().unwrap(),
        "--quiet",
    ]));
    edit(&save, "\"blue\": \"demo.ai\"", "\"blue\": \"demo.gone\"");
    let out = hexwar(&["run", save.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}: the save does not fit scenario 'demo': the bot chosen for blue: unknown bot \
             module 'demo.gone' (looked under scenarios/demo/../../rules; 'random' is the built-in \
             random bot, and a bot in a file of its own is named by its path: bots/mine.lua)\n",
            save.display()
        )
    );
}

/// Each mistake in `--bot` says what is wrong and the nearest right name; nothing is played.
#[test]
fn a_wrong_bot_choice_names_the_side_or_module_it_means() {
    let cases = [
        (
            "blu=demo.ai",
            "error: --bot blu=demo.ai: unknown side 'blu': did you mean 'blue'? (sides: blue, red)\n",
        ),
        (
            "blue=demo.aj",
            "error: --bot blue=demo.aj: unknown bot module 'demo.aj' (looked under \
             scenarios/demo/../../rules; 'random' is the built-in random bot, and a bot in a file \
             of its own is named by its path: bots/mine.lua): did you mean 'demo.ai'?\n",
        ),
        (
            "blue",
            "error: --bot blue: write SIDE=MODULE, a Lua module under the scenario's rule roots or \
             'random' (like --bot blue=random)\n",
        ),
        (
            "blue=Random",
            "error: --bot blue=Random: unknown bot module 'Random': did you mean 'random', the \
             built-in random bot?\n",
        ),
        (
            "blue=random blue=demo.ai",
            "error: --bot blue=demo.ai: a second bot for blue; give --bot once per side\n",
        ),
    ];
    for (given, message) in cases {
        for batch in [false, true] {
            let mut args = vec!["run", "scenarios/demo", "--quiet"];
            for one in given.split(' ') {
                args.extend(["--bot", one]);
            }
            if batch {
                args.extend(["--games", "2"]);
            }
            let out = hexwar(&args);
            assert_eq!(out.status.code(), Some(2), "{given}");
            assert_eq!(stderr(&out), message, "{given}, batch {batch}");
            assert_eq!(stdout(&out), "", "{given}");
        }
    }
}

/// A batch plays every game with the chosen bot: its game 0 is the single game of that seed.
#[test]
fn a_batch_plays_its_games_with_the_chosen_bot() {
    let dir = tempfile::tempdir().unwrap();
    let per_game = dir.path().join("games.jsonl");
    demo_batch("2", &["--bot", "blue=demo.ai"], &per_game);
    let first: serde_json::Value =
        serde_json::from_str(read(&per_game).lines().next().unwrap()).unwrap();
    assert_eq!(first["bots"], serde_json::json!({"blue": "demo.ai"}));
    let seed = first["seed"].to_string();
    let single: serde_json::Value = serde_json::from_str(&ok(&hexwar(&[
        "run",
        "scenarios/demo",
        "--seed",
        &seed,
        "--bot",
        "blue=demo.ai",
        "--json",
    ])))
    .unwrap();
    assert_eq!(first["winner"], single["outcome"]["winner"], "{first}");
    assert_eq!(first["scores"], single["outcome"]["scores"], "{first}");
    assert_eq!(first["commands"], single["commands"], "{first}");
}

/// A bot in a file of its own, outside the scenario's rule roots, is named by its path (its
/// folder becomes one more root, as a mod's does); the save records the path, and a resumed game
/// that swaps it out hears no "rules changed" (it said the file "is gone").
#[test]
fn a_bot_in_a_file_of_its_own_is_named_by_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("idle.lua");
    std::fs::write(
        &bot,
        "-- ends every phase at once\nreturn function(side, legal, seed) return { command = \"end_phase\" } end\n",
    )
    .unwrap();
    let choice = format!("blue={}", bot.display());
    let save = dir.path().join("mid.json");
    let text = ok(&hexwar(&[
        "run",
        "scenarios/demo",
        "--bot",
        &choice,
        "--turns",
        "2",
        "--save",
        save.to_str().unwrap(),
        "--quiet",
        "--json",
    ]));
    let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
    // (blue only ended its phases: no blue unit moved)
    assert_eq!(summary["bots_chosen"]["blue"], bot.display().to_string());
    let saved: serde_json::Value = serde_json::from_str(&read(&save)).unwrap();
    assert_eq!(saved["bots"]["blue"], bot.display().to_string());
    let idle_file = saved["rules"]
        .as_object()
        .unwrap()
        .keys()
        .find(|k| k.ends_with("/idle.lua"))
        .cloned();
    assert!(idle_file.is_some(), "{}", saved["rules"]);
    let resumed = hexwar(&["run", save.to_str().unwrap(), "--quiet"]);
    assert_eq!(stderr(&resumed), "");
    let swapped = hexwar(&[
        "run",
        save.to_str().unwrap(),
        "--quiet",
        "--bot",
        "blue=random",
    ]);
    assert_eq!(stderr(&swapped), "");
    // A path that is no file is said so.
    let out = hexwar(&["run", "scenarios/demo", "--bot", "blue=nowhere/idle.lua"]);
    assert_eq!(
        stderr(&out),
        "error: --bot blue=nowhere/idle.lua: no such file (a path without a leading '/' is read \
         from the working directory)\n"
    );
}

/// A batch says which bots its host chose (its statistics' first line, `bots_chosen` in JSON,
/// the compare header), and a game whose bot fails names where play stopped and how to play it
/// alone.
#[test]
fn batches_say_which_bots_they_played_with() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.jsonl");
    let b = dir.path().join("b.jsonl");
    let text = demo_batch("3", &["--bot", "blue=demo.ai"], &a);
    assert_eq!(
        text.lines().next(),
        Some("scenario: demo  base seed: 1  games: 3  bots chosen: blue demo.ai")
    );
    demo_batch("3", &[], &b);
    let compared = ok(&hexwar(&[
        "stats",
        "compare",
        b.to_str().unwrap(),
        a.to_str().unwrap(),
    ]));
    assert_eq!(
        compared.lines().next(),
        Some("A: demo (3 games)  B: demo (3 games, bots chosen: blue demo.ai)  paired by seed: 3 games")
    );
    // A bot that fails on turn 2.
    let crash = dir.path().join("crash.lua");
    std::fs::write(
        &crash,
        "return function(side, legal, seed)\n  if hex.state.turn() == 2 then error(\"boom\") end\n  return { command = \"end_phase\" }\nend\n",
    )
    .unwrap();
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--games",
        "2",
        "--quiet",
        "--bot",
        &format!("blue={}", crash.display()),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(
        message
            .starts_with("error: game 0 (seed 10451216379200822465): rules error: bot 'crash' (")
            && message.ends_with(&format!(
                "/crash.lua:2: boom\n  (play stopped at turn 2, movement (blue); to play it alone \
                 with its log: --seed 1 --seed-range 0..1 --bot blue={} --log FILE)\n",
                crash.display()
            )),
        "{message}"
    );
}

/// `check --bot` checks the chosen bot's module with the rules: a syntax error in it is found
/// before any game is played.
#[test]
fn check_checks_a_chosen_bot() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("broken.lua");
    std::fs::write(
        &bot,
        "return function(side, legal, seed)\n  return { command = \"end_phase\"\nend\n",
    )
    .unwrap();
    let out = hexwar(&[
        "check",
        "scenarios/demo",
        "--bot",
        &format!("blue={}", bot.display()),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(
        message.starts_with("error: syntax error: ")
            && message.ends_with(
                "/broken.lua:3: '}' expected (to close '{' at line 2) near 'end'\n1 error(s) in scenarios/demo\n"
            ),
        "{message}"
    );
    let fine = hexwar(&["check", "scenarios/demo", "--bot", "blue=demo.ai"]);
    assert_eq!(fine.status.code(), Some(0), "{}", stderr(&fine));
}

/// A bot in a file named without a folder (`--bot red=mine.lua`) is in the working directory:
/// that folder, `.`, becomes one more rule root, and a later unknown bot names it among the
/// folders looked in (it was once an empty name, `rules, ;`).
#[test]
fn a_bot_file_named_without_a_folder_adds_the_working_directory_as_a_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy("rules/demo/ai.lua", dir.path().join("mine.lua")).unwrap();
    let scenario = std::env::current_dir().unwrap().join("scenarios/demo");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["run", scenario.to_str().unwrap()])
        .args(["--bot", "red=mine.lua", "--bot", "blue=nope"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: --bot blue=nope: unknown bot module 'nope' (looked under {}/../../rules, .; \
             'random' is the built-in random bot, and a bot in a file of its own is named by its \
             path: bots/mine.lua)\n",
            scenario.display()
        )
    );
}
