//! Facing and front arcs (TA-R1, TA-R2): a facing is an index 0..5, either an
//! `EdgeDirection` (the unit faces a hexside) or a `VertexDirection` (it faces a corner:
//! phalanxes). `VertexDirection` k lies between edges k-1 and k. A front arc is a list of
//! edge-direction offsets relative to the facing: edge facing f with offsets {-1, 0, 1} has
//! front edges f-1, f, f+1 (TAC-8); vertex facing v with offsets {-1, 0} has front edges v-1
//! and v (ANC-6.1).

use serde::{Deserialize, Serialize};

/// How a unit (or group) faces: not at all (leaders), one facing, or one per base (TAC-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Facing {
    None,
    One(u8),
    Two(u8, u8),
}

impl Facing {
    /// The text form used by the Lua API and the CLI: `"none"`, `"2"`, `"2,5"`.
    pub fn key(&self) -> String {
        match self {
            Facing::None => "none".into(),
            Facing::One(f) => f.to_string(),
            Facing::Two(a, b) => format!("{a},{b}"),
        }
    }

    /// Parses the text form (`"none"`, `"3"`, `"1,4"`); None when malformed.
    pub fn parse(text: &str) -> Option<Facing> {
        let t = text.trim();
        if t == "none" {
            return Some(Facing::None);
        }
        let parts: Vec<&str> = t.split(',').map(str::trim).collect();
        let idx = |s: &str| s.parse::<u8>().ok().filter(|v| *v < 6);
        match parts.as_slice() {
            [a] => Some(Facing::One(idx(a)?)),
            [a, b] => Some(Facing::Two(idx(a)?, idx(b)?)),
            _ => None,
        }
    }
}

/// `f + offset` modulo 6.
#[inline]
pub fn rotate(f: u8, offset: i8) -> u8 {
    (f as i16 + offset as i16).rem_euclid(6) as u8
}

/// The front edge directions of one facing, as a 6-bit mask (bit d = edge direction d).
pub fn front_mask(facing: u8, offsets: &[i8]) -> u8 {
    offsets
        .iter()
        .fold(0u8, |m, &o| m | (1 << rotate(facing, o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ta_r2_default_arcs() {
        // Edge facing 0: front edges 5, 0, 1.
        assert_eq!(front_mask(0, &[-1, 0, 1]), 0b100011);
        // Vertex facing 0 lies between edges 5 and 0.
        assert_eq!(front_mask(0, &[-1, 0]), 0b100001);
        assert_eq!(front_mask(3, &[-1, 0]), 0b001100);
    }

    #[test]
    fn facing_text_round_trips() {
        for f in [Facing::None, Facing::One(4), Facing::Two(0, 5)] {
            assert_eq!(Facing::parse(&f.key()), Some(f));
        }
        assert_eq!(Facing::parse("6"), None);
    }
}
