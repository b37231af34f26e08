//! The fields of the rules' module tables as they stood when loading ended. Module tables are
//! the rules, fixed once they load: one changed during play (`stacking.LIMIT = 6` in a handler)
//! is game state a save does not keep, so the game resumed from a save plays on without the
//! change (found by a variant designer: the two halves of a saved game differed from the whole).
//! Compared only when a host asks (`run` and `play` at their end), never during play: the walk
//! over every module's fields would cost each phase.

use mlua::{Table, Value};

/// Each loaded module's table fields (module name, field name, value) at the end of loading.
#[derive(Default)]
pub(crate) struct ModuleFields {
    entries: Vec<(String, String, Value)>,
}

impl ModuleFields {
    /// The fields of every module table in `loaded` (module name -> what `require` returned).
    pub(crate) fn snapshot(loaded: &Table) -> mlua::Result<ModuleFields> {
        let mut entries = Vec::new();
        for pair in loaded.pairs::<String, Value>() {
            let (module, value) = pair?;
            if let Value::Table(t) = value {
                for field in t.pairs::<Value, Value>() {
                    let (key, value) = field?;
                    if let Value::String(key) = key {
                        entries.push((module.clone(), key.to_str()?.to_string(), value));
                    }
                }
            }
        }
        entries.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        Ok(ModuleFields { entries })
    }

    /// The fields (`module.field`) whose value is no longer the one they had (another number
    /// or string, another table or function), or that are gone or new, in name order. A module
    /// first required during play (a `require` inside a function) is no change: its fields
    /// are as it made them.
    pub(crate) fn changes(&self, loaded: &Table) -> mlua::Result<Vec<String>> {
        let mut now = ModuleFields::snapshot(loaded)?;
        let known: std::collections::BTreeSet<&str> =
            self.entries.iter().map(|e| e.0.as_str()).collect();
        now.entries.retain(|e| known.contains(e.0.as_str()));
        let mut changed = Vec::new();
        let (mut a, mut b) = (
            self.entries.iter().peekable(),
            now.entries.iter().peekable(),
        );
        loop {
            let name = |e: &(String, String, Value)| format!("{}.{}", e.0, e.1);
            match (a.peek(), b.peek()) {
                (None, None) => break,
                (Some(x), Some(y)) if (&x.0, &x.1) == (&y.0, &y.1) => {
                    if !same(&x.2, &y.2) {
                        changed.push(name(x));
                    }
                    a.next();
                    b.next();
                }
                (Some(x), Some(y)) if (&x.0, &x.1) < (&y.0, &y.1) => {
                    changed.push(name(x));
                    a.next();
                }
                (Some(x), None) => {
                    changed.push(name(x));
                    a.next();
                }
                (_, Some(y)) => {
                    changed.push(name(y));
                    b.next();
                }
            }
        }
        Ok(changed)
    }
}

/// Lua's raw equality: numbers and strings by value, tables and functions by identity.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Integer(x), Value::Number(y)) | (Value::Number(y), Value::Integer(x)) => {
            *x as f64 == *y
        }
        (Value::String(x), Value::String(y)) => x.as_bytes() == y.as_bytes(),
        (Value::Integer(x), Value::Integer(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::Boolean(x), Value::Boolean(y)) => x == y,
        (Value::Nil, Value::Nil) => true,
        _ => a.to_pointer() == b.to_pointer() && a.type_name() == b.type_name(),
    }
}
