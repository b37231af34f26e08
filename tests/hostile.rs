//! Hostile scripts (tests/hostile/scripts): each is stopped with an error naming the script and
//! line, the game state stays byte-identical, and the host answers the next call.

use std::path::Path;

use hexwar::engine::{Command, GameError, RulesError, RulesErrorKind};
use hexwar::Session;
use serde_json::{Map, Value};

fn hostile(script: &str) -> Command {
    let mut args = Map::new();
    args.insert("script".into(), Value::String(script.into()));
    Command::Custom {
        name: "hostile".into(),
        args,
    }
}

/// Runs one script; returns the error message after checking state and liveness.
fn run_hostile(script: &str) -> String {
    run_hostile_error(script).message
}

/// Runs one script; returns the rules error after checking state and liveness.
fn run_hostile_error(script: &str) -> RulesError {
    let mut session = Session::start(Path::new("tests/hostile"), Some(1)).expect("harness loads");
    let before = serde_json::to_string(session.game.state()).unwrap();
    let err = match session.game.submit(Some("blue"), &hostile(script)) {
        Err(GameError::Rules(e)) => e,
        other => panic!("{script}: expected a rules error, got {other:?}"),
    };
    let after = serde_json::to_string(session.game.state()).unwrap();
    assert_eq!(before, after, "{script}: the state changed");
    // The host still answers: a legal move goes through.
    let moved = session
        .game
        .submit(
            Some("blue"),
            &Command::Move {
                unit: "b1".into(),
                path: vec!["0303".into()],
            },
        )
        .unwrap_or_else(|e| panic!("{script}: host dead after the error: {e}"));
    assert!(moved.iter().any(|e| e.name() == "UnitMoved"));
    err
}

fn assert_contains(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "expected {part:?} in:\n{message}");
    }
}

#[test]
fn endless_loop_is_stopped_by_the_instruction_budget() {
    let m = run_hostile("endless_loop");
    assert_contains(
        &m,
        &[
            "hostile/scripts/endless_loop.lua:2:",
            "instruction budget of 2000000 instructions exceeded",
        ],
    );
}

#[test]
fn endless_loop_in_a_coroutine_is_stopped() {
    let m = run_hostile("endless_loop_in_coroutine");
    assert_contains(
        &m,
        &[
            "hostile/scripts/endless_loop_in_coroutine.lua:4:",
            "instruction budget",
        ],
    );
}

/// The pattern functions' guard is a C function (src/rules/lua_stack/pattern_guard.rs): errors
/// raised inside the original it calls cross it, and the host survives them.
#[test]
fn endless_loop_in_a_gsub_replacement_function_is_stopped() {
    let m = run_hostile("endless_loop_in_gsub_callback");
    assert_contains(
        &m,
        &[
            "hostile/scripts/endless_loop_in_gsub_callback.lua:3:",
            "instruction budget of 2000000 instructions exceeded",
        ],
    );
}

#[test]
fn memory_bomb_inside_gsub_hits_the_memory_limit() {
    let m = run_hostile("memory_bomb_in_gsub");
    assert_contains(
        &m,
        &["command 'hostile' (hostile/harness.lua:4): memory limit of 32 MiB exceeded"],
    );
    // (what to do about it, as the instruction budget's message says)
    assert!(
        m.ends_with("; raise [limits] memory_mb in the scenario if the rules really need more"),
        "{m}"
    );
}

/// `RulesError::kind` names the limit that stopped a script, so a host can tell a mod's bug
/// from a mod's appetite without reading the message.
#[test]
fn the_rules_error_names_the_limit_that_stopped_the_script() {
    for (script, kind) in [
        ("endless_loop", RulesErrorKind::InstructionBudget),
        ("pcall_swallows_budget", RulesErrorKind::InstructionBudget),
        ("string_rep_loop", RulesErrorKind::InstructionBudget),
        ("long_string_concat_loop", RulesErrorKind::WallClock),
        ("memory_bomb_table", RulesErrorKind::Memory),
        ("memory_bomb_in_gsub", RulesErrorKind::Memory),
        ("error_with_table", RulesErrorKind::Script),
        ("bad_event_off_map", RulesErrorKind::Script),
        ("io_open", RulesErrorKind::Script),
    ] {
        assert_eq!(run_hostile_error(script).kind, kind, "{script}");
    }
}

/// The memory error is raised again at every protected call, as the budget's is.
#[test]
fn a_memory_error_caught_by_pcall_is_raised_again() {
    assert_eq!(
        first_line_after_entry(&run_hostile("memory_caught_by_pcall")),
        "hostile/scripts/memory_caught_by_pcall.lua:4: memory limit of 32 MiB exceeded (caught by a protected call and raised again: a script may not go on past the limit)"
    );
    let e = run_hostile_error("memory_caught_by_pcall");
    assert_eq!(e.kind, RulesErrorKind::Memory);
}

