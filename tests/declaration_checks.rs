//! Mistakes a designer makes in a new game's declarations, each refused where it is made with
//! what is wrong, instead of passing `check` and breaking the game later (a new-game author's
//! walkthrough found each of them silently accepted): a misspelt side or key in the sequence, a
//! misspelt key in a command, unit types without a movement class, a bot's bad answer, a move
//! with arguments the engine's `move` does not have, an event that lies about where a unit was.

use std::path::{Path, PathBuf};

use hexwar::engine::{Command, Event, GameError};
use hexwar::Session;

/// The demo with a mod made of `text`; the error message if it does not load.
fn demo_with(name: &str, text: &str) -> Result<Session, String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("decl-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join(format!("{name}.lua"));
    std::fs::write(&file, text).unwrap();
    Session::start_with_mods(Path::new("scenarios/demo"), Some(1), &[file])
        .map_err(|e| e.to_string())
}

fn load_error(name: &str, text: &str) -> String {
    match demo_with(name, text) {
        Err(e) => e,
        Ok(_) => panic!("{name}: expected the rules not to load"),
    }
}

#[test]
fn a_sequence_naming_a_side_the_scenario_lacks_is_refused() {
    let e = load_error(
        "nort",
        r#"hex.rules.sequence { steps = { { side = "nort", phase = "movement" }, { side = "red", phase = "movement" } } }
"#,
    );
    assert!(
        e.ends_with(
            "/nort.lua:1: hex.rules.sequence: step 0 names the side 'nort', which the scenario \
             does not have (sides: blue, red)"
        ),
        "{e}"
    );
    let e = load_error(
        "special_nort",
        r#"hex.rules.sequence { steps = { { side = "blue", phase = "movement" } }, special = { [2] = { { side = "nort", phase = "movement" } } } }
"#,
    );
    assert!(
        e.ends_with(
            "hex.rules.sequence: special turn 2, step 0 names the side 'nort', which the \
             scenario does not have (sides: blue, red)"
        ),
        "{e}"
    );
    // (steps count from 0, as the log counts them; a misspelt side gets the one meant)
    let e = load_error(
        "bleu",
        r#"hex.rules.sequence { steps = { { side = "red", phase = "movement" }, { side = "bleu", phase = "movement" } } }
"#,
    );
    assert!(
        e.ends_with(
            "/bleu.lua:1: hex.rules.sequence: step 1 names the side 'bleu', which the scenario \
             does not have (did you mean 'blue'?; sides: blue, red)"
        ),
        "{e}"
    );
}

/// A special turn with no step would play nothing: it passed `check`, and the game stopped at
/// that turn saying the rules declare no sequence of play, with no line.
#[test]
fn a_special_turn_with_no_step_is_refused() {
    let e = load_error(
        "empty_special",
        r#"hex.rules.sequence { steps = { { side = "blue", phase = "movement" } }, special = { [1] = {} } }
"#,
    );
    assert!(
        e.ends_with(
            "/empty_special.lua:1: hex.rules.sequence: special turn 1 lists no phase (a turn \
             needs at least one step)"
        ),
        "{e}"
    );
}

#[test]
fn a_misspelt_key_of_the_sequence_is_named_at_its_line() {
    let e = load_error(
        "step",
        "\nhex.rules.sequence { step = { { side = \"blue\", phase = \"movement\" } } }\n",
    );
    assert!(
        e.ends_with(
            "/step.lua:2: hex.rules.sequence: unknown key 'step' (did you mean 'steps'?) (the keys: steps, special)"
        ),
        "{e}"
    );
}

#[test]
fn a_misspelt_key_of_a_command_is_refused() {
    let e = load_error(
        "legals",
        r#"hex.commands.define("charge", { resolve = function() return {} end, legals = function() return {} end })
"#,
    );
    assert!(
        e.ends_with(
            "/legals.lua:1: hex.commands.define(\"charge\"): unknown key 'legals' (did you mean \
             'legal'?) (the keys: resolve, legal, args)"
        ),
        "{e}"
    );
    let e = load_error(
        "legal_table",
        r#"hex.commands.define("charge", { resolve = function() return {} end, legal = {} })
"#,
    );
    assert!(
        e.ends_with("hex.commands.define(\"charge\"): 'legal' must be a function, not a table"),
        "{e}"
    );
}

#[test]
fn unit_types_without_a_movement_class_are_named_when_the_rules_load() {
    let e = load_error(
        "classes",
        r#"hex.rules.get("movement").unit_class = { by_type = { nothing = "foot" } }
"#,
    );
    assert!(
        e.contains(
            "the rules' movement declaration (hex.rules.declare(\"movement\", ...)): unit_class \
             gives no class to the scenario's units of type '"
        ) && e.ends_with("add the type to unit_class.by_type, or give unit_class a default"),
        "{e}"
    );
}

#[test]
fn the_engines_move_takes_no_argument_it_would_drop() {
    let mut args = serde_json::Map::new();
    args.insert("command".into(), "move".into());
    args.insert("unit".into(), "b1".into());
    args.insert("path".into(), serde_json::json!(["0302"]));
    args.insert("mode".into(), "strategic".into());
    assert_eq!(
        Command::try_from(args).unwrap_err(),
        "move: unknown argument 'mode' (a move takes unit and path, or to; facing and units make \
         it a facing game's move; a command of the rules' own takes any)"
    );
}

/// A move with `facing` or `units` goes to the rules whole; the demo's `move` declares its
/// `args`, so the extra keys are refused there instead of dropped.
#[test]
fn a_demo_move_given_a_facing_game_s_keys_is_refused() {
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let side = session.game.phasing_side().unwrap();
    let cmd: Command = serde_json::from_value(serde_json::json!({
        "command": "move", "unit": "b-inf-1", "path": ["0302"], "facing": 3, "mode": "rail"
    }))
    .unwrap();
    match session.game.submit(Some(&side), &cmd) {
        Err(GameError::Refused(r)) => assert_eq!(
            (r.rule.as_str(), r.reason.as_str()),
            (
                "command",
                "move: unknown argument 'facing' (it takes unit, path)"
            )
        ),
        other => panic!("{other:?}"),
    }
}

/// Asserts that `command` is refused by the host (rule `command`, reason `why`) and that the
/// state is still `before` (its JSON).
fn refused_unchanged(
    session: &mut Session,
    side: &str,
    command: &Command,
    why: &str,
    before: &str,
) {
    match session.game.submit(Some(side), command) {
        Err(GameError::Refused(r)) => {
            assert_eq!((r.rule.as_str(), r.reason.as_str()), ("command", why))
        }
        other => panic!("{why}: {other:?}"),
    }
    assert_eq!(
        serde_json::to_string(session.game.state()).unwrap(),
        before,
        "{why}"
    );
}

