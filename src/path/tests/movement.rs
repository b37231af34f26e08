//! F40-9.x, 10.2, 10.3, 11.3, R5 … R8: what a step costs and which steps are barred.

use serde_json::json;

use super::*;

use crate::path::{check_path, PathError, ReachSearch, RuleKind};

fn refusal(map: &HexMap, units: &[Unit], mover: usize, budget: Mp, path: &[&str]) -> String {
    let rules = rules(map);
    let occ = Occupancy::build(map, &rules, units).unwrap();
    let path: Vec<HexIndex> = path.iter().map(|l| hex(map, l)).collect();
    match check_path(map, &rules, &occ, &units[mover], budget, &path) {
        Err(PathError::Refused(r)) => r.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn f40_9_1_budget_limits_reach_and_movement_is_never_compulsory() {
    let m = map(&[". . . . ."], "");
    let units = [unit("a", "allied", "infantry", "0101")];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(3)),
        costs(&[("0201", 1.0), ("0301", 2.0), ("0401", 3.0)])
    );
    assert_eq!(reach_of(&m, &units, 0, Mp::ZERO), costs(&[]));
}

#[test]
fn f40_9_1_r7_halved_allowances_compound_without_rounding() {
    let m = map(&[". . . . ."], "");
    let units = [unit("a", "allied", "infantry", "0101")];
    // Second assault of a 5-MA unit: 2.5 MP.
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(5).halved()),
        costs(&[("0201", 1.0), ("0301", 2.0)])
    );
    // ... and isolated: 1.25 MP; and a neutral's turn 1: 0.625 MP, no one-hex minimum move.
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(5).halved().halved()),
        costs(&[("0201", 1.0)])
    );
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(5).halved().halved().halved()),
        costs(&[])
    );
}

#[test]
fn f40_9_2_terrain_costs_foot() {
    let m = map(&[". m f h w M C ."], "");
    let units = [unit("a", "allied", "infantry", "0101")];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(20)),
        costs(&[
            ("0201", 2.0),
            ("0301", 4.0),
            ("0401", 5.0),
            ("0501", 7.0),
            ("0601", 10.0),
            ("0701", 11.0),
            ("0801", 12.0)
        ])
    );
}

#[test]
fn f40_9_2_mountain_infantry_pays_2_for_mountains() {
    let m = map(&[". M M ."], "");
    let units = [unit("a", "german", "mountain_infantry", "0101")];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(5)),
        costs(&[("0201", 2.0), ("0301", 4.0), ("0401", 5.0)])
    );
}

#[test]
fn f40_9_2_r5_motorized_pay_6_for_mountains_and_never_enter_marsh() {
    let m = map(&[". f M C"], "");
    let units = [unit("a", "german", "armored", "0101")];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(9)),
        costs(&[("0201", 2.0), ("0301", 8.0), ("0401", 9.0)])
    );
    let m = map(&[". m ."], "");
    assert_eq!(reach_of(&m, &units, 0, Mp::whole(9)), costs(&[]));
    assert_eq!(
        refusal(&m, &units, 0, Mp::whole(9), &["0101", "0201"]),
        "F40-9.2: motorized units may not enter marsh (step 1: 0101 to 0201)"
    );
}

#[test]
fn f40_9_3_major_river_costs_2_and_lake_hexside_is_prohibited() {
    let m = map(
        &[". . . . ."],
        "[hexsides]\nmajor_river = [\"0201/0301\"]\nlake = [\"0401/0501\"]\n",
    );
    let units = [unit("a", "allied", "infantry", "0101")];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(10)),
        costs(&[("0201", 1.0), ("0301", 4.0), ("0401", 5.0)])
    );
    assert_eq!(
        refusal(
            &m,
            &units,
            0,
            Mp::whole(10),
            &["0101", "0201", "0301", "0401", "0501"]
        ),
        "F40-9.3: allied foot units may not cross this hexside (lake) (step 4: 0401 to 0501)"
    );
}