/// Under xpcall too: Lua calls no message handler for a memory error, so the script got
/// `false, "not enough memory"` back and went on, and where the error fell (which depends on
/// the VM's history) changed the game after a save and resume.
#[test]
fn a_memory_error_caught_by_xpcall_is_raised_again() {
    assert_eq!(
        first_line_after_entry(&run_hostile("memory_caught_by_xpcall")),
        "hostile/scripts/memory_caught_by_xpcall.lua:4: memory limit of 32 MiB exceeded (caught by a protected call and raised again: a script may not go on past the limit)"
    );
    assert_eq!(
        run_hostile_error("memory_caught_by_xpcall").kind,
        RulesErrorKind::Memory
    );
}

#[test]
fn memory_bomb_table_hits_the_memory_limit() {
    let m = run_hostile("memory_bomb_table");
    assert_contains(
        &m,
        &[
            "memory limit of 32 MiB exceeded",
            "hostile/scripts/memory_bomb_table.lua:3",
        ],
    );
}

/// `string.rep` is charged the bytes it would make before it makes them: a gigabyte is refused
/// by the budget before any memory is taken.
#[test]
fn a_huge_string_rep_is_refused_by_the_budget_before_it_allocates() {
    let m = run_hostile("memory_bomb_string_rep");
    assert_eq!(
        first_line_after_entry(&m),
        one_call_error_at("memory_bomb_string_rep", 2, "string.rep asks for 268435456")
    );
}

#[test]
fn io_library_is_absent() {
    let m = run_hostile("io_open");
    assert_contains(&m, &["hostile/scripts/io_open.lua:2:", "global 'io'"]);
}

#[test]
fn os_library_is_absent() {
    let m = run_hostile("os_execute");
    assert_contains(&m, &["hostile/scripts/os_execute.lua:2:", "global 'os'"]);
}

#[test]
fn load_of_bytecode_is_refused() {
    let m = run_hostile("load_bytecode");
    assert_contains(
        &m,
        &[
            "hostile/scripts/load_bytecode.lua:3:",
            "binary chunks are not allowed",
        ],
    );
}

#[test]
fn require_outside_the_rule_roots_is_refused() {
    let m = run_hostile("require_outside_roots");
    assert_contains(
        &m,
        &[
            "hostile/scripts/require_outside_roots.lua:2:",
            "paths, '..' and '/' are not allowed",
        ],
    );
}

#[test]
fn string_dump_is_absent() {
    let m = run_hostile("string_dump");
    assert_contains(&m, &["hostile/scripts/string_dump.lua:2:", "field 'dump'"]);
}

#[test]
fn dofile_is_absent() {
    let m = run_hostile("dofile");
    assert_contains(&m, &["hostile/scripts/dofile.lua:2:", "global 'dofile'"]);
}

#[test]
fn collectgarbage_stop_is_refused() {
    let m = run_hostile("collectgarbage_stop");
    assert_contains(
        &m,
        &[
            "hostile/scripts/collectgarbage_stop.lua:2:",
            "collectgarbage(\"stop\") is not allowed",
        ],
    );
}

/// What the collector would tell depends on the VM's history, which a replay does not repeat.
#[test]
fn collectgarbage_count_is_refused() {
    assert_eq!(
        first_line_after_entry(&run_hostile("collectgarbage_count")),
        "hostile/scripts/collectgarbage_count.lua:3: collectgarbage(\"count\") is not allowed in hexwar rules: the heap's size depends on what the VM did before, which a replay or a loaded save does not repeat"
    );
}

#[test]
fn the_api_table_is_read_only() {
    let m = run_hostile("tamper_api");
    assert_contains(
        &m,
        &[
            "hostile/scripts/tamper_api.lua:2:",
            "the hex API is read-only",
        ],
    );
}

#[test]
fn deep_recursion_is_stopped() {
    let m = run_hostile("deep_recursion");
    assert_contains(&m, &["hostile/scripts/deep_recursion.lua:1"]);
}

#[test]
fn c_stack_overflow_names_the_script_line() {
    let m = run_hostile("c_stack_overflow");
    assert!(
        m.starts_with(
            "command 'hostile' (hostile/harness.lua:4): hostile/scripts/c_stack_overflow.lua:4: \
             C stack overflow\nstack traceback:"
        ),
        "{m}"
    );
}

#[test]
fn pcall_cannot_swallow_the_budget() {
    let m = run_hostile("pcall_swallows_budget");
    assert_contains(
        &m,
        &[
            "hostile/scripts/pcall_swallows_budget.lua:3:",
            "instruction budget",
        ],
    );
}

#[test]
fn endless_loop_in_a_metamethod_is_stopped() {
    let m = run_hostile("loop_in_metamethod");
    assert_contains(
        &m,
        &[
            "hostile/scripts/loop_in_metamethod.lua:2:",
            "instruction budget",
        ],
    );
}

/// A script's message of several lines keeps its later lines indented, so none reads as the
/// host's own `error:` line or summary (they were printed at the margin).
#[test]
fn an_error_message_cannot_forge_the_hosts_lines() {
    let m = run_hostile("error_with_forged_lines");
    assert_contains(
        &m,
        &["hostile/scripts/error_with_forged_lines.lua:3: first\n  error: rules/demo/init.lua:3: FORGED second error\n  1 error(s) in scenarios/demo"],
    );
    assert!(
        (m.lines().skip(1)).all(|l| l.starts_with([' ', '\t']) || l == "stack traceback:"),
        "{m}"
    );
}