/// A `move` built by hand as a rules' command (`Command::Custom`), without a facing game's
/// `facing` or `units`, is read as the engine reads a move: a missing or malformed path is
/// refused (rule `command`), not handed to the rules, whose `move` failed on it as a rules error.
#[test]
fn a_hand_built_move_is_checked_as_the_engines_move() {
    let mut session = Session::start(Path::new("scenarios/demo"), Some(1)).unwrap();
    let side = session.game.phasing_side().unwrap();
    let before = serde_json::to_string(session.game.state()).unwrap();
    let custom = |args: serde_json::Value| Command::Custom {
        name: "move".into(),
        args: args.as_object().unwrap().clone(),
    };
    for (args, why) in [
        (
            serde_json::json!({"unit": "b-inf-1"}),
            "move: give 'path' (a list of hex labels or area locations) or 'to'",
        ),
        (
            serde_json::json!({"unit": "b-inf-1", "path": [3]}),
            "move: path entries must be hex labels, found 3",
        ),
        (
            serde_json::json!({"path": ["0302"]}),
            "move: 'unit' must be a unit id string",
        ),
    ] {
        refused_unchanged(&mut session, &side, &custom(args), why, &before);
    }
    // A well-formed one is the engine's move.
    let listed = session.game.legal_commands(&side).unwrap();
    let Some(Command::Move { unit, path }) =
        listed.iter().find(|c| matches!(c, Command::Move { .. }))
    else {
        panic!("no move listed")
    };
    let args = serde_json::json!({"unit": unit, "path": path});
    assert!(session.game.submit(Some(&side), &custom(args)).is_ok());
}

/// The rules error of a `teleport` command whose only event is `moved` (Lua, the fields of a
/// UnitMoved of b-inf-1, which stands at 0102), with the state unchanged by it. `name` keeps
/// each test's rules file apart.
fn teleport_error(name: &str, moved: &str) -> String {
    let mut s = demo_with(
        name,
        &format!(
            "hex.commands.define(\"teleport\", {{ resolve = function(cmd, side)\n  return {{ {{ event = \"UnitMoved\", unit = \"b-inf-1\", {moved} }} }}\nend }})\n"
        ),
    )
    .unwrap();
    let before = s.game.state().clone();
    let side = s.game.phasing_side().unwrap();
    let teleport = Command::Custom {
        name: "teleport".into(),
        args: serde_json::Map::new(),
    };
    let Err(GameError::Rules(e)) = s.game.submit(Some(&side), &teleport) else {
        panic!("expected a rules error")
    };
    assert_eq!(s.game.state(), &before);
    e.message
}

#[test]
fn a_move_from_where_the_unit_is_not_is_a_rules_error() {
    assert_eq!(
        teleport_error(
            "teleport",
            r#"from = "0101", to = "0202", path = { "0202" }, cost = 0"#
        ),
        "command 'teleport' made an event that cannot be applied: cannot apply UnitMoved: unit \
         'b-inf-1' is at 0102, not at 0101"
    );
}

/// A move without `from` brings a unit onto the map: for a unit already on it, it read "from
/// nowhere" in the log, and the unit jumped to any place.
#[test]
fn a_move_without_from_of_a_unit_on_the_map_is_a_rules_error() {
    assert_eq!(
        teleport_error(
            "teleport_onto_the_map",
            r#"to = "0909", path = { "0909" }, cost = 0"#
        ),
        "command 'teleport' made an event that cannot be applied: cannot apply UnitMoved: unit \
         'b-inf-1' is at 0102: a move without 'from' brings a unit onto the map (give from = \"0102\")"
    );
}

#[test]
fn a_bad_argument_to_a_die_and_an_empty_path_are_named() {
    let mut s = demo_with(
        "dice",
        r#"hex.commands.define("roll", { resolve = function() hex.dice.roll(-3) end })
hex.commands.define("nowhere", { resolve = function()
  local r = hex.path.check("b-inf-1", {})
  return hex.refuse(r.rule, r.reason)
end })
hex.commands.define("onehex", { resolve = function() hex.path.check("b-inf-1", "0502") end })
"#,
    )
    .unwrap();
    let side = s.game.phasing_side().unwrap();
    let named = |name: &str| Command::Custom {
        name: name.into(),
        args: serde_json::Map::new(),
    };
    let Err(GameError::Rules(e)) = s.game.submit(Some(&side), &named("roll")) else {
        panic!("expected a rules error")
    };
    assert!(
        e.message
            .ends_with("/dice.lua:1: bad argument #1 to 'hex.dice.roll' (integer out of range)"),
        "{}",
        e.message
    );
    let Err(GameError::Refused(r)) = s.game.submit(Some(&side), &named("nowhere")) else {
        panic!("expected a refusal")
    };
    assert_eq!(
        r.to_string(),
        "command: a move needs a path of at least one hex"
    );
    // (a list the host function takes, named as a script writes it, not `Vec<String>`)
    let Err(GameError::Rules(e)) = s.game.submit(Some(&side), &named("onehex")) else {
        panic!("expected a rules error")
    };
    assert!(
        e.message.ends_with(
            "/dice.lua:6: bad argument #2 to 'hex.path.check' (list expected, got string)"
        ),
        "{}",
        e.message
    );
}

/// A declaration the host cannot read (a function where data is expected) names where it was
/// declared.
#[test]
fn an_unreadable_declaration_names_its_line() {
    let e = load_error(
        "fn_decl",
        "\n\nhex.rules.declare(\"movement\", { unit_class = function() end })\n",
    );
    assert!(
        e.contains("/fn_decl.lua:3: declaration 'movement': "),
        "{e}"
    );
}

/// The line is kept when other declarations follow it: each declaration notes its own place
/// beside the others' (a fresh table of places at each one kept only the last).
#[test]
fn an_unreadable_declaration_followed_by_others_still_names_its_line() {
    let e = load_error(
        "fn_decl_then_more",
        "\n\nhex.rules.declare(\"movement\", { unit_class = function() end })\n\
         hex.rules.declare(\"my_notes\", { n = 1 })\n",
    );
    assert!(
        e.contains("/fn_decl_then_more.lua:3: declaration 'movement': "),
        "{e}"
    );
}

/// `hex.rules.caller_error` outside a query is a script error that still says its message.
#[test]
fn a_caller_error_outside_a_query_is_a_script_error_with_its_message() {
    let e = load_error(
        "caller_error_at_load",
        "hex.rules.caller_error(\"give { unit = ID }\")\n",
    );
    assert!(
        e.contains("/caller_error_at_load.lua:1: give { unit = ID }"),
        "{e}"
    );
}

