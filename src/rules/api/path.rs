//! `hex.path`: the compiled movement engine (`crate::path`) for rules written in Lua. The rules
//! declare `hex.rules.declare("movement", {...})` (docs/movement.md); the host compiles it once
//! after loading, and these functions run the searches in Rust over the current position.

use std::collections::BTreeMap;
use std::sync::Arc;

use mlua::{Lua, Table, Value};

use super::{string_list, with_host, with_state, REFUSAL_MT_KEY};
use crate::board::{HexIndex, HexMap};
use crate::engine::{GameState, Unit};
use crate::path::{
    check_path, rail_destinations, trace_supply, update_control, Mp, Occupancy, PathError,
    PathRules, ReachSearch, SideId, SourceSet, SupplyField, NO_SIDE,
};

/// The position as the searches see it: built from the state, and kept from one call into Lua to
/// the next, refreshed in place: a call that finds the units and the control map unchanged (a
/// bot choosing several commands, the handlers of one event) reuses it as it is; one that finds
/// a unit moved copies that unit and rebuilds the occupancy, not the whole cache.
pub(crate) struct PathCache {
    /// The call into Lua this cache was last checked in: within one call the state cannot change.
    generation: u64,
    /// The state's units, in id order.
    pub(crate) units: Vec<Unit>,
    /// The control map the owners were read from.
    control: BTreeMap<String, String>,
    index: BTreeMap<String, usize>,
    pub(crate) occ: Occupancy,
    pub(crate) owners: Vec<SideId>,
}

impl PathCache {
    fn build(
        state: &GameState,
        map: &HexMap,
        rules: &PathRules,
        generation: u64,
    ) -> mlua::Result<PathCache> {
        let units: Vec<Unit> = state.units.values().cloned().collect();
        let index = units
            .iter()
            .enumerate()
            .map(|(i, u)| (u.id.clone(), i))
            .collect();
        let owners = owners_of(state, map, rules);
        let occ = Occupancy::build(map, rules, &units)
            .map_err(runtime)?
            .with_owners(owners.clone())
            .map_err(runtime)?;
        Ok(PathCache {
            generation,
            units,
            control: state.control.clone(),
            index,
            occ,
            owners,
        })
    }

    /// Brings the cache up to `state`, or None when the units are no longer the same ids (then
    /// it is built anew). A comparison, not a revision counter: the state's fields are public
    /// and change in many places, so only its content says whether it changed.
    fn refresh(
        mut self,
        state: &GameState,
        map: &HexMap,
        rules: &PathRules,
    ) -> Option<mlua::Result<PathCache>> {
        if self.units.len() != state.units.len()
            || self
                .units
                .iter()
                .zip(state.units.keys())
                .any(|(u, id)| u.id != *id)
        {
            return None;
        }
        let mut units_changed = false;
        for (kept, now) in self.units.iter_mut().zip(state.units.values()) {
            if kept != now {
                copy_unit(kept, now);
                units_changed = true;
            }
        }
        let control_changed = self.control != state.control;
        if control_changed {
            self.control.clone_from(&state.control);
            self.owners = owners_of(state, map, rules);
        }
        if units_changed || control_changed {
            self.occ = match Occupancy::build(map, rules, &self.units)
                .and_then(|occ| occ.with_owners(self.owners.clone()))
            {
                Ok(occ) => occ,
                Err(e) => return Some(Err(runtime(e))),
            };
        }
        Some(Ok(self))
    }
}

/// Makes `kept` equal to `now`, reusing its strings' buffers (a move changes `at` only).
fn copy_unit(kept: &mut Unit, now: &Unit) {
    // Every field named: a field added to `Unit` must be added here (or this fails to compile).
    let Unit {
        id,
        side,
        nation,
        kind,
        size,
        ma,
        strength,
        at,
        facing,
        status,
        attrs,
    } = now;
    kept.id.clone_from(id);
    kept.side.clone_from(side);
    kept.nation.clone_from(nation);
    kept.kind.clone_from(kind);
    kept.size.clone_from(size);
    kept.ma = *ma;
    kept.strength = *strength;
    kept.at.clone_from(at);
    kept.facing = *facing;
    if kept.status != *status {
        kept.status.clone_from(status);
    }
    if kept.attrs != *attrs {
        kept.attrs.clone_from(attrs);
    }
}

