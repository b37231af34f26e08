//! An area board (Diplomacy) as a schematic graph: regions as circles placed by a deterministic
//! force-directed layout, adjacencies as lines, regions ringed in the colour of the side that
//! holds them (supply centres white when nobody's), units as markers in their side's colour
//! (A/F, or the first letter of the unit's type) around their region.

use std::collections::{BTreeMap, BTreeSet};

use super::palette;
use super::svg::Svg;
use super::Picture;
use crate::board::AreaMap;
use crate::engine::GameState;

const WIDTH: f64 = 1400.0;
const HEIGHT: f64 = 1000.0;
const MARGIN: f64 = 40.0;
const NODE: f64 = 19.0;

/// Renders an area board with the position on it.
pub fn render(map: &AreaMap, title: &str, sides: &[String], state: &GameState) -> Picture {
    let regions = map.regions();
    let index: BTreeMap<&str, usize> = regions
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.as_str(), i))
        .collect();
    // Edges between regions (a coast's adjacencies count for its region), each once, with
    // whether armies, fleets or both use it.
    let mut edges: BTreeMap<(usize, usize), (bool, bool)> = BTreeMap::new();
    for (i, r) in regions.iter().enumerate() {
        let fleet = r.fleet.iter().chain(r.coasts.values().flatten());
        for (to, is_army) in r
            .army
            .iter()
            .map(|t| (t, true))
            .chain(fleet.map(|t| (t, false)))
        {
            let region = to.split('/').next().unwrap_or(to);
            let Some(&j) = index.get(region) else {
                continue;
            };
            if i == j {
                continue;
            }
            let e = edges.entry((i.min(j), i.max(j))).or_default();
            if is_army {
                e.0 = true;
            } else {
                e.1 = true;
            }
        }
    }
    let pos = layout(regions.len(), &edges.keys().copied().collect::<Vec<_>>());
    let legend_h = 76.0;
    let mut svg = Svg::new(WIDTH, HEIGHT + legend_h);
    let side_colour = |side: &str| {
        let order = sides.iter().position(|s| s == side).unwrap_or(sides.len());
        palette::side(side, order)
    };

    svg.open_group("adjacency", "");
    for (&(i, j), &(army, fleet)) in &edges {
        let style = match (army, fleet) {
            (true, true) => "stroke=\"#8a8a8a\" stroke-width=\"1.6\"",
            (true, false) => "stroke=\"#a0764a\" stroke-width=\"1.6\"",
            _ => "stroke=\"#4f8fd0\" stroke-width=\"1.4\" stroke-dasharray=\"5 3\"",
        };
        svg.line(pos[i], pos[j], style);
    }
    svg.close_group();

    let owners = center_owners(state);
    svg.open_group("regions", "");
    for (i, r) in regions.iter().enumerate() {
        let fill = match r.kind.as_str() {
            "sea" => "#bcdaf2",
            "coast" => "#e3ecc4",
            "impassable" => "#9a9a9a",
            _ => "#f1e6c8",
        };
        // (every region a side holds: in a game other than Diplomacy control of any region is
        // the position, and only centres showed it)
        let holder = owners.get(r.id.as_str());
        if r.supply_center || holder.is_some() {
            let ring = holder
                .map(|o| side_colour(o))
                .unwrap_or_else(|| "#ffffff".into());
            svg.circle(
                pos[i],
                NODE + 5.0,
                &format!("fill=\"{ring}\" stroke=\"#202020\" stroke-width=\"1.2\""),
            );
        }
        svg.circle(
            pos[i],
            NODE,
            &format!("fill=\"{fill}\" stroke=\"#505050\" stroke-width=\"1\""),
        );
        let name = if r.name.is_empty() { &r.id } else { &r.name };
        svg.raw(&format!("<title>{}</title>", super::svg::escape(name)));
        svg.text(
            pos[i].0,
            pos[i].1 + 4.0,
            11.0,
            &r.id,
            "font-weight=\"bold\" fill=\"#202020\"",
        );
        if r.supply_center {
            svg.circle((pos[i].0, pos[i].1 + 11.0), 2.6, "fill=\"#202020\"");
        }
        // (a region's features, the names its attrs set to true: a game's towns and forts)
        let features: Vec<&str> = r.features().collect();
        if !features.is_empty() {
            svg.text(
                pos[i].0,
                pos[i].1 - NODE - 8.0,
                9.0,
                &features.join(", "),
                "font-style=\"italic\" fill=\"#404040\"",
            );
        }
    }
    svg.close_group();

    // Units: at their region, each marker on the side of it farthest from the other regions
    // and markers (marker_place), clear of the region's name.
    let mut per_region: BTreeMap<usize, usize> = BTreeMap::new();
    let mut markers: Vec<(f64, f64)> = Vec::new();
    let mut drawn = 0;
    svg.open_group("units", "");
    for unit in state.units.values() {
        let Some(at) = unit.at.as_deref() else {
            continue;
        };
        let region = at.split('/').next().unwrap_or(at);
        let Some(&i) = index.get(region) else {
            continue;
        };
        drawn += 1;
        let k = per_region.entry(i).or_default();
        // (clear of a long name, which runs past the circle: a bold capital of the 11 px
        // name is about 8 px wide, so 4 px a letter each side)
        let half = (regions[i].id.chars().count() as f64 * 4.0).max(NODE);
        let reach = half + 8.0 + 18.0 * (*k / 8) as f64;
        let c = marker_place(&pos, i, reach, &markers);
        markers.push(c);
        *k += 1;
        let kind = unit.kind.to_ascii_lowercase();
        let letter: String = match kind.as_str() {
            "fleet" | "f" => "F".into(),
            "army" | "a" => "A".into(),
            other => other.chars().take(1).collect(),
        };
        // (a unit waiting to retreat: a dashed red ring, and said on hover)
        let dislodged = unit.status.contains("dislodged");
        svg.raw(&format!(
            "<g class=\"unit\"><title>{} ({} {}) {}{}</title>",
            super::svg::escape(&unit.id),
            super::svg::escape(&unit.side),
            super::svg::escape(&unit.kind),
            super::svg::escape(at),
            if dislodged { ", dislodged" } else { "" }
        ));
        let outline = if dislodged {
            "stroke=\"#c01010\" stroke-width=\"2.4\" stroke-dasharray=\"3 2\""
        } else {
            "stroke=\"#111111\" stroke-width=\"1.3\""
        };
        svg.circle(
            c,
            9.0,
            &format!("fill=\"{}\" {outline}", side_colour(&unit.side)),
        );
        svg.text(
            c.0,
            c.1 + 4.0,
            11.0,
            &letter.to_uppercase(),
            "font-weight=\"bold\" fill=\"#111111\"",
        );
        // (a fleet on one coast of a split-coast region: which coast, under its marker; both
        // coasts looked the same)
        if let Some((_, coast)) = at.split_once('/') {
            svg.text(
                c.0,
                c.1 + 18.0,
                8.0,
                coast,
                "font-weight=\"bold\" fill=\"#1f4f8f\"",
            );
        }
        svg.raw("</g>");
    }
    svg.close_group();

    svg.open_group("legend", "");
    let top = HEIGHT + 6.0;
    // (what this map has: a game without centres or fleets is not told of them)
    let centres = if regions.iter().any(|r| r.supply_center) {
        " (white: a supply centre nobody holds)"
    } else {
        ""
    };
    let lines = if edges.values().any(|&(_, fleet)| fleet) {
        "lines brown: army, blue dashed: fleet, grey: both"
    } else {
        "lines: adjacency"
    };
    // (the title and the key on lines of their own: one line ran past the picture's width)
    svg.text_left(
        MARGIN,
        top + 14.0,
        14.0,
        &format!("{title}, turn {}", state.turn),
        "font-weight=\"bold\"",
    );
    svg.text_left(
        MARGIN,
        top + 32.0,
        12.0,
        &format!("ring: the side holding the region{centres}; {lines}"),
        "",
    );
    for (i, side) in sides.iter().enumerate() {
        let x = MARGIN + i as f64 * 120.0;
        svg.circle(
            (x + 8.0, top + 54.0),
            8.0,
            &format!("fill=\"{}\" stroke=\"#111111\"", side_colour(side)),
        );
        svg.text_left(x + 22.0, top + 59.0, 12.0, side, "");
    }
    svg.close_group();
    svg.finish(drawn)
}