/// A string of bytes that are not UTF-8 text, where the API wants text, is named as such (it
/// read "string expected, got string").
#[test]
fn a_string_that_is_not_utf8_text_is_named() {
    let mut s = demo_with(
        "bytes",
        r#"hex.commands.define("bytes", { resolve = function() return hex.state.set("\255\254", 1) end })
"#,
    )
    .unwrap();
    let side = s.game.phasing_side().unwrap();
    let bytes = Command::Custom {
        name: "bytes".into(),
        args: serde_json::Map::new(),
    };
    let Err(GameError::Rules(e)) = s.game.submit(Some(&side), &bytes) else {
        panic!("expected a rules error")
    };
    assert!(
        e.message.ends_with(
            "/bytes.lua:1: bad argument #1 to 'hex.state.set' (UTF-8 text expected, got a string of other \
             bytes)"
        ),
        "{}",
        e.message
    );
}

/// A command's `args` is a list of distinct argument names, or a table of their kinds,
/// `command` left out: anything else is refused where the command is defined.
#[test]
fn a_commands_args_must_be_a_list_of_distinct_argument_names_or_their_kinds() {
    for (name, args, why) in [
        (
            "args_text",
            "\"unit\"",
            "'args' must be a list of argument names or a table of their kinds, not a string",
        ),
        (
            "args_keyed",
            "{ \"unit\", times = true }",
            "'args' 'times' is true, not a kind (a string such as \"place\")",
        ),
        (
            "args_gap",
            "{ \"unit\", [3] = \"target\" }",
            "'args' has the key 3: names are listed 1, 2, 3 ... without gaps, like { \"unit\", \
             \"target\" }, and kinds keyed by name, like { unit = \"unit\", target = \"place\" }",
        ),
        (
            "args_name_and_kind",
            "{ \"unit\", unit = \"unit\" }",
            "'args' lists 'unit' twice",
        ),
        (
            "args_kind_unknown",
            "{ unit = \"unit\", times = \"count\" }",
            "'args' 'times': 'count' is not a kind of argument (the kinds: unit, place, string, \
             units, places, path, strings, number, integer, boolean, list, table, any, direction; \
             a '?' after one makes the argument optional)",
        ),
        (
            "args_kind_not_text",
            "{ unit = true }",
            "'args' 'unit' is true, not a kind (a string such as \"place\")",
        ),
        (
            "args_kind_command",
            "{ command = \"string\" }",
            "'args' lists 'command', which every command has: leave it out",
        ),
        (
            "args_number",
            "{ \"unit\", 3 }",
            "'args' #2 is 3, not an argument name (a string)",
        ),
        (
            "args_command",
            "{ \"command\", \"unit\" }",
            "'args' lists 'command', which every command has: leave it out",
        ),
        (
            "args_twice",
            "{ \"unit\", \"unit\" }",
            "'args' lists 'unit' twice",
        ),
    ] {
        let e = load_error(
            name,
            &format!(
                "hex.commands.define(\"salute\", {{ args = {args}, resolve = function() return {{}} end }})\n"
            ),
        );
        assert!(
            e.ends_with(&format!(
                "/{name}.lua:1: hex.commands.define(\"salute\"): {why}"
            )),
            "{name}: {e}"
        );
    }
}

/// A command that declares its `args` has any other argument refused by the host, before its
/// `resolve` runs (a misspelt optional argument would otherwise be dropped unread); the state
/// stays as it was. Without `args` a command takes any argument.
#[test]
fn a_command_declaring_its_args_has_any_other_refused_before_its_rules_run() {
    let mut session = demo_with(
        "salute",
        r#"
local function resolve(cmd)
  if cmd.tims ~= nil then error("resolve ran with an argument it does not take") end
  return { { event = "Custom", name = "Saluted", data = { unit = cmd.unit, times = cmd.times } } }
end
hex.commands.define("salute", { args = { "unit", "times" }, resolve = resolve })
hex.commands.define("wave", { args = {}, resolve = function() return {} end })
hex.commands.define("shout", { resolve = function(cmd) return {} end })
"#,
    )
    .unwrap();
    let side = session.game.phasing_side().unwrap();
    let command = |name: &str, args: serde_json::Value| Command::Custom {
        name: name.into(),
        args: args.as_object().unwrap().clone(),
    };
    let before = serde_json::to_string(session.game.state()).unwrap();
    for (cmd, why) in [
        (
            command("salute", serde_json::json!({"unit": "b1", "tims": 3})),
            "salute: unknown argument 'tims' (it takes unit, times)",
        ),
        (
            command("wave", serde_json::json!({"hand": "left"})),
            "wave: unknown argument 'hand' (it takes none)",
        ),
    ] {
        match session.game.submit(Some(&side), &cmd) {
            Err(GameError::Refused(r)) => {
                assert_eq!((r.rule.as_str(), r.reason.as_str()), ("command", why))
            }
            other => panic!("{why}: {other:?}"),
        }
        let after = serde_json::to_string(session.game.state()).unwrap();
        assert_eq!(after, before, "{why}: the state changed");
    }
    // the arguments it takes (some may be left out), none, and any for a command without `args`
    for cmd in [
        command("salute", serde_json::json!({"unit": "b1", "times": 3})),
        command("salute", serde_json::json!({"unit": "b1"})),
        command("wave", serde_json::json!({})),
        command("shout", serde_json::json!({"anything": [1, 2]})),
    ] {
        assert!(session.game.submit(Some(&side), &cmd).is_ok(), "{cmd:?}");
    }
}

/// A command declaring the kinds of its arguments has a missing one, or one of the wrong kind
/// (a JSON `null` included), refused by the host as the player's mistake, with the state
/// unchanged: its `resolve`, which would fail on them, never runs. `hex.commands.get` gives
/// the kinds back, so a variant wrapping the command keeps them.
#[test]
fn a_command_declaring_argument_kinds_has_a_misfit_refused_before_its_rules_run() {
    let mut session = demo_with(
        "kinds",
        r#"
local function resolve(cmd)
  local n = #cmd.units + cmd.times + #cmd.to   -- fails on anything but the declared kinds
  return { { event = "Custom", name = "Saluted", data = { n = n } } }
end
hex.commands.define("salute", { args = { units = "units", to = "place", times = "integer", note = "string?" },
  resolve = resolve })
local base = hex.commands.get("salute")
local args = base.args
args[#args + 1] = "extra"   -- a wrapper adding an argument of any kind
hex.commands.define("salute", { args = args, resolve = function(cmd, side) return base.resolve(cmd, side) end })
"#,
    )
    .unwrap();
    let side = session.game.phasing_side().unwrap();
    let salute = |args: serde_json::Value| Command::Custom {
        name: "salute".into(),
        args: args.as_object().unwrap().clone(),
    };
    let before = serde_json::to_string(session.game.state()).unwrap();
    for (args, why) in [
        (
            serde_json::json!({"units": ["b1"], "to": null, "times": 2}),
            "salute: argument 'to' must be a place label (a string), not null",
        ),
        (
            serde_json::json!({"units": "b1", "to": "0302", "times": 2}),
            "salute: argument 'units' must be a list of unit ids, not a string, \"b1\"",
        ),
        (
            serde_json::json!({"units": ["b1"], "to": "0302"}),
            "salute: argument 'times' is missing (a whole number)",
        ),
        (
            serde_json::json!({"units": ["b1"], "to": "0302", "times": 2.5}),
            "salute: argument 'times' must be a whole number, not a number, 2.5",
        ),
        (
            serde_json::json!({"units": ["b1"], "to": "0302", "times": 2, "note": {"a": 1}}),
            "salute: argument 'note' must be a string, not a table, {\"a\":1}",
        ),
        (
            serde_json::json!({"units": ["b1"], "to": "0302", "times": 2, "tims": 1}),
            "salute: unknown argument 'tims' (it takes extra, note, times, to, units)",
        ),
    ] {
        refused_unchanged(&mut session, &side, &salute(args), why, &before);
    }
    // the optional `note` (and the wrapper's `extra`) may be left out; a whole number written
    // 2.0 is a whole number; `extra` takes any value
    for args in [
        serde_json::json!({"units": ["b1"], "to": "0302", "times": 2}),
        serde_json::json!({"units": ["b1"], "to": "0302", "times": 2.0, "extra": {"any": [1]}}),
    ] {
        let events = session.game.submit(Some(&side), &salute(args)).unwrap();
        assert!(events
            .iter()
            .any(|e| matches!(e, Event::Custom { name, .. } if name == "Saluted")));
    }
    let events = session
        .game
        .submit(
            Some(&side),
            &salute(serde_json::json!({"units": ["b1"], "to": "0302", "times": 2})),
        )
        .unwrap();
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Custom { name, .. } if name == "Saluted")));
}

