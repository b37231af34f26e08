//! The area-map file format (TOML). A map file declares its kind with `kind = "area"` at the top
//! (hex map files need no `kind`). See docs/diplomacy.md, section "Area maps".
//!
//! ```toml
//! kind = "area"
//! name = "standard"
//! start_phase = "S1901M"      # optional: the first phase of a game on this map
//! victory_centers = 18        # optional
//! [[power]]
//! name = "FRANCE"
//! adjective = "FRENCH"
//! home_centers = ["BRE", "MAR", "PAR"]
//! start_units = ["F BRE", "A MAR", "A PAR"]
//! start_centers = ["BRE", "MAR", "PAR"]   # optional: default, the home centres
//! [[region]]
//! id = "STP"
//! name = "St Petersburg"
//! type = "coast"              # land | sea | coast | impassable
//! supply_center = true        # default false
//! home = "RUSSIA"             # default: none
//! army = ["FIN", "LVN", "MOS", "NWY"]
//! fleet = []                  # for regions without split coasts
//! [region.coasts]             # split coasts: coast -> where a fleet on it can move
//! NC = ["BAR", "NWY"]
//! SC = ["BOT", "FIN", "LVN"]
//! [region.attrs]              # optional: the designer's own data, read by rules only
//! continent = "europe"
//! ```
//!
//! Checks (each error names the file and line): unique ids, known region types, every adjacency
//! names a location of the map, adjacency is symmetric (a one-way edge is almost always a typo),
//! homes name a declared power, powers' centres are supply centres and no home centre is at sea,
//! start units stand on a location of the right kind; powers, each power's centres and each
//! region's start unit are declared once.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::area::{AreaMap, Power, Region};
use super::error::MapError;
use super::source::SourceText;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AreaSpec {
    kind: Spanned<String>,
    #[serde(default)]
    format_version: Option<u32>,
    name: String,
    #[serde(default)]
    start_phase: Option<Spanned<String>>,
    #[serde(default)]
    victory_centers: Option<Spanned<u32>>,
    #[serde(default, rename = "power")]
    powers: Vec<Spanned<PowerSpec>>,
    #[serde(default, rename = "region")]
    regions: Vec<Spanned<RegionSpec>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerSpec {
    name: Spanned<String>,
    #[serde(default)]
    adjective: String,
    #[serde(default)]
    home_centers: Vec<Spanned<String>>,
    #[serde(default)]
    start_units: Vec<Spanned<String>>,
    /// None when the map leaves it out: the power starts owning its home centres.
    #[serde(default)]
    start_centers: Option<Vec<Spanned<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RegionSpec {
    id: Spanned<String>,
    #[serde(default)]
    name: String,
    #[serde(rename = "type")]
    kind: Spanned<String>,
    #[serde(default)]
    supply_center: bool,
    #[serde(default)]
    home: Option<Spanned<String>>,
    #[serde(default)]
    army: Vec<Spanned<String>>,
    #[serde(default)]
    fleet: Vec<Spanned<String>>,
    #[serde(default)]
    coasts: BTreeMap<String, Vec<Spanned<String>>>,
    #[serde(default)]
    aliases: Vec<Spanned<String>>,
    /// The designer's own data (Region::attrs).
    #[serde(default)]
    attrs: serde_json::Map<String, serde_json::Value>,
}

const REGION_KINDS: [&str; 4] = ["land", "sea", "coast", "impassable"];

/// Reads and validates an area map file.
pub fn load_area_map(path: &Path) -> Result<AreaMap, MapError> {
    let source = SourceText::read(path).map_err(|e| MapError::unreadable(path, e))?;
    parse_area_map(&source)
}

/// Parses and validates area-map text; the first error found is returned, located.
pub fn parse_area_map(source: &SourceText) -> Result<AreaMap, MapError> {
    parse_area_map_all(source).map_err(|mut errors| errors.swap_remove(0))
}

/// Parses and validates area-map text; every error of the declarations one by one (regions,
/// aliases, adjacency lists), or once those pass, every error of the checks that need the whole
/// map (adjacency both ways, homes, centres, start units).
pub fn parse_area_map_all(source: &SourceText) -> Result<AreaMap, Vec<MapError>> {
    let err = |offset: usize, message: String| MapError {
        file: source.path.clone(),
        line: source.line_of(offset),
        hex: None,
        message,
    };
    let spec: AreaSpec = super::parse_toml(&source.text).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| err(e.offset, e.message))
            .collect::<Vec<_>>()
    })?;
    if spec.kind.get_ref() != "area" {
        return Err(vec![err(
            spec.kind.span().start,
            format!(
                "kind = \"{}\": an area map file says kind = \"area\"",
                spec.kind.get_ref()
            ),
        )]);
    }
    if let Some(v) = spec.format_version {
        if v != 1 {
            return Err(vec![err(
                0,
                format!("format_version {v} is not supported (1)"),
            )]);
        }
    }
    let mut errors: Vec<MapError> = Vec::new();
    let mut power_names: BTreeSet<&str> = BTreeSet::new();
    for p in &spec.powers {
        let name = p.get_ref().name.get_ref();
        if !power_names.insert(name) {
            errors.push(err(
                p.get_ref().name.span().start,
                format!("power '{name}' is declared twice"),
            ));
        }
    }

    // Regions and their locations first, so adjacency can be checked against them.
    let mut ids: BTreeMap<&str, &RegionSpec> = BTreeMap::new();
    // (a region declared twice: the first stands, and the second's lists are not checked
    // against it, which gave a dozen errors caused by the duplicate alone)
    let mut duplicates: BTreeSet<usize> = BTreeSet::new();
    for (k, r) in spec.regions.iter().enumerate() {
        let r = r.get_ref();
        let id = r.id.get_ref();
        if id.is_empty() || id.contains('/') || id.contains(' ') {
            errors.push(err(
                r.id.span().start,
                format!("region id '{id}' must be a non-empty name without '/' or spaces"),
            ));
            continue;
        }
        // (orders and setups are read in upper case: a lower-case id could never be ordered)
        if id.chars().any(char::is_lowercase) {
            errors.push(err(
                r.id.span().start,
                format!(
                    "region id '{id}' must be upper case ('{}'): orders name regions in upper case",
                    id.to_uppercase()
                ),
            ));
            continue;
        }
        if ids.contains_key(id.as_str()) {
            errors.push(err(
                r.id.span().start,
                format!("region '{id}' is declared twice"),
            ));
            duplicates.insert(k);
            continue;
        }
        ids.insert(id, r);
        if !REGION_KINDS.contains(&r.kind.get_ref().as_str()) {
            errors.push(err(
                r.kind.span().start,
                format!(
                    "region {id}: unknown type '{}' (expected {})",
                    r.kind.get_ref(),
                    REGION_KINDS.join(", ")
                ),
            ));
            continue;
        }
        if let Some(home) = &r.home {
            if !home.get_ref().is_empty() && !power_names.contains(home.get_ref().as_str()) {
                errors.push(err(
                    home.span().start,
                    format!(
                        "region {id}: home '{}' is not a declared [[power]]{}",
                        home.get_ref(),
                        crate::spelling::nearest(home.get_ref(), power_names.iter().copied(), 3)
                            .map(|p| format!(" (did you mean '{p}'?)"))
                            .unwrap_or_default()
                    ),
                ));
                continue;
            }
        }
        if !r.coasts.is_empty() && !r.fleet.is_empty() {
            errors.push(err(
                r.id.span().start,
                format!("region {id}: a region with split coasts lists fleet moves per coast ([region.coasts]), not in 'fleet'"),
            ));
            continue;
        }
        if let Some(coast) = r.coasts.keys().find(|c| c.chars().any(char::is_lowercase)) {
            errors.push(err(
                r.id.span().start,
                format!(
                    "region {id}: coast '{coast}' must be upper case ('{}'): orders name coasts in upper case",
                    coast.to_uppercase()
                ),
            ));
            continue;
        }
    }
    // Aliases: other names of a region, never another region's id or another alias.
    let mut alias_of: BTreeMap<&str, &str> = BTreeMap::new();
    for r in &spec.regions {
        let r = r.get_ref();
        let id = r.id.get_ref().as_str();
        for alias in &r.aliases {
            let a = alias.get_ref().as_str();
            let problem = if a.is_empty() || a.contains('/') || a.chars().any(char::is_whitespace) {
                Some("must be a non-empty name without '/' or spaces".to_string())
            } else if a.chars().any(char::is_lowercase) {
                Some(format!(
                    "must be upper case ('{}'): orders name regions in upper case",
                    a.to_uppercase()
                ))
            } else if ids.contains_key(a) {
                Some(format!("is the id of region {a}"))
            } else {
                alias_of
                    .insert(a, id)
                    .map(|other| format!("is already an alias of region {other}"))
            };
            if let Some(problem) = problem {
                errors.push(err(
                    alias.span().start,
                    format!("region {id}: alias '{a}' {problem}"),
                ));
            }
        }
    }
    let is_location = |loc: &str| match loc.split_once('/') {
        Some((region, coast)) => ids
            .get(region)
            .is_some_and(|r| r.coasts.contains_key(coast)),
        None => ids.contains_key(loc),
    };
    let check_list = |id: &str, what: &str, list: &[Spanned<String>], army: bool| {
        let mut listed: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for target in list {
            let t = target.get_ref();
            let known = if army {
                ids.contains_key(t.as_str())
            } else {
                is_location(t)
            };
            if !known {
                // (the nearest region id for a misspelt one, `HILS` for `HILLS`; the coasts of a
                // region named with a coast it lacks)
                let region = t.split('/').next().unwrap_or(t);
                let near = match ids.get(region) {
                    Some(r) if !r.coasts.is_empty() => format!(
                        " ({region} has coasts {})",
                        r.coasts
                            .keys()
                            .map(String::as_str)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    Some(_) => format!(" ({region} has no split coasts)"),
                    None => crate::spelling::nearest(region, ids.keys().copied(), 4)
                        .or_else(|| crate::spelling::swapped(region, ids.keys().copied()))
                        .map(|r| format!(" (did you mean '{r}'?)"))
                        .unwrap_or_default(),
                };
                return Err(err(
                    target.span().start,
                    format!(
                        "region {id}: {what} adjacency names '{t}', which is not {} of the map{near}",
                        if army { "a region" } else { "a location" }
                    ),
                ));
            }
            if t == id || t.split('/').next() == Some(id) {
                return Err(err(
                    target.span().start,
                    format!("region {id}: {what} adjacency names the region itself"),
                ));
            }
            // (twice in one list: every move listed from it would be offered twice)
            if !listed.insert(t.as_str()) {
                return Err(err(
                    target.span().start,
                    format!("region {id}: {what} adjacency names '{t}' twice"),
                ));
            }
            // (the kinds of region each list may join: the "no way back" check below would
            // otherwise blame the other region's list)
            let own = ids.get(id).map_or("", |r| r.kind.get_ref().as_str());
            let other = ids.get(t.split('/').next().unwrap_or(t));
            let other_kind = other.map_or("", |r| r.kind.get_ref().as_str());
            let problem = if own == "impassable" {
                Some(format!(
                    "region {id} is impassable: nothing enters or leaves it, so it lists no {what} moves"
                ))
            } else if other_kind == "impassable" {
                Some(format!(
                    "region {id}: {what} adjacency names '{t}', an impassable region (nothing enters it)"
                ))
            } else if army && own == "sea" {
                Some(format!(
                    "region {id} is a sea region: armies do not go to sea, so it lists no army moves"
                ))
            } else if army && other_kind == "sea" {
                Some(format!(
                    "region {id}: army adjacency names '{t}', a sea region (armies do not go to sea)"
                ))
            } else if !army && own == "land" {
                Some(format!(
                    "region {id} is a land region: fleets do not go inland, so it lists no fleet moves"
                ))
            } else if !army && other_kind == "land" {
                Some(format!(
                    "region {id}: {what} adjacency names '{t}', a land region (fleets do not go inland)"
                ))
            } else if let Some(other) =
                other.filter(|o| !army && !t.contains('/') && !o.coasts.is_empty())
            {
                let coasts: Vec<String> = other.coasts.keys().map(|c| format!("{t}/{c}")).collect();
                Some(format!(
                    "region {id}: {what} adjacency names '{t}', which has split coasts: name one ({})",
                    coasts.join(", ")
                ))
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(err(target.span().start, problem));
            }
        }
        Ok(())
    };
    for (k, r) in spec.regions.iter().enumerate() {
        if duplicates.contains(&k) {
            continue;
        }
        let r = r.get_ref();
        let id = r.id.get_ref();
        if let Err(e) = check_list(id, "army", &r.army, true) {
            errors.push(e);
        }
        if let Err(e) = check_list(id, "fleet", &r.fleet, false) {
            errors.push(e);
        }
        for (coast, list) in &r.coasts {
            if let Err(e) = check_list(id, &format!("coast {coast} fleet"), list, false) {
                errors.push(e);
            }
        }
    }

    if !errors.is_empty() {
        // (found part by part: listed in the file's order)
        errors.sort_by_key(|e| e.line);
        return Err(errors);
    }
    build_area_map(source, &spec)
}

