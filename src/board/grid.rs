//! `HexMap`: the validated hex board in dense arrays.

use std::collections::BTreeMap;

use hexx::{EdgeDirection, Hex, HexOrientation, OffsetHexMode};

use super::hexside::HexsideKey;
use super::label::LabelFormat;

/// The zones every hex map has, filled from its shape: the hexes of each edge.
const EDGE_ZONES: [&str; 4] = ["north_edge", "south_edge", "west_edge", "east_edge"];

/// Dense index of a hex on its map: `row * columns + column`.
pub type HexIndex = u32;

/// Flat-topped hexes stand in columns; pointy-topped hexes stand in rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Orientation {
    Flat,
    Pointy,
}

/// Which printed columns (flat) or rows (pointy) are shifted by half a hex: down for columns,
/// right for rows. Counted on the printed numbers, which start at 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OffsetParity {
    Odd,
    Even,
}

/// A rectangular hex map. Terrain, features, hexside features and zones are interned as small
/// integers; names are kept beside them for the rules and for messages.
#[derive(Debug, Clone)]
pub struct HexMap {
    pub name: String,
    columns: u32,
    rows: u32,
    orientation: Orientation,
    parity: OffsetParity,
    labels: LabelFormat,
    terrain_names: Vec<String>,
    feature_names: Vec<String>,
    hexside_feature_names: Vec<String>,
    zone_names: Vec<String>,
    terrain: Vec<u8>,
    features: Vec<u64>,
    zones: Vec<u64>,
    /// Per hex and edge direction, the features of that hexside (both sides hold the same mask).
    hexsides: Vec<[u32; 6]>,
    /// Zone sets whose boundaries a picture draws (an overlay with `border = true`: countries),
    /// each the mask of its zones' ids.
    borders: Vec<u64>,
}

/// The raw parts of a map; `HexMap::build` checks them.
#[derive(Debug, Clone, Default)]
pub struct HexMapParts {
    pub name: String,
    pub columns: u32,
    pub rows: u32,
    pub orientation: Option<Orientation>,
    pub parity: Option<OffsetParity>,
    pub terrain_names: Vec<String>,
    pub terrain: Vec<u8>,
}

impl HexMap {
    /// A map with every hex of terrain 0. Names are given in id order.
    pub fn new(parts: HexMapParts) -> Self {
        let count = (parts.columns as usize) * (parts.rows as usize);
        let mut terrain = parts.terrain;
        terrain.resize(count, 0);
        let mut zone_names = Vec::new();
        for edge in EDGE_ZONES {
            zone_names.push(edge.to_string());
        }
        let mut map = HexMap {
            name: parts.name,
            columns: parts.columns,
            rows: parts.rows,
            orientation: parts.orientation.unwrap_or(Orientation::Flat),
            parity: parts.parity.unwrap_or(OffsetParity::Odd),
            labels: LabelFormat::for_size(parts.columns, parts.rows),
            terrain_names: parts.terrain_names,
            feature_names: Vec::new(),
            hexside_feature_names: Vec::new(),
            zone_names,
            terrain,
            features: vec![0; count],
            zones: vec![0; count],
            hexsides: vec![[0; 6]; count],
            borders: Vec::new(),
        };
        map.mark_edges();
        map
    }

    fn mark_edges(&mut self) {
        for index in 0..self.len() {
            let (col, row) = self.col_row(index);
            let mut mask = 0u64;
            if row == 0 {
                mask |= 1 << 0;
            }
            if row + 1 == self.rows {
                mask |= 1 << 1;
            }
            if col == 0 {
                mask |= 1 << 2;
            }
            if col + 1 == self.columns {
                mask |= 1 << 3;
            }
            self.zones[index as usize] |= mask;
        }
    }

    /// ` (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)`: what follows
    /// a message refusing a label the map lacks (a label one digit off is no misspelling to
    /// point at, but the map's size and how its labels read are).
    pub fn labels_hint(&self) -> String {
        let format = self.label_format();
        format!(
            " (this {}×{} map's labels are {} digits, column then row: {} to {})",
            self.columns(),
            self.rows(),
            format.digits * 2,
            format.format(0, 0),
            format.format(
                self.columns().saturating_sub(1),
                self.rows().saturating_sub(1)
            ),
        )
    }

