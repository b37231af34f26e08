//! Tests for mutants of the Lua host's path API (`src/rules/api/toward.rs`, `path.rs`,
//! `legal.rs`) that no other test caught, on a five-hex game of its own: what each `hex.path`
//! call charges to the instruction budget (src/rules/host_work.rs), measured exactly (the game
//! is small enough that no VM instruction counts: the hook counts them a thousand at a time),
//! `hex.commands.legal` on commands that order several units or have no `legal`, and a supply
//! field kept from one call to the next in a game (src/rules/api/path.rs `PathCache`).

use hexwar::engine::Command;
use hexwar::Session;

mod common;
use serde_json::{json, Value};

/// A five-hex line of clear terrain: blue's b1 (MA 4) at 0101 and b2 at 0201, red's r1 at 0501
/// (a hex blue may not enter). Every unit but a disorganized or ghost one has a ZOC, which
/// blocks foot's supply lines unless a friendly unit stands there; lines run through any hex
/// without an enemy unit; in mud (the variable `weather`) clear terrain is prohibited. The
/// commands: `group` (listing orders of several units), `salute` (no `legal`) and `apply` (the
/// events given). `query` is the Lua body of the query `q`.
fn game(instructions: u64, query: &str) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    common::write_line_map(dir.path());
    std::fs::write(
        dir.path().join("scenario.toml"),
        format!(
            "id = \"line\"\nname = \"line\"\nmap = \"map.toml\"\nrules = [\"line\"]\n\
             rule_roots = [\".\"]\nturns = 1\n[limits]\ninstructions = {instructions}\n\
             [[side]]\nname = \"blue\"\n[[side]]\nname = \"red\"\n\
             [[unit]]\nid = \"b1\"\nside = \"blue\"\ntype = \"infantry\"\nma = 4\nat = \"0101\"\n\
             [[unit]]\nid = \"b2\"\nside = \"blue\"\ntype = \"infantry\"\nma = 4\nat = \"0201\"\n\
             [[unit]]\nid = \"r1\"\nside = \"red\"\ntype = \"infantry\"\nma = 4\nat = \"0501\"\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("line.lua"),
        format!(
            "hex.rules.sequence {{ steps = {{ {{ side = \"blue\", phase = \"p\" }} }} }}\n\
             hex.rules.declare(\"movement\", {{ sides = {{ \"blue\", \"red\" }}, \
             classes = {{ \"foot\" }}, terrain = {{ clear = 1 }}, zoc = {{ except = {{ status = {{ \"disorganized\" }}, \
             flags = {{ \"ghost\" }} }} }}, \
             supply = {{ zoc_blocks = {{ \"foot\" }}, through = \"no_enemy_unit\" }}, \
             costs_by_variable = {{ variable = \"weather\", \
             values = {{ mud = {{ terrain = {{ clear = \"prohibited\" }} }} }} }} }})\n\
             {COMMANDS}\n\
             hex.rules.query(\"q\", function()\n{query}\nend)\n"
        ),
    )
    .unwrap();
    let session = Session::start(dir.path(), Some(1)).expect("the line game starts");
    (dir, session)
}

/// The line game's commands.
const COMMANDS: &str = r#"
hex.commands.define("group", {
  args = { "units" },
  resolve = function() return {} end,
  legal = function(side)
    return { { command = "group", units = { "b1", "b2" } }, { command = "group", units = { "b2" } } }
  end,
})
hex.commands.define("salute", { args = {}, resolve = function() return {} end })
hex.commands.define("apply", { args = { "events" }, resolve = function(cmd) return cmd.events end })
"#;

/// What the line game's query answers, running `code` (a Lua expression).
fn answer(code: &str) -> Value {
    let (_dir, mut s) = game(10_000_000, &format!("return {code}"));
    s.game.query("q", &Value::Null).unwrap().unwrap()
}

/// The least instruction budget the Lua `code` runs within, in a query of this file's game.
fn least_budget(code: &str) -> u64 {
    common::least_budget(code, game)
}

