//! The occupancy followed unit by unit (`Occupancy::update_unit`) must equal a fresh build after
//! any sequence of changes, and say "unchanged" exactly when a fresh build is the same.

use super::*;
use crate::path::SupplyField;

/// A 6x6 map with sea hexes and sea/lake hexsides (ZOC does not cross them).
fn board() -> HexMap {
    map(
        &[
            ". . f . s .",
            ". h . . . .",
            "m . . C . w",
            ". . . . . .",
            "s . M . f .",
            ". . . . . .",
        ],
        "[hexsides]\nsea = [\"0303/0304\", \"0405/0406\"]\nlake = [\"0202/0203\"]\n",
    )
}

fn random_label(rng: &mut TestRng) -> String {
    format!("{:02}{:02}", rng.below(6) + 1, rng.below(6) + 1)
}

fn toggle_status(u: &mut Unit, s: &str) {
    if !u.status.remove(s) {
        u.status.insert(s.into());
    }
}

fn toggle_flag(u: &mut Unit, f: &str) {
    if u.attrs.remove(f).is_none() {
        u.attrs.insert(f.into(), Value::Bool(true));
    }
}

/// One random change of the kinds the rules make: a move, a status or flag the occupancy reads
/// (disorganized, para, neutral, size) or ignores (moved, strength), a change of side or class,
/// leaving or re-entering the map.
fn change(rng: &mut TestRng, u: &mut Unit) {
    match rng.below(11) {
        0..=2 => u.at = Some(random_label(rng)),
        3 => toggle_status(u, "disorganized"),
        4 => toggle_status(u, "moved"),
        5 => toggle_flag(u, "para"),
        6 => toggle_flag(u, "neutral"),
        7 => {
            u.size = if u.size == "III" {
                "XX".into()
            } else {
                "III".into()
            }
        }
        8 => {
            u.side = if u.side == "german" {
                "allied".into()
            } else {
                "german".into()
            };
        }
        9 => {
            let class = ["foot", "motorized", "mountain"][rng.below(3) as usize];
            u.attrs.insert("class".into(), Value::String(class.into()));
        }
        _ => {
            u.at = if u.at.is_some() {
                None
            } else {
                Some(random_label(rng))
            };
            u.strength += 1.0;
        }
    }
}

#[test]
fn update_unit_equals_a_fresh_build_after_random_changes() {
    let m = board();
    let r = rules(&m);
    let mut rng = TestRng::new(0x5eed_cafe);
    let mut unchanged_seen = 0;
    for _ in 0..40 {
        let mut units: Vec<Unit> = (0..8)
            .map(|i| {
                let side = if rng.below(2) == 0 {
                    "german"
                } else {
                    "allied"
                };
                let kind = ["infantry", "armored", "mountain_infantry"][rng.below(3) as usize];
                unit(&format!("u{i}"), side, kind, &random_label(&mut rng))
            })
            .collect();
        let mut occ = Occupancy::build(&m, &r, &units).unwrap();
        for _ in 0..60 {
            let i = rng.below(units.len() as u64) as usize;
            change(&mut rng, &mut units[i]);
            let before = occ.clone();
            let changed = occ.update_unit(&m, &r, i, &units[i]).unwrap();
            let fresh = Occupancy::build(&m, &r, &units).unwrap();
            assert_eq!(occ, fresh, "after changing {:?}", units[i]);
            assert_eq!(changed, before != fresh, "changed flag for {:?}", units[i]);
            if !changed {
                unchanged_seen += 1;
            }
        }
    }
    // the sequences include changes the occupancy does not see (moved, strength)
    assert!(unchanged_seen > 100, "{unchanged_seen}");
}

