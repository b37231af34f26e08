//! F40 reserves and reinforcements (17.1-17.7) on tests/fixtures/f40/reserves (17.6, 17.7: on
//! tests/fixtures/f40/alpine, see below): France = columns
//! 01-04 (port 0101 on the west edge, Paris 0202, assembly point 0302); Germany = columns 05-06,
//! major cities 0501 (in a1's ZOC, contested by g1 at 0601, so still German) and 0601, town 0602. Pools: gr1-gr3 (German), ar1-ar4 (Allied), rf1
//! (British armoured reinforcement, turn 3). Turn 1 steps 0-3; later turns: German 0-3, Allied 4-7.

mod f40;

use f40::*;
use hexwar::engine::{Command, Event};
use serde_json::json;

fn place(unit: &str, to: &str) -> Command {
    custom("place", &[("unit", unit), ("to", to)])
}

#[test]
fn f40_17_3_pools_start_off_the_map_and_enter_only_in_the_first_assault() {
    let mut s = session("reserves");
    assert_eq!(s.game.state().gone["gr1"].reason, "pool");
    assert!(!s.game.state().gone["gr1"].eliminated);
    advance_to(&mut s, 2, 6); // Allied second assault
    assert_eq!(
        refused(&mut s, "allied", &place("ar1", "0302")),
        refusal(
            "F40-17.3",
            "reserves are placed in the owner's first assault (movement phase)"
        )
    );
}

/// 17.2 names no moment: the module's reading gives reinforcements the reserves' first assault,
/// and says so under 17.2 (the refusal cited 17.3's reserves for a reinforcement).
#[test]
fn f40_17_2_reinforcements_enter_in_the_first_assault_too() {
    let mut s = session("reserves");
    advance_to(&mut s, 3, 6); // Allied second assault of turn 3, rf1's turn
    assert_eq!(
        refused(&mut s, "allied", &place("rf1", "0101")),
        refusal(
            "F40-17.2",
            "reinforcements enter in the owner's first assault (movement phase), as reserves do \
             (17.3; the module's reading: 17.2 names no moment)"
        )
    );
}

#[test]
fn f40_17_4_german_reserves_from_turn_3_two_a_turn_in_a_german_city_not_in_allied_zoc() {
    let mut s = session("reserves");
    assert_eq!(
        refused(&mut s, "german", &place("gr1", "0601")),
        refusal("F40-17.4", "German reserves enter from turn 3")
    );
    advance_to(&mut s, 3, 0);
    assert_eq!(
        legal_of(&mut s, "german", "place"),
        vec![
            place("gr1", "0601"),
            place("gr1", "0602"),
            place("gr2", "0601"),
            place("gr2", "0602"),
            place("gr3", "0601"),
            place("gr3", "0602")
        ]
    );
    assert_eq!(
        refused(&mut s, "german", &place("gr1", "0501")),
        refusal("F40-17.4", "0501 is in Allied ZOC")
    );
    // A German town is a German city ("ville allemande"; the text says "grandes villes" where
    // it means major cities only); open country is not.
    assert_eq!(
        refused(&mut s, "german", &place("gr1", "0502")),
        refusal("F40-17.4", "0502 is not a German-controlled German city")
    );
    let events = ok(&mut s, "german", &place("gr1", "0601"));
    assert!(
        matches!(&events[0], Event::UnitPlaced { unit } if unit.id == "gr1" && unit.at.as_deref() == Some("0601"))
    );
    assert_eq!(events[1], var("placed", json!({"0601": true})));
    assert_eq!(events[2], var("reserves_used", json!({"german": 1})));
    // One reserve per hex per turn.
    assert_eq!(
        refused(&mut s, "german", &place("gr2", "0601")),
        refusal(
            "F40-17.3",
            "one reserve per hex per turn (0601 has had one)"
        )
    );
    ok(&mut s, "german", &place("gr2", "0602"));
    // A placed reserve may move in its assault (17.1).
    ok(&mut s, "german", &mv("gr1", &["0602"]));
}

