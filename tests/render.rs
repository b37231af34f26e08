//! `hexwar render`: golden SVGs. The renderer's output is deterministic, so each picture is
//! compared byte for byte with a committed file under tests/golden/.
//!
//! To re-bless after an intended change: `HEXWAR_BLESS=1 cargo test --test render`, then LOOK at
//! the new pictures (`rsvg-convert tests/golden/demo.svg -o /tmp/demo.png`) and read
//! `git diff tests/golden` before committing them.

mod common;

use std::path::Path;

use common::{hexwar, stderr, stdout};
use hexwar::render::{render, Overlay};
use hexwar::Session;

fn check(name: &str, scenario: &str, overlay: Option<Overlay>) {
    let mut session = Session::start(Path::new(scenario), None).unwrap();
    let svg = render(&mut session, overlay.as_ref()).unwrap();
    let again = render(&mut session, overlay.as_ref()).unwrap();
    assert_eq!(svg, again, "rendering twice gives the same bytes");
    let golden = Path::new("tests/golden").join(format!("{name}.svg"));
    if std::env::var_os("HEXWAR_BLESS").is_some() {
        std::fs::write(&golden, &svg).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&golden)
        .unwrap_or_else(|e| panic!("{}: {e} (bless with HEXWAR_BLESS=1)", golden.display()));
    if svg != expected {
        let out = std::env::temp_dir().join(format!("{name}.actual.svg"));
        std::fs::write(&out, &svg).unwrap();
        panic!(
            "{} differs from the rendering (written to {}); if the change is intended, re-bless with HEXWAR_BLESS=1 and read the diff",
            golden.display(),
            out.display()
        );
    }
}

#[test]
fn demo_map() {
    check("demo", "scenarios/demo", None);
}

#[test]
fn demo_reach_overlay() {
    check(
        "demo_reach",
        "scenarios/demo",
        Some(Overlay::Reach("b-arm-1".into())),
    );
}

/// A facing game's reach answers a cost per end facing: the overlay prints the least of them
/// on each hex (it printed the table as JSON text, `{"0":1,"1":1,...}`).
#[test]
fn a_facing_games_reach_overlay_prints_the_least_cost() {
    let mut session = Session::start(Path::new("scenarios/tactical"), None).unwrap();
    let svg = render(&mut session, Some(&Overlay::Reach("b-art-1".into()))).unwrap();
    assert!(
        svg.contains(
            "overlay: reach of b-art-1 (20 hexes, least cost over the end facings printed)"
        ),
        "{svg}"
    );
    let marks: Vec<&str> = svg
        .split("fill=\"#6b5200\">")
        .skip(1)
        .filter_map(|rest| rest.split('<').next())
        .collect();
    assert_eq!(marks.len(), 20, "{marks:?}");
    assert!(marks.iter().all(|m| m.parse::<u32>().is_ok()), "{marks:?}");
}

/// The ZOC overlay of a game with no movement table (a facing game) says so (it was an error
/// of an internal `eval` chunk: "eval:4: hex.path: the rules declare no movement table").
#[test]
fn the_zoc_overlay_of_a_facing_game_says_it_has_no_movement_table() {
    let mut session = Session::start(Path::new("scenarios/ancients"), None).unwrap();
    let err = render(&mut session, Some(&Overlay::Zoc)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "zoc overlay: this game's rules declare no movement table, whose zones of control the \
         overlay draws (a facing game's fronts are not drawn; reach:UNIT shows where a unit may go)"
    );
}

#[test]
fn tiny_fixture_pointy_with_every_symbol() {
    check("tiny", "tests/fixtures/render_tiny", None);
}

#[test]
fn tiny_fixture_control_and_zoc() {
    check(
        "tiny_control",
        "tests/fixtures/render_tiny",
        Some(Overlay::Control),
    );
    check("tiny_zoc", "tests/fixtures/render_tiny", Some(Overlay::Zoc));
}

#[test]
fn diplomacy_area_board_as_a_graph() {
    check("diplomacy", "scenarios/diplomacy", None);
}

/// The centres of the SVG circles of radius `r` (a region's is 19, a unit marker's 9).
fn circles(svg: &str, r: &str) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for part in svg.split("<circle ").skip(1) {
        let attr = |name: &str| -> Option<f64> {
            let from = part.find(&format!("{name}=\""))? + name.len() + 2;
            part[from..].split('"').next()?.parse().ok()
        };
        if part.contains(&format!(" r=\"{r}\"")) {
            out.push((attr("cx").unwrap(), attr("cy").unwrap()));
        }
    }
    out
}

