//! Map changes checked against the map and the names the rules know: a script's `HexChanged`
//! and `HexsideChanged` events as it returns them, and a resumed save's `map_changes`, which
//! anyone can edit and seal again. A misspelt name would otherwise be a new feature that costs
//! nothing to cross (`rivr`), a removal that removes nothing, or a terrain the movement table
//! has no cost for, failing at some later call of some other script.

use crate::board::{Board, HexMap};
use crate::engine::{hexside_key, hexside_labels, Event, MapChanges};
use crate::path::PathRules;
use crate::scenario::Fit;

/// The names a map change may use: those of the map (the map in force for an event, the
/// scenario's for a save) and those the movement declaration's `vocabulary` lists.
pub(crate) struct MapNames<'a> {
    pub map: &'a HexMap,
    pub path: Option<&'a PathRules>,
}

/// What one place's change says: its hexes (one, or a hexside's two), a new terrain, the
/// features added and removed.
struct PlaceChange<'a> {
    hexes: Vec<&'a str>,
    terrain: Option<&'a str>,
    add: Vec<&'a str>,
    remove: Vec<&'a str>,
}

const AREA_MAP: &str =
    "this scenario's map is an area map: only a hex map's hexes and hexsides change during play";

/// A `HexChanged` or `HexsideChanged` event, checked; other events pass.
pub(crate) fn check_map_change(
    board: &Board,
    names: Option<&MapNames>,
    event: &Event,
) -> Result<(), String> {
    let change = match event {
        Event::HexChanged {
            hex,
            terrain,
            add,
            remove,
        } => PlaceChange {
            hexes: vec![hex],
            terrain: terrain.as_deref(),
            add: add.iter().map(String::as_str).collect(),
            remove: remove.iter().map(String::as_str).collect(),
        },
        Event::HexsideChanged {
            hexside,
            add,
            remove,
        } => PlaceChange {
            hexes: hexside.iter().map(String::as_str).collect(),
            terrain: None,
            add: add.iter().map(String::as_str).collect(),
            remove: remove.iter().map(String::as_str).collect(),
        },
        _ => return Ok(()),
    };
    let names = names.ok_or(AREA_MAP)?;
    check_place(board, names, &change)?;
    if change.terrain.is_none() && change.add.is_empty() && change.remove.is_empty() {
        return Err(format!(
            "changes nothing: give {}add or remove",
            if change.hexes.len() == 2 {
                ""
            } else {
                "terrain, "
            }
        ));
    }
    Ok(())
}

/// A state's `map_changes` (a resumed save's), checked place by place as the events that
/// made them were; the error names the place.
pub(crate) fn check_map_changes(
    board: &Board,
    names: Option<&MapNames>,
    changes: &MapChanges,
) -> Result<(), String> {
    if changes.is_empty() {
        return Ok(());
    }
    let names = names.ok_or(AREA_MAP)?;
    for (hex, change) in &changes.hexes {
        let place = PlaceChange {
            hexes: vec![hex],
            terrain: change.terrain.as_deref(),
            add: change.features.add.iter().map(String::as_str).collect(),
            remove: change.features.remove.iter().map(String::as_str).collect(),
        };
        check_place(board, names, &place)
            .map_err(|why| format!("map_changes.hexes.{hex}: {why}"))?;
    }
    for (key, change) in &changes.hexsides {
        let at = |why: String| format!("map_changes.hexsides.{key}: {why}");
        let (a, b) = hexside_labels(key).ok_or_else(|| at("not two hexes 'A/B'".into()))?;
        // (one key per hexside: the same one written both ways held two changes)
        if *key != hexside_key(a, b) {
            return Err(at(format!("write it '{}'", hexside_key(a, b))));
        }
        let place = PlaceChange {
            hexes: vec![a, b],
            terrain: None,
            add: change.add.iter().map(String::as_str).collect(),
            remove: change.remove.iter().map(String::as_str).collect(),
        };
        check_place(board, names, &place).map_err(at)?;
    }
    Ok(())
}

