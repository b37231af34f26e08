//! F40 politics (16.1-16.6, R9-R11) and turn 1 (18.1, 18.2) on tests/fixtures/f40/politics:
//! France = columns 01-02 (deploy_french = column 02, port 0101), the Netherlands = 0301, 0401
//! (major cities) and 0302 (nl1), Belgium = 0402, 0403 (major cities) and 0303 (be1),
//! Luxembourg = 0304, 0404, Switzerland = 0305 (sw1), 0405, Germany = columns 05-06.
//! g1 at 0603, g2 and g3 at 0601 (two hexes from the Low Countries), g4 at 0504 (next to 0404,
//! 0405); a1 (French) at 0202, b1 (British) at 0203, c1 (BEF corps) at 0101.
//! Turn 1: steps 0-3 (German movement, combat; Allied movement, combat); later turns 0-7.

mod f40;

use f40::*;
use hexwar::engine::{Command, Event};
use serde_json::json;
use std::collections::BTreeMap;

fn custom_event(name: &str, data: serde_json::Value) -> Event {
    Event::Custom {
        name: name.into(),
        data: data.into(),
    }
}

/// The events of politics: custom events, changes of side, removals and `countries`/`invaded`.
fn politics_of(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .filter(|e| match e {
            Event::Custom { name, .. } => !name.starts_with("Assault"),
            Event::UnitSideChanged { .. } | Event::UnitRemoved { .. } => true,
            Event::VarSet { key, .. } => {
                ["countries", "invaded", "surrendered"].contains(&key.as_str())
            }
            _ => false,
        })
        .cloned()
        .collect()
}

fn side_of(s: &mut hexwar::Session, unit: &str) -> String {
    s.game.state().units[unit].side.clone()
}

fn end_phase(s: &mut hexwar::Session) -> Vec<Event> {
    let side = s.game.phasing_side().unwrap();
    ok(s, &side, &Command::EndPhase)
}

#[test]
fn f40_16_1_allied_units_may_not_enter_a_neutral_country() {
    let mut s = session("politics");
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(&mut s, "allied", &mv("a1", &["0301"])),
        refusal("F40-16.1", "a1 may not enter 0301 (netherlands is neutral)")
    );
    // Not listed either, and neutral units have no move.
    let legal = legal_of(&mut s, "allied", "move");
    assert!(legal.iter().all(|c| match c {
        Command::Move { path, .. } => path
            .iter()
            .all(|h| h.starts_with("01") || h.starts_with("02")),
        _ => false,
    }));
    assert_eq!(
        refused(&mut s, "allied", &mv("nl1", &["0301"])),
        refusal(
            "F40-16.1",
            "nl1 belongs to a neutral country: units of a neutral country may not move"
        )
    );
}

#[test]
fn f40_16_2_a_german_entry_invades_belgium_which_brings_luxembourg_but_not_the_netherlands() {
    let mut s = session("politics");
    let events = ok(&mut s, "german", &mv("g1", &["0502", "0402"]));
    assert_eq!(
        politics_of(&events),
        vec![
            custom_event(
                "CountryInvaded",
                json!({"country": "belgium", "unit": "g1"})
            ),
            var("invaded", json!({"belgium": 1})),
            custom_event("CountryJoined", json!({"country": "belgium"})),
            var("countries", json!({"belgium": "allied"})),
            Event::UnitSideChanged {
                unit: "be1".into(),
                side: "allied".into()
            },
            custom_event("CountryJoined", json!({"country": "luxembourg"})),
            var(
                "countries",
                json!({"belgium": "allied", "luxembourg": "allied"})
            ),
        ]
    );
    // The invader's hex and the hexes in German ZOC alone (7.1b: 0403 by g1; 0404 by g4, German
    // since the start) stay German; every other hex of both countries is Allied (16.2, R11).
    let st = s.game.state();
    for h in ["0402", "0403", "0404"] {
        assert_eq!(st.control.get(h).map(String::as_str), Some("german"), "{h}");
    }
    for h in ["0303", "0304"] {
        assert_eq!(st.control.get(h).map(String::as_str), Some("allied"), "{h}");
    }
    assert!(!st.units["be1"].status.contains("neutral"));
    // The Netherlands stay neutral (R9): nl1 keeps its side and status. Their hexes are held
    // under 7.1 alone: 0301 (a1's uncontested ZOC) and 0302 (a1's and b1's; nl1's occupation
    // counts for nobody, R11) were Allied from the start and stay so, now contested by g1
    // (7.1c); 0401, in g1's ZOC alone, is German (7.1b).
    assert_eq!(st.control.get("0301").map(String::as_str), Some("allied"));
    assert_eq!(st.control.get("0302").map(String::as_str), Some("allied"));
    assert_eq!(st.control.get("0401").map(String::as_str), Some("german"));
    assert!(st.units["nl1"].status.contains("neutral"));
    assert_eq!(side_of(&mut s, "nl1"), "neutral");
    // Allied units may enter Belgium from the next move on; still not the Netherlands.
    advance_to(&mut s, 1, 2);
    ok(&mut s, "allied", &mv("b1", &["0303"]));
    assert_eq!(
        refused(&mut s, "allied", &mv("a1", &["0302"])),
        refusal("F40-16.1", "a1 may not enter 0302 (netherlands is neutral)")
    );
}

/// R11: a country that joins the Allies gives them its hexes once: the hexes come before its
/// units' changes of side, so the territory judgment those set off finds them Allied already.
/// The first German step into the Netherlands gave 163 ControlChanged events, 52 of them a
/// second one to a hex already Allied.
#[test]
fn f40_r11_a_joining_country_changes_each_hex_once() {
    let mut s =
        hexwar::Session::start(std::path::Path::new("scenarios/france1940"), Some(1)).unwrap();
    let events = ok(&mut s, "german", &mv("de-3-pz", &["2811"]));
    let mut seen = std::collections::BTreeSet::new();
    let mut twice = Vec::new();
    for e in &events {
        if let Event::ControlChanged { hex, .. } = e {
            if !seen.insert(hex.clone()) {
                twice.push(hex.clone());
            }
        }
    }
    assert_eq!(twice, Vec::<String>::new());
    assert_eq!(seen.len(), 111);
    assert_eq!(
        s.game.state().control.get("2305").map(String::as_str),
        Some("allied")
    );
}