/// On the standard map no two regions' rings (a supply centre's, 24 px) touch, and no unit
/// marker (9 px) sits on another region's ring: the force-directed layout alone put PAR's
/// ring over MAO's and drew A PAR inside MAO's.
#[test]
fn area_regions_and_unit_markers_do_not_overlap() {
    let mut session = Session::start(Path::new("scenarios/diplomacy"), None).unwrap();
    let svg = render(&mut session, None).unwrap();
    let (regions, markers) = (circles(&svg, "19"), circles(&svg, "9"));
    assert_eq!((regions.len(), markers.len()), (76, 22));
    let dist = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    for (i, &a) in regions.iter().enumerate() {
        for &b in &regions[i + 1..] {
            assert!(dist(a, b) >= 48.0, "regions at {a:?} and {b:?} overlap");
        }
    }
    for &m in &markers {
        let mut near: Vec<f64> = regions.iter().map(|&c| dist(m, c)).collect();
        near.sort_by(f64::total_cmp);
        // (the nearest region is the marker's own; the next must be clear of it)
        assert!(
            near[1] >= 24.0 + 9.0,
            "the marker at {m:?} sits on a region's ring"
        );
    }
}

#[test]
fn overlays_are_refused_on_area_boards() {
    let mut session = Session::start(Path::new("scenarios/diplomacy"), None).unwrap();
    let err = render(&mut session, Some(&Overlay::Zoc)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "overlays are drawn on hex maps only; this scenario has an area board"
    );
}

#[test]
fn overlay_names_parse() {
    assert_eq!("zoc".parse::<Overlay>(), Ok(Overlay::Zoc));
    assert_eq!(
        "reach:b1".parse::<Overlay>(),
        Ok(Overlay::Reach("b1".into()))
    );
    assert!("reach:".parse::<Overlay>().is_err());
    assert!("heat".parse::<Overlay>().is_err());
}

#[test]
fn the_cli_renders_a_setup_position_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("map.svg");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args([
            "render",
            "scenarios/demo",
            "--setup",
            "tests/fixtures/render_setup.toml",
        ])
        .args(["--overlay", "reach:blue-guard", "-o"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("<title>blue-guard</title>"));
    assert!(svg.contains("<title>red-raider</title>"));
    assert!(
        !svg.contains("<title>b-inf-1</title>"),
        "the setup replaced the units"
    );
    assert!(svg.contains("overlay: reach of blue-guard"));
}

/// `--json` with a file: where it went, its size as the SVG gives it, how many units it shows;
/// the file holds the same picture as without `--json`.
#[test]
fn the_cli_json_names_the_file_and_the_picture_size() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tiny.svg");
    let out_text = out.to_str().unwrap();
    let run = hexwar(&[
        "render",
        "tests/fixtures/render_tiny",
        "-o",
        out_text,
        "--json",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(
        stdout(&run),
        format!(
            "{{\"file\":{},\"svg\":null,\"width\":335.8,\"height\":444,\"units\":5}}\n",
            serde_json::Value::String(out_text.into())
        )
    );
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        std::fs::read_to_string("tests/golden/tiny.svg").unwrap()
    );
    let run = hexwar(&["render", "scenarios/diplomacy", "-o", out_text, "--json"]);
    assert_eq!(
        stdout(&run),
        format!(
            "{{\"file\":{},\"svg\":null,\"width\":1400,\"height\":1076,\"units\":22}}\n",
            serde_json::Value::String(out_text.into())
        )
    );
}

