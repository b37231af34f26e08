//! Lua errors turned into messages a designer can act on: script, line, traceback.

use mlua::Error;

use super::budget::Budget;

/// A Lua value as a message names it (a key a script tried to set, a place in a value): strings,
/// numbers and booleans as they are, anything else by its type, never its memory address (Lua's
/// own `table: 0x55d0...` differs from run to run, and messages reach events and the log).
pub(crate) fn value_in_message(v: &mlua::Value) -> String {
    match v {
        mlua::Value::String(s) => s.to_string_lossy().to_string(),
        mlua::Value::Integer(i) => i.to_string(),
        // (as Lua writes it: a whole float `-2.0`, which Rust's `-2` would pass off as an integer)
        mlua::Value::Number(n) if n.is_finite() && n.fract() == 0.0 && n.abs() < 1e15 => {
            format!("{n:.1}")
        }
        mlua::Value::Number(n) => n.to_string(),
        mlua::Value::Boolean(b) => b.to_string(),
        mlua::Value::Nil => "nil".into(),
        other => other.type_name().to_string(),
    }
}

/// A readable message for a Lua error raised while running `what`. An error value that is a
/// table or a function (`error({code = 5})`) is named by its type, never its memory address,
/// which differs from run to run (the message reaches the log and the saves).
pub fn describe(error: &Error, what: &str, budget: &Budget, memory_limit: usize) -> String {
    without_addresses(&describe_raw(error, what, budget, memory_limit))
}

/// `table: 0x55d0c4a2` (Lua's text for an error value that is no string) as `table`, and
/// `Foo: 0x55d0c4a2` (one whose metatable names it with `__name`) as `Foo`: any word followed
/// by an address of 8 or more hex digits; a short `mask: 0x1f` stays.
pub(crate) fn without_addresses(message: &str) -> String {
    const KINDS: [&str; 4] = ["table", "function", "thread", "userdata"];
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(": 0x") {
        let (before, after) = rest.split_at(at);
        let digits = after[4..]
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(after.len() - 4);
        let named = before.ends_with(|c: char| c.is_alphanumeric() || c == '_');
        if digits > 0 && (KINDS.iter().any(|k| before.ends_with(k)) || (digits >= 8 && named)) {
            out.push_str(before);
            rest = &after[4 + digits..];
        } else {
            out.push_str(before);
            out.push_str(": 0x");
            rest = &after[4..];
        }
    }
    out.push_str(rest);
    out
}

/// What a designer may do about a rules call that ran out of memory, as the instruction
/// budget's message says for instructions.
const MEMORY_HINT: &str = "raise [limits] memory_mb in the scenario if the rules really need more";

/// A VM out of memory, with where its script was last seen running: Lua's own message
/// ("not enough memory") names no place.
pub(crate) fn memory_exceeded(budget: &Budget, memory_limit: usize) -> String {
    let seen = budget.last_seen();
    let place = if seen.is_empty() {
        String::new()
    } else {
        format!(" (last seen running {seen})")
    };
    format!("memory limit of {} MiB exceeded{place}", memory_limit >> 20)
}

fn describe_raw(error: &Error, what: &str, budget: &Budget, memory_limit: usize) -> String {
    match error {
        // (the hint is the scenario's: `hexwar test` has a fixed limit and words its own)
        Error::MemoryError(_) => format!(
            "{what}: {}; {MEMORY_HINT}",
            memory_exceeded(budget, memory_limit)
        ),
        Error::SyntaxError { message, .. } => format!("{what}: syntax error: {message}"),
        Error::CallbackError { traceback, cause } => {
            let inner = match bad_argument(cause, host_function_called(traceback).as_deref()) {
                Some(message) => format!("{what}: {message}"),
                None => describe_raw(cause, what, budget, memory_limit),
            };
            if inner.contains("stack traceback") {
                return inner;
            }
            let frames = script_frames(traceback);
            // An error raised by a host function (`hex.commands.define(...)`) has no place of its
            // own: give it the script line that made the call.
            let message = match (inner.strip_prefix(&format!("{what}: ")), frames.first()) {
                (Some(message), Some(frame)) if !is_located(message) => {
                    format!("{what}: {}: {message}", frame_place(frame))
                }
                _ => inner,
            };
            // One script frame is the place the message already names; more show the calls.
            if frames.len() > 1 {
                format!("{message}\nstack traceback:\n\t{}", frames.join("\n\t"))
            } else {
                message
            }
        }
        Error::RuntimeError(message) => format!("{what}: {}", tidy_traceback(message)),
        Error::FromLuaConversionError { .. } => {
            format!("{what}: {}", conversion(error).unwrap_or_default())
        }
        Error::WithContext { context, cause } => {
            format!(
                "{}: {context}",
                describe_raw(cause, what, budget, memory_limit)
            )
        }
        other => format!("{what}: {other}"),
    }
}

