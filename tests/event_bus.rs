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

/// One handler answering with more events than a command may make is told apart from a loop:
/// the message names the event whose handlers made the last of them.
#[test]
fn a_handler_making_too_many_events_is_named_not_taken_for_a_loop() {
    let mut s = session();
    let before = s.to_save().to_json();
    let err = s.game.submit(Some("a"), &custom("burst")).unwrap_err();
    let GameError::Rules(e) = err else {
        panic!("expected a rules error, got {err:?}")
    };
    assert_eq!(
        e.message,
        "event handlers went on too long (chain depth 1 / 10000 events, limits 8 / 10000) at \
         event Spark: the command's events, its handlers' included, passed the limit (the last \
         made by the handlers of Burst (rules/bus/init.lua:48)): raise [limits] \
         events_per_command, or emit fewer"
    );
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

/// What a command or a handler returns is either events or a refusal where one may refuse;
/// anything else is an error naming the handler, and nothing is applied. Each of these passed
/// without a word: a table of other keys (a misspelt `evnt`, a plain `{rule, reason}`) read as
/// no events, a nil in a list dropped the events after it, a refusal from an `on` handler was
/// no refusal, events from a `before` handler were dropped, and a refusal's rule given as a
/// number (`hex.refuse(3, "mud")`) was shown as `3 mud`.
#[test]
fn returns_that_are_neither_events_nor_a_refusal_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("returns.lua");
    std::fs::write(
        &file,
        r#"hex.commands.define("rally", { args = { "how" }, resolve = function(cmd)
  local add = { event = "UnitStatusChanged", unit = "b-inf-1", add = { "rallied" } }
  if cmd.how == "typo" then return { evnt = "UnitStatusChanged", unit = "b-inf-1" } end
  if cmd.how == "plain" then return { rule = "X-1", reason = "no rally" } end
  if cmd.how == "hole" then return { nil, add } end
  if cmd.how == "number" then return 7 end
  if cmd.how == "rule_number" then return hex.refuse(3, "mud") end
  if cmd.how == "extra" then return { add, note = "x" } end
  return { add }
end })
hex.events.on("UnitStatusChanged", function(ev)
  if ev.unit == "r-inf-1" then return hex.refuse("X-2", "too late") end
end)
hex.events.before("UnitStatusChanged", function(ev)
  if ev.unit == "b-arm-1" then return { { event = "VarSet", key = "seen", value = true } } end
end)
hex.commands.define("late", { resolve = function(cmd)
  return { { event = "UnitStatusChanged", unit = cmd.unit, add = { "x" } } }
end, args = { "unit" } })
"#,
    )
    .unwrap();
    let mut s = Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file]).unwrap();
    let with = |name: &str, key: &str, value: &str| Command::Custom {
        name: name.into(),
        args: [(key.to_string(), Value::String(value.into()))]
            .into_iter()
            .collect(),
    };
    let before = serde_json::to_string(s.game.state()).unwrap();
    for (command, message) in [
        (
            with("rally", "how", "typo"),
            "returned a table that is neither an event (it has no `event` field; its keys: evnt, unit) nor a list of events",
        ),
        (
            with("rally", "how", "plain"),
            "returned a plain table {rule = ..., reason = ...}: a refusal is made with hex.refuse(rule, reason)",
        ),
        (
            with("rally", "how", "hole"),
            "returned a list of events with nothing at #1 (a nil in the list would drop the events after it)",
        ),
        (
            with("rally", "how", "number"),
            "returned an integer where a list of events or nil was expected",
        ),
        (
            with("rally", "how", "rule_number"),
            "hex.refuse: the rule must be a string naming the rule (\"F40-6.4\"), not a number, 3",
        ),
        (
            with("rally", "how", "extra"),
            "returned a table that is neither an event (it has no `event` field; its keys: note) nor a list of events",
        ),
        (
            with("late", "unit", "r-inf-1"),
            "returned a refusal (X-2: too late): the event has happened when a handler of hex.events.on runs; refuse it in hex.events.before",
        ),
        (
            with("late", "unit", "b-arm-1"),
            "returned a table: a before-handler returns nothing to let the event happen, or hex.refuse(rule, reason) (or false) to refuse it; events that follow one are returned by a handler of hex.events.on",
        ),
    ] {
        let Err(GameError::Rules(e)) = s.game.submit(Some("blue"), &command) else {
            panic!("{command:?} was not an error");
        };
        assert!(e.message.contains(message), "{command:?}: {}", e.message);
        assert_eq!(serde_json::to_string(s.game.state()).unwrap(), before);
    }
    let events = s
        .game
        .submit(Some("blue"), &with("rally", "how", "list"))
        .unwrap();
    assert_eq!(
        events,
        vec![Event::UnitStatusChanged {
            unit: "b-inf-1".into(),
            add: vec!["rallied".into()],
            remove: vec![],
        }]
    );
}

