//! The engine's reach in the facing games against an independent oracle written from RULES.md
//! (TAC-1..8, ANC-5.1..7.3, readings TA-R1..R20; `tests/oracle_facing_support`), on seeded random
//! positions of `scenarios/tactical` and `scenarios/ancients` placed through `--setup`.
//!
//! Every unit of a position is asked through the rules' `reach` query (what `hexwar reach
//! --json` prints), and for ANC every stack and one sub-group of it too; the answers must be
//! the same `{(hex, facing): least cost}` maps. TA-R15 (a phalanx's turn in place, at its whole
//! MP, when a morale test passes) is an end state the `reach` query lists (TA-R20: every end
//! state; the test is the `wheel` command's dice), compared with the oracle's option on; the
//! search without it (`contact_turn` off, the Rust API) is compared with the option off.
//!
//! A failure prints the position as a `--setup` TOML and the differences.
//! `cargo test --release --test oracle_facing -- --ignored` runs the heavy version.

mod oracle_facing_support;

use std::path::PathBuf;
use std::time::Instant;

use hexwar::board::{HexMap, SourceText};
use hexwar::path::{reach_facing, FacingBoard, FacingOptions, FacingRules};
use hexwar::Session;
use oracle_facing_support::gen::{self, GenPosition, Rng};
use oracle_facing_support::{anc, pieces, tac, Answer, Field};
use serde_json::{json, Value};

const TACTICAL: &str = "scenarios/tactical";
const ANCIENTS: &str = "scenarios/ancients";

fn session(scenario: &str) -> Session {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    Session::start(&root.join(scenario), Some(1)).unwrap()
}

fn hex_map(session: &Session) -> HexMap {
    session.scenario.map.as_hex().unwrap().as_ref().clone()
}

/// The rules' `reach` answer (as `hexwar reach --json` prints it) as an [`Answer`].
fn engine_reach(session: &mut Session, who: Value) -> Answer {
    let answer = session.game.query("reach", &who).unwrap();
    let mut out = Answer::new();
    if let Some(Value::Object(hexes)) = answer {
        for (label, per) in hexes {
            for (facing, cost) in per.as_object().unwrap() {
                out.insert(
                    (label.clone(), facing.clone()),
                    cost.as_u64().unwrap() as u32,
                );
            }
        }
    }
    out
}

/// The differences between two answers, one line each.
fn differences(engine: &Answer, oracle: &Answer) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in engine {
        match oracle.get(k) {
            None => out.push(format!("  {} {}: engine {v}, oracle unreachable", k.0, k.1)),
            Some(o) if o != v => out.push(format!("  {} {}: engine {v}, oracle {o}", k.0, k.1)),
            _ => {}
        }
    }
    for (k, v) in oracle {
        if !engine.contains_key(k) {
            out.push(format!("  {} {}: engine unreachable, oracle {v}", k.0, k.1));
        }
    }
    out
}

/// Counts of one comparison run.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    queries: usize,
    states: usize,
    /// Queries whose answer the other reading of a point would change (TAC: TA-R9's enemy-hex
    /// sentence read as exempting every enemy hex; ANC: a sub-group staying beside its stack
    /// re-facing apart from it, against ANC-5.4). Reported, not asserted.
    other_reading: Option<usize>,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, what: &str, setup: &str, engine: &Answer, oracle: &Answer) {
        self.queries += 1;
        self.states += oracle.len();
        let diff = differences(engine, oracle);
        if !diff.is_empty() && self.failures.len() < 5 {
            self.failures.push(format!(
                "{what}: {} differences\n{}\n--- setup.toml ---\n{setup}",
                diff.len(),
                diff.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
            ));
        } else if !diff.is_empty() {
            self.failures.push(what.to_string());
        }
    }

    fn assert_clean(&self, name: &str, started: Instant) {
        eprintln!(
            "{name}: {} positions, {} reach queries, {} states compared in {:.1?}{}",
            self.positions,
            self.queries,
            self.states,
            started.elapsed(),
            self.other_reading
                .map(|n| format!(
                    " ({n} answers would change under the other reading, docs/testing.md)"
                ))
                .unwrap_or_default()
        );
        eprintln!(
            "rules exercised (all tests of this run so far):\n{}",
            oracle_facing_support::hits_report()
        );
        assert!(
            self.failures.is_empty(),
            "{name}: {} of {} queries differ\n{}",
            self.failures.len(),
            self.queries,
            self.failures
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n\n")
        );
    }
}

