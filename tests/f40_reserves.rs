//! F40 reserves and reinforcements (17.1-17.5) on tests/fixtures/f40/reserves: France = columns
//! 01-04 (port 0101 on the west edge, Paris 0202, assembly point 0302); Germany = columns 05-06,
//! major cities 0501 (in a1's ZOC, contested by g1 at 0601, so still German) and 0601. Pools: gr1-gr3 (German), ar1-ar4 (Allied), rf1
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
            place("gr2", "0601"),
            place("gr3", "0601")
        ]
    );
    assert_eq!(
        refused(&mut s, "german", &place("gr1", "0501")),
        refusal("F40-17.4", "0501 is in Allied ZOC")
    );
    assert_eq!(
        refused(&mut s, "german", &place("gr1", "0602")),
        refusal("F40-17.4", "0602 is not a German-controlled German city")
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
    // A placed reserve may move in its assault (17.1).
    ok(&mut s, "german", &mv("gr1", &["0602"]));
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
            "rf1 enters at a port controlled by the Allies (0102 is not)"
        )
    );
    ok(&mut s, "allied", &place("rf1", "0101"));
    // Not a reserve: no quota used.
    assert_eq!(s.game.state().vars.get("reserves_used"), None);
}