#[test]
fn f40_16_5_luxembourg_shares_belgium_status_and_an_entry_there_brings_in_belgium() {
    let mut s = session("politics");
    let events = ok(&mut s, "german", &mv("g4", &["0404"]));
    let names: Vec<_> = politics_of(&events)
        .into_iter()
        .filter_map(|e| match e {
            Event::Custom { name, data } => Some(format!("{name} {}", data["country"])),
            _ => None,
        })
        .collect();
    assert_eq!(
        names,
        vec![
            "CountryInvaded \"luxembourg\"",
            "CountryJoined \"belgium\"",
            "CountryJoined \"luxembourg\""
        ]
    );
    assert_eq!(side_of(&mut s, "be1"), "allied");
}

#[test]
fn f40_r9_invading_the_netherlands_brings_in_belgium_and_luxembourg() {
    let mut s = session("politics");
    let events = ok(&mut s, "german", &mv("g2", &["0501", "0401"]));
    let names: Vec<_> = politics_of(&events)
        .into_iter()
        .filter_map(|e| match e {
            Event::Custom { name, data } => Some(format!("{name} {}", data["country"])),
            Event::UnitSideChanged { unit, side } => Some(format!("{unit} -> {side}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        names,
        vec![
            "CountryInvaded \"netherlands\"",
            "CountryJoined \"netherlands\"",
            "nl1 -> allied",
            "CountryJoined \"belgium\"",
            "be1 -> allied",
            "CountryJoined \"luxembourg\"",
        ]
    );
    // Switzerland is untouched.
    assert_eq!(side_of(&mut s, "sw1"), "neutral");
}

#[test]
fn f40_16_3_dutch_units_may_not_leave_while_a_german_unit_is_inside() {
    let mut s = session("politics");
    ok(&mut s, "german", &mv("g2", &["0501", "0401"]));
    advance_to(&mut s, 1, 2);
    // nl1: MA 2, halved on turn 1 (18.2) = 1.
    assert_eq!(
        refused(&mut s, "allied", &mv("nl1", &["0202"])),
        refusal(
            "F40-16.3",
            "nl1 may not leave netherlands while a German unit is in it (0202)"
        )
    );
    ok(&mut s, "allied", &mv("nl1", &["0301"]));
}

/// Reading (16.3 with 10.4): an evacuation leaves the Netherlands as a move out does, so a Dutch
/// unit in a Dutch port is not evacuated while a German unit is in the country (nl1 at 0302, a
/// port of this fixture, 1 MP on turn 1: enough to evacuate); a British unit in a French port
/// is, in the same phase.
#[test]
fn f40_16_3_a_dutch_unit_is_not_evacuated_while_a_german_unit_is_inside() {
    let mut s = session("politics");
    ok(&mut s, "german", &mv("g2", &["0501", "0401"]));
    advance_to(&mut s, 1, 2);
    let evacuate = |unit: &str| custom("evacuate", &[("unit", unit)]);
    assert_eq!(
        refused(&mut s, "allied", &evacuate("nl1")),
        refusal(
            "F40-16.3",
            "nl1 may not leave netherlands while a German unit is in it (evacuation leaves it too)"
        )
    );
    ok(&mut s, "allied", &evacuate("c1"));
}

#[test]
fn f40_16_3_the_netherlands_surrender_at_the_end_of_an_allied_turn_with_two_cities_occupied() {
    let mut s = session("politics");
    ok(&mut s, "german", &mv("g2", &["0501", "0401"]));
    // One city at the end of turn 1: no surrender.
    let mut events = Vec::new();
    while s.game.state().turn == 1 {
        events.extend(end_phase(&mut s));
    }
    assert!(!politics_of(&events)
        .iter()
        .any(|e| matches!(e, Event::Custom { name, .. } if name == "CountrySurrendered")));
    // g3 takes The Hague (0301) on turn 2 (stops there: a1's ZOC).
    ok(&mut s, "german", &mv("g3", &["0501", "0401", "0301"]));
    let mut events = Vec::new();
    while s.game.state().step != 7 {
        events.extend(end_phase(&mut s));
    }
    assert!(politics_of(&events)
        .iter()
        .all(|e| !matches!(e, Event::UnitRemoved { .. })));
    // The end of the Allied turn.
    let events = end_phase(&mut s);
    assert_eq!(
        politics_of(&events),
        vec![
            custom_event(
                "CountrySurrendered",
                json!({"country": "netherlands", "turn": 2})
            ),
            Event::UnitRemoved {
                unit: "nl1".into(),
                reason: "surrendered".into()
            },
            var(
                "countries",
                json!({"belgium": "allied", "luxembourg": "allied", "netherlands": "surrendered"})
            ),
            var("surrendered", json!({"netherlands": 2})),
        ]
    );
    assert!(!s.game.state().gone["nl1"].eliminated);
}

/// F40-16.3, the module's reading that only a country at war surrenders: German units a
/// `--setup` put in both Dutch major cities of a Netherlands still neutral bring no surrender
/// at the end of the Allied turn (in play, a German unit entering the country invades it,
/// 16.2); the same position with the Netherlands named invaded does.
#[test]
fn f40_16_3_a_netherlands_still_neutral_does_not_surrender() {
    use hexwar::board::SourceText;
    let units = "[[unit]]\nid = \"g1\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
                 size = \"XX\"\nma = 4\nstrength = 4\nat = \"0301\"\n\n\
                 [[unit]]\nid = \"g2\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
                 size = \"XX\"\nma = 4\nstrength = 4\nat = \"0401\"\n\n\
                 [[unit]]\nid = \"nl1\"\nside = \"neutral\"\nnation = \"dutch\"\ntype = \"infantry\"\n\
                 size = \"XX\"\nma = 2\nstrength = 2\nat = \"0302\"\n";
    for (invaded, surrenders) in [("", false), ("invaded = [\"netherlands\"]\n", true)] {
        let mut s = session("politics");
        s.setup_text(&SourceText::new("setup.toml", format!("{invaded}{units}")))
            .unwrap();
        let mut events = Vec::new();
        while s.game.state().turn == 1 {
            events.extend(end_phase(&mut s));
        }
        let surrendered: Vec<&Event> = events
            .iter()
            .filter(|e| matches!(e, Event::Custom { name, .. } if name == "CountrySurrendered"))
            .collect();
        if surrenders {
            assert_eq!(
                surrendered,
                vec![&custom_event(
                    "CountrySurrendered",
                    json!({"country": "netherlands", "turn": 1})
                )]
            );
            assert_eq!(s.game.state().gone["nl1"].reason, "surrendered");
        } else {
            assert_eq!(surrendered, Vec::<&Event>::new());
            assert!(s.game.state().units.contains_key("nl1"));
        }
    }
}

#[test]
fn f40_16_4_belgium_surrenders_with_both_cities_german_and_a_bef_corps_evacuated() {
    let mut s = session("politics");
    ok(&mut s, "german", &mv("g1", &["0502", "0403"]));
    ok(&mut s, "german", &mv("g2", &["0501", "0402"]));
    let mut events = Vec::new();
    while s.game.state().turn == 1 {
        events.extend(end_phase(&mut s));
    }
    // Both cities German, no BEF corps evacuated: Belgium fights on.
    assert_eq!(side_of(&mut s, "be1"), "allied");
    assert!(events
        .iter()
        .all(|e| !matches!(e, Event::UnitRemoved { .. })));
    advance_to(&mut s, 2, 4);
    ok(&mut s, "allied", &custom("evacuate", &[("unit", "c1")]));
    let mut events = Vec::new();
    while s.game.state().turn == 2 {
        events.extend(end_phase(&mut s));
    }
    let p = politics_of(&events);
    assert_eq!(
        p,
        vec![
            custom_event(
                "CountrySurrendered",
                json!({"country": "belgium", "turn": 2})
            ),
            Event::UnitRemoved {
                unit: "be1".into(),
                reason: "surrendered".into()
            },
            custom_event(
                "CountrySurrendered",
                json!({"country": "luxembourg", "turn": 2})
            ),
            var(
                "countries",
                json!({"belgium": "surrendered", "luxembourg": "surrendered"})
            ),
            var("surrendered", json!({"belgium": 2, "luxembourg": 2})),
        ]
    );
}

#[test]
fn f40_16_4_belgian_units_enter_france_only_once_every_belgian_city_is_german() {
    let mut s = session("politics");
    ok(&mut s, "german", &mv("g4", &["0404"])); // Belgium joins; 0402 is not German
    advance_to(&mut s, 1, 2);
    // be1: MA 2 halved on turn 1 = 1; 0203 is French.
    assert_eq!(
        refused(&mut s, "allied", &mv("be1", &["0203"])),
        refusal("F40-16.4", "Belgian unit be1 may not enter 0203 (france)")
    );
    let mut s = session("politics");
    ok(&mut s, "german", &mv("g1", &["0502", "0403"]));
    ok(&mut s, "german", &mv("g2", &["0501", "0402"]));
    advance_to(&mut s, 2, 4);
    let events = ok(&mut s, "allied", &mv("be1", &["0203"]));
    assert!(events.contains(&status_changed("be1", &["freed"], &[])));
}

#[test]
fn f40_16_6_swiss_units_may_not_leave_while_a_german_unit_is_inside() {
    let mut s = session("politics");
    let events = ok(&mut s, "german", &mv("g4", &["0405"]));
    assert!(events.contains(&custom_event(
        "CountryInvaded",
        json!({"country": "switzerland", "unit": "g4"})
    )));
    assert_eq!(side_of(&mut s, "sw1"), "allied");
    assert_eq!(side_of(&mut s, "be1"), "neutral");
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(&mut s, "allied", &mv("sw1", &["0205"])),
        refusal(
            "F40-16.6",
            "sw1 may not leave switzerland while a German unit is in it (0205)"
        )
    );
}

#[test]
fn f40_18_1_turn_1_has_one_assault_per_side() {
    let mut s = session("politics");
    let mut phases = Vec::new();
    while s.game.state().turn == 1 {
        let st = s.game.state();
        phases.push((
            st.step,
            s.game.phasing_side().unwrap(),
            s.game.phase().unwrap(),
        ));
        end_phase(&mut s);
    }
    assert_eq!(
        phases,
        vec![
            (0, "german".to_string(), "movement".to_string()),
            (1, "german".to_string(), "combat".to_string()),
            (2, "allied".to_string(), "movement".to_string()),
            (3, "allied".to_string(), "combat".to_string()),
        ]
    );
}

#[test]
fn f40_18_2_french_units_stay_in_their_deployment_zone_on_turn_1() {
    let mut s = session("politics");
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(&mut s, "allied", &mv("a1", &["0102"])),
        refusal(
            "F40-18.2",
            "on turn 1 French unit a1 may not leave its deployment zone (0102)"
        )
    );
    ok(&mut s, "allied", &mv("a1", &["0201"]));
    // From turn 2 on they may.
    advance_to(&mut s, 2, 4);
    ok(&mut s, "allied", &mv("a1", &["0101"]));
}

/// A command naming a unit that is not in play is refused with the nearest unit id (a typo:
/// `a2` for `a1`), whatever the command: move (9.1), rail (10.1), evacuate (10.4), attack (C.3),
/// drop (11.1); no id near: none offered.
#[test]
fn f40_9_1_a_misspelt_unit_is_refused_with_the_nearest_id_for_every_command() {
    let mut s = session("politics");
    advance_to(&mut s, 1, 2);
    let typo = "no unit 'a2' in play (did you mean 'a1'?)";
    assert_eq!(
        refused(&mut s, "allied", &mv("a2", &["0201"])),
        refusal("F40-9.1", typo)
    );
    let rail = custom("rail", &[("unit", "a2"), ("to", "0201")]);
    assert_eq!(refused(&mut s, "allied", &rail), refusal("F40-10.1", typo));
    let evacuate = custom("evacuate", &[("unit", "a2")]);
    assert_eq!(
        refused(&mut s, "allied", &evacuate),
        refusal("F40-10.4", typo)
    );
    let drop = custom("drop", &[("unit", "a2"), ("to", "0201")]);
    assert_eq!(refused(&mut s, "allied", &drop), refusal("F40-11.1", typo));
    assert_eq!(
        refused(&mut s, "allied", &mv("nobody-here", &["0201"])),
        refusal("F40-9.1", "no unit 'nobody-here' in play")
    );
    advance_to(&mut s, 1, 3);
    assert_eq!(
        refused(&mut s, "allied", &attack("0603", &["b2"])),
        refusal("F40-C.3", "no unit 'b2' in play (did you mean 'b1'?)")
    );
}

/// F40-18.2's check asks only hexes of the map: on turn 1 a French move or rail move to a label
/// that names no hex (a typo) is refused by name, as on any other turn, not a rules error.
#[test]
fn f40_18_2_a_turn_1_french_order_to_a_label_that_is_no_hex_is_refused_by_name() {
    let mut s = session("politics");
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(&mut s, "allied", &mv("a1", &["0201", "02011"])),
        refusal(
            "command",
            "'02011' is not a hex of the map (this 6×5 map's labels are 4 digits, column then row: 0101 to 0605)"
        )
    );
    assert_eq!(
        refused(
            &mut s,
            "allied",
            &custom("rail", &[("unit", "a1"), ("to", "9999")])
        ),
        refusal(
            "command",
            "rail: argument 'to': '9999' is not a hex of the map (this 6×5 map's labels are 4 \
             digits, column then row: 0101 to 0605)"
        )
    );
    ok(&mut s, "allied", &mv("a1", &["0201"]));
}

