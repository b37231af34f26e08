//! F40 special movement (10.1 rail, 10.4 naval evacuation) and airborne operations (11.1-11.5)
//! on the fixtures of tests/fixtures/f40 (hex geometry: see tests/f40_movement.rs).

mod f40;

use f40::*;
use hexwar::engine::{Command, Event};
use serde_json::{json, Value};

fn rail(unit: &str, to: &str) -> Command {
    custom("rail", &[("unit", unit), ("to", to)])
}

fn evacuate(unit: &str) -> Command {
    custom("evacuate", &[("unit", unit)])
}

fn drop_at(unit: &str, to: &str) -> Command {
    custom("drop", &[("unit", unit), ("to", to)])
}

#[test]
fn f40_10_1_one_unit_by_rail_per_movement_phase_in_friendly_france() {
    // rail: France = columns 01-04 (Allied), Germany = 05-06. g1 (0502) puts 0402 in ZOC; a
    // sea hexside 0301/0401 leaves 0401 reachable only through 0402 or Germany.
    let mut s = session("rail");
    advance_to(&mut s, 1, 2);
    let mut expected = Vec::new();
    // In map order (row by row), as the engine's rail search lists them.
    for to in ["0201", "0301", "0102", "0202", "0302"] {
        expected.push(rail("a1", to));
    }
    for to in ["0101", "0201", "0301", "0202", "0302"] {
        expected.push(rail("a2", to));
    }
    assert_eq!(legal_of(&mut s, "allied", "rail"), expected);
    assert_eq!(
        refused(&mut s, "allied", &rail("a1", "0401")),
        refusal(
            "F40-10.1",
            "a1 cannot go by rail from 0101 to 0401: every route crosses a sea hexside, or a hex that is not friendly territory of France free of enemy ZOC"
        )
    );
    assert_eq!(
        refused(&mut s, "allied", &rail("a1", "0402")),
        refusal(
            "F40-10.1",
            "a1 cannot go by rail from 0101 to 0402: 0402 is not friendly territory"
        )
    );
    // (each refusal names its cause: not a hex (refused by the command's declared `place`
    // argument before the rules see it), out of France)
    assert_eq!(
        refused(&mut s, "allied", &rail("a1", "0309")),
        refusal(
            "command",
            "rail: argument 'to': '0309' is not a hex of the map (this 6×2 map's labels are 4 \
             digits, column then row: 0101 to 0602)"
        )
    );
    assert_eq!(
        refused(&mut s, "allied", &rail("a1", "0501")),
        refusal(
            "F40-10.1",
            "a1 cannot go by rail from 0101 to 0501: 0501 is not in France (allied rail runs in \
             France only)"
        )
    );
    let events = ok(&mut s, "allied", &rail("a1", "0302"));
    assert_eq!(
        events,
        vec![
            moved("a1", Some("0101"), &["0302"], 0.0),
            status_changed("a1", &["railed"], &[]),
            var("rail_used", json!("a1")),
        ]
    );
    assert_eq!(
        refused(&mut s, "allied", &rail("a2", "0201")),
        refusal(
            "F40-10.1",
            "only one unit per movement phase may move by rail (a1 already did)"
        )
    );
    assert_eq!(
        refused(&mut s, "allied", &mv("a1", &["0202"])),
        refusal("F40-10.1", "a1 has moved by rail this phase")
    );
    assert_eq!(legal_of(&mut s, "allied", "rail"), Vec::<Command>::new());
    // The next movement phase has its own rail move.
    advance_to(&mut s, 2, 4);
    assert_eq!(legal_of(&mut s, "allied", "rail").len(), 10);
}

#[test]
fn f40_10_1_a_unit_that_moved_may_not_also_go_by_rail() {
    let mut s = session("rail");
    advance_to(&mut s, 1, 2);
    ok(&mut s, "allied", &mv("a2", &["0202"]));
    assert_eq!(
        refused(&mut s, "allied", &rail("a2", "0301")),
        refusal("F40-10.1", "a2 has already moved this phase")
    );
}

