//! F40-8.1, 8.2, 6.5 and R12: supply lines.

use super::*;
use crate::path::{trace_supply, SourceSet, SupplyField, SupplyReport};

fn supply(map: &HexMap, units: &[Unit], own: &[SideId], sources: &[SourceSet]) -> SupplyReport {
    let r = rules(map);
    let occ = Occupancy::build(map, &r, units).unwrap();
    trace_supply(map, &r, &occ, own, sources, units).unwrap()
}

fn side_sources(map: &HexMap, side: SideId, hexes: &[&str]) -> Vec<SourceSet> {
    vec![SourceSet {
        side,
        nations: vec![],
        hexes: hexes.iter().map(|l| hex(map, l)).collect(),
    }]
}

#[test]
fn f40_8_1_line_runs_through_friendly_territory_only() {
    let m = map(&[". . . . ."], "");
    let units = [unit("a", "allied", "infantry", "0501")];
    let src = side_sources(&m, ALLIED, &["0101"]);
    assert_eq!(
        supply(&m, &units, &owners(&m, ALLIED, &[]), &src).supplied,
        [Some(true)]
    );
    assert_eq!(
        supply(&m, &units, &owners(&m, ALLIED, &[("0301", GERMAN)]), &src).supplied,
        [Some(false)]
    );
    assert_eq!(
        supply(&m, &units, &owners(&m, ALLIED, &[("0301", NO_SIDE)]), &src).supplied,
        [Some(false)]
    );
}

#[test]
fn f40_8_1_r12_line_never_through_terrain_impassable_to_the_unit() {
    let m = map(&[". . m . ."], "");
    let units = [
        unit("a", "allied", "armored", "0501"),
        unit("b", "allied", "infantry", "0501"),
    ];
    let report = supply(
        &m,
        &units,
        &owners(&m, ALLIED, &[]),
        &side_sources(&m, ALLIED, &["0101"]),
    );
    assert_eq!(report.supplied, [Some(false), Some(true)]);
    assert_eq!(report.searches, 2);
}

#[test]
fn f40_6_5_enemy_zoc_blocks_non_motorized_lines_unless_a_friend_holds_the_hex() {
    // The German on 0302 covers 0301, 0202 and 0402: every way from west to east.
    let m = map(&[". . . . .", ". . . . ."], "");
    let own = owners(&m, ALLIED, &[("0302", GERMAN)]);
    let src = side_sources(&m, ALLIED, &["0101", "0102"]);
    let units = [
        unit("g", "german", "infantry", "0302"),
        unit("a", "allied", "infantry", "0501"),
        unit("m", "allied", "armored", "0501"),
    ];
    assert_eq!(
        supply(&m, &units, &own, &src).supplied,
        [Some(false), Some(false), Some(true)]
    );
    let mut with_friend = units.to_vec();
    with_friend.push(unit("f", "allied", "infantry", "0301"));
    assert_eq!(
        supply(&m, &with_friend, &own, &src).supplied,
        [Some(false), Some(true), Some(true), Some(true)]
    );
}

#[test]
fn f40_r12_the_units_own_hex_is_exempt() {
    // The unit stands in enemy ZOC, on a hex the Germans hold: still supplied from next door.
    let m = map(&[". . . . .", ". . . . ."], "");
    let own = owners(&m, ALLIED, &[("0302", GERMAN), ("0402", GERMAN)]);
    let units = [
        unit("g", "german", "infantry", "0302"),
        unit("a", "allied", "infantry", "0402"),
    ];
    let report = supply(
        &m,
        &units,
        &own,
        &side_sources(&m, ALLIED, &["0501", "0502"]),
    );
    assert_eq!(report.supplied[1], Some(true));
}

