//! `GameState`: everything that changes during a game, as plain serialisable data
//! (DESIGN.md principle 3). Maps are `BTreeMap` so serialisation order never depends on hashing.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use super::dice::Dice;
use super::map_changes::MapChanges;
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

/// How the game ended. (Unknown keys are refused: a victory rule answering `winer = "red"`
/// made a draw.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    pub vars: BTreeMap<String, super::event::SharedJson>,
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// What play changed on the map (`HexChanged`, `HexsideChanged`); left out when nothing.
    #[serde(default, skip_serializing_if = "MapChanges::is_empty")]
    pub map_changes: MapChanges,
    /// Which version of the state this is, for the rules host's caches (never saved, never
    /// compared): see [`Revision`].
    #[serde(skip)]
    pub revision: Revision,
}

impl GameState {
    /// The state of a scenario before its first turn, with no units, control or variables and
    /// the dice seeded: what a ruleset written in Rust starts its game from (set the fields it
    /// needs, then `Game::new` and `start`).
    pub fn new(scenario: impl Into<String>, seed: u64) -> GameState {
        GameState {
            scenario: scenario.into(),
            turn: 0,
            step: 0,
            units: BTreeMap::new(),
            gone: BTreeMap::new(),
            control: BTreeMap::new(),
            dice: Dice::new(seed),
            vars: BTreeMap::new(),
            outcome: None,
            map_changes: MapChanges::default(),
            revision: Revision::default(),
        }
    }

    /// `sha256:` of the state's canonical JSON: equal states, equal hashes, on any machine.
    pub fn hash(&self) -> String {
        // Serialising plain data with BTreeMaps cannot fail; an empty input would still hash.
        let json = serde_json::to_vec(self).unwrap_or_default();
        crate::digest::sha256_of(&json)
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

/// Names one version of a state that a [`Game`](super::Game) holds, and says what changed from
/// one version to the next, so that the rules host's caches need not compare the units and the
/// control map (which costs more than most rule calls) to learn that one unit moved. Only a
/// `Game` gives a state a known revision, and a new one, unique in the process, after every event
/// it applies (with what the event changed) and after a roll-back (with the change list
/// restarted). A game's state is private to it, so nothing else can change a state while it
/// keeps a known revision.
///
/// Every other state is "unknown" (`known()` is None) and the host compares its content: a new,
/// loaded or deserialised state, and any clone (a clone can be changed through its public
/// fields, so it does not inherit the revision). Revisions never take part in equality, hashes
/// or saves.
#[derive(Default)]
pub struct Revision {
    /// Names the state's history under one `Game` (0: unknown).
    lineage: u64,
    /// This version (unique in the process; 0: unknown).
    id: u64,
    /// `changes` lists every change to units or control made after version `floor`.
    floor: u64,
    /// (version the change made, the change), oldest first; at most `CHANGES_KEPT`.
    changes: Vec<(u64, Change)>,
}

/// What an applied event changed, as far as the host's caches care.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Change {
    /// The unit with this id, still in play, changed (moved, status, side, facing).
    Unit(String),
    /// The unit with this id entered or left play.
    Roster(String),
    /// The control of this hex (or area) label changed.
    Control(String),
}

/// Changes a state keeps (the host catches up after every few events; one that falls further
/// behind compares).
const CHANGES_KEPT: usize = 64;

/// The last revision number handed out (0 is "unknown").
static LAST_REVISION: AtomicU64 = AtomicU64::new(0);

fn next_revision() -> u64 {
    LAST_REVISION.fetch_add(1, Ordering::Relaxed) + 1
}

impl Revision {
    /// The version, when a `Game` vouches for this state; None otherwise.
    pub fn known(&self) -> Option<u64> {
        (self.id != 0).then_some(self.id)
    }

    /// (lineage, version) of a known revision.
    pub(crate) fn position(&self) -> Option<(u64, u64)> {
        (self.id != 0).then_some((self.lineage, self.id))
    }

    /// The changes made to this state since it was at `position` (as `position()` gave it), in
    /// order; None when that is not known (another history, or too long ago).
    pub(crate) fn changes_since(&self, position: (u64, u64)) -> Option<&[(u64, Change)]> {
        let (lineage, id) = position;
        if self.id == 0 || lineage != self.lineage || id < self.floor || id > self.id {
            return None;
        }
        let first = self.changes.partition_point(|(v, _)| *v <= id);
        Some(&self.changes[first..])
    }