/// A message with NUL bytes is shown whole, each NUL written `\x00` (it ended at the first NUL).
#[test]
fn error_with_nul_bytes_is_shown_whole() {
    let m = run_hostile("error_with_nul_bytes");
    assert_contains(
        &m,
        &["hostile/scripts/error_with_nul_bytes.lua:4: visible\\x00hidden part\\x00 end\n"],
    );
}

/// A handler's answer is read raw, as plain data: the metamethods of the table it returns are
/// never run. (`contains_key("event")` ran a returned table's `__index` and dropped its error:
/// a looping one spent the whole instruction budget at each call, and the game played on with
/// no events and no error, 41 times in a demo game.)
#[test]
fn the_metamethods_of_an_answer_are_not_run() {
    let mut session = Session::start(Path::new("tests/hostile"), Some(1)).expect("harness loads");
    let events = session
        .game
        .submit(Some("blue"), &hostile("metamethods_on_the_answer"))
        .unwrap();
    let names: Vec<&str> = events.iter().map(|e| e.name()).collect();
    assert_eq!(names, ["VarSet"]);
    assert_eq!(*session.game.state().vars["k"], serde_json::json!(1));
}

#[test]
fn endless_loop_in_an_error_handler_is_stopped() {
    let m = run_hostile("loop_in_error_handler");
    assert_contains(
        &m,
        &[
            "hostile/scripts/loop_in_error_handler.lua:2:",
            "instruction budget",
        ],
    );
}

#[test]
fn endless_loop_in_a_finalizer_is_stopped() {
    let m = run_hostile("loop_in_gc");
    // Lua runs finalizers with hooks off, so the sandbox refuses to declare one at all.
    assert_contains(
        &m,
        &[
            "__gc finalizers are not allowed",
            "hostile/scripts/loop_in_gc.lua:2",
        ],
    );
}

#[test]
fn memory_bomb_by_concatenation_hits_the_memory_limit() {
    let m = run_hostile("memory_bomb_concat");
    // Twenty-odd doublings reach the limit before the hook ever ticks: the handler is named.
    assert_contains(
        &m,
        &["command 'hostile' (hostile/harness.lua:4): memory limit of 32 MiB exceeded"],
    );
}

#[test]
fn memory_bomb_by_table_concat_hits_the_memory_limit() {
    let m = run_hostile("memory_bomb_table_concat");
    assert_contains(&m, &["memory limit of 32 MiB exceeded"]);
}

#[test]
fn a_pathological_pattern_is_refused_before_it_runs() {
    let m = run_hostile("pathological_pattern");
    assert_contains(
        &m,
        &[
            "hostile/scripts/pathological_pattern.lua:3:",
            "string.find: pattern too expensive for a 100000-byte subject",
        ],
    );
}

/// What the backtracking estimate counts (sandbox::pattern_cost): every quantifier, `%b`
/// balances and back-references, and a number subject as the string it is read as.
#[test]
fn patterns_that_backtrack_for_hours_are_refused_however_written() {
    let refused = |m: String, script: &str, line: u32, subject: u32| {
        assert_contains(
            &m,
            &[
                &format!("hostile/scripts/{script}.lua:{line}:"),
                &format!("string.find: pattern too expensive for a {subject}-byte subject"),
            ],
        );
    };
    refused(
        run_hostile("pattern_many_quantifiers"),
        "pattern_many_quantifiers",
        4,
        10,
    );
    refused(
        run_hostile("pattern_number_subject"),
        "pattern_number_subject",
        4,
        19,
    );
    refused(
        run_hostile("pattern_balance"),
        "pattern_balance",
        5,
        1000000,
    );
    refused(
        run_hostile("pattern_backreference"),
        "pattern_backreference",
        5,
        31000,
    );
    // (no quantifier: every start compares up to the pattern's length; a plain find too)
    let m = run_hostile("pattern_long_literal");
    assert_contains(
        &m,
        &[
            "hostile/scripts/pattern_long_literal.lua:5:",
            "string.match: pattern too expensive for a 300000-byte subject",
        ],
    );
    refused(
        run_hostile("plain_find_long"),
        "plain_find_long",
        4,
        1200000,
    );
}

#[test]
fn rawset_on_the_api_is_refused() {
    let m = run_hostile("tamper_rawset");
    assert_contains(
        &m,
        &[
            "hostile/scripts/tamper_rawset.lua:2:",
            "the hex API is read-only (rawset refused), as are the standard libraries and the globals",
        ],
    );
}

