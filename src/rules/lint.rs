//! Compiles (without running) every Lua file of a scenario's rules modules, so `hexwar check`
//! reports syntax errors even in files no code path has required yet.

use std::path::{Path, PathBuf};

use mlua::{Lua, LuaOptions, StdLib};

use super::loader::{chunk_name, find_module};

/// Every `.lua` file of a module: the file itself, or every file under its folder when the
/// module is a folder with `init.lua` - but for the folders named in `left_out` (below) at any
/// depth. Sorted, so messages come in a stable order.
fn module_files(file: &Path, left_out: &[&str]) -> Vec<PathBuf> {
    if file.file_name().is_some_and(|n| n == "init.lua") {
        let mut out = Vec::new();
        if let Some(dir) = file.parent() {
            collect(dir, left_out, &mut out);
        }
        out.sort();
        out
    } else {
        vec![file.to_path_buf()]
    }
}

/// What a module's folder holds that is no part of the game it runs: its `variants/` folders
/// hold other modules (`demo/variants/mud`, loaded by the scenarios that name them: an edited
/// variant is no change to the base game's saves and replays).
const NOT_THE_GAME: [&str; 1] = ["variants"];

/// [`NOT_THE_GAME`], and the `tests/` folders: the designers' tests and their helpers
/// (`tests/helpers.lua`, `tests/mods/*.lua`), which a game never loads, so saves and replays
/// do not record them (their syntax is checked all the same).
const NOT_RECORDED: [&str; 2] = ["variants", "tests"];

fn collect(dir: &Path, left_out: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        // (symbolic links are not followed: one may leave the rule roots, or loop back)
        if entry.file_type().is_ok_and(|t| t.is_symlink()) {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            if !left_out.iter().any(|name| entry.file_name() == *name) {
                collect(&path, left_out, out);
            }
        } else if path.extension().is_some_and(|e| e == "lua")
            // Designers' tests (`hexwar test`) are not part of the rules a game runs.
            && !path.to_string_lossy().ends_with("_test.lua")
        {
            out.push(path);
        }
    }
}

/// Syntax errors in the modules' files, each `syntax error: rules/x/y.lua:LINE: ...`.
pub fn syntax_errors(roots: &[PathBuf], modules: &[String]) -> Vec<String> {
    let Ok(lua) = Lua::new_with(StdLib::NONE, LuaOptions::default()) else {
        return vec!["cannot create a Lua VM to check syntax".into()];
    };
    let roots: Vec<PathBuf> = roots
        .iter()
        .map(|r| r.canonicalize().unwrap_or_else(|_| r.clone()))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut errors = Vec::new();
    for module in modules {
        let Some(file) = find_module(&roots, module) else {
            continue;
        };
        for path in module_files(&file, &NOT_THE_GAME) {
            if !seen.insert(path.clone()) {
                continue;
            }
            let text = match crate::board::SourceText::read(&path)
                .map(|s| crate::board::without_bom(s.text))
            {
                Ok(t) => t,
                // (a Lua file named from its rule root's folder, as its other errors name it)
                Err(e) => {
                    errors.push(match crate::board::NotUtf8::of(&e) {
                        Some(bad) => bad.at(chunk_name(&roots, &path)),
                        None => format!("{}: cannot read: {e}", chunk_name(&roots, &path)),
                    });
                    continue;
                }
            };
            let name = format!("@{}", chunk_name(&roots, &path));
            if let Err(mlua::Error::SyntaxError { message, .. }) =
                lua.load(text).set_name(name).into_function()
            {
                errors.push(format!("syntax error: {message}"));
            }
        }
    }
    errors
}

/// `sha256:` of every Lua file of the modules but their tests and variants ([`NOT_RECORDED`]),
/// keyed by its name as scripts see it (`rules/demo/init.lua`): replays refuse to run against
/// changed rules.
pub fn module_hashes(
    roots: &[PathBuf],
    modules: &[String],
) -> std::collections::BTreeMap<String, String> {
    let canonical = canonical_roots(roots);
    let files: Vec<PathBuf> = modules
        .iter()
        .filter_map(|module| find_module(&canonical, module))
        .flat_map(|file| module_files(&file, &NOT_RECORDED))
        .collect();
    file_hashes(roots, &files)
}