/// Supply centre owners: `state.control` (region -> side), or a rules variable
/// `position.centers` (power -> list of regions), as the Diplomacy rules keep it.
fn center_owners(state: &GameState) -> BTreeMap<String, String> {
    let mut owners: BTreeMap<String, String> = state.control.clone();
    if let Some(centers) = state
        .vars
        .get("position")
        .and_then(|p| p.get("centers"))
        .and_then(|c| c.as_object())
    {
        for (power, list) in centers {
            for c in list.as_array().into_iter().flatten() {
                if let Some(c) = c.as_str() {
                    owners.insert(c.to_string(), power.clone());
                }
            }
        }
    }
    owners
}

/// The largest map laid out: its 10 rounds weigh 125 million pairs (about a second and a half);
/// the layout weighs every pair in each round, so a larger map would take ever longer.
pub const MAX_LAID_OUT: usize = 5_000;

/// The pair weighings a layout may make: 600 rounds of a 200-region map's pairs.
const LAYOUT_PAIR_ROUNDS: usize = 600 * (200 * 199 / 2);

/// The rounds of a layout of `n` regions. Each round weighs every pair of regions: 600 rounds
/// for maps up to 200 regions (the standard map has 75), fewer beyond, down to 10, so that the
/// work stays near that of 200 regions (a 2000-region map took 10.8 s at 600 rounds, 0.25 s now).
fn layout_rounds(n: usize) -> usize {
    let pairs = (n * n.saturating_sub(1) / 2).max(1);
    (LAYOUT_PAIR_ROUNDS / pairs).clamp(10, 600)
}

