//! `hex.path`: the compiled movement engine (`crate::path`) for rules written in Lua. The rules
//! declare `hex.rules.declare("movement", {...})` (docs/movement.md); the host compiles it once
//! after loading, and these functions run the searches in Rust over the current position.

use std::collections::BTreeMap;
use std::sync::Arc;

use mlua::{Lua, Table, Value};

use super::map::{label_list, labels};
use super::{string_list, with_host, with_state, REFUSAL_MT_KEY};
use crate::board::{HexIndex, HexMap};
use crate::engine::{Change, GameState, Unit};
use crate::path::{
    check_path, control_changes, rail_destinations, supply_groups, Cell, ClassId, Mp, Occupancy,
    PathError, PathRules, ReachSearch, SideId, SourceSet, SupplyField, NO_SIDE,
};
use crate::rules::host_work::{charge_listed, charge_search};
use crate::rules::lua_stack::writer::write;

/// The position as the searches see it: built from the state, and kept from one call into Lua to
/// the next, refreshed in place. On a game's state the revision says what changed since the
/// cache's version (`Revision::changes_since`): nothing (a bot choosing several commands, the
/// handlers of one event), or a few units and hexes, copied one by one. On any other state the
/// cache compares the units and the control map. Either way it copies what changed and follows it
/// in the occupancy unit by unit (`Occupancy::update_unit`, `insert_unit` and `remove_unit` for
/// units that entered or left play), not the whole cache.
pub(crate) struct PathCache {
    /// The call into Lua this cache was last checked in: within one call the state cannot change.
    generation: u64,
    /// The rules it was built with (their address): costs_by_variable may select others, whose
    /// supply fields and costs differ, so another rules' cache is built afresh.
    rules_id: usize,
    /// The revision of the state this cache mirrors (`Revision::position`), None when unknown.
    revision: Option<(u64, u64)>,
    /// Whether `control` may differ from the control map `owners` was made from (the revision
    /// path updates `owners` hex by hex and leaves `control` behind): the next comparison then
    /// rebuilds both.
    control_stale: bool,
    /// The state's units, in the state's (id) order.
    pub(crate) units: Vec<Unit>,
    /// The control map the owners were read from, in its order (a vector compares faster).
    control: Vec<(String, String)>,
    index: BTreeMap<String, usize>,
    pub(crate) occ: Occupancy,
    pub(crate) owners: Vec<SideId>,
    /// Supply fields traced on this position, by (side, class, sources): appended within a
    /// call (so an index stays valid through it), cleared when the occupancy or the owners
    /// change or at the start of a call once there are more than `SUPPLY_FIELDS_KEPT`.
    supply_fields: Vec<(SideId, ClassId, Vec<HexIndex>, SupplyField)>,
    /// The owners and occupancy cells the kept supply fields were traced on (None when none is
    /// kept): a change of position keeps the fields it provably leaves as they are.
    traced_on: Option<(Vec<SideId>, Vec<Cell>)>,
}

/// Supply fields kept from one call to the next on an unchanged position.
const SUPPLY_FIELDS_KEPT: usize = 16;

impl PathCache {
    fn build(
        state: &GameState,
        map: &HexMap,
        rules: &PathRules,
        generation: u64,
    ) -> mlua::Result<PathCache> {
        let units: Vec<Unit> = state.units.values().cloned().collect();
        let owners = owners_of(state, map, rules);
        let occ = Occupancy::build(map, rules, &units)
            .map_err(runtime)?
            .with_owners(owners.clone())
            .map_err(runtime)?;
        Ok(PathCache {
            generation,
            rules_id: rules as *const PathRules as usize,
            revision: state.revision.position(),
            control_stale: false,
            index: index_of(&units),
            units,
            control: state
                .control
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            occ,
            owners,
            supply_fields: Vec::new(),
            traced_on: None,
        })
    }

