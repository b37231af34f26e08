//! F40 combat: the module's own rules (docs/france1940.md, "Combat", F40-C.1 .. C.9; 11.4, 11.5,
//! 16.3) on tests/fixtures/f40/combat: Allied d1 (2) in the major city 0302, d2 (1) at 0401
//! (intrinsic strength point and fortification), d3 (1) at 0203 behind a major river from g4
//! (2, at 0303); German g1 (4, 0402) and g2 (4, 0403) next to 0302, g3 (6, 0501) next to 0401.
//! The dice are the session's (seed 1): roll k of the game is Dice::value_at(1, k, 6).

mod f40;

use f40::*;
use hexwar::engine::{Command, Dice, Event};
use serde_json::{json, Value};

fn odds(s: &mut hexwar::Session, target: &str, units: &[&str]) -> Value {
    s.game
        .query("combat_odds", &json!({"hex": target, "units": units}))
        .unwrap()
        .unwrap()
}

/// The events other than control changes (their exact list is territory's business).
fn without_control(events: Vec<Event>) -> Vec<Event> {
    events
        .into_iter()
        .filter(|e| !matches!(e, Event::ControlChanged { .. }))
        .collect()
}

#[test]
fn f40_c_odds_from_strengths_terrain_hexsides_works_and_isolation() {
    let mut s = session("combat");
    advance_to(&mut s, 1, 1);
    // d2 (0401) cannot trace supply: 0301 is in g1's ZOC (6.5); isolated, strength halved (8.3).
    assert!(s.game.state().units["d2"].status.contains("isolated"));
    assert!(!s.game.state().units["d1"].status.contains("isolated"));
    // Major city: defence x2.
    assert_eq!(
        odds(&mut s, "0302", &["g1", "g2"]),
        json!({"attack": 8, "defense": 4, "odds": "2:1"})
    );
    assert_eq!(
        odds(&mut s, "0302", &["g1"]),
        json!({"attack": 4, "defense": 4, "odds": "1:1"})
    );
    // Below 1:2: no column, and refused as the attack command refuses it (C.5).
    assert_eq!(
        odds(&mut s, "0302", &["g4"]),
        json!({"attack": 1, "defense": 4, "refused": {
            "rule": "F40-C.5", "reason": "odds 1 against 4 are worse than 1:2"}})
    );
    // Fortification x2 on the halved strength, plus the intrinsic strength point: 0.5 x 2 + 1.
    assert_eq!(
        odds(&mut s, "0401", &["g1", "g3"]),
        json!({"attack": 10, "defense": 2.0, "odds": "5:1"})
    );
    // Major river between every attacker and the defender: x2.
    assert_eq!(
        odds(&mut s, "0203", &["g4"]),
        json!({"attack": 1, "defense": 2, "odds": "1:2"})
    );
    // Units the attack command would refuse get their odds all the same, and why (C.3): a
    // player weighing an attack sees the odds were a what-if.
    let far = odds(&mut s, "0302", &["g1", "g3"]);
    assert_eq!(
        far["refused"],
        json!({"rule": "F40-C.3", "reason": "g3 is not adjacent to 0302"})
    );
    assert_eq!(far["attack"], json!(10));
    // The listed attacks: per target, every eligible adjacent unit, when at least 1:2.
    assert_eq!(
        legal_of(&mut s, "german", "attack"),
        vec![
            attack("0203", &["g4"]),
            attack("0302", &["g1", "g2", "g4"]),
            attack("0401", &["g1", "g3"]),
        ]
    );
}

/// `combat_odds` refuses what the `attack` command refuses (C.2, C.3): an id given twice was
/// counted twice (attack 8 for one unit of 4), a hex holding no enemy was offered at 6:1, and
/// no units answered null.
#[test]
fn f40_c_2_c_3_combat_odds_refuses_as_the_attack_command_does() {
    let mut s = session("combat");
    advance_to(&mut s, 1, 1);
    assert_eq!(
        odds(&mut s, "0302", &["g1", "g1"]),
        json!({"attack": 4, "defense": 4, "odds": "1:1", "refused": {
            "rule": "F40-C.3", "reason": "g1 is listed twice"}})
    );
    assert_eq!(
        refused(&mut s, "german", &attack("0302", &["g1", "g1"])),
        refusal("F40-C.3", "g1 is listed twice")
    );
    assert_eq!(
        odds(&mut s, "0402", &["g2"]),
        json!({"attack": 4, "defense": 0, "odds": "6:1", "refused": {
            "rule": "F40-C.2", "reason": "0402 holds no allied unit"}})
    );
    assert_eq!(
        refused(&mut s, "german", &attack("0402", &["g2"])),
        refusal("F40-C.2", "0402 holds no allied unit")
    );
    assert_eq!(
        odds(&mut s, "0302", &[]),
        json!({"refused": {"rule": "F40-C.3", "reason": "attack needs attacking units"}})
    );
}

