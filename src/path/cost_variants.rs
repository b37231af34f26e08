//! Movement costs that follow a rules variable: the declaration's `costs_by_variable` (mud
//! turns, a frozen river) compiled into one `PathRules` per value, so the searches stay data
//! driven (no Lua call inside a search) while the weather changes in the game's state.
//!
//! ```lua
//! costs_by_variable = {
//!   variable = "weather",                                  -- a rules variable (hex.state)
//!   values = { mud = { terrain = { clear = 2 }, hexsides = { river = "prohibited" } } },
//! }
//! ```
//! While `weather` holds the string `mud`, the entries given replace the declaration's own
//! (one terrain, feature or road at a time); any other value, or none, leaves the declaration
//! as written.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::decl;
use super::error::DeclarationError;
use super::rules::PathRules;
use crate::board::HexMap;
use crate::engine::GameState;

/// The declaration key this module reads.
pub const COSTS_BY_VARIABLE: &str = "costs_by_variable";

/// What a value may replace: the cost tables, entry by entry.
const REPLACEABLE: [&str; 3] = ["terrain", "hexsides", "roads"];

/// The compiled alternatives: one `PathRules` per value of the variable.
#[derive(Debug)]
pub struct CostVariants {
    /// The rules variable read (`weather`).
    pub variable: String,
    /// The rules in force while the variable holds that value.
    pub by_value: BTreeMap<String, Arc<PathRules>>,
}

impl CostVariants {
    /// The declaration's `costs_by_variable`, compiled against `map`; None without one.
    pub fn compile(
        declaration: &Value,
        map: &HexMap,
    ) -> Result<Option<CostVariants>, DeclarationError> {
        let Some(spec) = declaration.get(COSTS_BY_VARIABLE) else {
            return Ok(None);
        };
        let top = decl::table(spec, COSTS_BY_VARIABLE, &["variable", "values"])?
            .ok_or_else(|| decl::bad(COSTS_BY_VARIABLE, "a table", spec))?;
        let at = |key: &str| decl::join(COSTS_BY_VARIABLE, key);
        let variable = match top.get("variable") {
            Some(Value::String(name)) if !name.is_empty() => name.clone(),
            other => {
                return Err(decl::bad(
                    &at("variable"),
                    "the name of a rules variable (a string)",
                    other.unwrap_or(&Value::Null),
                ))
            }
        };
        let values = match top.get("values") {
            Some(Value::Object(values)) if !values.is_empty() => values,
            other => {
                return Err(decl::bad(
                    &at("values"),
                    "a table of value = { terrain = ..., hexsides = ..., roads = ... }",
                    other.unwrap_or(&Value::Null),
                ))
            }
        };
        let mut base = declaration.clone();
        if let Value::Object(top) = &mut base {
            top.remove(COSTS_BY_VARIABLE);
        }
        let mut by_value = BTreeMap::new();
        for (value, replaced) in values {
            let here = at(&format!("values.{value}"));
            let replaced = decl::table(replaced, &here, &REPLACEABLE)?
                .ok_or_else(|| decl::bad(&here, "a table", replaced))?;
            let merged = with_entries(&base, replaced, &here)?;
            let rules =
                PathRules::compile(&merged, map).map_err(|e| DeclarationError::InVariant {
                    at: here.clone(),
                    inner: Box::new(e),
                })?;
            by_value.insert(value.clone(), Arc::new(rules));
        }
        Ok(Some(CostVariants { variable, by_value }))
    }

    /// The rules in force in `state`, or None for the declaration as written.
    pub fn in_force(&self, state: &GameState) -> Option<&Arc<PathRules>> {
        match state.vars.get(&self.variable).map(|v| &**v) {
            Some(Value::String(value)) => self.by_value.get(value),
            _ => None,
        }
    }
}

/// `base` with each table of `replaced` laid over its own, entry by entry.
fn with_entries(
    base: &Value,
    replaced: &Map<String, Value>,
    at: &str,
) -> Result<Value, DeclarationError> {
    let mut merged = base.clone();
    let Value::Object(top) = &mut merged else {
        return Err(decl::bad("declaration", "a table", base));
    };
    for (key, entries) in replaced {
        // (an empty Lua table arrives as a list: nothing replaced)
        let entries = match entries {
            Value::Object(entries) => entries,
            Value::Array(list) if list.is_empty() => continue,
            other => return Err(decl::bad(&decl::join(at, key), "a table", other)),
        };
        let own = top
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Array(list) = own {
            if list.is_empty() {
                *own = Value::Object(Map::new());
            }
        }
        let Value::Object(own) = own else {
            return Err(decl::bad(key, "a table", own));
        };
        for (name, cost) in entries {
            own.insert(name.clone(), cost.clone());
        }
    }
    Ok(merged)
}