/// A host function given an argument of the wrong type, worded as Lua's own library words it
/// (mlua's own message names neither the function nor a Lua type: `bad argument #2: error
/// converting Lua function to table`): `bad argument #2 to 'hex.commands.define' (table
/// expected, got function)`. `called` names the function, when the caller knows it.
pub(crate) fn bad_argument(cause: &Error, called: Option<&str>) -> Option<String> {
    let Error::BadArgument {
        to: None,
        pos,
        name: None,
        cause,
    } = cause
    else {
        return None;
    };
    let Error::FromLuaConversionError { from, to, message } = cause.as_ref() else {
        return None;
    };
    let expected = lua_type_of(to);
    let called = called
        .map(|name| format!(" to '{name}'"))
        .unwrap_or_default();
    // (a number of the right type but too large or negative for the host: `roll(-3)`)
    if message.as_deref() == Some("out of range") {
        return Some(format!("bad argument #{pos}{called} ({from} out of range)"));
    }
    // (a string that is not UTF-8 text: "string expected, got string" named no difference)
    if expected == "string" && *from == "string" {
        return Some(format!(
            "bad argument #{pos}{called} (UTF-8 text expected, got a string of other bytes)"
        ));
    }
    let detail = match message {
        Some(m) if !m.starts_with("expected ") => format!(": {m}"),
        _ => String::new(),
    };
    Some(format!(
        "bad argument #{pos}{called} ({expected} expected, got {from}){detail}"
    ))
}

/// A Rust type a host function converts a Lua value to, as a script knows it (`String` is a
/// string, `Vec<String>` a list, `u32` a number).
fn lua_type_of(rust: &str) -> &str {
    match rust {
        "String" | "string" | "str" => "string",
        "table" | "Table" => "table",
        "function" | "Function" => "function",
        "bool" | "boolean" => "boolean",
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize" | "f32"
        | "f64" | "integer" | "number" => "number",
        // (Rust's collection types, as a script writes them: `{ "a", "b" }`, `{ k = v }`)
        other if other.starts_with("Vec<") => "list",
        other if other.contains("Map<") => "table",
        other => other,
    }
}

/// A Lua value a host function could not convert (a field of a table it was given: `side =
/// {}`), in a script's words: `string expected, got table` (mlua's own: `error converting Lua
/// table to String (expected string or number)`).
pub(crate) fn conversion(error: &Error) -> Option<String> {
    let Error::FromLuaConversionError { from, to, message } = error else {
        return None;
    };
    let expected = lua_type_of(to);
    if message.as_deref() == Some("out of range") {
        return Some(format!("{from} out of range for a {expected}"));
    }
    Some(format!("{expected} expected, got {from}"))
}

/// The `hex.*` function a host error came from, named as the script wrote it: the traceback
/// names only the field (`[C]: in field 'distance'`), so the API's own listing gives its
/// namespace (`hex.map.distance`) unless two namespaces share the name (`get`).
pub(crate) fn host_function_called(traceback: &str) -> Option<String> {
    let field = called_field(
        traceback
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("[C]: in "))?,
    )?;
    let short = field.rsplit('.').next().unwrap_or(field);
    Some(super::api::spec::qualified_name(short).unwrap_or_else(|| short.to_string()))
}

/// The name a traceback frame gives its function (`'query'` of `x.lua:3: in field 'query'`).
pub(crate) fn called_field(frame: &str) -> Option<&str> {
    frame.split('\'').nth(1)
}

/// A message with its traceback cut to the script frames, and left out when the one frame left
/// is the place the message already names.
fn tidy_traceback(message: &str) -> String {
    let Some((head, traceback)) = message.split_once("\nstack traceback:") else {
        return continued(message);
    };
    let frames = script_frames(traceback);
    // Lua names no place for some errors ("C stack overflow"): the innermost script frame does.
    let innermost = frames.iter().map(|f| frame_place(f)).find(|p| is_place(p));
    let head = match innermost {
        Some(place) if !is_located(head) => format!("{place}: {}", error_value_said(head)),
        _ => head.to_string(),
    };
    let head = continued(&head);
    if frames.len() > 1 {
        format!("{head}\nstack traceback:\n\t{}", frames.join("\n\t"))
    } else {
        head
    }
}

