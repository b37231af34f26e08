//! `--mod FILE.lua` on the command line: a variant over a scenario without copying it. The mod
//! loads after the scenario's rules (its folder one more rule root), and saves, replays and
//! batches record it.

use serde_json::Value;

mod common;

use common::{hexwar, stderr, stdout};

const RED_WINS: &str = "tests/fixtures/mods/red_wins.lua";

/// `hexwar ARGS`, which must succeed (exit 0; its stderr shown otherwise).
fn succeeds(args: &[&str]) -> std::process::Output {
    let out = hexwar(args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    out
}

/// The JSON document in `path` (a save, a replay).
fn read_json(path: impl AsRef<std::path::Path>) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `run --mod` plays the scenario under the mod (the demo's victory replaced: red wins every
/// game) and says so in the summary, as text and as JSON.
#[test]
fn run_plays_the_scenario_under_the_mod() {
    let out = succeeds(&["run", "scenarios/demo", "--seed", "3", "--mod", RED_WINS]);
    let text = stdout(&out);
    assert!(
        text.contains("\nmods: tests/fixtures/mods/red_wins.lua\n"),
        "{text}"
    );
    assert!(text.contains("\nwinner: red\n"), "{text}");
    // (the plain scenario: no mods line, the demo's own victory rule)
    let plain = stdout(&hexwar(&["run", "scenarios/demo", "--seed", "3"]));
    assert!(!plain.contains("mods:"), "{plain}");
    let json = hexwar(&[
        "run",
        "scenarios/demo",
        "--seed",
        "3",
        "--mod",
        RED_WINS,
        "--json",
    ]);
    let summary: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(summary["mods"], serde_json::json!([RED_WINS]));
    assert_eq!(summary["outcome"]["reason"], "the red_wins mod");
}

/// A save of a game with a mod records it, and the game goes on under it; `--mod` with a save
/// is refused (the save carries its mods), and `check` of the save checks it with its mods.
#[test]
fn a_save_records_its_mods_and_resumes_with_them() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let save = save.to_str().unwrap();
    succeeds(&[
        "run",
        "scenarios/demo",
        "--mod",
        RED_WINS,
        "--turns",
        "2",
        "--save",
        save,
    ]);
    let saved: Value = read_json(save);
    assert_eq!(saved["mods"], serde_json::json!([RED_WINS]));
    let resumed = succeeds(&["run", save]);
    assert!(
        stdout(&resumed).contains("\nwinner: red\n"),
        "{}",
        stdout(&resumed)
    );
    let refused = hexwar(&["run", save, "--mod", RED_WINS]);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        stderr(&refused),
        "error: --mod cannot be used when continuing a save (the save carries its mods, loaded again)\n"
    );
    let checked = succeeds(&["check", save]);
    assert!(
        stdout(&checked).contains("rules lib, demo, red_wins\n"),
        "{}",
        stdout(&checked)
    );
    // (status names the mods the position is played under, the save's or --mod's)
    for args in [
        vec!["status", save],
        vec!["status", "scenarios/demo", "--mod", RED_WINS],
    ] {
        let status = succeeds(&args);
        assert_eq!(
            stdout(&status).lines().nth(1),
            Some(format!("mods: {RED_WINS}").as_str()),
            "{args:?}"
        );
        let json = succeeds(&[args.as_slice(), &["--json"]].concat());
        let json: Value = serde_json::from_str(&stdout(&json)).unwrap();
        assert_eq!(json["mods"], serde_json::json!([RED_WINS]), "{args:?}");
    }
}

/// `check --mod` checks the scenario with the mod loaded: its module in the summary, a mod that
/// fails as it loads reported at its line, a file that is not there named.
#[test]
fn check_takes_mods() {
    let ok = succeeds(&["check", "scenarios/demo", "--mod", RED_WINS]);
    assert!(
        stdout(&ok).ends_with("rules lib, demo, red_wins\n"),
        "{}",
        stdout(&ok)
    );
    let broken = hexwar(&[
        "check",
        "scenarios/demo",
        "--mod",
        "tests/fixtures/mods/broken_mod.lua",
    ]);
    assert_eq!(broken.status.code(), Some(2));
    assert_eq!(
        stderr(&broken),
        "error: loading rules module 'broken_mod': mods/broken_mod.lua:3: attempt to index a nil \
         value (local 'settings')\n1 error(s) in scenarios/demo\n"
    );
    let missing = hexwar(&[
        "run",
        "scenarios/demo",
        "--mod",
        "tests/fixtures/mods/nope.lua",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        stderr(&missing),
        "error: --mod tests/fixtures/mods/nope.lua: mod refused: no such file (a path without a \
         leading '/' is read from the working directory)\n"
    );
}

/// A replay of a game with a mod records the mod and verifies with it loaded.
#[test]
fn a_replay_records_its_mods() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.json");
    let replay = replay.to_str().unwrap();
    succeeds(&[
        "run",
        "scenarios/demo",
        "--mod",
        RED_WINS,
        "--replay",
        replay,
    ]);
    let recorded: Value = read_json(replay);
    assert_eq!(recorded["mods"], serde_json::json!([RED_WINS]));
    let verified = succeeds(&["replay", replay]);
    assert!(
        stdout(&verified).starts_with("replay ok: "),
        "{}",
        stdout(&verified)
    );
}

