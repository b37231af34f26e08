//! `hex.map` on area boards (a graph of regions): `regions`, `region`, `is_location`,
//! `adjacent`, `neighbors`, `supply_centers`, `homes`, `powers`, and `board_table`, the whole
//! board as one plain table in the shape area-game libraries expect (rules/diplomacy/map.lua).
//!
//! `board_table` is built once per VM and cached in the registry: a library compiles it once
//! (and may memoise on it), so adjudicating a phase never rebuilds the board (the host
//! overhead budget). It is map data, never game state, so caching it in the VM keeps principle 3.

use std::sync::Arc;

use mlua::{Function, Lua, LuaSerdeExt, Table, Value};

use super::{string_list, with_host};
use crate::board::{AreaMap, MoveClass, Region};
use crate::rules::host_work::charge_listed;

const BOARD_TABLE_KEY: &str = "hexwar.board_table";

/// The area map, or an error naming the call when the board is a hex map.
fn area_map(lua: &Lua, call: &str) -> mlua::Result<Arc<AreaMap>> {
    with_host(lua, |h| h.map.as_area().cloned())?.ok_or_else(|| {
        mlua::Error::runtime(format!(
            "hex.map.{call}: this board is a hex map; area calls need a map file with kind = \"area\""
        ))
    })
}

/// The region `location` names (an alias or a coast reads as its region), or an error naming
/// the call and the nearest region id.
pub(super) fn region_at<'a>(
    map: &'a Arc<AreaMap>,
    location: &str,
    call: &str,
) -> mlua::Result<&'a Region> {
    map.canonical_location(location)
        .and_then(|loc| map.region_of(&loc))
        .ok_or_else(|| unknown_location(map, location, call))
}

/// `hex.map.CALL: 'ASHFROD' is not a location of the map (did you mean 'ASHFORD'?)`
fn unknown_location(map: &Arc<AreaMap>, location: &str, call: &str) -> mlua::Error {
    let hint = crate::board::Board::Area(map.clone()).unknown_place_hint(location);
    mlua::Error::runtime(format!(
        "hex.map.{call}: '{location}' is not a location of the map{hint}"
    ))
}

/// Every region id, sorted (`hex.map.regions`, `hex.map.places` on an area map).
pub(super) fn region_ids(lua: &Lua, map: &AreaMap) -> mlua::Result<Table> {
    let mut ids: Vec<&str> = map.regions().iter().map(|r| r.id.as_str()).collect();
    ids.sort_unstable();
    charge_listed(lua, ids.len())?;
    string_list(lua, ids)
}

fn class_of(text: Option<String>) -> mlua::Result<MoveClass> {
    let text = text.unwrap_or_else(|| "army".into());
    MoveClass::parse(&text).ok_or_else(|| {
        mlua::Error::runtime(format!(
            "movement class '{text}': expected \"army\" or \"fleet\""
        ))
    })
}

fn region_table(lua: &Lua, r: &Region) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("id", r.id.as_str())?;
    t.raw_set("name", r.name.as_str())?;
    t.raw_set("type", r.kind.as_str())?;
    t.raw_set("supply_center", r.supply_center)?;
    t.raw_set("home", r.home.as_deref())?;
    t.raw_set(
        "coasts",
        string_list(lua, r.coasts.keys().map(String::as_str))?,
    )?;
    t.raw_set("attrs", lua.to_value(&r.attrs)?)?;
    Ok(t)
}

fn powers_table(lua: &Lua, map: &AreaMap) -> mlua::Result<Table> {
    let list = lua.create_table()?;
    for (i, p) in map.powers().iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("name", p.name.as_str())?;
        t.raw_set("adjective", p.adjective.as_str())?;
        t.raw_set(
            "home_centers",
            string_list(lua, p.home_centers.iter().map(String::as_str))?,
        )?;
        t.raw_set(
            "start_units",
            string_list(lua, p.start_units.iter().map(String::as_str))?,
        )?;
        t.raw_set(
            "start_centers",
            string_list(lua, p.start_centers.iter().map(String::as_str))?,
        )?;
        list.raw_set(i + 1, t)?;
    }
    Ok(list)
}

/// The board in the shape documented at the top of rules/diplomacy/map.lua.
fn build_board_table(lua: &Lua, map: &AreaMap) -> mlua::Result<Table> {
    let board = lua.create_table()?;
    board.raw_set("name", map.name.as_str())?;
    if let Some(p) = &map.start_phase {
        board.raw_set("start_phase", p.as_str())?;
    }
    if let Some(v) = map.victory_centers {
        board.raw_set("victory_centers", v)?;
    }
    let provinces = lua.create_table()?;
    for r in map.regions() {
        let t = lua.create_table()?;
        t.raw_set("name", r.name.as_str())?;
        t.raw_set("type", r.kind.as_str())?;
        t.raw_set("supply_center", r.supply_center)?;
        if let Some(h) = &r.home {
            t.raw_set("home", h.as_str())?;
        }
        t.raw_set("army", string_list(lua, r.army.iter().map(String::as_str))?)?;
        t.raw_set(
            "fleet",
            string_list(lua, r.fleet.iter().map(String::as_str))?,
        )?;
        t.raw_set(
            "coasts",
            string_list(lua, r.coasts.keys().map(String::as_str))?,
        )?;
        if !r.aliases.is_empty() {
            t.raw_set(
                "aliases",
                string_list(lua, r.aliases.iter().map(String::as_str))?,
            )?;
        }
        if !r.attrs.is_empty() {
            t.raw_set("attrs", lua.to_value(&r.attrs)?)?;
        }
        if !r.coasts.is_empty() {
            let by = lua.create_table()?;
            for (c, l) in &r.coasts {
                by.raw_set(c.as_str(), string_list(lua, l.iter().map(String::as_str))?)?;
            }
            t.raw_set("fleet_by_coast", by)?;
        }
        provinces.raw_set(r.id.as_str(), t)?;
    }
    board.raw_set("provinces", provinces)?;
    board.raw_set("powers", powers_table(lua, map)?)?;
    Ok(board)
}