/// F40-17.4: a German city an Allied unit stands in takes no German reserve, and the refusal
/// cites 17.4, the clause that names where German reserves enter.
#[test]
fn f40_17_4_a_german_city_holding_an_allied_unit_takes_no_reserve() {
    let mut s = session("reserves");
    advance_to(&mut s, 3, 0);
    setup(
        &mut s,
        "[[unit]]\nid = \"ax\"\nside = \"allied\"\nnation = \"french\"\ntype = \"infantry\"\n\
         size = \"XX\"\nma = 4\nstrength = 2\nat = \"0602\"\n",
    );
    assert_eq!(
        refused(&mut s, "german", &place("gr1", "0602")),
        refusal("F40-17.4", "0602 holds a unit of another side")
    );
}

#[test]
fn f40_17_5_allied_reserves_from_turn_2_three_a_turn_at_assembly_points_paris_or_the_edges() {
    let mut s = session("reserves");
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(&mut s, "allied", &place("ar1", "0302")),
        refusal("F40-17.5", "Allied reserves enter from turn 2")
    );
    advance_to(&mut s, 2, 4);
    assert_eq!(
        refused(&mut s, "allied", &place("ar1", "0401")),
        refusal(
            "F40-17.5",
            "0401 is not an assembly point free of German ZOC and control, a Paris hex or a west/south edge hex of France"
        )
    );
    ok(&mut s, "allied", &place("ar1", "0302"));
    ok(&mut s, "allied", &place("ar2", "0202"));
    ok(&mut s, "allied", &place("ar3", "0102"));
    assert_eq!(
        refused(&mut s, "allied", &place("ar4", "0101")),
        refusal("F40-17.5", "3 Allied reserves per turn")
    );
}

#[test]
fn f40_17_2_british_armour_arrives_on_its_turn_at_an_allied_port() {
    let mut s = session("reserves");
    advance_to(&mut s, 2, 4);
    assert_eq!(
        refused(&mut s, "allied", &place("rf1", "0101")),
        refusal("F40-17.2", "rf1 arrives on turn 3")
    );
    advance_to(&mut s, 3, 4);
    assert_eq!(
        refused(&mut s, "allied", &place("rf1", "0102")),
        refusal(
            "F40-17.2",
            "rf1 enters at a port controlled by the Allies (0102 is no port)"
        )
    );
    ok(&mut s, "allied", &place("rf1", "0101"));
    // Not a reserve: no quota used.
    assert_eq!(s.game.state().vars.get("reserves_used"), None);
    // Placed again: in play, and its clause is 17.2's, not the reserves' 17.3.
    assert_eq!(
        refused(&mut s, "allied", &place("rf1", "0101")),
        refusal("F40-17.2", "rf1 waits in no pool: it is in play at 0101")
    );
}

/// F40-17.2: a port the Germans control (0101, by gx's uncontested ZOC from 0201) takes no
/// reinforcement, and the refusal says why (control, not the hex).
#[test]
fn f40_17_2_british_armour_does_not_enter_at_a_german_controlled_port() {
    let mut s = session("reserves");
    advance_to(&mut s, 3, 4);
    setup(
        &mut s,
        "[[unit]]\nid = \"gx\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
         size = \"XX\"\nma = 4\nstrength = 2\nat = \"0201\"\n\n\
         [[unit]]\nid = \"rf1\"\nside = \"allied\"\nnation = \"british\"\ntype = \"armored\"\n\
         size = \"XX\"\nma = 6\nstrength = 4\n\
         attrs = { class = \"motorized\", pool = \"reinforcement\", arrives_turn = 3 }\n",
    );
    assert_eq!(control_of(&s, "0101").as_deref(), Some("german"));
    assert_eq!(
        refused(&mut s, "allied", &place("rf1", "0101")),
        refusal(
            "F40-17.2",
            "rf1 enters at a port controlled by the Allies (0101 is not controlled by them)"
        )
    );
}