/// What saves and replays record of the rules: every file of the modules ([`module_hashes`]),
/// and every file the game has loaded besides (`Ruleset::loaded_files`: a module a mod
/// requires from its own folder, which no module's folder holds: edited, it changed the game
/// without a word).
pub fn recorded_hashes(
    roots: &[PathBuf],
    modules: &[String],
    loaded: &[PathBuf],
) -> std::collections::BTreeMap<String, String> {
    let mut out = module_hashes(roots, modules);
    // (only the loaded files no module's folder holds: the others are hashed already)
    let canonical = canonical_roots(roots);
    let beside: Vec<PathBuf> = loaded
        .iter()
        .filter(|f| !out.contains_key(&chunk_name(&canonical, f)))
        .cloned()
        .collect();
    out.extend(file_hashes(roots, &beside));
    out
}

/// `sha256:` of each of `files` (under the roots), keyed by its name as scripts see it: the
/// files a game loaded (`Ruleset::loaded_files`) or a module's files.
pub fn file_hashes(
    roots: &[PathBuf],
    files: &[PathBuf],
) -> std::collections::BTreeMap<String, String> {
    let roots = canonical_roots(roots);
    let mut out = std::collections::BTreeMap::new();
    for path in files {
        // (a file that cannot be read, or is no regular file, is recorded as such: it used
        // to be hashed as an empty file; a pipe was waited on forever)
        let bytes = crate::board::read_bytes_capped(path, crate::board::MAX_SOURCE_BYTES);
        let hash = match bytes {
            Ok(bytes) => crate::digest::sha256_of(&bytes),
            Err(e) => format!("unreadable: {e}"),
        };
        out.insert(chunk_name(&roots, path), hash);
    }
    out
}

fn canonical_roots(roots: &[PathBuf]) -> Vec<PathBuf> {
    roots
        .iter()
        .map(|r| r.canonicalize().unwrap_or_else(|_| r.clone()))
        .collect()
}

/// The names scripts see (`rules/demo/init.lua`) of `files`, files under the roots a game
/// loaded (`Ruleset::loaded_files`), as [`module_hashes`] keys them.
pub fn loaded_names(roots: &[PathBuf], files: &[PathBuf]) -> std::collections::BTreeSet<String> {
    let roots = canonical_roots(roots);
    files.iter().map(|f| chunk_name(&roots, f)).collect()
}

