//! Roads (`roads` in the movement declaration): a hexside feature whose crossing costs the road's
//! cost instead of the terrain of the hex entered and the hexside's other costs. Not an F40 rule
//! (its map has none): the general mechanism, on the F40 declaration plus a road.

use serde_json::json;

use super::*;
use crate::path::{check_path, PathError};

/// The F40 declaration with roads: foot 1/2 MP along a road, motorized 1/4, `track` for foot only.
pub(crate) fn with_roads() -> serde_json::Value {
    let mut decl = f40();
    decl["vocabulary"]["hexsides"]
        .as_array_mut()
        .expect("a list")
        .extend([json!("road"), json!("track")]);
    decl["roads"] = json!({
        "road": { "motorized": 0.25, "default": 0.5 },
        "track": { "foot": 1, "default": "prohibited" }
    });
    decl
}

fn reach_with_roads(map: &HexMap, units: &[Unit], budget: Mp) -> Vec<(String, f64)> {
    let rules = PathRules::compile(&with_roads(), map).expect("the declaration compiles");
    let occ = Occupancy::build(map, &rules, units).expect("the position builds");
    reach(map, &rules, &occ, &units[0], budget)
        .expect("the unit is on the map")
        .labeled(map)
}

#[test]
fn a_road_replaces_the_terrain_cost_of_the_hex_it_enters() {
    // Forest costs foot 2; along the road 0101-0201-0301 it costs 1/2 a hex.
    let m = map(
        &[". f f f"],
        "[hexsides]\nroad = [\"0101/0201\", \"0201/0301\"]\n",
    );
    let foot = [unit("a", "allied", "infantry", "0101")];
    assert_eq!(
        reach_with_roads(&m, &foot, Mp::whole(2)),
        costs(&[("0201", 0.5), ("0301", 1.0)])
    );
    // Leaving the road pays the terrain again: 0401 at 1 + 2 = 3 MP.
    assert_eq!(
        reach_with_roads(&m, &foot, Mp::whole(3)),
        costs(&[("0201", 0.5), ("0301", 1.0), ("0401", 3.0)])
    );
    let armor = [unit("p", "german", "armored", "0101")];
    assert_eq!(
        reach_with_roads(&m, &armor, Mp::whole(1).halved()),
        costs(&[("0201", 0.25), ("0301", 0.5)])
    );
}

#[test]
fn a_road_crosses_a_river_at_its_cost_and_a_marsh_motorized_units_may_not_enter() {
    // 0101/0201 has a major river (+2) and a road: the bridge costs the road's 1/2 only.
    // 0301 is marsh, prohibited to motorized units, but the road leads into it.
    let m = map(
        &[". . m ."],
        "[hexsides]\nmajor_river = [\"0101/0201\"]\nroad = [\"0101/0201\", \"0201/0301\"]\n",
    );
    let armor = [unit("p", "german", "armored", "0101")];
    assert_eq!(
        reach_with_roads(&m, &armor, Mp::whole(1)),
        costs(&[("0201", 0.25), ("0301", 0.5)])
    );
    let rules = PathRules::compile(&with_roads(), &m).expect("compiles");
    let occ = Occupancy::build(&m, &rules, &armor).expect("builds");
    let path = [hex(&m, "0101"), hex(&m, "0201"), hex(&m, "0301")];
    assert_eq!(
        check_path(&m, &rules, &occ, &armor[0], Mp::whole(1), &path),
        Ok(Mp::whole(1).halved())
    );
    // Off the road the marsh stays closed to them: 0401 -> 0301 is not a road hexside.
    let past = [unit("p", "german", "armored", "0401")];
    let occ = Occupancy::build(&m, &rules, &past).expect("builds");
    assert!(matches!(
        check_path(
            &m,
            &rules,
            &occ,
            &past[0],
            Mp::whole(9),
            &[hex(&m, "0401"), hex(&m, "0301")]
        ),
        Err(PathError::Refused(_))
    ));
}

#[test]
fn a_road_one_kind_may_not_use_costs_it_the_usual_price_and_the_cheapest_road_wins() {
    // 0101/0201 is both a road and a track; 0201/0301 a track only. Foot: road 1/2, then the
    // track 1 (forest would be 2). Motorized: road 1/4, then forest at 2 (the track is not theirs).
    let m = map(
        &[". f f"],
        "[hexsides]\nroad = [\"0101/0201\"]\ntrack = [\"0101/0201\", \"0201/0301\"]\n",
    );
    let foot = [unit("a", "allied", "infantry", "0101")];
    assert_eq!(
        reach_with_roads(&m, &foot, Mp::whole(5)),
        costs(&[("0201", 0.5), ("0301", 1.5)])
    );
    let armor = [unit("p", "german", "armored", "0101")];
    assert_eq!(
        reach_with_roads(&m, &armor, Mp::whole(5)),
        costs(&[("0201", 0.25), ("0301", 2.25)])
    );
}

#[test]
fn zoc_costs_and_stops_still_apply_along_a_road() {
    // The unit starts in g1's ZOC: leaving costs +1 (F40-6.3) on top of the road's 1/2; g2's
    // ZOC at 0501 still ends the move there (F40-6.2).
    let m = map(
        &[". . . . . ."],
        "[hexsides]\nroad = [\"0201/0301\", \"0301/0401\", \"0401/0501\"]\n",
    );
    let units = [
        unit("a", "allied", "infantry", "0201"),
        unit("g1", "german", "infantry", "0101"),
        unit("g2", "german", "infantry", "0601"),
    ];
    assert_eq!(
        reach_with_roads(&m, &units, Mp::whole(4)),
        costs(&[("0301", 1.5), ("0401", 2.0), ("0501", 2.5)])
    );
}

#[test]
fn a_road_cost_must_be_a_cost() {
    let m = map(&[". ."], "[hexsides]\nroad = [\"0101/0201\"]\n");
    let mut decl = with_roads();
    decl["roads"] = json!({ "road": { "unless": ["road"], "then": 0 } });
    let err = PathRules::compile(&decl, &m).unwrap_err().to_string();
    assert!(err.starts_with("roads.road: expected a cost"), "{err}");
}
