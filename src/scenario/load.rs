//! Validation: spec -> `Scenario`. Collects every error it can find instead of stopping at the first.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::Spanned;

use super::error::ScenarioError;
use super::fingerprint::Fingerprint;
use super::spec::{ScenarioSpec, UnitFileSpec, UnitSpec};
use crate::board::{load_board_all, Board, SourceText};
use crate::engine::{Dice, GameState};

/// Budgets for the rules' Lua VM and event chains, with defaults a scenario may override.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub instructions: u64,
    pub memory_bytes: usize,
    pub event_depth: u32,
    pub events_per_command: u32,
    /// The wall-clock backstop of one call into the rules (ms): it stops work the instruction
    /// budget cannot count (docs/sandbox.md).
    pub wall_ms: u64,
    /// Rules the host vouches for run without the instruction budget and its backstop
    /// (docs/sandbox.md, "Trusted rules"): Lua 5.4 checks a count hook before every VM
    /// instruction, ~38% of a Diplomacy phase. The host decides, never the scenario file: a
    /// loop in trusted rules hangs the call. The memory limit and the C library guards still hold.
    pub trusted: bool,
}

/// Longest backstop a scenario may set, in seconds (ten minutes).
const MAX_WALL_SECONDS: f64 = 600.0;
/// What a scenario may set its other limits to: far above what any game needs (France 1940's
/// dearest call runs a few million instructions), never off.
const INSTRUCTIONS_RANGE: std::ops::RangeInclusive<u64> = 1_000..=10_000_000_000;
const MEMORY_MB_RANGE: std::ops::RangeInclusive<u64> = 1..=4_096;
const EVENT_DEPTH_RANGE: std::ops::RangeInclusive<u64> = 1..=1_000;
const EVENTS_PER_COMMAND_RANGE: std::ops::RangeInclusive<u64> = 1..=1_000_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            instructions: 20_000_000,
            memory_bytes: 128 << 20,
            event_depth: 32,
            events_per_command: 10_000,
            wall_ms: 10_000,
            trusted: false,
        }
    }
}

impl Limits {
    /// The limits a host set in Rust (`Scenario.limits`), held to the ranges a scenario file
    /// may set: `instructions = 0` used to fail at load as a script that ran out of budget.
    /// The budget and its backstop are not checked for trusted rules, which run without them.
    pub fn check(&self) -> Result<(), String> {
        let out_of = |field: &str, value: u64, range: std::ops::RangeInclusive<u64>| {
            Err(format!(
                "limits.{field} = {value} is out of range: {} to {} (Scenario.limits, set by the host)",
                range.start(),
                range.end()
            ))
        };
        if !self.trusted && !INSTRUCTIONS_RANGE.contains(&self.instructions) {
            return out_of("instructions", self.instructions, INSTRUCTIONS_RANGE);
        }
        let wall_ms_range = 1..=(MAX_WALL_SECONDS as u64) * 1000;
        if !self.trusted && !wall_ms_range.contains(&self.wall_ms) {
            return out_of("wall_ms", self.wall_ms, wall_ms_range);
        }
        let memory_range = (MEMORY_MB_RANGE.start() << 20)..=(MEMORY_MB_RANGE.end() << 20);
        let memory = self.memory_bytes as u64;
        if !memory_range.contains(&memory) {
            return out_of("memory_bytes", memory, memory_range);
        }
        if !EVENT_DEPTH_RANGE.contains(&u64::from(self.event_depth)) {
            return out_of("event_depth", self.event_depth.into(), EVENT_DEPTH_RANGE);
        }
        if !EVENTS_PER_COMMAND_RANGE.contains(&u64::from(self.events_per_command)) {
            return out_of(
                "events_per_command",
                self.events_per_command.into(),
                EVENTS_PER_COMMAND_RANGE,
            );
        }
        Ok(())
    }
}

/// The name `choose_bot` reads as the built-in random bot rather than a Lua module.
pub const RANDOM_BOT: &str = "random";

/// A validated scenario: the map is sound, every unit stands on it, every side exists.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The scenario file.
    pub path: PathBuf,
    pub id: String,
    pub name: String,
    pub description: String,
    /// The board: a hex map or an area map (the map file says which).
    pub map: Board,
    pub rules: Vec<String>,
    pub rule_roots: Vec<PathBuf>,
    pub sides: Vec<String>,
    /// Lua bot modules by side (`[[side]] bot = "demo.ai"`); sides without one get the random bot.
    pub bots: BTreeMap<String, String>,
    /// The bots the host chose instead of the scenario's (`Scenario::choose_bot`, `hexwar run
    /// --bot`): side -> module, or `random`. Saves record them, so a resumed game keeps them.
    pub chosen_bots: BTreeMap<String, String>,
    /// The mods the host added after the scenario's rules (`Session::start_with_mods`, `hexwar
    /// run --mod`), as given: batch records and statistics name them.
    pub mods: Vec<PathBuf>,
    pub turns: u32,
    pub seed: u64,
    pub limits: Limits,
    /// The position at the start (turn 0 until the game starts).
    pub initial: GameState,
    /// The hashes of the scenario, map and unit files, to tie saves and replays to them.
    pub fingerprint: Fingerprint,
}