/// A batch under a mod names it in its statistics (text and JSON) and in each game's record.
#[test]
fn a_batch_names_its_mods() {
    let out = succeeds(&[
        "run",
        "scenarios/demo",
        "--games",
        "3",
        "--quiet",
        "--mod",
        RED_WINS,
    ]);
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "scenario: demo  base seed: 1  games: 3  mods: tests/fixtures/mods/red_wins.lua\n"
        ),
        "{text}"
    );
    assert!(text.contains("red: wins     3"), "{text}");
    let json = hexwar(&[
        "run",
        "scenarios/demo",
        "--games",
        "2",
        "--quiet",
        "--json",
        "--mod",
        RED_WINS,
    ]);
    let stats: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(stats["mods"], serde_json::json!([RED_WINS]));
}

/// The France 1940 variant shipped as an example mod (rules/france1940/variants/harsh_crt.lua)
/// checks, and its first turn rolls on its own table: every combat's result is the harsh
/// table's for its odds and roll (6:1 roll 2 is DE there, DR% in the standard table).
#[test]
fn the_shipped_france_1940_variant_plays_its_own_crt() {
    const HARSH: &str = "rules/france1940/variants/harsh_crt.lua";
    let checked = succeeds(&["check", "scenarios/france1940", "--mod", HARSH]);
    assert!(stdout(&checked).ends_with("rules lib, france1940, harsh_crt\n"));
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.jsonl");
    succeeds(&[
        "run",
        "scenarios/france1940",
        "--seed",
        "1",
        "--turns",
        "1",
        "--mod",
        HARSH,
        "--log",
        log.to_str().unwrap(),
    ]);
    let harsh: [(&str, [&str; 6]); 7] = [
        ("1:2", ["AE", "AE", "AR", "EX", "EX", "DR"]),
        ("1:1", ["AE", "AR", "EX", "EX", "DR", "DR%"]),
        ("2:1", ["AR", "EX", "EX", "DR", "DR%", "DE"]),
        ("3:1", ["EX", "EX", "DR", "DR%", "DE", "DE"]),
        ("4:1", ["EX", "DR", "DR%", "DE", "DE", "DE"]),
        ("5:1", ["DR", "DR%", "DE", "DE", "DE", "DE"]),
        ("6:1", ["DR%", "DE", "DE", "DE", "DE", "DE"]),
    ];
    let mut combats = 0;
    let mut six_to_one_roll_two = 0;
    for line in std::fs::read_to_string(&log).unwrap().lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        if event["name"] != "CombatResolved" {
            continue;
        }
        let data = &event["data"];
        let odds = data["odds"].as_str().unwrap();
        let roll = data["roll"].as_u64().unwrap() as usize;
        let row = harsh.iter().find(|(o, _)| *o == odds).unwrap().1;
        assert_eq!(data["result"], row[roll - 1], "{data}");
        combats += 1;
        if odds == "6:1" && roll == 2 {
            six_to_one_roll_two += 1;
        }
    }
    assert_eq!((combats, six_to_one_roll_two), (6, 2));
}

/// Two mods load in the order given, and a batch's rules fingerprint follows that order: the
/// same two files the other way round are another game, whose shards must not merge.
#[test]
fn the_order_of_mods_is_part_of_a_batch_fingerprint() {
    const BLUE_WINS: &str = "tests/fixtures/mods/blue_wins.lua";
    let fingerprint = |first: &str, second: &str| -> (String, String) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("games.jsonl");
        succeeds(&[
            "run",
            "scenarios/demo",
            "--seed-range",
            "0..1",
            "--quiet",
            "--mod",
            first,
            "--mod",
            second,
            "--per-game",
            file.to_str().unwrap(),
        ]);
        let record: Value = serde_json::from_str(
            std::fs::read_to_string(&file)
                .unwrap()
                .lines()
                .next()
                .unwrap(),
        )
        .unwrap();
        (
            record["rules"].as_str().unwrap().to_string(),
            record["winner"].as_str().unwrap().to_string(),
        )
    };
    let (red_then_blue, winner) = fingerprint(RED_WINS, BLUE_WINS);
    assert_eq!(winner, "blue");
    let (blue_then_red, winner) = fingerprint(BLUE_WINS, RED_WINS);
    assert_eq!(winner, "red");
    assert_ne!(red_then_blue, blue_then_red);
}

