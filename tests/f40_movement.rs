//! F40 movement, zones of control, terrain, hexsides, stacking and the sequence of play
//! (rules/france1940, RULES.md F40-5, 6, 9, 10.2, 10.3 and readings R1-R8, R14) on the small
//! maps of tests/fixtures/f40. Expected values are worked out by hand from the clauses; the
//! fixture headers describe each position. Hex geometry: flat-topped, odd columns shifted
//! down, so an odd column (c, r) touches (c, r±1), (c±1, r), (c±1, r+1) and an even one
//! (c, r±1), (c±1, r-1), (c±1, r).

mod f40;

use f40::*;
use hexwar::engine::{Command, Event};
use serde_json::json;

// ZOC fixture: g-inf and g-pz at 0403 (in a1's ZOC); a1 at 0502 and a2 at 0504 make 0402
// (a1), 0404 (a2, holding the German g-inf2) and 0503 (both) the other enemy-ZOC hexes
// around 0403. 0302 and 0303 are free of enemy ZOC.
const FOOT_FROM_0403: &[(&str, f64)] = &[
    ("0101", 4.0),
    ("0102", 4.0),
    ("0103", 4.0),
    ("0104", 4.0),
    ("0201", 4.0),
    ("0202", 3.0),
    ("0203", 3.0),
    ("0204", 3.0),
    ("0205", 4.0),
    ("0301", 3.0),
    ("0302", 2.0),
    ("0303", 2.0),
    ("0304", 3.0),
    ("0305", 4.0),
    ("0401", 4.0),
    ("0402", 3.0),
    ("0404", 3.0),
    ("0405", 4.0),
];

#[test]
fn f40_6_4_non_motorized_cannot_go_zoc_to_zoc() {
    let mut s = session("zoc");
    // Foot, MA 4, starting in enemy ZOC: out through 0302/0303 only (1 + 1 to leave, R2);
    // 0402 and 0404 only from a ZOC-free hex (cost 3, where it stops); 0503 (ZOC of both, R3)
    // never; 0501 would cost 5.
    assert_eq!(reach(&mut s, "g-inf"), costs(FOOT_FROM_0403));
    // Motorized: may step straight into 0402, 0404 and 0503, paying the +1 once (R2), and stops.
    let mut motorized = costs(FOOT_FROM_0403);
    motorized.insert("0402".into(), 2.0);
    motorized.insert("0404".into(), 2.0);
    motorized.insert("0503".into(), 2.0);
    assert_eq!(reach(&mut s, "g-pz"), motorized);
    assert_eq!(
        refused(&mut s, "german", &mv("g-inf", &["0503"])),
        refusal(
            "F40-6.4",
            "non-motorized unit cannot move from enemy ZOC to enemy ZOC (step 1: 0403 to 0503)"
        )
    );
    let events = ok(&mut s, "german", &mv("g-pz", &["0503"]));
    assert!(events.contains(&moved("g-pz", Some("0403"), &["0503"], 2.0)));
}

#[test]
fn f40_r4_a_friendly_unit_does_not_cancel_enemy_zoc_for_movement() {
    let mut s = session("zoc");
    // 0404 holds the German g-inf2 but is in a2's ZOC: still ZOC to ZOC for g-inf.
    assert_eq!(
        refused(&mut s, "german", &mv("g-inf", &["0404"])),
        refusal(
            "F40-6.4",
            "non-motorized unit cannot move from enemy ZOC to enemy ZOC (step 1: 0403 to 0404)"
        )
    );
}

#[test]
fn f40_6_2_a_unit_entering_enemy_zoc_stops() {
    let mut s = session("zoc");
    assert_eq!(
        refused(&mut s, "german", &mv("g-pz", &["0503", "0603"])),
        refusal(
            "F40-6.2",
            "a unit that enters an enemy ZOC stops there (step 2: 0503 to 0603)"
        )
    );
    assert_eq!(
        refused(&mut s, "german", &mv("g-inf", &["0303", "0404", "0405"])),
        refusal(
            "F40-6.2",
            "a unit that enters an enemy ZOC stops there (step 3: 0404 to 0405)"
        )
    );
}

#[test]
fn f40_6_3_leaving_enemy_zoc_costs_one_more_mp() {
    let mut s = session("zoc");
    let events = ok(&mut s, "german", &mv("g-inf", &["0302", "0301"]));
    // 0302: clear 1 + 1 to leave the ZOC start hex; 0301: clear 1 (R2: paid once).
    assert_eq!(
        events,
        vec![
            entered("g-inf", "0302"),
            entered("g-inf", "0301"),
            moved("g-inf", Some("0403"), &["0302", "0301"], 3.0),
            // F40-7.1 after the move, in map order (row by row): g-inf occupies 0301 and adds
            // its uncontested ZOC in 0201, 0401 and 0202 (0302 too, German since the start;
            // 0402 stays contested by a1). The rest was judged at the start (7.3 + 7.1): German
            // uncontested ZOC of g-pz (0403) and g-inf2 (0404) in 0302, 0303, 0304, Allied
            // uncontested ZOC of a1 (0502) and a2 (0504) in 0501, 0602, 0603, 0604, 0505, 0605;
            // 0402, 0405 and 0503 contested, nobody's.
            control("0201", "german"),
            control("0301", "german"),
            control("0401", "german"),
            control("0202", "german"),
            status_changed("g-inf", &["moved"], &[]),
            var("mp_spent", json!({"g-inf": 3.0})),
        ]
    );
}

#[test]
fn f40_9_5_enemy_occupied_hexes_are_never_entered() {
    let mut s = session("zoc");
    assert_eq!(
        refused(&mut s, "german", &mv("g-inf", &["0502"])),
        refusal(
            "F40-9.5",
            "a unit never enters a hex held by enemy units, or by a neutral country's (R8) (step 1: 0403 to 0502); 0502 holds a1"
        )
    );
}

