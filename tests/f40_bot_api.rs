//! The host functions bots use to list only what they need (docs/guide.md, "Bots in Lua"):
//! `hex.commands.legal` with a filter, the light unit views, `hex.path.toward` and
//! `hex.path.path_to`, and the engine's `legal_commands_matching`; on
//! tests/fixtures/f40/airborne_river (g1, armour MA 6, at 0301; a1 at 0401 across a major
//! river; p1 a para regiment off the map; the German city 0101).

use std::path::Path;

use hexwar::engine::{Command, CommandFilter};
use hexwar::Session;
use serde_json::{json, Value};

/// A mod declaring a query that runs `code` (a Lua expression) in the game's VM.
fn probe(code: &str) -> Value {
    probe_in("tests/fixtures/f40/airborne_river", code)
}

/// `probe` on another fixture.
fn probe_in(fixture: &str, code: &str) -> Value {
    probe_answer(fixture, code).unwrap().unwrap()
}

/// What the `probe` query running `code` on `fixture` answers.
fn probe_answer(fixture: &str, code: &str) -> Result<Option<Value>, hexwar::engine::RulesError> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("probe.lua");
    std::fs::write(
        &file,
        format!("hex.rules.query(\"probe\", function() return {code} end)\n"),
    )
    .unwrap();
    let mut s = Session::start_with_mods(Path::new(fixture), Some(1), &[file]).unwrap();
    s.game.query("probe", &Value::Null)
}

fn drop_at(to: &str) -> Value {
    json!({"command": "drop", "unit": "p1", "to": to})
}

/// p1's drops on the fixture: every land hex within range of the German city 0101.
fn p1_drops() -> Value {
    json!(["0101", "0201", "0301", "0401", "0501"].map(drop_at))
}