/// F40-17.3: `place` names a unit that waits in no pool: one already in play is said to be in
/// play (where), a typo gets the nearest pool unit's id.
#[test]
fn f40_17_3_placing_a_unit_in_play_or_a_misspelt_one_is_refused_by_name() {
    let mut s = session("reserves");
    advance_to(&mut s, 2, 4);
    assert_eq!(
        refused(&mut s, "allied", &place("a1", "0101")),
        refusal("F40-17.3", "a1 waits in no pool: it is in play at 0402")
    );
    assert_eq!(
        refused(&mut s, "allied", &place("ar9", "0101")),
        refusal(
            "F40-17.3",
            "no unit 'ar9' waits in a pool (did you mean 'ar1'?)"
        )
    );
    assert_eq!(
        refused(&mut s, "allied", &place("zzzzzz", "0101")),
        refusal("F40-17.3", "no unit 'zzzzzz' waits in a pool")
    );
}

/// A reserve placed in its assault moves and attacks in it: ar1 enters at the assembly point
/// 0302, moves next to g1 (0601) and attacks it in the same Allied assault.
#[test]
fn f40_17_1_units_entering_play_move_and_fight_in_the_assault_they_appear() {
    let mut s = session("reserves");
    advance_to(&mut s, 2, 4);
    ok(&mut s, "allied", &place("ar1", "0302"));
    let into_0501: Vec<Command> = legal_of(&mut s, "allied", "move")
        .into_iter()
        .filter(|c| matches!(c, Command::Move { unit, path } if unit == "ar1" && path.last().map(String::as_str) == Some("0501")))
        .collect();
    assert_eq!(into_0501.len(), 1, "ar1 reaches 0501: {into_0501:?}");
    ok(&mut s, "allied", &into_0501[0]);
    ok(&mut s, "allied", &Command::EndPhase);
    let mut args = serde_json::Map::new();
    args.insert("hex".into(), json!("0601"));
    args.insert("units".into(), json!(["ar1"]));
    let attack = Command::Custom {
        name: "attack".into(),
        args,
    };
    let events = ok(&mut s, "allied", &attack);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Custom { name, data }
            if name == "CombatResolved" && data["attackers"] == json!(["ar1"]))),
        "{events:?}"
    );
}

/// tests/fixtures/f40/alpine: g1 (0601) invades Switzerland by entering 0501, two hexes from
/// France and from the Swiss town 0301.
fn invade_switzerland(s: &mut hexwar::Session) {
    ok(s, "german", &mv("g1", &["0501"]));
    assert_eq!(
        s.game.state().vars["invaded"],
        json!({"switzerland": 1}).into()
    );
}

#[test]
fn f40_17_6_armee_des_alpes_next_to_switzerland_after_its_invasion_in_addition() {
    let mut s = session("alpine");
    invade_switzerland(&mut s);
    advance_to(&mut s, 1, 2); // the Allied assault after the invasion (turn 1: reserves not yet)
    assert_eq!(
        legal_of(&mut s, "allied", "place"),
        vec![
            place("aa1", "0201"),
            place("aa1", "0202"),
            place("aa2", "0201"),
            place("aa2", "0202"),
            // and the Swiss reserves (17.7) in the town and on the south edge (0402 and 0502 in
            // g1's ZOC are German-controlled: the edge needs no Allied control)
            place("sr1", "0301"),
            place("sr1", "0302"),
            place("sr1", "0402"),
            place("sr1", "0502"),
            place("sr2", "0301"),
            place("sr2", "0302"),
            place("sr2", "0402"),
            place("sr2", "0502"),
        ]
    );
    // Not next to Switzerland: only as a normal reserve, once the other reserves have entered.
    assert_eq!(
        refused(&mut s, "allied", &place("aa1", "0101")),
        refusal(
            "F40-17.6",
            "aa1 enters next to Switzerland after its invasion, or once every other Allied reserve has entered"
        )
    );
    let events = ok(&mut s, "allied", &place("aa1", "0201"));
    // In addition to the three: no quota counted.
    assert_eq!(events[1], var("placed", json!({"0201": true})));
    assert_eq!(events.len(), 2, "{events:?}");
    ok(&mut s, "allied", &place("aa2", "0202"));
    assert_eq!(s.game.state().vars.get("reserves_used"), None);
}

