//! Compiling declarations: errors a designer can act on, and the compiled tables.

use serde_json::json;

use super::*;
use crate::path::{DeclarationError, PositionError, ReachSearch};

fn compile_err(edit: impl FnOnce(&mut Value)) -> String {
    let m = map(&[". . ."], "");
    let mut d = f40();
    edit(&mut d);
    PathRules::compile(&d, &m).unwrap_err().to_string()
}

#[test]
fn unknown_terrain_name_is_named_with_the_known_ones() {
    let e = compile_err(|d| d["terrain"]["marsch"] = json!(2));
    // (one letter off the map's `marsh`: named, since the map's legend may be the misspelt one)
    assert_eq!(e, "terrain: unknown terrain 'marsch' (this map has: clear, forest, hills, major_city, marsh, mountains, sea, wooded_hills); the map has 'marsh': a misspelling here or in the map's legend?");
}

#[test]
fn map_terrain_without_a_cost_is_refused() {
    let e = compile_err(|d| {
        d["terrain"].as_object_mut().unwrap().remove("hills");
    });
    assert_eq!(e, "the map's terrain 'hills' has no entry in 'terrain'");
}

/// A terrain only the vocabulary names may reach the map in play (`HexChanged`): its cost is
/// checked at load, with the map's, and named as the vocabulary's.
#[test]
fn vocabulary_terrain_without_a_cost_is_refused_at_load() {
    let e = compile_err(|d| d["vocabulary"]["terrain"] = json!(["swamp"]));
    assert_eq!(
        e,
        "vocabulary.terrain: 'swamp' (a terrain play may give a hex) has no entry in 'terrain'"
    );
    let e = compile_err(|d| {
        d["vocabulary"]["terrain"] = json!(["swamp"]);
        d["terrain"]["swamp"] = json!({ "foot": 2 });
    });
    assert_eq!(
        e,
        "terrain.swamp: no cost given for side 'german', class 'mountain' (add it or a 'default')"
    );
    let m = map(&[". . ."], "");
    let mut d = f40();
    d["vocabulary"]["terrain"] = json!(["swamp"]);
    d["terrain"]["swamp"] = json!(3);
    assert!(PathRules::compile(&d, &m).is_ok());
}

/// Hexside kinds are 32 bits: a vocabulary naming more is refused at load, not when play adds
/// the 33rd.
#[test]
fn more_than_32_hexside_kinds_in_the_vocabulary_are_refused_at_load() {
    // (the F40 declaration's 5 kinds and `n` more)
    let with_dykes = |d: &mut Value, n: usize| {
        let kinds = d["vocabulary"]["hexsides"].as_array_mut().unwrap();
        kinds.extend((0..n).map(|i| json!(format!("dyke_{i}"))));
    };
    let e = compile_err(|d| with_dykes(d, 28));
    assert_eq!(e, "vocabulary.hexsides: the map's 0 hexside features and the vocabulary's others make 33 kinds; at most 32");
    let m = map(&[". . ."], "");
    let mut d = f40();
    with_dykes(&mut d, 27);
    let fits = PathRules::compile(&d, &m)
        .map(|_| ())
        .map_err(|e| e.to_string());
    assert_eq!(fits, Ok(()), "32 kinds fit");
}

#[test]
fn unknown_class_is_named_with_its_place() {
    let e = compile_err(|d| d["zoc"]["zoc_to_zoc"] = json!(["motorised"]));
    assert_eq!(e, "zoc.zoc_to_zoc: unknown movement class 'motorised' (declared classes: foot, mountain, motorized)");
}

#[test]
fn unknown_selector_key_is_refused() {
    let e =
        compile_err(|d| d["terrain"]["marsh"] = json!({ "motorised": "prohibited", "default": 2 }));
    assert_eq!(e, "terrain.marsh: 'motorised' is neither a side, a class nor 'default' (did you mean 'motorized'?) (sides: german, allied; classes: foot, mountain, motorized)");
}

#[test]
fn missing_cost_for_a_side_and_class_is_refused() {
    let e =
        compile_err(|d| d["terrain"]["marsh"] = json!({ "foot": 2, "motorized": "prohibited" }));
    assert_eq!(
        e,
        "terrain.marsh: no cost given for side 'german', class 'mountain' (add it or a 'default')"
    );
}

