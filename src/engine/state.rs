//! `GameState`: everything that changes during a game, as plain serialisable data
//! (DESIGN.md principle 3). Maps are `BTreeMap` so serialisation order never depends on hashing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::dice::Dice;
use super::unit::Unit;

/// A unit that left play, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoneUnit {
    pub unit: Unit,
    /// `eliminated`, or the reason it was removed (`evacuated`, `surrendered`, ...).
    pub reason: String,
    pub eliminated: bool,
    pub turn: u32,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<String>,
    pub scores: BTreeMap<String, f64>,
    pub reason: String,
}

/// The whole changing state of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// Scenario id this state belongs to.
    pub scenario: String,
    pub turn: u32,
    /// Index of the current step in the turn's sequence.
    pub step: u32,
    pub units: BTreeMap<String, Unit>,
    #[serde(default)]
    pub gone: BTreeMap<String, GoneUnit>,
    /// Hex (or area) label -> controlling side.
    #[serde(default)]
    pub control: BTreeMap<String, String>,
    pub dice: Dice,
    /// The rules' own persistent variables (`hex.state.get`/`VarSet`).
    #[serde(default)]
    pub vars: Map<String, Value>,
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

impl GameState {
    /// `sha256:` of the state's canonical JSON: equal states, equal hashes, on any machine.
    pub fn hash(&self) -> String {
        use sha2::{Digest, Sha256};
        // Serialising plain data with BTreeMaps cannot fail; an empty input would still hash.
        let json = serde_json::to_vec(self).unwrap_or_default();
        let digest = Sha256::digest(&json);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        format!("sha256:{hex}")
    }

    /// Units standing at a location, in id order.
    pub fn units_at<'a>(&'a self, at: &'a str) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units
            .values()
            .filter(move |u| u.at.as_deref() == Some(at))
    }

    pub fn units_of_side<'a>(&'a self, side: &'a str) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units.values().filter(move |u| u.side == side)
    }
}