/// The odds the attack listing works out for each attack (what the greedy bot ranks by) are
/// the odds `combat_odds` gives for the same units and target.
#[test]
fn f40_c_listed_attack_options_carry_the_odds_of_combat_odds() {
    let mut s = session("combat");
    // (no attack outside the combat phase: an empty list, `[]`, not `{}`)
    let none = s.game.query("attack_options", &json!("german")).unwrap();
    assert_eq!(none, Some(json!([])));
    advance_to(&mut s, 1, 1);
    let options = s
        .game
        .query("attack_options", &json!("german"))
        .unwrap()
        .unwrap();
    assert_eq!(
        options,
        json!([
            {"hex": "0203", "units": ["g4"], "attack": 1, "defense": 2, "odds": "1:2"},
            {"hex": "0302", "units": ["g1", "g2", "g4"], "attack": 9, "defense": 4, "odds": "2:1"},
            {"hex": "0401", "units": ["g1", "g3"], "attack": 10, "defense": 2.0, "odds": "5:1"},
        ])
    );
    for option in options.as_array().unwrap() {
        let units: Vec<&str> = option["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_str().unwrap())
            .collect();
        let mut expected = odds(&mut s, option["hex"].as_str().unwrap(), &units);
        for key in ["hex", "units"] {
            expected[key] = option[key].clone();
        }
        assert_eq!(option, &expected);
    }
}

#[test]
fn f40_c_refusals_name_their_clause() {
    let mut s = session("combat");
    assert_eq!(
        refused(&mut s, "german", &attack("0302", &["g1"])),
        refusal("F40-C.1", "attacks happen in the side's own combat phase")
    );
    advance_to(&mut s, 1, 1);
    assert_eq!(
        refused(&mut s, "german", &attack("0302", &["g3"])),
        refusal("F40-C.3", "g3 is not adjacent to 0302")
    );
    assert_eq!(
        refused(&mut s, "german", &attack("0302", &["g4"])),
        refusal("F40-C.5", "odds 1 against 4 are worse than 1:2")
    );
    assert_eq!(
        refused(&mut s, "german", &attack("0402", &["g3"])),
        refusal("F40-C.2", "0402 holds no allied unit")
    );
    // (the target is judged first: g1's own hex was "g1 is not adjacent to 0402")
    assert_eq!(
        refused(&mut s, "german", &attack("0402", &["g1"])),
        refusal("F40-C.2", "0402 holds no allied unit")
    );
    ok(&mut s, "german", &attack("0401", &["g3"]));
    assert_eq!(
        refused(&mut s, "german", &attack("0401", &["g1"])),
        refusal(
            "F40-C.4",
            "0401 has already been attacked this combat phase"
        )
    );
}

#[test]
fn f40_c_seeded_dice_dr_percent_destroys_works_and_a_unit_without_retreat_is_eliminated() {
    let mut s = session("combat");
    advance_to(&mut s, 1, 1);
    // Roll 0 of seed 1; at 5:1 a 3 is DR% (the CRT of rules/france1940/combat.lua).
    let roll = Dice::value_at(1, 0, 6);
    assert_eq!(roll, 3);
    let events = without_control(ok(&mut s, "german", &attack("0401", &["g1", "g3"])));
    let why = "combat at 0401 (5:1, roll 3: DR%)";
    let mut expected = attack_on_0401_begins("DR%");
    expected.extend([
        // 0301, the only hex farther away that is not German-held, is in German ZOC (6.6).
        Event::UnitEliminated {
            unit: "d2".into(),
            reason: format!(
                "{why}: no retreat route: every route otherwise open to it enters enemy ZOC \
                 (0301), and a foot unit may not retreat into enemy ZOC unless a friendly unit \
                 stays there (F40-6.6)"
            ),
        },
        var(
            "destroyed",
            json!({"0401": ["fortification", "intrinsic_strength"]}),
        ),
    ]);
    assert_eq!(events, expected);
    // Roll 1 (a 1) at 1:1 (6 against 4): AE.
    assert_eq!(Dice::value_at(1, 1, 6), 1);
    let events = without_control(ok(&mut s, "german", &attack("0302", &["g2", "g4"])));
    assert_eq!(
        events[1],
        Event::Custom {
            name: "CombatResolved".into(),
            data: json!({"hex": "0302", "attackers": ["g2", "g4"], "defenders": ["d1"],
                "attack": 5, "defense": 4, "odds": "1:1", "roll": 1, "result": "AE"})
            .into(),
        }
    );
    let gone: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::UnitEliminated { unit, .. } => Some(unit.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(gone, vec!["g2", "g4"]);
    // A command naming an eliminated unit says so (in play by email the other side's turn
    // eliminates units; "did you mean 'g1'?" pointed the player at another one).
    assert_eq!(
        refused(&mut s, "german", &attack("0203", &["g2"])),
        refusal(
            "F40-C.3",
            "no unit 'g2' in play: it was eliminated on turn 1 (combat at 0302 (1:1, roll 1: AE))"
        )
    );
    // The phase ends: marks cleared.
    let side = s.game.phasing_side().unwrap();
    ok(&mut s, &side, &Command::EndPhase);
    assert!(!s.game.state().units["g1"].status.contains("attacked"));
}

/// tests/fixtures/f40/airborne_river: g1 (4) at 0301 attacks a1 (2) at 0401 across a major
/// river (defence x2) unless p1 dropped on 0401 in this assault.
#[test]
fn f40_11_5_a_drop_on_the_target_cancels_the_major_river_multiplier_in_combat() {
    // Without the drop: 4 against 2 x 2.
    let mut s = session("airborne_river");
    advance_to(&mut s, 1, 1);
    assert!(!s.game.state().units["a1"].status.contains("isolated"));
    assert!(!s.game.state().units["g1"].status.contains("isolated"));
    assert_eq!(
        odds(&mut s, "0401", &["g1"]),
        json!({"attack": 4, "defense": 4, "odds": "1:1"})
    );

    // With p1 dropped on 0401: the river does not count, 4 against 2.
    let mut s = session("airborne_river");
    ok(
        &mut s,
        "german",
        &custom("drop", &[("unit", "p1"), ("to", "0401")]),
    );
    ok(&mut s, "german", &Command::EndPhase);
    assert_eq!(
        odds(&mut s, "0401", &["g1"]),
        json!({"attack": 4, "defense": 2, "odds": "2:1"})
    );
    let events = ok(&mut s, "german", &attack("0401", &["g1"]));
    let Some(Event::Custom { name, data }) =
        events.iter().find(|e| matches!(e, Event::Custom { .. }))
    else {
        panic!("no CombatResolved in {events:?}");
    };
    assert_eq!(name, "CombatResolved");
    // Roll 0 of seed 1 is a 3: EX at 2:1.
    assert_eq!(Dice::value_at(1, 0, 6), 3);
    assert_eq!(
        &**data,
        &json!({"hex": "0401", "attackers": ["g1"], "defenders": ["a1"], "attack": 4,
                "defense": 2, "odds": "2:1", "roll": 3, "result": "EX"})
    );
    // The cancellation ends with that combat phase: the next German combat counts the river.
    ok(&mut s, "german", &Command::EndPhase);
    assert_eq!(
        s.game.query("airborne_hexsides", &Value::Null).unwrap(),
        Some(Value::Null)
    );
}

/// On tests/fixtures/f40/politics: g1 (12) invades Luxembourg at 0404, bringing Belgium in, and
/// attacks bx (1, Belgian) at 0403 at 6:1; German units stand on the French hexes 0203 and 0204,
/// so a retreat of 2 hexes takes bx into Germany (0501), not into France.
const BELGIAN_RETREAT: &str = r#"
[[unit]]
id = "g1"
side = "german"
nation = "german"
type = "infantry"
size = "XX"
ma = 4
strength = 12
at = "0504"

[[unit]]
id = "g2"
side = "german"
nation = "german"
type = "infantry"
size = "XX"
ma = 4
strength = 2
at = "0203"

[[unit]]
id = "g3"
side = "german"
nation = "german"
type = "infantry"
size = "XX"
ma = 4
strength = 2
at = "0204"

[[unit]]
id = "bx"
side = "neutral"
nation = "belgian"
type = "infantry"
size = "XX"
ma = 4
strength = 1
at = "0403"
"#;

#[test]
fn f40_16_4_a_belgian_unit_retreating_into_germany_may_still_not_enter_france() {
    // A seed whose first roll is a retreat at 6:1 (1: DR, 2: DR%).
    let seed = (1..100).find(|&s| Dice::value_at(s, 0, 6) <= 2).unwrap();
    let mut s = hexwar::Session::start(
        std::path::Path::new("tests/fixtures/f40/politics"),
        Some(seed),
    )
    .unwrap();
    setup(&mut s, BELGIAN_RETREAT);
    ok(&mut s, "german", &mv("g1", &["0404"]));
    assert_eq!(s.game.state().units["bx"].side, "allied");
    advance_to(&mut s, 1, 1);
    let events = ok(&mut s, "german", &attack("0403", &["g1"]));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::UnitMoved { unit, to, .. }
            if unit == "bx" && to == "0501")),
        "{events:?}"
    );
    // Forced out of Belgium, but not into France: 16.4 still holds for it.
    assert!(!s.game.state().units["bx"].status.contains("freed"));
    advance_to(&mut s, 2, 4);
    assert_eq!(
        refused(&mut s, "allied", &mv("bx", &["0402", "0303", "0204"])),
        refusal("F40-16.4", "Belgian unit bx may not enter 0204 (france)")
    );
}

