//! `hexwar check`: every error in a scenario, its map and its rules, each with file and line.

use std::path::Path;

use crate::rules::LuaRules;
use crate::scenario::load_scenario;

use super::{EXIT_INPUT, EXIT_OK};

pub fn run(path: &Path, json: bool) -> i32 {
    let errors: Vec<String> = match load_scenario(path) {
        // (the modules' syntax errors too, when the scenario names its modules readably)
        Err(errors) => {
            let mut all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            if let Some((roots, modules)) = crate::scenario::rules_named(path) {
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
