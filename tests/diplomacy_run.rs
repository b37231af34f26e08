//! `hexwar run` plays Diplomacy headless to the end with random-legal bots, and the generic
//! unit list (GameState.units) mirrors the Diplomacy position after every phase.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{hexwar, stderr, stdout};
use hexwar::bot::{play, RandomBot, RunLimit};
use hexwar::engine::{Dice, GameState};
use hexwar::Session;

/// The board as the position says (units and units waiting to retreat), and as the mirrored
/// unit list says: POWER -> sorted "A PAR" strings.
fn boards(state: &GameState) -> (BTreeMap<String, Vec<String>>, BTreeMap<String, Vec<String>>) {
    let pos = &state.vars["position"];
    let mut want: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (p, l) in pos["units"].as_object().into_iter().flatten() {
        for u in l.as_array().into_iter().flatten() {
            want.entry(p.clone())
                .or_default()
                .push(u.as_str().unwrap().to_string());
        }
    }
    for d in pos["dislodged"].as_array().into_iter().flatten() {
        let p = d["power"].as_str().unwrap().to_string();
        want.entry(p)
            .or_default()
            .push(d["unit"].as_str().unwrap().to_string());
    }
    let mut got: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for u in state.units.values() {
        let letter = if u.kind == "fleet" { "F" } else { "A" };
        let at = u.at.clone().unwrap_or_default();
        got.entry(u.side.clone())
            .or_default()
            .push(format!("{letter} {at}"));
    }
    for l in want.values_mut().chain(got.values_mut()) {
        l.sort();
    }
    want.retain(|_, l| !l.is_empty());
    (want, got)
}

fn play_mirrored(scenario: &str, seed: u64) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut s = Session::start(&root.join(scenario), Some(seed)).unwrap();
    let sides = s.scenario.sides.clone();
    let mut bot = RandomBot::new(Dice::new(seed));
    let mut phases = 0;
    while !s.game.is_over() {
        let turn = s.game.state().turn;
        play(
            &mut s.game,
            &mut bot,
            &sides,
            RunLimit::BeforeTurn(turn + 1),
        )
        .unwrap();
        let (want, got) = boards(s.game.state());
        assert_eq!(
            got, want,
            "{scenario} seed {seed}: mirror differs after turn {turn}"
        );
        phases += 1;
    }
    assert_eq!(phases, 10, "ten years");
    let adjudicated = s
        .game
        .log()
        .iter()
        .filter(|e| e.name() == "PhaseAdjudicated")
        .count();
    assert!(adjudicated >= 20, "{adjudicated} phases adjudicated");
}

#[test]
fn units_mirror_the_position_in_standard_games() {
    for seed in [1, 2, 3] {
        play_mirrored("scenarios/diplomacy", seed);
    }
}

#[test]
fn units_mirror_the_position_in_variant_games() {
    for seed in [1, 2] {
        play_mirrored("scenarios/diplomacy-francqueville", seed);
    }
}

