//! Tests for mutants of the Lua host's path API (`src/rules/api/toward.rs`, `path.rs`,
//! `legal.rs`) that no other test caught, on a five-hex game of its own: what each `hex.path`
//! call charges to the instruction budget (src/rules/host_work.rs), measured exactly (the game
//! is small enough that no VM instruction counts: the hook counts them a thousand at a time),
//! and `hex.commands.legal` on commands that order several units or have no `legal`.

use hexwar::Session;
use serde_json::{json, Value};

/// A five-hex line of clear terrain: blue's b1 (MA 4) at 0101 and b2 at 0201, red's r1 at 0501
/// (a hex blue may not enter); the commands `group` (listing orders of several units) and
/// `salute` (no `legal`). `query` is the Lua body of the query `q`.
fn game(instructions: u64, query: &str) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("map.toml"),
        "name = \"line\"\ncolumns = 5\nrows = 1\ngrid = [\". . . . .\"]\n[legend]\n\".\" = \"clear\"\n",
    )
    .unwrap();
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
             classes = {{ \"foot\" }}, terrain = {{ clear = 1 }} }})\n\
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
"#;

/// What the line game's query answers, running `code` (a Lua expression).
fn answer(code: &str) -> Value {
    let (_dir, mut s) = game(10_000_000, &format!("return {code}"));
    s.game.query("q", &Value::Null).unwrap().unwrap()
}

/// The least instruction budget the Lua `code` runs within, in a query (found by bisection;
/// scenarios take 1000 at least).
fn least_budget(code: &str) -> u64 {
    let runs = |limit: u64| {
        let (_dir, mut s) = game(limit, &format!("{code}\nreturn true"));
        match s.game.query("q", &Value::Null) {
            Ok(_) => true,
            Err(e) if e.message.contains("instruction budget") => false,
            Err(e) => panic!("{code}: {}", e.message),
        }
    };
    let (mut low, mut high) = (999, 100_000);
    assert!(runs(high), "{code}: more than {high} units");
    while high - low > 1 {
        let mid = (low + high) / 2;
        if runs(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    high
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
             mean 'group'?) (their commands: end_phase, group, salute)"
        ),
        "{message}"
    );
}