/// On tests/fixtures/f40/airborne (one row of hexes, 0501 sea): g1 (12) at 0601 attacks a1 (1,
/// foot) at 0701; a para regiment p1 stands alone at 0901. A retreat of 2 hexes from 0701 can
/// only go 0801 then 0901 (0601 is g1's), so it must enter p1's hex: "enemy units may enter a
/// hex holding only such regiments" (F40-11.3; R8: entered, crossed and ended in freely).
const PARA_HEX_RETREAT: &str = r#"
phase = "combat"

[[unit]]
id = "g1"
side = "german"
nation = "german"
type = "infantry"
size = "XX"
ma = 4
strength = 12
at = "0601"

[[unit]]
id = "a1"
side = "allied"
nation = "french"
type = "infantry"
size = "XX"
ma = 4
strength = 1
at = "0701"

[[unit]]
id = "p1"
side = "german"
nation = "german"
type = "airborne"
size = "III"
ma = 0
strength = 0
at = "0901"
attrs = { class = "foot", airborne = true, para = true }
"#;

#[test]
fn f40_11_3_a_retreat_may_enter_a_hex_holding_only_enemy_para_regiments() {
    // A seed whose first roll is a retreat at 6:1 (1: DR, 2: DR%).
    let seed = (1..100).find(|&s| Dice::value_at(s, 0, 6) <= 2).unwrap();
    let start = |extra: &str| {
        let mut s = hexwar::Session::start(
            std::path::Path::new("tests/fixtures/f40/airborne"),
            Some(seed),
        )
        .unwrap();
        setup(&mut s, &(PARA_HEX_RETREAT.to_string() + extra));
        assert_eq!((s.game.state().turn, s.game.state().step), (1, 1));
        s
    };
    let mut s = start("");
    let events = ok(&mut s, "german", &attack("0701", &["g1"]));
    assert!(
        events
            .iter()
            .any(|e| *e == moved("a1", Some("0701"), &["0801", "0901"], 0.0)),
        "{events:?}"
    );
    // Not when the hex holds another enemy unit too (the 22nd Airlanding is no para regiment).
    let al = r#"
[[unit]]
id = "al"
side = "german"
nation = "german"
type = "airborne"
size = "XX"
ma = 3
strength = 2
at = "0901"
attrs = { class = "foot", airborne = true, airlanding = true }
"#;
    let mut s = start(al);
    let events = ok(&mut s, "german", &attack("0701", &["g1"]));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::UnitEliminated { unit, reason }
            if unit == "a1" && reason.ends_with("no retreat route (F40-C.7)"))),
        "{events:?}"
    );
}