#[test]
fn f40_18_2_british_units_enter_belgium_on_turn_1_only_if_belgium_itself_was_invaded() {
    let mut s = session("politics");
    ok(&mut s, "german", &mv("g2", &["0501", "0401"])); // the Netherlands: Belgium joins
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(&mut s, "allied", &mv("b1", &["0303"])),
        refusal(
            "F40-18.2",
            "on turn 1 British unit b1 may enter Belgium only if Belgium was invaded (0303)"
        )
    );
    let mut s = session("politics");
    ok(&mut s, "german", &mv("g1", &["0502", "0402"]));
    advance_to(&mut s, 1, 2);
    ok(&mut s, "allied", &mv("b1", &["0303"]));
}

#[test]
fn f40_18_2_neutral_units_have_half_their_ma_on_turn_1() {
    let mut s = session("politics");
    ok(&mut s, "german", &mv("g2", &["0501", "0401"]));
    advance_to(&mut s, 1, 2);
    // nl1, MA 2: 1 MP on turn 1 (its neighbours, but it may not leave the Netherlands, 16.3:
    // 0202, 0203, 0303, 0402 and 0403 are refused, so `reach` does not list them either).
    assert_eq!(reach(&mut s, "nl1"), costs(&[("0301", 1.0)]));
    assert_eq!(
        legal_of(&mut s, "allied", "move")
            .iter()
            .filter(|c| matches!(c, Command::Move { unit, .. } if unit == "nl1"))
            .count(),
        1
    );
}

