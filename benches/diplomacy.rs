//! Diplomacy adjudication through the Rust host (orders given -> phase resolved), two positions:
//! (1) the opening with all 22 units holding; (2) a busy phase: 41 units, 18 supports, 2 convoys,
//! 3 dislodgements. For each, three levels, so the host's own overhead can be read off:
//!
//! * `library_in_vm`: `game.adjudicate` alone, looped inside the host's Lua VM (the library's
//!   speed under mlua; compare `lua5.4 rules/diplomacy/tests/bench.lua`);
//! * `library_fresh_orders`: the same with the order-text memo emptied before every phase, so
//!   that every order is parsed and checked again, as a game's new orders are (and as the
//!   reference engine parses every order it is given);
//! * `resolve_apply`: `Ruleset::resolve(end_phase)` (reads the position and orders from the
//!   state, adjudicates, builds the events) and `apply` of every event on a copy of the state
//!   (the copy is made untimed);
//! * `submit`: `Game::submit(end_phase)`, the whole engine path (atomic processing, handlers,
//!   phase change and skip checks), each time on a fresh `Game` built from the ready state (so
//!   nothing piles up between iterations: re-running the setup on one game would grow its list
//!   of removed units, which every `submit` clones);
//! * `orders_submit`: orders given -> phase resolved, what the reference engine's `set_orders` +
//!   `process` do (issue #5's measure): every power's `orders` command, then `end_phase`, on a
//!   fresh game made from the state before the orders;
//! * `orders_submit_fresh`: the same with the order-text memo emptied first (untimed; an `eval`
//!   that valgrind would count, so `benches/diplomacy_instructions.sh` leaves this level out).
//!
//! Each level but `resolve_apply` and `submit` is measured again with trusted rules (`trusted_`:
//! no instruction budget, `Limits::trusted`; for `DIPLOMACY_PHASES`, set `DIPLOMACY_TRUSTED=1`).
//!
//! Run: `cargo bench --bench diplomacy`. `benches/diplomacy_reference.sh` times the same two
//! positions in the reference Python engine.
//!
//! Wall-clock figures swing with the machine's load; machine instructions do not. With
//! `DIPLOMACY_PHASES=POSITION:LEVEL:N` (POSITION `opening` or `busy`, LEVEL `library_in_vm`, `library_fresh_orders`,
//! `resolve_apply`, `submit`, `orders_submit`, `orders_submit_fresh` or `state_copy`, the copies of the state the other two make) the bench binary runs that level N times and exits, for
//! `valgrind --tool=callgrind` (instructions per phase = the difference between N and 0 runs,
//! divided by N; `benches/diplomacy_instructions.sh` does it for all six).

/// The allocator of the `hexwar` binary, so this measures what the binary does:
/// mimalloc, which serves the engine's many small strings and maps faster than the system one.
#[cfg(feature = "fast-alloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use hexwar::engine::{
    apply, Command, Event, EventLimits, Game, GameState, Outcome, Refusal, Resolution, RulesError,
    Ruleset, Sequence,
};
use hexwar::rules::LuaRules;
use hexwar::scenario::{load_scenario, Scenario};
use hexwar::Session;
use serde_json::{json, Map, Value};

/// One loaded `LuaRules` shared by the benchmark's short-lived games (loading the rules takes
/// far longer than a phase).
struct Shared {
    rules: Arc<Mutex<LuaRules>>,
    sequence: Sequence,
}

impl Shared {
    fn with<R>(&self, f: impl FnOnce(&mut LuaRules) -> R) -> R {
        f(&mut self.rules.lock().unwrap())
    }
}

