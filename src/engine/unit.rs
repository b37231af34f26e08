//! A counter on the board.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One unit (counter). Plain data: everything a rule may ask about is here or in `attrs`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Unique within a game, chosen by the scenario (`"7pz"`, `"b1"`).
    pub id: String,
    /// The side that commands the unit (`"german"`, `"allied"`).
    pub side: String,
    /// Nationality, which may differ from side (`"belgian"` units on the Allied side).
    #[serde(default)]
    pub nation: String,
    /// Unit type as the rules name it (`"infantry"`, `"armored"`, `"phalanx"`).
    #[serde(rename = "type")]
    pub kind: String,
    /// Size symbol (`"III"` regiment, `"XX"` division, `"XXX"` corps), or empty.
    #[serde(default)]
    pub size: String,
    /// Movement allowance in movement points.
    #[serde(default)]
    pub ma: f64,
    /// Combat strength.
    #[serde(default)]
    pub strength: f64,
    /// Where the unit stands: a hex label (`"0312"`), an area (`"STP/NC"`), or None off the map.
    #[serde(default)]
    pub at: Option<String>,
    /// Facing index (edge 0..5, or vertex 0..5 for vertex-facing units), when the game uses facing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<u8>,
    /// Status flags (`"disorganized"`, `"isolated"`, ...), kept sorted.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub status: BTreeSet<String>,
    /// Free-form attributes from the scenario (`motorized = true`, `class = "mountain"`).
    #[serde(
        default,
        skip_serializing_if = "Map::is_empty",
        deserialize_with = "super::empty_table::map_or_empty_list"
    )]
    pub attrs: Map<String, Value>,
}

impl Unit {
    pub fn has_status(&self, flag: &str) -> bool {
        self.status.contains(flag)
    }

    /// An attribute read as a boolean (missing = false).
    pub fn flag(&self, key: &str) -> bool {
        self.attrs
            .get(key)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// An attribute read as a string.
    pub fn attr_str(&self, key: &str) -> Option<&str> {
        self.attrs.get(key).and_then(Value::as_str)
    }
}
