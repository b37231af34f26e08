//! Batch runs (same results whatever --jobs, shards merge to the whole) and replays (verify
//! step by step; a tampered one is caught at the changed step; other rules are refused).

mod common;

use common::{demo_copy, edit, hexwar, stderr, stdout};

fn ok(args: &[&str]) -> String {
    let out = hexwar(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn batch_results_do_not_depend_on_jobs() {
    let one = ok(&[
        "run",
        "scenarios/demo",
        "--games",
        "6",
        "--jobs",
        "1",
        "--seed",
        "3",
        "--json",
    ]);
    let two = ok(&[
        "run",
        "scenarios/demo",
        "--games",
        "6",
        "--jobs",
        "2",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(one, two);
    let stats: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(stats["games"], 6);
    let wins: u64 = ["blue", "red"]
        .iter()
        .map(|s| stats["sides"][s]["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(wins + stats["draws"].as_u64().unwrap(), 6);
}

/// Games `range` of `scenario`'s batch of base seed 9, their records written to `path`.
fn shard(scenario: &str, range: &str, path: &std::path::Path) -> String {
    ok(&[
        "run",
        scenario,
        "--seed",
        "9",
        "--seed-range",
        range,
        "--per-game",
        path.to_str().unwrap(),
        "--quiet",
    ])
}

#[test]
fn two_shards_merge_into_the_whole_batch() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    shard("scenarios/demo", "0..3", &a);
    shard("scenarios/demo", "3..6", &b);
    let merged = ok(&[
        "stats",
        "merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--json",
    ]);
    let whole = ok(&[
        "run",
        "scenarios/demo",
        "--seed",
        "9",
        "--games",
        "6",
        "--json",
    ]);
    assert_eq!(merged, whole);
    // (a merge of whole shards says nothing on stderr; one with a gap says what is missing)
    let out = hexwar(&["stats", "merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(stderr(&out), "");
    let c = dir.path().join("c.jsonl");
    shard("scenarios/demo", "8..9", &c);
    let out = hexwar(&["stats", "merge", a.to_str().unwrap(), c.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        "warning: the files hold games 0..9 but not 3..8 (5 game(s) missing: a shard lost or not \
         done?); the statistics are of the 4 games given\n"
    );
    // A shard given twice is refused.
    let out = hexwar(&["stats", "merge", a.to_str().unwrap(), a.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: game 0 appears twice ({} and {})\n",
            a.display(),
            a.display()
        )
    );
    // Shards of two scenarios: each file named with its batch (the message named one scenario).
    let demo_mud = dir.path().join("mud.jsonl");
    shard("scenarios/demo-mud", "3..4", &demo_mud);
    let out = hexwar(&[
        "stats",
        "merge",
        a.to_str().unwrap(),
        demo_mud.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: shards of different batches: {} holds demo seed 9 (game 0), {} holds demo-mud seed 9 (game 3)\n",
            a.display(),
            demo_mud.display()
        )
    );
}

/// Two variants of one scenario share its id: their shards are told apart by the records'
/// fingerprint of the scenario and rules files, and refused together; an empty file is no batch.
#[test]
fn shards_of_two_variants_or_of_nothing_do_not_merge() {
    let (dir, scenario) = demo_copy();
    edit(
        &dir.path().join("rules/demo/combat.lua"),
        "local combat = {}",
        "local combat = {} -- a variant",
    );
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    shard("scenarios/demo", "0..2", &a);
    shard(scenario.to_str().unwrap(), "2..4", &b);
    let record: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&a).unwrap().lines().next().unwrap()).unwrap();
    assert!(record["rules"].as_str().unwrap().starts_with("sha256:"));
    let out = hexwar(&["stats", "merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: shards of different batches: game 0 ({}) and game 2 ({}) of demo seed 9 were \
             played under different scenario or rules files (a variant?)\n",
            a.display(),
            b.display()
        )
    );
    // a hand-made record whose score would overflow the statistics' sums
    let line = std::fs::read_to_string(&a).unwrap();
    let mut forged: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    forged["scores"]["blue"] = serde_json::json!(1e308);
    let huge = dir.path().join("huge.jsonl");
    std::fs::write(&huge, format!("{forged}\n")).unwrap();
    let out = hexwar(&["stats", "merge", huge.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}:1: 'blue' is 1e308: a score or figure is at most 1e15 either way\n",
            huge.display()
        )
    );
    // hand-edited records: a winner that is no side of the game, a seed game 0 does not have
    for (key, value, why) in [
        (
            "winner",
            serde_json::json!("martians"),
            "the winner 'martians' is none of the sides the game scored (blue, red)".to_string(),
        ),
        (
            "seed",
            serde_json::json!(5),
            format!(
                "game 0 has seed 5, not the one base seed 9 gives it ({})",
                hexwar::batch::derive_seed(9, 0)
            ),
        ),
    ] {
        let mut edited: serde_json::Value =
            serde_json::from_str(line.lines().next().unwrap()).unwrap();
        edited[key] = value;
        let file = dir.path().join("edited.jsonl");
        std::fs::write(&file, format!("{edited}\n")).unwrap();
        let out = hexwar(&["stats", "merge", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            stderr(&out),
            format!("error: {}:1: {why}\n", file.display())
        );
    }
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let out = hexwar(&["stats", "merge", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: no game records in {} (files written by `hexwar run --per-game`)\n",
            empty.display()
        )
    );
}

fn record(dir: &std::path::Path, scenario: &str, seed: &str) -> std::path::PathBuf {
    let path = dir.join("r.json");
    ok(&[
        "run",
        scenario,
        "--seed",
        seed,
        "--replay",
        path.to_str().unwrap(),
    ]);
    path
}

#[test]
fn an_unchanged_replay_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "scenarios/demo", "4");
    let replay: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let steps = replay["steps"].as_array().unwrap().len();
    assert!(steps > 30);
    assert_eq!(
        ok(&["replay", path.to_str().unwrap()]),
        format!("replay ok: {steps} steps of demo (seed 4) verified\n")
    );
}

/// `--json`: the verdict as one object, with the final state's hash (the last recorded one).
#[test]
fn replay_json_gives_the_steps_verified_and_the_final_state() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "scenarios/demo", "4");
    let replay: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let steps = replay["steps"].as_array().unwrap();
    let last = steps.last().unwrap()["state"].as_str().unwrap();
    assert_eq!(
        ok(&["replay", path.to_str().unwrap(), "--json"]),
        format!(
            "{{\"ok\":true,\"scenario\":\"demo\",\"seed\":4,\"steps\":{n},\"verified\":{n},\
             \"state\":\"{last}\",\"diverged\":null,\"problem\":null}}\n",
            n = steps.len()
        )
    );
}

/// `--json` at a divergence (exit 1): the step, its command and what differed, in the JSON
/// and not on stderr (as `play --json` reports a refusal); a replay that cannot run (exit 2)
/// is an error on stderr with nothing on stdout, as with every command.
#[test]
fn replay_json_names_the_step_that_diverged() {
    let out = hexwar(&[
        "replay",
        "tests/errors/replay_diverged/game.replay.json",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "");
    assert_eq!(
        stdout(&out),
        "{\"ok\":false,\"scenario\":\"tiny\",\"seed\":1,\"steps\":4,\"verified\":2,\"state\":null,\
         \"diverged\":{\"step\":3,\"side\":\"blue\",\"command\":{\"command\":\"end_phase\"},\
         \"what\":\"state\",\
         \"now\":\"sha256:8e170b04e55da1250c44a52dfa78d83cffe53d8c8d4e0e381b0d9ac6942f2bd6\",\
         \"recorded\":\"sha256:0000000000000000000000000000000000000000000000000000000000000000\"},\
         \"problem\":null}\n"
    );
    let out = hexwar(&[
        "replay",
        "tests/errors/replay_other_rules/game.replay.json",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "error: tests/errors/replay_other_rules/game.replay.json: the replay was recorded \
         against different rules, it cannot be verified: rules/tiny/init.lua changed\n"
    );
}

#[test]
fn a_tampered_replay_is_caught_at_the_changed_step() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "scenarios/demo", "4");
    let mut replay: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let steps = replay["steps"].as_array_mut().unwrap();
    // Change the third accepted move: another destination.
    let (k, step) = steps
        .iter_mut()
        .enumerate()
        .filter(|(_, s)| s["command"]["command"] == "move" && s["accepted"] == true)
        .nth(2)
        .unwrap();
    step["command"]["path"] = serde_json::json!(["9999"]);
    std::fs::write(&path, serde_json::to_string(&replay).unwrap()).unwrap();
    let out = hexwar(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let expected = format!(
        "error: {}: replay diverges at step {} (",
        path.display(),
        k + 1
    );
    assert!(stderr(&out).starts_with(&expected), "{}", stderr(&out));
    assert!(
        stderr(&out).ends_with("): the command was refused, recorded accepted\n"),
        "{}",
        stderr(&out)
    );
}

/// A replay records where it ended: one cut short (or padded) is refused as a whole, not
/// verified as far as it goes; one that names another scenario's id too.
#[test]
fn a_replay_cut_short_or_relabelled_does_not_verify() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "scenarios/demo", "4");
    let whole: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let n = whole["steps"].as_array().unwrap().len();
    assert_eq!(whole["end"]["steps"], n);
    assert_eq!(
        whole["end"]["state"],
        whole["steps"][n - 1]["state"],
        "the end is where the last step left the game"
    );
    let p = path.to_str().unwrap();
    let mut cut = whole.clone();
    cut["steps"].as_array_mut().unwrap().truncate(n - 10);
    std::fs::write(&path, serde_json::to_string(&cut).unwrap()).unwrap();
    let out = hexwar(&["replay", p]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {p}: the replay holds {} steps but its recording ended after {n}: it was cut \
             short or added to\n",
            n - 10
        )
    );
    let out = hexwar(&["replay", p, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(verdict["ok"], false);
    assert_eq!(verdict["verified"], 0);
    assert!(verdict["problem"].as_str().unwrap().contains("cut short"));

    let mut relabelled = whole.clone();
    relabelled["scenario_id"] = "france1940".into();
    std::fs::write(&path, serde_json::to_string(&relabelled).unwrap()).unwrap();
    let out = hexwar(&["replay", p]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {p}: the replay names scenario 'france1940', but its scenario file is 'demo'\n"
        )
    );

    // A replay without its end, cut short with it, is refused: it verified as far as it went,
    // so a cut-short replay (and `"steps": []`) passed.
    for steps in [n - 5, 0] {
        let mut cut = whole.clone();
        cut.as_object_mut().unwrap().remove("end");
        cut["steps"].as_array_mut().unwrap().truncate(steps);
        std::fs::write(&path, serde_json::to_string(&cut).unwrap()).unwrap();
        let out = hexwar(&["replay", p]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            stderr(&out),
            format!(
                "error: {p}: the replay has no recorded end (its \"end\"): it was cut short, or \
                 recorded before replays kept their end (record it again)\n"
            )
        );
    }
    // A rules file the game loads must be recorded: a replay whose `rules` lost its entries
    // verified against whatever the files held.
    let mut forgetful = whole.clone();
    forgetful["rules"] = serde_json::json!({});
    std::fs::write(&path, serde_json::to_string(&forgetful).unwrap()).unwrap();
    let out = hexwar(&["replay", p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!(
            "error: {p}: the replay was recorded against different rules, it cannot be verified: \
             rules/demo/"
        )),
        "{}",
        stderr(&out)
    );
}

/// `--replay` records from the scenario's start: from a save it would write a replay that
/// could never verify, so it is refused.
#[test]
fn a_replay_cannot_be_recorded_from_a_save() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid.json");
    ok(&[
        "run",
        "scenarios/demo",
        "--seed",
        "4",
        "--turns",
        "2",
        "--save",
        save.to_str().unwrap(),
    ]);
    let replay = dir.path().join("r.json");
    let out = hexwar(&[
        "run",
        save.to_str().unwrap(),
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}: --replay records a game from its scenario's start, and this is a save: \
             run the scenario with --replay (and --turns to stop where the save was taken)\n",
            save.display()
        )
    );
    assert!(!replay.exists());
    let out = hexwar(&["run", save.to_str().unwrap(), "--games", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}: a batch plays its scenario from the start, and this is a save: give the \
             scenario\n",
            save.display()
        )
    );
    let out = hexwar(&["replay", save.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {s}: cannot read replay: this is a hexwar save, not a replay (continue it \
             with `hexwar run {s}`)\n",
            s = save.display()
        )
    );
}