impl Ruleset for Shared {
    fn sequence(&self) -> &Sequence {
        &self.sequence
    }
    fn legal_commands(&mut self, s: &GameState, side: &str) -> Result<Vec<Command>, RulesError> {
        self.with(|r| r.legal_commands(s, side))
    }
    fn resolve(
        &mut self,
        s: &GameState,
        side: Option<&str>,
        c: &Command,
    ) -> Result<Resolution, RulesError> {
        self.with(|r| r.resolve(s, side, c))
    }
    fn before_event(&mut self, s: &GameState, e: &Event) -> Result<Option<Refusal>, RulesError> {
        self.with(|r| r.before_event(s, e))
    }
    fn after_event(&mut self, s: &GameState, e: &Event) -> Result<Vec<Event>, RulesError> {
        self.with(|r| r.after_event(s, e))
    }
    fn victory(&mut self, s: &GameState) -> Result<Outcome, RulesError> {
        self.with(|r| r.victory(s))
    }
    fn skip_step(&mut self, s: &GameState, turn: u32, step: u32) -> Result<bool, RulesError> {
        self.with(|r| r.skip_step(s, turn, step))
    }
    fn phase_label(
        &mut self,
        s: &GameState,
        turn: u32,
        step: u32,
    ) -> Result<Option<String>, RulesError> {
        self.with(|r| r.phase_label(s, turn, step))
    }
}

/// The busy phase (also in docs/diplomacy.md): every number above checked by `check_busy`.
fn busy() -> (Value, Value) {
    let units = json!({
        "ENGLAND": ["A YOR", "F NTH", "F NWG", "A LON", "F ENG", "F MAO", "F IRI", "A WAL"],
        "FRANCE": ["A BRE", "A BUR", "A PAR", "A GAS", "F WES", "A MAR"],
        "GERMANY": ["A MUN", "A RUH", "A BEL", "F KIE", "A BER", "F HOL", "A SIL"],
        "RUSSIA": ["F NWY", "A STP", "A MOS", "A WAR", "A UKR", "F SEV"],
        "AUSTRIA": ["A VIE", "A BUD", "A GAL", "F TRI", "A SER"],
        "ITALY": ["A VEN", "A PIE", "F ROM", "F NAP", "F TYS"],
        "TURKEY": ["A BUL", "F BLA", "A CON", "A SMY"],
    });
    let orders = json!({
        "ENGLAND": ["A YOR - NWY", "F NTH C A YOR - NWY", "F NWG S A YOR - NWY", "A LON - BRE",
                    "F ENG C A LON - BRE", "F MAO S A LON - BRE", "F IRI S F MAO", "A WAL S A LON"],
        "FRANCE": ["A BRE H", "A BUR H", "A PAR H", "A GAS S A BUR", "F WES S A MAR", "A MAR S A BUR"],
        "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR", "A BEL S A MUN - BUR", "F KIE S F HOL",
                    "A BER S A MUN", "F HOL S A BEL", "A SIL S A MUN - BUR"],
        "RUSSIA": ["F NWY H", "A STP S F NWY", "A MOS H", "A WAR - GAL", "A UKR S A WAR - GAL", "F SEV H"],
        "AUSTRIA": ["A VIE - TYR", "A BUD H", "A GAL H", "F TRI H", "A SER - BUL"],
        "ITALY": ["A VEN - TRI", "A PIE - MAR", "F ROM H", "F NAP H", "F TYS S F ROM"],
        "TURKEY": ["A BUL H", "F BLA S A BUL", "A CON S A BUL", "A SMY H"],
    });
    (json!({"phase": "S1905M", "units": units}), orders)
}

/// The opening: the scenario's start, every unit holding.
fn opening() -> (Value, Value) {
    let units = json!({
        "AUSTRIA": ["A BUD", "A VIE", "F TRI"], "ENGLAND": ["F EDI", "F LON", "A LVP"],
        "FRANCE": ["F BRE", "A MAR", "A PAR"], "GERMANY": ["F KIE", "A BER", "A MUN"],
        "ITALY": ["F NAP", "A ROM", "A VEN"], "RUSSIA": ["A WAR", "A MOS", "F SEV", "F STP/SC"],
        "TURKEY": ["F ANK", "A CON", "A SMY"],
    });
    let mut orders = Map::new();
    for (p, l) in units.as_object().unwrap() {
        let holds: Vec<Value> = l
            .as_array()
            .unwrap()
            .iter()
            .map(|u| format!("{} H", u.as_str().unwrap()).into())
            .collect();
        orders.insert(p.clone(), Value::Array(holds));
    }
    (
        json!({"phase": "S1901M", "units": units}),
        Value::Object(orders),
    )
}