/// The host keeps its own copy of a command's definition: a script changing the table it gave
/// `define` afterwards, or the one `get` hands out (during play too), changes nothing, so the
/// checks cannot be bypassed and every listing matches what a resumed save lists.
#[test]
fn a_commands_definition_cannot_be_changed_after_define() {
    let mut session = demo_with(
        "mutate",
        r#"
local def = { args = { "unit" }, resolve = function() return {} end }
hex.commands.define("salute", def)
def.args[1] = 3
def.legl = true
def.args = { "anything" }
hex.events.on("PhaseStarted", function()
  local move = hex.commands.get("move")
  move.legal = function() return {} end
  move.args = { "unit", "path", "cheat" }
  return hex.state.set("moves_listed", #hex.commands.legal("blue", { command = "move" }))
end)
"#,
    )
    .unwrap();
    let side = session.game.phasing_side().unwrap();
    let salute = |arg: &str| Command::Custom {
        name: "salute".into(),
        args: serde_json::json!({ arg: "b1" })
            .as_object()
            .unwrap()
            .clone(),
    };
    assert!(session.game.submit(Some(&side), &salute("unit")).is_ok());
    match session.game.submit(Some(&side), &salute("anything")) {
        Err(GameError::Refused(r)) => {
            assert_eq!(
                r.reason,
                "salute: unknown argument 'anything' (it takes unit)"
            )
        }
        other => panic!("{other:?}"),
    }
    // the handler ran at the phase's start, and the rules' own listing still gave the moves
    let moves = session
        .game
        .legal_commands(&side)
        .unwrap()
        .into_iter()
        .filter(|c| matches!(c, Command::Move { .. }))
        .count();
    assert_eq!(side, "blue");
    assert_eq!(
        session
            .game
            .state()
            .vars
            .get("moves_listed")
            .map(|v| (**v).clone()),
        Some(serde_json::json!(moves))
    );
}

/// A map zone one letter off a zone the declaration's vocabulary lets a map lack (`belgum` for
/// `belgium`) is a misspelt map: France 1940 played on without Belgium (F40-16.1 never
/// triggered) and `check` said ok. Now refused where the vocabulary is read.
#[test]
fn f40_16_1_a_misspelt_zone_in_the_map_is_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("scenarios/france1940");
    std::fs::create_dir_all(&scenario).unwrap();
    for entry in std::fs::read_dir(root.join("scenarios/france1940")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, scenario.join(path.file_name().unwrap())).unwrap();
        }
    }
    std::os::unix::fs::symlink(root.join("rules"), dir.path().join("rules")).unwrap();
    let map = scenario.join("map.toml");
    let text = std::fs::read_to_string(&map).unwrap();
    assert!(text.contains("B = \"belgium\""));
    std::fs::write(&map, text.replace("B = \"belgium\"", "B = \"belgum\"")).unwrap();
    let Err(e) = Session::start(&scenario, Some(1)) else {
        panic!("a map with a misspelt zone loaded");
    };
    let message = e.to_string();
    assert!(
        message.contains(
            "vocabulary.zones: this map has no zone 'belgium' but has 'belgum': a misspelling in the map? (the declaration's vocabulary lets a map lack 'belgium', not misname it)"
        ),
        "{message}"
    );
}

/// `hex.rules.query(name, fn)` declares a query: an answer that is no function is named (it
/// was a conversion error), and a bot asking a query through it during play is told what the
/// function is for (tests/lua_bot.rs).
#[test]
fn a_query_declared_without_a_function_is_named() {
    let e = load_error("query_string", "hex.rules.query(\"reach\", \"b-inf-1\")\n");
    assert!(
        e.ends_with(
            "/query_string.lua:1: hex.rules.query('reach', fn): fn must be a function (the \
             query's answer), not string"
        ),
        "{e}"
    );
}

/// `hex.rules.get` gives nil for a name no module declared, and an error naming the nearest
/// declared one for a name one or two letters off it (it gave nil, which a rule then read as
/// "nothing declared", the demo's stacking as no limit), as `hex.commands.get` does.
#[test]
fn a_misspelt_declaration_name_is_named_by_hex_rules_get() {
    let e = load_error(
        "limt",
        r#"local limit = hex.rules.get("stack_limt")
"#,
    );
    assert!(
        e.ends_with(
            "/limt.lua:1: hex.rules.get: nothing declared as 'stack_limt' (did you mean 'stack_limit'?)"
        ),
        "{e}"
    );
    assert!(demo_with(
        "absent",
        r#"assert(hex.rules.get("weather_table") == nil and hex.rules.get("stack_limit") == 2)
"#,
    )
    .is_ok());
}