#[test]
fn a_replay_recorded_against_other_rules_refuses_to_run() {
    let (dir, scenario) = demo_copy();
    let path = record(dir.path(), scenario.to_str().unwrap(), "4");
    edit(
        &dir.path().join("rules/demo/combat.lua"),
        "local combat = {}",
        "local combat = {} -- changed",
    );
    let out = hexwar(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}: the replay was recorded against different rules, it cannot be verified: rules/demo/combat.lua changed\n",
            path.display()
        )
    );
}

/// A replay is tied to its scenario's content, not its text: a comment or spacing added to the
/// scenario and its map leaves it valid; a changed value (the number of turns) does not.
#[test]
fn a_replay_survives_comments_in_its_scenario_but_not_a_changed_value() {
    let (dir, scenario) = demo_copy();
    let path = record(dir.path(), scenario.to_str().unwrap(), "4");
    let toml = scenario.join("scenario.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("# a note\n\n{text}\n# the end\n")).unwrap();
    let map = scenario.join("map.toml");
    std::fs::write(
        &map,
        format!("# drawn again\n{}", std::fs::read_to_string(&map).unwrap()),
    )
    .unwrap();
    let out = hexwar(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    std::fs::write(&toml, text.replace("turns = 8", "turns = 3")).unwrap();
    let out = hexwar(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "error: {}: the replay was recorded against a different scenario (sha256:",
            path.display()
        )) && err.ends_with(&format!("): {}\n", toml.display())),
        "{err}"
    );
}