/// One VM serves the whole game: what a script does to the globals or libraries every script
/// shares is refused, so a refused command cannot change later calls (run_hostile checks the
/// next move).
#[test]
fn the_globals_and_libraries_every_script_shares_are_locked() {
    assert_eq!(
        first_line_after_entry(&run_hostile("tamper_global_pairs")),
        "hostile/scripts/tamper_global_pairs.lua:4: 'pairs' is a standard global of hexwar rules and cannot be replaced (use a local)"
    );
    assert_eq!(
        first_line_after_entry(&run_hostile("tamper_global_hex")),
        "hostile/scripts/tamper_global_hex.lua:3: 'hex' is a standard global of hexwar rules and cannot be replaced (use a local)"
    );
    assert_eq!(
        first_line_after_entry(&run_hostile("tamper_library")),
        "hostile/scripts/tamper_library.lua:3: the standard library is read-only in hexwar rules (tried to set 'string.format'): use a local"
    );
    assert_eq!(
        first_line_after_entry(&run_hostile("global_during_play")),
        "hostile/scripts/global_during_play.lua:3: rules may not set globals during play (tried to set 'moves_seen'): keep game state in hex.state, helpers in locals or module tables"
    );
    assert_contains(
        &run_hostile("tamper_rawset_globals"),
        &[
            "hostile/scripts/tamper_rawset_globals.lua:3:",
            "rawset refused",
        ],
    );
}

/// A global made while the rules modules load (a helper function) is allowed and keeps working
/// during play.
#[test]
fn a_global_made_while_loading_serves_during_play() {
    let mut session = Session::start(Path::new("tests/hostile"), Some(1)).expect("harness loads");
    let command = Command::Custom {
        name: "loaded_global".into(),
        args: Map::new(),
    };
    session
        .game
        .submit(Some("blue"), &command)
        .expect("allowed");
    assert_eq!(
        session.game.state().vars.get("helper").map(|v| v.as_ref()),
        Some(&Value::String("made while loading".into()))
    );
}

/// Memory addresses differ from run to run: what scripts show of a table, function or thread
/// is its type (tostring, string.format's %s), and %p is refused.
#[test]
fn no_memory_address_reaches_what_scripts_make() {
    assert_eq!(
        first_line_after_entry(&run_hostile("addresses_in_text")),
        "hostile/scripts/addresses_in_text.lua:5: table|function thread custom|custom"
    );
    assert_eq!(
        first_line_after_entry(&run_hostile("address_in_refusal")),
        "hostile/scripts/address_in_refusal.lua:7: rules may not set globals during play (tried to set 'a table key'): keep game state in hex.state, helpers in locals or module tables / the hex API is read-only (tried to set 'function'); rules change the game by returning events"
    );
    assert_eq!(
        first_line_after_entry(&run_hostile("pointer_format")),
        "hostile/scripts/pointer_format.lua:3: string.format: %p shows a memory address, which differs from run to run (a game must replay the same)"
    );
}

/// getmetatable of a refusal gives no table to write a finalizer into.
#[test]
fn the_refusals_metatable_is_locked() {
    assert_contains(
        &run_hostile("tamper_refusal_metatable"),
        &[
            "hostile/scripts/tamper_refusal_metatable.lua:5:",
            "attempt to index a string value",
        ],
    );
}

#[test]
fn setmetatable_on_the_api_is_refused() {
    let m = run_hostile("tamper_setmetatable");
    assert_contains(
        &m,
        &[
            "hostile/scripts/tamper_setmetatable.lua:2:",
            "cannot change a protected metatable",
        ],
    );
}

#[test]
fn getmetatable_on_the_api_gives_nothing_to_tamper_with() {
    let m = run_hostile("tamper_getmetatable");
    assert_contains(
        &m,
        &[
            "hostile/scripts/tamper_getmetatable.lua:3:",
            "attempt to index a string value",
        ],
    );
}

#[test]
fn the_string_metatable_is_locked() {
    let m = run_hostile("tamper_string_metatable");
    assert_contains(
        &m,
        &[
            "hostile/scripts/tamper_string_metatable.lua:2:",
            "attempt to index a string value",
        ],
    );
}

#[test]
fn an_error_whose_value_is_a_table_is_reported() {
    let m = run_hostile("error_with_table");
    assert_contains(&m, &["command 'hostile' (hostile/harness.lua:4)"]);
    // (named by its type, never its address: the same message in every run)
    assert!(
        m.lines().next().unwrap_or("").ends_with(
            ".lua:2: error raised with a table, not a message (give error() a string saying what \
             went wrong)"
        ),
        "{m}"
    );
    assert!(!m.contains("0x"), "{m}");
}

#[test]
fn an_error_whose_value_is_a_function_is_reported() {
    let m = run_hostile("error_with_function");
    assert_contains(&m, &["command 'hostile' (hostile/harness.lua:4)"]);
    assert!(
        m.lines().next().unwrap_or("").ends_with(
            ".lua:2: error raised with a function, not a message (give error() a string saying \
             what went wrong)"
        ),
        "{m}"
    );
    assert!(!m.contains("0x"), "{m}");
}

#[test]
fn yielding_across_the_host_boundary_is_an_error() {
    let m = run_hostile("yield_across_host");
    assert_contains(&m, &["yield"]);
}

#[test]
fn debug_library_is_absent() {
    let m = run_hostile("debug_library");
    assert_contains(
        &m,
        &["hostile/scripts/debug_library.lua:2:", "global 'debug'"],
    );
}

