//! A hex board as SVG: terrain, hex features, hexside features, labels, overlay, units, legend.

use std::collections::BTreeMap;

use super::counter;
use super::geometry::Geometry;
use super::overlay::OverlayData;
use super::palette;
use super::svg::{num, Svg};
use super::Picture;
use crate::board::HexMap;
use crate::engine::{GameState, Unit};

/// Circumradius of a hex in pixels.
const HEX: f64 = 40.0;
const MARGIN: f64 = 12.0;

/// Renders a hex map with the position on it.
pub fn render(
    map: &HexMap,
    title: &str,
    sides: &[String],
    state: &GameState,
    overlay: Option<&OverlayData>,
    vertex_kinds: &[String],
) -> Picture {
    let geo = Geometry::new(map, HEX, MARGIN);
    let (w, h) = geo.extent();
    let side_colour = |side: &str| {
        let order = sides.iter().position(|s| s == side).unwrap_or(sides.len());
        palette::side(side, order)
    };
    let centre = |index: u32| {
        let (c, r) = map.col_row(index);
        geo.center(c, r)
    };

    // The legend goes under the map; its height depends on how many entries wrap.
    let legend = legend_entries(map, sides, overlay);
    let per_row = ((w - 2.0 * MARGIN) / 150.0).floor().max(1.0) as usize;
    let legend_rows = legend.len().div_ceil(per_row);
    let legend_h = 50.0 + 20.0 * legend_rows as f64 + 10.0;
    let mut svg = Svg::new(w, h + legend_h);

    // Terrain.
    svg.open_group("terrain", " stroke=\"#8a8a7a\" stroke-width=\"0.8\"");
    for index in 0..map.len() {
        let fill = palette::terrain(map.terrain_name(index));
        svg.polygon(
            &geo.corners(centre(index), 1.0),
            &format!("fill=\"{fill}\""),
        );
    }
    svg.close_group();

    // Overlay tints under everything else drawn on a hex.
    if let Some(o) = overlay {
        svg.open_group("overlay", "");
        for (label, tint_sides) in &o.tints {
            let Some(index) = map.parse_label(label) else {
                continue;
            };
            for side in tint_sides {
                svg.polygon(
                    &geo.corners(centre(index), 0.92),
                    &format!(
                        "fill=\"{}\" fill-opacity=\"0.45\" stroke=\"{}\" stroke-width=\"2\"",
                        side_colour(side),
                        side_colour(side)
                    ),
                );
            }
        }
        for (label, text) in &o.marks {
            let Some(index) = map.parse_label(label) else {
                continue;
            };
            let c = centre(index);
            svg.polygon(
                &geo.corners(c, 0.92),
                "fill=\"#ffe14d\" fill-opacity=\"0.55\" stroke=\"#b38f00\" stroke-width=\"1.5\"",
            );
            if !text.is_empty() {
                svg.text(
                    c.0 + HEX * 0.55,
                    c.1 + HEX * 0.12,
                    HEX * 0.3,
                    text,
                    "font-weight=\"bold\" fill=\"#6b5200\"",
                );
            }
        }
        svg.close_group();
    }

    // Hex features, in a row near the bottom of the hex.
    svg.open_group("features", "");
    for index in 0..map.len() {
        let features = map.features_of(index);
        let c = centre(index);
        let n = features.len() as f64;
        for (i, name) in features.iter().enumerate() {
            let x = c.0 + (i as f64 - (n - 1.0) / 2.0) * HEX * 0.34;
            feature_icon(&mut svg, name, (x, c.1 + HEX * 0.6), HEX * 0.14);
        }
    }
    svg.close_group();

    // Borders between the zones of a bordered overlay (countries), under the hexside features
    // that often follow them (rivers).
    if map.has_borders() {
        draw_borders(&mut svg, map, &geo);
    }

    // Hexside features, in key order: first those that part two hexes (rivers), then those
    // that cross them (bridges, roads), so that a bridge is drawn over its river (it was
    // drawn under it, and only its edges showed).
    svg.open_group("hexsides", " stroke-linecap=\"round\"");
    for crossing in [false, true] {
        for (a, b, mask) in map.hexsides_with_features().values() {
            for (bit, name) in map.hexside_feature_names().iter().enumerate() {
                if mask & (1 << bit) == 0 || palette::crosses(name) != crossing {
                    continue;
                }
                let (colour, width, dash) = palette::hexside(name);
                let (p, q) = if palette::is_connection(name) {
                    (centre(*a), centre(*b))
                } else {
                    geo.hexside(centre(*a), centre(*b))
                };
                svg.line(p, q, &stroke(&colour, width, dash));
            }
        }
    }
    svg.close_group();

    // Labels (CCRR) at the top of each hex.
    svg.open_group("labels", " fill=\"#55554a\"");
    for index in 0..map.len() {
        let c = centre(index);
        svg.text(c.0, c.1 - HEX * 0.6, HEX * 0.24, &map.label(index), "");
    }
    svg.close_group();

    // Units, stacked by hex in id order (the last drawn on top, a little lower and right).
    let mut stacks: BTreeMap<u32, Vec<&Unit>> = BTreeMap::new();
    for unit in state.units.values() {
        if let Some(index) = unit.at.as_deref().and_then(|at| map.parse_label(at)) {
            stacks.entry(index).or_default().push(unit);
        }
    }
    svg.open_group("units", "");
    let c_size = HEX * 0.86;
    for (index, units) in &stacks {
        let c = centre(*index);
        let n = units.len() as f64;
        for (i, unit) in units.iter().enumerate() {
            let shift = (i as f64 - (n - 1.0) / 2.0) * HEX * 0.09;
            let at = (c.0 + shift, c.1 + shift);
            counter::draw(&mut svg, unit, at, c_size, &side_colour(&unit.side));
            if let Some(o) = overlay {
                if o.focus.as_deref() == Some(unit.id.as_str()) {
                    svg.rect(
                        at.0 - c_size / 2.0 - 3.0,
                        at.1 - c_size / 2.0 - 3.0,
                        c_size + 6.0,
                        c_size + 6.0,
                        "fill=\"none\" stroke=\"#d40000\" stroke-width=\"3\"",
                    );
                }
                if let Some(supplied) = o.supply.get(&unit.id) {
                    supply_mark(
                        &mut svg,
                        (at.0 + c_size / 2.0, at.1 - c_size / 2.0),
                        *supplied,
                    );
                }
            }
            if let Some(facing) = unit.facing {
                // (a vertex facing k, ANC-6.1 / TA-R1: the corner between edges k-1 and k,
                // towards the midpoint of those two neighbours' centres)
                let to = if vertex_kinds.contains(&unit.kind) {
                    let before = faced_centre(map, *index, (facing + 5) % 6, &centre);
                    let after = faced_centre(map, *index, facing, &centre);
                    before
                        .zip(after)
                        .map(|(a, b)| ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0))
                } else {
                    faced_centre(map, *index, facing, &centre)
                };
                if let Some(to) = to {
                    counter::facing_arrow(&mut svg, at, to, HEX);
                }
            }
            // (a two-base unit, TAC-4 / TA-R6: its second base's facing, kept in `facing2`,
            // gets its own arrow; only the first one was drawn)
            let second = unit.attrs.get("facing2").and_then(|f| f.as_u64());
            if let Some(to) = second
                .filter(|f| *f < 6)
                .and_then(|f| faced_centre(map, *index, f as u8, &centre))
            {
                counter::facing_arrow(&mut svg, at, to, HEX);
            }
        }
    }
    svg.close_group();

    // Legend.
    svg.open_group("legend", "");
    let top = h + 6.0;
    let turn = format!("{title}, turn {}", state.turn);
    svg.text_left(MARGIN, top + 14.0, 14.0, &turn, "font-weight=\"bold\"");
    if let Some(o) = overlay {
        svg.text_left(MARGIN, top + 32.0, 12.0, &o.caption, "");
    }
    for (i, (swatch, label)) in legend.iter().enumerate() {
        let x = MARGIN + (i % per_row) as f64 * 150.0;
        let y = top + 44.0 + (i / per_row) as f64 * 20.0;
        match swatch {
            Swatch::Fill(colour) => svg.rect(
                x,
                y,
                22.0,
                14.0,
                &format!("fill=\"{colour}\" stroke=\"#666666\""),
            ),
            Swatch::Line(name) => {
                let (colour, width, dash) = palette::hexside(name);
                let style = stroke(&colour, width, dash);
                svg.line((x, y + 7.0), (x + 22.0, y + 7.0), &style);
            }
            Swatch::Border => {
                let (colour, width, dash) = palette::BORDER;
                let style = stroke(colour, width, Some(dash));
                svg.line((x, y + 7.0), (x + 22.0, y + 7.0), &style);
            }
            Swatch::Feature(name) => feature_icon(&mut svg, name, (x + 11.0, y + 7.0), 6.0),
        }
        svg.text_left(x + 28.0, y + 12.0, 12.0, label, "");
    }
    svg.close_group();
    svg.finish(stacks.values().map(Vec::len).sum())
}

