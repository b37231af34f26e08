//! A hexside key: one value for both sides of an edge (DESIGN.md principle 2).

use hexx::{EdgeDirection, GridEdge, Hex};

/// A `GridEdge` normalised so that its direction index is 0, 1 or 2: the edge seen from either
/// of its two hexes gives the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexsideKey {
    x: i32,
    y: i32,
    dir: u8,
}

impl HexsideKey {
    /// The key of the edge leaving `from` in `direction`.
    pub fn new(from: Hex, direction: EdgeDirection) -> Self {
        let edge = GridEdge {
            origin: from,
            direction,
        };
        let edge = if direction.index() >= 3 {
            edge.flipped()
        } else {
            edge
        };
        HexsideKey {
            x: edge.origin.x,
            y: edge.origin.y,
            dir: edge.direction.index(),
        }
    }

    /// The key of the edge between two adjacent hexes, or None when they are not adjacent.
    pub fn between(a: Hex, b: Hex) -> Option<Self> {
        a.neighbor_direction(b).map(|d| HexsideKey::new(a, d))
    }

    /// The normalised `GridEdge` behind this key.
    pub fn edge(&self) -> GridEdge {
        GridEdge {
            origin: Hex::new(self.x, self.y),
            direction: EdgeDirection::ALL_DIRECTIONS[self.dir as usize],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_of_an_edge_share_one_key() {
        let a = Hex::new(2, 3);
        for dir in EdgeDirection::ALL_DIRECTIONS {
            let b = a.neighbor(dir);
            assert_eq!(HexsideKey::new(a, dir), HexsideKey::new(b, dir.const_neg()));
            assert_eq!(HexsideKey::between(a, b), Some(HexsideKey::new(a, dir)));
        }
        assert_eq!(HexsideKey::between(a, Hex::new(5, 5)), None);
    }
}
