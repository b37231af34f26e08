//! `hex.map`: the board, read-only. Hexes are named by their printed labels (`"0312"`).
//! `name` and `kind` serve both board kinds; the hex functions below fail with a clear message
//! on an area board, whose functions live in `area.rs` (registered into the same table).

use std::sync::Arc;

use mlua::{Lua, Table};

use super::{string_list, with_host};
use crate::board::{HexIndex, HexMap};
use crate::rules::host_work::charge_listed;

/// The hex map, or an error naming the call when the board is an area map.
fn hex_map(lua: &Lua) -> mlua::Result<Arc<HexMap>> {
    with_host(lua, |h| h.map.as_hex().cloned())?.ok_or_else(|| {
        mlua::Error::runtime(
            "this board is an area map: hex-grid calls (hexes, terrain, distance ...) do not apply; \
             use hex.map.regions, hex.map.adjacent, hex.map.neighbors",
        )
    })
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
        w.table(0, 0);
        for (i, &h) in hexes.iter().enumerate() {
            w.label(h);
            w.set_item(i + 1);
        }
    })
}

fn hex_of(map: &HexMap, label: &str) -> mlua::Result<HexIndex> {
    map.parse_label(label)
        .ok_or_else(|| mlua::Error::runtime(format!("'{label}' is not a hex of the map")))
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
        lua.create_function(|lua, ()| Ok(hex_map(lua)?.columns()))?,
    )?;
    t.raw_set(
        "rows",
        lua.create_function(|lua, ()| Ok(hex_map(lua)?.rows()))?,
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
            let map = hex_map(lua)?;
            charge_listed(lua, map.len() as usize)?;
            label_list(lua, &map, 0..map.len())
        })?,
    )?;
    t.raw_set(
        "terrain",
        lua.create_function(|lua, label: String| {
            let map = hex_map(lua)?;
            terrain_string(lua, &map, hex_of(&map, &label)?)
        })?,
    )?;
    t.raw_set(
        "features",
        lua.create_function(|lua, label: String| {
            let map = hex_map(lua)?;
            let i = hex_of(&map, &label)?;
            string_list(lua, map.features_of(i))
        })?,
    )?;
    t.raw_set(
        "has_feature",
        lua.create_function(|lua, (label, feature): (String, String)| {
            let map = hex_map(lua)?;
            Ok(map.has_feature(hex_of(&map, &label)?, &feature))
        })?,
    )?;
    t.raw_set(
        "hexside",
        lua.create_function(|lua, (a, b): (String, String)| {
            let map = hex_map(lua)?;
            let (a, b) = (hex_of(&map, &a)?, hex_of(&map, &b)?);
            string_list(lua, map.hexside_features(a, b))
        })?,
    )?;
    t.raw_set(
        "neighbors",
        lua.create_function(|lua, label: String| {
            let map = hex_map(lua)?;
            let i = hex_of(&map, &label)?;
            label_list(lua, &map, map.neighbors(i).map(|(_, n)| n))
        })?,
    )?;
    t.raw_set(
        "direction",
        lua.create_function(|lua, (a, b): (String, String)| {
            let map = hex_map(lua)?;
            let (a, b) = (hex_of(&map, &a)?, hex_of(&map, &b)?);
            Ok(map.hex(a).neighbor_direction(map.hex(b)).map(|d| d.index()))
        })?,
    )?;
    t.raw_set(
        "neighbor",
        lua.create_function(|lua, (label, direction): (String, u8)| {
            let map = hex_map(lua)?;
            let i = hex_of(&map, &label)?;
            let d = hexx::EdgeDirection::ALL_DIRECTIONS[(direction % 6) as usize];
            Ok(map.neighbor(i, d).map(|n| map.label(n)))
        })?,
    )?;
    t.raw_set(
        "distance",
        lua.create_function(|lua, (a, b): (String, String)| {
            let map = hex_map(lua)?;
            Ok(map.distance(hex_of(&map, &a)?, hex_of(&map, &b)?))
        })?,
    )?;
    t.raw_set(
        "zone",
        lua.create_function(|lua, name: String| {
            let map = hex_map(lua)?;
            let hexes = map
                .zone_hexes(&name)
                .ok_or_else(|| mlua::Error::runtime(format!("unknown zone '{name}'")))?;
            // (found by a walk over the map)
            charge_listed(lua, map.len() as usize)?;
            label_list(lua, &map, hexes)
        })?,
    )?;
    t.raw_set(
        "in_zone",
        lua.create_function(|lua, (label, zone): (String, String)| {
            let map = hex_map(lua)?;
            Ok(map.in_zone(hex_of(&map, &label)?, &zone))
        })?,
    )?;
    t.raw_set(
        "zones",
        lua.create_function(|lua, label: String| {
            let map = hex_map(lua)?;
            string_list(lua, map.zones_of(hex_of(&map, &label)?))
        })?,
    )?;
    super::area::register(lua, &t)?;
    hex.raw_set("map", t)
}