    pub fn columns(&self) -> u32 {
        self.columns
    }
    pub fn rows(&self) -> u32 {
        self.rows
    }
    pub fn orientation(&self) -> Orientation {
        self.orientation
    }
    pub fn parity(&self) -> OffsetParity {
        self.parity
    }
    /// Number of hexes.
    pub fn len(&self) -> u32 {
        self.columns * self.rows
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn label_format(&self) -> LabelFormat {
        self.labels
    }

    fn hexx_mode(&self) -> (OffsetHexMode, HexOrientation) {
        // Printed numbers start at 1, so printed-odd columns are 0-based even ones.
        let mode = match self.parity {
            OffsetParity::Odd => OffsetHexMode::Even,
            OffsetParity::Even => OffsetHexMode::Odd,
        };
        let orientation = match self.orientation {
            Orientation::Flat => HexOrientation::Flat,
            Orientation::Pointy => HexOrientation::Pointy,
        };
        (mode, orientation)
    }

    pub fn col_row(&self, index: HexIndex) -> (u32, u32) {
        (index % self.columns, index / self.columns)
    }

    pub fn index_of_col_row(&self, col: u32, row: u32) -> Option<HexIndex> {
        (col < self.columns && row < self.rows).then(|| row * self.columns + col)
    }

    /// The hexx coordinate of a hex.
    pub fn hex(&self, index: HexIndex) -> Hex {
        let (col, row) = self.col_row(index);
        let (mode, orientation) = self.hexx_mode();
        Hex::from_offset_coordinates([col as i32, row as i32], mode, orientation)
    }

    /// The index of a hexx coordinate, or None when it is off the map.
    pub fn index(&self, hex: Hex) -> Option<HexIndex> {
        let (mode, orientation) = self.hexx_mode();
        let [col, row] = hex.to_offset_coordinates(mode, orientation);
        if col < 0 || row < 0 {
            return None;
        }
        self.index_of_col_row(col as u32, row as u32)
    }

    pub fn label(&self, index: HexIndex) -> String {
        let (col, row) = self.col_row(index);
        self.labels.format(col, row)
    }

    /// The hex a printed label names, or None when the label is malformed or off the map.
    pub fn parse_label(&self, label: &str) -> Option<HexIndex> {
        let (col, row) = self.labels.parse(label)?;
        self.index_of_col_row(col, row)
    }

    /// The neighbour of a hex in a direction, if on the map.
    pub fn neighbor(&self, index: HexIndex, direction: EdgeDirection) -> Option<HexIndex> {
        self.index(self.hex(index).neighbor(direction))
    }

    /// The on-map neighbours with the direction leading to each, in direction order.
    pub fn neighbors(
        &self,
        index: HexIndex,
    ) -> impl Iterator<Item = (EdgeDirection, HexIndex)> + '_ {
        let hex = self.hex(index);
        EdgeDirection::ALL_DIRECTIONS
            .into_iter()
            .filter_map(move |d| self.index(hex.neighbor(d)).map(|n| (d, n)))
    }

    pub fn distance(&self, a: HexIndex, b: HexIndex) -> u32 {
        self.hex(a).unsigned_distance_to(self.hex(b))
    }

    pub fn terrain_id(&self, index: HexIndex) -> u8 {
        self.terrain[index as usize]
    }
    pub fn terrain_name(&self, index: HexIndex) -> &str {
        &self.terrain_names[self.terrain_id(index) as usize]
    }
    /// Replaces the terrain of every hex (ids into `terrain_names`).
    pub(crate) fn set_terrain(&mut self, terrain: Vec<u8>) {
        self.terrain = terrain;
    }
    pub fn terrain_names(&self) -> &[String] {
        &self.terrain_names
    }
    pub fn terrain_ids(&self) -> &[u8] {
        &self.terrain
    }

    /// Interns a name in a list of at most `max` names; None when the list is full.
    fn intern(names: &mut Vec<String>, name: &str, max: usize) -> Option<usize> {
        if let Some(i) = names.iter().position(|n| n == name) {
            return Some(i);
        }
        if names.len() >= max {
            return None;
        }
        names.push(name.to_string());
        Some(names.len() - 1)
    }

