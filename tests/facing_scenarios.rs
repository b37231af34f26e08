//! The facing games end to end: `scenarios/tactical` and `scenarios/ancients` pass `hexwar
//! check`, run to the end with their greedy Lua bots deterministically, fight melees, and take
//! orders with a facing.

use std::path::Path;
use std::process::Command as Process;

use hexwar::engine::{Command, GameError};
use hexwar::Session;
use serde_json::json;

fn hexwar(args: &[&str]) -> (i32, String) {
    let out = Process::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn both_scenarios_check_and_run_to_the_end_deterministically() {
    let dir = std::env::temp_dir();
    for s in ["tactical", "ancients"] {
        let scen = format!("scenarios/{s}");
        assert_eq!(hexwar(&["check", &scen]).0, 0, "{s} check");
        let mut logs = Vec::new();
        for k in 0..2 {
            let log = dir.join(format!(
                "hexwar-facing-{s}-{k}-{}.jsonl",
                std::process::id()
            ));
            let (code, out) =
                hexwar(&["run", &scen, "--seed", "7", "--log", log.to_str().unwrap()]);
            assert_eq!(code, 0, "{s} run: {out}");
            assert!(out.contains("finished after turn 6 of 6"), "{out}");
            let text = std::fs::read_to_string(&log).unwrap();
            assert!(
                !text.contains("CommandRefused"),
                "the bot's legal moves are all accepted"
            );
            logs.push(text);
            let _ = std::fs::remove_file(log);
        }
        assert_eq!(logs[0], logs[1], "{s}: same seed, same log");
    }
}

/// The scenarios' greedy Lua bots (`rules/tactical/ai.lua`, `rules/ancients/ai.lua`) close in
/// and fight: by seed, the exact number of melees and the winner of a headless run.
#[test]
fn bots_advance_and_fight_to_a_decided_result() {
    let dir = std::env::temp_dir();
    for (s, seed, melees, winner) in [
        ("tactical", "2", 12, "winner: british"),
        ("ancients", "1", 16, "winner: seleucid"),
    ] {
        let log = dir.join(format!("hexwar-melee-{s}-{}.jsonl", std::process::id()));
        let scen = format!("scenarios/{s}");
        let (code, out) = hexwar(&["run", &scen, "--seed", seed, "--log", log.to_str().unwrap()]);
        assert_eq!(code, 0, "{s}: {out}");
        let text = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_file(&log);
        let count = text
            .lines()
            .filter(|l| l.contains("\"MeleeResolved\""))
            .count();
        assert_eq!(count, melees, "{s} seed {seed}: melees");
        assert!(out.contains(winner), "{s} seed {seed}: {out}");
    }
}

#[test]
fn reach_prints_end_facings() {
    let (code, out) = hexwar(&["reach", "scenarios/ancients", "m-ph-3"]);
    assert_eq!(code, 0);
    // m-ph-3 at 0305 faces vertex 0 (front 0405, 0406): one step keeps the facing, at 1 MP.
    assert!(out.contains("  0405 0:1 "), "{out}");
    assert!(out.contains("  0305 1:1 2:2 3:3 4:2 5:1\n"), "{out}");
}

fn cmd(v: serde_json::Value) -> Command {
    serde_json::from_value(v).unwrap()
}

#[test]
fn ancients_orders_carry_a_facing() {
    let mut s = Session::start(Path::new("scenarios/ancients"), Some(1)).unwrap();
    // 0206 is down-left of 0305 (edge 2): turning to vertex 2 and stepping costs 3 MP, so the
    // phalanx cannot also turn back to vertex 0 (ANC-6.2).
    let err = s
        .game
        .submit(
            Some("macedon"),
            &cmd(json!({"command": "move", "unit": "m-ph-3", "path": ["0206"], "facing": 0})),
        )
        .unwrap_err();
    match err {
        GameError::Refused(r) => assert_eq!(r.rule, "ANC-6.2"),
        other => panic!("{other:?}"),
    }
    s.game
        .submit(
            Some("macedon"),
            &cmd(json!({"command": "move", "unit": "m-ph-3", "path": ["0206"], "facing": 2})),
        )
        .unwrap();
    let u = &s.game.state().units["m-ph-3"];
    assert_eq!((u.at.as_deref(), u.facing), (Some("0206"), Some(2)));
    // The stack of two phalanxes and the leader moves as one group.
    s.game
        .submit(Some("macedon"), &cmd(json!({"command": "move", "units": ["m-ph-1", "m-ph-2", "m-ldr"], "path": ["0404"], "facing": 0})))
        .unwrap();
    for id in ["m-ph-1", "m-ph-2", "m-ldr"] {
        assert_eq!(s.game.state().units[id].at.as_deref(), Some("0404"));
    }
}

/// TAC-4 / TA-R6: a two-base unit that re-faces one base in place has moved only that base.
#[test]
fn tac_4_only_the_refaced_base_counts_as_moved() {
    let mut s = Session::start(Path::new("scenarios/tactical"), Some(1)).unwrap();
    let side = s.game.phasing_side().unwrap();
    assert_eq!(side, "british");
    s.game
        .submit(
            Some("british"),
            &cmd(json!({"command": "move", "unit": "b-col-1", "path": [], "facing": "0,4"})),
        )
        .unwrap();
    let u = &s.game.state().units["b-col-1"];
    let flags: Vec<&str> = u.status.iter().map(String::as_str).collect();
    assert_eq!(flags, ["base2_moved", "moved"]);
    assert_eq!((u.facing, u.attrs["facing2"].clone()), (Some(0), json!(4)));
}

/// `hexwar play` takes the end facing as a key of an order (`"f1,f2"` for a two-base unit).
#[test]
fn play_orders_file_carries_a_facing() {
    let dir = tempfile::tempdir().unwrap();
    for (scen, orders, expect) in [
        (
            "scenarios/ancients",
            "[[order]]\nside = \"macedon\"\ncommand = \"move\"\nunit = \"m-ph-3\"\npath = [\"0206\"]\nfacing = 2\n",
            "{\"event\":\"UnitFacingChanged\",\"unit\":\"m-ph-3\",\"facing\":2}",
        ),
        (
            "scenarios/tactical",
            "[[order]]\nside = \"british\"\ncommand = \"move\"\nunit = \"b-col-1\"\npath = []\nfacing = \"0,4\"\n",
            "{\"event\":\"UnitFacingChanged\",\"unit\":\"b-col-1\",\"facing\":0,\"facing2\":4}",
        ),
    ] {
        let file = dir.path().join("orders.toml");
        std::fs::write(&file, orders).unwrap();
        let (code, out) = hexwar(&["play", scen, "--orders", file.to_str().unwrap()]);
        assert_eq!(code, 0, "{scen}: {out}");
        assert!(out.contains("order 1 (") && out.contains(expect), "{scen}: {out}");
    }
}

/// A session on `scenario` with `setup` (TOML `[[unit]]` tables) laid over it.
fn with_setup(scenario: &str, setup: &str) -> Session {
    let mut s = Session::start(Path::new(scenario), Some(1)).unwrap();
    let source = hexwar::board::SourceText::new("setup.toml", setup);
    s.setup_text(&source).unwrap();
    s
}

/// A session on `scenario` with a mod declaring one more facing kind, `wagon` (`rule`: its
/// Lua table), and `setup` laid over it.
fn with_wagons(scenario: &str, rule: &str, setup: &str) -> Session {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wagons.lua");
    std::fs::write(
        &file,
        format!("hex.rules.get(\"facing\").kinds.wagon = {rule}\n"),
    )
    .unwrap();
    let mut s = Session::start_with_mods(Path::new(scenario), Some(1), std::slice::from_ref(&file))
        .unwrap();
    s.setup_text(&hexwar::board::SourceText::new("setup.toml", setup))
        .unwrap();
    s
}

fn unit_toml(id: &str, side: &str, kind: &str, at: &str, extra: &str) -> String {
    format!("[[unit]]\nid = \"{id}\"\nside = \"{side}\"\ntype = \"{kind}\"\nma = 3\nstrength = 3\nat = \"{at}\"\n{extra}\n")
}

/// ANC-5.4 / TA-R13: a group moves with the facing of its first non-leader, wherever its
/// leader stands in the order's list (a leader has no facing, TA-R2).
#[test]
fn anc_5_4_a_group_listing_its_leader_first_keeps_its_first_non_leaders_facing() {
    let setup = [
        unit_toml("l", "macedon", "leader", "0404", ""),
        unit_toml("p", "macedon", "phalanx", "0404", "facing = 0"),
        unit_toml("p2", "macedon", "phalanx", "0404", "facing = 0"),
        unit_toml("e", "seleucid", "cavalry", "1108", "facing = 3"),
    ]
    .concat();
    let mut s = with_setup("scenarios/ancients", &setup);
    let order = json!({"command": "move", "units": ["l", "p", "p2"], "path": ["0504"]});
    s.game.submit(Some("macedon"), &cmd(order)).unwrap();
    for id in ["l", "p", "p2"] {
        assert_eq!(s.game.state().units[id].at.as_deref(), Some("0504"), "{id}");
    }
    assert_eq!(s.game.state().units["p"].facing, Some(0));
    assert_eq!(s.game.state().units["l"].facing, None);
}

/// TA-R2: leaders have no facing; one a setup gave a facing moves as any leader (no facing
/// asked, none kept: "none", as the legal list names it, is accepted too).
#[test]
fn ta_r2_a_leader_given_a_facing_in_a_setup_moves_as_one_without() {
    let setup = [
        unit_toml("l", "british", "leader", "0404", "facing = 2"),
        unit_toml("z", "zulu", "infantry", "1104", "facing = 3"),
    ]
    .concat();
    for facing in [None, Some("none")] {
        let mut s = with_setup("scenarios/tactical", &setup);
        let mut order = json!({"command": "move", "unit": "l", "path": ["0504"]});
        if let Some(f) = facing {
            order["facing"] = json!(f);
        }
        let events = s.game.submit(Some("british"), &cmd(order)).unwrap();
        let kinds: Vec<String> = events
            .iter()
            .map(|e| serde_json::to_value(e).unwrap()["event"].to_string())
            .collect();
        assert_eq!(
            kinds,
            [
                "\"UnitEnteredHex\"",
                "\"UnitMoved\"",
                "\"UnitStatusChanged\""
            ],
            "{facing:?}"
        );
        assert_eq!(s.game.state().units["l"].at.as_deref(), Some("0504"));
    }
}

/// TAC-4 / TA-R6 with TA-R5: a two-base unit that goes out and back to its start hex has not
/// changed hex, so only the base it re-faced counts as moved.
#[test]
fn tac_4_a_round_trip_to_the_start_hex_moves_only_the_refaced_base() {
    let setup = [
        unit_toml(
            "c",
            "british",
            "colonial",
            "0404",
            "facing = 0\nattrs = { facing2 = 5 }",
        ),
        unit_toml("z", "zulu", "infantry", "1104", "facing = 3"),
    ]
    .concat();
    let mut s = with_setup("scenarios/tactical", &setup);
    let order = json!({"command": "move", "unit": "c", "path": ["0504", "0404"], "facing": "1,5"});
    s.game.submit(Some("british"), &cmd(order)).unwrap();
    let u = &s.game.state().units["c"];
    let flags: Vec<&str> = u.status.iter().map(String::as_str).collect();
    assert_eq!(flags, ["base1_moved", "moved"]);
    assert_eq!((u.at.as_deref(), u.facing), (Some("0404"), Some(1)));
}

/// The facing games' commands declare their arguments: a move written with `to` (the engine's
/// one-hex form, which a facing move does not take) is refused instead of read as a turn in
/// place with its destination dropped.
#[test]
fn a_facing_move_with_an_argument_it_does_not_take_is_refused() {
    let mut s = Session::start(Path::new("scenarios/ancients"), Some(1)).unwrap();
    let before = serde_json::to_string(s.game.state()).unwrap();
    let err = s
        .game
        .submit(
            Some("macedon"),
            &cmd(json!({"command": "move", "unit": "m-ph-3", "to": "0206", "facing": 2})),
        )
        .unwrap_err();
    match err {
        GameError::Refused(r) => assert_eq!(
            (r.rule.as_str(), r.reason.as_str()),
            (
                "command",
                "move: unknown argument 'to' (it takes facing, path, unit, units)"
            )
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(serde_json::to_string(s.game.state()).unwrap(), before);
}

/// A client's malformed order or question is refused as the client's, not reported as an error
/// in the rules (`rules/lib/facing.lua:306: bad argument #1 to 'get'`, `string.match: pattern
/// too expensive`, `an empty group`): the facing commands declare their arguments' kinds.
#[test]
fn a_malformed_order_or_question_is_the_askers_mistake() {
    for scenario in ["scenarios/tactical", "scenarios/ancients"] {
        let mut s = Session::start(Path::new(scenario), Some(1)).unwrap();
        let side = s.game.phasing_side().unwrap();
        let before = serde_json::to_string(s.game.state()).unwrap();
        let long = "7".repeat(5000);
        for (order, rule, reason) in [
            (
                json!({"command": "attack", "unit": {"a": 1}, "target": "x"}),
                "command",
                "attack: argument 'unit' must be a unit id (a string), not a table, {\"a\":1}".to_string(),
            ),
            (
                json!({"command": "wheel", "unit": "x", "facing": "north"}),
                "command",
                "wheel: argument 'facing' must be a direction (a whole number, 0 to 5), not a string, \"north\"".to_string(),
            ),
            (
                json!({"command": "move", "unit": "x", "path": [], "facing": long}),
                if scenario.ends_with("tactical") { "TAC-3" } else { "ANC-7.1" },
                format!("a facing is a direction 0..5 or a two-base pair \"f1,f2\", not \"{}...\"", &long[..40]),
            ),
        ] {
            match s.game.submit(Some(&side), &cmd(order.clone())) {
                Err(GameError::Refused(r)) => {
                    assert_eq!((r.rule.as_str(), r.reason.as_str()), (rule, reason.as_str()), "{scenario}")
                }
                other => panic!("{scenario}: {rule}: {other:?}"),
            }
        }
        let asked = s.game.query("reach", &json!({"unit": "x"})).unwrap_err();
        assert_eq!(
            asked.kind,
            hexwar::engine::RulesErrorKind::HostCall,
            "{asked}"
        );
        assert!(
            asked.message.contains(
                "the argument is a unit id or a list of unit ids, not a table without a list"
            ),
            "{asked}"
        );
        assert_eq!(serde_json::to_string(s.game.state()).unwrap(), before);
    }
}

/// TA-R1: a second base's facing (`attrs.facing2`) is a direction 0 to 5 like `facing`: -1,
/// 2.5 and "north" were let through unchecked (only a whole number above 5 was refused).
#[test]
fn ta_r1_a_facing2_that_is_no_direction_is_refused_in_a_setup() {
    for (value, shown) in [
        ("-1", "-1"),
        ("2.5", "2.5"),
        ("\"north\"", "\"north\""),
        ("6", "6"),
    ] {
        let setup = unit_toml(
            "c",
            "british",
            "colonial",
            "0404",
            &format!("facing = 0\nattrs = {{ facing2 = {value} }}"),
        );
        let mut s = Session::start(Path::new("scenarios/tactical"), Some(1)).unwrap();
        let before = serde_json::to_string(s.game.state()).unwrap();
        let e = s
            .setup_text(&hexwar::board::SourceText::new("setup.toml", &setup))
            .unwrap_err();
        assert!(
            e.to_string().ends_with(&format!(
                "unit 'c': facing2 {shown} is not a direction: 0 to 5 (an edge, or a corner for a phalanx; TA-R1)"
            )),
            "{value}: {e}"
        );
        assert_eq!(serde_json::to_string(s.game.state()).unwrap(), before);
    }
}

/// A unit whose type the facing rules do not know is refused where it comes in: a save holding
/// one fails `check` and `status` alike, naming the unit and the kinds there are (the save
/// passed `check`, then every listing failed inside lib/facing.lua with a Lua traceback; a
/// setup's such unit is tests/errors/setup_unit_without_facing_rule).
#[test]
fn a_unit_type_without_a_facing_rule_is_refused_in_a_save() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("t.json");
    let (code, out) = hexwar(&[
        "run",
        "scenarios/tactical",
        "--turns",
        "1",
        "--quiet",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    let mut saved = hexwar::engine::Save::read(&save).unwrap();
    let unit = saved.state.units.keys().next().unwrap().clone();
    saved.state.units.get_mut(&unit).unwrap().kind = "dragoon".into();
    let saved = saved.with_sides_done(Vec::new());
    saved.write(&save).unwrap();
    let why = format!(
        "the save does not fit scenario 'tactical': unit '{unit}': unit type 'dragoon' has no \
         facing rule (the rules' facing kinds: artillery, artillery_unlimbered, cavalry, \
         colonial, foot_skirmisher, infantry, leader, mounted_skirmisher)"
    );
    for command in ["check", "status"] {
        let out = Process::new(env!("CARGO_BIN_EXE_hexwar"))
            .args([command, save.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(stderr.contains(&why), "{command}: {stderr}");
    }
}

/// A turn in place is listed with an empty path as a list (`path = []`, JSON `[]`), as
/// docs/facing.md writes it and as every other listed path is: an empty Lua table came out
/// as `path = {}`, a TOML table and a JSON object.
#[test]
fn a_turn_in_place_is_listed_with_an_empty_list_for_its_path() {
    let out = Process::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(["legal", "scenarios/tactical", "--unit", "b-art-1", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let commands = listed["commands"].as_array().unwrap();
    let in_place: Vec<&serde_json::Value> = commands
        .iter()
        .filter(|c| c["path"].as_array().is_some_and(|p| p.is_empty()))
        .collect();
    assert_eq!(in_place.len(), 5, "{commands:?}");
    assert!(
        commands.iter().all(|c| c["path"].is_array()),
        "{commands:?}"
    );
    let (code, text) = hexwar(&["legal", "scenarios/tactical", "--unit", "b-art-1"]);
    assert_eq!(code, 0);
    assert!(text.contains(
        "  { side = \"british\", command = \"move\", facing = 1, path = [], unit = \"b-art-1\" },\n"
    ));
    assert!(!text.contains("path = {}"));
}

/// `reach` asked of a unit the game does not have is the asker's mistake (`HostCall`, through
/// lib.asked_unit and `hex.rules.caller_error`), said as the engine's own `reach` says it.
#[test]
fn reach_of_a_unit_not_in_play_is_the_askers_mistake() {
    for scenario in ["scenarios/tactical", "scenarios/ancients"] {
        let mut s = Session::start(Path::new(scenario), Some(1)).unwrap();
        for (arg, why) in [
            (json!("nobody"), "query 'reach': no unit 'nobody' in play"),
            (
                json!(3),
                "query 'reach': the argument is a unit id (a string), not 3",
            ),
        ] {
            let e = s.game.query("reach", &arg).unwrap_err();
            assert_eq!(
                (e.kind, e.message.as_str()),
                (hexwar::engine::RulesErrorKind::HostCall, why),
                "{scenario}"
            );
        }
    }
}

/// ANC-6.3 / TA-R15 with TA-R20: a phalanx that starts in contact (the light at 0304 beside
/// it) lists its two 60° turns in place at its whole MP (3), the end states a passed morale
/// test gives; the rest is its reach over its front (TA-R14, TA-R16).
#[test]
fn ta_r15_reach_lists_the_turns_in_place_of_a_phalanx_in_contact_at_its_whole_mp() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("setup.toml");
    let units = [
        unit_toml("p", "macedon", "phalanx", "0404", "facing = 0"),
        unit_toml("e", "seleucid", "light", "0304", "facing = 0"),
    ]
    .concat();
    std::fs::write(&setup, units).unwrap();
    let (code, out) = hexwar(&[
        "reach",
        "scenarios/ancients",
        "--setup",
        setup.to_str().unwrap(),
        "p",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["hexes"]["0404"], json!({"1": 3, "5": 3}));
    assert_eq!(
        answer["hexes"],
        json!({
            "0404": {"1": 3, "5": 3}, "0502": {"5": 3},
            "0503": {"0": 1, "1": 2, "2": 3, "4": 3, "5": 2},
            "0504": {"0": 1, "1": 2, "2": 3, "4": 3, "5": 2}, "0505": {"1": 3},
            "0603": {"0": 2, "1": 3, "5": 3}, "0604": {"0": 2, "1": 3, "5": 3},
            "0605": {"0": 2, "1": 3, "5": 3}, "0702": {"0": 3}, "0703": {"0": 3},
            "0704": {"0": 3}, "0705": {"0": 3}
        })
    );
}

/// ANC-5.3 / TA-R18: joiners take the stack's facing, so a join given no facing is read with it
/// (it was refused: "takes its facing 2, not 0"); cost 1 + the cavalry's join cost 2.
#[test]
fn ta_r18_a_join_given_no_facing_takes_the_stacks() {
    let setup = [
        unit_toml("c", "macedon", "cavalry", "0404", "facing = 0"),
        unit_toml("d", "macedon", "cavalry", "0504", "facing = 2"),
        unit_toml("e", "seleucid", "light", "1108", "facing = 3"),
    ]
    .concat();
    let mut s = with_setup("scenarios/ancients", &setup);
    let order = json!({"command": "move", "unit": "c", "path": ["0504"]});
    let events = s.game.submit(Some("macedon"), &cmd(order)).unwrap();
    let events: Vec<serde_json::Value> = events
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    assert_eq!(
        events,
        [
            json!({"event": "UnitEnteredHex", "unit": "c", "hex": "0504"}),
            json!({"event": "UnitMoved", "unit": "c", "from": "0404", "to": "0504", "path": ["0504"], "cost": 3.0}),
            json!({"event": "UnitFacingChanged", "unit": "c", "facing": 2}),
            json!({"event": "UnitStatusChanged", "unit": "c", "add": ["moved"]}),
        ]
    );
}

/// An order with an empty path and no facing (the unit stays as it is) reaches the rules'
/// `move` and is refused as no move (TA-R5; ANC-7.1 cites it in ancients); it was an error in
/// the orders file, and a game whose rules define no `move` (the demo) refuses it as a move
/// that enters no hex. A hand-built command of that shape recursed without end.
#[test]
fn an_empty_path_without_a_facing_is_refused_as_no_move() {
    for (scenario, unit, rule, reading) in [
        ("scenarios/tactical", "b-inf-1", "TA-R5", "TA-R5"),
        ("scenarios/ancients", "m-ph-1", "ANC-7.1", "TA-R20"),
    ] {
        let mut s = Session::start(Path::new(scenario), Some(1)).unwrap();
        let side = s.game.phasing_side().unwrap();
        let before = serde_json::to_string(s.game.state()).unwrap();
        for path in [json!([]), json!({})] {
            let order = cmd(json!({"command": "move", "unit": unit, "path": path}));
            match s.game.submit(Some(&side), &order) {
                Err(GameError::Refused(r)) => assert_eq!(
                    (r.rule.as_str(), r.reason.as_str()),
                    (
                        rule,
                        format!("not a move: same hex, same facing ({reading})").as_str()
                    ),
                    "{scenario}"
                ),
                other => panic!("{scenario}: {other:?}"),
            }
        }
        assert_eq!(serde_json::to_string(s.game.state()).unwrap(), before);
    }
    let mut demo = Session::start(Path::new("tests/fixtures/demo_positions"), Some(1)).unwrap();
    let side = demo.game.phasing_side().unwrap();
    let hand_built = Command::Custom {
        name: "move".into(),
        args: serde_json::from_value(json!({"unit": "b1", "path": []})).unwrap(),
    };
    match demo.game.submit(Some(&side), &hand_built) {
        Err(GameError::Refused(r)) => assert_eq!(
            r.to_string(),
            "command: a move needs a path of at least one hex"
        ),
        other => panic!("{other:?}"),
    }
    let mut no_move = Session::start(Path::new("tests/fixtures/no_move"), Some(1)).unwrap();
    let side = no_move.game.phasing_side().unwrap();
    match no_move.game.submit(Some(&side), &hand_built) {
        Err(GameError::Refused(r)) => {
            assert_eq!(
                r.to_string(),
                "command: a move needs a path of at least one hex"
            )
        }
        other => panic!("{other:?}"),
    }
}

/// The facing games' bots read each kind's front from the facing declaration
/// (`lib.facing_ai.declared_front`), so a variant that gives the elephant a front of three
/// hexes changes the bots' reading too (they kept arcs of their own: every kind but the
/// phalanx all round, whatever a variant declared).
#[test]
fn anc_6_1_the_bots_read_the_declared_fronts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("narrow_elephants.lua");
    std::fs::write(
        &file,
        "hex.rules.get(\"facing\").kinds.elephant.front = { -1, 0, 1 }\n\
         hex.rules.query(\"fronts\", function()\n\
         \x20 local ai = require(\"lib.facing_ai\")\n\
         \x20 return { elephant = ai.declared_front(\"elephant\"), phalanx = ai.declared_front(\"phalanx\"),\n\
         \x20   cavalry = ai.declared_front(\"cavalry\"), leader = #ai.declared_front(\"leader\") }\n\
         end)\n",
    )
    .unwrap();
    let mut s =
        Session::start_with_mods(Path::new("scenarios/ancients"), Some(1), &[file]).unwrap();
    assert_eq!(
        s.game.query("fronts", &serde_json::Value::Null).unwrap(),
        Some(json!({
            "elephant": [-1, 0, 1],
            "phalanx": [-1, 0],
            "cavalry": [0, 1, 2, 3, 4, 5],
            "leader": 0
        }))
    );
}

/// A troop kind declared `facing = "none"` (a baggage train, say) is no leader but has no
/// facing either (docs/facing.md): every move the legal list offers it is taken, and a move
/// given no facing moves it without one. (Moves read it as facing 0 and were refused as
/// "leaders have no facing".)
#[test]
fn ta_r2_a_troop_kind_without_facing_moves_as_listed() {
    let setup = [
        unit_toml("w", "british", "wagon", "0404", ""),
        unit_toml("z", "zulu", "infantry", "1104", "facing = 3"),
    ]
    .concat();
    let start = || {
        with_wagons(
            "scenarios/tactical",
            "{ tactical = 1, facing = \"none\" }",
            &setup,
        )
    };
    let mut s = start();
    let listed: Vec<serde_json::Value> = s
        .game
        .legal_commands("british")
        .unwrap()
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .filter(|c| c["unit"] == json!("w"))
        .collect();
    assert_eq!(listed.len(), 32, "{listed:?}");
    for order in listed {
        assert_eq!(order.get("facing"), None, "{order}");
        let mut s = start();
        s.game.submit(Some("british"), &cmd(order.clone())).unwrap();
        let to = order["path"].as_array().unwrap().last().unwrap();
        assert_eq!(
            s.game.state().units["w"].at.as_deref(),
            to.as_str(),
            "{order}"
        );
        assert_eq!(s.game.state().units["w"].facing, None);
    }
    let order = json!({"command": "move", "unit": "w", "path": ["0504"], "facing": 2});
    assert_eq!(
        s.game.submit(Some("british"), &cmd(order)).unwrap_err().to_string(),
        "refused: TAC-4: wagon is declared without a facing (facing = \"none\"), so none is given, not 2"
    );
    let order = json!({"command": "move", "unit": "w", "path": ["0504"]});
    s.game.submit(Some("british"), &cmd(order)).unwrap();
    assert_eq!(s.game.state().units["w"].at.as_deref(), Some("0504"));
}

/// TAC-6: a charger that fought a leader in the hex it charged into, where an enemy troop
/// still stands, loses its melee unfought when the combat phase ends, and the phase ends. (The
/// flags' clearing named the charger after it was eliminated: the phase could never end, and
/// the game stopped there for good.)
#[test]
fn tac_6_a_charger_left_beside_an_enemy_troop_is_eliminated_and_the_phase_ends() {
    let setup = [
        "side = \"british\"\nphase = \"movement\"\n".to_string(),
        unit_toml("b", "british", "infantry", "0303", "facing = 0"),
        unit_toml("z", "zulu", "infantry", "0404", "facing = 0"),
        unit_toml("zl", "zulu", "leader", "0404", ""),
    ]
    .concat();
    let mut s = with_setup("scenarios/tactical", &setup);
    let british = Some("british");
    s.game
        .submit(
            british,
            &cmd(json!({"command": "move", "unit": "b", "path": ["0404"]})),
        )
        .unwrap();
    s.game.submit(british, &Command::EndPhase).unwrap();
    s.game
        .submit(
            british,
            &cmd(json!({"command": "attack", "unit": "b", "target": "zl"})),
        )
        .unwrap();
    let events = s.game.submit(british, &Command::EndPhase).unwrap();
    let eliminated: Vec<serde_json::Value> = events
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .filter(|e| e["event"] == "UnitEliminated")
        .collect();
    assert_eq!(
        eliminated,
        [
            json!({"event": "UnitEliminated", "unit": "b", "reason": "side=british melee not fought"})
        ]
    );
    assert_eq!(s.game.phasing_side().as_deref(), Some("zulu"));
    assert_eq!(s.game.phase().as_deref(), Some("movement"));
}

/// ANC-5.4 with a kind declared `facing = "none"`: a group of a wagon and a cavalry keeps the
/// cavalry's facing whichever it lists first (listed first, the wagon left the group no
/// facing, and the move was refused naming the cavalry as declared without one).
#[test]
fn anc_5_4_a_group_keeps_its_faced_troops_facing_beside_a_troop_without_one() {
    let setup = [
        unit_toml("w", "macedon", "wagon", "0404", ""),
        unit_toml("c", "macedon", "cavalry", "0404", "facing = 2"),
        unit_toml("e", "seleucid", "cavalry", "1108", "facing = 3"),
    ]
    .concat();
    for units in [["w", "c"], ["c", "w"]] {
        let mut s = with_wagons(
            "scenarios/ancients",
            "{ facing = \"none\", join = 1 }",
            &setup,
        );
        let order = json!({"command": "move", "units": units, "path": ["0504"]});
        s.game.submit(Some("macedon"), &cmd(order)).unwrap();
        assert_eq!(
            s.game.state().units["c"].at.as_deref(),
            Some("0504"),
            "{units:?}"
        );
        assert_eq!(s.game.state().units["c"].facing, Some(2), "{units:?}");
        assert_eq!(
            s.game.state().units["w"].at.as_deref(),
            Some("0504"),
            "{units:?}"
        );
        assert_eq!(s.game.state().units["w"].facing, None, "{units:?}");
    }
}

/// `hex.path.check_facing` as a designer's own rules call it: a facing given as a whole float
/// is that direction (2.0 is 2), any other number is refused naming it (7, -1, 2.5, 6.0); a
/// budget given is the budget, 0 included, and a negative one is the group's own (as none).
#[test]
fn check_facing_reads_whole_floats_as_directions_and_a_negative_budget_as_none() {
    let scenario = hexwar::scenario::load_scenario(Path::new("scenarios/tactical")).unwrap();
    let mut rules = hexwar::rules::LuaRules::load(&scenario).unwrap();
    let state = scenario.initial_state(1);
    let answer = rules
        .eval(
            &state,
            "local best
             for label, per in pairs(hex.path.reach_facing('b-inf-1')) do
               for f, c in pairs(per) do
                 local key = label .. '/' .. tostring(f)
                 if c == 1 and hex.map.distance('0203', label) == 1 and (not best or key < best.key) then
                   best = { key = key, label = label, f = f }
                 end
               end
             end
             local cf = hex.path.check_facing
             local turned = cf('b-inf-1', {}, 2)
             return { best.key, cf('b-inf-1', { best.label }, best.f), cf('b-inf-1', { best.label }, best.f + 0.0),
                      cf('b-inf-1', { best.label }, best.f, -1), cf('b-inf-1', { best.label }, best.f, 0).rule,
                      turned, cf('b-inf-1', {}, 2.0) }",
        )
        .unwrap();
    assert_eq!(answer, json!(["0103/0", 1, 1, 1, "TA-R4", 0, 0]));
    for (facing, shown) in [
        ("7", "7"),
        ("-1", "-1"),
        ("2.5", "2.5"),
        ("6.0", "6.0"),
        ("true", "true"),
        ("{}", "table"),
    ] {
        let e = rules
            .eval(
                &state,
                &format!("return hex.path.check_facing('b-inf-1', {{}}, {facing})"),
            )
            .unwrap_err();
        assert!(
            e.message
                .contains(&format!("{shown} is not a facing (0..5, \"f1,f2\" or nil)")),
            "{facing}: {}",
            e.message
        );
    }
}

/// A group given as a list with a hole (`{"m-ph-1", nil, "m-ph-2"}`) is the script's error,
/// naming the hole: the ids after it were left out, so the group searched was a smaller one.
#[test]
fn a_group_with_a_hole_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("holes.lua");
    std::fs::write(
        &file,
        "hex.rules.query(\"holed\", function()\n  \
         return hex.path.reach_facing({ \"m-ph-1\", nil, \"m-ph-2\" })\nend)\n",
    )
    .unwrap();
    let mut s = Session::start_with_mods(
        Path::new("scenarios/ancients"),
        Some(1),
        std::slice::from_ref(&file),
    )
    .unwrap();
    let e = s.game.query("holed", &json!(null)).unwrap_err().to_string();
    assert!(
        e.contains(
            "hex.path: a group is a list with nothing at #2 (its last item is #3): a nil in a \
             list of unit ids would drop the unit ids after it"
        ),
        "{e}"
    );
}
