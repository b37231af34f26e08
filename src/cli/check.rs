//! `hexwar check`: every error in a scenario, its map and its rules, each with file and line.

use std::path::Path;

use crate::rules::LuaRules;
use crate::scenario::load_scenario;

use super::{EXIT_INPUT, EXIT_OK};

pub fn run(path: &Path, json: bool) -> i32 {
    // A save: itself read and verified, then the scenario it names checked.
    let saved;
    let scenario_path = if super::is_save(path) {
        match crate::engine::Save::read(path) {
            Ok(save) => {
                saved = save.scenario_path;
                saved.as_path()
            }
            Err(e) => return report(path, json, vec![e.to_string()]),
        }
    } else {
        path
    };
    let errors: Vec<String> = match load_scenario(scenario_path) {
        // (the modules' syntax errors too, when the scenario names its modules readably)
        Err(errors) => {
            let mut all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            if let Some((roots, modules)) = crate::scenario::rules_named(scenario_path) {
                all.extend(crate::rules::syntax_errors(&roots, &modules));
            }
            all
        }
        Ok(scenario) => match crate::rules::syntax_errors(&scenario.rule_roots, &scenario.rules) {
            errors if !errors.is_empty() => errors,
            _ => match LuaRules::load(&scenario) {
                Err(e) => e.errors,
                Ok(rules) => {
                    if rules_declare_no_sequence(&rules) {
                        vec![format!(
                            "{}: the rules declare no sequence of play (hex.rules.sequence)",
                            scenario.path.display()
                        )]
                    } else {
                        Vec::new()
                    }
                }
            },
        },
    };
    report(path, json, errors)
}

/// Prints the errors found (or `ok`) and returns the exit code.
fn report(path: &Path, json: bool, errors: Vec<String>) -> i32 {
    if json {
        outln!(
            "{}",
            serde_json::json!({ "ok": errors.is_empty(), "errors": errors })
        );
    } else if errors.is_empty() {
        outln!("ok: {}", path.display());
    } else {
        for e in &errors {
            eprintln!("error: {e}");
        }
        eprintln!("{} error(s) in {}", errors.len(), path.display());
    }
    if errors.is_empty() {
        EXIT_OK
    } else {
        EXIT_INPUT
    }
}

fn rules_declare_no_sequence(rules: &LuaRules) -> bool {
    use crate::engine::Ruleset;
    rules.sequence().steps.is_empty()
}
