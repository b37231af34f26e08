//! `LuaRules`: a scenario's rules modules loaded into one sandboxed VM, as a [`Ruleset`].

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaSerdeExt, Table, Value};

use super::api::{
    self, with_host, HostData, COMMANDS_KEY, DECLARATIONS_KEY, HANDLERS_KEY, REFUSAL_MT_KEY,
};
use super::budget::Budget;
use super::convert::{command_from_lua, command_to_lua, event_to_lua, events_from_lua};
use super::error::describe;
use super::event_check::check_events;
use super::loader::{check_module_name, chunk_name, find_module};
use super::sandbox::new_vm;
use crate::engine::{
    Command, CommandFilter, Event, GameState, Outcome, Refusal, Resolution, RulesError,
    RulesErrorKind, Ruleset, Sequence,
};
use crate::rules::command_args::ArgSpec;
use crate::scenario::Scenario;

const LOADED_KEY: &str = "hexwar.loaded";

/// The rules could not be loaded; one message per problem, each with file and line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .errors.join("\n"))]
pub struct RulesLoadError {
    pub errors: Vec<String>,
    /// What the scripts printed (`print`, `hex.log`) while the modules loaded, before the
    /// error, a text each: a designer's `print` tracing the way to the error was lost with the
    /// VM (the CLI shows them as `script:` lines before the error).
    pub printed: Vec<String>,
    /// Which limit stopped the loading, if one did (the first such error's), else `Script`:
    /// a module that loops or allocates at load time is told apart from a syntax error.
    pub kind: RulesErrorKind,
}

struct CommandDef {
    resolve: Function,
    legal: Option<Function>,
    /// The arguments the command takes (`args` in its definition, checked there), with their
    /// kinds when declared; None when it declares none, and takes any.
    args: Option<Vec<ArgSpec>>,
}

/// The refusal of a command whose arguments do not fit its definition's `args`: one it does not
/// list (a misspelt `phase` would otherwise be dropped unread), or one missing or of the wrong
/// kind where kinds are declared (`command_args`); checked here, before the rules' `resolve`
/// runs, so rules need no loop of their own over the command's keys and types.
fn unknown_argument(def: &CommandDef, command: &Command) -> Option<Refusal> {
    let (Some(specs), Command::Custom { name, args }) = (&def.args, command) else {
        return None;
    };
    crate::rules::command_args::misfit(name, specs, args).map(|why| Refusal::new("command", why))
}

/// The first command of `list` (what command `name`'s `legal` listed) that the rules do not
/// define (`end_phase` aside, which the engine handles) or with an argument its command does not
/// declare: the listing's error, said as the listing's - read later as an
/// order, the command would be refused, and a bot taking it would be blamed.
fn listed_with_unknown_argument(
    commands: &BTreeMap<String, CommandDef>,
    name: &str,
    legal: &Function,
    list: &[Command],
) -> Result<(), RulesError> {
    for command in list {
        let Some(def) = commands.get(command.name()) else {
            // (a listed `zpa` that no rule handles: the random bot gave it, and was refused)
            if matches!(command, Command::EndPhase) {
                continue;
            }
            let near =
                crate::spelling::nearest(command.name(), commands.keys().map(String::as_str), 0)
                    .map(|c| format!(" (did you mean '{c}'?)"))
                    .unwrap_or_default();
            return Err(RulesError::new(format!(
                "legal '{name}' ({}) listed a command the rules do not define: '{}'{near}",
                origin_of(legal),
                crate::spelling::clipped(command.name(), 40)
            )));
        };
        if let Some(refusal) = unknown_argument(def, command) {
            return Err(RulesError::new(format!(
                "legal '{name}' ({}) listed a command its definition refuses: {}",
                origin_of(legal),
                refusal.reason
            )));
        }
    }
    Ok(())
}

/// A handler with where it was defined, for messages.
struct Handler {
    f: Function,
    /// Its priority: an event's handlers and the `"*"` ones run merged by it (`handlers`).
    priority: i64,
    origin: String,
    /// Where `hex.events.on`/`before` registered it (the function may be written elsewhere).
    registered_at: Option<String>,
}

/// A game's rules in Lua.
pub struct LuaRules {
    lua: Lua,
    budget: Arc<Budget>,
    memory_limit: usize,
    sequence: Sequence,
    /// The scenario's sides (`Ruleset::sides`: the engine refuses commands from any other).
    sides: Vec<String>,
    commands: BTreeMap<String, CommandDef>,
    before: BTreeMap<String, Vec<Handler>>,
    after: BTreeMap<String, Vec<Handler>>,
    victory: Option<Function>,
    /// Lua bots by module name.
    bots: BTreeMap<String, Function>,
    skip: Option<Function>,
    phase_label: Option<Function>,
    /// Step labels declared as data (`hex.rules.declare("phase_labels", ...)`): answered here,
    /// without a Lua call.
    labels: Option<LabelSpec>,
    /// `hex.rules.declare("play_only_phase", {var = ..., field = ...})`: a step is skipped when
    /// that field of that variable is a string other than the step's label.
    play_only: Option<(String, String)>,
    setup: Option<Function>,
    /// Declarations a later module (a mod) changed after another made them, with that
    /// module's file: `declared_at` names both.
    changed_by: BTreeMap<String, String>,
    /// The module tables' fields when loading ended (`Ruleset::changed_during_play`).
    fields_at_load: super::module_fields::ModuleFields,
}

/// The rules as a host's own wrapper shows them (`#[derive(Debug)]` on a struct holding them):
/// the sides, the commands and the VM's memory, not the VM itself.
impl std::fmt::Debug for LuaRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LuaRules")
            .field("sides", &self.sides)
            .field("commands", &self.commands.keys().collect::<Vec<_>>())
            .field("bots", &self.bots.keys().collect::<Vec<_>>())
            .field("memory_used", &self.lua.used_memory())
            .finish_non_exhaustive()
    }
}

/// Every declaration as JSON text, by key (functions and the host's own entries left out):
/// compared before and after a module loads, to learn which declarations it changed.
fn declarations_as_text(lua: &Lua) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(decls) = lua.named_registry_value::<Table>(DECLARATIONS_KEY) else {
        return out;
    };
    for (key, value) in decls.pairs::<String, Value>().flatten() {
        if key.starts_with("__") || !matches!(value, Value::Table(_)) {
            continue;
        }
        // (one that cannot be read, a number key, is a change too, whose error names it)
        let text = match super::bounded::json_from_value(lua, value) {
            Ok(json) => json.to_string(),
            Err(e) => format!("(unreadable: {e})"),
        };
        out.insert(key, text);
    }
    out
}

/// Labels `PREFIX YEAR SUFFIX` of each step of a turn, the year being `first_year + turn - 1`
/// ("S1901M").
#[derive(Debug)]
struct LabelSpec {
    first_year: i64,
    steps: Vec<(String, String)>,
}