    /// A new history: the state is now held by a `Game` (or was rolled back), and nothing is
    /// known about how it came to be.
    pub(crate) fn restart(&mut self) {
        self.lineage = next_revision();
        self.id = next_revision();
        self.floor = self.id;
        self.changes.clear();
    }

    /// A new version after `event` was applied.
    pub(crate) fn applied(&mut self, event: &super::Event) {
        use super::Event as E;
        let change = match event {
            E::UnitMoved { unit, .. }
            | E::UnitStatusChanged { unit, .. }
            | E::UnitFacingChanged { unit, .. }
            | E::UnitChanged { unit, .. }
            | E::UnitSideChanged { unit, .. } => Some(Change::Unit(unit.clone())),
            E::UnitEliminated { unit, .. } | E::UnitRemoved { unit, .. } => {
                Some(Change::Roster(unit.clone()))
            }
            E::UnitPlaced { unit } => Some(Change::Roster(unit.id.clone())),
            E::ControlChanged { hex, .. } => Some(Change::Control(hex.clone())),
            E::GameStarted { .. }
            | E::PhaseStarted { .. }
            | E::PhaseEnded { .. }
            | E::PhaseSkipped { .. }
            | E::UnitEnteredHex { .. }
            | E::VarSet { .. }
            | E::HexChanged { .. }
            | E::HexsideChanged { .. }
            | E::DiceRolled { .. }
            | E::GameEnded { .. }
            | E::CommandRefused { .. }
            | E::Custom { .. } => None,
        };
        if self.id == 0 {
            self.restart();
        }
        self.id = next_revision();
        if let Some(change) = change {
            if self.changes.len() >= CHANGES_KEPT {
                let dropped = self.changes.len() / 2;
                self.floor = self.changes[dropped - 1].0;
                self.changes.drain(..dropped);
            }
            self.changes.push((self.id, change));
        }
    }
}

impl Clone for Revision {
    /// A copy may be changed by anyone: its revision is unknown.
    fn clone(&self) -> Self {
        Revision::default()
    }
}

impl PartialEq for Revision {
    /// Not part of a state's value.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Revision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.known() {
            Some(r) => write!(f, "Revision({r})"),
            None => f.write_str("Revision(unknown)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Event;

    fn control(hex: &str) -> Event {
        Event::ControlChanged {
            hex: hex.into(),
            side: Some("red".into()),
        }
    }

    #[test]
    fn a_revision_lists_the_changes_since_a_version_while_it_keeps_them() {
        let mut r = Revision::default();
        assert_eq!(r.position(), None);
        r.restart();
        let start = r.position().unwrap();
        assert_eq!(r.changes_since(start).map(<[_]>::len), Some(0));
        r.applied(&Event::VarSet {
            key: "k".into(),
            value: serde_json::json!(1).into(),
        });
        let after_var = r.position().unwrap();
        assert_ne!(after_var, start);
        assert_eq!(r.changes_since(start).map(<[_]>::len), Some(0));
        r.applied(&Event::UnitMoved {
            unit: "u".into(),
            from: None,
            to: "0101".into(),
            path: vec!["0101".into()],
            cost: 1.0,
        });
        r.applied(&control("0102"));
        r.applied(&Event::UnitEliminated {
            unit: "u".into(),
            reason: "combat".into(),
        });
        let changes: Vec<Change> = r
            .changes_since(start)
            .unwrap()
            .iter()
            .map(|(_, c)| c.clone())
            .collect();
        assert_eq!(
            changes,
            [
                Change::Unit("u".into()),
                Change::Control("0102".into()),
                Change::Roster("u".into())
            ]
        );
        for i in 0..CHANGES_KEPT {
            r.applied(&control(&format!("{:04}", i)));
        }
        // too long ago: the cache must compare
        assert_eq!(r.changes_since(start), None);
        let recent = r.position().unwrap();
        for i in 0..3 {
            r.applied(&control(&format!("{:04}", i)));
        }
        assert_eq!(r.changes_since(recent).map(<[_]>::len), Some(3));
        // another history
        assert_eq!(r.changes_since((recent.0 + 1_000_000, recent.1)), None);
        // a roll-back starts over
        r.restart();
        assert_eq!(r.changes_since(recent), None);
        assert_eq!(r.clone().position(), None);
    }

    fn unit(id: &str, side: &str, at: Option<&str>) -> Unit {
        Unit {
            id: id.into(),
            side: side.into(),
            nation: side.into(),
            kind: "infantry".into(),
            size: String::new(),
            ma: 4.0,
            strength: 3.0,
            at: at.map(String::from),
            facing: None,
            status: Default::default(),
            attrs: serde_json::Map::new(),
        }
    }

    fn three_units() -> GameState {
        let mut state = GameState::new("t", 1);
        for u in [
            unit("b1", "blue", Some("0101")),
            unit("a1", "red", Some("0101")),
            unit("a2", "red", None),
        ] {
            state.units.insert(u.id.clone(), u);
        }
        state
    }

    fn ids<'a>(units: impl Iterator<Item = &'a Unit>) -> Vec<&'a str> {
        units.map(|u| u.id.as_str()).collect()
    }

