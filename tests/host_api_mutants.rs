//! Tests for mutants of the Lua host's unit, state, event, command, log and dice API
//! (`src/rules/api/units.rs`, `units_at.rs`, `roster.rs`, `state.rs`, `events.rs`,
//! `commands.rs`, `log.rs`, `dice.rs`) that no other test caught, on a five-hex game of its own:
//! the exact lists, filters and error messages a rules author sees, and what each call charges
//! to the instruction budget (src/rules/host_work.rs), measured exactly (the game is small
//! enough that no VM instruction counts: the hook counts them a thousand at a time).

use hexwar::engine::{Command, Dice, Event, GameError};
use hexwar::Session;

mod common;
use serde_json::{json, Value};

/// A five-hex line of clear terrain, sides blue and red. Blue's b1 (infantry, French, XX,
/// strength 3, moved) and b2 (armor, German, XXX, strength 5) stand at 0101, b3 (infantry,
/// strength 1.5) waits off the map; red's r1 (infantry, strength 2.5, moved and disorganized)
/// stands at 0501 and r2 (infantry) at 0301. Before the query runs, `events` are applied (a
/// unit eliminated or removed goes to `hex.units.gone()`). `query` is the Lua body of the query
/// `q`; `extra` is Lua run while the module loads.
fn game_with(
    instructions: u64,
    extra: &str,
    events: Vec<Event>,
    query: &str,
) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    common::write_line_map(dir.path());
    std::fs::write(
        dir.path().join("scenario.toml"),
        format!(
            "id = \"line\"\nname = \"line\"\nmap = \"map.toml\"\nrules = [\"line\"]\n\
             rule_roots = [\".\"]\nturns = 1\n[limits]\ninstructions = {instructions}\n\
             events_per_command = 50\n\
             [[side]]\nname = \"blue\"\n[[side]]\nname = \"red\"\n\
             [[unit]]\nid = \"b1\"\nside = \"blue\"\nnation = \"fr\"\ntype = \"infantry\"\n\
             size = \"XX\"\nma = 4\nstrength = 3\nat = \"0101\"\nstatus = [\"moved\"]\n\
             [[unit]]\nid = \"b2\"\nside = \"blue\"\nnation = \"de\"\ntype = \"armor\"\n\
             size = \"XXX\"\nma = 6\nstrength = 5\nat = \"0101\"\n\
             [[unit]]\nid = \"b3\"\nside = \"blue\"\ntype = \"infantry\"\nma = 4\nstrength = 1.5\n\
             [[unit]]\nid = \"r1\"\nside = \"red\"\ntype = \"infantry\"\nma = 4\nstrength = 2.5\n\
             at = \"0501\"\nstatus = [\"moved\", \"disorganized\"]\n\
             [[unit]]\nid = \"r2\"\nside = \"red\"\ntype = \"infantry\"\nma = 4\nstrength = 2\n\
             at = \"0301\"\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("line.lua"),
        format!(
            "hex.rules.sequence {{ steps = {{ {{ side = \"blue\", phase = \"p\" }} }} }}\n\
             {extra}\n\
             hex.rules.query(\"q\", function()\n{query}\nend)\n"
        ),
    )
    .unwrap();
    let mut session = Session::start(dir.path(), Some(1)).expect("the line game starts");
    if !events.is_empty() {
        session
            .game
            .setup(&serde_json::Map::new(), events)
            .expect("the events apply");
    }
    (dir, session)
}

/// What the line game's query answers, running `code` (a Lua expression).
fn answer(code: &str) -> Value {
    answer_after(Vec::new(), code)
}

/// What the line game's query answers after `events`, running `code` (a Lua expression).
fn answer_after(events: Vec<Event>, code: &str) -> Value {
    let (_dir, mut s) = game_with(10_000_000, "", events, &format!("return {code}"));
    s.game.query("q", &Value::Null).unwrap().unwrap()
}