fn runtime(e: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::runtime(e.to_string())
}

fn rules_of(lua: &Lua) -> mlua::Result<(Arc<HexMap>, Arc<PathRules>)> {
    let (map, rules) = with_host(lua, |h| (h.map.as_hex().cloned(), h.path.clone()))?;
    let map = map.ok_or_else(|| {
        mlua::Error::runtime("hex.path works on hex maps; this scenario's map is an area map")
    })?;
    let rules = rules.ok_or_else(|| {
        mlua::Error::runtime("hex.path: the rules declare no movement table (hex.rules.declare(\"movement\", {...}))")
    })?;
    Ok((map, rules))
}

fn owners_of(state: &GameState, map: &HexMap, rules: &PathRules) -> Vec<SideId> {
    let mut owners = vec![NO_SIDE; map.len() as usize];
    for (label, side) in &state.control {
        if let (Some(i), Some(s)) = (map.parse_label(label), rules.profile.side_id(side)) {
            owners[i as usize] = s;
        }
    }
    owners
}

/// Runs `f` with the cached position of the current call (building it on first use).
pub(crate) fn with_position<R>(
    lua: &Lua,
    f: impl FnOnce(&HexMap, &PathRules, &PathCache) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let (map, rules) = rules_of(lua)?;
    let (generation, kept) = with_host(lua, |h| (h.generation, h.path_cache.take()))?;
    let kept = match kept {
        Some(c) if c.generation == generation => Some(c),
        Some(c) => with_state(lua, |state| c.refresh(state, &map, &rules).transpose())?,
        None => None,
    };
    let mut cache = match kept {
        Some(c) => c,
        None => with_state(lua, |state| {
            PathCache::build(state, &map, &rules, generation)
        })?,
    };
    cache.generation = generation;
    let result = f(&map, &rules, &cache);
    with_host(lua, |h| h.path_cache = Some(cache))?;
    result
}

pub(crate) fn unit_index(cache: &PathCache, id: &str) -> mlua::Result<usize> {
    cache
        .index
        .get(id)
        .copied()
        .ok_or_else(|| mlua::Error::runtime(format!("hex.path: no unit '{id}' in play")))
}

pub(crate) fn budget_of(unit: &Unit, budget: Option<f64>) -> mlua::Result<Mp> {
    let mp = budget.unwrap_or(unit.ma);
    Mp::from_f64(mp)
        .ok_or_else(|| mlua::Error::runtime(format!("hex.path: {mp} is not a valid MP budget")))
}

pub(crate) fn labels_to_hexes(map: &HexMap, labels: &[String]) -> mlua::Result<Vec<HexIndex>> {
    labels
        .iter()
        .map(|l| {
            map.parse_label(l)
                .ok_or_else(|| mlua::Error::runtime(format!("'{l}' is not a hex of the map")))
        })
        .collect()
}

fn refusal(lua: &Lua, rule: &str, reason: &str) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("rule", rule)?;
    t.raw_set("reason", reason)?;
    let mt: Table = lua.named_registry_value(REFUSAL_MT_KEY)?;
    t.set_metatable(Some(mt))?;
    Ok(t)
}

