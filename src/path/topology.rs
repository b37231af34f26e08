//! Neighbour arithmetic on the dense index, without going through hexx coordinates per step.
//!
//! On an offset map the six neighbour offsets (in `EdgeDirection` order, the order of
//! `HexMap::hexside_mask`) depend only on the parity of the hex's column (flat) or row (pointy).
//! They are derived once from hexx itself, and a test checks them against `HexMap::neighbors`.
//!
//! `neighbors` runs once per hex a search expands, so it avoids the two things that used to
//! dominate it: the division recovering (column, row) from the index is a multiplication by a
//! precomputed reciprocal, and a hex off the map's edge (nearly all of them) skips the six
//! bounds checks and adds six precomputed index offsets. A precomputed table of six neighbours
//! per hex would do no better and would cost 24 bytes per hex (24 MB on a 1000×1000 map).

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
    /// `[parity][direction]`: the same steps as index offsets, `drow * columns + dcol`.
    offsets: [[i32; 6]; 2],
    /// `ceil(2^64 / columns)` (0 when `columns < 2`): `index / columns` is then the high half
    /// of `index * div_magic`, exact for every 32-bit index (Lemire, Kaser & Kurz, "Faster
    /// remainder by direct computation", 2019).
    div_magic: u64,
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
        let columns = map.columns();
        let offsets = deltas.map(|row| row.map(|(dc, dr)| dr * columns as i32 + dc));
        let div_magic = div_magic(columns);
        Topology {
            columns,
            rows: map.rows(),
            flat,
            deltas,
            offsets,
            div_magic,
        }
    }

    /// `(column, row)` of an index, 0-based.
    #[inline]
    fn col_row(&self, index: HexIndex) -> (u32, u32) {
        let row = if self.div_magic == 0 {
            // One column (or none): the row is the index.
            index
        } else {
            ((u128::from(self.div_magic) * u128::from(index)) >> 64) as u32
        };
        (index - row * self.columns, row)
    }

    pub fn len(&self) -> usize {
        self.columns as usize * self.rows as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The six neighbours in direction order, `OFF_MAP` where the map ends.
    #[inline(always)]
    pub fn neighbors(&self, index: HexIndex) -> [HexIndex; 6] {
        let (col, row) = self.col_row(index);
        let parity = if self.flat { col & 1 } else { row & 1 } as usize;
        // Not on the outer ring (the wrapping subtractions make 0 and the last line fail, and
        // every hex of a map less than 3 wide or tall): all six neighbours exist.
        if col.wrapping_sub(1) < self.columns.wrapping_sub(2)
            && row.wrapping_sub(1) < self.rows.wrapping_sub(2)
        {
            return self.offsets[parity].map(|o| index.wrapping_add_signed(o));
        }
        let (col, row) = (col as i32, row as i32);
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

/// The reciprocal `Topology::col_row` multiplies by (see the `div_magic` field).
fn div_magic(columns: u32) -> u64 {
    if columns < 2 {
        0
    } else {
        u64::MAX / u64::from(columns) + 1
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
                // Interior hexes take the offset fast path; edges, and maps too thin to have
                // an interior, the bounds-checked one.
                for (columns, rows) in [(5, 4), (7, 6), (1, 3), (3, 1), (2, 2)] {
                    let line = format!("\"{}\"", vec!["."; columns].join(" "));
                    let grid = vec![line; rows].join(", ");
                    let text = format!(
                    "name = \"t\"\ncolumns = {columns}\nrows = {rows}\norientation = \"{orientation}\"\noffset = \"{offset}\"\ngrid = [{grid}]\n[legend]\n\".\" = \"clear\"\n"
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
                            "{orientation} {offset} {columns}x{rows} hex {}",
                            map.label(i)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn reciprocal_division_is_exact() {
        let mut samples: Vec<u32> = (0..5000).collect();
        samples.extend((0..64).map(|k| u32::MAX - k));
        samples.extend((1..32).map(|b| 1u32 << b));
        for columns in (1..300).chain([999, 1000, 1001, 4096, 65_535, 1 << 20, u32::MAX]) {
            let topo = Topology {
                columns,
                rows: u32::MAX,
                flat: true,
                deltas: [[(0, 0); 6]; 2],
                offsets: [[0; 6]; 2],
                div_magic: div_magic(columns),
            };
            for &i in &samples {
                assert_eq!(
                    topo.col_row(i),
                    (i % columns, i / columns),
                    "{i} / {columns}"
                );
            }
        }
    }

    /// A topology has one hex per column and row of its map (maps are at least 1×1), so it
    /// is never empty.
    #[test]
    fn a_topology_has_columns_times_rows_hexes_and_is_not_empty() {
        let map = parse_map(&SourceText::new(
            "t.toml",
            "name = \"t\"\ncolumns = 3\nrows = 2\ngrid = [\". . .\", \". . .\"]\n[legend]\n\".\" = \"clear\"\n",
        ))
        .unwrap();
        let topo = Topology::new(&map);
        assert_eq!(topo.len(), 6);
        assert!(!topo.is_empty());
    }
}
