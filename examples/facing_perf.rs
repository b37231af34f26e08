//! Facing-aware search vs the plain reach on the 200×200 benchmark map (`examples/perf`):
//! the same mover (12 MP, middle of the map) and 40 enemy units within 14 hexes.
//! `cargo run --release --example facing_perf` prints one JSON line (µs per query, medians of
//! 21 batches, wall clock), for a reused `FacingSearch` and the one-off `reach_facing`. The
//! facing search has no terrain costs (every step costs 1, TA-R4 / TA-R12), so its cost is that
//! of the state space, not of the terrain.

#[path = "perf/support.rs"]
mod support;

use std::time::Instant;

use hexwar::path::{
    reach_facing, FacingBoard, FacingOptions, FacingRules, FacingSearch, Mp, Occupancy, PathRules,
    ReachSearch,
};
use serde_json::json;

fn time_us(batches: usize, per: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut v: Vec<f64> = (0..batches)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per {
                f();
            }
            t.elapsed().as_secs_f64() * 1e6 / per as f64
        })
        .collect();
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let budget = 12;
    let map = support::generate(200, 200, 7, true);
    let rules = PathRules::compile(&support::declaration(), &map).unwrap();
    let mut units = support::units(&map, 7);
    let occ = Occupancy::build(&map, &rules, &units).unwrap();
    let mut search = ReachSearch::new(&map);
    let plain_n = search
        .reach(&map, &rules, &occ, &units[0], Mp::whole(budget))
        .unwrap()
        .len();
    let plain = time_us(21, 50, || {
        std::hint::black_box(
            search
                .reach(&map, &rules, &occ, &units[0], Mp::whole(budget))
                .unwrap(),
        );
    });

    let anc = FacingRules::compile(
        &json!({ "model": "ancients", "sides": ["german", "allied"],
                 "kinds": { "phalanx": { "facing": "vertex", "turn_cost": 1 }, "infantry": { "front": "all" },
                            "armored": { "front": "all" } } }),
        &map,
    )
    .unwrap();
    for (i, u) in units.iter_mut().enumerate() {
        u.facing = Some((i % 6) as u8);
    }
    let mut results = serde_json::Map::new();
    results.insert(
        "plain_reach_us".into(),
        json!((plain * 10.0).round() / 10.0),
    );
    results.insert("plain_hexes".into(), json!(plain_n));
    // TAC: up to the MA in hexes, capped at the TAC-2 distance (1) near enemies; TAC-7 fronts.
    let tac = FacingRules::compile(
        &json!({ "model": "tactical", "sides": ["german", "allied"],
                 "kinds": { "infantry": { "tactical": 1 }, "armored": { "tactical": 2 } } }),
        &map,
    )
    .unwrap();
    for (name, kind, rules) in [
        ("anc_phalanx", "phalanx", &anc),
        ("anc_infantry", "infantry", &anc),
        ("tac_infantry", "infantry", &tac),
    ] {
        units[0].kind = kind.into();
        let board = FacingBoard::build(&map, rules, &units).unwrap();
        let n = reach_facing(&map, rules, &board, &[0], budget, FacingOptions::default())
            .unwrap()
            .len();
        let mut scratch = FacingSearch::new();
        let t = time_us(21, 20, || {
            std::hint::black_box(
                scratch
                    .reach(&map, rules, &board, &[0], budget, FacingOptions::default())
                    .unwrap(),
            );
        });
        let one_off = time_us(21, 20, || {
            std::hint::black_box(
                reach_facing(&map, rules, &board, &[0], budget, FacingOptions::default()).unwrap(),
            );
        });
        results.insert(
            format!("{name}_one_off_us"),
            json!((one_off * 10.0).round() / 10.0),
        );
        results.insert(format!("{name}_us"), json!((t * 10.0).round() / 10.0));
        results.insert(format!("{name}_states"), json!(n));
        results.insert(
            format!("{name}_over_plain"),
            json!((t / plain * 10.0).round() / 10.0),
        );
    }
    let board_t = time_us(11, 5, || {
        std::hint::black_box(FacingBoard::build(&map, &anc, &units).unwrap());
    });
    results.insert("facing_board_build_us".into(), json!(board_t.round()));
    println!("{}", serde_json::Value::Object(results));
}