/// The error message of the Lua expression `code`, caught by `pcall` in the query.
fn error_of(code: &str) -> String {
    let got = answer(&format!("select(2, pcall(function() return {code} end))"));
    got.as_str()
        .unwrap_or_else(|| panic!("{code}: no error, {got}"))
        .to_string()
}

/// The least instruction budget the Lua `code` runs within, in a query of this file's game.
fn least_budget(code: &str) -> u64 {
    common::least_budget(code, |limit, query| game_with(limit, "", Vec::new(), query))
}

/// Host work charged first, to lift the budget a call needs above the least a scenario takes:
/// ten listings of the five units' views, 610 units each.
const PAD: &str = "for _ = 1, 10 do local _ = hex.units.all() end";

/// The host work the Lua `code` charges: the budget it needs after `PAD`, less `PAD`'s own.
fn host_work(code: &str) -> u64 {
    least_budget(&format!("{PAD}\n{code}")) - least_budget(PAD)
}

/// r1 eliminated in combat and r2 withdrawn to the pool: both leave play.
fn red_gone() -> Vec<Event> {
    vec![
        Event::UnitEliminated {
            unit: "r1".into(),
            reason: "combat".into(),
        },
        Event::UnitRemoved {
            unit: "r2".into(),
            reason: "pool".into(),
        },
    ]
}

/// What the line game's query answers, running `code` (a Lua expression), after `load` ran
/// while the module loaded (its locals are the query's upvalues).
fn answer_loaded(load: &str, code: &str) -> Value {
    let (_dir, mut s) = game_with(10_000_000, load, Vec::new(), &format!("return {code}"));
    s.game.query("q", &Value::Null).unwrap().unwrap()
}

/// The error message of `hex.commands.define(NAME, DEF)` called while the module loads.
fn define_error(name: &str, def: &str) -> String {
    let load = format!("local err = select(2, pcall(hex.commands.define, {name}, {def}))");
    let got = answer_loaded(&load, "err");
    got.as_str()
        .unwrap_or_else(|| panic!("define({name}, {def}): no error, {got}"))
        .to_string()
}

/// `hex.units.at` walks every unit (2 a unit) at its first two calls at a position and builds
/// its index (one more walk) at the third; from then on a call lists only the place's own units
/// (2 an id), and every call builds the views it returns (120 each).
#[test]
fn units_at_charges_two_walks_then_the_index_then_the_places_own_units() {
    let at_empty = |calls: usize| host_work(&"local _ = hex.units.at('0201')\n".repeat(calls));
    assert_eq!(
        [at_empty(1), at_empty(2), at_empty(3), at_empty(4)],
        [10, 20, 30, 30]
    );
    // (b1 and b2 stand at 0101)
    let at_two = |calls: usize| host_work(&"local _ = hex.units.at('0101')\n".repeat(calls));
    assert_eq!(at_two(1), 10 + 240);
    assert_eq!(at_two(4), 2 * (10 + 240) + (10 + 4 + 240) + (4 + 240));
}

/// The unit listings charge 2 a unit walked (every unit in play) and 120 a view built.
#[test]
fn unit_listings_charge_the_units_walked_and_the_views_built() {
    assert_eq!(host_work("local _ = hex.units.all()"), 10 + 5 * 120);
    assert_eq!(
        host_work("local _ = hex.units.of_side('red')"),
        10 + 2 * 120
    );
    assert_eq!(host_work("local _ = hex.units.list('id')"), 10);
    assert_eq!(host_work("local _ = hex.units.with_status('moved')"), 10);
    assert_eq!(host_work("local _ = hex.units.ids('blue')"), 10);
    assert_eq!(host_work("local _ = hex.units.brief('red')"), 10 + 2 * 120);
}

