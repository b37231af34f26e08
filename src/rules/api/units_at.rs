//! The units of each place, for `hex.units.at`: a listing that asks it once per hex it
//! examines made the call a walk over every unit in the game, so a 1 000-unit game spent its
//! time in listings that grew with the square of the units. The index is built from the third
//! call at one position on (a `Game`'s revision; a state no game vouches for, once per call
//! into Lua): a game that asks a couple of places per position keeps the plain walk, which
//! costs less than building the index. Once built on a game's state, the index follows the
//! revision's changes from one position to the next (the units moved, placed or gone), so a
//! game that asks many places after every move builds it once.

use std::collections::HashMap;

use crate::engine::{Change, GameState};

/// Calls at one position answered by a walk before the index is built.
const WALKS_BEFORE_INDEX: u32 = 2;

/// What one position's calls found, and the index once built.
pub(crate) struct UnitsAt {
    /// The position: the revision a `Game` vouches for, else the call into Lua.
    key: Key,
    calls: u32,
    index: Option<Index>,
}

/// The units of each place, and the place of each unit (to follow a unit that moves).
struct Index {
    /// place -> the ids of the units there, in id order.
    at: HashMap<String, Vec<String>>,
    /// id -> its place, for the units on the map.
    place_of: HashMap<String, String>,
}

impl Index {
    fn build(state: &GameState) -> Index {
        let mut index = Index {
            at: HashMap::new(),
            place_of: HashMap::new(),
        };
        for u in state.units.values() {
            if let Some(at) = &u.at {
                index.at.entry(at.clone()).or_default().push(u.id.clone());
                index.place_of.insert(u.id.clone(), at.clone());
            }
        }
        index
    }

    /// Puts unit `id` where `state` has it (nowhere when it is off the map or out of play).
    fn follow(&mut self, state: &GameState, id: &str) {
        let now = state.units.get(id).and_then(|u| u.at.as_deref());
        if self.place_of.get(id).map(String::as_str) == now {
            return;
        }
        if let Some(old) = self.place_of.remove(id) {
            if let Some(ids) = self.at.get_mut(&old) {
                ids.retain(|i| i != id);
                if ids.is_empty() {
                    self.at.remove(&old);
                }
            }
        }
        if let Some(now) = now {
            let ids = self.at.entry(now.to_string()).or_default();
            // (kept in id order, as the build makes them)
            if let Err(k) = ids.binary_search_by(|i| i.as_str().cmp(id)) {
                ids.insert(k, id.to_string());
            }
            self.place_of.insert(id.to_string(), now.to_string());
        }
    }
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Key {
    Position((u64, u64)),
    Call(u64),
}

/// How `hex.units.at` answers at a place.
pub(crate) enum Answer<'a> {
    /// Walk every unit (the index is not built): `walked` units examined.
    Walk,
    /// The ids the index holds for the place (empty when none).
    Ids(&'a [String]),
}

impl UnitsAt {
    /// The index state for `state` in call `generation`, kept from `kept` when it is the same
    /// position.
    pub(crate) fn for_position(
        kept: Option<UnitsAt>,
        state: &GameState,
        generation: u64,
    ) -> UnitsAt {
        let key = match state.revision.position() {
            Some(p) => Key::Position(p),
            None => Key::Call(generation),
        };
        match kept {
            Some(k) if k.key == key => k,
            // (an index built at an earlier position of this game: moved on to this one)
            Some(UnitsAt {
                key: Key::Position(before),
                index: Some(mut index),
                ..
            }) if matches!(key, Key::Position(_)) => match state.revision.changes_since(before) {
                Some(changes) => {
                    for (_, change) in changes {
                        match change {
                            Change::Unit(id) | Change::Roster(id) => index.follow(state, id),
                            Change::Control(_) => {}
                        }
                    }
                    UnitsAt {
                        key,
                        calls: 0,
                        index: Some(index),
                    }
                }
                None => UnitsAt::new(key),
            },
            _ => UnitsAt::new(key),
        }
    }

    fn new(key: Key) -> UnitsAt {
        UnitsAt {
            key,
            calls: 0,
            index: None,
        }
    }

    /// Counts a call; true when this call builds the index (the caller charges the walk).
    pub(crate) fn count_call(&mut self, state: &GameState) -> bool {
        self.calls = self.calls.saturating_add(1);
        if self.index.is_some() || self.calls <= WALKS_BEFORE_INDEX {
            return false;
        }
        self.index = Some(Index::build(state));
        true
    }

    /// How to answer for `place`.
    pub(crate) fn answer(&self, place: &str) -> Answer<'_> {
        match &self.index {
            None => Answer::Walk,
            Some(index) => Answer::Ids(index.at.get(place).map_or(&[], Vec::as_slice)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Unit;

    fn unit(id: &str, at: Option<&str>) -> Unit {
        Unit {
            id: id.into(),
            side: "red".into(),
            nation: "red".into(),
            kind: "infantry".into(),
            size: String::new(),
            ma: 4.0,
            strength: 1.0,
            at: at.map(String::from),
            facing: None,
            status: Default::default(),
            attrs: serde_json::Map::new(),
        }
    }

    fn state(units: &[(&str, Option<&str>)]) -> GameState {
        let mut s = GameState::new("t", 1);
        for (id, at) in units {
            s.units.insert(id.to_string(), unit(id, *at));
        }
        s
    }

    fn places(index: &Index) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<_> = index
            .at
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        out.sort();
        out
    }

    /// Each unit followed to where the state has it leaves the index a fresh build would make:
    /// a unit joining a hex before another in id order, one leaving a hex it shared, one
    /// going off the map, one leaving play, one entering it.
    #[test]
    fn an_index_following_each_changed_unit_equals_a_fresh_build() {
        let before = state(&[
            ("b", Some("0101")),
            ("c", Some("0202")),
            ("d", Some("0202")),
            ("e", Some("0303")),
            ("f", None),
        ]);
        let mut index = Index::build(&before);
        let after = state(&[
            ("a", Some("0101")),
            ("b", Some("0101")),
            ("c", Some("0101")),
            ("d", None),
            ("f", Some("0202")),
        ]);
        for id in ["c", "d", "e", "a", "f", "b"] {
            index.follow(&after, id);
        }
        let fresh = Index::build(&after);
        assert_eq!(places(&index), places(&fresh));
        assert_eq!(index.place_of, fresh.place_of);
        assert_eq!(
            index.at.get("0101"),
            Some(&vec!["a".to_string(), "b".into(), "c".into()])
        );
    }
}