/// One place's change: its hexes on the map by their own labels (a hexside's adjacent), each
/// name known, no name both added and removed.
fn check_place(board: &Board, names: &MapNames, change: &PlaceChange) -> Result<(), String> {
    let fit = Fit { board, sides: &[] };
    let hexside = change.hexes.len() == 2;
    for hex in &change.hexes {
        fit.place(hex, if hexside { "hexside" } else { "hex" })?;
    }
    if let [a, b] = change.hexes[..] {
        if let (Some(ia), Some(ib)) = (names.map.parse_label(a), names.map.parse_label(b)) {
            if names
                .map
                .hex(ia)
                .neighbor_direction(names.map.hex(ib))
                .is_none()
            {
                return Err(format!("hexside: {a} and {b} are not adjacent"));
            }
        }
    }
    if let Some(both) = change.add.iter().find(|name| change.remove.contains(name)) {
        return Err(format!("'{both}' is both added and removed"));
    }
    let vocabulary = |absent: fn(&PathRules) -> &[String]| -> Vec<String> {
        names.path.map(|p| absent(p).to_vec()).unwrap_or_default()
    };
    let known_or = |kind: &str, name: &str, on_map: &[String], absent: Vec<String>, key: &str| {
        let mut known = on_map.to_vec();
        known.extend(absent);
        if known.iter().any(|k| k == name) {
            return Ok(());
        }
        Err(format!(
            "{}; one the map lacks is named in the movement declaration's vocabulary.{key}",
            crate::spelling::unknown_name(kind, name, &known, "the map and the vocabulary have")
        ))
    };
    if let Some(terrain) = change.terrain {
        known_or(
            "terrain",
            terrain,
            names.map.terrain_names(),
            vocabulary(|p| &p.profile.vocab.absent_terrain),
            "terrain",
        )?;
    }
    if hexside {
        for feature in change.add.iter().chain(&change.remove) {
            known_or(
                "hexside feature",
                feature,
                names.map.hexside_feature_names(),
                vocabulary(|p| &p.profile.vocab.absent_hexsides),
                "hexsides",
            )?;
        }
        return Ok(());
    }
    let on_map = names.map.feature_names();
    if change.add.iter().any(|f| f.is_empty()) {
        return Err("add: '' is no feature name".into());
    }
    // (a new hex feature, a fort, may be any name the map has nowhere yet, but not one a letter
    // or two off one it has: `twon` would be a town no rule counts)
    for feature in &change.add {
        if !on_map.iter().any(|f| f == feature) {
            if let Some(near) =
                crate::spelling::nearest(feature, on_map.iter().map(String::as_str), 3)
            {
                return Err(format!(
                    "add: hex feature '{feature}' is one or two letters off '{near}', which the map has: a misspelling? (a new feature's name is one no hex has yet; the map has: {})",
                    on_map.join(", ")
                ));
            }
        }
    }
    // (a feature the map has nowhere cannot be removed: a misspelt name would do nothing)
    if let Some(unknown) = change
        .remove
        .iter()
        .find(|f| !on_map.iter().any(|k| k == *f))
    {
        return Err(format!(
            "remove: {}",
            crate::spelling::unknown_name("hex feature", unknown, on_map, "the map has")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::json;

    use super::{check_map_change, check_map_changes, MapNames};
    use crate::board::load_board;
    use crate::engine::{Event, MapChanges};

    /// Area maps have no hexes or hexsides to change: the events are refused there.
    #[test]
    fn a_map_change_on_an_area_map_is_refused() {
        let board = load_board(Path::new("scenarios/diplomacy/map.toml")).expect("the map loads");
        let event: Event =
            serde_json::from_value(json!({"event": "HexChanged", "hex": "PAR", "add": ["fort"]}))
                .expect("a well-formed event");
        assert_eq!(
            check_map_change(&board, None, &event),
            Err("this scenario's map is an area map: only a hex map's hexes and hexsides change during play".into())
        );
    }

    /// A save's map changes are checked as the events were, naming the place; a hexside key
    /// must be written lower label first (one key per hexside).
    #[test]
    fn a_saves_map_changes_are_named_where_they_are_wrong() {
        let board = load_board(Path::new("scenarios/demo/map.toml")).expect("the map loads");
        let map = board.as_hex().expect("a hex map");
        let names = MapNames { map, path: None };
        let cases = [
            (
                json!({"hexes": {"0304": {"terrain": "swamp"}}}),
                "map_changes.hexes.0304: unknown terrain 'swamp' (the map and the vocabulary have: clear, forest, hills, lake, marsh); one the map lacks is named in the movement declaration's vocabulary.terrain",
            ),
            (
                json!({"hexsides": {"0504/0604": {"remove": ["rivr"]}}}),
                "map_changes.hexsides.0504/0604: unknown hexside feature 'rivr': did you mean 'river'? (the map and the vocabulary have: river); one the map lacks is named in the movement declaration's vocabulary.hexsides",
            ),
            (
                json!({"hexsides": {"0604/0504": {"remove": ["river"]}}}),
                "map_changes.hexsides.0604/0504: write it '0504/0604'",
            ),
            (
                json!({"hexes": {"0304": {"add": ["twon"]}}}),
                "map_changes.hexes.0304: add: hex feature 'twon' is one or two letters off 'town', which the map has: a misspelling? (a new feature's name is one no hex has yet; the map has: city, town)",
            ),
            (
                json!({"hexes": {"0304": {"add": ["fort"], "remove": ["fort"]}}}),
                "map_changes.hexes.0304: 'fort' is both added and removed",
            ),
        ];
        for (changes, expected) in cases {
            let changes: MapChanges = serde_json::from_value(changes).expect("well-formed");
            assert_eq!(
                check_map_changes(&board, Some(&names), &changes),
                Err(expected.to_string())
            );
        }
        let fine: MapChanges =
            serde_json::from_value(json!({"hexes": {"0304": {"add": ["fort"]}}})).unwrap();
        assert_eq!(check_map_changes(&board, Some(&names), &fine), Ok(()));
    }
}
