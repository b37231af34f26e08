//! The Rust side of the test API: `__host.start`, `submit`, `query`, ... over one `Session` at a
//! time. Answers are plain tables; the Lua prelude turns failures into test errors.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use mlua::serde::SerializeOptions;
use mlua::{Lua, LuaSerdeExt, Table, Value};
use serde_json::{json, Value as Json};

use crate::engine::{Command, Event, GameError, Unit};
use crate::session::Session;

type Game = Arc<Mutex<Option<Session>>>;

fn to_lua(lua: &Lua, v: &Json) -> mlua::Result<Value> {
    let opts = SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false)
        .set_array_metatable(false);
    lua.to_value_with(v, opts)
}

/// Gives `cmd`, its rolls taking the values `t.dice` set (`dice`) when there are: every value
/// must be rolled, or the test is in error (a value meant for a combat the command did not
/// fight would pass unseen).
fn submit_with_dice(
    s: &mut Session,
    side: Option<&str>,
    cmd: &Command,
    dice: Option<Vec<u32>>,
) -> Json {
    let set = dice.as_ref().map_or(0, Vec::len);
    if let Some(values) = dice {
        if let Err(e) = s.game.rules_mut().force_dice(values) {
            return json!({ "error": format!("t.dice: {e}") });
        }
    }
    let answer = match s.game.submit(side, cmd) {
        Ok(events) => json!({ "events": events_json(&events) }),
        Err(GameError::Refused(r)) => {
            json!({ "refused": true, "rule": r.rule, "reason": r.reason })
        }
        Err(e) => json!({ "error": e.to_string() }),
    };
    let left = s.game.rules_mut().unused_forced_dice();
    // (a refused command is reported as refused: the refusal says more than the dice it left)
    if answer.get("events").is_some() && !left.is_empty() {
        let mut shown: Vec<String> = left.iter().take(10).map(u32::to_string).collect();
        if left.len() > 10 {
            shown.push("...".into());
        }
        let values = if set == 1 { "value" } else { "values" };
        return json!({ "error": format!(
            "t.dice: the command rolled {} of the {set} {values} set (not rolled: {})",
            set - left.len(),
            shown.join(", ")
        ) });
    }
    answer
}

/// Runs `f` on the current game, or answers `{error = "no game: call t.scenario first"}`.
fn with_game(lua: &Lua, game: &Game, f: impl FnOnce(&mut Session) -> Json) -> mlua::Result<Value> {
    let mut guard = game
        .lock()
        .map_err(|_| mlua::Error::runtime("the test's game is poisoned"))?;
    let answer = match guard.as_mut() {
        Some(session) => f(session),
        None => json!({ "error": "no game: call t.scenario(path) first" }),
    };
    to_lua(lua, &answer)
}

/// Where a path a test names is: as given (from the working directory), else from the test
/// file's folder or the nearest folder above it that has it (`scenarios/x` from
/// `rules/x/tests/`), so tests run from anywhere; the error names the places looked at. Only
/// a file inside the working directory or the test's project ([`project_of`]) is given: a
/// test runs sandboxed, and `t.scenario("/etc/x.toml")` read any file, its content quoted back
/// in the parse error.
fn find_near(base: &Path, path: &str) -> Result<PathBuf, String> {
    let project = project_of(base);
    let inside = |p: &Path| {
        let Ok(real) = std::fs::canonicalize(p) else {
            return false;
        };
        [Path::new("."), project.as_path()]
            .iter()
            .filter_map(|dir| std::fs::canonicalize(dir).ok())
            .any(|dir| real.starts_with(dir))
    };
    let given = PathBuf::from(path);
    let found = if given.exists() {
        Some(given)
    } else {
        (base.ancestors())
            .take_while(|dir| dir.starts_with(&project))
            .map(|dir| dir.join(path))
            .find(|p| p.exists())
    };
    match found {
        Some(p) if inside(&p) => Ok(p),
        Some(_) => Err(format!(
            "'{path}' is outside the working directory and the test's project ({}): a test \
             reads scenarios, setups and mods only there",
            project.display()
        )),
        None => Err(format!(
            "'{path}' is neither in the working directory nor in {} or a folder above it",
            base.display()
        )),
    }
}

