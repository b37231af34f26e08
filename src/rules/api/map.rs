//! `hex.map`: the board, read-only. Hexes are named by their printed labels (`"0312"`).

use mlua::{Lua, Table};

use super::{string_list, with_host};
use crate::board::{HexIndex, HexMap};

fn hex_of(map: &HexMap, label: &str) -> mlua::Result<HexIndex> {
    map.parse_label(label)
        .ok_or_else(|| mlua::Error::runtime(format!("'{label}' is not a hex of the map")))
}

/// Registers `hex.map`.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.raw_set(
        "name",
        lua.create_function(|lua, ()| with_host(lua, |h| h.map.name.clone()))?,
    )?;
    t.raw_set(
        "columns",
        lua.create_function(|lua, ()| with_host(lua, |h| h.map.columns()))?,
    )?;
    t.raw_set(
        "rows",
        lua.create_function(|lua, ()| with_host(lua, |h| h.map.rows()))?,
    )?;
    t.raw_set(
        "is_hex",
        lua.create_function(|lua, label: String| {
            with_host(lua, |h| h.map.parse_label(&label).is_some())
        })?,
    )?;
    t.raw_set(
        "hexes",
        lua.create_function(|lua, ()| {
            let map = with_host(lua, |h| h.map.clone())?;
            let labels: Vec<String> = (0..map.len()).map(|i| map.label(i)).collect();
            string_list(lua, labels.iter().map(String::as_str))
        })?,
    )?;
    t.raw_set(
        "terrain",
        lua.create_function(|lua, label: String| {
            let map = with_host(lua, |h| h.map.clone())?;
            Ok(map.terrain_name(hex_of(&map, &label)?).to_string())
        })?,
    )?;
    t.raw_set(
        "features",
        lua.create_function(|lua, label: String| {
            let map = with_host(lua, |h| h.map.clone())?;
            let i = hex_of(&map, &label)?;
            string_list(lua, map.features_of(i))
        })?,
    )?;
    t.raw_set(
        "has_feature",
        lua.create_function(|lua, (label, feature): (String, String)| {
            let map = with_host(lua, |h| h.map.clone())?;
            Ok(map.has_feature(hex_of(&map, &label)?, &feature))
        })?,
    )?;
    t.raw_set(
        "hexside",
        lua.create_function(|lua, (a, b): (String, String)| {
            let map = with_host(lua, |h| h.map.clone())?;
            let (a, b) = (hex_of(&map, &a)?, hex_of(&map, &b)?);
            string_list(lua, map.hexside_features(a, b))
        })?,
    )?;
    t.raw_set(
        "neighbors",
        lua.create_function(|lua, label: String| {
            let map = with_host(lua, |h| h.map.clone())?;
            let i = hex_of(&map, &label)?;
            let labels: Vec<String> = map.neighbors(i).map(|(_, n)| map.label(n)).collect();
            string_list(lua, labels.iter().map(String::as_str))
        })?,
    )?;
    t.raw_set(
        "direction",
        lua.create_function(|lua, (a, b): (String, String)| {
            let map = with_host(lua, |h| h.map.clone())?;
            let (a, b) = (hex_of(&map, &a)?, hex_of(&map, &b)?);
            Ok(map.hex(a).neighbor_direction(map.hex(b)).map(|d| d.index()))
        })?,
    )?;
    t.raw_set(
        "neighbor",
        lua.create_function(|lua, (label, direction): (String, u8)| {
            let map = with_host(lua, |h| h.map.clone())?;
            let i = hex_of(&map, &label)?;
            let d = hexx::EdgeDirection::ALL_DIRECTIONS[(direction % 6) as usize];
            Ok(map.neighbor(i, d).map(|n| map.label(n)))
        })?,
    )?;
    t.raw_set(
        "distance",
        lua.create_function(|lua, (a, b): (String, String)| {
            let map = with_host(lua, |h| h.map.clone())?;
            Ok(map.distance(hex_of(&map, &a)?, hex_of(&map, &b)?))
        })?,
    )?;
    t.raw_set(
        "zone",
        lua.create_function(|lua, name: String| {
            let map = with_host(lua, |h| h.map.clone())?;
            let hexes = map
                .zone_hexes(&name)
                .ok_or_else(|| mlua::Error::runtime(format!("unknown zone '{name}'")))?;
            let labels: Vec<String> = hexes.into_iter().map(|i| map.label(i)).collect();
            string_list(lua, labels.iter().map(String::as_str))
        })?,
    )?;
    t.raw_set(
        "in_zone",
        lua.create_function(|lua, (label, zone): (String, String)| {
            let map = with_host(lua, |h| h.map.clone())?;
            Ok(map.in_zone(hex_of(&map, &label)?, &zone))
        })?,
    )?;
    t.raw_set(
        "zones",
        lua.create_function(|lua, label: String| {
            let map = with_host(lua, |h| h.map.clone())?;
            string_list(lua, map.zones_of(hex_of(&map, &label)?))
        })?,
    )?;
    hex.raw_set("map", t)
}
