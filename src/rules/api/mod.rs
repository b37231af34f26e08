//! The `hex.*` API, one namespace per file, each registered by its own `register` function
//! (the wezterm pattern). Everything lives under the `hex` table; nothing else is global.
//!
//! Views are read-only: functions return fresh tables, and rules change the game only by
//! returning events.

mod area;
pub(crate) mod commands;
mod declared_view;
mod dice;
mod events;
mod facing;
mod legal;
pub(crate) mod log;
mod map;
mod path;
mod roster;
pub(crate) mod rules;
pub(crate) use rules::ORIGINS as DECLARATION_ORIGINS;
pub(crate) mod spec;
mod state;
mod toward;
mod units;
mod units_at;

pub(crate) use legal::lazy_list;

use std::sync::Arc;

use mlua::{AnyUserData, Function, Lua, Table, Value};

use crate::board::Board;
use crate::engine::{Dice, Event, GameState};
use crate::rules::lua_stack::writer;

/// Registry keys of the host's own tables.
pub(crate) const COMMANDS_KEY: &str = "hexwar.commands";
pub(crate) const HANDLERS_KEY: &str = "hexwar.handlers";
pub(crate) const DECLARATIONS_KEY: &str = "hexwar.declarations";
pub(crate) const REFUSAL_MT_KEY: &str = "hexwar.refusal";
/// The registry's table of the API's functions by value, each to its name (`hex.map.neighbors`):
/// an error caught by `pcall(hex.map.neighbors, {})` has no traceback frame naming it.
pub(crate) const FUNCTION_NAMES_KEY: &str = "hexwar.function_names";

/// What the API functions share with the host (kept in the VM's app data).
pub(crate) struct HostData {
    pub map: Board,
    pub sides: Vec<String>,
    /// True while rules modules load (the data stage): declarations allowed, no game state.
    pub loading: bool,
    /// Dice state at the start of the current call.
    pub dice: Dice,
    /// `DiceRolled` events of the current call, in order.
    pub rolls: Vec<Event>,
    /// Values a Lua test set for the next rolls (`t.dice`), taken before the seeded ones.
    pub forced_dice: std::collections::VecDeque<u32>,
    /// The most rolls one call may make: each is an event of the command, so the scenario's
    /// `events_per_command` (checked after the call; a loop of rolls held gigabytes first).
    pub max_rolls: usize,
    /// What scripts printed.
    pub log: Vec<String>,
    /// Lines printed while `log` was full since it was last read: said, not dropped silently.
    pub log_dropped: u64,
    pub turn_limit: u32,
    /// The sequence of play, for `hex.state.phase()`.
    pub sequence: crate::engine::Sequence,
    /// The compiled `movement` declaration, if the rules made one.
    pub path: Option<Arc<crate::path::PathRules>>,
    /// The declaration's `costs_by_variable` compiled (docs/movement.md): the searches take
    /// the rules its variable's value selects instead of `path`.
    pub path_variants: Option<Arc<crate::path::CostVariants>>,
    /// The compiled `facing` declaration (docs/facing.md), if the rules declare one.
    pub facing: Option<Arc<crate::path::FacingRules>>,
    /// The map changes `map`, `path`, `path_variants` and `facing` were made for (the state's
    /// `map_changes` of the last call; empty: the scenario's map).
    pub map_changes: crate::engine::MapChanges,
    /// The scenario's map and declarations, and the maps play changed (map_in_force.rs);
    /// None while the modules load.
    pub map_source: Option<Box<crate::rules::map_in_force::MapSource>>,
    /// The game state of the current call (a scoped userdata; None between calls and while
    /// modules load). Kept here rather than in the registry: read at every host call, and a
    /// registry read by name costs a Lua string.
    pub state: Option<AnyUserData>,
    /// Bumped at every call into Lua: within one call the state cannot change.
    pub generation: u64,
    pub path_cache: Option<path::PathCache>,
    /// Step fields `hex.path.toward` computed, by targets (they depend on the map only).
    pub step_fields: toward::StepFields,
    /// Every hex's label in index order, made on first use (the board formats them on demand).
    pub labels: Option<Arc<[String]>>,
    /// The terrain names as Lua strings, made on first use (`hex.map.terrain`).
    pub terrain_strings: Option<Vec<mlua::LuaString>>,
    /// The registry tables of interned view keys and labels (writer.rs).
    pub key_strings: Option<mlua::RegistryKey>,
    pub label_strings: Option<mlua::RegistryKey>,
    /// The registry table label -> hex index (the inverse of `label_strings`), for reading lists
    /// of labels without copying or parsing them (`lua_stack::reader::hex_indices`).
    pub label_index: Option<mlua::RegistryKey>,
    pub reach_search: Option<crate::path::ReachSearch>,
    /// `hex.units.at`'s units by place, per position (units_at.rs).
    pub units_at: Option<units_at::UnitsAt>,
    /// The files `require` loaded, in order: what the game runs (saves and replays compare
    /// these, not every file of a module's folder).
    pub loaded_files: Vec<std::path::PathBuf>,
}

