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
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ghost");
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
    // (the calling program's mistake, not the rules': a host tells them apart by the kind)
    assert_eq!(e.kind, hexwar::engine::RulesErrorKind::HostCall);
    let e = session
        .game
        .query("reach", &serde_json::json!("b-inf-9"))
        .unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.kind),
        (
            "query 'reach': no unit 'b-inf-9' in play",
            hexwar::engine::RulesErrorKind::HostCall
        )
    );
    assert!(!session.game.legal_commands("blue").unwrap().is_empty());
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
            && e.message.ends_with(
                "listed 100001 commands (at most 100000 a listing, a fixed limit of the \
                     host: a legal function that honours the filter it is given lists one \
                     unit's commands when a bot or `hexwar legal --unit` asks for them, \
                     docs/guide.md)"
            ),
        "{}",
        e.message
    );
}

/// A `legal` listing a command with an argument its command does not declare (`targt` for
/// `target`) is the listing's error, named as the listing's: the command would be refused as an
/// order, and a bot taking it blamed. By both listings the host reads (all, one command).
#[test]
fn a_legal_list_with_an_undeclared_argument_is_the_listings_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("strike.lua");
    std::fs::write(
        &file,
        "hex.commands.define(\"strike\", {\n\
           args = { \"unit\", \"target\" },\n\
           resolve = function() return {} end,\n\
           legal = function(side) return { { command = \"strike\", unit = \"b-inf-1\", targt = \"0304\" } } end,\n\
         })\n",
    )
    .unwrap();
    let mut session =
        Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file]).unwrap();
    let expected = "/strike.lua:4) listed a command its definition refuses: strike: unknown \
                    argument 'targt' (it takes unit, target)";
    let all = session.game.legal_commands("blue").unwrap_err();
    assert!(
        all.message.starts_with("legal 'strike' (") && all.message.ends_with(expected),
        "{}",
        all.message
    );
    let filter = hexwar::engine::CommandFilter {
        command: Some("strike".into()),
        unit: None,
    };
    let one = session
        .game
        .legal_commands_matching("blue", &filter)
        .unwrap_err();
    assert_eq!(one.message, all.message);
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

/// A host asking for a side whose phase it is not gets no commands: each would be refused
/// ("it is blue's movement phase, not red's"). In a simultaneous phase every power has its own.
#[test]
fn legal_commands_are_listed_only_for_the_side_whose_phase_it_is() {
    use hexwar::engine::CommandFilter;
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let phasing = session.game.phasing_side().unwrap();
    let other = session
        .scenario
        .sides
        .iter()
        .find(|s| **s != phasing)
        .unwrap()
        .clone();
    assert!(!session.game.legal_commands(&phasing).unwrap().is_empty());
    assert_eq!(session.game.legal_commands(&other).unwrap(), Vec::new());
    let moves = CommandFilter::command("move");
    assert!(!session
        .game
        .legal_commands_matching(&phasing, &moves)
        .unwrap()
        .is_empty());
    assert_eq!(
        session
            .game
            .legal_commands_matching(&other, &moves)
            .unwrap(),
        Vec::new()
    );

    let mut diplomacy = Session::start(Path::new("scenarios/diplomacy"), Some(1)).unwrap();
    for power in diplomacy.scenario.sides.clone() {
        assert!(
            !diplomacy.game.legal_commands(&power).unwrap().is_empty(),
            "{power}"
        );
    }
}

/// Once the game is over no side is phasing and none has commands.
#[test]
fn a_finished_game_has_no_phasing_side_and_no_legal_commands() {
    use hexwar::bot::{play, RandomBot, RunLimit};
    use hexwar::engine::Dice;
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let sides = session.scenario.sides.clone();
    let mut bot = RandomBot::new(Dice::new(1));
    play(&mut session.game, &mut bot, &sides, RunLimit::End).unwrap();
    assert!(session.game.is_over());
    assert_eq!(session.game.phasing_side(), None);
    for side in &sides {
        assert_eq!(session.game.legal_commands(side).unwrap(), Vec::new());
    }
}

