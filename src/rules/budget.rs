//! The instruction budget: a hook every `TICK` instructions counts what a call has used and stops
//! it, with the script and line, once the scenario's budget is spent. Once a VM uses half its
//! memory limit, it also remembers where scripts were last seen running, so a memory-limit error
//! can name a line too (reading the place costs more than the rest of the hook: below half the
//! limit it is not read).
//!
//! The hook only sees VM instructions, so host work a single instruction starts (a `hex.path`
//! search, a `string.rep` of 16 MB) is charged too, in work units worth about one VM
//! instruction each ([`Budget::charge`], [`charge`]; the rates: `host_work.rs` and
//! `lua_stack/library_guard.rs`). Work, never time: the same game must stop at the same place on
//! every machine.
//!
//! Behind the budget stands a wall-clock backstop ([`Budget::set_wall_limit`], `[limits]
//! seconds`): a few VM instructions do work the budget cannot count, `==`, `<` and `..` on
//! strings of megabytes, so a loop of them would run for hours inside its budget. The hook reads
//! the clock at every tick and stops a call past the backstop. No call within its budget comes
//! near it otherwise (the default budget runs in about 0.1 s), so it never decides a real game;
//! where it stops a hostile one depends on the machine.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mlua::{HookTriggers, Lua, VmState};

use crate::engine::RulesErrorKind;

pub(crate) const TICK: u32 = 1000;

/// Shared between the hook and the host.
#[derive(Debug)]
pub struct Budget {
    used: AtomicU64,
    limit: AtomicU64,
    /// Set once the budget is spent; protected calls re-raise while it is set, so a script
    /// cannot `pcall` its way past the budget.
    exhausted: std::sync::atomic::AtomicBool,
    /// The budget error, to re-raise.
    message: Mutex<String>,
    last_seen: Mutex<String>,
    /// Memory use (bytes) from which the hook records where scripts run.
    watch_memory_from: AtomicUsize,
    /// The clock the backstop measures calls on, and when the current call started on it (ns).
    clock: Instant,
    started_ns: AtomicU64,
    /// The wall-clock backstop of one call (ns; 0: none).
    wall_limit_ns: AtomicU64,
}

/// The message that marks a budget error, so the host can recognise it.
pub const BUDGET_MARK: &str = "instruction budget";

/// The backstop of a budget no scenario configured (`hexwar test`'s): 10 s, the scenarios' default.
const DEFAULT_WALL_LIMIT_NS: u64 = 10_000_000_000;

/// The message that marks a memory error a protected call caught and the host raised again.
pub const MEMORY_MARK: &str = "memory limit";

/// The message that marks the wall-clock backstop's error.
pub const WALL_MARK: &str = "wall-clock backstop";

/// What follows the budget's size in its error (shared by the hook, host charges and the C
/// library guard, so all three say the same).
pub(crate) const EXCEEDED: &str = "instructions exceeded (an endless loop?); raise [limits] instructions in the scenario if the rule really needs more";

impl Budget {
    pub fn new(limit: u64) -> Arc<Self> {
        Arc::new(Budget {
            used: AtomicU64::new(0),
            limit: AtomicU64::new(limit),
            exhausted: std::sync::atomic::AtomicBool::new(false),
            message: Mutex::new(String::new()),
            last_seen: Mutex::new(String::new()),
            watch_memory_from: AtomicUsize::new(0),
            clock: Instant::now(),
            started_ns: AtomicU64::new(0),
            wall_limit_ns: AtomicU64::new(DEFAULT_WALL_LIMIT_NS),
        })
    }