/// Units entering and leaving play (`insert_unit`, `remove_unit`) anywhere in the list, mixed
/// with changes, leave the occupancy a fresh build of the list would give.
#[test]
fn units_inserted_and_removed_equal_a_fresh_build() {
    let m = board();
    let r = rules(&m);
    let mut rng = TestRng::new(0x0cc0_1e5e);
    let mut next_id = 0;
    let mut new_unit = |rng: &mut TestRng| {
        next_id += 1;
        let side = ["german", "allied"][rng.below(2) as usize];
        let kind = ["infantry", "armored", "mountain_infantry"][rng.below(3) as usize];
        let mut u = unit(&format!("n{next_id}"), side, kind, &random_label(rng));
        if rng.below(4) == 0 {
            u.at = None;
        }
        u
    };
    let (mut inserted_off_map, mut removed) = (0, 0);
    for _ in 0..30 {
        let mut units: Vec<Unit> = (0..4).map(|_| new_unit(&mut rng)).collect();
        let mut occ = Occupancy::build(&m, &r, &units).unwrap();
        for _ in 0..40 {
            let what = rng.below(3);
            if what == 0 && !units.is_empty() {
                let i = rng.below(units.len() as u64) as usize;
                let gone = units.remove(i);
                assert_eq!(occ.remove_unit(&m, &r, i).unwrap(), gone.at.is_some());
                removed += 1;
            } else if what == 1 {
                let i = rng.below(units.len() as u64 + 1) as usize;
                let u = new_unit(&mut rng);
                assert_eq!(occ.insert_unit(&m, &r, i, &u).unwrap(), u.at.is_some());
                inserted_off_map += usize::from(u.at.is_none());
                units.insert(i, u);
            } else if !units.is_empty() {
                let i = rng.below(units.len() as u64) as usize;
                change(&mut rng, &mut units[i]);
                occ.update_unit(&m, &r, i, &units[i]).unwrap();
            }
            assert_eq!(occ, Occupancy::build(&m, &r, &units).unwrap());
        }
    }
    assert!(
        inserted_off_map > 10 && removed > 100,
        "{inserted_off_map} {removed}"
    );
}

#[test]
fn a_unit_inserted_or_removed_at_no_such_place_or_with_a_bad_hex_leaves_the_occupancy_unchanged() {
    let m = board();
    let r = rules(&m);
    let units = vec![
        unit("a", "allied", "infantry", "0303"),
        unit("g", "german", "armored", "0305"),
    ];
    let mut occ = Occupancy::build(&m, &r, &units).unwrap();
    let kept = occ.clone();
    let e = occ.remove_unit(&m, &r, 2).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unit index 2 is not in this occupancy (it holds 2 units)"
    );
    assert_eq!(occ, kept);
    let e = occ.insert_unit(&m, &r, 3, &units[0]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unit index 3 is not in this occupancy (it holds 2 units)"
    );
    assert_eq!(occ, kept);
    let mut bad = unit("b", "allied", "infantry", "9999");
    let e = occ.insert_unit(&m, &r, 2, &bad).unwrap_err();
    assert_eq!(e, Occupancy::build(&m, &r, &[bad.clone()]).unwrap_err());
    assert_eq!(occ, kept);
    bad.at = Some("0303".into());
    bad.side = "swiss".into();
    assert!(occ.insert_unit(&m, &r, 0, &bad).is_err());
    assert_eq!(occ, kept);
    // (inserting at the end is allowed)
    bad.side = "allied".into();
    assert!(occ.insert_unit(&m, &r, 2, &bad).unwrap());
}