/// `hex.units.list` gives one field of each unit (of one side when asked) in id order, `false`
/// for a unit off the map; `with_status` the set of the units holding a flag.
#[test]
fn units_list_and_with_status_answer_in_id_order() {
    assert_eq!(
        answer("hex.units.list('id', 'blue')"),
        json!(["b1", "b2", "b3"])
    );
    assert_eq!(
        answer("hex.units.list('at')"),
        json!(["0101", "0101", false, "0501", "0301"])
    );
    assert_eq!(
        answer("hex.units.list('strength')"),
        json!([3, 5, 1.5, 2.5, 2])
    );
    assert_eq!(answer("hex.units.list('strength', 'red')"), json!([2.5, 2]));
    assert_eq!(
        answer("hex.units.list('type', 'blue')"),
        json!(["infantry", "armor", "infantry"])
    );
    assert_eq!(
        error_of("hex.units.list('ma')"),
        "hex.units.list: no field 'ma' (id, side, nation, type, size, at, strength)"
    );
    assert_eq!(
        answer("hex.units.with_status('moved')"),
        json!({"b1": true, "r1": true})
    );
}

/// `hex.units.ids` keeps the units of the side, on the map, holding every `with` flag and no
/// `without` flag, the first `limit` of them, in id order.
#[test]
fn units_ids_filters_and_limits_in_id_order() {
    let cases = [
        ("hex.units.ids()", json!(["b1", "b2", "b3", "r1", "r2"])),
        ("hex.units.ids('blue')", json!(["b1", "b2", "b3"])),
        (
            "hex.units.ids('blue', { on_map = true })",
            json!(["b1", "b2"]),
        ),
        (
            "hex.units.ids(nil, { with = { 'moved' } })",
            json!(["b1", "r1"]),
        ),
        (
            "hex.units.ids(nil, { with = { 'moved', 'disorganized' } })",
            json!(["r1"]),
        ),
        (
            "hex.units.ids(nil, { without = { 'moved' } })",
            json!(["b2", "b3", "r2"]),
        ),
        (
            "hex.units.ids(nil, { on_map = true, without = { 'disorganized' } })",
            json!(["b1", "b2", "r2"]),
        ),
        ("hex.units.ids('red', { limit = 1 })", json!(["r1"])),
        ("hex.units.ids(nil, { limit = 2.0 })", json!(["b1", "b2"])),
        ("hex.units.ids(nil, { limit = 0 })", json!({})),
    ];
    for (code, expected) in cases {
        assert_eq!(answer(code), expected, "{code}");
    }
}

/// A limit that is not a whole number, 0 or more, is refused with the value given, as Lua
/// writes it (a whole float with its `.0`; a table by its type, not its address).
#[test]
fn units_ids_refuses_a_negative_or_fractional_limit() {
    for (limit, shown) in [
        ("-1", "-1"),
        ("-2.0", "-2.0"),
        ("1.5", "1.5"),
        ("'two'", "two"),
        ("{}", "table"),
    ] {
        assert_eq!(
            error_of(&format!("hex.units.ids(nil, {{ limit = {limit} }})")),
            format!("hex.units.ids: opts.limit must be a whole number, 0 or more (got {shown})"),
            "{limit}"
        );
    }
}

/// `hex.units.brief` lists the units on the map (of one side when asked), and with `off_map`
/// those off it too, without `at`.
#[test]
fn units_brief_lists_the_side_and_off_map_units_asked_for() {
    assert_eq!(
        answer("hex.units.brief('red')"),
        json!([
            {"at": "0501", "id": "r1", "ma": 4, "nation": "red", "side": "red", "size": "",
             "strength": 2.5, "type": "infantry"},
            {"at": "0301", "id": "r2", "ma": 4, "nation": "red", "side": "red", "size": "",
             "strength": 2, "type": "infantry"}
        ])
    );
    let ids = "(function() local out = {} \
               for _, u in ipairs(hex.units.brief(SIDE, OPTS)) do out[#out + 1] = u.id end \
               return out end)()";
    let brief_ids =
        |side: &str, opts: &str| answer(&ids.replace("SIDE", side).replace("OPTS", opts));
    assert_eq!(brief_ids("nil", "nil"), json!(["b1", "b2", "r1", "r2"]));
    assert_eq!(
        brief_ids("nil", "{ off_map = true }"),
        json!(["b1", "b2", "b3", "r1", "r2"])
    );
    assert_eq!(
        brief_ids("'blue'", "{ off_map = true }"),
        json!(["b1", "b2", "b3"])
    );
    assert_eq!(
        answer("hex.units.brief('blue', { off_map = true })[3]"),
        json!({"id": "b3", "ma": 4, "nation": "blue", "side": "blue", "size": "",
               "strength": 1.5, "type": "infantry"})
    );
}

