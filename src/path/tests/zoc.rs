//! F40-6.1 … 6.6 and R1 … R4: zones of control.

use super::*;
use crate::path::{check_path, PathError};

fn zoc_of(map: &HexMap, units: &[Unit], side: SideId) -> Vec<String> {
    let r = rules(map);
    let occ = Occupancy::build(map, &r, units).unwrap();
    let bitmap = occ.zoc_bitmap(side);
    labels(map, (0..map.len()).filter(|&h| bitmap[h as usize]))
}

fn refusal(map: &HexMap, units: &[Unit], mover: usize, path: &[&str]) -> String {
    let r = rules(map);
    let occ = Occupancy::build(map, &r, units).unwrap();
    let path: Vec<HexIndex> = path.iter().map(|l| hex(map, l)).collect();
    match check_path(map, &r, &occ, &units[mover], Mp::whole(20), &path) {
        Err(PathError::Refused(r)) => r.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn f40_6_1_r1_zoc_covers_the_six_neighbours_not_the_own_hex() {
    let m = map(&[". . . . .", ". . . . .", ". . . . ."], "");
    let units = [unit("g", "german", "infantry", "0302")];
    assert_eq!(
        zoc_of(&m, &units, GERMAN),
        ["0202", "0203", "0301", "0303", "0402", "0403"]
    );
    assert_eq!(zoc_of(&m, &units, ALLIED), Vec::<String>::new());
}

#[test]
fn f40_6_1_disorganized_units_and_regiments_exert_no_zoc() {
    let m = map(&[". . . . ."], "");
    let units = [
        unit("d", "german", "infantry", "0101").status("disorganized"),
        unit("r", "german", "infantry", "0401").size("III"),
    ];
    assert_eq!(zoc_of(&m, &units, GERMAN), Vec::<String>::new());
}

#[test]
fn f40_6_1_r1_r6_zoc_never_crosses_sea_or_lake_even_with_causeway_but_crosses_rivers() {
    let m = map(
        &[". . . .", ". . . .", ". . . ."],
        "[hexsides]\nsea = [\"0202/0101\"]\ncauseway = [\"0202/0101\"]\nlake = [\"0202/0102\"]\nmajor_river = [\"0202/0301\"]\nminor_river = [\"0202/0302\"]\n",
    );
    let units = [unit("g", "german", "infantry", "0202")];
    assert_eq!(zoc_of(&m, &units, GERMAN), ["0201", "0203", "0301", "0302"]);
}

/// Not an F40 rule (a causeway carries no ZOC, R6): a game whose rivers block ZOC except at a
/// bridge lists the bridge under `carried_by_hexsides`.
#[test]
fn zoc_carried_across_a_blocking_hexside_by_a_bridge() {
    let m = map(
        &[". . . .", ". . . .", ". . . ."],
        "[hexsides]\nmajor_river = [\"0202/0301\", \"0202/0302\"]\nbridge = [\"0202/0302\"]\n",
    );
    let mut declared = f40();
    declared["vocabulary"]["hexsides"] = json!([
        "sea",
        "causeway",
        "lake",
        "major_river",
        "minor_river",
        "bridge"
    ]);
    declared["zoc"]["blocked_by_hexsides"] = json!(["sea", "lake", "major_river"]);
    declared["zoc"]["carried_by_hexsides"] = json!(["bridge"]);
    let r = PathRules::compile(&declared, &m).unwrap();
    let units = [unit("g", "german", "infantry", "0202")];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let bitmap = occ.zoc_bitmap(GERMAN);
    let zoc = labels(&m, (0..m.len()).filter(|&h| bitmap[h as usize]));
    assert_eq!(zoc, ["0101", "0102", "0201", "0203", "0302"]);
}

#[test]
fn f40_6_2_entering_enemy_zoc_stops_the_unit() {
    let m = map(&[". . . . . . ."], "");
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("g", "german", "infantry", "0501"),
    ];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(10)),
        costs(&[("0201", 1.0), ("0301", 2.0), ("0401", 3.0)])
    );
    assert_eq!(
        refusal(&m, &units, 0, &["0101", "0201", "0301", "0401", "0301"]),
        "F40-6.2: a unit that enters an enemy ZOC stops there (step 4: 0401 to 0301)"
    );
}

#[test]
fn f40_6_3_r2_leave_cost_paid_once() {
    let m = map(&[". . . . ."], "");
    let units = [
        unit("g", "german", "infantry", "0101"),
        unit("a", "allied", "infantry", "0201"),
    ];
    assert_eq!(
        reach_of(&m, &units, 1, Mp::whole(4)),
        costs(&[("0301", 2.0), ("0401", 3.0), ("0501", 4.0)])
    );
}

