//! F40 supply (8.x, 6.5, R12, R13), friendly territory (7.x, R11), isolation and the
//! compounding of halvings (8.3, R7), and the `hexwar reach` / `hexwar supply` commands, on the
//! fixtures of tests/fixtures/f40 (hex geometry: see tests/f40_movement.rs).

mod f40;

use f40::*;
use hexwar::engine::{Command, Event};
use serde_json::{json, Value};

#[test]
fn f40_8_2_supply_sources_per_nation() {
    // sources_map: Switzerland = 0605, 0606, 0706 (rows from 05, columns from 06, R13).
    // Major cities: 0702 (Germany), 0301 (Belgium), 0401 (Netherlands), 0204 (Paris). Towns:
    // 0706 (Swiss), 0705 (German: not a source).
    let mut s = session("supply/sources.toml");
    let french = [
        "0101", "0102", "0103", "0104", "0105", "0106", "0204", "0206", "0306", "0406", "0506",
    ];
    let with = |city: &str| {
        let mut v = vec![city.to_string()];
        v.extend(french.iter().map(|s| s.to_string()));
        v
    };
    let sources = s
        .game
        .query("supply_sources", &Value::Null)
        .unwrap()
        .unwrap();
    assert_eq!(
        sources,
        json!([
            // East edge north of Switzerland (0805, 0806 are level with it) + German major cities.
            {"side": "german", "hexes": ["0702", "0801", "0802", "0803", "0804"]},
            // West edge, south edge west of Switzerland, Paris.
            {"side": "allied", "nations": ["british", "french"], "hexes": french},
            {"side": "allied", "nations": ["belgian"], "hexes": with("0301")},
            {"side": "allied", "nations": ["dutch"], "hexes": with("0401")},
            // Swiss towns and Swiss edge hexes; never the French sources (R13).
            {"side": "allied", "nations": ["swiss"], "hexes": ["0606", "0706"]},
        ])
    );
}

#[test]
fn f40_6_5_enemy_zoc_blocks_the_lines_of_non_motorized_units_only() {
    // lines: a1 (Allied) at 0302 puts 0301, 0202 and 0402 in ZOC; g-east (0401) contests it in
    // 0301 and 0402, so they are still German after the start's judgment (7.1, 7.2). The German
    // sources are the east edge (0601, 0602); every way east from 0101 crosses 0301 (0302 is
    // Allied). The foot division at 0101 is cut off, the armored one is not; g-east traces
    // through 0501, out of every ZOC; a1 stands on an Allied source (south edge); n1 is still
    // neutral (R12).
    let mut s = session("supply/lines.toml");
    let expected = [
        ("a1", true),
        ("g-east", true),
        ("g-foot", false),
        ("g-mot", true),
        ("n1", true),
    ];
    assert_eq!(
        supply(&mut s),
        expected.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    );
    // A German unit holding 0301 lets the foot line through (6.5).
    let mut s = session("supply/lines_friend.toml");
    let expected = [
        ("a1", true),
        ("g-foot", true),
        ("g-hold", true),
        ("g-mot", true),
    ];
    assert_eq!(
        supply(&mut s),
        expected.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    );
}

#[test]
fn f40_8_1_lines_run_through_friendly_passable_territory_only() {
    // marsh: column 03 is marsh; 0101 and 0102 are not German territory. g-foot (0201) crosses
    // the marsh; g-mot (0201) cannot (R12: marsh is impassable to it, and the way round runs
    // through 0101/0102); g-west stands on non-German 0101, but its own hex is exempt (R12).
    let mut s = session("supply/marsh.toml");
    let expected = [("g-foot", true), ("g-mot", false), ("g-west", true)];
    assert_eq!(
        supply(&mut s),
        expected.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    );
}

