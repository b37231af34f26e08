//! The event bus and layered rules, on a fixture module (tests/fixtures/bus).

use std::path::Path;

use hexwar::engine::{Command, Event, GameError, Refusal};
use hexwar::Session;
use serde_json::{json, Map, Value};

fn session() -> Session {
    Session::start(Path::new("tests/fixtures/bus"), Some(3)).unwrap()
}

fn custom(name: &str) -> Command {
    Command::Custom {
        name: name.into(),
        args: Map::new(),
    }
}

fn mv(unit: &str, path: &[&str]) -> Command {
    Command::Move {
        unit: unit.into(),
        path: path.iter().map(|s| s.to_string()).collect(),
    }
}

#[test]
fn a_before_handler_vetoes_and_the_state_is_untouched() {
    let mut s = session();
    let before = s.to_save().to_json();
    let err = s
        .game
        .submit(Some("a"), &mv("a1", &["0102", "0202"]))
        .unwrap_err();
    assert_eq!(
        err,
        GameError::Refused(Refusal::new("BUS-1", "a1 may not enter 0202"))
    );
    assert_eq!(s.to_save().to_json(), before);
    // The log records the refusal; the state never saw the move.
    let names: Vec<&str> = s.game.log().iter().map(Event::name).collect();
    assert_eq!(names, ["GameStarted", "PhaseStarted", "CommandRefused"]);
    assert_eq!(
        s.game.log()[2],
        Event::CommandRefused {
            side: Some("a".into()),
            command: mv("a1", &["0102", "0202"]),
            rule: "BUS-1".into(),
            reason: "a1 may not enter 0202".into(),
        }
    );
}

#[test]
fn handlers_run_by_priority_then_registration_order() {
    let mut s = session();
    let events = s.game.submit(Some("a"), &custom("ping")).unwrap();
    let tags: Vec<String> = events
        .iter()
        .map(|e| match e {
            Event::Custom { name, data } => format!(
                "{name}:{}",
                data.get("tag").and_then(Value::as_str).unwrap_or("")
            ),
            other => other.name().to_string(),
        })
        .collect();
    assert_eq!(
        tags,
        ["Ping:", "Saw:high", "Saw:mid1", "Saw:mid2", "Saw:low"]
    );
}

#[test]
fn a_handler_that_emits_forever_is_stopped_and_nothing_is_applied() {
    let mut s = session();
    let before = s.to_save().to_json();
    let err = s.game.submit(Some("a"), &custom("loop")).unwrap_err();
    let GameError::Rules(e) = err else {
        panic!("expected a rules error, got {err:?}")
    };
    assert!(e.message.starts_with("event handlers went on too long (chain depth 9 / 9 events, limits 8 / 10000) at event Loop"), "{}", e.message);
    assert_eq!(e.kind, hexwar::engine::RulesErrorKind::EventChain);
    assert_eq!(s.to_save().to_json(), before);
}

#[test]
fn dice_rolls_are_events_before_the_commands_own_events() {
    let mut s = session();
    let events = s.game.submit(Some("a"), &custom("roll")).unwrap();
    let rolled = s.game.state().vars["rolled"].clone();
    let (a, b) = (
        rolled[0].as_u64().unwrap() as u32,
        rolled[1].as_u64().unwrap() as u32,
    );
    assert_eq!(
        events,
        vec![
            Event::DiceRolled { sides: 6, value: a },
            Event::DiceRolled {
                sides: 20,
                value: b
            },
            Event::VarSet {
                key: "rolled".into(),
                value: json!([a, b]).into()
            },
        ]
    );
    assert_eq!(
        (a, b),
        (
            hexwar::engine::Dice::value_at(3, 0, 6),
            hexwar::engine::Dice::value_at(3, 1, 20)
        )
    );
    assert_eq!(s.game.state().dice.rolls, 2);
}

#[test]
fn commands_of_the_wrong_side_are_refused() {
    let mut s = session();
    let err = s.game.submit(Some("b"), &custom("ping")).unwrap_err();
    assert_eq!(
        err,
        GameError::Refused(Refusal::new("sequence", "it is a's move phase, not b's"))
    );
}

#[test]
fn special_turns_replace_the_ordinary_sequence() {
    let mut s = session();
    s.game.submit(Some("a"), &Command::EndPhase).unwrap();
    s.game.submit(Some("b"), &Command::EndPhase).unwrap();
    // Turn 2 has only b's phase.
    assert_eq!(
        (s.game.state().turn, s.game.phasing_side().as_deref()),
        (2, Some("b"))
    );
    let events = s.game.submit(Some("b"), &Command::EndPhase).unwrap();
    assert!(
        matches!(events.last(), Some(Event::GameEnded { .. })),
        "{events:?}"
    );
    assert!(s.game.is_over());
    let err = s.game.submit(Some("b"), &Command::EndPhase).unwrap_err();
    assert_eq!(
        err,
        GameError::Refused(Refusal::new("sequence", "the game is over"))
    );
}

#[test]
fn pairs_over_string_keys_iterate_in_the_same_order_in_every_vm() {
    let mut orders = Vec::new();
    for seed in [1, 2] {
        let mut s = Session::start(Path::new("tests/fixtures/bus"), Some(seed)).unwrap();
        s.game.submit(Some("a"), &custom("pairs_order")).unwrap();
        orders.push(s.game.state().vars["pairs_order"].clone());
    }
    assert_eq!(orders[0], orders[1]);
    // The order is pinned: a change of Lua version or hash seed shows up here.
    let expected = include_str!("fixtures/bus/pairs_order.txt").trim();
    assert_eq!(orders[0], Value::String(expected.to_string()).into());
}

#[test]
fn a_variant_overrides_a_declaration_and_wraps_a_command() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("tests/fixtures/bus/scenario.toml").unwrap();
    let root = std::fs::canonicalize("tests/fixtures/bus").unwrap();
    let text = text
        .replace(
            "rules = [\"bus\"]",
            "rules = [\"bus\", \"bus/variants/open\"]",
        )
        .replace(
            "rule_roots = [\"rules\"]",
            &format!("rule_roots = [{:?}]", root.join("rules")),
        )
        .replace(
            "map = \"map.toml\"",
            &format!("map = {:?}", root.join("map.toml")),
        );
    let path = dir.path().join("scenario.toml");
    std::fs::write(&path, text).unwrap();
    let mut s = Session::start(&path, Some(3)).unwrap();
    // The base module forbade 0202; the variant forbids 0303 instead.
    s.game.submit(Some("a"), &mv("a1", &["0202"])).unwrap();
    let err = s.game.submit(Some("a"), &mv("a1", &["0303"])).unwrap_err();
    assert_eq!(
        err,
        GameError::Refused(Refusal::new("BUS-1", "a1 may not enter 0303"))
    );
    let err = s
        .game
        .submit(Some("a"), &mv("a1", &["0302", "0303"]))
        .unwrap_err();
    assert_eq!(
        err,
        GameError::Refused(Refusal::new("OPEN-1", "one hex at a time"))
    );
}