impl LabelSpec {
    fn from_json(v: &serde_json::Value) -> Result<LabelSpec, String> {
        let expected = "expected { first_year = 1901, steps = { { \"S\", \"M\" }, ... } }";
        let first_year = v
            .get("first_year")
            .and_then(serde_json::Value::as_i64)
            .ok_or_else(|| format!("phase_labels: no integer first_year ({expected})"))?;
        let steps = v
            .get("steps")
            .and_then(serde_json::Value::as_array)
            .ok_or_else(|| format!("phase_labels: no list of steps ({expected})"))?
            .iter()
            .map(|s| match s.as_array().map(Vec::as_slice) {
                Some([serde_json::Value::String(a), serde_json::Value::String(b)]) => {
                    Ok((a.clone(), b.clone()))
                }
                _ => Err(format!(
                    "phase_labels: a step is not {{ prefix, suffix }} ({expected})"
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(LabelSpec { first_year, steps })
    }

    fn label(&self, turn: u32, step: u32) -> Option<String> {
        let (prefix, suffix) = self.steps.get(step as usize)?;
        Some(format!(
            "{prefix}{}{suffix}",
            self.first_year + i64::from(turn) - 1
        ))
    }
}

pub(crate) fn origin_of(f: &Function) -> String {
    let info = f.info();
    format!(
        "{}:{}",
        info.short_src.as_deref().unwrap_or("?"),
        info.line_defined
            .map(|l| l.to_string())
            .unwrap_or_else(|| "?".into())
    )
}

impl LuaRules {
    /// A side the scenario does not have asks for nothing: its legal list would be empty for
    /// no reason a host could see (a misspelt side in a host's own code).
    fn known_side(&self, side: &str) -> Result<(), RulesError> {
        if self.sides.is_empty() || self.sides.iter().any(|s| s == side) {
            return Ok(());
        }
        Err(RulesError::of_kind(
            RulesErrorKind::HostCall,
            format!(
                "legal commands of '{side}': the scenario has no such side (sides: {})",
                self.sides.join(", ")
            ),
        ))
    }

    /// The event names the rules' handlers subscribe to (`hex.events.on`/`before`), sorted,
    /// each with where its first handler was registered (`rules/x.lua:12`).
    pub fn subscribed_events(&self) -> Vec<(String, String)> {
        let mut names: Vec<(String, String)> = self
            .before
            .iter()
            .chain(self.after.iter())
            .filter_map(|(name, handlers)| {
                let first = handlers.first()?;
                let at = first.registered_at.as_ref().unwrap_or(&first.origin);
                Some((name.clone(), at.clone()))
            })
            .collect();
        names.sort();
        names.dedup_by(|a, b| a.0 == b.0);
        names
    }

    /// Loads the scenario's rules modules in order.
    pub fn load(scenario: &Scenario) -> Result<LuaRules, RulesLoadError> {
        let one = |message: String| RulesLoadError {
            errors: vec![message],
            printed: Vec::new(),
            kind: RulesErrorKind::Script,
        };
        // (a limit out of range is the embedding program's mistake, not the scripts')
        scenario.limits.check().map_err(|message| RulesLoadError {
            errors: vec![message],
            printed: Vec::new(),
            kind: RulesErrorKind::HostCall,
        })?;
        // (trusted rules: no budget to spend, host charges included; the profiler's samples
        // come from the hook, so `--profile` installs it all the same)
        let trusted = scenario.limits.trusted;
        let budget = Budget::new(if trusted {
            u64::MAX
        } else {
            scenario.limits.instructions
        });
        budget.set_wall_limit(std::time::Duration::from_millis(if trusted {
            0
        } else {
            scenario.limits.wall_ms
        }));
        let lua = new_vm(&budget).map_err(|e| one(format!("cannot create the Lua VM: {e}")))?;
        let roots: Vec<PathBuf> = scenario
            .rule_roots
            .iter()
            .map(|r| r.canonicalize().unwrap_or_else(|_| r.clone()))
            .collect();
        let memory_limit = scenario.limits.memory_bytes;
        let mut host = HostData::new(scenario.map.clone(), scenario.sides.clone(), scenario.turns);
        host.max_rolls = scenario.limits.events_per_command as usize;
        lua.set_app_data(host);
        let setup = || -> mlua::Result<()> {
            api::register_all(&lua)?;
            install_require(&lua, roots.clone())?;
            budget.install(&lua, memory_limit, !trusted || super::profile::enabled())?;
            super::sandbox::guard_protected_calls(&lua, &budget)?;
            super::sandbox::guard_rawset(&lua)?;
            super::sandbox::lock_globals(&lua)?;
            lua.set_memory_limit(memory_limit)?;
            Ok(())
        };
        setup().map_err(|e| one(format!("cannot set up the Lua host: {e}")))?;

        let mut errors = Vec::new();
        let mut kind = RulesErrorKind::Script;
        let mut note_kind = |budget: &Budget, e: &mlua::Error| {
            if kind == RulesErrorKind::Script {
                kind = budget.kind_of(e);
            }
        };
        // (which module last changed a declaration another made: a mod's `hex.rules.get(
        // "movement").costs_by_variable = ...` gone wrong is named with the mod)
        let mut changed_by: BTreeMap<String, String> = BTreeMap::new();
        let mut declared_before: Option<BTreeMap<String, String>> = None;
        for (index, module) in scenario.rules.iter().enumerate() {
            let dotted = module.replace('/', ".");
            budget.reset();
            let result = lua
                .globals()
                .get::<Function>("require")
                .and_then(|require| require.call::<Value>(dotted.as_str()));
            // (read only when an earlier module declared something or a later one may change
            // what this one declared: a game's own modules after `lib` pay nothing)
            let needed = declared_before.as_ref().is_some_and(|b| !b.is_empty())
                || index + 1 < scenario.rules.len();
            if result.is_ok() && needed {
                let now = declarations_as_text(&lua);
                if let Some(before) = &declared_before {
                    let file = with_host(&lua, |h| h.loaded_files.last().cloned())
                        .ok()
                        .flatten()
                        .map(|f| super::loader::chunk_name(&roots, &f))
                        .unwrap_or_else(|| module.clone());
                    for (key, text) in &now {
                        if before.get(key).is_some_and(|old| old != text) {
                            changed_by.insert(key.clone(), file.clone());
                        }
                    }
                }
                if index + 1 < scenario.rules.len() {
                    declared_before = Some(now);
                }
            }
            if let Err(e) = result {
                note_kind(&budget, &e);
                errors.push(describe(
                    &e,
                    &format!("loading rules module '{module}'"),
                    &budget,
                    memory_limit,
                ));
            }
        }
        if !errors.is_empty() {
            let printed = with_host(&lua, |h| {
                super::api::log::take(&mut h.log, &mut h.log_dropped)
            })
            .unwrap_or_default();
            return Err(RulesLoadError {
                errors,
                printed,
                kind,
            });
        }
        let mut rules = LuaRules {
            lua,
            budget,
            memory_limit,
            sequence: Sequence::default(),
            sides: scenario.sides.clone(),
            commands: BTreeMap::new(),
            before: BTreeMap::new(),
            after: BTreeMap::new(),
            victory: None,
            bots: BTreeMap::new(),
            skip: None,
            phase_label: None,
            labels: None,
            play_only: None,
            setup: None,
            changed_by,
            fields_at_load: Default::default(),
        };
        // Bots are sandboxed like the rules: same VM, same API, same budgets. (each module once:
        // one bot for both sides printed its syntax error twice)
        let mut bot_modules: Vec<&String> = Vec::new();
        for module in scenario.bots.values() {
            if !bot_modules.contains(&module) {
                bot_modules.push(module);
            }
        }
        for module in bot_modules {
            rules.budget.reset();
            let loaded = rules
                .lua
                .globals()
                .get::<Function>("require")
                .and_then(|require| require.call::<Value>(module.replace('/', ".")));
            match loaded {
                Ok(Value::Function(f)) => {
                    rules.bots.insert(module.clone(), f);
                }
                Ok(other) => errors.push(format!(
                    "bot module '{module}' returned a {}, not a function(side, legal, seed)",
                    other.type_name()
                )),
                Err(e) => {
                    note_kind(&rules.budget, &e);
                    errors.push(describe(
                        &e,
                        &format!("loading bot module '{module}'"),
                        &rules.budget,
                        memory_limit,
                    ))
                }
            }
        }
        if !errors.is_empty() {
            let printed = rules.take_log();
            return Err(RulesLoadError {
                errors,
                printed,
                kind,
            });
        }
        rules.collect_declarations().map_err(|e| one(e.message))?;
        let movement = rules.declaration("movement").map_err(|e| one(e.message))?;
        let (path, path_variants) = match &movement {
            Some(decl) => {
                let map = scenario.map.as_hex().ok_or_else(|| {
                    one(format!("{}the rules declare a movement table (hex.rules.declare(\"movement\", ...)), which needs a hex map; this scenario's map is an area map, whose games search the regions with hex.map.neighbors and hex.map.distance", rules.declared_at("movement")))
                })?;
                let declared_wrong = |e: crate::path::DeclarationError| {
                    one(format!("{}the rules' movement declaration (hex.rules.declare(\"movement\", ...)): {e}", rules.declared_at("movement")))
                };
                let path = crate::path::PathRules::compile(decl, map).map_err(declared_wrong)?;
                let variants =
                    crate::path::CostVariants::compile(decl, map).map_err(declared_wrong)?;
                (Some(Arc::new(path)), variants.map(Arc::new))
            }
            None => (None, None),
        };
        if let Some(path) = &path {
            // Every unit of the scenario needs a movement class, or the first search that
            // meets it fails mid-game (naming whichever unit the search met first).
            let mut classless: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for unit in scenario.initial.units.values() {
                if path.profile.class_of(unit).is_err() {
                    classless
                        .entry(unit.kind.as_str())
                        .or_default()
                        .push(unit.id.as_str());
                }
            }
            if let Some((kind, ids)) = classless.iter().next() {
                return Err(one(format!(
                    "{}the rules' movement declaration (hex.rules.declare(\"movement\", ...)): unit_class gives no class to the scenario's units of type '{kind}' ({}): add the type to unit_class.by_type, or give unit_class a default",
                    rules.declared_at("movement"),
                    ids.join(", ")
                )));
            }
        }
        let facing_declared = rules.declaration("facing").map_err(|e| one(e.message))?;
        let facing = match &facing_declared {
            Some(decl) => {
                let map = scenario.map.as_hex().ok_or_else(|| {
                    one(format!("{}the rules declare a facing table (hex.rules.declare(\"facing\", ...)), which needs a hex map", rules.declared_at("facing")))
                })?;
                Some(Arc::new(crate::path::FacingRules::compile(decl, map).map_err(|e| {
                    one(format!("{}the rules' facing declaration (hex.rules.declare(\"facing\", ...)): {e}", rules.declared_at("facing")))
                })?))
            }
            None => None,
        };
        let base = super::map_in_force::Compiled {
            map: scenario.map.clone(),
            path,
            path_variants,
            facing,
        };
        let _ = with_host(&rules.lua, |h| {
            h.facing = base.facing.clone();
            h.loading = false;
            h.sequence = rules.sequence.clone();
            h.path = base.path.clone();
            h.path_variants = base.path_variants.clone();
            h.map_source = Some(Box::new(super::map_in_force::MapSource::new(
                base,
                movement,
                facing_declared,
            )));
        });
        rules.fields_at_load = rules
            .lua
            .named_registry_value::<Table>(LOADED_KEY)
            .and_then(|loaded| super::module_fields::ModuleFields::snapshot(&loaded))
            .map_err(|e| one(format!("reading the rules' module tables: {e}")))?;
        Ok(rules)
    }

    /// Reads what the modules declared into Rust structures.
    fn collect_declarations(&mut self) -> Result<(), RulesError> {
        let err = |e: mlua::Error| RulesError::new(format!("reading the rules' declarations: {e}"));
        let decls: Table = self
            .lua
            .named_registry_value(DECLARATIONS_KEY)
            .map_err(err)?;
        if let Value::Table(seq) = decls.raw_get::<Value>("sequence").map_err(err)? {
            let sides = with_host(&self.lua, |h| h.sides.clone()).unwrap_or_default();
            self.sequence = sequence_from_lua(&self.lua, seq, &sides).map_err(|e| {
                RulesError::new(format!("{}{}", self.declared_at("sequence"), e.message))
            })?;
        }
        if let Value::Function(f) = decls.raw_get::<Value>("victory").map_err(err)? {
            self.victory = Some(f);
        }
        if let Value::Function(f) = decls.raw_get::<Value>("skip").map_err(err)? {
            self.skip = Some(f);
        }
        if let Value::Function(f) = decls.raw_get::<Value>("phase_label").map_err(err)? {
            self.phase_label = Some(f);
        }
        if let Value::Function(f) = decls.raw_get::<Value>("setup").map_err(err)? {
            self.setup = Some(f);
        }
        if let Some(v) = self.declaration("phase_labels")? {
            self.labels = Some(LabelSpec::from_json(&v).map_err(RulesError::new)?);
        }
        if let Some(v) = self.declaration("play_only_phase")? {
            let field = |k: &str| {
                v.get(k).and_then(serde_json::Value::as_str).map(str::to_string).ok_or_else(|| {
                    RulesError::new(format!(
                        "play_only_phase: no string '{k}' (expected {{ var = \"position\", field = \"phase\" }})"
                    ))
                })
            };
            self.play_only = Some((field("var")?, field("field")?));
        }
        let commands: Table = self.lua.named_registry_value(COMMANDS_KEY).map_err(err)?;
        for pair in commands.pairs::<String, Table>() {
            let (name, def) = pair.map_err(err)?;
            let resolve: Function = def.raw_get("resolve").map_err(err)?;
            let legal: Option<Function> = def.raw_get("legal").map_err(err)?;
            let args = crate::rules::api::commands::args_list(&def, &name).map_err(err)?;
            self.commands.insert(
                name,
                CommandDef {
                    resolve,
                    legal,
                    args,
                },
            );
        }
        // Handlers run by priority (higher first), then in registration order.
        let handlers: Table = self.lua.named_registry_value(HANDLERS_KEY).map_err(err)?;
        type Entry = (i64, usize, String, String, Function, Option<String>);
        let mut list: Vec<Entry> = Vec::new();
        for (i, entry) in handlers.sequence_values::<Table>().enumerate() {
            let entry = entry.map_err(err)?;
            list.push((
                entry.raw_get("priority").map_err(err)?,
                i,
                entry.raw_get("kind").map_err(err)?,
                entry.raw_get("name").map_err(err)?,
                entry.raw_get("fn").map_err(err)?,
                entry.raw_get("at").map_err(err)?,
            ));
        }
        list.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (priority, _, kind, name, f, registered_at) in list {
            let origin = origin_of(&f);
            let target = if kind == "before" {
                &mut self.before
            } else {
                &mut self.after
            };
            target.entry(name).or_default().push(Handler {
                f,
                priority,
                origin,
                registered_at,
            });
        }
        Ok(())
    }

    /// What scripts printed so far (drained).
    pub fn take_log(&mut self) -> Vec<String> {
        with_host(&self.lua, |h| {
            super::api::log::take(&mut h.log, &mut h.log_dropped)
        })
        .unwrap_or_default()
    }

    /// Where a declaration was made (`rules/x/init.lua:12: `), to put before its errors; empty
    /// when unknown.
    pub(crate) fn declared_at(&self, key: &str) -> String {
        let origin = self
            .lua
            .named_registry_value::<Table>(DECLARATIONS_KEY)
            .and_then(|d| d.raw_get::<Table>(super::api::DECLARATION_ORIGINS))
            .and_then(|o| o.raw_get::<Option<String>>(key));
        match (origin, self.changed_by.get(key)) {
            // (a module that declared it again is the origin already)
            (Ok(Some(place)), Some(file)) if !place.starts_with(&format!("{file}:")) => {
                format!("{place} (as {file} changed it): ")
            }
            (Ok(Some(place)), _) => format!("{place}: "),
            (_, Some(file)) => format!("{file}: "),
            _ => String::new(),
        }
    }

    /// The facing rules compiled from the `facing` declaration, when the rules declare one.
    pub fn facing_rules(&self) -> Option<Arc<crate::path::FacingRules>> {
        with_host(&self.lua, |h| h.facing.clone()).ok().flatten()
    }

    /// The movement rules compiled from the declaration, when the rules declare one.
    pub fn movement_rules(&self) -> Option<Arc<crate::path::PathRules>> {
        with_host(&self.lua, |h| h.path.clone()).ok().flatten()
    }

    /// A named declaration (`hex.rules.declare(key, value)`) as JSON, for Rust-side compilers.
    pub fn declaration(&self, key: &str) -> Result<Option<serde_json::Value>, RulesError> {
        let decls: Table = self
            .lua
            .named_registry_value(DECLARATIONS_KEY)
            .map_err(|e| RulesError::new(e.to_string()))?;
        match decls
            .raw_get::<Value>(key)
            .map_err(|e| RulesError::new(e.to_string()))?
        {
            Value::Nil => Ok(None),
            v => super::bounded::from_value(&self.lua, v)
                .map(Some)
                .map_err(|e| {
                    RulesError::new(format!(
                        "{}declaration '{key}': {}",
                        self.declared_at(key),
                        super::convert::bridge_words(&e)
                    ))
                }),
        }
    }

    /// Asks a query the rules declared with `hex.rules.query(name, fn)`; None when they declared
    /// none by that name. The answer comes back as JSON.
    pub fn ask(
        &mut self,
        state: &GameState,
        name: &str,
        arg: &serde_json::Value,
    ) -> Result<Option<serde_json::Value>, RulesError> {
        let err = |e: mlua::Error| RulesError::new(e.to_string());
        let decls: Table = self
            .lua
            .named_registry_value(DECLARATIONS_KEY)
            .map_err(err)?;
        let Value::Table(queries) = decls.raw_get::<Value>("__queries").map_err(err)? else {
            return Ok(None);
        };
        let Value::Function(f) = queries.raw_get::<Value>(name).map_err(err)? else {
            return Ok(None);
        };
        let what = || format!("query '{name}' ({})", origin_of(&f));
        // (a `hex.rules.caller_error` is the asker's mistake: said as the host's, by its message)
        let (answer, _) = self.call(state, what, |lua| {
            // (JSON's null is Lua's nil, not mlua's null light userdata: a query given no
            // argument read it as `userdata`)
            let nil_for_null = mlua::serde::SerializeOptions::new()
                .serialize_none_to_null(false)
                .serialize_unit_to_null(false);
            match f.call::<Value>(lua.to_value_with(arg, nil_for_null)?) {
                Ok(v) => super::bounded::json_from_value(lua, v).map(Ok),
                Err(e) => match api::rules::caller_error_in(&e) {
                    Some(message) => Ok(Err(message.to_string())),
                    None => Err(e),
                },
            }
        })?;
        match answer {
            Ok(value) => Ok(Some(value)),
            Err(message) => Err(RulesError::of_kind(
                RulesErrorKind::HostCall,
                format!("query '{name}': {message}"),
            )),
        }
    }

    /// The bot module and side a `bot` question names, checked: a caller's mistake (`hexwar
    /// query SAVE bot '{...}'`) is said as the caller's, not as the bot's script failing on
    /// a side `''` or a seed that is a string.
    fn bot_question<'a>(&self, arg: &'a serde_json::Value) -> Result<(&'a str, &'a str), String> {
        // (every bot decision of a game comes through here: the lists for the messages are
        // made only for a wrong question)
        let loaded = || self.bots.keys().cloned().collect::<Vec<String>>();
        let shape = || {
            let loaded = loaded();
            format!(
                "query 'bot': the argument is {{\"bot\": MODULE, \"side\": SIDE, \"seed\": N}} (bot modules loaded: {})",
                if loaded.is_empty() { "none".to_string() } else { loaded.join(", ") }
            )
        };
        let question = arg.as_object().ok_or_else(shape)?;
        if let Some(key) = question
            .keys()
            .find(|k| !matches!(k.as_str(), "bot" | "side" | "seed"))
        {
            return Err(format!("{}: unknown key '{key}'", shape()));
        }
        let module = question
            .get("bot")
            .and_then(|b| b.as_str())
            .ok_or_else(shape)?;
        if !self.bots.contains_key(module) {
            return Err(format!(
                "query 'bot': {}",
                crate::spelling::unknown_name("bot module", module, &loaded(), "loaded")
            ));
        }
        let side = question
            .get("side")
            .and_then(|s| s.as_str())
            .ok_or_else(shape)?;
        if !self.sides.iter().any(|s| s == side) {
            return Err(format!(
                "query 'bot': {}",
                crate::spelling::unknown_side(side, &self.sides)
            ));
        }
        match question.get("seed") {
            None => {}
            Some(seed) if seed.is_u64() => {}
            Some(other) => {
                return Err(format!(
                    "query 'bot': seed {other} is not a whole number from 0 to 18446744073709551615"
                ))
            }
        }
        Ok((module, side))
    }

    /// Asks a Lua bot to choose: `fn(side, legal, seed)` returns an index into `legal` or a
    /// command table. `legal` is a lazy list (api/legal.rs): the bot that lists what it needs
    /// with `hex.commands.legal` never makes the whole list. The answer comes back as the
    /// chosen command's table.
    fn ask_bot(
        &mut self,
        state: &GameState,
        arg: &serde_json::Value,
    ) -> Result<serde_json::Value, RulesError> {
        let (module, side) = self
            .bot_question(arg)
            .map_err(|why| RulesError::of_kind(RulesErrorKind::HostCall, why))?;
        let f = self.bots.get(module).cloned().ok_or_else(|| {
            RulesError::of_kind(
                RulesErrorKind::HostCall,
                format!("no bot module '{module}' loaded"),
            )
        })?;
        // (asked for a side whose phase it is not, the bot chose from a list of commands the
        // side may not give now, and `query bot` printed a move `legal` would not list)
        let phasing = self
            .sequence
            .step(state.turn, state.step)
            .and_then(|s| s.side.as_deref());
        let not_now = if state.outcome.is_some() {
            Some("the game is over".to_string())
        } else {
            phasing
                .filter(|p| *p != side)
                .map(|p| format!("it is {p}'s phase, not {side}'s"))
        };
        if let Some(why) = not_now {
            return Err(RulesError::of_kind(
                RulesErrorKind::HostCall,
                format!("query 'bot': {why}: {side} has no command to give now"),
            ));
        }
        let what = || format!("bot '{module}' ({})", origin_of(&f));
        let side = side.to_string();
        // An index out of range is the bot's mistake, not a script error: said as the bot's.
        let (answer, _) = self.call(state, what, |lua| {
            // (no seed is seed 0: a bot that breaks ties with it got null, and failed on it)
            let seed = arg.get("seed").cloned().unwrap_or(serde_json::json!(0));
            let legal = api::lazy_list(lua, &side)?;
            let v: Value = f.call((side.as_str(), legal.clone(), lua.to_value(&seed)?))?;
            let index = match v {
                Value::Integer(i) => Some(i),
                // (within ±2^53, where a float is a whole number exactly: 1e308 read as an
                // integer was reported as 9223372036854775807)
                Value::Number(x) if x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_992.0 => {
                    Some(x as i64)
                }
                Value::Number(x) => {
                    return Ok(Err(format!("returned {x}, not an index of the legal list")))
                }
                // (no data: it was serde's "unsupported value type `function`")
                Value::Function(_)
                | Value::Thread(_)
                | Value::UserData(_)
                | Value::LightUserData(_) => {
                    let kind = super::convert::with_article(v.type_name());
                    return Ok(Err(format!(
                        "returned {kind}; a bot returns the index of a legal command or a \
                         command table"
                    )));
                }
                _ => None,
            };
            let chosen = match index {
                Some(i) => {
                    let count = legal.len()?;
                    if count == 0 {
                        // (nothing is legal, not even ending the phase: no index could be right,
                        // so the bot ends the phase, as the random bot does; the engine decides
                        // whether the game can go on)
                        return Ok(Ok(serde_json::json!({ "command": "end_phase" })));
                    }
                    if i < 1 || i > count {
                        return Ok(Err(format!(
                            "returned {i}, not an index between 1 and {count}"
                        )));
                    }
                    legal.get::<Value>(i)?
                }
                None => v,
            };
            super::bounded::json_from_value(lua, chosen).map(Ok)
        })?;
        let value =
            answer.map_err(|m| RulesError::new(format!("bot '{module}' for {side}: {m}")))?;
        Ok(value)
    }

    /// Memory the VM uses now, in bytes.
    pub fn used_memory(&self) -> usize {
        self.lua.used_memory()
    }

    /// Runs Lua code in the sandbox against a state (tests, the designer's console). The result
    /// is returned as JSON.
    pub fn eval(&mut self, state: &GameState, code: &str) -> Result<serde_json::Value, RulesError> {
        let (value, _) = self.call(
            state,
            || "eval".into(),
            |lua| {
                let v: Value = lua
                    .load(code)
                    .set_name("=eval")
                    .set_mode(ChunkMode::Text)
                    .eval()?;
                super::bounded::json_from_value(lua, v)
            },
        )?;
        Ok(value)
    }

    /// One bounded call into Lua with the state visible to the API; returns the dice events too.
    /// `what` names the call in an error message and in the profile: made only then (most calls
    /// succeed, profiling is off by default, and naming a function asks Lua for its debug info).
    fn call<R>(
        &self,
        state: &GameState,
        what: impl Fn() -> String,
        f: impl FnOnce(&Lua) -> mlua::Result<R>,
    ) -> Result<(R, Vec<Event>), RulesError> {
        let lua = &self.lua;
        let started = super::profile::enabled().then(std::time::Instant::now);
        let map_changed = with_host(lua, |h| {
            h.dice = state.dice;
            h.rolls.clear();
            h.generation += 1;
            h.map_changes != state.map_changes
        });
        if map_changed.unwrap_or(false) {
            self.use_map_of(state)
                .map_err(|e| RulesError::new(format!("{}: {e}", what())))?;
        }
        self.budget.reset();
        let result = lua.scope(|scope| {
            let ud = scope.create_any_userdata_ref(state)?;
            with_host(lua, |h| h.state = Some(ud))?;
            let r = f(lua);
            with_host(lua, |h| h.state = None)?;
            r
        });
        // (a call that spent its budget fails, even if a C function swallowed the error on
        // the way out: `load`'s reader, a finalizer)
        let result = match (result, self.budget.exhausted_error()) {
            (Ok(_), Some(spent)) => Err(spent),
            (result, _) => result,
        };
        let rolls = with_host(lua, |h| std::mem::take(&mut h.rolls)).unwrap_or_default();
        if let Some(started) = started {
            super::profile::entry_point(&what(), started.elapsed());
        }
        match result {
            Ok(r) => Ok((r, rolls)),
            Err(e) => {
                let _ = with_host(lua, |h| h.state = None);
                lua.gc_collect().ok();
                Err(RulesError::of_kind(
                    self.budget.kind_of(&e),
                    describe(&e, &what(), &self.budget, self.memory_limit),
                ))
            }
        }
    }

    /// Makes the map `state`'s changes make (and the rules compiled on it) the one the API
    /// functions see, in place of the one of the last state called with.
    #[inline(never)]
    fn use_map_of(&self, state: &GameState) -> Result<(), String> {
        with_host(&self.lua, |h| {
            let source = h
                .map_source
                .as_mut()
                .ok_or("the rules are still loading: no map changes yet")?;
            let compiled = source.compiled_for(&state.map_changes)?;
            h.map = compiled.map;
            h.path = compiled.path;
            h.path_variants = compiled.path_variants;
            h.facing = compiled.facing;
            h.map_changes = state.map_changes.clone();
            // (what was worked out on the other map)
            h.path_cache = None;
            h.step_fields = Default::default();
            h.terrain_strings = None;
            h.reach_search = None;
            Ok(())
        })
        .map_err(|e| e.to_string())?
    }

    /// The events a script returned, read and checked against the scenario (event_check.rs):
    /// a malformed or impossible event fails the call, naming it, before anything is applied.
    fn events_returned(
        &self,
        state: &GameState,
        value: Value,
        what: &impl Fn() -> String,
    ) -> Result<Vec<Event>, RulesError> {
        let events = events_from_lua(&self.lua, value)
            .map_err(|m| RulesError::new(format!("{} returned {m}", what())))?;
        if events.is_empty() {
            return Ok(events);
        }
        with_host(&self.lua, |h| {
            let context = crate::scenario::Fit {
                board: &h.map,
                sides: &h.sides,
            };
            check_events(&context, &events)
        })
        .map_err(|e| RulesError::new(e.to_string()))?
        .map_err(|m| RulesError::new(format!("{} returned {m}", what())))?;
        if events
            .iter()
            .any(|e| matches!(e, Event::HexChanged { .. } | Event::HexsideChanged { .. }))
        {
            self.map_changes_fit(state, &events)
                .map_err(|m| RulesError::new(format!("{} returned {m}", what())))?;
        }
        Ok(events)
    }

    /// A script's `HexChanged` and `HexsideChanged` events: each checked against the map in
    /// force and the names the rules know, then the map they make derived and the rules
    /// compiled on it, so that a change the map cannot hold (a 65th kind of feature) fails the
    /// call that makes it, not every call after it.
    #[inline(never)]
    fn map_changes_fit(&self, state: &GameState, events: &[Event]) -> Result<(), String> {
        with_host(&self.lua, |h| {
            let names = h.map.as_hex().map(|map| super::map_change_check::MapNames {
                map,
                path: h.path.as_deref(),
            });
            let mut changes = state.map_changes.clone();
            for (i, event) in events.iter().enumerate() {
                super::map_change_check::check_map_change(&h.map, names.as_ref(), event)
                    .map_err(|why| format!("event #{} ({}): {why}", i + 1, event.name()))?;
                changes.record(event);
            }
            match h.map_source.as_mut() {
                Some(source) => source
                    .compiled_for(&changes)
                    .map(|_| ())
                    .map_err(|e| format!("map changes the rules cannot take: {e}")),
                None => Ok(()),
            }
        })
        .map_err(|e| e.to_string())?
    }

    fn refusal_of(&self, value: &Value) -> Option<Refusal> {
        let Value::Table(t) = value else { return None };
        // (most answers are event lists, without a metatable: no registry lookup for them)
        let own = t.metatable()?;
        let mt: Table = self.lua.named_registry_value(REFUSAL_MT_KEY).ok()?;
        if own != mt {
            return None;
        }
        Some(Refusal::new(
            t.raw_get::<String>("rule").ok()?,
            t.raw_get::<String>("reason").ok()?,
        ))
    }

    /// The handlers of event `name` and the `"*"` ones, by priority (higher first): the guide's
    /// order, which a `"*"` handler of priority 100 once missed, run after every named one. On
    /// equal priorities the event's own come first, then the `"*"` ones, each in registration
    /// order (as before, where every handler has the default priority).
    fn handlers<'a>(
        map: &'a BTreeMap<String, Vec<Handler>>,
        name: &str,
    ) -> impl Iterator<Item = &'a Handler> + 'a {
        let mut named = map
            .get(name)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .peekable();
        let mut any = map
            .get("*")
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .peekable();
        std::iter::from_fn(move || match (named.peek(), any.peek()) {
            (Some(n), Some(a)) if a.priority > n.priority => any.next(),
            (Some(_), _) => named.next(),
            (None, _) => any.next(),
        })
    }
}

fn sequence_from_lua(lua: &Lua, table: Table, sides: &[String]) -> Result<Sequence, RulesError> {
    let err = |e: mlua::Error| RulesError::new(format!("hex.rules.sequence: {e}"));
    // (each step read on its own, so that a malformed one is named by its place)
    let steps_of = |value: Value,
                    turn: Option<u32>|
     -> Result<Vec<crate::engine::Step>, RulesError> {
        let Value::Table(list) = value else {
            return Err(RulesError::new(format!(
                "hex.rules.sequence: {} must be a list of steps {{ side = ..., phase = ... }}",
                turn.map_or("'steps'".to_string(), |t| format!("special turn {t}"))
            )));
        };
        let mut out = Vec::new();
        // (a hole would drop the steps after it: the turn played without those phases)
        let n = super::list_length::list_length(&list, "steps").map_err(|e| {
            RulesError::new(format!(
                "hex.rules.sequence: {} is {e}",
                turn.map_or("'steps'".to_string(), |t| format!("special turn {t}"))
            ))
        })?;
        for i in 0..n {
            let step = list.raw_get::<Value>(i + 1).map_err(err)?;
            let which = match turn {
                // (steps count from 0, as `PhaseStarted.step` and the log count them)
                None => format!("step {i}"),
                Some(t) => format!("special turn {t}, step {i}"),
            };
            // (a step may carry the rules' own data, France 1940's `assault`; a key one or
            // two letters off `side` or `phase` is a misspelling: `sid` made the step
            // simultaneous)
            if let Value::Table(fields) = &step {
                for pair in fields.clone().pairs::<Value, Value>() {
                    let (key, _) = pair.map_err(err)?;
                    let Value::String(key) = key else { continue };
                    let key = key.to_string_lossy();
                    let known = key == "side" || key == "phase";
                    if let Some(near) =
                        crate::spelling::nearest(&key, ["side", "phase"], 0).filter(|_| !known)
                    {
                        return Err(RulesError::new(format!(
                                "hex.rules.sequence: {which}: unknown key '{key}' (did you mean '{near}'?)"
                            )));
                    }
                }
            }
            let step: crate::engine::Step = super::bounded::from_value(lua, step).map_err(|e| {
                RulesError::new(format!(
                    "hex.rules.sequence: {which}: {}",
                    super::convert::bridge_words(&e)
                ))
            })?;
            // (a side the scenario does not have would own phases nobody plays: a misspelt side)
            if let Some(side) = step
                .side
                .as_ref()
                .filter(|s| !sides.is_empty() && !sides.contains(s))
            {
                let near = crate::spelling::nearest(side, sides.iter().map(String::as_str), 0)
                    .map(|n| format!("did you mean '{n}'?; "))
                    .unwrap_or_default();
                return Err(RulesError::new(format!(
                    "hex.rules.sequence: {which} names the side '{side}', which the scenario does \
                     not have ({near}sides: {})",
                    sides.join(", ")
                )));
            }
            out.push(step);
        }
        Ok(out)
    };
    let steps = steps_of(table.raw_get("steps").map_err(err)?, None)?;
    let mut special: BTreeMap<u32, Vec<crate::engine::Step>> = BTreeMap::new();
    if let Value::Table(t) = table.raw_get::<Value>("special").map_err(err)? {
        for pair in t.pairs::<u32, Value>() {
            let (turn, steps) = pair.map_err(err)?;
            special.insert(turn, steps_of(steps, Some(turn))?);
        }
    }
    if steps.is_empty() {
        return Err(RulesError::new(
            "hex.rules.sequence: 'steps' lists no phase (expected steps = { { side = \"blue\", phase = \"movement\" }, ... })",
        ));
    }
    // (a special turn with no step would play nothing at all: the game stopped there, saying
    // the rules declare no sequence)
    if let Some((turn, _)) = special.iter().find(|(_, list)| list.is_empty()) {
        return Err(RulesError::new(format!(
            "hex.rules.sequence: special turn {turn} lists no phase (a turn needs at least one step)"
        )));
    }
    Ok(Sequence { steps, special })
}

/// `require` over the rule roots, text chunks only, each module loaded once.
fn install_require(lua: &Lua, roots: Vec<PathBuf>) -> mlua::Result<()> {
    lua.set_named_registry_value(LOADED_KEY, lua.create_table()?)?;
    let require = lua.create_function(move |lua, name: Value| {
        let name = module_name_arg(name)?;
        check_module_name(&name).map_err(mlua::Error::runtime)?;
        let loaded: Table = lua.named_registry_value(LOADED_KEY)?;
        if let Some(value) = already_loaded(&loaded, &name)? {
            return Ok(value);
        }
        let file = find_module(&roots, &name).ok_or_else(|| {
            let hint = super::nearest_module(&roots, &name)
                .map(|m| format!(": did you mean '{m}'?"))
                .unwrap_or_default();
            mlua::Error::runtime(format!(
                "require(\"{shown}\"): no module '{shown}' in the rule roots (the folders the \
                 scenario's `rule_roots` names){hint}",
                shown = crate::spelling::clipped(&name, 100)
            ))
        })?;
        // (named from its rule root's folder, as its other errors name it, not by its
        // absolute path)
        let shown = chunk_name(&roots, &file);
        let text = crate::board::SourceText::read(&file)
            .map(|s| crate::board::without_bom(s.text))
            .map_err(|e| {
                mlua::Error::runtime(match crate::board::NotUtf8::of(&e) {
                    Some(bad) => format!("require(\"{name}\"): {}", bad.at(&shown)),
                    None => format!("require(\"{name}\"): cannot read {shown}: {e}"),
                })
            })?;
        // (compiling is charged as `load`'s text is: a module that fails is read and compiled
        // again at every `require`)
        super::budget::charge(lua, text.len() as u64)?;
        let value = run_module(lua, &loaded, &name, &text, &shown)?;
        api::with_host(lua, |h| h.loaded_files.push(file))?;
        Ok(value)
    })?;
    lua.globals().raw_set("require", require)
}

/// `require`'s argument as a module name: a string (a number too, as Lua's own `require`
/// takes it); anything else is an error naming `require`, where mlua's conversion named no
/// function ("bad argument #1: error converting Lua nil to String").
pub(crate) fn module_name_arg(name: Value) -> mlua::Result<String> {
    match name {
        Value::String(s) => Ok(s.to_string_lossy()),
        Value::Integer(i) => Ok(i.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Nil => Err(mlua::Error::runtime(
            "require: no module name given (a string)",
        )),
        other => Err(mlua::Error::runtime(format!(
            "require: the module name must be a string, not {}",
            super::convert::with_article(other.type_name())
        ))),
    }
}

/// What a `require`d module already in `loaded` (a table of module name -> value) gave; None
/// when it is not loaded yet, an error when it is being loaded (a circular require).
pub(crate) fn already_loaded(loaded: &Table, name: &str) -> mlua::Result<Option<Value>> {
    match loaded.raw_get::<Value>(name)? {
        Value::Nil => Ok(None),
        Value::LightUserData(mark) if mark == module_loading() => Err(mlua::Error::runtime(
            format!("require(\"{name}\"): circular require"),
        )),
        v => Ok(Some(v)),
    }
}

/// What a module being loaded holds in the loaded table meanwhile: a light userdata, which no
/// script can make, so that no value a module returns reads as "still loading" (a module that
/// returned the string "hexwar.loading" was once taken for a circular require).
fn module_loading() -> mlua::LightUserData {
    static MARK: u8 = 0;
    mlua::LightUserData(std::ptr::addr_of!(MARK).cast_mut().cast())
}

/// Runs module `name` (its source `text`, named `shown` in errors) and keeps its value in
/// `loaded` (`true` for a module that returns nothing). A module that fails is forgotten: a
/// later `require` reads and runs it again.
pub(crate) fn run_module(
    lua: &Lua,
    loaded: &Table,
    name: &str,
    text: &str,
    shown: &str,
) -> mlua::Result<Value> {
    loaded.raw_set(name, module_loading())?;
    let result = lua
        .load(text)
        .set_name(format!("@{shown}"))
        .set_mode(ChunkMode::Text)
        .into_function()
        .map_err(|e| compile_error_placed(shown, text, e))
        .and_then(|module| module.call::<Value>(name));
    let value = match result {
        Ok(Value::Nil) => Value::Boolean(true),
        Ok(v) => v,
        Err(e) => {
            loaded.raw_set(name, Value::Nil)?;
            return Err(e);
        }
    };
    loaded.raw_set(name, value.clone())?;
    Ok(value)
}

/// A compile error given its file and line when Lua names neither: the compiler's "C stack
/// overflow" (300 nested brackets) comes bare; the line named is the one nested deepest.
fn compile_error_placed(shown: &str, text: &str, e: mlua::Error) -> mlua::Error {
    let message = match &e {
        mlua::Error::RuntimeError(m) | mlua::Error::SyntaxError { message: m, .. } => m.clone(),
        other => other.to_string(),
    };
    if message.contains(shown) {
        return e;
    }
    let line_of_deepest = deepest_nesting_line(text);
    let hint = if message.contains("C stack overflow") {
        " (nested too deep to compile: Lua allows about 200 levels of brackets or blocks)"
    } else {
        ""
    };
    // (the hint ends the message's first line: a traceback may follow)
    let (head, rest) = message.split_once('\n').unwrap_or((&message, ""));
    let rest = if rest.is_empty() {
        String::new()
    } else {
        format!("\n{rest}")
    };
    mlua::Error::runtime(format!("{shown}:{line_of_deepest}: {head}{hint}{rest}"))
}

/// The line of Lua source where brackets and blocks (`function`, `if`, `do`, `repeat` ... `end`,
/// `until`) nest deepest, counted outside strings and comments: where a "C stack overflow" of
/// the compiler most likely is.
fn deepest_nesting_line(text: &str) -> usize {
    let (mut depth, mut deepest, mut line_of_deepest) = (0i64, 0i64, 1);
    for (i, line) in text.lines().enumerate() {
        let bytes = line.as_bytes();
        let (mut j, mut quote) = (0, None);
        while j < bytes.len() {
            let c = bytes[j];
            if let Some(q) = quote {
                match c {
                    b'\\' => j += 1,
                    c if c == q => quote = None,
                    _ => {}
                }
                j += 1;
                continue;
            }
            match c {
                b'-' if bytes.get(j + 1) == Some(&b'-') => break,
                b'"' | b'\'' => quote = Some(c),
                b'(' | b'{' | b'[' => depth += 1,
                b')' | b'}' | b']' => depth -= 1,
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = j;
                    while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_')
                    {
                        j += 1;
                    }
                    match &line[start..j] {
                        "function" | "if" | "do" | "repeat" => depth += 1,
                        "end" | "until" => depth -= 1,
                        _ => {}
                    }
                }
                _ => {}
            }
            if depth > deepest {
                (deepest, line_of_deepest) = (depth, i + 1);
            }
            if !(c.is_ascii_alphabetic() || c == b'_') {
                j += 1;
            }
        }
    }
    line_of_deepest
}

/// Most commands one `legal` function may list: each is converted by the host, work the
/// instruction budget does not see (a million-entry list took 25 s and 3 GB a listing).
const MAX_LISTED: usize = 100_000;

/// The commands a `legal` function returned (a sequence of command tables, without a hole:
/// `convert::listing_of`; nil lists none, anything else is an error).
fn commands_listed(lua: &Lua, v: Value) -> mlua::Result<Vec<Command>> {
    let mut cmds = Vec::new();
    // (the walk for holes is one protected call over the keys; the conversion below, per
    // command, is what the limit bounds)
    if let Some((t, n)) = super::convert::listing_of(&v).map_err(mlua::Error::runtime)? {
        if n > MAX_LISTED {
            return Err(mlua::Error::runtime(format!(
                "listed {n} commands (at most {MAX_LISTED} a listing, a fixed limit of the \
                 host: a legal function that honours the filter it is given lists one unit's \
                 commands when a bot or `hexwar legal --unit` asks for them, docs/guide.md)"
            )));
        }
        for i in 1..=n {
            let item = t.raw_get::<Value>(i)?;
            cmds.push(command_from_lua(lua, item).map_err(mlua::Error::runtime)?);
        }
    }
    Ok(cmds)
}

impl Ruleset for LuaRules {
    fn sequence(&self) -> &Sequence {
        &self.sequence
    }

    fn sides(&self) -> &[String] {
        &self.sides
    }

    fn legal_commands(
        &mut self,
        state: &GameState,
        side: &str,
    ) -> Result<Vec<Command>, RulesError> {
        self.known_side(side)?;
        let mut out = Vec::new();
        for (name, def) in &self.commands {
            let Some(legal) = &def.legal else { continue };
            let (list, _) = self.call(
                state,
                || format!("legal '{name}' ({})", origin_of(legal)),
                |lua| {
                    let v: Value = legal.call(side)?;
                    commands_listed(lua, v)
                },
            )?;
            listed_with_unknown_argument(&self.commands, name, legal, &list)?;
            out.extend(list);
        }
        if self
            .commands
            .get("end_phase")
            .is_none_or(|d| d.legal.is_none())
        {
            out.push(Command::EndPhase);
        }
        Ok(out)
    }

    /// Calls only the named command's `legal`, giving it the filter as a second argument
    /// (`{command = ..., unit = ...}`) so that it may list one unit's commands; the answer is
    /// filtered again here for `legal` functions that ignore it.
    fn legal_commands_matching(
        &mut self,
        state: &GameState,
        side: &str,
        filter: &CommandFilter,
    ) -> Result<Vec<Command>, RulesError> {
        self.known_side(side)?;
        let Some(name) = filter.command.as_deref() else {
            let mut all = self.legal_commands(state, side)?;
            all.retain(|c| filter.matches(c));
            return Ok(all);
        };
        let Some(legal) = self.commands.get(name).and_then(|d| d.legal.as_ref()) else {
            let listed_by_engine = name == "end_phase" && filter.unit.is_none();
            return Ok(if listed_by_engine {
                vec![Command::EndPhase]
            } else {
                Vec::new()
            });
        };
        let (mut list, _) = self.call(
            state,
            || format!("legal '{name}' ({})", origin_of(legal)),
            |lua| {
                let t = lua.create_table()?;
                t.raw_set("command", name)?;
                t.raw_set("unit", filter.unit.as_deref())?;
                let v: Value = legal.call((side, t))?;
                commands_listed(lua, v)
            },
        )?;
        listed_with_unknown_argument(&self.commands, name, legal, &list)?;
        list.retain(|c| filter.matches(c));
        Ok(list)
    }

    fn resolve(
        &mut self,
        state: &GameState,
        side: Option<&str>,
        command: &Command,
    ) -> Result<Resolution, RulesError> {
        let Some(def) = self.commands.get(command.name()) else {
            return Ok(match command {
                Command::EndPhase => Ok(Vec::new()),
                _ => {
                    // (the nearest command the rules define, for a misspelt `mvoe`)
                    let name = command.name();
                    let near =
                        crate::spelling::nearest(name, self.commands.keys().map(String::as_str), 0)
                            .map(|c| format!(" (did you mean '{c}'?)"))
                            .unwrap_or_default();
                    Err(Refusal::new(
                        "rules",
                        format!("no rule handles the command '{name}'{near}"),
                    ))
                }
            });
        };
        if let Some(refusal) = unknown_argument(def, command) {
            return Ok(Err(refusal));
        }
        // (the board is asked only for commands that name places: Diplomacy's orders do not)
        let place_specs = def
            .args
            .as_deref()
            .filter(|specs| crate::rules::command_args::names_places(specs));
        if let (Some(specs), Command::Custom { name, args }) = (place_specs, command) {
            let unknown = with_host(&self.lua, |h| {
                crate::rules::command_args::unknown_place(name, specs, args, &h.map)
            })
            .map_err(|e| RulesError::new(e.to_string()))?;
            if let Some(why) = unknown {
                return Ok(Err(Refusal::new("command", why)));
            }
        }
        // (an area region's alias, accepted above, reaches the rules as the region's id)
        let ids = with_host(&self.lua, |h| {
            crate::rules::command_args::with_region_ids(command, def.args.as_deref(), &h.map)
        })
        .map_err(|e| RulesError::new(e.to_string()))?;
        let command = ids.as_ref().unwrap_or(command);
        let what = || format!("command '{}' ({})", command.name(), origin_of(&def.resolve));
        let (value, rolls) = self.call(state, what, |lua| {
            let t = command_to_lua(lua, command)?;
            def.resolve.call::<Value>((t, side))
        })?;
        if let Some(refusal) = self.refusal_of(&value) {
            return Ok(Err(refusal));
        }
        let events = self.events_returned(state, value, &what)?;
        Ok(Ok(rolls.into_iter().chain(events).collect()))
    }

    fn before_event(
        &mut self,
        state: &GameState,
        event: &Event,
    ) -> Result<Option<Refusal>, RulesError> {
        for handler in Self::handlers(&self.before, event.name()) {
            let what = || format!("before-handler for {} ({})", event.name(), handler.origin);
            let (value, _) = self.call(state, what, |lua| {
                handler.f.call::<Value>(event_to_lua(lua, event)?)
            })?;
            if let Some(refusal) = self.refusal_of(&value) {
                return Ok(Some(refusal));
            }
            match value {
                Value::Boolean(false) => {
                    return Ok(Some(Refusal::new(
                        "rules",
                        format!("vetoed by {}", handler.origin),
                    )))
                }
                Value::Nil => {}
                // (events returned here were dropped without a word: a before-handler only
                // allows or refuses; `true` let the event happen, which a designer meaning
                // "yes, block it" could not tell)
                other => {
                    return Err(RulesError::new(format!(
                        "{} returned {}: a before-handler returns nothing to let the event happen, \
                         or hex.refuse(rule, reason) (or false) to refuse it; events that \
                         follow one are returned by a handler of hex.events.on",
                        what(),
                        super::convert::value_kind(&other)
                    )))
                }
            }
        }
        Ok(None)
    }

    fn after_event(&mut self, state: &GameState, event: &Event) -> Result<Vec<Event>, RulesError> {
        let mut out = Vec::new();
        for handler in Self::handlers(&self.after, event.name()) {
            let what = || format!("handler for {} ({})", event.name(), handler.origin);
            let (value, rolls) = self.call(state, what, |lua| {
                handler.f.call::<Value>(event_to_lua(lua, event)?)
            })?;
            // (a refusal here was read as no events: the event has happened by now)
            if let Some(refusal) = self.refusal_of(&value) {
                return Err(RulesError::new(format!(
                    "{} returned a refusal ({refusal}): the event has happened when a handler \
                     of hex.events.on runs; refuse it in hex.events.before",
                    what()
                )));
            }
            let events = self.events_returned(state, value, &what)?;
            out.extend(rolls);
            out.extend(events);
        }
        Ok(out)
    }

    fn query(
        &mut self,
        state: &GameState,
        name: &str,
        arg: &serde_json::Value,
    ) -> Result<Option<serde_json::Value>, RulesError> {
        if name == "bot" {
            return self.ask_bot(state, arg).map(Some);
        }
        if let Some(answer) = self.ask(state, name, arg)? {
            return Ok(Some(answer));
        }
        // Without a `reach` query of their own, rules with a movement declaration answer with
        // the engine's search over the unit's full MA.
        let has_path = with_host(&self.lua, |h| h.path.is_some()).unwrap_or(false);
        if name == "reach" && has_path {
            // (the host's question, checked here: a script would read a non-string as no unit)
            let unit = match arg.as_str() {
                Some(unit) if state.units.contains_key(unit) => unit,
                Some(unit) => {
                    return Err(RulesError::of_kind(
                        RulesErrorKind::HostCall,
                        format!("query 'reach': no unit '{unit}' in play"),
                    ))
                }
                None => {
                    return Err(RulesError::of_kind(
                        RulesErrorKind::HostCall,
                        format!("query 'reach': the argument is a unit id (a string), not {arg}"),
                    ))
                }
            };
            let (value, _) = self.call(
                state,
                || "hex.path.reach".into(),
                |lua| {
                    let hex: Table = lua.globals().get("hex")?;
                    let path: Table = hex.get("path")?;
                    let reach: Function = path.get("reach")?;
                    let v: Value = reach.call(unit)?;
                    super::bounded::json_from_value(lua, v)
                },
            )?;
            return Ok(Some(value));
        }
        Ok(None)
    }

    fn vertex_facing_kinds(&self) -> Vec<String> {
        with_host(&self.lua, |h| {
            h.facing
                .as_ref()
                .map(|f| f.vertex_kinds())
                .unwrap_or_default()
        })
        .unwrap_or_default()
    }

    fn victory(&mut self, state: &GameState) -> Result<Outcome, RulesError> {
        let Some(f) = &self.victory else {
            return Ok(Outcome {
                winner: None,
                scores: BTreeMap::new(),
                reason: "the rules declare no victory rule".into(),
            });
        };
        let what = || format!("victory rule ({})", origin_of(f));
        let sides = &self.sides;
        let (value, _) = self.call(state, what, |lua| {
            let v: Value = f.call(())?;
            let outcome = super::bounded::from_value::<Outcome>(lua, v).map_err(|e| {
                mlua::Error::runtime(format!(
                    "its answer: {} (expected {{ winner = side or nil, scores = {{ [side] = number }}, reason = \"...\" }})",
                    super::convert::bridge_words(&e)
                ))
            })?;
            // (a winner or a score of a side the scenario lacks reached the log, saves and the
            // batch statistics)
            let unknown = outcome
                .winner
                .iter()
                .chain(outcome.scores.keys())
                .find(|side| !sides.is_empty() && !sides.contains(side));
            if let Some(side) = unknown {
                return Err(mlua::Error::runtime(format!(
                    "its answer names the side '{side}', which the scenario does not have (sides: {})",
                    sides.join(", ")
                )));
            }
            Ok(outcome)
        })?;
        Ok(value)
    }

    fn skip_step(&mut self, state: &GameState, turn: u32, step: u32) -> Result<bool, RulesError> {
        if let Some((var, field)) = &self.play_only {
            let now = state
                .vars
                .get(var)
                .and_then(|v| v.get(field))
                .and_then(|v| v.as_str());
            let Some(now) = now else { return Ok(false) };
            let label = match &self.labels {
                Some(spec) => spec.label(turn, step),
                None => self.phase_label(state, turn, step)?,
            };
            return Ok(label.as_deref() != Some(now));
        }
        let Some(f) = &self.skip else {
            return Ok(false);
        };
        let phase = self.sequence.step(turn, step).map(|s| s.phase.clone());
        let what = || format!("skip rule ({})", origin_of(f));
        let (value, _) = self.call(state, what, |_| {
            f.call::<Value>((turn, step, phase.as_deref()))
        })?;
        // (a truthy `phase == "combat" and 1` never skipped: only `true` does)
        match value {
            Value::Boolean(skip) => Ok(skip),
            Value::Nil => Ok(false),
            other => Err(RulesError::new(format!(
                "{} returned {}{}: return true to skip the step, or false (or nothing) to play it",
                what(),
                super::convert::value_kind(&other),
                match &other {
                    // (quoted and escaped as Rust shows a string: a newline stays on the line)
                    Value::String(_) => {
                        let text = super::error::value_in_message(&other);
                        let head: String = text.chars().take(40).collect();
                        if head.len() < text.len() {
                            format!(" ({head:?}… {} bytes)", text.len())
                        } else {
                            format!(" ({text:?})")
                        }
                    }
                    Value::Integer(_) | Value::Number(_) => format!(
                        " ({})",
                        crate::spelling::clipped(&super::error::value_in_message(&other), 40)
                    ),
                    _ => String::new(),
                }
            ))),
        }
    }

    fn phase_label(
        &mut self,
        state: &GameState,
        turn: u32,
        step: u32,
    ) -> Result<Option<String>, RulesError> {
        if let Some(spec) = &self.labels {
            return Ok(spec.label(turn, step));
        }
        let Some(f) = &self.phase_label else {
            return Ok(None);
        };
        let phase = self.sequence.step(turn, step).map(|s| s.phase.clone());
        let what = || format!("phase label ({})", origin_of(f));
        let (value, _) = self.call(state, what, |_| {
            f.call::<Option<String>>((turn, step, phase.as_deref()))
        })?;
        Ok(value)
    }

    fn reads_setup(&self) -> bool {
        self.setup.is_some()
    }

    /// A unit the movement engine cannot classify (`attrs.class = "boat"`) failed in the
    /// first handler that searched for it, as a rules error.
    fn map_changes_fit(&self, changes: &crate::engine::MapChanges) -> Result<(), String> {
        if changes.is_empty() {
            return Ok(());
        }
        with_host(&self.lua, |h| {
            let source = h.map_source.as_mut().ok_or("the rules are still loading")?;
            let base = source.base_map();
            let names = base.as_hex().map(|map| super::map_change_check::MapNames {
                map,
                path: h.path.as_deref(),
            });
            super::map_change_check::check_map_changes(&base, names.as_ref(), changes)?;
            source
                .compiled_for(changes)
                .map(|_| ())
                .map_err(|e| format!("map_changes: {e}"))
        })
        .map_err(|e| e.to_string())?
    }

    fn unit_fits(&self, unit: &crate::engine::Unit) -> Result<(), String> {
        with_host(&self.lua, |h| {
            if let Some(path) = &h.path {
                path.profile
                    .side_of(unit)
                    .and_then(|_| path.profile.class_of(unit))
                    .map_err(|e| e.to_string())?;
            }
            // (a facing game needs every type's facing rule: TAC-/ANC- listings read it)
            if let Some(facing) = &h.facing {
                facing
                    .knows_kind(&unit.kind)
                    .map_err(|e| format!("unit '{}': {e}", unit.id))?;
            }
            Ok(())
        })
        .unwrap_or(Ok(()))
    }

    fn take_script_log(&mut self) -> Vec<String> {
        self.take_log()
    }

    fn force_dice(&mut self, values: Vec<u32>) -> Result<(), String> {
        with_host(&self.lua, |h| h.forced_dice = values.into())
            .map_err(|e| format!("the rules' dice cannot be set: {e}"))
    }

    fn unused_forced_dice(&mut self) -> Vec<u32> {
        with_host(&self.lua, |h| std::mem::take(&mut h.forced_dice).into()).unwrap_or_default()
    }

    fn unknown_argument(&self, command: &Command) -> Option<Refusal> {
        unknown_argument(self.commands.get(command.name())?, command)
    }

    fn command_names(&self) -> Vec<String> {
        self.commands.keys().cloned().collect()
    }

    /// The rules' own queries, with the host's: `reach` (the movement engine's, when the rules
    /// declare a movement table and no `reach` of their own) and `bot` (a bot's choice).
    fn query_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .lua
            .named_registry_value::<Table>(DECLARATIONS_KEY)
            .and_then(|decls| decls.raw_get::<Value>("__queries"))
            .ok()
            .and_then(|queries| match queries {
                Value::Table(t) => Some(t),
                _ => None,
            })
            .map(|t| {
                t.pairs::<String, Value>()
                    .filter_map(|pair| pair.ok().map(|(name, _)| name))
                    .collect()
            })
            .unwrap_or_default();
        if with_host(&self.lua, |h| h.path.is_some()).unwrap_or(false) {
            names.push("reach".into());
        }
        if !self.bots.is_empty() {
            names.push("bot".into());
        }
        names.sort();
        names.dedup();
        names
    }

    fn loaded_files(&self) -> Vec<PathBuf> {
        with_host(&self.lua, |h| h.loaded_files.clone()).unwrap_or_default()
    }

    fn changed_during_play(&self) -> Vec<String> {
        self.lua
            .named_registry_value::<Table>(LOADED_KEY)
            .and_then(|loaded| self.fields_at_load.changes(&loaded))
            .unwrap_or_default()
    }

    fn event_handlers(&self, event: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for handlers in [self.before.get(event), self.after.get(event)]
            .into_iter()
            .flatten()
        {
            for h in handlers {
                if !out.contains(&h.origin) {
                    out.push(h.origin.clone());
                }
            }
        }
        out
    }

    fn setup(
        &mut self,
        state: &GameState,
        table: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Resolution, RulesError> {
        let Some(f) = &self.setup else {
            return Ok(Ok(Vec::new()));
        };
        let what = || format!("setup ({})", origin_of(f));
        let (value, rolls) = self.call(state, what, |lua| f.call::<Value>(lua.to_value(table)?))?;
        if let Some(refusal) = self.refusal_of(&value) {
            return Ok(Err(refusal));
        }
        let events = self.events_returned(state, value, &what)?;
        Ok(Ok(rolls.into_iter().chain(events).collect()))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::LabelSpec;

    #[test]
    fn declared_labels_are_prefix_year_suffix() {
        let spec = LabelSpec::from_json(
            &json!({"first_year": 1901, "steps": [["S", "M"], ["S", "R"], ["W", "A"]]}),
        )
        .unwrap();
        assert_eq!(spec.label(1, 0).as_deref(), Some("S1901M"));
        assert_eq!(spec.label(1, 1).as_deref(), Some("S1901R"));
        assert_eq!(spec.label(3, 2).as_deref(), Some("W1903A"));
        assert_eq!(spec.label(1, 3), None);
        for bad in [
            json!({"steps": []}),
            json!({"first_year": 1901}),
            json!({"first_year": 1901, "steps": [["S"]]}),
            json!({"first_year": 1901, "steps": [["S", 2]]}),
        ] {
            assert!(
                LabelSpec::from_json(&bad)
                    .unwrap_err()
                    .starts_with("phase_labels: "),
                "{bad}"
            );
        }
    }

    /// Where a compile's "C stack overflow" is placed: the line nested deepest in brackets or
    /// blocks, strings and comments aside.
    #[test]
    fn the_deepest_nesting_is_found_through_blocks_not_strings_or_comments() {
        let blocks = format!(
            "local t = {{ a = {{ b = 1 }} }} -- ((((((\nlocal s = \"((((((\"\n{}local z = 1\n{}",
            "do\n".repeat(30),
            "end\n".repeat(30)
        );
        assert_eq!(super::deepest_nesting_line(&blocks), 32);
        let mixed = "local function f()\n  if x then\n    return g(h({ 1 }))\n  end\nend\n";
        assert_eq!(super::deepest_nesting_line(mixed), 3);
    }
}