/// Adds the area functions to the `hex.map` table `t` (after the hex ones: `neighbors` serves
/// both kinds).
pub fn register(lua: &Lua, t: &Table) -> mlua::Result<()> {
    t.raw_set(
        "regions",
        lua.create_function(|lua, ()| region_ids(lua, &*area_map(lua, "regions")?))?,
    )?;
    t.raw_set(
        "region",
        lua.create_function(|lua, id: String| {
            let map = area_map(lua, "region")?;
            match map.region_of(&id) {
                Some(r) => Ok(Value::Table(region_table(lua, r)?)),
                None => Ok(Value::Nil),
            }
        })?,
    )?;
    t.raw_set(
        "is_location",
        // (both kinds: a hex's label on a hex map)
        lua.create_function(|lua, loc: String| {
            with_host(lua, |h| match &h.map {
                crate::board::Board::Area(m) => m.is_location(&loc),
                crate::board::Board::Hex(m) => m.parse_label(&loc).is_some(),
            })
        })?,
    )?;
    t.raw_set(
        "adjacent",
        lua.create_function(|lua, (a, b, class): (String, String, Option<String>)| {
            let map = area_map(lua, "adjacent")?;
            // (an unknown location is an error, as in `neighbors`; an alias reads as its region)
            let unknown = |loc: &str| unknown_location(&map, loc, "adjacent");
            let a = map.canonical_location(&a).ok_or_else(|| unknown(&a))?;
            let b = map.canonical_location(&b).ok_or_else(|| unknown(&b))?;
            Ok(map.adjacent(&a, &b, class_of(class)?))
        })?,
    )?;
    let hex_distance: Function = t.raw_get("distance")?;
    t.raw_set(
        "distance",
        lua.create_function(
            move |lua, (a, b, class): (String, String, Option<String>)| {
                let Some(map) = with_host(lua, |h| h.map.as_area().cloned())? else {
                    return hex_distance.call::<Value>((a, b));
                };
                let class = class_of(class)?;
                let unknown = |loc: &str| unknown_location(&map, loc, "distance");
                let a = map.canonical_location(&a).ok_or_else(|| unknown(&a))?;
                let b = map.canonical_location(&b).ok_or_else(|| unknown(&b))?;
                // (an army stands in a region, whatever coast was written)
                let region = |loc: &str| loc.split('/').next().unwrap_or(loc).to_string();
                let (a, b) = match class {
                    MoveClass::Army => (region(&a), region(&b)),
                    MoveClass::Fleet => (a.into_owned(), b.into_owned()),
                };
                // (a walk over the regions)
                charge_listed(lua, map.regions().len())?;
                Ok(match map.distance(&a, &b, class) {
                    Some(steps) => Value::Integer(steps as i64),
                    None => Value::Nil,
                })
            },
        )?,
    )?;
    let hex_neighbors: Function = t.raw_get("neighbors")?;
    t.raw_set(
        "neighbors",
        lua.create_function(move |lua, (place, class): (String, Option<String>)| {
            let Some(map) = with_host(lua, |h| h.map.as_area().cloned())? else {
                return hex_neighbors.call::<Table>(place);
            };
            let Some(place) = map.canonical_location(&place) else {
                return Err(unknown_location(&map, &place, "neighbors"));
            };
            string_list(
                lua,
                map.neighbors(&place, class_of(class)?)
                    .iter()
                    .map(String::as_str),
            )
        })?,
    )?;
    t.raw_set(
        "supply_centers",
        lua.create_function(|lua, ()| {
            let map = area_map(lua, "supply_centers")?;
            charge_listed(lua, map.regions().len())?;
            string_list(lua, map.supply_centers())
        })?,
    )?;
    t.raw_set(
        "homes",
        lua.create_function(|lua, power: String| {
            let map = area_map(lua, "homes")?;
            let homes = map.homes(&power);
            // (a power the map names nowhere is misspelt: `homes("green")` was an empty list)
            if homes.is_empty() && !map.powers().iter().any(|p| p.name == power) {
                let mut names: Vec<String> = (map.powers().iter().map(|p| p.name.clone()))
                    .chain(map.regions().iter().filter_map(|r| r.home.clone()))
                    .collect();
                names.sort_unstable();
                names.dedup();
                let near = crate::spelling::nearest_any_case(&power, &names)
                    .map(|n| format!(" (did you mean '{n}'?)"))
                    .unwrap_or_default();
                return Err(mlua::Error::runtime(format!(
                    "hex.map.homes: this map has no power '{power}'{near} (its powers: {})",
                    names.join(", ")
                )));
            }
            string_list(lua, homes)
        })?,
    )?;
    t.raw_set(
        "powers",
        lua.create_function(|lua, ()| {
            let map = area_map(lua, "powers")?;
            powers_table(lua, &map)
        })?,
    )?;
    t.raw_set(
        "board_table",
        lua.create_function(|lua, ()| {
            if let Value::Table(t) = lua.named_registry_value::<Value>(BOARD_TABLE_KEY)? {
                return Ok(t);
            }
            let map = area_map(lua, "board_table")?;
            let t = build_board_table(lua, &map)?;
            lua.set_named_registry_value(BOARD_TABLE_KEY, &t)?;
            Ok(t)
        })?,
    )?;
    Ok(())
}