/// A script's message of several lines with each line after the first indented: at the margin,
/// `error("x\nerror: rules/demo/init.lua:3: winner: blue")` printed a line that read as the
/// host's own.
fn continued(message: &str) -> String {
    message.replace('\n', "\n  ")
}

/// Lua's text for an error value that is no message (`error({code = 1})` gives `table:
/// 0x55d0...`, `error()` gives `nil`), said as what happened; any other text as it is.
fn error_value_said(head: &str) -> String {
    const KINDS: [&str; 4] = ["table", "function", "thread", "userdata"];
    let kind = if head == "nil" {
        Some("nil".to_string())
    } else {
        KINDS
            .into_iter()
            .find(|k| {
                head.strip_prefix(k)
                    .is_some_and(|rest| rest.starts_with(": 0x"))
            })
            .map(|k| format!("a {k}"))
    };
    match kind {
        Some(kind) => format!(
            "error raised with {kind}, not a message (give error() a string saying what went wrong)"
        ),
        None => head.to_string(),
    }
}

/// The traceback's frames in scripts (`rules/demo/combat.lua:17: in function 'resolve'`),
/// without the host's own (`[C]: in function 'require'`).
fn script_frames(traceback: &str) -> Vec<&str> {
    traceback
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != "stack traceback:" && !l.starts_with("[C]"))
        .collect()
}

/// `rules/demo/combat.lua:17` of a frame.
fn frame_place(frame: &str) -> &str {
    frame.split_once(": in ").map_or(frame, |(place, _)| place)
}

/// Whether a message starts with a script place (`rules/x.lua:3: ...`).
pub(crate) fn is_located(message: &str) -> bool {
    message
        .split_once(": ")
        .is_some_and(|(place, _)| is_place(place))
}