#[test]
fn hexwar_run_plays_to_the_end_deterministically() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    for log in [&a, &b] {
        let out = hexwar(&[
            "run",
            "scenarios/diplomacy",
            "--seed",
            "5",
            "--json",
            "--log",
            log.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let summary: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(summary["finished"], true);
        assert_eq!(summary["turn"], 10);
        assert!(summary["events"]["PhaseAdjudicated"].as_u64().unwrap() >= 20);
        assert!(
            summary["events"]["UnitMoved"].as_u64().unwrap() > 50,
            "bots move units"
        );
        let scores = summary["outcome"]["scores"].as_object().unwrap();
        let total: f64 = scores.values().filter_map(|v| v.as_f64()).sum();
        assert!((22.0..=34.0).contains(&total), "centres held: {total}");
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    every_report_list_is_an_array(&std::fs::read_to_string(&a).unwrap());
    let out = hexwar(&["run", "scenarios/diplomacy-francqueville", "--seed", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("finished after turn 10 of 10"),
        "{}",
        stdout(&out)
    );
}

/// The log's phase reports write every list as a JSON array, empty ones as `[]` (the glue marks
/// them with `hex.state.list`; an empty Lua table would read as `{}`).
fn every_report_list_is_an_array(log: &str) {
    let mut reports = 0;
    let (mut empty_flags, mut empty_top) = (0, 0);
    for line in log.lines() {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        if event["name"] != "PhaseAdjudicated" {
            continue;
        }
        reports += 1;
        let data = &event["data"];
        for key in ["results", "dislodged", "disbanded"] {
            let list = data[key]
                .as_array()
                .unwrap_or_else(|| panic!("{key}: {line}"));
            empty_top += usize::from(list.is_empty());
        }
        for entry in data["results"].as_array().unwrap() {
            let flags = entry["flags"]
                .as_array()
                .unwrap_or_else(|| panic!("{line}"));
            empty_flags += usize::from(flags.is_empty());
        }
        for d in data["dislodged"].as_array().unwrap() {
            assert!(d["retreats"].is_array(), "{line}");
        }
        for key in ["units", "centers"] {
            for (power, list) in data[key].as_object().unwrap() {
                assert!(list.is_array(), "{key}.{power}: {line}");
            }
        }
    }
    assert!(reports >= 20 && empty_flags > 0 && empty_top > 0);
}

/// A phase's `PhaseEnded` names it as its `PhaseStarted` did ("S1901M"): the end carried the
/// step's name ("spring movement"), so a host pairing the two by `phase` found no pair.
#[test]
fn phase_ended_names_the_phase_as_phase_started_did() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut s = Session::start(&root.join("scenarios/diplomacy"), Some(1)).unwrap();
    let sides = s.scenario.sides.clone();
    let mut bot = RandomBot::new(Dice::new(1));
    play(&mut s.game, &mut bot, &sides, RunLimit::BeforeTurn(2)).unwrap();
    let phases: Vec<(&str, String)> = s
        .game
        .log()
        .iter()
        .filter_map(|e| match e {
            hexwar::engine::Event::PhaseStarted { phase, .. } => Some(("started", phase.clone())),
            hexwar::engine::Event::PhaseEnded { phase, .. } => Some(("ended", phase.clone())),
            _ => None,
        })
        .collect();
    let expected: Vec<(&str, String)> = ["S1901M", "F1901M", "W1901A"]
        .into_iter()
        .flat_map(|p| [("started", p.to_string()), ("ended", p.to_string())])
        .chain([("started", "S1902M".to_string())])
        .collect();
    // (seed 1 dislodges nobody in 1901: both retreat phases are skipped)
    assert_eq!(phases, expected);
}

/// A rules error at the end of a simultaneous phase (a variant whose `after_movement` fails)
/// stops `run` with the save written; running that save again meets the same error and writes
/// the same save: the powers that gave their orders are recorded as done (`sides_done`), so
/// their bots are not asked again with other dice (the bots' dice moved 28 -> 35 -> 42).
#[test]
fn a_save_stopped_by_a_failing_phase_end_is_written_again_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("failing");
    std::fs::create_dir(&scenario).unwrap();
    let root = std::env::current_dir().unwrap();
    let text = std::fs::read_to_string("tests/fixtures/diplomacy_no_convoy/scenario.toml")
        .unwrap()
        .replace("../../../", &format!("{}/", root.display()))
        .replace("\"no_convoy\"", "\"failing\"");
    std::fs::write(scenario.join("scenario.toml"), text).unwrap();
    std::fs::write(
        scenario.join("failing.lua"),
        "return require(\"diplomacy\").variant({ after_movement = function() error(\"after_movement fails\") end })\n",
    )
    .unwrap();
    let saves: Vec<String> = (1..=3)
        .map(|i| {
            dir.path()
                .join(format!("s{i}.json"))
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let mut from = scenario.to_str().unwrap().to_string();
    for save in &saves {
        let out = hexwar(&["run", &from, "--save", save]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("after_movement fails"),
            "{}",
            stderr(&out)
        );
        from = save.clone();
    }
    let read = |path: &str| std::fs::read_to_string(path).unwrap();
    let first: serde_json::Value = serde_json::from_str(&read(&saves[0])).unwrap();
    assert_eq!(
        first["sides_done"],
        serde_json::json!(["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"])
    );
    // (compared without printing them: a save is some 20 kB)
    assert!(
        read(&saves[1]) == read(&saves[0]),
        "the second save differs"
    );
    assert!(read(&saves[2]) == read(&saves[0]), "the third save differs");
}

/// A resumed save whose position variable was edited by hand (and sealed again) is refused by
/// the rules naming what is wrong with it; it failed as `attempt to index a number value` in
/// some listing, or was listed with no orders at all.
#[test]
fn a_hand_edited_position_is_named_as_such() {
    let mut session = Session::start(Path::new("scenarios/diplomacy"), Some(1)).expect("starts");
    session.play_bots(RunLimit::BeforeTurn(2)).expect("a year");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("edited.json");
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit, &str); 3] = [
        (
            "phase 5",
            |p| p["phase"] = serde_json::json!(5),
            "phase '5' must look like S1901M, F1901R, W1901A",
        ),
        (
            "units a string",
            |p| p["units"] = serde_json::json!("A PAR"),
            "units must be a table POWER = {...}",
        ),
        (
            "a power of no map",
            |p| p["units"]["MORDOR"] = serde_json::json!(["A PAR"]),
            "units: 'MORDOR' is not a power of the map",
        ),
    ];
    for (what, edit, why) in cases {
        let mut save = session.to_save();
        let mut position = (*save.state.vars["position"]).clone();
        edit(&mut position);
        save.state.vars.insert("position".into(), position.into());
        std::fs::write(&file, save.with_sides_done(Vec::new()).to_json()).unwrap();
        // (the bots' menu reads only the parts of the position it needs: a power of no map
        // is no concern of FRANCE's orders)
        let commands: &[&str] = if what == "a power of no map" {
            &["status"]
        } else {
            &["status", "legal"]
        };
        for &command in commands {
            let out = hexwar(&[command, file.to_str().unwrap(), "--side", "FRANCE"]);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{what}, {command}: {}",
                stdout(&out)
            );
            let expected = format!(
                "the game's position (the state's variable `position`) is not one: {why} (a save edited by hand?)"
            );
            assert!(
                stderr(&out).contains(&expected),
                "{what}, {command}: {}",
                stderr(&out)
            );
        }
    }
}

