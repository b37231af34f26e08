//! `hex.path.toward(targets, units, opts?)`: for bots, the hexes each unit can reach that bring
//! it closer to a set of targets, computed in Rust in one call (one step field, one reach per
//! unit) instead of a Lua table of every reachable hex per unit.
//!
//!   targets: hex labels (the objectives)
//!   units:   { {id = ID, budget = MP}, ... } in the order the bot wants them examined
//!   opts:    { impassable = {terrain names the field does not cross}, limit = N }
//!
//! Returns, for each unit (in the given order) that can get closer, `{id, from, closer}`:
//! `from` its step distance now (99 when no target can be reached), `closer` the labels it can
//! reach with a smaller distance, nearest first, then in label order. With `limit`, stops after
//! that many units with a non-empty answer (the bot asks again with the rest if it needs more).

use mlua::{Lua, Table};

use super::path::{budget_of, unit_index, with_position};
use super::with_host;
use crate::path::{ReachSearch, StepField};

/// The distance a bot gives a hex that no target can be reached from.
const FAR: u32 = 99;

/// Adds `toward` to the `hex.path` table.
pub fn register(lua: &Lua, path: &Table) -> mlua::Result<()> {
    path.raw_set(
        "toward",
        lua.create_function(
            |lua, (targets, units, opts): (Vec<String>, Vec<Table>, Option<Table>)| {
                let mut impassable: Vec<String> = Vec::new();
                let mut limit = usize::MAX;
                if let Some(o) = &opts {
                    impassable = o
                        .raw_get::<Option<Vec<String>>>("impassable")?
                        .unwrap_or_default();
                    if let Some(n) = o.raw_get::<Option<usize>>("limit")? {
                        limit = n;
                    }
                }
                with_position(lua, |map, rules, cache| {
                    let mut target_hexes = Vec::with_capacity(targets.len());
                    for l in &targets {
                        target_hexes.push(map.parse_label(l).ok_or_else(|| {
                            mlua::Error::runtime(format!(
                                "hex.path.toward: '{l}' is not a hex of the map"
                            ))
                        })?);
                    }
                    let blocked: Vec<bool> = map
                        .terrain_names()
                        .iter()
                        .map(|t| impassable.contains(t))
                        .collect();
                    let field = StepField::from_targets(map, &target_hexes, |h| {
                        !blocked
                            .get(map.terrain_id(h) as usize)
                            .copied()
                            .unwrap_or(false)
                    });
                    let steps = |h| field.distance(h).unwrap_or(FAR).min(FAR);
                    let mut search = with_host(lua, |h| h.reach_search.take())?
                        .unwrap_or_else(|| ReachSearch::new(map));
                    let out = lua.create_table()?;
                    let mut answered = 0;
                    let mut failure = None;
                    for entry in &units {
                        if answered >= limit {
                            break;
                        }
                        let id: String = entry.raw_get("id")?;
                        let budget: Option<f64> = entry.raw_get("budget")?;
                        let unit = &cache.units[unit_index(cache, &id)?];
                        let Some(start) = unit.at.as_deref().and_then(|a| map.parse_label(a))
                        else {
                            continue;
                        };
                        let reach = match search.reach(
                            map,
                            rules,
                            &cache.occ,
                            unit,
                            budget_of(unit, budget)?,
                        ) {
                            Ok(r) => r,
                            Err(e) => {
                                failure = Some(e.to_string());
                                break;
                            }
                        };
                        let from = steps(start);
                        let mut closer: Vec<(u32, String)> = reach
                            .hexes()
                            .iter()
                            .filter(|r| steps(r.hex) < from)
                            .map(|r| (steps(r.hex), map.label(r.hex)))
                            .collect();
                        if closer.is_empty() {
                            continue;
                        }
                        closer.sort();
                        let t = lua.create_table_with_capacity(0, 3)?;
                        t.raw_set("id", id.as_str())?;
                        t.raw_set("from", from)?;
                        let list = lua.create_table_with_capacity(closer.len(), 0)?;
                        for (i, (_, label)) in closer.iter().enumerate() {
                            list.raw_set(i + 1, label.as_str())?;
                        }
                        t.raw_set("closer", list)?;
                        out.raw_push(t)?;
                        answered += 1;
                    }
                    with_host(lua, |h| h.reach_search = Some(search))?;
                    match failure {
                        Some(e) => Err(mlua::Error::runtime(e)),
                        None => Ok(out),
                    }
                })
            },
        )?,
    )
}
