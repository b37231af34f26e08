//! The hex map file format (TOML), written by hand by designers. See `docs/formats.md`.
//!
//! ```toml
//! name = "Demo valley"
//! columns = 4
//! rows = 2
//! orientation = "flat"   # or "pointy"; default flat
//! offset = "odd"         # printed columns (flat) / rows (pointy) shifted half a hex; default odd
//! grid = [
//!   ". . f h",           # row 01: one legend character per column; spaces are ignored
//!   ". w . .",           # row 02
//! ]
//! [legend]
//! "." = "clear"
//! f = "forest"
//! h = "hills"
//! w = "lake"
//! [features]
//! town = ["0101"]
//! [hexsides]
//! river = ["0101/0102", "0201/0202"]
//! [zones]
//! red_setup = ["0101", "0102"]
//! [[overlay]]            # paint zones with a grid of letters instead of lists
//! legend = { B = "blue_country", R = "red_country" }
//! grid = ["B B R R", "B B R R"]
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::error::MapError;
use super::grid::{HexIndex, HexMap, HexMapParts, OffsetParity, Orientation};
use super::source::SourceText;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapSpec {
    /// `"hex"` (the default); area maps say `"area"` and are read by `area_file`.
    #[serde(default)]
    #[allow(dead_code)]
    kind: Option<String>,
    name: String,
    columns: Spanned<u32>,
    rows: Spanned<u32>,
    #[serde(default)]
    orientation: Option<Orientation>,
    #[serde(default)]
    offset: Option<OffsetParity>,
    grid: Spanned<Vec<Spanned<String>>>,
    legend: Spanned<BTreeMap<String, String>>,
    #[serde(default)]
    features: BTreeMap<String, Vec<Spanned<String>>>,
    #[serde(default)]
    hexsides: BTreeMap<String, Vec<Spanned<String>>>,
    #[serde(default)]
    zones: BTreeMap<String, Vec<Spanned<String>>>,
    #[serde(default)]
    overlay: Vec<OverlaySpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OverlaySpec {
    legend: Spanned<BTreeMap<String, String>>,
    grid: Spanned<Vec<Spanned<String>>>,
    /// Pictures draw the boundaries between this overlay's zones (countries).
    #[serde(default)]
    border: bool,
}

/// The largest map accepted: a 1000×1000 map is 1 M hexes; this leaves room for 4×.
const MAX_HEXES: u64 = 4_000_000;

/// Reads and validates a map file.
pub fn load_map(path: &Path) -> Result<HexMap, MapError> {
    let source = SourceText::read(path).map_err(|e| MapError::unreadable(path, e))?;
    parse_map(&source)
}

/// Parses and validates map text; the first error found is returned, located.
pub fn parse_map(source: &SourceText) -> Result<HexMap, MapError> {
    parse_map_all(source).map_err(|mut errors| errors.swap_remove(0))
}

/// Parses and validates map text; every error, each naming the file, line and hex: a bad hex
/// label in the features, hexsides or zones, a row of the wrong length, a letter the legend
/// lacks (one error per letter, with how many hexes carry it). What the rest depends on (the
/// TOML, the size, the legend, the number of rows) stops the reading at its first error.
pub fn parse_map_all(source: &SourceText) -> Result<HexMap, Vec<MapError>> {
    let err = |offset: usize, hex: Option<String>, message: String| MapError {
        file: source.path.clone(),
        line: source.line_of(offset),
        hex,
        message,
    };
    let spec: MapSpec = super::parse_toml(&source.text).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| err(e.offset, None, e.message))
            .collect::<Vec<_>>()
    })?;

    let (columns, rows) = (*spec.columns.get_ref(), *spec.rows.get_ref());
    if columns == 0 || rows == 0 || u64::from(columns) * u64::from(rows) > MAX_HEXES {
        return Err(vec![err(
            spec.columns.span().start,
            None,
            format!("map size {columns}×{rows} must be at least 1×1 and at most {MAX_HEXES} hexes"),
        )]);
    }

    // Terrain ids follow the legend's name order so the same file always gives the same ids.
    let legend = letter_legend(spec.legend.get_ref(), spec.legend.span().start, &err)?;
    let mut terrain_names: Vec<String> = legend.values().cloned().collect();
    terrain_names.sort();
    terrain_names.dedup();
    if terrain_names.len() > 255 {
        return Err(vec![err(
            spec.legend.span().start,
            None,
            "at most 255 terrain kinds".into(),
        )]);
    }
    let letter_ids: BTreeMap<char, u8> = legend
        .iter()
        .map(|(c, name)| {
            (
                *c,
                terrain_names.iter().position(|n| n == name).unwrap_or(0) as u8,
            )
        })
        .collect();

    let mut map = HexMap::new(HexMapParts {
        name: spec.name.clone(),
        columns,
        rows,
        orientation: spec.orientation,
        parity: spec.offset,
        terrain_names,
        terrain: Vec::new(),
    });
    let mut errors: Vec<MapError> = Vec::new();
    let mut terrain = vec![0u8; map.len() as usize];
    let mut unknown = UnknownLetters::default();
    paint(
        &map,
        &spec.grid,
        "grid",
        &err,
        &mut errors,
        |index, letter, offset, label| match letter_ids.get(&letter) {
            Some(id) => terrain[index as usize] = *id,
            None => unknown.add(letter, offset, label),
        },
    )?;
    let known: String = letter_ids.keys().collect();
    unknown.report(&err, &mut errors, |letter| {
        format!("unknown terrain letter '{letter}' (the legend has \"{known}\")")
    });
    map.set_terrain(terrain);

    for (feature, labels) in &spec.features {
        for label in labels {
            let added = hex_of(&map, label, &err).and_then(|index| {
                map.add_feature(index, feature)
                    .map_err(|m| err(label.span().start, Some(label.get_ref().clone()), m))
            });
            errors.extend(added.err());
        }
    }
    for (feature, pairs) in &spec.hexsides {
        for pair in pairs {
            errors.extend(add_hexside(&mut map, feature, pair, &err).err());
        }
    }
    for (zone, labels) in &spec.zones {
        // (an empty name reads as none: no rule could ask for the zone. A name of an edge zone
        // adds hexes to that edge, as test maps do for a supply source off the map's edge)
        if zone.is_empty() {
            let at = labels.first().map_or(0, |l| l.span().start);
            errors.push(err(at, None, "a zone needs a name".to_string()));
            continue;
        }
        for label in labels {
            let added = hex_of(&map, label, &err).and_then(|index| {
                map.add_to_zone(index, zone)
                    .map_err(|m| err(label.span().start, Some(label.get_ref().clone()), m))
            });
            errors.extend(added.err());
        }
    }
    for overlay in &spec.overlay {
        let legend =
            match letter_legend(overlay.legend.get_ref(), overlay.legend.span().start, &err) {
                Ok(legend) => legend,
                Err(e) => {
                    errors.extend(e);
                    continue;
                }
            };
        let mut painted: Vec<(HexIndex, String, usize, String)> = Vec::new();
        let mut unknown = UnknownLetters::default();
        let grid = paint(
            &map,
            &overlay.grid,
            "overlay grid",
            &err,
            &mut errors,
            |index, letter, offset, label| {
                if letter == '.' && !legend.contains_key(&'.') {
                    return;
                }
                match legend.get(&letter) {
                    Some(zone) => painted.push((index, zone.clone(), offset, label.to_string())),
                    None => unknown.add(letter, offset, label),
                }
            },
        );
        if let Err(e) = grid {
            errors.extend(e);
            continue;
        }
        unknown.report(&err, &mut errors, |letter| {
            format!("overlay letter '{letter}' is not in the overlay's legend ('.' means no zone)")
        });
        for (index, zone, offset, label) in painted {
            if !zone.is_empty() {
                errors.extend(
                    map.add_to_zone(index, &zone)
                        .map_err(|m| err(offset, Some(label), m))
                        .err(),
                );
            }
        }
        if overlay.border {
            let zones: Vec<&str> = legend.values().map(String::as_str).collect();
            map.add_border(&zones);
        }
    }
    if errors.is_empty() {
        Ok(map)
    } else {
        // (found part by part: listed in the file's order)
        errors.sort_by_key(|e| e.line);
        Err(errors)
    }
}