#[test]
fn f40_17_6_without_an_invasion_the_armee_des_alpes_enters_as_the_last_normal_reserves() {
    let mut s = session("alpine");
    advance_to(&mut s, 2, 4);
    assert_eq!(
        refused(&mut s, "allied", &place("aa1", "0101")),
        refusal(
            "F40-17.6",
            "aa1 enters next to Switzerland after its invasion, or once every other Allied reserve has entered"
        )
    );
    ok(&mut s, "allied", &place("ar1", "0101"));
    // Every other reserve has entered: aa2 is a normal reserve (17.5 hexes, counted).
    let events = ok(&mut s, "allied", &place("aa2", "0102"));
    assert_eq!(events[2], var("reserves_used", json!({"allied": 2})));
    assert_eq!(
        refused(&mut s, "allied", &place("aa1", "0201")),
        refusal(
            "F40-17.5",
            "0201 is not an assembly point free of German ZOC and control, a Paris hex or a west/south edge hex of France"
        )
    );
}

#[test]
fn f40_17_7_swiss_reserves_one_a_turn_after_the_invasion_in_an_allied_swiss_city_or_edge() {
    let mut s = session("alpine");
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(&mut s, "allied", &place("sr1", "0302")),
        refusal(
            "F40-17.7",
            "Swiss reserves enter after an invasion of Switzerland"
        )
    );
    let mut s = session("alpine");
    invade_switzerland(&mut s);
    advance_to(&mut s, 1, 2);
    assert_eq!(
        refused(&mut s, "allied", &place("sr1", "0201")),
        refusal(
            "F40-17.7",
            "0201 is not an Allied-controlled Swiss city or south/east edge hex of Switzerland"
        )
    );
    // Not the Swiss hex g1 stands in, nor a Swiss hex that is neither a city nor an edge.
    assert_eq!(
        refused(&mut s, "allied", &place("sr1", "0501")),
        refusal("F40-17.7", "0501 holds a unit of another side")
    );
    assert_eq!(
        refused(&mut s, "allied", &place("sr1", "0401")),
        refusal(
            "F40-17.7",
            "0401 is not an Allied-controlled Swiss city or south/east edge hex of Switzerland"
        )
    );
    let events = ok(&mut s, "allied", &place("sr1", "0301"));
    assert!(
        matches!(&events[0], Event::UnitPlaced { unit } if unit.id == "sr1" && unit.side == "allied" && unit.at.as_deref() == Some("0301")),
        "{events:?}"
    );
    assert_eq!(events[2], var("reserves_used", json!({"swiss": 1})));
    assert_eq!(
        refused(&mut s, "allied", &place("sr2", "0302")),
        refusal("F40-17.7", "1 Swiss reserve per turn")
    );
    // Next turn, by the south edge of Switzerland.
    advance_to(&mut s, 2, 4);
    ok(&mut s, "allied", &place("sr2", "0302"));
    assert_eq!(s.game.state().units["sr2"].at.as_deref(), Some("0302"));
}

#[test]
fn f40_17_7_swiss_reserves_enter_by_the_swiss_south_edge_even_where_german_controlled() {
    let mut s = session("alpine");
    invade_switzerland(&mut s);
    advance_to(&mut s, 1, 2);
    // 0502, on the south edge next to g1 (0501): German by g1's ZOC, but "par le bord sud ou est
    // de la carte en Suisse" asks no control (only the Swiss cities must be Allied-controlled).
    assert_eq!(control_of(&s, "0502").as_deref(), Some("german"));
    ok(&mut s, "allied", &place("sr1", "0502"));
    assert_eq!(s.game.state().units["sr1"].at.as_deref(), Some("0502"));
}