/// Host work charged first, to lift the budget a call needs above the least a scenario takes:
/// 20 step fields of the 5-hex map, 50 units each.
const PAD: &str = "for _ = 1, 20 do hex.path.steps({ '0101' }) end";

/// The host work the Lua `code` charges: the budget it needs after `PAD`, less `PAD`'s own.
fn host_work(code: &str) -> u64 {
    least_budget(&format!("{PAD}\n{code}")) - least_budget(PAD)
}

/// 10 units a hex a search settles (the start too), 2 an item listed: the answers of the
/// searches on the line game (b1 reaches 0201, 0301, 0401: red's 0501 is closed to it).
#[test]
fn each_path_call_charges_the_hexes_it_settles_and_the_items_it_lists() {
    // 3 hexes reached and the start
    assert_eq!(host_work("local _ = hex.path.path_to('b1', 4, '0401')"), 40);
    assert_eq!(host_work("local _ = hex.path.reach('b1', 4)"), 40);
    // and the paths, 1 + 2 + 3 hexes long
    assert_eq!(
        host_work("local _ = hex.path.reach('b1', 4, { paths = true })"),
        52
    );
    // the step field (the map's 5 hexes), then b1's reach
    assert_eq!(
        host_work("local _ = hex.path.toward({ '0401' }, { { id = 'b1' } })"),
        90
    );
    assert_eq!(host_work("local _ = hex.path.steps({ '0401' })"), 50);
    // a capacity: blue's 3 units read once for both (2 a unit), then each one's reach
    assert_eq!(
        host_work(
            "local _ = hex.path.toward({ '0401' }, { { id = 'b1' }, { id = 'b2' } }, \
             { capacity = { { limit = 9 } } })"
        ),
        50 + 6 + 40 + 40
    );
    // one search over the map per (side, class, sources) group, blue's and red's, and the
    // 3 units' answers
    assert_eq!(
        host_work("local _ = hex.path.supply({ { side = 'blue', hexes = { '0101' } } })"),
        2 * 50 + 6
    );
    assert_eq!(host_work("local _ = hex.path.control()"), 10);
    assert_eq!(
        host_work("local _ = hex.path.supplied_hexes('blue', 'foot', { '0101' })"),
        50
    );
    // the start and the 2 hexes of the path
    assert_eq!(
        host_work("local _ = hex.path.check('b1', { '0201', '0301' })"),
        30
    );
}

