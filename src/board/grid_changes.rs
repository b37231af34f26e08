//! The map in force: the scenario's map with what play changed on it (the state's
//! `MapChanges`: a bridge blown, a fort built) laid over it. The rules host searches and
//! answers `hex.map` on this map; `render` draws it.

use super::grid::{HexIndex, HexMap};
use crate::engine::{hexside_labels, MapChanges};

impl HexMap {
    /// This map with `changes` laid over it; the error names the first place that is not on
    /// it (a hand-edited save) or a change the map cannot hold (a 65th kind of feature).
    pub fn with_changes(&self, changes: &MapChanges) -> Result<HexMap, String> {
        let mut map = self.clone();
        for (label, change) in &changes.hexes {
            let index = self.own_label(label)?;
            let at = |why: String| format!("map change at {label}: {why}");
            if let Some(terrain) = &change.terrain {
                map.set_terrain_of(index, terrain).map_err(at)?;
            }
            for feature in &change.features.remove {
                map.remove_feature(index, feature);
            }
            for feature in &change.features.add {
                map.add_feature(index, feature).map_err(at)?;
            }
        }
        for (key, change) in &changes.hexsides {
            let (a, b) = hexside_labels(key)
                .ok_or_else(|| format!("map change at hexside '{key}': not two hexes 'A/B'"))?;
            let (ia, ib) = (self.own_label(a)?, self.own_label(b)?);
            let at = |why: String| format!("map change at hexside {key}: {why}");
            for feature in &change.remove {
                map.remove_hexside_feature(ia, ib, feature).map_err(at)?;
            }
            for feature in &change.add {
                map.add_hexside_feature(ia, ib, feature).map_err(at)?;
            }
        }
        Ok(map)
    }

    /// The index of a hex named by its own label (`0304`, not another spelling of it).
    fn own_label(&self, label: &str) -> Result<HexIndex, String> {
        self.parse_label(label)
            .filter(|&index| self.label(index) == label)
            .ok_or_else(|| {
                format!(
                    "map change at '{label}': not a hex of the map{}",
                    self.labels_hint()
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::board::load_map;
    use crate::engine::{Event, MapChanges};

    fn changes(events: &[Event]) -> MapChanges {
        let mut changes = MapChanges::default();
        events.iter().for_each(|e| changes.record(e));
        changes
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_changed_map_has_the_new_features_and_terrain_and_the_rest_as_it_was() {
        let map = load_map(Path::new("scenarios/demo/map.toml")).expect("the demo map loads");
        let (a, b) = (
            map.parse_label("0504").unwrap(),
            map.parse_label("0604").unwrap(),
        );
        assert_eq!(map.hexside_features(a, b), ["river"]);
        let changed = map
            .with_changes(&changes(&[
                Event::HexsideChanged {
                    hexside: ["0604".into(), "0504".into()],
                    add: names(&["wreck"]),
                    remove: names(&["river"]),
                },
                Event::HexChanged {
                    hex: "0101".into(),
                    terrain: Some("flooded".into()),
                    add: names(&["fort"]),
                    remove: vec![],
                },
            ]))
            .expect("the changes fit the map");
        assert_eq!(changed.hexside_features(a, b), ["wreck"]);
        assert_eq!(changed.hexside_features(b, a), ["wreck"]);
        let hex = map.parse_label("0101").unwrap();
        assert_eq!(changed.terrain_name(hex), "flooded");
        assert_eq!(changed.features_of(hex), ["fort"]);
        let (c, d) = (
            map.parse_label("0505").unwrap(),
            map.parse_label("0604").unwrap(),
        );
        assert_eq!(changed.hexside_features(c, d), map.hexside_features(c, d));
        let other = map.parse_label("0102").unwrap();
        assert_eq!(changed.terrain_name(other), map.terrain_name(other));
        // the map itself is as it was
        assert_eq!(map.hexside_features(a, b), ["river"]);
        assert_eq!(map.terrain_name(hex), "clear");
    }

    #[test]
    fn a_change_off_the_map_or_across_no_hexside_is_named() {
        let map = load_map(Path::new("scenarios/demo/map.toml")).expect("the demo map loads");
        let off = changes(&[Event::HexChanged {
            hex: "9999".into(),
            terrain: Some("clear".into()),
            add: vec![],
            remove: vec![],
        }]);
        assert_eq!(
            map.with_changes(&off).err().as_deref(),
            Some("map change at '9999': not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)")
        );
        let apart = changes(&[Event::HexsideChanged {
            hexside: ["0101".into(), "0505".into()],
            add: names(&["river"]),
            remove: vec![],
        }]);
        assert_eq!(
            map.with_changes(&apart).err().as_deref(),
            Some("map change at hexside 0101/0505: the two hexes are not adjacent")
        );
    }
}