#[test]
fn f40_17_3_a_pool_unit_of_a_setup_position_waits_in_its_pool_and_enters_as_a_reserve() {
    let mut s = session("reserves");
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
at = "0601"

[[unit]]
id = "ax"
side = "allied"
nation = "french"
type = "infantry"
size = "XX"
ma = 4
strength = 2
attrs = { pool = "allied_reserve" }
"#,
    );
    assert_eq!(s.game.state().gone["ax"].reason, "pool");
    advance_to(&mut s, 2, 4);
    let events = ok(&mut s, "allied", &place("ax", "0302"));
    assert!(
        matches!(&events[0], Event::UnitPlaced { unit } if unit.id == "ax" && unit.at.as_deref() == Some("0302")),
        "{events:?}"
    );
}

#[test]
fn f40_17_5_paris_and_edge_hexes_take_reserves_whoever_controls_them() {
    let mut s = session("reserves");
    advance_to(&mut s, 2, 4); // Allied first assault of turn 2
                              // A German unit at 0201 holds Paris (0202) and the west-edge hex 0101 by its uncontested
                              // ZOC; a1 stays far east.
    setup(
        &mut s,
        "[[unit]]\nid = \"gx\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
         size = \"XX\"\nma = 4\nstrength = 2\nat = \"0201\"\n\n\
         [[unit]]\nid = \"a1\"\nside = \"allied\"\nnation = \"french\"\ntype = \"infantry\"\n\
         size = \"XX\"\nma = 4\nstrength = 2\nat = \"0402\"\n",
    );
    for hex in ["0202", "0101"] {
        assert_eq!(control_of(&s, hex).as_deref(), Some("german"), "{hex}");
    }
    // "dans un hex de Paris, ou bien entrer par le bord ouest": no condition (the assembly
    // points' "ni en ZdC allemande ni contrôlés par le joueur Allemand" is theirs alone).
    ok(&mut s, "allied", &place("ar1", "0202"));
    ok(&mut s, "allied", &place("ar2", "0101"));
    // Never into a hex holding an enemy unit.
    assert!(!legal_of(&mut s, "allied", "place").contains(&place("ar3", "0201")));
}

/// F40-17.5 with 11.3 and R8: a hex holding only an enemy para regiment takes a reserve, as
/// enemies may enter it; beside any other enemy unit it does not. (The placement was refused
/// while any unit of another side stood there, found by the reserves oracle of
/// tests/oracle_f40.rs on a south-edge hex holding a German para regiment.)
#[test]
fn f40_17_5_a_hex_holding_only_an_enemy_para_regiment_takes_a_reserve() {
    let mut s = session("reserves");
    advance_to(&mut s, 2, 4); // Allied first assault of turn 2
    setup(
        &mut s,
        "[[unit]]\nid = \"gp\"\nside = \"german\"\nnation = \"german\"\ntype = \"airborne\"\n\
         size = \"III\"\nma = 0\nstrength = 0\nat = \"0202\"\nattrs = { airborne = true, para = true }\n\n\
         [[unit]]\nid = \"gq\"\nside = \"german\"\nnation = \"german\"\ntype = \"airborne\"\n\
         size = \"III\"\nma = 0\nstrength = 0\nat = \"0101\"\nattrs = { airborne = true, para = true }\n\n\
         [[unit]]\nid = \"gx\"\nside = \"german\"\nnation = \"german\"\ntype = \"infantry\"\n\
         size = \"XX\"\nma = 4\nstrength = 2\nat = \"0101\"\n\n\
         [[unit]]\nid = \"a1\"\nside = \"allied\"\nnation = \"french\"\ntype = \"infantry\"\n\
         size = \"XX\"\nma = 4\nstrength = 2\nat = \"0402\"\n",
    );
    let listed = legal_of(&mut s, "allied", "place");
    assert!(listed.contains(&place("ar1", "0202")), "{listed:?}");
    assert!(!listed.contains(&place("ar1", "0101")), "{listed:?}");
    assert_eq!(
        refused(&mut s, "allied", &place("ar1", "0101")),
        refusal("F40-17.5", "0101 holds a unit of another side")
    );
    let events = ok(&mut s, "allied", &place("ar1", "0202"));
    assert!(
        matches!(&events[0], Event::UnitPlaced { unit } if unit.id == "ar1" && unit.at.as_deref() == Some("0202")),
        "{events:?}"
    );
}