impl HostData {
    /// The host data of a VM about to load its modules.
    pub(crate) fn new(map: Board, sides: Vec<String>, turn_limit: u32) -> HostData {
        HostData {
            map,
            sides,
            loading: true,
            dice: Dice::new(0),
            rolls: Vec::new(),
            forced_dice: Default::default(),
            max_rolls: crate::scenario::Limits::default().events_per_command as usize,
            log: Vec::new(),
            log_dropped: 0,
            turn_limit,
            sequence: crate::engine::Sequence::default(),
            path: None,
            path_variants: None,
            facing: None,
            map_changes: Default::default(),
            map_source: None,
            state: None,
            generation: 0,
            path_cache: None,
            step_fields: Default::default(),
            labels: None,
            terrain_strings: None,
            key_strings: None,
            label_strings: None,
            label_index: None,
            reach_search: None,
            units_at: None,
            loaded_files: Vec::new(),
        }
    }
}

/// Builds the `hex` table and installs it as a global.
pub(crate) fn register_all(lua: &Lua) -> mlua::Result<()> {
    let hex = build(lua)?;
    lua.set_named_registry_value(FUNCTION_NAMES_KEY, lua.create_table()?)?;
    lua.globals().raw_set("hex", read_only(lua, hex)?)?;
    Ok(())
}

/// Builds the `hex` table (every namespace; not yet read-only). The LuaLS generator walks it.
pub(crate) fn build(lua: &Lua) -> mlua::Result<Table> {
    let hex = lua.create_table()?;
    hex.raw_set("api_version", super::API_VERSION)?;
    for key in [COMMANDS_KEY, DECLARATIONS_KEY] {
        lua.set_named_registry_value(key, lua.create_table()?)?;
    }
    lua.set_named_registry_value(HANDLERS_KEY, lua.create_table()?)?;
    // (locked: a script that reached it through getmetatable(hex.refuse(...)) could give it a
    // `__gc` the host's own set_metatable would then plant on every refusal, run with hooks off)
    let refusal_mt = lua.create_table()?;
    refusal_mt.raw_set(
        "__metatable",
        "refusals' metatable is locked in hexwar rules",
    )?;
    lua.set_named_registry_value(REFUSAL_MT_KEY, refusal_mt)?;
    let keys = writer::intern_keys(lua)?;
    // (the LuaLS generator builds the API in a VM without host data)
    let _ = with_host(lua, |h| h.key_strings = Some(keys));
    map::register(lua, &hex)?;
    path::register(lua, &hex)?;
    toward::register(lua, &hex.raw_get::<Table>("path")?)?;
    facing::register(lua, &hex)?;
    units::register(lua, &hex)?;
    roster::register(lua, &hex.raw_get::<Table>("units")?)?;
    state::register(lua, &hex)?;
    dice::register(lua, &hex)?;
    events::register(lua, &hex)?;
    commands::register(lua, &hex)?;
    rules::register(lua, &hex)?;
    log::register(lua, &hex)?;
    if super::profile::enabled() {
        super::profile::wrap_host_functions(lua, &hex)?;
    }
    Ok(hex)
}

/// Wraps a table so scripts cannot add, replace or inspect its fields' metatable.
pub(crate) fn read_only(lua: &Lua, table: Table) -> mlua::Result<Table> {
    read_only_named(lua, table, "hex")
}

