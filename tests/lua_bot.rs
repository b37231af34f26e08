//! Bots written in Lua: named by the scenario's [[side]], sandboxed like the rules.

mod common;

use common::{hexwar, stderr, stdout};

#[test]
fn the_demo_greedy_lua_bot_beats_the_random_bot() {
    let out = hexwar(&[
        "run",
        "scenarios/demo",
        "--games",
        "10",
        "--seed",
        "5",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stats: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let red = stats["sides"]["red"]["wins"].as_u64().unwrap();
    let blue = stats["sides"]["blue"]["wins"].as_u64().unwrap();
    assert!(
        red > blue * 2,
        "red (Lua bot) {red} wins, blue (random) {blue}"
    );
}

#[test]
fn a_bot_answering_nonsense_is_a_clear_error() {
    let out = hexwar(&["run", "tests/fixtures/bad_bot"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: rules error: bot 'ai' for red: returned "),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains(", not an index between 1 and "),
        "{}",
        stderr(&out)
    );
}

/// A bot that answers nothing: the error shows `nil`, as the script wrote it.
#[test]
fn a_bot_answering_nothing_is_named_as_nil() {
    let out = hexwar(&["run", "tests/fixtures/bad_bot/silent.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: rules error: bot 'silent' for red: returned nil; a bot returns the index of a \
         legal command or a command table\n  (play stopped at turn 1, movement (red), seed 0)\n"
    );
}

#[test]
fn an_unknown_bot_module_is_refused_by_check() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("tests/fixtures/bad_bot/scenario.toml").unwrap();
    let root = std::fs::canonicalize("tests/fixtures/bad_bot").unwrap();
    let text = text
        .replace("bot = \"ai\"", "bot = \"nosuch\"")
        .replace(
            "map = \"../../../scenarios/demo/map.toml\"",
            &format!("map = {:?}", root.join("../../../scenarios/demo/map.toml")),
        )
        .replace(
            "rule_roots = [\"../../../rules\", \".\"]",
            &format!(
                "rule_roots = [{:?}, {:?}]",
                root.join("../../../rules"),
                root
            ),
        );
    std::fs::write(dir.path().join("scenario.toml"), text).unwrap();
    let out = hexwar(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("side 'red': unknown bot module 'nosuch'"),
        "{}",
        stderr(&out)
    );
}

/// A Lua bot facing an empty legal list (nothing legal, not even ending the phase) ends the
/// phase, as the random bot does: no index could be right, so its answer is not an error.
#[test]
fn a_lua_bot_with_nothing_legal_ends_the_phase() {
    let out = hexwar(&["run", "tests/fixtures/bad_bot/stuck.toml", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(summary["commands"], 4, "{summary}");
    assert_eq!(summary["turn"], 1, "{summary}");
    assert_eq!(summary["finished"], true, "{summary}");
}
