//! Neighbour arithmetic on the dense index, without going through hexx coordinates per step.
//!
//! On an offset map the six neighbour offsets (in `EdgeDirection` order, the order of
//! `HexMap::hexside_mask`) depend only on the parity of the hex's column (flat) or row (pointy).
//! They are derived once from hexx itself, and a test checks them against `HexMap::neighbors`.

use hexx::{EdgeDirection, Hex, HexOrientation, OffsetHexMode};

use crate::board::{HexIndex, HexMap, OffsetParity, Orientation};

/// Marks "no neighbour" (off the map).
pub const OFF_MAP: HexIndex = HexIndex::MAX;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    columns: u32,
    rows: u32,
    flat: bool,
    /// `[parity][direction] = (dcol, drow)`.
    deltas: [[(i32, i32); 6]; 2],
}

impl Topology {
    pub fn new(map: &HexMap) -> Topology {
        // Same convention as the board: printed numbers start at 1, so printed-odd lines are
        // 0-based even ones.
        let mode = match map.parity() {
            OffsetParity::Odd => OffsetHexMode::Even,
            OffsetParity::Even => OffsetHexMode::Odd,
        };
        let (orientation, flat) = match map.orientation() {
            Orientation::Flat => (HexOrientation::Flat, true),
            Orientation::Pointy => (HexOrientation::Pointy, false),
        };
        let mut deltas = [[(0, 0); 6]; 2];
        for (parity, row) in deltas.iter_mut().enumerate() {
            let (c, r) = if flat {
                (2 + parity as i32, 2)
            } else {
                (2, 2 + parity as i32)
            };
            let hex = Hex::from_offset_coordinates([c, r], mode, orientation);
            for (d, slot) in EdgeDirection::ALL_DIRECTIONS.iter().zip(row.iter_mut()) {
                let [nc, nr] = hex.neighbor(*d).to_offset_coordinates(mode, orientation);
                *slot = (nc - c, nr - r);
            }
        }
        Topology {
            columns: map.columns(),
            rows: map.rows(),
            flat,
            deltas,
        }
    }

    pub fn len(&self) -> usize {
        self.columns as usize * self.rows as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The six neighbours in direction order, `OFF_MAP` where the map ends.
    #[inline]
    pub fn neighbors(&self, index: HexIndex) -> [HexIndex; 6] {
        let col = (index % self.columns) as i32;
        let row = (index / self.columns) as i32;
        let parity = if self.flat { col & 1 } else { row & 1 } as usize;
        let mut out = [OFF_MAP; 6];
        for (slot, &(dc, dr)) in out.iter_mut().zip(self.deltas[parity].iter()) {
            let (c, r) = (col + dc, row + dr);
            if c >= 0 && r >= 0 && (c as u32) < self.columns && (r as u32) < self.rows {
                *slot = r as u32 * self.columns + c as u32;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_map, SourceText};

    #[test]
    fn agrees_with_the_board_for_every_orientation_and_parity() {
        for orientation in ["flat", "pointy"] {
            for offset in ["odd", "even"] {
                let text = format!(
                    "name = \"t\"\ncolumns = 5\nrows = 4\norientation = \"{orientation}\"\noffset = \"{offset}\"\ngrid = [\". . . . .\", \". . . . .\", \". . . . .\", \". . . . .\"]\n[legend]\n\".\" = \"clear\"\n"
                );
                let map = parse_map(&SourceText::new("t.toml", text)).unwrap();
                let topo = Topology::new(&map);
                for i in 0..map.len() {
                    let mut expected = [OFF_MAP; 6];
                    for (d, n) in map.neighbors(i) {
                        expected[d.index() as usize] = n;
                    }
                    assert_eq!(
                        topo.neighbors(i),
                        expected,
                        "{orientation} {offset} hex {}",
                        map.label(i)
                    );
                }
            }
        }
    }
}