#[test]
fn package_library_is_absent() {
    let m = run_hostile("package_library");
    assert_contains(
        &m,
        &["hostile/scripts/package_library.lua:2:", "global 'package'"],
    );
}

#[test]
fn loadfile_is_absent() {
    let m = run_hostile("loadfile");
    assert_contains(
        &m,
        &["hostile/scripts/loadfile.lua:2:", "global 'loadfile'"],
    );
}

#[test]
fn math_random_is_absent() {
    let m = run_hostile("math_random");
    assert_contains(
        &m,
        &[
            "hostile/scripts/math_random.lua:2:",
            "math.random is not in hexwar rules: chance comes from the host's seeded dice, hex.dice.roll(sides), so that a game replays",
        ],
    );
}

/// A member the `hex` API lacks is an error with the nearest name and the members, at the
/// script's line (it was `attempt to call a nil value (field 'onn')`).
#[test]
fn a_misspelt_hex_member_names_the_nearest() {
    let m = run_hostile("hex_typo");
    assert_contains(
        &m,
        &[
            "hostile/scripts/hex_typo.lua:2:",
            "hex.units has no member 'gett' (did you mean 'get'?) (its members: ",
        ],
    );
}

/// Every script in tests/hostile/scripts has a test above.
#[test]
fn every_hostile_script_is_tested() {
    let source = include_str!("hostile.rs");
    let mut missing = Vec::new();
    let mut count = 0;
    for entry in std::fs::read_dir("tests/hostile/scripts").unwrap() {
        let name = entry
            .unwrap()
            .path()
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        count += 1;
        if !source.contains(&format!("run_hostile(\"{name}\")"))
            && !source.contains(&format!("hostile(\"{name}\")"))
        {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "untested hostile scripts: {missing:?}");
    assert!(count >= 25, "only {count} hostile scripts");
}

#[test]
fn shared_subtables_in_an_event_are_not_expanded_without_bound() {
    let m = run_hostile("shared_subtable_bomb");
    assert!(
        m.ends_with(
            "malformed event #1: the value holds more than 1000000 values (a table shared at \
             several places counts at each)"
        ),
        "{m}"
    );
}

#[test]
fn coroutine_close_does_not_swallow_the_budget_error() {
    let m = run_hostile("close_swallows_budget");
    assert_contains(
        &m,
        &[
            "hostile/scripts/close_swallows_budget.lua:5:",
            "instruction budget",
        ],
    );
}

#[test]
fn events_sharing_one_big_table_are_bounded_together() {
    let m = run_hostile("events_share_a_big_table");
    assert_contains(
        &m,
        &[
            "returned malformed event #2",
            "the value holds more than 1000000 values (a table shared at several places counts at each)",
        ],
    );
}

/// Every roll is an event of the command: a loop of rolls stops at `events_per_command`, while
/// it rolls, not after the call has held millions of them.
#[test]
fn a_loop_of_dice_rolls_stops_at_the_events_a_command_may_have() {
    let m = run_hostile("dice_loop");
    assert_contains(
        &m,
        &[
            "hostile/scripts/dice_loop.lua:4:",
            "hex.dice.roll: more than 10000 rolls in one call (each roll is an event: [limits] events_per_command)",
        ],
    );
}

#[test]
fn events_sharing_one_big_string_are_bounded_together() {
    let m = run_hostile("events_share_a_big_string");
    assert_contains(
        &m,
        &[
            "returned malformed event #7",
            "the value holds more than 64000000 bytes of text (a string shared at several places counts at each)",
        ],
    );
}

/// Events a script returns are checked against the scenario before they are applied
/// (src/rules/event_check.rs): what the check refuses never reaches the state or the save.
#[test]
fn an_event_placing_a_unit_on_an_unknown_side_is_refused() {
    let m = run_hostile("bad_event_unknown_side");
    assert!(
        m.ends_with(
            "returned event #1 (UnitPlaced): unit 'x9': unknown side 'purple' (sides: blue, red)"
        ),
        "{m}"
    );
}

#[test]
fn an_event_moving_a_unit_off_the_map_is_refused_and_names_its_place_in_the_list() {
    let m = run_hostile("bad_event_off_map");
    assert!(
        m.ends_with("returned event #2 (UnitMoved): to '9999' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)"),
        "{m}"
    );
}

#[test]
fn a_phase_started_by_a_script_is_refused() {
    let m = run_hostile("bad_event_engine_only");
    assert!(
        m.ends_with(
            "returned event #1 (PhaseStarted): only the engine makes PhaseStarted events (phases \
             follow the sequence and `end_phase`; dice come from hex.dice)"
        ),
        "{m}"
    );
}

#[test]
fn a_custom_event_may_not_take_an_engine_event_name() {
    let m = run_hostile("bad_event_builtin_name");
    assert!(
        m.ends_with(
            "returned event #1 (UnitMoved): 'UnitMoved' is the name of an engine event; give the \
             custom event a name of its own"
        ),
        "{m}"
    );
}

#[test]
fn ta_r1_a_facing_outside_the_six_directions_is_refused_in_an_event() {
    let m = run_hostile("bad_event_facing");
    assert!(
        m.ends_with(
            "returned event #1 (UnitFacingChanged): facing 9 is not a direction: 0 to 5 (an \
             edge, or a corner for a phalanx; TA-R1)"
        ),
        "{m}"
    );
}

/// What the conversion to the host's data would change without a word is refused, naming the
/// event and the place in it (src/rules/bounded.rs).
#[test]
fn a_list_with_a_hole_in_an_event_is_refused_not_cut() {
    let m = run_hostile("lossy_event_value");
    assert!(
        m.ends_with(
            "returned malformed event #2: value.list is read as a list of 1 item, but holds 2 \
             keys: a list with a hole, or with named keys beside its items, would lose some of \
             them"
        ),
        "{m}"
    );
}

#[test]
fn a_nan_in_a_custom_event_is_refused_at_the_emitting_line() {
    let m = run_hostile("nan_in_custom_event");
    assert_contains(
        &m,
        &[
            "hostile/scripts/nan_in_custom_event.lua:3:",
            "odds[2] is NaN: a number must be finite to be saved",
        ],
    );
}

/// The log keeps lines of at most 4 KiB (and 10 000 of them): printing a huge string costs the
/// host no more than printing its start (the cut itself: `api/log.rs`'s unit test); the endless
/// loop after it is stopped as usual.
#[test]
fn printing_a_huge_string_keeps_the_log_line_short() {
    let m = run_hostile("print_bomb");
    assert_contains(
        &m,
        &["hostile/scripts/print_bomb.lua:7:", "instruction budget"],
    );
}

#[test]
fn table_move_over_a_huge_range_is_refused() {
    let m = run_hostile("table_move_huge_range");
    assert_contains(
        &m,
        &[
            "hostile/scripts/table_move_huge_range.lua:3:",
            "table.move: 1000000000000 elements to shift in one call (at most 16777216",
        ],
    );
}

/// A range written as floats Lua reads as integers is refused as an integer range is: 9e18
/// passed the guard's old bound (floats below 9e18) and ran in C for ever.
#[test]
fn table_move_over_a_float_range_near_2_63_is_refused() {
    assert_eq!(
        first_line_after_entry(&run_hostile("table_move_float_range")),
        "hostile/scripts/table_move_float_range.lua:4: table.move: 9000000000000000000 elements \
         to shift in one call (at most 16777216: a lying __len or a made-up range?)"
    );
}

#[test]
fn table_insert_under_a_lying_length_is_refused() {
    let m = run_hostile("table_insert_lying_len");
    assert_contains(
        &m,
        &[
            "hostile/scripts/table_insert_lying_len.lua:4:",
            "table.insert: 9223372036854775805 elements to shift in one call",
        ],
    );
}

#[test]
fn string_rep_of_an_empty_string_is_immediate() {
    let m = run_hostile("string_rep_empty_huge");
    assert_contains(
        &m,
        &[
            "hostile/scripts/string_rep_empty_huge.lua:5:",
            "instruction budget",
        ],
    );
}

/// The first line of a rules error: the message without the entry point's name before it or the
/// traceback after it.
fn first_line_after_entry(message: &str) -> &str {
    let line = message.lines().next().unwrap_or_default();
    line.split_once("): ").map_or(line, |(_, rest)| rest)
}

/// The budget error at `script`'s `line`, as every host charge and the hook raise it.
/// The budget error of one call that alone asks for more than the whole budget (`what`:
/// `string.rep asks for N`).
fn one_call_error_at(script: &str, line: u32, what: &str) -> String {
    format!(
        "hostile/scripts/{script}.lua:{line}: instruction budget of 2000000 instructions exceeded \
         by one call: {what} units of work at once (an argument far too large?)"
    )
}

fn budget_error_at(script: &str, line: u32) -> String {
    format!(
        "hostile/scripts/{script}.lua:{line}: instruction budget of 2000000 instructions exceeded \
         (an endless loop?); raise [limits] instructions in the scenario if the rule really \
         needs more"
    )
}

#[test]
fn a_reach_loop_is_charged_by_the_hexes_searched() {
    let m = run_hostile("path_reach_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("path_reach_loop", 4)
    );
}

#[test]
fn a_string_rep_loop_is_charged_by_the_bytes_made() {
    let m = run_hostile("string_rep_loop");
    assert_eq!(
        first_line_after_entry(&m),
        one_call_error_at("string_rep_loop", 4, "string.rep asks for 4194304")
    );
}

/// `load` catches what its reader raises, the budget's error included: raised again once `load`
/// returns (the loop of loads ran until killed at 40 s).
#[test]
fn a_loop_of_loads_whose_reader_loops_is_stopped() {
    let m = run_hostile("load_reader_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("load_reader_loop", 4)
    );
}

/// The same reader finishing its work over many loads returned its events after 60 million
/// instructions against a budget of 2 million.
#[test]
fn a_reader_cannot_carry_work_past_the_budget() {
    let m = run_hostile("load_reader_swallows_budget");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("load_reader_swallows_budget", 6)
    );
}

