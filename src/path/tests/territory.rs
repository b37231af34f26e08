//! F40-7.1, 7.2 and R11: territory control.

use super::*;
use crate::path::update_control;

fn owner_labels(map: &HexMap, owner: &[SideId]) -> Vec<(String, &'static str)> {
    (0..map.len())
        .map(|h| {
            let who = match owner[h as usize] {
                GERMAN => "german",
                ALLIED => "allied",
                _ => "neutral",
            };
            (map.label(h), who)
        })
        .collect()
}

fn pairs(list: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    list.iter().map(|(l, w)| (l.to_string(), *w)).collect()
}

#[test]
fn f40_7_1_occupation_then_uncontested_zoc_then_last_holder_then_initial() {
    let m = map(&[". . . . . . ."], "");
    let r = rules(&m);
    let units = [
        unit("g", "german", "infantry", "0201"),
        unit("a", "allied", "infantry", "0501"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let nobody = vec![NO_SIDE; m.len() as usize];
    let initial = owners(&m, ALLIED, &[("0101", GERMAN), ("0701", NO_SIDE)]);
    let c = update_control(&occ, &nobody, &initial).unwrap();
    // 0101, 0301: German ZOC alone; 0201 German-occupied; 0401, 0601: Allied ZOC alone;
    // 0501 Allied-occupied; 0701: never held, initial (neutral).
    assert_eq!(
        owner_labels(&m, &c.owner),
        pairs(&[
            ("0101", "german"),
            ("0201", "german"),
            ("0301", "german"),
            ("0401", "allied"),
            ("0501", "allied"),
            ("0601", "allied"),
            ("0701", "neutral")
        ])
    );
    // 7.1c: once the units are gone, the last holders keep the hexes.
    let empty = Occupancy::build(&m, &r, &[]).unwrap();
    let later = update_control(&empty, &c.holder, &initial).unwrap();
    assert_eq!(later.owner, c.owner);
}

#[test]
fn f40_7_2_contested_zoc_leaves_the_hex_to_its_last_holder() {
    let m = map(&[". . . . ."], "");
    let r = rules(&m);
    // Both exert ZOC into 0301.
    let units = [
        unit("g", "german", "infantry", "0201"),
        unit("a", "allied", "infantry", "0401"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let initial = owners(&m, ALLIED, &[]);
    let c = update_control(&occ, &owners(&m, NO_SIDE, &[("0301", GERMAN)]), &initial).unwrap();
    assert_eq!(c.owner[hex(&m, "0301") as usize], GERMAN);
    let c = update_control(&occ, &owners(&m, NO_SIDE, &[]), &initial).unwrap();
    assert_eq!(c.owner[hex(&m, "0301") as usize], ALLIED);
}

#[test]
fn f40_r11_zoc_of_still_neutral_units_counts_for_nobody_nor_does_their_presence() {
    let m = map(&[". . . ."], "");
    let r = rules(&m);
    let units = [
        unit("b", "allied", "infantry", "0201")
            .nation("belgian")
            .flag("neutral"),
        unit("g", "german", "infantry", "0401"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let c = update_control(&occ, &owners(&m, NO_SIDE, &[]), &owners(&m, NO_SIDE, &[])).unwrap();
    // 0301: German ZOC uncontested (the Belgian exerts none); 0101, 0201: nobody's.
    assert_eq!(
        owner_labels(&m, &c.owner),
        pairs(&[
            ("0101", "neutral"),
            ("0201", "neutral"),
            ("0301", "german"),
            ("0401", "german")
        ])
    );
}

#[test]
fn f40_r11_occupation_counts_only_when_one_players_units_are_in_the_hex() {
    let m = map(&[". . ."], "");
    let r = rules(&m);
    // A German para regiment (no ZOC) shares 0201 with an Allied unit: no single player
    // occupies 0201 and no ZOC covers it (R1: not the own hex), so its last holder keeps it;
    // the Allied ZOC alone takes the hexes around.
    let units = [
        unit("p", "german", "para", "0201").size("III").flag("para"),
        unit("a", "allied", "infantry", "0201"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let c = update_control(
        &occ,
        &owners(&m, NO_SIDE, &[("0201", GERMAN)]),
        &owners(&m, NO_SIDE, &[]),
    )
    .unwrap();
    assert_eq!(
        owner_labels(&m, &c.owner),
        pairs(&[("0101", "allied"), ("0201", "german"), ("0301", "allied")])
    );
}

#[test]
fn f40_7_1_control_changes_lists_exactly_the_hexes_update_control_changes() {
    use crate::path::control_changes;
    let m = map(&[". . . . . . . ."], "");
    let r = rules(&m);
    // German occupation and ZOC around 0201, a contested 0401 (both ZOCs), Allied ZOC and
    // occupation at 0501-0601; 0801 stays with its owner (nobody holds it now).
    let units = [
        unit("g", "german", "infantry", "0301"),
        unit("a", "allied", "infantry", "0501"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let owners = owners(
        &m,
        ALLIED,
        &[("0201", GERMAN), ("0401", GERMAN), ("0801", NO_SIDE)],
    );
    let changes = control_changes(&occ, &owners).unwrap();
    let listed: Vec<(String, SideId)> = changes.iter().map(|&(h, s)| (m.label(h), s)).collect();
    // (0201 German already; 0401 contested keeps its German holder; 0501 to 0701 Allied already)
    assert_eq!(listed, vec![("0301".to_string(), GERMAN)]);
    // The same hexes update_control changes when the owners are the last holders as well.
    let c = update_control(&occ, &owners, &owners).unwrap();
    let changed: Vec<(HexIndex, SideId)> = (0..m.len())
        .filter(|&h| c.owner[h as usize] != owners[h as usize])
        .map(|h| (h, c.owner[h as usize]))
        .collect();
    assert_eq!(changes, changed);
    // A wrong-sized owner map is refused, not read past its end.
    assert!(control_changes(&occ, &owners[1..]).is_err());
}
