//! The embedding examples, run as tests without cargo: their logic is their `run` function.

#[allow(dead_code)]
#[path = "../examples/embed.rs"]
mod embed;

#[allow(dead_code)]
#[path = "../examples/custom_rule.rs"]
mod custom_rule;

#[test]
fn embed_loads_a_mod_applies_a_command_follows_events_and_saves() {
    let mut out = Vec::new();
    embed::run(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("legal commands"), "{text}");
    assert!(text.contains("\"event\":\"UnitMoved\""), "{text}");
    assert!(
        text.contains("\"name\":\"ModSawMove\""),
        "the mod's handler ran:\n{text}"
    );
    assert!(text.contains("saved turn 1"), "{text}");
}

#[test]
fn custom_rule_vetoes_the_minefield_in_rust() {
    let mut out = Vec::new();
    let refusal = custom_rule::run(&mut out).unwrap();
    assert_eq!(refusal.rule, "HOUSE-1");
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(", 0 of them through 0202"), "{text}");
}

/// A host's own `#[derive(Debug)]` struct may hold a session: `Session` and `Game` print a
/// summary, not the whole state.
#[test]
fn a_session_and_its_game_print_a_summary_for_debug() {
    let session = hexwar::Session::start(std::path::Path::new("scenarios/demo"), Some(7)).unwrap();
    let text = format!("{session:?}");
    assert!(
        text.starts_with("Session { scenario: \"scenarios/demo/scenario.toml\", game: Game { scenario: \"demo\", turn: 1, step: 0, units: "),
        "{text}"
    );
    assert!(text.ends_with(", seed: 7, mods: [], .. }"), "{text}");
}