/// The borders of `map`'s bordered zone sets, one line per hexside between two of its zones.
fn draw_borders(svg: &mut Svg, map: &HexMap, geo: &Geometry) {
    let centre = |index: u32| {
        let (c, r) = map.col_row(index);
        geo.center(c, r)
    };
    svg.open_group("borders", " stroke-linecap=\"round\"");
    let (colour, width, dash) = palette::BORDER;
    let border_style = stroke(colour, width, Some(dash));
    for a in 0..map.len() {
        for (_, b) in map.neighbors(a) {
            if a < b && map.border_between(a, b) {
                let (p, q) = geo.hexside(centre(a), centre(b));
                svg.line(p, q, &border_style);
            }
        }
    }
    svg.close_group();
}

/// A line's stroke attributes: colour, width as a fraction of the hex size, optional dash.
fn stroke(colour: &str, width: f64, dash: Option<&str>) -> String {
    let dash = dash
        .map(|d| format!(" stroke-dasharray=\"{d}\""))
        .unwrap_or_default();
    format!(
        "stroke=\"{colour}\" stroke-width=\"{}\"{dash}",
        num(HEX * width)
    )
}

enum Swatch {
    Fill(String),
    Line(String),
    Border,
    Feature(String),
}

fn legend_entries(
    map: &HexMap,
    sides: &[String],
    overlay: Option<&OverlayData>,
) -> Vec<(Swatch, String)> {
    let mut out = Vec::new();
    let used_terrain: std::collections::BTreeSet<u8> = map.terrain_ids().iter().copied().collect();
    for (id, name) in map.terrain_names().iter().enumerate() {
        if used_terrain.contains(&(id as u8)) {
            out.push((Swatch::Fill(palette::terrain(name)), name.clone()));
        }
    }
    // (only what the map shows: a bridge blown in play leaves its name known to the map; and
    // a feature named as a terrain is, `town`, says which it is)
    let (mut sides_used, mut features_used) = (0u32, 0u64);
    for index in 0..map.len() {
        sides_used |= map.hexside_masks(index).iter().fold(0, |all, m| all | m);
        features_used |= map.feature_mask(index);
    }
    let terrain_named = |name: &str| {
        map.terrain_names()
            .iter()
            .enumerate()
            .any(|(id, t)| t == name && used_terrain.contains(&(id as u8)))
    };
    for (bit, name) in map.hexside_feature_names().iter().enumerate() {
        if sides_used & (1 << bit) != 0 {
            let label = if terrain_named(name) {
                format!("{name} (hexside)")
            } else {
                name.clone()
            };
            out.push((Swatch::Line(name.clone()), label));
        }
    }
    if map.has_borders() {
        out.push((Swatch::Border, "border".into()));
    }
    for (bit, name) in map.feature_names().iter().enumerate() {
        if features_used & (1 << bit) != 0 {
            let label = if terrain_named(name) {
                format!("{name} (feature)")
            } else {
                name.clone()
            };
            out.push((Swatch::Feature(name.clone()), label));
        }
    }
    for (order, side) in sides.iter().enumerate() {
        out.push((Swatch::Fill(palette::side(side, order)), side.clone()));
    }
    if let Some(o) = overlay.filter(|o| !o.marks.is_empty()) {
        out.push((Swatch::Fill("#ffe14d".into()), o.marks_meaning.clone()));
    }
    out
}