impl Scenario {
    /// The Lua modules a game of this scenario runs: its rules, then the sides' bot modules
    /// not among them (a bot outside the rules' folders plays the game too, so saves and batch
    /// records hash it with them; a replay, which plays its recorded commands, hashes the rules).
    pub fn played_modules(&self) -> Vec<String> {
        let mut out = self.rules.clone();
        for bot in self.bots.values() {
            if !out.contains(bot) {
                out.push(bot.clone());
            }
        }
        out
    }

    /// Plays `side` with the Lua bot `module` (a module under the rule roots) or, for
    /// [`RANDOM_BOT`], the built-in random bot, instead of the bot the scenario names. Before the
    /// game's rules are loaded: they load the bot modules. The error names what is wrong (an
    /// unknown side or module, with the nearest name).
    pub fn choose_bot(&mut self, side: &str, module: &str) -> Result<(), String> {
        if !self.sides.iter().any(|s| s == side) {
            return Err(crate::spelling::unknown_side(side, &self.sides));
        }
        if module.eq_ignore_ascii_case(RANDOM_BOT) && module != RANDOM_BOT {
            return Err(format!(
                "unknown bot module '{module}': did you mean '{RANDOM_BOT}', the built-in random bot?"
            ));
        }
        if module == RANDOM_BOT {
            self.bots.remove(side);
        } else if module.ends_with(".lua") {
            // (a bot in a file of its own, outside the rule roots: `bots/mine.lua`)
            let name = self.add_module_file(Path::new(module), "a bot")?;
            self.bots.insert(side.to_string(), name);
        } else if crate::rules::find_module(&self.rule_roots, module).is_some() {
            self.bots.insert(side.to_string(), module.to_string());
        } else {
            return Err(unknown_bot(
                &self.rule_roots,
                module,
                &format!(
                    "; '{RANDOM_BOT}' is the built-in random bot, and a bot in a file of its own \
                     is named by its path: bots/mine.lua"
                ),
            ));
        }
        self.chosen_bots
            .insert(side.to_string(), module.to_string());
        Ok(())
    }

    /// Adds the Lua file `file` as a mod, loaded after the scenario's rules modules (as
    /// [`crate::Session::start_with_mods`] does), and records it in [`Scenario::mods`], so a save
    /// of the game names it and a resumed game loads it again. For a host that adjusts the
    /// scenario (its `limits`, say) before `Session::start_scenario`. The error says why the
    /// file cannot be a mod.
    pub fn add_mod(&mut self, file: &Path) -> Result<(), String> {
        let module = self.add_module_file(file, "a mod")?;
        self.rules.push(module);
        self.mods.push(file.to_path_buf());
        Ok(())
    }