/// A module that fails is read and compiled again at every `require`: charged by its bytes, as
/// `load`'s text is.
#[test]
fn a_loop_requiring_a_failing_module_is_charged_by_its_bytes() {
    let m = run_hostile("require_failing_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("require_failing_loop", 3)
    );
}

/// 700 MB made from a number, refused before it allocates (it once went uncharged).
#[test]
fn string_rep_of_a_number_is_charged_as_its_string() {
    let m = run_hostile("string_rep_number");
    assert_eq!(
        first_line_after_entry(&m),
        one_call_error_at("string_rep_number", 3, "string.rep asks for 175000000")
    );
}

/// One `load` compiles at most 256 KiB: compiling is one C call nothing can interrupt.
#[test]
fn a_chunk_too_long_to_compile_at_once_is_refused() {
    assert_eq!(
        first_line_after_entry(&run_hostile("load_long_chunk")),
        "hostile/scripts/load_long_chunk.lua:4: load: a chunk of 1540013 bytes is too long (at most 262144 in one load: compiling is one step the budget cannot interrupt)"
    );
}

/// `table.move` of fewer than 2^24 elements went uncharged: only the backstop stopped a loop.
#[test]
fn a_table_move_loop_is_charged_by_the_elements_moved() {
    let m = run_hostile("table_move_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("table_move_loop", 6)
    );
}

