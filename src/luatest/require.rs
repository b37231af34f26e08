//! `require` in a test file: helper modules kept beside the tests (`require("helpers")` loads
//! `helpers.lua` from the test file's folder), so that several test files share their
//! positions and checks instead of copying them. Text chunks only, each module loaded once per
//! file's VM; dotted names only, resolved inside that folder (as the rules' `require` is inside
//! their roots).

use std::path::Path;

use mlua::{Lua, Table};

/// The registry table of modules loaded so far, by name.
const LOADED_KEY: &str = "hexwar.test_loaded";

/// The error `message`, placed at the test's line that called `require` (a host function's
/// error names no line of its own).
fn placed(lua: &Lua, message: String) -> mlua::Error {
    match crate::rules::script_place(lua) {
        Some(place) => mlua::Error::runtime(format!("{place}: {message}")),
        None => mlua::Error::runtime(message),
    }
}

/// A runtime error of the shared module code, placed at the test's line as [`placed`] does.
fn placed_error(lua: &Lua, e: mlua::Error) -> mlua::Error {
    match e {
        mlua::Error::RuntimeError(m) => placed(lua, m),
        other => other,
    }
}

/// Installs `require` for a test file in `folder`.
pub(super) fn install(lua: &Lua, folder: &Path) -> mlua::Result<()> {
    lua.set_named_registry_value(LOADED_KEY, lua.create_table()?)?;
    let folder = folder.to_path_buf();
    let require = lua.create_function(move |lua, name: mlua::Value| {
        let name = crate::rules::module_name_arg(name).map_err(|e| placed_error(lua, e))?;
        crate::rules::check_module_name(&name).map_err(|_| {
            placed(lua, format!(
                "require(\"{}\"): a test's helper module is a dotted name inside the test file's \
                 folder (\"helpers\" is helpers.lua there); paths, '..' and '/' are not allowed",
                crate::spelling::clipped(&name, 100)
            ))
        })?;
        // (a test file run as a helper would register its tests in the requiring file too,
        // and run again on its own)
        if name.ends_with("_test") {
            return Err(placed(lua, format!(
                "require(\"{}\"): a test file is no helper module (it runs on its own); name \
                 the helper otherwise",
                crate::spelling::clipped(&name, 100)
            )));
        }
        let loaded: Table = lua.named_registry_value(LOADED_KEY)?;
        let cached =
            crate::rules::already_loaded(&loaded, &name).map_err(|e| placed_error(lua, e))?;
        if let Some(value) = cached {
            return Ok(value);
        }
        let roots = [folder.clone()];
        let file = crate::rules::find_module(&roots, &name).ok_or_else(|| {
            let shown = crate::spelling::clipped(&name, 100);
            let wanted = folder.join(name.replace('.', "/")).with_extension("lua");
            // (a module found only by name is one a symbolic link takes out of the folder)
            let hint = match crate::rules::nearest_module(&roots, &name) {
                Some(m) if m == name => {
                    " (it leads out of the test file's folder: a symbolic link?)".to_string()
                }
                Some(m) => format!(": did you mean '{m}'?"),
                None => String::new(),
            };
            placed(lua, format!(
                "require(\"{shown}\"): no module '{shown}' beside the test file (looked for {}){hint}",
                crate::spelling::clipped(&wanted.display().to_string(), 200)
            ))
        })?;
        let text = crate::board::SourceText::read(&file)
            .map(|s| crate::board::without_bom(s.text))
            .map_err(|e| {
                placed(lua, match crate::board::NotUtf8::of(&e) {
                    Some(bad) => format!("require(\"{name}\"): {}", bad.at(file.display())),
                    None => format!("require(\"{name}\"): cannot read {}: {e}", file.display()),
                })
            })?;
        crate::rules::run_module(lua, &loaded, &name, &text, &file.display().to_string())
    })?;
    lua.globals().raw_set("require", require)
}