    /// The index in `supply_fields` of the field of (side, class, sources), traced on first use.
    pub(crate) fn supply_field(
        &mut self,
        map: &HexMap,
        rules: &PathRules,
        side: SideId,
        class: ClassId,
        sources: &[HexIndex],
    ) -> Result<usize, crate::path::PositionError> {
        if let Some(i) = self
            .supply_fields
            .iter()
            .position(|(s, c, from, _)| *s == side && *c == class && from == sources)
        {
            return Ok(i);
        }
        let field = SupplyField::trace(map, rules, &self.occ, &self.owners, side, class, sources)?;
        if self.traced_on.is_none() {
            self.traced_on = Some((self.owners.clone(), self.occ.cells().to_vec()));
        }
        self.supply_fields
            .push((side, class, sources.to_vec(), field));
        Ok(self.supply_fields.len() - 1)
    }

    /// A field `supply_field` gave the index of.
    pub(crate) fn supply_field_at(&self, i: usize) -> Option<&SupplyField> {
        self.supply_fields.get(i).map(|(_, _, _, f)| f)
    }

    /// Brings the cache up to `state`: by the revision's list of changes when it has one since
    /// the cache's version, otherwise by comparing (a state outside a `Game` has public fields
    /// that anyone may have changed).
    fn refresh(&mut self, state: &GameState, map: &HexMap, rules: &PathRules) -> mlua::Result<()> {
        let changes = self
            .revision
            .and_then(|position| state.revision.changes_since(position));
        let caught_up = match changes {
            Some(changes) => self.apply_changes(state, map, rules, changes)?,
            None => false,
        };
        if !caught_up {
            self.compare_and_copy(state, map, rules)?;
        }
        self.revision = state.revision.position();
        Ok(())
    }

    /// Brings the cache up to `state` through the changes made since its version; false (and
    /// nothing done) when one of them needs the comparison (a label that is not a hex's own, a
    /// changed unit the cache does not know). Units that entered or left play are named by the
    /// changes too: the list is merged again, taking from the state only the units named, and
    /// the occupancy rebuilt.
    fn apply_changes(
        &mut self,
        state: &GameState,
        map: &HexMap,
        rules: &PathRules,
        changes: &[(u64, Change)],
    ) -> mlua::Result<bool> {
        let roster_changed = changes
            .iter()
            .any(|(_, change)| matches!(change, Change::Roster(_)));
        let mut units = Vec::new();
        let mut named: Vec<&str> = Vec::new();
        let mut hexes = Vec::new();
        for (_, change) in changes {
            match change {
                Change::Roster(id) => named.push(id),
                Change::Unit(id) if roster_changed => named.push(id),
                Change::Unit(id) => match (self.index.get(id), state.units.get(id)) {
                    (Some(&i), Some(now)) => units.push((i, now)),
                    _ => return Ok(false),
                },
                Change::Control(label) => match map.parse_label(label) {
                    Some(hex) if map.label(hex) == *label => hexes.push((hex, label)),
                    _ => return Ok(false),
                },
            }
        }
        let mut changed = Vec::new();
        for (i, now) in units {
            if self.units[i] != *now {
                copy_unit(&mut self.units[i], now);
                changed.push(i);
            }
        }
        let mut control_changed = false;
        for (hex, label) in hexes {
            let owner = state
                .control
                .get(label)
                .and_then(|side| rules.profile.side_id(side))
                .unwrap_or(NO_SIDE);
            if self.owners[hex as usize] != owner {
                self.owners[hex as usize] = owner;
                control_changed = true;
            }
            self.control_stale = true;
        }
        if roster_changed {
            named.sort_unstable();
            named.dedup();
            let kept = std::mem::take(&mut self.units);
            let named = |k: &Unit, _: &Unit| named.binary_search(&k.id.as_str()).is_ok();
            let units = self.merge(kept, state, named, map, rules);
            self.rebuild(map, rules, units, control_changed)?;
        } else {
            self.rebuild(map, rules, UnitsChanged::These(changed), control_changed)?;
        }
        Ok(true)
    }