#[test]
fn f40_8_3_supply_is_judged_at_the_start_of_each_assault() {
    let mut s = session("supply/lines.toml");
    assert_eq!(
        s.game.log(),
        &[
            Event::GameStarted {
                scenario: "f40-supply-lines".into(),
                seed: 1
            },
            status_changed("n1", &["neutral"], &[]),
            // Territory judged on the start position (7.3 + 7.1): a1's ZOC in 0301 and 0402 is
            // contested by g-east, in 0202 by g-foot and g-mot, so no hex changes hands.
            Event::Custom {
                name: "PositionJudged".into(),
                data: json!({}).into()
            },
            Event::PhaseStarted {
                turn: 1,
                step: 0,
                side: Some("german".into()),
                phase: "movement".into()
            },
            var("assault", json!(1)),
            Event::Custom {
                name: "AssaultStarted".into(),
                data: json!({"turn": 1, "side": "german", "assault": 1}).into()
            },
            Event::Custom {
                name: "AssaultSupply".into(),
                data: json!({"turn": 1, "side": "german", "assault": 1}).into()
            },
            status_changed("g-foot", &["isolated"], &[]),
        ]
    );
    // Isolated: no rail (8.3).
    assert_eq!(
        refused(
            &mut s,
            "german",
            &custom("rail", &[("unit", "g-foot"), ("to", "0201")])
        ),
        refusal("F40-8.3", "g-foot is isolated and may not use rail")
    );
    // g-mot (motorized) stops in 0301 (ZOC): from the next assault on, g-foot traces through it.
    ok(&mut s, "german", &mv("g-mot", &["0201", "0301"]));
    ok(&mut s, "german", &Command::EndPhase);
    let events = ok(&mut s, "german", &Command::EndPhase);
    let isolation: Vec<&Event> = events
        .iter()
        .filter(|e| {
            matches!(e, Event::UnitStatusChanged { add, remove, .. }
            if add.iter().chain(remove).any(|f| f == "isolated"))
        })
        .collect();
    assert_eq!(
        isolation,
        vec![&status_changed("g-foot", &[], &["isolated"])]
    );
}

#[test]
fn f40_r7_halvings_compound_without_rounding() {
    // g-foot: MA 3, isolated: 1.5 MP in the first assault; 0.75 in the second (no one-hex
    // minimum). g-mot: MA 4, supplied: 2 MP in the second assault. a1 ZOC: 0202, 0301.
    let mut s = session("supply/lines.toml");
    assert_eq!(
        reach(&mut s, "g-foot"),
        costs(&[("0102", 1.0), ("0201", 1.0), ("0202", 1.0)])
    );
    advance_to(&mut s, 2, 2);
    assert_eq!(reach(&mut s, "g-foot"), costs(&[]));
    assert_eq!(
        refused(&mut s, "german", &mv("g-foot", &["0201"])),
        refusal(
            "F40-9.1",
            "the path costs 1 MP by this step, more than the 0.75 MP allowed (step 1: 0101 to 0201) (MA 3 halved: second assault, F40-9.1; isolated, F40-8.3)"
        )
    );
    assert_eq!(
        reach(&mut s, "g-mot"),
        costs(&[("0102", 1.0), ("0201", 1.0), ("0202", 1.0), ("0301", 2.0)])
    );
}

#[test]
fn f40_7_1_territory_follows_occupation_then_uncontested_zoc() {
    // territory: German 0101-0202, Allied 0601-0602, the rest nobody's (7.3). g (0101) goes to
    // 0401; a (0602) exerts ZOC in 0601, 0501, 0502, uncontested at the start, so 0501 and 0502
    // are Allied from the start (7.1b); n1 (neutral, 0402) counts for nobody (R11).
    let mut s = session("territory");
    let events = ok(&mut s, "german", &mv("g", &["0201", "0301", "0401"]));
    assert_eq!(
        events,
        vec![
            entered("g", "0201"),
            entered("g", "0301"),
            entered("g", "0401"),
            moved("g", Some("0101"), &["0201", "0301", "0401"], 3.0),
            // (b) German uncontested ZOC from 0401; (a) 0401 occupied.
            control("0301", "german"),
            control("0401", "german"),
            // (b) n1 occupies 0402 but is neutral: g's ZOC makes it German (R11).
            control("0402", "german"),
            // 0501, now in g's ZOC too, is contested (7.2): no change (below).
            status_changed("g", &["moved"], &[]),
            var("mp_spent", json!({"g": 3.0})),
        ]
    );
    let control = &s.game.state().control;
    // (c) 0101, left by g, stays German; (c) 0501, contested now, stays with the Allies, its
    // last holder (a's uncontested ZOC at the start); (d) 0302, in no ZOC, keeps its start
    // (nobody).
    assert_eq!(control.get("0101").map(String::as_str), Some("german"));
    assert_eq!(control.get("0501").map(String::as_str), Some("allied"));
    assert_eq!(control.get("0502").map(String::as_str), Some("allied"));
    assert_eq!(control.get("0302"), None);
}