    /// Adds a feature (town, port, ...) to a hex. Err when 64 feature kinds are already in use.
    pub fn add_feature(&mut self, index: HexIndex, feature: &str) -> Result<(), String> {
        let id = Self::intern(&mut self.feature_names, feature, 64)
            .ok_or_else(|| format!("too many hex feature kinds (at most 64) at '{feature}'"))?;
        self.features[index as usize] |= 1u64 << id;
        Ok(())
    }

    pub fn feature_id(&self, feature: &str) -> Option<usize> {
        self.feature_names.iter().position(|n| n == feature)
    }
    pub fn feature_names(&self) -> &[String] {
        &self.feature_names
    }
    pub fn feature_mask(&self, index: HexIndex) -> u64 {
        self.features[index as usize]
    }
    pub fn has_feature(&self, index: HexIndex, feature: &str) -> bool {
        self.feature_id(feature)
            .is_some_and(|id| self.features[index as usize] & (1 << id) != 0)
    }
    /// Feature names of a hex, in id order.
    pub fn features_of(&self, index: HexIndex) -> Vec<&str> {
        Self::names_in_mask(&self.feature_names, self.features[index as usize])
    }

    fn names_in_mask(names: &[String], mask: u64) -> Vec<&str> {
        names
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1u64 << i) != 0)
            .map(|(_, n)| n.as_str())
            .collect()
    }

    /// Adds a feature (river, sea, ...) to the hexside between two adjacent hexes.
    pub fn add_hexside_feature(
        &mut self,
        a: HexIndex,
        b: HexIndex,
        feature: &str,
    ) -> Result<(), String> {
        let (ha, hb) = (self.hex(a), self.hex(b));
        let dir = ha
            .neighbor_direction(hb)
            .ok_or_else(|| "the two hexes are not adjacent".to_string())?;
        let id = Self::intern(&mut self.hexside_feature_names, feature, 32)
            .ok_or_else(|| format!("too many hexside feature kinds (at most 32) at '{feature}'"))?;
        self.hexsides[a as usize][dir.index() as usize] |= 1u32 << id;
        self.hexsides[b as usize][dir.const_neg().index() as usize] |= 1u32 << id;
        Ok(())
    }

    /// Gives a hex another terrain (a polder flooded during play: grid_changes.rs).
    pub(crate) fn set_terrain_of(&mut self, index: HexIndex, terrain: &str) -> Result<(), String> {
        // (255, as a map file allows: a change in play took a 256th the file would refuse)
        let id = Self::intern(&mut self.terrain_names, terrain, 255)
            .ok_or_else(|| format!("too many terrain kinds (at most 255) at '{terrain}'"))?;
        self.terrain[index as usize] = id as u8;
        Ok(())
    }

    /// Removes a feature from a hex (nothing when it has none of that name).
    pub(crate) fn remove_feature(&mut self, index: HexIndex, feature: &str) {
        if let Some(id) = self.feature_id(feature) {
            self.features[index as usize] &= !(1u64 << id);
        }
    }

    /// Removes a feature from the hexside between two adjacent hexes.
    pub(crate) fn remove_hexside_feature(
        &mut self,
        a: HexIndex,
        b: HexIndex,
        feature: &str,
    ) -> Result<(), String> {
        let dir = self
            .hex(a)
            .neighbor_direction(self.hex(b))
            .ok_or_else(|| "the two hexes are not adjacent".to_string())?;
        if let Some(id) = self.hexside_feature_id(feature) {
            self.hexsides[a as usize][dir.index() as usize] &= !(1u32 << id);
            self.hexsides[b as usize][dir.const_neg().index() as usize] &= !(1u32 << id);
        }
        Ok(())
    }

    pub fn hexside_feature_id(&self, feature: &str) -> Option<usize> {
        self.hexside_feature_names.iter().position(|n| n == feature)
    }
    pub fn hexside_feature_names(&self) -> &[String] {
        &self.hexside_feature_names
    }
    /// Features of the hexside leaving `index` in `direction`.
    pub fn hexside_mask(&self, index: HexIndex, direction: EdgeDirection) -> u32 {
        self.hexsides[index as usize][direction.index() as usize]
    }
    /// All six hexside masks of a hex, in direction order.
    pub fn hexside_masks(&self, index: HexIndex) -> [u32; 6] {
        self.hexsides[index as usize]
    }
    /// Features of the hexside between two hexes (empty when not adjacent).
    pub fn hexside_features(&self, a: HexIndex, b: HexIndex) -> Vec<&str> {
        match self.hex(a).neighbor_direction(self.hex(b)) {
            Some(d) => {
                Self::names_in_mask(&self.hexside_feature_names, self.hexside_mask(a, d) as u64)
            }
            None => Vec::new(),
        }
    }

    /// Every hexside that has a feature, keyed once per edge, in key order.
    pub fn hexsides_with_features(&self) -> BTreeMap<HexsideKey, (HexIndex, HexIndex, u32)> {
        let mut out = BTreeMap::new();
        for index in 0..self.len() {
            for (d, n) in self.neighbors(index) {
                let mask = self.hexside_mask(index, d);
                if mask != 0 {
                    let key = HexsideKey::new(self.hex(index), d);
                    out.entry(key).or_insert((index.min(n), index.max(n), mask));
                }
            }
        }
        out
    }

    /// Puts a hex in a named zone. Err when 64 zones are already in use.
    pub fn add_to_zone(&mut self, index: HexIndex, zone: &str) -> Result<(), String> {
        let id = Self::intern(&mut self.zone_names, zone, 64)
            .ok_or_else(|| {
                format!(
                    "too many zones (at most 64, the four edge zones included: 60 of the map's own) at '{zone}'"
                )
            })?;
        self.zones[index as usize] |= 1u64 << id;
        Ok(())
    }

    pub fn zone_id(&self, zone: &str) -> Option<usize> {
        self.zone_names.iter().position(|n| n == zone)
    }
    pub fn zone_names(&self) -> &[String] {
        &self.zone_names
    }
    pub fn zone_mask(&self, index: HexIndex) -> u64 {
        self.zones[index as usize]
    }
    pub fn in_zone(&self, index: HexIndex, zone: &str) -> bool {
        self.zone_id(zone)
            .is_some_and(|id| self.zones[index as usize] & (1 << id) != 0)
    }
    /// Zone names of a hex, in id order (the four map edges first).
    pub fn zones_of(&self, index: HexIndex) -> Vec<&str> {
        Self::names_in_mask(&self.zone_names, self.zones[index as usize])
    }
    /// Marks the named zones as one set whose boundaries are drawn (names without a hex are
    /// left out: they have no boundary).
    pub fn add_border(&mut self, zones: &[&str]) {
        let mask = zones
            .iter()
            .filter_map(|z| self.zone_id(z))
            .fold(0u64, |m, id| m | 1 << id);
        if mask != 0 {
            self.borders.push(mask);
        }
    }
    /// Whether any zone set is bordered (a picture's legend names borders then).
    pub fn has_borders(&self) -> bool {
        !self.borders.is_empty()
    }
    /// Whether a border runs between adjacent hexes `a` and `b`: both lie in zones of one
    /// bordered set, and not in the same ones.
    pub fn border_between(&self, a: HexIndex, b: HexIndex) -> bool {
        let (za, zb) = (self.zones[a as usize], self.zones[b as usize]);
        self.borders.iter().any(|&m| {
            let (x, y) = (za & m, zb & m);
            x != 0 && y != 0 && x != y
        })
    }
    /// The hexes of a zone, in index order; None for an unknown zone.
    pub fn zone_hexes(&self, zone: &str) -> Option<Vec<HexIndex>> {
        let id = self.zone_id(zone)?;
        Some(
            (0..self.len())
                .filter(|&i| self.zones[i as usize] & (1 << id) != 0)
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(columns: u32, rows: u32, orientation: Orientation, parity: OffsetParity) -> HexMap {
        HexMap::new(HexMapParts {
            name: "t".into(),
            columns,
            rows,
            orientation: Some(orientation),
            parity: Some(parity),
            terrain_names: vec!["clear".into()],
            terrain: vec![],
        })
    }

    fn labels(m: &HexMap, of: &str) -> Vec<String> {
        let i = m.parse_label(of).unwrap();
        let mut v: Vec<String> = m.neighbors(i).map(|(_, n)| m.label(n)).collect();
        v.sort();
        v
    }

    #[test]
    fn flat_odd_columns_shifted_down() {
        // Printed column 03 is odd, so it sits half a hex lower than columns 02 and 04:
        // 0303 touches 0203, 0204, 0403, 0404.
        let m = map(6, 6, Orientation::Flat, OffsetParity::Odd);
        assert_eq!(
            labels(&m, "0303"),
            ["0203", "0204", "0302", "0304", "0403", "0404"]
        );
        assert_eq!(
            labels(&m, "0203"),
            ["0102", "0103", "0202", "0204", "0302", "0303"]
        );
    }

    #[test]
    fn flat_even_columns_shifted_down() {
        let m = map(6, 6, Orientation::Flat, OffsetParity::Even);
        assert_eq!(
            labels(&m, "0303"),
            ["0202", "0203", "0302", "0304", "0402", "0403"]
        );
    }

    #[test]
    fn pointy_odd_rows_shifted_right() {
        let m = map(6, 6, Orientation::Pointy, OffsetParity::Odd);
        assert_eq!(
            labels(&m, "0303"),
            ["0203", "0302", "0304", "0402", "0403", "0404"]
        );
    }

    #[test]
    fn a_map_holds_60_zones_of_its_own_beside_the_four_edges() {
        let mut m = map(4, 3, Orientation::Flat, OffsetParity::Odd);
        for i in 0..60 {
            m.add_to_zone(0, &format!("z{i:02}")).unwrap();
        }
        assert_eq!(
            m.add_to_zone(0, "z60").unwrap_err(),
            "too many zones (at most 64, the four edge zones included: 60 of the map's own) at 'z60'"
        );
    }

    #[test]
    fn map_edges_are_zones() {
        let m = map(4, 3, Orientation::Flat, OffsetParity::Odd);
        let west: Vec<String> = m
            .zone_hexes("west_edge")
            .unwrap()
            .into_iter()
            .map(|i| m.label(i))
            .collect();
        assert_eq!(west, ["0101", "0102", "0103"]);
        let north: Vec<String> = m
            .zone_hexes("north_edge")
            .unwrap()
            .into_iter()
            .map(|i| m.label(i))
            .collect();
        assert_eq!(north, ["0101", "0201", "0301", "0401"]);
        assert_eq!(
            m.zones_of(m.parse_label("0403").unwrap()),
            ["south_edge", "east_edge"]
        );
    }

    #[test]
    fn hexside_features_are_seen_from_both_sides() {
        let mut m = map(4, 4, Orientation::Flat, OffsetParity::Odd);
        let (a, b) = (
            m.parse_label("0202").unwrap(),
            m.parse_label("0203").unwrap(),
        );
        m.add_hexside_feature(a, b, "river").unwrap();
        assert_eq!(m.hexside_features(a, b), ["river"]);
        assert_eq!(m.hexside_features(b, a), ["river"]);
        assert_eq!(m.hexsides_with_features().len(), 1);
        let far = m.parse_label("0404").unwrap();
        assert!(m.add_hexside_feature(a, far, "river").is_err());
    }

    fn at(m: &HexMap, label: &str) -> HexIndex {
        m.parse_label(label).unwrap()
    }

    /// Size queries and the dense index: a column or row one past the map is off it.
    #[test]
    fn a_maps_size_and_index_stop_at_its_last_column_and_row() {
        let m = map(4, 3, Orientation::Flat, OffsetParity::Odd);
        assert_eq!((m.columns(), m.rows(), m.len()), (4, 3, 12));
        assert!(!m.is_empty());
        assert!(map(0, 0, Orientation::Flat, OffsetParity::Odd).is_empty());
        assert_eq!(m.index_of_col_row(3, 2), Some(11));
        assert_eq!(m.index_of_col_row(4, 0), None);
        assert_eq!(m.index_of_col_row(0, 3), None);
        assert_eq!(m.col_row(11), (3, 2));
        assert_eq!(m.label(11), "0403");
        assert_eq!(m.distance(at(&m, "0101"), at(&m, "0401")), 3);
        assert_eq!(m.distance(at(&m, "0101"), at(&m, "0103")), 2);
        assert_eq!(m.distance(at(&m, "0202"), at(&m, "0202")), 0);
    }

    /// A corner hex has three neighbours on the map; `neighbor` agrees with `neighbors`.
    #[test]
    fn a_corner_hex_has_only_its_on_map_neighbours() {
        let m = map(4, 3, Orientation::Flat, OffsetParity::Odd);
        assert_eq!(labels(&m, "0101"), ["0102", "0201", "0202"]);
        assert_eq!(labels(&m, "0403"), ["0302", "0303", "0402"]);
        let i = at(&m, "0101");
        let on: Vec<(EdgeDirection, HexIndex)> = m.neighbors(i).collect();
        for d in EdgeDirection::ALL_DIRECTIONS {
            let expected = on.iter().find(|(e, _)| *e == d).map(|&(_, n)| n);
            assert_eq!(m.neighbor(i, d), expected);
        }
    }

    /// Features are interned in order of first use; a removed one leaves the others.
    #[test]
    fn hex_features_are_added_found_and_removed_one_by_one() {
        let mut m = map(4, 3, Orientation::Flat, OffsetParity::Odd);
        let (a, b) = (at(&m, "0101"), at(&m, "0202"));
        m.add_feature(a, "town").unwrap();
        m.add_feature(a, "port").unwrap();
        m.add_feature(b, "port").unwrap();
        assert_eq!(m.feature_names(), ["town", "port"]);
        assert_eq!(m.feature_id("port"), Some(1));
        assert_eq!(m.feature_id("town"), Some(0));
        assert_eq!(m.feature_id("fort"), None);
        assert_eq!((m.feature_mask(a), m.feature_mask(b)), (0b11, 0b10));
        assert!(m.has_feature(a, "town") && m.has_feature(b, "port"));
        assert!(!m.has_feature(b, "town") && !m.has_feature(b, "fort"));
        assert_eq!(m.features_of(a), ["town", "port"]);
        m.remove_feature(a, "town");
        m.remove_feature(a, "fort");
        assert_eq!(m.features_of(a), ["port"]);
        assert_eq!(m.features_of(b), ["port"]);
    }

    /// The limits of the interned kinds: 64 hex features, 32 hexside features, by name.
    #[test]
    fn each_kind_of_name_refuses_the_one_past_its_limit_by_name() {
        let mut m = map(4, 3, Orientation::Flat, OffsetParity::Odd);
        let (a, b) = (at(&m, "0101"), at(&m, "0102"));
        for i in 0..64 {
            m.add_feature(a, &format!("f{i}")).unwrap();
        }
        assert_eq!(m.feature_mask(a), u64::MAX);
        m.add_feature(b, "f7").unwrap();
        assert_eq!(
            m.add_feature(a, "f64").unwrap_err(),
            "too many hex feature kinds (at most 64) at 'f64'"
        );
        for i in 0..32 {
            m.add_hexside_feature(a, b, &format!("s{i}")).unwrap();
        }
        assert_eq!(
            m.add_hexside_feature(a, b, "s32").unwrap_err(),
            "too many hexside feature kinds (at most 32) at 's32'"
        );
        // (terrains: a new name gets the next id, a known one its own; 255 kinds at most, as a
        // map file allows)
        m.set_terrain_of(a, "flooded").unwrap();
        assert_eq!((m.terrain_id(a), m.terrain_name(a)), (1, "flooded"));
        m.set_terrain_of(b, "clear").unwrap();
        assert_eq!(m.terrain_id(b), 0);
        assert_eq!(m.terrain_names(), ["clear", "flooded"]);
        for i in 2..255 {
            m.set_terrain_of(b, &format!("t{i}")).unwrap();
        }
        assert_eq!(m.terrain_names().len(), 255);
        assert_eq!(
            m.set_terrain_of(b, "t255").unwrap_err(),
            "too many terrain kinds (at most 255) at 't255'"
        );
        assert_eq!(m.terrain_name(b), "t254");
    }

    /// Hexside masks are held on both sides; removing a feature clears it on both.
    #[test]
    fn hexside_masks_name_each_side_and_removal_clears_both() {
        let mut m = map(4, 4, Orientation::Flat, OffsetParity::Odd);
        let (a, b, c) = (at(&m, "0202"), at(&m, "0203"), at(&m, "0302"));
        m.add_hexside_feature(a, b, "river").unwrap();
        m.add_hexside_feature(a, b, "road").unwrap();
        m.add_hexside_feature(a, c, "road").unwrap();
        assert_eq!(m.hexside_feature_names(), ["river", "road"]);
        assert_eq!(m.hexside_feature_id("road"), Some(1));
        assert_eq!(m.hexside_feature_id("wall"), None);
        let ab = m.hex(a).neighbor_direction(m.hex(b)).unwrap();
        let ac = m.hex(a).neighbor_direction(m.hex(c)).unwrap();
        assert_eq!(m.hexside_mask(a, ab), 0b11);
        assert_eq!(m.hexside_mask(b, ab.const_neg()), 0b11);
        let mut masks = [0; 6];
        masks[ab.index() as usize] = 0b11;
        masks[ac.index() as usize] = 0b10;
        assert_eq!(m.hexside_masks(a), masks);
        let with: Vec<(HexIndex, HexIndex, u32)> =
            m.hexsides_with_features().into_values().collect();
        assert_eq!(with.len(), 2);
        assert!(with.contains(&(a.min(b), a.max(b), 0b11)));
        assert!(with.contains(&(a.min(c), a.max(c), 0b10)));
        m.remove_hexside_feature(b, a, "river").unwrap();
        m.remove_hexside_feature(a, b, "wall").unwrap();
        assert_eq!(m.hexside_features(a, b), ["road"]);
        assert_eq!(m.hexside_features(b, a), ["road"]);
        assert_eq!(m.hexside_features(a, c), ["road"]);
        assert_eq!(
            m.remove_hexside_feature(a, at(&m, "0404"), "road")
                .unwrap_err(),
            "the two hexes are not adjacent"
        );
    }

    /// Zones of the map's own come after the four edges; `in_zone` reads one hex.
    #[test]
    fn zones_are_numbered_after_the_edges_and_read_per_hex() {
        let mut m = map(5, 5, Orientation::Flat, OffsetParity::Odd);
        let (a, d) = (at(&m, "0303"), at(&m, "0203"));
        m.add_to_zone(a, "france").unwrap();
        m.add_to_zone(a, "coast").unwrap();
        assert_eq!(
            m.zone_names(),
            [
                "north_edge",
                "south_edge",
                "west_edge",
                "east_edge",
                "france",
                "coast"
            ]
        );
        assert_eq!(m.zone_id("north_edge"), Some(0));
        assert_eq!(m.zone_id("coast"), Some(5));
        assert_eq!(m.zone_id("nowhere"), None);
        assert_eq!(m.zone_mask(a), 0b11_0000);
        assert_eq!(m.zone_mask(at(&m, "0101")), 0b0101);
        assert!(m.in_zone(a, "france") && m.in_zone(a, "coast"));
        assert!(!m.in_zone(d, "france") && !m.in_zone(a, "west_edge"));
        assert!(!m.in_zone(a, "nowhere"));
        assert_eq!(m.zones_of(a), ["france", "coast"]);
        assert_eq!(m.zone_hexes("france"), Some(vec![a]));
        assert_eq!(m.zone_hexes("nowhere"), None);
    }

    /// A border runs between two hexes in different zones of one bordered set, not between
    /// two hexes of the same zone nor into a hex outside the set.
    #[test]
    fn a_border_runs_only_between_different_zones_of_a_bordered_set() {
        let mut m = map(5, 5, Orientation::Flat, OffsetParity::Odd);
        let (a, b, c, d) = (
            at(&m, "0303"),
            at(&m, "0304"),
            at(&m, "0302"),
            at(&m, "0203"),
        );
        m.add_to_zone(a, "france").unwrap();
        m.add_to_zone(c, "france").unwrap();
        m.add_to_zone(b, "germany").unwrap();
        m.add_border(&["nowhere"]);
        assert!(!m.has_borders(), "a set of no known zone draws nothing");
        assert!(!m.border_between(a, b));
        // (a zone named twice is one zone of the set)
        m.add_border(&["france", "germany", "france", "nowhere"]);
        assert!(m.has_borders());
        assert!(m.border_between(a, b) && m.border_between(b, a));
        assert!(!m.border_between(a, c), "same zone");
        assert!(!m.border_between(a, d), "d is in no zone of the set");
        assert!(!m.border_between(d, a));
    }
}