/// Whether a text is a script place (`rules/x.lua:3`).
fn is_place(place: &str) -> bool {
    place
        .rsplit_once(':')
        .is_some_and(|(file, line)| file.ends_with(".lua") && line.parse::<u32>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value in a message as Lua writes it (a whole float with its `.0`, a large one
    /// without), anything but a string, number or boolean by its type.
    #[test]
    fn a_value_is_named_as_lua_writes_it_and_never_by_its_address() {
        let lua = mlua::Lua::new();
        let named = |v: mlua::Value| value_in_message(&v);
        assert_eq!(
            named(mlua::Value::String(lua.create_string("zone").unwrap())),
            "zone"
        );
        assert_eq!(named(mlua::Value::Integer(-3)), "-3");
        assert_eq!(named(mlua::Value::Number(-2.0)), "-2.0");
        assert_eq!(named(mlua::Value::Number(2.25)), "2.25");
        assert_eq!(named(mlua::Value::Number(1e15)), "1000000000000000");
        assert_eq!(named(mlua::Value::Number(f64::INFINITY)), "inf");
        assert_eq!(named(mlua::Value::Boolean(true)), "true");
        assert_eq!(named(mlua::Value::Nil), "nil");
        assert_eq!(
            named(mlua::Value::Table(lua.create_table().unwrap())),
            "table"
        );
    }

    /// A VM out of memory is said with its limit in MiB (no place when none was seen).
    #[test]
    fn a_memory_limit_exceeded_is_said_in_mib() {
        assert_eq!(
            memory_exceeded(&Budget::new(1000), 3 << 20),
            "memory limit of 3 MiB exceeded"
        );
    }

    const TRACEBACK: &str = "stack traceback:\n\t[C]: in field 'define'\n\trules/broken/init.lua:2: in main chunk\n\t[C]: in function 'require'";

    #[test]
    fn the_host_frames_are_left_out_of_a_traceback() {
        assert_eq!(
            script_frames(TRACEBACK),
            ["rules/broken/init.lua:2: in main chunk"]
        );
        assert_eq!(
            frame_place("rules/broken/init.lua:2: in main chunk"),
            "rules/broken/init.lua:2"
        );
    }

    #[test]
    fn a_message_without_a_place_gets_the_innermost_script_frame() {
        let overflow = "C stack overflow\nstack traceback:\n\t[C]: in function 'tostring'\n\trules/a.lua:2: in function <rules/a.lua:2>\n\t...\t(skipping 377 levels)\n\trules/a.lua:2: in function <rules/a.lua:2>";
        assert_eq!(
            tidy_traceback(overflow),
            "rules/a.lua:2: C stack overflow\nstack traceback:\n\trules/a.lua:2: in function <rules/a.lua:2>\n\t...\t(skipping 377 levels)\n\trules/a.lua:2: in function <rules/a.lua:2>"
        );
        let tail = "boom\nstack traceback:\n\t(...tail calls...)\n\trules/b.lua:7: in main chunk";
        assert_eq!(tidy_traceback(tail), "rules/b.lua:7: boom\nstack traceback:\n\t(...tail calls...)\n\trules/b.lua:7: in main chunk");
    }

    #[test]
    fn a_message_is_located_when_it_starts_with_a_script_line() {
        assert!(is_located(
            "rules/broken/init.lua:3: attempt to index a nil value"
        ));
        assert!(!is_located(
            "hex.commands.define(\"attack\"): 'resolve' must be a function"
        ));
        assert!(!is_located("budget: 3: too much"));
        // (a place needs both a script and a line number)
        assert!(!is_located("budget:3: too much"));
        assert!(!is_located("rules/x.lua:top: too much"));
    }

    #[test]
    fn a_traceback_of_one_script_frame_is_left_out_and_longer_ones_keep_their_script_frames() {
        let one = format!("rules/broken/init.lua:3: attempt to index a nil value\n{TRACEBACK}");
        assert_eq!(
            tidy_traceback(&one),
            "rules/broken/init.lua:3: attempt to index a nil value"
        );
        let two = "rules/a.lua:3: boom\nstack traceback:\n\t[C]: in ?\n\trules/a.lua:3: in function 'f'\n\trules/b.lua:9: in main chunk";
        assert_eq!(
            tidy_traceback(two),
            "rules/a.lua:3: boom\nstack traceback:\n\trules/a.lua:3: in function 'f'\n\trules/b.lua:9: in main chunk"
        );
    }

    #[test]
    fn a_host_function_error_gets_the_line_of_the_call() {
        let error = Error::CallbackError {
            traceback: TRACEBACK.into(),
            cause: std::sync::Arc::new(Error::runtime("'resolve' must be a function")),
        };
        assert_eq!(
            describe(
                &error,
                "loading rules module 'broken'",
                &Budget::new(1000),
                1 << 20
            ),
            "loading rules module 'broken': rules/broken/init.lua:2: 'resolve' must be a function"
        );
    }

    /// A host error already naming its script line keeps it alone; a call from a second
    /// script frame shows both frames.
    #[test]
    fn a_host_error_keeps_its_own_line_and_a_longer_traceback_shows_its_frames() {
        let said = |message: &str, traceback: &str| {
            let error = Error::CallbackError {
                traceback: traceback.into(),
                cause: std::sync::Arc::new(Error::runtime(message)),
            };
            describe(&error, "loading", &Budget::new(1000), 1 << 20)
        };
        assert_eq!(
            said("rules/x.lua:5: boom", TRACEBACK),
            "loading: rules/x.lua:5: boom"
        );
        let two = "stack traceback:\n\t[C]: in field 'define'\n\trules/a.lua:3: in function 'f'\n\trules/b.lua:9: in main chunk";
        assert_eq!(
            said("boom", two),
            "loading: rules/a.lua:3: boom\nstack traceback:\n\trules/a.lua:3: in function 'f'\n\trules/b.lua:9: in main chunk"
        );
    }

    /// A host function's argument of the wrong type or range, worded as Lua's library words it.
    #[test]
    fn a_bad_argument_is_worded_as_luas_library_words_it() {
        let bad = |from: &'static str, to: &str, message: Option<&str>| {
            let cause = Error::BadArgument {
                to: None,
                pos: 2,
                name: None,
                cause: std::sync::Arc::new(Error::FromLuaConversionError {
                    from,
                    to: to.into(),
                    message: message.map(str::to_string),
                }),
            };
            bad_argument(&cause, Some("hex.dice.roll"))
        };
        assert_eq!(
            bad("integer", "u32", Some("out of range")).as_deref(),
            Some("bad argument #2 to 'hex.dice.roll' (integer out of range)")
        );
        assert_eq!(
            bad("function", "table", None).as_deref(),
            Some("bad argument #2 to 'hex.dice.roll' (table expected, got function)")
        );
        // (a string that is no UTF-8; other strings and other wants said as they are)
        let said = |from, to, message| bad(from, to, message).unwrap_or_default();
        assert_eq!(
            said("string", "String", None),
            "bad argument #2 to 'hex.dice.roll' (UTF-8 text expected, got a string of other bytes)"
        );
        assert_eq!(
            said("integer", "String", None),
            "bad argument #2 to 'hex.dice.roll' (string expected, got integer)"
        );
        assert_eq!(
            said("string", "table", None),
            "bad argument #2 to 'hex.dice.roll' (table expected, got string)"
        );
        // (Rust's collections as a script writes them; mlua's detail kept unless it repeats
        // what was expected)
        assert_eq!(
            said("table", "Vec<String>", Some("expected a list")),
            "bad argument #2 to 'hex.dice.roll' (list expected, got table)"
        );
        assert_eq!(
            said("string", "HashMap<String, u32>", Some("key 'x' unknown")),
            "bad argument #2 to 'hex.dice.roll' (table expected, got string): key 'x' unknown"
        );
        assert_eq!(
            said("string", "Hex", None),
            "bad argument #2 to 'hex.dice.roll' (Hex expected, got string)"
        );
    }

    /// The host function a traceback's first host frame names, as the script wrote it.
    #[test]
    fn the_host_function_called_is_named_from_the_traceback() {
        assert_eq!(
            host_function_called(
                "stack traceback:\n\t[C]: in field 'not_a_host_function'\n\trules/a.lua:1: in main chunk"
            )
            .as_deref(),
            Some("not_a_host_function")
        );
        assert_eq!(
            host_function_called("stack traceback:\n\trules/a.lua:1: in main chunk"),
            None
        );
    }

    /// A field a host function could not convert, in a script's words.
    #[test]
    fn a_value_not_converted_is_said_in_a_scripts_words() {
        let conversion_of = |from: &'static str, to: &str, message: Option<&str>| {
            conversion(&Error::FromLuaConversionError {
                from,
                to: to.into(),
                message: message.map(str::to_string),
            })
        };
        assert_eq!(
            conversion_of("table", "String", None).as_deref(),
            Some("string expected, got table")
        );
        assert_eq!(
            conversion_of("integer", "u8", Some("out of range")).as_deref(),
            Some("integer out of range for a number")
        );
        assert_eq!(conversion(&Error::runtime("boom")), None);
    }

    #[test]
    fn an_error_value_that_is_no_string_is_named_without_its_address() {
        assert_eq!(
            without_addresses("command 'x' (a.lua:1): a.lua:1: table: 0x564274ba9c80"),
            "command 'x' (a.lua:1): a.lua:1: table"
        );
        assert_eq!(
            without_addresses("f: function: 0xab, thread: 0x1f"),
            "f: function, thread"
        );
        // (a value whose metatable names it: `__name`)
        assert_eq!(
            without_addresses("a.lua:2: Foo: 0x29a7ae73400"),
            "a.lua:2: Foo"
        );
        // (other text with 0x stays as it is)
        assert_eq!(
            without_addresses("mask: 0x1f; count: 0x"),
            "mask: 0x1f; count: 0x"
        );
        // (a long hex number after no word, or a `0x` without digits after a kind, stays too)
        assert_eq!(
            without_addresses("at (3): 0x12345678; table: 0xg"),
            "at (3): 0x12345678; table: 0xg"
        );
        assert_eq!(without_addresses("Foo_: 0x29a7ae73400"), "Foo_");
    }

    #[test]
    fn an_error_raised_with_no_message_says_so_at_the_scripts_line() {
        let traceback = "\nstack traceback:\n\t[C]: in function 'error'\n\tmods/m.lua:1: in function <mods/m.lua:1>";
        assert_eq!(
            tidy_traceback(&format!("table: 0x5642{traceback}")),
            "mods/m.lua:1: error raised with a table, not a message (give error() a string saying what went wrong)"
        );
        assert_eq!(
            tidy_traceback(&format!("nil{traceback}")),
            "mods/m.lua:1: error raised with nil, not a message (give error() a string saying what went wrong)"
        );
        assert_eq!(
            tidy_traceback(&format!("no road{traceback}")),
            "mods/m.lua:1: no road"
        );
    }
}