#[test]
fn f40_6_1_regiments_disorganized_units_and_sea_or_lake_hexsides_stop_no_zoc() {
    // Row 1 runs 0101-1201. Beside it in row 2: an Allied regiment (0302), a disorganized
    // division (0502), a division behind a lake hexside (0702), one behind a sea hexside with a
    // causeway (0902, R6), and a still-neutral division (1102, R8): none puts its row-1 hex in
    // ZOC, so g walks the whole row. Row 2: 0602, 0802 and 1002 are in ZOC (stops).
    let mut s = session("zoc_exceptions");
    assert_eq!(
        reach(&mut s, "g"),
        costs(&[
            ("0102", 1.0),
            ("0201", 1.0),
            ("0202", 1.0),
            ("0301", 2.0),
            ("0401", 3.0),
            ("0402", 3.0),
            ("0501", 4.0),
            ("0601", 5.0),
            ("0602", 5.0),
            ("0701", 6.0),
            ("0801", 7.0),
            ("0802", 7.0),
            ("0901", 8.0),
            ("1001", 9.0),
            ("1002", 9.0),
            ("1101", 10.0),
            ("1201", 11.0),
            ("1202", 11.0),
        ])
    );
    let path = [
        "0201", "0301", "0401", "0501", "0601", "0701", "0801", "0901", "1001", "1101", "1201",
    ];
    let events = ok(&mut s, "german", &mv("g", &path));
    assert!(events.contains(&moved("g", Some("0101"), &path, 11.0)));
}

#[test]
fn f40_9_2_terrain_costs_by_class() {
    // 0101 clear, 0201 marsh, 0301 forest, 0401 hills, 0501 wooded hills, 0601 mountains,
    // 0701 major city, 0801 clear holding a disorganized German division (+2, F40-9.5).
    let mut s = session("terrain");
    assert_eq!(
        reach(&mut s, "g-foot"),
        costs(&[
            ("0201", 2.0),
            ("0301", 4.0),
            ("0401", 5.0),
            ("0501", 7.0),
            ("0601", 10.0),
            ("0701", 11.0),
            ("0801", 14.0),
        ])
    );
    // Mountain infantry: mountains 2 (and it is not motorized, R5: marsh is open to it).
    assert_eq!(
        reach(&mut s, "g-mtn"),
        costs(&[
            ("0201", 2.0),
            ("0301", 4.0),
            ("0401", 5.0),
            ("0501", 7.0),
            ("0601", 9.0),
            ("0701", 10.0),
            ("0801", 13.0),
        ])
    );
    // Motorized (armored by type; g-motinf by its class attribute): marsh prohibited,
    // mountains cost 6 (R5).
    let motorized = costs(&[
        ("0401", 1.0),
        ("0501", 3.0),
        ("0601", 9.0),
        ("0701", 10.0),
        ("0801", 13.0),
    ]);
    assert_eq!(reach(&mut s, "g-mot"), motorized);
    assert_eq!(reach(&mut s, "g-motinf"), motorized);
    assert_eq!(
        refused(&mut s, "german", &mv("g-mot", &["0201"])),
        refusal(
            "F40-9.2",
            "motorized units may not enter marsh (step 1: 0301 to 0201)"
        )
    );
}

#[test]
fn f40_9_3_hexside_costs_for_the_allies() {
    // 0101 |major river| 0201 |minor river| 0301 |sea| 0401 |sea + causeway| 0501 |lake| 0601.
    let mut s = session("hexsides/allied.toml");
    // Major river +2 (3), minor river +0 (F40-9.4), sea +1, causeway still +1 for the Allies (R6).
    assert_eq!(
        reach(&mut s, "a"),
        costs(&[("0201", 3.0), ("0301", 4.0), ("0401", 6.0), ("0501", 8.0)])
    );
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(
            &mut s,
            "allied",
            &mv("a", &["0201", "0301", "0401", "0501", "0601"])
        ),
        refusal(
            "F40-9.3",
            "allied foot units may not cross this hexside (lake) (step 5: 0501 to 0601)"
        )
    );
}

#[test]
fn f40_10_3_germans_cross_sea_hexsides_only_along_causeways() {
    let mut s = session("hexsides/german.toml");
    assert_eq!(reach(&mut s, "g1"), costs(&[("0201", 3.0), ("0301", 4.0)]));
    // Along the causeway at no extra cost (R6); never across the plain sea hexside.
    assert_eq!(reach(&mut s, "g2"), costs(&[("0501", 1.0)]));
    assert_eq!(
        refused(&mut s, "german", &mv("g1", &["0201", "0301", "0401"])),
        refusal(
            "F40-9.3",
            "german foot units may not cross this hexside (sea) (step 3: 0301 to 0401)"
        )
    );
}

#[test]
fn f40_10_2_no_entry_into_enemy_territory_across_a_sea_hexside() {
    // As german.toml, but 0501 is Allied territory: the causeway does not help.
    let mut s = session("hexsides/german_territory.toml");
    assert_eq!(reach(&mut s, "g2"), costs(&[]));
    assert_eq!(
        refused(&mut s, "german", &mv("g2", &["0501"])),
        refusal(
            "F40-10.2",
            "no unit may enter enemy territory across this hexside (causeway, sea) (step 1: 0401 to 0501)"
        )
    );
}

#[test]
fn f40_10_2_no_entry_into_enemy_zoc_across_a_sea_hexside() {
    // a-mot (Allied, motorized) at 0301; the German g at 0402 puts 0401 and 0301 in ZOC.
    let mut s = session("hexsides/allied_zoc.toml");
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(&mut s, "allied", &mv("a-mot", &["0401"])),
        refusal(
            "F40-10.2",
            "no unit may enter an enemy ZOC across this hexside (sea) (step 1: 0301 to 0401)"
        )
    );
}