    /// Follows the units' changes in the occupancy (unit by unit when it can, else by a
    /// rebuild), gives it the new owners when they changed, and drops the supply fields that
    /// what they were traced on changed (all when too many are kept). A field reads only the
    /// occupancy's cells and the owners (`SupplyField::trace`), so a change the occupancy does
    /// not see (a `moved` flag) keeps it, and so does one that leaves every hex whose cell or
    /// owner changed carrying a line as before (`SupplyField::unchanged_by`: a move far from
    /// the enemy's ZOC, most changes of control in the enemy's territory).
    fn rebuild(
        &mut self,
        map: &HexMap,
        rules: &PathRules,
        units: UnitsChanged,
        control_changed: bool,
    ) -> mlua::Result<()> {
        let rebuilt = matches!(units, UnitsChanged::All);
        let occupancy_changed = match units {
            UnitsChanged::These(changed) => {
                let mut occupancy_changed = false;
                for &i in &changed {
                    match self.occ.update_unit(map, rules, i, &self.units[i]) {
                        Ok(c) => occupancy_changed |= c,
                        // (the rebuild below reports the error)
                        Err(_) => {
                            return self.rebuild(map, rules, UnitsChanged::All, control_changed)
                        }
                    }
                }
                occupancy_changed
            }
            // (the kept supply fields are then checked cell by cell, `keep_unchanged_fields`)
            UnitsChanged::Followed => true,
            UnitsChanged::All => {
                self.occ = Occupancy::build(map, rules, &self.units)
                    .map_err(runtime)?
                    .with_owners(self.owners.clone())
                    .map_err(runtime)?;
                true
            }
        };
        if control_changed && !rebuilt {
            // the units' cells and ZOCs do not depend on who owns the hexes
            self.occ.set_owners(self.owners.clone()).map_err(runtime)?;
        }
        if self.supply_fields.len() > SUPPLY_FIELDS_KEPT {
            self.supply_fields.clear();
        } else if occupancy_changed || control_changed {
            self.keep_unchanged_fields(map, rules);
        }
        if self.supply_fields.is_empty() {
            self.traced_on = None;
        }
        Ok(())
    }

    /// Drops the supply fields the change from `traced_on` to the current position may alter,
    /// and records the current position as the one the others are traced on.
    fn keep_unchanged_fields(&mut self, map: &HexMap, rules: &PathRules) {
        let Some((owners, cells)) = self.traced_on.take() else {
            self.supply_fields.clear();
            return;
        };
        let now = self.occ.cells();
        if owners.len() != self.owners.len() || cells.len() != now.len() {
            self.supply_fields.clear();
            return;
        }
        let changed: Vec<HexIndex> = (0..map.len())
            .zip(owners.iter().zip(&self.owners))
            .zip(cells.iter().zip(now))
            // (a line reads a cell's `zoc` and `present` only)
            .filter(|((_, (o0, o1)), (c0, c1))| {
                o0 != o1 || c0.zoc != c1.zoc || c0.present != c1.present
            })
            .map(|((h, _), _)| h)
            .collect();
        let before = (owners.as_slice(), cells.as_slice());
        let current = (self.owners.as_slice(), &self.occ);
        self.supply_fields.retain(|(_, _, sources, field)| {
            field.unchanged_by(map, rules, sources, &changed, before, current)
        });
        if !self.supply_fields.is_empty() {
            self.traced_on = Some((self.owners.clone(), now.to_vec()));
        }
    }

    /// The units made the state's by `merge_units` (units entered or left play), the index and
    /// the occupancy following them: how the occupancy stands now.
    fn merge(
        &mut self,
        kept: Vec<Unit>,
        state: &GameState,
        differs: impl Fn(&Unit, &Unit) -> bool,
        map: &HexMap,
        rules: &PathRules,
    ) -> UnitsChanged {
        let (units, followed) = merge_units(kept, state, differs, map, rules, &mut self.occ);
        self.units = units;
        self.index = index_of(&self.units);
        match followed {
            Ok(()) => UnitsChanged::Followed,
            // (the rebuild reports the error)
            Err(_) => UnitsChanged::All,
        }
    }