#[test]
fn hexwar_reach_and_supply_answer_on_an_f40_fixture() {
    assert_eq!(
        cli(&["reach", "tests/fixtures/f40/zoc", "g-pz", "--json"]),
        json!({"unit": "g-pz", "hexes": {
            "0101": 4, "0102": 4, "0103": 4, "0104": 4, "0201": 4, "0202": 3, "0203": 3,
            "0204": 3, "0205": 4, "0301": 3, "0302": 2, "0303": 2, "0304": 3, "0305": 4,
            "0401": 4, "0402": 2, "0404": 2, "0405": 4, "0503": 2
        }, "may_move_now": true, "note": null})
    );
    // The isolated g-foot (MA 3) answers with its halved budget.
    assert_eq!(
        cli(&[
            "reach",
            "tests/fixtures/f40/supply/lines.toml",
            "g-foot",
            "--json"
        ]),
        json!({"unit": "g-foot", "hexes": {"0102": 1, "0201": 1, "0202": 1}, "may_move_now": true, "note": null})
    );
    assert_eq!(
        cli(&["supply", "tests/fixtures/f40/supply/lines.toml", "--json"]),
        json!({"units": {
            "a1": "supplied", "g-east": "supplied", "g-foot": "isolated", "g-mot": "supplied",
            "n1": "supplied"
        }})
    );
}

/// `reach`'s note on be1 in the German movement phase of turn 1 (a setup's start).
const BE1_NOTE: &str = "be1 may not move now (turn 1, movement (german)): these are the hexes \
                        it could reach if its side moved in this phase";
/// (a unit of a still-neutral country: its side has no phase)
const BE1_NEUTRAL_NOTE: &str = "be1's side 'neutral' has no phase of its own, so no move of it is \
                                legal now (turn 1, movement (german)), and the rules' reach gives \
                                it none";

#[test]
fn f40_r8_r12_neutral_units_of_a_setup_exert_no_zoc_and_are_supplied() {
    // A Belgian unit of side "neutral" in Brussels (2212), its unit table without the status:
    // side "neutral" is a still-neutral country's unit. The German unit at 2213, next to it,
    // is not in an enemy ZOC (R8): no +1 to leave, and it goes on past 2112/2312. (de1, in
    // Belgium, is isolated: its MA 4 is halved, 8.3.)
    let units = setup_unit("de1", "german", "german", "infantry", 4, "2213")
        + &setup_unit("be1", "neutral", "belgian", "infantry", 4, "2212");
    assert_eq!(
        on_france_setup("r8_neutral", &units, "reach", Some("de1")),
        json!({"unit": "de1", "hexes": {
            "2012": 2, "2013": 2, "2014": 2, "2111": 2, "2112": 1, "2113": 1, "2114": 2,
            "2214": 1, "2215": 2, "2311": 2, "2312": 1, "2313": 1, "2314": 2, "2412": 2,
            "2413": 2
        }, "may_move_now": true, "note": null})
    );
    // R12: units of a still-neutral country count as supplied; de1 in neutral Belgium reaches
    // no German hex through friendly territory (its own ZOC makes only its neighbours German).
    assert_eq!(
        on_france_setup("r12_neutral", &units, "supply", None),
        json!({"units": {"be1": "supplied", "de1": "isolated"}})
    );
    // The neutral unit has no reach (16.1).
    assert_eq!(
        on_france_setup("r8_neutral_reach", &units, "reach", Some("be1")),
        json!({"unit": "be1", "hexes": {}, "may_move_now": false, "note": BE1_NEUTRAL_NOTE})
    );
}

#[test]
fn f40_7_1_r11_a_setup_position_is_judged_from_the_start_on_its_own_units() {
    // A German unit at 2513 (Belgium): its ZOC makes its six neighbours German (7.1b), but the
    // hexes beyond (2712, 2713, ...) were never held by anyone in this position, so no line
    // reaches Germany (Aachen 2812 is two hexes from its nearest German neighbour). The
    // scenario's start units (whose ZOC reached 2712 from 2812) are not part of the position.
    let units = setup_unit("de1", "german", "german", "infantry", 4, "2513")
        + &setup_unit("fr1", "allied", "french", "infantry", 4, "1020");
    assert_eq!(
        on_france_setup("r11_start", &units, "supply", None),
        json!({"units": {"de1": "isolated", "fr1": "supplied"}})
    );
    // The same position with a German unit at 2812 (Aachen): its ZOC makes 2712 German, so
    // 2513 - 2613 - 2712 - 2812 is a line.
    let units = units + &setup_unit("de2", "german", "german", "infantry", 4, "2812");
    assert_eq!(
        on_france_setup("r11_start_aachen", &units, "supply", None),
        json!({"units": {"de1": "supplied", "de2": "supplied", "fr1": "supplied"}})
    );
}