#[test]
fn f40_5_1_and_5_2_stacking_is_checked_when_the_phase_ends() {
    // 0101 holds a corps and a division (4); g-d2 joins them: allowed during the phase (5.1),
    // but the phase cannot end with 5 division-equivalents there (5.2).
    let mut s = session("stacking");
    ok(&mut s, "german", &mv("g-d2", &["0201", "0101"]));
    assert_eq!(
        legal_of(&mut s, "german", "end_phase"),
        Vec::<Command>::new()
    );
    assert_eq!(
        refused(&mut s, "german", &Command::EndPhase),
        refusal(
            "F40-5.2",
            "hex 0101 holds 5 division-equivalents of german units at the end of the phase (at most 4): g-c1 (3), g-d1 (1), g-d2 (1); g-c1, g-d1 can still move"
        )
    );
}

/// F40-5.1: when every unit in the hex over the limit has moved, no command can bring it back
/// within it, and the refusal says so (the phase cannot end as played; `legal` lists nothing).
/// g-c1 and g-c2 (corps, 3 each) both move into 0201: 6.
#[test]
fn f40_5_1_a_stack_no_move_can_undo_is_said_to_be_one() {
    let mut s = session("stacking");
    let corps = |id: &str, at: &str| {
        format!(
            "[[unit]]\nid = \"{id}\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
             size = \"XXX\"\nma = 4\nstrength = 9\nat = \"{at}\"\n\n"
        )
    };
    setup(
        &mut s,
        &format!("{}{}", corps("g-c1", "0101"), corps("g-c2", "0301")),
    );
    ok(&mut s, "german", &mv("g-c1", &["0201"]));
    ok(&mut s, "german", &mv("g-c2", &["0201"]));
    assert_eq!(
        refused(&mut s, "german", &Command::EndPhase),
        refusal(
            "F40-5.2",
            "hex 0201 holds 6 division-equivalents of german units at the end of the phase (at most 4): g-c1 (3), g-c2 (3); \
             every german unit there has moved, so no move can undo it: play the phase again from its \
             start (a save from before it) with other moves (F40-5.1)"
        )
    );
}

#[test]
fn f40_5_3_at_most_three_armored_division_equivalents() {
    // 0201 holds an armored corps (3): an armored division makes 4 equivalents (within 5.2)
    // but 4 armored ones.
    let mut s = session("stacking");
    ok(&mut s, "german", &mv("g-pz1", &["0201"]));
    assert_eq!(
        refused(&mut s, "german", &Command::EndPhase),
        refusal(
            "F40-5.3",
            "hex 0201 holds 4 armored division-equivalents of german units at the end of the phase (at most 3): g-pz1 (1), g-pzc (3); g-pzc can still move"
        )
    );
}

#[test]
fn f40_r14_regiments_count_zero_and_only_the_ending_side_is_counted() {
    // An armored regiment joins the armored corps (3 + 0); the Allied stack at 0601 (two corps,
    // 6) is the Allies' business at the end of their own phases.
    let mut s = session("stacking");
    ok(&mut s, "german", &mv("g-r", &["0201"]));
    assert_eq!(
        legal_of(&mut s, "german", "end_phase"),
        vec![Command::EndPhase]
    );
    ok(&mut s, "german", &Command::EndPhase);
    ok(&mut s, "german", &Command::EndPhase);
    assert_eq!(
        refused(&mut s, "allied", &Command::EndPhase),
        refusal(
            "F40-5.2",
            "hex 0601 holds 6 division-equivalents of allied units at the end of the phase (at most 4): a-c1 (3), a-c2 (3); a-c1, a-c2 can still move"
        )
    );
}

