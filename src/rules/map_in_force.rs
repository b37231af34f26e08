//! The board the rules see: the scenario's map with what play changed on it (the state's
//! `MapChanges`, made by `HexChanged` and `HexsideChanged` events) laid over it, and the
//! movement and facing declarations compiled against that map. A game without map changes
//! uses the scenario's map and the rules compiled at load, as before; a changed map is derived
//! and compiled once and kept, so a search never calls back into Lua (DESIGN.md principle 1).

use std::sync::Arc;

use serde_json::Value;

use crate::board::Board;
use crate::engine::MapChanges;
use crate::path::{CostVariants, FacingRules, PathRules};

/// A board and the rules compiled against it.
#[derive(Clone)]
pub(crate) struct Compiled {
    pub map: Board,
    pub path: Option<Arc<PathRules>>,
    pub path_variants: Option<Arc<CostVariants>>,
    pub facing: Option<Arc<FacingRules>>,
}

/// Derived maps kept (a game holds one at a time; bots and tests go back and forth between a
/// few positions).
const KEPT: usize = 4;

/// The scenario's board, the declarations as written, and the maps derived from them.
pub(crate) struct MapSource {
    base: Compiled,
    movement: Option<Value>,
    facing: Option<Value>,
    kept: Vec<(MapChanges, Compiled)>,
}

impl MapSource {
    pub fn new(base: Compiled, movement: Option<Value>, facing: Option<Value>) -> MapSource {
        MapSource {
            base,
            movement,
            facing,
            kept: Vec::new(),
        }
    }

    /// The scenario's board, as it was before play changed it.
    pub fn base_map(&self) -> Board {
        self.base.map.clone()
    }

    /// The board and rules in force once `changes` are laid over the scenario's map; the
    /// error says which change does not fit (a hand-edited save) or which declaration no
    /// longer compiles on the changed map.
    pub fn compiled_for(&mut self, changes: &MapChanges) -> Result<Compiled, String> {
        if changes.is_empty() {
            return Ok(self.base.clone());
        }
        if let Some((_, compiled)) = self.kept.iter().find(|(kept, _)| kept == changes) {
            return Ok(compiled.clone());
        }
        let Some(base) = self.base.map.as_hex() else {
            return Err(
                "the state changes the map (HexChanged, HexsideChanged), but this scenario's \
                 map is an area map, which has no hexes or hexsides to change"
                    .into(),
            );
        };
        let map = Arc::new(base.with_changes(changes)?);
        let on_changed = |what: &str, e: String| {
            format!("the rules' {what} declaration on the map as play changed it: {e}")
        };
        let (path, path_variants) = match &self.movement {
            Some(decl) => (
                Some(Arc::new(
                    PathRules::compile(decl, &map)
                        .map_err(|e| on_changed("movement", e.to_string()))?,
                )),
                CostVariants::compile(decl, &map)
                    .map_err(|e| on_changed("movement", e.to_string()))?
                    .map(Arc::new),
            ),
            None => (None, None),
        };
        let facing = match &self.facing {
            Some(decl) => Some(Arc::new(
                FacingRules::compile(decl, &map)
                    .map_err(|e| on_changed("facing", e.to_string()))?,
            )),
            None => None,
        };
        let compiled = Compiled {
            map: Board::Hex(map),
            path,
            path_variants,
            facing,
        };
        if self.kept.len() >= KEPT {
            self.kept.remove(0);
        }
        self.kept.push((changes.clone(), compiled.clone()));
        Ok(compiled)
    }
}