/// F40-11.5 with C.3: a German unit may not attack across a sea hexside without causeway (the
/// Westerschelde, 2009/2010), unless a drop on the target cancels the effects of all of its
/// hexsides for the next combat phase: that ban too.
#[test]
fn f40_11_5_a_drop_on_the_target_lifts_the_sea_hexside_ban_on_attacks() {
    let units = format!(
        "turn = 2\ninvaded = [\"netherlands\"]\n{}{}\
         [[unit]]\nid = \"p1\"\nside = \"german\"\nnation = \"german\"\ntype = \"airborne\"\n\
         size = \"III\"\nma = 0\nstrength = 0\n\
         attrs = {{ airborne = true, para = true, class = \"foot\" }}\n\n",
        setup_unit("a1", "allied", "french", "infantry", 4, "2010"),
        setup_unit("g1", "german", "german", "infantry", 4, "2009")
            .replace("strength = 3", "strength = 12"),
    );
    let france = || {
        let mut s = hexwar::Session::start(
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/france1940")),
            Some(1),
        )
        .unwrap();
        setup(&mut s, &units);
        s
    };
    let mut s = france();
    ok(&mut s, "german", &Command::EndPhase);
    assert_eq!(
        refused(&mut s, "german", &attack("2010", &["g1"])),
        refusal("F40-C.3", "g1 may not attack across the hexside 2009/2010")
    );
    let mut s = france();
    ok(
        &mut s,
        "german",
        &custom("drop", &[("unit", "p1"), ("to", "2010")]),
    );
    ok(&mut s, "german", &Command::EndPhase);
    let events = ok(&mut s, "german", &attack("2010", &["g1"]));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Custom { name, .. } if name == "CombatResolved")),
        "{events:?}"
    );
}

