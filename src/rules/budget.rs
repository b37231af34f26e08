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

#[cfg(test)]
mod tests {
    use super::*;

    /// What the budget stops with: the message of the error the hook or a charge raised,
    /// through the callback errors mlua wraps it in.
    fn message(e: &mlua::Error) -> String {
        match e {
            mlua::Error::CallbackError { cause, .. } => message(cause),
            mlua::Error::RuntimeError(m) => m.clone(),
            other => other.to_string(),
        }
    }

    /// A plain VM under `budget` (memory limit `memory_limit`, hook on or off), with `work(n)`
    /// charging n units of host work as the `hex` functions do.
    fn vm_with(budget: &Arc<Budget>, memory_limit: usize, hook: bool) -> Lua {
        let lua = Lua::new();
        budget.install(&lua, memory_limit, hook).unwrap();
        let work = lua
            .create_function(|lua, units: u64| charge(lua, units))
            .unwrap();
        lua.globals().set("work", work).unwrap();
        lua
    }

    fn vm(budget: &Arc<Budget>) -> Lua {
        vm_with(budget, 1 << 40, true)
    }

    /// Runs `code` as the chunk `b.lua` in a new call (a full budget).
    fn run(lua: &Lua, budget: &Budget, code: &str) -> Result<(), String> {
        budget.reset();
        lua.load(code)
            .set_name("@b.lua")
            .exec()
            .map_err(|e| message(&e))
    }

    /// A loop far past any budget here, yet finite: a hook that never fires fails a test
    /// instead of hanging it.
    const LONG_LOOP: &str = "for _ = 1, 1e7 do end";

    /// The budget's error at `place` for a budget of `limit`.
    fn spent(place: &str, limit: u64) -> String {
        format!(
            "{place}: instruction budget of {limit} instructions exceeded (an endless loop?); \
             raise [limits] instructions in the scenario if the rule really needs more"
        )
    }

    /// The hook counts 1000 instructions a tick: a call that uses exactly its budget (three
    /// ticks of 3000) goes on; the tick past it stops the call, at the running line.
    #[test]
    fn a_call_may_use_its_whole_budget_but_no_tick_more() {
        let budget = Budget::new(3000);
        let lua = vm(&budget);
        assert_eq!(run(&lua, &budget, "for i = 1, 3500 do end"), Ok(()));
        assert_eq!(
            run(&lua, &budget, "local x = 0\nfor i = 1, 4500 do x = i end"),
            Err(spent("b.lua:2", 3000))
        );
        assert_eq!(
            budget.exhausted_error().map(|e| message(&e)),
            Some(spent("b.lua:2", 3000))
        );
        // a new call starts with the whole budget, and nothing spent
        budget.reset();
        assert!(budget.exhausted_error().is_none());
        for _ in 0..3 {
            assert_eq!(run(&lua, &budget, "for i = 1, 2500 do end"), Ok(()));
        }
    }

    /// Host work moves the count off the ticks' multiples: the hook still stops the call at
    /// the first tick past the budget, not only at one landing on it.
    #[test]
    fn host_work_between_ticks_does_not_let_the_count_step_over_the_budget() {
        let budget = Budget::new(3000);
        let lua = vm(&budget);
        assert_eq!(
            run(&lua, &budget, "work(500)\nfor i = 1, 10000 do end"),
            Err(spent("b.lua:2", 3000))
        );
    }

    /// A charge past the budget names the line that asked for the work; one charge that alone
    /// asks for more than the whole budget says so, one that asks for exactly the budget after
    /// some was spent is the ordinary budget error; host work with no script running says so.
    #[test]
    fn host_charges_name_the_line_and_what_spent_the_budget() {
        let budget = Budget::new(3000);
        let lua = vm(&budget);
        assert_eq!(run(&lua, &budget, "work(1000)\nwork(2000)"), Ok(()));
        assert_eq!(
            run(&lua, &budget, "for i = 1, 1500 do end\nwork(3000)"),
            Err(spent("b.lua:2", 3000))
        );
        assert_eq!(
            run(&lua, &budget, "\nwork(3001)"),
            Err(
                "b.lua:2: instruction budget of 3000 instructions exceeded by one call: the \
                 host's work for it is 3001 units (a search over a large map, or the paths to \
                 every hex reached); raise [limits] instructions in the scenario if the rule \
                 really needs more"
                    .to_string()
            )
        );
        budget.reset();
        assert_eq!(charge(&lua, 2999).map_err(|e| message(&e)), Ok(()));
        assert_eq!(
            charge(&lua, 2).map_err(|e| message(&e)),
            Err(
                "instruction budget of 3000 instructions exceeded by the host's own work for \
                 this call (compiling a module's text, or a search over the map), with no script \
                 line running; raise [limits] instructions in the scenario if the game really \
                 needs more"
                    .to_string()
            )
        );
    }

    /// Without the hook (trusted rules) VM instructions are not counted, host work still is.
    #[test]
    fn without_the_hook_only_host_work_is_counted() {
        let budget = Budget::new(3000);
        let lua = vm_with(&budget, 1 << 40, false);
        assert_eq!(run(&lua, &budget, "for i = 1, 10000 do end"), Ok(()));
        assert_eq!(
            run(&lua, &budget, "work(2000)\nwork(2000)"),
            Err(spent("b.lua:2", 3000))
        );
    }