/// Loads a generated position into a fresh session through the `--setup` mechanism.
fn placed(scenario: &str, setup: &str) -> Session {
    let mut s = session(scenario);
    s.setup_text(&SourceText::new("setup.toml", setup.to_string()))
        .unwrap_or_else(|e| panic!("setup refused: {e}\n{setup}"));
    s
}

fn run_tactical(seeds: std::ops::Range<u64>) -> Tally {
    let field = Field::from_map(&hex_map(&session(TACTICAL)));
    let mut tally = Tally::default();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let pos = gen::tactical(&field, &mut rng);
        let setup = pos.toml(&field);
        let mut s = placed(TACTICAL, &setup);
        let ps = pieces(&field, &s);
        tally.positions += 1;
        for u in &pos.units {
            let engine = engine_reach(&mut s, json!(u.id));
            let oracle = tac::reach(&field, &ps, &u.id);
            tally.check(
                &format!("tactical seed {seed} unit {}", u.id),
                &setup,
                &engine,
                &oracle,
            );
            let exempt = tac::reach_with(&field, &ps, &u.id, tac::EnemyHexReading::NeverAFront);
            *tally.other_reading.get_or_insert(0) += usize::from(exempt != oracle);
        }
    }
    tally
}

/// The facing declaration of `rules/ancients/init.lua`, for the Rust-API search without the
/// TA-R15 turn (the `reach` query lists it); `run_ancients` checks it answers as the Lua one does.
fn ancients_declaration() -> Value {
    json!({
        "model": "ancients", "sides": ["macedon", "seleucid"], "not_in_order": ["disordered"],
        "max_escorts": 2,
        "kinds": {
            "phalanx": { "facing": "vertex", "turn_cost": 1, "join": 1 },
            "light": { "front": "all", "join": 1, "escort": true },
            "cavalry": { "front": "all", "join": 2 },
            "elephant": { "front": "all", "join": 2, "escorted": true },
            "leader": { "leader": true }
        }
    })
}

fn rust_reach(
    map: &HexMap,
    rules: &FacingRules,
    s: &Session,
    ids: &[&str],
    opts: FacingOptions,
) -> Answer {
    let units: Vec<_> = s.game.state().units.values().cloned().collect();
    let board = FacingBoard::build(map, rules, &units).unwrap();
    let group: Vec<usize> = ids.iter().map(|i| board.unit_index(i).unwrap()).collect();
    let budget = board.group_budget(&group);
    reach_facing(map, rules, &board, &group, budget, opts)
        .unwrap()
        .states()
        .iter()
        .map(|r| ((map.label(r.hex), r.facing.key()), r.cost))
        .collect()
}

fn run_ancients(seeds: std::ops::Range<u64>) -> Tally {
    let map = hex_map(&session(ANCIENTS));
    let field = Field::from_map(&map);
    let rules = FacingRules::compile(&ancients_declaration(), &map).unwrap();
    let mut tally = Tally::default();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let pos: GenPosition = gen::ancients(&field, &mut rng);
        let setup = pos.toml(&field);
        let mut s = placed(ANCIENTS, &setup);
        let ps = pieces(&field, &s);
        tally.positions += 1;
        let mut asks: Vec<Vec<String>> = pos.units.iter().map(|u| vec![u.id.clone()]).collect();
        asks.extend(pos.groups(&mut rng));
        for ids in asks {
            let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
            let who = if ids.len() == 1 {
                json!(ids[0])
            } else {
                json!(ids)
            };
            let what = format!("ancients seed {seed} group {}", ids.join("+"));
            let engine = engine_reach(&mut s, who);
            let oracle = anc::reach(&field, &ps, &refs, true);
            tally.check(&what, &setup, &engine, &oracle);
            let apart = anc::reach_with(&field, &ps, &refs, true, anc::StayReading::RefacesApart);
            *tally.other_reading.get_or_insert(0) += usize::from(apart != oracle);
            // The declaration copy answers as the Lua one (so the check without TA-R15 is fair).
            let turned = rust_reach(
                &map,
                &rules,
                &s,
                &refs,
                FacingOptions { contact_turn: true },
            );
            assert_eq!(
                turned, engine,
                "{what}: ancients_declaration() differs from rules/ancients"
            );
            let plain = rust_reach(&map, &rules, &s, &refs, FacingOptions::default());
            if turned != plain
                || ids
                    .iter()
                    .any(|i| ps.iter().any(|p| p.id == *i && p.kind == "phalanx"))
            {
                let oracle = anc::reach(&field, &ps, &refs, false);
                tally.check(
                    &format!("{what} (without the TA-R15 turn)"),
                    &setup,
                    &plain,
                    &oracle,
                );
            }
        }
    }
    tally
}