/// A `legal` that answers one command table, a string, a table of other keys or a list with a
/// hole is a rules error naming the command and what came, from the host's listing and from
/// `hex.commands.legal` alike: the first three read as an empty listing, so the game played on
/// with nothing to do and its tests passed; a hole dropped the commands after it. Nil and an
/// empty list stay "nothing listed".
#[test]
fn a_legal_listing_of_the_wrong_shape_is_named() {
    let cases = [
        (
            r#"return { command = "salute", unit = "b1" }"#,
            "answered one command table, not a list of commands: wrap it, return { {command = ...} }",
        ),
        (r#"return "none""#, "answered a string, not a list of commands"),
        (r#"return true"#, "answered true, not a list of commands"),
        (
            r#"return { first = { command = "salute" } }"#,
            "answered a table without a list part (its keys: first), not a list of commands",
        ),
        // (a nil inside the list: `#` may answer the border past it, here 3, or before it,
        // below; both dropped the commands after it, and not alike everywhere)
        (
            r#"return { { command = "salute", unit = "b1" }, nil, { command = "salute", unit = "b1" } }"#,
            "answered a list with nothing at #2 (its last item is #3): a nil in a list of \
             commands would drop the commands after it",
        ),
        (
            r#"local t = { { command = "salute", unit = "b1" } }; t[4] = { command = "salute" }; return t"#,
            "answered a list with nothing at #2 (its last item is #4): a nil in a list of \
             commands would drop the commands after it",
        ),
    ];
    for (i, (answer, why)) in cases.iter().enumerate() {
        let text = format!(
            "hex.commands.define(\"salute\", {{ args = {{ unit = \"unit\" }},\n  \
             legal = function(side) {answer} end,\n  resolve = function() return {{}} end }})\n\
             hex.rules.query(\"listing\", function() return #hex.commands.legal(hex.state.side()) end)\n\
             hex.rules.query(\"one\", function() return #hex.commands.legal(hex.state.side(), \
             {{ command = \"salute\" }}) end)\n"
        );
        let mut session = demo_with(&format!("listing{i}"), &text).unwrap();
        let side = session.game.phasing_side().unwrap();
        let e = session.game.legal_commands(&side).unwrap_err().to_string();
        assert!(
            e.contains("legal 'salute' (") && e.ends_with(why),
            "{answer}: {e}"
        );
        for query in ["listing", "one"] {
            let e = session
                .game
                .query(query, &serde_json::Value::Null)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("hex.commands.legal: legal 'salute' (") && e.contains(why),
                "{query}, {answer}: {e}"
            );
        }
    }
    for (i, answer) in ["return nil", "return {}"].iter().enumerate() {
        let text = format!(
            "hex.commands.define(\"salute\", {{ legal = function(side) {answer} end,\n  \
             resolve = function() return {{}} end }})\n"
        );
        let mut session = demo_with(&format!("nothing{i}"), &text).unwrap();
        let side = session.game.phasing_side().unwrap();
        let listed = session.game.legal_commands(&side).unwrap();
        assert!(
            listed.iter().all(|c| c.name() != "salute"),
            "{answer}: {listed:?}"
        );
    }
}

/// A before-handler answering `true` is a rules error: it let the event happen, which a
/// designer meaning "yes, block it" could not tell; `false` or `hex.refuse` refuse it.
#[test]
fn a_before_handler_answering_true_is_named() {
    let mut session = demo_with(
        "yes",
        "hex.events.before(\"UnitMoved\", function(ev) return true end)\n",
    )
    .unwrap();
    let side = session.game.phasing_side().unwrap();
    let mv = session
        .game
        .legal_commands(&side)
        .unwrap()
        .into_iter()
        .find(|c| matches!(c, Command::Move { .. }))
        .unwrap();
    let before = serde_json::to_string(session.game.state()).unwrap();
    let e = session
        .game
        .submit(Some(&side), &mv)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "yes.lua:1) returned true: a before-handler returns nothing to let the event \
                    happen, or hex.refuse(rule, reason) (or false) to refuse it"
        ),
        "{e}"
    );
    assert_eq!(serde_json::to_string(session.game.state()).unwrap(), before);
}

/// A side or movement class a script names wrongly to the path functions is named with the
/// nearest one and those there are (`unknown class 'infantry'` said neither).
#[test]
fn a_misspelt_side_or_class_given_to_the_path_functions_is_named() {
    let mut s = demo_with(
        "supplied",
        r#"hex.rules.query("side", function() return hex.path.supplied_hexes("blu", "foot", {}) end)
hex.rules.query("class", function() return hex.path.supplied_hexes("blue", "infantry", {}) end)
hex.rules.query("supply", function() return hex.path.supply({ { side = "rde", hexes = {} } }) end)
"#,
    )
    .unwrap();
    for (query, why) in [
        (
            "side",
            "hex.path.supplied_hexes: unknown side 'blu': did you mean 'blue'? (sides: blue, red)",
        ),
        (
            "class",
            "hex.path.supplied_hexes: unknown movement class 'infantry' (classes: foot)",
        ),
        (
            "supply",
            "hex.path.supply: unknown side 'rde': did you mean 'red'? (sides: blue, red)",
        ),
    ] {
        let e = s
            .game
            .query(query, &serde_json::Value::Null)
            .unwrap_err()
            .to_string();
        assert!(e.ends_with(why), "{query}: {e}");
    }
}

/// An argument declared as a place (`place`, `places`, `path`) that names no place of the board
/// is refused with the nearest name before the rules' `resolve` runs (it reached `resolve`,
/// whose `hex.map.region` answered nil, and the game failed with a rules error).
#[test]
fn a_place_argument_the_board_lacks_is_refused_with_the_nearest() {
    let text = r#"hex.commands.define("muster", { args = { at = "place", via = "places?" },
  resolve = function(cmd) return hex.state.set("mustered", cmd.at) end })
"#;
    let muster = |args: serde_json::Value| Command::Custom {
        name: "muster".into(),
        args: args.as_object().unwrap().clone(),
    };
    // A hex map: its labels' form.
    let mut s = demo_with("muster", text).unwrap();
    let side = s.game.phasing_side().unwrap();
    let before = serde_json::to_string(s.game.state()).unwrap();
    let Err(GameError::Refused(r)) = s.game.submit(
        Some(&side),
        &muster(serde_json::json!({"at": "0505", "via": ["0101", "9999"]})),
    ) else {
        panic!("expected a refusal")
    };
    assert_eq!(
        r.reason,
        "muster: argument 'via': '9999' is not a hex of the map (this 12×10 map's labels are 4 \
         digits, column then row: 0101 to 1210)"
    );
    assert_eq!(serde_json::to_string(s.game.state()).unwrap(), before);
    assert!(s
        .game
        .submit(Some(&side), &muster(serde_json::json!({"at": "0505"})))
        .is_ok());
    // An area map: the nearest region.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("decl-area");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("muster.lua");
    std::fs::write(&file, text).unwrap();
    let mut s = Session::start_with_mods(Path::new("scenarios/diplomacy"), Some(1), &[file])
        .map_err(|e| e.to_string())
        .unwrap();
    let Err(GameError::Refused(r)) = s
        .game
        .submit(Some("FRANCE"), &muster(serde_json::json!({"at": "PARR"})))
    else {
        panic!("expected a refusal")
    };
    assert_eq!(
        (r.rule.as_str(), r.reason.as_str()),
        (
            "command",
            "muster: argument 'at': 'PARR' is not a location of the map (did you mean 'PAR'?)"
        )
    );
}