/// The test's project: the nearest folder at or above the test file's that holds a
/// `scenarios` folder (a repository's root), else the test file's own folder.
fn project_of(base: &Path) -> PathBuf {
    base.ancestors()
        .find(|dir| dir.join("scenarios").is_dir())
        .unwrap_or(base)
        .to_path_buf()
}

pub fn register(lua: &Lua, game: Game, base: PathBuf) -> mlua::Result<Table> {
    let api = lua.create_table()?;

    let g = Arc::clone(&game);
    api.raw_set(
        "start",
        lua.create_function(move |lua, (path, opts): (String, Value)| {
            let opts: Json = crate::rules::bounded::from_value(lua, opts).unwrap_or(Json::Null);
            // (a misspelt option, `sed = 99`, played the scenario's own seed without a word)
            const OPTIONS: [&str; 3] = ["seed", "setup", "mods"];
            if let Some(key) = opts
                .as_object()
                .and_then(|o| o.keys().find(|k| !OPTIONS.contains(&k.as_str())))
            {
                let message =
                    format!("unknown option '{key}' (the options are seed, setup and mods)");
                return Ok((false, Value::String(lua.create_string(message)?)));
            }
            let seed = opts.get("seed").and_then(Json::as_u64);
            // (a variant loaded as a mod, as `hexwar run --mod` loads it: each a .lua file,
            // found as the scenario is)
            let mods: Result<Vec<PathBuf>, String> = match opts.get("mods") {
                // (an empty Lua table reads as an empty object: no mods, as an empty list)
                None => Ok(Vec::new()),
                Some(Json::Object(o)) if o.is_empty() => Ok(Vec::new()),
                Some(Json::Array(list)) => list
                    .iter()
                    .map(|m| match m.as_str() {
                        Some(m) => find_near(&base, m),
                        None => Err(format!("mods: {m} is not a path to a .lua file")),
                    })
                    .collect(),
                Some(other) => Err(format!("mods: a list of paths to .lua files, not {other}")),
            };
            let started = mods.and_then(|mods| {
                find_near(&base, &path).and_then(|p| {
                    Session::start_with_mods(&p, seed, &mods).map_err(|e| e.with_script_output())
                })
            });
            let started = started.and_then(|mut s| {
                if let Some(setup) = opts.get("setup").and_then(Json::as_str) {
                    let sp = find_near(&base, setup)?;
                    s.setup_file(&sp)
                        .map_err(|e| with_printed(&mut s, e.to_string()))?;
                }
                Ok(s)
            });
            match started {
                Ok(s) => {
                    if let Ok(mut guard) = g.lock() {
                        *guard = Some(s);
                    }
                    Ok((true, Value::Nil))
                }
                Err(e) => Ok((false, Value::String(lua.create_string(e)?))),
            }
        })?,
    )?;

    let g = Arc::clone(&game);
    api.raw_set(
        "submit",
        lua.create_function(
            move |lua, (side, cmd, dice): (Option<String>, Value, Option<Vec<u32>>)| {
                let cmd: Result<Command, String> =
                    crate::rules::bounded::from_value::<Json>(lua, cmd)
                        .map_err(|e| e.to_string())
                        .and_then(|j| serde_json::from_value(j).map_err(|e| e.to_string()));
                with_game(lua, &g, |s| match cmd {
                    Err(e) => json!({ "error": format!("not a command: {e}") }),
                    Ok(cmd) => submit_with_dice(s, side.as_deref(), &cmd, dice),
                })
            },
        )?,
    )?;

    let g = Arc::clone(&game);
    api.raw_set(
        "query",
        lua.create_function(move |lua, (name, arg): (String, Value)| {
            let arg: Json = crate::rules::bounded::from_value(lua, arg).unwrap_or(Json::Null);
            with_game(lua, &g, |s| match s.game.query(&name, &arg) {
                Ok(Some(answer)) => json!({ "answer": answer }),
                Ok(None) => json!({ "error": format!("the rules answer no '{name}' query") }),
                Err(e) => json!({ "error": e.to_string() }),
            })
        })?,
    )?;

    // (the reach as `hexwar reach` reads it: a misshapen answer is named, not passed on)
    let g = Arc::clone(&game);
    api.raw_set(
        "reach",
        lua.create_function(move |lua, unit: String| {
            with_game(lua, &g, |s| match s.reach_of(&unit) {
                Ok(answer) => json!({ "answer": answer }),
                Err(e) => json!({ "error": e }),
            })
        })?,
    )?;

    // (the side's bot, as `hexwar run` asks it: the scenario's module for the side, the seed
    // given; a side without one is played by the random bot, which has no Lua to test)
    let g = Arc::clone(&game);
    api.raw_set(
        "bot",
        lua.create_function(move |lua, (side, seed): (String, Option<u64>)| {
            with_game(lua, &g, |s| {
                if !s.scenario.sides.contains(&side) {
                    return json!({
                        "error": crate::spelling::unknown_side(&side, &s.scenario.sides)
                    });
                }
                let Some(module) = s.scenario.bots.get(&side).cloned() else {
                    return json!({ "error": format!(
                        "side '{side}' has no Lua bot in the scenario (sides with one: {})",
                        s.scenario.bots.keys().cloned().collect::<Vec<_>>().join(", ")
                    ) });
                };
                // (the run's own asking and checking of the answer, so a test holds the bot to
                // what the game does)
                match crate::bot::ask_lua_bot(&mut s.game, &module, &side, seed.unwrap_or(0)) {
                    Ok(command) => json!({ "answer": command }),
                    Err(e) => json!({ "error": e.to_string() }),
                }
            })
        })?,
    )?;

    let g = Arc::clone(&game);
    api.raw_set(
        "legal",
        lua.create_function(move |lua, side: Option<String>| {
            with_game(lua, &g, |s| {
                let side = side.or_else(|| s.game.phasing_side()).unwrap_or_default();
                match s.game.legal_commands(&side) {
                    Ok(list) => serde_json::to_value(list).unwrap_or(Json::Null),
                    Err(e) => json!({ "error": e.to_string() }),
                }
            })
        })?,
    )?;

    let g = Arc::clone(&game);
    api.raw_set(
        "unit",
        lua.create_function(move |lua, id: String| {
            with_game(lua, &g, |s| match s.game.state().units.get(&id) {
                Some(u) => serde_json::to_value(u).unwrap_or(Json::Null),
                None => Json::Null,
            })
        })?,
    )?;

    // (nil for a unit in play or one that was in play; else why the id names none, with the
    // nearest id)
    let g = Arc::clone(&game);
    api.raw_set(
        "unit_unknown",
        lua.create_function(move |lua, id: String| {
            with_game(lua, &g, |s| {
                let state = s.game.state();
                if state.units.contains_key(&id) || state.gone.contains_key(&id) {
                    return Json::Null;
                }
                let hint = crate::spelling::unit_hint(&s.scenario.map, &state.units, &id);
                Json::String(format!("no unit '{id}'{hint}"))
            })
        })?,
    )?;

    let g = Arc::clone(&game);
    api.raw_set(
        "units",
        lua.create_function(move |lua, ()| {
            with_game(lua, &g, |s| {
                let units: Vec<&Unit> = s.game.state().units.values().collect();
                serde_json::to_value(units).unwrap_or(Json::Null)
            })
        })?,
    )?;

    let g = Arc::clone(&game);
    api.raw_set(
        "state",
        lua.create_function(move |lua, ()| {
            with_game(lua, &g, |s| {
                let st = s.game.state();
                json!({
                    "turn": st.turn,
                    "step": st.step,
                    "phase": s.game.phase(),
                    "side": s.game.phasing_side(),
                    "over": s.game.is_over(),
                    "control": st.control,
                    "vars": st.vars,
                    "outcome": st.outcome,
                    "map_changes": st.map_changes,
                })
            })
        })?,
    )?;

    let g = Arc::clone(&game);
    api.raw_set(
        "log",
        lua.create_function(move |lua, ()| with_game(lua, &g, |s| events_json(s.game.log())))?,
    )?;

    let g = Arc::clone(&game);
    api.raw_set(
        "setup",
        lua.create_function(move |lua, position: Value| {
            let position: Json =
                crate::rules::bounded::from_value(lua, position).unwrap_or(Json::Null);
            let answer = with_game(lua, &g, |s| match setup(s, position) {
                Ok(()) => json!({ "ok": true }),
                Err(e) => json!({ "error": with_printed(s, e) }),
            })?;
            let error: Option<String> = match &answer {
                Value::Table(t) => t.get("error")?,
                _ => None,
            };
            match error {
                None => Ok((true, Value::Nil)),
                Some(e) => Ok((false, Value::String(lua.create_string(e)?))),
            }
        })?,
    )?;
    Ok(api)
}

