//! A profile of the rules at work (`hexwar run --profile`, or `HEXWAR_PROFILE=1` for any
//! program built on the library): Lua instructions by function and by line, sampled by the
//! budget hook every `TICK` instructions, the wall time of each entry point of the rules (a
//! command's resolve, an event handler, a bot) and the wall time spent inside each `hex.*`
//! function.
//! It is there so a designer can see which rule or bot line costs the time; it is off by default
//! and costs nothing then (the host functions are wrapped only when it is on).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use mlua::{Function, Lua, MultiValue, Table, Value};

/// Rows printed per section of the report.
const TOP: usize = 30;

#[derive(Default)]
struct Profile {
    /// Samples (of `TICK` instructions) by `file:line`.
    lines: HashMap<String, u64>,
    /// Samples by function (`file:line-defined name`).
    functions: HashMap<String, u64>,
    /// Calls and inclusive wall time by `hex.*` function.
    host: HashMap<String, (u64, Duration)>,
    /// Calls and inclusive wall time by entry point of the rules: each command's `resolve`,
    /// each event handler, each bot and query (what the host calls, not what scripts call).
    entries: HashMap<String, (u64, Duration)>,
}

static ENABLED: AtomicBool = AtomicBool::new(false);

fn profile() -> &'static Mutex<Profile> {
    static PROFILE: OnceLock<Mutex<Profile>> = OnceLock::new();
    PROFILE.get_or_init(|| Mutex::new(Profile::default()))
}

/// Turns profiling on for every VM created from now on.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// On when [`enable`] was called or `HEXWAR_PROFILE` is set.
pub fn enabled() -> bool {
    static FROM_ENV: OnceLock<bool> = OnceLock::new();
    ENABLED.load(Ordering::Relaxed)
        || *FROM_ENV.get_or_init(|| std::env::var_os("HEXWAR_PROFILE").is_some())
}

/// Records one sample of the budget hook.
pub(crate) fn sample(line: &str, function: &str) {
    if let Ok(mut p) = profile().lock() {
        *p.lines.entry(line.to_string()).or_default() += 1;
        *p.functions.entry(function.to_string()).or_default() += 1;
    }
}

/// Records one call of an entry point of the rules (named as in an error message).
pub(crate) fn entry_point(name: &str, spent: Duration) {
    if let Ok(mut p) = profile().lock() {
        let entry = p.entries.entry(name.to_string()).or_default();
        entry.0 += 1;
        entry.1 += spent;
    }
}

/// Replaces every function of every `hex.*` namespace by one that times it.
pub(crate) fn wrap_host_functions(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    for pair in hex.clone().pairs::<String, Value>() {
        let (namespace, value) = pair?;
        let Value::Table(functions) = value else {
            continue;
        };
        for pair in functions.clone().pairs::<String, Value>() {
            let (name, value) = pair?;
            let Value::Function(inner) = value else {
                continue;
            };
            let label = format!("hex.{namespace}.{name}");
            let inner: Function = inner;
            let timed = lua.create_function(move |_, args: MultiValue| {
                let start = Instant::now();
                let result = inner.call::<MultiValue>(args);
                let spent = start.elapsed();
                if let Ok(mut p) = profile().lock() {
                    let entry = p.host.entry(label.clone()).or_default();
                    entry.0 += 1;
                    entry.1 += spent;
                }
                result
            })?;
            functions.raw_set(name, timed)?;
        }
    }
    Ok(())
}

/// The profile so far, as text: the top functions and lines by Lua instructions, then the host
/// functions by time. Ties are broken by name, so the report's order is stable.
pub fn report() -> String {
    let Ok(p) = profile().lock() else {
        return String::new();
    };
    let total: u64 = p.lines.values().sum();
    let share = |n: u64| n as f64 * 100.0 / total.max(1) as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "profile: {} thousand Lua instructions (sampled every {}); host time is inclusive",
        total,
        super::budget::TICK
    );
    for (title, map) in [("Lua functions", &p.functions), ("Lua lines", &p.lines)] {
        let _ = writeln!(out, "-- {title} (share of instructions)");
        let mut rows: Vec<(&String, &u64)> = map.iter().collect();
        rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (name, n) in rows.into_iter().take(TOP) {
            let _ = writeln!(out, "{:6.2}% {name}", share(*n));
        }
    }
    for (title, map) in [
        ("rules entry points", &p.entries),
        ("hex.* functions", &p.host),
    ] {
        let _ = writeln!(out, "-- {title} (calls, total ms, us a call)");
        let mut rows: Vec<(&String, &(u64, Duration))> = map.iter().collect();
        rows.sort_by(|a, b| b.1 .1.cmp(&a.1 .1).then(a.0.cmp(b.0)));
        for (name, (calls, spent)) in rows.into_iter().take(TOP) {
            let _ = writeln!(
                out,
                "{calls:9} {:10.2} {:9.2}  {name}",
                spent.as_secs_f64() * 1e3,
                spent.as_secs_f64() * 1e6 / (*calls).max(1) as f64
            );
        }
    }
    out
}