#[test]
fn f40_6_4_non_motorized_cannot_go_zoc_to_zoc() {
    // The German on 0302 covers 0202 (the start), 0301 and 0402.
    let m = map(&[". . . .", ". . . ."], "");
    let units = [
        unit("g", "german", "infantry", "0302"),
        unit("a", "allied", "infantry", "0202"),
    ];
    // 0301 only by way of the ZOC-free 0201, paying the +1 to leave on the first step.
    assert_eq!(
        reach_of(&m, &units, 1, Mp::whole(3)),
        costs(&[("0101", 2.0), ("0102", 2.0), ("0201", 2.0), ("0301", 3.0)])
    );
    assert_eq!(
        refusal(&m, &units, 1, &["0202", "0301"]),
        "F40-6.4: non-motorized unit cannot move from enemy ZOC to enemy ZOC (step 1: 0202 to 0301)"
    );
}

#[test]
fn f40_6_4_r2_motorized_may_go_zoc_to_zoc_pays_the_leave_cost_and_stops() {
    let m = map(&[". . . .", ". . . ."], "");
    let units = [
        unit("g", "german", "infantry", "0302"),
        unit("a", "allied", "armored", "0202"),
    ];
    assert_eq!(
        reach_of(&m, &units, 1, Mp::whole(3)),
        costs(&[("0101", 2.0), ("0102", 2.0), ("0201", 2.0), ("0301", 2.0)])
    );
}

#[test]
fn f40_r3_zoc_to_zoc_means_any_enemy_units_zoc() {
    let m = map(&[". . . . ."], "");
    let units = [
        unit("g1", "german", "infantry", "0101"),
        unit("a", "allied", "infantry", "0201"),
        unit("g2", "german", "infantry", "0401"),
    ];
    assert_eq!(reach_of(&m, &units, 1, Mp::whole(5)), costs(&[]));
    let units = [
        unit("g1", "german", "infantry", "0101"),
        unit("a", "allied", "armored", "0201"),
        unit("g2", "german", "infantry", "0401"),
    ];
    assert_eq!(
        reach_of(&m, &units, 1, Mp::whole(5)),
        costs(&[("0301", 2.0)])
    );
}

#[test]
fn f40_r4_friendly_unit_does_not_cancel_enemy_zoc_for_movement() {
    let m = map(&[". . . . . ."], "");
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("f", "allied", "infantry", "0401"),
        unit("g", "german", "infantry", "0501"),
    ];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(10)),
        costs(&[("0201", 1.0), ("0301", 2.0), ("0401", 3.0)])
    );
}

#[test]
fn f40_6_6_non_motorized_may_not_retreat_into_enemy_zoc_unless_a_friend_holds_it() {
    let m = map(&[". . . ."], "");
    let r = rules(&m);
    let foot = r.profile.class_id("foot").unwrap();
    let motorized = r.profile.class_id("motorized").unwrap();
    let alone = [unit("g", "german", "infantry", "0301")];
    let occ = Occupancy::build(&m, &r, &alone).unwrap();
    assert!(!r
        .zoc
        .may_retreat_into(&occ, ALLIED, foot, hex(&m, "0201"), None));
    assert!(r
        .zoc
        .may_retreat_into(&occ, ALLIED, foot, hex(&m, "0101"), None));
    assert!(r
        .zoc
        .may_retreat_into(&occ, ALLIED, motorized, hex(&m, "0201"), None));
    // A friend that the caller knows has just arrived (a retreat before this one) counts.
    assert!(r
        .zoc
        .may_retreat_into(&occ, ALLIED, foot, hex(&m, "0201"), Some(true)));
    let with_friend = [
        unit("g", "german", "infantry", "0301"),
        unit("f", "allied", "infantry", "0201"),
    ];
    let occ = Occupancy::build(&m, &r, &with_friend).unwrap();
    assert!(r
        .zoc
        .may_retreat_into(&occ, ALLIED, foot, hex(&m, "0201"), None));
    // ... and one that has just left it does not.
    assert!(!r
        .zoc
        .may_retreat_into(&occ, ALLIED, foot, hex(&m, "0201"), Some(false)));
}

/// F40-6.3/R2: the declared leave cost (1 MP) is what `ZocPolicy::leave_cost` reports.
#[test]
fn f40_6_3_the_zoc_leave_cost_reads_as_one_whole_mp() {
    let m = map(&[". ."], "");
    assert_eq!(rules(&m).zoc.leave_cost(), Mp::whole(1));
    assert_eq!(crate::path::ZocPolicy::default().leave_cost(), Mp::whole(0));
}

/// F40-6.6: mountain infantry is non-motorized too, so it may not retreat into enemy ZOC
/// (the retreat check must read the class's own bit, not only foot's).
#[test]
fn f40_6_6_mountain_infantry_may_not_retreat_into_enemy_zoc() {
    let m = map(&[". . . ."], "");
    let r = rules(&m);
    let mountain = r.profile.class_id("mountain").unwrap();
    let occ = Occupancy::build(&m, &r, &[unit("g", "german", "infantry", "0301")]).unwrap();
    assert!(!r
        .zoc
        .may_retreat_into(&occ, ALLIED, mountain, hex(&m, "0201"), None));
    assert!(r
        .zoc
        .may_retreat_into(&occ, ALLIED, mountain, hex(&m, "0201"), Some(true)));
}