/// `setup_table` checks the host's own `UnitPlaced` units as a setup file's are checked: a
/// unit of side `purple` was placed, and the game's own save was then refused on resume.
#[test]
fn setup_table_checks_the_units_a_host_places() {
    use hexwar::engine::Unit;
    let unit = |id: &str, side: &str, at: &str| Event::UnitPlaced {
        unit: Unit {
            id: id.into(),
            side: side.into(),
            nation: side.into(),
            kind: "infantry".into(),
            size: String::new(),
            ma: 4.0,
            strength: 2.0,
            at: Some(at.into()),
            facing: None,
            status: Default::default(),
            attrs: Map::new(),
        },
    };
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let before = serde_json::to_string(session.game.state()).unwrap();
    for (events, message) in [
        (
            vec![unit("p1", "purple", "0304")],
            "setup table: unit 'p1': unknown side 'purple' (sides: blue, red)",
        ),
        (
            vec![unit("p1", "blue", "9999")],
            "setup table: unit 'p1': at '9999' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)",
        ),
        (
            vec![unit("p1", "blue", "0304"), unit("p1", "red", "0305")],
            "setup table: unit 'p1' is placed twice",
        ),
        (
            vec![
                unit("b-inf-1", "blue", "0304"),
                Event::UnitRemoved {
                    unit: "b-inf-1".into(),
                    reason: "setup".into(),
                },
            ],
            "setup table: unit 'b-inf-1' is already in play: remove it first (a UnitRemoved \
             event before its UnitPlaced; a setup file's [[unit]] tables replace every unit in \
             play)",
        ),
        (
            vec![unit("b-inf-1", "blue", "0304")],
            "setup table: unit 'b-inf-1' is already in play: remove it first (a UnitRemoved \
             event before its UnitPlaced; a setup file's [[unit]] tables replace every unit in \
             play)",
        ),
    ] {
        let e = session.setup_table(&Map::new(), events).unwrap_err();
        assert_eq!(e.to_string(), message);
        assert_eq!(serde_json::to_string(session.game.state()).unwrap(), before);
    }
    session
        .setup_table(&Map::new(), vec![unit("p1", "blue", "0304")])
        .unwrap();
    assert_eq!(session.game.state().units["p1"].at.as_deref(), Some("0304"));
    // removed first, a unit in play may be placed again
    let removed = Event::UnitRemoved {
        unit: "b-inf-1".into(),
        reason: "setup".into(),
    };
    session
        .setup_table(&Map::new(), vec![removed, unit("b-inf-1", "blue", "0305")])
        .unwrap();
    assert_eq!(
        session.game.state().units["b-inf-1"].at.as_deref(),
        Some("0305")
    );
}

/// `hex.commands.get` of a name one or two letters off a defined command is an error naming
/// it (a wrapper of `atack` got nil and failed later on it); an unknown name far from every
/// command is nil, so a module may ask whether a command exists.
#[test]
fn hex_commands_get_of_a_misspelt_command_names_the_nearest() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wrapper.lua");
    std::fs::write(
        &file,
        "assert(hex.commands.get(\"teleport\") == nil)\n\
         local base = hex.commands.get(\"atack\")\n",
    )
    .unwrap();
    let e = Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file])
        .expect_err("refused");
    assert!(
        e.to_string()
            .contains("hex.commands.get: no command 'atack' (did you mean 'attack'?)"),
        "{e}"
    );
}