    /// Sets the wall-clock backstop of each call (`[limits] seconds`).
    pub fn set_wall_limit(&self, limit: Duration) {
        let ns = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX);
        self.wall_limit_ns.store(ns, Ordering::Relaxed);
    }

    /// The wall-clock backstop of each call (zero: none).
    #[cfg(test)]
    pub fn wall_limit(&self) -> Duration {
        Duration::from_nanos(self.wall_limit_ns.load(Ordering::Relaxed))
    }

    fn now_ns(&self) -> u64 {
        u64::try_from(self.clock.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// Whether the current call has run past the backstop.
    fn past_wall_limit(&self) -> bool {
        let limit = self.wall_limit_ns.load(Ordering::Relaxed);
        limit != 0
            && self
                .now_ns()
                .saturating_sub(self.started_ns.load(Ordering::Relaxed))
                > limit
    }

    /// Starts a new call with a full budget.
    pub fn reset(&self) {
        self.used.store(0, Ordering::Relaxed);
        if self.wall_limit_ns.load(Ordering::Relaxed) != 0 {
            self.started_ns.store(self.now_ns(), Ordering::Relaxed);
        }
        self.exhausted.store(false, Ordering::Relaxed);
        if let Ok(mut last) = self.last_seen.lock() {
            last.clear();
        }
    }

    /// The budget error if the budget of the current call is spent.
    pub fn exhausted_error(&self) -> Option<mlua::Error> {
        if self.exhausted.load(Ordering::Relaxed) {
            let message = self.message.lock().map(|m| m.clone()).unwrap_or_default();
            Some(mlua::Error::runtime(message))
        } else {
            None
        }
    }

    /// Which limit stopped the current call with `error`, if one did: the budget (or backstop) it
    /// spent, else a memory error anywhere in the error's chain; else the script's own error.
    pub(crate) fn kind_of(&self, error: &mlua::Error) -> RulesErrorKind {
        if self.exhausted.load(Ordering::Relaxed) {
            let message = self.message.lock().map(|m| m.clone()).unwrap_or_default();
            return if message.contains(WALL_MARK) {
                RulesErrorKind::WallClock
            } else if message.contains(MEMORY_MARK) {
                RulesErrorKind::Memory
            } else {
                RulesErrorKind::InstructionBudget
            };
        }
        if is_memory_error(error) {
            RulesErrorKind::Memory
        } else {
            RulesErrorKind::Script
        }
    }

    /// The budget of one call, in instructions.
    pub(crate) fn limit(&self) -> u64 {
        self.limit.load(Ordering::Relaxed)
    }

    /// Adds `units` of host work to the current call's count; false once the budget is spent.
    /// (Plain Rust, no Lua call: the C library guard calls it.)
    pub(crate) fn try_charge(&self, units: u64) -> bool {
        let used = self
            .used
            .fetch_add(units, Ordering::Relaxed)
            .saturating_add(units);
        used <= self.limit()
    }

    /// Charges `units` of host work (a Rust function of the `hex` API) to the current call; once
    /// the budget is spent, the budget error naming the script line that called the host.
    pub fn charge(&self, lua: &Lua, units: u64) -> mlua::Result<()> {
        if self.try_charge(units) {
            return Ok(());
        }
        match script_place(lua) {
            // (one host call asking for more than the whole budget is no endless loop: said so,
            // as the library guard says it of `string.rep`)
            Some(place) if units > self.limit() => Err(self.stop_with(format!(
                "{place}: {BUDGET_MARK} of {} instructions exceeded by one call: the host's \
                 work for it is {units} units (a search over a large map, or the paths to every \
                 hex reached); raise [limits] instructions in the scenario if the rule really \
                 needs more",
                self.limit()
            ))),
            Some(place) => Err(self.exhaust(&place, &script_chain(lua))),
            // (the host asked for the work itself, `hexwar reach` on the engine's own search:
            // no script line to name)
            None => Err(self.stop_with(format!(
                "{BUDGET_MARK} of {} instructions exceeded by the host's own work for this call \
                 (compiling a module's text, or a search over the map), with no script line \
                 running; raise [limits] instructions in the scenario if the game really needs \
                 more",
                self.limit()
            ))),
        }
    }

    /// Marks the budget spent and gives its error, at `place` (`rules/x.lua:12`), with the
    /// script frames that led there when there are several (a bot's loop over a rules
    /// function runs out inside the rules: the chain names the bot's line too).
    fn exhaust(&self, place: &str, chain: &[String]) -> mlua::Error {
        let mut message = format!("{place}: {BUDGET_MARK} of {} {EXCEEDED}", self.limit());
        if chain.len() > 1 {
            message.push_str("\nstack traceback:\n\t");
            message.push_str(&chain.join("\n\t"));
        }
        self.stop_with(message)
    }

    /// Marks the call stopped by the wall-clock backstop and gives its error, at `place`.
    fn exhaust_wall(&self, place: &str) -> mlua::Error {
        let limit = Duration::from_nanos(self.wall_limit_ns.load(Ordering::Relaxed));
        let message = format!(
            "{place}: {WALL_MARK} of {} s exceeded within the instruction budget (one instruction \
             doing megabytes of work: comparing or joining long strings?); raise [limits] seconds \
             in the scenario if the rule really needs more",
            limit.as_secs_f64()
        );
        self.stop_with(message)
    }

    /// Marks the call stopped by the memory limit when a protected call caught the VM's memory
    /// error: raised again at every protected call, as the budget's is, so a script cannot go on
    /// past the limit (nor measure the heap, which depends on the VM's history, by where it hits).
    pub(crate) fn exhaust_memory(&self) -> mlua::Error {
        let limit_mib = self
            .watch_memory_from
            .load(Ordering::Relaxed)
            .saturating_mul(2)
            >> 20;
        let message = format!(
            "{MEMORY_MARK} of {limit_mib} MiB exceeded (caught by a protected call and raised again: a script may not go on past the limit)"
        );
        self.stop_with(message)
    }

    /// Marks the call stopped with `message` (raised again at every protected call) and gives
    /// its error.
    fn stop_with(&self, message: String) -> mlua::Error {
        self.exhaust_with(message.as_bytes());
        mlua::Error::runtime(message)
    }

    /// Marks the budget spent with the error the C library guard composed (the same text as
    /// [`Budget::exhaust`]'s), so protected calls raise it again.
    pub(crate) fn exhaust_with(&self, message: &[u8]) {
        self.exhausted.store(true, Ordering::Relaxed);
        if let Ok(mut m) = self.message.lock() {
            *m = String::from_utf8_lossy(message).into_owned();
        }
    }

    /// Where a script was last seen running (`rules/x.lua:12`), or empty.
    pub fn last_seen(&self) -> String {
        self.last_seen.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Installs the hook on every thread of the VM, coroutines included. `memory_limit` is the
    /// VM's (bytes): from half of it on, the hook records where scripts run. Without `hook`
    /// (trusted rules, `Limits::trusted`) the host's charges are still counted, but nothing
    /// counts VM instructions or reads the clock.
    pub fn install(
        self: &Arc<Self>,
        lua: &Lua,
        memory_limit: usize,
        hook: bool,
    ) -> mlua::Result<()> {
        self.watch_memory_from
            .store(memory_limit / 2, Ordering::Relaxed);
        // (for the host functions' charges: `charge`)
        lua.set_app_data(Arc::clone(self));
        if !hook {
            return Ok(());
        }
        let budget = Arc::clone(self);
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(TICK),
            move |lua, debug| {
                let used =
                    budget.used.fetch_add(u64::from(TICK), Ordering::Relaxed) + u64::from(TICK);
                let over = used > budget.limit.load(Ordering::Relaxed);
                let late = budget.past_wall_limit();
                let profiling = super::profile::enabled();
                if !over
                    && !late
                    && !profiling
                    && lua.used_memory() < budget.watch_memory_from.load(Ordering::Relaxed)
                {
                    return Ok(VmState::Continue);
                }
                // Remember where the script runs: a memory error cannot say it by itself.
                let src = debug.source();
                let place = format!(
                    "{}:{}",
                    src.short_src.as_deref().unwrap_or("?"),
                    debug
                        .current_line()
                        .map(|l| l.to_string())
                        .unwrap_or_else(|| "?".into())
                );
                if let Ok(mut last) = budget.last_seen.lock() {
                    last.clone_from(&place);
                }
                if profiling {
                    let function = format!(
                        "{}:{} {}",
                        src.short_src.as_deref().unwrap_or("?"),
                        src.line_defined.map(|l| l.to_string()).unwrap_or_default(),
                        debug.names().name.as_deref().unwrap_or("?")
                    );
                    super::profile::sample(&place, &function);
                }
                if over {
                    return Err(budget.exhaust(&place, &script_chain(lua)));
                }
                if late {
                    return Err(budget.exhaust_wall(&place));
                }
                Ok(VmState::Continue)
            },
        )
    }
}

/// Whether `error` is, or wraps, the VM's memory error.
pub(crate) fn is_memory_error(error: &mlua::Error) -> bool {
    match error {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            is_memory_error(cause)
        }
        _ => false,
    }
}

