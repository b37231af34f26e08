//! `hex.path.toward(targets, units, opts?)`: for bots, the hexes each unit can reach that bring
//! it closer to a set of targets, computed in Rust in one call (one step field, one reach per
//! unit) instead of a Lua table of every reachable hex per unit.
//!
//!   targets: hex labels (the objectives)
//!   units:   { {id = ID, budget = MP, supply = KEY}, ... }
//!   opts:    { impassable = {terrain names the field does not cross}, limit = N, first = RANK,
//!              nearest_first = true,
//!              supplied = { [KEY] = {side =, class =, sources = {labels}} },
//!              capacity = { {limit = N, by_size = {[size] = load}, types = {unit types}}, ... } }
//!
//! The units are examined in the given order, or with `nearest_first` nearest the targets
//! first (ties in the given order); `first` skips to that rank of the order (1 by default).
//! A unit entry with `supply = KEY` keeps only the hexes where a unit of that side and class
//! would trace supply to those sources (as `hex.path.supplied_hexes`); a field is traced once
//! per position, and only for a unit that has a hex to go to. Each `capacity` keeps a unit out
//! of the hexes where its side's units on the map and itself would load more than `limit`: a
//! unit loads `by_size[its size]` (0 for a size not listed; 1 for every unit when `by_size` is
//! absent, so `{limit = 2}` alone means two units), counted only for the listed `types` (every
//! type when absent): stacking limits, declared.
//!
//! Returns, for each unit that can get closer, in the order examined, `{id, rank, from,
//! closer}`: `rank` its place in that order, `from` its step distance now (99 when no target
//! can be reached), `closer` the labels it can reach with a smaller distance, nearest first,
//! then in label order. With `limit`, stops after that many units with a non-empty answer (the
//! bot asks again from `rank + 1` if it needs more).
//!
//! `hex.path.path_to(unit, budget, label)`: the path (hexes entered) that `hex.path.reach(unit,
//! budget, {paths = true})` gives for `label`, or nil when out of reach: a bot that picked its
//! destination builds its `move` without a table of every path.

use std::collections::BTreeMap;
use std::sync::Arc;

use mlua::{Lua, Table, Value};

use super::map::{hex_list, labels};
use super::path::{budget_of, label, path_map, unit_index, with_position, PathCache};
use super::with_host;
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;
use crate::path::{PathRules, ReachSearch, StepField};
use crate::rules::host_work::{charge_listed, charge_search};
use crate::rules::lua_stack::options::{plain_unit_entries, PlainUnitEntry};
use crate::rules::lua_stack::writer::{key_string, write};

/// The distance a bot gives a hex that no target can be reached from.
const FAR: u32 = 99;

/// Step fields kept per VM.
const STEP_FIELDS_KEPT: usize = 8;

/// The step fields of recent `toward` and `steps` calls, by (targets, terrains blocked): they
/// depend on the map only, and a bot asks for the same objectives over and over. The targets are
/// kept as a set (sorted, once each), so the same objectives in another order share a field.
#[derive(Default)]
pub(crate) struct StepFields {
    kept: Vec<(Vec<HexIndex>, Vec<bool>, Arc<StepField>)>,
}

impl StepFields {
    fn get(&mut self, map: &HexMap, targets: &[HexIndex], blocked: &[bool]) -> Arc<StepField> {
        let mut set = targets.to_vec();
        set.sort_unstable();
        set.dedup();
        if let Some((_, _, field)) = self
            .kept
            .iter()
            .find(|(t, b, _)| *t == set && b.as_slice() == blocked)
        {
            return field.clone();
        }
        let field = Arc::new(StepField::from_targets(map, &set, |h| {
            !blocked
                .get(map.terrain_id(h) as usize)
                .copied()
                .unwrap_or(false)
        }));
        if self.kept.len() >= STEP_FIELDS_KEPT {
            self.kept.remove(0);
        }
        self.kept.push((set, blocked.to_vec(), field.clone()));
        field
    }
}

/// One unit's answer: its id, its distance now, and the hexes closer, nearest first.
struct Closer {
    id: String,
    /// Its place in the examination order (1-based).
    rank: usize,
    from: u32,
    hexes: Vec<HexIndex>,
}

