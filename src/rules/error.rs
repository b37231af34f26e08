//! Lua errors turned into messages a designer can act on: script, line, traceback.

use mlua::Error;

use super::budget::Budget;

/// A readable message for a Lua error raised while running `what`.
pub fn describe(error: &Error, what: &str, budget: &Budget, memory_limit: usize) -> String {
    match error {
        Error::MemoryError(_) => {
            let seen = budget.last_seen();
            let place = if seen.is_empty() {
                String::new()
            } else {
                format!(" (last seen running {seen})")
            };
            format!(
                "{what}: memory limit of {} MiB exceeded{place}",
                memory_limit >> 20
            )
        }
        Error::SyntaxError { message, .. } => format!("{what}: syntax error: {message}"),
        Error::CallbackError { traceback, cause } => {
            let inner = describe(cause, what, budget, memory_limit);
            if inner.contains("stack traceback") {
                inner
            } else {
                format!("{inner}\n{traceback}")
            }
        }
        Error::RuntimeError(message) => format!("{what}: {message}"),
        Error::WithContext { context, cause } => {
            format!("{}: {context}", describe(cause, what, budget, memory_limit))
        }
        other => format!("{what}: {other}"),
    }
}