#[test]
fn a_collectgarbage_loop_is_charged_by_the_heap_in_use() {
    let m = run_hostile("collect_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("collect_loop", 6)
    );
}

#[test]
fn a_table_concat_loop_is_charged_by_the_elements_and_bytes() {
    let m = run_hostile("table_concat_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("table_concat_loop", 5)
    );
}

#[test]
fn a_string_upper_loop_is_charged_by_the_bytes_made() {
    let m = run_hostile("string_upper_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("string_upper_loop", 4)
    );
}

#[test]
fn a_table_unpack_loop_is_charged_by_the_values_returned() {
    let m = run_hostile("table_unpack_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("table_unpack_loop", 5)
    );
}

#[test]
fn a_table_sort_loop_is_charged_by_the_comparisons() {
    let m = run_hostile("table_sort_loop");
    assert_eq!(
        first_line_after_entry(&m),
        one_call_error_at("table_sort_loop", 5, "table.sort asks for 3400000")
    );
}

#[test]
fn a_utf8_len_loop_is_charged_by_the_bytes_scanned() {
    let m = run_hostile("utf8_len_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("utf8_len_loop", 4)
    );
}

/// The charge is raised inside `pcall`'s call; `pcall` hands the error back as a value and the
/// guard around it raises the budget error again at the loop's line.
#[test]
fn a_find_loop_under_pcall_is_charged_and_not_swallowed() {
    let m = run_hostile("find_in_pcall_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("find_in_pcall_loop", 5)
    );
}

#[test]
fn a_load_loop_is_charged_by_the_bytes_compiled() {
    let m = run_hostile("load_text_loop");
    assert_eq!(
        first_line_after_entry(&m),
        budget_error_at("load_text_loop", 4)
    );
}

#[test]
fn table_sort_under_a_lying_length_is_refused() {
    let m = run_hostile("table_sort_lying_len");
    assert_eq!(
        first_line_after_entry(&m),
        "hostile/scripts/table_sort_lying_len.lua:5: table.sort: 2147483646 elements to sort in \
         one call (at most 16777216: a lying __len?)"
    );
}

/// The wall-clock backstop's error at `script`'s `line` (the harness sets `[limits] seconds = 2`).
fn backstop_error_at(script: &str, line: u32) -> String {
    format!(
        "hostile/scripts/{script}.lua:{line}: wall-clock backstop of 2 s exceeded within the \
         instruction budget (one instruction doing megabytes of work: comparing or joining long \
         strings?); raise [limits] seconds in the scenario if the rule really needs more"
    )
}