/// The map of declarations already checked one by one, and what needs the whole map (adjacency
/// both ways, centres, start units): every error found.
fn build_area_map(source: &SourceText, spec: &AreaSpec) -> Result<AreaMap, Vec<MapError>> {
    let err = |offset: usize, message: String| MapError {
        file: source.path.clone(),
        line: source.line_of(offset),
        hex: None,
        message,
    };
    let regions: Vec<Region> = spec
        .regions
        .iter()
        .map(|r| {
            let r = r.get_ref();
            Region {
                id: r.id.get_ref().clone(),
                name: r.name.clone(),
                kind: r.kind.get_ref().clone(),
                supply_center: r.supply_center,
                home: r
                    .home
                    .as_ref()
                    .map(|h| h.get_ref().clone())
                    .filter(|h| !h.is_empty()),
                army: r.army.iter().map(|s| s.get_ref().clone()).collect(),
                fleet: r.fleet.iter().map(|s| s.get_ref().clone()).collect(),
                coasts: r
                    .coasts
                    .iter()
                    .map(|(c, l)| (c.clone(), l.iter().map(|s| s.get_ref().clone()).collect()))
                    .collect(),
                aliases: r.aliases.iter().map(|s| s.get_ref().clone()).collect(),
                attrs: r.attrs.clone(),
            }
        })
        .collect();
    let powers: Vec<Power> = spec
        .powers
        .iter()
        .map(|p| {
            let p = p.get_ref();
            let list = |l: &[Spanned<String>]| l.iter().map(|s| s.get_ref().clone()).collect();
            Power {
                name: p.name.get_ref().clone(),
                adjective: p.adjective.clone(),
                home_centers: list(&p.home_centers),
                start_units: list(&p.start_units),
                start_centers: match &p.start_centers {
                    Some(declared) => list(declared),
                    None => home_centres_of(p, &spec.regions),
                },
            }
        })
        .collect();
    let mut errors: Vec<MapError> = Vec::new();
    let map = AreaMap::new(
        spec.name.clone(),
        spec.start_phase.as_ref().map(|p| p.get_ref().clone()),
        spec.victory_centers.as_ref().map(|v| *v.get_ref()),
        regions,
        powers,
    );

    // Symmetry: a one-way edge is reported at the line that declares it. (The edges as sets of
    // (from, to): a region with 100 000 neighbours took 83 s when each way back was searched
    // for in its list.)
    let mut army_edges: std::collections::HashSet<(&str, &str)> = Default::default();
    let mut fleet_edges: std::collections::HashSet<(String, &str)> = Default::default();
    for r in &spec.regions {
        let r = r.get_ref();
        let id = r.id.get_ref();
        army_edges.extend(r.army.iter().map(|t| (id.as_str(), t.get_ref().as_str())));
        if r.coasts.is_empty() {
            fleet_edges.extend(r.fleet.iter().map(|t| (id.clone(), t.get_ref().as_str())));
        }
        for (coast, list) in &r.coasts {
            let from = format!("{id}/{coast}");
            fleet_edges.extend(list.iter().map(|t| (from.clone(), t.get_ref().as_str())));
        }
    }
    for r in &spec.regions {
        let r = r.get_ref();
        let id = r.id.get_ref();
        for target in &r.army {
            if !army_edges.contains(&(target.get_ref().as_str(), id.as_str())) {
                errors.push(err(
                    target.span().start,
                    format!(
                        "army adjacency {id} -> {} has no way back ({} does not list {id})",
                        target.get_ref(),
                        target.get_ref()
                    ),
                ));
            }
        }
        let fleet_lists = std::iter::once((id.clone(), &r.fleet))
            .filter(|_| r.coasts.is_empty())
            .chain(r.coasts.iter().map(|(c, l)| (format!("{id}/{c}"), l)));
        for (from, list) in fleet_lists {
            for target in list {
                if !fleet_edges.contains(&(target.get_ref().clone(), from.as_str())) {
                    errors.push(err(
                        target.span().start,
                        format!(
                            "fleet adjacency {from} -> {} has no way back ({} does not list {from})",
                            target.get_ref(),
                            target.get_ref()
                        ),
                    ));
                }
            }
        }
    }

    // A region's `home` and the powers' home centres say the same (else the centre would be a home
    // of both powers).
    for r in &spec.regions {
        let r = r.get_ref();
        let Some(home) = r.home.as_ref().filter(|h| !h.get_ref().is_empty()) else {
            continue;
        };
        let id = r.id.get_ref();
        // (a home is where a power builds: a supply centre; a region that is none could take
        // builds it never scores)
        if !r.supply_center {
            errors.push(err(
                home.span().start,
                format!(
                    "region {id}: home '{}', but {id} is no supply centre (a home centre is one: \
                     add supply_center = true, or leave home out)",
                    home.get_ref()
                ),
            ));
        }
        if r.kind.get_ref() == "sea" {
            errors.push(err(
                home.span().start,
                format!(
                    "region {id}: home '{}', but {id} is a sea region (a power builds in its \
                     home centres: a land or coast region)",
                    home.get_ref()
                ),
            ));
        }
        for p in &spec.powers {
            let p = p.get_ref();
            let name = p.name.get_ref();
            if name != home.get_ref() && p.home_centers.iter().any(|c| c.get_ref() == id) {
                errors.push(err(
                    home.span().start,
                    format!(
                        "region {id}: home '{}', but power {name} lists {id} among its home centres",
                        home.get_ref()
                    ),
                ));
            }
        }
    }
    // (the Diplomacy rules number a game's years from it and label its steps so: any other
    // form matched none of them, and every step was passed over)
    if let Some(phase) = &spec.start_phase {
        let text = phase.get_ref();
        let b = text.as_bytes();
        let ok = b.len() == 6
            && b[1..5].iter().all(u8::is_ascii_digit)
            && b[1] != b'0'
            && matches!((b[0], b[5]), (b'S' | b'F', b'M' | b'R') | (b'W', b'A'));
        if !ok {
            errors.push(err(
                phase.span().start,
                format!(
                    "start_phase = \"{text}\": write a season, a year from 1000 to 9999 and a \
                     phase: S1901M (spring movement), S1901R, F1901M, F1901R or W1901A"
                ),
            ));
        }
    }
    if let Some(v) = &spec.victory_centers {
        let centres = spec
            .regions
            .iter()
            .filter(|r| r.get_ref().supply_center)
            .count();
        let wanted = *v.get_ref();
        if wanted == 0 || wanted as usize > centres {
            errors.push(err(
                v.span().start,
                format!(
                    "victory_centers = {wanted}: the map has {centres} supply centres (a victory needs 1 to {centres})"
                ),
            ));
        }
    }

    // (each centre is one power's home and one power's at the start, each region holds one
    // start unit: a second power or unit there is a copy-paste slip the game cannot play)
    let mut home_of: BTreeMap<&str, &str> = BTreeMap::new();
    let mut owner_of: BTreeMap<&str, &str> = BTreeMap::new();
    let mut unit_in: BTreeMap<String, (&str, &str)> = BTreeMap::new();
    for p in &spec.powers {
        let p = p.get_ref();
        let name = p.name.get_ref();
        for (list, what, seen) in [
            (p.home_centers.as_slice(), "home", &mut home_of),
            (
                p.start_centers.as_deref().unwrap_or(&[]),
                "start",
                &mut owner_of,
            ),
        ] {
            for c in list {
                if let Some(first) = seen.insert(c.get_ref(), name) {
                    errors.push(err(
                        c.span().start,
                        format!(
                            "power {name}: {} is already a {what} centre of {}",
                            c.get_ref(),
                            if first == name.as_str() {
                                "this power"
                            } else {
                                first
                            }
                        ),
                    ));
                }
            }
        }
        // (a power builds in its home centres; at sea no army can be built and a fleet was
        // told it "cannot be built inland")
        for c in &p.home_centers {
            if map.region(c.get_ref()).is_some_and(|r| r.kind == "sea") {
                errors.push(err(
                    c.span().start,
                    format!(
                        "power {name}: home centre '{}' is a sea region (a power builds in its \
                         home centres: a land or coast region)",
                        c.get_ref()
                    ),
                ));
            }
        }
        for c in p
            .home_centers
            .iter()
            .chain(p.start_centers.iter().flatten())
        {
            if !map.region(c.get_ref()).is_some_and(|r| r.supply_center) {
                errors.push(err(
                    c.span().start,
                    format!(
                        "power {name}: '{}' is not a supply centre of the map",
                        c.get_ref()
                    ),
                ));
            }
        }
        for u in &p.start_units {
            let text = u.get_ref();
            let ok = match text.split_once(' ') {
                Some(("A", loc)) => map.region_of(loc).is_some_and(|r| {
                    !loc.contains('/') && matches!(r.kind.as_str(), "land" | "coast")
                }),
                Some(("F", loc)) => map.region_of(loc).is_some_and(|r| {
                    matches!(r.kind.as_str(), "sea" | "coast")
                        && (r.coasts.is_empty() || loc.contains('/'))
                }),
                _ => false,
            };
            if !ok {
                // (the two slips a designer makes most: a fleet on a split-coast region without
                // its coast, an army given a coast)
                let specific = match text.split_once(' ') {
                    Some(("F", loc)) => map
                        .region_of(loc)
                        .filter(|r| !r.coasts.is_empty() && !loc.contains('/'))
                        .map(|r| {
                            let coasts: Vec<String> =
                                r.coasts.keys().map(|c| format!("F {}/{c}", r.id)).collect();
                            format!(
                                "{} has split coasts: name one ({})",
                                r.id,
                                coasts.join(", ")
                            )
                        }),
                    Some(("A", loc)) if loc.contains('/') => map.region_of(loc).map(|r| {
                        format!("an army stands in a region, not on a coast (A {})", r.id)
                    }),
                    _ => None,
                };
                let why = specific.unwrap_or_else(|| {
                    "must be \"A <land or coast region>\" or \"F <sea, coast or coast/NC>\""
                        .to_string()
                });
                errors.push(err(
                    u.span().start,
                    format!(
                        "power {name}: start unit '{text}' {}",
                        if why.starts_with("must") {
                            why
                        } else {
                            format!("is wrong: {why}")
                        }
                    ),
                ));
                continue;
            }
            let region = text
                .split_once(' ')
                .and_then(|(_, loc)| map.region_of(loc))
                .map(|r| r.id.clone())
                .unwrap_or_default();
            if let Some((power, other)) = unit_in.insert(region.clone(), (name, text)) {
                errors.push(err(
                    u.span().start,
                    format!(
                        "power {name}: start unit '{text}': {region} already holds '{other}' of {power}"
                    ),
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(map)
    } else {
        errors.sort_by_key(|e| e.line);
        Err(errors)
    }
}

/// A power's home centres, as it owns them at the start when the map names no `start_centers`:
/// its `home_centers`, then the regions whose `home` names it (either declares a home). A map
/// without `start_centers` started every power with no centre: the first winter disbanded
/// every unit.
fn home_centres_of(p: &PowerSpec, regions: &[Spanned<RegionSpec>]) -> Vec<String> {
    let mut out: Vec<String> = p.home_centers.iter().map(|c| c.get_ref().clone()).collect();
    for r in regions {
        let r = r.get_ref();
        let homed = r
            .home
            .as_ref()
            .is_some_and(|h| h.get_ref() == p.name.get_ref());
        if homed && !out.contains(r.id.get_ref()) {
            out.push(r.id.get_ref().clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<AreaMap, MapError> {
        parse_area_map(&SourceText::new("t.toml", text))
    }

    /// Every error `parse_area_map_all` lists, as printed.
    fn parse_all(text: &str) -> Vec<String> {
        parse_area_map_all(&SourceText::new("t.toml", text))
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    const OK: &str = r#"kind = "area"
name = "t"
[[power]]
name = "RED"
home_centers = ["AAA"]
start_units = ["A AAA"]
[[region]]
id = "AAA"
type = "coast"
supply_center = true
home = "RED"
army = ["BBB"]
fleet = ["SEA"]
[[region]]
id = "BBB"
type = "land"
army = ["AAA"]
[[region]]
id = "SEA"
type = "sea"
fleet = ["AAA"]
"#;

    #[test]
    fn a_valid_map_loads() {
        let m = parse(OK).unwrap();
        assert_eq!(m.regions().len(), 3);
        assert!(m.adjacent("AAA", "BBB", super::super::area::MoveClass::Army));
        assert_eq!(m.homes("RED"), vec!["AAA"]);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse(&OK.replace("army = [\"AAA\"]", "army = [\"ZZZ\"]")).unwrap_err();
        assert_eq!(e.line, 17);
        assert!(e.message.contains("'ZZZ'"), "{e}");
        let e = parse(&OK.replace("fleet = [\"AAA\"]", "fleet = []")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:13: fleet adjacency AAA -> SEA has no way back (SEA does not list AAA)"
        );
        let e = parse(&OK.replace("type = \"land\"", "type = \"swamp\"")).unwrap_err();
        assert_eq!(e.line, 16);
        let e = parse(&OK.replace("home = \"RED\"", "home = \"BLUE\"")).unwrap_err();
        assert_eq!(e.line, 11);
        let e = parse(&OK.replace("[\"A AAA\"]", "[\"F BBB\"]")).unwrap_err();
        assert_eq!(e.line, 6);
    }

    /// Every declaration error at once (a designer fixed ten misspelt region types one `check`
    /// at a time): the regions' and their adjacency lists', in the file's order.
    #[test]
    fn the_declaration_errors_are_reported_together() {
        let text = OK
            .replace("type = \"land\"", "type = \"plains\"")
            .replace("type = \"sea\"", "type = \"ocean\"")
            .replace("fleet = [\"SEA\"]", "fleet = [\"SAE\"]");
        let errors = parse_all(&text);
        assert_eq!(
            errors,
            [
                "t.toml:13: region AAA: fleet adjacency names 'SAE', which is not a location of the map (did you mean 'SEA'?)",
                "t.toml:16: region BBB: unknown type 'plains' (expected land, sea, coast, impassable)",
                "t.toml:20: region SEA: unknown type 'ocean' (expected land, sea, coast, impassable)",
            ]
        );
        // (the first alone, for callers that take one)
        assert_eq!(parse(&text).unwrap_err().to_string(), errors[0]);
    }

    /// The checks that need the whole map list every error too: a one-way adjacency, a start
    /// unit on the wrong kind of region and a start centre that is no centre, in one `check`.
    #[test]
    fn the_whole_map_errors_are_reported_together() {
        let text = OK.replace("army = [\"AAA\"]", "army = []").replace(
            "start_units = [\"A AAA\"]",
            "start_units = [\"A SEA\", \"F BBB\"]\nstart_centers = [\"BBB\"]",
        );
        let errors = parse_all(&text);
        assert_eq!(
            errors,
            [
                "t.toml:6: power RED: start unit 'A SEA' must be \"A <land or coast region>\" or \"F <sea, coast or coast/NC>\"",
                "t.toml:6: power RED: start unit 'F BBB' must be \"A <land or coast region>\" or \"F <sea, coast or coast/NC>\"",
                "t.toml:7: power RED: 'BBB' is not a supply centre of the map",
                "t.toml:13: army adjacency AAA -> BBB has no way back (BBB does not list AAA)",
            ]
        );
        assert_eq!(parse(&text).unwrap_err().to_string(), errors[0]);
    }

    #[test]
    fn an_unknown_adjacency_name_gets_the_nearest_region_or_the_coasts() {
        let e = parse(&OK.replace("army = [\"AAA\"]", "army = [\"AAAX\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:17: region BBB: army adjacency names 'AAAX', which is not a region of the map (did you mean 'AAA'?)"
        );
        let e = parse(&OK.replace("army = [\"AAA\"]", "army = [\"ZZZZZZ\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:17: region BBB: army adjacency names 'ZZZZZZ', which is not a region of the map"
        );
        let e = parse(&OK.replace("fleet = [\"AAA\"]", "fleet = [\"AAA/NC\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:21: region SEA: fleet adjacency names 'AAA/NC', which is not a location of the map (AAA has no split coasts)"
        );
    }

    #[test]
    fn an_alias_names_its_region_and_is_written_as_its_id() {
        let m = parse(&OK.replace(
            "id = \"BBB\"",
            "id = \"BBB\"\naliases = [\"BEE\", \"BBBB\"]",
        ))
        .unwrap();
        assert_eq!(m.region("BEE").map(|r| r.id.as_str()), Some("BBB"));
        assert_eq!(m.region("BBBB").map(|r| r.id.as_str()), Some("BBB"));
        assert_eq!(m.region("AAA").map(|r| r.id.as_str()), Some("AAA"));
        assert!(m.region("CCC").is_none());
        assert!(m.is_location("BEE"));
    }

    #[test]
    fn an_alias_may_not_be_a_region_id_or_another_alias() {
        let e =
            parse(&OK.replace("id = \"BBB\"", "id = \"BBB\"\naliases = [\"SEA\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:16: region BBB: alias 'SEA' is the id of region SEA"
        );
        let twice = OK
            .replace("id = \"BBB\"", "id = \"BBB\"\naliases = [\"XX\"]")
            .replace("id = \"SEA\"", "id = \"SEA\"\naliases = [\"XX\"]");
        let e = parse(&twice).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:21: region SEA: alias 'XX' is already an alias of region BBB"
        );
        let e =
            parse(&OK.replace("id = \"BBB\"", "id = \"BBB\"\naliases = [\"B/C\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:16: region BBB: alias 'B/C' must be a non-empty name without '/' or spaces"
        );
    }

    /// Orders and setups are read in upper case: a lower-case id, alias or coast could never be
    /// ordered (a designer's `Mrs` passed `check`, and every order to it was void).
    #[test]
    fn ids_aliases_and_coasts_are_upper_case() {
        // (with the adjacency lists naming BBB, reported beside it)
        let all = parse_all(&OK.replace("id = \"BBB\"", "id = \"Bbb\""));
        assert!(
            all.contains(&"t.toml:15: region id 'Bbb' must be upper case ('BBB'): orders name regions in upper case".to_string()),
            "{all:?}"
        );
        let e =
            parse(&OK.replace("id = \"BBB\"", "id = \"BBB\"\naliases = [\"Bee\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:16: region BBB: alias 'Bee' must be upper case ('BEE'): orders name regions in upper case"
        );
        let all = parse_all(&OK.replace(
            "fleet = [\"SEA\"]\n[[region]]",
            "[region.coasts]\nnc = [\"SEA\"]\n[[region]]",
        ));
        assert!(
            all.contains(&"t.toml:8: region AAA: coast 'nc' must be upper case ('NC'): orders name coasts in upper case".to_string()),
            "{all:?}"
        );
    }

    /// An impassable region is in no move list, its own or another's: a designer's army list
    /// naming one was offered to the bots and voided as "not adjacent".
    #[test]
    fn an_impassable_region_is_in_no_move_list() {
        let map = format!("{OK}[[region]]\nid = \"MTN\"\ntype = \"impassable\"\n");
        assert!(parse(&map).is_ok());
        let e = parse(&map.replace("army = [\"AAA\"]", "army = [\"AAA\", \"MTN\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:17: region BBB: army adjacency names 'MTN', an impassable region (nothing enters it)"
        );
        let all = parse_all(&format!("{map}army = [\"BBB\"]\n"));
        assert!(
            all.contains(&"t.toml:25: region MTN is impassable: nothing enters or leaves it, so it lists no army moves".to_string()),
            "{all:?}"
        );
    }

    /// A move list on the wrong kind of region, or onto one, is named as such, not as a missing
    /// way back from the other region (the designer walkthrough of session 17 met both).
    #[test]
    fn a_move_list_of_the_wrong_kind_is_named() {
        let e = parse(&OK.replace("fleet = [\"AAA\"]", "fleet = [\"AAA\"]\narmy = [\"AAA\"]"))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:22: region SEA is a sea region: armies do not go to sea, so it lists no army moves"
        );
        let e = parse(&OK.replace("army = [\"BBB\"]", "army = [\"BBB\", \"SEA\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:12: region AAA: army adjacency names 'SEA', a sea region (armies do not go to sea)"
        );
        let e = parse(&OK.replace("army = [\"AAA\"]", "army = [\"AAA\"]\nfleet = [\"AAA\"]"))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:18: region BBB is a land region: fleets do not go inland, so it lists no fleet moves"
        );
    }

    #[test]
    fn a_fleet_move_to_a_split_coast_region_must_name_the_coast() {
        let split = OK
            .replace("fleet = [\"AAA\"]", "fleet = [\"AAA/NC\"]")
            .replace(
                "fleet = [\"SEA\"]",
                "[region.coasts]\nNC = [\"SEA\"]\nSC = []",
            );
        assert!(parse(&split).is_ok(), "{:?}", parse(&split).err());
        let e = parse(&split.replace("fleet = [\"AAA/NC\"]", "fleet = [\"AAA\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:23: region SEA: fleet adjacency names 'AAA', which has split coasts: name one (AAA/NC, AAA/SC)"
        );
        // (a start fleet there names its coast too; an army names no coast)
        for (unit, message) in [
            ("F AAA", "start unit 'F AAA' is wrong: AAA has split coasts: name one (F AAA/NC, F AAA/SC)"),
            ("A AAA/NC", "start unit 'A AAA/NC' is wrong: an army stands in a region, not on a coast (A AAA)"),
        ] {
            let e = parse(&split.replace("start_units = [\"A AAA\"]", &format!("start_units = [\"{unit}\"]"))).unwrap_err();
            assert_eq!(e.to_string(), format!("t.toml:6: power RED: {message}"));
        }
    }

    /// A coast the region lacks is named with the coasts it has; a region's own coast in its
    /// own list is the region itself (it was taken as a move from one coast to the other).
    #[test]
    fn a_wrong_coast_lists_the_coasts_and_an_own_coast_is_the_region_itself() {
        let split = OK
            .replace("fleet = [\"AAA\"]", "fleet = [\"AAA/NC\"]")
            .replace(
                "fleet = [\"SEA\"]",
                "[region.coasts]\nNC = [\"SEA\"]\nSC = []",
            );
        assert_eq!(
            parse_all(&split.replace("fleet = [\"AAA/NC\"]", "fleet = [\"AAA/EC\"]")),
            ["t.toml:23: region SEA: fleet adjacency names 'AAA/EC', which is not a location of the map (AAA has coasts NC, SC)"]
        );
        assert_eq!(
            parse_all(&split.replace("SC = []", "SC = [\"AAA/NC\"]")),
            ["t.toml:15: region AAA: coast SC fleet adjacency names the region itself"]
        );
    }

    /// A region declared twice is one error: the first declaration stands. The second (here a
    /// sea) replaced it, and every list naming the region was then wrong too (`army adjacency
    /// names 'BBB', a sea region`).
    #[test]
    fn a_region_declared_twice_is_one_error() {
        let text = format!("{OK}[[region]]\nid = \"BBB\"\ntype = \"sea\"\nfleet = [\"AAA\"]\n");
        assert_eq!(
            parse_all(&text),
            ["t.toml:23: region 'BBB' is declared twice"]
        );
    }

    /// A three-letter id with two letters swapped (`MRA` for `MAR`) is too short for the usual
    /// hint, which one edit would give for many ids; the one id of the same letters is named.
    /// A misspelt home power is named too.
    #[test]
    fn a_swapped_region_id_and_a_misspelt_home_get_the_name_meant() {
        let e = parse(&OK.replace("army = [\"AAA\"]", "army = [\"BAA\"]"))
            .map(|_| ())
            .unwrap_err();
        assert!(
            e.to_string().ends_with("which is not a region of the map"),
            "{e}"
        );
        let e = parse(&OK.replace("fleet = [\"SEA\"]", "fleet = [\"ESA\"]")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:13: region AAA: fleet adjacency names 'ESA', which is not a location of the map (did you mean 'SEA'?)"
        );
        let e = parse(&OK.replace("home = \"RED\"", "home = \"RDE\"")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:11: region AAA: home 'RDE' is not a declared [[power]] (did you mean 'RED'?)"
        );
    }

    /// A second `[[power]]` of the same name, a centre two powers hold at the start, or two
    /// start units in one region were accepted; the game then played a board no rule allows.
    #[test]
    fn powers_centres_and_start_units_are_not_declared_twice() {
        let e = parse(&OK.replace(
            "[[region]]\nid = \"AAA\"",
            "[[power]]\nname = \"RED\"\n[[region]]\nid = \"AAA\"",
        ))
        .unwrap_err();
        assert_eq!(e.to_string(), "t.toml:8: power 'RED' is declared twice");

        let e = parse(&OK.replace(
            "start_units = [\"A AAA\"]",
            "start_units = [\"A AAA\"]\nstart_centers = [\"AAA\"]\n[[power]]\nname = \"BLUE\"\nstart_centers = [\"AAA\"]",
        ))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:10: power BLUE: AAA is already a start centre of RED"
        );
        let e = parse(&OK.replace(
            "home_centers = [\"AAA\"]",
            "home_centers = [\"AAA\", \"AAA\"]",
        ))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:5: power RED: AAA is already a home centre of this power"
        );

        let e = parse(&OK.replace(
            "start_units = [\"A AAA\"]",
            "start_units = [\"A AAA\"]\n[[power]]\nname = \"BLUE\"\nstart_units = [\"F AAA\"]",
        ))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:9: power BLUE: start unit 'F AAA': AAA already holds 'A AAA' of RED"
        );
    }

    /// A region's `home` that another power lists among its home centres made the centre a home
    /// of both powers.
    #[test]
    fn a_home_centre_has_one_power() {
        let two = OK.replace(
            "[[power]]\nname = \"RED\"",
            "[[power]]\nname = \"BLUE\"\n[[power]]\nname = \"RED\"",
        );
        assert!(parse(&two).is_ok());
        let e = parse(&two.replace("home = \"RED\"", "home = \"BLUE\"")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:13: region AAA: home 'BLUE', but power RED lists AAA among its home centres"
        );
    }

    /// A home is where a power builds: a region that is no supply centre cannot be one (it took
    /// builds it never scored).
    #[test]
    fn a_home_is_a_supply_centre() {
        let e = parse(&OK.replace("type = \"land\"\n", "type = \"land\"\nhome = \"RED\"\n"))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:17: region BBB: home 'RED', but BBB is no supply centre (a home centre is \
             one: add supply_center = true, or leave home out)"
        );
    }

    /// A power the map gives no `start_centers` owns its home centres at the start (its list,
    /// then the regions naming it their home); it owned none, and the first winter disbanded
    /// its units. A list given, even an empty one, is kept as given.
    #[test]
    fn start_centres_default_to_the_home_centres() {
        let m = parse(OK).unwrap();
        assert_eq!(m.powers()[0].start_centers, ["AAA"]);
        let homed_on_region = OK.replace("home_centers = [\"AAA\"]\n", "").replace(
            "type = \"land\"\n",
            "type = \"land\"\nsupply_center = true\nhome = \"RED\"\n",
        );
        let m = parse(&homed_on_region).unwrap();
        assert_eq!(m.powers()[0].start_centers, ["AAA", "BBB"]);
        let none = OK.replace("start_units", "start_centers = []\nstart_units");
        assert!(parse(&none).unwrap().powers()[0].start_centers.is_empty());
    }

    /// A home centre at sea passed the loader; builds there were refused with reasons that
    /// did not say why ("a fleet cannot be built inland").
    #[test]
    fn a_home_centre_is_no_sea_region() {
        let at_sea = OK
            .replace(
                "home_centers = [\"AAA\"]",
                "home_centers = [\"AAA\", \"SEA\"]",
            )
            .replace("type = \"sea\"\n", "type = \"sea\"\nsupply_center = true\n");
        assert_eq!(
            parse_all(&at_sea),
            ["t.toml:5: power RED: home centre 'SEA' is a sea region (a power builds in its home \
              centres: a land or coast region)"]
        );
        let home_at_sea = OK.replace(
            "type = \"sea\"\n",
            "type = \"sea\"\nsupply_center = true\nhome = \"RED\"\n",
        );
        assert_eq!(
            parse_all(&home_at_sea),
            ["t.toml:22: region SEA: home 'RED', but SEA is a sea region (a power builds in its \
              home centres: a land or coast region)"]
        );
        // (a supply centre at sea that is no one's home stays a designer's choice)
        let sea_centre = OK.replace("type = \"sea\"\n", "type = \"sea\"\nsupply_center = true\n");
        assert!(parse(&sea_centre).is_ok());
    }

    /// A start phase is a season, a year of four digits (1000-9999) and a phase (`S1901M`): a
    /// map's games number
    /// their years from it, and another form made every step pass over, without a word.
    #[test]
    fn a_start_phase_is_season_year_phase() {
        for good in ["S1901M", "F2000M", "W1900A", "S1000M"] {
            let text = OK.replace(
                "name = \"t\"",
                &format!("name = \"t\"\nstart_phase = \"{good}\""),
            );
            assert!(parse(&text).is_ok(), "{good}");
        }
        for bad in [
            "S801M", "S0801M", "s1901m", "S1901X", "X1901M", "W1901M", "S1901A",
        ] {
            let text = OK.replace(
                "name = \"t\"",
                &format!("name = \"t\"\nstart_phase = \"{bad}\""),
            );
            assert_eq!(
                parse(&text).unwrap_err().to_string(),
                format!(
                    "t.toml:3: start_phase = \"{bad}\": write a season, a year from 1000 to 9999 \
                     and a phase: S1901M (spring movement), S1901R, F1901M, F1901R or W1901A"
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_victory_needs_a_number_of_centres_the_map_has() {
        assert!(parse(&OK.replace("name = \"t\"", "name = \"t\"\nvictory_centers = 1")).is_ok());
        let e =
            parse(&OK.replace("name = \"t\"", "name = \"t\"\nvictory_centers = 99")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.toml:3: victory_centers = 99: the map has 1 supply centres (a victory needs 1 to 1)"
        );
    }
}