/// A German unit at 0502 (MA 1) next to a neutral Belgian unit at 0402, both laid down by a
/// --setup position (units of side `neutral`, no status given).
const NEUTRAL_NEIGHBOUR: &str = r#"
[[unit]]
id = "gx"
side = "german"
nation = "german"
type = "infantry"
size = "XX"
ma = 1
strength = 2
at = "0502"

[[unit]]
id = "bx"
side = "neutral"
nation = "belgian"
type = "infantry"
size = "XX"
ma = 2
strength = 2
at = "0402"
"#;

#[test]
fn f40_r8_neutral_units_of_a_setup_position_exert_no_zoc_and_may_not_move() {
    let mut s = session("politics");
    setup(&mut s, NEUTRAL_NEIGHBOUR);
    assert!(s.game.state().units["bx"].status.contains("neutral"));
    // 16.1: a neutral unit has no move.
    assert_eq!(reach(&mut s, "bx"), costs(&[]));
    // R8: no ZOC, so gx pays no +1 to leave 0502; 0402 is blocked (bx), 0403 is an invasion.
    assert_eq!(
        reach(&mut s, "gx"),
        costs(&[
            ("0403", 1.0),
            ("0501", 1.0),
            ("0503", 1.0),
            ("0602", 1.0),
            ("0603", 1.0)
        ])
    );
    // R11: bx's occupation and ZOC count for nobody: 0402 is German by gx's uncontested ZOC,
    // 0401 (next to bx only) nobody's.
    assert_eq!(control_of(&s, "0402").as_deref(), Some("german"));
    assert_eq!(control_of(&s, "0401"), None);
}

#[test]
fn f40_r11_a_joining_units_hex_is_allied_at_once_even_if_german_zoc_claimed_it() {
    let mut s = session("politics");
    // g4 invades Switzerland at 0405; sw1's hex 0305 is in g4's ZOC and in no Allied ZOC: while
    // sw1 is neutral that makes it German (7.1b), but sw1 joins the Allies by the same move and
    // stands in it (7.1a).
    ok(&mut s, "german", &mv("g4", &["0405"]));
    assert_eq!(side_of(&mut s, "sw1"), "allied");
    assert_eq!(control_of(&s, "0305").as_deref(), Some("allied"));
}