/// C.7 with F40-6.6: the units of one combat retreat one after another, each judged on the
/// position the ones before it left. German a (0504) and b (0405) attack dd at 0505; b, cut
/// off by x1-x3 and dd, is isolated (8.3: the setup's position is judged for supply), so the
/// attack is 2 + 1 against 4, 1:2, and rolls AR (roll 0 of seed 1 is a 3). a retreats first, to 0604. b, boxed in by x1-x3,
/// could only go to 0504, in the ZOC of dd and x3: a held it before the combat, but a has
/// just left it, so it holds no friendly unit and b (foot) may not retreat there: eliminated.
/// (Judged on the position before the combat, b went to 0504 and stood there alone in ZOC.)
#[test]
fn f40_6_6_retreats_of_one_combat_are_judged_one_after_another() {
    let mut s = session("retreat_sequence");
    let unit = |id: &str, side: &str, strength: u32, at: &str| {
        let nation = if side == "german" { "german" } else { "french" };
        format!(
            "[[unit]]\nid = \"{id}\"\nside = \"{side}\"\nnation = \"{nation}\"\ntype = \"infantry\"\n\
             size = \"XX\"\nma = 4\nstrength = {strength}\nat = \"{at}\"\n\n"
        )
    };
    let position = [
        "phase = \"combat\"\n".to_string(),
        unit("dd", "allied", 4, "0505"),
        unit("x1", "allied", 1, "0304"),
        unit("x2", "allied", 1, "0305"),
        unit("x3", "allied", 1, "0404"),
        unit("a", "german", 2, "0504"),
        unit("b", "german", 2, "0405"),
    ]
    .concat();
    setup(&mut s, &position);
    assert_eq!(Dice::value_at(1, 0, 6), 3);
    let events = ok(&mut s, "german", &attack("0505", &["a", "b"]));
    let after: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::UnitMoved { .. } | Event::UnitEliminated { .. }))
        .collect();
    assert_eq!(
        after,
        [
            &moved("a", Some("0504"), &["0604"], 0.0),
            &Event::UnitEliminated {
                unit: "b".into(),
                reason: "combat at 0505 (1:2, roll 3: AR): no retreat route: every route \
                         otherwise open to it enters enemy ZOC (0406, 0504), and a foot unit may \
                         not retreat into enemy ZOC unless a friendly unit stays there (F40-6.6)"
                    .into()
            }
        ]
    );
}