/// A file a mod requires from its own folder is recorded by saves and replays with the rules:
/// edited, the replay refuses to verify and the save warns, naming it (the replay diverged at
/// some step instead, and the save resumed without a word).
#[test]
fn a_file_a_mod_requires_is_recorded_by_saves_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let helper = dir.path().join("mod_helper.lua");
    std::fs::write(&helper, "return { winner = \"red\" }\n").unwrap();
    let mod_file = dir.path().join("uses_helper.lua");
    std::fs::write(
        &mod_file,
        "local helper = require(\"mod_helper\")\n\
         hex.rules.victory(function()\n\
           return { winner = helper.winner, scores = {}, reason = \"the helper's\" }\n\
         end)\n",
    )
    .unwrap();
    let replay = dir.path().join("replay.json");
    let save = dir.path().join("save.json");
    let mod_arg = mod_file.to_str().unwrap();
    succeeds(&[
        "run",
        "scenarios/demo",
        "--mod",
        mod_arg,
        "--replay",
        replay.to_str().unwrap(),
    ]);
    succeeds(&[
        "run",
        "scenarios/demo",
        "--mod",
        mod_arg,
        "--turns",
        "1",
        "--save",
        save.to_str().unwrap(),
    ]);
    let recorded: Value = read_json(&replay);
    let names: Vec<&String> = recorded["rules"].as_object().unwrap().keys().collect();
    assert!(
        names.iter().any(|n| n.ends_with("/mod_helper.lua")),
        "{names:?}"
    );
    std::fs::write(&helper, "return { winner = \"blue\" }\n").unwrap();
    let verified = hexwar(&["replay", replay.to_str().unwrap()]);
    assert_eq!(verified.status.code(), Some(2), "{}", stdout(&verified));
    assert!(
        stderr(&verified).contains("mod_helper.lua changed"),
        "{}",
        stderr(&verified)
    );
    let resumed = succeeds(&["run", save.to_str().unwrap()]);
    assert!(
        stderr(&resumed).contains("mod_helper.lua changed"),
        "{}",
        stderr(&resumed)
    );
}

/// Mods the host cannot load as given are refused before play with the reason: a file named
/// init.lua (a folder module's first file: its whole folder would be the module), a directory,
/// the same file given twice.
#[test]
fn mods_that_cannot_load_as_given_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let init = dir.path().join("init.lua");
    std::fs::write(&init, "-- a mod named like a folder module's first file\n").unwrap();
    let folder = dir.path().join("folder.lua");
    std::fs::create_dir(&folder).unwrap();
    let refused = |args: &[&str]| -> String {
        let mut all = vec!["run", "scenarios/demo"];
        all.extend_from_slice(args);
        let out = hexwar(&all);
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        stderr(&out)
    };
    let init_arg = init.to_str().unwrap();
    assert_eq!(
        refused(&["--mod", init_arg]),
        format!(
            "error: --mod {init_arg}: mod refused: 'init' cannot be a mod's name (init.lua is a \
             folder module's first file): rename the file; a variant written as a folder is \
             listed in a scenario's `rules` by its path under a rule root \
             (scenarios/diplomacy-francqueville lists diplomacy/variants/francqueville)\n"
        )
    );
    let folder_arg = folder.to_str().unwrap();
    assert_eq!(
        refused(&["--mod", folder_arg]),
        format!(
            "error: --mod {folder_arg}: mod refused: not a regular file (a directory, a pipe or \
             a device)\n"
        )
    );
    assert_eq!(
        refused(&["--mod", RED_WINS, "--mod", RED_WINS]),
        "error: --mod tests/fixtures/mods/red_wins.lua: mod refused: given twice: a mod loads \
         once\n"
    );
}