fn events_json(events: &[Event]) -> Json {
    serde_json::to_value(events).unwrap_or(Json::Null)
}

/// The keys of a unit table in `t.setup{units = ...}`, as a setup file's `[[unit]]` takes them.
const UNIT_KEYS: [&str; 11] = [
    "id", "side", "nation", "type", "size", "ma", "strength", "at", "facing", "status", "attrs",
];

/// A setup's error, then what the rules printed on the way to it (a `PhaseStarted` handler of
/// the step it starts), a `script:` line each, as the CLI shows them.
fn with_printed(s: &mut Session, message: String) -> String {
    crate::session::with_script_lines(message, &s.game.take_script_log())
}

/// `t.setup{...}`: `units` (a list of unit tables) replaces every unit in play; the other keys
/// go to the game's setup like a `--setup` file's.
fn setup(s: &mut Session, position: Json) -> Result<(), String> {
    let Json::Object(mut table) = position else {
        return Err("t.setup takes a table".into());
    };
    // (other keys go to the game's setup, whose message for `unit` spoke of a setup file's
    // [[unit]]: here the key is `units`)
    if let Some(key) = table
        .keys()
        .find(|k| k.as_str() != "units" && crate::spelling::nearest(k, ["units"], 4).is_some())
    {
        return Err(format!(
            "unknown key '{key}' (did you mean 'units'?): units, a list of unit tables, replaces the units in play"
        ));
    }
    let mut extra = Vec::new();
    // (a table of units by power, Diplomacy's `[units]`, is the rules' own setup: it goes to
    // them as a setup file's does, when the rules read setups)
    let rules_units = matches!(table.get("units"), Some(Json::Object(o)) if !o.is_empty())
        && s.game.rules().reads_setup();
    if let Some(units) = (!rules_units).then(|| table.remove("units")).flatten() {
        for id in s.game.state().units.keys() {
            extra.push(Event::UnitRemoved {
                unit: id.clone(),
                reason: "setup".into(),
            });
        }
        let list = match units {
            Json::Array(list) => list,
            Json::Object(o) if o.is_empty() => Vec::new(),
            _ => return Err("units: a list of unit tables".into()),
        };
        let fit = crate::scenario::Fit {
            board: &s.scenario.map,
            sides: &s.scenario.sides,
        };
        for (i, u) in list.into_iter().enumerate() {
            // (the keys a setup file's [[unit]] takes: a misspelt `strenght` was dropped, and
            // the unit played at strength 0)
            if let Some(key) = u
                .as_object()
                .and_then(|o| o.keys().find(|k| !UNIT_KEYS.contains(&k.as_str())))
            {
                let near = crate::spelling::nearest(key, UNIT_KEYS, 0)
                    .map(|k| format!(" (did you mean '{k}'?)"))
                    .unwrap_or_default();
                return Err(format!(
                    "units: unit #{}: unknown key '{key}'{near}; a unit takes {}",
                    i + 1,
                    UNIT_KEYS.join(", ")
                ));
            }
            let mut unit: Unit = serde_json::from_value(u).map_err(|e| format!("units: {e}"))?;
            if unit.nation.is_empty() {
                unit.nation = unit.side.clone();
            }
            if let Some(at) = unit.at.take() {
                let id = s.scenario.map.canonical_place(&at).map(|c| c.into_owned());
                unit.at = Some(id.unwrap_or(at));
            }
            // (as a setup file's units are checked: a test position must be one the game can hold)
            fit.unit(&unit).map_err(|e| format!("units: {e}"))?;
            extra.push(Event::UnitPlaced { unit });
        }
    }
    s.setup_table(&table, extra).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use crate::luatest::run_file;
    use crate::luatest::tests::folder_of;

    /// The (failure, whether an error) of each test of `source`, run as a test file.
    fn failures_of(source: &str) -> (String, Vec<(Option<String>, bool)>) {
        let dir = folder_of(&[("host_test.lua", source)]);
        let file = dir.path().join("host_test.lua");
        let r = run_file(&file, None);
        assert_eq!(r.error, None);
        let failures = r
            .tests
            .into_iter()
            .map(|t| (t.failure, t.errored))
            .collect();
        (file.display().to_string(), failures)
    }

    /// Dice a command left unrolled are listed, the first ten of them: ten in full, an
    /// eleventh and more as `...`.
    #[test]
    fn dice_left_unrolled_are_listed_up_to_ten() {
        let (file, failures) = failures_of(
            "local function attack(t, dice)\n\
             t.scenario(\"scenarios/demo\", { seed = 3 })\n\
             t.setup { units = {\n\
             { id = \"b1\", side = \"blue\", type = \"infantry\", ma = 4, strength = 3, at = \"0504\" },\n\
             { id = \"r1\", side = \"red\", type = \"infantry\", ma = 4, strength = 3, at = \"0505\" },\n\
             } }\n\
             t.end_phase()\n\
             t.dice(dice)\n\
             t.ok(\"blue\", { command = \"attack\", unit = \"b1\", target = \"r1\" })\n\
             end\n\
             test(\"ten left\", function(t) attack(t, { 3, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4 }) end)\n\
             test(\"eleven left\", function(t) attack(t, { 3, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5 }) end)\n",
        );
        let at = format!("{file}:9: t.ok: t.dice: the command rolled 1 of the");
        assert_eq!(
            failures,
            [
                (
                    Some(format!(
                        "{at} 11 values set (not rolled: 1, 2, 3, 4, 5, 6, 1, 2, 3, 4)"
                    )),
                    true
                ),
                (
                    Some(format!(
                        "{at} 12 values set (not rolled: 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, ...)"
                    )),
                    true
                ),
            ]
        );
    }

    /// `mods` is a list: a table of mods by name is refused, not read as no mods.
    #[test]
    fn mods_given_by_name_are_refused() {
        let (file, failures) = failures_of(
            "test(\"by name\", function(t)\n\
             t.scenario(\"scenarios/demo\", { mods = { rain = \"tests/fixtures/lua_mods/rain.lua\" } })\n\
             end)\n",
        );
        assert_eq!(
            failures,
            [(
                Some(format!(
                    "{file}:2: t.scenario: mods: a list of paths to .lua files, not \
                     {{\"rain\":\"tests/fixtures/lua_mods/rain.lua\"}}"
                )),
                true
            )]
        );
    }

    /// `t.setup`'s `units` is a list of unit tables (for rules that read no setup of their
    /// own): units by id are refused, not read as no units; an empty table is no units, every
    /// unit in play removed.
    #[test]
    fn setup_units_are_a_list_and_an_empty_table_is_none() {
        let (file, failures) = failures_of(
            "test(\"by id\", function(t)\n\
             t.scenario(\"scenarios/demo\", { seed = 1 })\n\
             t.setup { units = { b1 = { side = \"blue\", type = \"infantry\", at = \"0504\" } } }\n\
             end)\n\
             test(\"empty\", function(t)\n\
             t.scenario(\"scenarios/demo\", { seed = 1 })\n\
             t.truthy(#t.units() > 0, \"the scenario has units\")\n\
             t.setup { units = {} }\n\
             t.eq(t.units(), {})\n\
             end)\n",
        );
        assert_eq!(
            failures,
            [
                (
                    Some(format!("{file}:3: t.setup: units: a list of unit tables")),
                    true
                ),
                (None, false),
            ]
        );
    }
}