/// `hex.units.gone` lists every unit out of play in id order, with why and when it left;
/// `gone_for` only those that left for the reason given (with an id, that unit only).
#[test]
fn units_gone_and_gone_for_list_the_units_out_of_play() {
    let r2 = json!({"at": "0301", "attrs": {}, "eliminated": false, "gone_reason": "pool",
                    "gone_turn": 1, "id": "r2", "ma": 4, "nation": "red", "side": "red",
                    "size": "", "status": {}, "strength": 2, "type": "infantry"});
    assert_eq!(
        answer_after(red_gone(), "hex.units.gone_for('pool')"),
        json!([r2])
    );
    assert_eq!(
        answer_after(red_gone(), "hex.units.gone_for('retreat')"),
        json!({})
    );
    // With an id, that unit alone, when it left for that reason (r1 left in combat).
    assert_eq!(
        answer_after(red_gone(), "hex.units.gone_for('pool', 'r2')"),
        json!([r2])
    );
    for other in [
        "'pool', 'r1'",
        "'pool', 'r3'",
        "'pool', 'b1'",
        "'combat', 'r2'",
    ] {
        assert_eq!(
            answer_after(red_gone(), &format!("hex.units.gone_for({other})")),
            json!({}),
            "{other}"
        );
    }
    assert_eq!(
        answer_after(
            red_gone(),
            "hex.units.gone_for('combat', 'r1')[1].gone_reason"
        ),
        json!("combat")
    );
    let gone = answer_after(red_gone(), "hex.units.gone()");
    assert_eq!(gone[0]["id"], "r1");
    assert_eq!(gone[0]["gone_reason"], "combat");
    assert_eq!(gone[0]["eliminated"], true);
    assert_eq!(gone[1], r2);
    assert_eq!(gone.as_array().map(Vec::len), Some(2));
}

/// The variable `plan`: an object holding an array of objects.
fn plan() -> Vec<Event> {
    vec![Event::VarSet {
        key: "plan".into(),
        value: json!({"steps": [{"to": "0201"}, {"to": "0301"}], "name": "push"}).into(),
    }]
}

/// `hex.state.get` follows a path of object keys and 1-based array indexes, and reads nil where
/// the path leads nowhere.
#[test]
fn state_get_follows_keys_and_indexes_into_a_variable() {
    let cases = [
        ("hex.state.get('plan', 'name')", json!("push")),
        ("hex.state.get('plan', 'steps', 2, 'to')", json!("0301")),
        ("hex.state.get('plan', 'steps', 1)", json!({"to": "0201"})),
        ("hex.state.get('plan', 'steps', 3) == nil", json!(true)),
        ("hex.state.get('plan', 'steps', 0) == nil", json!(true)),
        ("hex.state.get('plan', 'steps', 'to') == nil", json!(true)),
        ("hex.state.get('plan', 1) == nil", json!(true)),
        ("hex.state.get('nothing', 'name') == nil", json!(true)),
    ];
    for (code, expected) in cases {
        assert_eq!(answer_after(plan(), code), expected, "{code}");
    }
}

