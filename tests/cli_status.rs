//! `hexwar status`: where a game stands (turn, phase, who is to play, the score now, every unit
//! on the map and out of play), for a person playing through saves.

mod common;

use common::{hexwar, stderr, stdout};
use serde_json::{json, Value};

#[test]
fn status_lists_the_position_and_every_unit() {
    let out = hexwar(&["status", "scenarios/demo"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "Demo: the river valley (demo), turn 1 of 8: movement (blue)\n\
         to play: blue\n\
         blue: 4 unit(s)\n\
         \x20 b-arm-1 0103 XX armor strength 4 MA 6\n\
         \x20 b-art-1 0203 III artillery strength 2 MA 3\n\
         \x20 b-inf-1 0102 XX infantry strength 3 MA 4\n\
         \x20 b-inf-2 0204 XX infantry strength 3 MA 4\n\
         red: 4 unit(s)\n\
         \x20 r-arm-1 1207 XX armor strength 4 MA 6\n\
         \x20 r-inf-1 1208 XX infantry strength 3 MA 4\n\
         \x20 r-inf-2 1109 XX infantry strength 3 MA 4\n\
         \x20 r-mtn-1 1110 XX mountain strength 3 MA 4\n"
    );
}

/// In the facing games every unit's facing is shown (TA-R1: an edge 0-5, a vertex for a
/// phalanx; a two-base unit's pair, TAC-4); a leader has none (TA-R2).
#[test]
fn status_shows_the_facings() {
    let out = hexwar(&["status", "scenarios/tactical"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("\n  b-col-1 0304 colonial strength 3 MA 4 facing 0,5\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  b-ldr-1 0204 leader strength 0 MA 6\n"),
        "{text}"
    );
    let out = hexwar(&["status", "scenarios/tactical", "--json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let unit = |id: &str| {
        json["units"]["british"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        (
            unit("b-col-1")["facing"].clone(),
            unit("b-col-1")["facing2"].clone()
        ),
        (json!(0), json!(5))
    );
    assert_eq!(unit("b-inf-1")["facing"], json!(0));
    assert!(unit("b-ldr-1").get("facing").is_none());
}

/// France 1940 answers a `score` query (victory.lua: the points as they would be counted now):
/// at the start the Allies hold every scoring city.
#[test]
fn status_gives_the_score_now_and_the_units_out_of_play() {
    let out = hexwar(&[
        "status",
        "scenarios/france1940",
        "--side",
        "german",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let s: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(s["score"], json!({"allied": 24, "german": 0}));
    assert_eq!(s["to_play"], "german");
    assert_eq!(s["position"], "turn 1, movement (german)");
    assert_eq!(
        s["units"].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["german"]
    );
    assert_eq!(s["units"]["german"].as_array().unwrap().len(), 46);
    // the German reserves wait in their pool
    let gone = s["gone"]["german"].as_array().unwrap();
    assert_eq!(gone.len(), 18);
    assert!(gone
        .iter()
        .all(|g| g["reason"] == "pool" && g["eliminated"] == false));
}

/// France 1940's own status (its `status` query, status.lua): the assault and its movement
/// allowance, where each country stands and the points by what scores them; a finished game
/// says it is over, gives the final score and no assault.
#[test]
fn f40_status_gives_the_assault_the_countries_and_the_points() {
    let out = hexwar(&["status", "scenarios/france1940", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let s: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        s["rules_status"],
        json!({
            "assault": "the only one of turn 1 (F40-18.1)",
            "countries": {
                "belgium": "neutral",
                "luxembourg": "neutral",
                "netherlands": "neutral",
                "switzerland": "neutral"
            },
            "victory points now": {
                "allied": "24 (cities 24, units eliminated 0)",
                "german": "0 (cities 0, units eliminated 0)"
            }
        })
    );
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("t3.json");
    let save = save.to_str().unwrap();
    let out = hexwar(&[
        "run",
        "scenarios/france1940",
        "--seed",
        "1",
        "--turns",
        "2",
        "--save",
        save,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&["status", save]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "assault: first: full movement allowance (F40-9.1)\ncountries:\n  belgium: invaded on turn 1, allied\n  luxembourg: invaded on turn 1, allied\n  netherlands: invaded on turn 1, allied\n  switzerland: neutral\nvictory points now:\n  allied: 41 (cities 28, units eliminated 13)\n  german: 19 (cities 1, units eliminated 18)\n"
        ),
        "{text}"
    );
    let end = dir.path().join("end.json");
    let end = end.to_str().unwrap();
    let out = hexwar(&["run", save, "--save", end]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&hexwar(&["status", end]));
    assert!(
        text.starts_with(
            "France 1940: Fall Gelb (france1940), game over in turn 10 of 10\nfinished: german (victory points: german 70, allied 61)\nfinal score: allied 61, german 70\ncountries:\n"
        ),
        "{text}"
    );
    assert!(!text.contains("assault:"), "{text}");
    assert!(
        text.contains("victory points:\n  allied: 61 (cities 23, units eliminated 38)\n"),
        "{text}"
    );
}

#[test]
fn status_refuses_a_side_the_scenario_lacks() {
    let out = hexwar(&["status", "scenarios/demo", "--side", "green"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --side: unknown side 'green' (sides: blue, red)\n"
    );
}

/// A Diplomacy `--setup` file holding `text`, written in `dir`: its path.
fn write_setup(dir: &std::path::Path, text: &str) -> String {
    let setup = dir.join("setup.toml");
    std::fs::write(&setup, text).unwrap();
    setup.to_str().unwrap().to_string()
}

/// `hexwar status scenarios/diplomacy --setup SETUP` with `extra` arguments.
fn diplomacy_status(setup: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["status", "scenarios/diplomacy", "--setup", setup];
    args.extend_from_slice(extra);
    hexwar(&args)
}

/// Diplomacy answers `score` (each power's centres) and `status` (the board in the notation,
/// the centres, the orders given this phase, the builds or disbands due): a player of one
/// power sees what the unit ids alone did not tell (session 25's walkthrough).
#[test]
fn status_shows_what_the_rules_add_diplomacy_centres_and_builds_due() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_setup(dir.path(), "phase = \"W1901A\"\n[units]\nENGLAND = [\"F LON\"]\nFRANCE = [\"A PAR\", \"A BUR\", \"A PIC\", \"F BRE\"]\n\
         [centers]\nENGLAND = [\"LON\", \"EDI\", \"LVP\"]\nFRANCE = [\"PAR\", \"BRE\"]\n");
    let out = diplomacy_status(&setup, &["--side", "ENGLAND"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let head: Vec<&str> = text.lines().take(11).collect();
    assert_eq!(
        head,
        [
            "Diplomacy (standard map) (diplomacy), turn 1 of 10: W1901A",
            // (only the powers with something to order: a GM waits for no one else)
            "to play: ENGLAND, FRANCE (a simultaneous step; AUSTRIA, GERMANY, ITALY, RUSSIA, \
             TURKEY have nothing to order in it)",
            "score now: AUSTRIA 0, ENGLAND 3, FRANCE 2, GERMANY 0, ITALY 0, RUSSIA 0, TURKEY 0",
            "centres:",
            "  ENGLAND: EDI, LON, LVP",
            // (the adjustment phase itself: due now)
            "due this phase:",
            "  ENGLAND: builds 2 (sites: EDI, LVP)",
            "orders given this phase:",
            "  ENGLAND: 0",
            "units:",
            "  ENGLAND: F LON",
        ]
    );
    // England's start units the setup replaced (F EDI, A LVP; F LON stays) are counted, not
    // listed as out of play (they never played in this position); --json keeps them.
    assert!(!text.contains("out of play"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some(
            "(2 unit(s) of the scenario's start replaced by the setup are not listed; --json \
             lists them under \"gone\")"
        )
    );
    let out = diplomacy_status(&setup, &["--json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json["rules_status"]["due this phase"]["FRANCE"],
        "disbands 2"
    );
    assert_eq!(json["rules_status"]["units"]["AUSTRIA"], json!([]));
    assert_eq!(json["score"]["FRANCE"], 2);
}

/// In a retreat phase the unit waiting to retreat still counts for the builds due (Austria: two
/// centres, two units, nothing due; it read "builds 1"), and is shown with who dislodged it and
/// where it may go; a heading whose entries --side leaves out is left out too.
#[test]
fn status_in_a_retreat_phase_counts_and_shows_the_dislodged_unit() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_setup(dir.path(), "phase = \"S1901R\"\n[units]\nTURKEY = [\"A BUL\"]\nAUSTRIA = [\"A VIE\"]\n\
         [centers]\nAUSTRIA = [\"VIE\", \"BUD\"]\nTURKEY = [\"ANK\", \"CON\"]\n\
         [[dislodged]]\npower = \"AUSTRIA\"\nunit = \"A SER\"\nby = \"BUL\"\nretreats = [\"ALB\", \"GRE\", \"TRI\"]\n");
    let out = diplomacy_status(&setup, &["--side", "AUSTRIA"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "dislodged, to retreat:\n  AUSTRIA: A SER (by BUL; retreats: ALB, GRE, TRI)\n"
        ),
        "{text}"
    );
    // (Turkey's builds are due, but --side AUSTRIA shows no heading without an entry)
    assert!(!text.contains("due at the next adjustments"), "{text}");
    let out = diplomacy_status(&setup, &["--json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let due = &json["rules_status"]["due at the next adjustments"];
    assert_eq!(due.get("AUSTRIA"), None, "{due}");
    assert_eq!(due["TURKEY"], "builds 1 (sites: ANK, CON)", "{due}");
    // --side keeps one power's entries in the JSON too (it kept every power's), and lists the
    // scenario's sides, those without units too
    let out = diplomacy_status(&setup, &["--side", "AUSTRIA", "--json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json["rules_status"].get("due at the next adjustments"),
        None
    );
    assert_eq!(
        json["rules_status"]["dislodged, to retreat"],
        json!({"AUSTRIA": ["A SER (by BUL; retreats: ALB, GRE, TRI)"]})
    );
    assert_eq!(
        json["sides"],
        json!(["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"])
    );
    // (the host's `adjustments` query counts the same way: one helper answers both)
    let mut session = hexwar::Session::start(std::path::Path::new("scenarios/diplomacy"), None)
        .expect("the scenario starts");
    session.setup_file(std::path::Path::new(&setup)).unwrap();
    let adjustments = session
        .game
        .query("adjustments", &Value::Null)
        .unwrap()
        .unwrap();
    assert_eq!(
        adjustments["AUSTRIA"],
        json!({"centers": 2, "units": 2, "change": 0, "build_sites": []})
    );
}

/// A setup file that sets nothing (empty, or cut down to its comments) is most likely a slip:
/// the command goes on, with a warning naming the file.
#[test]
fn an_empty_setup_is_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    for text in ["", "# only a comment\n\n"] {
        let setup = write_setup(dir.path(), text);
        let out = hexwar(&["status", "scenarios/demo", "--setup", &setup]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "warning: {setup}: the setup sets nothing (it has no keys): the position is the \
                 scenario's or the save's as it stands\n"
            )
        );
    }
    // (a setup that sets something says nothing)
    let setup = write_setup(dir.path(), "[control]\nred = [\"0101\"]\n");
    let out = hexwar(&["status", "scenarios/demo", "--setup", &setup]);
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
}

/// Units out of play are listed as those on the map are, ids in natural order (`fr-2-di`
/// before `fr-13-di`; they were sorted as text, `fr-16-di, fr-19-di, fr-2-di`).
#[test]
fn status_lists_units_out_of_play_in_natural_order() {
    let out = hexwar(&["status", "scenarios/france1940", "--side", "german"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let pool = text
        .lines()
        .find(|l| l.starts_with("  pool: "))
        .unwrap_or_default();
    assert!(
        pool.starts_with("  pool: de-1-geb, de-8-id, de-11-sbr, de-28-id, de-44-id, de-62-id, de-87-id, de-291-id, de-i-ak,"),
        "{pool}"
    );
}

/// A save a run stopped for one power in a simultaneous step names who is still to play (it
/// said "every side", though the others had given their orders).
#[test]
fn status_of_a_save_waiting_for_one_power_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("england.json");
    let save = save.to_str().unwrap();
    let out = hexwar(&[
        "run",
        "scenarios/diplomacy",
        "--until-side",
        "ENGLAND",
        "--save",
        save,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&["status", save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).lines().nth(1),
        Some(
            "to play: ENGLAND (a simultaneous step; AUSTRIA, FRANCE, GERMANY, ITALY, RUSSIA, \
             TURKEY gave their orders)"
        )
    );
    // The JSON says it too (`to_play` names only a phasing side), with the phase as orders
    // files write it; `legal` lists that power's orders without --side.
    let out = hexwar(&["status", save, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        [&json["phase"], &json["to_play"], &json["waiting"]],
        [
            &serde_json::json!("S1901M"),
            &serde_json::Value::Null,
            &serde_json::json!(["ENGLAND"])
        ]
    );
    let out = hexwar(&["legal", save, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        [&json["side"], &json["phase"], &json["commands"][0]],
        [
            &serde_json::json!("ENGLAND"),
            &serde_json::json!("S1901M"),
            &serde_json::json!({"command": "order", "order": "A LVP H", "power": "ENGLAND"})
        ]
    );
}

/// `status --json` gives the phase as orders files and setups name it, and who is to play:
/// the phasing side in a hex game, every power in a fresh Diplomacy step, nobody at the end.
#[test]
fn status_json_gives_the_phase_and_who_is_waiting() {
    let of = |args: &[&str]| -> serde_json::Value {
        let out = hexwar(args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        serde_json::json!([json["phase"], json["to_play"], json["waiting"]])
    };
    assert_eq!(
        of(&["status", "scenarios/demo", "--json"]),
        serde_json::json!(["movement", "blue", ["blue"]])
    );
    assert_eq!(
        of(&["status", "scenarios/diplomacy", "--json"]),
        serde_json::json!([
            "S1901M",
            null,
            ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
        ])
    );
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("end.json");
    let out = hexwar(&["run", "scenarios/demo", "--save", save.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        of(&["status", save.to_str().unwrap(), "--json"]),
        serde_json::json!([null, null, []])
    );
}

/// A finished game whose rules answer no `score` query (the demo) shows the outcome's scores
/// as its final score; `status` of a finished demo save had no score line at all.
#[test]
fn a_finished_game_without_a_score_query_shows_the_outcomes_scores() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("done.json");
    let save = save.to_str().unwrap();
    let out = hexwar(&["run", "scenarios/demo", "--seed", "1", "--save", save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&["status", save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(
        lines,
        [
            "Demo: the river valley (demo), game over in turn 8 of 8",
            "finished: red (DEMO-7: objectives held and enemy units eliminated)",
            "final score: blue 1, red 11",
        ]
    );
    let out = hexwar(&["status", save, "--json"]);
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["score"], json!({"blue": 1, "red": 11}));
}

/// A France 1940 setup's `[vars]` of another type than the rules keep (`paris_fell = true`)
/// does not stop `status` with a Lua error (it tried to join a boolean to a string).
#[test]
fn f40_status_shows_a_variable_of_another_type() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("fell.toml");
    std::fs::write(&setup, "[vars]\nparis_fell = true\n").unwrap();
    let out = hexwar(&[
        "status",
        "scenarios/france1940",
        "--setup",
        setup.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\nParis fell: on turn true\n"),
        "{}",
        stdout(&out)
    );
}
