//! A person plays one side against the bots, turn by turn, through files (play by email):
//! `hexwar run SAVE --until-side SIDE --save NEXT` lets the bots play until that side is to give
//! a command; `hexwar play NEXT --orders FILE --save AFTER` gives the person's orders and keeps
//! the game for the next round.

mod common;

use common::{hexwar, stderr, stdout};
use serde_json::{json, Value};

fn json(out: &std::process::Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    serde_json::from_str(&stdout(out)).unwrap()
}

fn save_state(path: &std::path::Path) -> Value {
    let save: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    save["state"].clone()
}

#[test]
fn a_person_plays_blue_against_the_demo_bot_through_saves() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let path = |name: &str| at(name).to_str().unwrap().to_string();
    // Blue moves first: the run stops at once, before any command.
    let first = json(&hexwar(&[
        "run",
        "scenarios/demo",
        "--until-side",
        "blue",
        "--save",
        &path("turn1.json"),
        "--json",
    ]));
    assert_eq!(first["waiting_for"], "blue");
    assert_eq!(first["commands"], 0);
    std::fs::write(
        at("blue.toml"),
        "[[order]]\ncommand = \"move\"\nunit = \"b-inf-1\"\npath = [\"0202\"]\n\
         [[order]]\ncommand = \"end_phase\"\n[[order]]\ncommand = \"end_phase\"\n",
    )
    .unwrap();
    let played = hexwar(&[
        "play",
        &path("turn1.json"),
        "--orders",
        &path("blue.toml"),
        "--save",
        &path("after.json"),
    ]);
    assert_eq!(played.status.code(), Some(0), "{}", stderr(&played));
    let after = save_state(&at("after.json"));
    assert_eq!(after["units"]["b-inf-1"]["at"], "0202");
    // Blue's movement and combat are over: red's phases are the bot's, up to blue's next turn.
    let red_start = after["units"]["r-inf-1"]["at"].clone();
    let second = json(&hexwar(&[
        "run",
        &path("after.json"),
        "--until-side",
        "blue",
        "--save",
        &path("turn2.json"),
        "--json",
    ]));
    assert_eq!(second["waiting_for"], "blue");
    assert_eq!(second["turn"], 2);
    let turn2 = save_state(&at("turn2.json"));
    assert_eq!(turn2["turn"], 2);
    assert_eq!(turn2["step"], 0);
    assert_eq!(
        turn2["units"]["b-inf-1"]["at"], "0202",
        "blue's unit waits for its player"
    );
    let red_moved = ["r-inf-1", "r-inf-2", "r-arm-1", "r-mtn-1"]
        .iter()
        .any(|id| turn2["units"][id]["at"] != after["units"][id]["at"]);
    assert!(red_moved, "the red bot played its turn ({red_start} ...)");
    // The text summary says who is to play, and where.
    let text = hexwar(&["run", &path("turn2.json"), "--until-side", "blue"]);
    assert!(
        stdout(&text).contains("waiting for blue to play: turn 2, movement (blue)\n"),
        "{}",
        stdout(&text)
    );
}