/// A command no rule handles is refused naming the nearest command the rules define (`mvoe`).
#[test]
fn a_misspelt_command_is_refused_with_the_nearest_name() {
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let before = serde_json::to_string(session.game.state()).unwrap();
    for (name, reason) in [
        (
            "mvoe",
            "no rule handles the command 'mvoe' (did you mean 'move'?)",
        ),
        ("teleport", "no rule handles the command 'teleport'"),
    ] {
        let command = Command::Custom {
            name: name.into(),
            args: Map::new(),
        };
        assert_eq!(
            session.game.submit(Some("blue"), &command),
            Err(GameError::Refused(Refusal::new("rules", reason)))
        );
    }
    assert_eq!(serde_json::to_string(session.game.state()).unwrap(), before);
}

/// A client tells the engine's refusals (a malformed command, no such command, not the side's
/// phase) from a rule of the game by `Refusal::by_engine`, not by matching rule strings.
#[test]
fn the_engines_refusals_are_told_from_the_games_rules() {
    let mut s = hexwar::Session::start(std::path::Path::new("scenarios/demo"), Some(1)).unwrap();
    let side = s.game.phasing_side().unwrap();
    let other = if side == "blue" { "red" } else { "blue" };
    let refusal = |s: &mut hexwar::Session, side: &str, command: hexwar::engine::Command| match s
        .game
        .submit(Some(side), &command)
    {
        Err(hexwar::engine::GameError::Refused(r)) => r,
        other => panic!("expected a refusal, got {other:?}"),
    };
    let fly = hexwar::engine::Command::Custom {
        name: "fly".into(),
        args: serde_json::Map::new(),
    };
    let r = refusal(&mut s, &side, fly);
    assert_eq!((r.rule.as_str(), r.by_engine()), ("rules", true));
    let mv = |path: &[&str]| hexwar::engine::Command::Move {
        unit: "b-inf-1".into(),
        path: path.iter().map(|p| p.to_string()).collect(),
    };
    let r = refusal(&mut s, other, mv(&["0103"]));
    assert_eq!((r.rule.as_str(), r.by_engine()), ("sequence", true));
    // (a path of hexes not adjacent: the demo's DEMO-1)
    let r = refusal(&mut s, &side, mv(&["0105"]));
    assert_eq!((r.rule.as_str(), r.by_engine()), ("DEMO-1", false));
}

/// The queries' options and sides are checked like every other name a script gives: a
/// misspelt option (`withut`, `nearst_first`, `path` for `paths`) was read as absent, and a
/// misspelt side (`blu`) answered no unit, as if the side had none. Each is now an error at
/// the script's line, with the nearest name.
#[test]
fn a_misspelt_option_or_side_in_a_query_is_named() {
    for (call, expected) in [
        (
            "hex.units.ids(\"blue\", { withut = { \"moved\" } })",
            "hex.units.ids: options: unknown key 'withut' (did you mean 'without'?) (the keys: on_map, with, without, limit)",
        ),
        // (`hex.commands.legal` of a side the scenario lacks listed `end_phase` for it)
        (
            "hex.commands.legal(\"purple\")",
            "hex.commands.legal: the scenario has no side 'purple' (sides: blue, red)",
        ),
        (
            "hex.units.ids(\"blu\")",
            "hex.units.ids: the scenario has no side 'blu' (did you mean 'blue'?; sides: blue, red)",
        ),
        (
            "hex.units.list(\"id\", \"rde\")",
            "hex.units.list: the scenario has no side 'rde' (did you mean 'red'?; sides: blue, red)",
        ),
        (
            "hex.path.reach(\"b-inf-1\", nil, { path = true })",
            "hex.path.reach: options: unknown key 'path' (did you mean 'paths'?) (the keys: paths, blocked)",
        ),
        (
            "hex.path.toward({ \"0606\" }, { { id = \"b-inf-1\" } }, { nearst_first = true })",
            "hex.path.toward: options: unknown key 'nearst_first' (did you mean 'nearest_first'?) (the keys: supplied, impassable, limit, first, nearest_first, capacity)",
        ),
        (
            "hex.commands.legal(\"blue\", { comand = \"move\" })",
            "hex.commands.legal: options: unknown key 'comand' (did you mean 'command'?) (the keys: command, unit)",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("ask.lua");
        std::fs::write(
            &file,
            format!(
                "hex.commands.define(\"ask\", {{ resolve = function()\n  {call}\n  return {{}}\nend }})\n"
            ),
        )
        .unwrap();
        let mut session =
            Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file]).unwrap();
        let ask = Command::Custom {
            name: "ask".into(),
            args: Map::new(),
        };
        let Err(GameError::Rules(e)) = session.game.submit(Some("blue"), &ask) else {
            panic!("{call}: expected a rules error")
        };
        assert!(e.message.contains(&format!("ask.lua:2: {expected}")), "{call}: {}", e.message);
    }
}

