//! Where hexes go on the page: centres and corners of flat- or pointy-topped offset grids.

use crate::board::{HexMap, OffsetParity, Orientation};

/// The page layout of a hex map.
#[derive(Debug, Clone, Copy)]
pub struct Geometry {
    /// Circumradius of a hex, in pixels.
    pub size: f64,
    pub margin: f64,
    flat: bool,
    /// Is the 0-based column (flat) or row (pointy) index `i` shifted when `i % 2 == shifted`?
    shifted: i32,
    columns: u32,
    rows: u32,
}

const SQRT3: f64 = 1.732_050_807_568_877_2;

impl Geometry {
    pub fn new(map: &HexMap, size: f64, margin: f64) -> Geometry {
        // Printed numbers start at 1: printed-odd columns are 0-based even ones.
        let shifted = match map.parity() {
            OffsetParity::Odd => 0,
            OffsetParity::Even => 1,
        };
        Geometry {
            size,
            margin,
            flat: map.orientation() == Orientation::Flat,
            shifted,
            columns: map.columns(),
            rows: map.rows(),
        }
    }

    /// Width and height of the map itself (margins included).
    pub fn extent(&self) -> (f64, f64) {
        let (s, m) = (self.size, self.margin);
        let (c, r) = (self.columns as f64, self.rows as f64);
        if self.flat {
            (
                2.0 * m + s * (1.5 * (c - 1.0) + 2.0),
                2.0 * m + SQRT3 * s * (r + 0.5),
            )
        } else {
            (
                2.0 * m + SQRT3 * s * (c + 0.5),
                2.0 * m + s * (1.5 * (r - 1.0) + 2.0),
            )
        }
    }

    /// The centre of the hex at 0-based (column, row).
    pub fn center(&self, col: u32, row: u32) -> (f64, f64) {
        let (s, m) = (self.size, self.margin);
        let (c, r) = (col as f64, row as f64);
        if self.flat {
            let h = SQRT3 * s;
            let down = if (col as i32) % 2 == self.shifted {
                h / 2.0
            } else {
                0.0
            };
            (m + s + c * 1.5 * s, m + h / 2.0 + r * h + down)
        } else {
            let w = SQRT3 * s;
            let right = if (row as i32) % 2 == self.shifted {
                w / 2.0
            } else {
                0.0
            };
            (m + w / 2.0 + c * w + right, m + s + r * 1.5 * s)
        }
    }

    /// The six corners of a hex around a centre, scaled by `scale` (1.0: the full hex).
    pub fn corners(&self, center: (f64, f64), scale: f64) -> Vec<(f64, f64)> {
        // cos/sin of multiples of 60° written out, so no libm result reaches the output.
        const UNIT: [(f64, f64); 6] = [
            (1.0, 0.0),
            (0.5, SQRT3 / 2.0),
            (-0.5, SQRT3 / 2.0),
            (-1.0, 0.0),
            (-0.5, -SQRT3 / 2.0),
            (0.5, -SQRT3 / 2.0),
        ];
        let r = self.size * scale;
        UNIT.iter()
            .map(|&(x, y)| {
                let (x, y) = if self.flat { (x, y) } else { (-y, x) };
                (center.0 + r * x, center.1 + r * y)
            })
            .collect()
    }

    /// The hexside between two adjacent hexes as a segment: perpendicular to the line between
    /// the centres, through its middle, one side long.
    pub fn hexside(&self, a: (f64, f64), b: (f64, f64)) -> ((f64, f64), (f64, f64)) {
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let half = self.size / 2.0;
        let (px, py) = (-dy / len * half, dx / len * half);
        ((mid.0 + px, mid.1 + py), (mid.0 - px, mid.1 - py))
    }
}
