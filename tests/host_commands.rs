//! What the engine checks of a command itself, before and after the rules: a move's path, the
//! side a host's command is given for, events the rules make that cannot be applied, and who
//! ends a simultaneous phase (docs/embedding.md, "Whose command").

use std::path::{Path, PathBuf};

use hexwar::engine::{Command, Event, GameError, Refusal, RulesErrorKind};
use hexwar::Session;
use serde_json::Map;

fn first_move(session: &mut Session, side: &str) -> Command {
    session
        .game
        .legal_commands(side)
        .unwrap()
        .into_iter()
        .find(|c| matches!(c, Command::Move { .. }))
        .expect("a legal move")
}

#[test]
fn a_move_with_an_empty_path_is_refused_by_the_engine() {
    for scenario in ["scenarios/demo", "scenarios/france1940"] {
        let mut session = Session::start(Path::new(scenario), Some(1)).unwrap();
        let side = session.game.phasing_side().unwrap();
        let Command::Move { unit, .. } = first_move(&mut session, &side) else {
            unreachable!()
        };
        let before = serde_json::to_string(session.game.state()).unwrap();
        let empty = Command::Move {
            unit,
            path: Vec::new(),
        };
        assert_eq!(
            session.game.submit(Some(&side), &empty),
            Err(GameError::Refused(Refusal::new(
                "command",
                "a move needs a path of at least one hex"
            ))),
            "{scenario}"
        );
        assert!(matches!(
            session.game.log().last(),
            Some(Event::CommandRefused { rule, .. }) if rule == "command"
        ));
        let after = serde_json::to_string(session.game.state()).unwrap();
        assert_eq!(after, before, "{scenario}: the state changed");
    }
}

#[test]
fn a_command_without_a_side_in_a_one_side_phase_is_the_phasing_sides() {
    let play = |with_side: bool| {
        let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
        let side = session.game.phasing_side().unwrap();
        let given = with_side.then_some(side.as_str());
        let mv = first_move(&mut session, &side);
        let moved = session.game.submit(given, &mv).unwrap();
        let ended = session.game.submit(given, &Command::EndPhase).unwrap();
        (moved, ended, session.game.position_text())
    };
    let (moved, ended, next) = play(false);
    assert_eq!((&moved, &ended, &next), {
        let (m, e, n) = play(true);
        (&m.clone(), &e.clone(), &n.clone())
    });
    assert_ne!(next, {
        let mut fresh = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
        fresh.game.position_text()
    });
    assert!(moved.iter().any(|e| e.name() == "UnitMoved"));
    assert!(ended.iter().any(|e| e.name() == "PhaseEnded"));
}

/// A mod whose command and handler make events naming a unit that is not in play.
const GHOST_MOD: &str = r#"
hex.commands.define("ghost", {
  resolve = function() return { { event = "UnitEliminated", unit = "ghost", reason = "haunting" } } end,
})
hex.events.on("UnitMoved", function(ev)
  return { { event = "UnitEliminated", unit = "ghost", reason = "haunting" } }
end)
"#;

fn ghost_mod() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hexwar-ghost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ghost.lua");
    std::fs::write(&file, GHOST_MOD).unwrap();
    file
}

#[test]
fn an_event_that_cannot_be_applied_is_a_rules_error_naming_what_made_it() {
    let mut session =
        Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[ghost_mod()]).unwrap();
    let side = session.game.phasing_side().unwrap();
    let before = serde_json::to_string(session.game.state()).unwrap();
    let ghost = Command::Custom {
        name: "ghost".into(),
        args: Map::new(),
    };
    let Err(GameError::Rules(e)) = session.game.submit(Some(&side), &ghost) else {
        panic!("expected a rules error")
    };
    assert_eq!(e.kind, RulesErrorKind::Script);
    assert_eq!(
        e.message,
        "command 'ghost' made an event that cannot be applied: cannot apply UnitEliminated: \
         no unit 'ghost' in play"
    );
    let mv = first_move(&mut session, &side);
    let Err(GameError::Rules(e)) = session.game.submit(Some(&side), &mv) else {
        panic!("expected a rules error")
    };
    // (the handlers of UnitMoved: the mod's, then the demo's own)
    assert!(
        e.message.starts_with("an event handler of UnitMoved (")
            && e.message.contains("/ghost.lua:5")
            && e.message.ends_with(
                "; after command 'move') made an event that cannot be applied: cannot apply \
                 UnitEliminated: no unit 'ghost' in play"
            ),
        "{}",
        e.message
    );
    let after = serde_json::to_string(session.game.state()).unwrap();
    assert_eq!(after, before, "the state changed");
}