/// A save or replay whose mod has moved says where the path came from and what to do: the
/// message said only "no such file", and `--mod` cannot be given with a save.
#[test]
fn a_moved_mod_of_a_save_or_replay_is_named_as_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let mod_file = dir.path().join("red_wins.lua");
    std::fs::copy(RED_WINS, &mod_file).unwrap();
    let save = dir.path().join("save.json");
    let replay = dir.path().join("replay.json");
    let mod_arg = mod_file.to_str().unwrap();
    succeeds(&[
        "run",
        "scenarios/demo",
        "--mod",
        mod_arg,
        "--turns",
        "1",
        "--save",
        save.to_str().unwrap(),
        "--replay",
        replay.to_str().unwrap(),
    ]);
    std::fs::rename(&mod_file, dir.path().join("moved.lua")).unwrap();
    let resumed = hexwar(&["run", save.to_str().unwrap()]);
    assert_eq!(resumed.status.code(), Some(2));
    assert_eq!(
        stderr(&resumed),
        format!(
            "error: {mod_arg}: mod refused: no such file; the save {} records it as given when \
             the game started: resume from that directory, or correct \"mods\" in the save\n",
            save.display()
        )
    );
    let verified = hexwar(&["replay", replay.to_str().unwrap()]);
    assert_eq!(verified.status.code(), Some(2));
    assert_eq!(
        stderr(&verified),
        format!(
            "error: {mod_arg}: mod refused: no such file; the replay records it as given when \
             the game was recorded: verify it from that directory, or correct \"mods\" in the \
             replay\n"
        )
    );
}

/// The commands that look at a game take `--mod` too: a designer asks a variant's reach and
/// legal moves without a scenario of its own. The mud mod (forest and marsh cost 1 more)
/// answers as the demo-mud scenario that layers it does, and not as the plain demo.
#[test]
fn the_commands_that_look_at_a_game_take_mods() {
    const MUD: &str = "rules/demo/variants/mud.lua";
    let asked = |scenario: &str, mods: &[&str], command: &[&str]| {
        let mut args = vec![command[0], scenario];
        args.extend_from_slice(&command[1..]);
        for m in mods {
            args.extend_from_slice(&["--mod", m]);
        }
        stdout(&succeeds(&args))
    };
    for command in [
        &["reach", "b-inf-1", "--json"][..],
        &["legal", "--unit", "b-inf-1"],
    ] {
        let modded = asked("scenarios/demo", &[MUD], command);
        assert_eq!(
            modded,
            asked("scenarios/demo-mud", &[], command),
            "{command:?}"
        );
        assert_ne!(modded, asked("scenarios/demo", &[], command), "{command:?}");
    }
    // (status, supply and render load it as well: a broken mod is named by each)
    for command in [
        &["status"][..],
        &["supply"],
        &["render", "-o", "-"],
        &["reach", "b-inf-1"],
        &["legal"],
    ] {
        let mut args = vec![command[0], "scenarios/demo"];
        args.extend_from_slice(&command[1..]);
        args.extend_from_slice(&["--mod", "tests/fixtures/mods/broken_mod.lua"]);
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        assert!(
            stderr(&out).contains("broken_mod"),
            "{command:?}: {}",
            stderr(&out)
        );
    }
}

/// A victory rule that gives a winner and an empty score table: the summary says `score: none` (it printed
/// an empty `score: ` line).
#[test]
fn a_victory_without_scores_is_said_to_have_none() {
    let dir = tempfile::tempdir().unwrap();
    let rule = dir.path().join("no_scores.lua");
    std::fs::write(
        &rule,
        "hex.rules.victory(function()\n  return { winner = \"red\", scores = {}, reason = \"no scores kept\" }\nend)\n",
    )
    .unwrap();
    let out = succeeds(&["run", "scenarios/demo", "--mod", rule.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(
        text.contains("\nwinner: red\nscore: none\nreason: no scores kept\n"),
        "{text}"
    );
}

/// A mod that changes a module table during play (`stacking.LIMIT = 6` on turn 2) is warned of
/// at the end of `run` and of `play`: a save keeps the game state, not module tables, so the
/// game saved and resumed played on without the change (its two halves differed from the whole
/// game). The scenarios' own rules change none (no warning).
#[test]
fn a_module_table_changed_during_play_is_warned_of() {
    let warning = "warning: the rules changed their module tables during play \
                   (france1940.stacking.LIMIT): a save keeps the game state, not module tables, so \
                   this game resumed from a save would play on without the change; keep what \
                   changes in hex.state (or change the tables while the modules load)\n";
    let args = ["run", "scenarios/france1940", "--turns", "2", "--quiet"];
    let out = succeeds(
        &[
            &args[..],
            &["--mod", "tests/fixtures/mods/limit_in_play.lua"],
        ]
        .concat(),
    );
    assert_eq!(stderr(&out), warning);
    for scenario in [
        "scenarios/france1940",
        "scenarios/diplomacy",
        "scenarios/ancients",
    ] {
        let out = succeeds(&["run", scenario, "--turns", "2"]);
        assert_eq!(stderr(&out), "", "{scenario}");
    }
}
