//! France 1940 played headless by the greedy bots of rules/france1940/ai.lua: the log shows the
//! invasion of the Low Countries and combats, and the same seed gives the same log byte for byte
//! (reserves enter from the Allied turn 2 on: the stored replay tests/replays/france1940-seed-1.json
//! plays the whole game). (A debug build plays about a turn a minute, so these runs stop early;
//! `hexwar run scenarios/france1940 --seed 1` plays all ten turns: docs/france1940.md.)

mod common;

use common::{hexwar, stderr};

fn run_log(seed: &str, turns: &str, log: &std::path::Path) -> (String, Vec<u8>) {
    let out = hexwar(&[
        "run",
        "scenarios/france1940",
        "--seed",
        seed,
        "--turns",
        turns,
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    (
        String::from_utf8(out.stdout).unwrap(),
        std::fs::read(log).unwrap(),
    )
}

#[test]
#[ignore = "heavy: two France 1940 bot games; run with cargo test --release -- --ignored"]
fn f40_bot_game_is_deterministic_and_logs_invasions_and_combats() {
    let dir = tempfile::tempdir().unwrap();
    let (out_a, a) = run_log("5", "2", &dir.path().join("a.jsonl"));
    let (_, b) = run_log("5", "2", &dir.path().join("b.jsonl"));
    assert!(a == b, "same seed, different logs");
    let log = String::from_utf8(a).unwrap();
    // The Germans invade the Low Countries on turn 1 (historically: the Netherlands first brings
    // in Belgium and Luxembourg).
    assert!(log.contains(r#""name":"CountryInvaded","data":{"country":"netherlands""#));
    assert!(log.contains(r#""name":"CountryJoined","data":{"country":"belgium"}"#));
    assert!(log.contains(r#""name":"CombatResolved""#));
    assert!(
        log.contains(r#""event":"UnitPlaced""#),
        "Allied reserves on turn 2"
    );
    assert!(
        out_a.contains("stopped at the start of turn 3 of 10"),
        "{out_a}"
    );
}