/// Charges `units` of host work to the budget of the VM's current call (see [`Budget::charge`]);
/// nothing in a VM without a budget (the LuaLS generator's).
pub(crate) fn charge(lua: &Lua, units: u64) -> mlua::Result<()> {
    if units == 0 {
        return Ok(());
    }
    match lua.app_data_ref::<Arc<Budget>>() {
        Some(budget) => budget.charge(lua, units),
        None => Ok(()),
    }
}

/// The script place (`rules/x.lua:12`) of the stack frame at `level`: None past the stack's
/// end, Some(None) for a host function's frame.
fn frame_place(lua: &Lua, level: usize) -> Option<Option<String>> {
    lua.inspect_stack(level, |debug| {
        let line = debug.current_line()?;
        let src = debug.source();
        Some(format!(
            "{}:{line}",
            src.short_src.as_deref().unwrap_or("?")
        ))
    })
}

/// The script frames on the stack, innermost first (`rules/x.lua:12`), at most 12: host
/// frames left out, a frame repeated in a row (recursion) given once.
fn script_chain(lua: &Lua) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for level in 0..64 {
        match frame_place(lua, level) {
            Some(Some(place)) => {
                if out.last() != Some(&place) {
                    out.push(place);
                }
                if out.len() == 12 {
                    break;
                }
            }
            Some(None) => continue,
            None => break,
        }
    }
    out
}

/// The innermost script line on the stack (`rules/x.lua:12`), past the host functions between:
/// the line that asked for the host work.
pub(crate) fn script_place(lua: &Lua) -> Option<String> {
    for level in 1..32 {
        match frame_place(lua, level) {
            Some(Some(place)) => return Some(place),
            Some(None) => continue,
            None => break,
        }
    }
    None
}