    /// Brings the cache up to `state` by comparing them.
    fn compare_and_copy(
        &mut self,
        state: &GameState,
        map: &HexMap,
        rules: &PathRules,
    ) -> mlua::Result<()> {
        let same_ids = self.units.len() == state.units.len()
            && self
                .units
                .iter()
                .zip(state.units.values())
                .all(|(kept, now)| kept.id == now.id);
        let units = if same_ids {
            let mut changed = Vec::new();
            for (i, (kept, now)) in self.units.iter_mut().zip(state.units.values()).enumerate() {
                if kept != now {
                    copy_unit(kept, now);
                    changed.push(i);
                }
            }
            UnitsChanged::These(changed)
        } else {
            let kept = std::mem::take(&mut self.units);
            self.merge(kept, state, |k, now| k != now, map, rules)
        };
        let control_changed = self.control_stale
            || self.control.len() != state.control.len()
            || self
                .control
                .iter()
                .zip(&state.control)
                .any(|((k, v), (label, side))| k != label || v != side);
        if control_changed {
            self.control.truncate(state.control.len());
            for (i, (label, side)) in state.control.iter().enumerate() {
                match self.control.get_mut(i) {
                    Some((k, v)) => {
                        k.clone_from(label);
                        v.clone_from(side);
                    }
                    None => self.control.push((label.clone(), side.clone())),
                }
            }
            self.owners = owners_of(state, map, rules);
            self.control_stale = false;
        }
        self.rebuild(map, rules, units, control_changed)
    }
}

/// Which of the cache's units changed since the occupancy was made.
enum UnitsChanged {
    /// These (by index): the occupancy follows them one by one.
    These(Vec<usize>),
    /// Units entered or left play (the indices moved): the occupancy is built again.
    All,
    /// The occupancy followed the units that entered, left or changed already.
    Followed,
}

fn index_of(units: &[Unit]) -> BTreeMap<String, usize> {
    units
        .iter()
        .enumerate()
        .map(|(i, u)| (u.id.clone(), i))
        .collect()
}