/// F40-17.3: reserves are placed at the start of the first assault: once a unit of the side has
/// moved, none is placed or listed (as drops, 11.1). A reinforcement (17.2, no such clause)
/// still arrives.
#[test]
fn f40_17_3_reserves_are_placed_before_any_unit_of_the_side_moves() {
    let mut s = session("reserves");
    advance_to(&mut s, 3, 4);
    let first_move = legal_of(&mut s, "allied", "move")
        .into_iter()
        .find(|c| matches!(c, Command::Move { unit, .. } if unit == "a1"))
        .expect("a1 moves");
    ok(&mut s, "allied", &first_move);
    assert_eq!(
        refused(&mut s, "allied", &place("ar1", "0302")),
        refusal(
            "F40-17.3",
            "reserves are placed at the start of the first assault, before any movement (a1 has moved)"
        )
    );
    let placements: Vec<String> = legal_of(&mut s, "allied", "place")
        .iter()
        .map(|c| serde_json::Map::from(c.clone())["unit"].to_string())
        .collect();
    assert!(
        !placements.is_empty() && placements.iter().all(|u| u == "\"rf1\""),
        "{placements:?}"
    );
    ok(&mut s, "allied", &place("rf1", "0101"));
}

/// F40-17.3 with F40-10.4: an evacuation is movement too (the unit spends 1 MP in its port and
/// leaves play), so no reserve is placed after one.
#[test]
fn f40_17_3_no_reserve_is_placed_after_an_evacuation() {
    let mut s = session("reserves");
    advance_to(&mut s, 2, 4);
    let to_port = legal_of(&mut s, "allied", "move")
        .into_iter()
        .find(|c| matches!(c, Command::Move { unit, path } if unit == "a1" && path.last().map(String::as_str) == Some("0101")))
        .expect("a1 reaches the port");
    ok(&mut s, "allied", &to_port);
    advance_to(&mut s, 3, 4);
    ok(&mut s, "allied", &custom("evacuate", &[("unit", "a1")]));
    assert_eq!(
        refused(&mut s, "allied", &place("ar1", "0302")),
        refusal(
            "F40-17.3",
            "reserves are placed at the start of the first assault, before any movement (a unit has been evacuated)"
        )
    );
}

/// A unit of the other side put in a pool (only a hand-made setup can) is not this side's to
/// place: placed, it would change side. Not listed either.
#[test]
fn f40_17_4_a_pool_unit_of_the_other_side_is_not_placed() {
    let mut s = session("reserves");
    let units = format!(
        "turn = 3\n{}[[unit]]\nid = \"x1\"\nside = \"allied\"\nnation = \"british\"\ntype = \"armored\"\n\
         size = \"XX\"\nma = 6\nstrength = 4\nattrs = {{ pool = \"german_reserve\" }}\n",
        setup_unit("g1", "german", "german", "infantry", 4, "0601"),
    );
    setup(&mut s, &units);
    assert_eq!(
        refused(&mut s, "german", &place("x1", "0602")),
        refusal("F40-17.3", "x1 is not a german unit")
    );
    let listed = legal_of(&mut s, "german", "place");
    assert!(!listed.is_empty(), "the German reserves are listed");
    assert!(
        !listed
            .iter()
            .any(|c| serde_json::Map::from(c.clone())["unit"] == "x1"),
        "{listed:?}"
    );
}