/// Each power's `orders` command, with the power that gives it.
fn order_commands(orders: &Value) -> Vec<(String, Command)> {
    let mut out = Vec::new();
    for (power, list) in orders.as_object().unwrap() {
        let mut args = Map::new();
        args.insert("power".into(), power.clone().into());
        args.insert("orders".into(), list.clone());
        let cmd = Command::Custom {
            name: "orders".into(),
            args,
        };
        out.push((power.clone(), cmd));
    }
    out
}

/// Sets the position up and gives every power's orders: the game is one `end_phase` from done.
/// Returns the state before the orders were given.
fn ready(session: &mut Session, setup: &Value, orders: &Value) -> GameState {
    session
        .setup_table(setup.as_object().unwrap(), Vec::new())
        .unwrap();
    let before = session.game.state().clone();
    for (power, cmd) in order_commands(orders) {
        session.game.submit(Some(&power), &cmd).unwrap();
    }
    before
}

fn check_busy(session: &mut Session) {
    let (setup, orders) = busy();
    ready(session, &setup, &orders);
    let events = session.game.submit(None, &Command::EndPhase).unwrap();
    let report = hexwar::report::PhaseReport::from_events(&events)
        .unwrap()
        .pop()
        .unwrap();
    let supports = report
        .results
        .iter()
        .filter(|r| r.order.contains(" S "))
        .count();
    let convoys = report
        .results
        .iter()
        .filter(|r| r.order.contains(" C "))
        .count();
    assert_eq!(
        (
            report.results.len(),
            supports,
            convoys,
            report.dislodged.len()
        ),
        (41, 18, 2, 3),
        "the busy position is not what the benchmark claims"
    );
}

/// The three levels over one ready state.
struct Levels {
    rules: LuaRules,
    shared: Arc<Mutex<LuaRules>>,
    sequence: Sequence,
    turns: u32,
    state: GameState,
    /// The state before any order was given, and the orders (for `orders_submit`).
    before_orders: GameState,
    orders: Vec<(String, Command)>,
}

impl Levels {
    /// `n` adjudications inside the VM (plus the set-up: require, reading the vars, one warm
    /// call, small next to n adjudications and the same for every n).
    fn library_in_vm(&mut self, n: u64) -> Duration {
        self.library(n, "")
    }

    /// `library_in_vm` with the order-text memo emptied before every phase (`orders.lua` keeps
    /// parsed orders on the compiled map): every order is parsed and checked again, as new
    /// orders are in a game, and as the reference engine parses every order it is given.
    fn library_fresh_orders(&mut self, n: u64) -> Duration {
        self.library(n, "cm.order_cache = {}; cm.order_cache_n = 0; ")
    }

    /// `n` adjudications in the VM, each after `before` (Lua, with `cm` the compiled map).
    fn library(&mut self, n: u64, before: &str) -> Duration {
        let code = format!(
            "local g = require('diplomacy'); local board = hex.map.board_table(); \
             local cm = require('diplomacy.map').get(board); \
             local pos, orders = hex.state.get('position'), {{}}; \
             for _, p in ipairs(hex.map.powers()) do orders[p.name] = hex.state.get('orders.' .. p.name) end; \
             g.adjudicate(board, pos, orders); \
             for i = 1, {n} do {before}g.adjudicate(board, pos, orders) end"
        );
        let start = Instant::now();
        black_box(self.rules.eval(&self.state, &code).unwrap());
        start.elapsed()
    }

