//! Step distances to a set of target hexes (a breadth-first field over the map), for bots that
//! rank destinations by how close they bring a unit to its objectives.

use std::collections::VecDeque;

use crate::board::{HexIndex, HexMap};

/// Hex steps from each hex to the nearest target, `None` where no path of passable hexes leads.
/// Targets are at 0 whether passable or not; a step enters only passable hexes.
#[derive(Debug, Clone)]
pub struct StepField {
    dist: Vec<u32>,
}

impl StepField {
    pub fn from_targets(
        map: &HexMap,
        targets: &[HexIndex],
        passable: impl Fn(HexIndex) -> bool,
    ) -> StepField {
        let mut dist = vec![u32::MAX; map.len() as usize];
        let mut queue = VecDeque::new();
        for &t in targets {
            if let Some(d) = dist.get_mut(t as usize) {
                if *d == u32::MAX {
                    *d = 0;
                    queue.push_back(t);
                }
            }
        }
        while let Some(h) = queue.pop_front() {
            let next = dist[h as usize] + 1;
            for (_, n) in map.neighbors(h) {
                if dist[n as usize] == u32::MAX && passable(n) {
                    dist[n as usize] = next;
                    queue.push_back(n);
                }
            }
        }
        StepField { dist }
    }

    pub fn distance(&self, hex: HexIndex) -> Option<u32> {
        self.dist
            .get(hex as usize)
            .copied()
            .filter(|&d| d != u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_map, SourceText};

    #[test]
    fn steps_go_round_impassable_hexes_and_targets_count_zero() {
        let map = parse_map(&SourceText::new(
            "m.toml",
            "name = \"m\"\ncolumns = 5\nrows = 1\ngrid = [\". s . . s\"]\n[legend]\n\".\" = \"clear\"\ns = \"sea\"\n",
        ))
        .unwrap();
        let sea = |h: HexIndex| map.terrain_name(h) == "sea";
        let target = map.parse_label("0501").unwrap();
        let field = StepField::from_targets(&map, &[target], |h| !sea(h));
        let d = |l: &str| field.distance(map.parse_label(l).unwrap());
        assert_eq!(
            [d("0101"), d("0201"), d("0301"), d("0401"), d("0501")],
            [None, None, Some(2), Some(1), Some(0)]
        );
    }
}