/// `hexwar reach SCENARIO --setup FILE UNIT --json` for every unit of a few positions: the CLI
/// the outside checks call prints the same answer as the oracle (`{"unit", "hexes": {hex:
/// {facing: cost}}}`).
fn cli_agrees(scenario: &str, seeds: std::ops::Range<u64>) -> usize {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let map = hex_map(&session(scenario));
    let field = Field::from_map(&map);
    let dir = tempfile::tempdir().unwrap();
    let mut asked = 0;
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let pos = if scenario == TACTICAL {
            gen::tactical(&field, &mut rng)
        } else {
            gen::ancients(&field, &mut rng)
        };
        let setup = pos.toml(&field);
        let file = dir.path().join("setup.toml");
        std::fs::write(&file, &setup).unwrap();
        let s = placed(scenario, &setup);
        let ps = pieces(&field, &s);
        for u in &pos.units {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
                .arg("reach")
                .arg(root.join(scenario))
                .arg("--setup")
                .arg(&file)
                .arg(&u.id)
                .arg("--json")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(v["unit"], json!(u.id));
            let mut cli = Answer::new();
            for (label, per) in v["hexes"].as_object().unwrap() {
                for (facing, cost) in per.as_object().unwrap() {
                    cli.insert(
                        (label.clone(), facing.clone()),
                        cost.as_u64().unwrap() as u32,
                    );
                }
            }
            let oracle = if scenario == TACTICAL {
                tac::reach(&field, &ps, &u.id)
            } else {
                anc::reach(&field, &ps, &[u.id.as_str()], true)
            };
            let diff = differences(&cli, &oracle);
            assert!(
                diff.is_empty(),
                "{scenario} seed {seed} unit {}: hexwar reach differs\n{}\n--- setup.toml ---\n{setup}",
                u.id,
                diff.join("\n")
            );
            asked += 1;
        }
    }
    asked
}

#[test]
fn the_cli_reach_prints_the_oracle_answer() {
    let tactical = cli_agrees(TACTICAL, 0..4);
    let ancients = cli_agrees(ANCIENTS, 0..4);
    assert!(tactical > 10 && ancients > 10, "{tactical} {ancients}");
}

/// The oracle's geometry (TA-R1) on the documented example: 0303 touches 0203, 0204, 0403,
/// 0404 (docs/formats.md), and from 0404 the directions 0..5 lead to 0504 0405 0304 0303 0403
/// 0503 (clockwise from the lower right).
#[test]
fn the_oracle_places_hexes_as_ta_r1_and_the_map_format_say() {
    let field = Field::from_map(&hex_map(&session(ANCIENTS)));
    let around = |l: &str| -> Vec<String> {
        (0..6)
            .filter_map(|d| field.neighbor(field.find(l), d))
            .map(|h| field.label(h).to_string())
            .collect()
    };
    assert_eq!(
        around("0404"),
        ["0504", "0405", "0304", "0303", "0403", "0503"]
    );
    let mut n = around("0303");
    n.sort();
    assert_eq!(n, ["0203", "0204", "0302", "0304", "0403", "0404"]);
}

#[test]
fn tactical_reach_matches_the_oracle() {
    let t = Instant::now();
    run_tactical(0..150).assert_clean("tactical", t);
}

#[test]
fn ancients_reach_matches_the_oracle() {
    let t = Instant::now();
    run_ancients(0..150).assert_clean("ancients", t);
}

/// The heavy runs' seeds: 5 000 positions from seed 1000, or `ORACLE_FACING_POSITIONS` of them
/// from `ORACLE_FACING_SEED`.
fn heavy_seeds() -> std::ops::Range<u64> {
    let var = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let first = var("ORACLE_FACING_SEED", 1000);
    first..first + var("ORACLE_FACING_POSITIONS", 5000)
}

#[test]
#[ignore = "heavy: cargo test --release --test oracle_facing -- --ignored"]
fn tactical_reach_matches_the_oracle_heavy() {
    let t = Instant::now();
    run_tactical(heavy_seeds()).assert_clean("tactical (heavy)", t);
}

#[test]
#[ignore = "heavy: cargo test --release --test oracle_facing -- --ignored"]
fn ancients_reach_matches_the_oracle_heavy() {
    let t = Instant::now();
    run_ancients(heavy_seeds()).assert_clean("ancients (heavy)", t);
}
