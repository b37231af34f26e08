//! Measures what host work costs against Lua VM instructions, to set the rates at which the
//! sandbox charges host work to the instruction budget (docs/sandbox.md, "Host work").
//!
//! `cargo run --release --example charge_rates -- [SCENARIO] [SIDE]` (default France 1940):
//! times 10^8 VM instructions of a mixed loop (run until a budget of exactly that many stops
//! it), then each loop of `measure.lua`, and prints ns per VM instruction and per call.

use std::path::{Path, PathBuf};
use std::time::Instant;

use hexwar::engine::{Command, GameError};
use hexwar::scenario::load_scenario;
use hexwar::Session;
use serde_json::{Map, Value};

fn measure(loop_name: &str, n: u64) -> Command {
    let mut args = Map::new();
    args.insert("loop".into(), Value::String(loop_name.into()));
    args.insert("n".into(), Value::from(n));
    Command::Custom {
        name: "measure".into(),
        args,
    }
}

fn session(scenario: &Path, instructions: u64) -> Result<Session, String> {
    let mut s = load_scenario(scenario).map_err(|e| format!("{e:?}"))?;
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/charge_rates");
    s.rule_roots.push(here);
    s.rules.push("measure".into());
    s.limits.instructions = instructions;
    s.limits.memory_bytes = 1 << 30;
    Session::start_scenario(s, Some(1)).map_err(|e| e.to_string())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scenario = PathBuf::from(args.first().map_or("scenarios/france1940", String::as_str));
    let side = args.get(1).map_or("german", String::as_str).to_string();
    // ns per VM instruction: the mixed loop stopped by a budget of 10^8.
    let budget = 100_000_000;
    let mut s = session(&scenario, budget)?;
    let start = Instant::now();
    match s
        .game
        .submit(Some(&side), &measure("vm_mix", u64::MAX >> 12))
    {
        Err(GameError::Rules(e)) if e.message.contains("instruction budget") => {}
        other => return Err(format!("vm_mix: expected the budget error, got {other:?}")),
    }
    let per_instruction = start.elapsed().as_secs_f64() * 1e9 / budget as f64;
    println!("VM: {per_instruction:.2} ns an instruction (mixed loop)");
    let mut s = session(&scenario, u64::MAX >> 2)?;
    if let Err(e) = s.game.submit(Some(&side), &measure("sizes", 1)) {
        println!("{e}");
    }
    for (name, n) in [
        ("reach", 2000),
        ("map_hexes", 2000),
        ("units_all", 2000),
        ("rep_16mb", 20),
        ("upper_1mb", 100),
        ("reverse_1mb", 100),
        ("sub_1mb", 100),
        ("find_plain_1mb", 100),
        ("find_1mb", 100),
        ("byte_100k", 100),
        ("utf8_len_1mb", 100),
        ("concat_100k", 100),
        ("unpack_100k", 100),
        ("sort_100k", 10),
        ("fill_100k", 10),
        ("grow_heap", 1),
        ("step_heap", 1000),
    ] {
        let start = Instant::now();
        s.game
            .submit(Some(&side), &measure(name, n))
            .map_err(|e| format!("{name}: {e}"))?;
        let ns = start.elapsed().as_secs_f64() * 1e9 / n as f64;
        println!(
            "{name:>15}: {:12.0} ns a call = {:12.0} VM instructions",
            ns,
            ns / per_instruction
        );
    }
    // (a full collection of the heap `grow_heap` built: the loop ends with an error naming the
    // heap's size, so that the figure can be read per byte)
    let n = 10;
    let start = Instant::now();
    let heap = match s.game.submit(Some(&side), &measure("collect_heap", n)) {
        Err(e) => e.to_string(),
        Ok(_) => String::new(),
    };
    let ns = start.elapsed().as_secs_f64() * 1e9 / n as f64;
    println!(
        "   collect_heap: {ns:12.0} ns a call = {:12.0} VM instructions ({heap})",
        ns / per_instruction
    );
    Ok(())
}