    /// `resolve` on the ready state, then `apply` of the events to `copy` (a copy of the ready
    /// state, made beforehand: copying a state is no part of a phase).
    fn resolve_apply(&mut self, mut copy: GameState) -> GameState {
        let events = self
            .rules
            .resolve(&self.state, None, &Command::EndPhase)
            .unwrap()
            .unwrap();
        for e in &events {
            apply(&mut copy, e).unwrap();
        }
        copy
    }

    /// One `submit` on a fresh game; only the submit is timed.
    fn submit(&self) -> Duration {
        let mut game = self.game(&self.state);
        let start = Instant::now();
        black_box(game.submit(None, &Command::EndPhase).unwrap());
        start.elapsed()
    }

    /// Orders given -> phase resolved, as the reference engine's `set_orders` + `process`: every
    /// power's `orders` command, then `end_phase`, on a fresh game; only the submits are timed.
    fn orders_submit(&self) -> Duration {
        let mut game = self.game(&self.before_orders);
        let start = Instant::now();
        for (power, cmd) in &self.orders {
            black_box(game.submit(Some(power), cmd).unwrap());
        }
        black_box(game.submit(None, &Command::EndPhase).unwrap());
        start.elapsed()
    }

    /// `orders_submit` after emptying the shared VM's order-text memo (untimed): every order
    /// is parsed and checked again, as a game's new orders are.
    fn orders_submit_fresh(&self) -> Duration {
        self.shared
            .lock()
            .unwrap()
            .eval(
                &self.before_orders,
                "local cm = require('diplomacy.map').get(hex.map.board_table()); \
                 cm.order_cache = {}; cm.order_cache_n = 0",
            )
            .unwrap();
        self.orders_submit()
    }

    fn game(&self, state: &GameState) -> Game {
        let rules = Shared {
            rules: Arc::clone(&self.shared),
            sequence: self.sequence.clone(),
        };
        Game::new(
            state.clone(),
            Box::new(rules),
            self.turns,
            EventLimits::default(),
        )
    }
}

/// `iters` library phases, run by `run(n)` in evals of at most 200 phases (one eval's
/// instruction budget holds about that many busy phases).
fn in_evals(iters: u64, mut run: impl FnMut(u64) -> Duration) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        let n = left.min(200);
        total += run(n);
        left -= n;
    }
    total
}

/// `DIPLOMACY_PHASES=POSITION:LEVEL:N`: runs one level N times (see the module doc).
fn count_mode(spec: &str, session: &mut Session, levels: &mut Levels) {
    let parts: Vec<&str> = spec.split(':').collect();
    let [position, level, n] = parts[..] else {
        panic!("DIPLOMACY_PHASES must be POSITION:LEVEL:N, got '{spec}'");
    };
    let n: u64 = n
        .parse()
        .expect("DIPLOMACY_PHASES: N must be a whole number");
    let (setup, orders) = match position {
        "opening" => opening(),
        "busy" => busy(),
        other => panic!("DIPLOMACY_PHASES: no position '{other}' (opening, busy)"),
    };
    levels.before_orders = ready(session, &setup, &orders);
    levels.state = session.game.state().clone();
    levels.orders = order_commands(&orders);
    let mut total = Duration::ZERO;
    match level {
        "library_in_vm" => total = in_evals(n, |k| levels.library_in_vm(k)),
        "library_fresh_orders" => total = in_evals(n, |k| levels.library_fresh_orders(k)),
        // (each phase applies its events to a copy of the state, made untimed; under valgrind
        // the copies count too: `state_copy` counts them alone, to subtract)
        "resolve_apply" => {
            for _ in 0..n {
                let copy = levels.state.clone();
                let start = Instant::now();
                black_box(levels.resolve_apply(copy));
                total += start.elapsed();
            }
        }
        "state_copy" => {
            let start = Instant::now();
            for _ in 0..n {
                black_box(levels.state.clone());
            }
            total = start.elapsed();
        }
        "submit" => (0..n).for_each(|_| total += levels.submit()),
        "orders_submit" => (0..n).for_each(|_| total += levels.orders_submit()),
        "orders_submit_fresh" => (0..n).for_each(|_| total += levels.orders_submit_fresh()),
        other => panic!("DIPLOMACY_PHASES: no level '{other}'"),
    }
    eprintln!(
        "{position} {level}: {n} phases, {:.1} µs a phase",
        total.as_secs_f64() * 1e6 / n.max(1) as f64
    );
    if hexwar::rules::profile::enabled() {
        eprint!("{}", hexwar::rules::profile::report());
    }
}