/// F40-6.6 with C.7: after an AR the foot attacker's only way out is the hex of the panzer
/// that attacks with it, in Allied ZOC; the panzer retreats out of it in the same result, so
/// that hex holds no friendly unit for the foot unit (it would end alone in enemy ZOC): the
/// foot unit is eliminated and the panzer retreats, whichever of the two is taken first (the
/// ids decided it before).
#[test]
fn f40_6_6_no_retreat_into_a_hex_a_unit_of_the_same_result_leaves() {
    for (foot, panzer) in [("g1", "g2"), ("g2", "g1")] {
        let mut s =
            hexwar::Session::start(std::path::Path::new("scenarios/france1940"), Some(7)).unwrap();
        let units = [
            setup_unit("a1", "allied", "french", "infantry", 4, "3021"),
            setup_unit("a2", "allied", "french", "infantry", 4, "2820"),
            setup_unit(foot, "german", "german", "infantry", 4, "2920"),
            setup_unit(panzer, "german", "german", "armored", 8, "3020")
                .replace("strength = 3", "strength = 6"),
        ]
        .concat();
        setup(
            &mut s,
            &format!("turn = 2\nphase = \"combat\"\nside = \"german\"\n\n{units}"),
        );
        let events = ok(&mut s, "german", &attack("3021", &["g1", "g2"]));
        let after: Vec<&Event> = events
            .iter()
            .filter(|e| matches!(e, Event::UnitMoved { .. } | Event::UnitEliminated { .. }))
            .collect();
        let eliminated = Event::UnitEliminated {
            unit: foot.into(),
            reason: "combat at 3021 (3:1, roll 1: AR): no retreat route: every route otherwise \
                     open to it enters enemy ZOC (2821, 2919, 2921, 3020), and a foot unit may \
                     not retreat into enemy ZOC unless a friendly unit stays there (F40-6.6)"
                .into(),
        };
        let retreated = moved(panzer, Some("3020"), &["3019"], 0.0);
        let expected = if foot == "g1" {
            [&eliminated, &retreated]
        } else {
            [&retreated, &eliminated]
        };
        assert_eq!(after, expected, "foot unit {foot}");
    }
}

/// A para regiment and a French division side by side on the France 1940 map, strength 2
/// written for the regiment in the setup, in `side`'s combat (or movement) phase of turn 3.
fn para_beside_french(side: &str, phase: &str, para_at: &str, french_at: &str) -> hexwar::Session {
    para_of_strength_beside_french(2, side, phase, para_at, french_at)
}

/// [`para_beside_french`] with the regiment's strength `strength`.
fn para_of_strength_beside_french(
    strength: u32,
    side: &str,
    phase: &str,
    para_at: &str,
    french_at: &str,
) -> hexwar::Session {
    let mut s =
        hexwar::Session::start(std::path::Path::new("scenarios/france1940"), Some(1)).unwrap();
    setup(
        &mut s,
        &format!(
            "turn = 3\nphase = \"{phase}\"\nside = \"{side}\"\n\n\
             [[unit]]\nid = \"p1\"\nside = \"german\"\nnation = \"german\"\ntype = \"airborne\"\n\
             size = \"III\"\nma = 4\nstrength = {strength}\nat = \"{para_at}\"\n\
             attrs = {{ class = \"foot\", airborne = true, para = true }}\n\n{}",
            setup_unit("f1", "allied", "french", "infantry", 4, french_at)
                .replace("strength = 3", "strength = 1")
        ),
    );
    s
}

/// F40-11.3: a para regiment has no combat factor, whatever strength a setup gives it: it
/// defends with 0 (so any attack on it alone is at 6:1) and is no attacker.
#[test]
fn f40_11_3_para_regiments_have_no_combat_factor() {
    let mut s = para_beside_french("allied", "combat", "2020", "2021");
    assert_eq!(
        odds(&mut s, "2020", &["f1"]),
        json!({"attack": 1, "defense": 0, "odds": "6:1"})
    );
    let listed: Vec<Value> = legal_of(&mut s, "allied", "attack")
        .into_iter()
        .map(|c| Value::Object(c.into()))
        .collect();
    assert_eq!(
        listed,
        vec![json!({"command": "attack", "hex": "2020", "units": ["f1"]})]
    );
    let mut s = para_beside_french("german", "combat", "2021", "2020");
    assert_eq!(
        refused(&mut s, "german", &attack("2020", &["p1"])),
        refusal("F40-11.3", "p1 is a para regiment: it has no combat factor")
    );
    assert_eq!(legal_of(&mut s, "german", "attack"), Vec::<Command>::new());
    // (with the scenario's strength 0 too: 11.3 is the reason, not a strength of 0)
    let mut s = para_of_strength_beside_french(0, "german", "combat", "2021", "2020");
    assert_eq!(
        refused(&mut s, "german", &attack("2020", &["p1"])),
        refusal("F40-11.3", "p1 is a para regiment: it has no combat factor")
    );
    // (nor at the enemy in its own hex, where it dropped: 11.3 is still the reason, not C.3's
    // adjacency)
    let mut s = para_beside_french("german", "combat", "2020", "2020");
    assert_eq!(
        refused(&mut s, "german", &attack("2020", &["p1"])),
        refusal("F40-11.3", "p1 is a para regiment: it has no combat factor")
    );
}