#[test]
fn bad_cost_value_is_refused() {
    let e = compile_err(|d| d["terrain"]["forest"] = json!("two"));
    assert_eq!(e, "terrain.forest: expected a cost, \"prohibited\", or a table by class/side, found the string \"two\"");
    let e = compile_err(|d| d["hexsides"]["major_river"] = json!(-2));
    assert_eq!(e, "hexsides.major_river: expected a cost in MP (a number from 0 to 4096, a multiple of 1/64), found the number -2");
}

#[test]
fn hexside_feature_neither_on_the_map_nor_in_the_vocabulary_is_refused() {
    let e = compile_err(|d| d["hexsides"]["canal"] = json!(1));
    assert_eq!(
        e,
        "hexsides.canal: unknown hexside feature 'canal' (this map has: none)"
    );
    let e = compile_err(|d| d["rail"]["zones"]["allied"] = json!("frnace"));
    assert!(e.starts_with("rail.zones.allied: unknown zone 'frnace' (this map has: north_edge, south_edge, west_edge, east_edge"), "{e}");
}

#[test]
fn unknown_top_level_key_is_refused() {
    let e = compile_err(|d| d["terain"] = json!({}));
    assert!(
        e.starts_with(
            "declaration: unknown key 'terain' (expected one of: sides, vocabulary, classes"
        ),
        "{e}"
    );
}

#[test]
fn unit_of_an_undeclared_side_or_class_is_refused() {
    let m = map(&[". . ."], "");
    let r = rules(&m);
    let e = Occupancy::build(&m, &r, &[unit("x", "french", "infantry", "0101")]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unit 'x': side 'french' is not declared (declared sides: german, allied)"
    );
    let mut odd = unit("y", "allied", "infantry", "0101");
    odd.attrs.insert("class".into(), json!("cavalry"));
    let e = Occupancy::build(&m, &r, &[odd]).unwrap_err();
    assert!(matches!(e, PositionError::UnknownClass { .. }), "{e:?}");
    // (a class that is no name: it fell back to the class by type without a word)
    let mut numbered = unit("w", "allied", "infantry", "0101");
    numbered.attrs.insert("class".into(), json!(5));
    let e = Occupancy::build(&m, &r, &[numbered]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unit 'w': attrs.class is 5, not the name of a movement class (declared classes: foot, mountain, motorized)"
    );
    let e = Occupancy::build(&m, &r, &[unit("z", "allied", "infantry", "0909")]).unwrap_err();
    assert_eq!(e.to_string(), "unit 'z': hex '0909' is not on this map");
}

#[test]
fn compiled_tables_answer_per_side_and_class() {
    let m = map(
        &[". . ."],
        "[hexsides]\nsea = [\"0101/0201\"]\ncauseway = [\"0201/0301\"]\nlake = [\"0101/0102\"]\n"
            .replace("0101/0102", "0201/0301")
            .as_str(),
    );
    let r = rules(&m);
    let p = &r.profile;
    let (foot, mountain, motorized) = (
        p.class_id("foot").unwrap(),
        p.class_id("mountain").unwrap(),
        p.class_id("motorized").unwrap(),
    );
    let mountains = m
        .terrain_names()
        .iter()
        .position(|t| t == "mountains")
        .unwrap() as u8;
    assert_eq!(p.terrain_cost(GERMAN, foot, mountains), Some(Mp::whole(3)));
    assert_eq!(
        p.terrain_cost(GERMAN, mountain, mountains),
        Some(Mp::whole(2))
    );
    assert_eq!(
        p.terrain_cost(ALLIED, motorized, mountains),
        Some(Mp::whole(6))
    );
    let bit = |f: &str| 1u32 << m.hexside_feature_id(f).unwrap();
    assert_eq!(p.hexside_cost(ALLIED, foot, bit("sea")), Some(Mp::whole(1)));
    assert_eq!(p.hexside_cost(GERMAN, foot, bit("sea")), None);
    assert_eq!(
        p.hexside_cost(GERMAN, foot, bit("sea") | bit("causeway")),
        Some(Mp::ZERO)
    );
    assert_eq!(
        p.hexside_cost(ALLIED, foot, bit("sea") | bit("causeway")),
        Some(Mp::whole(1))
    );
    assert_eq!(
        p.hexside_cost(ALLIED, foot, bit("lake") | bit("causeway")),
        None
    );
}