/// The state's units, in its order, reusing the kept copy of each unit still there (matched by
/// id: both lists are in the state's order, so one walk pairs them); a kept unit is made equal
/// to the state's when `differs(kept, now)` says so (a comparison, or the revision naming it).
/// `occ` (built on `kept`, in its order) follows each unit that leaves, enters or changes; the
/// answer is an error once one of its steps failed (the occupancy then half followed: the caller
/// builds it again).
fn merge_units(
    kept: Vec<Unit>,
    state: &GameState,
    differs: impl Fn(&Unit, &Unit) -> bool,
    map: &HexMap,
    rules: &PathRules,
    occ: &mut Occupancy,
) -> (Vec<Unit>, Result<(), crate::path::PositionError>) {
    let mut kept = kept.into_iter().peekable();
    let mut out = Vec::with_capacity(state.units.len());
    let mut followed = Ok(());
    // (the occupancy's unit at `out.len()` is the next kept one: those before it are `out`'s)
    let mut follow = |step: &mut dyn FnMut(&mut Occupancy) -> Result<bool, _>| {
        if followed.is_ok() {
            followed = step(occ).map(|_| ());
        }
    };
    for now in state.units.values() {
        while kept.peek().is_some_and(|k| k.id < now.id) {
            kept.next();
            follow(&mut |occ| occ.remove_unit(map, rules, out.len()));
        }
        match kept.next_if(|k| k.id == now.id) {
            Some(mut k) => {
                if differs(&k, now) {
                    copy_unit(&mut k, now);
                    follow(&mut |occ| occ.update_unit(map, rules, out.len(), &k));
                }
                out.push(k);
            }
            None => {
                follow(&mut |occ| occ.insert_unit(map, rules, out.len(), now));
                out.push(now.clone());
            }
        }
    }
    for _ in kept {
        follow(&mut |occ| occ.remove_unit(map, rules, out.len()));
    }
    (out, followed)
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

/// The hex map `hex.path` works on, or the error for an area board.
pub(crate) fn path_map(lua: &Lua) -> mlua::Result<Arc<HexMap>> {
    with_host(lua, |h| h.map.as_hex().cloned())?.ok_or_else(|| {
        mlua::Error::runtime("hex.path works on hex maps; this scenario's map is an area map")
    })
}

fn rules_of(lua: &Lua) -> mlua::Result<(Arc<HexMap>, Arc<PathRules>)> {
    let map = path_map(lua)?;
    let (rules, varies) = with_host(lua, |h| (h.path.clone(), h.path_variants.is_some()))?;
    let rules = rules.ok_or_else(|| {
        mlua::Error::runtime("hex.path: the rules declare no movement table (hex.rules.declare(\"movement\", {...}))")
    })?;
    if varies {
        return Ok((map, rules_in_force(lua, rules)?));
    }
    Ok((map, rules))
}

/// The rules `costs_by_variable` selects in the current state (mud while it rains), or
/// `declared` (kept apart from `rules_of`, whose usual path stays as short as it was).
#[inline(never)]
fn rules_in_force(lua: &Lua, declared: Arc<PathRules>) -> mlua::Result<Arc<PathRules>> {
    let Some(variants) = with_host(lua, |h| h.path_variants.clone())? else {
        return Ok(declared);
    };
    let chosen = with_state(lua, |state| Ok(variants.in_force(state).cloned()))?;
    Ok(chosen.unwrap_or(declared))
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
    f: impl FnOnce(&HexMap, &PathRules, &mut PathCache) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let (map, rules) = rules_of(lua)?;
    let (generation, kept) = with_host(lua, |h| (h.generation, h.path_cache.take()))?;
    let rules_id = Arc::as_ptr(&rules) as usize;
    let mut cache = match kept {
        // (within one call the state, and so the rules in force, cannot change)
        Some(c) if c.generation == generation => c,
        Some(c) if c.rules_id != rules_id => with_state(lua, |state| {
            PathCache::build(state, &map, &rules, generation)
        })?,
        Some(mut c) => {
            with_state(lua, |state| c.refresh(state, &map, &rules))?;
            c
        }
        None => with_state(lua, |state| {
            PathCache::build(state, &map, &rules, generation)
        })?,
    };
    cache.generation = generation;
    let result = f(&map, &rules, &mut cache);
    with_host(lua, |h| h.path_cache = Some(cache))?;
    result
}

/// A hex's label from the VM's list (`""` cannot happen for a hex of the map).
pub(crate) fn label(labels: &[String], hex: HexIndex) -> &str {
    labels.get(hex as usize).map_or("", String::as_str)
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
    Mp::from_f64(mp).ok_or_else(|| {
        // (a unit's own allowance is checked where units come from; one a rule set is named)
        let whose = match budget {
            Some(_) => String::new(),
            None => format!(" (the ma of unit '{}')", unit.id),
        };
        mlua::Error::runtime(format!(
            "hex.path: {mp}{whose} is not a valid MP budget: 64ths of a movement point, below {}",
            Mp::BELOW
        ))
    })
}

/// The hexes of a path's labels, or why one is not a hex (a refusal's reason, for players).
fn labels_to_hexes(map: &HexMap, labels: &[String]) -> Result<Vec<HexIndex>, String> {
    labels
        .iter()
        .map(|l| {
            map.parse_label(l)
                .ok_or_else(|| format!("'{l}' is not a hex of the map{}", map.labels_hint()))
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
/// A `blocked` list of labels as one flag per hex (the searches' form).
fn blocked_set(lua: &Lua, map: &HexMap, list: &Table) -> mlua::Result<Vec<bool>> {
    let mut set = vec![false; map.len() as usize];
    for h in super::map::hex_list(lua, map, list, "blocked")? {
        set[h as usize] = true;
    }
    Ok(set)
}

/// `hex.path.supply`'s sources: a list of source tables. One source given bare (`{side = "blue",
/// hexes = {...}}`) was read as an empty list, and every unit answered unsupplied.
fn source_list(sources: &Table) -> mlua::Result<Vec<Table>> {
    let n = sources.raw_len();
    let mut out = Vec::with_capacity(n);
    let mut not_list = Vec::new();
    for pair in sources.pairs::<Value, Value>() {
        let (key, value) = pair?;
        match (key, value) {
            (Value::Integer(i), Value::Table(t)) if i >= 1 && (i as usize) <= n => {
                out.push((i as usize, t))
            }
            (Value::Integer(i), other) if i >= 1 && (i as usize) <= n => {
                return Err(mlua::Error::runtime(format!(
                    "hex.path.supply: source #{i}: table expected, got {}",
                    other.type_name()
                )))
            }
            (key, _) => not_list.push(
                crate::spelling::clipped(&crate::rules::error::value_in_message(&key), 40)
                    .into_owned(),
            ),
        }
    }
    if !not_list.is_empty() {
        // (sorted: `pairs` visits the keys in an order that may change from run to run)
        not_list.sort();
        let bare = not_list.iter().any(|k| k == "side" || k == "hexes");
        return Err(mlua::Error::runtime(format!(
            "hex.path.supply: a list of sources {{ {{ side = ..., hexes = {{...}} }}, ... }} \
             expected, got a table with the keys {}{}",
            not_list
                .iter()
                .map(|k| format!("'{k}'"))
                .collect::<Vec<_>>()
                .join(", "),
            if bare {
                " (one source: put it in a list, { { side = ... } })"
            } else {
                ""
            }
        )));
    }
    // (`pairs` visits a list in any order: the sources in theirs)
    out.sort_by_key(|&(at, _)| at);
    Ok(out.into_iter().map(|(_, t)| t).collect())
}

pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    // reach(unit, budget?, {paths = true, blocked = {labels}}?) -> { [label] = cost } or
    // { [label] = {cost, path} }; `blocked`: hexes the search never enters
    t.raw_set(
        "reach",
        lua.create_function(
            |lua, (id, budget, opts): (String, Option<f64>, Option<Table>)| {
                super::only_options(lua, opts.as_ref(), &["paths", "blocked"], "hex.path.reach")?;
                let paths = opts
                    .as_ref()
                    .map(|o| o.raw_get::<bool>("paths").unwrap_or(false))
                    .unwrap_or(false);
                let blocked: Option<Table> = match &opts {
                    Some(o) => {
                        super::option(o, "blocked", "hex.path.reach", "a list of hex labels")?
                    }
                    None => None,
                };
                with_position(lua, |map, rules, cache| {
                    let unit = &cache.units[unit_index(cache, &id)?];
                    let budget = budget_of(unit, budget)?;
                    let blocked = match &blocked {
                        None => None,
                        Some(list) => Some(blocked_set(lua, map, list)?),
                    };
                    let mut search = with_host(lua, |h| h.reach_search.take())?
                        .unwrap_or_else(|| ReachSearch::new(map));
                    let reach = search
                        .reach_avoiding(map, rules, &cache.occ, unit, budget, blocked.as_deref())
                        .map_err(runtime);
                    with_host(lua, |h| h.reach_search = Some(search))?;
                    let reach = reach?;
                    charge_search(lua, reach.len() + 1)?;
                    // (the labels the writer pushes, interned on first use)
                    labels(lua, map)?;
                    if !paths {
                        let hexes = reach.hexes();
                        // (only borrows: see writer.rs)
                        return write::<Table, _>(lua, (), |w| {
                            w.table(0, hexes.len());
                            for r in hexes {
                                w.float(r.cost.as_f64());
                                w.set_label(r.hex);
                            }
                        });
                    }
                    // (charged before the paths are built: their total length grows as the
                    // hexes times the MA)
                    let parents = reach.parent_indices();
                    let lengths = crate::path::Reach::path_lengths(&parents);
                    charge_listed(lua, lengths.iter().map(|&l| l as usize).sum())?;
                    // As a move order gives it: the hexes entered, not the start; each its
                    // parent's path and one hex more (settled after it).
                    let mut entries: Vec<(HexIndex, f64, Vec<HexIndex>)> =
                        Vec::with_capacity(parents.len());
                    for ((r, parent), &len) in reach.hexes().iter().zip(&parents).zip(&lengths) {
                        let mut path = Vec::with_capacity(len as usize);
                        if let Some(before) = parent.and_then(|p| entries.get(p)) {
                            path.extend_from_slice(&before.2);
                        }
                        path.push(r.hex);
                        entries.push((r.hex, r.cost.as_f64(), path));
                    }
                    let entries = entries.as_slice();
                    // (only borrows: see writer.rs)
                    write::<Table, _>(lua, (), |w| {
                        w.table(0, entries.len());
                        for (hex, cost, path) in entries {
                            w.table(0, 2);
                            w.float(*cost);
                            w.set("cost");
                            w.table(path.len(), 0);
                            for (i, &h) in path.iter().enumerate() {
                                w.label(h);
                                w.set_item(i + 1);
                            }
                            w.set("path");
                            w.set_label(*hex);
                        }
                    })
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
                    // (a path that goes nowhere is no move: refused, never a free one; a
                    // malformed command, as the engine refuses a `Command::Move` so built)
                    if path.is_empty() {
                        return Ok(Value::Table(refusal(
                            lua,
                            "command",
                            crate::engine::Refusal::NO_PATH,
                        )?));
                    }
                    let mut hexes = vec![start];
                    match labels_to_hexes(map, &path) {
                        Ok(h) => hexes.extend(h),
                        // (a place not on the board: a malformed command, the engine's rule)
                        Err(why) => return Ok(Value::Table(refusal(lua, "command", &why)?)),
                    }
                    charge_search(lua, hexes.len())?;
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
        lua.create_function(|lua, sources: Table| {
            let sources = source_list(&sources)?;
            with_position(lua, |map, rules, cache| {
                let mut sets = Vec::new();
                for (i, s) in sources.into_iter().enumerate() {
                    let what = format!("hex.path.supply: source #{}", i + 1);
                    // (a misspelt `hexs` was refused as `hexes: table expected, got nil`)
                    super::only_keys(lua, &s, &["side", "nations", "hexes"], &what)?;
                    let side: String = super::field(&s, "side", &what)?;
                    let side = rules
                        .profile
                        .side_named(&side, "hex.path.supply")
                        .map_err(mlua::Error::runtime)?;
                    let nations: Option<Vec<String>> = super::field(&s, "nations", &what)?;
                    let hexes: Table = super::field(&s, "hexes", &what)?;
                    sets.push(SourceSet {
                        side,
                        nations: nations.unwrap_or_default(),
                        hexes: super::map::hex_list(lua, map, &hexes, "hex.path.supply: hexes")?,
                    });
                }
                // (each group's field through the cache: one traced for this position before,
                // by `toward` or an earlier call, is not traced again, and one traced here
                // serves the bots' next `toward`)
                let (mut supplied, groups) = supply_groups(rules, &cache.occ, &sets, &cache.units);
                for group in &groups {
                    let i = cache
                        .supply_field(map, rules, group.side, group.class, &group.sources)
                        .map_err(runtime)?;
                    let field = cache
                        .supply_field_at(i)
                        .ok_or_else(|| runtime("hex.path: supply field missing"))?;
                    for &(unit, hex) in &group.members {
                        supplied[unit] = Some(field.supplies(map, rules, hex));
                    }
                }
                // (each search may cover the map)
                charge_search(lua, groups.len() * map.len() as usize)?;
                charge_listed(lua, cache.units.len())?;
                let (units, supplied) = (cache.units.as_slice(), supplied.as_slice());
                // (only borrows: see writer.rs)
                write::<Table, _>(lua, (), |w| {
                    w.table(0, supplied.iter().flatten().count());
                    for (unit, supplied) in units.iter().zip(supplied) {
                        if let Some(s) = supplied {
                            w.bool(*s);
                            w.set(&unit.id);
                        }
                    }
                })
            })
        })?,
    )?;
    // supplied_hexes(side, class, {source labels}) -> the labels where a unit of that side and
    // class would be supplied (F40-11.1: "a supplied city"), in index order
    t.raw_set(
        "supplied_hexes",
        lua.create_function(|lua, (side, class, sources): (String, String, Table)| {
            with_position(lua, |map, rules, cache| {
                let what = "hex.path.supplied_hexes";
                let side_id = rules.profile.side_named(&side, what).map_err(runtime)?;
                let class_id = rules.profile.class_named(&class, what).map_err(runtime)?;
                let sources =
                    super::map::hex_list(lua, map, &sources, "hex.path.supplied_hexes: sources")?;
                // (the field covers the map, traced now or kept from an earlier call)
                charge_search(lua, map.len() as usize)?;
                let i = cache
                    .supply_field(map, rules, side_id, class_id, &sources)
                    .map_err(runtime)?;
                let field = cache
                    .supply_field_at(i)
                    .ok_or_else(|| runtime("hex.path: supply field missing"))?;
                let hexes: Vec<HexIndex> = (0..map.len())
                    .filter(|&h| field.supplies(map, rules, h))
                    .collect();
                label_list(lua, map, hexes)
            })
        })?,
    )?;
    // control() -> the ControlChanged events that F40-7.1-style territory rules call for now
    t.raw_set(
        "control",
        lua.create_function(|lua, ()| {
            with_position(lua, |map, rules, cache| {
                charge_listed(lua, map.len() as usize)?;
                let sides = rules.profile.sides();
                let changed: Vec<(HexIndex, Option<&str>)> =
                    control_changes(&cache.occ, &cache.owners)
                        .map_err(runtime)?
                        .into_iter()
                        .map(|(hex, side)| (hex, sides.get(side as usize).map(String::as_str)))
                        .collect();
                let changed = changed.as_slice();
                labels(lua, map)?;
                // (only borrows: see writer.rs)
                write::<Table, _>(lua, (), |w| {
                    w.table(changed.len(), 0);
                    for (i, (hex, side)) in changed.iter().enumerate() {
                        w.table(0, 3);
                        w.str("ControlChanged");
                        w.set("event");
                        w.label(*hex);
                        w.set("hex");
                        w.opt_str(*side);
                        w.set("side");
                        w.set_item(i + 1);
                    }
                })
            })
        })?,
    )?;
    // rail(unit) -> labels the unit may reach by rail
    t.raw_set(
        "rail",
        lua.create_function(|lua, (id, opts): (String, Option<Table>)| {
            super::only_options(lua, opts.as_ref(), &["blocked"], "hex.path.rail")?;
            let blocked: Option<Table> = match &opts {
                Some(o) => super::option(o, "blocked", "hex.path.rail", "a list of hex labels")?,
                None => None,
            };
            with_position(lua, |map, rules, cache| {
                let unit = &cache.units[unit_index(cache, &id)?];
                let blocked = match &blocked {
                    None => None,
                    Some(list) => Some(blocked_set(lua, map, list)?),
                };
                let hexes = rail_destinations(
                    map,
                    rules,
                    &cache.occ,
                    &cache.owners,
                    unit,
                    blocked.as_deref(),
                )
                .map_err(runtime)?;
                // (a mark per hex of the map, then a search through the hexes it reaches)
                charge_listed(lua, map.len() as usize)?;
                charge_search(lua, hexes.len())?;
                label_list(lua, map, hexes)
            })
        })?,
    )?;
    // zoc(label) -> the sides exerting ZOC in the hex
    t.raw_set(
        "zoc",
        lua.create_function(|lua, label: String| {
            with_position(lua, |map, rules, cache| {
                let hex = map.parse_label(&label).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "'{label}' is not a hex of the map{}",
                        map.labels_hint()
                    ))
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
    // may_retreat_into(unit, label, friendly?) -> F40-6.6-style retreat check; `friendly`
    // overrides whether a unit of the side is in the hex (retreats judged one after another)
    t.raw_set(
        "may_retreat_into",
        lua.create_function(
            |lua, (id, label, friendly): (String, String, Option<bool>)| {
                with_position(lua, |map, rules, cache| {
                    let i = unit_index(cache, &id)?;
                    let unit = &cache.units[i];
                    let hex = map.parse_label(&label).ok_or_else(|| {
                        mlua::Error::runtime(format!(
                            "'{label}' is not a hex of the map{}",
                            map.labels_hint()
                        ))
                    })?;
                    let side = rules.profile.side_of(unit).map_err(runtime)?;
                    let class = rules.profile.class_of(unit).map_err(runtime)?;
                    Ok(rules
                        .zoc
                        .may_retreat_into(&cache.occ, side, class, hex, friendly))
                })
            },
        )?,
    )?;
    hex.raw_set("path", t)
}