type ErrFn<'a> = dyn Fn(usize, Option<String>, String) -> MapError + 'a;

/// Adds the hexside feature `feature` on `pair` ("0312/0313").
fn add_hexside(
    map: &mut HexMap,
    feature: &str,
    pair: &Spanned<String>,
    err: &ErrFn<'_>,
) -> Result<(), MapError> {
    let text = pair.get_ref();
    let (a, b) = text.split_once('/').ok_or_else(|| {
        err(
            pair.span().start,
            None,
            format!("hexside '{text}' must be two labels joined by '/', like \"0312/0313\""),
        )
    })?;
    let ia = label_index(map, a, pair.span().start, err)?;
    let ib = label_index(map, b, pair.span().start, err)?;
    map.add_hexside_feature(ia, ib, feature).map_err(|m| {
        err(
            pair.span().start,
            Some(text.clone()),
            format!("hexside {text}: {m}"),
        )
    })
}

/// The hexes painted with letters a legend lacks, per letter: one error each, located at the
/// first, so a misspelt legend gives a line per letter, not one per hex.
#[derive(Default)]
struct UnknownLetters {
    /// letter -> (offset and label of its first hex, how many hexes carry it)
    seen: BTreeMap<char, (usize, String, usize)>,
    /// The letters in the order first met.
    order: Vec<char>,
}

