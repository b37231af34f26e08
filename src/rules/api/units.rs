//! `hex.units`: read-only views of the units in play (fresh tables, in id order).

use mlua::{Lua, Table, Value};

use super::units_at::{Answer, UnitsAt};
use super::{with_host, with_state};
use crate::engine::{GoneUnit, Unit};
use crate::rules::convert::{unit_to_lua, write_unit_list};
use crate::rules::host_work::{charge_listed, charge_unit_views};
use crate::rules::lua_stack::writer::{write, Writer};

/// The views of `units`, found by a walk over the `walked` units in play.
fn list<'a>(
    lua: &Lua,
    walked: usize,
    units: impl Iterator<Item = &'a Unit> + Clone,
) -> mlua::Result<Table> {
    charge_listed(lua, walked)?;
    // (charged once built, by the list's length: counting first would walk the units twice)
    let views = write_unit_list(lua, units, |u| u, |_, _| {})?;
    charge_unit_views(lua, views.raw_len())?;
    Ok(views)
}

/// The views of gone units: a unit view and `gone_reason`, `eliminated`, `gone_turn`.
pub(crate) fn gone_list<'a>(
    lua: &Lua,
    gone: impl Iterator<Item = &'a GoneUnit> + Clone,
) -> mlua::Result<Table> {
    let views = write_unit_list(
        lua,
        gone,
        |g| &g.unit,
        |w: &mut Writer, g| {
            w.str(&g.reason);
            w.set("gone_reason");
            w.bool(g.eliminated);
            w.set("eliminated");
            w.int(i64::from(g.turn));
            w.set("gone_turn");
        },
    )?;
    charge_unit_views(lua, views.raw_len())?;
    Ok(views)
}

/// Registers `hex.units`.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.raw_set(
        "get",
        lua.create_function(|lua, id: String| {
            with_state(lua, |s| match s.units.get(&id) {
                Some(u) => Ok(Value::Table(unit_to_lua(lua, u)?)),
                None => Ok(Value::Nil),
            })
        })?,
    )?;
    t.raw_set(
        "all",
        lua.create_function(|lua, ()| {
            with_state(lua, |s| list(lua, s.units.len(), s.units.values()))
        })?,
    )?;
    t.raw_set(
        "at",
        lua.create_function(|lua, at: String| {
            // (a walk over every unit, or the position's index from its third call on:
            // units_at.rs)
            let here = |lua: &Lua, at: &str| {
                let (generation, kept) = with_host(lua, |h| (h.generation, h.units_at.take()))?;
                let (found, index) = with_state(lua, |s| {
                    let mut index = UnitsAt::for_position(kept, s, generation);
                    if index.count_call(s) {
                        charge_listed(lua, s.units.len())?;
                    }
                    let found = match index.answer(at) {
                        Answer::Walk => {
                            let at = Some(at);
                            let here = s.units.values().filter(move |u| u.at.as_deref() == at);
                            list(lua, s.units.len(), here)?
                        }
                        Answer::Ids(ids) => {
                            list(lua, ids.len(), ids.iter().filter_map(|id| s.units.get(id)))?
                        }
                    };
                    Ok((found, index))
                })?;
                with_host(lua, |h| h.units_at = Some(index))?;
                Ok(found)
            };
            let found = here(lua, &at)?;
            if found.raw_len() > 0 {
                return Ok(found);
            }
            // (only an empty answer is looked at, as hex.state.control does: a place the map
            // lacks is a typo, which read as an empty place; an area region's alias reads as
            // the region)
            // (borrowed from `at`: nothing is allocated but for an alias)
            match with_host(lua, |h| h.map.canonical_place(&at))? {
                None => Err(mlua::Error::runtime(format!(
                    "hex.units.at: '{at}' is not a place of the map"
                ))),
                Some(id) if id != at.as_str() => here(lua, &id),
                Some(_) => Ok(found),
            }
        })?,
    )?;
    t.raw_set(
        "of_side",
        lua.create_function(|lua, side: String| {
            super::known_side(lua, &side, "hex.units.of_side")?;
            with_state(lua, |s| {
                let side = side.as_str();
                let of_side = s.units.values().filter(move |u| u.side == side);
                list(lua, s.units.len(), of_side)
            })
        })?,
    )?;
    // list(field, side?): one field of every unit (of `side` when given), in id order (`id`,
    // `side`, `nation`, `type`, `size`, `at`; `false` for a unit off the map; `strength`, a
    // number): the cheap way to scan all units when a full view of each is not needed.
    t.raw_set(
        "list",
        lua.create_function(|lua, (field, side): (String, Option<String>)| {
            if let Some(side) = &side {
                super::known_side(lua, side, "hex.units.list")?;
            }
            with_state(lua, |s| {
                charge_listed(lua, s.units.len())?;
                let side = side.as_deref();
                let units = s
                    .units
                    .values()
                    .filter(move |u| side.is_none_or(|side| side == u.side));
                if field == "strength" {
                    let strengths: Vec<f64> = units.map(|u| u.strength).collect();
                    let strengths = strengths.as_slice();
                    // (only borrows: see writer.rs)
                    return write::<Table, _>(lua, (), |w| {
                        w.table(strengths.len(), 0);
                        for (i, &strength) in strengths.iter().enumerate() {
                            w.number(strength);
                            w.set_item(i + 1);
                        }
                    });
                }
                let pick: fn(&Unit) -> Option<&str> = match field.as_str() {
                    "id" => |u| Some(u.id.as_str()),
                    "side" => |u| Some(u.side.as_str()),
                    "nation" => |u| Some(u.nation.as_str()),
                    "type" => |u| Some(u.kind.as_str()),
                    "size" => |u| Some(u.size.as_str()),
                    "at" => |u| u.at.as_deref(),
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "hex.units.list: no field '{other}' (id, side, nation, type, size, at, strength)"
                        )))
                    }
                };
                // (one table built in one go: far cheaper than a raw_set per unit)
                let picked: Vec<Option<&str>> = units.map(pick).collect();
                crate::rules::lua_stack::writer::string_sequence(lua, picked.iter().copied())
            })
        })?,
    )?;
    // with_status(flag): the ids of the units with that status flag, as a set {id = true}.
    t.raw_set(
        "with_status",
        lua.create_function(|lua, flag: String| {
            with_state(lua, |s| {
                charge_listed(lua, s.units.len())?;
                let out = lua.create_table()?;
                for u in s.units.values().filter(|u| u.has_status(&flag)) {
                    out.raw_set(u.id.as_str(), true)?;
                }
                Ok(out)
            })
        })?,
    )?;
    t.raw_set(
        "gone",
        lua.create_function(|lua, ()| with_state(lua, |s| gone_list(lua, s.gone.values())))?,
    )?;
    hex.raw_set("units", t)
}