#[test]
fn legal_with_a_filter_lists_one_kind_and_one_unit() {
    assert_eq!(
        probe(r#"hex.commands.legal("german", { command = "drop", unit = "p1" })"#),
        p1_drops()
    );
    // A unit filter alone: every kind, that unit's commands only (end_phase orders no unit).
    assert_eq!(
        probe(r#"#hex.commands.legal("german", { unit = "p1" })"#),
        json!(5)
    );
    assert_eq!(
        probe(r#"hex.commands.legal("german", { command = "end_phase" })"#),
        json!([{"command": "end_phase"}])
    );
    // (An empty Lua table comes back as an empty JSON object.)
    assert_eq!(
        probe(r#"hex.commands.legal("allied", { command = "drop" })"#),
        json!({})
    );
}

#[test]
fn legal_for_one_command_copies_that_commands_list_whole() {
    // One command and no unit: the rules' list copied in one go (src/rules/api/legal.rs); the
    // same as the whole list filtered by name, in the same order.
    let filtered = probe(
        r#"(function()
            local out = {}
            for _, c in ipairs(hex.commands.legal("german")) do
              if c.command == "drop" then out[#out + 1] = c end
            end
            return out
          end)()"#,
    );
    assert_eq!(
        probe(r#"hex.commands.legal("german", { command = "drop" })"#),
        filtered
    );
    assert_eq!(filtered.as_array().map(Vec::len), Some(5));
    // A fresh sequence each time: emptying one list leaves the next one whole.
    assert_eq!(
        probe(
            r#"(function()
                local list = hex.commands.legal("german", { command = "drop" })
                for i = #list, 1, -1 do list[i] = nil end
                return #hex.commands.legal("german", { command = "drop" })
              end)()"#
        ),
        json!(5)
    );
    // A command the rules do not define is an error (it listed nothing, as if nothing of it
    // were legal), and so is a unit not in play.
    for (code, expected) in [
        (
            r#"#hex.commands.legal("german", { command = "no_such_command" })"#,
            "hex.commands.legal: option 'command': the rules define no command 'no_such_command' \
             (their commands: ",
        ),
        (
            r#"#hex.commands.legal("german", { command = "move", unit = "g2" })"#,
            "hex.commands.legal: option 'unit': no unit 'g2' in play",
        ),
    ] {
        let message = probe_error(code);
        assert!(
            message.contains(&format!("probe.lua:1: {expected}")),
            "{message}"
        );
    }
}

/// The error of a query running `code` on the fixture.
fn probe_error(code: &str) -> String {
    match probe_answer("tests/fixtures/f40/airborne_river", code) {
        Err(e) => e.message,
        Ok(answer) => panic!("{code}: expected an error, got {answer:?}"),
    }
}

#[test]
fn the_engine_lists_the_same_part_as_the_whole_list_filtered() {
    let mut s = Session::start(Path::new("tests/fixtures/f40/airborne_river"), Some(1)).unwrap();
    let all = s.game.legal_commands("german").unwrap();
    for filter in [
        CommandFilter::command("drop"),
        CommandFilter::unit_command("move", "g1"),
        CommandFilter::unit_command("drop", "p1"),
        CommandFilter::command("end_phase"),
        CommandFilter {
            command: None,
            unit: Some("g1".into()),
        },
    ] {
        let part = s.game.legal_commands_matching("german", &filter).unwrap();
        let expected: Vec<Command> = all.iter().filter(|c| filter.matches(c)).cloned().collect();
        assert_eq!(part, expected, "{filter:?}");
        assert!(!part.is_empty(), "{filter:?}");
    }
}

#[test]
fn light_views_give_ids_and_plain_fields() {
    assert_eq!(probe(r#"hex.units.ids("german")"#), json!(["g1", "p1"]));
    assert_eq!(
        probe(r#"hex.units.ids(nil, { on_map = true, without = { "isolated" } })"#),
        json!(["a1", "g1"])
    );
    assert_eq!(
        probe(r#"hex.units.brief("german")"#),
        json!([{"id": "g1", "side": "german", "nation": "german", "type": "armored",
                "size": "XX", "strength": 4, "ma": 6, "at": "0301", "class": "motorized"}])
    );
    assert_eq!(
        probe(r#"#hex.units.brief("german", { off_map = true })"#),
        json!(2)
    );
    assert_eq!(probe(r#"#hex.units.gone_for("pool")"#), json!(0));
    // One field of every unit (off the map too), in id order; `strength` as numbers.
    assert_eq!(probe(r#"hex.units.list("id")"#), json!(["a1", "g1", "p1"]));
    assert_eq!(probe(r#"hex.units.list("strength")"#), json!([2, 4, 1]));
    // One side's units only; `false` where a unit is off the map.
    assert_eq!(
        probe(r#"hex.units.list("at", "german")"#),
        json!(["0301", false])
    );
    assert_eq!(
        probe(r#"hex.units.list("strength", "german")"#),
        json!([4, 1])
    );
    // (a side the scenario lacks is an error: it answered an empty list)
    let nobody = probe(r#"select(2, pcall(hex.units.list, "id", "nobody"))"#);
    assert!(
        nobody.as_str().is_some_and(|m| m.ends_with(
            "hex.units.list: the scenario has no side 'nobody' (sides: german, allied)"
        )),
        "{nobody}"
    );
    // `limit`: the first ids only (is any unit of the side so flagged?).
    assert_eq!(
        probe(r#"hex.units.ids("german", { limit = 1 })"#),
        json!(["g1"])
    );
    assert_eq!(
        probe(r#"hex.units.ids(nil, { on_map = true, limit = 5 })"#),
        json!(["a1", "g1"])
    );
    assert_eq!(probe(r#"#hex.units.ids(nil, { limit = 0 })"#), json!(0));
    assert_eq!(
        probe(r#"hex.units.ids(nil, { limit = 1.0 })"#),
        json!(["a1"])
    );
    for (limit, shown) in [("-1", "-1"), ("1.5", "1.5"), ("'two'", "two")] {
        assert_eq!(
            probe(&format!(
                r#"select(2, pcall(hex.units.ids, nil, {{ limit = {limit} }}))"#
            )),
            json!(format!(
                "hex.units.ids: opts.limit must be a whole number, 0 or more (got {shown})"
            ))
        );
    }
}

#[test]
fn steps_gives_the_hex_steps_to_the_nearest_target_around_impassable_terrain() {
    // tests/fixtures/f40/airborne: one row of 13 hexes, 0101 a city, 0501 sea.
    let steps = |code: &str| probe_in("tests/fixtures/f40/airborne", code);
    assert_eq!(
        steps(r#"hex.path.steps({ "0101" }, { impassable = { "sea" } })"#),
        json!({"0101": 0, "0201": 1, "0301": 2, "0401": 3})
    );
    let across = steps(r#"hex.path.steps({ "0101" })"#);
    assert_eq!(across["0501"], json!(4));
    assert_eq!(across["1301"], json!(12));
    assert_eq!(across.as_object().map(|o| o.len()), Some(13));
    // The nearest of several targets (given in any order, repeated or not).
    assert_eq!(
        steps(r#"hex.path.steps({ "0901", "0101", "0901" }, { impassable = { "sea" } })"#),
        json!({"0101": 0, "0201": 1, "0301": 2, "0401": 3, "0601": 3, "0701": 2, "0801": 1,
               "0901": 0, "1001": 1, "1101": 2, "1201": 3, "1301": 4})
    );
    assert_eq!(
        steps(r#"select(2, pcall(hex.path.steps, { "9999" }))"#),
        json!("hex.path.steps: targets: '9999' is not a hex of the map")
    );
}

/// The step fields are kept per VM by (targets, impassable terrains): a later call with the same
/// targets and other terrains, or other targets and the same terrains, gets a field of its own,
/// and the same call again gets the same answer.
#[test]
fn steps_asked_again_in_one_vm_keeps_a_field_per_targets_and_impassable_terrains() {
    let answers = probe_in(
        "tests/fixtures/f40/airborne",
        r#"{
            hex.path.steps({ "0101" }, { impassable = { "sea" } }),
            hex.path.steps({ "0101" }),
            hex.path.steps({ "0901" }, { impassable = { "sea" } }),
            hex.path.steps({ "0101" }, { impassable = { "sea" } }),
        }"#,
    );
    let sea_blocked = json!({"0101": 0, "0201": 1, "0301": 2, "0401": 3});
    assert_eq!(answers[0], sea_blocked);
    assert_eq!(answers[1].as_object().map(|o| o.len()), Some(13));
    assert_eq!(answers[1]["0501"], json!(4));
    assert_eq!(answers[1]["1301"], json!(12));
    assert_eq!(
        answers[2],
        json!({"0601": 3, "0701": 2, "0801": 1, "0901": 0, "1001": 1, "1101": 2, "1201": 3,
               "1301": 4})
    );
    assert_eq!(answers[3], sea_blocked);
}

/// A unit no target can be reached from is 99 steps away, and so is every hex around it that
/// no target can be reached from: those are not closer, only a hex with fewer steps is.
#[test]
fn toward_from_where_no_target_is_reached_lists_only_hexes_with_fewer_steps() {
    // Clear terrain impassable to the field: 0101 (a city, the target) is 0 steps away, g1's
    // 0301 and 0201 (clear) 99; g1 may still move through 0201 to 0101.
    assert_eq!(
        probe(r#"hex.path.steps({ "0101" }, { impassable = { "clear" } })"#),
        json!({"0101": 0})
    );
    assert_eq!(
        probe(r#"hex.path.toward({ "0101" }, { { id = "g1" } }, { impassable = { "clear" } })"#),
        json!([{"id": "g1", "rank": 1, "from": 99, "closer": ["0101"]}])
    );
}

/// A budget of 0 reaches no hex: `toward` lists nothing for the unit, `path_to` has no path,
/// `reach` answers an empty table (with or without paths). A unit's own hex is no destination
/// either: `path_to` it is nil.
#[test]
fn a_budget_of_nothing_reaches_no_hex_and_the_units_own_hex_has_no_path() {
    assert_eq!(
        probe(r#"hex.path.toward({ "0101" }, { { id = "g1", budget = 0 } })"#),
        json!({})
    );
    assert_eq!(probe(r#"hex.path.path_to("g1", 0, "0201")"#), Value::Null);
    assert_eq!(probe(r#"hex.path.reach("g1", 0)"#), json!({}));
    assert_eq!(
        probe(r#"hex.path.reach("g1", 0, { paths = true })"#),
        json!({})
    );
    assert_eq!(probe(r#"hex.path.path_to("g1", 6, "0301")"#), Value::Null);
}

#[test]
fn toward_ranks_the_reachable_hexes_closer_to_the_targets_and_path_to_gives_the_path() {
    assert_eq!(
        probe(
            r#"hex.path.toward({ "0101" }, { { id = "g1", budget = 6 } }, { impassable = { "sea" } })"#
        ),
        json!([{"id": "g1", "rank": 1, "from": 2, "closer": ["0101", "0201"]}])
    );
    // Two targets, two units; `limit` stops after the first answer.
    let both = r#"{ "0101", "0501" }, { { id = "g1", budget = 6 }, { id = "a1", budget = 4 } }"#;
    assert_eq!(
        probe(&format!("hex.path.toward({both})")),
        json!([{"id": "g1", "rank": 1, "from": 2, "closer": ["0101", "0201"]},
               {"id": "a1", "rank": 2, "from": 1, "closer": ["0501"]}])
    );
    // `nearest_first`: a1 (one step from 0501) before g1 (two from 0101); `first` starts at a
    // rank of that order.
    assert_eq!(
        probe(&format!(
            "hex.path.toward({both}, {{ nearest_first = true }})"
        )),
        json!([{"id": "a1", "rank": 1, "from": 1, "closer": ["0501"]},
               {"id": "g1", "rank": 2, "from": 2, "closer": ["0101", "0201"]}])
    );
    assert_eq!(
        probe(&format!(
            "hex.path.toward({both}, {{ nearest_first = true, first = 2 }})"
        )),
        json!([{"id": "g1", "rank": 2, "from": 2, "closer": ["0101", "0201"]}])
    );
    assert_eq!(
        probe(&format!("hex.path.toward({both}, {{ first = 2 }})")),
        json!([{"id": "a1", "rank": 2, "from": 1, "closer": ["0501"]}])
    );
    assert_eq!(
        probe(&format!("#hex.path.toward({both}, {{ limit = 1 }})")),
        json!(1)
    );
    // Entries of another shape (a budget as text, which mlua reads as a number) are read key by
    // key instead of in one walk, and answered alike.
    let text = r#"{ "0101", "0501" }, { { id = "g1", budget = "6" }, { id = "a1", budget = 4 } }"#;
    for opts in ["{}", "{ nearest_first = true }", "{ first = 2 }"] {
        let answer = probe(&format!("hex.path.toward({both}, {opts})"));
        assert_eq!(
            answer.as_array().map(Vec::len),
            Some(if opts == "{ first = 2 }" { 1 } else { 2 })
        );
        assert_eq!(
            probe(&format!("hex.path.toward({text}, {opts})")),
            answer,
            "{opts}"
        );
    }
    // A supply filter: g1 keeps to hexes where German armour traces supply to the given sources
    // (the city 0101: both hexes; an Allied hex as the only source: none, so g1 is left out).
    let supplied = |sources: &str| {
        probe(&format!(
            r#"hex.path.toward({{ "0101" }}, {{ {{ id = "g1", budget = 6, supply = "k" }} }},
                 {{ supplied = {{ k = {{ side = "german", class = "motorized", sources = {sources} }} }} }})"#
        ))
    };
    assert_eq!(
        supplied(r#"{ "0101" }"#),
        json!([{"id": "g1", "rank": 1, "from": 2, "closer": ["0101", "0201"]}])
    );
    assert_eq!(supplied(r#"{ "0501" }"#), json!({}));
    // Nothing closer: left out.
    assert_eq!(
        probe(r#"#hex.path.toward({ "0301" }, { { id = "g1", budget = 6 } })"#),
        json!(0)
    );
    assert_eq!(
        probe(r#"hex.path.path_to("g1", 6, "0101")"#),
        json!(["0201", "0101"])
    );
    assert_eq!(probe(r#"hex.path.path_to("g1", 6, "0401")"#), Value::Null);
}

#[test]
fn toward_keeps_a_unit_out_of_the_hexes_its_declared_capacity_would_overfill() {
    // tests/fixtures/f40/stacking: 0101 holds 4 division-equivalents (a corps and a division),
    // 0201 an armored corps (3, armored), 0301 g-d2 (infantry XX), g-pz1 (armored XX) and g-r
    // (armored III, 0 equivalents). The F40 limits: 4 a hex, 3 of them armored.
    let ask = |unit: &str, opts: &str| {
        probe_in(
            "tests/fixtures/f40/stacking",
            &format!(r#"hex.path.toward({{ "0101" }}, {{ {{ id = "{unit}" }} }}, {opts})"#),
        )
    };
    let limits = r#"{ capacity = {
        { limit = 4, by_size = { XX = 1, XXX = 3 } },
        { limit = 3, by_size = { XX = 1, XXX = 3 }, types = { "armored" } } } }"#;
    assert_eq!(
        ask("g-d2", "{}"),
        json!([{"id": "g-d2", "rank": 1, "from": 2, "closer": ["0101", "0201"]}])
    );
    // A division fits beside the armored corps (3 + 1), not in the full 0101 (4 + 1).
    assert_eq!(
        ask("g-d2", limits),
        json!([{"id": "g-d2", "rank": 1, "from": 2, "closer": ["0201"]}])
    );
    // An armored division would make 0201 hold 4 armored equivalents: nowhere to go.
    assert_eq!(ask("g-pz1", limits), json!({}));
    // A regiment loads nothing (its size is not listed): both hexes.
    assert_eq!(
        ask("g-r", limits),
        json!([{"id": "g-r", "rank": 1, "from": 2, "closer": ["0101", "0201"]}])
    );
    // Without `by_size` a limit counts units, whatever their size: 0101 holds two, 0201 one.
    let units = |limit: u32| format!("{{ capacity = {{ {{ limit = {limit} }} }} }}");
    assert_eq!(
        ask("g-r", &units(2)),
        json!([{"id": "g-r", "rank": 1, "from": 2, "closer": ["0201"]}])
    );
    assert_eq!(
        ask("g-r", &units(3)),
        json!([{"id": "g-r", "rank": 1, "from": 2, "closer": ["0101", "0201"]}])
    );
}

/// A unit entry's `supply` that is not UTF-8 text is refused as the key-by-key reading refuses
/// it, not taken as no supply (which would list hexes the unit cannot trace supply to); so are a
/// `supply` or a `budget` of another type, each named with the unit.
#[test]
fn toward_refuses_a_supply_key_that_is_not_utf8() {
    let message = probe_error(
        r#"hex.path.toward({ "0101" }, { { id = "g1", budget = 6, supply = "k\255" } },
             { supplied = { k = { side = "german", class = "motorized", sources = { "0501" } } } })"#,
    );
    assert_eq!(
        message.rsplit_once("probe.lua:1: ").map(|(_, why)| why),
        Some("hex.path.toward: unit g1's supply: UTF-8 text expected, got a string of other bytes"),
        "{message}"
    );
    for (entry, why) in [
        (
            r#"{ id = "g1", budget = 6, supply = {} }"#,
            "hex.path.toward: unit g1's supply: a key of opts.supplied expected, got a table",
        ),
        (
            r#"{ id = "g1", budget = {}, supply = "k" }"#,
            "hex.path.toward: unit g1's budget: a number expected, got a table",
        ),
        (
            r#"{ id = "g1", budget = "six", supply = "k" }"#,
            "hex.path.toward: unit g1's budget: a number expected, got a string",
        ),
    ] {
        let message = probe_error(&format!(
            r#"hex.path.toward({{ "0101" }}, {{ {entry} }},
             {{ supplied = {{ k = {{ side = "german", class = "motorized", sources = {{ "0501" }} }} }} }})"#
        ));
        assert_eq!(
            message.rsplit_once("probe.lua:1: ").map(|(_, why)| why),
            Some(why),
            "{message}"
        );
    }
}

/// A malformed `capacity` is named field by field (read in one walk, not by mlua's conversion).
#[test]
fn toward_names_a_malformed_capacity() {
    let error = |opts: &str| {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("probe.lua");
        let code = format!(r#"hex.path.toward({{ "0101" }}, {{ {{ id = "g-d2" }} }}, {opts})"#);
        std::fs::write(
            &file,
            format!("hex.rules.query(\"probe\", function() return {code} end)\n"),
        )
        .unwrap();
        let mut s =
            Session::start_with_mods(Path::new("tests/fixtures/f40/stacking"), Some(1), &[file])
                .unwrap();
        let e = s.game.query("probe", &Value::Null).unwrap_err().to_string();
        let start = e.find("hex.path.toward").unwrap_or(0);
        e[start..].lines().next().unwrap_or("").to_string()
    };
    assert_eq!(
        error(r#"{ capacity = { { limit = "four" } } }"#),
        "hex.path.toward: opts.capacity[1].limit must be a number"
    );
    assert_eq!(
        error(r#"{ capacity = { { limit = 4, by_size = { XX = "one" } } } }"#),
        "hex.path.toward: opts.capacity[1].by_size.XX must be a number"
    );
    assert_eq!(
        error(r#"{ capacity = { { limit = 4, types = "armored" } } }"#),
        "hex.path.toward: opts.capacity[1].types must be a list of type names"
    );
    assert_eq!(
        error(r#"{ capacity = 4 }"#),
        "hex.path.toward: opts.capacity must be a list of tables"
    );
    // One capacity given bare, not in a list.
    assert_eq!(
        error(r#"{ capacity = { limit = 4 } }"#),
        "hex.path.toward: opts.capacity must be a list of tables"
    );
    // `types` as a set, not a list.
    assert_eq!(
        error(r#"{ capacity = { { limit = 4, types = { armored = true } } } }"#),
        "hex.path.toward: opts.capacity[1].types must be a list of type names"
    );
}

/// Empty tables are taken: `capacity = {}` is no capacity, `types = {}` a capacity no unit
/// type loads.
#[test]
fn toward_takes_an_empty_capacity_list_and_an_empty_types_list() {
    let ask = |opts: &str| {
        probe_in(
            "tests/fixtures/f40/stacking",
            &format!(r#"hex.path.toward({{ "0101" }}, {{ {{ id = "g-pz1" }} }}, {opts})"#),
        )
    };
    let both = json!([{"id": "g-pz1", "rank": 1, "from": 2, "closer": ["0101", "0201"]}]);
    assert_eq!(ask("{ capacity = {} }"), both);
    assert_eq!(ask("{ capacity = { { limit = 0, types = {} } } }"), both);
    // (the same limit counting every unit: g-pz1 fits nowhere)
    assert_eq!(ask("{ capacity = { { limit = 0 } } }"), json!({}));
}

/// The greedy bot checks drops lazily, best hex first (ai.lua, drop_choice), with the listing's
/// own two steps: the 11.1 drop hexes (`airborne.drop_hexes`) and the stacking and political
/// checks (`restrictions.one_hex_checker`). Together they give the `drop` listing exactly, so the
/// bot picks what it would pick from the listing. Here the German para p1 (a regiment, 0
/// division-equivalents: it fits anywhere) may drop into the five hexes; and the checker's
/// stacking test refuses a division (1) where its side already has 4 (F40-5.2).
#[test]
fn f40_11_1_drop_hexes_through_the_one_hex_checker_are_the_drop_listing() {
    let lazy = r#"(function()
        local airborne = require("france1940.airborne")
        local restrictions = require("france1940.restrictions")
        local u = hex.units.get("p1")
        local enters = restrictions.one_hex_checker("german")
        local out = {}
        for _, to in ipairs(airborne.drop_hexes(u, "german")) do
          if enters(u, to) then out[#out + 1] = { command = "drop", unit = "p1", to = to } end
        end
        return out
      end)()"#;
    let listed = r#"hex.commands.legal("german", { command = "drop", unit = "p1" })"#;
    assert_eq!(probe(lazy), probe(listed));
    assert_eq!(probe(lazy), p1_drops());
    // The checker applies F40-5.2: a division of 1 equivalent does not fit beside 4.
    let stacked = r#"(function()
        local restrictions = require("france1940.restrictions")
        local enters = restrictions.one_hex_checker("german", { total = { ["0301"] = 4 }, armored = {} })
        local xx = { id = "x", side = "german", size = "XX", type = "infantry", status = {} }
        return { enters(xx, "0301"), enters(xx, "0401") }
      end)()"#;
    assert_eq!(probe(stacked), json!([false, true]));
}

/// The supply fields traced in one call are kept by (side, class, sources): a field asked for
/// again is the one traced, and a field differing in any one of the three is traced for itself.
/// On tests/fixtures/f40/supply/lines_classes (a1 at 0302 puts 0301, 0202 and 0402 in ZOC; the
/// German sources east, 0601): armour traces through the ZOC (F40-6.5), foot does not.
#[test]
fn supplied_hexes_asked_in_one_call_keeps_a_field_per_side_class_and_sources() {
    let answers = probe_in(
        "tests/fixtures/f40/supply/lines_classes.toml",
        r#"{
            hex.path.supplied_hexes("german", "motorized", { "0601" }),
            hex.path.supplied_hexes("german", "foot", { "0601" }),
            hex.path.supplied_hexes("allied", "foot", { "0601" }),
            hex.path.supplied_hexes("german", "foot", { "0101" }),
            hex.path.supplied_hexes("german", "motorized", { "0601" }),
        }"#,
    );
    let motorized = json!([
        "0101", "0201", "0301", "0401", "0501", "0601", "0102", "0202", "0302", "0402", "0502",
        "0602"
    ]);
    assert_eq!(
        answers,
        json!([
            motorized,
            ["0301", "0401", "0501", "0601", "0402", "0502", "0602"],
            // (0601 is no Allied hex)
            {},
            ["0101", "0201", "0301", "0102", "0202"],
            motorized,
        ])
    );
}

/// Hexes equally near the targets are listed in label order, not in the map's (row by row)
/// order: on supply/lines_classes g-arm (0101) toward a1's 0302 has 0202 and 0301 one step away.
#[test]
fn toward_lists_hexes_as_near_as_each_other_in_label_order() {
    assert_eq!(
        probe_in(
            "tests/fixtures/f40/supply/lines_classes.toml",
            r#"hex.path.toward({ "0302" }, { { id = "g-arm" } })"#
        ),
        json!([{"id": "g-arm", "rank": 1, "from": 2, "closer": ["0202", "0301"]}])
    );
}