#[test]
fn f40_16_1_reach_of_an_allied_unit_stops_at_the_border_of_a_neutral_country() {
    let mut s = session("politics");
    advance_to(&mut s, 2, 4);
    // a1 (MA 4) at 0202: France only; every hex of the four neutral countries is refused.
    assert_eq!(
        reach(&mut s, "a1"),
        costs(&[
            ("0101", 1.0),
            ("0102", 1.0),
            ("0103", 2.0),
            ("0104", 3.0),
            ("0105", 4.0),
            ("0201", 1.0),
            ("0203", 1.0),
            ("0204", 2.0),
            ("0205", 3.0)
        ])
    );
}

#[test]
fn f40_r10_reach_of_a_french_unit_on_turn_1_stays_in_its_deployment_zone() {
    let mut s = session("politics");
    advance_to(&mut s, 1, 2);
    assert_eq!(
        reach(&mut s, "a1"),
        costs(&[("0201", 1.0), ("0203", 1.0), ("0204", 2.0), ("0205", 3.0)])
    );
}

#[test]
fn f40_16_4_a_belgian_unit_standing_in_france_operates_normally() {
    // A --setup position with a Belgian unit already in France (0203): "une fois entrées en
    // France, les unités belges peuvent opérer normalement".
    let mut s = session("politics");
    setup(
        &mut s,
        r#"
[[unit]]
id = "g1"
side = "german"
nation = "german"
type = "infantry"
size = "XX"
ma = 4
strength = 2
at = "0603"

[[unit]]
id = "bf"
side = "allied"
nation = "belgian"
type = "infantry"
size = "XX"
ma = 4
strength = 2
at = "0203"
"#,
    );
    advance_to(&mut s, 2, 4);
    assert_eq!(
        reach(&mut s, "bf"),
        costs(&[
            ("0101", 2.0),
            ("0102", 1.0),
            ("0103", 1.0),
            ("0104", 2.0),
            ("0105", 3.0),
            ("0201", 2.0),
            ("0202", 1.0),
            ("0204", 1.0),
            ("0205", 2.0)
        ])
    );
    ok(&mut s, "allied", &mv("bf", &["0204"]));
}

/// The politics fixture's baseline (F40-7.3, the scenario's `[control]`): France (columns 01-02)
/// Allied, Germany (columns 05-06) German, the four neutral countries nobody's.
fn baseline() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (col, side) in [
        ("01", "allied"),
        ("02", "allied"),
        ("05", "german"),
        ("06", "german"),
    ] {
        for row in 1..=5 {
            out.insert(format!("{col}{row:02}"), side.to_string());
        }
    }
    out
}

/// The politics fixture's control at the start: the baseline, then 7.1 judged on the start
/// position (R11: inside the neutral countries too). Allied uncontested ZOC: a1 (0202) in 0301
/// and 0302, b1 (0203) in 0302 and 0303 (nl1 at 0302 and be1 at 0303, still neutral, count for
/// nobody); German uncontested ZOC: g4 (0504) in 0404 and 0405. No hex is in the ZOC of both
/// sides; 0401 is in no ZOC, 0402 only in nl1's, 0403 only in nl1's and be1's, 0304 only in
/// be1's and sw1's, 0305 holds sw1 alone and is in no ZOC: they stay nobody's.
fn judged_start() -> BTreeMap<String, String> {
    let mut out = baseline();
    for h in ["0301", "0302", "0303"] {
        out.insert(h.into(), "allied".into());
    }
    for h in ["0404", "0405"] {
        out.insert(h.into(), "german".into());
    }
    out
}

/// The politics fixture's start position as a `--setup` file (c1, a corps, written as a
/// division: the size changes neither its ZOC nor its occupation).
fn politics_start_setup() -> String {
    [
        ("g1", "german", "german", "0603"),
        ("g2", "german", "german", "0601"),
        ("g3", "german", "german", "0601"),
        ("g4", "german", "german", "0504"),
        ("nl1", "neutral", "dutch", "0302"),
        ("be1", "neutral", "belgian", "0303"),
        ("sw1", "neutral", "swiss", "0305"),
        ("a1", "allied", "french", "0202"),
        ("b1", "allied", "british", "0203"),
        ("c1", "allied", "british", "0101"),
    ]
    .iter()
    .map(|(id, side, nation, at)| setup_unit(id, side, nation, "infantry", 4, at))
    .collect()
}

#[test]
fn f40_7_3_at_start_the_baseline_is_judged_by_7_1_on_the_start_position() {
    // Before anything moves: France Allied, Germany German, the neutral countries nobody's
    // (7.3), except where 7.1 decides on the start position (judged_start): the hexes of the
    // Netherlands and Belgium in the Allies' ZOC alone are Allied, those of Luxembourg and
    // Switzerland in the Germans' ZOC alone German.
    let s = session("politics");
    let control = &s.game.state().control;
    assert_eq!(control, &judged_start());
    // Spelled out: uncontested ZOC of one side, in a neutral country.
    for (h, side) in [
        ("0301", "allied"),
        ("0302", "allied"),
        ("0303", "allied"),
        ("0404", "german"),
        ("0405", "german"),
    ] {
        assert_eq!(control.get(h).map(String::as_str), Some(side), "{h}");
    }
    // Out of every ZOC, or in the ZOC of still-neutral units only (R11: it counts for nobody):
    // the baseline, nobody's.
    for h in ["0401", "0402", "0403", "0304", "0305"] {
        assert_eq!(control.get(h), None, "{h}");
    }
}

