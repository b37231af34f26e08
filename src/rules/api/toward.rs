//! `hex.path.toward(targets, units, opts?)`: for bots, the hexes each unit can reach that bring
//! it closer to a set of targets, computed in Rust in one call (one step field, one reach per
//! unit) instead of a Lua table of every reachable hex per unit.
//!
//!   targets: hex labels (the objectives)
//!   units:   { {id = ID, budget = MP}, ... } in the order the bot wants them examined
//!   opts:    { impassable = {terrain names the field does not cross}, limit = N,
//!              supplied = { [key] = {side =, class =, sources = {labels}} } }
//!   A unit entry with `supply = key` keeps only the hexes where a unit of that side and class
//!   would trace supply to those sources (as `hex.path.supplied_hexes`), each field traced once.
//!
//! Returns, for each unit (in the given order) that can get closer, `{id, from, closer}`:
//! `from` its step distance now (99 when no target can be reached), `closer` the labels it can
//! reach with a smaller distance, nearest first, then in label order. With `limit`, stops after
//! that many units with a non-empty answer (the bot asks again with the rest if it needs more).
//!
//! `hex.path.path_to(unit, budget, label)`: the path (hexes entered) that `hex.path.reach(unit,
//! budget, {paths = true})` gives for `label`, or nil when out of reach: a bot that picked its
//! destination builds its `move` without a table of every path.

use mlua::{Lua, Table};

use std::collections::BTreeMap;

use super::path::{budget_of, labels_to_hexes, unit_index, with_position};
use super::with_host;
use crate::path::{ReachSearch, StepField, SupplyField};

/// A supply filter a bot names by key: traced on first use.
struct SupplyAsk {
    side: String,
    class: String,
    sources: Vec<String>,
    field: Option<SupplyField>,
}

/// The distance a bot gives a hex that no target can be reached from.
const FAR: u32 = 99;

/// Adds `toward` and `path_to` to the `hex.path` table.
pub fn register(lua: &Lua, path: &Table) -> mlua::Result<()> {
    path.raw_set(
        "path_to",
        lua.create_function(|lua, (id, budget, label): (String, Option<f64>, String)| {
            with_position(lua, |map, rules, cache| {
                let unit = &cache.units[unit_index(cache, &id)?];
                let target = map.parse_label(&label).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "hex.path.path_to: '{label}' is not a hex of the map"
                    ))
                })?;
                let budget = budget_of(unit, budget)?;
                let mut search = with_host(lua, |h| h.reach_search.take())?
                    .unwrap_or_else(|| ReachSearch::new(map));
                let reach = search.reach(map, rules, &cache.occ, unit, budget);
                let path: Option<Vec<String>> = match &reach {
                    Ok(r) if r.cost(target).is_some() && target != r.start() => {
                        r.path_to(target).map(|hexes| {
                            hexes
                                .into_iter()
                                .filter(|&h| h != r.start())
                                .map(|h| map.label(h))
                                .collect()
                        })
                    }
                    _ => None,
                };
                let failed = reach.err().map(|e| e.to_string());
                with_host(lua, |h| h.reach_search = Some(search))?;
                if let Some(e) = failed {
                    return Err(mlua::Error::runtime(e));
                }
                match path {
                    Some(p) => Ok(mlua::Value::Table(super::string_list(
                        lua,
                        p.iter().map(String::as_str),
                    )?)),
                    None => Ok(mlua::Value::Nil),
                }
            })
        })?,
    )?;
    path.raw_set(
        "toward",
        lua.create_function(
            |lua, (targets, units, opts): (Vec<String>, Vec<Table>, Option<Table>)| {
                let mut impassable: Vec<String> = Vec::new();
                let mut limit = usize::MAX;
                let mut supply: BTreeMap<String, SupplyAsk> = BTreeMap::new();
                if let Some(o) = &opts {
                    if let Some(t) = o.raw_get::<Option<Table>>("supplied")? {
                        for pair in t.pairs::<String, Table>() {
                            let (key, ask) = pair?;
                            supply.insert(
                                key,
                                SupplyAsk {
                                    side: ask.raw_get("side")?,
                                    class: ask.raw_get("class")?,
                                    sources: ask.raw_get("sources")?,
                                    field: None,
                                },
                            );
                        }
                    }
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
                        let supply_key: Option<String> = entry.raw_get("supply")?;
                        let field_of = match supply_key {
                            None => None,
                            Some(key) => {
                                let ask = supply.get_mut(&key).ok_or_else(|| {
                                    mlua::Error::runtime(format!(
                                        "hex.path.toward: unit {id} names the supply '{key}', which opts.supplied does not give"
                                    ))
                                })?;
                                if ask.field.is_none() {
                                    let side = rules.profile.side_id(&ask.side).ok_or_else(|| {
                                        mlua::Error::runtime(format!("hex.path.toward: unknown side '{}'", ask.side))
                                    })?;
                                    let class = rules.profile.class_id(&ask.class).ok_or_else(|| {
                                        mlua::Error::runtime(format!("hex.path.toward: unknown class '{}'", ask.class))
                                    })?;
                                    let sources = labels_to_hexes(map, &ask.sources)?;
                                    ask.field = Some(
                                        SupplyField::trace(map, rules, &cache.occ, &cache.owners, side, class, &sources)
                                            .map_err(|e| mlua::Error::runtime(e.to_string()))?,
                                    );
                                }
                                ask.field.as_ref()
                            }
                        };
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
                            .filter(|r| field_of.is_none_or(|f| f.supplies(map, rules, r.hex)))
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