/// F40-10.1: a unit standing outside its side's rail country has no route, and the refusal
/// says that (it named every cause a route can fail for).
#[test]
fn f40_10_1_a_rail_refusal_names_a_start_outside_the_rail_country() {
    let mut s = session("rail");
    advance_to(&mut s, 1, 2);
    let units = setup_unit("a1", "allied", "french", "infantry", 4, "0101")
        + &setup_unit("a9", "allied", "french", "infantry", 4, "0601");
    setup(&mut s, &units);
    assert_eq!(
        refused(&mut s, "allied", &rail("a9", "0101")),
        refusal(
            "F40-10.1",
            "a9 cannot go by rail from 0601 to 0101: it starts at 0601, outside France (allied \
             rail runs in France only)"
        )
    );
}

/// F40-10.4: the per-port count in the refusal, one division-equivalent said as one.
#[test]
fn f40_10_4_a_port_that_evacuated_one_division_says_so_in_the_singular() {
    let mut s = session("evacuation");
    advance_to(&mut s, 1, 2);
    ok(&mut s, "allied", &evacuate("d1"));
    assert_eq!(
        refused(&mut s, "allied", &evacuate("c1")),
        refusal(
            "F40-10.4",
            "port 0101 has evacuated 1 division-equivalent this phase; c1 (3) would exceed 3"
        )
    );
}

#[test]
fn f40_10_4_naval_evacuation_from_ports() {
    // evacuation: ports 0101 and 0301. c1 (BEF corps), d1 and r1 (regiment) at 0101; d3 (MA 1)
    // at 0201; d4 (MA 2) at 0401.
    let mut s = session("evacuation");
    assert_eq!(
        refused(&mut s, "german", &evacuate("c1")),
        refusal("F40-10.4", "only Allied units are evacuated")
    );
    advance_to(&mut s, 1, 2);
    assert_eq!(
        legal_of(&mut s, "allied", "evacuate"),
        vec![evacuate("c1"), evacuate("d1"), evacuate("r1")]
    );
    assert_eq!(
        refused(&mut s, "allied", &evacuate("d3")),
        refusal("F40-10.4", "d3 is not in a port hex")
    );
    assert_eq!(
        ok(&mut s, "allied", &evacuate("c1")),
        vec![
            var("evacuated", json!({"0101": 3})),
            Event::UnitRemoved {
                unit: "c1".into(),
                reason: "evacuated".into()
            },
            var("bef_corps_evacuated", json!(1)),
        ]
    );
    let gone = &s.game.state().gone["c1"];
    assert!(!gone.eliminated);
    // One corps-equivalent per port per phase; a regiment counts 0.
    assert_eq!(
        refused(&mut s, "allied", &evacuate("d1")),
        refusal(
            "F40-10.4",
            "port 0101 has evacuated 3 division-equivalents this phase; d1 (1) would exceed 3"
        )
    );
    ok(&mut s, "allied", &evacuate("r1"));
    // 1 MP spent in the port hex: d3 (MA 1) arrives with nothing left, d4 (MA 2) with 1.
    ok(&mut s, "allied", &mv("d3", &["0301"]));
    assert_eq!(
        refused(&mut s, "allied", &evacuate("d3")),
        refusal(
            "F40-10.4",
            "d3 has 0 MP left; evacuation costs 1 MP in the port hex"
        )
    );
    ok(&mut s, "allied", &mv("d4", &["0301"]));
    assert_eq!(legal_of(&mut s, "allied", "evacuate"), vec![evacuate("d4")]);
    assert_eq!(
        ok(&mut s, "allied", &evacuate("d4")),
        vec![
            var("evacuated", json!({"0101": 3, "0301": 1})),
            Event::UnitRemoved {
                unit: "d4".into(),
                reason: "evacuated".into()
            },
        ]
    );
    // The count is per phase: the next Allied movement phase starts afresh (d3, in port 0301
    // since turn 1, has its full MP again).
    advance_to(&mut s, 2, 4);
    assert_eq!(s.game.state().vars.get("evacuated"), None);
    assert_eq!(
        legal_of(&mut s, "allied", "evacuate"),
        vec![evacuate("d1"), evacuate("d3")]
    );
}

// airborne: a German major city at 0101 (range 10: up to 1101); sea at 0501; a1 (Allied) at
// 0701, a2 at 0901 (Maginot). g1 (German foot) at 0201. Off the map: paras p1, p2, p3 (from
// turn 2) and the airlanding division al.
const TARGETS: [&str; 10] = [
    "0101", "0201", "0301", "0401", "0601", "0701", "0801", "0901", "1001", "1101",
];

