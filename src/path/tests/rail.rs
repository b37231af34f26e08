//! F40-10.1: rail movement.

use super::*;
use crate::path::rail_destinations;

const FRANCE: &str = "[zones]\nfrance = [\"0101\", \"0201\", \"0301\", \"0401\", \"0501\", \"0601\"]\ngermany = [\"0701\"]\n";

fn rail(map: &HexMap, units: &[Unit], mover: usize, own: Vec<SideId>) -> Vec<String> {
    let r = rules(map);
    let occ = Occupancy::build(map, &r, units).unwrap();
    labels(
        map,
        rail_destinations(map, &r, &occ, &own, &units[mover], None).unwrap(),
    )
}

#[test]
fn f40_10_1_rail_any_distance_in_friendly_territory_of_its_nation() {
    let m = map(&[". . . . . . ."], FRANCE);
    let units = [unit("a", "allied", "infantry", "0101")];
    // 0501 is German-held; 0701 is Allied but in Germany.
    let own = owners(&m, ALLIED, &[("0501", GERMAN)]);
    assert_eq!(rail(&m, &units, 0, own), ["0201", "0301", "0401"]);
    let own = owners(&m, ALLIED, &[]);
    assert_eq!(
        rail(&m, &units, 0, own),
        ["0201", "0301", "0401", "0501", "0601"]
    );
}

#[test]
fn f40_10_1_rail_never_starts_passes_or_ends_in_enemy_zoc() {
    let m = map(&[". . . . . . ."], FRANCE);
    // The German on 0501 covers 0401 and 0601.
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("g", "german", "infantry", "0501"),
        unit("b", "allied", "infantry", "0401"),
    ];
    let own = owners(&m, ALLIED, &[("0501", GERMAN)]);
    assert_eq!(rail(&m, &units, 0, own.clone()), ["0201", "0301"]);
    assert_eq!(rail(&m, &units, 2, own), Vec::<String>::new());
}

#[test]
fn f40_10_1_rail_never_crosses_a_sea_hexside_and_isolated_units_may_not_use_it() {
    let m = map(
        &[". . . . . . ."],
        &format!("{FRANCE}[hexsides]\nsea = [\"0201/0301\"]\n"),
    );
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("i", "allied", "infantry", "0101").status("isolated"),
    ];
    assert_eq!(rail(&m, &units, 0, owners(&m, ALLIED, &[])), ["0201"]);
    assert_eq!(
        rail(&m, &units, 1, owners(&m, ALLIED, &[])),
        Vec::<String>::new()
    );
}

#[test]
fn f40_10_1_german_rail_stays_in_germany() {
    let m = map(
        &[". . . . . . ."],
        "[zones]\ngermany = [\"0501\", \"0601\", \"0701\"]\nfrance = [\"0101\"]\n",
    );
    let units = [unit("g", "german", "infantry", "0701")];
    assert_eq!(
        rail(&m, &units, 0, owners(&m, GERMAN, &[])),
        ["0501", "0601"]
    );
}

/// 10.1 names every limit of a route and no terrain: a motorized unit goes by rail through and
/// into marsh, which its own movement may not enter (9.2), but no route enters sea, which no
/// unit enters (it was held to the hexes its own movement could enter).
#[test]
fn f40_10_1_rail_names_no_terrain_a_motorized_unit_rails_through_marsh_never_into_sea() {
    let m = map(&[". m . m s . ."], FRANCE);
    let units = [
        unit("arm", "allied", "armored", "0101"),
        unit("inf", "allied", "infantry", "0101"),
    ];
    let own = owners(&m, ALLIED, &[]);
    let expected = ["0201", "0301", "0401"];
    assert_eq!(rail(&m, &units, 0, own.clone()), expected);
    assert_eq!(rail(&m, &units, 1, own), expected);
}

/// F40-18.2/R10 (turn 1): the hexes the caller marks `blocked` are never entered by a route, so
/// nothing beyond them is reached either; the unblocked hexes before them still are.
#[test]
fn f40_18_2_a_rail_route_never_enters_nor_passes_a_blocked_hex() {
    let m = map(&[". . . . . . ."], FRANCE);
    let units = [unit("a", "allied", "infantry", "0101")];
    let r = rules(&m);
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let own = owners(&m, ALLIED, &[]);
    let mut blocked = vec![false; m.len() as usize];
    blocked[hex(&m, "0401") as usize] = true;
    let got = rail_destinations(&m, &r, &occ, &own, &units[0], Some(&blocked)).unwrap();
    assert_eq!(labels(&m, got), ["0201", "0301"]);
}
