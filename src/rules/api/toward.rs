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

use std::collections::BTreeMap;
use std::sync::Arc;

use mlua::{Lua, Table};

use super::map::labels;
use super::path::{budget_of, label, labels_to_hexes, unit_index, with_position, PathCache};
use super::with_host;
use crate::board::{HexIndex, HexMap};
use crate::path::{PathRules, ReachSearch, StepField};
use crate::rules::lua_stack::writer::{key_string, write};

/// The distance a bot gives a hex that no target can be reached from.
const FAR: u32 = 99;

/// Step fields kept per VM.
const STEP_FIELDS_KEPT: usize = 8;

/// The step fields of recent `toward` calls, by (targets, terrains blocked): they depend on the
/// map only, and a bot asks for the same objectives over and over.
#[derive(Default)]
pub(crate) struct StepFields {
    kept: Vec<(Vec<HexIndex>, Vec<bool>, Arc<StepField>)>,
}

impl StepFields {
    fn get(&mut self, map: &HexMap, targets: &[HexIndex], blocked: &[bool]) -> Arc<StepField> {
        if let Some((_, _, field)) = self
            .kept
            .iter()
            .find(|(t, b, _)| t.as_slice() == targets && b.as_slice() == blocked)
        {
            return field.clone();
        }
        let field = Arc::new(StepField::from_targets(map, targets, |h| {
            !blocked
                .get(map.terrain_id(h) as usize)
                .copied()
                .unwrap_or(false)
        }));
        if self.kept.len() >= STEP_FIELDS_KEPT {
            self.kept.remove(0);
        }
        self.kept
            .push((targets.to_vec(), blocked.to_vec(), field.clone()));
        field
    }
}

/// One unit's answer: its id, its distance now, and the hexes closer, nearest first.
struct Closer {
    id: String,
    /// Its place in the `units` argument (1-based).
    index: usize,
    from: u32,
    hexes: Vec<HexIndex>,
}

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
                let path: Option<Vec<HexIndex>> = match &reach {
                    Ok(r) if r.cost(target).is_some() && target != r.start() => r
                        .path_to(target)
                        .map(|hexes| hexes.into_iter().filter(|&h| h != r.start()).collect()),
                    _ => None,
                };
                let failed = reach.err().map(|e| e.to_string());
                with_host(lua, |h| h.reach_search = Some(search))?;
                if let Some(e) = failed {
                    return Err(mlua::Error::runtime(e));
                }
                match path {
                    Some(p) => Ok(mlua::Value::Table(super::map::label_list(lua, map, p)?)),
                    None => Ok(mlua::Value::Nil),
                }
            })
        })?,
    )?;
    path.raw_set(
        "toward",
        lua.create_function(
            |lua, (targets, units, opts): (Vec<String>, Table, Option<Table>)| {
                let mut impassable: Vec<String> = Vec::new();
                let mut limit = usize::MAX;
                let mut first = 1;
                let mut supplied: Option<Table> = None;
                let mut capacities: Vec<Capacity> = Vec::new();
                if let Some(o) = &opts {
                    supplied = o.raw_get("supplied")?;
                    if let Some(list) = o.raw_get::<Option<Vec<Table>>>("capacity")? {
                        for c in list {
                            capacities.push(Capacity {
                                limit: c.raw_get("limit")?,
                                used: c.raw_get("used")?,
                            });
                        }
                    }
                    impassable = o
                        .raw_get::<Option<Vec<String>>>("impassable")?
                        .unwrap_or_default();
                    if let Some(n) = o.raw_get::<Option<usize>>("limit")? {
                        limit = n;
                    }
                    if let Some(n) = o.raw_get::<Option<usize>>("first")? {
                        first = n.max(1);
                    }
                }
                // The supply filters the units examined name, read from `opts.supplied` when
                // first named (a call that stops early reads only those).
                let mut supply: BTreeMap<String, usize> = BTreeMap::new();
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
                    let field =
                        with_host(lua, |h| h.step_fields.get(map, &target_hexes, &blocked))?;
                    let steps = |h| field.distance(h).unwrap_or(FAR).min(FAR);
                    let labels = labels(lua, map)?;
                    let (id_key, budget_key, supply_key_name, load_key) = (
                        key_string(lua, "id")?,
                        key_string(lua, "budget")?,
                        key_string(lua, "supply")?,
                        key_string(lua, "load")?,
                    );
                    let mut search = with_host(lua, |h| h.reach_search.take())?
                        .unwrap_or_else(|| ReachSearch::new(map));
                    let mut answers: Vec<Closer> = Vec::new();
                    let mut failure = None;
                    let count = units.raw_len();
                    for i in first..=count {
                        if answers.len() >= limit {
                            break;
                        }
                        let entry: Table = units.raw_get(i)?;
                        let id: String = entry.raw_get(&id_key)?;
                        let budget: Option<f64> = entry.raw_get(&budget_key)?;
                        let supply_key: Option<String> = entry.raw_get(&supply_key_name)?;
                        let load: Vec<f64> = if capacities.is_empty() {
                            Vec::new()
                        } else {
                            entry.raw_get::<Option<Vec<f64>>>(&load_key)?.unwrap_or_default()
                        };
                        let field_of = match supply_key {
                            None => None,
                            Some(key) => Some(match supply.get(&key) {
                                Some(&f) => f,
                                None => {
                                    let f = supply_field_named(
                                        map,
                                        rules,
                                        cache,
                                        supplied.as_ref(),
                                        &id,
                                        &key,
                                    )?;
                                    supply.insert(key, f);
                                    f
                                }
                            }),
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
                        let supplied = field_of.and_then(|i| cache.supply_field_at(i));
                        let from = steps(start);
                        let mut closer: Vec<(u32, &str, HexIndex)> = Vec::new();
                        for r in reach.hexes() {
                            let here = label(&labels, r.hex);
                            if steps(r.hex) < from
                                && (field_of.is_none()
                                    || supplied.is_some_and(|f| f.supplies(map, rules, r.hex)))
                                && fits(&capacities, &load, here)?
                            {
                                closer.push((steps(r.hex), here, r.hex));
                            }
                        }
                        if closer.is_empty() {
                            continue;
                        }
                        closer.sort();
                        answers.push(Closer {
                            id,
                            index: i,
                            from,
                            hexes: closer.into_iter().map(|(_, _, h)| h).collect(),
                        });
                    }
                    with_host(lua, |h| h.reach_search = Some(search))?;
                    if let Some(e) = failure {
                        return Err(mlua::Error::runtime(e));
                    }
                    let answers = answers.as_slice();
                    // (only borrows: see writer.rs)
                    write::<Table, _>(lua, (), |w| {
                        w.table(0, 0);
                        for (i, a) in answers.iter().enumerate() {
                            w.table(0, 4);
                            w.str(&a.id);
                            w.set("id");
                            w.int(a.index as i64);
                            w.set("index");
                            w.int(i64::from(a.from));
                            w.set("from");
                            w.table(a.hexes.len(), 0);
                            for (j, &h) in a.hexes.iter().enumerate() {
                                w.label(h);
                                w.set_item(j + 1);
                            }
                            w.set("closer");
                            w.set_item(i + 1);
                        }
                    })
                })
            },
        )?,
    )
}