#[test]
fn a_person_plays_england_while_the_bots_order_the_other_powers() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("s1901.json");
    let orders = dir.path().join("england.toml");
    let waiting = json(&hexwar(&[
        "run",
        "scenarios/diplomacy",
        "--until-side",
        "ENGLAND",
        "--save",
        save.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(waiting["waiting_for"], "ENGLAND");
    std::fs::write(
        &orders,
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\n\
         ENGLAND = [\"F LON - NTH\", \"F EDI - NWG\", \"A LVP - YOR\"]\n",
    )
    .unwrap();
    let out = hexwar(&[
        "play",
        save.to_str().unwrap(),
        "--orders",
        orders.to_str().unwrap(),
        "--json",
    ]);
    // (England's own orders replace none: the bots gave the others')
    assert_eq!(stderr(&out), "");
    let played = json(&out);
    let results = played[0]["results"].as_array().unwrap();
    // Every power's units were ordered: England's three by the person, the rest by the bots.
    assert_eq!(results.len(), 22);
    let english: Vec<(&str, &Value)> = results
        .iter()
        .filter(|r| r["power"] == "ENGLAND")
        .map(|r| (r["order"].as_str().unwrap(), &r["flags"]))
        .collect();
    assert_eq!(
        english,
        [
            ("A LVP - YOR", &serde_json::json!([])),
            ("F EDI - NWG", &serde_json::json!([])),
            ("F LON - NTH", &serde_json::json!([])),
        ]
    );
    assert!(results
        .iter()
        .any(|r| r["power"] != "ENGLAND" && !r["order"].as_str().unwrap().ends_with(" H")));
}

/// A `[[phase]]` file that orders another power too replaces that power's bot orders, which the
/// save holds: play says so (the player's file had been tied to nothing).
#[test]
fn orders_for_a_power_whose_bot_ordered_are_said_to_replace_them() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("s1901.json");
    let orders = dir.path().join("both.toml");
    let run = hexwar(&[
        "run",
        "scenarios/diplomacy",
        "--seed",
        "3",
        "--until-side",
        "ENGLAND",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // (the other powers have ordered in this step: not "the start of turn 1")
    assert!(
        stdout(&run).contains(
            "\nstopped in turn 1 of 10 (not finished)\nwaiting for ENGLAND to play: turn 1, S1901M\n"
        ),
        "{}",
        stdout(&run)
    );
    std::fs::write(
        &orders,
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\n\
         ENGLAND = [\"F LON - NTH\"]\nFRANCE = [\"A PAR - BUR\"]\n",
    )
    .unwrap();
    let out = hexwar(&[
        "play",
        save.to_str().unwrap(),
        "--orders",
        orders.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "note: {}:1: FRANCE had given 3 order(s) in S1901M already; the file's orders \
             replace them\n",
            orders.display()
        )
    );
}

#[test]
fn until_side_names_a_side_of_the_scenario_and_plays_one_game() {
    let out = hexwar(&["run", "scenarios/demo", "--until-side", "green"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --until-side: unknown side 'green' (sides: blue, red)\n"
    );
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--until-side",
        "blue",
        "--games",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --until-side stops one game for a person to play a side: not with --games or --seed-range\n"
    );
}

/// `--stop-on-refusal`: a refused order (a mistyped unit) stops the file there, so the
/// `end_phase` after it does not cost the person their move; with `--save` the game is saved
/// where it stopped, still in the person's phase.
#[test]
fn stop_on_refusal_keeps_the_phase_open_after_a_mistyped_order() {
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("typo.toml");
    let save = dir.path().join("after.json");
    std::fs::write(
        &orders,
        "[[order]]\ncommand = \"move\"\nunit = \"b-inf-9\"\npath = [\"0202\"]\n\
         [[order]]\ncommand = \"end_phase\"\n",
    )
    .unwrap();
    let out = hexwar(&[
        "play",
        "scenarios/demo",
        "--orders",
        orders.to_str().unwrap(),
        "--stop-on-refusal",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "order 1 (blue, move): refused: DEMO-1: no unit b-inf-9\n"
    );
    assert_eq!(
        stderr(&out),
        "stopped at the refused order #1: 1 order(s) after it not played\n"
    );
    let state = save_state(&save);
    assert_eq!(
        (&state["turn"], &state["step"]),
        (&Value::from(1), &Value::from(0))
    );
}

/// The same for a `[[phase]]` file: a power's refused list (an order over 100 characters) stops
/// before the phase is resolved.
#[test]
fn stop_on_refusal_does_not_resolve_a_phase_with_a_refused_order_list() {
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("long.toml");
    let long = format!("A PAR - {}", "B".repeat(100));
    std::fs::write(
        &orders,
        format!(
            "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nFRANCE = [\"{long}\"]\n\
             ENGLAND = [\"F LON - NTH\"]\n"
        ),
    )
    .unwrap();
    let out = hexwar(&[
        "play",
        "scenarios/diplomacy",
        "--orders",
        orders.to_str().unwrap(),
        "--stop-on-refusal",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    // (the phase not resolved, and why: stdout was `[]`)
    assert_eq!(
        stdout(&out).trim(),
        "[{\"phase\":\"S1901M\",\"refused\":[{\"power\":\"FRANCE\",\"reason\":\"order #1 is 108 \
         characters long (an order is at most 100)\",\"rule\":\"DIP-orders\"}],\"stopped\":true}]"
    );
    assert!(
        stderr(&out).ends_with(
            "stopped at phase S1901M: an order list was refused, and the phase is not resolved\n"
        ),
        "{}",
        stderr(&out)
    );
}

/// A simultaneous step where the person's side may only end it (another power's retreat) is
/// resolved without stopping: the run waits at the next step the person has orders for. The
/// power that must retreat is waited for at the retreat itself.
#[test]
fn until_side_passes_a_retreat_phase_the_side_has_no_part_in() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("r.toml");
    std::fs::write(
        &setup,
        "phase = \"S1901R\"\n[units]\nTURKEY = [\"A BUL\"]\nAUSTRIA = [\"A VIE\"]\nFRANCE = [\"A PAR\"]\n\
         [[dislodged]]\npower = \"AUSTRIA\"\nunit = \"A SER\"\nby = \"BUL\"\nretreats = [\"ALB\", \"GRE\", \"TRI\"]\n",
    )
    .unwrap();
    let empty = dir.path().join("empty.toml");
    std::fs::write(&empty, "").unwrap();
    let save = dir.path().join("s.json");
    let out = hexwar(&[
        "play",
        "scenarios/diplomacy",
        "--setup",
        setup.to_str().unwrap(),
        "--orders",
        empty.to_str().unwrap(),
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let france = json(&hexwar(&[
        "run",
        save.to_str().unwrap(),
        "--until-side",
        "FRANCE",
        "--json",
    ]));
    assert_eq!(france["waiting_for"], "FRANCE");
    assert_eq!(france["events"]["PhaseAdjudicated"], 1, "{france}");
    let austria = json(&hexwar(&[
        "run",
        save.to_str().unwrap(),
        "--until-side",
        "AUSTRIA",
        "--json",
    ]));
    assert_eq!(austria["waiting_for"], "AUSTRIA");
    assert_eq!(austria["commands"], 0, "{austria}");
    let status = hexwar(&["status", save.to_str().unwrap()]);
    assert!(
        stdout(&status).contains(": S1901R\n"),
        "{}",
        stdout(&status)
    );
}

/// A run stopped for a power in a simultaneous step records the powers that have ordered there
/// (`sides_done`), and a run resumed from its save does not ask their bots again: asked again,
/// they drew the bots' dice anew and the rest of the game differed from the uninterrupted one.
/// TURKEY is the last power the bots ask, so the two halves' logs are the whole game's, byte
/// for byte. A save naming a side the scenario lacks there is refused.
#[test]
fn a_run_stopped_for_a_power_and_resumed_is_the_uninterrupted_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let whole = hexwar(&[
        "run",
        "scenarios/diplomacy",
        "--seed",
        "1",
        "--quiet",
        "--log",
        &path("whole.jsonl"),
    ]);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    let first = hexwar(&[
        "run",
        "scenarios/diplomacy",
        "--seed",
        "1",
        "--quiet",
        "--until-side",
        "TURKEY",
        "--save",
        &path("t.json"),
        "--log",
        &path("a.jsonl"),
    ]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let save: Value =
        serde_json::from_str(&std::fs::read_to_string(path("t.json")).unwrap()).unwrap();
    assert_eq!(
        save["sides_done"],
        serde_json::json!(["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"])
    );
    let rest = hexwar(&["run", &path("t.json"), "--quiet", "--log", &path("b.jsonl")]);
    assert_eq!(rest.status.code(), Some(0), "{}", stderr(&rest));
    let read = |name: &str| std::fs::read(path(name)).unwrap();
    assert_eq!(
        [read("a.jsonl"), read("b.jsonl")].concat(),
        read("whole.jsonl")
    );

    // Once the step is played (the person's orders given), the list is stale: a save taken
    // then records none, and a run from it asks every power in the next step.
    std::fs::write(
        path("turkey.toml"),
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nTURKEY = [\"A CON - BUL\"]\n",
    )
    .unwrap();
    let played = hexwar(&[
        "play",
        &path("t.json"),
        "--orders",
        &path("turkey.toml"),
        "--save",
        &path("after.json"),
    ]);
    assert_eq!(played.status.code(), Some(0), "{}", stderr(&played));
    let after: Value =
        serde_json::from_str(&std::fs::read_to_string(path("after.json")).unwrap()).unwrap();
    assert_eq!(after["state"]["step"], 2, "S1901R skipped: F1901M");
    assert_eq!(after.get("sides_done"), None);

    let saved = hexwar::engine::Save::read(std::path::Path::new(&path("t.json"))).unwrap();
    saved
        .with_sides_done(vec!["NARNIA".into()])
        .write(std::path::Path::new(&path("narnia.json")))
        .unwrap();
    let out = hexwar(&["status", &path("narnia.json")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with(
            "the save does not fit scenario 'diplomacy': sides_done: unknown side 'NARNIA' \
             (sides: AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY)\n"
        ),
        "{}",
        stderr(&out)
    );
}

/// `run` on a save of a finished game plays nothing and writes no log: the file `--log`
/// names keeps its bytes (an empty log used to replace it), and stderr says why. `--save`
/// writes the game as it stands (a loop of `run a --save b` kept an older `b`).
#[test]
fn run_on_a_finished_save_plays_nothing_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let end = hexwar(&[
        "run",
        "scenarios/demo",
        "--seed",
        "1",
        "--save",
        &path("end.json"),
    ]);
    assert_eq!(end.status.code(), Some(0), "{}", stderr(&end));
    std::fs::write(path("log.jsonl"), "the player's own notes\n").unwrap();
    let again = hexwar(&[
        "run",
        &path("end.json"),
        "--log",
        &path("log.jsonl"),
        "--save",
        &path("again.json"),
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(
        stderr(&again),
        format!(
            "note: the game in {} is already over: nothing was played (--save wrote the game \
             as it stands) and nothing was written (--log)\n",
            path("end.json")
        )
    );
    assert!(stdout(&again).contains("finished after turn 8 of 8\nwinner: red\n"));
    // (nothing played: said as such, not an empty list)
    assert!(
        stdout(&again).ends_with("\ncommands: 0\nevents: none\n"),
        "{}",
        stdout(&again)
    );
    assert_eq!(
        std::fs::read_to_string(path("log.jsonl")).unwrap(),
        "the player's own notes\n"
    );
    assert_eq!(
        std::fs::read_to_string(path("again.json")).unwrap(),
        std::fs::read_to_string(path("end.json")).unwrap()
    );
}

/// `play --log` writes the events a play applied as JSON lines, as `run --log` does, so the logs
/// of the runs and plays of a game by email, joined in order, are the whole game's: here a
/// play from a save logs exactly the events its orders reported, in order.
#[test]
fn play_log_writes_the_events_of_the_play() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--until-side",
        "blue",
        "--save",
        &path("t1.json"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::write(
        path("blue.toml"),
        "[[order]]\ncommand = \"move\"\nunit = \"b-inf-1\"\npath = [\"0202\"]\n\
         [[order]]\ncommand = \"end_phase\"\n",
    )
    .unwrap();
    let played = json(&hexwar(&[
        "play",
        &path("t1.json"),
        "--orders",
        &path("blue.toml"),
        "--json",
        "--log",
        &path("blue.jsonl"),
    ]));
    let reported: Vec<String> = played
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["events"].as_array().unwrap().iter())
        .map(|e| e.to_string())
        .collect();
    let logged: Vec<String> = std::fs::read_to_string(path("blue.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap().to_string())
        .collect();
    assert_eq!(logged, reported);
    assert!(logged[0].contains("\"UnitEnteredHex\""), "{logged:?}");
    assert_eq!(logged.len(), 6, "{logged:?}");
}

/// A run that plays nothing (`--turns 0`) writes the save it was given back as it was: the
/// powers that gave their orders in the step it stopped in stay done. (They were dropped, so
/// the next run asked them again with other dice: the resumed game differed from the whole.)
#[test]
fn a_run_that_plays_nothing_keeps_the_sides_done() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let stopped = hexwar(&[
        "run",
        "scenarios/diplomacy",
        "--seed",
        "5",
        "--until-side",
        "TURKEY",
        "--save",
        &path("turkey.json"),
    ]);
    assert_eq!(stopped.status.code(), Some(0), "{}", stderr(&stopped));
    let again = hexwar(&[
        "run",
        &path("turkey.json"),
        "--turns",
        "0",
        "--save",
        &path("again.json"),
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(name)).unwrap()).unwrap()
    };
    let (before, after) = (read("turkey.json"), read("again.json"));
    assert_eq!(
        before["sides_done"],
        serde_json::json!(["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"])
    );
    assert_eq!(after, before);
}

/// `--turns 0` on a save taken in the middle of a turn plays nothing (it played the rest of
/// the turn, as `--turns 1` does).
#[test]
fn a_run_of_no_turns_from_a_save_taken_mid_turn_plays_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let stopped = hexwar(&[
        "run",
        "scenarios/demo",
        "--until-side",
        "red",
        "--save",
        &path("red.json"),
    ]);
    assert_eq!(stopped.status.code(), Some(0), "{}", stderr(&stopped));
    let again = hexwar(&[
        "run",
        &path("red.json"),
        "--turns",
        "0",
        "--json",
        "--save",
        &path("again.json"),
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    let summary: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        (&summary["commands"], &summary["turn"]),
        (&json!(0), &json!(1))
    );
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    assert_eq!(read("again.json"), read("red.json"));
}