/// F40-11.3 with 10.1: a para regiment has no movement factor, so it does not go by rail
/// either (rail spends no MP, but it is the unit's movement for the phase).
#[test]
fn f40_11_3_para_regiments_do_not_go_by_rail() {
    let mut s = para_beside_french("german", "movement", "3607", "2522");
    let rail = custom("rail", &[("unit", "p1"), ("to", "3921")]);
    assert_eq!(
        refused(&mut s, "german", &rail),
        refusal("F40-11.3", "para regiments have no movement factor")
    );
    let p1_listed = legal_of(&mut s, "german", "rail")
        .into_iter()
        .filter(|c| matches!(c, Command::Custom { args, .. } if args["unit"] == "p1"))
        .count();
    assert_eq!(p1_listed, 0);
}

/// France 1940's commands declare the kinds of their arguments, so an order holding the wrong
/// kind of value (a JSON null, a unit id where a list is due, a number for a hex) is refused as
/// the player's mistake, naming the argument, with the state unchanged; before, it failed
/// inside the rules as a rules error (`bad argument #1 to 'is_hex'`).
#[test]
fn f40_orders_with_arguments_of_the_wrong_kind_are_refused_not_rules_errors() {
    let mut s = session("combat");
    advance_to(&mut s, 1, 1);
    let order = |args: Value| Command::try_from(args.as_object().unwrap().clone()).unwrap();
    let before = serde_json::to_string(s.game.state()).unwrap();
    for (args, why) in [
        (
            json!({"command": "drop", "unit": "p1", "to": null}),
            "drop: argument 'to' must be a place label (a string), not null",
        ),
        (
            json!({"command": "attack", "hex": "0302", "units": "g1"}),
            "attack: argument 'units' must be a list of unit ids, not a string, \"g1\"",
        ),
        (
            json!({"command": "attack", "units": ["g1"]}),
            "attack: argument 'hex' is missing (a place label (a string))",
        ),
        (
            json!({"command": "rail", "unit": 7, "to": "0101"}),
            "rail: argument 'unit' must be a unit id (a string), not a number, 7",
        ),
        (
            json!({"command": "place", "unit": ["g1"], "to": "0101"}),
            "place: argument 'unit' must be a unit id (a string), not a list, [\"g1\"]",
        ),
        (
            json!({"command": "evacuate", "unit": {"id": "d1"}}),
            "evacuate: argument 'unit' must be a unit id (a string), not a table, {\"id\":\"d1\"}",
        ),
    ] {
        assert_eq!(
            refused(&mut s, "german", &order(args)),
            refusal("command", why)
        );
        assert_eq!(
            serde_json::to_string(s.game.state()).unwrap(),
            before,
            "{why}"
        );
    }
}

/// A wrong question to the module's queries is the asker's mistake (`HostCall`, said by the
/// query through `hex.rules.caller_error`), not a rules error: `combat_odds` used to skip a unit
/// id not in play and answer the odds of the others as the attack's.
#[test]
fn f40_queries_asked_a_wrong_question_say_it_is_the_callers() {
    let mut s = session("combat");
    for (name, arg, why) in [
        (
            "combat_odds",
            json!({"hex": "0302", "units": ["g1", "g9"]}),
            "query 'combat_odds': no unit 'g9' in play",
        ),
        (
            "combat_odds",
            json!({"hex": "9999", "units": ["g1"]}),
            "query 'combat_odds': give { hex = \"0312\", units = { ids } }, a hex of the map and units in play",
        ),
        (
            "attack_options",
            json!("germans"),
            "query 'attack_options': the argument is a side, \"german\" or \"allied\", not germans",
        ),
        (
            "reach",
            json!(7),
            "query 'reach': the argument is a unit id (a string), not 7",
        ),
    ] {
        let e = s.game.query(name, &arg).unwrap_err();
        assert_eq!(
            (e.kind, e.message.as_str()),
            (hexwar::engine::RulesErrorKind::HostCall, why)
        );
    }
}