/// `hex.commands.legal` with a unit filter keeps a command whose `units` list names the unit,
/// and only those.
#[test]
fn legal_for_a_unit_keeps_the_orders_whose_units_name_it() {
    assert_eq!(
        answer(r#"hex.commands.legal("blue", { unit = "b1" })"#),
        json!([{"command": "group", "units": ["b1", "b2"]}])
    );
    assert_eq!(
        answer(r#"hex.commands.legal("blue", { unit = "b2" })"#),
        json!([{"command": "group", "units": ["b1", "b2"]},
               {"command": "group", "units": ["b2"]}])
    );
    assert_eq!(
        answer(r#"hex.commands.legal("blue", { command = "group", unit = "b1" })"#),
        json!([{"command": "group", "units": ["b1", "b2"]}])
    );
}

/// `end_phase`, which these rules leave to the engine, is listed when asked for by name; a
/// command they define without `legal` lists nothing, not `end_phase`.
#[test]
fn legal_of_one_command_lists_end_phase_for_end_phase_only() {
    assert_eq!(
        answer(r#"hex.commands.legal("blue", { command = "end_phase" })"#),
        json!([{"command": "end_phase"}])
    );
    assert_eq!(
        answer(r#"hex.commands.legal("blue", { command = "salute" })"#),
        json!({})
    );
    assert_eq!(
        answer(r#"hex.commands.legal("blue")"#),
        json!([{"command": "group", "units": ["b1", "b2"]},
               {"command": "group", "units": ["b2"]},
               {"command": "end_phase"}])
    );
}

/// A command the rules do not define is named with the rules' commands, the engine's
/// `end_phase` among them when the rules leave it to the engine.
#[test]
fn legal_of_an_undefined_command_names_every_command_end_phase_too() {
    let message = answer(r#"select(2, pcall(hex.commands.legal, "blue", { command = "grop" }))"#);
    let message = message.as_str().unwrap();
    assert!(
        message.ends_with(
            "hex.commands.legal: option 'command': the rules define no command 'grop' (did you \
             mean 'group'?) (their commands: apply, end_phase, group, salute)"
        ),
        "{message}"
    );
}

/// The supplied hexes of blue foot from 0101 after each batch of events, asked in one VM after
/// every batch (the supply field kept from the call before, when the change leaves it as it
/// was: src/rules/api/path.rs `keep_unchanged_fields`), checked against a game that applied the
/// same events at once and is asked only then.
fn supplied_after_each(steps: &[Value]) -> Vec<Value> {
    let query = "return hex.path.supplied_hexes('blue', 'foot', { '0101' })";
    let apply = |s: &mut Session, events: &[Value]| {
        if events.is_empty() {
            return;
        }
        let mut args = serde_json::Map::new();
        args.insert("events".into(), Value::Array(events.to_vec()));
        s.game
            .submit(
                Some("blue"),
                &Command::Custom {
                    name: "apply".into(),
                    args,
                },
            )
            .unwrap();
    };
    let (_dir, mut kept) = game(10_000_000, query);
    let mut so_far = Vec::new();
    let mut answers = Vec::new();
    for events in steps {
        let events = events.as_array().unwrap();
        apply(&mut kept, events);
        so_far.extend(events.iter().cloned());
        let answer = kept.game.query("q", &Value::Null).unwrap().unwrap();
        let (_fresh_dir, mut fresh) = game(10_000_000, query);
        apply(&mut fresh, &so_far);
        assert_eq!(
            answer,
            fresh.game.query("q", &Value::Null).unwrap().unwrap(),
            "after {events:?}"
        );
        answers.push(answer);
    }
    answers
}

fn moved(unit: &str, from: &str, to: &str) -> Value {
    json!({"event": "UnitMoved", "unit": unit, "from": from, "to": to, "path": [to], "cost": 1})
}

/// A move changes a supply field where a friendly unit now stands (its presence negates the
/// enemy's ZOC: b1 into 0401 opens a line to 0501) or where the enemy's ZOC now reaches with no
/// unit entering (r1 into 0401 puts 0301 in its ZOC: the line to 0401 is cut), or where a
/// unit's status or attributes take its ZOC away (r1 disorganized, then a ghost); and the
/// rules in force change with the weather (in mud no clear hex carries a line: the field
/// traced on the declared rules is not theirs).
#[test]
fn a_kept_supply_field_follows_a_change_of_presence_zoc_status_attributes_or_weather() {
    let answers = supplied_after_each(&[
        json!([]),
        json!([moved("b1", "0101", "0401")]),
        json!([moved("b1", "0401", "0101")]),
        json!([moved("r1", "0501", "0401")]),
        json!([{"event": "UnitStatusChanged", "unit": "r1", "add": ["disorganized"]}]),
        json!([{"event": "UnitStatusChanged", "unit": "r1", "remove": ["disorganized"]}]),
        json!([{"event": "UnitChanged", "unit": "r1", "attrs": {"ghost": true}}]),
        json!([{"event": "VarSet", "key": "weather", "value": "mud"}]),
        json!([{"event": "VarSet", "key": "weather", "value": "dry"}]),
    ]);
    assert_eq!(
        Value::Array(answers),
        json!([
            ["0101", "0201", "0301", "0401"],
            ["0101", "0201", "0301", "0401", "0501"],
            ["0101", "0201", "0301", "0401"],
            ["0101", "0201", "0301"],
            ["0101", "0201", "0301", "0401"],
            ["0101", "0201", "0301"],
            ["0101", "0201", "0301", "0401"],
            // (no clear hex passable: 0101 supplied as a source only)
            ["0101"],
            ["0101", "0201", "0301", "0401"],
        ])
    );
}