#[test]
fn a_minimal_declaration_works_without_zoc_supply_or_rail() {
    let m = map(&[". f ."], "");
    let d = json!({ "sides": ["blue", "red"], "classes": ["foot"], "terrain": { "default": 1, "clear": 1, "marsh": 2, "forest": 2, "hills": 1, "wooded_hills": 2, "mountains": 3, "major_city": 1, "sea": "prohibited" } });
    let e = PathRules::compile(&d, &m).unwrap_err();
    assert_eq!(
        e,
        DeclarationError::UnknownTerrain {
            at: "terrain".into(),
            name: "default".into(),
            known: m.terrain_names().join(", "),
            near: None,
        }
    );
    let mut d = d;
    d["terrain"].as_object_mut().unwrap().remove("default");
    let r = PathRules::compile(&d, &m).unwrap();
    let units = [
        unit("a", "blue", "infantry", "0101"),
        unit("b", "red", "infantry", "0301"),
    ];
    let occ = Occupancy::build(&m, &r, &units).unwrap();
    // No ZOC declared: nothing stops the unit next to the enemy.
    let got = ReachSearch::new(&m)
        .reach(&m, &r, &occ, &units[0], Mp::whole(5))
        .unwrap()
        .labeled(&m);
    assert_eq!(got, costs(&[("0201", 2.0)]));
}

/// A hexside's `unless` form takes, for `then` and `else`, a cost or a table of costs by class
/// and side, as everywhere a cost goes (a river: foot 2, others only over a bridge).
#[test]
fn an_unless_hexside_cost_takes_tables_by_class_for_then_and_else() {
    let m = map(
        &[". . ."],
        "[hexsides]\nmajor_river = [\"0101/0201\"]\ncauseway = [\"0201/0301\"]\n",
    );
    let mut d = f40();
    d["hexsides"]["major_river"] = json!({
        "unless": ["causeway"],
        "then": { "motorized": 1, "default": 0 },
        "else": { "foot": 2, "default": "prohibited" }
    });
    let r = PathRules::compile(&d, &m).unwrap();
    let p = &r.profile;
    let (foot, motorized) = (
        p.class_id("foot").unwrap(),
        p.class_id("motorized").unwrap(),
    );
    let bit = |f: &str| 1u32 << m.hexside_feature_id(f).unwrap();
    let river = bit("major_river");
    assert_eq!(p.hexside_cost(GERMAN, foot, river), Some(Mp::whole(2)));
    assert_eq!(p.hexside_cost(GERMAN, motorized, river), None);
    assert_eq!(
        p.hexside_cost(GERMAN, motorized, river | bit("causeway")),
        Some(Mp::whole(1))
    );
    assert_eq!(
        p.hexside_cost(ALLIED, foot, river | bit("causeway")),
        Some(Mp::ZERO)
    );
    // a table where a number is expected names its keys
    let e = compile_err(|d| {
        d["hexsides"]["major_river"] =
            json!({ "unless": ["causeway"], "then": { "unless": ["sea"] } })
    });
    assert_eq!(e, "hexsides.major_river.then: expected a cost or \"prohibited\" ('unless' applies to hexsides only), found a table with keys unless");
}

/// An empty Lua table arrives as an empty list or an empty object: where a table goes, an empty
/// list is no keys, any other list is refused; where a list of names goes, an empty object is no
/// names, any other table is refused, and its keys are named.
#[test]
fn an_empty_lua_table_is_no_keys_or_no_names_and_other_shapes_are_named() {
    let m = map(&[". f ."], "");
    // (a declaration whose names are all on the map: it needs no vocabulary)
    let minimal = json!({ "sides": ["blue", "red"], "classes": ["foot"], "terrain": { "clear": 1, "marsh": 2, "forest": 2, "hills": 1, "wooded_hills": 2, "mountains": 3, "major_city": 1, "sea": "prohibited" } });
    let ok = |vocabulary: Value| {
        let mut d = minimal.clone();
        d["vocabulary"] = vocabulary;
        PathRules::compile(&d, &m).map(|_| ())
    };
    assert_eq!(ok(json!([])), Ok(()));
    assert_eq!(ok(json!({ "hexsides": {}, "zones": [] })), Ok(()));
    assert_eq!(
        compile_err(|d| d["vocabulary"] = json!(["swamp"])),
        "vocabulary: expected a table, found a list"
    );
    assert_eq!(
        compile_err(|d| d["vocabulary"]["hexsides"] = json!({ "dyke": true })),
        "vocabulary.hexsides: expected a list of names, found a table with keys dyke"
    );
    assert_eq!(
        compile_err(|d| d["vocabulary"]["hexsides"] = json!(["dyke", {}])),
        "vocabulary.hexsides[2]: expected a name, found an empty table"
    );
}