#[test]
fn f40_r12_a_unit_on_a_friendly_source_is_supplied_an_enemy_held_source_counts_for_nothing() {
    let m = map(&[". . ."], "");
    let units = [
        unit("g", "german", "infantry", "0201"),
        unit("a", "allied", "infantry", "0101"),
    ];
    let src = side_sources(&m, ALLIED, &["0101"]);
    // 0101 in German ZOC, but it is a friendly source and the unit's own hex.
    assert_eq!(
        supply(&m, &units, &owners(&m, ALLIED, &[("0201", GERMAN)]), &src).supplied[1],
        Some(true)
    );
    // 8.2: a source counts only in friendly territory.
    assert_eq!(
        supply(&m, &units, &owners(&m, GERMAN, &[]), &src).supplied[1],
        Some(false)
    );
}

#[test]
fn f40_r12_lines_never_cross_lake_hexsides_nor_german_lines_sea_without_causeway() {
    let sea = map(&[". . ."], "[hexsides]\nsea = [\"0101/0201\"]\n");
    let units = [unit("g", "german", "infantry", "0301")];
    assert_eq!(
        supply(
            &sea,
            &units,
            &owners(&sea, GERMAN, &[]),
            &side_sources(&sea, GERMAN, &["0101"])
        )
        .supplied,
        [Some(false)]
    );
    let allied = [unit("a", "allied", "infantry", "0301")];
    assert_eq!(
        supply(
            &sea,
            &allied,
            &owners(&sea, ALLIED, &[]),
            &side_sources(&sea, ALLIED, &["0101"])
        )
        .supplied,
        [Some(true)]
    );
    let causeway = map(
        &[". . ."],
        "[hexsides]\nsea = [\"0101/0201\"]\ncauseway = [\"0101/0201\"]\n",
    );
    assert_eq!(
        supply(
            &causeway,
            &units,
            &owners(&causeway, GERMAN, &[]),
            &side_sources(&causeway, GERMAN, &["0101"])
        )
        .supplied,
        [Some(true)]
    );
    let lake = map(&[". . ."], "[hexsides]\nlake = [\"0201/0301\"]\n");
    assert_eq!(
        supply(
            &lake,
            &allied,
            &owners(&lake, ALLIED, &[]),
            &side_sources(&lake, ALLIED, &["0101"])
        )
        .supplied,
        [Some(false)]
    );
}

#[test]
fn f40_8_2_source_sets_serve_the_nations_they_name_one_search_per_group() {
    // A lake cuts the corridor between 0301 and 0401: French sources west, Belgian city east.
    let m = map(&[". . . . ."], "[hexsides]\nlake = [\"0301/0401\"]\n");
    let sets = vec![
        SourceSet {
            side: ALLIED,
            nations: vec!["french".into(), "british".into(), "belgian".into()],
            hexes: vec![hex(&m, "0101")],
        },
        SourceSet {
            side: ALLIED,
            nations: vec!["belgian".into()],
            hexes: vec![hex(&m, "0501")],
        },
        SourceSet {
            side: ALLIED,
            nations: vec!["swiss".into()],
            hexes: vec![hex(&m, "0501")],
        },
    ];
    let units = [
        unit("f_east", "allied", "infantry", "0401"),
        unit("b_east", "allied", "infantry", "0401").nation("belgian"),
        unit("b_west", "allied", "infantry", "0201").nation("belgian"),
        unit("s_west", "allied", "infantry", "0201").nation("swiss"),
        unit("n", "allied", "infantry", "0201")
            .nation("dutch")
            .flag("neutral"),
    ];
    let report = supply(&m, &units, &owners(&m, ALLIED, &[]), &sets);
    assert_eq!(
        report.supplied,
        [Some(false), Some(true), Some(true), Some(false), Some(true)]
    );
    assert_eq!(report.searches, 3);
}