    /// One script frame is the place the message names; several follow it as a traceback,
    /// innermost first, a recursion given once, at most 12 frames.
    #[test]
    fn the_budget_error_lists_the_script_frames_that_led_there() {
        let budget = Budget::new(3000);
        let lua = vm(&budget);
        assert_eq!(run(&lua, &budget, LONG_LOOP), Err(spent("b.lua:1", 3000)));
        let recursion =
            "local function f(n)\n  if n == 0 then for _ = 1, 1e7 do end end\n  f(n - 1)\nend\nf(3)";
        assert_eq!(
            run(&lua, &budget, recursion),
            Err(format!(
                "{}\nstack traceback:\n\tb.lua:2\n\tb.lua:3\n\tb.lua:5",
                spent("b.lua:2", 3000)
            ))
        );
        // 20 functions, one a line, each calling the next: the innermost 12 frames
        let mut chain = String::from("local f20 = function() for _ = 1, 1e7 do end end\n");
        for i in (1..20).rev() {
            chain.push_str(&format!("local f{i} = function() f{}() end\n", i + 1));
        }
        chain.push_str("f1()\n");
        let frames: Vec<String> = (0..12).map(|i| format!("b.lua:{}", i + 1)).collect();
        assert_eq!(
            run(&lua, &budget, &chain),
            Err(format!(
                "{}\nstack traceback:\n\t{}",
                spent("b.lua:1", 3000),
                frames.join("\n\t")
            ))
        );
    }

    /// The backstop stops a call that runs past it within its budget, naming the line; zero is
    /// no backstop; each call's clock starts at its reset.
    #[test]
    fn the_wall_clock_backstop_stops_a_long_call_and_each_call_has_its_own() {
        // (a budget the backstop comes well before: 100 million instructions take seconds)
        let budget = Budget::new(100_000_000);
        budget.set_wall_limit(Duration::from_millis(50));
        assert_eq!(budget.wall_limit(), Duration::from_millis(50));
        let lua = vm(&budget);
        assert_eq!(
            run(&lua, &budget, "for _ = 1, 2e8 do end"),
            Err(
                "b.lua:1: wall-clock backstop of 0.05 s exceeded within the instruction budget \
                 (one instruction doing megabytes of work: comparing or joining long strings?); \
                 raise [limits] seconds in the scenario if the rule really needs more"
                    .to_string()
            )
        );
        // past the backstop since the budget was made, not since the call began: goes on (a
        // wider backstop here, so that a loaded machine pausing the thread cannot fail it)
        budget.set_wall_limit(Duration::from_millis(500));
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(run(&lua, &budget, "for i = 1, 20000 do end"), Ok(()));
        budget.set_wall_limit(Duration::ZERO);
        assert_eq!(run(&lua, &budget, "for i = 1, 20000 do end"), Ok(()));
    }

    /// Below half the memory limit the hook reads no place; from half on it remembers where
    /// the script ran (for the memory error).
    #[test]
    fn the_place_is_remembered_only_from_half_the_memory_limit() {
        let budget = Budget::new(1_000_000);
        let lua = vm_with(&budget, 1 << 40, true);
        assert_eq!(run(&lua, &budget, "\nfor i = 1, 5000 do end"), Ok(()));
        assert_eq!(budget.last_seen(), "");
        let near = Budget::new(1_000_000);
        let lua = Lua::new();
        // (the VM uses more than half of this limit already)
        let limit = lua.used_memory() * 3 / 2;
        near.install(&lua, limit, true).unwrap();
        assert_eq!(run(&lua, &near, "\nfor i = 1, 5000 do end"), Ok(()));
        assert_eq!(near.last_seen(), "b.lua:2");
    }

    /// The memory error raised again after a protected call caught it names the VM's limit.
    #[test]
    fn the_memory_error_raised_again_names_the_limit() {
        let budget = Budget::new(1000);
        budget.install(&Lua::new(), 64 << 20, true).unwrap();
        assert_eq!(
            message(&budget.exhaust_memory()),
            "memory limit of 64 MiB exceeded (caught by a protected call and raised again: a \
             script may not go on past the limit)"
        );
    }

    /// Which limit stopped a call: the one it spent, else a memory error however wrapped, else
    /// the script's own error.
    #[test]
    fn kind_of_names_the_limit_that_stopped_the_call() {
        let budget = Budget::new(1000);
        budget.install(&Lua::new(), 64 << 20, true).unwrap();
        let memory = mlua::Error::MemoryError("not enough memory".into());
        let wrapped = mlua::Error::CallbackError {
            traceback: String::new(),
            cause: Arc::new(mlua::Error::WithContext {
                context: "x".into(),
                cause: Arc::new(memory.clone()),
            }),
        };
        let script = mlua::Error::runtime("boom");
        assert_eq!(budget.kind_of(&script), RulesErrorKind::Script);
        assert_eq!(budget.kind_of(&memory), RulesErrorKind::Memory);
        assert_eq!(budget.kind_of(&wrapped), RulesErrorKind::Memory);
        assert!(!is_memory_error(&mlua::Error::CallbackError {
            traceback: String::new(),
            cause: Arc::new(script.clone()),
        }));
        let _ = budget.exhaust("b.lua:1", &[]);
        assert_eq!(budget.kind_of(&script), RulesErrorKind::InstructionBudget);
        let _ = budget.exhaust_wall("b.lua:1");
        assert_eq!(budget.kind_of(&script), RulesErrorKind::WallClock);
        let _ = budget.exhaust_memory();
        assert_eq!(budget.kind_of(&script), RulesErrorKind::Memory);
    }
}