/// A cost is at most 4096 MP: 4096 itself is taken, the next 64th above it refused.
#[test]
fn a_cost_of_4096_mp_is_the_largest_taken() {
    let m = map(&[". . ."], "");
    let mut d = f40();
    d["terrain"]["clear"] = json!(4096);
    assert!(PathRules::compile(&d, &m).is_ok());
    assert_eq!(
        compile_err(|d| d["terrain"]["clear"] = json!(4096.015625)),
        "terrain.clear: expected a cost in MP (a number from 0 to 4096, a multiple of 1/64), \
         found the number 4096.015625"
    );
}

/// A unit selector (`zoc.except`, `supply.always_supplied`, `rail.excluded`, ...): any listed
/// key matching, or with `match = "all"` every listed key; `{}` and `{ match = "all" }` match
/// none. Each key is tried alone and, under "all", as the one key that fails.
#[test]
fn a_unit_selector_matches_any_listed_key_or_with_match_all_every_one() {
    use crate::path::UnitSelector;
    let mut u = unit("p", "german", "infantry", "0101");
    u.size = "III".into();
    u.status.insert("disrupted".into());
    u.attrs.insert("para".into(), json!(true));
    let matches = |v: Value| UnitSelector::parse(Some(&v), "sel").unwrap().matches(&u);
    let keys = [
        ("status", "disrupted", "broken"),
        ("size", "III", "XX"),
        ("type", "infantry", "armor"),
        ("nation", "german", "french"),
        ("flags", "para", "mountain"),
    ];
    assert!(!matches(json!({})));
    assert!(!matches(json!({ "match": "all" })));
    assert!(!matches(json!([])));
    let missing: serde_json::Map<String, Value> = keys
        .iter()
        .map(|(k, _, no)| (k.to_string(), json!([no])))
        .collect();
    assert!(!matches(Value::Object(missing.clone())), "no key matches");
    for (key, yes, no) in keys {
        assert!(matches(json!({ key: [yes] })), "{key} alone");
        assert!(!matches(json!({ key: [no] })), "{key} alone, not matching");
        assert!(
            matches(json!({ key: [yes], "match": "all" })),
            "{key} alone, all"
        );
        // (any: this key matches and every other misses)
        let mut any = missing.clone();
        any.insert(key.into(), json!([yes]));
        assert!(matches(Value::Object(any)), "{key} among misses");
        // (all: every key matches but this one)
        let mut all: serde_json::Map<String, Value> = keys
            .iter()
            .map(|(k, y, _)| (k.to_string(), json!([y])))
            .collect();
        all.insert("match".into(), json!("all"));
        assert!(matches(Value::Object(all.clone())), "all keys, all");
        all.insert(key.into(), json!([no]));
        assert!(!matches(Value::Object(all)), "all keys but {key}, all");
    }
    assert_eq!(
        UnitSelector::parse(Some(&json!({ "match": "every" })), "sel")
            .unwrap_err()
            .to_string(),
        "sel.match: expected \"any\" or \"all\", found the string \"every\""
    );
}