/// `supply.through`: the hexes a line runs through and the sources that count, for games that
/// keep no control or trace "a line free of enemy units" (the default is F40-8.1's control).
#[test]
fn supply_through_chooses_the_hexes_a_line_may_cross() {
    let m = map(&[". . . . ."], "");
    let rules_through = |through: &str| {
        let mut d = f40();
        d["supply"]["through"] = serde_json::json!(through);
        PathRules::compile(&d, &m).unwrap()
    };
    let judge = |through: &str, units: &[Unit], own: &[SideId]| {
        let r = rules_through(through);
        let occ = Occupancy::build(&m, &r, units).unwrap();
        let src = side_sources(&m, ALLIED, &["0101"]);
        trace_supply(&m, &r, &occ, own, &src, units)
            .unwrap()
            .supplied
    };
    // (armour: enemy ZOC does not block its lines, so only the hexes' owners and units count)
    let alone = [unit("a", "allied", "armored", "0501")];
    let nobody = owners(&m, NO_SIDE, &[]);
    let german_0301 = owners(&m, NO_SIDE, &[("0301", GERMAN)]);
    let german_source = owners(&m, NO_SIDE, &[("0101", GERMAN)]);
    assert_eq!(judge("controlled", &alone, &nobody), [Some(false)]);
    assert_eq!(judge("not_enemy_controlled", &alone, &nobody), [Some(true)]);
    assert_eq!(
        judge("not_enemy_controlled", &alone, &german_0301),
        [Some(false)]
    );
    assert_eq!(
        judge("not_enemy_controlled", &alone, &german_source),
        [Some(false)]
    );
    assert_eq!(judge("no_enemy_unit", &alone, &german_0301), [Some(true)]);
    assert_eq!(judge("no_enemy_unit", &alone, &german_source), [Some(true)]);
    let blocked = [
        unit("a", "allied", "armored", "0501"),
        unit("g", "german", "armored", "0301"),
    ];
    assert_eq!(judge("no_enemy_unit", &blocked, &nobody)[0], Some(false));
    assert_eq!(
        judge("not_enemy_controlled", &blocked, &nobody)[0],
        Some(false)
    );
    let mut d = f40();
    d["supply"]["through"] = serde_json::json!("everywhere");
    assert_eq!(
        PathRules::compile(&d, &m).unwrap_err().to_string(),
        "supply.through: expected \"controlled\", \"not_enemy_controlled\" or \"no_enemy_unit\", \
         found the string \"everywhere\""
    );
    d["supply"]["through"] = serde_json::json!("no_enemy_units");
    assert_eq!(
        PathRules::compile(&d, &m).unwrap_err().to_string(),
        "supply.through: expected \"controlled\", \"not_enemy_controlled\" or \"no_enemy_unit\" \
         (did you mean \"no_enemy_unit\"?), found the string \"no_enemy_units\""
    );
}

/// `supply.through`: a hex holding a unit of the tracing side itself stays open to its lines
/// (only another side's unit closes it), under both unit-reading choices.
#[test]
fn supply_through_a_friendly_unit_never_closes_a_hex_to_its_own_lines() {
    let m = map(&[". . . . ."], "");
    let nobody = owners(&m, NO_SIDE, &[]);
    let units = [
        unit("a", "allied", "armored", "0501"),
        unit("f", "allied", "armored", "0301"),
    ];
    for through in ["not_enemy_controlled", "no_enemy_unit"] {
        let mut d = f40();
        d["supply"]["through"] = json!(through);
        let r = PathRules::compile(&d, &m).unwrap();
        let occ = Occupancy::build(&m, &r, &units).unwrap();
        let src = side_sources(&m, ALLIED, &["0101"]);
        let report = trace_supply(&m, &r, &occ, &nobody, &src, &units).unwrap();
        assert_eq!(report.supplied, [Some(true), Some(true)], "{through}");
    }
}

/// F40-6.5: a friendly source in enemy ZOC carries no line for non-motorized units, so no line
/// starts from it (armour's lines, which ZOC does not block, still do).
#[test]
fn f40_6_5_a_source_in_enemy_zoc_starts_no_non_motorized_line() {
    // The German on 0101 covers the Allied source 0201 (and nothing else on this row).
    let m = map(&[". . . . ."], "");
    let own = owners(&m, ALLIED, &[("0101", GERMAN)]);
    let units = [
        unit("g", "german", "infantry", "0101"),
        unit("a", "allied", "infantry", "0401"),
        unit("m", "allied", "armored", "0401"),
    ];
    assert_eq!(
        supply(&m, &units, &own, &side_sources(&m, ALLIED, &["0201"])).supplied,
        [Some(false), Some(false), Some(true)]
    );
}

