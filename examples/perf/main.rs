//! Performance figures for the path engine, printed as one JSON line:
//! `cargo run --release --example perf`.
//!
//! (a) the engine's reach (rules compiled from a declaration) on a generated 200×200 map with
//! rivers and 40 enemy units with ZOC, 12 MP, unit in the middle; (b) a hand-written Dijkstra of
//! the same rules; (c) `hexx::algorithms::field_of_movement` on the same terrain without rivers
//! or ZOC, against the engine on that same plain map. Then a 1000×1000 map: build, one reach,
//! one supply query, peak RSS.
//!
//! Fairness: (a) and (b), and (c) and the engine, are timed in alternating batches so that
//! load from other processes hits both alike; the ratios are medians of per-batch ratios. The
//! engine and the baseline must return the same hexes and costs, and hexx and the engine the
//! same hex set (checked below, outside the timing). hexx gets the same map, terrain costs and
//! budget, through a closure reading a dense per-hex cost array (`support::hexx_cost`).

mod support;

use std::time::Instant;

use hexwar::board::HexMap;
use hexwar::path::{trace_supply, Mp, Occupancy, PathRules, ReachSearch, SourceSet};
use serde_json::json;
use support::{declaration, generate, units, Baseline};

/// A clock for timing batches. On 64-bit Linux, the thread's CPU time
/// (`CLOCK_THREAD_CPUTIME_ID`): on a shared machine where other processes compile, wall time
/// also counts the slices during which the scheduler ran someone else, which is noise of the
/// same size as the figures. Elsewhere, wall time.
mod clock {
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    pub fn now_ns() -> u64 {
        #[repr(C)]
        struct Timespec {
            sec: i64,
            nsec: i64,
        }
        extern "C" {
            fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut ts = Timespec { sec: 0, nsec: 0 };
        // SAFETY: clock_gettime writes one timespec, laid out as above on 64-bit Linux, through
        // a pointer to a live local.
        let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
        ts.sec as u64 * 1_000_000_000 + ts.nsec as u64
    }

    #[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
    pub fn now_ns() -> u64 {
        use std::sync::OnceLock;
        use std::time::Instant;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }

    pub const NAME: &str = if cfg!(all(target_os = "linux", target_pointer_width = "64")) {
        "thread_cpu_time"
    } else {
        "wall_time"
    };
}

/// Time per call in µs of `per_batch` calls of `f`.
fn batch_us(per_batch: usize, f: &mut dyn FnMut()) -> f64 {
    let t = clock::now_ns();
    for _ in 0..per_batch {
        f();
    }
    (clock::now_ns() - t) as f64 / 1e3 / per_batch as f64
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|x, y| x.total_cmp(y));
    v[v.len() / 2]
}

/// Median time per call in microseconds, over `batches` batches of `per_batch` calls.
fn time_us(batches: usize, per_batch: usize, mut f: impl FnMut()) -> f64 {
    batch_us(per_batch, &mut f); // warm-up
    let mut samples: Vec<f64> = (0..batches).map(|_| batch_us(per_batch, &mut f)).collect();
    median(&mut samples)
}

/// Median times per call (µs) of two functions measured in alternating batches (`per_batch`
/// calls of each, chosen so that both batches take about as long), and the median of the
/// per-batch ratios a / b, which is robust to load that changes between batches.
fn time_pair_us(
    batches: usize,
    per_batch: (usize, usize),
    mut a: impl FnMut(),
    mut b: impl FnMut(),
) -> (f64, f64, f64) {
    // Warm-up: caches, branch predictors, lazily grown scratch.
    batch_us(per_batch.0, &mut a);
    batch_us(per_batch.1, &mut b);
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..batches {
        ta.push(batch_us(per_batch.0, &mut a));
        tb.push(batch_us(per_batch.1, &mut b));
    }
    let mut ratios: Vec<f64> = ta.iter().zip(&tb).map(|(x, y)| x / y).collect();
    (median(&mut ta), median(&mut tb), median(&mut ratios))
}

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn round(x: f64, places: i32) -> f64 {
    let p = 10f64.powi(places);
    (x * p).round() / p
}

