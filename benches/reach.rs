//! Criterion benchmark of the reach search: `cargo bench --bench reach`.
//! The same generated 200×200 map as `examples/perf` (rivers, 40 enemy units with ZOC, 12 MP).

#[path = "../examples/perf/support.rs"]
mod support;

/// The allocator of the `hexwar` binary, so this measures what the binary does:
/// mimalloc, which serves the engine's many small strings and maps faster than the system one.
#[cfg(feature = "fast-alloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{criterion_group, criterion_main, Criterion};
use hexwar::path::{Mp, Occupancy, PathRules, ReachSearch};
use std::hint::black_box;

fn reach(c: &mut Criterion) {
    let map = support::generate(200, 200, 7, true);
    let rules = PathRules::compile(&support::declaration(), &map).unwrap();
    let units = support::units(&map, 7);
    let occ = Occupancy::build(&map, &rules, &units).unwrap();
    let start = map.parse_label(units[0].at.as_deref().unwrap()).unwrap();
    let mut search = ReachSearch::new(&map);
    let mut baseline = support::Baseline::new(&map, &units);

    let mut group = c.benchmark_group("reach_200x200_12mp");
    group.bench_function("a_engine", |b| {
        b.iter(|| {
            black_box(
                search
                    .reach(&map, &rules, &occ, &units[0], Mp::whole(12))
                    .unwrap(),
            )
        })
    });
    group.bench_function("b_baseline", |b| {
        b.iter(|| black_box(baseline.reach(&map, start, 12)))
    });
    group.bench_function("occupancy_build", |b| {
        b.iter(|| black_box(Occupancy::build(&map, &rules, &units).unwrap()))
    });
    group.finish();

    // hexx against the engine on the same plain map (no rivers, no ZOC): same terrain costs,
    // same budget, and a cost closure reading a dense array (see `support::hexx_cost`).
    let plain = support::generate(200, 200, 7, false);
    let plain_rules = PathRules::compile(&support::declaration(), &plain).unwrap();
    let lone = [units[0].clone()];
    let plain_occ = Occupancy::build(&plain, &plain_rules, &lone).unwrap();
    let mut plain_search = ReachSearch::new(&plain);
    let center = plain.hex(start);
    let plain_cost = support::foot_cost_per_hex(&plain);
    let extra = support::hexx_cost(&plain, &plain_cost);
    let mut group = c.benchmark_group("reach_200x200_12mp_plain");
    group.sample_size(20);
    group.bench_function("a_engine", |b| {
        b.iter(|| {
            black_box(
                plain_search
                    .reach(&plain, &plain_rules, &plain_occ, &lone[0], Mp::whole(12))
                    .unwrap(),
            )
        })
    });
    group.bench_function("c_hexx_field_of_movement", |b| {
        b.iter(|| black_box(hexx::algorithms::field_of_movement(center, 12, &extra)))
    });
    group.finish();
}

criterion_group!(benches, reach);
criterion_main!(benches);