/// Forgets what was measured so far.
pub fn reset() {
    if let Ok(mut p) = profile().lock() {
        *p = Profile::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The profile is one for the process: these tests take turns with it. (Nothing else in the
    /// lib's tests records into it: nothing there turns profiling on.)
    static TURN: Mutex<()> = Mutex::new(());

    fn rows_of<'a>(report: &'a str, section: &str) -> Vec<&'a str> {
        report
            .lines()
            .skip_while(|l| !l.starts_with(section))
            .skip(1)
            .take_while(|l| !l.starts_with("-- "))
            .collect()
    }

    #[test]
    fn the_report_gives_each_line_and_function_its_share_and_each_entry_point_its_calls() {
        let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        reset();
        for _ in 0..3 {
            sample("rules/a.lua:7", "rules/a.lua:5 attack");
        }
        sample("rules/b.lua:2", "rules/b.lua:1 move");
        entry_point("command 'attack' (rules/a.lua:5)", Duration::from_millis(3));
        entry_point("command 'attack' (rules/a.lua:5)", Duration::from_millis(3));
        entry_point("bot 'ai' (rules/ai.lua:1)", Duration::from_micros(500));
        let report = report();
        // Four samples of a thousand instructions; 3 of 4 are 75%, in both sections.
        assert_eq!(
            report,
            "profile: 4 thousand Lua instructions (sampled every 1000); host time is inclusive\n\
             -- Lua functions (share of instructions)\n\
             \x2075.00% rules/a.lua:5 attack\n\
             \x2025.00% rules/b.lua:1 move\n\
             -- Lua lines (share of instructions)\n\
             \x2075.00% rules/a.lua:7\n\
             \x2025.00% rules/b.lua:2\n\
             -- rules entry points (calls, total ms, us a call)\n\
             \x20       2       6.00   3000.00  command 'attack' (rules/a.lua:5)\n\
             \x20       1       0.50    500.00  bot 'ai' (rules/ai.lua:1)\n\
             -- hex.* functions (calls, total ms, us a call)\n"
        );
        // Forgotten: every section empty again.
        reset();
        assert_eq!(report_rows(), [0, 0, 0, 0], "reset left rows behind");
    }

    fn report_rows() -> [usize; 4] {
        let report = report();
        [
            "-- Lua functions",
            "-- Lua lines",
            "-- rules entry points",
            "-- hex.* functions",
        ]
        .map(|section| rows_of(&report, section).len())
    }

    #[test]
    fn wrapped_host_functions_answer_as_before_and_count_their_calls() {
        let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        reset();
        let lua = Lua::new();
        let hex: Table = lua
            .load(
                "return { map = { double = function(x) return x * 2, 'twice' end }, version = 3 }",
            )
            .eval()
            .unwrap();
        wrap_host_functions(&lua, &hex).unwrap();
        lua.globals().set("hex", hex).unwrap();
        let (n, what): (i64, String) = lua
            .load("hex.map.double(1); return hex.map.double(21)")
            .eval()
            .unwrap();
        assert_eq!((n, what.as_str()), (42, "twice"));
        let report = report();
        let rows = rows_of(&report, "-- hex.* functions");
        assert_eq!(rows.len(), 1, "{report}");
        let fields: Vec<&str> = rows[0].split_whitespace().collect();
        assert_eq!((fields[0], fields[3]), ("2", "hex.map.double"), "{report}");
        reset();
    }

    #[test]
    fn profiling_is_off_unless_turned_on() {
        if std::env::var_os("HEXWAR_PROFILE").is_some() {
            return; // (turned on from outside)
        }
        // (Nothing in the lib's tests calls `enable`.)
        assert!(!enabled());
    }
}