#[test]
fn f40_11_1_drops_within_ten_hexes_of_a_supplied_friendly_city() {
    let mut s = session("airborne");
    let mut expected = Vec::new();
    for unit in ["al", "p1", "p2"] {
        for to in TARGETS {
            expected.push(drop_at(unit, to));
        }
    }
    assert_eq!(legal_of(&mut s, "german", "drop"), expected);
    assert_eq!(
        refused(&mut s, "german", &drop_at("p1", "1201")),
        refusal(
            "F40-11.1",
            "1201 is more than 10 hexes from every supplied german city in friendly territory"
        )
    );
    assert_eq!(
        refused(&mut s, "german", &drop_at("p1", "0501")),
        refusal("F40-11.1", "airborne units drop on land hexes only")
    );
    assert_eq!(
        refused(&mut s, "german", &drop_at("p3", "0201")),
        refusal("F40-11.1", "p3 is not available before turn 2")
    );
    assert_eq!(
        refused(&mut s, "german", &drop_at("g1", "0201")),
        refusal("F40-11.1", "g1 is not an airborne unit")
    );
    // At the start of the assault only: not once a unit has moved.
    ok(&mut s, "german", &mv("g1", &["0301"]));
    assert_eq!(
        refused(&mut s, "german", &drop_at("p1", "0201")),
        refusal(
            "F40-11.1",
            "drops happen at the start of the assault, before any movement (g1 has moved)"
        )
    );
    assert_eq!(legal_of(&mut s, "german", "drop"), Vec::<Command>::new());
}

#[test]
fn f40_11_5_a_drop_on_an_enemy_hex_cancels_its_hexsides_for_the_next_combat() {
    let mut s = session("airborne");
    let events = ok(&mut s, "german", &drop_at("p1", "0701"));
    assert_eq!(
        events,
        vec![
            moved("p1", None, &["0701"], 0.0),
            // No ControlChanged: 0601 (a1's uncontested ZOC) and 1001 (a2's) were judged Allied
            // at the start (7.3 + 7.1b), and 0701, now holding units of both sides in no ZOC
            // (p1 has none, 11.3), stays Allied (7.1c).
            status_changed("p1", &["dropped"], &[]),
            var("airborne_hexsides", json!(["0701"])),
        ]
    );
    // Not on a Maginot hex (0901).
    let events = ok(&mut s, "german", &drop_at("al", "0901"));
    assert_eq!(
        events,
        vec![
            moved("al", None, &["0901"], 0.0),
            status_changed("al", &["dropped"], &[]),
        ]
    );
    ok(&mut s, "german", &Command::EndPhase);
    let query = |s: &mut hexwar::Session| {
        s.game
            .query("airborne_hexsides", &Value::Null)
            .unwrap()
            .unwrap()
    };
    assert_eq!(query(&mut s), json!(["0701"]));
    // Cleared when that combat phase ends.
    let events = ok(&mut s, "german", &Command::EndPhase);
    assert!(events.contains(&var("airborne_hexsides", Value::Null)));
    assert_eq!(query(&mut s), Value::Null);
}

#[test]
fn f40_11_2_airborne_units_stacked_with_an_enemy_at_the_next_assault_are_eliminated() {
    let mut s = session("airborne");
    ok(&mut s, "german", &drop_at("p1", "0701"));
    ok(&mut s, "german", &drop_at("al", "0901"));
    ok(&mut s, "german", &drop_at("p2", "0401"));
    ok(&mut s, "german", &Command::EndPhase);
    let events = ok(&mut s, "german", &Command::EndPhase);
    let fates: Vec<&Event> = events
        .iter()
        .filter(|e| {
            matches!(e, Event::UnitEliminated { .. })
                || matches!(e, Event::UnitStatusChanged { remove, .. } if remove.iter().any(|f| f == "dropped"))
        })
        .collect();
    let reason = "F40-11.2: stacked with an enemy unit at the start of the following assault";
    assert_eq!(
        fates,
        vec![
            &Event::UnitEliminated {
                unit: "al".into(),
                reason: reason.into()
            },
            &Event::UnitEliminated {
                unit: "p1".into(),
                reason: reason.into()
            },
            &status_changed("p2", &[], &["dropped"]),
        ]
    );
}

