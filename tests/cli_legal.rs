//! `hexwar legal`: the commands a side may give now, as the rules list them, each written as an
//! orders file entry (a person copies the one they want).

mod common;

use common::{hexwar, stderr, stdout};
use serde_json::Value;

#[test]
fn legal_lists_one_units_moves_as_orders_entries() {
    let out = hexwar(&["legal", "scenarios/demo", "--unit", "b-art-1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listed: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(listed["side"], "blue");
    assert_eq!(listed["position"], "turn 1, movement (blue)");
    let commands = listed["commands"].as_array().unwrap();
    assert_eq!(commands.len(), 17);
    assert!(commands
        .iter()
        .all(|c| c["command"] == "move" && c["unit"] == "b-art-1"));
    assert_eq!(
        commands[0],
        serde_json::json!({"command": "move", "path": ["0202", "0101"], "unit": "b-art-1"})
    );
    // As text: one entry a line, in the orders file's form.
    let text = hexwar(&["legal", "scenarios/demo", "--unit", "b-art-1"]);
    let lines: Vec<String> = stdout(&text).lines().map(str::to_string).collect();
    assert_eq!(
        lines[0],
        "# blue may give 17 command(s) (turn 1, movement (blue)):"
    );
    assert_eq!(
        lines[1],
        "  { side = \"blue\", command = \"move\", path = [\"0202\", \"0101\"], unit = \"b-art-1\" },"
    );
    // Lines pasted as they are into `order = [ ... ]` are orders `play` accepts.
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("pick.toml");
    std::fs::write(
        &orders,
        format!("order = [\n{}\n{}\n]\n", lines[0], lines[2]),
    )
    .unwrap();
    let played = hexwar(&[
        "play",
        "scenarios/demo",
        "--orders",
        orders.to_str().unwrap(),
    ]);
    assert_eq!(played.status.code(), Some(0), "{}", stderr(&played));
    assert!(
        stdout(&played).starts_with("order 1 (blue, move): ok\n"),
        "{}",
        stdout(&played)
    );
}

/// A command name no command of the rules has is a slip, said with the nearest name (it read
/// "blue has no legal 'atack' command now", exit 0), under --json too (it printed an empty
/// list, exit 0: "no legal moves" to a front-end).
#[test]
fn legal_command_names_a_misspelt_command() {
    for json in [false, true] {
        let mut args = vec!["legal", "scenarios/demo", "--command", "atack"];
        if json {
            args.push("--json");
        }
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(2), "--json: {json}");
        assert_eq!(stdout(&out), "", "--json: {json}");
        assert_eq!(
            stderr(&out),
            "error: --command atack: no command of these rules is called so: did you mean 'attack'? \
             (commands: attack, end_phase, move)\n"
        );
    }
}

#[test]
fn legal_is_empty_outside_the_sides_phase_and_needs_a_side_in_a_simultaneous_step() {
    let out = hexwar(&["legal", "scenarios/demo", "--side", "red"]);
    assert_eq!(
        stdout(&out),
        "# red has no legal command now (turn 1, movement (blue))\n"
    );
    let out = hexwar(&["legal", "scenarios/diplomacy"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --side: every side gives orders in this step (a simultaneous step): name one \
         (AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY)\n"
    );
    // (a retreat phase asks only the power with a unit to retreat, as `status` says: it named
    // all seven)
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("retreat.toml");
    std::fs::write(
        &setup,
        "phase = \"S1901R\"\n[units]\nTURKEY = [\"A BUL\"]\nAUSTRIA = [\"A VIE\"]\n\
         [[dislodged]]\npower = \"AUSTRIA\"\nunit = \"A SER\"\nby = \"BUL\"\nretreats = [\"ALB\"]\n",
    )
    .unwrap();
    let out = hexwar(&[
        "legal",
        "scenarios/diplomacy",
        "--setup",
        setup.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --side: every side gives orders in this step (a simultaneous step): name one \
         (AUSTRIA)\n"
    );
    let out = hexwar(&[
        "legal",
        "scenarios/diplomacy",
        "--side",
        "ENGLAND",
        "--json",
    ]);
    let listed: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(listed["commands"].as_array().unwrap().contains(
        &serde_json::json!({"command": "order", "order": "F LON - NTH", "power": "ENGLAND"})
    ));
    let out = hexwar(&["legal", "scenarios/demo", "--unit", "b-art-2"]);
    assert_eq!(
        stderr(&out),
        "error: --unit: no unit 'b-art-2' in play (did you mean 'b-art-1'?)\n"
    );
    // (a unit named by its place, as reach answers it)
    let out = hexwar(&["legal", "scenarios/demo", "--unit", "0103"]);
    assert_eq!(
        stderr(&out),
        "error: --unit: no unit '0103' in play (units are named by id: the unit at 0103 is 'b-arm-1')\n"
    );
    let out = hexwar(&[
        "render",
        "scenarios/demo",
        "--overlay",
        "reach:b-arm-x",
        "-o",
        "-",
    ]);
    assert_eq!(
        stderr(&out),
        "error: reach overlay: no unit 'b-arm-x' in play (did you mean 'b-arm-1'?)\n"
    );
}

/// Diplomacy's orders name their unit in the order text, not in a `unit` argument: `--unit`
/// finds none of them, and says so instead of "no legal command now", which read as false.
#[test]
fn legal_unit_says_when_the_commands_name_their_units_otherwise() {
    let out = hexwar(&[
        "legal",
        "scenarios/diplomacy",
        "--side",
        "ENGLAND",
        "--unit",
        "ENGLAND-4",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let all = hexwar(&[
        "legal",
        "scenarios/diplomacy",
        "--side",
        "ENGLAND",
        "--json",
    ]);
    let listed: Value = serde_json::from_str(&stdout(&all)).unwrap();
    let n = listed["commands"].as_array().unwrap().len();
    assert_eq!(
        stdout(&out),
        format!(
            "# ENGLAND has no legal command naming 'ENGLAND-4' in a unit argument (turn 1, \
             S1901M): none of its {n} command(s) now (end_phase, order) has a `unit` or `units` \
             argument; leave out --unit to list them\n"
        )
    );
}

/// `--command` with a name none of the side's commands has says which kinds it has (`orders`
/// for Diplomacy's `order`; an attack in a movement phase).
#[test]
fn legal_command_names_the_kinds_there_are() {
    let out = hexwar(&["legal", "scenarios/demo", "--command", "attack"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let all = hexwar(&["legal", "scenarios/demo", "--json"]);
    let listed: Value = serde_json::from_str(&stdout(&all)).unwrap();
    let n = listed["commands"].as_array().unwrap().len();
    assert_eq!(
        stdout(&out),
        format!(
            "# blue has no legal 'attack' command now (turn 1, movement (blue)); it may give {n} of \
             other kinds: end_phase, move\n"
        )
    );
}

/// `--unit` takes a unit off the map: a France 1940 reserve in its pool has `place` commands,
/// which the whole listing gives and `--unit` refused ("no unit in play"). A unit with no
/// command now, where the commands name their units, is said to have none (not that the
/// commands "name their units otherwise", which is Diplomacy's case).
#[test]
fn legal_unit_lists_a_pool_units_place_commands() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("r1.toml");
    std::fs::write(
        &setup,
        "turn = 2\nside = \"allied\"\n[[unit]]\nid = \"de-1-kav\"\nside = \"german\"\n\
         type = \"infantry\"\nsize = \"XX\"\nma = 5\nstrength = 2\nat = \"3201\"\n",
    )
    .unwrap();
    let setup = setup.to_str().unwrap();
    let ask = |extra: &[&str]| {
        let mut args = vec!["legal", "scenarios/france1940", "--setup", setup, "--json"];
        args.extend_from_slice(extra);
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
        let listed: Value = serde_json::from_str(&stdout(&out)).unwrap();
        listed["commands"].as_array().unwrap().clone()
    };
    let all: Vec<Value> = ask(&["--command", "place"])
        .into_iter()
        .filter(|c| c["unit"] == "fr-1-dic")
        .collect();
    assert!(!all.is_empty());
    assert_eq!(ask(&["--unit", "fr-1-dic"]), all);
    // A German unit in the Allied phase: none, said plainly.
    let out = hexwar(&[
        "legal",
        "scenarios/france1940",
        "--setup",
        setup,
        "--unit",
        "de-1-kav",
    ]);
    assert_eq!(
        stdout(&out),
        "# allied has no legal command for 'de-1-kav' now (turn 2, movement (allied))\n"
    );
}

/// A finished game has no side to play: `legal` says the game is over, with its outcome (it
/// asked for a `--side`, as in a simultaneous step, exit 2).
#[test]
fn legal_on_a_finished_game_says_it_is_over() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("end.json");
    let save = save.to_str().unwrap();
    let out = hexwar(&["run", "scenarios/demo", "--seed", "3", "--save", save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&["legal", save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "# the game is over (winner: red; DEMO-7: objectives held and enemy units eliminated): \
         no side gives commands\n"
    );
    let out = hexwar(&["legal", save, "--side", "red", "--json"]);
    assert_eq!(
        serde_json::from_str::<Value>(&stdout(&out)).unwrap(),
        serde_json::json!({"side": "red", "position": "the game is over", "phase": null, "over": true, "commands": []})
    );
    let out = hexwar(&["legal", save, "--side", "purple"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --side: unknown side 'purple' (sides: blue, red)\n"
    );
}

/// `--unit` with `--command` and nothing listed names both (the reply left the command out, as
/// if the unit had no command at all).
#[test]
fn legal_for_a_unit_and_a_command_with_none_names_both() {
    let out = hexwar(&[
        "legal",
        "scenarios/france1940",
        "--unit",
        "de-22-ll",
        "--command",
        "attack",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "# german has no legal 'attack' command for 'de-22-ll' now (turn 1, movement (german))\n"
    );
}

/// `legal --unit` of an eliminated unit says so, with when; "no legal command" alone read as a
/// unit stuck in place.
#[test]
fn legal_of_an_eliminated_unit_says_it_was_eliminated() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid.json");
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--seed",
        "1",
        "--turns",
        "4",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&["legal", save.to_str().unwrap(), "--unit", "b-art-1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "# blue has no legal command for 'b-art-1' now (turn 5, movement (blue)): it was \
         eliminated on turn 3 (side=blue combat)\n"
    );
}

/// A save taken inside a simultaneous step with some sides' orders given (`sides_done`) and
/// several still to give: `legal` with no `--side` asks for one and names only the sides still
/// to play. (Only a save waiting for one side, as `run --until-side` leaves it, picks that side.)
#[test]
fn legal_on_a_save_with_several_sides_still_to_play_asks_for_one_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("partial.json");
    let session =
        hexwar::Session::start(std::path::Path::new("scenarios/diplomacy"), Some(1)).unwrap();
    let partial = session
        .to_save()
        .with_sides_done(vec!["FRANCE".into(), "GERMANY".into()]);
    std::fs::write(&save, partial.to_json()).unwrap();
    let out = hexwar(&["legal", save.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "error: --side: every side gives orders in this step (a simultaneous step): name one \
         (AUSTRIA, ENGLAND, ITALY, RUSSIA, TURKEY)\n"
    );
}

/// A France 1940 reserve waiting in its pool is out of play but not eliminated: asked of it in
/// a phase its side has no command, `legal --unit` says it is out of play with the reason the
/// rules gave (`pool`), and not the "no `unit` argument" reply meant for Diplomacy's orders.
#[test]
fn legal_of_a_pool_unit_with_no_command_says_it_is_out_of_play() {
    let out = hexwar(&[
        "legal",
        "scenarios/france1940",
        "--side",
        "allied",
        "--unit",
        "fr-1-dic",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "# allied has no legal command for 'fr-1-dic' now (turn 1, movement (german)): it is out \
         of play (pool)\n"
    );
}

/// Outside a simultaneous step `end_phase` is listed as any other command: the note that one
/// `end_phase` resolves the phase for every side is Diplomacy's alone.
#[test]
fn legal_lists_end_phase_without_the_simultaneous_note_in_a_sides_own_phase() {
    let out = hexwar(&["legal", "scenarios/demo", "--command", "end_phase"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "# blue may give 1 command(s) (turn 1, movement (blue)):\n  \
         { side = \"blue\", command = \"end_phase\" },\n"
    );
}

/// The names `--command` takes are the rules' own and the engine's `end_phase` and `move`, which
/// Diplomacy's rules do not declare: a slip there lists all four.
#[test]
fn legal_command_slip_lists_the_engines_commands_beside_the_rules_own() {
    let out = hexwar(&[
        "legal",
        "scenarios/diplomacy",
        "--side",
        "ENGLAND",
        "--command",
        "ordr",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "error: --command ordr: no command of these rules is called so: did you mean 'order'? \
         (commands: end_phase, move, order, orders)\n"
    );
}