/// `hex.state.list` marks a table as a list, a table marked already too; a table with a
/// metatable of its own is refused.
#[test]
fn state_list_marks_plain_and_marked_tables_and_refuses_others() {
    assert_eq!(
        answer("getmetatable(hex.state.list(hex.state.list())) == getmetatable(hex.state.list())"),
        json!(true)
    );
    assert_eq!(answer("hex.state.list({ 'a' })"), json!(["a"]));
    assert_eq!(
        error_of("hex.state.list(setmetatable({}, {}))"),
        "hex.state.list: the table has a metatable of its own"
    );
}

/// A definition's `args` is refused, each way with its own message, when it lists `command`,
/// a name twice, a key out of the list's 1..n, or more than 256 names; 256 are taken.
#[test]
fn command_args_are_refused_with_the_reason() {
    let args = |names: usize| {
        let list: Vec<String> = (1..=names).map(|i| format!("'a{i}'")).collect();
        format!(
            "{{ resolve = function() return {{}} end, args = {{ {} }} }}",
            list.join(", ")
        )
    };
    assert_eq!(
        define_error("'many'", &args(257)),
        "hex.commands.define(\"many\"): 'args' declares more than 256 arguments"
    );
    assert_eq!(
        answer_loaded(
            &format!("hex.commands.define('many', {})", args(256)),
            "#hex.commands.get('many').args"
        ),
        json!(256)
    );
    let with_args = |a: &str| format!("{{ resolve = function() return {{}} end, args = {a} }}");
    assert_eq!(
        define_error("'x'", &with_args("{ 'unit', 'command' }")),
        "hex.commands.define(\"x\"): 'args' lists 'command', which every command has: leave it out"
    );
    assert_eq!(
        define_error("'x'", &with_args("{ 'unit', 'unit' }")),
        "hex.commands.define(\"x\"): 'args' lists 'unit' twice"
    );
    assert_eq!(
        define_error("'x'", &with_args("{ 'unit', unit = 'unit' }")),
        "hex.commands.define(\"x\"): 'args' lists 'unit' twice"
    );
    for (args, key) in [("{ 'unit', [3] = 'to' }", "3"), ("{ [0] = 'to' }", "0")] {
        let message = define_error("'x'", &with_args(args));
        assert!(
            message.starts_with(&format!(
                "hex.commands.define(\"x\"): 'args' has the key {key}: names are listed 1, 2, 3"
            )),
            "{args}: {message}"
        );
    }
}

/// `get` gives the arguments in the form they were declared: a list of names, or their kinds
/// keyed by name (a name listed without a kind as `any?`).
#[test]
fn command_get_gives_args_as_declared() {
    let load = "hex.commands.define('names', { resolve = function() return {} end, \
                args = { 'unit', 'to' } })\n\
                hex.commands.define('kinds', { resolve = function() return {} end, \
                args = { 'note', unit = 'unit', to = 'place' } })";
    assert_eq!(
        answer_loaded(load, "hex.commands.get('names').args"),
        json!(["unit", "to"])
    );
    assert_eq!(
        answer_loaded(load, "hex.commands.get('kinds').args"),
        json!({"note": "any?", "unit": "unit", "to": "place"})
    );
}

/// The engine's `end_phase` takes no arguments and its `move` only unit, path, to, units and
/// facing: a definition declaring another is refused; one within them is taken.
#[test]
fn engine_commands_take_only_the_engines_arguments() {
    let with_args = |a: &str| format!("{{ resolve = function() return {{}} end, args = {a} }}");
    assert_eq!(
        define_error("'end_phase'", &with_args("{ 'why' }")),
        "hex.commands.define(\"end_phase\"): 'args' declares 'why', but the engine's end_phase \
         takes no arguments: an order could never give it (a command that needs more takes a \
         name of its own)"
    );
    assert_eq!(
        define_error("'move'", &with_args("{ 'unit', 'path', 'speed' }")),
        "hex.commands.define(\"move\"): 'args' declares 'speed', but the engine's move takes \
         unit and path (or to); facing and units in a facing game: an order could never give it \
         (a command that needs more takes a name of its own)"
    );
    assert_eq!(
        answer_loaded(
            &format!(
                "hex.commands.define('move', {})",
                with_args("{ 'unit', 'to', 'facing' }")
            ),
            "hex.commands.get('move').args"
        ),
        json!(["unit", "to", "facing"])
    );
}