/// `==` on two long strings is one VM instruction comparing every byte: within its budget the
/// loop ran 118 s before the backstop (with 50 MB strings, made by `..` uncharged, and the
/// default budget: hours).
#[test]
fn a_long_string_compare_loop_is_stopped_by_the_wall_clock_backstop() {
    let started = std::time::Instant::now();
    let m = run_hostile("long_string_compare_loop");
    assert_eq!(
        first_line_after_entry(&m),
        backstop_error_at("long_string_compare_loop", 7)
    );
    // (a bound the test can assert without timing anything tightly: well short of the 118 s)
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

/// `..` of two long strings copies every byte in one VM instruction (85 s before the backstop).
#[test]
fn a_long_string_concat_loop_is_stopped_by_the_wall_clock_backstop() {
    let m = run_hostile("long_string_concat_loop");
    assert_eq!(
        first_line_after_entry(&m),
        backstop_error_at("long_string_concat_loop", 5)
    );
}

/// A chunk `load`ed under a rules file's name (`@rules/demo/combat.lua`) has its errors named
/// as a loaded chunk, not as that file's lines (they blamed the wrong file).
#[test]
fn a_loaded_chunk_cannot_take_a_rules_files_name() {
    let m = run_hostile("load_named_as_a_rules_file");
    assert_eq!(
        first_line_after_entry(&m),
        "(load) rules/demo/combat.lua:2: attempt to index a nil value (local 'x')"
    );
}

/// A movement budget the search cannot count in (scenarios, setups and saves refuse such an
/// allowance; a rule may still pass one) is refused naming whose it is.
#[test]
fn a_budget_the_search_cannot_count_in_is_refused_naming_whose_it_is() {
    let path = Path::new("scenarios/demo");
    let session = Session::start(path, Some(1)).expect("demo loads");
    let mut state = session.game.state().clone();
    state.units.get_mut("b-inf-1").expect("b-inf-1").ma = 1e9;
    let mut rules = hexwar::rules::LuaRules::load(&hexwar::scenario::load_scenario(path).unwrap())
        .expect("rules load");
    for (script, expected) in [
        (
            "return hex.path.reach('b-inf-1')",
            "hex.path: 1000000000 (the ma of unit 'b-inf-1') is not a valid MP budget: 64ths of a movement point, below 33554432",
        ),
        (
            "return hex.path.reach('b-inf-1', 0.3)",
            "hex.path: 0.3 is not a valid MP budget: 64ths of a movement point, below 33554432",
        ),
    ] {
        let err = rules.eval(&state, script).expect_err(script).to_string();
        assert_contains(&err, &[expected]);
    }
    // (the same allowance in a setup is refused where it is written)
    let fit = hexwar::scenario::unit_numbers(1e9, 3.0).unwrap_err();
    assert_eq!(
        fit,
        "ma is 1000000000: a movement allowance is counted in 64ths of a movement point (1, 2.5, 0.375 ...), below 33554432"
    );
    assert_eq!(hexwar::scenario::unit_numbers(0.375, 0.0), Ok(()));
    // (the largest allowance, and the first past it; a tiny one quoted in exponent form)
    assert_eq!(hexwar::scenario::unit_numbers(33554431.984375, 0.0), Ok(()));
    assert!(hexwar::scenario::unit_numbers(33554432.0, 0.0).is_err());
    assert!(hexwar::scenario::unit_numbers(1e-300, 0.0)
        .unwrap_err()
        .starts_with("ma is 1e-300: a movement allowance is counted in 64ths"));
    assert_eq!(
        hexwar::scenario::unit_numbers(2.0, -1.0).unwrap_err(),
        "strength is -1: it cannot be negative"
    );
}

/// `hex.state.json` text is held to the depth a table is held to, so that a save can hold it.
#[test]
fn json_text_nested_too_deep_is_refused_when_handed_over() {
    let m = run_hostile("json_text_too_deep");
    assert_contains(
        &m,
        &["hex.state.json: the text nests arrays and objects more than 100 levels deep (a save could not hold it)"],
    );
}

/// An error value named by its metatable's `__name` is shown without the address Lua prints
/// after the name (it differed from run to run).
#[test]
fn an_error_value_with_a_name_is_shown_without_its_address() {
    assert_eq!(
        first_line_after_entry(&run_hostile("error_value_with_a_name")),
        "hostile/scripts/error_value_with_a_name.lua:4: Foo"
    );
}

/// One host call whose own work is more than the whole budget (a field over a 90 000-hex map
/// under a budget of 100 000) is said to be one call, with its size, not "an endless loop?".
#[test]
fn one_host_call_past_the_whole_budget_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let row = vec!["."; 300].join(" ");
    let grid = vec![format!("\"{row}\""); 300].join(",\n");
    std::fs::write(
        dir.path().join("map.toml"),
        format!("name = \"wide\"\ncolumns = 300\nrows = 300\ngrid = [\n{grid}\n]\n[legend]\n\".\" = \"clear\"\n"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("scenario.toml"),
        "id = \"wide\"\nname = \"wide\"\nmap = \"map.toml\"\nrules = [\"wide\"]\nrule_roots = [\".\"]\n\
         turns = 1\n[limits]\ninstructions = 100000\n[[side]]\nname = \"blue\"\n[[side]]\nname = \"red\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("wide.lua"),
        "hex.rules.sequence { steps = { { side = \"blue\", phase = \"p\" } } }\n\
         hex.rules.declare(\"movement\", { sides = { \"blue\", \"red\" }, classes = { \"foot\" }, terrain = { clear = 1 } })\n\
         hex.rules.query(\"field\", function()\n\
         \x20 return hex.path.supplied_hexes(\"blue\", \"foot\", { \"001001\" })\n\
         end)\n",
    )
    .unwrap();
    let mut session = Session::start(dir.path(), Some(1)).expect("the wide game starts");
    let e = session.game.query("field", &Value::Null).unwrap_err();
    assert!(
        e.message.ends_with(
            "/wide.lua:4: instruction budget of 100000 instructions exceeded by one call: the \
             host's work for it is 900000 units (a search over a large map, or the paths to \
             every hex reached); raise [limits] instructions in the scenario if the rule really \
             needs more"
        ),
        "{}",
        e.message
    );
}