/// A field of a table given to the API that holds the wrong kind of value is named, in a
/// script's words (mlua's message named neither: `error converting Lua table to String
/// (expected string or number)`).
#[test]
fn a_field_of_the_wrong_kind_is_named_in_a_scripts_words() {
    let mut s = demo_with(
        "supply_fields",
        r#"hex.rules.query("side_table", function() return hex.path.supply({ { side = {}, hexes = {} } }) end)
hex.rules.query("hexes_number", function() return hex.path.supply({ { side = "blue", hexes = 1 } }) end)
"#,
    )
    .unwrap();
    for (query, expected) in [
        (
            "side_table",
            "/supply_fields.lua:1: hex.path.supply: source #1: side: string expected, got table",
        ),
        (
            "hexes_number",
            "/supply_fields.lua:2: hex.path.supply: source #1: hexes: table expected, got integer",
        ),
    ] {
        let Err(e) = s.game.query(query, &serde_json::Value::Null) else {
            panic!("{query}: expected a rules error")
        };
        assert!(e.message.ends_with(expected), "{query}: {}", e.message);
    }
}

/// The rules error the phasing side's legal listing meets on the demo with mod `name`.
fn listing_error(name: &str, source: &str) -> hexwar::engine::RulesError {
    let mut s = demo_with(name, source).unwrap();
    let side = s.game.phasing_side().unwrap();
    match s.game.legal_commands(&side) {
        Err(e) => e,
        Ok(list) => panic!("expected a rules error, got {list:?}"),
    }
}

/// A command a listing returns holding a value that is no data (a coroutine) is named so, not
/// as serde's `deserialize error: unsupported value type `thread``.
#[test]
fn a_listed_command_holding_a_coroutine_is_named_in_a_scripts_words() {
    let e = listing_error(
        "listed_coroutine",
        r#"hex.commands.define("y", { legal = function() return { { command = "y", co = coroutine.create(print) } } end,
  resolve = function() return {} end })
"#,
    );
    assert!(
        e.message.ends_with(
            "/listed_coroutine.lua:1): not a command table: a coroutine is no data (a value holds \
             tables, strings, numbers and booleans)"
        ),
        "{}",
        e.message
    );
}

/// A variable set to a value that is no data (a function) is named so, with the call: it was
/// serde's `deserialize error: unsupported value type `function``.
#[test]
fn a_variable_set_to_a_function_is_named_in_a_scripts_words() {
    let mut s = demo_with(
        "var_function",
        r#"hex.commands.define("y", { resolve = function() return { hex.state.set("weather", function() end) } end })
"#,
    )
    .unwrap();
    let side = s.game.phasing_side().unwrap();
    let y = hexwar::engine::Command::Custom {
        name: "y".into(),
        args: Default::default(),
    };
    let Err(hexwar::engine::GameError::Rules(e)) = s.game.submit(Some(&side), &y) else {
        panic!("expected a rules error")
    };
    assert!(
        e.message.ends_with(
            "/var_function.lua:1: hex.state.set: a function is no data (a value holds tables, \
             strings, numbers and booleans)"
        ),
        "{}",
        e.message
    );
}

/// A command defined with an empty name is refused where it is defined: no order could name it
/// (it was accepted without a word).
#[test]
fn a_command_without_a_name_is_refused_where_it_is_defined() {
    let e = load_error(
        "nameless",
        "hex.commands.define(\"\", { resolve = function() return {} end })\n",
    );
    assert!(
        e.ends_with(
            "/nameless.lua:1: hex.commands.define(\"\"): a command needs a name (`move`, \
             `attack`, ...)"
        ),
        "{e}"
    );
}

/// The engine's own commands carry only their own arguments (`end_phase` none; `move` a unit and
/// a path, or `to`, plus `facing`/`units` in a facing game): an order with another is refused
/// before the rules see it, so declaring one is refused where it is written. It was accepted and
/// never seen.
#[test]
fn an_engine_commands_args_may_name_only_what_its_orders_carry() {
    let e = load_error(
        "end_phase_args",
        "hex.commands.define(\"end_phase\", { args = { force = \"boolean?\" }, resolve = function() return {} end })\n",
    );
    assert!(
        e.ends_with(
            "/end_phase_args.lua:1: hex.commands.define(\"end_phase\"): 'args' declares 'force', \
             but the engine's end_phase takes no arguments: an order could never give it (a \
             command that needs more takes a name of its own)"
        ),
        "{e}"
    );
    let e = load_error(
        "move_args",
        "hex.commands.define(\"move\", { args = { \"unit\", \"path\", \"mode\" }, resolve = function() return {} end })\n",
    );
    assert!(
        e.ends_with(
            "/move_args.lua:1: hex.commands.define(\"move\"): 'args' declares 'mode', but the \
             engine's move takes unit and path (or to); facing and units in a facing game: an \
             order could never give it (a command that needs more takes a name of its own)"
        ),
        "{e}"
    );
    // (what the orders do carry is declared as before)
    demo_with(
        "engine_args_ok",
        "hex.commands.define(\"end_phase\", { args = {}, resolve = function() return {} end })\n\
         hex.commands.define(\"move\", { args = { unit = \"unit\", path = \"path\", to = \"place?\", facing = \"any?\", units = \"any?\" }, resolve = function() return {} end })\n",
    )
    .unwrap();
}