/// F40-17.2 with 16.1: a reinforcement does not enter at a port of a still-neutral country,
/// though an Allied unit's ZOC controls it there (R11; only a setup puts an Allied unit inside
/// a neutral country): entering the port is entering the country. The listing leaves it out.
#[test]
fn f40_17_2_a_reinforcement_does_not_enter_a_neutral_countrys_port() {
    use hexwar::board::SourceText;
    let unit = |id: &str, side: &str, nation: &str, at: &str| {
        format!(
            "[[unit]]\nid = \"{id}\"\nside = \"{side}\"\nnation = \"{nation}\"\n\
             type = \"infantry\"\nsize = \"XX\"\nma = 4\nstrength = 3\nat = \"{at}\"\n"
        )
    };
    let setup = format!(
        "turn = 3\nphase = \"movement\"\nside = \"allied\"\n{}{}",
        unit("g0", "german", "german", "2812"),
        unit("a0", "allied", "french", "1711")
    );
    let mut s =
        hexwar::Session::start(std::path::Path::new("scenarios/france1940"), Some(1)).unwrap();
    s.setup_text(&SourceText::new("setup.toml", setup)).unwrap();
    assert_eq!(
        s.game.state().control.get("1710").map(String::as_str),
        Some("allied")
    );
    assert_eq!(
        refused(&mut s, "allied", &place("gb-1-ad", "1710")),
        refusal(
            "F40-16.1",
            "gb-1-ad may not enter 1710 (belgium is neutral)"
        )
    );
    let listed = s
        .game
        .legal_commands_matching(
            "allied",
            &hexwar::engine::CommandFilter::unit_command("place", "gb-1-ad"),
        )
        .unwrap();
    assert!(!listed.is_empty());
    assert!(listed
        .iter()
        .all(|c| !matches!(c, Command::Custom { args, .. } if args["to"] == "1710")));
}

/// F40-17.6 in a `--setup` position: `[pools]` names the units still waiting in a pool; the
/// others of that pool entered before the position and are gone since (reason `entered`, not
/// eliminated: they score nothing). With no Allied reserve waiting, the Armée des Alpes enters
/// as a normal reserve at once (17.5 hexes), as it does in play once ar1 has entered.
#[test]
fn f40_17_6_a_setup_with_the_allied_pool_spent_lets_the_armee_des_alpes_in_as_normal_reserves() {
    let mut s = session("alpine");
    setup(
        &mut s,
        "[pools]\nallied_reserve = []\narmee_des_alpes = [\"aa1\"]\n",
    );
    let gone = &s.game.state().gone;
    let reasons: Vec<(&str, &str, bool)> = ["aa1", "aa2", "ar1", "sr1"]
        .iter()
        .map(|id| (*id, gone[*id].reason.as_str(), gone[*id].eliminated))
        .collect();
    assert_eq!(
        reasons,
        vec![
            ("aa1", "pool", false),
            ("aa2", "entered", false),
            ("ar1", "entered", false),
            ("sr1", "pool", false), // (a pool the setup does not name stays whole)
        ]
    );
    advance_to(&mut s, 2, 4);
    let events = ok(&mut s, "allied", &place("aa1", "0101"));
    assert_eq!(events[2], var("reserves_used", json!({"allied": 1})));
    assert_eq!(
        refused(&mut s, "allied", &place("aa2", "0102")),
        refusal(
            "F40-17.3",
            "no unit 'aa2' waits in a pool (did you mean 'sr2'?)"
        )
    );
}