/// `read_only` of the namespace `name` (`hex.events`): reading a member it lacks is an error
/// with the nearest name (`hex.events.onn(...)` was `attempt to call a nil value (field
/// 'onn')`). Only a missing member costs anything: the members are read from the table
/// itself, its metatable asked only on a miss.
fn read_only_named(lua: &Lua, table: Table, name: &str) -> mlua::Result<Table> {
    let mut members = Vec::new();
    for pair in table.clone().pairs::<Value, Value>() {
        let (key, value) = pair?;
        let member = crate::rules::error::value_in_message(&key);
        match value {
            Value::Table(inner) => table.raw_set(
                key,
                read_only_named(lua, inner, &format!("{name}.{member}"))?,
            )?,
            Value::Function(f) => {
                if let Ok(names) = lua.named_registry_value::<Table>(FUNCTION_NAMES_KEY) {
                    names.raw_set(f, format!("{name}.{member}"))?;
                }
            }
            _ => {}
        }
        members.push(member);
    }
    members.sort();
    let missing = lua
        .load(
            r#"local name, members, nearest = ...
return function(_, key)
  local near = type(key) == "string" and nearest(key, members) or nil
  error(name .. " has no member '" .. tostring(key) .. "'"
    .. (near and (" (did you mean '" .. near .. "'?)") or "")
    .. " (its members: " .. table.concat(members, ", ") .. ")", 2)
end"#,
        )
        .set_name("=hexwar host")
        .call::<Function>((
            name,
            members.clone(),
            lua.create_function(|_, (key, members): (String, Vec<String>)| {
                Ok(
                    crate::spelling::nearest(&key, members.iter().map(String::as_str), 0)
                        .map(str::to_string),
                )
            })?,
        ))?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", missing)?;
    meta.raw_set("__metatable", "the hex API is read-only")?;
    table.set_metatable(Some(meta))?;
    let proxy = lua.create_table()?;
    let refuse = lua.create_function(|_, (_t, key, _v): (Value, Value, Value)| -> mlua::Result<()> {
        Err(mlua::Error::runtime(format!(
            "the hex API is read-only (tried to set '{}'); rules change the game by returning events",
            crate::rules::error::value_in_message(&key)
        )))
    })?;
    lock_in_front(lua, &proxy, table, refuse, "the hex API is read-only")?;
    Ok(proxy)
}

/// Puts `front` before `behind`: reads go through to `behind`, a write of a missing key calls
/// `on_write(front, key, value)` (which refuses it, or stores it where it sees fit), the
/// metatable is hidden behind `hidden` and `rawset` refuses `front` (`sandbox::guard_rawset`
/// reads the `__hexwar_read_only` mark). The `hex` tables, the libraries and the globals are
/// locked this way.
pub(crate) fn lock_in_front(
    lua: &Lua,
    front: &Table,
    behind: Table,
    on_write: Function,
    hidden: &'static str,
) -> mlua::Result<()> {
    let meta = lua.create_table()?;
    meta.raw_set("__index", behind)?;
    meta.raw_set("__newindex", on_write)?;
    meta.raw_set("__metatable", hidden)?;
    meta.raw_set("__hexwar_read_only", true)?;
    front.set_metatable(Some(meta))
}

/// Runs `f` on the game state of the current call.
pub(crate) fn with_state<R>(
    lua: &Lua,
    f: impl FnOnce(&GameState) -> mlua::Result<R>,
) -> mlua::Result<R> {
    match with_host(lua, |h| h.state.clone())? {
        Some(ud) => ud.borrow_scoped::<GameState, _>(f)?,
        None => Err(mlua::Error::runtime(
            "the game state is not available while rules modules load (declare data at load time; read state in handlers)",
        )),
    }
}

/// Runs `f` on the host data.
pub(crate) fn with_host<R>(lua: &Lua, f: impl FnOnce(&mut HostData) -> R) -> mlua::Result<R> {
    let mut host = lua
        .app_data_mut::<HostData>()
        .ok_or_else(|| mlua::Error::runtime("hexwar host data missing"))?;
    Ok(f(&mut host))
}

/// Refuses a call that is only allowed while modules load.
pub(crate) fn require_loading(lua: &Lua, what: &str) -> mlua::Result<()> {
    if with_host(lua, |h| h.loading)? {
        Ok(())
    } else {
        Err(mlua::Error::runtime(format!(
            "{what} may only be called while rules modules load, not during play (state must not live in closures)"
        )))
    }
}

/// A list of strings as a Lua sequence.
pub(crate) fn string_list<'a>(
    lua: &Lua,
    items: impl IntoIterator<Item = &'a str>,
) -> mlua::Result<Table> {
    let items: Vec<&str> = items.into_iter().collect();
    let items = items.as_slice();
    // (only borrows: see writer.rs)
    writer::write(lua, (), |w| {
        w.table(items.len(), 0);
        for (i, item) in items.iter().enumerate() {
            w.str(item);
            w.set_item(i + 1);
        }
    })
}