#[test]
fn update_unit_with_a_bad_hex_or_side_leaves_the_occupancy_unchanged() {
    let m = board();
    let r = rules(&m);
    let mut units = vec![
        unit("a", "allied", "infantry", "0303"),
        unit("g", "german", "armored", "0305"),
    ];
    let mut occ = Occupancy::build(&m, &r, &units).unwrap();
    let kept = occ.clone();
    units[0].at = Some("9999".into());
    let e = occ.update_unit(&m, &r, 0, &units[0]).unwrap_err();
    assert_eq!(e, Occupancy::build(&m, &r, &units).unwrap_err());
    assert_eq!(occ, kept);
    units[0].at = Some("0303".into());
    units[0].side = "swiss".into();
    let e = occ.update_unit(&m, &r, 0, &units[0]).unwrap_err();
    assert_eq!(e, Occupancy::build(&m, &r, &units).unwrap_err());
    assert_eq!(occ, kept);
    let e = occ.update_unit(&m, &r, 2, &units[1]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unit index 2 is not in this occupancy (it holds 2 units)"
    );
    assert_eq!(occ, kept);
}

/// A supply field reads only the occupancy's cells and the owners: when `update_unit` reports no
/// change, the field traced before equals the one traced after (the host keeps it then).
#[test]
fn supply_field_is_the_same_when_the_occupancy_reports_no_change() {
    let m = board();
    let r = rules(&m);
    let owners = owners(&m, ALLIED, &[("0101", GERMAN), ("0201", GERMAN)]);
    let mut units = vec![
        unit("a", "allied", "infantry", "0303"),
        unit("g", "german", "infantry", "0404"),
    ];
    let mut occ = Occupancy::build(&m, &r, &units).unwrap();
    let sources = [hex(&m, "0606"), hex(&m, "0601")];
    let trace =
        |occ: &Occupancy| SupplyField::trace(&m, &r, occ, &owners, ALLIED, 0, &sources).unwrap();
    let before = trace(&occ);
    units[1].status.insert("moved".into());
    units[1].strength = 3.0;
    assert!(!occ.update_unit(&m, &r, 1, &units[1]).unwrap());
    assert_eq!(trace(&occ), before);
    // a disorganized German exerts no ZOC: the occupancy changes, and so does the field
    units[1].status.insert("disorganized".into());
    assert!(occ.update_unit(&m, &r, 1, &units[1]).unwrap());
    assert_ne!(trace(&occ), before);
}

/// `SupplyField::unchanged_by` keeps a field only when tracing it again would give the same:
/// the German unit is moved to every hex of the board in turn (its ZOC and presence change),
/// and control of its hex changes with it; whenever the check keeps the field, a fresh trace
/// equals it. Both answers occur.
#[test]
fn a_supply_field_kept_across_a_change_is_the_field_traced_again() {
    let m = board();
    let r = rules(&m);
    let sources = [hex(&m, "0606"), hex(&m, "0601")];
    let mut units = vec![
        unit("a", "allied", "infantry", "0303"),
        unit("g", "german", "infantry", "0404"),
    ];
    let owners0 = owners(&m, ALLIED, &[("0101", GERMAN), ("0404", GERMAN)]);
    let occ0 = Occupancy::build(&m, &r, &units).unwrap();
    let field = SupplyField::trace(&m, &r, &occ0, &owners0, ALLIED, 0, &sources).unwrap();
    let (mut kept, mut dropped) = (0, 0);
    for h in 0..m.len() {
        let label = m.label(h);
        if label == "0303" {
            continue;
        }
        units[1].at = Some(label.clone());
        let mut occ = occ0.clone();
        occ.update_unit(&m, &r, 1, &units[1]).unwrap();
        let owners1 = owners(&m, ALLIED, &[("0101", GERMAN), (label.as_str(), GERMAN)]);
        let changed: Vec<HexIndex> = (0..m.len())
            .filter(|&x| owners0[x as usize] != owners1[x as usize] || occ0.cell(x) != occ.cell(x))
            .collect();
        let keep = field.unchanged_by(
            &m,
            &r,
            &sources,
            &changed,
            (&owners0, occ0.cells()),
            (&owners1, &occ),
        );
        let fresh = SupplyField::trace(&m, &r, &occ, &owners1, ALLIED, 0, &sources).unwrap();
        if keep {
            assert_eq!(fresh, field, "kept after a move to {label}");
            kept += 1;
        } else {
            dropped += 1;
        }
    }
    assert!(kept > 0 && dropped > 0, "kept {kept}, dropped {dropped}");
}