#[test]
fn f40_9_3_sea_hexside_costs_allies_1_and_is_prohibited_to_germans() {
    let m = map(&[". . ."], "[hexsides]\nsea = [\"0101/0201\"]\n");
    let allied = [unit("a", "allied", "infantry", "0101")];
    assert_eq!(
        reach_of(&m, &allied, 0, Mp::whole(3)),
        costs(&[("0201", 2.0), ("0301", 3.0)])
    );
    let german = [unit("g", "german", "infantry", "0101")];
    assert_eq!(reach_of(&m, &german, 0, Mp::whole(3)), costs(&[]));
}

#[test]
fn f40_10_3_r6_germans_cross_causeways_free_allies_still_pay_sea() {
    let m = map(
        &[". . ."],
        "[hexsides]\nsea = [\"0101/0201\"]\ncauseway = [\"0101/0201\"]\n",
    );
    let german = [unit("g", "german", "infantry", "0101")];
    assert_eq!(
        reach_of(&m, &german, 0, Mp::whole(2)),
        costs(&[("0201", 1.0), ("0301", 2.0)])
    );
    let allied = [unit("a", "allied", "infantry", "0101")];
    assert_eq!(
        reach_of(&m, &allied, 0, Mp::whole(2)),
        costs(&[("0201", 2.0)])
    );
}

#[test]
fn f40_9_4_minor_rivers_and_hex_features_cost_nothing() {
    let m = map(&[". . ."], "[hexsides]\nminor_river = [\"0101/0201\"]\n[features]\ntown = [\"0201\"]\nport = [\"0301\"]\n");
    let units = [unit("a", "allied", "infantry", "0101")];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(2)),
        costs(&[("0201", 1.0), ("0301", 2.0)])
    );
}

#[test]
fn f40_9_5_entering_a_friendly_disorganized_unit_costs_2_more() {
    let m = map(&[". . . . ."], "");
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("d", "allied", "infantry", "0301").status("disorganized"),
    ];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(5)),
        costs(&[("0201", 1.0), ("0301", 4.0), ("0401", 5.0)])
    );
}

#[test]
fn f40_9_5_a_unit_never_enters_an_enemy_occupied_hex() {
    let m = map(&[". . . . ."], "");
    // A disorganized enemy exerts no ZOC (6.1) but still bars its hex.
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("g", "german", "infantry", "0301").status("disorganized"),
    ];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(5)),
        costs(&[("0201", 1.0)])
    );
    assert_eq!(
        refusal(&m, &units, 0, Mp::whole(5), &["0101", "0201", "0301"]),
        "F40-9.5: a unit never enters an enemy-occupied hex (step 2: 0201 to 0301)"
    );
}

#[test]
fn f40_11_3_r8_hex_with_only_enemy_para_regiments_is_entered_and_crossed_freely() {
    let m = map(&[". . . . ."], "");
    let para = unit("p", "german", "para", "0301").size("III").flag("para");
    let units = [unit("a", "allied", "infantry", "0101"), para.clone()];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(4)),
        costs(&[("0201", 1.0), ("0301", 2.0), ("0401", 3.0), ("0501", 4.0)])
    );
    // Not when another enemy unit is with them.
    let units = [
        unit("a", "allied", "infantry", "0101"),
        para,
        unit("g", "german", "infantry", "0301").status("disorganized"),
    ];
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(4)),
        costs(&[("0201", 1.0)])
    );
}

#[test]
fn f40_r8_still_neutral_units_block_their_hex_and_exert_no_zoc() {
    let m = map(&[". . . .", ". . . ."], "");
    let units = [
        unit("g", "german", "infantry", "0101"),
        unit("b", "allied", "infantry", "0201")
            .nation("belgian")
            .flag("neutral"),
    ];
    // 0201 is barred; the hexes around it are not in ZOC, so the German walks past.
    assert_eq!(
        reach_of(&m, &units, 0, Mp::whole(3)),
        costs(&[
            ("0102", 1.0),
            ("0202", 1.0),
            ("0301", 2.0),
            ("0302", 2.0),
            ("0401", 3.0),
            ("0402", 3.0)
        ])
    );
}

#[test]
fn f40_10_2_allied_units_never_enter_sea_hexes() {
    let m = map(&[". s ."], "");
    let units = [unit("a", "allied", "infantry", "0101")];
    assert_eq!(reach_of(&m, &units, 0, Mp::whole(5)), costs(&[]));
}