/// The terrains named in `impassable`, as a flag per terrain id of the map; a name that
/// misspells one of the map's (`wods`) is an error, not a terrain nothing stands on. `what`:
/// the function asked.
fn blocked_terrains(map: &HexMap, impassable: &[String], what: &str) -> mlua::Result<Vec<bool>> {
    for name in impassable {
        if let Some(near) = crate::spelling::misspelt(name, map.terrain_names()) {
            return Err(mlua::Error::runtime(format!(
                "{what}: impassable names '{name}', no terrain of this map (did you mean \
                 '{near}'?; terrains: {})",
                map.terrain_names().join(", ")
            )));
        }
    }
    Ok(map
        .terrain_names()
        .iter()
        .map(|t| impassable.contains(t))
        .collect())
}

/// Adds `toward`, `steps` and `path_to` to the `hex.path` table.
pub fn register(lua: &Lua, path: &Table) -> mlua::Result<()> {
    // steps(targets, opts?) -> { [label] = hex steps to the nearest target } for every hex a
    // target can be reached from without crossing `opts.impassable`: the field `toward` ranks
    // by, for a bot that ranks hexes of its own (a map fact: kept per VM with toward's).
    path.raw_set(
        "steps",
        lua.create_function(|lua, (targets, opts): (Table, Option<Table>)| {
            let ask = TowardOptions::read(lua, opts.as_ref(), "hex.path.steps", &["impassable"])?;
            let map = path_map(lua)?;
            let target_hexes = hex_list(lua, &map, &targets, "hex.path.steps: targets")?;
            let blocked = blocked_terrains(&map, &ask.impassable, "hex.path.steps")?;
            // (the field covers the map, traced now or kept from an earlier call)
            charge_search(lua, map.len() as usize)?;
            let field = with_host(lua, |h| h.step_fields.get(&map, &target_hexes, &blocked))?;
            labels(lua, &map)?;
            let reached: Vec<(HexIndex, u32)> = (0..map.len())
                .filter_map(|h| field.distance(h).map(|d| (h, d)))
                .collect();
            let reached = reached.as_slice();
            // (only borrows: see writer.rs)
            write::<Table, _>(lua, (), |w| {
                w.table(0, reached.len());
                for &(h, d) in reached {
                    w.int(i64::from(d));
                    w.set_label(h);
                }
            })
        })?,
    )?;
    path.raw_set(
        "path_to",
        lua.create_function(|lua, (id, budget, label): (String, Option<f64>, String)| {
            with_position(lua, |map, rules, cache| {
                let unit = &cache.units[unit_index(cache, &id)?];
                let target = map.parse_label(&label).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "hex.path.path_to: '{label}' is not a hex of the map{}",
                        map.labels_hint()
                    ))
                })?;
                let budget = budget_of(unit, budget)?;
                let mut search = with_host(lua, |h| h.reach_search.take())?
                    .unwrap_or_else(|| ReachSearch::new(map));
                let reach = search.reach(map, rules, &cache.occ, unit, budget);
                let settled = reach.as_ref().map_or(0, |r| r.len() + 1);
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
                charge_search(lua, settled)?;
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
                let ask =
                    TowardOptions::read(lua, opts.as_ref(), "hex.path.toward", TOWARD_OPTIONS)?;
                with_position(lua, |map, rules, cache| {
                    let answers = toward(lua, map, rules, cache, &targets, &units, &ask)?;
                    let answers = answers.as_slice();
                    // (only borrows: see writer.rs)
                    write::<Table, _>(lua, (), |w| {
                        w.table(answers.len(), 0);
                        for (i, a) in answers.iter().enumerate() {
                            w.table(0, 4);
                            w.str(&a.id);
                            w.set("id");
                            w.int(a.rank as i64);
                            w.set("rank");
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

/// The options `toward` takes.
const TOWARD_OPTIONS: &[&str] = &[
    "supplied",
    "impassable",
    "limit",
    "first",
    "nearest_first",
    "capacity",
];

/// The keys of a unit entry of `toward` (a misspelt `budgte` was dropped: the unit's full MA):
/// its own, and a unit view's (`hex.units.get`, `hex.units.brief`), which a bot may pass as an
/// entry (its full MA, its own supply).
const ENTRY_KEYS: &[&str] = &["id", "budget", "supply"];
const VIEW_KEYS: &[&str] = &[
    "id", "budget", "supply", "side", "nation", "type", "size", "ma", "strength", "at", "class",
    "facing", "facing2", "status", "attrs",
];

/// One of `toward`'s unit entries, read: its id and index in the position cache, and its
/// `budget` and `supply`, read at once by the plain reading or else from its table when asked
/// (as before: an entry never examined is never read further).
struct Entry {
    id: String,
    index: usize,
    fields: EntryFields,
}

enum EntryFields {
    Plain {
        budget: Option<f64>,
        supply: Option<String>,
    },
    Table(Table),
}

impl Entry {
    fn budget(&self, key: &mlua::LuaString) -> mlua::Result<Option<f64>> {
        match &self.fields {
            EntryFields::Plain { budget, .. } => Ok(*budget),
            EntryFields::Table(t) => t.raw_get(key).map_err(|e| self.field_error("budget", e)),
        }
    }

    fn supply(&mut self, key: &mlua::LuaString) -> mlua::Result<Option<String>> {
        match &mut self.fields {
            EntryFields::Plain { supply, .. } => Ok(supply.take()),
            EntryFields::Table(t) => t.raw_get(key).map_err(|e| self.field_error("supply", e)),
        }
    }

    /// A field of the wrong type named with the unit and the type found (mlua's own words,
    /// "string expected, got string" for bytes that are not UTF-8, named neither).
    fn field_error(&self, field: &str, e: mlua::Error) -> mlua::Error {
        let mlua::Error::FromLuaConversionError { from, .. } = &e else {
            return e;
        };
        let (expected, got) = match (field, *from) {
            ("budget", from) => ("a number", format!("a {from}")),
            (_, "string") => ("UTF-8 text", "a string of other bytes".to_string()),
            (_, from) => ("a key of opts.supplied", format!("a {from}")),
        };
        mlua::Error::runtime(format!(
            "hex.path.toward: unit {}'s {field}: {expected} expected, got {got}",
            self.id
        ))
    }
}

/// Entry `i` (1-based) of `toward`'s units: from the plain reading when there is one, else
/// from its table.
fn unit_entry(
    units: &Table,
    plain: &mut Option<Vec<PlainUnitEntry>>,
    i: usize,
    id_key: &mlua::LuaString,
    cache: &PathCache,
) -> mlua::Result<Entry> {
    if let Some(e) = plain.as_mut().and_then(|p| p.get_mut(i - 1)) {
        let id = std::mem::take(&mut e.id);
        let index = unit_index(cache, &id)?;
        let fields = EntryFields::Plain {
            budget: e.budget,
            supply: e.supply.take(),
        };
        return Ok(Entry { id, index, fields });
    }
    let entry = match units.raw_get::<Value>(i)? {
        Value::Table(t) => t,
        other => {
            return Err(mlua::Error::runtime(format!(
                "hex.path.toward: unit #{i} is {}, not a table {{id = ..., budget = ...}}",
                crate::rules::convert::value_kind(&other)
            )))
        }
    };
    let id: String = entry.raw_get(id_key)?;
    let index = unit_index(cache, &id)?;
    Ok(Entry {
        id,
        index,
        fields: EntryFields::Table(entry),
    })
}

/// `toward`'s options, as read from `opts`.
struct TowardOptions {
    impassable: Vec<String>,
    limit: usize,
    first: usize,
    nearest_first: bool,
    /// `opts.supplied`, read per key when a unit first names it.
    supplied: Option<Table>,
    capacities: Vec<Capacity>,
}

impl TowardOptions {
    /// `what`: the function asked (`hex.path.toward`, `hex.path.steps`), for a misspelt option;
    /// `allowed`: the options it takes (`steps` takes `impassable` only: toward's others were
    /// accepted there and did nothing).
    fn read(
        lua: &Lua,
        opts: Option<&Table>,
        what: &str,
        allowed: &[&str],
    ) -> mlua::Result<TowardOptions> {
        super::only_options(lua, opts, allowed, what)?;
        let mut ask = TowardOptions {
            impassable: Vec::new(),
            limit: usize::MAX,
            first: 1,
            nearest_first: false,
            supplied: None,
            capacities: Vec::new(),
        };
        let Some(o) = opts else { return Ok(ask) };
        ask.supplied = super::option(o, "supplied", what, "a table of supply names")?;
        ask.impassable =
            super::option::<Option<Vec<String>>>(o, "impassable", what, "a list of terrain names")?
                .unwrap_or_default();
        let count = "a count (a whole number, 0 or more)";
        if let Some(n) = super::option::<Option<usize>>(o, "limit", what, count)? {
            ask.limit = n;
        }
        // (ranks start at 1: `first = 0` read as 1, a bot counting from 0 asked one rank early)
        match super::option::<Option<usize>>(o, "first", what, "a rank (a whole number from 1)")? {
            Some(0) => {
                return Err(super::bad_option(
                    what,
                    "first",
                    "a rank (a whole number from 1)",
                    &mlua::Value::Integer(0),
                ))
            }
            Some(n) => ask.first = n,
            None => {}
        }
        ask.nearest_first = o.raw_get::<Option<bool>>("nearest_first")?.unwrap_or(false);
        // (read in one walk: mlua's conversion of each field and each `by_size` key was most of
        // a call's cost)
        let capacity = match o.raw_get::<mlua::Value>("capacity")? {
            mlua::Value::Nil => None,
            mlua::Value::Table(list) => Some(list),
            _ => {
                return Err(mlua::Error::runtime(
                    "hex.path.toward: opts.capacity must be a list of tables",
                ))
            }
        };
        if let Some(list) = capacity {
            let mut left = crate::rules::bounded::VALUE_LIMIT;
            let read = crate::rules::lua_stack::reader::lua_to_json(lua, &list, &mut left)
                .map_err(|e| {
                    mlua::Error::runtime(format!("hex.path.toward: opts.capacity: {e}"))
                })?;
            ask.capacities = Capacity::list_from(&read)?;
        }
        Ok(ask)
    }
}

/// A limit on what a hex may hold (`opts.capacity`).
struct Capacity {
    limit: f64,
    /// What a unit of each size loads; None: every unit loads 1 (a limit counted in units).
    by_size: Option<BTreeMap<String, f64>>,
    /// The unit types that load it; every type when None.
    types: Option<Vec<String>>,
}

impl Capacity {
    /// `opts.capacity` as read: a list of `{limit = N, by_size = {[size] = load}, types = {...}}`.
    fn list_from(read: &serde_json::Value) -> mlua::Result<Vec<Capacity>> {
        let bad =
            |what: String| mlua::Error::runtime(format!("hex.path.toward: opts.capacity{what}"));
        let items: &[serde_json::Value] = match read {
            serde_json::Value::Array(items) => items,
            // (an empty table reads as an empty object: no capacity)
            serde_json::Value::Object(m) if m.is_empty() => &[],
            _ => return Err(bad(" must be a list of tables".into())),
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let at = |field: &str| format!("[{}].{field}", i + 1);
            let limit = item
                .get("limit")
                .and_then(serde_json::Value::as_f64)
                .ok_or_else(|| bad(format!("{} must be a number", at("limit"))))?;
            let by_size = match item.get("by_size") {
                None => None,
                Some(serde_json::Value::Object(m)) => Some(
                    m.iter()
                        .map(|(size, load)| {
                            load.as_f64().map(|l| (size.clone(), l)).ok_or_else(|| {
                                bad(format!(
                                    "{} must be a number",
                                    at(&format!("by_size.{size}"))
                                ))
                            })
                        })
                        .collect::<mlua::Result<BTreeMap<String, f64>>>()?,
                ),
                Some(_) => {
                    return Err(bad(format!(
                        "{} must be a table of size = load",
                        at("by_size")
                    )))
                }
            };
            let types = match item.get("types") {
                None => None,
                Some(serde_json::Value::Object(m)) if m.is_empty() => Some(Vec::new()),
                Some(serde_json::Value::Array(list)) => Some(
                    list.iter()
                        .map(|t| {
                            t.as_str().map(str::to_string).ok_or_else(|| {
                                bad(format!("{} must be a list of type names", at("types")))
                            })
                        })
                        .collect::<mlua::Result<Vec<String>>>()?,
                ),
                Some(_) => {
                    return Err(bad(format!("{} must be a list of type names", at("types"))))
                }
            };
            out.push(Capacity {
                limit,
                by_size,
                types,
            });
        }
        Ok(out)
    }

    fn load(&self, unit: &Unit) -> f64 {
        if self.types.as_ref().is_some_and(|t| !t.contains(&unit.kind)) {
            return 0.0;
        }
        match &self.by_size {
            Some(by_size) => by_size.get(&unit.size).copied().unwrap_or(0.0),
            None => 1.0,
        }
    }
}

/// What the hexes hold of each capacity, for one side's units on the map: per hex the side
/// occupies (in hex order, for a binary search), its load of each capacity. (A map-sized row
/// per capacity, zeroed at each call, cost more than the whole count.)
fn holdings(cache: &PathCache, side: &str, capacities: &[Capacity]) -> Holdings {
    let mut loads: Vec<(HexIndex, usize)> = cache
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side == side)
        // (the hex of its `at`, as the occupancy placed it)
        .filter_map(|(i, _)| cache.occ.placed(i).map(|p| (p.hex, i)))
        .collect();
    // (stable: a hex's units are added in id order, as the rows added them)
    loads.sort_by_key(|&(h, _)| h);
    let mut hexes: Vec<HexIndex> = Vec::new();
    let mut held: Vec<f64> = Vec::new();
    for (h, i) in loads {
        if hexes.last() != Some(&h) {
            hexes.push(h);
            held.extend(std::iter::repeat_n(0.0, capacities.len()));
        }
        let row = held.len() - capacities.len();
        for (c, cell) in capacities.iter().zip(&mut held[row..]) {
            *cell += c.load(&cache.units[i]);
        }
    }
    Holdings { hexes, held }
}

/// A side's load of each capacity per occupied hex (`holdings`).
struct Holdings {
    hexes: Vec<HexIndex>,
    /// `capacities.len()` loads per hex of `hexes`, in its order.
    held: Vec<f64>,
}

impl Holdings {
    /// The load of capacity `c` in hex `h` (0 in a hex the side does not occupy).
    fn load(&self, h: HexIndex, c: usize, capacities: usize) -> f64 {
        match self.hexes.binary_search(&h) {
            Ok(k) => self.held[k * capacities + c],
            Err(_) => 0.0,
        }
    }
}

/// The answers of one `toward` call (see the module's doc).
fn toward(
    lua: &Lua,
    map: &HexMap,
    rules: &PathRules,
    cache: &mut PathCache,
    targets: &[String],
    units: &Table,
    ask: &TowardOptions,
) -> mlua::Result<Vec<Closer>> {
    let mut target_hexes = Vec::with_capacity(targets.len());
    for l in targets {
        target_hexes.push(map.parse_label(l).ok_or_else(|| {
            mlua::Error::runtime(format!(
                "hex.path.toward: '{l}' is not a hex of the map{}",
                map.labels_hint()
            ))
        })?);
    }
    let blocked = blocked_terrains(map, &ask.impassable, "hex.path.toward")?;
    // (the step field covers the map, traced now or kept from an earlier call)
    charge_search(lua, map.len() as usize)?;
    let field = with_host(lua, |h| h.step_fields.get(map, &target_hexes, &blocked))?;
    let distance = |h| field.distance(h).unwrap_or(FAR);
    let steps = |h| distance(h).min(FAR);
    let labels = labels(lua, map)?;
    let (id_key, budget_key, supply_key_name) = (
        key_string(lua, "id")?,
        key_string(lua, "budget")?,
        key_string(lua, "supply")?,
    );
    // A unit's hex, as the occupancy placed it (the hex of its `at`).
    let hex_at = |cache: &PathCache, i: usize| cache.occ.placed(i).map(|p| p.hex);
    // Every entry in one walk when they hold the plain shapes (a bot's), their keys checked
    // on the way; else each from its table, key by key, as it is needed.
    let mut plain = plain_unit_entries(lua, units, VIEW_KEYS)?;
    // (every entry's keys, checked once for the list: a misspelt `budgte` was dropped unread)
    if plain.is_none() {
        if let Some((i, key)) =
            crate::rules::lua_stack::reader::item_key_not_in(lua, units, VIEW_KEYS)?
        {
            return Err(super::unknown_key(
                &format!("hex.path.toward: unit #{i}"),
                key,
                ENTRY_KEYS,
            ));
        }
    }
    // The examination order: entry indices (1-based), nearest first when asked (a stable sort).
    let count = units.raw_len();
    let mut order: Vec<usize> = (1..=count).collect();
    // Each entry as read: by the sort when it reads them all, else when examined.
    let mut read: Vec<Option<Entry>> = (0..=count).map(|_| None).collect();
    if ask.nearest_first {
        let mut keyed = Vec::with_capacity(count);
        for (i, slot) in read.iter_mut().enumerate().skip(1) {
            let entry = unit_entry(units, &mut plain, i, &id_key, cache)?;
            keyed.push((hex_at(cache, entry.index).map_or(FAR, distance), i));
            *slot = Some(entry);
        }
        keyed.sort();
        order = keyed.into_iter().map(|(_, i)| i).collect();
    }
    let mut supply: BTreeMap<String, usize> = BTreeMap::new();
    let mut held: BTreeMap<String, Holdings> = BTreeMap::new();
    let mut search =
        with_host(lua, |h| h.reach_search.take())?.unwrap_or_else(|| ReachSearch::new(map));
    let mut answers: Vec<Closer> = Vec::new();
    let mut failure = None;
    for (rank, &i) in order.iter().enumerate().skip(ask.first - 1) {
        if answers.len() >= ask.limit {
            break;
        }
        let mut entry = match read.get_mut(i).and_then(Option::take) {
            Some(known) => known,
            None => unit_entry(units, &mut plain, i, &id_key, cache)?,
        };
        let index = entry.index;
        let budget = entry.budget(&budget_key)?;
        let unit = &cache.units[index];
        let Some(start) = hex_at(cache, index) else {
            continue;
        };
        let budget = budget_of(unit, budget)?;
        let from = steps(start);
        // Already on a target: no hex is closer, so no reach to search.
        if from == 0 {
            continue;
        }
        if !ask.capacities.is_empty() && !held.contains_key(&unit.side) {
            charge_listed(lua, cache.units.len())?;
            let side_held = holdings(cache, &unit.side, &ask.capacities);
            held.insert(unit.side.clone(), side_held);
        }
        let room = held.get(&unit.side);
        let load: Vec<f64> = ask.capacities.iter().map(|c| c.load(unit)).collect();
        let fits = |h: HexIndex| {
            room.is_none_or(|held| {
                let n = ask.capacities.len();
                ask.capacities
                    .iter()
                    .enumerate()
                    .zip(&load)
                    .all(|((k, c), l)| held.load(h, k, n) + l <= c.limit)
            })
        };
        let reach = match search.reach(map, rules, &cache.occ, unit, budget) {
            Ok(r) => r,
            Err(e) => {
                failure = Some(e.to_string());
                break;
            }
        };
        charge_search(lua, reach.len() + 1)?;
        let mut closer: Vec<(u32, &str, HexIndex)> = reach
            .hexes()
            .iter()
            .filter(|r| steps(r.hex) < from && fits(r.hex))
            .map(|r| (steps(r.hex), label(&labels, r.hex), r.hex))
            .collect();
        if closer.is_empty() {
            continue;
        }
        // The supply field is traced only for a unit that has somewhere to go.
        let supply_key = entry.supply(&supply_key_name)?;
        if let Some(key) = supply_key {
            let f = match supply.get(&key) {
                Some(&f) => f,
                None => {
                    // (the field covers the map, traced now or kept from an earlier call)
                    charge_search(lua, map.len() as usize)?;
                    let f = supply_field_named(
                        lua,
                        map,
                        rules,
                        cache,
                        ask.supplied.as_ref(),
                        &entry.id,
                        &key,
                    )?;
                    supply.insert(key, f);
                    f
                }
            };
            let field = cache.supply_field_at(f);
            closer.retain(|&(_, _, h)| field.is_some_and(|f| f.supplies(map, rules, h)));
        }
        if closer.is_empty() {
            continue;
        }
        closer.sort();
        answers.push(Closer {
            id: entry.id,
            rank: rank + 1,
            from,
            hexes: closer.into_iter().map(|(_, _, h)| h).collect(),
        });
    }
    with_host(lua, |h| h.reach_search = Some(search))?;
    match failure {
        Some(e) => Err(mlua::Error::runtime(e)),
        None => Ok(answers),
    }
}

/// The index in the position cache of the supply field `opts.supplied[key]` names (traced on
/// first use), for the unit `id` that names it.
fn supply_field_named(
    lua: &Lua,
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
    let (side, class, sources): (String, String, Table) = (
        ask.raw_get("side")?,
        ask.raw_get("class")?,
        ask.raw_get("sources")?,
    );
    let side = rules
        .profile
        .side_named(&side, "hex.path.toward")
        .map_err(mlua::Error::runtime)?;
    let class = rules
        .profile
        .class_named(&class, "hex.path.toward")
        .map_err(mlua::Error::runtime)?;
    let sources = hex_list(lua, map, &sources, "hex.path.toward: supplied sources")?;
    cache
        .supply_field(map, rules, side, class, &sources)
        .map_err(|e| mlua::Error::runtime(e.to_string()))
}