/// An `unless` cost's `then` and `else` may be the string "prohibited"; any other string is
/// refused as a cost.
#[test]
fn an_unless_cost_takes_prohibited_for_then_and_refuses_other_strings() {
    let m = map(
        &[". . ."],
        "[hexsides]\nmajor_river = [\"0101/0201\"]\ncauseway = [\"0201/0301\"]\n",
    );
    let mut d = f40();
    d["hexsides"]["major_river"] =
        json!({ "unless": ["causeway"], "then": "prohibited", "else": 3 });
    let r = PathRules::compile(&d, &m).unwrap();
    let p = &r.profile;
    let foot = p.class_id("foot").unwrap();
    let bit = |f: &str| 1u32 << m.hexside_feature_id(f).unwrap();
    assert_eq!(
        p.hexside_cost(GERMAN, foot, bit("major_river")),
        Some(Mp::whole(3))
    );
    assert_eq!(
        p.hexside_cost(GERMAN, foot, bit("major_river") | bit("causeway")),
        None
    );
    assert_eq!(
        compile_err(|d| {
            d["hexsides"]["major_river"] = json!({ "unless": ["causeway"], "else": "never" })
        }),
        "hexsides.major_river.else: expected a cost in MP (a number from 0 to 4096, a multiple \
         of 1/64), found the string \"never\""
    );
}

/// A declaration naming only sides, classes and a cost of 1 for each terrain of `map(..)`.
fn bare(sides: &[String], classes: &[String]) -> Value {
    json!({
        "sides": sides, "classes": classes,
        "terrain": { "clear": 1, "marsh": 1, "forest": 1, "hills": 1, "wooded_hills": 1,
                     "mountains": 1, "major_city": 1, "sea": 1 },
    })
}

