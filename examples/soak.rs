//! Soak: plays many whole games in one process and checks that memory stays flat (issue #9).
//! Each game starts from the scenario (read once) with its rules loaded afresh, is played to its
//! end by the scenario's bots (as `hexwar run` does), and is dropped. Resident memory (VmRSS, and the peak VmHWM) is read
//! from /proc/self/status after the first game, after the first 10% of games and at the end.
//! The baseline is the peak after the first 10%: the most the process needed while playing
//! them (the RSS between games depends on what the allocator kept, and after one game of
//! three it says little). The run fails (exit 1) when the end RSS or the end peak is more than
//! `--max-growth` (default 1.1) times that baseline: a leak of 100 bytes a demo game fails it
//! over 10 000 games.
//!
//! ```sh
//! cargo run --release --example soak -- scenarios/demo 10000
//! tools/soak.sh            # 10 000 demo games, then SOAK_FRANCE (default 1 000) France 1940 games
//! ```

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use hexwar::batch::play_game;

/// Resident and peak resident memory in KiB, from /proc/self/status (Linux).
fn memory_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scenario = args.first().map(String::as_str).unwrap_or("scenarios/demo");
    let games: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let max_growth: f64 = args
        .iter()
        .position(|a| a == "--max-growth")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(1.1);
    let path = Path::new(scenario);
    let scenario = match hexwar::scenario::load_scenario(path) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                eprintln!("error: {e}");
            }
            return ExitCode::from(2);
        }
    };
    let tenth = (games / 10).max(1);
    let started = Instant::now();
    let mut commands = 0;
    let mut first = (0, 0);
    let mut at_tenth = (0, 0);
    for i in 0..games {
        // The games of `hexwar run SCENARIO --games N --seed 1`, one after another in this process.
        match play_game(&scenario, 1, i) {
            Ok(record) => commands += record.commands,
            Err(e) => {
                eprintln!("error: {}: game {}: {e}", path.display(), i + 1);
                return ExitCode::from(2);
            }
        }
        if i == 0 {
            first = memory_kib();
        }
        if i + 1 == tenth {
            at_tenth = memory_kib();
        }
    }
    let end = memory_kib();
    let seconds = started.elapsed().as_secs_f64();
    let growth = end.0.max(end.1) as f64 / at_tenth.1.max(1) as f64;
    println!(
        "soak {}: {games} games, {commands} commands in {seconds:.1} s ({:.1} ms a game)",
        path.display(),
        seconds * 1000.0 / games as f64
    );
    println!(
        "  RSS after game 1: {} KiB (peak {} KiB); after {tenth} games: {} KiB (peak {}); at the end: {} KiB (peak {})",
        first.0, first.1, at_tenth.0, at_tenth.1, end.0, end.1
    );
    println!("  end RSS and peak / peak after 10%: {growth:.3} (limit {max_growth})");
    if growth > max_growth {
        eprintln!("error: memory grew by {growth:.3}x over the run (limit {max_growth}x)");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