    /// Makes the Lua file `file` a module of the game: its folder becomes one more rule root
    /// and its file name the module's name, which it returns (a mod, a bot of its own). A file
    /// whose name is no module name, or is taken by another module the roots hold, is refused
    /// (`require` would find the other one and the file would silently not run). `what` names
    /// the file in messages (`a mod`). It does not run the module: a mod is added with
    /// [`Scenario::add_mod`], which also lists it among the modules to load and in saves.
    pub fn add_module_file(&mut self, file: &Path, what: &str) -> Result<String, String> {
        let module = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if file.extension().is_none_or(|e| e != "lua") {
            return Err(format!("{what} is a .lua file"));
        }
        if !file.is_file() {
            return Err(match std::fs::metadata(file) {
                Ok(_) => "not a regular file (a directory, a pipe or a device)".into(),
                Err(_) if file.is_relative() => {
                    "no such file (a path without a leading '/' is read from the working directory)"
                        .into()
                }
                Err(_) => "no such file".into(),
            });
        }
        // (a dot would read as a folder: `my.mod` is `my/mod.lua`)
        let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if module.is_empty() || !module.chars().all(plain) {
            return Err(format!(
                "'{module}' cannot be a module name (letters, digits, '_' and '-' only): \
                 rename the file"
            ));
        }
        // (`init.lua` is a folder module's first file: a file of that name would make its whole
        // folder the module, every file beside it checked and hashed with it)
        if module == "init" {
            return Err(format!(
                "'init' cannot be {what}'s name (init.lua is a folder module's first file): \
                 rename the file; a variant written as a folder is listed in a scenario's \
                 `rules` by its path under a rule root (scenarios/diplomacy-francqueville lists \
                 diplomacy/variants/francqueville)"
            ));
        }
        let same = |other: &Path| match (other.canonicalize(), file.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if self.rules.contains(&module) {
            // (the very file given twice, or another of the same name)
            let given_before = self.mods.iter().any(|m| same(m));
            return Err(if given_before {
                "given twice: a mod loads once".to_string()
            } else {
                format!("a module named '{module}' is already loaded: rename the file")
            });
        }
        if let Some(other) = crate::rules::find_module(&self.rule_roots, &module) {
            // (the same file again: a bot chosen for two sides)
            if same(&other) {
                return Ok(module);
            }
            return Err(format!(
                "'{module}' is the name of {}, which `require` would find first: rename the file",
                other.display()
            ));
        }
        // (a file named without a folder is in the working directory)
        let root = match file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !self.rule_roots.contains(&root) {
            self.rule_roots.push(root);
        }
        Ok(module)
    }

    /// A fresh starting state with the given seed.
    pub fn initial_state(&self, seed: u64) -> GameState {
        let mut state = self.initial.clone();
        state.dice = Dice::new(seed);
        state
    }
}

/// Loads a scenario from a file, or from a directory holding `scenario.toml`.
pub fn load_scenario(path: &Path) -> Result<Scenario, Vec<ScenarioError>> {
    let file = if path.is_dir() {
        path.join("scenario.toml")
    } else {
        path.to_path_buf()
    };
    let source = SourceText::read(&file).map_err(|e| {
        // (bytes that are not UTF-8 are at a line: `FILE:LINE: why`)
        if let Some(bad) = crate::board::NotUtf8::of(&e) {
            return vec![ScenarioError::spec(&file, bad.line, bad.why())];
        }
        vec![ScenarioError::Unreadable {
            file: file.clone(),
            kind: e.kind(),
            message: e.to_string(),
        }]
    })?;
    parse_scenario(&source)
}

/// The rule roots (resolved against the scenario's folder `dir`) and the rules modules a
/// scenario names.
fn roots_and_modules(spec: &ScenarioSpec, dir: &Path) -> (Vec<PathBuf>, Vec<String>) {
    let roots = spec
        .rule_roots
        .as_ref()
        .map_or_else(|| vec!["../../rules".to_string()], |r| r.get_ref().clone())
        .iter()
        .map(|r| dir.join(r))
        .collect();
    let modules = spec
        .rules
        .get_ref()
        .iter()
        .map(|r| r.get_ref().clone())
        .collect();
    (roots, modules)
}

/// The rule roots and modules a scenario file names, when its TOML can be read at all, however
/// broken the rest of it: `hexwar check` looks for syntax errors in the modules of a scenario
/// that fails to load, so that it lists those errors too.
pub fn rules_named(path: &Path) -> Option<(Vec<PathBuf>, Vec<String>)> {
    let file = if path.is_dir() {
        path.join("scenario.toml")
    } else {
        path.to_path_buf()
    };
    let text = crate::board::SourceText::read(&file).ok()?.text;
    let spec: ScenarioSpec = toml::from_str(&text).ok()?;
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    Some(roots_and_modules(&spec, &dir))
}

/// Validates scenario text whose path says where it lives: the map, unit files and rule roots
/// it names are read relative to that path's folder (fuzzing and tests give text directly).
pub fn parse_scenario(source: &SourceText) -> Result<Scenario, Vec<ScenarioError>> {
    let file = source.path.clone();
    let spec: ScenarioSpec = crate::board::parse_toml(&source.text).map_err(|errors| {
        // (a map file given for the scenario: said once, not as every key it has that a
        // scenario lacks, `unknown field 'columns'`)
        let table: Option<toml::Table> = toml::from_str(&source.text).ok();
        if table.is_some_and(|t| {
            t.contains_key("grid") && t.contains_key("columns") && !t.contains_key("rules")
        }) {
            return vec![ScenarioError::spec(
                &file,
                1,
                "this is a map file (columns, rows, grid), not a scenario: give the scenario's \
                 folder or its scenario.toml, which names the map"
                    .to_string(),
            )];
        }
        errors
            .into_iter()
            .map(|e| ScenarioError::spec(&file, source.line_of(e.offset), e.message))
            .collect::<Vec<_>>()
    })?;
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut errors = Vec::new();
    let mut fingerprint = Fingerprint::default();
    fingerprint.add(&source.text);
    let at = |s: &Spanned<String>| source.line_of(s.span().start);

    let map_path = dir.join(spec.map.get_ref());
    let map = match load_board_all(&map_path) {
        Ok(map) => Some(map),
        Err(e) => {
            errors.extend(e.into_iter().map(ScenarioError::from));
            None
        }
    };
    // Hashed only once it loaded: the reader refuses devices and huge files, a plain read
    // of `map = "/dev/zero"` would never end (a fuzz finding).
    if map.is_some() {
        if let Ok(source) = SourceText::read(&map_path) {
            fingerprint.add(&source.text);
        }
    }

    let sides: Vec<String> = spec
        .sides
        .iter()
        .map(|s| s.name.get_ref().clone())
        .collect();
    for (i, side) in sides.iter().enumerate() {
        if let Some(first) = sides[..i].iter().position(|s| s == side) {
            errors.push(ScenarioError::spec(
                &file,
                at(&spec.sides[i].name),
                format!(
                    "side '{side}' is declared twice (first at line {})",
                    at(&spec.sides[first].name)
                ),
            ));
        }
    }
    // On an area map that declares powers, the sides are the powers: a power without a side has
    // no one to order its units, a side that is no power has no units or centres.
    if let Some(area) = map.as_ref().and_then(|m| m.as_area()) {
        let powers: Vec<&str> = area.powers().iter().map(|p| p.name.as_str()).collect();
        if !powers.is_empty() {
            for side in &spec.sides {
                if !powers.contains(&side.name.get_ref().as_str()) {
                    errors.push(ScenarioError::spec(
                        &file,
                        at(&side.name),
                        format!(
                            "side '{}' is not a power of the map (powers: {})",
                            side.name.get_ref(),
                            powers.join(", ")
                        ),
                    ));
                }
            }
            for power in &powers {
                if !sides.iter().any(|s| s == power) {
                    errors.push(ScenarioError::spec(
                        &file,
                        1,
                        format!("power {power} of the map has no [[side]] (add [[side]] name = \"{power}\")"),
                    ));
                }
            }
        }
    }
    if sides.is_empty() {
        errors.push(ScenarioError::spec(
            &file,
            1,
            "the scenario declares no [[side]]",
        ));
    }
    if spec.rules.get_ref().is_empty() {
        errors.push(ScenarioError::spec(
            &file,
            source.line_of(spec.rules.span().start),
            "rules = [] names no rules module",
        ));
    }
    let turns = *spec.turns.get_ref();
    if turns == 0 {
        errors.push(ScenarioError::spec(
            &file,
            source.line_of(spec.turns.span().start),
            "turns must be at least 1",
        ));
    }

    // Units from the scenario file and from unit files, each with the file it came from; errors
    // point at the offending field's line.
    // (the file's text is shared by its units, not copied for each: 6000 units in a 443 KB
    // file took 2.7 GB)
    let scenario_source = std::rc::Rc::new(source.clone());
    let mut unit_specs: Vec<(std::rc::Rc<SourceText>, UnitSpec)> = spec
        .units
        .iter()
        .map(|u| (std::rc::Rc::clone(&scenario_source), u.get_ref().clone()))
        .collect();
    for unit_file in &spec.unit_files {
        let path = dir.join(unit_file.get_ref());
        match SourceText::read(&path) {
            Err(e) => errors.push(match crate::board::NotUtf8::of(&e) {
                // (bytes that are not UTF-8 are at a line of the unit file)
                Some(bad) => ScenarioError::spec(&path, bad.line, bad.why()),
                None => ScenarioError::spec(
                    &file,
                    at(unit_file),
                    format!("cannot read unit file {}: {e}", path.display()),
                ),
            }),
            Ok(src) => {
                fingerprint.add(&src.text);
                match crate::board::parse_toml::<UnitFileSpec>(&src.text) {
                    Err(found) => errors.extend(
                        found
                            .into_iter()
                            .map(|e| ScenarioError::spec(&path, src.line_of(e.offset), e.message)),
                    ),
                    Ok(units) => {
                        let src = std::rc::Rc::new(src);
                        unit_specs.extend(
                            units
                                .units
                                .into_iter()
                                .map(|u| (std::rc::Rc::clone(&src), u.into_inner())),
                        )
                    }
                }
            }
        }
    }

    let mut units = BTreeMap::new();
    // (where each id was first given: a second use names both places, one of which may be in
    // another file, a unit file or the scenario)
    let mut first_at: BTreeMap<String, (PathBuf, usize)> = BTreeMap::new();
    for (src, u) in unit_specs {
        let line_of = |s: &Spanned<String>| src.line_of(s.span().start);
        let side = u.side.get_ref().clone();
        if !sides.contains(&side) {
            errors.push(ScenarioError::spec(
                &src.path,
                line_of(&u.side),
                format!(
                    "unit '{}': {}",
                    u.id,
                    crate::spelling::unknown_side(&side, &sides)
                ),
            ));
        }
        if let (Some(map), Some(place)) = (&map, &u.at) {
            if !map.is_place(place.get_ref()) {
                errors.push(ScenarioError::spec(
                    &src.path,
                    line_of(place),
                    // (a value of megabytes, a fuzzer's, was quoted whole)
                    format!(
                        "unit '{}': '{}' is not a {} of the map{}",
                        crate::spelling::clipped(&u.id, 80),
                        crate::spelling::clipped(place.get_ref(), 80),
                        map.place_word(),
                        map.unknown_place_hint(place.get_ref())
                    ),
                ));
            }
        }
        let line = line_of(&u.side);
        // (a save of it would not read back: a save's reader refuses a unit without an id)
        if u.id.is_empty() {
            errors.push(ScenarioError::spec(
                &src.path,
                line,
                "unit: the id is empty: every unit needs an id of its own (\"b-inf-1\")",
            ));
        }
        if let Some((path, first)) = first_at.get(&u.id) {
            let place = if *path == src.path {
                format!("line {first}")
            } else {
                format!("{}:{first}", path.display())
            };
            errors.push(ScenarioError::spec(
                &src.path,
                line,
                format!("unit id '{}' is used twice (first at {place})", u.id),
            ));
        } else {
            first_at.insert(u.id.clone(), (src.path.clone(), line));
        }
        // (each at its own line: the allowance's, the strength's, the side's for attrs)
        let numbers_checked = u
            .numbers_checked(u.side.span().start)
            .map_err(|(offset, e)| (src.line_of(offset), e));
        let side_line = line_of(&u.side);
        let unit = u.into_unit(map.as_ref());
        // (numbers a save can hold; a second facing that is a direction, as saves are checked:
        // `facing2 = -1` or `2.5` was taken as no second facing, and a save of the game was
        // then refused)
        let numbers = numbers_checked.and_then(|()| {
            let Some(v) = unit.attrs.get("facing2") else {
                return Ok(());
            };
            super::fit::facing2_number(v)
                .and_then(|f| super::direction(f, "facing2"))
                .map_err(|e| (side_line, e))
        });
        if let Err((line, e)) = numbers {
            errors.push(ScenarioError::spec(
                &src.path,
                line,
                format!("unit '{}': {e}", unit.id),
            ));
        }
        units.insert(unit.id.clone(), unit);
    }

    let mut control = BTreeMap::new();
    // (a place named outright twice: for two sides, the last read won without a word; a zone
    // may overlap another zone or a place, as a designer's broad stroke)
    let mut named: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut name_once =
        |place: String, side: &str, line: usize, errors: &mut Vec<ScenarioError>| {
            if let Some((first, first_line)) = named.get(&place) {
                let whose = if first == side {
                    format!("twice for {side}")
                } else {
                    format!("for {first} (line {first_line}) and for {side}")
                };
                errors.push(ScenarioError::spec(
                    &file,
                    line,
                    format!("[control]: '{place}' is given {whose}; name each place once"),
                ));
            } else {
                named.insert(place, (side.to_string(), line));
            }
        };
    // (how an entry gave a hex, for messages: " by zone:x", or nothing for the hex itself)
    let by_zone = |entry: &str| {
        if entry.starts_with("zone:") {
            format!(" by {entry}")
        } else {
            String::new()
        }
    };
    // (each hex with the side, entry and line that first gave it, zones included)
    let mut given_by: BTreeMap<String, (String, String, usize)> = BTreeMap::new();
    for (side, places) in &spec.control {
        // (said once, where its list starts: not once per place)
        if !sides.contains(side) {
            let message = format!("[control]: {}", crate::spelling::unknown_side(side, &sides));
            // (an empty list has no place to name: the line of its key, `greem = []`, which
            // gave nothing and was taken without a word)
            let line = match places.first() {
                Some(first) => at(first),
                None => crate::session::table_line(source, &message),
            };
            errors.push(ScenarioError::spec(&file, line, message));
            continue;
        }
        for place in places {
            let Some(board) = &map else { continue };
            let name = place.get_ref();
            let Some(map) = board.as_hex() else {
                // Area boards: control is keyed by region.
                if let Some(id) = board.canonical_place(name) {
                    name_once(id.to_string(), side, at(place), &mut errors);
                    control.insert(id.into_owned(), side.clone());
                } else {
                    // (zones are a hex map's; a misspelt region gets the nearest one)
                    let hint = if name.starts_with("zone:") {
                        " (an area map has no zones: name each region)".to_string()
                    } else {
                        board.unknown_place_hint(name)
                    };
                    errors.push(ScenarioError::spec(
                        &file,
                        at(place),
                        format!("[control]: '{name}' is not a region of the map{hint}"),
                    ));
                }
                continue;
            };
            let hexes = match name.strip_prefix("zone:") {
                Some(zone) => map.zone_hexes(zone).ok_or_else(|| {
                    let why = crate::spelling::unknown_name(
                        "zone",
                        zone,
                        map.zone_names(),
                        "this map has",
                    );
                    format!("[control]: {why}")
                }),
                None => map.parse_label(name).map(|i| vec![i]).ok_or_else(|| {
                    format!(
                        "[control]: '{name}' is not a hex of the map{}",
                        map.labels_hint()
                    )
                }),
            };
            match hexes {
                Ok(hexes) => {
                    if !name.starts_with("zone:") {
                        name_once(name.to_string(), side, at(place), &mut errors);
                    }
                    // (a hex a zone gives one side and another entry the other: the later
                    // entry silently won; said once per pair of entries)
                    let mut clash: Option<(String, (String, String, usize))> = None;
                    for i in hexes {
                        let label = map.label(i);
                        if let Some(other) = given_by.get(&label) {
                            if other.0 != *side && clash.is_none() {
                                clash = Some((label.clone(), other.clone()));
                            }
                        } else {
                            given_by.insert(label.clone(), (side.clone(), name.clone(), at(place)));
                        }
                        control.insert(label, side.clone());
                    }
                    // (two plain entries are name_once's to tell)
                    if let Some((label, (other_side, other_entry, other_line))) = clash {
                        if name.starts_with("zone:") || other_entry.starts_with("zone:") {
                            errors.push(ScenarioError::spec(
                                &file,
                                at(place),
                                format!(
                                    "[control]: '{label}' is given to {other_side}{} (line \
                                     {other_line}) and to {side}{}; give each hex to one side",
                                    by_zone(&other_entry),
                                    by_zone(name)
                                ),
                            ));
                        }
                    }
                }
                Err(m) => errors.push(ScenarioError::spec(&file, at(place), m)),
            }
        }
    }

    let (roots, rules) = roots_and_modules(&spec, &dir);
    // (`rule_roots = []` leaves no folder to look in: said once, not as every module and bot
    // unknown "under " nothing)
    if let Some(given) = spec.rule_roots.as_ref().filter(|r| r.get_ref().is_empty()) {
        errors.push(ScenarioError::spec(
            &file,
            source.line_of(given.span().start),
            "rule_roots = [] names no folder to load the rules modules from: name one, or leave \
             rule_roots out for the default, ../../rules",
        ));
    }
    for module in spec.rules.get_ref().iter().filter(|_| !roots.is_empty()) {
        if crate::rules::find_module(&roots, module.get_ref()).is_none() {
            errors.push(ScenarioError::spec(
                &file,
                at(module),
                {
                    // (a dotted name is a path: `f40walk.combat` is f40walk/combat.lua)
                    let name = crate::spelling::clipped(module.get_ref(), 100);
                    let path = name.replace('.', "/");
                    format!(
                        "unknown rules module '{name}' (looked for {path}.lua and {path}/init.lua under {}){}",
                        display_roots(&roots),
                        module_hint(&roots, module.get_ref())
                    )
                },
            ));
        }
    }

    let mut bots = BTreeMap::new();
    for side in &spec.sides {
        if let Some(bot) = &side.bot {
            let module = bot.get_ref();
            // (the built-in random bot, as `--bot SIDE=random` names it: the same as no bot)
            if module == RANDOM_BOT {
                continue;
            }
            if !roots.is_empty() && crate::rules::find_module(&roots, module).is_none() {
                let why = if module.eq_ignore_ascii_case(RANDOM_BOT) {
                    format!(
                        "unknown bot module '{module}': did you mean '{RANDOM_BOT}', the built-in \
                         random bot?"
                    )
                } else {
                    unknown_bot(&roots, module, "")
                };
                errors.push(ScenarioError::spec(
                    &file,
                    at(bot),
                    format!("side '{}': {why}", side.name.get_ref()),
                ));
            }
            bots.insert(side.name.get_ref().clone(), module.clone());
        }
    }

    let mut limits = Limits::default();
    // (each limit has a ceiling: a scenario, or a mod shipped with one, may raise its budgets
    // but not switch them off; only the host may, with `trusted`)
    let mut within = |name: &str, value: u64, range: std::ops::RangeInclusive<u64>, at: usize| {
        if range.contains(&value) {
            return true;
        }
        errors.push(ScenarioError::spec(
            &file,
            source.line_of(at),
            format!(
                "[limits] {name} = {value}: must be between {} and {}",
                range.start(),
                range.end()
            ),
        ));
        false
    };
    if let Some(n) = &spec.limits.instructions {
        if within(
            "instructions",
            *n.get_ref(),
            INSTRUCTIONS_RANGE,
            n.span().start,
        ) {
            limits.instructions = *n.get_ref();
        }
    }
    if let Some(mb) = &spec.limits.memory_mb {
        if within("memory_mb", *mb.get_ref(), MEMORY_MB_RANGE, mb.span().start) {
            limits.memory_bytes = (*mb.get_ref() as usize).saturating_mul(1 << 20);
        }
    }
    if let Some(d) = &spec.limits.event_depth {
        if within(
            "event_depth",
            u64::from(*d.get_ref()),
            EVENT_DEPTH_RANGE,
            d.span().start,
        ) {
            limits.event_depth = *d.get_ref();
        }
    }
    if let Some(n) = &spec.limits.events_per_command {
        let value = u64::from(*n.get_ref());
        if within(
            "events_per_command",
            value,
            EVENTS_PER_COMMAND_RANGE,
            n.span().start,
        ) {
            limits.events_per_command = *n.get_ref();
        }
    }
    if let Some(seconds) = &spec.limits.seconds {
        let s = *seconds.get_ref();
        if (0.001..=MAX_WALL_SECONDS).contains(&s) {
            limits.wall_ms = (s * 1000.0).round() as u64;
        } else {
            errors.push(ScenarioError::spec(
                &file,
                source.line_of(seconds.span().start),
                format!(
                    "[limits] seconds = {s}: the wall-clock backstop must be between 0.001 and \
                     {MAX_WALL_SECONDS} seconds"
                ),
            ));
        }
    }

    if !errors.is_empty() {
        return Err(errors);
    }
    let Some(map) = map else { return Err(errors) };
    let initial = GameState {
        scenario: spec.id.clone(),
        turn: 0,
        step: 0,
        units,
        gone: BTreeMap::new(),
        control,
        dice: Dice::new(spec.seed),
        vars: spec
            .vars
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into()))
            .collect(),
        outcome: None,
        map_changes: Default::default(),
        revision: crate::engine::Revision::default(),
    };
    Ok(Scenario {
        path: file,
        id: spec.id,
        name: spec.name,
        description: spec.description,
        map,
        rules,
        rule_roots: roots,
        sides,
        bots,
        chosen_bots: BTreeMap::new(),
        mods: Vec::new(),
        turns,
        seed: spec.seed,
        limits,
        initial,
        fingerprint,
    })
}