#[test]
fn f40_8_3_r7_a_setup_position_is_judged_for_supply_at_the_start_of_the_assault() {
    // No turn or phase given: the units stand at the start of turn 1's first assault (German
    // movement), so supply is judged on them (8.3) as with a `turn`/`phase` setup. The Belgian
    // unit of side "allied" at 2513 (Belgium joined) reaches neither Brussels nor Antwerp nor
    // a French source through Allied territory: isolated. Its MA 4 is halved twice (R7): turn 1
    // for a country neutral at the start (18.2), isolated (8.3): 1 MP, to the clear neighbours
    // only (2514, 2414, 2614 are across a major river).
    let units = setup_unit("be1", "allied", "belgian", "infantry", 4, "2513")
        + &setup_unit("fr1", "allied", "french", "infantry", 4, "1020");
    assert_eq!(
        on_france_setup("r7_isolated", &units, "supply", None),
        json!({"units": {"be1": "isolated", "fr1": "supplied"}})
    );
    assert_eq!(
        on_france_setup("r7_isolated_reach", &units, "reach", Some("be1")),
        json!({"unit": "be1", "hexes": {"2413": 1, "2512": 1, "2613": 1}, "may_move_now": false,
               "note": BE1_NOTE})
    );
    // The German unit at 2513, isolated too: MA 4 halved once (8.3), 2 MP.
    let units = setup_unit("de1", "german", "german", "infantry", 4, "2513")
        + &setup_unit("fr1", "allied", "french", "infantry", 4, "1020");
    let expected = json!({"unit": "de1", "hexes": {
        "2312": 2, "2313": 2, "2412": 2, "2413": 1, "2511": 2, "2512": 1, "2612": 2, "2613": 1
    }, "may_move_now": true, "note": null});
    assert_eq!(
        on_france_setup("r7_isolated_de", &units, "reach", Some("de1")),
        expected
    );
    // The same with the phase named: the same judgment (the phase starts, 8.3).
    let units = "turn = 2\nphase = \"movement\"\n".to_string() + &units;
    assert_eq!(
        on_france_setup("r7_isolated_de_turn2", &units, "reach", Some("de1")),
        expected
    );
}

/// F40-8.3: supply is judged at the start of each assault; a setup that lands in a combat
/// phase has no record of that judgment, so its own position stands for it. g1 (German, 1520,
/// inside France) traces no line home: isolated, it attacks f1 at half strength (4 -> 2, 1:1).
#[test]
fn f40_8_3_a_setup_in_a_combat_phase_is_judged_for_supply_on_its_position() {
    let units = format!(
        "turn = 3\nphase = \"combat\"\nside = \"german\"\n\n{}{}",
        setup_unit("g1", "german", "german", "infantry", 4, "1520")
            .replace("strength = 3", "strength = 4"),
        setup_unit("f1", "allied", "french", "infantry", 4, "1420")
            .replace("strength = 3", "strength = 2"),
    );
    let mut s =
        hexwar::Session::start(std::path::Path::new("scenarios/france1940"), Some(1)).unwrap();
    setup(&mut s, &units);
    let isolated: Vec<&str> = ["g1", "f1"]
        .into_iter()
        .filter(|id| s.game.state().units[*id].status.contains("isolated"))
        .collect();
    assert_eq!(isolated, ["g1"]);
    assert_eq!(
        s.game
            .query("combat_odds", &json!({"hex": "1420", "units": ["g1"]}))
            .unwrap()
            .unwrap(),
        json!({"attack": 2.0, "defense": 2, "odds": "1:1"})
    );
    // A setup naming no step leaves the game where it stands, its judgment made: the statuses
    // are the file's (g1 written isolated on a supplied hex stays so; g2, cut off, is not
    // judged). An empty setup changes nothing at all.
    let before = serde_json::to_string(s.game.state()).unwrap();
    setup(&mut s, "# nothing\n");
    assert_eq!(serde_json::to_string(s.game.state()).unwrap(), before);
    setup(
        &mut s,
        &format!(
            "{}{}",
            setup_unit("g1", "german", "german", "infantry", 4, "3607")
                .replace("at = \"3607\"", "at = \"3607\"\nstatus = [\"isolated\"]"),
            setup_unit("g2", "german", "german", "infantry", 4, "1520"),
        ),
    );
    let isolated: Vec<&str> = ["g1", "g2"]
        .into_iter()
        .filter(|id| s.game.state().units[*id].status.contains("isolated"))
        .collect();
    assert_eq!(isolated, ["g1"]);
    // The same position a movement phase earlier, played to the combat phase: the same judgment.
    let mut s =
        hexwar::Session::start(std::path::Path::new("scenarios/france1940"), Some(1)).unwrap();
    setup(&mut s, &units.replace("\"combat\"", "\"movement\""));
    ok(&mut s, "german", &Command::EndPhase);
    assert!(s.game.state().units["g1"].status.contains("isolated"));
}