/// What changed in the recorded rules files since [`module_hashes`] recorded them
/// (`rules/x.lua changed, rules/y.lua is gone, mods/x.lua is new`), or None. A file new in a
/// module's folder does not count: a variant or a note added beside the rules is no change to
/// the game recorded (should something the game loads require a new file, it has changed too,
/// or the replay's step-by-step check finds where the game went another way). `loaded`: files
/// the game now loads for certain (its mods' files), each new when it was not recorded.
/// `in_play`: the files the game now loads ([`loaded_names`]), when known: a recorded file it
/// does not load (a scratch file beside the rules, an unused variant) is no change to the game,
/// edited or gone.
pub fn describe_module_changes(
    recorded: &std::collections::BTreeMap<String, String>,
    now: &std::collections::BTreeMap<String, String>,
    loaded: &[String],
    in_play: Option<&std::collections::BTreeSet<String>>,
) -> Option<String> {
    let mut parts = Vec::new();
    for (file, hash) in recorded {
        if in_play.is_some_and(|files| !files.contains(file)) {
            continue;
        }
        match now.get(file) {
            None => parts.push(format!("{file} is gone")),
            Some(h) if h != hash => parts.push(format!("{file} changed")),
            _ => {}
        }
    }
    for file in loaded {
        if !recorded.contains_key(file) {
            parts.push(format!("{file} is new"));
        }
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// Handlers subscribed to a name that is no engine event's but within two letters of one
/// (`UnitEliminate`): most likely a typo, and such a handler never runs. A custom event may
/// have any name, so this is a warning, and only for near misses.
/// `subscribed`: each name with where its handler was registered, the warning's place.
pub fn event_name_warnings(subscribed: &[(String, String)]) -> Vec<String> {
    use crate::engine::Event;
    // (a custom event reaches the handlers of its own name, never those of "Custom")
    let custom = subscribed
        .iter()
        .filter(|(name, _)| name == "Custom")
        .map(|(_, origin)| {
            format!(
                "{origin}: a handler listens to 'Custom', which never runs: a custom event reaches \
                 the handlers of its own name (hex.events.on(\"MyEvent\", ...) for \
                 {{event = \"Custom\", name = \"MyEvent\"}})"
            )
        });
    let near_misses = subscribed
        .iter()
        .filter(|(name, _)| !Event::ENGINE_NAMES.contains(&name.as_str()))
        .filter_map(|(name, origin)| {
            // (an area game's "UnitEnteredArea": the engine names its events after hexes on
            // every board, a region in the `hex` field)
            let as_hex = name.replace("Region", "Hex").replace("Area", "Hex");
            let near = Event::ENGINE_NAMES
                .iter()
                .copied()
                .find(|e| *e == as_hex && as_hex != *name)
                .or_else(|| crate::spelling::nearest(name, Event::ENGINE_NAMES.iter().copied(), 0))?;
            Some(format!(
                "{origin}: a handler listens to '{name}', which no engine event is called: did you mean '{near}'? (a custom event the rules emit may have any name)"
            ))
        });
    let mut warnings: Vec<String> = custom.chain(near_misses).collect();
    // (in the order of the files and lines they name: `x.lua:2` before `x.lua:10`)
    warnings.sort_by_key(|w| {
        let origin = w.split(": ").next().unwrap_or_default();
        match origin.rsplit_once(':') {
            Some((file, line)) => (file.to_string(), line.parse::<u64>().unwrap_or(0)),
            None => (origin.to_string(), 0),
        }
    });
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every Lua file of a module's folder is compiled, in its subfolders too, but for its
    /// `variants/` (other modules) and the designers' `_test.lua` files; saves record the same
    /// files but for the `tests/` folder.
    #[test]
    fn a_modules_nested_files_are_checked_and_recorded_but_not_its_variants() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("rules").join("game");
        for folder in ["sub", "variants/mud", "tests"] {
            std::fs::create_dir_all(game.join(folder)).unwrap();
        }
        let broken = "local x = = 1\n";
        std::fs::write(game.join("init.lua"), "return {}\n").unwrap();
        std::fs::write(game.join("sub/bad.lua"), broken).unwrap();
        std::fs::write(game.join("sub/bad_test.lua"), broken).unwrap();
        std::fs::write(game.join("variants/mud/init.lua"), broken).unwrap();
        std::fs::write(game.join("tests/helpers.lua"), broken).unwrap();
        let roots = [dir.path().join("rules")];
        let modules = ["game".to_string()];
        assert_eq!(
            syntax_errors(&roots, &modules),
            [
                "syntax error: rules/game/sub/bad.lua:1: unexpected symbol near '='",
                "syntax error: rules/game/tests/helpers.lua:1: unexpected symbol near '='",
            ]
        );
        assert_eq!(
            module_hashes(&roots, &modules)
                .into_keys()
                .collect::<Vec<_>>(),
            ["rules/game/init.lua", "rules/game/sub/bad.lua"]
        );
    }

    /// A recorded file edited, one gone and a mod's file not recorded are each named; a file
    /// the game does not load is no change.
    #[test]
    fn changed_gone_and_new_files_are_each_named() {
        let map = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        let recorded = map(&[("a.lua", "sha256:1"), ("b.lua", "sha256:2"), ("c.lua", "x")]);
        let now = map(&[("a.lua", "sha256:9"), ("c.lua", "x")]);
        assert_eq!(
            describe_module_changes(&recorded, &now, &["m.lua".to_string()], None).unwrap(),
            "a.lua changed, b.lua is gone, m.lua is new"
        );
        let in_play = ["c.lua".to_string()].into_iter().collect();
        assert_eq!(
            describe_module_changes(&recorded, &now, &[], Some(&in_play)),
            None
        );
    }

    /// A handler on "Custom" never runs (custom events reach the handlers of their own name);
    /// a near miss of an engine event is named with the event; other names pass.
    #[test]
    fn handlers_that_never_run_are_warned_of() {
        let subscribed = [
            ("Custom".to_string(), "m.lua:1".to_string()),
            ("UnitEliminate".to_string(), "m.lua:2".to_string()),
            ("SupplyJudged".to_string(), "m.lua:3".to_string()),
            ("UnitEnteredArea".to_string(), "m.lua:10".to_string()),
            // (listed by the place it names, not by the event's name)
            ("PhaseStart".to_string(), "m.lua:9".to_string()),
        ];
        assert_eq!(
            event_name_warnings(&subscribed),
            vec![
                "m.lua:1: a handler listens to 'Custom', which never runs: a custom event reaches \
                 the handlers of its own name (hex.events.on(\"MyEvent\", ...) for {event = \
                 \"Custom\", name = \"MyEvent\"})"
                    .to_string(),
                "m.lua:2: a handler listens to 'UnitEliminate', which no engine event is called: \
                 did you mean 'UnitEliminated'? (a custom event the rules emit may have any name)"
                    .to_string(),
                "m.lua:9: a handler listens to 'PhaseStart', which no engine event is called: \
                 did you mean 'PhaseStarted'? (a custom event the rules emit may have any name)"
                    .to_string(),
                "m.lua:10: a handler listens to 'UnitEnteredArea', which no engine event is called: \
                 did you mean 'UnitEnteredHex'? (a custom event the rules emit may have any name)"
                    .to_string(),
            ]
        );
    }
}