#[test]
fn f40_10_2_no_entry_into_enemy_zoc_across_a_sea_hexside() {
    let m = map(&[". . . ."], "[hexsides]\nsea = [\"0101/0201\"]\n");
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("g", "german", "infantry", "0301"),
    ];
    assert_eq!(reach_of(&m, &units, 0, Mp::whole(5)), costs(&[]));
    assert_eq!(
        refusal(&m, &units, 0, Mp::whole(5), &["0101", "0201"]),
        "F40-10.2: no unit may enter an enemy ZOC across this hexside (sea) (step 1: 0101 to 0201)"
    );
}

#[test]
fn f40_10_2_no_entry_into_enemy_territory_across_a_sea_hexside() {
    let m = map(&[". . ."], "[hexsides]\nsea = [\"0101/0201\"]\n");
    let units = [unit("a", "allied", "infantry", "0101")];
    let r = rules(&m);
    let run = |own: Vec<SideId>| {
        let occ = Occupancy::build(&m, &r, &units)
            .unwrap()
            .with_owners(own)
            .unwrap();
        reach(&m, &r, &occ, &units[0], Mp::whole(3))
            .unwrap()
            .labeled(&m)
    };
    // 0201 German: barred across the sea; once there by land, the hex beyond is fine.
    assert_eq!(run(owners(&m, ALLIED, &[("0201", GERMAN)])), costs(&[]));
    // 0201 neutral: not enemy territory.
    assert_eq!(
        run(owners(&m, ALLIED, &[("0201", NO_SIDE)])),
        costs(&[("0201", 2.0), ("0301", 3.0)])
    );
}

#[test]
fn check_path_costs_a_legal_path_and_refuses_a_bad_start_gap_or_budget() {
    let m = map(&[". f . ."], "");
    let units = [unit("a", "allied", "infantry", "0101")];
    let r = rules(&m);
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let path: Vec<HexIndex> = ["0101", "0201", "0301"]
        .iter()
        .map(|l| hex(&m, l))
        .collect();
    assert_eq!(
        check_path(&m, &r, &occ, &units[0], Mp::whole(3), &path),
        Ok(Mp::whole(3))
    );
    // (the unit's own hex listed as the first step, and a hex given twice)
    assert_eq!(
        refusal(&m, &units, 0, Mp::whole(9), &["0101", "0101", "0201"]),
        "each hex of a path must be adjacent to the one before (step 1: 0101 to 0101): the unit's \
         own hex; a path lists the hexes entered, one step each"
    );
    assert_eq!(
        refusal(&m, &units, 0, Mp::whole(9), &["0101", "0201", "0201"]),
        "each hex of a path must be adjacent to the one before (step 2: 0201 to 0201): a hex \
         twice; a path lists the hexes entered, one step each"
    );
    assert_eq!(
        refusal(&m, &units, 0, Mp::whole(2), &["0101", "0201", "0301"]),
        "F40-9.1: the path costs 3 MP by this step, more than the 2 MP allowed (step 2: 0201 to 0301)"
    );
    assert_eq!(
        refusal(&m, &units, 0, Mp::whole(9), &["0101", "0301"]),
        "each hex of a path must be adjacent to the one before (step 1: 0101 to 0301)"
    );
    assert_eq!(
        refusal(&m, &units, 0, Mp::whole(9), &["0201", "0301"]),
        "a path must start at the unit's hex"
    );
    let err = check_path(
        &m,
        &r,
        &occ,
        &units[0],
        Mp::whole(9),
        &[hex(&m, "0101"), 99],
    )
    .unwrap_err();
    assert!(matches!(err, PathError::Position(_)), "{err:?}");
    let refused = match check_path(&m, &r, &occ, &units[0], Mp::whole(2), &path) {
        Err(PathError::Refused(r)) => r,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        (refused.kind, refused.clause.as_str(), refused.step),
        (RuleKind::Budget, "F40-9.1", 2)
    );
}