/// F40-6.5: mountain infantry is non-motorized, so enemy ZOC blocks its lines as it does
/// foot's (the check must read the class's own bit).
#[test]
fn f40_6_5_enemy_zoc_blocks_mountain_infantry_lines_too() {
    // The German on 0302 covers 0301, 0202 and 0402: every way from west to east.
    let m = map(&[". . . . .", ". . . . ."], "");
    let own = owners(&m, ALLIED, &[("0302", GERMAN)]);
    let units = [
        unit("g", "german", "infantry", "0302"),
        unit("mi", "allied", "mountain_infantry", "0501"),
    ];
    assert_eq!(
        supply(
            &m,
            &units,
            &own,
            &side_sources(&m, ALLIED, &["0101", "0102"])
        )
        .supplied,
        [Some(false), Some(false)]
    );
}

/// A supply field says which side it was traced for.
#[test]
fn a_supply_field_reports_the_side_it_was_traced_for() {
    let m = map(&[". . ."], "");
    let r = rules(&m);
    let occ = Occupancy::build(&m, &r, &[]).unwrap();
    let own = owners(&m, ALLIED, &[]);
    let field = SupplyField::trace(&m, &r, &occ, &own, ALLIED, 0, &[hex(&m, "0101")]).unwrap();
    assert_eq!(field.side(), ALLIED);
}

/// `SupplyField::unchanged_by` on a changed source hex: the field is kept exactly when the hex
/// carries a line alike and is a friendly source alike before and after. A source in enemy ZOC
/// (carrying no foot line either way) that changes hands is dropped (it no longer counts as a
/// friendly source, F40-8.2); a friend arriving on a source out of ZOC changes nothing: kept.
#[test]
fn a_supply_field_is_dropped_when_a_source_changes_hands_and_kept_when_a_friend_arrives() {
    // The German on 0101 covers the empty source 0201; the source 0501 is out of any ZOC.
    let m = map(&[". . . . ."], "");
    let r = rules(&m);
    let sources = [hex(&m, "0201"), hex(&m, "0501")];
    let mut units = vec![unit("g", "german", "infantry", "0101")];
    let owners0 = owners(&m, ALLIED, &[("0101", GERMAN)]);
    let occ0 = Occupancy::build(&m, &r, &units).unwrap();
    let field = SupplyField::trace(&m, &r, &occ0, &owners0, ALLIED, 0, &sources).unwrap();
    assert!(field.supplies(&m, &r, hex(&m, "0201")));
    let before = (&owners0[..], occ0.cells());
    // 0201 passes to the Germans, its units unchanged: no longer a friendly source.
    let owners1 = owners(&m, ALLIED, &[("0101", GERMAN), ("0201", GERMAN)]);
    let changed = [hex(&m, "0201")];
    assert!(!field.unchanged_by(&m, &r, &sources, &changed, before, (&owners1, &occ0)));
    let fresh = SupplyField::trace(&m, &r, &occ0, &owners1, ALLIED, 0, &sources).unwrap();
    assert_ne!(fresh, field);
    // An Allied armour arrives on 0501, control unchanged: the same field.
    units.push(unit("m", "allied", "armored", "0501"));
    let occ1 = Occupancy::build(&m, &r, &units).unwrap();
    let changed = [hex(&m, "0501")];
    assert!(field.unchanged_by(&m, &r, &sources, &changed, before, (&owners0, &occ1)));
    let fresh = SupplyField::trace(&m, &r, &occ1, &owners0, ALLIED, 0, &sources).unwrap();
    assert_eq!(fresh, field);
}