fn main() {
    let budget = 12;
    // --- 200×200 ---
    let map = generate(200, 200, 7, true);
    let rules = PathRules::compile(&declaration(), &map).expect("declaration compiles");
    let units = units(&map, 7);
    let occ = Occupancy::build(&map, &rules, &units).expect("units place");
    let mover = &units[0];
    let start = map.parse_label(mover.at.as_deref().unwrap()).unwrap();
    let mut search = ReachSearch::new(&map);
    let engine = search
        .reach(&map, &rules, &occ, mover, Mp::whole(budget))
        .unwrap();
    let mut baseline = Baseline::new(&map, &units);
    let base = baseline.reach(&map, start, budget);
    let mut engine_pairs: Vec<(u32, u32)> = engine
        .hexes()
        .iter()
        .map(|r| (r.hex, r.cost.raw() / Mp::SCALE))
        .collect();
    engine_pairs.sort_unstable();
    let mut base_sorted = base.clone();
    base_sorted.sort_unstable();
    assert_eq!(engine_pairs, base_sorted, "engine and baseline disagree");

    let (t_engine, t_base, a_over_b) = time_pair_us(
        41,
        (200, 200),
        || {
            std::hint::black_box(
                search
                    .reach(&map, &rules, &occ, mover, Mp::whole(budget))
                    .unwrap(),
            );
        },
        || {
            std::hint::black_box(baseline.reach(&map, start, budget));
        },
    );
    let t_occ = time_us(11, 50, || {
        std::hint::black_box(Occupancy::build(&map, &rules, &units).unwrap());
    });
    let t_compile = time_us(11, 20, || {
        std::hint::black_box(PathRules::compile(&declaration(), &map).unwrap());
    });

    // (c) hexx on the same terrain, no rivers, no ZOC, same budget (see `support::hexx_cost`).
    let plain = generate(200, 200, 7, false);
    let center = plain.hex(start);
    let plain_cost = support::foot_cost_per_hex(&plain);
    let extra = support::hexx_cost(&plain, &plain_cost);
    let hexx_field = hexx::algorithms::field_of_movement(center, budget, &extra);
    let hexx_count = hexx_field.len();
    // The engine on that plain map (the mover alone, so no ZOC), for a like-for-like count.
    let plain_rules = PathRules::compile(&declaration(), &plain).unwrap();
    let lone = [units[0].clone()];
    let plain_occ = Occupancy::build(&plain, &plain_rules, &lone).unwrap();
    let mut plain_search = ReachSearch::new(&plain);
    let plain_reach = plain_search
        .reach(
            &plain,
            &plain_rules,
            &plain_occ,
            &lone[0],
            Mp::whole(budget),
        )
        .unwrap();
    // hexx lists the start; the engine does not.
    let mut engine_field: Vec<hexx::Hex> = plain_reach
        .hexes()
        .iter()
        .map(|r| plain.hex(r.hex))
        .collect();
    engine_field.push(center);
    let mut hexx_sorted: Vec<hexx::Hex> = hexx_field.into_iter().collect();
    let key = |h: &hexx::Hex| (h.x, h.y);
    engine_field.sort_unstable_by_key(key);
    hexx_sorted.sort_unstable_by_key(key);
    assert_eq!(engine_field, hexx_sorted, "engine and hexx disagree");
    let (t_engine_plain, t_hexx, engine_over_hexx) = time_pair_us(
        41,
        (100, 8),
        || {
            std::hint::black_box(
                plain_search
                    .reach(
                        &plain,
                        &plain_rules,
                        &plain_occ,
                        &lone[0],
                        Mp::whole(budget),
                    )
                    .unwrap(),
            );
        },
        || {
            std::hint::black_box(hexx::algorithms::field_of_movement(center, budget, &extra));
        },
    );
    // Free the 200×200 maps before measuring the 1000×1000 one's peak memory.
    drop(extra);
    drop((plain_rules, plain_occ, plain_search, plain_cost, plain));

    // --- 1000×1000 ---
    let t = Instant::now();
    let big: HexMap = generate(1000, 1000, 11, true);
    let big_build_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let big_rules = PathRules::compile(&declaration(), &big).unwrap();
    let big_compile_ms = t.elapsed().as_secs_f64() * 1e3;
    let big_units = support::units(&big, 11);
    let t = Instant::now();
    let big_occ = Occupancy::build(&big, &big_rules, &big_units).unwrap();
    let big_occ_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let mut big_search = ReachSearch::new(&big);
    let big_reach = big_search
        .reach(&big, &big_rules, &big_occ, &big_units[0], Mp::whole(budget))
        .unwrap();
    let big_first_reach_us = t.elapsed().as_secs_f64() * 1e6;
    let big_reach_us = time_us(11, 100, || {
        std::hint::black_box(
            big_search
                .reach(&big, &big_rules, &big_occ, &big_units[0], Mp::whole(budget))
                .unwrap(),
        );
    });
    // Supply: the Allies own the west half; sources on the west edge.
    let allied = big_rules.profile.side_id("allied").unwrap();
    let german = big_rules.profile.side_id("german").unwrap();
    let owners: Vec<u8> = (0..big.len())
        .map(|h| {
            if big.col_row(h).0 <= big.columns() / 2 + 20 {
                allied
            } else {
                german
            }
        })
        .collect();
    let sources = [SourceSet {
        side: allied,
        nations: vec![],
        hexes: big.zone_hexes("west_edge").unwrap(),
    }];
    let t = Instant::now();
    let supply = trace_supply(&big, &big_rules, &big_occ, &owners, &sources, &big_units).unwrap();
    let big_supply_ms = t.elapsed().as_secs_f64() * 1e3;

    let figures = json!({
        "clock": clock::NAME,
        "map_200": {
            "reached_hexes": engine.len(),
            "a_engine_reach_us": round(t_engine, 2),
            "b_baseline_reach_us": round(t_base, 2),
            "a_over_b": round(a_over_b, 3),
            "c_hexx_field_of_movement_us": round(t_hexx, 1),
            "c_hexx_reached_hexes": hexx_count,
            "engine_plain_map_reach_us": round(t_engine_plain, 2),
            "engine_plain_map_reached_hexes": plain_reach.len(),
            "c_over_a_plain": round(1.0 / engine_over_hexx, 1),
            "occupancy_build_us": round(t_occ, 1),
            "rules_compile_us": round(t_compile, 1),
        },
        "map_1000": {
            "map_build_ms": round(big_build_ms, 1),
            "rules_compile_ms": round(big_compile_ms, 2),
            "occupancy_build_ms": round(big_occ_ms, 2),
            "first_reach_us_incl_scratch_alloc": round(big_first_reach_us, 1),
            "reach_us": round(big_reach_us, 2),
            "reached_hexes": big_reach.len(),
            "supply_ms": round(big_supply_ms, 2),
            "supply_searches": supply.searches,
            "mover_supplied": supply.supplied[0],
            "peak_rss_mb": peak_rss_mb().map(|m| round(m, 1)),
        }
    });
    println!("{figures}");
}
