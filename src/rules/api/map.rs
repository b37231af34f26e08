//! `hex.map`: the board, read-only. Hexes are named by their printed labels (`"0312"`).
//! `name` and `kind` serve both board kinds; the hex functions below fail with a clear message
//! on an area board, whose functions live in `area.rs` (registered into the same table).

use std::sync::Arc;

use mlua::{Lua, Table};

use super::{string_list, with_host};
use crate::board::{Board, HexIndex, HexMap};
use crate::rules::host_work::charge_listed;

/// The hex map, or an error naming the call when the board is an area map.
fn hex_map(lua: &Lua, call: &str) -> mlua::Result<Arc<HexMap>> {
    with_host(lua, |h| h.map.as_hex().cloned())?.ok_or_else(|| {
        mlua::Error::runtime(format!(
            "hex.map.{call}: this board is an area map, which has no hex grid; on both kinds of \
             board: places, is_location, terrain, features, has_feature, neighbors, distance; on \
             area maps: regions, region, adjacent, supply_centers, homes, powers, board_table"
        ))
    })
}

/// The board, either kind (an `Arc` clone, as `hex_map`'s).
fn board(lua: &Lua) -> mlua::Result<Board> {
    with_host(lua, |h| h.map.clone())
}

/// Every hex's label, in index order: formatted once per VM.
pub(crate) fn labels(lua: &Lua, map: &HexMap) -> mlua::Result<Arc<[String]>> {
    if let Some(labels) = with_host(lua, |h| h.labels.clone())? {
        return Ok(labels);
    }
    let labels: Arc<[String]> = (0..map.len()).map(|i| map.label(i)).collect();
    let interned = crate::rules::lua_stack::writer::intern_labels(lua, &labels)?;
    let index = lua.create_table_with_capacity(0, labels.len())?;
    for (i, label) in labels.iter().enumerate() {
        index.raw_set(label.as_str(), i)?;
    }
    let index = lua.create_registry_value(index)?;
    with_host(lua, |h| {
        h.labels = Some(labels.clone());
        h.label_strings = Some(interned);
        h.label_index = Some(index);
    })?;
    Ok(labels)
}

/// The hex indices of a Lua list of hex labels (`{"0302", "0303"}`), read in one walk without
/// copying or parsing a label (`lua_stack::reader::hex_indices`). `what` names the list in errors.
pub(crate) fn hex_list(
    lua: &Lua,
    map: &HexMap,
    list: &Table,
    what: &str,
) -> mlua::Result<Vec<HexIndex>> {
    labels(lua, map)?;
    let index: Table = with_host(lua, |h| {
        h.label_index
            .as_ref()
            .map(|k| lua.registry_value::<Table>(k))
    })?
    .ok_or_else(|| mlua::Error::runtime("hexwar host: no label index"))??;
    crate::rules::lua_stack::reader::hex_indices(lua, list, &index)?
        .map_err(|e| mlua::Error::runtime(format!("{what}: {e}")))
}

/// The Lua string of terrain `id`'s name: made once per VM (`hex.map.terrain` is the most
/// called host function; a cached string is pushed without making a new one).
fn terrain_string(lua: &Lua, map: &HexMap, hex: HexIndex) -> mlua::Result<mlua::LuaString> {
    let id = map.terrain_id(hex);
    let kept = with_host(lua, |h| {
        h.terrain_strings
            .as_ref()
            .and_then(|t| t.get(id as usize).cloned())
    })?;
    if let Some(s) = kept {
        return Ok(s);
    }
    let names = map
        .terrain_names()
        .iter()
        .map(|n| lua.create_string(n))
        .collect::<mlua::Result<Vec<_>>>()?;
    let s = match names.get(id as usize) {
        Some(s) => s.clone(),
        None => lua.create_string(map.terrain_name(hex))?,
    };
    with_host(lua, |h| h.terrain_strings = Some(names))?;
    Ok(s)
}