/// A sequence whose steps have a hole (a step made by a call that gave nil) is refused, naming
/// it: the steps after the hole were dropped, so every turn played without those phases.
#[test]
fn a_sequence_with_a_hole_in_its_steps_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, which) in [
        (
            "steps.lua",
            "hex.rules.sequence { steps = { { side = \"blue\", phase = \"movement\" }, nil, \
             { side = \"red\", phase = \"movement\" } } }\n",
            "'steps'",
        ),
        (
            "special.lua",
            "hex.rules.sequence { steps = { { side = \"blue\", phase = \"movement\" } }, \
             special = { [2] = { nil, { side = \"red\", phase = \"movement\" } } } }\n",
            "special turn 2",
        ),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let e = Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file])
            .expect_err("refused")
            .to_string();
        let gap = if which == "'steps'" { 2 } else { 1 };
        let last = if which == "'steps'" { 3 } else { 2 };
        assert!(
            e.contains(&format!(
                "hex.rules.sequence: {which} is a list with nothing at #{gap} (its last item is \
                 #{last}): a nil in a list of steps would drop the steps after it"
            )),
            "{name}: {e}"
        );
    }
}

/// A misspelt key in a sequence step (`sid` for `side`) made the step simultaneous, and one in
/// the victory rule's answer (`winer`) made a draw: both are refused, naming the key and, for
/// a step, its place.
#[test]
fn a_misspelt_key_in_a_step_or_in_the_victory_answer_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let step = dir.path().join("step.lua");
    std::fs::write(
        &step,
        "hex.rules.sequence { steps = { { side = \"blue\", phase = \"movement\" }, \
         { sid = \"red\", phase = \"movement\" } } }\n",
    )
    .unwrap();
    let e = Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[step])
        .expect_err("refused");
    assert!(
        e.to_string()
            .contains("hex.rules.sequence: step 1: unknown key 'sid' (did you mean 'side'?)"),
        "{e}"
    );
    let victory = dir.path().join("victory.lua");
    std::fs::write(
        &victory,
        "hex.rules.victory(function() return { winer = \"red\", scores = { blue = 0, red = 9 }, \
         reason = \"typo\" } end)\n",
    )
    .unwrap();
    let mut s = Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[victory]).unwrap();
    let state = s.game.state().clone();
    let e = s.game.rules_mut().victory(&state).unwrap_err();
    assert!(
        e.message.contains(
            "its answer: unknown field `winer`, expected one of `winner`, `scores`, `reason`"
        ),
        "{}",
        e.message
    );
}

/// A GameEnded that a handler makes while the command's own events still wait is applied after
/// them: the game ends on the board they leave (they used to be dropped without a word). The
/// first GameEnded is the outcome; a later one is dropped.
#[test]
fn a_game_ended_by_a_handler_waits_for_the_commands_other_events() {
    let mut s = session();
    let events = s.game.submit(Some("a"), &custom("doom")).unwrap();
    let names: Vec<&str> = events.iter().map(Event::name).collect();
    assert_eq!(names, ["Doom", "VarSet", "GameEnded"]);
    assert_eq!(
        s.game.state().vars.get("after_doom").map(|v| &**v),
        Some(&json!(true))
    );
    let outcome = s.game.state().outcome.clone().expect("the game is over");
    assert_eq!(
        (outcome.winner.as_deref(), outcome.reason.as_str()),
        (Some("a"), "doom")
    );
}

/// UnitChanged changes a unit's strength and attributes in play (a step loss: a unit rebuilt
/// by UnitRemoved and UnitPlaced lost its status and counted as a removal); what the event
/// leaves out stays; a command whose later event fails rolls the change back.
#[test]
fn a_unit_changed_event_changes_strength_and_attributes_only() {
    let mut s = session();
    let before = s.game.state().units["a1"].clone();
    let mut weaken = Map::new();
    let events = s
        .game
        .submit(
            Some("a"),
            &Command::Custom {
                name: "weaken".into(),
                args: weaken.clone(),
            },
        )
        .unwrap();
    assert_eq!(
        events,
        vec![Event::UnitChanged {
            unit: "a1".into(),
            strength: Some(before.strength / 2.0),
            ma: None,
            attrs: Map::from_iter([("reduced".to_string(), json!(true))]),
        }]
    );
    let after = &s.game.state().units["a1"];
    assert_eq!(after.strength, before.strength / 2.0);
    assert_eq!(
        (after.ma, &after.at, &after.status),
        (before.ma, &before.at, &before.status)
    );
    assert_eq!(after.attrs.get("reduced"), Some(&json!(true)));
    // (a later event that cannot be applied: the whole command is undone)
    let saved = s.to_save().to_json();
    weaken.insert("then_fail".into(), json!(true));
    let err = s
        .game
        .submit(
            Some("a"),
            &Command::Custom {
                name: "weaken".into(),
                args: weaken,
            },
        )
        .unwrap_err();
    assert!(err.to_string().contains("made an event that cannot be applied: cannot apply UnitChanged: no unit 'nobody' in play"), "{err}");
    assert_eq!(s.to_save().to_json(), saved);
}
