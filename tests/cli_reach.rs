//! `hexwar reach`: the hexes a unit can reach with their MP cost, from the engine's search over
//! the rules' movement declaration.

mod common;

use common::{hexwar, stderr, stdout};

#[test]
fn reach_lists_every_hex_with_its_cost() {
    let out = hexwar(&["reach", "scenarios/demo", "b-inf-1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // b-inf-1 at 0102, 4 MP: clear 1, forest 2, marsh 3 (demo map rows 01-05).
    let expected = serde_json::json!({"unit": "b-inf-1", "hexes": {
        "0101": 1, "0103": 1, "0104": 2, "0201": 2, "0202": 1, "0203": 1, "0204": 4, "0301": 3,
        "0302": 3, "0303": 2, "0304": 3, "0305": 4, "0403": 4, "0404": 3, "0405": 4, "0503": 4, "0504": 4
    }, "may_move_now": true, "note": null});
    assert_eq!(v, expected);
}

/// The reach of a unit whose side is not moving now says so: it is where the unit could go
/// in its side's movement, not a move it may make (red's reach in blue's movement phase).
#[test]
fn reach_says_when_the_unit_may_not_move_now() {
    let out = hexwar(&["reach", "scenarios/demo", "r-inf-1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with(
            "note: r-inf-1 may not move now (turn 1, movement (blue)): these are the hexes it \
             could reach if its side moved in this phase\n"
        ),
        "{}",
        stdout(&out)
    );
    // (the JSON carries the same note: it gave only `may_move_now`)
    let out = hexwar(&["reach", "scenarios/demo", "r-inf-1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        [&v["may_move_now"], &v["note"]],
        [
            &serde_json::json!(false),
            &serde_json::json!(
                "r-inf-1 may not move now (turn 1, movement (blue)): these are the hexes it \
                 could reach if its side moved in this phase"
            )
        ]
    );
}

/// A unit of a side with no phase (France 1940's neutral countries, F40-16.1) is not told what
/// it "could reach if its side moved": no phase is its side's, and its reach is empty.
#[test]
fn reach_of_a_unit_whose_side_has_no_phase_says_so() {
    let out = hexwar(&["reach", "scenarios/france1940", "be-1-cav", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"unit": "be-1-cav", "hexes": {}, "may_move_now": false,
            "note": "be-1-cav's side 'neutral' has no phase of its own, so no move of it is legal \
                     now (turn 1, movement (german)), and the rules' reach gives it none"})
    );
}

/// A unit that would move nowhere in its side's phase (an unlimbered gun, TAC-2) is not told
/// "these are the hexes it could reach": there are none.
#[test]
fn reach_of_an_immobile_unit_in_the_other_sides_phase_says_it_has_none() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("zulu.toml");
    std::fs::write(&setup, "turn = 1\nphase = \"movement\"\nside = \"zulu\"\n").unwrap();
    let out = hexwar(&[
        "reach",
        "scenarios/tactical",
        "b-art-2",
        "--setup",
        setup.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "b-art-2 can reach 0 hexes:\nnote: b-art-2 may not move now (turn 1, movement (zulu)), \
         and the rules' reach gives it no hex even were its side moving in this phase\n"
    );
}

#[test]
fn reach_of_an_unknown_unit_exits_2() {
    let out = hexwar(&["reach", "scenarios/demo", "nobody"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "error: no unit 'nobody' in play\n");
}

#[test]
fn supply_without_a_supply_rule_exits_2() {
    let out = hexwar(&["supply", "scenarios/demo"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: the rules answer no supply query (hex.rules.query(\"supply\", ...)): this game \
         has no supply to show\n"
    );
}

/// A unit named as Diplomacy writes it (`A LVP`) or by its hex is pointed to its id; an id one
/// letter off gets the nearest one; an area board's missing reach says where to look instead.
#[test]
fn reach_points_a_unit_named_by_its_place_to_its_id() {
    let out = hexwar(&["reach", "scenarios/diplomacy", "A LVP"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no unit 'A LVP' in play (units are named by id: the unit at LVP is 'ENGLAND-4')\n"
    );
    // (a split-coast province without its coast, and a region's alias, find the unit too)
    for (name, place) in [("F STP", "STP"), ("A STPETE", "STPETE")] {
        let out = hexwar(&["reach", "scenarios/diplomacy", name]);
        assert_eq!(
            stderr(&out),
            format!("error: no unit '{name}' in play (units are named by id: the unit at {place} is 'RUSSIA-19')\n")
        );
    }
    let out = hexwar(&["reach", "scenarios/demo", "b-inf-3"]);
    assert_eq!(
        stderr(&out),
        "error: no unit 'b-inf-3' in play (did you mean 'b-inf-1'?)\n"
    );
    let out = hexwar(&["reach", "scenarios/diplomacy", "ENGLAND-4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with("; `hexwar legal` lists the orders a side may give\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn reach_and_supply_answer_on_the_full_france_1940_scenario() {
    let out = hexwar(&["reach", "scenarios/france1940", "de-1-pz", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(v["hexes"].as_object().unwrap().len() > 10);
    let out = hexwar(&["supply", "scenarios/france1940", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["units"]["de-1-pz"], "supplied");
}

#[test]
fn reach_and_supply_answer_on_a_france_1940_setup_position() {
    let setup = "tests/fixtures/f40/setup/position.toml";
    let out = hexwar(&[
        "reach",
        "scenarios/france1940",
        "de-test",
        "--setup",
        setup,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // 3607 is in an even column: its neighbours are 3606/3608 and columns 35/37 rows 06-07.
    let expected = serde_json::json!({"unit": "de-test", "hexes": {
        "3506": 1, "3507": 1, "3606": 1, "3608": 1, "3706": 1, "3707": 1
    }, "may_move_now": true, "note": null});
    assert_eq!(v, expected);
    let out = hexwar(&["supply", "scenarios/france1940", "--setup", setup, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"units": {"de-test": "supplied", "fr-test": "isolated"}})
    );
}

/// The rules' own reach query is checked before it is printed: a place the map lacks was
/// printed as reachable, and a number was taken for "no reach query".
#[test]
fn a_reach_answer_naming_no_hex_of_the_map_or_no_table_is_an_error() {
    for (unit, message) in [
        (
            "b1",
            "error: the rules' reach query answered 'zz', which is not a hex of the map\n",
        ),
        (
            "r1",
            "error: the rules' reach query answered 5, not a table of hexes -> cost\n",
        ),
    ] {
        let out = hexwar(&["reach", "tests/fixtures/bad_reach", unit]);
        assert_eq!(out.status.code(), Some(2), "{unit}");
        assert_eq!(stderr(&out), message);
        assert_eq!(stdout(&out), "");
        // The render's overlay reads the answer the same way (it said "the rules answer no
        // reach query" of a misshapen answer).
        let overlay = format!("reach:{unit}");
        let out = hexwar(&[
            "render",
            "tests/fixtures/bad_reach",
            "--overlay",
            &overlay,
            "-o",
            "-",
        ]);
        assert_eq!(out.status.code(), Some(2), "{unit}");
        let message = message.replace("error: ", "error: reach overlay: ");
        assert_eq!(stderr(&out), message);
    }
}

/// Rules with a movement table but no `move` command: the note says so, not that the unit
/// "may not move now" (in its own side's movement phase, which read as a rules bug).
#[test]
fn reach_says_when_the_rules_define_no_move() {
    let out = hexwar(&["reach", "tests/fixtures/no_move", "b1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "b1 can reach 4 hexes:\n  0102 1\n  0103 1\n  0202 1\n  0303 1\nnote: the rules define \
         no 'move' command, so no move is legal: these are the hexes the movement table gives\n"
    );
}

/// A unit out of play (a France 1940 reserve in its pool) is named as such, not as a unit that
/// does not exist with the nearest id (`no unit 'fr-16-di' in play (did you mean 'fr-1-dim'?)`).
#[test]
fn reach_of_a_unit_out_of_play_says_so() {
    let out = hexwar(&["reach", "scenarios/france1940", "fr-16-di"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: 'fr-16-di' is out of play (pool): only a unit on the map has a reach\n"
    );
}

/// A unit off the map that is not out of play (a reinforcement not placed yet) is named as
/// such: the answer was the rules' own error, `hex.path.reach: unit 'b9' is not on the map`.
#[test]
fn reach_of_a_unit_not_placed_yet_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("setup.toml");
    std::fs::write(
        &setup,
        "[[unit]]\nid = \"b1\"\nside = \"blue\"\ntype = \"infantry\"\nma = 4\nstrength = 3\nat = \"0202\"\n\n\
         [[unit]]\nid = \"b9\"\nside = \"blue\"\ntype = \"infantry\"\nma = 4\nstrength = 3\n",
    )
    .unwrap();
    let out = hexwar(&[
        "reach",
        "scenarios/demo",
        "--setup",
        setup.to_str().unwrap(),
        "b9",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: 'b9' is off the map (not placed yet): only a unit on the map has a reach\n"
    );
}

/// A unit of the side to play that the rules give no move now (an unlimbered gun, TA-R4) is
/// said so, not as a unit that "may not move now" (which read as another side's phase).
#[test]
fn reach_of_a_unit_with_no_move_in_its_own_phase_says_so() {
    let out = hexwar(&["reach", "scenarios/tactical", "b-art-2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "b-art-2 can reach 0 hexes:\nnote: the rules list no move of b-art-2 now (turn 1, \
         movement (british))\n"
    );
}

/// A unit id written in another case gets the id as the game writes it.
#[test]
fn reach_of_an_id_in_another_case_names_the_id() {
    let out = hexwar(&["reach", "scenarios/demo", "B-INF-1"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no unit 'B-INF-1' in play (did you mean 'b-inf-1'?)\n"
    );
}

/// On a finished game the note says the game is over (it said "may not move now" with the
/// last phase played, as if a later one could let the unit move).
#[test]
fn reach_on_a_finished_game_says_it_is_over() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("end.json");
    let out = hexwar(&["run", "scenarios/demo", "--save", save.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = hexwar(&["reach", save.to_str().unwrap(), "r-inf-1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        [&v["may_move_now"], &v["note"]],
        [
            &serde_json::json!(false),
            &serde_json::json!(
                "the game is over: no move is legal; these are the hexes r-inf-1 could reach if \
                 its side moved in this phase"
            )
        ]
    );
}

/// A group written as the rules' query takes it (a facing game's stack) is pointed to that
/// query (it was "no unit '[...]' in play"), which answers it.
#[test]
fn reach_of_a_group_points_to_the_rules_query() {
    let group = r#"["m-ph-1","m-ph-2"]"#;
    let out = hexwar(&["reach", "scenarios/ancients", group]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "error: '{group}' names a group: `reach` takes one unit id; a group's reach (a \
             facing game's stack, ANC-5.4) is the rules' query: hexwar query SCENARIO reach \
             '{group}' --json\n"
        )
    );
    let out = hexwar(&["query", "scenarios/ancients", "reach", group, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let answer: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(answer["0303"]["1"], 1);
}

/// Rules with other commands but no `move` say the same: it is `move` that is missing (with
/// an `end_phase` defined, the note said the rules list no move of the unit *now*).
#[test]
fn reach_says_when_the_rules_define_other_commands_but_no_move() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let fixture = root.join("tests/fixtures/no_move");
    let scenario = std::fs::read_to_string(fixture.join("scenario.toml"))
        .unwrap()
        .replace(
            "../../../scenarios/demo/map.toml",
            root.join("scenarios/demo/map.toml").to_str().unwrap(),
        );
    std::fs::write(dir.path().join("scenario.toml"), scenario).unwrap();
    let rules = std::fs::read_to_string(fixture.join("nomove.lua")).unwrap()
        + "hex.commands.define(\"end_phase\", { resolve = function() return nil end })\n";
    std::fs::write(dir.path().join("nomove.lua"), rules).unwrap();
    let out = hexwar(&["reach", dir.path().to_str().unwrap(), "b1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "b1 can reach 4 hexes:\n  0102 1\n  0103 1\n  0202 1\n  0303 1\nnote: the rules define \
         no 'move' command, so no move is legal: these are the hexes the movement table gives\n"
    );
}