#[test]
fn cheapest_path_to_a_target() {
    let m = map(&[". f .", ". . ."], "");
    let units = [unit("a", "allied", "infantry", "0101")];
    let r = rules(&m);
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let mut search = ReachSearch::new(&m);
    let (path, cost) = search
        .cheapest_path(&m, &r, &occ, &units[0], Mp::whole(5), hex(&m, "0301"))
        .unwrap()
        .unwrap();
    let path_labels: Vec<String> = path.iter().map(|&h| m.label(h)).collect();
    assert_eq!(path_labels, ["0101", "0202", "0301"]);
    assert_eq!(cost, Mp::whole(2));
    assert_eq!(
        search
            .cheapest_path(&m, &r, &occ, &units[0], Mp::whole(1), hex(&m, "0301"))
            .unwrap(),
        None
    );
    // The scratch is clean for the next query.
    let full = search.reach(&m, &r, &occ, &units[0], Mp::whole(5)).unwrap();
    assert_eq!(full.path_to(hex(&m, "0301")), Some(path));
}

#[test]
fn fine_grained_costs_and_huge_budgets_give_the_same_answer_bucketed_or_heaped() {
    // A 1/64-MP cost makes the bucket width 1/64 MP: 300 MP then needs 19 201 buckets, more
    // than the bucket queue takes, so the heap runs; 12 MP stays bucketed.
    let m = map(&[". f . ."], "");
    let mut d = f40();
    d["terrain"]["forest"] = json!(1.015625);
    let r = PathRules::compile(&d, &m).unwrap();
    let units = [unit("a", "allied", "infantry", "0101")];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let expected = costs(&[("0201", 1.015625), ("0301", 2.015625), ("0401", 3.015625)]);
    assert_eq!(
        reach(&m, &r, &occ, &units[0], Mp::whole(12))
            .unwrap()
            .labeled(&m),
        expected
    );
    assert_eq!(
        reach(&m, &r, &occ, &units[0], Mp::whole(300))
            .unwrap()
            .labeled(&m),
        expected
    );
}

/// `Reach::path_lengths` (what `hex.path.reach`'s paths cost, charged before they are built) is
/// each listed hex's path length, the start left out.
#[test]
fn path_lengths_are_the_lengths_of_the_paths() {
    let m = map(&[". . f . . .", ". m . . f .", ". . . h . ."], "");
    let units = [unit("a", "allied", "infantry", "0101")];
    let r = rules(&m);
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let reach = reach(&m, &r, &occ, &units[0], Mp::whole(6)).unwrap();
    assert!(reach.len() > 10, "{}", reach.len());
    let lengths = crate::path::Reach::path_lengths(&reach.parent_indices());
    let expected: Vec<u32> = reach
        .hexes()
        .iter()
        .map(|h| reach.path_to(h.hex).unwrap().len() as u32 - 1)
        .collect();
    assert_eq!(lengths, expected);
}