    /// `units_at` gives the units standing at a location, in id order, and none elsewhere.
    #[test]
    fn units_at_gives_the_units_standing_there_in_id_order() {
        let state = three_units();
        assert_eq!(ids(state.units_at("0101")), ["a1", "b1"]);
        assert!(ids(state.units_at("0102")).is_empty());
    }

    /// `units_of_side` gives a side's units, on the map or off it, in id order.
    #[test]
    fn units_of_side_gives_that_sides_units_in_id_order() {
        let state = three_units();
        assert_eq!(ids(state.units_of_side("red")), ["a1", "a2"]);
        assert_eq!(ids(state.units_of_side("blue")), ["b1"]);
        assert!(ids(state.units_of_side("green")).is_empty());
    }

    /// When old changes are dropped, the version of the last dropped change is still caught up
    /// from (every change after it is kept), and one before it is not.
    #[test]
    fn dropping_old_changes_keeps_every_change_after_the_floor() {
        let mut r = Revision::default();
        r.restart();
        let mut positions = vec![];
        for i in 0..=CHANGES_KEPT {
            r.applied(&control(&format!("{i:04}")));
            positions.push(r.position().unwrap());
        }
        // CHANGES_KEPT + 1 changes: the first half of the CHANGES_KEPT kept was dropped.
        let dropped = CHANGES_KEPT / 2;
        let kept = CHANGES_KEPT + 1 - dropped;
        assert_eq!(
            r.changes_since(positions[dropped - 1]).map(<[_]>::len),
            Some(kept)
        );
        assert_eq!(r.changes_since(positions[dropped - 2]), None);
        assert_eq!(
            r.changes_since(positions[dropped]).map(<[_]>::len),
            Some(kept - 1)
        );
    }

    /// A revision that is unknown answers no position, whatever is asked.
    #[test]
    fn an_unknown_revision_lists_no_changes() {
        let r = Revision::default();
        assert_eq!(r.known(), None);
        assert_eq!(r.changes_since((0, 0)), None);
        let mut known = Revision::default();
        known.restart();
        let (lineage, _) = known.position().unwrap();
        assert_eq!(r.changes_since((lineage, 0)), None);
    }

    /// `known` gives the version a `Game` vouches for: the one `position` names, new after
    /// every applied event.
    #[test]
    fn a_known_revision_is_its_current_version() {
        let mut r = Revision::default();
        r.restart();
        let first = r.known().unwrap();
        assert_eq!(r.position().map(|(_, id)| id), Some(first));
        r.applied(&control("0101"));
        let second = r.known().unwrap();
        assert!(second > first, "{second} after {first}");
        assert_eq!(r.position().map(|(_, id)| id), Some(second));
    }

    /// A revision shows as its version, or as unknown (a state's Debug output shows it).
    #[test]
    fn a_revision_shows_its_version_or_unknown() {
        let mut r = Revision::default();
        assert_eq!(format!("{r:?}"), "Revision(unknown)");
        r.restart();
        let id = r.known().unwrap();
        assert_eq!(format!("{r:?}"), format!("Revision({id})"));
    }
}