/// `print` and `hex.log` lines go to the host's log; past 10 000 lines between reads the rest
/// are counted, not kept, and the read says how many were dropped.
#[test]
fn the_script_log_keeps_10000_lines_between_reads() {
    let (_dir, mut s) = game_with(
        10_000_000,
        "",
        Vec::new(),
        "for i = 1, 9999 do print('line', i) end\nhex.log('last', {}, 1.5, print, hex.state.json('{}'))\nprint('dropped')\nreturn true",
    );
    let _ = s.game.rules_mut().take_script_log();
    s.game.query("q", &Value::Null).unwrap();
    let log = s.game.rules_mut().take_script_log();
    assert_eq!(log.len(), 10_000 + 1);
    assert_eq!(log[0], "line\t1");
    assert_eq!(log[9_998], "line\t9999");
    assert_eq!(log[9_999], "last\ttable\t1.5\tfunction\tuserdata");
    assert_eq!(
        log[10_000],
        "... 1 more line(s) dropped: the log keeps 10000 between reads"
    );
    // (the count starts again after a read)
    s.game.query("q", &Value::Null).unwrap();
    assert_eq!(s.game.rules_mut().take_script_log()[10_000], log[10_000]);
}

/// The line game with a command `roll` that rolls `n` dice of `sides` sides (the die's default
/// when nil).
fn dice_game() -> (tempfile::TempDir, Session) {
    game_with(
        10_000_000,
        "hex.commands.define('roll', { args = { 'n', 'sides' }, resolve = function(cmd)\n\
           for _ = 1, cmd.n do hex.dice.roll(cmd.sides) end\n\
           return {}\n\
         end })",
        Vec::new(),
        "return true",
    )
}

/// The `roll` command of [`dice_game`].
fn roll(n: u32, sides: Option<u32>) -> Command {
    let mut args = serde_json::Map::new();
    args.insert("n".into(), json!(n));
    if let Some(sides) = sides {
        args.insert("sides".into(), json!(sides));
    }
    Command::Custom {
        name: "roll".into(),
        args,
    }
}

/// The values of the `DiceRolled` events among `events`, with their dice's sides.
fn rolled(events: &[Event]) -> Vec<(u32, u32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::DiceRolled { sides, value } => Some((*sides, *value)),
            _ => None,
        })
        .collect()
}

/// Each roll takes the next value of the game's seeded sequence, within a command and from one
/// command to the next; a die is a d6 unless told.
#[test]
fn dice_rolls_take_the_seeded_sequence_in_order() {
    let (_dir, mut s) = dice_game();
    let seed = s.game.state().dice.seed;
    let first = s.game.submit(Some("blue"), &roll(3, Some(1000))).unwrap();
    let second = s.game.submit(Some("blue"), &roll(2, None)).unwrap();
    let expected: Vec<(u32, u32)> = (0..3)
        .map(|i| (1000, Dice::value_at(seed, i, 1000)))
        .collect();
    assert_eq!(rolled(&first), expected);
    assert_eq!(
        rolled(&second),
        [
            (6, Dice::value_at(seed, 3, 6)),
            (6, Dice::value_at(seed, 4, 6))
        ]
    );
    // (the sequence is not one value over and over)
    assert_ne!(expected[0], expected[1]);
}