/// A setup's `[control]` takes `zone:NAME` as a scenario's does (DESIGN: the same schema): the
/// zone's every hex; an unknown zone is named with the nearest one.
#[test]
fn a_setup_control_takes_a_zone_as_the_scenario_does() {
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let text = "[control]\nred = [\"zone:blue_setup\"]\n";
    session
        .setup_text(&hexwar::board::SourceText::new("setup.toml", text))
        .unwrap();
    let control = &session.game.state().control;
    for hex in [
        "0101", "0102", "0103", "0104", "0201", "0202", "0203", "0204",
    ] {
        assert_eq!(control.get(hex).map(String::as_str), Some("red"), "{hex}");
    }
    // (the rest of blue's land is blue's still, as the scenario gave it)
    assert_eq!(control.get("0301").map(String::as_str), Some("blue"));
    let text = "[control]\nred = [\"zone:blue_stup\"]\n";
    let e = session
        .setup_text(&hexwar::board::SourceText::new("setup.toml", text))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "setup.toml:2: [control].red: unknown zone 'blue_stup': did you mean 'blue_setup'? (this \
         map has: north_edge, south_edge, west_edge, east_edge, blue_setup, red_setup, \
         blue_land, red_land)"
    );
}

/// A table's `unit` list is not read by `setup_table` (a setup file's `[[unit]]` tables become
/// events as the file is read): it went to the rules unread and the position lacked the units
/// without a word. Now refused, naming the way in; the state stays as it was.
#[test]
fn setup_table_refuses_a_unit_list_it_would_not_read() {
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let before = serde_json::to_string(session.game.state()).unwrap();
    let mut table = Map::new();
    table.insert(
        "unit".into(),
        serde_json::json!([{"id": "p1", "side": "blue", "type": "infantry", "at": "0304"}]),
    );
    let e = session.setup_table(&table, Vec::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "setup table: 'unit': setup_table does not read units from the table: give them as \
         UnitPlaced events in `extra` (after a UnitRemoved for each unit they replace), or a \
         setup file's text to Session::setup_text"
    );
    assert_eq!(serde_json::to_string(session.game.state()).unwrap(), before);
}

/// A person's side the scenario lacks (`Blue` for `blue`) let the bots play that side's whole
/// game; it is a host error naming the sides, and nothing is played.
#[test]
fn bots_stop_only_for_a_side_the_scenario_has() {
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let before = serde_json::to_string(session.game.state()).unwrap();
    let options = hexwar::bot::PlayOptions {
        stop_for_side: Some("Blue"),
        ..Default::default()
    };
    let e = session
        .play_bots_observed(hexwar::bot::RunLimit::End, options, &mut |_, _| {})
        .unwrap_err();
    let GameError::Rules(e) = e else {
        panic!("expected a host error, got {e:?}")
    };
    assert_eq!(e.kind, RulesErrorKind::HostCall);
    assert_eq!(
        e.message,
        "bot::play: unknown side 'Blue': did you mean 'blue'? (sides: blue, red) \
         (PlayOptions::stop_for_side and the sides bots play name sides of the scenario)"
    );
    assert_eq!(serde_json::to_string(session.game.state()).unwrap(), before);
}