/// A Fruchterman-Reingold layout from fixed pseudo-random starting points (SplitMix64), using
/// only + - * / and sqrt, so the same graph gives the same picture everywhere.
fn layout(n: usize, edges: &[(usize, usize)]) -> Vec<(f64, f64)> {
    let mut seed: u64 = 0x4845_5857_4152;
    let mut next = || {
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    let (w, h) = (WIDTH - 2.0 * MARGIN, HEIGHT - 2.0 * MARGIN);
    let mut p: Vec<(f64, f64)> = (0..n).map(|_| (next() * w, next() * h)).collect();
    if n == 0 {
        return p;
    }
    let k = (w * h / n as f64).sqrt() * 0.75;
    let iterations = layout_rounds(n);
    let neighbours: Vec<BTreeSet<usize>> = {
        let mut v = vec![BTreeSet::new(); n];
        for &(a, b) in edges {
            v[a].insert(b);
            v[b].insert(a);
        }
        v
    };
    for it in 0..iterations {
        let temp = w / 8.0 * (1.0 - it as f64 / iterations as f64) + 1.0;
        let mut disp = vec![(0.0f64, 0.0f64); n];
        for i in 0..n {
            for j in (i + 1)..n {
                let (dx, dy) = (p[i].0 - p[j].0, p[i].1 - p[j].1);
                let d2 = (dx * dx + dy * dy).max(0.01);
                let d = d2.sqrt();
                // Repulsion k²/d, plus attraction d²/k along edges.
                let mut f = k * k / d;
                if neighbours[i].contains(&j) {
                    f -= d2 / k;
                }
                let (fx, fy) = (dx / d * f, dy / d * f);
                disp[i].0 += fx;
                disp[i].1 += fy;
                disp[j].0 -= fx;
                disp[j].1 -= fy;
            }
        }
        // A little gravity towards the middle keeps loose regions (Switzerland) on the page.
        for i in 0..n {
            disp[i].0 += (w / 2.0 - p[i].0) * 0.05 * k / w * 10.0;
            disp[i].1 += (h / 2.0 - p[i].1) * 0.05 * k / h * 10.0;
        }
        for i in 0..n {
            let (dx, dy) = disp[i];
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let step = len.min(temp);
            p[i].0 += dx / len * step;
            p[i].1 += dy / len * step;
        }
    }
    // Regions with no neighbour (Switzerland) go down the right edge (lone_place); the rest fills
    // the page left of them.
    let lone = neighbours.iter().filter(|s| s.is_empty()).count();
    let right = if lone == 0 {
        WIDTH - MARGIN
    } else {
        let (columns, _, _) = lone_grid(lone);
        WIDTH - MARGIN / 2.0 - NODE - REGION_GAP * columns as f64
    };
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (i, &(x, y)) in p.iter().enumerate() {
        if neighbours[i].is_empty() {
            continue;
        }
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let sx = if x1 > x0 {
        (right - MARGIN) / (x1 - x0)
    } else {
        1.0
    };
    let sy = if y1 > y0 { h / (y1 - y0) } else { 1.0 };
    let mut lonely = 0;
    let mut placed: Vec<(f64, f64)> = p
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| {
            if neighbours[i].is_empty() {
                lonely += 1;
                lone_place(lonely, lone)
            } else {
                (MARGIN + (x - x0) * sx, MARGIN + (y - y0) * sy)
            }
        })
        .collect();
    let fixed: Vec<bool> = neighbours.iter().map(BTreeSet::is_empty).collect();
    separate(&mut placed, &fixed, right, layout_rounds(n) / 10);
    placed
}

/// How the `lone` regions with no neighbour are laid out down the page's right edge: their
/// columns (at most as many as fill half the page's width) and rows, and the rows' spacing
/// (REGION_GAP, so that their rings do not touch, while they fit; closer when they do not).
fn lone_grid(lone: usize) -> (usize, usize, f64) {
    let (top, bottom) = (MARGIN / 2.0 + NODE * 2.2, HEIGHT - MARGIN / 2.0 - NODE);
    let per_column = ((bottom - top) / REGION_GAP) as usize + 1;
    let most_columns = ((WIDTH - 2.0 * MARGIN) / 2.0 / REGION_GAP) as usize;
    let columns = lone.div_ceil(per_column).clamp(1, most_columns);
    let rows = lone.div_ceil(columns).max(1);
    let dy = if rows > 1 {
        REGION_GAP.min((bottom - top) / (rows - 1) as f64)
    } else {
        REGION_GAP
    };
    (columns, rows, dy)
}

/// Where the `k`-th (from 1) of `lone` regions with no neighbour goes (lone_grid): down the
/// right edge, then down the next column to the left.
fn lone_place(k: usize, lone: usize) -> (f64, f64) {
    let (_, rows, dy) = lone_grid(lone);
    let (column, row) = ((k - 1) / rows, (k - 1) % rows);
    (
        WIDTH - MARGIN / 2.0 - NODE - REGION_GAP * column as f64,
        MARGIN / 2.0 + NODE * 2.2 + dy * row as f64,
    )
}

/// The least distance between two regions' centres once laid out: their rings (a supply
/// centre's, NODE + 5) do not touch. The force-directed layout alone let them: the standard
/// map's PAR and MAO were 38.7 px apart, their rings 48 px wide.
const REGION_GAP: f64 = 2.0 * (NODE + 5.0) + 6.0;

/// Pushes apart, in up to `rounds` rounds, every two regions closer than REGION_GAP, each half
/// the shortfall along the line between them (a `fixed` one stays and the other takes it all),
/// kept on the page left of `right`. Deterministic: pairs in index order, only + - * / and sqrt.
fn separate(p: &mut [(f64, f64)], fixed: &[bool], right: f64, rounds: usize) {
    let n = p.len();
    for _ in 0..rounds.max(1) {
        let mut moved = false;
        for i in 0..n {
            for j in (i + 1)..n {
                if fixed[i] && fixed[j] {
                    continue;
                }
                let (dx, dy) = (p[j].0 - p[i].0, p[j].1 - p[i].1);
                let d = (dx * dx + dy * dy).sqrt();
                if d >= REGION_GAP {
                    continue;
                }
                moved = true;
                // (two regions on one spot part along a fixed diagonal)
                let (ux, uy) = if d > 1e-9 {
                    (dx / d, dy / d)
                } else {
                    (0.6, 0.8)
                };
                let short = REGION_GAP - d;
                let (si, sj) = match (fixed[i], fixed[j]) {
                    (true, _) => (0.0, short),
                    (_, true) => (short, 0.0),
                    _ => (short / 2.0, short / 2.0),
                };
                let on_page =
                    |(x, y): (f64, f64)| (x.clamp(MARGIN, right), y.clamp(MARGIN, HEIGHT - MARGIN));
                if !fixed[i] {
                    p[i] = on_page((p[i].0 - ux * si, p[i].1 - uy * si));
                }
                if !fixed[j] {
                    p[j] = on_page((p[j].0 + ux * sj, p[j].1 + uy * sj));
                }
            }
        }
        if !moved {
            break;
        }
    }
}

/// Where the next unit marker of region `i` goes, `reach` from its centre: of 16 directions
/// (clockwise from the upper right), the first on the page whose marker is clear of the other
/// regions' circles and the markers already drawn (`markers`), or the clearest when none is,
/// so that a marker does not sit on a neighbour (the standard map's A PAR was drawn inside
/// MAO's circle).
fn marker_place(pos: &[(f64, f64)], i: usize, reach: f64, markers: &[(f64, f64)]) -> (f64, f64) {
    let near = reach + NODE + 5.0 + 9.0;
    let within = |q: &(f64, f64)| {
        let (dx, dy) = (q.0 - pos[i].0, q.1 - pos[i].1);
        dx * dx + dy * dy <= (near + reach) * (near + reach)
    };
    let regions: Vec<(f64, f64)> = pos
        .iter()
        .enumerate()
        .filter(|&(j, q)| j != i && within(q))
        .map(|(_, &q)| q)
        .collect();
    let others: Vec<(f64, f64)> = markers.iter().copied().filter(within).collect();
    let mut best = (f64::MIN, pos[i]);
    for step in 0..16 {
        let angle = (-45.0 + 22.5 * step as f64).to_radians();
        let c = (
            pos[i].0 + reach * angle.cos(),
            pos[i].1 + reach * angle.sin(),
        );
        let clear = |q: &(f64, f64), room: f64| {
            let (dx, dy) = (c.0 - q.0, c.1 - q.1);
            (dx * dx + dy * dy).sqrt() - room
        };
        let room = regions
            .iter()
            .map(|q| clear(q, NODE + 5.0 + 9.0))
            .chain(others.iter().map(|q| clear(q, 18.0)))
            .fold(f64::MAX, f64::min)
            .min(0.0);
        // (off the page, or over the legend under it, only when every direction is)
        let on_page = (9.0..=WIDTH - 9.0).contains(&c.0) && (9.0..=HEIGHT - 9.0).contains(&c.1);
        let room = if on_page { room } else { room - 1e6 };
        if room > best.0 {
            best = (room, c);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout's work is bounded: full rounds up to 200 regions (the standard map's picture
    /// is unchanged), fewer beyond, never under 10.
    #[test]
    fn large_maps_get_fewer_layout_rounds() {
        assert_eq!(layout_rounds(0), 600);
        assert_eq!(layout_rounds(75), 600);
        assert_eq!(layout_rounds(200), 600);
        assert_eq!(layout_rounds(400), 149);
        assert_eq!(layout_rounds(2000), 10);
        assert_eq!(layout_rounds(100_000), 10);
    }
}