/// F40-9.5: only a unit whose status costs its friends extra (disorganized) marks its hex
/// `costly`; a plain unit leaves the bit clear, and taking the costly unit back clears it.
#[test]
fn f40_9_5_only_a_disorganized_unit_marks_its_hex_costly() {
    let m = map(&[". . ."], "");
    let r = rules(&m);
    let mut units = vec![
        unit("a", "allied", "infantry", "0101"),
        unit("d", "allied", "infantry", "0201").status("disorganized"),
    ];
    let mut occ = Occupancy::build(&m, &r, &units).unwrap();
    let costly = |occ: &Occupancy, l: &str| occ.cell(hex(&m, l)).costly;
    assert_eq!(costly(&occ, "0101"), 0);
    assert_eq!(costly(&occ, "0201"), 1 << ALLIED);
    assert_eq!(occ.friendly_extra(hex(&m, "0201"), ALLIED), 2 * Mp::SCALE);
    units[1].at = Some("0101".into());
    assert!(occ.update_unit(&m, &r, 1, &units[1]).unwrap());
    assert_eq!(costly(&occ, "0101"), 1 << ALLIED);
    assert_eq!(costly(&occ, "0201"), 0);
}

/// F40-6.1/R1: an Allied unit's ZOC shows in the Allied bitmap and in the per-hex side mask,
/// exactly on its neighbours, as a German's does in the German ones.
#[test]
fn f40_6_1_zoc_bitmap_and_mask_of_each_side() {
    let m = map(&[". . . . .", ". . . . ."], "");
    let r = rules(&m);
    let units = [
        unit("a", "allied", "infantry", "0101"),
        unit("g", "german", "infantry", "0501"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    let on = |side: SideId| {
        let b = occ.zoc_bitmap(side);
        labels(&m, (0..m.len()).filter(|&h| b[h as usize]))
    };
    assert_eq!(on(ALLIED), ["0102", "0201", "0202"]);
    assert_eq!(on(GERMAN), ["0401", "0402", "0502"]);
    assert_eq!(occ.zoc_mask(hex(&m, "0201")), 1 << ALLIED);
    assert_eq!(occ.zoc_mask(hex(&m, "0401")), 1 << GERMAN);
    assert_eq!(occ.zoc_mask(hex(&m, "0301")), 0);
}

/// F40-10.2 needs territory owners: `set_owners` replaces them (a change of control), and an
/// owner list of the wrong length is refused with the occupancy unchanged.
#[test]
fn set_owners_replaces_the_owners_and_refuses_a_wrong_length() {
    let m = map(&[". . ."], "");
    let r = rules(&m);
    let mut occ = Occupancy::build(&m, &r, &[])
        .unwrap()
        .with_owners(owners(&m, ALLIED, &[]))
        .unwrap();
    occ.set_owners(owners(&m, ALLIED, &[("0201", GERMAN)]))
        .unwrap();
    assert_eq!(occ.owner(hex(&m, "0201")), Some(GERMAN));
    assert_eq!(occ.owner(hex(&m, "0101")), Some(ALLIED));
    assert_eq!(
        occ.set_owners(vec![GERMAN; 2]).unwrap_err().to_string(),
        "array of 2 entries given for a map of 3 hexes (owners)"
    );
    assert_eq!(occ.owner(hex(&m, "0201")), Some(GERMAN));
}

/// An occupancy has one cell per hex of its map, so it is never empty.
#[test]
fn an_occupancy_has_one_cell_per_hex_and_is_not_empty() {
    let m = map(&[". . .", ". . ."], "");
    let occ = Occupancy::build(&m, &rules(&m), &[]).unwrap();
    assert_eq!(occ.len(), 6);
    assert!(!occ.is_empty());
}