/// During play `hex.rules.get` gives a read-only view of a declaration: reading goes through
/// (`pairs`, `ipairs`, `#`, nested tables, one view per table), a write is an error at its line
/// and the state stays as it was. A change was silently ignored by the compiled movement rules,
/// and a save would have lost it.
#[test]
fn a_declaration_is_read_only_during_play() {
    let mut session = demo_with(
        "mutates_in_play",
        r#"
hex.rules.declare("weather", { turns = { 2, 3 }, mud = { forest = 1 } })
-- (while the modules load, a variant may still extend a declaration)
hex.rules.get("weather").mud.marsh = 2
hex.commands.define("forecast", {
  resolve = function(cmd)
    local w = hex.rules.get("weather")
    local keys, sum = {}, 0
    for k in pairs(w) do keys[#keys + 1] = k end
    table.sort(keys)
    for _, t in ipairs(w.turns) do sum = sum + t end
    assert(table.concat(keys, ",") == "mud,turns" and #w.turns == 2 and sum == 5)
    assert(w.mud.marsh == 2 and w.mud == hex.rules.get("weather").mud)
    if cmd.change then w.mud.forest = 3 end
    return { { event = "Custom", name = "Forecast", data = { forest = w.mud.forest } } }
  end,
})
"#,
    )
    .unwrap();
    let side = session.game.phasing_side().unwrap();
    let forecast = |change: bool| Command::Custom {
        name: "forecast".into(),
        args: serde_json::json!({ "change": change })
            .as_object()
            .unwrap()
            .clone(),
    };
    session.game.submit(Some(&side), &forecast(false)).unwrap();
    let before = session.game.state().clone();
    let Err(GameError::Rules(e)) = session.game.submit(Some(&side), &forecast(true)) else {
        panic!("expected a rules error")
    };
    assert!(
        e.message.contains(
            "/mutates_in_play.lua:14: declarations are fixed once the rules have loaded (tried \
             to set 'forest' in one during play): the compiled rules would not see it and a save \
             would lose it; a value that changes in play lives in hex.state"
        ),
        "{}",
        e.message
    );
    assert_eq!(session.game.state(), &before);
}

/// `declare("victory", {...})` put a table where `hex.rules.victory` keeps the victory rule:
/// the game then ended with no winner and `check` said nothing. A hook's name, the host's own
/// `__` entries and a near miss of a declaration the host reads are refused where they are made.
#[test]
fn declare_refuses_a_hooks_name_the_hosts_entries_and_a_near_miss_of_movement() {
    for (name, text, expected) in [
        (
            "victory_name",
            "hex.rules.declare(\"victory\", { towns = 2 })\n",
            "/victory_name.lua:1: hex.rules.declare: 'victory' is where hex.rules.victory keeps \
             its declaration; name your own value otherwise (e.g. 'victory_settings')",
        ),
        (
            "sequence_name",
            "hex.rules.declare(\"sequence\", {})\n",
            "/sequence_name.lua:1: hex.rules.declare: 'sequence' is where hex.rules.sequence \
             keeps its declaration; name your own value otherwise (e.g. 'sequence_settings')",
        ),
        (
            "queries_name",
            "hex.rules.declare(\"__queries\", {})\n",
            "/queries_name.lua:1: hex.rules.declare: '__queries': names beginning with '__' are \
             the host's own",
        ),
        (
            "movment",
            "local m = hex.rules.get(\"movement\")\nhex.rules.declare(\"movment\", m)\n",
            "/movment.lua:2: hex.rules.declare: 'movment' (did you mean 'movement'? the host \
             reads hex.rules.declare(\"movement\", ...); name your own value apart from it)",
        ),
    ] {
        let e = load_error(name, text);
        assert!(e.ends_with(expected), "{name}: {e}");
    }
    // (names of the game's own stay free, however close to one another)
    demo_with(
        "own_names",
        "hex.rules.declare(\"victory_points\", 3)\nhex.rules.declare(\"move_cost\", 1)\n\
         hex.rules.declare(\"fencing\", 1)\nhex.rules.declare(\"moment\", 1)\n",
    )
    .expect("names of the game's own are declared, words two edits from the host's too");
}

/// Mistakes in the arguments of the `hex.*` queries that used to pass without a word (a source
/// given bare, a misspelt key, a 3-letter misspelling, an option of the wrong type) are named
/// at the script's line, with the function, the key and what it takes.
#[test]
fn mistakes_in_a_querys_arguments_are_named_with_the_function_and_the_key() {
    let calls = [
        // (one source, not a list of them: every unit answered `false`)
        r#"hex.path.supply({ side = "blue", hexes = { "0101" } })"#,
        r#"hex.path.supply({ { side = "blue", hexs = { "0101" } } })"#,
        r#"hex.commands.legal("blue", { command = "mvoe" })"#,
        r#"hex.commands.legal("blue", { unit = "nope" })"#,
        r#"hex.path.toward({ "0606" }, { { id = "b-inf-1", budgte = 4 } })"#,
        r#"hex.path.steps({ "0101" }, { limit = 3 })"#,
        r#"hex.path.toward({ "0606" }, { { id = "b-inf-1" } }, { first = 0 })"#,
        r#"hex.path.steps({ "0101" }, { impassable = { "laek" } })"#,
        r#"hex.units.ids("blue", { with = "moved" })"#,
        r#"hex.path.reach("b-inf-1", 4, { blocked = "0202" })"#,
        r#"hex.path.toward({ "0606" }, { { id = "b-inf-1" } }, { limit = -1 })"#,
        // (a source at a key outside the list, 0, and a list item that is no table)
        r#"hex.path.supply({ [0] = { side = "blue", hexes = { "0101" } } })"#,
        r#"hex.path.supply({ [0] = 5 })"#,
        r#"hex.path.supply({ 5 })"#,
    ];
    let expected = [
        "hex.path.supply: a list of sources { { side = ..., hexes = {...} }, ... } expected, got \
         a table with the keys 'hexes', 'side' (one source: put it in a list, { { side = ... } })",
        "hex.path.supply: source #1: unknown key 'hexs' (did you mean 'hexes'?) (the keys: side, \
         nations, hexes)",
        "hex.commands.legal: option 'command': the rules define no command 'mvoe' (did you mean \
         'move'?) (their commands: attack, end_phase, move)",
        "hex.commands.legal: option 'unit': no unit 'nope' in play",
        "hex.path.toward: unit #1: unknown key 'budgte' (did you mean 'budget'?) (the keys: id, \
         budget, supply)",
        "hex.path.steps: options: unknown key 'limit' (the keys: impassable)",
        "hex.path.toward: option 'first': a rank (a whole number from 1) expected, got integer 0",
        "hex.path.steps: impassable names 'laek', no terrain of this map (did you mean 'lake'?; \
         terrains: clear, forest, hills, lake, marsh)",
        "hex.units.ids: option 'with': a list of status names expected, got string \"moved\"",
        "hex.path.reach: option 'blocked': a list of hex labels expected, got string \"0202\"",
        "hex.path.toward: option 'limit': a count (a whole number, 0 or more) expected, got \
         integer -1",
        "hex.path.supply: a list of sources { { side = ..., hexes = {...} }, ... } expected, got \
         a table with the keys '0'",
        "hex.path.supply: a list of sources { { side = ..., hexes = {...} }, ... } expected, got \
         a table with the keys '0'",
        "hex.path.supply: source #1: table expected, got integer",
    ];
    let text: String = calls
        .iter()
        .enumerate()
        .map(|(i, call)| format!("hex.rules.query(\"q{i}\", function() return {call} end)\n"))
        .collect();
    let mut s = demo_with("query_mistakes", &text).unwrap();
    for (i, expected) in expected.iter().enumerate() {
        let Err(e) = s.game.query(&format!("q{i}"), &serde_json::Value::Null) else {
            panic!("{}: expected a rules error", calls[i])
        };
        let at = format!("/query_mistakes.lua:{}: {expected}", i + 1);
        assert!(e.message.ends_with(&at), "{}:\n{}", calls[i], e.message);
    }
}

/// A key that is no name (a number, a boolean, a float) in a query's options or in a `toward`
/// entry is named by its own type, not by the type of the table holding it; an entry of
/// `toward` that is no table is passed over by the key check (a later entry's misspelt key is
/// still the error) and refused by the entry's own check.
#[test]
fn keys_that_are_no_names_are_named_by_their_type_and_entries_that_are_no_tables_passed_over() {
    let calls = [
        r#"hex.path.steps({ "0101" }, { [1] = 3 })"#,
        r#"hex.path.toward({ "0606" }, { { id = "b-inf-1", [true] = 4 } })"#,
        r#"hex.path.toward({ "0606" }, { { id = "b-inf-1" }, { id = "b-inf-1", [2.5] = 1 } })"#,
        r#"hex.path.toward({ "0606" }, { 5, { id = "b-inf-1", budgte = 4 } })"#,
        r#"hex.path.toward({ "0606" }, { { id = "b-inf-1" }, "b-inf-1" })"#,
    ];
    let expected = [
        "hex.path.steps: options: a key that is a number, not a name (the keys: impassable)",
        "hex.path.toward: unit #1: a key that is a boolean, not a name (the keys: id, budget, \
         supply)",
        "hex.path.toward: unit #2: a key that is a number, not a name (the keys: id, budget, \
         supply)",
        "hex.path.toward: unit #2: unknown key 'budgte' (did you mean 'budget'?) (the keys: id, \
         budget, supply)",
        // (the entry's own check, naming the function and the entry: it was mlua's "table
        // expected, got string")
        "hex.path.toward: unit #2 is a string, not a table {id = ..., budget = ...}",
    ];
    let text: String = calls
        .iter()
        .enumerate()
        .map(|(i, call)| format!("hex.rules.query(\"q{i}\", function() return {call} end)\n"))
        .collect();
    let mut s = demo_with("key_types", &text).unwrap();
    for (i, expected) in expected.iter().enumerate() {
        let Err(e) = s.game.query(&format!("q{i}"), &serde_json::Value::Null) else {
            panic!("{}: expected a rules error", calls[i])
        };
        let at = format!("/key_types.lua:{}: {expected}", i + 1);
        assert!(e.message.ends_with(&at), "{}:\n{}", calls[i], e.message);
    }
}
/// What the checks of misuse still take: a unit view (`hex.units.get`) as a `toward` entry
/// (its fields are a unit's, none misspelt), and `legal` asked of a unit out of play (it lists
/// nothing; a bot may ask of one it knew), both accepted as before the checks.
#[test]
fn a_unit_view_as_a_toward_entry_and_legal_of_a_unit_out_of_play_are_taken() {
    let text = "hex.rules.query(\"view\", function() return #hex.path.toward({ \"0606\" }, \
                { hex.units.get(\"b-inf-1\") }) end)\n\
                hex.rules.query(\"gone\", function() return #hex.commands.legal(\"blue\", \
                { unit = \"b-inf-1\" }) end)\n";
    let mut s = demo_with("taken", text).unwrap();
    let null = serde_json::Value::Null;
    assert_eq!(
        s.game.query("view", &null).unwrap(),
        Some(serde_json::json!(1))
    );
    let eliminated = hexwar::engine::Event::UnitEliminated {
        unit: "b-inf-1".into(),
        reason: "test".into(),
    };
    let mut state = s.game.state().clone();
    hexwar::engine::apply(&mut state, &eliminated).unwrap();
    s.game.restore(state).unwrap();
    assert_eq!(
        s.game.query("gone", &null).unwrap(),
        Some(serde_json::json!(0))
    );
}

/// A skip rule's answer other than true, false or nil is an error: a truthy `phase ==
/// "combat" and 1` never skipped, and nothing said so.
#[test]
fn a_skip_rule_answering_other_than_a_boolean_is_an_error() {
    let mut s = demo_with(
        "skip_one",
        "hex.rules.skip(function(turn, step, phase) return phase == \"combat\" and 1 end)\n",
    )
    .unwrap();
    let Err(GameError::Rules(e)) = s.game.submit(Some("blue"), &Command::EndPhase) else {
        panic!("expected a rules error")
    };
    assert!(
        e.message.ends_with(
            "/skip_one.lua:1) returned an integer (1): return true to skip the step, or false \
             (or nothing) to play it"
        ),
        "{}",
        e.message
    );
    assert!(e.message.starts_with("skip rule ("), "{}", e.message);
}

/// A string answer is quoted and escaped: `returned a string ("yes")`, not `(yes)`.
#[test]
fn a_skip_rule_answering_a_string_names_it_quoted() {
    let mut s = demo_with(
        "skip_text",
        "hex.rules.skip(function(turn, step, phase) return phase == \"combat\" and \"yes\" end)\n",
    )
    .unwrap();
    let Err(GameError::Rules(e)) = s.game.submit(Some("blue"), &Command::EndPhase) else {
        panic!("expected a rules error")
    };
    assert!(
        e.message.ends_with(
            "/skip_text.lua:1) returned a string (\"yes\"): return true to skip the step, or \
             false (or nothing) to play it"
        ),
        "{}",
        e.message
    );
}

/// A `legal` listing a command the rules do not define is the listing's error: the random bot
/// took it, and was refused.
#[test]
fn a_listing_of_a_command_the_rules_do_not_define_is_an_error() {
    let e = listing_error(
        "listed_zpa",
        r#"hex.commands.define("zap", { legal = function() return { { command = "zpa" } } end,
  resolve = function() return {} end })
"#,
    );
    assert!(
        e.message.starts_with("legal 'zap' (")
            && e.message.ends_with(
                "/listed_zpa.lua:1) listed a command the rules do not define: 'zpa' (did you \
                 mean 'zap'?)"
            ),
        "{}",
        e.message
    );
}

/// `"*"` handlers take part in the priority order (they ran after every handler of the event,
/// whatever their priority); on equal priorities the event's own run first.
#[test]
fn handlers_of_every_event_run_by_priority_with_the_events_own() {
    let mut s = demo_with(
        "star_priority",
        r#"hex.commands.define("ping", { resolve = function() return { hex.events.emit("Ping") } end })
local function saw(tag)
  return function(ev)
    if ev.name == "Ping" then return { hex.events.emit("Saw", { tag = tag }) } end
  end
end
hex.events.on("Ping", saw("named 0"))
hex.events.on("*", saw("star 100"), 100)
hex.events.on("*", saw("star 0"))
hex.events.on("Ping", saw("named -5"), -5)
"#,
    )
    .unwrap();
    let ping = Command::Custom {
        name: "ping".into(),
        args: Default::default(),
    };
    let events = s.game.submit(Some("blue"), &ping).unwrap();
    let tags: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            hexwar::engine::Event::Custom { name, data } if name == "Saw" => {
                data.get("tag").and_then(|t| t.as_str()).map(str::to_string)
            }
            _ => None,
        })
        .collect();
    assert_eq!(tags, ["star 100", "named 0", "star 0", "named -5"]);
}