#[test]
fn f40_11_3_para_regiments_are_enterable_and_withdrawn_when_joined_by_supplied_friends() {
    let mut s = session("airborne");
    ok(&mut s, "german", &drop_at("p2", "0301"));
    ok(&mut s, "german", &drop_at("p1", "0601"));
    ok(&mut s, "german", &mv("g1", &["0301"]));
    ok(&mut s, "german", &Command::EndPhase);
    // End of the assault: p2 is stacked with g1 (supplied): removed, back on turn 3.
    let events = ok(&mut s, "german", &Command::EndPhase);
    assert!(events.contains(&Event::UnitRemoved {
        unit: "p2".into(),
        reason: "withdrawn".into()
    }));
    assert!(events.contains(&var("para_pool", json!({"p2": 3}))));
    // p1 (alone at 0601, no ZOC) may be entered by a1 (R8): 1 MP, no stop before.
    assert_eq!(reach(&mut s, "a1").get("0601"), Some(&1.0));
    let events = ok(&mut s, "allied", &mv("a1", &["0601"]));
    assert!(events.contains(&moved("a1", Some("0701"), &["0601"], 1.0)));
    // Turn 3, German assault 1: p2 is back in the pool, off the map.
    advance_to(&mut s, 3, 0);
    let p2 = &s.game.state().units["p2"];
    assert_eq!(p2.at, None);
    assert_eq!(s.game.state().vars.get("para_pool"), None);
    assert!(legal_of(&mut s, "german", "drop").contains(&drop_at("p2", "0201")));
}

/// F40-11.3: "stacked with a supplied friendly unit" is judged at the end of the assault, as
/// the units stand: the 22nd Airlanding dropped with a para regiment beyond the sea, next to
/// the Allies, cannot trace supply (its `isolated` status, judged at the assault's start, said
/// nothing of it), so the regiment stays.
#[test]
fn f40_11_3_a_para_regiment_beside_an_unsupplied_friend_is_not_withdrawn() {
    let mut s = session("airborne");
    ok(&mut s, "german", &drop_at("p1", "0601"));
    ok(&mut s, "german", &drop_at("al", "0601"));
    assert_eq!(supply(&mut s).get("al"), Some(&false));
    ok(&mut s, "german", &Command::EndPhase);
    let events = ok(&mut s, "german", &Command::EndPhase);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::UnitRemoved { reason, .. } if reason == "withdrawn")),
        "{events:?}"
    );
    assert_eq!(s.game.state().vars.get("para_pool"), None);
    assert_eq!(s.game.state().units["p1"].at.as_deref(), Some("0601"));
}

/// F40-10.1: a unit that starts in an enemy ZOC may not go by rail, and the refusal says so.
#[test]
fn f40_10_1_a_unit_starting_in_an_enemy_zoc_is_told_so() {
    let mut s = session("rail");
    let units = format!(
        "turn = 2\nside = \"allied\"\n{}{}",
        setup_unit("g1", "german", "german", "infantry", 4, "0502"),
        setup_unit("a1", "allied", "french", "infantry", 4, "0402"),
    );
    setup(&mut s, &units);
    assert_eq!(
        refused(&mut s, "allied", &rail("a1", "0101")),
        refusal(
            "F40-10.1",
            "a1 cannot go by rail from 0402 to 0101: it starts in an enemy ZOC"
        )
    );
}

#[test]
fn f40_11_4_the_airlanding_division_may_not_move_in_the_assault_of_its_drop() {
    let mut s = session("airborne");
    ok(&mut s, "german", &drop_at("al", "0401"));
    assert_eq!(
        refused(&mut s, "german", &mv("al", &["0301"])),
        refusal("F40-11.4", "al may not move in the assault of its drop")
    );
    assert_eq!(reach(&mut s, "al"), costs(&[]));
    // Afterwards it is a normal unit: next German assault (turn 2), MA 3.
    advance_to(&mut s, 2, 0);
    assert_eq!(
        reach(&mut s, "al"),
        costs(&[("0301", 1.0), ("0201", 2.0), ("0101", 3.0)])
    );
}