fn named(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

/// A game has 1 to 8 sides and 1 to 32 movement classes: none, or one more, is refused with
/// how many were found.
#[test]
fn sides_and_classes_number_from_one_to_their_maximum() {
    let m = map(&[". . ."], "");
    let compiled = |sides: usize, classes: usize| {
        PathRules::compile(&bare(&named("s", sides), &named("c", classes)), &m)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    assert_eq!(compiled(1, 1), Ok(()));
    assert_eq!(compiled(8, 32), Ok(()));
    let sides = |found: usize| Err(format!("sides: between 1 and 8 sides (found {found})"));
    assert_eq!(compiled(0, 1), sides(0));
    assert_eq!(compiled(9, 1), sides(9));
    let classes = |found: usize| Err(format!("classes: between 1 and 32 classes (found {found})"));
    assert_eq!(compiled(1, 0), classes(0));
    assert_eq!(compiled(1, 33), classes(33));
}

/// Two profiles are equal when their tables and their sides and classes are: the same
/// declaration compiles to equal profiles; renaming a side or a class alone (the same costs)
/// makes them differ.
#[test]
fn profiles_differ_by_the_names_of_their_sides_and_classes() {
    use crate::path::MovementProfile;
    let m = map(&[". . ."], "");
    let profile = |sides: &[&str], classes: &[&str]| {
        let names = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        MovementProfile::compile(&bare(&names(sides), &names(classes)), &m).unwrap()
    };
    let blue_red = profile(&["blue", "red"], &["foot"]);
    assert_eq!(blue_red, profile(&["blue", "red"], &["foot"]));
    assert!(
        blue_red != profile(&["blue", "green"], &["foot"]),
        "a side renamed"
    );
    assert!(
        blue_red != profile(&["blue", "red"], &["leg"]),
        "a class renamed"
    );
}

/// `check`'s warning: a `unit_class.by_type` entry no unit has, one or two letters from a type
/// the scenario's units have and the list lacks (those units get the default class). Without
/// a default such units have no class at all and are refused, so nothing is listed.
#[test]
fn a_by_type_entry_near_an_unlisted_unit_type_is_a_likely_misspelling() {
    use std::collections::BTreeSet;
    let m = map(&[". . ."], "");
    let types: BTreeSet<&str> = ["armoured", "infantry", "motorized"].into();
    // (`armored` is listed and no unit has it; `motorized` is listed and some have it;
    // `mountain_infantry` is listed, no unit has it, and no unlisted type is near it)
    let r = rules(&m);
    assert_eq!(
        r.profile.misspelt_types(&types),
        vec![("armored".to_string(), "armoured")]
    );
    let mut d = f40();
    d["unit_class"].as_object_mut().unwrap().remove("default");
    let r = PathRules::compile(&d, &m).unwrap();
    assert_eq!(r.profile.misspelt_types(&types), vec![]);
}

/// A zone the vocabulary lets a map lack is refused as misnamed only when the map has a zone
/// near it that the vocabulary does not name itself: `west_prussia`, two letters from
/// `east_prussia`, is a zone of its own when the vocabulary lists both.
#[test]
fn a_map_zone_the_vocabulary_names_is_no_misspelling_of_another() {
    let m = map(&[". . ."], "[zones]\nwest_prussia = [\"0101\"]\n");
    let mut d = f40();
    d["vocabulary"]["zones"] = json!(["germany", "france", "east_prussia", "west_prussia"]);
    let loaded = PathRules::compile(&d, &m)
        .map(|_| ())
        .map_err(|e| e.to_string());
    assert_eq!(loaded, Ok(()));
    d["vocabulary"]["zones"] = json!(["germany", "france", "east_prussia"]);
    assert_eq!(
        PathRules::compile(&d, &m).unwrap_err().to_string(),
        "vocabulary.zones: this map has no zone 'east_prussia' but has 'west_prussia': a \
         misspelling in the map? (the declaration's vocabulary lets a map lack \
         'east_prussia', not misname it)"
    );
}

/// `no_entry_across` takes lists of "enemy_zoc" and "enemy_territory": another word is refused
/// on a map without the feature as on one with it (it was refused only where the map had
/// the feature, so a game loaded on one map and not on another).
#[test]
fn a_bad_no_entry_across_list_is_refused_whether_or_not_the_map_has_the_feature() {
    let expected = "no_entry_across.sea[2]: expected \"enemy_zoc\" or \"enemy_territory\" \
                    (did you mean \"enemy_territory\"?), found the string \"enemy_teritory\"";
    for extra in ["", "[hexsides]\nsea = [\"0101/0201\"]\n"] {
        let m = map(&[". . ."], extra);
        let mut d = f40();
        d["no_entry_across"]["sea"] = json!(["enemy_zoc", "enemy_teritory"]);
        let e = PathRules::compile(&d, &m).unwrap_err().to_string();
        assert_eq!(e, expected, "map with {extra:?}");
    }
}

/// A lone word in place of a `no_entry_across` list is named by its key, and a word near
/// neither of the two gets no suggestion.
#[test]
fn a_lone_bad_no_entry_across_word_is_named_by_its_key_without_a_guess() {
    let m = map(&[". . ."], "");
    let mut d = f40();
    d["no_entry_across"]["sea"] = json!("rivers");
    assert_eq!(
        PathRules::compile(&d, &m).unwrap_err().to_string(),
        "no_entry_across.sea: expected \"enemy_zoc\" or \"enemy_territory\", found the \
         string \"rivers\""
    );
    d["no_entry_across"]["sea"] = json!("enemy_zoc");
    assert!(
        PathRules::compile(&d, &m).is_ok(),
        "a lone good word is a list of one"
    );
}

/// Two `unless` features on one map: each applies only to hexsides that have it. Crossing a
/// major river without a bridge costs the river's 2, not the sea's prohibition as well; a sea
/// hexside pays the sea's rule alone.
#[test]
fn each_unless_hexside_cost_applies_only_where_its_feature_is() {
    let m = map(
        &[". . ."],
        "[hexsides]\nmajor_river = [\"0101/0201\"]\nsea = [\"0201/0301\"]\ncauseway = [\"0201/0301\"]\n",
    );
    let mut d = f40();
    d["hexsides"]["major_river"] = json!({ "unless": ["causeway"], "then": 0, "else": 2 });
    let r = PathRules::compile(&d, &m).unwrap();
    let p = &r.profile;
    let foot = p.class_id("foot").unwrap();
    let bit = |f: &str| 1u32 << m.hexside_feature_id(f).unwrap();
    let (river, sea, causeway) = (bit("major_river"), bit("sea"), bit("causeway"));
    assert_eq!(p.hexside_cost(GERMAN, foot, river), Some(Mp::whole(2)));
    assert_eq!(
        p.hexside_cost(GERMAN, foot, river | causeway),
        Some(Mp::ZERO)
    );
    assert_eq!(p.hexside_cost(GERMAN, foot, sea), None);
    assert_eq!(p.hexside_cost(GERMAN, foot, sea | causeway), Some(Mp::ZERO));
    assert_eq!(p.hexside_cost(GERMAN, foot, sea | river), None);
    assert_eq!(
        p.hexside_cost(ALLIED, foot, sea | river),
        Some(Mp::whole(3))
    );
}
