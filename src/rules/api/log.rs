//! `hex.log` and `print`: script output goes to the host's log, never to the terminal directly.

use mlua::{Lua, Table, Variadic};

use super::with_host;

/// The lines the host keeps, and the bytes of one: the log is for a designer to read, and a
/// script printing a huge string in a loop must not fill the host's memory.
const LOG_LINES: usize = 10_000;
const LINE_BYTES: usize = 4_096;

/// The values joined by tabs, cut at `LINE_BYTES` (a string is read in place, not copied
/// whole, so printing a huge one costs no more than printing its start).
fn join(values: Variadic<mlua::Value>) -> String {
    let mut line: Vec<u8> = Vec::new();
    let mut total = 0usize;
    for (i, v) in values.iter().enumerate() {
        let (borrowed, shown);
        let bytes: &[u8] = if let mlua::Value::String(s) = v {
            borrowed = s.as_bytes();
            &borrowed
        } else {
            shown = shown_value(v);
            shown.as_bytes()
        };
        total += usize::from(i > 0) + bytes.len();
        push_within(&mut line, i > 0, bytes);
    }
    let mut line = String::from_utf8_lossy(&line).into_owned();
    if total > LINE_BYTES {
        line.push_str(&format!("... ({total} bytes)"));
    }
    line
}

/// A value as `tostring` shows it in the sandbox: a table, function, thread or userdata without
/// `__tostring` as its type name, never its memory address (which differs from run to run, and
/// the log must not).
fn shown_value(v: &mlua::Value) -> String {
    let custom = match v {
        mlua::Value::Table(t) => t.metatable().is_some_and(|m| {
            m.raw_get::<mlua::Value>("__tostring")
                .is_ok_and(|f| !f.is_nil())
        }),
        mlua::Value::UserData(u) => u.metatable().is_ok_and(|m| {
            m.get::<mlua::Value>("__tostring")
                .is_ok_and(|f| !f.is_nil())
        }),
        mlua::Value::Function(_) | mlua::Value::Thread(_) | mlua::Value::LightUserData(_) => false,
        _ => true,
    };
    if custom {
        v.to_string()
            .unwrap_or_else(|_| format!("<{}>", v.type_name()))
    } else {
        v.type_name().to_string()
    }
}

/// Appends a tab (when `tab`) and `bytes` to `line`, up to `LINE_BYTES` in all.
fn push_within(line: &mut Vec<u8>, tab: bool, bytes: &[u8]) {
    if tab && line.len() < LINE_BYTES {
        line.push(b'\t');
    }
    let room = LINE_BYTES.saturating_sub(line.len());
    line.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

/// The lines printed since the last read, drained: the first `LOG_LINES`, then a last line
/// saying how many more were dropped, if any.
pub(crate) fn take(log: &mut Vec<String>, dropped: &mut u64) -> Vec<String> {
    let mut lines = std::mem::take(log);
    if *dropped > 0 {
        lines.push(format!(
            "... {dropped} more line(s) dropped: the log keeps {LOG_LINES} between reads"
        ));
        *dropped = 0;
    }
    lines
}

/// Registers `hex.log` and a `print` that writes to the same place.
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let log = lua.create_function(|lua, values: Variadic<mlua::Value>| {
        let full = with_host(lua, |h| {
            let full = h.log.len() >= LOG_LINES;
            h.log_dropped += u64::from(full);
            full
        })?;
        if full {
            return Ok(());
        }
        let line = join(values);
        with_host(lua, |h| h.log.push(line))
    })?;
    hex.raw_set("log", log.clone())?;
    lua.globals().raw_set("print", log)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(values: Vec<mlua::Value>) -> String {
        join(Variadic::from_iter(values))
    }

    /// Short lines are the values joined by tabs; a line past `LINE_BYTES` keeps its first
    /// `LINE_BYTES` bytes and says how long it was.
    #[test]
    fn a_long_line_is_cut_and_says_its_length() {
        let lua = Lua::new();
        let s = |t: &str| mlua::Value::String(lua.create_string(t).unwrap());
        assert_eq!(
            joined(vec![
                s("a"),
                mlua::Value::Integer(2),
                mlua::Value::Boolean(true)
            ]),
            "a\t2\ttrue"
        );
        let big = "x".repeat(10 * LINE_BYTES);
        let line = joined(vec![s("head"), s(&big)]);
        assert_eq!(line.len(), LINE_BYTES + "... (40965 bytes)".len());
        assert!(line.starts_with("head\txxx"));
        assert!(
            line.ends_with("x... (40965 bytes)"),
            "{}",
            &line[line.len() - 30..]
        );
    }

    /// A line of exactly `LINE_BYTES` bytes is kept whole, without a length; the tab before a
    /// value that starts at the limit is cut with it.
    #[test]
    fn a_line_at_the_limit_is_kept_whole_and_nothing_follows_it() {
        let lua = Lua::new();
        let s = |t: &str| mlua::Value::String(lua.create_string(t).unwrap());
        let full = "x".repeat(LINE_BYTES);
        assert_eq!(joined(vec![s(&full)]), full);
        let line = joined(vec![s(&full), s("y")]);
        assert_eq!(line, format!("{full}... ({} bytes)", LINE_BYTES + 2));
        let short = "x".repeat(LINE_BYTES - 1);
        assert_eq!(
            joined(vec![s(&short), s("y")]),
            format!("{short}\t... ({} bytes)", LINE_BYTES + 1)
        );
    }

    /// A printed table or function shows its type, never its memory address (which differs
    /// from run to run); a `__tostring` is honoured.
    #[test]
    fn printed_values_show_no_address() {
        let lua = Lua::new();
        let custom: mlua::Value = lua
            .load("return setmetatable({}, {__tostring = function() return 'custom' end})")
            .eval()
            .unwrap();
        let values = vec![
            mlua::Value::Table(lua.create_table().unwrap()),
            mlua::Value::Function(lua.create_function(|_, ()| Ok(())).unwrap()),
            custom,
            mlua::Value::Number(1.5),
        ];
        assert_eq!(joined(values), "table\tfunction\tcustom\t1.5");
    }
}
