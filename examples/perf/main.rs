//! Performance figures for the path engine, printed as one JSON line:
//! `cargo run --release --example perf`.
//!
//! (a) the engine's reach (rules compiled from a declaration) on a generated 200×200 map with
//! rivers and 40 enemy units with ZOC, 12 MP, unit in the middle; (b) a hand-written Dijkstra of
//! the same rules; (c) `hexx::algorithms::field_of_movement` on the same terrain without rivers
//! or ZOC. Then a 1000×1000 map: build, one reach, one supply query, peak RSS.

mod support;

use std::time::Instant;

use hexwar::board::HexMap;
use hexwar::path::{trace_supply, Mp, Occupancy, PathRules, ReachSearch, SourceSet};
use serde_json::json;
use support::{declaration, generate, units, Baseline};

/// Median time per call in microseconds, over `batches` batches of `per_batch` calls.
fn time_us(batches: usize, per_batch: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..per_batch {
        f();
    }
    let mut samples: Vec<f64> = (0..batches)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per_batch {
                f();
            }
            t.elapsed().as_secs_f64() * 1e6 / per_batch as f64
        })
        .collect();
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[samples.len() / 2]
}

/// Median times per call (µs) of two functions, measured in alternating batches.
fn time_pair_us(
    batches: usize,
    per_batch: usize,
    mut a: impl FnMut(),
    mut b: impl FnMut(),
) -> (f64, f64) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..batches {
        for (f, out) in [
            (&mut a as &mut dyn FnMut(), &mut ta),
            (&mut b as &mut dyn FnMut(), &mut tb),
        ] {
            let t = Instant::now();
            for _ in 0..per_batch {
                f();
            }
            out.push(t.elapsed().as_secs_f64() * 1e6 / per_batch as f64);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|x, y| x.total_cmp(y));
        v[v.len() / 2]
    };
    (median(&mut ta), median(&mut tb))
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
    let engine_pairs: Vec<(u32, u32)> = engine
        .hexes()
        .iter()
        .map(|r| (r.hex, r.cost.raw() / Mp::SCALE))
        .collect();
    assert_eq!(engine_pairs, base, "engine and baseline disagree");

    let t_engine = time_us(31, 400, || {
        std::hint::black_box(
            search
                .reach(&map, &rules, &occ, mover, Mp::whole(budget))
                .unwrap(),
        );
    });
    let t_base = time_us(31, 400, || {
        std::hint::black_box(baseline.reach(&map, start, budget));
    });
    let t_occ = time_us(11, 50, || {
        std::hint::black_box(Occupancy::build(&map, &rules, &units).unwrap());
    });
    let t_compile = time_us(11, 20, || {
        std::hint::black_box(PathRules::compile(&declaration(), &map).unwrap());
    });

    // (c) hexx on the same terrain, no rivers, no ZOC; hexx adds 1 per step, so cost - 1.
    let plain = generate(200, 200, 7, false);
    let center = plain.hex(start);
    let extra = |h: hexx::Hex| -> Option<u32> {
        let i = plain.index(h)?;
        match plain.terrain_name(i) {
            "clear" | "hills" => Some(0),
            "forest" | "marsh" => Some(1),
            "mountains" => Some(2),
            _ => None,
        }
    };
    let hexx_count = hexx::algorithms::field_of_movement(center, budget, extra).len();
    // The engine on that plain map, for a like-for-like count.
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
    let (t_engine_plain, t_hexx) = time_pair_us(
        15,
        5,
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
            std::hint::black_box(hexx::algorithms::field_of_movement(center, budget, extra));
        },
    );
    drop((plain, plain_rules, plain_occ, plain_search));

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
        "map_200": {
            "reached_hexes": engine.len(),
            "a_engine_reach_us": round(t_engine, 2),
            "b_baseline_reach_us": round(t_base, 2),
            "a_over_b": round(t_engine / t_base, 3),
            "c_hexx_field_of_movement_us": round(t_hexx, 1),
            "c_hexx_reached_hexes": hexx_count,
            "engine_plain_map_reach_us": round(t_engine_plain, 2),
            "engine_plain_map_reached_hexes": plain_reach.len(),
            "c_over_a_plain": round(t_hexx / t_engine_plain, 1),
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