fn phases(s: &hexwar::Session) -> Vec<(u32, u32, String, String)> {
    s.game
        .log()
        .iter()
        .filter_map(|e| match e {
            Event::PhaseStarted {
                turn,
                step,
                side,
                phase,
            } => Some((*turn, *step, side.clone().unwrap(), phase.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn f40_18_1_sequence_of_play_turn_1_has_one_assault_per_player() {
    let mut s = session("zoc");
    advance_to(&mut s, 3, 0);
    let p = |t, st, side: &str, ph: &str| (t, st, side.to_string(), ph.to_string());
    assert_eq!(
        phases(&s),
        vec![
            p(1, 0, "german", "movement"),
            p(1, 1, "german", "combat"),
            p(1, 2, "allied", "movement"),
            p(1, 3, "allied", "combat"),
            p(2, 0, "german", "movement"),
            p(2, 1, "german", "combat"),
            p(2, 2, "german", "movement"),
            p(2, 3, "german", "combat"),
            p(2, 4, "allied", "movement"),
            p(2, 5, "allied", "combat"),
            p(2, 6, "allied", "movement"),
            p(2, 7, "allied", "combat"),
            p(3, 0, "german", "movement"),
        ]
    );
    // Each movement phase opens an assault: VarSet assault, AssaultStarted, AssaultSupply.
    let opened: Vec<serde_json::Value> = s
        .game
        .log()
        .iter()
        .filter_map(|e| match e {
            Event::Custom { name, data } if name == "AssaultStarted" => Some((**data).clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        opened,
        vec![
            json!({"turn": 1, "side": "german", "assault": 1}),
            json!({"turn": 1, "side": "allied", "assault": 1}),
            json!({"turn": 2, "side": "german", "assault": 1}),
            json!({"turn": 2, "side": "german", "assault": 2}),
            json!({"turn": 2, "side": "allied", "assault": 1}),
            json!({"turn": 2, "side": "allied", "assault": 2}),
            json!({"turn": 3, "side": "german", "assault": 1}),
        ]
    );
}

#[test]
fn f40_9_1_second_assault_allows_half_the_ma() {
    let mut s = session("zoc");
    advance_to(&mut s, 2, 2);
    // MA 4 halved: 2 MP, just enough to leave the ZOC hex (1 + 1).
    assert_eq!(
        reach(&mut s, "g-inf"),
        costs(&[("0302", 2.0), ("0303", 2.0)])
    );
    assert_eq!(
        reach(&mut s, "g-pz"),
        costs(&[
            ("0302", 2.0),
            ("0303", 2.0),
            ("0402", 2.0),
            ("0404", 2.0),
            ("0503", 2.0)
        ])
    );
    assert_eq!(
        refused(&mut s, "german", &mv("g-inf", &["0302", "0301"])),
        refusal(
            "F40-9.1",
            "the path costs 3 MP by this step, more than the 2 MP allowed (step 2: 0302 to 0301) (MA 4 halved: second assault, F40-9.1)"
        )
    );
    // Named by its destination, the move is refused with the same halving said.
    assert_eq!(
        refused(&mut s, "german", &mv("g-inf", &["0301"])),
        refusal(
            "F40-9.1",
            "g-inf cannot reach 0301 this phase (2 MP, MA 4 halved: second assault, F40-9.1); \
             `hexwar reach` lists where it can, and a path given hex by hex names what stops it \
             (an enemy ZOC, F40-6.2)"
        )
    );
    // Movement is never compulsory: the phase ends with nobody moved.
    ok(&mut s, "german", &Command::EndPhase);
}

#[test]
fn legal_moves_are_exactly_the_reach_with_paths() {
    let mut s = session("zoc");
    let moves = legal_of(&mut s, "german", "move");
    let g_inf: Vec<String> = moves
        .iter()
        .filter_map(|c| match c {
            Command::Move { unit, path } if unit == "g-inf" => Some(path.last().unwrap().clone()),
            _ => None,
        })
        .collect();
    let expected: Vec<String> = FOOT_FROM_0403.iter().map(|(l, _)| l.to_string()).collect();
    assert_eq!(g_inf, expected);
    for c in &moves {
        let mut fresh = session("zoc");
        ok(&mut fresh, "german", c);
    }
    // The Allies have no legal move in the German phase.
    assert_eq!(legal_of(&mut s, "allied", "move"), Vec::<Command>::new());
}

/// `reach`'s note on fr1 in the German movement phase of turn N (a setup's side and phase).
const GERMAN_PHASE_NOTE: &str = "fr1 may not move now (turn N, movement (german)): these are the \
                                 hexes it could reach if its side moved in this phase";

#[test]
fn f40_r10_turn_1_reach_of_french_units_stays_in_the_deployment_zone() {
    // fr1 (MA 2) at 1515, clear, just outside the deployment zone (its neighbours 1514, 1615
    // and 1616 are in it; 1516, 1415, 1416 are not). On turn 1 (a setup's default) it may enter
    // only hexes of the zone (18.2, R10): the reach neither lists nor crosses the others.
    let units = setup_unit("fr1", "allied", "french", "infantry", 2, "1515");
    assert_eq!(
        on_france_setup("r10_turn1", &units, "reach", Some("fr1")),
        json!({"unit": "fr1", "hexes": {
            "1414": 2, "1513": 2, "1514": 1, "1614": 2, "1615": 1, "1616": 1, "1714": 2,
            "1715": 2
        }, "may_move_now": false, "note": GERMAN_PHASE_NOTE.replace('N', "1")})
    );
    // From turn 2 on, anywhere in France.
    let units = "turn = 2\n".to_string() + &units;
    assert_eq!(
        on_france_setup("r10_turn2", &units, "reach", Some("fr1")),
        json!({"unit": "fr1", "hexes": {
            "1314": 2, "1414": 2, "1415": 1, "1416": 1, "1513": 2, "1514": 1, "1516": 1,
            "1614": 2, "1615": 1, "1616": 1, "1714": 2, "1715": 2
        }, "may_move_now": false, "note": GERMAN_PHASE_NOTE.replace('N', "2")})
    );
}

#[test]
fn f40_16_1_reach_of_allied_units_stays_out_of_neutral_countries() {
    // fr1 (MA 3) at 1914 (France, by the Belgian border; 1913 is across a major river): the
    // Belgian hexes 1913, 2012-2014, 2112, 2113, 2213-2215 are within 3 MP but Belgium is
    // neutral (F40-16.1), so they are not reached (turn 2, outside 18.2's turn-1 limits).
    let units =
        "turn = 2\n".to_string() + &setup_unit("fr1", "allied", "french", "infantry", 3, "1914");
    assert_eq!(
        on_france_setup("16_1_neutral", &units, "reach", Some("fr1")),
        json!({"unit": "fr1", "hexes": {
            "1814": 3, "1815": 3, "1817": 3, "1915": 1, "1916": 2, "1917": 3, "2015": 1,
            "2016": 2, "2017": 3, "2114": 2, "2115": 2
        }, "may_move_now": false, "note": GERMAN_PHASE_NOTE.replace('N', "2")})
    );
}

// --- F40-5.2: division-equivalents (XX = 1, XXX = 3, III = 0), at most 4 per hex -------------

/// A `[[unit]]` table of a setup position: a German infantry unit of the given size.
fn german_infantry(id: &str, size: &str, at: &str) -> String {
    format!(
        "[[unit]]\nid = \"{id}\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
         size = \"{size}\"\nma = 4\nstrength = 2\nat = \"{at}\"\n\n"
    )
}

/// The stacking fixture (German movement, turn 1) with only the German units `units`
/// (id, size, hex).
fn stacked(units: &[(&str, &str, &str)]) -> hexwar::Session {
    let mut s = session("stacking");
    let toml: String = units
        .iter()
        .map(|(id, size, at)| german_infantry(id, size, at))
        .collect();
    setup(&mut s, &toml);
    s
}

#[test]
fn f40_5_2_four_division_equivalents_may_end_a_phase_in_one_hex() {
    // 0101: a corps (3) + a division (1) + two regiments (0) = 4; 0201: four divisions = 4; the
    // limit is per hex (8 German equivalents on the map).
    let mut s = stacked(&[
        ("c1", "XXX", "0101"),
        ("d1", "XX", "0101"),
        ("r1", "III", "0101"),
        ("r2", "III", "0101"),
        ("d2", "XX", "0201"),
        ("d3", "XX", "0201"),
        ("d4", "XX", "0201"),
        ("d5", "XX", "0201"),
    ]);
    assert_eq!(
        legal_of(&mut s, "german", "end_phase"),
        vec![Command::EndPhase]
    );
    ok(&mut s, "german", &Command::EndPhase);
}

#[test]
fn f40_5_2_a_division_counts_one_so_a_fifth_is_refused() {
    let units = [
        ("d1", "XX", "0101"),
        ("d2", "XX", "0101"),
        ("d3", "XX", "0101"),
        ("d4", "XX", "0101"),
        ("d5", "XX", "0101"),
    ];
    let mut s = stacked(&units);
    assert_eq!(
        legal_of(&mut s, "german", "end_phase"),
        Vec::<Command>::new()
    );
    assert_eq!(
        refused(&mut s, "german", &Command::EndPhase),
        refusal(
            "F40-5.2",
            "hex 0101 holds 5 division-equivalents of german units at the end of the phase (at most 4): d1 (1), d2 (1), d3 (1), d4 (1), d5 (1); d1, d2, d3, d4, d5 can still move"
        )
    );
    // The fifth division moves out (0101 -> 0201, 1 MP): 4 and 1, the phase ends.
    ok(&mut s, "german", &mv("d5", &["0201"]));
    ok(&mut s, "german", &Command::EndPhase);
}

#[test]
fn f40_5_2_a_corps_counts_three() {
    // A corps and two divisions: 3 + 1 + 1 = 5 (a corps counted as 2 would make 4).
    let mut s = stacked(&[
        ("c1", "XXX", "0101"),
        ("d1", "XX", "0101"),
        ("d2", "XX", "0101"),
    ]);
    assert_eq!(
        refused(&mut s, "german", &Command::EndPhase),
        refusal(
            "F40-5.2",
            "hex 0101 holds 5 division-equivalents of german units at the end of the phase (at most 4): c1 (3), d1 (1), d2 (1); c1, d1, d2 can still move"
        )
    );
    // Two corps: 6. A corps and a division: 4, allowed.
    let mut s = stacked(&[("c1", "XXX", "0301"), ("c2", "XXX", "0301")]);
    assert_eq!(
        refused(&mut s, "german", &Command::EndPhase),
        refusal(
            "F40-5.2",
            "hex 0301 holds 6 division-equivalents of german units at the end of the phase (at most 4): c1 (3), c2 (3); c1, c2 can still move"
        )
    );
    let mut s = stacked(&[("c1", "XXX", "0301"), ("d1", "XX", "0301")]);
    ok(&mut s, "german", &Command::EndPhase);
}

#[test]
fn f40_5_2_regiments_count_zero() {
    // Four divisions and six regiments in one hex: 4.
    let mut units = vec![
        ("d1", "XX", "0101"),
        ("d2", "XX", "0101"),
        ("d3", "XX", "0101"),
        ("d4", "XX", "0101"),
    ];
    let regiments = ["r1", "r2", "r3", "r4", "r5", "r6"];
    units.extend(regiments.iter().map(|r| (*r, "III", "0101")));
    let mut s = stacked(&units);
    assert_eq!(
        legal_of(&mut s, "german", "end_phase"),
        vec![Command::EndPhase]
    );
    ok(&mut s, "german", &Command::EndPhase);
    // A corps and a division, then a regiment joins: still 4 (the regiment moves 0201 -> 0101).
    let mut s = stacked(&[
        ("c1", "XXX", "0101"),
        ("d1", "XX", "0101"),
        ("r1", "III", "0201"),
    ]);
    ok(&mut s, "german", &mv("r1", &["0101"]));
    ok(&mut s, "german", &Command::EndPhase);
}

// --- F40-R1: where a ZOC reaches ----------------------------------------------------------------

#[test]
fn f40_r1_zoc_covers_the_six_hexes_around_the_unit_not_its_own_hex() {
    // zoc_hexsides, laid out again: a (Allied) at 0402 and g (German, MA 3) at 0502, next to it;
    // no special hexside touches either. Each ZOC is the unit's six neighbours on the map (0502
    // is in column 5, the last: four): a -> 0301, 0302, 0401, 0403, 0501, 0502; g -> 0402,
    // 0403, 0501, 0503. Neither covers its own hex: 0402 is in German ZOC only, 0502 in Allied
    // ZOC only.
    let mut s = session("zoc_hexsides");
    setup(
        &mut s,
        &(setup_unit("a", "allied", "french", "infantry", 4, "0402")
            + &setup_unit("g", "german", "german", "infantry", 3, "0502")),
    );
    assert_eq!(
        zoc_map(&s),
        zocs(&[
            ("0301", &["allied"]),
            ("0302", &["allied"]),
            ("0401", &["allied"]),
            ("0402", &["german"]),
            ("0403", &["german", "allied"]),
            ("0501", &["german", "allied"]),
            ("0502", &["allied"]),
            ("0503", &["german"]),
        ])
    );
    // g starts in a's ZOC: out to 0503 only (1 + 1 to leave; 0501 and 0403 are in a's ZOC too,
    // 6.4), then one more MP: 0504, 0404, and 0403 where it would stop.
    assert_eq!(
        reach(&mut s, "g"),
        costs(&[("0403", 3.0), ("0404", 3.0), ("0503", 2.0), ("0504", 3.0)])
    );
}

#[test]
fn f40_r1_zoc_crosses_rivers_but_never_a_sea_or_lake_hexside_even_with_a_causeway() {
    // a at 0303 reaches across the major river (0302), the minor river (0304) and the plain
    // hexside (0404); not across the sea (0203), the causeway (0204) nor the lake (0403).
    // g-river (0302) reaches all six of its neighbours, 0303 across the major river; g-sea (0203)
    // five, not 0303 across the sea hexside.
    let mut s = session("zoc_hexsides");
    assert_eq!(
        zoc_map(&s),
        zocs(&[
            ("0102", &["german"]),
            ("0103", &["german"]),
            ("0202", &["german"]),
            ("0203", &["german"]),
            ("0204", &["german"]),
            ("0301", &["german"]),
            ("0302", &["german", "allied"]),
            ("0303", &["german"]),
            ("0304", &["allied"]),
            ("0402", &["german"]),
            ("0403", &["german"]),
            ("0404", &["allied"]),
        ])
    );
    // g-river (MA 2) starts in a's ZOC across the major river: every first step costs 1 + 1;
    // 0403, across the lake from a, is free of ZOC, so a foot unit may step into it (6.4).
    assert_eq!(
        reach(&mut s, "g-river"),
        costs(&[
            ("0202", 2.0),
            ("0203", 2.0),
            ("0301", 2.0),
            ("0402", 2.0),
            ("0403", 2.0)
        ])
    );
    // g-sea (MA 4) starts across the sea hexside: no +1 to leave. It stops in 0302 (major river)
    // and 0304 (minor river), not in 0204 (causeway); 0404 lies beyond 0304 only.
    assert_eq!(
        reach(&mut s, "g-sea"),
        costs(&[
            ("0101", 2.0),
            ("0102", 1.0),
            ("0103", 1.0),
            ("0104", 2.0),
            ("0105", 3.0),
            ("0201", 2.0),
            ("0202", 1.0),
            ("0204", 1.0),
            ("0205", 2.0),
            ("0301", 2.0),
            ("0302", 1.0),
            ("0304", 2.0),
            ("0305", 3.0),
            ("0401", 3.0),
            ("0402", 3.0),
            ("0403", 4.0),
            ("0405", 4.0),
            ("0501", 4.0),
            ("0502", 4.0),
        ])
    );
    assert_eq!(
        refused(&mut s, "german", &mv("g-sea", &["0204", "0304", "0305"])),
        refusal(
            "F40-6.2",
            "a unit that enters an enemy ZOC stops there (step 3: 0304 to 0305)"
        )
    );
    let events = ok(&mut s, "german", &mv("g-sea", &["0204", "0205"]));
    assert_eq!(
        movement_of(&events),
        vec![
            entered("g-sea", "0204"),
            entered("g-sea", "0205"),
            moved("g-sea", Some("0203"), &["0204", "0205"], 2.0),
        ]
    );
}

// --- F40-R2: entering enemy ZOC ends the move; +1 once to leave the start hex ----------------

#[test]
fn f40_r2_entering_an_enemy_zoc_hex_is_allowed_and_ends_the_move() {
    // zoc fixture. g-inf leaves 0403 for the ZOC-free 0302 (1 + 1), then enters 0402 (a1's
    // ZOC): 1 more, 3 in all, and the move ends there.
    let mut s = session("zoc");
    assert_eq!(
        refused(&mut s, "german", &mv("g-inf", &["0302", "0402", "0401"])),
        refusal(
            "F40-6.2",
            "a unit that enters an enemy ZOC stops there (step 3: 0402 to 0401)"
        )
    );
    // The same for a motorized unit: into 0503 (ZOC of both a1 and a2) and no further.
    assert_eq!(
        refused(&mut s, "german", &mv("g-pz", &["0503", "0603"])),
        refusal(
            "F40-6.2",
            "a unit that enters an enemy ZOC stops there (step 2: 0503 to 0603)"
        )
    );
    let events = ok(&mut s, "german", &mv("g-inf", &["0302", "0402"]));
    assert_eq!(
        movement_of(&events),
        vec![
            entered("g-inf", "0302"),
            entered("g-inf", "0402"),
            moved("g-inf", Some("0403"), &["0302", "0402"], 3.0),
        ]
    );
}

#[test]
fn f40_r2_the_plus_one_to_leave_is_paid_once_on_the_first_step_whatever_the_destination() {
    // To a ZOC-free hex and on: 1 + 1, then 1 and 1 (MA 4 exactly).
    let mut s = session("zoc");
    let events = ok(&mut s, "german", &mv("g-inf", &["0303", "0304", "0305"]));
    assert_eq!(
        movement_of(&events),
        vec![
            entered("g-inf", "0303"),
            entered("g-inf", "0304"),
            entered("g-inf", "0305"),
            moved("g-inf", Some("0403"), &["0303", "0304", "0305"], 4.0),
        ]
    );
    // A motorized unit stepping straight into another enemy-ZOC hex pays it too: 1 + 1.
    for to in ["0402", "0404", "0503"] {
        let mut s = session("zoc");
        let events = ok(&mut s, "german", &mv("g-pz", &[to]));
        assert_eq!(
            movement_of(&events),
            vec![entered("g-pz", to), moved("g-pz", Some("0403"), &[to], 2.0)],
            "{to}"
        );
    }
    // Into a ZOC-free hex, then into a ZOC hex: the +1 once (1 + 1, then 1), not again when
    // entering 0404.
    let mut s = session("zoc");
    let events = ok(&mut s, "german", &mv("g-pz", &["0303", "0404"]));
    assert!(events.contains(&moved("g-pz", Some("0403"), &["0303", "0404"], 3.0)));
}

// --- F40-R5: the cost of a step -------------------------------------------------------------------

#[test]
fn f40_r5_step_cost_is_terrain_plus_hexside_extras_plus_zoc_and_disorganized_extras() {
    // step_cost line: g (German) 0101 | x 0201 |major river| forest 0301 (d, disorganized
    // Allied) |sea| hills 0401 |minor river| 0501 (town, port) | 0601 (Maginot, fortification) |
    // 0701 (y). Allied movement, turn 1.
    let mut s = session("step_cost");
    advance_to(&mut s, 1, 2);
    // x starts in g's ZOC. 0301: forest 2 + major river 2 + 1 to leave + 2 for d = 7; 0401:
    // hills 1 + sea 1 = 2 (9); 0501: clear 1, the minor river and the town and port nothing (10);
    // 0601: clear 1, Maginot line and fortification nothing (11); 0701: 1 (12).
    assert_eq!(
        reach(&mut s, "x"),
        costs(&[
            ("0301", 7.0),
            ("0401", 9.0),
            ("0501", 10.0),
            ("0601", 11.0),
            ("0701", 12.0)
        ])
    );
    // y, the other way, starts free of enemy ZOC: 0601 1; 0501 1 (2); 0401 hills 1 + minor river
    // 0 (3); 0301 forest 2 + sea 1 + 2 for d (8); 0201 clear 1 + major river 2 (11), where it
    // stops (g's ZOC).
    assert_eq!(
        reach(&mut s, "y"),
        costs(&[
            ("0201", 11.0),
            ("0301", 8.0),
            ("0401", 3.0),
            ("0501", 2.0),
            ("0601", 1.0)
        ])
    );
    let path = ["0301", "0401", "0501", "0601", "0701"];
    let events = ok(&mut s, "allied", &mv("x", &path));
    assert_eq!(
        movement_of(&events),
        vec![
            entered("x", "0301"),
            entered("x", "0401"),
            entered("x", "0501"),
            entered("x", "0601"),
            entered("x", "0701"),
            moved("x", Some("0201"), &path, 12.0),
        ]
    );
}

#[test]
fn f40_r5_mountains_cost_six_to_motorized_units_a_cost_not_a_ban() {
    // terrain line, laid out again: four German units on the major city 0701, between the
    // mountains 0601 and the clear 0801.
    let mut s = session("terrain");
    let armored = |id: &str, ma: u32| setup_unit(id, "german", "german", "armored", ma, "0701");
    setup(
        &mut s,
        &(armored("m6", 6)
            + &armored("m5", 5)
            + &setup_unit("mi", "german", "german", "mountain", 2, "0701")
            + &setup_unit("f3", "german", "german", "infantry", 3, "0701")),
    );
    assert_eq!(reach(&mut s, "m6"), costs(&[("0601", 6.0), ("0801", 1.0)]));
    assert_eq!(reach(&mut s, "m5"), costs(&[("0801", 1.0)]));
    // Mountain infantry 2, other foot units 3.
    assert_eq!(reach(&mut s, "mi"), costs(&[("0601", 2.0), ("0801", 1.0)]));
    assert_eq!(reach(&mut s, "f3"), costs(&[("0601", 3.0), ("0801", 1.0)]));
    // With 5 MP the refusal is the budget's (9.1), not a terrain ban (9.2).
    assert_eq!(
        refused(&mut s, "german", &mv("m5", &["0601"])),
        refusal(
            "F40-9.1",
            "the path costs 6 MP by this step, more than the 5 MP allowed (step 1: 0701 to 0601)"
        )
    );
    let events = ok(&mut s, "german", &mv("m6", &["0601"]));
    assert_eq!(
        movement_of(&events),
        vec![
            entered("m6", "0601"),
            moved("m6", Some("0701"), &["0601"], 6.0)
        ]
    );
}

#[test]
fn f40_r5_armored_units_are_motorized_mountain_infantry_are_not() {
    // The zoc fixture with a mountain division in place of the foot one: like foot it may not go
    // from enemy ZOC to enemy ZOC (6.4); the armored division may (R2: 1 + 1).
    let mut s = session("zoc");
    let unit = |id: &str, kind: &str, at: &str| setup_unit(id, "german", "german", kind, 4, at);
    setup(
        &mut s,
        &(unit("g-mtn", "mountain", "0403")
            + &unit("g-pz", "armored", "0403")
            + &unit("g-inf2", "infantry", "0404")
            + &setup_unit("a1", "allied", "french", "infantry", 4, "0502")
            + &setup_unit("a2", "allied", "french", "infantry", 4, "0504")),
    );
    assert_eq!(reach(&mut s, "g-mtn"), costs(FOOT_FROM_0403));
    assert_eq!(
        refused(&mut s, "german", &mv("g-mtn", &["0503"])),
        refusal(
            "F40-6.4",
            "non-motorized unit cannot move from enemy ZOC to enemy ZOC (step 1: 0403 to 0503)"
        )
    );
    let events = ok(&mut s, "german", &mv("g-pz", &["0503"]));
    assert!(events.contains(&moved("g-pz", Some("0403"), &["0503"], 2.0)));
    // Marsh (terrain 0201): open to mountain infantry (2), prohibited to armored units (9.2).
    let mut s = session("terrain");
    setup(
        &mut s,
        &(setup_unit("g-mtn", "german", "german", "mountain", 4, "0101")
            + &setup_unit("g-arm", "german", "german", "armored", 4, "0101")),
    );
    let events = ok(&mut s, "german", &mv("g-mtn", &["0201"]));
    assert!(events.contains(&moved("g-mtn", Some("0101"), &["0201"], 2.0)));
    assert_eq!(
        refused(&mut s, "german", &mv("g-arm", &["0201"])),
        refusal(
            "F40-9.2",
            "motorized units may not enter marsh (step 1: 0101 to 0201)"
        )
    );
}

// --- F40-R6: causeways ------------------------------------------------------------------------

#[test]
fn f40_r6_germans_cross_a_causeway_at_no_extra_cost_the_allies_pay_the_sea_plus_one() {
    // causeway: g (German) 0101 |causeway| forest 0201; a (Allied) 0401 |causeway| 0301.
    let mut s = session("causeway");
    // g: the forest across the causeway costs its terrain only (2); a's ZOC is 0402 and 0501.
    assert_eq!(
        reach(&mut s, "g"),
        costs(&[
            ("0102", 1.0),
            ("0201", 2.0),
            ("0202", 1.0),
            ("0301", 2.0),
            ("0302", 2.0),
            ("0402", 3.0)
        ])
    );
    let events = ok(&mut s, "german", &mv("g", &["0201"]));
    assert_eq!(
        movement_of(&events),
        vec![
            entered("g", "0201"),
            moved("g", Some("0101"), &["0201"], 2.0)
        ]
    );
    // a: across its causeway, clear 1 + sea 1. g's ZOC (from 0101) is 0102 and 0202.
    let mut s = session("causeway");
    advance_to(&mut s, 1, 2);
    assert_eq!(
        reach(&mut s, "a"),
        costs(&[
            ("0201", 4.0),
            ("0202", 3.0),
            ("0301", 2.0),
            ("0302", 2.0),
            ("0402", 1.0),
            ("0501", 1.0),
            ("0502", 2.0)
        ])
    );
    let events = ok(&mut s, "allied", &mv("a", &["0301"]));
    assert_eq!(
        movement_of(&events),
        vec![
            entered("a", "0301"),
            moved("a", Some("0401"), &["0301"], 2.0)
        ]
    );
}

#[test]
fn f40_r6_a_causeway_does_not_carry_zoc_across() {
    let mut s = session("causeway");
    // g (0101) and a (0401) each have a causeway on one side: g's ZOC is 0102 and 0202, not
    // 0201; a's is 0402 and 0501, not 0301.
    assert_eq!(
        zoc_map(&s),
        zocs(&[
            ("0102", &["german"]),
            ("0202", &["german"]),
            ("0402", &["allied"]),
            ("0501", &["allied"]),
        ])
    );
    // g passes through 0301, beside a across the causeway, without stopping.
    let events = ok(&mut s, "german", &mv("g", &["0202", "0301", "0302"]));
    assert!(events.contains(&moved("g", Some("0101"), &["0202", "0301", "0302"], 3.0)));

    // g at 0301 and a at 0401, face to face across the causeway: neither starts in the other's
    // ZOC, so neither pays +1 to leave, and a foot unit may step into an enemy ZOC hex at once.
    let mut s = session("causeway");
    setup(
        &mut s,
        &(setup_unit("g", "german", "german", "infantry", 4, "0301")
            + &setup_unit("a", "allied", "french", "infantry", 4, "0401")),
    );
    assert_eq!(
        zoc_map(&s),
        zocs(&[
            ("0201", &["german"]),
            ("0202", &["german"]),
            ("0302", &["german"]),
            ("0402", &["german", "allied"]),
            ("0501", &["allied"]),
        ])
    );
    assert_eq!(
        reach(&mut s, "g"),
        costs(&[
            ("0101", 2.0),
            ("0102", 2.0),
            ("0201", 2.0),
            ("0202", 1.0),
            ("0302", 1.0),
            ("0402", 1.0)
        ])
    );
    advance_to(&mut s, 1, 2);
    assert_eq!(
        reach(&mut s, "a"),
        costs(&[("0402", 1.0), ("0501", 1.0), ("0502", 2.0)])
    );
}

/// F40-9.1: a move may name only where the unit goes (`to`, or a path of one hex beyond its
/// neighbours): the cheapest path there within its allowance, as the legal list gives it. A
/// hex it cannot reach is refused; so is a cheapest path through a neutral country the
/// destination is not in (16.2: entering invades it, which the player did not ask for).
#[test]
fn f40_9_1_a_move_to_a_distant_hex_takes_the_cheapest_path() {
    let mut s = hexwar::Session::start(std::path::Path::new("scenarios/france1940"), Some(1))
        .expect("starts");
    let far = |to: &str| mv("de-3-pz", &[to]);
    assert_eq!(
        refused(&mut s, "german", &far("2309")),
        refusal(
            "F40-16.2",
            "the cheapest path of de-3-pz to 2309 enters netherlands, neutral, at 2811: that would invade it; give the path"
        )
    );
    assert_eq!(
        refused(&mut s, "german", &far("1010")),
        refusal(
            "F40-9.1",
            "de-3-pz cannot reach 1010 this phase (8 MP); `hexwar reach` lists where it can, and \
             a path given hex by hex names what stops it (an enemy ZOC, F40-6.2)"
        )
    );
    let events = ok(&mut s, "german", &far("2808"));
    let moved: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::UnitMoved { .. }))
        .collect();
    assert_eq!(
        serde_json::to_value(moved).unwrap(),
        json!([{"event": "UnitMoved", "unit": "de-3-pz", "from": "2911", "to": "2808",
                "path": ["2910", "2909", "2908", "2808"], "cost": 4.0}])
    );
}