/// `[pools]` refuses, naming the key, a pool that is not one, an id waiting in another pool or
/// in none, and a setup [[unit]] off the map of a pool it leaves out; the game stays as it was.
#[test]
fn f40_17_3_a_setups_pools_name_only_units_waiting_in_them() {
    let mut s = session("alpine");
    let before = s.to_save().to_json();
    let refusal_of = |s: &mut hexwar::Session, text: &str| {
        s.setup_text(&hexwar::board::SourceText::new("setup.toml", text))
            .unwrap_err()
            .to_string()
    };
    let off_map_aa2 = "[[unit]]\nid = \"aa2\"\nside = \"allied\"\ntype = \"infantry\"\nma = 4\n\
                       strength = 3\nattrs = { pool = \"armee_des_alpes\" }\n";
    let cases = [
        (
            "[pools]\nallied_reserves = []\n".to_string(),
            "setup.toml:2: setup refused: F40-setup: [pools]: 'allied_reserves' is not a pool (did you mean 'allied_reserve'?) (pools: allied_reserve, armee_des_alpes, german_reserve, reinforcement, swiss_reserve)",
        ),
        (
            "[pools]\nallied_reserve = [\"aa1\"]\n".to_string(),
            "setup.toml:2: setup refused: F40-setup: [pools].allied_reserve #1: 'aa1' waits in pool armee_des_alpes, not allied_reserve",
        ),
        (
            "[pools]\nallied_reserve = [\"ar2\"]\n".to_string(),
            "setup.toml:2: setup refused: F40-setup: [pools].allied_reserve #1: no unit 'ar2' waits in a pool (did you mean 'aa2'?)",
        ),
        (
            "[pools]\nallied_reserve = \"ar1\"\n".to_string(),
            "setup.toml:2: setup refused: F40-setup: [pools].allied_reserve must be a list of the unit ids still waiting in it",
        ),
        // (a table where a list belongs emptied the pool without a word)
        (
            "[pools]\nallied_reserve = { ar1 = true }\n".to_string(),
            "setup.toml:2: setup refused: F40-setup: [pools].allied_reserve must be a list of the unit ids still waiting in it",
        ),
        (
            "[pools]\nallied_reserve = [\"ar1\", \"ar1\"]\n".to_string(),
            "setup.toml:2: setup refused: F40-setup: [pools].allied_reserve #2: 'ar1' is listed twice",
        ),
        (
            format!(
                "[pools]\nallied_reserve = [\"aa2\"]\n\n{}",
                off_map_aa2.replace("armee_des_alpes", "bogus_pool")
            ),
            "setup.toml:2: setup refused: F40-setup: [pools].allied_reserve #1: 'aa2' is a [[unit]] of this setup off the map whose pool 'bogus_pool' is none of allied_reserve, armee_des_alpes, german_reserve, reinforcement, swiss_reserve",
        ),
        (
            format!("[pools]\narmee_des_alpes = [\"aa1\"]\n\n{off_map_aa2}"),
            "setup.toml:5: setup refused: F40-setup: [pools].armee_des_alpes: 'aa2' is a [[unit]] of this setup without `at`, so it waits in armee_des_alpes: list it there, or leave it out of the setup",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(refusal_of(&mut s, &text), message, "{text}");
        assert_eq!(s.to_save().to_json(), before, "{text}");
    }
    // (an id of 100 000 letters: refused as unknown; its did-you-mean, comparing it letter by
    // letter with every waiting unit, ran out of the instruction budget)
    // (the refusal keeps its first 4 096 bytes, Refusal::REASON_LIMIT)
    let long = "x".repeat(100_000);
    let head = "[pools].allied_reserve #1: no unit '";
    assert_eq!(
        refusal_of(&mut s, &format!("[pools]\nallied_reserve = [\"{long}\"]\n")),
        format!(
            "setup.toml:2: setup refused: F40-setup: {head}{}... (100053 bytes in all)",
            &long[..4096 - head.len()]
        )
    );
    assert_eq!(s.to_save().to_json(), before);
    // (the setup's off-map pool unit listed in its pool: the setup stands)
    setup(
        &mut s,
        &format!("[pools]\narmee_des_alpes = [\"aa2\"]\n\n{off_map_aa2}"),
    );
    assert_eq!(s.game.state().gone["aa2"].reason, "pool");
    assert_eq!(s.game.state().gone["aa1"].reason, "entered");
}
