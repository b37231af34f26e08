//! The units of each place, for `hex.units.at`: a listing that asks it once per hex it
//! examines made the call a walk over every unit in the game, so a 1 000-unit game spent its
//! time in listings that grew with the square of the units. The index is built once per
//! position (a `Game`'s revision; a state no game vouches for, once per call into Lua) and
//! only from the third call at that position on: a game that asks a couple of places per
//! position keeps the plain walk, which costs less than building the index.

use std::collections::HashMap;

use crate::engine::GameState;

/// Calls at one position answered by a walk before the index is built.
const WALKS_BEFORE_INDEX: u32 = 2;

/// What one position's calls found, and the index once built.
pub(crate) struct UnitsAt {
    /// The position: the revision a `Game` vouches for, else the call into Lua.
    key: Key,
    calls: u32,
    /// place -> the ids of the units there, in id order.
    index: Option<HashMap<String, Vec<String>>>,
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
            _ => UnitsAt {
                key,
                calls: 0,
                index: None,
            },
        }
    }

    /// Counts a call; true when this call builds the index (the caller charges the walk).
    pub(crate) fn count_call(&mut self, state: &GameState) -> bool {
        self.calls = self.calls.saturating_add(1);
        if self.index.is_some() || self.calls <= WALKS_BEFORE_INDEX {
            return false;
        }
        let mut index: HashMap<String, Vec<String>> = HashMap::new();
        for u in state.units.values() {
            if let Some(at) = &u.at {
                index.entry(at.clone()).or_default().push(u.id.clone());
            }
        }
        self.index = Some(index);
        true
    }

    /// How to answer for `place`.
    pub(crate) fn answer(&self, place: &str) -> Answer<'_> {
        match &self.index {
            None => Answer::Walk,
            Some(index) => Answer::Ids(index.get(place).map_or(&[], Vec::as_slice)),
        }
    }
}