/// The centre of the hex a unit faces (its edge direction `facing`, 0-5): the neighbour in that
/// direction, or the mirror of the opposite neighbour on a map edge.
fn faced_centre(
    map: &HexMap,
    index: u32,
    facing: u8,
    centre: &dyn Fn(u32) -> (f64, f64),
) -> Option<(f64, f64)> {
    let dir = hexx::EdgeDirection::ALL_DIRECTIONS[(facing % 6) as usize];
    if let Some(n) = map.neighbor(index, dir) {
        return Some(centre(n));
    }
    let opposite = map.neighbor(index, dir.const_neg())?;
    let (c, o) = (centre(index), centre(opposite));
    Some((2.0 * c.0 - o.0, 2.0 * c.1 - o.1))
}

/// A hex feature's symbol centred on `at`, `r` its half-size.
fn feature_icon(svg: &mut Svg, name: &str, at: (f64, f64), r: f64) {
    let n = name.to_ascii_lowercase();
    let (x, y) = at;
    if n.contains("city") || n.contains("capital") {
        svg.rect(
            x - r,
            y - r,
            2.0 * r,
            2.0 * r,
            "fill=\"#3a3a3a\" stroke=\"#ffffff\" stroke-width=\"1\"",
        );
    } else if n.contains("town") || n.contains("village") {
        svg.circle(
            (x, y),
            r * 0.8,
            "fill=\"#3a3a3a\" stroke=\"#ffffff\" stroke-width=\"1\"",
        );
    } else if n.contains("port") || n.contains("harbo") {
        svg.circle(
            (x, y),
            r,
            "fill=\"#1b5fa8\" stroke=\"#ffffff\" stroke-width=\"1\"",
        );
        svg.line(
            (x, y - r * 0.6),
            (x, y + r * 0.6),
            "stroke=\"#ffffff\" stroke-width=\"1.5\"",
        );
        svg.line(
            (x - r * 0.5, y + r * 0.2),
            (x + r * 0.5, y + r * 0.2),
            "stroke=\"#ffffff\" stroke-width=\"1.5\"",
        );
    } else if n.contains("fort")
        || n.contains("maginot")
        || n.contains("wall")
        || n.contains("emael")
    {
        svg.polygon(
            &[(x - r, y + r * 0.8), (x, y - r), (x + r, y + r * 0.8)],
            &format!(
                "fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"1\"",
                palette::feature_fill(name, true)
            ),
        );
    } else if n.contains("airfield") || n.contains("airport") {
        svg.circle(
            (x, y),
            r,
            "fill=\"none\" stroke=\"#333333\" stroke-width=\"1.5\"",
        );
    } else {
        svg.polygon(
            &[(x, y - r), (x + r, y), (x, y + r), (x - r, y)],
            &format!(
                "fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"1\"",
                palette::feature_fill(name, false)
            ),
        );
    }
}

