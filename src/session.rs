//! A session ties a scenario, its Lua rules and a game together: start a new game, or resume
//! one from a save. This is the embedding entry point.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::board::SourceText;
use crate::bot::{
    play_keeping_report, PlayOptions, Played, RandomBot, RunLimit, RunReport, SideBots, SidesDone,
};
use crate::engine::{Dice, Event, EventLimits, Game, GameError, Ruleset, Save, SaveError};
use crate::rules::{LuaRules, RulesLoadError};
use crate::scenario::UnitSpec;
use crate::scenario::{load_scenario, Scenario, ScenarioError};

/// Anything that stops a game from being set up.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Every error found in the scenario (`load_scenario(path)?` converts to it).
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
    Scenario(Vec<ScenarioError>),
    #[error(transparent)]
    Rules(#[from] RulesLoadError),
    #[error(transparent)]
    Save(#[from] SaveError),
    #[error(transparent)]
    Game(#[from] GameError),
    /// The game could not start: the rules failed on its first events (a `PhaseStarted`
    /// handler). What the scripts printed on the way is kept, as a load error keeps it.
    #[error("{error}")]
    Start {
        error: GameError,
        printed: Vec<String>,
    },
    /// A `--setup` file that cannot be read or that the rules refuse.
    #[error("{file}{message}", file = .path.display())]
    Setup { path: PathBuf, message: String },
    /// A save whose content passes its checksum but does not fit its scenario (edited by hand,
    /// or the scenario changed under it): refused before the rules meet it.
    #[error("{path}: the save does not fit scenario '{scenario}': {message}", path = .path.display())]
    SaveMisfit {
        path: PathBuf,
        scenario: String,
        message: String,
    },
    /// A save whose scenario file is not where the save says.
    #[error("{path}: the save's scenario {scenario} is not there (a relative path is read from the working directory, as it was when the game started: resume from that directory, or correct \"scenario_path\" in the save)", path = .path.display(), scenario = .scenario.display())]
    SaveScenarioMissing { path: PathBuf, scenario: PathBuf },
    /// A mod that cannot be loaded as given.
    #[error("{path}: mod refused: {message}", path = .path.display())]
    Mod { path: PathBuf, message: String },
    /// A choice the host made for the game (`hexwar run --bot`) that its scenario cannot take.
    #[error("{0}")]
    HostChoice(String),
    #[error("{path}: the save belongs to scenario '{found}', but that file now holds scenario '{expected}'")]
    WrongScenario {
        path: PathBuf,
        found: String,
        expected: String,
    },
}

impl SessionError {
    /// The error's text, then what the rules' modules printed before a load error, a
    /// `script: ...` line each: for the places that show the error as one text (a Lua test's
    /// failure, a batch's game), where the CLI's own commands print those lines before it.
    pub fn with_script_output(&self) -> String {
        with_script_lines(self.to_string(), self.printed())
    }

    /// What the rules' scripts printed before the error: a load error's, a start's; none for
    /// the others.
    pub fn printed(&self) -> &[String] {
        match self {
            SessionError::Rules(e) => &e.printed,
            SessionError::Start { printed, .. } => printed,
            _ => &[],
        }
    }
}

/// `text`, then each line of what scripts printed (`printed`) as a `script: ...` line.
pub fn with_script_lines(mut text: String, printed: &[String]) -> String {
    for line in printed.iter().flat_map(|t| t.split('\n')) {
        text.push_str("\nscript: ");
        text.push_str(line);
    }
    text
}

impl From<Vec<ScenarioError>> for SessionError {
    fn from(errors: Vec<ScenarioError>) -> Self {
        SessionError::Scenario(errors)
    }
}

/// Adds mods to a scenario's rules: each a Lua file whose folder becomes one more rule root and
/// whose file name is the module. A mod whose name is not a module name, or is taken by another
/// mod or by a module the scenario's roots already hold, is refused: `require` would find the
/// other one and the mod would silently not run.
pub(crate) fn add_mods(scenario: &mut Scenario, mods: &[PathBuf]) -> Result<(), SessionError> {
    for file in mods {
        scenario
            .add_mod(file)
            .map_err(|message| SessionError::Mod {
                path: file.into(),
                message,
            })?;
    }
    Ok(())
}

/// Whether a save fits its scenario and rules (as `resume` and `check` ask): its state and
/// the sides it records ([`crate::scenario::Fit::save`]), and each unit in play as the rules
/// take units (a type without a facing rule, a movement class not declared), which failed
/// inside the rules at the first listing.
pub(crate) fn save_fits(
    save: &Save,
    scenario: &Scenario,
    rules: &mut dyn Ruleset,
) -> Result<(), String> {
    let fit = crate::scenario::Fit {
        board: &scenario.map,
        sides: &scenario.sides,
    };
    fit.save(save, rules.sequence(), scenario.turns)?;
    rules.map_changes_fit(&save.state.map_changes)?;
    save.state
        .units
        .values()
        .try_for_each(|unit| rules.unit_fits(unit))?;
    position_problems(rules.query(&save.state, POSITION_PROBLEMS, &serde_json::Value::Null))
}

/// The rules' query that judges a position they did not make: a save's, as it is resumed or
/// checked, or a scenario's start (its `[vars]`). A Diplomacy save resealed with an army at sea
/// was played on, since the engine checks only the units' fields and the rules' variables are
/// theirs to read.
const POSITION_PROBLEMS: &str = "position_problems";

/// The answer of [`POSITION_PROBLEMS`]: a list of what is wrong refuses the position.
fn position_problems(
    answer: Result<Option<serde_json::Value>, crate::engine::RulesError>,
) -> Result<(), String> {
    let answer = answer.map_err(|e| format!("the rules' position_problems query: {e}"))?;
    match answer {
        None | Some(serde_json::Value::Null) => Ok(()),
        Some(serde_json::Value::Array(list)) if list.is_empty() => Ok(()),
        Some(serde_json::Value::Object(map)) if map.is_empty() => Ok(()),
        Some(serde_json::Value::Array(list)) if list.iter().all(|p| p.is_string()) => {
            let problems: Vec<&str> = list.iter().filter_map(|p| p.as_str()).collect();
            Err(format!(
                "the rules find its position impossible: {}",
                problems.join("; ")
            ))
        }
        Some(other) => Err(format!(
            "the rules' position_problems query answered {other}, not a list of problems"
        )),
    }
}

/// A mod a save or replay records that cannot be loaded now (moved, or named from another
/// directory): the error with where the path came from and what to do (`how`).
pub(crate) fn recorded_mod_error(e: SessionError, how: &str) -> SessionError {
    match e {
        SessionError::Mod { path, message } => SessionError::Mod {
            path,
            message: format!("{message}; {how}"),
        },
        other => other,
    }
}

/// The line of `source` that writes the first thing `reason` quotes (`unit 'A NSA': ...` ->
/// the line holding `"A NSA"`; of a reason naming its key, `[units].RUSSIA: ...`, the line that
/// also names RUSSIA), or 0: the rules refuse a setup without knowing its lines.
fn quoted_line(source: &SourceText, reason: &str) -> usize {
    // (a key refused by name, `unknown key 'phse'`: the line that writes it, not a value or a
    // comment quoting the same word)
    if let Some(line) = reason
        .split_once("unknown key '")
        .and_then(|(_, rest)| rest.split('\'').next())
        .and_then(|key| key_line(source, key))
    {
        return line;
    }
    // (the engine's own keys, named first: `turn 99 is not a turn of this scenario`)
    if let Some(line) = reason
        .split_whitespace()
        .next()
        .filter(|word| ["turn", "phase", "side"].contains(word))
        .and_then(|key| key_line(source, key))
    {
        return line;
    }
    let key = reason
        .split_once("].")
        .and_then(|(_, rest)| rest.split_once(':'))
        .map(|(key, _)| key);
    let mut quotes = reason
        .split('\'')
        .skip(1)
        .step_by(2)
        .filter(|q| !q.is_empty());
    let Some(quoted) = quotes
        .clone()
        .find(|q| source.text.contains(&format!("\"{q}\"")))
    else {
        // (a message naming a table's key, `[units].RUSSIA must be a list`: that key's line)
        let about_table = match reason.starts_with('[') {
            true => reason,
            false => reason.split_once(": ").map_or(reason, |(_, r)| r),
        };
        return quotes
            .find_map(|q| key_line(source, q))
            .unwrap_or_else(|| table_line(source, about_table));
    };
    let written = format!("\"{quoted}\"");
    let on_key_line = key.and_then(|key| {
        source
            .text
            .lines()
            .position(|l| l.contains(&written) && l.trim_start().starts_with(key))
    });
    match on_key_line {
        Some(i) => i + 1,
        None => source
            .text
            .find(&written)
            .map_or(0, |at| source.line_of(at)),
    }
}

/// The line of `source` that writes the top-level key `key`: an entry before the first table
/// header (`phse = "combat"`, `phse.x = 1`, `"phse" = 1`) or a header opening it (`[phse]`,
/// `[[ phse ]]`, `[phse.x]`); a key of a table further down is another key.
fn key_line(source: &SourceText, key: &str) -> Option<usize> {
    let names_key = |text: &str, after: &[char]| writes_key(text, key, after);
    let mut in_table = false;
    for (i, line) in source.text.lines().enumerate() {
        let line = line.trim_start_matches('\u{feff}').trim_start();
        if let Some(header) = line.strip_prefix('[') {
            in_table = true;
            if names_key(header.trim_start_matches('['), &[']', '.']) {
                return Some(i + 1);
            }
        } else if !in_table && names_key(line, &['=', '.']) {
            return Some(i + 1);
        }
    }
    None
}

/// Whether `text` starts with the key `key`, bare or quoted (`phse`, `"phse"`, `'phse'`),
/// followed by one of `after` (what may follow a key there: `=` or `.` in an entry, `]` or `.`
/// in a header).
fn writes_key(text: &str, key: &str, after: &[char]) -> bool {
    let text = text.trim_start();
    [key.to_string(), format!("\"{key}\""), format!("'{key}'")]
        .iter()
        .any(|k| {
            text.strip_prefix(k.as_str())
                .and_then(|rest| rest.trim_start().chars().next())
                .is_some_and(|c| after.contains(&c))
        })
}

/// A dotted key's parts, unquoted and unspaced: `"units" . RUSSIA ` -> [units, RUSSIA].
fn dotted_parts(name: &str) -> Vec<&str> {
    name.split('.')
        .map(|p| p.trim().trim_matches(['"', '\'']))
        .collect()
}

/// What changed in the rules files a save recorded, as a resumed game is told
/// (`rules/demo/movement.lua changed, rules/demo/old.lua is gone`), or None: the files of
/// `saved_modules` (the modules the saved game ran) and the `loaded` files now, against the
/// save's hashes. `check` of a save asks it too.
pub fn save_rules_changes(
    save: &crate::engine::Save,
    scenario: &Scenario,
    saved_modules: &[String],
    loaded: &[PathBuf],
) -> Option<String> {
    // (saves written before rules were recorded have none: nothing to compare)
    if save.rules.is_empty() {
        return None;
    }
    let now = crate::rules::recorded_hashes(&scenario.rule_roots, saved_modules, loaded);
    // (a mod the save names but whose file it did not record was added to the save: extra Lua
    // the game never ran, which a host resuming others' saves must hear of)
    let mod_modules: Vec<String> = save
        .mods
        .iter()
        .filter_map(|m| m.file_stem())
        .map(|m| m.to_string_lossy().into_owned())
        .collect();
    let mod_files: Vec<String> = crate::rules::module_hashes(&scenario.rule_roots, &mod_modules)
        .into_keys()
        .collect();
    // (held to the files the game loads, not every file beside them)
    let in_play = crate::rules::loaded_names(&scenario.rule_roots, loaded);
    let in_play = (!loaded.is_empty()).then_some(&in_play);
    crate::rules::describe_module_changes(&save.rules, &now, &mod_files, in_play)
}

/// The line of a setup's table that a message about it names, or 0: `[control].blue: '9999' is
/// not a hex ...` -> the line holding `"9999"` in `[control]`; `[control].blue must be a list`
/// or `[units].RUSSIA must be a list` -> the line of that key in that table; `[control]: unknown
/// side 'bleu' ...` -> the line of the key `bleu`. The table may be written as a header
/// (`[units]`, `[ units ] # comment`, `[units.RUSSIA]`), as dotted keys (`units.RUSSIA = ...`)
/// or as an inline table (`units = { ... }`: its line).
pub(crate) fn table_line(source: &SourceText, message: &str) -> usize {
    let Some((table_name, rest)) = message.strip_prefix('[').and_then(|m| m.split_once(']')) else {
        return 0;
    };
    let (key, quoted) = match rest.strip_prefix('.') {
        Some(rest) => (
            rest.split([':', ' ']).next().unwrap_or_default(),
            rest.split('\'').nth(1),
        ),
        None => (rest.split('\'').nth(1).unwrap_or_default(), None),
    };
    let lines: Vec<&str> = source
        .text
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}').trim())
        .collect();
    // (a header's dotted name, its parts unquoted: `[ "units" . RUSSIA ] # x` -> units.RUSSIA)
    let header = |line: &str| -> Option<String> {
        let inner = line.strip_prefix('[')?;
        if inner.starts_with('[') {
            return None;
        }
        Some(dotted_parts(inner.split(']').next()?).join("."))
    };
    // (where the table that starts at line `from` ends: the next header, or the end)
    let table_end = |from: usize| {
        (from + 1..lines.len())
            .find(|&i| lines[i].starts_with('['))
            .unwrap_or(lines.len())
    };
    let table_at = lines
        .iter()
        .position(|l| header(l).as_deref() == Some(table_name));
    let key_at = match table_at {
        Some(h) => (h + 1..table_end(h)).find(|&i| writes_key(lines[i], key, &['=', '.'])),
        None => None,
    }
    .or_else(|| {
        // (`[units.RUSSIA]`, `units.RUSSIA = ...`, `units = { ... }` before any header)
        let sub = format!("{table_name}.{key}");
        lines
            .iter()
            .position(|l| header(l).as_deref() == Some(sub.as_str()))
            .or_else(|| {
                // (the top-level entries: those before the first header)
                let first_header = lines
                    .iter()
                    .position(|l| l.starts_with('['))
                    .unwrap_or(lines.len());
                (0..first_header).find(|&i| {
                    lines[i].split_once('=').is_some_and(|(k, _)| {
                        let parts = dotted_parts(k);
                        parts == [table_name, key] || parts == [table_name]
                    })
                })
            })
    });
    let place_at = quoted.and_then(|q| {
        let written = format!("\"{q}\"");
        let from = key_at.or(table_at)?;
        (from..table_end(from)).find(|&i| lines[i].contains(&written))
    });
    place_at
        .or(key_at)
        .or_else(|| (key.is_empty()).then_some(table_at).flatten())
        .map_or(0, |i| i + 1)
}

/// The salt that separates the bots' dice from the game's dice.
const BOT_SALT: u64 = 0x5eed_b075;

/// A loaded game and what it came from.
pub struct Session {
    pub scenario: Arc<Scenario>,
    pub game: Game,
    pub seed: u64,
    pub bot_dice: Dice,
    /// The mods the game runs with ([`Session::start_with_mods`]); a save records them.
    pub mods: Vec<PathBuf>,
    /// For a resumed game whose rules files differ from those the save recorded: what changed
    /// (`rules/demo/movement.lua changed, rules/demo/old.lua is gone`; a new file does not count). The game goes on under the
    /// rules as they are now; a host may warn (the CLI does) or refuse.
    pub rules_changed: Option<String>,
    /// For a resumed game: whether its scenario file or map differs from the one the save
    /// recorded (turns, units, terrain). The game goes on under the scenario as it is now; a
    /// host may warn (the CLI does) or refuse.
    pub scenario_changed: bool,
    /// What the host keeps with the game ([`Save::host`]): read from the save a game resumed
    /// from, written again by [`Session::to_save`], so an autosave keeps it.
    pub host: Option<serde_json::Value>,
    /// The sides done in a simultaneous step when a run stopped in it for another side
    /// ([`Save::sides_done`]): the next run does not ask them again there.
    pub sides_done: Option<SidesDone>,
    /// Whether the host made the rules (`*_wrapped`, `resume_save_adjusted`,
    /// `start_with_rules`): [`Session::fork`] then refuses, since it would load the plain Lua
    /// rules and play another game; [`Session::fork_wrapped`] wraps the fork's.
    rules_from_host: bool,
}

/// A summary (the scenario's path, the game's, the seed and mods), as [`Game`]'s.
impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("scenario", &self.scenario.path)
            .field("game", &self.game)
            .field("seed", &self.seed)
            .field("mods", &self.mods)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Loads a scenario and its rules and starts a new game.
    pub fn start(path: &Path, seed: Option<u64>) -> Result<Session, SessionError> {
        Session::start_with_mods(path, seed, &[])
    }

    /// Like [`Session::start`], with extra rules modules loaded after the scenario's own: each a
    /// Lua file (`mods/no_rain.lua`), whose folder becomes one more rule root and whose name is
    /// the module (`no_rain`). A modding host's entry point.
    pub fn start_with_mods(
        path: &Path,
        seed: Option<u64>,
        mods: &[PathBuf],
    ) -> Result<Session, SessionError> {
        let mut scenario = load_scenario(path).map_err(SessionError::Scenario)?;
        add_mods(&mut scenario, mods)?;
        Session::start_scenario(scenario, seed)
    }

    /// Starts a new game of an already loaded scenario (see [`crate::scenario::parse_scenario`]).
    pub fn start_scenario(scenario: Scenario, seed: Option<u64>) -> Result<Session, SessionError> {
        let rules = Box::new(LuaRules::load(&scenario)?);
        Session::start_loaded(scenario, rules, seed, false)
    }

    /// [`Session::start_scenario`] with the scenario's Lua rules wrapped in a ruleset of the
    /// caller's: a Rust policy beside them (`examples/custom_rule.rs`). The wrapper forwards
    /// every method of [`Ruleset`], those with defaults too.
    pub fn start_scenario_wrapped(
        scenario: Scenario,
        seed: Option<u64>,
        wrap: impl FnOnce(LuaRules) -> Box<dyn Ruleset>,
    ) -> Result<Session, SessionError> {
        let rules = wrap(LuaRules::load(&scenario)?);
        Session::start_loaded(scenario, rules, seed, true)
    }

    /// Starts a new game of `scenario` with rules already loaded from it (`hexwar check` starts
    /// the game with the rules it has just checked, without loading them twice).
    pub fn start_with_rules(
        scenario: Scenario,
        rules: Box<dyn Ruleset>,
        seed: Option<u64>,
    ) -> Result<Session, SessionError> {
        Session::start_loaded(scenario, rules, seed, true)
    }

    /// [`Session::start_with_rules`], noting whether the host made the rules.
    fn start_loaded(
        scenario: Scenario,
        rules: Box<dyn Ruleset>,
        seed: Option<u64>,
        rules_from_host: bool,
    ) -> Result<Session, SessionError> {
        let scenario = Arc::new(scenario);
        let seed = seed.unwrap_or(scenario.seed);
        let limits = EventLimits {
            max_depth: scenario.limits.event_depth,
            max_events: scenario.limits.events_per_command,
        };
        let mut game = Game::new(scenario.initial_state(seed), rules, scenario.turns, limits);
        if let Err(error) = game.start(seed) {
            return Err(SessionError::Start {
                printed: game.take_script_log(),
                error,
            });
        }
        // (a start position the scenario writes in the rules' own terms, Diplomacy's
        // `[vars.position]`, is judged as a save's is: it was played with an army at sea)
        let answer = game.query(POSITION_PROBLEMS, &serde_json::Value::Null);
        position_problems(answer).map_err(|why| SessionError::Setup {
            path: scenario.path.clone(),
            message: format!(": the start position: {why}"),
        })?;
        Ok(Session {
            // (the mods `add_mods` gave the scenario, as given: a save records them)
            mods: scenario.mods.clone(),
            scenario,
            game,
            seed,
            bot_dice: Dice::new(seed ^ BOT_SALT),
            rules_changed: None,
            scenario_changed: false,
            host: None,
            sides_done: None,
            rules_from_host,
        })
    }

    /// A second session of this game at its current position, with its own rules VM loaded
    /// from this session's scenario (a France 1940 game: one rules load, about 5 ms): an AI's
    /// spare game for look-ahead, reset to each position it tries with [`Game::restore`]. The
    /// seed, bots' dice, mods and host data are copied. A session whose rules the host made
    /// (`start_scenario_wrapped` and the like) is refused: the fork would play under the plain
    /// Lua rules, another game; [`Session::fork_wrapped`] wraps the fork's rules again.
    pub fn fork(&self) -> Result<Session, SessionError> {
        if self.rules_from_host {
            return Err(SessionError::HostChoice(
                "Session::fork: this session's rules were made by the host (a *_wrapped start \
                 or resume, resume_save_adjusted, start_with_rules), and a fork would play \
                 under the plain Lua rules: fork it with Session::fork_wrapped and the same \
                 wrapper"
                    .into(),
            ));
        }
        self.fork_wrapped(|rules| Box::new(rules))
    }

    /// [`Session::fork`] with the fork's Lua rules wrapped as the host wrapped this session's
    /// (`|rules| Box::new(WithPolicy::new(Box::new(rules), policy))`).
    pub fn fork_wrapped(
        &self,
        wrap: impl FnOnce(LuaRules) -> Box<dyn Ruleset>,
    ) -> Result<Session, SessionError> {
        let rules = wrap(LuaRules::load(&self.scenario)?);
        let limits = EventLimits {
            max_depth: self.scenario.limits.event_depth,
            max_events: self.scenario.limits.events_per_command,
        };
        let game = Game::new(
            self.game.state().clone(),
            rules,
            self.game.turn_limit(),
            limits,
        );
        Ok(Session {
            scenario: Arc::clone(&self.scenario),
            game,
            seed: self.seed,
            bot_dice: self.bot_dice,
            mods: self.mods.clone(),
            rules_changed: self.rules_changed.clone(),
            scenario_changed: self.scenario_changed,
            host: self.host.clone(),
            sides_done: self.sides_done.clone(),
            rules_from_host: self.rules_from_host,
        })
    }

    /// Resumes a saved game: the scenario and rules are loaded again from the save's scenario path.
    pub fn resume(save_path: &Path) -> Result<Session, SessionError> {
        let save = Save::read(save_path)?;
        Session::resume_save(save, save_path)
    }

    /// Resumes a save already read (`save_path` names it in errors).
    pub fn resume_save(save: Save, save_path: &Path) -> Result<Session, SessionError> {
        let plain = |rules| -> Box<dyn Ruleset> { Box::new(rules) };
        Session::resume_loaded(save, save_path, |_| Ok(()), plain, false)
    }

    /// [`Session::resume_save`] with the Lua rules wrapped as [`Session::start_scenario_wrapped`]
    /// wraps them.
    pub fn resume_save_wrapped(
        save: Save,
        save_path: &Path,
        wrap: impl FnOnce(LuaRules) -> Box<dyn Ruleset>,
    ) -> Result<Session, SessionError> {
        Session::resume_save_adjusted(save, save_path, |_| Ok(()), wrap)
    }

    /// [`Session::resume_save_wrapped`] with the scenario, read again from the save's path,
    /// adjusted before the rules load: the host's own settings, such as
    /// `|s| { s.limits.trusted = true; Ok(()) }` (docs/sandbox.md, "Trusted rules"), which a
    /// save does not record, or another bot for a side (`s.choose_bot("german", "my.bot")`,
    /// whose error, the closure's, is `SessionError::HostChoice`).
    pub fn resume_save_adjusted(
        save: Save,
        save_path: &Path,
        adjust: impl FnOnce(&mut Scenario) -> Result<(), String>,
        wrap: impl FnOnce(LuaRules) -> Box<dyn Ruleset>,
    ) -> Result<Session, SessionError> {
        Session::resume_loaded(save, save_path, adjust, wrap, true)
    }

    /// [`Session::resume_save_adjusted`], noting whether the host made the rules.
    fn resume_loaded(
        save: Save,
        save_path: &Path,
        adjust: impl FnOnce(&mut Scenario) -> Result<(), String>,
        wrap: impl FnOnce(LuaRules) -> Box<dyn Ruleset>,
        rules_from_host: bool,
    ) -> Result<Session, SessionError> {
        if !save.scenario_path.exists() {
            return Err(SessionError::SaveScenarioMissing {
                path: save_path.into(),
                scenario: save.scenario_path.clone(),
            });
        }
        let mut scenario = load_scenario(&save.scenario_path).map_err(SessionError::Scenario)?;
        add_mods(&mut scenario, &save.mods).map_err(|e| {
            recorded_mod_error(
                e,
                &format!(
                    "the save {} records it as given when the game started: resume from that \
                     directory, or correct \"mods\" in the save",
                    save_path.display()
                ),
            )
        })?;
        // (the bots the game was played with; the host may choose others in `adjust`)
        for (side, module) in &save.bots {
            scenario
                .choose_bot(side, module)
                .map_err(|message| SessionError::SaveMisfit {
                    path: save_path.into(),
                    scenario: scenario.id.clone(),
                    message: format!("the bot chosen for {side}: {message}"),
                })?;
        }
        // (the modules the saved game ran: a bot the host now swaps in is its choice, not a
        // change to the rules the save recorded)
        let saved_modules = scenario.played_modules();
        adjust(&mut scenario).map_err(SessionError::HostChoice)?;
        let scenario = Arc::new(scenario);
        if scenario.id != save.state.scenario {
            return Err(SessionError::WrongScenario {
                path: save_path.into(),
                found: save.state.scenario.clone(),
                expected: scenario.id.clone(),
            });
        }
        let mut rules = wrap(LuaRules::load(&scenario)?);
        save_fits(&save, &scenario, rules.as_mut()).map_err(|message| {
            SessionError::SaveMisfit {
                path: save_path.into(),
                scenario: scenario.id.clone(),
                message,
            }
        })?;
        let limits = EventLimits {
            max_depth: scenario.limits.event_depth,
            max_events: scenario.limits.events_per_command,
        };
        let rules_changed =
            save_rules_changes(&save, &scenario, &saved_modules, &rules.loaded_files());
        // (saves written before the scenario's hash was recorded have none)
        let scenario_changed = save
            .scenario_hash
            .as_ref()
            .is_some_and(|h| !scenario.fingerprint.recorded_by(h));
        let sides_done = (!save.sides_done.is_empty()).then(|| SidesDone {
            turn: save.state.turn,
            step: save.state.step,
            sides: save.sides_done.clone(),
        });
        let game = Game::new(save.state, rules, scenario.turns, limits);
        Ok(Session {
            scenario,
            game,
            seed: save.seed,
            bot_dice: save.bot_dice,
            mods: save.mods,
            rules_changed,
            scenario_changed,
            host: save.host,
            sides_done,
            rules_from_host,
        })
    }

    /// Overlays the position of a setup file (TOML; `--setup`): `turn`/`phase`, `[[unit]]`
    /// tables as in a scenario (they replace every unit in play), and whatever the rules read
    /// through `hex.rules.setup` (Diplomacy: `[units]`, `[centers]`).
    pub fn setup_file(&mut self, path: &Path) -> Result<(), SessionError> {
        let source = SourceText::read(path).map_err(|e| SessionError::Setup {
            path: path.into(),
            // (the Display puts the message right after the path: ":LINE: why" or ": why")
            message: match crate::board::NotUtf8::of(&e) {
                Some(bad) => format!(":{}: {}", bad.line, bad.why()),
                None => format!(": cannot read the setup file: {e}"),
            },
        })?;
        self.setup_text(&source)
    }

    /// [`Session::setup_file`] on text already read; errors name `source.path`.
    pub fn setup_text(&mut self, source: &SourceText) -> Result<(), SessionError> {
        let path = source.path.as_path();
        let fail = |line: usize, message: String| SessionError::Setup {
            path: path.into(),
            // `FILE:LINE: why` like every other input file (the Display adds FILE).
            message: if line > 0 {
                format!(":{line}: {message}")
            } else {
                format!(": {message}")
            },
        };
        if let Some(e) = crate::board::datetime_error(&source.text) {
            return Err(fail(source.line_of(e.offset), e.message));
        }
        // (a save, a scenario or an orders file given as the setup read as a TOML error or an
        // unknown key of it, `description`)
        let not_a_setup = |kind: &str| {
            fail(
                0,
                format!(
                    "this is {kind}, not a setup (a position in the scenario's own schema: \
                     docs/formats.md, setup files)"
                ),
            )
        };
        if let Some(kind) = crate::engine::json_file_kind(&source.text) {
            return Err(not_a_setup(kind));
        }
        let table: toml::Table = toml::from_str(&source.text).map_err(|e| {
            let line = source.line_of(crate::board::toml_offset(&e, &source.text));
            fail(line, crate::board::toml_message(&e, &source.text))
        })?;
        if let Some(kind) = crate::engine::toml_file_kind(&table)
            .filter(|k| *k != crate::engine::TomlKind::Position)
        {
            return Err(not_a_setup(kind.describe()));
        }
        // (a file that sets nothing, empty or only comments, leaves the position as it stands:
        // the rules' setup hook would otherwise still run on it)
        if table.is_empty() {
            return Ok(());
        }
        let mut extra = Vec::new();
        // (the [[unit]] tables stay in the table the rules' setup hook reads: a game whose
        // positions are written otherwise, Diplomacy's [units], refuses them)
        if table.contains_key("unit") {
            // Re-read the units with spans, so a bad unit names its line. Other top-level keys
            // belong to the rules, so this struct reads loosely.
            #[derive(serde::Deserialize)]
            struct SetupUnits {
                #[serde(default)]
                unit: Vec<toml::Spanned<UnitSpec>>,
            }
            let parsed: SetupUnits = toml::from_str(&source.text).map_err(|e| {
                let line = source.line_of(crate::board::toml_offset(&e, &source.text));
                // (a single [unit] table: often a slip for a key the rules read, such as
                // Diplomacy's [units])
                let hint = if e.message().contains("expected a sequence") {
                    " (units are [[unit]] tables, one per unit; the rules' own keys, such as Diplomacy's [units], are spelt otherwise)"
                } else {
                    ""
                };
                let why = crate::board::in_toml_words(e.message().trim_end());
                fail(line, format!("[[unit]]: {why}{hint}"))
            })?;
            for (id, _) in self.game.state().units.iter() {
                extra.push(Event::UnitRemoved {
                    unit: id.clone(),
                    reason: "setup".into(),
                });
            }
            // (a unit listed twice would only fail when the engine places the second copy,
            // naming neither line)
            let mut first_line: std::collections::BTreeMap<String, usize> = Default::default();
            let fit = crate::scenario::Fit {
                board: &self.scenario.map,
                sides: &self.scenario.sides,
            };
            for u in parsed.unit {
                let line = source.line_of(u.span().start);
                let u = u.into_inner();
                if let Some(first) = first_line.insert(u.id.clone(), line) {
                    return Err(fail(
                        line,
                        format!("unit '{}' is listed twice (first at line {first})", u.id),
                    ));
                }
                // (a bad number at its own line; the rest is checked below, as a save's units)
                u.numbers_checked(u.side.span().start)
                    .map_err(|(offset, e)| {
                        fail(source.line_of(offset), format!("unit '{}': {e}", u.id))
                    })?;
                // (an area region's alias is read as the region, as in a scenario)
                extra.push(Event::UnitPlaced {
                    unit: u.into_unit(Some(&self.scenario.map)),
                });
                // (side, place, facings and numbers, as a resumed save's units are checked)
                if let Some(Event::UnitPlaced { unit }) = extra.last() {
                    fit.unit(unit).map_err(|e| fail(line, e))?;
                    self.game
                        .rules()
                        .unit_fits(unit)
                        .map_err(|e| fail(line, e))?;
                }
            }
        }
        // (after the units, whose own numbers are named with the unit: the rest goes to the
        // rules as it is, where a NaN became null)
        if let Some(e) = crate::board::not_finite_error(&source.text) {
            return Err(fail(source.line_of(e.offset), e.message));
        }
        let json = serde_json::to_value(&table).map_err(|e| fail(0, e.to_string()))?;
        let serde_json::Value::Object(map) = json else {
            return Err(fail(0, "the setup is not a table".into()));
        };
        self.setup_table_from(&map, extra, path)
            .map_err(|e| match e {
                SessionError::Game(GameError::Refused(r)) => fail(
                    quoted_line(source, &r.reason),
                    format!("setup refused: {r}"),
                ),
                // (a `[control]` entry the scenario refuses: the line that writes it)
                SessionError::Setup { message, .. } if message.starts_with(": [control]") => {
                    let message = message.trim_start_matches(": ").to_string();
                    fail(table_line(source, &message), message)
                }
                other => other,
            })
    }

    /// Overlays a position given as a table (the parsed setup file; tests and embedders).
    pub fn setup_table(
        &mut self,
        table: &serde_json::Map<String, serde_json::Value>,
        extra: Vec<Event>,
    ) -> Result<(), SessionError> {
        // (a setup file's [[unit]] tables become events as the file is read; given here they
        // went, unread, to the rules' setup hook, and the position lacked them without a word)
        let places = extra.iter().any(|e| matches!(e, Event::UnitPlaced { .. }));
        if table.contains_key("unit") && !places {
            return Err(SessionError::Setup {
                path: "setup table".into(),
                message: ": 'unit': setup_table does not read units from the table: give them \
                          as UnitPlaced events in `extra` (after a UnitRemoved for each unit \
                          they replace), or a setup file's text to Session::setup_text"
                    .into(),
            });
        }
        self.setup_table_from(table, extra, Path::new("setup table"))
    }

    /// [`Session::setup_table`], its errors naming `source` (the setup file, when there is one).
    fn setup_table_from(
        &mut self,
        table: &serde_json::Map<String, serde_json::Value>,
        mut extra: Vec<Event>,
        source: &Path,
    ) -> Result<(), SessionError> {
        // (the checks the text form makes of each unit, for units built in Rust: a unit of a
        // side the scenario lacks was placed, and its own save was then refused on resume)
        let fail = |message: String| SessionError::Setup {
            path: source.into(),
            message: format!(": {message}"),
        };
        let fit = crate::scenario::Fit {
            board: &self.scenario.map,
            sides: &self.scenario.sides,
        };
        let mut placed = std::collections::BTreeSet::new();
        // (removed so far: a UnitRemoved after the UnitPlaced comes too late)
        let mut removed = std::collections::BTreeSet::new();
        let in_play = &self.game.state().units;
        for event in &extra {
            if let Event::UnitRemoved { unit, .. } = event {
                removed.insert(unit.as_str());
            }
            if let Event::UnitPlaced { unit } = event {
                if !placed.insert(unit.id.as_str()) {
                    return Err(fail(format!("unit '{}' is placed twice", unit.id)));
                }
                // (the engine then failed to apply it, and blamed the rules)
                if in_play.contains_key(&unit.id) && !removed.contains(unit.id.as_str()) {
                    return Err(fail(format!(
                        "unit '{}' is already in play: remove it first (a UnitRemoved event \
                         before its UnitPlaced; a setup file's [[unit]] tables replace every \
                         unit in play)",
                        unit.id
                    )));
                }
                fit.unit(unit).map_err(fail)?;
                self.game.rules().unit_fits(unit).map_err(fail)?;
            }
        }
        if let Some(control) = table.get("control") {
            extra.extend(self.setup_control(control).map_err(fail)?);
        }
        self.game.setup(table, extra)?;
        Ok(())
    }

    /// A setup's `[control]`, `side = [places]` as in a scenario: one `ControlChanged` a place
    /// (after the units, before what the rules' own setup adds). An area region's alias reads
    /// as the region.
    fn setup_control(&self, control: &serde_json::Value) -> Result<Vec<Event>, String> {
        let serde_json::Value::Object(by_side) = control else {
            return Err("[control] must be a table: side = [places]".into());
        };
        let fit = crate::scenario::Fit {
            board: &self.scenario.map,
            sides: &self.scenario.sides,
        };
        let mut events = Vec::new();
        for (side, places) in by_side {
            fit.side(side).map_err(|e| format!("[control]: {e}"))?;
            let serde_json::Value::Array(places) = places else {
                return Err(format!("[control].{side} must be a list of places"));
            };
            for place in places {
                let serde_json::Value::String(place) = place else {
                    return Err(format!("[control].{side}: {place} is not a place name"));
                };
                let map = &self.scenario.map;
                // (`zone:NAME` as in a scenario's [control]: every hex of the zone)
                if let Some(zone) = place.strip_prefix("zone:") {
                    let Some(grid) = map.as_hex() else {
                        return Err(format!(
                            "[control].{side}: '{place}': an area map has no zones: name each region"
                        ));
                    };
                    let hexes = grid.zone_hexes(zone).ok_or_else(|| {
                        let why = crate::spelling::unknown_name(
                            "zone",
                            zone,
                            grid.zone_names(),
                            "this map has",
                        );
                        format!("[control].{side}: {why}")
                    })?;
                    for i in hexes {
                        events.push(Event::ControlChanged {
                            hex: grid.label(i),
                            side: Some(side.clone()),
                        });
                    }
                    continue;
                }
                let id = map.canonical_place(place).ok_or_else(|| {
                    format!(
                        "[control].{side}: '{place}' is not a {} of the map{}",
                        map.place_word(),
                        map.unknown_place_hint(place)
                    )
                })?;
                events.push(Event::ControlChanged {
                    hex: id.into_owned(),
                    side: Some(side.clone()),
                });
            }
        }
        Ok(events)
    }

    /// Plays on with the scenario's bots (its Lua bots by side, the random bot for the others)
    /// until `limit`, and keeps the bots' dice in the session, so that a save taken afterwards
    /// continues with the same choices an uninterrupted game makes.
    pub fn play_bots(&mut self, limit: RunLimit) -> Result<RunReport, GameError> {
        self.play_bots_observed(limit, PlayOptions::default(), &mut |_, _| {})
    }

    /// [`Session::play_bots`], calling `observe` after each command a bot gave (the game as
    /// the command left it; the side, the command, whether it was accepted), with `options`'
    /// `stop_for_side` and `count_legal`; the sides done are the session's. A program that
    /// drives `play_observed` with bots of its own must copy their dice and the sides done back
    /// into the session, or its later saves continue another game: this does (`hexwar run`
    /// plays through it).
    pub fn play_bots_observed(
        &mut self,
        limit: RunLimit,
        options: PlayOptions<'_>,
        observe: &mut dyn FnMut(&mut Game, Played<'_>),
    ) -> Result<RunReport, GameError> {
        let mut bot = SideBots::new(RandomBot::new(self.bot_dice), self.scenario.bots.clone());
        let sides = self.scenario.sides.clone();
        let options = PlayOptions {
            sides_done: self.sides_done.as_ref(),
            ..options
        };
        let mut report = RunReport::default();
        let played = play_keeping_report(
            &mut self.game,
            &mut bot,
            &sides,
            limit,
            options,
            observe,
            &mut report,
        );
        self.bot_dice = bot.random.dice;
        // (after an error too: the sides that gave their commands before it are not asked
        // again when the save is run again, so it meets the same error with the same dice;
        // a run that stopped before the step, `--turns 0`, keeps those the session had: they
        // were dropped, and the save written then asked them again with other dice)
        if report.sides_done.is_some() {
            self.sides_done = report.sides_done.clone();
        }
        played.map(|()| report)
    }

    /// In a simultaneous step, the sides that have given their commands (a save `run
    /// --until-side` stopped after them) and those still to give theirs, in the scenario's
    /// order: every side and none done in a fresh step.
    pub fn sides_to_play(&self) -> (Vec<String>, Vec<String>) {
        let done = SidesDone::at(self.sides_done.as_ref(), self.game.state());
        let waiting = (self.scenario.sides.iter())
            .filter(|s| !done.contains(s))
            .cloned()
            .collect();
        (done, waiting)
    }

    /// In a simultaneous step, the sides still to play that have something to give besides
    /// `end_phase` (a retreat phase asks only the powers with a unit to retreat), in the
    /// scenario's order: every side still to play when none has, as in a step the rules order
    /// nothing in. Empty outside a simultaneous step and once the game is over.
    pub fn sides_with_orders(&mut self) -> Result<Vec<String>, GameError> {
        if self.game.phasing_side().is_some() || self.game.is_over() {
            return Ok(Vec::new());
        }
        let (_, waiting) = self.sides_to_play();
        let mut ordering = Vec::new();
        for side in &waiting {
            let commands = self.game.legal_commands(side)?;
            if !commands
                .iter()
                .all(|c| matches!(c, crate::engine::Command::EndPhase))
            {
                ordering.push(side.clone());
            }
        }
        Ok(if ordering.is_empty() {
            waiting
        } else {
            ordering
        })
    }

    /// The game as a save.
    pub fn to_save(&self) -> Save {
        let save = Save::new(
            self.scenario.path.clone(),
            self.seed,
            self.bot_dice,
            self.game.state().clone(),
        )
        .with_mods(self.mods.clone())
        .with_bots(self.scenario.chosen_bots.clone())
        .with_scenario_hash(self.scenario.fingerprint.hash().to_string())
        .with_rules(crate::rules::recorded_hashes(
            &self.scenario.rule_roots,
            &self.scenario.played_modules(),
            &self.game.rules().loaded_files(),
        ));
        let save = match &self.host {
            Some(host) => save.with_host(host.clone()),
            None => save,
        };
        save.with_sides_done(SidesDone::at(self.sides_done.as_ref(), self.game.state()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message naming a table's key (`[units].RUSSIA must be a list`) is placed at that key
    /// however the table is written.
    #[test]
    fn a_tables_key_is_found_however_the_table_is_written() {
        let message = "[units].RUSSIA must be a list";
        for (text, line) in [
            ("phase = \"S1901M\"\n[units]\nFRANCE = []\nRUSSIA = 1\n", 4),
            ("[ units ] # the units\nFRANCE = []\n'RUSSIA' = 1\n", 3),
            ("[\"units\"]\n\"RUSSIA\" = 1\n", 2),
            ("phase = 1\nunits.FRANCE = []\nunits . RUSSIA = 1\n", 3),
            ("phase = 1\nunits = { FRANCE = [], RUSSIA = 1 }\n", 2),
            ("[units]\nFRANCE = []\n[units.RUSSIA]\nx = 1\n", 3),
            // (a key of the same name in another table is not it)
            ("[centers]\nRUSSIA = 1\n[units]\nRUSSIA = 1\n", 4),
            ("[centers]\nRUSSIA = 1\n", 0),
        ] {
            assert_eq!(
                table_line(&SourceText::new("s.toml", text), message),
                line,
                "{text}"
            );
        }
        // (a place quoted in the message: its line in that key's table, not another's)
        let text = "[control]\nred = [\"0101\"]\nblue = [\n  \"0102\",\n  \"9999\",\n]\n[other]\nx = \"9999\"\n";
        assert_eq!(
            table_line(
                &SourceText::new("s.toml", text),
                "[control].blue: '9999' is not a hex of the map"
            ),
            5
        );
    }

    /// A session's debug text names what it came from (the scenario's path, seed and mods) and
    /// the game's summary, not every unit and event: a host's log or panic message shows it.
    #[test]
    fn a_sessions_debug_text_is_a_summary() {
        let session = Session::start(Path::new("scenarios/demo"), Some(7)).expect("the demo");
        assert_eq!(
            format!("{session:?}"),
            "Session { scenario: \"scenarios/demo/scenario.toml\", game: Game { scenario: \
             \"demo\", turn: 1, step: 0, units: 8, log: 2, .. }, seed: 7, mods: [], .. }"
        );
    }

    /// The sides with orders to give are a simultaneous step's: none in a step a side has
    /// (the demo's), every power at Diplomacy's first movement, none once the game is over.
    #[test]
    fn sides_with_orders_are_named_in_simultaneous_steps_only() {
        let mut demo = Session::start(Path::new("scenarios/demo"), Some(1)).expect("the demo");
        assert_eq!(demo.sides_with_orders().unwrap(), Vec::<String>::new());
        let mut diplomacy =
            Session::start(Path::new("scenarios/diplomacy"), Some(1)).expect("Diplomacy");
        let powers = diplomacy.scenario.sides.clone();
        assert_eq!(powers.len(), 7);
        assert_eq!(diplomacy.sides_with_orders().unwrap(), powers);
        diplomacy
            .play_bots(RunLimit::End)
            .expect("the bots play it out");
        assert!(diplomacy.game.is_over());
        assert_eq!(diplomacy.sides_with_orders().unwrap(), Vec::<String>::new());
    }

    /// The rules' `position_problems` answer: nothing, null or an empty list or table passes;
    /// a list of texts refuses the position, naming each; any other answer, and the query's
    /// own error, are errors naming the query.
    #[test]
    fn position_problems_passes_nothing_and_refuses_a_list_of_problems() {
        use serde_json::json;
        for answer in [None, Some(json!(null)), Some(json!([])), Some(json!({}))] {
            assert_eq!(position_problems(Ok(answer.clone())), Ok(()), "{answer:?}");
        }
        assert_eq!(
            position_problems(Ok(Some(json!(["an army at sea", "two units in PAR"])))),
            Err("the rules find its position impossible: an army at sea; two units in PAR".into())
        );
        for (answer, shown) in [
            (json!(["an army at sea", 2]), r#"["an army at sea",2]"#),
            (json!([1]), "[1]"),
            (json!({"PAR": "two units"}), r#"{"PAR":"two units"}"#),
            (json!("an army at sea"), r#""an army at sea""#),
        ] {
            assert_eq!(
                position_problems(Ok(Some(answer))),
                Err(format!(
                    "the rules' position_problems query answered {shown}, not a list of problems"
                ))
            );
        }
        assert_eq!(
            position_problems(Err(crate::engine::RulesError::new("boom"))),
            Err("the rules' position_problems query: boom".into())
        );
    }

    /// The line a refusal names: a key refused by name at the entry or header that writes it
    /// at the top level, not at a comment, a value or a nested table quoting the same word.
    #[test]
    fn a_refused_key_is_found_where_the_setup_writes_it() {
        let refusal = "unknown key 'phse' (did you mean 'phase'? ...)";
        for (text, line) in [
            ("turn = 1\nphse = \"combat\"\n", 2),
            (
                "# the old key \"phse\" was renamed\nturn = 1\nphse = \"combat\"\n",
                3,
            ),
            ("turn = 1\n[[unit]]\nid = \"phse\"\n[phse]\nx = 1\n", 4),
            ("[unit.attrs]\nphse = 1\n[ phse ]\nx = 1\n", 3),
            ("\u{feff}'phse' = 1\n", 1),
            ("\"phse\".x = 1\n", 1),
            ("[[ phse ]]\nx = 1\n", 1),
            ("turn = 1\n", 0),
        ] {
            assert_eq!(
                quoted_line(&SourceText::new("s.toml", text), refusal),
                line,
                "{text}"
            );
        }
        // (a refusal quoting a value: the line that writes it; an empty quote, a side '' the
        // rules name, is no value to look for, though the file writes "" elsewhere)
        let text = "note = \"\"\n[units]\nFRANCE = [\"A NSA\"]\n";
        assert_eq!(
            quoted_line(
                &SourceText::new("s.toml", text),
                "unit 'A NSA' of side '': an army cannot stand at sea"
            ),
            3
        );
        // (a France 1940 refusal naming the nearest key: the misspelt one's line)
        let text = "# invade was renamed \"invaded\"\nturn = 1\ninvade = [\"netherlands\"]\n";
        assert_eq!(
            quoted_line(
                &SourceText::new("s.toml", text),
                "F40-setup: unknown key 'invade' (did you mean 'invaded'?)"
            ),
            3
        );
    }
}