#[test]
fn f40_7_3_at_start_a_contested_hex_keeps_its_baseline_and_neutral_zoc_counts_for_nobody() {
    // start: France 0101, 0102, 0201, 0202; Germany 0301-0602 (rows 1-2); Switzerland row 3.
    // a1 (0102) exerts ZOC in 0101, 0103, 0202, 0203; a2 (0201) in 0101, 0202, 0301; g1 (0302)
    // in 0202, 0203, 0301, 0303, 0402, 0403; n1 (0503, still neutral) would in 0403, 0502,
    // 0603 but counts for nobody (R11).
    let mut s = session("start");
    let expected: BTreeMap<String, String> = [
        // France: 0102 and 0201 occupied (7.1a), 0101 in Allied ZOC alone (7.1b), 0202
        // contested by g1 (7.2): its baseline, Allied (7.1d).
        ("0101", "allied"),
        ("0102", "allied"),
        ("0201", "allied"),
        ("0202", "allied"),
        // Germany: 0302 occupied, 0402 in g1's ZOC alone; 0301 contested by a2: German (7.1d);
        // 0502 in n1's ZOC alone and 0401, 0501, 0601, 0602 in none: German (7.1d), not
        // n1's.
        ("0301", "german"),
        ("0302", "german"),
        ("0401", "german"),
        ("0402", "german"),
        ("0501", "german"),
        ("0502", "german"),
        ("0601", "german"),
        ("0602", "german"),
        // Switzerland: 0103 in a1's ZOC alone, Allied; 0303 in g1's alone and 0403 in g1's
        // and n1's, German (7.1b). 0203, contested (a1, g1), 0503 (n1's hex, in no ZOC) and
        // 0603 (in n1's ZOC alone) stay nobody's (not listed).
        ("0103", "allied"),
        ("0303", "german"),
        ("0403", "german"),
    ]
    .iter()
    .map(|(h, side)| (h.to_string(), side.to_string()))
    .collect();
    assert_eq!(s.game.state().control, expected);
    // A setup of the same position gives the same control (the baseline, then 7.1 once).
    setup(
        &mut s,
        &(setup_unit("a1", "allied", "french", "infantry", 4, "0102")
            + &setup_unit("a2", "allied", "french", "infantry", 4, "0201")
            + &setup_unit("g1", "german", "german", "infantry", 4, "0302")
            + &setup_unit("n1", "neutral", "swiss", "infantry", 2, "0503")),
    );
    assert_eq!(s.game.state().control, expected);
}

#[test]
fn f40_7_3_a_setup_reproducing_the_start_gives_the_start_control() {
    let mut s = session("politics");
    assert_eq!(s.game.state().control, judged_start());
    // g4 moves to 0503, inside Germany: its ZOC now reaches 0403 (Belgium; be1 and nl1 count
    // for nobody), German (7.1b); 0405, out of every ZOC now, stays German (7.1c).
    ok(&mut s, "german", &mv("g4", &["0503"]));
    let mut moved = judged_start();
    moved.insert("0403".into(), "german".into());
    assert_eq!(s.game.state().control, moved);
    // The start position again, as a setup: the baseline, then 7.1 once on it, which is the
    // control of the start (0403 nobody's again: a setup has no history).
    setup(&mut s, &politics_start_setup());
    assert_eq!(s.game.state().control, judged_start());
    // A position with a German unit at 0601 and a French one at 0105: their ZOC reaches only
    // their own countries, so every hex is back to its baseline owner (0301-0303, 0404 and
    // 0405 too).
    setup(
        &mut s,
        &(setup_unit("g", "german", "german", "infantry", 4, "0601")
            + &setup_unit("f", "allied", "french", "infantry", 4, "0105")),
    );
    assert_eq!(s.game.state().control, baseline());
}

#[test]
fn f40_7_3_france_1940_starts_with_its_baseline_judged_once_by_7_1() {
    // The full scenario, before the first move (its reserves sent to their pools at the start
    // included): every hex is 7.1 applied once to the start position over the 7.3 baseline --
    // the side whose units alone occupy it (still-neutral units count for nobody), else the
    // side whose ZOC alone reaches it, else France Allied, Germany German, the rest nobody's.
    let s = hexwar::Session::start(std::path::Path::new("scenarios/france1940"), Some(1)).unwrap();
    let countries = eval(
        &s,
        r#"
        local out = {}
        for _, label in ipairs(hex.map.hexes()) do
          local c = "-"
          if hex.map.in_zone(label, "france") then c = "france"
          elseif hex.map.in_zone(label, "germany") then c = "germany"
          elseif hex.map.in_zone(label, "netherlands") then c = "netherlands"
          elseif hex.map.in_zone(label, "belgium") then c = "belgium"
          elseif hex.map.in_zone(label, "luxembourg") then c = "luxembourg"
          elseif hex.map.in_zone(label, "switzerland") then c = "switzerland" end
          out[label] = c
        end
        return out"#,
    );
    let zoc = zoc_map(&s);
    let st = s.game.state();
    let mut expected = BTreeMap::new();
    let mut held_in_neutral_countries = BTreeMap::<&str, usize>::new();
    for (label, country) in countries.as_object().unwrap() {
        let country = country.as_str().unwrap();
        let occupants: std::collections::BTreeSet<&str> = st
            .units
            .values()
            .filter(|u| u.at.as_deref() == Some(label.as_str()))
            .filter(|u| u.side != "neutral" && !u.status.contains("neutral"))
            .map(|u| u.side.as_str())
            .collect();
        let zoc_sides = zoc.get(label).cloned().unwrap_or_default();
        let owner = if occupants.len() == 1 {
            occupants.first().map(|s| s.to_string())
        } else if zoc_sides.len() == 1 {
            Some(zoc_sides[0].clone())
        } else {
            match country {
                "france" => Some("allied".to_string()),
                "germany" => Some("german".to_string()),
                _ => None,
            }
        };
        if let Some(owner) = owner {
            if !["france", "germany", "-"].contains(&country) {
                *held_in_neutral_countries.entry(country).or_default() += 1;
            }
            expected.insert(label.clone(), owner);
        }
    }
    // (Start units' ZOC does reach into the neutral countries: German ZOC into Maastricht,
    // 2712, in the Netherlands; Allied ZOC into 2014, in Belgium.)
    assert_eq!(countries["2712"], json!("netherlands"));
    assert_eq!(countries["2014"], json!("belgium"));
    assert_eq!(expected["2712"], "german");
    assert_eq!(expected["2014"], "allied");
    assert!(
        held_in_neutral_countries.contains_key("netherlands")
            && held_in_neutral_countries.contains_key("belgium"),
        "{held_in_neutral_countries:?}"
    );
    assert_eq!(st.control, expected);
}