/// A variant under the game's `variants/` folder is a module of its own: editing it changes
/// nothing the base game's replay recorded (it used to make every replay of the base game
/// refuse to run; replays recorded then still verify: tests/replays/demo-seed-11.json).
#[test]
fn an_edited_variant_leaves_the_base_games_replay_valid() {
    let (dir, scenario) = demo_copy();
    let base = record(dir.path(), scenario.to_str().unwrap(), "4");
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&base).unwrap()).unwrap();
    let files: Vec<&String> = recorded["rules"].as_object().unwrap().keys().collect();
    assert!(files.iter().all(|f| !f.contains("variants")), "{files:?}");
    assert!(
        files.iter().any(|f| *f == "rules/demo/combat.lua"),
        "{files:?}"
    );
    let mud = dir.path().join("rules/demo/variants/mud.lua");
    std::fs::write(&mud, std::fs::read_to_string(&mud).unwrap() + "-- edited\n").unwrap();
    let out = hexwar(&["replay", base.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A file beside the rules that the game never loads (a designer's scratch file) is recorded
/// with its folder but held to nothing: edited after the recording, the replay still verifies,
/// a save resumes without a word, and a batch keeps its fingerprint (shards merge). Each of
/// them refused or warned before.
#[test]
fn an_edited_file_the_game_never_loads_changes_nothing_recorded() {
    let (dir, scenario) = demo_copy();
    let scratch = dir.path().join("rules/demo/scratch.lua");
    std::fs::write(&scratch, "return {}\n").unwrap();
    let replay = record(dir.path(), scenario.to_str().unwrap(), "4");
    let save = dir.path().join("mid.json");
    let games = |name: &str| {
        let per_game = dir.path().join(name);
        ok(&[
            "run",
            scenario.to_str().unwrap(),
            "--games",
            "1",
            "--quiet",
            "--per-game",
            per_game.to_str().unwrap(),
        ]);
        let line = std::fs::read_to_string(&per_game).unwrap();
        let record: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
        record["rules"].as_str().unwrap().to_string()
    };
    let before = games("before.jsonl");
    ok(&[
        "run",
        scenario.to_str().unwrap(),
        "--turns",
        "1",
        "--save",
        save.to_str().unwrap(),
    ]);
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(
        saved.contains("rules/demo/scratch.lua"),
        "recorded with its folder"
    );
    std::fs::write(&scratch, "return { edited = true }\n").unwrap();
    let out = hexwar(&["replay", replay.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let resumed = hexwar(&["run", save.to_str().unwrap(), "--quiet"]);
    assert_eq!(stderr(&resumed), "");
    assert_eq!(games("after.jsonl"), before);
    // A file the game loads, edited, is still seen.
    edit(
        &dir.path().join("rules/demo/combat.lua"),
        "local combat = {}",
        "local combat = {} -- changed",
    );
    let resumed = hexwar(&["run", save.to_str().unwrap(), "--quiet"]);
    assert!(
        stderr(&resumed).contains("(rules/demo/combat.lua changed)"),
        "{}",
        stderr(&resumed)
    );
    assert_ne!(games("changed.jsonl"), before);
}

/// Verifies every replay file in `dir`; expects at least `min` of them.
fn verify_all_in(dir: &str, min: usize) {
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let out = hexwar(&["replay", path.to_str().unwrap()]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}: {}",
                path.display(),
                stderr(&out)
            );
            count += 1;
        }
    }
    assert!(
        count >= min,
        "expected at least {min} stored replays in {dir}"
    );
}

/// Trial integrity: stored replays of every scenario must still verify. A change that alters
/// game behaviour fails here and must be acknowledged by re-recording (see tests/replays/README.md).
#[test]
fn stored_replays_still_verify() {
    verify_all_in("tests/replays", 9);
}

/// Issue #7: a few stored replays per scenario. Every folder of `scenarios/` has at least one
/// (`<scenario>-seed-N.json` in tests/replays, or in tests/replays/slow for the heavy ones).
#[test]
fn every_scenario_has_a_stored_replay() {
    let stored: Vec<String> = ["tests/replays", "tests/replays/slow"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir("scenarios").unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let prefix = format!("{name}-seed-");
        if !stored
            .iter()
            .any(|f| f.starts_with(&prefix) && f.ends_with(".json"))
        {
            missing.push(name);
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "scenarios without a stored replay: {missing:?}"
    );
}

/// Trial integrity for the heavy scenarios (a France 1940 campaign): release mode only.
#[test]
#[ignore = "heavy: run with cargo test --release -- --ignored"]
fn stored_slow_replays_still_verify() {
    verify_all_in("tests/replays/slow", 1);
}

/// Issue #7 on the main job: a France 1940 batch gives the same statistics with one job or two,
/// and the per-game figures the rules declare reach them. Release mode only (whole campaigns).
#[test]
#[ignore = "heavy: run with cargo test --release -- --ignored"]
fn france1940_batch_results_do_not_depend_on_jobs() {
    let run = |jobs: &str| {
        ok(&[
            "run",
            "scenarios/france1940",
            "--games",
            "4",
            "--jobs",
            jobs,
            "--seed",
            "5",
            "--json",
        ])
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let stats: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(stats["games"], 4);
    let wins: u64 = ["german", "allied"]
        .iter()
        .map(|s| stats["sides"][s]["wins"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(wins + stats["draws"].as_u64().unwrap(), 4, "{one}");
    // The rules' per-game figures (victory.lua `figures`) reach the statistics as means.
    for figure in [
        "paris_fell",
        "evacuated",
        "netherlands_surrendered",
        "switzerland_invaded",
    ] {
        assert!(stats["figures"][figure].is_number(), "{figure}: {one}");
    }
}

/// Game i of a batch alone (`--seed-range i..i+1`) may be logged, saved or recorded: it is
/// played with the seed the batch gives it (printed seeds are past what jq reads exactly).
#[test]
fn one_game_of_a_batch_alone_can_be_logged_and_is_that_game() {
    let dir = tempfile::tempdir().unwrap();
    let per_game = dir.path().join("games.jsonl");
    ok(&[
        "run",
        "scenarios/demo",
        "--seed",
        "9",
        "--games",
        "4",
        "--per-game",
        per_game.to_str().unwrap(),
        "--quiet",
    ]);
    let third: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&per_game)
            .unwrap()
            .lines()
            .nth(2)
            .unwrap(),
    )
    .unwrap();
    let log = dir.path().join("g2.jsonl");
    let alone: serde_json::Value = serde_json::from_str(&ok(&[
        "run",
        "scenarios/demo",
        "--seed",
        "9",
        "--seed-range",
        "2..3",
        "--log",
        log.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    assert_eq!(alone["seed"].as_u64(), third["seed"].as_u64());
    assert_eq!(alone["commands"], third["commands"]);
    assert_eq!(alone["outcome"]["winner"], third["winner"]);
    assert!(std::fs::read_to_string(&log).unwrap().lines().count() > 10);
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--seed-range",
        "2..4",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --replay, --save, --log and --turns are for single games, not batches (a batch's \
         game i alone: --seed-range i..i+1)\n"
    );
}

/// The per-game files `a.jsonl` and `b.jsonl` in `dir` of two batches of `games` games, base
/// seed 9, of the two scenarios.
fn two_batches(
    dir: &std::path::Path,
    scenarios: [&str; 2],
    games: &str,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    for (path, scenario) in [(&a, scenarios[0]), (&b, scenarios[1])] {
        ok(&[
            "run",
            scenario,
            "--seed",
            "9",
            "--games",
            games,
            "--per-game",
            path.to_str().unwrap(),
            "--quiet",
        ]);
    }
    (a, b)
}

/// `stats compare`: two batches (a scenario and its variant, one base seed) side by side, each
/// side's win rate B minus A with its interval, paired game by game.
#[test]
fn stats_compare_sets_a_variant_beside_its_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_batches(dir.path(), ["scenarios/demo", "scenarios/demo-mud"], "12");
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "stats",
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["scenario_a"], "demo");
    assert_eq!(json["scenario_b"], "demo-mud");
    assert_eq!(
        (json["games_a"].as_u64(), json["paired_games"].as_u64()),
        (Some(12), Some(12))
    );
    // the wins are each batch's own statistics
    for (path, key) in [(&a, "wins_a"), (&b, "wins_b")] {
        let stats: serde_json::Value =
            serde_json::from_str(&ok(&["stats", "merge", path.to_str().unwrap(), "--json"]))
                .unwrap();
        for side in ["blue", "red"] {
            assert_eq!(
                json["sides"][side][key], stats["sides"][side]["wins"],
                "{side} {key}"
            );
        }
    }
    let red = &json["sides"]["red"];
    let difference = red["difference"].as_f64().unwrap();
    let (low, high) = (
        red["difference_95"][0].as_f64().unwrap(),
        red["difference_95"][1].as_f64().unwrap(),
    );
    assert!(low <= difference && difference <= high, "{red}");
    let text = ok(&["stats", "compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(
        text.starts_with("A: demo (12 games)  B: demo-mud (12 games)  paired by seed: 12 games\n"),
        "{text}"
    );
    assert!(text.contains("       red: win rate A "), "{text}");
    assert!(text.contains("same winner in "), "{text}");
}

/// `stats compare` of two games with no side in common (the demo and Diplomacy) is refused: it
/// printed every side at 0% in the batch that lacks it, exit 0.
#[test]
fn stats_compare_refuses_games_with_no_side_in_common() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_batches(dir.path(), ["scenarios/demo", "scenarios/diplomacy"], "2");
    let out = hexwar(&["stats", "compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {} and {} have no side in common (demo plays blue, red; diplomacy plays \
             AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY): nothing to compare\n",
            a.display(),
            b.display()
        )
    );
}

/// A file added to a rules module's folder (a variant kept beside the rules) is no change to
/// a recorded game: its replay still verifies.
#[test]
fn a_file_new_beside_the_rules_does_not_stop_a_replay() {
    let (dir, scenario) = demo_copy();
    let path = record(dir.path(), scenario.to_str().unwrap(), "4");
    std::fs::create_dir_all(dir.path().join("rules/demo/variants")).unwrap();
    std::fs::write(
        dir.path().join("rules/demo/variants/easy.lua"),
        "return {}\n",
    )
    .unwrap();
    let out = hexwar(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Rules that fail to load when a replay runs (here a module the rules look for appears
/// beside them after the recording) show what their modules printed first, as `run` does: the
/// `script:` lines were lost.
#[test]
fn a_replay_whose_rules_fail_to_load_shows_what_they_printed() {
    let (dir, scenario) = demo_copy();
    let init = dir.path().join("rules/demo/init.lua");
    let text = std::fs::read_to_string(&init).unwrap();
    std::fs::write(
        &init,
        format!(
            "{text}\nif pcall(require, \"demo.extra\") then error(\"demo.extra is no part of these rules\") end\n"
        ),
    )
    .unwrap();
    let path = record(dir.path(), scenario.to_str().unwrap(), "4");
    std::fs::write(
        dir.path().join("rules/demo/extra.lua"),
        "print(\"extra loaded\")\nreturn true\n",
    )
    .unwrap();
    let out = hexwar(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("script: extra loaded\nerror: loading rules module 'demo': ")
            && err.ends_with(": demo.extra is no part of these rules\n"),
        "{err}"
    );
}

#[test]
fn a_batch_past_ten_million_games_is_refused_and_huge_turn_counts_play_to_the_end() {
    for count in [
        ["--games", "18446744073709551615"],
        ["--seed-range", "0..18446744073709551615"],
    ] {
        let out = hexwar(&["run", "scenarios/demo", count[0], count[1]]);
        assert_eq!(out.status.code(), Some(2), "{count:?}");
        assert_eq!(
            stderr(&out),
            "error: a batch plays at most 10000000 games (18446744073709551615 asked): split it with --seed-range and join the --per-game files with `hexwar stats merge`\n"
        );
    }
    // (more workers than games: as many as the games, the same results; more than 256 is
    // refused)
    let many = ok(&[
        "run",
        "scenarios/demo",
        "--games",
        "2",
        "--jobs",
        "200",
        "--json",
    ]);
    let out = hexwar(&["run", "scenarios/demo", "--games", "2", "--jobs", "30000"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --jobs 30000: a batch starts at most 256 workers\n"
    );
    let one = ok(&[
        "run",
        "scenarios/demo",
        "--games",
        "2",
        "--jobs",
        "1",
        "--json",
    ]);
    assert_eq!(many, one);
    // (`--turns` past the last turn used to wrap around and play nothing)
    let whole = ok(&["run", "scenarios/demo", "--seed", "4"]);
    let far = ok(&[
        "run",
        "scenarios/demo",
        "--seed",
        "4",
        "--turns",
        "4294967295",
    ]);
    assert_eq!(far, whole);
}

/// Ctrl-C (SIGINT) in a batch starts no more games: the games under way finish, the statistics
/// and the per-game file are of the games played, stderr names the games left (as
/// `--seed-range` shards), exit 130. An interrupted batch printed and kept nothing.
#[cfg(unix)]
#[test]
fn an_interrupted_batch_reports_the_games_it_played() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.jsonl");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args([
            "run",
            "scenarios/demo",
            "--games",
            "5000",
            "--jobs",
            "2",
            "--quiet",
        ])
        .arg("--per-game")
        .arg(&records)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let text = stdout(&out);
    let played: usize = text
        .lines()
        .next()
        .and_then(|l| l.rsplit("games: ").next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(played > 0 && played < 5000, "{played}");
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "interrupted: finishing the 2 games under way (Ctrl-C again stops at once)\n\
             warning: interrupted: {played} of 5000 games played; the statistics and any \
             --per-game file are of those; the rest: --seed-range "
        )),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&records).unwrap().lines().count(),
        played
    );
}
