//! Events: what happened (past tense). Only `apply` turns them into state (DESIGN.md principle 4),
//! and the list of applied events is the game log and the replay.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A JSON payload shared, not copied, between the event, the log and the state: a rules
/// variable or a custom event's data can be a whole position, and an event is kept in the log,
/// applied to the state and handed back to the caller.
pub type SharedJson = std::sync::Arc<Value>;

use super::unit::Unit;

/// Something that happened in the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", deny_unknown_fields)]
pub enum Event {
    GameStarted {
        scenario: String,
        seed: u64,
    },
    PhaseStarted {
        turn: u32,
        step: u32,
        side: Option<String>,
        phase: String,
    },
    PhaseEnded {
        turn: u32,
        step: u32,
        side: Option<String>,
        phase: String,
    },
    /// A step of the sequence was passed over because the rules had nothing to do in it
    /// (Diplomacy: a retreat phase with no dislodged unit). `phase` is the step's label
    /// (`Game::phase_label`). Sets the current step like `PhaseStarted`; no `PhaseEnded` follows.
    PhaseSkipped {
        turn: u32,
        step: u32,
        side: Option<String>,
        phase: String,
    },
    /// A unit moved; `path` lists every hex entered, the destination last.
    UnitMoved {
        unit: String,
        from: Option<String>,
        to: String,
        path: Vec<String>,
        cost: f64,
    },
    /// A unit entered a hex on its way (one per step of a move; rules may react to it).
    UnitEnteredHex {
        unit: String,
        hex: String,
    },
    /// A unit was eliminated (counts as a loss).
    UnitEliminated {
        unit: String,
        reason: String,
    },
    /// A unit left play without being eliminated (evacuated, surrendered, withdrawn).
    UnitRemoved {
        unit: String,
        reason: String,
    },
    /// A unit entered play (reinforcement, reserve, build).
    UnitPlaced {
        unit: Unit,
    },
    UnitStatusChanged {
        unit: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        add: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        remove: Vec<String>,
    },
    /// A unit now faces `facing`; a two-base unit (TAC-4) also gives its second base's
    /// facing, kept in the unit's `facing2` attribute.
    UnitFacingChanged {
        unit: String,
        facing: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing2: Option<u8>,
    },
    /// A unit's strength, movement allowance or attributes changed (a step loss, a counter
    /// flipped to its reduced side, a mark the rules keep on the unit). What the event leaves
    /// out stays as it was; `attrs` sets the attributes it names, the others stay.
    UnitChanged {
        unit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strength: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ma: Option<f64>,
        #[serde(
            default,
            skip_serializing_if = "serde_json::Map::is_empty",
            deserialize_with = "super::empty_table::map_or_empty_list"
        )]
        attrs: serde_json::Map<String, serde_json::Value>,
    },
    /// A unit changed side or nation (a neutral country joining a side).
    UnitSideChanged {
        unit: String,
        side: String,
    },
    ControlChanged {
        hex: String,
        side: Option<String>,
    },
    /// A hex's terrain or features changed during play (a polder flooded, a fort built):
    /// `terrain` (when given) replaces the hex's, `add` and `remove` change its features.
    HexChanged {
        hex: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        terrain: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        add: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        remove: Vec<String>,
    },
    /// The features of the hexside between two adjacent hexes changed (a bridge blown: the
    /// bridge and the road removed, a wreck added).
    HexsideChanged {
        hexside: [String; 2],
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        add: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        remove: Vec<String>,
    },
    /// A rules variable was set (the rules' own persistent state).
    VarSet {
        key: String,
        value: SharedJson,
    },
    DiceRolled {
        sides: u32,
        value: u32,
    },
    /// A command was refused. It goes to the game log (so a log shows every order given) but
    /// is never applied to the state: a refused command changes nothing.
    CommandRefused {
        side: Option<String>,
        command: super::command::Command,
        rule: String,
        reason: String,
    },
    GameEnded {
        winner: Option<String>,
        #[serde(deserialize_with = "super::empty_table::map_or_empty_list")]
        scores: std::collections::BTreeMap<String, f64>,
        reason: String,
    },
    /// An event the rules defined (`hex.events.emit("CountryInvaded", {...})`); changes nothing
    /// by itself, its handlers react to it.
    Custom {
        name: String,
        data: SharedJson,
    },
}

impl Event {
    /// The names of the engine's own events (every variant's `name` but `Custom`'s): a custom
    /// event may not take one, or the handlers of the real event would receive it.
    pub const ENGINE_NAMES: [&'static str; 20] = [
        "GameStarted",
        "PhaseStarted",
        "PhaseEnded",
        "PhaseSkipped",
        "UnitMoved",
        "UnitEnteredHex",
        "UnitEliminated",
        "UnitRemoved",
        "UnitPlaced",
        "UnitStatusChanged",
        "UnitFacingChanged",
        "UnitChanged",
        "UnitSideChanged",
        "ControlChanged",
        "HexChanged",
        "HexsideChanged",
        "VarSet",
        "DiceRolled",
        "CommandRefused",
        "GameEnded",
    ];

    /// The name handlers subscribe to (`UnitMoved`, or the custom name).
    pub fn name(&self) -> &str {
        match self {
            Event::GameStarted { .. } => "GameStarted",
            Event::PhaseStarted { .. } => "PhaseStarted",
            Event::PhaseEnded { .. } => "PhaseEnded",
            Event::PhaseSkipped { .. } => "PhaseSkipped",
            Event::UnitMoved { .. } => "UnitMoved",
            Event::UnitEnteredHex { .. } => "UnitEnteredHex",
            Event::UnitEliminated { .. } => "UnitEliminated",
            Event::UnitRemoved { .. } => "UnitRemoved",
            Event::UnitPlaced { .. } => "UnitPlaced",
            Event::UnitStatusChanged { .. } => "UnitStatusChanged",
            Event::UnitFacingChanged { .. } => "UnitFacingChanged",
            Event::UnitChanged { .. } => "UnitChanged",
            Event::UnitSideChanged { .. } => "UnitSideChanged",
            Event::ControlChanged { .. } => "ControlChanged",
            Event::HexChanged { .. } => "HexChanged",
            Event::HexsideChanged { .. } => "HexsideChanged",
            Event::VarSet { .. } => "VarSet",
            Event::DiceRolled { .. } => "DiceRolled",
            Event::CommandRefused { .. } => "CommandRefused",
            Event::GameEnded { .. } => "GameEnded",
            Event::Custom { name, .. } => name,
        }
    }
}