/// In a simultaneous phase the engine keeps no list of who is done: `EndPhase` from any power
/// ends the phase for all (the host counts its players' "done").
#[test]
fn in_a_simultaneous_phase_any_end_phase_ends_it_for_every_side() {
    let mut session = Session::start(Path::new("scenarios/diplomacy"), Some(1)).unwrap();
    assert_eq!(session.game.phasing_side(), None);
    assert_eq!(
        session.game.phase_label().unwrap().as_deref(),
        Some("S1901M")
    );
    session
        .game
        .submit(Some("FRANCE"), &Command::EndPhase)
        .unwrap();
    assert_eq!(
        session.game.phase_label().unwrap().as_deref(),
        Some("F1901M")
    );
}

/// The engine's own `reach` query (rules with a movement declaration and no query of their
/// own) names a bad question instead of answering "nowhere".
#[test]
fn the_engines_reach_query_names_a_bad_unit() {
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let mut error = |arg: serde_json::Value| match session.game.query("reach", &arg) {
        Err(e) => e.message,
        Ok(answer) => panic!("expected an error, got {answer:?}"),
    };
    assert_eq!(
        error(serde_json::Value::Null),
        "query 'reach': the argument is a unit id (a string), not null"
    );
    assert_eq!(
        error(serde_json::json!("nope")),
        "query 'reach': no unit 'nope' in play"
    );
    let reach = session
        .game
        .query("reach", &serde_json::json!("b-inf-1"))
        .unwrap()
        .unwrap();
    assert!(reach.as_object().is_some_and(|hexes| !hexes.is_empty()));
}

/// A side the scenario does not have gets an error naming the sides, not an empty list.
#[test]
fn legal_commands_of_an_unknown_side_name_the_sides() {
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let e = session.game.legal_commands("martians").unwrap_err();
    assert_eq!(
        e.message,
        "legal commands of 'martians': the scenario has no such side (sides: blue, red)"
    );
    assert!(!session.game.legal_commands("red").unwrap().is_empty());
}

/// The same from the rules' side: `hex.commands.legal` of a side the scenario lacks is an
/// error naming the sides (it used to list `end_phase` for it).
#[test]
fn hex_commands_legal_of_an_unknown_side_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ask.lua");
    std::fs::write(
        &file,
        "hex.commands.define(\"ask\", { resolve = function()\n\
           hex.commands.legal(\"purple\")\n\
           return {}\n\
         end })\n",
    )
    .unwrap();
    let mut session =
        Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file]).unwrap();
    let ask = Command::Custom {
        name: "ask".into(),
        args: Map::new(),
    };
    let Err(GameError::Rules(e)) = session.game.submit(Some("blue"), &ask) else {
        panic!("expected a rules error")
    };
    assert!(
        e.message
            .contains("hex.commands.legal: the scenario has no side 'purple' (sides: blue, red)"),
        "{}",
        e.message
    );
}

/// A command from a side the scenario lacks is refused by the engine, in a simultaneous phase
/// too (a typo used to pass there as the host's own command and play the phase).
#[test]
fn a_command_from_a_side_the_scenario_lacks_is_refused() {
    let mut session = Session::start(Path::new("scenarios/diplomacy"), Some(1)).unwrap();
    let before = session.game.position_text();
    for side in ["NARNIA", "", "france"] {
        assert_eq!(
            session.game.submit(Some(side), &Command::EndPhase),
            Err(GameError::Refused(Refusal::new(
                "command",
                format!(
                    "the scenario has no side '{side}' (sides: AUSTRIA, ENGLAND, FRANCE, \
                     GERMANY, ITALY, RUSSIA, TURKEY)"
                )
            )))
        );
    }
    assert_eq!(session.game.position_text(), before);
    assert_eq!(
        session.game.phase_label().unwrap().as_deref(),
        Some("S1901M")
    );
}