/// A limit on what a hex may hold (`opts.capacity`): a unit is offered a hex only where what
/// the hex holds already (`used`, by label; absent is 0) plus the unit's load stays within it.
struct Capacity {
    limit: f64,
    used: Table,
}

/// Whether a unit with `load` (one number per capacity, absent ones 0) fits in `label`.
fn fits(capacities: &[Capacity], load: &[f64], label: &str) -> mlua::Result<bool> {
    for (i, c) in capacities.iter().enumerate() {
        let used = c.used.raw_get::<Option<f64>>(label)?.unwrap_or(0.0);
        if used + load.get(i).copied().unwrap_or(0.0) > c.limit {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The index in the position cache of the supply field `opts.supplied[key]` names (traced on
/// first use), for the unit `id` that names it.
fn supply_field_named(
    map: &HexMap,
    rules: &PathRules,
    cache: &mut PathCache,
    supplied: Option<&Table>,
    id: &str,
    key: &str,
) -> mlua::Result<usize> {
    let missing = || {
        mlua::Error::runtime(format!(
            "hex.path.toward: unit {id} names the supply '{key}', which opts.supplied does not give"
        ))
    };
    let ask: Table = supplied
        .ok_or_else(missing)?
        .raw_get::<Option<Table>>(key)?
        .ok_or_else(missing)?;
    let (side, class, sources): (String, String, Vec<String>) =
        (ask.raw_get("side")?, ask.raw_get("class")?, ask.raw_get("sources")?);
    let side = rules
        .profile
        .side_id(&side)
        .ok_or_else(|| mlua::Error::runtime(format!("hex.path.toward: unknown side '{side}'")))?;
    let class = rules
        .profile
        .class_id(&class)
        .ok_or_else(|| mlua::Error::runtime(format!("hex.path.toward: unknown class '{class}'")))?;
    let sources = labels_to_hexes(map, &sources)?;
    cache
        .supply_field(map, rules, side, class, &sources)
        .map_err(|e| mlua::Error::runtime(e.to_string()))
}