fn supplied(list: &[(&str, bool)]) -> std::collections::BTreeMap<String, bool> {
    list.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn f40_r5_armored_units_trace_lines_through_enemy_zoc_mountain_infantry_do_not() {
    // lines_classes: g-arm and g-mtn at 0101; a1 (0302) puts 0301, 0202 and 0402 in ZOC, and
    // every way east crosses column 03 (0302 is Allied); g-east (0401) contests that ZOC in
    // 0301 and 0402, German territory still (7.1, 7.2). The armored division is motorized (6.5:
    // through the ZOC); the mountain division is not (cut off). a1 stands on an Allied source
    // (south edge); g-east traces through 0501, out of every ZOC.
    let mut s = session("supply/lines_classes.toml");
    assert_eq!(
        supply(&mut s),
        supplied(&[
            ("a1", true),
            ("g-arm", true),
            ("g-east", true),
            ("g-mtn", false)
        ])
    );
}

#[test]
fn f40_r13_north_and_west_of_switzerland_mean_beyond_every_swiss_hex() {
    // r13_map: the northernmost Swiss hex is in row 4 (0604), the westernmost in column 4
    // (0406); other Swiss hexes lie as far as row 7 and column 7. German east-edge sources: rows
    // 1-3 only (0904, level with 0604, and 0905, north of the row-6 and row-7 Swiss hexes, are
    // not). French south-edge sources: columns 1-3 only (0607, west of 0705 but not of 0406, is
    // not), plus the west edge and Paris (0305). Swiss sources: the town 0604, the major city
    // 0705 and the edge hex 0507. Belgians and Dutch: no major city here, the French sources.
    let mut s = session("supply/r13.toml");
    let french =
        json!(["0101", "0102", "0103", "0104", "0105", "0106", "0107", "0207", "0305", "0307"]);
    assert_eq!(
        s.game
            .query("supply_sources", &Value::Null)
            .unwrap()
            .unwrap(),
        json!([
            {"side": "german", "hexes": ["0901", "0902", "0903"]},
            {"side": "allied", "nations": ["french"], "hexes": french},
            {"side": "allied", "nations": ["belgian"], "hexes": french},
            {"side": "allied", "nations": ["dutch"], "hexes": french},
            {"side": "allied", "nations": ["swiss"], "hexes": ["0507", "0604", "0705"]},
        ])
    );
}

#[test]
fn f40_r13_lines_to_the_edges_and_to_swiss_towns_and_french_sources() {
    // r13.toml: the only friendly hexes are the candidate sources, none next to another.
    let mut s = session("supply/r13.toml");
    assert_eq!(
        supply(&mut s),
        supplied(&[
            // On the east edge in row 3, north of every Swiss hex: a source.
            ("g-north", true),
            // On the east edge in row 5: north of some Swiss hexes only; no German hex beside.
            ("g-south", false),
            // On the south edge in column 3, west of every Swiss hex: a French source...
            ("f-west", true),
            // ...that the Swiss do not use.
            ("s-west", false),
            // On the south edge in column 6: west of 0705 only.
            ("f-mid", false),
            // Beside the Swiss town 0604: a Swiss source, not a French one.
            ("s-town", true),
            ("f-town", false),
            // Beside the Swiss major city 0705.
            ("s-city", true),
            // Beside Paris (0305): a French source, not a Swiss one.
            ("s-paris", false),
            ("f-paris", true),
        ])
    );
}