/// Refuses a table with a key other than `allowed` (a misspelt key, silently ignored else):
/// `{what}: unknown key 'legals' (did you mean 'legal'?) (the keys: resolve, legal)`.
pub(crate) fn only_keys(lua: &Lua, t: &Table, allowed: &[&str], what: &str) -> mlua::Result<()> {
    match crate::rules::lua_stack::reader::key_not_in(lua, t, allowed)? {
        None => Ok(()),
        Some(key) => Err(unknown_key(what, key, allowed)),
    }
}

/// The error of an unknown key (`Ok(name)`) or of a key that is no name (`Err(its type)`).
fn unknown_key(what: &str, key: Result<String, String>, allowed: &[&str]) -> mlua::Error {
    let key = match key {
        Ok(name) => {
            let near = crate::spelling::nearest(&name, allowed.iter().copied(), 3)
                .map(|n| format!(" (did you mean '{n}'?)"))
                .unwrap_or_default();
            format!("unknown key '{name}'{near}")
        }
        Err(kind) => format!("a key that is a {kind}, not a name"),
    };
    mlua::Error::runtime(format!("{what}: {key} (the keys: {})", allowed.join(", ")))
}

/// Refuses a side the scenario lacks (`hex.units.ids("blu")` answered no unit, as if the side
/// had none): `{what}: the scenario has no side 'blu' (did you mean 'blue'?; sides: blue, red)`.
pub(crate) fn known_side(lua: &Lua, side: &str, what: &str) -> mlua::Result<()> {
    with_host(lua, |h| {
        if h.sides.is_empty() || h.sides.iter().any(|s| s == side) {
            return Ok(());
        }
        let near = crate::spelling::nearest(side, h.sides.iter().map(String::as_str), 3)
            .map(|n| format!("did you mean '{n}'?; "))
            .unwrap_or_default();
        Err(mlua::Error::runtime(format!(
            "{what}: the scenario has no side '{side}' ({near}sides: {})",
            h.sides.join(", ")
        )))
    })?
}

/// The options table a query takes, when given: a misspelt option (`withut`, `nearst_first`)
/// was read as absent and the call answered as if it had not been asked. (Checked on the Lua
/// stack, `key_not_in`: a query runs thousands of times a game.)
pub(crate) fn only_options(
    lua: &Lua,
    opts: Option<&Table>,
    allowed: &[&str],
    what: &str,
) -> mlua::Result<()> {
    let Some(t) = opts else { return Ok(()) };
    match crate::rules::lua_stack::reader::key_not_in(lua, t, allowed)? {
        None => Ok(()),
        Some(key) => Err(unknown_key(&format!("{what}: options"), key, allowed)),
    }
}

/// Field `key` of a table a script handed over, or an error naming the field in a script's
/// words (`hex.path.supply: source #1: side: string expected, got table`), where mlua's names
/// neither the field nor a Lua type.
pub(crate) fn field<T: mlua::FromLua>(t: &Table, key: &str, what: &str) -> mlua::Result<T> {
    t.raw_get::<T>(key)
        .map_err(|e| match crate::rules::error::conversion(&e) {
            Some(why) => mlua::Error::runtime(format!("{what}: {key}: {why}")),
            None => e,
        })
}

/// Option `key` of a query's options table, or an error naming the function, the option and
/// what it takes (`hex.units.ids: option 'with': a list of status names expected, got string
/// "moved"`), where mlua's named neither (`list expected, got string`).
pub(crate) fn option<T: mlua::FromLua>(
    t: &Table,
    key: &str,
    what: &str,
    expected: &str,
) -> mlua::Result<T> {
    t.raw_get::<T>(key)
        .map_err(|e| match crate::rules::error::conversion(&e) {
            Some(_) => bad_option(what, key, expected, &t.raw_get(key).unwrap_or(Value::Nil)),
            None => e,
        })
}

/// The error of option `key` of `what` holding `given` where it takes `expected`.
pub(crate) fn bad_option(what: &str, key: &str, expected: &str, given: &Value) -> mlua::Error {
    let given = match given {
        Value::String(s) => format!(
            "string \"{}\"",
            crate::spelling::clipped(&s.to_string_lossy(), 40)
        ),
        Value::Integer(_) | Value::Number(_) | Value::Boolean(_) => format!(
            "{} {}",
            given.type_name(),
            crate::rules::error::value_in_message(given)
        ),
        other => other.type_name().to_string(),
    };
    mlua::Error::runtime(format!(
        "{what}: option '{key}': {expected} expected, got {given}"
    ))
}