/// `Command::Custom { name: "end_phase" }`, built by hand, is the engine's `EndPhase`: the rules
/// and the sequence move on together (it used to play the phase while the sequence stayed).
#[test]
fn a_custom_command_named_end_phase_is_the_engines_end_phase() {
    let custom = Command::Custom {
        name: "end_phase".into(),
        args: Map::new(),
    };
    let play = |command: &Command| {
        let mut session = Session::start(Path::new("scenarios/diplomacy"), Some(1)).unwrap();
        let events = session.game.submit(None, command).unwrap();
        let next = session.game.submit(None, command).unwrap();
        (
            events,
            next,
            session.game.phase_label().unwrap(),
            session.game.position_text(),
        )
    };
    let by_custom = play(&custom);
    assert_eq!(by_custom.2.as_deref(), Some("S1902M"));
    assert_eq!(by_custom, play(&Command::EndPhase));

    let mut session = Session::start(Path::new("scenarios/diplomacy"), Some(1)).unwrap();
    let mut args = Map::new();
    args.insert("now".into(), true.into());
    let with_args = Command::Custom {
        name: "end_phase".into(),
        args,
    };
    assert_eq!(
        session.game.submit(None, &with_args),
        Err(GameError::Refused(Refusal::new(
            "command",
            "end_phase: unknown argument 'now' (it takes none)"
        )))
    );
    let read: Result<Command, _> = serde_json::from_str(r#"{"command": "end_phase", "now": true}"#);
    assert_eq!(
        read.unwrap_err().to_string(),
        "end_phase: unknown argument 'now' (it takes none)"
    );
}

/// A `legal` function listing more commands than the host converts in one listing (work the
/// instruction budget does not see) is stopped, naming it, instead of running for seconds.
#[test]
fn a_legal_list_past_the_hosts_limit_is_a_rules_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("flood.lua");
    std::fs::write(
        &file,
        "local one = { command = \"flood\" }\n\
         local list = {}\n\
         for i = 1, 100001 do list[i] = one end\n\
         hex.commands.define(\"flood\", {\n\
           resolve = function() return {} end,\n\
           legal = function() return list end,\n\
         })\n",
    )
    .unwrap();
    let mut session =
        Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file]).unwrap();
    let e = session.game.legal_commands("blue").unwrap_err();
    assert!(
        e.message.starts_with("legal 'flood' (")
            && e.message
                .ends_with("listed 100001 commands (at most 100000 a listing)"),
        "{}",
        e.message
    );
}

/// A victory rule naming a side the scenario lacks (as winner or in the scores) is a rules
/// error naming it: it used to reach the log, saves and the batch statistics.
#[test]
fn a_victory_rule_naming_an_unknown_side_is_a_rules_error() {
    let dir = tempfile::tempdir().unwrap();
    for (name, answer) in [
        (
            "purple_wins",
            "{ winner = \"purple\", scores = {}, reason = \"x\" }",
        ),
        (
            "green_scores",
            "{ scores = { blue = 1, green = 3 }, reason = \"x\" }",
        ),
    ] {
        let file = dir.path().join(format!("{name}.lua"));
        std::fs::write(
            &file,
            format!("hex.rules.victory(function() return {answer} end)\n"),
        )
        .unwrap();
        let mut session =
            Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file]).unwrap();
        let e = session
            .play_bots(hexwar::bot::RunLimit::End)
            .unwrap_err()
            .to_string();
        let side = if name == "purple_wins" {
            "purple"
        } else {
            "green"
        };
        assert!(
            e.contains(&format!(
                "its answer names the side '{side}', which the scenario does not have (sides: \
                 blue, red)"
            )),
            "{e}"
        );
    }
}