/// One call rolls at most `[limits] events_per_command` dice (50 here): the 51st roll is an
/// error saying so; a die needs a side.
#[test]
fn dice_refuse_a_roll_past_the_limit_and_a_die_without_sides() {
    let (_dir, mut s) = dice_game();
    let fifty = s.game.submit(Some("blue"), &roll(50, None)).unwrap();
    assert_eq!(rolled(&fifty).len(), 50);
    let Err(GameError::Rules(e)) = s.game.submit(Some("blue"), &roll(51, None)) else {
        panic!("51 rolls were taken")
    };
    assert!(
        e.message.ends_with(
            "hex.dice.roll: more than 50 rolls in one call (each roll is an event: [limits] \
             events_per_command)"
        ),
        "{}",
        e.message
    );
    let Err(GameError::Rules(e)) = s.game.submit(Some("blue"), &roll(1, Some(0))) else {
        panic!("a die of no sides was rolled")
    };
    assert!(
        e.message
            .ends_with("hex.dice.roll: a die needs at least 1 side"),
        "{}",
        e.message
    );
}

/// A value a test sets (`t.dice`) is the roll's when the die has that many sides or more, and an
/// error naming both otherwise.
#[test]
fn dice_set_by_a_test_must_fit_the_die() {
    let (_dir, mut s) = dice_game();
    s.game.rules_mut().force_dice(vec![6, 1]).unwrap();
    let rolls = s.game.submit(Some("blue"), &roll(2, None)).unwrap();
    assert_eq!(rolled(&rolls), [(6, 6), (6, 1)]);
    s.game.rules_mut().force_dice(vec![7]).unwrap();
    let Err(GameError::Rules(e)) = s.game.submit(Some("blue"), &roll(1, None)) else {
        panic!("a 7 was taken for a d6")
    };
    assert!(
        e.message
            .ends_with("hex.dice.roll: the test set 7 (t.dice) for a roll of a 6-sided die"),
        "{}",
        e.message
    );
}
/// `hex.events.emit` refuses data that is no data in the script's words, naming the call, as
/// `hex.state.set` does (it gave serde's `deserialize error: unsupported value type
/// `function``).
#[test]
fn events_emit_refuses_data_that_is_no_data_naming_the_call() {
    let refused = |code: &str| {
        let (_dir, mut s) = game_with(10_000_000, "", Vec::new(), &format!("return {code}"));
        s.game.query("q", &Value::Null).unwrap_err().message
    };
    for (code, why) in [
        (
            "hex.events.emit('x', { f = print })",
            "a function is no data (a value holds tables, strings, numbers and booleans)",
        ),
        (
            "hex.events.emit('x', coroutine.create(print))",
            "a coroutine is no data (a value holds tables, strings, numbers and booleans)",
        ),
    ] {
        for (call, code) in [
            ("hex.events.emit", code.to_string()),
            (
                "hex.state.set",
                code.replace("hex.events.emit", "hex.state.set"),
            ),
        ] {
            let message = refused(&code);
            assert!(
                message.ends_with(&format!("line.lua:4: {call}: {why}")),
                "{code}: {message}"
            );
        }
    }
}

/// `hex.events.emit` takes a `hex.state.json` value as its data, as a Custom event's data is
/// documented to take (it was refused as an unsupported value `userdata`).
#[test]
fn events_emit_takes_a_json_value_as_its_data() {
    let (_dir, mut s) = game_with(
        10_000_000,
        r#"hex.commands.define('note', { resolve = function()
             return { hex.events.emit('Note', hex.state.json('{"a": [1, 2]}')),
                      hex.events.emit('Plain', { b = true }), hex.events.emit('Empty') }
           end })"#,
        Vec::new(),
        "return true",
    );
    let note = Command::Custom {
        name: "note".into(),
        args: serde_json::Map::new(),
    };
    let events = s.game.submit(Some("blue"), &note).unwrap();
    let custom: Vec<(String, Value)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Custom { name, data } => {
                Some((name.clone(), serde_json::to_value(data).unwrap()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        custom,
        [
            ("Note".to_string(), json!({"a": [1, 2]})),
            ("Plain".to_string(), json!({"b": true})),
            ("Empty".to_string(), Value::Null)
        ]
    );
}