#[test]
fn every_listed_command_is_accepted() {
    // (fixture, turn, step): the legal lists bots choose from hold only accepted commands.
    for (fixture, turn, step) in [("airborne", 1, 0), ("rail", 1, 2), ("evacuation", 1, 2)] {
        let mut s = session(fixture);
        advance_to(&mut s, turn, step);
        let side = s.game.phasing_side().unwrap();
        let legal = s.game.legal_commands(&side).unwrap();
        assert!(legal.len() > 1, "{fixture}: {legal:?}");
        for c in &legal {
            let mut fresh = session(fixture);
            advance_to(&mut fresh, turn, step);
            ok(&mut fresh, &side, c);
        }
    }
}

/// F40-11.3: a para regiment (attrs `para`, size III) has no movement factor, whatever MA a
/// setup gives it; a para-marked unit of another size is an ordinary unit, whose hex enemies
/// may not enter (R8 names the regiments only).
#[test]
fn f40_11_3_para_regiments_have_no_movement_factor_and_only_regiments_are_enterable() {
    let para = |size: &str, at: &str| {
        format!(
            "[[unit]]\nid = \"p1\"\nside = \"german\"\nnation = \"german\"\ntype = \"airborne\"\n\
             size = \"{size}\"\nma = 4\nstrength = 3\nat = \"{at}\"\n\
             attrs = {{ airborne = true, para = true }}\n\n"
        )
    };
    let units = format!("turn = 2\n{}", para("III", "3607"));
    assert_eq!(
        on_france_setup("11_3_para_ma", &units, "reach", Some("p1")),
        json!({"unit": "p1", "hexes": {}, "may_move_now": false,
               "note": "the rules list no move of p1 now (turn 2, movement (german))"})
    );
    let mut s = session("airborne");
    setup(&mut s, &units.replace("3607", "0201"));
    assert_eq!(
        refused(&mut s, "german", &mv("p1", &["0301"])),
        refusal("F40-11.3", "para regiments have no movement factor")
    );
    // A para division next to a French division: not enterable (F40-9.5), it has a ZOC.
    let units = format!(
        "turn = 2\n{}{}",
        setup_unit("a1", "allied", "french", "infantry", 4, "3407"),
        para("XX", "3507")
    );
    assert_eq!(
        on_france_setup("11_3_para_division", &units, "reach", Some("a1")),
        json!({"unit": "a1", "hexes": {"3306": 2, "3307": 2, "3406": 2}, "may_move_now": false,
               "note": "a1 may not move now (turn 2, movement (german)): these are the hexes it \
                        could reach if its side moved in this phase"})
    );
    // The same unit as a regiment: its hex may be entered (and it has no ZOC, 6.1).
    let units = units.replace(
        "size = \"XX\"\nma = 4\nstrength = 3\nat = \"3507\"",
        "size = \"III\"\nma = 4\nstrength = 3\nat = \"3507\"",
    );
    let hexes = on_france_setup("11_3_para_regiment", &units, "reach", Some("a1"));
    assert_eq!(hexes["hexes"]["3507"], json!(1), "{hexes}");
}

/// F40-R8 with 11.1: units of a still-neutral country block their hex to drops too. 11.1's
/// "enemy-occupied hex" is not theirs (they are nobody's enemy before the invasion, and R9
/// judges the drop on the position at its start): a drop on The Hague (2206, Dutch units) on
/// turn 1 was accepted, invaded the Netherlands and cancelled the hex's hexsides (11.5). It is
/// refused with the state unchanged, and the listing leaves such hexes out.
#[test]
fn f40_r8_a_drop_on_a_hex_of_still_neutral_units_is_refused() {
    let mut s =
        hexwar::Session::start(std::path::Path::new("scenarios/france1940"), Some(1)).unwrap();
    let before = serde_json::to_string(s.game.state()).unwrap();
    assert_eq!(
        refused(&mut s, "german", &drop_at("de-fjr-1", "2206")),
        refusal(
            "F40-R8",
            "2206 holds units of a still-neutral country, which block their hex"
        )
    );
    assert_eq!(serde_json::to_string(s.game.state()).unwrap(), before);
    let listed = legal_of(&mut s, "german", "drop");
    assert!(!listed.is_empty());
    for to in ["2206", "2207", "2606"] {
        assert!(!listed.contains(&drop_at("de-fjr-1", to)), "{to}");
    }
    // (an empty hex beside it is a drop as before)
    assert!(listed.contains(&drop_at("de-fjr-1", "2306")));
}