/// Registers `hex.path`.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    // reach(unit, budget?, {paths = true}?) -> { [label] = cost } or { [label] = {cost, path} }
    t.raw_set(
        "reach",
        lua.create_function(
            |lua, (id, budget, opts): (String, Option<f64>, Option<Table>)| {
                let paths = opts
                    .map(|o| o.raw_get::<bool>("paths").unwrap_or(false))
                    .unwrap_or(false);
                with_position(lua, |map, rules, cache| {
                    let unit = &cache.units[unit_index(cache, &id)?];
                    let budget = budget_of(unit, budget)?;
                    let mut search = with_host(lua, |h| h.reach_search.take())?
                        .unwrap_or_else(|| ReachSearch::new(map));
                    let reach = search
                        .reach(map, rules, &cache.occ, unit, budget)
                        .map_err(runtime);
                    with_host(lua, |h| h.reach_search = Some(search))?;
                    let reach = reach?;
                    let out = lua.create_table_with_capacity(0, reach.len())?;
                    for r in reach.hexes() {
                        let cost = r.cost.as_f64();
                        if paths {
                            let entry = lua.create_table()?;
                            entry.raw_set("cost", cost)?;
                            // As a move order gives it: the hexes entered, not the start.
                            let path: Vec<String> = reach
                                .path_to(r.hex)
                                .unwrap_or_default()
                                .into_iter()
                                .filter(|&h| h != reach.start())
                                .map(|h| map.label(h))
                                .collect();
                            entry.raw_set(
                                "path",
                                string_list(lua, path.iter().map(String::as_str))?,
                            )?;
                            out.raw_set(map.label(r.hex), entry)?;
                        } else {
                            out.raw_set(map.label(r.hex), cost)?;
                        }
                    }
                    Ok(out)
                })
            },
        )?,
    )?;
    // check(unit, path, budget?) -> cost, or a refusal (hex.refuse form) naming the clause
    t.raw_set(
        "check",
        lua.create_function(
            |lua, (id, path, budget): (String, Vec<String>, Option<f64>)| {
                with_position(lua, |map, rules, cache| {
                    let unit = &cache.units[unit_index(cache, &id)?];
                    let budget = budget_of(unit, budget)?;
                    let Some(start) = unit.at.as_deref().and_then(|a| map.parse_label(a)) else {
                        return Ok(Value::Table(refusal(
                            lua,
                            "move",
                            &format!("{id} is not on the map"),
                        )?));
                    };
                    let mut hexes = vec![start];
                    match labels_to_hexes(map, &path) {
                        Ok(h) => hexes.extend(h),
                        Err(e) => return Ok(Value::Table(refusal(lua, "move", &e.to_string())?)),
                    }
                    match check_path(map, rules, &cache.occ, unit, budget, &hexes) {
                        Ok(cost) => Ok(Value::Number(cost.as_f64())),
                        Err(PathError::Refused(r)) => {
                            let reason = r.to_string();
                            let reason = reason
                                .strip_prefix(&format!("{}: ", r.clause))
                                .unwrap_or(&reason)
                                .to_string();
                            let rule = if r.clause.is_empty() {
                                r.kind.key().to_string()
                            } else {
                                r.clause.clone()
                            };
                            Ok(Value::Table(refusal(lua, &rule, &reason)?))
                        }
                        Err(PathError::Position(e)) => Err(runtime(e)),
                    }
                })
            },
        )?,
    )?;
    // supply({ {side =, nations = {...}?, hexes = {labels}} ... }) -> { [unit id] = true|false }
    t.raw_set(
        "supply",
        lua.create_function(|lua, sources: Vec<Table>| {
            with_position(lua, |map, rules, cache| {
                let mut sets = Vec::new();
                for s in sources {
                    let side: String = s.raw_get("side")?;
                    let side = rules.profile.side_id(&side).ok_or_else(|| {
                        mlua::Error::runtime(format!("hex.path.supply: unknown side '{side}'"))
                    })?;
                    let nations: Option<Vec<String>> = s.raw_get("nations")?;
                    let hexes: Vec<String> = s.raw_get("hexes")?;
                    sets.push(SourceSet {
                        side,
                        nations: nations.unwrap_or_default(),
                        hexes: labels_to_hexes(map, &hexes)?,
                    });
                }
                let report =
                    trace_supply(map, rules, &cache.occ, &cache.owners, &sets, &cache.units)
                        .map_err(runtime)?;
                let out = lua.create_table()?;
                for (unit, supplied) in cache.units.iter().zip(report.supplied) {
                    if let Some(s) = supplied {
                        out.raw_set(unit.id.as_str(), s)?;
                    }
                }
                Ok(out)
            })
        })?,
    )?;
    // supplied_hexes(side, class, {source labels}) -> the labels where a unit of that side and
    // class would be supplied (F40-11.1: "a supplied city"), in index order
    t.raw_set(
        "supplied_hexes",
        lua.create_function(
            |lua, (side, class, sources): (String, String, Vec<String>)| {
                with_position(lua, |map, rules, cache| {
                    let side_id = rules.profile.side_id(&side).ok_or_else(|| {
                        runtime(format!("hex.path.supplied_hexes: unknown side '{side}'"))
                    })?;
                    let class_id = rules.profile.class_id(&class).ok_or_else(|| {
                        runtime(format!("hex.path.supplied_hexes: unknown class '{class}'"))
                    })?;
                    let sources = labels_to_hexes(map, &sources)?;
                    let field = SupplyField::trace(
                        map,
                        rules,
                        &cache.occ,
                        &cache.owners,
                        side_id,
                        class_id,
                        &sources,
                    )
                    .map_err(runtime)?;
                    let labels: Vec<String> = (0..map.len())
                        .filter(|&h| field.supplies(map, rules, h))
                        .map(|h| map.label(h))
                        .collect();
                    string_list(lua, labels.iter().map(String::as_str))
                })
            },
        )?,
    )?;
    // control() -> the ControlChanged events that F40-7.1-style territory rules call for now
    t.raw_set(
        "control",
        lua.create_function(|lua, ()| {
            with_position(lua, |map, rules, cache| {
                let control =
                    update_control(&cache.occ, &cache.owners, &cache.owners).map_err(runtime)?;
                let out = lua.create_table()?;
                let sides = rules.profile.sides();
                for (i, (&before, &after)) in
                    cache.owners.iter().zip(control.owner.iter()).enumerate()
                {
                    if before != after && after != NO_SIDE {
                        let e = lua.create_table()?;
                        e.raw_set("event", "ControlChanged")?;
                        e.raw_set("hex", map.label(i as HexIndex))?;
                        e.raw_set("side", sides.get(after as usize).map(String::as_str))?;
                        out.raw_push(e)?;
                    }
                }
                Ok(out)
            })
        })?,
    )?;
    // rail(unit) -> labels the unit may reach by rail
    t.raw_set(
        "rail",
        lua.create_function(|lua, id: String| {
            with_position(lua, |map, rules, cache| {
                let unit = &cache.units[unit_index(cache, &id)?];
                let hexes = rail_destinations(map, rules, &cache.occ, &cache.owners, unit)
                    .map_err(runtime)?;
                let labels: Vec<String> = hexes.into_iter().map(|h| map.label(h)).collect();
                string_list(lua, labels.iter().map(String::as_str))
            })
        })?,
    )?;
    // zoc(label) -> the sides exerting ZOC in the hex
    t.raw_set(
        "zoc",
        lua.create_function(|lua, label: String| {
            with_position(lua, |map, rules, cache| {
                let hex = map.parse_label(&label).ok_or_else(|| {
                    mlua::Error::runtime(format!("'{label}' is not a hex of the map"))
                })?;
                let mask = cache.occ.zoc_mask(hex);
                let sides: Vec<&str> = rules
                    .profile
                    .sides()
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, s)| s.as_str())
                    .collect();
                string_list(lua, sides)
            })
        })?,
    )?;
    // may_retreat_into(unit, label) -> F40-6.6-style retreat check
    t.raw_set(
        "may_retreat_into",
        lua.create_function(|lua, (id, label): (String, String)| {
            with_position(lua, |map, rules, cache| {
                let i = unit_index(cache, &id)?;
                let unit = &cache.units[i];
                let hex = map.parse_label(&label).ok_or_else(|| {
                    mlua::Error::runtime(format!("'{label}' is not a hex of the map"))
                })?;
                let side = rules.profile.side_of(unit).map_err(runtime)?;
                let class = rules.profile.class_of(unit).map_err(runtime)?;
                Ok(rules.zoc.may_retreat_into(&cache.occ, side, class, hex))
            })
        })?,
    )?;
    hex.raw_set("path", t)
}