/// `: did you mean 'france1940.ai'?` for a module name near one under the roots, else nothing.
fn module_hint(roots: &[PathBuf], module: &str) -> String {
    crate::rules::nearest_module(roots, module)
        .map(|m| format!(": did you mean '{m}'?"))
        .unwrap_or_default()
}

/// Why a side's bot module cannot be played: no such module under the roots. `also`: what
/// else the name may be, said with the roots.
fn unknown_bot(roots: &[PathBuf], module: &str, also: &str) -> String {
    format!(
        "unknown bot module '{}' (looked under {}{also}){}",
        crate::spelling::clipped(module, 100),
        display_roots(roots),
        module_hint(roots, module)
    )
}

fn display_roots(roots: &[PathBuf]) -> String {
    roots
        .iter()
        .map(|r| r.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::{parse_scenario, Scenario};
    use crate::board::SourceText;

    /// The demo's map and rules with two sides, `top` among the top-level keys and `tail`
    /// after the sides; the errors as the user reads them.
    fn demo_with(top: &str, tail: &str) -> Result<Scenario, Vec<String>> {
        let text = format!(
            "id = \"t\"\nname = \"T\"\nmap = \"map.toml\"\nrules = [\"lib\", \"demo\"]\nturns = 2\n\
             {top}\n[[side]]\nname = \"blue\"\n[[side]]\nname = \"red\"\n{tail}"
        );
        parse_scenario(&SourceText::new("scenarios/demo/scenario.toml", text))
            .map_err(|errors| errors.iter().map(ToString::to_string).collect())
    }

    /// A scenario is called a map file only when it has a map's `grid` and `columns` and no
    /// `rules`: a scenario with stray map keys is told its unknown keys.
    #[test]
    fn a_scenario_with_stray_map_keys_is_not_called_a_map_file() {
        let errors = demo_with("grid = \"hex\"\ncolumns = 2", "").unwrap_err();
        let expected = "expected one of `id`, `name`, `description`, `map`, `rules`, \
                        `rule_roots`, `turns`, `seed`, `limits`, `side`, `unit`, `unit_files`, \
                        `control`, `vars`";
        assert_eq!(
            errors,
            vec![
                format!(
                    "scenarios/demo/scenario.toml:6: TOML: unknown field `grid` (did you mean \
                     `id`?), {expected}"
                ),
                format!(
                    "scenarios/demo/scenario.toml:7: TOML: unknown field `columns`, {expected}"
                ),
            ]
        );
    }

    /// A hex a side's zone gives and the same side names again is no clash; of a zone clashing
    /// with several hexes of the other side, the first is named.
    #[test]
    fn a_hex_given_to_one_side_twice_by_zone_is_no_clash_and_the_first_clash_is_named() {
        let s = demo_with("", "[control]\nblue = [\"zone:blue_setup\", \"0102\"]\n").unwrap();
        assert_eq!(
            s.initial.control.get("0102").map(String::as_str),
            Some("blue")
        );
        let errors = demo_with(
            "",
            "[control]\nblue = [\"1207\", \"1208\"]\nred = [\"zone:red_setup\"]\n",
        )
        .unwrap_err();
        assert_eq!(
            errors,
            vec![
                "scenarios/demo/scenario.toml:13: [control]: '1207' is given to blue (line 12) \
                 and to red by zone:red_setup; give each hex to one side"
                    .to_string()
            ]
        );
    }

    /// `bot = "random"` is the built-in random bot, as `--bot SIDE=random` names it (it was
    /// refused as an unknown module); another case of it is refused with the name to use.
    #[test]
    fn a_side_may_name_the_built_in_random_bot() {
        let s = demo_with("", "bot = \"random\"\n").unwrap();
        assert!(s.bots.is_empty(), "{:?}", s.bots);
        assert_eq!(
            demo_with("", "bot = \"Random\"\n").unwrap_err(),
            vec![
                "scenarios/demo/scenario.toml:11: side 'red': unknown bot module 'Random': did \
                 you mean 'random', the built-in random bot?"
                    .to_string()
            ]
        );
    }

    /// A side `[control]` does not know is refused, with an empty list too (at its key's line:
    /// `greem = []` gave nothing, and was taken without a word).
    #[test]
    fn an_unknown_side_in_control_is_refused_even_with_no_places() {
        for (list, line) in [("[]", 13), ("[\"0101\"]", 13)] {
            let errors =
                demo_with("", &format!("[control]\nblue = []\ngreem = {list}\n")).unwrap_err();
            assert_eq!(
                errors,
                vec![format!(
                    "scenarios/demo/scenario.toml:{line}: [control]: unknown side 'greem' (sides: \
                     blue, red)"
                )]
            );
        }
    }

    /// `rule_roots = []` is said once, at its line, not as every module unknown "under "
    /// no folder.
    #[test]
    fn empty_rule_roots_are_named_at_their_line() {
        let errors = demo_with("rule_roots = []", "bot = \"demo.ai\"\n").unwrap_err();
        assert_eq!(
            errors,
            vec![
                "scenarios/demo/scenario.toml:6: rule_roots = [] names no folder to load the \
                 rules modules from: name one, or leave rule_roots out for the default, \
                 ../../rules"
                    .to_string()
            ]
        );
        let s = demo_with("rule_roots = [\"../../rules\"]", "bot = \"demo.ai\"\n").unwrap();
        assert_eq!(s.bots.get("red").map(String::as_str), Some("demo.ai"));
    }

    /// A scenario with no side, no rules module or no turn is refused at each, where it is
    /// written (the sides at the top: `side = []` has no table of its own).
    #[test]
    fn no_side_no_rules_module_and_no_turn_are_each_refused() {
        let text =
            "id = \"t\"\nname = \"T\"\nmap = \"map.toml\"\nrules = []\nturns = 0\nside = []\n";
        let errors: Vec<String> =
            parse_scenario(&SourceText::new("scenarios/demo/scenario.toml", text))
                .unwrap_err()
                .iter()
                .map(ToString::to_string)
                .collect();
        assert_eq!(
            errors,
            vec![
                "scenarios/demo/scenario.toml:1: the scenario declares no [[side]]",
                "scenarios/demo/scenario.toml:4: rules = [] names no rules module",
                "scenarios/demo/scenario.toml:5: turns must be at least 1",
            ]
        );
    }

    /// A unit file that cannot be read is named, with why, at the line that names it.
    #[test]
    fn an_unreadable_unit_file_is_named_at_its_line() {
        let errors = demo_with("unit_files = [\"nope.toml\"]", "").unwrap_err();
        assert_eq!(
            errors,
            vec!["scenarios/demo/scenario.toml:6: cannot read unit file \
                 scenarios/demo/nope.toml: No such file or directory (os error 2)"
                .to_string()]
        );
    }

    /// `[limits]` as read: each value kept in the unit the engine counts in.
    #[test]
    fn limits_are_read_in_the_engines_units() {
        let s = demo_with(
            "",
            "[limits]\ninstructions = 5000\nmemory_mb = 64\nevent_depth = 7\n\
             events_per_command = 99\nseconds = 2.5\n",
        )
        .unwrap();
        assert_eq!(
            s.limits,
            super::Limits {
                instructions: 5000,
                memory_bytes: 64 << 20,
                event_depth: 7,
                events_per_command: 99,
                wall_ms: 2500,
                trusted: false,
            }
        );
        assert_eq!(demo_with("", "").unwrap().limits, super::Limits::default());
    }
}