/// A save whose position was edited and sealed again with units where the rules let none stand
/// (an army at sea, two units in a province) is refused as it is resumed or checked, by the
/// rules' `position_problems` query, as a setup holding them is; it was played on.
#[test]
fn a_resealed_position_with_impossible_units_is_refused() {
    let session = Session::start(Path::new("scenarios/diplomacy"), Some(1)).expect("starts");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("edited.json");
    for (units, why) in [
        (
            serde_json::json!({"FRANCE": ["A PAR", "A MAO"]}),
            "[units].FRANCE: unit 'A MAO': an army cannot stand at sea",
        ),
        (
            serde_json::json!({"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}),
            "[units].GERMANY: 'A PAR': PAR already holds FRANCE's A PAR (one unit a province)",
        ),
    ] {
        let mut save = session.to_save();
        let mut position = (*save.state.vars["position"]).clone();
        position["units"] = units;
        save.state.vars.insert("position".into(), position.into());
        std::fs::write(&file, save.with_sides_done(Vec::new()).to_json()).unwrap();
        let expected = format!(
            "error: {}: the save does not fit scenario 'diplomacy': the rules find its position \
             impossible: {why}\n",
            file.display()
        );
        for command in ["status", "run", "check"] {
            let out = hexwar(&[command, file.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(2), "{command}: {}", stdout(&out));
            assert!(
                stderr(&out).starts_with(&expected),
                "{command}: {}",
                stderr(&out)
            );
        }
    }
}

/// A scenario whose start position is written in the rules' own terms (`[vars.position]`) is
/// judged as a save's is (it was played with an army at sea and a fleet inland), and a setup's
/// `[vars.position]`, which the module's setup writes over from the setup's `[units]`, is
/// refused instead of ignored.
#[test]
fn a_start_or_setup_position_given_as_vars_is_judged_or_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let scenario = std::fs::read_to_string(root.join("scenarios/diplomacy/scenario.toml"))
        .unwrap()
        .replace(
            "map = \"map.toml\"",
            &format!(
                "map = \"{}/scenarios/diplomacy/map.toml\"\nrule_roots = [\"{}/rules\"]",
                root.display(),
                root.display()
            ),
        );
    let position = "\n[vars.position]\nphase = \"S1901M\"\n\
                    units = { FRANCE = [\"A NTH\", \"A PAR\"] }\ncenters = { FRANCE = [\"PAR\"] }\n";
    let file = dir.path().join("scenario.toml");
    std::fs::write(&file, format!("{scenario}{position}")).unwrap();
    let out = hexwar(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).starts_with(&format!(
            "error: the game does not start: {}: the start position: the rules find its \
             position impossible: [units].FRANCE: unit 'A NTH': an army cannot stand at sea\n",
            file.display()
        )),
        "{}",
        stderr(&out)
    );
    // (a unit waiting to retreat is judged too: an army "retreating" from MUN to NAP was played)
    let retreat = "\n[vars.position]\nphase = \"S1901R\"\nunits = { FRANCE = [\"A MUN\"] }\n\
                   dislodged = [ { by = \"BUR\", power = \"GERMANY\", retreats = [\"NAP\"], unit = \"A MUN\" } ]\n";
    std::fs::write(&file, format!("{scenario}{retreat}")).unwrap();
    let out = hexwar(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains(
            "the rules find its position impossible: dislodged #1: 'A MUN' cannot retreat to NAP \
             (no army move from MUN)\n"
        ),
        "{}",
        stderr(&out)
    );
    let setup = dir.path().join("setup.toml");
    std::fs::write(&setup, position.trim_start()).unwrap();
    let out = hexwar(&[
        "status",
        "scenarios/diplomacy",
        "--setup",
        setup.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}:1: setup refused: setup: [vars].position: the rules' setup writes \
             'position' itself, from the setup's other keys: give the position as the rules \
             read it\n",
            setup.display()
        )
    );
}
