//! The board as play changed it (a bridge blown, a fort built, a polder flooded): an overlay
//! over the scenario's map kept in the state, so that saves, undo, replays and resumed games
//! all carry it. The engine only records it (`HexChanged`, `HexsideChanged`); the rules host
//! lays it over the scenario's map to get the map in force (board/grid_changes.rs).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::Event;

/// What play changed on the map, by place. Empty in most games (and then left out of saves).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapChanges {
    /// Hex label -> its new terrain and the features added and removed there.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hexes: BTreeMap<String, HexChange>,
    /// Hexside key (`hexside_key`: the two labels, lower first, `/` between) -> the features
    /// added and removed there.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hexsides: BTreeMap<String, FeatureChange>,
}

/// A hex as play changed it: a new terrain (None: the scenario's) and its features.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexChange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<String>,
    #[serde(flatten)]
    pub features: FeatureChange,
}

/// Features added to and removed from a place, over the scenario's. A name is in one list at
/// most: the later event wins.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureChange {
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub add: BTreeSet<String>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub remove: BTreeSet<String>,
}

impl FeatureChange {
    fn record(&mut self, add: &[String], remove: &[String]) {
        for name in remove {
            self.add.remove(name);
            self.remove.insert(name.clone());
        }
        for name in add {
            self.remove.remove(name);
            self.add.insert(name.clone());
        }
    }
}

impl MapChanges {
    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty() && self.hexsides.is_empty()
    }

    /// Records a `HexChanged` or `HexsideChanged` event; other events change nothing here.
    pub(crate) fn record(&mut self, event: &Event) {
        match event {
            Event::HexChanged {
                hex,
                terrain,
                add,
                remove,
            } => {
                let change = self.hexes.entry(hex.clone()).or_default();
                if terrain.is_some() {
                    change.terrain.clone_from(terrain);
                }
                change.features.record(add, remove);
            }
            Event::HexsideChanged {
                hexside,
                add,
                remove,
            } => self
                .hexsides
                .entry(hexside_key(&hexside[0], &hexside[1]))
                .or_default()
                .record(add, remove),
            _ => {}
        }
    }
}

/// The key of the hexside between two hexes, the same whichever hex is named first.
pub fn hexside_key(a: &str, b: &str) -> String {
    let (low, high) = if a <= b { (a, b) } else { (b, a) };
    format!("{low}/{high}")
}

/// The two labels of a hexside key; None for a key `hexside_key` did not make.
pub fn hexside_labels(key: &str) -> Option<(&str, &str)> {
    key.split_once('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_hexside_is_one_entry_whichever_hex_comes_first_and_the_later_event_wins() {
        let mut changes = MapChanges::default();
        changes.record(&Event::HexsideChanged {
            hexside: ["0405".into(), "0304".into()],
            add: names(&["wreck"]),
            remove: names(&["bridge", "road"]),
        });
        changes.record(&Event::HexsideChanged {
            hexside: ["0304".into(), "0405".into()],
            add: names(&["bridge"]),
            remove: vec![],
        });
        assert_eq!(
            serde_json::to_value(&changes).unwrap(),
            serde_json::json!({"hexsides": {"0304/0405": {"add": ["bridge", "wreck"], "remove": ["road"]}}})
        );
    }

    #[test]
    fn a_hex_change_keeps_what_a_later_one_leaves_out() {
        let mut changes = MapChanges::default();
        changes.record(&Event::HexChanged {
            hex: "0101".into(),
            terrain: Some("marsh".into()),
            add: vec![],
            remove: vec![],
        });
        changes.record(&Event::HexChanged {
            hex: "0101".into(),
            terrain: None,
            add: names(&["fort"]),
            remove: names(&["town"]),
        });
        assert_eq!(
            serde_json::to_value(&changes).unwrap(),
            serde_json::json!({"hexes": {"0101": {"terrain": "marsh", "add": ["fort"], "remove": ["town"]}}})
        );
        assert!(MapChanges::default().is_empty());
    }

    /// A change to hexes alone, or to hexsides alone, is a change: a state holding it saves it.
    #[test]
    fn map_changes_to_hexes_alone_or_hexsides_alone_are_not_empty() {
        let mut hexes = MapChanges::default();
        hexes.record(&Event::HexChanged {
            hex: "0101".into(),
            terrain: Some("marsh".into()),
            add: vec![],
            remove: vec![],
        });
        assert!(!hexes.is_empty());
        let mut hexsides = MapChanges::default();
        hexsides.record(&Event::HexsideChanged {
            hexside: ["0101".into(), "0102".into()],
            add: vec![],
            remove: names(&["bridge"]),
        });
        assert!(!hexsides.is_empty());
    }

    /// Events other than `HexChanged` and `HexsideChanged` leave the map's changes as they are.
    #[test]
    fn other_events_change_nothing_on_the_map() {
        let mut changes = MapChanges::default();
        changes.record(&Event::ControlChanged {
            hex: "0101".into(),
            side: Some("red".into()),
        });
        assert_eq!(changes, MapChanges::default());
    }

    /// A hexside key reads back as its two labels, lower first, whichever came first; a key
    /// without `/` is no hexside's.
    #[test]
    fn a_hexside_key_reads_back_as_its_two_labels() {
        assert_eq!(hexside_key("0405", "0304"), "0304/0405");
        assert_eq!(hexside_key("0304", "0405"), "0304/0405");
        assert_eq!(hexside_labels("0304/0405"), Some(("0304", "0405")));
        assert_eq!(hexside_labels("0304"), None);
    }
}