impl UnknownLetters {
    fn add(&mut self, letter: char, offset: usize, label: &str) {
        let entry = self.seen.entry(letter).or_insert_with(|| {
            self.order.push(letter);
            (offset, label.to_string(), 0)
        });
        entry.2 += 1;
    }

    fn report(self, err: &ErrFn<'_>, errors: &mut Vec<MapError>, message: impl Fn(char) -> String) {
        for letter in self.order {
            let Some((offset, label, count)) = self.seen.get(&letter) else {
                continue;
            };
            let mut text = message(letter);
            if *count > 1 {
                text.push_str(&format!(" ({count} hexes carry it, this is the first)"));
            }
            errors.push(err(*offset, Some(label.clone()), text));
        }
    }
}

/// A legend maps single characters to names; every key that is not one character is an error.
fn letter_legend(
    legend: &BTreeMap<String, String>,
    offset: usize,
    err: &ErrFn<'_>,
) -> Result<BTreeMap<char, String>, Vec<MapError>> {
    let mut out = BTreeMap::new();
    let mut errors = Vec::new();
    for (key, name) in legend {
        let mut chars = key.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_whitespace() => {
                out.insert(c, name.clone());
            }
            _ => errors.push(err(
                offset,
                None,
                format!("legend key \"{key}\" must be a single non-space character"),
            )),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Walks a grid of letters (one string per row, spaces ignored), calling `each` per hex. A
/// grid with the wrong number of rows is an error that stops it; a row of the wrong length is
/// an error in `errors`, and the walk goes on with the next row.
fn paint(
    map: &HexMap,
    grid: &Spanned<Vec<Spanned<String>>>,
    what: &str,
    err: &ErrFn<'_>,
    errors: &mut Vec<MapError>,
    mut each: impl FnMut(HexIndex, char, usize, &str),
) -> Result<(), Vec<MapError>> {
    let rows = grid.get_ref();
    if rows.len() != map.rows() as usize {
        return Err(vec![err(
            grid.span().start,
            None,
            format!("{what} has {} rows, the map has {}", rows.len(), map.rows()),
        )]);
    }
    for (row, line) in rows.iter().enumerate() {
        let letters: Vec<char> = line
            .get_ref()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let offset = line.span().start;
        if letters.len() != map.columns() as usize {
            // (the row, not one of its hexes: no hex label before the message)
            errors.push(err(
                offset,
                None,
                format!(
                    "{what} row {} has {} hexes, the map has {} columns",
                    row + 1,
                    letters.len(),
                    map.columns()
                ),
            ));
            continue;
        }
        for (col, letter) in letters.into_iter().enumerate() {
            let index = map.index_of_col_row(col as u32, row as u32).unwrap_or(0);
            let label = map.label(index);
            each(index, letter, offset, &label);
        }
    }
    Ok(())
}

fn label_index(
    map: &HexMap,
    label: &str,
    offset: usize,
    err: &ErrFn<'_>,
) -> Result<HexIndex, MapError> {
    map.parse_label(label).ok_or_else(|| {
        let digits = map.label_format().digits;
        err(
            offset,
            Some(label.to_string()),
            format!(
                "not a hex of this {}×{} map (labels are {} digits, column then row)",
                map.columns(),
                map.rows(),
                digits * 2
            ),
        )
    })
}

fn hex_of(map: &HexMap, label: &Spanned<String>, err: &ErrFn<'_>) -> Result<HexIndex, MapError> {
    label_index(map, label.get_ref(), label.span().start, err)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"name = "t"
columns = 3
rows = 2
grid = [
  ". f .",
  ". . h",
]
[legend]
"." = "clear"
f = "forest"
h = "hills"
[features]
town = ["0101"]
[hexsides]
river = ["0101/0102"]
[zones]
red = ["0302"]
[[overlay]]
legend = { B = "blue_land" }
grid = ["B . .", "B B ."]
"#;

    fn parse(text: &str) -> Result<HexMap, MapError> {
        parse_map(&SourceText::new("maps/t.toml", text))
    }

    /// A zone without a name is no zone a rule could ask about; one named like an edge zone adds
    /// hexes to that edge (formats.md).
    #[test]
    fn a_zone_without_a_name_is_refused_and_an_edge_zone_extended() {
        let e = parse(&GOOD.replace("red = [\"0302\"]", "\"\" = [\"0302\"]")).unwrap_err();
        assert_eq!(e.to_string(), "maps/t.toml:17: a zone needs a name");
        let m = parse(&GOOD.replace("red = [\"0302\"]", "north_edge = [\"0202\"]")).unwrap();
        let north: Vec<String> = m
            .zone_hexes("north_edge")
            .unwrap()
            .into_iter()
            .map(|i| m.label(i))
            .collect();
        assert!(north.contains(&"0202".to_string()), "{north:?}");
        assert!(north.contains(&"0101".to_string()), "{north:?}");
    }

    #[test]
    fn a_good_map_loads() {
        let m = parse(GOOD).unwrap();
        assert_eq!(m.terrain_name(m.parse_label("0201").unwrap()), "forest");
        assert_eq!(m.terrain_name(m.parse_label("0302").unwrap()), "hills");
        assert!(m.has_feature(m.parse_label("0101").unwrap(), "town"));
        let (a, b) = (
            m.parse_label("0101").unwrap(),
            m.parse_label("0102").unwrap(),
        );
        assert_eq!(m.hexside_features(b, a), ["river"]);
        assert!(m.in_zone(m.parse_label("0302").unwrap(), "red"));
        let blue: Vec<String> = m
            .zone_hexes("blue_land")
            .unwrap()
            .into_iter()
            .map(|i| m.label(i))
            .collect();
        assert_eq!(blue, ["0101", "0102", "0202"]);
    }

    /// `border = true` on an overlay: pictures draw a border between two hexes in different
    /// zones of it, none where either hex is in none of them (the sea), none without the key.
    #[test]
    fn an_overlay_with_border_marks_the_boundaries_of_its_zones() {
        let text = GOOD.replace(
            "[[overlay]]\nlegend = { B = \"blue_land\" }\ngrid = [\"B . .\", \"B B .\"]",
            "[[overlay]]\nborder = true\nlegend = { B = \"blue\", R = \"red_land\" }\ngrid = [\"B R R\", \"B B .\"]",
        );
        let m = parse(&text).unwrap();
        let at = |l: &str| m.parse_label(l).unwrap();
        let bordered: Vec<(String, String)> = (0..m.len())
            .flat_map(|a| m.neighbors(a).map(move |(_, b)| (a, b)))
            .filter(|&(a, b)| a < b && m.border_between(a, b))
            .map(|(a, b)| (m.label(a), m.label(b)))
            .collect();
        assert_eq!(
            bordered,
            [
                ("0101".to_string(), "0201".to_string()),
                ("0201".to_string(), "0202".to_string()),
                ("0301".to_string(), "0202".to_string()),
            ]
        );
        assert!(m.has_borders());
        assert!(
            !m.border_between(at("0301"), at("0302")),
            "0302 is in no zone"
        );
        assert!(!parse(GOOD).unwrap().has_borders());
    }

    #[test]
    fn bad_terrain_letter_names_file_line_and_hex() {
        let text = GOOD.replace("\". . h\"", "\". x h\"");
        let e = parse(&text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "maps/t.toml:6: hex 0202: unknown terrain letter 'x' (the legend has \".fh\")"
        );
    }

    #[test]
    fn toml_syntax_error_names_the_line() {
        let text = GOOD.replace("rows = 2", "rows = = 2");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().starts_with("maps/t.toml:3: TOML: "), "{e}");
    }

    #[test]
    fn short_row_is_refused() {
        let text = GOOD.replace("\". . h\"", "\". .\"");
        assert_eq!(
            parse(&text).unwrap_err().to_string(),
            "maps/t.toml:6: grid row 2 has 2 hexes, the map has 3 columns"
        );
    }

    #[test]
    fn hexside_between_far_hexes_is_refused() {
        let text = GOOD.replace("\"0101/0102\"", "\"0101/0302\"");
        assert_eq!(
            parse(&text).unwrap_err().to_string(),
            "maps/t.toml:15: hex 0101/0302: hexside 0101/0302: the two hexes are not adjacent"
        );
    }

    fn parse_all(text: &str) -> Vec<String> {
        parse_map_all(&SourceText::new("maps/t.toml", text))
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn every_error_of_the_declarations_is_listed_in_file_order_of_each_table() {
        let text = GOOD
            .replace("\". f .\"", "\". q .\"")
            .replace("\". . h\"", "\"q . z\"")
            .replace("town = [\"0101\"]", "town = [\"0909\", \"0101\", \"0402\"]")
            .replace(
                "river = [\"0101/0102\"]",
                "river = [\"0101-0102\", \"0101/0302\"]",
            )
            .replace("red = [\"0302\"]", "red = [\"0303\"]")
            .replace(
                "grid = [\"B . .\", \"B B .\"]",
                "grid = [\"B . X\", \"B B\"]",
            );
        assert_eq!(
            parse_all(&text),
            [
                "maps/t.toml:5: hex 0201: unknown terrain letter 'q' (the legend has \".fh\") (2 hexes carry it, this is the first)",
                "maps/t.toml:6: hex 0302: unknown terrain letter 'z' (the legend has \".fh\")",
                "maps/t.toml:13: hex 0909: not a hex of this 3×2 map (labels are 4 digits, column then row)",
                "maps/t.toml:13: hex 0402: not a hex of this 3×2 map (labels are 4 digits, column then row)",
                "maps/t.toml:15: hexside '0101-0102' must be two labels joined by '/', like \"0312/0313\"",
                "maps/t.toml:15: hex 0101/0302: hexside 0101/0302: the two hexes are not adjacent",
                "maps/t.toml:17: hex 0303: not a hex of this 3×2 map (labels are 4 digits, column then row)",
                "maps/t.toml:20: overlay grid row 2 has 2 hexes, the map has 3 columns",
                "maps/t.toml:20: hex 0301: overlay letter 'X' is not in the overlay's legend ('.' means no zone)",
            ]
        );
        // (the one-error form gives the first of them)
        assert_eq!(parse(&text).unwrap_err().to_string(), parse_all(&text)[0]);
    }

    #[test]
    fn a_grid_with_too_few_rows_stops_the_reading_there() {
        let text = GOOD
            .replace("  \". . h\",\n", "")
            .replace("town = [\"0101\"]", "town = [\"0909\"]");
        assert_eq!(
            parse_all(&text),
            ["maps/t.toml:4: grid has 1 rows, the map has 2"]
        );
    }

    #[test]
    fn every_bad_legend_key_is_listed() {
        let text = GOOD.replace("f = \"forest\"", "ff = \"forest\"\n\"\" = \"x\"");
        assert_eq!(
            parse_all(&text),
            [
                "maps/t.toml:8: legend key \"\" must be a single non-space character",
                "maps/t.toml:8: legend key \"ff\" must be a single non-space character",
            ]
        );
    }

    /// A map of no hexes, or of more than MAX_HEXES, is refused by its size before its grid
    /// is read (a 0-column map used to be judged only by its rows).
    #[test]
    fn a_map_of_no_hexes_or_too_many_is_refused_by_its_size() {
        let sized = |columns: u32, rows: u32| {
            parse_all(&GOOD.replace(
                "columns = 3\nrows = 2",
                &format!("columns = {columns}\nrows = {rows}"),
            ))
        };
        let refused = |c: u32, r: u32| {
            vec![format!(
                "maps/t.toml:2: map size {c}×{r} must be at least 1×1 and at most 4000000 hexes"
            )]
        };
        assert_eq!(sized(0, 2), refused(0, 2));
        assert_eq!(sized(3, 0), refused(3, 0));
        assert_eq!(sized(2001, 2000), refused(2001, 2000));
        // (exactly MAX_HEXES passes the size check: the grid's rows are what is wrong then)
        assert_eq!(
            sized(2000, 2000),
            ["maps/t.toml:4: grid has 2 rows, the map has 2000"]
        );
    }

    /// Terrain ids are bytes: 255 kinds are the most a legend may name.
    #[test]
    fn a_legend_of_255_terrain_kinds_loads_and_256_are_refused() {
        let with_kinds = |n: u32| {
            let mut legend = String::from("\".\" = \"clear\"\n");
            for i in 1..n {
                let letter = char::from_u32(0x100 + i).unwrap();
                legend.push_str(&format!("\"{letter}\" = \"t{i:03}\"\n"));
            }
            let text =
                format!("name = \"t\"\ncolumns = 1\nrows = 1\ngrid = [\".\"]\n[legend]\n{legend}");
            parse_map_all(&SourceText::new("maps/t.toml", &text))
                .map(|m| m.terrain_names().len())
                .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())
        };
        assert_eq!(with_kinds(255), Ok(255));
        assert_eq!(
            with_kinds(256),
            Err(vec!["maps/t.toml:5: at most 255 terrain kinds".to_string()])
        );
    }

    #[test]
    fn a_space_as_legend_key_is_refused() {
        let text = GOOD.replace("f = \"forest\"", "\" \" = \"forest\"");
        assert_eq!(
            parse_all(&text),
            ["maps/t.toml:8: legend key \" \" must be a single non-space character"]
        );
    }

    #[test]
    fn off_map_label_is_refused() {
        let text = GOOD.replace("town = [\"0101\"]", "town = [\"0909\"]");
        assert_eq!(parse(&text).unwrap_err().to_string(), "maps/t.toml:13: hex 0909: not a hex of this 3×2 map (labels are 4 digits, column then row)");
    }
}