/// A `Reach` knows its start hex, is empty when the unit can go nowhere, and two reaches are
/// equal exactly when they share the start and the reached hexes (costs and parents).
#[test]
fn reaches_report_their_start_and_compare_by_start_and_hexes() {
    let m = map(&[". . . . ."], "");
    let r = rules(&m);
    let units = [
        unit("a", "allied", "infantry", "0301"),
        unit("b", "allied", "infantry", "0401"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let of = |u: usize, mp: u32| reach(&m, &r, &occ, &units[u], Mp::whole(mp)).unwrap();
    let two = of(0, 2);
    assert_eq!(two.start(), hex(&m, "0301"));
    assert!(!two.is_empty());
    assert!(of(0, 0).is_empty());
    assert_eq!(two, of(0, 2));
    assert_eq!(two, two.clone());
    // same start, fewer hexes; another start, no hexes either way
    assert_ne!(two, of(0, 1));
    assert_ne!(of(0, 0), of(1, 0));
    assert_eq!(of(0, 0), of(0, 0));
}

/// `Reach::cost` is the least cost of a reached hex, and None for a hex not reached (beyond
/// the budget, or the start itself).
#[test]
fn reach_cost_is_none_for_a_hex_not_reached() {
    let m = map(&[". . . . ."], "");
    let r = rules(&m);
    let units = [unit("a", "allied", "infantry", "0101")];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let got = reach(&m, &r, &occ, &units[0], Mp::whole(2)).unwrap();
    assert_eq!(got.cost(hex(&m, "0301")), Some(Mp::whole(2)));
    assert_eq!(got.cost(hex(&m, "0401")), None);
    assert_eq!(got.cost(hex(&m, "0101")), None);
}

/// A `ReachSearch` is made for one map: asked about a map of another size, it refuses with the
/// sizes instead of reading past its scratch space.
#[test]
fn a_reach_search_refuses_a_map_of_another_size() {
    let small = map(&[". . ."], "");
    let m = map(&[". . . . ."], "");
    let r = rules(&m);
    let units = [unit("a", "allied", "infantry", "0501")];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let mut search = ReachSearch::new(&small);
    let expected = "array of 3 entries given for a map of 5 hexes (reach scratch)";
    let e = search
        .reach(&m, &r, &occ, &units[0], Mp::whole(2))
        .unwrap_err();
    assert_eq!(e.to_string(), expected);
    let e = search
        .cheapest_path(&m, &r, &occ, &units[0], Mp::whole(2), hex(&m, "0401"))
        .unwrap_err();
    assert_eq!(e.to_string(), expected);
}

/// Costs that are all multiples of 1.5 MP make a cost quantum (96 raw) that is no power of
/// two: the bucket search then divides by it, and still reaches every hex at its least cost.
#[test]
fn a_cost_quantum_that_is_no_power_of_two_still_gives_exact_costs() {
    let m = parse_map(&SourceText::new(
        "q.toml",
        "name = \"q\"\ncolumns = 5\nrows = 1\ngrid = [\". . f . .\"]\n[legend]\n\".\" = \"clear\"\nf = \"forest\"\n",
    ))
    .unwrap();
    let decl = json!({
        "sides": ["blue", "red"], "classes": ["foot"],
        "terrain": { "clear": 1.5, "forest": 3 },
    });
    let r = PathRules::compile(&decl, &m).unwrap();
    assert_eq!(r.cost_quantum, 96);
    let u = unit("u", "blue", "infantry", "0101");
    let occ = Occupancy::build(&m, &r, std::slice::from_ref(&u)).unwrap();
    assert_eq!(
        reach(&m, &r, &occ, &u, Mp::whole(6)).unwrap().labeled(&m),
        costs(&[("0201", 1.5), ("0301", 4.5), ("0401", 6.0)])
    );
}

/// The heap search (budgets too large for buckets) settles each hex once: a hex first offered
/// dearly across a major river (1 + 2) and then cheaply round it (1 + 1) is listed once, at 2,
/// as the bucket search lists it.
#[test]
fn the_heap_search_lists_a_hex_once_at_its_least_cost_after_a_dearer_offer() {
    let m = map(
        &[". . .", ". . ."],
        "[hexsides]\nmajor_river = [\"0101/0201\"]\n",
    );
    let units = [unit("a", "allied", "infantry", "0101")];
    let huge = reach_of(&m, &units, 0, Mp::whole(100_000));
    assert_eq!(huge, reach_of(&m, &units, 0, Mp::whole(10)));
    assert_eq!(
        huge,
        costs(&[
            ("0102", 1.0),
            ("0201", 2.0),
            ("0202", 1.0),
            ("0301", 2.0),
            ("0302", 2.0)
        ])
    );
}

/// A declaration may let a friendly unit cancel enemy ZOC for movement (F40 does not, R4):
/// then a mover passes the friend-held ZOC hex without stopping, while an empty ZOC hex still
/// stops it.
#[test]
fn a_friend_cancels_enemy_zoc_for_movement_where_the_declaration_says_so() {
    // The German on 0302 covers 0202, 0301 (held by a friend) and 0402.
    let m = map(&[". . . . .", ". . . . ."], "");
    let mut d = f40();
    d["zoc"]["friendly_units_negate"] = json!(true);
    let r = PathRules::compile(&d, &m).unwrap();
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("f", "allied", "infantry", "0301"),
        unit("g", "german", "infantry", "0302"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    assert_eq!(
        reach(&m, &r, &occ, &units[0], Mp::whole(4))
            .unwrap()
            .labeled(&m),
        costs(&[
            ("0102", 1.0),
            ("0201", 1.0),
            ("0202", 1.0),
            ("0301", 2.0),
            ("0401", 3.0),
            ("0402", 3.0),
            ("0501", 4.0)
        ])
    );
    // 0202 (no friend) still stops the mover: nothing is entered from it.
    let through_0202 = reach(&m, &r, &occ, &units[0], Mp::whole(4))
        .unwrap()
        .hexes()
        .iter()
        .filter(|h| h.parent == hex(&m, "0202"))
        .count();
    assert_eq!(through_0202, 0);
}

/// A declaration may let units go on after entering enemy ZOC (`stop_on_entry = false`, not
/// F40-6.2): the mover crosses the ZOC hex 0301, paying the +1 to leave it (6.3), but still
/// never steps from one enemy-ZOC hex to another (6.4).
#[test]
fn without_stop_on_entry_a_unit_goes_on_through_enemy_zoc_paying_to_leave() {
    // The German on 0302 covers 0202, 0301 and 0402.
    let m = map(&[". . . . .", ". . . . ."], "");
    let mut d = f40();
    d["zoc"]["stop_on_entry"] = json!(false);
    let r = PathRules::compile(&d, &m).unwrap();
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("g", "german", "infantry", "0302"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    assert_eq!(
        reach(&m, &r, &occ, &units[0], Mp::whole(5))
            .unwrap()
            .labeled(&m),
        costs(&[
            ("0102", 1.0),
            ("0201", 1.0),
            ("0202", 1.0),
            ("0301", 2.0),
            ("0401", 4.0),
            ("0402", 5.0),
            ("0501", 5.0)
        ])
    );
}

/// F40-10.2 as a declaration may split it: a hexside listed only against entering enemy
/// territory (here a major river) still lets a unit enter an enemy ZOC across it, in its own
/// territory; only `enemy_zoc` features bar that.
#[test]
fn f40_10_2_a_hexside_barred_only_into_enemy_territory_still_lets_a_unit_into_enemy_zoc() {
    // The German on 0401 covers 0301; the river runs between 0201 and 0301.
    let m = map(
        &[". . . . ."],
        "[hexsides]\nmajor_river = [\"0201/0301\"]\n",
    );
    let mut d = f40();
    d["no_entry_across"]["major_river"] = json!(["enemy_territory"]);
    let r = PathRules::compile(&d, &m).unwrap();
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("g", "german", "infantry", "0401"),
    ];
    let occ = Occupancy::build(&m, &r, &units)
        .unwrap()
        .with_owners(owners(&m, ALLIED, &[("0401", GERMAN)]))
        .unwrap();
    assert_eq!(
        reach(&m, &r, &occ, &units[0], Mp::whole(5))
            .unwrap()
            .labeled(&m),
        costs(&[("0201", 1.0), ("0301", 4.0)])
    );
}

/// F40-10.2 split the other way: a hexside listed only against entering enemy ZOC (here a
/// major river) still lets a unit enter enemy territory across it, out of any ZOC.
#[test]
fn f40_10_2_a_hexside_barred_only_into_enemy_zoc_still_lets_a_unit_into_enemy_territory() {
    let m = map(
        &[". . . . ."],
        "[hexsides]\nmajor_river = [\"0201/0301\"]\n",
    );
    let mut d = f40();
    d["no_entry_across"]["major_river"] = json!(["enemy_zoc"]);
    let r = PathRules::compile(&d, &m).unwrap();
    let units = [unit("a", "allied", "infantry", "0101")];
    let occ = Occupancy::build(&m, &r, &units)
        .unwrap()
        .with_owners(owners(&m, ALLIED, &[("0301", GERMAN)]))
        .unwrap();
    assert_eq!(
        reach(&m, &r, &occ, &units[0], Mp::whole(4))
            .unwrap()
            .labeled(&m),
        costs(&[("0201", 1.0), ("0301", 4.0)])
    );
}