/// The labels of `hexes` (hexes of `map`), as a Lua sequence.
pub(crate) fn label_list(
    lua: &Lua,
    map: &HexMap,
    hexes: impl IntoIterator<Item = HexIndex>,
) -> mlua::Result<Table> {
    let count = labels(lua, map)?.len();
    let hexes: Vec<HexIndex> = hexes
        .into_iter()
        .filter(|&h| (h as usize) < count)
        .collect();
    let hexes = hexes.as_slice();
    // (only borrows: see writer.rs)
    crate::rules::lua_stack::writer::write(lua, (), |w| {
        w.table(hexes.len(), 0);
        for (i, &h) in hexes.iter().enumerate() {
            w.label(h);
            w.set_item(i + 1);
        }
    })
}

/// The hex `label` names, or an error naming the call.
fn hex_of(map: &HexMap, label: &str, call: &str) -> mlua::Result<HexIndex> {
    map.parse_label(label).ok_or_else(|| {
        mlua::Error::runtime(format!(
            "hex.map.{call}: '{label}' is not a hex of the map{}",
            map.labels_hint()
        ))
    })
}

/// Registers `hex.map`.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.raw_set(
        "name",
        lua.create_function(|lua, ()| with_host(lua, |h| h.map.name().to_string()))?,
    )?;
    t.raw_set(
        "kind",
        lua.create_function(|lua, ()| with_host(lua, |h| h.map.kind()))?,
    )?;
    t.raw_set(
        "columns",
        lua.create_function(|lua, ()| Ok(hex_map(lua, "columns")?.columns()))?,
    )?;
    t.raw_set(
        "rows",
        lua.create_function(|lua, ()| Ok(hex_map(lua, "rows")?.rows()))?,
    )?;
    t.raw_set(
        "is_hex",
        lua.create_function(|lua, label: String| {
            with_host(lua, |h| {
                h.map
                    .as_hex()
                    .is_some_and(|m| m.parse_label(&label).is_some())
            })
        })?,
    )?;
    t.raw_set(
        "hexes",
        lua.create_function(|lua, ()| {
            let map = hex_map(lua, "hexes")?;
            charge_listed(lua, map.len() as usize)?;
            label_list(lua, &map, 0..map.len())
        })?,
    )?;
    t.raw_set(
        "places",
        lua.create_function(|lua, ()| match board(lua)? {
            Board::Hex(map) => {
                charge_listed(lua, map.len() as usize)?;
                label_list(lua, &map, 0..map.len())
            }
            Board::Area(map) => super::area::region_ids(lua, &map),
        })?,
    )?;
    // (terrain, features and has_feature serve both kinds: an area map's region type is its
    // terrain, and its `attrs` set to true its features)
    t.raw_set(
        "terrain",
        lua.create_function(|lua, label: String| match board(lua)? {
            Board::Hex(map) => terrain_string(lua, &map, hex_of(&map, &label, "terrain")?),
            Board::Area(map) => {
                let region = super::area::region_at(&map, &label, "terrain")?;
                lua.create_string(&region.kind)
            }
        })?,
    )?;
    t.raw_set(
        "features",
        lua.create_function(|lua, label: String| match board(lua)? {
            Board::Hex(map) => {
                let i = hex_of(&map, &label, "features")?;
                string_list(lua, map.features_of(i))
            }
            Board::Area(map) => {
                let region = super::area::region_at(&map, &label, "features")?;
                string_list(lua, region.features())
            }
        })?,
    )?;
    t.raw_set(
        "has_feature",
        lua.create_function(
            |lua, (label, feature): (String, String)| match board(lua)? {
                Board::Hex(map) => {
                    let at = hex_of(&map, &label, "has_feature")?;
                    if map.feature_id(&feature).is_none() {
                        misspelt("has_feature", "feature", &feature, map.feature_names())?;
                    }
                    Ok(map.has_feature(at, &feature))
                }
                Board::Area(map) => {
                    let region = super::area::region_at(&map, &label, "has_feature")?;
                    if region.features().any(|f| f == feature) {
                        return Ok(true);
                    }
                    // (a name near one some region has is misspelt, as on a hex map: it read as
                    // a silent false in victory and bot code)
                    let mut known: Vec<String> = (map.regions().iter())
                        .flat_map(|r| r.features().map(str::to_string))
                        .collect();
                    known.sort_unstable();
                    known.dedup();
                    if known.binary_search(&feature).is_err() {
                        misspelt("has_feature", "feature", &feature, &known)?;
                    }
                    Ok(false)
                }
            },
        )?,
    )?;
    t.raw_set(
        "hexside",
        lua.create_function(|lua, (a, b): (String, String)| {
            let map = hex_map(lua, "hexside")?;
            let (a, b) = (hex_of(&map, &a, "hexside")?, hex_of(&map, &b, "hexside")?);
            string_list(lua, map.hexside_features(a, b))
        })?,
    )?;
    t.raw_set(
        "neighbors",
        lua.create_function(|lua, label: String| {
            let map = hex_map(lua, "neighbors")?;
            let i = hex_of(&map, &label, "neighbors")?;
            label_list(lua, &map, map.neighbors(i).map(|(_, n)| n))
        })?,
    )?;
    t.raw_set(
        "direction",
        lua.create_function(|lua, (a, b): (String, String)| {
            let map = hex_map(lua, "direction")?;
            let (a, b) = (
                hex_of(&map, &a, "direction")?,
                hex_of(&map, &b, "direction")?,
            );
            Ok(map.hex(a).neighbor_direction(map.hex(b)).map(|d| d.index()))
        })?,
    )?;
    t.raw_set(
        "neighbor",
        lua.create_function(|lua, (label, direction): (String, u8)| {
            let map = hex_map(lua, "neighbor")?;
            let i = hex_of(&map, &label, "neighbor")?;
            let d = hexx::EdgeDirection::ALL_DIRECTIONS[(direction % 6) as usize];
            Ok(map.neighbor(i, d).map(|n| map.label(n)))
        })?,
    )?;
    t.raw_set(
        "distance",
        lua.create_function(|lua, (a, b): (String, String)| {
            let map = hex_map(lua, "distance")?;
            Ok(map.distance(hex_of(&map, &a, "distance")?, hex_of(&map, &b, "distance")?))
        })?,
    )?;
    t.raw_set(
        "zone",
        lua.create_function(|lua, name: String| {
            let map = hex_map(lua, "zone")?;
            let hexes = map.zone_hexes(&name).ok_or_else(|| {
                let near =
                    crate::spelling::nearest(&name, map.zone_names().iter().map(String::as_str), 3)
                        .map(|n| format!(" (did you mean '{n}'?)"))
                        .unwrap_or_default();
                mlua::Error::runtime(format!("unknown zone '{name}'{near}"))
            })?;
            // (found by a walk over the map)
            charge_listed(lua, map.len() as usize)?;
            label_list(lua, &map, hexes)
        })?,
    )?;
    t.raw_set(
        "in_zone",
        lua.create_function(|lua, (label, zone): (String, String)| {
            let map = hex_map(lua, "in_zone")?;
            let at = hex_of(&map, &label, "in_zone")?;
            if map.zone_id(&zone).is_none() {
                misspelt("in_zone", "zone", &zone, map.zone_names())?;
            }
            Ok(map.in_zone(at, &zone))
        })?,
    )?;
    t.raw_set(
        "zones",
        lua.create_function(|lua, label: String| {
            let map = hex_map(lua, "zones")?;
            string_list(lua, map.zones_of(hex_of(&map, &label, "zones")?))
        })?,
    )?;
    super::area::register(lua, &t)?;
    hex.raw_set("map", t)
}

/// The error for a name a `hex.map` function asks about that misspells one of the map's
/// (`in_zone(h, "attacker_entri")` read false where the designer meant `attacker_entry`); Ok
/// for a name near none, which the map simply has no hex of.
fn misspelt(function: &str, kind: &str, name: &str, known: &[String]) -> mlua::Result<()> {
    match crate::spelling::misspelt(name, known) {
        Some(near) => Err(mlua::Error::runtime(format!(
            "hex.map.{function}: this map has no {kind} '{name}' (did you mean '{near}'?)"
        ))),
        None => Ok(()),
    }
}