/// An attack on units of a country still neutral is refused (C.2: no enemy there), saying the
/// country is neutral and that the way in is an invasion (16.2); it said only "0305 holds no
/// allied unit", which reads as an empty hex.
#[test]
fn f40_16_2_an_attack_on_neutral_units_says_they_are_neutral() {
    let mut s = session("politics");
    advance_to(&mut s, 1, 1);
    assert_eq!(
        refused(&mut s, "german", &attack("0305", &["g4"])),
        refusal(
            "F40-C.2",
            "0305 holds units of switzerland, still neutral: they are no allied units to attack (a German unit entering switzerland invades it, F40-16.2)"
        )
    );
}

/// A `--setup` position may name the countries already invaded (`invaded = [...]`): each is
/// invaded as by a German move (16.2), with the joins of 16.4/16.5/R9: Belgium brings in
/// Luxembourg, its units pass to the Allies and the hexes nobody holds become Allied (R11).
/// Without the key a setup changes no country's status. A name that is not one of the four
/// countries refuses the setup and leaves the game as it was.
#[test]
fn f40_16_2_a_setup_names_the_countries_already_invaded() {
    use hexwar::board::SourceText;
    let units = "[[unit]]\nid = \"g1\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
                 size = \"XX\"\nma = 4\nstrength = 4\nat = \"0603\"\n\n\
                 [[unit]]\nid = \"be1\"\nside = \"neutral\"\nnation = \"belgian\"\ntype = \"infantry\"\n\
                 size = \"XX\"\nma = 2\nstrength = 2\nat = \"0303\"\n";
    let side_of = |s: &hexwar::Session, id: &str| s.game.state().units[id].side.clone();
    let vars = |s: &hexwar::Session| {
        let v = &s.game.state().vars;
        let get = |k: &str| v.get(k).map(|x| serde_json::to_value(x).unwrap());
        (get("countries"), get("invaded"))
    };

    let mut plain = session("politics");
    plain
        .setup_text(&SourceText::new("setup.toml", units.to_string()))
        .unwrap();
    assert_eq!(side_of(&plain, "be1"), "neutral");
    assert_eq!(vars(&plain), (None, None));

    let mut s = session("politics");
    let text = format!("invaded = [\"belgium\"]\n{units}");
    s.setup_text(&SourceText::new("setup.toml", text)).unwrap();
    assert_eq!(side_of(&s, "be1"), "allied");
    assert_eq!(
        vars(&s),
        (
            Some(json!({"belgium": "allied", "luxembourg": "allied"})),
            Some(json!({"belgium": 1}))
        )
    );
    let control = &s.game.state().control;
    for label in ["0303", "0402", "0403", "0304", "0404"] {
        assert_eq!(
            control.get(label).map(String::as_str),
            Some("allied"),
            "{label}"
        );
    }
    // The Netherlands stay neutral, Switzerland too: nobody's, except 0302, in be1's ZOC, now
    // an Allied unit's uncontested ZOC (7.1(b); R11: inside neutral countries too).
    assert_eq!(control.get("0302").map(String::as_str), Some("allied"));
    for label in ["0301", "0401", "0305", "0405"] {
        assert_eq!(control.get(label), None, "{label}");
    }

    let mut bad = session("politics");
    let before = bad.to_save().to_json();
    let err = bad
        .setup_text(&SourceText::new(
            "setup.toml",
            format!("invaded = [\"belgium\", \"france\"]\n{units}"),
        ))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "setup.toml:1: setup refused: F40-16.2: `invaded` #2: 'france' is not one of netherlands, belgium, luxembourg, switzerland"
    );
    assert_eq!(bad.to_save().to_json(), before);
    // (a misspelt key was set aside: the Netherlands stayed neutral)
    let err = bad
        .setup_text(&SourceText::new(
            "setup.toml",
            format!("invade = [\"netherlands\"]\n{units}"),
        ))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "setup.toml:1: setup refused: F40-setup: unknown key 'invade' (did you mean 'invaded'?) (a France 1940 setup holds invaded, phase, pools, side, turn and [[unit]] tables)"
    );
    assert_eq!(bad.to_save().to_json(), before);
}

/// F40-7.1 with R9/R11 on a `--setup` naming `invaded`: the position is one snapshot, judged
/// once with the joined country's units Allied. 0403 (Belgium) is in the ZOC of g1 (0503) and of
/// be1 (0303): contested, so nobody holds it by (a) or (b), and a joined country's hex nobody
/// has held is Allied (R11). It was German: judged while be1 was still neutral, g1's ZOC was
/// uncontested there, and after the join 7.1(c) kept it German.
#[test]
fn f40_7_1_a_setup_naming_an_invasion_is_judged_with_the_joined_units_allied() {
    let mut s = session("politics");
    setup(
        &mut s,
        &format!(
            "turn = 3\ninvaded = [\"belgium\"]\n{}{}",
            setup_unit("g1", "german", "german", "infantry", 4, "0503"),
            setup_unit("be1", "neutral", "belgian", "infantry", 4, "0303"),
        ),
    );
    assert_eq!(
        eval(&s, "return { hex.path.zoc('0403') }"),
        json!([["german", "allied"]])
    );
    assert_eq!(control_of(&s, "0403").as_deref(), Some("allied"));
    // (0404, Luxembourg, joined with Belgium, is contested too; 0402 is in nobody's ZOC: both
    // Allied, R11; 0304 in be1's ZOC alone, 7.1(b))
    for label in ["0404", "0402", "0304"] {
        assert_eq!(control_of(&s, label).as_deref(), Some("allied"), "{label}");
    }
    // (the invasion is noted on the position's turn)
    assert_eq!(
        serde_json::to_value(&s.game.state().vars["invaded"]).unwrap(),
        json!({"belgium": 3})
    );
}