/// The levels over the scenario's rules, each VM loaded afresh.
fn levels_for(scenario: &Scenario, session: &Session) -> Levels {
    let shared = Arc::new(Mutex::new(LuaRules::load(scenario).unwrap()));
    let sequence = shared.lock().unwrap().sequence().clone();
    Levels {
        rules: LuaRules::load(scenario).unwrap(),
        shared,
        sequence,
        turns: scenario.turns,
        state: session.game.state().clone(),
        before_orders: session.game.state().clone(),
        orders: Vec::new(),
    }
}

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("scenarios/diplomacy");
    let scenario = load_scenario(&path).unwrap();
    let mut trusted_scenario = scenario.clone();
    trusted_scenario.limits.trusted = true;
    let mut session = Session::start(&path, None).unwrap();
    check_busy(&mut session);
    if let Ok(spec) = std::env::var("DIPLOMACY_PHASES") {
        let trusted = std::env::var_os("DIPLOMACY_TRUSTED").is_some();
        let mut levels = levels_for(
            if trusted {
                &trusted_scenario
            } else {
                &scenario
            },
            &session,
        );
        count_mode(&spec, &mut session, &mut levels);
        std::process::exit(0);
    }
    let mut levels = levels_for(&scenario, &session);
    let mut trusted = levels_for(&trusted_scenario, &session);

    for (name, (setup, orders)) in [("opening_22_holds", opening()), ("busy_41_units", busy())] {
        levels.before_orders = ready(&mut session, &setup, &orders);
        levels.state = session.game.state().clone();
        levels.orders = order_commands(&orders);
        let mut group = c.benchmark_group(format!("diplomacy/{name}"));

        group.bench_function("library_in_vm", |b| {
            b.iter_custom(|iters| in_evals(iters, |n| levels.library_in_vm(n)))
        });

        group.bench_function("library_fresh_orders", |b| {
            b.iter_custom(|iters| in_evals(iters, |n| levels.library_fresh_orders(n)))
        });

        let ready = levels.state.clone();
        group.bench_function("resolve_apply", |b| {
            b.iter_batched(
                || ready.clone(),
                |copy| black_box(levels.resolve_apply(copy)),
                BatchSize::SmallInput,
            )
        });

        group.bench_function("submit", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| levels.submit()).sum())
        });

        group.bench_function("orders_submit", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| levels.orders_submit()).sum())
        });

        group.bench_function("orders_submit_fresh", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| levels.orders_submit_fresh()).sum())
        });

        // The same phase with trusted rules (no instruction budget: docs/sandbox.md).
        trusted.before_orders = levels.before_orders.clone();
        trusted.state = levels.state.clone();
        trusted.orders = levels.orders.clone();
        group.bench_function("trusted_library_in_vm", |b| {
            b.iter_custom(|iters| in_evals(iters, |n| trusted.library_in_vm(n)))
        });
        group.bench_function("trusted_library_fresh_orders", |b| {
            b.iter_custom(|iters| in_evals(iters, |n| trusted.library_fresh_orders(n)))
        });
        group.bench_function("trusted_orders_submit", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| trusted.orders_submit()).sum())
        });
        group.bench_function("trusted_orders_submit_fresh", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| trusted.orders_submit_fresh()).sum())
        });
        group.finish();
        if hexwar::rules::profile::enabled() {
            eprint!("{}", hexwar::rules::profile::report());
            hexwar::rules::profile::reset();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