/// `--json -o -`: the SVG text goes in `svg`, so stdout stays one JSON value.
#[test]
fn the_cli_json_to_stdout_carries_the_svg_text() {
    let run = hexwar(&["render", "tests/fixtures/render_tiny", "-o", "-", "--json"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let golden = std::fs::read_to_string("tests/golden/tiny.svg").unwrap();
    assert_eq!(
        stdout(&run),
        format!(
            "{{\"file\":null,\"svg\":{},\"width\":335.8,\"height\":444,\"units\":5}}\n",
            serde_json::Value::String(golden)
        )
    );
    // An error is text on stderr, nothing on stdout, as with every command.
    let run = hexwar(&[
        "render",
        "scenarios/diplomacy",
        "--overlay",
        "zoc",
        "-o",
        "-",
        "--json",
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(stdout(&run), "");
    assert_eq!(
        stderr(&run),
        "error: overlays are drawn on hex maps only; this scenario has an area board\n"
    );
}

/// The directions of the facing arrows in an SVG, each as (dx, dy) of unit length: from the
/// middle of the arrow's base to its tip.
fn arrow_directions(svg: &str) -> Vec<(f64, f64)> {
    svg.split("<polygon points=\"")
        .skip(1)
        .filter(|rest| rest.contains("\" fill=\"#111111\"") && rest.find('"') < rest.find('>'))
        .filter_map(|rest| {
            let points: Vec<(f64, f64)> = rest[..rest.find('"')?]
                .split(' ')
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect();
            let [tip, a, b] = points[..] else { return None };
            let (dx, dy) = (tip.0 - (a.0 + b.0) / 2.0, tip.1 - (a.1 + b.1) / 2.0);
            let len = (dx * dx + dy * dy).sqrt();
            Some((dx / len, dy / len))
        })
        .collect()
}

/// The facing arrows of `scenario` rendered with the setup file text `setup`.
fn arrows_of_setup(scenario: &str, setup: &str) -> Vec<(f64, f64)> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("setup.toml");
    std::fs::write(&file, setup).unwrap();
    let out = hexwar(&[
        "render",
        scenario,
        "--setup",
        file.to_str().unwrap(),
        "-o",
        "-",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    arrow_directions(&stdout(&out))
}

/// ANC-6.1 / TA-R1: a phalanx faces a hex corner, so its arrow points at vertex 0 (due east on
/// this flat-topped map), where a light unit facing edge 0 points at that hexside (30° below).
#[test]
fn anc_6_1_a_phalanx_facing_arrow_points_at_its_corner() {
    let arrows = arrows_of_setup(
        "scenarios/ancients",
        "[[unit]]\nid = \"p\"\nside = \"macedon\"\ntype = \"phalanx\"\nma = 3\nstrength = 4\n\
         at = \"0404\"\nfacing = 0\n\
         [[unit]]\nid = \"l\"\nside = \"seleucid\"\ntype = \"light\"\nma = 4\nstrength = 1\n\
         at = \"0808\"\nfacing = 0\n",
    );
    assert_eq!(arrows.len(), 2, "{arrows:?}");
    let (phalanx, light) = (arrows[0], arrows[1]);
    assert!(
        (phalanx.0 - 1.0).abs() < 0.01 && phalanx.1.abs() < 0.01,
        "{phalanx:?}"
    );
    assert!(
        (light.0 - 0.866).abs() < 0.01 && (light.1 - 0.5).abs() < 0.01,
        "{light:?}"
    );
}

/// TAC-4 / TA-R6: a two-base unit's bases face apart, each with its own arrow (the second
/// base's facing, `facing2`, was not drawn).
#[test]
fn tac_4_a_two_base_unit_shows_an_arrow_per_base() {
    let arrows = arrows_of_setup(
        "scenarios/tactical",
        "[[unit]]\nid = \"c\"\nside = \"british\"\ntype = \"colonial\"\nma = 4\n\
         strength = 4\nat = \"0404\"\nfacing = 0\nattrs = { facing2 = 3 }\n\
         [[unit]]\nid = \"z\"\nside = \"zulu\"\ntype = \"infantry\"\nma = 4\n\
         strength = 3\nat = \"1107\"\nfacing = 3\n",
    );
    // (the colonial's two bases, edges 0 and 3: opposite ways; then the Zulu's, edge 3)
    assert_eq!(arrows.len(), 3, "{arrows:?}");
    let (first, second, zulu) = (arrows[0], arrows[1], arrows[2]);
    assert!(
        (first.0 + second.0).abs() < 0.01 && (first.1 + second.1).abs() < 0.01,
        "{first:?} {second:?}"
    );
    assert!(
        (zulu.0 - second.0).abs() < 0.01 && (zulu.1 - second.1).abs() < 0.01,
        "{zulu:?}"
    );
}

/// An area map past 5000 regions is refused with a message instead of laid out: the layout
/// weighs every pair of regions in each round, and a 100 000-region map would never finish.
#[test]
fn an_area_map_too_large_to_lay_out_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let n = 5001;
    let mut map = String::from("kind = \"area\"\nname = \"big\"\n");
    for i in 0..n {
        let mut army = Vec::new();
        if i > 0 {
            army.push(format!("\"R{}\"", i - 1));
        }
        if i + 1 < n {
            army.push(format!("\"R{}\"", i + 1));
        }
        map.push_str(&format!(
            "[[region]]\nid = \"R{i}\"\ntype = \"land\"\narmy = [{}]\n",
            army.join(", ")
        ));
    }
    common::write_area_scenario(dir.path(), &map, "");
    let mut session = Session::start(dir.path(), Some(1)).unwrap();
    let e = render(&mut session, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the picture lays out at most 5000 regions; this map has 5001"
    );
}

/// An area game that is not Diplomacy: every region a side holds is ringed in its colour (only
/// supply centres were, so control of the rest was invisible), a region without a name is
/// titled by its id, and each unit's marker is titled with its id, side and type.
#[test]
fn an_area_game_shows_who_holds_each_region_and_names_its_units() {
    let dir = tempfile::tempdir().unwrap();
    common::write_area_scenario(
        dir.path(),
        "kind = \"area\"\nname = \"pair\"\n[[power]]\nname = \"RED\"\n\
         [[region]]\nid = \"WEST\"\ntype = \"land\"\narmy = [\"EAST\"]\n\
         [[region]]\nid = \"EAST\"\ntype = \"land\"\narmy = [\"WEST\"]\n",
        "[[unit]]\nid = \"r1\"\nside = \"RED\"\ntype = \"cavalry\"\nat = \"EAST\"\n\
         [control]\nRED = [\"EAST\"]\n",
    );
    let mut session = Session::start(dir.path(), Some(1)).unwrap();
    let svg = render(&mut session, None).unwrap();
    let rings = svg.matches("r=\"24\"").count();
    assert_eq!(rings, 1, "one ring, EAST's: {svg}");
    assert!(svg.contains("<title>EAST</title>"), "{svg}");
    assert!(
        svg.contains("<title>r1 (RED cavalry) EAST</title>"),
        "{svg}"
    );
}

/// An area game without supply centres or fleets: the legend tells of neither, each region's
/// features (its attrs set to true) are written above it, and a unit's marker stands clear of a
/// long region name (4 px a letter each side of the centre, here 10 letters: 40 + 8).
#[test]
fn an_area_game_legend_features_and_markers_fit_its_map() {
    let dir = tempfile::tempdir().unwrap();
    common::write_area_scenario(
        dir.path(),
        "kind = \"area\"\nname = \"pair\"\n[[power]]\nname = \"RED\"\n\
         [[region]]\nid = \"IRONBRIDGE\"\ntype = \"land\"\narmy = [\"EAST\"]\n\
         [region.attrs]\ntown = true\nfort = true\nbonus = 2\n\
         [[region]]\nid = \"EAST\"\ntype = \"land\"\narmy = [\"IRONBRIDGE\"]\n",
        "[[unit]]\nid = \"r1\"\nside = \"RED\"\ntype = \"cavalry\"\nat = \"IRONBRIDGE\"\n",
    );
    let mut session = Session::start(dir.path(), Some(1)).unwrap();
    let svg = render(&mut session, None).unwrap();
    assert!(
        svg.contains(">ring: the side holding the region; lines: adjacency</text>"),
        "{svg}"
    );
    assert!(svg.contains(">fort, town</text>"), "{svg}");
    // The marker's centre is 48 px from the region's, up and to the right (-45 degrees).
    let number = |text: &str, key: &str| -> f64 {
        let at = text.find(key).unwrap() + key.len();
        text[at..].split('"').next().unwrap().parse().unwrap()
    };
    let region_at = svg.find("<title>IRONBRIDGE</title>").unwrap();
    let before = &svg[..region_at];
    let region_circle = &before[before.rfind("<circle").unwrap()..];
    let (rx, ry) = (
        number(region_circle, "cx=\""),
        number(region_circle, "cy=\""),
    );
    let unit = &svg[svg.find("<g class=\"unit\">").unwrap()..];
    let (ux, uy) = (number(unit, "cx=\""), number(unit, "cy=\""));
    let reach = ((ux - rx).powi(2) + (uy - ry).powi(2)).sqrt();
    assert!((reach - 48.0).abs() < 0.1, "{reach}");
    assert!(ux > rx && uy < ry);
}

/// Regions with no neighbour go down the right edge as far apart as the others (their rings
/// touched, 41.8 px apart), in a second column when one is full; and a region's many unit
/// markers stay on the page (a stack's went under its bottom edge, over the legend).
#[test]
fn lone_regions_do_not_overlap_and_markers_stay_on_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let mut map = String::from("kind = \"area\"\nname = \"islands\"\n[[power]]\nname = \"RED\"\n");
    for i in 0..24 {
        map.push_str(&format!(
            "[[region]]\nid = \"I{i:02}\"\ntype = \"land\"\nsupply_center = true\n"
        ));
    }
    // (one pair at the bottom of the page, where a stack's markers would run off it)
    map.push_str("[[region]]\nid = \"A\"\ntype = \"land\"\narmy = [\"B\"]\n");
    map.push_str("[[region]]\nid = \"B\"\ntype = \"land\"\narmy = [\"A\"]\n");
    let units: String = (0..12)
        .map(|k| format!("[[unit]]\nid = \"r{k}\"\nside = \"RED\"\ntype = \"army\"\nat = \"B\"\n"))
        .collect();
    common::write_area_scenario(dir.path(), &map, &units);
    let mut session = Session::start(dir.path(), Some(1)).unwrap();
    let svg = render(&mut session, None).unwrap();
    let (regions, markers) = (circles(&svg, "19"), circles(&svg, "9"));
    assert_eq!((regions.len(), markers.len()), (26, 12));
    let dist = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    for (i, &a) in regions.iter().enumerate() {
        for &b in &regions[i + 1..] {
            assert!(dist(a, b) >= 48.0, "regions at {a:?} and {b:?} overlap");
        }
    }
    for &(x, y) in &markers {
        assert!(
            (9.0..=1391.0).contains(&x) && (9.0..=991.0).contains(&y),
            "marker at {x}, {y}"
        );
    }
    // (more lone regions than the right half holds at that gap: closer rows, no panic, all on
    // the page; 420 of them beside a pair once panicked in a clamp)
    let dir = tempfile::tempdir().unwrap();
    let mut map = String::from("kind = \"area\"\nname = \"atoll\"\n[[power]]\nname = \"RED\"\n");
    for i in 0..430 {
        map.push_str(&format!("[[region]]\nid = \"I{i:03}\"\ntype = \"land\"\n"));
    }
    map.push_str("[[region]]\nid = \"A\"\ntype = \"land\"\narmy = [\"B\"]\n");
    map.push_str("[[region]]\nid = \"B\"\ntype = \"land\"\narmy = [\"A\"]\n");
    common::write_area_scenario(dir.path(), &map, "");
    let mut session = Session::start(dir.path(), Some(1)).unwrap();
    let svg = render(&mut session, None).unwrap();
    let regions = circles(&svg, "19");
    assert_eq!(regions.len(), 432);
    for &(x, y) in &regions {
        assert!(
            (19.0..=1381.0).contains(&x) && (19.0..=981.0).contains(&y),
            "region at {x}, {y}"
        );
    }
}

/// A unit waiting to retreat is drawn with a dashed red ring and said so on hover: it looked
/// like any other unit (map-designer walkthrough).
#[test]
fn a_dislodged_unit_is_marked() {
    let mut session = Session::start(Path::new("scenarios/diplomacy"), Some(1)).unwrap();
    session
        .setup_text(&hexwar::board::SourceText::new(
            "setup.toml",
            "phase = \"S1901R\"\n[units]\nTURKEY = [\"A BUL\"]\nAUSTRIA = [\"A VIE\"]\n\
             [[dislodged]]\npower = \"AUSTRIA\"\nunit = \"A SER\"\nby = \"BUL\"\n\
             retreats = [\"ALB\", \"GRE\", \"TRI\"]\n",
        ))
        .unwrap();
    let svg = render(&mut session, None).unwrap();
    let marked: Vec<&str> = svg
        .split("<g class=\"unit\">")
        .skip(1)
        .filter(|g| g.contains("stroke-dasharray=\"3 2\""))
        .collect();
    assert_eq!(marked.len(), 1, "{svg}");
    assert!(
        marked[0].starts_with("<title>")
            && marked[0].contains("(AUSTRIA army) SER, dislodged</title>"),
        "{}",
        marked[0]
    );
}

/// A fleet on one coast of a split-coast region says which, under its marker: the fleets of
/// St Petersburg's two coasts looked the same (area render).
#[test]
fn a_fleet_on_a_split_coast_names_its_coast() {
    let mut session = Session::start(Path::new("scenarios/diplomacy"), Some(1)).unwrap();
    session
        .setup_text(&hexwar::board::SourceText::new(
            "setup.toml",
            "phase = \"S1901M\"\n[units]\nRUSSIA = [\"F STP/SC\", \"A MOS\"]\nFRANCE = [\"F SPA/NC\"]\n",
        ))
        .unwrap();
    let svg = render(&mut session, None).unwrap();
    let units: Vec<&str> = svg
        .split("<g class=\"unit\">")
        .skip(1)
        .map(|g| g.split("</g>").next().unwrap())
        .collect();
    let coast_of = |at: &str| -> Vec<String> {
        let unit = units
            .iter()
            .find(|g| g.contains(&format!(") {at}</title>")))
            .unwrap();
        unit.split("<text")
            .skip(1)
            .map(|t| {
                t.split('>')
                    .nth(1)
                    .unwrap()
                    .split('<')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    assert_eq!(coast_of("STP/SC"), ["F", "SC"]);
    assert_eq!(coast_of("SPA/NC"), ["F", "NC"]);
    assert_eq!(coast_of("MOS"), ["A"]);
}

/// `--overlay zone:NAME` marks the hexes of a zone of the map (a country of France 1940), named
/// in the legend: a designer placing a position by a border guessed which hexes were whose.
#[test]
fn a_zone_overlay_marks_the_zone_hexes() {
    let mut session = Session::start(Path::new("scenarios/france1940"), Some(1)).unwrap();
    let swiss = session
        .scenario
        .map
        .as_hex()
        .unwrap()
        .zone_hexes("switzerland")
        .unwrap()
        .len();
    assert!(swiss > 10, "{swiss}");
    let svg = render(&mut session, Some(&Overlay::Zone("switzerland".into()))).unwrap();
    assert_eq!(
        svg.matches("fill=\"#ffe14d\" fill-opacity=\"0.55\"")
            .count(),
        swiss
    );
    assert!(svg.contains(&format!(
        "overlay: zone switzerland ({swiss} hexes, marked)"
    )));
    assert!(
        svg.contains(">zone switzerland</text>"),
        "the legend names the tint"
    );
    let e = render(&mut session, Some(&Overlay::Zone("switzerlnd".into())))
        .err()
        .unwrap();
    assert!(
        e.to_string()
            .starts_with("zone overlay: the map has no zone 'switzerlnd' (did you mean 'switzerland'? zones: north_edge, "),
        "{e}"
    );
    assert_eq!(
        "zone:belgium".parse::<Overlay>(),
        Ok(Overlay::Zone("belgium".into()))
    );
}

/// A bridge over a river is drawn over it: the features that part two hexes (rivers) come
/// first, those that cross them (bridges, causeways, roads) after. The bridge was drawn first
/// and the river over it, so only its edges showed.
#[test]
fn a_bridge_is_drawn_over_its_river() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let fixture = root.join("tests/fixtures/render_tiny");
    let map = std::fs::read_to_string(fixture.join("map.toml"))
        .unwrap()
        .replace("[hexsides]\n", "[hexsides]\nbridge = [\"0101/0201\"]\n");
    std::fs::write(dir.path().join("map.toml"), map).unwrap();
    let scenario = std::fs::read_to_string(fixture.join("scenario.toml"))
        .unwrap()
        .replace("../../../rules", &root.join("rules").display().to_string());
    std::fs::write(dir.path().join("scenario.toml"), scenario).unwrap();
    let mut session = Session::start(dir.path(), None).unwrap();
    let svg = render(&mut session, None).unwrap();
    let hexsides = &svg[svg.find("<g id=\"hexsides\"").expect("a hexsides group")..];
    let river = hexsides.find("#2f78d8").expect("the river is drawn");
    let bridge = hexsides.find("#6b4b2a").expect("the bridge is drawn");
    assert!(river < bridge, "the bridge comes after the river");
}

/// `-o` naming the save being drawn is refused before drawing: the picture replaced the save.
#[test]
fn the_cli_refuses_to_draw_over_the_save_it_draws() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.json");
    let save_text = save.to_str().unwrap();
    let run = hexwar(&["run", "scenarios/demo", "--turns", "1", "--save", save_text]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let before = std::fs::read_to_string(&save).unwrap();
    let run = hexwar(&["render", save_text, "-o", save_text]);
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(
        stderr(&run),
        format!(
            "error: -o {save_text}: that is the save being played, which the output would \
             replace (only --save may write over it)\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&save).unwrap(), before);
}