/// F40-16.3 with 7.1(a)/R11: the Germans occupy a city when their units, and no Allied one,
/// are in it. Dutch units that walk into the two cities held only by German para regiments
/// (enemies may enter such hexes, 11.3) leave the Germans occupying neither: no surrender.
#[test]
fn f40_16_3_a_city_shared_with_allied_units_is_not_occupied_by_the_germans() {
    let para = |id: &str, at: &str| {
        format!(
            "[[unit]]\nid = \"{id}\"\nside = \"german\"\nnation = \"german\"\ntype = \"airborne\"\n\
             size = \"III\"\nma = 0\nstrength = 0\nat = \"{at}\"\n\
             attrs = {{ class = \"foot\", airborne = true, para = true, pool = \"airborne\" }}\n\n"
        )
    };
    let position = format!(
        "turn = 2\ninvaded = [\"netherlands\"]\n{}{}{}{}",
        para("p1", "0301"),
        para("p2", "0401"),
        setup_unit("nl1", "neutral", "dutch", "infantry", 4, "0302"),
        setup_unit("nl2", "neutral", "dutch", "infantry", 4, "0402"),
    );
    for dutch_move_in in [false, true] {
        let mut s = session("politics");
        setup(&mut s, &position);
        while s.game.state().step != 4 {
            end_phase(&mut s);
        }
        if dutch_move_in {
            ok(&mut s, "allied", &mv("nl1", &["0301"]));
            ok(&mut s, "allied", &mv("nl2", &["0401"]));
        }
        let mut events = Vec::new();
        while s.game.state().turn == 2 {
            events.extend(end_phase(&mut s));
        }
        let surrendered = events
            .iter()
            .any(|e| matches!(e, Event::Custom { name, .. } if name == "CountrySurrendered"));
        assert_eq!(
            surrendered, !dutch_move_in,
            "Dutch units moved in: {dutch_move_in}"
        );
    }
}

/// F40-18.2 with 10.1: on turn 1 a French unit's rail route, like a move's path, stays in its
/// deployment zone. f1 at 3121; the zone reaches 3126 only through row 24 (3124, 3224, 3324),
/// which g1 at 3224 and its ZOC close to rail, so every route to 3126 leaves the zone (3023-
/// 3025): refused, and not listed. 3023 itself is refused as a move there would be.
#[test]
fn f40_18_2_on_turn_1_a_french_rail_route_stays_in_the_deployment_zone() {
    let units = format!(
        "turn = 1\n{}{}",
        setup_unit("f1", "allied", "french", "infantry", 4, "3121"),
        setup_unit("g1", "german", "german", "infantry", 4, "3224")
    );
    let mut s = hexwar::Session::start(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/france1940")),
        Some(1),
    )
    .unwrap();
    setup(&mut s, &units);
    advance_to(&mut s, 1, 2);
    let rail = |to: &str| custom("rail", &[("unit", "f1"), ("to", to)]);
    assert_eq!(
        refused(&mut s, "allied", &rail("3126")),
        refusal(
            "F40-10.1",
            "f1 cannot go by rail from 3121 to 3126: every route enters a hex the unit may not enter now (F40-16, F40-18.2)"
        )
    );
    assert_eq!(
        refused(&mut s, "allied", &rail("3023")),
        refusal(
            "F40-18.2",
            "on turn 1 French unit f1 may not leave its deployment zone (3023)"
        )
    );
    let listed: Vec<String> = legal_of(&mut s, "allied", "rail")
        .iter()
        .map(|c| {
            serde_json::to_value(c).unwrap()["to"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(
        !listed.is_empty()
            && !listed.contains(&"3126".to_string())
            && !listed.contains(&"3023".to_string()),
        "{listed:?}"
    );
    // On turn 2 the route through 3023-3025 is open.
    advance_to(&mut s, 2, 4);
    ok(&mut s, "allied", &rail("3126"));
}

/// F40-16.4: a Belgian unit standing in France (a setup's) has entered France: it moves freely
/// there, and stepping out into Belgium frees it for good, so it may come back while Belgium's
/// cities are still Allied. It was barred from France again once it had left, the status
/// `freed` being set only by a path that entered France.
#[test]
fn f40_16_4_a_belgian_unit_that_stood_in_france_may_come_back_after_leaving() {
    use hexwar::board::SourceText;
    let setup = "turn = 2\nphase = \"movement\"\nside = \"allied\"\ninvaded = [\"belgium\"]\n\
                 [[unit]]\nid = \"g1\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
                 size = \"XX\"\nma = 4\nstrength = 4\nat = \"0603\"\n\n\
                 [[unit]]\nid = \"be1\"\nside = \"allied\"\nnation = \"belgian\"\ntype = \"infantry\"\n\
                 size = \"XX\"\nma = 2\nstrength = 2\nat = \"0203\"\n";
    let mut s = session("politics");
    s.setup_text(&SourceText::new("setup.toml", setup.to_string()))
        .unwrap();
    assert_eq!((s.game.state().turn, s.game.state().step), (2, 4));
    let events = ok(&mut s, "allied", &mv("be1", &["0303"]));
    assert!(
        events.contains(&status_changed("be1", &["freed"], &[])),
        "{events:?}"
    );
    advance_to(&mut s, 2, 6);
    ok(&mut s, "allied", &mv("be1", &["0203"]));
    assert_eq!(s.game.state().units["be1"].at.as_deref(), Some("0203"));
}
