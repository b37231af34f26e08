//! `Board`: the map of a scenario, a hex grid or an area graph. The map file says which
//! (`kind = "area"`; hex maps need no `kind`), so one scenario key (`map = "map.toml"`) serves both.

use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use super::area::AreaMap;
use super::area_file::parse_area_map_all;
use super::error::MapError;
use super::grid::HexMap;
use super::map_file::parse_map_all;
use super::source::SourceText;

/// A scenario's board. Cheap to clone (shared, never changes during a game).
#[derive(Debug, Clone)]
pub enum Board {
    Hex(Arc<HexMap>),
    Area(Arc<AreaMap>),
}

impl Board {
    pub fn name(&self) -> &str {
        match self {
            Board::Hex(m) => &m.name,
            Board::Area(m) => &m.name,
        }
    }

    /// `"hex"` or `"area"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Board::Hex(_) => "hex",
            Board::Area(_) => "area",
        }
    }

    pub fn as_hex(&self) -> Option<&Arc<HexMap>> {
        match self {
            Board::Hex(m) => Some(m),
            Board::Area(_) => None,
        }
    }

    pub fn as_area(&self) -> Option<&Arc<AreaMap>> {
        match self {
            Board::Area(m) => Some(m),
            Board::Hex(_) => None,
        }
    }

    /// Can a unit stand at this place? A hex label, or an area location (`"STP/NC"`).
    pub fn is_place(&self, place: &str) -> bool {
        match self {
            Board::Hex(m) => m.parse_label(place).is_some(),
            Board::Area(m) => m.is_location(place),
        }
    }

    /// The place as the game keeps it (an area region's id for one of its aliases; a hex label
    /// as written), or None if the map has no such place.
    pub fn canonical_place<'a>(&self, place: &'a str) -> Option<std::borrow::Cow<'a, str>> {
        match self {
            Board::Hex(m) => m.parse_label(place).map(|_| place.into()),
            Board::Area(m) => m.canonical_location(place),
        }
    }

    /// For a message refusing a place the map lacks: ` (did you mean 'EAST'?)` with the
    /// region id or alias of an area map the place names in another case (`east`) or is
    /// nearest to (names of 4 letters or more), or nothing; of a hex map, its size and labels
    /// (` (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)`: a hex label one
    /// digit off is no misspelling to point at).
    pub fn unknown_place_hint(&self, place: &str) -> String {
        let m = match self {
            Board::Area(m) => m,
            // (a hex label: the map's size and how its labels read, as the map file's errors say)
            Board::Hex(map) => return map.labels_hint(),
        };
        // (a coast is spelt after its region: `spa/xc` is near `SPA`; of a region the map has,
        // the coast is what is wrong)
        let region = place.split('/').next().unwrap_or(place);
        if let (true, Some(r)) = (place.contains('/'), m.region_of(region)) {
            let coasts: Vec<&str> = r.coasts.keys().map(String::as_str).collect();
            return if coasts.is_empty() {
                format!(" ({} has no split coasts)", r.id)
            } else {
                format!(" ({}'s coasts: {})", r.id, coasts.join(", "))
            };
        }
        let names: Vec<String> = m
            .regions()
            .iter()
            .flat_map(|r| std::iter::once(&r.id).chain(&r.aliases))
            .cloned()
            .collect();
        if region.len() < 4 && !names.iter().any(|n| n.eq_ignore_ascii_case(region)) {
            return String::new();
        }
        crate::spelling::nearest_any_case(region, &names)
            .map(|r| format!(" (did you mean '{r}'?)"))
            .unwrap_or_default()
    }

    /// What a place is called in messages (`hex`, `location`).
    pub fn place_word(&self) -> &'static str {
        match self {
            Board::Hex(_) => "hex",
            Board::Area(_) => "location",
        }
    }
}

#[derive(Deserialize)]
struct KindOnly {
    #[serde(default)]
    kind: Option<String>,
}

/// The `kind = "..."` of a file that does not parse as TOML: a top-level line before any table.
fn kind_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .take_while(|line| !line.starts_with('['))
        .find_map(|line| {
            let (key, value) = line.split_once('=')?;
            let value = value.split('#').next().unwrap_or_default();
            (key.trim() == "kind").then(|| value.trim().trim_matches('"').to_string())
        })
}

/// Reads a map file of either kind; the first error found.
pub fn load_board(path: &Path) -> Result<Board, MapError> {
    load_board_all(path).map_err(|mut errors| errors.swap_remove(0))
}

/// Reads a map file of either kind, with every error its declarations have (a designer fixes
/// ten misspelt region types or hex labels in one pass).
pub fn load_board_all(path: &Path) -> Result<Board, Vec<MapError>> {
    let source = SourceText::read(path).map_err(|e| vec![MapError::unreadable(path, e)])?;
    // A malformed file goes to the parser its `kind` line names (read from the text when the
    // file does not parse: an area map's TOML error was reported as a hex map's, with a hint
    // to add the `kind = "area"` it had), which reports the TOML error located.
    let kind = match toml::from_str::<KindOnly>(&source.text) {
        Ok(k) => k.kind,
        Err(_) => kind_line(&source.text),
    };
    match kind.as_deref() {
        Some("area") => Ok(Board::Area(Arc::new(parse_area_map_all(&source)?))),
        None | Some("hex") => parse_map_all(&source)
            .map(|m| Board::Hex(Arc::new(m)))
            .map_err(|mut errors| {
                // (an area map without its `kind` line reads as a hex map with unknown keys)
                // (its other keys are unknown for the same reason: the first says it)
                if kind.is_none() && source.text.contains("[[region]]") {
                    errors.truncate(1);
                    for e in &mut errors {
                        e.message
                            .push_str(" (the file has [[region]] tables: an area map starts with kind = \"area\")");
                    }
                }
                errors
            }),
        Some(other) => {
            // (the line that writes `kind =`, not the first "kind" in a comment or a name)
            let line = source
                .text
                .lines()
                .position(|l| {
                    l.trim_start()
                        .strip_prefix("kind")
                        .is_some_and(|rest| rest.trim_start().starts_with('='))
                })
                .map_or(0, |i| i + 1);
            let near = crate::spelling::nearest(other, ["hex", "area"], 3)
                .map(|k| format!(" (did you mean \"{k}\"?)"))
                .unwrap_or_default();
            Err(vec![MapError {
                file: path.to_path_buf(),
                line,
                hex: None,
                message: format!(
                    "kind = \"{other}\"{near}: a map is kind = \"hex\" (the default) or \"area\""
                ),
            }])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_line_is_read_from_a_file_that_does_not_parse() {
        assert_eq!(
            kind_line("# a map\nkind = \"area\"  # the board\nname = [\n"),
            Some("area".into())
        );
        assert_eq!(
            kind_line("name = \"x\"\n[[region]]\nkind = \"area\"\n"),
            None
        );
    }

    /// A malformed area map is reported as the area map it is (it was read as a hex map, and
    /// the message told the designer to add the `kind = "area"` line the file had).
    #[test]
    fn a_malformed_area_map_gets_no_hint_to_declare_its_kind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("map.toml");
        std::fs::write(
            &path,
            "kind = \"area\"\nname = \"t\"\n[[region]]\nid = \"A\"\ntype = \"land\"\nattrs = { x = \n",
        )
        .unwrap();
        let e = load_board(&path).unwrap_err();
        assert_eq!(e.line, 6);
        assert!(!e.message.contains("an area map starts with"), "{e}");
    }
}