/// A supply marker at a counter's corner: a green dot, or a red cross when out of supply.
fn supply_mark(svg: &mut Svg, at: (f64, f64), supplied: bool) {
    if supplied {
        svg.circle(
            at,
            6.0,
            "fill=\"#1e9e3a\" stroke=\"#ffffff\" stroke-width=\"1.5\"",
        );
    } else {
        svg.circle(
            at,
            7.0,
            "fill=\"#d11f1f\" stroke=\"#ffffff\" stroke-width=\"1.5\"",
        );
        let s = "stroke=\"#ffffff\" stroke-width=\"2\"";
        svg.line((at.0 - 3.5, at.1 - 3.5), (at.0 + 3.5, at.1 + 3.5), s);
        svg.line((at.0 - 3.5, at.1 + 3.5), (at.0 + 3.5, at.1 - 3.5), s);
    }
}

#[cfg(test)]
mod tests {
    use super::legend_entries;
    use crate::board::{parse_map, SourceText};

    /// A hex feature named as a terrain the map shows says which it is; a hexside feature
    /// no hexside has is left out.
    #[test]
    fn the_legend_tells_a_feature_from_a_terrain_of_the_same_name() {
        let text = "name = \"t\"\ncolumns = 2\nrows = 1\ngrid = [\". t\"]\n\
                    [legend]\n\".\" = \"clear\"\nt = \"town\"\n[features]\ntown = [\"0101\"]\n";
        let mut map = parse_map(&SourceText::new("map.toml", text)).expect("the map reads");
        let (a, b) = (
            map.parse_label("0101").unwrap(),
            map.parse_label("0201").unwrap(),
        );
        map.add_hexside_feature(a, b, "river").expect("adjacent");
        let mut none = map.clone();
        none.remove_hexside_feature(a, b, "river")
            .expect("adjacent");
        let labels = |m: &crate::board::HexMap| -> Vec<String> {
            legend_entries(m, &[], None)
                .into_iter()
                .map(|(_, l)| l)
                .collect()
        };
        assert_eq!(labels(&map), ["clear", "town", "river", "town (feature)"]);
        assert_eq!(labels(&none), ["clear", "town", "town (feature)"]);
    }
}
